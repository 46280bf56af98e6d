//! The EGL extensions toolkits ask for (issue 16, part 4), through the C ABI as a program meets
//! them: `libarenagl.so` loaded by path, every function from `eglGetProcAddress`, a current 3.3
//! core context on a surfaceless pbuffer. One test per extension, plus its bad-input cases; each
//! advertised extension is checked to be in the display's string and its functions to resolve.
//! Under `ARENAGL_VALIDATION=1` the validation layer must stay silent (the harness checks).

use std::ffi::{c_char, CStr, CString};
use std::ptr::{null, null_mut};
use std::time::{Duration, Instant};

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, error, f, lib, memory_stat, program, P};

use arenagl_present::egl::*;

const EGL_NO_SYNC: P = null_mut();
const GARBAGE: P = 0x1234 as P;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_TRIANGLES: u32 = 4;

fn egl_error() -> EGLint {
    let get_error = gl!(c"eglGetError": fn() -> EGLint);
    // SAFETY: no arguments.
    unsafe { get_error() }
}

#[track_caller]
fn expect_egl(code: EGLint) {
    assert_eq!(egl_error(), code, "expected EGL error 0x{code:04X}");
}

fn current_display() -> P {
    let get = gl!(c"eglGetCurrentDisplay": fn() -> P);
    // SAFETY: no arguments.
    let dpy = unsafe { get() };
    assert!(!dpy.is_null());
    dpy
}

fn current_draw() -> P {
    let get = gl!(c"eglGetCurrentSurface": fn(EGLint) -> P);
    // SAFETY: a valid enum.
    unsafe { get(EGL_DRAW) }
}

fn current_context() -> P {
    let get = gl!(c"eglGetCurrentContext": fn() -> P);
    // SAFETY: no arguments.
    unsafe { get() }
}

/// The display's extension string.
fn display_extensions(dpy: P) -> Vec<String> {
    let query = gl!(c"eglQueryString": fn(P, EGLint) -> *const c_char);
    // SAFETY: an initialized display; the result is a static NUL-terminated string.
    let s = unsafe { CStr::from_ptr(query(dpy, EGL_EXTENSIONS)) };
    s.to_string_lossy().split(' ').map(str::to_owned).collect()
}

#[track_caller]
fn assert_advertised(dpy: P, ext: &str, functions: &[&CStr]) {
    assert!(
        display_extensions(dpy).iter().any(|e| e == ext),
        "{ext} is not in the display's extension string"
    );
    for name in functions {
        // SAFETY: NUL-terminated.
        let p = unsafe { gl_harness::f::<P>(name) };
        assert!(!p.is_null(), "{name:?}");
    }
}

/// The pbuffer config the harness chose (pbuffer, OpenGL, RGBA8, depth 24, stencil 8).
fn pbuffer_config(dpy: P) -> P {
    let choose = gl!(c"eglChooseConfig": fn(P, *const EGLint, *mut P, EGLint, *mut EGLint) -> u32);
    let attribs = [
        EGL_SURFACE_TYPE,
        EGL_PBUFFER_BIT,
        EGL_RENDERABLE_TYPE,
        EGL_OPENGL_BIT,
        EGL_RED_SIZE,
        8,
        EGL_ALPHA_SIZE,
        8,
        EGL_DEPTH_SIZE,
        24,
        EGL_STENCIL_SIZE,
        8,
        EGL_NONE,
    ];
    let (mut cfg, mut n) = (null_mut(), 0);
    // SAFETY: a terminated list, out-pointers to locals.
    let ok = unsafe { choose(dpy, attribs.as_ptr(), &mut cfg, 1, &mut n) };
    assert_eq!(ok, 1);
    assert_eq!(n, 1);
    cfg
}

/// A 3.3 core context with `extra` attributes (before `EGL_NONE`); NULL on failure.
fn create_context(dpy: P, extra: &[EGLint]) -> P {
    let create = gl!(c"eglCreateContext": fn(P, P, P, *const EGLint) -> P);
    let mut attribs = vec![EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3];
    attribs.extend_from_slice(extra);
    attribs.push(EGL_NONE);
    // SAFETY: a live display and config, a terminated list.
    unsafe { create(dpy, pbuffer_config(dpy), null_mut(), attribs.as_ptr()) }
}

fn pbuffer(dpy: P) -> P {
    let create = gl!(c"eglCreatePbufferSurface": fn(P, P, *const EGLint) -> P);
    let attribs = [EGL_WIDTH, 32, EGL_HEIGHT, 32, EGL_NONE];
    // SAFETY: a live display and config, a terminated list.
    let s = unsafe { create(dpy, pbuffer_config(dpy), attribs.as_ptr()) };
    assert!(!s.is_null());
    s
}

fn make_current(dpy: P, surface: P, ctx: P) -> u32 {
    let make = gl!(c"eglMakeCurrent": fn(P, P, P, P) -> u32);
    // SAFETY: handles (possibly bad: the library validates them).
    unsafe { make(dpy, surface, surface, ctx) }
}

fn clear() {
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    // SAFETY: plain GL calls on the current context.
    unsafe {
        clear_color(0.25, 0.5, 0.75, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
    }
}

type CreateSync = unsafe extern "C" fn(P, EGLenum, *const EGLAttrib) -> P;
type CreateSyncKhr = unsafe extern "C" fn(P, EGLenum, *const EGLint) -> P;
type DestroySync = unsafe extern "C" fn(P, P) -> u32;
type ClientWait = unsafe extern "C" fn(P, P, EGLint, u64) -> EGLint;
type GetSyncAttrib = unsafe extern "C" fn(P, P, EGLint, *mut EGLAttrib) -> u32;
type GetSyncAttribKhr = unsafe extern "C" fn(P, P, EGLint, *mut EGLint) -> u32;
type WaitSync = unsafe extern "C" fn(P, P, EGLint) -> u32;
type WaitSyncKhr = unsafe extern "C" fn(P, P, EGLint) -> EGLint;

struct Sync {
    create: CreateSync,
    create_khr: CreateSyncKhr,
    destroy: DestroySync,
    destroy_khr: DestroySync,
    client_wait: ClientWait,
    client_wait_khr: ClientWait,
    attrib: GetSyncAttrib,
    attrib_khr: GetSyncAttribKhr,
    wait: WaitSync,
    wait_khr: WaitSyncKhr,
}

fn sync_api() -> Sync {
    // SAFETY: each type is the function's C signature from the EGL headers.
    unsafe {
        Sync {
            create: f(c"eglCreateSync"),
            create_khr: f(c"eglCreateSyncKHR"),
            destroy: f(c"eglDestroySync"),
            destroy_khr: f(c"eglDestroySyncKHR"),
            client_wait: f(c"eglClientWaitSync"),
            client_wait_khr: f(c"eglClientWaitSyncKHR"),
            attrib: f(c"eglGetSyncAttrib"),
            attrib_khr: f(c"eglGetSyncAttribKHR"),
            wait: f(c"eglWaitSync"),
            wait_khr: f(c"eglWaitSyncKHR"),
        }
    }
}

impl Sync {
    fn status(&self, dpy: P, sync: P) -> EGLint {
        let mut v: EGLAttrib = 0;
        // SAFETY: a live sync, an out-pointer to a local.
        let ok = unsafe { (self.attrib)(dpy, sync, EGL_SYNC_STATUS, &mut v) };
        assert_eq!(ok, 1);
        v as EGLint
    }
}

#[test]
fn fence_sync_signals_after_the_work_before_it() {
    let _c = context();
    let dpy = current_display();
    assert_advertised(
        dpy,
        "EGL_KHR_fence_sync",
        &[
            c"eglCreateSyncKHR",
            c"eglDestroySyncKHR",
            c"eglClientWaitSyncKHR",
            c"eglGetSyncAttribKHR",
            c"eglCreateSync",
            c"eglDestroySync",
            c"eglClientWaitSync",
            c"eglGetSyncAttrib",
        ],
    );
    let s = sync_api();
    clear();
    // SAFETY: a live display, NULL and EGL_NONE-only attribute lists, out-pointers to locals.
    unsafe {
        let sync = (s.create)(dpy, EGL_SYNC_FENCE, null());
        assert!(!sync.is_null());
        expect_egl(EGL_SUCCESS);
        let mut v: EGLAttrib = 0;
        assert_eq!((s.attrib)(dpy, sync, EGL_SYNC_TYPE, &mut v), 1);
        assert_eq!(v, EGL_SYNC_FENCE as EGLAttrib);
        assert_eq!((s.attrib)(dpy, sync, EGL_SYNC_CONDITION, &mut v), 1);
        assert_eq!(v, EGL_SYNC_PRIOR_COMMANDS_COMPLETE as EGLAttrib);
        let before = s.status(dpy, sync);
        assert!(
            matches!(before, EGL_SIGNALED | EGL_UNSIGNALED),
            "{before:#x}"
        );
        assert_eq!(
            (s.client_wait)(dpy, sync, EGL_SYNC_FLUSH_COMMANDS_BIT, EGL_FOREVER),
            EGL_CONDITION_SATISFIED
        );
        assert_eq!(s.status(dpy, sync), EGL_SIGNALED);
        // Already signalled: satisfied at once, whatever the timeout.
        assert_eq!((s.client_wait)(dpy, sync, 0, 0), EGL_CONDITION_SATISFIED);
        assert_eq!((s.destroy)(dpy, sync), 1);
        assert_eq!((s.destroy)(dpy, sync), 0);
        expect_egl(EGL_BAD_PARAMETER);

        // The KHR forms, with an EGLint list holding only EGL_NONE.
        let none = [EGL_NONE];
        let khr = (s.create_khr)(dpy, EGL_SYNC_FENCE, none.as_ptr());
        assert!(!khr.is_null());
        let mut i: EGLint = 0;
        assert_eq!((s.attrib_khr)(dpy, khr, EGL_SYNC_TYPE, &mut i), 1);
        assert_eq!(i, EGL_SYNC_FENCE as EGLint);
        assert_eq!(
            (s.client_wait_khr)(dpy, khr, 0, 1_000_000_000),
            EGL_CONDITION_SATISFIED
        );
        assert_eq!((s.attrib_khr)(dpy, khr, EGL_SYNC_STATUS, &mut i), 1);
        assert_eq!(i, EGL_SIGNALED);
        assert_eq!((s.destroy_khr)(dpy, khr), 1);
    }
    assert_eq!(error(), 0);
}

/// Slow fragment work (a loop the compiler cannot fold) over the pbuffer, `draws` times.
fn slow_draws(iterations: i32, draws: usize) {
    const VS: &str = "#version 330 core\n\
        const vec2 p[3] = vec2[3](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));\n\
        void main() { gl_Position = vec4(p[gl_VertexID], 0.0, 1.0); }\n";
    const FS: &str = "#version 330 core\n\
        uniform int n;\n\
        out vec4 color;\n\
        void main() {\n\
            float a = gl_FragCoord.x * 0.001;\n\
            for (int i = 0; i < n; i++) { a = fract(a * 1.0001 + 0.37); }\n\
            color = vec4(a, 0.0, 0.0, 1.0);\n\
        }\n";
    let p = program(VS, FS);
    let use_program = gl!(c"glUseProgram": fn(u32));
    let location = gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32);
    let uniform = gl!(c"glUniform1i": fn(i32, i32));
    let gen_vao = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let name = CString::new("n").expect("no NUL");
    // SAFETY: plain GL calls on the current context; out-pointer to a local.
    unsafe {
        let mut vao = 0;
        gen_vao(1, &mut vao);
        bind_vao(vao);
        use_program(p);
        uniform(location(p, name.as_ptr()), iterations);
        for _ in 0..draws {
            draw(GL_TRIANGLES, 0, 3);
        }
    }
    assert_eq!(error(), 0);
}

#[test]
fn client_wait_honours_timeouts() {
    let _c = context();
    let dpy = current_display();
    let s = sync_api();
    let finish = gl!(c"glFinish": fn());
    // Enough fragment work that the device needs at least 300 ms for it, measured. (More
    // draws, not longer loops: a loop's iterations may be bounded below what was asked.)
    let mut draws = 4;
    loop {
        let start = Instant::now();
        slow_draws(50_000, draws);
        // SAFETY: no arguments.
        unsafe { finish() };
        if start.elapsed() >= Duration::from_millis(300) {
            break;
        }
        assert!(
            draws < 4096,
            "the device is too fast to keep a fence pending"
        );
        draws *= 4;
    }
    slow_draws(50_000, draws);
    // SAFETY: a live display, no attributes.
    let sync = unsafe { (s.create)(dpy, EGL_SYNC_FENCE, null()) };
    assert!(!sync.is_null());
    // A zero timeout only tests the status.
    let start = Instant::now();
    // SAFETY: a live sync.
    let polled = unsafe { (s.client_wait)(dpy, sync, 0, 0) };
    assert_eq!(polled, EGL_TIMEOUT_EXPIRED);
    assert_eq!(s.status(dpy, sync), EGL_UNSIGNALED);
    // A 2 ms timeout expires after 2 ms, not when the work is done.
    let before = Instant::now();
    // SAFETY: a live sync.
    let short = unsafe { (s.client_wait)(dpy, sync, 0, 2_000_000) };
    let waited = before.elapsed();
    assert_eq!(short, EGL_TIMEOUT_EXPIRED);
    assert!(
        waited >= Duration::from_millis(2),
        "returned early: {waited:?}"
    );
    assert!(
        start.elapsed() < Duration::from_millis(250),
        "overslept: {waited:?}"
    );
    // SAFETY: a live sync.
    let forever = unsafe { (s.client_wait)(dpy, sync, 0, EGL_FOREVER) };
    assert_eq!(forever, EGL_CONDITION_SATISFIED);
    assert_eq!(s.status(dpy, sync), EGL_SIGNALED);
    // SAFETY: a live sync.
    assert_eq!(unsafe { (s.destroy)(dpy, sync) }, 1);
}

#[test]
fn fences_are_waited_on_from_another_thread() {
    let _c = context();
    let dpy = current_display();
    let s = sync_api();
    slow_draws(20_000, 2);
    // SAFETY: a live display, no attributes.
    let sync = unsafe { (s.create)(dpy, EGL_SYNC_FENCE, null()) };
    assert!(!sync.is_null());
    let (dpy_word, sync_word) = (dpy as usize, sync as usize);
    let waiter = std::thread::spawn(move || {
        let (dpy, sync) = (dpy_word as P, sync_word as P);
        let s = sync_api();
        assert!(
            current_context().is_null(),
            "the waiting thread has no context"
        );
        // SAFETY: a live display and sync, made on the other thread.
        let r = unsafe { (s.client_wait)(dpy, sync, EGL_SYNC_FLUSH_COMMANDS_BIT, EGL_FOREVER) };
        (r, s.status(dpy, sync), egl_error())
    });
    let (result, status, err) = waiter.join().expect("the waiting thread");
    assert_eq!(result, EGL_CONDITION_SATISFIED);
    assert_eq!(status, EGL_SIGNALED);
    assert_eq!(err, EGL_SUCCESS);
    // The other thread has no current context: a server wait there is EGL_BAD_MATCH.
    let waiter = std::thread::spawn(move || {
        let s = sync_api();
        // SAFETY: a live display and sync.
        let r = unsafe { (s.wait)(dpy_word as P, sync_word as P, 0) };
        (r, egl_error())
    });
    assert_eq!(waiter.join().expect("thread"), (0, EGL_BAD_MATCH));
    // SAFETY: a live sync.
    assert_eq!(unsafe { (s.destroy)(dpy, sync) }, 1);
}

#[test]
fn wait_sync_is_a_server_wait() {
    let _c = context();
    let dpy = current_display();
    assert_advertised(
        dpy,
        "EGL_KHR_wait_sync",
        &[c"eglWaitSyncKHR", c"eglWaitSync"],
    );
    let s = sync_api();
    clear();
    // SAFETY: live handles; bad flags and handles are the library's to reject.
    unsafe {
        let sync = (s.create)(dpy, EGL_SYNC_FENCE, null());
        assert_eq!((s.wait)(dpy, sync, 0), 1);
        assert_eq!((s.wait_khr)(dpy, sync, 0), EGL_TRUE);
        assert_eq!((s.wait)(dpy, sync, 1), 0);
        expect_egl(EGL_BAD_PARAMETER);
        assert_eq!((s.wait_khr)(dpy, GARBAGE, 0), EGL_FALSE);
        expect_egl(EGL_BAD_PARAMETER);
        assert_eq!((s.wait)(null_mut(), sync, 0), 0);
        expect_egl(EGL_BAD_DISPLAY);
        // Commands after the wait run after the fence's work.
        clear();
        assert_eq!(
            (s.client_wait)(dpy, sync, 0, EGL_FOREVER),
            EGL_CONDITION_SATISFIED
        );
        assert_eq!((s.destroy)(dpy, sync), 1);
    }
    assert_eq!(error(), 0);
}

#[test]
fn sync_functions_reject_bad_input() {
    let _c = context();
    let dpy = current_display();
    let s = sync_api();
    // SAFETY: every pointer is NULL, a local, a terminated list, or a handle the library checks
    // without dereferencing.
    unsafe {
        // Displays.
        for bad in [null_mut(), GARBAGE] {
            assert_eq!((s.create)(bad, EGL_SYNC_FENCE, null()), EGL_NO_SYNC);
            expect_egl(EGL_BAD_DISPLAY);
        }
        // Types: EGL 1.5 says EGL_BAD_PARAMETER, EGL_KHR_fence_sync EGL_BAD_ATTRIBUTE.
        for bad in [EGL_SYNC_REUSABLE_KHR, EGL_SYNC_CL_EVENT, 0] {
            assert_eq!((s.create)(dpy, bad, null()), EGL_NO_SYNC);
            expect_egl(EGL_BAD_PARAMETER);
            assert_eq!((s.create_khr)(dpy, bad, null()), EGL_NO_SYNC);
            expect_egl(EGL_BAD_ATTRIBUTE);
        }
        // Attribute lists: a fence takes none.
        let wide = [
            EGL_SYNC_STATUS as EGLAttrib,
            EGL_SIGNALED as EGLAttrib,
            EGL_NONE as EGLAttrib,
        ];
        assert_eq!((s.create)(dpy, EGL_SYNC_FENCE, wide.as_ptr()), EGL_NO_SYNC);
        expect_egl(EGL_BAD_ATTRIBUTE);
        let narrow = [EGL_SYNC_TYPE, EGL_SYNC_FENCE as EGLint, EGL_NONE];
        assert_eq!(
            (s.create_khr)(dpy, EGL_SYNC_FENCE, narrow.as_ptr()),
            EGL_NO_SYNC
        );
        expect_egl(EGL_BAD_ATTRIBUTE);
        let unterminated = vec![EGL_SYNC_STATUS; 1024];
        assert_eq!(
            (s.create_khr)(dpy, EGL_SYNC_FENCE, unterminated.as_ptr()),
            EGL_NO_SYNC
        );
        expect_egl(EGL_BAD_ATTRIBUTE);

        // Sync handles: NULL, garbage, a context's handle, a destroyed sync.
        let sync = (s.create)(dpy, EGL_SYNC_FENCE, null());
        assert!(!sync.is_null());
        let dead = (s.create)(dpy, EGL_SYNC_FENCE, null());
        assert_eq!((s.destroy)(dpy, dead), 1);
        for bad in [null_mut(), GARBAGE, current_context(), dead] {
            assert_eq!((s.client_wait)(dpy, bad, 0, 0), EGL_FALSE);
            expect_egl(EGL_BAD_PARAMETER);
            let mut v: EGLAttrib = 77;
            assert_eq!((s.attrib)(dpy, bad, EGL_SYNC_STATUS, &mut v), 0);
            expect_egl(EGL_BAD_PARAMETER);
            assert_eq!(v, 77, "untouched on error");
            assert_eq!((s.destroy)(dpy, bad), 0);
            expect_egl(EGL_BAD_PARAMETER);
            assert_eq!((s.wait)(dpy, bad, 0), 0);
            expect_egl(EGL_BAD_PARAMETER);
        }
        // A good sync with a bad display.
        assert_eq!((s.client_wait)(GARBAGE, sync, 0, 0), EGL_FALSE);
        expect_egl(EGL_BAD_DISPLAY);
        // Attributes: unknown ones, and a NULL value pointer.
        let mut v: EGLAttrib = 77;
        assert_eq!((s.attrib)(dpy, sync, EGL_WIDTH, &mut v), 0);
        expect_egl(EGL_BAD_ATTRIBUTE);
        assert_eq!(v, 77);
        assert_eq!((s.attrib)(dpy, sync, EGL_SYNC_TYPE, null_mut()), 0);
        expect_egl(EGL_BAD_PARAMETER);
        let mut i: EGLint = 77;
        assert_eq!((s.attrib_khr)(dpy, sync, 0x3000, &mut i), 0);
        expect_egl(EGL_BAD_ATTRIBUTE);
        assert_eq!(i, 77);

        // Without a current context: EGL_BAD_MATCH for a fence and a server wait; a client
        // wait needs none.
        let (draw, ctx) = (current_draw(), current_context());
        assert_eq!(make_current(dpy, null_mut(), null_mut()), 1);
        assert_eq!((s.create)(dpy, EGL_SYNC_FENCE, null()), EGL_NO_SYNC);
        expect_egl(EGL_BAD_MATCH);
        assert_eq!((s.wait)(dpy, sync, 0), 0);
        expect_egl(EGL_BAD_MATCH);
        assert_eq!(
            (s.client_wait)(dpy, sync, 0, EGL_FOREVER),
            EGL_CONDITION_SATISFIED
        );
        assert_eq!(make_current(dpy, draw, ctx), 1);
        assert_eq!((s.destroy)(dpy, sync), 1);
    }
}

#[test]
fn buffer_age_is_zero_for_the_current_draw_surface_only() {
    let _c = context();
    let dpy = current_display();
    assert_advertised(dpy, "EGL_EXT_buffer_age", &[]);
    let query = gl!(c"eglQuerySurface": fn(P, P, EGLint, *mut EGLint) -> u32);
    let swap = gl!(c"eglSwapBuffers": fn(P, P) -> u32);
    let draw = current_draw();
    let other = pbuffer(dpy);
    // SAFETY: live handles, out-pointers to locals.
    unsafe {
        let mut age = 77;
        assert_eq!(query(dpy, draw, EGL_BUFFER_AGE_EXT, &mut age), 1);
        assert_eq!(age, 0, "contents undefined: ArenaGL never promises them");
        clear();
        assert_eq!(swap(dpy, draw), 1);
        age = 77;
        assert_eq!(query(dpy, draw, EGL_BUFFER_AGE_EXT, &mut age), 1);
        assert_eq!(age, 0);
        // EGL_EXT_buffer_age: not the current draw surface → EGL_BAD_SURFACE.
        age = 77;
        assert_eq!(query(dpy, other, EGL_BUFFER_AGE_EXT, &mut age), 0);
        expect_egl(EGL_BAD_SURFACE);
        assert_eq!(age, 77);
        assert_eq!(query(dpy, GARBAGE, EGL_BUFFER_AGE_EXT, &mut age), 0);
        expect_egl(EGL_BAD_SURFACE);
        assert_eq!(query(null_mut(), draw, EGL_BUFFER_AGE_EXT, &mut age), 0);
        expect_egl(EGL_BAD_DISPLAY);
    }
    let destroy = gl!(c"eglDestroySurface": fn(P, P) -> u32);
    // SAFETY: a live surface.
    assert_eq!(unsafe { destroy(dpy, other) }, 1);
}

#[test]
fn swap_buffers_with_damage_validates_then_swaps() {
    let _c = context();
    let dpy = current_display();
    let names = [
        c"eglSwapBuffersWithDamageKHR",
        c"eglSwapBuffersWithDamageEXT",
    ];
    assert_advertised(dpy, "EGL_KHR_swap_buffers_with_damage", &names[..1]);
    assert_advertised(dpy, "EGL_EXT_swap_buffers_with_damage", &names[1..]);
    let draw = current_draw();
    let other = pbuffer(dpy);
    for name in names {
        // SAFETY: the C signature of both functions.
        let swap: unsafe extern "C" fn(P, P, *const EGLint, EGLint) -> u32 = unsafe { f(name) };
        let rects = [0, 0, 16, 16, 8, 8, 4, 4];
        // SAFETY: live or deliberately bad handles; `rects` holds 2 rectangles.
        unsafe {
            clear();
            assert_eq!(swap(dpy, draw, rects.as_ptr(), 2), 1, "{name:?}");
            assert_eq!(swap(dpy, draw, null(), 0), 1, "no damage given");
            assert_eq!(swap(dpy, draw, rects.as_ptr(), -1), 0);
            expect_egl(EGL_BAD_PARAMETER);
            assert_eq!(swap(dpy, draw, null(), 1), 0);
            expect_egl(EGL_BAD_PARAMETER);
            assert_eq!(swap(dpy, GARBAGE, rects.as_ptr(), 1), 0);
            expect_egl(EGL_BAD_SURFACE);
            assert_eq!(swap(null_mut(), draw, rects.as_ptr(), 1), 0);
            expect_egl(EGL_BAD_DISPLAY);
            // Not the current draw surface: as eglSwapBuffers.
            assert_eq!(swap(dpy, other, rects.as_ptr(), 1), 0);
            expect_egl(EGL_BAD_SURFACE);
        }
    }
    let destroy = gl!(c"eglDestroySurface": fn(P, P) -> u32);
    // SAFETY: a live surface.
    assert_eq!(unsafe { destroy(dpy, other) }, 1);
    assert_eq!(error(), 0);
}

#[test]
fn present_opaque_is_a_window_attribute() {
    let _c = context();
    let dpy = current_display();
    assert_advertised(dpy, "EGL_EXT_present_opaque", &[]);
    let create = gl!(c"eglCreatePbufferSurface": fn(P, P, *const EGLint) -> P);
    let attribs = [
        EGL_PRESENT_OPAQUE_EXT,
        EGL_TRUE,
        EGL_WIDTH,
        8,
        EGL_HEIGHT,
        8,
        EGL_NONE,
    ];
    // SAFETY: a live display and config, a terminated list.
    let s = unsafe { create(dpy, pbuffer_config(dpy), attribs.as_ptr()) };
    assert!(
        s.is_null(),
        "EGL_PRESENT_OPAQUE_EXT is for window surfaces only"
    );
    expect_egl(EGL_BAD_ATTRIBUTE);
    let query = gl!(c"eglQuerySurface": fn(P, P, EGLint, *mut EGLint) -> u32);
    let mut v = 77;
    // SAFETY: a live surface, an out-pointer to a local.
    let ok = unsafe { query(dpy, current_draw(), EGL_PRESENT_OPAQUE_EXT, &mut v) };
    assert_eq!(ok, 1);
    assert_eq!(v, EGL_FALSE);
}

/// `arenagl_set_faults(spec)`.
fn set_faults(spec: &CStr) {
    // SAFETY: the exported symbol has exactly this signature.
    let set = *unsafe {
        lib()
            .lib
            .get::<unsafe extern "C" fn(*const c_char) -> i32>(b"arenagl_set_faults\0")
    }
    .expect("arenagl_set_faults is exported");
    // SAFETY: a NUL-terminated plan.
    assert_eq!(unsafe { set(spec.as_ptr()) }, 0);
}

#[test]
fn release_behaviour_flushes_or_not() {
    let _c = context();
    let dpy = current_display();
    assert_advertised(dpy, "EGL_KHR_context_flush_control", &[]);
    let (draw, original) = (current_draw(), current_context());
    let none = create_context(
        dpy,
        &[
            EGL_CONTEXT_RELEASE_BEHAVIOR_KHR,
            EGL_CONTEXT_RELEASE_BEHAVIOR_NONE_KHR,
        ],
    );
    let flush = create_context(
        dpy,
        &[
            EGL_CONTEXT_RELEASE_BEHAVIOR_KHR,
            EGL_CONTEXT_RELEASE_BEHAVIOR_FLUSH_KHR,
        ],
    );
    assert!(!none.is_null() && !flush.is_null());
    assert!(create_context(dpy, &[EGL_CONTEXT_RELEASE_BEHAVIOR_KHR, 7]).is_null());
    expect_egl(EGL_BAD_ATTRIBUTE);
    // The next submission fails once (and the OOM ladder recovers it): `faults_injected` counts
    // whether releasing a context submitted its work.
    let released = |from: P, to: P| {
        assert_eq!(make_current(dpy, draw, from), 1);
        clear();
        set_faults(c"submit@1=oom_device");
        let before = memory_stat(c"faults_injected");
        assert_eq!(make_current(dpy, draw, to), 1);
        let submitted = memory_stat(c"faults_injected") > before;
        set_faults(c"");
        submitted
    };
    assert!(!released(none, flush), "RELEASE_BEHAVIOR_NONE: no flush");
    assert!(released(flush, none), "RELEASE_BEHAVIOR_FLUSH: flushed");
    assert!(released(original, none), "the default is FLUSH");
    // Rebinding the same context to another surface does not release it.
    let other = pbuffer(dpy);
    assert_eq!(make_current(dpy, draw, flush), 1);
    clear();
    set_faults(c"submit@1=oom_device");
    let before = memory_stat(c"faults_injected");
    assert_eq!(make_current(dpy, other, flush), 1);
    assert_eq!(memory_stat(c"faults_injected"), before);
    set_faults(c"");
    assert_eq!(make_current(dpy, draw, original), 1);
    let destroy = gl!(c"eglDestroyContext": fn(P, P) -> u32);
    let destroy_surface = gl!(c"eglDestroySurface": fn(P, P) -> u32);
    // SAFETY: live handles, no longer current.
    unsafe {
        assert_eq!(destroy(dpy, none), 1);
        assert_eq!(destroy(dpy, flush), 1);
        assert_eq!(destroy_surface(dpy, other), 1);
    }
}

/// EGL_EXT_create_context_robustness's attribute names are accepted as EGL 1.5's: the reset
/// strategy (either value, answered by `GL_RESET_NOTIFICATION_STRATEGY`) and robust access
/// false; robust access true is `EGL_BAD_MATCH` (not offered), bad values `EGL_BAD_ATTRIBUTE`.
#[test]
fn create_context_robustness_ext_attributes() {
    let _c = context();
    let dpy = current_display();
    assert!(display_extensions(dpy)
        .iter()
        .any(|e| e == "EGL_EXT_create_context_robustness"));
    let (draw, original) = (current_draw(), current_context());
    for strategy in [EGL_LOSE_CONTEXT_ON_RESET, EGL_NO_RESET_NOTIFICATION] {
        let ctx = create_context(
            dpy,
            &[
                EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT,
                strategy,
                EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT,
                EGL_FALSE,
            ],
        );
        assert!(!ctx.is_null());
        assert_eq!(make_current(dpy, draw, ctx), 1);
        clear();
        let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
        let mut answered = 0;
        // SAFETY: out-pointer to a local. GL_RESET_NOTIFICATION_STRATEGY.
        unsafe { get(0x8256, &mut answered) };
        let want = if strategy == EGL_LOSE_CONTEXT_ON_RESET {
            0x8252
        } else {
            0x8261
        };
        assert_eq!(answered, want, "the strategy the context was made with");
        assert_eq!(error(), 0);
        assert_eq!(make_current(dpy, draw, original), 1);
        let destroy = gl!(c"eglDestroyContext": fn(P, P) -> u32);
        // SAFETY: a live context, no longer current.
        assert_eq!(unsafe { destroy(dpy, ctx) }, 1);
    }
    assert!(create_context(dpy, &[EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT, EGL_TRUE]).is_null());
    expect_egl(EGL_BAD_MATCH);
    assert!(create_context(dpy, &[EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT, 2]).is_null());
    expect_egl(EGL_BAD_ATTRIBUTE);
    assert!(create_context(
        dpy,
        &[EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT, 0x1234]
    )
    .is_null());
    expect_egl(EGL_BAD_ATTRIBUTE);
}
