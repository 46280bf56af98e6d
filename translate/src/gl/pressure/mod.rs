//! The translator's side of the memory-pressure policy: what it gives up when the manager
//! reports pressure (texture demotion, cache pruning and trimming in `degrade`; a reduced render
//! scale for windows in `render_scale`). See `docs/pressure.md`.

pub(crate) mod degrade;
pub(crate) mod render_scale;
