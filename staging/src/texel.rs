//! Device texel formats beyond 8-bit colour: how a canonical RGBA value is stored in (and read
//! back from) the bytes of one texel of a float, integer, snorm, 16-bit or packed format.
//!
//! Design decisions:
//! - Canonical values are `[f64; 4]` (R, G, B, A): exact for every 32-bit integer and every
//!   `f32`, so one type carries both the normalised/float path and the integer path; which one
//!   applies is a property of the format ([`TexelKind`]), never guessed from the values.
//! - Array formats (components in R, G, B, A order, each 1, 2 or 4 bytes, host byte order as
//!   Vulkan reads a buffer) cover almost every format; the few packed ones Vulkan names
//!   (`A2B10G10R10`, `B10G11R11_UFLOAT`, `E5B9G9R9_UFLOAT`, BGRA8) are explicit variants.
//! - Storing follows GL's conversion to the internal format (GL 4.6 §8.4.4.4, §2.3.5): unorm
//!   clamps to [0, 1] and rounds `v × (2^b − 1)`; snorm clamps to [−1, 1] and rounds
//!   `v × (2^(b−1) − 1)`; integers are clamped to the component's range; NaN becomes 0 in
//!   fixed-point formats.
//! - Reading back returns missing components as 0 (G, B) and 1 (A), GL's "conversion to RGBA".

use crate::packed_float::{
    f16_to_f32, f32_to_f16, pack_r11g11b10, pack_rgb9e5, unpack_r11g11b10, unpack_rgb9e5,
};

/// How a component's bits are interpreted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TexelKind {
    /// Unsigned normalised fixed point.
    Unorm,
    /// Signed normalised fixed point.
    Snorm,
    /// IEEE float (2 bytes: half, 4 bytes: single).
    Float,
    /// Unsigned integer.
    UInt,
    /// Signed integer.
    SInt,
}

impl TexelKind {
    /// Whether the format holds (unnormalised) integers.
    pub const fn is_integer(self) -> bool {
        matches!(self, Self::UInt | Self::SInt)
    }
}

/// One device texel format the general conversion path writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TexelFormat {
    /// `comps` components (R, G, B, A order) of `bytes` bytes each (1, 2 or 4).
    Array {
        /// Components, 1 to 4.
        comps: u8,
        /// Bytes per component: 1, 2 or 4.
        bytes: u8,
        /// Their interpretation.
        kind: TexelKind,
    },
    /// `VK_FORMAT_B8G8R8A8_UNORM`.
    Bgra8Unorm,
    /// `VK_FORMAT_A2B10G10R10_UNORM_PACK32` (`integer: false`) or `_UINT_PACK32`.
    Rgb10A2 {
        /// `_UINT` rather than `_UNORM`.
        integer: bool,
    },
    /// `VK_FORMAT_B10G11R11_UFLOAT_PACK32`.
    Rg11B10Float,
    /// `VK_FORMAT_E5B9G9R9_UFLOAT_PACK32`.
    Rgb9E5,
}

impl TexelFormat {
    /// Bytes per texel.
    pub const fn texel_bytes(self) -> u32 {
        match self {
            Self::Array { comps, bytes, .. } => comps as u32 * bytes as u32,
            _ => 4,
        }
    }

    /// Whether the format holds integers (`GL_*_INTEGER` client data only).
    pub const fn is_integer(self) -> bool {
        match self {
            Self::Array { kind, .. } => kind.is_integer(),
            Self::Rgb10A2 { integer } => integer,
            _ => false,
        }
    }

    /// Writes canonical RGBA `v` as one texel into `out` (at least [`Self::texel_bytes`] long).
    pub fn encode(self, v: [f64; 4], out: &mut [u8]) {
        match self {
            Self::Array { comps, bytes, kind } => {
                let b = usize::from(bytes);
                for (c, chunk) in out.chunks_exact_mut(b).take(usize::from(comps)).enumerate() {
                    encode_component(v[c], bytes, kind, chunk);
                }
            }
            Self::Bgra8Unorm => {
                for (i, c) in [2, 1, 0, 3].into_iter().enumerate() {
                    if let Some(o) = out.get_mut(i) {
                        *o = unorm(v[c], 8) as u8;
                    }
                }
            }
            Self::Rgb10A2 { integer } => {
                let q = |x: f64, bits: u32| {
                    if integer {
                        clamp_int(x, 0.0, f64::from((1u32 << bits) - 1)) as u32
                    } else {
                        unorm(x, bits) as u32
                    }
                };
                let w =
                    q(v[0], 10) | (q(v[1], 10) << 10) | (q(v[2], 10) << 20) | (q(v[3], 2) << 30);
                put(out, &w.to_ne_bytes());
            }
            Self::Rg11B10Float => {
                let w = pack_r11g11b10([v[0] as f32, v[1] as f32, v[2] as f32]);
                put(out, &w.to_ne_bytes());
            }
            Self::Rgb9E5 => {
                let w = pack_rgb9e5([v[0] as f32, v[1] as f32, v[2] as f32]);
                put(out, &w.to_ne_bytes());
            }
        }
    }

    /// Reads one texel as canonical RGBA (missing G, B = 0, A = 1).
    pub fn decode(self, texel: &[u8]) -> [f64; 4] {
        let mut v = [0.0, 0.0, 0.0, 1.0];
        let word = || {
            let mut w = [0u8; 4];
            put(&mut w, texel);
            u32::from_ne_bytes(w)
        };
        match self {
            Self::Array { comps, bytes, kind } => {
                let b = usize::from(bytes);
                for (c, chunk) in texel.chunks_exact(b).take(usize::from(comps)).enumerate() {
                    v[c] = decode_component(chunk, kind);
                }
            }
            Self::Bgra8Unorm => {
                for (i, c) in [2, 1, 0, 3].into_iter().enumerate() {
                    v[c] = f64::from(texel.get(i).copied().unwrap_or(0)) / 255.0;
                }
            }
            Self::Rgb10A2 { integer } => {
                let w = word();
                let parts = [w & 0x3FF, (w >> 10) & 0x3FF, (w >> 20) & 0x3FF, w >> 30];
                for (c, (p, max)) in parts
                    .into_iter()
                    .zip([1023.0, 1023.0, 1023.0, 3.0])
                    .enumerate()
                {
                    v[c] = if integer {
                        f64::from(p)
                    } else {
                        f64::from(p) / max
                    };
                }
            }
            Self::Rg11B10Float => {
                let [r, g, b] = unpack_r11g11b10(word());
                v[..3].copy_from_slice(&[r.into(), g.into(), b.into()]);
            }
            Self::Rgb9E5 => {
                let [r, g, b] = unpack_rgb9e5(word());
                v[..3].copy_from_slice(&[r.into(), g.into(), b.into()]);
            }
        }
        v
    }
}

fn put(out: &mut [u8], bytes: &[u8]) {
    for (o, b) in out.iter_mut().zip(bytes) {
        *o = *b;
    }
}

/// Unorm quantisation of `x` to `bits` bits.
pub(crate) fn unorm(x: f64, bits: u32) -> u64 {
    let max = ((1u64 << bits) - 1) as f64;
    let x = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    (x * max).round() as u64
}

/// Snorm quantisation of `x` to `bits` bits (as a signed value).
pub(crate) fn snorm(x: f64, bits: u32) -> i64 {
    let max = ((1u64 << (bits - 1)) - 1) as f64;
    let x = if x.is_nan() { 0.0 } else { x.clamp(-1.0, 1.0) };
    (x * max).round() as i64
}

fn clamp_int(x: f64, lo: f64, hi: f64) -> f64 {
    if x.is_nan() {
        0.0
    } else {
        x.clamp(lo, hi).trunc()
    }
}

fn encode_component(x: f64, bytes: u8, kind: TexelKind, out: &mut [u8]) {
    let bits = u32::from(bytes) * 8;
    let int = match (kind, bytes) {
        (TexelKind::Float, 2) => return put(out, &f32_to_f16(x as f32).to_ne_bytes()),
        (TexelKind::Float, _) => return put(out, &(x as f32).to_ne_bytes()),
        (TexelKind::Unorm, _) => unorm(x, bits),
        (TexelKind::Snorm, _) => snorm(x, bits) as u64,
        (TexelKind::UInt, _) => clamp_int(x, 0.0, ((1u64 << bits) - 1) as f64) as u64,
        (TexelKind::SInt, _) => {
            let half = (1u64 << (bits - 1)) as f64;
            clamp_int(x, -half, half - 1.0) as i64 as u64
        }
    };
    put_int(out, int, usize::from(bytes));
}

/// The low `n` bytes of `v` in host byte order.
pub(crate) fn put_int(out: &mut [u8], v: u64, n: usize) {
    if cfg!(target_endian = "little") {
        put(out, &v.to_le_bytes()[..n]);
    } else {
        put(out, &v.to_be_bytes()[8 - n..]);
    }
}

fn decode_component(b: &[u8], kind: TexelKind) -> f64 {
    let raw = |signed: bool| -> f64 {
        match (b.len(), signed) {
            (1, false) => f64::from(b[0]),
            (1, true) => f64::from(b[0] as i8),
            (2, false) => f64::from(u16::from_ne_bytes([b[0], b[1]])),
            (2, true) => f64::from(i16::from_ne_bytes([b[0], b[1]])),
            (4, false) => f64::from(u32::from_ne_bytes([b[0], b[1], b[2], b[3]])),
            (4, true) => f64::from(i32::from_ne_bytes([b[0], b[1], b[2], b[3]])),
            _ => 0.0,
        }
    };
    let bits = b.len() as u32 * 8;
    match kind {
        TexelKind::Float if b.len() == 2 => f64::from(f16_to_f32(u16::from_ne_bytes([b[0], b[1]]))),
        TexelKind::Float => f64::from(f32::from_ne_bytes([b[0], b[1], b[2], b[3]])),
        TexelKind::Unorm => raw(false) / ((1u64 << bits) - 1) as f64,
        TexelKind::Snorm => (raw(true) / ((1u64 << (bits - 1)) - 1) as f64).max(-1.0),
        TexelKind::UInt => raw(false),
        TexelKind::SInt => raw(true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(comps: u8, bytes: u8, kind: TexelKind) -> TexelFormat {
        TexelFormat::Array { comps, bytes, kind }
    }

    #[test]
    fn every_8_and_16_bit_fixed_point_value_round_trips() {
        for kind in [
            TexelKind::Unorm,
            TexelKind::Snorm,
            TexelKind::UInt,
            TexelKind::SInt,
        ] {
            let f = a(1, 1, kind);
            for b in 0..=255u8 {
                let v = f.decode(&[b]);
                let mut out = [0u8];
                f.encode(v, &mut out);
                // Snorm −128 and −127 both mean −1.0; −1.0 stores as −127.
                let expect = if kind == TexelKind::Snorm && b == 0x80 {
                    0x81
                } else {
                    b
                };
                assert_eq!(out[0], expect, "{kind:?} {b}");
            }
            let f = a(1, 2, kind);
            for h in (0..=u16::MAX).step_by(7) {
                let bytes = h.to_ne_bytes();
                let mut out = [0u8; 2];
                f.encode(f.decode(&bytes), &mut out);
                let expect = if kind == TexelKind::Snorm && h == 0x8000 {
                    0x8001
                } else {
                    h
                };
                assert_eq!(u16::from_ne_bytes(out), expect, "{kind:?} {h}");
            }
        }
    }

    #[test]
    fn storing_clamps_rounds_and_fills_missing_components() {
        let mut out = [0u8; 4];
        a(4, 1, TexelKind::Unorm).encode([0.5, 2.0, -1.0, f64::NAN], &mut out);
        assert_eq!(out, [128, 255, 0, 0]);
        a(2, 1, TexelKind::Snorm).encode([-2.0, 0.5, 0.0, 0.0], &mut out[..2]);
        assert_eq!(&out[..2], &[0x81, 64]);
        let mut w = [0u8; 4];
        a(2, 2, TexelKind::SInt).encode([-40000.0, 70000.0, 0.0, 0.0], &mut w);
        assert_eq!(w[..2], (-32768i16).to_ne_bytes());
        assert_eq!(w[2..], 32767i16.to_ne_bytes());
        assert_eq!(
            a(1, 1, TexelKind::Unorm).decode(&[255]),
            [1.0, 0.0, 0.0, 1.0]
        );
        let mut h = [0u8; 2];
        a(1, 2, TexelKind::Float).encode([0.5, 0.0, 0.0, 0.0], &mut h);
        assert_eq!(u16::from_ne_bytes(h), 0x3800);
    }

    #[test]
    fn packed_formats_place_red_in_the_low_bits() {
        let mut w = [0u8; 4];
        TexelFormat::Rgb10A2 { integer: false }.encode([1.0, 0.0, 0.0, 1.0], &mut w);
        assert_eq!(u32::from_ne_bytes(w), 0x3FF | (3 << 30));
        TexelFormat::Rgb10A2 { integer: true }.encode([5.0, 6.0, 7.0, 2.0], &mut w);
        assert_eq!(u32::from_ne_bytes(w), 5 | (6 << 10) | (7 << 20) | (2 << 30));
        assert_eq!(
            TexelFormat::Rgb10A2 { integer: true }.decode(&w),
            [5.0, 6.0, 7.0, 2.0]
        );
        TexelFormat::Rg11B10Float.encode([1.0, 2.0, 0.5, 0.0], &mut w);
        assert_eq!(TexelFormat::Rg11B10Float.decode(&w), [1.0, 2.0, 0.5, 1.0]);
        TexelFormat::Bgra8Unorm.encode([1.0, 0.0, 0.0, 1.0], &mut w);
        assert_eq!(w, [0, 0, 255, 255]);
    }
}
