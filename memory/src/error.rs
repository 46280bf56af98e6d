//! The crate's one error type.
//!
//! Variants name what a caller cannot prevent (memory exhaustion, device loss, a timeout) plus the
//! two request faults the manager must still answer with a value instead of undefined behaviour
//! (a stale or foreign handle, an impossible request). The GL layer maps them to GL errors:
//! [`MemoryError::is_out_of_memory`] → `GL_OUT_OF_MEMORY`, everything else per call site.

use ash::vk;

use crate::Epoch;

/// Everything that can go wrong inside the memory manager.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MemoryError {
    /// The device heap (or the simulated heap limit) is exhausted even after the OOM ladder ran.
    #[error("out of device memory")]
    OutOfDeviceMemory,
    /// The driver could not allocate host memory for its own bookkeeping.
    #[error("out of host memory")]
    OutOfHostMemory,
    /// The live `VkDeviceMemory` count would cross the allocation-count cap.
    #[error("allocation-count cap reached: {live} of {limit} device memory objects live")]
    TooManyAllocations {
        /// Device memory objects live when the request was refused.
        live: u32,
        /// The allocation-count cap in force.
        limit: u32,
    },
    /// The allocation would cross the residency budget: refused rather than letting the
    /// platform kill the process.
    #[error("over budget: {requested} bytes requested with {usage} of {budget} in use")]
    OverBudget {
        /// Bytes asked for.
        requested: u64,
        /// Bytes in use.
        usage: u64,
        /// The budget.
        budget: u64,
    },
    /// The device was lost; the manager is latched and every later request answers this.
    #[error("device lost")]
    DeviceLost,
    /// A blocking wait for an epoch ran past its timeout.
    #[error("timed out waiting for epoch {0}")]
    Timeout(Epoch),
    /// The handle is stale (its object was retired), from another manager, or null.
    #[error("stale or foreign handle")]
    InvalidHandle,
    /// The request can never succeed as asked (zero size, over a device limit, bad range).
    #[error("invalid request: {0}")]
    InvalidRequest(String),
    /// The device cannot do what was asked (format, usage or sample count unsupported).
    #[error("unsupported by the device: {0}")]
    Unsupported(String),
    /// The resource is still in use by a submission that has not completed.
    #[error("resource is in use by epoch {0}, which has not completed")]
    Busy(Epoch),
    /// No usable Vulkan implementation (loader, driver, required feature).
    #[error("no usable Vulkan device: {0}")]
    NoDevice(String),
    /// A Vulkan call failed with a code the call site does not classify further.
    #[error("{call} failed: {result}")]
    Vulkan {
        /// The Vulkan entry point.
        call: &'static str,
        /// Its result code.
        result: vk::Result,
    },
    /// An internal invariant was broken; reported instead of panicking.
    #[error("internal invariant broken: {0}")]
    Internal(&'static str),
}

impl MemoryError {
    /// Whether the GL layer should report this as `GL_OUT_OF_MEMORY`.
    pub fn is_out_of_memory(&self) -> bool {
        matches!(
            self,
            Self::OutOfDeviceMemory
                | Self::OutOfHostMemory
                | Self::TooManyAllocations { .. }
                | Self::OverBudget { .. }
                | Self::Timeout(_)
        )
    }

    /// Whether the failure may go away by itself: OOM, the allocation-count cap, timeout and device
    /// loss are transient and must never be cached as a permanent failure; a bad request is
    /// permanent.
    pub fn is_transient(&self) -> bool {
        self.is_out_of_memory() || matches!(self, Self::DeviceLost | Self::Busy(_))
    }
}

/// Result alias for this crate.
pub type Result<T, E = MemoryError> = std::result::Result<T, E>;
