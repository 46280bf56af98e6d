//! Compute shaders and shader storage: `GL_ARB_compute_shader`,
//! `GL_ARB_shader_storage_buffer_object`, `GL_ARB_shader_atomic_counters`, and the memory
//! barriers between what shaders write and what later commands read.
//!
//! - `dispatch` — `glDispatchCompute(Indirect)`: validation, the program's resources, recording
//!   outside any render pass.
//! - `pipeline` — one compute pipeline per linked program, in the device's pipeline cache.
//! - `storage` — `GL_SHADER_STORAGE_BUFFER` and `GL_ATOMIC_COUNTER_BUFFER` binding points,
//!   `glShaderStorageBlockBinding`, and the storage-buffer descriptors of draws and dispatches.
//! - `image_unit` — `glBindImageTexture`, image-uniform values and storage-image descriptors
//!   (`GL_ARB_shader_image_load_store`).
//! - `barrier` — `glMemoryBarrier(ByRegion)` and the barriers around every dispatch.
//! - `limits` — the `glGet` limits of the three extensions and `GL_COMPUTE_WORK_GROUP_SIZE`.
//!
//! Design decisions:
//! - A compute program is linked like any other (`objects::program::link`) from its compute
//!   units alone; set 0 holds its storage blocks next to its uniform blocks and samplers, set 1
//!   its default block, so draws and dispatches share the descriptor code (`draw::descriptors`).
//! - Atomic counters: glslang's relaxed Vulkan rules already turn every
//!   `layout(binding = N) uniform atomic_uint c;` into a `uint` member of the storage block
//!   `gl_AtomicCounterBlock_N` (members in declaration order, std430) and the counter functions
//!   into atomics on it — Zink's lowering, done by the front end. Such a block is a storage
//!   buffer bound from `GL_ATOMIC_COUNTER_BUFFER` binding N. GL's default offsets (each counter
//!   after the previous one of its binding) are exactly that layout; explicit `offset`
//!   qualifiers that differ from it are not honoured (logged at link).
//! - Dispatches record outside the render pass: the open pass is ended first and the next draw
//!   begins a new one with load operations (`draw::pass`). Every dispatch is fenced by two
//!   global memory barriers — everything before it against its reads and writes, its writes
//!   against everything after it, host reads included — so `glGetBufferSubData`, maps, copies
//!   and draws see what it wrote whatever `glMemoryBarrier` bits the program used. A buffer a
//!   shader may write drops its CPU shadow (`objects::buffer`), so reads come from the device.
//! - Graphics stages get storage blocks only with the device's stores-and-atomics features
//!   (`fragmentStoresAndAtomics`, `vertexPipelineStoresAndAtomics`); a program that needs a
//!   missing one fails to link with a log saying so.

mod barrier;
mod dispatch;
pub(crate) mod image_unit;
mod limits;
mod pipeline;
mod storage;

pub(crate) use image_unit::{initial_image_units, set_image_units, storage_usage};
pub(crate) use limits::{check_local_size, program_param};
pub(crate) use storage::{initial_storage_bindings, ComputeState};

use ash::vk;

use crate::gl::objects::program::link::Prepared;
use crate::gl::objects::program::{vk_stages, LinkError};
use crate::gl::vk::device::Device;
use crate::glsl::layout_bindings::Declared;
use crate::glsl::{Reflection, SamplerType, Stage, StageMask, ATOMIC_COUNTER_BLOCK_PREFIX};

/// `GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS`.
pub(crate) const MAX_STORAGE_BINDINGS: usize = 16;
/// `GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS`.
pub(crate) const MAX_ATOMIC_BINDINGS: usize = 8;
/// `GL_MAX_*_SHADER_STORAGE_BLOCKS` of a stage that has them.
pub(crate) const MAX_STAGE_STORAGE_BLOCKS: u32 = 8;

/// A storage block (or atomic-counter block) of a linked program: one storage-buffer binding of
/// set 0 with one descriptor per array element.
#[derive(Debug, Clone)]
pub(crate) struct StorageBlockInfo {
    /// GL's block name.
    pub name: String,
    /// Descriptor binding in set 0.
    pub binding: u32,
    pub count: u32,
    pub stages: StageMask,
    /// The `GL_ATOMIC_COUNTER_BUFFER` binding of an atomic-counter block; None for a storage
    /// block, which reads `GL_SHADER_STORAGE_BUFFER` bindings.
    pub atomic_binding: Option<u32>,
    /// The binding point of element 0 after the link (`layout(binding)`, else 0).
    pub initial_binding: u32,
}

impl StorageBlockInfo {
    pub(crate) fn layout_binding(&self) -> vk::DescriptorSetLayoutBinding<'static> {
        vk::DescriptorSetLayoutBinding::default()
            .binding(self.binding)
            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
            .descriptor_count(self.count)
            .stage_flags(vk_stages(self.stages))
    }
}

/// An image uniform of a linked program: one storage-image binding of set 0.
#[derive(Debug, Clone)]
pub(crate) struct ImageInfo {
    pub name: String,
    pub binding: u32,
    pub ty: SamplerType,
    pub count: u32,
    pub stages: StageMask,
    /// The image unit of element 0 after the link (`layout(binding)`, else 0).
    pub initial_unit: u32,
}

impl ImageInfo {
    pub(crate) fn layout_binding(&self) -> vk::DescriptorSetLayoutBinding<'static> {
        vk::DescriptorSetLayoutBinding::default()
            .binding(self.binding)
            .descriptor_type(vk::DescriptorType::STORAGE_IMAGE)
            .descriptor_count(self.count)
            .stage_flags(vk_stages(self.stages))
    }
}

/// The units of a compute program as glslang links them: every attached unit must be a compute
/// unit (GL: a program with a compute shader has no other stage).
pub(crate) fn prepare_compute<'a>(
    units: &'a [(Stage, String)],
    for_profile: impl Fn(&'a str) -> std::borrow::Cow<'a, str>,
) -> Result<Prepared, LinkError> {
    if units.iter().any(|(s, _)| *s != Stage::Compute) {
        return Err(LinkError::Log(
            "ERROR: Linking: a program with a compute shader cannot have shaders of other stages\n"
                .into(),
        ));
    }
    // GL: a compute program none of whose units declares a local size does not link.
    if !units.iter().any(|(_, src)| src.contains("local_size_")) {
        return Err(LinkError::Log(
            "ERROR: Linking: no compute shader declares a local work-group size\n".into(),
        ));
    }
    Ok(Prepared {
        sources: units
            .iter()
            .map(|(s, src)| (*s, for_profile(src).into_owned()))
            .collect(),
        frag_epilogue: false,
    })
}

/// The storage and atomic-counter blocks of reflection `r`, with GL's initial binding points
/// `declared` (the application's `layout(binding)`s); refused when a graphics stage uses one
/// without the device feature for stores there, or a stage uses more than it may.
pub(crate) fn storage_block_infos(
    device: &Device,
    r: &Reflection,
    declared: &[(Declared, u32)],
) -> Result<Vec<StorageBlockInfo>, LinkError> {
    let explicit = |name: &str| {
        declared.iter().find_map(|(d, b)| match d {
            Declared::StorageBlock(n) if n == name => Some(*b),
            _ => None,
        })
    };
    let blocks: Vec<StorageBlockInfo> = r
        .storage_blocks
        .iter()
        .map(|b| {
            let atomic_binding = b
                .name
                .strip_prefix(ATOMIC_COUNTER_BLOCK_PREFIX)
                .and_then(|n| n.parse().ok());
            StorageBlockInfo {
                name: b.name.clone(),
                binding: b.binding,
                count: b.array_size.unwrap_or(1).max(1),
                stages: b.stages,
                atomic_binding,
                initial_binding: atomic_binding.or_else(|| explicit(&b.name)).unwrap_or(0),
            }
        })
        .collect();
    check_stage_stores(device, &blocks)?;
    Ok(blocks)
}

/// Refuses storage blocks in graphics stages the device cannot store from, and more blocks in
/// a stage than `GL_MAX_*_SHADER_STORAGE_BLOCKS`.
fn check_stage_stores(device: &Device, blocks: &[StorageBlockInfo]) -> Result<(), LinkError> {
    let gl4 = &device.caps().gl4;
    for stage in [
        Stage::Vertex,
        Stage::TessControl,
        Stage::TessEvaluation,
        Stage::Geometry,
        Stage::Fragment,
        Stage::Compute,
    ] {
        let used: u32 = blocks
            .iter()
            .filter(|b| b.stages.contains(stage))
            .map(|b| b.count)
            .sum();
        if used == 0 {
            continue;
        }
        let allowed = match stage {
            Stage::Compute => true,
            Stage::Fragment => gl4.fragment_stores_and_atomics,
            _ => gl4.vertex_pipeline_stores_and_atomics,
        };
        if !allowed {
            return Err(LinkError::Log(format!(
                "ERROR: Linking: the {stage:?} stage uses shader storage or atomic counters, \
                 which this device cannot write from that stage\n"
            )));
        }
        if used > MAX_STAGE_STORAGE_BLOCKS {
            return Err(LinkError::Log(format!(
                "ERROR: Linking: the {stage:?} stage uses {used} shader storage blocks, more \
                 than GL_MAX_*_SHADER_STORAGE_BLOCKS ({MAX_STAGE_STORAGE_BLOCKS})\n"
            )));
        }
    }
    Ok(())
}

/// The image uniforms of reflection `r`, with GL's initial units `declared`.
pub(crate) fn image_infos(r: &Reflection, declared: &[(Declared, u32)]) -> Vec<ImageInfo> {
    r.images
        .iter()
        .map(|i| ImageInfo {
            name: i.name.clone(),
            binding: i.binding,
            ty: i.ty,
            count: i.array_size.unwrap_or(1).max(1),
            stages: i.stages,
            initial_unit: declared
                .iter()
                .find_map(|(d, b)| matches!(d, Declared::Image(n) if *n == i.name).then_some(*b))
                .unwrap_or(0),
        })
        .collect()
}

/// The extensions of this module the device can take: compute shaders always (Vulkan requires
/// compute queues with graphics), storage buffers and atomic counters where fragment shaders
/// can store (GL requires both in fragment shaders).
pub(crate) fn extensions(device: &Device) -> Vec<&'static str> {
    let mut out = vec!["GL_ARB_compute_shader"];
    if device.caps().gl4.fragment_stores_and_atomics {
        out.push("GL_ARB_shader_storage_buffer_object");
        out.push("GL_ARB_shader_atomic_counters");
        out.push("GL_ARB_shader_image_load_store");
        out.push("GL_ARB_shader_image_size");
    }
    out
}
