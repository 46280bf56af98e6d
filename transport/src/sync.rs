//! The one place that chooses between `loom` and `std` atomics.
//!
//! Design decisions:
//! - **A `cfg` facade, not a generic memory model.** Under `--cfg loom` the rings and the
//!   doorbell are built over loom's atomics in ordinary heap memory, so the models in
//!   `tests/loom_transport.rs` run exactly the code that ships; the shared region (which holds
//!   real `std` atomics placed in a mapping) is not compiled under loom at all.
//! - **Spinning yields under loom.** A spin loop that never yields makes loom explore forever.

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicU32, AtomicU64, Ordering};
#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// One step of a busy wait.
pub(crate) fn spin_hint() {
    #[cfg(loom)]
    loom::thread::yield_now();
    #[cfg(not(loom))]
    std::hint::spin_loop();
}
