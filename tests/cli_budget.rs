//! `arenagl budget` and `arenagl budget replay`, run as a person runs them: the built binary, its
//! stdout and exit status.

use std::process::{Command, Output};

fn arenagl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arenagl"))
        .args(args)
        // The environment overrides apply to `budget`; keep the developer's out of the test.
        .env_remove("ARENAGL_BUDGET_MB")
        .env_remove("ARENAGL_PROFILE")
        .output()
        .expect("run arenagl")
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "arenagl failed: {}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).expect("utf-8")
}

#[test]
fn budget_list_shows_every_profile_with_its_crash_line() {
    let text = stdout(&arenagl(&["budget", "--list"]));
    for name in [
        "iphone-se-2",
        "iphone-se-3",
        "iphone-12",
        "iphone-13",
        "iphone-12-pro",
        "iphone-13-pro",
        "iphone-15-pro",
        "ipad-pro-m2",
        "android-4gb",
        "android-6gb",
        "android-8gb",
        "android-12gb",
        "linux-host",
    ] {
        assert!(
            text.lines()
                .any(|line| line.starts_with(&format!("{name} "))),
            "`{name}` missing from\n{text}"
        );
    }
    let iphone_12 = text
        .lines()
        .find(|line| line.starts_with("iphone-12 "))
        .expect("iphone-12 row");
    assert!(iphone_12.contains("2091 MiB"), "{iphone_12}");
}

#[test]
fn budget_profile_prints_a_split_that_sums_to_the_total() {
    let text = stdout(&arenagl(&["budget", "--profile", "iphone-12"]));
    // "total budget for iphone-12: 836.4 MiB (877028968 bytes)"
    let total: u64 = text
        .lines()
        .find_map(|line| line.strip_prefix("total budget for iphone-12: "))
        .and_then(|rest| rest.split('(').nth(1))
        .and_then(|bytes| bytes.split_whitespace().next())
        .and_then(|bytes| bytes.parse().ok())
        .unwrap_or_else(|| panic!("no total line in\n{text}"));
    let row = |name: &str| -> u64 {
        // Rows of the split table are indented; the headline "total budget for ..." is not.
        text.lines()
            .filter(|line| line.starts_with("  "))
            .find_map(|line| {
                let mut fields = line.split_whitespace();
                (fields.next() == Some(name)).then(|| fields.nth(1))?
            })
            .and_then(|bytes| bytes.parse().ok())
            .unwrap_or_else(|| panic!("no `{name}` row in\n{text}"))
    };
    let parts: u64 = [
        "textures",
        "buffers",
        "render-targets",
        "staging",
        "pipelines",
        "slack",
    ]
    .into_iter()
    .map(row)
    .sum();
    assert_eq!(parts, total, "the split does not sum to the total:\n{text}");
    assert_eq!(row("total"), total);
    assert!(
        text.contains("bound by: platform"),
        "no why-trail in\n{text}"
    );
}

#[test]
fn budget_of_an_unknown_profile_is_a_clear_error() {
    let output = arenagl(&["budget", "--profile", "nokia-3310"]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("unknown device profile `nokia-3310`") && stderr.contains("iphone-12"),
        "{stderr}"
    );
}

/// A synthetic recording in `arenagl record`'s format: GPU memory growing by 100 MiB a frame.
fn growing_recording(path: &std::path::Path) {
    let mut text = String::from(
        "{\"type\":\"header\",\"format\":\"arenagl-recording\",\"version\":1,\"pid\":4242,\"interval_ms\":100,\"started_unix_ns\":0,\"categories\":[\"textures\",\"buffers\",\"render-targets\",\"staging\",\"pipelines\"]}\n",
    );
    for frame in 1..=20u64 {
        let textures = frame * 100 * (1 << 20);
        text += &format!(
            "{{\"type\":\"sample\",\"t_ms\":{},\"frame\":{frame},\"timestamp_ns\":0,\"budget\":0,\"shares\":[0,0,0,0,0],\"live\":[{textures},0,0,0,0],\"peak\":[{textures},0,0,0,0],\"pressure\":\"normal\",\"device_memory_objects\":1,\"allocation_clamp\":4096,\"allocate_calls\":1,\"counters\":{{\"proactive_gcs\":0,\"blocking_gcs\":0,\"evictions\":0,\"demotions\":0,\"refusals\":0,\"oom_recoveries\":0}},\"epochs_in_flight\":0,\"pending_release_bytes\":0,\"device_lost\":false}}\n",
            frame * 100
        );
    }
    text += "{\"type\":\"end\",\"t_ms\":2000,\"reason\":\"duration\"}\n";
    std::fs::write(path, text).expect("write recording");
}

#[test]
fn replay_says_which_device_kills_the_process_and_when() {
    let path = std::env::temp_dir().join(format!("arenagl-replay-{}.jsonl", std::process::id()));
    growing_recording(&path);
    // iPhone SE 2: crash line 1792 MiB; with a 1000 MiB footprint the process dies once the GPU
    // holds more than 792 MiB, i.e. at frame 8 (800 MiB).
    let out = stdout(&arenagl(&[
        "budget",
        "replay",
        path.to_str().expect("utf-8"),
        "--profile",
        "iphone-se-2",
        "--footprint-mb",
        "1000",
    ]));
    assert!(out.contains("KILLED: at frame 8"), "{out}");
    assert!(
        out.contains("peak GPU memory: 2000.0 MiB at frame 20"),
        "{out}"
    );
    // iPad Pro M2: 5120 MiB crash line; 2000 + 1000 MiB stays below it.
    let out = stdout(&arenagl(&[
        "budget",
        "replay",
        path.to_str().expect("utf-8"),
        "--profile",
        "ipad-pro-m2",
        "--footprint-mb",
        "1000",
    ]));
    assert!(out.contains("survives"), "{out}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn replay_of_a_missing_or_corrupt_file_is_a_clear_error() {
    let missing = Command::new(env!("CARGO_BIN_EXE_arenagl"))
        .args([
            "budget",
            "replay",
            "/nonexistent/run.jsonl",
            "--profile",
            "iphone-12",
        ])
        .output()
        .expect("run");
    assert!(!missing.status.success());
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("cannot open"),
        "{}",
        String::from_utf8_lossy(&missing.stderr)
    );
    let path =
        std::env::temp_dir().join(format!("arenagl-replay-bad-{}.jsonl", std::process::id()));
    std::fs::write(&path, "not json\n").expect("write");
    let corrupt = Command::new(env!("CARGO_BIN_EXE_arenagl"))
        .args([
            "budget",
            "replay",
            path.to_str().expect("utf-8"),
            "--profile",
            "iphone-12",
        ])
        .output()
        .expect("run");
    assert!(!corrupt.status.success());
    assert!(
        String::from_utf8_lossy(&corrupt.stderr).contains("line 1"),
        "{}",
        String::from_utf8_lossy(&corrupt.stderr)
    );
    let _ = std::fs::remove_file(&path);
}
