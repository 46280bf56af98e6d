//! Budget derivation, the category split, and admission of allocations.
//!
//! Design decisions:
//! - The budget is the **minimum of independent candidates**, each computed from one input, and
//!   the winning one is recorded as the binding constraint so `arenagl budget` can say why:
//!   - *platform*: crash line − non-GPU footprint − safety margin (5 % of the crash line, at
//!     least 64 MiB, for what the process holds that nobody accounts: driver-internal objects,
//!     MoltenVK's Metal command buffers, swapchain IOSurfaces). Applied only on unified memory,
//!     where GPU allocations count against the same process limit as the JVM; on a discrete GPU
//!     device-local memory is not process RAM and the candidate is reported as not applicable.
//!     The footprint is subtracted here once, not again from the heap.
//!   - *Vulkan heap*: 80 % of the device-local heap, the estimate VMA uses when
//!     `VK_EXT_memory_budget` is absent (Zink uses the same factor; on a phone the platform
//!     candidate is far below it, which is the point of this crate).
//!   - *memory-budget extension*: `heapBudget` as reported; the driver knows best what this
//!     process may still take from that heap.
//!   - *override*: `ARENAGL_BUDGET_MB` replaces the minimum outright, even when larger.
//! - Derivation never fails and never panics: absurd inputs (zero heaps, a footprint above the
//!   crash line, `u64::MAX` everywhere) saturate, and a result under 64 MiB is raised to that
//!   floor so a context can still be created. Every such clamp is listed in
//!   [`Derivation::adjustments`].
//! - The split into categories is by fixed per-mille shares, computed in integers, with the
//!   rounding remainder given to slack, so the shares always sum to the total exactly. Shares are
//!   soft targets for eviction and dashboards; only the total is hard. An allocation is refused
//!   exactly when it would take the total usage past the total budget ([`Budget::admit`]), so a
//!   busy category may borrow what the others and the slack leave free.

use std::fmt;

use crate::category::{Category, CategoryMap, Usage};
use crate::overrides::EnvOverrides;
use crate::{fmt_bytes, percent_of, Profile, MIB};

/// No derived budget goes below this (an explicit override may).
pub const MIN_BUDGET_BYTES: u64 = 64 * MIB;

/// The share of a device-local heap taken as usable when the driver gives no budget.
pub const HEAP_USABLE_PERCENT: u64 = 80;

/// The safety margin kept below the crash line, as a percentage of it ...
pub const SAFETY_MARGIN_PERCENT: u64 = 5;
/// ... but never less than this.
pub const MIN_SAFETY_MARGIN_BYTES: u64 = 64 * MIB;

/// Per-mille share of the budget for each category; slack gets the rest (100 ‰ plus rounding).
///
/// | category       | share | why |
/// |----------------|-------|-----|
/// | textures       | 50 %  | block and item atlases, mipmaps, entity and GUI textures dominate a Minecraft frame |
/// | buffers        | 20 %  | the chunk-mesh arena, per-draw uniforms, client arrays |
/// | render targets | 12 %  | main colour/depth, post-processing and render-scale targets |
/// | staging        | 6 %   | per-frame upload arenas (16 MiB × frame slots) and readback |
/// | pipelines      | 2 %   | pipeline caches, shader modules, descriptor pools |
/// | slack          | 10 %  | headroom any category may borrow before the pressure levels react |
pub const SPLIT_PERMILLE: CategoryMap<u64> = CategoryMap::from_array([500, 200, 120, 60, 20]);

/// The GPU memory facts the memory manager learns from the Vulkan device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VulkanMemory {
    /// Size of the device-local heap the manager allocates from (the largest one when there are
    /// several).
    pub device_local_heap_bytes: u64,
    /// Whether that heap is shared with the CPU (a `DEVICE_LOCAL` memory type that is also
    /// `HOST_VISIBLE` on an integrated or mobile GPU; lavapipe and every phone).
    pub unified: bool,
    /// `VkPhysicalDeviceMemoryBudgetPropertiesEXT::heapBudget` for that heap, when the device
    /// has `VK_EXT_memory_budget`.
    pub heap_budget_bytes: Option<u64>,
}

/// Everything budget derivation looks at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetInputs {
    /// The device profile: its crash line and platform.
    pub profile: Profile,
    /// Bytes the process holds outside the memory manager (JVM heap and native, launcher UI).
    /// `None` takes the platform default ([`Profile::default_footprint_bytes`]).
    pub non_gpu_footprint_bytes: Option<u64>,
    /// Vulkan heap facts, when a device is open (`arenagl budget --profile` derives without one).
    pub vulkan: Option<VulkanMemory>,
    /// A hard total from `ARENAGL_BUDGET_MB`.
    pub budget_override_bytes: Option<u64>,
}

impl BudgetInputs {
    /// Inputs with only a profile: default footprint, no device, no override.
    pub fn new(profile: Profile) -> Self {
        BudgetInputs {
            profile,
            non_gpu_footprint_bytes: None,
            vulkan: None,
            budget_override_bytes: None,
        }
    }

    /// Sets the non-GPU footprint in bytes.
    pub fn with_footprint(mut self, bytes: u64) -> Self {
        self.non_gpu_footprint_bytes = Some(bytes);
        self
    }

    /// Sets the Vulkan heap facts.
    pub fn with_vulkan(mut self, vulkan: VulkanMemory) -> Self {
        self.vulkan = Some(vulkan);
        self
    }

    /// Applies environment overrides: `ARENAGL_PROFILE` replaces the profile, `ARENAGL_BUDGET_MB`
    /// becomes the hard total.
    pub fn with_overrides(mut self, overrides: EnvOverrides) -> Self {
        if let Some(profile) = overrides.profile {
            self.profile = profile;
        }
        if let Some(bytes) = overrides.budget_bytes {
            self.budget_override_bytes = Some(bytes);
        }
        self
    }
}

/// One input that can bound the budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Constraint {
    /// `ARENAGL_BUDGET_MB`.
    Override,
    /// The platform crash line less the process's own footprint and a safety margin.
    Platform,
    /// 80 % of the device-local Vulkan heap.
    VulkanHeap,
    /// `VK_EXT_memory_budget`'s `heapBudget`.
    MemoryBudgetExt,
    /// The 64 MiB floor, when every other input left less (or there were none).
    Floor,
}

impl Constraint {
    /// A short name for reports.
    pub const fn name(self) -> &'static str {
        match self {
            Constraint::Override => "override",
            Constraint::Platform => "platform",
            Constraint::VulkanHeap => "vulkan-heap",
            Constraint::MemoryBudgetExt => "memory-budget-ext",
            Constraint::Floor => "floor",
        }
    }
}

impl fmt::Display for Constraint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What one constraint allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// Which input.
    pub constraint: Constraint,
    /// The budget this input alone would give.
    pub bytes: u64,
    /// How the figure was computed, for the "why" printout.
    pub detail: String,
}

/// A clamp or an oddity met during derivation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Adjustment {
    /// The process's own footprint is at or above the crash line: the platform leaves nothing.
    FootprintExceedsLimit {
        /// The footprint used.
        footprint_bytes: u64,
        /// The crash line.
        crash_limit_bytes: u64,
    },
    /// Discrete GPU: device-local memory is not process RAM, so the crash line does not bound it.
    PlatformNotApplicable,
    /// The driver's budget exceeds its own heap (the spec forbids it); the smaller one wins anyway.
    ExtBudgetAboveHeap {
        /// `heapBudget`.
        budget_bytes: u64,
        /// The heap size.
        heap_bytes: u64,
    },
    /// No input bounded the budget at all.
    NoConstraint,
    /// The derived budget was below [`MIN_BUDGET_BYTES`] and was raised to it.
    RaisedToFloor {
        /// What the inputs gave.
        derived_bytes: u64,
    },
    /// The override is larger than what the inputs give: the process may be killed.
    OverrideAboveDerived {
        /// The override.
        override_bytes: u64,
        /// The minimum of the other candidates.
        derived_bytes: u64,
    },
}

impl fmt::Display for Adjustment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Adjustment::FootprintExceedsLimit {
                footprint_bytes,
                crash_limit_bytes,
            } => write!(
                f,
                "the non-GPU footprint {} is at or above the crash line {}: the platform leaves \
                 no GPU memory",
                fmt_bytes(footprint_bytes),
                fmt_bytes(crash_limit_bytes)
            ),
            Adjustment::PlatformNotApplicable => f.write_str(
                "discrete GPU: device-local memory does not count against the process crash line",
            ),
            Adjustment::ExtBudgetAboveHeap {
                budget_bytes,
                heap_bytes,
            } => write!(
                f,
                "VK_EXT_memory_budget reports {} for a {} heap (above the heap size)",
                fmt_bytes(budget_bytes),
                fmt_bytes(heap_bytes)
            ),
            Adjustment::NoConstraint => f.write_str("no input bounds the budget"),
            Adjustment::RaisedToFloor { derived_bytes } => write!(
                f,
                "the inputs leave {}, raised to the {} floor so a context can still be created",
                fmt_bytes(derived_bytes),
                fmt_bytes(MIN_BUDGET_BYTES)
            ),
            Adjustment::OverrideAboveDerived {
                override_bytes,
                derived_bytes,
            } => write!(
                f,
                "ARENAGL_BUDGET_MB ({}) is above the derived budget ({}): the OS may kill the \
                 process",
                fmt_bytes(override_bytes),
                fmt_bytes(derived_bytes)
            ),
        }
    }
}

/// How a budget was reached: the trail a CLI prints to answer "why this number".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Derivation {
    /// `Display` of the profile used.
    pub profile: String,
    /// The non-GPU footprint subtracted from the crash line.
    pub footprint_bytes: u64,
    /// Whether that footprint was the platform default.
    pub footprint_is_default: bool,
    /// Whether the GPU memory was treated as shared with the CPU.
    pub unified_memory: bool,
    /// Every constraint considered, the override first when there is one.
    pub candidates: Vec<Candidate>,
    /// The one that set the total.
    pub binding: Constraint,
    /// Clamps and oddities, in the order met.
    pub adjustments: Vec<Adjustment>,
}

impl fmt::Display for Derivation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "profile: {}", self.profile)?;
        writeln!(
            f,
            "non-GPU footprint: {}{}",
            fmt_bytes(self.footprint_bytes),
            if self.footprint_is_default {
                " (platform default)"
            } else {
                ""
            }
        )?;
        writeln!(
            f,
            "GPU memory: {}",
            if self.unified_memory {
                "unified (shared with the CPU)"
            } else {
                "discrete"
            }
        )?;
        writeln!(f, "candidates:")?;
        for candidate in &self.candidates {
            let mark = if candidate.constraint == self.binding {
                "  <- binding"
            } else {
                ""
            };
            writeln!(
                f,
                "  {:<18} {:>12}  {}{mark}",
                candidate.constraint.name(),
                fmt_bytes(candidate.bytes),
                candidate.detail
            )?;
        }
        writeln!(f, "bound by: {}", self.binding)?;
        for adjustment in &self.adjustments {
            writeln!(f, "note: {adjustment}")?;
        }
        Ok(())
    }
}

/// A total GPU budget, its split into categories and how it was derived.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    /// The hard total in bytes: no allocation may take usage past it.
    pub total_bytes: u64,
    /// The soft share of each category ([`SPLIT_PERMILLE`]).
    pub shares: CategoryMap<u64>,
    /// The rest of the total; `shares` plus `slack_bytes` is exactly `total_bytes`.
    pub slack_bytes: u64,
    /// Why the total is what it is.
    pub derivation: Derivation,
}

/// An allocation that would cross the budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refusal {
    /// What the allocation was for.
    pub category: Category,
    /// Its size.
    pub requested_bytes: u64,
    /// Bytes in use (all categories) when it was asked for.
    pub usage_bytes: u64,
    /// The total budget.
    pub budget_bytes: u64,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} allocation of {} refused: {} in use of a {} budget",
            self.category,
            fmt_bytes(self.requested_bytes),
            fmt_bytes(self.usage_bytes),
            fmt_bytes(self.budget_bytes)
        )
    }
}

/// Admits an allocation of `bytes` for `category` iff `usage_bytes + bytes <= budget_bytes`
/// (an overflowing sum is refused). The one rule behind [`Budget::admit`] and
/// [`crate::PressureMonitor::admit`].
pub fn admit(
    usage_bytes: u64,
    budget_bytes: u64,
    category: Category,
    bytes: u64,
) -> Result<(), Refusal> {
    match usage_bytes.checked_add(bytes) {
        Some(after) if after <= budget_bytes => Ok(()),
        _ => Err(Refusal {
            category,
            requested_bytes: bytes,
            usage_bytes,
            budget_bytes,
        }),
    }
}

/// Splits `total` by [`SPLIT_PERMILLE`]; returns the shares and the slack. Exact: the shares
/// plus the slack always equal `total`.
pub fn split(total: u64) -> (CategoryMap<u64>, u64) {
    let mut shares = CategoryMap::<u64>::default();
    let mut assigned = 0u64;
    for (category, &permille) in SPLIT_PERMILLE.iter() {
        // permille < 1000, so the product fits in u128 and the quotient is at most `total`.
        let share = (u128::from(total) * u128::from(permille) / 1000) as u64;
        shares[category] = share;
        assigned += share;
    }
    (shares, total - assigned)
}

impl Budget {
    /// Derives the budget from `inputs`. Never fails; see the module docs for the rules.
    pub fn derive(inputs: &BudgetInputs) -> Budget {
        let profile = &inputs.profile;
        let crash_limit = profile.crash_limit_bytes;
        let (footprint, footprint_is_default) = match inputs.non_gpu_footprint_bytes {
            Some(bytes) => (bytes, false),
            None => (profile.default_footprint_bytes(), true),
        };
        let unified = inputs
            .vulkan
            .map_or(profile.unified_memory, |vulkan| vulkan.unified);
        let mut candidates = Vec::new();
        let mut adjustments = Vec::new();

        if unified {
            if footprint >= crash_limit {
                adjustments.push(Adjustment::FootprintExceedsLimit {
                    footprint_bytes: footprint,
                    crash_limit_bytes: crash_limit,
                });
            }
            let margin = safety_margin(crash_limit);
            candidates.push(Candidate {
                constraint: Constraint::Platform,
                bytes: crash_limit.saturating_sub(footprint).saturating_sub(margin),
                detail: format!(
                    "crash line {} - footprint {} - safety margin {}",
                    fmt_bytes(crash_limit),
                    fmt_bytes(footprint),
                    fmt_bytes(margin)
                ),
            });
        } else {
            adjustments.push(Adjustment::PlatformNotApplicable);
        }

        if let Some(vulkan) = inputs.vulkan {
            let heap = vulkan.device_local_heap_bytes;
            candidates.push(Candidate {
                constraint: Constraint::VulkanHeap,
                bytes: percent_of(heap, HEAP_USABLE_PERCENT),
                detail: format!(
                    "{HEAP_USABLE_PERCENT} % of the {} device-local heap",
                    fmt_bytes(heap)
                ),
            });
            if let Some(budget) = vulkan.heap_budget_bytes {
                if budget > heap {
                    adjustments.push(Adjustment::ExtBudgetAboveHeap {
                        budget_bytes: budget,
                        heap_bytes: heap,
                    });
                }
                candidates.push(Candidate {
                    constraint: Constraint::MemoryBudgetExt,
                    bytes: budget,
                    detail: "VK_EXT_memory_budget heapBudget".to_owned(),
                });
            }
        }

        // Ties go to the first listed (`min_by_key` keeps the first minimum).
        let derived = candidates
            .iter()
            .min_by_key(|candidate| candidate.bytes)
            .map(|candidate| (candidate.bytes, candidate.constraint));
        let (mut total, mut binding) = match derived {
            Some(found) => found,
            None => {
                adjustments.push(Adjustment::NoConstraint);
                (0, Constraint::Floor)
            }
        };

        if let Some(override_bytes) = inputs.budget_override_bytes {
            if let Some((derived_bytes, _)) = derived.filter(|&(bytes, _)| override_bytes > bytes) {
                adjustments.push(Adjustment::OverrideAboveDerived {
                    override_bytes,
                    derived_bytes,
                });
            }
            candidates.insert(
                0,
                Candidate {
                    constraint: Constraint::Override,
                    bytes: override_bytes,
                    detail: "ARENAGL_BUDGET_MB".to_owned(),
                },
            );
            total = override_bytes;
            binding = Constraint::Override;
        } else if total < MIN_BUDGET_BYTES {
            adjustments.push(Adjustment::RaisedToFloor {
                derived_bytes: total,
            });
            total = MIN_BUDGET_BYTES;
            binding = Constraint::Floor;
        }

        let (shares, slack_bytes) = split(total);
        Budget {
            total_bytes: total,
            shares,
            slack_bytes,
            derivation: Derivation {
                profile: profile.to_string(),
                footprint_bytes: footprint,
                footprint_is_default,
                unified_memory: unified,
                candidates,
                binding,
                adjustments,
            },
        }
    }

    /// A budget of exactly `total_bytes`, as if set by an override; for replays, tests and
    /// callers that computed the total themselves.
    pub fn fixed(total_bytes: u64) -> Budget {
        let (shares, slack_bytes) = split(total_bytes);
        Budget {
            total_bytes,
            shares,
            slack_bytes,
            derivation: Derivation {
                profile: "fixed".to_owned(),
                footprint_bytes: 0,
                footprint_is_default: false,
                unified_memory: true,
                candidates: vec![Candidate {
                    constraint: Constraint::Override,
                    bytes: total_bytes,
                    detail: "fixed total".to_owned(),
                }],
                binding: Constraint::Override,
                adjustments: Vec::new(),
            },
        }
    }

    /// Whether allocating `bytes` more, on top of `usage`, would cross the total budget.
    ///
    /// There is no per-category variant on purpose: shares are soft, only the total is hard.
    pub fn would_exceed(&self, usage: &Usage, bytes: u64) -> bool {
        admit(usage.total(), self.total_bytes, Category::Texture, bytes).is_err()
    }

    /// Admits an allocation of `bytes` for `category` given the current `usage`, or says why not.
    /// The allocation path maps the refusal to `GL_OUT_OF_MEMORY`.
    pub fn admit(&self, usage: &Usage, category: Category, bytes: u64) -> Result<(), Refusal> {
        admit(usage.total(), self.total_bytes, category, bytes)
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "budget: {}", fmt_bytes(self.total_bytes))?;
        for (category, &share) in self.shares.iter() {
            writeln!(f, "  {:<15} {:>12}", category.name(), fmt_bytes(share))?;
        }
        writeln!(f, "  {:<15} {:>12}", "slack", fmt_bytes(self.slack_bytes))?;
        write!(f, "{}", self.derivation)
    }
}

/// The margin kept below the crash line.
fn safety_margin(crash_limit: u64) -> u64 {
    percent_of(crash_limit, SAFETY_MARGIN_PERCENT).max(MIN_SAFETY_MARGIN_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Platform, Provenance};
    use proptest::prelude::*;

    const GIB: u64 = 1024 * MIB;

    fn profile(name: &str) -> Profile {
        Profile::by_name(name).expect("named profile")
    }

    fn custom(crash_limit_bytes: u64) -> Profile {
        Profile {
            name: "custom".to_owned(),
            description: "test device".to_owned(),
            platform: Platform::Ios,
            ram_bytes: u64::MAX,
            crash_limit_bytes,
            increased_limit_bytes: None,
            increased_limit_applied: false,
            unified_memory: true,
            provenance: Provenance::Estimated,
        }
    }

    fn unified_heap(bytes: u64) -> VulkanMemory {
        VulkanMemory {
            device_local_heap_bytes: bytes,
            unified: true,
            heap_budget_bytes: None,
        }
    }

    fn assert_split_exact(budget: &Budget) {
        let shares: u64 = budget.shares.values().iter().sum();
        assert_eq!(shares + budget.slack_bytes, budget.total_bytes);
    }

    #[test]
    fn split_sums_exactly_to_total() {
        for total in [
            0,
            1,
            7,
            999,
            1000,
            1001,
            2091 * MIB + 13,
            u64::MAX - 1,
            u64::MAX,
        ] {
            let (shares, slack) = split(total);
            let sum: u128 = shares.values().iter().map(|&s| u128::from(s)).sum();
            assert_eq!(sum + u128::from(slack), u128::from(total), "total {total}");
        }
        let (shares, slack) = split(1000 * MIB);
        assert_eq!(shares[Category::Texture], 500 * MIB);
        assert_eq!(shares[Category::Buffer], 200 * MIB);
        assert_eq!(shares[Category::RenderTarget], 120 * MIB);
        assert_eq!(shares[Category::Staging], 60 * MIB);
        assert_eq!(shares[Category::Pipeline], 20 * MIB);
        assert_eq!(slack, 100 * MIB);
    }

    #[test]
    fn platform_binds_on_a_4gb_iphone() {
        let inputs = BudgetInputs::new(profile("iphone-12"))
            .with_footprint(1000 * MIB)
            .with_vulkan(unified_heap(4 * GIB));
        let budget = Budget::derive(&inputs);
        assert_eq!(budget.derivation.binding, Constraint::Platform);
        // 2091 MiB crash line - 1000 MiB footprint - 5 % margin.
        let expected = 2091 * MIB - 1000 * MIB - 2091 * MIB / 20;
        assert_eq!(budget.total_bytes, expected);
        assert_split_exact(&budget);
    }

    #[test]
    fn small_vulkan_heap_beats_large_jetsam_limit() {
        let inputs = BudgetInputs::new(profile("ipad-pro-m2"))
            .with_footprint(512 * MIB)
            .with_vulkan(unified_heap(GIB));
        let budget = Budget::derive(&inputs);
        assert_eq!(budget.derivation.binding, Constraint::VulkanHeap);
        assert_eq!(budget.total_bytes, GIB * 4 / 5);
    }

    #[test]
    fn memory_budget_ext_beats_heap_size() {
        let inputs = BudgetInputs::new(profile("linux-host")).with_vulkan(VulkanMemory {
            device_local_heap_bytes: 80 * GIB,
            unified: false,
            heap_budget_bytes: Some(6 * GIB),
        });
        let budget = Budget::derive(&inputs);
        assert_eq!(budget.derivation.binding, Constraint::MemoryBudgetExt);
        assert_eq!(budget.total_bytes, 6 * GIB);
        assert!(budget
            .derivation
            .adjustments
            .contains(&Adjustment::PlatformNotApplicable));
        assert!(!budget
            .derivation
            .candidates
            .iter()
            .any(|c| c.constraint == Constraint::Platform));
    }

    #[test]
    fn default_footprint_is_used_and_reported() {
        let budget = Budget::derive(&BudgetInputs::new(profile("iphone-13")));
        let crash = 2091 * MIB;
        let footprint = Platform::Ios.default_footprint(crash);
        assert!(budget.derivation.footprint_is_default);
        assert_eq!(budget.derivation.footprint_bytes, footprint);
        assert_eq!(budget.total_bytes, crash - footprint - crash / 20);
    }

    #[test]
    fn override_wins_even_when_larger_and_says_so() {
        let overrides = EnvOverrides::parse(Some("4096"), Some("iphone-se-2")).expect("valid env");
        let inputs = BudgetInputs::new(profile("iphone-15-pro")).with_overrides(overrides);
        assert_eq!(inputs.profile.name, "iphone-se-2");
        let budget = Budget::derive(&inputs);
        assert_eq!(budget.total_bytes, 4 * GIB);
        assert_eq!(budget.derivation.binding, Constraint::Override);
        assert!(matches!(
            budget.derivation.adjustments.as_slice(),
            [Adjustment::OverrideAboveDerived { override_bytes, .. }] if *override_bytes == 4 * GIB
        ));
        assert_split_exact(&budget);
    }

    #[test]
    fn footprint_above_limit_clamps_to_floor_and_reports() {
        let inputs = BudgetInputs::new(profile("iphone-se-2")).with_footprint(3 * GIB);
        let budget = Budget::derive(&inputs);
        assert_eq!(budget.total_bytes, MIN_BUDGET_BYTES);
        assert_eq!(budget.derivation.binding, Constraint::Floor);
        let adjustments = &budget.derivation.adjustments;
        assert!(matches!(
            adjustments[0],
            Adjustment::FootprintExceedsLimit { .. }
        ));
        assert!(adjustments.contains(&Adjustment::RaisedToFloor { derived_bytes: 0 }));
    }

    #[test]
    fn zero_inputs_clamp_to_floor() {
        let inputs = BudgetInputs::new(custom(0)).with_vulkan(VulkanMemory {
            device_local_heap_bytes: 0,
            unified: true,
            heap_budget_bytes: Some(0),
        });
        let budget = Budget::derive(&inputs);
        assert_eq!(budget.total_bytes, MIN_BUDGET_BYTES);
        assert_split_exact(&budget);
    }

    #[test]
    fn no_constraint_at_all_clamps_to_floor() {
        let mut discrete_profile = custom(GIB);
        discrete_profile.unified_memory = false;
        let budget = Budget::derive(&BudgetInputs::new(discrete_profile));
        assert_eq!(budget.total_bytes, MIN_BUDGET_BYTES);
        assert!(budget
            .derivation
            .adjustments
            .contains(&Adjustment::NoConstraint));
    }

    #[test]
    fn overflowing_inputs_do_not_panic() {
        let inputs = BudgetInputs::new(custom(u64::MAX))
            .with_footprint(0)
            .with_vulkan(VulkanMemory {
                device_local_heap_bytes: u64::MAX,
                unified: true,
                heap_budget_bytes: Some(u64::MAX),
            });
        let budget = Budget::derive(&inputs);
        assert_eq!(budget.derivation.binding, Constraint::VulkanHeap);
        assert_split_exact(&budget);
    }

    #[test]
    fn ext_budget_above_heap_is_reported() {
        let inputs = BudgetInputs::new(custom(64 * GIB)).with_vulkan(VulkanMemory {
            device_local_heap_bytes: GIB,
            unified: false,
            heap_budget_bytes: Some(2 * GIB),
        });
        let budget = Budget::derive(&inputs);
        assert_eq!(budget.derivation.binding, Constraint::VulkanHeap);
        assert!(budget
            .derivation
            .adjustments
            .contains(&Adjustment::ExtBudgetAboveHeap {
                budget_bytes: 2 * GIB,
                heap_bytes: GIB
            }));
    }

    #[test]
    fn derivation_explains_itself() {
        let budget = Budget::derive(
            &BudgetInputs::new(profile("iphone-12")).with_vulkan(unified_heap(4 * GIB)),
        );
        let text = budget.to_string();
        assert!(text.contains("bound by: platform"), "{text}");
        assert!(text.contains("<- binding"), "{text}");
        assert!(text.contains("iphone-12"), "{text}");
        assert!(text.contains("textures"), "{text}");
    }

    #[test]
    fn admit_refuses_exactly_at_the_line() {
        let budget = Budget::fixed(1000);
        let usage = Usage::from_array([400, 300, 200, 0, 0]);
        assert_eq!(budget.admit(&usage, Category::Staging, 100), Ok(()));
        assert!(!budget.would_exceed(&usage, 100));
        let refusal = budget
            .admit(&usage, Category::Texture, 101)
            .expect_err("crosses the budget");
        assert_eq!(
            refusal,
            Refusal {
                category: Category::Texture,
                requested_bytes: 101,
                usage_bytes: 900,
                budget_bytes: 1000
            }
        );
        assert!(budget.would_exceed(&usage, 101));
        // An overflowing request is refused, not wrapped.
        assert!(budget.admit(&usage, Category::Buffer, u64::MAX).is_err());
    }

    proptest! {
        #[test]
        fn split_is_exact_for_any_total(total in any::<u64>()) {
            let (shares, slack) = split(total);
            let sum: u128 = shares.values().iter().map(|&s| u128::from(s)).sum();
            prop_assert_eq!(sum + u128::from(slack), u128::from(total));
        }

        #[test]
        fn derive_never_panics_and_respects_the_floor(
            crash in any::<u64>(),
            footprint in proptest::option::of(any::<u64>()),
            heap in proptest::option::of((any::<u64>(), any::<bool>(), proptest::option::of(any::<u64>()))),
            override_bytes in proptest::option::of(1..u64::MAX),
        ) {
            let mut inputs = BudgetInputs::new(custom(crash));
            inputs.non_gpu_footprint_bytes = footprint;
            inputs.vulkan = heap.map(|(bytes, unified, ext)| VulkanMemory {
                device_local_heap_bytes: bytes,
                unified,
                heap_budget_bytes: ext,
            });
            inputs.budget_override_bytes = override_bytes;
            let budget = Budget::derive(&inputs);
            match override_bytes {
                Some(bytes) => prop_assert_eq!(budget.total_bytes, bytes),
                None => {
                    prop_assert!(budget.total_bytes >= MIN_BUDGET_BYTES);
                    // Never above any candidate unless raised to the floor.
                    if budget.derivation.binding != Constraint::Floor {
                        for candidate in &budget.derivation.candidates {
                            prop_assert!(budget.total_bytes <= candidate.bytes);
                        }
                    }
                }
            }
            let shares: u128 = budget.shares.values().iter().map(|&s| u128::from(s)).sum();
            prop_assert_eq!(shares + u128::from(budget.slack_bytes), u128::from(budget.total_bytes));
        }
    }
}
