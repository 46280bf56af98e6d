//! Out of memory at submission on the simulated device, reported by the simulated driver itself
//! (not the fault plan): the recording is kept and the submission ladder runs — drain, wait and
//! release everything, trim, retry, then split the recording into its segments — and only when
//! every rung fails is the submission refused, with the manager still usable.

use arenagl_memory::sim::{SimBackend, SimConfig, SimGpu};
use arenagl_memory::{
    BufferDesc, BufferHandle, Category, Epoch, Manager, ManagerConfig, MemoryClass, MemoryError,
    SimManager,
};
use ash::vk;
use std::sync::Arc;

const MIB: u64 = 1 << 20;

fn manager() -> (SimManager, Arc<SimGpu>) {
    let backend = SimBackend::new(SimConfig {
        heap_bytes: 64 * MIB,
        ..SimConfig::default()
    });
    let gpu = backend.gpu();
    let config = ManagerConfig {
        recycle_bin_bytes: 0,
        ..ManagerConfig::default()
    };
    (Manager::with_backend(backend, config), gpu)
}

fn buffer(m: &mut SimManager, size: u64) -> BufferHandle {
    let desc = BufferDesc::new(
        size,
        vk::BufferUsageFlags::VERTEX_BUFFER,
        MemoryClass::DeviceBuffer,
        Category::Buffer,
    );
    m.create_buffer(&desc).expect("buffer")
}

/// Fills the heap to 56 MiB: a 32 MiB buffer used by epoch 1 and then retired (waiting for it),
/// and 24 MiB still live, used by the recording (epoch 2).
fn fill(m: &mut SimManager) -> Vec<BufferHandle> {
    let big = buffer(m, 32 * MIB);
    m.use_buffer(big).expect("use");
    assert_eq!(m.submit(), Ok(Epoch::new(1)));
    m.retire_buffer(big).expect("retire");
    let live: Vec<_> = (0..3).map(|_| buffer(m, 8 * MIB)).collect();
    for &b in &live {
        m.use_buffer(b).expect("use");
    }
    live
}

#[test]
fn the_drain_rung_frees_completed_memory_and_the_same_recording_goes_through() {
    let (mut m, gpu) = manager();
    let live = fill(&mut m);
    // The driver needs 16 MiB free to submit; 8 MiB are. Epoch 1 already finished on the GPU,
    // though the manager has not looked yet.
    gpu.limit_submissions(0, 16 * MIB);
    gpu.complete_through(Epoch::new(1));
    let before = gpu.submissions();
    assert_eq!(m.submit(), Ok(Epoch::new(2)), "retried after the drain");
    let s = m.stats();
    assert_eq!(
        (
            s.oom_failures,
            s.ladder_drains,
            s.ladder_recoveries,
            s.refusals
        ),
        (1, 1, 1, 0)
    );
    assert_eq!(s.blocking_gcs, 0, "the first rung was enough");
    assert_eq!(
        gpu.submissions(),
        before + 1,
        "one queue submission in the end"
    );
    assert_eq!(gpu.submitted(), Epoch::new(2));
    // The live buffers were used by the recording that went through: they wait for epoch 2.
    for b in live {
        m.retire_buffer(b).expect("retire");
    }
    assert_eq!(m.stats().pending_release_objects, 3);
    gpu.complete_through(Epoch::new(2));
    m.drain().expect("drain");
    assert_eq!(m.stats().live_bytes, 0);
}

#[test]
fn the_wait_rung_frees_what_the_gpu_still_holds() {
    let (mut m, gpu) = manager();
    fill(&mut m);
    gpu.limit_submissions(0, 16 * MIB);
    // Epoch 1 is still running: the drain frees nothing, the bounded wait does.
    assert_eq!(m.submit(), Ok(Epoch::new(2)));
    let s = m.stats();
    assert_eq!(
        (s.oom_failures, s.ladder_drains, s.blocking_gcs),
        (2, 1, 1),
        "failed again after the drain, then waited"
    );
    assert_eq!((s.ladder_recoveries, s.refusals), (1, 0));
}

#[test]
fn a_recording_too_large_for_one_submission_is_split_into_its_segments() {
    let (mut m, gpu) = manager();
    let a = buffer(&mut m, MIB);
    m.use_buffer(a).expect("use");
    gpu.record_segments(5);
    gpu.limit_submissions(2, 0);
    let before = gpu.submissions();
    assert_eq!(m.submit(), Ok(Epoch::new(1)));
    let s = m.stats();
    assert_eq!(
        (s.split_submits, s.ladder_recoveries, s.refusals),
        (1, 1, 0)
    );
    assert_eq!(
        s.oom_failures, 4,
        "the first attempt and the three rungs' retries"
    );
    assert_eq!(gpu.submissions(), before + 5, "one submission per segment");
    assert_eq!(
        gpu.submitted(),
        Epoch::new(1),
        "the last part signals the epoch"
    );
    m.retire_buffer(a).expect("retire");
    assert_eq!(m.stats().live_bytes, MIB, "used by epoch 1, still running");
}

#[test]
fn when_every_rung_fails_the_submission_is_refused_and_the_next_one_works() {
    let (mut m, gpu) = manager();
    let a = buffer(&mut m, MIB);
    m.use_buffer(a).expect("use");
    gpu.limit_submissions(0, 65 * MIB);
    let before = gpu.submissions();
    assert_eq!(m.submit(), Err(MemoryError::OutOfDeviceMemory));
    let s = m.stats();
    assert_eq!(
        (s.refusals, s.ladder_recoveries, s.split_submits),
        (1, 0, 0)
    );
    assert!(!m.is_lost(), "out of memory is not device loss");
    assert_eq!(gpu.submissions(), before, "nothing reached the queue");
    gpu.limit_submissions(0, 0);
    m.use_buffer(a).expect("use");
    assert_eq!(
        m.submit(),
        Ok(Epoch::new(1)),
        "the epoch the refusal did not use"
    );
    m.retire_buffer(a).expect("retire");
    m.collect_garbage_blocking().expect("gc");
    assert_eq!(m.stats().live_bytes, 0);
}
