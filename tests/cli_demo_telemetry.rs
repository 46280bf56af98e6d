//! R3 end to end: `arenagl demo` (the memory workload on the real device) publishes its telemetry
//! page; `arenagl top --once` attaches to the live process and shows its categories against the
//! budget; `arenagl record` samples it and `arenagl report` renders the recording to a PNG.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_arenagl");

struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arenagl-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn top_record_and_report_follow_a_live_demo() {
    let dir = temp_dir("demo-telemetry");
    let demo = Command::new(BIN)
        .args([
            "demo",
            "--frames",
            "3000",
            "--frame-interval-ms",
            "5",
            "--report-every",
            "0",
        ])
        .env("ARENAGL_TELEMETRY_DIR", &dir)
        .env("ARENAGL_BUDGET_MB", "400")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the demo");
    let demo = KillOnDrop(demo);
    let pid = demo.0.id().to_string();
    let page = dir.join(format!("{pid}.page"));
    let start = Instant::now();
    while !page.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the demo never published {}",
            page.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
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

    let recording = dir.join("run.jsonl");
    let record = Command::new(BIN)
        .args([
            "record",
            "--pid",
            &pid,
            "--seconds",
            "1",
            "--interval-ms",
            "50",
            "-o",
        ])
        .arg(&recording)
        .arg("--dir")
        .arg(&dir)
        .output()
        .expect("record");
    assert!(
        record.status.success(),
        "record failed: {}",
        String::from_utf8_lossy(&record.stderr)
    );
    let png = dir.join("report.png");
    let report = Command::new(BIN)
        .arg("report")
        .arg(&recording)
        .arg("-o")
        .arg(&png)
        .output()
        .expect("report");
    assert!(
        report.status.success(),
        "report failed: {}",
        String::from_utf8_lossy(&report.stderr)
    );
    let bytes = std::fs::read(&png).expect("png written");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    drop(demo);
    let _ = std::fs::remove_dir_all(&dir);
}
