//! The demo's block atlases: one 1024² RGBA8 texture per block kind, 16 × 16 tiles of
//! procedurally varied texels, with every mip level computed here (2×2 box filter) and uploaded
//! explicitly, as Minecraft does, rather than with `glGenerateMipmap`.

use super::world::{hash, BLOCK_KINDS, TILES};

/// Atlas side in texels.
pub const ATLAS_SIDE: u32 = 1024;

/// Base colours of the block kinds, in `block` order.
const BASE: [[u8; 3]; BLOCK_KINDS] = [
    [96, 160, 64],   // grass
    [134, 96, 67],   // dirt
    [125, 125, 125], // stone
    [219, 207, 163], // sand
    [48, 88, 200],   // water
    [200, 230, 240], // glass
    [102, 81, 50],   // log
    [60, 120, 40],   // leaves
    [162, 130, 78],  // planks
    [110, 110, 110], // cobble
    [136, 126, 126], // gravel
    [240, 250, 250], // snow
    [140, 120, 150], // ore
    [150, 75, 60],   // brick
];

/// Level 0 of block kind `kind`'s atlas (`kind` 0-based).
pub fn level0(kind: usize) -> Vec<u8> {
    let side = ATLAS_SIDE as usize;
    let tile = side / TILES;
    let base = BASE[kind % BLOCK_KINDS];
    let alpha: u8 = match kind + 1 {
        5 => 170, // water
        6 => 110, // glass
        _ => 255,
    };
    let mut out = vec![0u8; side * side * 4];
    for y in 0..side {
        for x in 0..side {
            let (tx, ty) = (x / tile, y / tile);
            // Blocky noise: 16 × 16 "pixels" per tile, like a block texture scaled up.
            let (px, py) = ((x % tile) * 16 / tile, (y % tile) * 16 / tile);
            let n = hash(
                (kind as u32) << 24 ^ ((tx * TILES + ty) as u32) << 12 ^ (px * 16 + py) as u32,
            );
            let light = 160 + n % 96;
            let border = px == 0 || py == 0;
            let i = (y * side + x) * 4;
            for c in 0..3 {
                let v = u32::from(base[c]) * light / 255;
                out[i + c] = if border {
                    (v * 3 / 4) as u8
                } else {
                    v.min(255) as u8
                };
            }
            out[i + 3] = alpha;
        }
    }
    out
}

/// The next mip level of a `side`² level (2×2 box filter, rounded).
pub fn downsample(level: &[u8], side: usize) -> Vec<u8> {
    let half = (side / 2).max(1);
    let mut out = vec![0u8; half * half * 4];
    for y in 0..half {
        for x in 0..half {
            for c in 0..4 {
                let at = |sx: usize, sy: usize| {
                    u32::from(level[((sy.min(side - 1)) * side + sx.min(side - 1)) * 4 + c])
                };
                let sum = at(2 * x, 2 * y)
                    + at(2 * x + 1, 2 * y)
                    + at(2 * x, 2 * y + 1)
                    + at(2 * x + 1, 2 * y + 1);
                out[(y * half + x) * 4 + c] = ((sum + 2) / 4) as u8;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mip_chain_ends_at_one_texel() {
        let mut level = vec![200u8; 8 * 8 * 4];
        let mut side = 8;
        while side > 1 {
            level = downsample(&level, side);
            side /= 2;
        }
        assert_eq!(level, vec![200u8; 4]);
    }
}
