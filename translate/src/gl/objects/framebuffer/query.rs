//! `glGetFramebufferAttachmentParameteriv`: what is attached where, and the format it has.
//!
//! Design decisions:
//! - Answers come from the GL-side objects (the attachment, the renderbuffer's or texture's
//!   internal-format row), never from the Vulkan storage format, so a luminance renderbuffer
//!   stored as `R8` still reports GL's sizes and component type. Luminance and intensity
//!   sizes report as red, like `glGetRenderbufferParameteriv`.
//! - The default framebuffer names its buffers `GL_FRONT_LEFT`…`GL_BACK_RIGHT`, `GL_DEPTH`,
//!   `GL_STENCIL` (object type `GL_FRAMEBUFFER_DEFAULT`); the single colour buffer answers for
//!   the left buffers, the right ones are absent. A framebuffer object takes the attachment
//!   points; `GL_DEPTH_STENCIL_ATTACHMENT` with different depth and stencil objects is
//!   `GL_INVALID_OPERATION`, as is any query but the type and name of an absent attachment.
//! - `GL_FRAMEBUFFER_ATTACHMENT_LAYERED` answers whether a texture was attached whole
//!   (`layered`); a layered attachment's `GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER` is 0.

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::framebuffer::layered::ATTACHMENT_LAYERED;
use crate::gl::objects::framebuffer::{renderbuffer_row, Attachment, MAX_COLOR_ATTACHMENTS};
use crate::gl::objects::texture::internal_format::{lookup, Base, FormatInfo};
use crate::gl::objects::texture::target::TexTarget;

const COLOR_ENCODING: GLenum = 0x8210;
const COMPONENT_TYPE: GLenum = 0x8211;
const RED_SIZE: GLenum = 0x8212;
const STENCIL_SIZE: GLenum = 0x8217;
const OBJECT_TYPE: GLenum = 0x8CD0;
const OBJECT_NAME: GLenum = 0x8CD1;
const TEXTURE_LEVEL: GLenum = 0x8CD2;
const TEXTURE_CUBE_MAP_FACE: GLenum = 0x8CD3;
const TEXTURE_LAYER: GLenum = 0x8CD4;
const FRAMEBUFFER_DEFAULT: GLenum = 0x8218;
const TEXTURE: GLenum = 0x1702;
const LINEAR: GLenum = 0x2601;
const SRGB: GLenum = 0x8C40;
const INDEX: GLenum = 0x8222;
const CUBE_MAP_POSITIVE_X: GLenum = 0x8515;

/// What one attachment point holds, as the query sees it.
enum Object {
    None,
    Default(GLenum),
    Texture {
        name: u32,
        level: u32,
        layer: u32,
        layered: bool,
        target: Option<TexTarget>,
        internal: GLenum,
    },
    Renderbuffer {
        name: u32,
        internal: GLenum,
    },
}

impl Context {
    /// `glGetFramebufferAttachmentParameteriv`.
    pub fn get_framebuffer_attachment_parameter(
        &mut self,
        target: GLenum,
        attachment: GLenum,
        pname: GLenum,
    ) -> Option<i32> {
        let r = self.framebuffer_attachment_parameter(target, attachment, pname);
        self.record(r)
    }

    /// `GL_RED_BITS` … `GL_ALPHA_BITS`, `GL_DEPTH_BITS`, `GL_STENCIL_BITS` (in that order) of
    /// the draw framebuffer: the default framebuffer's as its config made it, a framebuffer
    /// object's from its first draw buffer and its depth and stencil attachments (0 where
    /// nothing is attached).
    pub(crate) fn draw_framebuffer_bits(&self) -> [u8; 6] {
        let bits = |internal: Option<GLenum>| {
            internal
                .and_then(|i| lookup(renderbuffer_row(i)))
                .map_or([0; 8], |info| info.bits)
        };
        let (color, depth, stencil) = if self.draw_framebuffer == 0 {
            let s = self.surface.as_ref();
            let depth = bits(s.and_then(|s| s.gl_depth_internal()));
            (bits(s.map(|s| s.gl_color_internal())), depth, depth)
        } else {
            let fb = self.framebuffers.get(self.draw_framebuffer);
            let internal = |a: Option<&Attachment>| match self.attachment_object(a) {
                Object::Texture { internal, .. } | Object::Renderbuffer { internal, .. } => {
                    Some(internal)
                }
                _ => None,
            };
            let first = fb.and_then(|fb| {
                let index = fb.draw_buffers.first()?.checked_sub(GL_COLOR_ATTACHMENT0)?;
                fb.colors.get(index as usize)?.as_ref()
            });
            (
                bits(internal(first)),
                bits(internal(fb.and_then(|fb| fb.depth.as_ref()))),
                bits(internal(fb.and_then(|fb| fb.stencil.as_ref()))),
            )
        };
        [
            color[0].max(color[4]).max(color[5]),
            color[1],
            color[2],
            color[3],
            depth[6],
            stencil[7],
        ]
    }

    fn attachment_object(&self, attachment: Option<&Attachment>) -> Object {
        match attachment {
            None => Object::None,
            // A deleted object that the framebuffer keeps reports the name it had.
            Some(&Attachment::Renderbuffer(name)) => {
                let rb = self.renderbuffers.get(name);
                Object::Renderbuffer {
                    name: rb.and_then(|rb| rb.deleted_as).unwrap_or(name),
                    internal: rb.map_or(0, |rb| rb.internal),
                }
            }
            Some(&Attachment::Texture {
                name,
                level,
                layer,
                layered,
            }) => {
                let texture = self.textures.get(name);
                let storage = texture.and_then(|t| t.storage.as_ref());
                Object::Texture {
                    name: texture.and_then(|t| t.deleted_as).unwrap_or(name),
                    level,
                    layer,
                    layered,
                    target: storage.map(|s| s.target).or(texture.and_then(|t| t.target)),
                    internal: storage.map_or(0, |s| s.internal),
                }
            }
        }
    }

    fn framebuffer_attachment_parameter(
        &mut self,
        target: GLenum,
        attachment: GLenum,
        pname: GLenum,
    ) -> GlResult<i32> {
        let name = self.framebuffer_bound_to(target)?;
        let object = if name == 0 {
            let surface = if target == GL_READ_FRAMEBUFFER {
                &self.read_surface
            } else {
                &self.surface
            };
            let s = surface.as_ref();
            let color = s.map(|s| s.gl_color_internal());
            let depth = s.and_then(|s| s.gl_depth_internal());
            let format = match attachment {
                // GL_FRONT_LEFT, GL_BACK_LEFT: the one colour buffer; OpenGL ES names it
                // GL_BACK (ES 3.0 §6.1.13), as GL_ARB_ES3_1_compatibility lets desktop GL.
                0x0400 | 0x0402 => color,
                0x0405
                    if self.es_version().is_some()
                        || self.offers(crate::gl::context::es31_compat::EXTENSION) =>
                {
                    color
                }
                // GL_FRONT_RIGHT, GL_BACK_RIGHT: no stereo.
                0x0401 | 0x0403 => None,
                // GL_DEPTH, GL_STENCIL: absent where the config has none.
                0x1801 => depth.filter(|&d| lookup(d).is_some_and(|i| i.bits[6] > 0)),
                0x1802 => depth.filter(|&d| lookup(d).is_some_and(|i| i.bits[7] > 0)),
                a => return invalid_enum("default framebuffer attachment", a),
            };
            format.map_or(Object::None, Object::Default)
        } else {
            let fb = self.framebuffers.get(name).cloned().unwrap_or_default();
            match attachment {
                GL_DEPTH_ATTACHMENT => self.attachment_object(fb.depth.as_ref()),
                GL_STENCIL_ATTACHMENT => self.attachment_object(fb.stencil.as_ref()),
                GL_DEPTH_STENCIL_ATTACHMENT => {
                    if fb.depth != fb.stencil {
                        return invalid_op(
                            "GL_DEPTH_STENCIL_ATTACHMENT with different depth and stencil objects",
                        );
                    }
                    self.attachment_object(fb.depth.as_ref())
                }
                a if (GL_COLOR_ATTACHMENT0..GL_COLOR_ATTACHMENT0 + 32).contains(&a) => {
                    let i = (a - GL_COLOR_ATTACHMENT0) as usize;
                    if i >= MAX_COLOR_ATTACHMENTS {
                        return invalid_op(format!(
                            "GL_COLOR_ATTACHMENT{i} (GL_MAX_COLOR_ATTACHMENTS is {MAX_COLOR_ATTACHMENTS})"
                        ));
                    }
                    self.attachment_object(fb.colors[i].as_ref())
                }
                a => return invalid_enum("framebuffer attachment", a),
            }
        };
        let stencil_point = matches!(attachment, GL_STENCIL_ATTACHMENT | 0x1802);
        match (pname, &object) {
            (OBJECT_TYPE, o) => {
                return Ok(match o {
                    Object::None => GL_NONE,
                    Object::Default(_) => FRAMEBUFFER_DEFAULT,
                    Object::Texture { .. } => TEXTURE,
                    Object::Renderbuffer { .. } => GL_RENDERBUFFER,
                } as i32)
            }
            (OBJECT_NAME, o) => {
                return Ok(match o {
                    Object::Texture { name, .. } | Object::Renderbuffer { name, .. } => {
                        *name as i32
                    }
                    _ => 0,
                })
            }
            (_, Object::None) => {
                return invalid_op(format!(
                    "pname 0x{pname:04X} of an attachment point with nothing attached"
                ))
            }
            (TEXTURE_LEVEL, Object::Texture { level, .. }) => return Ok(*level as i32),
            (TEXTURE_CUBE_MAP_FACE, Object::Texture { target, layer, .. }) => {
                return Ok(if *target == Some(TexTarget::Cube) {
                    (CUBE_MAP_POSITIVE_X + layer) as i32
                } else {
                    0
                })
            }
            (TEXTURE_LAYER, Object::Texture { target, layer, .. }) => {
                let layered = matches!(
                    target,
                    Some(TexTarget::D3 | TexTarget::D1Array | TexTarget::D2Array)
                        | Some(TexTarget::D2MultisampleArray | TexTarget::CubeArray)
                );
                return Ok(if layered { *layer as i32 } else { 0 });
            }
            (ATTACHMENT_LAYERED, Object::Texture { layered, .. }) => {
                return Ok(i32::from(*layered))
            }
            (ATTACHMENT_LAYERED, _) => return Ok(0),
            (TEXTURE_LEVEL | TEXTURE_CUBE_MAP_FACE | TEXTURE_LAYER, _) => {
                return invalid_enum("texture pname of a non-texture attachment", pname)
            }
            _ => {}
        }
        let internal = match object {
            Object::Default(i) => i,
            Object::Texture { internal, .. } | Object::Renderbuffer { internal, .. } => internal,
            Object::None => 0,
        };
        // A renderbuffer whose storage was never defined is GL_RGBA with no bits.
        let info: Option<FormatInfo> = lookup(renderbuffer_row(internal));
        let bits = info.map_or([0; 8], |i| i.bits);
        match pname {
            RED_SIZE..=STENCIL_SIZE => {
                let i = (pname - RED_SIZE) as usize;
                let sizes = [
                    bits[0].max(bits[4]).max(bits[5]),
                    bits[1],
                    bits[2],
                    bits[3],
                    bits[6],
                    bits[7],
                ];
                Ok(i32::from(sizes[i]))
            }
            COMPONENT_TYPE => {
                if attachment == GL_DEPTH_STENCIL_ATTACHMENT {
                    return invalid_op(
                        "GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE of a depth/stencil pair",
                    );
                }
                Ok(match info {
                    None => GL_NONE,
                    Some(i) if stencil_point || i.base == Base::Stencil => {
                        if self.profile == crate::gl::context::Profile::Compatibility {
                            INDEX
                        } else {
                            0x1405 // GL_UNSIGNED_INT
                        }
                    }
                    Some(i) => i.comp.gl(),
                } as i32)
            }
            COLOR_ENCODING => Ok(if info.is_some_and(|i| i.srgb) {
                SRGB
            } else {
                LINEAR
            } as i32),
            p => invalid_enum("glGetFramebufferAttachmentParameteriv pname", p),
        }
    }
}
