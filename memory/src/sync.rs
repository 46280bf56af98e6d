//! The one place that chooses between `loom` and `std` synchronisation primitives.
//!
//! No other module imports `std::sync` directly, so the loom models (built with `--cfg loom`)
//! exercise exactly the code that ships.

#[cfg(loom)]
pub(crate) use loom::sync::atomic::{AtomicU64, Ordering};
#[cfg(loom)]
pub(crate) use loom::sync::{Arc, Mutex, MutexGuard};

#[cfg(not(loom))]
pub(crate) use std::sync::atomic::{AtomicU64, Ordering};
#[cfg(not(loom))]
pub(crate) use std::sync::{Arc, Mutex, MutexGuard};

/// vk-mem's pool API takes `self: &std::sync::Arc<Allocator>`, so the VMA allocator is held in
/// a std `Arc` even under loom (it is never part of a loom model).
pub(crate) use std::sync::Arc as StdArc;

/// Locks a mutex, treating a poisoned lock as still usable: every critical section in this
/// crate leaves its data consistent before anything that could panic.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    match mutex.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    }
}

/// A process-wide id for each manager, carried in its handles so that a handle from another
/// manager is recognised as foreign. Not part of any loom model, so it uses `std` directly.
pub(crate) fn next_owner_id() -> u16 {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);
    loop {
        let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) as u16;
        if id != 0 {
            return id;
        }
    }
}
