//! Texture objects: GL's per-level specification over one manager image, sampler state, and
//! completeness.
//!
//! Design decisions:
//! - One image per texture holding the whole mip chain its level 0 implies (GL may specify
//!   levels in any order; a level inconsistent with the image restarts the image, which GL
//!   would call incomplete anyway). Formats GL calls RGB are stored as RGBA8 (3-byte formats
//!   are not renderable or even optimal-tiling on most Vulkan devices); staging converts.
//! - Samplers come from a device-wide cache keyed by the parameters, never one per texture
//!   (`maxSamplerAllocationCount` is small on mobile).
//! - An incomplete texture samples as (0, 0, 0, 1), as GL says: a draw binds a 1×1 black image
//!   instead. The classic "forgot GL_TEXTURE_MIN_FILTER" bug therefore looks the same here as on
//!   every other GL.

use std::collections::HashMap;

use arenagl_memory::{Category, ImageDesc, ImageHandle, SamplerDesc, ViewDesc, ViewHandle};
use ash::vk;

use super::enums::*;
use super::error::{invalid_enum, GlResult};

/// Sampling parameters (`glTexParameter*`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct TexParams {
    pub min_filter: GLenum,
    pub mag_filter: GLenum,
    pub wrap: [GLenum; 3],
    pub min_lod: f32,
    pub max_lod: f32,
    pub base_level: i32,
    pub max_level: i32,
    pub lod_bias: f32,
    pub compare_mode: GLenum,
    pub compare_func: GLenum,
    pub border: [f32; 4],
    pub max_anisotropy: f32,
    pub swizzle: [GLenum; 4],
}

impl Default for TexParams {
    fn default() -> Self {
        Self {
            min_filter: GL_NEAREST_MIPMAP_LINEAR,
            mag_filter: GL_LINEAR,
            wrap: [GL_REPEAT; 3],
            min_lod: -1000.0,
            max_lod: 1000.0,
            base_level: 0,
            max_level: 1000,
            lod_bias: 0.0,
            compare_mode: GL_NONE,
            compare_func: GL_LEQUAL,
            border: [0.0; 4],
            max_anisotropy: 1.0,
            swizzle: [GL_RED, GL_GREEN, GL_BLUE, GL_ALPHA],
        }
    }
}

impl TexParams {
    pub(crate) fn uses_mipmaps(&self) -> bool {
        !matches!(self.min_filter, GL_NEAREST | GL_LINEAR)
    }
}

/// The storage a texture's levels live in.
pub(crate) struct TexImage {
    pub image: ImageHandle,
    pub view: ViewHandle,
    pub format: vk::Format,
    pub internal: GLenum,
    pub width: u32,
    pub height: u32,
    pub levels: u32,
    /// Bit i: level i has been specified.
    pub defined: u64,
    /// Single-level views for framebuffer attachments, by level.
    pub level_views: HashMap<u32, ViewHandle>,
}

/// A GL texture object.
#[derive(Default)]
pub(crate) struct Texture {
    /// The target of the first bind (0 before).
    pub target: GLenum,
    pub storage: Option<TexImage>,
    pub params: TexParams,
}

impl TexImage {
    pub(crate) fn level_size(&self, level: u32) -> (u32, u32) {
        ((self.width >> level).max(1), (self.height >> level).max(1))
    }
}

impl Texture {
    /// Whether sampling with the current parameters reads defined levels only (GL 3.3 §3.8.14,
    /// for the 2D targets this slice supports).
    pub(crate) fn is_complete(&self) -> bool {
        let Some(s) = &self.storage else {
            return false;
        };
        let base = self.params.base_level.max(0) as u32;
        if base >= s.levels || s.defined & (1 << base) == 0 {
            return false;
        }
        if !self.params.uses_mipmaps() {
            return true;
        }
        let last = (self.params.max_level.max(0) as u32).min(s.levels - 1);
        (base..=last).all(|l| s.defined & (1 << l) != 0)
    }

    /// The sampler this texture's parameters ask for.
    pub(crate) fn sampler_desc(&self, max_anisotropy_supported: bool) -> SamplerDesc {
        let p = &self.params;
        let filter = |f: GLenum| {
            if matches!(
                f,
                GL_NEAREST | GL_NEAREST_MIPMAP_NEAREST | GL_NEAREST_MIPMAP_LINEAR
            ) {
                vk::Filter::NEAREST
            } else {
                vk::Filter::LINEAR
            }
        };
        let mipmap_mode = if matches!(
            p.min_filter,
            GL_NEAREST_MIPMAP_LINEAR | GL_LINEAR_MIPMAP_LINEAR
        ) {
            vk::SamplerMipmapMode::LINEAR
        } else {
            vk::SamplerMipmapMode::NEAREST
        };
        let wrap = |w: GLenum| match w {
            GL_CLAMP_TO_EDGE => vk::SamplerAddressMode::CLAMP_TO_EDGE,
            GL_CLAMP_TO_BORDER => vk::SamplerAddressMode::CLAMP_TO_BORDER,
            GL_MIRRORED_REPEAT => vk::SamplerAddressMode::MIRRORED_REPEAT,
            _ => vk::SamplerAddressMode::REPEAT,
        };
        let base = p.base_level.max(0) as f32;
        let (min_lod, max_lod) = if p.uses_mipmaps() {
            let top = (p.max_level.max(0) as f32)
                .min(self.storage.as_ref().map_or(0.0, |s| (s.levels - 1) as f32));
            (
                (base + p.min_lod.max(0.0)).min(top),
                (base + p.max_lod).clamp(base, top),
            )
        } else {
            // Non-mipmapped minification samples the base level only: Vulkan's idiom is a
            // lod clamp of [base, base + 0.25].
            (base, base + 0.25)
        };
        let border_color = if p.border == [0.0, 0.0, 0.0, 1.0] {
            vk::BorderColor::FLOAT_OPAQUE_BLACK
        } else if p.border == [1.0; 4] {
            vk::BorderColor::FLOAT_OPAQUE_WHITE
        } else {
            vk::BorderColor::FLOAT_TRANSPARENT_BLACK
        };
        SamplerDesc {
            mag_filter: filter(p.mag_filter),
            min_filter: filter(p.min_filter),
            mipmap_mode,
            address_modes: [wrap(p.wrap[0]), wrap(p.wrap[1]), wrap(p.wrap[2])],
            mip_lod_bias: p.lod_bias,
            min_lod,
            max_lod,
            max_anisotropy: (max_anisotropy_supported && p.max_anisotropy > 1.0)
                .then_some(p.max_anisotropy),
            compare_op: None,
            border_color,
        }
    }
}

/// The Vulkan format a GL internal format is stored in, with the canonical sized GL name. Depth
/// formats are stored in the device's depth/stencil format (`depth_stencil`).
pub(crate) fn storage_format(
    internal: i32,
    depth_stencil: vk::Format,
) -> GlResult<(vk::Format, GLenum)> {
    let internal = internal as GLenum;
    Ok(match internal {
        GL_DEPTH_COMPONENT
        | GL_DEPTH_COMPONENT16
        | GL_DEPTH_COMPONENT24
        | GL_DEPTH_COMPONENT32F => (depth_stencil, GL_DEPTH_COMPONENT24),
        GL_DEPTH_STENCIL | GL_DEPTH24_STENCIL8 | GL_DEPTH32F_STENCIL8 => {
            (depth_stencil, GL_DEPTH24_STENCIL8)
        }
        GL_RGBA8 | GL_RGBA | 4 | GL_RGBA4 | GL_RGB5_A1 => (vk::Format::R8G8B8A8_UNORM, GL_RGBA8),
        GL_RGB8 | GL_RGB | 3 | GL_RGB565 => (vk::Format::R8G8B8A8_UNORM, GL_RGB8),
        GL_SRGB8_ALPHA8 => (vk::Format::R8G8B8A8_SRGB, GL_SRGB8_ALPHA8),
        GL_SRGB8 => (vk::Format::R8G8B8A8_SRGB, GL_SRGB8),
        GL_R8 | GL_RED | 1 => (vk::Format::R8_UNORM, GL_R8),
        GL_RG8 | GL_RG | 2 => (vk::Format::R8G8_UNORM, GL_RG8),
        _ => {
            return invalid_enum(
                "internal format (this slice stores 8-bit colour formats)",
                internal,
            )
        }
    })
}

/// The request for a 2D texture image of `width × height` with `levels` levels (renderable:
/// colour formats as colour attachments, depth formats as depth/stencil attachments).
pub(crate) fn image_desc(format: vk::Format, width: u32, height: u32, levels: u32) -> ImageDesc {
    let attachment = if super::framebuffer::is_depth_format(format) {
        vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT
    } else {
        vk::ImageUsageFlags::COLOR_ATTACHMENT
    };
    ImageDesc::new_2d(
        format,
        width,
        height,
        levels,
        vk::ImageUsageFlags::SAMPLED
            | vk::ImageUsageFlags::TRANSFER_DST
            | vk::ImageUsageFlags::TRANSFER_SRC
            | attachment,
        Category::Texture,
    )
    .named("GL texture")
}

/// The view shaders sample: every level; depth textures sample their depth aspect.
pub(crate) fn full_view(levels: u32, format: vk::Format) -> ViewDesc {
    let mut view = ViewDesc::color_2d(levels);
    if super::framebuffer::is_depth_format(format) {
        view.aspect = vk::ImageAspectFlags::DEPTH;
    }
    view
}

/// The single-level view a framebuffer attaches: colour, or depth and stencil together.
pub(crate) fn attachment_view(level: u32, format: vk::Format) -> ViewDesc {
    let mut view = ViewDesc {
        base_mip_level: level,
        ..ViewDesc::color_2d(1)
    };
    if super::framebuffer::is_depth_format(format) {
        view.aspect = arenagl_memory::format_aspects(format);
    }
    view
}

/// Validates a `glTexParameter` (pname, value) pair and applies it.
pub(crate) fn set_param(p: &mut TexParams, pname: GLenum, value: f32) -> GlResult<()> {
    let e = value as i32 as GLenum;
    let check = |ok: bool| -> GlResult<GLenum> {
        if ok {
            Ok(e)
        } else {
            invalid_enum("texture parameter value", e)
        }
    };
    match pname {
        GL_TEXTURE_MIN_FILTER => {
            p.min_filter = check(matches!(
                e,
                GL_NEAREST
                    | GL_LINEAR
                    | GL_NEAREST_MIPMAP_NEAREST
                    | GL_LINEAR_MIPMAP_NEAREST
                    | GL_NEAREST_MIPMAP_LINEAR
                    | GL_LINEAR_MIPMAP_LINEAR
            ))?
        }
        GL_TEXTURE_MAG_FILTER => p.mag_filter = check(matches!(e, GL_NEAREST | GL_LINEAR))?,
        GL_TEXTURE_WRAP_S | GL_TEXTURE_WRAP_T | GL_TEXTURE_WRAP_R => {
            let v = check(matches!(
                e,
                GL_REPEAT | GL_CLAMP_TO_EDGE | GL_CLAMP_TO_BORDER | GL_MIRRORED_REPEAT
            ))?;
            let i = match pname {
                GL_TEXTURE_WRAP_S => 0,
                GL_TEXTURE_WRAP_T => 1,
                _ => 2,
            };
            p.wrap[i] = v;
        }
        GL_TEXTURE_MIN_LOD => p.min_lod = value,
        GL_TEXTURE_MAX_LOD => p.max_lod = value,
        GL_TEXTURE_LOD_BIAS => p.lod_bias = value,
        GL_TEXTURE_BASE_LEVEL | GL_TEXTURE_MAX_LEVEL => {
            if value < 0.0 {
                return super::error::invalid_value("negative texture level");
            }
            if pname == GL_TEXTURE_BASE_LEVEL {
                p.base_level = value as i32;
            } else {
                p.max_level = value as i32;
            }
        }
        GL_TEXTURE_COMPARE_MODE => {
            p.compare_mode = check(matches!(e, GL_NONE | GL_COMPARE_REF_TO_TEXTURE))?
        }
        GL_TEXTURE_COMPARE_FUNC => p.compare_func = check((GL_NEVER..=GL_ALWAYS).contains(&e))?,
        GL_TEXTURE_MAX_ANISOTROPY => {
            if value < 1.0 {
                return super::error::invalid_value("anisotropy below 1");
            }
            p.max_anisotropy = value
        }
        GL_TEXTURE_SWIZZLE_R | GL_TEXTURE_SWIZZLE_G | GL_TEXTURE_SWIZZLE_B
        | GL_TEXTURE_SWIZZLE_A => {
            let v = check(matches!(
                e,
                GL_RED | GL_GREEN | GL_BLUE | GL_ALPHA | GL_ZERO | GL_ONE
            ))?;
            p.swizzle[(pname - GL_TEXTURE_SWIZZLE_R) as usize] = v;
        }
        _ => return invalid_enum("texture parameter", pname),
    }
    Ok(())
}
