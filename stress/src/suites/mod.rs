//! The suites' frame loop: one context on a pbuffer (or an X11 window), the suite's objects, then per frame the
//! suite's work, the GL errors drained and tallied, and `eglSwapBuffers` (the frame boundary at
//! which ArenaGL drains epochs and publishes its telemetry). The final frame is read back before
//! its swap; the memory figures are read after it, so they include the last frame.

mod arena;
mod atlas;
mod churn;
mod resize;

use arenagl_glclient::gl::consts::*;
use arenagl_glclient::{Gl, Session};

use crate::config::{StressConfig, Suite};
use crate::outcome::{ErrorTally, StressResult};
use crate::telemetry::own_figures;
use crate::StressError;

/// One suite's objects and its per-frame work.
trait Workload {
    /// Renders frame `frame` (the surface is current; the resize suite may replace it).
    fn frame(&mut self, session: &mut Session, frame: u32, last: bool) -> Result<(), StressError>;
    /// Deletes every object.
    fn release(&mut self, gl: &Gl);
}

/// Clears a `width` × `height` surface to the suites' background.
fn begin_frame(gl: &Gl, width: u32, height: u32) {
    gl.viewport(0, 0, width as i32, height as i32);
    gl.clear_color(0.1, 0.12, 0.15, 1.0);
    gl.clear(COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT);
}

/// Runs `config`'s suite in this process (the budget is already in the environment).
pub(crate) fn run(
    config: &StressConfig,
    requested_budget: u64,
) -> Result<StressResult, StressError> {
    let mut session = if config.window {
        Session::new_window(
            &config.implementation,
            config.width,
            config.height,
            &format!("arenagl stress {}", config.suite),
        )?
    } else {
        Session::new(&config.implementation, config.width, config.height)?
    };
    let renderer = session.renderer();
    let sizes = config.sizes();
    let mut errors = ErrorTally::default();
    let mut workload: Box<dyn Workload> = {
        let gl = session.gl();
        match config.suite {
            Suite::Atlas => Box::new(atlas::Atlases::new(gl, &sizes)?),
            Suite::Arena => Box::new(arena::Arena::new(gl, &sizes)?),
            Suite::Churn => Box::new(churn::Churn::new(gl, &sizes)?),
            Suite::Resize => Box::new(resize::Resize::new(gl, config.width, config.height)?),
        }
    };
    errors.add(&session.gl().drain_errors());
    let mut final_frame = None;
    for frame in 0..config.frames {
        let last = frame + 1 == config.frames;
        workload.frame(&mut session, frame, last)?;
        errors.add(&session.gl().drain_errors());
        if last {
            final_frame = Some(session.read_image()?);
        }
        session.swap_buffers()?;
    }
    workload.release(session.gl());
    errors.add(&session.gl().drain_errors());
    // One more frame boundary, so the page holds the figures after the release too.
    session.swap_buffers()?;
    let figures = own_figures();
    let final_frame = final_frame.ok_or_else(|| StressError::Usage("no frame rendered".into()))?;
    Ok(StressResult {
        suite: config.suite.name().to_owned(),
        profile: config.profile.clone(),
        scale: config.scale,
        frames: config.frames,
        errors,
        validation_errors: session.exported_counter(c"arenagl_validation_error_count"),
        peak_device_bytes: figures.peak_device_bytes,
        budget_bytes: figures.budget_bytes,
        requested_budget_bytes: requested_budget,
        allocate_calls: figures.allocate_calls,
        swapchains_created: session
            .is_window()
            .then(|| session.memory_stat(c"swapchains_created"))
            .flatten(),
        renderer,
        final_frame,
    })
}
