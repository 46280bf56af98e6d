//! GL_ARB_stencil_texturing: `GL_DEPTH_STENCIL_TEXTURE_MODE`, which makes a depth/stencil
//! texture sample its stencil indices (unsigned integers, through `usampler*`) instead of
//! its depths.
//!
//! Design decisions:
//! - The mode is texture state ([`TexParams::stencil_mode`], not sampler state). A draw that
//!   samples a depth/stencil texture in stencil mode binds a view of the image's stencil
//!   aspect, which Vulkan samples as unsigned integers; its component mapping gives GL's
//!   (S, 0, 0, 1) under the texture's `GL_TEXTURE_SWIZZLE_*`.
//! - The view is cached with the texture's swizzle views ([`TexImage::swizzle_views`]) under
//!   the swizzle with [`STENCIL_KEY`] set, a bit no GL swizzle source has, so it is made once
//!   and retired with the image like them.
//! - GL 4.6 §8.17: in stencil mode, filters other than `GL_NEAREST` (and
//!   `GL_NEAREST_MIPMAP_NEAREST` for minification) make the texture incomplete.
//! - GL_ARB_texture_stencil8: a `GL_STENCIL_INDEX8` texture is stored in the device's
//!   depth/stencil format (the one its stencil renderbuffers use, so it attaches to a
//!   framebuffer like them) and always samples its stencil aspect, whatever the mode; its
//!   depth aspect is never read. It is offered where that format can be sampled, copied and
//!   rendered to ([`stencil8_textures`]).

use arenagl_memory::ViewHandle;
use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::GlResult;
use crate::gl::objects::texture::internal_format::{has_stencil, Base};
use crate::gl::objects::texture::{LevelWindow, TexImage, TexParams};
use crate::gl::vk::device::Device;

/// `GL_DEPTH_STENCIL_TEXTURE_MODE`.
pub(crate) const GL_DEPTH_STENCIL_TEXTURE_MODE: GLenum = 0x90EA;

/// Marks a swizzle-view key as the stencil view's.
const STENCIL_KEY: GLenum = 0x8000_0000;

/// What a stencil index samples as before the texture's swizzle: (S, 0, 0, 1).
const STENCIL_SWIZZLE: [GLenum; 4] = [GL_RED, GL_ZERO, GL_ZERO, GL_ONE];

impl TexImage {
    /// Whether a texture with `params` samples this image's stencil indices: a stencil-only
    /// format always does, a depth/stencil one in stencil mode.
    pub(crate) fn samples_stencil(&self, params: &TexParams) -> bool {
        (params.stencil_mode || self.info.base == Base::Stencil) && has_stencil(self.format)
    }

    /// The view of the stencil aspect with `swizzle` (`GL_TEXTURE_SWIZZLE_*`) applied, over
    /// `window`'s levels where given.
    pub(crate) fn stencil_view(
        &mut self,
        manager: &mut arenagl_memory::MemoryManager,
        swizzle: [GLenum; 4],
        window: Option<LevelWindow>,
    ) -> GlResult<ViewHandle> {
        let key = LevelWindow::key(window, swizzle).map(|c| c | STENCIL_KEY);
        if let Some(v) = self.swizzle_views.get(&key) {
            return Ok(*v);
        }
        let full = self.sampling_view_desc(Some(STENCIL_SWIZZLE), swizzle);
        let mut desc = LevelWindow::apply(window, full);
        desc.aspect = vk::ImageAspectFlags::STENCIL;
        let view = manager.create_view(self.image, &desc)?;
        self.swizzle_views.insert(key, view);
        Ok(view)
    }
}

/// Whether `GL_STENCIL_INDEX8` textures work on `device` (GL_ARB_texture_stencil8): the
/// depth/stencil format that stores them can be sampled, copied to and from, and attached.
pub(crate) fn stencil8_textures(device: &Device) -> bool {
    let format = device.caps().depth_stencil_format;
    let needed = vk::FormatFeatureFlags::SAMPLED_IMAGE
        | vk::FormatFeatureFlags::TRANSFER_SRC
        | vk::FormatFeatureFlags::TRANSFER_DST
        | vk::FormatFeatureFlags::DEPTH_STENCIL_ATTACHMENT;
    has_stencil(format)
        && device
            .lock()
            .manager
            .format_features(format)
            .contains(needed)
}

/// GL's completeness rule for stencil sampling: nearest filters only (`params` is the
/// sampling state in effect: the unit's sampler object's, or the texture's).
pub(crate) fn stencil_filters_complete(params: &TexParams) -> bool {
    params.mag_filter == GL_NEAREST
        && matches!(params.min_filter, GL_NEAREST | GL_NEAREST_MIPMAP_NEAREST)
}

/// `glTexParameter(GL_DEPTH_STENCIL_TEXTURE_MODE)`'s value as the stencil flag; `None` for a
/// value that is neither mode.
pub(crate) fn mode_of(value: GLenum) -> Option<bool> {
    match value {
        GL_DEPTH_COMPONENT => Some(false),
        GL_STENCIL_INDEX => Some(true),
        _ => None,
    }
}

/// The mode's GL value, for `glGetTexParameter`.
pub(crate) fn mode_value(stencil: bool) -> GLenum {
    if stencil {
        GL_STENCIL_INDEX
    } else {
        GL_DEPTH_COMPONENT
    }
}
