//! The launcher's memory entry points through the C ABI (`docs/launchers.md`):
//! `arenagl_memory_trim` (Android's `onTrimMemory` levels) moves the pressure level at the next
//! frame — Critical trims the translator's caches — and level 0 lets it fall back;
//! `arenagl_memory_available` (iOS `os_proc_available_memory`) moves the budget. The platform's
//! own files are pointed at calm fakes, so a loaded machine's real PSI cannot move the level.

use std::ffi::CStr;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{f, P};

const EGL_DRAW: i32 = 0x3059;
const MIB: u64 = 1 << 20;

fn stat(name: &CStr) -> u64 {
    let v = gl_harness::memory_stat(name);
    assert_ne!(v, u64::MAX, "{name:?}");
    v
}

/// One of the library's exports of C signature `F`.
fn export<F: Copy>(name: &[u8]) -> F {
    // SAFETY: the caller names a function whose C signature is `F`.
    *unsafe { gl_harness::lib().lib.get::<F>(name) }.expect("exported")
}

/// `eglSwapBuffers` on the current pbuffer: one frame boundary.
fn swap() {
    let display = gl!(c"eglGetCurrentDisplay": fn() -> P);
    let surface = gl!(c"eglGetCurrentSurface": fn(i32) -> P);
    let swap = gl!(c"eglSwapBuffers": fn(P, P) -> u32);
    // SAFETY: the current display and draw surface.
    unsafe { assert_eq!(swap(display(), surface(EGL_DRAW)), 1) };
}

#[test]
fn trim_levels_and_available_bytes_reach_the_manager_at_the_next_frame() {
    let calm = std::env::temp_dir().join(format!("arenagl-calm-psi-{}", std::process::id()));
    std::fs::write(&calm, "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n").expect("fake");
    // Read when the device opens: before the first context.
    std::env::set_var("ARENAGL_PSI_FILE", &calm);
    std::env::set_var(
        "ARENAGL_CGROUP_DIR",
        std::env::temp_dir().join("arenagl-no-cgroup"),
    );
    let _current = gl_harness::context();
    let trim: extern "C" fn(i32) = export(b"arenagl_memory_trim\0");
    let available: extern "C" fn(u64) = export(b"arenagl_memory_available\0");
    swap();
    assert_eq!(stat(c"pressure_level"), 0);
    let trims = stat(c"cache_trims");
    trim(15); // TRIM_MEMORY_RUNNING_CRITICAL
    swap();
    assert_eq!(stat(c"pressure_level"), 2, "Critical from the next frame");
    swap();
    assert!(stat(c"cache_trims") > trims, "Critical trims the caches");
    trim(0);
    swap();
    assert_eq!(stat(c"pressure_level"), 0, "level 0 ends the trim");
    trim(20); // TRIM_MEMORY_UI_HIDDEN
    swap();
    assert_eq!(stat(c"pressure_level"), 1, "Warn");
    trim(-3);
    swap();
    assert_eq!(stat(c"pressure_level"), 0, "a negative level is 0");
    let before = stat(c"budget_bytes");
    available(256 * MIB);
    swap();
    let after = stat(c"budget_bytes");
    assert!(
        after < before,
        "256 MiB left lowers the budget ({before} → {after})"
    );
    assert!(after >= 64 * MIB, "never below the minimum");
    assert_eq!(gl_harness::validation_errors(), 0);
    let _ = std::fs::remove_file(calm);
}
