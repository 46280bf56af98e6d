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

/// The viewports and scissors of one draw, in the target's images. Only the first `count`
/// indices are compared and recorded: the rest are never read (most draws use one).
#[derive(Debug, Clone, Copy)]
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
        // Zeroed whole (a fast fill), then the indices in use set: the rest are never read.
        let mut out = Self {
            count,
            viewports: [[0.0; 6]; MAX_VIEWPORTS],
            scissors: [vk::Rect2D::default(); MAX_VIEWPORTS],
        };
        for v in &mut out.viewports[..count as usize] {
            *v = [0.0, 0.0, 1.0, 1.0, 0.0, 1.0];
        }
        out
    }

    /// The indices in use.
    fn used(&self) -> usize {
        self.count as usize
    }

    /// Whether the viewports in use differ from `other`'s (the scissors may not).
    pub(crate) fn viewports_differ(&self, other: &Self) -> bool {
        self.count != other.count || self.viewports[..self.used()] != other.viewports[..self.used()]
    }

    /// Whether the scissors in use differ from `other`'s.
    pub(crate) fn scissors_differ(&self, other: &Self) -> bool {
        self.count != other.count || self.scissors[..self.used()] != other.scissors[..self.used()]
    }

    /// Records the viewports.
    ///
    /// # Safety
    ///
    /// `cb` is recording with a pipeline bound whose viewport count is `self.count` and whose
    /// viewports are dynamic.
    pub(crate) unsafe fn record_viewports(&self, raw: &ash::Device, cb: vk::CommandBuffer) {
        let mut viewports = [vk::Viewport::default(); MAX_VIEWPORTS];
        for (out, &[x, y, width, height, min_depth, max_depth]) in
            viewports.iter_mut().zip(&self.viewports[..self.used()])
        {
            *out = vk::Viewport {
                x,
                y,
                width,
                height,
                min_depth,
                max_depth,
            };
        }
        // SAFETY: as the caller guarantees; `count` ≤ MAX_VIEWPORTS ≤ the device's maxViewports
        // (1 without multiViewport, `context::viewports::supported`).
        unsafe { raw.cmd_set_viewport(cb, 0, &viewports[..self.used()]) }
    }

    /// Records the scissors.
    ///
    /// # Safety
    ///
    /// As [`Self::record_viewports`], for scissors.
    pub(crate) unsafe fn record_scissors(&self, raw: &ash::Device, cb: vk::CommandBuffer) {
        // SAFETY: as the caller guarantees.
        unsafe { raw.cmd_set_scissor(cb, 0, &self.scissors[..self.used()]) }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_indices_in_use_are_compared() {
        let one = DrawViewports::empty(1);
        let mut other = one;
        other.viewports[3] = [9.0; 6];
        other.scissors[3].extent.width = 9;
        assert!(!one.viewports_differ(&other));
        assert!(!one.scissors_differ(&other));
        other.viewports[0][2] = 2.0;
        other.scissors[0].offset.x = 1;
        assert!(one.viewports_differ(&other));
        assert!(one.scissors_differ(&other));
        let mut all = DrawViewports::empty(MAX_VIEWPORTS as u32);
        let before = all;
        all.viewports[MAX_VIEWPORTS - 1][0] = 1.0;
        assert!(all.viewports_differ(&before));
        assert!(!all.scissors_differ(&before));
    }
}
