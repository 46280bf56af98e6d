//! `textured`: a quad sampling a procedurally generated 64×64 RGBA8 checker on texture unit 1
//! with NEAREST filtering (LINEAR's weights may legitimately differ between implementations),
//! with an 8×8 patch replaced by `glTexSubImage2D` under `GL_UNPACK_ALIGNMENT` 1. The quad spans
//! exactly 3 pixels per texel at 256², so no sample lands on a texel boundary.

use super::common::{float_attribute, Objects, EXTRA, POSITION};
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
uniform sampler2D checker;
in vec2 v_uv;
out vec4 frag_color;
void main() {
    frag_color = texture(checker, v_uv);
}
";

/// Texture side in texels.
const SIDE: u32 = 64;

/// The checker: 8×8-texel cells whose colours vary across the texture.
pub fn checker_texels() -> Vec<u8> {
    let mut out = Vec::with_capacity((SIDE * SIDE * 4) as usize);
    for y in 0..SIDE {
        for x in 0..SIDE {
            let (cx, cy) = (x / 8, y / 8);
            if (cx + cy) % 2 == 0 {
                out.extend_from_slice(&[(cx * 32) as u8, (cy * 32) as u8, 200, 255]);
            } else {
                out.extend_from_slice(&[240, 240 - (x * 2) as u8, (y * 3) as u8, 255]);
            }
        }
    }
    out
}

struct Textured {
    objects: Objects,
    program: u32,
    vao: u32,
}

/// Builds the scene.
pub fn build(gl: &Gl, _width: u32, _height: u32) -> Result<Box<dyn Scene>, GlClientError> {
    let mut objects = Objects::default();
    let program = objects.program(
        gl,
        "textured",
        VS,
        FS,
        &[(POSITION, c"position"), (EXTRA, c"uv")],
    )?;
    let sampler = program::uniform(gl, program, c"checker")?;
    gl.use_program(program);
    gl.uniform1i(sampler, 1);

    gl.active_texture(TEXTURE0 + 1);
    objects.texture(gl);
    gl.tex_parameter_i(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as i32);
    gl.tex_parameter_i(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as i32);
    gl.tex_parameter_i(TEXTURE_2D, TEXTURE_WRAP_S, CLAMP_TO_EDGE as i32);
    gl.tex_parameter_i(TEXTURE_2D, TEXTURE_WRAP_T, CLAMP_TO_EDGE as i32);
    gl.tex_parameter_i(TEXTURE_2D, TEXTURE_MAX_LEVEL, 0);
    gl.tex_image_rgba8(TEXTURE_2D, 0, SIDE, SIDE, Some(&checker_texels()))?;
    gl.pixel_store_alignment(UNPACK_ALIGNMENT, 1);
    let patch: Vec<u8> = (0..8 * 8)
        .flat_map(|i| [255, (i * 4) as u8, 0, 255])
        .collect();
    gl.tex_sub_image_rgba8(TEXTURE_2D, 0, 20, 36, 8, 8, &patch)?;
    gl.pixel_store_alignment(UNPACK_ALIGNMENT, 4);
    gl.active_texture(TEXTURE0);

    let vao = objects.vertex_array(gl);
    // A triangle strip: x, y, u, v.
    let strip: [f32; 16] = [
        -0.75, -0.75, 0.0, 0.0, //
        0.75, -0.75, 1.0, 0.0, //
        -0.75, 0.75, 0.0, 1.0, //
        0.75, 0.75, 1.0, 1.0,
    ];
    objects.buffer(gl, ARRAY_BUFFER, &strip, STATIC_DRAW);
    float_attribute(gl, POSITION, 2, 16, 0);
    float_attribute(gl, EXTRA, 2, 16, 8);
    gl.bind_vertex_array(0);
    Ok(Box::new(Textured {
        objects,
        program,
        vao,
    }))
}

impl Scene for Textured {
    fn render(&mut self, gl: &Gl, _frame: u32) -> Result<(), GlClientError> {
        gl.clear_color(0.2, 0.0, 0.2, 1.0);
        gl.clear(COLOR_BUFFER_BIT);
        gl.use_program(self.program);
        gl.bind_vertex_array(self.vao);
        // SAFETY: the bound buffer holds the strip's 4 vertices.
        unsafe { gl.draw_arrays(TRIANGLE_STRIP, 0, 4) };
        Ok(())
    }

    fn release(&mut self, gl: &Gl) {
        self.objects.release(gl);
    }
}
