//! CPU per-frame scratch memory: one `bumpalo::Bump` per frame slot.
//!
//! Design decisions:
//! - A slot's scratch is reset when that frame slot is begun again — call
//!   [`FrameScratch::begin_frame`] with the slot of [`crate::Rewind::slot`]. Data allocated while
//!   recording a frame therefore lives until the device has finished that frame, so per-frame
//!   objects that must outlive the submission (readback descriptions, deferred callbacks) can
//!   live here as well as temporaries (command encoding, conversions).
//! - The borrow checker enforces the reset rule: [`FrameScratch::bump`] lends `&Bump` from
//!   `&self`, and resetting needs `&mut self`, so no scratch reference survives its frame.
//! - `Bump::reset` keeps the largest chunk, so once a slot has seen its peak frame, scratch
//!   allocation makes no heap allocation at all.
//! - Statistics: bytes used by each frame (measured exactly at reset, from the allocated chunks)
//!   and bytes reserved from the heap.

use std::num::NonZeroUsize;

use bumpalo::Bump;

use crate::error::StagingError;

/// Scratch counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ScratchStats {
    /// Resets performed.
    pub resets: u64,
    /// Bytes the last reset frame had used.
    pub last_frame_bytes: u64,
    /// Largest number of bytes one frame has used.
    pub peak_frame_bytes: u64,
}

/// One bump arena per frame slot.
#[derive(Debug)]
pub struct FrameScratch {
    slots: Vec<Bump>,
    current: usize,
    stats: ScratchStats,
}

impl FrameScratch {
    /// `slots` empty arenas (use the arenas' slot count); slot 0 is current.
    pub fn new(slots: NonZeroUsize) -> Self {
        Self::with_capacity(slots, 0)
    }

    /// `slots` arenas with `bytes` reserved in each up front.
    pub fn with_capacity(slots: NonZeroUsize, bytes: usize) -> Self {
        Self {
            slots: (0..slots.get())
                .map(|_| Bump::with_capacity(bytes))
                .collect(),
            current: 0,
            stats: ScratchStats::default(),
        }
    }

    /// Makes `slot` current and resets its arena.
    ///
    /// # Errors
    /// [`StagingError::Internal`] when `slot` is not one of this scratch's slots.
    pub fn begin_frame(&mut self, slot: usize) -> Result<(), StagingError> {
        let bump = self
            .slots
            .get_mut(slot)
            .ok_or(StagingError::Internal("scratch slot out of range"))?;
        let used: usize = bump.iter_allocated_chunks().map(<[_]>::len).sum();
        bump.reset();
        self.current = slot;
        let stats = &mut self.stats;
        stats.resets += 1;
        stats.last_frame_bytes = used as u64;
        stats.peak_frame_bytes = stats.peak_frame_bytes.max(used as u64);
        Ok(())
    }

    /// The current slot's arena.
    pub fn bump(&self) -> &Bump {
        // `current` is always an index given to `begin_frame` (checked) or 0 (`slots` ≥ 1).
        &self.slots[self.current]
    }

    /// The current slot.
    pub const fn current_slot(&self) -> usize {
        self.current
    }

    /// Bytes used so far in the current frame (exact; needs `&mut` to walk the chunks).
    pub fn used_bytes(&mut self) -> u64 {
        self.slots.get_mut(self.current).map_or(0, |b| {
            b.iter_allocated_chunks().map(<[_]>::len).sum::<usize>() as u64
        })
    }

    /// Bytes reserved from the heap by all slots.
    pub fn reserved_bytes(&self) -> u64 {
        self.slots.iter().map(|b| b.allocated_bytes() as u64).sum()
    }

    /// The counters.
    pub const fn stats(&self) -> &ScratchStats {
        &self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two() -> NonZeroUsize {
        NonZeroUsize::MIN.saturating_add(1)
    }

    #[test]
    fn reset_measures_the_frame_and_reuses_memory() -> Result<(), StagingError> {
        let mut scratch = FrameScratch::new(two());
        let mut reserved_after_warmup = 0;
        for frame in 0..20usize {
            let slot = frame % 2;
            scratch.begin_frame(slot)?;
            let bump = scratch.bump();
            for i in 0..1000u32 {
                bump.alloc(i);
            }
            assert_eq!(scratch.used_bytes(), 4000);
            if frame == 4 {
                reserved_after_warmup = scratch.reserved_bytes();
            }
            if frame > 4 {
                assert_eq!(scratch.reserved_bytes(), reserved_after_warmup);
            }
        }
        assert_eq!(scratch.stats().resets, 20);
        // The first reset of each slot measured an empty frame.
        assert_eq!(scratch.stats().last_frame_bytes, 4000);
        assert_eq!(scratch.stats().peak_frame_bytes, 4000);
        Ok(())
    }

    #[test]
    fn slots_keep_their_data_until_their_own_reset() -> Result<(), StagingError> {
        let mut scratch = FrameScratch::new(two());
        scratch.begin_frame(0)?;
        scratch.bump().alloc_slice_copy(&[1u8; 100]);
        scratch.begin_frame(1)?;
        scratch.bump().alloc_slice_copy(&[2u8; 10]);
        assert_eq!(scratch.used_bytes(), 10);
        // Slot 0's frame is measured only when slot 0 comes round again.
        scratch.begin_frame(0)?;
        assert_eq!(scratch.stats().last_frame_bytes, 100);
        assert_eq!(
            scratch.begin_frame(2),
            Err(StagingError::Internal("scratch slot out of range"))
        );
        Ok(())
    }
}
