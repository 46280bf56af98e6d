//! `arenagl budget`: the GPU budget a device profile gets, its split into categories, and why.
//!
//! Design decisions:
//! - Everything is derived by `arenagl-residency` exactly as a running process derives it; this
//!   file only chooses inputs and prints. `--heap-mb` stands in for the Vulkan device (unified
//!   memory or not as the profile says), since the command runs without one.
//! - The environment applies as it would to a process: `ARENAGL_BUDGET_MB` overrides the total
//!   (and the trail says so); `ARENAGL_PROFILE` picks the profile only when `--profile` does not.
//!   With neither, the profile is this Linux host.
//! - The split is printed in exact bytes as well as MiB, so the rows visibly sum to the total.

use std::fmt::Write as _;

use arenagl_residency::{Budget, BudgetInputs, EnvOverrides, Profile, VulkanMemory};

use crate::units::{mib, percent, MIB};

/// Options of `arenagl budget`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BudgetArgs {
    #[command(subcommand)]
    action: Option<BudgetAction>,
    /// The device profile (see `--list`); default `$ARENAGL_PROFILE`, else this Linux host.
    /// `+entitled` selects the iOS increased-memory-limit figure (`iphone-13-pro+entitled`).
    #[arg(long, conflicts_with = "list")]
    profile: Option<String>,
    /// List every profile with its crash line and default budget.
    #[arg(long)]
    list: bool,
    /// The process's own non-GPU footprint (JVM, launcher) in MiB; default: the platform's.
    #[arg(long, conflicts_with = "list")]
    footprint_mb: Option<u64>,
    /// Size of the device-local Vulkan heap in MiB; default: no device.
    #[arg(long, conflicts_with = "list")]
    heap_mb: Option<u64>,
}

/// Subcommands of `arenagl budget`.
#[derive(clap::Subcommand, Debug)]
enum BudgetAction {
    /// Replay a recording (`arenagl record`) against a device profile: would that device have
    /// killed the process, and at which frame?
    Replay(ReplayArgs),
}

/// Options of `arenagl budget replay`.
#[derive(clap::Args, Debug)]
struct ReplayArgs {
    /// The recording (JSON lines from `arenagl record`).
    file: std::path::PathBuf,
    /// The device profile to replay against (see `arenagl budget --list`).
    #[arg(long)]
    profile: String,
    /// The process's non-GPU footprint in MiB (JVM, launcher); default: the platform's.
    #[arg(long)]
    footprint_mb: Option<u64>,
}

/// What a replay found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayVerdict {
    /// The first frame whose GPU memory plus footprint crossed the crash line, with that total.
    pub killed_at: Option<(u64, u64)>,
    /// The first frame whose GPU memory crossed the profile's ArenaGL budget.
    pub over_budget_at: Option<u64>,
    /// The most GPU memory of any sample, and its frame.
    pub peak: (u64, u64),
}

/// Replays `samples` (frame, GPU bytes) against a crash line, a footprint and a budget.
pub fn replay(
    samples: impl IntoIterator<Item = (u64, u64)>,
    crash_line: u64,
    footprint: u64,
    budget: u64,
) -> ReplayVerdict {
    let mut verdict = ReplayVerdict {
        killed_at: None,
        over_budget_at: None,
        peak: (0, 0),
    };
    for (frame, gpu) in samples {
        if gpu > verdict.peak.1 {
            verdict.peak = (frame, gpu);
        }
        let process = gpu.saturating_add(footprint);
        if verdict.killed_at.is_none() && process > crash_line {
            verdict.killed_at = Some((frame, process));
        }
        if verdict.over_budget_at.is_none() && gpu > budget {
            verdict.over_budget_at = Some(frame);
        }
    }
    verdict
}

fn run_replay(args: &ReplayArgs) -> Result<(), Box<dyn std::error::Error>> {
    let recording = crate::record::Recording::load(&args.file)?;
    if recording.samples.is_empty() {
        return Err(format!("{} holds no samples", args.file.display()).into());
    }
    let profile = Profile::by_name(&args.profile)?;
    let mut inputs = BudgetInputs::new(profile.clone());
    if let Some(footprint) = args.footprint_mb {
        inputs = inputs.with_footprint(footprint.saturating_mul(MIB));
    }
    let footprint = inputs
        .non_gpu_footprint_bytes
        .unwrap_or_else(|| profile.default_footprint_bytes());
    let budget = Budget::derive(&inputs);
    let verdict = replay(
        recording.samples.iter().map(|s| (s.frame, s.total_live())),
        profile.crash_limit_bytes,
        footprint,
        budget.total_bytes,
    );
    let frames = (
        recording.samples.first().map_or(0, |s| s.frame),
        recording.samples.last().map_or(0, |s| s.frame),
    );
    println!(
        "replaying {} samples (frames {}-{}) of process {} against {} (crash line {}, non-GPU footprint {})",
        recording.samples.len(),
        frames.0,
        frames.1,
        recording.header.pid,
        profile.name,
        mib(profile.crash_limit_bytes),
        mib(footprint)
    );
    println!(
        "peak GPU memory: {} at frame {}",
        mib(verdict.peak.1),
        verdict.peak.0
    );
    match verdict.killed_at {
        Some((frame, total)) => println!(
            "KILLED: at frame {frame} the process would hold {} > the {} crash line of {}",
            mib(total),
            mib(profile.crash_limit_bytes),
            profile.name
        ),
        None => println!(
            "survives: the process peaks at {}, {} below the crash line",
            mib(verdict.peak.1.saturating_add(footprint)),
            mib(profile
                .crash_limit_bytes
                .saturating_sub(verdict.peak.1.saturating_add(footprint)))
        ),
    }
    match verdict.over_budget_at {
        Some(frame) => println!(
            "under ArenaGL on this device the budget ({}) is reached at frame {frame}: from there allocations are refused with GL_OUT_OF_MEMORY instead",
            mib(budget.total_bytes)
        ),
        None => println!("the run stays within ArenaGL's budget for this device ({})", mib(budget.total_bytes)),
    }
    Ok(())
}

/// Runs `arenagl budget`.
pub fn run(args: &BudgetArgs) -> Result<(), Box<dyn std::error::Error>> {
    if let Some(BudgetAction::Replay(replay_args)) = &args.action {
        return run_replay(replay_args);
    }
    if args.list {
        print!("{}", list_profiles());
        return Ok(());
    }
    let overrides = EnvOverrides::from_env()?;
    let profile = match (&args.profile, &overrides.profile) {
        (Some(name), _) => Profile::by_name(name)?,
        (None, Some(profile)) => profile.clone(),
        (None, None) => Profile::linux_host(),
    };
    let mut inputs = BudgetInputs::new(profile);
    if let Some(footprint) = args.footprint_mb {
        inputs = inputs.with_footprint(footprint.saturating_mul(MIB));
    }
    if let Some(heap) = args.heap_mb {
        let unified = inputs.profile.unified_memory;
        inputs = inputs.with_vulkan(VulkanMemory {
            device_local_heap_bytes: heap.saturating_mul(MIB),
            unified,
            heap_budget_bytes: None,
        });
    }
    inputs.budget_override_bytes = overrides.budget_bytes;
    print!("{}", describe(&inputs.profile, &Budget::derive(&inputs)));
    Ok(())
}

/// The split table and the derivation trail.
fn describe(profile: &Profile, budget: &Budget) -> String {
    let mut out = String::new();
    let total = budget.total_bytes;
    // Writing into a String cannot fail.
    let _ = writeln!(
        out,
        "total budget for {}: {} ({total} bytes)",
        profile.name,
        mib(total)
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "  {:<16} {:>7} {:>14} {:>12}",
        "category", "share", "bytes", "MiB"
    );
    let rows = budget
        .shares
        .iter()
        .map(|(category, &bytes)| (category.name(), bytes))
        .chain(std::iter::once(("slack", budget.slack_bytes)))
        .chain(std::iter::once(("total", total)));
    for (name, bytes) in rows {
        let _ = writeln!(
            out,
            "  {name:<16} {:>6.1}% {bytes:>14} {:>12.1}",
            percent(bytes, total),
            bytes as f64 / MIB as f64
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "why:");
    for line in budget.derivation.to_string().lines() {
        let _ = writeln!(out, "  {line}");
    }
    out
}

/// Every named profile, then this host.
fn list_profiles() -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<24} {:<8} {:>10} {:>12} {:>12} {:<10} {:>12}  description",
        "profile", "platform", "RAM", "crash line", "entitled", "source", "budget*"
    );
    for profile in Profile::all().chain(std::iter::once(Profile::linux_host())) {
        let budget = Budget::derive(&BudgetInputs::new(profile.clone()));
        let entitled = profile
            .increased_limit_bytes
            .map_or_else(|| "-".to_owned(), |bytes| format!("{} MiB", bytes / MIB));
        let _ = writeln!(
            out,
            "{:<24} {:<8} {:>10} {:>12} {:>12} {:<10} {:>12}  {}",
            profile.name,
            profile.platform.name(),
            format!("{} MiB", profile.ram_bytes / MIB),
            format!("{} MiB", profile.crash_limit_bytes / MIB),
            entitled,
            profile.provenance.name(),
            mib(budget.total_bytes),
            profile.description
        );
    }
    let _ = writeln!(
        out,
        "\n* with the platform's default non-GPU footprint and no Vulkan device; \
         `arenagl budget --profile NAME` shows the split and why."
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_sum_to_the_total() {
        let profile = Profile::by_name("iphone-12").expect("profile");
        let budget = Budget::derive(&BudgetInputs::new(profile.clone()));
        let text = describe(&profile, &budget);
        let bytes: Vec<u64> = text
            .lines()
            .filter(|line| line.starts_with("  ") && line.contains('%'))
            .filter_map(|line| line.split_whitespace().nth(2)?.parse().ok())
            .collect();
        assert_eq!(bytes.len(), 7, "{text}");
        let (total, parts) = bytes.split_last().expect("rows");
        assert_eq!(parts.iter().sum::<u64>(), *total);
        assert_eq!(*total, budget.total_bytes);
    }
}
