//! The EGL side of a session: the entry points, a display, a GL 3.3 core context and its surface
//! (a pbuffer on the surfaceless display, or an X11 window on that window's connection), made
//! current; torn down in reverse on drop.
//!
//! Design decisions:
//! - Only `eglGetProcAddress` is looked up in the library (`dlsym`); every other EGL function,
//!   core or extension, is reached through it, as GL loaders (glad, glcontext, SDL) do. That is
//!   the contract ArenaGL's `libarenagl.so` must honour, so the client tests it on every run.
//! - The setup is identical for every implementation: `eglGetPlatformDisplayEXT` on
//!   `EGL_PLATFORM_SURFACELESS_MESA` (no X server, no GBM device), one config request, one
//!   context request. A failure names the call and the `eglGetError` code in hex.
//! - A window goes through `eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR, Display*)` (EGL 1.5),
//!   else `eglGetDisplay(Display*)` (a libEGL without the 1.5 entry point), and the config
//!   whose `EGL_NATIVE_VISUAL_ID` is the window's visual when one has it (Mesa insists on it for
//!   some visuals; ArenaGL reports no visual and takes any window).

use std::ffi::{c_char, c_void, CStr};
use std::ptr::null_mut;

use arenagl_present::egl::*;

use super::GlClientError;

type Handle = *mut c_void;
/// `eglGetProcAddress`.
pub type GetProcAddress = unsafe extern "C" fn(*const c_char) -> *mut c_void;

/// The EGL entry points the client uses, as their C signatures.
struct EglFns {
    /// Needed only for the surfaceless display.
    get_platform_display_ext:
        Option<unsafe extern "C" fn(EGLenum, Handle, *const EGLint) -> Handle>,
    /// EGL 1.5; windows fall back to `eglGetDisplay` without it.
    get_platform_display: Option<unsafe extern "C" fn(EGLenum, Handle, *const EGLAttrib) -> Handle>,
    get_display: unsafe extern "C" fn(Handle) -> Handle,
    initialize: unsafe extern "C" fn(Handle, *mut EGLint, *mut EGLint) -> u32,
    terminate: unsafe extern "C" fn(Handle) -> u32,
    choose_config:
        unsafe extern "C" fn(Handle, *const EGLint, *mut Handle, EGLint, *mut EGLint) -> u32,
    bind_api: unsafe extern "C" fn(EGLenum) -> u32,
    create_context: unsafe extern "C" fn(Handle, Handle, Handle, *const EGLint) -> Handle,
    destroy_context: unsafe extern "C" fn(Handle, Handle) -> u32,
    get_config_attrib: unsafe extern "C" fn(Handle, Handle, EGLint, *mut EGLint) -> u32,
    create_pbuffer_surface: unsafe extern "C" fn(Handle, Handle, *const EGLint) -> Handle,
    create_window_surface: unsafe extern "C" fn(Handle, Handle, usize, *const EGLint) -> Handle,
    query_surface: unsafe extern "C" fn(Handle, Handle, EGLint, *mut EGLint) -> u32,
    destroy_surface: unsafe extern "C" fn(Handle, Handle) -> u32,
    make_current: unsafe extern "C" fn(Handle, Handle, Handle, Handle) -> u32,
    swap_buffers: unsafe extern "C" fn(Handle, Handle) -> u32,
    get_error: unsafe extern "C" fn() -> EGLint,
    release_thread: unsafe extern "C" fn() -> u32,
}

/// A function pointer of type `F` from an address.
///
/// # Safety
/// `p` is the address of a function whose C signature is `F` (a function pointer type).
unsafe fn as_fn<F: Copy>(p: *mut c_void) -> F {
    const { assert!(std::mem::size_of::<F>() == std::mem::size_of::<*mut c_void>()) };
    // SAFETY: same size (checked at compile time) and the caller vouches for the type.
    unsafe { std::mem::transmute_copy::<*mut c_void, F>(&p) }
}

impl EglFns {
    /// # Safety
    /// `get_proc_address` is a libEGL's `eglGetProcAddress`.
    unsafe fn load(get_proc_address: GetProcAddress) -> Result<EglFns, GlClientError> {
        let get = |name: &CStr| -> Result<*mut c_void, GlClientError> {
            // SAFETY: `name` is NUL-terminated; the caller vouches for the function.
            let f = unsafe { get_proc_address(name.as_ptr()) };
            if f.is_null() {
                Err(GlClientError::MissingFunction(
                    name.to_string_lossy().into_owned(),
                ))
            } else {
                Ok(f)
            }
        };
        let optional = |name: &CStr| get(name).ok();
        macro_rules! load {
            ($name:literal) => {{
                let f = get($name)?;
                // SAFETY: `f` is the non-NULL address of the named EGL function and the
                // destination field's type is its C signature (inferred from the field).
                unsafe { as_fn(f) }
            }};
        }
        Ok(EglFns {
            // SAFETY: as in `load!`, for the addresses that are there.
            get_platform_display_ext: optional(c"eglGetPlatformDisplayEXT")
                .map(|f| unsafe { as_fn(f) }),
            // SAFETY: as above.
            get_platform_display: optional(c"eglGetPlatformDisplay").map(|f| unsafe { as_fn(f) }),
            get_display: load!(c"eglGetDisplay"),
            initialize: load!(c"eglInitialize"),
            terminate: load!(c"eglTerminate"),
            choose_config: load!(c"eglChooseConfig"),
            bind_api: load!(c"eglBindAPI"),
            create_context: load!(c"eglCreateContext"),
            destroy_context: load!(c"eglDestroyContext"),
            get_config_attrib: load!(c"eglGetConfigAttrib"),
            create_pbuffer_surface: load!(c"eglCreatePbufferSurface"),
            create_window_surface: load!(c"eglCreateWindowSurface"),
            query_surface: load!(c"eglQuerySurface"),
            destroy_surface: load!(c"eglDestroySurface"),
            make_current: load!(c"eglMakeCurrent"),
            swap_buffers: load!(c"eglSwapBuffers"),
            get_error: load!(c"eglGetError"),
            release_thread: load!(c"eglReleaseThread"),
        })
    }
}

/// Where a context's frames go.
#[derive(Debug, Clone, Copy)]
pub enum Target {
    /// A pbuffer on the surfaceless display.
    Pbuffer {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
    /// An X11 window, through an EGL display on the window's own Xlib connection.
    X11Window {
        /// The Xlib `Display*`.
        display: *mut c_void,
        /// The window.
        window: std::ffi::c_ulong,
        /// The window's visual.
        visual_id: std::ffi::c_ulong,
    },
}

/// A display with a GL 3.3 core context current on a pbuffer or a window surface.
pub struct EglContext {
    fns: EglFns,
    display: Handle,
    context: Handle,
    surface: Handle,
    /// The config the context and surface were made with (a replacement pbuffer uses it too).
    config: Handle,
    /// The EGL version `eglInitialize` reported.
    pub version: (EGLint, EGLint),
}

/// Configs considered when looking for the window's visual.
const MAX_CONFIGS: usize = 64;

impl EglContext {
    /// Sets everything up and makes the context current on this thread.
    ///
    /// # Safety
    /// `get_proc_address` is a libEGL's `eglGetProcAddress`, and the library stays loaded for as
    /// long as the returned value (and any GL function resolved while it is current) lives; an
    /// X11 target's connection and window outlive the returned value.
    pub unsafe fn create(
        get_proc_address: GetProcAddress,
        target: Target,
    ) -> Result<EglContext, GlClientError> {
        // SAFETY: the caller's promise.
        let fns = unsafe { EglFns::load(get_proc_address)? };
        // Partially built contexts are torn down by `Drop`, which skips NULL handles.
        let mut egl = EglContext {
            fns,
            display: null_mut(),
            context: null_mut(),
            surface: null_mut(),
            config: null_mut(),
            version: (0, 0),
        };
        egl.display = egl.open_display(target)?;
        let (mut major, mut minor) = (0, 0);
        // SAFETY: this and every EGL call below: the functions are the library's, called with
        // live attribute lists terminated by EGL_NONE and out-pointers to locals.
        if unsafe { (egl.fns.initialize)(egl.display, &mut major, &mut minor) } == 0 {
            let e = egl.failure("eglInitialize");
            // Nothing to terminate: initialisation failed.
            egl.display = null_mut();
            return Err(e);
        }
        egl.version = (major, minor);
        let config = egl.choose_config(target)?;
        egl.config = config;
        // SAFETY: see above.
        if unsafe { (egl.fns.bind_api)(EGL_OPENGL_API) } == 0 {
            return Err(egl.failure("eglBindAPI(EGL_OPENGL_API)"));
        }
        let context_attribs = [
            EGL_CONTEXT_MAJOR_VERSION,
            3,
            EGL_CONTEXT_MINOR_VERSION,
            3,
            EGL_CONTEXT_OPENGL_PROFILE_MASK,
            EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
            EGL_NONE,
        ];
        // SAFETY: see above.
        egl.context = unsafe {
            (egl.fns.create_context)(egl.display, config, null_mut(), context_attribs.as_ptr())
        };
        if egl.context.is_null() {
            return Err(egl.failure("eglCreateContext(GL 3.3 core)"));
        }
        egl.surface = match target {
            Target::Pbuffer { width, height } => egl.create_pbuffer(width, height)?,
            Target::X11Window { window, .. } => {
                // SAFETY: see above; the caller keeps the window alive.
                let surface = unsafe {
                    (egl.fns.create_window_surface)(
                        egl.display,
                        config,
                        window as usize,
                        std::ptr::null(),
                    )
                };
                if surface.is_null() {
                    return Err(
                        egl.failure(&format!("eglCreateWindowSurface(window 0x{window:x})"))
                    );
                }
                surface
            }
        };
        // SAFETY: see above.
        let ok =
            unsafe { (egl.fns.make_current)(egl.display, egl.surface, egl.surface, egl.context) };
        if ok == 0 {
            return Err(egl.failure("eglMakeCurrent"));
        }
        Ok(egl)
    }

    /// A `width` × `height` pbuffer of this context's config.
    fn create_pbuffer(&self, width: u32, height: u32) -> Result<Handle, GlClientError> {
        let to_int = |v: u32| EGLint::try_from(v).unwrap_or(EGLint::MAX);
        let surface_attribs = [
            EGL_WIDTH,
            to_int(width),
            EGL_HEIGHT,
            to_int(height),
            EGL_NONE,
        ];
        // SAFETY: the display is initialised and the config is one of its own; the attribute
        // list is terminated by EGL_NONE.
        let surface = unsafe {
            (self.fns.create_pbuffer_surface)(self.display, self.config, surface_attribs.as_ptr())
        };
        if surface.is_null() {
            return Err(self.failure(&format!("eglCreatePbufferSurface({width}×{height})")));
        }
        Ok(surface)
    }

    /// Replaces a pbuffer session's surface with a new `width` × `height` pbuffer: created,
    /// made current, and only then is the old one destroyed (what a game does when its
    /// off-screen target changes size). On failure the old surface stays current.
    pub fn replace_pbuffer(&mut self, width: u32, height: u32) -> Result<(), GlClientError> {
        let surface = self.create_pbuffer(width, height)?;
        // SAFETY: the display, the new surface and the context are live and were made together.
        let ok = unsafe { (self.fns.make_current)(self.display, surface, surface, self.context) };
        if ok == 0 {
            let e = self.failure("eglMakeCurrent(replacement pbuffer)");
            // SAFETY: the new surface is not current (the call failed) and is destroyed once.
            unsafe { (self.fns.destroy_surface)(self.display, surface) };
            return Err(e);
        }
        let old = std::mem::replace(&mut self.surface, surface);
        // SAFETY: the old surface is no longer current on this thread and is destroyed once.
        if unsafe { (self.fns.destroy_surface)(self.display, old) } == 0 {
            return Err(self.failure("eglDestroySurface(old pbuffer)"));
        }
        Ok(())
    }

    /// The target's display, not yet initialised.
    fn open_display(&self, target: Target) -> Result<Handle, GlClientError> {
        let display = match target {
            Target::Pbuffer { .. } => {
                let get = self.fns.get_platform_display_ext.ok_or_else(|| {
                    GlClientError::MissingFunction("eglGetPlatformDisplayEXT".into())
                })?;
                // SAFETY: the library's function, with a NULL attribute list.
                let display = unsafe {
                    get(
                        EGL_PLATFORM_SURFACELESS_MESA,
                        EGL_DEFAULT_DISPLAY as Handle,
                        std::ptr::null(),
                    )
                };
                if display.is_null() {
                    return Err(
                        self.failure("eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA)")
                    );
                }
                display
            }
            Target::X11Window { display: x, .. } => {
                let platform = self.fns.get_platform_display.and_then(|get| {
                    // SAFETY: the library's function, with the caller's live connection and a
                    // NULL attribute list.
                    let display = unsafe { get(EGL_PLATFORM_X11_KHR, x, std::ptr::null()) };
                    (!display.is_null()).then_some(display)
                });
                match platform {
                    Some(display) => display,
                    None => {
                        // SAFETY: as above; on X11 `EGLNativeDisplayType` is `Display*`.
                        let display = unsafe { (self.fns.get_display)(x) };
                        if display.is_null() {
                            return Err(self.failure(
                                "eglGetPlatformDisplay(EGL_PLATFORM_X11_KHR) and \
                                 eglGetDisplay(Display*)",
                            ));
                        }
                        display
                    }
                }
            }
        };
        Ok(display)
    }

    /// A GL, RGB(A)8, depth 24, stencil 8 config for the target's kind of surface; for a
    /// window, the first one with the window's visual if any has it.
    fn choose_config(&self, target: Target) -> Result<Handle, GlClientError> {
        let (surface_type, alpha, wanted_visual) = match target {
            Target::Pbuffer { .. } => (EGL_PBUFFER_BIT, 8, None),
            // Alpha at least 0: a window's visual usually has none.
            Target::X11Window { visual_id, .. } => (EGL_WINDOW_BIT, 0, Some(visual_id)),
        };
        let config_attribs = [
            EGL_SURFACE_TYPE,
            surface_type,
            EGL_RENDERABLE_TYPE,
            EGL_OPENGL_BIT,
            EGL_RED_SIZE,
            8,
            EGL_GREEN_SIZE,
            8,
            EGL_BLUE_SIZE,
            8,
            EGL_ALPHA_SIZE,
            alpha,
            EGL_DEPTH_SIZE,
            24,
            EGL_STENCIL_SIZE,
            8,
            EGL_NONE,
        ];
        let mut configs = [null_mut(); MAX_CONFIGS];
        let mut count = 0;
        // SAFETY: room for MAX_CONFIGS configs, said in the size argument.
        let ok = unsafe {
            (self.fns.choose_config)(
                self.display,
                config_attribs.as_ptr(),
                configs.as_mut_ptr(),
                MAX_CONFIGS as EGLint,
                &mut count,
            )
        };
        if ok == 0 {
            return Err(self.failure("eglChooseConfig"));
        }
        let found = &configs[..usize::try_from(count).unwrap_or(0).min(MAX_CONFIGS)];
        let Some(&first) = found.first() else {
            let surface = if surface_type == EGL_WINDOW_BIT {
                "a window"
            } else {
                "a pbuffer"
            };
            return Err(GlClientError::Egl {
                call: "eglChooseConfig".into(),
                code: EGL_SUCCESS,
                detail: format!("no config has {surface}, GL, RGB8, depth 24 and stencil 8"),
            });
        };
        let Some(visual) = wanted_visual else {
            return Ok(first);
        };
        let matching = found.iter().copied().find(|&config| {
            let mut id = 0;
            // SAFETY: a config of this display, an out-pointer to a local.
            let ok = unsafe {
                (self.fns.get_config_attrib)(self.display, config, EGL_NATIVE_VISUAL_ID, &mut id)
            };
            ok != 0 && std::ffi::c_ulong::try_from(id).is_ok_and(|id| id == visual)
        });
        Ok(matching.unwrap_or(first))
    }

    /// The surface's current size (a window's follows the window from the swap after a resize).
    pub fn surface_size(&self) -> Result<(u32, u32), GlClientError> {
        let query = |attribute: EGLint, name: &str| {
            let mut v = 0;
            // SAFETY: the display and surface are live; an out-pointer to a local.
            let ok =
                unsafe { (self.fns.query_surface)(self.display, self.surface, attribute, &mut v) };
            if ok == 0 {
                return Err(self.failure(&format!("eglQuerySurface({name})")));
            }
            u32::try_from(v).map_err(|_| GlClientError::Egl {
                call: format!("eglQuerySurface({name})"),
                code: EGL_SUCCESS,
                detail: format!("a negative size {v}"),
            })
        };
        Ok((
            query(EGL_WIDTH, "EGL_WIDTH")?,
            query(EGL_HEIGHT, "EGL_HEIGHT")?,
        ))
    }

    /// `eglSwapBuffers`: presents a window's back buffer (leaving the new back buffer's contents
    /// undefined); on a pbuffer no effect on its contents (EGL 1.5 § 3.10.1.1), but it is the
    /// frame boundary every real game loop gives its GL implementation.
    pub fn swap_buffers(&self) -> Result<(), GlClientError> {
        // SAFETY: the display and surface are live and the surface is current on this thread.
        if unsafe { (self.fns.swap_buffers)(self.display, self.surface) } == 0 {
            return Err(self.failure("eglSwapBuffers"));
        }
        Ok(())
    }

    /// The error of a failed `call`, with `eglGetError`.
    fn failure(&self, call: &str) -> GlClientError {
        // SAFETY: eglGetError takes nothing and only reads this thread's error.
        let code = unsafe { (self.fns.get_error)() };
        GlClientError::Egl {
            call: call.to_owned(),
            code,
            detail: error_name(code).to_owned(),
        }
    }
}

impl Drop for EglContext {
    fn drop(&mut self) {
        if self.display.is_null() {
            return;
        }
        // SAFETY: the handles were created on this display by these functions and are released
        // once, current first; a failing call here has nothing left to protect.
        unsafe {
            (self.fns.make_current)(self.display, null_mut(), null_mut(), null_mut());
            if !self.surface.is_null() {
                (self.fns.destroy_surface)(self.display, self.surface);
            }
            if !self.context.is_null() {
                (self.fns.destroy_context)(self.display, self.context);
            }
            (self.fns.terminate)(self.display);
            (self.fns.release_thread)();
        }
    }
}
