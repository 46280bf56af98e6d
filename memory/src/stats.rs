//! Statistics: plain counters, cheap enough to copy out every frame.
//!
//! Bytes count from creation until the memory is actually released, so a retired object still
//! waiting for its epoch still counts (it still occupies the heap) and is also shown in
//! `pending_release_*`. Device-memory figures (`vkAllocateMemory` calls, blocks) come from the
//! backend: VMA's device-memory callbacks on Vulkan, the simulated heap otherwise.
//!
//! Design decisions:
//! - The manager owns its `MemoryStats` (a private field of `Manager`). `manager.rs` updates the
//!   counters of its own mechanisms directly; every other file of the crate reports what it
//!   counts as a `Stat` through `Manager::record_stat`, so the list of outside writers is the
//!   list of `Stat`'s variants, and `MemoryStats::record` is the one place that maps them to
//!   counters.

#![deny(unsafe_code, clippy::unwrap_used)]

use crate::desc::Category;
use crate::Epoch;

/// Live and peak bytes of one category.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CategoryStats {
    /// Bytes currently allocated (live or waiting for release).
    pub live_bytes: u64,
    /// The most `live_bytes` ever reached.
    pub peak_bytes: u64,
    /// Objects currently allocated.
    pub live_objects: u64,
}

impl CategoryStats {
    pub(crate) fn add(&mut self, bytes: u64) {
        self.live_bytes += bytes;
        self.live_objects += 1;
        self.peak_bytes = self.peak_bytes.max(self.live_bytes);
    }

    pub(crate) fn sub(&mut self, bytes: u64) {
        self.live_bytes = self.live_bytes.saturating_sub(bytes);
        self.live_objects = self.live_objects.saturating_sub(1);
    }
}

/// Device-memory counters reported by a backend.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeviceMemoryCounters {
    /// `VkDeviceMemory` objects alive now.
    pub live_objects: u32,
    /// `vkAllocateMemory` calls so far.
    pub allocate_calls: u64,
    /// `vkFreeMemory` calls so far.
    pub free_calls: u64,
    /// Bytes in live `VkDeviceMemory` objects.
    pub block_bytes: u64,
}

/// A snapshot of everything the manager counts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemoryStats {
    /// Per category, indexed by [`Category::index`].
    pub categories: [CategoryStats; Category::COUNT],
    /// Sum of the categories' live bytes.
    pub live_bytes: u64,
    /// The most `live_bytes` ever reached.
    pub peak_bytes: u64,
    /// Sub-allocations (buffers and images) alive now.
    pub sub_allocations_live: u64,
    /// Sub-allocations ever made.
    pub sub_allocations_total: u64,
    /// Of the live sub-allocations, how many own a dedicated `VkDeviceMemory`.
    pub dedicated_live: u64,
    /// Device memory as the backend sees it.
    pub device_memory: DeviceMemoryCounters,
    /// The effective allocation-count cap (the limit on live `VkDeviceMemory` objects).
    pub allocation_clamp: u32,
    /// Image views alive now.
    pub views_live: u64,
    /// Samplers alive now.
    pub samplers_live: u64,
    /// Objects retired and waiting for their epoch.
    pub pending_release_objects: u64,
    /// Bytes retired and waiting for their epoch.
    pub pending_release_bytes: u64,
    /// Objects released after their epoch completed.
    pub released_objects: u64,
    /// Bytes released after their epoch completed.
    pub released_bytes: u64,
    /// Drain passes that released at least one object.
    pub drains: u64,
    /// Proactive collections: run because the allocation count passed 70 % of the
    /// allocation-count cap, or by the pressure policy.
    pub proactive_gcs: u64,
    /// Blocking collections (submit, wait, drain).
    pub blocking_gcs: u64,
    /// Times the allocation count passed 80 % of the allocation-count cap.
    pub clamp_warnings: u64,
    /// Allocation attempts the device (or an injected fault) refused with out-of-memory.
    pub oom_failures: u64,
    /// OOM-ladder drains (the first rung).
    pub ladder_drains: u64,
    /// Retries after a ladder rung freed memory.
    pub ladder_retries: u64,
    /// Allocations and submissions that failed once and then succeeded on the ladder.
    pub ladder_recoveries: u64,
    /// Submissions that went through only split into their segments (the submission ladder's
    /// last rung).
    pub split_submits: u64,
    /// Requests finally refused with an out-of-memory error.
    pub refusals: u64,
    /// Of the refusals, those made because the budget would be crossed.
    pub budget_refusals: u64,
    /// The pressure level (0 normal, 1 warn, 2 critical, 3 over) when a budget is in force.
    pub pressure_level: u8,
    /// Pressure level changes so far.
    pub pressure_transitions: u64,
    /// Textures demoted (top mip levels dropped) under pressure, by the translator.
    pub demotions: u64,
    /// Bytes those demotions freed.
    pub demoted_bytes: u64,
    /// Demoted textures restored to their full mip chain.
    pub restorations: u64,
    /// Objects the every-64-frames sweep at Critical released.
    pub evictions: u64,
    /// Times the translator trimmed its pipeline, descriptor and sampler caches.
    pub cache_trims: u64,
    /// The presenter's internal render scale in percent (0 until a presenter reports one).
    pub render_scale_percent: u32,
    /// Faults injected by the fault plan.
    pub faults_injected: u64,
    /// Destructions refused by the debug use-after-free check (must stay 0).
    pub release_violations: u64,
    /// Bytes uploaded through the staging arenas.
    pub staged_bytes: u64,
    /// Bytes written straight into idle host-visible buffers (unified memory).
    pub direct_write_bytes: u64,
    /// Bytes read back to the host.
    pub readback_bytes: u64,
    /// Bytes copied from buffers into images on the device (pixel unpack buffers), with no
    /// staging and no CPU pass.
    pub buffer_to_image_bytes: u64,
    /// Staging arena blocks created (primary and overflow).
    pub staging_blocks_created: u64,
    /// Frame starts that waited for a staging slot's last reader.
    pub staging_waits: u64,
    /// Staging slots rewound in place between frames, once the device had finished with them
    /// (`Manager::rewind_idle_staging`: programs that never swap).
    pub staging_idle_rewinds: u64,
    /// Uploads that found the current staging slot's arena full of recorded copies and
    /// rewound it after waiting for the device, instead of chaining a block (loading).
    pub staging_bounds: u64,
    /// Times the C heap's free pages were given back because device memory, which is host
    /// memory on this device, grew by a block (`Manager::set_trim_host_heap`).
    pub host_heap_trims: u64,
    /// The last epoch submitted.
    pub epoch_submitted: Epoch,
    /// The newest epoch known complete.
    pub epoch_completed: Epoch,
    /// Whether the device-lost latch is set.
    pub device_lost: bool,
    /// The `minImageCount` the newest swapchain was created with (0: none yet).
    pub swapchain_min_images: u64,
    /// The images the newest swapchain has (what `vkGetSwapchainImagesKHR` returned).
    pub swapchain_images: u64,
    /// Of those, how many have been presented: the drawables actually cycled through.
    pub swapchain_images_presented: u64,
    /// Buffers and images created by taking an identical released one from the recycle bin.
    pub recycled: u64,
    /// Bytes in the recycle bin now (counted in their categories' live bytes too).
    pub recycle_bin_bytes: u64,
    /// Buffers and images in the recycle bin now.
    pub recycle_bin_objects: u64,
    /// Swapchains created since the device was made: one per window, plus one per rebuild
    /// (resize, out-of-date, recovery).
    pub swapchains_created: u64,
    /// Bytes the restore journal holds (`journal.rs`): file-backed, written back by the
    /// kernel, so clean memory, never dirty.
    pub journal_bytes: u64,
    /// Length of the journal's file.
    pub journal_file_bytes: u64,
    /// Objects with journal entries.
    pub journal_objects: u64,
    /// Objects evicted from the journal to stay under its cap (they come back cleared).
    pub journal_evictions: u64,
    /// Devices re-opened after a loss (`recover.rs`).
    pub recoveries: u64,
}

/// A statistic another file of the crate reports to the manager (`Manager::record_stat`).
/// Counts add to their counter; `PressureLevel`, `RenderScale`, `SwapchainsCreated` and
/// `NewestSwapchain` set theirs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stat {
    /// Bytes uploaded through the staging arenas (`vulkan/transfer.rs`, `vulkan/render.rs`).
    StagedBytes(u64),
    /// Bytes written straight into an idle host-visible buffer (`vulkan/transfer.rs`).
    DirectWriteBytes(u64),
    /// Bytes read back to the host (`vulkan/transfer.rs`).
    ReadbackBytes(u64),
    /// Bytes copied from a buffer into an image on the device (`vulkan/buffer_to_image.rs`).
    BufferToImageBytes(u64),
    /// A staging arena block was created (`staging.rs`).
    StagingBlockCreated,
    /// A frame start waited for its staging slot's last reader (`staging.rs`).
    StagingWait,
    /// The current staging slot was rewound in place (`staging.rs`).
    StagingIdleRewind,
    /// An upload rewound a full slot after waiting for the device (`staging.rs`).
    StagingBound,
    /// A call outside the allocation path failed for memory: pipelines, swapchains, acquire,
    /// present (`vulkan/pipeline.rs`, `vulkan/present.rs`).
    OutOfMemory,
    /// Such a call was finally refused (`vulkan/pipeline.rs`).
    Refusal,
    /// The restore journal's figures now (`recover.rs`).
    Journal(crate::journal::JournalFigures),
    /// A lost device was re-opened (`recover.rs`).
    Recovered,
    /// The OOM ladder's first rung ran for such a call (`vulkan/pipeline.rs`).
    LadderDrain,
    /// Such a call was retried after the first rung (`vulkan/pipeline.rs`).
    LadderRetry,
    /// An allocation was refused because it would cross the budget (`budget.rs`); also a
    /// refusal.
    BudgetRefusal,
    /// The pressure policy ran a proactive collection (`budget.rs`).
    ProactiveGc,
    /// The pressure level changed this many times in one update (`budget.rs`).
    PressureTransitions(u64),
    /// The pressure level now: 0 normal, 1 warn, 2 critical, 3 over (`budget.rs`).
    PressureLevel(u8),
    /// A client demoted textures, freeing bytes (`budget.rs`, `Manager::record_degradation`).
    Demoted { textures: u64, bytes: u64 },
    /// A client restored demoted textures (`budget.rs`).
    Restored { textures: u64 },
    /// The sweep at Critical released objects (`budget.rs`).
    Pruned { objects: u64 },
    /// A client trimmed its caches (`budget.rs`).
    CachesTrimmed,
    /// The presenter's render scale in percent (`budget.rs`).
    RenderScale(u32),
    /// Swapchains created so far (`vulkan/present.rs`).
    SwapchainsCreated(u64),
    /// The newest swapchain's requested, actual and presented image counts
    /// (`vulkan/present.rs`).
    NewestSwapchain {
        min_images: u64,
        images: u64,
        presented: u64,
    },
}

impl MemoryStats {
    /// Applies a statistic reported from outside `manager.rs` (see [`Stat`]).
    pub(crate) fn record(&mut self, stat: Stat) {
        match stat {
            Stat::StagedBytes(n) => self.staged_bytes += n,
            Stat::DirectWriteBytes(n) => self.direct_write_bytes += n,
            Stat::ReadbackBytes(n) => self.readback_bytes += n,
            Stat::BufferToImageBytes(n) => self.buffer_to_image_bytes += n,
            Stat::StagingBlockCreated => self.staging_blocks_created += 1,
            Stat::StagingWait => self.staging_waits += 1,
            Stat::StagingIdleRewind => self.staging_idle_rewinds += 1,
            Stat::StagingBound => self.staging_bounds += 1,
            Stat::OutOfMemory => self.oom_failures += 1,
            Stat::Refusal => self.refusals += 1,
            Stat::Journal(f) => {
                self.journal_bytes = f.bytes;
                self.journal_file_bytes = f.file_bytes;
                self.journal_objects = f.objects;
                self.journal_evictions = f.evictions;
            }
            Stat::Recovered => self.recoveries += 1,
            Stat::LadderDrain => self.ladder_drains += 1,
            Stat::LadderRetry => self.ladder_retries += 1,
            Stat::BudgetRefusal => {
                self.refusals += 1;
                self.budget_refusals += 1;
            }
            Stat::ProactiveGc => self.proactive_gcs += 1,
            Stat::PressureTransitions(n) => self.pressure_transitions += n,
            Stat::PressureLevel(level) => self.pressure_level = level,
            Stat::Demoted { textures, bytes } => {
                self.demotions += textures;
                self.demoted_bytes += bytes;
            }
            Stat::Restored { textures } => self.restorations += textures,
            Stat::Pruned { objects } => self.evictions += objects,
            Stat::CachesTrimmed => self.cache_trims += 1,
            Stat::RenderScale(percent) => self.render_scale_percent = percent,
            Stat::SwapchainsCreated(n) => self.swapchains_created = n,
            Stat::NewestSwapchain {
                min_images,
                images,
                presented,
            } => {
                self.swapchain_min_images = min_images;
                self.swapchain_images = images;
                self.swapchain_images_presented = presented;
            }
        }
    }

    /// Buffers and images live for clients: everything but the manager's own staging arenas
    /// (0 once every context and surface on the device is gone and its retires released).
    pub fn client_objects_live(&self) -> u64 {
        let counted: u64 = Category::ALL
            .iter()
            .filter(|&&c| c != Category::Staging)
            .map(|c| self.categories[c.index()].live_objects)
            .sum();
        // The recycle bin's resources stay counted in their categories but belong to no client.
        counted.saturating_sub(self.recycle_bin_objects)
    }

    /// Submitted epochs not yet known complete.
    pub fn epochs_in_flight(&self) -> u64 {
        self.epoch_submitted.since(self.epoch_completed)
    }

    /// Bytes in device-memory blocks that no live sub-allocation uses.
    pub fn unused_block_bytes(&self) -> u64 {
        self.device_memory
            .block_bytes
            .saturating_sub(self.live_bytes)
    }

    /// One line per figure, for the demo and the logs.
    pub fn report(&self) -> String {
        let mut out = String::new();
        let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
        for category in Category::ALL {
            let c = &self.categories[category.index()];
            out += &format!(
                "  {:<15} live {:>9.2} MiB  peak {:>9.2} MiB  objects {}\n",
                category.name(),
                mib(c.live_bytes),
                mib(c.peak_bytes),
                c.live_objects
            );
        }
        out += &format!(
            "  total           live {:>9.2} MiB  peak {:>9.2} MiB\n",
            mib(self.live_bytes),
            mib(self.peak_bytes)
        );
        out += &format!(
            "  device memory   {} live objects (cap {}), {} vkAllocateMemory / {} vkFreeMemory calls, {:.2} MiB in blocks ({:.2} MiB unused)\n",
            self.device_memory.live_objects,
            self.allocation_clamp,
            self.device_memory.allocate_calls,
            self.device_memory.free_calls,
            mib(self.device_memory.block_bytes),
            mib(self.unused_block_bytes()),
        );
        out += &format!(
            "  sub-allocations {} live ({} dedicated), {} total; {} views, {} samplers\n",
            self.sub_allocations_live,
            self.dedicated_live,
            self.sub_allocations_total,
            self.views_live,
            self.samplers_live
        );
        out += &format!(
            "  release         {} pending ({:.2} MiB), {} released ({:.2} MiB) in {} drains\n",
            self.pending_release_objects,
            mib(self.pending_release_bytes),
            self.released_objects,
            mib(self.released_bytes),
            self.drains
        );
        out += &format!(
            "  gc              {} proactive, {} blocking, {} cap warnings\n",
            self.proactive_gcs, self.blocking_gcs, self.clamp_warnings
        );
        out += &format!(
            "  pressure        level {} ({} changes), {} budget refusals\n",
            ["normal", "warn", "critical", "over"]
                .get(self.pressure_level as usize)
                .unwrap_or(&"?"),
            self.pressure_transitions,
            self.budget_refusals
        );
        out += &format!(
            "  degradation     {} demotions ({:.2} MiB freed), {} restorations, {} pruned, {} cache trims{}\n",
            self.demotions,
            mib(self.demoted_bytes),
            self.restorations,
            self.evictions,
            self.cache_trims,
            if self.render_scale_percent > 0 {
                format!(", render scale {} %", self.render_scale_percent)
            } else {
                String::new()
            }
        );
        out += &format!(
            "  oom ladder      {} failures, {} drains, {} retries, {} recoveries ({} split submissions), {} refusals, {} injected faults\n",
            self.oom_failures,
            self.ladder_drains,
            self.ladder_retries,
            self.ladder_recoveries,
            self.split_submits,
            self.refusals,
            self.faults_injected
        );
        out += &format!(
            "  staging         {:.2} MiB staged, {:.2} MiB written directly, {:.2} MiB read back, {} arena blocks created, {} frame waits, {} idle rewinds\n",
            mib(self.staged_bytes),
            mib(self.direct_write_bytes),
            mib(self.readback_bytes),
            self.staging_blocks_created,
            self.staging_waits,
            self.staging_idle_rewinds
        );
        out += &format!(
            "  epochs          submitted {}, completed {}, in flight {}{}\n",
            self.epoch_submitted,
            self.epoch_completed,
            self.epochs_in_flight(),
            if self.device_lost {
                " — DEVICE LOST"
            } else {
                ""
            }
        );
        out
    }
}
