//! A GL program on a really small device heap (`ARENAGL_HEAP_LIMIT_MB`: VMA's heap size limit,
//! read when the device opens): allocations fill the heap until the driver refuses, the OOM
//! ladder runs (drain, blocking GC — which submits what is recorded — retry) and the program
//! gets `GL_OUT_OF_MEMORY`, not a crash. Nothing recorded before is lost: an earlier frame's
//! upload and the current frame's clear and staged upload, recorded before the heap filled,
//! read back intact once the filler is deleted, and rendering goes on. The validation layer
//! must stay silent (`ARENAGL_VALIDATION=1` in CI).

use std::ffi::{c_void, CStr};
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{error, f, P};

const GL_NO_ERROR: u32 = 0;
const GL_OUT_OF_MEMORY: u32 = 0x0505;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_RGBA: u32 = 0x1908;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_STATIC_DRAW: u32 = 0x88E4;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const EGL_DRAW: i32 = 0x3059;

/// The device heap of this binary, in MiB.
const HEAP_MB: u64 = 96;
/// One filler buffer.
const FILLER: isize = 4 << 20;
/// The test texture's side.
const SIDE: usize = 16;

fn context() -> gl_harness::Current {
    // Read when the device opens (the first context of the process).
    std::env::set_var("ARENAGL_HEAP_LIMIT_MB", HEAP_MB.to_string());
    gl_harness::context()
}

fn stat(name: &CStr) -> u64 {
    let v = gl_harness::memory_stat(name);
    assert_ne!(v, u64::MAX, "{name:?}");
    v
}

fn swap() {
    let display = gl!(c"eglGetCurrentDisplay": fn() -> P);
    let surface = gl!(c"eglGetCurrentSurface": fn(i32) -> P);
    let swap = gl!(c"eglSwapBuffers": fn(P, P) -> u32);
    // SAFETY: the current display and draw surface.
    unsafe { assert_eq!(swap(display(), surface(EGL_DRAW)), 1) };
}

fn clear(rgba: [f32; 4]) {
    let colour = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    // SAFETY: plain values.
    unsafe {
        colour(rgba[0], rgba[1], rgba[2], rgba[3]);
        clear(GL_COLOR_BUFFER_BIT);
    }
}

/// A `SIDE`² RGBA texture pattern, distinct per `seed`.
fn pattern(seed: u8) -> Vec<u8> {
    (0..SIDE * SIDE * 4)
        .map(|i| (i as u8).wrapping_mul(7).wrapping_add(seed))
        .collect()
}

/// Replaces (`full`: defines) level 0 of the bound texture with `texels`.
fn upload(texels: &[u8], full: bool) {
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let sub = gl!(c"glTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let s = SIDE as i32;
    // SAFETY: `texels` holds SIDE² RGBA pixels.
    unsafe {
        if full {
            let fmt = GL_RGBA as i32;
            image(
                GL_TEXTURE_2D,
                0,
                fmt,
                s,
                s,
                0,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                texels.as_ptr().cast(),
            );
        } else {
            sub(
                GL_TEXTURE_2D,
                0,
                0,
                0,
                s,
                s,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                texels.as_ptr().cast(),
            );
        }
    }
}

/// Allocates filler buffers (no data) until GL reports out of memory; returns them.
fn fill_heap() -> Vec<u32> {
    let gen = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let mut fillers = Vec::new();
    let most = (HEAP_MB << 20) as isize / FILLER + 8;
    for _ in 0..most {
        let mut b = 0;
        // SAFETY: out-pointer to a local; a null data pointer leaves the store undefined.
        unsafe {
            gen(1, &mut b);
            bind(GL_ARRAY_BUFFER, b);
            data(GL_ARRAY_BUFFER, FILLER, null(), GL_STATIC_DRAW);
        }
        fillers.push(b);
        match error() {
            GL_NO_ERROR => {}
            GL_OUT_OF_MEMORY => return fillers,
            other => panic!("glBufferData on a full heap: 0x{other:04X}"),
        }
    }
    panic!("{most} buffers of 4 MiB fit in a {HEAP_MB} MiB heap: the limit is not in force");
}

fn delete_buffers(names: &[u32]) {
    let delete = gl!(c"glDeleteBuffers": fn(i32, *const u32));
    // SAFETY: `names` holds that many names.
    unsafe { delete(names.len() as i32, names.as_ptr()) };
}

#[test]
fn a_full_heap_is_gl_out_of_memory_and_nothing_recorded_before_is_lost() {
    let _ctx = context();
    // Frame 1: a texture with a first pattern, the drawable red.
    let tex = gl_harness::new_texture(GL_TEXTURE_2D);
    upload(&pattern(1), true);
    clear([1.0, 0.0, 0.0, 1.0]);
    swap();
    // Frame 2, recorded and not yet submitted: the drawable green, the texture's second pattern
    // (a staged upload).
    clear([0.0, 1.0, 0.0, 1.0]);
    upload(&pattern(2), false);
    assert_eq!(error(), GL_NO_ERROR);

    let (failures, refusals) = (stat(c"oom_failures"), stat(c"refusals"));
    let fillers = fill_heap();
    assert!(
        fillers.len() >= 4,
        "only {} filler buffers before the refusal",
        fillers.len()
    );
    assert!(
        stat(c"oom_failures") >= failures + 2,
        "the refused allocation failed, and failed again after the ladder"
    );
    assert!(stat(c"refusals") > refusals, "refused after the ladder");
    assert_eq!(stat(c"device_lost"), 0);

    // Room again: everything recorded before the heap filled is there.
    delete_buffers(&fillers);
    assert_eq!(error(), GL_NO_ERROR);
    let px = gl_harness::read_rgba(0, 0, 32, 32);
    assert!(
        px.chunks(4).all(|p| p == [0, 255, 0, 255]),
        "frame 2's clear was lost: {:?}",
        &px[..4]
    );
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    // SAFETY: a live texture name.
    unsafe { bind(GL_TEXTURE_2D, tex) };
    let texels = gl_harness::tex_image_rgba(GL_TEXTURE_2D, 0, SIDE * SIDE * 4);
    assert!(texels == pattern(2), "frame 2's upload was lost");
    // And the program goes on.
    swap();
    clear([0.0, 0.0, 1.0, 1.0]);
    let px = gl_harness::read_rgba(0, 0, 32, 32);
    assert!(px.chunks(4).all(|p| p == [0, 0, 255, 255]));
    assert_eq!(error(), GL_NO_ERROR);
}

/// `arenagl_set_faults`: a new plan, its counters from zero.
fn set_faults(spec: &str) {
    // SAFETY: the exported symbol has exactly this signature.
    let set = *unsafe {
        gl_harness::lib()
            .lib
            .get::<unsafe extern "C" fn(*const std::ffi::c_char) -> i32>(b"arenagl_set_faults\0")
    }
    .expect("arenagl_set_faults is exported");
    let spec = std::ffi::CString::new(spec).expect("no NUL");
    // SAFETY: a NUL-terminated string.
    assert_eq!(unsafe { set(spec.as_ptr()) }, 0, "plan {spec:?}");
}

/// A framebuffer object with a new `SIDE`² texture as its colour attachment, left bound.
fn target() -> (u32, u32) {
    const GL_FRAMEBUFFER: u32 = 0x8D40;
    const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
    let gen = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let tex = gl_harness::new_texture(GL_TEXTURE_2D);
    upload(&pattern(0), true);
    let mut fb = 0;
    // SAFETY: out-pointer to a local; live names.
    unsafe {
        gen(1, &mut fb);
        bind(GL_FRAMEBUFFER, fb);
        attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    }
    (fb, tex)
}

#[test]
fn a_frame_whose_submission_keeps_failing_goes_through_split() {
    const GL_FRAMEBUFFER: u32 = 0x8D40;
    let _ctx = context();
    let program = gl_harness::program(
        "#version 330 core\nvoid main() { vec2 p = vec2((gl_VertexID & 1) * 4 - 1, (gl_VertexID >> 1) * 4 - 1); gl_Position = vec4(p, 0.0, 1.0); }\n",
        "#version 330 core\nuniform vec4 colour;\nout vec4 c;\nvoid main() { c = colour; }\n",
    );
    let use_program = gl!(c"glUseProgram": fn(u32));
    let location = gl!(c"glGetUniformLocation": fn(u32, *const i8) -> i32);
    let uniform = gl!(c"glUniform4f": fn(i32, f32, f32, f32, f32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let viewport = gl!(c"glViewport": fn(i32, i32, i32, i32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let finish = gl!(c"glFinish": fn());
    let targets: Vec<_> = (0..20).map(|_| target()).collect();
    let colour = |i: usize| [(i * 12) as u8, 255 - (i * 12) as u8, 128, 255];
    // SAFETY: live names; a NUL-terminated uniform name; out-pointer to a local.
    unsafe {
        use_program(program);
        let at = location(program, c"colour".as_ptr());
        let mut vao = 0;
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        viewport(0, 0, SIDE as i32, SIDE as i32);
        finish();
        // One rendering instance per target: more than a command buffer's worth of them.
        for (i, &(fb, _)) in targets.iter().enumerate() {
            bind_fb(GL_FRAMEBUFFER, fb);
            let c = colour(i).map(|v| f32::from(v) / 255.0);
            uniform(at, c[0], c[1], c[2], c[3]);
            draw(0x0004, 0, 3);
        }
    }
    assert_eq!(error(), GL_NO_ERROR);
    // The whole frame fails to submit, then after each of the ladder's three rungs.
    let split = stat(c"split_submits");
    set_faults("submit@1=oom_device,submit@2=oom_host,submit@3=oom_device,submit@4=oom_device");
    // SAFETY: no arguments.
    unsafe { finish() };
    set_faults("");
    assert_eq!(error(), GL_NO_ERROR, "absorbed by the ladder");
    assert_eq!(stat(c"split_submits"), split + 1, "submitted split");
    for (i, &(fb, _)) in targets.iter().enumerate() {
        // SAFETY: a live framebuffer name.
        unsafe { bind_fb(GL_FRAMEBUFFER, fb) };
        let px = gl_harness::read_rgba(0, 0, SIDE as i32, SIDE as i32);
        assert!(
            px.chunks(4).all(|p| p == colour(i)),
            "target {i}: {:?}, want {:?}",
            &px[..4],
            colour(i)
        );
    }
}
