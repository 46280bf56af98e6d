//! ETC2 and EAC block decoders (OpenGL 4.3 / ES 3.0 core formats; Vulkan devices without
//! `textureCompressionETC2` — lavapipe, most desktop GPUs — get them decompressed).
//!
//! Design decisions:
//! - Follows the format description of the OpenGL ES 3.0 specification, annex C, literally:
//!   blocks are big-endian 64-bit words; texel (x, y) takes pixel-index bit `4x + y`
//!   (column-major); the individual, differential, T, H and planar modes are chosen exactly as
//!   the spec says (overflow of the differential R, G or B sum).
//! - The punch-through variant reuses the RGB decoder with the "opaque" bit in place of the
//!   "diff" bit; EAC R11 values are produced at 16 bits by the spec's bit replication, so
//!   R16/RG16 storage holds them exactly.

use super::bc::Block;

const MODIFIERS: [[i32; 2]; 8] = [
    [2, 8],
    [5, 17],
    [9, 29],
    [13, 42],
    [18, 60],
    [24, 80],
    [33, 106],
    [47, 183],
];

const DISTANCES: [i32; 8] = [3, 6, 11, 16, 23, 32, 41, 64];

const EAC: [[i32; 8]; 16] = [
    [-3, -6, -9, -15, 2, 5, 8, 14],
    [-3, -7, -10, -13, 2, 6, 9, 12],
    [-2, -5, -8, -13, 1, 4, 7, 12],
    [-2, -4, -6, -13, 1, 3, 5, 12],
    [-3, -6, -8, -12, 2, 5, 7, 11],
    [-3, -7, -9, -11, 2, 6, 8, 10],
    [-4, -7, -8, -11, 3, 6, 7, 10],
    [-3, -5, -8, -11, 2, 4, 7, 10],
    [-2, -6, -8, -10, 1, 5, 7, 9],
    [-2, -5, -8, -10, 1, 4, 7, 9],
    [-2, -4, -8, -10, 1, 3, 7, 9],
    [-2, -5, -7, -10, 1, 4, 6, 9],
    [-3, -4, -7, -10, 2, 3, 6, 9],
    [-1, -2, -3, -10, 0, 1, 2, 9],
    [-4, -6, -8, -9, 3, 5, 7, 8],
    [-3, -5, -7, -9, 2, 4, 6, 8],
];

fn word(block: &[u8]) -> u64 {
    u64::from_be_bytes(block[..8].try_into().unwrap_or_default())
}

fn bits(w: u64, hi: u32, lo: u32) -> i32 {
    ((w >> lo) & ((1u64 << (hi - lo + 1)) - 1)) as i32
}

fn clamp8(v: i32) -> u8 {
    v.clamp(0, 255) as u8
}

fn ext4(v: i32) -> i32 {
    v * 17
}

fn ext5(v: i32) -> i32 {
    (v << 3) | (v >> 2)
}

/// The 2-bit pixel index of texel `i` (= 4y + x): MSB from bits 16–31, LSB from bits 0–15.
fn pixel_index(w: u64, i: usize) -> usize {
    let (x, y) = (i % 4, i / 4);
    let bit = (4 * x + y) as u32;
    let msb = (w >> (16 + bit)) & 1;
    let lsb = (w >> bit) & 1;
    (msb * 2 + lsb) as usize
}

/// An ETC2 RGB block (8 bytes). `punch_through`: `GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2`
/// (bit 33 is "opaque"; when clear, index 2 of non-planar modes is transparent black).
pub(crate) fn etc2_rgb(block: &[u8], punch_through: bool) -> Block<[u8; 4]> {
    let w = word(block);
    let flag = bits(w, 33, 33) == 1;
    let (diff, opaque) = if punch_through {
        (true, flag)
    } else {
        (flag, true)
    };
    let rgb = |c: [i32; 3]| [clamp8(c[0]), clamp8(c[1]), clamp8(c[2]), 255];
    let transparent = [0u8, 0, 0, 0];
    if diff {
        let r = bits(w, 63, 59);
        let g = bits(w, 55, 51);
        let b = bits(w, 47, 43);
        let signed3 = |v: i32| if v >= 4 { v - 8 } else { v };
        let (dr, dg, db) = (
            signed3(bits(w, 58, 56)),
            signed3(bits(w, 50, 48)),
            signed3(bits(w, 42, 40)),
        );
        if !(0..32).contains(&(r + dr)) {
            // T mode.
            let c1 = [
                ext4((bits(w, 60, 59) << 2) | bits(w, 57, 56)),
                ext4(bits(w, 55, 52)),
                ext4(bits(w, 51, 48)),
            ];
            let c2 = [
                ext4(bits(w, 47, 44)),
                ext4(bits(w, 43, 40)),
                ext4(bits(w, 39, 36)),
            ];
            let d = DISTANCES[((bits(w, 35, 34) << 1) | bits(w, 32, 32)) as usize];
            let paint = [
                rgb(c1),
                rgb(c2.map(|v| v + d)),
                rgb(c2),
                rgb(c2.map(|v| v - d)),
            ];
            return std::array::from_fn(|i| {
                let p = pixel_index(w, i);
                if !opaque && p == 2 {
                    transparent
                } else {
                    paint[p]
                }
            });
        }
        if !(0..32).contains(&(g + dg)) {
            // H mode.
            let r1 = bits(w, 62, 59);
            let g1 = (bits(w, 58, 56) << 1) | bits(w, 52, 52);
            let b1 = (bits(w, 51, 51) << 3) | bits(w, 49, 47);
            let (r2, g2, b2) = (bits(w, 46, 43), bits(w, 42, 39), bits(w, 38, 35));
            let order = i32::from(((r1 << 8) | (g1 << 4) | b1) >= ((r2 << 8) | (g2 << 4) | b2));
            let d = DISTANCES[((bits(w, 34, 34) << 2) | (bits(w, 32, 32) << 1) | order) as usize];
            let c1 = [ext4(r1), ext4(g1), ext4(b1)];
            let c2 = [ext4(r2), ext4(g2), ext4(b2)];
            let paint = [
                rgb(c1.map(|v| v + d)),
                rgb(c1.map(|v| v - d)),
                rgb(c2.map(|v| v + d)),
                rgb(c2.map(|v| v - d)),
            ];
            return std::array::from_fn(|i| {
                let p = pixel_index(w, i);
                if !opaque && p == 2 {
                    transparent
                } else {
                    paint[p]
                }
            });
        }
        if !(0..32).contains(&(b + db)) {
            // Planar mode (always opaque).
            let ext6 = |v: i32| (v << 2) | (v >> 4);
            let ext7 = |v: i32| (v << 1) | (v >> 6);
            let o = [
                ext6(bits(w, 62, 57)),
                ext7((bits(w, 56, 56) << 6) | bits(w, 54, 49)),
                ext6((bits(w, 48, 48) << 5) | (bits(w, 44, 43) << 3) | bits(w, 41, 39)),
            ];
            let h = [
                ext6((bits(w, 38, 34) << 1) | bits(w, 32, 32)),
                ext7(bits(w, 31, 25)),
                ext6(bits(w, 24, 19)),
            ];
            let v = [
                ext6(bits(w, 18, 13)),
                ext7(bits(w, 12, 6)),
                ext6(bits(w, 5, 0)),
            ];
            return std::array::from_fn(|i| {
                let (x, y) = ((i % 4) as i32, (i / 4) as i32);
                let c =
                    |k: usize| clamp8((x * (h[k] - o[k]) + y * (v[k] - o[k]) + 4 * o[k] + 2) >> 2);
                [c(0), c(1), c(2), 255]
            });
        }
        let base = [
            [ext5(r), ext5(g), ext5(b)],
            [ext5(r + dr), ext5(g + dg), ext5(b + db)],
        ];
        return sub_blocks(w, base, opaque);
    }
    let base = [
        [
            ext4(bits(w, 63, 60)),
            ext4(bits(w, 55, 52)),
            ext4(bits(w, 47, 44)),
        ],
        [
            ext4(bits(w, 59, 56)),
            ext4(bits(w, 51, 48)),
            ext4(bits(w, 43, 40)),
        ],
    ];
    sub_blocks(w, base, true)
}

/// The individual/differential modes: two sub-blocks with a base colour and a modifier table.
fn sub_blocks(w: u64, base: [[i32; 3]; 2], opaque: bool) -> Block<[u8; 4]> {
    let tables = [bits(w, 39, 37) as usize, bits(w, 36, 34) as usize];
    let flip = bits(w, 32, 32) == 1;
    std::array::from_fn(|i| {
        let (x, y) = (i % 4, i / 4);
        let sub = usize::from(if flip { y >= 2 } else { x >= 2 });
        let p = pixel_index(w, i);
        let [a, b] = MODIFIERS[tables[sub]];
        if !opaque && p == 2 {
            return [0, 0, 0, 0];
        }
        // Punch-through blocks without the opaque bit use no modifier for index 0.
        let m = match p {
            0 if !opaque => 0,
            0 => a,
            1 => b,
            2 => -a,
            _ => -b,
        };
        let c = base[sub];
        [clamp8(c[0] + m), clamp8(c[1] + m), clamp8(c[2] + m), 255]
    })
}

/// The 3-bit EAC index of texel `i` (= 4y + x): texel (0, 0) in bits 45–47, column-major.
fn eac_index(w: u64, i: usize) -> usize {
    let (x, y) = (i % 4, i / 4);
    ((w >> (45 - 3 * (4 * x + y))) & 7) as usize
}

/// An EAC alpha block (8 bytes; the first half of `GL_COMPRESSED_RGBA8_ETC2_EAC`).
pub(crate) fn eac_alpha(block: &[u8]) -> Block<u8> {
    let w = word(block);
    let base = bits(w, 63, 56);
    let mult = bits(w, 55, 52);
    let table = EAC[bits(w, 51, 48) as usize];
    std::array::from_fn(|i| clamp8(base + table[eac_index(w, i)] * mult))
}

/// An EAC R11 block (8 bytes) as 16-bit unsigned normalised values.
pub(crate) fn eac_r11_unsigned(block: &[u8]) -> Block<u16> {
    let w = word(block);
    let base = bits(w, 63, 56);
    let mult = bits(w, 55, 52);
    let table = EAC[bits(w, 51, 48) as usize];
    std::array::from_fn(|i| {
        let m = table[eac_index(w, i)];
        let v = if mult == 0 {
            base * 8 + 4 + m
        } else {
            base * 8 + 4 + m * mult * 8
        };
        let v = v.clamp(0, 2047) as u16;
        (v << 5) | (v >> 6)
    })
}

/// An EAC signed R11 block (8 bytes) as 16-bit signed normalised values.
pub(crate) fn eac_r11_signed(block: &[u8]) -> Block<i16> {
    let w = word(block);
    let base = i32::from((bits(w, 63, 56) as u8 as i8).max(-127));
    let mult = bits(w, 55, 52);
    let table = EAC[bits(w, 51, 48) as usize];
    std::array::from_fn(|i| {
        let m = table[eac_index(w, i)];
        let v = if mult == 0 {
            base * 8 + m
        } else {
            base * 8 + m * mult * 8
        };
        let v = v.clamp(-1023, 1023);
        let mag = v.unsigned_abs() as u16;
        let wide = ((mag << 5) | (mag >> 5)) as i16;
        if v < 0 {
            -wide
        } else {
            wide
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(w: u64) -> [u8; 8] {
        w.to_be_bytes()
    }

    #[test]
    fn individual_mode_by_hand() {
        // R1 = 0xF, R2 = 0x0 (others 0), tables 0/0, no flip; all indices 0 (+2).
        let w = 0xFu64 << 60;
        let t = etc2_rgb(&block(w), false);
        assert_eq!(t[0], [255, 2, 2, 255], "left sub-block: 255 + 2 clamps");
        assert_eq!(t[2], [2, 2, 2, 255], "right sub-block: 0 + 2");
        // Texel (1, 0) with index 3 (−b = −8): MSB bit 16 + 4, LSB bit 4.
        let w = w | (1 << (16 + 4)) | (1 << 4);
        assert_eq!(etc2_rgb(&block(w), false)[1], [247, 0, 0, 255]);
    }

    #[test]
    fn differential_mode_by_hand() {
        // R = 16, dR = +1 → 17; G = B = 0; diff bit; table 1 (5, 17) for sub-block 0.
        let w = (16u64 << 59) | (1 << 56) | (1 << 37) | (1 << 33);
        let t = etc2_rgb(&block(w), false);
        assert_eq!(t[0], [ext5(16) as u8 + 5, 5, 5, 255]);
        assert_eq!(t[3], [ext5(17) as u8 + 2, 2, 2, 255]);
    }

    #[test]
    fn t_h_and_planar_modes_are_selected_by_overflow() {
        // T mode: R = 31, dR = +1 overflows. c1's red from bits 60-59 and 57-56 = 0b1101.
        let w = (31u64 << 59) | (1 << 56) | (1 << 33);
        let t = etc2_rgb(&block(w), false);
        assert_eq!(t[0], [13 * 17, 0, 0, 255], "paint 0 = c1");
        // H mode: R fine, G = 31 + 1 overflows.
        let w = (31u64 << 51) | (1 << 48) | (1 << 33);
        let t = etc2_rgb(&block(w), false);
        assert_eq!(t[0][3], 255);
        // Planar: B = 31 + 1 overflows. Texel (0, 0) is O: BO = 0b0_11_010 = 26 → 105.
        let w = (31u64 << 43) | (1 << 40) | (1 << 33);
        let t = etc2_rgb(&block(w), false);
        assert_eq!(t[0], [0, 0, 105, 255]);
        // Punch-through without the opaque bit: index 2 is transparent.
        let w = (16u64 << 59) | (1 << 16);
        assert_eq!(etc2_rgb(&block(w), true)[0], [0, 0, 0, 0]);
    }

    #[test]
    fn eac_by_hand() {
        // base 128, multiplier 2, table 13 ([-1, -2, -3, -10, 0, 1, 2, 9]); texel 0 index 7.
        let w = (128u64 << 56) | (2 << 52) | (13 << 48) | (7 << 45);
        let a = eac_alpha(&block(w));
        assert_eq!(a[0], 128 + 18);
        assert_eq!(a[1], 128 - 2, "index 0 elsewhere");
        let r = eac_r11_unsigned(&block(w));
        let v = (128 * 8 + 4 + 9 * 2 * 8) as u16;
        assert_eq!(r[0], (v << 5) | (v >> 6));
        let s = eac_r11_signed(&block((0x80u64 << 56) | (1 << 52)));
        assert!(s.iter().all(|&v| v < 0));
    }
}
