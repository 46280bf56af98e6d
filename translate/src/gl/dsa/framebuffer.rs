//! DSA for framebuffers and renderbuffers: `glCreateFramebuffers` and
//! `glCreateRenderbuffers`. The `glNamedFramebuffer*`, `glClearNamedFramebuffer*`,
//! `glBlitNamedFramebuffer`, `glCheckNamedFramebufferStatus`, `glInvalidateNamedFramebuffer*`
//! and `glNamedRenderbuffer*` commands are their twins run on the selected objects
//! (`Context::framebuffer_bound_to` and `edited_renderbuffer` answer with the selection).

use crate::gl::context::enums::*;
use crate::gl::context::error::{gen_count, invalid_op};
use crate::gl::context::Context;
use crate::gl::objects::framebuffer::layered::is_layered_target;
use crate::gl::objects::framebuffer::{Framebuffer, Renderbuffer};
use crate::gl::objects::texture::target::TexTarget;

use super::not_created;

impl Context {
    /// `glCreateFramebuffers`.
    pub fn create_framebuffers(&mut self, n: i32) -> Vec<u32> {
        let r = gen_count("glCreateFramebuffers", n)
            .map(|n| self.framebuffers.create(n, Framebuffer::default));
        self.record(r).unwrap_or_default()
    }

    /// `glCreateRenderbuffers`.
    pub fn create_renderbuffers(&mut self, n: i32) -> Vec<u32> {
        let r = gen_count("glCreateRenderbuffers", n)
            .map(|n| self.renderbuffers.create(n, Renderbuffer::default));
        self.record(r).unwrap_or_default()
    }

    /// `glFramebufferTexture`/`glNamedFramebufferTexture`: level `level` of the whole texture
    /// `texture` attached to the framebuffer `target` answers (0 detaches): the one image of a
    /// 1D, 2D, rectangle or 2D multisample texture, every layer of a 3D, array, cube or
    /// cube-array one (a layered attachment, `framebuffer::layered`).
    pub fn framebuffer_texture_whole(
        &mut self,
        target: GLenum,
        attachment: GLenum,
        texture: u32,
        level: i32,
    ) {
        const CALL: &str = "glNamedFramebufferTexture";
        let tt = self
            .textures
            .get(texture)
            .filter(|_| self.textures.exists(texture));
        match (texture, tt.and_then(|t| t.target)) {
            (0, _) => self.framebuffer_texture_2d(target, attachment, GL_TEXTURE_2D, 0, level),
            (_, Some(TexTarget::D1)) => {
                self.framebuffer_texture_nd(1, target, attachment, GL_TEXTURE_1D, texture, level, 0)
            }
            (_, Some(tt @ (TexTarget::D2 | TexTarget::Rect | TexTarget::D2Multisample))) => {
                self.framebuffer_texture_2d(target, attachment, tt.gl(), texture, level)
            }
            (_, Some(tt)) if is_layered_target(tt) => {
                let r =
                    self.attach_texture_layer(target, attachment, texture, Some(tt), level, None);
                self.record(r).unwrap_or_default()
            }
            (_, Some(_)) => self
                .record::<()>(invalid_op(format!(
                    "{CALL}: texture {texture} (a buffer texture) has no image to attach"
                )))
                .unwrap_or_default(),
            (_, None) => self
                .record::<()>(not_created(CALL, "texture", texture))
                .unwrap_or_default(),
        }
    }
}
