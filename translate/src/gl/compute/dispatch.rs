//! `glDispatchCompute` and `glDispatchComputeIndirect`.
//!
//! A dispatch runs like a draw without a render pass: validation, the program's resources
//! (pipeline, default block, samplers, uniform and storage blocks) under one device lock, the
//! descriptor sets (`draw::descriptors`), then the commands — a barrier, the binds, the dispatch
//! and a barrier (see `barrier`) — in the manager's command buffer outside any pass.

use ash::vk;

use crate::gl::compute::barrier::{
    global_barrier, ALL_WRITES, COMPUTE_WRITES, DISPATCH_ACCESS, LATER_ACCESS,
};
use crate::gl::compute::pipeline::compute_pipeline;
use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_op, invalid_value, GlError, GlResult};
use crate::gl::context::Context;
use crate::gl::draw::descriptors::{DescriptorSets, Set0Infos};
use crate::gl::draw::validate::DrawProgram;
use crate::gl::objects::texture::target::TexTarget;

/// Where a dispatch's work-group counts come from.
#[derive(Clone, Copy, Debug)]
enum Groups {
    Direct([u32; 3]),
    /// A byte offset into the `GL_DISPATCH_INDIRECT_BUFFER`.
    Indirect(i64),
}

/// The indirect source a dispatch reads: (buffer handle, offset).
type IndirectSource = (arenagl_memory::BufferHandle, u64);

impl Context {
    /// `glDispatchCompute`.
    pub fn dispatch_compute(&mut self, x: u32, y: u32, z: u32) {
        let r = self.dispatch(Groups::Direct([x, y, z]));
        self.record(r);
    }

    /// `glDispatchComputeIndirect`.
    pub fn dispatch_compute_indirect(&mut self, offset: i64) {
        let r = self.dispatch(Groups::Indirect(offset));
        self.record(r);
    }

    fn dispatch(&mut self, groups: Groups) -> GlResult<()> {
        let program = self.compute_program()?;
        let indirect = match groups {
            Groups::Direct(counts) => {
                self.check_group_counts(counts)?;
                if counts.contains(&0) {
                    return Ok(());
                }
                None
            }
            Groups::Indirect(offset) => Some(self.indirect_source(offset)?),
        };
        self.end_pass();
        let (pipeline, infos, default_range) = self.dispatch_resources(&program)?;
        let sets = self.program_descriptor_sets(&program.linked, &infos, default_range)?;
        self.record_dispatch(&program, pipeline, sets, groups, indirect)
    }

    /// The current program (with none, the bound program pipeline's compute program), which
    /// must be a linked compute program.
    fn compute_program(&self) -> GlResult<DrawProgram> {
        let name = match self.program {
            0 => self.pipeline_compute_program(),
            current => current,
        };
        let p = self
            .programs
            .get(name)
            .filter(|_| name != 0)
            .ok_or_else(|| GlError::InvalidOperation("dispatch with no current program".into()))?;
        let linked = p.linked("glDispatchCompute")?;
        if !linked.is_compute() {
            return invalid_op("dispatch: the current program has no compute shader");
        }
        Ok(DrawProgram {
            linked: linked.clone(),
            uniform_data: p.uniform_data.clone(),
            sampler_units: p.sampler_units.clone(),
            block_bindings: p.block_bindings.clone(),
            storage_bindings: p.storage_bindings.clone(),
            image_units: p.image_units.clone(),
        })
    }

    /// `GL_INVALID_VALUE` for a count over `GL_MAX_COMPUTE_WORK_GROUP_COUNT`.
    fn check_group_counts(&self, counts: [u32; 3]) -> GlResult<()> {
        let max = self.device.caps().limits.max_compute_work_group_count;
        if let Some(axis) = (0..3).find(|&i| counts[i] > max[i]) {
            return invalid_value(format!(
                "work group count {} on axis {axis} exceeds GL_MAX_COMPUTE_WORK_GROUP_COUNT ({})",
                counts[axis], max[axis]
            ));
        }
        Ok(())
    }

    /// The buffer and offset an indirect dispatch reads: the offset must be non-negative and a
    /// multiple of 4 (`GL_INVALID_VALUE`), and a buffer must be bound with the 12 bytes there
    /// (`GL_INVALID_OPERATION`).
    fn indirect_source(&self, offset: i64) -> GlResult<IndirectSource> {
        if offset < 0 || offset % 4 != 0 {
            return invalid_value(format!("glDispatchComputeIndirect offset {offset}"));
        }
        let name = self
            .generic_bindings
            .get(&GL_DISPATCH_INDIRECT_BUFFER)
            .copied()
            .unwrap_or(0);
        let buffer = self.buffers.get(name).filter(|_| name != 0);
        let Some((handle, size)) = buffer.and_then(|b| Some((b.storage?, b.size))) else {
            return invalid_op("glDispatchComputeIndirect with no GL_DISPATCH_INDIRECT_BUFFER");
        };
        if offset as u64 + 12 > size {
            return invalid_op(format!(
                "glDispatchComputeIndirect reads 12 bytes at {offset} of a {size}-byte buffer"
            ));
        }
        Ok((handle, offset as u64))
    }

    /// The pipeline and everything set 0 and set 1 are written with.
    fn dispatch_resources(
        &mut self,
        program: &DrawProgram,
    ) -> GlResult<(vk::Pipeline, Set0Infos, Option<arenagl_memory::StreamRange>)> {
        let linked = &program.linked;
        let mut dummies = Vec::with_capacity(linked.samplers.len());
        for s in &linked.samplers {
            dummies.push(self.dummy_texture(TexTarget::of_sampler(s.ty.dim), s.ty.kind)?);
        }
        let device = self.device.clone();
        let mut locked = device.lock();
        let pipeline = compute_pipeline(&mut locked, device.pipeline_cache(), linked)?;
        let default_range = if linked.default_block_size > 0 {
            Some(locked.manager.stream(&program.uniform_data, 256)?)
        } else {
            None
        };
        let (images, texels) =
            self.sampler_descriptors(&mut locked, &device, program, &dummies, &[])?;
        let buffers = self.uniform_block_descriptors(&mut locked, program)?;
        let storage = self.storage_descriptors(&mut locked, program)?;
        let storage_images = self.storage_image_descriptors(&mut locked, program)?;
        let infos = Set0Infos {
            images,
            buffers,
            texels,
            storage,
            storage_images,
        };
        Ok((pipeline, infos, default_range))
    }

    /// Records the barrier, binds, dispatch and barrier.
    fn record_dispatch(
        &mut self,
        program: &DrawProgram,
        pipeline: vk::Pipeline,
        sets: DescriptorSets,
        groups: Groups,
        indirect: Option<IndirectSource>,
    ) -> GlResult<()> {
        // Active pipeline statistics queries count the dispatch (`query::statistics`).
        let statistics = self.dispatch_statistics()?;
        let device = self.device.clone();
        let mut locked = device.lock();
        let indirect = match indirect {
            Some((handle, offset)) => Some((locked.manager.use_buffer(handle)?.raw(), offset)),
            None => None,
        };
        let cb = locked.manager.recording_command_buffer()?;
        let raw = device.raw();
        let layout = program.linked.pipeline_layout;
        let bind = vk::PipelineBindPoint::COMPUTE;
        // SAFETY: `cb` is the manager's recording command buffer outside any render pass
        // (fetching it ended the open one); the pipeline, layout and sets are live, made for
        // this program, and every resource they name was used for the recording epoch.
        unsafe {
            global_barrier(raw, cb, ALL_WRITES, DISPATCH_ACCESS);
            raw.cmd_bind_pipeline(cb, bind, pipeline);
            if let Some(set0) = sets.set0 {
                raw.cmd_bind_descriptor_sets(cb, bind, layout, 0, &[set0], &[]);
            }
            if let Some((set1, offset)) = sets.set1 {
                raw.cmd_bind_descriptor_sets(cb, bind, layout, 1, &[set1], &[offset]);
            }
            // The statistics slot was reset (from the host, or by a command recorded before
            // `cb` was fetched) and is begun and ended outside any render pass.
            if let Some((pool, index)) = statistics {
                raw.cmd_begin_query(cb, pool, index, vk::QueryControlFlags::empty());
            }
            match (groups, indirect) {
                (_, Some((buffer, offset))) => raw.cmd_dispatch_indirect(cb, buffer, offset),
                (Groups::Direct([x, y, z]), None) => raw.cmd_dispatch(cb, x, y, z),
                (Groups::Indirect(_), None) => {}
            }
            if let Some((pool, index)) = statistics {
                raw.cmd_end_query(cb, pool, index);
            }
            global_barrier(raw, cb, COMPUTE_WRITES, LATER_ACCESS);
        }
        Ok(())
    }
}
