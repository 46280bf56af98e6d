//! R2/R3 end to end: the demo pushed past a small budget (`--grow-mib`) rises through warn →
//! critical → over while `arenagl record` samples its telemetry page; the manager's proactive GC
//! runs at warn, an allocation is refused at over with an error (the demo counts it and keeps
//! running), and the recording renders to a PNG report.

use std::io::BufRead;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_arenagl");

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arenagl-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_workload_past_its_budget_warns_goes_critical_is_refused_and_is_reported() {
    let dir = temp_dir("pressure");
    let mut demo = Command::new(BIN)
        .args([
            "demo",
            "--frames",
            "150",
            "--grow-mib",
            "2",
            "--frame-interval-ms",
            "15",
            "--report-every",
            "0",
        ])
        .env("ARENAGL_TELEMETRY_DIR", &dir)
        .env("ARENAGL_BUDGET_MB", "240")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the demo");
    let pid = demo.id().to_string();
    let page = dir.join(format!("{pid}.page"));
    let start = Instant::now();
    while !page.exists() {
        if start.elapsed() > Duration::from_secs(60) {
            let _ = demo.kill();
            panic!("the demo never published {}", page.display());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let recording = dir.join("pressure.jsonl");
    let record = Command::new(BIN)
        .args([
            "record",
            "--pid",
            &pid,
            "--seconds",
            "60",
            "--interval-ms",
            "20",
            "-o",
        ])
        .arg(&recording)
        .arg("--dir")
        .arg(&dir)
        .output()
        .expect("record");
    assert!(
        record.status.success(),
        "record: {}",
        String::from_utf8_lossy(&record.stderr)
    );
    let out = demo.wait_with_output().expect("demo finished");
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
    assert!(first("proactive-gc").is_some(), "proactive GC at warn");
    let sampled = |name: &str| levels.iter().position(|l| l == name);
    assert!(
        sampled("normal") < sampled("warn") && sampled("warn") < sampled("critical"),
        "{levels:?}"
    );

    let png = dir.join("pressure.png");
    let report = Command::new(BIN)
        .arg("report")
        .arg(&recording)
        .arg("-o")
        .arg(&png)
        .output()
        .expect("report");
    assert!(
        report.status.success(),
        "report: {}",
        String::from_utf8_lossy(&report.stderr)
    );
    let bytes = std::fs::read(&png).expect("png");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let _ = std::fs::remove_dir_all(&dir);
}
