//! `instanced`: a grid of quads from one small vertex buffer and per-instance attributes
//! (an offset with divisor 1, a colour with divisor 2), and an integer `kind` fed with
//! `glVertexAttribIPointer` that the shaders read as an `int` (shape and shade). The top half is
//! `glDrawArraysInstanced`, the bottom half `glDrawElementsInstanced`.

use super::common::{float_attribute, Objects, COLOR, EXTRA, INTEGER, POSITION};
use super::Scene;
use crate::glclient::gl::consts::*;
use crate::glclient::{Gl, GlClientError};

const VS: &str = "#version 330 core
in vec2 position;
in vec3 color;
in vec2 offset;
in int kind;
out vec3 v_color;
flat out int v_kind;
void main() {
    float size = (kind % 3 == 0) ? 1.0 : ((kind % 3 == 1) ? 0.75 : 0.5);
    v_color = color;
    v_kind = kind;
    gl_Position = vec4(position * size + offset, 0.0, 1.0);
}
";

const FS: &str = "#version 330 core
in vec3 v_color;
flat in int v_kind;
out vec4 frag_color;
void main() {
    float shade = ((v_kind / 3) % 2 == 0) ? 1.0 : 0.55;
    frag_color = vec4(v_color * shade, 1.0);
}
";

/// Instances per side of each half's grid.
const SIDE: usize = 8;
/// Instances of a half.
const HALF: usize = SIDE * SIDE / 2;

struct Instanced {
    objects: Objects,
    program: u32,
    arrays_vao: u32,
    elements_vao: u32,
}

/// Per-instance attributes: offset (2 floats), colour (3 floats), kind (1 int), 24 bytes each.
fn instance_data(first_row: usize, rows: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for row in first_row..first_row + rows {
        for col in 0..SIDE {
            let i = row * SIDE + col;
            let x = -0.875 + 0.25 * col as f32 + 0.0113;
            let y = -0.875 + 0.25 * row as f32 + 0.0071;
            let rgb = [
                0.3 + 0.7 * (col as f32 / (SIDE - 1) as f32),
                0.3 + 0.7 * (row as f32 / (SIDE - 1) as f32),
                if i % 2 == 0 { 0.9 } else { 0.2 },
            ];
            for v in [x, y, rgb[0], rgb[1], rgb[2]] {
                out.extend_from_slice(&v.to_ne_bytes());
            }
            out.extend_from_slice(&((i * 7 % 6) as i32).to_ne_bytes());
        }
    }
    out
}

/// Binds the per-instance attributes of the bound array buffer.
fn instance_attributes(gl: &Gl) {
    float_attribute(gl, EXTRA, 2, 24, 0);
    gl.vertex_attrib_divisor(EXTRA, 1);
    float_attribute(gl, COLOR, 3, 24, 8);
    // Divisor 2: a colour per pair of instances (VK_EXT_vertex_attribute_divisor in ArenaGL).
    gl.vertex_attrib_divisor(COLOR, 2);
    gl.enable_vertex_attrib_array(INTEGER);
    gl.vertex_attrib_i_pointer(INTEGER, 1, INT, 24, 20);
    gl.vertex_attrib_divisor(INTEGER, 1);
}

/// Builds the scene.
pub fn build(gl: &Gl, _width: u32, _height: u32) -> Result<Box<dyn Scene>, GlClientError> {
    let mut objects = Objects::default();
    let program = objects.program(
        gl,
        "instanced",
        VS,
        FS,
        &[
            (POSITION, c"position"),
            (COLOR, c"color"),
            (EXTRA, c"offset"),
            (INTEGER, c"kind"),
        ],
    )?;
    let kind = gl.attrib_location(program, c"kind");
    if kind != INTEGER as i32 {
        return Err(GlClientError::Usage(format!(
            "instanced: attribute `kind` is at {kind}, bound to {INTEGER}"
        )));
    }
    // A quad of half-size 0.09 (about 11.5 px at 256²), as two triangles for the arrays draw
    // and as 4 corners for the indexed one.
    let h = 0.09f32;
    let triangles: [f32; 12] = [-h, -h, h, -h, h, h, h, h, -h, h, -h, -h];
    let corners: [f32; 8] = [-h, -h, h, -h, h, h, -h, h];
    let indices: [u16; 6] = [0, 1, 2, 2, 3, 0];

    let arrays_vao = objects.vertex_array(gl);
    objects.buffer(gl, ARRAY_BUFFER, &triangles, STATIC_DRAW);
    float_attribute(gl, POSITION, 2, 8, 0);
    objects.buffer(
        gl,
        ARRAY_BUFFER,
        &instance_data(SIDE / 2, SIDE / 2),
        STATIC_DRAW,
    );
    instance_attributes(gl);

    let elements_vao = objects.vertex_array(gl);
    objects.buffer(gl, ARRAY_BUFFER, &corners, STATIC_DRAW);
    float_attribute(gl, POSITION, 2, 8, 0);
    objects.buffer(gl, ARRAY_BUFFER, &instance_data(0, SIDE / 2), STATIC_DRAW);
    instance_attributes(gl);
    objects.buffer(gl, ELEMENT_ARRAY_BUFFER, &indices, STATIC_DRAW);
    // Enabled then disabled: the draw must not fetch it.
    gl.enable_vertex_attrib_array(5);
    gl.disable_vertex_attrib_array(5);
    gl.bind_vertex_array(0);
    Ok(Box::new(Instanced {
        objects,
        program,
        arrays_vao,
        elements_vao,
    }))
}

impl Scene for Instanced {
    fn render(&mut self, gl: &Gl, _frame: u32) -> Result<(), GlClientError> {
        gl.clear_color(0.0, 0.0, 0.0, 1.0);
        gl.clear(COLOR_BUFFER_BIT);
        gl.use_program(self.program);
        // SAFETY: each VAO's vertex buffer holds the 6 (or 4 indexed) vertices, its instance
        // buffer HALF instances, and the element buffer 6 u16 indices below 4.
        unsafe {
            gl.bind_vertex_array(self.arrays_vao);
            gl.draw_arrays_instanced(TRIANGLES, 0, 6, HALF as i32);
            gl.bind_vertex_array(self.elements_vao);
            gl.draw_elements_instanced(TRIANGLES, 6, UNSIGNED_SHORT, 0, HALF as i32);
        }
        Ok(())
    }

    fn release(&mut self, gl: &Gl) {
        self.objects.release(gl);
    }
}
