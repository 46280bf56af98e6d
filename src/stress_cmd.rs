//! `arenagl stress SUITE --profile NAME [--scale S] [--frames N]`: one GL-level stress suite
//! (`arenagl-stress`) in this process under a device profile's budget scaled by S, printing the
//! result and a last line `STRESS_RESULT key=value …` for scripts and tests.
//!
//! The process exits non-zero only when the run could not happen (no library, no context, bad
//! options); GL errors, out-of-memory answers and validation errors are reported in the line, for
//! the caller to judge.

use std::path::PathBuf;

use arenagl_stress::{Implementation, StressConfig, Suite, DEFAULT_SCALE};

/// Options of `arenagl stress`.
#[derive(clap::Args, Debug)]
pub struct StressArgs {
    /// The suite: atlas, arena, churn or resize.
    suite: Suite,
    /// The device profile whose budget (× --scale) the library runs under (`arenagl budget
    /// --list`).
    #[arg(long)]
    profile: String,
    /// The scale factor S: budget = the profile's × S, workload sizes = full × S.
    #[arg(long, default_value_t = DEFAULT_SCALE)]
    scale: f64,
    /// The pressure factor P: the budget is divided by P, the workload is not (P ≥ 1).
    #[arg(long, default_value_t = 1.0)]
    pressure: f64,
    /// Frames to render.
    #[arg(long, default_value_t = 8)]
    frames: u32,
    /// Surface width.
    #[arg(long, default_value_t = 256)]
    width: u32,
    /// Surface height.
    #[arg(long, default_value_t = 256)]
    height: u32,
    /// The GL implementation (a reference run on another one has no budget).
    #[arg(long, default_value = "arenagl")]
    gl: Implementation,
    /// Draw to an X11 window on $DISPLAY instead of a pbuffer (the resize suite resizes it).
    #[arg(long)]
    window: bool,
    /// Where to write the final frame (PNG).
    #[arg(long, default_value = "target/arenagl-stress.png")]
    png: PathBuf,
}

fn mib(bytes: Option<u64>) -> String {
    bytes.map_or_else(
        || "unknown".to_owned(),
        |b| format!("{:.1} MiB", b as f64 / f64::from(1 << 20)),
    )
}

/// Runs the suite.
pub fn run(args: &StressArgs) -> Result<(), Box<dyn std::error::Error>> {
    let config = StressConfig {
        suite: args.suite,
        profile: args.profile.clone(),
        scale: args.scale,
        pressure: args.pressure,
        frames: args.frames,
        width: args.width,
        height: args.height,
        implementation: args.gl.clone(),
        window: args.window,
    };
    let sizes = config.sizes();
    println!(
        "stress {}: profile {} × {} / {} = {} budget; atlases {}², arena {:.1} MiB, churn {:.1} MiB a \
         frame; {} frames at {}×{} on a {}",
        config.suite,
        config.profile,
        config.scale,
        config.pressure,
        mib(Some(config.scaled_budget_bytes()?)),
        sizes.atlas_side,
        sizes.arena_bytes as f64 / f64::from(1 << 20),
        sizes.churn_bytes as f64 / f64::from(1 << 20),
        config.frames,
        config.width,
        config.height,
        if config.window { "window" } else { "pbuffer" }
    );
    let result = arenagl_stress::run(&config)?;
    println!("GL_RENDERER: {}", result.renderer);
    result.final_frame.write_png(&args.png)?;
    println!(
        "frames {}; GL errors {} (+ {} GL_OUT_OF_MEMORY); validation errors {}; peak {} of a {} \
         budget; vkAllocateMemory calls {}; final frame {} ({} colours)",
        result.frames,
        result.errors.other,
        result.errors.out_of_memory,
        result
            .validation_errors
            .map_or_else(|| "unknown".to_owned(), |v| v.to_string()),
        mib(result.peak_device_bytes),
        mib(result.budget_bytes),
        result
            .allocate_calls
            .map_or_else(|| "unknown".to_owned(), |v| v.to_string()),
        args.png.display(),
        result.distinct_colours()
    );
    if let Some(code) = result.errors.first_other {
        println!("first GL error: {}", arenagl_glclient::gl::error_name(code));
    }
    println!("{}", result.line(Some(&args.png)));
    Ok(())
}
