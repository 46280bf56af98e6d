//! GL_ARB_vertex_type_10f_11f_11f_rev (GL 4.4): vertex attributes of three unsigned small
//! floats packed in one 32-bit word, red in the low 11 bits, green in the next 11, blue in the
//! top 10 (the layout of `GL_R11F_G11F_B10F` texels and of Vulkan's
//! `B10G11R11_UFLOAT_PACK32`, which arrays read through).
//!
//! Design decisions:
//! - Arrays take the type through `glVertexAttribPointer`/`glVertexAttribFormat` only, with size
//!   3 (another size is `GL_INVALID_OPERATION`, the integer and double forms
//!   `GL_INVALID_ENUM`), as the extension says; the fixed-function pointers refuse it.
//! - `glVertexAttribP{1,2,3}ui` unpack the word on the CPU here (`P4` is `GL_INVALID_ENUM`);
//!   `normalized` means nothing for floats.
//! - Offered where the device reads that format from vertex buffers.

use ash::vk;

use crate::gl::context::enums::GLenum;
use crate::gl::vk::device::Device;

/// `GL_UNSIGNED_INT_10F_11F_11F_REV`.
pub(crate) const GL_UNSIGNED_INT_10F_11F_11F_REV: GLenum = 0x8C3B;

/// The Vulkan vertex format of the packed type.
pub(crate) const VERTEX_FORMAT: vk::Format = vk::Format::B10G11R11_UFLOAT_PACK32;

/// The extension, where `device` reads [`VERTEX_FORMAT`] from vertex buffers.
pub(crate) fn extensions(device: &Device) -> Vec<&'static str> {
    let locked = device.lock();
    let ok = locked.manager.supports_vertex_buffer(VERTEX_FORMAT);
    ok.then_some("GL_ARB_vertex_type_10f_11f_11f_rev")
        .into_iter()
        .collect()
}

/// An unsigned float of 5 exponent bits and `mantissa_bits` mantissa bits (no sign).
fn small_float(bits: u32, mantissa_bits: u32) -> f32 {
    let mantissa = bits & ((1 << mantissa_bits) - 1);
    let exponent = (bits >> mantissa_bits) & 0x1F;
    let fraction = mantissa as f32 / (1u32 << mantissa_bits) as f32;
    match exponent {
        0 => fraction * 2f32.powi(-14),
        31 if mantissa == 0 => f32::INFINITY,
        31 => f32::NAN,
        e => (1.0 + fraction) * 2f32.powi(e as i32 - 15),
    }
}

/// The current value `glVertexAttribP{n}ui` sets from `word`: its first `n` (1 to 3) floats,
/// the rest (0, 0, 0, 1). `None`: `n` is 4 (`GL_INVALID_ENUM`).
pub(crate) fn unpack(n: usize, word: u32) -> Option<[f32; 4]> {
    if n > 3 {
        return None;
    }
    let rgb = [
        small_float(word & 0x7FF, 6),
        small_float((word >> 11) & 0x7FF, 6),
        small_float(word >> 22, 5),
    ];
    let mut out = [0.0, 0.0, 0.0, 1.0];
    out[..n].copy_from_slice(&rgb[..n]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unpacks_red_green_blue_from_the_low_bits_up() {
        // 1.0 = exponent 15, mantissa 0; 0.5 = exponent 14; 2.0 = exponent 16.
        let word = (15 << 6) | ((14 << 6) << 11) | ((16 << 5) << 22);
        assert_eq!(unpack(3, word), Some([1.0, 0.5, 2.0, 1.0]));
        assert_eq!(unpack(1, word), Some([1.0, 0.0, 0.0, 1.0]));
        assert_eq!(unpack(4, word), None);
        // The smallest denormal of the 11-bit form, and infinity.
        assert_eq!(small_float(1, 6), 2f32.powi(-20));
        assert_eq!(small_float(31 << 6, 6), f32::INFINITY);
    }
}
