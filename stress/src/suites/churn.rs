//! Texture and buffer churn: every frame 16 textures are created, uploaded, drawn from and
//! deleted (their sides cycling through half, once and twice a base size, about 3/4 of the
//! frame's churn bytes), 8 vertex buffers likewise (the other 1/4), and one long-lived buffer is
//! re-specified with `glBufferData` at a new size. Each object is deleted right after the draw
//! that uses it, while that draw is still in flight: the deferred-release path on every object.

use arenagl_glclient::gl::consts::*;
use arenagl_glclient::{Gl, Session};

use super::{begin_frame, Workload};
use crate::config::Sizes;
use crate::draw::{
    blocks, cell, quad_grid, ArenaVertex, MeshDrawer, QuadDrawer, ARENA_VERTEX_BYTES,
};
use crate::StressError;

/// Textures created and deleted a frame.
const TEXTURES: usize = 16;
/// Buffers created and deleted a frame.
const BUFFERS: usize = 8;

pub(super) struct Churn {
    quad: QuadDrawer,
    mesh: MeshDrawer,
    /// The buffer re-specified every frame.
    respecified: u32,
    base_side: u32,
    buffer_vertices: usize,
}

impl Churn {
    pub(super) fn new(gl: &Gl, sizes: &Sizes) -> Result<Churn, StressError> {
        let texture_bytes = sizes.churn_bytes * 3 / 4 / TEXTURES;
        let side = ((texture_bytes / 4) as f64).sqrt().max(16.0);
        let base_side = 1u32 << (side.log2().floor() as u32);
        let buffer_vertices = (sizes.churn_bytes / 4 / BUFFERS / ARENA_VERTEX_BYTES).max(6);
        let respecified = gl.gen_buffer();
        let mesh = MeshDrawer::new(gl, respecified)?;
        Ok(Churn {
            quad: QuadDrawer::new(gl)?,
            mesh,
            respecified,
            base_side,
            buffer_vertices,
        })
    }
}

impl Workload for Churn {
    fn frame(&mut self, session: &mut Session, frame: u32, _last: bool) -> Result<(), StressError> {
        let (width, height) = session.surface_size()?;
        let gl = session.gl();
        begin_frame(gl, width, height);
        // Textures: the left half of the surface, a 4 × 8 grid's left 4 × 4.
        self.quad.begin(gl);
        for i in 0..TEXTURES {
            let side = match (frame as usize + i) % 3 {
                0 => (self.base_side / 2).max(8),
                1 => self.base_side,
                _ => self.base_side * 2,
            };
            let texture = gl.gen_texture();
            gl.bind_texture(TEXTURE_2D, texture);
            gl.tex_parameter_i(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as i32);
            gl.tex_parameter_i(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as i32);
            gl.tex_image_rgba8(
                TEXTURE_2D,
                0,
                side,
                side,
                Some(&blocks(side, frame << 8 ^ i as u32)),
            )?;
            let at = cell(i / 4 * 8 + i % 4, 8, 4);
            self.quad.draw(gl, texture, at, [1.0; 4]);
            gl.delete_texture(texture);
        }
        // Buffers: the right half's top three rows.
        let mut vertices: Vec<ArenaVertex> = vec![[0; 3]; self.buffer_vertices];
        for i in 0..BUFFERS {
            let drawn = quad_grid(&mut vertices, frame << 12 ^ (i as u32) << 4);
            let buffer = gl.gen_buffer();
            self.mesh.point_at(gl, buffer);
            gl.buffer_data(ARRAY_BUFFER, &vertices, STATIC_DRAW);
            self.mesh
                .placed
                .place(gl, cell(i / 4 * 8 + 4 + i % 4, 8, 4), [1.0; 4]);
            // SAFETY: the VAO reads `buffer`, which holds `vertices.len()` ≥ `drawn` vertices.
            unsafe { gl.draw_arrays(TRIANGLES, 0, drawn as i32) };
            gl.delete_buffer(buffer);
        }
        // The re-specified buffer: a new size each frame (between a half and once and a half the
        // churn buffers'), drawn in the last row's right half.
        let len = self.buffer_vertices / 2 + (frame as usize * 7919) % self.buffer_vertices.max(1);
        let mut respecified: Vec<ArenaVertex> = vec![[0; 3]; len.max(6)];
        let drawn = quad_grid(&mut respecified, frame.wrapping_mul(31) ^ 0xABCD);
        self.mesh.point_at(gl, self.respecified);
        gl.buffer_data(ARRAY_BUFFER, &respecified, DYNAMIC_DRAW);
        self.mesh.placed.place(gl, cell(3 * 8 + 4, 8, 4), [1.0; 4]);
        // SAFETY: the VAO reads the re-specified buffer, which holds ≥ `drawn` vertices.
        unsafe { gl.draw_arrays(TRIANGLES, 0, drawn as i32) };
        Ok(())
    }

    fn release(&mut self, gl: &Gl) {
        self.quad.release(gl);
        self.mesh.release(gl);
        gl.delete_buffer(self.respecified);
    }
}
