//! The EGL ABI as a real program meets it: `libarenagl.so` loaded by path with the system loader,
//! only `eglGetProcAddress` resolved from the library, every other function reached through it.
//!
//! The library holds one process-wide EGL instance, so the tests share its displays; they take
//! [`SERIAL`] so one test's `eglTerminate` cannot pull objects from under another.

use std::ffi::{c_char, c_void, CStr};
use std::path::PathBuf;
use std::ptr::{null, null_mut};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use arenagl_present::egl::*;

type Handle = *mut c_void;
type GetProcAddress = unsafe extern "C" fn(*const c_char) -> *mut c_void;

/// The entry points the tests use, as their C signatures.
struct Api {
    get_proc_address: GetProcAddress,
    get_platform_display_ext: unsafe extern "C" fn(EGLenum, Handle, *const EGLint) -> Handle,
    initialize: unsafe extern "C" fn(Handle, *mut EGLint, *mut EGLint) -> u32,
    terminate: unsafe extern "C" fn(Handle) -> u32,
    query_string: unsafe extern "C" fn(Handle, EGLint) -> *const c_char,
    get_configs: unsafe extern "C" fn(Handle, *mut Handle, EGLint, *mut EGLint) -> u32,
    choose_config:
        unsafe extern "C" fn(Handle, *const EGLint, *mut Handle, EGLint, *mut EGLint) -> u32,
    bind_api: unsafe extern "C" fn(EGLenum) -> u32,
    create_context: unsafe extern "C" fn(Handle, Handle, Handle, *const EGLint) -> Handle,
    destroy_context: unsafe extern "C" fn(Handle, Handle) -> u32,
    create_pbuffer_surface: unsafe extern "C" fn(Handle, Handle, *const EGLint) -> Handle,
    destroy_surface: unsafe extern "C" fn(Handle, Handle) -> u32,
    query_surface: unsafe extern "C" fn(Handle, Handle, EGLint, *mut EGLint) -> u32,
    make_current: unsafe extern "C" fn(Handle, Handle, Handle, Handle) -> u32,
    get_current_context: unsafe extern "C" fn() -> Handle,
    swap_buffers: unsafe extern "C" fn(Handle, Handle) -> u32,
    get_error: unsafe extern "C" fn() -> EGLint,
    release_thread: unsafe extern "C" fn() -> u32,
}

/// The cdylib cargo built for this test run. The test binary is
/// `target/<profile>/deps/egl_abi-<hash>`; for integration tests cargo leaves the package's cdylib
/// beside it in `deps/` (only `cargo build` copies it up to `target/<profile>/`, where a stale
/// copy may sit), so `deps/` comes first.
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

fn api() -> &'static Api {
    static API: OnceLock<(libloading::Library, Api)> = OnceLock::new();
    &API.get_or_init(|| {
        let path = library_path();
        // SAFETY: loading runs no initialisers that could misbehave: the library is ours and
        // has no constructors.
        let lib = unsafe { libloading::Library::new(&path) }
            .unwrap_or_else(|e| panic!("load {}: {e}", path.display()));
        // SAFETY: the symbol is `eglGetProcAddress` with exactly this C signature.
        let get_proc_address = *unsafe { lib.get::<GetProcAddress>(b"eglGetProcAddress\0") }
            .expect("eglGetProcAddress is exported");
        let p = |name: &CStr| {
            // SAFETY: `name` is NUL-terminated.
            let f = unsafe { get_proc_address(name.as_ptr()) };
            assert!(!f.is_null(), "eglGetProcAddress({name:?}) is NULL");
            f
        };
        macro_rules! load {
            ($name:literal) => {
                // SAFETY: the pointer is the named EGL function and the field's type is its C
                // signature.
                unsafe { as_fn(p($name)) }
            };
        }
        let api = Api {
            get_proc_address,
            get_platform_display_ext: load!(c"eglGetPlatformDisplayEXT"),
            initialize: load!(c"eglInitialize"),
            terminate: load!(c"eglTerminate"),
            query_string: load!(c"eglQueryString"),
            get_configs: load!(c"eglGetConfigs"),
            choose_config: load!(c"eglChooseConfig"),
            bind_api: load!(c"eglBindAPI"),
            create_context: load!(c"eglCreateContext"),
            destroy_context: load!(c"eglDestroyContext"),
            create_pbuffer_surface: load!(c"eglCreatePbufferSurface"),
            destroy_surface: load!(c"eglDestroySurface"),
            query_surface: load!(c"eglQuerySurface"),
            make_current: load!(c"eglMakeCurrent"),
            get_current_context: load!(c"eglGetCurrentContext"),
            swap_buffers: load!(c"eglSwapBuffers"),
            get_error: load!(c"eglGetError"),
            release_thread: load!(c"eglReleaseThread"),
        };
        (lib, api)
    })
    .1
}

/// A `void *` from `eglGetProcAddress` as the function pointer type `F`.
///
/// # Safety
/// `f` points at a function whose C signature `F` is.
unsafe fn as_fn<F: Copy>(f: *mut c_void) -> F {
    assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<*mut c_void>());
    // SAFETY: same size (checked), function and data pointers share one representation on
    // every target the library builds for, and the caller vouches for the signature.
    unsafe { std::mem::transmute_copy(&f) }
}

static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The initialized surfaceless display.
fn surfaceless(api: &Api) -> Handle {
    // SAFETY: a NULL attribute list is allowed; the out-pointers are NULL (allowed) here.
    unsafe {
        let dpy = (api.get_platform_display_ext)(EGL_PLATFORM_SURFACELESS_MESA, null_mut(), null());
        assert!(!dpy.is_null(), "error {:#x}", (api.get_error)());
        assert_eq!((api.initialize)(dpy, null_mut(), null_mut()), 1);
        dpy
    }
}

#[test]
fn pbuffer_context_walk_through_get_proc_address() {
    let _serial = serial();
    let api = api();
    // SAFETY: every call below passes live handles from earlier calls, NUL-terminated names,
    // `EGL_NONE`-terminated lists and out-pointers to locals of the right type and length.
    unsafe {
        let dpy = (api.get_platform_display_ext)(EGL_PLATFORM_SURFACELESS_MESA, null_mut(), null());
        assert!(!dpy.is_null());
        let (mut major, mut minor) = (0, 0);
        assert_eq!((api.initialize)(dpy, &mut major, &mut minor), 1);
        assert_eq!((major, minor), (1, 5));

        let vendor = (api.query_string)(dpy, EGL_VENDOR);
        assert!(!vendor.is_null());
        assert_eq!(CStr::from_ptr(vendor).to_str(), Ok("ArenaGL"));

        let wanted = [
            EGL_SURFACE_TYPE,
            EGL_PBUFFER_BIT,
            EGL_RENDERABLE_TYPE,
            EGL_OPENGL_BIT,
            EGL_NONE,
        ];
        let (mut config, mut count) = (null_mut(), 0);
        assert_eq!(
            (api.choose_config)(dpy, wanted.as_ptr(), &mut config, 1, &mut count),
            1
        );
        assert_eq!(count, 1);
        assert!(!config.is_null());

        assert_eq!((api.bind_api)(EGL_OPENGL_API), 1);
        let core_33 = [
            EGL_CONTEXT_MAJOR_VERSION,
            3,
            EGL_CONTEXT_MINOR_VERSION,
            3,
            EGL_CONTEXT_OPENGL_PROFILE_MASK,
            EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
            EGL_NONE,
        ];
        let ctx = (api.create_context)(dpy, config, null_mut(), core_33.as_ptr());
        assert!(!ctx.is_null(), "error {:#x}", (api.get_error)());

        let size = [EGL_WIDTH, 64, EGL_HEIGHT, 64, EGL_NONE];
        let surface = (api.create_pbuffer_surface)(dpy, config, size.as_ptr());
        assert!(!surface.is_null(), "error {:#x}", (api.get_error)());

        assert_eq!((api.make_current)(dpy, surface, surface, ctx), 1);
        assert_eq!((api.get_current_context)(), ctx);
        let mut width = 0;
        assert_eq!((api.query_surface)(dpy, surface, EGL_WIDTH, &mut width), 1);
        assert_eq!(width, 64);
        assert_eq!((api.swap_buffers)(dpy, surface), 1);
        assert_eq!((api.get_error)(), EGL_SUCCESS);

        assert_eq!((api.release_thread)(), 1);
        assert!((api.get_current_context)().is_null());
        assert_eq!((api.destroy_surface)(dpy, surface), 1);
        assert_eq!((api.destroy_context)(dpy, ctx), 1);
        assert_eq!((api.terminate)(dpy), 1);
        // Terminated: the display answers no more queries until initialized again.
        assert!((api.query_string)(dpy, EGL_VENDOR).is_null());
        assert_eq!((api.get_error)(), EGL_NOT_INITIALIZED);
    }
}

#[test]
fn null_display_is_bad_display() {
    let _serial = serial();
    let api = api();
    // SAFETY: NULL handles are valid arguments; the out-pointers are NULL (allowed).
    unsafe {
        assert_eq!((api.initialize)(null_mut(), null_mut(), null_mut()), 0);
        assert_eq!((api.get_error)(), EGL_BAD_DISPLAY);
        assert!((api.query_string)(null_mut(), EGL_VENDOR).is_null());
        assert_eq!((api.get_error)(), EGL_BAD_DISPLAY);
        assert_eq!(
            (api.get_error)(),
            EGL_SUCCESS,
            "eglGetError resets the error"
        );
    }
}

#[test]
fn garbage_attribute_list_is_bad_attribute() {
    let _serial = serial();
    let api = api();
    let dpy = surfaceless(api);
    let garbage = [0x7eed_beef, 12, EGL_NONE];
    let (mut config, mut count) = (null_mut(), -1);
    // SAFETY: a terminated list and out-pointers to locals.
    unsafe {
        let ok = (api.choose_config)(dpy, garbage.as_ptr(), &mut config, 1, &mut count);
        assert_eq!(ok, 0);
        assert_eq!((api.get_error)(), EGL_BAD_ATTRIBUTE);
    }
    assert_eq!(count, -1, "nothing is written on failure");
}

#[test]
fn null_num_config_is_bad_parameter_and_null_configs_counts() {
    let _serial = serial();
    let api = api();
    let dpy = surfaceless(api);
    // SAFETY: NULL arrays and counts are what is under test; the others point at locals.
    unsafe {
        assert_eq!(
            (api.choose_config)(dpy, null(), null_mut(), 0, null_mut()),
            0
        );
        assert_eq!((api.get_error)(), EGL_BAD_PARAMETER);

        let mut total = 0;
        assert_eq!((api.get_configs)(dpy, null_mut(), 0, &mut total), 1);
        assert!(total > 1, "count-only query answered {total}");
        let mut first = [null_mut(); 1];
        let mut written = 0;
        assert_eq!(
            (api.get_configs)(dpy, first.as_mut_ptr(), 1, &mut written),
            1
        );
        assert_eq!(written, 1);
        assert!(!first[0].is_null());
    }
}

#[test]
fn unknown_names_resolve_to_null_and_gl_names_to_functions() {
    let api = api();
    for name in [c"glNotAThing", c"eglNotAThing", c""] {
        // SAFETY: NUL-terminated names.
        let f = unsafe { (api.get_proc_address)(name.as_ptr()) };
        assert!(f.is_null(), "{name:?}");
    }
    for name in [c"glClear", c"glDrawElementsBaseVertex", c"glGetStringi"] {
        // SAFETY: NUL-terminated names.
        let f = unsafe { (api.get_proc_address)(name.as_ptr()) };
        assert!(!f.is_null(), "{name:?}");
    }
}
