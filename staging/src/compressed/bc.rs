//! S3TC (BC1–BC3) and RGTC (BC4, BC5) block decoders, per `EXT_texture_compression_s3tc` and
//! `ARB_texture_compression_rgtc`.
//!
//! Design decisions:
//! - One 4×4 block at a time into a fixed array; the caller places the texels. Colours expand
//!   RGB565 to 8 bits by bit replication and interpolate on the expanded values with rounding
//!   (what Mesa's software decoder does), so results match other GL implementations exactly
//!   for the endpoints and within one step for the interpolants.
//! - BC2/BC3 colour blocks always use the four-colour mode, whatever the endpoint order (the
//!   S3TC spec leaves the other order undefined there; every driver does this).

/// Texel (x, y) of a block is entry `4 * y + x`.
pub(crate) type Block<T> = [T; 16];

fn expand565(c: u16) -> [u8; 3] {
    let r = ((c >> 11) & 0x1F) as u8;
    let g = ((c >> 5) & 0x3F) as u8;
    let b = (c & 0x1F) as u8;
    [
        (r << 3) | (r >> 2),
        (g << 2) | (g >> 4),
        (b << 3) | (b >> 2),
    ]
}

fn mix(a: u8, b: u8, wa: u32, wb: u32) -> u8 {
    let d = wa + wb;
    ((u32::from(a) * wa + u32::from(b) * wb + d / 2) / d) as u8
}

/// A BC1 colour block (8 bytes) as RGBA8. `punch_through`: the three-colour mode's fourth
/// entry is transparent black (`GL_COMPRESSED_RGBA_S3TC_DXT1_EXT`), else opaque black; `four`:
/// always the four-colour mode (BC2/BC3).
pub(crate) fn bc1(block: &[u8], punch_through: bool, four: bool) -> Block<[u8; 4]> {
    let c0 = u16::from_le_bytes([block[0], block[1]]);
    let c1 = u16::from_le_bytes([block[2], block[3]]);
    let (e0, e1) = (expand565(c0), expand565(c1));
    let lerp = |wa, wb| {
        let m = |i: usize| mix(e0[i], e1[i], wa, wb);
        [m(0), m(1), m(2), 255]
    };
    let palette = if c0 > c1 || four {
        [
            [e0[0], e0[1], e0[2], 255],
            [e1[0], e1[1], e1[2], 255],
            lerp(2, 1),
            lerp(1, 2),
        ]
    } else {
        [
            [e0[0], e0[1], e0[2], 255],
            [e1[0], e1[1], e1[2], 255],
            lerp(1, 1),
            [0, 0, 0, if punch_through { 0 } else { 255 }],
        ]
    };
    let bits = u32::from_le_bytes([block[4], block[5], block[6], block[7]]);
    std::array::from_fn(|i| palette[((bits >> (2 * i)) & 3) as usize])
}

/// A BC2 block (16 bytes: explicit 4-bit alpha, then a BC1 colour block).
pub(crate) fn bc2(block: &[u8]) -> Block<[u8; 4]> {
    let mut out = bc1(&block[8..16], false, true);
    let alpha = u64::from_le_bytes(block[..8].try_into().unwrap_or_default());
    for (i, t) in out.iter_mut().enumerate() {
        t[3] = ((alpha >> (4 * i)) & 0xF) as u8 * 17;
    }
    out
}

/// A BC3 block (16 bytes: an interpolated alpha block, then a BC1 colour block).
pub(crate) fn bc3(block: &[u8]) -> Block<[u8; 4]> {
    let mut out = bc1(&block[8..16], false, true);
    let alpha = bc4_unsigned(&block[..8]);
    for (t, a) in out.iter_mut().zip(alpha) {
        t[3] = a;
    }
    out
}

/// The 3-bit indices of an alpha/RGTC block (texel 0 in the lowest bits of bytes 2–7).
fn indices3(block: &[u8]) -> Block<usize> {
    let mut b = [0u8; 8];
    b[..6].copy_from_slice(&block[2..8]);
    let bits = u64::from_le_bytes(b);
    std::array::from_fn(|i| ((bits >> (3 * i)) & 7) as usize)
}

/// A BC4 unsigned block (8 bytes; also BC3's alpha) as 8-bit values.
pub(crate) fn bc4_unsigned(block: &[u8]) -> Block<u8> {
    let (a0, a1) = (block[0], block[1]);
    let mut palette = [0u8; 8];
    palette[0] = a0;
    palette[1] = a1;
    if a0 > a1 {
        for i in 1..7u32 {
            palette[i as usize + 1] = mix(a0, a1, 7 - i, i);
        }
    } else {
        for i in 1..5u32 {
            palette[i as usize + 1] = mix(a0, a1, 5 - i, i);
        }
        palette[6] = 0;
        palette[7] = 255;
    }
    indices3(block).map(|i| palette[i])
}

/// A BC4 signed block (8 bytes) as signed normalised bytes (−127…127).
pub(crate) fn bc4_signed(block: &[u8]) -> Block<i8> {
    let a0 = i32::from((block[0] as i8).max(-127));
    let a1 = i32::from((block[1] as i8).max(-127));
    let lerp = |wa: i32, wb: i32| {
        let d = wa + wb;
        let v = a0 * wa + a1 * wb;
        // Round half away from zero.
        let q = if v >= 0 {
            (v + d / 2) / d
        } else {
            (v - d / 2) / d
        };
        q as i8
    };
    let mut palette = [0i8; 8];
    palette[0] = a0 as i8;
    palette[1] = a1 as i8;
    if a0 > a1 {
        for i in 1..7 {
            palette[i as usize + 1] = lerp(7 - i, i);
        }
    } else {
        for i in 1..5 {
            palette[i as usize + 1] = lerp(5 - i, i);
        }
        palette[6] = -127;
        palette[7] = 127;
    }
    indices3(block).map(|i| palette[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bc1_four_and_three_colour_modes() {
        // c0 = pure red (0xF800), c1 = pure blue (0x001F); indices 0,1,2,3 in the first row.
        let block = [0x00, 0xF8, 0x1F, 0x00, 0b1110_0100, 0, 0, 0];
        let t = bc1(&block, false, false);
        assert_eq!(t[0], [255, 0, 0, 255]);
        assert_eq!(t[1], [0, 0, 255, 255]);
        assert_eq!(t[2], [170, 0, 85, 255]);
        assert_eq!(t[3], [85, 0, 170, 255]);
        assert_eq!(t[4], [255, 0, 0, 255], "index 0 elsewhere");
        // Swapped endpoints: three colours and black (transparent with punch-through).
        let block = [0x1F, 0x00, 0x00, 0xF8, 0b1110_0100, 0, 0, 0];
        let t = bc1(&block, true, false);
        assert_eq!(t[2], [128, 0, 128, 255]);
        assert_eq!(t[3], [0, 0, 0, 0]);
        assert_eq!(bc1(&block, false, false)[3], [0, 0, 0, 255]);
        assert_eq!(
            bc1(&block, false, true)[3],
            [170, 0, 85, 255],
            "BC2/3: four colours"
        );
    }

    #[test]
    fn bc2_and_bc3_alpha() {
        let mut block = [0u8; 16];
        block[0] = 0xF0; // texel 0: alpha 0, texel 1: alpha 15
        block[8..10].copy_from_slice(&0xFFFFu16.to_le_bytes());
        let t = bc2(&block);
        assert_eq!((t[0][3], t[1][3]), (0, 255));
        assert_eq!(t[0][..3], [255, 255, 255]);
        // BC3: a0 = 255, a1 = 0, texel 0 index 2 → (6·255 + 0)/7 = 219.
        let mut block = [0u8; 16];
        block[0] = 255;
        block[2] = 2;
        assert_eq!(bc3(&block)[0][3], 219);
        assert_eq!(bc3(&block)[1][3], 255);
    }

    #[test]
    fn rgtc_six_and_eight_value_modes() {
        // a0 = 10 < a1 = 200: index 6 is 0, index 7 is 255, index 2 is (4·10 + 200)/5 = 48.
        let block = [10, 200, 6 | (7 << 3) | (2 << 6), 0, 0, 0, 0, 0];
        let t = bc4_unsigned(&block);
        assert_eq!(&t[..3], &[0, 255, 48]);
        let block = [0x81, 0x7F, 6 | (7 << 3) | (1 << 6), 0, 0, 0, 0, 0];
        let t = bc4_signed(&block);
        assert_eq!(&t[..3], &[-127, 127, 127]);
        let block = [100, 0x9C /* -100 */, 2, 0, 0, 0, 0, 0];
        assert_eq!(bc4_signed(&block)[0], 71, "(6·100 − 100)/7");
    }
}
