//! Sub-allocation on the real driver: 10,000 buffers and images with a Minecraft-like size mix are
//! sub-allocated, so `vkAllocateMemory` is called at most peak-live-bytes / 32 MiB + 16 times.

mod common;

use arenagl_memory::{BufferDesc, Category, ImageDesc, ManagerConfig, MemoryClass};
use ash::vk;
use common::ValidatedManager;

/// A small deterministic generator, so the mix is the same on every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % below
    }
}

#[test]
fn ten_thousand_minecraft_like_resources_use_few_device_allocations() {
    let mut m = ValidatedManager::new(ManagerConfig::default());
    let mut rng = Lcg(0x5eed);
    let mut buffers = Vec::new();
    let mut images = Vec::new();
    // 6,000 chunk-section vertex buffers of 4–64 KiB.
    for _ in 0..6000 {
        let size = 4096 + rng.next(60 * 1024);
        let desc = BufferDesc::new(
            size,
            vk::BufferUsageFlags::VERTEX_BUFFER | vk::BufferUsageFlags::TRANSFER_DST,
            MemoryClass::DeviceBuffer,
            Category::Buffer,
        )
        .named("chunk mesh");
        buffers.push(m.create_buffer(&desc).expect("vertex buffer"));
    }
    // 3,000 per-draw uniform buffers of 256 B – 4 KiB, rewritten every frame.
    for _ in 0..3000 {
        let size = 256 + rng.next(3840);
        let desc = BufferDesc::new(
            size,
            vk::BufferUsageFlags::UNIFORM_BUFFER,
            MemoryClass::Transient,
            Category::Buffer,
        )
        .named("uniforms");
        buffers.push(m.create_buffer(&desc).expect("uniform buffer"));
    }
    // 4 chunk-mesh arenas of 64 MiB (dedicated: above the 32 MiB threshold).
    for _ in 0..4 {
        let desc = BufferDesc::new(
            64 << 20,
            vk::BufferUsageFlags::VERTEX_BUFFER | vk::BufferUsageFlags::TRANSFER_DST,
            MemoryClass::DeviceBuffer,
            Category::Buffer,
        )
        .named("mesh arena");
        buffers.push(m.create_buffer(&desc).expect("arena"));
    }
    let usage = vk::ImageUsageFlags::SAMPLED
        | vk::ImageUsageFlags::TRANSFER_DST
        | vk::ImageUsageFlags::TRANSFER_SRC;
    // 40 block atlases of 1024² RGBA8 with full mip chains.
    for _ in 0..40 {
        let desc = ImageDesc::new_2d(
            vk::Format::R8G8B8A8_UNORM,
            1024,
            1024,
            11,
            usage,
            Category::Texture,
        )
        .named("atlas");
        images.push(m.create_image(&desc).expect("atlas"));
    }
    // The rest: entity and GUI textures of 16² – 256².
    while buffers.len() + images.len() < 10_000 {
        let side = 16 << rng.next(5);
        let mips = ImageDesc::full_mip_count(vk::Extent3D {
            width: side,
            height: side,
            depth: 1,
        });
        let desc = ImageDesc::new_2d(
            vk::Format::R8G8B8A8_UNORM,
            side,
            side,
            mips,
            usage,
            Category::Texture,
        )
        .named("entity texture");
        images.push(m.create_image(&desc).expect("texture"));
    }
    let stats = m.stats();
    let bound = stats.peak_bytes / (32 << 20) + 16;
    println!(
        "10,000 resources, peak {:.1} MiB live: {} vkAllocateMemory calls (bound {bound}), {} device memory objects, {:.1} MiB in blocks, {} dedicated",
        stats.peak_bytes as f64 / 1048576.0,
        stats.device_memory.allocate_calls,
        stats.device_memory.live_objects,
        stats.device_memory.block_bytes as f64 / 1048576.0,
        stats.dedicated_live,
    );
    assert_eq!(stats.sub_allocations_live, 10_000);
    assert_eq!(stats.dedicated_live, 4);
    assert!(
        stats.device_memory.allocate_calls <= bound,
        "{} vkAllocateMemory calls for {} bytes (bound {bound})",
        stats.device_memory.allocate_calls,
        stats.peak_bytes
    );
    for b in buffers {
        m.retire_buffer(b).expect("retire");
    }
    for i in images {
        m.retire_image(i).expect("retire");
    }
    let stats = m.stats();
    assert_eq!(stats.sub_allocations_live, 0);
    assert_eq!(stats.live_bytes, 0);
    assert_eq!(stats.released_objects, 10_000);
}
