//! ArenaGL's split transport: the shared-memory rings and doorbells that join a GL frontend
//! (client) to a Vulkan backend (server), in one process (a server thread) or in two.
//!
//! The crate is pure plumbing: no GL, no Vulkan. `docs/split.md` has the design; in short:
//! - [`ring`]: the SPSC core (monotonic 64-bit cursors on their own cache lines, the one
//!   memory-ordering argument);
//! - [`record`]: fixed-size records with a size-checked tail (commands, replies, events);
//! - [`bulk`]: the bulk byte ring for uploads, referred to by [`Span`]s;
//! - [`event`]: server → client events;
//! - [`doorbell`]: spin, then park (futex in one process, eventfd + liveness socket between
//!   two), with no lost wake-up and no unbounded wait;
//! - [`region`]: the memory (heap or memfd) the layout places everything into;
//! - [`segment`]: the layout and the two endpoints, [`Client`] and [`Server`];
//! - [`process`]: handing a segment to a child process.
//!
//! Design decisions:
//! - **Pure and separate.** The transport knows nothing of GL or Vulkan, so it is tested on its
//!   own (unit tests, a proptest state machine, loom models, a child-process test) before any
//!   GL call is routed through it.
//! - **The same code in both modes.** Rings are laid out in a plain region of memory; only the
//!   region's backing (heap or memfd) and the doorbell's signal (futex or eventfd) differ
//!   between a server thread and a server process.
//! - **Single producer, single consumer per ring**, so no ring needs a lock or a compare-exchange
//!   loop; each endpoint owns one half of each ring.
//! - **Bounded everything**: fixed-size records, bounded waits, checked lengths and positions:
//!   the receiving side is a trust boundary.
//! - Under `--cfg loom` only the rings, records and doorbell are built (over loom's atomics);
//!   `tests/loom_transport.rs` models them.

#![deny(clippy::unwrap_used)]

pub mod bulk;
pub mod doorbell;
pub mod error;
pub mod event;
#[cfg(not(loom))]
pub mod process;
pub mod record;
#[cfg(not(loom))]
pub mod region;
pub mod ring;
#[cfg(not(loom))]
pub mod segment;
mod sync;

pub use bulk::{BulkConsumer, BulkProducer, Span};
pub use doorbell::{Doorbell, EventFds, ProcessLink, SideLine, Signal};
pub use error::{Result, TransportError};
pub use event::Event;
pub use record::{Record, RecordConsumer, RecordProducer, MAX_PAYLOAD_WORDS, RECORD_WORDS};
#[cfg(not(loom))]
pub use region::Region;
pub use ring::RingControl;
#[cfg(not(loom))]
pub use segment::{Client, Config, Server};
