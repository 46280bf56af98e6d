//! Cutting uploads larger than an arena into chunks that each fit in one.
//!
//! Design decisions:
//! - A chunk never exceeds `max_chunk` bytes (the caller passes its arena size, so every chunk
//!   fits in an empty primary or overflow block at offset 0). Chunks come out in order and cover
//!   the upload exactly once.
//! - Buffers are cut anywhere: `vkCmdCopyBuffer` has no size granularity.
//! - Images are cut into boxes, each one `vkCmdCopyBufferToImage` region of tightly packed
//!   texels, preferring the coarsest cut that fits: the whole region; else runs of whole images
//!   (3D slices or layers); else runs of whole rows inside one image; and only when a single row
//!   is larger than a chunk, runs of texel blocks inside one row — still a valid copy region
//!   (an x offset and width), so even a tiny arena (shrunk under pressure) can upload any image.
//! - Block-compressed formats are planned in whole blocks ([`TexelBlock`]); box edges fall on
//!   block boundaries except where the image itself ends, as Vulkan requires.
//! - Byte sizes of the staged data are those of the *device* format (RGB → RGBA8 grows by 4/3),
//!   so the planner takes the device texel block, not the client pixel size.

use std::num::NonZeroU64;
use std::ops::Range;

use crate::error::StagingError;
use crate::region::{Extent3d, TexelBox};

/// Cuts `len` bytes into consecutive ranges of at most `max_chunk` bytes.
pub fn split_buffer(len: u64, max_chunk: NonZeroU64) -> BufferChunks {
    BufferChunks {
        next: 0,
        len,
        max_chunk: max_chunk.get(),
    }
}

/// The ranges of [`split_buffer`], in order.
#[derive(Debug, Clone)]
pub struct BufferChunks {
    next: u64,
    len: u64,
    max_chunk: u64,
}

impl Iterator for BufferChunks {
    type Item = Range<u64>;

    fn next(&mut self) -> Option<Range<u64>> {
        if self.next >= self.len {
            return None;
        }
        let start = self.next;
        let end = start + (self.len - start).min(self.max_chunk);
        self.next = end;
        Some(start..end)
    }
}

/// The unit a device format is copied in: 1×1 texel for uncompressed formats, the compression
/// block otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TexelBlock {
    /// Block width in texels.
    pub width: u32,
    /// Block height in texels.
    pub height: u32,
    /// Bytes per block.
    pub bytes: u32,
}

impl TexelBlock {
    /// A 1×1 block of `bytes` bytes (any uncompressed format).
    pub const fn uncompressed(bytes: u32) -> Self {
        Self {
            width: 1,
            height: 1,
            bytes,
        }
    }
}

/// One chunk of an image upload: a box of the region and the bytes its staged texels take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ImageChunk {
    /// The texels, relative to the region.
    pub texels: TexelBox,
    /// Bytes of the tightly packed staged texels (at most the chunk limit).
    pub bytes: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cut {
    /// Runs of whole images.
    Images,
    /// Runs of whole block rows inside one image.
    Rows,
    /// Runs of blocks inside one block row.
    Blocks,
}

/// Plans the chunks of an image upload of `extent` in `block`s, each at most `max_chunk` bytes.
///
/// # Errors
/// [`StagingError::Internal`] when a single texel block is larger than `max_chunk` or the block
/// has a zero dimension.
pub fn split_image(
    extent: Extent3d,
    block: TexelBlock,
    max_chunk: NonZeroU64,
) -> Result<ImageChunks, StagingError> {
    if block.width == 0 || block.height == 0 || block.bytes == 0 {
        return Err(StagingError::Internal("texel block with a zero dimension"));
    }
    let max = max_chunk.get();
    let block_bytes = u64::from(block.bytes);
    if block_bytes > max {
        return Err(StagingError::Internal("chunk limit below one texel block"));
    }
    let blocks_x = u64::from(extent.width.div_ceil(block.width));
    let blocks_y = u64::from(extent.height.div_ceil(block.height));
    // Products that overflow are certainly larger than `max`.
    let row_bytes = blocks_x.checked_mul(block_bytes);
    let image_bytes = row_bytes.and_then(|r| r.checked_mul(blocks_y));
    let (cut, unit_bytes) = match (image_bytes, row_bytes) {
        (Some(image), _) if image <= max => (Cut::Images, image),
        (_, Some(row)) if row <= max => (Cut::Rows, row),
        _ => (Cut::Blocks, block_bytes),
    };
    Ok(ImageChunks {
        extent,
        block,
        cut,
        // At least 1: `unit_bytes <= max`. Zero-sized units (empty extent) yield no chunks.
        units_per_chunk: max.checked_div(unit_bytes).unwrap_or(1).max(1),
        blocks_x,
        blocks_y,
        cursor: (0, 0, 0),
        done: extent.is_empty(),
    })
}

/// The chunks of [`split_image`], in order (images, then rows, then columns ascending).
#[derive(Debug, Clone)]
pub struct ImageChunks {
    extent: Extent3d,
    block: TexelBlock,
    cut: Cut,
    units_per_chunk: u64,
    blocks_x: u64,
    blocks_y: u64,
    /// Next (block column, block row, image).
    cursor: (u64, u64, u64),
    done: bool,
}

impl ImageChunks {
    /// Texel span `[first_block, first_block + count)` of blocks of `size` texels, clipped to
    /// `limit` texels: (origin, length).
    fn span(first_block: u64, count: u64, size: u32, limit: u32) -> (u32, u32) {
        let size = u64::from(size);
        let origin = (first_block * size).min(u64::from(limit));
        let end = ((first_block + count) * size).min(u64::from(limit));
        // Both are ≤ `limit`, a u32.
        (origin as u32, (end - origin) as u32)
    }
}

impl Iterator for ImageChunks {
    type Item = ImageChunk;

    fn next(&mut self) -> Option<ImageChunk> {
        if self.done {
            return None;
        }
        let (bx, by, z) = self.cursor;
        let depth = u64::from(self.extent.depth);
        let (blocks, rows, images);
        match self.cut {
            Cut::Images => {
                images = self.units_per_chunk.min(depth - z);
                (blocks, rows) = (self.blocks_x, self.blocks_y);
                self.cursor = (0, 0, z + images);
            }
            Cut::Rows => {
                rows = self.units_per_chunk.min(self.blocks_y - by);
                (blocks, images) = (self.blocks_x, 1);
                self.cursor = if by + rows == self.blocks_y {
                    (0, 0, z + 1)
                } else {
                    (0, by + rows, z)
                };
            }
            Cut::Blocks => {
                blocks = self.units_per_chunk.min(self.blocks_x - bx);
                (rows, images) = (1, 1);
                self.cursor = match (bx + blocks == self.blocks_x, by + 1 == self.blocks_y) {
                    (false, _) => (bx + blocks, by, z),
                    (true, false) => (0, by + 1, z),
                    (true, true) => (0, 0, z + 1),
                };
            }
        }
        self.done = self.cursor.2 >= depth;
        let (x, width) = Self::span(bx, blocks, self.block.width, self.extent.width);
        let (y, height) = Self::span(by, rows, self.block.height, self.extent.height);
        Some(ImageChunk {
            texels: TexelBox {
                x,
                y,
                z: z as u32,
                width,
                height,
                depth: images as u32,
            },
            bytes: blocks * rows * images * u64::from(self.block.bytes),
        })
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn nz(v: u64) -> NonZeroU64 {
        NonZeroU64::new(v).unwrap_or(NonZeroU64::MIN)
    }

    #[test]
    fn buffer_example() {
        let chunks: Vec<_> = split_buffer(10, nz(4)).collect();
        assert_eq!(chunks, vec![0..4, 4..8, 8..10]);
        assert_eq!(split_buffer(0, nz(4)).count(), 0);
    }

    #[test]
    fn image_prefers_whole_images_then_rows_then_spans() -> Result<(), StagingError> {
        let rgba = TexelBlock::uncompressed(4);
        let boxes = |extent, max| -> Result<Vec<TexelBox>, StagingError> {
            Ok(split_image(extent, rgba, nz(max))?
                .map(|c| c.texels)
                .collect())
        };
        // 4×4 RGBA = 64 bytes per image; 3 images in chunks of 2 images.
        let got = boxes(Extent3d::new(4, 4, 3), 130)?;
        assert_eq!(got.len(), 2);
        assert_eq!(
            (got[0].z, got[0].depth, got[1].z, got[1].depth),
            (0, 2, 2, 1)
        );
        // Rows of 16 bytes, 3 rows per chunk, never crossing an image.
        let got = boxes(Extent3d::new(4, 4, 2), 50)?;
        let rows: Vec<_> = got.iter().map(|b| (b.z, b.y, b.height)).collect();
        assert_eq!(rows, vec![(0, 0, 3), (0, 3, 1), (1, 0, 3), (1, 3, 1)]);
        // A row of 16 bytes in 8-byte chunks: spans of 2 texels.
        let got = boxes(Extent3d::new(4, 1, 1), 8)?;
        let spans: Vec<_> = got.iter().map(|b| (b.x, b.width)).collect();
        assert_eq!(spans, vec![(0, 2), (2, 2)]);
        assert_eq!(
            split_image(Extent3d::new(4, 1, 1), rgba, nz(3)).map(|_| ()),
            Err(StagingError::Internal("chunk limit below one texel block"))
        );
        Ok(())
    }

    proptest! {
        #[test]
        fn buffer_chunks_cover_exactly_once_and_fit(len in 0u64..10_000, max in 1u64..3000) {
            let mut next = 0;
            for chunk in split_buffer(len, nz(max)) {
                prop_assert_eq!(chunk.start, next, "gap or overlap");
                prop_assert!(!chunk.is_empty() && chunk.end - chunk.start <= max);
                next = chunk.end;
            }
            prop_assert_eq!(next, len);
        }

        #[test]
        fn image_chunks_cover_exactly_once_and_fit(
            width in 0u32..24, height in 0u32..24, depth in 0u32..5,
            block in prop::sample::select(vec![
                TexelBlock::uncompressed(1),
                TexelBlock::uncompressed(3),
                TexelBlock::uncompressed(4),
                TexelBlock { width: 4, height: 4, bytes: 8 },  // BC1, ETC2 RGB
                TexelBlock { width: 5, height: 4, bytes: 16 }, // ASTC 5×4
            ]),
            max in 1u64..2500,
        ) {
            prop_assume!(u64::from(block.bytes) <= max);
            let extent = Extent3d::new(width, height, depth);
            let blocks_x = u64::from(width.div_ceil(block.width));
            let blocks_y = u64::from(height.div_ceil(block.height));
            let row = blocks_x * u64::from(block.bytes);
            let image = row * blocks_y;
            let mut covered = vec![0u8; (width * height * depth) as usize];
            for chunk in split_image(extent, block, nz(max))? {
                let b = chunk.texels;
                prop_assert!(!b.is_empty() && b.fits_in(extent), "{:?} outside {:?}", b, extent);
                prop_assert!(chunk.bytes <= max, "{} bytes > {}", chunk.bytes, max);
                // Bytes are those of the whole blocks the box touches.
                let expect = u64::from(b.width.div_ceil(block.width))
                    * u64::from(b.height.div_ceil(block.height))
                    * u64::from(b.depth) * u64::from(block.bytes);
                prop_assert_eq!(chunk.bytes, expect);
                // Edges on block boundaries unless the image ends there.
                prop_assert!(b.x % block.width == 0 && b.y % block.height == 0);
                prop_assert!((b.x + b.width) % block.width == 0 || b.x + b.width == width);
                prop_assert!((b.y + b.height) % block.height == 0 || b.y + b.height == height);
                // The coarsest cut that fits.
                if image <= max {
                    prop_assert!(b.width == width && b.height == height);
                } else if row <= max {
                    prop_assert!(b.width == width && b.depth == 1);
                } else {
                    prop_assert!(b.depth == 1 && b.height <= block.height);
                }
                for z in b.z..b.z + b.depth {
                    for y in b.y..b.y + b.height {
                        for x in b.x..b.x + b.width {
                            covered[((z * height + y) * width + x) as usize] += 1;
                        }
                    }
                }
            }
            prop_assert!(covered.iter().all(|&c| c == 1), "a texel is covered {:?} times",
                covered.iter().find(|&&c| c != 1));
        }
    }
}
