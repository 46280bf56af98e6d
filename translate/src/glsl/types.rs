//! GLSL types as the GL API names them: what `glGetActiveUniform` and `glGetActiveAttrib` report.
//!
//! Design decisions:
//! - One flat enum for the non-opaque types (the GL API's own vocabulary: `GL_FLOAT_VEC4`,
//!   `GL_FLOAT_MAT3x4`, …) and a small struct of enums for samplers, whose GL names are the product
//!   of dimensionality × sampled kind × shadow.
//! - `gl_enum` is a pure exhaustive table, checked against `GL/glcorearb.h` values.
//! - Booleans: glslang stores a `bool` uniform as a 32-bit `uint` in SPIR-V (bools have no size
//!   there), so a block member declared `bool` reflects as `UInt`. The GL layer must accept
//!   `glUniform1i` on `UInt` members for that reason until the source type is tracked.
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

/// The scalar kind of a non-opaque type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarKind {
    Float,
    Double,
    Int,
    UInt,
    Bool,
    /// `int64_t` (GL_ARB_gpu_shader_int64).
    Int64,
    /// `uint64_t` (GL_ARB_gpu_shader_int64).
    UInt64,
}

impl ScalarKind {
    /// Bytes one component takes in a block or a vertex: 8 for the 64-bit kinds, else 4.
    pub fn bytes(self) -> u32 {
        match self {
            ScalarKind::Double | ScalarKind::Int64 | ScalarKind::UInt64 => 8,
            ScalarKind::Float | ScalarKind::Int | ScalarKind::UInt | ScalarKind::Bool => 4,
        }
    }

    /// Whether a component is 64 bits wide.
    pub fn is_64bit(self) -> bool {
        self.bytes() == 8
    }
}

/// A non-opaque GLSL type (`float` … `dmat4x3`) or a sampler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GlType {
    Float,
    Vec2,
    Vec3,
    Vec4,
    Double,
    DVec2,
    DVec3,
    DVec4,
    Int,
    IVec2,
    IVec3,
    IVec4,
    UInt,
    UVec2,
    UVec3,
    UVec4,
    Bool,
    BVec2,
    BVec3,
    BVec4,
    Int64,
    I64Vec2,
    I64Vec3,
    I64Vec4,
    UInt64,
    U64Vec2,
    U64Vec3,
    U64Vec4,
    /// `matCxR` has C columns of R rows, as in GLSL.
    Mat2,
    Mat2x3,
    Mat2x4,
    Mat3x2,
    Mat3,
    Mat3x4,
    Mat4x2,
    Mat4x3,
    Mat4,
    DMat2,
    DMat2x3,
    DMat2x4,
    DMat3x2,
    DMat3,
    DMat3x4,
    DMat4x2,
    DMat4x3,
    DMat4,
    Sampler(SamplerType),
    /// An image uniform (`image2D`, …): its dimensionality and component kind.
    Image(SamplerType),
}

/// What a sampler returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SampledKind {
    Float,
    Int,
    UInt,
}

/// A sampler's dimensionality (and arrayed / multisampled-ness), the GL texture target it samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SamplerDim {
    D1,
    D2,
    D3,
    Cube,
    Rect,
    Buffer,
    D1Array,
    D2Array,
    CubeArray,
    D2Multisample,
    D2MultisampleArray,
}

/// `sampler2D`, `isampler3D`, `sampler2DShadow`, …
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SamplerType {
    pub dim: SamplerDim,
    pub kind: SampledKind,
    pub shadow: bool,
}

impl SamplerType {
    /// The `GL_*IMAGE*` enum of an image uniform of this type.
    pub fn image_gl_enum(self) -> Option<u32> {
        use SampledKind as K;
        use SamplerDim as D;
        let base = match self.kind {
            K::Float => 0x904C,
            K::Int => 0x9057,
            K::UInt => 0x9062,
        };
        let index = match self.dim {
            D::D1 => 0,
            D::D2 => 1,
            D::D3 => 2,
            D::Rect => 3,
            D::Cube => 4,
            D::Buffer => 5,
            D::D1Array => 6,
            D::D2Array => 7,
            D::CubeArray => 8,
            D::D2Multisample => 9,
            D::D2MultisampleArray => 10,
        };
        Some(base + index)
    }

    /// The `GL_*SAMPLER*` enum, or `None` for a combination GLSL cannot declare.
    pub fn gl_enum(self) -> Option<u32> {
        use SampledKind as K;
        use SamplerDim as D;
        Some(match (self.dim, self.kind, self.shadow) {
            (D::D1, K::Float, false) => 0x8B5D,
            (D::D2, K::Float, false) => 0x8B5E,
            (D::D3, K::Float, false) => 0x8B5F,
            (D::Cube, K::Float, false) => 0x8B60,
            (D::D1, K::Float, true) => 0x8B61,
            (D::D2, K::Float, true) => 0x8B62,
            (D::Rect, K::Float, false) => 0x8B63,
            (D::Rect, K::Float, true) => 0x8B64,
            (D::D1Array, K::Float, false) => 0x8DC0,
            (D::D2Array, K::Float, false) => 0x8DC1,
            (D::Buffer, K::Float, false) => 0x8DC2,
            (D::D1Array, K::Float, true) => 0x8DC3,
            (D::D2Array, K::Float, true) => 0x8DC4,
            (D::Cube, K::Float, true) => 0x8DC5,
            (D::CubeArray, K::Float, false) => 0x900C,
            (D::CubeArray, K::Float, true) => 0x900D,
            (D::D2Multisample, K::Float, false) => 0x9108,
            (D::D2MultisampleArray, K::Float, false) => 0x910B,
            (D::D1, K::Int, false) => 0x8DC9,
            (D::D2, K::Int, false) => 0x8DCA,
            (D::D3, K::Int, false) => 0x8DCB,
            (D::Cube, K::Int, false) => 0x8DCC,
            (D::Rect, K::Int, false) => 0x8DCD,
            (D::D1Array, K::Int, false) => 0x8DCE,
            (D::D2Array, K::Int, false) => 0x8DCF,
            (D::Buffer, K::Int, false) => 0x8DD0,
            (D::CubeArray, K::Int, false) => 0x900E,
            (D::D2Multisample, K::Int, false) => 0x9109,
            (D::D2MultisampleArray, K::Int, false) => 0x910C,
            (D::D1, K::UInt, false) => 0x8DD1,
            (D::D2, K::UInt, false) => 0x8DD2,
            (D::D3, K::UInt, false) => 0x8DD3,
            (D::Cube, K::UInt, false) => 0x8DD4,
            (D::Rect, K::UInt, false) => 0x8DD5,
            (D::D1Array, K::UInt, false) => 0x8DD6,
            (D::D2Array, K::UInt, false) => 0x8DD7,
            (D::Buffer, K::UInt, false) => 0x8DD8,
            (D::CubeArray, K::UInt, false) => 0x900F,
            (D::D2Multisample, K::UInt, false) => 0x910A,
            (D::D2MultisampleArray, K::UInt, false) => 0x910D,
            (D::D3 | D::Buffer | D::D2Multisample | D::D2MultisampleArray, K::Float, true)
            | (_, K::Int | K::UInt, true) => return None,
        })
    }
}

impl GlType {
    /// The type with `columns` columns of `rows` components of `scalar` (`columns == 1` for
    /// scalars and vectors), or `None` where GLSL has no such type (a bool matrix, a 5-vector).
    pub fn from_shape(scalar: ScalarKind, columns: u32, rows: u32) -> Option<Self> {
        use GlType as T;
        use ScalarKind as S;
        Some(match (scalar, columns, rows) {
            (S::Float, 1, 1) => T::Float,
            (S::Float, 1, 2) => T::Vec2,
            (S::Float, 1, 3) => T::Vec3,
            (S::Float, 1, 4) => T::Vec4,
            (S::Double, 1, 1) => T::Double,
            (S::Double, 1, 2) => T::DVec2,
            (S::Double, 1, 3) => T::DVec3,
            (S::Double, 1, 4) => T::DVec4,
            (S::Int, 1, 1) => T::Int,
            (S::Int, 1, 2) => T::IVec2,
            (S::Int, 1, 3) => T::IVec3,
            (S::Int, 1, 4) => T::IVec4,
            (S::UInt, 1, 1) => T::UInt,
            (S::UInt, 1, 2) => T::UVec2,
            (S::UInt, 1, 3) => T::UVec3,
            (S::UInt, 1, 4) => T::UVec4,
            (S::Bool, 1, 1) => T::Bool,
            (S::Bool, 1, 2) => T::BVec2,
            (S::Bool, 1, 3) => T::BVec3,
            (S::Bool, 1, 4) => T::BVec4,
            (S::Int64, 1, 1) => T::Int64,
            (S::Int64, 1, 2) => T::I64Vec2,
            (S::Int64, 1, 3) => T::I64Vec3,
            (S::Int64, 1, 4) => T::I64Vec4,
            (S::UInt64, 1, 1) => T::UInt64,
            (S::UInt64, 1, 2) => T::U64Vec2,
            (S::UInt64, 1, 3) => T::U64Vec3,
            (S::UInt64, 1, 4) => T::U64Vec4,
            (S::Float, 2, 2) => T::Mat2,
            (S::Float, 2, 3) => T::Mat2x3,
            (S::Float, 2, 4) => T::Mat2x4,
            (S::Float, 3, 2) => T::Mat3x2,
            (S::Float, 3, 3) => T::Mat3,
            (S::Float, 3, 4) => T::Mat3x4,
            (S::Float, 4, 2) => T::Mat4x2,
            (S::Float, 4, 3) => T::Mat4x3,
            (S::Float, 4, 4) => T::Mat4,
            (S::Double, 2, 2) => T::DMat2,
            (S::Double, 2, 3) => T::DMat2x3,
            (S::Double, 2, 4) => T::DMat2x4,
            (S::Double, 3, 2) => T::DMat3x2,
            (S::Double, 3, 3) => T::DMat3,
            (S::Double, 3, 4) => T::DMat3x4,
            (S::Double, 4, 2) => T::DMat4x2,
            (S::Double, 4, 3) => T::DMat4x3,
            (S::Double, 4, 4) => T::DMat4,
            _ => return None,
        })
    }

    /// (scalar kind, columns, rows); `None` for samplers.
    pub fn shape(self) -> Option<(ScalarKind, u32, u32)> {
        use GlType as T;
        use ScalarKind as S;
        Some(match self {
            T::Float => (S::Float, 1, 1),
            T::Vec2 => (S::Float, 1, 2),
            T::Vec3 => (S::Float, 1, 3),
            T::Vec4 => (S::Float, 1, 4),
            T::Double => (S::Double, 1, 1),
            T::DVec2 => (S::Double, 1, 2),
            T::DVec3 => (S::Double, 1, 3),
            T::DVec4 => (S::Double, 1, 4),
            T::Int => (S::Int, 1, 1),
            T::IVec2 => (S::Int, 1, 2),
            T::IVec3 => (S::Int, 1, 3),
            T::IVec4 => (S::Int, 1, 4),
            T::UInt => (S::UInt, 1, 1),
            T::UVec2 => (S::UInt, 1, 2),
            T::UVec3 => (S::UInt, 1, 3),
            T::UVec4 => (S::UInt, 1, 4),
            T::Bool => (S::Bool, 1, 1),
            T::BVec2 => (S::Bool, 1, 2),
            T::BVec3 => (S::Bool, 1, 3),
            T::BVec4 => (S::Bool, 1, 4),
            T::Int64 => (S::Int64, 1, 1),
            T::I64Vec2 => (S::Int64, 1, 2),
            T::I64Vec3 => (S::Int64, 1, 3),
            T::I64Vec4 => (S::Int64, 1, 4),
            T::UInt64 => (S::UInt64, 1, 1),
            T::U64Vec2 => (S::UInt64, 1, 2),
            T::U64Vec3 => (S::UInt64, 1, 3),
            T::U64Vec4 => (S::UInt64, 1, 4),
            T::Mat2 => (S::Float, 2, 2),
            T::Mat2x3 => (S::Float, 2, 3),
            T::Mat2x4 => (S::Float, 2, 4),
            T::Mat3x2 => (S::Float, 3, 2),
            T::Mat3 => (S::Float, 3, 3),
            T::Mat3x4 => (S::Float, 3, 4),
            T::Mat4x2 => (S::Float, 4, 2),
            T::Mat4x3 => (S::Float, 4, 3),
            T::Mat4 => (S::Float, 4, 4),
            T::DMat2 => (S::Double, 2, 2),
            T::DMat2x3 => (S::Double, 2, 3),
            T::DMat2x4 => (S::Double, 2, 4),
            T::DMat3x2 => (S::Double, 3, 2),
            T::DMat3 => (S::Double, 3, 3),
            T::DMat3x4 => (S::Double, 3, 4),
            T::DMat4x2 => (S::Double, 4, 2),
            T::DMat4x3 => (S::Double, 4, 3),
            T::DMat4 => (S::Double, 4, 4),
            T::Sampler(_) | T::Image(_) => return None,
        })
    }

    /// The `GL_*` type enum `glGetActiveUniform`/`glGetActiveAttrib` report; `None` only for a
    /// sampler combination GLSL cannot declare.
    pub fn gl_enum(self) -> Option<u32> {
        use GlType as T;
        Some(match self {
            T::Float => 0x1406,
            T::Vec2 => 0x8B50,
            T::Vec3 => 0x8B51,
            T::Vec4 => 0x8B52,
            T::Double => 0x140A,
            T::DVec2 => 0x8FFC,
            T::DVec3 => 0x8FFD,
            T::DVec4 => 0x8FFE,
            T::Int => 0x1404,
            T::IVec2 => 0x8B53,
            T::IVec3 => 0x8B54,
            T::IVec4 => 0x8B55,
            T::UInt => 0x1405,
            T::UVec2 => 0x8DC6,
            T::UVec3 => 0x8DC7,
            T::UVec4 => 0x8DC8,
            T::Bool => 0x8B56,
            T::BVec2 => 0x8B57,
            T::BVec3 => 0x8B58,
            T::BVec4 => 0x8B59,
            T::Int64 => 0x140E,
            T::I64Vec2 => 0x8FE9,
            T::I64Vec3 => 0x8FEA,
            T::I64Vec4 => 0x8FEB,
            T::UInt64 => 0x140F,
            T::U64Vec2 => 0x8FF5,
            T::U64Vec3 => 0x8FF6,
            T::U64Vec4 => 0x8FF7,
            T::Mat2 => 0x8B5A,
            T::Mat3 => 0x8B5B,
            T::Mat4 => 0x8B5C,
            T::Mat2x3 => 0x8B65,
            T::Mat2x4 => 0x8B66,
            T::Mat3x2 => 0x8B67,
            T::Mat3x4 => 0x8B68,
            T::Mat4x2 => 0x8B69,
            T::Mat4x3 => 0x8B6A,
            T::DMat2 => 0x8F46,
            T::DMat3 => 0x8F47,
            T::DMat4 => 0x8F48,
            T::DMat2x3 => 0x8F49,
            T::DMat2x4 => 0x8F4A,
            T::DMat3x2 => 0x8F4B,
            T::DMat3x4 => 0x8F4C,
            T::DMat4x2 => 0x8F4D,
            T::DMat4x3 => 0x8F4E,
            T::Sampler(s) => return s.gl_enum(),
            T::Image(s) => return s.image_gl_enum(),
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn shapes_round_trip() {
        for scalar in [
            ScalarKind::Float,
            ScalarKind::Double,
            ScalarKind::Int,
            ScalarKind::UInt,
            ScalarKind::Bool,
            ScalarKind::Int64,
            ScalarKind::UInt64,
        ] {
            for columns in 1..=4 {
                for rows in 1..=4 {
                    if let Some(ty) = GlType::from_shape(scalar, columns, rows) {
                        assert_eq!(ty.shape(), Some((scalar, columns, rows)));
                        assert!(ty.gl_enum().is_some());
                    }
                }
            }
        }
        assert_eq!(GlType::from_shape(ScalarKind::Bool, 2, 2), None);
        assert_eq!(GlType::from_shape(ScalarKind::Float, 1, 5), None);
        assert_eq!(
            GlType::from_shape(ScalarKind::Float, 2, 3),
            Some(GlType::Mat2x3)
        );
    }

    #[test]
    fn gl_enums_match_glcorearb() {
        // Spot checks against GL/glcorearb.h.
        assert_eq!(GlType::Vec4.gl_enum(), Some(0x8B52)); // GL_FLOAT_VEC4
        assert_eq!(GlType::Mat4.gl_enum(), Some(0x8B5C)); // GL_FLOAT_MAT4
        assert_eq!(GlType::Mat2x3.gl_enum(), Some(0x8B65)); // GL_FLOAT_MAT2x3
        assert_eq!(GlType::UVec3.gl_enum(), Some(0x8DC7)); // GL_UNSIGNED_INT_VEC3
        assert_eq!(GlType::DMat2x3.gl_enum(), Some(0x8F49)); // GL_DOUBLE_MAT2x3
        assert_eq!(GlType::I64Vec3.gl_enum(), Some(0x8FEA)); // GL_INT64_VEC3_ARB
        assert_eq!(GlType::U64Vec4.gl_enum(), Some(0x8FF7)); // GL_UNSIGNED_INT64_VEC4_ARB
        assert_eq!(GlType::from_shape(ScalarKind::Int64, 2, 2), None);
        let s = |dim, kind, shadow| GlType::Sampler(SamplerType { dim, kind, shadow }).gl_enum();
        assert_eq!(s(SamplerDim::D2, SampledKind::Float, false), Some(0x8B5E)); // GL_SAMPLER_2D
        assert_eq!(s(SamplerDim::D2, SampledKind::Float, true), Some(0x8B62)); // _2D_SHADOW
        assert_eq!(
            s(SamplerDim::CubeArray, SampledKind::UInt, false),
            Some(0x900F)
        );
        assert_eq!(s(SamplerDim::D2, SampledKind::Int, true), None);
    }

    #[test]
    fn every_sampler_enum_is_distinct() {
        let dims = [
            SamplerDim::D1,
            SamplerDim::D2,
            SamplerDim::D3,
            SamplerDim::Cube,
            SamplerDim::Rect,
            SamplerDim::Buffer,
            SamplerDim::D1Array,
            SamplerDim::D2Array,
            SamplerDim::CubeArray,
            SamplerDim::D2Multisample,
            SamplerDim::D2MultisampleArray,
        ];
        let mut seen = std::collections::HashSet::new();
        for dim in dims {
            for kind in [SampledKind::Float, SampledKind::Int, SampledKind::UInt] {
                for shadow in [false, true] {
                    if let Some(e) = (SamplerType { dim, kind, shadow }).gl_enum() {
                        assert!(seen.insert(e), "{e:#x} twice");
                    }
                }
            }
        }
        // 11 dims × 3 kinds + 7 shadow forms.
        assert_eq!(seen.len(), 40);
    }
}
