//! Device-loss recovery on the real driver with the validation layer on (`recover.rs`): a
//! loss injected at a submission, then `recover` opens a new device behind the same handles.
//! A mipmapped atlas (level 0 uploaded in tiles, the rest generated) and a device-local buffer
//! read back texel for texel and byte for byte as before the loss; a render target the GPU
//! drew into comes back cleared.

mod common;

use std::time::Duration;

use arenagl_memory::recover::{RecoverPolicy, Recovery};
use arenagl_memory::{
    BufferDesc, Category, FaultPlan, ImageDesc, ImageRegion, ManagerConfig, MemoryClass,
    MemoryError, MemoryManager, VulkanConfig,
};
use arenagl_staging::{ClientFormat, PixelStore};
use ash::vk;
use common::ValidatedManager;

const SIDE: u32 = 256;

fn read_level(m: &mut MemoryManager, img: arenagl_memory::ImageHandle, level: u32) -> Vec<u8> {
    let side = (SIDE >> level).max(1);
    let mut out = vec![0u8; (side * side * 4) as usize];
    m.read_image(
        img,
        &ImageRegion::rect(level, 0, 0, side, side),
        &PixelStore::default(),
        ClientFormat::Rgba,
        &mut out,
    )
    .expect("readback");
    out
}

fn read_buffer(m: &mut MemoryManager, b: arenagl_memory::BufferHandle, len: usize) -> Vec<u8> {
    let mut out = vec![0u8; len];
    m.read_buffer_range(b, 0, &mut out)
        .expect("buffer readback");
    out
}

#[test]
fn a_recovered_device_restores_a_mipmapped_atlas_and_a_buffer() {
    restores_after_a_loss(VulkanConfig::default());
}

/// The epoch clock without timeline semaphores (a fence per epoch) continues across the
/// re-open too.
#[test]
fn recovery_works_with_the_fence_clock() {
    restores_after_a_loss(VulkanConfig {
        force_fences: true,
        ..VulkanConfig::default()
    });
}

fn restores_after_a_loss(vulkan: VulkanConfig) {
    let mut m = ValidatedManager::with_vulkan(
        vulkan,
        ManagerConfig {
            recover: RecoverPolicy {
                journal_bytes: 64 << 20,
                first_backoff: Duration::ZERO,
                ..RecoverPolicy::default()
            },
            ..ManagerConfig::default()
        },
    );
    let mips = ImageDesc::full_mip_count(vk::Extent3D {
        width: SIDE,
        height: SIDE,
        depth: 1,
    });
    let usage = vk::ImageUsageFlags::SAMPLED
        | vk::ImageUsageFlags::TRANSFER_DST
        | vk::ImageUsageFlags::TRANSFER_SRC;
    let atlas = m
        .create_image(&ImageDesc::new_2d(
            vk::Format::R8G8B8A8_UNORM,
            SIDE,
            SIDE,
            mips,
            usage,
            Category::Texture,
        ))
        .expect("atlas");
    let tile = SIDE / 4;
    for t in 0..16u32 {
        let (tx, ty) = ((t % 4) * tile, (t / 4) * tile);
        let bytes: Vec<u8> = (0..tile * tile)
            .flat_map(|i| {
                let (x, y) = (tx + i % tile, ty + i / tile);
                [x as u8, y as u8, (x ^ y) as u8, (t * 16) as u8]
            })
            .collect();
        let region = ImageRegion::rect(0, tx as i32, ty as i32, tile, tile);
        m.upload_image(
            atlas,
            &region,
            &bytes,
            &PixelStore::default(),
            ClientFormat::Rgba,
        )
        .expect("tile");
    }
    m.generate_mipmaps(atlas, 0, mips - 1).expect("mipmaps");

    let buffer = m
        .create_buffer(&BufferDesc::new(
            64 << 10,
            vk::BufferUsageFlags::VERTEX_BUFFER
                | vk::BufferUsageFlags::TRANSFER_DST
                | vk::BufferUsageFlags::TRANSFER_SRC,
            MemoryClass::DeviceBuffer,
            Category::Buffer,
        ))
        .expect("buffer");
    let pattern: Vec<u8> = (0..64u32 << 10).map(|i| (i * 7 % 251) as u8).collect();
    m.upload_buffer(buffer, 0, &pattern).expect("upload");
    m.upload_buffer(buffer, 1000, &[0xEE; 100])
        .expect("re-specify a range");

    let target = m
        .create_image(&ImageDesc::new_2d(
            vk::Format::R8G8B8A8_UNORM,
            32,
            32,
            1,
            vk::ImageUsageFlags::COLOR_ATTACHMENT
                | vk::ImageUsageFlags::TRANSFER_DST
                | vk::ImageUsageFlags::TRANSFER_SRC,
            Category::RenderTarget,
        ))
        .expect("target");
    let raw = m
        .transition_image(
            target,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            (
                vk::PipelineStageFlags::TRANSFER,
                vk::AccessFlags::TRANSFER_WRITE,
            ),
        )
        .expect("layout");
    let cb = m.recording_command_buffer().expect("cb");
    let red = vk::ClearColorValue {
        float32: [1.0, 0.0, 0.0, 1.0],
    };
    let range = vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: 1,
    };
    // SAFETY: recording command buffer outside any pass; the image is live, stamped by
    // `transition_image` and in TRANSFER_DST_OPTIMAL.
    unsafe {
        m.device().cmd_clear_color_image(
            cb,
            raw,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            &red,
            &[range],
        )
    };

    let before: Vec<Vec<u8>> = (0..mips).map(|l| read_level(&mut m, atlas, l)).collect();
    let mut want = pattern.clone();
    want[1000..1100].fill(0xEE);
    assert_eq!(read_buffer(&mut m, buffer, 64 << 10), want);
    assert_eq!(&read_level_small(&mut m, target)[..4], &[255, 0, 0, 255]);

    let lost_device = m.device().handle();
    m.set_fault_plan(FaultPlan::parse("submit@1=device_lost").expect("plan"));
    m.use_buffer(buffer).expect("use");
    assert_eq!(m.submit(), Err(MemoryError::DeviceLost));
    m.set_fault_plan(FaultPlan::default());
    assert!(m.is_lost());

    let Ok(Recovery::Recovered(report)) = m.recover() else {
        panic!("recovery on lavapipe");
    };
    assert_eq!(
        (report.buffers, report.images),
        (1, 2),
        "staging is not a client object"
    );
    assert_eq!(report.cleared, 1, "the render target");
    assert!(!m.is_lost());
    assert_ne!(m.device().handle(), lost_device, "a new VkDevice");
    assert_eq!(m.recoveries(), 1);
    for (level, want) in before.iter().enumerate() {
        assert!(
            read_level(&mut m, atlas, level as u32) == *want,
            "atlas level {level} differs after recovery"
        );
    }
    assert_eq!(read_buffer(&mut m, buffer, 64 << 10), want, "buffer bytes");
    assert!(
        read_level_small(&mut m, target).iter().all(|&b| b == 0),
        "a render target comes back cleared"
    );
    // Work goes on as before: frames rotate the new staging arenas, uploads land.
    for frame in 0..3u8 {
        m.begin_frame().expect("frame");
        m.upload_buffer(buffer, 0, &[frame; 4096])
            .expect("upload after recovery");
        m.submit().expect("submit");
    }
    assert_eq!(&read_buffer(&mut m, buffer, 4096)[..], &[2u8; 4096][..]);
    assert!(!m.stats().device_lost);
    m.assert_validation_clean();
    m.retire_image(atlas).expect("retire");
    m.retire_image(target).expect("retire");
    m.retire_buffer(buffer).expect("retire");
}

fn read_level_small(m: &mut MemoryManager, img: arenagl_memory::ImageHandle) -> Vec<u8> {
    let mut out = vec![0u8; 32 * 32 * 4];
    m.read_image(
        img,
        &ImageRegion::rect(0, 0, 0, 32, 32),
        &PixelStore::default(),
        ClientFormat::Rgba,
        &mut out,
    )
    .expect("readback");
    out
}
