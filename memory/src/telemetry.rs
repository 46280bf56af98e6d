//! Publishing the manager's statistics to the telemetry page, once per frame.
//!
//! Design decisions:
//! - Opt-in per manager (`publish_telemetry`); `MemoryManager::from_env` and the demo turn it on
//!   unless `ARENAGL_TELEMETRY=0`. The page itself (layout, seqlock, file) is
//!   `arenagl-residency`'s; this module only maps `MemoryStats` into a `Snapshot`.
//! - Most events are derived by comparing this frame's counters with the last published ones (a
//!   proactive or blocking GC ran, an allocation recovered on the ladder, the allocation-count
//!   cap's 80 % warning fired, the device was lost), so the hot paths carry no telemetry code.
//!   Pressure changes and refusals are recorded when they happen: a level can be entered and
//!   left within one frame, and a refusal carries the size that was refused. Publishing is a
//!   copy of plain counters plus ~80 atomic word stores.
//! - This file owns the manager's `telemetry` field (a [`TelemetryState`], opaque elsewhere)
//!   and reads the rest of the manager through its public methods. The manager calls two hooks
//!   here: `publish_frame` at the end of every `begin_frame`, `telemetry_event` when it refuses
//!   an allocation.

use std::path::Path;

pub(crate) use arenagl_residency::telemetry::EventKind;
use arenagl_residency::telemetry::{unix_time_ns, Counters, Event, EventRing};
use arenagl_residency::{Category, CategoryMap, Level, Snapshot, TelemetryWriter};

use crate::backend::Backend;
use crate::error::{MemoryError, Result};
use crate::manager::Manager;
use crate::stats::MemoryStats;

/// The writer and what was published last (the manager's `telemetry` field, touched only
/// here).
pub(crate) struct TelemetryState {
    writer: TelemetryWriter,
    frame: u64,
    events: EventRing,
    last: MemoryStats,
}

fn level_of(code: u8) -> Level {
    match code {
        0 => Level::Normal,
        1 => Level::Warn,
        2 => Level::Critical,
        _ => Level::Over,
    }
}

impl<B: Backend> Manager<B> {
    /// Starts publishing statistics to a telemetry page in `dir` (default: the per-user runtime
    /// directory), one snapshot per `begin_frame`, for `arenagl top` and `arenagl record`.
    pub fn publish_telemetry(&mut self, dir: Option<&Path>) -> Result<()> {
        let writer = TelemetryWriter::create(dir)
            .map_err(|e| MemoryError::InvalidRequest(format!("telemetry: {e}")))?;
        self.telemetry = Some(TelemetryState {
            writer,
            frame: 0,
            events: EventRing::default(),
            last: self.stats(),
        });
        self.publish_frame();
        Ok(())
    }

    /// Whether a telemetry page is being written.
    pub fn telemetry_enabled(&self) -> bool {
        self.telemetry.is_some()
    }

    /// Hook: the manager calls this when the OOM ladder or the allocation-count cap refuses an
    /// allocation (and `budget.rs` on pressure changes, over-budget refusals and degradations).
    /// Records an event the moment it happens (a pressure level may come and go within one
    /// frame); counters that only grow are turned into events at publication instead. A no-op
    /// while telemetry is off.
    pub(crate) fn telemetry_event(&mut self, kind: EventKind, bytes: u64) {
        if let Some(state) = self.telemetry.as_mut() {
            let frame = state.frame;
            state.events.push(Event { kind, frame, bytes });
        }
    }

    /// Hook: `Manager::begin_frame` calls this last, every frame, lost or not (and
    /// `publish_telemetry` once, to publish at once). Publishes one snapshot of the statistics
    /// and the events gathered since the last one; a no-op while telemetry is off.
    pub(crate) fn publish_frame(&mut self) {
        let stats = self.stats();
        let (budget_bytes, shares) = match self.budget() {
            Some(b) => (b.total_bytes, b.shares),
            None => (0, CategoryMap::default()),
        };
        let Some(state) = self.telemetry.as_mut() else {
            return;
        };
        state.frame += 1;
        let frame = state.frame;
        let last = &state.last;
        let mut push =
            |kind: EventKind, bytes: u64| state.events.push(Event { kind, frame, bytes });
        let released = stats.released_bytes.saturating_sub(last.released_bytes);
        if stats.proactive_gcs > last.proactive_gcs {
            push(EventKind::ProactiveGc, released);
        }
        if stats.blocking_gcs > last.blocking_gcs {
            push(EventKind::BlockingGc, released);
        }
        if stats.ladder_recoveries > last.ladder_recoveries {
            push(EventKind::OomRecovery, 0);
        }
        if stats.clamp_warnings > last.clamp_warnings {
            push(EventKind::ClampWarning, 0);
        }
        if stats.device_lost && !last.device_lost {
            push(EventKind::DeviceLost, 0);
        }
        let mut live = CategoryMap::<u64>::default();
        let mut peak = CategoryMap::<u64>::default();
        for category in Category::ALL {
            let c = stats.categories[category.index()];
            live[category] = c.live_bytes;
            peak[category] = c.peak_bytes;
        }
        let snapshot = Snapshot {
            frame,
            timestamp_ns: unix_time_ns(),
            budget_bytes,
            budget_shares: shares,
            live_bytes: live,
            peak_bytes: peak,
            device_memory_objects: u64::from(stats.device_memory.live_objects),
            allocation_clamp: u64::from(stats.allocation_clamp),
            allocate_calls: stats.device_memory.allocate_calls,
            pressure: level_of(stats.pressure_level),
            counters: Counters {
                proactive_gcs: stats.proactive_gcs,
                blocking_gcs: stats.blocking_gcs,
                evictions: stats.evictions,
                demotions: stats.demotions,
                refusals: stats.refusals,
                oom_recoveries: stats.ladder_recoveries,
            },
            epochs_in_flight: stats.epochs_in_flight(),
            pending_release_bytes: stats.pending_release_bytes,
            device_lost: stats.device_lost,
            events: state.events,
        };
        state.writer.publish(&snapshot);
        state.last = stats;
    }
}
