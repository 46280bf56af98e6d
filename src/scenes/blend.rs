//! `blend`: overlapping translucent quads blended with SRC_ALPHA / ONE_MINUS_SRC_ALPHA (colour
//! per draw from `glUniform4f`), then one with `glBlendFuncSeparate` keeping the destination
//! alpha, all with `glBlendEquation(GL_FUNC_ADD)`.

use super::common::{float_attribute, Objects, POSITION};
use super::Scene;
use crate::glclient::gl::consts::*;
use crate::glclient::{program, Gl, GlClientError};

const VS: &str = "#version 330 core
in vec2 position;
uniform vec2 offset;
void main() {
    gl_Position = vec4(position + offset, 0.0, 1.0);
}
";

const FS: &str = "#version 330 core
uniform vec4 color;
out vec4 frag_color;
void main() {
    frag_color = color;
}
";

struct Blend {
    objects: Objects,
    program: u32,
    vao: u32,
    offset: i32,
    color: i32,
}

/// Builds the scene.
pub fn build(gl: &Gl, _width: u32, _height: u32) -> Result<Box<dyn Scene>, GlClientError> {
    let mut objects = Objects::default();
    let program = objects.program(gl, "blend", VS, FS, &[(POSITION, c"position")])?;
    let offset = program::uniform(gl, program, c"offset")?;
    let color = program::uniform(gl, program, c"color")?;
    let vao = objects.vertex_array(gl);
    let h = 0.41f32;
    let quad: [f32; 12] = [-h, -h, h, -h, h, h, h, h, -h, h, -h, -h];
    objects.buffer(gl, ARRAY_BUFFER, &quad, STATIC_DRAW);
    float_attribute(gl, POSITION, 2, 8, 0);
    gl.bind_vertex_array(0);
    Ok(Box::new(Blend {
        objects,
        program,
        vao,
        offset,
        color,
    }))
}

impl Scene for Blend {
    fn render(&mut self, gl: &Gl, _frame: u32) -> Result<(), GlClientError> {
        gl.clear_color(0.15, 0.15, 0.15, 1.0);
        gl.clear(COLOR_BUFFER_BIT);
        gl.use_program(self.program);
        gl.bind_vertex_array(self.vao);
        gl.enable(BLEND);
        gl.blend_equation(FUNC_ADD);
        gl.blend_func(SRC_ALPHA, ONE_MINUS_SRC_ALPHA);
        let quads = [
            ([-0.23f32, -0.21f32], [1.0f32, 0.1, 0.1, 0.5]),
            ([0.19, -0.17], [0.1, 1.0, 0.1, 0.5]),
            ([-0.03, 0.22], [0.1, 0.2, 1.0, 0.6]),
            ([0.31, 0.29], [1.0, 1.0, 0.2, 0.3]),
        ];
        for (offset, c) in quads {
            gl.uniform2f(self.offset, offset[0], offset[1]);
            gl.uniform4f(self.color, c[0], c[1], c[2], c[3]);
            // SAFETY: the bound buffer holds the quad's 6 vertices.
            unsafe { gl.draw_arrays(TRIANGLES, 0, 6) };
        }
        gl.blend_func_separate(SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ZERO, ONE);
        gl.uniform2f(self.offset, -0.39, 0.37);
        gl.uniform4f(self.color, 1.0, 0.5, 1.0, 0.75);
        // SAFETY: as above.
        unsafe { gl.draw_arrays(TRIANGLES, 0, 6) };
        gl.disable(BLEND);
        Ok(())
    }

    fn release(&mut self, gl: &Gl) {
        self.objects.release(gl);
    }
}
