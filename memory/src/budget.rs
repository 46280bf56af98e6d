//! The residency budget inside the manager: every allocation is admitted against the budget
//! before it reaches the device, and every frame the pressure level is updated.
//!
//! Design decisions:
//! - Usage is the manager's own per-category live bytes, which include retired objects still
//!   waiting for their epoch: they occupy the heap until released.
//! - An allocation that would cross the budget first gets the memory that is only waiting for the
//!   GPU (a blocking GC, when anything is pending); if it still does not fit it is refused with
//!   `OverBudget` (reported as `GL_OUT_OF_MEMORY`) instead of letting the platform kill the
//!   process. Usage itself never crosses the budget, so the Over level means *demand* crossed
//!   it: a refusal feeds usage plus the request to the monitor. A refusal also logs the live
//!   buffers and images grouped by name (first, then every 100th): a leak names its owner.
//! - Of the pressure actions, the manager performs its own (proactive GC, staging shrink and its
//!   restoration) and queues the rest (demotion, cache trimming, render scale) for the translator
//!   and presenter, which collect them with [`Manager::take_pressure_actions`].
//! - This file owns the manager's `budget` field (a [`BudgetState`], opaque elsewhere) and
//!   reaches the rest of the manager only through its methods. The manager calls three hooks
//!   here: `admit_under_budget` before every new allocation, `refresh_signals` and then
//!   `update_pressure` at every `begin_frame`.
//! - A budget installed with its inputs ([`Manager::set_live_budget`], what `from_env` does) is
//!   derived again whenever a live signal moves an input: the cgroup limit of the measured
//!   Linux host, a launcher's available bytes (the crash line becomes footprint + usage +
//!   available), `VK_EXT_memory_budget`'s figure. Signals that say "pressure" set the monitor's
//!   floor instead of shrinking the budget, so the level's actions run once and a game that
//!   must load its next chunks may still allocate up to the budget.

use std::time::Instant;

use arenagl_residency::signals::{SignalReader, Signals};
use arenagl_residency::{
    Action, ActionPolicy, Budget, BudgetInputs, Category, Level, PressureMonitor, Profile,
    Thresholds, Usage,
};

use crate::backend::Backend;
use crate::error::{MemoryError, Result};
use crate::manager::Manager;
use crate::stats::Stat;
use crate::telemetry::EventKind;

/// The budget, its monitor and the actions waiting for clients (the manager's `budget` field,
/// touched only here).
pub(crate) struct BudgetState {
    budget: Budget,
    monitor: PressureMonitor,
    pending: Vec<Action>,
    /// What the budget is derived from again when a live signal moves it (`None`: a fixed
    /// budget, which signals can hold at a pressure floor but not move).
    live: Option<Live>,
}

/// The inputs of a live budget and the reader of the signals that move them.
struct Live {
    inputs: BudgetInputs,
    reader: SignalReader,
    /// The profile as derived at start-up: each frame's crash line starts from it.
    profile: Profile,
    /// The cgroup limit the profile was made under.
    cgroup: Option<u64>,
    /// The footprint the inputs were given (`None`: the platform default for the crash line).
    footprint: Option<u64>,
}

/// What a client did under pressure, reported to the manager for its statistics and the
/// telemetry page ([`Manager::record_degradation`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Degradation {
    /// Textures lost their top mip levels (`bytes` freed).
    Demoted { textures: u64, bytes: u64 },
    /// Demoted textures got their levels back (`bytes` allocated again).
    Restored { textures: u64, bytes: u64 },
    /// The every-64-frames sweep at Critical released leftovers (`bytes` freed).
    Pruned { objects: u64, bytes: u64 },
    /// Pipeline, descriptor and sampler caches were trimmed.
    CachesTrimmed { objects: u64 },
    /// The presenter now renders at `percent` % of the window size.
    RenderScale { percent: u32 },
}

impl BudgetState {
    pub(crate) fn new(budget: Budget, policy: ActionPolicy) -> Self {
        let monitor = PressureMonitor::with_config(&budget, Thresholds::default(), policy);
        Self {
            budget,
            monitor,
            pending: Vec::new(),
            live: None,
        }
    }
}

/// `bp` basis points of the budget, in bytes.
fn line(state: &BudgetState, bp: u32) -> u64 {
    let bytes = u128::from(state.budget.total_bytes) * u128::from(bp) / 10_000;
    u64::try_from(bytes).unwrap_or(u64::MAX)
}

impl<B: Backend> Manager<B> {
    /// Installs (or removes) the budget allocations are admitted against.
    pub fn set_budget(&mut self, budget: Option<Budget>) {
        let policy = self.pressure_policy();
        self.budget = budget.map(|b| BudgetState::new(b, policy));
        self.update_pressure();
    }

    /// Installs a budget derived from `inputs` that live platform signals move each frame
    /// (`reader`, [`arenagl_residency::signals`]): a cgroup `memory.max` change or a launcher's
    /// available-bytes report re-derives it, `VK_EXT_memory_budget` is read again, and PSI,
    /// cgroup events and trim levels hold the pressure level at a floor.
    pub fn set_live_budget(&mut self, inputs: BudgetInputs, mut reader: SignalReader) {
        let cgroup = reader.poll(Instant::now()).cgroup_limit_bytes;
        self.set_budget(Some(Budget::derive(&inputs)));
        if let Some(state) = self.budget.as_mut() {
            state.live = Some(Live {
                profile: inputs.profile.clone(),
                footprint: inputs.non_gpu_footprint_bytes,
                inputs,
                reader,
                cgroup,
            });
        }
    }

    /// Hook: `Manager::begin_frame` calls this before [`Manager::update_pressure`]. Reads the
    /// platform's signals and applies them: a new floor, and a budget derived again when its
    /// inputs moved (module `signals` of the residency crate says which signals do what).
    pub(crate) fn refresh_signals(&mut self) {
        let heap_budget = self.backend().heap_budget();
        let usage = self.usage().total();
        let Some(state) = self.budget.as_mut() else {
            return;
        };
        let Some(live) = state.live.as_mut() else {
            return;
        };
        let signals = live.reader.poll(Instant::now());
        state.monitor.set_floor(signals.floor);
        if let Some(budget) = live.rederive(&signals, heap_budget, usage) {
            if budget.total_bytes != state.budget.total_bytes {
                tracing::debug!(
                    from = state.budget.total_bytes,
                    to = budget.total_bytes,
                    binding = budget.derivation.binding.name(),
                    "live signals moved the budget"
                );
            }
            state.budget = budget;
        }
    }

    /// Replaces the pressure policy (demotion age, mip levels dropped, render scale at
    /// Critical); the level and the budget stay.
    pub fn set_pressure_policy(&mut self, policy: ActionPolicy) {
        self.store_pressure_policy(policy);
        if let Some(state) = self.budget.as_mut() {
            state.monitor.set_policy(policy);
        }
    }

    /// The pressure policy in force.
    pub fn pressure_policy(&self) -> ActionPolicy {
        self.config().pressure_policy
    }

    /// Bytes usage must lose to fall below `level`'s exit line (0 when already below it, or when
    /// no budget is in force).
    pub fn bytes_over(&self, level: Level) -> u64 {
        let Some(state) = self.budget.as_ref() else {
            return 0;
        };
        self.usage()
            .total()
            .saturating_sub(line(state, state.monitor.thresholds().exit_bp(level)))
    }

    /// Bytes usage may grow by and stay below `level`'s exit line: how much a client may take
    /// back (restore demoted textures, full render size) without re-entering `level`.
    /// `u64::MAX` when no budget is in force.
    pub fn headroom_below(&self, level: Level) -> u64 {
        let Some(state) = self.budget.as_ref() else {
            return u64::MAX;
        };
        line(state, state.monitor.thresholds().exit_bp(level)).saturating_sub(self.usage().total())
    }

    /// Records what a client did under pressure: statistics, a telemetry event and a log line.
    pub fn record_degradation(&mut self, what: Degradation) {
        let (stat, kind, bytes) = match what {
            Degradation::Demoted { textures, bytes } => (
                Stat::Demoted { textures, bytes },
                EventKind::Demotion,
                bytes,
            ),
            Degradation::Restored { textures, bytes } => {
                (Stat::Restored { textures }, EventKind::Restoration, bytes)
            }
            Degradation::Pruned { objects, bytes } => {
                (Stat::Pruned { objects }, EventKind::Prune, bytes)
            }
            Degradation::CachesTrimmed { objects } => {
                (Stat::CachesTrimmed, EventKind::CacheTrim, objects)
            }
            Degradation::RenderScale { percent } => (
                Stat::RenderScale(percent),
                EventKind::RenderScale,
                u64::from(percent),
            ),
        };
        self.record_stat(stat);
        tracing::info!(?what, "degraded under memory pressure");
        self.telemetry_event(kind, bytes);
    }

    /// The budget in force, if any.
    pub fn budget(&self) -> Option<&Budget> {
        self.budget.as_ref().map(|b| &b.budget)
    }

    /// The pressure level, if a budget is in force.
    pub fn pressure_level(&self) -> Option<Level> {
        self.budget.as_ref().map(|b| b.monitor.level())
    }

    /// Pressure actions meant for the translator and presenter (demote textures, trim caches,
    /// render scale), oldest first.
    pub fn take_pressure_actions(&mut self) -> Vec<Action> {
        self.budget
            .as_mut()
            .map(|b| std::mem::take(&mut b.pending))
            .unwrap_or_default()
    }

    /// Queues [`Action::TrimCaches`] for the clients (the submission OOM ladder's trim rung),
    /// once until they collect it; only under a budget, the only case in which clients collect
    /// pressure actions.
    pub(crate) fn request_cache_trim(&mut self) {
        if let Some(b) = self.budget.as_mut() {
            if !b.pending.contains(&Action::TrimCaches) {
                b.pending.push(Action::TrimCaches);
            }
        }
    }

    /// Live bytes per category, as the budget sees them.
    pub fn usage(&self) -> Usage {
        let mut usage = Usage::default();
        for category in Category::ALL {
            usage[category] = self.category_live_bytes(category);
        }
        usage
    }

    /// Hook: `Manager::begin_frame` calls this after its drain, unless the device is lost (and
    /// this file calls it when the budget changes and around an admission). Feeds the current
    /// usage to the monitor, performs the manager's own actions and queues the clients'.
    pub(crate) fn update_pressure(&mut self) {
        let usage = self.usage().total();
        self.update_pressure_with(usage);
    }

    /// Feeds `demand` (usage, or usage plus a refused request) to the monitor, then performs the
    /// manager's own actions and queues the clients'.
    fn update_pressure_with(&mut self, demand: u64) {
        let Some(state) = self.budget.as_mut() else {
            return;
        };
        let update = state
            .monitor
            .update_totals(demand, state.budget.total_bytes);
        let level = update.level;
        let mut gc = false;
        for action in update.actions {
            match action {
                Action::ProactiveGc => gc = true,
                Action::ShrinkStaging => {}
                Action::RefuseAllocations | Action::AcceptAllocations => {}
                other => state.pending.push(other),
            }
        }
        if !update.transitions.is_empty() {
            self.record_stat(Stat::PressureTransitions(update.transitions.len() as u64));
            tracing::info!(
                ?level,
                usage = update.usage_bytes,
                budget = update.budget_bytes,
                "pressure level changed"
            );
            for t in &update.transitions {
                self.telemetry_event(EventKind::Pressure(t.to), update.usage_bytes);
            }
        }
        self.record_stat(Stat::PressureLevel(level as u8));
        // Staging runs at half size while under pressure, at full size otherwise; the arena
        // applies a new size to each slot at its next rewind.
        let full = self.config().staging_arena_size.max(1);
        let wanted = if level >= Level::Warn {
            (full / 2).max(1 << 20).min(full)
        } else {
            full
        };
        if let Some(size) = std::num::NonZeroU64::new(wanted) {
            self.resize_staging_arenas(size);
        }
        if gc {
            self.record_stat(Stat::ProactiveGc);
            let _ = self.drain();
        }
        // Above Normal the recycle bin holds nothing: it is the cheapest memory to give back.
        if level >= Level::Warn {
            self.empty_recycle_bin();
        }
    }

    /// Hook: `Manager::create_buffer` and `create_image` call this before every new allocation
    /// (not when the recycle bin supplies the object). Admits `bytes` more of `category` under
    /// the budget, running a blocking GC first if retired or binned memory would make it fit;
    /// otherwise refuses with `OverBudget` and logs the live objects by name.
    pub(crate) fn admit_under_budget(&mut self, category: Category, bytes: u64) -> Result<()> {
        if self.budget.is_none() {
            return Ok(());
        }
        self.update_pressure();
        let admitted = |m: &Self| {
            m.budget
                .as_ref()
                .is_none_or(|b| b.monitor.admit(category, bytes).is_ok())
        };
        if admitted(self) {
            return Ok(());
        }
        if self.has_collectable_memory() {
            match self.collect_garbage_blocking() {
                Ok(()) | Err(MemoryError::Timeout(_)) => {}
                Err(e) => return Err(e),
            }
            self.update_pressure();
            if admitted(self) {
                return Ok(());
            }
        }
        self.record_stat(Stat::BudgetRefusal);
        let usage = self.usage().total();
        // Demand has crossed the budget: that is the Over level, whatever usage itself is. The
        // next frame's update brings the level back down (with hysteresis) once demand falls.
        self.update_pressure_with(usage.saturating_add(bytes));
        self.telemetry_event(EventKind::Refusal, bytes);
        let budget = self.budget.as_ref().map_or(0, |b| b.budget.total_bytes);
        self.log_over_budget_refusal(bytes, usage);
        Err(MemoryError::OverBudget {
            requested: bytes,
            usage,
            budget,
        })
    }
}

impl Live {
    /// The budget derived again when `signals`, `heap_budget` or (while a launcher reports
    /// available bytes) `usage` move its inputs; `None` when nothing moved.
    fn rederive(
        &mut self,
        signals: &Signals,
        heap_budget: Option<u64>,
        usage: u64,
    ) -> Option<Budget> {
        let mut moved = false;
        if signals.cgroup_limit_bytes != self.cgroup && self.profile.is_linux_host() {
            self.cgroup = signals.cgroup_limit_bytes;
            self.profile = Profile::linux_host_with_cgroup(self.cgroup);
            moved = true;
        }
        // With a report of available bytes, the crash line is what the process holds now (its
        // footprint, kept at the start-up figure, and the GPU memory in use) plus what it may
        // still take.
        let (crash_line, footprint) = match signals.available_bytes {
            Some(available) => {
                let footprint = self
                    .footprint
                    .unwrap_or_else(|| self.profile.default_footprint_bytes());
                let line = footprint.saturating_add(usage).saturating_add(available);
                (line, Some(footprint))
            }
            None => (self.profile.crash_limit_bytes, self.footprint),
        };
        if crash_line != self.inputs.profile.crash_limit_bytes
            || footprint != self.inputs.non_gpu_footprint_bytes
        {
            self.inputs.non_gpu_footprint_bytes = footprint;
            self.inputs.profile = Profile {
                crash_limit_bytes: crash_line,
                ..self.profile.clone()
            };
            moved = true;
        }
        if let Some(vulkan) = self.inputs.vulkan.as_mut() {
            if heap_budget.is_some() && vulkan.heap_budget_bytes != heap_budget {
                vulkan.heap_budget_bytes = heap_budget;
                moved = true;
            }
        }
        moved.then(|| Budget::derive(&self.inputs))
    }
}
