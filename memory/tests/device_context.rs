//! The device context on the real driver: features discovered, pools placed, validation wired.

mod common;

use arenagl_memory::{
    BufferDesc, Category, ManagerConfig, MemoryClass, MemoryManager, VulkanConfig,
};
use ash::vk;
use common::ValidatedManager;

#[test]
fn opens_the_device_and_records_features_and_pools() {
    let m = ValidatedManager::new(ManagerConfig::default());
    let info = m.device_info();
    assert!(info.features.timeline_semaphore);
    assert!(info.used_api_version >= vk::API_VERSION_1_2);
    assert!(info.limits.max_memory_allocation_size > 0);
    let pools = m.pool_report();
    assert_eq!(pools.len(), MemoryClass::ALL.len());
    for p in &pools {
        assert!((p.memory_type as usize) < info.memory_types.len(), "{p:?}");
        if p.class.host_access() {
            assert!(
                p.flags.contains(vk::MemoryPropertyFlags::HOST_VISIBLE),
                "{p:?}"
            );
        }
    }
    println!(
        "device: {} ({:?}), unified memory: {}",
        info.name,
        info.device_type,
        info.unified_memory()
    );
    for p in pools {
        println!(
            "pool {:<14} memory type {} {:?} heap {} ({} MiB)",
            p.class.name(),
            p.memory_type,
            p.flags,
            p.heap,
            p.heap_size >> 20
        );
    }
    // VK_EXT_memory_budget feeds the budget when the device has it.
    match m.heap_budget_bytes() {
        Some(budget) => {
            assert!(info.features.memory_budget);
            let largest = info
                .heaps
                .iter()
                .filter(|h| h.device_local)
                .map(|h| h.size)
                .max()
                .unwrap_or(0);
            assert!(
                budget > 0 && budget <= largest,
                "heap budget {budget} of a {largest}-byte heap"
            );
            println!(
                "VK_EXT_memory_budget: {} MiB for the largest device-local heap",
                budget >> 20
            );
        }
        None => assert!(!info.features.memory_budget),
    }
    // The allocation-count cap: min(device, 4096).
    assert!(m.allocation_clamp() <= 4096);
    assert!(m.allocation_clamp() <= info.limits.max_memory_allocation_count);
}

#[test]
fn a_validation_error_is_caught_by_the_messenger() {
    if !common::validation_requested() {
        return;
    }
    let vulkan = VulkanConfig {
        validation: true,
        ..VulkanConfig::default()
    };
    let mut m = MemoryManager::new(&vulkan, ManagerConfig::default()).expect("device");
    let b = m
        .create_buffer(&BufferDesc::new(
            256,
            vk::BufferUsageFlags::TRANSFER_DST,
            MemoryClass::DeviceBuffer,
            Category::Buffer,
        ))
        .expect("buffer");
    let raw = m.use_buffer(b).expect("use").raw();
    let cb = m.recording_command_buffer().expect("cb");
    // A barrier whose range lies outside the buffer: invalid, and harmless to execute.
    let barrier = vk::BufferMemoryBarrier::default()
        .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
        .dst_access_mask(vk::AccessFlags::TRANSFER_READ)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .buffer(raw)
        .offset(4096)
        .size(16);
    // SAFETY: `cb` is recording and `raw` is a live buffer; the barrier is deliberately out of
    // range to provoke the validation layer.
    unsafe {
        m.device().cmd_pipeline_barrier(
            cb,
            vk::PipelineStageFlags::TRANSFER,
            vk::PipelineStageFlags::TRANSFER,
            vk::DependencyFlags::empty(),
            &[],
            &[barrier],
            &[],
        );
    }
    assert!(
        m.validation_error_count() >= 1,
        "the messenger must count validation errors"
    );
    m.retire_buffer(b).expect("retire");
}
