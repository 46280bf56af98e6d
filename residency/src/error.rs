//! The crate's one error type.
//!
//! Variants exist only for what a caller cannot prevent: a person typed a bad environment value
//! or profile name, a configuration asked for impossible thresholds, or an allocation would cross
//! the budget. Everything else in this crate clamps and reports instead of failing, because a
//! budget that is merely pessimistic is better than no budget at all.

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
}

impl From<Refusal> for ResidencyError {
    fn from(refusal: Refusal) -> Self {
        ResidencyError::OverBudget(refusal)
    }
}
