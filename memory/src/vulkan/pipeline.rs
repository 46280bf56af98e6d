//! Pipeline creation through the manager: graphics pipelines, and the shader modules and layouts
//! a program link creates.
//!
//! Pipelines are not device memory, so the translator builds their create info; the calls
//! themselves go through here because they allocate (driver host and device memory) and so can
//! fail like an allocation: this is where the fault plan's `pipeline` rules are injected (every
//! one of these calls counts), where the results are classified, and where out-of-memory runs
//! the first rung of the ladder (release what completed) and retries once. A failure that
//! leaves here is transient (out of memory, device lost): callers must not remember it, since
//! the same call may succeed later.

use ash::vk;

use crate::classify::{classify, Call, Outcome};
use crate::error::{MemoryError, Result};
use crate::fault::FaultSite;
use crate::stats::Stat;
use crate::vulkan::MemoryManager;

impl MemoryManager {
    /// Creates one graphics pipeline in `cache`. Errors: `DeviceLost` (latched), the OOM family
    /// after one drain and retry (transient: the caller must not remember the failure), others
    /// as `Vulkan`.
    ///
    /// # Safety
    /// `info` is a valid `VkGraphicsPipelineCreateInfo` for this manager's device: every object
    /// it names (shader modules, layout) is alive and was created on [`MemoryManager::device`],
    /// and `cache` is null or a cache of that device.
    pub unsafe fn create_graphics_pipeline(
        &mut self,
        cache: vk::PipelineCache,
        info: &vk::GraphicsPipelineCreateInfo<'_>,
    ) -> Result<vk::Pipeline> {
        self.create_pipeline_object(Call::CreatePipeline, |device| {
            // SAFETY: the caller's contract; the cache and the info are externally synchronised
            // by `&mut self`.
            match unsafe {
                device.create_graphics_pipelines(cache, std::slice::from_ref(info), None)
            } {
                Ok(p) => p.first().copied().ok_or(vk::Result::ERROR_UNKNOWN),
                Err((partial, r)) => {
                    for p in partial.into_iter().filter(|p| *p != vk::Pipeline::null()) {
                        // SAFETY: created just now by the call above and never used.
                        unsafe { device.destroy_pipeline(p, None) };
                    }
                    Err(r)
                }
            }
        })
    }

    /// Creates one object of a program's pipeline interface (`vkCreateShaderModule`,
    /// `vkCreateDescriptorSetLayout`, `vkCreatePipelineLayout`) with `create`, which gets this
    /// manager's device and makes exactly one Vulkan call. The `pipeline` fault rules apply, and
    /// failures are classified, retried and reported as in
    /// [`MemoryManager::create_graphics_pipeline`].
    pub fn create_link_object<T>(
        &mut self,
        create: impl FnMut(&ash::Device) -> std::result::Result<T, vk::Result>,
    ) -> Result<T> {
        self.create_pipeline_object(Call::CreatePipeline, create)
    }

    /// The injection, classification and one-retry ladder shared by every pipeline object.
    fn create_pipeline_object<T>(
        &mut self,
        call: Call,
        mut create: impl FnMut(&ash::Device) -> std::result::Result<T, vk::Result>,
    ) -> Result<T> {
        if self.is_lost() {
            return Err(MemoryError::DeviceLost);
        }
        let mut attempt = 0;
        loop {
            let result = match self.inject(FaultSite::Pipeline, 0) {
                Some(r) => Err(r),
                None => create(self.device()),
            };
            let r = match result {
                Ok(p) => return Ok(p),
                Err(r) => r,
            };
            self.log_failure(call, r);
            match classify(call, r) {
                Outcome::OutOfMemory(e) => {
                    self.record_stat(Stat::OutOfMemory);
                    if attempt > 0 {
                        self.record_stat(Stat::Refusal);
                        return Err(e);
                    }
                    attempt += 1;
                    self.record_stat(Stat::LadderDrain);
                    self.drain()?;
                    self.record_stat(Stat::LadderRetry);
                }
                Outcome::DeviceLost => {
                    self.latch_lost();
                    return Err(MemoryError::DeviceLost);
                }
                other => {
                    return Err(other.error().unwrap_or(MemoryError::Vulkan {
                        call: call.name(),
                        result: r,
                    }))
                }
            }
        }
    }
}
