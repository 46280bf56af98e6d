//! Vertex array objects and the vertex formats GL attributes map to.

use ash::vk;

use super::enums::*;
use super::error::{invalid_enum, invalid_op, invalid_value, GlResult};

/// Vertex attribute slots per VAO (`GL_MAX_VERTEX_ATTRIBS`).
pub const MAX_VERTEX_ATTRIBS: u32 = 16;

/// The compatibility profile's fixed-function arrays (`glVertexPointer`, …), kept after the
/// generic slots: upgraded legacy shaders read them as `arena_ff_*` inputs (see
/// `glsl::legacy`), and the draw feeds those from these slots like any other attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FfArray {
    Vertex,
    Normal,
    Color,
    SecondaryColor,
    FogCoord,
    /// Texture coordinate set 0–7.
    TexCoord(u32),
}

/// Fixed-function slots (vertex, normal, colour, secondary colour, fog, 8 texture coordinates).
pub(crate) const FF_SLOTS: u32 = 13;
/// Every attribute slot of a VAO: generic, then fixed-function.
pub(crate) const ATTRIB_SLOTS: usize = (MAX_VERTEX_ATTRIBS + FF_SLOTS) as usize;

impl FfArray {
    /// The VAO slot of this array.
    pub(crate) fn slot(self) -> usize {
        MAX_VERTEX_ATTRIBS as usize
            + match self {
                FfArray::Vertex => 0,
                FfArray::Normal => 1,
                FfArray::Color => 2,
                FfArray::SecondaryColor => 3,
                FfArray::FogCoord => 4,
                FfArray::TexCoord(i) => 5 + i.min(7) as usize,
            }
    }

    /// The array an upgraded shader's `arena_ff_*` input reads, by its name.
    pub(crate) fn of_input(name: &str) -> Option<FfArray> {
        Some(match name.strip_prefix("arena_ff_")? {
            "Vertex" => FfArray::Vertex,
            "Normal" => FfArray::Normal,
            "Color" => FfArray::Color,
            "SecondaryColor" => FfArray::SecondaryColor,
            "FogCoord" => FfArray::FogCoord,
            t => FfArray::TexCoord(
                t.strip_prefix("MultiTexCoord")?
                    .parse()
                    .ok()
                    .filter(|&i| i < 8)?,
            ),
        })
    }

    /// GL's name of the built-in the input stands for (`gl_Vertex`, …).
    pub(crate) fn gl_name(self) -> String {
        match self {
            FfArray::Vertex => "gl_Vertex".into(),
            FfArray::Normal => "gl_Normal".into(),
            FfArray::Color => "gl_Color".into(),
            FfArray::SecondaryColor => "gl_SecondaryColor".into(),
            FfArray::FogCoord => "gl_FogCoord".into(),
            FfArray::TexCoord(i) => format!("gl_MultiTexCoord{i}"),
        }
    }
}

/// One attribute's array state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct AttribArray {
    pub enabled: bool,
    pub size: i32,
    pub ty: GLenum,
    pub normalized: bool,
    pub integer: bool,
    pub stride: i32,
    pub offset: u64,
    pub buffer: u32,
    pub divisor: u32,
}

impl Default for AttribArray {
    fn default() -> Self {
        Self {
            enabled: false,
            size: 4,
            ty: GL_FLOAT,
            normalized: false,
            integer: false,
            stride: 0,
            offset: 0,
            buffer: 0,
            divisor: 0,
        }
    }
}

impl AttribArray {
    /// Bytes between consecutive elements.
    pub(crate) fn effective_stride(&self) -> u32 {
        if self.stride != 0 {
            return self.stride as u32;
        }
        let comps = if self.size == GL_BGRA as i32 {
            4
        } else {
            self.size as u32
        };
        match self.ty {
            GL_BYTE | GL_UNSIGNED_BYTE => comps,
            GL_SHORT | GL_UNSIGNED_SHORT | GL_HALF_FLOAT => 2 * comps,
            GL_INT_2_10_10_10_REV | GL_UNSIGNED_INT_2_10_10_10_REV => 4,
            GL_DOUBLE => 8 * comps,
            _ => 4 * comps,
        }
    }
}

/// A vertex array object.
#[derive(Debug, Clone, Default)]
pub(crate) struct VertexArray {
    /// Generic slots, then the fixed-function ones ([`FfArray::slot`]).
    pub attribs: [AttribArray; ATTRIB_SLOTS],
    pub element_buffer: u32,
}

/// Validates a `glVertexAttrib(I)Pointer` call's size/type pair.
pub(crate) fn check_pointer(size: i32, ty: GLenum, integer: bool, stride: i32) -> GlResult<()> {
    if stride < 0 {
        return invalid_value(format!("negative stride {stride}"));
    }
    let int_types = [
        GL_BYTE,
        GL_UNSIGNED_BYTE,
        GL_SHORT,
        GL_UNSIGNED_SHORT,
        GL_INT,
        GL_UNSIGNED_INT,
    ];
    let ok_type = if integer {
        int_types.contains(&ty)
    } else {
        int_types.contains(&ty)
            || matches!(
                ty,
                GL_FLOAT
                    | GL_HALF_FLOAT
                    | GL_DOUBLE
                    | GL_FIXED
                    | GL_INT_2_10_10_10_REV
                    | GL_UNSIGNED_INT_2_10_10_10_REV
            )
    };
    if !ok_type {
        return invalid_enum("vertex attribute type", ty);
    }
    if size == GL_BGRA as i32 && !integer {
        if !matches!(
            ty,
            GL_UNSIGNED_BYTE | GL_INT_2_10_10_10_REV | GL_UNSIGNED_INT_2_10_10_10_REV
        ) {
            return invalid_op("GL_BGRA size needs GL_UNSIGNED_BYTE or a packed type");
        }
        return Ok(());
    }
    if !(1..=4).contains(&size) {
        return invalid_value(format!("vertex attribute size {size}"));
    }
    if matches!(ty, GL_INT_2_10_10_10_REV | GL_UNSIGNED_INT_2_10_10_10_REV) && size != 4 {
        return invalid_op("packed 2_10_10_10 attributes need size 4");
    }
    Ok(())
}

/// The Vulkan vertex format of an enabled array; `None` if the device path has none.
pub(crate) fn vertex_format(a: &AttribArray) -> Option<vk::Format> {
    use vk::Format as F;
    if a.size == GL_BGRA as i32 {
        return match a.ty {
            GL_UNSIGNED_BYTE => Some(F::B8G8R8A8_UNORM),
            GL_UNSIGNED_INT_2_10_10_10_REV => Some(F::A2R10G10B10_UNORM_PACK32),
            GL_INT_2_10_10_10_REV => Some(F::A2R10G10B10_SNORM_PACK32),
            _ => None,
        };
    }
    let n = a.size as usize - 1;
    let pick = |t: [F; 4]| Some(t[n]);
    if a.integer {
        return match a.ty {
            GL_BYTE => pick([F::R8_SINT, F::R8G8_SINT, F::R8G8B8_SINT, F::R8G8B8A8_SINT]),
            GL_UNSIGNED_BYTE => pick([F::R8_UINT, F::R8G8_UINT, F::R8G8B8_UINT, F::R8G8B8A8_UINT]),
            GL_SHORT => pick([
                F::R16_SINT,
                F::R16G16_SINT,
                F::R16G16B16_SINT,
                F::R16G16B16A16_SINT,
            ]),
            GL_UNSIGNED_SHORT => pick([
                F::R16_UINT,
                F::R16G16_UINT,
                F::R16G16B16_UINT,
                F::R16G16B16A16_UINT,
            ]),
            GL_INT => pick([
                F::R32_SINT,
                F::R32G32_SINT,
                F::R32G32B32_SINT,
                F::R32G32B32A32_SINT,
            ]),
            GL_UNSIGNED_INT => pick([
                F::R32_UINT,
                F::R32G32_UINT,
                F::R32G32B32_UINT,
                F::R32G32B32A32_UINT,
            ]),
            _ => None,
        };
    }
    match (a.ty, a.normalized) {
        (GL_FLOAT, _) => pick([
            F::R32_SFLOAT,
            F::R32G32_SFLOAT,
            F::R32G32B32_SFLOAT,
            F::R32G32B32A32_SFLOAT,
        ]),
        (GL_HALF_FLOAT, _) => pick([
            F::R16_SFLOAT,
            F::R16G16_SFLOAT,
            F::R16G16B16_SFLOAT,
            F::R16G16B16A16_SFLOAT,
        ]),
        (GL_UNSIGNED_BYTE, true) => pick([
            F::R8_UNORM,
            F::R8G8_UNORM,
            F::R8G8B8_UNORM,
            F::R8G8B8A8_UNORM,
        ]),
        (GL_BYTE, true) => pick([
            F::R8_SNORM,
            F::R8G8_SNORM,
            F::R8G8B8_SNORM,
            F::R8G8B8A8_SNORM,
        ]),
        (GL_UNSIGNED_SHORT, true) => pick([
            F::R16_UNORM,
            F::R16G16_UNORM,
            F::R16G16B16_UNORM,
            F::R16G16B16A16_UNORM,
        ]),
        (GL_SHORT, true) => pick([
            F::R16_SNORM,
            F::R16G16_SNORM,
            F::R16G16B16_SNORM,
            F::R16G16B16A16_SNORM,
        ]),
        (GL_UNSIGNED_BYTE, false) => pick([
            F::R8_USCALED,
            F::R8G8_USCALED,
            F::R8G8B8_USCALED,
            F::R8G8B8A8_USCALED,
        ]),
        (GL_BYTE, false) => pick([
            F::R8_SSCALED,
            F::R8G8_SSCALED,
            F::R8G8B8_SSCALED,
            F::R8G8B8A8_SSCALED,
        ]),
        (GL_UNSIGNED_SHORT, false) => pick([
            F::R16_USCALED,
            F::R16G16_USCALED,
            F::R16G16B16_USCALED,
            F::R16G16B16A16_USCALED,
        ]),
        (GL_SHORT, false) => pick([
            F::R16_SSCALED,
            F::R16G16_SSCALED,
            F::R16G16B16_SSCALED,
            F::R16G16B16A16_SSCALED,
        ]),
        (GL_UNSIGNED_INT_2_10_10_10_REV, true) => Some(F::A2B10G10R10_UNORM_PACK32),
        (GL_INT_2_10_10_10_REV, true) => Some(F::A2B10G10R10_SNORM_PACK32),
        (GL_UNSIGNED_INT_2_10_10_10_REV, false) => Some(F::A2B10G10R10_USCALED_PACK32),
        (GL_INT_2_10_10_10_REV, false) => Some(F::A2B10G10R10_SSCALED_PACK32),
        _ => None,
    }
}
