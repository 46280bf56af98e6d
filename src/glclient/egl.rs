//! The EGL side of a session: the entry points, the surfaceless display, a GL 3.3 core context and
//! a pbuffer, made current; torn down in reverse on drop.
//!
//! Design decisions:
//! - Only `eglGetProcAddress` is looked up in the library (`dlsym`); every other EGL function,
//!   core or extension, is reached through it, as GL loaders (glad, glcontext, SDL) do. That is
//!   the contract ArenaGL's `libarenagl.so` must honour, so the client tests it on every run.
//! - The setup is identical for every implementation: `eglGetPlatformDisplayEXT` on
//!   `EGL_PLATFORM_SURFACELESS_MESA` (no X server, no GBM device), one config request, one
//!   context request. A failure names the call and the `eglGetError` code in hex.

use std::ffi::{c_char, c_void, CStr};
use std::ptr::null_mut;

use arenagl_present::egl::*;

use super::GlClientError;

type Handle = *mut c_void;
/// `eglGetProcAddress`.
pub type GetProcAddress = unsafe extern "C" fn(*const c_char) -> *mut c_void;

/// The EGL entry points the client uses, as their C signatures.
struct EglFns {
    get_platform_display_ext: unsafe extern "C" fn(EGLenum, Handle, *const EGLint) -> Handle,
    initialize: unsafe extern "C" fn(Handle, *mut EGLint, *mut EGLint) -> u32,
    terminate: unsafe extern "C" fn(Handle) -> u32,
    choose_config:
        unsafe extern "C" fn(Handle, *const EGLint, *mut Handle, EGLint, *mut EGLint) -> u32,
    bind_api: unsafe extern "C" fn(EGLenum) -> u32,
    create_context: unsafe extern "C" fn(Handle, Handle, Handle, *const EGLint) -> Handle,
    destroy_context: unsafe extern "C" fn(Handle, Handle) -> u32,
    create_pbuffer_surface: unsafe extern "C" fn(Handle, Handle, *const EGLint) -> Handle,
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
        macro_rules! load {
            ($name:literal) => {{
                let f = get($name)?;
                // SAFETY: `f` is the non-NULL address of the named EGL function and the
                // destination field's type is its C signature (inferred from the field).
                unsafe { as_fn(f) }
            }};
        }
        Ok(EglFns {
            get_platform_display_ext: load!(c"eglGetPlatformDisplayEXT"),
            initialize: load!(c"eglInitialize"),
            terminate: load!(c"eglTerminate"),
            choose_config: load!(c"eglChooseConfig"),
            bind_api: load!(c"eglBindAPI"),
            create_context: load!(c"eglCreateContext"),
            destroy_context: load!(c"eglDestroyContext"),
            create_pbuffer_surface: load!(c"eglCreatePbufferSurface"),
            destroy_surface: load!(c"eglDestroySurface"),
            make_current: load!(c"eglMakeCurrent"),
            swap_buffers: load!(c"eglSwapBuffers"),
            get_error: load!(c"eglGetError"),
            release_thread: load!(c"eglReleaseThread"),
        })
    }
}

/// A surfaceless display with a GL 3.3 core context current on a pbuffer.
pub struct EglContext {
    fns: EglFns,
    display: Handle,
    context: Handle,
    surface: Handle,
    /// The EGL version `eglInitialize` reported.
    pub version: (EGLint, EGLint),
}

impl EglContext {
    /// Sets everything up and makes the context current on this thread.
    ///
    /// # Safety
    /// `get_proc_address` is a libEGL's `eglGetProcAddress`, and the library stays loaded for as
    /// long as the returned value (and any GL function resolved while it is current) lives.
    pub unsafe fn create(
        get_proc_address: GetProcAddress,
        width: u32,
        height: u32,
    ) -> Result<EglContext, GlClientError> {
        // SAFETY: the caller's promise.
        let fns = unsafe { EglFns::load(get_proc_address)? };
        // Partially built contexts are torn down by `Drop`, which skips NULL handles.
        let mut egl = EglContext {
            fns,
            display: null_mut(),
            context: null_mut(),
            surface: null_mut(),
            version: (0, 0),
        };
        // SAFETY: this and every EGL call below: the functions are the library's, called with
        // live attribute lists terminated by EGL_NONE and out-pointers to locals.
        egl.display = unsafe {
            (egl.fns.get_platform_display_ext)(
                EGL_PLATFORM_SURFACELESS_MESA,
                EGL_DEFAULT_DISPLAY as Handle,
                std::ptr::null(),
            )
        };
        if egl.display.is_null() {
            return Err(egl.failure("eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA)"));
        }
        let (mut major, mut minor) = (0, 0);
        // SAFETY: see above.
        if unsafe { (egl.fns.initialize)(egl.display, &mut major, &mut minor) } == 0 {
            let e = egl.failure("eglInitialize");
            // Nothing to terminate: initialisation failed.
            egl.display = null_mut();
            return Err(e);
        }
        egl.version = (major, minor);
        let config_attribs = [
            EGL_SURFACE_TYPE,
            EGL_PBUFFER_BIT,
            EGL_RENDERABLE_TYPE,
            EGL_OPENGL_BIT,
            EGL_RED_SIZE,
            8,
            EGL_GREEN_SIZE,
            8,
            EGL_BLUE_SIZE,
            8,
            EGL_ALPHA_SIZE,
            8,
            EGL_DEPTH_SIZE,
            24,
            EGL_STENCIL_SIZE,
            8,
            EGL_NONE,
        ];
        let mut config: Handle = null_mut();
        let mut count = 0;
        // SAFETY: see above; room for one config.
        let ok = unsafe {
            (egl.fns.choose_config)(
                egl.display,
                config_attribs.as_ptr(),
                &mut config,
                1,
                &mut count,
            )
        };
        if ok == 0 {
            return Err(egl.failure("eglChooseConfig"));
        }
        if count < 1 {
            return Err(GlClientError::Egl {
                call: "eglChooseConfig".into(),
                code: EGL_SUCCESS,
                detail: "no config has a pbuffer, GL, RGBA8888, depth 24 and stencil 8".into(),
            });
        }
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
        let to_int = |v: u32| EGLint::try_from(v).unwrap_or(EGLint::MAX);
        let surface_attribs = [
            EGL_WIDTH,
            to_int(width),
            EGL_HEIGHT,
            to_int(height),
            EGL_NONE,
        ];
        // SAFETY: see above.
        egl.surface = unsafe {
            (egl.fns.create_pbuffer_surface)(egl.display, config, surface_attribs.as_ptr())
        };
        if egl.surface.is_null() {
            return Err(egl.failure(&format!("eglCreatePbufferSurface({width}×{height})")));
        }
        // SAFETY: see above.
        let ok =
            unsafe { (egl.fns.make_current)(egl.display, egl.surface, egl.surface, egl.context) };
        if ok == 0 {
            return Err(egl.failure("eglMakeCurrent"));
        }
        Ok(egl)
    }

    /// `eglSwapBuffers` on the pbuffer: no effect on its contents (EGL 1.5 § 3.10.1.1), but it
    /// is the frame boundary every real game loop gives its GL implementation.
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
