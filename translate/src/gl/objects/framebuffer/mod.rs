//! Framebuffers: the default one (an EGL surface's images) and framebuffer objects with texture
//! and renderbuffer attachments, resolved to dynamic-rendering attachments at draw time; and
//! renderbuffers. The types are here; the entry points are in `api`,
//! `glGetFramebufferAttachmentParameteriv` in `query`, and the attachments that outlive their
//! names (a texture or renderbuffer deleted while a framebuffer that is not bound holds it) in
//! `retained`.

pub(crate) mod api;
pub(crate) mod layered;
pub(crate) mod params;
pub(crate) mod query;
pub(crate) mod retained;

use std::sync::Arc;

use arenagl_memory::{Category, ImageDesc, ImageHandle, ViewDesc, ViewHandle};
use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{GlError, GlResult};
use crate::gl::objects::texture::storage::ImageRef;
use crate::gl::vk::device::Device;

// The format predicates live with the formats; these names stay for the rooms that reach them
// through the framebuffer (draw, pixel, pressure, vk).
pub(crate) use crate::gl::objects::texture::internal_format::{has_stencil, is_depth_format};

/// The colour buffer layout of an EGL config (`EGL_RED_SIZE` … `EGL_ALPHA_SIZE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SurfaceColor {
    /// 8-bit red, green, blue and alpha.
    #[default]
    Rgba8,
    /// 8-bit red, green and blue, no alpha: stored RGBA8, read and blended with alpha 1.
    Rgb8,
    /// 5-6-5 bits, no alpha: stored `R5G6B5_UNORM_PACK16` (RGB8 on a device that cannot
    /// render it, reported as such).
    Rgb565,
}

/// How an EGL surface's images are made, from its config and attributes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SurfaceFormat {
    /// `EGL_GL_COLORSPACE_SRGB` (or an sRGB-capable GLX config): the colour buffer holds
    /// sRGB-encoded values, written encoded while `GL_FRAMEBUFFER_SRGB` is enabled (always in
    /// OpenGL ES, which has no switch).
    pub srgb: bool,
    /// `EGL_SAMPLES` of the config: 0 or 1 single-sampled; more renders multisampled and
    /// resolves at the swap (and for reads). A count the device cannot render falls back to
    /// the nearest one it can (`pick_samples`), or single-sampled.
    pub samples: u32,
    /// The colour layout.
    pub color: SurfaceColor,
    /// `EGL_DEPTH_SIZE` (0: no depth buffer) and `EGL_STENCIL_SIZE` (0: no stencil buffer);
    /// with neither, the surface has no depth/stencil image at all.
    pub depth_bits: u8,
    pub stencil_bits: u8,
}

impl Default for SurfaceFormat {
    /// Linear RGBA8, single-sampled, 24-bit depth and 8-bit stencil.
    fn default() -> Self {
        Self {
            srgb: false,
            samples: 0,
            color: SurfaceColor::Rgba8,
            depth_bits: 24,
            stencil_bits: 8,
        }
    }
}

/// The images behind an EGL surface: what framebuffer 0 draws into.
///
/// Design: the colour image is stored as the config says — `R8G8B8A8_UNORM` for 8-bit
/// configs (with and without alpha: an alpha-less one reports `GL_RGB8`, and reads and blending
/// take its alpha as 1, as for an RGB texture stored as RGBA), `R5G6B5_UNORM_PACK16` for 5-6-5
/// ones (the present's blit converts it; reads go through an RGBA8 copy) — and the
/// depth/stencil image as the config's depth and stencil sizes ask (none for a config with
/// neither, so `GL_DEPTH_BITS` is 0 and the depth test passes). An sRGB surface's image is created mutable-format
/// and drawn through an `R8G8B8A8_SRGB` view, which encodes (and blends in linear space) —
/// the bytes that reach the window are the encoded ones, which is what sRGB means for a
/// display. A multisampled surface renders into multisampled colour and depth/stencil
/// images; `resolve` is the single-sampled colour image the swap presents and reads use,
/// filled by the memory manager's resolve just before each.
pub struct SurfaceImages {
    device: Arc<Device>,
    /// The size GL sees (the window's, the pbuffer's).
    pub width: u32,
    pub height: u32,
    /// The size of the images: smaller than the GL size while the presenter renders at a
    /// reduced scale under memory pressure (`pressure/render_scale.rs`; the present blit scales up).
    pub render_width: u32,
    pub render_height: u32,
    /// What draws render into (multisampled on a multisampled surface).
    pub color: (ImageHandle, ViewHandle),
    /// None for a config without depth and stencil.
    pub depth: Option<(ImageHandle, ViewHandle)>,
    pub color_format: vk::Format,
    pub depth_format: Option<vk::Format>,
    /// The encoding view of an sRGB surface's colour image (`R8G8B8A8_SRGB`).
    pub srgb_view: Option<ViewHandle>,
    /// The single-sampled colour image of a multisampled surface.
    pub resolve: Option<(ImageHandle, ViewHandle)>,
    /// Samples per pixel of `color` and `depth` (1: single-sampled).
    pub samples: u32,
    /// What the images were made for (the resize path makes new ones alike).
    pub format: SurfaceFormat,
}

/// The usage of every colour image of a surface.
const SURFACE_COLOR_USAGE: vk::ImageUsageFlags = vk::ImageUsageFlags::from_raw(
    vk::ImageUsageFlags::COLOR_ATTACHMENT.as_raw()
        | vk::ImageUsageFlags::TRANSFER_SRC.as_raw()
        | vk::ImageUsageFlags::TRANSFER_DST.as_raw()
        | vk::ImageUsageFlags::SAMPLED.as_raw(),
);

impl SurfaceImages {
    /// The device the images belong to.
    pub fn device(&self) -> &Arc<Device> {
        &self.device
    }

    /// A linear, single-sampled colour (RGBA8) and depth/stencil pair of `width × height`
    /// (at least 1×1).
    pub fn new(device: &Arc<Device>, width: u32, height: u32) -> Result<Self, GlError> {
        Self::with_format(device, width, height, 1.0, SurfaceFormat::default())
    }

    /// Linear, single-sampled images for a GL size of `width × height` rendered at `scale` of
    /// it (see [`SurfaceImages::with_format`]).
    pub fn with_scale(
        device: &Arc<Device>,
        width: u32,
        height: u32,
        scale: f32,
    ) -> Result<Self, GlError> {
        Self::with_format(device, width, height, scale, SurfaceFormat::default())
    }

    /// Images of `format` for a GL size of `width × height` rendered at `scale` of it (clamped
    /// to `[0.25, 1]`; each side at least 1 pixel).
    pub fn with_format(
        device: &Arc<Device>,
        width: u32,
        height: u32,
        scale: f32,
        format: SurfaceFormat,
    ) -> Result<Self, GlError> {
        let (gl_width, gl_height) = (width.max(1), height.max(1));
        let scale = if scale.is_finite() {
            scale.clamp(0.25, 1.0)
        } else {
            1.0
        };
        let scaled = |v: u32| ((v as f32 * scale).round() as u32).clamp(1, v);
        let (width, height) = (scaled(gl_width), scaled(gl_height));
        let samples = if format.samples > 1 {
            pick_samples(device, format.samples).unwrap_or_else(|| max_samples(device))
        } else {
            1
        };
        let mut made = SurfaceParts::default();
        let storage = SurfaceStorage::for_format(device, &format);
        let (color, depth) = match made.allocate(device, (width, height), samples, storage) {
            Ok(pair) => pair,
            Err(e) => {
                made.retire(device);
                return Err(e);
            }
        };
        Ok(Self {
            device: device.clone(),
            width: gl_width,
            height: gl_height,
            render_width: width,
            render_height: height,
            color,
            depth,
            color_format: storage.color,
            depth_format: storage.depth,
            srgb_view: made.srgb_view,
            resolve: made.resolve,
            samples,
            format,
        })
    }

    /// The single-sampled colour image that holds what was drawn (after the resolve of a
    /// multisampled surface): what a swap presents and what reads read.
    pub fn presented_color(&self) -> (ImageHandle, ViewHandle) {
        self.resolve.unwrap_or(self.color)
    }

    /// The internal format GL reports for the colour buffer: the config's layout as stored
    /// (`GL_RGBA8`, `GL_RGB8`, `GL_RGB565`), sRGB for an sRGB surface (its
    /// `GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING` is `GL_SRGB`).
    pub(crate) fn gl_color_internal(&self) -> GLenum {
        let srgb = self.srgb_view.is_some();
        match (self.color_format, self.format.color, srgb) {
            (vk::Format::R5G6B5_UNORM_PACK16, _, _) => GL_RGB565,
            (_, SurfaceColor::Rgba8, false) => GL_RGBA8,
            (_, SurfaceColor::Rgba8, true) => GL_SRGB8_ALPHA8,
            (_, _, false) => GL_RGB8,
            (_, _, true) => GL_SRGB8,
        }
    }

    /// The internal format GL reports for the depth and stencil buffers (None: no buffer).
    pub(crate) fn gl_depth_internal(&self) -> Option<GLenum> {
        Some(match self.depth_format? {
            vk::Format::D16_UNORM => GL_DEPTH_COMPONENT16,
            vk::Format::X8_D24_UNORM_PACK32 => GL_DEPTH_COMPONENT24,
            vk::Format::D32_SFLOAT => GL_DEPTH_COMPONENT32F,
            vk::Format::D32_SFLOAT_S8_UINT => GL_DEPTH32F_STENCIL8,
            _ => GL_DEPTH24_STENCIL8,
        })
    }

    /// Whether the colour buffer has no alpha (GL reads and blends its alpha as 1).
    pub(crate) fn color_without_alpha(&self) -> bool {
        self.format.color != SurfaceColor::Rgba8
    }

    /// The Vulkan format draws into the colour image use (the sRGB view's when encoding).
    pub(crate) fn gl_color_format(&self) -> vk::Format {
        if self.srgb_view.is_some() {
            vk::Format::R8G8B8A8_SRGB
        } else {
            self.color_format
        }
    }

    /// Records the resolve of a multisampled surface's colour into `resolve` (nothing for a
    /// single-sampled one). Outside any render pass.
    pub fn record_resolve(
        &self,
        manager: &mut arenagl_memory::MemoryManager,
    ) -> Result<(), arenagl_memory::MemoryError> {
        let Some(resolve) = self.resolve else {
            return Ok(());
        };
        let side = |image| arenagl_memory::BlitSide {
            image,
            mip_level: 0,
            layer: 0,
            corners: [
                vk::Offset3D { x: 0, y: 0, z: 0 },
                vk::Offset3D {
                    x: self.render_width as i32,
                    y: self.render_height as i32,
                    z: 1,
                },
            ],
        };
        manager.resolve_image(side(self.color.0), side(resolve.0))
    }
}

/// An image and its whole view.
type ImageAndView = (ImageHandle, ViewHandle);

/// The images of a surface as they are made, so a failure part-way retires what was made.
#[derive(Default)]
struct SurfaceParts {
    color: Option<ImageAndView>,
    depth: Option<ImageAndView>,
    srgb_view: Option<ViewHandle>,
    resolve: Option<ImageAndView>,
}

impl SurfaceParts {
    fn allocate(
        &mut self,
        device: &Arc<Device>,
        (width, height): (u32, u32),
        samples: u32,
        storage: SurfaceStorage,
    ) -> Result<(ImageAndView, Option<ImageAndView>), GlError> {
        let srgb = storage.srgb;
        let count = vk::SampleCountFlags::from_raw(samples);
        let mut locked = device.lock();
        let mut color_desc = ImageDesc::new_2d(
            storage.color,
            width,
            height,
            1,
            SURFACE_COLOR_USAGE,
            Category::RenderTarget,
        )
        .named("EGL surface colour");
        if srgb {
            color_desc.flags |= vk::ImageCreateFlags::MUTABLE_FORMAT;
        }
        let single = color_desc.clone();
        color_desc.samples = count;
        if samples > 1 {
            // Multisampled images cannot be sampled through GL's default framebuffer.
            color_desc.usage &= !vk::ImageUsageFlags::SAMPLED;
            self.resolve = Some(locked.image_with_view(
                &single.named("EGL surface colour (resolved)"),
                &ViewDesc::color_2d(1),
            )?);
        }
        let color = locked.image_with_view(&color_desc, &ViewDesc::color_2d(1))?;
        self.color = Some(color);
        if srgb {
            let view = ViewDesc {
                format: vk::Format::R8G8B8A8_SRGB,
                ..ViewDesc::color_2d(1)
            };
            self.srgb_view = Some(locked.manager.create_view(color.0, &view)?);
        }
        let Some(depth_format) = storage.depth else {
            return Ok((color, None));
        };
        let mut depth_desc = ImageDesc::new_2d(
            depth_format,
            width,
            height,
            1,
            vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT
                | vk::ImageUsageFlags::TRANSFER_SRC
                | vk::ImageUsageFlags::TRANSFER_DST,
            Category::RenderTarget,
        )
        .named("EGL surface depth/stencil");
        depth_desc.samples = count;
        let depth = locked.image_with_view(&depth_desc, &depth_view_of(depth_format))?;
        self.depth = Some(depth);
        Ok((color, Some(depth)))
    }

    /// Retires whatever was made (the views go with their images).
    fn retire(self, device: &Arc<Device>) {
        let mut locked = device.lock();
        for (image, _) in [self.color, self.depth, self.resolve].into_iter().flatten() {
            let _ = locked.manager.retire_image(image);
        }
    }
}

impl SurfaceImages {
    /// The render scale in percent (100: full size).
    pub fn scale_percent(&self) -> u32 {
        (u64::from(self.render_width) * 100 / u64::from(self.width.max(1))) as u32
    }
}

impl Drop for SurfaceImages {
    fn drop(&mut self) {
        let mut locked = self.device.lock();
        let _ = locked.manager.retire_image(self.color.0);
        for (image, _) in [self.depth, self.resolve].into_iter().flatten() {
            let _ = locked.manager.retire_image(image);
        }
    }
}

pub(crate) fn depth_view() -> ViewDesc {
    ViewDesc {
        aspect: vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL,
        ..ViewDesc::color_2d(1)
    }
}

/// The whole view of a depth or depth/stencil image of `format`.
fn depth_view_of(format: vk::Format) -> ViewDesc {
    if has_stencil(format) {
        depth_view()
    } else {
        ViewDesc {
            aspect: vk::ImageAspectFlags::DEPTH,
            ..ViewDesc::color_2d(1)
        }
    }
}

/// The Vulkan formats a surface's images are stored in, from its [`SurfaceFormat`] and what
/// the device can render.
#[derive(Debug, Clone, Copy)]
struct SurfaceStorage {
    color: vk::Format,
    srgb: bool,
    depth: Option<vk::Format>,
}

impl SurfaceStorage {
    fn for_format(device: &Arc<Device>, format: &SurfaceFormat) -> Self {
        let supported = |f: vk::Format, usage: vk::ImageUsageFlags| {
            let desc = ImageDesc::new_2d(f, 1, 1, 1, usage, Category::RenderTarget);
            device.lock().manager.supports_image(&desc)
        };
        let rgb565 = vk::Format::R5G6B5_UNORM_PACK16;
        let color =
            if format.color == SurfaceColor::Rgb565 && supported(rgb565, SURFACE_COLOR_USAGE) {
                rgb565
            } else {
                vk::Format::R8G8B8A8_UNORM
            };
        let depth_usage = vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT
            | vk::ImageUsageFlags::TRANSFER_SRC
            | vk::ImageUsageFlags::TRANSFER_DST;
        let depth = match (format.depth_bits, format.stencil_bits) {
            (0, 0) => None,
            (_, 1..) => Some(device.caps().depth_stencil_format),
            (1..=16, 0) => Some(vk::Format::D16_UNORM),
            (17..=24, 0) if supported(vk::Format::X8_D24_UNORM_PACK32, depth_usage) => {
                Some(vk::Format::X8_D24_UNORM_PACK32)
            }
            _ => Some(vk::Format::D32_SFLOAT),
        };
        Self {
            color,
            srgb: format.srgb && color == vk::Format::R8G8B8A8_UNORM,
            depth,
        }
    }
}

/// What a framebuffer attachment point refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Attachment {
    /// A level and layer (cube face, array layer, 3D slice) of a texture; `layered`: every
    /// layer of the level (`glFramebufferTexture` of a 3D, array or cube texture, `layered`),
    /// with `layer` 0.
    Texture {
        name: u32,
        level: u32,
        layer: u32,
        layered: bool,
    },
    Renderbuffer(u32),
}

/// The object an attachment refers to, whatever part of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Attached {
    Texture(u32),
    Renderbuffer(u32),
}

impl Attachment {
    pub(crate) fn object(&self) -> Attached {
        match *self {
            Attachment::Texture { name, .. } => Attached::Texture(name),
            Attachment::Renderbuffer(name) => Attached::Renderbuffer(name),
        }
    }
}

/// A framebuffer object.
#[derive(Debug, Clone)]
pub(crate) struct Framebuffer {
    pub colors: [Option<Attachment>; MAX_COLOR_ATTACHMENTS],
    pub depth: Option<Attachment>,
    pub stencil: Option<Attachment>,
    pub draw_buffers: [GLenum; MAX_COLOR_ATTACHMENTS],
    pub read_buffer: GLenum,
    /// The default geometry of a framebuffer with no attachments (`params`).
    pub defaults: params::Defaults,
}

impl Framebuffer {
    /// Every attachment point: the colour ones, depth, stencil.
    pub(crate) fn points(&self) -> impl Iterator<Item = &Option<Attachment>> {
        self.colors.iter().chain([&self.depth, &self.stencil])
    }

    pub(crate) fn points_mut(&mut self) -> impl Iterator<Item = &mut Option<Attachment>> {
        self.colors
            .iter_mut()
            .chain([&mut self.depth, &mut self.stencil])
    }

    /// Whether any attachment point refers to `object`.
    pub(crate) fn holds(&self, object: Attached) -> bool {
        self.points().flatten().any(|a| a.object() == object)
    }
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
            defaults: params::Defaults::default(),
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
    /// The name the renderbuffer was deleted as, while framebuffers that were not bound keep
    /// it alive (`retained`); it is then filed under a private id no GL call accepts.
    pub deleted_as: Option<u32>,
    /// The image's shared reference once an EGL image holds it too (its source or target,
    /// `texture/egl_image.rs`): the last holder retires it.
    pub shared: Option<ImageRef>,
}

impl Renderbuffer {
    /// Lets go of the storage: retires the image, or drops this holder's reference to a
    /// shared one.
    pub(crate) fn release_storage(&mut self, manager: &mut arenagl_memory::MemoryManager) {
        let storage = self.storage.take();
        match (self.shared.take(), storage) {
            (Some(shared), _) => shared.release(manager),
            (None, Some((image, _))) => {
                let _ = manager.retire_image(image);
            }
            (None, None) => {}
        }
    }

    /// Whether GL calls may reach this renderbuffer by the name it is filed under.
    pub(crate) fn named(&self) -> bool {
        self.deleted_as.is_none()
    }
}

/// The sample counts the device renders every attachment kind with (colour, depth, stencil).
fn framebuffer_sample_counts(device: &Device) -> vk::SampleCountFlags {
    let l = &device.caps().limits;
    l.framebuffer_color_sample_counts
        & l.framebuffer_depth_sample_counts
        & l.framebuffer_stencil_sample_counts
}

/// The largest count in `counts` (1 when empty).
pub(crate) fn highest(counts: vk::SampleCountFlags) -> u32 {
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

/// The internal-format row a renderbuffer's internal format reads from: the stencil index
/// formats that exist only for renderbuffers (`GL_STENCIL_INDEX`, `GL_STENCIL_INDEX1/4/16`)
/// are stored and reported like `GL_STENCIL_INDEX8` (GL lets the implementation pick the
/// stencil depth); every other format is its own row.
pub(crate) fn renderbuffer_row(internal: GLenum) -> GLenum {
    match internal {
        0x1901 | 0x8D46 | 0x8D47 | 0x8D49 => 0x8D48,
        other => other,
    }
}

/// The format a renderbuffer's internal format is stored in: the internal-format table's first
/// candidate the device can render to (`None`: not a renderable internal format here, which
/// `glRenderbufferStorage` reports as `GL_INVALID_ENUM`). Luminance, luminance-alpha and
/// intensity formats are colour-renderable only in the compatibility profile
/// (ARB_framebuffer_object), where `legacy` is true; compressed formats never are.
pub(crate) fn renderbuffer_format(
    device: &Device,
    internal: GLenum,
    legacy: bool,
) -> Option<vk::Format> {
    let info = crate::gl::objects::texture::internal_format::lookup(renderbuffer_row(internal))?;
    let legacy_base = matches!(
        info.base,
        crate::gl::objects::texture::internal_format::Base::Luminance
            | crate::gl::objects::texture::internal_format::Base::LuminanceAlpha
            | crate::gl::objects::texture::internal_format::Base::Intensity
    );
    // Component counts 1-4 and every compressed name (generic or specific) are texture-only.
    let compressed = crate::gl::objects::texture::internal_format::codec(internal).is_some()
        || matches!(internal, 0x84E9..=0x84EE | 0x8225 | 0x8226 | 0x8C48..=0x8C4B);
    if (legacy_base && !legacy) || compressed || !info.renderable() || internal <= 4 {
        return None;
    }
    let locked = device.lock();
    let features = |f: vk::Format| locked.manager.format_features(f);
    match crate::gl::objects::texture::internal_format::choose(
        &info,
        device.caps().depth_stencil_format,
        features,
    ) {
        Some((format, true)) => Some(format),
        _ => None,
    }
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
    /// The size of the images (render area).
    pub width: u32,
    pub height: u32,
    /// The size in GL's window coordinates: the image size, except for a default framebuffer
    /// rendered at a reduced scale (`SurfaceImages::render_width`).
    pub gl_size: (u32, u32),
    /// Indexed by colour attachment (draw buffer) slot; `None` slots are not written.
    pub colors: Vec<Option<Bound>>,
    pub depth_stencil: Option<Bound>,
    /// Samples per pixel of every attachment (completeness makes them agree).
    pub samples: u32,
    /// The layers rendering spans: 1, or those of a layered framebuffer (`layered`), which a
    /// geometry shader's `gl_Layer` selects among and a clear clears all of.
    pub layers: u32,
}

impl Target {
    /// Whether GL coordinates are scaled to reach the images.
    pub(crate) fn is_scaled(&self) -> bool {
        self.gl_size != (self.width, self.height)
    }

    /// The image pixels covering a rectangle in GL window coordinates: every pixel the scaled
    /// rectangle touches (edges rounded outwards), so a scissor never loses a partial pixel.
    pub(crate) fn to_image(
        &self,
        r: crate::gl::context::state::Rect,
    ) -> crate::gl::context::state::Rect {
        if !self.is_scaled() {
            return r;
        }
        let axis = |origin: i32, size: i32, image: u32, gl: u32| {
            let (image, gl) = (i64::from(image), i64::from(gl.max(1)));
            let lo = (i64::from(origin) * image).div_euclid(gl);
            let end = i64::from(origin) + i64::from(size);
            let hi = (end * image + gl - 1).div_euclid(gl);
            let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
            (clamp(lo), clamp(hi - lo))
        };
        let (x, width) = axis(r.x, r.width, self.width, self.gl_size.0);
        let (y, height) = axis(r.y, r.height, self.height, self.gl_size.1);
        crate::gl::context::state::Rect {
            x,
            y,
            width,
            height,
        }
    }

    /// The scale from GL window coordinates to image pixels, per axis (1 unless scaled).
    pub(crate) fn scale(&self) -> (f32, f32) {
        (
            self.width as f32 / self.gl_size.0.max(1) as f32,
            self.height as f32 / self.gl_size.1.max(1) as f32,
        )
    }

    pub(crate) fn has_depth(&self) -> bool {
        self.depth_stencil.is_some()
    }

    pub(crate) fn has_stencil(&self) -> bool {
        self.depth_stencil.is_some_and(|b| has_stencil(b.format))
    }
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
            crate::gl::context::error::invalid_op(format!(
                "colour attachment {} beyond GL_MAX_COLOR_ATTACHMENTS",
                a - GL_COLOR_ATTACHMENT0
            ))
        }
        _ => crate::gl::context::error::invalid_enum("framebuffer attachment", attachment),
    }
}
