//! OpenGL ES 3.1 and 3.2 contexts: EGL makes one only when the ES version rule
//! (`translate/src/gl/context/es_version.rs`) claims that version on this device, and refuses
//! the request with `EGL_BAD_MATCH` otherwise; an ES 3.0 request gets the highest ES 3.x
//! offered, and its GLSL ES versions follow it.

use std::ffi::c_void;
use std::ptr::{null, null_mut};

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;
#[path = "common/es.rs"]
mod es_harness;

use es_harness::{
    compile, es_context, integer, string, EGL_CONTEXT_MAJOR_VERSION, EGL_CONTEXT_MINOR_VERSION,
    EGL_NONE, EGL_OPENGL_API, EGL_OPENGL_ES3_BIT, EGL_OPENGL_ES_API,
};
use gl_harness::f;

type P = *mut c_void;

const EGL_BAD_MATCH: i32 = 0x3009;
const GL_VERSION: u32 = 0x1F02;
const GL_SHADING_LANGUAGE_VERSION: u32 = 0x8B8C;
const GL_MINOR_VERSION: u32 = 0x821C;
const GL_VERTEX_SHADER: u32 = 0x8B31;
const GL_COMPUTE_SHADER: u32 = 0x91B9;

/// `eglCreateContext` for OpenGL ES 3.`minor` on an ES 3 pbuffer config: `Ok` when a context
/// was made (it is destroyed at once), else `eglGetError`'s code. EGL's API is left desktop GL.
fn try_es3(minor: i32) -> Result<(), i32> {
    let get_display = gl!(c"eglGetPlatformDisplayEXT": fn(u32, P, *const i32) -> P);
    let initialize = gl!(c"eglInitialize": fn(P, *mut i32, *mut i32) -> u32);
    let choose = gl!(c"eglChooseConfig": fn(P, *const i32, *mut P, i32, *mut i32) -> u32);
    let bind_api = gl!(c"eglBindAPI": fn(u32) -> u32);
    let create = gl!(c"eglCreateContext": fn(P, P, P, *const i32) -> P);
    let destroy = gl!(c"eglDestroyContext": fn(P, P) -> u32);
    let get_error = gl!(c"eglGetError": fn() -> i32);
    let attribs = [
        EGL_CONTEXT_MAJOR_VERSION,
        3,
        EGL_CONTEXT_MINOR_VERSION,
        minor,
        EGL_NONE,
    ];
    // SAFETY: EGL_NONE-terminated lists, out-pointers to locals, live handles.
    unsafe {
        let dpy = get_display(0x31DD, null_mut(), null()); // EGL_PLATFORM_SURFACELESS_MESA
        assert_eq!(initialize(dpy, null_mut(), null_mut()), 1);
        let wanted = [0x3033, 0x0001, 0x3040, EGL_OPENGL_ES3_BIT, EGL_NONE];
        let (mut cfg, mut n) = (null_mut(), 0);
        assert_eq!(choose(dpy, wanted.as_ptr(), &mut cfg, 1, &mut n), 1);
        assert_eq!(bind_api(EGL_OPENGL_ES_API), 1);
        let ctx = create(dpy, cfg, null_mut(), attribs.as_ptr());
        let code = get_error();
        bind_api(EGL_OPENGL_API);
        if ctx.is_null() {
            return Err(code);
        }
        assert_eq!(destroy(dpy, ctx), 1);
        Ok(())
    }
}

const CS_310: &str = "#version 310 es\nlayout(local_size_x = 1) in;\n\
                      layout(std430, binding = 0) buffer Out { uint v[]; };\n\
                      void main() { v[gl_GlobalInvocationID.x] = 7u; }\n";

#[test]
fn es_3_x_requests_get_the_version_the_device_offers() {
    let offered = {
        let _c = es_context(3, 0);
        let minor = integer(GL_MINOR_VERSION);
        assert!((0..=2).contains(&minor), "{minor}");
        assert_eq!(
            string(GL_VERSION),
            format!("OpenGL ES 3.{minor} ArenaGL 0.1")
        );
        assert_eq!(
            string(GL_SHADING_LANGUAGE_VERSION),
            format!("OpenGL ES GLSL ES 3.{minor}0")
        );
        // GLSL ES 3.10 compiles exactly when the context is ES 3.1 or later.
        let (_, ok, log) = compile(GL_COMPUTE_SHADER, CS_310);
        if minor >= 1 {
            assert!(ok, "{log}");
        } else {
            assert!(
                !ok && log.contains("it needs an OpenGL ES 3.1 context"),
                "{log}"
            );
        }
        minor
    };
    let _serial = es_context(3, 0); // holds the tests' context lock while EGL is asked directly
    for minor in 1..=2 {
        let made = try_es3(minor);
        if minor <= offered {
            assert_eq!(made, Ok(()), "ES 3.{minor} is offered");
        } else {
            assert_eq!(made, Err(EGL_BAD_MATCH), "ES 3.{minor} is not offered");
        }
    }
    assert_eq!(try_es3(3), Err(EGL_BAD_MATCH), "ES 3.3 does not exist");
}

#[test]
fn an_es_3_1_context_when_offered_reports_3_1_and_compiles_glsl_es_3_10() {
    {
        let _serial = es_context(3, 0);
        if try_es3(1).is_err() {
            // Not offered on this device (the ES version rule lacks a feature): the other
            // test checks the refusal.
            return;
        }
    }
    let _c = es_context(3, 1);
    assert!(integer(GL_MINOR_VERSION) >= 1);
    let (_, ok, log) = compile(GL_COMPUTE_SHADER, CS_310);
    assert!(ok, "{log}");
    let (_, ok, log) = compile(GL_VERTEX_SHADER, "#version 330\nvoid main() {}\n");
    assert!(!ok && log.contains("desktop GLSL"), "{log}");
}
