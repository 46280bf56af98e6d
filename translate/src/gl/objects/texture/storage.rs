//! Image storage that several texture objects share: a texture and its views
//! (`GL_ARB_texture_view`, `view.rs`), and the textures that EGL images (`EGL_KHR_image_base`)
//! put in other contexts.
//!
//! Design decisions:
//! - The storage is the manager's image handle behind an [`Arc`] ([`ImageRef`]); each
//!   [`TexImage`] holds one clone. Views, swizzle and attachment views stay per texture (each is
//!   retired with the image, so a texture that goes early leaves its few views to the last
//!   user). The last holder to let go retires the image through the manager
//!   ([`ImageRef::release`], `Arc::into_inner`, so two contexts releasing at once retire it
//!   exactly once); the manager's generational handles and epoch-deferred release keep a
//!   recorded draw's use safe after that.
//! - A texture's levels and layers are a window of the image: [`TexImage::origin`] is where its
//!   level 0 and layer 0 lie in the image (0, 0 except for views). Every transfer and view of
//!   a texture goes through [`TexImage::vk_region`] / [`TexImage::sampling_view_desc`].
//! - Mutable format (`VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT`) is set on images that may be seen in
//!   another format, and only there (it can cost drivers their compressed layouts):
//!   immutable-storage textures (the only ones `glTextureView` accepts) whose internal format's
//!   view class has other members ([`wants_mutable_format`]), and every sRGB-format texture
//!   (rendered through a UNORM view while `GL_FRAMEBUFFER_SRGB` is off). A view in another
//!   format than its image's carries only the usage its format supports (the manager chains
//!   `VkImageViewUsageCreateInfo`).

use std::collections::HashMap;
use std::sync::Arc;

use arenagl_memory::{ImageHandle, ImageRegion, MemoryManager, ViewDesc};
use ash::vk;

use crate::gl::context::enums::GLenum;
use crate::gl::context::error::GlResult;
use crate::gl::objects::texture::internal_format::FormatInfo;
use crate::gl::objects::texture::target::TexTarget;
use crate::gl::objects::texture::{compose_swizzle, full_view, TexImage, IDENTITY_SWIZZLE};

/// The device image behind one or more textures.
#[derive(Debug)]
struct SharedImage {
    image: ImageHandle,
}

/// One holder's reference to a shared image.
#[derive(Debug, Clone)]
pub(crate) struct ImageRef(Arc<SharedImage>);

impl ImageRef {
    /// The first reference to a freshly made `image`.
    pub(crate) fn new(image: ImageHandle) -> Self {
        Self(Arc::new(SharedImage { image }))
    }

    /// The manager's handle.
    pub(crate) fn image(&self) -> ImageHandle {
        self.0.image
    }

    /// Whether another holder (a view, an EGL image, a texture of another context) uses the
    /// image too.
    pub(crate) fn is_shared(&self) -> bool {
        Arc::strong_count(&self.0) > 1
    }

    /// Lets go of the image: the last holder retires it.
    pub(crate) fn release(self, manager: &mut MemoryManager) {
        if let Some(last) = Arc::into_inner(self.0) {
            let _ = manager.retire_image(last.image);
        }
    }
}

/// Where a texture's level 0 and layer 0 lie in its image.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Origin {
    pub level: u32,
    pub layer: u32,
}

impl TexImage {
    /// Lets go of the storage (the last holder retires the image).
    pub(crate) fn release(self, manager: &mut MemoryManager) {
        self.shared.release(manager)
    }

    /// Whether only this texture uses its image from its first level and layer (what memory
    /// pressure needs before it swaps the image for a smaller one).
    pub(crate) fn exclusive(&self) -> bool {
        !self.shared.is_shared() && self.origin == Origin::default()
    }

    /// The Vulkan mip level of the texture's `level`.
    pub(crate) fn vk_level(&self, level: u32) -> u32 {
        self.origin.level + level
    }

    /// The Vulkan array layer of the texture's `layer` (face, array layer).
    pub(crate) fn vk_layer(&self, layer: u32) -> u32 {
        self.origin.layer + layer
    }

    /// `region` (in the texture's levels and layers) in the image's.
    pub(crate) fn vk_region(&self, region: &ImageRegion) -> ImageRegion {
        ImageRegion {
            mip_level: self.vk_level(region.mip_level),
            base_layer: self.vk_layer(region.base_layer),
            ..*region
        }
    }

    /// Layers of the texture's window (faces and array layers; 1 for 3D).
    pub(crate) fn layer_count(&self) -> u32 {
        self.target.vk_extent(self.size).1
    }

    /// The view shaders sample: the texture's levels and layers, in its format, with the
    /// format swizzle and then `swizzle` (`GL_TEXTURE_SWIZZLE_*`, the `format_swizzle`
    /// override `over` replacing the format's own where given).
    pub(crate) fn sampling_view_desc(
        &self,
        over: Option<[GLenum; 4]>,
        swizzle: [GLenum; 4],
    ) -> ViewDesc {
        let composed = compose_swizzle(over.unwrap_or(self.format_swizzle), swizzle);
        let mut desc = full_view(
            self.target,
            self.levels,
            self.layer_count(),
            self.format,
            composed,
        );
        desc.format = self.format;
        desc.base_mip_level = self.origin.level;
        desc.base_array_layer = self.origin.layer;
        desc
    }
}

/// The part of a shared image a texture sees, and how: a texture view's or an EGL image
/// sibling's window.
pub(crate) struct Window {
    /// Where its level 0 and layer 0 lie in the image.
    pub origin: Origin,
    pub target: TexTarget,
    /// GL size of its level 0.
    pub size: [u32; 3],
    pub levels: u32,
    /// The Vulkan format it is seen in, the internal format GL names and what that means.
    pub format: (vk::Format, GLenum, FormatInfo),
    /// Samples per texel and `GL_TEXTURE_FIXED_SAMPLE_LOCATIONS` (the image's).
    pub samples: (u32, bool),
}

impl TexImage {
    /// A texture's storage over `shared`'s image (`image` its handle), seeing `window` of it,
    /// every level defined, with its own sampling view.
    pub(crate) fn over_shared(
        manager: &mut MemoryManager,
        shared: &ImageRef,
        window: Window,
    ) -> GlResult<TexImage> {
        let (format, internal, info) = window.format;
        let mut s = TexImage {
            image: shared.image(),
            shared: shared.clone(),
            origin: window.origin,
            immutable_levels: 0,
            // Replaced by the sampling view below (raw 0 is no live handle).
            view: arenagl_memory::ViewHandle::from_raw(0),
            format,
            internal,
            info,
            format_swizzle: info.swizzle(format),
            target: window.target,
            size: window.size,
            levels: window.levels,
            defined: [0; 6],
            immutable: false,
            level_views: HashMap::new(),
            swizzle_views: HashMap::new(),
            demotion: None,
            samples: window.samples.0,
            fixed_locations: window.samples.1,
        };
        for level in 0..s.levels {
            s.define_all_faces(level);
        }
        s.view = manager.create_view(s.image, &s.sampling_view_desc(None, IDENTITY_SWIZZLE))?;
        Ok(s)
    }
}

/// Whether an image for `internal` (stored as `format`) is made mutable-format.
pub(crate) fn wants_mutable_format(internal: GLenum, format: vk::Format, immutable: bool) -> bool {
    is_srgb(format) || (immutable && crate::gl::objects::texture::view::has_view_partners(internal))
}

/// Whether `format` is an sRGB-encoded Vulkan format.
pub(crate) fn is_srgb(format: vk::Format) -> bool {
    srgb_to_unorm(format).is_some()
}

/// The UNORM format with `format`'s bits without its sRGB encoding (`None` if it is not sRGB).
pub(crate) fn srgb_to_unorm(format: vk::Format) -> Option<vk::Format> {
    use vk::Format as F;
    Some(match format {
        F::R8G8B8A8_SRGB => F::R8G8B8A8_UNORM,
        F::B8G8R8A8_SRGB => F::B8G8R8A8_UNORM,
        F::R8G8B8_SRGB => F::R8G8B8_UNORM,
        F::R8_SRGB => F::R8_UNORM,
        F::R8G8_SRGB => F::R8G8_UNORM,
        F::A8B8G8R8_SRGB_PACK32 => F::A8B8G8R8_UNORM_PACK32,
        _ => return None,
    })
}
