//! ArenaGL as a libglvnd EGL vendor: the *system* `libEGL.so.1` (glvnd's dispatcher), pointed at
//! a vendor JSON naming the built `libarenagl.so` through `__EGL_VENDOR_LIBRARY_FILENAMES`, must
//! load it through `__egl_Main` and route displays to it — the surfaceless platform, and the
//! device platform exactly as glcontext/moderngl reach it (`eglQueryDevicesEXT` then
//! `eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT)`, both via `eglGetProcAddress`).
//!
//! glvnd reads the variable once, when it first loads vendors, and keeps one vendor list per
//! process, so everything runs in one test. It skips, saying why, only when the machine has no
//! system libEGL.so.1 at all.

use std::ffi::{c_char, c_void, CStr};
use std::ptr::{null, null_mut};

use arenagl_present::egl::*;
use arenagl_present::VENDOR;

type Handle = *mut c_void;

#[path = "common/glvnd.rs"]
mod glvnd;
#[path = "common/library.rs"]
mod library;

use glvnd::{system_libegl, SYSTEM_LIBEGL};
use library::library_path;

/// A symbol of `lib` as the function type `T`.
///
/// # Safety
/// `T` is the C signature of `name`.
unsafe fn sym<T: Copy>(lib: &libloading::Library, name: &[u8]) -> T {
    // SAFETY: the caller's obligation on `T`.
    *unsafe { lib.get::<T>(name) }
        .unwrap_or_else(|e| panic!("{}: {e}", String::from_utf8_lossy(name)))
}

fn string(p: *const c_char) -> String {
    assert!(!p.is_null(), "eglQueryString returned NULL");
    // SAFETY: non-NULL strings from eglQueryString are NUL-terminated and static.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

#[test]
fn system_glvnd_libegl_loads_arenagl_as_a_vendor() {
    let Some(system) = system_libegl() else {
        eprintln!("SKIP: no system libEGL.so.1 (looked in {SYSTEM_LIBEGL:?}); install libegl1");
        return;
    };
    let json = glvnd::vendor_json("glvnd-test", &library_path());
    // Before glvnd's first call, and the only test in this binary: no other thread reads the
    // environment while it changes.
    std::env::set_var("__EGL_VENDOR_LIBRARY_FILENAMES", &json);
    std::env::remove_var("__EGL_VENDOR_LIBRARY_DIRS");

    // SAFETY: glvnd's libEGL; its initialisers only set up its dispatch tables.
    let lib = unsafe { libloading::Library::new(system) }
        .unwrap_or_else(|e| panic!("load {}: {e}", system.display()));
    // SAFETY: each type below is that function's C signature in EGL 1.5's egl.h.
    let (get_platform_display, initialize, query_string, get_error, terminate, get_proc_address) = unsafe {
        (
            sym::<unsafe extern "C" fn(EGLenum, Handle, *const EGLAttrib) -> Handle>(
                &lib,
                b"eglGetPlatformDisplay\0",
            ),
            sym::<unsafe extern "C" fn(Handle, *mut EGLint, *mut EGLint) -> u32>(
                &lib,
                b"eglInitialize\0",
            ),
            sym::<unsafe extern "C" fn(Handle, EGLint) -> *const c_char>(&lib, b"eglQueryString\0"),
            sym::<unsafe extern "C" fn() -> EGLint>(&lib, b"eglGetError\0"),
            sym::<unsafe extern "C" fn(Handle) -> u32>(&lib, b"eglTerminate\0"),
            sym::<unsafe extern "C" fn(*const c_char) -> *mut c_void>(&lib, b"eglGetProcAddress\0"),
        )
    };

    // The surfaceless platform.
    // SAFETY: a NULL attribute list is allowed.
    let dpy = unsafe { get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, null_mut(), null()) };
    // SAFETY: no arguments.
    let err = unsafe { get_error() };
    assert!(
        !dpy.is_null(),
        "glvnd found no vendor for the surfaceless platform (error {err:#x}): {} was not \
         accepted as a vendor",
        json.display()
    );
    let (mut major, mut minor) = (0, 0);
    // SAFETY: a display from eglGetPlatformDisplay and two writable ints.
    assert_eq!(unsafe { initialize(dpy, &mut major, &mut minor) }, 1);
    assert_eq!((major, minor), (1, 5));
    // SAFETY: an initialized display.
    assert_eq!(string(unsafe { query_string(dpy, EGL_VENDOR) }), VENDOR);

    // glvnd merges its vendors' client extensions into its own.
    // SAFETY: EGL_NO_DISPLAY is allowed for client extensions.
    let client = string(unsafe { query_string(null_mut(), EGL_EXTENSIONS) });
    for ext in ["EGL_EXT_platform_device", "EGL_MESA_platform_surfaceless"] {
        assert!(
            client.split(' ').any(|e| e == ext),
            "{ext} missing from {client}"
        );
    }

    // The device platform, as glcontext reaches it.
    // SAFETY: NUL-terminated names.
    let (query_devices, get_platform_display_ext) = unsafe {
        (
            get_proc_address(c"eglQueryDevicesEXT".as_ptr()),
            get_proc_address(c"eglGetPlatformDisplayEXT".as_ptr()),
        )
    };
    assert!(!query_devices.is_null() && !get_platform_display_ext.is_null());
    // SAFETY: the signatures of EGL_EXT_device_enumeration and EGL_EXT_platform_base.
    let query_devices: unsafe extern "C" fn(EGLint, *mut Handle, *mut EGLint) -> u32 =
        unsafe { std::mem::transmute(query_devices) };
    // SAFETY: the signature of eglGetPlatformDisplayEXT (EGL_EXT_platform_base).
    let get_platform_display_ext: unsafe extern "C" fn(EGLenum, Handle, *const EGLint) -> Handle =
        unsafe { std::mem::transmute(get_platform_display_ext) };
    let mut device: Handle = null_mut();
    let mut count = 0;
    // SAFETY: room for one device and a writable count.
    assert_eq!(unsafe { query_devices(1, &mut device, &mut count) }, 1);
    assert_eq!(count, 1, "ArenaGL's one device");
    // SAFETY: a device glvnd returned; a NULL attribute list, as glcontext passes.
    let dev_dpy = unsafe { get_platform_display_ext(EGL_PLATFORM_DEVICE_EXT, device, null()) };
    // SAFETY: no arguments.
    let err = unsafe { get_error() };
    assert!(!dev_dpy.is_null(), "device display: error {err:#x}");
    // SAFETY: NULL version pointers are allowed.
    assert_eq!(unsafe { initialize(dev_dpy, null_mut(), null_mut()) }, 1);
    // SAFETY: an initialized display.
    assert_eq!(string(unsafe { query_string(dev_dpy, EGL_VENDOR) }), VENDOR);

    // A display-extension function ArenaGL gives glvnd a dispatch stub for (or glvnd's own).
    // SAFETY: a NUL-terminated name.
    let query_display_attrib = unsafe { get_proc_address(c"eglQueryDisplayAttribEXT".as_ptr()) };
    assert!(!query_display_attrib.is_null());
    // SAFETY: the EGL_EXT_device_query signature.
    let query_display_attrib: unsafe extern "C" fn(Handle, EGLint, *mut EGLAttrib) -> u32 =
        unsafe { std::mem::transmute(query_display_attrib) };
    let mut value: EGLAttrib = 0;
    // SAFETY: an initialized display and a writable attribute.
    let ok = unsafe { query_display_attrib(dev_dpy, EGL_DEVICE_EXT, &mut value) };
    assert_eq!(ok, 1);
    assert_eq!(
        value as usize, device as usize,
        "the display's device is the enumerated one"
    );

    // SAFETY: displays from above.
    unsafe {
        assert_eq!(terminate(dpy), 1);
        assert_eq!(terminate(dev_dpy), 1);
    }
    let _ = std::fs::remove_dir_all(json.parent().expect("json in its dir"));
}
