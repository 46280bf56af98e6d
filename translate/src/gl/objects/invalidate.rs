//! GL 4.3's invalidation commands (`GL_ARB_invalidate_subdata`): `glInvalidateBufferData`,
//! `glInvalidateBufferSubData`, `glInvalidateTexImage`, `glInvalidateTexSubImage`,
//! `glInvalidateFramebuffer`, `glInvalidateSubFramebuffer`.
//!
//! Design decisions:
//! - Invalidation tells the GL the contents may become undefined; keeping them is a correct
//!   implementation (GL 4.6: "the contents … may become undefined"). So
//!   these commands check their arguments with the spec's errors and change nothing. A later
//!   step can turn a framebuffer invalidation into a `DONT_CARE` load of the next pass (less
//!   memory traffic on tilers); nothing here depends on contents being kept or dropped.
//! - One file for the three object kinds: the commands share their shape (an object, a range,
//!   checks) and touch no object state.

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::framebuffer::MAX_COLOR_ATTACHMENTS;
use crate::gl::objects::texture::target::TexTarget;

impl Context {
    /// `glInvalidateBufferData`.
    pub fn invalidate_buffer_data(&mut self, buffer: u32) {
        let r = self.invalidated_buffer(buffer, None);
        self.record(r);
    }

    /// `glInvalidateBufferSubData`.
    pub fn invalidate_buffer_sub_data(&mut self, buffer: u32, offset: i64, length: i64) {
        let r = self.invalidated_buffer(buffer, Some((offset, length)));
        self.record(r);
    }

    /// The checks of a buffer invalidation: an existing buffer, a range inside it, not mapped.
    fn invalidated_buffer(&self, buffer: u32, range: Option<(i64, i64)>) -> GlResult<()> {
        let b = match self.buffers.get(buffer) {
            Some(b) if self.buffers.exists(buffer) => b,
            _ => return invalid_value(format!("{buffer} is not a buffer object")),
        };
        if let Some((offset, length)) = range {
            let end = offset.checked_add(length);
            if offset < 0 || length < 0 || end.is_none_or(|e| e as u64 > b.size) {
                return invalid_value(format!(
                    "range {offset}+{length} outside the buffer's {} bytes",
                    b.size
                ));
            }
        }
        // Only a mapped part counts for a sub-range (GL: "any part of the range is mapped");
        // a persistent mapping may stay.
        let mapped = b.mapping.as_ref().filter(|_| b.mapped_exclusively());
        let overlaps = mapped.is_some_and(|m| match range {
            Some((offset, length)) => {
                let (start, end) = (offset as u64, (offset + length) as u64);
                start < m.offset + m.length && m.offset < end
            }
            None => true,
        });
        if overlaps {
            return invalid_op("the range is mapped");
        }
        Ok(())
    }

    /// `glInvalidateTexImage`.
    pub fn invalidate_tex_image(&mut self, texture: u32, level: i32) {
        let r = self.invalidated_texture(texture, level).map(|_| ());
        self.record(r);
    }

    /// `glInvalidateTexSubImage`: `offset` and `size` in the level's GL axes.
    pub fn invalidate_tex_sub_image(
        &mut self,
        texture: u32,
        level: i32,
        (offset, size): ([i32; 3], [i32; 3]),
    ) {
        let r = self.invalidated_texture(texture, level).and_then(|have| {
            let outside = (0..3).any(|a| {
                offset[a] < 0
                    || size[a] < 0
                    || i64::from(offset[a]) + i64::from(size[a]) > i64::from(have[a])
            });
            if outside {
                return invalid_value(format!(
                    "region {offset:?} {size:?} outside the level ({have:?})"
                ));
            }
            Ok(())
        });
        self.record(r);
    }

    /// The checks of a texture invalidation: an existing texture and a level it may have.
    /// Returns the level's GL size (zero for a level without an image).
    fn invalidated_texture(&self, texture: u32, level: i32) -> GlResult<[u32; 3]> {
        let t = match self.textures.get(texture) {
            Some(t) if texture != 0 && self.textures.exists(texture) && t.named() => t,
            _ => return invalid_value(format!("{texture} is not a texture object")),
        };
        let tt = t.target.unwrap_or(TexTarget::D2);
        // Rectangle, multisample and buffer textures have level 0 only.
        let single = !tt.has_mipmaps() || t.buffer.is_some();
        let (_, levels) =
            crate::gl::objects::texture::api::limits_of(tt, &self.device.caps().limits);
        if level < 0 || level as u32 >= levels || (single && level != 0) {
            return invalid_value(format!("level {level}"));
        }
        Ok(t.storage
            .as_ref()
            .filter(|s| (level as u32) < s.levels)
            .map_or([0; 3], |s| s.level_size(level as u32)))
    }

    /// `glInvalidateFramebuffer` / `glInvalidateSubFramebuffer` (`area`: x, y, width,
    /// height).
    pub fn invalidate_framebuffer(
        &mut self,
        target: GLenum,
        attachments: &[GLenum],
        count: i32,
        area: Option<[i32; 4]>,
    ) {
        let r = self.invalidated_framebuffer(target, attachments, count, area);
        self.record(r);
    }

    fn invalidated_framebuffer(
        &self,
        target: GLenum,
        attachments: &[GLenum],
        count: i32,
        area: Option<[i32; 4]>,
    ) -> GlResult<()> {
        let bound = self.framebuffer_bound_to(target)?;
        if count < 0 {
            return invalid_value(format!("numAttachments {count}"));
        }
        if area.is_some_and(|[_, _, w, h]| w < 0 || h < 0) {
            return invalid_value("a negative width or height");
        }
        for &a in attachments {
            check_attachment(bound != 0, a)?;
        }
        Ok(())
    }
}

/// Whether `a` names an attachment of a framebuffer object (`object`) or of the default
/// framebuffer: `GL_INVALID_OPERATION` for a colour attachment past the maximum,
/// `GL_INVALID_ENUM` for anything else that is not an attachment of that kind.
fn check_attachment(object: bool, a: GLenum) -> GlResult<()> {
    let color = a.wrapping_sub(GL_COLOR_ATTACHMENT0);
    match (object, a) {
        (true, GL_DEPTH_ATTACHMENT | GL_STENCIL_ATTACHMENT | GL_DEPTH_STENCIL_ATTACHMENT) => Ok(()),
        (true, _) if (color as usize) < MAX_COLOR_ATTACHMENTS => Ok(()),
        // GL_COLOR_ATTACHMENT0 + i for i up to 31 are names; past the maximum they are refused
        // as an operation, not an enum.
        (true, _) if color < 32 => invalid_op(format!(
            "GL_COLOR_ATTACHMENT{color} is past GL_MAX_COLOR_ATTACHMENTS"
        )),
        (false, GL_COLOR | GL_DEPTH | GL_STENCIL) => Ok(()),
        _ => invalid_enum("glInvalidateFramebuffer attachment", a),
    }
}
