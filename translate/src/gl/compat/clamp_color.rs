//! `glClampColor` (GL 3.0, ARB_color_buffer_float): whether colours are clamped to [0, 1] at
//! the vertex stage's end, at the fragment stage's end and when read back.
//!
//! Design decisions:
//! - Core contexts know only `GL_CLAMP_READ_COLOR`; the vertex and fragment targets are the
//!   compatibility profile's (GL 3.2 compatibility §2.14.6, §3.9.6) and are `GL_INVALID_ENUM`
//!   elsewhere, for `glClampColor` and `glGet` alike.
//! - Fragment clamping is done by the fragment epilogue (`glsl::frag_epilogue`) when the target
//!   is `GL_TRUE`. `GL_FIXED_ONLY` (the default) clamps only when every enabled draw buffer is
//!   fixed-point, and Vulkan already clamps a normalized attachment's source colour before
//!   blending and storing, so it needs nothing of ours; `GL_FALSE` is Vulkan's behaviour.
//! - The vertex and read targets are stored and answered: every fixed-function colour this GL
//!   computes is already in [0, 1], and readback of float buffers returns what is stored.

use crate::gl::context::enums::GLenum;
use crate::gl::context::error::{invalid_enum, GlResult};
use crate::gl::context::get::Value;
use crate::gl::context::{Context, Profile};

pub(crate) const GL_CLAMP_VERTEX_COLOR: GLenum = 0x891A;
pub(crate) const GL_CLAMP_FRAGMENT_COLOR: GLenum = 0x891B;
pub(crate) const GL_CLAMP_READ_COLOR: GLenum = 0x891C;
pub(crate) const GL_FIXED_ONLY: GLenum = 0x891D;
const GL_FALSE: GLenum = 0;
const GL_TRUE: GLenum = 1;

/// The three clamp targets' values (`GL_TRUE`, `GL_FALSE` or `GL_FIXED_ONLY`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ClampColor {
    pub vertex: GLenum,
    pub fragment: GLenum,
    pub read: GLenum,
}

impl Default for ClampColor {
    /// GL 3.0's initial values: vertex `GL_TRUE`, fragment and read `GL_FIXED_ONLY`.
    fn default() -> Self {
        Self {
            vertex: GL_TRUE,
            fragment: GL_FIXED_ONLY,
            read: GL_FIXED_ONLY,
        }
    }
}

impl ClampColor {
    /// Whether the fragment epilogue must clamp (`glsl::frag_epilogue::CLAMP_COLOR_CONSTANT`).
    pub(crate) fn clamps_fragments(&self) -> bool {
        self.fragment == GL_TRUE
    }

    /// The state `target` names in `profile`.
    fn target(&mut self, profile: Profile, target: GLenum) -> Option<&mut GLenum> {
        let compat = profile == Profile::Compatibility;
        match target {
            GL_CLAMP_READ_COLOR => Some(&mut self.read),
            GL_CLAMP_VERTEX_COLOR if compat => Some(&mut self.vertex),
            GL_CLAMP_FRAGMENT_COLOR if compat => Some(&mut self.fragment),
            _ => None,
        }
    }
}

impl Context {
    /// `glClampColor`.
    pub fn clamp_color(&mut self, target: GLenum, clamp: GLenum) {
        let profile = self.profile;
        let r: GlResult<()> = match (self.clamp.target(profile, target), clamp) {
            (None, _) => invalid_enum("glClampColor target", target),
            (Some(slot), GL_TRUE | GL_FALSE | GL_FIXED_ONLY) => {
                *slot = clamp;
                Ok(())
            }
            (Some(_), c) => invalid_enum("glClampColor clamp", c),
        };
        self.record(r);
    }

    /// `glGet*` of the clamp targets (None: not one of them here).
    pub(crate) fn clamp_color_get(&mut self, pname: GLenum) -> Option<Value> {
        let profile = self.profile;
        let value = *self.clamp.target(profile, pname)?;
        Some(Value::Ints(vec![i64::from(value)]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_knows_only_the_read_target() {
        let mut c = ClampColor::default();
        assert!(c.target(Profile::Core, GL_CLAMP_READ_COLOR).is_some());
        assert!(c.target(Profile::Core, GL_CLAMP_FRAGMENT_COLOR).is_none());
        assert!(c.target(Profile::Core, GL_CLAMP_VERTEX_COLOR).is_none());
        assert!(c
            .target(Profile::Compatibility, GL_CLAMP_VERTEX_COLOR)
            .is_some());
        assert!(!c.clamps_fragments());
    }
}
