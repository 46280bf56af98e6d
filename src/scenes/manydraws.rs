//! `manydraws`: 1000 small quads a frame, one draw each, each with its own `glUniform4f` colour
//! and `glUniformMatrix4fv` transform, its vertices streamed into the buffer with
//! `glBufferSubData` right before its draw (the pattern of immediate-mode emulators such as
//! Minecraft's tessellator). Face culling is on, with the winding of the quads and
//! `glFrontFace`/`glCullFace` varied so that a known third of the quads is culled.

use super::common::{float_attribute, Objects, POSITION};
use super::Scene;
use crate::glclient::gl::consts::*;
use crate::glclient::{program, Gl, GlClientError};
use crate::math;

const VS: &str = "#version 330 core
in vec2 position;
uniform mat4 transform;
void main() {
    gl_Position = transform * vec4(position, 0.0, 1.0);
}
";

const FS: &str = "#version 330 core
uniform vec4 color;
out vec4 frag_color;
void main() {
    frag_color = color;
}
";

const COLUMNS: u32 = 40;
const ROWS: u32 = 25;
/// Bytes of one quad's 6 vertices of 2 floats.
const QUAD_BYTES: usize = 6 * 2 * 4;

struct ManyDraws {
    objects: Objects,
    program: u32,
    vao: u32,
    color: i32,
    transform: i32,
}

/// Builds the scene.
pub fn build(gl: &Gl, _width: u32, _height: u32) -> Result<Box<dyn Scene>, GlClientError> {
    let mut objects = Objects::default();
    let program = objects.program(gl, "manydraws", VS, FS, &[(POSITION, c"position")])?;
    let color = program::uniform(gl, program, c"color")?;
    let transform = program::uniform(gl, program, c"transform")?;
    let vao = objects.vertex_array(gl);
    objects.buffer_uninit(
        gl,
        ARRAY_BUFFER,
        (COLUMNS * ROWS) as usize * QUAD_BYTES,
        STREAM_DRAW,
    );
    float_attribute(gl, POSITION, 2, 8, 0);
    gl.bind_vertex_array(0);
    Ok(Box::new(ManyDraws {
        objects,
        program,
        vao,
        color,
        transform,
    }))
}

/// Quad `i`'s vertices: counter-clockwise unless `clockwise`.
fn quad(i: u32, clockwise: bool) -> [f32; 12] {
    let w = 0.31 + 0.05 * (i % 3) as f32;
    let h = 0.33 + 0.04 * (i % 4) as f32;
    let ccw = [-w, -h, w, -h, w, h, w, h, -w, h, -w, -h];
    if !clockwise {
        return ccw;
    }
    let mut cw = [0.0; 12];
    for v in 0..6 {
        cw[v * 2] = ccw[(5 - v) * 2];
        cw[v * 2 + 1] = ccw[(5 - v) * 2 + 1];
    }
    cw
}

impl Scene for ManyDraws {
    fn render(&mut self, gl: &Gl, frame: u32) -> Result<(), GlClientError> {
        gl.clear_color(0.05, 0.05, 0.08, 1.0);
        gl.clear(COLOR_BUFFER_BIT);
        gl.use_program(self.program);
        gl.bind_vertex_array(self.vao);
        gl.enable(CULL_FACE);
        let (cell_w, cell_h) = (2.0 / COLUMNS as f32, 2.0 / ROWS as f32);
        for i in 0..COLUMNS * ROWS {
            let (col, row) = (i % COLUMNS, i / COLUMNS);
            // Rows 0..8: front CCW, cull back; rows 8..16: front CW, cull back; the rest:
            // front CCW, cull front. Every third quad is wound clockwise.
            let (front, cull) = match row {
                0..=7 => (CCW, BACK),
                8..=15 => (CW, BACK),
                _ => (CCW, FRONT),
            };
            if col == 0 {
                gl.front_face(front);
                gl.cull_face(cull);
            }
            let clockwise = i % 3 == 0;
            gl.buffer_sub_data(ARRAY_BUFFER, i as usize * QUAD_BYTES, &quad(i, clockwise));
            let x = -1.0 + cell_w * (col as f32 + 0.5) + 0.0013;
            let y = -1.0 + cell_h * (row as f32 + 0.5) + 0.0021;
            let angle = 0.02 * ((i + frame) % 7) as f32;
            let m = math::mul(
                &math::translate(x, y, 0.0),
                &math::mul(&math::rotate_z(angle), &math::scale(cell_w, cell_h, 1.0)),
            );
            gl.uniform_matrix4fv(self.transform, &[m]);
            gl.uniform4f(
                self.color,
                col as f32 / COLUMNS as f32,
                row as f32 / ROWS as f32,
                if clockwise { 1.0 } else { 0.35 },
                1.0,
            );
            // SAFETY: the buffer holds COLUMNS × ROWS quads of 6 vertices; this draws quad i.
            unsafe { gl.draw_arrays(TRIANGLES, (i * 6) as i32, 6) };
            if i % 250 == 249 {
                gl.flush();
            }
        }
        gl.disable(CULL_FACE);
        gl.front_face(CCW);
        gl.cull_face(BACK);
        Ok(())
    }

    fn release(&mut self, gl: &Gl) {
        self.objects.release(gl);
    }
}
