//! Garbage attribute lists never panic: every entry point that parses one answers success or
//! the EGL error the spec names for bad attributes.

use arenagl_present::egl::*;
use arenagl_present::{Egl, EglError};
use proptest::prelude::*;

/// Keys every parser knows, so that generated lists get past the unknown-key check and reach the
/// value checks and the matching logic.
fn known_keys() -> Vec<EGLint> {
    let mut keys: Vec<EGLint> = (EGL_BUFFER_SIZE..=EGL_CONFORMANT).collect();
    keys.extend([
        EGL_WIDTH,
        EGL_HEIGHT,
        EGL_LARGEST_PBUFFER,
        EGL_TEXTURE_FORMAT,
        EGL_TEXTURE_TARGET,
        EGL_MIPMAP_TEXTURE,
        EGL_RENDER_BUFFER,
        EGL_GL_COLORSPACE,
        EGL_VG_COLORSPACE,
        EGL_VG_ALPHA_FORMAT,
        EGL_CONTEXT_MAJOR_VERSION,
        EGL_CONTEXT_MINOR_VERSION,
        EGL_CONTEXT_FLAGS_KHR,
        EGL_CONTEXT_OPENGL_PROFILE_MASK,
        EGL_CONTEXT_OPENGL_DEBUG,
        EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE,
        EGL_CONTEXT_OPENGL_ROBUST_ACCESS,
        EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY,
    ]);
    keys
}

fn key() -> impl Strategy<Value = EGLint> {
    prop_oneof![6 => prop::sample::select(known_keys()), 1 => any::<i32>(), 1 => Just(EGL_NONE)]
}

/// Values: small numbers and enumerant-range numbers are what the checks distinguish.
fn value() -> impl Strategy<Value = EGLint> {
    prop_oneof![
        4 => -2..40i32,
        2 => 0x3020..0x3100i32,
        1 => 0x31B0..0x31C0i32,
        1 => any::<i32>(),
    ]
}

/// Pairs, optionally terminated, sometimes with a dangling key.
fn list() -> impl Strategy<Value = Vec<EGLint>> {
    (
        prop::collection::vec((key(), value()), 0..8),
        any::<bool>(),
        prop::option::of(key()),
    )
        .prop_map(|(pairs, terminate, dangling)| {
            let mut words: Vec<EGLint> = pairs.into_iter().flat_map(|(k, v)| [k, v]).collect();
            words.extend(dangling);
            if terminate {
                words.push(EGL_NONE);
            }
            words
        })
}

fn allowed(result: Result<impl Sized, EglError>, also: &[EglError]) -> bool {
    match result {
        Ok(_) => true,
        Err(e) => e == EglError::BAD_ATTRIBUTE || also.contains(&e),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn choose_config_never_panics(list in list()) {
        let egl = Egl::new();
        let dpy = egl.get_display(EGL_DEFAULT_DISPLAY).unwrap();
        egl.initialize(dpy).unwrap();
        // BAD_NATIVE_PIXMAP: EGL_MATCH_NATIVE_PIXMAP with a non-NONE value (there are no pixmaps).
        prop_assert!(allowed(egl.choose_config(dpy, &list), &[EglError::BAD_NATIVE_PIXMAP]));
    }

    #[test]
    fn context_and_surface_creation_never_panic(list in list(), gl in any::<bool>()) {
        let egl = Egl::new();
        let dpy = egl.get_display(EGL_DEFAULT_DISPLAY).unwrap();
        egl.initialize(dpy).unwrap();
        egl.bind_api(if gl { EGL_OPENGL_API } else { EGL_OPENGL_ES_API }).unwrap();
        let config = egl.get_configs(dpy).unwrap()[0];
        // Valid attributes with unsupported combinations are EGL_BAD_MATCH by the spec.
        prop_assert!(allowed(egl.create_context(dpy, Some(config), None, &list), &[EglError::BAD_MATCH]));
        prop_assert!(allowed(
            egl.create_pbuffer_surface(dpy, config, &list),
            &[EglError::BAD_MATCH, EglError::BAD_PARAMETER, EglError::BAD_ALLOC]
        ));
        let window = std::num::NonZeroU64::new(1).map(arenagl_present::NativeWindow);
        prop_assert!(allowed(egl.create_window_surface(dpy, config, window, &list), &[]));
    }
}
