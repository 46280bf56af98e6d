//! Fault injection: chosen Vulkan results at the Vulkan boundary, for tests and for whole
//! programs.
//!
//! Design decisions:
//! - The plan is checked by the memory manager just before it calls into Vulkan (allocation,
//!   submission, acquire, present, pipeline creation), so every client goes through it and an
//!   injected result takes exactly the path the real one would: an injected
//!   `VK_ERROR_OUT_OF_DEVICE_MEMORY` on an allocation runs the OOM ladder, an injected
//!   `VK_ERROR_DEVICE_LOST` sets the device-lost latch, an injected `VK_ERROR_OUT_OF_DATE_KHR`
//!   rebuilds the swapchain. The same plan works on the simulated device.
//! - One environment variable, `ARENAGL_FAULTS`, holds a list of rules (grammar in
//!   `docs/robustness.md` and on [`FaultPlan::parse`]); a rule only accepts the results its call
//!   can really return, so a plan never tests an impossible situation. The older
//!   `ARENAGL_FAULT_ALLOC_NTH` / `_ALLOC_ABOVE` / `_LOST_SUBMIT` variables stay as shorthands.
//! - Counters are per call kind and carried over when a lost device is replaced
//!   ([`FaultState`] moves to the new manager), so `submit@3=device_lost` loses the device once
//!   per process, not once per device. Probabilities use a seeded generator: a run is
//!   reproducible from its plan.

#![deny(unsafe_code, clippy::unwrap_used)]

use std::fmt;

use ash::vk;

use crate::error::{MemoryError, Result};

/// A Vulkan call that faults can be injected into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FaultSite {
    /// Every allocation attempt of the manager (buffers and images, ladder retries included).
    Alloc,
    /// `vkQueueSubmit` (every epoch, presented frames included).
    Submit,
    /// `vkAcquireNextImageKHR`.
    Acquire,
    /// `vkQueuePresentKHR`.
    Present,
    /// `vkCreateGraphicsPipelines`.
    Pipeline,
    /// `vkCreateSwapchainKHR` (window creation, resizes, out-of-date rebuilds).
    Swapchain,
}

impl FaultSite {
    const ALL: [FaultSite; 6] = [
        FaultSite::Alloc,
        FaultSite::Submit,
        FaultSite::Acquire,
        FaultSite::Present,
        FaultSite::Pipeline,
        FaultSite::Swapchain,
    ];

    /// The name used in `ARENAGL_FAULTS`.
    pub fn name(self) -> &'static str {
        match self {
            FaultSite::Alloc => "alloc",
            FaultSite::Submit => "submit",
            FaultSite::Acquire => "acquire",
            FaultSite::Present => "present",
            FaultSite::Pipeline => "pipeline",
            FaultSite::Swapchain => "swapchain",
        }
    }

    fn index(self) -> usize {
        self as usize
    }

    /// The results the Vulkan specification allows this call to return (other than success),
    /// by their `ARENAGL_FAULTS` names.
    pub fn allowed_results(self) -> &'static [&'static str] {
        match self {
            FaultSite::Alloc => &["oom_device", "oom_host", "too_many_objects", "device_lost"],
            FaultSite::Submit => &["oom_device", "oom_host", "device_lost"],
            FaultSite::Acquire => &[
                "oom_device",
                "oom_host",
                "device_lost",
                "timeout",
                "not_ready",
                "out_of_date",
                "suboptimal",
                "surface_lost",
            ],
            FaultSite::Present => &[
                "oom_device",
                "oom_host",
                "device_lost",
                "out_of_date",
                "suboptimal",
                "surface_lost",
            ],
            FaultSite::Pipeline => &["oom_device", "oom_host"],
            FaultSite::Swapchain => &[
                "oom_device",
                "oom_host",
                "device_lost",
                "surface_lost",
                "initialization_failed",
            ],
        }
    }
}

/// A result name of `ARENAGL_FAULTS` and the `VkResult` it stands for.
const RESULTS: &[(&str, vk::Result)] = &[
    ("oom_device", vk::Result::ERROR_OUT_OF_DEVICE_MEMORY),
    ("oom_host", vk::Result::ERROR_OUT_OF_HOST_MEMORY),
    ("too_many_objects", vk::Result::ERROR_TOO_MANY_OBJECTS),
    ("device_lost", vk::Result::ERROR_DEVICE_LOST),
    ("timeout", vk::Result::TIMEOUT),
    ("not_ready", vk::Result::NOT_READY),
    ("out_of_date", vk::Result::ERROR_OUT_OF_DATE_KHR),
    ("suboptimal", vk::Result::SUBOPTIMAL_KHR),
    ("surface_lost", vk::Result::ERROR_SURFACE_LOST_KHR),
    (
        "initialization_failed",
        vk::Result::ERROR_INITIALIZATION_FAILED,
    ),
];

fn result_name(r: vk::Result) -> &'static str {
    RESULTS
        .iter()
        .find(|(_, v)| *v == r)
        .map_or("?", |(n, _)| n)
}

/// When a rule fires.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Trigger {
    /// `@N`: the Nth call (1-based), once.
    Nth(u64),
    /// `%N`: every Nth call (N, 2N, 3N, …).
    Every(u64),
    /// `~P[:SEED]`: each call with probability P, from a generator seeded with SEED.
    Probability {
        /// In [0, 1].
        p: f64,
        /// The generator's seed.
        seed: u64,
    },
    /// `>BYTES` (allocations only): every allocation attempt larger than BYTES.
    Above(u64),
}

/// One rule: at `site`, when `trigger` fires, the call returns `result`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FaultRule {
    /// The call.
    pub site: FaultSite,
    /// When.
    pub trigger: Trigger,
    /// What it returns instead of running.
    pub result: vk::Result,
}

impl fmt::Display for FaultRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.site.name())?;
        match self.trigger {
            Trigger::Nth(n) => write!(f, "@{n}")?,
            Trigger::Every(n) => write!(f, "%{n}")?,
            Trigger::Probability { p, seed } => write!(f, "~{p}:{seed}")?,
            Trigger::Above(n) => write!(f, ">{n}")?,
        }
        write!(f, "={}", result_name(self.result))
    }
}

/// Which failures to inject.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FaultPlan {
    /// Fail the Nth allocation attempt (1-based, counting every attempt the manager makes,
    /// ladder retries included). Shorthand for `alloc@N=oom_device`.
    pub fail_nth_allocation: Option<u64>,
    /// Fail every allocation attempt larger than this many bytes (`alloc>N=oom_device`).
    pub fail_allocations_above: Option<u64>,
    /// Report `VK_ERROR_DEVICE_LOST` from the Nth submission (`submit@N=device_lost`).
    pub device_lost_on_submit: Option<u64>,
    /// The general rules (`ARENAGL_FAULTS`).
    pub rules: Vec<FaultRule>,
}

impl FaultPlan {
    /// Reads `ARENAGL_FAULTS` and the shorthands `ARENAGL_FAULT_ALLOC_NTH`,
    /// `ARENAGL_FAULT_ALLOC_ABOVE` and `ARENAGL_FAULT_LOST_SUBMIT`, so that whole programs can
    /// run under a plan.
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
        let rules = match get("ARENAGL_FAULTS") {
            Some(spec) => {
                Self::parse(&spec)
                    .map_err(|e| MemoryError::InvalidRequest(format!("ARENAGL_FAULTS: {e}")))?
                    .rules
            }
            None => Vec::new(),
        };
        Ok(Self {
            fail_nth_allocation: parse("ARENAGL_FAULT_ALLOC_NTH")?,
            fail_allocations_above: parse("ARENAGL_FAULT_ALLOC_ABOVE")?,
            device_lost_on_submit: parse("ARENAGL_FAULT_LOST_SUBMIT")?,
            rules,
        })
    }

    /// Parses a rule list:
    ///
    /// ```text
    /// plan    = rule ("," rule)*
    /// rule    = site trigger "=" result
    /// site    = "alloc" | "submit" | "acquire" | "present" | "pipeline" | "swapchain"
    /// trigger = "@" N            the Nth call (1-based), once
    ///         | "%" N            every Nth call
    ///         | "~" P [":" SEED] each call with probability P (0..=1), seeded (default 1)
    ///         | ">" BYTES        alloc only: every attempt larger than BYTES
    /// result  = "oom_device" | "oom_host" | "too_many_objects" | "device_lost" | "timeout"
    ///         | "not_ready" | "out_of_date" | "suboptimal" | "surface_lost"
    ///         | "initialization_failed"
    /// ```
    ///
    /// Each site accepts only the results its call can return ([`FaultSite::allowed_results`]).
    /// Whitespace around rules is ignored; an empty string is an empty plan.
    pub fn parse(spec: &str) -> std::result::Result<Self, String> {
        let mut rules = Vec::new();
        for raw in spec.split(',') {
            let text = raw.trim();
            if text.is_empty() {
                continue;
            }
            rules.push(parse_rule(text).map_err(|e| format!("rule {text:?}: {e}"))?);
        }
        Ok(Self {
            rules,
            ..Self::default()
        })
    }

    /// Whether the plan injects nothing.
    pub fn is_empty(&self) -> bool {
        self.fail_nth_allocation.is_none()
            && self.fail_allocations_above.is_none()
            && self.device_lost_on_submit.is_none()
            && self.rules.is_empty()
    }
}

fn parse_rule(text: &str) -> std::result::Result<FaultRule, String> {
    let (head, result) = text
        .split_once('=')
        .ok_or("expected SITE TRIGGER = RESULT (e.g. submit@3=device_lost)")?;
    let (head, result) = (head.trim(), result.trim());
    let split = head
        .find(['@', '%', '~', '>'])
        .ok_or("expected a trigger after the site: @N, %N, ~P[:SEED] or >BYTES")?;
    let (site_name, trigger) = head.split_at(split);
    let site = FaultSite::ALL
        .into_iter()
        .find(|s| s.name() == site_name.trim())
        .ok_or_else(|| {
            format!(
                "unknown call {site_name:?} (alloc, submit, acquire, present, pipeline, swapchain)"
            )
        })?;
    let number = |s: &str| -> std::result::Result<u64, String> {
        s.trim()
            .parse::<u64>()
            .map_err(|_| format!("{s:?} is not a whole number"))
    };
    let (kind, arg) = trigger.split_at(1);
    let trigger = match kind {
        "@" | "%" => {
            let n = number(arg)?;
            if n == 0 {
                return Err("call counts start at 1".into());
            }
            if kind == "@" {
                Trigger::Nth(n)
            } else {
                Trigger::Every(n)
            }
        }
        "~" => {
            let (p, seed) = match arg.split_once(':') {
                Some((p, seed)) => (p, number(seed)?),
                None => (arg, 1),
            };
            let p: f64 = p
                .trim()
                .parse()
                .map_err(|_| format!("{p:?} is not a probability"))?;
            if !(0.0..=1.0).contains(&p) {
                return Err(format!("probability {p} is outside 0..=1"));
            }
            Trigger::Probability { p, seed }
        }
        _ => {
            if site != FaultSite::Alloc {
                return Err(">BYTES applies to alloc only".into());
            }
            Trigger::Above(number(arg)?)
        }
    };
    let allowed = site.allowed_results();
    if !allowed.contains(&result) {
        return Err(format!(
            "{} cannot return {result:?}; it can return {}",
            site.name(),
            allowed.join(", ")
        ));
    }
    let result = RESULTS
        .iter()
        .find(|(n, _)| *n == result)
        .map(|(_, r)| *r)
        .ok_or("unknown result")?;
    Ok(FaultRule {
        site,
        trigger,
        result,
    })
}

/// The plan plus the counters it is checked against; moves to a replacement device so counts
/// continue across device loss.
#[derive(Debug, Clone, Default)]
pub struct FaultState {
    plan: FaultPlan,
    calls: [u64; 6],
    /// One xorshift64* state per rule (probability triggers only use theirs).
    rng: Vec<u64>,
    injected: u64,
}

impl FaultState {
    /// The plan being followed (the manager keeps a copy in its configuration).
    pub(crate) fn plan(&self) -> &FaultPlan {
        &self.plan
    }

    pub(crate) fn new(plan: FaultPlan) -> Self {
        let rng = plan
            .rules
            .iter()
            .map(|r| match r.trigger {
                // xorshift must not start at zero.
                Trigger::Probability { seed, .. } => seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
                _ => 1,
            })
            .collect();
        Self {
            plan,
            calls: [0; 6],
            rng,
            injected: 0,
        }
    }

    /// How many results have been injected so far.
    pub fn injected(&self) -> u64 {
        self.injected
    }

    /// Counts one call at `site` (of `size` bytes for allocations); the result to return
    /// instead of making it, if the plan says so.
    pub(crate) fn check(&mut self, site: FaultSite, size: u64) -> Option<vk::Result> {
        let count = {
            let c = &mut self.calls[site.index()];
            *c += 1;
            *c
        };
        let legacy = match site {
            FaultSite::Alloc => {
                self.plan.fail_nth_allocation == Some(count)
                    || self.plan.fail_allocations_above.is_some_and(|l| size > l)
            }
            FaultSite::Submit => self.plan.device_lost_on_submit == Some(count),
            _ => false,
        };
        let legacy_result = match site {
            FaultSite::Submit => vk::Result::ERROR_DEVICE_LOST,
            _ => vk::Result::ERROR_OUT_OF_DEVICE_MEMORY,
        };
        let mut hit = legacy.then_some(legacy_result);
        for (rule, rng) in self.plan.rules.iter().zip(self.rng.iter_mut()) {
            if rule.site != site {
                continue;
            }
            let fires = match rule.trigger {
                Trigger::Nth(n) => count == n,
                Trigger::Every(n) => count % n == 0,
                Trigger::Above(limit) => size > limit,
                Trigger::Probability { p, .. } => next_unit(rng) < p,
            };
            if fires && hit.is_none() {
                hit = Some(rule.result);
            }
        }
        if let Some(r) = hit {
            self.injected += 1;
            tracing::debug!(site = site.name(), call = count, result = ?r, "fault injected");
        }
        hit
    }
}

/// The next number in [0, 1) from an xorshift64* generator.
fn next_unit(state: &mut u64) -> f64 {
    let mut x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
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
            rules: Vec::new(),
        });
        let fails: Vec<bool> = [10, 10, 10, 10, 2000]
            .iter()
            .map(|&s| state.check(FaultSite::Alloc, s).is_some())
            .collect();
        assert_eq!(fails, vec![false, false, true, false, true]);
        assert_eq!(state.check(FaultSite::Submit, 0), None);
        assert_eq!(
            state.check(FaultSite::Submit, 0),
            Some(vk::Result::ERROR_DEVICE_LOST)
        );
        assert_eq!(state.check(FaultSite::Submit, 0), None);
        assert_eq!(state.injected(), 3);
    }

    #[test]
    fn env_plan_parses_and_rejects_malformed_input() {
        let plan = FaultPlan::from_vars(|n| (n == "ARENAGL_FAULT_ALLOC_NTH").then(|| "7".into()))
            .expect("valid");
        assert_eq!(plan.fail_nth_allocation, Some(7));
        assert!(FaultPlan::from_vars(|_| Some("seven".into())).is_err());
        let plan = FaultPlan::from_vars(|n| {
            (n == "ARENAGL_FAULTS").then(|| "submit@3=device_lost, present%5=out_of_date".into())
        })
        .expect("valid");
        assert_eq!(plan.rules.len(), 2);
        let err = FaultPlan::from_vars(|n| (n == "ARENAGL_FAULTS").then(|| "submit@x=oom".into()))
            .expect_err("malformed input");
        assert!(err.to_string().contains("ARENAGL_FAULTS"), "{err}");
    }

    #[test]
    fn the_grammar_round_trips_and_names_each_mistake() {
        let plan = FaultPlan::parse(
            "submit@3=device_lost,present%5=out_of_date,alloc~0.5:7=oom_host,alloc>4096=oom_device,\
             acquire@1=timeout,pipeline%2=oom_host",
        )
        .expect("valid");
        let text: Vec<String> = plan.rules.iter().map(ToString::to_string).collect();
        assert_eq!(
            text,
            [
                "submit@3=device_lost",
                "present%5=out_of_date",
                "alloc~0.5:7=oom_host",
                "alloc>4096=oom_device",
                "acquire@1=timeout",
                "pipeline%2=oom_host"
            ]
        );
        for (bad, says) in [
            ("submit@3", "expected SITE"),
            ("blit@3=oom_device", "unknown call"),
            ("submit3=oom_device", "expected a trigger"),
            ("submit@0=oom_device", "start at 1"),
            ("submit@3=out_of_date", "cannot return"),
            ("pipeline@1=device_lost", "cannot return"),
            ("alloc~1.5=oom_device", "outside"),
            ("submit>10=oom_device", "alloc only"),
            ("alloc@1=nonsense", "cannot return"),
        ] {
            let err = FaultPlan::parse(bad).expect_err(bad);
            assert!(err.contains(says), "{bad}: {err}");
        }
        assert!(FaultPlan::parse("").expect("empty").is_empty());
    }

    #[test]
    fn every_nth_and_seeded_probability() {
        let plan = FaultPlan::parse("present%3=out_of_date,alloc~0.25:42=oom_device").expect("ok");
        let mut a = FaultState::new(plan.clone());
        let hits: Vec<u64> = (1..=9)
            .filter(|_| a.check(FaultSite::Present, 0).is_some())
            .collect();
        assert_eq!(hits.len(), 3);
        let run = |state: &mut FaultState| -> Vec<bool> {
            (0..4000)
                .map(|_| state.check(FaultSite::Alloc, 1).is_some())
                .collect()
        };
        let first = run(&mut FaultState::new(plan.clone()));
        assert_eq!(
            first,
            run(&mut FaultState::new(plan)),
            "same seed, same run"
        );
        let rate = first.iter().filter(|&&f| f).count() as f64 / first.len() as f64;
        assert!((0.2..0.3).contains(&rate), "rate {rate}");
    }
}
