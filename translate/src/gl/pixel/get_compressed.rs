//! `glGetCompressedTexImage`: the blocks of a compressed level, as the application gave them.
//!
//! Design decisions:
//! - Compressed images are decompressed on upload (no device format is assumed to sample
//!   them), so the device image cannot give the blocks back. The texture keeps, per face and
//!   level, the block bytes `glCompressedTex(Sub)Image*` delivered ([`Texture::blocks`]), in
//!   GL's default compressed layout (block rows of each slice, slices one after another) —
//!   host memory of 1/8 (BC1, BC4, ETC2 RGB) to 1/4 of the decoded texels the device holds.
//!   A sub-image patches its block rows in place; the parts of a level no block was given for
//!   read as zero blocks.
//! - Any other write to a level — `glTexImage*`/`glCopyTexImage*` respecifying it,
//!   `glTexSubImage*`, `glCopyTexSubImage*`, `glCopyImageSubData` into it, `glGenerateMipmap`
//!   filling it, `glTexStorage*` — forgets its blocks: the texels then came from elsewhere and
//!   ArenaGL has no block encoder. Reading such a level back compressed is
//!   `GL_INVALID_OPERATION` with a log that says why (a documented gap: a compressed level
//!   written by those paths can be read with `glGetTexImage`).
//! - The blocks are written in GL's default layout unless the pack state's
//!   `GL_PACK_COMPRESSED_BLOCK_*` parameters (ARB_compressed_texture_pixel_storage) make the
//!   row length, image height and skips apply (`compressed_store.rs`); with a buffer bound to
//!   `GL_PIXEL_PACK_BUFFER` the pointer is an offset into it (`pixel/buffer.rs` checks it).

use crate::gl::context::enums::GLenum;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::texture::internal_format::codec;
use crate::gl::objects::texture::target::TexTarget;
use crate::gl::objects::texture::Texture;
use crate::gl::pixel::compressed_store::BlockLayout;
use crate::gl::pixel::get_tex_image::PackDest;

/// Kept blocks (a level's, or a box of one) and where the pack state puts them.
pub(crate) struct KeptImage {
    pub(crate) blocks: Vec<u8>,
    pub(crate) layout: Option<BlockLayout>,
    /// The command's dimensionality, for the pack state's rules.
    pub(crate) dims: u32,
}

impl KeptImage {
    /// The bytes the command writes into (from the pointer on).
    fn bytes(&self) -> usize {
        self.layout.map_or(self.blocks.len(), |l| l.span())
    }

    /// Writes the blocks into `out` ([`Self::bytes`] long).
    fn write(&self, out: &mut [u8]) {
        match &self.layout {
            Some(layout) => layout.scatter(&self.blocks, out),
            None => out.copy_from_slice(&self.blocks),
        }
    }
}

/// A box of a level in whole blocks: offset and extent in blocks, slices as they are.
struct BlockBox {
    offset: [u32; 3],
    size: [u32; 3],
}

impl Texture {
    /// Records `data`, the blocks just uploaded into the box at `offset` (texels) of
    /// `size` (texels) of (`face`, `level`), whose full GL size is `level_size`.
    pub(crate) fn keep_blocks(
        &mut self,
        (face, level): (u32, u32),
        level_size: [u32; 3],
        (offset, size): ([u32; 3], [u32; 3]),
        codec: arenagl_staging::Codec,
        data: &[u8],
    ) {
        let [fw, fh] = codec.block_size();
        let whole = BlockBox {
            offset: [0; 3],
            size: [
                level_size[0].div_ceil(fw),
                level_size[1].div_ceil(fh),
                level_size[2],
            ],
        };
        let part = BlockBox {
            offset: [offset[0] / fw, offset[1] / fh, offset[2]],
            size: [size[0].div_ceil(fw), size[1].div_ceil(fh), size[2]],
        };
        let bb = codec.block_bytes() as usize;
        let total = whole.size.iter().map(|&v| v as usize).product::<usize>() * bb;
        let blocks = self.blocks.entry((face, level)).or_default();
        if blocks.len() != total {
            *blocks = vec![0; total];
        }
        let row = part.size[0] as usize * bb;
        for z in 0..part.size[2] as usize {
            for y in 0..part.size[1] as usize {
                let src = (z * part.size[1] as usize + y) * row;
                let dz = part.offset[2] as usize + z;
                let dy = part.offset[1] as usize + y;
                let dst = ((dz * whole.size[1] as usize + dy) * whole.size[0] as usize
                    + part.offset[0] as usize)
                    * bb;
                if let (Some(from), Some(to)) =
                    (data.get(src..src + row), blocks.get_mut(dst..dst + row))
                {
                    to.copy_from_slice(from);
                }
            }
        }
    }

    /// Forgets the blocks of (`face`, `level`): its texels were written another way.
    pub(crate) fn forget_blocks(&mut self, face: u32, level: u32) {
        self.blocks.remove(&(face, level));
    }
}

impl Context {
    /// Forgets the blocks of `level` (every face) of texture `name` (`None`: the one bound to
    /// `target`) after a write that did not come as blocks. Not a texture: nothing.
    pub(crate) fn forget_level_blocks(&mut self, name: Option<u32>, target: GLenum, level: i32) {
        let Ok(level) = u32::try_from(level) else {
            return;
        };
        let t = match name {
            Some(name) => self.textures.get_mut(name),
            None => TexTarget::from_image(target).and_then(|(tt, _)| self.bound_texture(tt).ok()),
        };
        if let Some(t) = t {
            t.blocks.retain(|&(_, l), _| l != level);
        }
    }

    /// The bytes `glGetCompressedTexImage` writes for `target`/`level` (0 when it would write
    /// nothing or fail).
    pub fn get_compressed_tex_image_bytes(&mut self, target: GLenum, level: i32) -> usize {
        self.compressed_level(target, level)
            .ok()
            .flatten()
            .map_or(0, |k| k.bytes())
    }

    /// `glGetCompressedTexImage` (`glGetnCompressedTexImage` when `buf_size` is given).
    pub fn get_compressed_tex_image(
        &mut self,
        target: GLenum,
        level: i32,
        buf_size: Option<i32>,
        dest: PackDest<'_>,
    ) {
        let r = (|| {
            let Some(kept) = self.compressed_level(target, level)? else {
                return Ok(());
            };
            self.pack_kept("glGetCompressedTexImage", &kept, buf_size, dest)
        })();
        self.record(r);
    }

    /// Writes `kept` to `dest` under the pack state, after GL's checks on the skips and on
    /// `buf_size` (the `glGetn*`/`glGet*Texture*` commands' room).
    pub(crate) fn pack_kept(
        &mut self,
        call: &str,
        kept: &KeptImage,
        buf_size: Option<i32>,
        dest: PackDest<'_>,
    ) -> GlResult<()> {
        self.pack_blocks.check_skips(kept.dims, &self.pack)?;
        let bytes = kept.bytes();
        if buf_size.is_some_and(|n| (n.max(0) as usize) < bytes) {
            return invalid_op(format!(
                "{call}: bufSize is below the image's {bytes} bytes"
            ));
        }
        match dest {
            PackDest::Client(out) => match out.get_mut(..bytes) {
                Some(out) => kept.write(out),
                None => return invalid_op("client memory shorter than the compressed image"),
            },
            PackDest::Buffer(offset) => {
                self.pack_into_buffer(call, (offset, bytes, 0), |_, out| kept.write(out))
            }
        }
        Ok(())
    }

    /// The blocks of the bound texture's `level` of `target`: `None` for no image (nothing is
    /// written, no error); GL's target and level errors, `GL_INVALID_OPERATION` for a level
    /// that is not compressed or whose blocks ArenaGL does not have.
    fn compressed_level(&mut self, target: GLenum, level: i32) -> GlResult<Option<KeptImage>> {
        let (tt, face) = match TexTarget::from_image(target) {
            Some((tt, face)) if !tt.is_multisample() => (tt, face),
            _ => return invalid_enum("glGetCompressedTexImage target", target),
        };
        let (_, max_levels) =
            crate::gl::objects::texture::api::limits_of(tt, &self.device.caps().limits);
        if level < 0 || level as u32 >= max_levels {
            return invalid_value(format!("glGetCompressedTexImage level {level}"));
        }
        let t = self.bound_texture(tt)?;
        let Some(s) = t.storage.as_ref() else {
            return Ok(None);
        };
        if !s.face_level_defined(face, level as u32) {
            return Ok(None);
        }
        let Some(codec) = codec(s.internal) else {
            return invalid_op("glGetCompressedTexImage of a texture that is not compressed");
        };
        let [w, h, _] = s.level_size(level as u32);
        let dims = tt.dims();
        match t.blocks.get(&(face, level as u32)) {
            Some(blocks) => {
                let blocks = blocks.clone();
                let slice_bytes = codec.image_bytes(w, h, 1).unwrap_or(0).max(1) as usize;
                let slices = (blocks.len() / slice_bytes) as u32;
                let layout = self.compressed_pack_layout(dims, codec, [w, h, slices]);
                Ok(Some(KeptImage {
                    blocks,
                    layout,
                    dims,
                }))
            }
            None => invalid_op(
                "glGetCompressedTexImage: this level's texels were not given as compressed \
                 blocks (ArenaGL has no block encoder; glGetTexImage reads them)",
            ),
        }
    }
}
