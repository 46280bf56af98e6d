//! GLX 1.4 end to end against a real X server (`Xvfb`, started here), `libarenagl.so` loaded by
//! path and its GLX and GL functions reached as a program does (exports and
//! `glXGetProcAddressARB`): visuals and FBConfigs that agree with the EGL configs, legacy and
//! GLX_ARB_create_context contexts (3.3 core and compatibility) current on windows, a clear and a
//! triangle read back with `glReadPixels` and from the window after `glXSwapBuffers` (upright),
//! pbuffers, a shared context seeing the other's buffer, multisampled configs, and every bad input
//! an error (an X error to the program's handler, and the spec's failure value), never a crash.
//! Each part runs in a child process (this binary re-executed) with `ARENAGL_VALIDATION=1`; the
//! parent fails on any validation-layer message. Skipped, with the reason printed, only without
//! `Xvfb` or libX11.

#[path = "common/child.rs"]
mod child;
#[macro_use]
#[path = "common/glx.rs"]
mod glx_lib;
#[path = "common/library.rs"]
mod library;
#[path = "common/xvfb.rs"]
mod xvfb;

use std::ffi::{c_char, c_int, c_uint, c_ulong, c_void, CStr};
use std::ptr::{null, null_mut};

use glx_lib::GlxLib as Lib;
use library::library_path;
use xvfb::xlib::{Display, Window, XVisualInfo, Xlib};

const CHILD_ENV: &str = "ARENAGL_GLX_WINDOW_CHILD";
const SIZE: u32 = 64;
const RED: [u8; 3] = [255, 0, 0];
const GREEN: [u8; 3] = [0, 255, 0];
const BLUE: [u8; 3] = [0, 0, 255];

type P = *mut c_void;

/// Runs `child` under a fresh Xvfb; it must print `marker`.
fn run_child(child: &str, marker: &str) {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    if let Some(server) = xvfb::start_or_skip() {
        child::run_test_child(child, CHILD_ENV, [("DISPLAY", &server.name)], marker);
    }
}

#[test]
fn legacy_context_draws_into_a_window() {
    run_child("child_legacy", "LEGACY_OK");
}

#[test]
fn core_context_window_pbuffer_and_sharing() {
    run_child("child_core", "CORE_OK");
}

#[test]
fn bad_inputs_are_x_errors_not_crashes() {
    run_child("child_bad_inputs", "BAD_INPUTS_OK");
}

const GLX_RGBA: c_int = 4;
const GLX_DOUBLEBUFFER: c_int = 5;
const GLX_RED_SIZE: c_int = 8;
const GLX_DEPTH_SIZE: c_int = 12;
const GLX_VISUAL_ID: c_int = 0x800B;
const GLX_DRAWABLE_TYPE: c_int = 0x8010;
const GLX_RENDER_TYPE: c_int = 0x8011;
const GLX_X_RENDERABLE: c_int = 0x8012;
const GLX_FBCONFIG_ID: c_int = 0x8013;
const GLX_RGBA_TYPE: c_int = 0x8014;
const GLX_WIDTH: c_int = 0x801D;
const GLX_HEIGHT: c_int = 0x801E;
const GLX_PBUFFER_HEIGHT: c_int = 0x8040;
const GLX_PBUFFER_WIDTH: c_int = 0x8041;
const GLX_SAMPLES: c_int = 100_001;
const GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB: c_int = 0x20B2;
const GLX_WINDOW_BIT: c_int = 1;
const GLX_PBUFFER_BIT: c_int = 4;
const GLX_RGBA_BIT: c_int = 1;
const GLX_SWAP_INTERVAL_EXT: c_int = 0x20F1;
const MAJOR: c_int = 0x2091;
const MINOR: c_int = 0x2092;
const FLAGS: c_int = 0x2094;
const PROFILE: c_int = 0x9126;
const CORE: c_int = 1;
const COMPAT: c_int = 2;

const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_RGBA: u32 = 0x1908;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_RENDERER: u32 = 0x1F01;
const GL_TRIANGLES: u32 = 0x0004;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_STATIC_DRAW: u32 = 0x88E4;
const GL_FLOAT: u32 = 0x1406;
const GL_VERTEX_SHADER: u32 = 0x8B31;
const GL_FRAGMENT_SHADER: u32 = 0x8B30;
const GL_LINK_STATUS: u32 = 0x8B82;

/// GL calls used by the children.
struct Gl<'a>(&'a Lib);

impl Gl<'_> {
    fn clear(&self, c: [u8; 3]) {
        let v = c.map(|v| f32::from(v) / 255.0);
        // SAFETY: GL calls on the current context.
        unsafe {
            f!(self.0, c"glViewport": fn(i32, i32, i32, i32))(0, 0, SIZE as i32, SIZE as i32);
            f!(self.0, c"glClearColor": fn(f32, f32, f32, f32))(v[0], v[1], v[2], 1.0);
            f!(self.0, c"glClear": fn(u32))(GL_COLOR_BUFFER_BIT);
        }
    }

    /// The pixel at GL window coordinates (x, y).
    fn pixel(&self, x: i32, y: i32) -> [u8; 3] {
        let mut px = [0u8; 4];
        // SAFETY: one RGBA pixel into a 4-byte local.
        unsafe {
            f!(self.0, c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, P))(
                x,
                y,
                1,
                1,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                px.as_mut_ptr().cast(),
            )
        };
        [px[0], px[1], px[2]]
    }

    fn error(&self) -> u32 {
        // SAFETY: no arguments.
        unsafe { f!(self.0, c"glGetError": fn() -> u32)() }
    }

    fn renderer(&self) -> String {
        // SAFETY: glGetString returns a static NUL-terminated string or NULL.
        unsafe {
            let s = f!(self.0, c"glGetString": fn(u32) -> *const c_char)(GL_RENDERER);
            assert!(!s.is_null());
            CStr::from_ptr(s).to_string_lossy().into_owned()
        }
    }

    /// The triangle of [`expect_triangle`] in immediate mode (compatibility contexts).
    fn legacy_triangle(&self) {
        // SAFETY: GL calls on the current compatibility context.
        unsafe {
            f!(self.0, c"glBegin": fn(u32))(GL_TRIANGLES);
            f!(self.0, c"glColor3f": fn(f32, f32, f32))(0.0, 1.0, 0.0);
            let v = f!(self.0, c"glVertex2f": fn(f32, f32));
            v(-0.5, -0.5);
            v(0.5, -0.5);
            v(0.0, 0.5);
            f!(self.0, c"glEnd": fn())();
        }
    }

    /// The same triangle with a buffer, a vertex array and GLSL 3.30 (core contexts).
    fn core_triangle(&self) {
        let verts: [f32; 6] = [-0.5, -0.5, 0.5, -0.5, 0.0, 0.5];
        // SAFETY: GL calls on the current core context; every pointer is a live local.
        unsafe {
            let (mut vao, mut vbo) = (0, 0);
            f!(self.0, c"glGenVertexArrays": fn(i32, *mut u32))(1, &mut vao);
            f!(self.0, c"glBindVertexArray": fn(u32))(vao);
            f!(self.0, c"glGenBuffers": fn(i32, *mut u32))(1, &mut vbo);
            f!(self.0, c"glBindBuffer": fn(u32, u32))(GL_ARRAY_BUFFER, vbo);
            f!(self.0, c"glBufferData": fn(u32, isize, *const c_void, u32))(
                GL_ARRAY_BUFFER,
                24,
                verts.as_ptr().cast(),
                GL_STATIC_DRAW,
            );
            f!(self.0, c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void))(
                0,
                2,
                GL_FLOAT,
                0,
                8,
                null(),
            );
            f!(self.0, c"glEnableVertexAttribArray": fn(u32))(0);
            let program = self.program();
            f!(self.0, c"glUseProgram": fn(u32))(program);
            f!(self.0, c"glDrawArrays": fn(u32, i32, i32))(GL_TRIANGLES, 0, 3);
        }
    }

    fn program(&self) -> u32 {
        let vs = c"#version 330 core\nlayout(location = 0) in vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n";
        let fs = c"#version 330 core\nout vec4 color;\nvoid main() { color = vec4(0.0, 1.0, 0.0, 1.0); }\n";
        // SAFETY: GL calls on the current context; sources are NUL-terminated.
        unsafe {
            let program = f!(self.0, c"glCreateProgram": fn() -> u32)();
            for (kind, src) in [(GL_VERTEX_SHADER, vs), (GL_FRAGMENT_SHADER, fs)] {
                let sh = f!(self.0, c"glCreateShader": fn(u32) -> u32)(kind);
                let ptr = src.as_ptr();
                f!(self.0, c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32))(
                    sh,
                    1,
                    &ptr,
                    null(),
                );
                f!(self.0, c"glCompileShader": fn(u32))(sh);
                f!(self.0, c"glAttachShader": fn(u32, u32))(program, sh);
            }
            f!(self.0, c"glLinkProgram": fn(u32))(program);
            let mut ok = 0;
            f!(self.0, c"glGetProgramiv": fn(u32, u32, *mut i32))(program, GL_LINK_STATUS, &mut ok);
            assert_eq!(ok, 1, "the program links");
            program
        }
    }
}

/// Red clear with a green triangle (-0.5,-0.5), (0.5,-0.5), (0,0.5): GL (20,19) is inside, GL
/// (20,43) and the corners outside; X's rows are GL's flipped.
fn expect_triangle_gl(gl: &Gl) {
    assert_eq!(gl.pixel(32, 32), GREEN, "the triangle's centre");
    assert_eq!(gl.pixel(20, 19), GREEN, "low in the triangle");
    assert_eq!(gl.pixel(20, 43), RED, "beside the triangle's top");
    assert_eq!(gl.pixel(1, 1), RED, "a corner");
}

/// The same frame in the window (top-left origin), polled: presenting is asynchronous.
fn expect_triangle_x(x: &Xlib, d: Display, w: Window) {
    let probes = [(32, 32, GREEN), (20, 44, GREEN), (20, 20, RED), (1, 1, RED)];
    if let Err(seen) = x.poll_probes(d, w, &probes) {
        panic!("window probes {probes:?} saw {seen:?}");
    }
}

/// The GLX entry points the children call.
struct Glx<'a> {
    lib: &'a Lib,
}

impl Glx<'_> {
    fn choose_fbconfigs(&self, d: Display, attribs: &[c_int]) -> Vec<P> {
        let mut n = 0;
        // SAFETY: a `None`-terminated list; the array has `n` entries and is freed with XFree.
        unsafe {
            let f = f!(self.lib, c"glXChooseFBConfig": fn(Display, c_int, *const c_int, *mut c_int) -> *mut P);
            let list = f(d, 0, attribs.as_ptr(), &mut n);
            if list.is_null() {
                return Vec::new();
            }
            let out = std::slice::from_raw_parts(list, n as usize).to_vec();
            libc_free(list.cast());
            out
        }
    }

    fn fbconfig_attrib(&self, d: Display, c: P, a: c_int) -> c_int {
        let mut v = -1;
        // SAFETY: `v` is a live local.
        let r = unsafe {
            f!(self.lib, c"glXGetFBConfigAttrib": fn(Display, P, c_int, *mut c_int) -> c_int)(
                d, c, a, &mut v,
            )
        };
        assert_eq!(r, 0, "glXGetFBConfigAttrib(0x{a:x})");
        v
    }

    fn visual_of(&self, d: Display, c: P) -> XVisualInfo {
        // SAFETY: the returned visual is Xlib-allocated; copied, then freed with XFree.
        unsafe {
            let v =
                f!(self.lib, c"glXGetVisualFromFBConfig": fn(Display, P) -> *mut XVisualInfo)(d, c);
            assert!(!v.is_null(), "the window config has a visual");
            let copy = *v;
            libc_free(v.cast());
            copy
        }
    }

    fn create_attribs(&self, d: Display, c: P, share: P, attribs: &[c_int]) -> P {
        // SAFETY: a `None`-terminated list.
        unsafe {
            f!(self.lib, c"glXCreateContextAttribsARB": fn(Display, P, P, c_int, *const c_int) -> P)(
                d,
                c,
                share,
                1,
                attribs.as_ptr(),
            )
        }
    }

    fn make_current(&self, d: Display, draw: c_ulong, read: c_ulong, ctx: P) -> c_int {
        // SAFETY: handles are passed through; GLX validates them.
        unsafe {
            f!(self.lib, c"glXMakeContextCurrent": fn(Display, c_ulong, c_ulong, P) -> c_int)(
                d, draw, read, ctx,
            )
        }
    }

    fn swap(&self, d: Display, draw: c_ulong) {
        // SAFETY: as above.
        unsafe { f!(self.lib, c"glXSwapBuffers": fn(Display, c_ulong))(d, draw) };
    }

    fn query_drawable(&self, d: Display, draw: c_ulong, a: c_int) -> c_uint {
        let mut v = 0;
        // SAFETY: `v` is a live local.
        unsafe {
            f!(self.lib, c"glXQueryDrawable": fn(Display, c_ulong, c_int, *mut c_uint))(
                d, draw, a, &mut v,
            )
        };
        v
    }

    fn destroy_context(&self, d: Display, ctx: P) {
        // SAFETY: a context this test made.
        unsafe { f!(self.lib, c"glXDestroyContext": fn(Display, P))(d, ctx) };
    }
}

extern "C" {
    /// `XFree` is `free`; the tests free GLX's arrays with it directly.
    #[link_name = "free"]
    fn libc_free(p: *mut c_void);
}

#[test]
fn child_legacy() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    let (x, lib) = (Xlib::load(), Lib::load(&library_path()));
    let (glx, gl) = (Glx { lib: &lib }, Gl(&lib));
    let d = x.open();
    // SAFETY: GLX calls on a live connection; every pointer is a live local or GLX's own.
    unsafe {
        let (mut major, mut minor) = (0, 0);
        f!(lib, c"glXQueryVersion": fn(Display, *mut c_int, *mut c_int) -> c_int)(
            d, &mut major, &mut minor,
        );
        assert_eq!((major, minor), (1, 4));
        let attribs = [
            GLX_RGBA,
            GLX_RED_SIZE,
            1,
            GLX_DOUBLEBUFFER,
            GLX_DEPTH_SIZE,
            1,
            0,
        ];
        let vis = f!(lib, c"glXChooseVisual": fn(Display, c_int, *const c_int) -> *mut XVisualInfo)(
            d,
            0,
            attribs.as_ptr(),
        );
        assert!(!vis.is_null(), "glXChooseVisual");
        let mut v = 0;
        let get_config =
            f!(lib, c"glXGetConfig": fn(Display, *mut XVisualInfo, c_int, *mut c_int) -> c_int);
        assert_eq!(get_config(d, vis, GLX_DOUBLEBUFFER, &mut v), 0);
        assert_eq!(v, 1);
        assert_eq!(get_config(d, vis, GLX_DEPTH_SIZE, &mut v), 0);
        assert!(v >= 1, "the depth buffer asked for");
        let win = x.window(d, Some(&*vis), SIZE, SIZE);
        let ctx = f!(lib, c"glXCreateContext": fn(Display, *mut XVisualInfo, P, c_int) -> P)(
            d,
            vis,
            null_mut(),
            1,
        );
        assert!(!ctx.is_null(), "glXCreateContext");
        assert_eq!(f!(lib, c"glXIsDirect": fn(Display, P) -> c_int)(d, ctx), 1);
        let make = f!(lib, c"glXMakeCurrent": fn(Display, c_ulong, P) -> c_int);
        assert_eq!(make(d, win, ctx), 1);
        assert_eq!(f!(lib, c"glXGetCurrentContext": fn() -> P)(), ctx);
        assert_eq!(f!(lib, c"glXGetCurrentDrawable": fn() -> c_ulong)(), win);
        assert_eq!(f!(lib, c"glXGetCurrentDisplay": fn() -> Display)(), d);
        assert!(gl.renderer().contains("ArenaGL"), "{}", gl.renderer());
        assert_eq!(glx.query_drawable(d, win, GLX_WIDTH), SIZE);
        for _ in 0..2 {
            gl.clear(RED);
            gl.legacy_triangle();
            expect_triangle_gl(&gl);
            glx.swap(d, win);
        }
        assert_eq!(gl.error(), 0, "no GL error");
        expect_triangle_x(&x, d, win);
        assert_eq!(make(d, 0, null_mut()), 1);
        assert!(f!(lib, c"glXGetCurrentContext": fn() -> P)().is_null());
        glx.destroy_context(d, ctx);
        libc_free(vis.cast());
    }
    println!("LEGACY_OK");
}

/// A window-and-pbuffer FBConfig with `samples` samples; its visual.
fn window_config(glx: &Glx, d: Display, samples: c_int) -> (P, XVisualInfo) {
    let attribs = [
        GLX_X_RENDERABLE,
        1,
        GLX_DRAWABLE_TYPE,
        GLX_WINDOW_BIT | GLX_PBUFFER_BIT,
        GLX_RENDER_TYPE,
        GLX_RGBA_BIT,
        GLX_DOUBLEBUFFER,
        1,
        GLX_RED_SIZE,
        8,
        GLX_DEPTH_SIZE,
        24,
        GLX_SAMPLES,
        samples,
        0,
    ];
    let configs = glx.choose_fbconfigs(d, &attribs);
    assert!(!configs.is_empty(), "glXChooseFBConfig");
    let c = configs[0];
    assert!(glx.fbconfig_attrib(d, c, GLX_SAMPLES) >= samples);
    let vis = glx.visual_of(d, c);
    assert_eq!(
        glx.fbconfig_attrib(d, c, GLX_VISUAL_ID) as c_ulong,
        vis.visualid
    );
    (c, vis)
}

/// The drawable current on `config` (8-bit, 4×) is multisampled and sRGB-capable
/// (GLX_ARB_framebuffer_sRGB): `GL_SAMPLES` 4, and `GL_FRAMEBUFFER_SRGB` encodes a clear of
/// linear 0.25 to 137 (64 without it).
fn expect_multisampled_srgb(glx: &Glx, gl: &Gl, d: Display, config: P) {
    assert_eq!(
        glx.fbconfig_attrib(d, config, GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB),
        1
    );
    let lib = gl.0;
    let mut samples = 0;
    // SAFETY: GL calls on the current context; one integer written to a local.
    unsafe {
        f!(lib, c"glGetIntegerv": fn(u32, *mut i32))(0x80A9, &mut samples);
        f!(lib, c"glClearColor": fn(f32, f32, f32, f32))(0.25, 0.25, 0.25, 1.0);
        f!(lib, c"glClear": fn(u32))(GL_COLOR_BUFFER_BIT);
    }
    assert_eq!(samples, 4, "GL_SAMPLES of the multisampled window");
    let linear = gl.pixel(1, 1)[0];
    assert!(linear.abs_diff(64) <= 1, "no encoding by default: {linear}");
    // SAFETY: as above.
    unsafe {
        f!(lib, c"glEnable": fn(u32))(0x8DB9); // GL_FRAMEBUFFER_SRGB
        f!(lib, c"glClear": fn(u32))(GL_COLOR_BUFFER_BIT);
        f!(lib, c"glDisable": fn(u32))(0x8DB9);
    }
    let encoded = gl.pixel(1, 1)[0];
    assert!(
        encoded.abs_diff(137) <= 1,
        "GL_FRAMEBUFFER_SRGB encodes: {encoded}"
    );
    assert_eq!(gl.error(), 0, "no GL error");
}

#[test]
fn child_core() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    let (x, lib) = (Xlib::load(), Lib::load(&library_path()));
    let (glx, gl) = (Glx { lib: &lib }, Gl(&lib));
    let d = x.open();
    let (config, vis) = window_config(&glx, d, 0);
    let core = [MAJOR, 3, MINOR, 3, PROFILE, CORE, 0];
    let ctx = glx.create_attribs(d, config, null_mut(), &core);
    assert!(!ctx.is_null(), "a 3.3 core context");
    // SAFETY: GLX calls with this test's handles.
    let win = unsafe {
        let w = x.window(d, Some(&vis), SIZE, SIZE);
        let f = f!(lib, c"glXCreateWindow": fn(Display, P, c_ulong, *const c_int) -> c_ulong);
        let glx_win = f(d, config, w, null());
        assert_eq!(glx_win, w);
        w
    };
    assert_eq!(glx.make_current(d, win, win, ctx), 1);
    // SAFETY: no arguments / a live drawable.
    unsafe {
        f!(lib, c"glXSwapIntervalEXT": fn(Display, c_ulong, c_int))(d, win, 0);
    }
    assert_eq!(glx.query_drawable(d, win, GLX_SWAP_INTERVAL_EXT), 0);
    for _ in 0..2 {
        gl.clear(RED);
        gl.core_triangle();
        expect_triangle_gl(&gl);
        glx.swap(d, win);
    }
    assert_eq!(gl.error(), 0, "no GL error");
    expect_triangle_x(&x, d, win);

    // A pbuffer, and a compatibility context sharing the core one's objects.
    let pb_attribs = [GLX_PBUFFER_WIDTH, 32, GLX_PBUFFER_HEIGHT, 16, 0];
    // SAFETY: a `None`-terminated list.
    let pbuffer = unsafe {
        f!(lib, c"glXCreatePbuffer": fn(Display, P, *const c_int) -> c_ulong)(
            d,
            config,
            pb_attribs.as_ptr(),
        )
    };
    assert_ne!(pbuffer, 0, "glXCreatePbuffer");
    assert_eq!(glx.query_drawable(d, pbuffer, GLX_WIDTH), 32);
    assert_eq!(glx.query_drawable(d, pbuffer, GLX_HEIGHT), 16);
    let data: [u32; 4] = [11, 22, 33, 44];
    let mut buffer = 0;
    // SAFETY: GL calls on the current core context; pointers are live locals.
    unsafe {
        f!(lib, c"glGenBuffers": fn(i32, *mut u32))(1, &mut buffer);
        f!(lib, c"glBindBuffer": fn(u32, u32))(GL_ARRAY_BUFFER, buffer);
        f!(lib, c"glBufferData": fn(u32, isize, *const c_void, u32))(
            GL_ARRAY_BUFFER,
            16,
            data.as_ptr().cast(),
            GL_STATIC_DRAW,
        );
        f!(lib, c"glFinish": fn())();
    }
    let compat = [MAJOR, 3, MINOR, 3, PROFILE, COMPAT, 0];
    let shared = glx.create_attribs(d, config, ctx, &compat);
    assert!(
        !shared.is_null(),
        "a 3.3 compatibility context sharing the core one"
    );
    assert_eq!(glx.make_current(d, pbuffer, pbuffer, shared), 1);
    gl.clear(BLUE);
    assert_eq!(gl.pixel(5, 5), BLUE, "the pbuffer renders");
    let mut seen = [0u32; 4];
    // SAFETY: GL calls on the current shared context; `seen` holds 16 bytes.
    unsafe {
        assert_eq!(
            f!(lib, c"glIsBuffer": fn(u32) -> u8)(buffer),
            1,
            "the shared buffer name"
        );
        f!(lib, c"glBindBuffer": fn(u32, u32))(GL_ARRAY_BUFFER, buffer);
        f!(lib, c"glGetBufferSubData": fn(u32, isize, isize, *mut c_void))(
            GL_ARRAY_BUFFER,
            0,
            16,
            seen.as_mut_ptr().cast(),
        );
    }
    assert_eq!(seen, data, "the shared context sees the other's buffer");
    assert_eq!(gl.error(), 0, "no GL error");

    // A 4× multisampled config renders and resolves on read-back.
    let (ms_config, ms_vis) = window_config(&glx, d, 4);
    let ms_ctx = glx.create_attribs(d, ms_config, null_mut(), &core);
    let ms_win = x.window(d, Some(&ms_vis), SIZE, SIZE);
    assert_eq!(glx.make_current(d, ms_win, ms_win, ms_ctx), 1);
    gl.clear(RED);
    gl.core_triangle();
    assert_eq!(gl.pixel(32, 32), GREEN, "the multisampled triangle");
    glx.swap(d, ms_win);
    assert_eq!(gl.error(), 0, "no GL error");
    expect_multisampled_srgb(&glx, &gl, d, ms_config);

    assert_eq!(glx.make_current(d, 0, 0, null_mut()), 1);
    // SAFETY: drawables and contexts this test made.
    unsafe {
        f!(lib, c"glXDestroyPbuffer": fn(Display, c_ulong))(d, pbuffer);
        f!(lib, c"glXDestroyWindow": fn(Display, c_ulong))(d, win);
    }
    for c in [ctx, shared, ms_ctx] {
        glx.destroy_context(d, c);
    }
    println!("CORE_OK");
}

const BAD_VALUE: u8 = 2;
const BAD_MATCH: u8 = 8;

#[test]
fn child_bad_inputs() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    let (x, lib) = (Xlib::load(), Lib::load(&library_path()));
    let (glx, gl) = (Glx { lib: &lib }, Gl(&lib));
    let d = x.open();
    x.trap_errors();
    let (mut error_base, mut event_base) = (0, 0);
    // SAFETY: live out-locals.
    let has = unsafe {
        f!(lib, c"glXQueryExtension": fn(Display, *mut c_int, *mut c_int) -> c_int)(
            d,
            &mut error_base,
            &mut event_base,
        )
    };
    assert_eq!(has, 1);
    assert!(error_base > 0, "Xvfb has a GLX extension");
    let glx_error = |n: c_int| (error_base + n) as u8;
    let (config, vis) = window_config(&glx, d, 0);
    let garbage = 0x5a5a_5a5a_usize as P;

    // Context creation errors (GLX_ARB_create_context).
    for (attribs, want) in [
        (&[MAJOR, 4, MINOR, 6, PROFILE, CORE, 0][..], glx_error(9)),
        (&[MAJOR, 3, MINOR, 9, 0][..], BAD_MATCH),
        (&[0x1234, 1, 0][..], BAD_VALUE),
        (&[MAJOR, 3, MINOR, 3, PROFILE, 3, 0][..], glx_error(13)),
        (&[MAJOR, 3, MINOR, 3, FLAGS, 4, 0][..], BAD_MATCH),
    ] {
        assert!(
            glx.create_attribs(d, config, null_mut(), attribs).is_null(),
            "{attribs:x?}"
        );
        assert_eq!(x.take_error(d), want, "{attribs:x?}");
    }
    // GL 4.0, which lavapipe's contexts complete (the version rule itself is checked on any
    // device by tests/egl_gl_versions.rs), in both profiles and with the debug and
    // forward-compatible flags; 4.6 above it was refused above.
    for attribs in [
        &[MAJOR, 4, MINOR, 0, PROFILE, CORE, 0][..],
        &[MAJOR, 4, MINOR, 0, PROFILE, COMPAT, 0][..],
        &[MAJOR, 4, MINOR, 0, FLAGS, 3, 0][..],
    ] {
        let ctx = glx.create_attribs(d, config, null_mut(), attribs);
        assert!(!ctx.is_null(), "{attribs:x?}");
        assert_eq!(x.take_error(d), 0, "{attribs:x?}");
        glx.destroy_context(d, ctx);
    }
    assert!(glx.create_attribs(d, garbage, null_mut(), &[0]).is_null());
    assert_eq!(x.take_error(d), glx_error(9), "GLXBadFBConfig");
    assert!(glx
        .create_attribs(d, null_mut(), null_mut(), &[0])
        .is_null());
    assert_eq!(x.take_error(d), glx_error(9), "a NULL GLXFBConfig");
    // SAFETY: a NULL config is the point; GLX must reject it.
    let vis_of_null = unsafe {
        f!(lib, c"glXGetVisualFromFBConfig": fn(Display, P) -> *mut XVisualInfo)(d, null_mut())
    };
    assert!(vis_of_null.is_null());
    assert_eq!(
        x.take_error(d),
        glx_error(9),
        "no visual for a NULL GLXFBConfig"
    );
    assert!(glx.create_attribs(d, config, garbage, &[0]).is_null());
    assert_eq!(
        x.take_error(d),
        glx_error(0),
        "GLXBadContext for the share context"
    );
    // SAFETY: NULL and garbage arguments are the point; GLX must reject them.
    unsafe {
        let create = f!(lib, c"glXCreateContext": fn(Display, *mut XVisualInfo, P, c_int) -> P);
        assert!(create(d, null_mut(), null_mut(), 1).is_null());
        assert_eq!(x.take_error(d), BAD_VALUE, "NULL visual");
        assert!(
            create(null_mut(), null_mut(), null_mut(), 1).is_null(),
            "NULL display"
        );
        let new = f!(lib, c"glXCreateNewContext": fn(Display, P, c_int, P, c_int) -> P);
        assert!(new(d, config, 0x8015, null_mut(), 1).is_null());
        assert_eq!(x.take_error(d), BAD_VALUE, "colour-index render type");
        assert!(!new(d, config, GLX_RGBA_TYPE, null_mut(), 1).is_null());
        let mut n = 3;
        let choose =
            f!(lib, c"glXChooseFBConfig": fn(Display, c_int, *const c_int, *mut c_int) -> *mut P);
        assert!(choose(null_mut(), 0, null(), &mut n).is_null());
        assert_eq!(n, 0);
        let query = f!(lib, c"glXQueryContext": fn(Display, P, c_int, *mut c_int) -> c_int);
        assert_eq!(
            query(d, garbage, GLX_FBCONFIG_ID, &mut n),
            5,
            "GLX_BAD_CONTEXT"
        );
        assert_eq!(x.take_error(d), glx_error(0));
        let pixmap = f!(lib, c"glXCreatePixmap": fn(Display, P, c_ulong, *const c_int) -> c_ulong);
        assert_eq!(pixmap(d, config, 0x1234, null()), 0);
        assert_eq!(x.take_error(d), BAD_MATCH, "no GLX pixmaps");
        f!(lib, c"glXDestroyPbuffer": fn(Display, c_ulong))(d, 0x77);
        assert_eq!(x.take_error(d), glx_error(10), "GLXBadPbuffer");
        f!(lib, c"glXDestroyWindow": fn(Display, c_ulong))(d, 0x77);
        assert_eq!(x.take_error(d), glx_error(12), "GLXBadWindow");
    }

    // Garbage and destroyed drawables.
    let ctx = glx.create_attribs(d, config, null_mut(), &[MAJOR, 3, MINOR, 3, 0]);
    assert!(!ctx.is_null());
    assert_eq!(glx.make_current(d, 0x0123_4567, 0x0123_4567, ctx), 0);
    assert_eq!(x.take_error(d), glx_error(2), "GLXBadDrawable");
    assert_eq!(glx.make_current(d, 0x0123_4567, 0, ctx), 0);
    assert_eq!(x.take_error(d), BAD_MATCH, "one drawable None");
    assert_eq!(glx.make_current(d, 0, 0, garbage), 0);
    assert_eq!(x.take_error(d), glx_error(0), "GLXBadContext");
    let win = x.window(d, Some(&vis), SIZE, SIZE);
    assert_eq!(glx.make_current(d, win, win, ctx), 1);
    gl.clear(RED);
    glx.swap(d, win);
    // SAFETY: the window this test made, destroyed while current.
    unsafe { (x.destroy_window)(d, win) };
    x.take_error(d);
    for _ in 0..3 {
        gl.clear(GREEN);
        glx.swap(d, win);
    }
    assert_eq!(
        x.take_error(d),
        glx_error(2),
        "swapping a destroyed window: GLXBadDrawable"
    );
    assert_eq!(
        glx.make_current(d, 0, 0, null_mut()),
        1,
        "release still works"
    );
    assert_eq!(glx.make_current(d, win, win, ctx), 0);
    assert_eq!(
        x.take_error(d),
        glx_error(2),
        "a destroyed window's XID: GLXBadDrawable"
    );
    glx.destroy_context(d, ctx);
    glx.swap(d, 0x0123_4567);
    assert_eq!(
        x.take_error(d),
        glx_error(2),
        "swapping garbage: GLXBadDrawable"
    );
    println!("BAD_INPUTS_OK");
}
