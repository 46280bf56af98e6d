//! ArenaGL's residency policy: how much GPU memory the platform will tolerate, and what to do as
//! usage approaches it. Pure logic, no Vulkan, no unsafe outside the telemetry mapping; the memory
//! manager composes it with the real device.
//!
//! # The pieces
//! - [`profiles`]: named device profiles and their per-process crash lines (iOS Jetsam limits,
//!   Android by a low-memory-killer rule, this Linux host from cgroup v2 and available RAM).
//!   Sources for every figure are in `docs/residency-budgets.md`.
//! - [`overrides`]: `ARENAGL_BUDGET_MB` and `ARENAGL_PROFILE`.
//! - [`budget`]: the total GPU budget as the minimum of independent constraints (platform,
//!   Vulkan heap, `VK_EXT_memory_budget`, override), its split into categories, the derivation
//!   trail, and admission of allocations.
//! - [`pressure`]: Normal → Warn → Critical → Over with hysteresis, and the actions each level
//!   asks of the memory manager, the translator and the presenter.
//! - [`signals`]: what the platform says about memory each frame — cgroup v2 `memory.max` and
//!   `memory.events`, Linux PSI, and the launcher's trim levels and available bytes — as a
//!   moving limit and a pressure floor.
//! - [`telemetry`]: the memory-mapped page a running process publishes its figures into every
//!   frame, and the reader `arenagl top` / `arenagl record` attach with; [`seqlock`] is the
//!   lock-free protocol that keeps its snapshots whole. The only `unsafe` in the crate is the
//!   view of that mapping as atomic words (`telemetry/page.rs`).
//!
//! # How the memory manager uses it
//! ```
//! use arenagl_residency::{
//!     Action, Budget, BudgetInputs, Category, EnvOverrides, Profile, PressureMonitor, Usage,
//!     VulkanMemory,
//! };
//!
//! # fn main() -> Result<(), arenagl_residency::ResidencyError> {
//! // At device creation: derive the budget once (again whenever VK_EXT_memory_budget changes).
//! let overrides = EnvOverrides::parse(None, None)?; // EnvOverrides::from_env() in production
//! let inputs = BudgetInputs::new(Profile::by_name("iphone-12")?)
//!     .with_footprint(1024 << 20) // what the launcher's JVM holds
//!     .with_vulkan(VulkanMemory {
//!         device_local_heap_bytes: 4 << 30,
//!         unified: true,
//!         heap_budget_bytes: None,
//!     })
//!     .with_overrides(overrides);
//! let budget = Budget::derive(&inputs);
//! println!("{budget}"); // the split and why: the binding constraint, every candidate, clamps
//! let mut monitor = PressureMonitor::new(&budget);
//!
//! // Each frame and before each allocation: feed usage, act on what changed, then admit.
//! let mut usage = Usage::default();
//! usage[Category::Texture] = 600 << 20;
//! let update = monitor.update(&usage, &budget);
//! for action in &update.actions {
//!     match action {
//!         Action::ProactiveGc => { /* drain completed epochs now */ }
//!         Action::RefuseAllocations => { /* remember: GL_OUT_OF_MEMORY ahead */ }
//!         _ => { /* forward to translator / presenter */ }
//!     }
//! }
//! match monitor.admit(Category::Texture, 16 << 20) {
//!     Ok(()) => { /* allocate */ }
//!     Err(refusal) => println!("GL_OUT_OF_MEMORY: {refusal}"),
//! }
//! # Ok(())
//! # }
//! ```

#![deny(unsafe_code, clippy::unwrap_used)]
#![warn(missing_docs)]

pub mod budget;
pub mod category;
pub mod cgroup;
mod error;
pub mod overrides;
pub mod pressure;
pub mod profiles;
pub mod seqlock;
pub mod signals;
pub mod telemetry;

pub use budget::{
    Adjustment, Budget, BudgetInputs, Candidate, Constraint, Derivation, Refusal, VulkanMemory,
};
pub use category::{Category, CategoryMap, Usage};
pub use error::ResidencyError;
pub use overrides::EnvOverrides;
pub use pressure::{Action, ActionPolicy, Level, PressureMonitor, Thresholds, Transition, Update};
pub use profiles::{Platform, Profile, Provenance};
pub use telemetry::{Snapshot, TelemetryReader, TelemetryWriter};

/// 2^20 bytes. Every "MB" in this crate's inputs and tables is one of these.
pub const MIB: u64 = 1 << 20;

/// `percent` % of `bytes` (`percent <= 100`), rounded down, without overflow.
pub(crate) fn percent_of(bytes: u64, percent: u64) -> u64 {
    // Dividing first cannot overflow; the remainder term restores the lost precision.
    bytes / 100 * percent + bytes % 100 * percent / 100
}

/// Bytes for humans: `2091 MiB`, `12.5 MiB`, `640 KiB`, `512 B`.
pub(crate) fn fmt_bytes(bytes: u64) -> String {
    const KIB: u64 = 1 << 10;
    if bytes >= MIB {
        if bytes % MIB == 0 {
            format!("{} MiB", bytes / MIB)
        } else {
            format!("{:.1} MiB", bytes as f64 / MIB as f64)
        }
    } else if bytes >= KIB && bytes % KIB == 0 {
        format!("{} KiB", bytes / KIB)
    } else {
        format!("{bytes} B")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_format_for_humans() {
        assert_eq!(fmt_bytes(2091 * MIB), "2091 MiB");
        assert_eq!(fmt_bytes(12 * MIB + MIB / 2), "12.5 MiB");
        assert_eq!(fmt_bytes(640 << 10), "640 KiB");
        assert_eq!(fmt_bytes(513), "513 B");
        assert_eq!(fmt_bytes(u64::MAX), "17592186044416.0 MiB");
    }
}
