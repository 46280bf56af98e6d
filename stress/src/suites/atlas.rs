//! Atlas stitching: 14 atlases with every mip level, each level stitched from an 8 × 8 grid of
//! tiles, one `glTexSubImage2D` per tile (64 sub-uploads a level; levels under 8 texels a side
//! have one tile per texel row and column). Every frame re-stitches one atlas with new tiles (a
//! resource reload, animated textures) and samples all 14 (trilinear, one quad each).
//!
//! Each tile is a solid colour at every level, so each level is exactly the box-filtered level
//! above it down to 8 texels: a dropped top level blurs nothing that sampling at the quads' size
//! would show, which keeps final frames comparable across budgets.

use arenagl_glclient::gl::consts::*;
use arenagl_glclient::{Gl, GlClientError, Session};

use super::{begin_frame, Workload};
use crate::config::{Sizes, ATLASES};
use crate::draw::{cell, hash, QuadDrawer};
use crate::StressError;

/// Tiles a side at levels of at least 8 texels.
const GRID: u32 = 8;

pub(super) struct Atlases {
    quad: QuadDrawer,
    textures: Vec<u32>,
    side: u32,
}

impl Atlases {
    pub(super) fn new(gl: &Gl, sizes: &Sizes) -> Result<Atlases, StressError> {
        let quad = QuadDrawer::new(gl)?;
        let side = sizes.atlas_side;
        let mut textures = Vec::with_capacity(ATLASES);
        for kind in 0..ATLASES {
            let texture = gl.gen_texture();
            gl.bind_texture(TEXTURE_2D, texture);
            gl.tex_parameter_i(TEXTURE_2D, TEXTURE_MIN_FILTER, LINEAR_MIPMAP_LINEAR as i32);
            gl.tex_parameter_i(TEXTURE_2D, TEXTURE_MAG_FILTER, NEAREST as i32);
            gl.tex_parameter_i(TEXTURE_2D, TEXTURE_WRAP_S, CLAMP_TO_EDGE as i32);
            gl.tex_parameter_i(TEXTURE_2D, TEXTURE_WRAP_T, CLAMP_TO_EDGE as i32);
            let (mut level_side, mut level) = (side, 0);
            loop {
                gl.tex_image_rgba8(TEXTURE_2D, level, level_side, level_side, None)?;
                if level_side == 1 {
                    break;
                }
                level_side /= 2;
                level += 1;
            }
            gl.tex_parameter_i(TEXTURE_2D, TEXTURE_MAX_LEVEL, level);
            stitch(gl, texture, side, kind as u32)?;
            textures.push(texture);
        }
        Ok(Atlases {
            quad,
            textures,
            side,
        })
    }
}

/// Uploads every level of `texture` (a `side`² atlas) tile by tile, tiles coloured from `seed`.
fn stitch(gl: &Gl, texture: u32, side: u32, seed: u32) -> Result<(), GlClientError> {
    gl.bind_texture(TEXTURE_2D, texture);
    let (mut level_side, mut level) = (side, 0);
    let mut tile_texels = Vec::new();
    loop {
        let grid = GRID.min(level_side);
        let tile = level_side / grid;
        for ty in 0..grid {
            for tx in 0..grid {
                // The tile of the 8 × 8 grid this texel block belongs to (levels under 8 texels
                // merge tiles), so every level shows the same picture.
                let (gx, gy) = (tx * GRID / grid, ty * GRID / grid);
                let h = hash(seed.wrapping_mul(0x0100_0193) ^ (gy << 4 | gx));
                let rgba = [
                    40 + (h & 0xBF) as u8,
                    40 + (h >> 8 & 0xBF) as u8,
                    40 + (h >> 16 & 0xBF) as u8,
                    255,
                ];
                tile_texels.clear();
                for _ in 0..tile * tile {
                    tile_texels.extend_from_slice(&rgba);
                }
                gl.tex_sub_image_rgba8(
                    TEXTURE_2D,
                    level,
                    (tx * tile) as i32,
                    (ty * tile) as i32,
                    tile,
                    tile,
                    &tile_texels,
                )?;
            }
        }
        if level_side == 1 {
            return Ok(());
        }
        level_side /= 2;
        level += 1;
    }
}

impl Workload for Atlases {
    fn frame(&mut self, session: &mut Session, frame: u32, _last: bool) -> Result<(), StressError> {
        let (width, height) = session.surface_size()?;
        let gl = session.gl();
        let restitched = frame as usize % ATLASES;
        stitch(
            gl,
            self.textures[restitched],
            self.side,
            restitched as u32 ^ (frame + 1) << 8,
        )?;
        begin_frame(gl, width, height);
        self.quad.begin(gl);
        for (i, &texture) in self.textures.iter().enumerate() {
            let shade = 0.75 + 0.25 * ((i as u32 + frame) % 4) as f32 / 3.0;
            self.quad
                .draw(gl, texture, cell(i, 4, 4), [shade, shade, shade, 1.0]);
        }
        Ok(())
    }

    fn release(&mut self, gl: &Gl) {
        self.quad.release(gl);
        for texture in self.textures.drain(..) {
            gl.delete_texture(texture);
        }
    }
}
