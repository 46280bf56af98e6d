//! The draw side of transform feedback: the mode check, the byte ranges one draw captures
//! into (counted on the CPU, see the module docs), the Vulkan commands around the draw, and the
//! barrier that makes captured bytes visible.

use ash::vk;

use super::{capture_mode, vertices_per_primitive, MAX_BUFFERS};
use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_op, GlError, GlResult};
use crate::gl::context::Context;
use crate::gl::draw::DrawCall;
use crate::gl::objects::program::Linked;
use crate::glsl::Stage;

/// The buffer ranges one draw captures into, one per binding the program writes.
#[derive(Default)]
pub(crate) struct FeedbackDraw {
    bindings: Vec<(u32, vk::Buffer, u64, u64)>,
    /// The counter buffer of each binding (at byte 4 × binding) of a device-counted capture,
    /// and whether the capture resumes from it (false for the first draw).
    counters: Option<(Vec<Option<vk::Buffer>>, bool)>,
}

impl FeedbackDraw {
    /// Binds the ranges and begins transform feedback, capturing from each range's start.
    ///
    /// # Safety
    /// `cb` is recording inside a render pass, after the draw's pipeline is bound (binding a
    /// pipeline is not allowed while transform feedback is active); the buffers are live and
    /// stamped for the recording epoch; `xfb` was loaded for the device `cb` belongs to.
    pub(crate) unsafe fn begin(
        &self,
        xfb: &ash::ext::transform_feedback::Device,
        cb: vk::CommandBuffer,
    ) {
        let fp = xfb.fp();
        for &(index, buffer, offset, size) in &self.bindings {
            // SAFETY: as the caller guarantees; offsets and sizes are multiples of 4 inside
            // the buffer (checked when the range was bound and counted); the three arrays of
            // one element outlive the call.
            unsafe {
                (fp.cmd_bind_transform_feedback_buffers_ext)(cb, index, 1, &buffer, &offset, &size)
            };
        }
        let (buffers, offsets) = self.counter_arrays(true);
        // SAFETY: as above; the arrays (empty: capture starts at each range's start) outlive
        // the call; a counter buffer holds the byte offset an earlier end wrote.
        unsafe {
            (fp.cmd_begin_transform_feedback_ext)(
                cb,
                0,
                buffers.len() as u32,
                buffers.as_ptr(),
                offsets.as_ptr(),
            )
        };
    }

    /// Ends the transform feedback [`FeedbackDraw::begin`] began.
    ///
    /// # Safety
    /// As for `begin`, after it, in the same render pass.
    pub(crate) unsafe fn end(
        &self,
        xfb: &ash::ext::transform_feedback::Device,
        cb: vk::CommandBuffer,
    ) {
        let (buffers, offsets) = self.counter_arrays(false);
        // SAFETY: as the caller guarantees; the arrays outlive the call.
        unsafe {
            (xfb.fp().cmd_end_transform_feedback_ext)(
                cb,
                0,
                buffers.len() as u32,
                buffers.as_ptr(),
                offsets.as_ptr(),
            )
        };
    }

    /// The counter buffers and offsets to begin (`begin`: only when resuming) or end with.
    fn counter_arrays(&self, begin: bool) -> (Vec<vk::Buffer>, Vec<u64>) {
        match &self.counters {
            Some((buffers, resume)) if !begin || *resume => (
                buffers.iter().map(|b| b.unwrap_or_default()).collect(),
                (0..buffers.len() as u64).map(|i| 4 * i).collect(),
            ),
            _ => (Vec::new(), Vec::new()),
        }
    }
}

/// Whether a program's last vertex stage is a geometry or evaluation stage (which decides the
/// captured primitives, not the draw mode).
fn has_later_vertex_stage(linked: &Linked) -> bool {
    linked
        .modules
        .iter()
        .any(|(s, _)| matches!(s, Stage::Geometry | Stage::TessEvaluation))
}

impl Context {
    /// `GL_INVALID_OPERATION` for a draw whose primitives do not feed the active capture's
    /// mode (GL 4.6 §13.2.2).
    pub(crate) fn check_feedback_mode(&self, mode: GLenum, linked: &Linked) -> GlResult<()> {
        let Some(active) = self.xfb.current().active.as_ref().filter(|a| !a.paused) else {
            return Ok(());
        };
        if has_later_vertex_stage(linked) {
            return Ok(());
        }
        if capture_mode(mode) != Some(active.mode) {
            return invalid_op(format!(
                "draw mode 0x{mode:04X} does not match transform feedback mode 0x{:04X}",
                active.mode
            ));
        }
        Ok(())
    }

    /// The ranges a draw captures into, or `None` when no capture is active or nothing fits.
    /// `element` is as for [`Context::primitives_of_draw`].
    pub(crate) fn feedback_for_draw(
        &mut self,
        call: &DrawCall,
        element: Option<(u64, u64, u64)>,
    ) -> GlResult<Option<FeedbackDraw>> {
        let Some(active) = self.xfb.current().active.as_ref().filter(|a| !a.paused) else {
            return Ok(None);
        };
        let program = active.program.clone();
        let Some(layout) = program.xfb.as_ref() else {
            return Ok(None);
        };
        // A geometry or evaluation stage, or an indirect draw: only the device knows the count.
        if has_later_vertex_stage(&program) || call.indirect.is_some() {
            return self.device_counted_draw(&layout.strides).map(Some);
        }
        self.counted_draw(call, element, &layout.strides)
    }

    /// A draw whose captured primitives the CPU counts: the offsets advance by what it writes
    /// (whole primitives that fit in every buffer), and an active
    /// `GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN` query counts them.
    fn counted_draw(
        &mut self,
        call: &DrawCall,
        element: Option<(u64, u64, u64)>,
        strides: &[u32],
    ) -> GlResult<Option<FeedbackDraw>> {
        let per_primitive = self
            .xfb
            .current()
            .active
            .as_ref()
            .map_or(1, |a| vertices_per_primitive(a.mode));
        let generated = self.primitives_of_draw(call, element)?;
        let ranges = self.capture_ranges(strides, true)?;
        let fits = ranges
            .iter()
            .map(|r| r.room / (r.stride * per_primitive))
            .min()
            .unwrap_or(0);
        let primitives = generated.min(fits);
        self.add_primitives_written(primitives);
        if generated > fits {
            // GL_ARB_transform_feedback_overflow_query (`query::overflow`): vertex-only
            // programs capture on stream 0.
            self.mark_overflow(0);
        }
        if let Some(a) = self.xfb.current_mut().active.as_mut() {
            for r in &ranges {
                a.written[r.index] += primitives * per_primitive * r.stride;
            }
            a.vertices += primitives * per_primitive;
        }
        if primitives == 0 {
            return Ok(None);
        }
        let sizes: Vec<u64> = ranges
            .iter()
            .map(|r| primitives * per_primitive * r.stride)
            .collect();
        self.feedback_bindings(&ranges, &sizes, None).map(Some)
    }

    /// A draw whose captured primitives only the device counts: each whole range is bound and
    /// the capture resumes from the active capture's counter buffer, which the draw updates.
    /// (Its primitives are not counted for `GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN`.)
    fn device_counted_draw(&mut self, strides: &[u32]) -> GlResult<FeedbackDraw> {
        let ranges = self.capture_ranges(strides, false)?;
        let sizes: Vec<u64> = ranges.iter().map(|r| r.room).collect();
        let existing = self.xfb.current().active.as_ref().and_then(|a| a.counter);
        let (counter, resume) = match existing {
            Some(h) => (h, true),
            None => {
                let desc = arenagl_memory::BufferDesc::new(
                    (MAX_BUFFERS * 4) as u64,
                    vk::BufferUsageFlags::TRANSFORM_FEEDBACK_COUNTER_BUFFER_EXT
                        | vk::BufferUsageFlags::TRANSFER_SRC,
                    arenagl_memory::MemoryClass::DeviceBuffer,
                    arenagl_memory::Category::Buffer,
                )
                .named("GL transform feedback counters");
                let h = self.device.lock().manager.create_buffer(&desc)?;
                if let Some(a) = self.xfb.current_mut().active.as_mut() {
                    a.counter = Some(h);
                }
                (h, false)
            }
        };
        let raw = self.device.lock().manager.use_buffer(counter)?.raw();
        let counters = strides.iter().map(|&s| (s > 0).then_some(raw)).collect();
        self.feedback_bindings(&ranges, &sizes, Some((counters, resume)))
    }

    /// The draw's bindings: each range's buffer stamped for the epoch, its CPU shadow dropped
    /// (the GPU writes it), and `sizes[i]` bytes of range i.
    fn feedback_bindings(
        &mut self,
        ranges: &[CaptureRange],
        sizes: &[u64],
        counters: Option<(Vec<Option<vk::Buffer>>, bool)>,
    ) -> GlResult<FeedbackDraw> {
        let mut draw = FeedbackDraw {
            counters,
            ..FeedbackDraw::default()
        };
        for (r, &bytes) in ranges.iter().zip(sizes) {
            let b = self.buffers.get_mut(r.buffer).ok_or_else(|| {
                GlError::InvalidOperation("transform feedback buffer gone".into())
            })?;
            b.shadow = None;
            let Some(h) = b.storage else {
                return invalid_op("transform feedback buffer has no storage");
            };
            let raw = self.device.lock().manager.use_buffer(h)?.raw();
            draw.bindings.push((r.index as u32, raw, r.start, bytes));
        }
        if let Some(a) = self.xfb.current_mut().active.as_mut() {
            a.dirty = true;
        }
        Ok(draw)
    }

    /// Each written binding's range: from the next free byte (`advanced`: past what the CPU
    /// counted so far; else from the binding's start) to the range's end.
    fn capture_ranges(&self, strides: &[u32], advanced: bool) -> GlResult<Vec<CaptureRange>> {
        let object = self.xfb.current();
        let written = object
            .active
            .as_ref()
            .map_or([0; MAX_BUFFERS], |a| a.written);
        let mut out = Vec::new();
        for (index, &stride) in strides.iter().enumerate().filter(|(_, s)| **s > 0) {
            let binding = object.bindings[index];
            let size = self
                .buffers
                .get(binding.buffer)
                .map(|b| b.size)
                .ok_or_else(|| {
                    GlError::InvalidOperation(format!(
                        "no buffer bound to transform feedback binding {index}"
                    ))
                })?;
            let end = match binding.size {
                0 => size,
                n => (binding.offset + n).min(size),
            };
            let start = binding.offset + if advanced { written[index] } else { 0 };
            out.push(CaptureRange {
                index,
                buffer: binding.buffer,
                start,
                room: end.saturating_sub(start),
                stride: u64::from(stride),
            });
        }
        Ok(out)
    }

    /// Makes what the capture wrote visible to every later command (vertex fetches, copies,
    /// reads): recorded outside the render pass when a capture ends or pauses after writing.
    pub(crate) fn feedback_barrier(&mut self) -> GlResult<()> {
        let dirty = self
            .xfb
            .current_mut()
            .active
            .as_mut()
            .is_some_and(|a| std::mem::take(&mut a.dirty));
        if !dirty {
            return Ok(());
        }
        self.end_pass();
        let mut locked = self.device.lock();
        let cb = locked.manager.recording_command_buffer()?;
        let barrier = vk::MemoryBarrier::default()
            .src_access_mask(
                vk::AccessFlags::TRANSFORM_FEEDBACK_WRITE_EXT
                    | vk::AccessFlags::TRANSFORM_FEEDBACK_COUNTER_WRITE_EXT,
            )
            .dst_access_mask(vk::AccessFlags::MEMORY_READ | vk::AccessFlags::MEMORY_WRITE);
        // SAFETY: `cb` is the manager's recording command buffer, outside any render pass.
        unsafe {
            locked.manager.device().cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::TRANSFORM_FEEDBACK_EXT,
                vk::PipelineStageFlags::ALL_COMMANDS,
                vk::DependencyFlags::empty(),
                &[barrier],
                &[],
                &[],
            )
        };
        Ok(())
    }
}

/// One binding's part of a draw's capture.
struct CaptureRange {
    index: usize,
    buffer: u32,
    /// Byte offset of the next captured vertex.
    start: u64,
    /// Bytes left in the bound range.
    room: u64,
    /// Bytes per vertex.
    stride: u64,
}
