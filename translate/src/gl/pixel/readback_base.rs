//! What a colour read (`glReadPixels`) returns for an attachment whose GL base format differs
//! from what its storage holds: an RGB format stored as RGBA reads alpha 1 whatever the stored
//! alpha is, a red or RG format reads G = B = 0, an alpha format (stored in one red channel)
//! reads (0, 0, 0, A), and luminance/intensity formats put their value in red (GL's
//! "conversion to RGBA" of the buffer's components, L and I as R).
//!
//! Design decisions:
//! - The storage's own sampling swizzle (`FormatInfo::swizzle`) already maps stored channels
//!   to GL's components; reads reuse it, then move luminance and intensity to red alone.
//! - The rebased texels are RGBA of 32-bit floats (or 32-bit integers for integer formats), so
//!   every storage format goes through one conversion and staging packs them as usual. Formats
//!   whose storage already means GL's components (RGBA, and every storage the swizzle leaves as
//!   identity) never come here and keep the direct paths.

use arenagl_staging::{TexelFormat, TexelKind};
use ash::vk;

use crate::gl::context::enums::GL_COLOR_ATTACHMENT0;
use crate::gl::context::Context;
use crate::gl::objects::framebuffer::Attachment;
use crate::gl::objects::texture::internal_format::{Base, FormatInfo};

const R: u32 = 0x1903;
const G: u32 = 0x1904;
const B: u32 = 0x1905;
const A: u32 = 0x1906;
const ONE: u32 = 1;

/// Whether reads of `format` storage for `info` need rebasing.
pub(crate) fn needs_rebase(info: &FormatInfo, format: vk::Format) -> bool {
    matches!(
        info.base,
        Base::Luminance | Base::LuminanceAlpha | Base::Intensity
    ) || (!info.is_depth_stencil() && info.swizzle(format) != [R, G, B, A])
}

/// `texels` (tightly packed `texel` values of `format` storage) as GL's RGBA components of
/// `info`, in the returned RGBA texel format.
pub(crate) fn rebase(
    texels: &[u8],
    texel: TexelFormat,
    info: &FormatInfo,
    format: vk::Format,
) -> (Vec<u8>, TexelFormat) {
    let kind = match texel {
        TexelFormat::Array { kind, .. } if kind.is_integer() => kind,
        TexelFormat::Rgb10A2 { integer: true } => TexelKind::UInt,
        _ => TexelKind::Float,
    };
    let rgba = TexelFormat::Array {
        comps: 4,
        bytes: 4,
        kind,
    };
    let swizzle = info.swizzle(format);
    let (n, out_n) = (texel.texel_bytes() as usize, rgba.texel_bytes() as usize);
    let mut out = vec![0u8; texels.len() / n * out_n];
    for (src, dst) in texels.chunks_exact(n).zip(out.chunks_exact_mut(out_n)) {
        let raw = texel.decode(src);
        let pick = |s: u32| match s {
            R => raw[0],
            G => raw[1],
            B => raw[2],
            A => raw[3],
            ONE => 1.0,
            _ => 0.0,
        };
        let mut v = swizzle.map(pick);
        match info.base {
            Base::Luminance | Base::Intensity => v = [v[0], 0.0, 0.0, 1.0],
            Base::LuminanceAlpha => v = [v[0], 0.0, 0.0, v[3]],
            _ => {}
        }
        rgba.encode(v, dst);
    }
    (out, rgba)
}

impl Context {
    /// The GL format and storage of the read framebuffer's read buffer when it is an
    /// attachment of a framebuffer object, or a default framebuffer without alpha (None for
    /// one with: its RGBA8 storage means what it holds).
    pub(crate) fn read_attachment_format(&self) -> Option<(FormatInfo, vk::Format)> {
        if self.read_framebuffer == 0 {
            let s = self.read_surface.as_ref()?;
            let info = crate::gl::objects::texture::internal_format::lookup(s.gl_color_internal());
            return info
                .filter(|_| s.color_without_alpha())
                .map(|i| (i, s.color_format));
        }
        let fb = self.framebuffers.get(self.read_framebuffer)?;
        let index = fb.read_buffer.checked_sub(GL_COLOR_ATTACHMENT0)? as usize;
        match (*fb.colors.get(index)?)? {
            Attachment::Texture { name, .. } => {
                let s = self.textures.get(name)?.storage.as_ref()?;
                Some((s.info, s.format))
            }
            Attachment::Renderbuffer(name) => {
                let rb = self.renderbuffers.get(name)?;
                Some((
                    crate::gl::objects::texture::internal_format::lookup(rb.internal)?,
                    rb.format,
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rgb_stored_as_rgba_reads_alpha_one_and_alpha_reads_from_red() {
        let rgb8 = crate::gl::objects::texture::internal_format::lookup(0x8051).unwrap();
        let f = vk::Format::R8G8B8A8_UNORM;
        assert!(needs_rebase(&rgb8, f));
        let texel = TexelFormat::Array {
            comps: 4,
            bytes: 1,
            kind: TexelKind::Unorm,
        };
        let (out, rgba) = rebase(&[255, 0, 51, 0], texel, &rgb8, f);
        assert_eq!(rgba.decode(&out), [1.0, 0.0, f64::from(0.2f32), 1.0]);
        let rgba8 = crate::gl::objects::texture::internal_format::lookup(0x8058).unwrap();
        assert!(!needs_rebase(&rgba8, f));
        let alpha8 = crate::gl::objects::texture::internal_format::lookup(0x803C).unwrap();
        let r8 = TexelFormat::Array {
            comps: 1,
            bytes: 1,
            kind: TexelKind::Unorm,
        };
        let (out, rgba) = rebase(&[51], r8, &alpha8, vk::Format::R8_UNORM);
        assert_eq!(rgba.decode(&out), [0.0, 0.0, 0.0, f64::from(0.2f32)]);
    }
}
