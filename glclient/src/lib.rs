//! The client side of GL: the `arenagl` binary and the stress suites (`arenagl-stress`) reaching
//! a GL implementation chosen at run time, purely through a libEGL it loads by path.
//!
//! Design decisions:
//! - A crate of its own so that the binary (`demo`, `scene`, `bench`) and the stress suites share
//!   one loader; it depends on nothing of ArenaGL but the EGL header table in `arenagl-present`.
//! - The binary never links ArenaGL's GL: `--gl arenagl` loads the cdylib `libarenagl.so` like
//!   any other libEGL, so the scenes and the demo measure ArenaGL exactly as a game's loader would
//!   meet it, and the same code runs Mesa llvmpipe (`system`) and Zink (`zink`) for comparison.
//! - A [`Session`] owns the library, the EGL context and the [`Gl`] table; the table is only
//!   reachable through a borrow of the session, which is what keeps the context current while GL
//!   is called.
//! - The library is never unloaded: GL drivers leave threads and exit handlers behind them
//!   (Mesa's llvmpipe rasteriser threads, glvnd's vendor table), and `dlclose` under them is a
//!   known source of crashes at exit; the process ends soon after a session anyway.
//! - A window session owns its X11 window ([`x11`]) and drops it after the EGL display, so the
//!   connection outlives every EGL object made on it.

mod egl;
pub mod gl;
pub mod image;
pub mod program;
mod x11;

use std::fmt;
use std::mem::ManuallyDrop;
use std::path::{Path, PathBuf};

pub use gl::Gl;
pub use image::Image;
pub use x11::WindowEnd;

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
                // skips CPU Vulkan devices (lavapipe) and EGL fails to initialise; with
                // ARENAGL_ZINK_SOFTWARE=0 it is left to pick a hardware device.
                std::env::set_var("MESA_LOADER_DRIVER_OVERRIDE", "zink");
                if std::env::var_os("ARENAGL_ZINK_SOFTWARE").is_none_or(|v| v != "0") {
                    std::env::set_var("LIBGL_ALWAYS_SOFTWARE", "1");
                }
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

fn check_size(width: u32, height: u32) -> Result<(), GlClientError> {
    if width == 0 || height == 0 || width > 16384 || height > 16384 {
        return Err(GlClientError::Usage(format!(
            "size {width}×{height}: each side must be 1..=16384"
        )));
    }
    Ok(())
}

/// A GL 3.3 core context of the chosen implementation, current on this thread on a `width` ×
/// `height` pbuffer or X11 window.
pub struct Session {
    gl: Gl,
    egl: egl::EglContext,
    /// The window of a window session; after `egl`, so it is dropped after the EGL display.
    window: Option<x11::Window>,
    /// Never unloaded (module doc); declared last so it would outlive the rest anyway.
    _library: ManuallyDrop<libloading::Library>,
    implementation: Implementation,
    /// The library loaded (a bare soname for the system's).
    library_path: PathBuf,
    width: u32,
    height: u32,
}

impl Session {
    /// Loads the implementation and makes a context current on a pbuffer.
    pub fn new(
        implementation: &Implementation,
        width: u32,
        height: u32,
    ) -> Result<Session, GlClientError> {
        check_size(width, height)?;
        Session::open(implementation, width, height, None)
    }

    /// Opens a `width` × `height` X11 window titled `title` on `$DISPLAY`, loads the
    /// implementation and makes a context current on the window.
    pub fn new_window(
        implementation: &Implementation,
        width: u32,
        height: u32,
        title: &str,
    ) -> Result<Session, GlClientError> {
        check_size(width, height)?;
        let window = x11::Window::open(width, height, title)?;
        Session::open(implementation, width, height, Some(window))
    }

    fn open(
        implementation: &Implementation,
        width: u32,
        height: u32,
        window: Option<x11::Window>,
    ) -> Result<Session, GlClientError> {
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
        let target = match &window {
            None => egl::Target::Pbuffer { width, height },
            Some(w) => egl::Target::X11Window {
                display: w.display(),
                window: w.id(),
                visual_id: w.visual_id(),
            },
        };
        // SAFETY: the pointer is that library's eglGetProcAddress, and the library is never
        // unloaded; the window (if any) is kept in the session, dropped after the context.
        let egl = unsafe { egl::EglContext::create(get_proc_address, target)? };
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
            window,
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

    /// The window's pending events: `Some` once it is closed or gone (never for a pbuffer).
    pub fn poll_window(&self) -> Option<WindowEnd> {
        self.window.as_ref().and_then(x11::Window::poll)
    }

    /// Whether the window (if any) can still be drawn to.
    pub fn window_alive(&self) -> bool {
        self.window.as_ref().is_none_or(x11::Window::alive)
    }

    /// The surface's size now: a window's follows the window (from the swap after a resize).
    pub fn surface_size(&self) -> Result<(u32, u32), GlClientError> {
        if self.window.is_some() {
            self.egl.surface_size()
        } else {
            Ok((self.width, self.height))
        }
    }

    /// Replaces a pbuffer session's surface with a new `width` × `height` pbuffer (the old one is
    /// destroyed once the new one is current). A window session cannot: its size follows the
    /// window.
    pub fn resize_pbuffer(&mut self, width: u32, height: u32) -> Result<(), GlClientError> {
        check_size(width, height)?;
        if self.window.is_some() {
            return Err(GlClientError::Usage(
                "a window session's surface follows the window; only a pbuffer is replaced".into(),
            ));
        }
        self.egl.replace_pbuffer(width, height)?;
        self.width = width;
        self.height = height;
        Ok(())
    }

    /// Resizes a window session's window to `width` × `height` and waits for the X server; the
    /// EGL surface takes the new size at a later frame boundary ([`Session::surface_size`]
    /// says when). A pbuffer session has no window ([`Session::resize_pbuffer`]).
    pub fn resize_window(&mut self, width: u32, height: u32) -> Result<(), GlClientError> {
        check_size(width, height)?;
        let Some(window) = &self.window else {
            return Err(GlClientError::Usage(
                "a pbuffer session has no window to resize".into(),
            ));
        };
        window.resize(width, height)?;
        self.width = width;
        self.height = height;
        Ok(())
    }

    /// Whether the session draws to an X11 window (else a pbuffer).
    pub fn is_window(&self) -> bool {
        self.window.is_some()
    }

    /// One of ArenaGL's memory-manager counters by name (`arenagl_memory_stat`, e.g.
    /// `swapchains_created`). `None` when the library has no such export (every other
    /// implementation) or does not know the name.
    pub fn memory_stat(&self, name: &std::ffi::CStr) -> Option<u64> {
        // SAFETY: ArenaGL exports `arenagl_memory_stat` as `u64 (const char *)`; a library that
        // exports a symbol of that name with another type is not supported.
        let f = unsafe {
            self._library
                .get::<unsafe extern "C" fn(*const std::ffi::c_char) -> u64>(
                    b"arenagl_memory_stat\0",
                )
        }
        .ok()?;
        // SAFETY: as above; `name` is NUL-terminated and outlives the call.
        let value = unsafe { f(name.as_ptr()) };
        (value != u64::MAX).then_some(value)
    }

    /// A `u64 (void)` function the loaded library exports, called: ArenaGL's diagnostic exports
    /// (`arenagl_validation_error_count`). `None` when the library has no such symbol (every
    /// other implementation).
    pub fn exported_counter(&self, name: &std::ffi::CStr) -> Option<u64> {
        // SAFETY: ArenaGL's diagnostic counters are exported as `u64 (void)` C functions; a
        // library that exports a symbol of that name with another type is not supported.
        let f = unsafe {
            self._library
                .get::<unsafe extern "C" fn() -> u64>(name.to_bytes_with_nul())
        }
        .ok()?;
        // SAFETY: as above; the counter only reads an atomic.
        Some(unsafe { f() })
    }

    /// Reads the whole surface back, top row first: the pbuffer, or a window's back buffer
    /// (meaningful only before the swap that presents it).
    pub fn read_image(&self) -> Result<Image, GlClientError> {
        let (width, height) = self.surface_size()?;
        let rows = self.gl.read_pixels_rgba8(0, 0, width, height);
        self.gl.check_error("glReadPixels")?;
        Ok(Image::from_gl_rows(width, height, rows))
    }
}
