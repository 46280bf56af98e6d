//! ArenaGL's own diagnostic entry points (not GL or EGL): what tests and tools that load the
//! library need to see from inside it.

use super::bridge::opened_device;

/// Validation-layer errors reported since the device opened (0 before it opens, or when
/// `ARENAGL_VALIDATION` is off). Tests that drive the library in-process assert it stays 0.
#[no_mangle]
pub extern "C" fn arenagl_validation_error_count() -> u64 {
    std::panic::catch_unwind(|| {
        opened_device().map_or(0, |d| d.lock().manager.validation_error_count())
    })
    .unwrap_or(u64::MAX)
}

/// Panics the EGL and GL entry points caught (and turned into `EGL_BAD_ALLOC` /
/// `GL_OUT_OF_MEMORY`) since the library loaded. Every one is a bug; the fuzzers fail on it.
#[no_mangle]
pub extern "C" fn arenagl_caught_panic_count() -> u64 {
    super::guard::caught_panics()
}
