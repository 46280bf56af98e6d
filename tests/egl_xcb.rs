//! EGL_EXT_platform_xcb against a real X server (`Xvfb`, started here) through a pure XCB
//! client (libxcb loaded at run time, no Xlib): the client extension, displays of an
//! `xcb_connection_t*` and a screen, configs carrying the screen's root visual, a window
//! surface of an `xcb_window_t` whose frames the server shows (read back with `GetImage`),
//! `glReadPixels` of it, and bad input — a garbage connection or a missing screen
//! (`EGL_BAD_PARAMETER`), a foreign attribute (`EGL_BAD_ATTRIBUTE`), a destroyed or garbage window
//! (`EGL_BAD_NATIVE_WINDOW`). The EGL part runs in a child process (this binary re-executed)
//! with `ARENAGL_VALIDATION=1`. Skipped, with the reason printed, without `Xvfb`, libX11 or
//! libxcb.

#[path = "common/child.rs"]
mod child;
#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;
#[path = "common/xvfb.rs"]
mod xvfb;

use std::ffi::{c_char, c_int, c_void, CStr};
use std::ptr::{null, null_mut};
use std::time::{Duration, Instant};

use arenagl_present::egl::*;
use gl_harness::{error, f, read_rgba, P};

const CHILD_ENV: &str = "ARENAGL_EGL_XCB_CHILD";
const EGL_PLATFORM_XCB_EXT: u32 = 0x31DC;
const EGL_PLATFORM_XCB_SCREEN_EXT: EGLint = 0x31DE;
const SIZE: u16 = 48;

#[test]
fn xcb_windows_show_frames() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    // SAFETY: loading libxcb runs its initialisers, which are safe.
    if unsafe { libloading::Library::new("libxcb.so.1") }.is_err() {
        println!("skipped: libxcb.so.1 cannot be loaded (Debian: libxcb1)");
        return;
    }
    if let Some(server) = xvfb::start_or_skip() {
        child::run_test_child(
            "child_xcb",
            CHILD_ENV,
            [("DISPLAY", &server.name)],
            "XCB_OK",
        );
    }
}

type Conn = *mut c_void;

/// The libxcb calls the test makes, with their `<xcb/xcb.h>`/`<xcb/xproto.h>` signatures.
struct Xcb {
    _lib: libloading::Library,
    connect: unsafe extern "C" fn(*const c_char, *mut c_int) -> Conn,
    get_setup: unsafe extern "C" fn(Conn) -> *const c_void,
    roots: unsafe extern "C" fn(*const c_void) -> ScreenIter,
    generate_id: unsafe extern "C" fn(Conn) -> u32,
    #[allow(clippy::type_complexity)]
    create_window: unsafe extern "C" fn(
        Conn,
        u8,
        u32,
        u32,
        i16,
        i16,
        u16,
        u16,
        u16,
        u16,
        u32,
        u32,
        *const u32,
    ) -> u32,
    map_window: unsafe extern "C" fn(Conn, u32) -> u32,
    destroy_window: unsafe extern "C" fn(Conn, u32) -> u32,
    flush: unsafe extern "C" fn(Conn) -> c_int,
    get_image: unsafe extern "C" fn(Conn, u8, u32, i16, i16, u16, u16, u32) -> u32,
    get_image_reply: unsafe extern "C" fn(Conn, u32, *mut *mut c_void) -> *mut c_void,
    get_image_data: unsafe extern "C" fn(*const c_void) -> *const u8,
}

extern "C" {
    fn free(ptr: *mut c_void);
}

/// `xcb_screen_iterator_t`.
#[repr(C)]
struct ScreenIter {
    data: *const u8,
    rem: c_int,
    index: c_int,
}

impl Xcb {
    fn load() -> Self {
        // SAFETY: symbols looked up with their C signatures; the library outlives them (kept).
        unsafe {
            let lib = libloading::Library::new("libxcb.so.1").expect("libxcb.so.1");
            macro_rules! sym {
                ($name:literal) => {
                    *lib.get($name).expect(stringify!($name))
                };
            }
            Xcb {
                connect: sym!(b"xcb_connect\0"),
                get_setup: sym!(b"xcb_get_setup\0"),
                roots: sym!(b"xcb_setup_roots_iterator\0"),
                generate_id: sym!(b"xcb_generate_id\0"),
                create_window: sym!(b"xcb_create_window\0"),
                map_window: sym!(b"xcb_map_window\0"),
                destroy_window: sym!(b"xcb_destroy_window\0"),
                flush: sym!(b"xcb_flush\0"),
                get_image: sym!(b"xcb_get_image\0"),
                get_image_reply: sym!(b"xcb_get_image_reply\0"),
                get_image_data: sym!(b"xcb_get_image_data\0"),
                _lib: lib,
            }
        }
    }

    /// The first screen's root window, root visual and root depth.
    fn root(&self, conn: Conn) -> (u32, u32, u8) {
        // SAFETY: a live connection; `xcb_screen_t` has `root` at byte 0, `root_visual` at 32
        // and `root_depth` at 38 (`<xcb/xproto.h>`); the iterator's first word is the screen.
        unsafe {
            let screen = (self.roots)((self.get_setup)(conn)).data;
            (
                screen.cast::<u32>().read_unaligned(),
                screen.add(32).cast::<u32>().read_unaligned(),
                *screen.add(38),
            )
        }
    }

    /// A mapped `SIZE`² window of the root visual.
    fn window(&self, conn: Conn) -> u32 {
        let (root, visual, depth) = self.root(conn);
        // SAFETY: a live connection; no value list (mask 0).
        unsafe {
            let id = (self.generate_id)(conn);
            (self.create_window)(
                conn,
                depth,
                id,
                root,
                0,
                0,
                SIZE,
                SIZE,
                0,
                1,
                visual,
                0,
                null(),
            );
            (self.map_window)(conn, id);
            (self.flush)(conn);
            id
        }
    }

    /// The window's pixel at (`x`, `y`) (top-left origin) as RGB, through `GetImage` (ZPixmap
    /// of a depth-24 window: 32-bit BGRX).
    fn pixel(&self, conn: Conn, window: u32, x: i16, y: i16) -> [u8; 3] {
        // SAFETY: a live connection; the reply is malloc'd by libxcb and freed once here.
        unsafe {
            let cookie = (self.get_image)(conn, 2, window, x, y, 1, 1, u32::MAX);
            let mut err = null_mut();
            let reply = (self.get_image_reply)(conn, cookie, &mut err);
            assert!(!reply.is_null(), "GetImage of the window");
            let d = (self.get_image_data)(reply);
            let rgb = [*d.add(2), *d.add(1), *d];
            free(reply);
            rgb
        }
    }
}

fn egl_error() -> EGLint {
    let get_error = gl!(c"eglGetError": fn() -> EGLint);
    // SAFETY: no arguments.
    unsafe { get_error() }
}

fn platform_display(conn: P, attribs: &[EGLint]) -> P {
    let get = gl!(c"eglGetPlatformDisplayEXT": fn(u32, P, *const EGLint) -> P);
    // SAFETY: a terminated list; the connection is checked by EGL.
    unsafe { get(EGL_PLATFORM_XCB_EXT, conn, attribs.as_ptr()) }
}

#[test]
fn child_xcb() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    let xcb = Xcb::load();
    // SAFETY: NULL name: `$DISPLAY`; no screen out-pointer.
    let conn = unsafe { (xcb.connect)(null(), null_mut()) };
    let query = gl!(c"eglQueryString": fn(P, EGLint) -> *const c_char);
    // SAFETY: EGL_NO_DISPLAY gives the static client extension string.
    let client = unsafe { CStr::from_ptr(query(null_mut(), EGL_EXTENSIONS)) };
    assert!(client
        .to_string_lossy()
        .split(' ')
        .any(|e| e == "EGL_EXT_platform_xcb"));

    // Bad displays.
    let mut garbage = [0u64; 4];
    garbage[0] = 1; // `has_error` set: not a healthy connection.
    assert!(platform_display(garbage.as_mut_ptr().cast(), &[EGL_NONE]).is_null());
    assert_eq!(egl_error(), EGL_BAD_PARAMETER, "an errored connection");
    assert!(platform_display(std::ptr::without_provenance_mut(0x10), &[EGL_NONE]).is_null());
    assert_eq!(egl_error(), EGL_BAD_PARAMETER, "a garbage pointer");
    assert!(platform_display(conn, &[EGL_PLATFORM_XCB_SCREEN_EXT, 7, EGL_NONE]).is_null());
    assert_eq!(egl_error(), EGL_BAD_PARAMETER, "a screen the server lacks");
    assert!(platform_display(conn, &[EGL_PLATFORM_X11_SCREEN_KHR, 0, EGL_NONE]).is_null());
    assert_eq!(
        egl_error(),
        EGL_BAD_ATTRIBUTE,
        "the X11 platform's attribute"
    );

    let dpy = platform_display(conn, &[EGL_PLATFORM_XCB_SCREEN_EXT, 0, EGL_NONE]);
    assert!(!dpy.is_null(), "EGL error {:#x}", egl_error());
    assert_eq!(
        platform_display(conn, &[EGL_NONE]),
        dpy,
        "screen 0 is the default"
    );
    let initialize = gl!(c"eglInitialize": fn(P, *mut EGLint, *mut EGLint) -> u32);
    let choose = gl!(c"eglChooseConfig": fn(P, *const EGLint, *mut P, EGLint, *mut EGLint) -> u32);
    let attrib = gl!(c"eglGetConfigAttrib": fn(P, P, EGLint, *mut EGLint) -> u32);
    let create_window =
        gl!(c"eglCreatePlatformWindowSurfaceEXT": fn(P, P, *mut c_void, *const EGLint) -> P);
    let create_context = gl!(c"eglCreateContext": fn(P, P, P, *const EGLint) -> P);
    let make_current = gl!(c"eglMakeCurrent": fn(P, P, P, P) -> u32);
    let swap = gl!(c"eglSwapBuffers": fn(P, P) -> u32);
    let bind_api = gl!(c"eglBindAPI": fn(u32) -> u32);
    let (_, root_visual, _) = xcb.root(conn);
    // SAFETY: EGL calls on a live display with terminated lists and out-pointers to locals.
    let (cfg, visual) = unsafe {
        assert_eq!(initialize(dpy, null_mut(), null_mut()), 1);
        let list = [EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RED_SIZE, 8, EGL_NONE];
        let (mut cfg, mut n) = (null_mut(), 0);
        assert_eq!(choose(dpy, list.as_ptr(), &mut cfg, 1, &mut n), 1);
        assert_eq!(n, 1, "a window config");
        let mut visual = 0;
        assert_eq!(attrib(dpy, cfg, EGL_NATIVE_VISUAL_ID, &mut visual), 1);
        (cfg, visual)
    };
    assert_eq!(visual as u32, root_visual, "configs carry the root visual");

    // Bad windows: a garbage XID and a destroyed window.
    let mut bogus: u32 = 0x0dea_dbee;
    // SAFETY: a pointer to a live `xcb_window_t`; NULL attributes.
    let s = unsafe { create_window(dpy, cfg, (&raw mut bogus).cast(), null()) };
    assert!(s.is_null());
    assert_eq!(egl_error(), EGL_BAD_NATIVE_WINDOW, "a garbage XID");
    let mut gone = xcb.window(conn);
    // SAFETY: a live connection and window.
    unsafe {
        (xcb.destroy_window)(conn, gone);
        (xcb.flush)(conn);
    }
    // SAFETY: as above.
    let s = unsafe { create_window(dpy, cfg, (&raw mut gone).cast(), null()) };
    assert!(s.is_null());
    assert_eq!(egl_error(), EGL_BAD_NATIVE_WINDOW, "a destroyed window");

    // A window that shows frames.
    let mut window = xcb.window(conn);
    // SAFETY: as above; a 3.3 core context of the config.
    unsafe {
        let s = create_window(dpy, cfg, (&raw mut window).cast(), null());
        assert!(!s.is_null(), "window surface: EGL error {:#x}", egl_error());
        bind_api(EGL_OPENGL_API);
        let ctx_attribs = [
            EGL_CONTEXT_MAJOR_VERSION,
            3,
            EGL_CONTEXT_MINOR_VERSION,
            3,
            EGL_NONE,
        ];
        let ctx = create_context(dpy, cfg, null_mut(), ctx_attribs.as_ptr());
        assert!(!ctx.is_null());
        assert_eq!(make_current(dpy, s, s, ctx), 1);
        let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
        let clear = gl!(c"glClear": fn(u32));
        clear_color(1.0, 0.5, 0.0, 1.0);
        clear(0x4000);
        let px = read_rgba(3, 3, 1, 1);
        assert!(
            px[0] == 255 && px[1].abs_diff(128) <= 1 && px[2] == 0,
            "{px:?}"
        );
        for _ in 0..3 {
            clear(0x4000);
            assert_eq!(swap(dpy, s), 1);
        }
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let seen = [(1, 1), (46, 46)].map(|(x, y)| xcb.pixel(conn, window, x, y));
        let orange = |c: &[u8; 3]| c[0] == 255 && c[1].abs_diff(128) <= 1 && c[2] == 0;
        if seen.iter().all(orange) {
            break;
        }
        assert!(Instant::now() < deadline, "the window shows {seen:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(error(), 0);
    assert_eq!(
        gl_harness::validation_errors(),
        0,
        "validation errors (see stderr)"
    );
    println!("XCB_OK");
}
