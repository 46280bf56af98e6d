//! The benchmark scenes, each stressing one cost, each drawn a frame at a time through the same
//! GL calls under every implementation:
//!
//! - `draws`: thousands of small draws a frame, switching program (4), texture (8), blend and
//!   depth state between draws, with per-draw uniforms (placement, tint): driver CPU overhead,
//!   pipeline and descriptor caching.
//! - `uploads`: 8 MiB of `glBufferSubData` into a 16 MiB vertex buffer and a 1024² RGBA8
//!   `glTexSubImage2D` (4 MiB) every frame, both then drawn from: the staging path.
//! - `minecraft`: the demo's scene (`arenagl demo`): 14 mipmapped 1024² atlases, 64 chunk meshes
//!   in the streamed arena, per-draw uniforms, the blended pass: memory footprint.
//! - `churn`: 32 textures (64²–256²) created, uploaded, sampled and deleted every frame:
//!   object lifecycle and deferred release.
//!
//! Each frame returns its work in the scene's own unit (draws, MiB, …), so throughput is
//! reported in that unit per second beside frames per second.

use arenagl_glclient::gl::consts::*;
use arenagl_glclient::{Gl, GlClientError};
use arenagl_stress::draw::{blocks, cell, quad_grid, ArenaVertex, MeshDrawer, QuadDrawer};

use crate::demo::DemoScene;

/// The scenes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SceneKind {
    /// Draw-call heavy with state changes.
    Draws,
    /// Upload heavy.
    Uploads,
    /// The Minecraft-like memory scene (the demo).
    Minecraft,
    /// Texture churn.
    Churn,
}

impl SceneKind {
    /// Every scene, in report order.
    pub const ALL: [SceneKind; 4] = [
        SceneKind::Draws,
        SceneKind::Uploads,
        SceneKind::Minecraft,
        SceneKind::Churn,
    ];

    /// The name on the command line and in the report.
    pub fn name(self) -> &'static str {
        match self {
            SceneKind::Draws => "draws",
            SceneKind::Uploads => "uploads",
            SceneKind::Minecraft => "minecraft",
            SceneKind::Churn => "churn",
        }
    }

    /// The scene's unit of work (per second in the report).
    pub fn unit(self) -> &'static str {
        match self {
            SceneKind::Draws => "draws",
            SceneKind::Uploads => "MiB uploaded",
            SceneKind::Minecraft => "MiB streamed",
            SceneKind::Churn => "textures",
        }
    }

    /// Builds the scene's objects.
    pub fn build(self, gl: &Gl) -> Result<Box<dyn Scene>, GlClientError> {
        Ok(match self {
            SceneKind::Draws => Box::new(Draws::new(gl)?),
            SceneKind::Uploads => Box::new(Uploads::new(gl)?),
            SceneKind::Minecraft => Box::new(Minecraft(DemoScene::new(gl)?)),
            SceneKind::Churn => Box::new(Churn::new(gl)?),
        })
    }
}

impl std::str::FromStr for SceneKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        SceneKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| format!("unknown scene {s:?}: draws, uploads, minecraft or churn"))
    }
}

/// One scene's objects.
pub trait Scene {
    /// Records frame `frame` into a `width` × `height` surface (no `glFinish`); returns the work
    /// done in the scene's unit.
    fn frame(&mut self, gl: &Gl, frame: u32, width: u32, height: u32)
        -> Result<f64, GlClientError>;
    /// Deletes every object.
    fn release(&mut self, gl: &Gl);
}

fn clear(gl: &Gl, width: u32, height: u32) {
    gl.viewport(0, 0, width as i32, height as i32);
    gl.clear_color(0.1, 0.12, 0.15, 1.0);
    gl.depth_mask(TRUE);
    gl.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT);
}

/// A `side`² RGBA8 texture of blocks from `seed`, nearest-filtered.
fn block_texture(gl: &Gl, side: u32, seed: u32) -> Result<u32, GlClientError> {
    let texture = gl.gen_texture();
    gl.bind_texture(TEXTURE_2D, texture);
    gl.tex_parameter_i(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as i32);
    gl.tex_parameter_i(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as i32);
    gl.tex_image_rgba8(TEXTURE_2D, 0, side, side, Some(&blocks(side, seed)))?;
    Ok(texture)
}

/// Draws a frame.
const DRAWS_PER_FRAME: usize = 4096;

struct Draws {
    programs: Vec<QuadDrawer>,
    textures: Vec<u32>,
}

impl Draws {
    fn new(gl: &Gl) -> Result<Draws, GlClientError> {
        let programs = (0..4)
            .map(|k| QuadDrawer::variant(gl, k))
            .collect::<Result<Vec<_>, _>>()?;
        let textures = (0..8)
            .map(|k| block_texture(gl, 64, 0xD0 + k))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Draws { programs, textures })
    }
}

impl Scene for Draws {
    fn frame(
        &mut self,
        gl: &Gl,
        frame: u32,
        width: u32,
        height: u32,
    ) -> Result<f64, GlClientError> {
        clear(gl, width, height);
        gl.enable(DEPTH_TEST);
        for i in 0..DRAWS_PER_FRAME {
            // Program every 16 draws, texture every 4, blend every 8, depth function every 32:
            // state that changes at different rates, as a game's draws are sorted.
            let program = &self.programs[i / 16 % self.programs.len()];
            if i % 16 == 0 {
                program.begin(gl);
            }
            if i % 8 == 0 {
                if i / 8 % 2 == 0 {
                    gl.enable(BLEND);
                    gl.blend_func(SRC_ALPHA, ONE_MINUS_SRC_ALPHA);
                } else {
                    gl.disable(BLEND);
                }
            }
            if i % 32 == 0 {
                gl.depth_func(if i / 32 % 2 == 0 { LESS } else { LEQUAL });
            }
            let texture = self.textures[(i / 4 + frame as usize) % self.textures.len()];
            let [x, y, w, h] = cell(i, 64, 64);
            let t = (i as f32 * 0.37 + frame as f32 * 0.1).sin() * 0.5 + 0.5;
            program.draw(gl, texture, [x, y, w, h], [t, 1.0 - t, 0.8, 0.75]);
        }
        gl.disable(BLEND);
        gl.disable(DEPTH_TEST);
        Ok(DRAWS_PER_FRAME as f64)
    }

    fn release(&mut self, gl: &Gl) {
        for p in &self.programs {
            p.release(gl);
        }
        for t in self.textures.drain(..) {
            gl.delete_texture(t);
        }
    }
}

/// Bytes of the uploads scene's vertex buffer.
const UPLOAD_BUFFER_BYTES: usize = 16 << 20;
/// Bytes rewritten in it a frame (in 8 ranges of 1 MiB).
const UPLOAD_BUFFER_PER_FRAME: usize = 8 << 20;
/// Side of the uploads scene's texture, rewritten whole every frame.
const UPLOAD_TEXTURE_SIDE: u32 = 1024;

struct Uploads {
    buffer: u32,
    mesh: MeshDrawer,
    quad: QuadDrawer,
    texture: u32,
    /// 1 MiB of vertices, regenerated per range.
    vertices: Vec<ArenaVertex>,
    /// Two texture images, alternated.
    images: [Vec<u8>; 2],
}

impl Uploads {
    fn new(gl: &Gl) -> Result<Uploads, GlClientError> {
        let buffer = gl.gen_buffer();
        gl.bind_buffer(ARRAY_BUFFER, buffer);
        gl.buffer_storage_uninit(ARRAY_BUFFER, UPLOAD_BUFFER_BYTES, DYNAMIC_DRAW);
        let mesh = MeshDrawer::new(gl, buffer)?;
        let quad = QuadDrawer::new(gl)?;
        let side = UPLOAD_TEXTURE_SIDE;
        let texture = block_texture(gl, side, 1)?;
        Ok(Uploads {
            buffer,
            mesh,
            quad,
            texture,
            vertices: vec![[0; 3]; (1 << 20) / 12],
            images: [blocks(side, 2), blocks(side, 3)],
        })
    }
}

impl Scene for Uploads {
    fn frame(
        &mut self,
        gl: &Gl,
        frame: u32,
        width: u32,
        height: u32,
    ) -> Result<f64, GlClientError> {
        let range_bytes = self.vertices.len() * 12;
        let ranges = UPLOAD_BUFFER_PER_FRAME / range_bytes;
        let slots = UPLOAD_BUFFER_BYTES / range_bytes;
        let mut drawn = 0;
        gl.bind_buffer(ARRAY_BUFFER, self.buffer);
        for r in 0..ranges {
            drawn = quad_grid(&mut self.vertices, frame << 8 ^ r as u32);
            let slot = (frame as usize * ranges + r) % slots;
            gl.buffer_sub_data(ARRAY_BUFFER, slot * range_bytes, &self.vertices);
        }
        gl.bind_texture(TEXTURE_2D, self.texture);
        let side = UPLOAD_TEXTURE_SIDE;
        gl.tex_sub_image_rgba8(
            TEXTURE_2D,
            0,
            0,
            0,
            side,
            side,
            &self.images[frame as usize % 2],
        )?;
        clear(gl, width, height);
        self.quad.begin(gl);
        self.quad
            .draw(gl, self.texture, [-1.0, -1.0, 1.0, 2.0], [1.0; 4]);
        self.mesh.begin(gl);
        for r in 0..ranges {
            let slot = (frame as usize * ranges + r) % slots;
            self.mesh.placed.place(gl, cell(4 + r, 4, 4), [1.0; 4]);
            // SAFETY: the VAO reads the 16 MiB buffer; this draw reads range `slot`'s first
            // `drawn` vertices, inside it.
            unsafe { gl.draw_arrays(TRIANGLES, (slot * self.vertices.len()) as i32, drawn as i32) };
        }
        let bytes = ranges * range_bytes + (side * side * 4) as usize;
        Ok(bytes as f64 / f64::from(1 << 20))
    }

    fn release(&mut self, gl: &Gl) {
        self.mesh.release(gl);
        self.quad.release(gl);
        gl.delete_buffer(self.buffer);
        gl.delete_texture(self.texture);
    }
}

struct Minecraft(DemoScene);

impl Scene for Minecraft {
    fn frame(
        &mut self,
        gl: &Gl,
        frame: u32,
        width: u32,
        height: u32,
    ) -> Result<f64, GlClientError> {
        let bytes = self.0.frame(gl, frame, width, height);
        Ok(bytes as f64 / f64::from(1 << 20))
    }

    fn release(&mut self, gl: &Gl) {
        self.0.release(gl);
    }
}

/// Textures created, sampled and deleted a frame.
const CHURNED_TEXTURES: usize = 32;

struct Churn {
    quad: QuadDrawer,
    /// Texel images by side (64, 128, 256), made once: the scene measures GL, not the pattern.
    images: Vec<(u32, Vec<u8>)>,
}

impl Churn {
    fn new(gl: &Gl) -> Result<Churn, GlClientError> {
        Ok(Churn {
            quad: QuadDrawer::new(gl)?,
            images: [64u32, 128, 256]
                .into_iter()
                .map(|side| (side, blocks(side, side)))
                .collect(),
        })
    }
}

impl Scene for Churn {
    fn frame(
        &mut self,
        gl: &Gl,
        frame: u32,
        width: u32,
        height: u32,
    ) -> Result<f64, GlClientError> {
        clear(gl, width, height);
        self.quad.begin(gl);
        for i in 0..CHURNED_TEXTURES {
            let (side, image) = &self.images[(i + frame as usize) % self.images.len()];
            let texture = gl.gen_texture();
            gl.bind_texture(TEXTURE_2D, texture);
            gl.tex_parameter_i(TEXTURE_2D, TEXTURE_MIN_FILTER, NEAREST as i32);
            gl.tex_parameter_i(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as i32);
            gl.tex_image_rgba8(TEXTURE_2D, 0, *side, *side, Some(image))?;
            self.quad.draw(gl, texture, cell(i, 8, 4), [1.0; 4]);
            gl.delete_texture(texture);
        }
        Ok(CHURNED_TEXTURES as f64)
    }

    fn release(&mut self, gl: &Gl) {
        self.quad.release(gl);
    }
}
