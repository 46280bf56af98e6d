//! ArenaGL's own diagnostic entry points (not GL or EGL): what tests and tools that load the
//! library need to see from inside it.
//!
//! `arenagl_set_faults` and `arenagl_memory_stat` let an in-process test change the fault plan
//! at run time (`ARENAGL_FAULTS` is read once, when the device opens) and check the manager's
//! counters (leaks, refusals, injected faults) without linking the crates.

use std::ffi::{c_char, CStr};

use arenagl_memory::FaultPlan;

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

/// Replaces the fault plan of the open device with `spec` (the `ARENAGL_FAULTS` grammar of
/// `docs/robustness.md`; an empty string injects nothing; counters restart). Returns 0 on
/// success, -1 when `spec` is NULL or does not parse (the reason is logged), -2 when no device
/// is open yet.
///
/// # Safety
/// `spec` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn arenagl_set_faults(spec: *const c_char) -> i32 {
    if spec.is_null() {
        return -1;
    }
    // SAFETY: the caller passes a NUL-terminated string.
    let spec = unsafe { CStr::from_ptr(spec) }
        .to_string_lossy()
        .into_owned();
    std::panic::catch_unwind(move || {
        let plan = match FaultPlan::parse(&spec) {
            Ok(plan) => plan,
            Err(e) => {
                tracing::error!(error = %e, "arenagl_set_faults: the plan does not parse");
                return -1;
            }
        };
        match opened_device() {
            Some(d) => {
                d.lock().manager.set_fault_plan(plan);
                0
            }
            None => -2,
        }
    })
    .unwrap_or(-1)
}

/// One counter of the open device's memory manager, by name: `client_objects_live` (buffers and
/// images held for GL objects and surfaces), `live_bytes`, `faults_injected`, `oom_failures`,
/// `ladder_recoveries`, `split_submits` (submissions that went through only split into their
/// segments), `refusals`, `device_lost` (0 or 1); of the newest swapchain
/// `swapchain_min_images` (asked for), `swapchain_images` (made) and
/// `swapchain_images_presented` (presented so far); `swapchains_created` (every window's first
/// swapchain and every rebuild since the device was made); `recycled` (creations served from the
/// recycle bin), `recycle_bin_bytes` and `allocate_calls` (`vkAllocateMemory` so far); and the
/// pressure figures `budget_bytes` (0
/// without a budget), `pressure_level` (0 normal … 3 over), `demotions`, `demoted_bytes`,
/// `restorations`, `evictions` (objects the 64-frame prune released), `cache_trims`,
/// `render_scale_percent` (the last window rescale; 0 before any), `staged_bytes`,
/// `readback_bytes`, `buffer_to_image_bytes` (pixel unpack buffers copied on the device);
/// `pipelines_built`, `shader_modules_created` and `uniform_branch_modules` (the
/// translator's, process wide: `gl::vk::pipeline::build_counts`);
/// `compressed_native_uploads` and `compressed_decoded_uploads` (compressed uploads kept as
/// blocks in a block-format image, and decoded into texels: `gl::compressed_uploads`); and
/// more (the match below). `u64::MAX` for an unknown
/// name, NULL, or no open device.
///
/// # Safety
/// `name` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn arenagl_memory_stat(name: *const c_char) -> u64 {
    if name.is_null() {
        return u64::MAX;
    }
    // SAFETY: the caller passes a NUL-terminated string.
    let name = unsafe { CStr::from_ptr(name) }.to_bytes().to_vec();
    std::panic::catch_unwind(move || {
        let Some(device) = opened_device() else {
            return u64::MAX;
        };
        let locked = device.lock();
        let s = locked.manager.stats();
        let budget = locked.manager.budget().map_or(0, |b| b.total_bytes);
        drop(locked);
        match name.as_slice() {
            b"budget_bytes" => budget,
            b"pressure_level" => u64::from(s.pressure_level),
            b"demotions" => s.demotions,
            b"demoted_bytes" => s.demoted_bytes,
            b"restorations" => s.restorations,
            b"evictions" => s.evictions,
            b"cache_trims" => s.cache_trims,
            b"render_scale_percent" => u64::from(s.render_scale_percent),
            b"client_objects_live" => s.client_objects_live(),
            b"live_bytes" => s.live_bytes,
            b"faults_injected" => s.faults_injected,
            b"oom_failures" => s.oom_failures,
            b"ladder_recoveries" => s.ladder_recoveries,
            b"split_submits" => s.split_submits,
            b"refusals" => s.refusals,
            b"device_lost" => u64::from(s.device_lost),
            b"swapchain_min_images" => s.swapchain_min_images,
            b"swapchain_images" => s.swapchain_images,
            b"swapchain_images_presented" => s.swapchain_images_presented,
            b"swapchains_created" => s.swapchains_created,
            b"recycled" => s.recycled,
            b"allocate_calls" => s.device_memory.allocate_calls,
            b"recycle_bin_bytes" => s.recycle_bin_bytes,
            b"staged_bytes" => s.staged_bytes,
            b"readback_bytes" => s.readback_bytes,
            b"buffer_to_image_bytes" => s.buffer_to_image_bytes,
            b"journal_bytes" => s.journal_bytes,
            b"journal_objects" => s.journal_objects,
            b"recoveries" => s.recoveries,
            b"pipelines_built" => arenagl_translate::gl::build_counts().pipelines,
            b"shader_modules_created" => arenagl_translate::gl::build_counts().shader_modules,
            b"uniform_branch_modules" => {
                arenagl_translate::gl::build_counts().uniform_branch_modules
            }
            b"compressed_native_uploads" => arenagl_translate::gl::compressed_uploads().native,
            b"compressed_decoded_uploads" => arenagl_translate::gl::compressed_uploads().decoded,
            _ => u64::MAX,
        }
    })
    .unwrap_or(u64::MAX)
}

/// Panics the EGL and GL entry points caught (and turned into `EGL_BAD_ALLOC` /
/// `GL_OUT_OF_MEMORY`) since the library loaded. Every one is a bug; the fuzzers fail on it.
#[no_mangle]
pub extern "C" fn arenagl_caught_panic_count() -> u64 {
    super::guard::caught_panics()
}
