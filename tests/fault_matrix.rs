//! Whole programs under `ARENAGL_FAULTS` (docs/robustness.md): for each call that can fail
//! (allocation, submission, pipeline creation, acquire, present, swapchain creation) and each
//! result it can really return, a real GL program — `arenagl scene` on a pbuffer, `arenagl demo --window` under
//! `Xvfb` for the swapchain calls — either keeps running and produces the same picture, or ends
//! with the documented GL/EGL error: never a crash, a panic, a validation error or a hang (every
//! run is killed after a bounded time and that fails the test). A lost device is replaced
//! inside the same context (recovery is on by default) and the program ends with the same
//! picture; with `ARENAGL_RECOVER=0` it ends with the documented error.

#[path = "common/child.rs"]
mod child;
#[path = "common/xvfb.rs"]
mod xvfb;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_arenagl");
const VALIDATION_TARGET: &str = "arenagl::validation";
/// Far above a run's normal time on lavapipe; a run this long is a hang.
const LIMIT: Duration = Duration::from_secs(120);

/// The cdylib cargo built for this test run (as in tests/demo_window.rs).
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

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arenagl-faults-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the scratch directory");
    dir
}

struct Run {
    success: bool,
    stdout: String,
    stderr: String,
}

/// Runs `command` with `faults`, killing it after [`LIMIT`]; fails the test on a hang, a
/// panic, a crash (death by signal) or a validation message.
fn run(mut command: Command, faults: &str, what: &str) -> Run {
    command
        .env("ARENAGL_FAULTS", faults)
        .env("ARENAGL_VALIDATION", "1")
        .env("ARENAGL_TELEMETRY", "0");
    let out = child::run_with_limit(&mut command, LIMIT);
    let success = out.success();
    let child::Finished {
        status,
        stdout,
        stderr,
    } = out;
    let Some(status) = status else {
        panic!("{what} [{faults}]: still running after {LIMIT:?} (a hang)\n{stderr}");
    };
    assert!(
        status.code().is_some(),
        "{what} [{faults}]: killed by a signal ({status})\n{stderr}"
    );
    assert!(
        !stderr.contains("panicked"),
        "{what} [{faults}]: a panic\n{stderr}"
    );
    assert!(
        !stderr.contains(VALIDATION_TARGET),
        "{what} [{faults}]: validation messages\n{stderr}"
    );
    Run {
        success,
        stdout,
        stderr,
    }
}

fn scene(dir: &Path, png: &str) -> Command {
    let mut c = Command::new(BIN);
    c.args([
        "scene", "textured", "--width", "64", "--height", "64", "--frames", "3",
    ])
    .arg("--gl")
    .arg(arenagl_library())
    .arg("--out")
    .arg(dir.join(png))
    .env("XDG_CACHE_HOME", dir);
    c
}

#[test]
fn pbuffer_programs_absorb_single_failures_and_report_persistent_ones() {
    let dir = scratch("scene");
    let base = run(scene(&dir, "base.png"), "", "scene");
    assert!(base.success, "the scene without faults\n{}", base.stderr);
    let expected = std::fs::read(dir.join("base.png")).expect("base PNG");
    // One failure of each call, with each out-of-memory result it can return: absorbed by the
    // ladder, the same picture.
    for (i, faults) in [
        "alloc@1=oom_device",
        "alloc@2=oom_host",
        "alloc@3=too_many_objects",
        "submit@1=oom_device",
        "submit@2=oom_host",
        "pipeline@1=oom_device",
        "pipeline@1=oom_host",
    ]
    .into_iter()
    .enumerate()
    {
        let png = format!("absorbed-{i}.png");
        let r = run(scene(&dir, &png), faults, "scene");
        assert!(r.success, "[{faults}] absorbed\n{}{}", r.stdout, r.stderr);
        let got = std::fs::read(dir.join(&png)).expect("PNG");
        assert!(
            got == expected,
            "[{faults}]: the picture differs from the run without faults"
        );
    }
    // Recovery is on by default: a device lost at a frame's submission is replaced in the
    // same context: the program ends normally with the same picture, and the lost device is
    // destroyed only after everything made on it (validation would say otherwise).
    for (i, faults) in ["submit@2=device_lost", "submit@3=device_lost"]
        .into_iter()
        .enumerate()
    {
        let png = format!("recovered-{i}.png");
        let r = run(scene(&dir, &png), faults, "scene");
        assert!(r.success, "[{faults}] recovered\n{}{}", r.stdout, r.stderr);
        assert!(
            r.stderr
                .contains("GL contexts continue on the recovered device"),
            "[{faults}]: the device was replaced\n{}",
            r.stderr
        );
        let got = std::fs::read(dir.join(&png)).expect("PNG");
        assert!(
            got == expected,
            "[{faults}]: the recovered picture differs from the run without faults"
        );
    }
    // Persistent failures, and device loss with recovery off (`ARENAGL_RECOVER=0`: the
    // latch), end the program with the documented error.
    for (faults, says) in [
        // The surface's images are the first allocation: eglCreatePbufferSurface refuses.
        ("alloc%1=oom_device", "EGL_BAD_ALLOC"),
        ("alloc%1=oom_host", "EGL_BAD_ALLOC"),
        // Everything but the images of a 64×64 surface: the scene's first upload refuses.
        ("alloc>20000=oom_device", "GL_OUT_OF_MEMORY"),
        ("pipeline%1=oom_host", "GL_OUT_OF_MEMORY"),
        ("submit%1=oom_device", "GL_OUT_OF_MEMORY"),
        ("alloc@4=device_lost", "CONTEXT_LOST"),
        ("submit@2=device_lost", "CONTEXT_LOST"),
        // A plan that does not parse: no device, a clear error, nothing injected silently.
        ("submit@x=device_lost", "ARENAGL_FAULTS"),
    ] {
        let mut command = scene(&dir, "fail.png");
        command.env("ARENAGL_RECOVER", "0");
        let r = run(command, faults, "scene");
        assert!(!r.success, "[{faults}] must fail\n{}", r.stdout);
        assert!(
            r.stderr.contains(says),
            "[{faults}]: the error names {says}\n{}",
            r.stderr
        );
    }
}

fn demo(display: &str, dir: &Path, frames: u32) -> Command {
    let mut c = Command::new(BIN);
    c.args([
        "demo", "--window", "--width", "160", "--height", "96", "--frames",
    ])
    .arg(frames.to_string())
    .arg("--gl")
    .arg(arenagl_library())
    .arg("--out")
    .arg(dir.join("demo.png"))
    .env("DISPLAY", display)
    .env("XDG_CACHE_HOME", dir);
    c
}

#[test]
fn window_programs_survive_acquire_and_present_failures() {
    let Some(server) = xvfb::start_or_skip() else {
        return;
    };
    let dir = scratch("window");
    // Every recoverable result of both swapchain calls, one frame each: the demo shows every
    // frame it can and finishes normally.
    let recoverable = "acquire@2=timeout,acquire@3=not_ready,acquire@4=out_of_date,\
                       acquire@6=suboptimal,acquire@7=oom_device,acquire@8=oom_host,\
                       present@9=out_of_date,present@10=suboptimal,present@11=oom_device,\
                       present@12=oom_host,swapchain@1=oom_device,swapchain@3=oom_host,\
                       swapchain@4=initialization_failed";
    let r = run(demo(&server.name, &dir, 14), recoverable, "demo --window");
    assert!(r.success, "[{recoverable}]\n{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("DEMO_RESULT") && r.stdout.contains("frames=14"),
        "all frames ran\n{}",
        r.stdout
    );
    assert!(
        r.stderr
            .contains("swapchain creation failed; trying with less"),
        "the swapchain degrade ladder ran\n{}",
        r.stderr
    );
    // A device lost at an acquire or a present is replaced (recovery is on by default): the
    // window's surface and swapchain are made again on the new device and every frame runs.
    for faults in ["acquire@3=device_lost", "present@3=device_lost"] {
        let r = run(demo(&server.name, &dir, 6), faults, "demo --window");
        assert!(r.success, "[{faults}] recovered\n{}{}", r.stdout, r.stderr);
        assert!(
            r.stdout.contains("frames=6"),
            "[{faults}]: all frames ran\n{}",
            r.stdout
        );
    }
    // Device loss with recovery off, and a lost surface, end the run with the EGL error of
    // eglSwapBuffers.
    for (faults, says) in [
        ("acquire@3=device_lost", "EGL_CONTEXT_LOST"),
        ("present@3=device_lost", "EGL_CONTEXT_LOST"),
        ("acquire@3=surface_lost", "EGL_BAD_NATIVE_WINDOW"),
        ("present@3=surface_lost", "EGL_BAD_NATIVE_WINDOW"),
        // Swapchain creation: every rung of the degrade ladder refused; a lost surface.
        ("swapchain%1=oom_device", "EGL_BAD_ALLOC"),
        ("swapchain@1=surface_lost", "EGL_BAD_NATIVE_WINDOW"),
    ] {
        let mut command = demo(&server.name, &dir, 6);
        command.env("ARENAGL_RECOVER", "0");
        let r = run(command, faults, "demo --window");
        assert!(!r.success, "[{faults}] must fail\n{}", r.stdout);
        assert!(
            r.stderr.contains(says) || r.stdout.contains(says),
            "[{faults}]: the error names {says}\n{}{}",
            r.stdout,
            r.stderr
        );
    }
}
