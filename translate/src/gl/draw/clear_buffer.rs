//! `glClearBuffer{fv,iv,uiv,fi}`: one draw buffer's colour, or the depth and/or stencil buffer,
//! cleared to explicit values.
//!
//! Design decisions:
//! - Validation only lives here (GL 4.6 §17.4.3.1 / 3.3 §4.2.3): which `buffer` each variant
//!   accepts (`GL_INVALID_ENUM` otherwise), `drawbuffer` in range for `GL_COLOR` and zero for
//!   the others (`GL_INVALID_VALUE`), a complete draw framebuffer. The clear itself is
//!   `Context::clear_target`, the same path as `glClear`, so the scissor, the colour masks, the
//!   depth mask, the stencil write mask, rasterizer discard and conditional rendering apply
//!   exactly as they do there.
//! - `drawbuffer` is a draw-buffer slot, not an attachment: the slot's attachment is whatever
//!   `glDrawBuffers` routed to it, and a slot set to `GL_NONE` clears nothing.
//! - Values are passed as the variant gives them (float, signed or unsigned integer bits); GL
//!   leaves a mismatch with the buffer's kind undefined.

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_value, GlError, GlResult};
use crate::gl::context::Context;
use crate::gl::draw::{ClearColor, ClearRequest};

impl Context {
    /// `glClearBufferfv`: `GL_COLOR` (4 floats) or `GL_DEPTH` (1).
    pub fn clear_buffer_fv(&mut self, buffer: GLenum, drawbuffer: i32, value: &[f32]) {
        let max = self.max_draw_buffers();
        let r = match buffer {
            GL_COLOR => color(max, drawbuffer, value, ClearColor::Float),
            GL_DEPTH => single(buffer, drawbuffer, value)
                .map(|depth| depth.map(|d| depth_stencil(Some(d), None))),
            b => invalid_enum("glClearBufferfv buffer", b),
        };
        self.clear_with(r);
    }

    /// `glClearBufferiv`: `GL_COLOR` (4 signed integers) or `GL_STENCIL` (1).
    pub fn clear_buffer_iv(&mut self, buffer: GLenum, drawbuffer: i32, value: &[i32]) {
        let max = self.max_draw_buffers();
        let r = match buffer {
            GL_COLOR => color(max, drawbuffer, value, ClearColor::Int),
            GL_STENCIL => single(buffer, drawbuffer, value)
                .map(|stencil| stencil.map(|s| depth_stencil(None, Some(s as u32)))),
            b => invalid_enum("glClearBufferiv buffer", b),
        };
        self.clear_with(r);
    }

    /// `glClearBufferuiv`: `GL_COLOR` only (4 unsigned integers).
    pub fn clear_buffer_uiv(&mut self, buffer: GLenum, drawbuffer: i32, value: &[u32]) {
        let max = self.max_draw_buffers();
        let r = match buffer {
            GL_COLOR => color(max, drawbuffer, value, ClearColor::Uint),
            b => invalid_enum("glClearBufferuiv buffer", b),
        };
        self.clear_with(r);
    }

    /// `glClearBufferfi`: `GL_DEPTH_STENCIL` only.
    pub fn clear_buffer_fi(&mut self, buffer: GLenum, drawbuffer: i32, depth: f32, stencil: i32) {
        let r = (|| {
            if buffer != GL_DEPTH_STENCIL {
                return invalid_enum("glClearBufferfi buffer", buffer);
            }
            zero_drawbuffer(buffer, drawbuffer)?;
            Ok(Some(depth_stencil(Some(depth), Some(stencil as u32))))
        })();
        self.clear_with(r);
    }

    /// Clears a validated request in the draw framebuffer (None: nothing to clear).
    fn clear_with(&mut self, request: GlResult<Option<ClearRequest>>) {
        let r = (|| {
            let Some(request) = request? else {
                return Ok(());
            };
            // The bound one, or a DSA command's (`glClearNamedFramebuffer*`).
            let fb = self.framebuffer_bound_to(GL_DRAW_FRAMEBUFFER)?;
            let target = self.resolve_framebuffer(fb, true).map_err(|status| {
                GlError::InvalidFramebuffer(format!(
                    "glClearBuffer: the draw framebuffer is not complete (status 0x{status:04X})"
                ))
            })?;
            self.clear_target(&target, request)
        })();
        self.record(r);
    }
}

/// A `GL_COLOR` clear of draw buffer `drawbuffer` (below `max_draw_buffers`) to the four
/// values of `value`, as `kind` takes them (`None`, nothing to clear, when there are not four).
fn color<T: Copy>(
    max_draw_buffers: u32,
    drawbuffer: i32,
    value: &[T],
    kind: fn([T; 4]) -> ClearColor,
) -> GlResult<Option<ClearRequest>> {
    let slot = color_slot(max_draw_buffers, drawbuffer)?;
    Ok(<[T; 4]>::try_from(value).ok().map(|c| ClearRequest {
        colors: vec![(slot, kind(c))],
        depth: None,
        stencil: None,
    }))
}

/// The one value of a depth or stencil clear (`None`, nothing to clear, when there is none).
fn single<T: Copy>(buffer: GLenum, drawbuffer: i32, value: &[T]) -> GlResult<Option<T>> {
    zero_drawbuffer(buffer, drawbuffer)?;
    Ok(value.first().copied())
}

/// A request that clears depth and stencil, or either of them, and no colour.
fn depth_stencil(depth: Option<f32>, stencil: Option<u32>) -> ClearRequest {
    ClearRequest {
        colors: Vec::new(),
        depth,
        stencil,
    }
}

/// A `GL_COLOR` draw buffer index: `GL_INVALID_VALUE` outside `0..GL_MAX_DRAW_BUFFERS`
/// (`max_draw_buffers`, the device's, which a profile may clamp below the state arrays').
fn color_slot(max_draw_buffers: u32, drawbuffer: i32) -> GlResult<usize> {
    match u32::try_from(drawbuffer) {
        Ok(i) if i < max_draw_buffers => Ok(i as usize),
        _ => invalid_value(format!("glClearBuffer draw buffer {drawbuffer}")),
    }
}

/// Depth and stencil clears name draw buffer 0 (`GL_INVALID_VALUE` otherwise).
fn zero_drawbuffer(buffer: GLenum, drawbuffer: i32) -> GlResult<()> {
    if drawbuffer != 0 {
        return invalid_value(format!(
            "glClearBuffer of 0x{buffer:04X} with draw buffer {drawbuffer} (must be 0)"
        ));
    }
    Ok(())
}
