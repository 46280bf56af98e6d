//! Fault injection (M8): deterministic failures for tests and for whole programs.
//!
//! The plan is checked by the manager before it calls the backend, so the same plan works on
//! the simulated device and on Vulkan. An injected allocation failure looks exactly like
//! `VK_ERROR_OUT_OF_DEVICE_MEMORY` and therefore runs the OOM ladder; an injected device loss
//! sets the device-lost latch. The simulated heap limit lives in the backend configuration
//! (VMA `heap_size_limits` on Vulkan).

#![deny(unsafe_code, clippy::unwrap_used)]

use crate::error::{MemoryError, Result};

/// Which failures to inject.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FaultPlan {
    /// Fail the Nth allocation attempt (1-based, counting every attempt the manager makes,
    /// ladder retries included).
    pub fail_nth_allocation: Option<u64>,
    /// Fail every allocation attempt larger than this many bytes.
    pub fail_allocations_above: Option<u64>,
    /// Report `VK_ERROR_DEVICE_LOST` from the Nth submission (1-based).
    pub device_lost_on_submit: Option<u64>,
}

impl FaultPlan {
    /// Reads `ARENAGL_FAULT_ALLOC_NTH`, `ARENAGL_FAULT_ALLOC_ABOVE` and
    /// `ARENAGL_FAULT_LOST_SUBMIT` so that whole programs can run under a plan.
    pub fn from_env() -> Result<Self> {
        Self::from_vars(|name| std::env::var(name).ok())
    }

    /// Like [`FaultPlan::from_env`] with the variables supplied by `get`.
    pub fn from_vars(get: impl Fn(&str) -> Option<String>) -> Result<Self> {
        let parse = |name: &str| -> Result<Option<u64>> {
            match get(name) {
                None => Ok(None),
                Some(v) => v.trim().parse::<u64>().map(Some).map_err(|_| {
                    MemoryError::InvalidRequest(format!("{name}={v:?} is not a number"))
                }),
            }
        };
        Ok(Self {
            fail_nth_allocation: parse("ARENAGL_FAULT_ALLOC_NTH")?,
            fail_allocations_above: parse("ARENAGL_FAULT_ALLOC_ABOVE")?,
            device_lost_on_submit: parse("ARENAGL_FAULT_LOST_SUBMIT")?,
        })
    }
}

/// The plan plus the counters it is checked against.
#[derive(Debug, Clone, Default)]
pub(crate) struct FaultState {
    pub(crate) plan: FaultPlan,
    allocation_attempts: u64,
    submits: u64,
}

impl FaultState {
    pub(crate) fn new(plan: FaultPlan) -> Self {
        Self {
            plan,
            allocation_attempts: 0,
            submits: 0,
        }
    }

    /// Counts an allocation attempt of `size` bytes; true when it must fail.
    pub(crate) fn allocation_fails(&mut self, size: u64) -> bool {
        self.allocation_attempts += 1;
        self.plan.fail_nth_allocation == Some(self.allocation_attempts)
            || self
                .plan
                .fail_allocations_above
                .is_some_and(|limit| size > limit)
    }

    /// Counts a submission; true when it must report device loss.
    pub(crate) fn submit_loses_device(&mut self) -> bool {
        self.submits += 1;
        self.plan.device_lost_on_submit == Some(self.submits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_and_size_faults_are_deterministic() {
        let mut state = FaultState::new(FaultPlan {
            fail_nth_allocation: Some(3),
            fail_allocations_above: Some(1000),
            device_lost_on_submit: Some(2),
        });
        let fails: Vec<bool> = [10, 10, 10, 10, 2000]
            .iter()
            .map(|&s| state.allocation_fails(s))
            .collect();
        assert_eq!(fails, vec![false, false, true, false, true]);
        assert!(!state.submit_loses_device());
        assert!(state.submit_loses_device());
        assert!(!state.submit_loses_device());
    }

    #[test]
    fn env_plan_parses_and_rejects_garbage() {
        let plan = FaultPlan::from_vars(|n| (n == "ARENAGL_FAULT_ALLOC_NTH").then(|| "7".into()))
            .expect("valid");
        assert_eq!(plan.fail_nth_allocation, Some(7));
        assert!(FaultPlan::from_vars(|_| Some("seven".into())).is_err());
    }
}
