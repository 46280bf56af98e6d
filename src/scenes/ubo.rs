//! `ubo`: a `layout(std140) uniform Params` block fed from a uniform buffer holding two copies of
//! the block: the first bound whole with `glBindBufferBase`, the second (rewritten each frame
//! through `glMapBufferRange`) with `glBindBufferRange` at `GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT`;
//! the block reaches binding 2 through `glUniformBlockBinding`. Loose uniforms beside it: a
//! `mat4`, a `vec4[2]` (`glUniform4fv`), a `vec3`, a `float` and an `int`.

use super::common::{float_attribute, Objects, POSITION};
use super::Scene;
use crate::glclient::gl::consts::*;
use crate::glclient::{program, Gl, GlClientError};
use crate::math;

const VS: &str = "#version 330 core
layout(std140) uniform Params {
    vec4 tint;
    vec4 offsets[4];
    float scale;
};
uniform mat4 transform;
uniform int pick;
in vec2 position;
void main() {
    vec4 p = transform * vec4(position * scale, 0.0, 1.0);
    gl_Position = vec4(p.xy + offsets[pick].xy, 0.0, 1.0);
}
";

const FS: &str = "#version 330 core
layout(std140) uniform Params {
    vec4 tint;
    vec4 offsets[4];
    float scale;
};
uniform vec4 bands[2];
uniform vec3 shade;
uniform float fade;
uniform int pick;
out vec4 frag_color;
void main() {
    vec4 band = bands[pick % 2];
    frag_color = vec4(tint.rgb * shade * fade + band.rgb * band.a, 1.0);
}
";

/// The block's std140 size: tint (16) + offsets (4 × 16) + scale (4), padded to 16.
const BLOCK_BYTES: usize = 96;
/// The binding point the block uses.
const BINDING: u32 = 2;

/// One std140 `Params` block.
fn block(tint: [f32; 4], x0: f32, y0: f32, scale: f32) -> Vec<f32> {
    let mut out = Vec::with_capacity(BLOCK_BYTES / 4);
    out.extend_from_slice(&tint);
    for (dx, dy) in [(0.0, 0.0), (0.42, 0.0), (0.0, 0.43), (0.42, 0.43)] {
        out.extend_from_slice(&[x0 + dx, y0 + dy, 0.0, 0.0]);
    }
    out.extend_from_slice(&[scale, 0.0, 0.0, 0.0]);
    out.resize(BLOCK_BYTES / 4, 0.0);
    out
}

struct Ubo {
    objects: Objects,
    program: u32,
    vao: u32,
    ubo: u32,
    second_offset: usize,
    uniforms: [i32; 5],
}

/// Builds the scene.
pub fn build(gl: &Gl, _width: u32, _height: u32) -> Result<Box<dyn Scene>, GlClientError> {
    let mut objects = Objects::default();
    let program = objects.program(gl, "ubo", VS, FS, &[(POSITION, c"position")])?;
    let index = gl.uniform_block_index(program, c"Params");
    if index == INVALID_INDEX {
        return Err(GlClientError::Usage(
            "ubo: glGetUniformBlockIndex(Params) is GL_INVALID_INDEX".into(),
        ));
    }
    gl.uniform_block_binding(program, index, BINDING);
    let uniforms = [
        program::uniform(gl, program, c"transform")?,
        program::uniform(gl, program, c"pick")?,
        program::uniform(gl, program, c"bands")?,
        program::uniform(gl, program, c"shade")?,
        program::uniform(gl, program, c"fade")?,
    ];
    let alignment = gl.integer(UNIFORM_BUFFER_OFFSET_ALIGNMENT).max(1) as usize;
    let second_offset = BLOCK_BYTES.div_ceil(alignment) * alignment;
    let ubo = objects.buffer_uninit(
        gl,
        UNIFORM_BUFFER,
        second_offset + BLOCK_BYTES,
        DYNAMIC_DRAW,
    );
    gl.buffer_sub_data(
        UNIFORM_BUFFER,
        0,
        &block([0.9, 0.4, 0.2, 1.0], -0.83, -0.79, 0.17),
    );

    let vao = objects.vertex_array(gl);
    let quad: [f32; 12] = [
        -1.0, -1.0, 1.0, -1.0, 1.0, 1.0, 1.0, 1.0, -1.0, 1.0, -1.0, -1.0,
    ];
    objects.buffer(gl, ARRAY_BUFFER, &quad, STATIC_DRAW);
    float_attribute(gl, POSITION, 2, 8, 0);
    gl.bind_vertex_array(0);
    Ok(Box::new(Ubo {
        objects,
        program,
        vao,
        ubo,
        second_offset,
        uniforms,
    }))
}

impl Scene for Ubo {
    fn render(&mut self, gl: &Gl, frame: u32) -> Result<(), GlClientError> {
        let [transform, pick, bands, shade, fade] = self.uniforms;
        gl.clear_color(0.02, 0.02, 0.05, 1.0);
        gl.clear(COLOR_BUFFER_BIT);
        gl.bind_buffer(UNIFORM_BUFFER, self.ubo);
        let tint = [0.2, 0.5 + 0.1 * (frame % 4) as f32, 0.9, 1.0];
        gl.write_mapped(
            UNIFORM_BUFFER,
            self.second_offset,
            &block(tint, 0.09, 0.11, 0.15),
        )?;
        gl.use_program(self.program);
        gl.bind_vertex_array(self.vao);
        gl.uniform_matrix4fv(transform, &[math::rotate_z(0.3)]);
        gl.uniform4fv(bands, &[[0.0, 0.0, 0.0, 0.0], [0.1, 0.1, 0.0, 1.0]]);
        gl.uniform3f(shade, 1.0, 0.9, 0.8);
        gl.uniform1f(fade, 0.85);
        for half in 0..2 {
            if half == 0 {
                gl.bind_buffer_base(UNIFORM_BUFFER, BINDING, self.ubo);
            } else {
                gl.bind_buffer_range(
                    UNIFORM_BUFFER,
                    BINDING,
                    self.ubo,
                    self.second_offset as isize,
                    BLOCK_BYTES as isize,
                );
            }
            for p in 0..4 {
                gl.uniform1i(pick, p);
                // SAFETY: the bound buffer holds the quad's 6 vertices.
                unsafe { gl.draw_arrays(TRIANGLES, 0, 6) };
            }
        }
        Ok(())
    }

    fn release(&mut self, gl: &Gl) {
        self.objects.release(gl);
    }
}
