//! `glClearBufferData` / `glClearBufferSubData` (GL 4.3, `GL_ARB_clear_buffer_object`; the
//! `glClearNamedBuffer*` twins run these on the buffer they name): a range of a buffer filled
//! with one element.
//!
//! Design decisions:
//! - The element is the client's `(format, type)` value converted to `internalformat`, one of
//!   the buffer-texture formats (GL 4.6 table 8.18), by the pixel path a texture upload of one
//!   texel takes (`arenagl_staging::unpack_to_texels`), so every format/type pair converts as
//!   it does for `glTexSubImage*` (normalised, float, half float, integer, packed). A null
//!   `data` is an element of zeros.
//! - The element repeated over the range is written like `glBufferSubData` (`write_range`):
//!   immutable storage without `GL_DYNAMIC_STORAGE_BIT` may be cleared (GL 4.6 §6.2 names only
//!   the `*SubData` uploads).
//! - Errors follow GL 4.6 §6.5.2 in Mesa's order: the target (`GL_INVALID_ENUM`), no buffer
//!   bound (`GL_INVALID_VALUE`), the internal format (`GL_INVALID_ENUM`), the format/type pair
//!   (as a pixel upload), an integer format for a non-integer internal format or the other way
//!   (`GL_INVALID_OPERATION`), a negative or outside range (`GL_INVALID_VALUE`), a range that
//!   overlaps a mapping, unless a persistent one (`GL_INVALID_OPERATION`; the rest of a mapped
//!   buffer may be cleared), and an offset or size that is not a multiple of the element
//!   (`GL_INVALID_VALUE`).

use arenagl_staging::{PixelAlignment, PixelStore, Region};

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_op, invalid_value, GlError, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::buffer::api::{range_inside, write_range};
use crate::gl::objects::texture::api::client_pixel_for;
use crate::gl::objects::texture::buffer::buffer_format;
use crate::gl::objects::texture::internal_format::texel_format;

/// The client value of a clear: `(format, type)` and the bytes of one element (None: zeros).
struct ClearValue<'a> {
    format: GLenum,
    ty: GLenum,
    data: Option<&'a [u8]>,
}

impl Context {
    /// `glClearBufferData`: all of the buffer bound to `target` filled with the `(format,
    /// ty)` value `data` (one element, as [`Context::clear_texel_bytes`] sizes it; None: zeros).
    pub fn clear_buffer_data(
        &mut self,
        target: GLenum,
        internal: GLenum,
        (format, ty): (GLenum, GLenum),
        data: Option<&[u8]>,
    ) {
        let value = ClearValue { format, ty, data };
        let r = self.clear_buffer(target, internal, None, value);
        self.record(r);
    }

    /// `glClearBufferSubData`: [`Context::clear_buffer_data`] of `size` bytes at `offset`.
    pub fn clear_buffer_sub_data(
        &mut self,
        target: GLenum,
        internal: GLenum,
        (offset, size): (i64, i64),
        (format, ty): (GLenum, GLenum),
        data: Option<&[u8]>,
    ) {
        let value = ClearValue { format, ty, data };
        let r = self.clear_buffer(target, internal, Some((offset, size)), value);
        self.record(r);
    }

    fn clear_buffer(
        &mut self,
        target: GLenum,
        internal: GLenum,
        range: Option<(i64, i64)>,
        value: ClearValue,
    ) -> GlResult<()> {
        let name = self.bound_buffer(target)?;
        if name == 0 {
            return invalid_value(format!("clear of buffer target 0x{target:04X}: none bound"));
        }
        let element = clear_element(internal, &value)?;
        let device = self.device.clone();
        let b = self
            .buffers
            .get_mut(name)
            .ok_or_else(|| GlError::InvalidOperation(format!("buffer {name} is gone")))?;
        let (offset, size) = range.unwrap_or((0, b.size as i64));
        if offset < 0 || size < 0 || !range_inside(offset, size, b.size) {
            return invalid_value(format!(
                "clear of {size} bytes at {offset} of a {}-byte buffer",
                b.size
            ));
        }
        let mapped = b.mapping.as_ref().filter(|_| b.mapped_exclusively());
        if mapped.is_some_and(|m| {
            let (start, end) = (offset as u64, (offset + size) as u64);
            start < m.offset + m.length && m.offset < end
        }) {
            return invalid_op("clear of a mapped range");
        }
        let n = element.len() as i64;
        if offset % n != 0 || size % n != 0 {
            return invalid_value(format!(
                "clear at {offset} of {size} bytes: not a multiple of the {n}-byte element"
            ));
        }
        if size == 0 {
            return Ok(());
        }
        let bytes = element.repeat((size / n) as usize);
        write_range(&device, b, offset as u64, &bytes)
    }
}

/// One element of `internal` holding `value` converted as a texel upload converts it.
fn clear_element(internal: GLenum, value: &ClearValue) -> GlResult<Vec<u8>> {
    let texel = buffer_format(internal)
        .and_then(|(format, _)| texel_format(format))
        .ok_or_else(|| GlError::InvalidEnum(format!("clear internal format 0x{internal:04X}")))?;
    let client = client_pixel_for(value.format, value.ty)?;
    if client.is_integer() != texel.is_integer() {
        return invalid_op(format!(
            "clear of internal format 0x{internal:04X} with format 0x{:04X}: integer and \
             non-integer do not mix",
            value.format
        ));
    }
    let Some(data) = value.data else {
        return Ok(vec![0; texel.texel_bytes() as usize]);
    };
    let tight = PixelStore {
        alignment: PixelAlignment::One,
        ..PixelStore::default()
    };
    arenagl_staging::unpack_to_texels(data, &tight, Region::d2(1, 1), client, texel)
        .map_err(|e| GlError::InvalidOperation(format!("clear value: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn element(internal: GLenum, format: GLenum, ty: GLenum, data: &[u8]) -> GlResult<Vec<u8>> {
        clear_element(
            internal,
            &ClearValue {
                format,
                ty,
                data: Some(data),
            },
        )
    }

    #[test]
    fn elements_convert_as_a_texel_upload() {
        // Floats to 8-bit normalised, RGBA order kept.
        let rgba = [1.0f32, 0.0, 0.5, 1.0];
        let bytes: Vec<u8> = rgba.iter().flat_map(|f| f.to_ne_bytes()).collect();
        let got = element(0x8058, GL_RGBA, GL_FLOAT, &bytes).unwrap();
        assert_eq!(got[0], 255);
        assert_eq!(got[1], 0);
        assert!(got[2] == 127 || got[2] == 128);
        // GL_RGB32UI takes three words.
        let words: Vec<u8> = [7u32, 8, 9].iter().flat_map(|w| w.to_ne_bytes()).collect();
        let got = element(0x8D71, 0x8D98, GL_UNSIGNED_INT, &words).unwrap();
        assert_eq!(got, words);
        // A null value is zeros of the element's size.
        let zeros = clear_element(
            0x8814,
            &ClearValue {
                format: GL_RGBA,
                ty: GL_FLOAT,
                data: None,
            },
        );
        assert_eq!(zeros.unwrap(), vec![0; 16]);
    }

    #[test]
    fn bad_formats_are_the_errors_gl_names() {
        let four = [0u8; 16];
        assert!(matches!(
            element(GL_RGBA, GL_RGBA, GL_FLOAT, &four),
            Err(GlError::InvalidEnum(_))
        ));
        // An integer format for GL_RGBA8 and a float one for GL_R32UI.
        assert!(matches!(
            element(0x8058, 0x8D99, GL_UNSIGNED_BYTE, &four),
            Err(GlError::InvalidOperation(_))
        ));
        assert!(matches!(
            element(0x8236, GL_RED, GL_FLOAT, &four),
            Err(GlError::InvalidOperation(_))
        ));
    }
}
