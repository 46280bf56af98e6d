//! GLX 1.4 in `libarenagl.so`: a thin layer over the EGL object model and `bridge.rs`.
//!
//! Design (`docs/window-systems.md` has the full account):
//! - Each `Display*` gets its X11 EGL display (`eglGetDisplay` + `eglInitialize`, once); GLXFBConfigs
//!   are that display's EGL configs (the pointer value is the EGL config handle) and their visuals
//!   are the ones the EGL model tied them to, so GLX and EGL always agree.
//! - A GLX context is an EGL context (OpenGL API; the pointer value is the EGL context handle); a
//!   GLX window is the X window itself with an EGL window surface made on first
//!   `glXMakeCurrent`/`glXCreateWindow`, so swapchains stay with the memory manager; a pbuffer is an
//!   EGL pbuffer under an XID no X resource can have (`state::next_pbuffer_xid`).
//! - Errors are X protocol errors delivered to the program's X error handler (`x11::deliver_error`,
//!   as Mesa's `_XError` path does) plus the spec's failure value, and a rate-limited log line. A
//!   NULL `Display*` has no handler to reach: only the failure value and the log.
//! - Nothing panics across the ABI: every entry point runs in [`guard`].

mod context;
mod drawable;
mod fbconfig;
pub mod glvnd;
mod state;

use std::ffi::{c_char, c_int, c_ulong, c_void, CStr};
use std::ptr::null_mut;

use arenagl_present::egl::*;
use arenagl_present::{Config, Display};

use super::guard::guard;
use super::x11::{self, XDisplay, XError, XVisualInfo};
use super::{instance, to_ptr, to_word};
use fbconfig::*;

pub use context::*;
pub use drawable::*;

/// Xlib's `Bool`.
pub type Bool = c_int;
/// An XID: `GLXDrawable`, `GLXWindow`, `GLXPbuffer`, `GLXPixmap`, `Font` — an `unsigned long`,
/// 64 bits on the LP64 targets ArenaGL builds for (see `lib.rs`).
pub type Xid = u64;
pub type GLXFBConfig = *mut c_void;
pub type GLXContext = *mut c_void;

const TRUE: Bool = 1;
const FALSE: Bool = 0;

/// GLX error numbers (offset by the server's GLX first error when delivered).
const GLX_BAD_CONTEXT_ERR: XError = XError::Glx(0);
const GLX_BAD_DRAWABLE_ERR: XError = XError::Glx(2);
const GLX_BAD_PIXMAP_ERR: XError = XError::Glx(3);
const GLX_BAD_FBCONFIG_ERR: XError = XError::Glx(9);
const GLX_BAD_PBUFFER_ERR: XError = XError::Glx(10);
const GLX_BAD_WINDOW_ERR: XError = XError::Glx(12);
const GLX_BAD_PROFILE_ERR: XError = XError::Glx(13);
const BAD_ACCESS: XError = XError::Core(10);
const BAD_WINDOW: XError = XError::Core(3);

/// GLX request minor opcodes, for the error events.
mod op {
    pub const CREATE_CONTEXT: u8 = 3;
    pub const DESTROY_CONTEXT: u8 = 4;
    pub const COPY_CONTEXT: u8 = 10;
    pub const MAKE_CURRENT: u8 = 5;
    pub const IS_DIRECT: u8 = 6;
    pub const SWAP_BUFFERS: u8 = 11;
    pub const USE_X_FONT: u8 = 12;
    pub const CREATE_GLX_PIXMAP: u8 = 13;
    pub const GET_VISUAL_CONFIGS: u8 = 14;
    pub const GET_FB_CONFIGS: u8 = 21;
    pub const CREATE_PIXMAP: u8 = 22;
    pub const DESTROY_PIXMAP: u8 = 23;
    pub const CREATE_NEW_CONTEXT: u8 = 24;
    pub const QUERY_CONTEXT: u8 = 25;
    pub const MAKE_CONTEXT_CURRENT: u8 = 26;
    pub const CREATE_PBUFFER: u8 = 27;
    pub const DESTROY_PBUFFER: u8 = 28;
    pub const GET_DRAWABLE_ATTRIBUTES: u8 = 29;
    pub const CHANGE_DRAWABLE_ATTRIBUTES: u8 = 30;
    pub const CREATE_WINDOW: u8 = 31;
    pub const DESTROY_WINDOW: u8 = 32;
    pub const CREATE_CONTEXT_ATTRIBS: u8 = 34;
}

/// A failed GLX call: the X error to deliver and the resource it is about.
#[derive(Debug, Clone, Copy)]
struct Fail {
    error: XError,
    resource: u64,
}

/// `fail!(ERROR, RESOURCE, "message", fields…)`: makes the [`Fail`] and logs it at `info`,
/// rate-limited per call site as `error_repeated!` is: the program hears of the failure through
/// its X error handler (as GL errors are logged at `info` beside `glGetError`), and programs
/// probe with failing calls on purpose (glxinfo tries GL 4.6 down to 3.4 first). Failures no
/// handler can hear of (a NULL `Display*`, no libX11) are logged with `error_repeated!`.
macro_rules! fail {
    ($error:expr, $resource:expr, $($msg:tt)+) => {{
        static SEEN: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = SEEN.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if n <= 5 || n % 1000 == 0 {
            tracing::info!(total = n, $($msg)+);
        }
        Fail { error: $error, resource: $resource as u64 }
    }};
}
use fail;

/// Runs a GLX entry point's body inside the panic guard; a [`Fail`] is delivered to the
/// program's X error handler (after every lock is released) and `failure` returned.
fn run<T: Copy>(dpy: XDisplay, minor: u8, failure: T, body: impl FnOnce() -> Result<T, Fail>) -> T {
    // GLX errors come before any context opens the device (which installs the log otherwise).
    super::bridge::init_logging();
    guard(failure, || match body() {
        Ok(v) => v,
        Err(f) => {
            report(dpy, minor, f);
            failure
        }
    })
}

fn report(dpy: XDisplay, minor: u8, f: Fail) {
    let Some(x) = x11::xlib() else {
        return;
    };
    if !x11::plausible_display(dpy) {
        return;
    }
    // SAFETY: a non-NULL `Display*` the program passed to a GLX call, which GLX requires to be a
    // live connection.
    unsafe { x11::deliver_error(x, dpy, f.error, f.resource, minor) };
}

/// The X error for an EGL error of the call GLX made on the program's behalf.
fn x_error_of(egl: EGLint) -> XError {
    match egl {
        EGL_BAD_MATCH => x11::BAD_MATCH,
        EGL_BAD_CONFIG => GLX_BAD_FBCONFIG_ERR,
        EGL_BAD_CONTEXT => GLX_BAD_CONTEXT_ERR,
        EGL_BAD_SURFACE | EGL_BAD_NATIVE_WINDOW => GLX_BAD_DRAWABLE_ERR,
        EGL_BAD_ACCESS => BAD_ACCESS,
        EGL_BAD_ATTRIBUTE | EGL_BAD_PARAMETER => x11::BAD_VALUE,
        _ => x11::BAD_ALLOC,
    }
}

/// The EGL error the last EGL call of this thread left.
fn egl_error() -> EGLint {
    instance().get_error()
}

/// libX11 and a non-NULL display, or the failure (a NULL display reaches no handler).
fn xlib_for(dpy: XDisplay) -> Result<&'static x11::Xlib, Fail> {
    if !x11::plausible_display(dpy) {
        error_repeated!(dpy = dpy.addr(), "GLX: NULL or invalid Display*");
        return Err(Fail {
            error: x11::BAD_MATCH,
            resource: 0,
        });
    }
    x11::xlib().ok_or_else(|| {
        error_repeated!("GLX: libX11.so.6 cannot be loaded");
        Fail {
            error: x11::BAD_ALLOC,
            resource: 0,
        }
    })
}

/// The initialized X11 EGL display of `dpy` (made on first use).
fn egl_display(dpy: XDisplay) -> Result<Display, Fail> {
    xlib_for(dpy)?;
    if let Some(&d) = state::state().displays.get(&dpy.addr()) {
        return Display::from_raw(d).ok_or(Fail {
            error: x11::BAD_ALLOC,
            resource: 0,
        });
    }
    let raw = super::egl::eglGetDisplay(dpy);
    // SAFETY: NULL out-pointers are allowed.
    let ok = unsafe { super::egl::eglInitialize(raw, null_mut(), null_mut()) };
    let d = Display::from_raw(to_word(raw)).filter(|_| ok == EGL_TRUE as u32);
    let Some(d) = d else {
        return Err(fail!(
            x11::BAD_ALLOC,
            0,
            "GLX: no EGL display for the connection"
        ));
    };
    state::state().displays.insert(dpy.addr(), d.to_raw());
    Ok(d)
}

/// The default screen of `dpy`.
fn default_screen(dpy: XDisplay) -> Result<c_int, Fail> {
    let x = xlib_for(dpy)?;
    // SAFETY: a non-NULL display the program passed in.
    Ok(unsafe { x.default_screen_of(dpy) })
}

/// `Ok(true)` for the default screen, `Ok(false)` for another screen of the display (no configs:
/// ArenaGL serves the default screen only), `Err` for no screen at all.
fn check_screen(dpy: XDisplay, screen: c_int) -> Result<bool, Fail> {
    let x = xlib_for(dpy)?;
    // SAFETY: a non-NULL display the program passed in.
    if !unsafe { x.has_screen(dpy, screen) } {
        return Err(fail!(x11::BAD_VALUE, screen, screen, "GLX: no such screen"));
    }
    Ok(screen == default_screen(dpy)?)
}

/// The FBConfig a `GLXFBConfig` pointer names on `dpy`, or `GLXBadFBConfig`.
fn fbconfig(dpy: XDisplay, config: GLXFBConfig) -> Result<FbConfig, Fail> {
    let display = egl_display(dpy)?;
    let screen = default_screen(dpy)?;
    let word = to_word(config);
    let valid = Config::from_raw(word).filter(|&c| {
        instance()
            .get_config_attrib(display, c, EGL_CONFIG_ID)
            .is_ok()
    });
    match valid {
        Some(config) => Ok(FbConfig {
            display,
            config,
            screen,
        }),
        None => Err(fail!(
            GLX_BAD_FBCONFIG_ERR,
            0,
            word,
            "GLX: not a GLXFBConfig"
        )),
    }
}

/// The config behind visual `vis`: the one last chosen for it, else the visual's default.
///
/// # Safety
/// `vis` is NULL or points at an `XVisualInfo`.
unsafe fn config_of_visual(
    dpy: XDisplay,
    vis: *const XVisualInfo,
) -> Result<Option<FbConfig>, Fail> {
    let display = egl_display(dpy)?;
    let screen = default_screen(dpy)?;
    // SAFETY: the caller's obligation.
    let Some(vis) = (unsafe { vis.as_ref() }) else {
        return Err(fail!(x11::BAD_VALUE, 0, "GLX: NULL XVisualInfo"));
    };
    let Ok(id) = u32::try_from(vis.visualid) else {
        return Ok(None);
    };
    let configs = all(display, screen);
    let hint = state::state().visual_hints.get(&(dpy.addr(), id)).copied();
    let hinted = hint.and_then(|h| configs.iter().find(|c| c.config.to_raw() == h).copied());
    Ok(hinted.or_else(|| default_for_visual(&configs, id)))
}

/// An Xlib-allocated `XVisualInfo` for `cfg`'s visual (NULL without one), remembering that this
/// visual stands for `cfg`.
fn visual_info_for(dpy: XDisplay, cfg: &FbConfig) -> Result<*mut XVisualInfo, Fail> {
    let x = xlib_for(dpy)?;
    let id = cfg.visual_id();
    if id == 0 {
        return Ok(null_mut());
    }
    state::state()
        .visual_hints
        .insert((dpy.addr(), id), cfg.config.to_raw());
    // SAFETY: a non-NULL display the program passed in.
    Ok(unsafe { x.visual_info_ptr(dpy, cfg.screen, id) })
}

extern "C" {
    /// The C allocator: GLX's returned arrays are freed by the program with `XFree` (`free`).
    fn malloc(size: usize) -> *mut c_void;
}

/// A `malloc`ed array of the configs' handles, its length written to `n`; NULL for none.
///
/// # Safety
/// `n` is NULL or valid for one write.
unsafe fn config_array(configs: &[FbConfig], n: *mut c_int) -> *mut GLXFBConfig {
    let array = if configs.is_empty() {
        null_mut()
    } else {
        let bytes = configs.len() * std::mem::size_of::<GLXFBConfig>();
        // SAFETY: a plain allocation of one pointer per config.
        unsafe { malloc(bytes) }.cast::<GLXFBConfig>()
    };
    let written = if array.is_null() { 0 } else { configs.len() };
    for (i, c) in configs.iter().take(written).enumerate() {
        // SAFETY: `i < configs.len()`: within the allocation of one pointer per config.
        unsafe { array.add(i).write(to_ptr(c.config.to_raw())) };
    }
    if !n.is_null() {
        // SAFETY: non-NULL, the caller guarantees it is writable (a few dozen configs fit).
        unsafe { n.write(c_int::try_from(written).unwrap_or(0)) };
    }
    array
}

/// Copies a `glXChooseFBConfig` list (`key, value` pairs up to the key `None`), bounded.
///
/// # Safety
/// `list` is NULL or readable up to its terminating key or 512 words.
unsafe fn fbconfig_pairs(list: *const c_int) -> Vec<(c_int, c_int)> {
    let mut pairs = Vec::new();
    if list.is_null() {
        return pairs;
    }
    for i in (0..512).step_by(2) {
        // SAFETY: the caller guarantees words up to the terminator are readable.
        let key = unsafe { list.add(i).read_unaligned() };
        if key == 0 {
            break;
        }
        // SAFETY: a key other than `None` is followed by its value.
        pairs.push((key, unsafe { list.add(i + 1).read_unaligned() }));
    }
    pairs
}

/// Copies a `glXChooseVisual` list (standalone boolean keys, `key, value` otherwise), bounded.
///
/// # Safety
/// `list` is NULL or readable up to its terminating key or 512 words.
unsafe fn visual_words(list: *const c_int) -> Vec<c_int> {
    let mut words = Vec::new();
    if list.is_null() {
        return words;
    }
    let mut i = 0;
    while i < 512 {
        // SAFETY: the caller guarantees words up to the terminator are readable.
        let key = unsafe { list.add(i).read_unaligned() };
        words.push(key);
        i += 1;
        match key {
            0 => break,
            GLX_RGBA | GLX_USE_GL | GLX_DOUBLEBUFFER | GLX_STEREO => {}
            _ => {
                // SAFETY: a valued key is followed by its value.
                words.push(unsafe { list.add(i).read_unaligned() });
                i += 1;
            }
        }
    }
    words
}

// Extension, version and strings.

const VENDOR: &CStr = c"ArenaGL";
const VERSION: &CStr = c"1.4";
const EXTENSIONS: &CStr = c"GLX_ARB_create_context GLX_ARB_create_context_profile \
GLX_ARB_create_context_robustness GLX_ARB_create_context_no_error GLX_ARB_framebuffer_sRGB GLX_ARB_get_proc_address \
GLX_ARB_multisample GLX_EXT_framebuffer_sRGB GLX_EXT_swap_control GLX_EXT_visual_info GLX_MESA_swap_control GLX_SGI_swap_control";

const GLX_VENDOR: c_int = 1;
const GLX_VERSION: c_int = 2;
const GLX_EXTENSIONS: c_int = 3;

/// `glXQueryExtension`: GLX is always there (rendering is client-side; the server needs no GLX
/// extension). The bases are the server's GLX codes when it has the extension, else 0.
///
/// # Safety
/// `error_base` and `event_base` are each NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn glXQueryExtension(
    dpy: XDisplay,
    error_base: *mut c_int,
    event_base: *mut c_int,
) -> Bool {
    run(dpy, 0, FALSE, || {
        let x = xlib_for(dpy)?;
        // SAFETY: a non-NULL display the program passed in.
        let (error, event) = unsafe { x.glx_bases(dpy) };
        for (out, v) in [(error_base, error), (event_base, event)] {
            if !out.is_null() {
                // SAFETY: non-NULL, the caller guarantees one write.
                unsafe { out.write(v) };
            }
        }
        Ok(TRUE)
    })
}

/// `glXQueryVersion`: 1.4.
///
/// # Safety
/// `major` and `minor` are each NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn glXQueryVersion(
    dpy: XDisplay,
    major: *mut c_int,
    minor: *mut c_int,
) -> Bool {
    run(dpy, 0, FALSE, || {
        xlib_for(dpy)?;
        for (out, v) in [(major, 1), (minor, 4)] {
            if !out.is_null() {
                // SAFETY: non-NULL, the caller guarantees one write.
                unsafe { out.write(v) };
            }
        }
        Ok(TRUE)
    })
}

fn string(name: c_int) -> *const c_char {
    match name {
        GLX_VENDOR => VENDOR.as_ptr(),
        GLX_VERSION => VERSION.as_ptr(),
        GLX_EXTENSIONS => EXTENSIONS.as_ptr(),
        _ => std::ptr::null(),
    }
}

#[no_mangle]
pub extern "C" fn glXGetClientString(dpy: XDisplay, name: c_int) -> *const c_char {
    guard(std::ptr::null(), || {
        let _ = dpy;
        string(name)
    })
}

#[no_mangle]
pub extern "C" fn glXQueryServerString(dpy: XDisplay, screen: c_int, name: c_int) -> *const c_char {
    run(dpy, 0, std::ptr::null(), || {
        check_screen(dpy, screen)?;
        Ok(string(name))
    })
}

#[no_mangle]
pub extern "C" fn glXQueryExtensionsString(dpy: XDisplay, screen: c_int) -> *const c_char {
    run(dpy, 0, std::ptr::null(), || {
        check_screen(dpy, screen)?;
        Ok(EXTENSIONS.as_ptr())
    })
}

// Configs and visuals.

/// `glXGetFBConfigs`: every config of the default screen (NULL and 0 for other screens).
///
/// # Safety
/// `nelements` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn glXGetFBConfigs(
    dpy: XDisplay,
    screen: c_int,
    nelements: *mut c_int,
) -> *mut GLXFBConfig {
    // SAFETY: the caller's obligation on `nelements`.
    unsafe {
        config_list(dpy, nelements, || {
            Ok(match check_screen(dpy, screen)? {
                true => all(egl_display(dpy)?, screen),
                false => Vec::new(),
            })
        })
    }
}

/// A config-list call (`glXGetFBConfigs`, `glXChooseFBConfig`): the configs `choose` picks as
/// a [`config_array`]; NULL and 0 when it fails (its error delivered).
///
/// # Safety
/// `nelements` is NULL or valid for one write.
unsafe fn config_list(
    dpy: XDisplay,
    nelements: *mut c_int,
    choose: impl FnOnce() -> Result<Vec<FbConfig>, Fail>,
) -> *mut GLXFBConfig {
    let result = run(dpy, op::GET_FB_CONFIGS, None, || {
        let configs = choose()?;
        // SAFETY: the caller's obligation on `nelements`.
        Ok(Some(unsafe { config_array(&configs, nelements) }))
    });
    result.unwrap_or_else(|| {
        // SAFETY: the caller's obligation on `nelements`.
        unsafe { config_array(&[], nelements) }
    })
}

/// `glXChooseFBConfig`: the matching configs, best first; NULL for none or an unknown attribute.
///
/// # Safety
/// `attrib_list` is NULL or a `None`-terminated list; `nelements` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn glXChooseFBConfig(
    dpy: XDisplay,
    screen: c_int,
    attrib_list: *const c_int,
    nelements: *mut c_int,
) -> *mut GLXFBConfig {
    // SAFETY: the caller's obligations on `attrib_list` and `nelements`.
    unsafe {
        config_list(dpy, nelements, || {
            let pairs = fbconfig_pairs(attrib_list);
            Ok(
                match (
                    check_screen(dpy, screen)?,
                    Request::from_fbconfig_list(&pairs),
                ) {
                    (true, Ok(request)) => request.choose(&all(egl_display(dpy)?, screen)),
                    (_, Err(key)) => {
                        error_repeated!(key, "glXChooseFBConfig: not an FBConfig attribute");
                        Vec::new()
                    }
                    (false, _) => Vec::new(),
                },
            )
        })
    }
}

/// `glXGetFBConfigAttrib`: `Success` (0), `GLX_BAD_ATTRIBUTE`, or `GLXBadFBConfig` for a
/// pointer that is no config (returned, and delivered as an X error).
///
/// # Safety
/// `value` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn glXGetFBConfigAttrib(
    dpy: XDisplay,
    config: GLXFBConfig,
    attribute: c_int,
    value: *mut c_int,
) -> c_int {
    run(dpy, op::GET_FB_CONFIGS, 9, || {
        let cfg = fbconfig(dpy, config)?;
        let Some(v) = cfg.attrib(attribute) else {
            return Ok(GLX_BAD_ATTRIBUTE);
        };
        if value.is_null() {
            return Ok(GLX_BAD_VALUE);
        }
        // SAFETY: non-NULL, the caller guarantees one write.
        unsafe { value.write(v) };
        Ok(0)
    })
}

const GLX_NO_EXTENSION: c_int = 3;
const GLX_BAD_VALUE: c_int = 6;

/// `glXGetVisualFromFBConfig`: the config's visual (free with `XFree`), NULL if it has none.
#[no_mangle]
pub extern "C" fn glXGetVisualFromFBConfig(dpy: XDisplay, config: GLXFBConfig) -> *mut XVisualInfo {
    run(dpy, op::GET_FB_CONFIGS, null_mut(), || {
        let cfg = fbconfig(dpy, config)?;
        visual_info_for(dpy, &cfg)
    })
}

/// `glXChooseVisual`: the best window config's visual (free with `XFree`); NULL for none.
///
/// # Safety
/// `attrib_list` is NULL or a `None`-terminated GLX 1.2 list.
#[no_mangle]
pub unsafe extern "C" fn glXChooseVisual(
    dpy: XDisplay,
    screen: c_int,
    attrib_list: *mut c_int,
) -> *mut XVisualInfo {
    run(dpy, op::GET_VISUAL_CONFIGS, null_mut(), || {
        // SAFETY: the caller's obligation on `attrib_list`.
        let words = unsafe { visual_words(attrib_list) };
        if !check_screen(dpy, screen)? {
            return Ok(null_mut());
        }
        let request = match Request::from_visual_list(&words) {
            Ok(r) => r,
            Err(key) => {
                error_repeated!(
                    key,
                    "glXChooseVisual: unsupported attribute (or no GLX_RGBA)"
                );
                return Ok(null_mut());
            }
        };
        match request.choose(&all(egl_display(dpy)?, screen)).first() {
            Some(cfg) => visual_info_for(dpy, cfg),
            None => Ok(null_mut()),
        }
    })
}

/// `glXGetConfig`: `Success`, `GLX_BAD_VISUAL` (not a GL visual; `GLX_USE_GL` then answers
/// False), `GLX_BAD_ATTRIBUTE`, `GLX_NO_EXTENSION` (no display).
///
/// # Safety
/// `vis` is NULL or an `XVisualInfo`; `value` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn glXGetConfig(
    dpy: XDisplay,
    vis: *mut XVisualInfo,
    attrib: c_int,
    value: *mut c_int,
) -> c_int {
    if !x11::plausible_display(dpy) {
        return GLX_NO_EXTENSION;
    }
    run(dpy, 0, GLX_BAD_VISUAL, || {
        if vis.is_null() || value.is_null() {
            return Ok(if vis.is_null() {
                GLX_BAD_VISUAL
            } else {
                GLX_BAD_VALUE
            });
        }
        // SAFETY: the caller's obligation on `vis`.
        let cfg = unsafe { config_of_visual(dpy, vis) }?;
        let answer = match cfg {
            Some(c) => c.attrib(attrib).ok_or(GLX_BAD_ATTRIBUTE),
            None if attrib == GLX_USE_GL => Ok(FALSE),
            None => Err(GLX_BAD_VISUAL),
        };
        Ok(match answer {
            Ok(v) => {
                // SAFETY: non-NULL, the caller guarantees one write.
                unsafe { value.write(v) };
                0
            }
            Err(code) => code,
        })
    })
}

// glXGetProcAddress.

proc_table!(
    glXQueryExtension,
    glXQueryVersion,
    glXGetClientString,
    glXQueryServerString,
    glXQueryExtensionsString,
    glXChooseVisual,
    glXGetConfig,
    glXChooseFBConfig,
    glXGetFBConfigs,
    glXGetFBConfigAttrib,
    glXGetVisualFromFBConfig,
    glXCreateContext,
    glXCreateNewContext,
    glXCreateContextAttribsARB,
    glXDestroyContext,
    glXCopyContext,
    glXIsDirect,
    glXMakeCurrent,
    glXMakeContextCurrent,
    glXGetCurrentContext,
    glXGetCurrentDrawable,
    glXGetCurrentReadDrawable,
    glXGetCurrentDisplay,
    glXQueryContext,
    glXSwapBuffers,
    glXCreateWindow,
    glXDestroyWindow,
    glXCreatePbuffer,
    glXDestroyPbuffer,
    glXCreatePixmap,
    glXDestroyPixmap,
    glXCreateGLXPixmap,
    glXDestroyGLXPixmap,
    glXQueryDrawable,
    glXSelectEvent,
    glXGetSelectedEvent,
    glXWaitGL,
    glXWaitX,
    glXUseXFont,
    glXSwapIntervalEXT,
    glXSwapIntervalMESA,
    glXGetSwapIntervalMESA,
    glXSwapIntervalSGI,
    glXGetProcAddress,
    glXGetProcAddressARB,
);

/// `glXGetProcAddress`: the GLX functions above and every GL entry point (the same ones
/// `eglGetProcAddress` gives); NULL for anything else.
///
/// # Safety
/// `name` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn glXGetProcAddress(name: *const u8) -> *mut c_void {
    guard(null_mut(), || {
        if name.is_null() {
            return null_mut();
        }
        // SAFETY: non-NULL, and the caller guarantees a NUL-terminated string.
        let name = unsafe { CStr::from_ptr(name.cast()) }.to_bytes();
        let found = lookup(name);
        if found.is_null() {
            super::gl::lookup(name)
        } else {
            found
        }
    })
}

/// `glXGetProcAddressARB`: the same as `glXGetProcAddress`.
///
/// # Safety
/// `name` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn glXGetProcAddressARB(name: *const u8) -> *mut c_void {
    // SAFETY: the caller's obligation, passed on.
    unsafe { glXGetProcAddress(name) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_name_resolves_and_gl_names_too() {
        for name in PROC_NAMES {
            assert!(!lookup(name.as_bytes()).is_null(), "{name}");
        }
        // SAFETY: NUL-terminated names and NULL.
        unsafe {
            assert!(!glXGetProcAddressARB(c"glClear".as_ptr().cast()).is_null());
            assert!(!glXGetProcAddress(c"glXSwapIntervalEXT".as_ptr().cast()).is_null());
            assert!(glXGetProcAddress(c"glXNotAThing".as_ptr().cast()).is_null());
            assert!(glXGetProcAddress(std::ptr::null()).is_null());
        }
    }

    #[test]
    fn null_display_is_a_failure_not_a_crash() {
        // SAFETY: NULL display and NULL out-pointers are what is being tested.
        unsafe {
            assert_eq!(glXQueryVersion(null_mut(), null_mut(), null_mut()), FALSE);
            assert!(glXChooseVisual(null_mut(), 0, null_mut()).is_null());
            let mut n = 7;
            assert!(glXGetFBConfigs(null_mut(), 0, &mut n).is_null());
            assert_eq!(n, 0);
            assert!(glXCreateContext(null_mut(), null_mut(), null_mut(), TRUE).is_null());
            assert_eq!(glXMakeCurrent(null_mut(), 5, 0x77 as GLXContext), FALSE);
            assert_eq!(
                glXGetConfig(null_mut(), null_mut(), 1, &mut n),
                GLX_NO_EXTENSION
            );
        }
        glXSwapBuffers(null_mut(), 5);
    }
}
