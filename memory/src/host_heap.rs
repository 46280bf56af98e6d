//! Giving the C heap's free pages back to the system when device memory grows on a device whose
//! memory is host memory.
//!
//! Design decisions:
//! - On lavapipe and unified-memory phones a new `VkDeviceMemory` block is process memory, and
//!   the C heap competes with it for the same pages. The heap keeps pages that earlier work
//!   freed (shader compilation on a worker thread, whose malloc arena glibc never shrinks on its
//!   own; driver scratch) resident until it is trimmed. So when an allocation made the device
//!   allocate a block, the manager gives those pages back (`malloc_trim(0)`): the process's
//!   peak then holds device memory in use, not the heap's leftovers.
//! - Only where the manager is told device memory is host memory
//!   (`Manager::set_trim_host_heap`; `MemoryManager::from_env` turns it on for unified-memory
//!   devices), and only on glibc Linux; elsewhere a no-op. It costs one walk of the heap per new
//!   block: a handful per process (the `vkAllocateMemory` figures of the bench scenes: 2 to 7).

/// Returns the C heap's free pages to the system; whether the heap could say it did anything
/// (always `false` where there is no glibc).
pub(crate) fn trim() -> bool {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> i32;
        }
        // SAFETY: glibc's `malloc_trim` has no preconditions and may be called from any thread
        // at any time (it takes each arena's lock).
        unsafe { malloc_trim(0) != 0 }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        false
    }
}
