//! The manager: every policy of the memory system over any [`Backend`].
//!
//! Design decisions:
//! - Clients hold generational handles: a handle that outlived its object is an error, never
//!   another object. To put an object into a command they call `use_*`, which returns the raw
//!   object and stamps it with the epoch being recorded; that stamp is what retiring it waits
//!   for. An object never used is released at once.
//! - Retiring makes the handle stale immediately; the raw object goes on the retire queue and
//!   is released at a drain point once its epoch has completed: `begin_frame`, after every
//!   `submit`, before allocating under pressure, and in `collect_garbage_blocking`.
//! - Blocking waits first submit the recording command buffer, so nothing it references can be
//!   freed under it, and always carry a timeout: a hung GPU is an error value, not a hang.
//! - The OOM ladder: on out-of-memory, drain; retry if that freed anything; otherwise (or if
//!   the retry failed) run a blocking GC and retry once; then refuse with an error value. The
//!   allocation-count cap is checked before every allocation: proactive drain at 70 %, warning
//!   at 80 %, blocking GC and then refusal at the cap, so the count never exceeds it.
//! - Device loss latches: every later request answers `DeviceLost`, and retired objects are
//!   released as soon as the device can no longer run them (at once when it is really gone).
//! - `Manager`'s fields are private to this file, except the four states that other files own
//!   (`staging`, `budget`, `telemetry`, `report`), each touched only by its owner. The rest of
//!   the crate reaches the manager's own state through the small methods in the "for the rest
//!   of the crate" section, and reports its counters as [`Stat`]s through `record_stat`.
//!
//! What the manager calls in other files, and when (each is documented where it is defined):
//! - `staging.rs`, `staging_submitted(epoch)`: in `submit_with`, after every successful
//!   submission, so the arenas learn which epoch reads the current slot.
//! - `staging.rs`, `rotate_staging()`: in `begin_frame`, after the drain and the pressure update,
//!   unless the device is lost.
//! - `staging.rs`, `release_staging()`: in `Drop`, once the device is idle, before the final
//!   release of everything.
//! - `budget.rs`, `admit_under_budget(category, bytes)`: in `create_buffer` and `create_image`,
//!   before a new allocation (not when the recycle bin supplies the object).
//! - `budget.rs`, `refresh_signals()` then `update_pressure()`: in `begin_frame`, after the
//!   drain, unless the device is lost (the platform's memory signals first, so a signal moves
//!   the level in the same frame).
//! - `telemetry.rs`, `publish_frame()`: at the end of every `begin_frame`, lost or not.
//! - `telemetry.rs`, `telemetry_event(kind, bytes)`: when the OOM ladder or the allocation-count
//!   cap refuses an allocation.
//! - `report.rs`, `report_frame()`: at the end of every `begin_frame`; `report_final()`: first
//!   in `Drop`.
//! - Plain types with no access to the manager: the retire queue and clock (`epoch.rs`), the
//!   recycle bin (`recycle.rs`), the fault plan's state (`fault.rs`), the failure log
//!   (`classify.rs`), the staging and budget states' constructors.

use std::mem::ManuallyDrop;
use std::time::Duration;

use crate::backend::{AllocInfo, Backend, Mapping, Placement, SubmitShape};
use crate::budget::BudgetState;
use crate::classify::FailureLog;
use crate::desc::{BufferDesc, Category, ImageDesc, MemoryClass, SamplerDesc, ViewDesc};
use crate::epoch::EpochClock;
use crate::error::{MemoryError, Result};
use crate::fault::{FaultPlan, FaultSite, FaultState};
use crate::handle::{Handle, Slab};
use crate::ratelimit::RateLimit;
use crate::recover::{RecoverPolicy, RecoverState};
use crate::recycle::RecycleBin;
use crate::report::ReportState;
use crate::retire::{Deferred, Horizon};
use crate::staging::StagingState;
use crate::stats::{MemoryStats, Stat};
use crate::sync::next_owner_id;
use crate::telemetry::TelemetryState;
use crate::Epoch;
use ash::vk;

/// The highest allocation-count cap (live `VkDeviceMemory` objects), whatever the device
/// claims.
pub const ALLOCATION_COUNT_CAP: u32 = 4096;

/// Marker for buffer handles.
pub enum BufferTag {}
/// Marker for image handles.
pub enum ImageTag {}
/// Marker for image view handles.
pub enum ViewTag {}
/// Marker for sampler handles.
pub enum SamplerTag {}

/// A buffer owned by the manager.
pub type BufferHandle = Handle<BufferTag>;
/// An image owned by the manager.
pub type ImageHandle = Handle<ImageTag>;
/// An image view owned by the manager.
pub type ViewHandle = Handle<ViewTag>;
/// A sampler owned by the manager.
pub type SamplerHandle = Handle<SamplerTag>;

/// Tunables of the manager's policy.
#[derive(Debug, Clone)]
pub struct ManagerConfig {
    /// A lower allocation-count cap, below min(device limit, [`ALLOCATION_COUNT_CAP`]).
    pub allocation_clamp: Option<u32>,
    /// Buffers and images at least this large get a dedicated `VkDeviceMemory`.
    pub dedicated_threshold: u64,
    /// Give every allocation its own `VkDeviceMemory` (tests of the allocation-count cap use
    /// this).
    pub force_dedicated: bool,
    /// Upper bound of every blocking wait.
    pub wait_timeout: Duration,
    /// Failures to inject (`fault.rs`).
    pub faults: FaultPlan,
    /// The residency budget allocations are admitted against (`budget.rs`); `None`: no budget.
    pub budget: Option<arenagl_residency::Budget>,
    /// Bytes of each frame slot's staging arena (`staging.rs`).
    pub staging_arena_size: u64,
    /// Frame slots (staging arenas and CPU scratch arenas).
    pub frame_slots: usize,
    /// The pressure policy's knobs: demotion age, mip levels dropped, render scale.
    pub pressure_policy: arenagl_residency::ActionPolicy,
    /// Bytes of released buffers and images kept for reuse by identical requests (the recycle
    /// bin, `recycle.rs`); 0 turns it off.
    pub recycle_bin_bytes: u64,
    /// Device-loss recovery: whether a lost device may be re-opened, the restore journal's cap,
    /// the retry budget (`recover.rs`).
    pub recover: RecoverPolicy,
}

impl Default for ManagerConfig {
    fn default() -> Self {
        Self {
            allocation_clamp: None,
            dedicated_threshold: 32 << 20,
            force_dedicated: false,
            wait_timeout: Duration::from_secs(5),
            faults: FaultPlan::default(),
            budget: None,
            staging_arena_size: arenagl_staging::arena::DEFAULT_ARENA_SIZE,
            frame_slots: 2,
            pressure_policy: arenagl_residency::ActionPolicy::default(),
            recycle_bin_bytes: 0,
            recover: RecoverPolicy::default(),
        }
    }
}

/// What the manager knows about a buffer.
#[derive(Debug, Clone, PartialEq)]
pub struct BufferInfo {
    /// The request it was created from.
    pub desc: BufferDesc,
    /// Where it was placed.
    pub alloc: AllocInfo,
    /// The last epoch that used it.
    pub last_use: Epoch,
}

/// What the manager knows about an image.
#[derive(Debug, Clone, PartialEq)]
pub struct ImageInfo {
    /// The request it was created from.
    pub desc: ImageDesc,
    /// Where it was placed.
    pub alloc: AllocInfo,
    /// The last epoch that used it.
    pub last_use: Epoch,
}

struct BufferEntry<R> {
    raw: R,
    desc: BufferDesc,
    alloc: AllocInfo,
    last_use: Epoch,
}

struct ImageEntry<R> {
    raw: R,
    desc: ImageDesc,
    alloc: AllocInfo,
    last_use: Epoch,
    views: Vec<ViewHandle>,
    /// The layout the whole image is in after everything recorded so far. Stored here, tracked
    /// by `vulkan/transfer.rs` through `tracked_layout` / `set_tracked_layout`.
    layout: vk::ImageLayout,
}

struct ViewEntry<R> {
    raw: R,
    image: ImageHandle,
    /// The request it was made from (a client re-creating an image asks for the same view).
    desc: ViewDesc,
    last_use: Epoch,
}

struct SamplerEntry<R> {
    raw: R,
    /// The request it was made from (a re-opened device makes it again).
    desc: SamplerDesc,
    last_use: Epoch,
}

/// A retired object on the retire queue: the raw object and what its release must account.
enum Retired<B: Backend> {
    Buffer(B::Buffer, BufferDesc, AllocInfo),
    Image(B::Image, ImageDesc, AllocInfo),
    View(B::View),
    Sampler(B::Sampler),
}

impl<B: Backend> Retired<B> {
    fn bytes(&self) -> u64 {
        match self {
            Retired::Buffer(_, _, a) | Retired::Image(_, _, a) => a.size,
            Retired::View(_) | Retired::Sampler(_) => 0,
        }
    }
}

/// A lock-free view of a manager's device-lost latch: clients that keep the manager behind a
/// lock (the GL device) read it on every call without taking that lock, and fences read it to
/// report "signalled" after a loss. Once set it stays set for that manager.
#[derive(Debug, Clone, Default)]
pub struct LostFlag(std::sync::Arc<std::sync::atomic::AtomicBool>);

// Not part of any loom model (the manager is not), so it uses `std` directly like
// `sync::next_owner_id`.
impl LostFlag {
    /// Whether the device behind the manager was lost.
    pub fn is_lost(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::Acquire)
    }

    fn set(&self) {
        self.0.store(true, std::sync::atomic::Ordering::Release);
    }
}

/// The central memory manager over backend `B`.
pub struct Manager<B: Backend> {
    backend: ManuallyDrop<B>,
    config: ManagerConfig,
    /// The allocation-count cap in force: min(device limit, [`ALLOCATION_COUNT_CAP`],
    /// configured).
    allocation_cap: u32,
    buffers: Slab<BufferTag, BufferEntry<B::Buffer>>,
    images: Slab<ImageTag, ImageEntry<B::Image>>,
    views: Slab<ViewTag, ViewEntry<B::View>>,
    samplers: Slab<SamplerTag, SamplerEntry<B::Sampler>>,
    clock: EpochClock,
    /// Retired objects waiting for their epoch to complete.
    retire_queue: Deferred<Retired<B>>,
    /// Whether the recording command buffer may hold commands (a blocking GC submits it then).
    recording_open: bool,
    /// The device-lost latch; `lost_flag` is its lock-free copy for clients.
    lost: bool,
    lost_flag: LostFlag,
    faults: FaultState,
    failures: FailureLog,
    stats: MemoryStats,
    /// (submitted, completed) at the last proactive drain: at most one per epoch change.
    last_proactive_gc: Option<(Epoch, Epoch)>,
    /// Whether the live count was at or above 80 % of the cap at the last check (the warning
    /// fires on crossing the line, not on every allocation above it).
    above_warn_line: bool,
    /// Cap warnings and ladder refusals share this limiter (first, then every 100th).
    allocation_log: RateLimit,
    timeout_log: RateLimit,
    /// Over-budget refusals, logged with the live objects by name (first, then every 100th).
    refusal_log: RateLimit,
    /// Owned by `staging.rs`, the only file that touches it (the type is opaque elsewhere).
    pub(crate) staging: StagingState,
    /// Owned by `budget.rs`, the only file that touches it (the type is opaque elsewhere).
    pub(crate) budget: Option<BudgetState>,
    /// Owned by `telemetry.rs`, the only file that touches it (the type is opaque elsewhere).
    pub(crate) telemetry: Option<TelemetryState>,
    /// Owned by `report.rs`, the only file that touches it (the type is opaque elsewhere).
    pub(crate) report: ReportState,
    /// Owned by `recover.rs` (the restore journal, the re-open policy and its back-off), the
    /// only file that touches it.
    pub(crate) recover: RecoverState,
    /// Give the C heap's free pages back whenever device memory grows (`host_heap.rs`).
    trim_host_heap: bool,
    bin: RecycleBin<B::Buffer, B::Image>,
}

impl<B: Backend> Manager<B> {
    /// A manager over `backend`.
    pub fn with_backend(backend: B, config: ManagerConfig) -> Self {
        let device_count = backend.limits().max_memory_allocation_count.max(1);
        let allocation_cap = device_count
            .min(ALLOCATION_COUNT_CAP)
            .min(config.allocation_clamp.unwrap_or(u32::MAX))
            .max(1);
        let owner = next_owner_id();
        let faults = FaultState::new(config.faults.clone());
        let staging = StagingState::new(config.staging_arena_size, config.frame_slots);
        let policy = config.pressure_policy;
        let budget = config.budget.clone().map(|b| BudgetState::new(b, policy));
        let recycle_bin_bytes = config.recycle_bin_bytes;
        let recover = RecoverState::new(&config.recover);
        Self {
            backend: ManuallyDrop::new(backend),
            config,
            allocation_cap,
            buffers: Slab::new(owner),
            images: Slab::new(owner),
            views: Slab::new(owner),
            samplers: Slab::new(owner),
            clock: EpochClock::new(),
            retire_queue: Deferred::new(),
            recording_open: false,
            lost: false,
            lost_flag: LostFlag::default(),
            faults,
            failures: FailureLog::default(),
            stats: MemoryStats::default(),
            last_proactive_gc: None,
            above_warn_line: false,
            allocation_log: RateLimit::new(100),
            timeout_log: RateLimit::new(100),
            refusal_log: RateLimit::new(100),
            staging,
            budget,
            telemetry: None,
            report: ReportState::from_env(),
            recover,
            trim_host_heap: false,
            bin: RecycleBin::new(recycle_bin_bytes),
        }
    }

    /// The backend (for its own diagnostics; resources go through the manager).
    pub fn backend(&self) -> &B {
        &self.backend
    }

    /// The configuration in force.
    pub fn config(&self) -> &ManagerConfig {
        &self.config
    }

    /// The effective allocation-count cap: min(device limit, [`ALLOCATION_COUNT_CAP`],
    /// `ManagerConfig::allocation_clamp`).
    pub fn allocation_clamp(&self) -> u32 {
        self.allocation_cap
    }

    /// Replaces the fault plan (its counters restart).
    pub fn set_fault_plan(&mut self, plan: FaultPlan) {
        self.faults = FaultState::new(plan.clone());
        self.config.faults = plan;
    }

    /// Whether the device-lost latch is set.
    pub fn is_lost(&self) -> bool {
        self.lost
    }

    /// The device-lost latch as a flag readable without access to the manager.
    pub fn lost_flag(&self) -> LostFlag {
        self.lost_flag.clone()
    }

    /// The fault plan and its counters, to continue them in a replacement manager.
    pub fn fault_state(&self) -> FaultState {
        self.faults.clone()
    }

    /// Continues `state`'s plan and counters (after a lost device was replaced).
    pub fn resume_faults(&mut self, state: FaultState) {
        self.config.faults = state.plan().clone();
        self.faults = state;
    }

    /// The last epoch submitted.
    pub fn submitted_epoch(&self) -> Epoch {
        self.clock.submitted()
    }

    /// The newest epoch known complete (as of the last poll).
    pub fn completed_epoch(&self) -> Epoch {
        self.clock.completed()
    }

    /// The epoch the recording command buffer will signal.
    pub fn recording_epoch(&self) -> Epoch {
        self.clock.recording()
    }

    fn check_lost(&self) -> Result<()> {
        if self.lost {
            Err(MemoryError::DeviceLost)
        } else {
            Ok(())
        }
    }

    pub(crate) fn latch_lost(&mut self) {
        if !self.lost {
            tracing::error!(
                submitted = self.clock.submitted().get(),
                completed = self.clock.completed().get(),
                "device lost: the memory manager is latched; every later request fails with DeviceLost"
            );
        }
        if !self.lost {
            // On a really lost device this returns at once; when the loss was injected the
            // device is alive, and nothing may be released while it still executes our work.
            let _ = self
                .backend
                .wait(self.clock.submitted(), self.config.wait_timeout);
        }
        self.lost = true;
        self.lost_flag.set();
        self.stats.device_lost = true;
        self.recording_open = false;
        self.release_completed();
    }

    /// Marks the recording command buffer as holding commands (the Vulkan front calls this when
    /// it hands the command buffer out).
    pub(crate) fn note_recording(&mut self) {
        self.recording_open = true;
    }

    // ---- for the rest of the crate --------------------------------------------------------
    // Small named doors to the state above, for the other files of the crate (the Vulkan front,
    // staging, the budget); each says who calls it. Nothing outside this file touches the
    // fields themselves.

    /// The backend, mutably: the Vulkan front's queue, command buffers and presenter.
    pub(crate) fn backend_mut(&mut self) -> &mut B {
        &mut self.backend
    }

    /// Checks the fault plan for one call at `site` (`size` bytes for allocations); counts an
    /// injected result in the statistics.
    pub(crate) fn inject(&mut self, site: FaultSite, size: u64) -> Option<vk::Result> {
        let r = self.faults.check(site, size)?;
        self.stats.faults_injected += 1;
        Some(r)
    }

    /// Runs `call` with the backend and a check of the fault plan at `site`, counted like
    /// [`Manager::inject`]: for a backend operation that checks the plan before each of several
    /// attempts (swapchain creation in `vulkan/present.rs`).
    pub(crate) fn with_fault_check<R>(
        &mut self,
        site: FaultSite,
        call: impl FnOnce(&mut B, &mut dyn FnMut() -> Option<vk::Result>) -> R,
    ) -> R {
        let (faults, injected) = (&mut self.faults, &mut self.stats.faults_injected);
        let mut check = || {
            let r = faults.check(site, 0);
            *injected += u64::from(r.is_some());
            r
        };
        call(&mut self.backend, &mut check)
    }

    /// Logs a failed call at a rate limit (first, then every 100th).
    pub(crate) fn log_failure(&mut self, call: crate::classify::Call, result: vk::Result) {
        let outcome = crate::classify::classify(call, result);
        self.failures.failed(call, result, &outcome);
    }

    /// Applies a statistic counted outside this file ([`Stat`] lists who reports what).
    pub(crate) fn record_stat(&mut self, stat: Stat) {
        self.stats.record(stat);
    }

    /// Live bytes of `category`, retired objects waiting for their epoch and binned ones
    /// included: the usage the budget sees (`budget.rs`).
    pub(crate) fn category_live_bytes(&self, category: Category) -> u64 {
        self.stats.categories[category.index()].live_bytes
    }

    /// Whether a blocking GC would give memory back: retired objects waiting for their epoch,
    /// or resources in the recycle bin (`budget.rs`, before it refuses a request).
    pub(crate) fn has_collectable_memory(&self) -> bool {
        self.stats.pending_release_bytes > 0 || self.stats.recycle_bin_bytes > 0
    }

    /// Logs a request of `requested` bytes refused over the budget at `usage`, with the live
    /// buffers and images grouped by name, so that a leak names its owner (rate-limited: first,
    /// then every 100th; `budget.rs`).
    pub(crate) fn log_over_budget_refusal(&mut self, requested: u64, usage: u64) {
        let Some(n) = self.refusal_log.hit() else {
            return;
        };
        let live: Vec<String> = self
            .live_by_name()
            .into_iter()
            .take(8)
            .map(|(name, objects, bytes)| format!("{name}: {objects} ({bytes} bytes)"))
            .collect();
        tracing::warn!(
            refusals = n,
            requested,
            usage,
            pending = self.stats.pending_release_bytes,
            ?live,
            "over budget: the request is refused; live objects by name"
        );
    }

    /// Records `policy` in the configuration (`budget.rs`'s `set_pressure_policy`, which also
    /// hands it to the pressure monitor).
    pub(crate) fn store_pressure_policy(&mut self, policy: arenagl_residency::ActionPolicy) {
        self.config.pressure_policy = policy;
    }

    /// The layout the whole image is in after everything recorded so far. The manager only
    /// stores it (and starts it at `UNDEFINED`); `vulkan/transfer.rs` tracks it.
    pub(crate) fn tracked_layout(&self, image: ImageHandle) -> Result<vk::ImageLayout> {
        Ok(self.images.get(image)?.layout)
    }

    /// Records that the whole image is in `layout` after everything recorded so far
    /// (`vulkan/transfer.rs`).
    pub(crate) fn set_tracked_layout(
        &mut self,
        image: ImageHandle,
        layout: vk::ImageLayout,
    ) -> Result<()> {
        self.images.get_mut(image)?.layout = layout;
        Ok(())
    }

    // ---- creation -------------------------------------------------------------------------

    fn placement(&self, size: u64, class: MemoryClass) -> Placement {
        Placement {
            class,
            dedicated: self.config.force_dedicated || size >= self.config.dedicated_threshold,
        }
    }

    fn account_created(&mut self, category: Category, alloc: &AllocInfo) {
        self.stats.categories[category.index()].add(alloc.size);
        self.stats.live_bytes += alloc.size;
        self.stats.peak_bytes = self.stats.peak_bytes.max(self.stats.live_bytes);
        self.stats.sub_allocations_live += 1;
        self.stats.sub_allocations_total += 1;
        if alloc.dedicated {
            self.stats.dedicated_live += 1;
        }
    }

    fn account_released(&mut self, category: Category, alloc: &AllocInfo) {
        self.stats.categories[category.index()].sub(alloc.size);
        self.stats.live_bytes = self.stats.live_bytes.saturating_sub(alloc.size);
        self.stats.sub_allocations_live = self.stats.sub_allocations_live.saturating_sub(1);
        if alloc.dedicated {
            self.stats.dedicated_live = self.stats.dedicated_live.saturating_sub(1);
        }
    }

    /// Creates a buffer. Errors: `InvalidRequest` (zero size, over `maxMemoryAllocationSize`,
    /// no usage), `Unsupported` (usage the manager does not enable), the OOM family after the
    /// ladder ran, `DeviceLost`.
    pub fn create_buffer(&mut self, desc: &BufferDesc) -> Result<BufferHandle> {
        self.check_lost()?;
        validate_buffer(desc, self.backend.limits().max_memory_allocation_size)?;
        self.buffers.check_room()?;
        if let Some(e) = self.bin.take_buffer(desc) {
            // Still counted in its category (recycle.rs): it only changes hands.
            self.stats.recycled += 1;
            self.note_bin();
            let (_, raw, alloc) = e.into_parts();
            return self.buffers.insert(BufferEntry {
                raw,
                desc: desc.clone(),
                alloc,
                last_use: Epoch::ZERO,
            });
        }
        self.admit_under_budget(desc.category, desc.size)?;
        let placement = self.placement(desc.size, desc.class);
        let (raw, alloc) =
            self.allocate_with_ladder(desc.size, |b| b.create_buffer(desc, placement))?;
        let handle = self.buffers.insert(BufferEntry {
            raw,
            desc: desc.clone(),
            alloc,
            last_use: Epoch::ZERO,
        })?;
        self.account_created(desc.category, &alloc);
        Ok(handle)
    }

    /// Creates an image (always in the device-image pool). Errors as for buffers, plus
    /// `Unsupported` for formats, usages, extents or sample counts the device lacks.
    pub fn create_image(&mut self, desc: &ImageDesc) -> Result<ImageHandle> {
        self.check_lost()?;
        validate_image(desc)?;
        self.backend.check_image(desc)?;
        self.images.check_room()?;
        if let Some(e) = self.bin.take_image(desc) {
            // As for buffers; the image starts again from UNDEFINED (its contents are undefined,
            // as a new image's are).
            self.stats.recycled += 1;
            self.note_bin();
            let (_, raw, alloc) = e.into_parts();
            return self.images.insert(ImageEntry {
                raw,
                desc: desc.clone(),
                alloc,
                last_use: Epoch::ZERO,
                views: Vec::new(),
                layout: vk::ImageLayout::UNDEFINED,
            });
        }
        let estimate = crate::desc::packed_image_bytes(desc).unwrap_or(0);
        self.admit_under_budget(desc.category, estimate)?;
        let placement = self.placement(estimate, MemoryClass::DeviceImage);
        let (raw, alloc) =
            self.allocate_with_ladder(estimate, |b| b.create_image(desc, placement))?;
        let handle = self.images.insert(ImageEntry {
            raw,
            desc: desc.clone(),
            alloc,
            last_use: Epoch::ZERO,
            views: Vec::new(),
            layout: vk::ImageLayout::UNDEFINED,
        })?;
        self.account_created(desc.category, &alloc);
        Ok(handle)
    }

    /// Creates a view of `image`. Errors: `InvalidHandle`, `InvalidRequest` for ranges outside
    /// the image or a view type the image cannot have.
    pub fn create_view(&mut self, image: ImageHandle, desc: &ViewDesc) -> Result<ViewHandle> {
        self.check_lost()?;
        let entry = self.images.get(image)?;
        validate_view(&entry.desc, desc)?;
        self.views.check_room()?;
        let raw = self.backend.create_view(&entry.raw, &entry.desc, desc)?;
        let handle = self.views.insert(ViewEntry {
            raw,
            image,
            desc: desc.clone(),
            last_use: Epoch::ZERO,
        })?;
        self.images.get_mut(image)?.views.push(handle);
        Ok(handle)
    }

    /// The request `view` was created from.
    pub fn view_desc(&self, view: ViewHandle) -> Result<ViewDesc> {
        Ok(self.views.get(view)?.desc.clone())
    }

    /// Creates a sampler. Errors: `TooManyAllocations` at `maxSamplerAllocationCount`.
    pub fn create_sampler(&mut self, desc: &SamplerDesc) -> Result<SamplerHandle> {
        self.check_lost()?;
        let limit = self.backend.limits().max_sampler_allocation_count;
        if self.samplers.len() as u64 >= u64::from(limit) {
            self.release_completed();
            if self.samplers.len() as u64 >= u64::from(limit) {
                return Err(MemoryError::TooManyAllocations {
                    live: self.samplers.len() as u32,
                    limit,
                });
            }
        }
        self.samplers.check_room()?;
        let raw = self.backend.create_sampler(desc)?;
        self.samplers.insert(SamplerEntry {
            raw,
            desc: desc.clone(),
            last_use: Epoch::ZERO,
        })
    }

    // ---- the OOM ladder and the allocation-count cap --------------------------------------

    fn attempt<R>(&mut self, size: u64, create: &mut impl FnMut(&mut B) -> Result<R>) -> Result<R> {
        let calls_before = self.backend.device_memory().allocate_calls;
        let result = match self.inject(FaultSite::Alloc, size) {
            Some(r) => Err(
                crate::classify::classify(crate::classify::Call::Allocate, r)
                    .error()
                    .unwrap_or(MemoryError::Internal("injected success")),
            ),
            None => create(&mut self.backend),
        };
        if self.trim_host_heap && self.backend.device_memory().allocate_calls > calls_before {
            // Device memory is host memory and it just grew: see `host_heap.rs`.
            crate::host_heap::trim();
            self.stats.host_heap_trims += 1;
        }
        if matches!(
            result,
            Err(MemoryError::OutOfDeviceMemory | MemoryError::OutOfHostMemory)
        ) {
            self.stats.oom_failures += 1;
        }
        if matches!(result, Err(MemoryError::DeviceLost)) {
            self.latch_lost();
        }
        result
    }

    fn allocate_with_ladder<R>(
        &mut self,
        size: u64,
        mut create: impl FnMut(&mut B) -> Result<R>,
    ) -> Result<R> {
        self.make_room_under_cap()?;
        let first = match self.attempt(size, &mut create) {
            Err(e @ (MemoryError::OutOfDeviceMemory | MemoryError::OutOfHostMemory)) => e,
            other => return other,
        };
        // Rung 1: release whatever has already completed, without waiting.
        self.stats.ladder_drains += 1;
        self.poll()?;
        if self.release_completed() > 0 {
            self.stats.ladder_retries += 1;
            if let Ok(r) = self.attempt(size, &mut create) {
                self.stats.ladder_recoveries += 1;
                return Ok(r);
            }
        }
        // Rung 2: submit what is recorded, wait (bounded) for everything, release it all.
        match self.collect_garbage_blocking() {
            Ok(()) => {}
            Err(MemoryError::DeviceLost) => return Err(MemoryError::DeviceLost),
            Err(e) => tracing::warn!(error = %e, "blocking GC on the OOM ladder did not finish"),
        }
        // Rung 3: retry once, then refuse.
        self.stats.ladder_retries += 1;
        match self.attempt(size, &mut create) {
            Ok(r) => {
                self.stats.ladder_recoveries += 1;
                Ok(r)
            }
            Err(MemoryError::OutOfDeviceMemory | MemoryError::OutOfHostMemory) => {
                self.stats.refusals += 1;
                self.telemetry_event(crate::telemetry::EventKind::Refusal, size);
                if let Some(n) = self.allocation_log.hit() {
                    tracing::warn!(
                        size,
                        refusals = n,
                        "allocation refused after the OOM ladder"
                    );
                }
                Err(first)
            }
            Err(e) => Err(e),
        }
    }

    fn make_room_under_cap(&mut self) -> Result<()> {
        let limit = u64::from(self.allocation_cap);
        let live = |m: &Self| u64::from(m.backend.device_memory().live_objects);
        if live(self) * 10 >= limit * 7 {
            self.poll()?;
            let key = (self.clock.submitted(), self.clock.completed());
            if self.last_proactive_gc != Some(key) {
                self.last_proactive_gc = Some(key);
                self.stats.proactive_gcs += 1;
                self.release_completed();
            }
        }
        let now = live(self);
        let above = now * 10 >= limit * 8;
        if above && !self.above_warn_line {
            self.stats.clamp_warnings += 1;
            if let Some(n) = self.allocation_log.hit() {
                tracing::warn!(
                    live = now,
                    limit,
                    times = n,
                    "device-memory objects above 80% of the allocation-count cap"
                );
            }
        }
        self.above_warn_line = above;
        if now >= limit {
            match self.collect_garbage_blocking() {
                Ok(()) | Err(MemoryError::Timeout(_)) => {}
                Err(e) => return Err(e),
            }
            let now = live(self);
            if now >= limit {
                self.stats.refusals += 1;
                self.telemetry_event(crate::telemetry::EventKind::Refusal, 0);
                return Err(MemoryError::TooManyAllocations {
                    live: now as u32,
                    limit: self.allocation_cap,
                });
            }
        }
        Ok(())
    }

    // ---- use, query, host access ----------------------------------------------------------

    /// The raw buffer, for recording a command that uses it; stamps it with the recording
    /// epoch. Every command that references the buffer must obtain it through this call in the
    /// same recording, or retiring it will not wait for that command.
    pub fn use_buffer(&mut self, handle: BufferHandle) -> Result<&B::Buffer> {
        let epoch = self.clock.recording();
        let entry = self.buffers.get_mut(handle)?;
        entry.last_use = epoch;
        self.recording_open = true;
        Ok(&entry.raw)
    }

    /// The raw image, for recording; stamps it like [`Manager::use_buffer`].
    pub fn use_image(&mut self, handle: ImageHandle) -> Result<&B::Image> {
        let epoch = self.clock.recording();
        let entry = self.images.get_mut(handle)?;
        entry.last_use = epoch;
        self.recording_open = true;
        Ok(&entry.raw)
    }

    /// The raw view, for recording; stamps the view and its image.
    pub fn use_view(&mut self, handle: ViewHandle) -> Result<&B::View> {
        let epoch = self.clock.recording();
        let image = self.views.get(handle)?.image;
        self.images.get_mut(image)?.last_use = epoch;
        self.recording_open = true;
        let entry = self.views.get_mut(handle)?;
        entry.last_use = epoch;
        Ok(&entry.raw)
    }

    /// The raw sampler, for recording; stamps it.
    pub fn use_sampler(&mut self, handle: SamplerHandle) -> Result<&B::Sampler> {
        let epoch = self.clock.recording();
        let entry = self.samplers.get_mut(handle)?;
        entry.last_use = epoch;
        self.recording_open = true;
        Ok(&entry.raw)
    }

    /// What the manager knows about a buffer (no use is recorded).
    pub fn buffer_info(&self, handle: BufferHandle) -> Result<BufferInfo> {
        let e = self.buffers.get(handle)?;
        Ok(BufferInfo {
            desc: e.desc.clone(),
            alloc: e.alloc,
            last_use: e.last_use,
        })
    }

    /// Whether the buffer is persistently mapped (host-visible memory).
    pub fn buffer_is_mapped(&self, handle: BufferHandle) -> Result<bool> {
        let entry = self.buffers.get(handle)?;
        Ok(self.backend.buffer_mapping(&entry.raw).is_some())
    }

    /// The persistent host mapping of a host-visible buffer (`None` for device-local memory),
    /// for clients that hand the pointer on (GL's `GL_MAP_PERSISTENT_BIT` maps). The pointer is
    /// valid while the handle is live; the client orders its accesses with the GPU's (fences).
    pub fn buffer_host_mapping(&self, handle: BufferHandle) -> Result<Option<Mapping>> {
        let entry = self.buffers.get(handle)?;
        Ok(self.backend.buffer_mapping(&entry.raw))
    }

    /// Makes host writes to `offset..offset + len` of a host-visible buffer visible to the
    /// device (a no-op for coherent memory).
    pub fn flush_buffer_range(&self, handle: BufferHandle, offset: u64, len: u64) -> Result<()> {
        let entry = self.buffers.get(handle)?;
        match self.backend.buffer_mapping(&entry.raw) {
            Some(m) if !m.coherent => self.backend.flush_buffer(&entry.raw, offset, len),
            _ => Ok(()),
        }
    }

    /// Makes device writes to `offset..offset + len` of a host-visible buffer visible to the
    /// host once the writes completed (a no-op for coherent memory).
    pub fn invalidate_buffer_range(
        &self,
        handle: BufferHandle,
        offset: u64,
        len: u64,
    ) -> Result<()> {
        let entry = self.buffers.get(handle)?;
        match self.backend.buffer_mapping(&entry.raw) {
            Some(m) if !m.coherent => self.backend.invalidate_buffer(&entry.raw, offset, len),
            _ => Ok(()),
        }
    }

    /// What the manager knows about an image (no use is recorded).
    pub fn image_info(&self, handle: ImageHandle) -> Result<ImageInfo> {
        let e = self.images.get(handle)?;
        Ok(ImageInfo {
            desc: e.desc.clone(),
            alloc: e.alloc,
            last_use: e.last_use,
        })
    }

    fn idle_mapping(
        &mut self,
        handle: BufferHandle,
        offset: u64,
        len: usize,
    ) -> Result<crate::backend::Mapping> {
        self.check_lost()?;
        let last_use = self.buffers.get(handle)?.last_use;
        if last_use > self.clock.completed() {
            self.poll()?;
        }
        let entry = self.buffers.get(handle)?;
        if entry.last_use > self.clock.completed() {
            return Err(MemoryError::Busy(entry.last_use));
        }
        let mapping = self.backend.buffer_mapping(&entry.raw).ok_or_else(|| {
            MemoryError::InvalidRequest(format!(
                "buffer in class {} is not host-visible",
                entry.desc.class.name()
            ))
        })?;
        let end = offset
            .checked_add(len as u64)
            .filter(|&end| end <= entry.desc.size && end <= mapping.len as u64)
            .ok_or_else(|| {
                MemoryError::InvalidRequest(format!(
                    "range {offset}+{len} outside a buffer of {} bytes",
                    entry.desc.size
                ))
            })?;
        debug_assert!(end as usize <= mapping.len);
        Ok(mapping)
    }

    /// Writes `data` at `offset` into a host-visible buffer that no pending submission uses
    /// (`Busy` otherwise), flushing non-coherent memory.
    pub fn write_buffer(&mut self, handle: BufferHandle, offset: u64, data: &[u8]) -> Result<()> {
        let mapping = self.idle_mapping(handle, offset, data.len())?;
        // SAFETY: `idle_mapping` checked that offset + len lies inside the live mapping, and
        // that no submission that may access the buffer is pending, so nothing else reads or
        // writes these bytes while we copy; `data` cannot overlap device memory we own.
        unsafe {
            std::ptr::copy_nonoverlapping(
                data.as_ptr(),
                mapping.ptr.as_ptr().add(offset as usize),
                data.len(),
            );
        }
        if !mapping.coherent {
            let entry = self.buffers.get(handle)?;
            self.backend
                .flush_buffer(&entry.raw, offset, data.len() as u64)?;
        }
        self.journal_buffer_write(handle, offset, data);
        Ok(())
    }

    /// Reads `out.len()` bytes at `offset` from a host-visible buffer that no pending
    /// submission uses (`Busy` otherwise), invalidating non-coherent memory first.
    pub fn read_buffer(&mut self, handle: BufferHandle, offset: u64, out: &mut [u8]) -> Result<()> {
        let mapping = self.idle_mapping(handle, offset, out.len())?;
        if !mapping.coherent {
            let entry = self.buffers.get(handle)?;
            self.backend
                .invalidate_buffer(&entry.raw, offset, out.len() as u64)?;
        }
        // SAFETY: as in `write_buffer`: the range is inside the mapping and the GPU is done
        // with the buffer, so the bytes are stable while we copy them out.
        unsafe {
            std::ptr::copy_nonoverlapping(
                mapping.ptr.as_ptr().add(offset as usize),
                out.as_mut_ptr(),
                out.len(),
            );
        }
        Ok(())
    }

    // ---- retire and release ---------------------------------------------------------------

    fn retire(&mut self, last_use: Epoch, item: Retired<B>) {
        if last_use <= self.clock.completed() {
            self.destroy(item);
        } else {
            self.stats.pending_release_objects += 1;
            self.stats.pending_release_bytes += item.bytes();
            self.retire_queue.retire(last_use, item);
            if self.lost {
                self.release_completed();
            }
        }
    }

    /// Retires a buffer: the handle is stale at once; the memory is released when the last
    /// epoch that used it completes.
    pub fn retire_buffer(&mut self, handle: BufferHandle) -> Result<()> {
        let e = self.buffers.remove(handle)?;
        self.journal_forget_buffer(handle);
        self.retire(e.last_use, Retired::Buffer(e.raw, e.desc, e.alloc));
        Ok(())
    }

    /// Retires an image and every view of it still alive.
    pub fn retire_image(&mut self, handle: ImageHandle) -> Result<()> {
        let e = self.images.remove(handle)?;
        self.journal_forget_image(handle);
        for view in e.views {
            if let Ok(v) = self.views.remove(view) {
                self.retire(v.last_use, Retired::View(v.raw));
            }
        }
        self.retire(e.last_use, Retired::Image(e.raw, e.desc, e.alloc));
        Ok(())
    }

    /// Retires a view.
    pub fn retire_view(&mut self, handle: ViewHandle) -> Result<()> {
        let v = self.views.remove(handle)?;
        if let Ok(image) = self.images.get_mut(v.image) {
            image.views.retain(|&h| h != handle);
        }
        self.retire(v.last_use, Retired::View(v.raw));
        Ok(())
    }

    /// Retires a sampler.
    pub fn retire_sampler(&mut self, handle: SamplerHandle) -> Result<()> {
        let s = self.samplers.remove(handle)?;
        self.retire(s.last_use, Retired::Sampler(s.raw));
        Ok(())
    }

    fn destroy(&mut self, item: Retired<B>) {
        self.stats.released_objects += 1;
        self.stats.released_bytes += item.bytes();
        // Above Normal pressure nothing enters the recycle bin (it is emptied there).
        let keep = self.stats.pressure_level == 0 && !self.lost;
        match item {
            Retired::Buffer(raw, desc, alloc) => {
                let refused = if keep {
                    self.bin.put_buffer(desc, raw, alloc).err()
                } else {
                    Some((desc, raw, alloc))
                };
                if let Some((desc, raw, alloc)) = refused {
                    self.account_released(desc.category, &alloc);
                    self.backend.destroy_buffer(raw);
                }
                self.note_bin();
            }
            Retired::Image(raw, desc, alloc) => {
                let refused = if keep {
                    self.bin.put_image(desc, raw, alloc).err()
                } else {
                    Some((desc, raw, alloc))
                };
                if let Some((desc, raw, alloc)) = refused {
                    self.account_released(desc.category, &alloc);
                    self.backend.destroy_image(raw);
                }
                self.note_bin();
            }
            Retired::View(raw) => self.backend.destroy_view(raw),
            Retired::Sampler(raw) => self.backend.destroy_sampler(raw),
        }
    }

    /// Destroys what the recycle bin gives back (still counted in its category until now).
    fn destroy_binned(&mut self, expired: crate::recycle::Expired<B::Buffer, B::Image>) {
        if expired.is_empty() {
            return;
        }
        let (buffers, images) = expired.into_parts();
        for (desc, raw, alloc) in buffers.into_iter().map(|e| e.into_parts()) {
            self.account_released(desc.category, &alloc);
            self.backend.destroy_buffer(raw);
        }
        for (desc, raw, alloc) in images.into_iter().map(|e| e.into_parts()) {
            self.account_released(desc.category, &alloc);
            self.backend.destroy_image(raw);
        }
        self.note_bin();
    }

    /// Sets how many bytes of released buffers and images the recycle bin may keep (0: off);
    /// empties it first.
    pub fn set_recycle_bin_bytes(&mut self, bytes: u64) {
        self.empty_recycle_bin();
        self.bin.set_cap(bytes);
        self.config.recycle_bin_bytes = bytes;
    }

    /// The recycle bin's cap in bytes (0: off).
    pub fn recycle_bin_bytes(&self) -> u64 {
        self.bin.cap()
    }

    /// Whether device memory is host memory, so that the C heap's free pages are given back to
    /// the system whenever an allocation makes the device allocate a block (`host_heap.rs`;
    /// counted in `MemoryStats::host_heap_trims`). Off by default.
    pub fn set_trim_host_heap(&mut self, on: bool) {
        self.trim_host_heap = on;
    }

    /// Empties the recycle bin (the first memory given back under pressure).
    pub(crate) fn empty_recycle_bin(&mut self) {
        if self.bin.len() > 0 {
            let all = self.bin.take_all();
            self.destroy_binned(all);
        }
    }

    /// Copies the bin's figures into the statistics.
    fn note_bin(&mut self) {
        self.stats.recycle_bin_bytes = self.bin.bytes();
        self.stats.recycle_bin_objects = self.bin.len() as u64;
    }

    /// What a retire queue may release now (the manager's, the presenter's and the
    /// translator's alike): the completed epoch; after a loss while the device still runs, also
    /// what was never submitted (it can never run); everything once the device is really gone.
    pub fn release_horizon(&mut self) -> Horizon {
        if !self.lost {
            return Horizon::Completed(self.clock.completed());
        }
        match self.backend.poll_completed() {
            Err(_) => Horizon::All,
            Ok(v) => Horizon::Lost {
                completed: self.clock.observe_completed(v),
                submitted: self.clock.submitted(),
            },
        }
    }

    /// Destroys everything whose epoch has completed; returns how many objects were released.
    fn release_completed(&mut self) -> usize {
        let horizon = self.release_horizon();
        let items = self.retire_queue.drain_horizon(horizon);
        if items.is_empty() {
            return 0;
        }
        // The debug use-after-free check: ask the device itself, not the cached clock, whether
        // each epoch is really complete. Anything not complete goes back on the queue.
        let truth = if cfg!(debug_assertions) && !self.lost {
            self.backend.poll_completed().ok()
        } else {
            None
        };
        let mut released = 0;
        for (epoch, item) in items {
            if truth.is_some_and(|t| epoch > t) {
                self.stats.release_violations += 1;
                tracing::error!(
                    epoch = epoch.get(),
                    "release attempted before its epoch completed; kept alive"
                );
                self.retire_queue.retire(epoch, item);
                continue;
            }
            self.stats.pending_release_objects =
                self.stats.pending_release_objects.saturating_sub(1);
            self.stats.pending_release_bytes = self
                .stats
                .pending_release_bytes
                .saturating_sub(item.bytes());
            self.destroy(item);
            released += 1;
        }
        if released > 0 {
            self.stats.drains += 1;
        }
        self.note_bin();
        released
    }

    // ---- epochs ---------------------------------------------------------------------------

    /// Submits the recording command buffer as the next epoch and returns that epoch; then
    /// drains. Out of memory runs the submission ladder ([`Manager::submit_with`]); on a
    /// failure other than device loss the recording is discarded.
    pub fn submit(&mut self) -> Result<Epoch> {
        self.submit_with(|backend, epoch, shape| match shape {
            SubmitShape::Whole => backend.submit(epoch).map(|()| true),
            SubmitShape::Split => backend.submit_split(epoch),
        })
    }

    /// [`Manager::submit`] with the backend call supplied: the Vulkan front submits a presented
    /// frame this way (extra semaphores), with the same epoch, fault, ladder and drain
    /// bookkeeping. `submit` makes one attempt in the given shape and answers like
    /// [`Backend::submit`] (`Whole`, `Ok(true)`) or [`Backend::submit_split`] (`Split`).
    ///
    /// Out of memory, from the driver or the fault plan alike, keeps the recording (command
    /// buffers and staged uploads) and climbs the ladder in [`Manager::submit_ladder`]; only
    /// when every rung fails is the recording discarded and the error returned.
    pub(crate) fn submit_with(
        &mut self,
        mut submit: impl FnMut(&mut B, Epoch, SubmitShape) -> Result<bool>,
    ) -> Result<Epoch> {
        self.check_lost()?;
        let epoch = self.clock.recording();
        match self.try_submit(epoch, SubmitShape::Whole, &mut submit) {
            Ok(_) => {}
            Err(e) if e.is_out_of_memory() => self.submit_ladder(epoch, e, &mut submit)?,
            Err(e) => return Err(self.submit_failed(e)),
        }
        self.clock.advance_submitted();
        self.recording_open = false;
        self.staging_submitted(epoch);
        self.poll()?;
        self.release_completed();
        Ok(epoch)
    }

    /// One submission attempt: the fault plan is checked first, so that an injected result
    /// takes exactly the path the driver's would (the backend is not touched, so the recording
    /// is intact, as after a real out-of-memory).
    fn try_submit(
        &mut self,
        epoch: Epoch,
        shape: SubmitShape,
        submit: &mut impl FnMut(&mut B, Epoch, SubmitShape) -> Result<bool>,
    ) -> Result<bool> {
        use crate::classify::{classify, Call};
        if let Some(r) = self.inject(FaultSite::Submit, 0) {
            self.log_failure(Call::Submit, r);
            return Err(classify(Call::Submit, r)
                .error()
                .unwrap_or(MemoryError::Internal("injected success")));
        }
        submit(&mut self.backend, epoch, shape)
    }

    /// A submission that failed for good: device loss latches; anything else throws the
    /// recording away (its commands never run; GL reports the error). Returns the error.
    fn submit_failed(&mut self, error: MemoryError) -> MemoryError {
        if error == MemoryError::DeviceLost {
            self.latch_lost();
        } else {
            self.backend.discard_recording();
            self.recording_open = false;
        }
        error
    }

    /// Out of memory at `vkQueueSubmit`, the recording kept. Each rung frees more and retries
    /// the same submission: drain what completed; wait (bounded) for everything submitted and
    /// release it all with the recycle bin (the blocking GC, without submitting: the recording
    /// is the thing that failed); trim (the C heap's free pages, and the clients' caches at
    /// their next frame). Then the recording is submitted split into its segments. When all
    /// that fails, the recording is discarded and `first` returned.
    fn submit_ladder(
        &mut self,
        epoch: Epoch,
        first: MemoryError,
        submit: &mut impl FnMut(&mut B, Epoch, SubmitShape) -> Result<bool>,
    ) -> Result<()> {
        self.stats.oom_failures += 1;
        let rungs: [fn(&mut Self) -> Result<()>; 3] = [
            Self::submit_rung_drain,
            Self::submit_rung_gc,
            Self::submit_rung_trim,
        ];
        for rung in rungs {
            if let Err(MemoryError::DeviceLost) = rung(self) {
                return Err(self.submit_failed(MemoryError::DeviceLost));
            }
            self.stats.ladder_retries += 1;
            match self.try_submit(epoch, SubmitShape::Whole, submit) {
                Ok(_) => {
                    self.stats.ladder_recoveries += 1;
                    return Ok(());
                }
                Err(e) if e.is_out_of_memory() => self.stats.oom_failures += 1,
                Err(e) => return Err(self.submit_failed(e)),
            }
        }
        match self.try_submit(epoch, SubmitShape::Split, submit) {
            Ok(true) => {
                self.stats.split_submits += 1;
                self.stats.ladder_recoveries += 1;
                return Ok(());
            }
            Ok(false) => {}
            Err(e) if e.is_out_of_memory() => self.stats.oom_failures += 1,
            Err(e) => return Err(self.submit_failed(e)),
        }
        self.stats.refusals += 1;
        self.telemetry_event(crate::telemetry::EventKind::Refusal, 0);
        if let Some(n) = self.allocation_log.hit() {
            tracing::warn!(
                epoch = epoch.get(),
                refusals = n,
                "submission refused after the OOM ladder; its commands are dropped"
            );
        }
        Err(self.submit_failed(first))
    }

    /// Submission ladder, rung 1: release what already completed, without waiting.
    fn submit_rung_drain(&mut self) -> Result<()> {
        self.stats.ladder_drains += 1;
        self.poll()?;
        self.release_completed();
        Ok(())
    }

    /// Submission ladder, rung 2: wait (bounded) for every submitted epoch, release everything
    /// retired and empty the recycle bin. A timeout is not fatal: the next rungs still run.
    fn submit_rung_gc(&mut self) -> Result<()> {
        self.stats.blocking_gcs += 1;
        match self.wait_epoch(self.clock.submitted()) {
            Ok(()) => {}
            Err(MemoryError::DeviceLost) => return Err(MemoryError::DeviceLost),
            Err(e) => tracing::warn!(error = %e, "wait on the submission ladder did not finish"),
        }
        self.release_completed();
        self.empty_recycle_bin();
        Ok(())
    }

    /// Submission ladder, rung 3: give the C heap's free pages back (out of host memory is as
    /// likely as out of device memory at submission) and ask the clients to trim their caches.
    fn submit_rung_trim(&mut self) -> Result<()> {
        if crate::host_heap::trim() {
            self.stats.host_heap_trims += 1;
        }
        self.request_cache_trim();
        Ok(())
    }

    /// Reads the completed epoch from the device without blocking.
    pub fn poll(&mut self) -> Result<Epoch> {
        if self.lost {
            return Ok(self.clock.completed());
        }
        match self.backend.poll_completed() {
            Ok(v) => Ok(self.clock.observe_completed(v)),
            Err(MemoryError::DeviceLost) => {
                self.latch_lost();
                Err(MemoryError::DeviceLost)
            }
            Err(e) => Err(e),
        }
    }

    /// A drain point: polls, then releases everything whose epoch completed. Returns the
    /// number of objects released.
    pub fn drain(&mut self) -> Result<usize> {
        if !self.lost {
            self.poll()?;
        }
        Ok(self.release_completed())
    }

    /// The start-of-frame drain point: releases what completed, then moves the staging arenas
    /// and CPU scratch to the next frame slot (waiting, bounded, for that slot's last reader).
    pub fn begin_frame(&mut self) -> Result<usize> {
        let released = self.drain()?;
        let expired = self.bin.next_frame();
        self.destroy_binned(expired);
        if !self.lost {
            self.refresh_signals();
            self.update_pressure();
            self.rotate_staging()?;
        }
        self.publish_frame();
        self.report_frame();
        Ok(released)
    }

    /// Blocks (at most the configured timeout) until `epoch` completes. Waiting for the epoch
    /// being recorded submits it first.
    pub fn wait_epoch(&mut self, epoch: Epoch) -> Result<()> {
        if self.lost || epoch <= self.clock.completed() {
            return Ok(());
        }
        if epoch > self.clock.submitted() {
            if epoch == self.clock.recording() {
                self.submit()?;
            } else {
                return Err(MemoryError::InvalidRequest(format!(
                    "epoch {epoch} has not been recorded yet"
                )));
            }
        }
        match self.backend.wait(epoch, self.config.wait_timeout) {
            Ok(true) => {
                self.clock.observe_completed(epoch);
                Ok(())
            }
            Ok(false) => {
                if let Some(n) = self.timeout_log.hit() {
                    tracing::warn!(epoch = epoch.get(), times = n, timeout = ?self.config.wait_timeout, "GPU wait timed out");
                }
                Err(MemoryError::Timeout(epoch))
            }
            Err(MemoryError::DeviceLost) => {
                self.latch_lost();
                Err(MemoryError::DeviceLost)
            }
            Err(e) => Err(e),
        }
    }

    /// Blocks at most `timeout` until `epoch` completes; `Ok(false)` when the time ran out.
    /// Waiting for the epoch being recorded submits it first. A lost device reports every
    /// epoch complete (nothing will ever run again).
    pub fn wait_epoch_for(&mut self, epoch: Epoch, timeout: std::time::Duration) -> Result<bool> {
        if self.lost || epoch <= self.clock.completed() {
            return Ok(true);
        }
        if epoch > self.clock.submitted() {
            if epoch == self.clock.recording() {
                self.submit()?;
            } else {
                return Err(MemoryError::InvalidRequest(format!(
                    "epoch {epoch} has not been recorded yet"
                )));
            }
        }
        match self.backend.wait(epoch, timeout) {
            Ok(true) => {
                self.clock.observe_completed(epoch);
                Ok(true)
            }
            Ok(false) => Ok(false),
            Err(MemoryError::DeviceLost) => {
                self.latch_lost();
                Ok(true)
            }
            Err(e) => Err(e),
        }
    }

    /// The blocking GC, a safe wait-idle: submits the recording command buffer if it holds
    /// anything, waits (bounded) for every submitted epoch, releases every retired object and
    /// empties the recycle bin. Recording resumes in a fresh command buffer on the next use.
    pub fn collect_garbage_blocking(&mut self) -> Result<()> {
        self.stats.blocking_gcs += 1;
        if !self.lost {
            if self.recording_open {
                self.submit()?;
            }
            let target = self.clock.submitted();
            self.wait_epoch(target)?;
        }
        self.release_completed();
        self.empty_recycle_bin();
        Ok(())
    }

    /// A snapshot of the statistics.
    pub fn stats(&self) -> MemoryStats {
        let mut s = self.stats.clone();
        s.device_memory = self.backend.device_memory();
        s.allocation_clamp = self.allocation_cap;
        s.views_live = self.views.len() as u64;
        s.samplers_live = self.samplers.len() as u64;
        s.epoch_submitted = self.clock.submitted();
        s.epoch_completed = self.clock.completed();
        s
    }

    /// Labels of live buffers and images (the leak report).
    pub fn live_objects(&self) -> Vec<String> {
        let buffers = self
            .buffers
            .iter()
            .map(|(h, e)| format!("buffer {:?} '{}' {} bytes", h, e.desc.name, e.desc.size));
        let images = self.images.iter().map(|(h, e)| {
            format!(
                "image {:?} '{}' {}x{}x{}",
                h, e.desc.name, e.desc.extent.width, e.desc.extent.height, e.desc.extent.depth
            )
        });
        buffers.chain(images).collect()
    }

    /// Live buffers and images grouped by name: `(name, objects, bytes)`, most bytes first.
    /// What an over-budget refusal logs, so a leak names its owner.
    pub fn live_by_name(&self) -> Vec<(&'static str, u64, u64)> {
        let mut groups: std::collections::BTreeMap<&'static str, (u64, u64)> =
            std::collections::BTreeMap::new();
        let buffers = self
            .buffers
            .iter()
            .map(|(_, e)| (e.desc.name, e.alloc.size));
        let images = self.images.iter().map(|(_, e)| (e.desc.name, e.alloc.size));
        for (name, bytes) in buffers.chain(images) {
            let g = groups.entry(name).or_default();
            g.0 += 1;
            g.1 += bytes;
        }
        let mut out: Vec<_> = groups.into_iter().map(|(n, (c, b))| (n, c, b)).collect();
        out.sort_by_key(|&(_, _, bytes)| std::cmp::Reverse(bytes));
        out
    }
}

/// Raw objects made on a re-opened device for the live handles, before they replace the lost
/// device's (`Manager::move_to_backend`).
struct Rebuilt<B: Backend> {
    buffers: Vec<(BufferHandle, B::Buffer, AllocInfo)>,
    images: Vec<(ImageHandle, B::Image, AllocInfo)>,
    views: Vec<(ViewHandle, B::View)>,
    samplers: Vec<(SamplerHandle, B::Sampler)>,
}

impl<B: Backend> Rebuilt<B> {
    fn destroy_on(self, backend: &mut B) {
        self.views
            .into_iter()
            .for_each(|(_, v)| backend.destroy_view(v));
        self.samplers
            .into_iter()
            .for_each(|(_, s)| backend.destroy_sampler(s));
        self.buffers
            .into_iter()
            .for_each(|(_, b, _)| backend.destroy_buffer(b));
        self.images
            .into_iter()
            .for_each(|(_, i, _)| backend.destroy_image(i));
    }
}

// ---- recovery: the doors `recover.rs` re-opens the device through -----------------------
impl<B: Backend> Manager<B> {
    /// Destroys every retired object now, whatever its epoch (the lost device runs nothing
    /// any more: `recover.rs` checked it is quiescent), and empties the recycle bin.
    pub(crate) fn release_all_retired(&mut self) {
        for (_, item) in self.retire_queue.drain_all() {
            self.stats.pending_release_objects =
                self.stats.pending_release_objects.saturating_sub(1);
            self.stats.pending_release_bytes = self
                .stats
                .pending_release_bytes
                .saturating_sub(item.bytes());
            self.destroy(item);
        }
        self.empty_recycle_bin();
    }

    /// Makes every live object again on `fresh` (same descriptions, same placement class);
    /// on a failure destroys what it made there and hands `fresh` back.
    fn rebuild_on(&self, fresh: &mut B) -> Result<Rebuilt<B>> {
        let mut made = Rebuilt {
            buffers: Vec::new(),
            images: Vec::new(),
            views: Vec::new(),
            samplers: Vec::new(),
        };
        let result = (|| {
            for (h, e) in self.buffers.iter() {
                let placement = Placement {
                    class: e.desc.class,
                    dedicated: e.alloc.dedicated,
                };
                let (raw, alloc) = fresh.create_buffer(&e.desc, placement)?;
                made.buffers.push((h, raw, alloc));
            }
            for (h, e) in self.images.iter() {
                let placement = Placement {
                    class: MemoryClass::DeviceImage,
                    dedicated: e.alloc.dedicated,
                };
                let (raw, alloc) = fresh.create_image(&e.desc, placement)?;
                made.images.push((h, raw, alloc));
            }
            for (h, v) in self.views.iter() {
                let image_desc = &self.images.get(v.image)?.desc;
                let (_, raw_image, _) = made
                    .images
                    .iter()
                    .find(|(i, ..)| *i == v.image)
                    .ok_or(MemoryError::Internal("a view's image was not re-created"))?;
                let raw = fresh.create_view(raw_image, image_desc, &v.desc)?;
                made.views.push((h, raw));
            }
            for (h, s) in self.samplers.iter() {
                made.samplers.push((h, fresh.create_sampler(&s.desc)?));
            }
            Ok(())
        })();
        match result {
            Ok(()) => Ok(made),
            Err(e) => {
                made.destroy_on(fresh);
                Err(e)
            }
        }
    }

    /// Moves every live object onto `fresh`, a device re-opened after a loss, under the same
    /// handles: each gets a new raw object (stamped unused, images back in `UNDEFINED`), the
    /// lost device's raw objects are destroyed, and the lost device itself is dropped. On a
    /// failure nothing changed and `fresh` comes back with the error.
    pub(crate) fn move_to_backend(
        &mut self,
        mut fresh: B,
    ) -> std::result::Result<(), (B, MemoryError)> {
        let made = match self.rebuild_on(&mut fresh) {
            Ok(made) => made,
            Err(e) => return Err((fresh, e)),
        };
        let mut old = Rebuilt::<B> {
            buffers: Vec::new(),
            images: Vec::new(),
            views: Vec::new(),
            samplers: Vec::new(),
        };
        for (h, raw) in made.views {
            if let Ok(e) = self.views.get_mut(h) {
                e.last_use = Epoch::ZERO;
                old.views.push((h, std::mem::replace(&mut e.raw, raw)));
            }
        }
        for (h, raw) in made.samplers {
            if let Ok(e) = self.samplers.get_mut(h) {
                e.last_use = Epoch::ZERO;
                old.samplers.push((h, std::mem::replace(&mut e.raw, raw)));
            }
        }
        let mut accounting = Vec::new();
        for (h, raw, alloc) in made.buffers {
            if let Ok(e) = self.buffers.get_mut(h) {
                e.last_use = Epoch::ZERO;
                let was = std::mem::replace(&mut e.alloc, alloc);
                accounting.push((e.desc.category, was, alloc));
                old.buffers
                    .push((h, std::mem::replace(&mut e.raw, raw), was));
            }
        }
        for (h, raw, alloc) in made.images {
            if let Ok(e) = self.images.get_mut(h) {
                e.last_use = Epoch::ZERO;
                e.layout = vk::ImageLayout::UNDEFINED;
                let was = std::mem::replace(&mut e.alloc, alloc);
                accounting.push((e.desc.category, was, alloc));
                old.images
                    .push((h, std::mem::replace(&mut e.raw, raw), was));
            }
        }
        for (category, was, now) in accounting {
            self.account_released(category, &was);
            self.account_created(category, &now);
        }
        old.destroy_on(&mut self.backend);
        let lost = std::mem::replace(&mut *self.backend, fresh);
        drop(lost);
        Ok(())
    }

    /// The last step of a recovery: every epoch of the lost device counts as complete (it will
    /// never run), and the latch opens again with a new flag (clients holding the old one keep
    /// seeing the loss until they fetch the new one).
    pub(crate) fn reopen_latch(&mut self) {
        self.clock.observe_completed(self.clock.submitted());
        self.lost = false;
        self.lost_flag = LostFlag::default();
        self.stats.device_lost = false;
        self.recording_open = false;
        self.last_proactive_gc = None;
    }

    /// The live buffers and images (the restore walks them).
    pub(crate) fn live_resources(&self) -> (Vec<BufferHandle>, Vec<ImageHandle>) {
        let buffers = self.buffers.iter().map(|(h, _)| h).collect();
        let images = self.images.iter().map(|(h, _)| h).collect();
        (buffers, images)
    }
}

impl<B: Backend> Manager<B> {
    /// After a loss: whether the device can no longer run anything we gave it (really lost, or
    /// alive and done with everything submitted, waiting a bounded time for that).
    pub(crate) fn device_quiescent(&mut self) -> bool {
        let submitted = self.clock.submitted();
        match self.backend.poll_completed() {
            Err(_) => true,
            Ok(v) if v >= submitted => true,
            Ok(_) => !matches!(
                self.backend.wait(submitted, self.config.wait_timeout),
                Ok(false)
            ),
        }
    }
}

impl<B: Backend> Drop for Manager<B> {
    fn drop(&mut self) {
        self.report_final();
        let idle = if self.lost {
            self.device_quiescent()
        } else {
            // A GC that fails because the device was lost may still leave nothing executing.
            self.collect_garbage_blocking().is_ok() || (self.lost && self.device_quiescent())
        };
        if !idle {
            // The GPU did not finish in time: destroying what it may still use would be a
            // use-after-free on the device. Leak it all, the backend included, and say so.
            tracing::error!("GPU did not go idle at shutdown; leaking all device memory");
            return;
        }
        self.release_staging();
        let leaks = self.live_objects();
        if !leaks.is_empty() {
            tracing::warn!(count = leaks.len(), first = ?leaks.first(), "objects still alive when the memory manager was dropped");
        }
        for (_, item) in self.retire_queue.drain_all() {
            self.destroy(item);
        }
        self.empty_recycle_bin();
        for v in self.views.drain() {
            self.backend.destroy_view(v.raw);
        }
        for s in self.samplers.drain() {
            self.backend.destroy_sampler(s.raw);
        }
        for b in self.buffers.drain() {
            self.backend.destroy_buffer(b.raw);
        }
        for i in self.images.drain() {
            self.backend.destroy_image(i.raw);
        }
        // SAFETY: `backend` is dropped exactly once, here, after every object it created has
        // been destroyed; no field is used afterwards.
        unsafe { ManuallyDrop::drop(&mut self.backend) };
    }
}

const SUPPORTED_BUFFER_USAGE: vk::BufferUsageFlags = vk::BufferUsageFlags::from_raw(
    vk::BufferUsageFlags::TRANSFER_SRC.as_raw()
        | vk::BufferUsageFlags::TRANSFER_DST.as_raw()
        | vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER.as_raw()
        | vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER.as_raw()
        | vk::BufferUsageFlags::UNIFORM_BUFFER.as_raw()
        | vk::BufferUsageFlags::STORAGE_BUFFER.as_raw()
        | vk::BufferUsageFlags::INDEX_BUFFER.as_raw()
        | vk::BufferUsageFlags::VERTEX_BUFFER.as_raw()
        | vk::BufferUsageFlags::INDIRECT_BUFFER.as_raw()
        // Only requested where `Gl4Features::transform_feedback` is on.
        | vk::BufferUsageFlags::TRANSFORM_FEEDBACK_BUFFER_EXT.as_raw()
        | vk::BufferUsageFlags::TRANSFORM_FEEDBACK_COUNTER_BUFFER_EXT.as_raw(),
);

fn validate_buffer(desc: &BufferDesc, max_allocation: u64) -> Result<()> {
    if desc.size == 0 {
        return Err(MemoryError::InvalidRequest("buffer of zero bytes".into()));
    }
    if desc.size > max_allocation {
        return Err(MemoryError::InvalidRequest(format!(
            "buffer of {} bytes exceeds maxMemoryAllocationSize ({max_allocation})",
            desc.size
        )));
    }
    if desc.usage.is_empty() {
        return Err(MemoryError::InvalidRequest("buffer with no usage".into()));
    }
    if !SUPPORTED_BUFFER_USAGE.contains(desc.usage) {
        return Err(MemoryError::Unsupported(format!(
            "buffer usage {:?}",
            desc.usage & !SUPPORTED_BUFFER_USAGE
        )));
    }
    Ok(())
}

fn validate_image(desc: &ImageDesc) -> Result<()> {
    let e = desc.extent;
    if e.width == 0 || e.height == 0 || e.depth == 0 {
        return Err(MemoryError::InvalidRequest(format!(
            "image with an empty extent {}x{}x{}",
            e.width, e.height, e.depth
        )));
    }
    if desc.mip_levels == 0 || desc.mip_levels > ImageDesc::full_mip_count(e) {
        return Err(MemoryError::InvalidRequest(format!(
            "{} mip levels for a {}x{}x{} image",
            desc.mip_levels, e.width, e.height, e.depth
        )));
    }
    if desc.array_layers == 0 {
        return Err(MemoryError::InvalidRequest("image with no layers".into()));
    }
    if desc.usage.is_empty() {
        return Err(MemoryError::InvalidRequest("image with no usage".into()));
    }
    Ok(())
}

fn validate_view(image: &ImageDesc, desc: &ViewDesc) -> Result<()> {
    let mips = if desc.mip_level_count == vk::REMAINING_MIP_LEVELS {
        image.mip_levels.saturating_sub(desc.base_mip_level)
    } else {
        desc.mip_level_count
    };
    // A 2D(-array) view of a 2D-array-compatible 3D image addresses the depth slices of one
    // level as its layers.
    let slices = image.image_type == vk::ImageType::TYPE_3D
        && image
            .flags
            .contains(vk::ImageCreateFlags::TYPE_2D_ARRAY_COMPATIBLE)
        && matches!(
            desc.view_type,
            vk::ImageViewType::TYPE_2D | vk::ImageViewType::TYPE_2D_ARRAY
        );
    let array_layers = if slices {
        if desc.mip_level_count != 1 {
            return Err(MemoryError::InvalidRequest(
                "a 2D view of a 3D image has exactly one level".into(),
            ));
        }
        (image.extent.depth >> desc.base_mip_level).max(1)
    } else {
        image.array_layers
    };
    let layers = if desc.layer_count == vk::REMAINING_ARRAY_LAYERS {
        array_layers.saturating_sub(desc.base_array_layer)
    } else {
        desc.layer_count
    };
    let mip_end = desc.base_mip_level.checked_add(mips);
    let layer_end = desc.base_array_layer.checked_add(layers);
    if mips == 0 || mip_end.is_none_or(|end| end > image.mip_levels) {
        return Err(MemoryError::InvalidRequest(format!(
            "view of mips {}+{} of an image with {}",
            desc.base_mip_level, desc.mip_level_count, image.mip_levels
        )));
    }
    if layers == 0 || layer_end.is_none_or(|end| end > array_layers) {
        return Err(MemoryError::InvalidRequest(format!(
            "view of layers {}+{} of an image with {array_layers}",
            desc.base_array_layer, desc.layer_count
        )));
    }
    let cube = matches!(
        desc.view_type,
        vk::ImageViewType::CUBE | vk::ImageViewType::CUBE_ARRAY
    );
    if cube && (!image.flags.contains(vk::ImageCreateFlags::CUBE_COMPATIBLE) || layers % 6 != 0) {
        return Err(MemoryError::InvalidRequest(
            "cube view of an image that is not cube-compatible or not 6n layers".into(),
        ));
    }
    if desc.aspect.is_empty() {
        return Err(MemoryError::InvalidRequest("view with no aspect".into()));
    }
    Ok(())
}
