//! The resize storm: every frame the surface is replaced by a pbuffer of a new size (a
//! deterministic walk between 16 texels and twice the configured size a side, as a window being
//! dragged, maximised and restored), and a frame is drawn at that size; the last frame is at the
//! configured size, so final frames compare. Every replaced surface's images are retired while
//! the previous frame may still be in flight.
//!
//! Window surfaces (an X11 window resized under Xvfb) are not part of this suite yet; the
//! presenter's window path has its own tests (`tests/x11_window.rs`).

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

impl Workload for Resize {
    fn frame(&mut self, session: &mut Session, frame: u32, last: bool) -> Result<(), StressError> {
        let (width, height) = self.size(frame, last);
        session.resize_pbuffer(width, height)?;
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
