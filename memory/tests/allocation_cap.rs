//! The allocation-count cap on the real driver (configured through `allocation_clamp`): with the
//! cap small and every allocation dedicated, proactive GC fires at 70 % of the cap and the number
//! of live `VkDeviceMemory` objects never exceeds it; at the cap the request is refused with an
//! error value.

mod common;

use std::collections::VecDeque;

use arenagl_memory::{BufferDesc, Category, ManagerConfig, MemoryClass, MemoryError};
use ash::vk;
use common::ValidatedManager;

const CAP: u32 = 40;

fn small() -> BufferDesc {
    BufferDesc::new(
        4096,
        vk::BufferUsageFlags::VERTEX_BUFFER | vk::BufferUsageFlags::TRANSFER_DST,
        MemoryClass::DeviceBuffer,
        Category::Buffer,
    )
}

#[test]
fn live_allocation_count_never_exceeds_the_cap() {
    let mut m = ValidatedManager::new(ManagerConfig {
        allocation_clamp: Some(CAP),
        force_dedicated: true,
        ..ManagerConfig::default()
    });
    assert_eq!(m.allocation_clamp(), CAP);
    let mut live = VecDeque::new();
    let mut max_seen = 0;
    // Churn: allocate, use, retire the oldest beyond 35 live, submit every 4 frames. Retired
    // objects wait for their epochs, so the count climbs past 70 % and the drains must keep up.
    for frame in 0..300u32 {
        let b = m.create_buffer(&small()).expect("allocation under churn");
        let raw = m.use_buffer(b).expect("use").raw();
        let cb = m.recording_command_buffer().expect("cb");
        // SAFETY: recording command buffer, live buffer, in-bounds fill.
        unsafe { m.device().cmd_fill_buffer(cb, raw, 0, 4096, frame) };
        live.push_back(b);
        if live.len() > 35 {
            let old = live.pop_front().expect("non-empty");
            m.retire_buffer(old).expect("retire");
        }
        if frame % 4 == 3 {
            m.submit().expect("submit");
        }
        let count = m.stats().device_memory.live_objects;
        max_seen = max_seen.max(count);
        assert!(
            count <= CAP,
            "{count} live device memory objects > cap {CAP}"
        );
    }
    let s = m.stats();
    println!(
        "max live device memory objects {max_seen} (cap {CAP}); {}",
        s.report()
    );
    assert!(s.proactive_gcs > 0, "proactive GC never fired");
    assert!(s.clamp_warnings > 0, "the 80 % warning never fired");
    // Now hold everything: the cap refuses instead of exceeding.
    let mut held = Vec::new();
    let err = loop {
        match m.create_buffer(&small()) {
            Ok(b) => held.push(b),
            Err(e) => break e,
        }
        assert!(m.stats().device_memory.live_objects <= CAP);
    };
    assert_eq!(
        err,
        MemoryError::TooManyAllocations {
            live: CAP,
            limit: CAP
        }
    );
    assert!(err.is_out_of_memory());
    assert_eq!(m.stats().device_memory.live_objects, CAP);
    for b in held.into_iter().chain(live) {
        m.retire_buffer(b).expect("retire");
    }
}
