//! Hostile arguments for every GL entry-point family, ArenaGL against Mesa llvmpipe:
//! `tests/probe/compare.py` runs the probes of `tests/probe/probes.py` (negative sizes, offsets
//! past the end, client addresses passed as buffer offsets, bad enums, bad `#version` lines, …)
//! once through the built `libarenagl.so` and once through the system's glvnd `libEGL.so.1` on
//! llvmpipe, each in its own Python process, and compares the `glGetError()` sequences.
//!
//! It fails when ArenaGL crashes or hangs in a probe, when a probe not listed in
//! `tests/probe/expected.txt` disagrees with llvmpipe, or when a listed one agrees again (then the
//! line is to be removed). The table it prints says what each side returned.
//!
//! It skips, saying why, only when python3, the system `libEGL.so.1` or Mesa's EGL vendor library
//! is missing (CI installs all three with `scripts/deps.sh test`). `ARENAGL_VALIDATION` in this
//! test's environment reaches ArenaGL's run: compare.py hands that run its own environment.

use std::fs::File;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::library_path;

/// Where Debian/Ubuntu (multiarch), Fedora and Arch install glvnd's libEGL.
const SYSTEM_LIBEGL: &[&str] = &[
    "/usr/lib/x86_64-linux-gnu/libEGL.so.1",
    "/usr/lib/aarch64-linux-gnu/libEGL.so.1",
    "/usr/lib64/libEGL.so.1",
    "/usr/lib/libEGL.so.1",
];

/// Mesa's EGL, the vendor library glvnd's libEGL dispatches to.
const MESA_EGL: &[&str] = &[
    "/usr/lib/x86_64-linux-gnu/libEGL_mesa.so.0",
    "/usr/lib/aarch64-linux-gnu/libEGL_mesa.so.0",
    "/usr/lib64/libEGL_mesa.so.0",
    "/usr/lib/libEGL_mesa.so.0",
];

/// Seconds compare.py gives each implementation's run (a hang is reported after this).
const RUN_BUDGET_S: u64 = 120;

fn first_existing(paths: &[&'static str]) -> Option<&'static str> {
    paths.iter().copied().find(|p| Path::new(p).exists())
}

fn python3_available() -> bool {
    Command::new("python3")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Waits for `child` until `deadline`; past it, kills its whole process group (compare.py and
/// the hostile.py it runs) and returns `None`.
fn wait_until(child: &mut std::process::Child, deadline: Instant) -> Option<ExitStatus> {
    loop {
        if let Some(status) = child.try_wait().expect("poll compare.py") {
            return Some(status);
        }
        if Instant::now() > deadline {
            // The child leads its own process group (process_group(0) below).
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn hostile_arguments_raise_the_errors_llvmpipe_raises() {
    if !python3_available() {
        eprintln!("SKIP: python3 is not installed (scripts/deps.sh test installs it)");
        return;
    }
    let Some(system_egl) = first_existing(SYSTEM_LIBEGL) else {
        eprintln!("SKIP: no system libEGL.so.1 (looked in {SYSTEM_LIBEGL:?}); install libegl1");
        return;
    };
    if first_existing(MESA_EGL).is_none() {
        eprintln!("SKIP: no Mesa EGL (looked in {MESA_EGL:?}); install libegl-mesa0");
        return;
    }
    let lib = library_path();
    let root = env!("CARGO_MANIFEST_DIR");
    let scratch =
        std::env::temp_dir().join(format!("arenagl-hostile-probe-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    let (out_path, err_path) = (scratch.join("stdout"), scratch.join("stderr"));

    let started = Instant::now();
    let mut child = Command::new("python3")
        .arg(format!("{root}/tests/probe/compare.py"))
        .arg("--arenagl")
        .arg(&lib)
        .arg("--mesa-egl")
        .arg(system_egl)
        .arg("--timeout")
        .arg(RUN_BUDGET_S.to_string())
        .current_dir(root)
        .stdin(Stdio::null())
        .stdout(File::create(&out_path).expect("stdout file"))
        .stderr(File::create(&err_path).expect("stderr file"))
        .process_group(0)
        .spawn()
        .expect("start tests/probe/compare.py");
    // Both runs plus slack: compare.py enforces the per-run budget itself; this is a backstop.
    let status = wait_until(
        &mut child,
        started + Duration::from_secs(2 * RUN_BUDGET_S + 120),
    );
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&scratch);

    let Some(status) = status else {
        panic!(
            "compare.py ran past {}s and was killed:\n{stdout}\n--- stderr\n{stderr}",
            2 * RUN_BUDGET_S + 120
        );
    };
    assert!(
        status.success(),
        "hostile-argument probes failed ({status}); see FAILED at the end:\n{stdout}\n--- stderr\n\
         {stderr}"
    );
    println!("{stdout}");
    println!("(took {:.1}s)", started.elapsed().as_secs_f64());
}
