//! Share groups through the C ABI: contexts created with `eglCreateContext`'s `share_context`
//! see one name space and the same objects (buffers, textures, renderbuffers, samplers,
//! shaders, programs) while vertex arrays and framebuffers stay per context; a group outlives
//! the context that started it; contexts that share nothing stay apart; two threads driving
//! shared contexts at once neither crash nor hand out one name twice.

use std::ffi::c_void;
use std::ptr::{null, null_mut};
use std::sync::Mutex;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{error, f, validation_errors, P};

const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_STATIC_DRAW: u32 = 0x88E4;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_RGBA: u32 = 0x1908;
const GL_RGBA8: i32 = 0x8058;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_VERTEX_SHADER: u32 = 0x8B31;

/// One test at a time: they share the process's device and validation count.
static SERIAL: Mutex<()> = Mutex::new(());

/// An EGL display, config and the calls the tests need.
struct Egl {
    dpy: P,
    cfg: P,
}

// SAFETY: EGL display and config handles are process-wide and EGL is thread-safe.
unsafe impl Sync for Egl {}

impl Egl {
    fn new() -> Self {
        let get_display = gl!(c"eglGetPlatformDisplayEXT": fn(u32, P, *const i32) -> P);
        let initialize = gl!(c"eglInitialize": fn(P, *mut i32, *mut i32) -> u32);
        let choose = gl!(c"eglChooseConfig": fn(P, *const i32, *mut P, i32, *mut i32) -> u32);
        let bind_api = gl!(c"eglBindAPI": fn(u32) -> u32);
        // SAFETY: EGL_NONE-terminated lists, out-pointers to locals.
        unsafe {
            let dpy = get_display(0x31DD, null_mut(), null());
            assert_eq!(initialize(dpy, null_mut(), null_mut()), 1);
            let attribs = [0x3033, 0x0001, 0x3040, 0x0008, 0x3038];
            let (mut cfg, mut n) = (null_mut(), 0);
            assert_eq!(choose(dpy, attribs.as_ptr(), &mut cfg, 1, &mut n), 1);
            assert_eq!(bind_api(0x30A2), 1);
            Self { dpy, cfg }
        }
    }

    /// A 3.3 core context sharing with `share` (NULL: none).
    fn context(&self, share: P) -> P {
        let create = gl!(c"eglCreateContext": fn(P, P, P, *const i32) -> P);
        let attribs = [0x3098, 3, 0x30FB, 3, 0x30FD, 1, 0x3038];
        // SAFETY: live display/config, EGL_NONE-terminated list.
        let ctx = unsafe { create(self.dpy, self.cfg, share, attribs.as_ptr()) };
        assert!(!ctx.is_null(), "eglCreateContext");
        ctx
    }

    /// Makes `ctx` current on this thread with a fresh 8×8 pbuffer.
    fn make_current(&self, ctx: P) {
        let pbuffer = gl!(c"eglCreatePbufferSurface": fn(P, P, *const i32) -> P);
        let make_current = gl!(c"eglMakeCurrent": fn(P, P, P, P) -> u32);
        let size = [0x3057, 8, 0x3056, 8, 0x3038];
        // SAFETY: live handles, EGL_NONE-terminated list.
        unsafe {
            let surface = pbuffer(self.dpy, self.cfg, size.as_ptr());
            assert!(!surface.is_null());
            assert_eq!(make_current(self.dpy, surface, surface, ctx), 1);
        }
    }

    fn release(&self) {
        let make_current = gl!(c"eglMakeCurrent": fn(P, P, P, P) -> u32);
        // SAFETY: a live display; no surfaces or context.
        unsafe { make_current(self.dpy, null_mut(), null_mut(), null_mut()) };
    }

    fn destroy(&self, ctx: P) {
        let destroy = gl!(c"eglDestroyContext": fn(P, P) -> u32);
        // SAFETY: a live context.
        assert_eq!(unsafe { destroy(self.dpy, ctx) }, 1);
    }
}

fn gen_buffer() -> u32 {
    let gen = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let mut b = 0;
    // SAFETY: out-pointer to a local.
    unsafe { gen(1, &mut b) };
    b
}

fn is(name: &'static std::ffi::CStr, n: u32) -> bool {
    // SAFETY: every glIs* has this signature.
    let f = unsafe { f::<unsafe extern "C" fn(u32) -> u8>(name) };
    // SAFETY: a plain value.
    unsafe { f(n) == 1 }
}

/// A buffer holding `data`, bound to `GL_ARRAY_BUFFER`.
fn buffer_with(data: &[u8]) -> u32 {
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let data_fn = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let b = gen_buffer();
    // SAFETY: `data` holds its length in bytes.
    unsafe {
        bind(GL_ARRAY_BUFFER, b);
        data_fn(
            GL_ARRAY_BUFFER,
            data.len() as isize,
            data.as_ptr().cast(),
            GL_STATIC_DRAW,
        );
    }
    b
}

fn buffer_contents(b: u32, len: usize) -> Vec<u8> {
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let get = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut c_void));
    let mut out = vec![0u8; len];
    // SAFETY: room for `len` bytes.
    unsafe {
        bind(GL_ARRAY_BUFFER, b);
        get(GL_ARRAY_BUFFER, 0, len as isize, out.as_mut_ptr().cast());
    }
    out
}

/// A 1×1 texture holding `texel`.
fn texture_with(texel: [u8; 4]) -> u32 {
    let gen = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let mut t = 0;
    // SAFETY: one RGBA texel; out-pointer to a local.
    unsafe {
        gen(1, &mut t);
        bind(GL_TEXTURE_2D, t);
        image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8,
            1,
            1,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texel.as_ptr().cast(),
        );
    }
    t
}

fn texel_of(t: u32) -> [u8; 4] {
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    // SAFETY: a plain value.
    unsafe { bind(GL_TEXTURE_2D, t) };
    bound_texel()
}

#[test]
fn shared_contexts_see_one_name_space_and_the_same_objects() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let egl = Egl::new();
    let a = egl.context(null_mut());
    let b = egl.context(a);
    let create_shader = gl!(c"glCreateShader": fn(u32) -> u32);
    let create_program = gl!(c"glCreateProgram": fn() -> u32);
    let gen_vao = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));

    egl.make_current(a);
    let buf = buffer_with(&[1, 2, 3, 4]);
    let tex = texture_with([9, 8, 7, 6]);
    // SAFETY: plain values and an out-pointer to a local.
    let (shader, program, vao) = unsafe {
        let mut vao = 0;
        gen_vao(1, &mut vao);
        bind_vao(vao);
        (create_shader(GL_VERTEX_SHADER), create_program(), vao)
    };
    assert_eq!(error(), 0);

    egl.make_current(b);
    assert!(is(c"glIsBuffer", buf), "the buffer is shared");
    assert!(is(c"glIsTexture", tex), "the texture is shared");
    assert!(is(c"glIsShader", shader) && is(c"glIsProgram", program));
    assert!(
        !is(c"glIsVertexArray", vao),
        "vertex arrays are per context"
    );
    assert_eq!(
        buffer_contents(buf, 4),
        [1, 2, 3, 4],
        "contents written in A"
    );
    assert_eq!(texel_of(tex), [9, 8, 7, 6]);
    let next = buffer_with(&[0; 4]);
    assert_ne!(next, buf, "B must not reissue A's name");
    let tex_b = texture_with([1, 1, 1, 1]);
    assert_eq!(error(), 0);

    // A sees what B made; A's going leaves the group to B.
    egl.make_current(a);
    assert!(is(c"glIsBuffer", next) && is(c"glIsTexture", tex_b));
    egl.release();
    egl.destroy(a);
    egl.make_current(b);
    assert_eq!(texel_of(tex), [9, 8, 7, 6], "the group outlives A");
    assert_eq!(error(), 0);
    egl.release();
    egl.destroy(b);
    assert_eq!(validation_errors(), 0);
}

#[test]
fn contexts_that_share_nothing_stay_apart() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let egl = Egl::new();
    let a = egl.context(null_mut());
    let b = egl.context(null_mut());
    egl.make_current(a);
    let buf = buffer_with(&[5; 4]);
    egl.make_current(b);
    assert!(!is(c"glIsBuffer", buf), "no share context: nothing shared");
    egl.release();
    egl.destroy(a);
    egl.destroy(b);
}

#[test]
fn two_threads_with_shared_contexts_take_turns_safely() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let egl = Egl::new();
    let first = egl.context(null_mut());
    let contexts = [first, egl.context(first)];
    let names: Vec<Vec<(u32, u8)>> = std::thread::scope(|s| {
        let workers: Vec<_> = contexts
            .iter()
            .enumerate()
            .map(|(i, &ctx)| {
                let egl = &egl;
                let ctx = ctx as usize;
                s.spawn(move || {
                    egl.make_current(ctx as P);
                    let made: Vec<(u32, u8)> = (0..200u32)
                        .map(|k| {
                            let tag = (i as u8) * 100 + (k % 100) as u8;
                            (buffer_with(&[tag; 16]), tag)
                        })
                        .collect();
                    assert_eq!(error(), 0);
                    egl.release();
                    made
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("worker"))
            .collect()
    });
    let mut all: Vec<u32> = names.iter().flatten().map(|&(n, _)| n).collect();
    all.sort_unstable();
    all.dedup();
    assert_eq!(
        all.len(),
        400,
        "every name handed out once across the group"
    );
    // Every buffer holds what its thread wrote, seen from either context.
    egl.make_current(contexts[1]);
    for &(n, tag) in names.iter().flatten() {
        assert_eq!(buffer_contents(n, 16), [tag; 16], "buffer {n}");
    }
    egl.release();
    // Both threads delete everything at once, each binding the other's buffers meanwhile: the
    // deletions wait for the other context's bindings (tombstones), never free what it uses.
    let live = || gl_harness::memory_stat(c"client_objects_live");
    std::thread::scope(|s| {
        for (i, &ctx) in contexts.iter().enumerate() {
            let (egl, names) = (&egl, &names);
            let ctx = ctx as usize;
            s.spawn(move || {
                egl.make_current(ctx as P);
                let bind = gl!(c"glBindBuffer": fn(u32, u32));
                let delete = gl!(c"glDeleteBuffers": fn(i32, *const u32));
                for (&(mine, _), &(theirs, tag)) in names[i].iter().zip(&names[1 - i]) {
                    // SAFETY: a plain value.
                    unsafe { bind(GL_ARRAY_BUFFER, theirs) };
                    if error() != 0 {
                        // The other thread deleted it first: its name is gone for binding.
                        // SAFETY: one name.
                        unsafe { delete(1, &mine) };
                        continue;
                    }
                    // SAFETY: one name.
                    unsafe { delete(1, &mine) };
                    // The other thread may delete `theirs` any time now: the binding keeps it
                    // alive, and its bytes stay the ones written.
                    let get = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut c_void));
                    let mut out = [0u8; 16];
                    // SAFETY: room for 16 bytes.
                    unsafe { get(GL_ARRAY_BUFFER, 0, 16, out.as_mut_ptr().cast()) };
                    assert_eq!(out, [tag; 16], "buffer {theirs} while bound here");
                }
                // SAFETY: plain values.
                unsafe { bind(GL_ARRAY_BUFFER, 0) };
                assert_eq!(error(), 0);
                egl.release();
            });
        }
    });
    egl.make_current(contexts[0]);
    assert!(names.iter().flatten().all(|&(n, _)| !is(c"glIsBuffer", n)));
    egl.make_current(contexts[1]);
    let _ = error();
    egl.make_current(contexts[0]);
    let _ = error();
    let after = live();
    egl.release();
    for ctx in contexts {
        egl.destroy(ctx);
    }
    assert!(
        after < 400,
        "the deleted buffers were released: {after} objects live"
    );
    assert_eq!(validation_errors(), 0);
}

fn get_integer(pname: u32) -> i32 {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = 0;
    // SAFETY: out-pointer to a local.
    unsafe { get(pname, &mut v) };
    v
}

/// The texel of the texture bound to `GL_TEXTURE_2D` now (no rebinding: a deleted name cannot
/// be bound again).
fn bound_texel() -> [u8; 4] {
    let texel = gl_harness::tex_image_rgba(GL_TEXTURE_2D, 0, 4);
    texel.try_into().expect("one texel")
}

/// The first four bytes of the buffer bound to `GL_ARRAY_BUFFER` now.
fn bound_bytes() -> [u8; 4] {
    let get = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut c_void));
    let mut out = [0u8; 4];
    // SAFETY: room for four bytes.
    unsafe { get(GL_ARRAY_BUFFER, 0, 4, out.as_mut_ptr().cast()) };
    out
}

#[test]
fn an_object_deleted_in_one_context_lives_on_for_the_others_bindings() {
    const GL_CURRENT_PROGRAM: u32 = 0x8B8D;
    const GL_DELETE_STATUS: u32 = 0x8B80;
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let egl = Egl::new();
    let a = egl.context(null_mut());
    let b = egl.context(a);
    let bind_texture = gl!(c"glBindTexture": fn(u32, u32));
    let bind_buffer = gl!(c"glBindBuffer": fn(u32, u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let delete_textures = gl!(c"glDeleteTextures": fn(i32, *const u32));
    let delete_buffers = gl!(c"glDeleteBuffers": fn(i32, *const u32));
    let delete_program = gl!(c"glDeleteProgram": fn(u32));
    let get_program = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));

    egl.make_current(a);
    let tex = texture_with([9, 8, 7, 6]);
    let buf = buffer_with(&[1, 2, 3, 4]);
    let program = gl_harness::program(
        "#version 330 core\nvoid main() { gl_Position = vec4(0.0); }\n",
        "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n",
    );
    assert_eq!(error(), 0);
    // B binds all three.
    egl.make_current(b);
    // SAFETY: plain values.
    unsafe {
        bind_texture(GL_TEXTURE_2D, tex);
        bind_buffer(GL_ARRAY_BUFFER, buf);
        use_program(program);
    }
    assert_eq!(error(), 0);
    // A deletes them: the names are gone for A at once.
    egl.make_current(a);
    // SAFETY: one name each.
    unsafe {
        delete_textures(1, &tex);
        delete_buffers(1, &buf);
        delete_program(program);
    }
    assert!(!is(c"glIsTexture", tex) && !is(c"glIsBuffer", buf));
    assert!(
        is(c"glIsProgram", program),
        "a program in use elsewhere is only flagged"
    );
    let mut status = 0;
    // SAFETY: out-pointer to a local.
    unsafe { get_program(program, GL_DELETE_STATUS, &mut status) };
    assert_eq!(status, 1);
    // SAFETY: plain value.
    unsafe { bind_texture(GL_TEXTURE_2D, tex) };
    assert_eq!(
        error(),
        0x0502,
        "binding a deleted name: GL_INVALID_OPERATION"
    );
    let fresh: Vec<u32> = (0..16).map(|_| gen_buffer()).collect();
    assert!(
        !fresh.contains(&buf),
        "the name waits while B still uses it"
    );
    // B's bindings still reach the objects.
    egl.make_current(b);
    assert_eq!(bound_texel(), [9, 8, 7, 6], "the texture lives on for B");
    assert_eq!(bound_bytes(), [1, 2, 3, 4], "the buffer lives on for B");
    assert_eq!(get_integer(GL_CURRENT_PROGRAM), program as i32);
    assert_eq!(error(), 0);
    // B lets go; then the objects are gone for everyone.
    let live = || gl_harness::memory_stat(c"client_objects_live");
    let held = live();
    // SAFETY: plain values.
    unsafe {
        use_program(0);
        bind_texture(GL_TEXTURE_2D, 0);
        bind_buffer(GL_ARRAY_BUFFER, 0);
    }
    assert_eq!(error(), 0);
    assert!(
        live() + 2 <= held,
        "the texture's image and the buffer are released: {held} → {}",
        live()
    );
    egl.make_current(a);
    assert!(!is(c"glIsProgram", program), "no context uses it any more");
    egl.release();
    egl.destroy(a);
    egl.destroy(b);
    assert_eq!(validation_errors(), 0);
}

#[test]
fn a_shared_texture_deleted_while_an_unbound_framebuffer_holds_it_stays_attached() {
    const GL_FRAMEBUFFER: u32 = 0x8D40;
    const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
    const GL_FRAMEBUFFER_COMPLETE: u32 = 0x8CD5;
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let egl = Egl::new();
    let a = egl.context(null_mut());
    let b = egl.context(a);
    let gen_fb = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let status = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
    let delete_textures = gl!(c"glDeleteTextures": fn(i32, *const u32));

    egl.make_current(a);
    let tex = texture_with([4, 3, 2, 1]);
    let mut fb = 0;
    // SAFETY: out-pointer to a local, plain values.
    unsafe {
        gen_fb(1, &mut fb);
        bind_fb(GL_FRAMEBUFFER, fb);
        attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
        bind_fb(GL_FRAMEBUFFER, 0);
        delete_textures(1, &tex);
        bind_fb(GL_FRAMEBUFFER, fb);
    }
    // SAFETY: plain value.
    assert_eq!(unsafe { status(GL_FRAMEBUFFER) }, GL_FRAMEBUFFER_COMPLETE);
    let px = gl_harness::read_rgba(0, 0, 1, 1);
    assert_eq!(px, [4, 3, 2, 1], "the framebuffer still holds the texture");
    assert_eq!(error(), 0);
    egl.release();
    egl.destroy(b);
    egl.destroy(a);
    assert_eq!(validation_errors(), 0);
}
