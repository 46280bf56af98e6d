//! Block-compressed texture formats decompressed on upload, for devices that lack them (lavapipe
//! and desktop GPUs have no ETC2/EAC or ASTC; MoltenVK on older iOS devices has no BC).
//!
//! Design decisions:
//! - Pure decoders ([`bc`], [`bptc`], [`etc`], [`astc`]) of one block (4×4 but for ASTC's
//!   fourteen 2D footprints, [`Codec::block_size`]); [`decompress`] walks an image of blocks
//!   and writes tightly packed texels of [`Codec::decoded_format`] (RGBA8, R8/RG8 unorm or
//!   snorm, R16/RG16 for EAC's 11 bits, RGBA16F for BC6H's half floats), which the translator stores like any other texels.
//! - Compressed data is tightly packed block rows (GL ignores the unpack state for compressed
//!   uploads unless the `GL_UNPACK_COMPRESSED_BLOCK_*` parameters are set, which this GL does
//!   not support); a short buffer is an error, never a panic. Partial blocks at the right and
//!   bottom edges decode whole and are cropped.

mod astc;
pub use astc::ASTC_FOOTPRINTS;
mod bc;
mod bptc;
mod etc;

use crate::error::StagingError;
use crate::texel::{put_int, TexelFormat, TexelKind};

/// A block compression scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Codec {
    /// BC1 / DXT1; `alpha`: the RGBA variant (punch-through alpha).
    Bc1 {
        /// `GL_COMPRESSED_RGBA_S3TC_DXT1_EXT`.
        alpha: bool,
    },
    /// BC2 / DXT3.
    Bc2,
    /// BC3 / DXT5.
    Bc3,
    /// BC4 / RGTC1.
    Bc4 {
        /// `GL_COMPRESSED_SIGNED_RED_RGTC1`.
        signed: bool,
    },
    /// BC5 / RGTC2.
    Bc5 {
        /// `GL_COMPRESSED_SIGNED_RG_RGTC2`.
        signed: bool,
    },
    /// ETC2 RGB (and ETC1).
    Etc2Rgb,
    /// ETC2 RGB with punch-through alpha.
    Etc2RgbA1,
    /// ETC2 RGB with an EAC alpha block.
    Etc2Rgba,
    /// EAC R11.
    EacR11 {
        /// The signed variant.
        signed: bool,
    },
    /// EAC RG11.
    EacRg11 {
        /// The signed variant.
        signed: bool,
    },
    /// BC7 / BPTC unorm (`GL_COMPRESSED_RGBA_BPTC_UNORM` and its sRGB twin).
    Bc7,
    /// BC6H / BPTC float.
    Bc6h {
        /// `GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT`.
        signed: bool,
    },
    /// ASTC LDR with a `width × height` footprint (one of the fourteen 2D ones; the sRGB
    /// formats decode the same blocks, their storage is sRGB).
    Astc {
        /// Block width in texels (4 to 12).
        width: u8,
        /// Block height in texels (4 to 12).
        height: u8,
    },
}

impl Codec {
    /// Texels per block, across and down (4×4 but for ASTC).
    pub const fn block_size(self) -> [u32; 2] {
        match self {
            Self::Astc { width, height } => [width as u32, height as u32],
            _ => [4, 4],
        }
    }

    /// Bytes per block.
    pub const fn block_bytes(self) -> u32 {
        match self {
            Self::Bc1 { .. } | Self::Bc4 { .. } | Self::Etc2Rgb | Self::Etc2RgbA1 => 8,
            Self::EacR11 { .. } => 8,
            _ => 16,
        }
    }

    /// The texels [`decompress`] writes.
    pub fn decoded_format(self) -> TexelFormat {
        let a = |comps, bytes, kind| TexelFormat::Array { comps, bytes, kind };
        match self {
            Self::Bc4 { signed: false } => a(1, 1, TexelKind::Unorm),
            Self::Bc4 { signed: true } => a(1, 1, TexelKind::Snorm),
            Self::Bc5 { signed: false } => a(2, 1, TexelKind::Unorm),
            Self::Bc5 { signed: true } => a(2, 1, TexelKind::Snorm),
            Self::EacR11 { signed: false } => a(1, 2, TexelKind::Unorm),
            Self::EacR11 { signed: true } => a(1, 2, TexelKind::Snorm),
            Self::EacRg11 { signed: false } => a(2, 2, TexelKind::Unorm),
            Self::EacRg11 { signed: true } => a(2, 2, TexelKind::Snorm),
            Self::Bc6h { .. } => a(4, 2, TexelKind::Float),
            _ => a(4, 1, TexelKind::Unorm),
        }
    }

    /// Bytes of compressed data for a `width × height × depth` image (`imageSize` must equal
    /// it); `None` when it overflows.
    pub fn image_bytes(self, width: u32, height: u32, depth: u32) -> Option<u64> {
        let [bw, bh] = self.block_size();
        u64::from(width.div_ceil(bw))
            .checked_mul(u64::from(height.div_ceil(bh)))?
            .checked_mul(u64::from(depth))?
            .checked_mul(u64::from(self.block_bytes()))
    }

    /// One block as texels of [`Self::decoded_format`], texel (x, y) at `block_width·y + x`.
    fn decode_block(self, b: &[u8], out: &mut [u8]) {
        let texel = self.decoded_format().texel_bytes() as usize;
        let mut place = |i: usize, bytes: &[u8]| {
            if let Some(dst) = out.get_mut(i * texel..(i + 1) * texel) {
                dst.copy_from_slice(bytes);
            }
        };
        match self {
            Self::Bc1 { alpha } => {
                for (i, t) in bc::bc1(b, alpha, false).iter().enumerate() {
                    place(i, t);
                }
            }
            Self::Astc { width, height } => astc::decode(b, [width, height], out),
            Self::Bc2 => bc::bc2(b).iter().enumerate().for_each(|(i, t)| place(i, t)),
            Self::Bc3 => bc::bc3(b).iter().enumerate().for_each(|(i, t)| place(i, t)),
            Self::Bc7 => bptc::bc7(b)
                .iter()
                .enumerate()
                .for_each(|(i, t)| place(i, t)),
            Self::Bc6h { signed } => {
                for (i, t) in bptc::bc6h(b, signed).iter().enumerate() {
                    let mut bytes = [0u8; 8];
                    for (c, v) in t.iter().enumerate() {
                        put_int(&mut bytes[2 * c..2 * c + 2], u64::from(*v), 2);
                    }
                    place(i, &bytes);
                }
            }
            Self::Etc2Rgb | Self::Etc2RgbA1 => {
                let t = etc::etc2_rgb(b, self == Self::Etc2RgbA1);
                t.iter().enumerate().for_each(|(i, t)| place(i, t));
            }
            Self::Etc2Rgba => {
                let alpha = etc::eac_alpha(&b[..8]);
                let rgb = etc::etc2_rgb(&b[8..16], false);
                for (i, (t, a)) in rgb.iter().zip(alpha).enumerate() {
                    place(i, &[t[0], t[1], t[2], a]);
                }
            }
            Self::Bc4 { signed: false } => {
                bc::bc4_unsigned(b)
                    .iter()
                    .enumerate()
                    .for_each(|(i, v)| place(i, &[*v]));
            }
            Self::Bc4 { signed: true } => {
                bc::bc4_signed(b)
                    .iter()
                    .enumerate()
                    .for_each(|(i, v)| place(i, &[*v as u8]));
            }
            Self::Bc5 { signed: false } => {
                let (r, g) = (bc::bc4_unsigned(&b[..8]), bc::bc4_unsigned(&b[8..16]));
                (0..16).for_each(|i| place(i, &[r[i], g[i]]));
            }
            Self::Bc5 { signed: true } => {
                let (r, g) = (bc::bc4_signed(&b[..8]), bc::bc4_signed(&b[8..16]));
                (0..16).for_each(|i| place(i, &[r[i] as u8, g[i] as u8]));
            }
            Self::EacR11 { signed } | Self::EacRg11 { signed } => {
                let channels = if matches!(self, Self::EacR11 { .. }) {
                    1
                } else {
                    2
                };
                for c in 0..channels {
                    let half = &b[8 * c..8 * c + 8];
                    let values: [u16; 16] = if signed {
                        etc::eac_r11_signed(half).map(|v| v as u16)
                    } else {
                        etc::eac_r11_unsigned(half)
                    };
                    for (i, v) in values.iter().enumerate() {
                        let at = i * texel + 2 * c;
                        if let Some(dst) = out.get_mut(at..at + 2) {
                            put_int(dst, u64::from(*v), 2);
                        }
                    }
                }
            }
        }
    }
}

/// Decompresses a `width × height × depth` image of `codec` blocks (tightly packed, row by
/// row, image by image) into tightly packed texels of [`Codec::decoded_format`].
///
/// # Errors
/// [`StagingError::SourceTooSmall`] when `data` holds fewer blocks than the image needs;
/// [`StagingError::Overflow`] for sizes beyond the address space.
pub fn decompress(
    codec: Codec,
    data: &[u8],
    width: u32,
    height: u32,
    depth: u32,
) -> Result<Vec<u8>, StagingError> {
    let needed = codec
        .image_bytes(width, height, depth)
        .ok_or(StagingError::Overflow)?;
    if (data.len() as u64) < needed {
        return Err(StagingError::SourceTooSmall {
            needed,
            len: data.len() as u64,
        });
    }
    let texel = codec.decoded_format().texel_bytes() as usize;
    let (w, h, d) = (width as usize, height as usize, depth as usize);
    let len = w
        .checked_mul(h)
        .and_then(|v| v.checked_mul(d))
        .and_then(|v| v.checked_mul(texel))
        .ok_or(StagingError::Overflow)?;
    let mut out = vec![0u8; len];
    let block_bytes = codec.block_bytes() as usize;
    let [fw, fh] = codec.block_size().map(|v| v as usize);
    let (bw, bh) = (w.div_ceil(fw), h.div_ceil(fh));
    // The largest block: 12×12 texels of at most 8 bytes.
    let mut decoded = [0u8; 12 * 12 * 8];
    for z in 0..d {
        for by in 0..bh {
            for bx in 0..bw {
                let at = ((z * bh + by) * bw + bx) * block_bytes;
                let block = data
                    .get(at..at + block_bytes)
                    .ok_or(StagingError::Internal("block outside the checked source"))?;
                codec.decode_block(block, &mut decoded);
                for y in 0..fh {
                    for x in 0..fw {
                        let (px, py) = (bx * fw + x, by * fh + y);
                        if px >= w || py >= h {
                            continue;
                        }
                        let to = ((z * h + py) * w + px) * texel;
                        let from = (fw * y + x) * texel;
                        out[to..to + texel].copy_from_slice(&decoded[from..from + texel]);
                    }
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_crop_edge_blocks_and_check_their_size() {
        // 5×1 of BC4: two blocks; block 0 all a0 = 10, block 1 all a0 = 20.
        let mut data = vec![0u8; 16];
        data[0] = 10;
        data[1] = 5;
        data[8] = 20;
        data[9] = 5;
        assert_eq!(Codec::Bc4 { signed: false }.image_bytes(5, 1, 1), Some(16));
        let out = decompress(Codec::Bc4 { signed: false }, &data, 5, 1, 1);
        assert_eq!(out.ok(), Some(vec![10, 10, 10, 10, 20]));
        assert!(decompress(Codec::Bc4 { signed: false }, &data[..15], 5, 1, 1).is_err());
    }

    #[test]
    fn rgba_codecs_write_four_bytes_per_texel() {
        // One opaque white BC1 block.
        let block = [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0];
        let out = decompress(Codec::Bc1 { alpha: true }, &block, 2, 2, 1);
        assert_eq!(out.ok(), Some(vec![255; 16]));
        // EAC RG11: two halves, 2 bytes per channel.
        let mut block = [0u8; 16];
        block[0] = 255;
        block[1] = 0x10; // multiplier 1, table 0
        let out = decompress(Codec::EacRg11 { signed: false }, &block, 1, 1, 1).unwrap_or_default();
        assert_eq!(out.len(), 4);
        assert!(u16::from_ne_bytes([out[0], out[1]]) > 60000);
    }
}
