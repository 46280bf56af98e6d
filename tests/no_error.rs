//! GL_KHR_no_error through the C ABI: EGL_KHR_create_context_no_error's attribute and its
//! `EGL_BAD_MATCH`es (with a debug or robust-access context, against a share context of the
//! other setting), and what a no-error context does with bad input: `glGetError` answers
//! `GL_NO_ERROR`, `GL_CONTEXT_FLAGS` has `GL_CONTEXT_FLAG_NO_ERROR_BIT_KHR`, and a refused
//! command still has no effect (buffer contents and query outputs read back unchanged).

use std::ffi::{c_char, c_void, CStr};
use std::ptr::{null, null_mut};

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context_with, error, f, read_rgba, Current};

type P = *mut c_void;

const EGL_NONE: i32 = 0x3038;
const EGL_SUCCESS: i32 = 0x3000;
const EGL_BAD_MATCH: i32 = 0x3009;
const EGL_BAD_ATTRIBUTE: i32 = 0x3004;
const EGL_EXTENSIONS: i32 = 0x3055;
const EGL_OPENGL_API: u32 = 0x30A2;
const EGL_OPENGL_ES_API: u32 = 0x30A0;
const EGL_OPENGL_BIT: i32 = 0x0008;
const EGL_OPENGL_ES3_BIT: i32 = 0x0040;
const EGL_CONTEXT_MAJOR_VERSION: i32 = 0x3098;
const EGL_CONTEXT_MINOR_VERSION: i32 = 0x30FB;
const EGL_CONTEXT_FLAGS_KHR: i32 = 0x30FC;
const EGL_CONTEXT_OPENGL_PROFILE_MASK: i32 = 0x30FD;
const EGL_CONTEXT_OPENGL_DEBUG: i32 = 0x31B0;
const EGL_CONTEXT_OPENGL_ROBUST_ACCESS: i32 = 0x31B2;
const EGL_CONTEXT_OPENGL_NO_ERROR_KHR: i32 = 0x31B3;
const EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR: i32 = 0x1;

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_EXTENSIONS: u32 = 0x1F03;
const GL_NUM_EXTENSIONS: u32 = 0x821D;
const GL_CONTEXT_FLAGS: u32 = 0x821E;
const GL_CONTEXT_FLAG_NO_ERROR_BIT_KHR: i32 = 0x8;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_STATIC_DRAW: u32 = 0x88E4;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;

/// A desktop 4.3 core context's attributes, then `extra`, `EGL_NONE`-terminated.
fn gl_attribs(extra: &[i32]) -> Vec<i32> {
    let mut list = vec![
        EGL_CONTEXT_MAJOR_VERSION,
        4,
        EGL_CONTEXT_MINOR_VERSION,
        3,
        EGL_CONTEXT_OPENGL_PROFILE_MASK,
        1,
    ];
    list.extend_from_slice(extra);
    list.push(EGL_NONE);
    list
}

/// The surfaceless display (initialized) and its first config of `renderable` type.
fn display_and_config(renderable: i32) -> (P, P) {
    let get_display = gl!(c"eglGetPlatformDisplayEXT": fn(u32, P, *const i32) -> P);
    let initialize = gl!(c"eglInitialize": fn(P, *mut i32, *mut i32) -> u32);
    let choose = gl!(c"eglChooseConfig": fn(P, *const i32, *mut P, i32, *mut i32) -> u32);
    // SAFETY: EGL_NONE-terminated lists, out-pointers to locals.
    unsafe {
        let dpy = get_display(0x31DD, null_mut(), null()); // EGL_PLATFORM_SURFACELESS_MESA
        assert_eq!(initialize(dpy, null_mut(), null_mut()), 1);
        let wanted = [0x3033, 0x0001, 0x3040, renderable, EGL_NONE]; // PBUFFER_BIT
        let (mut cfg, mut n) = (null_mut(), 0);
        assert_eq!(choose(dpy, wanted.as_ptr(), &mut cfg, 1, &mut n), 1);
        assert_eq!(n, 1);
        (dpy, cfg)
    }
}

/// `eglCreateContext` for `api` sharing with `share`: the context (destroyed by the caller) or
/// `eglGetError`'s code. EGL's API is left desktop GL.
fn try_create(api: u32, share: P, attribs: &[i32]) -> Result<P, i32> {
    let bind_api = gl!(c"eglBindAPI": fn(u32) -> u32);
    let create = gl!(c"eglCreateContext": fn(P, P, P, *const i32) -> P);
    let get_error = gl!(c"eglGetError": fn() -> i32);
    let renderable = if api == EGL_OPENGL_API {
        EGL_OPENGL_BIT
    } else {
        EGL_OPENGL_ES3_BIT
    };
    let (dpy, cfg) = display_and_config(renderable);
    assert_eq!(attribs.last(), Some(&EGL_NONE));
    // SAFETY: an EGL_NONE-terminated list; live handles.
    unsafe {
        assert_eq!(bind_api(api), 1);
        let ctx = create(dpy, cfg, share, attribs.as_ptr());
        let code = get_error();
        bind_api(EGL_OPENGL_API);
        if ctx.is_null() {
            Err(code)
        } else {
            assert_eq!(code, EGL_SUCCESS);
            Ok(ctx)
        }
    }
}

fn destroy(ctx: P) {
    let destroy = gl!(c"eglDestroyContext": fn(P, P) -> u32);
    let (dpy, _) = display_and_config(EGL_OPENGL_BIT);
    // SAFETY: a live context of this display.
    assert_eq!(unsafe { destroy(dpy, ctx) }, 1);
}

fn integer(pname: u32) -> i32 {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = -1;
    // SAFETY: one integer out.
    unsafe { get(pname, &mut v) };
    v
}

fn gl_extensions() -> Vec<String> {
    let get = gl!(c"glGetStringi": fn(u32, u32) -> *const c_char);
    (0..integer(GL_NUM_EXTENSIONS) as u32)
        // SAFETY: `i` is below the count; the string lives with the context.
        .map(|i| unsafe { CStr::from_ptr(get(GL_EXTENSIONS, i)) })
        .map(|s| s.to_string_lossy().into_owned())
        .collect()
}

#[test]
fn egl_refuses_no_error_with_debug_robustness_or_a_share_context_of_the_other_kind() {
    let _guard = context_with(EGL_OPENGL_API, EGL_OPENGL_BIT, &gl_attribs(&[]));
    let query = gl!(c"eglQueryString": fn(P, i32) -> *const c_char);
    let (dpy, _) = display_and_config(EGL_OPENGL_BIT);
    // SAFETY: an initialized display; the string is NUL-terminated and static.
    let extensions = unsafe { CStr::from_ptr(query(dpy, EGL_EXTENSIONS)) };
    let extensions = extensions.to_string_lossy();
    assert!(
        extensions.contains("EGL_KHR_create_context_no_error"),
        "{extensions}"
    );
    let no_error = [EGL_CONTEXT_OPENGL_NO_ERROR_KHR, 1];
    let with = |extra: &[i32]| [&no_error[..], extra].concat();
    for extra in [
        vec![EGL_CONTEXT_OPENGL_DEBUG, 1],
        vec![EGL_CONTEXT_FLAGS_KHR, EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR],
        vec![EGL_CONTEXT_OPENGL_ROBUST_ACCESS, 1],
    ] {
        let attribs = gl_attribs(&with(&extra));
        assert_eq!(
            try_create(EGL_OPENGL_API, null_mut(), &attribs).err(),
            Some(EGL_BAD_MATCH),
            "{extra:x?}"
        );
    }
    assert_eq!(
        try_create(EGL_OPENGL_API, null_mut(), &gl_attribs(&[0x31B3, 2])).err(),
        Some(EGL_BAD_ATTRIBUTE),
        "a value that is not a boolean"
    );
    let plain = try_create(EGL_OPENGL_API, null_mut(), &gl_attribs(&[])).expect("plain");
    let quiet = try_create(EGL_OPENGL_API, null_mut(), &gl_attribs(&no_error)).expect("no-error");
    assert_eq!(
        try_create(EGL_OPENGL_API, plain, &gl_attribs(&no_error)).err(),
        Some(EGL_BAD_MATCH),
        "no-error sharing with a context that reports errors"
    );
    assert_eq!(
        try_create(EGL_OPENGL_API, quiet, &gl_attribs(&[])).err(),
        Some(EGL_BAD_MATCH),
        "a context that reports errors sharing with a no-error one"
    );
    let shared = try_create(EGL_OPENGL_API, quiet, &gl_attribs(&no_error)).expect("same kind");
    for ctx in [plain, quiet, shared] {
        destroy(ctx);
    }
}

/// A current no-error 4.3 core context on a 32×32 pbuffer.
fn no_error_context() -> Current {
    context_with(
        EGL_OPENGL_API,
        EGL_OPENGL_BIT,
        &gl_attribs(&[EGL_CONTEXT_OPENGL_NO_ERROR_KHR, 1]),
    )
}

#[test]
fn a_no_error_context_reports_nothing_and_refused_commands_change_nothing() {
    let _c = no_error_context();
    assert!(gl_extensions().iter().any(|e| e == "GL_KHR_no_error"));
    assert_eq!(
        integer(GL_CONTEXT_FLAGS) & GL_CONTEXT_FLAG_NO_ERROR_BIT_KHR,
        GL_CONTEXT_FLAG_NO_ERROR_BIT_KHR
    );
    let enable = gl!(c"glEnable": fn(u32));
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let gen = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let sub = gl!(c"glBufferSubData": fn(u32, isize, isize, *const c_void));
    let get_sub = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut c_void));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    // SAFETY: every pointer covers what the call reads or writes; a refused call touches none.
    unsafe {
        enable(0xFFFF); // GL_INVALID_ENUM elsewhere
        assert_eq!(error(), GL_NO_ERROR);
        let mut untouched = 1234;
        get(0xFFFF, &mut untouched);
        assert_eq!(error(), GL_NO_ERROR);
        assert_eq!(untouched, 1234, "a refused query writes nothing");
        let mut b = 0;
        gen(1, &mut b);
        bind(GL_ARRAY_BUFFER, b);
        let bytes = [7u8; 16];
        data(GL_ARRAY_BUFFER, 16, bytes.as_ptr().cast(), GL_STATIC_DRAW);
        // Past the end (GL_INVALID_VALUE elsewhere): refused, the buffer and memory kept.
        let big = [9u8; 64];
        sub(GL_ARRAY_BUFFER, 8, 64, big.as_ptr().cast());
        sub(GL_ARRAY_BUFFER, -4, 4, big.as_ptr().cast());
        assert_eq!(error(), GL_NO_ERROR);
        let mut back = [0u8; 16];
        get_sub(GL_ARRAY_BUFFER, 0, 16, back.as_mut_ptr().cast());
        assert_eq!(back, bytes);
        // The context still renders.
        clear_color(0.0, 1.0, 0.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
        assert_eq!(read_rgba(4, 4, 1, 1), [0, 255, 0, 255]);
        assert_eq!(error(), GL_NO_ERROR);
    }
}

#[test]
fn a_context_made_without_the_attribute_still_reports_errors() {
    let _c = context_with(EGL_OPENGL_API, EGL_OPENGL_BIT, &gl_attribs(&[]));
    assert_eq!(
        integer(GL_CONTEXT_FLAGS) & GL_CONTEXT_FLAG_NO_ERROR_BIT_KHR,
        0
    );
    let enable = gl!(c"glEnable": fn(u32));
    let line_width = gl!(c"glLineWidth": fn(f32));
    // SAFETY: plain calls on the current context.
    unsafe {
        enable(0xFFFF);
        assert_eq!(error(), GL_INVALID_ENUM);
        line_width(-1.0);
        assert_eq!(error(), GL_INVALID_VALUE);
    }
}

#[test]
fn an_es_3_2_no_error_context_has_the_flag() {
    let attribs = [
        EGL_CONTEXT_MAJOR_VERSION,
        3,
        EGL_CONTEXT_MINOR_VERSION,
        2,
        EGL_CONTEXT_OPENGL_NO_ERROR_KHR,
        1,
        EGL_NONE,
    ];
    if try_create(EGL_OPENGL_ES_API, null_mut(), &attribs)
        .map(destroy)
        .is_err()
    {
        eprintln!("no OpenGL ES 3.2 on this device: skipped");
        return;
    }
    let _c = context_with(EGL_OPENGL_ES_API, EGL_OPENGL_ES3_BIT, &attribs);
    let get_string = gl!(c"glGetString": fn(u32) -> *const c_char);
    // SAFETY: the string is NUL-terminated and lives with the context.
    let all = unsafe { CStr::from_ptr(get_string(GL_EXTENSIONS)) }.to_string_lossy();
    assert!(all.split(' ').any(|e| e == "GL_KHR_no_error"));
    assert_eq!(
        integer(GL_CONTEXT_FLAGS) & GL_CONTEXT_FLAG_NO_ERROR_BIT_KHR,
        GL_CONTEXT_FLAG_NO_ERROR_BIT_KHR
    );
    let enable = gl!(c"glEnable": fn(u32));
    // SAFETY: a plain call on the current context.
    unsafe { enable(0xFFFF) };
    assert_eq!(error(), GL_NO_ERROR);
}
