//! `mipmap`: a 64×64 texture whose chain is made by `glGenerateMipmap`, drawn at 64, 32, 16 and 8
//! pixels square with `GL_NEAREST_MIPMAP_NEAREST`, so each quad shows exactly one generated level
//! (LOD 0, 1, 2, 3 at 256²: the quads are sized in whole texels of their level and texel centres
//! land on pixel centres). The texture is the `textured` scene's checker, whose 8-texel cells
//! average into distinct colours level by level.

use super::common::{float_attribute, Objects, EXTRA, POSITION};
use super::textured::checker_texels;
use super::Scene;
use crate::glclient::gl::consts::*;
use crate::glclient::{program, Gl, GlClientError};

const VS: &str = "#version 330 core
in vec2 position;
in vec2 uv;
out vec2 v_uv;
void main() {
    v_uv = uv;
    gl_Position = vec4(position, 0.0, 1.0);
}
";

const FS: &str = "#version 330 core
uniform sampler2D tex;
in vec2 v_uv;
out vec4 frag_color;
void main() {
    frag_color = texture(tex, v_uv);
}
";

struct Mipmap {
    objects: Objects,
    program: u32,
    vao: u32,
}

/// Builds the scene (sized for a 256×256 framebuffer: one NDC unit is 128 pixels).
pub fn build(gl: &Gl, _width: u32, _height: u32) -> Result<Box<dyn Scene>, GlClientError> {
    let mut objects = Objects::default();
    let program = objects.program(
        gl,
        "mipmap",
        VS,
        FS,
        &[(POSITION, c"position"), (EXTRA, c"uv")],
    )?;
    objects.texture(gl);
    gl.tex_parameter_i(
        TEXTURE_2D,
        TEXTURE_MIN_FILTER,
        NEAREST_MIPMAP_NEAREST as i32,
    );
    gl.tex_parameter_i(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as i32);
    gl.tex_parameter_i(TEXTURE_2D, TEXTURE_WRAP_S, CLAMP_TO_EDGE as i32);
    gl.tex_parameter_i(TEXTURE_2D, TEXTURE_WRAP_T, CLAMP_TO_EDGE as i32);
    gl.tex_image_rgba8(TEXTURE_2D, 0, 64, 64, Some(&checker_texels()))?;
    gl.generate_mipmap(TEXTURE_2D);
    gl.use_program(program);
    gl.uniform1i(program::uniform(gl, program, c"tex")?, 0);

    let vao = objects.vertex_array(gl);
    // Four quads (two triangles each, x, y, u, v) of 64, 32, 16 and 8 pixels, left to right.
    let mut vertices: Vec<f32> = Vec::new();
    let mut x = -0.9375f32;
    for pixels in [64.0f32, 32.0, 16.0, 8.0] {
        let (w, y) = (pixels / 128.0, -0.25f32);
        let quad = [
            [x, y, 0.0, 0.0],
            [x + w, y, 1.0, 0.0],
            [x, y + w, 0.0, 1.0],
            [x + w, y, 1.0, 0.0],
            [x + w, y + w, 1.0, 1.0],
            [x, y + w, 0.0, 1.0],
        ];
        vertices.extend(quad.iter().flatten());
        x += w + 0.125;
    }
    objects.buffer(gl, ARRAY_BUFFER, &vertices, STATIC_DRAW);
    float_attribute(gl, POSITION, 2, 16, 0);
    float_attribute(gl, EXTRA, 2, 16, 8);
    gl.bind_vertex_array(0);
    Ok(Box::new(Mipmap {
        objects,
        program,
        vao,
    }))
}

impl Scene for Mipmap {
    fn render(&mut self, gl: &Gl, _frame: u32) -> Result<(), GlClientError> {
        gl.clear_color(0.1, 0.1, 0.1, 1.0);
        gl.clear(COLOR_BUFFER_BIT);
        gl.use_program(self.program);
        gl.bind_vertex_array(self.vao);
        // SAFETY: the bound buffer holds the 4 quads' 24 vertices.
        unsafe { gl.draw_arrays(TRIANGLES, 0, 24) };
        Ok(())
    }

    fn release(&mut self, gl: &Gl) {
        self.objects.release(gl);
    }
}
