//! Entry points a launcher calls from its platform code to pass on what the operating system
//! says about memory (not GL or EGL). Both only record the signal (process-wide, any thread);
//! every memory manager applies it at its next frame (`arenagl_residency::signals`).
//! `docs/launchers.md` shows the calls from Kotlin and Swift.

use arenagl_residency::signals;

/// Android's `ComponentCallbacks2.onTrimMemory(level)`: from the next frame, for five seconds
/// (renewed by each call), the pressure level is held at Warn (levels 5 and 20: collect early,
/// halve staging, empty the recycle bin) or Critical (10, 15, 40, 60, 80: also demote textures,
/// trim caches, lower the render scale). Level 0 (or below) ends it at once.
#[no_mangle]
pub extern "C" fn arenagl_memory_trim(level: i32) {
    let level = u32::try_from(level).unwrap_or(0);
    let _ = std::panic::catch_unwind(|| signals::report_trim(level));
}

/// iOS `os_proc_available_memory()`: the bytes the process may still allocate before the
/// system ends it. From the next frame, for five seconds (renewed by each call), the budget's
/// crash line is the process's footprint and GPU memory in use now plus `bytes`, so the
/// budget follows what the system really has left.
#[no_mangle]
pub extern "C" fn arenagl_memory_available(bytes: u64) {
    let _ = std::panic::catch_unwind(|| signals::report_available(bytes));
}
