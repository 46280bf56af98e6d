//! Depth texels from the client: `glTexImage*`/`glTexSubImage*` with `GL_DEPTH_COMPONENT`
//! data (shadow maps uploaded by the application, piglit's depth textures).
//!
//! Design decisions:
//! - The conversion happens here, on the CPU, into the stored depth format's texel bytes
//!   (D16 as 16-bit unorm, X8_D24 / D24S8 as 24-bit unorm in the low bits of 32, D32 as float),
//!   which the manager then copies into the image's depth aspect as opaque texels: the staging
//!   crate's tables are colour-only and depth has only these few encodings.
//! - The unpack state applies as for `glReadPixels` of depth (`readback_depth::layout`: row
//!   length, alignment, skips); each layer of an array follows the previous one's rows.
//! - GL's rules for the values: unsigned types are normalized, signed ones are signed-normalized
//!   then clamped to [0, 1] (depth's range), floats are clamped. `GL_DEPTH_STENCIL` data is not
//!   accepted yet (its stencil half would be dropped): `GL_INVALID_OPERATION`, as before.

use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_op, GlResult};

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
        GL_FLOAT => f64::from(f32::from_ne_bytes(b4(px))),
        _ => return None,
    };
    Some(if d.is_nan() { 0.0 } else { d.clamp(0.0, 1.0) })
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

/// The `w × h × layers` client depth pixels of type `ty` in `src` (laid out per `unpack`) as
/// tightly packed texels of `format`, with the bytes per texel.
pub(crate) fn depth_texels(
    src: &[u8],
    unpack: &arenagl_staging::PixelStore,
    [w, h, layers]: [u32; 3],
    ty: GLenum,
    format: vk::Format,
) -> GlResult<(Vec<u8>, u8)> {
    let Some(texel) = depth_texel_bytes(format) else {
        return invalid_op(format!("depth upload into {format:?}"));
    };
    let Some(pixel) = crate::gl::pixel::readback_depth::pixel_bytes(GL_DEPTH_COMPONENT, ty)
        .filter(|_| ty != GL_HALF_FLOAT)
    else {
        return invalid_op(format!(
            "depth texels of type 0x{ty:04X} are not supported by this GL yet"
        ));
    };
    let (w, rows) = (w as usize, h as usize * layers as usize);
    let Some((stride, needed)) = crate::gl::pixel::readback_depth::layout(unpack, w, rows, pixel)
    else {
        return invalid_op("depth upload too large");
    };
    if src.len() < needed {
        return invalid_op(format!(
            "{} bytes of client depth for {needed} needed",
            src.len()
        ));
    }
    let mut out = Vec::with_capacity(w * rows * usize::from(texel));
    for row in 0..rows {
        let start =
            (unpack.skip_rows as usize + row) * stride + unpack.skip_pixels as usize * pixel;
        for x in 0..w {
            let at = start + x * pixel;
            let d = src
                .get(at..at + pixel)
                .and_then(|px| client_depth(ty, px))
                .unwrap_or(0.0);
            encode(format, d, &mut out);
        }
    }
    Ok((out, texel))
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
