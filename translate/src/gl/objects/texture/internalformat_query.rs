//! `glGetInternalformativ` / `glGetInternalformati64v`: GL_ARB_internalformat_query (GL 4.2:
//! the sample counts of renderbuffers and multisample textures) and, where offered,
//! GL_ARB_internalformat_query2 (GL 4.3: every property of a format on a target).
//!
//! Design decisions:
//! - The *resource* of a query (GL_ARB_internalformat_query2's word for an object of `target`
//!   made with `internalformat`) is resolved by the checks the object's own commands run: a
//!   texture level by `api::level_storage` (what `glTexImage*` stores), a multisample texture
//!   and a renderbuffer by `framebuffer::renderbuffer_format` (what
//!   `glTexImage2DMultisample`/`glRenderbufferStorage` accept), a buffer texture by the buffer
//!   texture format check of `glTexBuffer`. No second table says what is supported, so the
//!   answers cannot drift from what the commands do. The answers per `pname` are in
//!   `internalformat_answers.rs`.
//! - An unsupported resource (an unknown name, a format the target refuses, a target the
//!   device lacks) gets the spec's "unsupported" answer for `pname` — 0, `GL_NONE` or
//!   `GL_FALSE` — and `GL_SAMPLES` writes nothing, so the caller's buffer keeps its contents.
//! - The sample counts are the ones a request is rounded to (`framebuffer::pick_samples`):
//!   those the device renders every attachment kind with, limited for integer formats by
//!   `GL_MAX_INTEGER_SAMPLES` and for multisample textures by what the device samples
//!   (`GL_MAX_COLOR_TEXTURE_SAMPLES` / `GL_MAX_DEPTH_TEXTURE_SAMPLES`), in descending order.
//! - Errors: a target or `pname` outside the extension's lists is `GL_INVALID_ENUM` (without
//!   query2: a target other than `GL_RENDERBUFFER`, `GL_TEXTURE_2D_MULTISAMPLE(_ARRAY)`, a
//!   `pname` other than `GL_SAMPLES`/`GL_NUM_SAMPLE_COUNTS`, or a format that is not
//!   renderable); a negative `bufSize` is `GL_INVALID_VALUE`. `GL_CLEAR_TEXTURE` is a `pname`
//!   only with GL_ARB_clear_texture. `GL_SRGB_DECODE_ARB` is accepted without
//!   `GL_EXT_texture_sRGB_decode` (which is not offered) and answers `GL_NONE`: the
//!   extension's text wants `GL_INVALID_ENUM`, but piglit's query2 tests (which llvmpipe and
//!   Zink pass) query it on every implementation and want no error.

use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_value, GlResult};
use crate::gl::context::{Context, Profile};
use crate::gl::objects::framebuffer::{
    max_integer_samples, max_samples, pick_samples, renderbuffer_format, renderbuffer_row,
};
use crate::gl::objects::texture::api::level_storage;
use crate::gl::objects::texture::internal_format::{is_depth_format, lookup, FormatInfo};
use crate::gl::objects::texture::multisample::{
    max_color_texture_samples, max_depth_texture_samples,
};
use crate::gl::objects::texture::target::TexTarget;

/// `GL_SAMPLES` (the counts) and `GL_NUM_SAMPLE_COUNTS` (how many).
const GL_SAMPLES: GLenum = 0x80A9;
const GL_NUM_SAMPLE_COUNTS: GLenum = 0x9380;
const GL_RENDERBUFFER: GLenum = 0x8D41;
const GL_TEXTURE_2D_MULTISAMPLE: GLenum = 0x9100;
const GL_TEXTURE_2D_MULTISAMPLE_ARRAY: GLenum = 0x9102;
/// `GL_SRGB_DECODE_ARB` and `GL_CLEAR_TEXTURE`: `pname`s that need another extension.
pub(crate) const GL_SRGB_DECODE_ARB: GLenum = 0x8299;
pub(crate) const GL_CLEAR_TEXTURE: GLenum = 0x9365;

/// What a query's `target` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Texture(TexTarget),
    Buffer,
    Renderbuffer,
}

impl Kind {
    /// The kind `target` names (GL_ARB_internalformat_query2's table of targets).
    fn of(target: GLenum) -> Option<Kind> {
        match target {
            GL_TEXTURE_BUFFER => Some(Kind::Buffer),
            GL_RENDERBUFFER => Some(Kind::Renderbuffer),
            GL_TEXTURE_CUBE_MAP => Some(Kind::Texture(TexTarget::Cube)),
            t => TexTarget::from_bind(t).map(Kind::Texture),
        }
    }

    /// The texture target, for texture kinds.
    pub(crate) fn texture(self) -> Option<TexTarget> {
        match self {
            Kind::Texture(t) => Some(t),
            _ => None,
        }
    }

    /// Multisample textures and renderbuffers: the kinds with sample counts.
    fn has_samples(self) -> bool {
        self == Kind::Renderbuffer || self.texture().is_some_and(|t| t.is_multisample())
    }
}

/// A supported resource: an object of `kind` made with `internal`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Resource {
    pub kind: Kind,
    pub internal: GLenum,
    /// What the GL format means (the row `glGetTexLevelParameter` answers from).
    pub info: FormatInfo,
    /// The Vulkan format holding it.
    pub format: vk::Format,
    /// The format is colour-, depth- or stencil-renderable in this profile (a format
    /// property: what `glRenderbufferStorage` accepts).
    pub renderable: bool,
    /// This resource can be a framebuffer attachment: a renderable format stored with
    /// attachment usage (never a buffer texture).
    pub attachable: bool,
}

impl Context {
    /// `glGetInternalformativ` / `i64v`: the answer, at most `buf_size` values of it (none
    /// where the caller's buffer is to be left alone).
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

    /// Whether this context offers the extension `name`.
    pub(crate) fn offers(&self, name: &str) -> bool {
        (self.strings.extensions.iter()).any(|e| e.to_bytes() == name.as_bytes())
    }

    fn internalformat_answer(
        &mut self,
        target: GLenum,
        internal: GLenum,
        pname: GLenum,
        buf_size: i32,
    ) -> GlResult<Vec<i64>> {
        if !self.offers("GL_ARB_internalformat_query2") {
            return self.samples_query(target, internal, pname, buf_size);
        }
        let Some(kind) = Kind::of(target) else {
            return invalid_enum("glGetInternalformativ target", target);
        };
        if !self.legal_query2_pname(pname) {
            return invalid_enum("glGetInternalformativ pname", pname);
        }
        if buf_size < 0 {
            return invalid_value("glGetInternalformativ bufSize < 0");
        }
        let resource = self.resource(kind, internal);
        if pname == GL_SAMPLES || pname == GL_NUM_SAMPLE_COUNTS {
            let counts = resource
                .filter(|r| r.attachable && kind.has_samples())
                .map(|r| self.sample_counts(&r));
            return Ok(match (pname, counts) {
                (GL_SAMPLES, counts) => counts.unwrap_or_default(),
                (_, counts) => vec![counts.map_or(0, |c| c.len() as i64)],
            });
        }
        // The "unsupported" answers — `GL_FALSE`, 0 and `GL_NONE` — are all 0.
        let answer = resource.and_then(|r| self.query2_answer(&r, pname));
        Ok(vec![answer.unwrap_or(0)])
    }

    /// GL_ARB_internalformat_query alone: `GL_SAMPLES` / `GL_NUM_SAMPLE_COUNTS` of a
    /// renderable format on a renderbuffer or multisample texture.
    fn samples_query(
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
        let Some(resource) = Kind::of(target).and_then(|k| self.resource(k, internal)) else {
            return invalid_enum("glGetInternalformativ: not a renderable format", internal);
        };
        if !matches!(pname, GL_SAMPLES | GL_NUM_SAMPLE_COUNTS) {
            return invalid_enum("glGetInternalformativ pname", pname);
        }
        if buf_size < 0 {
            return invalid_value("glGetInternalformativ bufSize < 0");
        }
        let counts = self.sample_counts(&resource);
        Ok(if pname == GL_SAMPLES {
            counts
        } else {
            vec![counts.len() as i64]
        })
    }

    /// Whether `pname` is one of GL_ARB_internalformat_query2's (with the extensions some of
    /// them need).
    fn legal_query2_pname(&self, pname: GLenum) -> bool {
        match pname {
            GL_SAMPLES | GL_NUM_SAMPLE_COUNTS => true,
            GL_CLEAR_TEXTURE => self.offers("GL_ARB_clear_texture"),
            // GL_INTERNALFORMAT_SUPPORTED … GL_VIEW_COMPATIBILITY_CLASS (0x82AB and 0x82B0
            // are unassigned), GL_TEXTURE_COMPRESSED, GL_IMAGE_FORMAT_COMPATIBILITY_TYPE.
            p => {
                matches!(p, 0x826F..=0x82AA | 0x82AC..=0x82AF | 0x82B1..=0x82B6)
                    || p == 0x86A1
                    || p == 0x90C7
            }
        }
    }

    /// The resource `kind` of `internal`, where this GL makes one (see the module's notes).
    pub(crate) fn resource(&self, kind: Kind, internal: GLenum) -> Option<Resource> {
        let legacy = self.profile == Profile::Compatibility;
        let renderable = renderbuffer_format(&self.device, internal, legacy);
        let (info, format, attachment_usage) = match kind {
            Kind::Renderbuffer => {
                let format = renderable?;
                (lookup(renderbuffer_row(internal))?, format, true)
            }
            Kind::Buffer => {
                let (format, _) = self.buffer_format(internal).ok()?;
                (lookup(internal)?, format, false)
            }
            Kind::Texture(t) if t.is_multisample() => (
                lookup(internal)?,
                renderbuffer_format(&self.device, internal, false)?,
                true,
            ),
            Kind::Texture(t) => {
                self.check_target_supported(t).ok()?;
                let s = level_storage(&self.device, t, internal).ok()?;
                (s.info, s.format, s.renderable)
            }
        };
        Some(Resource {
            kind,
            internal,
            info,
            format,
            renderable: renderable.is_some(),
            attachable: attachment_usage && renderable.is_some(),
        })
    }

    /// The sample counts of `resource` (a renderable format on a target with samples),
    /// descending.
    pub(crate) fn sample_counts(&self, resource: &Resource) -> Vec<i64> {
        let mut limit = if resource.info.comp.is_integer() {
            max_integer_samples(&self.device)
        } else {
            max_samples(&self.device)
        };
        if resource.kind != Kind::Renderbuffer {
            limit = limit.min(if is_depth_format(resource.format) {
                max_depth_texture_samples(&self.device)
            } else {
                max_color_texture_samples(&self.device)
            });
        }
        (1..7)
            .rev()
            .map(|bit| 1u32 << bit)
            .filter(|&n| n <= limit && pick_samples(&self.device, n) == Some(n))
            .map(i64::from)
            .collect()
    }
}
