//! EGL window surfaces on X11, end to end: a real X server (`Xvfb`, started here), a real window,
//! `libarenagl.so` loaded by path and reached only through `eglGetProcAddress`, frames presented
//! with `eglSwapBuffers`, and the window's pixels read back with `XGetImage`.
//!
//! The frame is a red clear with the bottom half scissored to green: reading green at the bottom
//! of the window proves both that the frame reached the window and that the present flipped GL's
//! bottom-up rows. The window is then resized (and vsync turned off): the surface must follow
//! the window's size from the swap after the resize, and fill it. Last, the same window through
//! the default display (`EGL_DEFAULT_DISPLAY`, whose X connection ArenaGL opens itself). The GL part runs in a child process (this test binary re-executed) with
//! `ARENAGL_VALIDATION=1`, so the parent can fail on any validation-layer message in its stderr.
//! Skipped, with the reason printed, only when `Xvfb` or libX11 is missing (CI installs `xvfb`).

#[path = "common/child.rs"]
mod child;
#[path = "common/library.rs"]
mod library;
#[path = "common/xvfb.rs"]
mod xvfb;

use std::ffi::{c_char, c_void, CStr};
use std::ptr::{null, null_mut};

use arenagl_present::egl::*;
use library::library_path;
use xvfb::xlib::{Display, Window, Xlib};

const CHILD_ENV: &str = "ARENAGL_X11_WINDOW_CHILD";
const SIZE: u32 = 64;
const RED: [u8; 3] = [255, 0, 0];
const GREEN: [u8; 3] = [0, 255, 0];
const BLUE: [u8; 3] = [0, 0, 255];
const WHITE: [u8; 3] = [255, 255, 255];

#[test]
fn swap_buffers_presents_upright_into_an_x11_window() {
    run_child("child_renders_into_the_window", &[], "WINDOW_PIXELS_OK");
}

/// Under memory pressure (a 160 MiB budget, 98 % of it taken) the window renders at half size
/// (`ARENAGL_CRITICAL_RENDER_SCALE`) and the present scales up: the window and `glReadPixels`
/// still show the frame at full size; once the memory is freed the full size comes back.
#[test]
fn critical_pressure_renders_the_window_at_a_reduced_scale() {
    run_child(
        "child_renders_at_a_reduced_scale",
        &[
            ("ARENAGL_BUDGET_MB", "160"),
            ("ARENAGL_CRITICAL_RENDER_SCALE", "0.5"),
        ],
        "RENDER_SCALE_OK",
    );
}

/// Runs this binary's test `child` as the GL child under a fresh Xvfb, with validation on and
/// `env`; the child must print `marker` and the validation layer must stay silent.
fn run_child(child: &str, env: &[(&str, &str)], marker: &str) {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    if let Some(server) = xvfb::start_or_skip() {
        let display = [("DISPLAY", server.name.as_str())];
        let envs = display.iter().chain(env).copied();
        child::run_test_child(child, CHILD_ENV, envs, marker);
    }
}

/// The GL part, run only as the child of the test above.
#[test]
fn child_renders_into_the_window() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    let x = Xlib::load();
    let egl = Egl::load();
    let WindowContext {
        display,
        window,
        dpy,
        ctx,
        surface,
    } = window_context(&x, &egl);
    // SAFETY: the EGL and GL calls follow the C API; every pointer argument is a live local.
    unsafe {
        let gl = Gl::load(&egl);
        let frame = |dpy: Handle, surface: Handle, width: u32, height: u32, colors| {
            draw_halves(&egl, &gl, dpy, surface, (width, height), colors)
        };
        for _ in 0..3 {
            frame(dpy, surface, SIZE, SIZE, [RED, GREEN]);
        }
        assert_eq!((gl.get_error)(), 0, "no GL error");
        expect_halves(&x, display, window, SIZE, SIZE, [RED, GREEN]);

        // Resized, and without vsync: the swap after the resize gives the surface images of
        // the new size (EGL resizes at the swap); frames after it fill the whole window.
        assert_eq!((egl.swap_interval)(dpy, 0), 1);
        let (w2, h2) = (96, 48);
        (x.resize_window)(display, window, w2, h2);
        (x.sync)(display, 0);
        frame(dpy, surface, SIZE, SIZE, [RED, GREEN]);
        for (attribute, want) in [(EGL_WIDTH, w2), (EGL_HEIGHT, h2)] {
            let mut v = 0;
            assert_eq!((egl.query_surface)(dpy, surface, attribute, &mut v), 1);
            assert_eq!(v, want as EGLint, "the surface follows the window's size");
        }
        for _ in 0..3 {
            frame(dpy, surface, w2, h2, [RED, GREEN]);
        }
        assert_eq!((gl.get_error)(), 0, "no GL error");
        expect_halves(&x, display, window, w2, h2, [RED, GREEN]);

        assert_eq!(
            (egl.make_current)(dpy, null_mut(), null_mut(), null_mut()),
            1
        );
        assert_eq!((egl.destroy_surface)(dpy, surface), 1);
        assert_eq!((egl.destroy_context)(dpy, ctx), 1);

        // The default display has no X connection from the program: ArenaGL opens its own
        // ($DISPLAY) for the same window.
        let default = (egl.get_display)(null_mut());
        assert_eq!((egl.initialize)(default, null_mut(), null_mut()), 1);
        let mut config = null_mut();
        let mut count = 0;
        assert_eq!(
            (egl.choose_config)(default, CONFIG_ATTRIBS.as_ptr(), &mut config, 1, &mut count),
            1
        );
        let ctx = (egl.create_context)(default, config, null_mut(), CONTEXT_ATTRIBS.as_ptr());
        assert!(!ctx.is_null());
        let surface = (egl.create_window_surface)(default, config, window as usize, null());
        assert!(
            !surface.is_null(),
            "eglCreateWindowSurface on the default display: 0x{:x}",
            (egl.get_error)()
        );
        assert_eq!((egl.make_current)(default, surface, surface, ctx), 1);
        for _ in 0..2 {
            frame(default, surface, w2, h2, [BLUE, WHITE]);
        }
        expect_halves(&x, display, window, w2, h2, [BLUE, WHITE]);
        assert_eq!(
            (egl.make_current)(default, null_mut(), null_mut(), null_mut()),
            1
        );
        assert_eq!((egl.destroy_surface)(default, surface), 1);
        assert_eq!((egl.destroy_context)(default, ctx), 1);
        (x.destroy_window)(display, window);
        (x.sync)(display, 0);
    }
    println!("WINDOW_PIXELS_OK");
}

/// The GL part of `critical_pressure_renders_the_window_at_a_reduced_scale`.
#[test]
fn child_renders_at_a_reduced_scale() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    let x = Xlib::load();
    let egl = Egl::load();
    let w = window_context(&x, &egl);
    let gl = Gl::load(&egl);
    let stat = |name: &CStr| {
        // SAFETY: the library's diagnostic export, with its C signature.
        let get: unsafe extern "C" fn(*const c_char) -> u64 =
            unsafe { *egl._lib.get(b"arenagl_memory_stat\0").expect("exported") };
        // SAFETY: a NUL-terminated name.
        let v = unsafe { get(name.as_ptr()) };
        assert_ne!(v, u64::MAX, "{name:?}");
        v
    };
    let frame = |colors| draw_halves(&egl, &gl, w.dpy, w.surface, (SIZE, SIZE), colors);
    // Frames until `name` reads `want` (bounded).
    let frames_until = |name: &CStr, want: u64| {
        for _ in 0..12 {
            frame([RED, GREEN]);
            if stat(name) == want {
                return;
            }
        }
        panic!("{name:?} is {} after 12 frames, wanted {want}", stat(name));
    };
    // The frame read back with glReadPixels: GL's bottom half green, top half red, at full
    // size (rows next to the split may blend once scaled up).
    let read_back = || {
        let mut px = vec![0u8; (SIZE * SIZE * 4) as usize];
        // SAFETY: `px` holds SIZE × SIZE RGBA pixels.
        unsafe {
            (gl.read_pixels)(
                0,
                0,
                SIZE as i32,
                SIZE as i32,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                px.as_mut_ptr().cast(),
            )
        };
        for (row, want) in [
            (0, GREEN),
            (SIZE / 4, GREEN),
            (SIZE * 3 / 4, RED),
            (SIZE - 1, RED),
        ] {
            for col in [0, SIZE / 2, SIZE - 1] {
                let at = ((row * SIZE + col) * 4) as usize;
                assert_eq!(px[at..at + 3], want, "glReadPixels at ({col}, {row})");
            }
        }
    };
    for _ in 0..3 {
        frame([RED, GREEN]);
    }
    expect_halves(&x, w.display, w.window, SIZE, SIZE, [RED, GREEN]);
    assert_eq!(
        stat(c"render_scale_percent"),
        0,
        "no rescale without pressure"
    );

    // 98 % of the budget: Critical, and the next swaps render at half size.
    // SAFETY: the GL calls follow the C API; out-pointers are locals, no data pointer.
    let filler = unsafe {
        (gl.finish)();
        frame([RED, GREEN]);
        let target = stat(c"budget_bytes") / 100 * 98;
        let mut b = 0;
        (gl.gen_buffers)(1, &mut b);
        (gl.bind_buffer)(GL_ARRAY_BUFFER, b);
        let size = target.saturating_sub(stat(c"live_bytes"));
        (gl.buffer_data)(GL_ARRAY_BUFFER, size as isize, null(), GL_STATIC_DRAW);
        assert_eq!((gl.get_error)(), 0, "the filler fits the budget");
        b
    };
    frames_until(c"render_scale_percent", 50);
    for _ in 0..2 {
        frame([RED, GREEN]);
    }
    expect_halves(&x, w.display, w.window, SIZE, SIZE, [RED, GREEN]);
    read_back();

    // Memory freed: pressure falls and the full size comes back.
    // SAFETY: a generated buffer name.
    unsafe { (gl.delete_buffers)(1, &filler) };
    frames_until(c"render_scale_percent", 100);
    frame([RED, GREEN]);
    expect_halves(&x, w.display, w.window, SIZE, SIZE, [RED, GREEN]);
    read_back();
    // SAFETY: no arguments.
    assert_eq!(unsafe { (gl.get_error)() }, 0, "no GL error");
    println!("RENDER_SCALE_OK");
}

/// One frame: a `top` clear with the bottom half (GL's window coordinates start at the bottom)
/// scissored to `bottom`, then `eglSwapBuffers`.
fn draw_halves(
    egl: &Egl,
    gl: &Gl,
    dpy: Handle,
    surface: Handle,
    (width, height): (u32, u32),
    colors: [[u8; 3]; 2],
) {
    let [top, bottom] = colors.map(|c| c.map(|v| f32::from(v) / 255.0));
    // SAFETY: GL and EGL calls with the current context's display and surface.
    unsafe {
        (gl.clear_color)(top[0], top[1], top[2], 1.0);
        (gl.clear)(GL_COLOR_BUFFER_BIT);
        (gl.enable)(GL_SCISSOR_TEST);
        (gl.scissor)(0, 0, width as i32, (height / 2) as i32);
        (gl.clear_color)(bottom[0], bottom[1], bottom[2], 1.0);
        (gl.clear)(GL_COLOR_BUFFER_BIT);
        (gl.disable)(GL_SCISSOR_TEST);
        assert_eq!(
            (egl.swap_buffers)(dpy, surface),
            1,
            "eglSwapBuffers: 0x{:x}",
            (egl.get_error)()
        );
    }
}

/// The window config's attributes and the 3.3 context's.
const CONFIG_ATTRIBS: [EGLint; 11] = [
    EGL_SURFACE_TYPE,
    EGL_WINDOW_BIT,
    EGL_RENDERABLE_TYPE,
    EGL_OPENGL_BIT,
    EGL_RED_SIZE,
    8,
    EGL_GREEN_SIZE,
    8,
    EGL_BLUE_SIZE,
    8,
    EGL_NONE,
];
const CONTEXT_ATTRIBS: [EGLint; 5] = [
    EGL_CONTEXT_MAJOR_VERSION,
    3,
    EGL_CONTEXT_MINOR_VERSION,
    3,
    EGL_NONE,
];

/// A mapped `SIZE`×`SIZE` X11 window with a current 3.3 context on its EGL window surface.
struct WindowContext {
    display: Display,
    window: Window,
    dpy: Handle,
    ctx: Handle,
    surface: Handle,
}

fn window_context(x: &Xlib, egl: &Egl) -> WindowContext {
    let (display, window) = open_window(x);
    // SAFETY: the EGL calls follow the C API; every pointer argument is a live local.
    unsafe {
        let dpy = (egl.get_display)(display);
        assert!(!dpy.is_null(), "eglGetDisplay(Display*)");
        let platform = (egl.get_platform_display)(EGL_PLATFORM_X11_KHR, display, null());
        assert_eq!(platform, dpy, "one EGL display per X connection");
        assert_eq!((egl.initialize)(dpy, null_mut(), null_mut()), 1);
        assert_eq!((egl.bind_api)(EGL_OPENGL_API), 1);
        let mut config = null_mut();
        let mut count = 0;
        assert_eq!(
            (egl.choose_config)(dpy, CONFIG_ATTRIBS.as_ptr(), &mut config, 1, &mut count),
            1
        );
        assert_eq!(count, 1, "a window config");
        let ctx = (egl.create_context)(dpy, config, null_mut(), CONTEXT_ATTRIBS.as_ptr());
        assert!(
            !ctx.is_null(),
            "eglCreateContext: 0x{:x}",
            (egl.get_error)()
        );
        let surface = (egl.create_window_surface)(dpy, config, window as usize, null());
        assert!(
            !surface.is_null(),
            "eglCreateWindowSurface: 0x{:x}",
            (egl.get_error)()
        );
        for (attribute, want) in [(EGL_WIDTH, SIZE), (EGL_HEIGHT, SIZE)] {
            let mut v = 0;
            assert_eq!((egl.query_surface)(dpy, surface, attribute, &mut v), 1);
            assert_eq!(v, want as EGLint, "the surface has the window's size");
        }
        assert_eq!((egl.make_current)(dpy, surface, surface, ctx), 1);
        WindowContext {
            display,
            window,
            dpy,
            ctx,
            surface,
        }
    }
}

#[test]
fn failed_acquires_and_unsubmitted_frames_leave_the_window_presenting() {
    run_child(
        "child_presents_through_failed_acquires",
        // The device-loss part checks the latch (recovery's opt-out).
        &[("ARENAGL_RECOVER", "0")],
        "FAILED_ACQUIRES_OK",
    );
}

const EGL_BAD_ALLOC: EGLint = 0x3003;
const EGL_CONTEXT_LOST: EGLint = 0x300E;
const GL_OUT_OF_MEMORY: u32 = 0x0505;

/// A window, an EGL display, a window config and a 3.3 context, for the fault tests.
struct WindowRig {
    x: Xlib,
    egl: Egl,
    display: Display,
    window: Window,
    dpy: Handle,
    config: Handle,
}

impl WindowRig {
    fn new() -> Self {
        let x = Xlib::load();
        let (display, window) = open_window(&x);
        let egl = Egl::load();
        let attribs = [
            EGL_SURFACE_TYPE,
            EGL_WINDOW_BIT,
            EGL_RENDERABLE_TYPE,
            EGL_OPENGL_BIT,
            EGL_RED_SIZE,
            8,
            EGL_NONE,
        ];
        // SAFETY: the EGL C API; every pointer is a live local.
        let (dpy, config) = unsafe {
            let dpy = (egl.get_display)(display);
            assert_eq!((egl.initialize)(dpy, null_mut(), null_mut()), 1);
            assert_eq!((egl.bind_api)(EGL_OPENGL_API), 1);
            let mut config = null_mut();
            let mut count = 0;
            assert_eq!(
                (egl.choose_config)(dpy, attribs.as_ptr(), &mut config, 1, &mut count),
                1
            );
            assert_eq!(count, 1, "a window config");
            (dpy, config)
        };
        Self {
            x,
            egl,
            display,
            window,
            dpy,
            config,
        }
    }

    /// A new 3.3 context and a window surface for the window, made current.
    fn current(&self) -> (Handle, Handle) {
        let ctx_attribs = [
            EGL_CONTEXT_MAJOR_VERSION,
            3,
            EGL_CONTEXT_MINOR_VERSION,
            3,
            EGL_NONE,
        ];
        let egl = &self.egl;
        // SAFETY: the EGL C API; every pointer is a live local.
        unsafe {
            let ctx = (egl.create_context)(self.dpy, self.config, null_mut(), ctx_attribs.as_ptr());
            assert!(
                !ctx.is_null(),
                "eglCreateContext: 0x{:x}",
                (egl.get_error)()
            );
            let surface =
                (egl.create_window_surface)(self.dpy, self.config, self.window as usize, null());
            assert!(
                !surface.is_null(),
                "eglCreateWindowSurface: 0x{:x}",
                (egl.get_error)()
            );
            assert_eq!((egl.make_current)(self.dpy, surface, surface, ctx), 1);
            (ctx, surface)
        }
    }

    fn release(&self, ctx: Handle, surface: Handle) {
        let egl = &self.egl;
        // SAFETY: the EGL C API on handles this rig made.
        unsafe {
            assert_eq!(
                (egl.make_current)(self.dpy, null_mut(), null_mut(), null_mut()),
                1
            );
            assert_eq!((egl.destroy_surface)(self.dpy, surface), 1);
            assert_eq!((egl.destroy_context)(self.dpy, ctx), 1);
        }
    }

    /// One frame of `top` over `bottom`; the result of its `eglSwapBuffers` (and the EGL error).
    fn frame(&self, gl: &Gl, surface: Handle, [top, bottom]: [[u8; 3]; 2]) -> (u32, EGLint) {
        let rgba = |c: [u8; 3]| c.map(|v| f32::from(v) / 255.0);
        let (top, bottom) = (rgba(top), rgba(bottom));
        // SAFETY: GL calls on the current context; EGL on this rig's handles.
        unsafe {
            (gl.clear_color)(top[0], top[1], top[2], 1.0);
            (gl.clear)(GL_COLOR_BUFFER_BIT);
            (gl.enable)(GL_SCISSOR_TEST);
            (gl.scissor)(0, 0, SIZE as i32, (SIZE / 2) as i32);
            (gl.clear_color)(bottom[0], bottom[1], bottom[2], 1.0);
            (gl.clear)(GL_COLOR_BUFFER_BIT);
            (gl.disable)(GL_SCISSOR_TEST);
            let ok = (self.egl.swap_buffers)(self.dpy, surface);
            (ok, (self.egl.get_error)())
        }
    }

    fn faults(&self, plan: &str) {
        let plan = std::ffi::CString::new(plan).expect("no NUL");
        // SAFETY: a NUL-terminated string.
        let set = unsafe { (self.egl.set_faults)(plan.as_ptr()) };
        assert_eq!(set, 0, "{plan:?}");
    }

    fn stat(&self, name: &CStr) -> u64 {
        // SAFETY: a NUL-terminated string.
        unsafe { (self.egl.memory_stat)(name.as_ptr()) }
    }

    fn validation_errors(&self) -> u64 {
        // SAFETY: no arguments.
        unsafe { (self.egl.validation_errors)() }
    }
}

/// The GL part of the test above, run only in its child.
///
/// - The swapchain holds the drawable count it asked for, and every image presented is one of
///   those it tracks.
/// - An acquire that fails (each result `vkAcquireNextImageKHR` can return short of device or
///   surface loss, once, twice in a row, and every other frame) leaves its semaphore unsignalled
///   and unwaited: the frame is skipped, and every later frame acquires, renders and shows the
///   right picture with no validation error (`VUID-vkQueueSubmit-pWaitSemaphores-03238` if a
///   skipped frame waited on it, `VUID-vkAcquireNextImageKHR-semaphore-01286` if a signalled one
///   were acquired with again).
/// - A frame whose image was acquired but whose submission failed (out of memory twice: the
///   ladder's retry too) replaces its signalled semaphore: the swap succeeds with
///   `GL_OUT_OF_MEMORY`, and the next frames acquire cleanly.
/// - A device lost while a window surface is created is `EGL_BAD_ALLOC` (EGL reports
///   `EGL_CONTEXT_LOST` only from swap, copy and make-current); the old context reports the loss,
///   and a new context and surface on the same window render again.
#[test]
fn child_presents_through_failed_acquires() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    let rig = WindowRig::new();
    let (ctx, surface) = rig.current();
    let gl = Gl::load(&rig.egl);
    let colors = [
        [RED, GREEN],
        [BLUE, WHITE],
        [GREEN, RED],
        [WHITE, BLUE],
        [RED, BLUE],
        [GREEN, WHITE],
        [BLUE, RED],
        [WHITE, GREEN],
    ];

    // The drawable count: the swapchain has the images it asked for, and all of them are shown.
    for _ in 0..8 {
        assert_eq!(rig.frame(&gl, surface, colors[0]).0, 1);
    }
    expect_halves(&rig.x, rig.display, rig.window, SIZE, SIZE, colors[0]);
    let asked = rig.stat(c"swapchain_min_images");
    let images = rig.stat(c"swapchain_images");
    assert!(asked >= 2, "at least double buffered: {asked}");
    assert_eq!(
        images, asked,
        "the swapchain has the image count it asked for"
    );
    // Every image presented is one the presenter tracks. (Lavapipe's X11 WSI copies each
    // image out at the present and hands the same one back, so it may cycle through fewer.)
    let presented = rig.stat(c"swapchain_images_presented");
    assert!(
        (1..=images).contains(&presented),
        "{presented} of {images} images presented"
    );

    // Failed acquires: skipped frames, then the right pictures.
    let plans = [
        "acquire@1=timeout",
        "acquire@1=not_ready",
        "acquire@1=oom_device",
        "acquire@1=oom_host",
        "acquire@1=out_of_date",
        "acquire@1=out_of_date,acquire@2=out_of_date",
        "acquire%2=timeout",
    ];
    for (round, plan) in plans.into_iter().enumerate() {
        let picture = colors[(round + 1) % colors.len()];
        let injected = rig.stat(c"faults_injected");
        rig.faults(plan);
        for _ in 0..4 {
            let (ok, err) = rig.frame(&gl, surface, picture);
            assert_eq!(ok, 1, "[{plan}] eglSwapBuffers: 0x{err:x}");
        }
        // SAFETY: a GL call on the current context.
        assert_eq!(unsafe { (gl.get_error)() }, 0, "[{plan}] invisible to GL");
        assert!(
            rig.stat(c"faults_injected") > injected,
            "[{plan}] the failure was injected"
        );
        rig.faults("");
        for _ in 0..2 {
            assert_eq!(rig.frame(&gl, surface, picture).0, 1, "[{plan}] after");
        }
        expect_halves(&rig.x, rig.display, rig.window, SIZE, SIZE, picture);
        assert_eq!(rig.validation_errors(), 0, "[{plan}] validation-clean");
    }

    // An acquired image whose frame could not be submitted.
    let picture = [WHITE, RED];
    let injected = rig.stat(c"faults_injected");
    // The first attempt, the submission ladder's three retries and its split attempt.
    rig.faults(
        "submit@1=oom_device,submit@2=oom_host,submit@3=oom_device,submit@4=oom_device,\
         submit@5=oom_host",
    );
    let (ok, err) = rig.frame(&gl, surface, picture);
    assert_eq!(
        ok, 1,
        "an unsubmitted frame is skipped, not failed: 0x{err:x}"
    );
    // SAFETY: a GL call on the current context.
    let error = unsafe { (gl.get_error)() };
    assert_eq!(error, GL_OUT_OF_MEMORY, "the skipped frame says why");
    assert_eq!(
        rig.stat(c"faults_injected"),
        injected + 5,
        "every attempt refused"
    );
    rig.faults("");
    for _ in 0..6 {
        assert_eq!(
            rig.frame(&gl, surface, picture).0,
            1,
            "after the skipped frame"
        );
    }
    expect_halves(&rig.x, rig.display, rig.window, SIZE, SIZE, picture);
    assert_eq!(
        rig.validation_errors(),
        0,
        "validation-clean after a skipped frame"
    );
    rig.release(ctx, surface);

    // A device lost while a window surface is created.
    let (ctx, surface) = rig.current();
    // SAFETY: the EGL C API on this rig's handles.
    unsafe {
        assert_eq!(
            (rig.egl.make_current)(rig.dpy, null_mut(), null_mut(), null_mut()),
            1
        );
        assert_eq!((rig.egl.destroy_surface)(rig.dpy, surface), 1);
        rig.faults("swapchain@1=device_lost");
        let lost =
            (rig.egl.create_window_surface)(rig.dpy, rig.config, rig.window as usize, null());
        assert!(lost.is_null(), "no surface on a lost device");
        assert_eq!(
            (rig.egl.get_error)(),
            EGL_BAD_ALLOC,
            "a window surface that cannot be made on a lost device is EGL_BAD_ALLOC"
        );
        // The context of the lost device reports the loss where EGL says it does.
        assert_eq!(
            (rig.egl.make_current)(rig.dpy, null_mut(), null_mut(), ctx),
            0,
            "the lost device's context cannot be made current"
        );
        assert_eq!((rig.egl.get_error)(), EGL_CONTEXT_LOST);
        assert_eq!((rig.egl.destroy_context)(rig.dpy, ctx), 1);
    }
    // Recovery: a new device behind a new context and surface on the same window.
    let (ctx, surface) = rig.current();
    let picture = [GREEN, BLUE];
    for _ in 0..3 {
        assert_eq!(rig.frame(&gl, surface, picture).0, 1, "after recovery");
    }
    expect_halves(&rig.x, rig.display, rig.window, SIZE, SIZE, picture);
    assert_eq!(rig.stat(c"device_lost"), 0, "a new device");
    assert_eq!(
        rig.validation_errors(),
        0,
        "validation-clean after recovery"
    );
    rig.release(ctx, surface);
    // SAFETY: Xlib on the rig's handles.
    unsafe {
        (rig.x.destroy_window)(rig.display, rig.window);
        (rig.x.sync)(rig.display, 0);
    }
    println!("FAILED_ACQUIRES_OK");
}

/// A connection to `$DISPLAY` and a mapped `SIZE`×`SIZE` window of the default visual on it.
fn open_window(x: &Xlib) -> (Display, Window) {
    let display = x.open();
    (display, x.window(display, None, SIZE, SIZE))
}

/// Checks (polling, bounded: presenting is asynchronous) that the `width × height` window
/// shows `top` over `bottom`, halves split at the middle row.
fn expect_halves(
    x: &Xlib,
    display: Display,
    window: Window,
    width: u32,
    height: u32,
    [top, bottom]: [[u8; 3]; 2],
) {
    let probes = [
        (width / 2, height / 4, top),
        (width / 2, height * 3 / 4, bottom),
        (0, 0, top),
        (width - 1, 0, top),
        (0, height - 1, bottom),
        (width - 1, height - 1, bottom),
    ];
    if let Err(seen) = x.poll_probes(display, window, &probes) {
        assert_eq!(seen[0], top, "the top half of the window is the full clear");
        assert_eq!(
            seen[1], bottom,
            "the bottom half of the window is GL's bottom half (the present flips rows)"
        );
        panic!("{width}x{height} window: probes {probes:?} saw {seen:?}");
    }
}

type Handle = *mut c_void;

/// A function address from `eglGetProcAddress` as the function pointer type `F`.
///
/// # Safety
/// `F` is a function pointer type whose signature is that of the function at `f`.
unsafe fn cast<F: Copy>(f: *mut c_void) -> F {
    assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<*mut c_void>());
    // SAFETY: same size (checked), and the caller guarantees `F` is the right signature.
    unsafe { std::mem::transmute_copy(&f) }
}

struct Egl {
    _lib: libloading::Library,
    get_proc_address: unsafe extern "C" fn(*const c_char) -> *mut c_void,
    get_display: unsafe extern "C" fn(Display) -> Handle,
    get_platform_display: unsafe extern "C" fn(EGLenum, Display, *const EGLAttrib) -> Handle,
    initialize: unsafe extern "C" fn(Handle, *mut EGLint, *mut EGLint) -> u32,
    bind_api: unsafe extern "C" fn(EGLenum) -> u32,
    choose_config:
        unsafe extern "C" fn(Handle, *const EGLint, *mut Handle, EGLint, *mut EGLint) -> u32,
    create_context: unsafe extern "C" fn(Handle, Handle, Handle, *const EGLint) -> Handle,
    destroy_context: unsafe extern "C" fn(Handle, Handle) -> u32,
    create_window_surface: unsafe extern "C" fn(Handle, Handle, usize, *const EGLint) -> Handle,
    destroy_surface: unsafe extern "C" fn(Handle, Handle) -> u32,
    query_surface: unsafe extern "C" fn(Handle, Handle, EGLint, *mut EGLint) -> u32,
    make_current: unsafe extern "C" fn(Handle, Handle, Handle, Handle) -> u32,
    swap_buffers: unsafe extern "C" fn(Handle, Handle) -> u32,
    swap_interval: unsafe extern "C" fn(Handle, EGLint) -> u32,
    get_error: unsafe extern "C" fn() -> EGLint,
    /// ArenaGL's diagnostics (`src/abi/diagnostics.rs`).
    set_faults: unsafe extern "C" fn(*const c_char) -> i32,
    memory_stat: unsafe extern "C" fn(*const c_char) -> u64,
    validation_errors: unsafe extern "C" fn() -> u64,
}

impl Egl {
    fn load() -> Self {
        let path = library_path();
        // SAFETY: the library is ours and has no constructors; every function is resolved
        // through `eglGetProcAddress` and transmuted to its C signature from the EGL headers.
        unsafe {
            let lib = libloading::Library::new(&path)
                .unwrap_or_else(|e| panic!("load {}: {e}", path.display()));
            let get_proc_address: unsafe extern "C" fn(*const c_char) -> *mut c_void =
                *lib.get(b"eglGetProcAddress\0").expect("eglGetProcAddress");
            let p = |name: &CStr| {
                let f = get_proc_address(name.as_ptr());
                assert!(!f.is_null(), "eglGetProcAddress({name:?})");
                f
            };
            macro_rules! f {
                ($name:literal) => {
                    cast(p($name))
                };
            }
            Self {
                get_display: f!(c"eglGetDisplay"),
                get_platform_display: f!(c"eglGetPlatformDisplay"),
                initialize: f!(c"eglInitialize"),
                bind_api: f!(c"eglBindAPI"),
                choose_config: f!(c"eglChooseConfig"),
                create_context: f!(c"eglCreateContext"),
                destroy_context: f!(c"eglDestroyContext"),
                create_window_surface: f!(c"eglCreateWindowSurface"),
                destroy_surface: f!(c"eglDestroySurface"),
                query_surface: f!(c"eglQuerySurface"),
                make_current: f!(c"eglMakeCurrent"),
                swap_buffers: f!(c"eglSwapBuffers"),
                swap_interval: f!(c"eglSwapInterval"),
                get_error: f!(c"eglGetError"),
                set_faults: *lib
                    .get(b"arenagl_set_faults\0")
                    .expect("arenagl_set_faults"),
                memory_stat: *lib
                    .get(b"arenagl_memory_stat\0")
                    .expect("arenagl_memory_stat"),
                validation_errors: *lib
                    .get(b"arenagl_validation_error_count\0")
                    .expect("arenagl_validation_error_count"),
                get_proc_address,
                _lib: lib,
            }
        }
    }
}

const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_RGBA: u32 = 0x1908;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_STATIC_DRAW: u32 = 0x88E4;
const GL_SCISSOR_TEST: u32 = 0x0C11;

struct Gl {
    gen_buffers: unsafe extern "C" fn(i32, *mut u32),
    bind_buffer: unsafe extern "C" fn(u32, u32),
    buffer_data: unsafe extern "C" fn(u32, isize, *const c_void, u32),
    delete_buffers: unsafe extern "C" fn(i32, *const u32),
    read_pixels: unsafe extern "C" fn(i32, i32, i32, i32, u32, u32, *mut c_void),
    finish: unsafe extern "C" fn(),
    clear_color: unsafe extern "C" fn(f32, f32, f32, f32),
    clear: unsafe extern "C" fn(u32),
    enable: unsafe extern "C" fn(u32),
    disable: unsafe extern "C" fn(u32),
    scissor: unsafe extern "C" fn(i32, i32, i32, i32),
    get_error: unsafe extern "C" fn() -> u32,
}

impl Gl {
    fn load(egl: &Egl) -> Self {
        let p = |name: &CStr| {
            // SAFETY: `name` is NUL-terminated.
            let f = unsafe { (egl.get_proc_address)(name.as_ptr()) };
            assert!(!f.is_null(), "eglGetProcAddress({name:?})");
            f
        };
        macro_rules! f {
            ($name:literal) => {
                // SAFETY: the GL function of that name, with its C signature.
                unsafe { cast(p($name)) }
            };
        }
        Self {
            gen_buffers: f!(c"glGenBuffers"),
            bind_buffer: f!(c"glBindBuffer"),
            buffer_data: f!(c"glBufferData"),
            delete_buffers: f!(c"glDeleteBuffers"),
            read_pixels: f!(c"glReadPixels"),
            finish: f!(c"glFinish"),
            clear_color: f!(c"glClearColor"),
            clear: f!(c"glClear"),
            enable: f!(c"glEnable"),
            disable: f!(c"glDisable"),
            scissor: f!(c"glScissor"),
            get_error: f!(c"glGetError"),
        }
    }
}
