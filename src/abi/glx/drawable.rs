//! GLX drawables over EGL surfaces: windows (the X window itself, its EGL window surface made on
//! first use or by `glXCreateWindow`), pbuffers, `glXSwapBuffers`, `glXQueryDrawable`, and the
//! EXT/MESA/SGI swap-control extensions. Pixmaps are not supported (no config has
//! `GLX_PIXMAP_BIT`): creating one is `BadMatch`.

use std::ffi::{c_int, c_uint};

use arenagl_present::egl::*;
use arenagl_present::MAX_SWAP_INTERVAL;

use super::state::{self, ContextInfo, Drawable, DrawableKind};
use super::*;

const GLX_PRESERVED_CONTENTS: c_int = 0x801B;
const GLX_LARGEST_PBUFFER: c_int = 0x801C;
const GLX_WIDTH: c_int = 0x801D;
const GLX_HEIGHT: c_int = 0x801E;
const GLX_EVENT_MASK: c_int = 0x801F;
const GLX_PBUFFER_HEIGHT: c_int = 0x8040;
const GLX_PBUFFER_WIDTH: c_int = 0x8041;
const GLX_SWAP_INTERVAL_EXT: c_int = 0x20F1;
const GLX_MAX_SWAP_INTERVAL_EXT: c_int = 0x20F2;
/// Swap-control return codes.
const GLX_BAD_CONTEXT_RET: c_int = 5;

/// Whether `xid` names a window on `dpy` (trapped: a garbage XID reaches no handler).
fn window_info(dpy: XDisplay, xid: u64) -> Option<x11::WindowInfo> {
    let x = x11::xlib()?;
    // SAFETY: a non-NULL display the program passed to GLX (callers checked it).
    unsafe { x11::window_info(x, dpy, xid) }
}

fn drawable(dpy: XDisplay, xid: u64) -> Option<Drawable> {
    state::state().drawables.get(&(dpy.addr(), xid)).copied()
}

/// The EGL surface of drawable `xid` for a context of `info`: the pbuffer or window surface
/// made before, or a new window surface of the context's config for a window used directly.
pub(super) fn surface_for(dpy: XDisplay, xid: u64, info: &ContextInfo) -> Result<u64, Fail> {
    if let Some(d) = drawable(dpy, xid) {
        return Ok(d.surface);
    }
    let surface =
        super::super::egl::window_surface_raw(to_ptr(info.egl_display), to_ptr(info.config), xid);
    if surface.is_null() {
        let error = egl_error();
        return Err(fail!(
            x_error_of(error),
            xid,
            xid,
            error,
            "GLX: no surface for the window"
        ));
    }
    let window = DrawableKind::Window { explicit: false };
    Ok(register(dpy, xid, surface, window, (false, false)).surface)
}

/// Forgets drawable `xid` and destroys its EGL surface (now, or when no longer current).
fn forget(dpy: XDisplay, xid: u64) -> Option<Drawable> {
    let removed = {
        let mut s = state::state();
        s.intervals.remove(&(dpy.addr(), xid));
        s.drawables.remove(&(dpy.addr(), xid))
    };
    let egl = state::state().displays.get(&dpy.addr()).copied();
    if let (Some(d), Some(egl)) = (removed, egl) {
        super::super::egl::eglDestroySurface(to_ptr(egl), to_ptr(d.surface));
    }
    removed
}

/// Whether (`dpy`, `xid`) is this thread's current draw drawable.
fn is_current_draw(dpy: XDisplay, xid: u64) -> bool {
    state::current().is_some_and(|c| c.dpy == dpy.addr() && c.draw == xid)
}

/// Applies the drawable's swap interval if it is this thread's current draw drawable.
pub(super) fn apply_interval(dpy: XDisplay, xid: u64) {
    if !is_current_draw(dpy, xid) {
        return;
    }
    let (interval, egl) = {
        let s = state::state();
        let interval = s.intervals.get(&(dpy.addr(), xid)).copied().unwrap_or(1);
        (interval, s.displays.get(&dpy.addr()).copied())
    };
    if let Some(egl) = egl {
        super::super::egl::eglSwapInterval(to_ptr(egl), interval);
    }
}

/// Records `interval` for drawable `xid` and applies it if the drawable is current here.
fn set_interval(dpy: XDisplay, xid: u64, interval: i32) {
    let clamped = interval.clamp(0, MAX_SWAP_INTERVAL);
    state::state().intervals.insert((dpy.addr(), xid), clamped);
    apply_interval(dpy, xid);
}

/// `glXSwapBuffers`: presents the drawable if it is the calling thread's current draw drawable
/// (after an implicit flush); a drawable current nowhere here has nothing to present (ArenaGL
/// renders only through a current context), so the call does nothing. A window that can no
/// longer be presented to (destroyed) is `GLXBadDrawable`, and its surface is dropped.
#[no_mangle]
pub extern "C" fn glXSwapBuffers(dpy: XDisplay, xid: Xid) {
    run(dpy, op::SWAP_BUFFERS, (), || {
        let egl = egl_display(dpy)?;
        let Some(d) = drawable(dpy, xid) else {
            if window_info(dpy, xid).is_some() {
                return Ok(());
            }
            return Err(fail!(
                GLX_BAD_DRAWABLE_ERR,
                xid,
                xid,
                "glXSwapBuffers: no such drawable"
            ));
        };
        if !is_current_draw(dpy, xid) {
            return Ok(());
        }
        if super::super::egl::eglSwapBuffers(to_ptr(egl.to_raw()), to_ptr(d.surface)) == 1 {
            return Ok(());
        }
        match egl_error() {
            EGL_CONTEXT_LOST => {
                error_repeated!("glXSwapBuffers: the context is lost (device lost)");
                Ok(())
            }
            e @ (EGL_BAD_NATIVE_WINDOW | EGL_BAD_SURFACE) => {
                forget(dpy, xid);
                Err(fail!(
                    GLX_BAD_DRAWABLE_ERR,
                    xid,
                    e,
                    "glXSwapBuffers: the window is gone"
                ))
            }
            e => Err(fail!(x_error_of(e), xid, e, "glXSwapBuffers failed")),
        }
    })
}

/// Records `xid` as a GLX drawable of `kind` backed by the EGL surface `surface`, with the
/// pbuffer flags `(preserved, largest)`.
fn register(
    dpy: XDisplay,
    xid: Xid,
    surface: *mut std::ffi::c_void,
    kind: DrawableKind,
    (preserved, largest): (bool, bool),
) -> Drawable {
    let entry = Drawable {
        surface: to_word(surface),
        kind,
        preserved,
        largest,
    };
    state::state().drawables.insert((dpy.addr(), xid), entry);
    entry
}

/// `glXCreateWindow`: the window itself is the GLX window; its EGL window surface is made now.
///
/// # Safety
/// `attrib_list` is NULL or a `None`-terminated list (which must be empty).
#[no_mangle]
pub unsafe extern "C" fn glXCreateWindow(
    dpy: XDisplay,
    config: GLXFBConfig,
    win: Xid,
    attrib_list: *const c_int,
) -> Xid {
    run(dpy, op::CREATE_WINDOW, 0, || {
        let cfg = fbconfig(dpy, config)?;
        // SAFETY: the caller's obligation on `attrib_list`.
        if let Some(&(key, _)) = unsafe { fbconfig_pairs(attrib_list) }.first() {
            return Err(fail!(
                x11::BAD_VALUE,
                0,
                key,
                "glXCreateWindow: takes no attributes"
            ));
        }
        let xid = win;
        if window_info(dpy, xid).is_none() {
            return Err(fail!(BAD_WINDOW, xid, xid, "glXCreateWindow: not a window"));
        }
        if drawable(dpy, xid).is_some() {
            return Err(fail!(
                x11::BAD_ALLOC,
                xid,
                "glXCreateWindow: the window has one"
            ));
        }
        let surface = super::super::egl::window_surface_raw(
            to_ptr(cfg.display.to_raw()),
            to_ptr(cfg.config.to_raw()),
            xid,
        );
        if surface.is_null() {
            let e = egl_error();
            return Err(fail!(x_error_of(e), xid, e, "glXCreateWindow: no surface"));
        }
        let window = DrawableKind::Window { explicit: true };
        register(dpy, xid, surface, window, (false, false));
        Ok(win)
    })
}

/// `glXDestroyWindow`: `GLXBadWindow` for anything `glXCreateWindow` did not return.
#[no_mangle]
pub extern "C" fn glXDestroyWindow(dpy: XDisplay, win: Xid) {
    let kind = DrawableKind::Window { explicit: true };
    destroy_drawable(dpy, op::DESTROY_WINDOW, win, kind, || {
        fail!(
            GLX_BAD_WINDOW_ERR,
            win,
            win,
            "glXDestroyWindow: not a GLX window"
        )
    });
}

/// Forgets drawable `xid` if it is one of `kind` (the destroy call `minor`); otherwise the
/// error `not_one` makes.
fn destroy_drawable(
    dpy: XDisplay,
    minor: u8,
    xid: Xid,
    kind: DrawableKind,
    not_one: impl FnOnce() -> Fail,
) {
    run(dpy, minor, (), || {
        egl_display(dpy)?;
        if drawable(dpy, xid).map(|d| d.kind) != Some(kind) {
            return Err(not_one());
        }
        forget(dpy, xid);
        Ok(())
    })
}

/// The `glXCreatePbuffer` attributes: (width, height, largest, preserved).
fn pbuffer_attribs(pairs: &[(c_int, c_int)]) -> Result<(c_int, c_int, bool, bool), Fail> {
    let (mut w, mut h, mut largest, mut preserved) = (0, 0, false, true);
    for &(key, value) in pairs {
        match key {
            GLX_PBUFFER_WIDTH if value >= 0 => w = value,
            GLX_PBUFFER_HEIGHT if value >= 0 => h = value,
            GLX_LARGEST_PBUFFER => largest = value != 0,
            GLX_PRESERVED_CONTENTS => preserved = value != 0,
            _ => {
                return Err(fail!(
                    x11::BAD_VALUE,
                    0,
                    key,
                    value,
                    "glXCreatePbuffer: attribute"
                ))
            }
        }
    }
    Ok((w, h, largest, preserved))
}

/// `glXCreatePbuffer`: an EGL pbuffer under a fresh XID.
///
/// # Safety
/// `attrib_list` is NULL or a `None`-terminated list of pairs.
#[no_mangle]
pub unsafe extern "C" fn glXCreatePbuffer(
    dpy: XDisplay,
    config: GLXFBConfig,
    attrib_list: *const c_int,
) -> Xid {
    run(dpy, op::CREATE_PBUFFER, 0, || {
        let cfg = fbconfig(dpy, config)?;
        // SAFETY: the caller's obligation on `attrib_list`.
        let (w, h, largest, preserved) = pbuffer_attribs(&unsafe { fbconfig_pairs(attrib_list) })?;
        let list = [
            EGL_WIDTH,
            w,
            EGL_HEIGHT,
            h,
            EGL_LARGEST_PBUFFER,
            EGLint::from(largest),
            EGL_GL_COLORSPACE,
            super::super::egl::glx_colorspace(
                to_ptr(cfg.display.to_raw()),
                to_ptr(cfg.config.to_raw()),
            ),
            EGL_NONE,
        ];
        // SAFETY: an `EGL_NONE`-terminated list.
        let surface = unsafe {
            super::super::egl::eglCreatePbufferSurface(
                to_ptr(cfg.display.to_raw()),
                to_ptr(cfg.config.to_raw()),
                list.as_ptr(),
            )
        };
        if surface.is_null() {
            let e = egl_error();
            return Err(fail!(x_error_of(e), 0, e, "glXCreatePbuffer: no pbuffer"));
        }
        let xid = state::next_pbuffer_xid();
        let kind = DrawableKind::Pbuffer;
        register(dpy, xid, surface, kind, (preserved, largest));
        Ok(xid)
    })
}

/// `glXDestroyPbuffer`: `GLXBadPbuffer` for anything `glXCreatePbuffer` did not return.
#[no_mangle]
pub extern "C" fn glXDestroyPbuffer(dpy: XDisplay, pbuf: Xid) {
    let kind = DrawableKind::Pbuffer;
    destroy_drawable(dpy, op::DESTROY_PBUFFER, pbuf, kind, || {
        fail!(
            GLX_BAD_PBUFFER_ERR,
            pbuf,
            pbuf,
            "glXDestroyPbuffer: not a pbuffer"
        )
    });
}

/// `glXCreatePixmap`: not supported (no config renders to pixmaps): `BadMatch`, `None`.
#[no_mangle]
pub extern "C" fn glXCreatePixmap(
    dpy: XDisplay,
    _config: GLXFBConfig,
    pixmap: Xid,
    _attrib_list: *const c_int,
) -> Xid {
    no_pixmaps(dpy, op::CREATE_PIXMAP, 0, || {
        fail!(
            x11::BAD_MATCH,
            pixmap,
            "glXCreatePixmap: GLX pixmaps are not supported"
        )
    })
}

/// A GLX pixmap call (call `minor`): the error `why` makes, and `failure`.
fn no_pixmaps<T: Copy>(dpy: XDisplay, minor: u8, failure: T, why: impl FnOnce() -> Fail) -> T {
    run(dpy, minor, failure, || {
        xlib_for(dpy)?;
        Err(why())
    })
}

/// `glXCreateGLXPixmap` (GLX 1.2): not supported, as `glXCreatePixmap`.
#[no_mangle]
pub extern "C" fn glXCreateGLXPixmap(dpy: XDisplay, _vis: *mut XVisualInfo, pixmap: Xid) -> Xid {
    no_pixmaps(dpy, op::CREATE_GLX_PIXMAP, 0, || {
        fail!(
            x11::BAD_MATCH,
            pixmap,
            "glXCreateGLXPixmap: GLX pixmaps are not supported"
        )
    })
}

/// `glXDestroyPixmap`: there are no GLX pixmaps, so every XID is `GLXBadPixmap`.
#[no_mangle]
pub extern "C" fn glXDestroyPixmap(dpy: XDisplay, pixmap: Xid) {
    no_pixmaps(dpy, op::DESTROY_PIXMAP, (), || {
        fail!(
            GLX_BAD_PIXMAP_ERR,
            pixmap,
            "glXDestroyPixmap: not a GLX pixmap"
        )
    })
}

/// `glXDestroyGLXPixmap`: as `glXDestroyPixmap`.
#[no_mangle]
pub extern "C" fn glXDestroyGLXPixmap(dpy: XDisplay, pixmap: Xid) {
    glXDestroyPixmap(dpy, pixmap);
}

/// The answer of `glXQueryDrawable` for a drawable with an EGL surface.
fn query_surface(dpy: XDisplay, d: &Drawable, xid: u64, attribute: c_int) -> Result<c_int, Fail> {
    let egl = egl_display(dpy)?;
    let egl_query = |a| {
        let mut v = 0;
        // SAFETY: `v` is a live local.
        unsafe {
            super::super::egl::eglQuerySurface(to_ptr(egl.to_raw()), to_ptr(d.surface), a, &mut v)
        };
        v
    };
    let pbuffer = d.kind == DrawableKind::Pbuffer;
    Ok(match attribute {
        GLX_WIDTH => egl_query(EGL_WIDTH),
        GLX_HEIGHT => egl_query(EGL_HEIGHT),
        GLX_FBCONFIG_ID => egl_query(EGL_CONFIG_ID),
        GLX_PRESERVED_CONTENTS if pbuffer => c_int::from(d.preserved),
        GLX_LARGEST_PBUFFER if pbuffer => c_int::from(d.largest),
        _ => query_any(dpy, xid, attribute)?,
    })
}

/// The attributes every drawable answers the same way.
fn query_any(dpy: XDisplay, xid: u64, attribute: c_int) -> Result<c_int, Fail> {
    let interval = || {
        let s = state::state();
        s.intervals.get(&(dpy.addr(), xid)).copied().unwrap_or(1)
    };
    match attribute {
        GLX_SWAP_INTERVAL_EXT => Ok(interval()),
        GLX_MAX_SWAP_INTERVAL_EXT => Ok(MAX_SWAP_INTERVAL),
        GLX_EVENT_MASK | GLX_PRESERVED_CONTENTS | GLX_LARGEST_PBUFFER => Ok(0),
        _ => Err(fail!(
            x11::BAD_VALUE,
            xid,
            attribute,
            "glXQueryDrawable: attribute"
        )),
    }
}

/// `glXQueryDrawable`: size, config, pbuffer attributes, swap interval (EXT_swap_control).
/// A window never made current answers its X size and `GLX_FBCONFIG_ID` 0.
///
/// # Safety
/// `value` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn glXQueryDrawable(
    dpy: XDisplay,
    draw: Xid,
    attribute: c_int,
    value: *mut c_uint,
) {
    run(dpy, op::GET_DRAWABLE_ATTRIBUTES, (), || {
        egl_display(dpy)?;
        let xid = draw;
        let answer = match drawable(dpy, xid) {
            Some(d) => query_surface(dpy, &d, xid, attribute)?,
            None => {
                let Some(info) = window_info(dpy, xid) else {
                    return Err(fail!(
                        GLX_BAD_DRAWABLE_ERR,
                        xid,
                        xid,
                        "glXQueryDrawable: no drawable"
                    ));
                };
                match attribute {
                    GLX_WIDTH => info.width as c_int,
                    GLX_HEIGHT => info.height as c_int,
                    GLX_FBCONFIG_ID => 0,
                    _ => query_any(dpy, xid, attribute)?,
                }
            }
        };
        if !value.is_null() {
            // SAFETY: non-NULL, the caller guarantees one write.
            unsafe { value.write(answer as c_uint) };
        }
        Ok(())
    })
}

/// `glXSelectEvent`: accepted for known drawables; ArenaGL never generates
/// `GLX_PBUFFER_CLOBBER` events (pbuffer contents are never lost), so nothing is stored.
#[no_mangle]
pub extern "C" fn glXSelectEvent(dpy: XDisplay, draw: Xid, _mask: c_ulong) {
    run(dpy, op::CHANGE_DRAWABLE_ATTRIBUTES, (), || {
        egl_display(dpy)?;
        let xid = draw;
        if drawable(dpy, xid).is_none() && window_info(dpy, xid).is_none() {
            return Err(fail!(
                GLX_BAD_DRAWABLE_ERR,
                xid,
                xid,
                "glXSelectEvent: no drawable"
            ));
        }
        Ok(())
    })
}

/// `glXGetSelectedEvent`: always 0 (see `glXSelectEvent`).
///
/// # Safety
/// `mask` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn glXGetSelectedEvent(_dpy: XDisplay, _draw: Xid, mask: *mut c_ulong) {
    guard((), || {
        if !mask.is_null() {
            // SAFETY: non-NULL, the caller guarantees one write.
            unsafe { mask.write(0) };
        }
    });
}

/// `glXSwapIntervalEXT` (GLX_EXT_swap_control): per drawable; negative is `BadValue`; values
/// above `GLX_MAX_SWAP_INTERVAL_EXT` (1: FIFO) are clamped to it.
#[no_mangle]
pub extern "C" fn glXSwapIntervalEXT(dpy: XDisplay, draw: Xid, interval: c_int) {
    run(dpy, op::CHANGE_DRAWABLE_ATTRIBUTES, (), || {
        egl_display(dpy)?;
        let xid = draw;
        if interval < 0 {
            return Err(fail!(
                x11::BAD_VALUE,
                xid,
                interval,
                "glXSwapIntervalEXT: negative"
            ));
        }
        if drawable(dpy, xid).is_none() && window_info(dpy, xid).is_none() {
            return Err(fail!(
                GLX_BAD_DRAWABLE_ERR,
                xid,
                xid,
                "glXSwapIntervalEXT: no drawable"
            ));
        }
        set_interval(dpy, xid, interval);
        Ok(())
    })
}

/// The current draw drawable, for the MESA/SGI swap-control calls.
fn current_draw() -> Option<(XDisplay, u64)> {
    state::current()
        .filter(|c| c.draw != 0)
        .map(|c| (std::ptr::without_provenance_mut(c.dpy), c.draw))
}

/// `glXSwapIntervalMESA`: the current drawable's interval; `GLX_BAD_CONTEXT` without one.
#[no_mangle]
pub extern "C" fn glXSwapIntervalMESA(interval: c_uint) -> c_int {
    guard(GLX_BAD_CONTEXT_RET, || {
        let Some((dpy, xid)) = current_draw() else {
            return GLX_BAD_CONTEXT_RET;
        };
        let Ok(interval) = i32::try_from(interval) else {
            return GLX_BAD_VALUE;
        };
        set_interval(dpy, xid, interval);
        0
    })
}

/// `glXGetSwapIntervalMESA`: the current drawable's interval, 0 without one.
#[no_mangle]
pub extern "C" fn glXGetSwapIntervalMESA() -> c_int {
    guard(0, || {
        current_draw().map_or(0, |(dpy, xid)| {
            let s = state::state();
            s.intervals.get(&(dpy.addr(), xid)).copied().unwrap_or(1)
        })
    })
}

/// `glXSwapIntervalSGI`: `GLX_BAD_VALUE` for 0 or less, `GLX_BAD_CONTEXT` without a current
/// drawable.
#[no_mangle]
pub extern "C" fn glXSwapIntervalSGI(interval: c_int) -> c_int {
    guard(GLX_BAD_CONTEXT_RET, || {
        if interval <= 0 {
            return GLX_BAD_VALUE;
        }
        let Some((dpy, xid)) = current_draw() else {
            return GLX_BAD_CONTEXT_RET;
        };
        set_interval(dpy, xid, interval);
        0
    })
}
