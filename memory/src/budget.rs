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
//!   reaches the rest of the manager only through its methods. The manager calls two hooks
//!   here: `admit_under_budget` before every new allocation, `update_pressure` at every
//!   `begin_frame`.

use arenagl_residency::{
    Action, ActionPolicy, Budget, Category, Level, PressureMonitor, Thresholds, Usage,
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
