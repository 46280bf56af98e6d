//! Loom models of retire-and-drain with completion observed on another thread (issue 2).
//!
//! They run the real `arenagl_memory::epoch::EpochClock` and the retire primitive
//! `arenagl_memory::retire::{Deferred, RetireQueue, Horizon}` (the one queue the manager, the
//! presenter and the GL translator all use), with loom's atomics and mutex under `--cfg loom`
//! through the memory crate's `sync` facade. A "GPU" thread, for
//! each epoch, first publishes that the epoch's work is done (a Relaxed store to a flag) and then
//! calls `observe_completed`. Whenever anything is drained, the drained item's epoch flag must be
//! visible with a Relaxed load: only the Release in `observe_completed` paired with the Acquire in
//! `Deferred::drain` makes that hold, so these models fail if either ordering is weakened. Items
//! carry unique ids: nothing may be drained twice, and after the threads are joined a final drain
//! must have released every item exactly once.
//!
//! - `retire_and_drain_while_the_gpu_completes`: the app submits, retires under a submitted
//!   epoch, under 0 (never used) and under the epoch still being recorded, and drains while the
//!   GPU thread completes epochs 1 and 2.
//! - `concurrent_drains_release_each_item_once`: two threads drain the same queue while the GPU
//!   thread completes; every item comes out exactly once.
//! - `out_of_order_retires_leave_in_epoch_then_retirement_order` (the presenter's use): a
//!   swapchain retired at the newer epoch after an object of an older one, then its surface at
//!   the same epoch after it; drains race the completions. Every drained batch is in epoch
//!   order, and the surface never leaves before its swapchain, in a partial drain or the final
//!   drain-all.
//! - `a_lost_device_frees_completed_and_unsubmitted_work_only` (the manager's and translator's
//!   drain after a loss while the device still runs): the never-submitted recording's item is
//!   freed at once; submitted ones only once their work is visible, while the GPU completes.
//! - `a_context_retires_and_submits_while_another_drains` (the translator's use: objects retired
//!   at the recording epoch by one context, which then submits, while another context drains),
//!   ending with the teardown drain-all once the GPU is idle.
//!
//! Run with `scripts/loom.sh`.

#![cfg(loom)]

use std::collections::HashSet;

use arenagl_memory::epoch::EpochClock;
use arenagl_memory::retire::{Deferred, Horizon, RetireQueue};
use arenagl_memory::Epoch;
use loom::sync::atomic::{AtomicBool, Ordering};
use loom::sync::Arc;
use loom::sync::Mutex;
use loom::thread;

/// Work-done flags for epochs 0..=3 (index = the epoch's raw number).
struct Gpu {
    work_done: [AtomicBool; 4],
}

impl Gpu {
    fn new() -> Arc<Self> {
        let gpu = Gpu {
            work_done: [
                AtomicBool::new(false),
                AtomicBool::new(false),
                AtomicBool::new(false),
                AtomicBool::new(false),
            ],
        };
        // Epoch 0 is "never used by the GPU": trivially done.
        gpu.done(Epoch::ZERO).store(true, Ordering::Relaxed);
        Arc::new(gpu)
    }

    /// The GPU thread: each epoch runs only once submitted; its work is published before the
    /// completion is signalled.
    fn run(&self, clock: &EpochClock, through: Epoch) {
        let mut epoch = Epoch::ZERO;
        while epoch < through {
            epoch = epoch.next();
            while clock.submitted() < epoch {
                thread::yield_now();
            }
            self.done(epoch).store(true, Ordering::Relaxed);
            clock.observe_completed(epoch);
        }
    }

    /// The work-done flag of `epoch`.
    fn done(&self, epoch: Epoch) -> &AtomicBool {
        &self.work_done[epoch.get() as usize]
    }

    /// Checks a drained batch: every item's GPU work is visible, and no id was seen before.
    fn check_drained(&self, drained: Vec<(Epoch, u32)>, seen: &mut HashSet<u32>) {
        assert_in_epoch_order(&drained);
        for (epoch, id) in drained {
            assert!(
                self.done(epoch).load(Ordering::Relaxed),
                "item {id} drained under epoch {epoch} before that epoch's GPU work was visible"
            );
            assert!(seen.insert(id), "item {id} drained twice");
        }
    }
}

#[test]
fn retire_and_drain_while_the_gpu_completes() {
    loom::model(|| {
        let clock = Arc::new(EpochClock::new());
        let deferred = Arc::new(Deferred::<u32>::new());
        let gpu = Gpu::new();

        let e1 = clock.advance_submitted();
        let gpu_thread = {
            let (clock, gpu) = (clock.clone(), gpu.clone());
            thread::spawn(move || gpu.run(&clock, Epoch::new(2)))
        };

        let mut seen = HashSet::new();
        deferred.retire(e1, 1);
        deferred.retire(Epoch::ZERO, 0);
        gpu.check_drained(deferred.drain(&clock), &mut seen);
        assert!(
            seen.contains(&0),
            "an item never used must be released at the first drain"
        );

        let e2 = clock.advance_submitted();
        deferred.retire(e2, 2);
        // Used by the recording command buffer: not even submitted yet.
        let recording = clock.recording();
        deferred.retire(recording, 3);
        gpu.check_drained(deferred.drain(&clock), &mut seen);
        assert!(
            !seen.contains(&3),
            "released before its epoch was submitted"
        );

        gpu_thread.join().expect("GPU thread");
        assert_eq!(clock.completed(), e2);
        gpu.check_drained(deferred.drain(&clock), &mut seen);
        assert_eq!(seen, HashSet::from([0, 1, 2]));
        assert_eq!(deferred.len(), 1);

        // Submit the recording and wait for it (the blocking GC's path), then drain the rest.
        let e3 = clock.advance_submitted();
        assert_eq!(e3, recording);
        gpu.done(e3).store(true, Ordering::Relaxed);
        clock.observe_completed(e3);
        gpu.check_drained(deferred.drain(&clock), &mut seen);
        assert!(deferred.is_empty());
        assert_eq!(seen, HashSet::from([0, 1, 2, 3]));
    });
}

#[test]
fn concurrent_drains_release_each_item_once() {
    loom::model(|| {
        let clock = Arc::new(EpochClock::new());
        let deferred = Arc::new(Deferred::<u32>::new());
        let gpu = Gpu::new();

        let e1 = clock.advance_submitted();
        let e2 = clock.advance_submitted();
        deferred.retire(e2, 0);
        deferred.retire(e1, 1);
        deferred.retire(Epoch::ZERO, 2);
        deferred.retire(e1, 3);

        let gpu_thread = {
            let (clock, gpu) = (clock.clone(), gpu.clone());
            thread::spawn(move || gpu.run(&clock, Epoch::new(2)))
        };
        let drainer = {
            let (clock, deferred, gpu) = (clock.clone(), deferred.clone(), gpu.clone());
            thread::spawn(move || {
                let mut seen = HashSet::new();
                gpu.check_drained(deferred.drain(&clock), &mut seen);
                seen
            })
        };
        let mut seen = HashSet::new();
        gpu.check_drained(deferred.drain(&clock), &mut seen);

        let theirs = drainer.join().expect("drainer thread");
        gpu_thread.join().expect("GPU thread");
        for id in theirs {
            assert!(seen.insert(id), "item {id} drained by both threads");
        }
        gpu.check_drained(deferred.drain(&clock), &mut seen);
        assert!(deferred.is_empty());
        assert_eq!(seen, HashSet::from([0, 1, 2, 3]));
    });
}

/// A drained batch goes oldest epoch first.
fn assert_in_epoch_order(drained: &[(Epoch, u32)]) {
    assert!(
        drained.windows(2).all(|w| w[0].0 <= w[1].0),
        "drained out of epoch order: {drained:?}"
    );
}

#[test]
fn out_of_order_retires_leave_in_epoch_then_retirement_order() {
    const OLD: u32 = 0;
    const SWAPCHAIN: u32 = 1;
    const SURFACE: u32 = 2;
    loom::model(|| {
        let clock = Arc::new(EpochClock::new());
        let queue = Arc::new(Deferred::<u32>::new());
        let gpu = Gpu::new();
        let e1 = clock.advance_submitted();
        let e2 = clock.advance_submitted();
        // Retired out of epoch order; the surface after its swapchain, at the same epoch.
        queue.retire(e2, SWAPCHAIN);
        queue.retire(e1, OLD);
        queue.retire(e2, SURFACE);

        let gpu_thread = {
            let (clock, gpu) = (clock.clone(), gpu.clone());
            thread::spawn(move || gpu.run(&clock, Epoch::new(2)))
        };
        let drainer = {
            let (clock, queue, gpu) = (clock.clone(), queue.clone(), gpu.clone());
            thread::spawn(move || {
                let mut seen = HashSet::new();
                let batch = queue.drain(&clock);
                let order: Vec<u32> = batch.iter().map(|&(_, id)| id).collect();
                gpu.check_drained(batch, &mut seen);
                order
            })
        };
        let mut seen = HashSet::new();
        let mine = queue.drain(&clock);
        let my_order: Vec<u32> = mine.iter().map(|&(_, id)| id).collect();
        gpu.check_drained(mine, &mut seen);
        let theirs = drainer.join().expect("drainer thread");
        gpu_thread.join().expect("GPU thread");
        // Teardown: the device is idle, everything left goes, still in order.
        let rest: Vec<u32> = queue.drain_all().into_iter().map(|(_, id)| id).collect();
        for order in [&my_order, &theirs, &rest] {
            if let Some(surface) = order.iter().position(|&id| id == SURFACE) {
                let swapchain = order.iter().position(|&id| id == SWAPCHAIN);
                assert!(
                    swapchain.is_some_and(|s| s < surface),
                    "surface released without its swapchain before it: {order:?}"
                );
            }
        }
        let mut all: Vec<u32> = my_order.into_iter().chain(theirs).chain(rest).collect();
        all.sort_unstable();
        assert_eq!(all, vec![OLD, SWAPCHAIN, SURFACE], "each item exactly once");
        assert!(queue.is_empty());
    });
}

#[test]
fn a_lost_device_frees_completed_and_unsubmitted_work_only() {
    loom::model(|| {
        let clock = Arc::new(EpochClock::new());
        let queue = Arc::new(Mutex::new(RetireQueue::<u32>::new()));
        let gpu = Gpu::new();
        let e1 = clock.advance_submitted();
        let e2 = clock.advance_submitted();
        {
            let mut q = queue.lock().expect("queue");
            q.push(e2, 2);
            q.push(clock.recording(), 3);
            // Never submitted: nothing of it will ever run, so there is nothing to wait for.
            gpu.done(clock.recording()).store(true, Ordering::Relaxed);
            q.push(e1, 1);
        }
        let gpu_thread = {
            let (clock, gpu) = (clock.clone(), gpu.clone());
            thread::spawn(move || gpu.run(&clock, Epoch::new(2)))
        };
        // The loss is noticed while the GPU still runs what it was given.
        let lost = || Horizon::Lost {
            completed: clock.completed(),
            submitted: clock.submitted(),
        };
        let mut seen = HashSet::new();
        let first = queue.lock().expect("queue").drain(lost());
        gpu.check_drained(first, &mut seen);
        assert!(seen.contains(&3), "never-submitted work is freed at once");
        gpu_thread.join().expect("GPU thread");
        let rest = queue.lock().expect("queue").drain(lost());
        gpu.check_drained(rest, &mut seen);
        assert_eq!(seen, HashSet::from([1, 2, 3]));
        assert!(queue.lock().expect("queue").is_empty());
    });
}

#[test]
fn a_context_retires_and_submits_while_another_drains() {
    loom::model(|| {
        let clock = Arc::new(EpochClock::new());
        let queue = Arc::new(Deferred::<u32>::new());
        let gpu = Gpu::new();
        let gpu_thread = {
            let (clock, gpu) = (clock.clone(), gpu.clone());
            thread::spawn(move || gpu.run(&clock, Epoch::new(2)))
        };
        // Context 1 retires at the recording epoch, then submits it; twice.
        let retirer = {
            let (clock, queue) = (clock.clone(), queue.clone());
            thread::spawn(move || {
                for id in [1, 2] {
                    queue.retire(clock.recording(), id);
                    clock.advance_submitted();
                }
            })
        };
        // Context 2 drains at its own pace.
        let mut seen = HashSet::new();
        for _ in 0..2 {
            gpu.check_drained(queue.drain(&clock), &mut seen);
        }
        retirer.join().expect("retiring context");
        gpu_thread.join().expect("GPU thread");
        // Teardown after the device went idle: the rest, exactly once.
        gpu.check_drained(queue.drain_all(), &mut seen);
        assert_eq!(seen, HashSet::from([1, 2]));
        assert!(queue.is_empty());
    });
}
