//! The texture-side GL 4.2–4.5 extensions this device offers, and the sampling state that only
//! some devices have: anisotropic filtering (`samplerAnisotropy`) and the mirror-clamp-to-edge
//! wrap mode (`samplerMirrorClampToEdge`).
//!
//! Design decisions:
//! - Each extension is offered only where its Vulkan feature is enabled on the device; a wrap
//!   mode the device cannot sample is `GL_INVALID_ENUM`, as it is on a GL without the extension.
//! - `GL_TEXTURE_MAX_ANISOTROPY` is kept as set (GL clamps it at use); the manager clamps it to
//!   `maxSamplerAnisotropy` when it makes the sampler.

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, GlResult};
use crate::gl::vk::device::Device;

/// The texture-side extensions `device` supports.
pub(crate) fn extensions(device: &Device) -> Vec<&'static str> {
    let mut out = vec![
        "GL_ARB_copy_image",
        "GL_ARB_clear_texture",
        "GL_ARB_get_texture_sub_image",
        "GL_ARB_internalformat_query",
        // Every property of a format on a target (`internalformat_query.rs`).
        "GL_ARB_internalformat_query2",
        // BC7/BC6H decoded on upload like the other compressed formats (staging's `bptc`).
        "GL_ARB_texture_compression_bptc",
        // ASTC LDR, all fourteen 2D footprints, decoded on upload (staging's `astc`); 3D
        // textures of 2D blocks are slices decoded one by one.
        "GL_KHR_texture_compression_astc_ldr",
        "GL_KHR_texture_compression_astc_sliced_3d",
        // Block-counted row lengths and skips of compressed images (`pixel/compressed_store.rs`).
        "GL_ARB_compressed_texture_pixel_storage",
        // Stencil indices sampled from depth/stencil textures (`stencil.rs`).
        "GL_ARB_stencil_texturing",
        // Textures over another texture's image, format and range (`view.rs`).
        "GL_ARB_texture_view",
    ];
    if crate::gl::objects::texture::stencil::stencil8_textures(device) {
        // GL_STENCIL_INDEX8 textures: stencil-plane uploads and stencil sampling (`stencil.rs`).
        out.push("GL_ARB_texture_stencil8");
    }
    if anisotropy(device) {
        out.push("GL_ARB_texture_filter_anisotropic");
        out.push("GL_EXT_texture_filter_anisotropic");
    }
    if device.caps().gl4.sampler_mirror_clamp_to_edge {
        out.push("GL_ARB_texture_mirror_clamp_to_edge");
    }
    out
}

/// Whether the device filters anisotropically (`samplerAnisotropy` enabled).
pub(crate) fn anisotropy(device: &Device) -> bool {
    device
        .lock()
        .manager
        .device_info()
        .features
        .sampler_anisotropy
}

/// `GL_MAX_TEXTURE_MAX_ANISOTROPY`: the device's limit where it filters anisotropically, else 1.
pub(crate) fn max_anisotropy(device: &Device) -> f32 {
    if anisotropy(device) {
        device.caps().limits.max_sampler_anisotropy.max(1.0)
    } else {
        1.0
    }
}

/// Refuses a wrap mode the device cannot sample (`GL_MIRROR_CLAMP_TO_EDGE` without
/// `samplerMirrorClampToEdge`) before `set_param` accepts it.
pub(crate) fn check_wrap(device: &Device, pname: GLenum, value: f32) -> GlResult<()> {
    let wrap = matches!(
        pname,
        GL_TEXTURE_WRAP_S | GL_TEXTURE_WRAP_T | GL_TEXTURE_WRAP_R
    );
    if wrap
        && value as i32 as GLenum == GL_MIRROR_CLAMP_TO_EDGE
        && !device.caps().gl4.sampler_mirror_clamp_to_edge
    {
        return invalid_enum(
            "wrap mode without samplerMirrorClampToEdge",
            GL_MIRROR_CLAMP_TO_EDGE,
        );
    }
    Ok(())
}
