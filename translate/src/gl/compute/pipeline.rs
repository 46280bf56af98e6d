//! One compute pipeline per linked program, cached with the graphics pipelines.
//!
//! Design decisions:
//! - A compute pipeline depends on the program alone, so its key is the program's id with a
//!   topology no graphics key has ([`COMPUTE_TOPOLOGY`]): it lives in the device's one pipeline
//!   table, is trimmed with the others and destroyed with its program
//!   (`Locked::forget_pipelines_of`).
//! - Built through the manager (`create_link_object`: the `pipeline` fault rules, the
//!   out-of-memory ladder, the device-lost latch); a failure is not cached.

use ash::vk;

use crate::gl::context::error::{GlError, GlResult};
use crate::gl::objects::program::Linked;
use crate::gl::vk::device::{CachedPipeline, Locked};
use crate::gl::vk::pipeline::PipelineKey;
use crate::glsl::Stage;

/// The topology of a compute program's key (no `VkPrimitiveTopology` is negative).
const COMPUTE_TOPOLOGY: i32 = -1;

/// The cache key of `linked`'s compute pipeline.
fn compute_key(linked: &Linked) -> PipelineKey {
    let mut key = PipelineKey::internal(linked.id, Vec::new(), vk::Format::UNDEFINED);
    key.topology = COMPUTE_TOPOLOGY;
    key
}

/// The compute pipeline of `linked` (a compute program), built on first use.
pub(super) fn compute_pipeline(
    locked: &mut Locked,
    cache: vk::PipelineCache,
    linked: &Linked,
) -> GlResult<vk::Pipeline> {
    let key = compute_key(linked);
    let epoch = locked.manager.recording_epoch();
    if let Some(p) = locked.pipelines.get_mut(&key) {
        p.last_use = epoch;
        return Ok(p.raw);
    }
    let module = linked
        .modules
        .iter()
        .find(|(stage, _)| *stage == Stage::Compute)
        .map(|(_, m)| *m)
        .ok_or_else(|| GlError::InvalidOperation("not a compute program".into()))?;
    let stage = vk::PipelineShaderStageCreateInfo::default()
        .stage(vk::ShaderStageFlags::COMPUTE)
        .module(module)
        .name(c"main");
    let info = vk::ComputePipelineCreateInfo::default()
        .stage(stage)
        .layout(linked.pipeline_layout);
    let raw = locked.manager.create_link_object(|device| {
        // SAFETY: the module and layout are the live objects of `linked`, made on this device;
        // `cache` is the device's pipeline cache; the create info outlives the call.
        match unsafe { device.create_compute_pipelines(cache, std::slice::from_ref(&info), None) } {
            Ok(p) => p.first().copied().ok_or(vk::Result::ERROR_UNKNOWN),
            Err((_, r)) => Err(r),
        }
    })?;
    linked.note_pipeline_built();
    locked.pipelines.insert(
        key,
        CachedPipeline {
            raw,
            last_use: epoch,
        },
    );
    Ok(raw)
}
