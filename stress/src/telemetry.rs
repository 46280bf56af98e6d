//! The memory manager's figures for this process, from the telemetry page ArenaGL publishes at
//! every frame boundary (the same page `arenagl top` reads).
//!
//! Only ArenaGL publishes a page, so none found means another implementation (or telemetry off
//! with `ARENAGL_TELEMETRY=0`): every figure is then unknown rather than zero.

use arenagl_residency::{Snapshot, TelemetryReader};

/// The figures a stress run and a benchmark report.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemoryFigures {
    /// Sum of the per-category peaks.
    pub peak_device_bytes: Option<u64>,
    /// The total budget.
    pub budget_bytes: Option<u64>,
    /// `vkAllocateMemory` calls so far.
    pub allocate_calls: Option<u64>,
}

/// This process's latest snapshot, if it publishes one.
fn own_snapshot() -> Option<Snapshot> {
    TelemetryReader::open(std::process::id()).ok()?.read()
}

/// The figures of this process now.
pub fn own_figures() -> MemoryFigures {
    match own_snapshot() {
        Some(s) => MemoryFigures {
            peak_device_bytes: Some(s.peak_bytes.total()),
            budget_bytes: Some(s.budget_bytes),
            allocate_calls: Some(s.allocate_calls),
        },
        None => MemoryFigures::default(),
    }
}
