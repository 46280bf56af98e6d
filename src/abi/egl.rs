//! The exported EGL 1.5 entry points (plus the EXT platform and device functions).
//!
//! Each function is the same three steps inside [`guard`]: convert C arguments (handles from
//! pointer values, attribute lists copied with a bound), call the one `Egl` method, write
//! out-parameters. The model validates and records the error; the edge records only what it
//! finds itself. Functions whose pointer arguments are handles only (never dereferenced) are safe
//! `extern "C" fn`s; those that read or write through pointers are `unsafe` with a `# Safety`
//! list. `eglGetProcAddress` answers every function exported here, by name.

use std::ffi::{c_char, c_void, CStr};
use std::num::NonZeroU64;
use std::ptr::null_mut;

use arenagl_present::egl::*;
use arenagl_present::{
    the_device, Config, Context, Device, Display, EglError, EglResult, EglSync, SyncAttrib,
};
use arenagl_present::{NativeWindow, Surface};
use arenagl_translate::gl::{SurfaceColor, SurfaceFormat};

use super::guard::guard;
use super::{
    boolean, fail, fill_array, instance, narrow, strings, to_ptr, to_word, write_out, EGLAttrib,
    EGLBoolean, EGLConfig, EGLContext, EGLDeviceEXT, EGLDisplay, EGLNativeWindowType, EGLSurface,
    EGL_FALSE,
};
use super::{wayland, x11, xcb};

// Handle conversions. NULL is `EGL_NO_*`; a non-NULL value of the wrong kind is the error the
// spec names for an invalid object of that type.

fn display(dpy: EGLDisplay) -> EglResult<Display> {
    Display::from_raw(to_word(dpy)).map_or_else(|| fail(EglError::BAD_DISPLAY), Ok)
}

fn config(config: EGLConfig) -> EglResult<Config> {
    Config::from_raw(to_word(config)).map_or_else(|| fail(EglError::BAD_CONFIG), Ok)
}

/// `EGL_NO_CONFIG_KHR` (NULL) is `None`.
fn optional_config(c: EGLConfig) -> EglResult<Option<Config>> {
    if c.is_null() {
        Ok(None)
    } else {
        config(c).map(Some)
    }
}

fn optional_context(ctx: EGLContext) -> EglResult<Option<Context>> {
    match (ctx.is_null(), Context::from_raw(to_word(ctx))) {
        (true, _) => Ok(None),
        (false, Some(ctx)) => Ok(Some(ctx)),
        (false, None) => fail(EglError::BAD_CONTEXT),
    }
}

fn context(ctx: EGLContext) -> EglResult<Context> {
    optional_context(ctx)?.map_or_else(|| fail(EglError::BAD_CONTEXT), Ok)
}

fn optional_surface(surface: EGLSurface) -> EglResult<Option<Surface>> {
    match (surface.is_null(), Surface::from_raw(to_word(surface))) {
        (true, _) => Ok(None),
        (false, Some(s)) => Ok(Some(s)),
        (false, None) => fail(EglError::BAD_SURFACE),
    }
}

fn surface(s: EGLSurface) -> EglResult<Surface> {
    optional_surface(s)?.map_or_else(|| fail(EglError::BAD_SURFACE), Ok)
}

/// The handle as a pointer, NULL for failure.
fn handle_or_null<T>(result: EglResult<T>, raw: impl FnOnce(T) -> u64) -> *mut c_void {
    result.map_or(null_mut(), |h| to_ptr(raw(h)))
}

// Displays and devices.

/// `eglGetDisplay`: `EGL_DEFAULT_DISPLAY` (NULL), a Wayland `wl_display*` (recognised by its
/// interface's name, see `wayland::is_display`), or else an X11 `Display*`.
#[no_mangle]
pub extern "C" fn eglGetDisplay(display_id: *mut c_void) -> EGLDisplay {
    guard(null_mut(), || {
        let native = display_id.addr();
        let found = match native != 0 && wayland::is_display(native) {
            true => instance().get_wayland_display(native),
            false => instance().get_display(native),
        };
        found.map_or(null_mut(), |d| to_ptr(d.to_raw()))
    })
}

/// `eglGetPlatformDisplay[EXT]` on any platform: a Wayland display is first checked to be a
/// `wl_display*` (or connected, for `EGL_DEFAULT_DISPLAY`) here, the rest is the model's.
fn platform_display<T: arenagl_present::attrib::AttribWord>(
    platform: EGLenum,
    native_display: *mut c_void,
    attribs: &[T],
) -> EglResult<Display> {
    let mut native = to_word(native_display);
    if platform == EGL_PLATFORM_XCB_EXT {
        return xcb_display(native, attribs);
    }
    if platform == EGL_PLATFORM_WAYLAND_KHR {
        native = match wayland::platform_display(native_display.addr()) {
            Ok(d) => d as u64,
            Err(e) => {
                error_repeated!(?native_display, "eglGetPlatformDisplay: not a wl_display");
                return fail(e);
            }
        };
    }
    instance().get_platform_display(platform, native, attribs)
}

/// `eglGetPlatformDisplay(EGL_PLATFORM_XCB_EXT, …)`: the connection is checked (or, for
/// `EGL_DEFAULT_DISPLAY`, ArenaGL's own opened), the model registers the display, and the
/// screen it names must exist — else `EGL_BAD_PARAMETER`.
fn xcb_display<T: arenagl_present::attrib::AttribWord>(
    native: u64,
    attribs: &[T],
) -> EglResult<Display> {
    let conn = match native {
        0 => xcb::default_connection(),
        n => Some(n as usize).filter(|&c| xcb::usable_connection(c)),
    };
    let (Some(conn), Some(x)) = (conn, xcb::xcb()) else {
        error_repeated!(
            native,
            "eglGetPlatformDisplay: not a usable xcb_connection_t"
        );
        return fail(EglError::BAD_PARAMETER);
    };
    let d = instance().get_platform_display(EGL_PLATFORM_XCB_EXT, conn as u64, attribs)?;
    let screen = instance()
        .display_xcb(d)
        .ok()
        .flatten()
        .map_or(0, |(_, s)| s);
    // SAFETY: `conn` was checked to be a healthy connection (or is ArenaGL's own).
    let visuals = unsafe { x.screen_visuals(std::ptr::with_exposed_provenance_mut(conn), screen) };
    if visuals.is_none() {
        error_repeated!(
            screen,
            "eglGetPlatformDisplay: the XCB connection has no such screen"
        );
        return fail(EglError::BAD_PARAMETER);
    }
    Ok(d)
}

/// `eglGetPlatformDisplay`: the X11, Wayland, surfaceless and device platforms.
///
/// # Safety
/// `attrib_list` is NULL or an `EGL_NONE`-terminated `EGLAttrib` list.
#[no_mangle]
pub unsafe extern "C" fn eglGetPlatformDisplay(
    platform: EGLenum,
    native_display: *mut c_void,
    attrib_list: *const EGLAttrib,
) -> EGLDisplay {
    guard(null_mut(), || {
        // SAFETY: the caller's obligation, passed on.
        let attribs = unsafe { super::attrib_list(attrib_list) };
        let result = platform_display(platform, native_display, &attribs);
        handle_or_null(result, Display::to_raw)
    })
}

/// `eglGetPlatformDisplayEXT`: as `eglGetPlatformDisplay`, with an `EGLint` list.
///
/// # Safety
/// `attrib_list` is NULL or an `EGL_NONE`-terminated `EGLint` list.
#[no_mangle]
pub unsafe extern "C" fn eglGetPlatformDisplayEXT(
    platform: EGLenum,
    native_display: *mut c_void,
    attrib_list: *const EGLint,
) -> EGLDisplay {
    guard(null_mut(), || {
        // SAFETY: the caller's obligation, passed on.
        let attribs = unsafe { super::attrib_list(attrib_list) };
        let result = platform_display(platform, native_display, &attribs);
        handle_or_null(result, Display::to_raw)
    })
}

/// `eglQueryDevicesEXT`: `devices` NULL returns the count only.
///
/// # Safety
/// `devices` is NULL or valid for `max_devices` writes; `num_devices` is NULL or valid for one.
#[no_mangle]
pub unsafe extern "C" fn eglQueryDevicesEXT(
    max_devices: EGLint,
    devices: *mut EGLDeviceEXT,
    num_devices: *mut EGLint,
) -> EGLBoolean {
    guard(EGL_FALSE, || {
        let result = (|| {
            let max = match (devices.is_null(), usize::try_from(max_devices)) {
                (true, _) => usize::MAX,
                (false, Ok(max)) => max,
                (false, Err(_)) => return fail(EglError::BAD_PARAMETER),
            };
            let found: Vec<u64> = instance()
                .query_devices(max)?
                .into_iter()
                .map(Device::to_raw)
                .collect();
            // SAFETY: the caller's obligations on `devices` and `num_devices`, passed on.
            unsafe { fill_array(&found, devices, max_devices, num_devices) }
        })();
        boolean(result)
    })
}

/// `eglQueryDisplayAttribEXT`: `EGL_DEVICE_EXT` only.
///
/// # Safety
/// `value` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn eglQueryDisplayAttribEXT(
    dpy: EGLDisplay,
    attribute: EGLint,
    value: *mut EGLAttrib,
) -> EGLBoolean {
    guard(EGL_FALSE, || {
        let result = (|| {
            let device = instance().query_display_device(display(dpy)?, attribute)?;
            // The handle word is below 2^63 (its kind byte is small), so it fits an `EGLAttrib`.
            let word = EGLAttrib::try_from(device.to_raw())
                .map_or_else(|_| fail(EglError::BAD_ALLOC), Ok)?;
            // SAFETY: the caller's obligation on `value`, passed on.
            unsafe { write_out(value, word) }
        })();
        boolean(result)
    })
}

/// `eglQueryDeviceStringEXT`: `EGL_EXTENSIONS` is the empty string (the device has none).
#[no_mangle]
pub extern "C" fn eglQueryDeviceStringEXT(device: EGLDeviceEXT, name: EGLint) -> *const c_char {
    guard(std::ptr::null(), || {
        let result = match Device::from_raw(to_word(device)) {
            Some(d) if d == the_device() => match name {
                EGL_EXTENSIONS => Ok(strings::EMPTY.as_ptr()),
                _ => Err(EglError::BAD_PARAMETER),
            },
            _ => Err(EglError::BAD_DEVICE),
        };
        instance().record(result).unwrap_or(std::ptr::null())
    })
}

/// `eglInitialize`; `major`/`minor` may be NULL.
///
/// # Safety
/// `major` and `minor` are each NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn eglInitialize(
    dpy: EGLDisplay,
    major: *mut EGLint,
    minor: *mut EGLint,
) -> EGLBoolean {
    guard(EGL_FALSE, || {
        let result = display(dpy).and_then(|d| instance().initialize(d).map(|v| (d, v)));
        if let Ok((d, _)) = result {
            load_visuals(d);
        }
        let result = result.map(|(_, v)| v);
        if let Ok((ma, mi)) = result {
            for (out, v) in [(major, ma), (minor, mi)] {
                if !out.is_null() {
                    // SAFETY: non-NULL, and the caller guarantees it is valid for one write.
                    unsafe { out.write_unaligned(v) };
                }
            }
        }
        boolean(result)
    })
}

/// The Xlib connection behind a windowed display: an X11 display's own, or for the default
/// display (when `$DISPLAY` is set) the one ArenaGL opens itself; `None` for the others.
pub(crate) fn x11_connection(d: Display) -> Option<x11::XDisplay> {
    if let Ok(Some(native)) = instance().display_native(d) {
        let dpy = std::ptr::without_provenance_mut(native as usize);
        return x11::plausible_display(dpy).then_some(dpy);
    }
    let is_default = instance().get_display(EGL_DEFAULT_DISPLAY) == Some(d);
    if !is_default || std::env::var_os("DISPLAY").is_none() {
        return None;
    }
    super::bridge::default_x11_display().map(|p| std::ptr::without_provenance_mut(p as usize))
}

/// Gives an initialized windowed display the visuals of its X screen, once (so that configs
/// report `EGL_NATIVE_VISUAL_ID`); without libX11 or a connection the display keeps none.
fn load_visuals(d: Display) {
    if instance().has_native_visuals(d) {
        return;
    }
    if let (Ok(Some((conn, screen))), Some(x)) = (instance().display_xcb(d), xcb::xcb()) {
        // SAFETY: the connection was checked when the display was made, and the program keeps
        // it alive while it uses EGL on it.
        let visuals = unsafe {
            x.screen_visuals(std::ptr::with_exposed_provenance_mut(conn as usize), screen)
        };
        let _ = instance().set_native_visuals(d, visuals.unwrap_or_default());
        return;
    }
    let (Some(x), Some(conn)) = (x11::xlib(), x11_connection(d)) else {
        return;
    };
    // SAFETY: `conn` is the program's `Display*` it gave eglGetDisplay (live while it uses EGL on
    // it, as every EGL implementation assumes) or ArenaGL's own connection.
    let visuals = unsafe { x.screen_visuals(conn, x.default_screen_of(conn)) };
    let _ = instance().set_native_visuals(d, visuals);
}

/// `EGL_BAD_NATIVE_WINDOW` unless `xid` is a window on the display's X connection (a destroyed or
/// garbage XID is trapped, never the program's error handler), `EGL_BAD_MATCH` unless its visual
/// can show `cfg`'s colour buffer.
fn check_native_window(dpy: Display, cfg: Config, xid: u64) -> EglResult<()> {
    super::bridge::init_logging();
    if let Ok(Some((conn, _))) = instance().display_xcb(dpy) {
        return check_xcb_window(dpy, cfg, conn, xid);
    }
    let (Some(x), Some(conn)) = (x11::xlib(), x11_connection(dpy)) else {
        error_repeated!("eglCreateWindowSurface: the display has no X11 connection");
        return fail(EglError::BAD_NATIVE_WINDOW);
    };
    // SAFETY: `conn` is a live connection, see `load_visuals`.
    let Some(info) = (unsafe { x11::window_info(x, conn, xid) }) else {
        error_repeated!(xid, "eglCreateWindowSurface: the XID is not a window");
        return fail(EglError::BAD_NATIVE_WINDOW);
    };
    instance().check_window_visual(dpy, cfg, info.visual)
}

/// [`check_native_window`] on an XCB display: `xid` must be an `xcb_window_t` of the
/// connection's server.
fn check_xcb_window(dpy: Display, cfg: Config, conn: u64, xid: u64) -> EglResult<()> {
    let visual = xcb::xcb()
        .zip(u32::try_from(xid).ok())
        .and_then(|(x, xid)| {
            // SAFETY: the connection was checked when the display was made (see `load_visuals`).
            unsafe { x.window_visual(std::ptr::with_exposed_provenance_mut(conn as usize), xid) }
        });
    let Some(visual) = visual else {
        error_repeated!(xid, "eglCreateWindowSurface: the XID is not a window");
        return fail(EglError::BAD_NATIVE_WINDOW);
    };
    instance().check_window_visual(dpy, cfg, visual)
}

/// `eglTerminate`; the fences of the syncs it destroys are dropped with them.
#[no_mangle]
pub extern "C" fn eglTerminate(dpy: EGLDisplay) -> EGLBoolean {
    guard(EGL_FALSE, || {
        let result = display(dpy).and_then(|d| instance().terminate(d));
        if let (Ok(()), Some(d)) = (&result, Display::from_raw(to_word(dpy))) {
            arenagl_translate::gl::destroy_display_images(d.to_raw());
        }
        if result.is_ok() {
            super::bridge::retain_fences(|h| {
                EglSync::from_raw(h).is_some_and(|s| instance().sync_exists(s))
            });
        }
        boolean(result)
    })
}

/// `eglQueryString`: static NUL-terminated strings; `EGL_NO_DISPLAY` gives the client
/// extensions and the version.
#[no_mangle]
pub extern "C" fn eglQueryString(dpy: EGLDisplay, name: EGLint) -> *const c_char {
    guard(std::ptr::null(), || {
        let result = (|| {
            let dpy = if dpy.is_null() {
                None
            } else {
                Some(display(dpy)?)
            };
            let text = instance().query_string(dpy, name)?;
            // A string the table lacks is an internal bug, reported as the implementation's
            // failure rather than a NULL the caller cannot explain.
            strings::c_str(text).map_or_else(|| fail(EglError::BAD_ALLOC), Ok)
        })();
        result.unwrap_or(std::ptr::null())
    })
}

// Configs.

/// `eglGetConfigs`: `configs` NULL returns the count only.
///
/// # Safety
/// `configs` is NULL or valid for `config_size` writes; `num_config` is NULL or valid for one.
#[no_mangle]
pub unsafe extern "C" fn eglGetConfigs(
    dpy: EGLDisplay,
    configs: *mut EGLConfig,
    config_size: EGLint,
    num_config: *mut EGLint,
) -> EGLBoolean {
    guard(EGL_FALSE, || {
        let result = (|| {
            let all = instance().get_configs(display(dpy)?)?;
            let words: Vec<u64> = all.into_iter().map(Config::to_raw).collect();
            // SAFETY: the caller's obligations on `configs` and `num_config`, passed on.
            unsafe { fill_array(&words, configs, config_size, num_config) }
        })();
        boolean(result)
    })
}

/// `eglChooseConfig`: `configs` NULL returns the count only.
///
/// # Safety
/// `attrib_list` is NULL or an `EGL_NONE`-terminated list; `configs` is NULL or valid for
/// `config_size` writes; `num_config` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn eglChooseConfig(
    dpy: EGLDisplay,
    attrib_list: *const EGLint,
    configs: *mut EGLConfig,
    config_size: EGLint,
    num_config: *mut EGLint,
) -> EGLBoolean {
    guard(EGL_FALSE, || {
        let result = (|| {
            let dpy = display(dpy)?;
            // SAFETY: the caller's obligation, passed on.
            let attribs = unsafe { super::attrib_list(attrib_list) };
            let chosen = instance().choose_config(dpy, &attribs)?;
            let words: Vec<u64> = chosen.into_iter().map(Config::to_raw).collect();
            // SAFETY: the caller's obligations on `configs` and `num_config`, passed on.
            unsafe { fill_array(&words, configs, config_size, num_config) }
        })();
        boolean(result)
    })
}

/// `eglGetConfigAttrib`.
///
/// # Safety
/// `value` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn eglGetConfigAttrib(
    dpy: EGLDisplay,
    cfg: EGLConfig,
    attribute: EGLint,
    value: *mut EGLint,
) -> EGLBoolean {
    guard(EGL_FALSE, || {
        let result = (|| {
            let v = instance().get_config_attrib(display(dpy)?, config(cfg)?, attribute)?;
            // SAFETY: the caller's obligation on `value`, passed on.
            unsafe { write_out(value, v) }
        })();
        boolean(result)
    })
}

// Client APIs and contexts.

#[no_mangle]
pub extern "C" fn eglBindAPI(api: EGLenum) -> EGLBoolean {
    guard(EGL_FALSE, || boolean(instance().bind_api(api)))
}

/// `eglQueryAPI`; a failure (which cannot happen short of a panic) reports `EGL_NONE`.
#[no_mangle]
pub extern "C" fn eglQueryAPI() -> EGLenum {
    guard(EGL_NONE as EGLenum, || instance().query_api())
}

/// `eglCreateContext`: `config` NULL is `EGL_NO_CONFIG_KHR`, `share_context` NULL shares nothing.
///
/// # Safety
/// `attrib_list` is NULL or an `EGL_NONE`-terminated list.
#[no_mangle]
pub unsafe extern "C" fn eglCreateContext(
    dpy: EGLDisplay,
    cfg: EGLConfig,
    share_context: EGLContext,
    attrib_list: *const EGLint,
) -> EGLContext {
    guard(null_mut(), || {
        let result = (|| {
            let (dpy, cfg) = (display(dpy)?, optional_config(cfg)?);
            let share = optional_context(share_context)?;
            // SAFETY: the caller's obligation, passed on.
            let attribs = unsafe { super::attrib_list(attrib_list) };
            let ctx = instance().create_context(dpy, cfg, share, &attribs)?;
            let info = instance().context_info(dpy, ctx)?;
            let shared = share.map(Context::to_raw);
            if let Err(e) = super::bridge::create_context(ctx.to_raw(), &info, shared) {
                let _ = instance().destroy_context(dpy, ctx);
                // A GL version above the device's claim: the config supports no such context.
                if let super::bridge::CreateError::VersionAbove(_) = e {
                    tracing::info!(error = %e, "eglCreateContext: version refused");
                    return fail(EglError::BAD_MATCH);
                }
                error_repeated!(error = %e, "eglCreateContext: no GL context");
                return fail(EglError::BAD_ALLOC);
            }
            Ok(ctx)
        })();
        handle_or_null(result, Context::to_raw)
    })
}

#[no_mangle]
pub extern "C" fn eglDestroyContext(dpy: EGLDisplay, ctx: EGLContext) -> EGLBoolean {
    guard(EGL_FALSE, || {
        boolean((|| {
            let c = context(ctx)?;
            instance().destroy_context(display(dpy)?, c)?;
            super::bridge::destroy_context(c.to_raw());
            Ok(())
        })())
    })
}

/// `eglQueryContext`.
///
/// # Safety
/// `value` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn eglQueryContext(
    dpy: EGLDisplay,
    ctx: EGLContext,
    attribute: EGLint,
    value: *mut EGLint,
) -> EGLBoolean {
    guard(EGL_FALSE, || {
        let result = (|| {
            let v = instance().query_context(display(dpy)?, context(ctx)?, attribute)?;
            // SAFETY: the caller's obligation on `value`, passed on.
            unsafe { write_out(value, v) }
        })();
        boolean(result)
    })
}

// Surfaces.

/// `eglCreatePbufferSurface`.
///
/// # Safety
/// `attrib_list` is NULL or an `EGL_NONE`-terminated list.
#[no_mangle]
pub unsafe extern "C" fn eglCreatePbufferSurface(
    dpy: EGLDisplay,
    cfg: EGLConfig,
    attrib_list: *const EGLint,
) -> EGLSurface {
    guard(null_mut(), || {
        let result = (|| {
            let (dpy, cfg) = (display(dpy)?, config(cfg)?);
            // SAFETY: the caller's obligation, passed on.
            let attribs = unsafe { super::attrib_list(attrib_list) };
            let surface = instance().create_pbuffer_surface(dpy, cfg, &attribs)?;
            let size = |a| {
                instance()
                    .query_surface(dpy, surface, a)
                    .ok()
                    .flatten()
                    .unwrap_or(0)
            };
            let (w, h) = (size(EGL_WIDTH), size(EGL_HEIGHT));
            let format = surface_format(dpy, cfg, surface);
            if let Err(e) = super::bridge::create_surface(
                surface.to_raw(),
                w.max(0) as u32,
                h.max(0) as u32,
                format,
            ) {
                error_repeated!(error = %e, "eglCreatePbufferSurface: no images");
                let _ = instance().destroy_surface(dpy, surface);
                return fail(EglError::BAD_ALLOC);
            }
            Ok(surface)
        })();
        handle_or_null(result, Surface::to_raw)
    })
}

/// How the images of `surface` (made with `cfg`) are made: its `EGL_GL_COLORSPACE` and its
/// config's samples, colour layout and depth and stencil sizes (the model validated both, so
/// the fallbacks are never taken).
fn surface_format(dpy: Display, cfg: Config, surface: Surface) -> SurfaceFormat {
    let colorspace = instance().query_surface(dpy, surface, EGL_GL_COLORSPACE);
    let attrib = |a| {
        let v = instance().get_config_attrib(dpy, cfg, a).unwrap_or(0);
        v.clamp(0, i32::from(u8::MAX)) as u8
    };
    let color = match (attrib(EGL_RED_SIZE), attrib(EGL_ALPHA_SIZE)) {
        (5, _) => SurfaceColor::Rgb565,
        (_, 0) => SurfaceColor::Rgb8,
        _ => SurfaceColor::Rgba8,
    };
    SurfaceFormat {
        srgb: colorspace.ok().flatten() == Some(EGL_GL_COLORSPACE_SRGB),
        samples: u32::from(attrib(EGL_SAMPLES)),
        color,
        depth_bits: attrib(EGL_DEPTH_SIZE),
        stencil_bits: attrib(EGL_STENCIL_SIZE),
    }
}

fn window_surface(
    dpy: EGLDisplay,
    cfg: EGLConfig,
    window: u64,
    attribs: &[EGLint],
) -> EglResult<Surface> {
    let (dpy, cfg) = (display(dpy)?, config(cfg)?);
    if let Some(wl_display) = instance().display_wayland(dpy)? {
        return wayland_surface(dpy, cfg, wl_display, window, attribs);
    }
    let xid = window;
    let window = NonZeroU64::new(window).map(NativeWindow);
    let surface = instance().create_window_surface(dpy, cfg, window, attribs)?;
    if let Err(e) = check_native_window(dpy, cfg, xid) {
        let _ = instance().destroy_surface(dpy, surface);
        return fail(e);
    }
    // The model validated the display, so these answer; the fallbacks are never taken.
    let native = instance().display_native(dpy).unwrap_or(None);
    let vsync = instance().surface_swap_interval(dpy, surface).unwrap_or(1) != 0;
    let format = surface_format(dpy, cfg, surface);
    let made = match instance().display_xcb(dpy) {
        Ok(Some((conn, _))) => {
            let window = arenagl_memory::vulkan::XcbWindow {
                connection: std::ptr::with_exposed_provenance_mut(conn as usize),
                window: xid as u32,
            };
            // SAFETY: the connection was checked when the display was made and the window just
            // now (`check_native_window`); the program keeps both alive while the surface
            // exists (EGL's rule for native objects).
            unsafe { super::bridge::create_xcb_surface(surface.to_raw(), window, vsync, format) }
        }
        _ => super::bridge::create_window_surface(surface.to_raw(), native, xid, vsync, format),
    };
    match made {
        Ok((w, h)) => {
            let size = |v: u32| EGLint::try_from(v).unwrap_or(EGLint::MAX);
            instance().set_window_size(surface, size(w), size(h));
            instance().record(Ok(surface))
        }
        Err(e) => {
            let _ = instance().destroy_surface(dpy, surface);
            fail(e)
        }
    }
}

/// A window surface of a Wayland display for the `wl_egl_window*` `native`: the model's checks,
/// then the window's (`wayland::check_window`), then its swapchain; the window is claimed for
/// the surface only once all succeeded.
fn wayland_surface(
    dpy: Display,
    cfg: Config,
    wl_display: u64,
    native: u64,
    attribs: &[EGLint],
) -> EglResult<Surface> {
    let window = NonZeroU64::new(native).map(NativeWindow);
    let surface = instance().create_window_surface(dpy, cfg, window, attribs)?;
    let undo = |e: EglError| {
        let _ = instance().destroy_surface(dpy, surface);
        fail(e)
    };
    super::bridge::init_logging();
    let info = match wayland::check_window(native as usize) {
        Ok(info) => info,
        Err(e) => {
            error_repeated!(native, "eglCreateWindowSurface: not a usable wl_egl_window");
            return undo(e);
        }
    };
    let vsync = instance().surface_swap_interval(dpy, surface).unwrap_or(1) != 0;
    let window = arenagl_memory::vulkan::WaylandWindow {
        display: std::ptr::with_exposed_provenance_mut(wl_display as usize),
        surface: std::ptr::with_exposed_provenance_mut(info.surface),
    };
    let size = (info.width, info.height);
    let format = surface_format(dpy, cfg, surface);
    // SAFETY: `wl_display` was recognised as a `wl_display*` and `info.surface` as a
    // `wl_surface*`; the program keeps both alive while the EGL surface exists (EGL's rule for
    // native objects).
    let made = unsafe {
        super::bridge::create_wayland_surface(surface.to_raw(), window, size, vsync, format)
    };
    match made {
        Ok((w, h)) => {
            wayland::claim(surface.to_raw(), native as usize, info);
            let int = |v: u32| EGLint::try_from(v).unwrap_or(EGLint::MAX);
            instance().set_window_size(surface, int(w), int(h));
            instance().record(Ok(surface))
        }
        Err(e) => undo(e),
    }
}

/// The window a platform `native_window` names: EGL_EXT_platform_x11 passes a `Window*`,
/// EGL_EXT_platform_xcb an `xcb_window_t*` (32 bits), EGL_KHR_platform_wayland the
/// `wl_egl_window*` itself.
///
/// # Safety
/// As [`xid`] on an X11 (or default) display; on an XCB display `native_window` is NULL or
/// valid for reading one `xcb_window_t`.
unsafe fn platform_window(dpy: EGLDisplay, native_window: *mut c_void) -> u64 {
    let wayland = display(dpy).is_ok_and(|d| matches!(instance().display_wayland(d), Ok(Some(_))));
    if wayland {
        return native_window.addr() as u64;
    }
    let xcb = display(dpy).is_ok_and(|d| matches!(instance().display_xcb(d), Ok(Some(_))));
    if xcb && !native_window.is_null() {
        // SAFETY: EGL_EXT_platform_xcb passes an `xcb_window_t*`; the caller's obligation.
        return u64::from(unsafe { native_window.cast::<u32>().read_unaligned() });
    }
    // SAFETY: the caller's obligation, passed on.
    unsafe { xid(native_window) }
}

/// `eglCreateWindowSurface` for GLX (which reads the error with `eglGetError` on NULL), with
/// GLX's colorspace ([`glx_colorspace`]).
pub(crate) fn window_surface_raw(dpy: EGLDisplay, cfg: EGLConfig, xid: u64) -> EGLSurface {
    guard(null_mut(), || {
        let attribs = [EGL_GL_COLORSPACE, glx_colorspace(dpy, cfg), EGL_NONE];
        handle_or_null(window_surface(dpy, cfg, xid, &attribs), Surface::to_raw)
    })
}

/// Whether surfaces of `cfg` can be sRGB (EGL_KHR_gl_colorspace): the configs with 8-bit
/// channels (the model refuses the others with `EGL_BAD_MATCH`).
pub(crate) fn srgb_capable(dpy: Display, cfg: Config) -> bool {
    instance().get_config_attrib(dpy, cfg, EGL_RED_SIZE) == Ok(8)
}

/// The `EGL_GL_COLORSPACE` of GLX drawables of `cfg`: sRGB wherever the config can have it, so
/// those configs are `GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB` (GLX_ARB_framebuffer_sRGB:
/// `GL_FRAMEBUFFER_SRGB`, off by default, then encodes on the default framebuffer).
pub(crate) fn glx_colorspace(dpy: EGLDisplay, cfg: EGLConfig) -> EGLint {
    match (display(dpy), config(cfg)) {
        (Ok(d), Ok(c)) if srgb_capable(d, c) => EGL_GL_COLORSPACE_SRGB,
        _ => EGL_GL_COLORSPACE_LINEAR,
    }
}

/// `eglCreateWindowSurface`: `win` is an X11 `Window` (XID).
///
/// # Safety
/// `attrib_list` is NULL or an `EGL_NONE`-terminated list.
#[no_mangle]
pub unsafe extern "C" fn eglCreateWindowSurface(
    dpy: EGLDisplay,
    cfg: EGLConfig,
    win: EGLNativeWindowType,
    attrib_list: *const EGLint,
) -> EGLSurface {
    guard(null_mut(), || {
        // SAFETY: the caller's obligation, passed on.
        let attribs = unsafe { super::attrib_list(attrib_list) };
        handle_or_null(
            window_surface(dpy, cfg, win as u64, &attribs),
            Surface::to_raw,
        )
    })
}

/// The XID behind a platform `native_window`, which EGL_EXT_platform_x11 defines as a `Window*`.
///
/// # Safety
/// `native_window` is NULL or valid for reading one `Window`.
unsafe fn xid(native_window: *mut c_void) -> u64 {
    if native_window.is_null() {
        return 0;
    }
    // SAFETY: non-NULL, and the caller guarantees it points at a `Window`.
    let window = unsafe { native_window.cast::<EGLNativeWindowType>().read_unaligned() };
    window as u64
}

/// `eglCreatePlatformWindowSurface`.
///
/// # Safety
/// On an X11 display `native_window` is NULL or points at an X11 `Window`; on a Wayland display
/// it is a `wl_egl_window*` (checked before use); `attrib_list` is NULL or an
/// `EGL_NONE`-terminated `EGLAttrib` list.
#[no_mangle]
pub unsafe extern "C" fn eglCreatePlatformWindowSurface(
    dpy: EGLDisplay,
    cfg: EGLConfig,
    native_window: *mut c_void,
    attrib_list: *const EGLAttrib,
) -> EGLSurface {
    guard(null_mut(), || {
        let result = (|| {
            // SAFETY: the caller's obligation, passed on.
            let wide = unsafe { super::attrib_list(attrib_list) };
            let attribs = narrow(&wide).or_else(fail)?;
            // SAFETY: the caller's obligation on `native_window`, passed on.
            let window = unsafe { platform_window(dpy, native_window) };
            window_surface(dpy, cfg, window, &attribs)
        })();
        handle_or_null(result, Surface::to_raw)
    })
}

/// `eglCreatePlatformWindowSurfaceEXT`: as the core function, with an `EGLint` list.
///
/// # Safety
/// As `eglCreatePlatformWindowSurface`; `attrib_list` is NULL or an `EGL_NONE`-terminated list.
#[no_mangle]
pub unsafe extern "C" fn eglCreatePlatformWindowSurfaceEXT(
    dpy: EGLDisplay,
    cfg: EGLConfig,
    native_window: *mut c_void,
    attrib_list: *const EGLint,
) -> EGLSurface {
    guard(null_mut(), || {
        // SAFETY: the caller's obligation, passed on.
        let attribs = unsafe { super::attrib_list(attrib_list) };
        // SAFETY: the caller's obligation on `native_window`, passed on.
        let window = unsafe { platform_window(dpy, native_window) };
        handle_or_null(window_surface(dpy, cfg, window, &attribs), Surface::to_raw)
    })
}

#[no_mangle]
pub extern "C" fn eglDestroySurface(dpy: EGLDisplay, s: EGLSurface) -> EGLBoolean {
    guard(EGL_FALSE, || {
        boolean((|| {
            let sf = surface(s)?;
            instance().destroy_surface(display(dpy)?, sf)?;
            super::bridge::destroy_surface(sf.to_raw());
            wayland::release(sf.to_raw());
            Ok(())
        })())
    })
}

/// `eglQuerySurface`; attributes the spec leaves "not modified" leave `*value` alone.
///
/// # Safety
/// `value` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn eglQuerySurface(
    dpy: EGLDisplay,
    s: EGLSurface,
    attribute: EGLint,
    value: *mut EGLint,
) -> EGLBoolean {
    guard(EGL_FALSE, || {
        let result = (|| {
            let dpy = display(dpy)?;
            let answer = instance().query_surface(dpy, surface(s)?, attribute)?;
            if value.is_null() {
                return fail(EglError::BAD_PARAMETER);
            }
            match answer {
                // SAFETY: the caller's obligation on `value`, passed on.
                Some(v) => unsafe { write_out(value, v) },
                None => Ok(()),
            }
        })();
        boolean(result)
    })
}

/// `eglSurfaceAttrib`. ArenaGL's surfaces have nothing to change: the values they already have
/// are accepted (`EGL_SWAP_BEHAVIOR` destroyed, the default resolve, mipmap level 0); the other
/// valid values need a config bit no config has (`EGL_BAD_MATCH`); anything else is
/// `EGL_BAD_ATTRIBUTE`.
#[no_mangle]
pub extern "C" fn eglSurfaceAttrib(
    dpy: EGLDisplay,
    s: EGLSurface,
    attribute: EGLint,
    value: EGLint,
) -> EGLBoolean {
    guard(EGL_FALSE, || {
        let result = (|| {
            // Validates the display and the surface, with the model's errors.
            instance().query_surface(display(dpy)?, surface(s)?, EGL_WIDTH)?;
            let outcome = match (attribute, value) {
                (EGL_SWAP_BEHAVIOR, EGL_BUFFER_DESTROYED)
                | (EGL_MULTISAMPLE_RESOLVE, EGL_MULTISAMPLE_RESOLVE_DEFAULT)
                | (EGL_MIPMAP_LEVEL, 0) => Ok(()),
                (EGL_SWAP_BEHAVIOR, EGL_BUFFER_PRESERVED)
                | (EGL_MULTISAMPLE_RESOLVE, MULTISAMPLE_RESOLVE_BOX) => Err(EglError::BAD_MATCH),
                (EGL_MIPMAP_LEVEL, level) if level > 0 => Err(EglError::BAD_MATCH),
                _ => Err(EglError::BAD_ATTRIBUTE),
            };
            instance().record(outcome)
        })();
        boolean(result)
    })
}

/// `EGL_MULTISAMPLE_RESOLVE_BOX` (not among the model's enumerants; no config supports it).
const MULTISAMPLE_RESOLVE_BOX: EGLint = 0x309B;

// Binding and presenting.

#[no_mangle]
pub extern "C" fn eglMakeCurrent(
    dpy: EGLDisplay,
    draw: EGLSurface,
    read: EGLSurface,
    ctx: EGLContext,
) -> EGLBoolean {
    guard(EGL_FALSE, || {
        boolean((|| {
            let dpy = display(dpy)?;
            let (draw, read) = (optional_surface(draw)?, optional_surface(read)?);
            let ctx = optional_context(ctx)?;
            // EGL 1.5 §3.11: after a power management event (a lost device) eglMakeCurrent
            // fails with EGL_CONTEXT_LOST, whether or not a swap has reported it yet.
            if let Some(c) = ctx {
                if super::bridge::context_lost(c.to_raw()) {
                    instance().mark_context_lost(c);
                }
            }
            instance().make_current(dpy, draw, read, ctx)?;
            super::bridge::make_current(
                ctx.map(Context::to_raw),
                draw.map(Surface::to_raw),
                read.map(Surface::to_raw),
            );
            Ok(())
        })())
    })
}

#[no_mangle]
pub extern "C" fn eglGetCurrentContext() -> EGLContext {
    guard(null_mut(), || {
        instance()
            .get_current_context()
            .map_or(null_mut(), |c| to_ptr(c.to_raw()))
    })
}

#[no_mangle]
pub extern "C" fn eglGetCurrentDisplay() -> EGLDisplay {
    guard(null_mut(), || {
        instance()
            .get_current_display()
            .map_or(null_mut(), |d| to_ptr(d.to_raw()))
    })
}

#[no_mangle]
pub extern "C" fn eglGetCurrentSurface(readdraw: EGLint) -> EGLSurface {
    guard(null_mut(), || {
        match instance().get_current_surface(readdraw) {
            Ok(Some(s)) => to_ptr(s.to_raw()),
            Ok(None) | Err(_) => null_mut(),
        }
    })
}

#[no_mangle]
pub extern "C" fn eglSwapBuffers(dpy: EGLDisplay, s: EGLSurface) -> EGLBoolean {
    guard(EGL_FALSE, || boolean(swap(dpy, s)))
}

/// `eglSwapBuffersWithDamageKHR` (EGL_KHR_swap_buffers_with_damage): the display and surface
/// are checked, then the rectangles (`n_rects` negative, or positive with `rects` NULL, is
/// `EGL_BAD_PARAMETER`), then it is `eglSwapBuffers`. The damage is a hint ArenaGL does not
/// need: the whole image is presented, which every damage region allows. `rects` is never read.
#[no_mangle]
pub extern "C" fn eglSwapBuffersWithDamageKHR(
    dpy: EGLDisplay,
    s: EGLSurface,
    rects: *const EGLint,
    n_rects: EGLint,
) -> EGLBoolean {
    guard(EGL_FALSE, || {
        boolean((|| {
            let (d, sf) = (display(dpy)?, surface(s)?);
            instance().query_surface(d, sf, EGL_WIDTH)?;
            if n_rects < 0 || (n_rects > 0 && rects.is_null()) {
                return fail(EglError::BAD_PARAMETER);
            }
            swap(dpy, s)
        })())
    })
}

/// `eglSwapBuffersWithDamageEXT` (EGL_EXT_swap_buffers_with_damage): the same function.
#[no_mangle]
pub extern "C" fn eglSwapBuffersWithDamageEXT(
    dpy: EGLDisplay,
    s: EGLSurface,
    rects: *const EGLint,
    n_rects: EGLint,
) -> EGLBoolean {
    eglSwapBuffersWithDamageKHR(dpy, s, rects, n_rects)
}

/// The body of `eglSwapBuffers`.
fn swap(dpy: EGLDisplay, s: EGLSurface) -> EglResult<()> {
    let (dpy, sf) = (display(dpy)?, surface(s)?);
    instance().swap_buffers(dpy, sf)?;
    // The model checked that `sf` is this thread's current draw surface.
    let interval = instance().surface_swap_interval(dpy, sf)?;
    let stated = wayland::stated_size(sf.to_raw()).or_else(fail)?;
    let swapped = super::bridge::swap_buffers_sized(sf.to_raw(), interval, stated);
    if let (Ok(_), Some(size)) = (&swapped, stated) {
        wayland::note_attached(sf.to_raw(), size);
    }
    match swapped {
        Ok(Some((w, h))) => {
            let size = |v: u32| EGLint::try_from(v).unwrap_or(EGLint::MAX);
            instance().set_window_size(sf, size(w), size(h));
            Ok(())
        }
        Ok(None) => Ok(()),
        Err(e) => {
            if e == EglError::CONTEXT_LOST {
                // The device-lost latch: the context can no longer be made current; the
                // application destroys it and creates a new one.
                if let Some(ctx) = instance().get_current_context() {
                    instance().mark_context_lost(ctx);
                }
            }
            fail(e)
        }
    }
}

#[no_mangle]
pub extern "C" fn eglSwapInterval(dpy: EGLDisplay, interval: EGLint) -> EGLBoolean {
    guard(EGL_FALSE, || {
        boolean(display(dpy).and_then(|d| instance().swap_interval(d, interval)))
    })
}

// Errors, threads and synchronisation.

/// `eglGetError`; if even that fails, `EGL_BAD_ALLOC`.
#[no_mangle]
pub extern "C" fn eglGetError() -> EGLint {
    guard(EGL_BAD_ALLOC, || instance().get_error())
}

#[no_mangle]
pub extern "C" fn eglReleaseThread() -> EGLBoolean {
    guard(EGL_FALSE, || boolean(instance().release_thread()))
}

/// `eglWaitClient`: GL commands have nothing to wait for until the translator records them.
#[no_mangle]
pub extern "C" fn eglWaitClient() -> EGLBoolean {
    guard(EGL_FALSE, || boolean(instance().record(Ok(()))))
}

/// `eglWaitGL`: `eglWaitClient` for the OpenGL ES API, as in EGL 1.5.
#[no_mangle]
pub extern "C" fn eglWaitGL() -> EGLBoolean {
    eglWaitClient()
}

/// `eglWaitNative`: no native rendering is ever pending on ArenaGL's surfaces.
#[no_mangle]
pub extern "C" fn eglWaitNative(_engine: EGLint) -> EGLBoolean {
    guard(EGL_FALSE, || boolean(instance().record(Ok(()))))
}

// Sync objects (EGL 1.5 §3.8.1, EGL_KHR_fence_sync, EGL_KHR_wait_sync). A fence is the GL
// work of the context current at creation, submitted then (`bridge::create_fence`), so a wait
// from any thread, with or without a context, ends when the GPU reaches it.

/// `EGLSync` / `EGLSyncKHR`.
pub type EGLSync = *mut c_void;
/// `EGLTime` / `EGLTimeKHR`: nanoseconds.
pub type EGLTime = u64;

/// A sync handle, `None` for NULL or a value of another kind (the model answers both with
/// `EGL_BAD_PARAMETER`, after checking the display).
fn sync_handle(sync: EGLSync) -> Option<EglSync> {
    EglSync::from_raw(to_word(sync))
}

fn create_sync<T: arenagl_present::attrib::AttribWord>(
    dpy: EGLDisplay,
    sync_type: EGLenum,
    attribs: &[T],
    khr: bool,
) -> EglResult<EglSync> {
    let dpy = display(dpy)?;
    let sync = instance().create_sync(dpy, sync_type, attribs, khr)?;
    if !super::bridge::create_fence(sync.to_raw()) {
        // The model saw a current context, so the GL side has one too; never taken.
        let _ = instance().destroy_sync(dpy, Some(sync));
        return fail(EglError::BAD_ALLOC);
    }
    Ok(sync)
}

/// `eglCreateSync`: `EGL_SYNC_FENCE` only, no attributes.
///
/// # Safety
/// `attrib_list` is NULL or an `EGL_NONE`-terminated `EGLAttrib` list.
#[no_mangle]
pub unsafe extern "C" fn eglCreateSync(
    dpy: EGLDisplay,
    sync_type: EGLenum,
    attrib_list: *const EGLAttrib,
) -> EGLSync {
    guard(null_mut(), || {
        // SAFETY: the caller's obligation, passed on.
        let attribs = unsafe { super::attrib_list(attrib_list) };
        handle_or_null(
            create_sync(dpy, sync_type, &attribs, false),
            EglSync::to_raw,
        )
    })
}

/// `eglCreateSyncKHR`: as `eglCreateSync`, with an `EGLint` list (an unknown type is
/// `EGL_BAD_ATTRIBUTE` here, as EGL_KHR_fence_sync says).
///
/// # Safety
/// `attrib_list` is NULL or an `EGL_NONE`-terminated `EGLint` list.
#[no_mangle]
pub unsafe extern "C" fn eglCreateSyncKHR(
    dpy: EGLDisplay,
    sync_type: EGLenum,
    attrib_list: *const EGLint,
) -> EGLSync {
    guard(null_mut(), || {
        // SAFETY: the caller's obligation, passed on.
        let attribs = unsafe { super::attrib_list(attrib_list) };
        handle_or_null(create_sync(dpy, sync_type, &attribs, true), EglSync::to_raw)
    })
}

/// `eglDestroySync`.
#[no_mangle]
pub extern "C" fn eglDestroySync(dpy: EGLDisplay, sync: EGLSync) -> EGLBoolean {
    guard(EGL_FALSE, || {
        boolean((|| {
            let s = sync_handle(sync);
            instance().destroy_sync(display(dpy)?, s)?;
            if let Some(s) = s {
                super::bridge::destroy_fence(s.to_raw());
            }
            Ok(())
        })())
    })
}

/// `eglDestroySyncKHR`.
#[no_mangle]
pub extern "C" fn eglDestroySyncKHR(dpy: EGLDisplay, sync: EGLSync) -> EGLBoolean {
    eglDestroySync(dpy, sync)
}

/// The fence of a sync the model accepted.
fn fence_of(sync: Option<EglSync>) -> EglResult<arenagl_translate::gl::DeviceFence> {
    sync.and_then(|s| super::bridge::fence(s.to_raw()))
        .map_or_else(|| fail(EglError::BAD_PARAMETER), Ok)
}

/// `eglClientWaitSync`: `EGL_CONDITION_SATISFIED` (also when already signalled),
/// `EGL_TIMEOUT_EXPIRED`, or `EGL_FALSE` on error. A timeout of 0 only tests the status;
/// `EGL_FOREVER` never expires. Flags are accepted and need nothing: the fence's work was
/// submitted when it was created.
#[no_mangle]
pub extern "C" fn eglClientWaitSync(
    dpy: EGLDisplay,
    sync: EGLSync,
    _flags: EGLint,
    timeout: EGLTime,
) -> EGLint {
    guard(EGL_FALSE as EGLint, || {
        let result = (|| {
            let s = sync_handle(sync);
            instance().check_sync(display(dpy)?, s)?;
            let fence = fence_of(s)?;
            let limit = (timeout != EGL_FOREVER).then(|| std::time::Duration::from_nanos(timeout));
            match fence.wait(limit) {
                Ok(true) => Ok(EGL_CONDITION_SATISFIED),
                Ok(false) => Ok(EGL_TIMEOUT_EXPIRED),
                Err(e) => {
                    error_repeated!(error = %e, "eglClientWaitSync: the wait failed");
                    fail(EglError::BAD_ALLOC)
                }
            }
        })();
        result.unwrap_or(EGL_FALSE as EGLint)
    })
}

/// `eglClientWaitSyncKHR`.
#[no_mangle]
pub extern "C" fn eglClientWaitSyncKHR(
    dpy: EGLDisplay,
    sync: EGLSync,
    flags: EGLint,
    timeout: EGLTime,
) -> EGLint {
    eglClientWaitSync(dpy, sync, flags, timeout)
}

/// `eglWaitSync`: a server-side wait. The device has one queue that runs submissions in order
/// and the fence's work is already submitted, so every later command of the current context
/// already runs after it: the checks are all there is to do.
#[no_mangle]
pub extern "C" fn eglWaitSync(dpy: EGLDisplay, sync: EGLSync, flags: EGLint) -> EGLBoolean {
    guard(EGL_FALSE, || {
        boolean((|| {
            let s = sync_handle(sync);
            instance().check_wait_sync(display(dpy)?, s, flags)?;
            fence_of(s).map(drop)
        })())
    })
}

/// `eglWaitSyncKHR` (EGL_KHR_wait_sync returns an `EGLint`).
#[no_mangle]
pub extern "C" fn eglWaitSyncKHR(dpy: EGLDisplay, sync: EGLSync, flags: EGLint) -> EGLint {
    eglWaitSync(dpy, sync, flags) as EGLint
}

/// The value of a sync attribute (`EGL_SYNC_STATUS` read from the fence now).
fn sync_attrib(dpy: EGLDisplay, sync: EGLSync, attribute: EGLint) -> EglResult<EGLint> {
    let s = sync_handle(sync);
    match instance().sync_attrib(display(dpy)?, s, attribute)? {
        SyncAttrib::Value(v) => Ok(v),
        SyncAttrib::Status => match fence_of(s)?.is_signalled() {
            Ok(true) => Ok(EGL_SIGNALED),
            Ok(false) => Ok(EGL_UNSIGNALED),
            Err(e) => {
                error_repeated!(error = %e, "eglGetSyncAttrib: the status cannot be read");
                fail(EglError::BAD_ALLOC)
            }
        },
    }
}

/// `eglGetSyncAttrib`: `EGL_SYNC_TYPE`, `EGL_SYNC_STATUS`, `EGL_SYNC_CONDITION`; `*value` is
/// untouched on error.
///
/// # Safety
/// `value` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn eglGetSyncAttrib(
    dpy: EGLDisplay,
    sync: EGLSync,
    attribute: EGLint,
    value: *mut EGLAttrib,
) -> EGLBoolean {
    guard(EGL_FALSE, || {
        boolean((|| {
            let v = sync_attrib(dpy, sync, attribute)?;
            // SAFETY: the caller's obligation on `value`, passed on.
            unsafe { write_out(value, v as EGLAttrib) }
        })())
    })
}

/// `eglGetSyncAttribKHR`: as `eglGetSyncAttrib`, into an `EGLint`.
///
/// # Safety
/// `value` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn eglGetSyncAttribKHR(
    dpy: EGLDisplay,
    sync: EGLSync,
    attribute: EGLint,
    value: *mut EGLint,
) -> EGLBoolean {
    guard(EGL_FALSE, || {
        boolean((|| {
            let v = sync_attrib(dpy, sync, attribute)?;
            // SAFETY: the caller's obligation on `value`, passed on.
            unsafe { write_out(value, v) }
        })())
    })
}

// Images (EGL 1.5 §3.9, EGL_KHR_image_base, EGL_KHR_gl_texture_2D_image,
// EGL_KHR_gl_texture_cubemap_image, EGL_KHR_gl_renderbuffer_image). The images
// themselves, and the GL side that uses them, are the translator's (`texture/egl_image.rs`).

/// `EGLImage` / `EGLImageKHR`.
pub type EGLImage = *mut c_void;
/// `EGL_GL_TEXTURE_2D` (`EGL_GL_TEXTURE_2D_KHR`).
const EGL_GL_TEXTURE_2D: EGLenum = 0x30B1;
/// `EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_X`; the other five faces follow it.
const EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_X: EGLenum = 0x30B3;
/// `EGL_GL_RENDERBUFFER` (`EGL_GL_RENDERBUFFER_KHR`).
const EGL_GL_RENDERBUFFER: EGLenum = 0x30B9;
/// `EGL_GL_TEXTURE_LEVEL` (`EGL_GL_TEXTURE_LEVEL_KHR`).
const EGL_GL_TEXTURE_LEVEL: i64 = 0x30BC;
/// `EGL_IMAGE_PRESERVED_KHR`: accepted; texels are always preserved here.
const EGL_IMAGE_PRESERVED: i64 = 0x30D2;

/// The texture level an image attribute list names (0 by default); `EGL_BAD_PARAMETER` for
/// another attribute.
fn image_level<T: arenagl_present::attrib::AttribWord>(attribs: &[T]) -> EglResult<i32> {
    let mut level = 0;
    for pair in attribs.chunks_exact(2) {
        match pair[0].to_i64() {
            EGL_GL_TEXTURE_LEVEL => {
                level = i32::try_from(pair[1].to_i64()).or_else(|_| fail(EglError::BAD_MATCH))?
            }
            EGL_IMAGE_PRESERVED => {}
            _ => return fail(EglError::BAD_PARAMETER),
        }
    }
    Ok(level)
}

fn create_image<T: arenagl_present::attrib::AttribWord>(
    dpy: EGLDisplay,
    ctx: EGLContext,
    target: EGLenum,
    buffer: *mut c_void,
    attribs: &[T],
) -> EglResult<u64> {
    let d = display(dpy)?;
    // Checks the display (initialised) and that the context is one of its contexts.
    instance().query_context(d, context(ctx)?, EGL_CONTEXT_CLIENT_TYPE)?;
    use arenagl_translate::gl::EglImageSource;
    let level = image_level(attribs)?;
    let name = u32::try_from(to_word(buffer)).or_else(|_| fail(EglError::BAD_PARAMETER))?;
    let face = target.wrapping_sub(EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_X);
    let source = match target {
        EGL_GL_TEXTURE_2D => EglImageSource::Texture2D {
            texture: name,
            level,
        },
        _ if face < 6 => EglImageSource::CubeFace {
            texture: name,
            face,
            level,
        },
        EGL_GL_RENDERBUFFER => EglImageSource::Renderbuffer(name),
        _ => return fail(EglError::BAD_PARAMETER),
    };
    let made =
        super::bridge::with_context(to_word(ctx), |c| c.create_egl_image(d.to_raw(), source));
    match made {
        Some(Ok(image)) => instance().record(Ok(image)),
        Some(Err(arenagl_translate::gl::EglImageError::BadMatch)) => fail(EglError::BAD_MATCH),
        Some(Err(arenagl_translate::gl::EglImageError::BadAccess)) => fail(EglError::BAD_ACCESS),
        Some(Err(_)) | None => fail(EglError::BAD_PARAMETER),
    }
}

/// `eglCreateImage`: images of a context's 2D texture, cube-map face or renderbuffer.
///
/// # Safety
/// `attrib_list` is NULL or an `EGL_NONE`-terminated `EGLAttrib` list.
#[no_mangle]
pub unsafe extern "C" fn eglCreateImage(
    dpy: EGLDisplay,
    ctx: EGLContext,
    target: EGLenum,
    buffer: *mut c_void,
    attrib_list: *const EGLAttrib,
) -> EGLImage {
    guard(null_mut(), || {
        // SAFETY: the caller's obligation, passed on.
        let attribs = unsafe { super::attrib_list(attrib_list) };
        handle_or_null(create_image(dpy, ctx, target, buffer, &attribs), |h| h)
    })
}

/// `eglCreateImageKHR`: as `eglCreateImage`, with an `EGLint` list.
///
/// # Safety
/// `attrib_list` is NULL or an `EGL_NONE`-terminated `EGLint` list.
#[no_mangle]
pub unsafe extern "C" fn eglCreateImageKHR(
    dpy: EGLDisplay,
    ctx: EGLContext,
    target: EGLenum,
    buffer: *mut c_void,
    attrib_list: *const EGLint,
) -> EGLImage {
    guard(null_mut(), || {
        // SAFETY: the caller's obligation, passed on.
        let attribs = unsafe { super::attrib_list(attrib_list) };
        handle_or_null(create_image(dpy, ctx, target, buffer, &attribs), |h| h)
    })
}

/// `eglDestroyImage`: an image of another display, or none, is `EGL_BAD_PARAMETER`.
#[no_mangle]
pub extern "C" fn eglDestroyImage(dpy: EGLDisplay, image: EGLImage) -> EGLBoolean {
    guard(EGL_FALSE, || {
        boolean((|| {
            let d = display(dpy)?;
            // Checks the display is initialised.
            instance().query_string(Some(d), EGL_VENDOR)?;
            if !arenagl_translate::gl::destroy_egl_image(d.to_raw(), to_word(image)) {
                return fail(EglError::BAD_PARAMETER);
            }
            instance().record(Ok(()))
        })())
    })
}

/// `eglDestroyImageKHR`.
#[no_mangle]
pub extern "C" fn eglDestroyImageKHR(dpy: EGLDisplay, image: EGLImage) -> EGLBoolean {
    eglDestroyImage(dpy, image)
}

// eglGetProcAddress.

proc_table!(
    eglGetDisplay,
    eglGetPlatformDisplay,
    eglGetPlatformDisplayEXT,
    eglQueryDevicesEXT,
    eglQueryDisplayAttribEXT,
    eglQueryDeviceStringEXT,
    eglInitialize,
    eglTerminate,
    eglQueryString,
    eglGetConfigs,
    eglChooseConfig,
    eglGetConfigAttrib,
    eglBindAPI,
    eglQueryAPI,
    eglCreateContext,
    eglDestroyContext,
    eglQueryContext,
    eglCreatePbufferSurface,
    eglCreateWindowSurface,
    eglCreatePlatformWindowSurface,
    eglCreatePlatformWindowSurfaceEXT,
    eglDestroySurface,
    eglQuerySurface,
    eglSurfaceAttrib,
    eglMakeCurrent,
    eglGetCurrentContext,
    eglGetCurrentSurface,
    eglGetCurrentDisplay,
    eglSwapBuffers,
    eglSwapBuffersWithDamageKHR,
    eglSwapBuffersWithDamageEXT,
    eglSwapInterval,
    eglGetError,
    eglReleaseThread,
    eglWaitClient,
    eglWaitGL,
    eglWaitNative,
    eglCreateSync,
    eglCreateSyncKHR,
    eglDestroySync,
    eglDestroySyncKHR,
    eglClientWaitSync,
    eglClientWaitSyncKHR,
    eglWaitSync,
    eglWaitSyncKHR,
    eglGetSyncAttrib,
    eglGetSyncAttribKHR,
    eglCreateImage,
    eglCreateImageKHR,
    eglDestroyImage,
    eglDestroyImageKHR,
    eglGetProcAddress,
);

/// `eglGetProcAddress`: the EGL functions above by name; anything else, GL names included, is
/// NULL until the translator's entry points exist. The C return type is a function pointer
/// (`__eglMustCastToProperFunctionPointerType`); a `void *` is the same word in every 64-bit ABI
/// we build for. Sets no error, as the spec says.
///
/// # Safety
/// `procname` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn eglGetProcAddress(procname: *const c_char) -> *mut c_void {
    guard(null_mut(), || {
        if procname.is_null() {
            return null_mut();
        }
        // SAFETY: non-NULL, and the caller guarantees a NUL-terminated string.
        let name = unsafe { CStr::from_ptr(procname) }.to_bytes();
        let found = lookup(name);
        if found.is_null() {
            super::gl::lookup(name)
        } else {
            found
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_name_resolves_and_others_do_not() {
        for name in PROC_NAMES {
            assert!(!lookup(name.as_bytes()).is_null(), "{name}");
        }
        assert!(
            lookup(b"glClear").is_null(),
            "GL names come from the GL table"
        );
        assert!(!super::super::gl::lookup(b"glClear").is_null());
        assert!(lookup(b"eglNotAThing").is_null());
        // SAFETY: NULL is allowed.
        assert!(unsafe { eglGetProcAddress(std::ptr::null()) }.is_null());
    }

    #[test]
    fn query_string_on_a_wrong_kind_handle_is_bad_display() {
        let bogus = to_ptr(the_device().to_raw());
        assert!(eglQueryString(bogus, EGL_VENDOR).is_null());
        assert_eq!(eglGetError(), EGL_BAD_DISPLAY);
    }
}
