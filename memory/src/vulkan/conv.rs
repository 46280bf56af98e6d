//! `vk::Result` → [`MemoryError`] mappers, one per kind of call site, each listing the codes the
//! Vulkan spec allows there.

#![deny(unsafe_code, clippy::unwrap_used)]

use ash::vk;

use crate::error::MemoryError;

/// Allocation and object creation (`vkAllocateMemory`, `vkCreateBuffer`, VMA calls):
/// `OUT_OF_HOST_MEMORY`, `OUT_OF_DEVICE_MEMORY`, `TOO_MANY_OBJECTS` (the allocation count),
/// `INVALID_EXTERNAL_HANDLE`, `INVALID_OPAQUE_CAPTURE_ADDRESS`, plus VMA's
/// `FEATURE_NOT_PRESENT` when a pool's memory type cannot hold the resource.
pub(crate) fn map_alloc(call: &'static str, result: vk::Result) -> MemoryError {
    match result {
        vk::Result::ERROR_OUT_OF_DEVICE_MEMORY | vk::Result::ERROR_TOO_MANY_OBJECTS => {
            MemoryError::OutOfDeviceMemory
        }
        vk::Result::ERROR_OUT_OF_HOST_MEMORY => MemoryError::OutOfHostMemory,
        vk::Result::ERROR_DEVICE_LOST => MemoryError::DeviceLost,
        vk::Result::ERROR_FEATURE_NOT_PRESENT | vk::Result::ERROR_FORMAT_NOT_SUPPORTED => {
            MemoryError::Unsupported(format!("{call}: {result}"))
        }
        other => MemoryError::Vulkan {
            call,
            result: other,
        },
    }
}

/// Queue submission and synchronisation (`vkQueueSubmit`, `vkWaitSemaphores`,
/// `vkGetSemaphoreCounterValue`, `vkEndCommandBuffer`): `OUT_OF_HOST_MEMORY`,
/// `OUT_OF_DEVICE_MEMORY`, `DEVICE_LOST`.
pub(crate) fn map_queue(call: &'static str, result: vk::Result) -> MemoryError {
    match result {
        vk::Result::ERROR_DEVICE_LOST => MemoryError::DeviceLost,
        vk::Result::ERROR_OUT_OF_DEVICE_MEMORY => MemoryError::OutOfDeviceMemory,
        vk::Result::ERROR_OUT_OF_HOST_MEMORY => MemoryError::OutOfHostMemory,
        other => MemoryError::Vulkan {
            call,
            result: other,
        },
    }
}

/// Surface, swapchain and present calls (`vkCreateXlibSurfaceKHR`, `vkCreateSwapchainKHR`,
/// `vkAcquireNextImageKHR`, `vkQueuePresentKHR`, the surface queries): the two out-of-memory
/// codes, `DEVICE_LOST`, and the window-system codes (`SURFACE_LOST_KHR`,
/// `NATIVE_WINDOW_IN_USE_KHR`, `OUT_OF_DATE_KHR`, `INITIALIZATION_FAILED`), which stay
/// `Vulkan` errors for the caller to report against the window. `OUT_OF_DATE` and
/// `SUBOPTIMAL` are handled (recreate) before this is reached.
pub(crate) fn map_present(call: &'static str, result: vk::Result) -> MemoryError {
    match result {
        vk::Result::ERROR_DEVICE_LOST => MemoryError::DeviceLost,
        vk::Result::ERROR_OUT_OF_DEVICE_MEMORY => MemoryError::OutOfDeviceMemory,
        vk::Result::ERROR_OUT_OF_HOST_MEMORY => MemoryError::OutOfHostMemory,
        other => MemoryError::Vulkan {
            call,
            result: other,
        },
    }
}

/// Instance and device creation: `INITIALIZATION_FAILED`, `LAYER_NOT_PRESENT`,
/// `EXTENSION_NOT_PRESENT`, `FEATURE_NOT_PRESENT`, `INCOMPATIBLE_DRIVER`, `TOO_MANY_OBJECTS`,
/// `DEVICE_LOST` and the two out-of-memory codes. All of them mean "no usable device".
pub(crate) fn map_init(call: &'static str, result: vk::Result) -> MemoryError {
    match result {
        vk::Result::ERROR_OUT_OF_HOST_MEMORY => MemoryError::OutOfHostMemory,
        vk::Result::ERROR_OUT_OF_DEVICE_MEMORY => MemoryError::OutOfDeviceMemory,
        other => MemoryError::NoDevice(format!("{call} failed: {other}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_memory_codes_feed_the_ladder() {
        assert_eq!(
            map_alloc("x", vk::Result::ERROR_TOO_MANY_OBJECTS),
            MemoryError::OutOfDeviceMemory
        );
        assert!(map_alloc("x", vk::Result::ERROR_OUT_OF_HOST_MEMORY).is_out_of_memory());
        assert_eq!(
            map_queue("x", vk::Result::ERROR_DEVICE_LOST),
            MemoryError::DeviceLost
        );
        assert!(matches!(
            map_init("x", vk::Result::ERROR_INCOMPATIBLE_DRIVER),
            MemoryError::NoDevice(_)
        ));
    }
}
