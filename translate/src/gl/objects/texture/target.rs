//! GL texture targets and how each maps onto a Vulkan image and view.
//!
//! Design decisions:
//! - One enum for the targets that own storage; cube-map face targets
//!   (`GL_TEXTURE_CUBE_MAP_POSITIVE_X + i`) name the cube target plus a layer.
//! - GL's array axis is Vulkan's layer axis: a 1D array's GL height and a 2D array's GL depth
//!   are layers, never halved by mipmapping. Cube maps are six-layer cube-compatible 2D images.
//! - 3D images are created 2D-array-compatible so a slice can be a framebuffer attachment.
//! - Multisample textures are single-level multisampled 2D (array) images
//!   (`texture_multisample`); they have no sampler state.
//! - Rectangle textures are single-level 2D images whose parameters refuse mipmaps and
//!   repeating wraps; shaders sample them through 2D samplers with coordinates divided by the
//!   size (`glsl::rect`).

use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, GlResult};
use crate::gl::objects::texture::TexParams;
use crate::glsl::SamplerDim;

/// A texture target that owns storage (the binding points of a texture unit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum TexTarget {
    D1,
    D2,
    D3,
    Cube,
    D1Array,
    D2Array,
    Rect,
    D2Multisample,
    D2MultisampleArray,
    /// GL_ARB_texture_cube_map_array: layers of six faces (`imageCubeArray`).
    CubeArray,
}

impl TexTarget {
    /// Binding points per texture unit.
    pub const COUNT: usize = 10;

    /// The bind target `target` names (`glBindTexture`, `glTexParameter`, `glGenerateMipmap`).
    pub fn from_bind(target: GLenum) -> Option<Self> {
        Some(match target {
            GL_TEXTURE_1D => Self::D1,
            GL_TEXTURE_2D => Self::D2,
            GL_TEXTURE_3D => Self::D3,
            GL_TEXTURE_CUBE_MAP => Self::Cube,
            GL_TEXTURE_1D_ARRAY => Self::D1Array,
            GL_TEXTURE_2D_ARRAY => Self::D2Array,
            GL_TEXTURE_RECTANGLE => Self::Rect,
            GL_TEXTURE_2D_MULTISAMPLE => Self::D2Multisample,
            GL_TEXTURE_2D_MULTISAMPLE_ARRAY => Self::D2MultisampleArray,
            GL_TEXTURE_CUBE_MAP_ARRAY => Self::CubeArray,
            _ => return None,
        })
    }

    /// The image target `target` names (`glTexImage*`, `glFramebufferTexture2D`): the texture
    /// target and the layer (a cube face) it addresses.
    pub fn from_image(target: GLenum) -> Option<(Self, u32)> {
        if (GL_TEXTURE_CUBE_MAP_POSITIVE_X..=GL_TEXTURE_CUBE_MAP_NEGATIVE_Z).contains(&target) {
            return Some((Self::Cube, target - GL_TEXTURE_CUBE_MAP_POSITIVE_X));
        }
        match Self::from_bind(target) {
            Some(Self::Cube) | None => None,
            Some(t) => Some((t, 0)),
        }
    }

    /// The GL enum of the bind target.
    pub fn gl(self) -> GLenum {
        match self {
            Self::D1 => GL_TEXTURE_1D,
            Self::D2 => GL_TEXTURE_2D,
            Self::D3 => GL_TEXTURE_3D,
            Self::Cube => GL_TEXTURE_CUBE_MAP,
            Self::D1Array => GL_TEXTURE_1D_ARRAY,
            Self::D2Array => GL_TEXTURE_2D_ARRAY,
            Self::Rect => GL_TEXTURE_RECTANGLE,
            Self::D2Multisample => GL_TEXTURE_2D_MULTISAMPLE,
            Self::D2MultisampleArray => GL_TEXTURE_2D_MULTISAMPLE_ARRAY,
            Self::CubeArray => GL_TEXTURE_CUBE_MAP_ARRAY,
        }
    }

    /// The `glGet` name of this target's binding.
    pub fn binding_query(pname: GLenum) -> Option<Self> {
        Some(match pname {
            GL_TEXTURE_BINDING_1D => Self::D1,
            GL_TEXTURE_BINDING_2D => Self::D2,
            GL_TEXTURE_BINDING_3D => Self::D3,
            GL_TEXTURE_BINDING_CUBE_MAP => Self::Cube,
            GL_TEXTURE_BINDING_1D_ARRAY => Self::D1Array,
            GL_TEXTURE_BINDING_2D_ARRAY => Self::D2Array,
            GL_TEXTURE_BINDING_RECTANGLE => Self::Rect,
            GL_TEXTURE_BINDING_2D_MULTISAMPLE => Self::D2Multisample,
            GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY => Self::D2MultisampleArray,
            GL_TEXTURE_BINDING_CUBE_MAP_ARRAY => Self::CubeArray,
            _ => return None,
        })
    }

    /// Index into a texture unit's bindings.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The target a sampler of dimensionality `dim` reads; `None` for targets this GL has no
    /// storage for (buffer), which sample as incomplete.
    pub fn of_sampler(dim: SamplerDim) -> Option<Self> {
        Some(match dim {
            SamplerDim::D1 => Self::D1,
            SamplerDim::D2 => Self::D2,
            SamplerDim::D3 => Self::D3,
            SamplerDim::Cube => Self::Cube,
            SamplerDim::D1Array => Self::D1Array,
            SamplerDim::D2Array => Self::D2Array,
            SamplerDim::Rect => Self::Rect,
            SamplerDim::D2Multisample => Self::D2Multisample,
            SamplerDim::D2MultisampleArray => Self::D2MultisampleArray,
            SamplerDim::CubeArray => Self::CubeArray,
            _ => return None,
        })
    }

    /// GL dimensions of the image (`glTexImage1D` is 1, `2D` 2, `3D` 3).
    pub fn dims(self) -> u32 {
        match self {
            Self::D1 => 1,
            Self::D2 | Self::Cube | Self::D1Array | Self::Rect | Self::D2Multisample => 2,
            Self::D3 | Self::D2Array | Self::D2MultisampleArray | Self::CubeArray => 3,
        }
    }

    /// Whether the GL axis `axis` (0 = width, 1 = height, 2 = depth) counts layers.
    pub fn is_layer_axis(self, axis: usize) -> bool {
        matches!(
            (self, axis),
            (Self::D1Array, 1)
                | (Self::D2Array, 2)
                | (Self::D2MultisampleArray, 2)
                | (Self::CubeArray, 2)
        )
    }

    /// Whether the images are cube faces (cube maps and cube map arrays): square, and
    /// cube-compatible.
    pub fn is_cube(self) -> bool {
        matches!(self, Self::Cube | Self::CubeArray)
    }

    /// Whether levels beyond 0 exist.
    pub fn has_mipmaps(self) -> bool {
        !matches!(
            self,
            Self::Rect | Self::D2Multisample | Self::D2MultisampleArray
        )
    }

    /// Whether the images are multisampled (`glTexImage2DMultisample` and friends specify
    /// them; the pixel-transfer commands refuse them).
    pub fn is_multisample(self) -> bool {
        matches!(self, Self::D2Multisample | Self::D2MultisampleArray)
    }

    /// The texture parameters a new texture of this target starts with: a rectangle texture
    /// has no mipmaps and no repeat, so it starts with `GL_LINEAR` and `GL_CLAMP_TO_EDGE`
    /// (GL 4.6 §8.22 table 23.18); a multisample texture reads as `GL_NEAREST` and
    /// `GL_CLAMP_TO_EDGE`.
    pub fn initial_params(self) -> TexParams {
        let mut p = TexParams::default();
        if self == Self::Rect {
            p.min_filter = GL_LINEAR;
            p.wrap = [GL_CLAMP_TO_EDGE; 3];
        }
        if self.is_multisample() {
            // What the (unsettable) sampler state of a multisample texture reads as.
            p.min_filter = GL_NEAREST;
            p.mag_filter = GL_NEAREST;
            p.wrap = [GL_CLAMP_TO_EDGE; 3];
        }
        p
    }

    /// The target-specific errors of `glTexParameter*(pname, value)` (GL 4.6 §8.10): a
    /// rectangle texture refuses mipmapped minification, repeating wraps (`GL_INVALID_ENUM`)
    /// and a base level other than 0 (`GL_INVALID_OPERATION`).
    pub fn check_param(self, pname: GLenum, value: f32) -> GlResult<()> {
        if self.is_multisample() {
            // A multisample texture has no sampler state at all, and one level.
            return match pname {
                GL_TEXTURE_BASE_LEVEL if value != 0.0 => {
                    invalid_op("a multisample texture's base level must be 0")
                }
                _ if super::is_sampler_state(pname) => {
                    invalid_enum("multisample texture sampler state", pname)
                }
                _ => Ok(()),
            };
        }
        if self != Self::Rect {
            return Ok(());
        }
        let e = value as i32 as GLenum;
        match pname {
            GL_TEXTURE_MIN_FILTER if !matches!(e, GL_NEAREST | GL_LINEAR) => {
                invalid_enum("rectangle texture min filter", e)
            }
            GL_TEXTURE_WRAP_S | GL_TEXTURE_WRAP_T | GL_TEXTURE_WRAP_R
                if matches!(e, GL_REPEAT | GL_MIRRORED_REPEAT | GL_MIRROR_CLAMP_TO_EDGE) =>
            {
                invalid_enum("rectangle texture wrap mode", e)
            }
            GL_TEXTURE_BASE_LEVEL if value != 0.0 => {
                invalid_op("a rectangle texture's base level must be 0")
            }
            _ => Ok(()),
        }
    }

    /// Whether sampling state `p` (a sampler object's) leaves a texture of this target
    /// complete: a rectangle texture sampled with a mipmap filter or a repeating wrap is
    /// incomplete (GL 4.6 §8.17).
    pub fn accepts_sampling(self, p: &TexParams) -> bool {
        self != Self::Rect
            || (!p.uses_mipmaps()
                && p.wrap[..2]
                    .iter()
                    .all(|w| matches!(*w, GL_CLAMP_TO_EDGE | GL_CLAMP_TO_BORDER)))
    }

    pub fn image_type(self) -> vk::ImageType {
        match self {
            Self::D1 | Self::D1Array => vk::ImageType::TYPE_1D,
            Self::D3 => vk::ImageType::TYPE_3D,
            Self::D2
            | Self::Cube
            | Self::D2Array
            | Self::Rect
            | Self::D2Multisample
            | Self::D2MultisampleArray
            | Self::CubeArray => vk::ImageType::TYPE_2D,
        }
    }

    pub fn view_type(self) -> vk::ImageViewType {
        match self {
            Self::D1 => vk::ImageViewType::TYPE_1D,
            Self::D1Array => vk::ImageViewType::TYPE_1D_ARRAY,
            Self::D2 | Self::Rect | Self::D2Multisample => vk::ImageViewType::TYPE_2D,
            Self::D2Array | Self::D2MultisampleArray => vk::ImageViewType::TYPE_2D_ARRAY,
            Self::D3 => vk::ImageViewType::TYPE_3D,
            Self::Cube => vk::ImageViewType::CUBE,
            Self::CubeArray => vk::ImageViewType::CUBE_ARRAY,
        }
    }

    pub fn create_flags(self) -> vk::ImageCreateFlags {
        match self {
            Self::Cube | Self::CubeArray => vk::ImageCreateFlags::CUBE_COMPATIBLE,
            Self::D3 => vk::ImageCreateFlags::TYPE_2D_ARRAY_COMPATIBLE,
            _ => vk::ImageCreateFlags::empty(),
        }
    }

    /// The Vulkan extent and layer count of GL dimensions `dims` at level 0.
    pub fn vk_extent(self, [w, h, d]: [u32; 3]) -> (vk::Extent3D, u32) {
        let e = |width, height, depth| vk::Extent3D {
            width,
            height,
            depth,
        };
        match self {
            Self::D1 => (e(w, 1, 1), 1),
            Self::D1Array => (e(w, 1, 1), h),
            Self::D2 | Self::Rect | Self::D2Multisample => (e(w, h, 1), 1),
            Self::Cube => (e(w, h, 1), 6),
            Self::D2Array | Self::D2MultisampleArray | Self::CubeArray => (e(w, h, 1), d),
            Self::D3 => (e(w, h, d), 1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bind_and_image_targets_round_trip() {
        for t in [
            TexTarget::D1,
            TexTarget::D2,
            TexTarget::D3,
            TexTarget::Cube,
            TexTarget::D1Array,
            TexTarget::D2Array,
            TexTarget::Rect,
            TexTarget::D2Multisample,
            TexTarget::D2MultisampleArray,
            TexTarget::CubeArray,
        ] {
            assert_eq!(TexTarget::from_bind(t.gl()), Some(t));
            assert!(t.index() < TexTarget::COUNT);
        }
        assert_eq!(TexTarget::from_image(GL_TEXTURE_CUBE_MAP), None);
        assert_eq!(
            TexTarget::from_image(GL_TEXTURE_CUBE_MAP_NEGATIVE_Z),
            Some((TexTarget::Cube, 5))
        );
        assert_eq!(
            TexTarget::from_image(GL_TEXTURE_2D_MULTISAMPLE),
            Some((TexTarget::D2Multisample, 0))
        );
    }

    #[test]
    fn array_axes_become_layers() {
        let (e, layers) = TexTarget::D1Array.vk_extent([8, 3, 1]);
        assert_eq!((e.width, e.height, e.depth, layers), (8, 1, 1, 3));
        let (e, layers) = TexTarget::D2Array.vk_extent([8, 4, 5]);
        assert_eq!((e.width, e.height, e.depth, layers), (8, 4, 1, 5));
        let (_, layers) = TexTarget::Cube.vk_extent([4, 4, 1]);
        assert_eq!(layers, 6);
    }
}
