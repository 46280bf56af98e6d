//! `glGetTextureSubImage` (GL 4.5, `GL_ARB_get_texture_sub_image`): a box of one level of a
//! texture named directly, read back like `glGetTexImage` reads a whole level.
//!
//! Design decisions:
//! - The box becomes the region of a `get_tex_image::Level` and is packed by the same code
//!   (`Context::pack_level`): the same conversions, the same depth/stencil path, the same pack
//!   buffer handling. A cube map's faces are its z axis (layers of the cube image).
//! - `glGetCompressedTextureSubImage` copies the box's block rows out of the blocks the
//!   texture keeps per face and level (`get_compressed.rs`), in GL's default compressed layout;
//!   a level whose blocks ArenaGL does not have is `GL_INVALID_OPERATION`, as for
//!   `glGetCompressedTexImage`.
//! - Errors follow GL 4.6 §8.11.4 in Mesa's order: no such texture (or one never bound) is
//!   `GL_INVALID_OPERATION`, as are buffer and multisample textures and a box over cube faces
//!   that are not all defined; a level out of range, a negative offset or size, a box outside
//!   the level (a level not defined is one of size 0), a box a target cannot have or a
//!   compressed box off the 4×4 block grid `GL_INVALID_VALUE`; a `bufSize` smaller than the
//!   packed box `GL_INVALID_OPERATION`.

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_op, invalid_value, GlError, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::texture::api::{image_region, limits_of};
use crate::gl::objects::texture::internal_format::codec;
use crate::gl::objects::texture::target::TexTarget;
use crate::gl::objects::texture::Texture;
use crate::gl::pixel::get_compressed::KeptImage;
use crate::gl::pixel::get_tex_image::{classify, Level, PackDest};

/// The box a sub-image query reads: offset and size in GL axes.
type SubBox = ([i32; 3], [i32; 3]);

impl Context {
    /// `glGetTextureSubImage`: `dest` is the client memory of `bufSize` bytes, or the offset
    /// into the pixel pack buffer.
    pub fn get_texture_sub_image(
        &mut self,
        name: u32,
        level: i32,
        area: SubBox,
        (format, ty): (GLenum, GLenum),
        dest: PackDest<'_>,
    ) {
        let r = (|| {
            let Some(l) = self.texture_sub_level(name, level, area)? else {
                return Ok(());
            };
            let pixel = classify(format, ty)?;
            self.end_pass();
            self.pack_level(l, (format, ty), pixel, dest)
        })();
        self.record(r);
        self.rewind_idle_staging();
    }

    /// The texture `name` a sub-image query reads, its target and `level`, with GL's checks
    /// of the object, the level and the box `area`.
    fn sub_image_texture(
        &self,
        name: u32,
        level: i32,
        area: SubBox,
    ) -> GlResult<(&Texture, TexTarget, u32)> {
        let t = self
            .textures
            .get(name)
            .filter(|t| name != 0 && t.named())
            .ok_or_else(|| GlError::InvalidOperation(format!("{name} is not a texture")))?;
        let Some(tt) = t.target.filter(|_| t.buffer.is_none()) else {
            return invalid_op(
                "glGet*TextureSubImage of a texture never bound or a buffer texture",
            );
        };
        if tt.is_multisample() {
            return invalid_op("glGet*TextureSubImage of a multisample texture");
        }
        let (_, max_levels) = limits_of(tt, &self.device.caps().limits);
        if level < 0 || level as u32 >= max_levels {
            return invalid_value(format!("glGet*TextureSubImage level {level}"));
        }
        let level = level as u32;
        check_sub_box(tt, area, level_extent(t, tt, level, area.0[2]))?;
        if tt == TexTarget::Cube && !faces_defined(t, level, area) {
            return invalid_op("glGet*TextureSubImage over cube faces that are not defined");
        }
        Ok((t, tt, level))
    }

    /// The box `area` of `level` of texture `name`, checked; `None` for an empty box.
    fn texture_sub_level(&self, name: u32, level: i32, area: SubBox) -> GlResult<Option<Level>> {
        let (t, tt, level) = self.sub_image_texture(name, level, area)?;
        let (offset, size) = area;
        let Some(s) = t.storage.as_ref().filter(|_| !size.contains(&0)) else {
            return Ok(None);
        };
        // A cube map's faces are the layers of its image: read as a 2D array of them.
        let target = if tt == TexTarget::Cube {
            TexTarget::D2Array
        } else {
            tt
        };
        let size = size.map(|v| v as u32);
        Ok(Some(Level {
            image: s.image,
            format: s.format,
            info: s.info,
            target,
            // A texture view's levels and layers lie at its origin in the shared image.
            region: s.vk_region(&image_region(target, 0, level, offset, size)),
            size,
        }))
    }
}

/// Whether every cube face the box covers has `level` defined.
fn faces_defined(t: &Texture, level: u32, (offset, size): SubBox) -> bool {
    let faces = offset[2].max(0) as u32..(offset[2] + size[2]).max(0) as u32;
    t.storage
        .as_ref()
        .is_some_and(|s| faces.into_iter().all(|f| s.face_level_defined(f, level)))
}

/// The GL size of `level` a box may cover (for a cube map: that of face `first_face`, with the
/// six faces as depth). A level not defined is an empty image: zeros on the axes the target
/// has, 1 on the others (a 2D image of no texels is still one slice deep).
fn level_extent(t: &Texture, tt: TexTarget, level: u32, first_face: i32) -> [u32; 3] {
    let empty = match tt {
        TexTarget::D1 => [0, 1, 1],
        TexTarget::D1Array | TexTarget::D2 | TexTarget::Rect => [0, 0, 1],
        _ => [0; 3],
    };
    let Some(s) = t.storage.as_ref() else {
        return empty;
    };
    if tt == TexTarget::Cube {
        let face = first_face.clamp(0, 5) as u32;
        let size = s.level_size(level);
        return if s.face_level_defined(face, level) {
            [size[0], size[1], 6]
        } else {
            empty
        };
    }
    if s.level_defined(level) {
        s.level_size(level)
    } else {
        empty
    }
}

/// GL's offset and size rules for `tt`: `GL_INVALID_VALUE` for a negative value, a box a
/// 1D or 2D target cannot have, or one outside `extent`.
fn check_sub_box(tt: TexTarget, (offset, size): SubBox, extent: [u32; 3]) -> GlResult<()> {
    if offset.iter().chain(&size).any(|&v| v < 0) {
        return invalid_value(format!("glGetTextureSubImage box {offset:?} {size:?}"));
    }
    // An empty box (a size of 0) is no error on any target.
    let flat = |axis: usize| offset[axis] != 0 || size[axis] > 1;
    let bad_shape = match tt {
        TexTarget::D1 => flat(1) || flat(2),
        TexTarget::D1Array | TexTarget::D2 | TexTarget::Rect => flat(2),
        _ => false,
    };
    let outside = (0..3).any(|a| offset[a] as i64 + size[a] as i64 > i64::from(extent[a]));
    if bad_shape || outside {
        return invalid_value(format!(
            "glGetTextureSubImage box {offset:?} {size:?} for {tt:?} of {extent:?}"
        ));
    }
    Ok(())
}

/// GL's block-grid rule of compressed boxes: offsets on `block` boundaries, sizes whole
/// blocks or reaching the level's edge (`GL_INVALID_VALUE`).
fn check_block_grid((offset, size): SubBox, extent: [u32; 3], block: [u32; 2]) -> GlResult<()> {
    let block = block.map(|v| v as i32);
    let aligned = (0..2).all(|a| {
        offset[a] % block[a] == 0
            && (size[a] % block[a] == 0 || (offset[a] + size[a]) as u32 == extent[a])
    });
    if !aligned {
        return invalid_value(format!(
            "glGetCompressedTextureSubImage box {offset:?} {size:?} off the {}x{} block grid",
            block[0], block[1]
        ));
    }
    Ok(())
}

/// The blocks of the box `(offset, size)` (texels; z in slices) out of a whole level's blocks
/// `whole` of GL size `extent`, `codec`'s blocks, in GL's default compressed layout.
fn blocks_of_box(
    whole: &[u8],
    extent: [u32; 3],
    (offset, size): SubBox,
    codec: arenagl_staging::Codec,
) -> Vec<u8> {
    let [fw, fh] = codec.block_size().map(|v| v as usize);
    let bb = codec.block_bytes() as usize;
    let grid = [
        (extent[0] as usize).div_ceil(fw),
        (extent[1] as usize).div_ceil(fh),
    ];
    let (bx, by) = (offset[0] as usize / fw, offset[1] as usize / fh);
    let cols = (size[0] as usize).div_ceil(fw);
    let rows = (size[1] as usize).div_ceil(fh);
    let mut out = Vec::with_capacity(cols * rows * bb);
    for y in by..by + rows {
        let at = (y * grid[0] + bx) * bb;
        out.extend_from_slice(whole.get(at..at + cols * bb).unwrap_or(&[]));
    }
    out
}

impl Context {
    /// `glGetCompressedTextureSubImage`: the blocks of a box of `level` of texture `name`.
    pub fn get_compressed_texture_sub_image(
        &mut self,
        name: u32,
        level: i32,
        area: SubBox,
        buf_size: i32,
        dest: PackDest<'_>,
    ) {
        let r = (|| {
            let kept = self.compressed_sub_blocks(name, level, area)?;
            if kept.blocks.is_empty() {
                return Ok(());
            }
            self.pack_kept(
                "glGetCompressedTextureSubImage",
                &kept,
                Some(buf_size),
                dest,
            )
        })();
        self.record(r);
    }

    /// The checked box's blocks, slice after slice (empty for an empty box), and where the pack
    /// state puts them.
    fn compressed_sub_blocks(&self, name: u32, level: i32, area: SubBox) -> GlResult<KeptImage> {
        let (t, tt, level) = self.sub_image_texture(name, level, area)?;
        let Some(s) = t.storage.as_ref() else {
            return Ok(KeptImage {
                blocks: Vec::new(),
                layout: None,
                dims: tt.dims(),
            });
        };
        let Some(codec) = codec(s.internal) else {
            return invalid_op(
                "glGetCompressedTextureSubImage of a texture that is not compressed",
            );
        };
        let extent = s.level_size(level);
        check_block_grid(area, extent, codec.block_size())?;
        let (offset, size) = area;
        let empty = KeptImage {
            blocks: Vec::new(),
            layout: None,
            dims: tt.dims(),
        };
        if size.contains(&0) {
            return Ok(empty);
        }
        let slice_bytes = codec.image_bytes(extent[0], extent[1], 1).unwrap_or(0) as usize;
        let mut out = Vec::new();
        for z in offset[2]..offset[2] + size[2] {
            // Cube faces keep their blocks apart; array layers and 3D slices follow each other.
            let (key, at) = if tt == TexTarget::Cube {
                ((z as u32, level), 0)
            } else {
                ((0, level), z as usize * slice_bytes)
            };
            let whole = t.blocks.get(&key).and_then(|b| b.get(at..at + slice_bytes));
            let Some(whole) = whole else {
                return invalid_op(
                    "glGetCompressedTextureSubImage: this level's texels were not given as \
                     compressed blocks (ArenaGL has no block encoder)",
                );
            };
            out.extend(blocks_of_box(whole, extent, area, codec));
        }
        let size = size.map(|v| v as u32);
        Ok(KeptImage {
            blocks: out,
            layout: self.compressed_pack_layout(empty.dims, codec, size),
            ..empty
        })
    }
}
