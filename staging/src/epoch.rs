//! [`Epoch`]: the sequence number of a submission, one type for every crate that keeps them.
//!
//! Each submission through the memory manager signals the next value of one timeline
//! semaphore; that value is the submission's epoch. Epochs are compared (has this one
//! completed?), stepped (the one being recorded is the submitted one's [`Epoch::next`]) and
//! stored as use stamps, never added together or scaled, so the type offers exactly that and
//! nothing that would let an epoch pass for a byte count or an index. The raw number comes out
//! only where it crosses a boundary that wants one: the Vulkan semaphore, an atomic counter,
//! telemetry and logs ([`Epoch::get`]).
//!
//! Epoch 0 ([`Epoch::ZERO`]) is "before the first submission": an object stamped with it was
//! never used by the device, and it counts as completed from the start.

use std::fmt;

/// A submission's sequence number on the manager's timeline (see the module documentation).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Epoch(u64);

impl Epoch {
    /// Before the first submission: never used by the device, always complete.
    pub const ZERO: Epoch = Epoch(0);
    /// The largest representable epoch (a bound for "everything", never a real submission).
    pub const MAX: Epoch = Epoch(u64::MAX);

    /// The epoch with raw value `raw` (a timeline semaphore's counter, a stored atomic).
    pub const fn new(raw: u64) -> Self {
        Epoch(raw)
    }

    /// The raw value, for the places that need a number: the timeline semaphore, atomics,
    /// telemetry and logs.
    pub const fn get(self) -> u64 {
        self.0
    }

    /// The epoch after this one. Saturates at [`Epoch::MAX`], which no timeline reaches.
    #[must_use]
    pub const fn next(self) -> Self {
        Epoch(self.0.saturating_add(1))
    }

    /// The epoch `n` submissions earlier, or [`Epoch::ZERO`] if there were not that many.
    #[must_use]
    pub const fn saturating_sub(self, n: u64) -> Self {
        Epoch(self.0.saturating_sub(n))
    }

    /// How many epochs come after `earlier` up to and including this one (0 when `earlier` is
    /// not before this one): the number of submissions in flight between a completed and a
    /// submitted epoch.
    pub const fn since(self, earlier: Epoch) -> u64 {
        self.0.saturating_sub(earlier.0)
    }
}

/// The raw number, so that messages read "epoch 7".
impl fmt::Display for Epoch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_saturate_at_both_ends() {
        assert_eq!(Epoch::ZERO.next(), Epoch::new(1));
        assert_eq!(Epoch::MAX.next(), Epoch::MAX);
        assert_eq!(Epoch::new(5).saturating_sub(2), Epoch::new(3));
        assert_eq!(Epoch::new(1).saturating_sub(2), Epoch::ZERO);
        assert_eq!(Epoch::new(7).since(Epoch::new(4)), 3);
        assert_eq!(Epoch::new(4).since(Epoch::new(7)), 0);
        assert_eq!(Epoch::default(), Epoch::ZERO);
        assert_eq!(Epoch::new(9).get(), 9);
        assert_eq!(Epoch::new(9).to_string(), "9");
        assert!(Epoch::ZERO < Epoch::new(1));
    }
}
