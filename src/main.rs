//! The `arenagl` command-line tool.
//!
//! - `demo`: a Minecraft-like memory workload run through the memory manager on the real Vulkan
//!   device, printing the manager's statistics.
//! - `budget`: the budget a device profile derives, its split and why (`arenagl-residency`).
//! - `top`, `record`, `report`: attach to a running process's telemetry page, watch it live,
//!   record it, and render a recording to a PNG.
//!
//! Later issues grow the demo into the GL scene and add `run` and `bench`.

mod budget_cmd;
mod demo;
mod record;
mod report;
mod top;
mod units;

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
    /// Run the built-in Minecraft-like memory workload on the real device and print statistics.
    Demo(demo::DemoArgs),
    /// Print the GPU budget of a device profile, its split into categories and why.
    Budget(budget_cmd::BudgetArgs),
    /// Live dashboard of a running ArenaGL process's memory (from its telemetry page).
    Top(top::TopArgs),
    /// Record a running process's telemetry into a file (JSON lines).
    Record(record::RecordArgs),
    /// Render a recording to a PNG chart.
    Report(report::ReportArgs),
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
    let result: Result<(), Box<dyn std::error::Error>> = match cli.command {
        Command::Demo(args) => demo::run(&args).map_err(Into::into),
        Command::Budget(args) => budget_cmd::run(&args),
        Command::Top(args) => top::run(&args),
        Command::Record(args) => record::run(&args),
        Command::Report(args) => report::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("arenagl: {e}");
            ExitCode::FAILURE
        }
    }
}
