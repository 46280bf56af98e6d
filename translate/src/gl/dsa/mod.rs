//! GL_ARB_direct_state_access (GL 4.5): commands that name the object they act on instead of
//! acting on the one bound to a target.
//!
//! Design: a DSA command runs the very code of its bind-to-edit twin (`glNamedBufferSubData` is
//! `glBufferSubData`, `glTextureParameteri` is `glTexParameteri`, …). Every bind-to-edit path
//! finds its object through one lookup per kind (`Context::bound_buffer`, `bound_texture`,
//! `bound_buffer_texture`, `framebuffer_bound_to`, `edited_renderbuffer`, `current_vao_mut`,
//! `feedback_object`); while a DSA command runs, [`Selection`] names the object those lookups
//! answer with. Nothing is rebound and no query can see a selection: it lives for one command.
//! The C edge (`src/abi/gl.rs`) selects ([`Context::dsa_select`]: the name must be a *created*
//! object of the kind — `glGen*` alone makes none, only a bind or `glCreate*` does — else
//! `GL_INVALID_OPERATION`), runs the twin with the target the selection answers to, and releases
//! ([`Context::dsa_release`]). The commands that have no twin (the `glCreate*` family,
//! `glBindTextureUnit`, the per-object queries) are in this room, one file per object kind.

mod buffer;
mod framebuffer;
mod query;
mod sampler;
mod texture;
mod transform_feedback;
mod vertex_array;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_op, GlResult};
use crate::gl::context::Context;

/// The extensions this room offers. `GL_ARB_direct_state_access` still lacks a few entry points,
/// so the context keeps it off its list unless asked for (`context::experimental`).
pub(crate) fn extensions() -> Vec<&'static str> {
    vec!["GL_ARB_direct_state_access"]
}

/// The objects the bind-to-edit lookups answer with while one DSA command runs.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Selection {
    /// Answers `GL_COPY_WRITE_BUFFER`.
    pub(crate) buffer: Option<u32>,
    /// Answers `GL_COPY_READ_BUFFER` (`glCopyNamedBufferSubData`'s source).
    pub(crate) read_buffer: Option<u32>,
    pub(crate) texture: Option<u32>,
    /// Answers `GL_DRAW_FRAMEBUFFER`/`GL_FRAMEBUFFER` (0: the default framebuffer).
    pub(crate) draw_framebuffer: Option<u32>,
    /// Answers `GL_READ_FRAMEBUFFER`.
    pub(crate) read_framebuffer: Option<u32>,
    pub(crate) renderbuffer: Option<u32>,
    pub(crate) vertex_array: Option<u32>,
    /// 0: the default transform feedback object.
    pub(crate) transform_feedback: Option<u32>,
}

impl Selection {
    /// The buffer selected for `target`, if any.
    pub(crate) fn buffer_for(&self, target: GLenum) -> Option<u32> {
        match target {
            GL_COPY_WRITE_BUFFER => self.buffer,
            GL_COPY_READ_BUFFER => self.read_buffer,
            _ => None,
        }
    }

    /// The framebuffer selected for `target`, if any.
    pub(crate) fn framebuffer_for(&self, target: GLenum) -> Option<u32> {
        match target {
            GL_FRAMEBUFFER | GL_DRAW_FRAMEBUFFER => self.draw_framebuffer,
            GL_READ_FRAMEBUFFER => self.read_framebuffer,
            _ => None,
        }
    }
}

/// The object a DSA command names, as the C edge hands it over.
#[derive(Clone, Copy, Debug)]
pub enum Named {
    /// A buffer; the twin takes `GL_COPY_WRITE_BUFFER`.
    Buffer(u32),
    /// `glCopyNamedBufferSubData`'s pair: read from `GL_COPY_READ_BUFFER`, write to
    /// `GL_COPY_WRITE_BUFFER`.
    BufferPair { read: u32, write: u32 },
    /// A texture whose target must be one of `targets` (any target when empty; another is
    /// `GL_INVALID_OPERATION`); the twin takes the texture's own target.
    Texture {
        name: u32,
        targets: &'static [GLenum],
    },
    /// A buffer texture (another texture is `GL_INVALID_OPERATION`); the twin takes
    /// `GL_TEXTURE_BUFFER`.
    BufferTexture(u32),
    /// A framebuffer (0: the default one) for the twin's `target`
    /// (`GL_DRAW_FRAMEBUFFER` or `GL_READ_FRAMEBUFFER`).
    Framebuffer { name: u32, target: GLenum },
    /// `glBlitNamedFramebuffer`'s pair (0: the default framebuffer).
    FramebufferPair { read: u32, draw: u32 },
    /// A renderbuffer; the twin takes `GL_RENDERBUFFER`.
    Renderbuffer(u32),
    /// A vertex array object (the twin's target is 0: it has none).
    VertexArray(u32),
    /// A transform feedback object (0: the default one); the twin takes
    /// `GL_TRANSFORM_FEEDBACK_BUFFER`.
    TransformFeedback(u32),
}

impl Context {
    /// Selects `named` for the next command (see the module header). Returns the target the
    /// twin is to be called with, or `None` with `GL_INVALID_OPERATION` recorded when `named` is
    /// not an object of its kind (`call` names the DSA command in the error).
    pub fn dsa_select(&mut self, call: &str, named: Named) -> Option<GLenum> {
        let r = self.selection_for(call, named);
        let (selection, target) = self.record(r)?;
        self.dsa = selection;
        Some(target)
    }

    /// Ends the selection [`Context::dsa_select`] made.
    pub fn dsa_release(&mut self) {
        self.dsa = Selection::default();
    }

    fn selection_for(&self, call: &str, named: Named) -> GlResult<(Selection, GLenum)> {
        let mut s = Selection::default();
        let target = match named {
            Named::Buffer(name) => {
                s.buffer = Some(self.created_buffer(call, name)?);
                GL_COPY_WRITE_BUFFER
            }
            Named::BufferPair { read, write } => {
                s.read_buffer = Some(self.created_buffer(call, read)?);
                s.buffer = Some(self.created_buffer(call, write)?);
                GL_COPY_WRITE_BUFFER
            }
            Named::Texture { name, targets } => {
                let target = self.created_texture_target(call, name)?;
                if !targets.is_empty() && !targets.contains(&target) {
                    return invalid_op(format!(
                        "{call}: texture {name} has target 0x{target:04X}, which the command \
                         does not take"
                    ));
                }
                s.texture = Some(name);
                target
            }
            Named::BufferTexture(name) => {
                let target = self.created_texture_target(call, name)?;
                if target != GL_TEXTURE_BUFFER {
                    return invalid_op(format!("{call}: texture {name} is not a buffer texture"));
                }
                s.texture = Some(name);
                target
            }
            Named::Framebuffer { name, target } => {
                let name = self.created_framebuffer(call, name)?;
                if target == GL_READ_FRAMEBUFFER {
                    s.read_framebuffer = Some(name);
                } else {
                    s.draw_framebuffer = Some(name);
                }
                target
            }
            Named::FramebufferPair { read, draw } => {
                s.read_framebuffer = Some(self.created_framebuffer(call, read)?);
                s.draw_framebuffer = Some(self.created_framebuffer(call, draw)?);
                GL_DRAW_FRAMEBUFFER
            }
            Named::Renderbuffer(name) => {
                if !self.renderbuffers.exists(name) {
                    return not_created(call, "renderbuffer", name);
                }
                s.renderbuffer = Some(name);
                GL_RENDERBUFFER
            }
            Named::VertexArray(name) => {
                if !self.vertex_arrays.exists(name) {
                    return not_created(call, "vertex array", name);
                }
                s.vertex_array = Some(name);
                0
            }
            Named::TransformFeedback(name) => {
                if name != 0 && !self.xfb.objects.exists(name) {
                    return not_created(call, "transform feedback", name);
                }
                s.transform_feedback = Some(name);
                GL_TRANSFORM_FEEDBACK_BUFFER
            }
        };
        Ok((s, target))
    }

    /// `name` if it names a created buffer.
    fn created_buffer(&self, call: &str, name: u32) -> GlResult<u32> {
        if !self.buffers.exists(name) {
            return not_created(call, "buffer", name);
        }
        Ok(name)
    }

    /// `name` (0 included: the default framebuffer) if it names a framebuffer.
    fn created_framebuffer(&self, call: &str, name: u32) -> GlResult<u32> {
        if name != 0 && !self.framebuffers.exists(name) {
            return not_created(call, "framebuffer", name);
        }
        Ok(name)
    }

    /// The target of the created texture `name` (`GL_TEXTURE_BUFFER` for a buffer texture).
    fn created_texture_target(&self, call: &str, name: u32) -> GlResult<GLenum> {
        let t = self
            .textures
            .get(name)
            .filter(|t| t.named() && self.textures.exists(name));
        match t {
            Some(t) if t.buffer.is_some() => Ok(GL_TEXTURE_BUFFER),
            Some(t) => match t.target {
                Some(tt) => Ok(tt.gl()),
                None => not_created(call, "texture", name),
            },
            None => not_created(call, "texture", name),
        }
    }
}

/// GL 4.5's error for a DSA command on a name that is no object of the kind (never generated,
/// deleted, or generated and never bound).
pub(crate) fn not_created<T>(call: &str, kind: &str, name: u32) -> GlResult<T> {
    invalid_op(format!("{call}: {name} is not the name of a {kind} object"))
}
