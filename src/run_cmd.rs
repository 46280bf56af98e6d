//! `arenagl run [--lib PATH] -- <command…>`: runs an unmodified program with ArenaGL in front of
//! the system's EGL/GL, and says how to watch it.
//!
//! Design decisions:
//! - Redirection is by soname, not by installing anything: a private directory (mode 0700, one
//!   per run, removed afterwards) holds `libEGL.so.1`, `libGL.so.1`, `libGLESv2.so.2`, glvnd's
//!   `libGLX.so.0` and `libOpenGL.so.0`, and their unversioned names as symlinks to
//!   `libarenagl.so` (which exports EGL, GLX and GL), first on `LD_LIBRARY_PATH`. That catches
//!   programs that link or `dlopen` those names (SDL, GLFW, glcontext/moderngl, waffle).
//! - Programs that reach glvnd's libEGL another way (an absolute path, libOpenGL + libEGL) are
//!   covered by `__EGL_VENDOR_LIBRARY_FILENAMES` naming a vendor JSON in the same directory, so
//!   glvnd loads ArenaGL as its only EGL vendor (`src/abi/glvnd.rs`), and glvnd's libGLX by
//!   `__GLX_VENDOR_LIBRARY_NAME=arenagl` with `libGLX_arenagl.so.0` in the directory
//!   (`src/abi/glx/glvnd.rs`). glcontext's explicit overrides (`GLCONTEXT_LINUX_LIBEGL`/`LIBGL`)
//!   point at the same files.
//! - `--via glvnd` leaves the system's sonames alone and selects ArenaGL only through glvnd's
//!   vendor mechanisms (the vendor symlinks, the JSON and the two variables above). That is what a
//!   Vulkan driver that itself loads the system's libEGL/libGL (NVIDIA's does) needs: with the
//!   soname symlinks it would load ArenaGL in their place. The vendor list keeps the system's own
//!   vendors after ArenaGL's (the inherited list, or glvnd's vendor directories), since that
//!   driver also needs its own EGL vendor to start. `--via auto` (the default) picks
//!   `glvnd` when the system has glvnd (`libGLdispatch.so.0` and `libGLX.so.0` in a system library
//!   directory) and `sonames` otherwise.
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
    // glvnd's GLX and OpenGL libraries: GLFW 3.4 loads libGLX.so.0 before libGL.so.1 for GLX, and
    // libOpenGL.so.0 for GL functions under EGL; glvnd's copies would dispatch to Mesa (or, with
    // ArenaGL's EGL current, to nothing). ArenaGL exports the GLX and GL functions they carry.
    "libGLX.so.0",
    "libGLX.so",
    "libOpenGL.so.0",
    "libOpenGL.so",
];
/// The glvnd EGL vendor name of the library, which the vendor JSON points at.
const VENDOR_LIB: &str = "libEGL_arenagl.so.0";
/// The glvnd GLX vendor file libGLX loads for `__GLX_VENDOR_LIBRARY_NAME=arenagl`.
const GLX_VENDOR_LIB: &str = "libGLX_arenagl.so.0";
/// The GLX vendor name.
const GLX_VENDOR_NAME: &str = "arenagl";
/// Where a system's glvnd lives (Debian multiarch first).
const SYSTEM_LIB_DIRS: &[&str] = &[
    "/usr/lib/x86_64-linux-gnu",
    "/lib/x86_64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu",
    "/usr/lib64",
    "/usr/lib",
];

/// How ArenaGL is put in front of the system's EGL/GL.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// `glvnd` when the system has glvnd, else `sonames`.
    Auto,
    /// Only glvnd's vendor selection: the system's libEGL/libGL stay what they are.
    Glvnd,
    /// Soname symlinks first on `LD_LIBRARY_PATH` (plus the glvnd variables).
    Sonames,
}

/// Whether the system has glvnd: its dispatch library and libGLX in one of `dirs`.
pub fn has_glvnd(dirs: &[&str], exists: impl Fn(&Path) -> bool) -> bool {
    dirs.iter().any(|d| {
        let d = Path::new(d);
        exists(&d.join("libGLdispatch.so.0")) && exists(&d.join("libGLX.so.0"))
    })
}

impl Via {
    /// `Auto` resolved against the system (`glvnd`: whether it has glvnd).
    pub fn resolve(self, glvnd: bool) -> Via {
        match (self, glvnd) {
            (Via::Auto, true) => Via::Glvnd,
            (Via::Auto, false) => Via::Sonames,
            (other, _) => other,
        }
    }
}
/// The vendor JSON's file name (glvnd orders vendors by file name; 50 is the usual middle).
const VENDOR_JSON: &str = "50_arenagl.json";

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The libarenagl.so to use (default: $ARENAGL_LIB, else beside this executable, else its
    /// deps/ directory).
    #[arg(long, value_name = "PATH")]
    lib: Option<PathBuf>,
    /// How to put ArenaGL in front: through glvnd's vendor selection (leaves the system's
    /// libEGL/libGL alone, for Vulkan drivers that load them), soname symlinks, or auto (glvnd
    /// when the system has it).
    #[arg(long, value_enum, default_value = "auto")]
    via: Via,
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

/// Fills `dir` with the glvnd vendor symlinks and the vendor JSON and, via sonames, the soname
/// symlinks, all leading to `lib` (an absolute path).
pub fn lay_out(dir: &Path, lib: &Path, via: Via) -> std::io::Result<()> {
    let sonames: &[&str] = if via == Via::Glvnd { &[] } else { SONAMES };
    for name in sonames.iter().chain([&VENDOR_LIB, &GLX_VENDOR_LIB]) {
        std::os::unix::fs::symlink(lib, dir.join(name))?;
    }
    std::fs::write(dir.join(VENDOR_JSON), vendor_json(&dir.join(VENDOR_LIB)))
}

/// glvnd's default directories of EGL vendor files (libglvnd's build default).
const EGL_VENDOR_DIRS: &[&str] = &["/etc/glvnd/egl_vendor.d", "/usr/share/glvnd/egl_vendor.d"];

/// The EGL vendors the system's glvnd would load without ArenaGL: the inherited
/// `__EGL_VENDOR_LIBRARY_FILENAMES` when set, else the `.json` files of
/// `__EGL_VENDOR_LIBRARY_DIRS` (or glvnd's default directories), in file-name order.
pub fn other_egl_vendors(files: Option<&OsStr>, dirs: Option<&OsStr>) -> Vec<PathBuf> {
    if let Some(files) = files.filter(|f| !f.is_empty()) {
        return std::env::split_paths(files).collect();
    }
    let dirs: Vec<PathBuf> = match dirs.filter(|d| !d.is_empty()) {
        Some(d) => std::env::split_paths(d).collect(),
        None => EGL_VENDOR_DIRS.iter().map(PathBuf::from).collect(),
    };
    let mut found = Vec::new();
    for dir in dirs {
        let mut jsons: Vec<PathBuf> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        jsons.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
        found.extend(jsons);
    }
    found
}

/// The variables the child gets on top of the inherited environment. The directory is first on
/// `LD_LIBRARY_PATH` either way: glvnd's libGLX finds `libGLX_arenagl.so.0` there by name.
/// `__EGL_VENDOR_LIBRARY_FILENAMES` names ArenaGL's vendor first, then `other_vendors` (see
/// [`other_egl_vendors`]): glvnd asks vendors in that order, so ArenaGL answers the program's
/// displays, while a Vulkan driver that itself goes through glvnd's libEGL (NVIDIA's loads its
/// `libEGL_nvidia` vendor that way, and fails to start without it) still finds its own.
pub fn child_env(
    dir: &Path,
    inherited_ld_path: Option<&OsStr>,
    other_vendors: &[PathBuf],
    via: Via,
) -> Vec<(&'static str, OsString)> {
    let mut ld_path = dir.as_os_str().to_owned();
    if let Some(old) = inherited_ld_path.filter(|p| !p.is_empty()) {
        ld_path.push(":");
        ld_path.push(old);
    }
    let ours = dir.join(VENDOR_JSON);
    let vendors = std::iter::once(&ours).chain(other_vendors.iter().filter(|v| **v != ours));
    let vendors = std::env::join_paths(vendors).unwrap_or_else(|_| ours.clone().into_os_string());
    let mut env = vec![
        ("LD_LIBRARY_PATH", ld_path),
        ("__EGL_VENDOR_LIBRARY_FILENAMES", vendors),
        ("__GLX_VENDOR_LIBRARY_NAME", GLX_VENDOR_NAME.into()),
    ];
    if via != Via::Glvnd {
        env.push((
            "GLCONTEXT_LINUX_LIBEGL",
            dir.join("libEGL.so.1").into_os_string(),
        ));
        env.push((
            "GLCONTEXT_LINUX_LIBGL",
            dir.join("libGL.so.1").into_os_string(),
        ));
    }
    env
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

    let via = args.via.resolve(has_glvnd(SYSTEM_LIB_DIRS, Path::exists));
    let dir = PrivateDir::create()?;
    lay_out(&dir.0, &lib, via).map_err(|source| RunError::Setup {
        what: format!("link {} in {}", lib.display(), dir.0.display()),
        source,
    })?;

    let (program, rest) = args
        .command
        .split_first()
        .ok_or("no command given (usage: arenagl run -- <command…>)")?;
    let inherited = std::env::var_os("LD_LIBRARY_PATH");
    let others = other_egl_vendors(
        std::env::var_os("__EGL_VENDOR_LIBRARY_FILENAMES").as_deref(),
        std::env::var_os("__EGL_VENDOR_LIBRARY_DIRS").as_deref(),
    );
    let mut child = Command::new(program)
        .args(rest)
        .envs(child_env(&dir.0, inherited.as_deref(), &others, via))
        .spawn()
        .map_err(|source| RunError::Spawn {
            program: program.clone(),
            source,
        })?;

    let pid = child.id();
    let how = match via {
        Via::Glvnd => "as glvnd's EGL and GLX vendor",
        Via::Sonames | Via::Auto => "by soname",
    };
    eprintln!(
        "arenagl run: {program} is pid {pid}, on {} ({how})",
        lib.display()
    );
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

    /// A private directory laid out `via` for a stand-in library file inside it (`real/`), and
    /// that file's path.
    fn laid_out(via: Via) -> (PrivateDir, PathBuf) {
        let dir = PrivateDir::create().expect("temp dir");
        let lib = dir.0.join("real").join(LIB_NAME);
        std::fs::create_dir(lib.parent().expect("parent")).expect("mkdir");
        std::fs::write(&lib, b"not really ELF").expect("write");
        lay_out(&dir.0, &lib, via).expect("lay out");
        (dir, lib)
    }

    #[test]
    fn lay_out_links_every_soname_and_the_vendor_json_to_the_library() {
        let (dir, lib) = laid_out(Via::Sonames);
        let expected = [
            "libEGL.so.1",
            "libEGL.so",
            "libGL.so.1",
            "libGL.so",
            "libGLESv2.so.2",
            "libGLESv2.so",
            "libGLX.so.0",
            "libOpenGL.so.0",
            "libEGL_arenagl.so.0",
            "libGLX_arenagl.so.0",
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
        let others = [
            PathBuf::from("/v/10_nvidia.json"),
            PathBuf::from("/v/50_mesa.json"),
        ];
        let env = child_env(dir, Some(OsStr::new("/opt/lib")), &others, Via::Sonames);
        let get = |k: &str| env.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone());
        assert_eq!(
            get("LD_LIBRARY_PATH"),
            Some("/tmp/arenagl-run-1:/opt/lib".into())
        );
        assert_eq!(
            get("__EGL_VENDOR_LIBRARY_FILENAMES"),
            Some("/tmp/arenagl-run-1/50_arenagl.json:/v/10_nvidia.json:/v/50_mesa.json".into()),
            "ArenaGL first, then the vendors the system would have loaded"
        );
        assert_eq!(
            get("GLCONTEXT_LINUX_LIBEGL"),
            Some("/tmp/arenagl-run-1/libEGL.so.1".into())
        );
        assert_eq!(get("__GLX_VENDOR_LIBRARY_NAME"), Some("arenagl".into()));
        let env = child_env(dir, None, &[], Via::Sonames);
        assert_eq!(env[0].1, OsString::from("/tmp/arenagl-run-1"));
    }

    #[test]
    fn via_glvnd_links_only_the_vendors_and_overrides_no_soname() {
        let (dir, lib) = laid_out(Via::Glvnd);
        for name in ["libEGL_arenagl.so.0", "libGLX_arenagl.so.0"] {
            assert_eq!(std::fs::read_link(dir.0.join(name)).expect(name), lib);
        }
        for name in SONAMES {
            assert!(!dir.0.join(name).exists(), "{name} is left to the system");
        }
        let env = child_env(&dir.0, None, &[], Via::Glvnd);
        let keys: Vec<&str> = env.iter().map(|(k, _)| *k).collect();
        assert!(keys.contains(&"__GLX_VENDOR_LIBRARY_NAME"));
        assert!(!keys.contains(&"GLCONTEXT_LINUX_LIBGL"), "{keys:?}");
    }

    #[test]
    fn the_other_egl_vendors_are_the_inherited_list_or_the_directories_json_files() {
        let listed = other_egl_vendors(Some(OsStr::new("/a/10_x.json:/b/50_y.json")), None);
        assert_eq!(
            listed,
            [PathBuf::from("/a/10_x.json"), PathBuf::from("/b/50_y.json")]
        );
        let dir = PrivateDir::create().expect("temp dir");
        for name in ["50_mesa.json", "10_nvidia.json", "README"] {
            std::fs::write(dir.0.join(name), b"{}").expect("write");
        }
        let found = other_egl_vendors(None, Some(dir.0.as_os_str()));
        assert_eq!(
            found,
            [dir.0.join("10_nvidia.json"), dir.0.join("50_mesa.json")],
            "JSON files only, in file-name order"
        );
    }

    #[test]
    fn auto_picks_glvnd_only_where_the_system_has_it() {
        let glvnd = only(&["/usr/lib/libGLdispatch.so.0", "/usr/lib/libGLX.so.0"]);
        assert!(has_glvnd(&["/usr/lib64", "/usr/lib"], &glvnd));
        assert!(!has_glvnd(&["/usr/lib"], only(&["/usr/lib/libGL.so.1"])));
        assert_eq!(Via::Auto.resolve(true), Via::Glvnd);
        assert_eq!(Via::Auto.resolve(false), Via::Sonames);
        assert_eq!(Via::Sonames.resolve(true), Via::Sonames);
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
            via: Via::Sonames,
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
