//! Pressure levels with hysteresis, and the actions each level asks of the clients.
//!
//! Design decisions:
//! - Four levels, entered at fractions of the total budget: Warn at 75 %, Critical at 90 %,
//!   Over at 100 % (configurable, [`Thresholds`]). A level is entered as soon as usage reaches
//!   its threshold, and left only when usage falls below the threshold **minus a hysteresis
//!   margin** (5 %), so usage hovering at a boundary cannot make the level (and the GC,
//!   eviction and render-scale requests it triggers) flap frame to frame.
//! - All comparisons are integer: fractions are held in basis points and compared as
//!   `usage * 10_000 >= budget * bp` in `u128`, so boundaries are exact and reproducible in a
//!   replay.
//! - Subscription is by return value, not by callbacks: [`PressureMonitor::update`] returns an
//!   [`Update`] with the level, the transitions it made and the [`Action`]s they call for. The
//!   memory manager calls it each frame and before allocating, handles the actions it owns
//!   (GC, staging, caches, refusal) and forwards the rest (texture demotion, render scale) to
//!   the translator and presenter. No listener registry means no borrow or lock tangles between
//!   the manager and its clients, and a replay is just a loop. `Update` allocates nothing when
//!   the level does not change (empty `Vec`s do not allocate).
//! - Transitions are single steps (Normal→Warn→Critical→Over): a jump from Normal straight to
//!   Over reports three transitions and the actions of all three levels, so entering Over
//!   still triggers the GC and the demotion that might bring usage back down. Every step emits
//!   its transition exactly once.
//! - Actions are emitted on *entering* a level (and a few on leaving one, to undo what entering
//!   did). Work that must repeat while a level lasts (pruning dead textures every 64 frames,
//!   re-evicting) is the client's schedule, keyed on [`Update::level`].

use std::fmt;

use crate::budget::{admit, Budget, Refusal};
use crate::category::{Category, Usage};
use crate::ResidencyError;

/// Fractions of the budget are held in basis points: 10 000 = 100 %.
pub const BASIS_POINTS: u32 = 10_000;

/// How close usage is to the budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Below the warn threshold: nothing to do.
    Normal,
    /// Getting close: collect garbage early, shrink staging.
    Warn,
    /// Close: demote or evict textures, trim caches, lower the render scale.
    Critical,
    /// At or over the budget: refuse new allocations.
    Over,
}

impl Level {
    /// Every level, lowest first.
    pub const ALL: [Level; 4] = [Level::Normal, Level::Warn, Level::Critical, Level::Over];

    /// A short name for reports.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Normal => "normal",
            Level::Warn => "warn",
            Level::Critical => "critical",
            Level::Over => "over",
        }
    }

    fn up(self) -> Level {
        match self {
            Level::Normal => Level::Warn,
            Level::Warn => Level::Critical,
            Level::Critical | Level::Over => Level::Over,
        }
    }

    fn down(self) -> Level {
        match self {
            Level::Normal | Level::Warn => Level::Normal,
            Level::Critical => Level::Warn,
            Level::Over => Level::Critical,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where the levels start, and the hysteresis margin for leaving them, in basis points of the
/// budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Thresholds {
    warn_bp: u32,
    critical_bp: u32,
    over_bp: u32,
    hysteresis_bp: u32,
}

impl Default for Thresholds {
    /// Warn at 75 %, Critical at 90 %, Over at 100 %, 5 % hysteresis.
    fn default() -> Self {
        Thresholds {
            warn_bp: 7_500,
            critical_bp: 9_000,
            over_bp: 10_000,
            hysteresis_bp: 500,
        }
    }
}

impl Thresholds {
    /// Thresholds in basis points. Requires `0 < warn < critical < over <= 10_000` and
    /// `hysteresis < warn` (otherwise Warn could never be left).
    pub fn from_basis_points(
        warn: u32,
        critical: u32,
        over: u32,
        hysteresis: u32,
    ) -> Result<Self, ResidencyError> {
        let invalid = |reason| Err(ResidencyError::InvalidThresholds { reason });
        if warn == 0 {
            return invalid("the warn threshold must be above zero");
        }
        if !(warn < critical && critical < over) {
            return invalid("thresholds must rise strictly: warn < critical < over");
        }
        if over > BASIS_POINTS {
            return invalid("the over threshold cannot exceed 100 % of the budget");
        }
        if hysteresis >= warn {
            return invalid("the hysteresis margin must be smaller than the warn threshold");
        }
        Ok(Thresholds {
            warn_bp: warn,
            critical_bp: critical,
            over_bp: over,
            hysteresis_bp: hysteresis,
        })
    }

    /// Thresholds as fractions of the budget (`0.75`, `0.90`, `1.0`, `0.05`), rounded to basis
    /// points; the same rules as [`Thresholds::from_basis_points`], and NaN or infinite values
    /// are rejected.
    pub fn from_fractions(
        warn: f64,
        critical: f64,
        over: f64,
        hysteresis: f64,
    ) -> Result<Self, ResidencyError> {
        let to_bp = |fraction: f64| {
            if fraction.is_finite() && (0.0..=1.0).contains(&fraction) {
                // In range, so the cast is exact after rounding.
                Ok((fraction * f64::from(BASIS_POINTS)).round() as u32)
            } else {
                Err(ResidencyError::InvalidThresholds {
                    reason: "fractions must be finite and between 0 and 1",
                })
            }
        };
        Thresholds::from_basis_points(
            to_bp(warn)?,
            to_bp(critical)?,
            to_bp(over)?,
            to_bp(hysteresis)?,
        )
    }

    /// The usage fraction (basis points) at which `level` is entered; 0 for Normal.
    pub fn enter_bp(&self, level: Level) -> u32 {
        match level {
            Level::Normal => 0,
            Level::Warn => self.warn_bp,
            Level::Critical => self.critical_bp,
            Level::Over => self.over_bp,
        }
    }

    /// The usage fraction (basis points) below which `level` is left; 0 for Normal.
    pub fn exit_bp(&self, level: Level) -> u32 {
        self.enter_bp(level).saturating_sub(self.hysteresis_bp)
    }

    /// The hysteresis margin in basis points.
    pub fn hysteresis_bp(&self) -> u32 {
        self.hysteresis_bp
    }

    /// The level of `usage` against `budget` with no history: the highest level whose threshold
    /// usage has reached. This is also the level while usage rises.
    pub fn level_for(&self, usage: u64, budget: u64) -> Level {
        Level::ALL
            .into_iter()
            .rev()
            .find(|&level| reaches(usage, budget, self.enter_bp(level)))
            .unwrap_or(Level::Normal)
    }

    /// The level after `current`, given new `usage` against `budget`, with hysteresis: up to
    /// [`Thresholds::level_for`] when that is higher; otherwise down one level at a time while
    /// usage is below the current level's exit line.
    pub fn next_level(&self, current: Level, usage: u64, budget: u64) -> Level {
        let rising = self.level_for(usage, budget);
        if rising >= current {
            return rising;
        }
        let mut level = current;
        while level != Level::Normal && !reaches(usage, budget, self.exit_bp(level)) {
            level = level.down();
        }
        level
    }
}

/// `usage >= budget * bp / 10_000`, exactly.
fn reaches(usage: u64, budget: u64, bp: u32) -> bool {
    u128::from(usage) * u128::from(BASIS_POINTS) >= u128::from(budget) * u128::from(bp)
}

/// One step between adjacent levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transition {
    /// The level left.
    pub from: Level,
    /// The level entered (adjacent to `from`).
    pub to: Level,
}

/// What a level asks of the clients.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Entering Warn: drain completed epochs and free retired resources now, without blocking,
    /// instead of waiting for the next natural drain point (memory manager).
    ProactiveGc,
    /// Entering Warn: give back staging overflow blocks and shrink arenas to their base size
    /// (staging).
    ShrinkStaging,
    /// Entering Critical: make textures smaller (translator, through the memory manager).
    DemoteTextures {
        /// Bytes to release to get back below the Critical exit line.
        bytes_to_free: u64,
        /// Mip levels to drop from the top of demotable textures.
        drop_mip_levels: u32,
        /// Evict textures not sampled for this many frames.
        unsampled_for_frames: u32,
    },
    /// Entering Critical: trim pipeline, descriptor and sampler caches (translator).
    TrimCaches,
    /// Entering Critical: render at this fraction of the window size and scale up at present;
    /// leaving Critical downwards: back to `1.0` (presenter).
    RequestRenderScale(f32),
    /// Entering Over: refuse new allocations with `GL_OUT_OF_MEMORY` (memory manager).
    RefuseAllocations,
    /// Leaving Over downwards: allocations may be admitted again (memory manager).
    AcceptAllocations,
}

/// The knobs of the actions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ActionPolicy {
    /// The render scale requested on entering Critical; clamped to `[0.25, 1.0]`, and a
    /// non-finite value means `1.0` (no scaling).
    pub critical_render_scale: f32,
    /// Mip levels to drop from demotable textures.
    pub drop_mip_levels: u32,
    /// Frames without sampling after which a texture may be evicted.
    pub unsampled_for_frames: u32,
}

impl Default for ActionPolicy {
    /// Render at 75 %, drop one mip level, evict what was not sampled for 256 frames.
    fn default() -> Self {
        ActionPolicy {
            critical_render_scale: 0.75,
            drop_mip_levels: 1,
            unsampled_for_frames: 256,
        }
    }
}

impl ActionPolicy {
    fn render_scale(&self) -> f32 {
        if self.critical_render_scale.is_finite() {
            self.critical_render_scale.clamp(0.25, 1.0)
        } else {
            1.0
        }
    }
}

/// The result of one [`PressureMonitor::update`].
#[derive(Debug, Clone, PartialEq)]
pub struct Update {
    /// The level now.
    pub level: Level,
    /// The steps taken by this update, in order; empty when the level did not change.
    pub transitions: Vec<Transition>,
    /// What those steps ask of the clients, in order.
    pub actions: Vec<Action>,
    /// Total usage seen by this update.
    pub usage_bytes: u64,
    /// Total budget seen by this update.
    pub budget_bytes: u64,
}

/// Tracks the pressure level across frames and answers admission queries.
///
/// The memory manager feeds it the per-category usage and the budget each frame and before each
/// allocation ([`PressureMonitor::update`]), acts on the returned [`Update`], then asks
/// [`PressureMonitor::admit`] whether the allocation may proceed.
#[derive(Debug, Clone)]
pub struct PressureMonitor {
    thresholds: Thresholds,
    policy: ActionPolicy,
    level: Level,
    usage_bytes: u64,
    budget_bytes: u64,
    /// The level the platform asks for at least (`signals`), Normal when it asks nothing.
    floor: Level,
}

impl PressureMonitor {
    /// A monitor with the default thresholds and policy, at Normal with nothing in use.
    pub fn new(budget: &Budget) -> Self {
        PressureMonitor::with_config(budget, Thresholds::default(), ActionPolicy::default())
    }

    /// A monitor with explicit thresholds and policy.
    pub fn with_config(budget: &Budget, thresholds: Thresholds, policy: ActionPolicy) -> Self {
        PressureMonitor {
            thresholds,
            policy,
            level: Level::Normal,
            usage_bytes: 0,
            budget_bytes: budget.total_bytes,
            floor: Level::Normal,
        }
    }

    /// Holds the level at `floor` or above from the next update, whatever the usage (a platform
    /// signal, `signals`): entering it emits that level's actions once, and when the floor
    /// drops the level falls back by usage with the usual hysteresis. A floor never reaches
    /// Over, which only refuses allocations: it is capped at Critical.
    pub fn set_floor(&mut self, floor: Level) {
        self.floor = floor.min(Level::Critical);
    }

    /// The floor in force ([`PressureMonitor::set_floor`]).
    pub fn floor(&self) -> Level {
        self.floor
    }

    /// Feeds the current usage per category and the current budget (which may change, e.g. when
    /// `VK_EXT_memory_budget` reports a new value and the budget is derived again).
    pub fn update(&mut self, usage: &Usage, budget: &Budget) -> Update {
        self.update_totals(usage.total(), budget.total_bytes)
    }

    /// [`PressureMonitor::update`] with totals instead of a per-category map (replays, tests).
    pub fn update_totals(&mut self, usage_bytes: u64, budget_bytes: u64) -> Update {
        self.usage_bytes = usage_bytes;
        self.budget_bytes = budget_bytes;
        let target = self
            .thresholds
            .next_level(self.level, usage_bytes, budget_bytes)
            .max(self.floor);
        let mut transitions = Vec::new();
        let mut actions = Vec::new();
        while self.level != target {
            let from = self.level;
            let to = if target > from {
                from.up()
            } else {
                from.down()
            };
            transitions.push(Transition { from, to });
            self.push_actions(from, to, &mut actions);
            self.level = to;
        }
        Update {
            level: self.level,
            transitions,
            actions,
            usage_bytes,
            budget_bytes,
        }
    }

    /// The current level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// The action policy in use.
    pub fn policy(&self) -> &ActionPolicy {
        &self.policy
    }

    /// Replaces the action policy; the level stays (the actions of reaching it were emitted).
    pub fn set_policy(&mut self, policy: ActionPolicy) {
        self.policy = policy;
    }

    /// The thresholds in use.
    pub fn thresholds(&self) -> &Thresholds {
        &self.thresholds
    }

    /// Whether `bytes` more would cross the budget, for the usage of the latest update.
    pub fn would_exceed(&self, bytes: u64) -> bool {
        admit(
            self.usage_bytes,
            self.budget_bytes,
            Category::Texture,
            bytes,
        )
        .is_err()
    }

    /// Admits an allocation against the usage and budget of the latest update: `Ok` iff it
    /// does not take usage past the budget. This holds at every level, so at Over (usage at or
    /// above the budget) every non-empty allocation is refused, and below Over an allocation that
    /// fits is admitted even while the level waits for usage to fall below its exit line.
    pub fn admit(&self, category: Category, bytes: u64) -> Result<(), Refusal> {
        admit(self.usage_bytes, self.budget_bytes, category, bytes)
    }

    fn push_actions(&self, from: Level, to: Level, actions: &mut Vec<Action>) {
        match (from, to) {
            (_, Level::Warn) if to > from => {
                actions.extend([Action::ProactiveGc, Action::ShrinkStaging]);
            }
            (_, Level::Critical) if to > from => {
                let exit = u128::from(self.budget_bytes)
                    * u128::from(self.thresholds.exit_bp(Level::Critical))
                    / u128::from(BASIS_POINTS);
                let over = u64::try_from(u128::from(self.usage_bytes).saturating_sub(exit))
                    .unwrap_or(u64::MAX);
                // Held there by the platform (a floor), give back a quarter of what is in use
                // even when usage is far below the line.
                let asked = if self.floor >= Level::Critical {
                    self.usage_bytes / 4
                } else {
                    0
                };
                let bytes_to_free = over.max(asked);
                actions.extend([
                    Action::DemoteTextures {
                        bytes_to_free,
                        drop_mip_levels: self.policy.drop_mip_levels,
                        unsampled_for_frames: self.policy.unsampled_for_frames,
                    },
                    Action::TrimCaches,
                    Action::RequestRenderScale(self.policy.render_scale()),
                ]);
            }
            (_, Level::Over) => actions.push(Action::RefuseAllocations),
            (Level::Over, _) => actions.push(Action::AcceptAllocations),
            (Level::Critical, _) => actions.push(Action::RequestRenderScale(1.0)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A budget of 10 000 × `unit` bytes, so `bp * unit` is exactly `bp` basis points.
    fn monitor(unit: u64) -> (PressureMonitor, u64) {
        let budget = Budget::fixed(u64::from(BASIS_POINTS) * unit);
        (PressureMonitor::new(&budget), budget.total_bytes)
    }

    #[test]
    fn rises_through_levels_with_their_actions() {
        let (mut m, total) = monitor(1);
        assert_eq!(m.update_totals(7_499, total).level, Level::Normal);
        let warn = m.update_totals(7_500, total);
        assert_eq!(warn.level, Level::Warn);
        assert_eq!(
            warn.transitions,
            vec![Transition {
                from: Level::Normal,
                to: Level::Warn
            }]
        );
        assert_eq!(
            warn.actions,
            vec![Action::ProactiveGc, Action::ShrinkStaging]
        );

        let critical = m.update_totals(9_200, total);
        assert_eq!(critical.level, Level::Critical);
        assert_eq!(
            critical.actions,
            vec![
                Action::DemoteTextures {
                    // Down to the Critical exit line, 85 %.
                    bytes_to_free: 700,
                    drop_mip_levels: 1,
                    unsampled_for_frames: 256
                },
                Action::TrimCaches,
                Action::RequestRenderScale(0.75),
            ]
        );
        let over = m.update_totals(10_000, total);
        assert_eq!(over.level, Level::Over);
        assert_eq!(over.actions, vec![Action::RefuseAllocations]);
        // Staying at a level emits nothing.
        let same = m.update_totals(10_100, total);
        assert!(same.transitions.is_empty() && same.actions.is_empty());
    }

    #[test]
    fn jump_reports_every_step_once() {
        let (mut m, total) = monitor(1);
        let update = m.update_totals(total, total);
        assert_eq!(
            update.transitions,
            vec![
                Transition {
                    from: Level::Normal,
                    to: Level::Warn
                },
                Transition {
                    from: Level::Warn,
                    to: Level::Critical
                },
                Transition {
                    from: Level::Critical,
                    to: Level::Over
                },
            ]
        );
        assert_eq!(update.actions.len(), 2 + 3 + 1);
        let down = m.update_totals(0, total);
        assert_eq!(down.level, Level::Normal);
        assert_eq!(
            down.actions,
            vec![Action::AcceptAllocations, Action::RequestRenderScale(1.0)]
        );
        assert_eq!(down.transitions.len(), 3);
    }

    #[test]
    fn hysteresis_holds_until_below_exit_line() {
        let (mut m, total) = monitor(1);
        m.update_totals(9_000, total);
        assert_eq!(m.level(), Level::Critical);
        // 85 % is the exit line: still Critical there.
        assert_eq!(m.update_totals(8_999, total).level, Level::Critical);
        assert_eq!(m.update_totals(8_500, total).level, Level::Critical);
        // Below it, down one step only: 84.99 % is still above Warn's exit line (70 %).
        let down = m.update_totals(8_499, total);
        assert_eq!(down.level, Level::Warn);
        assert_eq!(down.actions, vec![Action::RequestRenderScale(1.0)]);
    }

    #[test]
    fn zero_budget_is_over_and_refuses() {
        let budget = Budget::fixed(0);
        let mut m = PressureMonitor::new(&budget);
        assert_eq!(m.update(&Usage::default(), &budget).level, Level::Over);
        assert!(m.admit(Category::Buffer, 1).is_err());
        assert_eq!(m.admit(Category::Buffer, 0), Ok(()));
    }

    #[test]
    fn admit_uses_latest_update() {
        let budget = Budget::fixed(1_000);
        let mut m = PressureMonitor::new(&budget);
        m.update(&Usage::from_array([600, 0, 0, 0, 300]), &budget);
        assert_eq!(m.admit(Category::Texture, 100), Ok(()));
        let refusal = m.admit(Category::Texture, 101).expect_err("crosses");
        assert_eq!(refusal.usage_bytes, 900);
        assert!(m.would_exceed(101) && !m.would_exceed(100));
    }

    #[test]
    fn invalid_thresholds_are_rejected() {
        assert!(Thresholds::from_basis_points(0, 9_000, 10_000, 0).is_err());
        assert!(Thresholds::from_basis_points(9_000, 9_000, 10_000, 0).is_err());
        assert!(Thresholds::from_basis_points(7_500, 9_000, 10_001, 0).is_err());
        assert!(Thresholds::from_basis_points(500, 9_000, 10_000, 500).is_err());
        assert!(Thresholds::from_fractions(f64::NAN, 0.9, 1.0, 0.05).is_err());
        assert!(Thresholds::from_fractions(0.75, 0.9, 1.5, 0.05).is_err());
        assert_eq!(
            Thresholds::from_fractions(0.75, 0.90, 1.0, 0.05),
            Ok(Thresholds::default())
        );
    }

    #[test]
    fn render_scale_is_sanitized() {
        let budget = Budget::fixed(100);
        for (asked, sent) in [(f32::NAN, 1.0), (0.0, 0.25), (2.0, 1.0), (0.5, 0.5)] {
            let policy = ActionPolicy {
                critical_render_scale: asked,
                ..ActionPolicy::default()
            };
            let mut m = PressureMonitor::with_config(&budget, Thresholds::default(), policy);
            let update = m.update_totals(95, 100);
            assert!(
                update.actions.contains(&Action::RequestRenderScale(sent)),
                "{asked}"
            );
        }
    }

    /// Valid random thresholds whose levels are more than two margins apart, so oscillating
    /// within one margin of a threshold cannot reach the next.
    fn spaced_thresholds() -> impl Strategy<Value = Thresholds> {
        (0u32..=600, 1u32..=2_000, 1u32..=2_000, 1u32..=2_000).prop_filter_map(
            "over must fit in 100 %",
            |(margin, warn_gap, gap1, gap2)| {
                let warn = margin + warn_gap;
                let critical = warn + 2 * margin + gap1;
                let over = critical + 2 * margin + gap2;
                Thresholds::from_basis_points(warn, critical, over, margin).ok()
            },
        )
    }

    /// An independent reference: counts thresholds reached (rising), else keeps the highest
    /// level at or below the current one whose exit line is still reached.
    fn reference_level(t: &Thresholds, seq: &[u64], total: u64) -> usize {
        let enters = [
            t.enter_bp(Level::Warn),
            t.enter_bp(Level::Critical),
            t.enter_bp(Level::Over),
        ];
        let margin = t.hysteresis_bp();
        let mut level = 0usize;
        for &usage in seq {
            let scaled = u128::from(usage) * 10_000;
            let at = |bp: u32| scaled >= u128::from(total) * u128::from(bp);
            let raw = enters.iter().filter(|&&bp| at(bp)).count();
            level = if raw >= level {
                raw
            } else {
                (raw..=level)
                    .rev()
                    .find(|&l| l == 0 || at(enters[l - 1] - margin))
                    .unwrap_or(raw)
            };
        }
        level
    }

    proptest! {
        #[test]
        fn hysteresis_never_flaps(
            thresholds in spaced_thresholds(),
            level_index in 1usize..=3,
            unit in 1u64..=1_000_000,
            offsets in proptest::collection::vec(0u32..=2_000, 1..64),
        ) {
            let level = Level::ALL[level_index];
            let budget = Budget::fixed(u64::from(BASIS_POINTS) * unit);
            let total = budget.total_bytes;
            let mut m = PressureMonitor::with_config(&budget, thresholds, ActionPolicy::default());
            // Start one level below, at that level's own threshold.
            let below = Level::ALL[level_index - 1];
            m.update_totals(u64::from(thresholds.enter_bp(below)) * unit, total);
            prop_assert_eq!(m.level(), below);
            let enter = thresholds.enter_bp(level);
            let margin = thresholds.hysteresis_bp();
            let mut transitions = 0;
            for offset in offsets {
                // Usage in [enter - margin, enter + margin), in whole basis points.
                let bp = enter - margin + offset % (2 * margin).max(1);
                transitions += m.update_totals(u64::from(bp) * unit, total).transitions.len();
            }
            prop_assert!(transitions <= 1, "{} transitions", transitions);
        }

        #[test]
        fn levels_are_monotone_while_rising(
            thresholds in spaced_thresholds(),
            total in 0u64..=u64::MAX / 2,
            mut usages in proptest::collection::vec(any::<u64>(), 1..64),
        ) {
            usages.sort_unstable();
            let budget = Budget::fixed(total);
            let mut m = PressureMonitor::with_config(&budget, thresholds, ActionPolicy::default());
            let mut previous = Level::Normal;
            for usage in usages {
                let level = m.update_totals(usage, total).level;
                prop_assert!(level >= previous);
                prop_assert_eq!(level, thresholds.level_for(usage, total));
                previous = level;
            }
        }

        #[test]
        fn level_matches_reference_model(
            thresholds in spaced_thresholds(),
            total in 1u64..=1u64 << 40,
            usages in proptest::collection::vec(any::<u64>(), 1..64),
        ) {
            // Usage spread over 0..=120 % of the budget, where all the boundaries are.
            let usages: Vec<u64> = usages
                .into_iter()
                .map(|u| (u128::from(u) % (u128::from(total) * 6 / 5 + 1)) as u64)
                .collect();
            let budget = Budget::fixed(total);
            let mut m = PressureMonitor::with_config(&budget, thresholds, ActionPolicy::default());
            for (i, &usage) in usages.iter().enumerate() {
                let before = m.level();
                let update = m.update_totals(usage, total);
                // Every transition is one step, chained from the previous level, emitted once.
                let mut at = before;
                for transition in &update.transitions {
                    prop_assert_eq!(transition.from, at);
                    prop_assert_eq!(
                        (transition.to as i32 - transition.from as i32).abs(), 1
                    );
                    at = transition.to;
                }
                prop_assert_eq!(at, update.level);
                prop_assert_eq!(
                    update.level as usize,
                    reference_level(&thresholds, &usages[..=i], total)
                );
            }
        }

        #[test]
        fn admit_never_crosses_the_budget(
            total in prop_oneof![0u64..=1 << 34, any::<u64>()],
            usage in proptest::array::uniform5(prop_oneof![0u64..=1 << 32, any::<u64>()]),
            category_index in 0usize..Category::COUNT,
            random_bytes in prop_oneof![0u64..=1 << 32, any::<u64>()],
            // Half the cases ask for exactly what is left, give or take two bytes: the boundary
            // where an off-by-one would hide from random sizes.
            boundary in proptest::option::of(-2i128..=2),
        ) {
            let budget = Budget::fixed(total);
            let usage = Usage::from_array(usage);
            let category = Category::ALL[category_index];
            let true_usage: u128 = usage.values().iter().map(|&u| u128::from(u)).sum();
            let bytes = match boundary {
                Some(delta) => (i128::from(total) - true_usage as i128 + delta)
                    .clamp(0, i128::from(u64::MAX)) as u64,
                None => random_bytes,
            };
            let admitted = budget.admit(&usage, category, bytes).is_ok();
            if bytes > 0 {
                // Admitted exactly when the allocation fits: never past the line, never refused
                // below it.
                prop_assert_eq!(admitted, true_usage + u128::from(bytes) <= u128::from(total));
            }
            prop_assert_eq!(admitted, !budget.would_exceed(&usage, bytes));
            let mut m = PressureMonitor::new(&budget);
            m.update(&usage, &budget);
            prop_assert_eq!(m.admit(category, bytes).is_ok(), admitted);
            prop_assert_eq!(m.would_exceed(bytes), !admitted);
        }
    }

    #[test]
    fn a_floor_holds_the_level_and_lifts_by_usage() {
        let budget = Budget::fixed(1000);
        let mut m = PressureMonitor::new(&budget);
        assert_eq!(m.update_totals(100, 1000).level, Level::Normal);
        m.set_floor(Level::Critical);
        let up = m.update_totals(100, 1000);
        assert_eq!(up.level, Level::Critical);
        assert_eq!(up.transitions.len(), 2, "Warn then Critical, each once");
        assert!(up.actions.contains(&Action::TrimCaches));
        let asked = up.actions.iter().find_map(|a| match a {
            Action::DemoteTextures { bytes_to_free, .. } => Some(*bytes_to_free),
            _ => None,
        });
        assert_eq!(asked, Some(25), "a quarter of the usage");
        let held = m.update_totals(100, 1000);
        assert_eq!(held.level, Level::Critical);
        assert!(held.transitions.is_empty(), "actions run once");
        m.set_floor(Level::Over);
        assert_eq!(m.floor(), Level::Critical, "never Over");
        m.set_floor(Level::Normal);
        assert_eq!(m.update_totals(100, 1000).level, Level::Normal);
    }
}
