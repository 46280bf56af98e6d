//! The measuring side of `arenagl bench`: one scene under one implementation, in this process
//! (the hidden `arenagl bench-run` subcommand the parent starts once per scene and
//! implementation), ending with one `BENCH_RESULT key=value …` line.
//!
//! A frame's time is the scene's GL calls plus `glFinish` (so it is the GPU's time too, not only
//! the submission's), then `eglSwapBuffers` outside the timing, as `arenagl demo` measures.
//! Warm-up frames run first and are not counted. GL errors fail the run: an implementation that
//! refuses part of the work has not done the same work as the others.

use std::time::Instant;

use arenagl_glclient::{Implementation, Session};

use super::scenes::SceneKind;

/// Options of `arenagl bench-run`.
#[derive(clap::Args, Debug)]
pub struct BenchRunArgs {
    /// The scene.
    #[arg(long)]
    scene: SceneKind,
    /// The GL implementation.
    #[arg(long)]
    gl: Implementation,
    /// The label this implementation has in the report.
    #[arg(long)]
    label: String,
    /// Measured frames.
    #[arg(long)]
    frames: u32,
    /// Warm-up frames (not measured).
    #[arg(long)]
    warmup: u32,
    /// Surface width.
    #[arg(long)]
    width: u32,
    /// Surface height.
    #[arg(long)]
    height: u32,
}

/// The first word of the result line.
pub const RESULT_PREFIX: &str = "BENCH_RESULT";

/// The nearest-rank `q` quantile of sorted values.
pub fn percentile(sorted: &[f64], q: f64) -> f64 {
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len().max(1));
    sorted.get(rank - 1).copied().unwrap_or(0.0)
}

/// Runs one scene under one implementation and prints its result line.
pub fn run(args: &BenchRunArgs) -> Result<(), Box<dyn std::error::Error>> {
    if args.frames == 0 {
        return Err("--frames must be at least 1".into());
    }
    let session = Session::new(&args.gl, args.width, args.height)?;
    let gl = session.gl();
    println!("GL_RENDERER: {}", session.renderer());
    let mut scene = args.scene.build(gl)?;
    gl.finish();
    gl.check_error("bench: setup")?;
    for frame in 0..args.warmup {
        scene.frame(gl, frame, args.width, args.height)?;
        gl.finish();
        session.swap_buffers()?;
    }
    gl.check_error("bench: warm-up")?;
    let mut times_ms = Vec::with_capacity(args.frames as usize);
    let mut work = 0.0;
    for i in 0..args.frames {
        let start = Instant::now();
        work += scene.frame(gl, args.warmup + i, args.width, args.height)?;
        gl.finish();
        times_ms.push(start.elapsed().as_secs_f64() * 1000.0);
        session.swap_buffers()?;
    }
    gl.check_error("bench: measured frames")?;
    scene.release(gl);
    gl.check_error("bench: release")?;
    session.swap_buffers()?;
    let total_s = times_ms.iter().sum::<f64>() / 1000.0;
    times_ms.sort_by(f64::total_cmp);
    let figures = arenagl_stress::telemetry::own_figures();
    let opt = |v: Option<u64>| v.map_or_else(|| "-".to_owned(), |v| v.to_string());
    println!(
        "{RESULT_PREFIX} scene={} impl={} frames={} warmup={} p50_ms={:.3} p99_ms={:.3} \
         mean_ms={:.3} fps={:.2} units_per_s={:.2} peak_rss_kib={} allocate_calls={} \
         peak_device_bytes={}",
        args.scene.name(),
        args.label,
        args.frames,
        args.warmup,
        percentile(&times_ms, 0.50),
        percentile(&times_ms, 0.99),
        total_s * 1000.0 / f64::from(args.frames),
        f64::from(args.frames) / total_s.max(1e-9),
        work / total_s.max(1e-9),
        opt(crate::demo::peak_rss_kib()),
        opt(figures.allocate_calls),
        opt(figures.peak_device_bytes),
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_rank() {
        let v: Vec<f64> = (1..=200).map(f64::from).collect();
        assert_eq!(percentile(&v, 0.5), 100.0);
        assert_eq!(percentile(&v, 0.99), 198.0);
        assert_eq!(percentile(&[], 0.5), 0.0);
    }
}
