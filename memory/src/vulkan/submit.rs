//! The queue, the timeline semaphore (whose value is the epoch) and the recording command
//! buffers. Without timeline semaphores each submission signals a fence instead
//! (`epoch_fences`).
//!
//! Only the manager submits. Command buffers are recycled once the epoch they were submitted in
//! completes; the recording one is begun lazily when a client first asks for it, so an epoch
//! with nothing recorded submits no command buffer at all (just the semaphore signal).

use std::collections::VecDeque;
use std::time::Duration;

use ash::vk;

use crate::error::{MemoryError, Result};
use crate::vulkan::conv::{map_alloc, map_queue};
use crate::vulkan::epoch_fences::EpochFences;
use crate::vulkan::render_pass::RenderPasses;
use crate::Epoch;

pub(crate) struct Submitter {
    device: ash::Device,
    queue: vk::Queue,
    pool: vk::CommandPool,
    /// The timeline semaphore; null when `fences` keeps the epoch clock instead.
    timeline: vk::Semaphore,
    /// Without timeline semaphores: a fence per submitted epoch.
    fences: Option<EpochFences>,
    recording: Option<vk::CommandBuffer>,
    /// The render pass (dynamic rendering) open in `recording`, by id.
    rendering: Option<u64>,
    next_rendering: u64,
    /// Queries (pool, slot) begun inside the open rendering instance. Vulkan requires a query
    /// begun in a render pass instance to end in it, and only the submitter knows when the
    /// instance ends, so it ends them first.
    pass_queries: Vec<(vk::QueryPool, u32)>,
    in_flight: VecDeque<(Epoch, vk::CommandBuffer)>,
    spare: Vec<vk::CommandBuffer>,
    /// Without dynamic rendering: the render passes and framebuffers rendering instances are
    /// turned into (`render_pass`).
    pub(crate) passes: Option<RenderPasses>,
}

impl Submitter {
    /// `dynamic_rendering`: whether rendering instances are begun as dynamic rendering (else
    /// as render passes); `timeline`: whether the epoch clock is a timeline semaphore (else a
    /// fence per epoch).
    pub(crate) fn new(
        device: &ash::Device,
        queue: vk::Queue,
        family: u32,
        dynamic_rendering: bool,
        timeline: bool,
    ) -> Result<Self> {
        let pool_info = vk::CommandPoolCreateInfo::default()
            .queue_family_index(family)
            .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER);
        let mut type_info = vk::SemaphoreTypeCreateInfo::default()
            .semaphore_type(vk::SemaphoreType::TIMELINE)
            .initial_value(0);
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
                fences: (!timeline).then(|| EpochFences::new(device)),
                recording: None,
                rendering: None,
                next_rendering: 1,
                pass_queries: Vec::new(),
                in_flight: VecDeque::new(),
                spare: Vec::new(),
                passes: (!dynamic_rendering).then(|| RenderPasses::new(device)),
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
        Ok(cb)
    }

    /// Ends the open render pass, if any (before transfers, barriers and submission).
    pub(crate) fn end_rendering(&mut self) {
        if let (Some(cb), Some(_)) = (self.recording, self.rendering.take()) {
            for (pool, slot) in self.pass_queries.drain(..) {
                // SAFETY: the query was begun in this rendering instance of `cb` and is active.
                unsafe { self.device.cmd_end_query(cb, pool, slot) };
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
    ) -> Result<()> {
        let cb = match self.rendering() {
            Some((open, cb)) if open == id => cb,
            _ => {
                return Err(MemoryError::InvalidRequest(format!(
                    "a query begun in rendering instance {id}, which is not open"
                )))
            }
        };
        if self.pass_queries.contains(&(pool, slot)) {
            return Err(MemoryError::InvalidRequest(format!(
                "query slot {slot} is already active"
            )));
        }
        // SAFETY: `cb` is recording inside the open instance; the caller reset the slot (host
        // reset) after the epoch that last used it completed, so it is unavailable and inactive.
        unsafe { self.device.cmd_begin_query(cb, pool, slot, flags) };
        self.pass_queries.push((pool, slot));
        Ok(())
    }

    /// Ends a query begun by [`Submitter::begin_pass_query`] if it is still active (its
    /// instance still open); returns whether it was.
    pub(crate) fn end_pass_query(&mut self, pool: vk::QueryPool, slot: u32) -> bool {
        let Some(i) = self.pass_queries.iter().position(|&q| q == (pool, slot)) else {
            return false;
        };
        self.pass_queries.swap_remove(i);
        if let Some(cb) = self.recording {
            // SAFETY: the query is active in the rendering instance open in `cb`.
            unsafe { self.device.cmd_end_query(cb, pool, slot) };
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
        let cb = self.recording()?;
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
    /// those stages run and signalling the binary semaphore `signal` with the timeline.
    pub(crate) fn submit_with_semaphores(
        &mut self,
        epoch: Epoch,
        wait: Option<(vk::Semaphore, vk::PipelineStageFlags)>,
        signal: Option<vk::Semaphore>,
    ) -> Result<()> {
        self.end_rendering();
        let cbs: Vec<vk::CommandBuffer> = self.recording.take().into_iter().collect();
        for &cb in &cbs {
            // SAFETY: `cb` is in the recording state.
            if let Err(r) = unsafe { self.device.end_command_buffer(cb) } {
                self.recycle_one(cb);
                return Err(map_queue("vkEndCommandBuffer", r));
            }
        }
        // The timeline's value is the epoch's raw number. Binary semaphores take no value; the
        // spec ignores the entries given for them.
        let (mut signals, mut signal_values) = match self.fences {
            Some(_) => (Vec::new(), Vec::new()),
            None => (vec![self.timeline], vec![epoch.get()]),
        };
        if let Some(s) = signal {
            signals.push(s);
            signal_values.push(0);
        }
        let fence = match self.fences.as_mut() {
            Some(f) => f.fence()?,
            None => vk::Fence::null(),
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
        // buffers are executable; `epoch` is greater than every value signalled before
        // (the manager's clock only advances).
        let result = unsafe { self.device.queue_submit(self.queue, &[submit], fence) };
        if let Some(f) = self.fences.as_mut() {
            f.submitted(result.is_ok().then_some(epoch), fence);
        }
        if let Err(r) = result {
            for cb in cbs {
                self.recycle_one(cb);
            }
            return Err(map_queue("vkQueueSubmit", r));
        }
        self.in_flight.extend(cbs.into_iter().map(|cb| (epoch, cb)));
        Ok(())
    }

    /// Throws the recording command buffer away unsubmitted (its commands never run).
    pub(crate) fn discard(&mut self) {
        self.end_rendering();
        if let Some(cb) = self.recording.take() {
            // SAFETY: `cb` is recording (never submitted), so it is not pending; ending it
            // first puts it in a state `vkResetCommandBuffer` accepts from any state anyway.
            let _ = unsafe { self.device.end_command_buffer(cb) };
            self.recycle_one(cb);
        }
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
