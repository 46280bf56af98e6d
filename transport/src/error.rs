//! The crate's one error type.
//!
//! Design decisions:
//! - **One enum for every layer.** Rings, doorbells, the region and the endpoints all return
//!   [`TransportError`], so a caller matches once: `Full`/`Timeout` are back-pressure and may be
//!   retried, `PeerGone` ends the connection, and the decoding errors (`TornRecord`, `Oversize`,
//!   `BadSpan`, `Corrupt`, `UnknownOpcode`) mean the peer broke the protocol: the receiving side
//!   is a trust boundary and ends that peer instead of reading further.
//! - **Decoding errors carry the ring position**, so a log line says which record was bad.

use std::time::Duration;

/// Everything that can go wrong in the transport.
#[derive(Debug, thiserror::Error)]
pub enum TransportError {
    /// The ring stayed full for the whole bounded wait; nothing was overwritten.
    #[error("ring full for {waited:?}: the consumer is not draining")]
    Full {
        /// How long the producer waited for space.
        waited: Duration,
    },
    /// A wait for data (a reply, a record, an event) ran out of time.
    #[error("timed out after {0:?}")]
    Timeout(Duration),
    /// The other side closed its endpoint, exited or was killed.
    #[error("the peer is gone")]
    PeerGone,
    /// A record whose header and tail disagree: written half, from an older lap, or forged.
    #[error("torn record at position {pos}")]
    TornRecord {
        /// The record's ring position.
        pos: u64,
    },
    /// A record longer than a slot's payload (`pos` is `None` when the producer refused it).
    #[error("oversize record at {pos:?}: {words} payload words, at most {max}")]
    Oversize {
        /// The ring position, when the consumer found it.
        pos: Option<u64>,
        /// The length the record claims, in 8-byte words (bytes for a bulk write).
        words: usize,
        /// The most a record (or a bulk chunk) may hold.
        max: usize,
    },
    /// A command referred to a bulk span that is not the committed one.
    #[error("bad bulk span at {pos} (len {len}, seq {seq}): {reason}")]
    BadSpan {
        /// The span's ring position.
        pos: u64,
        /// Its length in bytes.
        len: u32,
        /// Its sequence number.
        seq: u32,
        /// What did not match.
        reason: &'static str,
    },
    /// A cursor in shared memory holds an impossible value (the peer wrote garbage).
    #[error("corrupt ring state: {0}")]
    Corrupt(&'static str),
    /// A record with an opcode the decoder does not know, or the wrong length for it.
    #[error("unknown or malformed opcode {opcode:#06x}")]
    UnknownOpcode {
        /// The opcode found.
        opcode: u16,
    },
    /// The shared region or a layout in it does not fit (size, alignment, magic, version).
    #[error("layout: {0}")]
    Layout(String),
    /// A system call failed (memfd, mmap, eventfd, poll, futex).
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
}

/// The crate's result type.
pub type Result<T, E = TransportError> = std::result::Result<T, E>;
