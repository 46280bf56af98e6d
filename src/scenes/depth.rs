//! `depth`: two triangles that pass through each other under `glDepthFunc(GL_LESS)` (the
//! intersection line is where the depth test decides), then one drawn with `glDepthMask` off and
//! one behind it, which must still appear because the masked triangle left the depth buffer as
//! it was. Depth is cleared with `glClearDepth`.

use super::common::{float_attribute, Objects, COLOR, POSITION};
use super::Scene;
use crate::glclient::gl::consts::*;
use crate::glclient::{Gl, GlClientError};

const VS: &str = "#version 330 core
in vec3 position;
in vec3 color;
out vec3 v_color;
void main() {
    v_color = color;
    gl_Position = vec4(position, 1.0);
}
";

const FS: &str = "#version 330 core
in vec3 v_color;
out vec4 frag_color;
void main() {
    frag_color = vec4(v_color, 1.0);
}
";

struct Depth {
    objects: Objects,
    program: u32,
    vao: u32,
}

/// Builds the scene.
pub fn build(gl: &Gl, _width: u32, _height: u32) -> Result<Box<dyn Scene>, GlClientError> {
    let mut objects = Objects::default();
    let program = objects.program(
        gl,
        "depth",
        VS,
        FS,
        &[(POSITION, c"position"), (COLOR, c"color")],
    )?;
    let vao = objects.vertex_array(gl);
    #[rustfmt::skip]
    let vertices: [f32; 72] = [
        // A: red, leaning back to the right.
        -0.87, -0.63, -0.5,   0.9, 0.2, 0.2,
         0.71, -0.47,  0.6,   0.9, 0.2, 0.2,
        -0.13,  0.79,  0.0,   0.9, 0.2, 0.2,
        // B: green, leaning back to the left; crosses A.
         0.83, -0.71, -0.4,   0.2, 0.9, 0.2,
        -0.67, -0.39,  0.5,   0.2, 0.9, 0.2,
         0.17,  0.73,  0.05,  0.2, 0.9, 0.2,
        // C: blue, in front of everything, depth writes off.
        -0.57,  0.11, -0.9,   0.2, 0.3, 1.0,
         0.09,  0.13, -0.9,   0.2, 0.3, 1.0,
        -0.27,  0.61, -0.9,   0.2, 0.3, 1.0,
        // D: yellow, behind C but in front of the clear depth; drawn after C.
        -0.49,  0.19,  0.8,   1.0, 0.9, 0.1,
        -0.05,  0.21,  0.8,   1.0, 0.9, 0.1,
        -0.29,  0.47,  0.8,   1.0, 0.9, 0.1,
    ];
    objects.buffer(gl, ARRAY_BUFFER, &vertices, STATIC_DRAW);
    float_attribute(gl, POSITION, 3, 24, 0);
    float_attribute(gl, COLOR, 3, 24, 12);
    gl.bind_vertex_array(0);
    Ok(Box::new(Depth {
        objects,
        program,
        vao,
    }))
}

impl Scene for Depth {
    fn render(&mut self, gl: &Gl, _frame: u32) -> Result<(), GlClientError> {
        gl.clear_color(0.0, 0.0, 0.1, 1.0);
        gl.clear_depth(1.0);
        gl.depth_mask(TRUE);
        gl.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT);
        gl.enable(DEPTH_TEST);
        gl.depth_func(LESS);
        gl.use_program(self.program);
        gl.bind_vertex_array(self.vao);
        // SAFETY: the bound buffer holds the 12 vertices drawn.
        unsafe {
            gl.draw_arrays(TRIANGLES, 0, 6);
            gl.depth_mask(FALSE);
            gl.draw_arrays(TRIANGLES, 6, 3);
            gl.depth_mask(TRUE);
            gl.draw_arrays(TRIANGLES, 9, 3);
        }
        gl.disable(DEPTH_TEST);
        Ok(())
    }

    fn release(&mut self, gl: &Gl) {
        self.objects.release(gl);
    }
}
