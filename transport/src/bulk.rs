//! The bulk byte ring: upload data too large for a record, referred to by [`Span`]s.
//!
//! Design decisions:
//! - **Same cursors as the record ring, counted in bytes** (`ring.rs`, and its ordering
//!   argument: the producer copies bytes then publishes `head` with Release; the consumer
//!   Acquires `head` before it reads).
//! - **Chunks are contiguous.** Each chunk is an 8-byte chunk header (`len: u32 | seq: u31 << 32`)
//!   followed by its bytes, padded to 8. A chunk that would cross the end of the ring is placed
//!   at the start instead and the rest of the ring gets a *padding marker* (a chunk header with
//!   bit 63 set) so a sequential reader knows to skip to the start. The padding is published
//!   together with the chunk and released with it.
//! - **Largest chunk: half the ring** ([`BulkProducer::max_chunk`]). A chunk of at most half
//!   the ring always fits an empty ring, whatever the offset, with its padding (if the chunk
//!   does not fit before the end, the offset is more than half the ring, so the padding plus
//!   the chunk is at most the ring). Larger uploads are split by the caller
//!   (`Client::write_bulk_chunked`), one command per chunk.
//! - **A command refers to a chunk by `(pos, len, seq)`** ([`Span`]). The consumer checks that
//!   the span lies in the committed, unreleased part of the ring, does not cross its end, and
//!   that the chunk header there carries the same length and sequence number
//!   ([`BulkConsumer::check`]): a stale, forged or already released span is
//!   [`TransportError::BadSpan`], never a read of someone else's bytes.
//! - **Release is in order.** Releasing a span releases everything before it (padding
//!   included), which is what a consumer that executes commands in order wants.
//! - **Bytes are plain memory.** Uploads are large, so they are copied with `memcpy`, not word
//!   by word. In one process the protocol makes every access exclusive; between processes a
//!   hostile peer may still rewrite bytes it already committed, which can only change the data
//!   the server uploads, never what the server reads outside the span.

use std::ptr::NonNull;

use crate::error::{Result, TransportError};
use crate::ring::{ConsumerCursor, ProducerCursor, RingControl};

const CHUNK_HEADER: u64 = 8;
const PAD_FLAG: u64 = 1 << 63;
const SEQ_MASK: u32 = 0x7FFF_FFFF;

/// A committed bulk chunk: its ring position, its length in bytes and its sequence number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// The ring position of the chunk header.
    pub pos: u64,
    /// Bytes of data.
    pub len: u32,
    /// The chunk's sequence number (31 bits, wrapping).
    pub seq: u32,
}

impl Span {
    /// The span as two record payload words.
    pub fn to_words(self) -> [u64; 2] {
        [self.pos, u64::from(self.len) | u64::from(self.seq) << 32]
    }

    /// The span back from two record payload words.
    pub fn from_words(words: [u64; 2]) -> Self {
        Self {
            pos: words[0],
            len: words[1] as u32,
            seq: (words[1] >> 32) as u32,
        }
    }

    /// Header plus data, rounded up to 8 bytes.
    fn footprint(self) -> u64 {
        footprint(u64::from(self.len))
    }

    fn header(self) -> u64 {
        u64::from(self.len) | u64::from(self.seq) << 32
    }

    fn bad(self, reason: &'static str) -> TransportError {
        TransportError::BadSpan {
            pos: self.pos,
            len: self.len,
            seq: self.seq,
            reason,
        }
    }
}

fn footprint(len: u64) -> u64 {
    CHUNK_HEADER + len.div_ceil(8) * 8
}

/// The ring's data bytes, shared by both halves.
#[derive(Debug, Clone, Copy)]
struct Bytes {
    data: NonNull<u8>,
    capacity: u64,
}

impl Bytes {
    fn offset(&self, pos: u64) -> usize {
        (pos & (self.capacity - 1)) as usize
    }

    fn read_word(&self, pos: u64) -> u64 {
        let mut word = [0u8; 8];
        // SAFETY: `offset(pos)` is 8-aligned (every chunk and padding starts on 8) and below
        // the capacity, which is a multiple of 8, so the 8 bytes lie inside the ring, which
        // `BulkProducer::new`/`BulkConsumer::new`'s contract keeps valid for reads.
        unsafe {
            let src = self.data.as_ptr().add(self.offset(pos));
            std::ptr::copy_nonoverlapping(src, word.as_mut_ptr(), 8);
        }
        u64::from_le_bytes(word)
    }

    /// # Safety
    /// `pos..pos + bytes.len()` must not cross the ring's end and must be reserved by the
    /// producer (not published, so no reader looks at it).
    unsafe fn write(&self, pos: u64, bytes: &[u8]) {
        // SAFETY: the caller guarantees the range is inside the ring and exclusively ours.
        unsafe {
            let dst = self.data.as_ptr().add(self.offset(pos));
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), dst, bytes.len());
        }
    }
}

fn check_capacity(capacity: u64, len: usize, position: u64) -> Result<()> {
    if position % 8 != 0 {
        return Err(TransportError::Layout(format!(
            "bulk position {position} is not 8-aligned"
        )));
    }
    if capacity != len as u64 || capacity < 64 {
        return Err(TransportError::Layout(format!(
            "bulk ring of {len} bytes for a capacity of {capacity} (at least 64)"
        )));
    }
    Ok(())
}

/// The producing half of the bulk ring.
#[derive(Debug)]
pub struct BulkProducer<'a> {
    cursor: ProducerCursor<'a>,
    bytes: Bytes,
    seq: u32,
}

// SAFETY: the raw pointer refers to shared-ring memory valid for 'a (the constructor's
// contract), and this half is the ring's only producer; moving it to another thread moves that
// exclusive role with it.
unsafe impl Send for BulkProducer<'_> {}

impl<'a> BulkProducer<'a> {
    /// The producer over an initialised control block (capacity in bytes) and its data.
    ///
    /// # Safety
    /// `data` must be valid for reads and writes of `len` bytes for `'a`, 8-aligned, used by
    /// no one but this ring's one producer and one consumer, and no other `BulkProducer` may
    /// exist for this ring.
    pub unsafe fn new(ctrl: &'a RingControl, data: NonNull<u8>, len: usize) -> Result<Self> {
        let cursor = ProducerCursor::new(ctrl)?;
        check_capacity(cursor.capacity(), len, cursor.head())?;
        let bytes = Bytes {
            data,
            capacity: cursor.capacity(),
        };
        Ok(Self {
            cursor,
            bytes,
            seq: 0,
        })
    }

    /// The largest chunk one write may carry: half the ring less the chunk header.
    pub fn max_chunk(&self) -> usize {
        (self.cursor.capacity() / 2 - CHUNK_HEADER) as usize
    }

    /// Whether a write of `len` bytes would fit now.
    pub fn fits(&mut self, len: usize) -> Result<bool> {
        let (pad, total) = self.placement(len as u64);
        Ok(self.cursor.free(pad + total)? >= pad + total)
    }

    /// Copies `bytes` into the ring as one chunk and commits it; `Ok(None)` when there is not
    /// room yet, [`TransportError::Oversize`] when it is larger than [`Self::max_chunk`].
    pub fn try_write(&mut self, bytes: &[u8]) -> Result<Option<Span>> {
        if bytes.len() > self.max_chunk() {
            return Err(TransportError::Oversize {
                pos: None,
                words: bytes.len(),
                max: self.max_chunk(),
            });
        }
        if !self.fits(bytes.len())? {
            return Ok(None);
        }
        let (pad, _) = self.placement(bytes.len() as u64);
        let head = self.cursor.head();
        if pad > 0 {
            // SAFETY: the padding marker's 8 bytes start at an 8-aligned offset below the end
            // (pad >= 8) and lie in the free space `fits` checked, unpublished.
            unsafe { self.bytes.write(head, &(PAD_FLAG | pad).to_le_bytes()) };
        }
        let span = Span {
            pos: head.wrapping_add(pad),
            len: bytes.len() as u32,
            seq: self.seq,
        };
        // SAFETY: `placement` put the chunk where it does not cross the end, in the free space
        // `fits` checked, unpublished until `publish` below.
        unsafe {
            self.bytes.write(span.pos, &span.header().to_le_bytes());
            self.bytes.write(span.pos.wrapping_add(CHUNK_HEADER), bytes);
        }
        self.seq = self.seq.wrapping_add(1) & SEQ_MASK;
        self.cursor.publish(pad + span.footprint());
        Ok(Some(span))
    }

    /// `(padding, chunk footprint)` for a chunk of `len` bytes at the current head.
    fn placement(&self, len: u64) -> (u64, u64) {
        let total = footprint(len);
        let offset = self.bytes.offset(self.cursor.head()) as u64;
        let room = self.cursor.capacity() - offset;
        let pad = if total > room { room } else { 0 };
        (pad, total)
    }
}

/// The consuming half of the bulk ring.
#[derive(Debug)]
pub struct BulkConsumer<'a> {
    cursor: ConsumerCursor<'a>,
    bytes: Bytes,
    next: u64,
}

// SAFETY: as for `BulkProducer`: the pointer is valid for 'a and this is the ring's only
// consumer.
unsafe impl Send for BulkConsumer<'_> {}

impl<'a> BulkConsumer<'a> {
    /// The consumer over an initialised control block (capacity in bytes) and its data.
    ///
    /// # Safety
    /// As for [`BulkProducer::new`], with "consumer" for "producer".
    pub unsafe fn new(ctrl: &'a RingControl, data: NonNull<u8>, len: usize) -> Result<Self> {
        let cursor = ConsumerCursor::new(ctrl)?;
        check_capacity(cursor.capacity(), len, cursor.tail())?;
        let bytes = Bytes {
            data,
            capacity: cursor.capacity(),
        };
        let next = cursor.tail();
        Ok(Self {
            cursor,
            bytes,
            next,
        })
    }

    /// Checks that `span` is a committed, unreleased chunk with that length and sequence.
    pub fn check(&mut self, span: Span) -> Result<()> {
        let from_tail = span.pos.wrapping_sub(self.cursor.tail());
        let end = from_tail.checked_add(span.footprint());
        let committed = self.cursor.refresh()?;
        if end.is_none_or(|end| end > committed) {
            return Err(span.bad("not committed, or already released"));
        }
        if self.bytes.offset(span.pos) as u64 + span.footprint() > self.cursor.capacity() {
            return Err(span.bad("crosses the end of the ring"));
        }
        if self.bytes.read_word(span.pos) != span.header() {
            return Err(span.bad("chunk header does not match"));
        }
        Ok(())
    }

    /// The bytes of a checked span, borrowed until the next `&mut` call (so never across a
    /// release).
    pub fn read(&mut self, span: Span) -> Result<&[u8]> {
        self.check(span)?;
        let offset = self.bytes.offset(span.pos.wrapping_add(CHUNK_HEADER));
        // SAFETY: `check` proved the chunk lies inside the ring without crossing its end and
        // below the published head (the producer's Release / our Acquire order its bytes before
        // this read), and it is not released, so the producer will not write it while the
        // borrow of `self` lasts.
        Ok(unsafe {
            std::slice::from_raw_parts(self.bytes.data.as_ptr().add(offset), span.len as usize)
        })
    }

    /// Releases `span` and every byte before it (in-order release).
    pub fn release(&mut self, span: Span) -> Result<()> {
        self.check(span)?;
        let end = span.pos.wrapping_add(span.footprint());
        self.cursor.release(end.wrapping_sub(self.cursor.tail()));
        if self.next.wrapping_sub(self.cursor.tail()) > self.cursor.capacity() {
            self.next = self.cursor.tail();
        }
        Ok(())
    }

    /// Sequential reading: the next committed chunk after the last one returned, skipping
    /// padding markers; `Ok(None)` when there is none yet.
    pub fn next_span(&mut self) -> Result<Option<Span>> {
        loop {
            let committed = self.cursor.refresh()?;
            let from_tail = self.next.wrapping_sub(self.cursor.tail());
            if from_tail >= committed {
                return Ok(None);
            }
            let word = self.bytes.read_word(self.next);
            if word & PAD_FLAG != 0 {
                self.next = self.skip_padding(word, committed - from_tail)?;
                continue;
            }
            let span = Span {
                pos: self.next,
                len: word as u32,
                seq: (word >> 32) as u32,
            };
            self.check(span)?;
            self.next = self.next.wrapping_add(span.footprint());
            return Ok(Some(span));
        }
    }

    fn skip_padding(&self, word: u64, left: u64) -> Result<u64> {
        let pad = word & !PAD_FLAG;
        let to_end = self.cursor.capacity() - self.bytes.offset(self.next) as u64;
        if pad != to_end || pad > left {
            return Err(TransportError::Corrupt(
                "padding marker does not reach the ring's end",
            ));
        }
        Ok(self.next.wrapping_add(pad))
    }
}
