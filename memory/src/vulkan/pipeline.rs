//! Graphics pipeline creation through the manager.
//!
//! Pipelines are not device memory, so the translator builds their create info; the call itself
//! goes through here because `vkCreateGraphicsPipelines` allocates (driver host and device
//! memory) and so can fail like an allocation: this is where the fault plan's `pipeline` rules
//! are injected, where its results are classified, and where out-of-memory runs the first rung
//! of the ladder (release what completed) and retries once.

use ash::vk;

use crate::classify::{classify, Call, Outcome};
use crate::error::{MemoryError, Result};
use crate::fault::FaultSite;
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
        if self.is_lost() {
            return Err(MemoryError::DeviceLost);
        }
        let mut attempt = 0;
        loop {
            let result = match self.inject(FaultSite::Pipeline, 0) {
                Some(r) => Err(r),
                None => {
                    // SAFETY: the caller's contract; the cache and the info are externally
                    // synchronised by `&mut self`.
                    match unsafe {
                        self.device().create_graphics_pipelines(
                            cache,
                            std::slice::from_ref(info),
                            None,
                        )
                    } {
                        Ok(p) => p.first().copied().ok_or(vk::Result::ERROR_UNKNOWN),
                        Err((partial, r)) => {
                            for p in partial.into_iter().filter(|p| *p != vk::Pipeline::null()) {
                                // SAFETY: created just now by the call above and never used.
                                unsafe { self.device().destroy_pipeline(p, None) };
                            }
                            Err(r)
                        }
                    }
                }
            };
            let r = match result {
                Ok(p) => return Ok(p),
                Err(r) => r,
            };
            self.log_failure(Call::CreatePipeline, r);
            match classify(Call::CreatePipeline, r) {
                Outcome::OutOfMemory(e) => {
                    self.stats.oom_failures += 1;
                    if attempt > 0 {
                        self.stats.refusals += 1;
                        return Err(e);
                    }
                    attempt += 1;
                    self.stats.ladder_drains += 1;
                    self.drain()?;
                    self.stats.ladder_retries += 1;
                }
                Outcome::DeviceLost => {
                    self.latch_lost();
                    return Err(MemoryError::DeviceLost);
                }
                other => {
                    return Err(other.error().unwrap_or(MemoryError::Vulkan {
                        call: Call::CreatePipeline.name(),
                        result: r,
                    }))
                }
            }
        }
    }
}
