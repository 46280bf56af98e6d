//! The `arenagl` command-line tool.
//!
//! For now it has one job, `demo`: a Minecraft-like memory workload run through the memory
//! manager on the real Vulkan device, printing the manager's statistics. Later issues grow the
//! demo into the GL scene and add `run`, `top`, `record`, `report`, `budget` and `bench`.

mod demo;

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
    let result = match cli.command {
        Command::Demo(args) => demo::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("arenagl: {e}");
            ExitCode::FAILURE
        }
    }
}
