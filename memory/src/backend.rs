//! The device seam: what the manager needs from a device, implemented by Vulkan
//! ([`crate::vulkan::VulkanBackend`]) and by a simulation ([`crate::sim::SimBackend`]).
//!
//! The manager holds all policy (handles, epochs, the retire queue, the OOM ladder, the
//! allocation-count cap, fault injection, statistics); a backend only creates and destroys raw
//! objects, submits, and reports completion. That split is what lets the policy run under proptest
//! and loom with no Vulkan at all.

#![deny(unsafe_code, clippy::unwrap_used)]

use std::ptr::NonNull;
use std::time::Duration;

use crate::desc::{BufferDesc, ImageDesc, MemoryClass, SamplerDesc, ViewDesc};
use crate::error::Result;
use crate::stats::DeviceMemoryCounters;
use crate::Epoch;

/// Device limits the manager validates requests against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceLimits {
    /// `maxMemoryAllocationCount` as reported (MoltenVK reports 2^30, which is not true).
    pub max_memory_allocation_count: u32,
    /// `maxMemoryAllocationSize`.
    pub max_memory_allocation_size: u64,
    /// `maxSamplerAllocationCount`.
    pub max_sampler_allocation_count: u32,
    /// `optimalBufferCopyOffsetAlignment`.
    pub optimal_buffer_copy_offset_alignment: u64,
    /// `nonCoherentAtomSize`.
    pub non_coherent_atom_size: u64,
}

/// Where an allocation should be placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// The pool.
    pub class: MemoryClass,
    /// Whether it gets its own `VkDeviceMemory`.
    pub dedicated: bool,
}

/// What the backend reports about a fresh allocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AllocInfo {
    /// Bytes the allocation occupies (at least the requested size).
    pub size: u64,
    /// Whether it owns a dedicated `VkDeviceMemory`.
    pub dedicated: bool,
    /// The memory type index it was placed in.
    pub memory_type: u32,
}

/// A CPU mapping of a host-visible allocation.
#[derive(Debug, Clone, Copy)]
pub struct Mapping {
    /// Start of the mapped bytes; valid for `len` bytes while the allocation lives.
    pub ptr: NonNull<u8>,
    /// Mapped length.
    pub len: usize,
    /// Whether writes need an explicit flush (and reads an invalidate).
    pub coherent: bool,
}

/// The operations the manager needs from a device.
pub trait Backend {
    /// A raw buffer with its memory.
    type Buffer;
    /// A raw image with its memory.
    type Image;
    /// A raw image view.
    type View;
    /// A raw sampler.
    type Sampler;

    /// Limits to validate requests against.
    fn limits(&self) -> &DeviceLimits;
    /// Device-memory counters (live objects, `vkAllocateMemory` calls, block bytes).
    fn device_memory(&self) -> DeviceMemoryCounters;
    /// `VK_EXT_memory_budget`'s budget for the heap allocations come from, read now; `None`
    /// where the device has no such figure.
    fn heap_budget(&self) -> Option<u64> {
        None
    }

    /// Checks that the device supports `desc` (format, usage, extent, samples).
    fn check_image(&self, desc: &ImageDesc) -> Result<()>;

    /// Creates a buffer and its memory.
    fn create_buffer(
        &mut self,
        desc: &BufferDesc,
        placement: Placement,
    ) -> Result<(Self::Buffer, AllocInfo)>;
    /// Destroys a buffer and frees its memory. The manager calls this only after every
    /// submission that used it has completed.
    fn destroy_buffer(&mut self, buffer: Self::Buffer);
    /// The CPU mapping of a host-visible buffer, if it has one.
    fn buffer_mapping(&self, buffer: &Self::Buffer) -> Option<Mapping>;
    /// Makes CPU writes to `offset..offset + len` visible to the device (non-coherent memory).
    fn flush_buffer(&self, buffer: &Self::Buffer, offset: u64, len: u64) -> Result<()>;
    /// Makes device writes to `offset..offset + len` visible to the CPU (non-coherent memory).
    fn invalidate_buffer(&self, buffer: &Self::Buffer, offset: u64, len: u64) -> Result<()>;

    /// Creates an image and its memory.
    fn create_image(
        &mut self,
        desc: &ImageDesc,
        placement: Placement,
    ) -> Result<(Self::Image, AllocInfo)>;
    /// Destroys an image and frees its memory (same rule as buffers).
    fn destroy_image(&mut self, image: Self::Image);

    /// Creates a view of `image`.
    fn create_view(
        &mut self,
        image: &Self::Image,
        image_desc: &ImageDesc,
        desc: &ViewDesc,
    ) -> Result<Self::View>;
    /// Destroys a view.
    fn destroy_view(&mut self, view: Self::View);

    /// Creates a sampler.
    fn create_sampler(&mut self, desc: &SamplerDesc) -> Result<Self::Sampler>;
    /// Destroys a sampler.
    fn destroy_sampler(&mut self, sampler: Self::Sampler);

    /// Ends the recording command buffer (if anything was recorded) and submits it, signalling
    /// `epoch` on the timeline. On failure nothing is signalled. On out-of-memory the recording
    /// is kept, ended and ready: a later `submit` or [`Backend::submit_split`] submits the same
    /// commands (the manager's OOM ladder retries it; `vkQueueSubmit` leaves the command
    /// buffers and every resource they use untouched when it fails that way). On any other
    /// failure the recording is discarded.
    fn submit(&mut self, epoch: Epoch) -> Result<()>;
    /// The OOM ladder's last rung: submits the kept recording as several smaller submissions,
    /// one per recorded segment, the last signalling `epoch`. `Ok(false)` when the recording is
    /// a single segment (nothing to split); on out-of-memory what was not yet submitted stays
    /// kept, as with `submit`.
    fn submit_split(&mut self, _epoch: Epoch) -> Result<bool> {
        Ok(false)
    }
    /// Throws away the recording (and a recording kept by a failed submission) without
    /// submitting it; its commands never run.
    fn discard_recording(&mut self) {}
    /// The completed epoch, without blocking.
    fn poll_completed(&mut self) -> Result<Epoch>;
    /// Blocks until `epoch` completes or `timeout` passes; `Ok(false)` on timeout.
    fn wait(&mut self, epoch: Epoch, timeout: Duration) -> Result<bool>;
    /// Opens a new device like this one (the same physical device and configuration) whose
    /// epoch clock starts at `completed`: recovery after a loss (`recover.rs`). The lost one
    /// stays usable for destroying its objects. `Unsupported` where the backend cannot.
    fn reopen(&self, _completed: Epoch) -> Result<Self>
    where
        Self: Sized,
    {
        Err(crate::error::MemoryError::Unsupported(
            "re-opening the device".into(),
        ))
    }
}

/// How one submission attempt is made ([`Backend::submit`] or [`Backend::submit_split`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubmitShape {
    /// The whole recording in one submission.
    Whole,
    /// The recording's segments in separate submissions (the OOM ladder's last rung).
    Split,
}
