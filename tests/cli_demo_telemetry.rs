//! Pressure and telemetry end to end, through the built binary: `arenagl workload` (the memory workload on the real
//! device) publishes its telemetry page while it runs.
//! - `arenagl top --once` attaches to the live process and shows its categories against the
//!   budget; `arenagl record` samples it and `arenagl report` renders the recording to a PNG.
//! - Pushed past a small budget (`--grow-mib`), the workload rises through warn → critical → over
//!   while being recorded: the manager's proactive GC runs at warn, an allocation is refused at
//!   over with an error (the workload counts it and keeps running), and the recording renders.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_arenagl");

/// The demo, killed if the test ends early.
struct Demo(Option<Child>);

impl Demo {
    fn pid(&self) -> String {
        self.0.as_ref().map_or(0, Child::id).to_string()
    }

    /// Waits for the demo to finish on its own and returns its output.
    fn finish(mut self) -> std::process::Output {
        self.0
            .take()
            .expect("running")
            .wait_with_output()
            .expect("demo finished")
    }
}

impl Drop for Demo {
    fn drop(&mut self) {
        if let Some(mut child) = self.0.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arenagl-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Starts `arenagl workload ARGS` publishing into `dir` under a budget of `budget_mb`, and waits for
/// its page to appear.
fn start_demo(dir: &Path, budget_mb: &str, args: &[&str]) -> (Demo, String) {
    let child = Command::new(BIN)
        .arg("workload")
        .args(args)
        .args(["--report-every", "0"])
        .env("ARENAGL_TELEMETRY_DIR", dir)
        .env("ARENAGL_BUDGET_MB", budget_mb)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the demo");
    let demo = Demo(Some(child));
    let pid = demo.pid();
    let page = dir.join(format!("{pid}.page"));
    let start = Instant::now();
    while !page.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the demo never published {}",
            page.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    (demo, pid)
}

/// `arenagl record` of `pid` into `dir/name.jsonl` (until `seconds` pass or the demo exits).
fn record(dir: &Path, pid: &str, name: &str, seconds: &str) -> PathBuf {
    let recording = dir.join(format!("{name}.jsonl"));
    let out = Command::new(BIN)
        .args([
            "record",
            "--pid",
            pid,
            "--seconds",
            seconds,
            "--interval-ms",
            "20",
            "-o",
        ])
        .arg(&recording)
        .arg("--dir")
        .arg(dir)
        .output()
        .expect("record");
    assert!(
        out.status.success(),
        "record: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    recording
}

/// `arenagl report` of `recording`; asserts a PNG came out.
fn report_png(recording: &Path) {
    let png = recording.with_extension("png");
    let out = Command::new(BIN)
        .arg("report")
        .arg(recording)
        .arg("-o")
        .arg(&png)
        .output()
        .expect("report");
    assert!(
        out.status.success(),
        "report: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&png).expect("png written");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn top_record_and_report_follow_a_live_demo() {
    let dir = temp_dir("demo-telemetry");
    let (demo, pid) = start_demo(
        &dir,
        "400",
        &["--frames", "3000", "--frame-interval-ms", "5"],
    );
    std::thread::sleep(Duration::from_millis(300));
    let top = Command::new(BIN)
        .args(["top", "--once", "--pid", &pid])
        .arg("--dir")
        .arg(&dir)
        .output()
        .expect("top");
    let text = String::from_utf8_lossy(&top.stdout);
    assert!(
        top.status.success(),
        "top failed: {}",
        String::from_utf8_lossy(&top.stderr)
    );
    assert!(text.contains(&pid), "{text}");
    assert!(
        text.contains("textures") && text.contains("buffers"),
        "{text}"
    );
    assert!(text.contains("400"), "the 400 MiB budget is shown: {text}");
    report_png(&record(&dir, &pid, "run", "1"));
    drop(demo);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_workload_past_its_budget_warns_goes_critical_is_refused_and_is_reported() {
    let dir = temp_dir("pressure");
    let (demo, pid) = start_demo(
        &dir,
        "240",
        &[
            "--frames",
            "150",
            "--grow-mib",
            "2",
            "--frame-interval-ms",
            "15",
        ],
    );
    let recording = record(&dir, &pid, "pressure", "60");
    let out = demo.finish();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the demo must survive its refusals: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let refused: u64 = stdout
        .lines()
        .find_map(|l| l.split("; ").nth(1)?.split(' ').next()?.parse().ok())
        .expect("the demo reports its refusals");
    assert!(refused >= 1, "{stdout}");

    let mut kinds = Vec::new();
    let mut levels = Vec::new();
    for line in std::io::BufReader::new(std::fs::File::open(&recording).expect("recording")).lines()
    {
        let line = line.expect("line");
        if let Some(kind) = line
            .split("\"kind\":\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
        {
            kinds.push(kind.to_owned());
        }
        if let Some(level) = line
            .split("\"pressure\":\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
        {
            levels.push(level.to_owned());
        }
    }
    for wanted in [
        "pressure-warn",
        "proactive-gc",
        "pressure-critical",
        "pressure-over",
        "refusal",
    ] {
        assert!(
            kinds.iter().any(|k| k == wanted),
            "no {wanted} event in the recording: {kinds:?}"
        );
    }
    // Over is entered by the refused request itself (demand crossed the budget) and left as soon
    // as the application frees memory, so it shows in the events rather than in the samples.
    let first = |name: &str| kinds.iter().position(|k| k == name);
    assert!(
        first("pressure-warn") < first("pressure-critical")
            && first("pressure-critical") < first("pressure-over"),
        "levels rise in order: {kinds:?}"
    );
    assert!(
        first("pressure-over") < first("refusal"),
        "over comes with the refusal: {kinds:?}"
    );
    let sampled = |name: &str| levels.iter().position(|l| l == name);
    assert!(
        sampled("normal") < sampled("warn") && sampled("warn") < sampled("critical"),
        "{levels:?}"
    );
    report_png(&recording);
    let _ = std::fs::remove_dir_all(&dir);
}
