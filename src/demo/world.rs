//! The demo's world: 8 × 8 chunks of 16³ blocks on a deterministic height field, and the meshing
//! that turns a chunk into surface faces only (a face is emitted where its neighbour lets light
//! through), as Minecraft's chunk renderer does.
//!
//! Pure CPU code with no GL: the renderer uploads what this produces. Opaque and translucent
//! faces (water, glass) are meshed apart because they are drawn in different passes.

use crate::glclient::gl::Plain;

/// Blocks per chunk side.
pub const CHUNK: usize = 16;
/// Chunks per world side.
pub const CHUNKS_PER_SIDE: usize = 8;
/// Chunks in the world.
pub const CHUNK_COUNT: usize = CHUNKS_PER_SIDE * CHUNKS_PER_SIDE;
/// World size in blocks along x and z (y is one chunk high).
pub const WORLD: usize = CHUNK * CHUNKS_PER_SIDE;
/// Water fills columns up to this height.
pub const SEA_LEVEL: usize = 6;

/// Block kinds; 0 is air, `1..=BLOCK_KINDS` each have an atlas.
pub mod block {
    pub const AIR: u8 = 0;
    pub const GRASS: u8 = 1;
    pub const DIRT: u8 = 2;
    pub const STONE: u8 = 3;
    pub const SAND: u8 = 4;
    pub const WATER: u8 = 5;
    pub const GLASS: u8 = 6;
    pub const LOG: u8 = 7;
    pub const LEAVES: u8 = 8;
    pub const PLANKS: u8 = 9;
    pub const COBBLE: u8 = 10;
    pub const GRAVEL: u8 = 11;
    pub const SNOW: u8 = 12;
    pub const ORE: u8 = 13;
    pub const BRICK: u8 = 14;
}
/// Block kinds with an atlas.
pub const BLOCK_KINDS: usize = 14;

/// One vertex as the shaders read it: chunk-local position, atlas uv, light shade, block kind
/// (an integer attribute).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vertex {
    pub position: [f32; 3],
    pub uv: [f32; 2],
    pub shade: f32,
    pub block: i32,
}
/// Bytes per vertex.
pub const VERTEX_BYTES: usize = std::mem::size_of::<Vertex>();

// SAFETY: `Vertex` is `repr(C)` of 4-byte fields only (28 bytes, no padding), and every bit
// pattern of f32 and i32 is valid.
unsafe impl Plain for Vertex {}

/// A small integer hash (deterministic noise).
pub fn hash(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^ (x >> 16)
}

fn hash3(x: usize, y: usize, z: usize) -> u32 {
    hash(
        (x as u32).wrapping_mul(73_856_093)
            ^ (y as u32).wrapping_mul(19_349_663)
            ^ (z as u32).wrapping_mul(83_492_791),
    )
}

/// The world's blocks.
pub struct World {
    blocks: Vec<u8>,
}

fn terrain_height(x: usize, z: usize) -> usize {
    let (fx, fz) = (x as f32, z as f32);
    let h =
        7.0 + 3.0 * (fx * 0.19).sin() + 2.5 * (fz * 0.23).cos() + 1.5 * ((fx + fz) * 0.11).sin();
    h.clamp(2.0, 14.0) as usize
}

impl World {
    /// The world, generated.
    pub fn generate() -> World {
        let mut world = World {
            blocks: vec![block::AIR; WORLD * CHUNK * WORLD],
        };
        for x in 0..WORLD {
            for z in 0..WORLD {
                let h = terrain_height(x, z);
                for y in 0..h {
                    let depth = h - 1 - y;
                    let kind = match depth {
                        0 if h <= SEA_LEVEL => block::SAND,
                        0 if h >= 12 => block::SNOW,
                        0 => block::GRASS,
                        1..=2 if h <= SEA_LEVEL => block::GRAVEL,
                        1..=2 => block::DIRT,
                        _ if hash3(x, y, z) % 23 == 0 => block::ORE,
                        _ if hash3(x, y, z) % 7 == 0 => block::COBBLE,
                        _ => block::STONE,
                    };
                    world.set(x, y, z, kind);
                }
                for y in h..SEA_LEVEL {
                    world.set(x, y, z, block::WATER);
                }
                // Sparse trees, glass huts and brick posts on dry land.
                let r = hash3(x, 99, z) % 400;
                if h > SEA_LEVEL
                    && h + 4 < CHUNK
                    && (2..WORLD - 2).contains(&x)
                    && (2..WORLD - 2).contains(&z)
                {
                    match r {
                        0..=2 => {
                            for y in h..h + 3 {
                                world.set(x, y, z, block::LOG);
                            }
                            for (dx, dz) in [(0, 0), (1, 0), (0, 1), (2, 0), (0, 2)] {
                                world.set(x + dx - 1, h + 3, z + dz - 1, block::LEAVES);
                            }
                        }
                        3 => {
                            for y in h..h + 2 {
                                world.set(x, y, z, block::GLASS);
                                world.set(x + 1, y, z, block::PLANKS);
                            }
                        }
                        4 => world.set(x, h, z, block::BRICK),
                        _ => {}
                    }
                }
            }
        }
        world
    }

    fn index(x: usize, y: usize, z: usize) -> usize {
        (x * CHUNK + y) * WORLD + z
    }

    /// The block at (x, y, z); air outside the world.
    pub fn get(&self, x: isize, y: isize, z: isize) -> u8 {
        if x < 0 || y < 0 || z < 0 {
            return block::AIR;
        }
        let (x, y, z) = (x as usize, y as usize, z as usize);
        if x >= WORLD || y >= CHUNK || z >= WORLD {
            return block::AIR;
        }
        self.blocks[Self::index(x, y, z)]
    }

    /// Sets the block at (x, y, z); outside the world nothing happens.
    pub fn set(&mut self, x: usize, y: usize, z: usize, kind: u8) {
        if x < WORLD && y < CHUNK && z < WORLD {
            self.blocks[Self::index(x, y, z)] = kind;
        }
    }

    /// The deterministic edit of `frame` in chunk `chunk`, like a player building: on a column
    /// away from the chunk's border (so neighbours' meshes stay right) a brick is laid on the
    /// top solid block, or a brick on top is taken away again.
    pub fn edit(&mut self, chunk: usize, frame: u32) {
        let r = hash(frame.wrapping_mul(31).wrapping_add(chunk as u32));
        let x = (chunk % CHUNKS_PER_SIDE) * CHUNK + 1 + (r as usize % (CHUNK - 2));
        let z = (chunk / CHUNKS_PER_SIDE) * CHUNK + 1 + ((r >> 8) as usize % (CHUNK - 2));
        let at = |y: usize| self.get(x as isize, y as isize, z as isize);
        let Some(top) = (0..CHUNK)
            .rev()
            .find(|&y| !matches!(at(y), block::AIR | block::WATER))
        else {
            return;
        };
        if at(top) == block::BRICK && (r >> 16) % 3 == 0 {
            self.set(x, top, z, block::AIR);
        } else if top + 1 < CHUNK && at(top + 1) == block::AIR {
            self.set(x, top + 1, z, block::BRICK);
        }
    }
}

fn translucent(kind: u8) -> bool {
    matches!(
        kind,
        block::AIR | block::WATER | block::GLASS | block::LEAVES
    )
}

/// The 6 face directions: neighbour offset, the 4 corners of the face on the unit cube
/// (counter-clockwise seen from outside, so the opaque pass can cull back faces), and the face's
/// light shade.
const FACES: [([isize; 3], [[f32; 3]; 4], f32); 6] = [
    (
        [0, 1, 0],
        [
            [0.0, 1.0, 1.0],
            [1.0, 1.0, 1.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
        ],
        1.0,
    ),
    (
        [0, -1, 0],
        [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 0.0, 1.0],
            [0.0, 0.0, 1.0],
        ],
        0.5,
    ),
    (
        [1, 0, 0],
        [
            [1.0, 0.0, 1.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [1.0, 1.0, 1.0],
        ],
        0.8,
    ),
    (
        [-1, 0, 0],
        [
            [0.0, 0.0, 0.0],
            [0.0, 0.0, 1.0],
            [0.0, 1.0, 1.0],
            [0.0, 1.0, 0.0],
        ],
        0.8,
    ),
    (
        [0, 0, 1],
        [
            [0.0, 0.0, 1.0],
            [1.0, 0.0, 1.0],
            [1.0, 1.0, 1.0],
            [0.0, 1.0, 1.0],
        ],
        0.65,
    ),
    (
        [0, 0, -1],
        [
            [1.0, 0.0, 0.0],
            [0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [1.0, 1.0, 0.0],
        ],
        0.65,
    ),
];

/// Tiles per atlas side (each face samples one tile, chosen by position).
pub const TILES: usize = 16;

/// A chunk's faces: opaque and translucent vertices, 4 per face.
#[derive(Default)]
pub struct ChunkMesh {
    pub opaque: Vec<Vertex>,
    pub translucent: Vec<Vertex>,
}

/// The world-space origin of chunk `chunk`.
pub fn chunk_origin(chunk: usize) -> [f32; 3] {
    [
        ((chunk % CHUNKS_PER_SIDE) * CHUNK) as f32,
        0.0,
        ((chunk / CHUNKS_PER_SIDE) * CHUNK) as f32,
    ]
}

impl World {
    /// Meshes chunk `chunk`: every face of a solid block whose neighbour lets light through, and
    /// for water only the surface, for glass only faces not touching glass.
    pub fn mesh(&self, chunk: usize) -> ChunkMesh {
        let mut mesh = ChunkMesh::default();
        let (cx, cz) = (
            (chunk % CHUNKS_PER_SIDE) * CHUNK,
            (chunk / CHUNKS_PER_SIDE) * CHUNK,
        );
        for lx in 0..CHUNK {
            for y in 0..CHUNK {
                for lz in 0..CHUNK {
                    let (x, z) = (cx + lx, cz + lz);
                    let kind = self.get(x as isize, y as isize, z as isize);
                    if kind == block::AIR {
                        continue;
                    }
                    for (d, (offset, corners, shade)) in FACES.iter().enumerate() {
                        let n = self.get(
                            x as isize + offset[0],
                            y as isize + offset[1],
                            z as isize + offset[2],
                        );
                        let visible = match kind {
                            block::WATER => d == 0 && n == block::AIR,
                            block::GLASS => n != block::GLASS && translucent(n),
                            _ => translucent(n),
                        };
                        if !visible {
                            continue;
                        }
                        let tile = hash3(x, y, z.wrapping_add(d)) as usize % (TILES * TILES);
                        let (tu, tv) = ((tile % TILES) as f32, (tile / TILES) as f32);
                        let out = if matches!(kind, block::WATER | block::GLASS) {
                            &mut mesh.translucent
                        } else {
                            &mut mesh.opaque
                        };
                        let surface = if kind == block::WATER { 0.1 } else { 0.0 };
                        for (k, c) in corners.iter().enumerate() {
                            let (u, v) = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)][k];
                            out.push(Vertex {
                                position: [
                                    lx as f32 + c[0],
                                    y as f32 + c[1] - surface,
                                    lz as f32 + c[2],
                                ],
                                uv: [(tu + u) / TILES as f32, (tv + v) / TILES as f32],
                                shade: *shade,
                                block: i32::from(kind - 1),
                            });
                        }
                    }
                }
            }
        }
        mesh
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meshes_only_surface_faces() {
        let world = World::generate();
        let mesh = world.mesh(0);
        // A full chunk of 16³ cubes would have 24 576 faces; the surface has far fewer.
        let faces = mesh.opaque.len() / 4;
        assert!(
            faces > CHUNK * CHUNK && faces < 4 * CHUNK * CHUNK * 2,
            "{faces} faces"
        );
        assert_eq!(mesh.opaque.len() % 4, 0);
    }

    #[test]
    fn edits_are_deterministic() {
        let (mut a, mut b) = (World::generate(), World::generate());
        for frame in 0..50 {
            a.edit(frame as usize % CHUNK_COUNT, frame);
            b.edit(frame as usize % CHUNK_COUNT, frame);
        }
        assert!(a.blocks == b.blocks);
    }
}
