//! `arenagl run [--lib PATH] -- <command…>`: runs an unmodified program with ArenaGL in front of
//! the system's EGL/GL, and says how to watch it.
//!
//! Design decisions:
//! - Redirection is by soname, not by installing anything: a private directory (mode 0700, one
//!   per run, removed afterwards) holds `libEGL.so.1`, `libGL.so.1`, `libGLESv2.so.2` and their
//!   unversioned names as symlinks to `libarenagl.so`, first on `LD_LIBRARY_PATH`. That catches
//!   programs that link or `dlopen` those names (SDL, GLFW, glcontext/moderngl, waffle).
//! - Programs that reach glvnd's libEGL another way (an absolute path, libOpenGL + libEGL) are
//!   covered by `__EGL_VENDOR_LIBRARY_FILENAMES` naming a vendor JSON in the same directory, so
//!   glvnd loads ArenaGL as its only EGL vendor (`src/abi/glvnd.rs`). glcontext's explicit
//!   overrides (`GLCONTEXT_LINUX_LIBEGL`/`LIBGL`) point at the same files.
//! - Telemetry is left as the user set it (on unless `ARENAGL_TELEMETRY=0`), and the child's pid
//!   is printed with the `arenagl top --pid N` line, because watching the run is the point.
//! - The exit status is the child's; death by signal N is 128+N, as shells report it. If this
//!   process itself is killed by a signal the directory (symlinks and one small JSON) stays
//!   behind in the temp dir, named `arenagl-run-<pid>-…`.
//! - The library is chosen by `--lib`, `$ARENAGL_LIB`, then beside the executable, then its
//!   `deps/`; an explicit choice that does not exist is an error, never a silent fallback.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// The library file name cargo gives the cdylib.
const LIB_NAME: &str = "libarenagl.so";
/// The names a program may load EGL/GL by; each becomes a symlink to the library.
pub const SONAMES: &[&str] = &[
    "libEGL.so.1",
    "libEGL.so",
    "libGL.so.1",
    "libGL.so",
    "libGLESv2.so.2",
    "libGLESv2.so",
];
/// The glvnd vendor name of the library, which the vendor JSON points at.
const VENDOR_LIB: &str = "libEGL_arenagl.so.0";
/// The vendor JSON's file name (glvnd orders vendors by file name; 50 is the usual middle).
const VENDOR_JSON: &str = "50_arenagl.json";

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The libarenagl.so to use (default: $ARENAGL_LIB, else beside this executable, else its
    /// deps/ directory).
    #[arg(long, value_name = "PATH")]
    lib: Option<PathBuf>,
    /// The program and its arguments, e.g. `arenagl run -- python3 render.py`.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, required = true)]
    command: Vec<String>,
}

/// What can stop `arenagl run` before the child's own exit status exists.
#[derive(Debug)]
pub enum RunError {
    /// `--lib` or `$ARENAGL_LIB` names a file that does not exist.
    ChosenLibraryMissing { from: &'static str, path: PathBuf },
    /// No library in any default place; the places tried.
    LibraryNotFound { tried: Vec<PathBuf> },
    /// Creating the private directory or its links.
    Setup {
        what: String,
        source: std::io::Error,
    },
    /// The command could not be started.
    Spawn {
        program: String,
        source: std::io::Error,
    },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ChosenLibraryMissing { from, path } => {
                write!(f, "{from} names {}, which does not exist", path.display())
            }
            Self::LibraryNotFound { tried } => {
                write!(f, "no {LIB_NAME} found (tried ")?;
                for (i, p) in tried.iter().enumerate() {
                    write!(f, "{}{}", if i == 0 { "" } else { ", " }, p.display())?;
                }
                write!(
                    f,
                    "); build it with `cargo build -p arenagl --lib` or pass --lib PATH"
                )
            }
            Self::Setup { what, source } => write!(f, "{what}: {source}"),
            Self::Spawn { program, source } => write!(f, "cannot run `{program}`: {source}"),
        }
    }
}

impl std::error::Error for RunError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Setup { source, .. } | Self::Spawn { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Picks the library: `explicit` (`--lib`), then `env` (`$ARENAGL_LIB`), then `exe_dir` and
/// `exe_dir/deps`. `exists` is the file test (injected for the tests).
pub fn find_library(
    explicit: Option<&Path>,
    env: Option<&OsStr>,
    exe_dir: Option<&Path>,
    exists: impl Fn(&Path) -> bool,
) -> Result<PathBuf, RunError> {
    let chosen = [
        (explicit.map(Path::to_path_buf), "--lib"),
        (
            env.filter(|v| !v.is_empty()).map(PathBuf::from),
            "ARENAGL_LIB",
        ),
    ];
    for (path, from) in chosen {
        if let Some(path) = path {
            return if exists(&path) {
                Ok(path)
            } else {
                Err(RunError::ChosenLibraryMissing { from, path })
            };
        }
    }
    let tried: Vec<PathBuf> = exe_dir
        .map(|dir| vec![dir.join(LIB_NAME), dir.join("deps").join(LIB_NAME)])
        .unwrap_or_default();
    tried
        .iter()
        .find(|p| exists(p))
        .cloned()
        .ok_or(RunError::LibraryNotFound { tried })
}

/// The glvnd vendor JSON naming `vendor_lib` (the format libglvnd 1.x reads).
pub fn vendor_json(vendor_lib: &Path) -> String {
    let path = serde_json::Value::String(vendor_lib.display().to_string());
    format!("{{\"file_format_version\":\"1.0.0\",\"ICD\":{{\"library_path\":{path}}}}}\n")
}

/// Fills `dir` with the soname symlinks, the vendor symlink and the vendor JSON, all leading to
/// `lib` (an absolute path).
pub fn lay_out(dir: &Path, lib: &Path) -> std::io::Result<()> {
    for name in SONAMES.iter().chain([&VENDOR_LIB]) {
        std::os::unix::fs::symlink(lib, dir.join(name))?;
    }
    std::fs::write(dir.join(VENDOR_JSON), vendor_json(&dir.join(VENDOR_LIB)))
}

/// The variables the child gets on top of the inherited environment.
pub fn child_env(dir: &Path, inherited_ld_path: Option<&OsStr>) -> Vec<(&'static str, OsString)> {
    let mut ld_path = dir.as_os_str().to_owned();
    if let Some(old) = inherited_ld_path.filter(|p| !p.is_empty()) {
        ld_path.push(":");
        ld_path.push(old);
    }
    vec![
        ("LD_LIBRARY_PATH", ld_path),
        (
            "__EGL_VENDOR_LIBRARY_FILENAMES",
            dir.join(VENDOR_JSON).into_os_string(),
        ),
        (
            "GLCONTEXT_LINUX_LIBEGL",
            dir.join("libEGL.so.1").into_os_string(),
        ),
        (
            "GLCONTEXT_LINUX_LIBGL",
            dir.join("libGL.so.1").into_os_string(),
        ),
    ]
}

/// The shell's view of an exit: the code, or 128+N for death by signal N.
pub fn exit_byte(code: Option<i32>, signal: Option<i32>) -> u8 {
    match (code, signal) {
        (Some(code), _) => u8::try_from(code & 0xFF).unwrap_or(1),
        (None, Some(signal)) => u8::try_from(128 + (signal & 0x7F)).unwrap_or(255),
        (None, None) => 1,
    }
}

/// The private directory, removed on drop.
struct PrivateDir(PathBuf);

impl PrivateDir {
    fn create() -> Result<Self, RunError> {
        use std::os::unix::fs::DirBuilderExt;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let dir =
            std::env::temp_dir().join(format!("arenagl-run-{}-{nanos:09}", std::process::id()));
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&dir)
            .map_err(|source| RunError::Setup {
                what: format!("create {}", dir.display()),
                source,
            })?;
        Ok(Self(dir))
    }
}

impl Drop for PrivateDir {
    fn drop(&mut self) {
        // Best effort: a leftover holds only symlinks and a small JSON.
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `args.command` with ArenaGL in front; the child's exit status becomes ours.
pub fn run(args: &RunArgs) -> Result<ExitCode, Box<dyn std::error::Error>> {
    use std::os::unix::process::ExitStatusExt;

    let exe_dir = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(Path::to_path_buf));
    let env_lib = std::env::var_os("ARENAGL_LIB");
    let lib = find_library(
        args.lib.as_deref(),
        env_lib.as_deref(),
        exe_dir.as_deref(),
        |p| p.is_file(),
    )?;
    // Symlinks need an absolute target.
    let lib = lib.canonicalize().map_err(|source| RunError::Setup {
        what: format!("resolve {}", lib.display()),
        source,
    })?;

    let dir = PrivateDir::create()?;
    lay_out(&dir.0, &lib).map_err(|source| RunError::Setup {
        what: format!("link {} in {}", lib.display(), dir.0.display()),
        source,
    })?;

    let (program, rest) = args
        .command
        .split_first()
        .ok_or("no command given (usage: arenagl run -- <command…>)")?;
    let inherited = std::env::var_os("LD_LIBRARY_PATH");
    let mut child = Command::new(program)
        .args(rest)
        .envs(child_env(&dir.0, inherited.as_deref()))
        .spawn()
        .map_err(|source| RunError::Spawn {
            program: program.clone(),
            source,
        })?;

    let pid = child.id();
    eprintln!("arenagl run: {program} is pid {pid}, on {}", lib.display());
    if std::env::var_os("ARENAGL_TELEMETRY").is_some_and(|v| v == "0") {
        eprintln!("arenagl run: ARENAGL_TELEMETRY=0, so `arenagl top` will not see it");
    } else {
        eprintln!("arenagl run: watch it with: arenagl top --pid {pid}");
    }

    let status = child.wait().map_err(|source| RunError::Setup {
        what: format!("wait for pid {pid}"),
        source,
    })?;
    drop(dir);
    Ok(ExitCode::from(exit_byte(status.code(), status.signal())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn only(paths: &'static [&'static str]) -> impl Fn(&Path) -> bool {
        move |p| paths.iter().any(|q| Path::new(q) == p)
    }

    #[test]
    fn explicit_library_wins_then_env_then_beside_the_executable_then_deps() {
        let all = only(&[
            "/x/lib.so",
            "/env/lib.so",
            "/bin/libarenagl.so",
            "/bin/deps/libarenagl.so",
        ]);
        let exe = Some(Path::new("/bin"));
        let env = Some(OsStr::new("/env/lib.so"));
        let pick = |explicit: Option<&str>, env, exists: &dyn Fn(&Path) -> bool| {
            find_library(explicit.map(Path::new), env, exe, exists).map_err(|e| e.to_string())
        };
        assert_eq!(pick(Some("/x/lib.so"), env, &all), Ok("/x/lib.so".into()));
        assert_eq!(pick(None, env, &all), Ok("/env/lib.so".into()));
        assert_eq!(pick(None, None, &all), Ok("/bin/libarenagl.so".into()));
        let deps_only = only(&["/bin/deps/libarenagl.so"]);
        assert_eq!(
            pick(None, None, &deps_only),
            Ok("/bin/deps/libarenagl.so".into())
        );
        // An empty variable counts as unset.
        assert_eq!(
            pick(None, Some(OsStr::new("")), &deps_only),
            Ok("/bin/deps/libarenagl.so".into())
        );
    }

    #[test]
    fn a_chosen_library_that_is_missing_is_an_error_not_a_fallback() {
        let defaults = only(&["/bin/libarenagl.so"]);
        let exe = Some(Path::new("/bin"));
        let err = find_library(Some(Path::new("/nope.so")), None, exe, &defaults).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--lib names /nope.so, which does not exist"
        );
        let err = find_library(None, Some(OsStr::new("/nope.so")), exe, &defaults).unwrap_err();
        assert_eq!(
            err.to_string(),
            "ARENAGL_LIB names /nope.so, which does not exist"
        );
        let err = find_library(None, None, exe, only(&[]))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("/bin/libarenagl.so, /bin/deps/libarenagl.so"),
            "{err}"
        );
    }

    #[test]
    fn lay_out_links_every_soname_and_the_vendor_json_to_the_library() {
        let dir = PrivateDir::create().expect("temp dir");
        let lib = dir.0.join("real").join(LIB_NAME);
        std::fs::create_dir(lib.parent().expect("parent")).expect("mkdir");
        std::fs::write(&lib, b"not really ELF").expect("write");
        lay_out(&dir.0, &lib).expect("lay out");
        let expected = [
            "libEGL.so.1",
            "libEGL.so",
            "libGL.so.1",
            "libGL.so",
            "libGLESv2.so.2",
            "libGLESv2.so",
            "libEGL_arenagl.so.0",
        ];
        for name in expected {
            let link = dir.0.join(name);
            assert_eq!(std::fs::read_link(&link).expect(name), lib, "{name}");
        }
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.0.join(VENDOR_JSON)).expect("json"))
                .expect("valid JSON");
        assert_eq!(json["file_format_version"], "1.0.0");
        assert_eq!(
            json["ICD"]["library_path"],
            dir.0.join(VENDOR_LIB).display().to_string()
        );
        let path = dir.0.clone();
        drop(dir);
        assert!(!path.exists(), "the private directory is removed");
    }

    #[test]
    fn the_private_directory_comes_first_on_the_library_path() {
        let dir = Path::new("/tmp/arenagl-run-1");
        let env = child_env(dir, Some(OsStr::new("/opt/lib")));
        let get = |k: &str| env.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone());
        assert_eq!(
            get("LD_LIBRARY_PATH"),
            Some("/tmp/arenagl-run-1:/opt/lib".into())
        );
        assert_eq!(
            get("__EGL_VENDOR_LIBRARY_FILENAMES"),
            Some("/tmp/arenagl-run-1/50_arenagl.json".into())
        );
        assert_eq!(
            get("GLCONTEXT_LINUX_LIBEGL"),
            Some("/tmp/arenagl-run-1/libEGL.so.1".into())
        );
        let env = child_env(dir, None);
        assert_eq!(env[0].1, OsString::from("/tmp/arenagl-run-1"));
    }

    #[test]
    fn exit_codes_pass_through_and_signals_become_128_plus_n() {
        assert_eq!(exit_byte(Some(0), None), 0);
        assert_eq!(exit_byte(Some(3), None), 3);
        assert_eq!(exit_byte(None, Some(9)), 137);
        assert_eq!(exit_byte(None, Some(11)), 139);
    }

    #[test]
    fn run_forwards_the_child_exit_status() {
        let dir = PrivateDir::create().expect("temp dir");
        let lib = dir.0.join(LIB_NAME);
        std::fs::write(&lib, b"").expect("write");
        let args = |cmd: &[&str]| RunArgs {
            lib: Some(lib.clone()),
            command: cmd.iter().map(|s| s.to_string()).collect(),
        };
        let code = run(&args(&[
            "sh",
            "-c",
            "test -L \"${LD_LIBRARY_PATH%%:*}/libGL.so.1\" && exit 7",
        ]))
        .expect("runs");
        assert_eq!(format!("{code:?}"), format!("{:?}", ExitCode::from(7)));
        let err = run(&args(&["/no/such/program"])).unwrap_err().to_string();
        assert!(err.starts_with("cannot run `/no/such/program`"), "{err}");
    }
}
