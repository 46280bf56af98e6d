//! An `Xvfb` for tests that need an X server: on a display number no other server uses, stopped
//! (SIGTERM, so it removes its socket and lock) when dropped. Shared by the tests that open X11
//! windows (`#[path = "common/xvfb.rs"] mod xvfb;`).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `name` found in `$PATH`.
fn find_in_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// The pid in an X server's lock file (`/tmp/.XN-lock`: the pid as text).
fn lock_owner(lock: &Path) -> Option<u32> {
    std::fs::read_to_string(lock).ok()?.trim().parse().ok()
}

/// An `Xvfb` on a display number no other server uses, killed when dropped.
pub struct XServer {
    child: Child,
    /// The display, as `DISPLAY` names it (`:N`).
    pub name: String,
}

impl XServer {
    /// Starts `xvfb` with one 640×480×24 screen; panics when no display number is free.
    fn start(xvfb: &Path) -> Self {
        for n in 90..190 {
            let socket = PathBuf::from(format!("/tmp/.X11-unix/X{n}"));
            let lock = PathBuf::from(format!("/tmp/.X{n}-lock"));
            if socket.exists() || lock.exists() {
                continue;
            }
            let name = format!(":{n}");
            let mut child = Command::new(xvfb)
                .args([&name, "-screen", "0", "640x480x24", "-nolisten", "tcp"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("spawn Xvfb");
            let deadline = Instant::now() + Duration::from_secs(20);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = child.try_wait() {
                    break; // Lost a race for this number: try the next.
                }
                // The socket may be a rival's that won the race (tests run in parallel, and so
                // may other test binaries): the server is ours only when its lock names our
                // child, whose own attempt then fails and is seen above.
                if socket.exists() && lock_owner(&lock) == Some(child.id()) {
                    return Self { child, name };
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
        panic!("no free X display number for Xvfb");
    }
}

impl Drop for XServer {
    /// SIGTERM first: Xvfb then removes its socket and lock file (SIGKILL would leave them, and
    /// every later run would skip that display number).
    fn drop(&mut self) {
        let term = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        if term.is_ok_and(|s| s.success()) {
            let deadline = Instant::now() + Duration::from_secs(5);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A fresh `Xvfb`, or `None` (the reason printed: the test is then skipped) when `Xvfb` or
/// libX11 is missing (Debian: xvfb, libx11-6; CI installs both).
pub fn start_or_skip() -> Option<XServer> {
    let Some(xvfb) = find_in_path("Xvfb") else {
        println!("skipped: no Xvfb in PATH (Debian: xvfb)");
        return None;
    };
    // SAFETY: loading libX11 runs its initialisers, which are safe.
    if unsafe { libloading::Library::new("libX11.so.6") }.is_err() {
        println!("skipped: libX11.so.6 cannot be loaded (Debian: libx11-6)");
        return None;
    }
    Some(XServer::start(&xvfb))
}
