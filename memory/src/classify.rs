//! What every Vulkan result means for the caller: the one table the manager (and, through it,
//! the GL and EGL layers) acts on.
//!
//! Design decisions:
//! - Classification is by call *and* result, because the same code means different things at
//!   different calls: `TIMEOUT` from an acquire skips the frame, `OUT_OF_DATE` from a present is
//!   a swapchain rebuild, `OUT_OF_DEVICE_MEMORY` from an allocation runs the OOM ladder.
//! - The table is total: a code the specification does not allow at a call is still classified
//!   ([`Outcome::Failed`]: logged, reported as a GL/EGL error), never a panic.
//! - Repeated failures are logged through [`FailureLog`]: the first, then every Nth with a count
//!   (a call failing once per frame otherwise floods the log, and a launcher watching it gives
//!   up).

#![deny(unsafe_code, clippy::unwrap_used)]

use ash::vk;

use crate::error::MemoryError;
use crate::ratelimit::RateLimit;
use crate::Epoch;

/// A Vulkan call that can fail at run time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    /// Memory allocation and resource creation (`vkAllocateMemory`, VMA, `vkCreateBuffer`…).
    Allocate,
    /// `vkQueueSubmit` / `vkEndCommandBuffer`.
    Submit,
    /// `vkWaitSemaphores` / `vkGetSemaphoreCounterValue`.
    Wait,
    /// `vkAcquireNextImageKHR`.
    Acquire,
    /// `vkQueuePresentKHR`.
    Present,
    /// `vkCreateSwapchainKHR` and the surface queries.
    CreateSwapchain,
    /// `vkCreateGraphicsPipelines`, shader modules, layouts.
    CreatePipeline,
}

impl Call {
    const COUNT: usize = 7;

    /// The entry point named in logs and errors.
    pub fn name(self) -> &'static str {
        match self {
            Call::Allocate => "vkAllocateMemory",
            Call::Submit => "vkQueueSubmit",
            Call::Wait => "vkWaitSemaphores",
            Call::Acquire => "vkAcquireNextImageKHR",
            Call::Present => "vkQueuePresentKHR",
            Call::CreateSwapchain => "vkCreateSwapchainKHR",
            Call::CreatePipeline => "vkCreateGraphicsPipelines",
        }
    }
}

/// What to do about a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Success; nothing to do.
    Done,
    /// `SUBOPTIMAL_KHR` (the call itself succeeded) or `ERROR_OUT_OF_DATE_KHR`: rebuild the
    /// swapchain before the next frame.
    Rebuild {
        /// Whether the call did its work (suboptimal) or not (out of date).
        succeeded: bool,
    },
    /// `ERROR_DEVICE_LOST`: set the device-lost latch.
    DeviceLost,
    /// Out of device or host memory (or too many objects): the OOM ladder; a frame that hits it
    /// is skipped rather than aborted.
    OutOfMemory(MemoryError),
    /// `TIMEOUT` / `NOT_READY` on an acquire: drain, skip the frame, keep the swapchain.
    SkipFrame,
    /// Anything else: a logged error and a GL/EGL error.
    Failed(MemoryError),
}

impl Outcome {
    /// The error a caller returns for this outcome (`None` for the ones that are not errors:
    /// done, a suboptimal success, a skipped frame).
    pub fn error(&self) -> Option<MemoryError> {
        match self {
            Outcome::Done | Outcome::SkipFrame | Outcome::Rebuild { succeeded: true } => None,
            Outcome::Rebuild { succeeded: false } => Some(MemoryError::Vulkan {
                call: "vkAcquireNextImageKHR",
                result: vk::Result::ERROR_OUT_OF_DATE_KHR,
            }),
            Outcome::DeviceLost => Some(MemoryError::DeviceLost),
            Outcome::OutOfMemory(e) | Outcome::Failed(e) => Some(e.clone()),
        }
    }
}

/// Classifies `result` returned by `call`.
pub fn classify(call: Call, result: vk::Result) -> Outcome {
    let oom = |e| Outcome::OutOfMemory(e);
    match result {
        vk::Result::SUCCESS => Outcome::Done,
        vk::Result::ERROR_DEVICE_LOST => Outcome::DeviceLost,
        vk::Result::ERROR_OUT_OF_DEVICE_MEMORY => oom(MemoryError::OutOfDeviceMemory),
        vk::Result::ERROR_OUT_OF_HOST_MEMORY => oom(MemoryError::OutOfHostMemory),
        // Swapchain creation: the degrade ladder tries again with less.
        vk::Result::ERROR_INITIALIZATION_FAILED if call == Call::CreateSwapchain => {
            oom(MemoryError::OutOfDeviceMemory)
        }
        vk::Result::ERROR_TOO_MANY_OBJECTS if call == Call::Allocate => {
            oom(MemoryError::OutOfDeviceMemory)
        }
        vk::Result::SUBOPTIMAL_KHR if matches!(call, Call::Acquire | Call::Present) => {
            Outcome::Rebuild { succeeded: true }
        }
        vk::Result::ERROR_OUT_OF_DATE_KHR
            if matches!(call, Call::Acquire | Call::Present | Call::CreateSwapchain) =>
        {
            Outcome::Rebuild { succeeded: false }
        }
        vk::Result::TIMEOUT | vk::Result::NOT_READY if call == Call::Acquire => Outcome::SkipFrame,
        vk::Result::TIMEOUT if call == Call::Wait => {
            Outcome::Failed(MemoryError::Timeout(Epoch::ZERO))
        }
        vk::Result::ERROR_FEATURE_NOT_PRESENT | vk::Result::ERROR_FORMAT_NOT_SUPPORTED => {
            Outcome::Failed(MemoryError::Unsupported(format!(
                "{}: {result}",
                call.name()
            )))
        }
        other => Outcome::Failed(MemoryError::Vulkan {
            call: call.name(),
            result: other,
        }),
    }
}

/// Rate-limited logging of failed calls: one [`RateLimit`] per call kind.
#[derive(Debug, Clone)]
pub struct FailureLog {
    limits: [RateLimit; Call::COUNT],
}

impl Default for FailureLog {
    fn default() -> Self {
        Self {
            limits: std::array::from_fn(|_| RateLimit::new(100)),
        }
    }
}

impl FailureLog {
    /// Logs a failure of `call` (the first, then every 100th, with the count so far); returns
    /// whether this one was logged.
    pub fn failed(&mut self, call: Call, result: vk::Result, what: &Outcome) -> bool {
        let limit = &mut self.limits[call as usize];
        match limit.hit() {
            Some(times) => {
                tracing::warn!(call = call.name(), %result, outcome = ?what, times, "Vulkan call failed");
                true
            }
            None => false,
        }
    }

    /// Failures of `call` seen so far.
    pub fn count(&self, call: Call) -> u64 {
        self.limits[call as usize].count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_call_maps_its_codes_to_the_documented_action() {
        use vk::Result as R;
        let cases = [
            (
                Call::Acquire,
                R::ERROR_OUT_OF_DATE_KHR,
                Outcome::Rebuild { succeeded: false },
            ),
            (
                Call::Acquire,
                R::SUBOPTIMAL_KHR,
                Outcome::Rebuild { succeeded: true },
            ),
            (
                Call::Present,
                R::ERROR_OUT_OF_DATE_KHR,
                Outcome::Rebuild { succeeded: false },
            ),
            (
                Call::Present,
                R::SUBOPTIMAL_KHR,
                Outcome::Rebuild { succeeded: true },
            ),
            (Call::Acquire, R::TIMEOUT, Outcome::SkipFrame),
            (Call::Acquire, R::NOT_READY, Outcome::SkipFrame),
            (Call::Submit, R::ERROR_DEVICE_LOST, Outcome::DeviceLost),
            (Call::Present, R::ERROR_DEVICE_LOST, Outcome::DeviceLost),
            (
                Call::Submit,
                R::ERROR_OUT_OF_HOST_MEMORY,
                Outcome::OutOfMemory(MemoryError::OutOfHostMemory),
            ),
            (
                Call::CreatePipeline,
                R::ERROR_OUT_OF_DEVICE_MEMORY,
                Outcome::OutOfMemory(MemoryError::OutOfDeviceMemory),
            ),
            (
                Call::Allocate,
                R::ERROR_TOO_MANY_OBJECTS,
                Outcome::OutOfMemory(MemoryError::OutOfDeviceMemory),
            ),
        ];
        for (call, result, want) in cases {
            assert_eq!(classify(call, result), want, "{call:?} {result}");
        }
        // Out of place codes are errors, never a rebuild or a skip.
        assert!(matches!(
            classify(Call::Submit, R::ERROR_OUT_OF_DATE_KHR),
            Outcome::Failed(_)
        ));
        assert!(matches!(
            classify(Call::Submit, R::TIMEOUT),
            Outcome::Failed(_)
        ));
        assert!(matches!(
            classify(Call::Present, R::ERROR_SURFACE_LOST_KHR),
            Outcome::Failed(MemoryError::Vulkan { .. })
        ));
        assert_eq!(classify(Call::Acquire, R::TIMEOUT).error(), None);
        assert_eq!(
            classify(Call::Submit, R::ERROR_DEVICE_LOST).error(),
            Some(MemoryError::DeviceLost)
        );
    }

    #[test]
    fn repeated_failures_are_logged_first_then_every_hundredth() {
        let mut log = FailureLog::default();
        let o = classify(Call::Present, vk::Result::ERROR_SURFACE_LOST_KHR);
        let logged = (0..250)
            .filter(|_| log.failed(Call::Present, vk::Result::ERROR_SURFACE_LOST_KHR, &o))
            .count();
        assert_eq!(logged, 3);
        assert_eq!(log.count(Call::Present), 250);
        assert_eq!(log.count(Call::Submit), 0);
    }
}
