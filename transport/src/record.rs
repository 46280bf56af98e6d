//! Fixed-size POD records and the ring of slots that carries them (commands, replies, events).
//!
//! Design decisions:
//! - **One slot = [`RECORD_WORDS`] 64-bit words (128 bytes, two cache lines).** Word 0 is the
//!   header, words `1..=len` the payload (at most [`MAX_PAYLOAD_WORDS`]), the last word the
//!   tail. A fixed slot means the consumer finds record `n` by arithmetic and can never be led
//!   past a slot by a length field; payloads that do not fit go to the bulk ring.
//! - **Header word:** `opcode: u16 | flags: u16 << 16 | len_words: u16 << 32 | pos: u16 << 48`
//!   (the low 16 bits of the record's ring position).
//! - **Size-checked tail:** the last word is [`tail_check`]`(header, pos)`, a function of the
//!   whole header and the full 64-bit position. The consumer checks the length against the
//!   maximum before it reads any payload word ([`TransportError::Oversize`]), then the tail
//!   ([`TransportError::TornRecord`]): a record written half, left from an older lap of the
//!   ring, or forged is reported, never decoded. A bad record is not consumed, so the consumer
//!   keeps returning the same error (the endpoint is expected to end the peer).
//! - **Every word is an atomic accessed `Relaxed`.** Publication is ordered by the cursors
//!   (`ring.rs`); making the words atomic costs nothing on x86-64 and AArch64 and means a
//!   hostile or crashed peer scribbling on a slot is a wrong value, never a data race, and lets
//!   loom see a missing Release as a stale payload.

use crate::error::{Result, TransportError};
use crate::ring::{ConsumerCursor, ProducerCursor, RingControl};
use crate::sync::{AtomicU64, Ordering};

/// Words per slot.
pub const RECORD_WORDS: usize = 16;
/// Bytes per slot.
pub const RECORD_BYTES: usize = RECORD_WORDS * 8;
/// The most payload words a record holds (the slot less header and tail).
pub const MAX_PAYLOAD_WORDS: usize = RECORD_WORDS - 2;

const TAIL_MAGIC: u64 = 0xA7E4_A61C_7A11_5EA1;

/// The tail word a record at `pos` with `header` must end with.
pub fn tail_check(header: u64, pos: u64) -> u64 {
    (header ^ TAIL_MAGIC).rotate_left(23) ^ pos.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// One record: an opcode, flags and up to [`MAX_PAYLOAD_WORDS`] payload words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// What the record means (the encoder's opcode table; events use `0x8000..`).
    pub opcode: u16,
    /// Opcode-specific flags.
    pub flags: u16,
    len: u16,
    payload: [u64; MAX_PAYLOAD_WORDS],
}

impl Record {
    /// A record, or [`TransportError::Oversize`] when the payload does not fit a slot.
    pub fn new(opcode: u16, flags: u16, payload: &[u64]) -> Result<Self> {
        if payload.len() > MAX_PAYLOAD_WORDS {
            return Err(TransportError::Oversize {
                pos: None,
                words: payload.len(),
                max: MAX_PAYLOAD_WORDS,
            });
        }
        let mut words = [0; MAX_PAYLOAD_WORDS];
        words[..payload.len()].copy_from_slice(payload);
        Ok(Self {
            opcode,
            flags,
            len: payload.len() as u16,
            payload: words,
        })
    }

    /// The payload words.
    pub fn payload(&self) -> &[u64] {
        &self.payload[..usize::from(self.len)]
    }

    fn header(&self, pos: u64) -> u64 {
        u64::from(self.opcode)
            | u64::from(self.flags) << 16
            | u64::from(self.len) << 32
            | (pos & 0xFFFF) << 48
    }
}

/// The ring's slots: `capacity * RECORD_WORDS` words.
fn check_slots(capacity: u64, slots: &[AtomicU64]) -> Result<()> {
    if Some(slots.len() as u64) != capacity.checked_mul(RECORD_WORDS as u64) {
        return Err(TransportError::Layout(format!(
            "{} slot words for a ring of {capacity} records",
            slots.len()
        )));
    }
    Ok(())
}

/// The producing half of a record ring.
#[derive(Debug)]
pub struct RecordProducer<'a> {
    cursor: ProducerCursor<'a>,
    slots: &'a [AtomicU64],
}

impl<'a> RecordProducer<'a> {
    /// The producer over an initialised control block and its slots. Only one may exist per
    /// ring (single producer).
    pub fn new(ctrl: &'a RingControl, slots: &'a [AtomicU64]) -> Result<Self> {
        let cursor = ProducerCursor::new(ctrl)?;
        check_slots(cursor.capacity(), slots)?;
        Ok(Self { cursor, slots })
    }

    /// The ring's capacity in records.
    pub fn capacity(&self) -> u64 {
        self.cursor.capacity()
    }

    /// The ring's peak occupancy so far.
    pub fn high_watermark(&self) -> u64 {
        self.cursor.high_watermark()
    }

    /// Whether at least one slot is free.
    pub fn has_space(&mut self) -> Result<bool> {
        Ok(self.cursor.free(1)? > 0)
    }

    /// Writes and publishes `record`; `Ok(false)` when the ring is full (nothing written).
    pub fn try_push(&mut self, record: &Record) -> Result<bool> {
        if !self.has_space()? {
            return Ok(false);
        }
        let pos = self.cursor.head();
        let slot = self.slot(pos);
        let header = record.header(pos);
        // Relaxed: ordered by the Release store of `head` in `publish`.
        slot[0].store(header, Ordering::Relaxed);
        for (word, value) in slot[1..].iter().zip(record.payload()) {
            word.store(*value, Ordering::Relaxed);
        }
        slot[RECORD_WORDS - 1].store(tail_check(header, pos), Ordering::Relaxed);
        self.cursor.publish(1);
        Ok(true)
    }

    fn slot(&self, pos: u64) -> &'a [AtomicU64] {
        let index = (pos & (self.cursor.capacity() - 1)) as usize * RECORD_WORDS;
        &self.slots[index..index + RECORD_WORDS]
    }
}

/// The consuming half of a record ring.
#[derive(Debug)]
pub struct RecordConsumer<'a> {
    cursor: ConsumerCursor<'a>,
    slots: &'a [AtomicU64],
}

impl<'a> RecordConsumer<'a> {
    /// The consumer over an initialised control block and its slots. Only one may exist per
    /// ring (single consumer).
    pub fn new(ctrl: &'a RingControl, slots: &'a [AtomicU64]) -> Result<Self> {
        let cursor = ConsumerCursor::new(ctrl)?;
        check_slots(cursor.capacity(), slots)?;
        Ok(Self { cursor, slots })
    }

    /// Records published and not yet consumed.
    pub fn available(&mut self) -> Result<u64> {
        self.cursor.available()
    }

    /// The next record, `Ok(None)` when the ring is empty, or the reason it cannot be decoded
    /// (the record then stays where it is).
    pub fn try_pop(&mut self) -> Result<Option<Record>> {
        if self.cursor.available()? == 0 {
            return Ok(None);
        }
        let record = self.read(self.cursor.tail())?;
        self.cursor.release(1);
        Ok(Some(record))
    }

    fn read(&self, pos: u64) -> Result<Record> {
        let index = (pos & (self.cursor.capacity() - 1)) as usize * RECORD_WORDS;
        let slot = &self.slots[index..index + RECORD_WORDS];
        // Relaxed: ordered by the Acquire load of `head` in `available`.
        let header = slot[0].load(Ordering::Relaxed);
        let len = ((header >> 32) & 0xFFFF) as usize;
        if len > MAX_PAYLOAD_WORDS {
            return Err(TransportError::Oversize {
                pos: Some(pos),
                words: len,
                max: MAX_PAYLOAD_WORDS,
            });
        }
        let tail = slot[RECORD_WORDS - 1].load(Ordering::Relaxed);
        if header >> 48 != pos & 0xFFFF || tail != tail_check(header, pos) {
            return Err(TransportError::TornRecord { pos });
        }
        let mut payload = [0; MAX_PAYLOAD_WORDS];
        for (value, word) in payload.iter_mut().zip(&slot[1..=len]) {
            *value = word.load(Ordering::Relaxed);
        }
        Ok(Record {
            opcode: header as u16,
            flags: (header >> 16) as u16,
            len: len as u16,
            payload,
        })
    }
}
