//! DSA for textures: `glCreateTextures` (the target is fixed at creation) and
//! `glBindTextureUnit`. The `glTexture*` commands are their `glTex*` twins run on the selected
//! texture (`Context::bound_texture` and `bound_buffer_texture` answer with the selection).

use crate::gl::context::enums::*;
use crate::gl::context::error::{gen_count, invalid_enum, invalid_op, invalid_value, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::program::MAX_TEXTURE_UNITS;
use crate::gl::objects::texture::buffer::TexBuffer;
use crate::gl::objects::texture::target::TexTarget;
use crate::gl::objects::texture::{is_sampler_state, Texture};

use super::not_created;

impl Context {
    /// `glCreateTextures`: `n` textures of `target`, which they keep for life.
    pub fn create_textures(&mut self, target: GLenum, n: i32) -> Vec<u32> {
        let r = (|| -> GlResult<Vec<u32>> {
            let make = self.texture_maker(target)?;
            let n = gen_count("glCreateTextures", n)?;
            Ok(self.textures.create(n, make))
        })();
        self.record(r).unwrap_or_default()
    }

    /// What a new texture of `target` starts as, as its first `glBindTexture` would make it.
    fn texture_maker(&self, target: GLenum) -> GlResult<impl Fn() -> Texture> {
        self.es_check_texture_target(target)?;
        let profile = self.profile;
        let tt = match target {
            GL_TEXTURE_BUFFER => None,
            _ => match TexTarget::from_bind(target) {
                Some(TexTarget::CubeArray) if !self.device.caps().gl4.image_cube_array => {
                    return invalid_enum("glCreateTextures target (no imageCubeArray)", target)
                }
                Some(tt) => Some(tt),
                None => return invalid_enum("glCreateTextures target", target),
            },
        };
        Ok(move || {
            let mut t = Texture::default();
            match tt {
                Some(tt) => {
                    t.target = Some(tt);
                    t.params = tt.initial_params();
                }
                None => t.buffer = Some(TexBuffer::new(profile)),
            }
            t
        })
    }

    /// Whether `glTextureParameter*` (`call`) may set `pname` of texture `name`: a sampler
    /// state of a multisample texture is `GL_INVALID_OPERATION` (recorded; false). Other
    /// errors are the twin's.
    pub fn texture_parameter_allowed(&mut self, call: &str, name: u32, pname: GLenum) -> bool {
        let multisample = (self.textures.get(name))
            .and_then(|t| t.target)
            .is_some_and(TexTarget::is_multisample);
        if multisample && is_sampler_state(pname) {
            let why = format!("{call}: a multisample texture has no sampler state 0x{pname:04X}");
            return self.record::<()>(invalid_op(why)).is_some();
        }
        true
    }

    /// `glBindTextureUnit`: binds `name` to its own target on `unit` (GL 4.6 §8.1); 0 unbinds
    /// every target of the unit.
    pub fn bind_texture_unit(&mut self, unit: u32, name: u32) {
        let r = self.bind_texture_unit_inner(unit, name);
        self.record(r);
    }

    pub(crate) fn bind_texture_unit_inner(&mut self, unit: u32, name: u32) -> GlResult<()> {
        if unit >= MAX_TEXTURE_UNITS {
            return invalid_value(format!("glBindTextureUnit unit {unit}"));
        }
        let u = unit as usize;
        if name == 0 {
            self.texture_units[u] = Default::default();
            if let Some(b) = self.texture_buffers.units.get_mut(u) {
                *b = 0;
            }
            return Ok(());
        }
        let t = self
            .textures
            .get(name)
            .filter(|t| t.named() && self.textures.exists(name));
        match (
            t.and_then(|t| t.target),
            t.is_some_and(|t| t.buffer.is_some()),
        ) {
            (Some(tt), _) => self.texture_units[u][tt.index()] = name,
            (None, true) => {
                if let Some(b) = self.texture_buffers.units.get_mut(u) {
                    *b = name;
                }
            }
            (None, false) => return not_created("glBindTextureUnit", "texture", name),
        }
        Ok(())
    }
}
