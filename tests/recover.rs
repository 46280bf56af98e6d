//! Device-loss recovery under a real GL program (`docs/robustness.md`, "Recovery inside the
//! context"; `docs/memory.md` "Recovery"): what a context specifies for textures and buffers
//! is journaled through the translator's upload paths (re-specifying overwrites in place,
//! deleting drops it); a context without reset notification that loses its device goes on in
//! the same context, its program, vertex array, mipmapped texture and framebuffer drawing the
//! same pixels with no GL call to make them again; a context that asked for
//! `EGL_LOSE_CONTEXT_ON_RESET` still reports the reset; a window, several contexts, pending
//! queries, fences and transform feedback captures survive a loss. Recovery is on by default;
//! every test still sets `ARENAGL_RECOVER=1` before its context opens the process's device
//! (lavapipe, with validation under `ARENAGL_VALIDATION=1`); losses are injected with
//! `arenagl_set_faults`.

use std::ffi::{c_char, c_void, CString};

#[path = "common/child.rs"]
mod child;
#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;
#[path = "common/xvfb.rs"]
mod xvfb;

use gl_harness::{
    buffer_with, context, context_with, error, f, lib, memory_stat, new_texture, program,
    read_rgba, validation_errors,
};

const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_RGBA: u32 = 0x1908;
const GL_RGBA8: i32 = 0x8058;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_ARRAY_BUFFER: u32 = 0x8892;

fn journal_bytes() -> u64 {
    memory_stat(c"journal_bytes")
}

/// Recovery (and its journal) on for the process's device; set before the first context opens
/// it (every test calls it first).
fn recovery_on() {
    std::env::set_var("ARENAGL_RECOVER", "1");
}

/// `arenagl_set_faults(spec)`: the fault plan from now on.
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

const GL_NO_ERROR: u32 = 0;
const GL_CONTEXT_LOST: u32 = 0x0507;
const GL_UNKNOWN_CONTEXT_RESET: u32 = 0x8255;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_FRAMEBUFFER_COMPLETE: u32 = 0x8CD5;
const GL_TEXTURE_MIN_FILTER: u32 = 0x2801;
const GL_TEXTURE_MAG_FILTER: u32 = 0x2800;
const GL_NEAREST: i32 = 0x2600;
const GL_NEAREST_MIPMAP_NEAREST: i32 = 0x2700;
const GL_FLOAT: u32 = 0x1406;
const GL_TRIANGLE_STRIP: u32 = 0x0005;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
/// The side of the framebuffer the scene draws into.
const TARGET: i32 = 16;

const VS: &str = "#version 330 core
layout(location = 0) in vec2 pos;
out vec2 uv;
void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); }
";
/// Samples level 1 of the texture (what `glGenerateMipmap` made), tinted by a uniform.
const FS: &str = "#version 330 core
uniform sampler2D tex;
uniform vec4 tint;
in vec2 uv;
out vec4 color;
void main() { color = textureLod(tex, uv, 1.0) * tint; }
";

/// What the scene made before the loss: a program, a vertex array with its buffer, a mipmapped
/// texture and a framebuffer with a texture attached.
struct Scene {
    program: u32,
    vao: u32,
    fbo: u32,
}

impl Scene {
    fn new() -> Scene {
        let gen_vertex_arrays = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
        let bind_vertex_array = gl!(c"glBindVertexArray": fn(u32));
        let attrib_pointer =
            gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
        let enable_attrib = gl!(c"glEnableVertexAttribArray": fn(u32));
        let tex_image =
            gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
        let tex_parameter = gl!(c"glTexParameteri": fn(u32, u32, i32));
        let generate_mipmap = gl!(c"glGenerateMipmap": fn(u32));
        let gen_framebuffers = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
        let bind_framebuffer = gl!(c"glBindFramebuffer": fn(u32, u32));
        let attach = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
        let status = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
        let use_program = gl!(c"glUseProgram": fn(u32));
        let location = gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32);
        let uniform4f = gl!(c"glUniform4f": fn(i32, f32, f32, f32, f32));
        let uniform1i = gl!(c"glUniform1i": fn(i32, i32));
        let viewport = gl!(c"glViewport": fn(i32, i32, i32, i32));

        let program = program(VS, FS);
        let quad: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
        let bytes: Vec<u8> = quad.iter().flat_map(|v| v.to_ne_bytes()).collect();
        // An 8×8 atlas of 2×2 blocks of one colour each: level 1 holds exactly those colours.
        let texels: Vec<u8> = (0..8 * 8)
            .flat_map(|i| {
                let (bx, by) = ((i % 8) / 2, (i / 8) / 2);
                [bx * 60 + 10, by * 60 + 10, 200 - bx * 20, 255]
            })
            .map(|v| v as u8)
            .collect();
        let (mut vao, mut fbo) = (0, 0);
        // SAFETY: out-pointers to locals; `bytes` and `texels` outlive the calls that read
        // them (8 floats; 8×8 RGBA8 at the default unpack alignment); live names throughout.
        unsafe {
            gen_vertex_arrays(1, &mut vao);
            bind_vertex_array(vao);
            buffer_with(GL_ARRAY_BUFFER, &bytes);
            attrib_pointer(0, 2, GL_FLOAT, 0, 0, std::ptr::null());
            enable_attrib(0);

            let atlas = new_texture(GL_TEXTURE_2D);
            tex_image(
                GL_TEXTURE_2D,
                0,
                GL_RGBA8,
                8,
                8,
                0,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                texels.as_ptr().cast(),
            );
            generate_mipmap(GL_TEXTURE_2D);
            tex_parameter(
                GL_TEXTURE_2D,
                GL_TEXTURE_MIN_FILTER,
                GL_NEAREST_MIPMAP_NEAREST,
            );
            tex_parameter(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);

            let target = new_texture(GL_TEXTURE_2D);
            tex_image(
                GL_TEXTURE_2D,
                0,
                GL_RGBA8,
                TARGET,
                TARGET,
                0,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                std::ptr::null(),
            );
            gen_framebuffers(1, &mut fbo);
            bind_framebuffer(GL_FRAMEBUFFER, fbo);
            attach(
                GL_FRAMEBUFFER,
                GL_COLOR_ATTACHMENT0,
                GL_TEXTURE_2D,
                target,
                0,
            );
            assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
            // The atlas on unit 0 (the target texture was bound last: bind it back).
            let bind = gl!(c"glBindTexture": fn(u32, u32));
            bind(GL_TEXTURE_2D, atlas);

            use_program(program);
            uniform1i(location(program, c"tex".as_ptr()), 0);
            uniform4f(location(program, c"tint".as_ptr()), 1.0, 0.5, 1.0, 1.0);
            viewport(0, 0, TARGET, TARGET);
        }
        assert_eq!(error(), GL_NO_ERROR, "the scene is made");
        Scene { program, vao, fbo }
    }

    /// Clears the framebuffer, draws the quad and reads the framebuffer back.
    fn draw_and_read(&self) -> Vec<u8> {
        self.draw();
        read_rgba(0, 0, TARGET, TARGET)
    }

    /// Clears the framebuffer and draws the quad (recorded, not yet submitted). Binds only
    /// what `new` made: no object is made again.
    fn draw(&self) {
        let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
        let clear = gl!(c"glClear": fn(u32));
        let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
        let bind_framebuffer = gl!(c"glBindFramebuffer": fn(u32, u32));
        let bind_vertex_array = gl!(c"glBindVertexArray": fn(u32));
        let use_program = gl!(c"glUseProgram": fn(u32));
        // SAFETY: live names.
        unsafe {
            bind_framebuffer(GL_FRAMEBUFFER, self.fbo);
            bind_vertex_array(self.vao);
            use_program(self.program);
            clear_color(0.0, 0.0, 0.0, 1.0);
            clear(GL_COLOR_BUFFER_BIT);
            draw_arrays(GL_TRIANGLE_STRIP, 0, 4);
        }
    }
}

/// Loses the device at the next submission, which `glFinish` makes after `work` recorded.
fn lose_device_during(work: impl FnOnce()) {
    let finish = gl!(c"glFinish": fn());
    set_faults("submit@1=device_lost");
    work();
    // SAFETY: no arguments.
    unsafe { finish() };
    set_faults("");
}

#[test]
fn a_context_without_reset_notification_recovers_and_draws_the_same_pixels() {
    recovery_on();
    let _current = context();
    let scene = Scene::new();
    let before = scene.draw_and_read();
    assert!(
        before.chunks(4).any(|p| p != [0, 0, 0, 255])
            && before.chunks(4).any(|p| *p != before[..4]),
        "the scene draws the atlas's level 1"
    );
    let recoveries = memory_stat(c"recoveries");
    let validation = validation_errors();

    lose_device_during(|| scene.draw());
    assert!(
        memory_stat(c"recoveries") <= recoveries,
        "not yet recovered"
    );
    assert_eq!(error(), GL_NO_ERROR, "the loss is absorbed: no error");

    let after = scene.draw_and_read();
    assert_eq!(error(), GL_NO_ERROR, "the context goes on");
    assert_eq!(memory_stat(c"recoveries"), recoveries + 1, "one recovery");
    assert!(
        after == before,
        "the same pixels after the recovery\nbefore {before:?}\nafter  {after:?}"
    );
    let reset = gl!(c"glGetGraphicsResetStatus": fn() -> u32);
    // SAFETY: no arguments.
    let status = unsafe { reset() };
    assert_eq!(status, GL_NO_ERROR, "no reset notification was asked for");
    assert_eq!(validation_errors(), validation, "no validation error");
}

#[test]
fn a_context_with_reset_notification_reports_the_reset() {
    recovery_on();
    // 3.3 core, EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY = EGL_LOSE_CONTEXT_ON_RESET.
    let attribs = [0x3098, 3, 0x30FB, 3, 0x30FD, 1, 0x31BD, 0x31BF, 0x3038];
    let _current = context_with(0x30A2, 0x0008, &attribs);
    let clear = gl!(c"glClear": fn(u32));
    let recoveries = memory_stat(c"recoveries");
    lose_device_during(|| {
        // SAFETY: a valid mask.
        unsafe { clear(GL_COLOR_BUFFER_BIT) };
    });
    assert_eq!(error(), GL_CONTEXT_LOST, "the loss is reported");
    let reset = gl!(c"glGetGraphicsResetStatus": fn() -> u32);
    // SAFETY: no arguments.
    unsafe {
        assert_eq!(reset(), GL_UNKNOWN_CONTEXT_RESET, "the reset is reported");
        clear(GL_COLOR_BUFFER_BIT);
    }
    assert_eq!(error(), GL_CONTEXT_LOST, "the context stays lost");
    assert_eq!(
        memory_stat(c"recoveries"),
        recoveries,
        "nothing recovers a context that asked for reset notification"
    );
}

#[test]
fn textures_and_buffers_a_context_specifies_are_journaled_until_deleted() {
    recovery_on();
    let _current = context();
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let tex_sub_image =
        gl!(c"glTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let delete_textures = gl!(c"glDeleteTextures": fn(i32, *const u32));
    let delete_buffers = gl!(c"glDeleteBuffers": fn(i32, *const u32));
    let finish = gl!(c"glFinish": fn());
    assert_ne!(journal_bytes(), u64::MAX, "the statistic is exported");
    let before = journal_bytes();

    let texels = vec![0x7Fu8; 64 * 64 * 4];
    let texture = new_texture(GL_TEXTURE_2D);
    // SAFETY: `texels` holds 64×64 RGBA8 texels; the default unpack alignment fits.
    unsafe {
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8,
            64,
            64,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texels.as_ptr().cast(),
        );
    }
    assert_eq!(error(), 0);
    let with_texture = journal_bytes();
    assert!(
        with_texture >= before + 64 * 64 * 4,
        "a 64×64 RGBA8 level is journaled: {before} → {with_texture}"
    );
    // SAFETY: as above, the same region.
    unsafe {
        tex_sub_image(
            GL_TEXTURE_2D,
            0,
            0,
            0,
            64,
            64,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texels.as_ptr().cast(),
        );
    }
    assert_eq!(
        journal_bytes(),
        with_texture,
        "re-specifying a region overwrites it in place"
    );

    let bytes: Vec<u8> = (0..8192u32).map(|i| i as u8).collect();
    let buffer = buffer_with(GL_ARRAY_BUFFER, &bytes);
    let with_buffer = journal_bytes();
    assert!(
        with_buffer >= with_texture + 8192,
        "an 8 KiB buffer is journaled: {with_texture} → {with_buffer}"
    );

    // SAFETY: pointers to one live name each.
    unsafe {
        delete_textures(1, &texture);
        delete_buffers(1, &buffer);
        finish();
    }
    assert_eq!(error(), 0);
    assert_eq!(journal_bytes(), before, "deleted objects leave the journal");
}

/// Contexts of one display made here (beside the harness's current one).
struct Contexts {
    display: gl_harness::P,
    config: gl_harness::P,
    /// (context, its 32×32 pbuffer).
    made: Vec<(gl_harness::P, gl_harness::P)>,
}

impl Contexts {
    /// The surfaceless display and a pbuffer config of desktop GL.
    fn new() -> Contexts {
        use std::ptr::{null, null_mut};
        let get_display =
            gl!(c"eglGetPlatformDisplayEXT": fn(u32, gl_harness::P, *const i32) -> gl_harness::P);
        let choose = gl!(c"eglChooseConfig": fn(gl_harness::P, *const i32, *mut gl_harness::P, i32, *mut i32) -> u32);
        // SAFETY: EGL_NONE-terminated lists, out-pointers to locals.
        unsafe {
            let display = get_display(0x31DD, null_mut(), null());
            let attribs = [0x3033, 0x0001, 0x3040, 0x0008, 0x3038]; // PBUFFER_BIT, OPENGL_BIT
            let (mut config, mut n) = (null_mut(), 0);
            assert_eq!(choose(display, attribs.as_ptr(), &mut config, 1, &mut n), 1);
            Contexts {
                display,
                config,
                made: Vec::new(),
            }
        }
    }

    /// A 3.3 core context sharing with context `share` (an index of `made`) or with none,
    /// and its pbuffer; returns its index.
    fn make(&mut self, share: Option<usize>) -> usize {
        let create_context = gl!(c"eglCreateContext": fn(gl_harness::P, gl_harness::P, gl_harness::P, *const i32) -> gl_harness::P);
        let create_pbuffer = gl!(c"eglCreatePbufferSurface": fn(gl_harness::P, gl_harness::P, *const i32) -> gl_harness::P);
        let attribs = [0x3098, 3, 0x30FB, 3, 0x30FD, 1, 0x3038];
        let pbuffer = [0x3057, 32, 0x3056, 32, 0x3038];
        let share = share.map_or(std::ptr::null_mut(), |i| self.made[i].0);
        // SAFETY: live display and config; EGL_NONE-terminated lists.
        let made = unsafe {
            let ctx = create_context(self.display, self.config, share, attribs.as_ptr());
            let surface = create_pbuffer(self.display, self.config, pbuffer.as_ptr());
            (ctx, surface)
        };
        assert!(
            !made.0.is_null() && !made.1.is_null(),
            "context and pbuffer"
        );
        self.made.push(made);
        self.made.len() - 1
    }

    /// Makes context `i` current on its pbuffer.
    fn current(&self, i: usize) {
        let make_current = gl!(c"eglMakeCurrent": fn(gl_harness::P, gl_harness::P, gl_harness::P, gl_harness::P) -> u32);
        let (ctx, surface) = self.made[i];
        // SAFETY: live handles of this display.
        let made = unsafe { make_current(self.display, surface, surface, ctx) };
        assert_eq!(made, 1);
    }
}

impl Drop for Contexts {
    fn drop(&mut self) {
        let destroy_context = gl!(c"eglDestroyContext": fn(gl_harness::P, gl_harness::P) -> u32);
        let destroy_surface = gl!(c"eglDestroySurface": fn(gl_harness::P, gl_harness::P) -> u32);
        let make_current = gl!(c"eglMakeCurrent": fn(gl_harness::P, gl_harness::P, gl_harness::P, gl_harness::P) -> u32);
        let none = std::ptr::null_mut();
        // SAFETY: handles this value made, released first.
        unsafe {
            make_current(self.display, none, none, none);
            for &(ctx, surface) in &self.made {
                destroy_context(self.display, ctx);
                destroy_surface(self.display, surface);
            }
        }
    }
}

/// A share group (two contexts) and an unshared context on one display, each with its own
/// program, vertex array, mipmapped atlas and framebuffer (the shared pair's programs and
/// textures in one namespace), all survive one loss: whichever context comes first replaces
/// the device, the others follow on their next command, and each draws its pixels as before,
/// with no GL or validation error.
#[test]
fn a_share_group_and_an_unshared_context_survive_one_loss() {
    recovery_on();
    let _current = context();
    let mut contexts = Contexts::new();
    let first = contexts.make(None);
    let shared = contexts.make(Some(first));
    let alone = contexts.make(None);
    let order = [first, shared, alone];
    let scenes: Vec<Scene> = order
        .iter()
        .map(|&i| {
            contexts.current(i);
            Scene::new()
        })
        .collect();
    let before: Vec<Vec<u8>> = order
        .iter()
        .zip(&scenes)
        .map(|(&i, scene)| {
            contexts.current(i);
            scene.draw_and_read()
        })
        .collect();
    let recoveries = memory_stat(c"recoveries");
    contexts.current(first);
    lose_device_during(|| scenes[0].draw());
    assert_eq!(error(), GL_NO_ERROR, "the loss is absorbed");
    // The shared context comes first after the loss: it replaces the device.
    for k in [1, 0, 2] {
        contexts.current(order[k]);
        let after = scenes[k].draw_and_read();
        assert_eq!(error(), GL_NO_ERROR, "context {k} goes on");
        assert!(
            after == before[k],
            "context {k} draws the same pixels after the recovery"
        );
    }
    assert_eq!(
        memory_stat(c"recoveries"),
        recoveries + 1,
        "one recovery for all"
    );
}

const GL_QUERY_RESULT: u32 = 0x8866;
const GL_QUERY_RESULT_AVAILABLE: u32 = 0x8867;
const GL_SAMPLES_PASSED: u32 = 0x8914;
const GL_TIME_ELAPSED: u32 = 0x88BF;

/// `glGetQueryObjectui64v(id, pname)`.
fn query_value(id: u32, pname: u32) -> u64 {
    let get = gl!(c"glGetQueryObjectui64v": fn(u32, u32, *mut u64));
    let mut v = u64::MAX;
    // SAFETY: out-pointer to a local.
    unsafe { get(id, pname, &mut v) };
    v
}

/// Queries pending across a loss answer: one ended before the loss and never read, and one
/// still active across it (ended after the recovery), are available with 0 — what they
/// counted died with the device — and a query begun after the recovery counts again.
#[test]
fn queries_pending_across_a_loss_are_available_with_zero() {
    recovery_on();
    let _current = context();
    let scene = Scene::new();
    let gen_queries = gl!(c"glGenQueries": fn(i32, *mut u32));
    let begin = gl!(c"glBeginQuery": fn(u32, u32));
    let end = gl!(c"glEndQuery": fn(u32));
    let mut ids = [0u32; 3];
    // SAFETY: room for three names.
    unsafe { gen_queries(3, ids.as_mut_ptr()) };
    let [ended, active, after] = ids;
    lose_device_during(|| {
        // SAFETY: valid targets and fresh names.
        unsafe {
            begin(GL_SAMPLES_PASSED, ended);
            scene.draw();
            end(GL_SAMPLES_PASSED);
            begin(GL_TIME_ELAPSED, active);
            scene.draw();
        }
    });
    // SAFETY: the time-elapsed query is active.
    unsafe { end(GL_TIME_ELAPSED) };
    assert_eq!(error(), GL_NO_ERROR, "the loss is absorbed");
    for (id, what) in [
        (ended, "ended before the loss"),
        (active, "active across it"),
    ] {
        assert_eq!(
            query_value(id, GL_QUERY_RESULT_AVAILABLE),
            1,
            "{what}: available"
        );
        assert_eq!(query_value(id, GL_QUERY_RESULT), 0, "{what}: 0");
    }
    // SAFETY: as above.
    unsafe {
        begin(GL_SAMPLES_PASSED, after);
        scene.draw();
        end(GL_SAMPLES_PASSED);
    }
    let samples = query_value(after, GL_QUERY_RESULT);
    assert_eq!(
        samples,
        (TARGET * TARGET) as u64,
        "a query after the recovery counts"
    );
    assert_eq!(error(), GL_NO_ERROR);
}

/// A fence made before a loss (its work dropped with the device) is signalled after the
/// recovery: a wait returns at once and the status reads signalled, with no error.
#[test]
fn a_fence_made_before_a_loss_is_signalled() {
    const GL_SYNC_GPU_COMMANDS_COMPLETE: u32 = 0x9117;
    const GL_SYNC_STATUS: u32 = 0x9114;
    const GL_SIGNALED: i32 = 0x9119;
    const GL_ALREADY_SIGNALED: u32 = 0x911A;
    const GL_CONDITION_SATISFIED: u32 = 0x911C;
    const GL_SYNC_FLUSH_COMMANDS_BIT: u32 = 0x1;
    recovery_on();
    let _current = context();
    let scene = Scene::new();
    let fence_sync = gl!(c"glFenceSync": fn(u32, u32) -> *const c_void);
    let client_wait = gl!(c"glClientWaitSync": fn(*const c_void, u32, u64) -> u32);
    let get_sync = gl!(c"glGetSynciv": fn(*const c_void, u32, i32, *mut i32, *mut i32));
    let mut fence = std::ptr::null();
    lose_device_during(|| {
        scene.draw();
        // SAFETY: the only valid condition and flags.
        fence = unsafe { fence_sync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0) };
    });
    assert!(!fence.is_null());
    assert_eq!(error(), GL_NO_ERROR, "the loss is absorbed");
    // SAFETY: a live sync; out-pointers to locals.
    let (waited, status) = unsafe {
        let waited = client_wait(fence, GL_SYNC_FLUSH_COMMANDS_BIT, 1_000_000_000);
        let mut status = 0;
        get_sync(fence, GL_SYNC_STATUS, 1, std::ptr::null_mut(), &mut status);
        (waited, status)
    };
    assert!(
        matches!(waited, GL_ALREADY_SIGNALED | GL_CONDITION_SATISFIED),
        "the wait ends signalled: 0x{waited:X}"
    );
    assert_eq!(status, GL_SIGNALED);
    assert_eq!(error(), GL_NO_ERROR);
}

/// A transform feedback capture active across a loss goes on after the recovery with its
/// program made again: it pauses and resumes with that program current (`GL_INVALID_OPERATION`
/// if the capture kept the lost device's program), and the next draw captures on the new
/// device at the offset the capture reached.
#[test]
fn a_transform_feedback_capture_survives_a_loss() {
    const GL_TRANSFORM_FEEDBACK_BUFFER: u32 = 0x8C8E;
    const GL_INTERLEAVED_ATTRIBS: u32 = 0x8C8C;
    const GL_POINTS: u32 = 0x0000;
    const GL_STATIC_READ: u32 = 0x88E5;
    recovery_on();
    let _current = context();
    let vs = "#version 330 core
layout(location = 0) in vec2 pos;
out float captured;
void main() { captured = pos.x * 10.0 + pos.y; gl_Position = vec4(pos, 0.0, 1.0); }
";
    let fs = "#version 330 core
out vec4 color;
void main() { color = vec4(1.0); }
";
    let varyings = gl!(c"glTransformFeedbackVaryings": fn(u32, i32, *const *const c_char, u32));
    let program = gl_harness::program_with(vs, fs, |p| {
        let name = c"captured".as_ptr();
        // SAFETY: one NUL-terminated name.
        unsafe { varyings(p, 1, &name, GL_INTERLEAVED_ATTRIBS) };
    });
    let gen_vertex_arrays = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vertex_array = gl!(c"glBindVertexArray": fn(u32));
    let attrib_pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable_attrib = gl!(c"glEnableVertexAttribArray": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let bind_base = gl!(c"glBindBufferBase": fn(u32, u32, u32));
    let buffer_data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let begin = gl!(c"glBeginTransformFeedback": fn(u32));
    let end = gl!(c"glEndTransformFeedback": fn());
    let pause = gl!(c"glPauseTransformFeedback": fn());
    let resume = gl!(c"glResumeTransformFeedback": fn());
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let get_sub_data = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut c_void));
    let quad: [f32; 8] = [-0.5, -0.5, 0.5, -0.5, -0.5, 0.5, 0.5, 0.5];
    let bytes: Vec<u8> = quad.iter().flat_map(|v| v.to_ne_bytes()).collect();
    let mut vao = 0;
    // SAFETY: out-pointer to a local; live names; NULL data for the capture buffer.
    let capture = unsafe {
        gen_vertex_arrays(1, &mut vao);
        bind_vertex_array(vao);
        buffer_with(GL_ARRAY_BUFFER, &bytes);
        attrib_pointer(0, 2, GL_FLOAT, 0, 0, std::ptr::null());
        enable_attrib(0);
        let capture = buffer_with(GL_TRANSFORM_FEEDBACK_BUFFER, &[0u8; 64]);
        buffer_data(
            GL_TRANSFORM_FEEDBACK_BUFFER,
            64,
            std::ptr::null(),
            GL_STATIC_READ,
        );
        bind_base(GL_TRANSFORM_FEEDBACK_BUFFER, 0, capture);
        use_program(program);
        begin(GL_POINTS);
        capture
    };
    assert_eq!(error(), GL_NO_ERROR, "the capture runs");
    // SAFETY: a capture of points is active.
    lose_device_during(|| unsafe { draw_arrays(GL_POINTS, 0, 4) });
    assert_eq!(error(), GL_NO_ERROR, "the loss is absorbed");
    let mut out = [0f32; 8];
    // SAFETY: the capture is active; `out` holds the 32 bytes read.
    unsafe {
        pause();
        resume();
        assert_eq!(
            error(),
            GL_NO_ERROR,
            "the capture resumes with its program made again"
        );
        draw_arrays(GL_POINTS, 0, 4);
        end();
        bind_base(GL_TRANSFORM_FEEDBACK_BUFFER, 0, capture);
        get_sub_data(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 32, out.as_mut_ptr().cast());
    }
    assert_eq!(
        error(),
        GL_NO_ERROR,
        "the capture goes on after the recovery"
    );
    let want: Vec<f32> = quad.chunks(2).map(|p| p[0] * 10.0 + p[1]).collect();
    assert_eq!(
        &out[4..],
        &want[..],
        "the draw after the recovery is captured after the first"
    );
}

const WINDOW_CHILD_ENV: &str = "ARENAGL_RECOVER_WINDOW_CHILD";
/// The window's side.
const WINDOW: u32 = 48;

/// A context presenting to an X11 window (`Xvfb`) survives a device loss met by
/// `eglSwapBuffers`: that swap succeeds (its frame is dropped), the next command replaces the
/// device — the window's surface made again on the new instance, its swapchain at the next
/// swap — and the next swap shows the new frame, with no validation message. Runs in a child
/// (this binary re-executed under `DISPLAY`); skipped only without `Xvfb` or libX11.
#[test]
fn a_window_survives_a_loss_met_by_swap_buffers() {
    if std::env::var_os(WINDOW_CHILD_ENV).is_some() {
        return;
    }
    if let Some(server) = xvfb::start_or_skip() {
        child::run_test_child(
            "child_window_survives",
            WINDOW_CHILD_ENV,
            [("DISPLAY", server.name.as_str()), ("ARENAGL_RECOVER", "1")],
            "WINDOW_SURVIVES_OK",
        );
    }
}

#[test]
fn child_window_survives() {
    use arenagl_present::egl::*;
    use gl_harness::P;
    use std::ptr::null_mut;
    if std::env::var_os(WINDOW_CHILD_ENV).is_none() {
        return;
    }
    let x = xvfb::xlib::Xlib::load();
    let conn = x.open();
    let get_display = gl!(c"eglGetDisplay": fn(P) -> P);
    let initialize = gl!(c"eglInitialize": fn(P, *mut EGLint, *mut EGLint) -> u32);
    let choose = gl!(c"eglChooseConfig": fn(P, *const EGLint, *mut P, EGLint, *mut EGLint) -> u32);
    let create_window = gl!(c"eglCreateWindowSurface": fn(P, P, usize, *const EGLint) -> P);
    let create_context = gl!(c"eglCreateContext": fn(P, P, P, *const EGLint) -> P);
    let make_current = gl!(c"eglMakeCurrent": fn(P, P, P, P) -> u32);
    let bind_api = gl!(c"eglBindAPI": fn(u32) -> u32);
    let swap = gl!(c"eglSwapBuffers": fn(P, P) -> u32);
    let destroy_surface = gl!(c"eglDestroySurface": fn(P, P) -> u32);
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let window = x.window(conn, None, WINDOW, WINDOW);
    let far = WINDOW - 2;
    // SAFETY: EGL and GL calls on a live X connection with terminated attribute lists and
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
        assert_eq!(bind_api(EGL_OPENGL_API), 1);
        let ctx = create_context(d, cfg, null_mut(), [EGL_NONE].as_ptr());
        assert!(!ctx.is_null());
        let s = create_window(d, cfg, window as usize, [EGL_NONE].as_ptr());
        assert!(!s.is_null(), "window surface");
        assert_eq!(make_current(d, s, s, ctx), 1);
        let frame = |rgb: [f32; 3]| {
            clear_color(rgb[0], rgb[1], rgb[2], 1.0);
            clear(GL_COLOR_BUFFER_BIT);
            swap(d, s)
        };
        assert_eq!(frame([1.0, 0.0, 0.0]), 1);
        let red = [(1, 1, [255, 0, 0]), (far, far, [255, 0, 0])];
        if let Err(seen) = x.poll_probes(conn, window, &red) {
            panic!("before the loss the window shows {seen:?}");
        }
        let recoveries = memory_stat(c"recoveries");

        set_faults("submit@1=device_lost");
        assert_eq!(
            frame([0.0, 0.0, 1.0]),
            1,
            "the swap that meets the loss succeeds"
        );
        set_faults("");
        assert_eq!(error(), GL_NO_ERROR, "the loss is absorbed");
        assert_eq!(frame([0.0, 1.0, 0.0]), 1, "the first swap after the loss");
        assert_eq!(frame([0.0, 1.0, 0.0]), 1, "the second swap after the loss");
        assert_eq!(error(), GL_NO_ERROR);
        assert_eq!(memory_stat(c"recoveries"), recoveries + 1, "one recovery");
        let green = [(1, 1, [0, 255, 0]), (far, far, [0, 255, 0])];
        if let Err(seen) = x.poll_probes(conn, window, &green) {
            panic!("after the recovery the window shows {seen:?}");
        }
        assert_eq!(make_current(d, null_mut(), null_mut(), null_mut()), 1);
        assert_eq!(destroy_surface(d, s), 1);
    }
    assert_eq!(gl_harness::validation_errors(), 0, "validation errors");
    println!("WINDOW_SURVIVES_OK");
}
