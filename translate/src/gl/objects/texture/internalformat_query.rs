//! `glGetInternalformativ` / `glGetInternalformati64v` (GL 4.2, `GL_ARB_internalformat_query`):
//! the sample counts a renderable internal format supports for renderbuffers and multisample
//! textures.
//!
//! Design decisions:
//! - The counts are the ones a request is rounded to (`framebuffer::pick_samples`): those the
//!   device renders every attachment kind with, limited for integer formats by
//!   `GL_MAX_INTEGER_SAMPLES` and for multisample textures by what the device samples
//!   (`GL_MAX_COLOR_TEXTURE_SAMPLES` / `GL_MAX_DEPTH_TEXTURE_SAMPLES`), in descending order, so
//!   the largest is the matching `GL_MAX_*SAMPLES` limit.
//! - Only GL_ARB_internalformat_query's targets and names: `GL_ARB_internalformat_query2`'s
//!   wider set is `GL_INVALID_ENUM` (not offered).
//! - Errors: a target other than `GL_RENDERBUFFER`, `GL_TEXTURE_2D_MULTISAMPLE(_ARRAY)`, a
//!   format that is not colour-, depth- or stencil-renderable, or another `pname` is
//!   `GL_INVALID_ENUM`; a negative `bufSize` `GL_INVALID_VALUE`.

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_value, GlResult};
use crate::gl::context::{Context, Profile};
use crate::gl::objects::framebuffer::{max_integer_samples, max_samples, renderbuffer_format};
use crate::gl::objects::texture::internal_format::{is_depth_format, lookup};
use crate::gl::objects::texture::multisample::{
    max_color_texture_samples, max_depth_texture_samples,
};

/// `GL_SAMPLES` (the counts) and `GL_NUM_SAMPLE_COUNTS` (how many).
const GL_SAMPLES: GLenum = 0x80A9;
const GL_NUM_SAMPLE_COUNTS: GLenum = 0x9380;
const GL_RENDERBUFFER: GLenum = 0x8D41;
const GL_TEXTURE_2D_MULTISAMPLE: GLenum = 0x9100;
const GL_TEXTURE_2D_MULTISAMPLE_ARRAY: GLenum = 0x9102;

impl Context {
    /// `glGetInternalformativ`: the answer, at most `buf_size` values of it.
    pub fn get_internalformat(
        &mut self,
        target: GLenum,
        internal: GLenum,
        pname: GLenum,
        buf_size: i32,
    ) -> Vec<i64> {
        let r = self.internalformat_answer(target, internal, pname, buf_size);
        let mut values = self.record(r).unwrap_or_default();
        values.truncate(buf_size.max(0) as usize);
        values
    }

    fn internalformat_answer(
        &self,
        target: GLenum,
        internal: GLenum,
        pname: GLenum,
        buf_size: i32,
    ) -> GlResult<Vec<i64>> {
        if !matches!(
            target,
            GL_RENDERBUFFER | GL_TEXTURE_2D_MULTISAMPLE | GL_TEXTURE_2D_MULTISAMPLE_ARRAY
        ) {
            return invalid_enum("glGetInternalformativ target", target);
        }
        let legacy = self.profile == Profile::Compatibility;
        let Some(format) = renderbuffer_format(&self.device, internal, legacy) else {
            return invalid_enum("glGetInternalformativ: not a renderable format", internal);
        };
        if !matches!(pname, GL_SAMPLES | GL_NUM_SAMPLE_COUNTS) {
            return invalid_enum("glGetInternalformativ pname", pname);
        }
        if buf_size < 0 {
            return invalid_value("glGetInternalformativ bufSize < 0");
        }
        let integer = lookup(internal).is_some_and(|info| info.comp.is_integer());
        let mut limit = if integer {
            max_integer_samples(&self.device)
        } else {
            max_samples(&self.device)
        };
        if target != GL_RENDERBUFFER {
            limit = limit.min(if is_depth_format(format) {
                max_depth_texture_samples(&self.device)
            } else {
                max_color_texture_samples(&self.device)
            });
        }
        let counts: Vec<i64> = (1..7)
            .rev()
            .map(|bit| 1u32 << bit)
            .filter(|&n| n <= limit)
            .filter(|&n| crate::gl::objects::framebuffer::pick_samples(&self.device, n) == Some(n))
            .map(i64::from)
            .collect();
        Ok(if pname == GL_SAMPLES {
            counts
        } else {
            vec![counts.len() as i64]
        })
    }
}
