//! `arenagl demo --window`, through the built binary, under a real X server (`Xvfb`, started
//! here): the demo opens a window, presents a few frames with `eglSwapBuffers` and prints a
//! parsable `DEMO_RESULT` line — under ArenaGL's `libarenagl.so` (loaded by path, validation
//! layer on, no validation message allowed) and under Mesa llvmpipe on X11 (`--gl system`).
//! Breaking the X connection in the middle of an endless run (`--frames 0`) must still end the run
//! cleanly with its statistics. Skipped, with the reason printed, only when `Xvfb` or libX11 is
//! missing (CI installs `xvfb`).
//!
//! The window's pixels themselves are checked by `tests/x11_window.rs`; the scene's by
//! `tests/gl_scenes.rs`.

#[path = "common/xvfb.rs"]
mod xvfb;

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_arenagl");
/// Small, so the frames are quick on a CPU device.
const SIZE: [&str; 4] = ["--width", "160", "--height", "96"];

/// The cdylib cargo built for this test run: `deps/` beside the test binary first, then its parent
/// (as in tests/gl_scenes.rs).
fn arenagl_library() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let deps = exe.parent().expect("test binary sits in a directory");
    let found = [Some(deps), deps.parent()]
        .into_iter()
        .flatten()
        .map(|dir| dir.join("libarenagl.so"))
        .find(|p| p.exists());
    found.unwrap_or_else(|| panic!("no libarenagl.so beside {}", exe.display()))
}

/// A fresh scratch directory, also `XDG_CACHE_HOME`, so runs share no shader caches.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("arenagl-demo-window-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the scratch directory");
    dir
}

/// `arenagl demo --window --gl GL ARGS` on `display`, validation on, PNG into `dir`.
fn demo(gl: &str, display: &str, dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(BIN);
    command
        .args(["demo", "--window", "--gl", gl])
        .args(SIZE)
        .args(args)
        .arg("--out")
        .arg(dir.join("demo.png"))
        .env("DISPLAY", display)
        .env("ARENAGL_VALIDATION", "1")
        .env("ARENAGL_TELEMETRY", "0")
        .env("XDG_CACHE_HOME", dir);
    command
}

/// The fields of the `DEMO_RESULT` line of a successful run, after checking stderr is free of
/// validation messages.
fn result_fields(what: &str, out: &Output) -> Vec<(String, String)> {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{what} failed ({})\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    assert!(
        !stderr.contains("arenagl::validation"),
        "{what}: validation-layer messages:\n{stderr}"
    );
    assert!(
        stdout.contains("X11 window") && stdout.contains("eglSwapBuffers"),
        "{what}: the summary does not say the frames went to a window\n{stdout}"
    );
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("DEMO_RESULT "))
        .unwrap_or_else(|| panic!("{what}: no DEMO_RESULT line:\n{stdout}"));
    let fields: Vec<(String, String)> = line
        .split_whitespace()
        .map(|kv| {
            let (k, v) = kv
                .split_once('=')
                .unwrap_or_else(|| panic!("{what}: `{kv}` is not key=value in `{line}`"));
            (k.to_owned(), v.to_owned())
        })
        .collect();
    for key in ["mean_ms", "p50_ms", "p95_ms"] {
        let value = field(&fields, key);
        let ms: f64 = value
            .parse()
            .unwrap_or_else(|_| panic!("{what}: {key}={value} is not a number"));
        assert!(ms.is_finite() && ms >= 0.0, "{what}: {key}={ms}");
    }
    fields
}

fn field<'a>(fields: &'a [(String, String)], key: &str) -> &'a str {
    fields
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("no {key}= in DEMO_RESULT {fields:?}"))
}

/// Five frames into a window under `gl`; the last one also written as a PNG.
fn five_frames_in_a_window(gl: &str, label: &str) {
    let Some(server) = xvfb::start_or_skip() else {
        return;
    };
    let dir = scratch(label);
    let out = demo(gl, &server.name, &dir, &["--frames", "5"])
        .output()
        .expect("run the demo");
    let fields = result_fields(&format!("demo --window --gl {gl}"), &out);
    assert_eq!(field(&fields, "frames"), "5");
    assert!(dir.join("demo.png").exists(), "no PNG of the last frame");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn demo_window_runs_under_arenagl() {
    five_frames_in_a_window(&arenagl_library().to_string_lossy(), "arenagl");
}

#[test]
fn demo_window_runs_under_llvmpipe() {
    five_frames_in_a_window("system", "system");
}

/// `--frames 0` runs until the window goes; here the X server goes away under it.
#[test]
fn a_broken_x_connection_ends_the_run_with_its_statistics() {
    let Some(server) = xvfb::start_or_skip() else {
        return;
    };
    let dir = scratch("lost");
    let library = arenagl_library();
    let mut child = demo(
        &library.to_string_lossy(),
        &server.name,
        &dir,
        &["--frames", "0"],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("start the demo");
    let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
    let mut head = String::new();
    // The setup line comes just before the first frame.
    while !head.contains("\nsetup: ") {
        let mut line = String::new();
        let read = stdout.read_line(&mut line).expect("read the demo's output");
        head.push_str(&line);
        if read == 0 {
            let _ = child.kill();
            let out = child.wait_with_output().expect("demo finished");
            panic!(
                "the demo ended before its first frame:\n{head}\nstderr:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    std::thread::sleep(Duration::from_secs(4));
    drop(server);
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().expect("poll the demo").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the demo kept running after its X server went away:\n{head}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let mut rest = Vec::new();
    stdout
        .read_to_end(&mut rest)
        .expect("read the demo's output");
    let mut out = child.wait_with_output().expect("demo finished");
    out.stdout = [head.into_bytes(), rest].concat();
    let fields = result_fields("demo --window --frames 0, X server gone", &out);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("the connection to the X server broke"),
        "the end is not explained:\n{stdout}"
    );
    // Usually some frames ran; under load the server may go before the first one, which must end
    // the run just as cleanly.
    let _: u32 = field(&fields, "frames")
        .parse()
        .expect("frames= is a count");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn window_errors_are_clear() {
    let dir = scratch("errors");
    let out = Command::new(BIN)
        .args(["demo", "--frames", "0"])
        .output()
        .expect("run the demo");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("--window"),
        "--frames 0 without --window must be refused, naming --window:\n{stderr}"
    );
    // A display number no server listens on.
    let out = demo("system", ":999", &dir, &["--frames", "1"])
        .output()
        .expect("run the demo");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("DISPLAY=:999"),
        "an unreachable X display must be a clear error naming DISPLAY:\n{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
