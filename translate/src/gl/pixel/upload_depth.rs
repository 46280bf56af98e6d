//! Depth and stencil texels from the client: `glTexImage*`/`glTexSubImage*` with
//! `GL_DEPTH_COMPONENT`, `GL_DEPTH_STENCIL` or `GL_STENCIL_INDEX` data (shadow maps uploaded by
//! the application, packed depth/stencil textures, GL_ARB_texture_stencil8's stencil textures).
//!
//! Design decisions:
//! - The conversion happens here, on the CPU, into the stored format's planes as a buffer copy
//!   lays them out (depth: D16 as 16-bit unorm, X8_D24 / D24S8 as 24-bit unorm in the low bits
//!   of 32, D32 as float; stencil: one byte), which the manager then copies into the image's
//!   depth or stencil aspect (`MemoryManager::upload_image_aspect`) as opaque texels: the
//!   staging crate's tables are colour-only and these planes have only these few encodings.
//!   `GL_DEPTH_STENCIL` data is split into both planes, two copies of the same region.
//! - The unpack state applies as for `glReadPixels` of depth (`readback_depth::layout`: row
//!   length, alignment, skips); each layer of an array follows the previous one's rows.
//! - GL's rules for the values: unsigned depth types are normalized, signed ones are
//!   signed-normalized then clamped to [0, 1] (depth's range), floats are clamped. Stencil
//!   indices are integers masked to the 8 stencil bits (floats truncated first).
//! - Which client formats a texture takes (GL 4.6 §8.4.4, ARB_texture_stencil8): a
//!   `GL_STENCIL_INDEX8` texture only `GL_STENCIL_INDEX`; a depth or depth/stencil one
//!   `GL_DEPTH_COMPONENT` or `GL_DEPTH_STENCIL` (into a depth-only texture the stencil half is
//!   dropped); anything else is `GL_INVALID_OPERATION`, as is a packed depth/stencil type with
//!   another format; `GL_DEPTH_STENCIL` with an unpacked type, or an unknown type, is
//!   `GL_INVALID_ENUM` (Mesa's order).

use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, GlResult};
use crate::gl::objects::texture::internal_format::Base;

/// The planes a client upload writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Planes {
    pub depth: bool,
    pub stencil: bool,
}

/// The planes client `format` data gives a texture of base format `base`, with GL's error for
/// a pair it does not accept; then the type is checked against the format.
pub(crate) fn client_planes(base: Base, format: GLenum, ty: GLenum) -> GlResult<Planes> {
    let planes = match (base, format) {
        (Base::Stencil, GL_STENCIL_INDEX) => Planes {
            depth: false,
            stencil: true,
        },
        (Base::Depth, GL_DEPTH_COMPONENT | GL_DEPTH_STENCIL)
        | (Base::DepthStencil, GL_DEPTH_COMPONENT) => Planes {
            depth: true,
            stencil: false,
        },
        (Base::DepthStencil, GL_DEPTH_STENCIL) => Planes {
            depth: true,
            stencil: true,
        },
        _ => {
            return invalid_op(format!(
                "pixel format 0x{format:04X} into a texture of base format {base:?}"
            ))
        }
    };
    if crate::gl::pixel::readback_depth::pixel_bytes(format, ty).is_none() {
        // A packed type names its format; `GL_DEPTH_STENCIL` takes the packed types only.
        let packed = matches!(ty, GL_UNSIGNED_INT_24_8 | GL_FLOAT_32_UNSIGNED_INT_24_8_REV);
        return if packed {
            invalid_op(format!("type 0x{ty:04X} with format 0x{format:04X}"))
        } else {
            invalid_enum("depth/stencil pixel type", ty)
        };
    }
    Ok(planes)
}

/// A depth value in [0, 1] from one client pixel of type `ty`.
fn client_depth(ty: GLenum, px: &[u8]) -> Option<f64> {
    let snorm = |v: f64, max: f64| (v / max).max(-1.0);
    let b4 = |p: &[u8]| [p[0], p[1], p[2], p[3]];
    let d = match ty {
        GL_UNSIGNED_BYTE => f64::from(px[0]) / 255.0,
        GL_BYTE => snorm(f64::from(px[0] as i8), 127.0),
        GL_UNSIGNED_SHORT => f64::from(u16::from_ne_bytes([px[0], px[1]])) / 65535.0,
        GL_SHORT => snorm(f64::from(i16::from_ne_bytes([px[0], px[1]])), 32767.0),
        GL_UNSIGNED_INT => f64::from(u32::from_ne_bytes(b4(px))) / 4_294_967_295.0,
        GL_INT => snorm(f64::from(i32::from_ne_bytes(b4(px))), 2_147_483_647.0),
        GL_HALF_FLOAT => f64::from(half_to_f32(u16::from_ne_bytes([px[0], px[1]]))),
        GL_FLOAT => f64::from(f32::from_ne_bytes(b4(px))),
        _ => return None,
    };
    Some(if d.is_nan() { 0.0 } else { d.clamp(0.0, 1.0) })
}

/// A stencil index from one client pixel of type `ty`, masked to 8 bits.
fn client_stencil(ty: GLenum, px: &[u8]) -> Option<u8> {
    let b4 = |p: &[u8]| [p[0], p[1], p[2], p[3]];
    let index = |f: f32| if f.is_nan() { 0 } else { f as i64 };
    let v: i64 = match ty {
        GL_UNSIGNED_BYTE | GL_BYTE => i64::from(px[0]),
        GL_UNSIGNED_SHORT | GL_SHORT => i64::from(u16::from_ne_bytes([px[0], px[1]])),
        GL_UNSIGNED_INT | GL_INT => i64::from(u32::from_ne_bytes(b4(px))),
        GL_HALF_FLOAT => index(half_to_f32(u16::from_ne_bytes([px[0], px[1]]))),
        GL_FLOAT => index(f32::from_ne_bytes(b4(px))),
        _ => return None,
    };
    Some((v & 0xFF) as u8)
}

/// One client pixel of a valid `(format, ty)` pair as (depth in [0, 1], stencil index).
fn client_pixel((format, ty): (GLenum, GLenum), px: &[u8]) -> Option<(f64, u8)> {
    let word = |at: usize| {
        px.get(at..at + 4)
            .map(|b| u32::from_ne_bytes([b[0], b[1], b[2], b[3]]))
    };
    match (format, ty) {
        (GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8) => {
            let v = word(0)?;
            Some((f64::from(v >> 8) / 16_777_215.0, (v & 0xFF) as u8))
        }
        (GL_DEPTH_STENCIL, _) => {
            let d = f64::from(f32::from_bits(word(0)?));
            let d = if d.is_nan() { 0.0 } else { d.clamp(0.0, 1.0) };
            Some((d, (word(4)? & 0xFF) as u8))
        }
        (GL_STENCIL_INDEX, _) => Some((0.0, client_stencil(ty, px)?)),
        _ => Some((client_depth(ty, px)?, 0)),
    }
}

/// IEEE half-float bits as a float.
fn half_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1F);
    let mant = f32::from(h & 0x3FF);
    sign * match exp {
        0 => mant * 2f32.powi(-24),
        31 if mant == 0.0 => f32::INFINITY,
        31 => f32::NAN,
        _ => (1.0 + mant / 1024.0) * 2f32.powi(exp - 15),
    }
}

/// Bytes per texel of the depth aspect of `format` as a buffer copy lays it out.
pub(crate) fn depth_texel_bytes(format: vk::Format) -> Option<u8> {
    match format {
        vk::Format::D16_UNORM | vk::Format::D16_UNORM_S8_UINT => Some(2),
        vk::Format::D32_SFLOAT
        | vk::Format::D32_SFLOAT_S8_UINT
        | vk::Format::X8_D24_UNORM_PACK32
        | vk::Format::D24_UNORM_S8_UINT => Some(4),
        _ => None,
    }
}

/// One depth value in `format`'s buffer encoding.
fn encode(format: vk::Format, d: f64, out: &mut Vec<u8>) {
    match format {
        vk::Format::D16_UNORM | vk::Format::D16_UNORM_S8_UINT => {
            out.extend_from_slice(&((d * 65535.0).round() as u16).to_ne_bytes())
        }
        vk::Format::D32_SFLOAT | vk::Format::D32_SFLOAT_S8_UINT => {
            out.extend_from_slice(&(d as f32).to_ne_bytes())
        }
        _ => out.extend_from_slice(&((d * 16_777_215.0).round() as u32).to_ne_bytes()),
    }
}

/// The converted planes of one upload, tightly packed: depth texels in the stored format's
/// encoding (empty when the upload writes no depth) and stencil bytes (empty likewise).
#[derive(Debug, Default)]
pub(crate) struct PlaneTexels {
    pub depth: Vec<u8>,
    pub stencil: Vec<u8>,
}

/// The `w × h × layers` client pixels of `(format, ty)` in `src` (laid out per `unpack`) as
/// the `planes` of `storage`.
pub(crate) fn plane_texels(
    src: &[u8],
    unpack: &arenagl_staging::PixelStore,
    [w, h, layers]: [u32; 3],
    (format, ty): (GLenum, GLenum),
    (storage, planes): (vk::Format, Planes),
) -> GlResult<PlaneTexels> {
    let texel = depth_texel_bytes(storage);
    if planes.depth && texel.is_none() {
        return invalid_op(format!("depth upload into {storage:?}"));
    }
    let Some(pixel) = crate::gl::pixel::readback_depth::pixel_bytes(format, ty) else {
        return invalid_op(format!("type 0x{ty:04X} with format 0x{format:04X}"));
    };
    let (w, rows) = (w as usize, h as usize * layers as usize);
    let Some((stride, needed)) = crate::gl::pixel::readback_depth::layout(unpack, w, rows, pixel)
    else {
        return invalid_op("depth/stencil upload too large");
    };
    if src.len() < needed {
        return invalid_op(format!(
            "{} bytes of client depth/stencil for {needed} needed",
            src.len()
        ));
    }
    let mut out = PlaneTexels::default();
    let depth_bytes = usize::from(texel.unwrap_or(0));
    out.depth.reserve(if planes.depth {
        w * rows * depth_bytes
    } else {
        0
    });
    out.stencil
        .reserve(if planes.stencil { w * rows } else { 0 });
    for row in 0..rows {
        let start =
            (unpack.skip_rows as usize + row) * stride + unpack.skip_pixels as usize * pixel;
        for x in 0..w {
            let at = start + x * pixel;
            let (d, s) = src
                .get(at..at + pixel)
                .and_then(|px| client_pixel((format, ty), px))
                .unwrap_or((0.0, 0));
            if planes.depth {
                encode(storage, d, &mut out.depth);
            }
            if planes.stencil {
                out.stencil.push(s);
            }
        }
    }
    Ok(out)
}

/// Uploads client depth/stencil pixels (`format`/`ty` laid out per `unpack`) into `region` of
/// `image`, stored as `storage` for a GL format of base `base`: each plane the data gives goes
/// into its own aspect.
pub(crate) fn upload(
    manager: &mut arenagl_memory::MemoryManager,
    (image, storage, base): (arenagl_memory::ImageHandle, vk::Format, Base),
    region: &arenagl_memory::ImageRegion,
    data: &[u8],
    unpack: &arenagl_staging::PixelStore,
    (format, ty): (GLenum, GLenum),
) -> GlResult<()> {
    let planes = client_planes(base, format, ty)?;
    let layers = region.extent.depth.max(region.layer_count);
    let size = [region.extent.width, region.extent.height, layers];
    let texels = plane_texels(data, unpack, size, (format, ty), (storage, planes))?;
    let tight = arenagl_staging::PixelStore {
        alignment: arenagl_staging::PixelAlignment::One,
        ..Default::default()
    };
    let mut write = |aspect: vk::ImageAspectFlags, bytes: &[u8], texel: u8| {
        manager.upload_image_aspect(
            (image, Some(aspect)),
            region,
            bytes,
            &tight,
            arenagl_staging::ClientFormat::Texels(texel),
        )
    };
    if planes.depth {
        let texel = depth_texel_bytes(storage).unwrap_or(4);
        write(vk::ImageAspectFlags::DEPTH, &texels.depth, texel)?;
    }
    if planes.stencil {
        write(vk::ImageAspectFlags::STENCIL, &texels.stencil, 1)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEPTH: Planes = Planes {
        depth: true,
        stencil: false,
    };

    fn depth_texels(
        src: &[u8],
        store: &arenagl_staging::PixelStore,
        size: [u32; 3],
        ty: GLenum,
        format: vk::Format,
    ) -> GlResult<(Vec<u8>, u8)> {
        let t = plane_texels(src, store, size, (GL_DEPTH_COMPONENT, ty), (format, DEPTH))?;
        Ok((t.depth, depth_texel_bytes(format).unwrap()))
    }

    #[test]
    fn client_depth_converts_to_each_stored_encoding() {
        let store = arenagl_staging::PixelStore::default();
        let floats: Vec<u8> = [0.0f32, 0.5, 1.0, 2.0]
            .iter()
            .flat_map(|v| v.to_ne_bytes())
            .collect();
        let (d16, n) =
            depth_texels(&floats, &store, [4, 1, 1], GL_FLOAT, vk::Format::D16_UNORM).unwrap();
        assert_eq!(n, 2);
        let v: Vec<u16> = d16
            .chunks(2)
            .map(|c| u16::from_ne_bytes([c[0], c[1]]))
            .collect();
        assert_eq!(v, [0, 32768, 65535, 65535]);
        let (d24, _) = depth_texels(
            &floats,
            &store,
            [4, 1, 1],
            GL_FLOAT,
            vk::Format::D24_UNORM_S8_UINT,
        )
        .unwrap();
        assert_eq!(
            u32::from_ne_bytes([d24[4], d24[5], d24[6], d24[7]]),
            8_388_608
        );
        // Unsigned shorts, two rows of one pixel each with the default alignment of 4.
        let shorts = [0xFF, 0xFF, 0, 0, 0, 0, 0, 0];
        let (d32, _) = depth_texels(
            &shorts,
            &store,
            [1, 2, 1],
            GL_UNSIGNED_SHORT,
            vk::Format::D32_SFLOAT,
        )
        .unwrap();
        let v: Vec<f32> = d32
            .chunks(4)
            .map(|c| f32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(v, [1.0, 0.0]);
        assert!(depth_texels(
            &shorts,
            &store,
            [4, 4, 1],
            GL_UNSIGNED_SHORT,
            vk::Format::D32_SFLOAT
        )
        .is_err());
    }

    #[test]
    fn stencil_and_packed_pixels_split_into_planes() {
        let store = arenagl_staging::PixelStore {
            alignment: arenagl_staging::PixelAlignment::One,
            ..Default::default()
        };
        let both = Planes {
            depth: true,
            stencil: true,
        };
        // GL_UNSIGNED_INT_24_8: depth 0.5 in the high 24 bits, stencil 0xA5 in the low 8.
        let packed = ((0x80_0000u32 << 8) | 0xA5).to_ne_bytes();
        let t = plane_texels(
            &packed,
            &store,
            [1, 1, 1],
            (GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8),
            (vk::Format::D24_UNORM_S8_UINT, both),
        )
        .unwrap();
        assert_eq!(t.depth, 0x80_0000u32.to_ne_bytes());
        assert_eq!(t.stencil, [0xA5]);
        // Stencil indices of wider types are masked to 8 bits; floats truncate.
        let stencil = Planes {
            depth: false,
            stencil: true,
        };
        let ints: Vec<u8> = [0x1FFu32, 7].iter().flat_map(|v| v.to_ne_bytes()).collect();
        let t = plane_texels(
            &ints,
            &store,
            [2, 1, 1],
            (GL_STENCIL_INDEX, GL_UNSIGNED_INT),
            (vk::Format::D24_UNORM_S8_UINT, stencil),
        )
        .unwrap();
        assert_eq!((t.depth.len(), t.stencil), (0, vec![0xFF, 7]));
        let floats = 3.75f32.to_ne_bytes();
        let t = plane_texels(
            &floats,
            &store,
            [1, 1, 1],
            (GL_STENCIL_INDEX, GL_FLOAT),
            (vk::Format::D32_SFLOAT_S8_UINT, stencil),
        )
        .unwrap();
        assert_eq!(t.stencil, [3]);
        assert_eq!(half_to_f32(0x3C00), 1.0);
        assert_eq!(half_to_f32(0x3800), 0.5);
    }

    #[test]
    fn formats_and_types_follow_the_base_format() {
        let op = |r: GlResult<Planes>| {
            matches!(
                r,
                Err(crate::gl::context::error::GlError::InvalidOperation(_))
            )
        };
        assert!(client_planes(Base::Stencil, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE).is_ok());
        assert!(op(client_planes(
            Base::Stencil,
            GL_DEPTH_COMPONENT,
            GL_UNSIGNED_BYTE
        )));
        assert!(op(client_planes(
            Base::DepthStencil,
            GL_STENCIL_INDEX,
            GL_UNSIGNED_BYTE
        )));
        assert!(op(client_planes(
            Base::Stencil,
            GL_STENCIL_INDEX,
            GL_UNSIGNED_INT_24_8
        )));
        assert!(matches!(
            client_planes(Base::DepthStencil, GL_DEPTH_STENCIL, GL_FLOAT),
            Err(crate::gl::context::error::GlError::InvalidEnum(..))
        ));
        assert!(matches!(
            client_planes(Base::Stencil, GL_STENCIL_INDEX, 0x1234),
            Err(crate::gl::context::error::GlError::InvalidEnum(..))
        ));
        assert_eq!(
            client_planes(
                Base::DepthStencil,
                GL_DEPTH_STENCIL,
                GL_FLOAT_32_UNSIGNED_INT_24_8_REV
            )
            .unwrap(),
            Planes {
                depth: true,
                stencil: true
            }
        );
    }
}
