//! piglit in CI: runs `scripts/piglit.sh check tests/piglit/ci.txt` and `scripts/piglit.sh
//! check-sample 2026 400` against the `libarenagl.so` cargo built for this test run, and fails
//! when a check reports a regression (a test that `tests/piglit/expected.txt` records as passing
//! no longer passes, or a test it does not list) or cannot run.
//!
//! Design decisions:
//! - The script does the work (fetching piglit, selecting the implementation, timeouts, parsing
//!   results); this test only chooses the library and the list, so a developer runs exactly what
//!   CI runs with `ARENAGL_LIB=… scripts/piglit.sh check tests/piglit/ci.txt`.
//! - CI runs `ci.txt`, a subset of `list.txt`: on a 2-core machine the debug library needs several
//!   seconds a test (Vulkan device, pipelines, glslang in an unoptimised build), and the whole
//!   check must stay within a few minutes. `scripts/piglit.sh check` (the full list) and
//!   `compare` are run by hand.
//! - The random sample (400 tests drawn with seed 2026 from piglit's whole GL and GL ES list,
//!   `tests/piglit/sample.py`) is the list nobody chose: `expected.txt` records every one of its
//!   tests, with piglit's own reason for each non-pass.
//! - The only skip is the script's exit status 77: the piglit debs cannot be downloaded (apt has
//!   no network). Everything else that stops the script is a failure with its output shown.

use std::path::PathBuf;
use std::process::Command;

/// The script's "skipped" exit status: piglit could not be downloaded.
const SKIP: i32 = 77;

/// The cdylib cargo built for this test run (as in `tests/egl_abi.rs`): beside the test binary in
/// `deps/`, else one level up.
fn library_path() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("test binary path: {e}"))?;
    let deps = exe
        .parent()
        .ok_or_else(|| format!("{} has no parent directory", exe.display()))?;
    let found = [Some(deps), deps.parent()]
        .into_iter()
        .flatten()
        .map(|dir| dir.join("libarenagl.so"))
        .find(|p| p.exists());
    found.ok_or_else(|| format!("no libarenagl.so beside {}", exe.display()))
}

#[test]
fn piglit_ci_list_has_no_regressions() -> Result<(), String> {
    check(&["check", "tests/piglit/ci.txt"])
}

#[test]
fn piglit_random_sample_has_no_regressions() -> Result<(), String> {
    check(&["check-sample", "2026", "400"])
}

/// Runs `scripts/piglit.sh ARGS` on this build's library; `Err` on a regression or a failure to run.
fn check(args: &[&str]) -> Result<(), String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let lib = library_path()?;
    let started = std::time::Instant::now();
    let output = Command::new(root.join("scripts/piglit.sh"))
        .args(args)
        .current_dir(&root)
        .env("ARENAGL_LIB", &lib)
        // The debug library on a loaded 2-core machine: a few slow tests take 30–40 s.
        .env("PIGLIT_TIMEOUT", "120")
        .output()
        .map_err(|e| format!("cannot start scripts/piglit.sh: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if output.status.code() == Some(SKIP) {
        eprintln!("SKIPPED: piglit cannot be downloaded (apt has no network):\n{stderr}");
        return Ok(());
    }
    print!("{stdout}");
    eprint!("{stderr}");
    println!(
        "piglit {args:?} of {} took {:.0} s",
        lib.display(),
        started.elapsed().as_secs_f64()
    );
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "scripts/piglit.sh {args:?} failed ({}); the lines above name each regression, and \
             the logs directory printed above holds every test's output",
            output.status
        ))
    }
}
