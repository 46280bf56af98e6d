//! A child process run with a time limit, its output captured: a hang becomes a test failure
//! with the output so far, not a CI job that never ends. Shared by the tests that re-run
//! themselves or the `arenagl` binary as children (`#[path = "common/child.rs"] mod child;`).

use std::ffi::OsStr;
use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What a child printed, and how it ended (`None`: killed at the limit).
pub struct Finished {
    pub status: Option<ExitStatus>,
    pub stdout: String,
    pub stderr: String,
}

impl Finished {
    /// Whether it ended by itself with status 0.
    pub fn success(&self) -> bool {
        self.status.is_some_and(|s| s.success())
    }
}

fn drain(pipe: Option<impl Read + Send + 'static>) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut bytes);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// Runs `command` with stdout and stderr captured (drained by threads, so a chatty child never
/// blocks on a full pipe) and kills it if it runs longer than `limit`.
pub fn run_with_limit(command: &mut Command, limit: Duration) -> Finished {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn the child");
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("poll the child") {
            break Some(status);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Finished {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    }
}

/// Far above a child test's normal time on lavapipe; a child running this long is a hang.
#[allow(dead_code)]
pub const TEST_CHILD_LIMIT: Duration = Duration::from_secs(300);

/// Runs this binary's test `test` alone as a child (`--exact`, output shown, one thread), with
/// `child_env=1` (how the child knows it is one), `ARENAGL_VALIDATION=1`, `ARENAGL_TELEMETRY=0`
/// and `envs`, killed after [`TEST_CHILD_LIMIT`]. It must succeed, print `marker`, and leave no
/// validation-layer message in its stderr.
#[allow(dead_code)]
pub fn run_test_child<K, V>(
    test: &str,
    child_env: &str,
    envs: impl IntoIterator<Item = (K, V)>,
    marker: &str,
) where
    K: AsRef<OsStr>,
    V: AsRef<OsStr>,
{
    let out = run_with_limit(
        Command::new(std::env::current_exe().expect("test binary path"))
            .args(["--exact", test, "--nocapture", "--test-threads=1"])
            .env(child_env, "1")
            .env("ARENAGL_VALIDATION", "1")
            .env("ARENAGL_TELEMETRY", "0")
            .envs(envs),
        TEST_CHILD_LIMIT,
    );
    let (stdout, stderr) = (&out.stdout, &out.stderr);
    assert!(
        out.success(),
        "the child failed ({})\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status.map_or_else(
            || format!("killed after {TEST_CHILD_LIMIT:?}: a hang"),
            |s| s.to_string()
        )
    );
    assert!(
        stdout.contains(marker),
        "no {marker}\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(
        !stderr.contains("arenagl::validation"),
        "validation-layer messages:\n{stderr}"
    );
}
