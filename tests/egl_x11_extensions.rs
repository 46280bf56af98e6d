//! The window-surface side of the EGL extensions (issue 16, part 4) against a real X server
//! (`Xvfb`, started here): `EGL_PRESENT_OPAQUE_EXT` on window surfaces, swap-with-damage
//! presenting to the window (its pixels read back with `XGetImage`), and `EGL_BUFFER_AGE_EXT` of
//! a window. The EGL part runs in a child process (this binary re-executed) with
//! `ARENAGL_VALIDATION=1`. Skipped, with the reason printed, only without `Xvfb` or libX11.

#[path = "common/child.rs"]
mod child;
#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;
#[path = "common/xvfb.rs"]
mod xvfb;

use std::ptr::null_mut;

use arenagl_present::egl::*;
use gl_harness::{f, P};
use xvfb::xlib::{Display, Xlib};

const CHILD_ENV: &str = "ARENAGL_EGL_X11_EXTENSIONS_CHILD";
const SIZE: u32 = 32;

#[test]
fn window_surfaces_take_the_extension_attributes() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    if let Some(server) = xvfb::start_or_skip() {
        child::run_test_child(
            "child_window_extensions",
            CHILD_ENV,
            [("DISPLAY", &server.name)],
            "WINDOW_EXTENSIONS_OK",
        );
    }
}

fn egl_error() -> EGLint {
    let get_error = gl!(c"eglGetError": fn() -> EGLint);
    // SAFETY: no arguments.
    unsafe { get_error() }
}

/// Clears the current surface to `rgba`.
fn clear(rgba: [f32; 4]) {
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    // SAFETY: plain GL calls on the current context.
    unsafe {
        clear_color(rgba[0], rgba[1], rgba[2], rgba[3]);
        clear(0x4000);
    }
}

#[test]
fn child_window_extensions() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    let x = Xlib::load();
    let conn: Display = x.open();
    x.trap_errors();
    let get_display = gl!(c"eglGetDisplay": fn(P) -> P);
    let initialize = gl!(c"eglInitialize": fn(P, *mut EGLint, *mut EGLint) -> u32);
    let choose = gl!(c"eglChooseConfig": fn(P, *const EGLint, *mut P, EGLint, *mut EGLint) -> u32);
    let create_window = gl!(c"eglCreateWindowSurface": fn(P, P, usize, *const EGLint) -> P);
    let query = gl!(c"eglQuerySurface": fn(P, P, EGLint, *mut EGLint) -> u32);
    let bind_api = gl!(c"eglBindAPI": fn(EGLenum) -> u32);
    let create_context = gl!(c"eglCreateContext": fn(P, P, P, *const EGLint) -> P);
    let make_current = gl!(c"eglMakeCurrent": fn(P, P, P, P) -> u32);
    let destroy_surface = gl!(c"eglDestroySurface": fn(P, P) -> u32);
    type Damage = unsafe extern "C" fn(P, P, *const EGLint, EGLint) -> u32;
    // SAFETY: the C signature of both functions.
    let (damage_khr, damage_ext): (Damage, Damage) = unsafe {
        (
            f(c"eglSwapBuffersWithDamageKHR"),
            f(c"eglSwapBuffersWithDamageEXT"),
        )
    };
    // SAFETY: EGL calls on a live X connection with terminated attribute lists and out-pointers
    // to locals; the bad values are the library's to reject.
    unsafe {
        let d = get_display(conn.cast());
        assert_eq!(initialize(d, null_mut(), null_mut()), 1);
        // An RGBA8 config with an alpha channel: presenting must still be opaque.
        let attribs = [
            EGL_SURFACE_TYPE,
            EGL_WINDOW_BIT,
            EGL_RENDERABLE_TYPE,
            EGL_OPENGL_BIT,
            EGL_ALPHA_SIZE,
            8,
            EGL_NONE,
        ];
        let (mut cfg, mut n) = (null_mut(), 0);
        assert_eq!(choose(d, attribs.as_ptr(), &mut cfg, 1, &mut n), 1);
        assert_eq!(n, 1);

        let opaque = [EGL_PRESENT_OPAQUE_EXT, EGL_TRUE, EGL_NONE];
        let bad = [EGL_PRESENT_OPAQUE_EXT, 5, EGL_NONE];
        let win = x.window(conn, None, SIZE, SIZE);
        assert!(create_window(d, cfg, win as usize, bad.as_ptr()).is_null());
        assert_eq!(egl_error(), EGL_BAD_ATTRIBUTE);
        let s = create_window(d, cfg, win as usize, opaque.as_ptr());
        assert!(!s.is_null(), "window surface: error {:#x}", egl_error());
        let mut v = 77;
        assert_eq!(query(d, s, EGL_PRESENT_OPAQUE_EXT, &mut v), 1);
        assert_eq!(v, EGL_TRUE);

        assert_eq!(bind_api(EGL_OPENGL_API), 1);
        let ctx_attribs = [
            EGL_CONTEXT_MAJOR_VERSION,
            3,
            EGL_CONTEXT_MINOR_VERSION,
            3,
            EGL_NONE,
        ];
        let ctx = create_context(d, cfg, null_mut(), ctx_attribs.as_ptr());
        assert!(!ctx.is_null());
        assert_eq!(make_current(d, s, s, ctx), 1);

        // Alpha 0 in the frame: an opaque present shows the colour, not what is behind it.
        // A few frames: the swapchain shows a frame some presents after it is queued.
        let rects = [0, 0, 8, 8];
        for _ in 0..3 {
            clear([1.0, 0.0, 0.0, 0.0]);
            assert_eq!(damage_khr(d, s, rects.as_ptr(), 1), 1);
        }
        let probes = [(1, 1, [255, 0, 0]), (SIZE - 2, SIZE - 2, [255, 0, 0])];
        if let Err(seen) = x.poll_probes(conn, win, &probes) {
            panic!("after eglSwapBuffersWithDamageKHR the window shows {seen:?}");
        }
        v = 77;
        assert_eq!(query(d, s, EGL_BUFFER_AGE_EXT, &mut v), 1);
        assert_eq!(v, 0);

        // The whole frame is presented, whatever the damage says.
        for _ in 0..3 {
            clear([0.0, 1.0, 0.0, 1.0]);
            assert_eq!(damage_ext(d, s, rects.as_ptr(), 1), 1);
        }
        let probes = [(1, 1, [0, 255, 0]), (SIZE - 2, SIZE - 2, [0, 255, 0])];
        if let Err(seen) = x.poll_probes(conn, win, &probes) {
            panic!("after eglSwapBuffersWithDamageEXT the window shows {seen:?}");
        }
        assert_eq!(damage_ext(d, s, rects.as_ptr(), -3), 0);
        assert_eq!(egl_error(), EGL_BAD_PARAMETER);

        // A second window (created last: mapped at the same place, it hides the first from
        // `XGetImage`): the attribute's default, and not the current draw surface.
        let plain_win = x.window(conn, None, SIZE, SIZE);
        let plain = create_window(d, cfg, plain_win as usize, [EGL_NONE].as_ptr());
        assert!(!plain.is_null());
        assert_eq!(query(d, plain, EGL_PRESENT_OPAQUE_EXT, &mut v), 1);
        assert_eq!(v, EGL_FALSE, "the default");
        assert_eq!(query(d, plain, EGL_BUFFER_AGE_EXT, &mut v), 0);
        assert_eq!(egl_error(), EGL_BAD_SURFACE);

        assert_eq!(make_current(d, null_mut(), null_mut(), null_mut()), 1);
        assert_eq!(destroy_surface(d, s), 1);
        assert_eq!(destroy_surface(d, plain), 1);
    }
    assert_eq!(x.take_error(conn), 0, "no X error reached the program");
    println!("WINDOW_EXTENSIONS_OK");
}
