//! The fence-per-epoch fallback: the epoch clock of devices without timeline semaphores
//! (Vulkan 1.1 phones, or `ARENAGL_FORCE_FENCES=1`).
//!
//! Design decisions:
//! - Every submission signals one fence, remembered with the epoch it carries. The completed
//!   epoch is the newest one whose fence, and every older one's, has signalled: submissions on
//!   one queue may finish out of order, and an epoch counts as complete only when everything
//!   before it is (what a timeline's monotonic value gives for free).
//! - Signalled fences are reset and reused; a device has at most the epochs in flight of them.

use std::collections::VecDeque;
use std::time::Duration;

use ash::vk;

use crate::error::Result;
use crate::vulkan::conv::{map_alloc, map_queue};
use crate::Epoch;

pub(crate) struct EpochFences {
    device: ash::Device,
    /// Submitted epochs, oldest first, with their fences.
    pending: VecDeque<(Epoch, vk::Fence)>,
    /// Signalled fences, reset, for later submissions.
    spare: Vec<vk::Fence>,
    completed: Epoch,
}

impl EpochFences {
    /// Fences for epochs after `completed`.
    pub(crate) fn new(device: &ash::Device, completed: Epoch) -> Self {
        EpochFences {
            device: device.clone(),
            pending: VecDeque::new(),
            spare: Vec::new(),
            completed,
        }
    }

    /// An unsignalled fence for the next submission.
    pub(crate) fn fence(&mut self) -> Result<vk::Fence> {
        if let Some(f) = self.spare.pop() {
            return Ok(f);
        }
        let info = vk::FenceCreateInfo::default();
        // SAFETY: valid device; the create info lives across the call.
        unsafe { self.device.create_fence(&info, None) }.map_err(|r| map_alloc("vkCreateFence", r))
    }

    /// `fence` was submitted, signalling `epoch` (or the submission failed: `None` epoch hands
    /// the unsubmitted fence back).
    pub(crate) fn submitted(&mut self, epoch: Option<Epoch>, fence: vk::Fence) {
        match epoch {
            Some(e) => self.pending.push_back((e, fence)),
            None => self.spare.push(fence),
        }
    }

    /// The completed epoch, without blocking.
    pub(crate) fn poll(&mut self) -> Result<Epoch> {
        while let Some(&(epoch, fence)) = self.pending.front() {
            // SAFETY: the fence belongs to this device and was submitted.
            let done = unsafe { self.device.get_fence_status(fence) }
                .map_err(|r| map_queue("vkGetFenceStatus", r))?;
            if !done {
                break;
            }
            // SAFETY: the fence signalled, so no queue operation still refers to it.
            unsafe { self.device.reset_fences(&[fence]) }
                .map_err(|r| map_queue("vkResetFences", r))?;
            self.pending.pop_front();
            self.spare.push(fence);
            self.completed = epoch;
        }
        Ok(self.completed)
    }

    /// Waits until `epoch` completes or `timeout` passes; `Ok(false)` on timeout (or when
    /// `epoch` was never submitted).
    pub(crate) fn wait(&mut self, epoch: Epoch, timeout: Duration) -> Result<bool> {
        let fences: Vec<vk::Fence> = self
            .pending
            .iter()
            .take_while(|(e, _)| *e <= epoch)
            .map(|&(_, f)| f)
            .collect();
        if !fences.is_empty() {
            let nanos = u64::try_from(timeout.as_nanos()).unwrap_or(u64::MAX);
            // SAFETY: the fences belong to this device and were submitted.
            match unsafe { self.device.wait_for_fences(&fences, true, nanos) } {
                Ok(()) => {}
                Err(vk::Result::TIMEOUT) => return Ok(false),
                Err(r) => return Err(map_queue("vkWaitForFences", r)),
            }
        }
        Ok(self.poll()? >= epoch)
    }
}

impl Drop for EpochFences {
    fn drop(&mut self) {
        // SAFETY: the manager waited for the device to go idle (or it is lost) before dropping
        // the backend, so no fence is in use by a queue.
        unsafe {
            for (_, f) in self.pending.drain(..) {
                self.device.destroy_fence(f, None);
            }
            for f in self.spare.drain(..) {
                self.device.destroy_fence(f, None);
            }
        }
    }
}
