//! Client pixel formats (GL format + type) and the device formats staging converts into.
//!
//! Design decisions:
//! - Small closed enums instead of raw GL enums: [`ClientFormat::from_gl`] is the one place
//!   where a `(format, type)` pair is mapped, and it answers `None` for pairs staging does not
//!   convert (the translator raises `GL_INVALID_ENUM`/`GL_INVALID_OPERATION` there).
//! - Only 8-bit-per-channel colour data for now: `GL_UNSIGNED_BYTE` with every colour format,
//!   plus the packed `GL_UNSIGNED_INT_8_8_8_8(_REV)` types with `GL_RGBA`/`GL_BGRA` (the classic
//!   fast BGRA upload path of older LWJGL titles).
//! - Every format is described by which colour channel each byte of a pixel holds
//!   ([`Channel`]); conversion in `convert.rs` is derived from these tables, never written per
//!   pair. Packed types are read in host byte order (client memory is host memory), and
//!   `GL_*_SWAP_BYTES` reverses the four bytes of the packed element.
//! - Formats beyond these tables (float, integer, 16-bit, packed) are converted by
//!   [`crate::pixel`] into device texels first and then handed over as
//!   [`ClientFormat::Texels`] → [`DeviceFormat::Texels`], which staging only copies (honouring
//!   the unpack/pack layout).
//! - Device formats are the Vulkan formats staging writes: RGBA8, BGRA8, RGB8 (where the device
//!   supports it), RG8, R8 (UNORM or SRGB: the bytes are the same). Legacy luminance/alpha
//!   textures may be stored either as RGBA8 (converted here) or, to save memory, as R8/RG8 with a
//!   view swizzle — in that case the translator uploads them as [`ClientFormat::Red`] /
//!   [`ClientFormat::Rg`] passthrough.

/// GL enum values used by [`ClientFormat::from_gl`].
pub mod gl {
    /// `GL_RED`.
    pub const RED: u32 = 0x1903;
    /// `GL_RG`.
    pub const RG: u32 = 0x8227;
    /// `GL_RGB`.
    pub const RGB: u32 = 0x1907;
    /// `GL_BGR`.
    pub const BGR: u32 = 0x80E0;
    /// `GL_RGBA`.
    pub const RGBA: u32 = 0x1908;
    /// `GL_BGRA`.
    pub const BGRA: u32 = 0x80E1;
    /// `GL_ALPHA` (compatibility profile).
    pub const ALPHA: u32 = 0x1906;
    /// `GL_LUMINANCE` (compatibility profile).
    pub const LUMINANCE: u32 = 0x1909;
    /// `GL_LUMINANCE_ALPHA` (compatibility profile).
    pub const LUMINANCE_ALPHA: u32 = 0x190A;
    /// `GL_UNSIGNED_BYTE`.
    pub const UNSIGNED_BYTE: u32 = 0x1401;
    /// `GL_UNSIGNED_INT_8_8_8_8`.
    pub const UNSIGNED_INT_8_8_8_8: u32 = 0x8035;
    /// `GL_UNSIGNED_INT_8_8_8_8_REV`.
    pub const UNSIGNED_INT_8_8_8_8_REV: u32 = 0x8367;
}

/// What one byte of a pixel holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Channel {
    /// Red.
    R,
    /// Green.
    G,
    /// Blue.
    B,
    /// Alpha.
    A,
    /// Luminance: unpacks to R = G = B = L; packs per [`crate::LuminanceRule`].
    L,
}

/// A client pixel format: a GL `(format, type)` pair staging knows how to convert.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClientFormat {
    /// `GL_RED`, `GL_UNSIGNED_BYTE`.
    Red,
    /// `GL_RG`, `GL_UNSIGNED_BYTE`.
    Rg,
    /// `GL_RGB`, `GL_UNSIGNED_BYTE`.
    Rgb,
    /// `GL_BGR`, `GL_UNSIGNED_BYTE`.
    Bgr,
    /// `GL_RGBA`, `GL_UNSIGNED_BYTE`.
    Rgba,
    /// `GL_BGRA`, `GL_UNSIGNED_BYTE`.
    Bgra,
    /// `GL_RGBA`, `GL_UNSIGNED_INT_8_8_8_8` (R in the most significant byte).
    RgbaPacked8888,
    /// `GL_RGBA`, `GL_UNSIGNED_INT_8_8_8_8_REV` (R in the least significant byte).
    RgbaPacked8888Rev,
    /// `GL_BGRA`, `GL_UNSIGNED_INT_8_8_8_8` (B in the most significant byte).
    BgraPacked8888,
    /// `GL_BGRA`, `GL_UNSIGNED_INT_8_8_8_8_REV` (B in the least significant byte).
    BgraPacked8888Rev,
    /// `GL_LUMINANCE`, `GL_UNSIGNED_BYTE`.
    Luminance,
    /// `GL_ALPHA`, `GL_UNSIGNED_BYTE`.
    Alpha,
    /// `GL_LUMINANCE_ALPHA`, `GL_UNSIGNED_BYTE`.
    LuminanceAlpha,
    /// Texels already in the device format, this many bytes each (1 to 16): what the general
    /// conversion path ([`crate::pixel`]) produces for formats the byte tables do not cover
    /// (float, integer, 16-bit and packed formats). Copied unchanged, never byte-swapped.
    Texels(u8),
}

impl ClientFormat {
    /// Every client format (for exhaustive tests and tables).
    pub const ALL: [ClientFormat; 13] = [
        Self::Red,
        Self::Rg,
        Self::Rgb,
        Self::Bgr,
        Self::Rgba,
        Self::Bgra,
        Self::RgbaPacked8888,
        Self::RgbaPacked8888Rev,
        Self::BgraPacked8888,
        Self::BgraPacked8888Rev,
        Self::Luminance,
        Self::Alpha,
        Self::LuminanceAlpha,
    ];

    /// Maps a GL `(format, type)` pair; `None` for pairs staging does not convert.
    pub fn from_gl(format: u32, ty: u32) -> Option<Self> {
        Some(match (format, ty) {
            (gl::RED, gl::UNSIGNED_BYTE) => Self::Red,
            (gl::RG, gl::UNSIGNED_BYTE) => Self::Rg,
            (gl::RGB, gl::UNSIGNED_BYTE) => Self::Rgb,
            (gl::BGR, gl::UNSIGNED_BYTE) => Self::Bgr,
            (gl::RGBA, gl::UNSIGNED_BYTE) => Self::Rgba,
            (gl::BGRA, gl::UNSIGNED_BYTE) => Self::Bgra,
            (gl::RGBA, gl::UNSIGNED_INT_8_8_8_8) => Self::RgbaPacked8888,
            (gl::RGBA, gl::UNSIGNED_INT_8_8_8_8_REV) => Self::RgbaPacked8888Rev,
            (gl::BGRA, gl::UNSIGNED_INT_8_8_8_8) => Self::BgraPacked8888,
            (gl::BGRA, gl::UNSIGNED_INT_8_8_8_8_REV) => Self::BgraPacked8888Rev,
            (gl::LUMINANCE, gl::UNSIGNED_BYTE) => Self::Luminance,
            (gl::ALPHA, gl::UNSIGNED_BYTE) => Self::Alpha,
            (gl::LUMINANCE_ALPHA, gl::UNSIGNED_BYTE) => Self::LuminanceAlpha,
            _ => return None,
        })
    }

    /// The GL `(format, type)` pair this format stands for.
    pub const fn to_gl(self) -> (u32, u32) {
        match self {
            Self::Red => (gl::RED, gl::UNSIGNED_BYTE),
            Self::Rg => (gl::RG, gl::UNSIGNED_BYTE),
            Self::Rgb => (gl::RGB, gl::UNSIGNED_BYTE),
            Self::Bgr => (gl::BGR, gl::UNSIGNED_BYTE),
            Self::Rgba => (gl::RGBA, gl::UNSIGNED_BYTE),
            Self::Bgra => (gl::BGRA, gl::UNSIGNED_BYTE),
            Self::RgbaPacked8888 => (gl::RGBA, gl::UNSIGNED_INT_8_8_8_8),
            Self::RgbaPacked8888Rev => (gl::RGBA, gl::UNSIGNED_INT_8_8_8_8_REV),
            Self::BgraPacked8888 => (gl::BGRA, gl::UNSIGNED_INT_8_8_8_8),
            Self::BgraPacked8888Rev => (gl::BGRA, gl::UNSIGNED_INT_8_8_8_8_REV),
            Self::Luminance => (gl::LUMINANCE, gl::UNSIGNED_BYTE),
            Self::Alpha => (gl::ALPHA, gl::UNSIGNED_BYTE),
            Self::LuminanceAlpha => (gl::LUMINANCE_ALPHA, gl::UNSIGNED_BYTE),
            // No GL pair: raw texels are an internal hand-over, never named by an application.
            Self::Texels(_) => (0, 0),
        }
    }

    /// Whether the type is a packed 32-bit type (one element per pixel).
    pub const fn is_packed(self) -> bool {
        matches!(
            self,
            Self::RgbaPacked8888
                | Self::RgbaPacked8888Rev
                | Self::BgraPacked8888
                | Self::BgraPacked8888Rev
        )
    }

    /// Size in bytes of one element, `s` in the GL unpack formula: 1 for `GL_UNSIGNED_BYTE`, 4
    /// for the packed 32-bit types, the texel size for [`Self::Texels`].
    pub const fn element_bytes(self) -> u32 {
        match self {
            Self::Texels(n) => n as u32,
            _ if self.is_packed() => 4,
            _ => 1,
        }
    }

    /// Elements per pixel (group), `n` in the GL unpack formula: the component count, or 1 for
    /// packed types.
    pub const fn elements_per_group(self) -> u32 {
        match self {
            Self::Red | Self::Luminance | Self::Alpha => 1,
            Self::Rg | Self::LuminanceAlpha => 2,
            Self::Rgb | Self::Bgr => 3,
            Self::Rgba | Self::Bgra => 4,
            Self::RgbaPacked8888
            | Self::RgbaPacked8888Rev
            | Self::BgraPacked8888
            | Self::BgraPacked8888Rev
            | Self::Texels(_) => 1,
        }
    }

    /// Bytes per pixel (group).
    pub const fn group_bytes(self) -> u32 {
        self.element_bytes() * self.elements_per_group()
    }

    /// The channel each byte of a pixel holds, in client memory order, given the
    /// `GL_*_SWAP_BYTES` state. Only the first [`Self::group_bytes`] entries are meaningful.
    pub fn byte_channels(self, swap_bytes: bool) -> [Channel; 4] {
        use Channel::{A, B, G, L, R};
        match self {
            Self::Red => [R, R, R, R],
            Self::Rg => [R, G, G, G],
            Self::Rgb => [R, G, B, B],
            Self::Bgr => [B, G, R, R],
            Self::Rgba => [R, G, B, A],
            Self::Bgra => [B, G, R, A],
            Self::Luminance => [L, L, L, L],
            Self::Alpha => [A, A, A, A],
            Self::LuminanceAlpha => [L, A, A, A],
            // Packed: (channel, bit shift of its byte inside the 32-bit element).
            Self::RgbaPacked8888 => packed([(R, 24), (G, 16), (B, 8), (A, 0)], swap_bytes),
            Self::RgbaPacked8888Rev => packed([(R, 0), (G, 8), (B, 16), (A, 24)], swap_bytes),
            Self::BgraPacked8888 => packed([(B, 24), (G, 16), (R, 8), (A, 0)], swap_bytes),
            Self::BgraPacked8888Rev => packed([(B, 0), (G, 8), (R, 16), (A, 24)], swap_bytes),
            // Raw texels never go through the byte tables (`convert.rs` copies them).
            Self::Texels(_) => [R, G, B, A],
        }
    }
}

/// Places each channel of a packed 32-bit element at the memory byte that holds its bits on this
/// host, after the optional byte swap.
fn packed(by_shift: [(Channel, u32); 4], swap_bytes: bool) -> [Channel; 4] {
    let mut bytes = [Channel::R; 4];
    for (channel, shift) in by_shift {
        let significance = (shift / 8) as usize; // 0 = least significant byte
        let native = if cfg!(target_endian = "little") {
            significance
        } else {
            3 - significance
        };
        bytes[if swap_bytes { 3 - native } else { native }] = channel;
    }
    bytes
}

/// The formats staging writes for the device (and reads back from it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeviceFormat {
    /// `VK_FORMAT_R8G8B8A8_UNORM` / `_SRGB`.
    Rgba8,
    /// `VK_FORMAT_B8G8R8A8_UNORM` / `_SRGB`.
    Bgra8,
    /// `VK_FORMAT_R8G8B8_UNORM` / `_SRGB`, where the device supports it for sampling; texel size
    /// 3, which is why the copy alignment is an lcm (see `align.rs`).
    Rgb8,
    /// `VK_FORMAT_R8G8_UNORM`.
    Rg8,
    /// `VK_FORMAT_R8_UNORM`.
    R8,
    /// Any other format, this many bytes per texel (1 to 16): staging only copies these, from
    /// [`ClientFormat::Texels`] of the same size (the general conversion path converted them).
    /// Raw texels may also be copied into the named formats above when the sizes agree.
    Texels(u8),
}

impl DeviceFormat {
    /// Every device format (for exhaustive tests and tables).
    pub const ALL: [DeviceFormat; 5] = [Self::Rgba8, Self::Bgra8, Self::Rgb8, Self::Rg8, Self::R8];

    /// Bytes per texel.
    pub const fn texel_bytes(self) -> u32 {
        match self {
            Self::Rgba8 | Self::Bgra8 => 4,
            Self::Rgb8 => 3,
            Self::Rg8 => 2,
            Self::R8 => 1,
            Self::Texels(n) => n as u32,
        }
    }

    /// The channel each byte of a texel holds, in memory order.
    pub fn byte_channels(self) -> &'static [Channel] {
        use Channel::{A, B, G, R};
        match self {
            Self::Rgba8 => &[R, G, B, A],
            Self::Bgra8 => &[B, G, R, A],
            Self::Rgb8 => &[R, G, B],
            Self::Rg8 => &[R, G],
            Self::R8 => &[R],
            Self::Texels(_) => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gl_pairs_round_trip() {
        for f in ClientFormat::ALL {
            let (format, ty) = f.to_gl();
            assert_eq!(ClientFormat::from_gl(format, ty), Some(f));
        }
        assert_eq!(
            ClientFormat::from_gl(gl::RGB, gl::UNSIGNED_INT_8_8_8_8),
            None
        );
        assert_eq!(ClientFormat::from_gl(gl::RGBA, 0x1406 /* GL_FLOAT */), None);
    }

    #[test]
    fn packed_rev_types_match_byte_order_on_little_endian_hosts() {
        if cfg!(target_endian = "little") {
            assert_eq!(
                ClientFormat::BgraPacked8888Rev.byte_channels(false),
                ClientFormat::Bgra.byte_channels(false)
            );
            assert_eq!(
                ClientFormat::RgbaPacked8888.byte_channels(false),
                [Channel::A, Channel::B, Channel::G, Channel::R]
            );
            assert_eq!(
                ClientFormat::RgbaPacked8888.byte_channels(true),
                ClientFormat::Rgba.byte_channels(false)
            );
        }
    }
}
