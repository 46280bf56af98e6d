//! Driving `libarenagl.so` in-process as a program does: the library loaded by path (or
//! `$ARENAGL_LIB`), every EGL and GL function reached through `eglGetProcAddress`, a current 3.3
//! core context on a 32×32 pbuffer, and the library's validation-error count. Shared by the
//! in-process GL tests (`#[macro_use] #[path = "common/gl.rs"] mod gl_harness;`).
#![allow(dead_code)]

use std::ffi::{c_char, c_void, CStr, CString};
use std::ptr::{null, null_mut};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

pub type P = *mut c_void;
type GetProc = unsafe extern "C" fn(*const c_char) -> P;

#[path = "library.rs"]
mod library;
pub use library::library_path;

pub struct Lib {
    pub lib: libloading::Library,
    get_proc: GetProc,
}

pub fn lib() -> &'static Lib {
    static LIB: OnceLock<Lib> = OnceLock::new();
    LIB.get_or_init(|| {
        let path = library_path();
        // SAFETY: our own library; it has no constructors.
        let lib = unsafe { libloading::Library::new(&path) }.expect("load libarenagl.so");
        // SAFETY: the exported symbol has exactly this signature.
        let get_proc = *unsafe { lib.get::<GetProc>(b"eglGetProcAddress\0") }.expect("symbol");
        Lib { lib, get_proc }
    })
}

/// The function `name` as type `F`.
///
/// # Safety
/// `F` is the C signature of `name`.
pub unsafe fn f<F: Copy>(name: &CStr) -> F {
    // SAFETY: `name` is NUL-terminated.
    let p = unsafe { (lib().get_proc)(name.as_ptr()) };
    assert!(!p.is_null(), "eglGetProcAddress({name:?}) is NULL");
    assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<P>());
    // SAFETY: same size; function and data pointers share a representation; the caller vouches
    // for the signature.
    unsafe { std::mem::transmute_copy(&p) }
}

/// `gl!(c"glName": fn(args…) -> ret)`: the function through `eglGetProcAddress`.
macro_rules! gl {
    ($name:literal : fn($($t:ty),*) $(-> $r:ty)?) => {{
        #[allow(unused_unsafe)]
        // SAFETY: the type spelled here is the function's C signature from the GL registry.
        let function = unsafe { f::<unsafe extern "C" fn($($t),*) $(-> $r)?>($name) };
        function
    }};
}

/// Validation-layer errors the library's device has reported (its diagnostic export).
pub fn validation_errors() -> u64 {
    // SAFETY: the exported symbol has exactly this signature.
    let count = *unsafe {
        lib()
            .lib
            .get::<unsafe extern "C" fn() -> u64>(b"arenagl_validation_error_count\0")
    }
    .expect("arenagl_validation_error_count is exported");
    // SAFETY: no arguments.
    unsafe { count() }
}

/// One of the open device's figures, by name (`arenagl_memory_stat`: `live_bytes`,
/// `refusals`, `demotions`, …); `u64::MAX` for an unknown name or no device.
pub fn memory_stat(name: &CStr) -> u64 {
    // SAFETY: the exported symbol has exactly this signature.
    let get = *unsafe {
        lib()
            .lib
            .get::<unsafe extern "C" fn(*const c_char) -> u64>(b"arenagl_memory_stat\0")
    }
    .expect("arenagl_memory_stat is exported");
    // SAFETY: a NUL-terminated name.
    unsafe { get(name.as_ptr()) }
}

/// Makes a fresh 3.3 core context current on a fresh 32×32 pbuffer (surfaceless display).
pub fn make_current_pbuffer() {
    make_current_pbuffer_profile(false);
}

/// Like [`make_current_pbuffer`], with a compatibility-profile context when `compat`.
pub fn make_current_pbuffer_profile(compat: bool) {
    let profile = if compat { 2 } else { 1 };
    let ctx_attribs = [0x3098, 3, 0x30FB, 3, 0x30FD, profile, 0x3038];
    make_current_pbuffer_with(0x30A2, 0x0008, &ctx_attribs); // EGL_OPENGL_API, OPENGL_BIT
}

/// Makes a fresh context of EGL client API `api` (`EGL_OPENGL_API`, `EGL_OPENGL_ES_API`) current
/// on a fresh 32×32 pbuffer: the first config of renderable type `renderable`, the context made
/// with `ctx_attribs` (`EGL_NONE`-terminated). EGL's bound API is left as desktop GL.
pub fn make_current_pbuffer_with(api: u32, renderable: i32, ctx_attribs: &[i32]) {
    const EGL_OPENGL_API: u32 = 0x30A2;
    let get_display = gl!(c"eglGetPlatformDisplayEXT": fn(u32, P, *const i32) -> P);
    let initialize = gl!(c"eglInitialize": fn(P, *mut i32, *mut i32) -> u32);
    let choose = gl!(c"eglChooseConfig": fn(P, *const i32, *mut P, i32, *mut i32) -> u32);
    let bind_api = gl!(c"eglBindAPI": fn(u32) -> u32);
    let create_context = gl!(c"eglCreateContext": fn(P, P, P, *const i32) -> P);
    let create_pbuffer = gl!(c"eglCreatePbufferSurface": fn(P, P, *const i32) -> P);
    let make_current = gl!(c"eglMakeCurrent": fn(P, P, P, P) -> u32);
    assert_eq!(ctx_attribs.last(), Some(&0x3038), "EGL_NONE-terminated");
    // SAFETY: live handles from earlier calls, EGL_NONE-terminated lists, out-pointers to locals.
    unsafe {
        let dpy = get_display(0x31DD, null_mut(), null());
        assert!(!dpy.is_null());
        assert_eq!(initialize(dpy, null_mut(), null_mut()), 1);
        // A pbuffer of RGBA8 with 24-bit depth and 8-bit stencil, which the tests assume: the
        // default framebuffer follows its config (an empty list would sort RGB565 first).
        let attribs = [
            0x3033, 0x0001, // EGL_SURFACE_TYPE: EGL_PBUFFER_BIT
            0x3040, renderable, // EGL_RENDERABLE_TYPE
            0x3024, 8, 0x3023, 8, 0x3022, 8, 0x3021, 8, // red, green, blue, alpha
            0x3025, 24, 0x3026, 8, // depth, stencil
            0x3038,
        ];
        let mut cfg = null_mut();
        let mut n = 0;
        assert_eq!(choose(dpy, attribs.as_ptr(), &mut cfg, 1, &mut n), 1);
        assert_eq!(n, 1);
        assert_eq!(bind_api(api), 1);
        let ctx = create_context(dpy, cfg, null_mut(), ctx_attribs.as_ptr());
        assert!(!ctx.is_null());
        let pb = [0x3057, 32, 0x3056, 32, 0x3038];
        let surface = create_pbuffer(dpy, cfg, pb.as_ptr());
        assert!(!surface.is_null());
        assert_eq!(make_current(dpy, surface, surface, ctx), 1);
        if api != EGL_OPENGL_API {
            // Leave EGL's API as the desktop tests expect it.
            bind_api(EGL_OPENGL_API);
        }
    }
}

/// `glGetError`.
pub fn error() -> u32 {
    let get_error = gl!(c"glGetError": fn() -> u32);
    // SAFETY: no arguments.
    unsafe { get_error() }
}

/// Compiles and links a vertex + fragment program (asserts the link).
pub fn program(vs: &str, fs: &str) -> u32 {
    program_with(vs, fs, |_| {})
}

/// [`program`], running `before_link` on the program first (attribute or output bindings).
pub fn program_with(vs: &str, fs: &str, before_link: impl FnOnce(u32)) -> u32 {
    let (p, linked) = try_program_with(vs, fs, before_link);
    assert!(linked, "link");
    p
}

/// Compiles and links like [`program_with`]: the program and whether it linked.
pub fn try_program_with(vs: &str, fs: &str, before_link: impl FnOnce(u32)) -> (u32, bool) {
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let create_program = gl!(c"glCreateProgram": fn() -> u32);
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    let link = gl!(c"glLinkProgram": fn(u32));
    let get = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    // SAFETY: NUL-terminated sources, lengths NULL; the out-pointer is a local.
    unsafe {
        let p = create_program();
        for (ty, src) in [(0x8B31, vs), (0x8B30, fs)] {
            let s = create(ty);
            let c = CString::new(src).expect("no NUL");
            let ptr = c.as_ptr();
            source(s, 1, &ptr, null());
            compile(s);
            attach(p, s);
        }
        before_link(p);
        link(p);
        let mut ok = 0;
        get(p, 0x8B82, &mut ok);
        (p, ok == 1)
    }
}

static SERIAL: Mutex<()> = Mutex::new(());

/// The current context of one test. Tests of a binary take turns (they share the device and
/// the validation-error count); when the test ends without a panic, the validation layer (on
/// under `ARENAGL_VALIDATION=1`, as in CI) must have reported nothing.
pub struct Current(#[allow(dead_code)] MutexGuard<'static, ()>);

impl Drop for Current {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            assert_eq!(validation_errors(), 0, "validation errors (see stderr)");
        }
    }
}

/// A current 3.3 context (compatibility profile when `compat`) on a fresh 32×32 pbuffer, for
/// the test's duration.
pub fn context_profile(compat: bool) -> Current {
    let guard = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
    make_current_pbuffer_profile(compat);
    Current(guard)
}

/// A current context made as [`make_current_pbuffer_with`] makes it, for the test's duration.
pub fn context_with(api: u32, renderable: i32, ctx_attribs: &[i32]) -> Current {
    let guard = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
    make_current_pbuffer_with(api, renderable, ctx_attribs);
    Current(guard)
}

/// A current 3.3 core context on a fresh 32×32 pbuffer, for the test's duration.
pub fn context() -> Current {
    context_profile(false)
}

/// The GL error flag is `code`, and reading it cleared it.
#[track_caller]
pub fn expect(code: u32) {
    assert_eq!(error(), code, "expected GL error 0x{code:04X}");
    assert_eq!(error(), 0, "glGetError resets the flag");
}

/// `got` is `want` within one step per channel: GL lets a conversion to an 8-bit normalized
/// value land on either side of a half (0.5 × 255 reads 127 on NVIDIA, 128 on llvmpipe).
#[track_caller]
pub fn assert_rgba8_near(got: [u8; 4], want: [u8; 4], what: &str) {
    let close = got.iter().zip(want).all(|(&g, w)| g.abs_diff(w) <= 1);
    assert!(close, "{what}: got {got:?}, want {want:?} (±1)");
}

/// A new buffer holding `bytes` (`GL_STATIC_DRAW`), left bound to `target`.
pub fn buffer_with(target: u32, bytes: &[u8]) -> u32 {
    let gen_buffers = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind_buffer = gl!(c"glBindBuffer": fn(u32, u32));
    let buffer_data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    // SAFETY: the data pointer holds `bytes.len()` bytes; the out-pointer is a local.
    unsafe {
        let mut b = 0;
        gen_buffers(1, &mut b);
        bind_buffer(target, b);
        buffer_data(target, bytes.len() as isize, bytes.as_ptr().cast(), 0x88E4);
        b
    }
}

/// A new texture name, bound to `target`.
pub fn new_texture(target: u32) -> u32 {
    let gen = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let mut t = 0;
    // SAFETY: out-pointer to a local.
    unsafe {
        gen(1, &mut t);
        bind(target, t);
    }
    t
}

/// `glReadPixels` of the `w`×`h` rectangle at (`x`, `y`) as RGBA bytes, row 0 at the bottom.
pub fn read_rgba(x: i32, y: i32, w: i32, h: i32) -> Vec<u8> {
    const GL_RGBA: u32 = 0x1908;
    const GL_UNSIGNED_BYTE: u32 = 0x1401;
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let mut px = vec![0u8; w as usize * h as usize * 4];
    // SAFETY: `px` holds `w`×`h` RGBA bytes (pack alignment 4, tight rows).
    unsafe {
        read(
            x,
            y,
            w,
            h,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        )
    };
    px
}

/// `glGetTexImage` of level `level` of the texture bound to `target`, as `len` RGBA bytes (`len`
/// at least the level's size).
pub fn tex_image_rgba(target: u32, level: i32, len: usize) -> Vec<u8> {
    const GL_RGBA: u32 = 0x1908;
    const GL_UNSIGNED_BYTE: u32 = 0x1401;
    let get = gl!(c"glGetTexImage": fn(u32, i32, u32, u32, *mut c_void));
    let mut out = vec![0u8; len];
    // SAFETY: room for `len` bytes, at least the level.
    unsafe {
        get(
            target,
            level,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            out.as_mut_ptr().cast(),
        )
    };
    out
}
