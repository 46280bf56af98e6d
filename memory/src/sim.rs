//! A simulated device: the manager's policy with no Vulkan at all.
//!
//! Every buffer and image is its own "device memory object" (as if every allocation were
//! dedicated), sizes are rounded up to 256 bytes, and a heap capacity refuses allocations with
//! out-of-device-memory like a real heap (or VMA's `heap_size_limits`). The GPU is a pair of
//! counters behind [`SimGpu`], which tests advance by hand (`complete_through`) or let `wait`
//! complete; `set_hung` makes waits time out. Every destruction is logged with the completed
//! epoch at that moment, and destroying an object twice is counted, so property tests can check
//! that memory is never reclaimed early and never twice.
//!
//! Submission can run out of memory too, as a driver's `vkQueueSubmit` does (its own result, not
//! an injected one): [`SimGpu::limit_submissions`] refuses a submission of more segments than a
//! limit, or one made while less than some bytes of the heap are free, and the recording is then
//! kept for the manager's submission ladder, as [`Backend::submit`] requires. Tests say how many
//! segments the recording holds with [`SimGpu::record_segments`].

#![deny(unsafe_code, clippy::unwrap_used)]

use std::collections::HashSet;
use std::ptr::NonNull;
use std::time::Duration;

use crate::backend::{AllocInfo, Backend, DeviceLimits, Mapping, Placement};
use crate::desc::{packed_image_bytes, BufferDesc, ImageDesc, SamplerDesc, ViewDesc};
use crate::error::{MemoryError, Result};
use crate::stats::DeviceMemoryCounters;
use crate::sync::{Arc, AtomicU64, Ordering};
use crate::Epoch;

/// Allocation granularity of the simulated heap.
pub const SIM_ALIGNMENT: u64 = 256;

/// The simulated GPU's progress, shared with the test that drives it.
#[derive(Debug, Default)]
pub struct SimGpu {
    submitted: AtomicU64,
    completed: AtomicU64,
    hung: AtomicU64,
    /// Segments of the recording not yet submitted (0 counts as 1).
    segments: AtomicU64,
    /// The most segments one submission may carry (0: no limit).
    max_segments: AtomicU64,
    /// Free heap bytes a submission needs.
    min_free_heap: AtomicU64,
    /// Queue submissions made (a split one counts each part).
    submissions: AtomicU64,
    /// Re-opens to refuse before one succeeds (`Backend::reopen`).
    refuse_reopens: AtomicU64,
    /// Devices opened again after a loss.
    reopens: AtomicU64,
    /// The heap a re-opened device gets (0: the configured one).
    reopened_heap: AtomicU64,
    /// Objects still alive, or destroyed twice, when a simulated device was dropped.
    dropped_with_live: AtomicU64,
}

impl SimGpu {
    /// Completes every submitted epoch up to `epoch`.
    pub fn complete_through(&self, epoch: Epoch) {
        let epoch = epoch.min(self.submitted());
        self.completed.fetch_max(epoch.get(), Ordering::AcqRel);
    }

    /// Makes the next `n` re-opens fail with `NoDevice` (a device that is slow to come back).
    pub fn refuse_reopens(&self, n: u64) {
        self.refuse_reopens.store(n, Ordering::Release);
    }

    /// Gives devices re-opened from now on a heap of `bytes` (0: the configured heap again): a
    /// device that comes back smaller, so re-creating the objects runs out of memory.
    pub fn set_reopened_heap(&self, bytes: u64) {
        self.reopened_heap.store(bytes, Ordering::Release);
    }

    /// Devices opened again after a loss so far.
    pub fn reopens(&self) -> u64 {
        self.reopens.load(Ordering::Acquire)
    }

    /// Objects that were still alive (or destroyed twice) when a simulated device was dropped:
    /// 0 when every device let go of everything it made exactly once.
    pub fn dropped_with_live(&self) -> u64 {
        self.dropped_with_live.load(Ordering::Acquire)
    }

    /// Completes everything submitted.
    pub fn complete_all(&self) {
        self.complete_through(Epoch::MAX);
    }

    /// While hung, `wait` times out instead of completing.
    pub fn set_hung(&self, hung: bool) {
        self.hung.store(u64::from(hung), Ordering::Release);
    }

    /// The recording now holds `n` segments (command buffers).
    pub fn record_segments(&self, n: u64) {
        self.segments.store(n, Ordering::Release);
    }

    /// Submissions fail with out of device memory when they carry more than `max_segments`
    /// segments (0: no limit) or while fewer than `min_free_heap` bytes of the heap are free.
    pub fn limit_submissions(&self, max_segments: u64, min_free_heap: u64) {
        self.max_segments.store(max_segments, Ordering::Release);
        self.min_free_heap.store(min_free_heap, Ordering::Release);
    }

    /// Queue submissions made so far (each part of a split one counts).
    pub fn submissions(&self) -> u64 {
        self.submissions.load(Ordering::Acquire)
    }

    fn segments(&self) -> u64 {
        self.segments.load(Ordering::Acquire).max(1)
    }

    /// The last epoch submitted to the simulated queue.
    pub fn submitted(&self) -> Epoch {
        Epoch::new(self.submitted.load(Ordering::Acquire))
    }

    /// The simulated GPU's completed epoch.
    pub fn completed(&self) -> Epoch {
        Epoch::new(self.completed.load(Ordering::Acquire))
    }
}

/// Configuration of the simulated device.
#[derive(Debug, Clone)]
pub struct SimConfig {
    /// Heap capacity in bytes.
    pub heap_bytes: u64,
    /// Reported limits.
    pub limits: DeviceLimits,
}

impl Default for SimConfig {
    fn default() -> Self {
        Self {
            heap_bytes: 2 << 30,
            limits: DeviceLimits {
                max_memory_allocation_count: 4096,
                max_memory_allocation_size: 1 << 30,
                max_sampler_allocation_count: 4000,
                optimal_buffer_copy_offset_alignment: 4,
                non_coherent_atom_size: 64,
            },
        }
    }
}

/// One destruction, as the simulated device saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SimRelease {
    /// The object's id (see [`SimBuffer::id`]).
    pub id: u64,
    /// The simulated GPU's completed epoch when it was destroyed.
    pub completed_at: Epoch,
}

/// A simulated buffer (host-visible classes carry real bytes).
#[derive(Debug)]
pub struct SimBuffer {
    id: u64,
    size: u64,
    data: Option<Box<[u8]>>,
}

impl SimBuffer {
    /// The id the release log refers to.
    pub fn id(&self) -> u64 {
        self.id
    }
}

/// A simulated image.
#[derive(Debug)]
pub struct SimImage {
    id: u64,
    size: u64,
}

impl SimImage {
    /// The id the release log refers to.
    pub fn id(&self) -> u64 {
        self.id
    }
}

/// A simulated view or sampler.
#[derive(Debug)]
pub struct SimObject {
    id: u64,
}

impl SimObject {
    /// The id the release log refers to.
    pub fn id(&self) -> u64 {
        self.id
    }
}

/// The simulated device.
#[derive(Debug)]
pub struct SimBackend {
    config: SimConfig,
    gpu: Arc<SimGpu>,
    heap_used: u64,
    next_id: u64,
    live_ids: HashSet<u64>,
    counters: DeviceMemoryCounters,
    releases: Vec<SimRelease>,
    double_destroys: u64,
}

impl SimBackend {
    /// A simulated device with `config`.
    pub fn new(config: SimConfig) -> Self {
        Self {
            config,
            gpu: Arc::new(SimGpu::default()),
            heap_used: 0,
            next_id: 1,
            live_ids: HashSet::new(),
            counters: DeviceMemoryCounters::default(),
            releases: Vec::new(),
            double_destroys: 0,
        }
    }

    /// The shared GPU progress handle.
    pub fn gpu(&self) -> Arc<SimGpu> {
        self.gpu.clone()
    }

    /// Every destruction so far, in order.
    pub fn releases(&self) -> &[SimRelease] {
        &self.releases
    }

    /// Objects destroyed more than once (must stay 0).
    pub fn double_destroys(&self) -> u64 {
        self.double_destroys
    }

    /// Bytes in use on the simulated heap.
    pub fn heap_used(&self) -> u64 {
        self.heap_used
    }

    /// Whether the simulated queue accepts a submission of `segments` now.
    fn check_submission(&self, segments: u64) -> Result<()> {
        let max = self.gpu.max_segments.load(Ordering::Acquire);
        let free = self.config.heap_bytes.saturating_sub(self.heap_used);
        if (max != 0 && segments > max) || free < self.gpu.min_free_heap.load(Ordering::Acquire) {
            return Err(MemoryError::OutOfDeviceMemory);
        }
        Ok(())
    }

    /// Queues the (last part of the) recording, signalling `epoch`; the next recording starts
    /// with one segment.
    fn queue(&mut self, epoch: Epoch) {
        self.gpu.submitted.fetch_max(epoch.get(), Ordering::AcqRel);
        self.gpu.submissions.fetch_add(1, Ordering::AcqRel);
        self.gpu.record_segments(1);
    }

    fn new_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.live_ids.insert(id);
        id
    }

    fn allocate(&mut self, size: u64) -> Result<(u64, AllocInfo)> {
        let size = size
            .checked_next_multiple_of(SIM_ALIGNMENT)
            .ok_or(MemoryError::OutOfDeviceMemory)?;
        if self.heap_used.saturating_add(size) > self.config.heap_bytes {
            return Err(MemoryError::OutOfDeviceMemory);
        }
        self.heap_used += size;
        self.counters.live_objects += 1;
        self.counters.allocate_calls += 1;
        self.counters.block_bytes += size;
        let info = AllocInfo {
            size,
            dedicated: true,
            memory_type: 0,
        };
        Ok((self.new_id(), info))
    }

    fn release(&mut self, id: u64, size: Option<u64>) {
        if !self.live_ids.remove(&id) {
            self.double_destroys += 1;
            return;
        }
        if let Some(size) = size {
            self.heap_used = self.heap_used.saturating_sub(size);
            self.counters.live_objects = self.counters.live_objects.saturating_sub(1);
            self.counters.free_calls += 1;
            self.counters.block_bytes = self.counters.block_bytes.saturating_sub(size);
        }
        self.releases.push(SimRelease {
            id,
            completed_at: self.gpu.completed(),
        });
    }
}

impl Backend for SimBackend {
    type Buffer = SimBuffer;
    type Image = SimImage;
    type View = SimObject;
    type Sampler = SimObject;

    fn limits(&self) -> &DeviceLimits {
        &self.config.limits
    }

    fn device_memory(&self) -> DeviceMemoryCounters {
        self.counters
    }

    fn check_image(&self, desc: &ImageDesc) -> Result<()> {
        packed_image_bytes(desc)
            .map(|_| ())
            .ok_or_else(|| MemoryError::Unsupported(format!("format {:?}", desc.format)))
    }

    fn create_buffer(
        &mut self,
        desc: &BufferDesc,
        placement: Placement,
    ) -> Result<(SimBuffer, AllocInfo)> {
        let (id, info) = self.allocate(desc.size)?;
        let data = placement
            .class
            .host_access()
            .then(|| vec![0u8; desc.size as usize].into_boxed_slice());
        Ok((
            SimBuffer {
                id,
                size: info.size,
                data,
            },
            info,
        ))
    }

    fn destroy_buffer(&mut self, buffer: SimBuffer) {
        self.release(buffer.id, Some(buffer.size));
    }

    fn buffer_mapping(&self, buffer: &SimBuffer) -> Option<Mapping> {
        let data = buffer.data.as_ref()?;
        Some(Mapping {
            ptr: NonNull::new(data.as_ptr().cast_mut())?,
            len: data.len(),
            coherent: true,
        })
    }

    fn flush_buffer(&self, _buffer: &SimBuffer, _offset: u64, _len: u64) -> Result<()> {
        Ok(())
    }

    fn invalidate_buffer(&self, _buffer: &SimBuffer, _offset: u64, _len: u64) -> Result<()> {
        Ok(())
    }

    fn create_image(
        &mut self,
        desc: &ImageDesc,
        _placement: Placement,
    ) -> Result<(SimImage, AllocInfo)> {
        let bytes = packed_image_bytes(desc)
            .ok_or_else(|| MemoryError::Unsupported(format!("format {:?}", desc.format)))?;
        let (id, info) = self.allocate(bytes)?;
        Ok((
            SimImage {
                id,
                size: info.size,
            },
            info,
        ))
    }

    fn destroy_image(&mut self, image: SimImage) {
        self.release(image.id, Some(image.size));
    }

    fn create_view(
        &mut self,
        _image: &SimImage,
        _image_desc: &ImageDesc,
        _desc: &ViewDesc,
    ) -> Result<SimObject> {
        Ok(SimObject { id: self.new_id() })
    }

    fn destroy_view(&mut self, view: SimObject) {
        self.release(view.id, None);
    }

    fn create_sampler(&mut self, _desc: &SamplerDesc) -> Result<SimObject> {
        Ok(SimObject { id: self.new_id() })
    }

    fn destroy_sampler(&mut self, sampler: SimObject) {
        self.release(sampler.id, None);
    }

    fn submit(&mut self, epoch: Epoch) -> Result<()> {
        self.check_submission(self.gpu.segments())?;
        self.queue(epoch);
        Ok(())
    }

    fn submit_split(&mut self, epoch: Epoch) -> Result<bool> {
        if self.gpu.segments() < 2 {
            return Ok(false);
        }
        while self.gpu.segments() > 1 {
            self.check_submission(1)?;
            self.gpu.submissions.fetch_add(1, Ordering::AcqRel);
            self.gpu.segments.fetch_sub(1, Ordering::AcqRel);
        }
        self.check_submission(1)?;
        self.queue(epoch);
        Ok(true)
    }

    fn discard_recording(&mut self) {
        self.gpu.record_segments(1);
    }

    fn poll_completed(&mut self) -> Result<Epoch> {
        Ok(self.gpu.completed())
    }

    fn wait(&mut self, epoch: Epoch, _timeout: Duration) -> Result<bool> {
        if self.gpu.hung.load(Ordering::Acquire) != 0 {
            return Ok(self.gpu.completed() >= epoch);
        }
        self.gpu.complete_through(epoch);
        Ok(self.gpu.completed() >= epoch)
    }

    /// A new simulated device on the same GPU counters (what the lost one submitted counts as
    /// done through `completed`), with a fresh heap; ids continue, so the release logs of the
    /// two never share one. Refused while [`SimGpu::refuse_reopens`] has refusals left.
    fn reopen(&self, completed: Epoch) -> Result<Self> {
        let refused =
            self.gpu
                .refuse_reopens
                .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1));
        if refused.is_ok() {
            return Err(MemoryError::NoDevice("simulated: no device yet".into()));
        }
        self.gpu.complete_through(completed);
        self.gpu.reopens.fetch_add(1, Ordering::AcqRel);
        let heap = self.gpu.reopened_heap.load(Ordering::Acquire);
        let mut fresh = Self::new(SimConfig {
            heap_bytes: if heap == 0 {
                self.config.heap_bytes
            } else {
                heap
            },
            ..self.config.clone()
        });
        fresh.gpu = self.gpu.clone();
        fresh.next_id = self.next_id + (1 << 32);
        Ok(fresh)
    }
}

impl Drop for SimBackend {
    fn drop(&mut self) {
        let bad = self.live_ids.len() as u64 + self.double_destroys;
        self.gpu.dropped_with_live.fetch_add(bad, Ordering::AcqRel);
    }
}
