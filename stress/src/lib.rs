//! ArenaGL's stress suites.
//!
//! - GL-level workload simulators of a Minecraft-like game (this library): atlas stitching,
//!   a streamed chunk-mesh arena with per-draw uniforms, texture and buffer churn, and a
//!   surface-resize storm, run through a GL implementation's real C ABI (ArenaGL's
//!   `libarenagl.so` by default, loaded by path through `arenagl-glclient`) under a named device
//!   profile whose budget is scaled to what the machine can hold ([`StressConfig`]). Each run
//!   returns a [`StressResult`]: frames, GL errors (`GL_OUT_OF_MEMORY` apart), validation errors,
//!   peak device bytes against the budget, and the final frame's pixels.
//! - The proptest state machine of the allocator and the loom model of the retire/drain queues
//!   live under `tests/`.
//!
//! Design decisions:
//! - One budget per process: ArenaGL reads `ARENAGL_PROFILE` / `ARENAGL_BUDGET_MB` when its
//!   device is created, and the library is never unloaded. [`run`] sets both before loading the
//!   library, so call it once per process (`arenagl stress` does); [`run_in_child`] runs each
//!   suite in a child `arenagl stress` process, which is what tests comparing two budgets need.
//! - The scale factor `S` multiplies both sides: the budget is the profile's derived budget × S
//!   and every workload size (atlas area, arena bytes, churned bytes) is its full size × S, so
//!   the ratio of working set to budget is the real device's at any S ([`Sizes`]).
//! - A suite never stops at a GL error: errors are counted (out-of-memory apart) and the run
//!   goes on, as a game does; only a failure to set up (no library, no context, a shader that
//!   does not compile) is an [`StressError`].
//! - The final frame is read back after the last frame's draws (before its swap), so it is the
//!   picture the last frame produced; tests compare it across budgets and implementations.

mod child;
mod config;
pub mod draw;
mod outcome;
mod suites;
pub mod telemetry;

pub use arenagl_glclient::{Image, Implementation};
pub use child::{read_png, run_in_child};
pub use config::{Sizes, StressConfig, Suite, DEFAULT_SCALE};
pub use outcome::{ErrorTally, StressResult, RESULT_PREFIX};

/// What keeps a stress run from running at all.
#[derive(Debug, thiserror::Error)]
pub enum StressError {
    /// The GL implementation failed to load, set up a context, or build the suite's objects.
    #[error(transparent)]
    Gl(#[from] arenagl_glclient::GlClientError),
    /// The profile name is unknown.
    #[error("profile: {0}")]
    Profile(#[from] arenagl_residency::ResidencyError),
    /// The options do not make sense.
    #[error("{0}")]
    Usage(String),
    /// A child `arenagl stress` run failed or printed no result.
    #[error("child run: {0}")]
    Child(String),
}

/// Runs one suite in this process under `config`'s scaled budget (module doc: once per process).
pub fn run(config: &StressConfig) -> Result<StressResult, StressError> {
    config.validate()?;
    let budget = config.scaled_budget_bytes()?;
    if config.implementation.is_arenagl() {
        // ArenaGL reads these when its device is created, inside eglInitialize below; the process
        // is still single-threaded here (no GL library is loaded yet).
        std::env::set_var(arenagl_residency::overrides::PROFILE_VAR, &config.profile);
        std::env::set_var(
            arenagl_residency::overrides::BUDGET_VAR,
            (budget / arenagl_residency::MIB).to_string(),
        );
    }
    suites::run(config, budget)
}
