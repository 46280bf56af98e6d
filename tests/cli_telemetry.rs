//! `arenagl top`, `record` and `report` against a live telemetry page: this test process
//! publishes with `TelemetryWriter` (as the memory manager will) and the built binary attaches
//! to it from another process, exactly as a person would.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use arenagl_residency::telemetry::{Counters, Event, EventKind, EventRing};
use arenagl_residency::{CategoryMap, Level, Snapshot, TelemetryWriter};

const MIB: u64 = 1 << 20;

/// A fresh telemetry directory for one test (each test publishes into its own, so they can run
/// in parallel in this one process). Removed when the test passes, kept for a look when it fails.
struct TestDir(PathBuf);

impl TestDir {
    fn new(name: &str) -> TestDir {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("cli-telemetry-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TestDir(dir)
    }

    fn arg(&self) -> &str {
        self.0.to_str().expect("utf-8 path")
    }
}

impl std::ops::Deref for TestDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TestDir {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn arenagl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arenagl"))
        .args(args)
        .env_remove("ARENAGL_TELEMETRY_DIR")
        .output()
        .expect("run arenagl")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn success(output: &Output) -> String {
    assert!(
        output.status.success(),
        "arenagl failed: {}\nstdout:\n{}\nstderr:\n{}",
        output.status,
        text(&output.stdout),
        text(&output.stderr)
    );
    text(&output.stdout)
}

/// A snapshot of a process under pressure at `frame`, with figures nobody would print by chance.
fn busy_snapshot(frame: u64, events: EventRing) -> Snapshot {
    let level = match frame % 40 {
        0..=9 => Level::Normal,
        10..=19 => Level::Warn,
        20..=29 => Level::Critical,
        _ => Level::Over,
    };
    let textures = (300 + (frame % 40) * 10) * MIB;
    Snapshot {
        frame,
        timestamp_ns: arenagl_residency::telemetry::unix_time_ns(),
        budget_bytes: 1000 * MIB,
        budget_shares: CategoryMap::from_array([
            500 * MIB,
            200 * MIB,
            120 * MIB,
            60 * MIB,
            20 * MIB,
        ]),
        live_bytes: CategoryMap::from_array([textures, 180 * MIB, 96 * MIB, 48 * MIB, 7 * MIB]),
        peak_bytes: CategoryMap::from_array([700 * MIB, 190 * MIB, 96 * MIB, 64 * MIB, 7 * MIB]),
        device_memory_objects: 321,
        allocation_clamp: 4096,
        allocate_calls: 555,
        pressure: level,
        counters: Counters {
            proactive_gcs: 11,
            blocking_gcs: 2,
            evictions: 13,
            demotions: 5,
            refusals: 1,
            oom_recoveries: 3,
        },
        epochs_in_flight: 2,
        pending_release_bytes: 12 * MIB,
        device_lost: false,
        events,
    }
}

#[test]
fn top_once_prints_the_numbers_a_live_process_publishes() {
    let dir = TestDir::new("top");
    let mut writer = TelemetryWriter::create(Some(&dir)).expect("publish");
    let mut events = EventRing::default();
    events.push(Event {
        kind: EventKind::Pressure(Level::Critical),
        frame: 424_240,
        bytes: 930 * MIB,
    });
    events.push(Event {
        kind: EventKind::Eviction,
        frame: 424_241,
        bytes: 64 * MIB,
    });
    writer.publish(&busy_snapshot(424_242, events)); // frame % 40 == 2: level Normal
    let pid = std::process::id().to_string();
    let dir_arg = dir.arg();

    let out = success(&arenagl(&[
        "top", "--pid", &pid, "--dir", dir_arg, "--once",
    ]));
    for expected in [
        &format!("pid {pid} (publishing), frame 424242, pressure normal"),
        "budget 1000.0 MiB, live 651.0 MiB (65.1 %)",
        "textures",
        "320.0 MiB",
        "321 objects of clamp 4096",
        "555 vkAllocateMemory calls",
        "evictions 13",
        "OOM recoveries 3",
        "pressure-critical",
        "eviction ",
        "freed 64.0 MiB",
    ] {
        assert!(out.contains(expected), "missing `{expected}` in\n{out}");
    }

    // Without --pid the only attachable process is chosen, and a pipe gets the text rendering.
    let out = success(&arenagl(&["top", "--dir", dir_arg]));
    assert!(out.contains("frame 424242"), "{out}");
    drop(writer);
}

#[test]
fn top_explains_a_missing_process_and_an_empty_directory() {
    let dir = TestDir::new("top-missing");
    std::fs::create_dir_all(&*dir).expect("dir");
    let dir_arg = dir.arg();
    let output = arenagl(&["top", "--pid", "4000000000", "--dir", dir_arg, "--once"]);
    assert!(!output.status.success());
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("process 4000000000 publishes no telemetry"),
        "{stderr}"
    );

    let output = arenagl(&["top", "--dir", dir_arg]);
    assert!(!output.status.success());
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("no ArenaGL process is publishing"),
        "{stderr}"
    );
}

/// Reads the width and height from a PNG's IHDR chunk, after checking the signature.
fn png_dimensions(bytes: &[u8]) -> (u32, u32) {
    assert!(
        bytes.len() > 33,
        "too short for a PNG: {} bytes",
        bytes.len()
    );
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG signature");
    assert_eq!(&bytes[12..16], b"IHDR", "the first chunk is not IHDR");
    let be =
        |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    (be(16), be(20))
}

#[test]
fn record_then_report_renders_a_png() {
    let dir = TestDir::new("record");
    let recording = dir.join("run.jsonl");
    let png = dir.join("report.png");
    let writer = TelemetryWriter::create(Some(&dir)).expect("publish");

    // A workload thread: one frame per 2 ms, climbing through every pressure level, an event
    // every 10 frames; it stops (and drops its writer) after 1000 frames (2 s or more).
    let stop = Arc::new(AtomicBool::new(false));
    let workload = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            let mut writer = writer;
            let mut events = EventRing::default();
            for frame in 0..1000u64 {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                if frame % 10 == 0 {
                    let kind = match frame % 40 {
                        10 => EventKind::Pressure(Level::Warn),
                        20 => EventKind::Pressure(Level::Critical),
                        30 => EventKind::Refusal,
                        _ => EventKind::ProactiveGc,
                    };
                    events.push(Event {
                        kind,
                        frame,
                        bytes: 16 * MIB,
                    });
                }
                writer.publish(&busy_snapshot(frame, events));
                std::thread::sleep(Duration::from_millis(2));
            }
        })
    };

    let pid = std::process::id().to_string();
    let out = arenagl(&[
        "record",
        "--pid",
        &pid,
        "--dir",
        dir.arg(),
        "-o",
        recording.to_str().expect("utf-8 path"),
        "--interval-ms",
        "20",
    ]);
    stop.store(true, Ordering::Relaxed);
    workload.join().expect("workload");
    success(&out);
    // No --seconds: recording ended because the writer went away.
    assert!(
        text(&out.stderr).contains("publisher gone"),
        "{}",
        text(&out.stderr)
    );

    let lines = std::fs::read_to_string(&recording).expect("recording");
    assert!(lines.starts_with("{\"type\":\"header\""), "{lines}");
    let samples = lines
        .lines()
        .filter(|l| l.contains("\"type\":\"sample\""))
        .count();
    let events = lines
        .lines()
        .filter(|l| l.contains("\"type\":\"event\""))
        .count();
    assert!(samples >= 20, "only {samples} samples");
    assert!(events >= 10, "only {events} events");
    assert!(lines.contains("\"kind\":\"pressure-critical\""));
    assert!(lines.trim_end().ends_with("\"reason\":\"publisher gone\"}"));

    let out = arenagl(&[
        "report",
        recording.to_str().expect("utf-8 path"),
        "-o",
        png.to_str().expect("utf-8 path"),
        "--width",
        "900",
        "--height",
        "500",
    ]);
    success(&out);
    let bytes = std::fs::read(&png).expect("png");
    assert_eq!(png_dimensions(&bytes), (900, 500));
    assert!(
        bytes.len() > 10_000,
        "suspiciously small PNG: {} bytes",
        bytes.len()
    );
}

#[test]
fn report_names_the_line_of_a_corrupt_recording() {
    let dir = TestDir::new("corrupt");
    std::fs::create_dir_all(&*dir).expect("dir");
    let bad = dir.join("bad.jsonl");
    std::fs::write(
        &bad,
        "{\"type\":\"header\",\"format\":\"arenagl-recording\",\"version\":1,\"pid\":1,\
         \"interval_ms\":100,\"started_unix_ns\":0,\"categories\":[\"textures\",\"buffers\",\
         \"render-targets\",\"staging\",\"pipelines\"]}\nnot json\n",
    )
    .expect("write");
    let output = arenagl(&[
        "report",
        bad.to_str().expect("utf-8 path"),
        "-o",
        "/dev/null",
    ]);
    assert!(!output.status.success());
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("bad.jsonl:2: not a recording line"),
        "{stderr}"
    );
}
