//! Epochs and the retire queue.
//!
//! Every submission through the manager signals the next value of one timeline semaphore: that
//! value is the submission's *epoch* ([`Epoch`], defined in `arenagl-staging` so that the staging
//! arenas and this crate share it). The epoch being recorded is the submitted one's
//! [`Epoch::next`]. A resource remembers the last epoch that used it; retiring it queues it under
//! that epoch, and it is released only once the completed epoch (the semaphore's counter) has
//! reached it.
//!
//! [`EpochClock`] holds the two counters as atomics so that completion may be observed on any
//! thread (a poller, the presenter, a loom "GPU" thread). An atomic holds a raw `u64`, so the
//! clock converts at every load and store and hands out only [`Epoch`] values.
//! `observe_completed` is a monotonic max, never beyond what was submitted. Its Release store
//! pairs with the Acquire load in [`Deferred::drain`]: whoever sees completion also sees
//! everything the GPU side published before it. [`Deferred`] is the retire queue (a public name
//! older than the glossary in `lib.rs`, kept because `stress/`'s loom model uses it) behind its
//! own lock, keyed by epoch, because retire epochs are not monotonic (a resource last used long
//! ago may be retired after one used in the current recording). The loom model in
//! `stress/tests/loom_retire.rs` checks both.

#![deny(clippy::unwrap_used)]

use std::collections::BTreeMap;

use crate::sync::{lock, AtomicU64, Mutex, Ordering};
use crate::Epoch;

/// The submitted and completed epoch counters.
#[derive(Debug, Default)]
pub struct EpochClock {
    submitted: AtomicU64,
    completed: AtomicU64,
}

impl EpochClock {
    /// A clock at epoch 0 (nothing submitted, nothing pending).
    pub fn new() -> Self {
        Self::default()
    }

    /// The last epoch handed to the queue.
    pub fn submitted(&self) -> Epoch {
        Epoch::new(self.submitted.load(Ordering::Acquire))
    }

    /// The epoch the recording command buffer will signal when it is submitted.
    pub fn recording(&self) -> Epoch {
        self.submitted().next()
    }

    /// Allocates the next epoch for a submission and returns it. Only the submitting thread
    /// calls this.
    pub fn advance_submitted(&self) -> Epoch {
        Epoch::new(self.submitted.fetch_add(1, Ordering::AcqRel)).next()
    }

    /// The newest epoch known to have completed.
    pub fn completed(&self) -> Epoch {
        Epoch::new(self.completed.load(Ordering::Acquire))
    }

    /// Records that the GPU reached `value` (at most what was submitted); returns the new
    /// completed epoch. Never moves backwards.
    pub fn observe_completed(&self, value: Epoch) -> Epoch {
        let value = value.min(self.submitted());
        Epoch::new(self.completed.fetch_max(value.get(), Ordering::AcqRel)).max(value)
    }

    /// Epochs submitted but not yet known complete (a count, not an epoch).
    pub fn in_flight(&self) -> u64 {
        self.submitted().since(self.completed())
    }
}

/// The retire queue's unlocked core: items waiting for their epoch, keyed by epoch.
#[derive(Debug)]
pub struct RetireQueue<T> {
    pending: BTreeMap<Epoch, Vec<T>>,
    len: usize,
}

impl<T> Default for RetireQueue<T> {
    fn default() -> Self {
        Self {
            pending: BTreeMap::new(),
            len: 0,
        }
    }
}

impl<T> RetireQueue<T> {
    /// Queues `item` until `epoch` completes.
    pub fn push(&mut self, epoch: Epoch, item: T) {
        self.pending.entry(epoch).or_default().push(item);
        self.len += 1;
    }

    /// Removes and returns every item whose epoch is `<= completed`, oldest epoch first.
    pub fn pop_completed(&mut self, completed: Epoch) -> Vec<(Epoch, T)> {
        let later = self.pending.split_off(&completed.next());
        let done = std::mem::replace(&mut self.pending, later);
        let mut out = Vec::new();
        for (epoch, items) in done {
            out.extend(items.into_iter().map(|item| (epoch, item)));
        }
        self.len -= out.len();
        out
    }

    /// Removes everything regardless of epoch (device lost, shutdown after wait-idle).
    pub fn pop_all(&mut self) -> Vec<(Epoch, T)> {
        self.pop_completed(Epoch::MAX)
    }

    /// Removes every item whose epoch is `> epoch` (work that will never be submitted).
    pub fn pop_after(&mut self, epoch: Epoch) -> Vec<(Epoch, T)> {
        if epoch == Epoch::MAX {
            return Vec::new();
        }
        let later = self.pending.split_off(&epoch.next());
        let mut out = Vec::new();
        for (epoch, items) in later {
            out.extend(items.into_iter().map(|item| (epoch, item)));
        }
        self.len -= out.len();
        out
    }

    /// Items still waiting.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The oldest epoch anything waits for.
    pub fn oldest_epoch(&self) -> Option<Epoch> {
        self.pending.keys().next().copied()
    }
}

/// The retire queue, shared between the thread that retires and the threads that drain.
#[derive(Debug)]
pub struct Deferred<T> {
    queue: Mutex<RetireQueue<T>>,
}

impl<T> Default for Deferred<T> {
    fn default() -> Self {
        Self {
            queue: Mutex::new(RetireQueue::default()),
        }
    }
}

impl<T> Deferred<T> {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    /// Queues `item` until `epoch` completes.
    pub fn retire(&self, epoch: Epoch, item: T) {
        lock(&self.queue).push(epoch, item);
    }

    /// Takes every item whose epoch `clock` reports complete. The completed value is read with
    /// Acquire ordering before the queue is inspected.
    pub fn drain(&self, clock: &EpochClock) -> Vec<(Epoch, T)> {
        let completed = clock.completed();
        lock(&self.queue).pop_completed(completed)
    }

    /// Takes every item waiting for an epoch after `epoch`: after device loss, work that was never
    /// submitted can never run.
    pub fn drain_after(&self, epoch: Epoch) -> Vec<(Epoch, T)> {
        lock(&self.queue).pop_after(epoch)
    }

    /// Takes everything (only once the device can no longer touch any of it).
    pub fn drain_all(&self) -> Vec<(Epoch, T)> {
        lock(&self.queue).pop_all()
    }

    /// Items still waiting.
    pub fn len(&self) -> usize {
        lock(&self.queue).len()
    }

    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The oldest epoch anything waits for.
    pub fn oldest_epoch(&self) -> Option<Epoch> {
        lock(&self.queue).oldest_epoch()
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn items_leave_only_when_their_epoch_completes() {
        let clock = EpochClock::new();
        let queue = Deferred::new();
        let e1 = clock.advance_submitted();
        let e2 = clock.advance_submitted();
        queue.retire(e2, "b");
        queue.retire(e1, "a");
        queue.retire(Epoch::ZERO, "never used");
        assert_eq!(queue.drain(&clock), vec![(Epoch::ZERO, "never used")]);
        clock.observe_completed(e1);
        assert_eq!(queue.drain(&clock), vec![(e1, "a")]);
        assert!(queue.drain(&clock).is_empty());
        clock.observe_completed(e2);
        assert_eq!(queue.drain(&clock), vec![(e2, "b")]);
        assert!(queue.is_empty());
    }

    #[test]
    fn completion_is_monotonic_and_never_beyond_submitted() {
        let clock = EpochClock::new();
        clock.advance_submitted();
        clock.advance_submitted();
        assert_eq!(clock.observe_completed(Epoch::new(10)), Epoch::new(2));
        assert_eq!(clock.observe_completed(Epoch::new(1)), Epoch::new(2));
        assert_eq!(clock.in_flight(), 0);
        assert_eq!(clock.recording(), Epoch::new(3));
    }
}
