//! Staging arenas and buffer uploads on the real driver: 1,000 frames each streaming 2 MiB into a
//! 64 MiB mesh buffer that a draw of the same frame already uses (so the upload must be staged, not
//! written in place): after warm-up there are zero `vkAllocateMemory` calls, and the final contents
//! are exact. Also an upload larger than a whole arena is split and lands exactly, and an idle
//! host-visible buffer is written in place where memory is unified.

mod common;

use arenagl_memory::{
    BufferDesc, Category, ImageDesc, ImageRegion, ManagerConfig, MemoryClass, UploadPath,
};
use arenagl_staging::{ClientFormat, PixelStore};
use ash::vk;
use common::ValidatedManager;

const ARENA: u64 = 64 << 20;
const CHUNK: u64 = 2 << 20;
const WINDOWS: u64 = ARENA / CHUNK;

fn chunk(frame: u64) -> Vec<u8> {
    (0..CHUNK)
        .map(|i| (i.wrapping_mul(2654435761) >> 7 ^ frame.wrapping_mul(97)) as u8)
        .collect()
}

fn mesh_buffer(m: &mut ValidatedManager, size: u64) -> arenagl_memory::BufferHandle {
    m.create_buffer(
        &BufferDesc::new(
            size,
            vk::BufferUsageFlags::VERTEX_BUFFER
                | vk::BufferUsageFlags::TRANSFER_DST
                | vk::BufferUsageFlags::TRANSFER_SRC,
            MemoryClass::DeviceBuffer,
            Category::Buffer,
        )
        .named("chunk meshes"),
    )
    .expect("mesh buffer")
}

#[test]
fn a_thousand_frames_of_streaming_allocate_nothing_after_warm_up() {
    let mut m = ValidatedManager::new(ManagerConfig::default());
    let mesh = mesh_buffer(&mut m, ARENA);
    let mut after_warm_up = None;
    for frame in 0..1000u64 {
        m.begin_frame().expect("frame");
        // A draw recorded earlier this frame reads the mesh buffer: it is in flight.
        m.use_buffer(mesh).expect("draw uses the mesh");
        let path = m
            .upload_buffer(mesh, (frame % WINDOWS) * CHUNK, &chunk(frame))
            .expect("stream");
        assert!(
            matches!(path, UploadPath::Staged { .. }),
            "a busy buffer must be staged, got {path:?}"
        );
        m.submit().expect("submit");
        if frame == 9 {
            after_warm_up = Some(m.stats().device_memory.allocate_calls);
        }
    }
    let s = m.stats();
    let warm = after_warm_up.expect("warm-up figure");
    println!(
        "1000 frames × 2 MiB: {} vkAllocateMemory calls in warm-up, {} after; {} arena blocks; {} frame waits",
        warm,
        s.device_memory.allocate_calls - warm,
        s.staging_blocks_created,
        s.staging_waits
    );
    assert_eq!(
        s.device_memory.allocate_calls, warm,
        "staging allocated device memory in steady state"
    );
    assert_eq!(s.staged_bytes, 1000 * CHUNK);
    let mut out = vec![0u8; CHUNK as usize];
    for window in 0..WINDOWS {
        let last = (0..1000u64)
            .rev()
            .find(|f| f % WINDOWS == window)
            .expect("written");
        m.read_buffer_range(mesh, window * CHUNK, &mut out)
            .expect("readback");
        assert!(
            out == chunk(last),
            "window {window} does not hold frame {last}"
        );
    }
    m.retire_buffer(mesh).expect("retire");
}

#[test]
fn uploads_larger_than_an_arena_are_split_and_exact() {
    let arena = 1 << 20;
    let mut m = ValidatedManager::new(ManagerConfig {
        staging_arena_size: arena,
        ..ManagerConfig::default()
    });
    // A buffer upload of 5.5 arenas, into a buffer in flight.
    let len = 5 * arena + arena / 2;
    let buf = mesh_buffer(&mut m, len + 4096);
    let data: Vec<u8> = (0..len).map(|i| (i * 7 + i / 4099) as u8).collect();
    m.use_buffer(buf).expect("in flight");
    let path = m.upload_buffer(buf, 4096, &data).expect("big upload");
    assert_eq!(path, UploadPath::Staged { chunks: 6 });
    let mut out = vec![0u8; len as usize];
    m.read_buffer_range(buf, 4096, &mut out).expect("readback");
    assert!(out == data);
    // An image of 16 arenas (2048² RGBA8), one upload.
    let usage = vk::ImageUsageFlags::TRANSFER_DST
        | vk::ImageUsageFlags::TRANSFER_SRC
        | vk::ImageUsageFlags::SAMPLED;
    let img = m
        .create_image(&ImageDesc::new_2d(
            vk::Format::R8G8B8A8_UNORM,
            2048,
            2048,
            1,
            usage,
            Category::Texture,
        ))
        .expect("image");
    let pixels: Vec<u8> = (0..2048u32 * 2048 * 4)
        .map(|i| (i ^ (i >> 13)) as u8)
        .collect();
    let before = m.stats().staged_bytes;
    m.upload_image(
        img,
        &ImageRegion::rect(0, 0, 0, 2048, 2048),
        &pixels,
        &PixelStore::default(),
        ClientFormat::Rgba,
    )
    .expect("image upload");
    assert_eq!(m.stats().staged_bytes - before, pixels.len() as u64);
    let mut back = vec![0u8; pixels.len()];
    m.read_image(
        img,
        &ImageRegion::rect(0, 0, 0, 2048, 2048),
        &PixelStore::default(),
        ClientFormat::Rgba,
        &mut back,
    )
    .expect("readback");
    assert!(back == pixels, "split image upload is not exact");
    m.retire_image(img).expect("retire");
    m.retire_buffer(buf).expect("retire");
}

#[test]
fn an_idle_host_visible_buffer_is_written_in_place() {
    let mut m = ValidatedManager::new(ManagerConfig::default());
    let buf = mesh_buffer(&mut m, 1 << 20);
    let data = vec![0x5Au8; 4096];
    let path = m.upload_buffer(buf, 512, &data).expect("upload");
    if m.device_info().unified_memory() {
        assert_eq!(
            path,
            UploadPath::Direct,
            "unified memory: idle buffers are written in place"
        );
    } else {
        assert!(
            matches!(path, UploadPath::Staged { .. }),
            "device-local memory needs staging"
        );
    }
    let mut out = vec![0u8; 4096];
    m.read_buffer_range(buf, 512, &mut out).expect("read");
    assert_eq!(out, data);
    assert!(
        m.upload_buffer(buf, (1 << 20) - 10, &data).is_err(),
        "out of range is an error"
    );
    m.retire_buffer(buf).expect("retire");
}
