//! The EGL object model through its public API: displays, configs, contexts, surfaces,
//! make-current rules across threads, deferred destruction and every error path.

use arenagl_present::egl::*;
use arenagl_present::{Config, Context, Display, Egl, EglError, NativeWindow, Surface};
use std::num::NonZeroU64;

const GL33_CORE: [EGLint; 5] = [
    EGL_CONTEXT_MAJOR_VERSION,
    3,
    EGL_CONTEXT_MINOR_VERSION,
    3,
    EGL_NONE,
];

fn setup() -> (Egl, Display) {
    let egl = Egl::new();
    let dpy = egl.get_display(EGL_DEFAULT_DISPLAY).unwrap();
    assert_eq!(egl.initialize(dpy), Ok((1, 5)));
    egl.bind_api(EGL_OPENGL_API).unwrap();
    (egl, dpy)
}

fn first_config(egl: &Egl, dpy: Display) -> Config {
    egl.choose_config(dpy, &[EGL_RED_SIZE, 8, EGL_DEPTH_SIZE, 24, EGL_NONE])
        .unwrap()[0]
}

fn pbuffer(egl: &Egl, dpy: Display, config: Config) -> Surface {
    egl.create_pbuffer_surface(dpy, config, &[EGL_WIDTH, 64, EGL_HEIGHT, 32, EGL_NONE])
        .unwrap()
}

fn gl33(egl: &Egl, dpy: Display, config: Option<Config>) -> Context {
    egl.create_context(dpy, config, None, &GL33_CORE).unwrap()
}

fn window(id: u64) -> Option<NativeWindow> {
    NonZeroU64::new(id).map(NativeWindow)
}

#[test]
fn displays_platforms_and_devices() {
    let egl = Egl::new();
    let default = egl.get_display(EGL_DEFAULT_DISPLAY).unwrap();
    assert_eq!(
        egl.get_display(EGL_DEFAULT_DISPLAY),
        Some(default),
        "same native display, same handle"
    );
    // Any other native display is an X11 `Display*`: one EGL display per pointer, which keeps
    // the pointer for the swapchain.
    let x11 = egl.get_display(0x1234).unwrap();
    assert_eq!(egl.get_display(0x1234), Some(x11));
    assert_ne!(x11, default);
    assert_eq!(egl.display_native(x11), Ok(Some(0x1234)));
    assert_eq!(egl.display_native(default), Ok(None));
    assert_eq!(
        egl.get_platform_display(EGL_PLATFORM_X11_KHR, 0x1234, &[EGL_NONE]),
        Ok(x11)
    );
    assert_eq!(
        egl.get_platform_display(
            EGL_PLATFORM_X11_KHR,
            0x1234,
            &[EGL_PLATFORM_X11_SCREEN_KHR, 0, EGL_NONE]
        ),
        Ok(x11)
    );
    assert_eq!(
        egl.get_platform_display(EGL_PLATFORM_X11_KHR, 0x1234, &[EGL_WIDTH, 1, EGL_NONE]),
        Err(EglError::BAD_ATTRIBUTE)
    );
    let none: &[EGLint] = &[EGL_NONE];
    let surfaceless = egl
        .get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, 0, none)
        .unwrap();
    let devices = egl.query_devices(4).unwrap();
    assert_eq!(devices.len(), 1);
    let on_device = egl
        .get_platform_display(EGL_PLATFORM_DEVICE_EXT, devices[0].to_raw(), none)
        .unwrap();
    assert!(default != surfaceless && surfaceless != on_device && default != on_device);
    assert_eq!(
        egl.get_platform_display(EGL_PLATFORM_DEVICE_EXT, 0, none),
        Err(EglError::BAD_PARAMETER)
    );
    assert_eq!(
        egl.get_platform_display(0x9999, 0, none),
        Err(EglError::BAD_PARAMETER)
    );
    assert_eq!(
        egl.get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, 0, &[EGL_WIDTH, 1, EGL_NONE]),
        Err(EglError::BAD_ATTRIBUTE)
    );
    let attrib_none: &[EGLAttrib] = &[EGL_NONE as EGLAttrib];
    assert!(egl
        .get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, 0, attrib_none)
        .is_ok());
    assert_eq!(egl.query_devices(0), Err(EglError::BAD_PARAMETER));
    assert_eq!(
        egl.query_display_device(on_device, EGL_DEVICE_EXT),
        Err(EglError::NOT_INITIALIZED)
    );
    egl.initialize(on_device).unwrap();
    assert_eq!(
        egl.query_display_device(on_device, EGL_DEVICE_EXT),
        Ok(devices[0])
    );
    assert_eq!(
        egl.query_display_device(on_device, EGL_WIDTH),
        Err(EglError::BAD_ATTRIBUTE)
    );
}

#[test]
fn initialize_query_strings_and_bad_displays() {
    let egl = Egl::new();
    let dpy = egl.get_display(EGL_DEFAULT_DISPLAY).unwrap();
    assert_eq!(
        egl.query_string(Some(dpy), EGL_VENDOR),
        Err(EglError::NOT_INITIALIZED)
    );
    assert_eq!(egl.get_configs(dpy), Err(EglError::NOT_INITIALIZED));
    assert_eq!(egl.initialize(dpy), Ok((1, 5)));
    assert_eq!(
        egl.initialize(dpy),
        Ok((1, 5)),
        "initializing twice is allowed"
    );
    assert_eq!(egl.query_string(Some(dpy), EGL_VENDOR), Ok("ArenaGL"));
    assert_eq!(egl.query_string(Some(dpy), EGL_VERSION), Ok("1.5 ArenaGL"));
    assert_eq!(
        egl.query_string(Some(dpy), EGL_CLIENT_APIS),
        Ok("OpenGL OpenGL_ES")
    );
    let ext = egl.query_string(Some(dpy), EGL_EXTENSIONS).unwrap();
    for name in [
        "EGL_KHR_create_context",
        "EGL_KHR_no_config_context",
        "EGL_KHR_surfaceless_context",
    ] {
        assert!(ext.split(' ').any(|e| e == name), "{name}");
    }
    let client = egl.query_string(None, EGL_EXTENSIONS).unwrap();
    for name in [
        "EGL_EXT_platform_base",
        "EGL_EXT_platform_device",
        "EGL_MESA_platform_surfaceless",
        "EGL_EXT_device_query",
        "EGL_EXT_device_enumeration",
    ] {
        assert!(client.split(' ').any(|e| e == name), "{name}");
    }
    assert_eq!(
        egl.query_string(None, EGL_VENDOR),
        Err(EglError::BAD_DISPLAY)
    );
    assert_eq!(
        egl.query_string(Some(dpy), 0x1234),
        Err(EglError::BAD_PARAMETER)
    );
    // A forged display handle: right kind, no such display.
    let forged = Display::from_raw(dpy.to_raw() + 7).unwrap();
    assert_eq!(egl.initialize(forged), Err(EglError::BAD_DISPLAY));
    assert_eq!(egl.terminate(forged), Err(EglError::BAD_DISPLAY));
    assert_eq!(
        egl.make_current(forged, None, None, None),
        Err(EglError::BAD_DISPLAY)
    );
    assert_eq!(egl.terminate(dpy), Ok(()));
    assert_eq!(
        egl.terminate(dpy),
        Ok(()),
        "terminating a terminated display is allowed"
    );
    assert_eq!(
        egl.query_string(Some(dpy), EGL_VENDOR),
        Err(EglError::NOT_INITIALIZED)
    );
}

#[test]
fn get_error_returns_and_resets_per_thread() {
    let (egl, dpy) = setup();
    assert_eq!(egl.get_error(), EGL_SUCCESS);
    assert_eq!(egl.query_string(Some(dpy), 0), Err(EglError::BAD_PARAMETER));
    let other = std::thread::scope(|s| s.spawn(|| egl.get_error()).join().unwrap());
    assert_eq!(other, EGL_SUCCESS, "errors are per thread");
    assert_eq!(egl.get_error(), EGL_BAD_PARAMETER);
    assert_eq!(egl.get_error(), EGL_SUCCESS, "reading resets");
    // A successful call after a failure overwrites the error with EGL_SUCCESS.
    let _ = egl.bind_api(0);
    egl.bind_api(EGL_OPENGL_API).unwrap();
    assert_eq!(egl.get_error(), EGL_SUCCESS);
    // The getters leave the error alone.
    let _ = egl.bind_api(EGL_OPENVG_API);
    let _ = egl.get_current_context();
    let _ = egl.query_api();
    assert_eq!(egl.get_error(), EGL_BAD_PARAMETER);
}

#[test]
fn configs_and_config_attributes() {
    let (egl, dpy) = setup();
    let all = egl.get_configs(dpy).unwrap();
    assert_eq!(all.len(), 12);
    for &c in &all {
        let surface = egl.get_config_attrib(dpy, c, EGL_SURFACE_TYPE).unwrap();
        assert_eq!(surface, EGL_PBUFFER_BIT | EGL_WINDOW_BIT);
        let renderable = egl.get_config_attrib(dpy, c, EGL_RENDERABLE_TYPE).unwrap();
        assert_eq!(
            renderable,
            EGL_OPENGL_BIT | EGL_OPENGL_ES2_BIT | EGL_OPENGL_ES3_BIT
        );
    }
    let best = egl
        .choose_config(
            dpy,
            &[
                EGL_RED_SIZE,
                8,
                EGL_ALPHA_SIZE,
                8,
                EGL_DEPTH_SIZE,
                24,
                EGL_STENCIL_SIZE,
                8,
                EGL_NONE,
            ],
        )
        .unwrap();
    let attr = |c, a| egl.get_config_attrib(dpy, c, a).unwrap();
    assert_eq!(
        (attr(best[0], EGL_BUFFER_SIZE), attr(best[0], EGL_SAMPLES)),
        (32, 0)
    );
    assert_eq!(
        (
            attr(best[1], EGL_SAMPLES),
            attr(best[1], EGL_SAMPLE_BUFFERS)
        ),
        (4, 1)
    );
    assert_eq!(
        egl.get_config_attrib(dpy, best[0], 0x1234),
        Err(EglError::BAD_ATTRIBUTE)
    );
    assert_eq!(
        egl.choose_config(dpy, &[0x1234, 1, EGL_NONE]),
        Err(EglError::BAD_ATTRIBUTE)
    );
    let forged = Config::from_raw(best[0].to_raw() + 1000).unwrap();
    assert_eq!(
        egl.get_config_attrib(dpy, forged, EGL_RED_SIZE),
        Err(EglError::BAD_CONFIG)
    );
    // Surfaceless displays have no windows: the default EGL_SURFACE_TYPE (window) matches nothing.
    let none: &[EGLint] = &[EGL_NONE];
    let sl = egl
        .get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, 0, none)
        .unwrap();
    egl.initialize(sl).unwrap();
    assert!(egl.choose_config(sl, none).unwrap().is_empty());
    let pb = egl
        .choose_config(sl, &[EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE])
        .unwrap();
    assert_eq!(
        egl.get_config_attrib(sl, pb[0], EGL_SURFACE_TYPE),
        Ok(EGL_PBUFFER_BIT)
    );
    assert_eq!(
        egl.create_window_surface(sl, pb[0], window(5), none),
        Err(EglError::BAD_MATCH),
        "no EGL_WINDOW_BIT on the surfaceless platform"
    );
}

#[test]
fn api_binding_is_per_thread() {
    let egl = Egl::new();
    assert_eq!(egl.query_api(), EGL_OPENGL_ES_API, "the spec's initial API");
    egl.bind_api(EGL_OPENGL_API).unwrap();
    assert_eq!(egl.query_api(), EGL_OPENGL_API);
    let other = std::thread::scope(|s| s.spawn(|| egl.query_api()).join().unwrap());
    assert_eq!(other, EGL_OPENGL_ES_API);
    assert_eq!(egl.bind_api(EGL_OPENVG_API), Err(EglError::BAD_PARAMETER));
    assert_eq!(
        egl.query_api(),
        EGL_OPENGL_API,
        "a failed bind changes nothing"
    );
}

#[test]
fn context_creation_errors() {
    let (egl, dpy) = setup();
    let config = first_config(&egl, dpy);
    let core = gl33(&egl, dpy, Some(config));
    let info = egl.context_info(dpy, core).unwrap();
    assert_eq!(
        (info.major, info.minor, info.profile),
        (3, 3, arenagl_present::Profile::Core)
    );
    let no_config = gl33(&egl, dpy, None);
    assert_eq!(egl.query_context(dpy, no_config, EGL_CONFIG_ID), Ok(0));
    assert_eq!(
        egl.query_context(dpy, core, EGL_CONTEXT_CLIENT_TYPE),
        Ok(EGL_OPENGL_API as EGLint)
    );
    assert_eq!(
        egl.query_context(dpy, core, 0x1234),
        Err(EglError::BAD_ATTRIBUTE)
    );
    // No GL 4.7 exists. (Versions that exist but lie above what the device completes are
    // refused where the GL context is made: `tests/egl_gl_versions.rs`.)
    let v47 = [
        EGL_CONTEXT_MAJOR_VERSION,
        4,
        EGL_CONTEXT_MINOR_VERSION,
        7,
        EGL_NONE,
    ];
    assert_eq!(
        egl.create_context(dpy, Some(config), None, &v47),
        Err(EglError::BAD_MATCH)
    );
    assert_eq!(
        egl.create_context(dpy, Some(config), None, &[0x1234, 0, EGL_NONE]),
        Err(EglError::BAD_ATTRIBUTE)
    );
    let forged_cfg = Config::from_raw(config.to_raw() + 1000).unwrap();
    assert_eq!(
        egl.create_context(dpy, Some(forged_cfg), None, &GL33_CORE),
        Err(EglError::BAD_CONFIG)
    );
    // Sharing: a dead share context is EGL_BAD_CONTEXT; a share across APIs is EGL_BAD_MATCH.
    let shared = egl
        .create_context(dpy, Some(config), Some(core), &GL33_CORE)
        .unwrap();
    assert_eq!(
        egl.context_info(dpy, shared).unwrap().share_group,
        info.share_group
    );
    egl.bind_api(EGL_OPENGL_ES_API).unwrap();
    let es3 = [EGL_CONTEXT_CLIENT_VERSION, 3, EGL_NONE];
    assert_eq!(
        egl.create_context(dpy, Some(config), Some(core), &es3),
        Err(EglError::BAD_MATCH)
    );
    let es = egl.create_context(dpy, Some(config), None, &es3).unwrap();
    assert_eq!(
        egl.query_context(dpy, es, EGL_CONTEXT_CLIENT_VERSION),
        Ok(3)
    );
    egl.bind_api(EGL_OPENGL_API).unwrap();
    egl.destroy_context(dpy, shared).unwrap();
    assert_eq!(
        egl.create_context(dpy, Some(config), Some(shared), &GL33_CORE),
        Err(EglError::BAD_CONTEXT)
    );
    assert_eq!(
        egl.destroy_context(dpy, shared),
        Err(EglError::BAD_CONTEXT),
        "double destroy"
    );
    // Objects of one display are not objects of another.
    let none: &[EGLint] = &[EGL_NONE];
    let sl = egl
        .get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, 0, none)
        .unwrap();
    egl.initialize(sl).unwrap();
    assert_eq!(egl.destroy_context(sl, core), Err(EglError::BAD_CONTEXT));
    egl.terminate(dpy).unwrap();
    assert_eq!(
        egl.create_context(dpy, None, None, &GL33_CORE),
        Err(EglError::NOT_INITIALIZED)
    );
}

#[test]
fn surface_creation_and_queries() {
    let (egl, dpy) = setup();
    let config = first_config(&egl, dpy);
    let pb = pbuffer(&egl, dpy, config);
    assert_eq!(egl.query_surface(dpy, pb, EGL_WIDTH), Ok(Some(64)));
    assert_eq!(egl.query_surface(dpy, pb, EGL_HEIGHT), Ok(Some(32)));
    assert_eq!(
        egl.query_surface(dpy, pb, EGL_RENDER_BUFFER),
        Ok(Some(EGL_BACK_BUFFER))
    );
    assert_eq!(
        egl.query_surface(dpy, pb, 0x1234),
        Err(EglError::BAD_ATTRIBUTE)
    );
    let big = [EGL_WIDTH, 1 << 20, EGL_HEIGHT, 8, EGL_NONE];
    assert_eq!(
        egl.create_pbuffer_surface(dpy, config, &big),
        Err(EglError::BAD_ALLOC)
    );
    let largest = [
        EGL_WIDTH,
        1 << 20,
        EGL_HEIGHT,
        8,
        EGL_LARGEST_PBUFFER,
        EGL_TRUE,
        EGL_NONE,
    ];
    let clamped = egl.create_pbuffer_surface(dpy, config, &largest).unwrap();
    assert_eq!(
        egl.query_surface(dpy, clamped, EGL_WIDTH),
        Ok(Some(arenagl_present::MAX_PBUFFER_SIZE))
    );
    assert_eq!(
        egl.create_pbuffer_surface(dpy, config, &[EGL_WIDTH, -1, EGL_NONE]),
        Err(EglError::BAD_PARAMETER)
    );
    let tex = [
        EGL_TEXTURE_FORMAT,
        EGL_TEXTURE_RGBA,
        EGL_TEXTURE_TARGET,
        EGL_TEXTURE_2D,
        EGL_NONE,
    ];
    assert_eq!(
        egl.create_pbuffer_surface(dpy, config, &tex),
        Err(EglError::BAD_ATTRIBUTE)
    );
    let half = [EGL_TEXTURE_TARGET, EGL_TEXTURE_2D, EGL_NONE];
    assert_eq!(
        egl.create_pbuffer_surface(dpy, config, &half),
        Err(EglError::BAD_MATCH)
    );
    assert_eq!(
        egl.create_pbuffer_surface(dpy, config, &[0x1234, 0, EGL_NONE]),
        Err(EglError::BAD_ATTRIBUTE)
    );
    // Windows: the handle is stored; null handles and second surfaces on one window fail.
    let none: &[EGLint] = &[EGL_NONE];
    let win = egl
        .create_window_surface(dpy, config, window(77), none)
        .unwrap();
    assert_eq!(egl.surface_native_window(dpy, win), Ok(window(77)));
    assert_eq!(
        egl.query_surface(dpy, win, EGL_LARGEST_PBUFFER),
        Ok(None),
        "value not modified"
    );
    assert_eq!(
        egl.create_window_surface(dpy, config, window(77), none),
        Err(EglError::BAD_ALLOC)
    );
    assert_eq!(
        egl.create_window_surface(dpy, config, None, none),
        Err(EglError::BAD_NATIVE_WINDOW)
    );
    egl.destroy_surface(dpy, win).unwrap();
    assert_eq!(
        egl.query_surface(dpy, win, EGL_WIDTH),
        Err(EglError::BAD_SURFACE)
    );
    assert_eq!(egl.destroy_surface(dpy, win), Err(EglError::BAD_SURFACE));
    let again = egl
        .create_window_surface(dpy, config, window(77), none)
        .unwrap();
    assert_ne!(again, win, "a destroyed handle never names a new surface");
    let forged = Config::from_raw(config.to_raw() + 1000).unwrap();
    assert_eq!(
        egl.create_pbuffer_surface(dpy, forged, none),
        Err(EglError::BAD_CONFIG)
    );
}

#[test]
fn make_current_rules() {
    let (egl, dpy) = setup();
    let config = first_config(&egl, dpy);
    let ctx = gl33(&egl, dpy, Some(config));
    let pb = pbuffer(&egl, dpy, config);
    assert_eq!(
        egl.make_current(dpy, Some(pb), None, Some(ctx)),
        Err(EglError::BAD_MATCH),
        "draw without read"
    );
    assert_eq!(
        egl.make_current(dpy, Some(pb), Some(pb), None),
        Err(EglError::BAD_MATCH),
        "surfaces without context"
    );
    let forged = Context::from_raw(ctx.to_raw() + 1).unwrap();
    assert_eq!(
        egl.make_current(dpy, None, None, Some(forged)),
        Err(EglError::BAD_CONTEXT)
    );
    let forged_s = Surface::from_raw(pb.to_raw() + 1).unwrap();
    assert_eq!(
        egl.make_current(dpy, Some(forged_s), Some(forged_s), Some(ctx)),
        Err(EglError::BAD_SURFACE)
    );
    // A config with different buffers is not compatible with the context's config.
    let rgb565 = egl
        .choose_config(dpy, &[EGL_BUFFER_SIZE, 16, EGL_RED_SIZE, 5, EGL_NONE])
        .unwrap();
    let other = egl
        .create_pbuffer_surface(dpy, *rgb565.last().unwrap(), &[EGL_NONE])
        .unwrap();
    assert_eq!(
        egl.make_current(dpy, Some(other), Some(other), Some(ctx)),
        Err(EglError::BAD_MATCH)
    );
    // ...but a no-config context renders to anything.
    let free = gl33(&egl, dpy, None);
    egl.make_current(dpy, Some(other), Some(other), Some(free))
        .unwrap();
    assert_eq!(egl.get_current_surface(EGL_DRAW), Ok(Some(other)));
    // Surfaceless, then surfaces, then release.
    egl.make_current(dpy, None, None, Some(ctx)).unwrap();
    assert_eq!(egl.get_current_context(), Some(ctx));
    assert_eq!(egl.get_current_surface(EGL_DRAW), Ok(None));
    egl.make_current(dpy, Some(pb), Some(pb), Some(ctx))
        .unwrap();
    assert_eq!(egl.get_current_surface(EGL_READ), Ok(Some(pb)));
    assert_eq!(egl.get_current_display(), Some(dpy));
    assert_eq!(egl.get_current_surface(0), Err(EglError::BAD_PARAMETER));
    egl.make_current(dpy, None, None, None).unwrap();
    assert_eq!(egl.get_current_context(), None);
    assert_eq!(egl.get_current_display(), None);
}

#[test]
fn context_current_in_another_thread_is_bad_access() {
    let (egl, dpy) = setup();
    let config = first_config(&egl, dpy);
    let ctx = gl33(&egl, dpy, Some(config));
    let pb = pbuffer(&egl, dpy, config);
    let ctx2 = gl33(&egl, dpy, Some(config));
    egl.make_current(dpy, Some(pb), Some(pb), Some(ctx))
        .unwrap();
    std::thread::scope(|s| {
        s.spawn(|| {
            assert_eq!(
                egl.make_current(dpy, None, None, Some(ctx)),
                Err(EglError::BAD_ACCESS)
            );
            assert_eq!(egl.get_error(), EGL_BAD_ACCESS);
            // The surface is bound to a context current in the main thread.
            assert_eq!(
                egl.make_current(dpy, Some(pb), Some(pb), Some(ctx2)),
                Err(EglError::BAD_ACCESS)
            );
            egl.make_current(dpy, None, None, Some(ctx2)).unwrap();
            assert_eq!(egl.get_current_context(), Some(ctx2));
        })
        .join()
        .unwrap();
    });
    // The thread exited with ctx2 current: its binding was released, so ctx2 is free here.
    assert_eq!(egl.get_current_context(), Some(ctx));
    egl.make_current(dpy, None, None, None).unwrap();
    egl.make_current(dpy, None, None, Some(ctx2)).unwrap();
    // Released in main, so another thread may take ctx now.
    std::thread::scope(|s| {
        s.spawn(|| {
            egl.make_current(dpy, Some(pb), Some(pb), Some(ctx))
                .unwrap()
        });
    });
}

#[test]
fn destroy_while_current_is_deferred() {
    let (egl, dpy) = setup();
    let config = first_config(&egl, dpy);
    let ctx = gl33(&egl, dpy, Some(config));
    let pb = pbuffer(&egl, dpy, config);
    egl.make_current(dpy, Some(pb), Some(pb), Some(ctx))
        .unwrap();
    assert_eq!(egl.object_counts(), (1, 1));
    egl.destroy_context(dpy, ctx).unwrap();
    egl.destroy_surface(dpy, pb).unwrap();
    // Dead to the application, alive while current.
    assert_eq!(egl.object_counts(), (1, 1));
    assert_eq!(egl.get_current_context(), Some(ctx));
    assert_eq!(
        egl.query_context(dpy, ctx, EGL_CONFIG_ID),
        Err(EglError::BAD_CONTEXT)
    );
    assert_eq!(
        egl.query_surface(dpy, pb, EGL_WIDTH),
        Err(EglError::BAD_SURFACE)
    );
    assert_eq!(
        egl.make_current(dpy, Some(pb), Some(pb), Some(ctx)),
        Err(EglError::BAD_CONTEXT)
    );
    egl.make_current(dpy, None, None, None).unwrap();
    assert_eq!(egl.object_counts(), (0, 0));
    // A new context never reuses the dead handle's identity.
    let fresh = gl33(&egl, dpy, Some(config));
    assert_ne!(fresh, ctx);
    assert_eq!(
        egl.query_context(dpy, ctx, EGL_CONFIG_ID),
        Err(EglError::BAD_CONTEXT)
    );
}

#[test]
fn switching_contexts_frees_the_destroyed_previous_one() {
    let (egl, dpy) = setup();
    let a = gl33(&egl, dpy, None);
    let b = gl33(&egl, dpy, None);
    egl.make_current(dpy, None, None, Some(a)).unwrap();
    egl.destroy_context(dpy, a).unwrap();
    assert_eq!(egl.object_counts().0, 2);
    egl.make_current(dpy, None, None, Some(b)).unwrap();
    assert_eq!(egl.object_counts().0, 1);
}

#[test]
fn terminate_with_a_current_context() {
    let (egl, dpy) = setup();
    let config = first_config(&egl, dpy);
    let ctx = gl33(&egl, dpy, Some(config));
    let idle = gl33(&egl, dpy, Some(config));
    let pb = pbuffer(&egl, dpy, config);
    let _idle_surface = pbuffer(&egl, dpy, config);
    egl.make_current(dpy, Some(pb), Some(pb), Some(ctx))
        .unwrap();
    egl.terminate(dpy).unwrap();
    // Objects not current are gone; the current ones stay until released.
    assert_eq!(egl.object_counts(), (1, 1));
    assert_eq!(egl.get_current_context(), Some(ctx));
    egl.initialize(dpy).unwrap();
    assert_eq!(egl.destroy_context(dpy, idle), Err(EglError::BAD_CONTEXT));
    assert_eq!(
        egl.destroy_context(dpy, ctx),
        Err(EglError::BAD_CONTEXT),
        "terminated handles are invalid"
    );
    egl.terminate(dpy).unwrap();
    // Releasing on a terminated display is allowed, and frees the remains.
    egl.make_current(dpy, None, None, None).unwrap();
    assert_eq!(egl.object_counts(), (0, 0));
    // Binding anything on it is not.
    assert_eq!(
        egl.make_current(dpy, None, None, Some(ctx)),
        Err(EglError::NOT_INITIALIZED)
    );
}

#[test]
fn swap_interval_and_swap_buffers() {
    let (egl, dpy) = setup();
    let config = first_config(&egl, dpy);
    let ctx = gl33(&egl, dpy, Some(config));
    let pb = pbuffer(&egl, dpy, config);
    assert_eq!(
        egl.swap_interval(dpy, 1),
        Err(EglError::BAD_CONTEXT),
        "no current context"
    );
    assert_eq!(
        egl.swap_buffers(dpy, pb),
        Err(EglError::BAD_SURFACE),
        "not current"
    );
    egl.make_current(dpy, None, None, Some(ctx)).unwrap();
    assert_eq!(
        egl.swap_interval(dpy, 1),
        Err(EglError::BAD_SURFACE),
        "surfaceless"
    );
    egl.make_current(dpy, Some(pb), Some(pb), Some(ctx))
        .unwrap();
    egl.swap_interval(dpy, 9).unwrap();
    assert_eq!(
        egl.surface_swap_interval(dpy, pb),
        Ok(arenagl_present::MAX_SWAP_INTERVAL)
    );
    egl.swap_interval(dpy, -3).unwrap();
    assert_eq!(
        egl.surface_swap_interval(dpy, pb),
        Ok(arenagl_present::MIN_SWAP_INTERVAL)
    );
    assert_eq!(egl.swap_buffers(dpy, pb), Ok(()));
}

#[test]
fn lost_context_reports_context_lost() {
    let (egl, dpy) = setup();
    let config = first_config(&egl, dpy);
    let ctx = gl33(&egl, dpy, Some(config));
    let pb = pbuffer(&egl, dpy, config);
    egl.make_current(dpy, Some(pb), Some(pb), Some(ctx))
        .unwrap();
    assert!(egl.mark_context_lost(ctx));
    assert!(egl.is_context_lost(ctx));
    assert_eq!(egl.swap_buffers(dpy, pb), Err(EglError::CONTEXT_LOST));
    assert_eq!(egl.get_error(), EGL_CONTEXT_LOST);
    assert_eq!(
        egl.make_current(dpy, Some(pb), Some(pb), Some(ctx)),
        Err(EglError::CONTEXT_LOST)
    );
    // Releasing and destroying a lost context still work, so the application can recover.
    egl.make_current(dpy, None, None, None).unwrap();
    egl.destroy_context(dpy, ctx).unwrap();
    assert_eq!(egl.object_counts().0, 0);
    assert!(!egl.mark_context_lost(ctx), "unknown after destruction");
    let fresh = gl33(&egl, dpy, Some(config));
    egl.make_current(dpy, Some(pb), Some(pb), Some(fresh))
        .unwrap();
    assert_eq!(egl.swap_buffers(dpy, pb), Ok(()));
}

#[test]
fn handles_of_one_instance_mean_nothing_to_another_kind() {
    let (egl, dpy) = setup();
    let ctx = gl33(&egl, dpy, None);
    assert_eq!(Surface::from_raw(ctx.to_raw()), None);
    assert_eq!(Display::from_raw(0), None);
    assert_ne!(ctx.to_raw(), 0);
}
