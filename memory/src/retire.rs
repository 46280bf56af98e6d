//! The deferred-release primitive: one retire queue for everything the GPU may still use.
//!
//! Three owners hold things whose destruction must wait for an epoch: the manager (buffers,
//! images, views, samplers), the presenter (swapchains, semaphores, surfaces) and the GL
//! translator (pipelines, layouts, descriptor pools, query pools, buffer views). Each keeps a
//! [`RetireQueue`] of its own item type; the rules live here once.
//!
//! Design decisions:
//! - An item is pushed with the epoch that last used it. Retire epochs are not monotonic (a
//!   resource last used long ago may be retired after one used in the recording), so the queue is
//!   keyed by epoch.
//! - A drain takes what a [`Horizon`] frees: everything at or before the completed epoch; after a
//!   device loss while the device still runs, also everything after the last submitted epoch
//!   (never submitted, so it can never run); everything once the device is gone or idle.
//! - **Order**: a drain yields items oldest epoch first and, within one epoch, in retirement
//!   order. An item that must be destroyed after others (a surface after its swapchains) is
//!   therefore retired after them at an epoch no earlier than theirs; it then never leaves before
//!   them, in a partial drain or a drain-all.
//! - [`Deferred`] is the same queue behind a lock, for the case where completion is observed on
//!   another thread than the one retiring (the manager, and the loom model in
//!   `stress/tests/loom_retire.rs`, which checks the primitive as all three owners use it). The
//!   presenter and the translator already run under the manager's `&mut` or the device mutex and
//!   hold the unlocked [`RetireQueue`].

#![deny(clippy::unwrap_used)]

use std::collections::BTreeMap;

use crate::epoch::EpochClock;
use crate::sync::{lock, Mutex};
use crate::Epoch;

/// What a drain may release: the device's progress as the queue's owner knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Horizon {
    /// Every item whose epoch is at or before this one (the completed epoch).
    Completed(Epoch),
    /// The device was lost but still runs what it was given: items at or before `completed`,
    /// and items after `submitted` (work that was never submitted and never will be).
    Lost { completed: Epoch, submitted: Epoch },
    /// Everything: the device is gone, or idle at teardown.
    All,
}

impl Horizon {
    /// Whether an item retired under `epoch` may be released.
    pub fn frees(self, epoch: Epoch) -> bool {
        match self {
            Horizon::Completed(done) => epoch <= done,
            Horizon::Lost {
                completed,
                submitted,
            } => epoch <= completed || epoch > submitted,
            Horizon::All => true,
        }
    }
}

/// Items waiting for their epoch, keyed by epoch (see the module's ordering rule).
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
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    /// Queues `item` until `epoch` completes.
    pub fn push(&mut self, epoch: Epoch, item: T) {
        self.pending.entry(epoch).or_default().push(item);
        self.len += 1;
    }

    /// Removes and returns every item `horizon` frees, oldest epoch first, in retirement order
    /// within an epoch.
    pub fn drain(&mut self, horizon: Horizon) -> Vec<(Epoch, T)> {
        let freed: Vec<Epoch> = self
            .pending
            .keys()
            .copied()
            .filter(|&e| horizon.frees(e))
            .collect();
        let mut out = Vec::new();
        for epoch in freed {
            if let Some(items) = self.pending.remove(&epoch) {
                out.extend(items.into_iter().map(|item| (epoch, item)));
            }
        }
        self.len -= out.len();
        out
    }

    /// Removes everything, in the drain order (only once the device can touch none of it).
    pub fn drain_all(&mut self) -> Vec<(Epoch, T)> {
        self.drain(Horizon::All)
    }

    /// Whether a drain under `horizon` would release anything.
    pub fn has_due(&self, horizon: Horizon) -> bool {
        self.pending.keys().any(|&e| horizon.frees(e))
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

/// A [`RetireQueue`] shared between the thread that retires and threads that drain.
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
    /// Acquire ordering (in [`EpochClock::completed`]) before the queue is inspected, so whoever
    /// drains an item also sees everything the GPU side published before completing its epoch.
    pub fn drain(&self, clock: &EpochClock) -> Vec<(Epoch, T)> {
        self.drain_horizon(Horizon::Completed(clock.completed()))
    }

    /// Takes every item `horizon` frees.
    pub fn drain_horizon(&self, horizon: Horizon) -> Vec<(Epoch, T)> {
        lock(&self.queue).drain(horizon)
    }

    /// Takes everything (only once the device can no longer touch any of it).
    pub fn drain_all(&self) -> Vec<(Epoch, T)> {
        self.drain_horizon(Horizon::All)
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
    fn drains_go_by_epoch_then_retirement_order() {
        let mut q = RetireQueue::new();
        let (e1, e2) = (Epoch::new(1), Epoch::new(2));
        q.push(e2, "swapchain");
        q.push(e1, "old swapchain");
        q.push(e2, "semaphore");
        q.push(e2, "surface");
        let order: Vec<_> = q.drain_all().into_iter().map(|(_, s)| s).collect();
        assert_eq!(
            order,
            ["old swapchain", "swapchain", "semaphore", "surface"]
        );
        assert!(q.is_empty());
    }

    #[test]
    fn a_lost_device_frees_completed_and_unsubmitted_work() {
        let mut q = RetireQueue::new();
        for (epoch, item) in [(1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')] {
            q.push(Epoch::new(epoch), item);
        }
        let lost = Horizon::Lost {
            completed: Epoch::new(1),
            submitted: Epoch::new(2),
        };
        assert!(q.has_due(lost));
        let freed: Vec<_> = q.drain(lost).into_iter().map(|(_, c)| c).collect();
        assert_eq!(freed, ['a', 'c', 'd'], "b may still run");
        assert_eq!((q.len(), q.oldest_epoch()), (1, Some(Epoch::new(2))));
        assert!(!q.has_due(Horizon::Completed(Epoch::new(1))));
    }
}
