//! What the OpenGL ES tests share: an ES context of a requested version, the strings and
//! integers they query, and compiling and linking units with their logs. Included after the GL
//! harness (`#[macro_use] #[path = "common/gl.rs"] mod gl_harness;` then
//! `#[path = "common/es.rs"] mod es_harness;`).
#![allow(dead_code)]

use std::ffi::{c_char, CStr, CString};
use std::ptr::null;

use super::gl_harness::{context_with, f, Current};

pub const EGL_OPENGL_ES_API: u32 = 0x30A0;
pub const EGL_OPENGL_API: u32 = 0x30A2;
pub const EGL_OPENGL_ES2_BIT: i32 = 0x04;
pub const EGL_OPENGL_ES3_BIT: i32 = 0x40;
pub const EGL_CONTEXT_MAJOR_VERSION: i32 = 0x3098;
pub const EGL_CONTEXT_MINOR_VERSION: i32 = 0x30FB;
pub const EGL_NONE: i32 = 0x3038;

const GL_EXTENSIONS: u32 = 0x1F03;
const GL_NUM_EXTENSIONS: u32 = 0x821D;
const GL_COMPILE_STATUS: u32 = 0x8B81;
const GL_LINK_STATUS: u32 = 0x8B82;

/// A current OpenGL ES context for a request of `major`.`minor` (2.0 on an ES 2 config, 3.x
/// on an ES 3 one) on a fresh 32×32 pbuffer, for the test's duration.
pub fn es_context(major: i32, minor: i32) -> Current {
    let bit = if major >= 3 {
        EGL_OPENGL_ES3_BIT
    } else {
        EGL_OPENGL_ES2_BIT
    };
    context_with(
        EGL_OPENGL_ES_API,
        bit,
        &[
            EGL_CONTEXT_MAJOR_VERSION,
            major,
            EGL_CONTEXT_MINOR_VERSION,
            minor,
            EGL_NONE,
        ],
    )
}

/// `glGetString(name)` (asserted non-NULL).
pub fn string(name: u32) -> String {
    let get = gl!(c"glGetString": fn(u32) -> *const c_char);
    // SAFETY: NULL or a NUL-terminated string the context keeps (checked for NULL).
    unsafe {
        let p = get(name);
        assert!(!p.is_null(), "glGetString(0x{name:04X}) is NULL");
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}

/// `glGetIntegerv(pname)`'s first value (-1 when nothing was written).
pub fn integer(pname: u32) -> i32 {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = -1;
    // SAFETY: one integer into a local.
    unsafe { get(pname, &mut v) };
    v
}

/// Every name `glGetStringi(GL_EXTENSIONS, i)` lists (ES 3.x).
pub fn extensions() -> Vec<String> {
    let get = gl!(c"glGetStringi": fn(u32, u32) -> *const c_char);
    (0..integer(GL_NUM_EXTENSIONS) as u32)
        // SAFETY: indices below GL_NUM_EXTENSIONS give NUL-terminated strings.
        .map(|i| unsafe { CStr::from_ptr(get(GL_EXTENSIONS, i)) })
        .map(|s| s.to_string_lossy().into_owned())
        .collect()
}

/// An info log through `get_log` (`glGetShaderInfoLog` or `glGetProgramInfoLog`).
fn info_log(name: u32, get_log: unsafe extern "C" fn(u32, i32, *mut i32, *mut c_char)) -> String {
    let mut buf = vec![0u8; 8192];
    let mut len = 0;
    // SAFETY: `buf` holds 8192 bytes; `len` is a local.
    unsafe { get_log(name, buf.len() as i32, &mut len, buf.as_mut_ptr().cast()) };
    String::from_utf8_lossy(&buf[..len.clamp(0, 8192) as usize]).into_owned()
}

/// Compiles one shader: its name, whether it compiled, and its log.
pub fn compile(ty: u32, src: &str) -> (u32, bool, String) {
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let get = gl!(c"glGetShaderiv": fn(u32, u32, *mut i32));
    let text = CString::new(src).expect("no NUL");
    // SAFETY: one NUL-terminated string; the out-pointer is a local.
    let (shader, ok) = unsafe {
        let s = create(ty);
        let p = text.as_ptr();
        source(s, 1, &p, null());
        compile(s);
        let mut ok = 0;
        get(s, GL_COMPILE_STATUS, &mut ok);
        (s, ok == 1)
    };
    let log = info_log(
        shader,
        gl!(c"glGetShaderInfoLog": fn(u32, i32, *mut i32, *mut c_char)),
    );
    (shader, ok, log)
}

/// Links `units` (`(shader type, source)`, each asserted to compile) into a program: the
/// program, whether it linked, and its log.
pub fn try_link(units: &[(u32, &str)]) -> (u32, bool, String) {
    let create = gl!(c"glCreateProgram": fn() -> u32);
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    let link = gl!(c"glLinkProgram": fn(u32));
    let get = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    // SAFETY: names from earlier calls; the out-pointer is a local.
    let (program, ok) = unsafe {
        let p = create();
        for &(ty, src) in units {
            let (s, ok, log) = compile(ty, src);
            assert!(ok, "{log}");
            attach(p, s);
        }
        link(p);
        let mut ok = 0;
        get(p, GL_LINK_STATUS, &mut ok);
        (p, ok == 1)
    };
    let log = info_log(
        program,
        gl!(c"glGetProgramInfoLog": fn(u32, i32, *mut i32, *mut c_char)),
    );
    (program, ok, log)
}

/// Links `units` like [`try_link`], asserts the link (showing its log) and uses the program.
pub fn use_program(units: &[(u32, &str)]) -> u32 {
    let (p, ok, log) = try_link(units);
    assert!(ok, "link: {log}");
    let use_program = gl!(c"glUseProgram": fn(u32));
    // SAFETY: a linked program.
    unsafe { use_program(p) };
    p
}
