//! The proof with a real, unmodified client: moderngl (from PyPI) creates a standalone
//! EGL context through ArenaGL, renders a triangle and reads back the expected pixels
//! (`tests/moderngl/render.py`, run by `scripts/moderngl.sh`). The same harness against the
//! system's Mesa llvmpipe is the reference that shows the harness itself is right.
//!
//! The venv (`target/moderngl-venv`, pinned moderngl/glcontext wheels) is created on first use
//! and needs PyPI. CI has registry access, so there these tests always run; they skip, saying
//! why, only when the script reports PyPI unreachable (its exit status 3). Any other failure —
//! pip failing with PyPI up, a crash in the GL library, a wrong pixel — fails the test.

use std::path::PathBuf;
use std::process::Command;
use std::sync::{Mutex, PoisonError};

/// The two tests share one venv; its creation must not race.
static VENV: Mutex<()> = Mutex::new(());

/// `scripts/moderngl.sh`'s status for "PyPI unreachable".
const NO_NETWORK: i32 = 3;

/// As in `tests/egl_abi.rs`: the cdylib cargo built for this run, `deps/` first.
fn library_path() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let deps = exe
        .parent()
        .expect("test binary sits in target/<profile>/deps");
    let found = [Some(deps), deps.parent()]
        .into_iter()
        .flatten()
        .map(|dir| dir.join("libarenagl.so"))
        .find(|p| p.exists());
    found.unwrap_or_else(|| panic!("no libarenagl.so beside {}", exe.display()))
}

/// Runs the harness; `None` when it was skipped for want of network.
fn harness(args: &[&str]) -> Option<String> {
    let _serial = VENV.lock().unwrap_or_else(PoisonError::into_inner);
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("bash")
        .arg(format!("{root}/scripts/moderngl.sh"))
        .args(args)
        .current_dir(root)
        // Mesa and the validation layer cache shaders; keep runs independent.
        .env(
            "XDG_CACHE_HOME",
            std::env::temp_dir().join("arenagl-moderngl-cache"),
        )
        // ArenaGL runs validated; its validation-layer messages carry this target.
        .env("ARENAGL_VALIDATION", "1")
        .output()
        .expect("run scripts/moderngl.sh");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(NO_NETWORK) {
        eprintln!("SKIP: {}", stderr.trim());
        return None;
    }
    assert!(
        out.status.success(),
        "scripts/moderngl.sh {} failed ({}):\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
        args.join(" "),
        out.status
    );
    assert!(stdout.contains("PASS"), "no PASS line:\n{stdout}");
    assert!(
        !stderr.contains("arenagl::validation"),
        "the validation layer reported errors:\n{stderr}"
    );
    Some(stdout.into_owned())
}

#[test]
fn moderngl_renders_and_reads_back_through_arenagl() {
    let lib = library_path();
    let lib = lib.to_str().expect("UTF-8 library path");
    if let Some(stdout) = harness(&["arenagl", lib]) {
        assert!(stdout.contains("GL_RENDERER"), "{stdout}");
    }
}

#[test]
fn moderngl_harness_passes_on_the_system_reference() {
    if let Some(stdout) = harness(&["system"]) {
        // Mesa's first EGL device: llvmpipe here and in CI, a GPU driver on a machine with one.
        assert!(stdout.contains("GL_RENDERER"), "{stdout}");
    }
}
