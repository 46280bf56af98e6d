//! The manager's policy on the simulated device (no GPU): a hung GPU never hangs the caller,
//! device loss latches, injected faults run the OOM ladder, the allocation-count cap holds.

use std::time::{Duration, Instant};

use arenagl_memory::sim::{SimBackend, SimConfig};
use arenagl_memory::{
    BufferDesc, Category, Epoch, FaultPlan, Manager, ManagerConfig, MemoryClass, MemoryError,
    SimManager,
};
use ash::vk;

fn manager(heap: u64, config: ManagerConfig) -> SimManager {
    Manager::with_backend(
        SimBackend::new(SimConfig {
            heap_bytes: heap,
            ..SimConfig::default()
        }),
        config,
    )
}

fn buf(size: u64) -> BufferDesc {
    BufferDesc::new(
        size,
        vk::BufferUsageFlags::VERTEX_BUFFER,
        MemoryClass::DeviceBuffer,
        Category::Buffer,
    )
}

#[test]
fn a_hung_gpu_turns_into_a_refusal_not_a_hang() {
    let mut m = manager(
        1 << 20,
        ManagerConfig {
            wait_timeout: Duration::from_millis(20),
            ..ManagerConfig::default()
        },
    );
    let gpu = m.backend().gpu();
    gpu.set_hung(true);
    let a = m.create_buffer(&buf(1 << 20)).expect("fits");
    m.use_buffer(a).expect("use");
    m.retire_buffer(a).expect("retire");
    assert_eq!(m.stats().pending_release_objects, 1);
    let start = Instant::now();
    let err = m
        .create_buffer(&buf(1 << 20))
        .expect_err("heap full, GPU hung");
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "bounded by the wait timeout"
    );
    assert_eq!(err, MemoryError::OutOfDeviceMemory);
    assert_eq!(
        m.collect_garbage_blocking(),
        Err(MemoryError::Timeout(Epoch::new(1)))
    );
    // The GPU recovers: the same request now succeeds through the ladder.
    gpu.set_hung(false);
    let b = m
        .create_buffer(&buf(1 << 20))
        .expect("recovers once the GPU completes");
    assert_eq!(m.backend().double_destroys(), 0);
    m.retire_buffer(b).expect("retire");
}

#[test]
fn device_loss_latches_and_releases_everything() {
    let mut m = manager(
        64 << 20,
        ManagerConfig {
            faults: FaultPlan {
                device_lost_on_submit: Some(2),
                ..FaultPlan::default()
            },
            ..ManagerConfig::default()
        },
    );
    let a = m.create_buffer(&buf(4096)).expect("a");
    m.use_buffer(a).expect("use");
    m.submit().expect("first submit");
    let b = m.create_buffer(&buf(4096)).expect("b");
    m.use_buffer(b).expect("use");
    m.retire_buffer(a).expect("retire a");
    assert_eq!(m.submit(), Err(MemoryError::DeviceLost));
    assert!(m.is_lost());
    assert_eq!(
        m.create_buffer(&buf(4096)).err(),
        Some(MemoryError::DeviceLost)
    );
    assert_eq!(m.submit(), Err(MemoryError::DeviceLost));
    m.retire_buffer(b).expect("retiring still works after loss");
    let s = m.stats();
    assert!(s.device_lost);
    assert_eq!(
        s.pending_release_objects, 0,
        "a lost device executes nothing: release at once"
    );
    assert_eq!(s.live_bytes, 0);
    assert_eq!(m.backend().double_destroys(), 0);
}

#[test]
fn an_injected_allocation_failure_runs_the_ladder_and_recovers() {
    let mut m = manager(
        64 << 20,
        ManagerConfig {
            faults: FaultPlan {
                fail_nth_allocation: Some(2),
                ..FaultPlan::default()
            },
            ..ManagerConfig::default()
        },
    );
    let a = m.create_buffer(&buf(4096)).expect("first");
    let b = m
        .create_buffer(&buf(4096))
        .expect("second fails once, then the retry succeeds");
    let s = m.stats();
    assert_eq!(s.faults_injected, 1);
    assert_eq!(s.oom_failures, 1);
    assert_eq!(s.ladder_recoveries, 1);
    assert_eq!(s.refusals, 0);
    let mut m2 = manager(
        64 << 20,
        ManagerConfig {
            faults: FaultPlan {
                fail_allocations_above: Some(1 << 20),
                ..FaultPlan::default()
            },
            ..ManagerConfig::default()
        },
    );
    assert_eq!(
        m2.create_buffer(&buf(2 << 20)).err(),
        Some(MemoryError::OutOfDeviceMemory)
    );
    assert_eq!(m2.stats().refusals, 1);
    m2.create_buffer(&buf(4096))
        .expect("small allocations still work");
    m.retire_buffer(a).expect("retire");
    m.retire_buffer(b).expect("retire");
}

#[test]
fn a_completed_use_is_released_at_retire_and_a_pending_one_at_the_drain() {
    let mut m = manager(64 << 20, ManagerConfig::default());
    let gpu = m.backend().gpu();
    let a = m.create_buffer(&buf(4096)).expect("a");
    let b = m.create_buffer(&buf(4096)).expect("b");
    m.use_buffer(a).expect("use a");
    let e1 = m.submit().expect("submit");
    m.use_buffer(b).expect("use b");
    let e2 = m.submit().expect("submit");
    m.retire_buffer(a).expect("retire a");
    m.retire_buffer(b).expect("retire b");
    assert_eq!(m.stats().pending_release_objects, 2);
    gpu.complete_through(e1);
    assert_eq!(m.begin_frame(), Ok(1));
    gpu.complete_through(e2);
    assert_eq!(m.drain(), Ok(1));
    let releases = m.backend().releases();
    assert_eq!(releases.len(), 2);
    assert!(releases[0].completed_at >= e1 && releases[1].completed_at >= e2);
    // Never used: released at retire.
    let c = m.create_buffer(&buf(4096)).expect("c");
    m.retire_buffer(c).expect("retire c");
    assert_eq!(m.stats().released_objects, 3);
}
