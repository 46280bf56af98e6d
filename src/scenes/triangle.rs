//! `triangle`: one triangle with colours interpolated across it — the smallest complete path
//! (buffer, vertex array, program, draw, clear).

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

struct Triangle {
    objects: Objects,
    program: u32,
    vao: u32,
}

/// Builds the scene.
pub fn build(gl: &Gl, _width: u32, _height: u32) -> Result<Box<dyn Scene>, GlClientError> {
    let mut objects = Objects::default();
    let program = objects.program(
        gl,
        "triangle",
        VS,
        FS,
        &[(POSITION, c"position"), (COLOR, c"color")],
    )?;
    let vao = objects.vertex_array(gl);
    // x, y, r, g, b — vertices off the pixel grid's centres.
    let vertices: [f32; 15] = [
        -0.81, -0.73, 1.0, 0.0, 0.0, //
        0.77, -0.61, 0.0, 1.0, 0.0, //
        0.03, 0.83, 0.0, 0.0, 1.0,
    ];
    objects.buffer(gl, ARRAY_BUFFER, &vertices, STATIC_DRAW);
    float_attribute(gl, POSITION, 2, 20, 0);
    float_attribute(gl, COLOR, 3, 20, 8);
    Ok(Box::new(Triangle {
        objects,
        program,
        vao,
    }))
}

impl Scene for Triangle {
    fn render(&mut self, gl: &Gl, _frame: u32) -> Result<(), GlClientError> {
        gl.clear_color(0.1, 0.1, 0.12, 1.0);
        gl.clear(COLOR_BUFFER_BIT);
        gl.use_program(self.program);
        gl.bind_vertex_array(self.vao);
        // SAFETY: the bound buffer holds the 3 vertices drawn.
        unsafe { gl.draw_arrays(TRIANGLES, 0, 3) };
        Ok(())
    }

    fn release(&mut self, gl: &Gl) {
        self.objects.release(gl);
    }
}
