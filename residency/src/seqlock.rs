//! A single-writer sequence lock over words of atomic memory: the reader never accepts a torn
//! copy, the writer never waits.
//!
//! Design decisions:
//! - **Everything is atomic, so nothing here is `unsafe`.** The payload is a slice of atomic
//!   64-bit words, written and read with `Relaxed` accesses. A classic seqlock copies the payload
//!   with plain loads and then throws racy copies away, which is a data race (undefined
//!   behaviour) in Rust's memory model even when the copy is discarded; relaxed atomic word
//!   copies cost the same plain `mov`s on x86-64 and AArch64 and are defined.
//! - **Generic over the memory model** ([`Memory`]): the telemetry page instantiates it with
//!   [`StdMemory`] on atomics that live in a shared file mapping, and the loom model
//!   (`tests/loom_seqlock.rs`, `--cfg loom`) instantiates the *same code* with `LoomMemory`.
//!   A `cfg`-switched facade would not do here: the mapping holds `std` atomics whatever the
//!   build, and only the model wants loom's.
//! - **One writer.** Two concurrent writers produce inconsistent snapshots (never undefined
//!   behaviour, since every access is atomic); the telemetry page guarantees one writer per file.
//! - **Bounded reads.** [`SeqLock::read`] gives up after a fixed number of attempts rather than
//!   spinning on a writer that died mid-write (its sequence stays odd forever).
//!
//! # The memory-ordering argument
//! Writer, with the sequence at even `s`:
//! ```text
//! W1  seq.store(s + 1, Relaxed)        // odd: a write is in progress
//! W2  fence(Release)
//! W3  payload[i].store(x_i, Relaxed)   // for every word
//! W4  seq.store(s + 2, Release)        // even again: the write is complete
//! ```
//! Reader:
//! ```text
//! R1  s1 = seq.load(Acquire); retry if s1 is odd
//! R2  y_i = payload[i].load(Relaxed)   // for every word
//! R3  fence(Acquire)
//! R4  s2 = seq.load(Relaxed); accept iff s2 == s1
//! ```
//! - *Not older than `s1`*: R1 reads W4 of the write that produced `s1`, a release store, so that
//!   write's W3 stores happen-before R2, and R2 cannot read any value older than them.
//! - *Not newer than `s1`*: suppose some R2 load read a value stored by W3 of a later write
//!   (whose W1 stored `s1 + 1` or more). W2 is a release fence sequenced before that W3 store and
//!   R3 an acquire fence sequenced after the R2 load that read it, so W2 synchronizes-with R3;
//!   therefore that write's W1 happens-before R4, and by write-read coherence R4 reads `s1 + 1`
//!   or a later value of `seq`: `s2 != s1` and the copy is rejected.
//!
//! So an accepted copy holds exactly the words of the write that ended at `s1`. The sequence is
//! 64-bit and cannot wrap in practice, so there is no ABA.

use std::sync::atomic::Ordering;

/// One 64-bit atomic word as the seqlock uses it.
pub trait AtomicWord: Sync {
    /// An atomic load.
    fn load(&self, order: Ordering) -> u64;
    /// An atomic store.
    fn store(&self, value: u64, order: Ordering);
}

/// The memory model a [`SeqLock`] runs on: its atomic word, fences and spin hint.
pub trait Memory {
    /// The atomic word type.
    type Word: AtomicWord;
    /// A memory fence.
    fn fence(order: Ordering);
    /// Called between read attempts.
    fn spin();
}

/// The real memory model: `std` atomics and fences.
#[derive(Debug)]
pub enum StdMemory {}

impl AtomicWord for std::sync::atomic::AtomicU64 {
    fn load(&self, order: Ordering) -> u64 {
        std::sync::atomic::AtomicU64::load(self, order)
    }
    fn store(&self, value: u64, order: Ordering) {
        std::sync::atomic::AtomicU64::store(self, value, order);
    }
}

impl Memory for StdMemory {
    type Word = std::sync::atomic::AtomicU64;
    fn fence(order: Ordering) {
        std::sync::atomic::fence(order);
    }
    fn spin() {
        std::hint::spin_loop();
    }
}

/// loom's model of the memory model, for `tests/loom_seqlock.rs`.
#[cfg(loom)]
#[derive(Debug)]
pub enum LoomMemory {}

#[cfg(loom)]
impl AtomicWord for loom::sync::atomic::AtomicU64 {
    fn load(&self, order: Ordering) -> u64 {
        loom::sync::atomic::AtomicU64::load(self, order)
    }
    fn store(&self, value: u64, order: Ordering) {
        loom::sync::atomic::AtomicU64::store(self, value, order);
    }
}

#[cfg(loom)]
impl Memory for LoomMemory {
    type Word = loom::sync::atomic::AtomicU64;
    fn fence(order: Ordering) {
        loom::sync::atomic::fence(order);
    }
    fn spin() {
        // loom must be told that this thread waits for another, or it explores the spin forever.
        loom::thread::yield_now();
    }
}

/// A view of a sequence word and a payload of words, wherever they live (a shared file mapping,
/// or a loom model).
pub struct SeqLock<'a, M: Memory> {
    seq: &'a M::Word,
    payload: &'a [M::Word],
}

impl<'a, M: Memory> SeqLock<'a, M> {
    /// A seqlock over `seq` and `payload`. A sequence of 0 means "never written".
    pub fn new(seq: &'a M::Word, payload: &'a [M::Word]) -> Self {
        SeqLock { seq, payload }
    }

    /// The number of payload words.
    pub fn len(&self) -> usize {
        self.payload.len()
    }

    /// Whether the payload is empty.
    pub fn is_empty(&self) -> bool {
        self.payload.is_empty()
    }

    /// Publishes `words` (the first `min(words.len(), self.len())` payload words). Never blocks.
    ///
    /// Only one thread in all processes may write through a given sequence word at a time; the
    /// owner of the memory guarantees that.
    pub fn write(&self, words: &[u64]) {
        // Only the writer changes `seq`, so a relaxed load reads its own last store.
        let start = self.seq.load(Ordering::Relaxed);
        // A writer that died mid-write left the sequence odd; start from the next even value.
        let start = start.wrapping_add(start & 1);
        self.seq.store(start.wrapping_add(1), Ordering::Relaxed); // W1
        M::fence(Ordering::Release); // W2
        for (slot, &word) in self.payload.iter().zip(words) {
            slot.store(word, Ordering::Relaxed); // W3
        }
        self.seq.store(start.wrapping_add(2), Ordering::Release); // W4
    }

    /// Copies a consistent payload into `out` (the first `min(out.len(), self.len())` words) and
    /// returns the sequence it was published at (0: nothing was ever published, `out` holds the
    /// initial words); `None` when `attempts` attempts all met a write in progress.
    pub fn read(&self, out: &mut [u64], attempts: u32) -> Option<u64> {
        for attempt in 0..attempts {
            if attempt > 0 {
                M::spin();
            }
            let s1 = self.seq.load(Ordering::Acquire); // R1
            if s1 & 1 == 1 {
                continue;
            }
            for (word, slot) in out.iter_mut().zip(self.payload) {
                *word = slot.load(Ordering::Relaxed); // R2
            }
            M::fence(Ordering::Acquire); // R3
            let s2 = self.seq.load(Ordering::Relaxed); // R4
            if s1 == s2 {
                return Some(s1);
            }
        }
        None
    }

    /// The current sequence (even: quiescent; odd: a write is in progress).
    pub fn sequence(&self) -> u64 {
        self.seq.load(Ordering::Acquire)
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    fn words<const N: usize>() -> [AtomicU64; N] {
        std::array::from_fn(|_| AtomicU64::new(0))
    }

    #[test]
    fn round_trip_and_sequence() {
        let seq = AtomicU64::new(0);
        let payload = words::<4>();
        let lock = SeqLock::<StdMemory>::new(&seq, &payload);
        let mut out = [9u64; 4];
        assert_eq!(lock.read(&mut out, 1), Some(0));
        assert_eq!(out, [0; 4]);
        lock.write(&[1, 2, 3, 4]);
        lock.write(&[5, 6, 7, 8]);
        assert_eq!(lock.read(&mut out, 1), Some(4));
        assert_eq!(out, [5, 6, 7, 8]);
    }

    #[test]
    fn a_write_in_progress_is_never_accepted() {
        let seq = AtomicU64::new(3); // a writer died mid-write
        let payload = words::<2>();
        let lock = SeqLock::<StdMemory>::new(&seq, &payload);
        let mut out = [0u64; 2];
        assert_eq!(lock.read(&mut out, 5), None);
        // The next writer recovers to an even sequence.
        lock.write(&[1, 1]);
        assert_eq!(lock.read(&mut out, 1), Some(6));
    }
}
