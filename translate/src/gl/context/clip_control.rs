//! GL_ARB_clip_control (GL 4.5): `glClipControl(origin, depth)` and its two queries.
//!
//! Design decisions:
//! - `GL_ZERO_TO_ONE` clips depth to [0, w] and maps it to the depth range as it is, which is
//!   Vulkan's own rule: the GL-to-Vulkan depth remap of the last stage before rasterisation
//!   (`glsl::depth_remap`) is skipped. The remap reads a specialization constant, so the choice
//!   is a pipeline-key bit (`vk::pipeline::PipelineKey::depth_zero_to_one`), not a relink.
//! - `GL_UPPER_LEFT` negates window y (clip y = +w lands on window row 0): ArenaGL keeps GL's
//!   rows in Vulkan's images (`docs/gl.md`, "Orientation and depth"), so the draw's Vulkan
//!   viewports are flipped (negative height, `draw::viewport`). GL computes facing with the
//!   sign of the area reversed under it, so a polygon keeps the facing it has in clip space:
//!   the pipeline's front face is flipped with the viewport.

use super::enums::GLenum;
use super::error::{invalid_enum, GlResult};
use super::get::Value;
use super::Context;

pub(crate) const GL_LOWER_LEFT: GLenum = 0x8CA1;
pub(crate) const GL_UPPER_LEFT: GLenum = 0x8CA2;
pub(crate) const GL_NEGATIVE_ONE_TO_ONE: GLenum = 0x935E;
pub(crate) const GL_ZERO_TO_ONE: GLenum = 0x935F;
/// `glGet` of the two settings.
pub(crate) const GL_CLIP_ORIGIN: GLenum = 0x935C;
pub(crate) const GL_CLIP_DEPTH_MODE: GLenum = 0x935D;

/// `glClipControl`'s two settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ClipControl {
    pub origin: GLenum,
    pub depth: GLenum,
}

impl Default for ClipControl {
    /// GL's initial state: lower-left origin, depth clipped to [-w, w].
    fn default() -> Self {
        Self {
            origin: GL_LOWER_LEFT,
            depth: GL_NEGATIVE_ONE_TO_ONE,
        }
    }
}

impl ClipControl {
    /// Window y is negated (`GL_UPPER_LEFT`).
    pub(crate) fn upper_left(self) -> bool {
        self.origin == GL_UPPER_LEFT
    }

    /// Clip-space depth is Vulkan's already (`GL_ZERO_TO_ONE`): no remap.
    pub(crate) fn zero_to_one(self) -> bool {
        self.depth == GL_ZERO_TO_ONE
    }
}

impl Context {
    /// `glClipControl`: `GL_INVALID_ENUM` for an origin or a depth mode GL does not name, and
    /// then nothing changes.
    pub fn clip_control(&mut self, origin: GLenum, depth: GLenum) {
        let r = if ![GL_LOWER_LEFT, GL_UPPER_LEFT].contains(&origin) {
            invalid_enum("glClipControl origin", origin)
        } else if ![GL_NEGATIVE_ONE_TO_ONE, GL_ZERO_TO_ONE].contains(&depth) {
            invalid_enum("glClipControl depth", depth)
        } else {
            self.pipeline_state.clip_control = ClipControl { origin, depth };
            Ok(())
        };
        self.record(r);
    }

    /// `glGet` of `GL_CLIP_ORIGIN` and `GL_CLIP_DEPTH_MODE`; `None` for any other pname.
    pub(crate) fn get_clip_control(&self, pname: GLenum) -> Option<GlResult<Value>> {
        let c = self.pipeline_state.clip_control;
        let v = match pname {
            GL_CLIP_ORIGIN => c.origin,
            GL_CLIP_DEPTH_MODE => c.depth,
            _ => return None,
        };
        Some(Ok(Value::Ints(vec![i64::from(v)])))
    }
}
