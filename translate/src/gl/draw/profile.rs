//! An opt-in breakdown of the CPU time a draw spends in each of its phases
//! (`ARENAGL_DRAW_PROFILE=1`), printed as a table to stderr when the context is destroyed.
//!
//! Design decisions:
//! - Off, a draw pays one test of a `bool` the encoder read once, when the context was made,
//!   per phase boundary: no clock is read, nothing is stored.
//! - On, each boundary reads `Instant::now()` once and charges the time since the last boundary
//!   to the phase that just ended, so the phases add up to the draw (the clock's own cost is
//!   spread over them: about 20–30 ns a boundary on Linux's vDSO clock).
//! - A pipeline built on a cache miss is its own phase, so that compiles in the first frames do
//!   not hide the steady-state cost of a lookup.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The phases of one draw, in the order it runs them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    /// The call's own errors, blend-state checks, discard, primitive counting.
    Validate,
    /// The program and its per-program state (default block bytes, sampler units).
    Program,
    /// The vertex array, primitive assembly and each input's source.
    VertexInput,
    /// The draw framebuffer: resolved, checked complete, attachments prepared.
    Target,
    /// The pipeline key built from GL state.
    PipelineKey,
    /// The pipeline found in the device's cache (the device lock included).
    PipelineLookup,
    /// A pipeline built on a cache miss.
    PipelineBuild,
    /// Streamed vertex, index and uniform data; textures, samplers and uniform blocks.
    Resources,
    /// Descriptor sets reused or allocated and written.
    Descriptors,
    /// The render pass looked up or begun.
    Pass,
    /// Binds, dynamic state and the draw command.
    Record,
}

const PHASES: [Phase; 11] = [
    Phase::Validate,
    Phase::Program,
    Phase::VertexInput,
    Phase::Target,
    Phase::PipelineKey,
    Phase::PipelineLookup,
    Phase::PipelineBuild,
    Phase::Resources,
    Phase::Descriptors,
    Phase::Pass,
    Phase::Record,
];

/// Whether `ARENAGL_DRAW_PROFILE` asks for the breakdown (read once per process).
fn requested() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| {
        std::env::var("ARENAGL_DRAW_PROFILE").is_ok_and(|v| !v.is_empty() && v != "0")
    })
}

/// Per-phase totals of one context's draws (`Encoder::profile`).
#[derive(Debug)]
pub(crate) struct DrawProfile {
    on: bool,
    last: Option<Instant>,
    totals: [Duration; PHASES.len()],
    /// Draws that went through `begin` (every draw call, errors and empty draws included).
    draws: u64,
    /// Pipeline cache misses.
    builds: u64,
}

impl Default for DrawProfile {
    fn default() -> Self {
        Self {
            on: requested(),
            last: None,
            totals: [Duration::ZERO; PHASES.len()],
            draws: 0,
            builds: 0,
        }
    }
}

impl DrawProfile {
    /// A draw begins.
    #[inline]
    pub(crate) fn begin(&mut self) {
        if self.on {
            self.draws += 1;
            self.last = Some(Instant::now());
        }
    }

    /// `phase` has just ended: its time since the last boundary is charged to it.
    #[inline]
    pub(crate) fn mark(&mut self, phase: Phase) {
        if self.on {
            self.charge(phase);
        }
    }

    fn charge(&mut self, phase: Phase) {
        let now = Instant::now();
        if let Some(last) = self.last.replace(now) {
            self.totals[phase as usize] += now - last;
        }
        if phase == Phase::PipelineBuild {
            self.builds += 1;
        }
    }

    /// The table: per phase, total milliseconds, nanoseconds per draw and share.
    pub(crate) fn table(&self) -> String {
        let total: Duration = self.totals.iter().sum();
        let per_draw = |d: Duration| d.as_nanos() as f64 / self.draws.max(1) as f64;
        let mut out = format!(
            "ArenaGL draw profile: {} draws, {} pipeline builds, {:.1} ns/draw in draw phases \
             (each phase includes one clock read, {:.0} ns here)\n\
             {:<16} {:>10} {:>9} {:>6}\n",
            self.draws,
            self.builds,
            per_draw(total),
            clock_read_ns(),
            "phase",
            "total ms",
            "ns/draw",
            "%"
        );
        for (phase, d) in PHASES.iter().zip(self.totals) {
            let share = 100.0 * d.as_secs_f64() / total.as_secs_f64().max(1e-12);
            out += &format!(
                "{:<16} {:>10.2} {:>9.1} {:>6.1}\n",
                format!("{phase:?}"),
                d.as_secs_f64() * 1e3,
                per_draw(d),
                share
            );
        }
        out
    }
}

/// What one `Instant::now()` costs on this machine, in nanoseconds (the mean of 1000).
fn clock_read_ns() -> f64 {
    let start = Instant::now();
    let mut last = start;
    for _ in 0..1000 {
        last = std::hint::black_box(Instant::now());
    }
    (last - start).as_nanos() as f64 / 1000.0
}

impl Drop for DrawProfile {
    fn drop(&mut self) {
        if self.on && self.draws > 0 {
            // An opt-in report the user asked for with ARENAGL_DRAW_PROFILE, once per context.
            eprint!("{}", self.table());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_are_charged_in_order_and_tabled() {
        let mut p = DrawProfile {
            on: true,
            ..DrawProfile::default()
        };
        p.begin();
        std::thread::sleep(Duration::from_millis(2));
        p.mark(Phase::Validate);
        p.mark(Phase::PipelineBuild);
        assert!(p.totals[Phase::Validate as usize] >= Duration::from_millis(2));
        assert_eq!(p.builds, 1);
        let table = p.table();
        assert!(table.contains("1 draws, 1 pipeline builds"), "{table}");
        assert!(table.contains("one clock read"), "{table}");
        assert!(table.contains("Validate"), "{table}");
        p.on = false; // no report from a test
    }

    #[test]
    fn off_records_nothing() {
        let mut p = DrawProfile {
            on: false,
            ..DrawProfile::default()
        };
        p.begin();
        p.mark(Phase::Record);
        assert_eq!(p.draws, 0);
        assert_eq!(p.totals[Phase::Record as usize], Duration::ZERO);
    }
}
