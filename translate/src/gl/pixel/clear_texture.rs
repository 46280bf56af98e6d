//! `glClearTexImage` / `glClearTexSubImage` (GL 4.4, `GL_ARB_clear_texture`): a box of one
//! level filled with one client texel.
//!
//! Design decisions:
//! - The texel goes through the upload path (`texture::api::upload`) exactly as a
//!   `glTexSubImage*` of the box would take it, with the texel repeated over the box and a
//!   tightly packed unpack state: GL defines the clear as that conversion (GL 4.6 §8.21), so
//!   every format the upload path converts (normalised, float, integer, packed, legacy, sRGB
//!   without encoding, depth, depth/stencil and stencil planes) clears the same way. A null
//!   `data` is a box of zero texels.
//! - The box covers cube faces on the z axis (GL treats a cube map as six layers here) and the
//!   layers of array textures on their layer axis.
//! - Not yet: multisample textures (no transfer reaches a multisampled image):
//!   `GL_INVALID_OPERATION` with a log, never a wrong result.
//! - Errors follow GL 4.6 §8.21 and Mesa's order: no such texture, a buffer texture or a
//!   compressed format `GL_INVALID_OPERATION`; a level that is not defined `GL_INVALID_OPERATION`
//!   (a negative level `GL_INVALID_VALUE`); a format of another kind than the texture's
//!   (colour/depth/stencil, integer or not) `GL_INVALID_OPERATION`; a negative size
//!   `GL_INVALID_VALUE`; a box outside the level `GL_INVALID_OPERATION`.

use arenagl_staging::{PixelAlignment, PixelStore};

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_op, invalid_value, GlError, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::texture::api::{check_pair, image_region, upload};
use crate::gl::objects::texture::internal_format::{codec, Base};
use crate::gl::objects::texture::target::TexTarget;

/// The unpack state of the repeated texels: no row padding, no skips.
fn tight() -> PixelStore {
    PixelStore {
        alignment: PixelAlignment::One,
        ..PixelStore::default()
    }
}

/// The box of a clear: offset and size in GL axes, or the whole level.
type ClearBox = Option<([i32; 3], [i32; 3])>;

impl Context {
    /// Bytes of the one client texel `glClearTex*Image` reads for `(format, ty)` (the C edge
    /// sizes the client pointer's slice with this); `None` for a pair GL does not name.
    pub fn clear_texel_bytes(format: GLenum, ty: GLenum) -> Option<usize> {
        if crate::gl::pixel::readback_depth::is_depth_stencil_format(format) {
            return crate::gl::pixel::readback_depth::pixel_bytes(format, ty);
        }
        let layout = arenagl_staging::ClientPixel::from_gl(format, ty)
            .ok()?
            .layout(&tight(), arenagl_staging::Region::d2(1, 1))
            .ok()?;
        usize::try_from(layout.required_bytes()).ok()
    }

    /// `glClearTexImage`: the whole of `level`.
    pub fn clear_tex_image(
        &mut self,
        name: u32,
        level: i32,
        pixel: (GLenum, GLenum),
        data: Option<&[u8]>,
    ) {
        let r = self.clear_texture(name, level, None, pixel, data);
        self.record(r);
    }

    /// `glClearTexSubImage`: the box `(offset, size)` of `level`.
    pub fn clear_tex_sub_image(
        &mut self,
        name: u32,
        level: i32,
        (offset, size): ([i32; 3], [i32; 3]),
        pixel: (GLenum, GLenum),
        data: Option<&[u8]>,
    ) {
        let r = self.clear_texture(name, level, Some((offset, size)), pixel, data);
        self.record(r);
    }

    fn clear_texture(
        &mut self,
        name: u32,
        level: i32,
        area: ClearBox,
        (format, ty): (GLenum, GLenum),
        data: Option<&[u8]>,
    ) -> GlResult<()> {
        let device = self.device.clone();
        let t = self
            .textures
            .get(name)
            .filter(|t| name != 0 && t.named())
            .ok_or_else(|| GlError::InvalidOperation(format!("{name} is not a texture")))?;
        if t.buffer.is_some() {
            return invalid_op("glClearTexImage of a buffer texture");
        }
        if level < 0 {
            return invalid_value(format!("glClearTexImage level {level}"));
        }
        let Some(s) = t.storage.as_ref() else {
            return invalid_op("glClearTexImage of a texture without images");
        };
        let level = level as u32;
        if !s.level_defined(level) {
            return invalid_op(format!("glClearTexImage: level {level} is not defined"));
        }
        if codec(s.internal).is_some() {
            return invalid_op("glClearTexImage of a compressed texture");
        }
        check_clear_format(s, format, ty)?;
        let extent = clear_extent(s.target, s.level_size(level));
        let (offset, size) = area.unwrap_or(([0; 3], extent.map(|v| v as i32)));
        check_box(offset, size, extent)?;
        if size.contains(&0) {
            return Ok(());
        }
        if s.samples > 1 {
            return invalid_op(format!(
                "glClearTexImage of {:?} ({} samples) is not supported by this GL yet",
                s.format, s.samples
            ));
        }
        let size = size.map(|v| v as u32);
        let texel = Context::clear_texel_bytes(format, ty)
            .ok_or_else(|| GlError::InvalidOperation("clear texel of no known size".into()))?;
        let count = size.iter().map(|&v| v as usize).product::<usize>();
        let texels = match data {
            Some(one) if one.len() >= texel => one[..texel].repeat(count),
            Some(_) => return invalid_op("glClearTexImage: short texel"),
            None => vec![0; texel * count],
        };
        let target = if s.target == TexTarget::Cube {
            TexTarget::D2Array
        } else {
            s.target
        };
        let region = image_region(target, 0, level, offset, size);
        upload(
            &mut device.lock(),
            s,
            target,
            &region,
            &texels,
            &tight(),
            (format, ty),
        )?;
        Ok(())
    }
}

/// The clear's limits of a level of GL size `size`: a cube map's six faces are its depth.
fn clear_extent(target: TexTarget, size: [u32; 3]) -> [u32; 3] {
    if target == TexTarget::Cube {
        [size[0], size[1], 6]
    } else {
        size
    }
}

/// GL's kind rules: depth, depth/stencil and stencil textures take their own format only,
/// colour textures any colour format of the same integer-ness.
fn check_clear_format(
    s: &crate::gl::objects::texture::TexImage,
    format: GLenum,
    ty: GLenum,
) -> GlResult<()> {
    let want = match s.info.base {
        Base::Depth => Some(GL_DEPTH_COMPONENT),
        Base::DepthStencil => Some(GL_DEPTH_STENCIL),
        Base::Stencil => Some(GL_STENCIL_INDEX),
        _ => None,
    };
    match want {
        Some(w) if w != format => invalid_op(format!(
            "glClearTexImage format 0x{format:04X} into a texture of base 0x{w:04X}"
        )),
        Some(_) => Ok(()),
        None if matches!(
            format,
            GL_DEPTH_COMPONENT | GL_DEPTH_STENCIL | GL_STENCIL_INDEX
        ) =>
        {
            invalid_op("glClearTexImage: a depth or stencil format into a colour texture")
        }
        None => check_pair(&s.info, format, ty).map(|_| ()),
    }
}

/// Negative sizes are `GL_INVALID_VALUE`; a box outside the level `GL_INVALID_OPERATION`.
fn check_box(offset: [i32; 3], size: [i32; 3], extent: [u32; 3]) -> GlResult<()> {
    if size.iter().any(|&v| v < 0) {
        return invalid_value(format!("glClearTexSubImage size {size:?}"));
    }
    let outside =
        (0..3).any(|a| offset[a] < 0 || offset[a] as i64 + size[a] as i64 > i64::from(extent[a]));
    if outside {
        return invalid_op(format!(
            "glClearTexSubImage box {offset:?} {size:?} outside {extent:?}"
        ));
    }
    Ok(())
}
