//! GL_ARB_ES3_1_compatibility: what OpenGL ES 3.1 has that desktop GL 4.4 lacks.
//!
//! Design decisions:
//! - The extension is offered where every part of it runs: GLSL ES 3.10 (compiled by glslang
//!   for Vulkan as it is in an ES 3.1 context, `glsl::version`), compute shaders, images and
//!   storage buffers (ES 3.1's core, so the desktop extensions that carry them must be offered),
//!   storage blocks of at least 2^27 bytes (the extension's new minimum of
//!   `GL_MAX_SHADER_STORAGE_BLOCK_SIZE`, the device's `maxStorageBufferRange`), and
//!   `imageAtomicExchange` on `r32f` images, which Vulkan runs only with
//!   `VK_EXT_shader_atomic_float`'s `shaderImageFloat32Atomics` (`Gl4Features`).
//! - Its desktop GLSL (`gl_HelperInvocation`, `mix()` selecting integers and booleans, the float
//!   `imageAtomicExchange`, `gl_MaxSamples`, the image-uniform constants) is glslang's from
//!   GLSL 4.50: a unit that enables the extension is compiled as 4.50 (`glsl::raise`).
//!   `glMemoryBarrierByRegion` is `compute::barrier`'s; `glDrawBuffers(1, {GL_BACK})` on the
//!   default framebuffer and `GL_BACK` as its attachment in
//!   `glGetFramebufferAttachmentParameteriv` are the framebuffer code's.
//! - `GL_IMPLEMENTATION_COLOR_READ_FORMAT`/`_TYPE` follow the read framebuffer (ES 3.1 §16.1.2,
//!   as the extension brings it): `GL_INVALID_OPERATION` when it is incomplete, when its read
//!   buffer is `GL_NONE`, or when a framebuffer object's read buffer has no image; otherwise the
//!   format and type that read the buffer without conversion loss: `GL_RGBA_INTEGER` with
//!   `GL_INT`/`GL_UNSIGNED_INT` for integer buffers, `GL_RGBA`/`GL_FLOAT` for float ones, and
//!   `GL_RGBA`/`GL_UNSIGNED_BYTE` for the rest (every ES implementation's required pair).

use super::enums::*;
use super::error::{invalid_op, GlResult};
use super::get::Value;
use super::Context;
use crate::gl::objects::texture::internal_format::Comp;
use crate::gl::vk::device::Device;

/// The extension's name.
pub(crate) const EXTENSION: &str = "GL_ARB_ES3_1_compatibility";

const GL_RGBA_INTEGER: GLenum = 0x8D99;

/// The minimum `GL_MAX_SHADER_STORAGE_BLOCK_SIZE` the extension sets (2^27 bytes).
const MIN_STORAGE_BLOCK_SIZE: u32 = 1 << 27;

/// What ES 3.1 needs of the context beyond this extension: its other parts, as offered.
const NEEDS: [&str; 5] = [
    "GL_ARB_ES3_compatibility",
    "GL_ARB_compute_shader",
    "GL_ARB_shader_image_load_store",
    "GL_ARB_shader_storage_buffer_object",
    "GL_ARB_shader_atomic_counters",
];

/// The extension where `device`, and the context's `offered` extensions, run all of it.
pub(crate) fn extensions(device: &Device, offered: &[&str]) -> Option<&'static str> {
    let caps = device.caps();
    let complete = caps.gl4.shader_image_float32_atomics
        && caps.limits.max_storage_buffer_range >= MIN_STORAGE_BLOCK_SIZE
        && NEEDS.iter().all(|e| offered.contains(e));
    complete.then_some(EXTENSION)
}

impl Context {
    /// `GL_IMPLEMENTATION_COLOR_READ_FORMAT` and `GL_IMPLEMENTATION_COLOR_READ_TYPE` of the read
    /// framebuffer (see the module docs); `None` for other pnames.
    pub(crate) fn color_read_get(&mut self, pname: GLenum) -> Option<GlResult<Value>> {
        let format = pname == GL_IMPLEMENTATION_COLOR_READ_FORMAT;
        if !format && pname != GL_IMPLEMENTATION_COLOR_READ_TYPE {
            return None;
        }
        Some(self.color_read_pair().map(|(f, t)| {
            let v = if format { f } else { t };
            Value::Ints(vec![i64::from(v)])
        }))
    }

    /// The read framebuffer's preferred `(format, type)` for `glReadPixels`.
    fn color_read_pair(&mut self) -> GlResult<(GLenum, GLenum)> {
        let name = self.read_framebuffer;
        if self.resolve_framebuffer(name, false).is_err() {
            return invalid_op("the read framebuffer is not complete");
        }
        let selected = if name == 0 {
            self.default_read_buffer
        } else {
            self.framebuffers
                .get(name)
                .map_or(GL_NONE, |fb| fb.read_buffer)
        };
        if selected == GL_NONE {
            return invalid_op("the read buffer is GL_NONE");
        }
        if name == 0 {
            return Ok((GL_RGBA, GL_UNSIGNED_BYTE));
        }
        let Some((info, _)) = self.read_attachment_format() else {
            return invalid_op("the read buffer has no image attached");
        };
        Ok(match info.comp {
            Comp::Int => (GL_RGBA_INTEGER, GL_INT),
            Comp::UInt => (GL_RGBA_INTEGER, GL_UNSIGNED_INT),
            Comp::Float => (GL_RGBA, GL_FLOAT),
            Comp::Unorm | Comp::Snorm => (GL_RGBA, GL_UNSIGNED_BYTE),
        })
    }
}
