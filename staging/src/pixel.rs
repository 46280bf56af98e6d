//! The general pixel-transfer path: every GL client `(format, type)` pair, decoded to canonical
//! RGBA and stored into a device [`TexelFormat`] (uploads), or read from one and encoded back
//! (readbacks).
//!
//! Design decisions:
//! - Used for what the byte tables of `format.rs`/`convert.rs` do not cover: 16/32-bit, signed,
//!   float and packed client types, `GL_*_INTEGER` formats, and every device format that is not
//!   8-bit unorm. It is a per-pixel loop through `[f64; 4]` — slower than the byte shuffles,
//!   which is why the 8-bit path stays separate.
//! - [`ClientPixel::from_gl`] is the one place a pair is classified. It answers
//!   [`PairError::Enum`] for names the GL does not know and [`PairError::Operation`] for known
//!   names that do not go together (a packed type with the wrong component count, an integer
//!   format with a float type), the two errors the GL distinguishes.
//! - Conversion to RGBA follows GL 4.6 §8.4.4 exactly: normalised types map to [0, 1] or
//!   [−1, 1] (`c / (2^b − 1)`, `max(c / (2^(b−1) − 1), −1)`), float types pass through, integer
//!   formats keep their integer values; missing R, G, B become 0 and missing A becomes 1;
//!   luminance L becomes (L, L, L). Packed types take their fields from the most significant
//!   bits first (or the least significant for `_REV`) and give them to the format's components
//!   in order.
//! - Readback encodes the other way: a value is clamped to the client type's range (normalised
//!   types round `v × max`); luminance reads R.
//! - `GL_*_SWAP_BYTES` swaps the bytes of each element (a component, or a whole packed word).

use crate::error::StagingError;
use crate::format::Channel;
use crate::packed_float::{
    f16_to_f32, f32_to_f16, pack_r11g11b10, pack_rgb9e5, unpack_r11g11b10, unpack_rgb9e5,
};
use crate::region::Extent3d;
use crate::texel::{put_int, snorm, unorm, TexelFormat};
use crate::unpack::{ClientLayout, PixelStore, Region};

/// GL names of the client formats and types this module reads.
#[allow(missing_docs)]
pub mod gl {
    pub const RED: u32 = 0x1903;
    pub const GREEN: u32 = 0x1904;
    pub const BLUE: u32 = 0x1905;
    pub const ALPHA: u32 = 0x1906;
    pub const RGB: u32 = 0x1907;
    pub const RGBA: u32 = 0x1908;
    pub const LUMINANCE: u32 = 0x1909;
    pub const LUMINANCE_ALPHA: u32 = 0x190A;
    pub const RG: u32 = 0x8227;
    pub const BGR: u32 = 0x80E0;
    pub const BGRA: u32 = 0x80E1;
    pub const RED_INTEGER: u32 = 0x8D94;
    pub const GREEN_INTEGER: u32 = 0x8D95;
    pub const BLUE_INTEGER: u32 = 0x8D96;
    pub const ALPHA_INTEGER: u32 = 0x8D97;
    pub const RGB_INTEGER: u32 = 0x8D98;
    pub const RGBA_INTEGER: u32 = 0x8D99;
    pub const BGR_INTEGER: u32 = 0x8D9A;
    pub const BGRA_INTEGER: u32 = 0x8D9B;
    pub const LUMINANCE_INTEGER: u32 = 0x8D9C;
    pub const LUMINANCE_ALPHA_INTEGER: u32 = 0x8D9D;
    pub const RG_INTEGER: u32 = 0x8228;

    pub const BYTE: u32 = 0x1400;
    pub const UNSIGNED_BYTE: u32 = 0x1401;
    pub const SHORT: u32 = 0x1402;
    pub const UNSIGNED_SHORT: u32 = 0x1403;
    pub const INT: u32 = 0x1404;
    pub const UNSIGNED_INT: u32 = 0x1405;
    pub const FLOAT: u32 = 0x1406;
    pub const HALF_FLOAT: u32 = 0x140B;
    pub const UNSIGNED_BYTE_3_3_2: u32 = 0x8032;
    pub const UNSIGNED_SHORT_4_4_4_4: u32 = 0x8033;
    pub const UNSIGNED_SHORT_5_5_5_1: u32 = 0x8034;
    pub const UNSIGNED_INT_8_8_8_8: u32 = 0x8035;
    pub const UNSIGNED_INT_10_10_10_2: u32 = 0x8036;
    pub const UNSIGNED_BYTE_2_3_3_REV: u32 = 0x8362;
    pub const UNSIGNED_SHORT_5_6_5: u32 = 0x8363;
    pub const UNSIGNED_SHORT_5_6_5_REV: u32 = 0x8364;
    pub const UNSIGNED_SHORT_4_4_4_4_REV: u32 = 0x8365;
    pub const UNSIGNED_SHORT_1_5_5_5_REV: u32 = 0x8366;
    pub const UNSIGNED_INT_8_8_8_8_REV: u32 = 0x8367;
    pub const UNSIGNED_INT_2_10_10_10_REV: u32 = 0x8368;
    pub const UNSIGNED_INT_10F_11F_11F_REV: u32 = 0x8C3B;
    pub const UNSIGNED_INT_5_9_9_9_REV: u32 = 0x8C3E;
}

/// Why a `(format, type)` pair is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairError {
    /// The format or the type is not a client pixel name (`GL_INVALID_ENUM`).
    Enum,
    /// Both are known but do not go together (`GL_INVALID_OPERATION`).
    Operation,
}

/// The element type of a client pixel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClientType {
    /// One element per component: `GL_(UNSIGNED_)BYTE/SHORT/INT`, `GL_HALF_FLOAT`, `GL_FLOAT`.
    Scalar {
        /// Bytes per component.
        bytes: u8,
        /// Signed integer type.
        signed: bool,
        /// `GL_FLOAT` / `GL_HALF_FLOAT`.
        float: bool,
    },
    /// One packed word (`bytes` long) holding fields of `bits`, first field in the most
    /// significant bits (or the least significant with `rev`).
    Packed {
        /// Bytes in the word.
        bytes: u8,
        /// Field widths, first component first.
        bits: [u8; 4],
        /// `_REV`: the first component is in the least significant bits.
        rev: bool,
    },
    /// `GL_UNSIGNED_INT_10F_11F_11F_REV`.
    R11G11B10F,
    /// `GL_UNSIGNED_INT_5_9_9_9_REV`.
    Rgb9E5,
}

impl ClientType {
    fn from_gl(ty: u32) -> Option<Self> {
        let s = |bytes, signed, float| Self::Scalar {
            bytes,
            signed,
            float,
        };
        let p = |bytes, bits, rev| Self::Packed { bytes, bits, rev };
        Some(match ty {
            gl::UNSIGNED_BYTE => s(1, false, false),
            gl::BYTE => s(1, true, false),
            gl::UNSIGNED_SHORT => s(2, false, false),
            gl::SHORT => s(2, true, false),
            gl::UNSIGNED_INT => s(4, false, false),
            gl::INT => s(4, true, false),
            gl::HALF_FLOAT => s(2, true, true),
            gl::FLOAT => s(4, true, true),
            gl::UNSIGNED_BYTE_3_3_2 => p(1, [3, 3, 2, 0], false),
            gl::UNSIGNED_BYTE_2_3_3_REV => p(1, [3, 3, 2, 0], true),
            gl::UNSIGNED_SHORT_5_6_5 => p(2, [5, 6, 5, 0], false),
            gl::UNSIGNED_SHORT_5_6_5_REV => p(2, [5, 6, 5, 0], true),
            gl::UNSIGNED_SHORT_4_4_4_4 => p(2, [4, 4, 4, 4], false),
            gl::UNSIGNED_SHORT_4_4_4_4_REV => p(2, [4, 4, 4, 4], true),
            gl::UNSIGNED_SHORT_5_5_5_1 => p(2, [5, 5, 5, 1], false),
            gl::UNSIGNED_SHORT_1_5_5_5_REV => p(2, [5, 5, 5, 1], true),
            gl::UNSIGNED_INT_8_8_8_8 => p(4, [8, 8, 8, 8], false),
            gl::UNSIGNED_INT_8_8_8_8_REV => p(4, [8, 8, 8, 8], true),
            gl::UNSIGNED_INT_10_10_10_2 => p(4, [10, 10, 10, 2], false),
            gl::UNSIGNED_INT_2_10_10_10_REV => p(4, [10, 10, 10, 2], true),
            gl::UNSIGNED_INT_10F_11F_11F_REV => Self::R11G11B10F,
            gl::UNSIGNED_INT_5_9_9_9_REV => Self::Rgb9E5,
            _ => return None,
        })
    }

    /// Components a packed type holds (`None` for scalar types).
    fn packed_components(self) -> Option<usize> {
        match self {
            Self::Scalar { .. } => None,
            Self::Packed { bits, .. } => Some(bits.iter().filter(|&&b| b > 0).count()),
            Self::R11G11B10F | Self::Rgb9E5 => Some(3),
        }
    }

    fn is_float(self) -> bool {
        matches!(
            self,
            Self::Scalar { float: true, .. } | Self::R11G11B10F | Self::Rgb9E5
        )
    }
}

/// A classified client `(format, type)` pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClientPixel {
    channels: [Channel; 4],
    count: u8,
    integer: bool,
    ty: ClientType,
}

impl ClientPixel {
    /// Classifies a colour pair (`GL_DEPTH_*`/`GL_STENCIL_INDEX` are not colour pairs: `Enum`).
    ///
    /// # Errors
    /// [`PairError`]: which GL error the pair is.
    pub fn from_gl(format: u32, ty: u32) -> Result<Self, PairError> {
        use Channel::{A, B, G, L, R};
        let (channels, count, integer): ([Channel; 4], u8, bool) = match format {
            gl::RED => ([R; 4], 1, false),
            gl::GREEN => ([G; 4], 1, false),
            gl::BLUE => ([B; 4], 1, false),
            gl::ALPHA => ([A; 4], 1, false),
            gl::LUMINANCE => ([L; 4], 1, false),
            gl::LUMINANCE_ALPHA => ([L, A, A, A], 2, false),
            gl::RG => ([R, G, G, G], 2, false),
            gl::RGB => ([R, G, B, B], 3, false),
            gl::BGR => ([B, G, R, R], 3, false),
            gl::RGBA => ([R, G, B, A], 4, false),
            gl::BGRA => ([B, G, R, A], 4, false),
            gl::RED_INTEGER => ([R; 4], 1, true),
            gl::GREEN_INTEGER => ([G; 4], 1, true),
            gl::BLUE_INTEGER => ([B; 4], 1, true),
            gl::ALPHA_INTEGER => ([A; 4], 1, true),
            gl::LUMINANCE_INTEGER => ([L; 4], 1, true),
            gl::LUMINANCE_ALPHA_INTEGER => ([L, A, A, A], 2, true),
            gl::RG_INTEGER => ([R, G, G, G], 2, true),
            gl::RGB_INTEGER => ([R, G, B, B], 3, true),
            gl::BGR_INTEGER => ([B, G, R, R], 3, true),
            gl::RGBA_INTEGER => ([R, G, B, A], 4, true),
            gl::BGRA_INTEGER => ([B, G, R, A], 4, true),
            _ => return Err(PairError::Enum),
        };
        let ty = ClientType::from_gl(ty).ok_or(PairError::Enum)?;
        if let Some(n) = ty.packed_components() {
            // GL 4.6 table 8.5: a packed type needs a format with its component count; the
            // float packed types only GL_RGB.
            let ok = n == usize::from(count)
                && (matches!(ty, ClientType::Packed { .. }) || format == gl::RGB)
                && !matches!(
                    format,
                    gl::LUMINANCE_ALPHA | gl::LUMINANCE_ALPHA_INTEGER | gl::RG | gl::RG_INTEGER
                );
            if !ok {
                return Err(PairError::Operation);
            }
        }
        if integer && ty.is_float() {
            return Err(PairError::Operation);
        }
        Ok(Self {
            channels,
            count,
            integer,
            ty,
        })
    }

    /// Whether the format has a luminance component (`GL_LUMINANCE`, `GL_LUMINANCE_ALPHA` and
    /// their integer forms), which [`ClientPixel::encode`] writes as R + G + B.
    pub fn has_luminance(&self) -> bool {
        self.channels[..usize::from(self.count)].contains(&Channel::L)
    }

    /// Whether the format is a `GL_*_INTEGER` one (integer textures need exactly these).
    pub const fn is_integer(&self) -> bool {
        self.integer
    }

    /// `s`, bytes per element (a component, or a packed word).
    pub const fn element_bytes(&self) -> u32 {
        match self.ty {
            ClientType::Scalar { bytes, .. } | ClientType::Packed { bytes, .. } => bytes as u32,
            ClientType::R11G11B10F | ClientType::Rgb9E5 => 4,
        }
    }

    /// `n`, elements per pixel.
    pub const fn elements_per_group(&self) -> u32 {
        match self.ty {
            ClientType::Scalar { .. } => self.count as u32,
            _ => 1,
        }
    }

    /// Bytes per pixel.
    pub const fn group_bytes(&self) -> u32 {
        self.element_bytes() * self.elements_per_group()
    }

    /// The client layout of `region` under `store` for these pixels.
    ///
    /// # Errors
    /// [`StagingError::Overflow`] as [`ClientLayout::new`].
    pub fn layout(&self, store: &PixelStore, region: Region) -> Result<ClientLayout, StagingError> {
        ClientLayout::with_elements(
            store,
            region,
            self.elements_per_group(),
            self.element_bytes(),
        )
    }

    /// The components of one pixel as stored (before conversion to RGBA), in format order.
    fn components(&self, px: &[u8], swap: bool) -> [f64; 4] {
        let mut out = [0.0; 4];
        let n = usize::from(self.count);
        let word = |bytes: usize| -> u32 {
            let mut b = [0u8; 4];
            for (d, s) in b.iter_mut().zip(px.iter().take(bytes)) {
                *d = *s;
            }
            if swap {
                b[..bytes].reverse();
            }
            if cfg!(target_endian = "little") {
                u32::from_le_bytes(b)
            } else {
                u32::from_be_bytes(b) >> (8 * (4 - bytes))
            }
        };
        match self.ty {
            ClientType::Scalar {
                bytes,
                signed,
                float,
            } => {
                let b = usize::from(bytes);
                for (c, o) in out.iter_mut().enumerate().take(n) {
                    let mut e = [0u8; 4];
                    for (d, s) in e.iter_mut().zip(px.iter().skip(c * b).take(b)) {
                        *d = *s;
                    }
                    if swap {
                        e[..b].reverse();
                    }
                    let e = &e[..b];
                    *o = match (b, signed, float) {
                        (2, _, true) => f64::from(f16_to_f32(u16::from_ne_bytes([e[0], e[1]]))),
                        (4, _, true) => f64::from(f32::from_ne_bytes([e[0], e[1], e[2], e[3]])),
                        (1, false, _) => f64::from(e[0]),
                        (1, true, _) => f64::from(e[0] as i8),
                        (2, false, _) => f64::from(u16::from_ne_bytes([e[0], e[1]])),
                        (2, true, _) => f64::from(i16::from_ne_bytes([e[0], e[1]])),
                        (4, false, _) => f64::from(u32::from_ne_bytes([e[0], e[1], e[2], e[3]])),
                        _ => f64::from(i32::from_ne_bytes([e[0], e[1], e[2], e[3]])),
                    };
                    if !float && !self.integer {
                        let bits = u32::from(bytes) * 8;
                        *o = if signed {
                            (*o / ((1u64 << (bits - 1)) - 1) as f64).max(-1.0)
                        } else {
                            *o / ((1u64 << bits) - 1) as f64
                        };
                    }
                }
            }
            ClientType::Packed { bytes, bits, rev } => {
                let w = word(usize::from(bytes));
                let total: u32 = bits.iter().map(|&b| u32::from(b)).sum();
                let mut shift = if rev { 0 } else { total };
                for (c, o) in out.iter_mut().enumerate().take(n) {
                    let width = u32::from(bits[c]);
                    if !rev {
                        shift -= width;
                    }
                    let v = (w >> shift) & ((1u32 << width) - 1);
                    if rev {
                        shift += width;
                    }
                    *o = if self.integer {
                        f64::from(v)
                    } else {
                        f64::from(v) / f64::from((1u32 << width) - 1)
                    };
                }
            }
            ClientType::R11G11B10F => {
                let [r, g, b] = unpack_r11g11b10(word(4));
                out[..3].copy_from_slice(&[r.into(), g.into(), b.into()]);
            }
            ClientType::Rgb9E5 => {
                let [r, g, b] = unpack_rgb9e5(word(4));
                out[..3].copy_from_slice(&[r.into(), g.into(), b.into()]);
            }
        }
        out
    }

    /// One client pixel as canonical RGBA (GL's conversion to RGBA).
    pub fn decode(&self, px: &[u8], swap: bool) -> [f64; 4] {
        let comps = self.components(px, swap);
        let mut rgba = [0.0, 0.0, 0.0, 1.0];
        for (c, &ch) in self
            .channels
            .iter()
            .take(usize::from(self.count))
            .enumerate()
        {
            match ch {
                Channel::R => rgba[0] = comps[c],
                Channel::G => rgba[1] = comps[c],
                Channel::B => rgba[2] = comps[c],
                Channel::A => rgba[3] = comps[c],
                Channel::L => rgba[..3].fill(comps[c]),
            }
        }
        rgba
    }

    /// Writes canonical RGBA `v` as one client pixel into `out`. Luminance is R + G + B (GL 4.6
    /// §18.2.8, "conversion to L"), clamped like any component of the client type; callers
    /// reading a luminance or intensity image pass it in R with G = B = 0.
    pub fn encode(&self, v: [f64; 4], out: &mut [u8], swap: bool) {
        let n = usize::from(self.count);
        let mut comps = [0.0; 4];
        for (c, &ch) in self.channels.iter().take(n).enumerate() {
            comps[c] = match ch {
                Channel::L => v[0] + v[1] + v[2],
                Channel::R => v[0],
                Channel::G => v[1],
                Channel::B => v[2],
                Channel::A => v[3],
            };
        }
        let finish = |out: &mut [u8], bytes: usize| {
            if swap {
                out[..bytes].reverse();
            }
        };
        match self.ty {
            ClientType::Scalar {
                bytes,
                signed,
                float,
            } => {
                let b = usize::from(bytes);
                for (c, chunk) in out.chunks_exact_mut(b).take(n).enumerate() {
                    let x = comps[c];
                    let bits = u32::from(bytes) * 8;
                    match (b, float) {
                        (2, true) => chunk.copy_from_slice(&f32_to_f16(x as f32).to_ne_bytes()),
                        (_, true) => chunk.copy_from_slice(&(x as f32).to_ne_bytes()),
                        _ => {
                            let v = match (self.integer, signed) {
                                (true, false) => clamp(x, 0.0, ((1u64 << bits) - 1) as f64) as u64,
                                (true, true) => {
                                    let half = (1u64 << (bits - 1)) as f64;
                                    clamp(x, -half, half - 1.0) as i64 as u64
                                }
                                (false, false) => unorm(x, bits),
                                (false, true) => snorm(x, bits) as u64,
                            };
                            put_int(chunk, v, b);
                        }
                    }
                    finish(chunk, b);
                }
            }
            ClientType::Packed { bytes, bits, rev } => {
                let total: u32 = bits.iter().map(|&b| u32::from(b)).sum();
                let mut shift = if rev { 0 } else { total };
                let mut w = 0u64;
                for (c, &x) in comps.iter().enumerate().take(n) {
                    let width = u32::from(bits[c]);
                    if !rev {
                        shift -= width;
                    }
                    let q = if self.integer {
                        clamp(x, 0.0, f64::from((1u32 << width) - 1)) as u64
                    } else {
                        unorm(x, width)
                    };
                    w |= q << shift;
                    if rev {
                        shift += width;
                    }
                }
                put_int(out, w, usize::from(bytes));
                finish(out, usize::from(bytes));
            }
            ClientType::R11G11B10F => {
                let w = pack_r11g11b10([comps[0] as f32, comps[1] as f32, comps[2] as f32]);
                put_int(out, u64::from(w), 4);
                finish(out, 4);
            }
            ClientType::Rgb9E5 => {
                let w = pack_rgb9e5([comps[0] as f32, comps[1] as f32, comps[2] as f32]);
                put_int(out, u64::from(w), 4);
                finish(out, 4);
            }
        }
    }
}

fn clamp(x: f64, lo: f64, hi: f64) -> f64 {
    if x.is_nan() {
        0.0
    } else {
        x.clamp(lo, hi).trunc()
    }
}

/// Converts `region` of client memory `src` (laid out per `store`) into tightly packed texels of
/// `device` (x fastest, then y, then z), as an upload stages them.
///
/// # Errors
/// [`StagingError::SourceTooSmall`] when `src` is shorter than the layout needs;
/// [`StagingError::Overflow`] for layouts beyond 64 bits.
pub fn unpack_to_texels(
    src: &[u8],
    store: &PixelStore,
    region: Region,
    client: ClientPixel,
    device: TexelFormat,
) -> Result<Vec<u8>, StagingError> {
    let layout = client.layout(store, region)?;
    let needed = layout.required_bytes();
    if (src.len() as u64) < needed {
        return Err(StagingError::SourceTooSmall {
            needed,
            len: src.len() as u64,
        });
    }
    let Extent3d {
        width,
        height,
        depth,
    } = region.extent;
    let texel = device.texel_bytes() as usize;
    let group = client.group_bytes() as usize;
    let count = (u64::from(width) * u64::from(height) * u64::from(depth)) as usize;
    let mut out = vec![0u8; count * texel];
    let mut at = 0;
    for z in 0..depth {
        for y in 0..height {
            let row = layout
                .row_offset(y, z)
                .ok_or(StagingError::Internal("row outside the client region"))?
                as usize;
            for x in 0..width as usize {
                let from = row + x * group;
                let px = src
                    .get(from..from + group)
                    .ok_or(StagingError::Internal("pixel outside the checked source"))?;
                let v = client.decode(px, store.swap_bytes);
                device.encode(v, &mut out[at..at + texel]);
                at += texel;
            }
        }
    }
    Ok(out)
}

/// Writes tightly packed texels of `device` (as [`unpack_to_texels`] lays them out) into client
/// memory `dst` laid out per `store` as `client` pixels. Bytes between pixels are left alone.
///
/// # Errors
/// [`StagingError::DestinationTooSmall`] / [`StagingError::SourceTooSmall`] for short buffers.
pub fn pack_from_texels(
    texels: &[u8],
    device: TexelFormat,
    store: &PixelStore,
    region: Region,
    client: ClientPixel,
    dst: &mut [u8],
) -> Result<(), StagingError> {
    let layout = client.layout(store, region)?;
    let needed = layout.required_bytes();
    if (dst.len() as u64) < needed {
        return Err(StagingError::DestinationTooSmall {
            needed,
            len: dst.len() as u64,
        });
    }
    let Extent3d {
        width,
        height,
        depth,
    } = region.extent;
    let texel = device.texel_bytes() as usize;
    let group = client.group_bytes() as usize;
    let count = (u64::from(width) * u64::from(height) * u64::from(depth)) as usize;
    if texels.len() < count * texel {
        return Err(StagingError::SourceTooSmall {
            needed: (count * texel) as u64,
            len: texels.len() as u64,
        });
    }
    let mut at = 0;
    for z in 0..depth {
        for y in 0..height {
            let row = layout
                .row_offset(y, z)
                .ok_or(StagingError::Internal("row outside the client region"))?
                as usize;
            for x in 0..width as usize {
                let v = device.decode(&texels[at..at + texel]);
                at += texel;
                let to = row + x * group;
                let px = dst.get_mut(to..to + group).ok_or(StagingError::Internal(
                    "pixel outside the checked destination",
                ))?;
                client.encode(v, px, store.swap_bytes);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::texel::TexelKind;

    fn px(format: u32, ty: u32) -> ClientPixel {
        ClientPixel::from_gl(format, ty).unwrap_or_else(|e| panic!("{format:#x}/{ty:#x}: {e:?}"))
    }

    #[test]
    fn pairs_are_classified_with_the_gl_error() {
        assert_eq!(
            ClientPixel::from_gl(gl::RGBA, gl::UNSIGNED_SHORT_5_6_5),
            Err(PairError::Operation)
        );
        assert_eq!(
            ClientPixel::from_gl(gl::RGBA_INTEGER, gl::FLOAT),
            Err(PairError::Operation)
        );
        assert_eq!(
            ClientPixel::from_gl(gl::BGR, gl::UNSIGNED_INT_10F_11F_11F_REV),
            Err(PairError::Operation)
        );
        assert_eq!(
            ClientPixel::from_gl(0x1234, gl::FLOAT),
            Err(PairError::Enum)
        );
        assert_eq!(ClientPixel::from_gl(gl::RGB, 0x1234), Err(PairError::Enum));
        assert!(ClientPixel::from_gl(gl::BGRA, gl::UNSIGNED_SHORT_1_5_5_5_REV).is_ok());
        assert!(ClientPixel::from_gl(gl::RGBA_INTEGER, gl::UNSIGNED_INT_2_10_10_10_REV).is_ok());
    }

    /// Every packed type, by hand: a word with a distinct value in each field.
    #[test]
    fn packed_types_decode_fields_in_gl_order() {
        let d = |f, t, bytes: &[u8]| px(f, t).decode(bytes, false);
        // 5_6_5: R = 31 in bits 11-15, G = 0, B = 0.
        assert_eq!(
            d(gl::RGB, gl::UNSIGNED_SHORT_5_6_5, &0xF800u16.to_ne_bytes()),
            [1.0, 0.0, 0.0, 1.0]
        );
        // 5_6_5_REV: R in bits 0-4.
        assert_eq!(
            d(
                gl::RGB,
                gl::UNSIGNED_SHORT_5_6_5_REV,
                &0x001Fu16.to_ne_bytes()
            ),
            [1.0, 0.0, 0.0, 1.0]
        );
        // 4_4_4_4 with BGRA: the first field (bits 12-15) is blue.
        assert_eq!(
            d(
                gl::BGRA,
                gl::UNSIGNED_SHORT_4_4_4_4,
                &0xF00Fu16.to_ne_bytes()
            ),
            [0.0, 0.0, 1.0, 1.0]
        );
        assert_eq!(
            d(
                gl::RGBA,
                gl::UNSIGNED_SHORT_4_4_4_4_REV,
                &0x000Fu16.to_ne_bytes()
            ),
            [1.0, 0.0, 0.0, 0.0]
        );
        // 5_5_5_1: A is bit 0; 1_5_5_5_REV: A is bit 15.
        assert_eq!(
            d(
                gl::RGBA,
                gl::UNSIGNED_SHORT_5_5_5_1,
                &0x0001u16.to_ne_bytes()
            ),
            [0.0, 0.0, 0.0, 1.0]
        );
        assert_eq!(
            d(
                gl::RGBA,
                gl::UNSIGNED_SHORT_1_5_5_5_REV,
                &0x8000u16.to_ne_bytes()
            ),
            [0.0, 0.0, 0.0, 1.0]
        );
        assert_eq!(
            d(
                gl::RGBA,
                gl::UNSIGNED_SHORT_1_5_5_5_REV,
                &0x001Fu16.to_ne_bytes()
            ),
            [1.0, 0.0, 0.0, 0.0]
        );
        // 3_3_2: R = bits 5-7; 2_3_3_REV: R = bits 0-2, B = bits 6-7.
        assert_eq!(
            d(gl::RGB, gl::UNSIGNED_BYTE_3_3_2, &[0b1110_0000]),
            [1.0, 0.0, 0.0, 1.0]
        );
        assert_eq!(
            d(gl::RGB, gl::UNSIGNED_BYTE_2_3_3_REV, &[0b1100_0000]),
            [0.0, 0.0, 1.0, 1.0]
        );
        assert_eq!(
            d(gl::RGB, gl::UNSIGNED_BYTE_2_3_3_REV, &[0b0000_0111]),
            [1.0, 0.0, 0.0, 1.0]
        );
        // 8_8_8_8: R in the most significant byte.
        assert_eq!(
            d(
                gl::RGBA,
                gl::UNSIGNED_INT_8_8_8_8,
                &0xFF00_0033u32.to_ne_bytes()
            ),
            [1.0, 0.0, 0.0, 0.2]
        );
        assert_eq!(
            d(
                gl::RGBA,
                gl::UNSIGNED_INT_8_8_8_8_REV,
                &0x3300_00FFu32.to_ne_bytes()
            ),
            [1.0, 0.0, 0.0, 0.2]
        );
        // 10_10_10_2: R in bits 22-31, A in 0-1; 2_10_10_10_REV: R in bits 0-9, A in 30-31.
        assert_eq!(
            d(
                gl::RGBA,
                gl::UNSIGNED_INT_10_10_10_2,
                &0xFFC0_0003u32.to_ne_bytes()
            ),
            [1.0, 0.0, 0.0, 1.0]
        );
        assert_eq!(
            d(
                gl::RGBA,
                gl::UNSIGNED_INT_2_10_10_10_REV,
                &0x0000_03FFu32.to_ne_bytes()
            ),
            [1.0, 0.0, 0.0, 0.0]
        );
        assert_eq!(
            px(gl::RGBA_INTEGER, gl::UNSIGNED_INT_2_10_10_10_REV)
                .decode(&(7u32 | (1023 << 20) | (2 << 30)).to_ne_bytes(), false),
            [7.0, 0.0, 1023.0, 2.0]
        );
        let w = pack_r11g11b10([1.0, 0.5, 2.0]);
        assert_eq!(
            d(gl::RGB, gl::UNSIGNED_INT_10F_11F_11F_REV, &w.to_ne_bytes()),
            [1.0, 0.5, 2.0, 1.0]
        );
        let w = pack_rgb9e5([1.0, 0.25, 0.0]);
        assert_eq!(
            d(gl::RGB, gl::UNSIGNED_INT_5_9_9_9_REV, &w.to_ne_bytes()),
            [1.0, 0.25, 0.0, 1.0]
        );
    }

    #[test]
    fn scalar_types_normalise_and_missing_components_default() {
        let d = |f, t, bytes: &[u8]| px(f, t).decode(bytes, false);
        assert_eq!(d(gl::RED, gl::BYTE, &[0x81]), [-1.0, 0.0, 0.0, 1.0]);
        assert_eq!(d(gl::RED, gl::BYTE, &[0x80]), [-1.0, 0.0, 0.0, 1.0]);
        assert_eq!(
            d(gl::ALPHA, gl::UNSIGNED_SHORT, &0xFFFFu16.to_ne_bytes()),
            [0.0, 0.0, 0.0, 1.0]
        );
        assert_eq!(
            d(gl::ALPHA, gl::UNSIGNED_SHORT, &0u16.to_ne_bytes()),
            [0.0, 0.0, 0.0, 0.0]
        );
        assert_eq!(
            d(gl::LUMINANCE, gl::UNSIGNED_BYTE, &[51]),
            [0.2, 0.2, 0.2, 1.0]
        );
        let mut la = Vec::new();
        la.extend_from_slice(&0.5f32.to_ne_bytes());
        la.extend_from_slice(&0.25f32.to_ne_bytes());
        assert_eq!(
            d(gl::LUMINANCE_ALPHA, gl::FLOAT, &la),
            [0.5, 0.5, 0.5, 0.25]
        );
        assert_eq!(
            d(
                gl::RG_INTEGER,
                gl::INT,
                &[(-5i32).to_ne_bytes(), 9i32.to_ne_bytes()].concat()
            ),
            [-5.0, 9.0, 0.0, 1.0]
        );
        assert_eq!(
            d(
                gl::BGR,
                gl::HALF_FLOAT,
                &[0x3C00u16.to_ne_bytes(), [0, 0], [0, 0]].concat()
            ),
            [0.0, 0.0, 1.0, 1.0]
        );
        // Swap bytes reverses each element.
        assert_eq!(
            px(gl::RED, gl::UNSIGNED_SHORT).decode(&[0x00, 0xFF], true)[0],
            255.0 / 65535.0
                * if cfg!(target_endian = "little") {
                    1.0
                } else {
                    257.0
                }
        );
    }

    #[test]
    fn encode_inverts_decode_for_every_packed_16_bit_value() {
        for ty in [
            gl::UNSIGNED_SHORT_5_6_5,
            gl::UNSIGNED_SHORT_5_6_5_REV,
            gl::UNSIGNED_SHORT_4_4_4_4,
            gl::UNSIGNED_SHORT_4_4_4_4_REV,
            gl::UNSIGNED_SHORT_5_5_5_1,
            gl::UNSIGNED_SHORT_1_5_5_5_REV,
        ] {
            let format = if matches!(ty, gl::UNSIGNED_SHORT_5_6_5 | gl::UNSIGNED_SHORT_5_6_5_REV) {
                gl::RGB
            } else {
                gl::RGBA
            };
            let p = px(format, ty);
            for w in 0..=u16::MAX {
                let v = p.decode(&w.to_ne_bytes(), false);
                let mut out = [0u8; 2];
                p.encode(v, &mut out, false);
                assert_eq!(u16::from_ne_bytes(out), w, "{ty:#x} {w:#06x}");
            }
        }
    }

    #[test]
    fn upload_and_readback_honour_the_pixel_store() {
        // 2×2 GL_RGB GL_UNSIGNED_SHORT, rows of 3 pixels aligned to 8, one skipped pixel per row.
        let store = PixelStore {
            alignment: crate::PixelAlignment::Eight,
            skip_pixels: 1,
            row_length: 3,
            ..PixelStore::default()
        };
        let p = px(gl::RGB, gl::UNSIGNED_SHORT);
        // Row: 3 pixels × 6 bytes = 18 → 24 with alignment 8.
        let mut src = vec![0u8; 24 + 18];
        let put = |src: &mut [u8], at: usize, v: [u16; 3]| {
            for (i, c) in v.iter().enumerate() {
                src[at + 2 * i..at + 2 * i + 2].copy_from_slice(&c.to_ne_bytes());
            }
        };
        put(&mut src, 6, [65535, 0, 0]);
        put(&mut src, 12, [0, 65535, 0]);
        put(&mut src, 24 + 6, [0, 0, 65535]);
        put(&mut src, 24 + 12, [65535, 65535, 65535]);
        let f = TexelFormat::Array {
            comps: 4,
            bytes: 2,
            kind: TexelKind::Float,
        };
        let texels =
            unpack_to_texels(&src, &store, Region::d2(2, 2), p, f).map_err(|e| e.to_string());
        let Ok(texels) = texels else {
            panic!("{texels:?}")
        };
        let half = |i: usize| u16::from_ne_bytes([texels[2 * i], texels[2 * i + 1]]);
        let one = 0x3C00;
        assert_eq!(
            (0..16).map(half).collect::<Vec<_>>(),
            [one, 0, 0, one, 0, one, 0, one, 0, 0, one, one, one, one, one, one]
        );
        let mut back = vec![0xAAu8; src.len()];
        assert!(pack_from_texels(&texels, f, &store, Region::d2(2, 2), p, &mut back).is_ok());
        assert_eq!(&back[6..18], &src[6..18]);
        assert_eq!(&back[30..42], &src[30..42]);
        assert_eq!(&back[..6], &[0xAA; 6], "skipped pixels untouched");
        assert!(unpack_to_texels(&src[..40], &store, Region::d2(2, 2), p, f).is_err());
    }
}
