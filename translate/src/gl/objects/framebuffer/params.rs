//! GL_ARB_framebuffer_no_attachments: a framebuffer object's default width, height, layers,
//! samples and fixed sample locations (`glFramebufferParameteri`,
//! `glGetFramebufferParameteriv`), which make a framebuffer with no attachments complete and
//! give its draws a size and a sample count.
//!
//! Design decisions:
//! - The defaults live on the framebuffer object ([`Defaults`]); they matter only while it has
//!   no attachment (`draw/target.rs` resolves such a framebuffer to a target of the default
//!   size with no images: dynamic rendering with no attachments).
//! - The limits are the device's framebuffer limits; the sample count a draw uses is the
//!   smallest count of `framebufferNoAttachmentsSampleCounts` at least the one asked for (GL
//!   lets the implementation round up; `GL_SAMPLES` reports the rounded count, which
//!   `gl_NumSamples` then agrees with).
//! - The extension is offered only where the device reaches GL's minimum limits (16384 ×
//!   16384, 2048 layers, 4 samples).

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlError, GlResult};
use crate::gl::context::Context;
use crate::gl::vk::device::Device;

pub(crate) const GL_FRAMEBUFFER_DEFAULT_WIDTH: GLenum = 0x9310;
pub(crate) const GL_FRAMEBUFFER_DEFAULT_HEIGHT: GLenum = 0x9311;
pub(crate) const GL_FRAMEBUFFER_DEFAULT_LAYERS: GLenum = 0x9312;
pub(crate) const GL_FRAMEBUFFER_DEFAULT_SAMPLES: GLenum = 0x9313;
pub(crate) const GL_FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS: GLenum = 0x9314;
pub(crate) const GL_MAX_FRAMEBUFFER_WIDTH: GLenum = 0x9315;
pub(crate) const GL_MAX_FRAMEBUFFER_HEIGHT: GLenum = 0x9316;
pub(crate) const GL_MAX_FRAMEBUFFER_LAYERS: GLenum = 0x9317;
pub(crate) const GL_MAX_FRAMEBUFFER_SAMPLES: GLenum = 0x9318;

/// A framebuffer object's default geometry (all 0 / false initially).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Defaults {
    pub width: u32,
    pub height: u32,
    pub layers: u32,
    pub samples: u32,
    pub fixed_locations: bool,
}

impl Defaults {
    /// The size a framebuffer with no attachments has: `None` (incomplete) while the width or
    /// height is 0.
    pub(crate) fn size(&self) -> Option<(u32, u32)> {
        (self.width > 0 && self.height > 0).then_some((self.width, self.height))
    }
}

/// `GL_MAX_FRAMEBUFFER_{WIDTH,HEIGHT,LAYERS,SAMPLES}` of `device`.
pub(crate) fn max_framebuffer(device: &Device) -> [u32; 4] {
    let l = &device.caps().limits;
    let counts = l.framebuffer_no_attachments_sample_counts.as_raw();
    let samples = 1u32 << (31 - counts.max(1).leading_zeros());
    [
        l.max_framebuffer_width,
        l.max_framebuffer_height,
        l.max_framebuffer_layers,
        samples,
    ]
}

/// Whether `device` reaches GL's minimum limits for framebuffers without attachments.
pub(crate) fn supported(device: &Device) -> bool {
    let [w, h, layers, samples] = max_framebuffer(device);
    w >= 16384 && h >= 16384 && layers >= 2048 && samples >= 4
}

/// The sample count a draw into a framebuffer with no attachments uses for `requested`: 1 for
/// 0 or 1, else the smallest count the device supports at least as large (the largest one
/// when none is).
pub(crate) fn rounded_samples(device: &Device, requested: u32) -> u32 {
    if requested <= 1 {
        return 1;
    }
    let counts = device
        .caps()
        .limits
        .framebuffer_no_attachments_sample_counts
        .as_raw();
    (0..7)
        .map(|bit| 1u32 << bit)
        .find(|&n| n >= requested && counts & n != 0)
        .unwrap_or_else(|| max_framebuffer(device)[3])
}

impl Context {
    /// The framebuffer object a parameter command names through `target`: GL's errors for a
    /// bad target and for the default framebuffer.
    fn parameter_framebuffer(&self, target: GLenum) -> GlResult<u32> {
        let name = self.framebuffer_bound_to(target)?;
        if name == 0 {
            return invalid_op("the default framebuffer has no default-geometry parameters");
        }
        Ok(name)
    }

    /// `glFramebufferParameteri`.
    pub fn framebuffer_parameter(&mut self, target: GLenum, pname: GLenum, value: i32) {
        let r = (|| {
            let name = self.parameter_framebuffer(target)?;
            let [w, h, layers, samples] = max_framebuffer(&self.device);
            let limit = match pname {
                GL_FRAMEBUFFER_DEFAULT_WIDTH => w,
                GL_FRAMEBUFFER_DEFAULT_HEIGHT => h,
                GL_FRAMEBUFFER_DEFAULT_LAYERS => layers,
                GL_FRAMEBUFFER_DEFAULT_SAMPLES => samples,
                GL_FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS => u32::MAX,
                _ => return invalid_enum("glFramebufferParameteri pname", pname),
            };
            if value < 0 || value as u32 > limit {
                return invalid_value(format!("framebuffer parameter value {value}"));
            }
            let fb = self
                .framebuffers
                .get_mut(name)
                .ok_or_else(|| GlError::InvalidOperation("the bound framebuffer is gone".into()))?;
            let d = &mut fb.defaults;
            let v = value as u32;
            match pname {
                GL_FRAMEBUFFER_DEFAULT_WIDTH => d.width = v,
                GL_FRAMEBUFFER_DEFAULT_HEIGHT => d.height = v,
                GL_FRAMEBUFFER_DEFAULT_LAYERS => d.layers = v,
                GL_FRAMEBUFFER_DEFAULT_SAMPLES => d.samples = v,
                _ => d.fixed_locations = v != 0,
            }
            Ok(())
        })();
        self.record(r);
    }

    /// `glGetFramebufferParameteriv`: `None` (nothing written) on an error.
    pub fn get_framebuffer_parameter(&mut self, target: GLenum, pname: GLenum) -> Option<i32> {
        let r = (|| {
            // GL 4.5 table 9.2's sample queries answer for any framebuffer, the default too.
            if matches!(pname, GL_SAMPLES | GL_SAMPLE_BUFFERS) {
                let samples = self.framebuffer_samples(self.framebuffer_bound_to(target)?);
                return Ok(if pname == GL_SAMPLES {
                    samples as i32
                } else {
                    i32::from(samples > 1)
                });
            }
            let name = self.parameter_framebuffer(target)?;
            let d = self
                .framebuffers
                .get(name)
                .map(|fb| fb.defaults)
                .unwrap_or_default();
            Ok(match pname {
                GL_FRAMEBUFFER_DEFAULT_WIDTH => d.width as i32,
                GL_FRAMEBUFFER_DEFAULT_HEIGHT => d.height as i32,
                GL_FRAMEBUFFER_DEFAULT_LAYERS => d.layers as i32,
                GL_FRAMEBUFFER_DEFAULT_SAMPLES => d.samples as i32,
                GL_FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS => i32::from(d.fixed_locations),
                _ => return invalid_enum("glGetFramebufferParameteriv pname", pname),
            })
        })();
        self.record(r)
    }

    /// The `GL_MAX_FRAMEBUFFER_*` limits for `glGet`; `None` for other names.
    pub(crate) fn framebuffer_limit(&self, pname: GLenum) -> Option<i64> {
        if !supported(&self.device) {
            return None;
        }
        let [w, h, layers, samples] = max_framebuffer(&self.device);
        Some(i64::from(match pname {
            GL_MAX_FRAMEBUFFER_WIDTH => w,
            GL_MAX_FRAMEBUFFER_HEIGHT => h,
            GL_MAX_FRAMEBUFFER_LAYERS => layers,
            GL_MAX_FRAMEBUFFER_SAMPLES => samples,
            _ => return None,
        }))
    }
}
