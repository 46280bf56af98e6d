//! Loading without frames on the real driver: uploads that would chain staging blocks onto the
//! current slot instead wait for the device and rewind the slot (`Manager::bound_staging`), so
//! the staging memory a load touches stays one arena however much it uploads, and every texel
//! still arrives. A range handed out by `stream` (read by a command the client records later)
//! keeps the slot from being rewound until the next frame boundary. A frame whose slot the device
//! has finished with starts in that slot again, so the other slot's arena is never made.

mod common;

use arenagl_memory::{Category, ImageDesc, ImageRegion, ManagerConfig};
use arenagl_staging::{ClientFormat, PixelStore};
use ash::vk;
use common::ValidatedManager;

const SIDE: u32 = 512;
const TILE: u32 = 128;
/// One tile of RGBA8: 64 KiB, the arena of these tests.
const ARENA: u64 = (TILE * TILE * 4) as u64;

fn manager() -> ValidatedManager {
    ValidatedManager::new(ManagerConfig {
        staging_arena_size: ARENA,
        ..ManagerConfig::default()
    })
}

fn texture(m: &mut ValidatedManager) -> arenagl_memory::ImageHandle {
    m.create_image(
        &ImageDesc::new_2d(
            vk::Format::R8G8B8A8_UNORM,
            SIDE,
            SIDE,
            1,
            vk::ImageUsageFlags::SAMPLED
                | vk::ImageUsageFlags::TRANSFER_DST
                | vk::ImageUsageFlags::TRANSFER_SRC,
            Category::Texture,
        )
        .named("loaded texture"),
    )
    .expect("texture")
}

fn tile_bytes(tile: u32) -> Vec<u8> {
    (0..TILE * TILE)
        .flat_map(|i| {
            let v = i.wrapping_mul(0x9E37_79B9) ^ tile.wrapping_mul(0x85EB_CA6B);
            [v as u8, (v >> 8) as u8, (v >> 16) as u8, 0xFF]
        })
        .collect()
}

/// Uploads the 16 tiles of the texture with no frame in between; returns the reference image.
fn load(m: &mut ValidatedManager, img: arenagl_memory::ImageHandle) -> Vec<u8> {
    let per_row = SIDE / TILE;
    let mut reference = vec![0u8; (SIDE * SIDE * 4) as usize];
    for tile in 0..per_row * per_row {
        let (tx, ty) = ((tile % per_row) * TILE, (tile / per_row) * TILE);
        let bytes = tile_bytes(tile);
        m.upload_image(
            img,
            &ImageRegion::rect(0, tx as i32, ty as i32, TILE, TILE),
            &bytes,
            &PixelStore::default(),
            ClientFormat::Rgba,
        )
        .expect("tile upload");
        for y in 0..TILE {
            let src = (y * TILE * 4) as usize;
            let dst = (((ty + y) * SIDE + tx) * 4) as usize;
            reference[dst..dst + (TILE * 4) as usize]
                .copy_from_slice(&bytes[src..src + (TILE * 4) as usize]);
        }
    }
    reference
}

#[test]
fn a_load_without_frames_reuses_one_arena_and_every_texel_arrives() {
    let mut m = manager();
    let img = texture(&mut m);
    let reference = load(&mut m, img);
    let s = m.stats();
    // 16 tiles of one arena each: all but the first rewound the full slot after a wait.
    assert_eq!(s.staging_bounds, 15, "{s:#?}");
    let staging_peak = s.categories[Category::Staging.index()].peak_bytes;
    assert!(
        staging_peak <= 2 * ARENA,
        "staging peaked at {staging_peak} bytes for a {ARENA}-byte arena"
    );
    let mut out = vec![0u8; reference.len()];
    m.read_image(
        img,
        &ImageRegion::rect(0, 0, 0, SIDE, SIDE),
        &PixelStore::default(),
        ClientFormat::Rgba,
        &mut out,
    )
    .expect("readback");
    assert!(
        out == reference,
        "the loaded texture differs from what was uploaded"
    );
    m.retire_image(img).expect("retire");
    m.assert_validation_clean();
}

#[test]
fn a_streamed_range_keeps_the_slot_until_the_frame_ends() {
    let mut m = manager();
    let img = texture(&mut m);
    // A draw's per-draw data, handed out and not yet read by a recorded command.
    m.stream(&[7u8; 256], 256).expect("stream");
    let _ = load(&mut m, img);
    let s = m.stats();
    assert_eq!(
        s.staging_bounds, 0,
        "the slot was rewound under a streamed range"
    );
    assert!(s.categories[Category::Staging.index()].peak_bytes >= 16 * ARENA);
    // After a frame boundary nothing handed out is pending: loading is bounded again.
    m.submit().expect("submit");
    m.begin_frame().expect("frame");
    let _ = load(&mut m, img);
    assert!(m.stats().staging_bounds > 0);
    m.retire_image(img).expect("retire");
    m.assert_validation_clean();
}

#[test]
fn frames_the_device_has_finished_reuse_one_slot() {
    let mut m = manager();
    let img = texture(&mut m);
    for tile in 0..6 {
        m.upload_image(
            img,
            &ImageRegion::rect(0, 0, 0, TILE, TILE),
            &tile_bytes(tile),
            &PixelStore::default(),
            ClientFormat::Rgba,
        )
        .expect("tile upload");
        let epoch = m.submit().expect("submit");
        m.wait_epoch(epoch).expect("wait");
        m.begin_frame().expect("frame");
    }
    // Each frame found the device done with its slot and rewound it in place: the second
    // slot's arena was never created.
    assert_eq!(m.stats().staging_blocks_created, 1);
    m.retire_image(img).expect("retire");
    m.assert_validation_clean();
}
