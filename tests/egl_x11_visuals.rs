//! X11 visuals behind EGL configs, against a real X server (`Xvfb`, started here): every
//! window-capable config of an X11 display names a visual the screen really has, of the depth its
//! colour layout needs (8-bit configs, alpha or not, the depth-24 visual as Mesa's),
//! `eglChooseConfig` honours the native attributes, a window of a visual that cannot show the config is `EGL_BAD_MATCH`, and a
//! garbage or destroyed window XID is `EGL_BAD_NATIVE_WINDOW` — never an X error reaching the
//! program's handler. The EGL part runs in a child process (this binary re-executed) with
//! `ARENAGL_VALIDATION=1`. Skipped, with the reason printed, only without `Xvfb` or libX11.

#[path = "common/child.rs"]
mod child;
#[path = "common/library.rs"]
mod library;
#[path = "common/xvfb.rs"]
mod xvfb;

use std::ffi::c_void;
use std::ptr::{null, null_mut};

use arenagl_present::egl::*;
use library::library_path;
use xvfb::xlib::{Display, Xlib};

const CHILD_ENV: &str = "ARENAGL_EGL_X11_VISUALS_CHILD";
const X_TRUE_COLOR: EGLint = 4;

type H = *mut c_void;

/// Runs `child` under a fresh `depth`-bit Xvfb; it must print `marker`.
fn run_child(child: &str, depth: u32, marker: &str) {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    if let Some(server) = xvfb::start_with_depth_or_skip(depth) {
        child::run_test_child(child, CHILD_ENV, [("DISPLAY", &server.name)], marker);
    }
}

#[test]
fn x11_configs_carry_the_screens_visuals() {
    run_child("child_configs_carry_visuals", 24, "VISUALS_OK");
}

#[test]
fn a_window_of_another_depth_is_bad_match() {
    run_child("child_depth_16_screen", 16, "DEPTH16_OK");
}

/// The library's EGL entry points, by their exported names.
struct Egl {
    lib: libloading::Library,
}

macro_rules! egl {
    ($e:expr, $name:literal : fn($($t:ty),*) -> $r:ty) => {{
        // SAFETY: the type spelled here is the function's C signature from the EGL registry.
        #[allow(unused_unsafe)]
        let f: unsafe extern "C" fn($($t),*) -> $r = unsafe {
            *$e.lib.get(concat!($name, "\0").as_bytes()).expect($name)
        };
        f
    }};
}

impl Egl {
    fn load() -> Self {
        let path = library_path();
        // SAFETY: our own library; it has no constructors.
        let lib = unsafe { libloading::Library::new(&path) }.expect("load libarenagl.so");
        Egl { lib }
    }

    fn error(&self) -> EGLint {
        // SAFETY: no arguments.
        unsafe { egl!(self, "eglGetError": fn() -> EGLint)() }
    }

    /// The initialized EGL display of X connection `x`.
    fn display(&self, x: Display) -> H {
        // SAFETY: EGL calls with a live X connection and NULL out-pointers.
        unsafe {
            let d = egl!(self, "eglGetDisplay": fn(Display) -> H)(x);
            let init = egl!(self, "eglInitialize": fn(H, *mut EGLint, *mut EGLint) -> u32);
            assert_eq!(init(d, null_mut(), null_mut()), 1);
            d
        }
    }

    fn configs(&self, d: H, attribs: Option<&[EGLint]>) -> Vec<H> {
        let mut out = vec![null_mut(); 64];
        let mut n = 0;
        // SAFETY: `out` has room for 64 configs; attribute lists end with EGL_NONE.
        unsafe {
            let ok = match attribs {
                None => egl!(self, "eglGetConfigs": fn(H, *mut H, EGLint, *mut EGLint) -> u32)(
                    d,
                    out.as_mut_ptr(),
                    64,
                    &mut n,
                ),
                Some(a) => egl!(self, "eglChooseConfig":
                    fn(H, *const EGLint, *mut H, EGLint, *mut EGLint) -> u32)(
                    d,
                    a.as_ptr(),
                    out.as_mut_ptr(),
                    64,
                    &mut n,
                ),
            };
            assert_eq!(ok, 1);
        }
        out.truncate(n as usize);
        out
    }

    fn attrib(&self, d: H, c: H, a: EGLint) -> EGLint {
        let mut v = -1;
        // SAFETY: `v` is a live local.
        let ok = unsafe {
            egl!(self, "eglGetConfigAttrib": fn(H, H, EGLint, *mut EGLint) -> u32)(d, c, a, &mut v)
        };
        assert_eq!(ok, 1, "eglGetConfigAttrib(0x{a:x})");
        v
    }

    /// `eglCreateWindowSurface`; the surface or the EGL error.
    fn window_surface(&self, d: H, c: H, win: u64) -> Result<H, EGLint> {
        // SAFETY: NULL attribute list.
        let s = unsafe {
            egl!(self, "eglCreateWindowSurface": fn(H, H, usize, *const EGLint) -> H)(
                d,
                c,
                win as usize,
                null(),
            )
        };
        if s.is_null() {
            Err(self.error())
        } else {
            Ok(s)
        }
    }

    fn destroy_surface(&self, d: H, s: H) {
        let destroy = egl!(self, "eglDestroySurface": fn(H, H) -> u32);
        // SAFETY: a surface this display made.
        let ok = unsafe { destroy(d, s) };
        assert_eq!(ok, 1);
    }
}

/// In the child only: libX11 with its error trap, a connection, and the initialized EGL display
/// of that connection.
fn child_display() -> Option<(Xlib, Display, Egl, H)> {
    std::env::var_os(CHILD_ENV)?;
    let x = Xlib::load();
    let conn = x.open();
    x.trap_errors();
    let egl = Egl::load();
    let d = egl.display(conn);
    Some((x, conn, egl, d))
}

#[test]
fn child_configs_carry_visuals() {
    let Some((x, conn, egl, d)) = child_display() else {
        return;
    };
    let mut window_configs = 0;
    for c in egl.configs(d, None) {
        let id = egl.attrib(d, c, EGL_NATIVE_VISUAL_ID);
        let window = egl.attrib(d, c, EGL_SURFACE_TYPE) & EGL_WINDOW_BIT != 0;
        let renderable = egl.attrib(d, c, EGL_NATIVE_RENDERABLE);
        assert_eq!(
            renderable == EGL_TRUE,
            window,
            "native renderable iff window-capable"
        );
        if !window {
            assert_eq!(id, 0);
            continue;
        }
        window_configs += 1;
        let v = x
            .visual(conn, id as u64)
            .unwrap_or_else(|| panic!("visual 0x{id:x} is not on the screen"));
        // 8-bit configs, alpha or not, render depth-24 windows (as Mesa's do).
        assert_eq!(v.depth, 24, "visual 0x{id:x}");
        assert_eq!(egl.attrib(d, c, EGL_NATIVE_VISUAL_TYPE), v.class);
    }
    assert!(window_configs >= 9, "RGBA8 and RGBX8 configs have visuals");
    let chosen = egl.configs(d, Some(&[EGL_NATIVE_RENDERABLE, EGL_TRUE, EGL_NONE]));
    assert_eq!(chosen.len(), window_configs);
    let true_color = [EGL_NATIVE_VISUAL_TYPE, X_TRUE_COLOR, EGL_NONE];
    assert_eq!(egl.configs(d, Some(&true_color)).len(), window_configs);
    let direct = [EGL_NATIVE_VISUAL_TYPE, 5, EGL_NONE];
    assert!(egl.configs(d, Some(&direct)).is_empty());

    // A window of the config's own visual takes a surface.
    let rgba = egl.configs(d, Some(&[EGL_ALPHA_SIZE, 8, EGL_NONE]))[0];
    let id = egl.attrib(d, rgba, EGL_NATIVE_VISUAL_ID);
    let v = x.visual(conn, id as u64).expect("the config's visual");
    let win = x.window(conn, Some(&v), 32, 32);
    let s = egl
        .window_surface(d, rgba, win)
        .expect("a surface on the config's visual");
    egl.destroy_surface(d, s);

    // Garbage and destroyed XIDs: EGL_BAD_NATIVE_WINDOW, and the program's handler sees nothing.
    assert_eq!(
        egl.window_surface(d, rgba, 0x1234_5678),
        Err(EGL_BAD_NATIVE_WINDOW)
    );
    let gone = x.window(conn, Some(&v), 16, 16);
    // SAFETY: a window this test made.
    unsafe { (x.destroy_window)(conn, gone) };
    assert_eq!(
        egl.window_surface(d, rgba, gone),
        Err(EGL_BAD_NATIVE_WINDOW)
    );
    assert_eq!(x.take_error(conn), 0, "no X error reached the program");

    // A garbage Display* is never dereferenced: the display initializes, without visuals.
    let garbage = egl.display(std::ptr::without_provenance_mut(0x10));
    let any = egl.configs(garbage, None)[0];
    assert_eq!(egl.attrib(garbage, any, EGL_NATIVE_VISUAL_ID), 0);
    println!("VISUALS_OK");
}

#[test]
fn child_depth_16_screen() {
    let Some((x, conn, egl, d)) = child_display() else {
        return;
    };
    // The 5-6-5 configs get the depth-16 default visual and windows.
    let rgb565 = egl.configs(d, Some(&[EGL_RED_SIZE, 5, EGL_ALPHA_SIZE, 0, EGL_NONE]));
    let c565 = *rgb565
        .iter()
        .find(|&&c| egl.attrib(d, c, EGL_RED_SIZE) == 5)
        .expect("a 5-6-5 window config on a depth-16 screen");
    let id = egl.attrib(d, c565, EGL_NATIVE_VISUAL_ID) as u64;
    assert_eq!(x.visual(conn, id).map(|v| v.depth), Some(16));
    // A default (depth-16) window cannot show an 8-bit config: EGL_BAD_MATCH.
    let rgba8 = egl.configs(d, Some(&[EGL_RED_SIZE, 8, EGL_NONE]));
    let c8 = *rgba8
        .iter()
        .find(|&&c| egl.attrib(d, c, EGL_RED_SIZE) == 8)
        .expect("an 8-bit window config (a depth-24/32 visual)");
    let win = x.window(conn, None, 32, 32);
    assert_eq!(egl.window_surface(d, c8, win), Err(EGL_BAD_MATCH));
    assert_eq!(x.take_error(conn), 0, "no X error reached the program");
    println!("DEPTH16_OK");
}
