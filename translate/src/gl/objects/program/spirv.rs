//! GL_ARB_gl_spirv's entry points: `glShaderBinary(GL_SHADER_BINARY_FORMAT_SPIR_V)`,
//! `glSpecializeShader`, the SPIR-V queries, and GL_ARB_spirv_extensions' list
//! (`glsl::gl_spirv` rewrites the modules; `link` links them).
//!
//! Design decisions:
//! - A shader object holds either GLSL source or a SPIR-V module ([`SpirvUnit`]): loading a
//!   binary discards the source and `glShaderSource` discards the binary, as GL 4.6 §7.2 says.
//! - A binary whose header is not SPIR-V's is `GL_INVALID_VALUE` at `glShaderBinary`; a module
//!   that cannot be used (bad structure, unsupported feature) fails `glSpecializeShader`: the
//!   compile status stays false and the info log says why, no GL error.
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use std::ffi::CStr;

use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlResult};
use crate::gl::context::Context;
use crate::glsl::gl_spirv::{self, SpecializeError, SHADER_BINARY_FORMAT_SPIR_V};

/// `GL_SPIR_V_BINARY` (`glGetShaderiv`).
pub(crate) const GL_SPIR_V_BINARY: u32 = 0x9552;
/// `GL_SPIR_V_EXTENSIONS` (`glGetStringi`).
pub(crate) const GL_SPIR_V_EXTENSIONS: u32 = 0x9553;
/// `GL_NUM_SPIR_V_EXTENSIONS` (`glGet`).
pub(crate) const GL_NUM_SPIR_V_EXTENSIONS: u32 = 0x9554;
/// The extension names, offered together.
pub(crate) const EXTENSIONS: [&str; 2] = ["GL_ARB_gl_spirv", "GL_ARB_spirv_extensions"];

/// GL_ARB_spirv_extensions' list (`glsl::gl_spirv::SPIRV_EXTENSIONS`) as C strings.
const SPIRV_EXTENSION_STRINGS: [&CStr; 2] = [
    c"SPV_KHR_shader_draw_parameters",
    c"SPV_KHR_storage_buffer_storage_class",
];

/// A shader object's SPIR-V module.
#[derive(Clone, Debug)]
pub(crate) struct SpirvUnit {
    /// As `glShaderBinary` loaded it.
    pub binary: Vec<u32>,
    /// After `glSpecializeShader` (`glsl::gl_spirv::specialize`).
    pub specialized: Option<Vec<u32>>,
}

impl Context {
    /// Whether this context offers GL_ARB_gl_spirv.
    pub(crate) fn offers_gl_spirv(&self) -> bool {
        self.strings
            .extensions
            .iter()
            .any(|e| e.to_bytes() == EXTENSIONS[0].as_bytes())
    }

    /// `GL_SHADER_BINARY_FORMATS`: SPIR-V's where GL_ARB_gl_spirv is offered.
    pub(crate) fn shader_binary_formats(&self) -> Vec<i64> {
        if self.offers_gl_spirv() {
            vec![i64::from(SHADER_BINARY_FORMAT_SPIR_V)]
        } else {
            Vec::new()
        }
    }

    /// `glShaderBinary`: `shaders` each get the module `binary` (GL 4.6 §7.2).
    pub fn shader_binary(&mut self, shaders: &[u32], format: u32, binary: &[u8]) {
        let r = self.load_spirv(shaders, format, binary);
        self.record(r);
    }

    fn load_spirv(&mut self, shaders: &[u32], format: u32, binary: &[u8]) -> GlResult<()> {
        if format != SHADER_BINARY_FORMAT_SPIR_V || !self.offers_gl_spirv() {
            return invalid_enum("glShaderBinary binary format", format);
        }
        let mut stages = Vec::with_capacity(shaders.len());
        for &name in shaders {
            let stage = self.shader_mut(name)?.stage;
            if stages.contains(&stage) {
                return invalid_op("glShaderBinary: two shaders of one stage");
            }
            stages.push(stage);
        }
        let words =
            gl_spirv::words_of(binary).map_err(crate::gl::context::error::GlError::InvalidValue)?;
        for &name in shaders {
            let shader = self.shader_mut(name)?;
            shader.source.clear();
            shader.compiled = false;
            shader.log.clear();
            shader.spirv = Some(SpirvUnit {
                binary: words.clone(),
                specialized: None,
            });
        }
        Ok(())
    }

    /// `glSpecializeShader`: the entry point `entry` and the constants `(id, value)`.
    pub fn specialize_shader(&mut self, name: u32, entry: &str, constants: &[(u32, u32)]) {
        let r = self.specialize(name, entry, constants);
        self.record(r);
    }

    fn specialize(&mut self, name: u32, entry: &str, constants: &[(u32, u32)]) -> GlResult<()> {
        let shader = self.shader_mut(name)?;
        let stage = shader.stage;
        let Some(unit) = shader.spirv.as_mut() else {
            return invalid_op("glSpecializeShader of a shader without a SPIR-V binary");
        };
        if unit.specialized.is_some() {
            return invalid_op("glSpecializeShader of a shader already specialized");
        }
        match gl_spirv::specialize(stage, &unit.binary, entry, constants) {
            Ok(words) => {
                unit.specialized = Some(words);
                shader.compiled = true;
                shader.log.clear();
                Ok(())
            }
            Err(SpecializeError::NoEntryPoint(e)) => invalid_value(format!(
                "glSpecializeShader: no {stage:?} entry point called {e:?}"
            )),
            Err(SpecializeError::UnknownConstant(id)) => invalid_value(format!(
                "glSpecializeShader: no specialization constant {id}"
            )),
            Err(SpecializeError::Invalid(why)) => {
                shader.compiled = false;
                shader.log = format!("ERROR: SPIR-V: {why}\n");
                Ok(())
            }
        }
    }

    /// `glGetStringi(GL_SPIR_V_EXTENSIONS, index)`; `None` where `name` is another list.
    pub(crate) fn spirv_extension(&mut self, index: u32) -> Option<&'static CStr> {
        let found = SPIRV_EXTENSION_STRINGS.get(index as usize).copied();
        if found.is_none() {
            self.record::<()>(invalid_value(format!("glGetStringi index {index}")));
        }
        found
    }

    /// `GL_NUM_SPIR_V_EXTENSIONS`.
    pub(crate) fn num_spirv_extensions(&self) -> usize {
        SPIRV_EXTENSION_STRINGS.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_c_list_is_the_glsl_list() {
        let c: Vec<&str> = SPIRV_EXTENSION_STRINGS
            .iter()
            .filter_map(|s| s.to_str().ok())
            .collect();
        assert_eq!(c, gl_spirv::SPIRV_EXTENSIONS);
    }
}
