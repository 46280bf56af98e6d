//! The GL-level stress suites (`arenagl-stress`) through the built `arenagl stress`, each in a
//! child process under the iphone-12 profile's budget scaled by 1/16, validation on: each suite
//! runs its frames with no abort, no GL error, no out-of-memory answer, no validation error, a
//! peak within the budget the library ran under (which is the one asked for), and a final frame
//! that shows the suite's drawing (many colours, not the clear colour alone). The resize storm
//! also runs in a real X11 window under `Xvfb` (started here; skipped, with the reason printed,
//! only when `Xvfb` or libX11 is missing), resized every frame.

#[path = "common/xvfb.rs"]
mod xvfb;

use std::path::PathBuf;

use arenagl_stress::{run_in_child, StressConfig, StressResult, Suite};

const BIN: &str = env!("CARGO_BIN_EXE_arenagl");
const PROFILE: &str = "iphone-12";
const FRAMES: u32 = 4;

fn png_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arenagl-stress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(format!("{name}.png"))
}

/// `suite` on a 128 × 96 pbuffer, `FRAMES` frames.
fn check(suite: Suite, min_colours: usize) {
    let mut config = StressConfig::new(suite, PROFILE);
    config.frames = FRAMES;
    check_config(&config, &png_path(suite.name()), min_colours);
}

/// Runs `config` (128 × 96) in a child and checks what every suite must show.
fn check_config(config: &StressConfig, png: &std::path::Path, min_colours: usize) -> StressResult {
    // The child inherits it: every suite runs under the validation layer (errors are counted by
    // the library and reported in the result line).
    std::env::set_var("ARENAGL_VALIDATION", "1");
    let suite = config.suite;
    let mut config = config.clone();
    config.width = 128;
    config.height = 96;
    let result = run_in_child(std::path::Path::new(BIN), &config, png)
        .unwrap_or_else(|e| panic!("{suite}: {e}"));
    let summary = result.line(Some(png));
    assert_eq!(result.frames, config.frames, "{summary}");
    assert_eq!(result.errors.other, 0, "{summary}");
    assert_eq!(result.errors.out_of_memory, 0, "{summary}");
    assert_eq!(result.validation_errors, Some(0), "{summary}");
    let budget = result.budget_bytes.expect("ArenaGL publishes its budget");
    assert_eq!(
        budget, result.requested_budget_bytes,
        "the library ran under the scaled budget: {summary}"
    );
    let peak = result
        .peak_device_bytes
        .expect("ArenaGL publishes its peak");
    assert!(
        peak > 0 && peak <= budget,
        "peak {peak} within {budget}: {summary}"
    );
    assert!(result.allocate_calls.is_some_and(|c| c > 0), "{summary}");
    assert_eq!(
        (result.final_frame.width, result.final_frame.height),
        (128, 96)
    );
    let colours = result.distinct_colours();
    assert!(
        colours >= min_colours,
        "{colours} colours in the final frame: {summary}"
    );
    result
}

#[test]
fn atlas_stitching_renders_within_budget() {
    check(Suite::Atlas, 64);
}

#[test]
fn chunk_arena_streaming_renders_within_budget() {
    check(Suite::Arena, 64);
}

#[test]
fn texture_and_buffer_churn_renders_within_budget() {
    check(Suite::Churn, 64);
}

#[test]
fn resize_storm_renders_within_budget() {
    check(Suite::Resize, 16);
}

/// The storm in a real window: the window is resized every frame (to a new size each time), the
/// library rebuilds its swapchain as the window system reports each size, and the last frame is
/// drawn at the configured size after the surface has followed the window.
#[test]
fn resize_storm_in_an_x11_window_rebuilds_the_swapchain_within_budget() {
    let Some(server) = xvfb::start_or_skip() else {
        return;
    };
    // The child opens its window on this server.
    std::env::set_var("DISPLAY", &server.name);
    let mut config = StressConfig::new(Suite::Resize, PROFILE);
    config.frames = 12;
    config.window = true;
    let result = check_config(&config, &png_path("resize-window"), 16);
    let summary = result.line(None);
    // The chain catches up with the window at each acquire: at least one rebuild every other
    // frame (each frame's size differs from the last), besides the first swapchain.
    let created = result
        .swapchains_created
        .expect("ArenaGL reports its swapchains");
    assert!(
        created > u64::from(config.frames) / 2,
        "{created} swapchains for {} window sizes: {summary}",
        config.frames
    );
}
