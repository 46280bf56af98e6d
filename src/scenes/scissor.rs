//! `scissor`: clears restricted by `glScissor` (colour, depth and stencil, `glClearStencil`),
//! a draw clipped by the scissor box, and a full-screen draw through `glColorMask` that may
//! write only green and alpha. `glGetIntegerv(GL_VIEWPORT)` and `glGetFloatv` check that state
//! reads back as set.

use super::common::{float_attribute, Objects, POSITION};
use super::Scene;
use crate::glclient::gl::consts::*;
use crate::glclient::{program, Gl, GlClientError};

const VS: &str = "#version 330 core
in vec2 position;
void main() {
    gl_Position = vec4(position, 0.0, 1.0);
}
";

const FS: &str = "#version 330 core
uniform vec4 color;
out vec4 frag_color;
void main() {
    frag_color = color;
}
";

/// `GL_COLOR_CLEAR_VALUE`.
const COLOR_CLEAR_VALUE: u32 = 0x0C22;

struct Scissor {
    objects: Objects,
    program: u32,
    vao: u32,
    color: i32,
    width: i32,
    height: i32,
}

/// Builds the scene.
pub fn build(gl: &Gl, width: u32, height: u32) -> Result<Box<dyn Scene>, GlClientError> {
    let mut objects = Objects::default();
    let program = objects.program(gl, "scissor", VS, FS, &[(POSITION, c"position")])?;
    let color = program::uniform(gl, program, c"color")?;
    let vao = objects.vertex_array(gl);
    let quad: [f32; 12] = [
        -1.0, -1.0, 1.0, -1.0, 1.0, 1.0, 1.0, 1.0, -1.0, 1.0, -1.0, -1.0,
    ];
    objects.buffer(gl, ARRAY_BUFFER, &quad, STATIC_DRAW);
    float_attribute(gl, POSITION, 2, 8, 0);
    gl.bind_vertex_array(0);
    Ok(Box::new(Scissor {
        objects,
        program,
        vao,
        color,
        width: width as i32,
        height: height as i32,
    }))
}

impl Scene for Scissor {
    fn render(&mut self, gl: &Gl, _frame: u32) -> Result<(), GlClientError> {
        let (w, h) = (self.width, self.height);
        let viewport = gl.integers::<4>(VIEWPORT);
        if viewport != [0, 0, w, h] {
            return Err(GlClientError::Usage(format!(
                "scissor: GL_VIEWPORT reads {viewport:?}, expected [0, 0, {w}, {h}]"
            )));
        }
        gl.clear_color(0.3, 0.3, 0.3, 1.0);
        gl.clear_stencil(0);
        gl.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT | STENCIL_BUFFER_BIT);
        let clear = gl.floats::<4>(COLOR_CLEAR_VALUE);
        if clear
            .iter()
            .zip([0.3, 0.3, 0.3, 1.0])
            .any(|(a, b)| (a - b).abs() > 1e-6)
        {
            return Err(GlClientError::Usage(format!(
                "scissor: GL_COLOR_CLEAR_VALUE reads {clear:?}"
            )));
        }
        gl.enable(SCISSOR_TEST);
        // Three cleared rectangles, in fractions of the framebuffer.
        let rects = [
            ((0.1, 0.1, 0.3, 0.25), [0.9, 0.1, 0.1]),
            ((0.5, 0.15, 0.4, 0.2), [0.1, 0.8, 0.2]),
            ((0.2, 0.6, 0.25, 0.3), [0.1, 0.2, 0.9]),
        ];
        for ((x, y, rw, rh), c) in rects {
            gl.scissor(
                (x * w as f32) as i32,
                (y * h as f32) as i32,
                (rw * w as f32) as i32,
                (rh * h as f32) as i32,
            );
            gl.clear_color(c[0], c[1], c[2], 1.0);
            gl.clear_stencil(1);
            gl.clear(COLOR_BUFFER_BIT | STENCIL_BUFFER_BIT);
        }
        gl.use_program(self.program);
        gl.bind_vertex_array(self.vao);
        // A full-screen draw clipped to a box.
        gl.scissor(w * 5 / 8, h * 5 / 8, w / 4, h / 5);
        gl.uniform4f(self.color, 1.0, 0.6, 0.0, 1.0);
        // SAFETY: the bound buffer holds the quad's 6 vertices.
        unsafe { gl.draw_arrays(TRIANGLES, 0, 6) };
        gl.disable(SCISSOR_TEST);
        // Everywhere, but only green and alpha may change.
        gl.color_mask(FALSE, TRUE, FALSE, TRUE);
        gl.uniform4f(self.color, 0.9, 0.45, 0.9, 1.0);
        // SAFETY: as above.
        unsafe { gl.draw_arrays(TRIANGLES, 0, 6) };
        gl.color_mask(TRUE, TRUE, TRUE, TRUE);
        Ok(())
    }

    fn release(&mut self, gl: &Gl) {
        self.objects.release(gl);
    }
}
