//! The resize storm: every frame the surface takes a new size (a deterministic walk between 16
//! texels and twice the configured size a side, as a window being dragged, maximised and
//! restored), and a frame is drawn at the size the surface has; the last frame is at the
//! configured size, so final frames compare.
//!
//! - On a pbuffer session the surface is replaced by a pbuffer of the new size; every replaced
//!   surface's images are retired while the previous frame may still be in flight.
//! - On a window session (`--window`) the X11 window itself is resized (`XResizeWindow`), as a
//!   user would; the EGL surface follows at a frame boundary, when the library rebuilds its
//!   swapchain, so a frame draws at the size `EGL_WIDTH`/`EGL_HEIGHT` report then (one frame
//!   behind the window at most, as in any program that asks each frame). Before the last frame
//!   the suite presents until the surface has the configured size.

use arenagl_glclient::gl::consts::*;
use arenagl_glclient::{Gl, Session};

use super::{begin_frame, Workload};
use crate::draw::{blocks, cell, hash, QuadDrawer};
use crate::StressError;

pub(super) struct Resize {
    quad: QuadDrawer,
    texture: u32,
    width: u32,
    height: u32,
}

impl Resize {
    pub(super) fn new(gl: &Gl, width: u32, height: u32) -> Result<Resize, StressError> {
        let quad = QuadDrawer::new(gl)?;
        let texture = gl.gen_texture();
        gl.bind_texture(TEXTURE_2D, texture);
        gl.tex_parameter_i(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as i32);
        gl.tex_parameter_i(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as i32);
        gl.tex_image_rgba8(TEXTURE_2D, 0, 64, 64, Some(&blocks(64, 0x5EED)))?;
        Ok(Resize {
            quad,
            texture,
            width,
            height,
        })
    }

    /// Frame `frame`'s surface size.
    fn size(&self, frame: u32, last: bool) -> (u32, u32) {
        if last {
            return (self.width, self.height);
        }
        let side =
            |limit: u32, salt: u32| 16 + hash(frame.wrapping_mul(2) ^ salt) % (2 * limit - 15);
        (side(self.width, 0x1000), side(self.height, 0x2000))
    }
}

/// Frames a window surface may take to follow its window before the suite gives up.
const SETTLE_FRAMES: u32 = 8;

/// Presents cleared frames until the window surface is `width` × `height`.
fn settle(session: &mut Session, width: u32, height: u32) -> Result<(), StressError> {
    for _ in 0..SETTLE_FRAMES {
        let (w, h) = session.surface_size()?;
        if (w, h) == (width, height) {
            return Ok(());
        }
        begin_frame(session.gl(), w, h);
        session.swap_buffers()?;
    }
    let (w, h) = session.surface_size()?;
    if (w, h) == (width, height) {
        return Ok(());
    }
    Err(StressError::Usage(format!(
        "the window surface is still {w}×{h} after {SETTLE_FRAMES} frames at {width}×{height}"
    )))
}

impl Workload for Resize {
    fn frame(&mut self, session: &mut Session, frame: u32, last: bool) -> Result<(), StressError> {
        let (width, height) = self.size(frame, last);
        if session.is_window() {
            session.resize_window(width, height)?;
            if last {
                settle(session, width, height)?;
            }
        } else {
            session.resize_pbuffer(width, height)?;
        }
        let (width, height) = session.surface_size()?;
        let gl = session.gl();
        begin_frame(gl, width, height);
        self.quad.begin(gl);
        for i in 0..9 {
            let tint = [1.0, 0.5 + 0.05 * i as f32, 1.0 - 0.05 * i as f32, 1.0];
            self.quad.draw(gl, self.texture, cell(i, 3, 3), tint);
        }
        Ok(())
    }

    fn release(&mut self, gl: &Gl) {
        self.quad.release(gl);
        gl.delete_texture(self.texture);
    }
}
