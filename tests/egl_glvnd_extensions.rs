//! The EGL extension functions through the *system* glvnd `libEGL.so.1` with ArenaGL as its
//! vendor: glvnd 1.6 dispatches the EGL 1.5 core sync functions itself, but not the KHR sync
//! functions nor swap-with-damage, which reach ArenaGL only through its dispatch stubs
//! (`src/abi/glvnd.rs`). Every function is found with glvnd's `eglGetProcAddress`, as a program
//! finds it. One test (glvnd reads its vendor list once per process); it skips, saying why, only
//! when the machine has no system libEGL.so.1.

use std::ffi::{c_char, c_void, CStr};
use std::ptr::{null, null_mut};

use arenagl_present::egl::*;

type P = *mut c_void;

#[path = "common/glvnd.rs"]
mod glvnd;
#[path = "common/library.rs"]
mod library;

use glvnd::{system_libegl, SYSTEM_LIBEGL};
use library::library_path;

/// glvnd's `eglGetProcAddress`, as the function type `F`.
///
/// # Safety
/// `get` is glvnd's `eglGetProcAddress`; `F` is the C signature of `name`.
unsafe fn proc<F: Copy>(get: unsafe extern "C" fn(*const c_char) -> P, name: &CStr) -> F {
    // SAFETY: NUL-terminated.
    let p = unsafe { get(name.as_ptr()) };
    assert!(!p.is_null(), "glvnd's eglGetProcAddress({name:?}) is NULL");
    assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<P>());
    // SAFETY: same size; the caller vouches for the signature.
    unsafe { std::mem::transmute_copy(&p) }
}

/// `EGL_KHR_image_base`'s functions through glvnd's stubs: an image of a 2D texture of the
/// current context `ctx`, destroyed once (the second time is `EGL_BAD_PARAMETER`).
///
/// # Safety
/// `get` is glvnd's `eglGetProcAddress`; `dpy` is initialised and `ctx` current on it.
unsafe fn images_reach_arenagl(get: unsafe extern "C" fn(*const c_char) -> P, dpy: P, ctx: P) {
    const EGL_GL_TEXTURE_2D: EGLenum = 0x30B1;
    const GL_TEXTURE_2D: u32 = 0x0DE1;
    type TexImage = unsafe extern "C" fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void);
    // SAFETY: each type is the function's C signature from the EGL and GL headers.
    let (gen, bind, tex_image, create, destroy, get_error) = unsafe {
        (
            proc::<unsafe extern "C" fn(i32, *mut u32)>(get, c"glGenTextures"),
            proc::<unsafe extern "C" fn(u32, u32)>(get, c"glBindTexture"),
            proc::<TexImage>(get, c"glTexImage2D"),
            proc::<unsafe extern "C" fn(P, P, EGLenum, P, *const EGLint) -> P>(
                get,
                c"eglCreateImageKHR",
            ),
            proc::<unsafe extern "C" fn(P, P) -> u32>(get, c"eglDestroyImageKHR"),
            proc::<unsafe extern "C" fn() -> EGLint>(get, c"eglGetError"),
        )
    };
    // SAFETY: GL and EGL calls on the current context with a local out-pointer; the texture
    // has no data pointer (NULL: uninitialised texels).
    unsafe {
        let mut texture = 0;
        gen(1, &mut texture);
        bind(GL_TEXTURE_2D, texture);
        tex_image(GL_TEXTURE_2D, 0, 0x8058, 4, 4, 0, 0x1908, 0x1401, null());
        let buffer = texture as usize as P;
        let image = create(dpy, ctx, EGL_GL_TEXTURE_2D, buffer, null());
        assert!(!image.is_null(), "eglCreateImageKHR: {:#x}", get_error());
        assert_eq!(destroy(dpy, image), 1);
        assert_eq!(destroy(dpy, image), 0);
        assert_eq!(get_error(), EGL_BAD_PARAMETER);
    }
}

#[test]
fn khr_sync_and_damage_functions_reach_arenagl_through_glvnd() {
    let Some(system) = system_libegl() else {
        eprintln!("SKIP: no system libEGL.so.1 (looked in {SYSTEM_LIBEGL:?}); install libegl1");
        return;
    };
    let json = glvnd::vendor_json("egl-glvnd-ext", &library_path());
    // Before glvnd's first call, and the only test in this binary.
    std::env::set_var("__EGL_VENDOR_LIBRARY_FILENAMES", &json);
    std::env::remove_var("__EGL_VENDOR_LIBRARY_DIRS");
    // SAFETY: glvnd's libEGL; its initialisers only set up its dispatch tables.
    let lib = unsafe { libloading::Library::new(system) }.expect("load the system libEGL");
    // SAFETY: the C signature of eglGetProcAddress.
    let get =
        *unsafe { lib.get::<unsafe extern "C" fn(*const c_char) -> P>(b"eglGetProcAddress\0") }
            .expect("eglGetProcAddress");
    type GetDisplay = unsafe extern "C" fn(EGLenum, P, *const EGLAttrib) -> P;
    type ChooseConfig = unsafe extern "C" fn(P, *const EGLint, *mut P, EGLint, *mut EGLint) -> u32;
    // SAFETY: each type is the function's C signature from the EGL headers.
    let (get_display, initialize, choose, bind_api, create_context, create_pbuffer, make_current) = unsafe {
        (
            proc::<GetDisplay>(get, c"eglGetPlatformDisplay"),
            proc::<unsafe extern "C" fn(P, *mut EGLint, *mut EGLint) -> u32>(get, c"eglInitialize"),
            proc::<ChooseConfig>(get, c"eglChooseConfig"),
            proc::<unsafe extern "C" fn(EGLenum) -> u32>(get, c"eglBindAPI"),
            proc::<unsafe extern "C" fn(P, P, P, *const EGLint) -> P>(get, c"eglCreateContext"),
            proc::<unsafe extern "C" fn(P, P, *const EGLint) -> P>(get, c"eglCreatePbufferSurface"),
            proc::<unsafe extern "C" fn(P, P, P, P) -> u32>(get, c"eglMakeCurrent"),
        )
    };
    // SAFETY: as above.
    let (create_sync, client_wait, get_attrib, wait_sync, destroy_sync, damage, get_error) = unsafe {
        (
            proc::<unsafe extern "C" fn(P, EGLenum, *const EGLint) -> P>(get, c"eglCreateSyncKHR"),
            proc::<unsafe extern "C" fn(P, P, EGLint, u64) -> EGLint>(get, c"eglClientWaitSyncKHR"),
            proc::<unsafe extern "C" fn(P, P, EGLint, *mut EGLint) -> u32>(
                get,
                c"eglGetSyncAttribKHR",
            ),
            proc::<unsafe extern "C" fn(P, P, EGLint) -> EGLint>(get, c"eglWaitSyncKHR"),
            proc::<unsafe extern "C" fn(P, P) -> u32>(get, c"eglDestroySyncKHR"),
            proc::<unsafe extern "C" fn(P, P, *const EGLint, EGLint) -> u32>(
                get,
                c"eglSwapBuffersWithDamageKHR",
            ),
            proc::<unsafe extern "C" fn() -> EGLint>(get, c"eglGetError"),
        )
    };
    // SAFETY: EGL calls with live handles, terminated lists and out-pointers to locals; the bad
    // handles at the end are glvnd's and ArenaGL's to reject.
    unsafe {
        let dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, null_mut(), null());
        assert!(!dpy.is_null(), "glvnd did not accept ArenaGL as a vendor");
        assert_eq!(initialize(dpy, null_mut(), null_mut()), 1);
        let attribs = [
            EGL_SURFACE_TYPE,
            EGL_PBUFFER_BIT,
            EGL_RENDERABLE_TYPE,
            EGL_OPENGL_BIT,
            EGL_NONE,
        ];
        let (mut cfg, mut n) = (null_mut(), 0);
        assert_eq!(choose(dpy, attribs.as_ptr(), &mut cfg, 1, &mut n), 1);
        assert_eq!(bind_api(EGL_OPENGL_API), 1);
        let ctx_attribs = [
            EGL_CONTEXT_MAJOR_VERSION,
            3,
            EGL_CONTEXT_MINOR_VERSION,
            3,
            EGL_NONE,
        ];
        let ctx = create_context(dpy, cfg, null_mut(), ctx_attribs.as_ptr());
        assert!(!ctx.is_null());
        let pb = [EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE];
        let surface = create_pbuffer(dpy, cfg, pb.as_ptr());
        assert!(!surface.is_null());
        assert_eq!(make_current(dpy, surface, surface, ctx), 1);

        let sync = create_sync(dpy, EGL_SYNC_FENCE, null());
        assert!(
            !sync.is_null(),
            "eglCreateSyncKHR: error {:#x}",
            get_error()
        );
        let mut v = 0;
        assert_eq!(get_attrib(dpy, sync, EGL_SYNC_TYPE, &mut v), 1);
        assert_eq!(v, EGL_SYNC_FENCE as EGLint);
        assert_eq!(
            client_wait(dpy, sync, EGL_SYNC_FLUSH_COMMANDS_BIT, EGL_FOREVER),
            EGL_CONDITION_SATISFIED
        );
        assert_eq!(wait_sync(dpy, sync, 0), EGL_TRUE);
        assert_eq!(destroy_sync(dpy, sync), 1);
        assert_eq!(destroy_sync(dpy, sync), 0);
        assert_eq!(get_error(), EGL_BAD_PARAMETER);

        let rects = [0, 0, 8, 8];
        assert_eq!(damage(dpy, surface, rects.as_ptr(), 1), 1);
        assert_eq!(damage(dpy, surface, rects.as_ptr(), -1), 0);
        assert_eq!(get_error(), EGL_BAD_PARAMETER);
        images_reach_arenagl(get, dpy, ctx);
        // A display no vendor owns: glvnd's stub answers EGL_BAD_DISPLAY.
        assert!(create_sync(0x1234 as P, EGL_SYNC_FENCE, null()).is_null());
        assert_eq!(get_error(), EGL_BAD_DISPLAY);
        assert_eq!(make_current(dpy, null_mut(), null_mut(), null_mut()), 1);
    }
    let _ = std::fs::remove_dir_all(json.parent().expect("json in its dir"));
}
