//! GL_ARB_texture_view (GL 4.3): `glTextureView` makes a texture whose levels and layers are a
//! window of another immutable texture's storage, seen with another target and another
//! internal format of the same view class.
//!
//! Design decisions:
//! - A view is a [`TexImage`] over the same manager image ([`ImageRef`], `storage.rs`): its
//!   own Vulkan views, format, target and size, and an [`Origin`] that places its level 0 and
//!   layer 0 in the image. A view of a view composes origins, so every view addresses the one
//!   image directly. The image lives while any texture of the family does.
//! - The formats one image may be seen in are those of its internal format's view class
//!   ([`view_class`], GL 4.6 table 8.22): the image is made `MUTABLE_FORMAT` for them
//!   (`storage::wants_mutable_format`). A class member whose storage here has another texel
//!   size than the image's (formats stored wider than GL names them) is refused with
//!   `GL_INVALID_OPERATION`; lavapipe stores no class that way. Compressed textures are stored
//!   decompressed, so views between compressed formats reinterpret decompressed texels: exact
//!   for the sRGB/linear pairs, approximate between RGTC's signed and unsigned forms.
//! - Errors follow GL 4.6 §8.18 in Mesa's order: `origtexture` 0 or no texture
//!   `GL_INVALID_VALUE`, not immutable `GL_INVALID_OPERATION`; `texture` 0 `GL_INVALID_VALUE`,
//!   never generated or already given a target `GL_INVALID_OPERATION`; target outside the
//!   compatibility table, format outside the class `GL_INVALID_OPERATION`; a first level or
//!   layer past the original's `GL_INVALID_VALUE`; a layer count the target cannot take
//!   `GL_INVALID_VALUE`; a cube view of non-square levels `GL_INVALID_OPERATION`.
//! - A view starts with default texture parameters, `GL_TEXTURE_IMMUTABLE_FORMAT` true and the
//!   original's `GL_TEXTURE_IMMUTABLE_LEVELS`; `GL_TEXTURE_VIEW_*` answer its window (for a
//!   plain immutable texture: 0, its levels, 0, its layers; for a mutable one all 0, as Mesa).
//! - A demoted original (`pressure/degrade.rs`) is restored first, and textures that share
//!   their image are never demoted, so a view always sees the full image.

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_op, invalid_value, GlError, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::texture::storage::{Origin, Window};
use crate::gl::objects::texture::target::TexTarget;
use crate::gl::objects::texture::{storage_format, TexImage, Texture};

/// `GL_TEXTURE_VIEW_MIN_LEVEL` … `GL_TEXTURE_VIEW_NUM_LAYERS`.
pub(crate) const GL_TEXTURE_VIEW_MIN_LEVEL: GLenum = 0x82DB;
pub(crate) const GL_TEXTURE_VIEW_NUM_LEVELS: GLenum = 0x82DC;
pub(crate) const GL_TEXTURE_VIEW_MIN_LAYER: GLenum = 0x82DD;
pub(crate) const GL_TEXTURE_VIEW_NUM_LAYERS: GLenum = 0x82DE;

/// The view class (GL 4.6 table 8.22) of a sized internal format; `None` for formats that
/// view only themselves. Uncompressed classes are their bit size, compressed ones larger ids.
pub(crate) fn view_class(internal: GLenum) -> Option<u32> {
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
        0x8DBB | 0x8DBC => 1001,                // RGTC1 red, signed red
        0x8DBD | 0x8DBE => 1002,                // RGTC2 rg, signed rg
        0x8E8C | 0x8E8D => 1003,                // BPTC RGBA unorm, sRGB alpha
        0x8E8E | 0x8E8F => 1004,                // BPTC RGB signed/unsigned float
        0x83F0 | 0x8C4C => 1005,                // DXT1 RGB, sRGB
        0x83F1 | 0x8C4D => 1006,                // DXT1 RGBA, sRGB alpha
        0x83F2 | 0x8C4E => 1007,                // DXT3, sRGB alpha
        0x83F3 | 0x8C4F => 1008,                // DXT5, sRGB alpha
        // ASTC: one class per footprint, linear and sRGB (KHR_texture_compression_astc_ldr).
        0x93B0..=0x93BD | 0x93D0..=0x93DD => 1100 + (internal & 0xF),
        _ => return None,
    })
}

/// Whether GL lets a texture of internal format `a` be viewed as `b`.
pub(crate) fn formats_compatible(a: GLenum, b: GLenum) -> bool {
    a == b || matches!((view_class(a), view_class(b)), (Some(x), Some(y)) if x == y)
}

/// Whether `internal` may be viewed in any format but itself.
pub(crate) fn has_view_partners(internal: GLenum) -> bool {
    view_class(internal).is_some()
}

/// The targets a texture of target `orig` may be viewed as (GL 4.6 table 8.21).
pub(crate) fn targets_compatible(orig: TexTarget, new: TexTarget) -> bool {
    use TexTarget as T;
    match orig {
        T::D1 | T::D1Array => matches!(new, T::D1 | T::D1Array),
        T::D2 => matches!(new, T::D2 | T::D2Array),
        T::D3 => new == T::D3,
        T::Rect => new == T::Rect,
        T::Cube | T::D2Array | T::CubeArray => {
            matches!(new, T::D2 | T::D2Array | T::Cube | T::CubeArray)
        }
        T::D2Multisample | T::D2MultisampleArray => {
            matches!(new, T::D2Multisample | T::D2MultisampleArray)
        }
    }
}

/// What a `glTextureView` asks for, validated against the original.
struct ViewSpec {
    target: TexTarget,
    internal: GLenum,
    min_level: u32,
    levels: u32,
    min_layer: u32,
    layers: u32,
}

impl ViewSpec {
    /// The spec's level/layer checks against `orig`, with the counts clamped to what it has.
    fn clamp(mut self, orig: &TexImage) -> GlResult<Self> {
        let orig_layers = orig.layer_count();
        if self.min_level >= orig.levels {
            return invalid_value(format!(
                "minlevel {} of {} levels",
                self.min_level, orig.levels
            ));
        }
        if self.min_layer >= orig_layers {
            return invalid_value(format!(
                "minlayer {} of {orig_layers} layers",
                self.min_layer
            ));
        }
        let requested_layers = self.layers;
        self.levels = self.levels.min(orig.levels - self.min_level);
        self.layers = self.layers.min(orig_layers - self.min_layer);
        let ok = match self.target {
            TexTarget::Cube => self.layers == 6,
            TexTarget::CubeArray => self.layers % 6 == 0 && self.layers > 0,
            TexTarget::D1Array | TexTarget::D2Array | TexTarget::D2MultisampleArray => true,
            _ => requested_layers == 1,
        };
        if !ok || self.levels == 0 {
            return invalid_value(format!(
                "{} layers / {} levels for a 0x{:04X} view",
                self.layers,
                self.levels,
                self.target.gl()
            ));
        }
        Ok(self)
    }

    /// The view's GL size of level 0: the original's `min_level` with the layer axis counting
    /// the view's layers.
    fn size(&self, orig: &TexImage) -> [u32; 3] {
        let [w, h, d] = orig.level_size(self.min_level);
        match self.target {
            TexTarget::D1 => [w, 1, 1],
            TexTarget::D1Array => [w, self.layers, 1],
            TexTarget::D3 => [w, h, d],
            TexTarget::D2Array | TexTarget::D2MultisampleArray | TexTarget::CubeArray => {
                [w, h, self.layers]
            }
            _ => [w, h, 1],
        }
    }
}

impl TexImage {
    /// `GL_TEXTURE_VIEW_*`'s answer for this storage (see the module comment).
    pub(crate) fn view_query(&self, pname: GLenum) -> Option<u32> {
        let immutable = self.immutable;
        Some(match pname {
            GL_TEXTURE_VIEW_MIN_LEVEL => self.origin.level,
            GL_TEXTURE_VIEW_NUM_LEVELS if immutable => self.levels,
            GL_TEXTURE_VIEW_MIN_LAYER => self.origin.layer,
            GL_TEXTURE_VIEW_NUM_LAYERS if immutable => self.layer_count(),
            GL_TEXTURE_VIEW_NUM_LEVELS | GL_TEXTURE_VIEW_NUM_LAYERS => 0,
            _ => return None,
        })
    }

    /// A texture over the same image: `spec`'s window, format `storage` for `spec.internal`.
    fn view(
        &self,
        manager: &mut arenagl_memory::MemoryManager,
        spec: &ViewSpec,
        storage: &crate::gl::objects::texture::Storage,
    ) -> GlResult<TexImage> {
        let window = Window {
            origin: Origin {
                level: self.vk_level(spec.min_level),
                layer: self.vk_layer(spec.min_layer),
            },
            target: spec.target,
            size: spec.size(self),
            levels: spec.levels,
            format: (storage.format, spec.internal, storage.info),
            samples: (self.samples, self.fixed_locations),
        };
        let mut s = TexImage::over_shared(manager, &self.shared, window)?;
        s.immutable = true;
        s.immutable_levels = self.immutable_levels;
        Ok(s)
    }
}

impl Context {
    /// `glTextureView`.
    #[allow(clippy::too_many_arguments)]
    pub fn texture_view(
        &mut self,
        texture: u32,
        target: GLenum,
        orig: u32,
        internal: GLenum,
        (min_level, levels): (u32, u32),
        (min_layer, layers): (u32, u32),
    ) {
        let r = (|| {
            self.check_view_names(texture, orig)?;
            let target = TexTarget::from_bind(target)
                .filter(|t| *t != TexTarget::CubeArray || self.device.caps().gl4.image_cube_array)
                .ok_or_else(|| invalid_target(target))?;
            if self
                .textures
                .get(orig)
                .and_then(|t| t.storage.as_ref())
                .is_some_and(|s| s.demotion.is_some())
            {
                self.restore_texture(orig)?;
            }
            let spec = ViewSpec {
                target,
                internal,
                min_level,
                levels,
                min_layer,
                layers,
            };
            let storage = self.make_view(orig, spec)?;
            let t = self.texture_to_bind(texture)?;
            t.target = Some(target);
            t.params = target.initial_params();
            t.storage = Some(storage);
            Ok(())
        })();
        self.record(r);
    }

    /// The name checks of `glTextureView` (module comment), in Mesa's order.
    fn check_view_names(&self, texture: u32, orig: u32) -> GlResult<()> {
        let Some(original) = self.textures.get(orig).filter(|t| orig != 0 && t.named()) else {
            return invalid_value(format!("origtexture {orig} is not a texture"));
        };
        if !original.storage.as_ref().is_some_and(|s| s.immutable) {
            return invalid_op("origtexture's storage is not immutable");
        }
        if texture == 0 {
            return invalid_value("texture 0");
        }
        if !self.textures.is_reserved(texture) {
            return invalid_op(format!("{texture} is not a generated texture name"));
        }
        if self
            .textures
            .get(texture)
            .is_some_and(|t: &Texture| t.target.is_some() || t.buffer.is_some())
        {
            return invalid_op(format!("texture {texture} already has a target"));
        }
        Ok(())
    }

    /// Validates `spec` against texture `orig` and makes the view's storage.
    fn make_view(&mut self, orig: u32, spec: ViewSpec) -> GlResult<TexImage> {
        let device = self.device.clone();
        let Some(o) = self.textures.get(orig).and_then(|t| t.storage.as_ref()) else {
            return invalid_op("origtexture has no storage");
        };
        if !targets_compatible(o.target, spec.target) {
            return Err(invalid_target(spec.target.gl()));
        }
        let spec = spec.clamp(o)?;
        if !formats_compatible(o.internal, spec.internal) {
            return invalid_op(format!(
                "format 0x{:04X} is not in the view class of 0x{:04X}",
                spec.internal, o.internal
            ));
        }
        let size = spec.size(o);
        if spec.target.is_cube() && size[0] != size[1] {
            return invalid_op(format!("a cube view of {}x{} levels", size[0], size[1]));
        }
        let mut locked = device.lock();
        let mut storage =
            storage_format(&locked, spec.internal, device.caps().depth_stencil_format)?;
        // A view of compressed blocks kept as they are sees them in its own block format.
        if crate::gl::objects::texture::native::is_native(o.format) {
            storage = crate::gl::objects::texture::native::prefer_native(
                &locked,
                spec.target,
                spec.internal,
                storage,
            );
        }
        if !same_texel_size(o.format, storage.format) {
            return invalid_op(format!(
                "0x{:04X} is stored as {:?}, not bit-compatible with {:?}",
                spec.internal, storage.format, o.format
            ));
        }
        o.view(&mut locked.manager, &spec, &storage)
    }
}

/// `GL_INVALID_OPERATION` for a view target outside the compatibility table.
fn invalid_target(target: GLenum) -> GlError {
    GlError::InvalidOperation(format!("view target 0x{target:04X}"))
}

/// Whether an image of `a` may be viewed as `b` (Vulkan's size-compatibility rule).
fn same_texel_size(a: ash::vk::Format, b: ash::vk::Format) -> bool {
    let bytes =
        |f| crate::gl::objects::texture::internal_format::texel_format(f).map(|t| t.texel_bytes());
    a == b
        || crate::gl::objects::texture::storage::srgb_to_unorm(a) == Some(b)
        || crate::gl::objects::texture::storage::srgb_to_unorm(b) == Some(a)
        || matches!((bytes(a), bytes(b)), (Some(x), Some(y)) if x == y)
        || matches!(
            (
                arenagl_memory::vulkan::compressed_block(a),
                arenagl_memory::vulkan::compressed_block(b),
            ),
            (Some(x), Some(y)) if x == y
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_class_views_itself_and_its_partners_only() {
        assert!(formats_compatible(GL_RGBA8, 0x8D7C)); // RGBA8UI
        assert!(formats_compatible(0x8E8C, 0x8E8D)); // BPTC unorm ↔ sRGB
        assert!(!formats_compatible(GL_RGBA8, 0x822D)); // R16F: 16 bits
        assert!(!formats_compatible(0x8DBB, 0x8DBD)); // RGTC1 ↔ RGTC2
        assert!(formats_compatible(
            GL_DEPTH_COMPONENT24,
            GL_DEPTH_COMPONENT24
        ));
        assert!(!formats_compatible(
            GL_DEPTH_COMPONENT24,
            GL_DEPTH_COMPONENT32F
        ));
    }

    #[test]
    fn cube_maps_view_as_layers_and_3d_only_as_3d() {
        assert!(targets_compatible(TexTarget::Cube, TexTarget::D2Array));
        assert!(targets_compatible(TexTarget::D2Array, TexTarget::CubeArray));
        assert!(!targets_compatible(TexTarget::D2, TexTarget::Cube));
        assert!(!targets_compatible(TexTarget::D3, TexTarget::D2Array));
        assert!(!targets_compatible(TexTarget::Rect, TexTarget::D2));
    }
}
