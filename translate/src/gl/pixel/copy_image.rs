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
    image: arenagl_memory::ImageHandle,
    format: vk::Format,
    internal: GLenum,
    compressed: bool,
    samples: u32,
    /// GL limits of the box: width, height, and depth (slices, layers or faces).
    limits: [u32; 3],
    /// Vulkan mip level.
    level: u32,
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
        if self.record(r).is_some() && dst_target != GL_RENDERBUFFER {
            self.forget_level_blocks(Some(dst_name), dst_target, dst_level);
        }
    }

    #[allow(clippy::type_complexity)]
    fn copy_image_inner(
        &mut self,
        (src_name, src_target, src_level, src_xyz): (u32, GLenum, i32, [i32; 3]),
        (dst_name, dst_target, dst_level, dst_xyz): (u32, GLenum, i32, [i32; 3]),
        size: [i32; 3],
    ) -> GlResult<()> {
        let src = self.copy_side(src_name, src_target, src_level, "src")?;
        let dst = self.copy_side(dst_name, dst_target, dst_level, "dst")?;
        if size.iter().any(|&v| v < 0) {
            return invalid_value("glCopyImageSubData with a negative size");
        }
        // Between a compressed and an uncompressed image one 4×4 block is one texel, so the
        // destination box is the source box in the destination's units.
        let dst_size = match (src.compressed, dst.compressed) {
            (true, false) => [(size[0] + 3) / 4, (size[1] + 3) / 4, size[2]],
            (false, true) => [size[0] * 4, size[1] * 4, size[2]],
            _ => size,
        };
        for (side, xyz, size, which) in [
            (&src, src_xyz, size, "src"),
            (&dst, dst_xyz, dst_size, "dst"),
        ] {
            if xyz.iter().any(|&v| v < 0) {
                return invalid_value(format!("glCopyImageSubData {which} offset {xyz:?}"));
            }
            let outside =
                (0..3).any(|a| xyz[a] as u64 + size[a] as u64 > u64::from(side.limits[a]));
            if outside {
                return invalid_value(format!(
                    "glCopyImageSubData {which} box {xyz:?} {size:?} outside {:?}",
                    side.limits
                ));
            }
            // A compressed image copies whole 4×4 blocks: offsets on block boundaries, sizes a
            // multiple of the block or reaching the level's edge.
            if side.compressed {
                let aligned = (0..2).all(|a| {
                    xyz[a] % 4 == 0
                        && (size[a] % 4 == 0
                            || xyz[a] as u64 + size[a] as u64 == u64::from(side.limits[a]))
                });
                if !aligned {
                    return invalid_value(format!(
                        "glCopyImageSubData {which} box {xyz:?} {size:?} not on 4x4 block boundaries"
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
        if mixed {
            warn_unsupported("a copy between compressed and uncompressed formats");
            return Ok(());
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
            return Ok(());
        }
        if size.contains(&0) {
            return Ok(());
        }
        self.end_pass();
        if src.is_1d() != dst.is_1d() {
            return self.copy_through_host((&src, src_xyz), (&dst, dst_xyz), size);
        }
        let side = |s: &Side, xyz: [i32; 3]| arenagl_memory::CopySide {
            image: s.image,
            mip_level: s.level,
            offset: xyz.map(|v| v as u32),
        };
        self.device.lock().manager.copy_image(
            side(&src, src_xyz),
            side(&dst, dst_xyz),
            size.map(|v| v as u32),
        )?;
        Ok(())
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
                image,
                format: rb.format,
                internal: rb.internal,
                compressed: false,
                samples: rb.samples.max(1),
                limits: [rb.width, rb.height, 1],
                level: 0,
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
            image: s.image,
            format: s.format,
            internal: s.internal,
            compressed,
            samples: s.samples.max(1),
            limits,
            level,
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
        match self.target.unwrap_or(TexTarget::D2) {
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
        }
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
        let count: usize = size.iter().map(|&v| v as usize).product();
        let mut texels = vec![0u8; count * bytes as usize];
        let tight = arenagl_staging::PixelStore {
            alignment: arenagl_staging::PixelAlignment::One,
            ..arenagl_staging::PixelStore::default()
        };
        let client = arenagl_staging::ClientFormat::Texels(bytes as u8);
        let device = self.device.clone();
        let mut locked = device.lock();
        let from = src.region(src_xyz, size);
        crate::gl::context::error::until_done(|| {
            locked
                .manager
                .read_image(src.image, &from, &tight, client, &mut texels)
        })?;
        locked.collect(device.raw());
        let to = dst.region(dst_xyz, size);
        locked
            .manager
            .upload_image(dst.image, &to, &texels, &tight, client)?;
        Ok(())
    }
}

fn block_class(internal: GLenum) -> Option<u32> {
    Some(match internal {
        // DXT3, DXT5 (and sRGB), RGTC2 (signed too); RGBA32UI, RGBA32I, RGBA32F.
        0x83F2 | 0x83F3 | 0x8C4E | 0x8C4F | 0x8DBD | 0x8DBE | 0x8D70 | 0x8D82 | 0x8814 => 128,
        // DXT1 RGB/RGBA (and sRGB), RGTC1 (signed too); RGBA16F, RG32F, RGBA16UI, RG32UI,
        // RGBA16I, RG32I, RGBA16, RGBA16_SNORM.
        0x83F0 | 0x83F1 | 0x8C4C | 0x8C4D | 0x8DBB | 0x8DBC | 0x881A | 0x8230 | 0x8D76 | 0x823C
        | 0x8D88 | 0x823B | 0x805B | 0x8F9B => 64,
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
