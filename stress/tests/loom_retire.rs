//! Loom models of retire-and-drain with completion observed on another thread (issue 2).
//!
//! They run the real `arenagl_memory::epoch::{EpochClock, Deferred}`, which use loom's atomics
//! and mutex under `--cfg loom` through the memory crate's `sync` facade. A "GPU" thread, for
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
//!
//! Run with `scripts/loom.sh`.

#![cfg(loom)]

use std::collections::HashSet;

use arenagl_memory::epoch::{Deferred, EpochClock};
use arenagl_memory::Epoch;
use loom::sync::atomic::{AtomicBool, Ordering};
use loom::sync::Arc;
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
