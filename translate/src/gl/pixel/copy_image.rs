//! `glCopyImageSubData` (GL 4.3, `GL_ARB_copy_image`): a box of texels copied exactly between
//! textures and renderbuffers of compatible formats, any level, layer, face or slice.
//!
//! Design decisions:
//! - The copy is the manager's `copy_image` (`vkCmdCopyImage`): the bits move unchanged, which
//!   is what GL specifies between formats of one size class (GL 4.6 table 8.22). Within one
//!   image it runs in the `GENERAL` layout; overlapping boxes (undefined in GL) go through a
//!   temporary image there, so the recording stays valid Vulkan.
//! - Errors follow GL 4.6 §18.3.3 in Mesa's order: a target that is not a texture target or
//!   `GL_RENDERBUFFER` (cube faces and `GL_TEXTURE_BUFFER` included), or that is not the
//!   texture's own, is `GL_INVALID_ENUM` (GL 4.5; Mesa once said `GL_INVALID_VALUE`); a
//!   name that is no object, a level the object lacks or a box outside it
//!   `GL_INVALID_VALUE`; an incomplete texture, different sample counts or incompatible formats
//!   `GL_INVALID_OPERATION`.
//! - Compressed textures are stored decompressed (`staging::compressed`), so a compressed
//!   format copies to itself only (with 4×4 block alignment); a compressed ↔ uncompressed copy,
//!   which GL allows between equal block and texel sizes, would need the blocks and is logged
//!   and not performed. So is a copy between GL-compatible formats whose storage texel sizes
//!   differ (never on lavapipe's formats).

use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlError, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::texture::target::TexTarget;

const GL_RENDERBUFFER_TARGET: GLenum = 0x8D41;

/// One side of the copy, resolved.
#[derive(Debug, Clone, Copy)]
struct Side {
    /// The texture's or renderbuffer's name.
    name: u32,
    image: arenagl_memory::ImageHandle,
    format: vk::Format,
    internal: GLenum,
    compressed: bool,
    samples: u32,
    /// GL limits of the box: width, height, and depth (slices, layers or faces).
    limits: [u32; 3],
    /// GL level (of the texture, a view's counted from its first).
    level: u32,
    /// Where a texture view's first level and layer lie in its image (0, 0 otherwise).
    origin: (u32, u32),
    /// The texture's target (`None`: a renderbuffer, a 2D image).
    target: Option<TexTarget>,
}

/// The texture-view class (GL 4.6 table 8.22) of a sized internal format: formats of one class
/// copy into each other. `None` for formats compatible with themselves only.
fn view_class(internal: GLenum) -> Option<u32> {
    Some(match internal {
        0x8814 | 0x8D70 | 0x8D82 => 128, // RGBA32F, RGBA32UI, RGBA32I
        0x8815 | 0x8D71 | 0x8D83 => 96,  // RGB32F, RGB32UI, RGB32I
        // RGBA16F, RG32F, RGBA16UI, RG32UI, RGBA16I, RG32I, RGBA16, RGBA16_SNORM
        0x881A | 0x8230 | 0x8D76 | 0x823C | 0x8D88 | 0x823B | 0x805B | 0x8F9B => 64,
        // RGB16, RGB16_SNORM, RGB16F, RGB16UI, RGB16I
        0x8054 | 0x8F9A | 0x881B | 0x8D77 | 0x8D89 => 48,
        // RG16F, R11F_G11F_B10F, R32F, RGB10_A2UI, RGBA8UI, RG16UI, R32UI, RGBA8I, RG16I, R32I,
        // RGB10_A2, RGBA8, RG16, RGBA8_SNORM, RG16_SNORM, SRGB8_ALPHA8, RGB9_E5
        0x822F | 0x8C3A | 0x822E | 0x906F | 0x8D7C | 0x823A | 0x8236 | 0x8D8E | 0x8239 | 0x8235
        | 0x8059 | 0x8058 | 0x822C | 0x8F97 | 0x8F99 | 0x8C43 | 0x8C3D => 32,
        // RGB8, RGB8_SNORM, SRGB8, RGB8UI, RGB8I
        0x8051 | 0x8F96 | 0x8C41 | 0x8D7D | 0x8D8F => 24,
        // R16F, RG8UI, R16UI, RG8I, R16I, RG8, R16, RG8_SNORM, R16_SNORM
        0x822D | 0x8238 | 0x8234 | 0x8237 | 0x8233 | 0x822B | 0x822A | 0x8F95 | 0x8F98 => 16,
        0x8232 | 0x8231 | 0x8229 | 0x8F94 => 8, // R8UI, R8I, R8, R8_SNORM
        // The compressed classes (numbered apart from the bit sizes): RGTC1, RGTC2,
        // BPTC_UNORM, BPTC_FLOAT.
        0x8DBB | 0x8DBC => 1001,
        0x8DBD | 0x8DBE => 1002,
        0x8E8C | 0x8E8D => 1003,
        0x8E8E | 0x8E8F => 1004,
        // ASTC: one class per footprint, linear and sRGB (KHR_texture_compression_astc_ldr).
        0x93B0..=0x93BD | 0x93D0..=0x93DD => 1100 + (internal & 0xF),
        _ => return None,
    })
}

/// Whether GL lets `a` and `b` copy into each other (ignoring compressed ↔ uncompressed).
fn formats_compatible(a: GLenum, b: GLenum) -> bool {
    a == b || matches!((view_class(a), view_class(b)), (Some(x), Some(y)) if x == y)
}

/// Bytes per texel of a colour storage format, for the exact-copy rule.
fn storage_texel_bytes(f: vk::Format) -> Option<u32> {
    crate::gl::objects::texture::internal_format::texel_format(f).map(|t| t.texel_bytes())
}

impl Context {
    /// `glCopyImageSubData`.
    #[allow(clippy::too_many_arguments)]
    pub fn copy_image_sub_data(
        &mut self,
        (src_name, src_target, src_level, src_xyz): (u32, GLenum, i32, [i32; 3]),
        (dst_name, dst_target, dst_level, dst_xyz): (u32, GLenum, i32, [i32; 3]),
        size: [i32; 3],
    ) {
        let r = self.copy_image_inner(
            (src_name, src_target, src_level, src_xyz),
            (dst_name, dst_target, dst_level, dst_xyz),
            size,
        );
        // A destination written as blocks keeps them; any other write forgets them.
        if self.record(r) == Some(false) && dst_target != GL_RENDERBUFFER {
            self.forget_level_blocks(Some(dst_name), dst_target, dst_level);
        }
    }

    /// The copy; `Ok(true)` when the destination was written as compressed blocks (and keeps
    /// them).
    #[allow(clippy::type_complexity)]
    fn copy_image_inner(
        &mut self,
        (src_name, src_target, src_level, src_xyz): (u32, GLenum, i32, [i32; 3]),
        (dst_name, dst_target, dst_level, dst_xyz): (u32, GLenum, i32, [i32; 3]),
        size: [i32; 3],
    ) -> GlResult<bool> {
        let src = self.copy_side(src_name, src_target, src_level, "src")?;
        let dst = self.copy_side(dst_name, dst_target, dst_level, "dst")?;
        if size.iter().any(|&v| v < 0) {
            return invalid_value("glCopyImageSubData with a negative size");
        }
        // Between a compressed and an uncompressed image one block is one texel, so the
        // destination box is the source box in the destination's units.
        let [sw, sh] = src.block().map(|v| v as i32);
        let [dw, dh] = dst.block().map(|v| v as i32);
        let dst_size = match (src.compressed, dst.compressed) {
            (true, false) => [(size[0] + sw - 1) / sw, (size[1] + sh - 1) / sh, size[2]],
            (false, true) => [size[0] * dw, size[1] * dh, size[2]],
            _ => size,
        };
        for (side, xyz, size, which) in [
            (&src, src_xyz, size, "src"),
            (&dst, dst_xyz, dst_size, "dst"),
        ] {
            if xyz.iter().any(|&v| v < 0) {
                return invalid_value(format!("glCopyImageSubData {which} offset {xyz:?}"));
            }
            // Texels of an uncompressed source fill whole blocks of a compressed destination,
            // whose last blocks may reach past a level size that is no multiple of 4.
            let limits = if which == "dst" && dst.compressed && !src.compressed {
                side.block_limits()
            } else {
                side.limits
            };
            let outside = (0..3).any(|a| xyz[a] as u64 + size[a] as u64 > u64::from(limits[a]));
            if outside {
                return invalid_value(format!(
                    "glCopyImageSubData {which} box {xyz:?} {size:?} outside {:?}",
                    side.limits
                ));
            }
            // A compressed image copies whole blocks: offsets on block boundaries, sizes a
            // multiple of the block or reaching the level's edge.
            if side.compressed {
                let block = side.block().map(|v| v as i32);
                let aligned = (0..2).all(|a| {
                    xyz[a] % block[a] == 0
                        && (size[a] % block[a] == 0
                            || xyz[a] as u64 + size[a] as u64 == u64::from(side.limits[a]))
                });
                if !aligned {
                    return invalid_value(format!(
                        "glCopyImageSubData {which} box {xyz:?} {size:?} not on {}x{} block \
                         boundaries",
                        block[0], block[1]
                    ));
                }
            }
        }
        if src.samples != dst.samples {
            return invalid_op("glCopyImageSubData between different sample counts");
        }
        let mixed = src.compressed != dst.compressed;
        let compatible = if mixed {
            block_class(src.internal).is_some()
                && block_class(src.internal) == block_class(dst.internal)
        } else {
            formats_compatible(src.internal, dst.internal)
        };
        if !compatible {
            return invalid_op(format!(
                "glCopyImageSubData between incompatible formats 0x{:04X} and 0x{:04X}",
                src.internal, dst.internal
            ));
        }
        if size.contains(&0) {
            return Ok(false);
        }
        if src.compressed || dst.compressed {
            self.end_pass();
            if self.copy_blocks((&src, src_xyz), (&dst, dst_xyz), size)? {
                return Ok(true);
            }
            // Without the source's blocks only a copy within one format (both decoded, or
            // both kept as blocks: `texture::native`) can move the texels as they are.
            let native = crate::gl::objects::texture::native::is_native;
            if src.internal != dst.internal || native(src.format) != native(dst.format) {
                warn_unsupported("a copy from a compressed level whose blocks ArenaGL lacks");
                return Ok(false);
            }
        }
        let depth = crate::gl::objects::framebuffer::is_depth_format(src.format)
            || crate::gl::objects::framebuffer::is_depth_format(dst.format);
        let exact = if depth {
            src.format == dst.format
        } else {
            storage_texel_bytes(src.format).is_some()
                && storage_texel_bytes(src.format) == storage_texel_bytes(dst.format)
        };
        if !exact {
            warn_unsupported("a copy between formats stored with different texel sizes");
            return Ok(false);
        }
        self.end_pass();
        if src.is_1d() != dst.is_1d() {
            self.copy_through_host((&src, src_xyz), (&dst, dst_xyz), size)?;
            return Ok(false);
        }
        let side = |s: &Side, xyz: [i32; 3]| {
            let mut offset = xyz.map(|v| v as u32);
            if s.target != Some(TexTarget::D3) {
                offset[2] += s.origin.1;
            }
            arenagl_memory::CopySide {
                image: s.image,
                mip_level: s.level + s.origin.0,
                offset,
            }
        };
        self.device.lock().manager.copy_image(
            side(&src, src_xyz),
            side(&dst, dst_xyz),
            size.map(|v| v as u32),
        )?;
        Ok(false)
    }

    /// Resolves and validates one side (`which`: "src" or "dst", for the logs).
    fn copy_side(&mut self, name: u32, target: GLenum, level: i32, which: &str) -> GlResult<Side> {
        let texture_target = TexTarget::from_bind(target);
        let known = target == GL_RENDERBUFFER_TARGET
            || texture_target.is_some()
            || matches!(
                target,
                GL_TEXTURE_CUBE_MAP_ARRAY
                    | GL_TEXTURE_2D_MULTISAMPLE
                    | GL_TEXTURE_2D_MULTISAMPLE_ARRAY
            );
        if !known {
            return invalid_enum(&format!("glCopyImageSubData {which} target"), target);
        }
        if name == 0 {
            return invalid_value(format!("glCopyImageSubData {which} name 0"));
        }
        // A deleted object an unbound framebuffer keeps lives under a private id, which is no
        // name the application may use.
        let hidden = if target == GL_RENDERBUFFER_TARGET {
            self.renderbuffers.get(name).is_some_and(|r| !r.named())
        } else {
            self.textures.get(name).is_some_and(|t| !t.named())
        };
        if hidden {
            return invalid_value(format!("glCopyImageSubData {which} name {name}"));
        }
        if target == GL_RENDERBUFFER_TARGET {
            let Some(rb) = self.renderbuffers.get(name) else {
                // A generated name never bound has no storage: incomplete, like a texture's.
                if self.renderbuffers.is_reserved(name) {
                    return invalid_op(format!(
                        "glCopyImageSubData {which} renderbuffer {name} has no storage"
                    ));
                }
                return invalid_value(format!("glCopyImageSubData {which} renderbuffer {name}"));
            };
            let Some((image, _)) = rb.storage else {
                return invalid_op(format!(
                    "glCopyImageSubData {which} renderbuffer {name} has no storage"
                ));
            };
            if level != 0 {
                return invalid_value(format!("glCopyImageSubData {which} level {level}"));
            }
            return Ok(Side {
                name,
                image,
                format: rb.format,
                internal: rb.internal,
                compressed: false,
                samples: rb.samples.max(1),
                limits: [rb.width, rb.height, 1],
                level: 0,
                origin: (0, 0),
                target: None,
            });
        }
        if !self.textures.exists(name) {
            // A generated name with no object yet is an incomplete texture (Mesa creates the
            // object at glGenTextures); any other name is no texture at all.
            if self.textures.is_reserved(name) {
                return invalid_op(format!(
                    "glCopyImageSubData {which} texture {name} is incomplete"
                ));
            }
            return invalid_value(format!("glCopyImageSubData {which} texture {name}"));
        }
        // The whole texture, not a demoted stand-in (memory pressure).
        self.restore_texture(name)?;
        let t = self
            .textures
            .get(name)
            .ok_or_else(|| GlError::InvalidValue(format!("texture {name}")))?;
        let base_complete = t.storage.as_ref().is_some_and(|s| {
            s.level_defined(t.params.base_level.max(0) as u32)
                && (!s.target.is_cube() || s.size[0] == s.size[1])
        });
        let mip_complete = t.storage.as_ref().is_some_and(|s| {
            let base = t.params.base_level.max(0) as u32;
            let last = (t.params.max_level.max(0) as u32).min(s.levels.saturating_sub(1));
            !s.target.has_mipmaps() || (base..=last).all(|l| s.level_defined(l))
        });
        if !base_complete || (level != 0 && !mip_complete) {
            return invalid_op(format!(
                "glCopyImageSubData {which} texture {name} is incomplete"
            ));
        }
        if texture_target.is_none() || t.target != texture_target {
            // GL 4.5 §18.3.2: "or if the target does not match the type of the object".
            return invalid_enum_msg(format!(
                "glCopyImageSubData {which} texture {name} is not a 0x{target:04X} texture"
            ));
        }
        let Some(s) = t.storage.as_ref() else {
            return invalid_op(format!(
                "glCopyImageSubData {which} texture {name} has no storage"
            ));
        };
        if level < 0 || !s.level_defined(level as u32) {
            return invalid_value(format!("glCopyImageSubData {which} level {level}"));
        }
        let level = level as u32;
        let l = s.level_size(level);
        let limits = match s.target {
            TexTarget::D1 => [l[0], 1, 1],
            TexTarget::D1Array => [l[0], 1, l[1]],
            TexTarget::D2 | TexTarget::Rect | TexTarget::D2Multisample => [l[0], l[1], 1],
            TexTarget::Cube => [l[0], l[1], 6],
            TexTarget::D2Array
            | TexTarget::D3
            | TexTarget::D2MultisampleArray
            | TexTarget::CubeArray => l,
        };
        let compressed = crate::gl::objects::texture::internal_format::lookup(s.internal)
            .is_some_and(|_| is_compressed(s.internal));
        Ok(Side {
            name,
            image: s.image,
            format: s.format,
            internal: s.internal,
            compressed,
            samples: s.samples.max(1),
            limits,
            level,
            origin: (s.origin.level, s.origin.layer),
            target: Some(s.target),
        })
    }
}

/// The block or texel size in bits that lets a compressed and an uncompressed format copy into
/// each other (`GL_ARB_copy_image` table 4.X.1); `None` for formats outside that table.
impl Side {
    /// Whether the image is a Vulkan 1D image (1D and 1D array textures).
    fn is_1d(&self) -> bool {
        matches!(self.target, Some(TexTarget::D1 | TexTarget::D1Array))
    }

    /// The transfer region of the copy box `(xyz, size)` (copy axes: z is the layer, face or
    /// slice of every target, a 1D array's layer included).
    fn region(&self, xyz: [i32; 3], size: [i32; 3]) -> arenagl_memory::ImageRegion {
        use crate::gl::objects::texture::api::image_region;
        let size_u = size.map(|v| v as u32);
        let mut region = match self.target.unwrap_or(TexTarget::D2) {
            TexTarget::D1Array => image_region(
                TexTarget::D1Array,
                0,
                self.level,
                [xyz[0], xyz[2], 0],
                [size_u[0], size_u[2], 1],
            ),
            TexTarget::Cube | TexTarget::CubeArray => {
                image_region(TexTarget::D2Array, 0, self.level, xyz, size_u)
            }
            t => image_region(t, 0, self.level, xyz, size_u),
        };
        // A texture view's levels and layers in its image.
        region.mip_level += self.origin.0;
        region.base_layer += self.origin.1;
        region
    }
}

impl Context {
    /// A copy between a 1D image and one of another type, which `vkCmdCopyImage` cannot make:
    /// the texels are read into host memory and written into the destination (equal texel
    /// sizes are checked before).
    fn copy_through_host(
        &mut self,
        (src, src_xyz): (&Side, [i32; 3]),
        (dst, dst_xyz): (&Side, [i32; 3]),
        size: [i32; 3],
    ) -> GlResult<()> {
        let bytes = storage_texel_bytes(src.format).ok_or_else(|| {
            GlError::InvalidOperation(format!("glCopyImageSubData of {:?}", src.format))
        })?;
        let count = size.map(|v| v as u32);
        let texels = self.read_box(src, src_xyz, count, bytes)?;
        self.write_box(dst, dst_xyz, count, bytes, &texels)
    }
}

impl Side {
    /// Texels per block across and down: the codec's for a compressed side, 1×1 otherwise.
    fn block(&self) -> [u32; 2] {
        crate::gl::objects::texture::internal_format::codec(self.internal)
            .filter(|_| self.compressed)
            .map_or([1, 1], |c| c.block_size())
    }

    /// The limits with width and height rounded up to whole blocks.
    fn block_limits(&self) -> [u32; 3] {
        let [w, h, d] = self.limits;
        let [bw, bh] = self.block();
        [w.next_multiple_of(bw), h.next_multiple_of(bh), d]
    }

    /// The box of blocks the texel box `size` at `xyz` covers: one texel of an uncompressed
    /// image is one block.
    fn block_count(&self, size: [i32; 3]) -> [u32; 3] {
        let [w, h, d] = size.map(|v| v as u32);
        let [bw, bh] = self.block();
        [w.div_ceil(bw), h.div_ceil(bh), d]
    }

    /// The texel box `blocks` cover from `xyz`: on a compressed image, clipped to the level.
    fn texel_box(&self, xyz: [i32; 3], blocks: [u32; 3]) -> [u32; 3] {
        if !self.compressed {
            return blocks;
        }
        let block = self.block();
        let clip =
            |a: usize| (blocks[a] * block[a]).min(self.limits[a].saturating_sub(xyz[a] as u32));
        [clip(0), clip(1), blocks[2]]
    }

    /// The (face, slice) that copy-box slice `z` is in the kept blocks: a cube map's faces
    /// are kept apart, any other target's slices or layers one after another.
    fn face_slice(&self, z: u32) -> (u32, u32) {
        if self.target == Some(TexTarget::Cube) {
            (z, 0)
        } else {
            (0, z)
        }
    }
}

impl Context {
    /// A copy from or into a compressed image moved as blocks: the source's kept blocks (or an
    /// uncompressed source's texels, one per block) are written into the destination as its
    /// texels, or, compressed, decoded into it and kept. `Ok(false)`: the source's blocks are
    /// not known (or its storage does not hold one block per texel), nothing was written.
    fn copy_blocks(
        &mut self,
        (src, src_xyz): (&Side, [i32; 3]),
        (dst, dst_xyz): (&Side, [i32; 3]),
        size: [i32; 3],
    ) -> GlResult<bool> {
        let Some(bytes) = block_bytes(src).filter(|&b| Some(b) == block_bytes(dst)) else {
            return Ok(false);
        };
        let count = src.block_count(size);
        let Some(blocks) = self.read_blocks(src, src_xyz, count, bytes)? else {
            return Ok(false);
        };
        self.write_blocks(dst, dst_xyz, count, &blocks)?;
        Ok(true)
    }

    /// `count` blocks of `bytes` from `xyz` of `side`, x fastest: an uncompressed image's
    /// texels, or a compressed one's kept blocks (`None` where a slice has none).
    fn read_blocks(
        &mut self,
        side: &Side,
        xyz: [i32; 3],
        count: [u32; 3],
        bytes: u32,
    ) -> GlResult<Option<Vec<u8>>> {
        if !side.compressed {
            return self.read_box(side, xyz, count, bytes).map(Some);
        }
        let Some(t) = self.textures.get(side.name) else {
            return Ok(None);
        };
        let [bw, bh] = side.block();
        let [lw, lh] = [side.limits[0].div_ceil(bw), side.limits[1].div_ceil(bh)];
        let [lw, lh] = [lw as usize, lh as usize];
        let (bb, row) = (bytes as usize, count[0] as usize * bytes as usize);
        let mut out = Vec::with_capacity(row * count[1] as usize * count[2] as usize);
        for z in 0..count[2] {
            let (face, slice) = side.face_slice(xyz[2] as u32 + z);
            let Some(level) = t.blocks.get(&(face, side.level)) else {
                return Ok(None);
            };
            for y in 0..count[1] as usize {
                let by = xyz[1] as usize / bh as usize + y;
                let at = ((slice as usize * lh + by) * lw + xyz[0] as usize / bw as usize) * bb;
                match level.get(at..at + row) {
                    Some(r) => out.extend_from_slice(r),
                    None => return Ok(None),
                }
            }
        }
        Ok(Some(out))
    }

    /// Writes `blocks` (`count` of them, x fastest) at `xyz` of `side`: as texels of an
    /// uncompressed image, decoded into a compressed one (which keeps them).
    fn write_blocks(
        &mut self,
        side: &Side,
        xyz: [i32; 3],
        count: [u32; 3],
        blocks: &[u8],
    ) -> GlResult<()> {
        if !side.compressed {
            let bytes = (blocks.len() / count.iter().product::<u32>().max(1) as usize) as u32;
            return self.write_box(side, xyz, count, bytes, blocks);
        }
        let codec = crate::gl::objects::texture::internal_format::codec(side.internal)
            .ok_or_else(|| GlError::InvalidOperation(format!("0x{:04X}", side.internal)))?;
        let tt = side.target.unwrap_or(TexTarget::D2);
        let texels = side.texel_box(xyz, count);
        let device = self.device.clone();
        let t = self
            .textures
            .get_mut(side.name)
            .ok_or_else(|| GlError::InvalidValue(format!("texture {}", side.name)))?;
        if tt != TexTarget::Cube {
            return t.store_blocks(&device, (tt, 0, side.level), (xyz, texels), codec, blocks);
        }
        let face_bytes = blocks.len() / count[2].max(1) as usize;
        for (z, face) in blocks.chunks_exact(face_bytes.max(1)).enumerate() {
            let at = (tt, xyz[2] as u32 + z as u32, side.level);
            let one = [texels[0], texels[1], 1];
            t.store_blocks(&device, at, ([xyz[0], xyz[1], 0], one), codec, face)?;
        }
        Ok(())
    }

    /// The texels of the box `count` at `xyz` of an uncompressed `side` (`bytes` each), read
    /// into host memory tightly packed.
    fn read_box(
        &mut self,
        side: &Side,
        xyz: [i32; 3],
        count: [u32; 3],
        bytes: u32,
    ) -> GlResult<Vec<u8>> {
        let texels: usize = count.iter().map(|&v| v as usize).product();
        let mut out = vec![0u8; texels * bytes as usize];
        let client = arenagl_staging::ClientFormat::Texels(bytes as u8);
        let device = self.device.clone();
        let mut locked = device.lock();
        let from = side.region(xyz, count.map(|v| v as i32));
        crate::gl::context::error::until_done(|| {
            locked
                .manager
                .read_image(side.image, &from, &tight(), client, &mut out)
        })?;
        locked.collect(device.raw());
        Ok(out)
    }

    /// Writes tightly packed `texels` (`bytes` each) into the box `count` at `xyz` of an
    /// uncompressed `side`.
    fn write_box(
        &mut self,
        side: &Side,
        xyz: [i32; 3],
        count: [u32; 3],
        bytes: u32,
        texels: &[u8],
    ) -> GlResult<()> {
        let client = arenagl_staging::ClientFormat::Texels(bytes as u8);
        let to = side.region(xyz, count.map(|v| v as i32));
        self.device
            .lock()
            .manager
            .upload_image(side.image, &to, texels, &tight(), client)?;
        Ok(())
    }
}

/// Client memory with no row padding.
fn tight() -> arenagl_staging::PixelStore {
    arenagl_staging::PixelStore {
        alignment: arenagl_staging::PixelAlignment::One,
        ..arenagl_staging::PixelStore::default()
    }
}

/// Bytes per block of a compressed side, per texel of an uncompressed one (`None`: storage
/// that does not hold the texel's bits as they are).
fn block_bytes(side: &Side) -> Option<u32> {
    if side.compressed {
        return crate::gl::objects::texture::internal_format::codec(side.internal)
            .map(|c| c.block_bytes());
    }
    let bits = block_class(side.internal)?;
    storage_texel_bytes(side.format).filter(|&b| b * 8 == bits)
}

fn block_class(internal: GLenum) -> Option<u32> {
    Some(match internal {
        // DXT3, DXT5 (and sRGB), RGTC2 (signed too), BPTC (all four), RG11_EAC (signed too),
        // RGBA8_ETC2_EAC (and sRGB); RGBA32UI, RGBA32I, RGBA32F.
        0x83F2
        | 0x83F3
        | 0x8C4E
        | 0x8C4F
        | 0x8DBD
        | 0x8DBE
        | 0x8E8C..=0x8E8F
        | 0x9272
        | 0x9273
        | 0x9278
        | 0x9279
        | 0x93B0..=0x93BD // ASTC (KHR_texture_compression_astc_ldr: 128-bit blocks)
        | 0x93D0..=0x93DD
        | 0x8D70
        | 0x8D82
        | 0x8814 => 128,
        // DXT1 RGB/RGBA (and sRGB), RGTC1 (signed too), R11_EAC (signed too), RGB8_ETC2 and
        // its punch-through alpha (and sRGB); RGBA16F, RG32F, RGBA16UI, RG32UI, RGBA16I, RG32I,
        // RGBA16, RGBA16_SNORM.
        0x83F0
        | 0x83F1
        | 0x8C4C
        | 0x8C4D
        | 0x8DBB
        | 0x8DBC
        | 0x9270
        | 0x9271
        | 0x9274..=0x9277
        | 0x881A
        | 0x8230
        | 0x8D76
        | 0x823C
        | 0x8D88
        | 0x823B
        | 0x805B
        | 0x8F9B => 64,
        _ => return None,
    })
}

fn invalid_enum_msg<T>(why: String) -> GlResult<T> {
    Err(GlError::InvalidEnum(why))
}

/// Whether `internal` names a compressed format (S3TC, RGTC, ETC2/EAC, BPTC, generic compressed).
fn is_compressed(internal: GLenum) -> bool {
    matches!(
        internal,
        0x83F0..=0x83F3       // S3TC DXT1/3/5
            | 0x8C4C..=0x8C4F // sRGB S3TC
            | 0x8DBB..=0x8DBE // RGTC
            | 0x9270..=0x9279 // ETC2 / EAC
            | 0x8E8C..=0x8E8F // BPTC
            | 0x93B0..=0x93BD // ASTC
            | 0x93D0..=0x93DD // sRGB ASTC
            | 0x84E9..=0x84EE // generic compressed
            | 0x8C48 | 0x8C49 | 0x8225 | 0x8226
    )
}

/// A copy this GL cannot perform yet: logged (first, then every 1000th), nothing written.
fn warn_unsupported(what: &str) {
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    super::warn_now_and_then(&COUNT, format_args!("glCopyImageSubData: {what}"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_of_one_view_class_are_compatible() {
        // RGBA8 and R32F are both 32-bit; RGBA8 and RGB8 are not.
        assert!(formats_compatible(0x8058, 0x822E));
        assert!(formats_compatible(0x8058, 0x8058));
        assert!(!formats_compatible(0x8058, 0x8051));
        // Unsized and legacy formats copy to themselves only.
        assert!(formats_compatible(GL_RGBA, GL_RGBA));
        assert!(!formats_compatible(GL_RGBA, 0x8058));
        // Depth formats have no class.
        assert!(!formats_compatible(0x81A5, 0x822E));
    }
}
