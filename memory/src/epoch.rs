//! Epochs and the epoch clock.
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
//! pairs with the Acquire load in [`completed`](EpochClock::completed), which the retire queue's
//! drain ([`crate::retire::Deferred::drain`]) makes before it inspects the queue: whoever sees
//! completion also sees everything the GPU side published before it. The retire queue itself
//! is in `retire.rs`; the loom model in `stress/tests/loom_retire.rs` checks both.

#![deny(clippy::unwrap_used)]

use crate::sync::{AtomicU64, Ordering};
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

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

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
