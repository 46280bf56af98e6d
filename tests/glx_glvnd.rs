//! ArenaGL as glvnd's GLX vendor: the system's `libGL.so.1` (glvnd) with
//! `__GLX_VENDOR_LIBRARY_NAME=arenagl` and `libGLX_arenagl.so.0` (a symlink to the library) on
//! the library path, as `arenagl run --via glvnd` sets it up. Through glvnd's own GLX functions and
//! its GL dispatch: a legacy context and a `glXCreateContextAttribsARB` 3.3 core context, each
//! current on a window, cleared, read back and swapped, and `glXSwapIntervalEXT`. (libglvnd 1.3 and
//! later implement `glXCreateContextAttribsARB` in libGLX and reach other unknown GLX extension
//! functions through their GL dispatch while a context is current, so on Debian 12's 1.6 the
//! vendor's own dispatch stubs in `src/abi/glx/glvnd.rs` are not what this exercises.) The child
//! runs with `ARENAGL_VALIDATION=1`. Skipped, with the reason printed, without glvnd, Xvfb or
//! libX11.

#[path = "common/child.rs"]
mod child;
#[macro_use]
#[path = "common/glx.rs"]
mod glx_lib;
#[path = "common/library.rs"]
mod library;
#[path = "common/xvfb.rs"]
mod xvfb;

use std::ffi::{c_char, c_int, c_ulong, c_void, CStr, OsStr};
use std::path::{Path, PathBuf};
use std::ptr::null_mut;

use glx_lib::GlxLib as Gl;
use library::library_path;
use xvfb::xlib::{Display, XVisualInfo, Xlib};

const CHILD_ENV: &str = "ARENAGL_GLX_GLVND_CHILD";
const SIZE: u32 = 48;

type P = *mut c_void;

/// glvnd's libGL, if the system has glvnd.
fn system_glvnd() -> Option<PathBuf> {
    ["/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib"]
        .iter()
        .map(Path::new)
        .find(|d| d.join("libGLdispatch.so.0").exists() && d.join("libGLX.so.0").exists())
        .map(|d| d.join("libGL.so.1"))
}

#[test]
fn arenagl_is_glvnds_glx_vendor() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    if system_glvnd().is_none() {
        println!("skipped: the system has no glvnd (libGLdispatch.so.0, libGLX.so.0)");
        return;
    }
    let Some(server) = xvfb::start_or_skip() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("arenagl-glx-glvnd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("vendor dir");
    let link = dir.join("libGLX_arenagl.so.0");
    let _ = std::fs::remove_file(&link);
    let lib = library_path()
        .canonicalize()
        .expect("absolute library path");
    std::os::unix::fs::symlink(&lib, &link).expect("vendor symlink");
    let envs: [(&str, &OsStr); 3] = [
        ("DISPLAY", server.name.as_ref()),
        ("LD_LIBRARY_PATH", dir.as_ref()),
        ("__GLX_VENDOR_LIBRARY_NAME", "arenagl".as_ref()),
    ];
    // The vendor directory goes whether or not the child passed.
    let run = std::panic::catch_unwind(|| {
        child::run_test_child("child_glvnd", CHILD_ENV, envs, "GLVND_OK")
    });
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(panic) = run {
        std::panic::resume_unwind(panic);
    }
}

/// Clears to `rgb`, checks it with `glReadPixels`, swaps, and checks the window (polled).
fn frame(x: &Xlib, gl: &Gl, d: Display, win: c_ulong, rgb: [u8; 3]) {
    let v = rgb.map(|c| f32::from(c) / 255.0);
    let mut px = [0u8; 4];
    // SAFETY: GL calls on the current context; `px` holds one RGBA pixel.
    unsafe {
        f!(gl, c"glViewport": fn(i32, i32, i32, i32))(0, 0, SIZE as i32, SIZE as i32);
        f!(gl, c"glClearColor": fn(f32, f32, f32, f32))(v[0], v[1], v[2], 1.0);
        f!(gl, c"glClear": fn(u32))(0x4000);
        f!(gl, c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, P))(
            3,
            3,
            1,
            1,
            0x1908,
            0x1401,
            px.as_mut_ptr().cast(),
        );
        assert_eq!(px[..3], rgb, "glReadPixels through glvnd's dispatch");
        f!(gl, c"glXSwapBuffers": fn(Display, c_ulong))(d, win);
    }
    let centre = [(SIZE / 2, SIZE / 2, rgb)];
    if x.poll_probes(d, win, &centre).is_err() {
        panic!("the window never showed {rgb:?}");
    }
}

#[test]
fn child_glvnd() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    let x = Xlib::load();
    let d = x.open();
    let path = system_glvnd().expect("glvnd");
    // glvnd's libGL.
    let gl = Gl::load(&path);
    // SAFETY: GLX calls on a live connection; pointers are live locals or GLX's own.
    unsafe {
        let vendor = f!(gl, c"glXGetClientString": fn(Display, c_int) -> *const c_char)(d, 1);
        assert!(!vendor.is_null());
        let attribs = [4, 5, 8, 1, 12, 1, 0]; // RGBA, DOUBLEBUFFER, RED 1, DEPTH 1
        let vis = f!(gl, c"glXChooseVisual": fn(Display, c_int, *const c_int) -> *mut XVisualInfo)(
            d,
            0,
            attribs.as_ptr(),
        );
        assert!(!vis.is_null(), "glXChooseVisual through glvnd");
        let win = x.window(d, Some(&*vis), SIZE, SIZE);
        let ctx = f!(gl, c"glXCreateContext": fn(Display, *mut XVisualInfo, P, c_int) -> P)(
            d,
            vis,
            null_mut(),
            1,
        );
        assert!(!ctx.is_null(), "glXCreateContext through glvnd");
        let make = f!(gl, c"glXMakeCurrent": fn(Display, c_ulong, P) -> c_int);
        assert_eq!(make(d, win, ctx), 1);
        let renderer = f!(gl, c"glGetString": fn(u32) -> *const c_char)(0x1F01);
        let renderer = CStr::from_ptr(renderer).to_string_lossy().into_owned();
        assert!(renderer.contains("ArenaGL"), "{renderer}");
        frame(&x, &gl, d, win, [255, 0, 0]);

        // The extension path.
        let mut n = 0;
        let fb_attribs = [0x8010, 1, 0x8011, 1, 5, 1, 0]; // WINDOW, RGBA, DOUBLEBUFFER
        let configs = f!(gl, c"glXChooseFBConfig": fn(Display, c_int, *const c_int, *mut c_int) -> *mut P)(
            d,
            0,
            fb_attribs.as_ptr(),
            &mut n,
        );
        assert!(
            !configs.is_null() && n > 0,
            "glXChooseFBConfig through glvnd"
        );
        let config = *configs;
        let visual =
            f!(gl, c"glXGetVisualFromFBConfig": fn(Display, P) -> *mut XVisualInfo)(d, config);
        let win2 = x.window(d, Some(&*visual), SIZE, SIZE);
        let core = [0x2091, 3, 0x2092, 3, 0x9126, 1, 0];
        let create =
            f!(gl, c"glXCreateContextAttribsARB": fn(Display, P, P, c_int, *const c_int) -> P);
        let ctx2 = create(d, config, null_mut(), 1, core.as_ptr());
        assert!(
            !ctx2.is_null(),
            "glXCreateContextAttribsARB through glvnd's stub"
        );
        assert_eq!(
            make(d, win2, ctx2),
            1,
            "glvnd knows the new context's vendor"
        );
        f!(gl, c"glXSwapIntervalEXT": fn(Display, c_ulong, c_int))(d, win2, 0);
        frame(&x, &gl, d, win2, [0, 0, 255]);
        assert_eq!(make(d, 0, null_mut()), 1);
        let destroy = f!(gl, c"glXDestroyContext": fn(Display, P));
        destroy(d, ctx);
        destroy(d, ctx2);
        (x.free)(configs.cast());
        (x.free)(visual.cast());
        (x.free)(vis.cast());
    }
    println!("GLVND_OK");
}
