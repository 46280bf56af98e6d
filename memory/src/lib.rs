//! ArenaGL's central memory manager: the one owner of device memory.
//!
//! Every buffer, image, view and sampler the GL translator and the presenter hold comes from
//! here as a generational handle; every submission goes through here and is an epoch; every
//! destruction is a retire that waits for its epoch. See `docs/memory.md` for the design, and
//! MISSION.md M1–M9 for what each mechanism is for.
//!
//! - [`Manager`] holds the policy over any [`Backend`]; [`MemoryManager`] is the Vulkan one
//!   (ash + VMA), [`sim::SimBackend`] a simulated device for tests with no GPU.
//! - [`epoch`] is the deferred-release core shared with the loom model.

pub mod backend;
pub mod bench;
mod budget;
pub mod classify;

pub mod desc;
pub mod epoch;
pub mod error;
pub mod fault;
pub mod handle;
mod manager;
pub mod ratelimit;
mod recycle;
pub mod sim;
mod staging;
pub mod stats;
mod sync;
mod telemetry;
pub mod vulkan;

pub use backend::{AllocInfo, Backend, DeviceLimits, Mapping, Placement};
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
