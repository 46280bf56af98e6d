//! `arenagl bench` end to end, fast: a few frames of every scene under ArenaGL and whichever peers
//! this machine has (llvmpipe: Mesa's glvnd EGL vendor; Zink: that and the lavapipe ICD), then the
//! files: `bench.md` with a results row per scene and implementation holding real, parsable
//! numbers (ArenaGL's with its `vkAllocateMemory` calls and peak device bytes) and a ratio row per
//! peer, and `bench.png` a real chart. A second run proves a failing implementation is reported
//! in its row while the others still run.

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_arenagl");
const SCENES: [&str; 4] = ["draws", "uploads", "minecraft", "churn"];

fn llvmpipe_present() -> bool {
    Path::new("/usr/share/glvnd/egl_vendor.d/50_mesa.json").exists()
}

fn zink_present() -> bool {
    llvmpipe_present()
        && std::fs::read_dir("/usr/share/vulkan/icd.d")
            .map(|d| {
                d.flatten()
                    .any(|e| e.file_name().to_string_lossy().starts_with("lvp"))
            })
            .unwrap_or(false)
}

fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arenagl-bench-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn bench(out: &Path, scenes: &str, impls: &[&str], env: &[(&str, &str)]) -> String {
    let mut command = Command::new(BIN);
    command
        .args([
            "bench", "--frames", "3", "--warmup", "1", "--width", "96", "--height", "64",
        ])
        .args(["--scenes", scenes, "--impls", &impls.join(",")])
        .arg("--out-dir")
        .arg(out)
        .env("ARENAGL_TELEMETRY", "1");
    for (k, v) in env {
        command.env(k, v);
    }
    let output = command.output().expect("run arenagl bench");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "arenagl bench failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains(&format!("wrote {}", out.join("bench.md").display())),
        "{stdout}"
    );
    std::fs::read_to_string(out.join("bench.md")).expect("bench.md written")
}

/// The cells of the table row that starts with `| scene | label |`.
fn row<'a>(md: &'a str, scene: &str, label: &str) -> Vec<&'a str> {
    let start = format!("| {scene} | {label} |");
    let line = md
        .lines()
        .find(|l| l.starts_with(&start))
        .unwrap_or_else(|| panic!("no row {start} in:\n{md}"));
    line.trim_matches('|').split('|').map(str::trim).collect()
}

fn number(cell: &str, what: &str) -> f64 {
    cell.split_whitespace()
        .next()
        .and_then(|v| v.parse::<f64>().ok())
        .unwrap_or_else(|| panic!("{what}: {cell:?} is not a number"))
}

#[test]
fn bench_writes_a_table_of_real_numbers_and_a_chart() {
    let mut impls = vec![("arenagl", "ArenaGL")];
    if zink_present() {
        impls.push(("zink", "Zink"));
    }
    if llvmpipe_present() {
        impls.push(("llvmpipe", "llvmpipe"));
    }
    let names: Vec<&str> = impls.iter().map(|i| i.0).collect();
    let out = out_dir("full");
    let md = bench(&out, &SCENES.join(","), &names, &[]);
    for scene in SCENES {
        for (_, label) in &impls {
            let cells = row(&md, scene, label);
            assert_eq!(cells.len(), 10, "{cells:?}");
            // One round: its p50 is the whole spread column.
            assert_eq!(cells[9], cells[2], "{cells:?}");
            let p50 = number(cells[2], "p50");
            let p99 = number(cells[3], "p99");
            let fps = number(cells[4], "frames/s");
            assert!(p50 > 0.0 && p99 >= p50, "{cells:?}");
            // Three frames: frames/s is 1000 / the mean frame time, between the p50 and the p99.
            assert!(fps > 0.0 && fps <= 1000.0 / p50 * 3.0, "{cells:?}");
            assert!(number(cells[5], "throughput") > 0.0, "{cells:?}");
            assert!(number(cells[6], "peak RSS") > 10.0, "{cells:?}");
            if *label == "ArenaGL" {
                assert!(number(cells[7], "vkAllocateMemory") >= 1.0, "{cells:?}");
                assert!(number(cells[8], "peak device MiB") > 0.0, "{cells:?}");
            } else {
                assert_eq!(
                    (cells[7], cells[8]),
                    ("–", "–"),
                    "only ArenaGL has telemetry"
                );
            }
            if *label != "ArenaGL" {
                let ratio = row(&md, scene, &format!("{label}/ArenaGL"));
                assert_eq!(ratio.len(), 7, "{ratio:?}");
                for (i, cell) in ratio.iter().enumerate().skip(2) {
                    assert!(number(cell, "ratio") > 0.0, "ratio column {i}: {ratio:?}");
                }
            }
        }
    }
    let file = std::fs::File::open(out.join("bench.png")).expect("bench.png written");
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut pixels).expect("PNG data");
    assert_eq!((info.width, info.height), (1400, 600));
    let bar = [31u8, 119, 180]; // ArenaGL's bar colour
    let bar_pixels = pixels
        .chunks_exact(info.color_type.samples())
        .filter(|p| p[..3] == bar)
        .count();
    assert!(
        bar_pixels > 500,
        "ArenaGL's bars are drawn ({bar_pixels} pixels)"
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_failing_implementation_is_reported_in_its_row_and_the_others_still_run() {
    let out = out_dir("failing");
    let mut impls = vec!["arenagl"];
    if llvmpipe_present() {
        impls.push("llvmpipe");
    }
    let md = bench(
        &out,
        "churn",
        &impls,
        &[("ARENAGL_LIB", "/nonexistent/libarenagl.so")],
    );
    let cells = row(&md, "churn", "ArenaGL");
    assert!(
        cells[2].starts_with("failed:") && cells[2].contains("ARENAGL_LIB"),
        "{cells:?}"
    );
    if llvmpipe_present() {
        let cells = row(&md, "churn", "llvmpipe");
        assert!(number(cells[2], "p50") > 0.0, "{cells:?}");
        let ratio = row(&md, "churn", "llvmpipe/ArenaGL");
        assert_eq!(ratio[2], "–", "no ratio to a failed run: {ratio:?}");
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn repeated_rounds_report_every_rounds_p50() {
    let out = out_dir("runs");
    let mut command = Command::new(BIN);
    command
        .args([
            "bench", "--frames", "3", "--warmup", "1", "--width", "96", "--height", "64",
        ])
        .args(["--scenes", "churn", "--impls", "arenagl", "--runs", "3"])
        .arg("--out-dir")
        .arg(&out);
    let output = command.output().expect("run arenagl bench");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let md = std::fs::read_to_string(out.join("bench.md")).expect("bench.md written");
    let cells = row(&md, "churn", "ArenaGL");
    let spread: Vec<f64> = cells[9]
        .split(" / ")
        .map(|v| number(v, "a round's p50"))
        .collect();
    assert_eq!(spread.len(), 3, "{cells:?}");
    assert!(
        spread[0] <= spread[1] && spread[1] <= spread[2],
        "{cells:?}"
    );
    assert_eq!(
        number(cells[2], "p50"),
        spread[1],
        "the row is the median round"
    );
    assert!(md.contains("3 round(s)"), "{md}");
}
