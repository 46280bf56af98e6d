//! Device-loss recovery under a real GL program (`docs/robustness.md`, "Recovery inside the
//! context"; `docs/memory.md` "Recovery"): what a context specifies for textures and buffers
//! is journaled through the translator's upload paths (re-specifying overwrites in place,
//! deleting drops it); a context without reset notification that loses its device goes on in
//! the same context, its program, vertex array, mipmapped texture and framebuffer drawing the
//! same pixels with no GL call to make them again; a context that asked for
//! `EGL_LOSE_CONTEXT_ON_RESET` still reports the reset. Every test sets `ARENAGL_RECOVER=1`
//! before its context opens the process's device (lavapipe, with validation under
//! `ARENAGL_VALIDATION=1`); losses are injected with `arenagl_set_faults`.

use std::ffi::{c_char, c_void, CString};

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

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
