//! The viewport array (GL_ARB_viewport_array, GL 4.6 §13.6.1): per index a viewport, a depth
//! range, a scissor box and a scissor enable, and the commands and queries over them.
//!
//! Design decisions:
//! - One array of [`MAX_VIEWPORTS`] entries whatever the device: a device without
//!   `multiViewport` (or with fewer than 16 viewports) answers `GL_MAX_VIEWPORTS` 1, every
//!   index past 0 is `GL_INVALID_VALUE`, and the extension is not offered.
//! - Viewports are floats (`glViewportIndexedf`); `glViewport`'s integers are the same state.
//!   Origins are clamped to `GL_VIEWPORT_BOUNDS_RANGE` and sizes to `GL_MAX_VIEWPORT_DIMS` when
//!   set, as the spec says, so a query answers what a draw will use.
//! - The non-indexed commands (`glViewport`, `glScissor`, `glDepthRange`,
//!   `glEnable(GL_SCISSOR_TEST)`) set every index; the non-indexed queries answer index 0.
//! - Draws turn the array into Vulkan viewports and scissors (`draw::viewport`); clears and
//!   blits use index 0's scissor only (§17.4.3, §18.3.1).

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_value, GlResult};
use crate::gl::context::get::Value;
use crate::gl::context::state::{check_size, Rect};
use crate::gl::context::Context;
use crate::gl::vk::device::Device;

/// The viewports a context keeps (`GL_MAX_VIEWPORTS` where the extension is offered).
pub(crate) const MAX_VIEWPORTS: usize = 16;

/// One viewport in window coordinates (GL's, lower-left origin).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct ViewportRect {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
}

impl ViewportRect {
    /// A viewport of zero width or height draws nothing.
    pub(crate) fn is_empty(&self) -> bool {
        self.width <= 0.0 || self.height <= 0.0
    }
}

/// Every index's viewport, depth range, scissor box and scissor enable.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Viewports {
    pub rect: [ViewportRect; MAX_VIEWPORTS],
    /// Near and far, each in [0, 1].
    pub depth_range: [[f64; 2]; MAX_VIEWPORTS],
    pub scissor: [Rect; MAX_VIEWPORTS],
    /// Bit i: the scissor test is on for index i.
    pub scissor_test: u16,
}

impl Viewports {
    /// GL's initial state: every viewport and scissor box the drawable's size, depth ranges
    /// [0, 1], scissor tests off.
    pub(crate) fn new(width: i32, height: i32) -> Self {
        let mut v = Self {
            rect: [ViewportRect::default(); MAX_VIEWPORTS],
            depth_range: [[0.0, 1.0]; MAX_VIEWPORTS],
            scissor: [Rect::default(); MAX_VIEWPORTS],
            scissor_test: 0,
        };
        v.set_drawable_size(width, height);
        v
    }

    /// Every viewport and scissor box set to a drawable of `width`×`height` at the origin
    /// (the first `eglMakeCurrent`).
    pub(crate) fn set_drawable_size(&mut self, width: i32, height: i32) {
        let whole = Rect {
            x: 0,
            y: 0,
            width,
            height,
        };
        self.scissor = [whole; MAX_VIEWPORTS];
        self.rect = [ViewportRect {
            x: 0.0,
            y: 0.0,
            width: width as f32,
            height: height as f32,
        }; MAX_VIEWPORTS];
    }

    /// Whether index `i`'s scissor test is on.
    pub(crate) fn scissor_on(&self, i: usize) -> bool {
        self.scissor_test & (1 << i) != 0
    }

    /// The GL rectangle index `i`'s scissor state lets through: its box when the test is on,
    /// else an unbounded one.
    pub(crate) fn scissor_area(&self, i: usize) -> Rect {
        if self.scissor_on(i) {
            self.scissor[i]
        } else {
            Rect {
                x: 0,
                y: 0,
                width: i32::MAX,
                height: i32::MAX,
            }
        }
    }
}

/// Whether `device` can offer GL_ARB_viewport_array: `multiViewport`, at least 16 viewports and
/// geometry shaders (the only GL 4.1 stage that writes `gl_ViewportIndex`).
pub(crate) fn supported(device: &Device) -> bool {
    let caps = device.caps();
    caps.gl4.multi_viewport
        && caps.limits.max_viewports as usize >= MAX_VIEWPORTS
        && caps.geometry_shader
}

/// The extensions of the viewport array the device can offer: GL_ARB_viewport_array and
/// GL_ARB_fragment_layer_viewport (`gl_Layer`/`gl_ViewportIndex` read in fragment shaders);
/// with `shaderOutputViewportIndex` and `shaderOutputLayer`, writing both from the vertex and
/// tessellation stages (GL_ARB_shader_viewport_layer_array, and AMD's two older extensions,
/// whose directives `glsl::layer_viewport` turns into the ARB one).
pub(crate) fn extensions(device: &Device) -> Vec<&'static str> {
    if !supported(device) {
        return Vec::new();
    }
    let mut out = vec!["GL_ARB_viewport_array", "GL_ARB_fragment_layer_viewport"];
    if device.caps().gl4.shader_output_viewport_index_layer {
        out.extend(crate::glsl::layer_viewport::VERTEX_EXTENSIONS);
    }
    out
}

/// A float for state: NaN becomes 0 (GL leaves NaN undefined; clamping must not see it).
fn finite(v: f32) -> f32 {
    if v.is_nan() {
        0.0
    } else {
        v
    }
}

/// A depth-range bound clamped to [0, 1] (NaN: 0).
fn unit(v: f64) -> f64 {
    if v.is_nan() {
        0.0
    } else {
        v.clamp(0.0, 1.0)
    }
}

impl Context {
    /// `GL_MAX_VIEWPORTS`: 16 where the device has the viewport array, else 1.
    pub(crate) fn max_viewports(&self) -> usize {
        if supported(&self.device) {
            MAX_VIEWPORTS
        } else {
            1
        }
    }

    /// The indices `first..first + count` of an array command; `GL_INVALID_VALUE` for a
    /// negative count or a range past `GL_MAX_VIEWPORTS`.
    fn viewport_range(&self, first: u32, count: i32) -> GlResult<std::ops::Range<usize>> {
        let max = self.max_viewports();
        if count < 0 || u64::from(first) + count as u64 > max as u64 {
            return invalid_value(format!(
                "viewport indices {first}+{count} (GL_MAX_VIEWPORTS is {max})"
            ));
        }
        Ok(first as usize..first as usize + count as usize)
    }

    /// The indices and elements of an array command of `count` elements at `v`:
    /// `GL_INVALID_VALUE` for a bad range ([`Self::viewport_range`]) or fewer than `count`
    /// elements.
    fn array_elements<'a, T>(
        &self,
        first: u32,
        count: i32,
        v: &'a [T],
    ) -> GlResult<(std::ops::Range<usize>, &'a [T])> {
        let range = self.viewport_range(first, count)?;
        match v.get(..range.len()) {
            Some(elements) => Ok((range, elements)),
            None => invalid_value(format!(
                "{count} viewport elements expected, {} given",
                v.len()
            )),
        }
    }

    /// A viewport as stored: negative sizes `GL_INVALID_VALUE`, the origin clamped to
    /// `GL_VIEWPORT_BOUNDS_RANGE`, the size to `GL_MAX_VIEWPORT_DIMS`.
    fn clamped_viewport(&self, v: [f32; 4]) -> GlResult<ViewportRect> {
        let [x, y, w, h] = v.map(finite);
        if w < 0.0 || h < 0.0 {
            return invalid_value(format!("negative viewport size {w}x{h}"));
        }
        let limits = &self.device.caps().limits;
        let [lo, hi] = limits.viewport_bounds_range;
        let [max_w, max_h] = limits.max_viewport_dimensions;
        Ok(ViewportRect {
            x: x.clamp(lo, hi),
            y: y.clamp(lo, hi),
            width: w.min(max_w as f32),
            height: h.min(max_h as f32),
        })
    }

    /// `glViewportArrayv` (and `glViewportIndexedf(v)`, one element): viewports
    /// `first..first + count` from `v`; nothing changes on an error.
    pub fn viewport_array(&mut self, first: u32, count: i32, v: &[[f32; 4]]) {
        let r = (|| {
            let (range, v) = self.array_elements(first, count, v)?;
            let rects = v
                .iter()
                .map(|&e| self.clamped_viewport(e))
                .collect::<GlResult<Vec<_>>>()?;
            self.pipeline_state.viewports.rect[range].copy_from_slice(&rects);
            Ok(())
        })();
        self.record(r);
    }

    /// `glViewport`: every viewport.
    pub fn viewport(&mut self, x: i32, y: i32, width: i32, height: i32) {
        let r = self
            .clamped_viewport([x as f32, y as f32, width as f32, height as f32])
            .map(|rect| self.pipeline_state.viewports.rect = [rect; MAX_VIEWPORTS]);
        self.record(r);
    }

    /// `glScissorArrayv` (and `glScissorIndexed(v)`, one element): scissor boxes
    /// `first..first + count` from `v`; nothing changes on an error.
    pub fn scissor_array(&mut self, first: u32, count: i32, v: &[[i32; 4]]) {
        let r = (|| {
            let (range, v) = self.array_elements(first, count, v)?;
            for &[_, _, w, h] in v {
                check_size(w, h)?;
            }
            let boxes = v.iter().map(|&[x, y, width, height]| Rect {
                x,
                y,
                width,
                height,
            });
            for (slot, b) in self.pipeline_state.viewports.scissor[range]
                .iter_mut()
                .zip(boxes)
            {
                *slot = b;
            }
            Ok(())
        })();
        self.record(r);
    }

    /// `glScissor`: every scissor box.
    pub fn scissor(&mut self, x: i32, y: i32, width: i32, height: i32) {
        let r = check_size(width, height).map(|()| {
            let b = Rect {
                x,
                y,
                width,
                height,
            };
            self.pipeline_state.viewports.scissor = [b; MAX_VIEWPORTS];
        });
        self.record(r);
    }

    /// `glDepthRangeArrayv` (and `glDepthRangeIndexed`, one element): depth ranges
    /// `first..first + count` from `v`, each bound clamped to [0, 1].
    pub fn depth_range_array(&mut self, first: u32, count: i32, v: &[[f64; 2]]) {
        let r = self.array_elements(first, count, v).map(|(range, v)| {
            let ranges = &mut self.pipeline_state.viewports.depth_range[range];
            for (slot, &[n, f]) in ranges.iter_mut().zip(v) {
                *slot = [unit(n), unit(f)];
            }
        });
        self.record(r);
    }

    /// `glDepthRange`: every depth range.
    pub fn depth_range(&mut self, near: f64, far: f64) {
        self.pipeline_state.viewports.depth_range = [[unit(near), unit(far)]; MAX_VIEWPORTS];
    }

    /// `glEnable`/`glDisable(GL_SCISSOR_TEST)`: every index's scissor test.
    pub(crate) fn set_scissor_test(&mut self, on: bool) {
        self.pipeline_state.viewports.scissor_test = if on { u16::MAX } else { 0 };
    }

    /// `glEnablei`/`glDisablei(GL_SCISSOR_TEST, index)`.
    pub(crate) fn set_scissor_test_indexed(&mut self, index: u32, on: bool) -> GlResult<()> {
        let i = self.viewport_index(index)?;
        let bits = &mut self.pipeline_state.viewports.scissor_test;
        *bits = if on {
            *bits | 1 << i
        } else {
            *bits & !(1 << i)
        };
        Ok(())
    }

    /// `index` as a viewport index, `GL_INVALID_VALUE` at or past `GL_MAX_VIEWPORTS`.
    pub(crate) fn viewport_index(&self, index: u32) -> GlResult<usize> {
        self.viewport_range(index, 1).map(|r| r.start)
    }

    /// The indexed queries of the viewport array (`glGetFloati_v(GL_VIEWPORT, i)`, …,
    /// `glIsEnabledi(GL_SCISSOR_TEST, i)`); None for other pnames. Depth ranges answer as
    /// floats, so the integer forms round them (as Mesa does; piglit checks it).
    pub(crate) fn get_viewport_indexed(
        &self,
        pname: GLenum,
        index: u32,
    ) -> Option<GlResult<Value>> {
        if !matches!(
            pname,
            GL_VIEWPORT | GL_SCISSOR_BOX | GL_DEPTH_RANGE | GL_SCISSOR_TEST
        ) {
            return None;
        }
        Some(self.viewport_index(index).map(|i| {
            let v = &self.pipeline_state.viewports;
            match pname {
                GL_VIEWPORT => viewport_value(v.rect[i]),
                GL_SCISSOR_BOX => scissor_value(v.scissor[i]),
                GL_DEPTH_RANGE => Value::Floats(v.depth_range[i].to_vec()),
                _ => Value::Bools(vec![v.scissor_on(i)]),
            }
        }))
    }

    /// The non-indexed queries of the viewport array: index 0's state and the limits.
    pub(crate) fn get_viewports(&self, pname: GLenum) -> Option<GlResult<Value>> {
        let v = &self.pipeline_state.viewports;
        let limits = &self.device.caps().limits;
        Some(Ok(match pname {
            GL_VIEWPORT => viewport_value(v.rect[0]),
            GL_SCISSOR_BOX => scissor_value(v.scissor[0]),
            GL_DEPTH_RANGE => Value::Colors(v.depth_range[0].to_vec()),
            GL_SCISSOR_TEST => Value::Bools(vec![v.scissor_on(0)]),
            GL_MAX_VIEWPORTS => Value::Ints(vec![self.max_viewports() as i64]),
            GL_VIEWPORT_SUBPIXEL_BITS => {
                Value::Ints(vec![i64::from(limits.viewport_sub_pixel_bits)])
            }
            GL_VIEWPORT_BOUNDS_RANGE => Value::Floats(
                limits
                    .viewport_bounds_range
                    .iter()
                    .map(|&b| f64::from(b))
                    .collect(),
            ),
            // Vulkan names no vertex of a primitive as the one whose layer or viewport index
            // counts.
            GL_LAYER_PROVOKING_VERTEX | GL_VIEWPORT_INDEX_PROVOKING_VERTEX => {
                Value::Ints(vec![i64::from(GL_UNDEFINED_VERTEX)])
            }
            _ => return None,
        }))
    }
}

/// A viewport as a query answers it (floats; the integer forms round).
fn viewport_value(r: ViewportRect) -> Value {
    Value::Floats(
        [r.x, r.y, r.width, r.height]
            .iter()
            .map(|&c| f64::from(c))
            .collect(),
    )
}

/// A scissor box as a query answers it.
fn scissor_value(r: Rect) -> Value {
    Value::Ints(vec![
        i64::from(r.x),
        i64::from(r.y),
        i64::from(r.width),
        i64::from(r.height),
    ])
}
