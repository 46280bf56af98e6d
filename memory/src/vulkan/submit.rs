//! The queue, the timeline semaphore (whose value is the epoch) and the recording command
//! buffers. Without timeline semaphores each submission signals a fence instead
//! (`epoch_fences`).
//!
//! Only the manager submits. Command buffers are recycled once the epoch they were submitted in
//! completes; the recording one is begun lazily when a client first asks for it, so an epoch
//! with nothing recorded submits no command buffer at all (just the semaphore signal).
//!
//! Out of memory at submission (the manager's submission ladder, `docs/memory.md`):
//! - An epoch's recording is a list of *segments*: a rendering instance begun once the current
//!   command buffer holds [`SEGMENT_PASSES`] of them starts a new command buffer (only there:
//!   clients fetch the command buffer again after beginning rendering, and a rendering
//!   instance's command buffer comes from `rendering_command_buffer`). All segments go in one
//!   `vkQueueSubmit`.
//! - When `vkQueueSubmit` reports out of memory, the ended segments are kept (the call leaves
//!   them, and every resource and semaphore they use, untouched), so the manager can free memory
//!   and submit the same commands again, or split them: one submission per segment, in order,
//!   the last signalling the epoch (its signal covers every earlier submission). A split that
//!   fails part-way keeps what was not yet submitted; the binary wait semaphore is waited by
//!   the first part only.

use std::collections::VecDeque;
use std::time::Duration;

use ash::vk;

use crate::error::{MemoryError, Result};
use crate::vulkan::conv::{map_alloc, map_queue};
use crate::vulkan::epoch_fences::EpochFences;
use crate::vulkan::render_pass::{Create2, RenderPasses};
use crate::Epoch;

/// Rendering instances per command buffer before the next one starts a new segment.
pub(crate) const SEGMENT_PASSES: u32 = 8;

pub(crate) struct Submitter {
    device: ash::Device,
    queue: vk::Queue,
    pool: vk::CommandPool,
    /// The timeline semaphore; null when `fences` keeps the epoch clock instead.
    timeline: vk::Semaphore,
    /// Without timeline semaphores: a fence per submitted epoch.
    fences: Option<EpochFences>,
    recording: Option<vk::CommandBuffer>,
    /// Rendering instances begun in `recording`.
    recording_passes: u32,
    /// Ended segments of the recording, oldest first, not yet submitted (also what a submission
    /// that ran out of memory keeps).
    closed: Vec<vk::CommandBuffer>,
    /// Whether a part of a split submission of the recording already waited on the frame's
    /// binary wait semaphore (a binary semaphore is waited once).
    waited: bool,
    /// The render pass (dynamic rendering) open in `recording`, by id.
    rendering: Option<u64>,
    next_rendering: u64,
    /// Queries (pool, slot) begun inside the open rendering instance. Vulkan requires a query
    /// begun in a render pass instance to end in it, and only the submitter knows when the
    /// instance ends, so it ends them first.
    /// The vertex stream of an indexed (transform feedback stream) query.
    pass_queries: Vec<(vk::QueryPool, u32, Option<u32>)>,
    /// VK_EXT_transform_feedback's commands, where the device has the extension.
    xfb: Option<ash::ext::transform_feedback::Device>,
    in_flight: VecDeque<(Epoch, vk::CommandBuffer)>,
    spare: Vec<vk::CommandBuffer>,
    /// Without dynamic rendering: the render passes and framebuffers rendering instances are
    /// turned into (`render_pass`).
    pub(crate) passes: Option<RenderPasses>,
}

impl Submitter {
    /// `dynamic_rendering`: whether rendering instances are begun as dynamic rendering (else
    /// as render passes); `timeline`: whether the epoch clock is a timeline semaphore (else a
    /// fence per epoch); `completed`: the epoch the clock starts at (a device re-opened after a
    /// loss continues the lost one's epochs).
    pub(crate) fn new(
        device: &ash::Device,
        queue: vk::Queue,
        family: u32,
        (dynamic_rendering, timeline): (bool, bool),
        (xfb, create_pass2): (Option<ash::ext::transform_feedback::Device>, Create2),
        completed: Epoch,
    ) -> Result<Self> {
        let pool_info = vk::CommandPoolCreateInfo::default()
            .queue_family_index(family)
            .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER);
        let mut type_info = vk::SemaphoreTypeCreateInfo::default()
            .semaphore_type(vk::SemaphoreType::TIMELINE)
            .initial_value(completed.get());
        let sem_info = vk::SemaphoreCreateInfo::default().push_next(&mut type_info);
        // SAFETY: valid device; the create infos live across the calls; on the second call's
        // failure the first object is destroyed before returning.
        unsafe {
            let pool = device
                .create_command_pool(&pool_info, None)
                .map_err(|r| map_alloc("vkCreateCommandPool", r))?;
            let created = if timeline {
                device.create_semaphore(&sem_info, None)
            } else {
                Ok(vk::Semaphore::null())
            };
            let semaphore = match created {
                Ok(s) => s,
                Err(r) => {
                    device.destroy_command_pool(pool, None);
                    return Err(map_alloc("vkCreateSemaphore", r));
                }
            };
            Ok(Self {
                device: device.clone(),
                queue,
                pool,
                timeline: semaphore,
                fences: (!timeline).then(|| EpochFences::new(device, completed)),
                recording: None,
                recording_passes: 0,
                closed: Vec::new(),
                waited: false,
                rendering: None,
                next_rendering: 1,
                pass_queries: Vec::new(),
                xfb,
                in_flight: VecDeque::new(),
                spare: Vec::new(),
                passes: (!dynamic_rendering).then(|| RenderPasses::new(device, create_pass2)),
            })
        }
    }

    /// The command buffer being recorded, begun if needed.
    pub(crate) fn recording(&mut self) -> Result<vk::CommandBuffer> {
        if let Some(cb) = self.recording {
            return Ok(cb);
        }
        let cb = match self.spare.pop() {
            Some(cb) => cb,
            None => {
                let info = vk::CommandBufferAllocateInfo::default()
                    .command_pool(self.pool)
                    .level(vk::CommandBufferLevel::PRIMARY)
                    .command_buffer_count(1);
                // SAFETY: the pool belongs to this device and is used from this thread only.
                let cbs = unsafe { self.device.allocate_command_buffers(&info) }
                    .map_err(|r| map_alloc("vkAllocateCommandBuffers", r))?;
                cbs.first().copied().ok_or(MemoryError::Internal(
                    "vkAllocateCommandBuffers returned none",
                ))?
            }
        };
        let begin = vk::CommandBufferBeginInfo::default()
            .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
        // SAFETY: `cb` is in the initial state (fresh or reset when recycled).
        if let Err(r) = unsafe { self.device.begin_command_buffer(cb, &begin) } {
            self.spare.push(cb);
            return Err(map_alloc("vkBeginCommandBuffer", r));
        }
        self.recording = Some(cb);
        self.recording_passes = 0;
        Ok(cb)
    }

    /// Ends the recording command buffer into the list of closed segments. A command buffer
    /// that cannot be ended is thrown away with the whole recording.
    fn close_recording(&mut self) -> Result<()> {
        self.end_rendering();
        let Some(cb) = self.recording.take() else {
            return Ok(());
        };
        // SAFETY: `cb` is in the recording state, outside any rendering instance.
        if let Err(r) = unsafe { self.device.end_command_buffer(cb) } {
            self.recycle_one(cb);
            self.discard();
            return Err(map_queue("vkEndCommandBuffer", r));
        }
        self.closed.push(cb);
        Ok(())
    }

    /// Recorded segments not yet submitted (the recording counts as one).
    pub(crate) fn segments(&self) -> usize {
        self.closed.len() + usize::from(self.recording.is_some())
    }

    /// Ends the open render pass, if any (before transfers, barriers and submission).
    pub(crate) fn end_rendering(&mut self) {
        if let (Some(cb), Some(_)) = (self.recording, self.rendering.take()) {
            for (pool, slot, stream) in std::mem::take(&mut self.pass_queries) {
                self.record_end_query(cb, pool, slot, stream);
            }
            // SAFETY: `cb` is recording and the instance begun by `begin_rendering` (a render
            // pass when `passes` is set, else dynamic rendering) is open in it; the queries
            // begun in it were ended above.
            unsafe {
                match self.passes {
                    Some(_) => self.device.cmd_end_render_pass(cb),
                    None => self.device.cmd_end_rendering(cb),
                }
            };
        }
        self.pass_queries.clear();
    }

    /// Begins query `slot` of `pool` inside the open rendering instance `id`; it ends with the
    /// instance unless [`Submitter::end_pass_query`] ends it first.
    pub(crate) fn begin_pass_query(
        &mut self,
        id: u64,
        pool: vk::QueryPool,
        slot: u32,
        flags: vk::QueryControlFlags,
        stream: Option<u32>,
    ) -> Result<()> {
        let cb = match self.rendering() {
            Some((open, cb)) if open == id => cb,
            _ => {
                return Err(MemoryError::InvalidRequest(format!(
                    "a query begun in rendering instance {id}, which is not open"
                )))
            }
        };
        if self.pass_queries.iter().any(|q| (q.0, q.1) == (pool, slot)) {
            return Err(MemoryError::InvalidRequest(format!(
                "query slot {slot} is already active"
            )));
        }
        // `cb` is recording inside the open instance; the caller reset the slot (host reset)
        // after the epoch that last used it completed, so it is unavailable and inactive.
        match (stream, &self.xfb) {
            // SAFETY: as above.
            (None, _) => unsafe { self.device.cmd_begin_query(cb, pool, slot, flags) },
            // SAFETY: as above; an indexed query is a transform feedback stream query of a
            // device with the extension, whose commands `xfb` holds.
            (Some(index), Some(xfb)) => unsafe {
                (xfb.fp().cmd_begin_query_indexed_ext)(cb, pool, slot, flags, index)
            },
            (Some(_), None) => {
                return Err(MemoryError::InvalidRequest(
                    "an indexed query without VK_EXT_transform_feedback".into(),
                ))
            }
        }
        self.pass_queries.push((pool, slot, stream));
        Ok(())
    }

    /// Records the end of an active query (indexed when `stream` is given).
    fn record_end_query(
        &self,
        cb: vk::CommandBuffer,
        pool: vk::QueryPool,
        slot: u32,
        stream: Option<u32>,
    ) {
        match (stream, &self.xfb) {
            // SAFETY: the query is active in the rendering instance open in `cb`, begun by
            // `begin_pass_query` (indexed only with the extension's commands loaded).
            (Some(index), Some(xfb)) => unsafe {
                (xfb.fp().cmd_end_query_indexed_ext)(cb, pool, slot, index)
            },
            // SAFETY: as above.
            _ => unsafe { self.device.cmd_end_query(cb, pool, slot) },
        }
    }

    /// Ends a query begun by [`Submitter::begin_pass_query`] if it is still active (its
    /// instance still open); returns whether it was.
    pub(crate) fn end_pass_query(&mut self, pool: vk::QueryPool, slot: u32) -> bool {
        let Some(i) = self
            .pass_queries
            .iter()
            .position(|q| (q.0, q.1) == (pool, slot))
        else {
            return false;
        };
        let (_, _, stream) = self.pass_queries.swap_remove(i);
        if let Some(cb) = self.recording {
            self.record_end_query(cb, pool, slot, stream);
        }
        true
    }

    /// Begins a dynamic-rendering instance in the recording command buffer (ending any open
    /// one) and returns its id and the command buffer.
    pub(crate) fn begin_rendering(
        &mut self,
        info: &vk::RenderingInfo<'_>,
    ) -> Result<(u64, vk::CommandBuffer)> {
        self.end_rendering();
        if self.recording_passes >= SEGMENT_PASSES {
            self.close_recording()?;
        }
        let cb = self.recording()?;
        self.recording_passes += 1;
        match self.passes.as_mut() {
            Some(passes) => passes.begin(cb, info)?,
            // SAFETY: `cb` is recording outside any render pass; the caller built `info` from
            // live views in attachment layouts.
            None => unsafe { self.device.cmd_begin_rendering(cb, info) },
        }
        let id = self.next_rendering;
        self.next_rendering += 1;
        self.rendering = Some(id);
        Ok((id, cb))
    }

    /// The open render pass's id and command buffer.
    pub(crate) fn rendering(&self) -> Option<(u64, vk::CommandBuffer)> {
        Some((self.rendering?, self.recording?))
    }

    fn recycle_one(&mut self, cb: vk::CommandBuffer) {
        // SAFETY: `cb` is not pending (its epoch completed, or it was never submitted), and the
        // pool allows resetting individual command buffers.
        match unsafe {
            self.device
                .reset_command_buffer(cb, vk::CommandBufferResetFlags::empty())
        } {
            Ok(()) => self.spare.push(cb),
            // SAFETY: as above; a buffer that cannot be reset is freed instead of reused.
            Err(_) => unsafe { self.device.free_command_buffers(self.pool, &[cb]) },
        }
    }

    /// The queue, for presenting (the manager's `present` submits first, then presents).
    pub(crate) fn queue(&self) -> vk::Queue {
        self.queue
    }

    /// Ends the recording command buffer (if any) and submits it, signalling `epoch`.
    pub(crate) fn submit(&mut self, epoch: Epoch) -> Result<()> {
        self.submit_with_semaphores(epoch, None, None)
    }

    /// [`Submitter::submit`], also waiting for the binary semaphore `wait` (at its stage) before
    /// those stages run and signalling the binary semaphore `signal` with the timeline. On out
    /// of memory the ended segments are kept for another attempt.
    pub(crate) fn submit_with_semaphores(
        &mut self,
        epoch: Epoch,
        wait: Option<(vk::Semaphore, vk::PipelineStageFlags)>,
        signal: Option<vk::Semaphore>,
    ) -> Result<()> {
        self.close_recording()?;
        let cbs = std::mem::take(&mut self.closed);
        self.submit_part(epoch, cbs, wait, signal, true)
    }

    /// [`Submitter::submit_with_semaphores`] split: each segment in a submission of its own, in
    /// order, the last one signalling. `Ok(false)` (nothing submitted) for a single segment.
    pub(crate) fn submit_split(
        &mut self,
        epoch: Epoch,
        wait: Option<(vk::Semaphore, vk::PipelineStageFlags)>,
        signal: Option<vk::Semaphore>,
    ) -> Result<bool> {
        self.close_recording()?;
        if self.closed.len() < 2 {
            return Ok(false);
        }
        while self.closed.len() > 1 {
            let cb = self.closed.remove(0);
            self.submit_part(epoch, vec![cb], wait, None, false)?;
        }
        let last = std::mem::take(&mut self.closed);
        self.submit_part(epoch, last, wait, signal, true)?;
        Ok(true)
    }

    /// One `vkQueueSubmit` of `cbs` (ended). `last`: it signals `epoch` (the timeline, or the
    /// epoch's fence) and `signal`; earlier parts signal nothing and are covered by the last
    /// one's signal. `wait` is waited unless an earlier part already did. On out of memory `cbs`
    /// go back to the front of the closed segments; on another failure the recording is
    /// discarded.
    fn submit_part(
        &mut self,
        epoch: Epoch,
        cbs: Vec<vk::CommandBuffer>,
        wait: Option<(vk::Semaphore, vk::PipelineStageFlags)>,
        signal: Option<vk::Semaphore>,
        last: bool,
    ) -> Result<()> {
        let wait = wait.filter(|_| !self.waited);
        // The timeline's value is the epoch's raw number. Binary semaphores take no value; the
        // spec ignores the entries given for them.
        let (mut signals, mut signal_values) = match (last, &self.fences) {
            (true, None) => (vec![self.timeline], vec![epoch.get()]),
            _ => (Vec::new(), Vec::new()),
        };
        if let Some(s) = signal {
            signals.push(s);
            signal_values.push(0);
        }
        let fence = match (last, self.fences.as_mut()) {
            (true, Some(f)) => f.fence()?,
            _ => vk::Fence::null(),
        };
        let (waits, wait_stages, wait_values): (Vec<_>, Vec<_>, Vec<u64>) = match wait {
            Some((s, stage)) => (vec![s], vec![stage], vec![0]),
            None => (Vec::new(), Vec::new(), Vec::new()),
        };
        let mut timeline = vk::TimelineSemaphoreSubmitInfo::default()
            .signal_semaphore_values(&signal_values)
            .wait_semaphore_values(&wait_values);
        let mut submit = vk::SubmitInfo::default()
            .command_buffers(&cbs)
            .wait_semaphores(&waits)
            .wait_dst_stage_mask(&wait_stages)
            .signal_semaphores(&signals);
        if self.fences.is_none() {
            submit = submit.push_next(&mut timeline);
        }
        // SAFETY: the queue is only used from the thread that owns the manager; the command
        // buffers are executable (ended, never submitted: a failed submission leaves them so);
        // `epoch` is greater than every value signalled before (the manager's clock only
        // advances, and only the last part signals it).
        let result = unsafe { self.device.queue_submit(self.queue, &[submit], fence) };
        if let (true, Some(f)) = (last, self.fences.as_mut()) {
            f.submitted(result.is_ok().then_some(epoch), fence);
        }
        match result {
            Ok(()) => {
                self.in_flight.extend(cbs.into_iter().map(|cb| (epoch, cb)));
                self.waited = !last && (self.waited || wait.is_some());
                Ok(())
            }
            Err(
                r @ (vk::Result::ERROR_OUT_OF_DEVICE_MEMORY | vk::Result::ERROR_OUT_OF_HOST_MEMORY),
            ) => {
                self.closed.splice(0..0, cbs);
                Err(map_queue("vkQueueSubmit", r))
            }
            Err(r) => {
                for cb in cbs {
                    self.recycle_one(cb);
                }
                self.discard();
                Err(map_queue("vkQueueSubmit", r))
            }
        }
    }

    /// Throws the recording away unsubmitted, kept segments included (its commands never
    /// run; parts of a split submission already submitted do, and are recycled with the epoch).
    pub(crate) fn discard(&mut self) {
        self.end_rendering();
        if let Some(cb) = self.recording.take() {
            // SAFETY: `cb` is recording (never submitted), so it is not pending; ending it
            // first puts it in a state `vkResetCommandBuffer` accepts from any state anyway.
            let _ = unsafe { self.device.end_command_buffer(cb) };
            self.recycle_one(cb);
        }
        for cb in std::mem::take(&mut self.closed) {
            self.recycle_one(cb);
        }
        self.waited = false;
    }

    /// The completed epoch, without blocking; recycles finished command buffers.
    pub(crate) fn poll(&mut self) -> Result<Epoch> {
        let value = match self.fences.as_mut() {
            Some(f) => f.poll()?,
            // SAFETY: the semaphore belongs to this device.
            None => unsafe { self.device.get_semaphore_counter_value(self.timeline) }
                .map(Epoch::new)
                .map_err(|r| map_queue("vkGetSemaphoreCounterValue", r))?,
        };
        while let Some(&(epoch, cb)) = self.in_flight.front() {
            if epoch > value {
                break;
            }
            self.in_flight.pop_front();
            self.recycle_one(cb);
        }
        Ok(value)
    }

    /// Waits until `epoch` completes or `timeout` passes; `Ok(false)` on timeout.
    pub(crate) fn wait(&mut self, epoch: Epoch, timeout: Duration) -> Result<bool> {
        if let Some(f) = self.fences.as_mut() {
            let done = f.wait(epoch, timeout)?;
            self.poll()?;
            return Ok(done);
        }
        let semaphores = [self.timeline];
        let values = [epoch.get()];
        let info = vk::SemaphoreWaitInfo::default()
            .semaphores(&semaphores)
            .values(&values);
        let nanos = u64::try_from(timeout.as_nanos()).unwrap_or(u64::MAX);
        // SAFETY: the semaphore belongs to this device; the info lives across the call.
        match unsafe { self.device.wait_semaphores(&info, nanos) } {
            Ok(()) => {
                self.poll()?;
                Ok(true)
            }
            Err(vk::Result::TIMEOUT) => Ok(false),
            Err(r) => Err(map_queue("vkWaitSemaphores", r)),
        }
    }
}

impl Drop for Submitter {
    fn drop(&mut self) {
        // SAFETY: the manager waited for the device to go idle (or the device is lost) before
        // dropping the backend, so no command buffer is pending and the semaphore is unused.
        unsafe {
            self.device.destroy_semaphore(self.timeline, None);
            self.device.destroy_command_pool(self.pool, None);
        }
    }
}
