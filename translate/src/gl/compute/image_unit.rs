//! Image units (`GL_ARB_shader_image_load_store`): `glBindImageTexture`, the image-uniform
//! values, and the storage-image descriptors of draws and dispatches.
//!
//! Design decisions:
//! - A unit holds GL's binding (texture, level, layered, layer, access, format); the view is
//!   made at the draw or dispatch over the texture's current image — one level, every layer
//!   (layered) or one (not), of the view type the shader's image type names — and retired at
//!   once, so it is destroyed when the epoch that used it completes.
//! - The image is moved to `GENERAL` before the pass; the next sampling or attachment use
//!   moves it back (`draw::resources`, `draw::pass` check the layout every time).
//! - Textures are storable when their Vulkan format is one Vulkan requires every device to
//!   store to ([`storage_usage`]); the view takes the texture's own format (views of another
//!   format would need every texture to be created mutable). A unit whose texture cannot be
//!   stored to, or has no image, is `GL_INVALID_OPERATION` at the draw or dispatch (GL leaves
//!   its accesses undefined; Vulkan needs a view).

use arenagl_memory::ViewDesc;
use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlResult};
use crate::gl::context::get::Value;
use crate::gl::context::Context;
use crate::gl::draw::descriptors::ImageInfos;
use crate::gl::draw::validate::DrawProgram;
use crate::gl::objects::program::{Linked, Program, ValueKind};
use crate::gl::objects::texture::target::TexTarget;
use crate::gl::vk::device::Locked;
use crate::glsl::SamplerDim;

/// `GL_MAX_IMAGE_UNITS`.
pub(crate) const MAX_IMAGE_UNITS: usize = 8;

const GL_READ_ONLY: GLenum = 0x88B8;
const GL_WRITE_ONLY: GLenum = 0x88B9;
const GL_READ_WRITE: GLenum = 0x88BA;

/// One image unit's binding (`glBindImageTexture`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ImageUnit {
    pub texture: u32,
    pub level: u32,
    pub layered: bool,
    pub layer: u32,
    pub access: GLenum,
    pub format: GLenum,
}

impl Default for ImageUnit {
    fn default() -> Self {
        Self {
            texture: 0,
            level: 0,
            layered: false,
            layer: 0,
            access: GL_READ_ONLY,
            format: GL_R8,
        }
    }
}

/// The formats an image unit may name (GL 4.6 table 8.26): RGBA32F, RGBA16F, RG32F, RG16F,
/// R11F_G11F_B10F, R32F, R16F; RGBA32UI, RGBA16UI, RGB10_A2UI, RGBA8UI, RG32UI, RG16UI, RG8UI,
/// R32UI, R16UI, R8UI; RGBA32I, RGBA16I, RGBA8I, RG32I, RG16I, RG8I, R32I, R16I, R8I; RGBA16,
/// RGB10_A2, RGBA8, RG16, RG8, R16, R8; RGBA16_SNORM, RGBA8_SNORM, RG16_SNORM, RG8_SNORM,
/// R16_SNORM, R8_SNORM.
pub(crate) const IMAGE_FORMATS: &[GLenum] = &[
    0x8814, 0x881A, 0x8230, 0x822F, 0x8C3A, 0x822E, 0x822D, // float
    0x8D70, 0x8D76, 0x906F, 0x8D7C, 0x823C, 0x823A, 0x8238, 0x8236, 0x8234, 0x8232, // uint
    0x8D82, 0x8D88, 0x8D8E, 0x823B, 0x8239, 0x8237, 0x8235, 0x8233, 0x8231, // int
    0x805B, 0x8059, 0x8058, 0x822C, 0x822B, 0x822A, 0x8229, // unorm
    0x8F9B, 0x8F97, 0x8F99, 0x8F95, 0x8F98, 0x8F94, // snorm
];

/// The formats Vulkan requires every device to support as storage images (optimal tiling).
const STORABLE: &[vk::Format] = &[
    vk::Format::R8G8B8A8_UNORM,
    vk::Format::R8G8B8A8_SNORM,
    vk::Format::R8G8B8A8_UINT,
    vk::Format::R8G8B8A8_SINT,
    vk::Format::R16G16B16A16_UINT,
    vk::Format::R16G16B16A16_SINT,
    vk::Format::R16G16B16A16_SFLOAT,
    vk::Format::R32_UINT,
    vk::Format::R32_SINT,
    vk::Format::R32_SFLOAT,
    vk::Format::R32G32_UINT,
    vk::Format::R32G32_SINT,
    vk::Format::R32G32_SFLOAT,
    vk::Format::R32G32B32A32_UINT,
    vk::Format::R32G32B32A32_SINT,
    vk::Format::R32G32B32A32_SFLOAT,
];

/// The extra usage a texture image of `target` and `format` is created with: storage where
/// every device can store to the format (multisampled images only with
/// `shaderStorageImageMultisample`, which image units do not use: never).
pub(crate) fn storage_usage(target: TexTarget, format: vk::Format) -> vk::ImageUsageFlags {
    if STORABLE.contains(&format) && !target.is_multisample() {
        vk::ImageUsageFlags::STORAGE
    } else {
        vk::ImageUsageFlags::empty()
    }
}

/// The image unit of each image-uniform element of `linked` after its link.
pub(crate) fn initial_image_units(linked: &Linked) -> Vec<Vec<u32>> {
    linked
        .images
        .iter()
        .map(|i| (0..i.count).map(|e| i.initial_unit + e).collect())
        .collect()
}

/// `glUniform1i(v)` on image uniform `image` of `program`, from `element` on, `n` elements.
pub(crate) fn set_image_units(
    program: &mut Program,
    image: usize,
    element: u32,
    n: u32,
    kind: ValueKind,
    components: u32,
    data: &[u32],
) -> GlResult<()> {
    if kind != ValueKind::Int || components != 1 {
        return invalid_op("an image uniform takes glUniform1i");
    }
    let units: Vec<i32> = data.iter().take(n as usize).map(|&w| w as i32).collect();
    if units
        .iter()
        .any(|&u| !(0..MAX_IMAGE_UNITS as i32).contains(&u))
    {
        return invalid_value("image unit out of range");
    }
    if let Some(slots) = program.image_units.get_mut(image) {
        for (i, u) in units.into_iter().enumerate() {
            if let Some(slot) = slots.get_mut(element as usize + i) {
                *slot = u as u32;
            }
        }
    }
    Ok(())
}

impl Context {
    /// `glBindImageTexture`.
    #[allow(clippy::too_many_arguments)]
    pub fn bind_image_texture(
        &mut self,
        unit: u32,
        texture: u32,
        level: i32,
        layered: bool,
        layer: i32,
        access: GLenum,
        format: GLenum,
    ) {
        let r = (|| {
            if unit as usize >= MAX_IMAGE_UNITS {
                return invalid_value(format!("image unit {unit}"));
            }
            if texture != 0 && self.textures.get(texture).is_none_or(|t| !t.named()) {
                return invalid_value(format!("{texture} is not a texture"));
            }
            if level < 0 || layer < 0 {
                return invalid_value(format!("image level {level} layer {layer}"));
            }
            if !matches!(access, GL_READ_ONLY | GL_WRITE_ONLY | GL_READ_WRITE) {
                return invalid_enum("glBindImageTexture access", access);
            }
            if !IMAGE_FORMATS.contains(&format) {
                return invalid_value(format!("image format 0x{format:04X}"));
            }
            self.compute.images[unit as usize] = ImageUnit {
                texture,
                level: level as u32,
                layered,
                layer: layer as u32,
                access,
                format,
            };
            Ok(())
        })();
        self.record(r);
    }

    /// `glGetIntegeri_v` of an image unit (None: not one of its pnames).
    pub(crate) fn image_unit_indexed(&self, pname: GLenum, index: u32) -> Option<GlResult<Value>> {
        if !matches!(pname, 0x8F3A..=0x8F3E | 0x906E) {
            return None;
        }
        let Some(u) = self.compute.images.get(index as usize) else {
            return Some(invalid_value(format!("image unit {index}")));
        };
        let v = match pname {
            0x8F3A => u.texture,            // GL_IMAGE_BINDING_NAME
            0x8F3B => u.level,              // GL_IMAGE_BINDING_LEVEL
            0x8F3C => u32::from(u.layered), // GL_IMAGE_BINDING_LAYERED
            0x8F3D => u.layer,              // GL_IMAGE_BINDING_LAYER
            0x8F3E => u.access,             // GL_IMAGE_BINDING_ACCESS
            _ => u.format,                  // GL_IMAGE_BINDING_FORMAT
        };
        Some(Ok(Value::Ints(vec![i64::from(v)])))
    }

    /// The storage-image descriptors of `program`'s image uniforms, per binding: a view of
    /// each element's unit, its image in `GENERAL`.
    pub(crate) fn storage_image_descriptors(
        &mut self,
        locked: &mut Locked,
        program: &DrawProgram,
    ) -> GlResult<ImageInfos> {
        let mut out: ImageInfos = Vec::new();
        for (index, image) in program.linked.images.iter().enumerate() {
            let mut infos = Vec::with_capacity(image.count as usize);
            for e in 0..image.count as usize {
                let unit = program
                    .image_units
                    .get(index)
                    .and_then(|u| u.get(e))
                    .copied()
                    .unwrap_or(0);
                let raw = self.unit_view(locked, unit, image.ty.dim, &image.name)?;
                infos.push(vk::DescriptorImageInfo {
                    sampler: vk::Sampler::null(),
                    image_view: raw,
                    image_layout: vk::ImageLayout::GENERAL,
                });
            }
            out.push((image.binding, infos));
        }
        Ok(out)
    }

    /// A view of image unit `unit` for an image uniform of dimensionality `dim`, used for the
    /// recording epoch and already retired; the image moved to `GENERAL`.
    fn unit_view(
        &mut self,
        locked: &mut Locked,
        unit: u32,
        dim: SamplerDim,
        name: &str,
    ) -> GlResult<vk::ImageView> {
        let u = self
            .compute
            .images
            .get(unit as usize)
            .copied()
            .unwrap_or_default();
        let st = self
            .textures
            .get(u.texture)
            .filter(|_| u.texture != 0)
            .and_then(|t| t.storage.as_ref());
        let Some(st) = st else {
            return invalid_op(format!(
                "image {name} reads unit {unit}, which has no texture"
            ));
        };
        if storage_usage(st.target, st.format).is_empty() || u.level >= st.levels {
            return invalid_op(format!(
                "image {name}: the texture on unit {unit} cannot be stored to ({:?}, level {})",
                st.format, u.level
            ));
        }
        let layers = st.target.vk_extent(st.size).1;
        let is_3d = st.target == TexTarget::D3;
        let mut desc = unit_view_desc(u, dim, layers, is_3d, st.format).ok_or_else(|| {
            crate::gl::context::error::GlError::InvalidOperation(format!(
                "image {name}: unit {unit}'s texture does not fit its {dim:?} type"
            ))
        })?;
        // A texture view's levels and layers lie at its origin in the shared image.
        desc.base_mip_level = st.vk_level(desc.base_mip_level);
        desc.base_array_layer = st.vk_layer(desc.base_array_layer);
        let image = st.image;
        if locked.manager.image_layout(image)? != vk::ImageLayout::GENERAL {
            locked.manager.transition_image(
                image,
                vk::ImageLayout::GENERAL,
                (
                    self.device.caps().shader_stages(),
                    vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE,
                ),
            )?;
        }
        let view = locked.manager.create_view(image, &desc)?;
        let raw = locked.manager.use_view(view)?.raw();
        locked.manager.retire_view(view)?;
        Ok(raw)
    }
}

/// The view of unit `u` for an image of `dim` over a texture of `layers` layers: one level,
/// every layer when layered, else the unit's layer (ignored by a texture without layers);
/// None when they do not fit (a slice of a 3D texture is not viewed as a 2D storage image).
fn unit_view_desc(
    u: ImageUnit,
    dim: SamplerDim,
    layers: u32,
    is_3d: bool,
    format: vk::Format,
) -> Option<ViewDesc> {
    use vk::ImageViewType as V;
    if is_3d != (dim == SamplerDim::D3) {
        return None;
    }
    let one = if u.layered || layers == 1 { 0 } else { u.layer };
    let (view_type, base, count) = match (dim, u.layered) {
        (SamplerDim::D1, _) => (V::TYPE_1D, one, 1),
        (SamplerDim::D2 | SamplerDim::Rect, _) => (V::TYPE_2D, one, 1),
        (SamplerDim::D3, _) => (V::TYPE_3D, 0, 1),
        (SamplerDim::D1Array, _) => (V::TYPE_1D_ARRAY, 0, layers),
        (SamplerDim::D2Array, _) => (V::TYPE_2D_ARRAY, 0, layers),
        (SamplerDim::Cube, _) => (V::CUBE, 0, 6),
        (SamplerDim::CubeArray, _) => (V::CUBE_ARRAY, 0, layers),
        _ => return None,
    };
    if base + count > layers {
        return None;
    }
    let mut desc = ViewDesc::color_2d(1);
    desc.view_type = view_type;
    desc.format = format;
    desc.base_mip_level = u.level;
    desc.mip_level_count = 1;
    desc.base_array_layer = base;
    desc.layer_count = count;
    Some(desc)
}
