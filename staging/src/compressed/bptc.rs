//! BPTC block decoders, per `ARB_texture_compression_bptc`: BC7 (RGBA unorm, eight modes) and
//! BC6H (RGB half float, signed and unsigned, fourteen modes).
//!
//! Design decisions:
//! - A block is one little-endian `u128`; every field is read by bit offset, so the decoders
//!   are the spec's tables plus arithmetic, with no per-mode code. Reserved modes decode to
//!   transparent black (BC7) or opaque black (BC6H), as the spec asks of them.
//! - BC6H's irregular endpoint layouts are one list of bit runs per mode ([`Run`]: endpoint,
//!   channel, first bit, count, reversed), in the order they follow the mode bits.
//! - BC6H results are the spec's half-float bit patterns, exact; BC7 results are the spec's
//!   8-bit values, exact (no rounding is left to the implementation in either format).

use super::bc::Block;

/// Which of two subsets each texel of a 2-subset partition belongs to (bit `i`: texel `i`).
const PARTITIONS_2: [u16; 64] = [
    0xCCCC, 0x8888, 0xEEEE, 0xECC8, 0xC880, 0xFEEC, 0xFEC8, 0xEC80, 0xC800, 0xFFEC, 0xFE80, 0xE800,
    0xFFE8, 0xFF00, 0xFFF0, 0xF000, 0xF710, 0x008E, 0x7100, 0x08CE, 0x008C, 0x7310, 0x3100, 0x8CCE,
    0x088C, 0x3110, 0x6666, 0x366C, 0x17E8, 0x0FF0, 0x718E, 0x399C, 0xAAAA, 0xF0F0, 0x5A5A, 0x33CC,
    0x3C3C, 0x55AA, 0x9696, 0xA55A, 0x73CE, 0x13C8, 0x324C, 0x3BDC, 0x6996, 0xC33C, 0x9966, 0x0660,
    0x0272, 0x04E4, 0x4E40, 0x2720, 0xC936, 0x936C, 0x39C6, 0x639C, 0x9336, 0x9CC6, 0x817E, 0xE718,
    0xCCF0, 0x0FCC, 0x7744, 0xEE22,
];

/// The subset of each texel of a 3-subset partition (bits `2i..2i+2`: texel `i`).
const PARTITIONS_3: [u32; 64] = [
    0xAA685050, 0x6A5A5040, 0x5A5A4200, 0x5450A0A8, 0xA5A50000, 0xA0A05050, 0x5555A0A0, 0x5A5A5050,
    0xAA550000, 0xAA555500, 0xAAAA5500, 0x90909090, 0x94949494, 0xA4A4A4A4, 0xA9A59450, 0x2A0A4250,
    0xA5945040, 0x0A425054, 0xA5A5A500, 0x55A0A0A0, 0xA8A85454, 0x6A6A4040, 0xA4A45000, 0x1A1A0500,
    0x0050A4A4, 0xAAA59090, 0x14696914, 0x69691400, 0xA08585A0, 0xAA821414, 0x50A4A450, 0x6A5A0200,
    0xA9A58000, 0x5090A0A8, 0xA8A09050, 0x24242424, 0x00AA5500, 0x24924924, 0x24499224, 0x50A50A50,
    0x500AA550, 0xAAAA4444, 0x66660000, 0xA5A0A5A0, 0x50A050A0, 0x69286928, 0x44AAAA44, 0x66666600,
    0xAA444444, 0x54A854A8, 0x95809580, 0x96969600, 0xA85454A8, 0x80959580, 0xAA141414, 0x96960000,
    0xAAAA1414, 0xA05050A0, 0xA0A5A5A0, 0x96000000, 0x40804080, 0xA9A8A9A8, 0xAAAAAA44, 0x2A4A5254,
];

/// The anchor texel of subset 1 in 2-subset partitions.
const ANCHOR_2: [u8; 64] = [
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 2, 8, 2, 2, 8, 8, 15, 2, 8,
    2, 2, 8, 8, 2, 2, 15, 15, 6, 8, 2, 8, 15, 15, 2, 8, 2, 2, 2, 15, 15, 6, 6, 2, 6, 8, 15, 15, 2,
    2, 15, 15, 15, 15, 15, 2, 2, 15,
];

/// The anchor texels of subsets 1 and 2 in 3-subset partitions.
const ANCHOR_3: [[u8; 64]; 2] = [
    [
        3, 3, 15, 15, 8, 3, 15, 15, 8, 8, 6, 6, 6, 5, 3, 3, 3, 3, 8, 15, 3, 3, 6, 10, 5, 8, 8, 6,
        8, 5, 15, 15, 8, 15, 3, 5, 6, 10, 8, 15, 15, 3, 15, 5, 15, 15, 15, 15, 3, 15, 5, 5, 5, 8,
        5, 10, 5, 10, 8, 13, 15, 12, 3, 3,
    ],
    [
        15, 8, 8, 3, 15, 15, 3, 8, 15, 15, 15, 15, 15, 15, 15, 8, 15, 8, 15, 3, 15, 8, 15, 8, 3,
        15, 6, 10, 15, 15, 10, 8, 15, 3, 15, 10, 10, 8, 9, 10, 6, 15, 8, 15, 3, 6, 6, 8, 15, 3, 15,
        15, 15, 15, 15, 15, 15, 15, 15, 15, 3, 15, 15, 8,
    ],
];

/// A partition of the 16 texels into 1–3 subsets, with each subset's anchor texel (whose
/// index drops its top bit).
#[derive(Clone, Copy)]
struct Partition {
    subsets: u8,
    shape: usize,
}

impl Partition {
    fn subset(self, texel: usize) -> usize {
        match self.subsets {
            2 => usize::from(PARTITIONS_2[self.shape] >> texel & 1),
            3 => (PARTITIONS_3[self.shape] >> (2 * texel) & 3) as usize,
            _ => 0,
        }
    }

    fn is_anchor(self, texel: usize) -> bool {
        let t = texel as u8;
        texel == 0
            || match self.subsets {
                2 => ANCHOR_2[self.shape] == t,
                3 => ANCHOR_3[0][self.shape] == t || ANCHOR_3[1][self.shape] == t,
                _ => false,
            }
    }

    /// Reads the 16 indices of `bits` each starting at `*at` (anchors one bit shorter).
    fn indices(self, block: u128, at: &mut u32, bits: u32) -> [u8; 16] {
        std::array::from_fn(|texel| {
            let n = bits - u32::from(self.is_anchor(texel));
            let v = field(block, *at, n) as u8;
            *at += n;
            v
        })
    }
}

/// `n` bits of `block` from bit `at`.
fn field(block: u128, at: u32, n: u32) -> u32 {
    (block.checked_shr(at).unwrap_or(0) & ((1u128 << n) - 1)) as u32
}

fn block_bits(block: &[u8]) -> u128 {
    let mut bytes = [0u8; 16];
    let n = block.len().min(16);
    bytes[..n].copy_from_slice(&block[..n]);
    u128::from_le_bytes(bytes)
}

/// The spec's interpolation weights for 2-, 3- and 4-bit indices.
fn weight(bits: u32, index: u8) -> i32 {
    const W2: [i32; 4] = [0, 21, 43, 64];
    const W3: [i32; 8] = [0, 9, 18, 27, 37, 46, 55, 64];
    const W4: [i32; 16] = [0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64];
    let i = usize::from(index);
    match bits {
        2 => W2[i & 3],
        3 => W3[i & 7],
        _ => W4[i & 15],
    }
}

fn interpolate(a: i32, b: i32, bits: u32, index: u8) -> i32 {
    let w = weight(bits, index);
    ((64 - w) * a + w * b + 32) >> 6
}

/// One BC7 mode (the spec's table of modes 0–7).
struct Bc7Mode {
    subsets: u8,
    partition_bits: u32,
    rotation_bits: u32,
    selection_bits: u32,
    color_bits: u32,
    alpha_bits: u32,
    endpoint_pbits: bool,
    shared_pbits: bool,
    index_bits: u32,
    index2_bits: u32,
}

const fn m7(
    subsets: u8,
    partition_bits: u32,
    (rotation_bits, selection_bits): (u32, u32),
    (color_bits, alpha_bits): (u32, u32),
    (endpoint_pbits, shared_pbits): (bool, bool),
    (index_bits, index2_bits): (u32, u32),
) -> Bc7Mode {
    Bc7Mode {
        subsets,
        partition_bits,
        rotation_bits,
        selection_bits,
        color_bits,
        alpha_bits,
        endpoint_pbits,
        shared_pbits,
        index_bits,
        index2_bits,
    }
}

const BC7_MODES: [Bc7Mode; 8] = [
    m7(3, 4, (0, 0), (4, 0), (true, false), (3, 0)),
    m7(2, 6, (0, 0), (6, 0), (false, true), (3, 0)),
    m7(3, 6, (0, 0), (5, 0), (false, false), (2, 0)),
    m7(2, 6, (0, 0), (7, 0), (true, false), (2, 0)),
    m7(1, 0, (2, 1), (5, 6), (false, false), (2, 3)),
    m7(1, 0, (2, 0), (7, 8), (false, false), (2, 2)),
    m7(1, 0, (0, 0), (7, 7), (true, false), (4, 0)),
    m7(2, 6, (0, 0), (5, 5), (true, false), (2, 0)),
];

/// Expands an `n`-bit unsigned value to 8 bits by replicating its top bits.
fn expand8(v: u32, n: u32) -> i32 {
    let v = v << (8 - n);
    (v | v >> n) as i32
}

/// Reads a BC7 block's endpoints (`[endpoint][channel]`, 8-bit) starting at `*at`.
fn bc7_endpoints(mode: &Bc7Mode, block: u128, at: &mut u32) -> [[i32; 4]; 6] {
    let ends = 2 * usize::from(mode.subsets);
    let mut raw = [[0u32; 4]; 6];
    let channels = if mode.alpha_bits > 0 { 4 } else { 3 };
    for c in 0..channels {
        let bits = if c == 3 {
            mode.alpha_bits
        } else {
            mode.color_bits
        };
        for e in raw.iter_mut().take(ends) {
            e[c] = field(block, *at, bits);
            *at += bits;
        }
    }
    let pbits: u32 = if mode.endpoint_pbits {
        ends as u32
    } else if mode.shared_pbits {
        u32::from(mode.subsets)
    } else {
        0
    };
    let p = field(block, *at, pbits);
    *at += pbits;
    let extra = u32::from(pbits > 0);
    std::array::from_fn(|e| {
        let pbit = if mode.shared_pbits {
            p >> (e / 2) & 1
        } else {
            p >> e & 1
        };
        std::array::from_fn(|c| match (c, channels) {
            (3, 3) => 255,
            _ => {
                let bits = if c == 3 {
                    mode.alpha_bits
                } else {
                    mode.color_bits
                };
                let v = if extra == 1 {
                    raw[e][c] << 1 | pbit
                } else {
                    raw[e][c]
                };
                expand8(v, bits + extra)
            }
        })
    })
}

/// A BC7 block (16 bytes) as RGBA8.
pub(crate) fn bc7(block: &[u8]) -> Block<[u8; 4]> {
    let bits = block_bits(block);
    let first = bits as u8;
    if first == 0 {
        return [[0; 4]; 16];
    }
    let mode_number = first.trailing_zeros();
    let mode = &BC7_MODES[mode_number as usize];
    let mut at = mode_number + 1;
    let shape = field(bits, at, mode.partition_bits) as usize;
    at += mode.partition_bits;
    let rotation = field(bits, at, mode.rotation_bits);
    at += mode.rotation_bits;
    let selection = field(bits, at, mode.selection_bits);
    at += mode.selection_bits;
    let ends = bc7_endpoints(mode, bits, &mut at);
    let partition = Partition {
        subsets: mode.subsets,
        shape,
    };
    let primary = partition.indices(bits, &mut at, mode.index_bits);
    let single = Partition {
        subsets: 1,
        shape: 0,
    };
    let secondary = if mode.index2_bits > 0 {
        single.indices(bits, &mut at, mode.index2_bits)
    } else {
        primary
    };
    // Colour takes the primary indices and alpha the secondary, unless the selection bit
    // swaps them; modes without secondary indices use the primary for both.
    let (color, alpha) = if selection == 1 {
        ((secondary, mode.index2_bits), (primary, mode.index_bits))
    } else {
        let alpha_bits = if mode.index2_bits > 0 {
            mode.index2_bits
        } else {
            mode.index_bits
        };
        ((primary, mode.index_bits), (secondary, alpha_bits))
    };
    std::array::from_fn(|texel| {
        let s = partition.subset(texel);
        let (e0, e1) = (ends[2 * s], ends[2 * s + 1]);
        let mut out: [u8; 4] = std::array::from_fn(|c| {
            let (idx, n) = if c == 3 { alpha } else { color };
            interpolate(e0[c], e1[c], n, idx[texel]) as u8
        });
        if rotation > 0 {
            out.swap(rotation as usize - 1, 3);
        }
        out
    })
}

/// One run of BC6H endpoint bits: `count` bits of channel `channel` of endpoint `endpoint`,
/// placed from bit `lsb` up (`reversed`: the stored bits are in the opposite order).
#[derive(Clone, Copy)]
struct Run {
    endpoint: u8,
    channel: u8,
    lsb: u8,
    count: u8,
    reversed: bool,
}

/// A run in stored order.
const fn f(endpoint: u8, channel: u8, lsb: u8, count: u8) -> Run {
    Run {
        endpoint,
        channel,
        lsb,
        count,
        reversed: false,
    }
}

/// A run stored most significant bit first.
const fn r(endpoint: u8, channel: u8, lsb: u8, count: u8) -> Run {
    Run {
        endpoint,
        channel,
        lsb,
        count,
        reversed: true,
    }
}

/// One BC6H mode: the endpoints' layout after the mode bits, their precision and whether
/// endpoints 1–3 are deltas from endpoint 0 (of `delta_bits` per channel).
struct Bc6Mode {
    two_regions: bool,
    transformed: bool,
    endpoint_bits: u32,
    delta_bits: [u32; 3],
    runs: &'static [Run],
}

// Channels: 0 red, 1 green, 2 blue. Endpoints 0, 1 (region 0) and 2, 3 (region 1).
#[rustfmt::skip]
const MODE_00: &[Run] = &[
    f(2, 1, 4, 1), f(2, 2, 4, 1), f(3, 2, 4, 1), f(0, 0, 0, 10), f(0, 1, 0, 10), f(0, 2, 0, 10),
    f(1, 0, 0, 5), f(3, 1, 4, 1), f(2, 1, 0, 4), f(1, 1, 0, 5), f(3, 2, 0, 1), f(3, 1, 0, 4),
    f(1, 2, 0, 5), f(3, 2, 1, 1), f(2, 2, 0, 4), f(2, 0, 0, 5), f(3, 2, 2, 1), f(3, 0, 0, 5),
    f(3, 2, 3, 1),
];
#[rustfmt::skip]
const MODE_01: &[Run] = &[
    f(2, 1, 5, 1), f(3, 1, 4, 1), f(3, 1, 5, 1), f(0, 0, 0, 7), f(3, 2, 0, 1), f(3, 2, 1, 1),
    f(2, 2, 4, 1), f(0, 1, 0, 7), f(2, 2, 5, 1), f(3, 2, 2, 1), f(2, 1, 4, 1), f(0, 2, 0, 7),
    f(3, 2, 3, 1), f(3, 2, 5, 1), f(3, 2, 4, 1), f(1, 0, 0, 6), f(2, 1, 0, 4), f(1, 1, 0, 6),
    f(3, 1, 0, 4), f(1, 2, 0, 6), f(2, 2, 0, 4), f(2, 0, 0, 6), f(3, 0, 0, 6),
];
#[rustfmt::skip]
const MODE_00010: &[Run] = &[
    f(0, 0, 0, 10), f(0, 1, 0, 10), f(0, 2, 0, 10), f(1, 0, 0, 5), f(0, 0, 10, 1), f(2, 1, 0, 4),
    f(1, 1, 0, 4), f(0, 1, 10, 1), f(3, 2, 0, 1), f(3, 1, 0, 4), f(1, 2, 0, 4), f(0, 2, 10, 1),
    f(3, 2, 1, 1), f(2, 2, 0, 4), f(2, 0, 0, 5), f(3, 2, 2, 1), f(3, 0, 0, 5), f(3, 2, 3, 1),
];
#[rustfmt::skip]
const MODE_00011: &[Run] = &[
    f(0, 0, 0, 10), f(0, 1, 0, 10), f(0, 2, 0, 10), f(1, 0, 0, 10), f(1, 1, 0, 10), f(1, 2, 0, 10),
];
#[rustfmt::skip]
const MODE_00110: &[Run] = &[
    f(0, 0, 0, 10), f(0, 1, 0, 10), f(0, 2, 0, 10), f(1, 0, 0, 4), f(0, 0, 10, 1), f(3, 1, 4, 1),
    f(2, 1, 0, 4), f(1, 1, 0, 5), f(0, 1, 10, 1), f(3, 1, 0, 4), f(1, 2, 0, 4), f(0, 2, 10, 1),
    f(3, 2, 1, 1), f(2, 2, 0, 4), f(2, 0, 0, 4), f(3, 2, 0, 1), f(3, 2, 2, 1), f(3, 0, 0, 4),
    f(2, 1, 4, 1), f(3, 2, 3, 1),
];
#[rustfmt::skip]
const MODE_00111: &[Run] = &[
    f(0, 0, 0, 10), f(0, 1, 0, 10), f(0, 2, 0, 10), f(1, 0, 0, 9), f(0, 0, 10, 1), f(1, 1, 0, 9),
    f(0, 1, 10, 1), f(1, 2, 0, 9), f(0, 2, 10, 1),
];
#[rustfmt::skip]
const MODE_01010: &[Run] = &[
    f(0, 0, 0, 10), f(0, 1, 0, 10), f(0, 2, 0, 10), f(1, 0, 0, 4), f(0, 0, 10, 1), f(2, 2, 4, 1),
    f(2, 1, 0, 4), f(1, 1, 0, 4), f(0, 1, 10, 1), f(3, 2, 0, 1), f(3, 1, 0, 4), f(1, 2, 0, 5),
    f(0, 2, 10, 1), f(2, 2, 0, 4), f(2, 0, 0, 4), f(3, 2, 1, 1), f(3, 2, 2, 1), f(3, 0, 0, 4),
    f(3, 2, 4, 1), f(3, 2, 3, 1),
];
#[rustfmt::skip]
const MODE_01011: &[Run] = &[
    f(0, 0, 0, 10), f(0, 1, 0, 10), f(0, 2, 0, 10), f(1, 0, 0, 8), r(0, 0, 10, 2), f(1, 1, 0, 8),
    r(0, 1, 10, 2), f(1, 2, 0, 8), r(0, 2, 10, 2),
];
#[rustfmt::skip]
const MODE_01110: &[Run] = &[
    f(0, 0, 0, 9), f(2, 2, 4, 1), f(0, 1, 0, 9), f(2, 1, 4, 1), f(0, 2, 0, 9), f(3, 2, 4, 1),
    f(1, 0, 0, 5), f(3, 1, 4, 1), f(2, 1, 0, 4), f(1, 1, 0, 5), f(3, 2, 0, 1), f(3, 1, 0, 4),
    f(1, 2, 0, 5), f(3, 2, 1, 1), f(2, 2, 0, 4), f(2, 0, 0, 5), f(3, 2, 2, 1), f(3, 0, 0, 5),
    f(3, 2, 3, 1),
];
#[rustfmt::skip]
const MODE_01111: &[Run] = &[
    f(0, 0, 0, 10), f(0, 1, 0, 10), f(0, 2, 0, 10), f(1, 0, 0, 4), r(0, 0, 10, 6), f(1, 1, 0, 4),
    r(0, 1, 10, 6), f(1, 2, 0, 4), r(0, 2, 10, 6),
];
#[rustfmt::skip]
const MODE_10010: &[Run] = &[
    f(0, 0, 0, 8), f(3, 1, 4, 1), f(2, 2, 4, 1), f(0, 1, 0, 8), f(3, 2, 2, 1), f(2, 1, 4, 1),
    f(0, 2, 0, 8), f(3, 2, 3, 1), f(3, 2, 4, 1), f(1, 0, 0, 6), f(2, 1, 0, 4), f(1, 1, 0, 5),
    f(3, 2, 0, 1), f(3, 1, 0, 4), f(1, 2, 0, 5), f(3, 2, 1, 1), f(2, 2, 0, 4), f(2, 0, 0, 6),
    f(3, 0, 0, 6),
];
#[rustfmt::skip]
const MODE_10110: &[Run] = &[
    f(0, 0, 0, 8), f(3, 2, 0, 1), f(2, 2, 4, 1), f(0, 1, 0, 8), f(2, 1, 5, 1), f(2, 1, 4, 1),
    f(0, 2, 0, 8), f(3, 1, 5, 1), f(3, 2, 4, 1), f(1, 0, 0, 5), f(3, 1, 4, 1), f(2, 1, 0, 4),
    f(1, 1, 0, 6), f(3, 1, 0, 4), f(1, 2, 0, 5), f(3, 2, 1, 1), f(2, 2, 0, 4), f(2, 0, 0, 5),
    f(3, 2, 2, 1), f(3, 0, 0, 5), f(3, 2, 3, 1),
];
#[rustfmt::skip]
const MODE_11010: &[Run] = &[
    f(0, 0, 0, 8), f(3, 2, 1, 1), f(2, 2, 4, 1), f(0, 1, 0, 8), f(2, 2, 5, 1), f(2, 1, 4, 1),
    f(0, 2, 0, 8), f(3, 2, 5, 1), f(3, 2, 4, 1), f(1, 0, 0, 5), f(3, 1, 4, 1), f(2, 1, 0, 4),
    f(1, 1, 0, 5), f(3, 2, 0, 1), f(3, 1, 0, 4), f(1, 2, 0, 6), f(2, 2, 0, 4), f(2, 0, 0, 5),
    f(3, 2, 2, 1), f(3, 0, 0, 5), f(3, 2, 3, 1),
];
#[rustfmt::skip]
const MODE_11110: &[Run] = &[
    f(0, 0, 0, 6), f(3, 1, 4, 1), f(3, 2, 0, 1), f(3, 2, 1, 1), f(2, 2, 4, 1), f(0, 1, 0, 6),
    f(2, 1, 5, 1), f(2, 2, 5, 1), f(3, 2, 2, 1), f(2, 1, 4, 1), f(0, 2, 0, 6), f(3, 1, 5, 1),
    f(3, 2, 3, 1), f(3, 2, 5, 1), f(3, 2, 4, 1), f(1, 0, 0, 6), f(2, 1, 0, 4), f(1, 1, 0, 6),
    f(3, 1, 0, 4), f(1, 2, 0, 6), f(2, 2, 0, 4), f(2, 0, 0, 6), f(3, 0, 0, 6),
];

const fn m6(
    two_regions: bool,
    transformed: bool,
    endpoint_bits: u32,
    delta_bits: [u32; 3],
    runs: &'static [Run],
) -> Option<Bc6Mode> {
    Some(Bc6Mode {
        two_regions,
        transformed,
        endpoint_bits,
        delta_bits,
        runs,
    })
}

/// The modes by number: `0`, `1` (two mode bits) and `2 + (m >> 1 & !1 | m & 1)` for the
/// five-bit modes `m` (bit 1 set); `None` for the reserved ones.
const BC6_MODES: [Option<Bc6Mode>; 18] = [
    m6(true, true, 10, [5, 5, 5], MODE_00),
    m6(true, true, 7, [6, 6, 6], MODE_01),
    m6(true, true, 11, [5, 4, 4], MODE_00010),
    m6(false, false, 10, [10, 10, 10], MODE_00011),
    m6(true, true, 11, [4, 5, 4], MODE_00110),
    m6(false, true, 11, [9, 9, 9], MODE_00111),
    m6(true, true, 11, [4, 4, 5], MODE_01010),
    m6(false, true, 12, [8, 8, 8], MODE_01011),
    m6(true, true, 9, [5, 5, 5], MODE_01110),
    m6(false, true, 16, [4, 4, 4], MODE_01111),
    m6(true, true, 8, [6, 5, 5], MODE_10010),
    None,
    m6(true, true, 8, [5, 6, 5], MODE_10110),
    None,
    m6(true, true, 8, [5, 5, 6], MODE_11010),
    None,
    m6(true, false, 6, [6, 6, 6], MODE_11110),
    None,
];

fn sign_extend(v: i32, bits: u32) -> i32 {
    let shift = 32 - bits;
    (v << shift) >> shift
}

/// An endpoint of `bits` as the 16-bit value the spec interpolates.
fn unquantize(v: i32, bits: u32, signed: bool) -> i32 {
    if signed {
        if bits >= 16 || v == 0 {
            return v;
        }
        let magnitude = v.abs();
        let q = if magnitude >= (1 << (bits - 1)) - 1 {
            0x7FFF
        } else {
            ((magnitude << 15) + 0x4000) >> (bits - 1)
        };
        if v < 0 {
            -q
        } else {
            q
        }
    } else if bits >= 15 || v == 0 {
        v
    } else if v == (1 << bits) - 1 {
        0xFFFF
    } else {
        ((v << 15) + 0x4000) >> (bits - 1)
    }
}

/// An interpolated value as a half float's bits.
fn to_half(v: i32, signed: bool) -> u16 {
    if !signed {
        (v * 31 / 64) as u16
    } else if v < 0 {
        ((-v * 31 / 32) | 0x8000) as u16
    } else {
        (v * 31 / 32) as u16
    }
}

/// The endpoints (`[endpoint][channel]`, unquantized) of a BC6H block in `mode`, and the bit
/// where the partition number follows them.
fn bc6_endpoints(mode: &Bc6Mode, block: u128, mut at: u32, signed: bool) -> ([[i32; 3]; 4], u32) {
    let mut e = [[0i32; 3]; 4];
    for run in mode.runs {
        let n = u32::from(run.count);
        let mut v = field(block, at, n);
        at += n;
        if run.reversed {
            v = v.reverse_bits() >> (32 - n);
        }
        e[usize::from(run.endpoint)][usize::from(run.channel)] |= (v << run.lsb) as i32;
    }
    let count = if mode.two_regions { 4 } else { 2 };
    let mask = (1i32 << mode.endpoint_bits) - 1;
    if mode.transformed {
        let base = e[0];
        for ep in e.iter_mut().take(count).skip(1) {
            for (c, v) in ep.iter_mut().enumerate() {
                *v = (base[c] + sign_extend(*v, mode.delta_bits[c])) & mask;
            }
        }
    }
    for ep in e.iter_mut().take(count) {
        for v in ep.iter_mut() {
            let raw = if signed {
                sign_extend(*v, mode.endpoint_bits)
            } else {
                *v
            };
            *v = unquantize(raw, mode.endpoint_bits, signed);
        }
    }
    (e, at)
}

/// A BC6H block (16 bytes) as RGBA half floats (alpha 1.0).
pub(crate) fn bc6h(block: &[u8], signed: bool) -> Block<[u16; 4]> {
    const ONE: u16 = 0x3C00;
    let bits = block_bits(block);
    let (number, at) = if bits & 2 == 0 {
        ((bits & 1) as usize, 2)
    } else {
        let m = bits as usize & 0x1F;
        (2 + ((m >> 1 & 0xE) | (m & 1)), 5)
    };
    let Some(mode) = &BC6_MODES[number] else {
        return [[0, 0, 0, ONE]; 16];
    };
    let (ends, mut at) = bc6_endpoints(mode, bits, at, signed);
    let partition = if mode.two_regions {
        let shape = field(bits, at, 5) as usize;
        at += 5;
        Partition { subsets: 2, shape }
    } else {
        Partition {
            subsets: 1,
            shape: 0,
        }
    };
    let index_bits = if mode.two_regions { 3 } else { 4 };
    let indices = partition.indices(bits, &mut at, index_bits);
    std::array::from_fn(|texel| {
        let s = partition.subset(texel);
        let (e0, e1) = (ends[2 * s], ends[2 * s + 1]);
        let c = |c: usize| {
            to_half(
                interpolate(e0[c], e1[c], index_bits, indices[texel]),
                signed,
            )
        };
        [c(0), c(1), c(2), ONE]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes `value` (`n` bits) at bit `*at` of `block` and advances.
    fn put(block: &mut u128, at: &mut u32, n: u32, value: u32) {
        *block |= (u128::from(value) & ((1u128 << n) - 1)) << *at;
        *at += n;
    }

    #[test]
    fn bc7_mode_6_interpolates_with_four_bit_indices() {
        // Mode 6: one subset, 7-bit RGBA endpoints with a p-bit each, 4-bit indices.
        let mut b = 0u128;
        let mut at = 0;
        put(&mut b, &mut at, 7, 1 << 6);
        for (e0, e1) in [(0, 127), (0, 127), (0, 127), (127, 127)] {
            put(&mut b, &mut at, 7, e0);
            put(&mut b, &mut at, 7, e1);
        }
        put(&mut b, &mut at, 2, 0b10); // p-bits: endpoint 0 → 0, endpoint 1 → 1
        put(&mut b, &mut at, 3, 0); // texel 0 (anchor): index 0
        for texel in 1..16 {
            put(&mut b, &mut at, 4, texel);
        }
        assert_eq!(at, 128);
        let out = bc7(&b.to_le_bytes());
        // Endpoints: 0 (7 bits 0, p 0) and 255 (7 bits 127, p 1); alpha 254 and 255.
        assert_eq!(out[0], [0, 0, 0, 254]);
        assert_eq!(out[15], [255, 255, 255, 255]);
        // Index 8, weight 34: (30 · 0 + 34 · 255 + 32) >> 6 = 135.
        assert_eq!(out[8], [135, 135, 135, 255]);
    }

    #[test]
    fn bc7_mode_1_uses_partitions_and_shared_p_bits() {
        // Mode 1, partition 0 (texels of columns 2–3 in subset 1), 6-bit endpoints.
        let mut b = 0u128;
        let mut at = 0;
        put(&mut b, &mut at, 2, 0b10);
        put(&mut b, &mut at, 6, 0);
        // Subset 0: red 0 → 63, subset 1: blue 63 → 63; everything else 0.
        let ends = [[0, 63, 0, 0], [0, 0, 0, 0], [0, 0, 63, 63]];
        for channel in ends {
            for v in channel {
                put(&mut b, &mut at, 6, v);
            }
        }
        put(&mut b, &mut at, 2, 0b11); // shared p-bits 1, 1
        for texel in 0..16 {
            let anchor = texel == 0 || texel == 15;
            put(&mut b, &mut at, if anchor { 2 } else { 3 }, 0);
        }
        assert_eq!(at, 128);
        let out = bc7(&b.to_le_bytes());
        // Endpoint 0 of subset 0: red (0 << 1 | 1) expanded from 7 bits = 2.
        assert_eq!(out[0], [2, 2, 2, 255]);
        // Texel 2 is in subset 1: blue 63 << 1 | 1 = 127 → 255.
        assert_eq!(out[2], [2, 2, 255, 255]);
    }

    #[test]
    fn bc7_reserved_mode_is_transparent_black() {
        assert_eq!(bc7(&[0; 16]), [[0; 4]; 16]);
    }

    #[test]
    fn bc7_mode_4_selection_bit_swaps_colour_and_alpha_indices() {
        // Mode 4, rotation 0, selection 1: colour takes the 3-bit indices.
        let mut b = 0u128;
        let mut at = 0;
        put(&mut b, &mut at, 5, 1 << 4);
        put(&mut b, &mut at, 2, 0);
        put(&mut b, &mut at, 1, 1);
        for _ in 0..3 {
            put(&mut b, &mut at, 5, 0);
            put(&mut b, &mut at, 5, 31);
        }
        put(&mut b, &mut at, 6, 0);
        put(&mut b, &mut at, 6, 63);
        put(&mut b, &mut at, 1, 0); // texel 0 2-bit index (anchor: 1 bit)
        for _ in 1..16 {
            put(&mut b, &mut at, 2, 3);
        }
        put(&mut b, &mut at, 2, 0); // texel 0 3-bit index (anchor: 2 bits)
        for _ in 1..16 {
            put(&mut b, &mut at, 3, 4);
        }
        assert_eq!(at, 128);
        let out = bc7(&b.to_le_bytes());
        // Colour index 4 of 3 bits (weight 37): (27 · 0 + 37 · 255 + 32) >> 6 = 147; alpha
        // index 3 of 2 bits: 255.
        assert_eq!(out[1], [147, 147, 147, 255]);
        assert_eq!(out[0], [0, 0, 0, 0]);
    }

    #[test]
    fn bc6h_mode_00011_is_ten_bit_endpoints_and_four_bit_indices() {
        // Unsigned: endpoint 0 all 0, endpoint 1 all 1023 (the maximum: 0xFFFF).
        let mut b = 0u128;
        let mut at = 0;
        put(&mut b, &mut at, 5, 0b00011);
        for v in [0, 0, 0, 1023, 1023, 1023] {
            put(&mut b, &mut at, 10, v);
        }
        put(&mut b, &mut at, 3, 0);
        for _ in 1..16 {
            put(&mut b, &mut at, 4, 15);
        }
        assert_eq!(at, 128);
        let out = bc6h(&b.to_le_bytes(), false);
        assert_eq!(out[0], [0, 0, 0, 0x3C00]);
        // 0xFFFF · 31 / 64 = 0x7BFF, the largest finite half.
        assert_eq!(out[1], [0x7BFF, 0x7BFF, 0x7BFF, 0x3C00]);
    }

    #[test]
    fn bc6h_signed_endpoints_keep_their_sign() {
        let mut b = 0u128;
        let mut at = 0;
        put(&mut b, &mut at, 5, 0b00011);
        // Endpoint 0: -1 in 10 bits (0x3FF); endpoint 1: +511 (the maximum: 0x7FFF).
        for v in [0x3FF, 0x3FF, 0x3FF, 511, 511, 511] {
            put(&mut b, &mut at, 10, v);
        }
        put(&mut b, &mut at, 3, 0);
        for _ in 1..16 {
            put(&mut b, &mut at, 4, 15);
        }
        let out = bc6h(&b.to_le_bytes(), true);
        // -1 → -((1 << 15) + 0x4000) >> 9 = -96; · 31 / 32 = 93, signed.
        assert_eq!(out[0][0], 0x8000 | 93);
        assert_eq!(out[1][0], (0x7FFF * 31 / 32) as u16);
    }

    #[test]
    fn bc6h_reserved_modes_are_opaque_black() {
        let out = bc6h(
            &[0b10011, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            false,
        );
        assert_eq!(out, [[0, 0, 0, 0x3C00]; 16]);
    }

    #[test]
    fn bc6h_transformed_endpoints_are_deltas_from_endpoint_0() {
        // Mode 00111 (11-bit endpoint 0, 9-bit deltas): e0 red = 100, delta -1 → e1 red = 99.
        let mut b = 0u128;
        let mut at = 0;
        put(&mut b, &mut at, 5, 0b00111);
        put(&mut b, &mut at, 10, 100); // r0
        put(&mut b, &mut at, 10, 0); // g0
        put(&mut b, &mut at, 10, 0); // b0
        put(&mut b, &mut at, 9, 0x1FF); // r1: delta -1
        put(&mut b, &mut at, 1, 0); // r0 bit 10
        put(&mut b, &mut at, 9, 0); // g1
        put(&mut b, &mut at, 1, 0); // g0 bit 10
        put(&mut b, &mut at, 9, 0); // b1
        put(&mut b, &mut at, 1, 0); // b0 bit 10
        assert_eq!(at, 65);
        put(&mut b, &mut at, 3, 0);
        for _ in 1..16 {
            put(&mut b, &mut at, 4, 15);
        }
        let out = bc6h(&b.to_le_bytes(), false);
        let q = |v: i32| to_half(unquantize(v, 11, false), false);
        assert_eq!(out[0][0], q(100));
        assert_eq!(out[1][0], q(99));
    }
}
