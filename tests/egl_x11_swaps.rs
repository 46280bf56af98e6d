//! Swap behaviour users expect from EGL windows on X11 (issue 16, part 5), against a real X
//! server (`Xvfb`, started here): one context rendering to several windows in turn, each at its
//! own swap interval (0 and 1), each window showing its own frames; and a window destroyed
//! right after a swap (its frame possibly still in flight): later swaps to it fail with
//! `EGL_BAD_NATIVE_WINDOW` instead of crashing, the other windows keep presenting, and the
//! surface can still be released and destroyed. The EGL part runs in a child process (this
//! binary re-executed) with `ARENAGL_VALIDATION=1`. Skipped, with the reason printed, only
//! without `Xvfb` or libX11.

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
use xvfb::xlib::Xlib;

const CHILD_ENV: &str = "ARENAGL_EGL_X11_SWAPS_CHILD";
/// The windows' sizes: all are mapped at the origin, each smaller than the one before, so a
/// window's lower-right corner is never covered by a later one (`XGetImage` of a covered part
/// reads what covers it).
const SIZES: [u32; 3] = [96, 64, 32];

#[test]
fn one_context_presents_to_many_windows_and_survives_a_destroyed_one() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    if let Some(server) = xvfb::start_or_skip() {
        child::run_test_child(
            "child_many_windows",
            CHILD_ENV,
            [("DISPLAY", &server.name)],
            "MANY_WINDOWS_OK",
        );
    }
}

fn egl_error() -> EGLint {
    let get_error = gl!(c"eglGetError": fn() -> EGLint);
    // SAFETY: no arguments.
    unsafe { get_error() }
}

fn clear(rgb: [u8; 3]) {
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let v = rgb.map(|c| f32::from(c) / 255.0);
    // SAFETY: plain GL calls on the current context.
    unsafe {
        clear_color(v[0], v[1], v[2], 1.0);
        clear(0x4000);
    }
}

#[test]
fn child_many_windows() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    let x = Xlib::load();
    let conn = x.open();
    x.trap_errors();
    let get_display = gl!(c"eglGetDisplay": fn(P) -> P);
    let initialize = gl!(c"eglInitialize": fn(P, *mut EGLint, *mut EGLint) -> u32);
    let choose = gl!(c"eglChooseConfig": fn(P, *const EGLint, *mut P, EGLint, *mut EGLint) -> u32);
    let create_window = gl!(c"eglCreateWindowSurface": fn(P, P, usize, *const EGLint) -> P);
    let create_context = gl!(c"eglCreateContext": fn(P, P, P, *const EGLint) -> P);
    let make_current = gl!(c"eglMakeCurrent": fn(P, P, P, P) -> u32);
    let swap_interval = gl!(c"eglSwapInterval": fn(P, EGLint) -> u32);
    let swap = gl!(c"eglSwapBuffers": fn(P, P) -> u32);
    let destroy_surface = gl!(c"eglDestroySurface": fn(P, P) -> u32);
    let colors = [[255, 0, 0], [0, 255, 0], [0, 0, 255]];
    // SAFETY: EGL calls on a live X connection with terminated attribute lists and
    // out-pointers to locals; the handles are this test's.
    unsafe {
        let d = get_display(conn.cast());
        assert_eq!(initialize(d, null_mut(), null_mut()), 1);
        let attribs = [
            EGL_SURFACE_TYPE,
            EGL_WINDOW_BIT,
            EGL_RENDERABLE_TYPE,
            EGL_OPENGL_BIT,
            EGL_NONE,
        ];
        let (mut cfg, mut n) = (null_mut(), 0);
        assert_eq!(choose(d, attribs.as_ptr(), &mut cfg, 1, &mut n), 1);
        let ctx_attribs = [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE];
        let ctx = create_context(d, cfg, null_mut(), ctx_attribs.as_ptr());
        assert!(!ctx.is_null());
        let windows: Vec<_> = SIZES
            .iter()
            .map(|&size| x.window(conn, None, size, size))
            .collect();
        let surfaces: Vec<P> = windows
            .iter()
            .map(|&w| {
                let s = create_window(d, cfg, w as usize, [EGL_NONE].as_ptr());
                assert!(!s.is_null(), "window surface: {:#x}", egl_error());
                s
            })
            .collect();
        // Interleaved frames: the context moves between the windows every frame, alternating
        // the interval.
        for frame in 0..4 {
            for (i, &s) in surfaces.iter().enumerate() {
                assert_eq!(make_current(d, s, s, ctx), 1);
                assert_eq!(swap_interval(d, ((i + frame) % 2) as EGLint), 1);
                clear(colors[i]);
                assert_eq!(swap(d, s), 1, "swap {frame} of window {i}");
            }
        }
        for (i, &w) in windows.iter().enumerate() {
            let far = SIZES[i] - 2;
            let probes = [(far, far, colors[i]), (far, 1, colors[i])];
            if let Err(seen) = x.poll_probes(conn, w, &probes) {
                panic!("window {i} shows {seen:?}, not its own frames");
            }
        }

        // The second window destroyed right after a swap, its frame possibly in flight.
        assert_eq!(make_current(d, surfaces[1], surfaces[1], ctx), 1);
        clear([255, 255, 0]);
        assert_eq!(swap(d, surfaces[1]), 1);
        (x.destroy_window)(conn, windows[1]);
        (x.sync)(conn, 0);
        // Presenting may still succeed once or twice (the server's copy is asynchronous); a
        // few swaps later the swapchain reports the window gone.
        let failed = (0..10).any(|_| {
            clear([255, 255, 0]);
            swap(d, surfaces[1]) == 0
        });
        assert!(failed, "swaps to a destroyed window keep succeeding");
        assert_eq!(egl_error(), EGL_BAD_NATIVE_WINDOW);
        // The others still present.
        assert_eq!(make_current(d, surfaces[2], surfaces[2], ctx), 1);
        for _ in 0..3 {
            clear([255, 0, 255]);
            assert_eq!(swap(d, surfaces[2]), 1);
        }
        let probes = [(1, 1, [255, 0, 255])];
        if let Err(seen) = x.poll_probes(conn, windows[2], &probes) {
            panic!("after another window was destroyed, window 2 shows {seen:?}");
        }
        assert_eq!(make_current(d, null_mut(), null_mut(), null_mut()), 1);
        for s in surfaces {
            assert_eq!(destroy_surface(d, s), 1);
        }
    }
    // BadWindow/BadDrawable from the destroyed window are the program's own doing here; no
    // other X error reached the program.
    let err = x.take_error(conn);
    assert!(matches!(err, 0 | 3 | 9), "X error {err}");
    assert_eq!(
        gl_harness::validation_errors(),
        0,
        "validation errors (see stderr)"
    );
    println!("MANY_WINDOWS_OK");
}
