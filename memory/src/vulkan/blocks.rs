//! Uploads into images of a block-compressed format (BCn, ETC2/EAC, ASTC): the GL translator
//! keeps compressed textures compressed where the device samples the format, and this copies
//! the client's blocks as they are.
//!
//! Design decisions:
//! - The blocks arrive tightly packed (block rows of each slice or layer, one after another);
//!   they are cut into arena-sized chunks on block boundaries (`split_image` with the format's
//!   [`TexelBlock`]) and copied with `vkCmdCopyBufferToImage`, whose extents are in texels:
//!   whole blocks, or up to the level's edge for a last partial block.
//! - Each chunk's blocks are journaled as they were staged, so recovery after a device loss
//!   copies the same blocks back (`restore.rs` replays the region with a tight layout).

use ash::vk;

use arenagl_staging::{split_image, Extent3d, TexelBlock};

use crate::error::{MemoryError, Result};
use crate::manager::ImageHandle;
use crate::staging::map_staging;
use crate::vulkan::transfer::{chunk_copy, ImageRegion};
use crate::vulkan::MemoryManager;

/// The compression block of a block-compressed Vulkan format; `None` for any other format.
pub fn compressed_block(format: vk::Format) -> Option<TexelBlock> {
    use vk::Format as F;
    let block = |width, height, bytes| {
        Some(TexelBlock {
            width,
            height,
            bytes,
        })
    };
    match format {
        F::BC1_RGB_UNORM_BLOCK
        | F::BC1_RGB_SRGB_BLOCK
        | F::BC1_RGBA_UNORM_BLOCK
        | F::BC1_RGBA_SRGB_BLOCK
        | F::BC4_UNORM_BLOCK
        | F::BC4_SNORM_BLOCK
        | F::ETC2_R8G8B8_UNORM_BLOCK
        | F::ETC2_R8G8B8_SRGB_BLOCK
        | F::ETC2_R8G8B8A1_UNORM_BLOCK
        | F::ETC2_R8G8B8A1_SRGB_BLOCK
        | F::EAC_R11_UNORM_BLOCK
        | F::EAC_R11_SNORM_BLOCK => block(4, 4, 8),
        F::BC2_UNORM_BLOCK
        | F::BC2_SRGB_BLOCK
        | F::BC3_UNORM_BLOCK
        | F::BC3_SRGB_BLOCK
        | F::BC5_UNORM_BLOCK
        | F::BC5_SNORM_BLOCK
        | F::BC6H_UFLOAT_BLOCK
        | F::BC6H_SFLOAT_BLOCK
        | F::BC7_UNORM_BLOCK
        | F::BC7_SRGB_BLOCK
        | F::ETC2_R8G8B8A8_UNORM_BLOCK
        | F::ETC2_R8G8B8A8_SRGB_BLOCK
        | F::EAC_R11G11_UNORM_BLOCK
        | F::EAC_R11G11_SNORM_BLOCK => block(4, 4, 16),
        _ => astc_block(format),
    }
}

/// The footprint of an ASTC LDR format (`ASTC_4x4_UNORM_BLOCK` … `ASTC_12x12_SRGB_BLOCK`,
/// each footprint's UNORM and sRGB formats side by side).
fn astc_block(format: vk::Format) -> Option<TexelBlock> {
    const FOOTPRINTS: [(u32, u32); 14] = [
        (4, 4),
        (5, 4),
        (5, 5),
        (6, 5),
        (6, 6),
        (8, 5),
        (8, 6),
        (8, 8),
        (10, 5),
        (10, 6),
        (10, 8),
        (10, 10),
        (12, 10),
        (12, 12),
    ];
    let first = vk::Format::ASTC_4X4_UNORM_BLOCK.as_raw();
    let index = usize::try_from(format.as_raw().checked_sub(first)? / 2).ok()?;
    let (width, height) = *FOOTPRINTS.get(index)?;
    Some(TexelBlock {
        width,
        height,
        bytes: 16,
    })
}

impl MemoryManager {
    /// `glCompressedTexSubImage*` into an image of a block-compressed format: copies `blocks`
    /// (tightly packed, covering `region`, whose offset lies on block boundaries and whose
    /// extent is whole blocks or reaches the level's edge) through the staging arenas.
    ///
    /// # Errors
    /// [`MemoryError::InvalidRequest`] for an image of an uncompressed format or too few
    /// blocks; the staging and recording errors of any upload.
    pub fn upload_blocks(
        &mut self,
        image: ImageHandle,
        region: &ImageRegion,
        blocks: &[u8],
    ) -> Result<()> {
        let format = self.image_info(image)?.desc.format;
        let block = compressed_block(format)
            .ok_or_else(|| MemoryError::InvalidRequest(format!("block upload into {format:?}")))?;
        let layered = region.layer_count > 1;
        let extent = Extent3d {
            width: region.extent.width,
            height: region.extent.height,
            depth: if layered {
                region.layer_count
            } else {
                region.extent.depth
            },
        };
        let grid = BlockGrid::of(extent, block);
        if (blocks.len() as u64) < grid.bytes() {
            return Err(MemoryError::InvalidRequest(format!(
                "{} bytes of blocks for a region of {}",
                blocks.len(),
                grid.bytes()
            )));
        }
        let align = self.copy_alignment(block.bytes)?;
        let chunks = split_image(extent, block, self.arena_size()).map_err(map_staging)?;
        self.bound_staging(grid.bytes())?;
        let journal = self.journal_takes_image(image);
        let mut copies = Vec::new();
        let mut journaled = Vec::new();
        for chunk in chunks {
            let staged = self.stage_copy(chunk.bytes, align)?;
            self.fill_staged(&staged, |dst| {
                grid.gather(blocks, chunk.texels, dst);
                if journal {
                    journaled.push(dst.to_vec());
                }
                Ok(())
            })?;
            let copy = chunk_copy(
                staged.offset,
                vk::ImageAspectFlags::COLOR,
                region,
                chunk.texels,
            );
            copies.push((staged.buffer, copy));
        }
        // Each chunk lies on block boundaries inside the region, at a buffer offset that is a
        // multiple of the block.
        self.record_staged_copies(image, &copies, &journaled, grid.bytes())
    }

    /// The blocks of `region` (block-aligned, or reaching the level's edge) of an image of a
    /// block-compressed format, tightly packed: what `glGetTexImage` decodes. Waits for
    /// exactly the submission that carries the copy, like [`MemoryManager::read_image`].
    ///
    /// # Errors
    /// [`MemoryError::InvalidRequest`] for an image of an uncompressed format; the recording,
    /// submission and wait errors of any readback.
    pub fn read_blocks(&mut self, image: ImageHandle, region: &ImageRegion) -> Result<Vec<u8>> {
        if self.is_lost() {
            return Err(MemoryError::DeviceLost);
        }
        let format = self.image_info(image)?.desc.format;
        let block = compressed_block(format)
            .ok_or_else(|| MemoryError::InvalidRequest(format!("block readback of {format:?}")))?;
        let layered = region.layer_count > 1;
        let grid = BlockGrid::of(
            Extent3d {
                width: region.extent.width,
                height: region.extent.height,
                depth: if layered {
                    region.layer_count
                } else {
                    region.extent.depth
                },
            },
            block,
        );
        let copy = vk::BufferImageCopy {
            buffer_offset: 0,
            buffer_row_length: 0,
            buffer_image_height: 0,
            image_subresource: vk::ImageSubresourceLayers {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                mip_level: region.mip_level,
                base_array_layer: region.base_layer,
                layer_count: region.layer_count,
            },
            image_offset: region.offset,
            image_extent: vk::Extent3D {
                depth: if layered { 1 } else { region.extent.depth },
                ..region.extent
            },
        };
        let bytes = grid.bytes();
        let staged = self.read_back(image, copy, bytes)?;
        staged
            .get(..bytes as usize)
            .map(<[u8]>::to_vec)
            .ok_or(MemoryError::Internal("readback shorter than its copy"))
    }
}

/// A region's blocks: columns, rows, slices (or layers), bytes each.
#[derive(Debug, Clone, Copy)]
struct BlockGrid {
    block: TexelBlock,
    columns: usize,
    rows: usize,
    slices: usize,
}

impl BlockGrid {
    fn of(extent: Extent3d, block: TexelBlock) -> Self {
        Self {
            block,
            columns: extent.width.div_ceil(block.width) as usize,
            rows: extent.height.div_ceil(block.height) as usize,
            slices: extent.depth as usize,
        }
    }

    /// Bytes of every block of the region.
    fn bytes(&self) -> u64 {
        (self.columns * self.rows * self.slices) as u64 * u64::from(self.block.bytes)
    }

    /// Copies the blocks of the texel box `texels` (block-aligned, relative to the region)
    /// out of the region's `blocks` into `dst`, tightly packed.
    fn gather(&self, blocks: &[u8], texels: arenagl_staging::TexelBox, dst: &mut [u8]) {
        let bb = self.block.bytes as usize;
        let x0 = (texels.x / self.block.width) as usize;
        let y0 = (texels.y / self.block.height) as usize;
        let cols = texels.width.div_ceil(self.block.width) as usize;
        let rows = texels.height.div_ceil(self.block.height) as usize;
        let row_bytes = cols * bb;
        let mut out = dst.chunks_exact_mut(row_bytes.max(1));
        for z in texels.z as usize..(texels.z + texels.depth) as usize {
            for y in y0..y0 + rows {
                let at = ((z * self.rows + y) * self.columns + x0) * bb;
                if let (Some(to), Some(from)) = (out.next(), blocks.get(at..at + row_bytes)) {
                    to.copy_from_slice(from);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_name_their_blocks() {
        assert_eq!(
            compressed_block(vk::Format::BC1_RGBA_SRGB_BLOCK).map(|b| b.bytes),
            Some(8)
        );
        assert_eq!(
            compressed_block(vk::Format::BC7_UNORM_BLOCK).map(|b| b.bytes),
            Some(16)
        );
        let astc = compressed_block(vk::Format::ASTC_10X6_SRGB_BLOCK);
        assert_eq!(astc.map(|b| (b.width, b.height)), Some((10, 6)));
        assert_eq!(compressed_block(vk::Format::R8G8B8A8_UNORM), None);
    }

    #[test]
    fn gather_takes_the_chunk_block_rows() {
        // 3×2 blocks of 8 bytes, block i filled with i; the chunk is block row 1.
        let block = TexelBlock {
            width: 4,
            height: 4,
            bytes: 8,
        };
        let grid = BlockGrid::of(
            Extent3d {
                width: 10,
                height: 8,
                depth: 1,
            },
            block,
        );
        let blocks: Vec<u8> = (0..6u8).flat_map(|i| [i; 8]).collect();
        let mut dst = vec![0xEE; 24];
        let texels = arenagl_staging::TexelBox {
            x: 0,
            y: 4,
            z: 0,
            width: 10,
            height: 4,
            depth: 1,
        };
        grid.gather(&blocks, texels, &mut dst);
        assert_eq!(dst, [[3u8; 8], [4; 8], [5; 8]].concat());
    }
}
