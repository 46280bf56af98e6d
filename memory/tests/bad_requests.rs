//! Bad requests on the real driver get error values, never a panic: zero size, larger than
//! `maxMemoryAllocationSize`, unsupported usage, format or sample count, out-of-range views,
//! stale and foreign handles.

mod common;

use arenagl_memory::{
    BufferDesc, Category, Handle, ImageDesc, ManagerConfig, MemoryClass, MemoryError, ViewDesc,
};
use ash::vk;
use common::ValidatedManager;

fn buffer(size: u64, usage: vk::BufferUsageFlags) -> BufferDesc {
    BufferDesc::new(size, usage, MemoryClass::DeviceBuffer, Category::Buffer)
}

fn invalid(r: Result<impl std::fmt::Debug, MemoryError>) -> MemoryError {
    let e = r.expect_err("must be refused");
    assert!(!e.is_transient(), "{e} is a permanent refusal");
    e
}

#[test]
fn bad_buffer_requests_are_errors() {
    let mut m = ValidatedManager::new(ManagerConfig::default());
    let max = m.device_info().limits.max_memory_allocation_size;
    assert!(matches!(
        invalid(m.create_buffer(&buffer(0, vk::BufferUsageFlags::VERTEX_BUFFER))),
        MemoryError::InvalidRequest(_)
    ));
    assert!(matches!(
        invalid(m.create_buffer(&buffer(max + 1, vk::BufferUsageFlags::VERTEX_BUFFER))),
        MemoryError::InvalidRequest(_)
    ));
    assert!(matches!(
        invalid(m.create_buffer(&buffer(u64::MAX, vk::BufferUsageFlags::VERTEX_BUFFER))),
        MemoryError::InvalidRequest(_)
    ));
    assert!(matches!(
        invalid(m.create_buffer(&buffer(64, vk::BufferUsageFlags::empty()))),
        MemoryError::InvalidRequest(_)
    ));
    assert!(matches!(
        invalid(m.create_buffer(&buffer(64, vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS))),
        MemoryError::Unsupported(_)
    ));
    assert_eq!(
        m.stats().sub_allocations_total,
        0,
        "nothing was allocated for refused requests"
    );
}

#[test]
fn bad_image_requests_are_errors() {
    let mut m = ValidatedManager::new(ManagerConfig::default());
    let sampled = vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST;
    let rgba = |w, h, mips| {
        ImageDesc::new_2d(
            vk::Format::R8G8B8A8_UNORM,
            w,
            h,
            mips,
            sampled,
            Category::Texture,
        )
    };
    assert!(matches!(
        invalid(m.create_image(&rgba(0, 16, 1))),
        MemoryError::InvalidRequest(_)
    ));
    assert!(matches!(
        invalid(m.create_image(&rgba(16, 16, 0))),
        MemoryError::InvalidRequest(_)
    ));
    assert!(
        matches!(
            invalid(m.create_image(&rgba(16, 16, 6))),
            MemoryError::InvalidRequest(_)
        ),
        "16×16 has 5 levels"
    );
    assert!(matches!(
        invalid(m.create_image(&rgba(1 << 20, 16, 1))),
        MemoryError::Unsupported(_)
    ));
    let mut no_layers = rgba(16, 16, 1);
    no_layers.array_layers = 0;
    assert!(matches!(
        invalid(m.create_image(&no_layers)),
        MemoryError::InvalidRequest(_)
    ));
    let mut odd_samples = rgba(16, 16, 1);
    odd_samples.samples = vk::SampleCountFlags::from_raw(3);
    assert!(matches!(
        invalid(m.create_image(&odd_samples)),
        MemoryError::Unsupported(_)
    ));
    // A format with no optimal-tiling support for sampling (lavapipe has no ETC2; a GPU
    // without it answers the same way, a GPU with it creates the image).
    let etc2 = ImageDesc::new_2d(
        vk::Format::ETC2_R8G8B8A8_UNORM_BLOCK,
        64,
        64,
        1,
        sampled,
        Category::Texture,
    );
    match m.create_image(&etc2) {
        Ok(h) => m.retire_image(h).expect("retire"),
        Err(e) => assert!(matches!(e, MemoryError::Unsupported(_)), "{e}"),
    }
    // A view outside the image.
    let img = m.create_image(&rgba(16, 16, 5)).expect("image");
    assert!(matches!(
        invalid(m.create_view(img, &ViewDesc::color_2d(6))),
        MemoryError::InvalidRequest(_)
    ));
    let mut cube = ViewDesc::color_2d(1);
    cube.view_type = vk::ImageViewType::CUBE;
    cube.layer_count = 6;
    assert!(matches!(
        invalid(m.create_view(img, &cube)),
        MemoryError::InvalidRequest(_)
    ));
    // 2D views of a 2D-array-compatible 3D image address one level's depth slices as layers.
    let mut vol = rgba(8, 8, 2);
    vol.image_type = vk::ImageType::TYPE_3D;
    vol.extent.depth = 4;
    vol.flags = vk::ImageCreateFlags::TYPE_2D_ARRAY_COMPATIBLE;
    let vol = m.create_image(&vol).expect("3D image");
    let slice = |level: u32, layer: u32, levels: u32| ViewDesc {
        base_mip_level: level,
        base_array_layer: layer,
        ..ViewDesc::color_2d(levels)
    };
    m.create_view(vol, &slice(0, 3, 1))
        .expect("slice 3 of level 0");
    m.create_view(vol, &slice(1, 1, 1))
        .expect("slice 1 of level 1");
    for (level, layer, levels) in [(0, 4, 1), (1, 2, 1), (0, 0, 2)] {
        assert!(matches!(
            invalid(m.create_view(vol, &slice(level, layer, levels))),
            MemoryError::InvalidRequest(_)
        ));
    }
    m.retire_image(vol).expect("retire");
    let view = m.create_view(img, &ViewDesc::color_2d(5)).expect("view");
    m.retire_image(img).expect("retire image and its views");
    assert_eq!(
        m.retire_view(view),
        Err(MemoryError::InvalidHandle),
        "the view went with its image"
    );
}

#[test]
fn stale_foreign_and_forged_handles_are_errors() {
    let mut a = ValidatedManager::new(ManagerConfig::default());
    let mut b = ValidatedManager::new(ManagerConfig::default());
    let desc = buffer(256, vk::BufferUsageFlags::VERTEX_BUFFER);
    let ha = a.create_buffer(&desc).expect("a");
    let hb = b.create_buffer(&desc).expect("b");
    assert_eq!(
        a.buffer_info(hb).err(),
        Some(MemoryError::InvalidHandle),
        "foreign"
    );
    assert_eq!(
        a.retire_buffer(hb),
        Err(MemoryError::InvalidHandle),
        "foreign"
    );
    a.retire_buffer(ha).expect("retire");
    assert_eq!(
        a.retire_buffer(ha),
        Err(MemoryError::InvalidHandle),
        "stale: double retire"
    );
    assert_eq!(
        a.use_buffer(ha).err(),
        Some(MemoryError::InvalidHandle),
        "stale: use after retire"
    );
    let again = a.create_buffer(&desc).expect("reuses the slot");
    assert_eq!(again.index(), ha.index());
    assert_eq!(
        a.buffer_info(ha).err(),
        Some(MemoryError::InvalidHandle),
        "stale after slot reuse"
    );
    for raw in [0u64, u64::MAX, 0x1234_5678_9abc_def0] {
        assert_eq!(
            a.buffer_info(Handle::from_raw(raw)).err(),
            Some(MemoryError::InvalidHandle)
        );
    }
    a.retire_buffer(again).expect("retire");
    b.retire_buffer(hb).expect("retire");
}
