//! The OOM ladder on the real driver under a simulated 64 MiB heap (VMA `heap_size_limits`):
//! allocation runs until refusal, the ladder (drain, blocking GC, retry) runs and shows in the
//! statistics, the refusal is an error value, and allocation works again after frees — including
//! memory that was still in flight when the ladder started.

mod common;

use arenagl_memory::{
    BufferDesc, BufferHandle, Category, Epoch, ManagerConfig, MemoryClass, MemoryError,
    VulkanConfig,
};
use ash::vk;
use common::ValidatedManager;

const HEAP: u64 = 64 << 20;
const CHUNK: u64 = 4 << 20;

fn chunk() -> BufferDesc {
    BufferDesc::new(
        CHUNK,
        vk::BufferUsageFlags::VERTEX_BUFFER | vk::BufferUsageFlags::TRANSFER_DST,
        MemoryClass::DeviceBuffer,
        Category::Buffer,
    )
}

fn small_heap_manager() -> ValidatedManager {
    ValidatedManager::with_vulkan(
        VulkanConfig {
            heap_size_limit: Some(HEAP),
            ..VulkanConfig::default()
        },
        ManagerConfig::default(),
    )
}

fn fill_until_refused(m: &mut ValidatedManager) -> (Vec<BufferHandle>, MemoryError) {
    let mut live = Vec::new();
    loop {
        match m.create_buffer(&chunk()) {
            Ok(b) => live.push(b),
            Err(e) => return (live, e),
        }
        assert!(
            live.len() as u64 <= HEAP / CHUNK,
            "the heap limit was not enforced"
        );
    }
}

#[test]
fn allocation_is_refused_with_an_error_and_recovers_after_frees() {
    let mut m = small_heap_manager();
    let (mut live, err) = fill_until_refused(&mut m);
    assert_eq!(err, MemoryError::OutOfDeviceMemory);
    assert!(err.is_out_of_memory());
    assert!(
        live.len() >= 8,
        "only {} chunks of 4 MiB fit in 64 MiB",
        live.len()
    );
    let s = m.stats();
    println!("filled {} × 4 MiB; ladder: {}", live.len(), s.report());
    assert_eq!(s.refusals, 1);
    assert_eq!(s.ladder_drains, 1);
    assert!(s.blocking_gcs >= 1);
    assert!(s.ladder_retries >= 1);
    assert!(s.oom_failures >= 2, "the first failure and the retry's");
    // Free a few and allocate again.
    for b in live.drain(..4) {
        m.retire_buffer(b).expect("retire");
    }
    let again = m
        .create_buffer(&chunk())
        .expect("allocation works again after frees");
    live.push(again);
    assert_eq!(m.stats().refusals, 1);
    for b in live {
        m.retire_buffer(b).expect("retire");
    }
}

#[test]
fn the_ladder_releases_in_flight_memory_and_recovers() {
    let mut m = small_heap_manager();
    let (mut live, _) = fill_until_refused(&mut m);
    // Put half of the buffers into the recording command buffer, then retire them: their
    // memory can only come back once that command buffer has executed.
    let half = live.len() / 2;
    let cb = m.recording_command_buffer().expect("cb");
    for &b in &live[..half] {
        let raw = m.use_buffer(b).expect("use").raw();
        // SAFETY: recording command buffer, live buffer, in-bounds fill.
        unsafe { m.device().cmd_fill_buffer(cb, raw, 0, CHUNK, 0xABCD_EF01) };
    }
    for b in live.drain(..half) {
        m.retire_buffer(b).expect("retire");
    }
    let before = m.stats();
    assert_eq!(before.pending_release_objects, half as u64);
    // The heap is full; only the ladder's blocking GC can make room.
    let b = m
        .create_buffer(&chunk())
        .expect("the ladder recovers the in-flight memory");
    live.push(b);
    let after = m.stats();
    assert_eq!(after.ladder_recoveries, before.ladder_recoveries + 1);
    assert!(after.blocking_gcs > before.blocking_gcs);
    assert_eq!(after.pending_release_objects, 0);
    assert_eq!(after.release_violations, 0);
    assert!(
        after.epoch_completed >= Epoch::new(1),
        "the recording was submitted and completed"
    );
    for b in live {
        m.retire_buffer(b).expect("retire");
    }
}
