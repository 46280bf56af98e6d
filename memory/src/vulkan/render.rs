//! Rendering and per-draw data for the GL translator: the render pass scope and the stream.
//!
//! Design decisions:
//! - The manager owns the command buffer, so it also owns the answer to "is a render pass open
//!   in it?". Clients begin dynamic rendering through [`MemoryManager::begin_rendering`] and get
//!   an id; [`MemoryManager::rendering_command_buffer`] gives the command buffer back only while
//!   that same instance is open. Everything that must happen outside a render pass —
//!   transfers, barriers, layout transitions, submission (including the one the OOM ladder
//!   makes in the middle of a client's call) — ends it first. A client that finds its instance
//!   gone simply begins a new one (with load operations that keep the attachments' contents)
//!   and binds its state again: correct by construction, at the cost of a pass break.
//! - Per-draw data the GPU reads once (uniform values, client-side vertex arrays) is written
//!   straight into the current frame's staging arena by [`MemoryManager::stream`] and read in
//!   place — no copy, no extra buffer. The arena's frame slots already guarantee that those
//!   bytes are not rewritten before the submission that reads them completes.

use ash::vk;

use crate::error::{MemoryError, Result};
use crate::stats::Stat;
use crate::vulkan::MemoryManager;

/// Bytes [`MemoryManager::stream`] placed for the GPU: bind `buffer` at `offset`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamRange {
    /// The raw buffer (stamped for the recording epoch; valid until that epoch completes).
    pub buffer: vk::Buffer,
    /// Byte offset of the data in `buffer`.
    pub offset: u64,
}

impl MemoryManager {
    /// Begins a dynamic-rendering instance in the recording command buffer, ending any open one,
    /// and returns its id. The attachments must already be in their attachment layouts.
    pub fn begin_rendering(&mut self, info: &vk::RenderingInfo<'_>) -> Result<u64> {
        if self.is_lost() {
            return Err(MemoryError::DeviceLost);
        }
        let (id, _) = self.backend_mut().submitter.begin_rendering(info)?;
        self.note_recording();
        Ok(id)
    }

    /// Without dynamic rendering: a render pass compatible with the rendering instances that
    /// draw into `colors` (`UNDEFINED`: no attachment at that location) and `depth` (with its
    /// stencil aspect when `stencil`), all of `samples` samples, for graphics pipelines to name.
    /// `None` when the device renders dynamically (pipelines then chain
    /// `VkPipelineRenderingCreateInfo`). The pass lives as long as the manager.
    pub fn compatible_render_pass(
        &mut self,
        colors: &[vk::Format],
        depth: vk::Format,
        stencil: bool,
        samples: vk::SampleCountFlags,
    ) -> Result<Option<vk::RenderPass>> {
        match self.backend_mut().submitter.passes.as_mut() {
            Some(passes) => passes.compatible(colors, depth, stencil, samples).map(Some),
            None => Ok(None),
        }
    }

    /// The recording command buffer, while the rendering instance `id` is still open in it.
    pub fn rendering_command_buffer(&self, id: u64) -> Option<vk::CommandBuffer> {
        match self.backend().submitter.rendering() {
            Some((open, cb)) if open == id && !self.is_lost() => Some(cb),
            _ => None,
        }
    }

    /// Ends the open rendering instance, if any.
    pub fn end_rendering(&mut self) {
        self.backend_mut().submitter.end_rendering();
    }

    /// Begins query `slot` of `pool` (a query pool the client created, its slot reset from
    /// the host) inside the open rendering instance `id`. The query stays active until
    /// [`MemoryManager::end_pass_query`] or until the instance ends, whichever comes first: a
    /// query begun in a render pass must end in it, and only the manager knows when it ends.
    pub fn begin_pass_query(
        &mut self,
        id: u64,
        pool: vk::QueryPool,
        slot: u32,
        flags: vk::QueryControlFlags,
    ) -> Result<()> {
        if self.is_lost() {
            return Err(MemoryError::DeviceLost);
        }
        self.backend_mut()
            .submitter
            .begin_pass_query(id, pool, slot, flags, None)
    }

    /// [`MemoryManager::begin_pass_query`] of a `TRANSFORM_FEEDBACK_STREAM_EXT` query of
    /// vertex stream `stream` (`vkCmdBeginQueryIndexedEXT`; a device with
    /// VK_EXT_transform_feedback).
    pub fn begin_pass_query_indexed(
        &mut self,
        id: u64,
        pool: vk::QueryPool,
        slot: u32,
        stream: u32,
    ) -> Result<()> {
        if self.is_lost() {
            return Err(MemoryError::DeviceLost);
        }
        self.backend_mut().submitter.begin_pass_query(
            id,
            pool,
            slot,
            vk::QueryControlFlags::empty(),
            Some(stream),
        )
    }

    /// Ends a query begun by [`MemoryManager::begin_pass_query`] if it is still active;
    /// returns whether it was (false: its rendering instance already ended it).
    pub fn end_pass_query(&mut self, pool: vk::QueryPool, slot: u32) -> bool {
        self.backend_mut().submitter.end_pass_query(pool, slot)
    }

    /// Writes `data` into the current frame's staging arena, aligned to `align` (a power of
    /// two; the device's uniform-buffer offset alignment is always honoured too), and returns
    /// where the GPU reads it. May create an arena block, which may submit: a client's open
    /// rendering instance may have ended (see the module docs).
    pub fn stream(&mut self, data: &[u8], align: u64) -> Result<StreamRange> {
        if self.is_lost() {
            return Err(MemoryError::DeviceLost);
        }
        if data.is_empty() {
            return Err(MemoryError::InvalidRequest("an empty stream write".into()));
        }
        let device_align = self
            .device_info()
            .vk_limits
            .min_uniform_buffer_offset_alignment
            .max(self.copy_alignment(1)?.get());
        let align = align.max(device_align).max(1);
        if !align.is_power_of_two() {
            return Err(MemoryError::InvalidRequest(format!(
                "stream alignment {align} is not a power of two"
            )));
        }
        let align = std::num::NonZeroU64::new(align).ok_or(MemoryError::Internal("zero align"))?;
        let staged = self.stage(data.len() as u64, align)?;
        self.fill_staged(&staged, |bytes| {
            bytes
                .get_mut(..data.len())
                .ok_or(MemoryError::Internal("staged range shorter than asked"))?
                .copy_from_slice(data);
            Ok(())
        })?;
        self.record_stat(Stat::StagedBytes(data.len() as u64));
        let buffer = self.use_buffer(staged.buffer)?.raw();
        Ok(StreamRange {
            buffer,
            offset: staged.offset,
        })
    }
}

impl MemoryManager {
    /// `glCopyBufferSubData`: records a copy of `size` bytes between two buffers, ordered after
    /// everything recorded before and before everything after.
    pub fn copy_buffer(
        &mut self,
        src: crate::manager::BufferHandle,
        src_offset: u64,
        dst: crate::manager::BufferHandle,
        dst_offset: u64,
        size: u64,
    ) -> Result<()> {
        for (h, off) in [(src, src_offset), (dst, dst_offset)] {
            let info = self.buffer_info(h)?;
            if off.checked_add(size).is_none_or(|end| end > info.desc.size) {
                return Err(MemoryError::InvalidRequest(format!(
                    "copy of {size} bytes at {off} in a buffer of {}",
                    info.desc.size
                )));
            }
        }
        let s = self.use_buffer(src)?.raw();
        let d = self.use_buffer(dst)?.raw();
        let cb = self.recording_command_buffer()?;
        let all = vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::MEMORY_WRITE | vk::AccessFlags::MEMORY_READ)
            .dst_access_mask(vk::AccessFlags::MEMORY_WRITE | vk::AccessFlags::MEMORY_READ);
        let region = vk::BufferCopy {
            src_offset,
            dst_offset,
            size,
        };
        // SAFETY: recording command buffer outside any render pass; both buffers are live,
        // stamped for this epoch, and the ranges were checked above.
        unsafe {
            let dev = self.device();
            dev.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::ALL_COMMANDS,
                vk::PipelineStageFlags::ALL_COMMANDS,
                vk::DependencyFlags::empty(),
                &[all],
                &[],
                &[],
            );
            dev.cmd_copy_buffer(cb, s, d, &[region]);
            dev.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::ALL_COMMANDS,
                vk::PipelineStageFlags::ALL_COMMANDS,
                vk::DependencyFlags::empty(),
                &[all],
                &[],
                &[],
            );
        }
        Ok(())
    }
}
