//! GL internal formats: what each one means to the application (base format, channel sizes and
//! component type, for `glGetTexLevelParameter`/`glGetRenderbufferParameter`) and which Vulkan
//! formats may store it.
//!
//! Design decisions:
//! - One table ([`formats!`]) declares each name, its value and its meaning together, so a
//!   format cannot be half-added. Queries answer from the GL side of the row, never from the
//!   Vulkan stand-in: an `GL_RGB565` texture stored as RGBA8 reports 5/6/5 bits.
//! - Each row lists its storage candidates, the preferred first, wider fallbacks after. The
//!   first one the device supports for sampling and transfers — and, for GL-renderable formats,
//!   as an attachment — is used ([`choose`]); a device without a renderable candidate still gets
//!   a sampled-only texture. 16-bit formats Vulkan packs differently from GL (565, 4444, 5551)
//!   and the legacy sub-byte ones are stored as RGBA8: exact for every value GL can upload.
//! - Legacy formats (alpha, luminance, luminance-alpha, intensity) are stored in the natural
//!   R/G/B/A slots of their storage and sampled through a view swizzle ([`FormatInfo::swizzle`])
//!   that gives GL's semantics: luminance L → (L, L, L, 1), intensity I → (I, I, I, I), alpha
//!   A → (0, 0, 0, A). Luminance and intensity live in R8 (R is what rendering writes to them);
//!   alpha and luminance-alpha need a real alpha channel for rendering, hence RGBA.
//! - RGB formats stored with an alpha channel sample alpha as 1 through the same swizzle.
//! - Unsized names (and the legacy component counts 1–4) resolve to a sized row here; the name
//!   the application gave is what `GL_TEXTURE_INTERNAL_FORMAT` reports.
#![allow(missing_docs)]

use arenagl_staging::{Codec, TexelFormat, TexelKind};
use ash::vk;

use crate::gl::context::enums::GLenum;

/// GL's base internal format (GL 4.6 table 8.11 and the compatibility profile's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Base {
    Red,
    Rg,
    Rgb,
    Rgba,
    Alpha,
    Luminance,
    LuminanceAlpha,
    Intensity,
    Depth,
    DepthStencil,
    Stencil,
}

/// The component type queries report (`GL_TEXTURE_RED_TYPE` …).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Comp {
    Unorm,
    Snorm,
    Float,
    Int,
    UInt,
}

impl Comp {
    /// `GL_UNSIGNED_NORMALIZED`, `GL_SIGNED_NORMALIZED`, `GL_FLOAT`, `GL_INT`, `GL_UNSIGNED_INT`.
    pub(crate) fn gl(self) -> GLenum {
        match self {
            Self::Unorm => 0x8C17,
            Self::Snorm => 0x8F9C,
            Self::Float => 0x1406,
            Self::Int => 0x1404,
            Self::UInt => 0x1405,
        }
    }

    pub(crate) fn is_integer(self) -> bool {
        matches!(self, Self::Int | Self::UInt)
    }
}

/// One row of the table.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FormatInfo {
    pub base: Base,
    /// Bits of red, green, blue, alpha, luminance, intensity, depth, stencil.
    pub bits: [u8; 8],
    pub comp: Comp,
    /// sRGB-encoded colour (the storage candidates are then `_SRGB` formats, which decode on
    /// sampling; the table test checks it).
    pub srgb: bool,
    /// Storage candidates, preferred first.
    pub candidates: &'static [vk::Format],
}

impl FormatInfo {
    /// Whether GL requires the format to be renderable (colour, depth or stencil).
    pub(crate) fn renderable(&self) -> bool {
        // RGB9_E5 is the one GL 3.x texture format that is not colour-renderable; the legacy
        // ones are renderable in the compatibility profile (ARB_framebuffer_object).
        !(self.comp == Comp::Float && self.bits[..3] == [9, 9, 9])
    }

    /// GL's bits of red, green, blue and alpha for the legacy narrow formats (`GL_RGBA2` …
    /// `GL_RGB5_A1`) when `storage` is 8-bit RGBA, which holds more: uploads round to the
    /// precision the size queries report (`GL_TEXTURE_ALPHA_SIZE` 1 means alpha is 0 or 1).
    pub(crate) fn narrow_in_rgba8(&self, storage: vk::Format) -> Option<[u8; 4]> {
        let rgba = [self.bits[0], self.bits[1], self.bits[2], self.bits[3]];
        let narrow = rgba.iter().any(|b| (1..8).contains(b)) && rgba.iter().all(|&b| b <= 8);
        (storage == vk::Format::R8G8B8A8_UNORM
            && matches!(self.base, Base::Rgb | Base::Rgba)
            && self.comp == Comp::Unorm
            && narrow)
            .then_some(rgba)
    }

    /// Depth, depth/stencil or stencil.
    pub(crate) fn is_depth_stencil(&self) -> bool {
        matches!(self.base, Base::Depth | Base::DepthStencil | Base::Stencil)
    }

    /// The GL swizzle sources (`GL_RED`…`GL_ONE`) that give GL's sampling semantics over a
    /// storage `format` holding the channels in their natural slots.
    pub(crate) fn swizzle(&self, format: vk::Format) -> [GLenum; 4] {
        const R: GLenum = 0x1903;
        const G: GLenum = 0x1904;
        const B: GLenum = 0x1905;
        const A: GLenum = 0x1906;
        const ZERO: GLenum = 0;
        const ONE: GLenum = 1;
        let one_channel = channels(format) == 1;
        match self.base {
            Base::Red => [R, ZERO, ZERO, ONE],
            Base::Rg => [R, G, ZERO, ONE],
            Base::Rgb => [R, G, B, ONE],
            Base::Alpha if one_channel => [ZERO, ZERO, ZERO, R],
            Base::Alpha => [ZERO, ZERO, ZERO, A],
            Base::Luminance => [R, R, R, ONE],
            Base::LuminanceAlpha if channels(format) == 2 => [R, R, R, G],
            Base::LuminanceAlpha => [R, R, R, A],
            Base::Intensity => [R, R, R, R],
            Base::Rgba | Base::Depth | Base::DepthStencil | Base::Stencil => [R, G, B, A],
        }
    }
}

/// Channels of a colour storage format (1 to 4).
fn channels(format: vk::Format) -> u32 {
    use vk::Format as F;
    match format {
        F::R8_UNORM
        | F::R8_SNORM
        | F::R8_UINT
        | F::R8_SINT
        | F::R8_SRGB
        | F::R16_UNORM
        | F::R16_SNORM
        | F::R16_SFLOAT
        | F::R16_UINT
        | F::R16_SINT
        | F::R32_SFLOAT
        | F::R32_UINT
        | F::R32_SINT => 1,
        F::R8G8_UNORM
        | F::R8G8_SNORM
        | F::R8G8_UINT
        | F::R8G8_SINT
        | F::R16G16_UNORM
        | F::R16G16_SNORM
        | F::R16G16_SFLOAT
        | F::R16G16_UINT
        | F::R16G16_SINT
        | F::R32G32_SFLOAT
        | F::R32G32_UINT
        | F::R32G32_SINT => 2,
        F::B10G11R11_UFLOAT_PACK32 | F::E5B9G9R9_UFLOAT_PACK32 | F::R32G32B32_SFLOAT => 3,
        _ => 4,
    }
}

use vk::Format as F;

// Storage candidate lists shared by many rows.
const RGBA8: &[F] = &[F::R8G8B8A8_UNORM];
const RGBA16: &[F] = &[F::R16G16B16A16_UNORM, F::R32G32B32A32_SFLOAT];
const RGBA16F: &[F] = &[F::R16G16B16A16_SFLOAT, F::R32G32B32A32_SFLOAT];
const RGBA32F: &[F] = &[F::R32G32B32A32_SFLOAT];
const R8: &[F] = &[F::R8_UNORM, F::R8G8B8A8_UNORM];
const RG8: &[F] = &[F::R8G8_UNORM, F::R8G8B8A8_UNORM];
const R16: &[F] = &[F::R16_UNORM, F::R16G16B16A16_UNORM, F::R32_SFLOAT];
const RG16: &[F] = &[F::R16G16_UNORM, F::R16G16B16A16_UNORM, F::R32G32_SFLOAT];
const R8S: &[F] = &[F::R8_SNORM, F::R8G8B8A8_SNORM];
const RG8S: &[F] = &[F::R8G8_SNORM, F::R8G8B8A8_SNORM];
const RGBA8S: &[F] = &[F::R8G8B8A8_SNORM];
const R16S: &[F] = &[F::R16_SNORM, F::R16G16B16A16_SNORM, F::R32_SFLOAT];
const RG16S: &[F] = &[F::R16G16_SNORM, F::R16G16B16A16_SNORM, F::R32G32_SFLOAT];
const RGBA16S: &[F] = &[F::R16G16B16A16_SNORM, F::R32G32B32A32_SFLOAT];
const R16F: &[F] = &[F::R16_SFLOAT, F::R16G16B16A16_SFLOAT, F::R32_SFLOAT];
const RG16F: &[F] = &[F::R16G16_SFLOAT, F::R16G16B16A16_SFLOAT, F::R32G32_SFLOAT];
const R32F: &[F] = &[F::R32_SFLOAT, F::R32G32B32A32_SFLOAT];
const RG32F: &[F] = &[F::R32G32_SFLOAT, F::R32G32B32A32_SFLOAT];
const R8UI: &[F] = &[F::R8_UINT, F::R8G8B8A8_UINT];
const RG8UI: &[F] = &[F::R8G8_UINT, F::R8G8B8A8_UINT];
const RGBA8UI: &[F] = &[F::R8G8B8A8_UINT];
const R8I: &[F] = &[F::R8_SINT, F::R8G8B8A8_SINT];
const RG8I: &[F] = &[F::R8G8_SINT, F::R8G8B8A8_SINT];
const RGBA8I: &[F] = &[F::R8G8B8A8_SINT];
const R16UI: &[F] = &[F::R16_UINT, F::R16G16B16A16_UINT];
const RG16UI: &[F] = &[F::R16G16_UINT, F::R16G16B16A16_UINT];
const RGBA16UI: &[F] = &[F::R16G16B16A16_UINT];
const R16I: &[F] = &[F::R16_SINT, F::R16G16B16A16_SINT];
const RG16I: &[F] = &[F::R16G16_SINT, F::R16G16B16A16_SINT];
const RGBA16I: &[F] = &[F::R16G16B16A16_SINT];
const R32UI: &[F] = &[F::R32_UINT, F::R32G32B32A32_UINT];
const RG32UI: &[F] = &[F::R32G32_UINT, F::R32G32B32A32_UINT];
const RGBA32UI: &[F] = &[F::R32G32B32A32_UINT];
const R32I: &[F] = &[F::R32_SINT, F::R32G32B32A32_SINT];
const RG32I: &[F] = &[F::R32G32_SINT, F::R32G32B32A32_SINT];
const RGBA32I: &[F] = &[F::R32G32B32A32_SINT];
const SRGBA8: &[F] = &[F::R8G8B8A8_SRGB];
const SR8: &[F] = &[F::R8_SRGB, F::R8G8B8A8_SRGB];
const RGB10A2: &[F] = &[F::A2B10G10R10_UNORM_PACK32, F::R16G16B16A16_UNORM];
const RGB10A2UI: &[F] = &[F::A2B10G10R10_UINT_PACK32, F::R16G16B16A16_UINT];
const R11G11B10F: &[F] = &[F::B10G11R11_UFLOAT_PACK32, F::R16G16B16A16_SFLOAT];
const RGB9E5: &[F] = &[F::E5B9G9R9_UFLOAT_PACK32, F::R16G16B16A16_SFLOAT];
/// Depth formats: the device's depth/stencil format is substituted at run time ([`choose`]).
const DEPTH: &[F] = &[F::UNDEFINED];
const DEPTH32F: &[F] = &[F::D32_SFLOAT_S8_UINT, F::UNDEFINED];

/// Declares each internal format's constant and its row in [`lookup`].
macro_rules! formats {
    ($($name:ident = $value:literal: $base:ident [$($bits:literal),*] $comp:ident $srgb:literal $cands:ident;)*) => {
        $(#[allow(dead_code)] pub const $name: GLenum = $value;)*

        /// The row of an internal format name (sized or unsized); `None` for names GL does not
        /// accept as a texture or renderbuffer internal format.
        pub(crate) fn lookup(internal: GLenum) -> Option<FormatInfo> {
            Some(match internal {
                $($value => FormatInfo {
                    base: Base::$base,
                    bits: [$($bits),*],
                    comp: Comp::$comp,
                    srgb: $srgb,
                    candidates: $cands,
                },)*
                _ => return None,
            })
        }

        /// Every name in the table (tests walk it).
        #[cfg(test)]
        pub(crate) const ALL: &[GLenum] = &[$($value),*];
    };
}

//  name = value: base [r, g, b, a, l, i, depth, stencil] component srgb storage;
formats! {
    // Unsized and legacy component counts.
    GL_RED_UNSIZED = 0x1903: Red [8, 0, 0, 0, 0, 0, 0, 0] Unorm false R8;
    GL_RG_UNSIZED = 0x8227: Rg [8, 8, 0, 0, 0, 0, 0, 0] Unorm false RG8;
    GL_RGB_UNSIZED = 0x1907: Rgb [8, 8, 8, 0, 0, 0, 0, 0] Unorm false RGBA8;
    GL_RGBA_UNSIZED = 0x1908: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_ONE_COMPONENT = 1: Luminance [0, 0, 0, 0, 8, 0, 0, 0] Unorm false R8;
    GL_TWO_COMPONENTS = 2: LuminanceAlpha [0, 0, 0, 8, 8, 0, 0, 0] Unorm false RGBA8;
    GL_THREE_COMPONENTS = 3: Rgb [8, 8, 8, 0, 0, 0, 0, 0] Unorm false RGBA8;
    GL_FOUR_COMPONENTS = 4: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_ALPHA_UNSIZED = 0x1906: Alpha [0, 0, 0, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_LUMINANCE_UNSIZED = 0x1909: Luminance [0, 0, 0, 0, 8, 0, 0, 0] Unorm false R8;
    GL_LUMINANCE_ALPHA_UNSIZED = 0x190A: LuminanceAlpha [0, 0, 0, 8, 8, 0, 0, 0] Unorm false RGBA8;
    GL_INTENSITY = 0x8049: Intensity [0, 0, 0, 0, 0, 8, 0, 0] Unorm false R8;
    GL_COMPRESSED_RED = 0x8225: Red [8, 0, 0, 0, 0, 0, 0, 0] Unorm false R8;
    GL_COMPRESSED_RG = 0x8226: Rg [8, 8, 0, 0, 0, 0, 0, 0] Unorm false RG8;
    GL_COMPRESSED_RGB = 0x84ED: Rgb [8, 8, 8, 0, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_RGBA = 0x84EE: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_ALPHA = 0x84E9: Alpha [0, 0, 0, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_LUMINANCE = 0x84EA: Luminance [0, 0, 0, 0, 8, 0, 0, 0] Unorm false R8;
    GL_COMPRESSED_LUMINANCE_ALPHA = 0x84EB: LuminanceAlpha [0, 0, 0, 8, 8, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_INTENSITY = 0x84EC: Intensity [0, 0, 0, 0, 0, 8, 0, 0] Unorm false R8;
    GL_COMPRESSED_SRGB = 0x8C48: Rgb [8, 8, 8, 0, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_COMPRESSED_SRGB_ALPHA = 0x8C49: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_RED_SNORM = 0x8F90: Red [8, 0, 0, 0, 0, 0, 0, 0] Snorm false R8S;
    GL_RG_SNORM = 0x8F91: Rg [8, 8, 0, 0, 0, 0, 0, 0] Snorm false RG8S;
    GL_RGB_SNORM = 0x8F92: Rgb [8, 8, 8, 0, 0, 0, 0, 0] Snorm false RGBA8S;
    GL_RGBA_SNORM = 0x8F93: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Snorm false RGBA8S;
    GL_ALPHA_SNORM = 0x9010: Alpha [0, 0, 0, 8, 0, 0, 0, 0] Snorm false RGBA8S;
    GL_LUMINANCE_SNORM = 0x9011: Luminance [0, 0, 0, 0, 8, 0, 0, 0] Snorm false R8S;
    GL_LUMINANCE_ALPHA_SNORM = 0x9012: LuminanceAlpha [0, 0, 0, 8, 8, 0, 0, 0] Snorm false RGBA8S;
    GL_INTENSITY_SNORM = 0x9013: Intensity [0, 0, 0, 0, 0, 8, 0, 0] Snorm false R8S;
    // 8- and 16-bit unsigned normalised.
    GL_R8_SIZED = 0x8229: Red [8, 0, 0, 0, 0, 0, 0, 0] Unorm false R8;
    GL_RG8_SIZED = 0x822B: Rg [8, 8, 0, 0, 0, 0, 0, 0] Unorm false RG8;
    GL_RGB8_SIZED = 0x8051: Rgb [8, 8, 8, 0, 0, 0, 0, 0] Unorm false RGBA8;
    GL_RGBA8_SIZED = 0x8058: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_R16 = 0x822A: Red [16, 0, 0, 0, 0, 0, 0, 0] Unorm false R16;
    GL_RG16 = 0x822C: Rg [16, 16, 0, 0, 0, 0, 0, 0] Unorm false RG16;
    GL_RGB16 = 0x8054: Rgb [16, 16, 16, 0, 0, 0, 0, 0] Unorm false RGBA16;
    GL_RGBA16 = 0x805B: Rgba [16, 16, 16, 16, 0, 0, 0, 0] Unorm false RGBA16;
    // Packed and sub-byte colour, stored wider.
    GL_R3_G3_B2 = 0x2A10: Rgb [3, 3, 2, 0, 0, 0, 0, 0] Unorm false RGBA8;
    GL_RGB4 = 0x804F: Rgb [4, 4, 4, 0, 0, 0, 0, 0] Unorm false RGBA8;
    GL_RGB5 = 0x8050: Rgb [5, 5, 5, 0, 0, 0, 0, 0] Unorm false RGBA8;
    GL_RGB565_SIZED = 0x8D62: Rgb [5, 6, 5, 0, 0, 0, 0, 0] Unorm false RGBA8;
    GL_RGB10 = 0x8052: Rgb [10, 10, 10, 0, 0, 0, 0, 0] Unorm false RGB10A2;
    GL_RGB12 = 0x8053: Rgb [12, 12, 12, 0, 0, 0, 0, 0] Unorm false RGBA16;
    GL_RGBA2 = 0x8055: Rgba [2, 2, 2, 2, 0, 0, 0, 0] Unorm false RGBA8;
    GL_RGBA4_SIZED = 0x8056: Rgba [4, 4, 4, 4, 0, 0, 0, 0] Unorm false RGBA8;
    GL_RGB5_A1_SIZED = 0x8057: Rgba [5, 5, 5, 1, 0, 0, 0, 0] Unorm false RGBA8;
    GL_RGB10_A2 = 0x8059: Rgba [10, 10, 10, 2, 0, 0, 0, 0] Unorm false RGB10A2;
    GL_RGBA12 = 0x805A: Rgba [12, 12, 12, 12, 0, 0, 0, 0] Unorm false RGBA16;
    GL_RGB10_A2UI = 0x906F: Rgba [10, 10, 10, 2, 0, 0, 0, 0] UInt false RGB10A2UI;
    // Legacy sized alpha / luminance / intensity.
    GL_ALPHA4 = 0x803B: Alpha [0, 0, 0, 4, 0, 0, 0, 0] Unorm false RGBA8;
    GL_ALPHA8 = 0x803C: Alpha [0, 0, 0, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_ALPHA12 = 0x803D: Alpha [0, 0, 0, 12, 0, 0, 0, 0] Unorm false RGBA16;
    GL_ALPHA16 = 0x803E: Alpha [0, 0, 0, 16, 0, 0, 0, 0] Unorm false RGBA16;
    GL_LUMINANCE4 = 0x803F: Luminance [0, 0, 0, 0, 4, 0, 0, 0] Unorm false R8;
    GL_LUMINANCE8 = 0x8040: Luminance [0, 0, 0, 0, 8, 0, 0, 0] Unorm false R8;
    GL_LUMINANCE12 = 0x8041: Luminance [0, 0, 0, 0, 12, 0, 0, 0] Unorm false R16;
    GL_LUMINANCE16 = 0x8042: Luminance [0, 0, 0, 0, 16, 0, 0, 0] Unorm false R16;
    GL_LUMINANCE4_ALPHA4 = 0x8043: LuminanceAlpha [0, 0, 0, 4, 4, 0, 0, 0] Unorm false RGBA8;
    GL_LUMINANCE6_ALPHA2 = 0x8044: LuminanceAlpha [0, 0, 0, 2, 6, 0, 0, 0] Unorm false RGBA8;
    GL_LUMINANCE8_ALPHA8 = 0x8045: LuminanceAlpha [0, 0, 0, 8, 8, 0, 0, 0] Unorm false RGBA8;
    GL_LUMINANCE12_ALPHA4 = 0x8046: LuminanceAlpha [0, 0, 0, 4, 12, 0, 0, 0] Unorm false RGBA16;
    GL_LUMINANCE12_ALPHA12 = 0x8047: LuminanceAlpha [0, 0, 0, 12, 12, 0, 0, 0] Unorm false RGBA16;
    GL_LUMINANCE16_ALPHA16 = 0x8048: LuminanceAlpha [0, 0, 0, 16, 16, 0, 0, 0] Unorm false RGBA16;
    GL_INTENSITY4 = 0x804A: Intensity [0, 0, 0, 0, 0, 4, 0, 0] Unorm false R8;
    GL_INTENSITY8 = 0x804B: Intensity [0, 0, 0, 0, 0, 8, 0, 0] Unorm false R8;
    GL_INTENSITY12 = 0x804C: Intensity [0, 0, 0, 0, 0, 12, 0, 0] Unorm false R16;
    GL_INTENSITY16 = 0x804D: Intensity [0, 0, 0, 0, 0, 16, 0, 0] Unorm false R16;
    // Signed normalised.
    GL_R8_SNORM = 0x8F94: Red [8, 0, 0, 0, 0, 0, 0, 0] Snorm false R8S;
    GL_RG8_SNORM = 0x8F95: Rg [8, 8, 0, 0, 0, 0, 0, 0] Snorm false RG8S;
    GL_RGB8_SNORM = 0x8F96: Rgb [8, 8, 8, 0, 0, 0, 0, 0] Snorm false RGBA8S;
    GL_RGBA8_SNORM = 0x8F97: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Snorm false RGBA8S;
    GL_R16_SNORM = 0x8F98: Red [16, 0, 0, 0, 0, 0, 0, 0] Snorm false R16S;
    GL_RG16_SNORM = 0x8F99: Rg [16, 16, 0, 0, 0, 0, 0, 0] Snorm false RG16S;
    GL_RGB16_SNORM = 0x8F9A: Rgb [16, 16, 16, 0, 0, 0, 0, 0] Snorm false RGBA16S;
    GL_RGBA16_SNORM = 0x8F9B: Rgba [16, 16, 16, 16, 0, 0, 0, 0] Snorm false RGBA16S;
    GL_ALPHA8_SNORM = 0x9014: Alpha [0, 0, 0, 8, 0, 0, 0, 0] Snorm false RGBA8S;
    GL_LUMINANCE8_SNORM = 0x9015: Luminance [0, 0, 0, 0, 8, 0, 0, 0] Snorm false R8S;
    GL_LUMINANCE8_ALPHA8_SNORM = 0x9016: LuminanceAlpha [0, 0, 0, 8, 8, 0, 0, 0] Snorm false RGBA8S;
    GL_INTENSITY8_SNORM = 0x9017: Intensity [0, 0, 0, 0, 0, 8, 0, 0] Snorm false R8S;
    GL_ALPHA16_SNORM = 0x9018: Alpha [0, 0, 0, 16, 0, 0, 0, 0] Snorm false RGBA16S;
    GL_LUMINANCE16_SNORM = 0x9019: Luminance [0, 0, 0, 0, 16, 0, 0, 0] Snorm false R16S;
    GL_LUMINANCE16_ALPHA16_SNORM = 0x901A: LuminanceAlpha [0, 0, 0, 16, 16, 0, 0, 0] Snorm false RGBA16S;
    GL_INTENSITY16_SNORM = 0x901B: Intensity [0, 0, 0, 0, 0, 16, 0, 0] Snorm false R16S;
    // Float.
    GL_R16F = 0x822D: Red [16, 0, 0, 0, 0, 0, 0, 0] Float false R16F;
    GL_RG16F = 0x822F: Rg [16, 16, 0, 0, 0, 0, 0, 0] Float false RG16F;
    GL_RGB16F = 0x881B: Rgb [16, 16, 16, 0, 0, 0, 0, 0] Float false RGBA16F;
    GL_RGBA16F = 0x881A: Rgba [16, 16, 16, 16, 0, 0, 0, 0] Float false RGBA16F;
    GL_R32F = 0x822E: Red [32, 0, 0, 0, 0, 0, 0, 0] Float false R32F;
    GL_RG32F = 0x8230: Rg [32, 32, 0, 0, 0, 0, 0, 0] Float false RG32F;
    GL_RGB32F = 0x8815: Rgb [32, 32, 32, 0, 0, 0, 0, 0] Float false RGBA32F;
    GL_RGBA32F = 0x8814: Rgba [32, 32, 32, 32, 0, 0, 0, 0] Float false RGBA32F;
    GL_R11F_G11F_B10F = 0x8C3A: Rgb [11, 11, 10, 0, 0, 0, 0, 0] Float false R11G11B10F;
    GL_RGB9_E5 = 0x8C3D: Rgb [9, 9, 9, 0, 0, 0, 0, 0] Float false RGB9E5;
    GL_ALPHA16F = 0x881C: Alpha [0, 0, 0, 16, 0, 0, 0, 0] Float false RGBA16F;
    GL_INTENSITY16F = 0x881D: Intensity [0, 0, 0, 0, 0, 16, 0, 0] Float false R16F;
    GL_LUMINANCE16F = 0x881E: Luminance [0, 0, 0, 0, 16, 0, 0, 0] Float false R16F;
    GL_LUMINANCE_ALPHA16F = 0x881F: LuminanceAlpha [0, 0, 0, 16, 16, 0, 0, 0] Float false RGBA16F;
    GL_ALPHA32F = 0x8816: Alpha [0, 0, 0, 32, 0, 0, 0, 0] Float false RGBA32F;
    GL_INTENSITY32F = 0x8817: Intensity [0, 0, 0, 0, 0, 32, 0, 0] Float false R32F;
    GL_LUMINANCE32F = 0x8818: Luminance [0, 0, 0, 0, 32, 0, 0, 0] Float false R32F;
    GL_LUMINANCE_ALPHA32F = 0x8819: LuminanceAlpha [0, 0, 0, 32, 32, 0, 0, 0] Float false RGBA32F;
    // Integer.
    GL_R8I = 0x8231: Red [8, 0, 0, 0, 0, 0, 0, 0] Int false R8I;
    GL_R8UI = 0x8232: Red [8, 0, 0, 0, 0, 0, 0, 0] UInt false R8UI;
    GL_R16I = 0x8233: Red [16, 0, 0, 0, 0, 0, 0, 0] Int false R16I;
    GL_R16UI = 0x8234: Red [16, 0, 0, 0, 0, 0, 0, 0] UInt false R16UI;
    GL_R32I = 0x8235: Red [32, 0, 0, 0, 0, 0, 0, 0] Int false R32I;
    GL_R32UI = 0x8236: Red [32, 0, 0, 0, 0, 0, 0, 0] UInt false R32UI;
    GL_RG8I = 0x8237: Rg [8, 8, 0, 0, 0, 0, 0, 0] Int false RG8I;
    GL_RG8UI = 0x8238: Rg [8, 8, 0, 0, 0, 0, 0, 0] UInt false RG8UI;
    GL_RG16I = 0x8239: Rg [16, 16, 0, 0, 0, 0, 0, 0] Int false RG16I;
    GL_RG16UI = 0x823A: Rg [16, 16, 0, 0, 0, 0, 0, 0] UInt false RG16UI;
    GL_RG32I = 0x823B: Rg [32, 32, 0, 0, 0, 0, 0, 0] Int false RG32I;
    GL_RG32UI = 0x823C: Rg [32, 32, 0, 0, 0, 0, 0, 0] UInt false RG32UI;
    GL_RGB8I = 0x8D8F: Rgb [8, 8, 8, 0, 0, 0, 0, 0] Int false RGBA8I;
    GL_RGB8UI = 0x8D7D: Rgb [8, 8, 8, 0, 0, 0, 0, 0] UInt false RGBA8UI;
    GL_RGB16I = 0x8D89: Rgb [16, 16, 16, 0, 0, 0, 0, 0] Int false RGBA16I;
    GL_RGB16UI = 0x8D77: Rgb [16, 16, 16, 0, 0, 0, 0, 0] UInt false RGBA16UI;
    GL_RGB32I = 0x8D83: Rgb [32, 32, 32, 0, 0, 0, 0, 0] Int false RGBA32I;
    GL_RGB32UI = 0x8D71: Rgb [32, 32, 32, 0, 0, 0, 0, 0] UInt false RGBA32UI;
    GL_RGBA8I = 0x8D8E: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Int false RGBA8I;
    GL_RGBA8UI = 0x8D7C: Rgba [8, 8, 8, 8, 0, 0, 0, 0] UInt false RGBA8UI;
    GL_RGBA16I = 0x8D88: Rgba [16, 16, 16, 16, 0, 0, 0, 0] Int false RGBA16I;
    GL_RGBA16UI = 0x8D76: Rgba [16, 16, 16, 16, 0, 0, 0, 0] UInt false RGBA16UI;
    GL_RGBA32I = 0x8D82: Rgba [32, 32, 32, 32, 0, 0, 0, 0] Int false RGBA32I;
    GL_RGBA32UI = 0x8D70: Rgba [32, 32, 32, 32, 0, 0, 0, 0] UInt false RGBA32UI;
    GL_ALPHA8I = 0x8D90: Alpha [0, 0, 0, 8, 0, 0, 0, 0] Int false RGBA8I;
    GL_ALPHA8UI = 0x8D7E: Alpha [0, 0, 0, 8, 0, 0, 0, 0] UInt false RGBA8UI;
    GL_ALPHA16I = 0x8D8A: Alpha [0, 0, 0, 16, 0, 0, 0, 0] Int false RGBA16I;
    GL_ALPHA16UI = 0x8D78: Alpha [0, 0, 0, 16, 0, 0, 0, 0] UInt false RGBA16UI;
    GL_ALPHA32I = 0x8D84: Alpha [0, 0, 0, 32, 0, 0, 0, 0] Int false RGBA32I;
    GL_ALPHA32UI = 0x8D72: Alpha [0, 0, 0, 32, 0, 0, 0, 0] UInt false RGBA32UI;
    GL_LUMINANCE8I = 0x8D92: Luminance [0, 0, 0, 0, 8, 0, 0, 0] Int false R8I;
    GL_LUMINANCE8UI = 0x8D80: Luminance [0, 0, 0, 0, 8, 0, 0, 0] UInt false R8UI;
    GL_LUMINANCE16I = 0x8D8C: Luminance [0, 0, 0, 0, 16, 0, 0, 0] Int false R16I;
    GL_LUMINANCE16UI = 0x8D7A: Luminance [0, 0, 0, 0, 16, 0, 0, 0] UInt false R16UI;
    GL_LUMINANCE32I = 0x8D86: Luminance [0, 0, 0, 0, 32, 0, 0, 0] Int false R32I;
    GL_LUMINANCE32UI = 0x8D74: Luminance [0, 0, 0, 0, 32, 0, 0, 0] UInt false R32UI;
    GL_LUMINANCE_ALPHA8I = 0x8D93: LuminanceAlpha [0, 0, 0, 8, 8, 0, 0, 0] Int false RGBA8I;
    GL_LUMINANCE_ALPHA8UI = 0x8D81: LuminanceAlpha [0, 0, 0, 8, 8, 0, 0, 0] UInt false RGBA8UI;
    GL_LUMINANCE_ALPHA16I = 0x8D8D: LuminanceAlpha [0, 0, 0, 16, 16, 0, 0, 0] Int false RGBA16I;
    GL_LUMINANCE_ALPHA16UI = 0x8D7B: LuminanceAlpha [0, 0, 0, 16, 16, 0, 0, 0] UInt false RGBA16UI;
    GL_LUMINANCE_ALPHA32I = 0x8D87: LuminanceAlpha [0, 0, 0, 32, 32, 0, 0, 0] Int false RGBA32I;
    GL_LUMINANCE_ALPHA32UI = 0x8D75: LuminanceAlpha [0, 0, 0, 32, 32, 0, 0, 0] UInt false RGBA32UI;
    GL_INTENSITY8I = 0x8D91: Intensity [0, 0, 0, 0, 0, 8, 0, 0] Int false R8I;
    GL_INTENSITY8UI = 0x8D7F: Intensity [0, 0, 0, 0, 0, 8, 0, 0] UInt false R8UI;
    GL_INTENSITY16I = 0x8D8B: Intensity [0, 0, 0, 0, 0, 16, 0, 0] Int false R16I;
    GL_INTENSITY16UI = 0x8D79: Intensity [0, 0, 0, 0, 0, 16, 0, 0] UInt false R16UI;
    GL_INTENSITY32I = 0x8D85: Intensity [0, 0, 0, 0, 0, 32, 0, 0] Int false R32I;
    GL_INTENSITY32UI = 0x8D73: Intensity [0, 0, 0, 0, 0, 32, 0, 0] UInt false R32UI;
    // sRGB.
    GL_SRGB_UNSIZED = 0x8C40: Rgb [8, 8, 8, 0, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_SRGB8_SIZED = 0x8C41: Rgb [8, 8, 8, 0, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_SRGB_ALPHA_UNSIZED = 0x8C42: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_SRGB8_ALPHA8_SIZED = 0x8C43: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_SLUMINANCE_ALPHA = 0x8C44: LuminanceAlpha [0, 0, 0, 8, 8, 0, 0, 0] Unorm true SRGBA8;
    GL_SLUMINANCE8_ALPHA8 = 0x8C45: LuminanceAlpha [0, 0, 0, 8, 8, 0, 0, 0] Unorm true SRGBA8;
    GL_SLUMINANCE = 0x8C46: Luminance [0, 0, 0, 0, 8, 0, 0, 0] Unorm true SR8;
    GL_SLUMINANCE8 = 0x8C47: Luminance [0, 0, 0, 0, 8, 0, 0, 0] Unorm true SR8;
    // Depth and stencil.
    GL_DEPTH_COMPONENT_UNSIZED = 0x1902: Depth [0, 0, 0, 0, 0, 0, 24, 0] Unorm false DEPTH;
    GL_DEPTH_COMPONENT16_SIZED = 0x81A5: Depth [0, 0, 0, 0, 0, 0, 16, 0] Unorm false DEPTH;
    GL_DEPTH_COMPONENT24_SIZED = 0x81A6: Depth [0, 0, 0, 0, 0, 0, 24, 0] Unorm false DEPTH;
    GL_DEPTH_COMPONENT32 = 0x81A7: Depth [0, 0, 0, 0, 0, 0, 32, 0] Unorm false DEPTH;
    GL_DEPTH_COMPONENT32F_SIZED = 0x8CAC: Depth [0, 0, 0, 0, 0, 0, 32, 0] Float false DEPTH32F;
    GL_DEPTH_STENCIL_UNSIZED = 0x84F9: DepthStencil [0, 0, 0, 0, 0, 0, 24, 8] Unorm false DEPTH;
    GL_DEPTH24_STENCIL8_SIZED = 0x88F0: DepthStencil [0, 0, 0, 0, 0, 0, 24, 8] Unorm false DEPTH;
    GL_DEPTH32F_STENCIL8_SIZED = 0x8CAD: DepthStencil [0, 0, 0, 0, 0, 0, 32, 8] Float false DEPTH32F;
    GL_STENCIL_INDEX8_SIZED = 0x8D48: Stencil [0, 0, 0, 0, 0, 0, 0, 8] UInt false DEPTH;
    // Compressed (decompressed on upload; see [`codec`]).
    GL_COMPRESSED_RGB_S3TC_DXT1 = 0x83F0: Rgb [8, 8, 8, 0, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_RGBA_S3TC_DXT1 = 0x83F1: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_RGBA_S3TC_DXT3 = 0x83F2: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_RGBA_S3TC_DXT5 = 0x83F3: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_SRGB_S3TC_DXT1 = 0x8C4C: Rgb [8, 8, 8, 0, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT1 = 0x8C4D: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT3 = 0x8C4E: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_COMPRESSED_SRGB_ALPHA_S3TC_DXT5 = 0x8C4F: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_COMPRESSED_RED_RGTC1 = 0x8DBB: Red [8, 0, 0, 0, 0, 0, 0, 0] Unorm false R8;
    GL_COMPRESSED_SIGNED_RED_RGTC1 = 0x8DBC: Red [8, 0, 0, 0, 0, 0, 0, 0] Snorm false R8S;
    GL_COMPRESSED_RG_RGTC2 = 0x8DBD: Rg [8, 8, 0, 0, 0, 0, 0, 0] Unorm false RG8;
    GL_COMPRESSED_SIGNED_RG_RGTC2 = 0x8DBE: Rg [8, 8, 0, 0, 0, 0, 0, 0] Snorm false RG8S;
    GL_COMPRESSED_RGB8_ETC2 = 0x9274: Rgb [8, 8, 8, 0, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_SRGB8_ETC2 = 0x9275: Rgb [8, 8, 8, 0, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2 = 0x9276: Rgba [8, 8, 8, 1, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2 = 0x9277: Rgba [8, 8, 8, 1, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_COMPRESSED_RGBA8_ETC2_EAC = 0x9278: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC = 0x9279: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_COMPRESSED_R11_EAC = 0x9270: Red [11, 0, 0, 0, 0, 0, 0, 0] Unorm false R16;
    GL_COMPRESSED_SIGNED_R11_EAC = 0x9271: Red [11, 0, 0, 0, 0, 0, 0, 0] Snorm false R16S;
    GL_COMPRESSED_RG11_EAC = 0x9272: Rg [11, 11, 0, 0, 0, 0, 0, 0] Unorm false RG16;
    GL_COMPRESSED_SIGNED_RG11_EAC = 0x9273: Rg [11, 11, 0, 0, 0, 0, 0, 0] Snorm false RG16S;
    GL_COMPRESSED_RGBA_BPTC_UNORM = 0x8E8C: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_SRGB_ALPHA_BPTC_UNORM = 0x8E8D: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_COMPRESSED_RGB_BPTC_SIGNED_FLOAT = 0x8E8E: Rgb [16, 16, 16, 0, 0, 0, 0, 0] Float false RGBA16F;
    GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT = 0x8E8F: Rgb [16, 16, 16, 0, 0, 0, 0, 0] Float false RGBA16F;
    // ASTC LDR (GL_KHR_texture_compression_astc_ldr; decoded on upload like the rest).
    GL_COMPRESSED_RGBA_ASTC_4X4 = 0x93B0: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_RGBA_ASTC_5X4 = 0x93B1: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_RGBA_ASTC_5X5 = 0x93B2: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_RGBA_ASTC_6X5 = 0x93B3: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_RGBA_ASTC_6X6 = 0x93B4: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_RGBA_ASTC_8X5 = 0x93B5: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_RGBA_ASTC_8X6 = 0x93B6: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_RGBA_ASTC_8X8 = 0x93B7: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_RGBA_ASTC_10X5 = 0x93B8: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_RGBA_ASTC_10X6 = 0x93B9: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_RGBA_ASTC_10X8 = 0x93BA: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_RGBA_ASTC_10X10 = 0x93BB: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_RGBA_ASTC_12X10 = 0x93BC: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_RGBA_ASTC_12X12 = 0x93BD: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm false RGBA8;
    GL_COMPRESSED_SRGB8_ALPHA8_ASTC_4X4 = 0x93D0: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_COMPRESSED_SRGB8_ALPHA8_ASTC_5X4 = 0x93D1: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_COMPRESSED_SRGB8_ALPHA8_ASTC_5X5 = 0x93D2: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_COMPRESSED_SRGB8_ALPHA8_ASTC_6X5 = 0x93D3: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_COMPRESSED_SRGB8_ALPHA8_ASTC_6X6 = 0x93D4: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_COMPRESSED_SRGB8_ALPHA8_ASTC_8X5 = 0x93D5: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_COMPRESSED_SRGB8_ALPHA8_ASTC_8X6 = 0x93D6: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_COMPRESSED_SRGB8_ALPHA8_ASTC_8X8 = 0x93D7: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_COMPRESSED_SRGB8_ALPHA8_ASTC_10X5 = 0x93D8: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_COMPRESSED_SRGB8_ALPHA8_ASTC_10X6 = 0x93D9: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_COMPRESSED_SRGB8_ALPHA8_ASTC_10X8 = 0x93DA: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_COMPRESSED_SRGB8_ALPHA8_ASTC_10X10 = 0x93DB: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_COMPRESSED_SRGB8_ALPHA8_ASTC_12X10 = 0x93DC: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm true SRGBA8;
    GL_COMPRESSED_SRGB8_ALPHA8_ASTC_12X12 = 0x93DD: Rgba [8, 8, 8, 8, 0, 0, 0, 0] Unorm true SRGBA8;
}

/// The block compression of a specific compressed internal format (`None` for the rest,
/// including the generic `GL_COMPRESSED_*` names, which this GL stores uncompressed).
pub(crate) fn codec(internal: GLenum) -> Option<Codec> {
    Some(match internal {
        0x83F0 | 0x8C4C => Codec::Bc1 { alpha: false },
        0x83F1 | 0x8C4D => Codec::Bc1 { alpha: true },
        0x83F2 | 0x8C4E => Codec::Bc2,
        0x83F3 | 0x8C4F => Codec::Bc3,
        0x8DBB => Codec::Bc4 { signed: false },
        0x8DBC => Codec::Bc4 { signed: true },
        0x8DBD => Codec::Bc5 { signed: false },
        0x8DBE => Codec::Bc5 { signed: true },
        0x9274 | 0x9275 => Codec::Etc2Rgb,
        0x9276 | 0x9277 => Codec::Etc2RgbA1,
        0x9278 | 0x9279 => Codec::Etc2Rgba,
        0x9270 => Codec::EacR11 { signed: false },
        0x9271 => Codec::EacR11 { signed: true },
        0x9272 => Codec::EacRg11 { signed: false },
        0x9273 => Codec::EacRg11 { signed: true },
        0x8E8C | 0x8E8D => Codec::Bc7,
        0x8E8E => Codec::Bc6h { signed: true },
        0x8E8F => Codec::Bc6h { signed: false },
        0x93B0..=0x93BD | 0x93D0..=0x93DD => astc_codec(internal & 0xF)?,
        _ => return None,
    })
}

/// Whether `internal` takes its texels only as blocks: ASTC, which GL never compresses online
/// (KHR_texture_compression_astc_ldr: not a `glTexImage*` format, and `glTexSubImage*`,
/// `glCopyTex(Sub)Image*` and `glGenerateMipmap` on it are `GL_INVALID_OPERATION`).
pub(crate) fn blocks_only(internal: GLenum) -> bool {
    matches!(internal, 0x93B0..=0x93BD | 0x93D0..=0x93DD)
}

/// `GL_INVALID_OPERATION` from `call` on a [`blocks_only`] format.
pub(crate) fn refuse_texels(
    internal: GLenum,
    call: &str,
) -> crate::gl::context::error::GlResult<()> {
    if blocks_only(internal) {
        return crate::gl::context::error::invalid_op(format!(
            "{call}: 0x{internal:04X} takes compressed blocks only"
        ));
    }
    Ok(())
}

/// The ASTC LDR codec of footprint `index` (0: 4×4 … 13: 12×12, the order of the GL names).
fn astc_codec(index: GLenum) -> Option<Codec> {
    let [width, height] = *arenagl_staging::compressed::ASTC_FOOTPRINTS.get(index as usize)?;
    Some(Codec::Astc { width, height })
}

/// The storage format for `info` on this device: the first candidate with the features GL
/// needs (sampled, transfers, and an attachment where GL renders to it), else the first one
/// that can at least be sampled. Depth rows resolve `UNDEFINED` to `depth_stencil` (the
/// device's depth/stencil format). `features` answers a format's optimal-tiling features.
pub(crate) fn choose(
    info: &FormatInfo,
    depth_stencil: vk::Format,
    features: impl Fn(vk::Format) -> vk::FormatFeatureFlags,
) -> Option<(vk::Format, bool)> {
    let resolve = |f: vk::Format| {
        if f == vk::Format::UNDEFINED {
            depth_stencil
        } else {
            f
        }
    };
    let base = vk::FormatFeatureFlags::TRANSFER_SRC | vk::FormatFeatureFlags::TRANSFER_DST;
    let attachment = if info.is_depth_stencil() {
        vk::FormatFeatureFlags::DEPTH_STENCIL_ATTACHMENT
    } else {
        vk::FormatFeatureFlags::COLOR_ATTACHMENT
    };
    let sampled = if info.base == Base::Stencil {
        vk::FormatFeatureFlags::empty()
    } else {
        vk::FormatFeatureFlags::SAMPLED_IMAGE
    };
    let candidates = || info.candidates.iter().map(|&f| resolve(f));
    if info.renderable() {
        if let Some(f) = candidates().find(|&f| features(f).contains(base | sampled | attachment)) {
            return Some((f, true));
        }
    }
    candidates()
        .find(|&f| features(f).contains(base | sampled))
        .map(|f| (f, features(f).contains(attachment)))
}

/// How staging's general path writes texels of a storage format; `None` for depth/stencil and
/// compressed formats.
pub(crate) fn texel_format(format: vk::Format) -> Option<TexelFormat> {
    use TexelKind::{Float, SInt, Snorm, UInt, Unorm};
    let a = |comps, bytes, kind| TexelFormat::Array { comps, bytes, kind };
    Some(match format {
        F::R8_UNORM | F::R8_SRGB => a(1, 1, Unorm),
        F::R8G8_UNORM | F::R8G8_SRGB => a(2, 1, Unorm),
        F::R8G8B8A8_UNORM | F::R8G8B8A8_SRGB => a(4, 1, Unorm),
        F::B8G8R8A8_UNORM | F::B8G8R8A8_SRGB => TexelFormat::Bgra8Unorm,
        F::R8_SNORM => a(1, 1, Snorm),
        F::R8G8_SNORM => a(2, 1, Snorm),
        F::R8G8B8A8_SNORM => a(4, 1, Snorm),
        F::R8_UINT => a(1, 1, UInt),
        F::R8G8_UINT => a(2, 1, UInt),
        F::R8G8B8A8_UINT => a(4, 1, UInt),
        F::R8_SINT => a(1, 1, SInt),
        F::R8G8_SINT => a(2, 1, SInt),
        F::R8G8B8A8_SINT => a(4, 1, SInt),
        F::R16_UNORM => a(1, 2, Unorm),
        F::R16G16_UNORM => a(2, 2, Unorm),
        F::R16G16B16A16_UNORM => a(4, 2, Unorm),
        F::R16_SNORM => a(1, 2, Snorm),
        F::R16G16_SNORM => a(2, 2, Snorm),
        F::R16G16B16A16_SNORM => a(4, 2, Snorm),
        F::R16_SFLOAT => a(1, 2, Float),
        F::R16G16_SFLOAT => a(2, 2, Float),
        F::R16G16B16A16_SFLOAT => a(4, 2, Float),
        F::R16_UINT => a(1, 2, UInt),
        F::R16G16_UINT => a(2, 2, UInt),
        F::R16G16B16A16_UINT => a(4, 2, UInt),
        F::R16_SINT => a(1, 2, SInt),
        F::R16G16_SINT => a(2, 2, SInt),
        F::R16G16B16A16_SINT => a(4, 2, SInt),
        F::R32_SFLOAT => a(1, 4, Float),
        F::R32G32_SFLOAT => a(2, 4, Float),
        F::R32G32B32_SFLOAT => a(3, 4, Float),
        F::R32G32B32A32_SFLOAT => a(4, 4, Float),
        F::R32_UINT => a(1, 4, UInt),
        F::R32G32_UINT => a(2, 4, UInt),
        F::R32G32B32_UINT => a(3, 4, UInt),
        F::R32G32B32A32_UINT => a(4, 4, UInt),
        F::R32_SINT => a(1, 4, SInt),
        F::R32G32_SINT => a(2, 4, SInt),
        F::R32G32B32_SINT => a(3, 4, SInt),
        F::R32G32B32A32_SINT => a(4, 4, SInt),
        F::A2B10G10R10_UNORM_PACK32 => TexelFormat::Rgb10A2 { integer: false },
        F::A2B10G10R10_UINT_PACK32 => TexelFormat::Rgb10A2 { integer: true },
        F::B10G11R11_UFLOAT_PACK32 => TexelFormat::Rg11B10Float,
        F::E5B9G9R9_UFLOAT_PACK32 => TexelFormat::Rgb9E5,
        _ => return None,
    })
}

/// Whether `format` has a stencil aspect.
pub(crate) fn has_stencil(format: vk::Format) -> bool {
    matches!(
        format,
        vk::Format::D24_UNORM_S8_UINT
            | vk::Format::D32_SFLOAT_S8_UINT
            | vk::Format::D16_UNORM_S8_UINT
            | vk::Format::S8_UINT
    )
}

/// Whether `format` has a depth aspect (with or without stencil).
pub(crate) fn is_depth_format(format: vk::Format) -> bool {
    matches!(
        format,
        vk::Format::D24_UNORM_S8_UINT
            | vk::Format::D32_SFLOAT_S8_UINT
            | vk::Format::D16_UNORM_S8_UINT
            | vk::Format::D16_UNORM
            | vk::Format::D32_SFLOAT
            | vk::Format::X8_D24_UNORM_PACK32
    )
}

/// Whether `f` holds unnormalized integers.
pub(crate) fn is_integer_format(f: vk::Format) -> bool {
    let name = format!("{f:?}");
    let depth_stencil = is_depth_format(f) || f == vk::Format::S8_UINT;
    !depth_stencil && (name.ends_with("_UINT") || name.ends_with("_SINT"))
}

/// Bits of red, green, blue, alpha, depth and stencil in a renderbuffer's Vulkan format (what
/// `GL_RENDERBUFFER_*_SIZE` report; sizes of the stored format, which may be wider than asked).
pub(crate) fn channel_bits(f: vk::Format) -> [u8; 6] {
    use vk::Format as F;
    match f {
        F::R8_UNORM => [8, 0, 0, 0, 0, 0],
        F::R8G8_UNORM => [8, 8, 0, 0, 0, 0],
        F::R8G8B8A8_UNORM | F::R8G8B8A8_SRGB | F::B8G8R8A8_UNORM => [8, 8, 8, 8, 0, 0],
        F::R8G8B8A8_SINT | F::R8G8B8A8_UINT => [8, 8, 8, 8, 0, 0],
        F::R8_SINT | F::R8_UINT => [8, 0, 0, 0, 0, 0],
        F::R8G8_SINT | F::R8G8_UINT => [8, 8, 0, 0, 0, 0],
        F::R16_UNORM | F::R16_SFLOAT | F::R16_SINT | F::R16_UINT => [16, 0, 0, 0, 0, 0],
        F::R16G16_UNORM | F::R16G16_SFLOAT | F::R16G16_SINT | F::R16G16_UINT => {
            [16, 16, 0, 0, 0, 0]
        }
        F::R16G16B16A16_UNORM
        | F::R16G16B16A16_SFLOAT
        | F::R16G16B16A16_SINT
        | F::R16G16B16A16_UINT => [16, 16, 16, 16, 0, 0],
        F::R32_SFLOAT | F::R32_SINT | F::R32_UINT => [32, 0, 0, 0, 0, 0],
        F::R32G32_SFLOAT | F::R32G32_SINT | F::R32G32_UINT => [32, 32, 0, 0, 0, 0],
        F::R32G32B32A32_SFLOAT | F::R32G32B32A32_SINT | F::R32G32B32A32_UINT => {
            [32, 32, 32, 32, 0, 0]
        }
        F::A2B10G10R10_UNORM_PACK32 | F::A2B10G10R10_UINT_PACK32 => [10, 10, 10, 2, 0, 0],
        F::B10G11R11_UFLOAT_PACK32 => [11, 11, 10, 0, 0, 0],
        F::D16_UNORM => [0, 0, 0, 0, 16, 0],
        F::D16_UNORM_S8_UINT => [0, 0, 0, 0, 16, 8],
        F::X8_D24_UNORM_PACK32 => [0, 0, 0, 0, 24, 0],
        F::D24_UNORM_S8_UINT => [0, 0, 0, 0, 24, 8],
        F::D32_SFLOAT => [0, 0, 0, 0, 32, 0],
        F::D32_SFLOAT_S8_UINT => [0, 0, 0, 0, 32, 8],
        F::S8_UINT => [0, 0, 0, 0, 0, 8],
        _ => [0; 6],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_consistent() {
        for &name in ALL {
            let info = lookup(name).unwrap_or_else(|| panic!("{name:#x}"));
            assert!(!info.candidates.is_empty(), "{name:#x}");
            let [r, g, b, a, l, i, d, s] = info.bits.map(|v| v > 0);
            let expect = match info.base {
                Base::Red => [r, !g, !b, !a, !l, !i],
                Base::Rg => [r, g, !b, !a, !l, !i],
                Base::Rgb => [r, g, b, !a, !l, !i],
                Base::Rgba => [r, g, b, a, !l, !i],
                Base::Alpha => [!r, !g, !b, a, !l, !i],
                Base::Luminance => [!r, !g, !b, !a, l, !i],
                Base::LuminanceAlpha => [!r, !g, !b, a, l, !i],
                Base::Intensity => [!r, !g, !b, !a, !l, i],
                Base::Depth => [d, !s, true, true, true, true],
                Base::DepthStencil => [d, s, true, true, true, true],
                Base::Stencil => [!d, s, true, true, true, true],
            };
            assert!(expect.iter().all(|&ok| ok), "{name:#x}: {:?}", info.bits);
            let srgb_storage = matches!(
                info.candidates[0],
                vk::Format::R8G8B8A8_SRGB | vk::Format::R8_SRGB
            );
            assert_eq!(info.srgb, srgb_storage, "{name:#x}");
        }
    }

    #[test]
    fn choose_falls_back_to_a_wider_renderable_format() {
        let info = lookup(GL_R16).unwrap_or_else(|| panic!("R16"));
        let sampled = vk::FormatFeatureFlags::SAMPLED_IMAGE
            | vk::FormatFeatureFlags::TRANSFER_SRC
            | vk::FormatFeatureFlags::TRANSFER_DST;
        let all = sampled | vk::FormatFeatureFlags::COLOR_ATTACHMENT;
        // No R16: RGBA16 is used.
        let got = choose(&info, vk::Format::D24_UNORM_S8_UINT, |f| {
            if f == vk::Format::R16_UNORM {
                vk::FormatFeatureFlags::empty()
            } else {
                all
            }
        });
        assert_eq!(got, Some((vk::Format::R16G16B16A16_UNORM, true)));
        // Only sampling anywhere: the first candidate, not renderable.
        let got = choose(&info, vk::Format::D24_UNORM_S8_UINT, |_| sampled);
        assert_eq!(got, Some((vk::Format::R16_UNORM, false)));
        let depth = lookup(GL_DEPTH_COMPONENT24_SIZED).unwrap_or_else(|| panic!("depth"));
        let got = choose(&depth, vk::Format::D24_UNORM_S8_UINT, |_| {
            all | vk::FormatFeatureFlags::DEPTH_STENCIL_ATTACHMENT
        });
        assert_eq!(got, Some((vk::Format::D24_UNORM_S8_UINT, true)));
    }

    #[test]
    fn legacy_formats_swizzle_to_gl_semantics() {
        let sw = |name| {
            lookup(name)
                .map(|i| i.swizzle(i.candidates[0]))
                .unwrap_or_default()
        };
        assert_eq!(sw(GL_LUMINANCE8), [0x1903, 0x1903, 0x1903, 1]);
        assert_eq!(sw(GL_INTENSITY8), [0x1903; 4]);
        assert_eq!(sw(GL_ALPHA8), [0, 0, 0, 0x1906]);
        assert_eq!(sw(GL_LUMINANCE8_ALPHA8), [0x1903, 0x1903, 0x1903, 0x1906]);
        assert_eq!(sw(GL_RGB8_SIZED), [0x1903, 0x1904, 0x1905, 1]);
    }
}
