//! The chunk-mesh arena: one vertex buffer of 64 fixed slots (64 MiB × S), allocated once with
//! `glBufferData(NULL)`, filled at setup; every frame an eighth of the slots (8 chunks) are
//! re-meshed and rewritten with `glBufferSubData`, so the whole arena streams every 8 frames,
//! and all 64 chunks are drawn, one draw each with per-draw uniforms (placement and tint).

use arenagl_glclient::gl::consts::*;
use arenagl_glclient::{Gl, Session};

use super::{begin_frame, Workload};
use crate::config::{Sizes, ARENA_SLOTS};
use crate::draw::{cell, quad_grid, ArenaVertex, MeshDrawer, ARENA_VERTEX_BYTES};
use crate::StressError;

/// Chunks re-meshed per frame.
const CHANGED_PER_FRAME: usize = ARENA_SLOTS / 8;

pub(super) struct Arena {
    buffer: u32,
    mesh: MeshDrawer,
    slot_vertices: usize,
    /// Vertices drawn per slot (whole quads).
    drawn: usize,
    scratch: Vec<ArenaVertex>,
}

impl Arena {
    pub(super) fn new(gl: &Gl, sizes: &Sizes) -> Result<Arena, StressError> {
        let buffer = gl.gen_buffer();
        gl.bind_buffer(ARRAY_BUFFER, buffer);
        gl.buffer_storage_uninit(ARRAY_BUFFER, sizes.arena_bytes, DYNAMIC_DRAW);
        let mesh = MeshDrawer::new(gl, buffer)?;
        let slot_vertices = sizes.slot_vertices();
        let mut arena = Arena {
            buffer,
            mesh,
            slot_vertices,
            drawn: 0,
            scratch: vec![[0; 3]; slot_vertices],
        };
        for slot in 0..ARENA_SLOTS {
            arena.remesh(gl, slot, 0);
        }
        Ok(arena)
    }

    /// Re-meshes chunk `slot` for frame `frame` and writes it into its slot.
    fn remesh(&mut self, gl: &Gl, slot: usize, frame: u32) {
        self.drawn = quad_grid(&mut self.scratch, (slot as u32) << 20 ^ frame);
        gl.bind_buffer(ARRAY_BUFFER, self.buffer);
        gl.buffer_sub_data(
            ARRAY_BUFFER,
            slot * self.slot_vertices * ARENA_VERTEX_BYTES,
            &self.scratch,
        );
    }
}

impl Workload for Arena {
    fn frame(&mut self, session: &mut Session, frame: u32, _last: bool) -> Result<(), StressError> {
        let (width, height) = session.surface_size()?;
        let gl = session.gl();
        for j in 0..CHANGED_PER_FRAME {
            let slot = (frame as usize * CHANGED_PER_FRAME + j) % ARENA_SLOTS;
            self.remesh(gl, slot, frame + 1);
        }
        begin_frame(gl, width, height);
        self.mesh.begin(gl);
        for slot in 0..ARENA_SLOTS {
            let fade = 0.6 + 0.4 * ((slot as u32 + frame) % 8) as f32 / 7.0;
            self.mesh
                .placed
                .place(gl, cell(slot, 8, 8), [fade, fade, fade, 1.0]);
            // SAFETY: the VAO reads the arena, which holds ARENA_SLOTS × slot_vertices vertices;
            // this draw reads slot `slot`'s first `drawn` ≤ slot_vertices of them.
            unsafe {
                gl.draw_arrays(
                    TRIANGLES,
                    (slot * self.slot_vertices) as i32,
                    self.drawn as i32,
                )
            };
        }
        Ok(())
    }

    fn release(&mut self, gl: &Gl) {
        self.mesh.release(gl);
        gl.delete_buffer(self.buffer);
    }
}
