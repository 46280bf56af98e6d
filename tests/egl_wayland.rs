//! EGL on Wayland (EGL_KHR_platform_wayland, issue 16 part 3) against a real compositor: a
//! headless `weston` started here with its own `XDG_RUNTIME_DIR`. The EGL part runs in a child
//! process (this binary re-executed) with `ARENAGL_VALIDATION=1`; it connects with
//! libwayland-client, makes a `wl_surface` and a `wl_egl_window` (libwayland-egl), both loaded at
//! run time, and checks window surfaces (size, pixels, swaps, resizing through
//! `wl_egl_window_resize`, the attached size), display recognition, and bad input: NULL and
//! garbage displays and windows, a `wl_surface*` passed as a window, a window claimed twice, a
//! window destroyed before its surface. Skipped, with the reason printed, only without weston or
//! the Wayland client libraries.

#[path = "common/child.rs"]
mod child;
#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use std::ffi::{c_char, c_void, CStr};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::ptr::{null, null_mut};
use std::time::{Duration, Instant};

use arenagl_present::egl::*;
use gl_harness::{f, P};

const CHILD_ENV: &str = "ARENAGL_EGL_WAYLAND_CHILD";
const SOCKET: &str = "arenagl-test-wl";
const EGL_PLATFORM_WAYLAND_KHR: EGLenum = 0x31D8;

/// A headless weston in a runtime directory of its own, stopped when dropped.
struct Weston {
    child: Child,
    runtime: PathBuf,
}

impl Drop for Weston {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.runtime);
    }
}

/// Starts weston's headless backend, or prints why not and returns `None`.
fn start_weston() -> Option<Weston> {
    let runtime = std::env::temp_dir().join(format!("arenagl-egl-wayland-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&runtime);
    std::fs::create_dir_all(&runtime).expect("runtime dir");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).expect("chmod");
    let spawned = Command::new("weston")
        .args([
            "--backend=headless-backend.so",
            &format!("--socket={SOCKET}"),
            "--idle-time=0",
        ])
        .env("XDG_RUNTIME_DIR", &runtime)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let Ok(child) = spawned else {
        eprintln!("skipped: no weston (Debian: weston)");
        return None;
    };
    let server = Weston { child, runtime };
    let socket = server.runtime.join(SOCKET);
    let start = Instant::now();
    while !socket.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "weston did not create its socket"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    Some(server)
}

#[test]
fn wayland_window_surfaces() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    // SAFETY: loading the system's client libraries only to see that they exist.
    let libs = unsafe {
        (
            libloading::Library::new("libwayland-client.so.0"),
            libloading::Library::new("libwayland-egl.so.1"),
        )
    };
    if libs.0.is_err() || libs.1.is_err() {
        eprintln!("skipped: no libwayland-client / libwayland-egl");
        return;
    }
    let Some(server) = start_weston() else {
        return;
    };
    child::run_test_child(
        "child_wayland",
        CHILD_ENV,
        [
            ("XDG_RUNTIME_DIR", server.runtime.as_os_str()),
            ("WAYLAND_DISPLAY", SOCKET.as_ref()),
        ],
        "WAYLAND_OK",
    );
}

/// The few libwayland-client and libwayland-egl calls a client needs for a bare `wl_surface`.
struct Wl {
    _client: libloading::Library,
    _egl: libloading::Library,
    display: P,
    compositor: P,
    surface_interface: *const c_void,
    marshal_constructor: unsafe extern "C" fn(P, u32, *const c_void, ...) -> P,
    window_create: unsafe extern "C" fn(P, i32, i32) -> P,
    window_resize: unsafe extern "C" fn(P, i32, i32, i32, i32),
    window_destroy: unsafe extern "C" fn(P),
    attached_size: unsafe extern "C" fn(P, *mut i32, *mut i32),
}

/// `struct wl_registry_listener`.
#[repr(C)]
struct RegistryListener {
    global: unsafe extern "C" fn(P, P, u32, *const c_char, u32),
    global_remove: unsafe extern "C" fn(P, P, u32),
}

/// Records the `wl_compositor` global's name and version into `data` (a `(u32, u32)`).
unsafe extern "C" fn on_global(data: P, _: P, name: u32, interface: *const c_char, version: u32) {
    // SAFETY: libwayland passes a NUL-terminated interface name; `data` is the `(u32, u32)` the
    // listener was added with.
    unsafe {
        if CStr::from_ptr(interface) == c"wl_compositor" {
            *data.cast::<(u32, u32)>() = (name, version.min(4));
        }
    }
}

unsafe extern "C" fn on_global_remove(_: P, _: P, _: u32) {}

/// Function `name` of `lib` as type `T`.
///
/// # Safety
/// `T` is the function's C signature.
unsafe fn symbol<T: Copy>(lib: &libloading::Library, name: &[u8]) -> T {
    // SAFETY: the caller vouches for the signature.
    *unsafe { lib.get::<T>(name) }.expect("libwayland-egl symbol")
}

impl Wl {
    /// Connects to `$WAYLAND_DISPLAY` and binds the compositor.
    fn connect() -> Self {
        // SAFETY: the system's Wayland client libraries; every symbol below has the C signature
        // it is given (wayland-client-core.h, wayland-egl-core.h).
        unsafe {
            let client = libloading::Library::new("libwayland-client.so.0").expect("client");
            let egl = libloading::Library::new("libwayland-egl.so.1").expect("wayland-egl");
            let sym = |name: &[u8]| -> *const c_void {
                *client
                    .get::<*const c_void>(name)
                    .expect("libwayland-client symbol")
            };
            let connect: unsafe extern "C" fn(*const c_char) -> P =
                std::mem::transmute(sym(b"wl_display_connect\0"));
            let roundtrip: unsafe extern "C" fn(P) -> i32 =
                std::mem::transmute(sym(b"wl_display_roundtrip\0"));
            let add_listener: unsafe extern "C" fn(P, *const c_void, P) -> i32 =
                std::mem::transmute(sym(b"wl_proxy_add_listener\0"));
            let marshal_constructor: unsafe extern "C" fn(P, u32, *const c_void, ...) -> P =
                std::mem::transmute(sym(b"wl_proxy_marshal_constructor\0"));
            let marshal_versioned: unsafe extern "C" fn(P, u32, *const c_void, u32, ...) -> P =
                std::mem::transmute(sym(b"wl_proxy_marshal_constructor_versioned\0"));
            let display = connect(null());
            assert!(!display.is_null(), "wl_display_connect");
            // wl_display.get_registry (opcode 1), then wl_registry.bind (opcode 0).
            let registry = marshal_constructor(
                display,
                1,
                sym(b"wl_registry_interface\0"),
                null_mut::<c_void>(),
            );
            static LISTENER: RegistryListener = RegistryListener {
                global: on_global,
                global_remove: on_global_remove,
            };
            let mut found = (0u32, 0u32);
            add_listener(
                registry,
                (&raw const LISTENER).cast(),
                (&raw mut found).cast(),
            );
            roundtrip(display);
            assert_ne!(found.0, 0, "no wl_compositor global");
            let compositor_interface = sym(b"wl_compositor_interface\0");
            let compositor = marshal_versioned(
                registry,
                0,
                compositor_interface,
                found.1,
                found.0,
                c"wl_compositor".as_ptr(),
                found.1,
                null_mut::<c_void>(),
            );
            assert!(!compositor.is_null());
            Wl {
                window_create: symbol(&egl, b"wl_egl_window_create\0"),
                window_resize: symbol(&egl, b"wl_egl_window_resize\0"),
                window_destroy: symbol(&egl, b"wl_egl_window_destroy\0"),
                attached_size: symbol(&egl, b"wl_egl_window_get_attached_size\0"),
                surface_interface: sym(b"wl_surface_interface\0"),
                marshal_constructor,
                display,
                compositor,
                _client: client,
                _egl: egl,
            }
        }
    }

    /// A new `wl_surface` (wl_compositor.create_surface, opcode 0).
    fn surface(&self) -> P {
        // SAFETY: a live compositor proxy; the trailing NULL is the new object's placeholder.
        let s = unsafe {
            (self.marshal_constructor)(
                self.compositor,
                0,
                self.surface_interface,
                null_mut::<c_void>(),
            )
        };
        assert!(!s.is_null());
        s
    }

    fn window(&self, surface: P, w: i32, h: i32) -> P {
        // SAFETY: a live surface and a positive size.
        let win = unsafe { (self.window_create)(surface, w, h) };
        assert!(!win.is_null());
        win
    }

    fn attached(&self, win: P) -> (i32, i32) {
        let (mut w, mut h) = (-1, -1);
        // SAFETY: a live window; out-pointers to locals.
        unsafe { (self.attached_size)(win, &mut w, &mut h) };
        (w, h)
    }
}

fn egl_error() -> EGLint {
    let get_error = gl!(c"eglGetError": fn() -> EGLint);
    // SAFETY: no arguments.
    unsafe { get_error() }
}

/// Clears the current surface to green and reads back the pixel at (`x`, `y`).
fn clear_and_read(x: i32, y: i32) -> [u8; 4] {
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let mut px = [0u8; 4];
    // SAFETY: plain GL calls on the current context; `px` holds one RGBA8 pixel.
    unsafe {
        clear_color(0.0, 1.0, 0.0, 1.0);
        clear(0x4000);
        read(x, y, 1, 1, 0x1908, 0x1401, px.as_mut_ptr().cast());
    }
    px
}

#[test]
fn child_wayland() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    let wl = Wl::connect();
    let get_display = gl!(c"eglGetDisplay": fn(P) -> P);
    let platform_display = gl!(c"eglGetPlatformDisplay": fn(EGLenum, P, *const isize) -> P);
    let initialize = gl!(c"eglInitialize": fn(P, *mut EGLint, *mut EGLint) -> u32);
    let query_string = gl!(c"eglQueryString": fn(P, EGLint) -> *const c_char);
    let choose = gl!(c"eglChooseConfig": fn(P, *const EGLint, *mut P, EGLint, *mut EGLint) -> u32);
    let create_window = gl!(c"eglCreateWindowSurface": fn(P, P, P, *const EGLint) -> P);
    let create_platform = gl!(c"eglCreatePlatformWindowSurface": fn(P, P, P, *const isize) -> P);
    let query = gl!(c"eglQuerySurface": fn(P, P, EGLint, *mut EGLint) -> u32);
    let bind_api = gl!(c"eglBindAPI": fn(EGLenum) -> u32);
    let create_context = gl!(c"eglCreateContext": fn(P, P, P, *const EGLint) -> P);
    let make_current = gl!(c"eglMakeCurrent": fn(P, P, P, P) -> u32);
    let swap = gl!(c"eglSwapBuffers": fn(P, P) -> u32);
    let swap_interval = gl!(c"eglSwapInterval": fn(P, EGLint) -> u32);
    let destroy_surface = gl!(c"eglDestroySurface": fn(P, P) -> u32);
    // SAFETY: EGL calls with live Wayland objects, terminated attribute lists and out-pointers
    // to locals; the bad values are the library's to reject.
    unsafe {
        let client = CStr::from_ptr(query_string(null_mut(), EGL_EXTENSIONS))
            .to_str()
            .unwrap();
        assert!(client.contains("EGL_KHR_platform_wayland"), "{client}");
        assert!(client.contains("EGL_EXT_platform_wayland"), "{client}");

        // Displays: the wl_display is recognised by eglGetDisplay too, as one display.
        let d = platform_display(EGL_PLATFORM_WAYLAND_KHR, wl.display, null());
        assert!(!d.is_null(), "eglGetPlatformDisplay: {:#x}", egl_error());
        assert_eq!(get_display(wl.display), d);
        assert_eq!(initialize(d, null_mut(), null_mut()), 1);
        // EGL_DEFAULT_DISPLAY: ArenaGL's own connection to $WAYLAND_DISPLAY, another display.
        let own = platform_display(EGL_PLATFORM_WAYLAND_KHR, null_mut(), null());
        assert!(
            !own.is_null(),
            "default Wayland display: {:#x}",
            egl_error()
        );
        assert_ne!(own, d);
        assert_eq!(initialize(own, null_mut(), null_mut()), 1);
        // Garbage displays: a non-display object, an unmapped address, an odd one.
        let not_display = [0u64; 8];
        for bad in [
            wl.compositor,
            not_display.as_ptr() as P,
            0x10 as P,
            0x7fff_0000_0008 as P,
        ] {
            let r = platform_display(EGL_PLATFORM_WAYLAND_KHR, bad, null());
            assert!(r.is_null());
            assert_eq!(egl_error(), EGL_BAD_PARAMETER, "display {bad:?}");
        }
        let attribs = [
            EGL_SURFACE_TYPE,
            EGL_WINDOW_BIT,
            EGL_RENDERABLE_TYPE,
            EGL_OPENGL_BIT,
            EGL_NONE,
        ];
        let (mut cfg, mut n) = (null_mut(), 0);
        assert_eq!(choose(d, attribs.as_ptr(), &mut cfg, 1, &mut n), 1);
        assert_eq!(n, 1);

        // Bad windows: NULL, garbage, a wl_surface passed as a wl_egl_window.
        let surface = wl.surface();
        let zeros = [0u64; 16];
        for bad in [
            null_mut(),
            0x10 as P,
            0x7fff_0000_0008 as P,
            zeros.as_ptr() as P,
            surface,
        ] {
            assert!(create_window(d, cfg, bad, [EGL_NONE].as_ptr()).is_null());
            assert_eq!(egl_error(), EGL_BAD_NATIVE_WINDOW, "window {bad:?}");
        }

        // A real window: its size, pixels, swaps.
        let win = wl.window(surface, 48, 32);
        let s = create_platform(d, cfg, win, null());
        assert!(
            !s.is_null(),
            "eglCreatePlatformWindowSurface: {:#x}",
            egl_error()
        );
        // The same window again: already claimed.
        assert!(create_window(d, cfg, win, [EGL_NONE].as_ptr()).is_null());
        assert_eq!(egl_error(), EGL_BAD_ALLOC);
        let size = |s: P| {
            let (mut w, mut h) = (0, 0);
            assert_eq!(query(d, s, EGL_WIDTH, &mut w), 1);
            assert_eq!(query(d, s, EGL_HEIGHT, &mut h), 1);
            (w, h)
        };
        assert_eq!(size(s), (48, 32));
        assert_eq!(bind_api(EGL_OPENGL_API), 1);
        let ctx_attribs = [
            EGL_CONTEXT_MAJOR_VERSION,
            3,
            EGL_CONTEXT_MINOR_VERSION,
            3,
            EGL_NONE,
        ];
        let ctx = create_context(d, cfg, null_mut(), ctx_attribs.as_ptr());
        assert!(!ctx.is_null(), "eglCreateContext: {:#x}", egl_error());
        assert_eq!(make_current(d, s, s, ctx), 1);
        // An unmapped surface gets no frame callbacks: present without waiting for them.
        assert_eq!(swap_interval(d, 0), 1);
        assert_eq!(clear_and_read(47, 31), [0, 255, 0, 255]);
        assert_eq!(swap(d, s), 1, "eglSwapBuffers: {:#x}", egl_error());
        assert_eq!(wl.attached(win), (48, 32));

        // Resizing: the new size takes effect at the next swap.
        (wl.window_resize)(win, 80, 20, 0, 0);
        assert_eq!(size(s), (48, 32));
        assert_eq!(clear_and_read(10, 10), [0, 255, 0, 255]);
        assert_eq!(swap(d, s), 1, "eglSwapBuffers: {:#x}", egl_error());
        assert_eq!(size(s), (80, 20));
        assert_eq!(wl.attached(win), (80, 20));
        assert_eq!(clear_and_read(79, 19), [0, 255, 0, 255]);
        assert_eq!(swap(d, s), 1, "eglSwapBuffers: {:#x}", egl_error());

        // The surface hands the window back: another surface may take it.
        assert_eq!(make_current(d, null_mut(), null_mut(), null_mut()), 1);
        assert_eq!(destroy_surface(d, s), 1);
        let s2 = create_window(d, cfg, win, [EGL_NONE].as_ptr());
        assert!(!s2.is_null(), "second surface: {:#x}", egl_error());
        assert_eq!(make_current(d, s2, s2, ctx), 1);
        assert_eq!(swap_interval(d, 0), 1);
        assert_eq!(clear_and_read(1, 1), [0, 255, 0, 255]);
        assert_eq!(swap(d, s2), 1);

        // The window destroyed under its surface: the swap fails, nothing crashes.
        (wl.window_destroy)(win);
        assert_eq!(swap(d, s2), 0);
        assert_eq!(egl_error(), EGL_BAD_NATIVE_WINDOW);
        assert_eq!(make_current(d, null_mut(), null_mut(), null_mut()), 1);
        assert_eq!(destroy_surface(d, s2), 1);
    }
    assert_eq!(gl_harness::validation_errors(), 0);
    println!("WAYLAND_OK");
}
