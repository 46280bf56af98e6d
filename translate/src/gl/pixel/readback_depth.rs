//! `glReadPixels` of `GL_DEPTH_COMPONENT`, `GL_STENCIL_INDEX` and `GL_DEPTH_STENCIL`: the read
//! framebuffer's depth/stencil planes read back through the manager
//! (`MemoryManager::read_image_plane`) and converted to the requested type under the pack state
//! (alignment, row length, skips), as GL 3.3 §4.3.2 specifies: depth to normalized integers or
//! float, stencil as integers, `GL_UNSIGNED_INT_24_8` / `GL_FLOAT_32_UNSIGNED_INT_24_8_REV` packed.

use arenagl_memory::ImageRegion;
use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, GlError, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::framebuffer::Bound;

/// Whether `format` is one of the depth/stencil pixel formats.
pub(crate) fn is_depth_stencil_format(format: GLenum) -> bool {
    matches!(
        format,
        GL_DEPTH_COMPONENT | GL_STENCIL_INDEX | GL_DEPTH_STENCIL
    )
}

/// Bytes per pixel of a depth/stencil `format`/`ty` pair (None: not a valid pair).
pub(crate) fn pixel_bytes(format: GLenum, ty: GLenum) -> Option<usize> {
    match (format, ty) {
        (GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8) => Some(4),
        (GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV) => Some(8),
        (GL_DEPTH_STENCIL, _) => None,
        (GL_DEPTH_COMPONENT | GL_STENCIL_INDEX, GL_UNSIGNED_BYTE | GL_BYTE) => Some(1),
        (GL_DEPTH_COMPONENT | GL_STENCIL_INDEX, GL_UNSIGNED_SHORT | GL_SHORT | GL_HALF_FLOAT) => {
            Some(2)
        }
        (GL_DEPTH_COMPONENT | GL_STENCIL_INDEX, GL_UNSIGNED_INT | GL_INT | GL_FLOAT) => Some(4),
        _ => None,
    }
}

/// (row stride, bytes the client buffer needs) for `w × h` pixels of `pixel` bytes.
pub(crate) fn layout(
    pack: &arenagl_staging::PixelStore,
    w: usize,
    h: usize,
    pixel: usize,
) -> Option<(usize, usize)> {
    let row_pixels = if pack.row_length == 0 {
        w
    } else {
        pack.row_length as usize
    };
    let align = pack.alignment.bytes() as usize;
    let stride = row_pixels
        .checked_mul(pixel)?
        .div_ceil(align)
        .checked_mul(align)?;
    if w == 0 || h == 0 {
        return Some((stride, 0));
    }
    let rows = (pack.skip_rows as usize + h - 1).checked_mul(stride)?;
    let last = (pack.skip_pixels as usize)
        .checked_add(w)?
        .checked_mul(pixel)?;
    Some((stride, rows.checked_add(last)?))
}

/// Depth texels of a Vulkan plane as values in [0, 1].
pub(crate) fn depth_values(format: vk::Format, raw: &[u8]) -> Vec<f64> {
    match format {
        vk::Format::D16_UNORM | vk::Format::D16_UNORM_S8_UINT => raw
            .chunks_exact(2)
            .map(|c| f64::from(u16::from_ne_bytes([c[0], c[1]])) / 65535.0)
            .collect(),
        vk::Format::D32_SFLOAT | vk::Format::D32_SFLOAT_S8_UINT => raw
            .chunks_exact(4)
            .map(|c| f64::from(f32::from_ne_bytes([c[0], c[1], c[2], c[3]])).clamp(0.0, 1.0))
            .collect(),
        _ => raw
            .chunks_exact(4)
            .map(|c| {
                f64::from(u32::from_ne_bytes([c[0], c[1], c[2], c[3]]) & 0xFF_FFFF) / 16_777_215.0
            })
            .collect(),
    }
}

/// A depth value as GL's `ty` stores it.
fn depth_as(ty: GLenum, d: f64, out: &mut [u8]) {
    let unorm = |max: f64| (d * max).round();
    match ty {
        GL_UNSIGNED_BYTE => out[0] = unorm(255.0) as u8,
        GL_BYTE => out[0] = unorm(127.0) as i8 as u8,
        GL_UNSIGNED_SHORT => out.copy_from_slice(&(unorm(65535.0) as u16).to_ne_bytes()),
        GL_SHORT => out.copy_from_slice(&(unorm(32767.0) as i16).to_ne_bytes()),
        GL_UNSIGNED_INT => out.copy_from_slice(&(unorm(4_294_967_295.0) as u32).to_ne_bytes()),
        GL_INT => out.copy_from_slice(&(unorm(2_147_483_647.0) as i32).to_ne_bytes()),
        GL_HALF_FLOAT => out.copy_from_slice(&f16_bits(d as f32).to_ne_bytes()),
        _ => out.copy_from_slice(&(d as f32).to_ne_bytes()),
    }
}

/// A stencil value as GL's `ty` stores it.
fn stencil_as(ty: GLenum, s: u8, out: &mut [u8]) {
    match ty {
        GL_UNSIGNED_BYTE | GL_BYTE => out[0] = s,
        GL_UNSIGNED_SHORT | GL_SHORT => out.copy_from_slice(&u16::from(s).to_ne_bytes()),
        GL_UNSIGNED_INT | GL_INT => out.copy_from_slice(&u32::from(s).to_ne_bytes()),
        GL_HALF_FLOAT => out.copy_from_slice(&f16_bits(f32::from(s)).to_ne_bytes()),
        _ => out.copy_from_slice(&f32::from(s).to_ne_bytes()),
    }
}

impl Context {
    /// `glReadPixels` of a depth/stencil `format` into `out`, sized by
    /// [`Context::client_image_bytes`]; `(x, y, w, h)` already clipped to `rect`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn read_depth_stencil(
        &mut self,
        (x, y): (i32, i32),
        rect: vk::Rect2D,
        format: GLenum,
        ty: GLenum,
        out: &mut [u8],
    ) -> GlResult<()> {
        let Some(pixel) = pixel_bytes(format, ty) else {
            return match format {
                GL_DEPTH_STENCIL if is_known_type(ty) => invalid_op(format!(
                    "glReadPixels of GL_DEPTH_STENCIL as 0x{ty:04X} (packed types only)"
                )),
                _ => invalid_enum("glReadPixels depth/stencil type", ty),
            };
        };
        let fb = self.read_framebuffer;
        let target = self.resolve_framebuffer(fb, false).map_err(|status| {
            GlError::InvalidFramebuffer(format!(
                "the read framebuffer is not complete (status 0x{status:04X})"
            ))
        })?;
        let Some(ds) = target.depth_stencil else {
            return invalid_op("glReadPixels of depth/stencil with no depth/stencil buffer");
        };
        let aspects = arenagl_memory::format_aspects(ds.format);
        let want_depth = format != GL_STENCIL_INDEX;
        let want_stencil = format != GL_DEPTH_COMPONENT;
        if (want_depth && !aspects.contains(vk::ImageAspectFlags::DEPTH))
            || (want_stencil && !aspects.contains(vk::ImageAspectFlags::STENCIL))
        {
            return invalid_op("glReadPixels: the read framebuffer lacks that buffer");
        }
        let (w, h) = (rect.extent.width as usize, rect.extent.height as usize);
        let (stride, _) = layout(&self.pack, w, h, pixel)
            .ok_or_else(|| GlError::InvalidValue("glReadPixels size overflows".into()))?;
        self.end_pass();
        // A multisampled default framebuffer (the only multisampled one reads reach) is read
        // as sample 0 of each pixel, resolved into a temporary first.
        let temporary = if ds.samples > 1 {
            Some(self.resolve_depth_stencil_to_temporary(ds, target.width, target.height)?)
        } else {
            None
        };
        let ds = match temporary {
            Some(image) => Bound {
                image,
                samples: 1,
                level: 0,
                layer: 0,
                ..ds
            },
            None => ds,
        };
        // The attached level and layer (array layer, cube face: depth textures are not 3D).
        let mut region = ImageRegion::rect(
            ds.level,
            rect.offset.x,
            rect.offset.y,
            rect.extent.width,
            rect.extent.height,
        );
        region.base_layer = ds.layer;
        let device = self.device.clone();
        let (depth, stencil) = {
            let mut locked = device.lock();
            let mut plane = |wanted: bool, aspect| {
                if wanted {
                    locked.manager.read_image_plane(ds.image, &region, aspect)
                } else {
                    Ok(Vec::new())
                }
            };
            let depth = plane(want_depth, vk::ImageAspectFlags::DEPTH);
            let stencil = plane(want_stencil, vk::ImageAspectFlags::STENCIL);
            if let Some(image) = temporary {
                let _ = locked.manager.retire_image(image);
            }
            (depth_values(ds.format, &depth?), stencil?)
        };
        // Pixels clipped away at the left/bottom shift where the first one lands.
        let skip_x = self.pack.skip_pixels as usize + (rect.offset.x - x) as usize;
        let skip_y = self.pack.skip_rows as usize + (rect.offset.y - y) as usize;
        for row in 0..h {
            for col in 0..w {
                let i = row * w + col;
                let at = (skip_y + row) * stride + (skip_x + col) * pixel;
                let Some(dst) = out.get_mut(at..at + pixel) else {
                    continue;
                };
                let d = depth.get(i).copied().unwrap_or(0.0);
                let s = stencil.get(i).copied().unwrap_or(0);
                encode_pixel((format, ty), d, s, dst);
            }
        }
        Ok(())
    }
}

/// One depth/stencil pixel of a valid `(format, ty)` pair ([`pixel_bytes`] long) from a depth
/// in [0, 1] and a stencil value (`glReadPixels`, and `glGetTexImage` of depth textures).
pub(crate) fn encode_pixel((format, ty): (GLenum, GLenum), d: f64, s: u8, dst: &mut [u8]) {
    match (format, ty) {
        (GL_DEPTH_COMPONENT, _) => depth_as(ty, d, dst),
        (GL_STENCIL_INDEX, _) => stencil_as(ty, s, dst),
        (_, GL_UNSIGNED_INT_24_8) => {
            let d = (d * 16_777_215.0).round() as u32;
            dst.copy_from_slice(&((d << 8) | u32::from(s)).to_ne_bytes());
        }
        _ => {
            dst[..4].copy_from_slice(&(d as f32).to_ne_bytes());
            dst[4..].copy_from_slice(&u32::from(s).to_ne_bytes());
        }
    }
}

/// `v` as IEEE half-float bits (rounded to nearest; overflow to infinity, tiny values to zero).
fn f16_bits(v: f32) -> u16 {
    let b = v.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xFF) as i32 - 127 + 15;
    let mant = b & 0x7F_FFFF;
    if v.is_nan() {
        return sign | 0x7E00;
    }
    if exp >= 31 {
        return sign | 0x7C00;
    }
    if exp <= 0 {
        if exp < -10 {
            return sign;
        }
        let m = (mant | 0x80_0000) >> (14 - exp);
        return sign | m as u16;
    }
    // Round the 13 dropped bits to nearest; a carry rolls into the exponent, as it should.
    let bits = ((exp as u32) << 10 | (mant >> 13)) + ((mant >> 12) & 1);
    sign | bits.min(0x7C00) as u16
}

fn is_known_type(ty: GLenum) -> bool {
    matches!(
        ty,
        GL_UNSIGNED_BYTE
            | GL_BYTE
            | GL_UNSIGNED_SHORT
            | GL_SHORT
            | GL_UNSIGNED_INT
            | GL_INT
            | GL_FLOAT
            | GL_HALF_FLOAT
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_follow_the_gl_rules() {
        let mut b = [0u8; 4];
        depth_as(GL_UNSIGNED_INT, 1.0, &mut b);
        assert_eq!(u32::from_ne_bytes(b), u32::MAX);
        depth_as(GL_FLOAT, 0.25, &mut b);
        assert_eq!(f32::from_ne_bytes(b), 0.25);
        let mut s = [0u8; 2];
        depth_as(GL_UNSIGNED_SHORT, 0.5, &mut s);
        assert_eq!(u16::from_ne_bytes(s), 32768);
        stencil_as(GL_UNSIGNED_SHORT, 0x33, &mut s);
        assert_eq!(u16::from_ne_bytes(s), 0x33);
        let d24: Vec<u8> = (0x80_0000u32 | 0xAB00_0000).to_ne_bytes().to_vec();
        let v = depth_values(vk::Format::D24_UNORM_S8_UINT, &d24)[0];
        assert!((v - 0.5).abs() < 1e-6, "stencil bits ignored: {v}");
        assert_eq!(pixel_bytes(GL_DEPTH_STENCIL, GL_FLOAT), None);
        assert_eq!(f16_bits(1.0), 0x3C00);
        assert_eq!(f16_bits(0.5), 0x3800);
        assert_eq!(f16_bits(255.0), 0x5BF8);
        assert_eq!(f16_bits(0.0), 0);
        assert_eq!(
            pixel_bytes(GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV),
            Some(8)
        );
    }

    #[test]
    fn the_layout_honours_alignment_row_length_and_skips() {
        let pack = arenagl_staging::PixelStore {
            row_length: 10,
            skip_pixels: 2,
            skip_rows: 1,
            ..Default::default()
        };
        // 10 pixels of 1 byte, aligned to 4: stride 12; 1 skipped row + (2 + 3) bytes.
        assert_eq!(layout(&pack, 3, 2, 1), Some((12, 12 * 2 + 5)));
    }
}
