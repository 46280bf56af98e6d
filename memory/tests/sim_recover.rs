//! Device-loss recovery inside the same manager on the simulated device (`recover.rs`): a lost
//! device is re-opened behind the same handles, host-visible buffers come back from the
//! restore journal (or zeroed), failed attempts back off within a budget, and the lost device
//! is dropped with nothing of it left alive.

use std::time::Duration;

use arenagl_memory::recover::{RecoverPolicy, Recovery};
use arenagl_memory::sim::{SimBackend, SimConfig};
use arenagl_memory::{
    BufferDesc, Category, FaultPlan, ImageDesc, Manager, ManagerConfig, MemoryClass, MemoryError,
    SamplerDesc, SimManager, ViewDesc,
};
use ash::vk;

fn policy(max_attempts: u32) -> RecoverPolicy {
    RecoverPolicy {
        journal_bytes: 1 << 20,
        max_attempts,
        first_backoff: Duration::ZERO,
        max_backoff: Duration::ZERO,
        ..RecoverPolicy::default()
    }
}

fn manager(recover: RecoverPolicy) -> SimManager {
    Manager::with_backend(
        SimBackend::new(SimConfig {
            heap_bytes: 64 << 20,
            ..SimConfig::default()
        }),
        ManagerConfig {
            recover,
            ..ManagerConfig::default()
        },
    )
}

fn host_buffer(size: u64) -> BufferDesc {
    BufferDesc::new(
        size,
        vk::BufferUsageFlags::UNIFORM_BUFFER,
        MemoryClass::Transient,
        Category::Buffer,
    )
}

fn lose(m: &mut SimManager) {
    m.set_fault_plan(FaultPlan::parse("submit@1=device_lost").expect("plan"));
    assert_eq!(m.submit(), Err(MemoryError::DeviceLost));
    m.set_fault_plan(FaultPlan::default());
    assert!(m.is_lost());
}

fn read(m: &mut SimManager, b: arenagl_memory::BufferHandle, len: usize) -> Vec<u8> {
    let mut out = vec![0xAA; len];
    m.read_buffer(b, 0, &mut out).expect("read");
    out
}

#[test]
fn a_lost_device_is_reopened_behind_the_same_handles_with_journaled_bytes() {
    let mut m = manager(policy(8));
    let gpu = m.backend().gpu();
    let specified = m.create_buffer(&host_buffer(256)).expect("buffer");
    let untouched = m.create_buffer(&host_buffer(64)).expect("buffer");
    let bytes: Vec<u8> = (0..=255).collect();
    m.write_buffer(specified, 0, &bytes).expect("write");
    m.write_buffer(specified, 16, &[7; 16])
        .expect("re-specify in place");
    m.write_buffer(untouched, 0, &[9; 64]).expect("write");
    let image = m
        .create_image(&ImageDesc::new_2d(
            vk::Format::R8G8B8A8_UNORM,
            16,
            16,
            1,
            vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST,
            Category::Texture,
        ))
        .expect("image");
    let view = m.create_view(image, &ViewDesc::color_2d(1)).expect("view");
    let sampler = m.create_sampler(&SamplerDesc::default()).expect("sampler");
    m.retire_buffer(untouched).expect("retire");
    assert_eq!(
        m.journal_figures().objects,
        1,
        "a retired handle's entries go with it"
    );
    let untouched = m
        .create_buffer(&host_buffer(64))
        .expect("a never-written buffer");
    m.use_buffer(specified).expect("use");
    let old_flag = m.lost_flag();
    lose(&mut m);

    gpu.refuse_reopens(2);
    assert!(
        matches!(m.recover(), Ok(Recovery::Later(_))),
        "first refusal backs off"
    );
    assert!(
        matches!(m.recover(), Ok(Recovery::Later(_))),
        "second refusal"
    );
    let Ok(Recovery::Recovered(report)) = m.recover() else {
        panic!("the third attempt recovers");
    };
    assert_eq!(report.failed_attempts, 2);
    assert_eq!((report.buffers, report.images), (2, 1));
    assert_eq!(report.restored_bytes, 256);
    assert_eq!(report.cleared, 2, "the never-written buffer and the image");

    assert!(!m.is_lost() && !m.lost_flag().is_lost());
    assert!(
        old_flag.is_lost(),
        "a client holding the old flag keeps seeing the loss"
    );
    assert_eq!(
        (m.recoveries(), m.stats().recoveries, gpu.reopens()),
        (1, 1, 1)
    );
    assert_eq!(
        gpu.dropped_with_live(),
        0,
        "the lost device let go of everything it made"
    );
    let mut want = bytes.clone();
    want[16..32].fill(7);
    assert_eq!(
        read(&mut m, specified, 256),
        want,
        "restored from the journal"
    );
    assert_eq!(
        read(&mut m, untouched, 64),
        vec![0; 64],
        "nothing journaled: zero"
    );
    m.use_view(view).expect("the view's handle is still valid");
    m.use_sampler(sampler)
        .expect("the sampler's handle is still valid");
    let before = m.submitted_epoch();
    let after = m.submit().expect("submits on the new device");
    assert!(
        after > before,
        "epochs continue: {after:?} after {before:?}"
    );

    for b in [specified, untouched] {
        m.retire_buffer(b).expect("retire");
    }
    m.retire_image(image).expect("retire");
    m.retire_sampler(sampler).expect("retire");
    m.collect_garbage_blocking().expect("gc");
    assert_eq!(m.stats().client_objects_live(), 0);
    assert_eq!(m.journal_figures().bytes, 0);
}

#[test]
fn recovery_gives_up_after_its_budget_of_attempts() {
    let mut m = manager(policy(3));
    let gpu = m.backend().gpu();
    let b = m.create_buffer(&host_buffer(64)).expect("buffer");
    lose(&mut m);
    gpu.refuse_reopens(10);
    for _ in 0..2 {
        assert!(matches!(m.recover(), Ok(Recovery::Later(_))));
    }
    assert_eq!(m.recover(), Ok(Recovery::GaveUp));
    assert_eq!(m.recover(), Ok(Recovery::GaveUp), "no further attempts");
    assert!(m.is_lost(), "the manager stays lost, as without recovery");
    m.retire_buffer(b).expect("retire after loss");
}

#[test]
fn back_off_defers_the_next_attempt() {
    let mut m = manager(RecoverPolicy {
        first_backoff: Duration::from_secs(60),
        max_backoff: Duration::from_secs(60),
        ..policy(8)
    });
    let gpu = m.backend().gpu();
    lose(&mut m);
    gpu.refuse_reopens(1);
    assert!(matches!(m.recover(), Ok(Recovery::Later(_))));
    let Ok(Recovery::Later(wait)) = m.recover() else {
        panic!("still backing off");
    };
    assert!(wait > Duration::from_secs(50), "{wait:?}");
    assert_eq!(gpu.reopens(), 0, "no attempt while backing off");
}

#[test]
fn recovery_off_keeps_the_latch() {
    let mut m = manager(RecoverPolicy {
        enabled: false,
        ..policy(8)
    });
    assert_eq!(m.recover(), Ok(Recovery::NotLost));
    lose(&mut m);
    assert_eq!(m.recover(), Ok(Recovery::GaveUp));
    assert!(m.is_lost());
}

#[test]
fn evicted_objects_come_back_cleared() {
    let mut m = manager(RecoverPolicy {
        journal_bytes: 4096,
        ..policy(8)
    });
    let a = m.create_buffer(&host_buffer(3072)).expect("a");
    let b = m.create_buffer(&host_buffer(3072)).expect("b");
    m.write_buffer(a, 0, &[1; 3072]).expect("a");
    m.write_buffer(b, 0, &[2; 3072]).expect("b: evicts a");
    assert_eq!(m.stats().journal_evictions, 1);
    lose(&mut m);
    assert!(matches!(m.recover(), Ok(Recovery::Recovered(_))));
    assert_eq!(read(&mut m, a, 3072), vec![0; 3072], "evicted: cleared");
    assert_eq!(read(&mut m, b, 3072), vec![2; 3072]);
    m.retire_buffer(a).expect("retire");
    m.retire_buffer(b).expect("retire");
}

mod model {
    use super::*;
    use proptest::prelude::*;

    #[derive(Debug, Clone)]
    enum Op {
        Create(u64),
        Write {
            pick: usize,
            offset: u64,
            len: u64,
            byte: u8,
        },
        Retire(usize),
        UseAndSubmit(usize),
        Complete,
        Frame,
        LoseAndRecover,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            3 => (1u64..2048).prop_map(Op::Create),
            4 => (any::<usize>(), 0u64..2048, 1u64..512, any::<u8>())
                .prop_map(|(pick, offset, len, byte)| Op::Write { pick, offset, len, byte }),
            1 => any::<usize>().prop_map(Op::Retire),
            2 => any::<usize>().prop_map(Op::UseAndSubmit),
            1 => Just(Op::Complete),
            1 => Just(Op::Frame),
            1 => Just(Op::LoseAndRecover),
        ]
    }

    proptest! {
        /// Across any interleaving of creates, writes, retires, submissions and losses, every
        /// live handle stays valid and its bytes match the model after each recovery; nothing
        /// the lost devices made is left alive or destroyed twice.
        #[test]
        fn recovery_keeps_every_handle_and_its_bytes(ops in prop::collection::vec(op(), 1..50)) {
            let mut m = manager(policy(8));
            let gpu = m.backend().gpu();
            let mut live: Vec<(arenagl_memory::BufferHandle, Vec<u8>)> = Vec::new();
            let mut recoveries = 0;
            for op in ops {
                match op {
                    Op::Create(size) => {
                        let b = m.create_buffer(&host_buffer(size)).expect("create");
                        live.push((b, vec![0; size as usize]));
                    }
                    Op::Write { pick, offset, len, byte } if !live.is_empty() => {
                        let n = live.len();
                        let (b, model) = &mut live[pick % n];
                        let offset = offset.min(model.len() as u64 - 1);
                        let end = (offset + len).min(model.len() as u64);
                        let data = vec![byte; (end - offset) as usize];
                        match m.write_buffer(*b, offset, &data) {
                            Ok(()) => model[offset as usize..end as usize].fill(byte),
                            Err(MemoryError::Busy(_)) => {}
                            Err(e) => panic!("write: {e}"),
                        }
                    }
                    Op::Retire(pick) if !live.is_empty() => {
                        let (b, _) = live.remove(pick % live.len());
                        m.retire_buffer(b).expect("retire");
                    }
                    Op::UseAndSubmit(pick) => {
                        if !live.is_empty() {
                            let b = live[pick % live.len()].0;
                            m.use_buffer(b).expect("use");
                        }
                        m.submit().expect("submit");
                    }
                    Op::Complete => gpu.complete_all(),
                    Op::Frame => {
                        m.begin_frame().expect("frame");
                    }
                    Op::LoseAndRecover => {
                        lose(&mut m);
                        let Ok(Recovery::Recovered(_)) = m.recover() else {
                            panic!("recovery");
                        };
                        recoveries += 1;
                        for (b, model) in &live {
                            let mut out = vec![0xAA; model.len()];
                            m.read_buffer(*b, 0, &mut out).expect("read after recovery");
                            prop_assert_eq!(&out, model);
                        }
                    }
                    _ => {}
                }
            }
            prop_assert_eq!(m.recoveries(), recoveries);
            prop_assert_eq!(gpu.dropped_with_live(), 0);
            for (b, _) in live {
                m.retire_buffer(b).expect("retire");
            }
            drop(m);
            prop_assert_eq!(gpu.dropped_with_live(), 0, "the last device let go of everything");
        }
    }
}

#[test]
fn a_device_too_small_for_the_objects_changes_nothing_and_a_later_attempt_recovers() {
    let mut m = manager(policy(8));
    let gpu = m.backend().gpu();
    let b = m.create_buffer(&host_buffer(1 << 20)).expect("buffer");
    m.write_buffer(b, 0, &[3; 1 << 20]).expect("write");
    lose(&mut m);
    gpu.set_reopened_heap(64 << 10);
    assert!(
        matches!(m.recover(), Ok(Recovery::Later(_))),
        "re-creating ran out of memory on the new device"
    );
    assert!(m.is_lost(), "still lost, nothing changed");
    assert_eq!(
        gpu.dropped_with_live(),
        0,
        "the failed device let go of what it made"
    );
    gpu.set_reopened_heap(0);
    assert!(matches!(m.recover(), Ok(Recovery::Recovered(_))));
    assert_eq!(gpu.reopens(), 2);
    assert_eq!(read(&mut m, b, 1 << 20), vec![3; 1 << 20]);
    m.retire_buffer(b).expect("retire");
}
