//! `indexed`: three copies of a coloured grid patch in one vertex buffer, drawn with
//! `glDrawElements` (u16 indices for the first half of the patch's triangles, u8 for the second),
//! `glDrawElementsBaseVertex` (u32 indices, base vertex selects the second copy) and
//! `glDrawRangeElements` (u32 absolute indices into the third).

use super::common::{float_attribute, Objects, COLOR, POSITION};
use super::Scene;
use crate::glclient::gl::consts::*;
use crate::glclient::{Gl, GlClientError};

const VS: &str = "#version 330 core
in vec2 position;
in vec3 color;
out vec3 v_color;
void main() {
    v_color = color;
    gl_Position = vec4(position, 0.0, 1.0);
}
";

const FS: &str = "#version 330 core
in vec3 v_color;
out vec4 frag_color;
void main() {
    frag_color = vec4(v_color, 1.0);
}
";

/// Cells per side of a patch.
const CELLS: u32 = 6;
/// Vertices of a patch.
const PATCH_VERTICES: u32 = (CELLS + 1) * (CELLS + 1);
/// Indices of a patch.
const PATCH_INDICES: u32 = CELLS * CELLS * 6;
/// The u16 draw covers this many indices (whole triangles); u8 indices draw the rest.
const HALF_INDICES: u32 = PATCH_INDICES / 6 * 3;
const _: () = assert!(PATCH_VERTICES <= 256, "u8 indices must reach every vertex");

struct Indexed {
    objects: Objects,
    program: u32,
    vao: u32,
    /// Byte offsets of the u8 second-half, the u32 patch-local and the u32 absolute index lists.
    local8_offset: usize,
    local32_offset: usize,
    absolute32_offset: usize,
}

/// The patch's indices, `first` added to each.
fn patch_indices(first: u32) -> Vec<u32> {
    let mut out = Vec::with_capacity(PATCH_INDICES as usize);
    for y in 0..CELLS {
        for x in 0..CELLS {
            let i = first + y * (CELLS + 1) + x;
            let up = i + CELLS + 1;
            out.extend_from_slice(&[i, i + 1, up + 1, up + 1, up, i]);
        }
    }
    out
}

/// Builds the scene.
pub fn build(gl: &Gl, _width: u32, _height: u32) -> Result<Box<dyn Scene>, GlClientError> {
    let mut objects = Objects::default();
    let program = objects.program(
        gl,
        "indexed",
        VS,
        FS,
        &[(POSITION, c"position"), (COLOR, c"color")],
    )?;
    let vao = objects.vertex_array(gl);
    // Three patches: bottom-left, bottom-right, top-centre; slightly warped so the cells are not
    // axis-aligned squares.
    let origins = [(-0.93f32, -0.91f32), (0.07, -0.89), (-0.43, 0.09)];
    let mut vertices: Vec<f32> = Vec::new();
    for (p, (ox, oy)) in origins.iter().enumerate() {
        for y in 0..=CELLS {
            for x in 0..=CELLS {
                let fx = x as f32 / CELLS as f32;
                let fy = y as f32 / CELLS as f32;
                let px = ox + 0.83 * fx + 0.05 * fy;
                let py = oy + 0.79 * fy + 0.04 * fx * fx;
                let checker = ((x + y + p as u32) % 2) as f32;
                vertices.extend_from_slice(&[
                    px,
                    py,
                    0.2 + 0.8 * fx,
                    0.3 + 0.4 * checker,
                    0.2 + 0.8 * fy,
                ]);
            }
        }
    }
    objects.buffer(gl, ARRAY_BUFFER, &vertices, STATIC_DRAW);
    float_attribute(gl, POSITION, 2, 20, 0);
    float_attribute(gl, COLOR, 3, 20, 8);

    // One element buffer: u16 patch-local, then u32 patch-local, then u32 absolute (patch 2).
    let local16: Vec<u16> = patch_indices(0).iter().map(|&i| i as u16).collect();
    let local32 = patch_indices(0);
    let absolute32 = patch_indices(2 * PATCH_VERTICES);
    let mut bytes: Vec<u8> = Vec::new();
    bytes.extend(local16.iter().flat_map(|i| i.to_ne_bytes()));
    // The second half of the patch again as u8 indices (the patch has under 256 vertices).
    let local8_offset = bytes.len();
    bytes.extend(local16[HALF_INDICES as usize..].iter().map(|&i| i as u8));
    while bytes.len() % 4 != 0 {
        bytes.push(0);
    }
    let local32_offset = bytes.len();
    bytes.extend(local32.iter().flat_map(|i| i.to_ne_bytes()));
    let absolute32_offset = bytes.len();
    bytes.extend(absolute32.iter().flat_map(|i| i.to_ne_bytes()));
    objects.buffer(gl, ELEMENT_ARRAY_BUFFER, &bytes, STATIC_DRAW);
    gl.bind_vertex_array(0);
    Ok(Box::new(Indexed {
        objects,
        program,
        vao,
        local8_offset,
        local32_offset,
        absolute32_offset,
    }))
}

impl Scene for Indexed {
    fn render(&mut self, gl: &Gl, _frame: u32) -> Result<(), GlClientError> {
        gl.clear_color(0.05, 0.05, 0.05, 1.0);
        gl.clear(COLOR_BUFFER_BIT);
        gl.use_program(self.program);
        gl.bind_vertex_array(self.vao);
        let count = PATCH_INDICES as i32;
        // SAFETY: the element buffer (the VAO's) holds each list at its offset, and every index
        // (after the base vertex) names one of the 3 patches' vertices in the array buffer.
        unsafe {
            gl.draw_elements(TRIANGLES, HALF_INDICES as i32, UNSIGNED_SHORT, 0);
            gl.draw_elements(
                TRIANGLES,
                count - HALF_INDICES as i32,
                UNSIGNED_BYTE,
                self.local8_offset,
            );
            gl.draw_elements_base_vertex(
                TRIANGLES,
                count,
                UNSIGNED_INT,
                self.local32_offset,
                PATCH_VERTICES as i32,
            );
            gl.draw_range_elements(
                TRIANGLES,
                2 * PATCH_VERTICES,
                3 * PATCH_VERTICES - 1,
                count,
                UNSIGNED_INT,
                self.absolute32_offset,
            );
        }
        Ok(())
    }

    fn release(&mut self, gl: &Gl) {
        self.objects.release(gl);
    }
}
