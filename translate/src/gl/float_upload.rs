//! Float client pixels (`GL_FLOAT`, `GL_HALF_FLOAT`) uploaded into the normalized formats this GL
//! stores: GL converts each component to the internal format, clamping to [0, 1] for unsigned
//! normalized ones (GL 3.3 §3.8.3), so the data is converted here to tightly packed
//! `GL_UNSIGNED_BYTE` pixels of the same format and then takes the ordinary upload path.

use std::borrow::Cow;

use arenagl_staging::{PixelAlignment, PixelStore};

use super::enums::*;

/// (components, bytes per component) of a float colour `format`/`ty` pair.
pub(crate) fn float_pixel(format: GLenum, ty: GLenum) -> Option<(usize, usize)> {
    let width = match ty {
        GL_FLOAT => 4,
        GL_HALF_FLOAT => 2,
        _ => return None,
    };
    let comps = match format {
        GL_RED | GL_GREEN | GL_BLUE | GL_ALPHA | GL_LUMINANCE => 1,
        GL_RG | GL_LUMINANCE_ALPHA => 2,
        GL_RGB | GL_BGR => 3,
        GL_RGBA | GL_BGRA => 4,
        _ => return None,
    };
    Some((comps, width))
}

/// (row stride, image stride, bytes needed) of a `w × h × d` box of `pixel`-byte pixels under
/// the unpack state.
pub(crate) fn layout(
    store: &PixelStore,
    [w, h, d]: [usize; 3],
    pixel: usize,
) -> Option<(usize, usize, usize)> {
    let row_pixels = if store.row_length == 0 {
        w
    } else {
        store.row_length as usize
    };
    let align = store.alignment.bytes() as usize;
    let stride = row_pixels
        .checked_mul(pixel)?
        .div_ceil(align)
        .checked_mul(align)?;
    let rows = if store.image_height == 0 || d <= 1 {
        h
    } else {
        store.image_height as usize
    };
    let image = rows.checked_mul(stride)?;
    if w == 0 || h == 0 || d == 0 {
        return Some((stride, image, 0));
    }
    let skip_images = if d > 1 { store.skip_images as usize } else { 0 };
    let start = skip_images
        .checked_mul(image)?
        .checked_add((store.skip_rows as usize).checked_mul(stride)?)?
        .checked_add((store.skip_pixels as usize).checked_mul(pixel)?)?;
    let end = (d - 1)
        .checked_mul(image)?
        .checked_add((h - 1).checked_mul(stride)?)?
        .checked_add(w.checked_mul(pixel)?)?;
    Some((stride, image, start.checked_add(end)?))
}

fn half_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1F);
    let mant = f32::from(h & 0x3FF);
    sign * match exp {
        0 => mant * 2f32.powi(-24),
        31 if mant == 0.0 => f32::INFINITY,
        31 => f32::NAN,
        e => (1.0 + mant / 1024.0) * 2f32.powi(e - 15),
    }
}

/// Converts float client pixels to tightly packed unsigned bytes; returns the bytes and the
/// unpack state that describes them. None when the pair is not a float colour pair or the
/// data is shorter than the unpack state says.
pub(crate) fn to_unorm8<'a>(
    store: &PixelStore,
    size: [usize; 3],
    (format, ty): (GLenum, GLenum),
    data: &'a [u8],
) -> Option<(Cow<'a, [u8]>, PixelStore)> {
    let (comps, width) = float_pixel(format, ty)?;
    let pixel = comps * width;
    let (stride, image, needed) = layout(store, size, pixel)?;
    if data.len() < needed {
        return None;
    }
    let [w, h, d] = size;
    let skip_images = if d > 1 { store.skip_images as usize } else { 0 };
    let mut out = Vec::with_capacity(w * h * d * comps);
    for z in 0..d {
        for y in 0..h {
            for x in 0..w {
                let at = (skip_images + z) * image
                    + (store.skip_rows as usize + y) * stride
                    + (store.skip_pixels as usize + x) * pixel;
                for c in 0..comps {
                    let b = &data[at + c * width..at + (c + 1) * width];
                    let v = if width == 4 {
                        f32::from_ne_bytes([b[0], b[1], b[2], b[3]])
                    } else {
                        half_to_f32(u16::from_ne_bytes([b[0], b[1]]))
                    };
                    let v = if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
                    out.push((v * 255.0).round() as u8);
                }
            }
        }
    }
    let tight = PixelStore {
        alignment: PixelAlignment::One,
        ..PixelStore::default()
    };
    Some((Cow::Owned(out), tight))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_clamp_and_round_to_bytes_under_the_unpack_state() {
        let f: Vec<u8> = [0.0f32, 0.5, 1.0, 2.0, -1.0, f32::NAN, 0.25, 0.75]
            .iter()
            .flat_map(|v| v.to_ne_bytes())
            .collect();
        // Two RGBA pixels, tight.
        let store = PixelStore::default();
        let (bytes, tight) = to_unorm8(&store, [2, 1, 1], (GL_RGBA, GL_FLOAT), &f).unwrap();
        assert_eq!(&bytes[..], &[0, 128, 255, 255, 0, 0, 64, 191]);
        assert_eq!(tight.alignment, PixelAlignment::One);
        // Skip the first pixel of a row of two, one RGBA pixel read.
        let skip = PixelStore {
            skip_pixels: 1,
            ..PixelStore::default()
        };
        let (bytes, _) = to_unorm8(&skip, [1, 1, 1], (GL_RGBA, GL_FLOAT), &f).unwrap();
        assert_eq!(&bytes[..], &[0, 0, 64, 191]);
        assert!(
            to_unorm8(&store, [3, 1, 1], (GL_RGBA, GL_FLOAT), &f).is_none(),
            "too short"
        );
        assert!(to_unorm8(&store, [1, 1, 1], (GL_RGBA, GL_UNSIGNED_BYTE), &f).is_none());
    }

    #[test]
    fn half_floats_decode() {
        assert_eq!(half_to_f32(0x3C00), 1.0);
        assert_eq!(half_to_f32(0x3800), 0.5);
        assert_eq!(half_to_f32(0xC000), -2.0);
        assert!(half_to_f32(0x7C01).is_nan());
    }
}
