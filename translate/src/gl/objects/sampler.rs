//! Sampler-object entry points (`glGenSamplers` … `glGetSamplerParameter*`).
//!
//! Design decisions:
//! - A sampler object is just the sampling half of [`TexParams`]: validated by the same
//!   `set_param` as `glTexParameter`, so both accept and reject the same values. The level
//!   range (`GL_TEXTURE_BASE_LEVEL`/`MAX_LEVEL`) and swizzle are texture state and are
//!   `GL_INVALID_ENUM` here, as the spec says.
//! - A draw takes the sampling state from the unit's bound sampler object when there is one
//!   (`Texture::sampler_desc`), and Vulkan samplers still come from the device-wide cache, so
//!   sampler objects cost no Vulkan objects of their own.

use crate::gl::context::enums::*;
use crate::gl::context::error::{
    gen_count, invalid_enum, invalid_op, invalid_value, GlError, GlResult,
};
use crate::gl::context::Context;
use crate::gl::objects::texture::{is_sampler_state, set_param, BorderColor, TexParams};

/// The parameters a sampler object has (texture-only state is rejected).
fn sampler_pname(pname: GLenum) -> GlResult<()> {
    if is_sampler_state(pname) {
        Ok(())
    } else {
        invalid_enum("sampler parameter", pname)
    }
}

impl Context {
    /// `glGenSamplers`: sampler names are objects at once (unlike textures).
    pub fn gen_samplers(&mut self, n: i32) -> Vec<u32> {
        let r = gen_count("glGenSamplers", n).map(|n| self.samplers.generate(n));
        let names = self.record(r).unwrap_or_default();
        for &name in &names {
            self.samplers.get_or_create(name, TexParams::default);
        }
        names
    }

    /// `glIsSampler`.
    pub fn is_sampler(&self, name: u32) -> bool {
        self.samplers.exists(name)
    }

    /// `glDeleteSamplers`: units the sampler was bound to revert to texture state.
    pub fn delete_samplers(&mut self, names: &[u32]) {
        for &name in names {
            if name == 0 || !self.samplers.exists(name) {
                continue;
            }
            for unit in self.sampler_units.iter_mut() {
                if *unit == name {
                    *unit = 0;
                }
            }
            if self.shares_objects() {
                self.bury(crate::gl::context::share_group::SharedKind::Sampler, name);
            } else {
                self.samplers.remove(name);
            }
        }
    }

    /// `glBindSampler`.
    pub fn bind_sampler(&mut self, unit: u32, name: u32) {
        let r = (|| {
            if unit as usize >= self.sampler_units.len() {
                return invalid_value(format!("texture unit {unit}"));
            }
            if name != 0 && !self.samplers.exists(name) {
                return invalid_op(format!("{name} is not a sampler from glGenSamplers"));
            }
            self.sampler_units[unit as usize] = name;
            Ok(())
        })();
        self.record(r);
    }

    fn sampler_mut(&mut self, name: u32) -> GlResult<&mut TexParams> {
        let live = self.samplers.exists(name);
        self.samplers
            .get_mut(name)
            .filter(|_| live)
            .ok_or_else(|| GlError::InvalidOperation(format!("{name} is not a sampler")))
    }

    /// `glSamplerParameter{i,f}{,v}`: `values` holds one value, or four for the border colour.
    pub fn sampler_parameter(&mut self, name: u32, pname: GLenum, values: &[f32]) {
        let device = self.device.clone();
        let r = (|| {
            let p = self.sampler_mut(name)?;
            sampler_pname(pname)?;
            if pname == GL_TEXTURE_BORDER_COLOR {
                return match values {
                    [r, g, b, a, ..] => {
                        p.border = BorderColor::Float([*r, *g, *b, *a]);
                        Ok(())
                    }
                    _ => invalid_enum("glSamplerParameter scalar for", pname),
                };
            }
            let Some(&v) = values.first() else {
                return invalid_value("no parameter value");
            };
            crate::gl::objects::texture::extensions::check_wrap(&device, pname, v)?;
            set_param(p, pname, v)
        })();
        self.record(r);
    }

    /// `glGetSamplerParameter{i,f}v`.
    pub fn get_sampler_parameter(&mut self, name: u32, pname: GLenum) -> Vec<f32> {
        let r = (|| {
            let p = *self.sampler_mut(name)?;
            sampler_pname(pname)?;
            // Every sampler parameter is sampling state, so it has a value.
            Ok(p.sampling_value(pname).unwrap_or_default())
        })();
        self.record(r).unwrap_or_default()
    }

    /// `glSamplerParameterIiv` (`signed`) / `glSamplerParameterIuiv`: the border colour keeps
    /// the integer words exactly; every other parameter is set as by `glSamplerParameteriv`.
    pub fn sampler_parameter_integer(
        &mut self,
        name: u32,
        pname: GLenum,
        values: &[u32],
        signed: bool,
    ) {
        self.set_integer_parameter(
            pname,
            (values, signed),
            |c, floats| c.sampler_parameter(name, pname, floats),
            |c| Ok(&mut c.sampler_mut(name)?.border),
        );
    }

    /// `glGetSamplerParameterIiv` (`signed`) / `glGetSamplerParameterIuiv`: the border colour's
    /// stored words; every other parameter as `glGetSamplerParameteriv` answers it.
    pub fn get_sampler_parameter_integer(
        &mut self,
        name: u32,
        pname: GLenum,
        signed: bool,
    ) -> Vec<u32> {
        self.get_integer_parameter(
            pname,
            signed,
            |c| c.get_sampler_parameter(name, pname),
            |c| Ok(&mut c.sampler_mut(name)?.border),
        )
    }
}
