//! Image uploads through staging on the real driver: 14 block atlases of 1024×1024 RGBA8 with full
//! mip chains, every level filled by 64 tile sub-uploads through the staging arenas — with RGBA,
//! RGB (converted to RGBA8, UNPACK_ALIGNMENT 1) and BGRA (swizzled, UNPACK_ROW_LENGTH and
//! SKIP_PIXELS/ROWS) client data — read back pixel-exact against a CPU reference that applies the
//! same writes.

mod common;

use arenagl_memory::{Category, ImageDesc, ImageRegion, ManagerConfig};
use arenagl_staging::{ClientFormat, PixelAlignment, PixelStore};
use ash::vk;
use common::ValidatedManager;

const ATLASES: u32 = 14;
const SIDE: u32 = 1024;

fn texel(atlas: u32, level: u32, upload: u32, x: u32, y: u32) -> [u8; 4] {
    let h = atlas.wrapping_mul(0x9E37_79B9)
        ^ level.wrapping_mul(0x85EB_CA6B)
        ^ upload.wrapping_mul(0xC2B2_AE35);
    let v = h ^ x.wrapping_mul(0x27D4_EB2F) ^ y.wrapping_mul(0x1656_67B1);
    [
        (v >> 3) as u8,
        (v >> 11) as u8,
        (v >> 19) as u8,
        (v >> 27) as u8 | 0x10,
    ]
}

/// Client bytes for a tile in `format` with `store`, plus what the device must end up holding.
fn client_tile(
    format: ClientFormat,
    store: &PixelStore,
    w: u32,
    h: u32,
    px: impl Fn(u32, u32) -> [u8; 4],
) -> Vec<u8> {
    let bpp = match format {
        ClientFormat::Rgb => 3,
        _ => 4,
    };
    let row_len = if store.row_length > 0 {
        store.row_length
    } else {
        w
    } as usize;
    let align = store.alignment.bytes() as usize;
    let stride = (row_len * bpp).div_ceil(align) * align;
    let mut out = vec![
        0xEEu8;
        stride * (h + store.skip_rows) as usize
            + (store.skip_pixels as usize + w as usize) * bpp
    ];
    for y in 0..h {
        for x in 0..w {
            let [r, g, b, a] = px(x, y);
            let at =
                (y + store.skip_rows) as usize * stride + (x + store.skip_pixels) as usize * bpp;
            match format {
                ClientFormat::Rgb => out[at..at + 3].copy_from_slice(&[r, g, b]),
                ClientFormat::Bgra => out[at..at + 4].copy_from_slice(&[b, g, r, a]),
                _ => out[at..at + 4].copy_from_slice(&[r, g, b, a]),
            }
        }
    }
    out
}

#[test]
fn fourteen_atlases_with_full_mips_from_64_sub_uploads_per_level_read_back_exactly() {
    let mut m = ValidatedManager::new(ManagerConfig::default());
    let usage = vk::ImageUsageFlags::SAMPLED
        | vk::ImageUsageFlags::TRANSFER_DST
        | vk::ImageUsageFlags::TRANSFER_SRC;
    let mips = ImageDesc::full_mip_count(vk::Extent3D {
        width: SIDE,
        height: SIDE,
        depth: 1,
    });
    let mut atlases = Vec::new();
    let mut references: Vec<Vec<Vec<[u8; 4]>>> = Vec::new();
    let mut uploads = 0u32;
    for atlas in 0..ATLASES {
        let img = m
            .create_image(
                &ImageDesc::new_2d(
                    vk::Format::R8G8B8A8_UNORM,
                    SIDE,
                    SIDE,
                    mips,
                    usage,
                    Category::Texture,
                )
                .named("atlas"),
            )
            .expect("atlas");
        let (format, store) = match atlas % 3 {
            0 => (ClientFormat::Rgba, PixelStore::default()),
            1 => (
                ClientFormat::Rgb,
                PixelStore {
                    alignment: PixelAlignment::One,
                    ..PixelStore::default()
                },
            ),
            _ => (
                ClientFormat::Bgra,
                PixelStore {
                    row_length: 0,
                    skip_pixels: 3,
                    skip_rows: 2,
                    alignment: PixelAlignment::Eight,
                    ..PixelStore::default()
                },
            ),
        };
        let mut levels = Vec::new();
        for level in 0..mips {
            let side = (SIDE >> level).max(1);
            let mut reference = vec![[0u8; 4]; (side * side) as usize];
            // 64 sub-uploads: an 8×8 grid of tiles; on levels under 8×8 texels the grid wraps
            // and later tiles overwrite earlier ones, exactly as the reference does.
            let tile = (side / 8).max(1);
            for upload in 0..64u32 {
                let tx = ((upload % 8) * tile) % side;
                let ty = ((upload / 8) * tile) % side;
                let px = |x: u32, y: u32| {
                    let [r, g, b, a] = texel(atlas, level, upload, tx + x, ty + y);
                    if format == ClientFormat::Rgb {
                        [r, g, b, 255]
                    } else {
                        [r, g, b, a]
                    }
                };
                let bytes = client_tile(format, &store, tile, tile, px);
                m.upload_image(
                    img,
                    &ImageRegion::rect(level, tx as i32, ty as i32, tile, tile),
                    &bytes,
                    &store,
                    format,
                )
                .expect("tile upload");
                uploads += 1;
                for y in 0..tile {
                    for x in 0..tile {
                        reference[((ty + y) * side + tx + x) as usize] = px(x, y);
                    }
                }
            }
            levels.push(reference);
        }
        atlases.push(img);
        references.push(levels);
        // One atlas per frame: the arenas rotate and are reused.
        m.submit().expect("submit");
        m.begin_frame().expect("frame");
    }
    assert_eq!(uploads, ATLASES * mips * 64);
    for (atlas, img) in atlases.iter().enumerate() {
        for level in 0..mips {
            let side = (SIDE >> level).max(1);
            let mut out = vec![0u8; (side * side * 4) as usize];
            m.read_image(
                *img,
                &ImageRegion::rect(level, 0, 0, side, side),
                &PixelStore::default(),
                ClientFormat::Rgba,
                &mut out,
            )
            .expect("readback");
            let expected: Vec<u8> = references[atlas][level as usize]
                .iter()
                .flatten()
                .copied()
                .collect();
            if out != expected {
                let first = out
                    .chunks(4)
                    .zip(expected.chunks(4))
                    .position(|(a, b)| a != b)
                    .unwrap_or(0) as u32;
                panic!(
                    "atlas {atlas} level {level}: first wrong texel at ({}, {})",
                    first % side,
                    first / side
                );
            }
        }
    }
    let s = m.stats();
    println!(
        "{uploads} tile uploads, {:.1} MiB staged, {} arena blocks created",
        s.staged_bytes as f64 / 1048576.0,
        s.staging_blocks_created
    );
    for img in atlases {
        m.retire_image(img).expect("retire");
    }
}
