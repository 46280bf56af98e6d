//! `arenagl bench`: benchmark scenes that stress different costs (draw calls and state changes,
//! uploads, the Minecraft-like memory scene, texture churn; see [`scenes`]) under ArenaGL and
//! its peers, each scene and implementation in a child process of its own, all in one
//! invocation; writes a markdown table with ratios and a PNG chart.
//!
//! Design decisions:
//! - Like with like: the same scene code, the same frames and warm-up, each
//!   implementation in its own process (`arenagl bench-run`, [`child`]) with a fresh
//!   `XDG_CACHE_HOME` (no shader cache warmed by another run); peak RSS is the child's.
//! - Implementations: `arenagl` (ArenaGL's `libarenagl.so`), `zink` (Mesa's Zink on the system's
//!   Vulkan device: lavapipe here), `llvmpipe` (the system libEGL forced to software), `system`
//!   (the system libEGL as it is: on the device machine, the NVIDIA driver's own GL). Only
//!   ArenaGL publishes the memory manager's figures (`vkAllocateMemory` calls, peak device
//!   bytes), read from its telemetry page by the child.
//! - A child that fails, crashes or runs past `--timeout-s` is a row that says so, with the last
//!   line of its stderr; the other runs go on.
//! - Ratios are implementation / ArenaGL for every column, so above 1 means more time, more
//!   memory, or (for the throughput column) more work per second than ArenaGL.
//! - `--runs N` repeats the whole matrix N times, implementations alternating within each round
//!   (so a slow period of the machine hits all of them); a row reports its median run (by p50)
//!   and the p50 of every run, so a reader sees the spread.
//! - `--mesa DIR` runs Zink and llvmpipe from a Mesa unpacked into DIR (Debian's packages
//!   extracted with `dpkg -x`), for machines whose own GL is not Mesa; `--zink-hardware` lets Zink
//!   take a hardware Vulkan device (by default it is forced to software, lavapipe, as
//!   llvmpipe's peer). Other glvnd EGL vendors already named in `__EGL_VENDOR_LIBRARY_FILENAMES`
//!   stay after Mesa's: a hardware Vulkan driver may need its own vendor's EGL library present.

mod chart;
pub mod child;
pub mod scenes;
mod table;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use scenes::SceneKind;
use table::{Measure, Row};

/// Options of `arenagl bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Measured frames per scene and implementation.
    #[arg(long, default_value_t = 300)]
    frames: u32,
    /// Warm-up frames before them (not measured).
    #[arg(long, default_value_t = 30)]
    warmup: u32,
    /// Scenes, comma-separated: draws, uploads, minecraft, churn.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "draws,uploads,minecraft,churn"
    )]
    scenes: Vec<SceneKind>,
    /// Implementations, comma-separated: arenagl, zink, llvmpipe, system (`--impls arenagl`
    /// runs ArenaGL alone).
    #[arg(long, value_delimiter = ',', default_value = "arenagl,zink,llvmpipe")]
    impls: Vec<Impl>,
    /// Where bench.md and bench.png go.
    #[arg(long, default_value = "docs/results")]
    out_dir: PathBuf,
    /// Surface width.
    #[arg(long, default_value_t = 854)]
    width: u32,
    /// Surface height.
    #[arg(long, default_value_t = 480)]
    height: u32,
    /// A run taking longer than this is stopped and reported as failed.
    #[arg(long, default_value_t = 600)]
    timeout_s: u64,
    /// Rounds of the whole matrix (implementations alternate within a round).
    #[arg(long, default_value_t = 1)]
    runs: u32,
    /// A folder holding an unpacked Mesa (`usr/lib/x86_64-linux-gnu`, its `dri/`, and
    /// `usr/share/glvnd/egl_vendor.d/50_mesa.json`) for the zink and llvmpipe runs.
    #[arg(long)]
    mesa: Option<PathBuf>,
    /// Let Zink use a hardware Vulkan device instead of forcing lavapipe.
    #[arg(long)]
    zink_hardware: bool,
}

/// An implementation under comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Impl {
    /// ArenaGL.
    ArenaGl,
    /// Zink on the system's Vulkan device.
    Zink,
    /// Mesa llvmpipe.
    Llvmpipe,
    /// The system's GL as it is.
    System,
}

impl Impl {
    const ALL: [Impl; 4] = [Impl::ArenaGl, Impl::Zink, Impl::Llvmpipe, Impl::System];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Impl::ArenaGl => "arenagl",
            Impl::Zink => "zink",
            Impl::Llvmpipe => "llvmpipe",
            Impl::System => "system",
        }
    }

    /// The name in the report.
    pub fn label(self) -> &'static str {
        match self {
            Impl::ArenaGl => "ArenaGL",
            Impl::Zink => "Zink",
            Impl::Llvmpipe => "llvmpipe",
            Impl::System => "system GL",
        }
    }

    /// The child's `--gl` and the environment that selects the implementation.
    fn selection(self) -> (&'static str, &'static [(&'static str, &'static str)]) {
        match self {
            Impl::ArenaGl => ("arenagl", &[]),
            // `--gl zink` sets MESA_LOADER_DRIVER_OVERRIDE and LIBGL_ALWAYS_SOFTWARE itself.
            Impl::Zink => ("zink", &[("EGL_PLATFORM", "surfaceless")]),
            Impl::Llvmpipe => (
                "system",
                &[
                    ("EGL_PLATFORM", "surfaceless"),
                    ("LIBGL_ALWAYS_SOFTWARE", "1"),
                ],
            ),
            Impl::System => ("system", &[]),
        }
    }
}

impl std::str::FromStr for Impl {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Impl::ALL
            .into_iter()
            .find(|i| i.name() == s)
            .ok_or_else(|| {
                format!("unknown implementation {s:?}: arenagl, zink, llvmpipe or system")
            })
    }
}

/// The environment that points a Mesa run at `--mesa`'s folder, and Zink at hardware.
fn mesa_environment(args: &BenchArgs) -> Result<Vec<(&'static str, std::ffi::OsString)>, String> {
    let mut env = Vec::new();
    if args.zink_hardware {
        env.push(("ARENAGL_ZINK_SOFTWARE", "0".into()));
    }
    let Some(root) = &args.mesa else {
        return Ok(env);
    };
    let lib = root.join("usr/lib/x86_64-linux-gnu");
    let vendor = root.join("usr/share/glvnd/egl_vendor.d/50_mesa.json");
    if !vendor.is_file() {
        return Err(format!("--mesa: no {}", vendor.display()));
    }
    let prepend = |name: &str, first: &Path| {
        let mut value = first.as_os_str().to_owned();
        if let Some(old) = std::env::var_os(name).filter(|v| !v.is_empty()) {
            value.push(":");
            value.push(old);
        }
        value
    };
    env.push(("LD_LIBRARY_PATH", prepend("LD_LIBRARY_PATH", &lib)));
    env.push(("LIBGL_DRIVERS_PATH", lib.join("dri").into_os_string()));
    env.push((
        "__EGL_VENDOR_LIBRARY_FILENAMES",
        prepend("__EGL_VENDOR_LIBRARY_FILENAMES", &vendor),
    ));
    Ok(env)
}

/// Runs one scene under one implementation in a child; a failure is the row's text.
fn run_child(
    exe: &Path,
    args: &BenchArgs,
    scene: SceneKind,
    implementation: Impl,
    work: &Path,
) -> Result<(Measure, String), String> {
    let cache = work.join(format!("cache-{}-{}", scene.name(), implementation.name()));
    let stdout_path = work.join(format!("{}-{}.out", scene.name(), implementation.name()));
    let stderr_path = work.join(format!("{}-{}.err", scene.name(), implementation.name()));
    std::fs::create_dir_all(&cache)
        .map_err(|e| format!("cannot create {}: {e}", cache.display()))?;
    let file = |p: &Path| std::fs::File::create(p).map_err(|e| format!("{}: {e}", p.display()));
    let (gl, env) = implementation.selection();
    let mut command = Command::new(exe);
    command
        .arg("bench-run")
        .args(["--scene", scene.name(), "--gl", gl, "--label"])
        .arg(implementation.label())
        .args(["--frames", &args.frames.to_string()])
        .args(["--warmup", &args.warmup.to_string()])
        .args(["--width", &args.width.to_string()])
        .args(["--height", &args.height.to_string()])
        .env("XDG_CACHE_HOME", &cache)
        .stdin(Stdio::null())
        .stdout(file(&stdout_path)?)
        .stderr(file(&stderr_path)?);
    for (key, value) in env {
        command.env(key, value);
    }
    if matches!(implementation, Impl::Zink | Impl::Llvmpipe) {
        for (key, value) in mesa_environment(args)? {
            command.env(key, value);
        }
    }
    let mut process = command
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
    let deadline = Instant::now() + Duration::from_secs(args.timeout_s);
    let status = loop {
        match process.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() > deadline => {
                // Our own child, by its handle.
                let _ = process.kill();
                let _ = process.wait();
                return Err(format!("timed out after {} s", args.timeout_s));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => return Err(format!("cannot wait for the child: {e}")),
        }
    };
    let stdout = std::fs::read_to_string(&stdout_path).unwrap_or_default();
    let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
    let last_stderr = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("no output")
        .to_owned();
    let renderer = stdout
        .lines()
        .find_map(|l| l.strip_prefix("GL_RENDERER: "))
        .unwrap_or("")
        .to_owned();
    match stdout
        .lines()
        .rev()
        .find(|l| l.starts_with(child::RESULT_PREFIX))
    {
        Some(line) if status.success() => Ok((Measure::parse(line)?, renderer)),
        _ => Err(format!("{status}: {last_stderr}")),
    }
}

/// Runs the benchmark.
pub fn run(args: &BenchArgs) -> Result<(), Box<dyn std::error::Error>> {
    if args.frames == 0 || args.runs == 0 || args.scenes.is_empty() || args.impls.is_empty() {
        return Err("need at least one frame, run, scene and implementation".into());
    }
    let exe = std::env::current_exe()?;
    let work = std::env::temp_dir().join(format!("arenagl-bench-{}", std::process::id()));
    std::fs::create_dir_all(&work)?;
    let mut runs = Vec::new();
    for round in 1..=args.runs {
        for &scene in &args.scenes {
            for &implementation in &args.impls {
                eprint!(
                    "bench: run {round}/{}: {} on {} … ",
                    args.runs,
                    scene.name(),
                    implementation.label()
                );
                let outcome = run_child(&exe, args, scene, implementation, &work);
                match &outcome {
                    Ok((m, _)) => eprintln!("p50 {:.2} ms, {:.1} frames/s", m.p50_ms, m.fps),
                    Err(why) => eprintln!("failed: {why}"),
                }
                runs.push(Row::single(scene, implementation, outcome));
            }
        }
    }
    let rows = table::median_rows(runs);
    // Our own scratch directory (caches and captured output).
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&args.out_dir)?;
    let md = args.out_dir.join("bench.md");
    let png = args.out_dir.join("bench.png");
    let command_line = std::env::args().skip(1).collect::<Vec<_>>().join(" ");
    std::fs::write(&md, table::markdown(&rows, args, &command_line))?;
    chart::render(&rows, &png)?;
    print!("{}", table::results_table(&rows));
    println!("wrote {} and {}", md.display(), png.display());
    Ok(())
}
