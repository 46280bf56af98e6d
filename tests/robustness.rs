//! Robustness of the whole stack under injected Vulkan failures (issue 7), in-process through the
//! C ABI: the fault plan is set at run time with `arenagl_set_faults` (the `ARENAGL_FAULTS`
//! grammar) and the memory manager's counters read with `arenagl_memory_stat`.
//!
//! - Transient failures of each call (allocation, submission, pipeline creation) are absorbed by
//!   the OOM ladder; persistent ones end the command with `GL_OUT_OF_MEMORY` and are not
//!   remembered: the same draw succeeds once the failures stop.
//! - Device loss in the middle of a frame engages the device-lost latch: `eglSwapBuffers` fails with
//!   `EGL_CONTEXT_LOST`, GL commands are no-ops that report `GL_CONTEXT_LOST`, nothing hangs,
//!   nothing leaks, and a new context renders correctly in the same process.
//! - 10,000 random GL steps with allocation failures injected at random: no crash, no
//!   validation error, only `GL_OUT_OF_MEMORY` as an error.
//!
//! Tests share the process's device, so they run one at a time.

use std::ffi::{c_char, c_void, CStr, CString};
use std::ptr::{null, null_mut};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{error, f, lib, validation_errors, P};

const GL_NO_ERROR: u32 = 0;
const GL_OUT_OF_MEMORY: u32 = 0x0505;
const GL_CONTEXT_LOST: u32 = 0x0507;
const GL_UNKNOWN_CONTEXT_RESET: u32 = 0x8255;
const EGL_CONTEXT_LOST: i32 = 0x300E;
const EGL_BAD_ALLOC: i32 = 0x3003;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_STATIC_DRAW: u32 = 0x88E4;
const GL_TRIANGLES: u32 = 4;
const GL_FLOAT: u32 = 0x1406;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_RGBA: u32 = 0x1908;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_VIEWPORT: u32 = 0x0BA2;

static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    // These tests check the device-lost latch: recovery's opt-out (`tests/recover.rs` checks
    // recovery). Set before any test opens the process's device.
    std::env::set_var("ARENAGL_RECOVER", "0");
    SERIAL.lock().unwrap_or_else(PoisonError::into_inner)
}

/// `arenagl_set_faults(spec)`.
fn set_faults(spec: &str) {
    // SAFETY: the exported symbol has exactly this signature.
    let set = *unsafe {
        lib()
            .lib
            .get::<unsafe extern "C" fn(*const c_char) -> i32>(b"arenagl_set_faults\0")
    }
    .expect("arenagl_set_faults is exported");
    let spec = CString::new(spec).expect("no NUL");
    // SAFETY: a NUL-terminated string.
    assert_eq!(unsafe { set(spec.as_ptr()) }, 0, "plan {spec:?}");
}

/// `arenagl_memory_stat(name)`.
fn stat(name: &CStr) -> u64 {
    gl_harness::memory_stat(name)
}

/// An EGL display, config, context and 32×32 pbuffer, current on this thread.
struct Egl {
    dpy: P,
    ctx: P,
    surface: P,
}

impl Egl {
    fn new() -> Egl {
        let get_display = gl!(c"eglGetPlatformDisplayEXT": fn(u32, P, *const i32) -> P);
        let initialize = gl!(c"eglInitialize": fn(P, *mut i32, *mut i32) -> u32);
        let choose = gl!(c"eglChooseConfig": fn(P, *const i32, *mut P, i32, *mut i32) -> u32);
        let bind_api = gl!(c"eglBindAPI": fn(u32) -> u32);
        let create_context = gl!(c"eglCreateContext": fn(P, P, P, *const i32) -> P);
        let create_pbuffer = gl!(c"eglCreatePbufferSurface": fn(P, P, *const i32) -> P);
        let make_current = gl!(c"eglMakeCurrent": fn(P, P, P, P) -> u32);
        // SAFETY: live handles from earlier calls, EGL_NONE-terminated lists, locals.
        unsafe {
            let dpy = get_display(0x31DD, null_mut(), null());
            assert!(!dpy.is_null());
            assert_eq!(initialize(dpy, null_mut(), null_mut()), 1);
            let attribs = [0x3033, 0x0001, 0x3040, 0x0008, 0x3038];
            let mut cfg = null_mut();
            let mut n = 0;
            assert_eq!(choose(dpy, attribs.as_ptr(), &mut cfg, 1, &mut n), 1);
            assert_eq!(bind_api(0x30A2), 1);
            let ctx_attribs = [0x3098, 3, 0x30FB, 3, 0x30FD, 1, 0x3038];
            let ctx = create_context(dpy, cfg, null_mut(), ctx_attribs.as_ptr());
            assert!(!ctx.is_null(), "eglCreateContext");
            let pb = [0x3057, 32, 0x3056, 32, 0x3038];
            let surface = create_pbuffer(dpy, cfg, pb.as_ptr());
            assert!(!surface.is_null(), "eglCreatePbufferSurface");
            assert_eq!(make_current(dpy, surface, surface, ctx), 1);
            Egl { dpy, ctx, surface }
        }
    }

    /// `eglSwapBuffers`: `Ok` or the EGL error.
    fn swap(&self) -> Result<(), i32> {
        let swap = gl!(c"eglSwapBuffers": fn(P, P) -> u32);
        let get_error = gl!(c"eglGetError": fn() -> i32);
        // SAFETY: live handles.
        unsafe {
            if swap(self.dpy, self.surface) == 1 {
                Ok(())
            } else {
                Err(get_error())
            }
        }
    }
}

impl Drop for Egl {
    fn drop(&mut self) {
        let make_current = gl!(c"eglMakeCurrent": fn(P, P, P, P) -> u32);
        let destroy_context = gl!(c"eglDestroyContext": fn(P, P) -> u32);
        let destroy_surface = gl!(c"eglDestroySurface": fn(P, P) -> u32);
        // SAFETY: live handles; releasing first so both are destroyed at once.
        unsafe {
            make_current(self.dpy, null_mut(), null_mut(), null_mut());
            destroy_context(self.dpy, self.ctx);
            destroy_surface(self.dpy, self.surface);
        }
    }
}

const VS: &str = "#version 330 core\nlayout(location = 0) in vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n";

fn fs(rgb: [f32; 3]) -> String {
    format!(
        "#version 330 core\nout vec4 c;\nvoid main() {{ c = vec4({:.1}, {:.1}, {:.1}, 1.0); }}\n",
        rgb[0], rgb[1], rgb[2]
    )
}

/// A program, a VAO and a buffer drawing two triangles over the right half (x > 0).
struct Scene {
    program: u32,
    vao: u32,
    buffer: u32,
}

impl Scene {
    /// Compiles and links (asserting the link, so only with faults that spare it).
    fn new(rgb: [f32; 3]) -> Scene {
        let gen_buffers = gl!(c"glGenBuffers": fn(i32, *mut u32));
        let bind_buffer = gl!(c"glBindBuffer": fn(u32, u32));
        let buffer_data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
        let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
        let bind_vao = gl!(c"glBindVertexArray": fn(u32));
        let enable_attrib = gl!(c"glEnableVertexAttribArray": fn(u32));
        let attrib = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
        let right: [f32; 12] = [
            0.0, -1.0, 1.0, -1.0, 0.0, 1.0, 1.0, -1.0, 1.0, 1.0, 0.0, 1.0,
        ];
        let program = gl_harness::program(VS, &fs(rgb));
        // SAFETY: locals of the stated sizes; 48 bytes of vertices.
        unsafe {
            let (mut vao, mut buffer) = (0, 0);
            gen_vaos(1, &mut vao);
            bind_vao(vao);
            gen_buffers(1, &mut buffer);
            bind_buffer(GL_ARRAY_BUFFER, buffer);
            buffer_data(GL_ARRAY_BUFFER, 48, right.as_ptr().cast(), GL_STATIC_DRAW);
            enable_attrib(0);
            attrib(0, 2, GL_FLOAT, 0, 0, null());
            Scene {
                program,
                vao,
                buffer,
            }
        }
    }

    /// Clears to blue, draws the right half, reads back (x=4, x=28) of the middle row.
    fn draw_and_read(&self) -> ([u8; 4], [u8; 4]) {
        let use_program = gl!(c"glUseProgram": fn(u32));
        let bind_vao = gl!(c"glBindVertexArray": fn(u32));
        let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
        let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
        let clear = gl!(c"glClear": fn(u32));
        let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
        let mut px = vec![0u8; 32 * 32 * 4];
        // SAFETY: live names; `px` holds the 32×32 RGBA8 read.
        unsafe {
            use_program(self.program);
            bind_vao(self.vao);
            clear_color(0.0, 0.0, 1.0, 1.0);
            clear(GL_COLOR_BUFFER_BIT);
            draw_arrays(GL_TRIANGLES, 0, 6);
            read(
                0,
                0,
                32,
                32,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                px.as_mut_ptr().cast(),
            );
        }
        let at = |x: usize| {
            let i = (16 * 32 + x) * 4;
            [px[i], px[i + 1], px[i + 2], px[i + 3]]
        };
        (at(4), at(28))
    }

    fn delete(self) {
        let delete_program = gl!(c"glDeleteProgram": fn(u32));
        let delete_buffers = gl!(c"glDeleteBuffers": fn(i32, *const u32));
        let delete_vaos = gl!(c"glDeleteVertexArrays": fn(i32, *const u32));
        // SAFETY: live names.
        unsafe {
            delete_program(self.program);
            delete_buffers(1, &self.buffer);
            delete_vaos(1, &self.vao);
        }
    }
}

/// A new buffer with `size` bytes of storage (an allocation).
fn new_buffer(size: isize) -> u32 {
    let gen_buffers = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind_buffer = gl!(c"glBindBuffer": fn(u32, u32));
    let buffer_data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let mut b = 0;
    // SAFETY: a local out-pointer; NULL data is allowed.
    unsafe {
        gen_buffers(1, &mut b);
        bind_buffer(GL_ARRAY_BUFFER, b);
        buffer_data(GL_ARRAY_BUFFER, size, null(), GL_STATIC_DRAW);
    }
    b
}

fn delete_buffer(b: u32) {
    let delete_buffers = gl!(c"glDeleteBuffers": fn(i32, *const u32));
    // SAFETY: one name.
    unsafe { delete_buffers(1, &b) };
}

const BLUE: [u8; 4] = [0, 0, 255, 255];
const GREEN: [u8; 4] = [0, 255, 0, 255];

/// After a test's objects and context are gone: nothing held for clients, no validation error.
fn assert_clean(what: &str) {
    assert_eq!(stat(c"client_objects_live"), 0, "{what}: leaked objects");
    assert_eq!(
        validation_errors(),
        0,
        "{what}: validation errors (see stderr)"
    );
}

#[test]
fn a_single_failure_of_each_call_is_absorbed_and_a_persistent_one_is_gl_out_of_memory() {
    let _serial = serial();
    let egl = Egl::new();
    // Each call × each out-of-memory result it can return, once: the ladder (release, wait,
    // retry) absorbs it and the frame is right. A fresh program each time, so the draw builds
    // a pipeline, and a buffer of a size not made before, so that something really allocates
    // (the scene's own objects may come back from the manager's recycle bin, which allocates
    // nothing).
    for (i, rule) in [
        "alloc@1=oom_device",
        "alloc@1=oom_host",
        "alloc@1=too_many_objects",
        "submit@1=oom_device",
        "submit@1=oom_host",
        "pipeline@1=oom_device",
        "pipeline@1=oom_host",
    ]
    .into_iter()
    .enumerate()
    {
        set_faults(rule);
        let injected = stat(c"faults_injected");
        let scene = Scene::new([0.0, 1.0, 0.0]);
        let fresh = new_buffer(8192 + 256 * i as isize);
        let frame = scene.draw_and_read();
        assert_eq!(error(), GL_NO_ERROR, "{rule}: absorbed");
        assert_eq!(frame, (BLUE, GREEN), "{rule}: the frame is right");
        egl.swap()
            .unwrap_or_else(|e| panic!("{rule}: swap failed with {e:#x}"));
        assert_eq!(stat(c"faults_injected"), injected + 1, "{rule} fired once");
        delete_buffer(fresh);
        scene.delete();
    }
    // Every call failing: the command reports GL_OUT_OF_MEMORY, nothing crashes, and the
    // failure is not remembered: once the faults stop, the same objects draw correctly.
    for (i, rule) in [
        "pipeline%1=oom_host",
        "alloc%1=oom_device",
        "submit%1=oom_device",
    ]
    .into_iter()
    .enumerate()
    {
        set_faults("");
        let scene = Scene::new([0.0, 1.0, 0.0]);
        assert_eq!(error(), GL_NO_ERROR);
        set_faults(rule);
        let _ = scene.draw_and_read();
        // A size not made before (see above).
        let extra = new_buffer(20480 + 256 * i as isize);
        // A swap that cannot submit skips the frame: EGL_TRUE, the GL error says why.
        let swapped = egl.swap();
        assert_eq!(
            error(),
            GL_OUT_OF_MEMORY,
            "{rule}: refused as GL_OUT_OF_MEMORY"
        );
        assert_eq!(
            swapped,
            Ok(()),
            "{rule}: the frame is skipped, not the program"
        );
        set_faults("");
        assert_eq!(
            scene.draw_and_read(),
            (BLUE, GREEN),
            "{rule}: retried, not cached"
        );
        assert_eq!(error(), GL_NO_ERROR, "{rule}: recovered");
        delete_buffer(extra);
        scene.delete();
    }
    set_faults("");
    drop(egl);
    assert_clean("absorbed and persistent failures");
}

#[test]
fn device_loss_mid_frame_latches_and_a_new_context_renders() {
    let _serial = serial();
    let egl = Egl::new();
    let scene = Scene::new([0.0, 1.0, 0.0]);
    assert_eq!(scene.draw_and_read(), (BLUE, GREEN));
    egl.swap().expect("a healthy swap");
    assert_eq!(error(), GL_NO_ERROR);

    // A fence and a query name made before the loss, for the polling answers below.
    let fence = gl!(c"glFenceSync": fn(u32, u32) -> *const c_void);
    let gen_queries = gl!(c"glGenQueries": fn(i32, *mut u32));
    let mut query = 0;
    // SAFETY: plain values; out-pointer to a local.
    let sync = unsafe {
        gen_queries(1, &mut query);
        fence(0x9117, 0) // GL_SYNC_GPU_COMMANDS_COMPLETE
    };
    assert!(!sync.is_null());

    // Lost at the submission that ends the next frame, after its draw was recorded.
    set_faults("submit@1=device_lost");
    let use_program = gl!(c"glUseProgram": fn(u32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: live names.
    unsafe {
        use_program(scene.program);
        draw_arrays(GL_TRIANGLES, 0, 6);
    }
    assert_eq!(egl.swap(), Err(EGL_CONTEXT_LOST), "swap reports the loss");
    assert_eq!(stat(c"device_lost"), 1);

    // The latch: GL_CONTEXT_LOST once per command, the reset status once, no writes through
    // the caller's pointers, and nothing waits on the lost device.
    assert_eq!(error(), GL_CONTEXT_LOST);
    assert_eq!(error(), GL_NO_ERROR, "reported once until the next command");
    for name in [
        c"glGetGraphicsResetStatus",
        c"glGetGraphicsResetStatusARB",
        c"glGetGraphicsResetStatusKHR",
    ] {
        // SAFETY: `F` is the C signature of every alias.
        unsafe { f::<unsafe extern "C" fn() -> u32>(name) };
    }
    let reset = gl!(c"glGetGraphicsResetStatusKHR": fn() -> u32);
    // SAFETY: no arguments.
    unsafe {
        assert_eq!(reset(), GL_UNKNOWN_CONTEXT_RESET);
        assert_eq!(reset(), GL_NO_ERROR, "the reset is reported once");
    }
    let finish = gl!(c"glFinish": fn());
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let get_integer = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let start = Instant::now();
    let mut px = vec![0xABu8; 32 * 32 * 4];
    let mut viewport = [-7i32; 4];
    // SAFETY: `px` holds a 32×32 RGBA8 read; `viewport` four integers.
    unsafe {
        finish();
        read(
            0,
            0,
            32,
            32,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        );
        get_integer(GL_VIEWPORT, viewport.as_mut_ptr());
    }
    assert!(start.elapsed() < Duration::from_secs(2), "nothing waits");
    assert!(px.iter().all(|&b| b == 0xAB), "glReadPixels wrote nothing");
    assert_eq!(viewport, [-7; 4], "glGetIntegerv wrote nothing");
    assert_eq!(error(), GL_CONTEXT_LOST);
    assert_eq!(egl.swap(), Err(EGL_CONTEXT_LOST), "still lost");
    polling_answers_after_the_loss(sync, query);

    // The application destroys the lost context: everything it held is released.
    scene.delete();
    drop(egl);
    assert_eq!(
        stat(c"client_objects_live"),
        0,
        "the lost device holds nothing"
    );

    // Recovery: a new context gets a new device and renders correctly.
    let egl = Egl::new();
    assert_eq!(stat(c"device_lost"), 0, "a fresh device");
    let scene = Scene::new([0.0, 1.0, 0.0]);
    assert_eq!(
        scene.draw_and_read(),
        (BLUE, GREEN),
        "the new context renders"
    );
    assert_eq!(error(), GL_NO_ERROR);
    egl.swap().expect("swaps again");
    // The plan's counters carried over: submit@1 does not fire again on the new device.
    assert_eq!(stat(c"faults_injected"), 0);
    scene.delete();
    drop(egl);
    assert_clean("after recovery");
}

/// GL 4.6 §2.3.2.1: after a reset the queries a polling loop waits on still answer "done" —
/// a sync's status reads `GL_SIGNALED`, a query's result is available — each with
/// `GL_CONTEXT_LOST`; every other query writes nothing, and nothing waits.
fn polling_answers_after_the_loss(sync: *const c_void, query: u32) {
    const GL_SYNC_STATUS: u32 = 0x9114;
    const GL_SIGNALED: i32 = 0x9119;
    const GL_OBJECT_TYPE: u32 = 0x9112;
    const GL_QUERY_RESULT: u32 = 0x8866;
    const GL_QUERY_RESULT_AVAILABLE: u32 = 0x8867;
    let get_sync = gl!(c"glGetSynciv": fn(*const c_void, u32, i32, *mut i32, *mut i32));
    let wait = gl!(c"glClientWaitSync": fn(*const c_void, u32, u64) -> u32);
    let start = Instant::now();
    let (mut status, mut length, mut other) = (-1, -1, -1);
    // SAFETY: a sync made before the loss; out-pointers to locals; a 10 s timeout that must not
    // be waited.
    unsafe {
        get_sync(sync, GL_SYNC_STATUS, 1, &mut length, &mut status);
        assert_eq!(error(), GL_CONTEXT_LOST);
        get_sync(sync, GL_OBJECT_TYPE, 1, std::ptr::null_mut(), &mut other);
        assert_eq!(error(), GL_CONTEXT_LOST);
        assert_ne!(
            wait(sync, 1, 10_000_000_000),
            0x911A,
            "never GL_TIMEOUT_EXPIRED"
        );
        assert_eq!(error(), GL_CONTEXT_LOST);
    }
    assert!(start.elapsed() < Duration::from_secs(2), "nothing waits");
    assert_eq!(
        (status, length),
        (GL_SIGNALED, 1),
        "a lost context's syncs are signalled"
    );
    assert_eq!(other, -1, "other sync queries write nothing");
    for name in [
        c"glGetQueryObjectiv",
        c"glGetQueryObjectuiv",
        c"glGetQueryObjecti64v",
        c"glGetQueryObjectui64v",
    ] {
        // SAFETY: each writes at most one 64-bit value into a u64; `name` has this shape.
        let get = unsafe { f::<unsafe extern "C" fn(u32, u32, *mut u64)>(name) };
        let (mut available, mut result) = (0u64, 0xEEu64);
        // SAFETY: out-pointers to locals wide enough for any of the four.
        unsafe {
            get(query, GL_QUERY_RESULT_AVAILABLE, &mut available);
            assert_eq!(error(), GL_CONTEXT_LOST);
            get(query, GL_QUERY_RESULT, &mut result);
            assert_eq!(error(), GL_CONTEXT_LOST);
        }
        assert_eq!(
            available & 0xFFFF_FFFF,
            1,
            "{name:?}: the result is available"
        );
        assert_eq!(result, 0xEE, "{name:?}: the result itself is not written");
    }
}

/// Compiles `sources` (vertex, fragment, …) into a new program and links it; returns it with
/// the link status and info log.
fn link_program(sources: &[(u32, &str)]) -> (u32, i32, String) {
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let create_program = gl!(c"glCreateProgram": fn() -> u32);
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    // SAFETY: NUL-terminated sources, lengths NULL.
    let program = unsafe {
        let p = create_program();
        for &(ty, src) in sources {
            let s = create(ty);
            let c = CString::new(src).expect("no NUL");
            let ptr = c.as_ptr();
            source(s, 1, &ptr, null());
            compile(s);
            attach(p, s);
        }
        p
    };
    let (status, log) = relink(program);
    (program, status, log)
}

/// `glLinkProgram` again; the link status and info log.
fn relink(program: u32) -> (i32, String) {
    let link = gl!(c"glLinkProgram": fn(u32));
    let get = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    let get_log = gl!(c"glGetProgramInfoLog": fn(u32, i32, *mut i32, *mut c_char));
    let mut log = vec![0u8; 4096];
    let (mut status, mut len) = (-1, 0);
    // SAFETY: a live program; locals as out-pointers; `log` holds 4096 bytes.
    unsafe {
        link(program);
        get(program, 0x8B82, &mut status);
        get_log(program, 4096, &mut len, log.as_mut_ptr().cast());
    }
    log.truncate(usize::try_from(len).unwrap_or(0));
    (status, String::from_utf8_lossy(&log).into_owned())
}

#[test]
fn a_link_refused_for_memory_is_gl_out_of_memory_and_not_remembered() {
    let _serial = serial();
    let egl = Egl::new();
    let scene = Scene::new([0.0, 1.0, 0.0]);
    let green = fs([0.0, 1.0, 0.0]);
    let sources = [(0x8B31, VS), (0x8B30, green.as_str())];

    // Every Vulkan object of the link refused (the ladder's retry too): GL_OUT_OF_MEMORY, the
    // program not linked, and a log that says why.
    let injected = stat(c"faults_injected");
    set_faults("pipeline%1=oom_device");
    let (program, status, log) = link_program(&sources);
    assert_eq!(error(), GL_OUT_OF_MEMORY, "the link ran out of memory");
    assert_eq!(status, 0, "not linked");
    assert!(log.contains("out of"), "the log says why: {log:?}");
    assert_eq!(
        stat(c"faults_injected"),
        injected + 2,
        "refused, and refused again on the ladder's retry"
    );
    // The same once: absorbed by the ladder's retry.
    set_faults("pipeline@1=oom_host");
    let (once, status, _) = link_program(&sources);
    assert_eq!(
        (error(), status),
        (GL_NO_ERROR, 1),
        "one refusal is absorbed"
    );
    assert_eq!(stat(c"faults_injected"), injected + 3);

    // Not remembered: linking the same program again, memory back, succeeds and draws.
    set_faults("");
    let (status, log) = relink(program);
    assert_eq!((error(), status), (GL_NO_ERROR, 1), "relinked: {log}");
    let delete_program = gl!(c"glDeleteProgram": fn(u32));
    // SAFETY: a live name.
    unsafe { delete_program(scene.program) };
    let drawn = Scene { program, ..scene };
    assert_eq!(
        drawn.draw_and_read(),
        (BLUE, GREEN),
        "the relinked program draws"
    );

    // A link that fails on its source is an answer, not an error: status false, a log, no GL
    // error, and the same again next time.
    let undefined = "#version 330 core\nvoid f();\nvoid main() { f(); gl_Position = vec4(0.0); }\n";
    let (bad, status, log) = link_program(&[(0x8B31, undefined), (0x8B30, green.as_str())]);
    assert_eq!(error(), GL_NO_ERROR, "a failed link is not a GL error");
    assert_eq!(status, 0, "not linked");
    assert!(!log.is_empty(), "with a log");
    assert_eq!(relink(bad).0, 0, "the source still does not link");
    assert_eq!(error(), GL_NO_ERROR);

    // SAFETY: live names.
    unsafe {
        delete_program(bad);
        delete_program(once);
    }
    drawn.delete();
    drop(egl);
    assert_clean("link refusals");
}

#[test]
fn a_surface_that_cannot_be_made_on_a_lost_device_is_egl_bad_alloc() {
    let _serial = serial();
    let egl = Egl::new();
    let create_pbuffer = gl!(c"eglCreatePbufferSurface": fn(P, P, *const i32) -> P);
    let get_config = gl!(c"eglGetConfigs": fn(P, *mut P, i32, *mut i32) -> u32);
    let get_error = gl!(c"eglGetError": fn() -> i32);
    let destroy_surface = gl!(c"eglDestroySurface": fn(P, P) -> u32);
    let make_current = gl!(c"eglMakeCurrent": fn(P, P, P, P) -> u32);
    let pb = [0x3057, 16, 0x3056, 16, 0x3038];
    let mut cfg = null_mut();
    let mut n = 0;
    // SAFETY: live handles; locals as out-pointers; an EGL_NONE-terminated list.
    unsafe {
        assert_eq!(get_config(egl.dpy, &mut cfg, 1, &mut n), 1);
        // The device is lost while the pbuffer's images are allocated.
        set_faults("alloc@1=device_lost");
        let lost = create_pbuffer(egl.dpy, cfg, pb.as_ptr());
        assert!(lost.is_null(), "no surface");
        assert_eq!(
            get_error(),
            EGL_BAD_ALLOC,
            "EGL_BAD_ALLOC, not EGL_CONTEXT_LOST"
        );
        // The current context was on that device: eglMakeCurrent reports the loss (EGL 1.5
        // §3.11) before any swap has.
        assert_eq!(make_current(egl.dpy, egl.surface, egl.surface, egl.ctx), 0);
        assert_eq!(get_error(), EGL_CONTEXT_LOST);
        // Creating it again opens a new device.
        let fresh = create_pbuffer(egl.dpy, cfg, pb.as_ptr());
        assert!(!fresh.is_null(), "a new device: 0x{:x}", get_error());
        assert_eq!(stat(c"device_lost"), 0, "a fresh device");
        assert_eq!(destroy_surface(egl.dpy, fresh), 1);
    }
    drop(egl);
    assert_clean("surface on a lost device");
}

/// xorshift64*, so the run is the same every time.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

#[test]
fn ten_thousand_random_steps_under_random_allocation_failures() {
    let _serial = serial();
    let egl = Egl::new();
    let scene = Scene::new([0.0, 1.0, 0.0]);
    let gen_buffers = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let delete_buffers = gl!(c"glDeleteBuffers": fn(i32, *const u32));
    let bind_buffer = gl!(c"glBindBuffer": fn(u32, u32));
    let buffer_data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let buffer_sub_data = gl!(c"glBufferSubData": fn(u32, isize, isize, *const c_void));
    let gen_textures = gl!(c"glGenTextures": fn(i32, *mut u32));
    let delete_textures = gl!(c"glDeleteTextures": fn(i32, *const u32));
    let bind_texture = gl!(c"glBindTexture": fn(u32, u32));
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let clear = gl!(c"glClear": fn(u32));

    // Each allocation attempt fails with probability 0.3 (seeded): single failures are absorbed
    // by the ladder's retries, runs of them are refusals.
    set_faults("alloc~0.3:2024=oom_device");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let data = vec![0x5Au8; 256 * 256 * 4];
    let (mut buffers, mut textures) = (Vec::new(), Vec::new());
    let (mut ok, mut oom) = (0u32, 0u32);
    let start = Instant::now();
    for step in 0..10_000u32 {
        // What this step created, so that one refused storage is deleted rather than used.
        let mut created = None;
        // SAFETY: names from glGen*; `data` holds at least as many bytes as each call reads.
        unsafe {
            match rng.below(8) {
                0 | 1 => {
                    let mut b = 0;
                    gen_buffers(1, &mut b);
                    bind_buffer(GL_ARRAY_BUFFER, b);
                    let size = 16 + rng.below(64 << 10) as isize;
                    buffer_data(GL_ARRAY_BUFFER, size, data.as_ptr().cast(), GL_STATIC_DRAW);
                    created = Some((true, b));
                }
                2 => {
                    let mut t = 0;
                    gen_textures(1, &mut t);
                    bind_texture(GL_TEXTURE_2D, t);
                    let side = 1 + rng.below(64) as i32;
                    let fmt = GL_RGBA;
                    tex_image(
                        GL_TEXTURE_2D,
                        0,
                        fmt as i32,
                        side,
                        side,
                        0,
                        fmt,
                        GL_UNSIGNED_BYTE,
                        data.as_ptr().cast(),
                    );
                    created = Some((false, t));
                }
                3 if !buffers.is_empty() => {
                    let i = rng.below(buffers.len() as u64) as usize;
                    bind_buffer(GL_ARRAY_BUFFER, buffers[i]);
                    buffer_sub_data(GL_ARRAY_BUFFER, 0, 16, data.as_ptr().cast());
                }
                4 | 5 => {
                    use_program(scene.program);
                    bind_vao(scene.vao);
                    if rng.below(4) == 0 {
                        clear(GL_COLOR_BUFFER_BIT);
                    }
                    draw_arrays(GL_TRIANGLES, 0, 6);
                }
                6 if buffers.len() + textures.len() > 24 => {
                    let b = buffers.drain(..buffers.len() / 2).collect::<Vec<_>>();
                    delete_buffers(b.len() as i32, b.as_ptr());
                    let t = textures.drain(..textures.len() / 2).collect::<Vec<_>>();
                    delete_textures(t.len() as i32, t.as_ptr());
                }
                _ => {
                    if step % 7 == 0 {
                        assert_eq!(
                            egl.swap(),
                            Ok(()),
                            "step {step}: a skipped frame is not an EGL error"
                        );
                    }
                }
            }
        }
        let refused = match error() {
            GL_NO_ERROR => {
                ok += 1;
                false
            }
            GL_OUT_OF_MEMORY => {
                oom += 1;
                true
            }
            other => panic!("step {step}: unexpected GL error {other:#x}"),
        };
        match created {
            // SAFETY: a name from glGen*.
            Some((true, b)) if refused => unsafe { delete_buffers(1, &b) },
            // SAFETY: as above.
            Some((false, t)) if refused => unsafe { delete_textures(1, &t) },
            Some((true, b)) => buffers.push(b),
            Some((false, t)) => textures.push(t),
            None => {}
        }
    }
    let elapsed = start.elapsed();
    let (injected, recovered, refused) = (
        stat(c"faults_injected"),
        stat(c"ladder_recoveries"),
        stat(c"refusals"),
    );
    eprintln!(
        "10000 steps in {elapsed:?}: {ok} clean, {oom} GL_OUT_OF_MEMORY; {injected} faults \
         injected, {recovered} absorbed by the ladder, {refused} refusals"
    );
    assert!(injected > 100, "faults were injected ({injected})");
    assert!(recovered > 0, "the ladder absorbed some ({recovered})");
    assert!(
        refused > 0 && oom > 0,
        "some were refused and reported ({refused}, {oom})"
    );
    assert!(
        u64::from(oom) <= refused,
        "every GL_OUT_OF_MEMORY comes from a refusal ({oom} > {refused})"
    );
    // The faults stop: the context renders correctly with everything it still holds.
    set_faults("");
    assert_eq!(scene.draw_and_read(), (BLUE, GREEN));
    assert_eq!(error(), GL_NO_ERROR);
    // SAFETY: names from glGen*.
    unsafe {
        delete_buffers(buffers.len() as i32, buffers.as_ptr());
        delete_textures(textures.len() as i32, textures.as_ptr());
    }
    scene.delete();
    drop(egl);
    assert_clean("after the random run");
}
