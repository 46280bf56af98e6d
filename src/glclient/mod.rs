//! The client side of GL: the `arenagl` binary reaching a GL implementation chosen at run time,
//! purely through a libEGL it loads by path.
//!
//! Design decisions:
//! - The binary never links ArenaGL's GL: `--gl arenagl` loads the cdylib `libarenagl.so` like
//!   any other libEGL, so the scenes and the demo measure ArenaGL exactly as a game's loader would
//!   meet it, and the same code runs Mesa llvmpipe (`system`) and Zink (`zink`) for comparison.
//! - A [`Session`] owns the library, the EGL context and the [`Gl`] table; the table is only
//!   reachable through a borrow of the session, which is what keeps the context current while GL
//!   is called.
//! - The library is never unloaded: GL drivers leave threads and exit handlers behind them
//!   (Mesa's llvmpipe rasteriser threads, glvnd's vendor table), and `dlclose` under them is a
//!   known source of crashes at exit; the process ends soon after a session anyway.

mod egl;
pub mod gl;
pub mod image;
pub mod program;

use std::fmt;
use std::mem::ManuallyDrop;
use std::path::{Path, PathBuf};

pub use gl::Gl;
pub use image::Image;

/// What can go wrong on the client side.
#[derive(Debug, thiserror::Error)]
pub enum GlClientError {
    /// The implementation's library is not there or does not load.
    #[error("cannot load {path}: {reason}")]
    Load {
        /// The library.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// An EGL or GL function the client needs resolves to NULL.
    #[error("the implementation has no {0} (eglGetProcAddress returned NULL)")]
    MissingFunction(String),
    /// An EGL call failed.
    #[error("{call} failed: eglGetError 0x{code:04X} ({detail})")]
    Egl {
        /// The call.
        call: String,
        /// `eglGetError`.
        code: i32,
        /// The code's name, or what went wrong.
        detail: String,
    },
    /// GL reported errors.
    #[error("{what}: {errors}")]
    Gl {
        /// What was being done.
        what: String,
        /// The `glGetError` codes, by name.
        errors: String,
    },
    /// A shader did not compile or a program did not link.
    #[error("{what}:\n{log}")]
    Shader {
        /// Which shader or program.
        what: String,
        /// The info log.
        log: String,
    },
    /// The client was asked something it cannot do.
    #[error("{0}")]
    Usage(String),
    /// Writing an output file failed.
    #[error("cannot write {path}: {reason}")]
    Output {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

/// Which GL implementation to load (`--gl`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Implementation {
    /// ArenaGL's `libarenagl.so`: `$ARENAGL_LIB`, else beside the executable.
    ArenaGl,
    /// The system's `libEGL.so.1` (glvnd → Mesa; llvmpipe without a GPU).
    System,
    /// The system's libEGL with Mesa's Zink forced, on lavapipe.
    Zink,
    /// Any libEGL, by path.
    Path(PathBuf),
}

impl std::str::FromStr for Implementation {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "arenagl" => Implementation::ArenaGl,
            "system" => Implementation::System,
            "zink" => Implementation::Zink,
            "" => return Err("empty --gl: use arenagl, system, zink or a libEGL path".into()),
            path => Implementation::Path(PathBuf::from(path)),
        })
    }
}

impl fmt::Display for Implementation {
    /// The label scripts see (`gl=` in the result lines).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Implementation::ArenaGl => f.write_str("arenagl"),
            Implementation::System => f.write_str("system"),
            Implementation::Zink => f.write_str("zink"),
            Implementation::Path(p) => write!(f, "{}", p.display()),
        }
    }
}

/// The system's glvnd libEGL.
const SYSTEM_LIBEGL: &str = "libEGL.so.1";
/// ArenaGL's cdylib.
const ARENAGL_LIB: &str = "libarenagl.so";

impl Implementation {
    /// The library to load, after preparing the environment it needs.
    fn library(&self) -> Result<PathBuf, GlClientError> {
        match self {
            Implementation::ArenaGl => arenagl_library(),
            Implementation::System => Ok(PathBuf::from(SYSTEM_LIBEGL)),
            Implementation::Zink => {
                // Mesa reads these when its EGL driver loads, which is after this point; the
                // process is still single-threaded here. Without LIBGL_ALWAYS_SOFTWARE Zink
                // skips CPU Vulkan devices (lavapipe) and EGL fails to initialise.
                std::env::set_var("MESA_LOADER_DRIVER_OVERRIDE", "zink");
                std::env::set_var("LIBGL_ALWAYS_SOFTWARE", "1");
                Ok(PathBuf::from(SYSTEM_LIBEGL))
            }
            Implementation::Path(p) => {
                if p.exists() {
                    Ok(p.clone())
                } else {
                    Err(GlClientError::Load {
                        path: p.clone(),
                        reason: "no such file".into(),
                    })
                }
            }
        }
    }

    /// Whether this names ArenaGL (`arenagl`, or a path whose file name says so).
    pub fn is_arenagl(&self) -> bool {
        match self {
            Implementation::ArenaGl => true,
            Implementation::Path(p) => p
                .file_name()
                .is_some_and(|n| n.to_string_lossy().contains("arenagl")),
            _ => false,
        }
    }
}

/// `$ARENAGL_LIB`, else the newer of `libarenagl.so` beside the executable and in its `deps/`.
///
/// Newer, because cargo refreshes them differently: `cargo build` (the whole package) copies the
/// cdylib up beside the binary, but `cargo build --bin arenagl` or `cargo run` only rebuilds it
/// in `deps/`, leaving the copy beside the binary stale.
fn arenagl_library() -> Result<PathBuf, GlClientError> {
    if let Some(p) = std::env::var_os("ARENAGL_LIB") {
        let p = PathBuf::from(p);
        return if p.exists() {
            Ok(p)
        } else {
            Err(GlClientError::Load {
                path: p,
                reason: "ARENAGL_LIB names no file".into(),
            })
        };
    }
    let exe = std::env::current_exe().map_err(|e| GlClientError::Load {
        path: PathBuf::from(ARENAGL_LIB),
        reason: format!("cannot find the executable's directory: {e}"),
    })?;
    let dir = exe.parent().unwrap_or(Path::new("."));
    let candidates = [dir.join(ARENAGL_LIB), dir.join("deps").join(ARENAGL_LIB)];
    candidates
        .iter()
        .filter_map(|p| Some((std::fs::metadata(p).ok()?.modified().ok()?, p)))
        .max_by_key(|(modified, _)| *modified)
        .map(|(_, p)| p.clone())
        .ok_or_else(|| GlClientError::Load {
            path: candidates[0].clone(),
            reason: format!(
                "not found there nor in {}; build it (`cargo build -p arenagl --lib`) or set \
                 ARENAGL_LIB",
                candidates[1].display()
            ),
        })
}

/// A GL 3.3 core context of the chosen implementation, current on this thread on a `width` ×
/// `height` pbuffer.
pub struct Session {
    gl: Gl,
    egl: egl::EglContext,
    /// Never unloaded (module doc); declared last so it would outlive the rest anyway.
    _library: ManuallyDrop<libloading::Library>,
    implementation: Implementation,
    /// The library loaded (a bare soname for the system's).
    library_path: PathBuf,
    width: u32,
    height: u32,
}

impl Session {
    /// Loads the implementation and makes a context current.
    pub fn new(
        implementation: &Implementation,
        width: u32,
        height: u32,
    ) -> Result<Session, GlClientError> {
        if width == 0 || height == 0 || width > 16384 || height > 16384 {
            return Err(GlClientError::Usage(format!(
                "size {width}×{height}: each side must be 1..=16384"
            )));
        }
        let path = implementation.library()?;
        // SAFETY: loading a libEGL runs its initialisers, which is what every GL program does;
        // the library is a GL implementation the user chose.
        let library =
            unsafe { libloading::Library::new(&path) }.map_err(|e| GlClientError::Load {
                path: path.clone(),
                reason: e.to_string(),
            })?;
        // SAFETY: `eglGetProcAddress` has exactly this C signature in every libEGL.
        let get_proc_address =
            *unsafe { library.get::<egl::GetProcAddress>(b"eglGetProcAddress\0") }.map_err(
                |e| GlClientError::Load {
                    path: path.clone(),
                    reason: format!("no eglGetProcAddress: {e}"),
                },
            )?;
        // SAFETY: the pointer is that library's eglGetProcAddress, and the library is never
        // unloaded.
        let egl = unsafe { egl::EglContext::create(get_proc_address, width, height)? };
        let resolve = |name: &std::ffi::CStr| {
            // SAFETY: `name` is NUL-terminated; the function is the library's, never unloaded.
            unsafe { get_proc_address(name.as_ptr()) }
        };
        // SAFETY: the context is current on this thread and stays so while `gl` lives: both are
        // owned by the session, which is not Send, and the context is released only on drop.
        let gl = unsafe { Gl::load(resolve)? };
        Ok(Session {
            gl,
            egl,
            _library: ManuallyDrop::new(library),
            implementation: implementation.clone(),
            library_path: path,
            width,
            height,
        })
    }

    /// The GL entry points of the current context.
    pub fn gl(&self) -> &Gl {
        &self.gl
    }

    /// The chosen implementation.
    pub fn implementation(&self) -> &Implementation {
        &self.implementation
    }

    /// The library loaded.
    pub fn library_path(&self) -> &Path {
        &self.library_path
    }

    /// The EGL version the display reported.
    pub fn egl_version(&self) -> (i32, i32) {
        self.egl.version
    }

    /// Ends a frame with `eglSwapBuffers` (see [`egl::EglContext::swap_buffers`]).
    pub fn swap_buffers(&self) -> Result<(), GlClientError> {
        self.egl.swap_buffers()
    }

    /// `GL_RENDERER`.
    pub fn renderer(&self) -> String {
        self.gl.string(gl::consts::RENDERER)
    }

    /// Reads the whole pbuffer back, top row first.
    pub fn read_image(&self) -> Result<Image, GlClientError> {
        let rows = self.gl.read_pixels_rgba8(0, 0, self.width, self.height);
        self.gl.check_error("glReadPixels")?;
        Ok(Image::from_gl_rows(self.width, self.height, rows))
    }
}
