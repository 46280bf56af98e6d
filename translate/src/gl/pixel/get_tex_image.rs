//! `glGetTexImage`: one whole level (one face of a cube map; every layer of an array; every
//! slice of a 3D texture) read back under the pack state, into client memory or the pixel pack
//! buffer.
//!
//! Design decisions:
//! - Colour levels are read as raw texels of the storage format and converted with staging's
//!   general path (`pack_from_texels`), the same conversions `glReadPixels` uses. Between the
//!   two, each texel is given the GL base format's meaning (GL 4.6 table 8.18 / 2.1 table 6.1):
//!   components the GL format lacks read as 0 (alpha as 1), whatever the wider storage holds
//!   (an RGB texture stored as RGBA, an alpha texture stored in R8, a luminance texture's L is
//!   R only). So a copy into an RGB texture never leaks the framebuffer's alpha.
//! - Depth, stencil and depth/stencil levels are read plane by plane
//!   (`MemoryManager::read_image_plane`) and encoded like `glReadPixels` does (`readback_depth`).
//! - An undefined level, or no texture, writes nothing and is no error (GL's "no image").
//! - With a buffer bound to `GL_PIXEL_PACK_BUFFER` the pointer is an offset into it, checked and
//!   written back by `pixel_buffer` (GL's range, alignment and mapping errors).

use arenagl_memory::ImageRegion;
use arenagl_staging::{ClientFormat, ClientPixel, PixelStore, Region, TexelFormat, TexelKind};
use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlError, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::texture::internal_format::{Base, FormatInfo};
use crate::gl::objects::texture::target::TexTarget;
use crate::gl::pixel::readback_depth::{is_depth_stencil_format, pixel_bytes};

/// Where a pack operation writes.
pub enum PackDest<'a> {
    /// Client memory, sized by [`Context::get_tex_image_bytes`].
    Client(&'a mut [u8]),
    /// The buffer bound to `GL_PIXEL_PACK_BUFFER`, at this byte offset.
    Buffer(u64),
}

/// The level (or, for `glGetTextureSubImage`, the box of one) a `glGetTexImage` reads,
/// resolved and validated.
pub(super) struct Level {
    pub image: arenagl_memory::ImageHandle,
    pub format: vk::Format,
    pub info: FormatInfo,
    pub target: TexTarget,
    pub region: ImageRegion,
    /// GL width, height and depth (layers of an array, slices of a 3D texture).
    pub size: [u32; 3],
}

/// What a client pixel of `(format, ty)` is: colour (with its staging description) or a
/// depth/stencil pixel of this many bytes. GL's enum/operation errors for bad pairs.
pub(super) enum Pixel {
    Color(ClientPixel),
    DepthStencil(usize),
}

pub(super) fn classify(format: GLenum, ty: GLenum) -> GlResult<Pixel> {
    if is_depth_stencil_format(format) {
        return match pixel_bytes(format, ty) {
            Some(n) => Ok(Pixel::DepthStencil(n)),
            None if format == GL_DEPTH_STENCIL && ClientPixel::from_gl(GL_RGBA, ty).is_ok() => {
                invalid_op(format!(
                    "GL_DEPTH_STENCIL with type 0x{ty:04X} (packed types only)"
                ))
            }
            None => invalid_enum("glGetTexImage depth/stencil type", ty),
        };
    }
    Ok(Pixel::Color(
        crate::gl::objects::texture::api::client_pixel_for(format, ty)?,
    ))
}

/// The client region of a level: a 3D box for 3D textures and 2D arrays, rows for the rest (a
/// 1D array's layers are the rows of a 2D image).
fn client_region(target: TexTarget, size: [u32; 3]) -> Region {
    match target {
        TexTarget::D3 | TexTarget::D2Array | TexTarget::CubeArray => {
            Region::d3(size[0], size[1], size[2])
        }
        _ => Region::d2(size[0], size[1]),
    }
}

/// The GL meaning of a texel decoded from storage of base format `base` read through
/// `swizzle` (the format swizzle over the storage): missing components 0, missing alpha 1,
/// luminance and intensity in red only.
fn gl_components(base: Base, swizzle: [GLenum; 4], v: [f64; 4]) -> [f64; 4] {
    let pick = |source: GLenum| match source {
        GL_RED => v[0],
        GL_GREEN => v[1],
        GL_BLUE => v[2],
        GL_ALPHA => v[3],
        GL_ZERO => 0.0,
        _ => 1.0,
    };
    let mut out = swizzle.map(pick);
    match base {
        Base::Luminance | Base::LuminanceAlpha => {
            out[1] = 0.0;
            out[2] = 0.0;
        }
        Base::Intensity => out = [out[0], 0.0, 0.0, 1.0],
        _ => {}
    }
    out
}

/// The client format that reads `format`'s texels unchanged.
pub(crate) fn raw_client(format: vk::Format, texel: TexelFormat) -> ClientFormat {
    match format {
        vk::Format::R8_UNORM => ClientFormat::Red,
        vk::Format::R8G8_UNORM => ClientFormat::Rg,
        vk::Format::R8G8B8A8_UNORM | vk::Format::R8G8B8A8_SRGB => ClientFormat::Rgba,
        vk::Format::B8G8R8A8_UNORM | vk::Format::B8G8R8A8_SRGB => ClientFormat::Bgra,
        _ => ClientFormat::Texels(texel.texel_bytes() as u8),
    }
}

impl Context {
    /// The bytes `glGetTexImage` writes into client memory (0 when it writes nothing or the
    /// call is an error, which [`Context::get_tex_image`] then reports).
    pub fn get_tex_image_bytes(
        &mut self,
        target: GLenum,
        level: i32,
        format: GLenum,
        ty: GLenum,
    ) -> usize {
        let Ok(Some(l)) = self.tex_image_level(target, level) else {
            return 0;
        };
        let pack = crate::gl::objects::texture::api::unpack_for(l.target, &self.pack);
        match classify(format, ty) {
            Ok(Pixel::Color(pair)) => pair
                .layout(&pack, client_region(l.target, l.size))
                .ok()
                .and_then(|layout| usize::try_from(layout.required_bytes()).ok())
                .unwrap_or(0),
            Ok(Pixel::DepthStencil(pixel)) => depth_layout(&pack, l.size, pixel).map_or(0, |v| v.1),
            Err(_) => 0,
        }
    }

    /// `glGetTexImage`.
    pub fn get_tex_image(
        &mut self,
        target: GLenum,
        level: i32,
        (format, ty): (GLenum, GLenum),
        dest: PackDest<'_>,
    ) {
        let r = self.get_tex_image_inner(target, level, (format, ty), dest);
        self.record(r);
        self.rewind_idle_staging();
    }

    /// The level `target`/`level` names on the bound texture: `None` when there is no image
    /// (no texture, no storage, an undefined level). GL's target and level errors.
    fn tex_image_level(&mut self, target: GLenum, level: i32) -> GlResult<Option<Level>> {
        let Some((tt, face)) = TexTarget::from_image(target) else {
            return invalid_enum("glGetTexImage target", target);
        };
        let (_, max_levels) =
            crate::gl::objects::texture::api::limits_of(tt, &self.device.caps().limits);
        if level < 0 || level as u32 >= max_levels {
            return invalid_value(format!("glGetTexImage level {level}"));
        }
        let level = level as u32;
        let name = self.bound_texture_name(tt);
        if name == 0 && self.profile != crate::gl::context::Profile::Compatibility {
            return Ok(None);
        }
        let t = self.bound_texture(tt)?;
        let Some(s) = t.storage.as_ref() else {
            return Ok(None);
        };
        if !s.face_level_defined(face, level) {
            return Ok(None);
        }
        let size = s.level_size(level);
        let region = crate::gl::objects::texture::api::image_region(tt, face, level, [0; 3], size);
        // A texture view's levels and layers lie at its origin in the shared image.
        let region = s.vk_region(&region);
        Ok(Some(Level {
            image: s.image,
            format: s.format,
            info: s.info,
            target: tt,
            region,
            size,
        }))
    }

    fn get_tex_image_inner(
        &mut self,
        target: GLenum,
        level: i32,
        (format, ty): (GLenum, GLenum),
        dest: PackDest<'_>,
    ) -> GlResult<()> {
        let found = self.tex_image_level(target, level)?;
        let pixel = classify(format, ty)?;
        let Some(l) = found else {
            return Ok(());
        };
        self.pack_level(l, (format, ty), pixel, dest)
    }

    /// Packs the texels of `l` as `(format, ty)` (classified as `pixel`) into `dest` under
    /// the pack state, after GL's format-kind and destination-size checks.
    pub(super) fn pack_level(
        &mut self,
        l: Level,
        (format, ty): (GLenum, GLenum),
        pixel: Pixel,
        dest: PackDest<'_>,
    ) -> GlResult<()> {
        let pack = crate::gl::objects::texture::api::unpack_for(l.target, &self.pack);
        let bytes = match &pixel {
            Pixel::Color(pair) => {
                if l.info.is_depth_stencil() {
                    return invalid_op("glGetTexImage of a colour format from a depth texture");
                }
                if pair.is_integer() != l.info.comp.is_integer() {
                    return invalid_op(format!(
                        "glGetTexImage format 0x{format:04X} and the texture disagree on integer-ness"
                    ));
                }
                pair.layout(&pack, client_region(l.target, l.size))
                    .ok()
                    .and_then(|layout| usize::try_from(layout.required_bytes()).ok())
                    .ok_or_else(|| GlError::InvalidValue("the client image overflows".into()))?
            }
            Pixel::DepthStencil(n) => {
                let ok = matches!(
                    (format, l.info.base),
                    (GL_DEPTH_COMPONENT, Base::Depth | Base::DepthStencil)
                        | (GL_STENCIL_INDEX, Base::Stencil | Base::DepthStencil)
                        | (GL_DEPTH_STENCIL, Base::DepthStencil)
                );
                if !ok {
                    return invalid_op(format!(
                        "glGetTexImage format 0x{format:04X} does not match the texture's format"
                    ));
                }
                depth_layout(&pack, l.size, *n)
                    .ok_or_else(|| GlError::InvalidValue("the client image overflows".into()))?
                    .1
            }
        };
        let fill = |this: &mut Self, out: &mut [u8]| -> GlResult<()> {
            this.end_pass();
            match pixel {
                Pixel::Color(pair) => this.read_color_level(&l, &pack, pair, out),
                Pixel::DepthStencil(n) => this.read_depth_level(&l, &pack, (format, ty), n, out),
            }
        };
        match dest {
            PackDest::Client(out) => {
                if out.len() < bytes {
                    return invalid_op("glGetTexImage into client memory shorter than the image");
                }
                fill(self, out)
            }
            PackDest::Buffer(offset) => {
                // The pack checks and the write-back are `pixel_buffer`'s; their errors are
                // recorded there.
                self.pack_into_buffer("glGetTexImage", (offset, bytes, ty), |this, out| {
                    let r = fill(this, out);
                    this.record(r);
                });
                Ok(())
            }
        }
    }

    /// The colour texels of `l` into `out` as `pair` per `pack`.
    fn read_color_level(
        &mut self,
        l: &Level,
        pack: &PixelStore,
        pair: ClientPixel,
        out: &mut [u8],
    ) -> GlResult<()> {
        let [w, h, d] = l.size;
        let count = w as usize * h as usize * d as usize;
        // A level kept as compressed blocks is read as blocks and decoded here.
        if let Some(codec) = crate::gl::objects::texture::native::codec_of(l.format) {
            let raw = self.decode_native_level(l, codec)?;
            return Self::pack_color_texels(l, pack, pair, (codec.decoded_format(), &raw), out);
        }
        let texel = crate::gl::objects::texture::internal_format::texel_format(l.format)
            .ok_or_else(|| {
                GlError::InvalidOperation(format!("glGetTexImage of {:?} storage", l.format))
            })?;
        let bytes = texel.texel_bytes() as usize;
        let mut raw = vec![0u8; count * bytes];
        let tight = PixelStore {
            alignment: arenagl_staging::PixelAlignment::One,
            ..PixelStore::default()
        };
        let device = self.device.clone();
        {
            let mut locked = device.lock();
            crate::gl::context::error::until_done(|| {
                locked.manager.read_image(
                    l.image,
                    &l.region,
                    &tight,
                    raw_client(l.format, texel),
                    &mut raw,
                )
            })?;
            locked.collect(device.raw());
        }
        Self::pack_color_texels(l, pack, pair, (texel, &raw), out)
    }

    /// The texels of `l`, a level kept as `codec`'s blocks, decoded from the blocks the device
    /// holds (slices or layers one after another), tightly packed.
    /// A box off the block grid (`glGetTextureSubImage`) reads the whole blocks around it and
    /// keeps its texels.
    fn decode_native_level(
        &mut self,
        l: &Level,
        codec: arenagl_staging::Codec,
    ) -> GlResult<Vec<u8>> {
        let device = self.device.clone();
        let (blocks, grid) = {
            let mut locked = device.lock();
            let extent = locked.manager.image_info(l.image)?.desc.extent;
            let level = [extent.width, extent.height].map(|v| (v >> l.region.mip_level).max(1));
            let grid = block_grid(&l.region, codec.block_size(), level);
            let blocks = crate::gl::context::error::until_done(|| {
                locked.manager.read_blocks(l.image, &grid)
            })?;
            locked.collect(device.raw());
            (blocks, grid)
        };
        let (gw, gh) = (grid.extent.width, grid.extent.height);
        let d = l.size[2];
        let decoded = arenagl_staging::decompress(codec, &blocks, gw, gh, d)
            .map_err(|e| GlError::InvalidOperation(format!("glGetTexImage blocks: {e}")))?;
        let texel = codec.decoded_format().texel_bytes() as usize;
        let (dx, dy) = (
            (l.region.offset.x - grid.offset.x) as usize,
            (l.region.offset.y - grid.offset.y) as usize,
        );
        let [w, h] = [l.size[0] as usize, l.size[1] as usize];
        let (gw, gh) = (gw as usize, gh as usize);
        let mut out = Vec::with_capacity(w * h * d as usize * texel);
        for z in 0..d as usize {
            for y in 0..h {
                let at = ((z * gh + dy + y) * gw + dx) * texel;
                out.extend_from_slice(decoded.get(at..at + w * texel).unwrap_or(&[]));
            }
        }
        Ok(out)
    }

    /// Packs `raw`, `l`'s tightly packed texels of `texel`, into `out` as `pair` per `pack`,
    /// with GL's meaning of the level's base format.
    fn pack_color_texels(
        l: &Level,
        pack: &PixelStore,
        pair: ClientPixel,
        (texel, raw): (TexelFormat, &[u8]),
        out: &mut [u8],
    ) -> GlResult<()> {
        let count = l.size.iter().map(|&v| v as usize).product::<usize>();
        let bytes = texel.texel_bytes() as usize;
        // Canonical RGBA of 32-bit components: exact for every storage format GL stores.
        let kind = match texel {
            TexelFormat::Array {
                kind: TexelKind::UInt,
                ..
            }
            | TexelFormat::Rgb10A2 { integer: true } => TexelKind::UInt,
            TexelFormat::Array {
                kind: TexelKind::SInt,
                ..
            } => TexelKind::SInt,
            _ => TexelKind::Float,
        };
        let wide = TexelFormat::Array {
            comps: 4,
            bytes: 4,
            kind,
        };
        let swizzle = l.info.swizzle(l.format);
        // A texture read as luminance gives L = R (GL 4.6 table 8.18, "texture image"), where
        // glReadPixels gives R + G + B: the pack step sums, so G and B go first.
        let luminance_is_red = pair.has_luminance();
        let mut canonical = vec![0u8; count * 16];
        for (src, dst) in raw.chunks_exact(bytes).zip(canonical.chunks_exact_mut(16)) {
            let mut v = gl_components(l.info.base, swizzle, texel.decode(src));
            if luminance_is_red {
                (v[1], v[2]) = (0.0, 0.0);
            }
            wide.encode(v, dst);
        }
        arenagl_staging::pack_from_texels(
            &canonical,
            wide,
            pack,
            client_region(l.target, l.size),
            pair,
            out,
        )
        .map_err(|e| GlError::InvalidOperation(format!("glGetTexImage destination: {e}")))
    }

    /// The depth and/or stencil texels of `l` into `out` as `(format, ty)` (`pixel` bytes
    /// each) per `pack`, one layer or slice at a time.
    fn read_depth_level(
        &mut self,
        l: &Level,
        pack: &PixelStore,
        (format, ty): (GLenum, GLenum),
        pixel: usize,
        out: &mut [u8],
    ) -> GlResult<()> {
        let [w, h, d] = l.size;
        let (rows_w, rows_h, images) = match l.target {
            TexTarget::D1Array => (w, 1, h),
            TexTarget::D2Array | TexTarget::D3 | TexTarget::CubeArray => (w, h, d),
            _ => (w, h, 1),
        };
        let Some((stride, _)) = depth_layout(pack, l.size, pixel) else {
            return invalid_value("glGetTexImage size overflows");
        };
        let image_rows = if pack.image_height > 0 && images > 1 {
            pack.image_height as usize
        } else {
            h as usize
        };
        let device = self.device.clone();
        let want_depth = format != GL_STENCIL_INDEX;
        let want_stencil = format != GL_DEPTH_COMPONENT;
        for image in 0..images {
            let (x, y) = (l.region.offset.x, l.region.offset.y);
            let mut region = ImageRegion::rect(l.region.mip_level, x, y, rows_w, rows_h);
            region.base_layer = l.region.base_layer + image;
            let (depth, stencil) = {
                let mut locked = device.lock();
                let depth = if want_depth {
                    let raw = locked.manager.read_image_plane(
                        l.image,
                        &region,
                        vk::ImageAspectFlags::DEPTH,
                    )?;
                    crate::gl::pixel::readback_depth::depth_values(l.format, &raw)
                } else {
                    Vec::new()
                };
                let stencil = if want_stencil {
                    locked.manager.read_image_plane(
                        l.image,
                        &region,
                        vk::ImageAspectFlags::STENCIL,
                    )?
                } else {
                    Vec::new()
                };
                (depth, stencil)
            };
            // A 1D array's layers are the client image's rows.
            let (first_row, rows) = if l.target == TexTarget::D1Array {
                (image as usize, 1)
            } else {
                ((image as usize) * image_rows, rows_h as usize)
            };
            let base = (pack.skip_images as usize * image_rows + pack.skip_rows as usize) * stride
                + pack.skip_pixels as usize * pixel;
            for row in 0..rows {
                for col in 0..rows_w as usize {
                    let i = row * rows_w as usize + col;
                    let at = base + (first_row + row) * stride + col * pixel;
                    let Some(dst) = out.get_mut(at..at + pixel) else {
                        continue;
                    };
                    let dv = depth.get(i).copied().unwrap_or(0.0);
                    let sv = stencil.get(i).copied().unwrap_or(0);
                    crate::gl::pixel::readback_depth::encode_pixel((format, ty), dv, sv, dst);
                }
            }
        }
        Ok(())
    }
}

/// (row stride, bytes) of a depth/stencil client image of GL size `size` (`pixel` bytes a
/// pixel): images of `GL_PACK_IMAGE_HEIGHT` rows (the height when 0) for layered levels.
fn depth_layout(pack: &PixelStore, size: [u32; 3], pixel: usize) -> Option<(usize, usize)> {
    let (w, h) = (size[0] as usize, size[1] as usize);
    let images = size[2] as usize;
    let (stride, one) = crate::gl::pixel::readback_depth::layout(pack, w, h, pixel)?;
    if images <= 1 || one == 0 {
        return Some((stride, one));
    }
    let image_rows = if pack.image_height > 0 {
        pack.image_height as usize
    } else {
        h
    };
    let before = (pack.skip_images as usize + images - 1)
        .checked_mul(image_rows)?
        .checked_mul(stride)?;
    Some((stride, before.checked_add(one)?))
}

/// `region` widened to the block grid of `block` (texels) on a level of `level` texels: its
/// offset down to a block boundary, its end up to one or to the level's edge.
fn block_grid(region: &ImageRegion, block: [u32; 2], level: [u32; 2]) -> ImageRegion {
    let mut grid = *region;
    let (x0, y0) = (region.offset.x.max(0) as u32, region.offset.y.max(0) as u32);
    let (x1, y1) = (x0 + region.extent.width, y0 + region.extent.height);
    let (gx, gy) = (x0 / block[0] * block[0], y0 / block[1] * block[1]);
    let gx1 = x1.next_multiple_of(block[0]).min(level[0]);
    let gy1 = y1.next_multiple_of(block[1]).min(level[1]);
    grid.offset.x = gx as i32;
    grid.offset.y = gy as i32;
    grid.extent.width = gx1 - gx;
    grid.extent.height = gy1 - gy;
    grid
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texels_take_the_gl_base_formats_meaning() {
        let v = [0.25, 0.5, 0.75, 0.125];
        let rgb = [GL_RED, GL_GREEN, GL_BLUE, 1];
        assert_eq!(gl_components(Base::Rgb, rgb, v), [0.25, 0.5, 0.75, 1.0]);
        let alpha_in_r8 = [0, 0, 0, GL_RED];
        assert_eq!(
            gl_components(Base::Alpha, alpha_in_r8, v),
            [0.0, 0.0, 0.0, 0.25]
        );
        let lum = [GL_RED, GL_RED, GL_RED, 1];
        assert_eq!(
            gl_components(Base::Luminance, lum, v),
            [0.25, 0.0, 0.0, 1.0]
        );
        let int = [GL_RED, GL_RED, GL_RED, GL_RED];
        assert_eq!(
            gl_components(Base::Intensity, int, v),
            [0.25, 0.0, 0.0, 1.0]
        );
    }

    #[test]
    fn layered_depth_layouts_count_whole_images() {
        let pack = PixelStore::default();
        // 3 × 2 × 2 of 4-byte pixels: two images of two 12-byte rows.
        assert_eq!(depth_layout(&pack, [3, 2, 2], 4), Some((12, 48)));
        // A single image is the 2D layout.
        assert_eq!(depth_layout(&pack, [3, 2, 1], 4), Some((12, 24)));
    }
}
