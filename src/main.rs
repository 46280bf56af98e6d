//! The `arenagl` command-line tool.
//!
//! - `demo`: a Minecraft-like GL scene rendered through a GL implementation chosen at run time
//!   (`--gl arenagl|system|zink|PATH`, reached only through its libEGL), with frame times, peak
//!   RSS and, under ArenaGL, the memory manager's statistics.
//! - `scene`: one deterministic GL test scene rendered to a PNG (compared across implementations
//!   by `tests/gl_scenes.rs`).
//! - `run -- COMMAND…`: runs any program with ArenaGL as its libEGL/libGL, telemetry on.
//! - `workload`: a Minecraft-like memory workload run through the memory manager directly on the
//!   real Vulkan device, printing the manager's statistics.
//! - `budget`: the budget a device profile derives, its split and why (`arenagl-residency`).
//! - `info`: the Vulkan device ArenaGL would use (clamped by `ARENAGL_VK_PROFILE`), its memory,
//!   budget, and the GL/ES versions and extensions its contexts report.
//! - `bench`: benchmark scenes under ArenaGL and its peers, each in a child process
//!   (`bench-run`), written to a markdown table with ratios and a PNG chart.
//! - `stress`: one GL-level stress suite (`arenagl-stress`) under a device profile's budget.
//! - `top`, `record`, `report`: attach to a running process's telemetry page, watch it live,
//!   record it, and render a recording to a PNG.

mod bench;
mod budget_cmd;
mod demo;
mod info_cmd;
use arenagl_glclient as glclient;
mod math;
mod record;
mod report;
mod run_cmd;
mod scenes;
mod stress_cmd;
mod top;
mod units;
mod workload;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "arenagl",
    version,
    about = "ArenaGL: desktop OpenGL on Vulkan, memory-manager-first"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Render the Minecraft-like GL demo through a GL implementation and print statistics.
    Demo(demo::DemoArgs),
    /// Render one GL test scene to a PNG.
    Scene(scenes::SceneArgs),
    /// Run any GL program with ArenaGL as its libEGL/libGL (telemetry on): `arenagl run -- CMD…`.
    Run(run_cmd::RunArgs),
    /// Run the Minecraft-like memory workload on the memory manager directly and print statistics.
    Workload(workload::WorkloadArgs),
    /// Print the GPU budget of a device profile, its split into categories and why.
    Budget(budget_cmd::BudgetArgs),
    /// The Vulkan device ArenaGL would use (after `ARENAGL_VK_PROFILE`), its memory and budget,
    /// and the GL/ES versions and extensions a context would report.
    Info(info_cmd::InfoArgs),
    /// Live dashboard of a running ArenaGL process's memory (from its telemetry page).
    Top(top::TopArgs),
    /// Record a running process's telemetry into a file (JSON lines).
    Record(record::RecordArgs),
    /// Render a recording to a PNG chart.
    Report(report::ReportArgs),
    /// Benchmark scenes under ArenaGL, Zink and llvmpipe, each in its own process; write a
    /// markdown table with ratios and a PNG chart.
    Bench(bench::BenchArgs),
    /// One benchmark scene under one implementation (what `bench` runs in each child).
    #[command(hide = true)]
    BenchRun(bench::child::BenchRunArgs),
    /// Run one GL-level stress suite under a device profile's (scaled) budget.
    Stress(stress_cmd::StressArgs),
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    if let Command::Run(args) = &cli.command {
        return match run_cmd::run(args) {
            Ok(code) => code,
            Err(e) => {
                eprintln!("arenagl run: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let result: Result<(), Box<dyn std::error::Error>> = match cli.command {
        Command::Demo(args) => demo::run(&args).map_err(Into::into),
        Command::Scene(args) => scenes::run(&args).map_err(Into::into),
        Command::Workload(args) => workload::run(&args).map_err(Into::into),
        Command::Budget(args) => budget_cmd::run(&args),
        Command::Info(args) => info_cmd::run(&args),
        Command::Top(args) => top::run(&args),
        Command::Record(args) => record::run(&args),
        Command::Report(args) => report::run(&args),
        Command::Stress(args) => stress_cmd::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::BenchRun(args) => bench::child::run(&args),
        Command::Run(_) => Ok(()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("arenagl: {e}");
            ExitCode::FAILURE
        }
    }
}
