//! ArenaGL's central memory manager: the one owner of device memory.
//!
//! Every buffer, image, view and sampler the GL translator and the presenter hold comes from
//! here as a generational handle; every submission goes through here and is an epoch; every
//! destruction is a retire that waits for its epoch. See `docs/memory.md` for the design and
//! the table of files.
//!
//! - [`Manager`] holds the policy over any [`Backend`]; [`MemoryManager`] is the Vulkan one
//!   (ash + VMA), [`sim::SimBackend`] a simulated device for tests with no GPU.
//! - [`epoch`] is the epoch clock and [`retire`] the retire queue, shared with the loom model.
//!
//! Glossary (one word per concept inside this crate; a public name that says otherwise is kept
//! for the crates that use it and is listed here):
//! - **epoch**: the timeline-semaphore value a submission signals, always held as an [`Epoch`]
//!   (defined in `arenagl-staging`, which shares it, and re-exported here); its raw `u64` is taken
//!   out with [`Epoch::get`] only for the semaphore, atomics and logs. The *recording epoch* is
//!   the one the command buffer being recorded will signal (the submitted one's
//!   [`Epoch::next`]); an epoch is *completed* once the semaphore has reached it; [`Epoch::ZERO`]
//!   means "never used by the device" and is always complete. A number of epochs (epochs in
//!   flight) is a plain `u64`.
//! - **use stamp**: the last epoch that used an object, set by `use_*`.
//! - **retire**, **retired object**: a client gives an object back (`retire_*`); its handle is
//!   stale at once, but the raw object waits until its use stamp's epoch completes, because the
//!   GPU may still read it. Retired objects wait on the **retire queue**
//!   ([`retire::RetireQueue`], locked as [`retire::Deferred`]; the presenter's swapchains,
//!   semaphores and surfaces and the translator's Vulkan objects wait on queues of the same
//!   type, drained under the same [`retire::Horizon`]). `MemoryStats::pending_release_*` count
//!   the manager's retired objects still waiting.
//! - **release**: the actual destruction of a retired object (or its hand-over to the recycle
//!   bin) once its epoch completed; `released_*` count them.
//! - **drain**, **drain point**: releasing, without waiting, every retired object whose epoch
//!   completed (`begin_frame`, after every submit, on the OOM ladder, [`Manager::drain`]).
//! - **blocking GC**: submit what is recorded, wait (bounded) for every epoch, release every
//!   retired object and empty the recycle bin ([`Manager::collect_garbage_blocking`]: its
//!   "garbage" is the retired objects). A **proactive GC** is a drain the manager runs on its
//!   own (near the allocation-count cap, or under pressure).
//! - **allocation-count cap**: the most live `VkDeviceMemory` objects the manager allows,
//!   min(`maxMemoryAllocationCount`, [`ALLOCATION_COUNT_CAP`], the configured cap). Public names
//!   that say "clamp" mean this cap: `ManagerConfig::allocation_clamp`,
//!   [`Manager::allocation_clamp`], `MemoryStats::allocation_clamp` and `clamp_warnings`.
//! - **OOM ladder**: drain and retry, then blocking GC and retry, then refuse with an error.
//! - **recycle bin**, **binned**: released buffers and images kept a few frames for an identical
//!   request (`recycle.rs`).
//! - **device-lost latch**: once set, every request answers `DeviceLost` ([`LostFlag`]).

pub mod backend;
pub mod bench;
mod budget;
pub mod classify;

pub mod desc;
pub mod epoch;
pub mod error;
pub mod fault;
pub mod handle;
mod host_heap;
pub mod journal;
mod manager;
pub mod ratelimit;
pub mod recover;
mod recycle;
pub mod report;
pub mod retire;
pub mod sim;
mod staging;
pub mod stats;
mod sync;
mod telemetry;
pub mod vulkan;

pub use arenagl_staging::Epoch;
pub use backend::{AllocInfo, Backend, DeviceLimits, Mapping, Placement, SubmitShape};
pub use budget::Degradation;
pub use classify::{classify, Call, Outcome};
pub use desc::{
    nearest_builtin_border, BufferDesc, Category, ImageDesc, MemoryClass, SamplerDesc, ViewDesc,
};
pub use error::{MemoryError, Result};
pub use fault::{FaultPlan, FaultSite, FaultState};
pub use handle::Handle;
pub use manager::{
    BufferHandle, BufferInfo, BufferTag, ImageHandle, ImageInfo, ImageTag, LostFlag, Manager,
    ManagerConfig, SamplerHandle, SamplerTag, ViewHandle, ViewTag, ALLOCATION_COUNT_CAP,
};
pub use stats::{CategoryStats, DeviceMemoryCounters, MemoryStats};
pub use vulkan::{
    format_aspects, BlitSide, CopySide, ImageRegion, MemoryManager, StreamRange, UploadPath,
    VulkanBackend, VulkanConfig,
};

/// The manager over the simulated device.
pub type SimManager = Manager<sim::SimBackend>;
