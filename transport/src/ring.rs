//! The SPSC core: one producer cursor, one consumer cursor, monotonic 64-bit positions.
//!
//! Design decisions:
//! - **Monotonic positions, never wrapped indices.** `head` counts every unit the producer has
//!   published, `tail` every unit the consumer has released, both as `u64` with wrapping
//!   arithmetic: `head - tail` is the occupancy even across `u64::MAX`, full and empty are
//!   never ambiguous (`== capacity` / `== 0`), and a slot index is `position & (capacity - 1)`.
//!   The tests start the counters just below `u64::MAX` to prove the wrap.
//! - **One unit, two rings.** The record ring counts fixed-size slots, the bulk ring counts
//!   bytes; both use these cursors unchanged.
//! - **Each cursor on its own cache line** ([`ProducerLine`], [`ConsumerLine`], `repr(C,
//!   align(64))`), and the [`Watermarks`] (capacity, start, peak occupancy) on a third, so the
//!   two sides never write the same line. Each side also keeps a private copy of the other
//!   side's cursor and rereads the shared one only when the copy says full (producer) or empty
//!   (consumer).
//! - **The peer is not trusted.** A cursor read from shared memory that makes the occupancy
//!   exceed the capacity is reported as [`TransportError::Corrupt`], never used as an index.
//!
//! # The memory-ordering argument (written once, here)
//! - Producer: write the unit(s) (relaxed atomic words, or plain bytes in the bulk ring), then
//!   `head.store(h, Release)` (`ProducerCursor::publish`).
//! - Consumer: `head.load(Acquire)` (`ConsumerCursor::available`) and only then read the
//!   units below it. The Release store and the Acquire load that reads it synchronize, so every
//!   write to a published unit happens-before every read of it: the consumer never sees a
//!   half-written record, however the hardware reorders.
//! - Consumer: finish reading the units, then `tail.store(t, Release)`
//!   (`ConsumerCursor::release`).
//! - Producer: `tail.load(Acquire)` (`ProducerCursor::free`) before overwriting a unit below
//!   `t + capacity`. That pair synchronizes the other way: every read of a released unit
//!   happens-before the write that reuses it, so the producer never overwrites a record the
//!   consumer is still reading.
//! - Each side's own cursor is read back with `Relaxed`: it is the only writer of it.
//! - The watermarks are statistics and configuration: `Relaxed` everywhere; the capacity is
//!   written before the region is shared (a thread spawn or an exec, both of which synchronize).

use crate::error::{Result, TransportError};
use crate::sync::{AtomicU64, Ordering};

/// The producer's cache line: the position it has published up to.
#[repr(C, align(64))]
#[derive(Debug)]
pub struct ProducerLine {
    head: AtomicU64,
}

/// The consumer's cache line: the position it has released up to.
#[repr(C, align(64))]
#[derive(Debug)]
pub struct ConsumerLine {
    tail: AtomicU64,
}

/// The line both sides read and neither writes often: capacity, start position, peak
/// occupancy (the high watermark, written by the producer when it rises).
#[repr(C, align(64))]
#[derive(Debug)]
pub struct Watermarks {
    capacity: AtomicU64,
    start: AtomicU64,
    high: AtomicU64,
}

/// The control block of one ring: three cache lines.
#[repr(C)]
#[derive(Debug)]
pub struct RingControl {
    producer: ProducerLine,
    consumer: ConsumerLine,
    marks: Watermarks,
}

impl RingControl {
    /// A zeroed control block (capacity 0: call [`RingControl::init`]).
    pub fn new() -> Self {
        Self {
            producer: ProducerLine {
                head: AtomicU64::new(0),
            },
            consumer: ConsumerLine {
                tail: AtomicU64::new(0),
            },
            marks: Watermarks {
                capacity: AtomicU64::new(0),
                start: AtomicU64::new(0),
                high: AtomicU64::new(0),
            },
        }
    }

    /// Sets up an empty ring of `capacity` units (a power of two) whose positions start at
    /// `start` (0 in production; near `u64::MAX` in the wrap tests). Call before sharing.
    pub fn init(&self, capacity: u64, start: u64) -> Result<()> {
        if !capacity.is_power_of_two() {
            return Err(TransportError::Layout(format!(
                "capacity {capacity} is not a power of two"
            )));
        }
        self.producer.head.store(start, Ordering::Relaxed);
        self.consumer.tail.store(start, Ordering::Relaxed);
        self.marks.start.store(start, Ordering::Relaxed);
        self.marks.high.store(0, Ordering::Relaxed);
        self.marks.capacity.store(capacity, Ordering::Relaxed);
        Ok(())
    }

    /// The ring's capacity in units, checked to be a power of two.
    pub fn capacity(&self) -> Result<u64> {
        let capacity = self.marks.capacity.load(Ordering::Relaxed);
        if capacity.is_power_of_two() {
            Ok(capacity)
        } else {
            Err(TransportError::Corrupt(
                "ring capacity is not a power of two",
            ))
        }
    }

    /// The highest occupancy the producer has seen (statistics).
    pub fn high_watermark(&self) -> u64 {
        self.marks.high.load(Ordering::Relaxed)
    }
}

impl Default for RingControl {
    fn default() -> Self {
        Self::new()
    }
}

/// The producer's side of the core: its own position and a cached copy of the tail.
#[derive(Debug)]
pub(crate) struct ProducerCursor<'a> {
    ctrl: &'a RingControl,
    capacity: u64,
    head: u64,
    tail_cache: u64,
}

impl<'a> ProducerCursor<'a> {
    pub(crate) fn new(ctrl: &'a RingControl) -> Result<Self> {
        let capacity = ctrl.capacity()?;
        // Relaxed: this side is the only writer of `head`.
        let head = ctrl.producer.head.load(Ordering::Relaxed);
        // Acquire: pairs with the consumer's Release store in `release`.
        let tail_cache = ctrl.consumer.tail.load(Ordering::Acquire);
        let cursor = Self {
            ctrl,
            capacity,
            head,
            tail_cache,
        };
        cursor.check(tail_cache)?;
        Ok(cursor)
    }

    pub(crate) fn capacity(&self) -> u64 {
        self.capacity
    }

    pub(crate) fn high_watermark(&self) -> u64 {
        self.ctrl.high_watermark()
    }

    /// The next position to write.
    pub(crate) fn head(&self) -> u64 {
        self.head
    }

    /// Free units, rereading the consumer's tail only when the cached copy shows fewer than
    /// `want` free.
    pub(crate) fn free(&mut self, want: u64) -> Result<u64> {
        let cached = self.capacity - self.head.wrapping_sub(self.tail_cache);
        if cached >= want {
            return Ok(cached);
        }
        // Acquire: pairs with the consumer's Release in `ConsumerCursor::release`, so its reads
        // of the units below `tail` happen-before we overwrite them.
        let tail = self.ctrl.consumer.tail.load(Ordering::Acquire);
        self.check(tail)?;
        self.tail_cache = tail;
        Ok(self.capacity - self.head.wrapping_sub(tail))
    }

    fn check(&self, tail: u64) -> Result<()> {
        if self.head.wrapping_sub(tail) > self.capacity {
            return Err(TransportError::Corrupt(
                "consumer tail is not within a ring of head",
            ));
        }
        Ok(())
    }

    /// Publishes `n` units written at `head..head + n` (the caller checked they were free).
    pub(crate) fn publish(&mut self, n: u64) {
        self.head = self.head.wrapping_add(n);
        // Release: pairs with the consumer's Acquire in `ConsumerCursor::available`, so the
        // writes of the published units happen-before the consumer reads them.
        self.ctrl.producer.head.store(self.head, Ordering::Release);
        let used = self.head.wrapping_sub(self.tail_cache);
        // Relaxed: statistics only.
        if used > self.ctrl.marks.high.load(Ordering::Relaxed) {
            self.ctrl.marks.high.store(used, Ordering::Relaxed);
        }
    }
}

/// The consumer's side of the core: its own position and a cached copy of the head.
#[derive(Debug)]
pub(crate) struct ConsumerCursor<'a> {
    ctrl: &'a RingControl,
    capacity: u64,
    tail: u64,
    head_cache: u64,
}

impl<'a> ConsumerCursor<'a> {
    pub(crate) fn new(ctrl: &'a RingControl) -> Result<Self> {
        let capacity = ctrl.capacity()?;
        // Relaxed: this side is the only writer of `tail`.
        let tail = ctrl.consumer.tail.load(Ordering::Relaxed);
        Ok(Self {
            ctrl,
            capacity,
            tail,
            head_cache: tail,
        })
    }

    pub(crate) fn capacity(&self) -> u64 {
        self.capacity
    }

    /// The next position to read.
    pub(crate) fn tail(&self) -> u64 {
        self.tail
    }

    /// Published units not yet released, rereading the shared head when the cached copy says
    /// none are.
    pub(crate) fn available(&mut self) -> Result<u64> {
        let cached = self.head_cache.wrapping_sub(self.tail);
        if cached > 0 {
            return Ok(cached);
        }
        self.refresh()
    }

    /// Rereads the shared head.
    pub(crate) fn refresh(&mut self) -> Result<u64> {
        // Acquire: pairs with the producer's Release in `ProducerCursor::publish`, so the
        // writes of every unit below `head` happen-before our reads of them.
        let head = self.ctrl.producer.head.load(Ordering::Acquire);
        let available = head.wrapping_sub(self.tail);
        if available > self.capacity {
            return Err(TransportError::Corrupt(
                "producer head is more than a ring ahead",
            ));
        }
        self.head_cache = head;
        Ok(available)
    }

    /// Releases `n` units the caller has finished reading.
    pub(crate) fn release(&mut self, n: u64) {
        self.tail = self.tail.wrapping_add(n);
        // Release: pairs with the producer's Acquire in `ProducerCursor::free`, so our reads of
        // the released units happen-before it overwrites them.
        self.ctrl.consumer.tail.store(self.tail, Ordering::Release);
    }
}
