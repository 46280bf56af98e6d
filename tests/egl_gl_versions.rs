//! eglCreateContext and the desktop GL version: every version up to the one the device's
//! context reports is created (core and compatibility, forward-compatible and debug flags), and
//! reports that version or higher; the next one is EGL_BAD_MATCH. The claim is read from a
//! context first, so this holds on any device.

use std::ffi::{c_char, CStr};
use std::ptr::{null, null_mut};

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{f, P};

const EGL_NONE: i32 = 0x3038;
const EGL_SUCCESS: i32 = 0x3000;
const EGL_BAD_MATCH: i32 = 0x3009;
const EGL_OPENGL_API: u32 = 0x30A2;
const EGL_CONTEXT_MAJOR_VERSION: i32 = 0x3098;
const EGL_CONTEXT_MINOR_VERSION: i32 = 0x30FB;
const EGL_CONTEXT_OPENGL_PROFILE_MASK: i32 = 0x30FD;
const EGL_CONTEXT_FLAGS_KHR: i32 = 0x30FC;
const CORE: i32 = 1;
const COMPATIBILITY: i32 = 2;
/// EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR | EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR.
const DEBUG_AND_FORWARD: i32 = 3;
const GL_MAJOR_VERSION: u32 = 0x821B;
const GL_MINOR_VERSION: u32 = 0x821C;
const GL_VERSION: u32 = 0x1F02;

/// The surfaceless display, initialized, and a pbuffer-capable desktop GL config.
fn display_and_config() -> (P, P) {
    let get_display = gl!(c"eglGetPlatformDisplayEXT": fn(u32, P, *const i32) -> P);
    let initialize = gl!(c"eglInitialize": fn(P, *mut i32, *mut i32) -> u32);
    let choose = gl!(c"eglChooseConfig": fn(P, *const i32, *mut P, i32, *mut i32) -> u32);
    let bind_api = gl!(c"eglBindAPI": fn(u32) -> u32);
    // SAFETY: EGL_NONE-terminated lists; out-pointers to locals.
    unsafe {
        let dpy = get_display(0x31DD, null_mut(), null());
        assert_eq!(initialize(dpy, null_mut(), null_mut()), 1);
        let attribs = [0x3033, 0x0001, 0x3040, 0x0008, EGL_NONE];
        let (mut cfg, mut n) = (null_mut(), 0);
        assert_eq!(choose(dpy, attribs.as_ptr(), &mut cfg, 1, &mut n), 1);
        assert_eq!(bind_api(EGL_OPENGL_API), 1);
        (dpy, cfg)
    }
}

/// `eglCreateContext` for GL `major.minor` with `profile` and `flags`: the context (null on
/// failure) and `eglGetError`.
fn create(dpy: P, cfg: P, (major, minor): (i32, i32), profile: i32, flags: i32) -> (P, i32) {
    let create_context = gl!(c"eglCreateContext": fn(P, P, P, *const i32) -> P);
    let get_error = gl!(c"eglGetError": fn() -> i32);
    let list = [
        EGL_CONTEXT_MAJOR_VERSION,
        major,
        EGL_CONTEXT_MINOR_VERSION,
        minor,
        EGL_CONTEXT_OPENGL_PROFILE_MASK,
        profile,
        EGL_CONTEXT_FLAGS_KHR,
        flags,
        EGL_NONE,
    ];
    // SAFETY: live display and config; an EGL_NONE-terminated list.
    unsafe {
        let ctx = create_context(dpy, cfg, null_mut(), list.as_ptr());
        (ctx, get_error())
    }
}

/// Makes `ctx` current on a pbuffer: its `GL_MAJOR_VERSION`/`GL_MINOR_VERSION`, checked against
/// `GL_VERSION`'s leading number.
fn version_of(dpy: P, cfg: P, ctx: P) -> (i32, i32) {
    let create_pbuffer = gl!(c"eglCreatePbufferSurface": fn(P, P, *const i32) -> P);
    let make_current = gl!(c"eglMakeCurrent": fn(P, P, P, P) -> u32);
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let get_string = gl!(c"glGetString": fn(u32) -> *const c_char);
    // SAFETY: live handles; out-pointers to locals; GL_VERSION is a NUL-terminated string.
    unsafe {
        let pb = [0x3057, 8, 0x3056, 8, EGL_NONE];
        let surface = create_pbuffer(dpy, cfg, pb.as_ptr());
        assert_eq!(make_current(dpy, surface, surface, ctx), 1);
        let (mut major, mut minor) = (-1, -1);
        get(GL_MAJOR_VERSION, &mut major);
        get(GL_MINOR_VERSION, &mut minor);
        let text = CStr::from_ptr(get_string(GL_VERSION)).to_string_lossy();
        assert!(text.starts_with(&format!("{major}.{minor} ")), "{text}");
        (major, minor)
    }
}

#[test]
fn every_version_up_to_the_claim_is_created_and_the_next_is_a_bad_match() {
    let (dpy, cfg) = display_and_config();
    let (probe, error) = create(dpy, cfg, (3, 3), CORE, 0);
    assert_eq!(error, EGL_SUCCESS);
    let claimed = version_of(dpy, cfg, probe);
    assert!(claimed >= (3, 3), "{claimed:?}");
    let versions = [
        (3, 3),
        (4, 0),
        (4, 1),
        (4, 2),
        (4, 3),
        (4, 4),
        (4, 5),
        (4, 6),
    ];
    for &v in versions.iter().filter(|&&v| v <= claimed) {
        for (profile, flags) in [(CORE, 0), (CORE, DEBUG_AND_FORWARD), (COMPATIBILITY, 0)] {
            let (ctx, error) = create(dpy, cfg, v, profile, flags);
            assert_eq!(error, EGL_SUCCESS, "{v:?} profile {profile} flags {flags}");
            assert!(!ctx.is_null());
            assert_eq!(version_of(dpy, cfg, ctx), claimed, "{v:?}");
        }
    }
    if let Some(&above) = versions.iter().find(|&&v| v > claimed) {
        for profile in [CORE, COMPATIBILITY] {
            let (ctx, error) = create(dpy, cfg, above, profile, 0);
            assert!(ctx.is_null(), "{above:?}");
            assert_eq!(error, EGL_BAD_MATCH, "{above:?}");
        }
    }
    // A version that does not exist stays a bad match.
    assert_eq!(create(dpy, cfg, (4, 7), CORE, 0).1, EGL_BAD_MATCH);
}
