//! The `ARENAGL_FAULTS` plan on the simulated device (no GPU): each injected result takes the
//! path the classification table gives it (docs/robustness.md).

use arenagl_memory::sim::{SimBackend, SimConfig};
use arenagl_memory::{
    BufferDesc, Category, Epoch, FaultPlan, Manager, ManagerConfig, MemoryClass, MemoryError,
    SimManager,
};
use ash::vk;

fn manager(plan: &str) -> SimManager {
    Manager::with_backend(
        SimBackend::new(SimConfig {
            heap_bytes: 64 << 20,
            ..SimConfig::default()
        }),
        ManagerConfig {
            faults: FaultPlan::parse(plan).expect("plan"),
            ..ManagerConfig::default()
        },
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
fn one_failed_submission_is_absorbed_by_the_ladder() {
    let mut m = manager("submit@2=oom_host");
    let a = m.create_buffer(&buf(4096)).expect("a");
    m.use_buffer(a).expect("use");
    assert_eq!(m.submit(), Ok(Epoch::new(1)));
    m.use_buffer(a).expect("use");
    assert_eq!(
        m.submit(),
        Ok(Epoch::new(2)),
        "failed once, retried after the wait"
    );
    let s = m.stats();
    assert_eq!(
        (s.faults_injected, s.ladder_recoveries, s.refusals),
        (1, 1, 0)
    );
    m.retire_buffer(a).expect("retire");
}

#[test]
fn a_submission_failing_every_time_is_refused_and_the_manager_stays_usable() {
    let mut m = manager("submit%1=oom_device");
    let a = m.create_buffer(&buf(4096)).expect("a");
    m.use_buffer(a).expect("use");
    assert_eq!(m.submit(), Err(MemoryError::OutOfDeviceMemory));
    assert_eq!(m.stats().refusals, 1);
    assert!(!m.is_lost(), "out of memory is not device loss");
    m.set_fault_plan(FaultPlan::default());
    m.use_buffer(a).expect("use");
    assert_eq!(
        m.submit(),
        Ok(Epoch::new(1)),
        "the epoch the failure did not use"
    );
    m.retire_buffer(a).expect("retire");
    m.collect_garbage_blocking().expect("gc");
    assert_eq!(m.stats().live_bytes, 0);
}

#[test]
fn an_allocation_reporting_device_loss_sets_the_latch_and_its_flag() {
    let mut m = manager("alloc@2=device_lost");
    let flag = m.lost_flag();
    let a = m.create_buffer(&buf(4096)).expect("a");
    assert!(!flag.is_lost());
    assert_eq!(
        m.create_buffer(&buf(4096)).err(),
        Some(MemoryError::DeviceLost)
    );
    assert!(m.is_lost() && flag.is_lost(), "the flag follows the latch");
    assert_eq!(m.submit(), Err(MemoryError::DeviceLost));
    m.retire_buffer(a).expect("retire after loss");
    assert_eq!(m.stats().live_bytes, 0, "released at once");
}

#[test]
fn counters_continue_in_a_replacement_manager() {
    let mut lost = manager("submit@2=device_lost,alloc%3=oom_host");
    lost.submit().expect("1");
    assert_eq!(lost.submit(), Err(MemoryError::DeviceLost));
    let mut fresh = manager("");
    fresh.resume_faults(lost.fault_state());
    for n in 1..=4 {
        assert_eq!(
            fresh.submit(),
            Ok(Epoch::new(n)),
            "submit@2 already fired in this process"
        );
    }
    assert_eq!(fresh.fault_state().injected(), 1);
}

#[test]
fn probability_faults_are_reproducible() {
    let run = || {
        let mut m = manager("alloc~0.5:9=oom_device");
        (0..200)
            .map(|_| match m.create_buffer(&buf(256)) {
                Ok(h) => {
                    m.retire_buffer(h).expect("retire");
                    true
                }
                Err(e) => {
                    assert!(e.is_out_of_memory(), "{e}");
                    false
                }
            })
            .collect::<Vec<bool>>()
    };
    let first = run();
    assert_eq!(first, run());
    assert!(first.iter().any(|&ok| !ok) && first.iter().any(|&ok| ok));
}
