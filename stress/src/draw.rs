//! The GL objects the suites draw with: a textured-quad program over a unit quad, and the
//! chunk-mesh program whose vertices live in the arena.
//!
//! Design decisions:
//! - Every draw places itself with a per-draw `rect` uniform (offset and scale in clip space) and
//!   a per-draw `tint`, so per-draw uniforms are on every path, as in a game's chunk loop.
//! - Arena vertices are 12 bytes (two floats and four normalised bytes of colour), packed as
//!   three `u32` words so they are plain data for `glBufferSubData`.
//! - GLSL 3.30 core with locations bound by name, like the demo, so every implementation under
//!   comparison compiles the same sources.

use arenagl_glclient::gl::consts::*;
use arenagl_glclient::{program, Gl, GlClientError};

/// Bytes of one arena vertex.
pub const ARENA_VERTEX_BYTES: usize = 12;
/// One arena vertex: x, y as `f32` bits, then RGBA8.
pub type ArenaVertex = [u32; 3];

const QUAD_VS: &str = "#version 330 core
in vec2 position;
uniform vec4 rect;
out vec2 v_uv;
void main() {
    v_uv = position;
    gl_Position = vec4(rect.xy + position * rect.zw, 0.0, 1.0);
}
";

/// The textured quad's fragment shader, with the swizzle applied to the texel (`rgba` for the
/// plain one; other swizzles make distinct programs for benchmarks that switch programs).
fn quad_fs(swizzle: &str) -> String {
    format!(
        "#version 330 core
uniform sampler2D tex;
uniform vec4 tint;
in vec2 v_uv;
out vec4 frag_color;
void main() {{
    frag_color = texture(tex, v_uv).{swizzle} * tint;
}}
"
    )
}

/// Swizzles of [`QuadDrawer::variant`].
pub const SWIZZLES: [&str; 4] = ["rgba", "bgra", "gbra", "brga"];

const MESH_VS: &str = "#version 330 core
in vec2 position;
in vec4 colour;
uniform vec4 rect;
out vec4 v_colour;
void main() {
    v_colour = colour;
    gl_Position = vec4(rect.xy + position * rect.zw, 0.0, 1.0);
}
";

const MESH_FS: &str = "#version 330 core
uniform vec4 tint;
in vec4 v_colour;
out vec4 frag_color;
void main() {
    frag_color = v_colour * tint;
}
";

/// A program drawn with per-draw `rect` and `tint` uniforms.
pub struct Placed {
    /// The program.
    pub program: u32,
    rect: i32,
    tint: i32,
}

impl Placed {
    fn new(
        gl: &Gl,
        name: &str,
        vs: &str,
        fs: &str,
        attributes: &[(u32, &std::ffi::CStr)],
    ) -> Result<Placed, GlClientError> {
        let program = program::link(gl, name, vs, fs, attributes)?;
        Ok(Placed {
            program,
            rect: program::uniform(gl, program, c"rect")?,
            tint: program::uniform(gl, program, c"tint")?,
        })
    }

    /// Sets the per-draw uniforms: the unit square mapped to `[x, x + w] × [y, y + h]` in clip
    /// space, tinted by `tint`. The program must be in use.
    pub fn place(&self, gl: &Gl, [x, y, w, h]: [f32; 4], [r, g, b, a]: [f32; 4]) {
        gl.uniform4f(self.rect, x, y, w, h);
        gl.uniform4f(self.tint, r, g, b, a);
    }
}

/// The textured-quad program and its unit quad.
pub struct QuadDrawer {
    /// The program (sampler on unit 0).
    pub placed: Placed,
    vao: u32,
    buffer: u32,
}

impl QuadDrawer {
    /// Builds the program and the quad.
    pub fn new(gl: &Gl) -> Result<QuadDrawer, GlClientError> {
        QuadDrawer::variant(gl, 0)
    }

    /// Builds a program whose texels are swizzled by [`SWIZZLES`]`[k % 4]`, and its quad.
    pub fn variant(gl: &Gl, k: usize) -> Result<QuadDrawer, GlClientError> {
        let fs = quad_fs(SWIZZLES[k % SWIZZLES.len()]);
        let placed = Placed::new(gl, "stress quad", QUAD_VS, &fs, &[(0, c"position")])?;
        gl.use_program(placed.program);
        gl.uniform1i(program::uniform(gl, placed.program, c"tex")?, 0);
        let vao = gl.gen_vertex_array();
        gl.bind_vertex_array(vao);
        let buffer = gl.gen_buffer();
        gl.bind_buffer(ARRAY_BUFFER, buffer);
        let quad: [[f32; 2]; 6] = [
            [0.0, 0.0],
            [1.0, 0.0],
            [1.0, 1.0],
            [1.0, 1.0],
            [0.0, 1.0],
            [0.0, 0.0],
        ];
        gl.buffer_data(ARRAY_BUFFER, &quad, STATIC_DRAW);
        gl.enable_vertex_attrib_array(0);
        gl.vertex_attrib_pointer(0, 2, FLOAT, false, 8, 0);
        gl.bind_vertex_array(0);
        gl.check_error("stress: the quad")?;
        Ok(QuadDrawer {
            placed,
            vao,
            buffer,
        })
    }

    /// Binds the program and the quad for [`QuadDrawer::draw`].
    pub fn begin(&self, gl: &Gl) {
        gl.use_program(self.placed.program);
        gl.bind_vertex_array(self.vao);
        gl.active_texture(TEXTURE0);
    }

    /// Draws `texture` into `rect`, tinted (after [`QuadDrawer::begin`]).
    pub fn draw(&self, gl: &Gl, texture: u32, rect: [f32; 4], tint: [f32; 4]) {
        gl.bind_texture(TEXTURE_2D, texture);
        self.placed.place(gl, rect, tint);
        // SAFETY: the bound VAO's only enabled attribute reads the 6-vertex quad buffer.
        unsafe { gl.draw_arrays(TRIANGLES, 0, 6) };
    }

    /// Deletes its objects.
    pub fn release(&self, gl: &Gl) {
        gl.bind_vertex_array(0);
        gl.use_program(0);
        gl.delete_vertex_array(self.vao);
        gl.delete_buffer(self.buffer);
        gl.delete_program(self.placed.program);
    }
}

/// The chunk-mesh program and a VAO reading one vertex buffer as arena vertices.
pub struct MeshDrawer {
    /// The program.
    pub placed: Placed,
    vao: u32,
}

impl MeshDrawer {
    /// Builds the program and a VAO reading `buffer`.
    pub fn new(gl: &Gl, buffer: u32) -> Result<MeshDrawer, GlClientError> {
        let placed = Placed::new(
            gl,
            "stress mesh",
            MESH_VS,
            MESH_FS,
            &[(0, c"position"), (1, c"colour")],
        )?;
        let drawer = MeshDrawer {
            placed,
            vao: gl.gen_vertex_array(),
        };
        drawer.point_at(gl, buffer);
        gl.check_error("stress: the mesh VAO")?;
        Ok(drawer)
    }

    /// Points the VAO's attributes at `buffer` and leaves the program and the VAO bound, ready
    /// for draws.
    pub fn point_at(&self, gl: &Gl, buffer: u32) {
        gl.use_program(self.placed.program);
        gl.bind_vertex_array(self.vao);
        gl.bind_buffer(ARRAY_BUFFER, buffer);
        gl.enable_vertex_attrib_array(0);
        gl.vertex_attrib_pointer(0, 2, FLOAT, false, ARENA_VERTEX_BYTES, 0);
        gl.enable_vertex_attrib_array(1);
        gl.vertex_attrib_pointer(1, 4, UNSIGNED_BYTE, true, ARENA_VERTEX_BYTES, 8);
    }

    /// Binds the program and the VAO.
    pub fn begin(&self, gl: &Gl) {
        gl.use_program(self.placed.program);
        gl.bind_vertex_array(self.vao);
    }

    /// Deletes its objects (not the buffer).
    pub fn release(&self, gl: &Gl) {
        gl.bind_vertex_array(0);
        gl.use_program(0);
        gl.delete_vertex_array(self.vao);
        gl.delete_program(self.placed.program);
    }
}

/// A vertex at (x, y) in the unit square with colour `rgba`.
pub fn vertex(x: f32, y: f32, rgba: [u8; 4]) -> ArenaVertex {
    [x.to_bits(), y.to_bits(), u32::from_le_bytes(rgba)]
}

/// A small deterministic hash (for procedural texels and colours).
pub fn hash(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^ (x >> 16)
}

/// A `side`² RGBA8 image of 8 × 8 blocks, each a colour from `seed`.
pub fn blocks(side: u32, seed: u32) -> Vec<u8> {
    let side = side as usize;
    let block = (side / 8).max(1);
    let mut out = vec![0u8; side * side * 4];
    for (i, texel) in out.chunks_exact_mut(4).enumerate() {
        let (x, y) = (i % side / block, i / side / block);
        let h = hash(seed ^ ((x as u32) << 8) ^ (y as u32));
        texel.copy_from_slice(&[
            64 + (h & 0xBF) as u8,
            64 + (h >> 8 & 0xBF) as u8,
            64 + (h >> 16 & 0xBF) as u8,
            255,
        ]);
    }
    out
}

/// The cell `index` of a `columns` × `rows` grid over clip space, with a small gap.
pub fn cell(index: usize, columns: usize, rows: usize) -> [f32; 4] {
    let (w, h) = (2.0 / columns as f32, 2.0 / rows as f32);
    let (c, r) = (index % columns, index / columns % rows);
    [
        -1.0 + c as f32 * w + w * 0.05,
        -1.0 + r as f32 * h + h * 0.05,
        w * 0.9,
        h * 0.9,
    ]
}

/// `quads` quads of a square grid over the unit square, each of its own colour from `seed`, as
/// triangles; the rest of `vertices` (fewer than a quad) is left degenerate at the origin.
pub fn quad_grid(vertices: &mut [ArenaVertex], seed: u32) -> usize {
    let quads = vertices.len() / 6;
    let n = (quads as f64).sqrt().ceil().max(1.0) as usize;
    let step = 1.0 / n as f32;
    for (q, out) in vertices.chunks_exact_mut(6).enumerate() {
        let (x, y) = ((q % n) as f32 * step, (q / n) as f32 * step);
        let h = hash(seed ^ (q as u32).wrapping_mul(0x9E37_79B9));
        let rgba = [
            (h & 0xFF) as u8,
            (h >> 8 & 0xFF) as u8,
            (h >> 16 & 0xFF) as u8,
            255,
        ];
        let (x1, y1) = (x + step * 0.9, y + step * 0.9);
        out.copy_from_slice(&[
            vertex(x, y, rgba),
            vertex(x1, y, rgba),
            vertex(x1, y1, rgba),
            vertex(x1, y1, rgba),
            vertex(x, y1, rgba),
            vertex(x, y, rgba),
        ]);
    }
    let drawn = quads * 6;
    for v in &mut vertices[drawn..] {
        *v = [0, 0, 0];
    }
    drawn
}
