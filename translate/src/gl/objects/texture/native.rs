//! Compressed textures kept compressed: a texture whose blocks arrive as blocks
//! (`glCompressedTexImage*`) or whose storage is allocated for them (`glTexStorage*` of a
//! specific compressed format) is stored in the Vulkan block format itself where the device
//! samples and copies it (BCn on desktops and lavapipe, ETC2/EAC and ASTC on phones), a
//! quarter to an eighth of the decoded texels' memory. Elsewhere the blocks are decoded on
//! upload as before (`staging::compressed`).
//!
//! Design decisions:
//! - The choice is made per image when its storage is made: optimal-tiling
//!   `SAMPLED_IMAGE | TRANSFER_SRC | TRANSFER_DST` for the format (under `ARENAGL_VK_PROFILE`
//!   the profile's formats, which the manager's format query already intersects).
//!   `ARENAGL_COMPRESSED=decode` decodes everywhere (to compare memory).
//! - Blocks are uploaded as they are (`MemoryManager::upload_blocks`); `glGetTexImage` reads
//!   the blocks back and decodes them on the CPU (`MemoryManager::read_blocks`).
//! - ArenaGL has no block encoder, so texels cannot be written into a block image: before
//!   `glTexSubImage*`, `glCopyTexSubImage*` or `glGenerateMipmap` writes into one, the texture
//!   is moved to decoded storage ([`Texture::decode_native_storage`]: its blocks read back and
//!   decoded), as it would have been stored before. OpenGL ES refuses those writes for
//!   compressed formats, so phones never pay for it. `glTexImage*` of a compressed format with
//!   texels makes decoded storage from the start.

use std::sync::atomic::{AtomicU64, Ordering};

use arenagl_staging::Codec;
use ash::vk;

use crate::gl::context::enums::GLenum;
use crate::gl::context::error::{invalid_op, GlResult};
use crate::gl::objects::texture::api::{image_region, storage_image};
use crate::gl::objects::texture::internal_format::codec;
use crate::gl::objects::texture::{storage_format, Storage, TexTarget, Texture};
use crate::gl::vk::device::Device;

/// The Vulkan format that holds `codec`'s blocks as they are (its sRGB twin where `srgb`).
pub(crate) fn native_format(codec: Codec, srgb: bool) -> vk::Format {
    use vk::Format as F;
    let pick = |linear: F, srgb_twin: F| if srgb { srgb_twin } else { linear };
    match codec {
        Codec::Bc1 { alpha: false } => pick(F::BC1_RGB_UNORM_BLOCK, F::BC1_RGB_SRGB_BLOCK),
        Codec::Bc1 { alpha: true } => pick(F::BC1_RGBA_UNORM_BLOCK, F::BC1_RGBA_SRGB_BLOCK),
        Codec::Bc2 => pick(F::BC2_UNORM_BLOCK, F::BC2_SRGB_BLOCK),
        Codec::Bc3 => pick(F::BC3_UNORM_BLOCK, F::BC3_SRGB_BLOCK),
        Codec::Bc4 { signed } => pick_signed(signed, F::BC4_UNORM_BLOCK, F::BC4_SNORM_BLOCK),
        Codec::Bc5 { signed } => pick_signed(signed, F::BC5_UNORM_BLOCK, F::BC5_SNORM_BLOCK),
        Codec::Bc7 => pick(F::BC7_UNORM_BLOCK, F::BC7_SRGB_BLOCK),
        Codec::Bc6h { signed } => pick_signed(signed, F::BC6H_UFLOAT_BLOCK, F::BC6H_SFLOAT_BLOCK),
        Codec::Etc2Rgb => pick(F::ETC2_R8G8B8_UNORM_BLOCK, F::ETC2_R8G8B8_SRGB_BLOCK),
        Codec::Etc2RgbA1 => pick(F::ETC2_R8G8B8A1_UNORM_BLOCK, F::ETC2_R8G8B8A1_SRGB_BLOCK),
        Codec::Etc2Rgba => pick(F::ETC2_R8G8B8A8_UNORM_BLOCK, F::ETC2_R8G8B8A8_SRGB_BLOCK),
        Codec::EacR11 { signed } => {
            pick_signed(signed, F::EAC_R11_UNORM_BLOCK, F::EAC_R11_SNORM_BLOCK)
        }
        Codec::EacRg11 { signed } => {
            pick_signed(signed, F::EAC_R11G11_UNORM_BLOCK, F::EAC_R11G11_SNORM_BLOCK)
        }
        Codec::Astc { width, height } => astc_format([width, height], srgb),
    }
}

fn pick_signed(signed: bool, unsigned: vk::Format, signed_twin: vk::Format) -> vk::Format {
    if signed {
        signed_twin
    } else {
        unsigned
    }
}

/// `ASTC_{w}x{h}_UNORM_BLOCK` (or `_SRGB_BLOCK`): Vulkan lists the footprints in GL's order,
/// each one's UNORM and sRGB formats side by side.
fn astc_format(footprint: [u8; 2], srgb: bool) -> vk::Format {
    let Some(index) = arenagl_staging::compressed::ASTC_FOOTPRINTS
        .iter()
        .position(|&f| f == footprint)
    else {
        return vk::Format::UNDEFINED;
    };
    let first = vk::Format::ASTC_4X4_UNORM_BLOCK.as_raw();
    vk::Format::from_raw(first + 2 * index as i32 + i32::from(srgb))
}

/// Whether `format` is a block-compressed storage format.
pub(crate) fn is_native(format: vk::Format) -> bool {
    arenagl_memory::vulkan::compressed_block(format).is_some()
}

/// `storage` for `internal` in `internal`'s own block format where the device samples and
/// copies that format optimally (and `ARENAGL_COMPRESSED` is not `decode`) and `target` makes
/// two-dimensional images (2D, arrays, cube maps: block formats are not 1D image formats, and
/// 3D ones are not asked of the device); `storage` as it is otherwise, and for every
/// uncompressed format.
pub(crate) fn prefer_native(
    locked: &crate::gl::vk::device::Locked,
    target: TexTarget,
    internal: GLenum,
    storage: Storage,
) -> Storage {
    if target.image_type() != vk::ImageType::TYPE_2D {
        return storage;
    }
    let Some(c) = codec(internal).filter(|_| !decode_forced()) else {
        return storage;
    };
    let format = native_format(c, storage.info.srgb);
    let needed = vk::FormatFeatureFlags::SAMPLED_IMAGE
        | vk::FormatFeatureFlags::TRANSFER_SRC
        | vk::FormatFeatureFlags::TRANSFER_DST;
    if format == vk::Format::UNDEFINED || !locked.manager.format_features(format).contains(needed) {
        return storage;
    }
    Storage {
        format,
        renderable: false,
        ..storage
    }
}

/// `ARENAGL_COMPRESSED=decode`: every compressed texture is decoded, as before native storage.
fn decode_forced() -> bool {
    static FORCED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FORCED.get_or_init(|| std::env::var("ARENAGL_COMPRESSED").is_ok_and(|v| v == "decode"))
}

impl Texture {
    /// Before texels (not blocks) are written into this texture by `call`: storage that keeps
    /// compressed blocks is replaced by decoded storage holding the same texels — every
    /// defined level's blocks read back from the device and decoded — since ArenaGL has no
    /// block encoder. Storage shared with a view or an EGL image cannot be replaced:
    /// `GL_INVALID_OPERATION`. Decoded storage: nothing to do.
    pub(crate) fn decode_native_storage(&mut self, device: &Device, call: &str) -> GlResult<()> {
        let Some(s) = self.storage.as_ref() else {
            return Ok(());
        };
        let Some(codec) = codec_of(s.format) else {
            return Ok(());
        };
        if !s.exclusive() {
            return invalid_op(format!(
                "{call}: texels into compressed {:?} storage another texture or image shares \
                 (ArenaGL has no block encoder)",
                s.format
            ));
        }
        tracing::debug!(
            "{call}: compressed {:?} storage decoded for texel writes",
            s.format
        );
        let tt = s.target;
        let mut locked = device.lock();
        let decoded = storage_format(&locked, s.internal, device.caps().depth_stencil_format)?;
        let mut levels = Vec::new();
        for level in 0..s.levels {
            for face in 0..s.faces() as u32 {
                if !s.face_level_defined(face, level) {
                    continue;
                }
                let size = s.level_size(level);
                let region = s.vk_region(&image_region(tt, face, level, [0; 3], size));
                let blocks = crate::gl::context::error::until_done(|| {
                    locked.manager.read_blocks(s.image, &region)
                })?;
                levels.push((face, level, size, blocks));
            }
        }
        let mut new = storage_image(
            &mut locked,
            tt,
            &decoded,
            s.internal,
            s.size,
            s.levels,
            s.immutable,
        )?;
        new.immutable = s.immutable;
        new.immutable_levels = s.immutable_levels;
        new.defined = s.defined;
        if let Some(old) = self.storage.replace(new) {
            old.release(&mut locked.manager);
        }
        locked.collect(device.raw());
        drop(locked);
        for (face, level, size, blocks) in levels {
            self.decode_blocks(device, (tt, face, level), ([0; 3], size), codec, &blocks)?;
        }
        Ok(())
    }
}

/// Compressed uploads so far, process wide: blocks copied into block images, and blocks
/// decoded into texels (`arenagl_memory_stat("compressed_native_uploads")` …).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CompressedUploads {
    /// Uploads that kept the blocks in a block-compressed image.
    pub native: u64,
    /// Uploads decoded on the CPU into uncompressed texels.
    pub decoded: u64,
}

static NATIVE: AtomicU64 = AtomicU64::new(0);
static DECODED: AtomicU64 = AtomicU64::new(0);

/// Counts one compressed upload, kept as blocks (`native`) or decoded.
pub(crate) fn count_upload(native: bool) {
    let counter = if native { &NATIVE } else { &DECODED };
    counter.fetch_add(1, Ordering::Relaxed);
}

/// The compressed uploads so far.
pub fn compressed_uploads() -> CompressedUploads {
    CompressedUploads {
        native: NATIVE.load(Ordering::Relaxed),
        decoded: DECODED.load(Ordering::Relaxed),
    }
}

/// The codec whose blocks a block-compressed storage `format` holds (for decoding them on
/// readback): the inverse of [`native_format`].
pub(crate) fn codec_of(format: vk::Format) -> Option<Codec> {
    ALL_CODECS
        .iter()
        .copied()
        .find(|&c| native_format(c, false) == format || native_format(c, true) == format)
}

/// Every codec, for [`codec_of`].
const ALL_CODECS: &[Codec] = &[
    Codec::Bc1 { alpha: false },
    Codec::Bc1 { alpha: true },
    Codec::Bc2,
    Codec::Bc3,
    Codec::Bc4 { signed: false },
    Codec::Bc4 { signed: true },
    Codec::Bc5 { signed: false },
    Codec::Bc5 { signed: true },
    Codec::Bc7,
    Codec::Bc6h { signed: false },
    Codec::Bc6h { signed: true },
    Codec::Etc2Rgb,
    Codec::Etc2RgbA1,
    Codec::Etc2Rgba,
    Codec::EacR11 { signed: false },
    Codec::EacR11 { signed: true },
    Codec::EacRg11 { signed: false },
    Codec::EacRg11 { signed: true },
    Codec::Astc {
        width: 4,
        height: 4,
    },
    Codec::Astc {
        width: 5,
        height: 4,
    },
    Codec::Astc {
        width: 5,
        height: 5,
    },
    Codec::Astc {
        width: 6,
        height: 5,
    },
    Codec::Astc {
        width: 6,
        height: 6,
    },
    Codec::Astc {
        width: 8,
        height: 5,
    },
    Codec::Astc {
        width: 8,
        height: 6,
    },
    Codec::Astc {
        width: 8,
        height: 8,
    },
    Codec::Astc {
        width: 10,
        height: 5,
    },
    Codec::Astc {
        width: 10,
        height: 6,
    },
    Codec::Astc {
        width: 10,
        height: 8,
    },
    Codec::Astc {
        width: 10,
        height: 10,
    },
    Codec::Astc {
        width: 12,
        height: 10,
    },
    Codec::Astc {
        width: 12,
        height: 12,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_codec_has_a_block_format_of_its_size() {
        for &c in ALL_CODECS {
            for srgb in [false, true] {
                let f = native_format(c, srgb);
                let block = arenagl_memory::vulkan::compressed_block(f);
                let [w, h] = c.block_size();
                assert_eq!(
                    block.map(|b| (b.width, b.height, b.bytes)),
                    Some((w, h, c.block_bytes())),
                    "{c:?} as {f:?}"
                );
                assert_eq!(codec_of(f), Some(c));
            }
        }
        assert_eq!(
            native_format(
                Codec::Astc {
                    width: 10,
                    height: 8
                },
                true
            ),
            vk::Format::ASTC_10X8_SRGB_BLOCK
        );
    }
}
