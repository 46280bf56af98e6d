//! The demo's GL side: the 14 atlases on texture units 0–13, one large mesh arena (a vertex
//! buffer cut into a fixed slot per chunk, rewritten with `glBufferSubData` when a chunk
//! changes), a shared quad index buffer, and the two passes: opaque chunks (one
//! `glDrawElementsBaseVertex` per chunk, the base vertex selecting its slot, with per-draw
//! uniforms), then water and glass blended with depth writes off.
//!
//! GLSL 3.30 may index a sampler array only with a constant, so the fragment shader selects the
//! atlas with a switch; it takes the uv derivatives before the switch and samples with
//! `textureGrad`, because implicit derivatives are undefined in non-uniform control flow.

use super::atlas::{self, ATLAS_SIDE};
use super::world::{chunk_origin, ChunkMesh, Vertex, BLOCK_KINDS, CHUNK_COUNT, VERTEX_BYTES};
use crate::glclient::gl::consts::*;
use crate::glclient::{program, Gl, GlClientError};
use crate::math::Mat4;

/// Vertices reserved per chunk in the opaque arena (6144 faces).
pub const OPAQUE_SLOT_VERTICES: usize = 24_576;
/// Vertices reserved per chunk in the translucent arena (2048 faces).
pub const TRANSLUCENT_SLOT_VERTICES: usize = 8_192;

const VS: &str = "#version 330 core
in vec3 position;
in vec2 uv;
in float shade;
in int block;
uniform mat4 view_proj;
uniform vec3 chunk_offset;
uniform vec3 eye;
out vec2 v_uv;
out float v_shade;
out float v_distance;
flat out int v_block;
void main() {
    vec3 world = position + chunk_offset;
    v_uv = uv;
    v_shade = shade;
    v_block = block;
    v_distance = length(world - eye);
    gl_Position = view_proj * vec4(world, 1.0);
}
";

const FS: &str = "#version 330 core
uniform sampler2D atlas[14];
uniform vec4 fog;
uniform float alpha_scale;
in vec2 v_uv;
in float v_shade;
in float v_distance;
flat in int v_block;
out vec4 frag_color;
void main() {
    vec2 dx = dFdx(v_uv);
    vec2 dy = dFdy(v_uv);
    vec4 c;
    switch (v_block) {
        case 0: c = textureGrad(atlas[0], v_uv, dx, dy); break;
        case 1: c = textureGrad(atlas[1], v_uv, dx, dy); break;
        case 2: c = textureGrad(atlas[2], v_uv, dx, dy); break;
        case 3: c = textureGrad(atlas[3], v_uv, dx, dy); break;
        case 4: c = textureGrad(atlas[4], v_uv, dx, dy); break;
        case 5: c = textureGrad(atlas[5], v_uv, dx, dy); break;
        case 6: c = textureGrad(atlas[6], v_uv, dx, dy); break;
        case 7: c = textureGrad(atlas[7], v_uv, dx, dy); break;
        case 8: c = textureGrad(atlas[8], v_uv, dx, dy); break;
        case 9: c = textureGrad(atlas[9], v_uv, dx, dy); break;
        case 10: c = textureGrad(atlas[10], v_uv, dx, dy); break;
        case 11: c = textureGrad(atlas[11], v_uv, dx, dy); break;
        case 12: c = textureGrad(atlas[12], v_uv, dx, dy); break;
        default: c = textureGrad(atlas[13], v_uv, dx, dy); break;
    }
    float f = clamp(exp(-fog.a * v_distance), 0.0, 1.0);
    frag_color = vec4(mix(fog.rgb, c.rgb * v_shade, f), c.a * alpha_scale);
}
";

const POSITION: u32 = 0;
const UV: u32 = 1;
const SHADE: u32 = 2;
const BLOCK: u32 = 3;

/// Sky and fog colour.
pub const SKY: [f32; 3] = [0.62, 0.76, 0.95];

struct Uniforms {
    view_proj: i32,
    chunk_offset: i32,
    eye: i32,
    fog: i32,
    alpha_scale: i32,
}

/// The demo's GL objects.
pub struct Renderer {
    program: u32,
    uniforms: Uniforms,
    atlases: Vec<u32>,
    opaque_vao: u32,
    opaque_buffer: u32,
    translucent_vao: u32,
    translucent_buffer: u32,
    index_buffer: u32,
    /// Faces per chunk currently in the arenas.
    opaque_faces: Vec<usize>,
    translucent_faces: Vec<usize>,
    /// Faces dropped because a chunk outgrew its slot (reported, never expected here).
    pub truncated_faces: usize,
}

/// Bytes of the opaque arena.
pub const OPAQUE_ARENA_BYTES: usize = CHUNK_COUNT * OPAQUE_SLOT_VERTICES * VERTEX_BYTES;
/// Bytes of the translucent arena.
pub const TRANSLUCENT_ARENA_BYTES: usize = CHUNK_COUNT * TRANSLUCENT_SLOT_VERTICES * VERTEX_BYTES;

fn arena_vao(gl: &Gl, buffer: u32, index_buffer: u32) -> u32 {
    let vao = gl.gen_vertex_array();
    gl.bind_vertex_array(vao);
    gl.bind_buffer(ARRAY_BUFFER, buffer);
    gl.enable_vertex_attrib_array(POSITION);
    gl.vertex_attrib_pointer(POSITION, 3, FLOAT, false, VERTEX_BYTES, 0);
    gl.enable_vertex_attrib_array(UV);
    gl.vertex_attrib_pointer(UV, 2, FLOAT, false, VERTEX_BYTES, 12);
    gl.enable_vertex_attrib_array(SHADE);
    gl.vertex_attrib_pointer(SHADE, 1, FLOAT, false, VERTEX_BYTES, 20);
    gl.enable_vertex_attrib_array(BLOCK);
    gl.vertex_attrib_i_pointer(BLOCK, 1, INT, VERTEX_BYTES, 24);
    gl.bind_buffer(ELEMENT_ARRAY_BUFFER, index_buffer);
    gl.bind_vertex_array(0);
    vao
}

impl Renderer {
    /// Builds the program, uploads the atlases (every level) and allocates the arenas.
    pub fn new(gl: &Gl) -> Result<Renderer, GlClientError> {
        let program = program::link(
            gl,
            "demo",
            VS,
            FS,
            &[
                (POSITION, c"position"),
                (UV, c"uv"),
                (SHADE, c"shade"),
                (BLOCK, c"block"),
            ],
        )?;
        let uniforms = Uniforms {
            view_proj: program::uniform(gl, program, c"view_proj")?,
            chunk_offset: program::uniform(gl, program, c"chunk_offset")?,
            eye: program::uniform(gl, program, c"eye")?,
            fog: program::uniform(gl, program, c"fog")?,
            alpha_scale: program::uniform(gl, program, c"alpha_scale")?,
        };
        let units = gl.integer(MAX_TEXTURE_IMAGE_UNITS);
        if units < BLOCK_KINDS as i32 {
            return Err(GlClientError::Usage(format!(
                "the demo binds {BLOCK_KINDS} atlases; the implementation has {units} units"
            )));
        }
        gl.use_program(program);
        let mut atlases = Vec::with_capacity(BLOCK_KINDS);
        for kind in 0..BLOCK_KINDS {
            // Array elements are queried by name: only explicit locations are consecutive.
            let name = std::ffi::CString::new(format!("atlas[{kind}]"))
                .map_err(|e| GlClientError::Usage(e.to_string()))?;
            gl.uniform1i(program::uniform(gl, program, &name)?, kind as i32);
            gl.active_texture(TEXTURE0 + kind as u32);
            let texture = gl.gen_texture();
            gl.bind_texture(TEXTURE_2D, texture);
            gl.tex_parameter_i(TEXTURE_2D, TEXTURE_MIN_FILTER, LINEAR_MIPMAP_LINEAR as i32);
            gl.tex_parameter_i(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as i32);
            gl.tex_parameter_i(TEXTURE_2D, TEXTURE_WRAP_S, REPEAT as i32);
            gl.tex_parameter_i(TEXTURE_2D, TEXTURE_WRAP_T, REPEAT as i32);
            let mut level = atlas::level0(kind);
            let (mut side, mut index) = (ATLAS_SIDE, 0);
            loop {
                gl.tex_image_rgba8(TEXTURE_2D, index, side, side, Some(&level))?;
                if side == 1 {
                    break;
                }
                level = atlas::downsample(&level, side as usize);
                side /= 2;
                index += 1;
            }
            gl.tex_parameter_i(TEXTURE_2D, TEXTURE_MAX_LEVEL, index);
            atlases.push(texture);
            gl.check_error(&format!("demo: atlas {kind}"))?;
        }
        gl.active_texture(TEXTURE0);

        // Shared quad indices: 0 1 2, 2 3 0 per face, for the largest slot.
        let quads = OPAQUE_SLOT_VERTICES / 4;
        let indices: Vec<u32> = (0..quads as u32)
            .flat_map(|q| [0, 1, 2, 2, 3, 0].map(|i| q * 4 + i))
            .collect();
        let index_buffer = gl.gen_buffer();
        gl.bind_buffer(ELEMENT_ARRAY_BUFFER, index_buffer);
        gl.buffer_data(ELEMENT_ARRAY_BUFFER, &indices, STATIC_DRAW);
        let opaque_buffer = gl.gen_buffer();
        gl.bind_buffer(ARRAY_BUFFER, opaque_buffer);
        gl.buffer_storage_uninit(ARRAY_BUFFER, OPAQUE_ARENA_BYTES, DYNAMIC_DRAW);
        let translucent_buffer = gl.gen_buffer();
        gl.bind_buffer(ARRAY_BUFFER, translucent_buffer);
        gl.buffer_storage_uninit(ARRAY_BUFFER, TRANSLUCENT_ARENA_BYTES, DYNAMIC_DRAW);
        let opaque_vao = arena_vao(gl, opaque_buffer, index_buffer);
        let translucent_vao = arena_vao(gl, translucent_buffer, index_buffer);
        gl.check_error("demo: arenas")?;
        Ok(Renderer {
            program,
            uniforms,
            atlases,
            opaque_vao,
            opaque_buffer,
            translucent_vao,
            translucent_buffer,
            index_buffer,
            opaque_faces: vec![0; CHUNK_COUNT],
            translucent_faces: vec![0; CHUNK_COUNT],
            truncated_faces: 0,
        })
    }

    /// Writes chunk `chunk`'s mesh into its slots; returns the bytes uploaded.
    pub fn upload(&mut self, gl: &Gl, chunk: usize, mesh: &ChunkMesh) -> usize {
        let mut put = |buffer: u32, slot: usize, vertices: &[Vertex]| -> (usize, usize) {
            let n = vertices.len().min(slot) / 4 * 4;
            self.truncated_faces += (vertices.len() - n) / 4;
            gl.bind_buffer(ARRAY_BUFFER, buffer);
            gl.buffer_sub_data(ARRAY_BUFFER, chunk * slot * VERTEX_BYTES, &vertices[..n]);
            (n / 4, n * VERTEX_BYTES)
        };
        let (opaque, a) = put(self.opaque_buffer, OPAQUE_SLOT_VERTICES, &mesh.opaque);
        let (translucent, b) = put(
            self.translucent_buffer,
            TRANSLUCENT_SLOT_VERTICES,
            &mesh.translucent,
        );
        self.opaque_faces[chunk] = opaque;
        self.translucent_faces[chunk] = translucent;
        a + b
    }

    /// Faces currently drawn (opaque, translucent).
    pub fn faces(&self) -> (usize, usize) {
        (
            self.opaque_faces.iter().sum(),
            self.translucent_faces.iter().sum(),
        )
    }

    /// Draws a frame: both passes.
    pub fn draw(&self, gl: &Gl, view_proj: &Mat4, eye: [f32; 3], width: u32, height: u32) {
        gl.viewport(0, 0, width as i32, height as i32);
        gl.clear_color(SKY[0], SKY[1], SKY[2], 1.0);
        gl.depth_mask(TRUE);
        gl.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT);
        gl.enable(DEPTH_TEST);
        gl.depth_func(LEQUAL);
        gl.use_program(self.program);
        gl.uniform_matrix4fv(self.uniforms.view_proj, &[*view_proj]);
        gl.uniform3f(self.uniforms.eye, eye[0], eye[1], eye[2]);
        let passes = [
            (
                self.opaque_vao,
                &self.opaque_faces,
                OPAQUE_SLOT_VERTICES,
                1.0,
            ),
            (
                self.translucent_vao,
                &self.translucent_faces,
                TRANSLUCENT_SLOT_VERTICES,
                1.0,
            ),
        ];
        for (pass, (vao, faces, slot, alpha)) in passes.into_iter().enumerate() {
            if pass == 0 {
                // Faces are counter-clockwise from outside (world.rs): cull the far sides.
                gl.enable(CULL_FACE);
                gl.front_face(CCW);
                gl.cull_face(BACK);
            } else {
                // Water and glass are seen from both sides.
                gl.disable(CULL_FACE);
                gl.enable(BLEND);
                gl.blend_func(SRC_ALPHA, ONE_MINUS_SRC_ALPHA);
                gl.depth_mask(FALSE);
            }
            gl.bind_vertex_array(vao);
            gl.uniform1f(self.uniforms.alpha_scale, alpha);
            for (chunk, &n) in faces.iter().enumerate() {
                if n == 0 {
                    continue;
                }
                let origin = chunk_origin(chunk);
                gl.uniform3f(self.uniforms.chunk_offset, origin[0], origin[1], origin[2]);
                // Fog thickens slightly with the chunk's distance from the world's centre,
                // so the per-draw uniform really changes per draw.
                let density = 0.008 + 0.0001 * chunk as f32;
                gl.uniform4f(self.uniforms.fog, SKY[0], SKY[1], SKY[2], density);
                // SAFETY: the VAO's element buffer holds indices for OPAQUE_SLOT_VERTICES / 4 ≥
                // n faces, all below 4n, and the base vertex selects this chunk's slot, which
                // holds n faces' vertices inside the arena.
                unsafe {
                    gl.draw_elements_base_vertex(
                        TRIANGLES,
                        (n * 6) as i32,
                        UNSIGNED_INT,
                        0,
                        (chunk * slot) as i32,
                    )
                };
            }
        }
        gl.depth_mask(TRUE);
        gl.disable(BLEND);
        gl.disable(DEPTH_TEST);
        gl.bind_vertex_array(0);
    }

    /// Deletes every object.
    pub fn release(&mut self, gl: &Gl) {
        gl.use_program(0);
        gl.bind_vertex_array(0);
        gl.delete_program(self.program);
        gl.delete_vertex_array(self.opaque_vao);
        gl.delete_vertex_array(self.translucent_vao);
        for b in [
            self.opaque_buffer,
            self.translucent_buffer,
            self.index_buffer,
        ] {
            gl.delete_buffer(b);
        }
        for t in self.atlases.drain(..) {
            gl.delete_texture(t);
        }
    }
}
