//! The `glGet` limits and bindings of compute shaders, shader storage and atomic counters, and
//! the program queries they add.
//!
//! Design decisions:
//! - Work-group counts and sizes, invocations and shared memory are the device's Vulkan limits
//!   (clamped to `GLint`), so a dispatch GL accepts is one Vulkan accepts.
//! - A graphics stage reports storage blocks and atomic counters only where the device can
//!   store from it (`fragmentStoresAndAtomics`, `vertexPipelineStoresAndAtomics`); 0 otherwise,
//!   which GL allows for every stage but the fragment stage.

use crate::gl::compute::image_unit::MAX_IMAGE_UNITS;
use crate::gl::compute::{MAX_ATOMIC_BINDINGS, MAX_STAGE_STORAGE_BLOCKS, MAX_STORAGE_BINDINGS};
use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_op, invalid_value, GlResult};
use crate::gl::context::get::Value;
use crate::gl::context::Context;
use crate::gl::objects::program::Linked;

/// `GL_MAX_COMPUTE_UNIFORM_BLOCKS` (as for the other stages).
const MAX_COMPUTE_UNIFORM_BLOCKS: i64 = 12;
/// `GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS`.
const MAX_COMPUTE_TEXTURE_IMAGE_UNITS: i64 = 16;
/// `GL_MAX_COMPUTE_UNIFORM_COMPONENTS`.
const MAX_COMPUTE_UNIFORM_COMPONENTS: i64 = 1024;
/// `GL_MAX_{stage}_ATOMIC_COUNTERS` and `_ATOMIC_COUNTER_BUFFERS` of a stage that stores.
const MAX_STAGE_ATOMICS: i64 = 8;
/// `GL_MAX_ATOMIC_COUNTER_BUFFER_SIZE` (glslang's resource limit).
const MAX_ATOMIC_COUNTER_BUFFER_SIZE: i64 = 16384;
/// `GL_MAX_COMBINED_SHADER_OUTPUT_RESOURCES` (glslang's resource limit).
const MAX_COMBINED_SHADER_OUTPUT_RESOURCES: i64 = 24;

fn int(v: i64) -> GlResult<Value> {
    Ok(Value::Ints(vec![v]))
}

fn clamp_int(v: u32) -> i64 {
    i64::from(v.min(i32::MAX as u32))
}

impl Context {
    /// Per-stage storage-block and atomic limits: `(graphics vertex-pipeline stage?, fragment?)`
    /// answer the stage's figure, or 0 where the device cannot store there.
    fn stage_store_limit(&self, vertex_pipeline: bool, figure: i64) -> i64 {
        let gl4 = &self.device.caps().gl4;
        let stores = if vertex_pipeline {
            gl4.vertex_pipeline_stores_and_atomics
        } else {
            gl4.fragment_stores_and_atomics
        };
        if stores {
            figure
        } else {
            0
        }
    }

    /// How many stages (of vertex pipeline, fragment, compute) may use storage.
    fn storing_stages(&self) -> i64 {
        let gl4 = &self.device.caps().gl4;
        1 + 4 * i64::from(gl4.vertex_pipeline_stores_and_atomics)
            + i64::from(gl4.fragment_stores_and_atomics)
    }

    /// This module's `glGet` pnames (None: not one of them).
    pub(crate) fn get_compute(&self, pname: GLenum) -> Option<GlResult<Value>> {
        let l = &self.device.caps().limits;
        let blocks = i64::from(MAX_STAGE_STORAGE_BLOCKS);
        Some(match pname {
            GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS => {
                int(clamp_int(l.max_compute_work_group_invocations))
            }
            GL_MAX_COMPUTE_SHARED_MEMORY_SIZE => int(clamp_int(l.max_compute_shared_memory_size)),
            GL_MAX_COMPUTE_UNIFORM_BLOCKS => int(MAX_COMPUTE_UNIFORM_BLOCKS),
            GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS => int(MAX_COMPUTE_TEXTURE_IMAGE_UNITS),
            GL_MAX_COMPUTE_UNIFORM_COMPONENTS => int(MAX_COMPUTE_UNIFORM_COMPONENTS),
            GL_MAX_COMBINED_COMPUTE_UNIFORM_COMPONENTS => int(MAX_COMPUTE_UNIFORM_COMPONENTS
                + MAX_COMPUTE_UNIFORM_BLOCKS * i64::from(l.max_uniform_buffer_range.min(65536))
                    / 4),
            GL_MAX_COMPUTE_IMAGE_UNIFORMS => int(8),
            GL_MAX_COMPUTE_ATOMIC_COUNTERS | GL_MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS => {
                int(MAX_STAGE_ATOMICS)
            }
            GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS => int(blocks),
            GL_MAX_VERTEX_SHADER_STORAGE_BLOCKS
            | GL_MAX_GEOMETRY_SHADER_STORAGE_BLOCKS
            | GL_MAX_TESS_CONTROL_SHADER_STORAGE_BLOCKS
            | GL_MAX_TESS_EVALUATION_SHADER_STORAGE_BLOCKS => {
                int(self.stage_store_limit(true, blocks))
            }
            GL_MAX_FRAGMENT_SHADER_STORAGE_BLOCKS => int(self.stage_store_limit(false, blocks)),
            GL_MAX_COMBINED_SHADER_STORAGE_BLOCKS => int(blocks * self.storing_stages()),
            GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS => int(MAX_STORAGE_BINDINGS as i64),
            GL_MAX_SHADER_STORAGE_BLOCK_SIZE => int(clamp_int(l.max_storage_buffer_range)),
            GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT => int(self.storage_offset_alignment()),
            GL_MAX_COMBINED_SHADER_OUTPUT_RESOURCES => int(MAX_COMBINED_SHADER_OUTPUT_RESOURCES),
            GL_MAX_VERTEX_ATOMIC_COUNTERS
            | GL_MAX_TESS_CONTROL_ATOMIC_COUNTERS
            | GL_MAX_TESS_EVALUATION_ATOMIC_COUNTERS
            | GL_MAX_GEOMETRY_ATOMIC_COUNTERS
            | GL_MAX_VERTEX_ATOMIC_COUNTER_BUFFERS
            | GL_MAX_TESS_CONTROL_ATOMIC_COUNTER_BUFFERS
            | GL_MAX_TESS_EVALUATION_ATOMIC_COUNTER_BUFFERS
            | GL_MAX_GEOMETRY_ATOMIC_COUNTER_BUFFERS => {
                int(self.stage_store_limit(true, MAX_STAGE_ATOMICS))
            }
            GL_MAX_FRAGMENT_ATOMIC_COUNTERS | GL_MAX_FRAGMENT_ATOMIC_COUNTER_BUFFERS => {
                int(self.stage_store_limit(false, MAX_STAGE_ATOMICS))
            }
            GL_MAX_COMBINED_ATOMIC_COUNTERS => {
                int((MAX_STAGE_ATOMICS * self.storing_stages()).min(32))
            }
            GL_MAX_COMBINED_ATOMIC_COUNTER_BUFFERS | GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS => {
                int(MAX_ATOMIC_BINDINGS as i64)
            }
            GL_MAX_ATOMIC_COUNTER_BUFFER_SIZE => int(MAX_ATOMIC_COUNTER_BUFFER_SIZE),
            GL_MAX_IMAGE_UNITS
            | GL_MAX_FRAGMENT_IMAGE_UNIFORMS
            | GL_MAX_COMBINED_IMAGE_UNIFORMS => int(MAX_IMAGE_UNITS as i64),
            GL_MAX_VERTEX_IMAGE_UNIFORMS
            | GL_MAX_TESS_CONTROL_IMAGE_UNIFORMS
            | GL_MAX_TESS_EVALUATION_IMAGE_UNIFORMS
            | GL_MAX_GEOMETRY_IMAGE_UNIFORMS
            | GL_MAX_IMAGE_SAMPLES => int(0),
            GL_DISPATCH_INDIRECT_BUFFER_BINDING
            | GL_SHADER_STORAGE_BUFFER_BINDING
            | GL_ATOMIC_COUNTER_BUFFER_BINDING => {
                let target = match pname {
                    GL_DISPATCH_INDIRECT_BUFFER_BINDING => GL_DISPATCH_INDIRECT_BUFFER,
                    GL_SHADER_STORAGE_BUFFER_BINDING => GL_SHADER_STORAGE_BUFFER,
                    _ => GL_ATOMIC_COUNTER_BUFFER,
                };
                int(i64::from(
                    self.generic_bindings.get(&target).copied().unwrap_or(0),
                ))
            }
            _ => return None,
        })
    }

    /// This module's indexed `glGet` pnames (None: not one of them).
    pub(crate) fn get_compute_indexed(&self, pname: GLenum, index: u32) -> Option<GlResult<Value>> {
        let l = &self.device.caps().limits;
        let axis = |v: [u32; 3]| match v.get(index as usize) {
            Some(&n) => int(clamp_int(n)),
            None => invalid_value(format!("index {index} for 0x{pname:04X}")),
        };
        Some(match pname {
            GL_MAX_COMPUTE_WORK_GROUP_COUNT => axis(l.max_compute_work_group_count),
            GL_MAX_COMPUTE_WORK_GROUP_SIZE => axis(l.max_compute_work_group_size),
            GL_SHADER_STORAGE_BUFFER_BINDING
            | GL_SHADER_STORAGE_BUFFER_START
            | GL_SHADER_STORAGE_BUFFER_SIZE => {
                self.indexed_storage(GL_SHADER_STORAGE_BUFFER, pname, index)
            }
            GL_ATOMIC_COUNTER_BUFFER_BINDING
            | GL_ATOMIC_COUNTER_BUFFER_START
            | GL_ATOMIC_COUNTER_BUFFER_SIZE => {
                self.indexed_storage(GL_ATOMIC_COUNTER_BUFFER, pname, index)
            }
            _ => return self.image_unit_indexed(pname, index),
        })
    }

    /// `glGetIntegeri_v` of a storage or atomic-counter binding point.
    fn indexed_storage(&self, target: GLenum, pname: GLenum, index: u32) -> GlResult<Value> {
        let Some(b) = self.storage_binding(target, index) else {
            return invalid_value(format!("index {index} for 0x{pname:04X}"));
        };
        int(match pname {
            GL_SHADER_STORAGE_BUFFER_BINDING | GL_ATOMIC_COUNTER_BUFFER_BINDING => {
                i64::from(b.buffer)
            }
            GL_SHADER_STORAGE_BUFFER_START | GL_ATOMIC_COUNTER_BUFFER_START => b.offset as i64,
            _ => b.size as i64,
        })
    }
}

/// `glGetProgramiv` pnames of this module (None: not one of them). `GL_COMPUTE_WORK_GROUP_SIZE`
/// answers its first component here; the C edge writes all three
/// ([`Context::compute_work_group_size`]).
pub(crate) fn program_param(linked: Option<&Linked>, pname: GLenum) -> Option<GlResult<i32>> {
    Some(match pname {
        GL_COMPUTE_WORK_GROUP_SIZE => work_group_size(linked).map(|s| s[0] as i32),
        GL_ACTIVE_ATOMIC_COUNTER_BUFFERS => Ok(linked.map_or(0, |l| {
            l.storage_blocks
                .iter()
                .filter(|b| b.atomic_binding.is_some())
                .count() as i32
        })),
        _ => return None,
    })
}

/// A linked compute program's local size; `GL_INVALID_OPERATION` otherwise.
fn work_group_size(linked: Option<&Linked>) -> GlResult<[u32; 3]> {
    match linked.and_then(|l| l.local_size) {
        Some(size) => Ok(size),
        None => invalid_op(
            "GL_COMPUTE_WORK_GROUP_SIZE of a program that is not a linked compute program",
        ),
    }
}

impl Context {
    /// `glGetProgramiv(program, GL_COMPUTE_WORK_GROUP_SIZE)`: all three components.
    pub fn compute_work_group_size(&mut self, program: u32) -> Option<[i32; 3]> {
        let r = self
            .program_ref(program)
            .and_then(|p| work_group_size(p.linked.as_deref()))
            .map(|s| s.map(|v| v as i32));
        self.record(r)
    }
}

/// Refuses a local size over the device's limits (GL: a compile or link error).
pub(crate) fn check_local_size(
    device: &crate::gl::vk::device::Device,
    size: Option<[u32; 3]>,
) -> Result<(), crate::gl::objects::program::LinkError> {
    let Some(size) = size else {
        return Ok(());
    };
    let l = &device.caps().limits;
    let total = size.iter().map(|&n| u64::from(n)).product::<u64>();
    let over_axis = size
        .iter()
        .zip(l.max_compute_work_group_size)
        .any(|(&n, max)| n > max);
    if over_axis || total > u64::from(l.max_compute_work_group_invocations) {
        return Err(crate::gl::objects::program::LinkError::Log(format!(
            "ERROR: Linking: local size {size:?} exceeds GL_MAX_COMPUTE_WORK_GROUP_SIZE {:?} or \
             GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS {}\n",
            l.max_compute_work_group_size, l.max_compute_work_group_invocations
        )));
    }
    Ok(())
}
