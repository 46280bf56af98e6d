//! Framebuffers: the default one (an EGL surface's images) and framebuffer objects with texture
//! and renderbuffer attachments, resolved to dynamic-rendering attachments at draw time.

use std::sync::Arc;

use arenagl_memory::{Category, ImageDesc, ImageHandle, ViewDesc, ViewHandle};
use ash::vk;

use super::device::Device;
use super::enums::*;
use super::error::{GlError, GlResult};

impl super::context::Context {
    /// `GL_SAMPLES` of the draw framebuffer: 0 unless its attachments are multisampled
    /// (the default framebuffer's images are single-sampled).
    pub(crate) fn draw_framebuffer_samples(&self) -> u32 {
        let Some(fb) = self
            .framebuffers
            .get(self.draw_framebuffer)
            .filter(|_| self.draw_framebuffer != 0)
        else {
            return 0;
        };
        fb.colors
            .iter()
            .chain([&fb.depth, &fb.stencil])
            .flatten()
            .map(|a| match a {
                Attachment::Renderbuffer(name) => {
                    self.renderbuffers.get(*name).map_or(0, |rb| rb.samples)
                }
                Attachment::Texture { .. } => 0,
            })
            .max()
            .unwrap_or(0)
    }
}

/// The images behind an EGL surface: what framebuffer 0 draws into.
pub struct SurfaceImages {
    device: Arc<Device>,
    pub width: u32,
    pub height: u32,
    pub color: (ImageHandle, ViewHandle),
    pub depth: (ImageHandle, ViewHandle),
    pub color_format: vk::Format,
    pub depth_format: vk::Format,
}

impl SurfaceImages {
    /// The device the images belong to.
    pub fn device(&self) -> &Arc<Device> {
        &self.device
    }

    /// A colour (RGBA8) and depth/stencil pair of `width × height` (at least 1×1).
    pub fn new(device: &Arc<Device>, width: u32, height: u32) -> Result<Self, GlError> {
        let (width, height) = (width.max(1), height.max(1));
        let color_format = vk::Format::R8G8B8A8_UNORM;
        let depth_format = device.caps().depth_stencil_format;
        let mut locked = device.lock();
        let color = locked.image_with_view(
            &ImageDesc::new_2d(
                color_format,
                width,
                height,
                1,
                vk::ImageUsageFlags::COLOR_ATTACHMENT
                    | vk::ImageUsageFlags::TRANSFER_SRC
                    | vk::ImageUsageFlags::TRANSFER_DST
                    | vk::ImageUsageFlags::SAMPLED,
                Category::RenderTarget,
            )
            .named("EGL surface colour"),
            &ViewDesc::color_2d(1),
        )?;
        let depth = match locked.image_with_view(
            &ImageDesc::new_2d(
                depth_format,
                width,
                height,
                1,
                vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT
                    | vk::ImageUsageFlags::TRANSFER_SRC
                    | vk::ImageUsageFlags::TRANSFER_DST,
                Category::RenderTarget,
            )
            .named("EGL surface depth/stencil"),
            &depth_view(),
        ) {
            Ok(d) => d,
            Err(e) => {
                let _ = locked.manager.retire_image(color.0);
                return Err(e.into());
            }
        };
        drop(locked);
        Ok(Self {
            device: device.clone(),
            width,
            height,
            color,
            depth,
            color_format,
            depth_format,
        })
    }
}

impl Drop for SurfaceImages {
    fn drop(&mut self) {
        let mut locked = self.device.lock();
        let _ = locked.manager.retire_image(self.color.0);
        let _ = locked.manager.retire_image(self.depth.0);
    }
}

pub(crate) fn depth_view() -> ViewDesc {
    ViewDesc {
        aspect: vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL,
        ..ViewDesc::color_2d(1)
    }
}

/// What a framebuffer attachment point refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Attachment {
    /// A level and layer (cube face, array layer, 3D slice) of a texture.
    Texture {
        name: u32,
        level: u32,
        layer: u32,
    },
    Renderbuffer(u32),
}

/// A framebuffer object.
#[derive(Debug, Clone)]
pub(crate) struct Framebuffer {
    pub colors: [Option<Attachment>; MAX_COLOR_ATTACHMENTS],
    pub depth: Option<Attachment>,
    pub stencil: Option<Attachment>,
    pub draw_buffers: [GLenum; MAX_COLOR_ATTACHMENTS],
    pub read_buffer: GLenum,
}

impl Default for Framebuffer {
    fn default() -> Self {
        let mut draw_buffers = [GL_NONE; MAX_COLOR_ATTACHMENTS];
        draw_buffers[0] = GL_COLOR_ATTACHMENT0;
        Self {
            colors: [None; MAX_COLOR_ATTACHMENTS],
            depth: None,
            stencil: None,
            draw_buffers,
            read_buffer: GL_COLOR_ATTACHMENT0,
        }
    }
}

/// Colour attachments per framebuffer object.
pub const MAX_COLOR_ATTACHMENTS: usize = 8;

/// A renderbuffer object.
#[derive(Default)]
pub(crate) struct Renderbuffer {
    pub storage: Option<(ImageHandle, ViewHandle)>,
    pub format: vk::Format,
    pub internal: GLenum,
    pub width: u32,
    pub height: u32,
    /// Samples per pixel: 0 for a single-sampled renderbuffer (what `GL_RENDERBUFFER_SAMPLES`
    /// reports), else the count the image was made with.
    pub samples: u32,
}

/// The sample counts the device renders every attachment kind with (colour, depth, stencil).
fn framebuffer_sample_counts(device: &Device) -> vk::SampleCountFlags {
    let l = &device.caps().limits;
    l.framebuffer_color_sample_counts
        & l.framebuffer_depth_sample_counts
        & l.framebuffer_stencil_sample_counts
}

/// The largest count in `counts` (1 when empty).
fn highest(counts: vk::SampleCountFlags) -> u32 {
    let raw = counts.as_raw() & 0x7F;
    if raw == 0 {
        1
    } else {
        1 << (31 - raw.leading_zeros())
    }
}

/// `GL_MAX_SAMPLES`: the most samples every attachment kind supports.
pub(crate) fn max_samples(device: &Device) -> u32 {
    highest(framebuffer_sample_counts(device))
}

/// `GL_MAX_INTEGER_SAMPLES`: also limited by what integer images may be sampled with.
pub(crate) fn max_integer_samples(device: &Device) -> u32 {
    highest(
        framebuffer_sample_counts(device)
            & device.caps().limits.sampled_image_integer_sample_counts,
    )
}

/// The sample count a request for `requested` samples gets: 1 (single-sampled) for 0, else the
/// smallest supported multisampled count at least as large — `GL_RENDERBUFFER_SAMPLES` must be
/// at least the request, so 1 becomes 2 or 4 — or 1 on a device without multisampling; None
/// above the maximum.
pub(crate) fn pick_samples(device: &Device, requested: u32) -> Option<u32> {
    if requested == 0 {
        return Some(1);
    }
    let counts = framebuffer_sample_counts(device).as_raw();
    let multisampled = (1..7)
        .map(|bit| 1u32 << bit)
        .find(|&n| n >= requested && counts & n != 0);
    match multisampled {
        None if requested == 1 => Some(1),
        found => found,
    }
}

/// The format a renderbuffer's internal format is stored in.
pub(crate) fn renderbuffer_format(device: &Device, internal: GLenum) -> Option<vk::Format> {
    Some(match internal {
        GL_RGBA8 | GL_RGBA | GL_RGB8 | GL_RGB | GL_RGBA4 | GL_RGB5_A1 | GL_RGB565 => {
            vk::Format::R8G8B8A8_UNORM
        }
        GL_SRGB8_ALPHA8 => vk::Format::R8G8B8A8_SRGB,
        GL_R8 | GL_RED => vk::Format::R8_UNORM,
        GL_RG8 | GL_RG => vk::Format::R8G8_UNORM,
        // Colour-renderable sized formats GL 3.0 requires of renderbuffers (numeric: the
        // texture-format work owns the named constants).
        0x805B => vk::Format::R16G16B16A16_UNORM, // GL_RGBA16
        0x822A => vk::Format::R16_UNORM,          // GL_R16
        0x822C => vk::Format::R16G16_UNORM,       // GL_RG16
        0x8059 => vk::Format::A2B10G10R10_UNORM_PACK32, // GL_RGB10_A2
        0x906F => vk::Format::A2B10G10R10_UINT_PACK32, // GL_RGB10_A2UI
        0x8C3A => vk::Format::B10G11R11_UFLOAT_PACK32, // GL_R11F_G11F_B10F
        0x881A => vk::Format::R16G16B16A16_SFLOAT, // GL_RGBA16F
        0x8814 => vk::Format::R32G32B32A32_SFLOAT, // GL_RGBA32F
        0x822D => vk::Format::R16_SFLOAT,         // GL_R16F
        0x822E => vk::Format::R32_SFLOAT,         // GL_R32F
        0x822F => vk::Format::R16G16_SFLOAT,      // GL_RG16F
        0x8230 => vk::Format::R32G32_SFLOAT,      // GL_RG32F
        0x8231 => vk::Format::R8_SINT,            // GL_R8I
        0x8232 => vk::Format::R8_UINT,            // GL_R8UI
        0x8233 => vk::Format::R16_SINT,           // GL_R16I
        0x8234 => vk::Format::R16_UINT,           // GL_R16UI
        0x8235 => vk::Format::R32_SINT,           // GL_R32I
        0x8236 => vk::Format::R32_UINT,           // GL_R32UI
        0x8237 => vk::Format::R8G8_SINT,          // GL_RG8I
        0x8238 => vk::Format::R8G8_UINT,          // GL_RG8UI
        0x8239 => vk::Format::R16G16_SINT,        // GL_RG16I
        0x823A => vk::Format::R16G16_UINT,        // GL_RG16UI
        0x823B => vk::Format::R32G32_SINT,        // GL_RG32I
        0x823C => vk::Format::R32G32_UINT,        // GL_RG32UI
        0x8D8E => vk::Format::R8G8B8A8_SINT,      // GL_RGBA8I
        0x8D7C => vk::Format::R8G8B8A8_UINT,      // GL_RGBA8UI
        0x8D88 => vk::Format::R16G16B16A16_SINT,  // GL_RGBA16I
        0x8D76 => vk::Format::R16G16B16A16_UINT,  // GL_RGBA16UI
        0x8D82 => vk::Format::R32G32B32A32_SINT,  // GL_RGBA32I
        0x8D70 => vk::Format::R32G32B32A32_UINT,  // GL_RGBA32UI
        GL_DEPTH_COMPONENT16
        | GL_DEPTH_COMPONENT24
        | GL_DEPTH_COMPONENT32F
        | GL_DEPTH_COMPONENT
        | GL_DEPTH24_STENCIL8
        | GL_DEPTH32F_STENCIL8
        | GL_DEPTH_STENCIL
        | GL_STENCIL_INDEX8 => device.caps().depth_stencil_format,
        _ => return None,
    })
}

/// One resolved attachment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Bound {
    pub image: ImageHandle,
    pub view: ViewHandle,
    pub format: vk::Format,
    /// The mip level and layer (array layer, cube face, 3D slice) the view shows.
    pub level: u32,
    pub layer: u32,
    /// Samples per pixel (1 for single-sampled images).
    pub samples: u32,
}

/// A framebuffer resolved for rendering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Target {
    pub width: u32,
    pub height: u32,
    /// Indexed by colour attachment (draw buffer) slot; `None` slots are not written.
    pub colors: Vec<Option<Bound>>,
    pub depth_stencil: Option<Bound>,
    /// Samples per pixel of every attachment (completeness makes them agree).
    pub samples: u32,
}

impl Target {
    pub(crate) fn has_depth(&self) -> bool {
        self.depth_stencil.is_some()
    }

    pub(crate) fn has_stencil(&self) -> bool {
        self.depth_stencil.is_some_and(|b| has_stencil(b.format))
    }
}

pub(crate) fn has_stencil(format: vk::Format) -> bool {
    matches!(
        format,
        vk::Format::D24_UNORM_S8_UINT
            | vk::Format::D32_SFLOAT_S8_UINT
            | vk::Format::D16_UNORM_S8_UINT
            | vk::Format::S8_UINT
    )
}

pub(crate) fn is_depth_format(format: vk::Format) -> bool {
    matches!(
        format,
        vk::Format::D24_UNORM_S8_UINT
            | vk::Format::D32_SFLOAT_S8_UINT
            | vk::Format::D16_UNORM_S8_UINT
            | vk::Format::D16_UNORM
            | vk::Format::D32_SFLOAT
            | vk::Format::X8_D24_UNORM_PACK32
    )
}

/// The attachment point a `GL_*_ATTACHMENT` enum names.
pub(crate) enum Point {
    Color(usize),
    Depth,
    Stencil,
    DepthStencil,
}

pub(crate) fn attachment_point(attachment: GLenum) -> GlResult<Point> {
    match attachment {
        GL_DEPTH_ATTACHMENT => Ok(Point::Depth),
        GL_STENCIL_ATTACHMENT => Ok(Point::Stencil),
        GL_DEPTH_STENCIL_ATTACHMENT => Ok(Point::DepthStencil),
        a if (GL_COLOR_ATTACHMENT0..GL_COLOR_ATTACHMENT0 + MAX_COLOR_ATTACHMENTS as u32)
            .contains(&a) =>
        {
            Ok(Point::Color((a - GL_COLOR_ATTACHMENT0) as usize))
        }
        a if (GL_COLOR_ATTACHMENT0..GL_COLOR_ATTACHMENT0 + 32).contains(&a) => {
            super::error::invalid_op(format!(
                "colour attachment {} beyond GL_MAX_COLOR_ATTACHMENTS",
                a - GL_COLOR_ATTACHMENT0
            ))
        }
        _ => super::error::invalid_enum("framebuffer attachment", attachment),
    }
}
