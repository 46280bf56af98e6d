//! The recycle bin (`recycle.rs`) from the manager's side, on the simulated device: released
//! buffers and images are reused by identical requests instead of allocated anew, stay counted
//! against the budget while binned, are not client objects, and are the first memory given back
//! (a request that does not fit, a blocking GC, the Warn level, four frames unused).

use arenagl_memory::sim::{SimBackend, SimConfig};
use arenagl_memory::{BufferDesc, Category, ImageDesc, Manager, ManagerConfig, MemoryClass};
use arenagl_residency::Budget;
use ash::vk;

const MIB: u64 = 1 << 20;

fn manager(bin_bytes: u64, budget: Option<u64>) -> Manager<SimBackend> {
    Manager::with_backend(
        SimBackend::new(SimConfig::default()),
        ManagerConfig {
            recycle_bin_bytes: bin_bytes,
            budget: budget.map(Budget::fixed),
            ..ManagerConfig::default()
        },
    )
}

/// A 512 × 512 RGBA8 texture: 1 MiB.
fn texture() -> ImageDesc {
    ImageDesc::new_2d(
        vk::Format::R8G8B8A8_UNORM,
        512,
        512,
        1,
        vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST,
        Category::Texture,
    )
}

fn buffer(size: u64) -> BufferDesc {
    BufferDesc::new(
        size,
        vk::BufferUsageFlags::VERTEX_BUFFER,
        MemoryClass::DeviceBuffer,
        Category::Buffer,
    )
}

/// Ten frames that each create four textures and a buffer, then retire them.
fn churn(m: &mut Manager<SimBackend>) {
    for _ in 0..10 {
        let images: Vec<_> = (0..4)
            .map(|_| m.create_image(&texture()).expect("texture"))
            .collect();
        let b = m.create_buffer(&buffer(256 << 10)).expect("buffer");
        for h in images {
            m.retire_image(h).expect("retire texture");
        }
        m.retire_buffer(b).expect("retire buffer");
        m.begin_frame().expect("frame");
    }
}

#[test]
fn churned_resources_are_reused_instead_of_allocated() {
    let mut off = manager(0, None);
    churn(&mut off);
    let mut on = manager(16 * MIB, None);
    churn(&mut on);
    let (off, on) = (off.stats(), on.stats());
    assert_eq!(off.device_memory.allocate_calls, 50, "{off:?}");
    assert_eq!(off.recycled, 0);
    assert_eq!(
        on.device_memory.allocate_calls, 5,
        "one frame's resources, then reuse: {on:?}"
    );
    assert_eq!(on.recycled, 45);
    assert_eq!(on.recycle_bin_objects, 5);
    assert_eq!(on.recycle_bin_bytes, 4 * MIB + (256 << 10));
    // Binned resources are memory held, so counted; they are nobody's objects.
    assert_eq!(on.categories[Category::Texture.index()].live_bytes, 4 * MIB);
    assert_eq!(on.client_objects_live(), 0);
}

#[test]
fn a_different_request_allocates_and_the_bin_respects_its_cap() {
    let mut m = manager(2 * MIB, None);
    let a = m.create_image(&texture()).expect("texture");
    let b = m.create_image(&texture()).expect("texture");
    let c = m.create_image(&texture()).expect("texture");
    for h in [a, b, c] {
        m.retire_image(h).expect("retire");
    }
    let s = m.stats();
    assert_eq!((s.recycle_bin_objects, s.recycle_bin_bytes), (2, 2 * MIB));
    assert_eq!(s.device_memory.live_objects, 2, "the third was destroyed");
    let mut other = texture();
    other.format = vk::Format::B8G8R8A8_UNORM;
    m.create_image(&other).expect("other format");
    assert_eq!(m.stats().recycled, 0);
    assert_eq!(m.stats().device_memory.allocate_calls, 4);
}

#[test]
fn the_bin_is_emptied_by_a_blocking_gc_and_after_four_frames() {
    let mut m = manager(16 * MIB, None);
    let h = m.create_image(&texture()).expect("texture");
    m.retire_image(h).expect("retire");
    assert_eq!(m.stats().recycle_bin_objects, 1);
    m.collect_garbage_blocking().expect("gc");
    let s = m.stats();
    assert_eq!((s.recycle_bin_objects, s.recycle_bin_bytes), (0, 0));
    assert_eq!(s.categories[Category::Texture.index()].live_bytes, 0);
    assert_eq!(s.device_memory.live_objects, 0);

    let h = m.create_image(&texture()).expect("texture");
    m.retire_image(h).expect("retire");
    for frame in 1..=4 {
        m.begin_frame().expect("frame");
        let held = m.stats().recycle_bin_objects;
        assert_eq!(held, u64::from(frame < 4), "frame {frame}");
    }
    assert_eq!(m.stats().device_memory.live_objects, 0);
}

#[test]
fn a_request_that_fits_only_without_the_bin_empties_it_first() {
    let mut m = manager(8 * MIB, Some(8 * MIB));
    let images: Vec<_> = (0..4)
        .map(|_| m.create_image(&texture()).expect("texture"))
        .collect();
    for h in images {
        m.retire_image(h).expect("retire");
    }
    m.begin_frame().expect("frame");
    assert_eq!(m.stats().recycle_bin_bytes, 4 * MIB, "50 %: Normal, kept");
    // 4 MiB binned + 6 MiB asked > 8 MiB: the bin goes, the request is admitted.
    m.create_buffer(&buffer(6 * MIB))
        .expect("admitted once the bin is empty");
    let s = m.stats();
    assert_eq!((s.recycle_bin_objects, s.budget_refusals), (0, 0));
}

#[test]
fn the_warn_level_empties_the_bin() {
    let mut m = manager(8 * MIB, Some(8 * MIB));
    let keep = m.create_buffer(&buffer(3 * MIB)).expect("buffer");
    let images: Vec<_> = (0..4)
        .map(|_| m.create_image(&texture()).expect("texture"))
        .collect();
    for h in images {
        m.retire_image(h).expect("retire");
    }
    // 3 MiB in use + 4 MiB binned = 87.5 %: above Warn (75 %).
    m.begin_frame().expect("frame");
    let s = m.stats();
    assert_eq!(s.recycle_bin_objects, 0, "{s:?}");
    assert_eq!(s.categories[Category::Texture.index()].live_bytes, 0);
    m.retire_buffer(keep).expect("retire");
}
