//! The panic guard every entry point runs in.
//!
//! A panic unwinding into C is undefined behaviour (and since Rust 1.81 an abort), so each entry
//! point's body runs in `catch_unwind`; a caught panic becomes `EGL_BAD_ALLOC`, the one EGL error
//! meaning "the implementation failed", and the entry point returns its failure value. Catching
//! needs unwinding: no profile may set `panic = "abort"` for this package.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};

use arenagl_present::EglError;

use super::instance;

/// Panics caught at the C edge (EGL and GL) since the library loaded: always a bug, so the
/// fuzzers and in-process tests read it (`arenagl_caught_panic_count`) and fail when it moves.
static CAUGHT_PANICS: AtomicU64 = AtomicU64::new(0);

/// Counts one panic caught by an entry point's guard.
pub(crate) fn note_caught_panic() {
    CAUGHT_PANICS.fetch_add(1, Ordering::Relaxed);
}

/// Panics caught so far.
pub(crate) fn caught_panics() -> u64 {
    CAUGHT_PANICS.load(Ordering::Relaxed)
}

/// Runs `body`; if it panics, records `EGL_BAD_ALLOC` and returns `failure`.
pub(crate) fn guard<T>(failure: T, body: impl FnOnce() -> T) -> T {
    // AssertUnwindSafe: the only state a panic can leave behind is the model's registry, whose
    // mutex deliberately ignores poisoning (every mutation is a single store), and the thread's
    // error slot, which is overwritten below.
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(value) => value,
        Err(_) => {
            note_caught_panic();
            // Recording touches a thread-local, which panics during thread teardown; that
            // panic must not escape either, and then there is nowhere left to report to.
            let _ = catch_unwind(|| instance().record::<()>(Err(EglError::BAD_ALLOC)));
            failure
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arenagl_present::egl::{EGL_BAD_ALLOC, EGL_SUCCESS};

    #[test]
    fn a_panic_becomes_bad_alloc_and_the_failure_value() {
        let before = caught_panics();
        let value = guard(0u32, || -> u32 {
            panic!("deliberate panic inside the guard")
        });
        assert_eq!(value, 0);
        assert!(caught_panics() > before, "the panic is counted");
        assert_eq!(instance().get_error(), EGL_BAD_ALLOC);
        assert_eq!(instance().get_error(), EGL_SUCCESS, "eglGetError resets");
    }

    #[test]
    fn a_normal_body_passes_its_value_through_and_leaves_the_error_alone() {
        assert_eq!(instance().get_error(), EGL_SUCCESS);
        assert_eq!(guard(0u32, || 7), 7);
        assert_eq!(instance().get_error(), EGL_SUCCESS);
    }
}
