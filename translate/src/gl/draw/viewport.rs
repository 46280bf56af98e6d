//! The viewports and scissors a draw records: GL's viewport array (`context::viewports`) as
//! Vulkan dynamic state in the target's images.
//!
//! Design decisions:
//! - A draw whose program writes `gl_ViewportIndex` uses every index (`GL_MAX_VIEWPORTS`, the
//!   pipeline's viewport count); any other draw uses index 0 only, so the common draw sets one
//!   viewport and one scissor.
//! - An index whose viewport is empty, or whose scissor box misses the target, gets an empty
//!   scissor (Vulkan's viewports cannot be empty): primitives sent to it draw nothing. A draw
//!   where every index is empty records nothing (`None`), as before the viewport array.
//! - A default framebuffer rendered at a reduced scale (`pressure::render_scale`) maps GL's
//!   window coordinates onto its smaller images: viewports exactly, scissors rounded outwards.
//! - Vulkan bounds a viewport's corners to `viewportBoundsRange` (GL keeps a viewport far off
//!   the drawable legal): the size is kept and the origin slides inside the range.

use ash::vk;

use crate::gl::context::viewports::{ViewportRect, MAX_VIEWPORTS};
use crate::gl::context::Context;
use crate::gl::draw::clip;
use crate::gl::objects::framebuffer::Target;
use crate::gl::objects::program::Linked;

/// The viewports and scissors of one draw, in the target's images.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct DrawViewports {
    /// Indices in use: 1, or `GL_MAX_VIEWPORTS` for a program writing `gl_ViewportIndex`.
    pub count: u32,
    /// Per index: x, y, width, height, min depth, max depth.
    viewports: [[f32; 6]; MAX_VIEWPORTS],
    scissors: [vk::Rect2D; MAX_VIEWPORTS],
}

impl DrawViewports {
    /// No index drawing anything (a draw that only feeds transform feedback).
    pub(crate) fn empty(count: u32) -> Self {
        Self {
            count,
            viewports: [[0.0, 0.0, 1.0, 1.0, 0.0, 1.0]; MAX_VIEWPORTS],
            scissors: [vk::Rect2D::default(); MAX_VIEWPORTS],
        }
    }

    /// Whether the viewports differ from `other`'s (the scissors may not).
    pub(crate) fn viewports_differ(&self, other: &Self) -> bool {
        self.count != other.count || self.viewports != other.viewports
    }

    /// Whether the scissors differ from `other`'s.
    pub(crate) fn scissors_differ(&self, other: &Self) -> bool {
        self.count != other.count || self.scissors != other.scissors
    }

    /// Records the viewports.
    ///
    /// # Safety
    ///
    /// `cb` is recording with a pipeline bound whose viewport count is `self.count` and whose
    /// viewports are dynamic.
    pub(crate) unsafe fn record_viewports(&self, raw: &ash::Device, cb: vk::CommandBuffer) {
        let viewports = self
            .viewports
            .map(|[x, y, width, height, min_depth, max_depth]| vk::Viewport {
                x,
                y,
                width,
                height,
                min_depth,
                max_depth,
            });
        // SAFETY: as the caller guarantees; `count` ≤ MAX_VIEWPORTS ≤ the device's maxViewports
        // (1 without multiViewport, `context::viewports::supported`).
        unsafe { raw.cmd_set_viewport(cb, 0, &viewports[..self.count as usize]) }
    }

    /// Records the scissors.
    ///
    /// # Safety
    ///
    /// As [`Self::record_viewports`], for scissors.
    pub(crate) unsafe fn record_scissors(&self, raw: &ash::Device, cb: vk::CommandBuffer) {
        // SAFETY: as the caller guarantees.
        unsafe { raw.cmd_set_scissor(cb, 0, &self.scissors[..self.count as usize]) }
    }
}

impl Context {
    /// The pipeline's viewport count for a draw of `linked` (see the module docs).
    pub(crate) fn viewport_count(&self, linked: &Linked) -> u32 {
        if linked.writes_viewport_index {
            self.max_viewports() as u32
        } else {
            1
        }
    }

    /// The draw's viewports and scissors in `target`'s images for a draw of `linked`; None
    /// when no index can draw anything (the draw then records nothing but still generates
    /// primitives).
    pub(crate) fn draw_viewports(&self, target: &Target, linked: &Linked) -> Option<DrawViewports> {
        let count = self.viewport_count(linked);
        let mut out = DrawViewports::empty(count);
        let state = &self.pipeline_state.viewports;
        for i in 0..count as usize {
            let rect = state.rect[i];
            if rect.is_empty() {
                continue;
            }
            out.viewports[i] = self.image_viewport(target, rect, state.depth_range[i]);
            if let Some(s) = clip(
                target.to_image(state.scissor_area(i)),
                target.width,
                target.height,
            ) {
                out.scissors[i] = s;
            }
        }
        let draws = out.scissors[..count as usize]
            .iter()
            .any(|s| s.extent.width > 0 && s.extent.height > 0);
        draws.then_some(out)
    }

    /// A GL viewport and depth range as a Vulkan viewport in `target`'s images; flipped
    /// (from its top edge, negative height) under `glClipControl(GL_UPPER_LEFT, …)`.
    fn image_viewport(&self, target: &Target, vp: ViewportRect, depth: [f64; 2]) -> [f32; 6] {
        let (sx, sy) = target.scale();
        let bounds = self.device.caps().limits.viewport_bounds_range;
        let place =
            |origin: f32, size: f32| origin.clamp(bounds[0], (bounds[1] - size).max(bounds[0]));
        let (y, height) = (place(vp.y * sy, vp.height * sy), vp.height * sy);
        let (y, height) = if self.pipeline_state.clip_control.upper_left() {
            (y + height, -height)
        } else {
            (y, height)
        };
        [
            place(vp.x * sx, vp.width * sx),
            y,
            vp.width * sx,
            height,
            depth[0] as f32,
            depth[1] as f32,
        ]
    }
}
