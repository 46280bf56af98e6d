//! Sync objects (GL 3.3 core §4.1, `GL_ARB_sync`): fences on the manager's epoch timeline.
//!
//! Design decisions:
//! - A fence is the epoch that will contain everything recorded so far (the manager's
//!   recording epoch when `glFenceSync` runs); it is signalled once that epoch completes.
//!   Work recorded into the same epoch after the fence is covered too, which GL allows (a fence
//!   may signal late, never early).
//! - `GLsync` is a pointer-sized handle the application passes back: it is never dereferenced.
//!   Handles are numbers from a counter that never repeats, validated against a table that is
//!   process-wide (in the device's locked state), so a sync made in one context can be waited
//!   on in another, as share groups expect.
//! - Every wait and status query first makes sure the fence's epoch is submitted, so a
//!   zero-timeout polling loop makes progress on its own. A lost device signals every fence:
//!   nothing will ever run again, and an application waiting forever would hang.
//! - `glWaitSync` is a server-side wait. The manager has one queue that executes epochs in
//!   order, so every command after it already runs after the fence's work: it validates and
//!   returns.

use std::collections::HashMap;
use std::time::Duration;

use arenagl_memory::Epoch;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_value, GlError, GlResult};
use crate::gl::context::Context;

/// One fence: the epoch whose completion signals it.
#[derive(Debug, Clone, Copy)]
struct Fence {
    epoch: Epoch,
}

/// Every live sync object, by handle.
#[derive(Debug)]
pub(crate) struct SyncTable {
    fences: HashMap<usize, Fence>,
    next: usize,
}

impl Default for SyncTable {
    fn default() -> Self {
        // Start away from small integers so that a GL name passed by mistake is rejected.
        Self {
            fences: HashMap::new(),
            next: 0x5EC0_0000,
        }
    }
}

impl SyncTable {
    fn insert(&mut self, fence: Fence) -> usize {
        let handle = self.next;
        // Handles are never reused: a deleted handle stays invalid for the process's life.
        self.next = self.next.wrapping_add(1).max(1);
        self.fences.insert(handle, fence);
        handle
    }
}

/// The largest timeout honoured in one wait; longer waits are cut into pieces of this size so
/// `Duration` never overflows and a lost device is noticed.
const WAIT_SLICE: Duration = Duration::from_secs(1);

impl Context {
    /// `glFenceSync`: a fence after everything recorded so far; 0 on error.
    pub fn fence_sync(&mut self, condition: GLenum, flags: u32) -> usize {
        let r = (|| {
            if condition != GL_SYNC_GPU_COMMANDS_COMPLETE {
                return invalid_enum("glFenceSync condition", condition);
            }
            if flags != 0 {
                return invalid_value(format!("glFenceSync flags 0x{flags:x} (must be 0)"));
            }
            // GPU writes to persistent maps are read by the host once the fence signals.
            if self.has_persistent_buffers() {
                self.host_read_barrier()?;
            }
            let mut locked = self.device.lock();
            let epoch = locked.manager.recording_epoch();
            Ok(locked.syncs.insert(Fence { epoch }))
        })();
        self.record(r).unwrap_or(0)
    }

    /// `glIsSync`.
    pub fn is_sync(&mut self, sync: usize) -> bool {
        self.device.lock().syncs.fences.contains_key(&sync)
    }

    /// `glDeleteSync`: 0 is ignored; anything else must be a live sync.
    pub fn delete_sync(&mut self, sync: usize) {
        if sync == 0 {
            return;
        }
        let removed = self.device.lock().syncs.fences.remove(&sync);
        if removed.is_none() {
            self.record::<()>(invalid_value(format!(
                "glDeleteSync: 0x{sync:x} is not a sync object"
            )));
        }
    }

    fn fence(&self, sync: usize, command: &str) -> GlResult<Fence> {
        self.device
            .lock()
            .syncs
            .fences
            .get(&sync)
            .copied()
            .ok_or_else(|| {
                GlError::InvalidValue(format!("{command}: 0x{sync:x} is not a sync object"))
            })
    }

    /// Whether `fence` is signalled, without blocking: submits its epoch if it is still being
    /// recorded (so polling makes progress), then reads the completed epoch.
    fn fence_signalled(&mut self, fence: Fence) -> GlResult<bool> {
        if fence.epoch == self.device.lock().manager.recording_epoch() {
            self.end_pass();
        }
        let mut locked = self.device.lock();
        let m = &mut locked.manager;
        if m.is_lost() {
            return Ok(true);
        }
        if fence.epoch == m.recording_epoch() {
            match m.submit() {
                Ok(_) | Err(arenagl_memory::MemoryError::DeviceLost) => {}
                Err(e) => return Err(e.into()),
            }
        }
        match m.poll() {
            Ok(done) => Ok(m.is_lost() || done >= fence.epoch),
            Err(arenagl_memory::MemoryError::DeviceLost) => Ok(true),
            Err(e) => Err(e.into()),
        }
    }

    /// `glClientWaitSync`.
    pub fn client_wait_sync(&mut self, sync: usize, flags: u32, timeout: u64) -> GLenum {
        let r = (|| {
            let fence = self.fence(sync, "glClientWaitSync")?;
            if flags & !GL_SYNC_FLUSH_COMMANDS_BIT != 0 {
                return invalid_value(format!("glClientWaitSync flags 0x{flags:x}"));
            }
            // The fence's epoch is submitted whether or not GL_SYNC_FLUSH_COMMANDS_BIT is set:
            // a wait on unsubmitted work would never end.
            if self.fence_signalled(fence)? {
                return Ok(GL_ALREADY_SIGNALED);
            }
            if timeout == 0 {
                return Ok(GL_TIMEOUT_EXPIRED);
            }
            let deadline = std::time::Instant::now().checked_add(Duration::from_nanos(timeout));
            loop {
                let left = match deadline {
                    Some(d) => d.saturating_duration_since(std::time::Instant::now()),
                    None => WAIT_SLICE,
                };
                if left.is_zero() {
                    return Ok(GL_TIMEOUT_EXPIRED);
                }
                let slice = left.min(WAIT_SLICE);
                let mut locked = self.device.lock();
                match locked.manager.wait_epoch_for(fence.epoch, slice) {
                    Ok(true) | Err(arenagl_memory::MemoryError::DeviceLost) => {
                        return Ok(GL_CONDITION_SATISFIED)
                    }
                    Ok(false) => {}
                    Err(e) => return Err(e.into()),
                }
            }
        })();
        let status = self.record(r).unwrap_or(GL_WAIT_FAILED);
        if matches!(status, GL_ALREADY_SIGNALED | GL_CONDITION_SATISFIED) {
            self.rewind_idle_staging();
        }
        status
    }

    /// `glWaitSync`: validation only (one in-order queue; see the module docs).
    pub fn wait_sync(&mut self, sync: usize, flags: u32, timeout: u64) {
        let r = (|| {
            self.fence(sync, "glWaitSync")?;
            if flags != 0 {
                return invalid_value(format!("glWaitSync flags 0x{flags:x} (must be 0)"));
            }
            if timeout != GL_TIMEOUT_IGNORED {
                return invalid_value(format!(
                    "glWaitSync timeout {timeout} (must be GL_TIMEOUT_IGNORED)"
                ));
            }
            Ok(())
        })();
        self.record(r);
    }

    /// `glGetSynciv`: the values to write (the C edge truncates them to `bufSize`).
    pub fn get_synciv(&mut self, sync: usize, pname: GLenum, buf_size: i32) -> Vec<i32> {
        let r = (|| {
            let fence = self.fence(sync, "glGetSynciv")?;
            if buf_size < 0 {
                return invalid_value(format!("glGetSynciv bufSize {buf_size}"));
            }
            let v = match pname {
                GL_OBJECT_TYPE => GL_SYNC_FENCE,
                GL_SYNC_CONDITION => GL_SYNC_GPU_COMMANDS_COMPLETE,
                GL_SYNC_FLAGS => 0,
                GL_SYNC_STATUS => {
                    if self.fence_signalled(fence)? {
                        GL_SIGNALED
                    } else {
                        GL_UNSIGNALED
                    }
                }
                p => return invalid_enum("glGetSynciv pname", p),
            };
            Ok(vec![v as i32])
        })();
        self.record(r).unwrap_or_default()
    }
}

/// A fence for EGL (`eglCreateSync`, EGL_KHR_fence_sync): everything the context recorded before
/// it, already submitted, so any thread can wait for it without the context (EGL waits need no
/// current context). It holds its device, which a lost device signals.
#[derive(Clone)]
pub struct DeviceFence {
    device: std::sync::Arc<crate::gl::Device>,
    epoch: Epoch,
}

impl std::fmt::Debug for DeviceFence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceFence")
            .field("epoch", &self.epoch.get())
            .finish()
    }
}

/// The longest an EGL wait holds the device lock at a time: the thread that renders needs it
/// between slices.
const EGL_WAIT_SLICE: Duration = Duration::from_millis(2);

impl Context {
    /// A fence after everything recorded so far, for EGL: the recording is submitted now (as
    /// `glFlush`, and as Mesa does when it creates an EGL fence), so the fence's epoch is one the
    /// queue will reach whoever waits. A submission that fails (out of memory, recorded as the
    /// GL error) discarded its work; the fence then covers what was submitted before it.
    pub fn device_fence(&mut self) -> DeviceFence {
        if self.has_persistent_buffers() {
            let r = self.host_read_barrier();
            self.record(r);
        }
        self.end_pass();
        let device = self.device.clone();
        let submitted = device.lock().manager.submit();
        let epoch = match submitted {
            Ok(epoch) => epoch,
            Err(e) => {
                let epoch = device.lock().manager.submitted_epoch();
                if !matches!(e, arenagl_memory::MemoryError::DeviceLost) {
                    self.record::<()>(Err(e.into()));
                }
                epoch
            }
        };
        DeviceFence { device, epoch }
    }
}

impl DeviceFence {
    /// Whether the fence's work is complete (or the device lost), without blocking beyond a
    /// status read.
    pub fn is_signalled(&self) -> GlResult<bool> {
        if self.device.is_lost() {
            return Ok(true);
        }
        let mut locked = self.device.lock();
        match locked.manager.poll() {
            Ok(done) => Ok(done >= self.epoch),
            Err(arenagl_memory::MemoryError::DeviceLost) => Ok(true),
            Err(e) => Err(e.into()),
        }
    }

    /// Blocks until the fence signals (`Ok(true)`) or `timeout` passes (`Ok(false)`); `None`
    /// waits forever. The device lock is taken in short slices.
    pub fn wait(&self, timeout: Option<Duration>) -> GlResult<bool> {
        if self.is_signalled()? {
            return Ok(true);
        }
        let deadline = timeout.and_then(|t| std::time::Instant::now().checked_add(t));
        let forever = deadline.is_none() && timeout.is_none_or(|t| !t.is_zero());
        loop {
            let left = match deadline {
                Some(d) => d.saturating_duration_since(std::time::Instant::now()),
                None if forever => EGL_WAIT_SLICE,
                None => Duration::ZERO,
            };
            if left.is_zero() {
                return Ok(false);
            }
            let slice = left.min(EGL_WAIT_SLICE);
            let waited = self.device.lock().manager.wait_epoch_for(self.epoch, slice);
            match waited {
                Ok(true) | Err(arenagl_memory::MemoryError::DeviceLost) => return Ok(true),
                Ok(false) => std::thread::yield_now(),
                Err(e) => return Err(e.into()),
            }
        }
    }
}
