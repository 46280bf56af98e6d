//! GL_ARB_compressed_texture_pixel_storage: `GL_{UN,}PACK_COMPRESSED_BLOCK_{WIDTH,HEIGHT,DEPTH,
//! SIZE}`, under which compressed uploads and `glGetCompressedTexImage` honour the row length,
//! image height and skips of the pixel-store state, counted in blocks.
//!
//! Design decisions:
//! - The block parameters live beside the pixel-store state ([`BlockStore`], one for pack and
//!   one for unpack); GL's rules decide per axis whether they apply: the row axis when the
//!   block size and width are set, rows also with the block height (2D and 3D commands),
//!   images also with the block depth (3D commands) — OpenGL 4.6 §8.7 and §8.11.
//! - [`BlockLayout`] is where the image's block rows lie in client memory (or a pixel buffer):
//!   a skip, a row stride, a slice stride. Uploads [`BlockLayout::gather`] the tight image out
//!   of it before the ordinary compressed path runs; `glGetCompressedTexImage`
//!   [`BlockLayout::scatter`]s the kept blocks into it, leaving the bytes between rows alone.
//!   A state that changes nothing is no layout at all (`None`): the image is read as given.
//! - Row lengths and image heights round up to whole blocks; skips must be whole blocks
//!   (`GL_INVALID_OPERATION` otherwise, as Mesa and the spec's errors have it).

use arenagl_staging::{Codec, PixelStore};

use crate::gl::context::enums::GLenum;
use crate::gl::context::error::{invalid_op, invalid_value, GlResult};
use crate::gl::context::Context;

/// `GL_UNPACK_COMPRESSED_BLOCK_WIDTH`; height, depth and size follow it.
pub(crate) const GL_UNPACK_COMPRESSED_BLOCK_WIDTH: GLenum = 0x9127;
/// `GL_PACK_COMPRESSED_BLOCK_WIDTH`; height, depth and size follow it.
pub(crate) const GL_PACK_COMPRESSED_BLOCK_WIDTH: GLenum = 0x912B;

/// The block parameters of one direction (pack or unpack); 0 means "not given".
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct BlockStore {
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) depth: u32,
    pub(crate) size: u32,
}

impl BlockStore {
    /// Which axes (x, y, z) the parameters apply to for a `dims`-dimensional command.
    fn axes(&self, dims: u32) -> [bool; 3] {
        let sized = self.size > 0;
        [
            sized && self.width > 0,
            sized && dims > 1 && self.height > 0,
            sized && dims > 2 && self.depth > 0,
        ]
    }

    /// GL's error for skips that are not whole blocks.
    pub(crate) fn check_skips(&self, dims: u32, store: &PixelStore) -> GlResult<()> {
        let [x, y, z] = self.axes(dims);
        let whole = |on: bool, skip: u32, block: u32| !on || skip % block == 0;
        if !whole(x, store.skip_pixels, self.width)
            || !whole(y, store.skip_rows, self.height)
            || !whole(z, store.skip_images, self.depth)
        {
            return invalid_op("the skip pixels, rows or images are not whole compressed blocks");
        }
        Ok(())
    }
}

/// Where a compressed image's block rows lie in client memory: row `r` of slice `s` is
/// `row_bytes` bytes at `skip + s * slice_stride + r * row_stride`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockLayout {
    skip: usize,
    row_stride: usize,
    slice_stride: usize,
    row_bytes: usize,
    rows: usize,
    slices: usize,
}

impl BlockLayout {
    /// The layout of a `size` image of `codec` blocks under `store` and `blocks` for a
    /// `dims`-dimensional command; `None` when it is the tight default one.
    pub(crate) fn of(
        dims: u32,
        codec: Codec,
        size: [u32; 3],
        store: &PixelStore,
        blocks: &BlockStore,
    ) -> Option<Self> {
        let [x, y, z] = blocks.axes(dims);
        let bytes = codec.block_bytes() as usize;
        let [fw, fh] = codec.block_size();
        let row_bytes = size[0].div_ceil(fw) as usize * bytes;
        let mut layout = Self {
            skip: 0,
            row_stride: row_bytes,
            slice_stride: 0,
            row_bytes,
            rows: size[1].div_ceil(fh) as usize,
            slices: size[2] as usize,
        };
        let per_block = |v: u32, block: u32| v.div_ceil(block) as usize;
        if x {
            if store.row_length > 0 {
                layout.row_stride =
                    per_block(store.row_length, blocks.width) * blocks.size as usize;
            }
            layout.skip +=
                store.skip_pixels as usize / blocks.width as usize * blocks.size as usize;
        }
        let mut rows_per_slice = layout.rows;
        if y {
            layout.skip += store.skip_rows as usize / blocks.height as usize * layout.row_stride;
            layout.rows = per_block(size[1], blocks.height);
            if store.image_height > 0 {
                rows_per_slice = per_block(store.image_height, blocks.height);
            } else {
                rows_per_slice = layout.rows;
            }
        }
        layout.slice_stride = layout.row_stride * rows_per_slice;
        if z {
            layout.skip += store.skip_images as usize / blocks.depth as usize * layout.slice_stride;
        }
        let tight = layout.skip == 0
            && layout.row_stride == row_bytes
            && (layout.slices <= 1 || layout.slice_stride == row_bytes * layout.rows);
        (!tight).then_some(layout)
    }

    /// The bytes from the start of client memory to the end of the image's last block row.
    pub fn span(&self) -> usize {
        if self.rows == 0 || self.slices == 0 || self.row_bytes == 0 {
            return 0;
        }
        self.skip
            + (self.slices - 1) * self.slice_stride
            + (self.rows - 1) * self.row_stride
            + self.row_bytes
    }

    /// Each block row's place in client memory and in the tight image.
    fn rows(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.slices).flat_map(move |s| {
            (0..self.rows).map(move |r| {
                let client = self.skip + s * self.slice_stride + r * self.row_stride;
                (client, (s * self.rows + r) * self.row_bytes)
            })
        })
    }

    /// The tight image out of `src` (client memory of at least [`Self::span`] bytes; a shorter
    /// one leaves the missing rows zero).
    pub fn gather(&self, src: &[u8]) -> Vec<u8> {
        let mut out = vec![0u8; self.slices * self.rows * self.row_bytes];
        for (client, tight) in self.rows() {
            if let Some(row) = src.get(client..client + self.row_bytes) {
                out[tight..tight + self.row_bytes].copy_from_slice(row);
            }
        }
        out
    }

    /// Writes the tight image `blocks` into `dst` (client memory of at least [`Self::span`]
    /// bytes); bytes between rows keep their values.
    pub(crate) fn scatter(&self, blocks: &[u8], dst: &mut [u8]) {
        for (client, tight) in self.rows() {
            let (Some(to), Some(from)) = (
                dst.get_mut(client..client + self.row_bytes),
                blocks.get(tight..tight + self.row_bytes),
            ) else {
                continue;
            };
            to.copy_from_slice(from);
        }
    }
}

impl Context {
    /// `glPixelStorei` of a `GL_*_COMPRESSED_BLOCK_*` name; `None` for other names.
    pub(crate) fn block_store_param(&mut self, pname: GLenum, value: i32) -> Option<GlResult<()>> {
        let (store, at) = match pname {
            0x9127..=0x912A => (
                &mut self.unpack_blocks,
                pname - GL_UNPACK_COMPRESSED_BLOCK_WIDTH,
            ),
            0x912B..=0x912E => (
                &mut self.pack_blocks,
                pname - GL_PACK_COMPRESSED_BLOCK_WIDTH,
            ),
            _ => return None,
        };
        if value < 0 {
            return Some(invalid_value(format!(
                "negative compressed block parameter {value}"
            )));
        }
        let v = value as u32;
        match at {
            0 => store.width = v,
            1 => store.height = v,
            2 => store.depth = v,
            _ => store.size = v,
        }
        Some(Ok(()))
    }

    /// `glGet` of a `GL_*_COMPRESSED_BLOCK_*` name; `None` for other names.
    pub(crate) fn block_store_value(&self, pname: GLenum) -> Option<i64> {
        let (store, at) = match pname {
            0x9127..=0x912A => (
                &self.unpack_blocks,
                pname - GL_UNPACK_COMPRESSED_BLOCK_WIDTH,
            ),
            0x912B..=0x912E => (&self.pack_blocks, pname - GL_PACK_COMPRESSED_BLOCK_WIDTH),
            _ => return None,
        };
        Some(i64::from(match at {
            0 => store.width,
            1 => store.height,
            2 => store.depth,
            _ => store.size,
        }))
    }

    /// Where a compressed upload of a `size` image of `format` (its `image_size` bytes as
    /// given) lies in client memory under the unpack state; `None` when it is read as given
    /// (default layout, a format or size the command will refuse).
    pub fn compressed_unpack_layout(
        &self,
        dims: u32,
        format: GLenum,
        size: [i32; 3],
        image_size: usize,
    ) -> Option<BlockLayout> {
        let codec = crate::gl::objects::texture::internal_format::codec(format)?;
        if size.iter().any(|&v| v < 0) {
            return None;
        }
        let size = size.map(|v| v as u32);
        if codec.image_bytes(size[0], size[1], size[2]) != Some(image_size as u64) {
            return None;
        }
        BlockLayout::of(dims, codec, size, &self.unpack, &self.unpack_blocks)
    }

    /// The layout `glGetCompressedTexImage` writes a `size` image of `codec` blocks in.
    pub(crate) fn compressed_pack_layout(
        &self,
        dims: u32,
        codec: Codec,
        size: [u32; 3],
    ) -> Option<BlockLayout> {
        BlockLayout::of(dims, codec, size, &self.pack, &self.pack_blocks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BC1: Codec = Codec::Bc1 { alpha: false };
    const BLOCKS: BlockStore = BlockStore {
        width: 4,
        height: 4,
        depth: 1,
        size: 8,
    };

    #[test]
    fn row_length_and_skips_count_in_blocks() {
        // An 8×8 BC1 image (2×2 blocks) inside a 16-texel-wide store, 1 block row and 1 block
        // column skipped.
        let store = PixelStore {
            row_length: 16,
            skip_pixels: 4,
            skip_rows: 4,
            ..PixelStore::default()
        };
        let layout = BlockLayout::of(2, BC1, [8, 8, 1], &store, &BLOCKS).expect("a layout");
        // Rows of 4 blocks (32 bytes); skip one row and one block: 40 bytes.
        assert_eq!(layout.span(), 40 + 32 + 16);
        let src: Vec<u8> = (0..layout.span() as u8).collect();
        let tight = layout.gather(&src);
        assert_eq!(tight[..16], src[40..56]);
        assert_eq!(tight[16..], src[72..88]);
        let mut back = vec![0xAAu8; layout.span()];
        layout.scatter(&tight, &mut back);
        assert_eq!(back[40..56], src[40..56]);
        assert_eq!(back[56..72], [0xAA; 16]);
    }

    #[test]
    fn the_default_state_is_no_layout_and_skips_must_be_whole_blocks() {
        let store = PixelStore::default();
        assert_eq!(BlockLayout::of(2, BC1, [8, 8, 1], &store, &BLOCKS), None);
        // Without a block size the unpack state is ignored for compressed images.
        let row_length = PixelStore {
            row_length: 16,
            ..PixelStore::default()
        };
        let no_size = BlockStore { size: 0, ..BLOCKS };
        assert_eq!(
            BlockLayout::of(2, BC1, [8, 8, 1], &row_length, &no_size),
            None
        );
        let odd = PixelStore {
            skip_pixels: 2,
            ..PixelStore::default()
        };
        assert!(BLOCKS.check_skips(2, &odd).is_err());
        assert!(BLOCKS.check_skips(2, &row_length).is_ok());
    }
}
