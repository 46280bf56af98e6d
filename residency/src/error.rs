//! The crate's one error type.
//!
//! Variants exist only for what a caller cannot prevent: a person typed a bad environment value
//! or profile name, a configuration asked for impossible thresholds, an allocation would cross
//! the budget, or a telemetry page could not be made or read (the file system, a pid that does
//! not publish, a process that exited, a page of another layout). I/O errors are kept as their
//! kind and message so the enum stays `Clone + Eq`. Everything else in this crate clamps and reports instead of failing, because a
//! budget that is merely pessimistic is better than no budget at all.

use std::io;
use std::path::PathBuf;

use crate::budget::Refusal;

/// What can go wrong in budget derivation, configuration and admission.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResidencyError {
    /// `ARENAGL_PROFILE` (or a CLI argument) named no known device profile.
    #[error("unknown device profile `{name}`; known profiles: {known}")]
    UnknownProfile {
        /// The name as given.
        name: String,
        /// The known names, comma-separated, for the message.
        known: String,
    },
    /// An environment override had a value that cannot be used.
    #[error("{var}={value:?} is not usable: {reason}")]
    InvalidOverride {
        /// The variable, e.g. `ARENAGL_BUDGET_MB`.
        var: &'static str,
        /// The value as found (lossily decoded when it was not UTF-8).
        value: String,
        /// Why it was rejected.
        reason: &'static str,
    },
    /// Pressure thresholds that are out of range or out of order.
    #[error("invalid pressure thresholds: {reason}")]
    InvalidThresholds {
        /// What is wrong with them.
        reason: &'static str,
    },
    /// An allocation would cross the budget (the allocation path maps this to
    /// `GL_OUT_OF_MEMORY`).
    #[error("{0}")]
    OverBudget(Refusal),
    /// The file system refused a telemetry operation.
    #[error("telemetry: cannot {action} {}: {message}", path.display())]
    TelemetryIo {
        /// What was being done (`create`, `open`, `map`, `list`, ...).
        action: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// The I/O error kind.
        kind: io::ErrorKind,
        /// The I/O error message.
        message: String,
    },
    /// No telemetry page exists for this pid.
    #[error(
        "process {pid} publishes no telemetry in {} (not running, not an ArenaGL process, or \
         publishing elsewhere: see ARENAGL_TELEMETRY_DIR)",
        dir.display()
    )]
    NoTelemetry {
        /// The pid asked for.
        pid: u32,
        /// The directory searched.
        dir: PathBuf,
    },
    /// A telemetry page whose writer has exited (or whose pid now belongs to another process).
    #[error("the telemetry page {} is stale: process {pid} has exited", path.display())]
    StalePage {
        /// The pid the page was written by.
        pid: u32,
        /// The page file.
        path: PathBuf,
    },
    /// A file that is not a telemetry page this build can read.
    #[error("{} is not a telemetry page this arenagl can read: {reason}", path.display())]
    IncompatiblePage {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// This process already publishes a telemetry page there.
    #[error("this process already publishes telemetry at {}", path.display())]
    AlreadyPublishing {
        /// The page file.
        path: PathBuf,
    },
}

impl From<Refusal> for ResidencyError {
    fn from(refusal: Refusal) -> Self {
        ResidencyError::OverBudget(refusal)
    }
}
