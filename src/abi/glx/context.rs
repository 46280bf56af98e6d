//! GLX contexts over EGL contexts: creation (legacy, `glXCreateNewContext`, and
//! GLX_ARB_create_context with its profile and robustness extensions), destruction, binding, and
//! the current-state getters.

use std::ffi::c_int;
use std::ptr::null_mut;

use arenagl_present::egl::*;

use super::drawable::{apply_interval, surface_for};
use super::state::{self, ContextInfo, Current};
use super::*;

const GLX_RGBA_TYPE: c_int = 0x8014;
const GLX_CONTEXT_MAJOR_VERSION_ARB: c_int = 0x2091;
const GLX_CONTEXT_MINOR_VERSION_ARB: c_int = 0x2092;
const GLX_CONTEXT_FLAGS_ARB: c_int = 0x2094;
const GLX_CONTEXT_PROFILE_MASK_ARB: c_int = 0x9126;
const GLX_CONTEXT_RESET_NOTIFICATION_STRATEGY_ARB: c_int = 0x8256;
const GLX_CONTEXT_DEBUG_BIT_ARB: c_int = 0x1;
const GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB: c_int = 0x2;
const GLX_CONTEXT_ROBUST_ACCESS_BIT_ARB: c_int = 0x4;
const GLX_CONTEXT_CORE_PROFILE_BIT_ARB: c_int = 0x1;
const GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB: c_int = 0x2;
const GLX_LOSE_CONTEXT_ON_RESET_ARB: c_int = 0x8252;
const GLX_NO_RESET_NOTIFICATION_ARB: c_int = 0x8261;
/// GLX_ARB_create_context_no_error (EGL's `EGL_CONTEXT_OPENGL_NO_ERROR_KHR` has the same value).
const GLX_CONTEXT_OPENGL_NO_ERROR_ARB: c_int = 0x31B3;
/// `glXQueryContext` return codes.
const GLX_BAD_CONTEXT_RET: c_int = 5;

/// What `glXCreateContextAttribsARB` asked for, validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Request {
    major: c_int,
    minor: c_int,
    flags: c_int,
    profile: c_int,
    lose_on_reset: bool,
    /// GLX_ARB_create_context_no_error: a GL_KHR_no_error context.
    no_error: bool,
}

/// Parses a GLX_ARB_create_context list with the spec's errors: an unknown attribute, unknown
/// flag bits or an unknown reset strategy are `BadValue`; a render type other than RGBA
/// `BadValue`; a version that does not exist, or forward-compatible below 3.0, `BadMatch`; a
/// profile mask with no known bit or both bits (from 3.2) `GLXBadProfileARB`; robust buffer
/// access, which ArenaGL does not offer yet, `BadMatch`. A version above the device's claim is
/// [`check_offered`]'s.
fn parse(pairs: &[(c_int, c_int)]) -> Result<Request, Fail> {
    let mut r = Request {
        major: 1,
        minor: 0,
        flags: 0,
        profile: GLX_CONTEXT_CORE_PROFILE_BIT_ARB,
        lose_on_reset: false,
        no_error: false,
    };
    let known_flags = GLX_CONTEXT_DEBUG_BIT_ARB
        | GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB
        | GLX_CONTEXT_ROBUST_ACCESS_BIT_ARB;
    for &(key, value) in pairs {
        match key {
            GLX_CONTEXT_MAJOR_VERSION_ARB => r.major = value,
            GLX_CONTEXT_MINOR_VERSION_ARB => r.minor = value,
            GLX_CONTEXT_FLAGS_ARB if value & !known_flags == 0 => r.flags = value,
            GLX_CONTEXT_PROFILE_MASK_ARB => r.profile = value,
            GLX_RENDER_TYPE if value == GLX_RGBA_TYPE => {}
            GLX_CONTEXT_OPENGL_NO_ERROR_ARB if value == 0 || value == 1 => r.no_error = value == 1,
            GLX_CONTEXT_RESET_NOTIFICATION_STRATEGY_ARB => {
                r.lose_on_reset = match value {
                    GLX_LOSE_CONTEXT_ON_RESET_ARB => true,
                    GLX_NO_RESET_NOTIFICATION_ARB => false,
                    _ => return Err(fail!(x11::BAD_VALUE, 0, value, "GLX: bad reset strategy")),
                }
            }
            _ => {
                return Err(fail!(
                    x11::BAD_VALUE,
                    0,
                    key,
                    value,
                    "GLX: bad context attribute"
                ))
            }
        }
    }
    check_version(&r)?;
    Ok(r)
}

fn check_version(r: &Request) -> Result<(), Fail> {
    let exists = matches!(
        (r.major, r.minor),
        (1, 0..=5) | (2, 0..=1) | (3, 0..=3) | (4, 0..=6)
    );
    if !exists || (r.flags & GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB != 0 && r.major < 3) {
        return Err(fail!(
            x11::BAD_MATCH,
            0,
            r.major,
            r.minor,
            "GLX: no such GL version"
        ));
    }
    let both = GLX_CONTEXT_CORE_PROFILE_BIT_ARB | GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB;
    let one_profile = r.profile & !both == 0 && (r.profile == 1 || r.profile == 2);
    if (r.major, r.minor) >= (3, 2) && !one_profile {
        return Err(fail!(
            GLX_BAD_PROFILE_ERR,
            0,
            r.profile,
            "GLX: bad profile mask"
        ));
    }
    if r.flags & GLX_CONTEXT_ROBUST_ACCESS_BIT_ARB != 0 {
        return Err(fail!(
            x11::BAD_MATCH,
            0,
            "GLX: robust buffer access is not offered"
        ));
    }
    Ok(())
}

/// `GLXBadFBConfig` (the config supports no such context) for a version above `offered`, the
/// one the device completes (GLX_ARB_create_context: a version the implementation cannot
/// create).
fn check_offered(r: &Request, offered: (u32, u32)) -> Result<(), Fail> {
    let asked = (r.major.max(0) as u32, r.minor.max(0) as u32);
    if asked > offered {
        return Err(fail!(
            GLX_BAD_FBCONFIG_ERR,
            0,
            r.major,
            r.minor,
            "GLX: GL version above the device's"
        ));
    }
    Ok(())
}

/// The EGL attribute list for a validated request.
fn egl_attribs(r: &Request) -> Vec<EGLint> {
    let mut flags = 0;
    if r.flags & GLX_CONTEXT_DEBUG_BIT_ARB != 0 {
        flags |= EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR;
    }
    if r.flags & GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB != 0 {
        flags |= EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR;
    }
    let mut list = vec![
        EGL_CONTEXT_MAJOR_VERSION,
        r.major,
        EGL_CONTEXT_MINOR_VERSION,
        r.minor,
        EGL_CONTEXT_FLAGS_KHR,
        flags,
    ];
    if (r.major, r.minor) >= (3, 2) {
        list.extend([EGL_CONTEXT_OPENGL_PROFILE_MASK, r.profile]);
    }
    if r.lose_on_reset {
        list.extend([
            EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY,
            EGL_LOSE_CONTEXT_ON_RESET,
        ]);
    }
    // EGL refuses it with a debug context or another share group's setting (`BadMatch` here).
    if r.no_error {
        list.extend([EGL_CONTEXT_OPENGL_NO_ERROR_KHR, EGL_TRUE]);
    }
    list.push(EGL_NONE);
    list
}

/// Creates the EGL context of a GLX context of `cfg` (OpenGL API) sharing with `share`.
fn create(cfg: &FbConfig, share: GLXContext, attribs: &[EGLint]) -> Result<GLXContext, Fail> {
    if !share.is_null() {
        let known = state::state().contexts.get(&to_word(share)).copied();
        match known {
            Some(s) if s.egl_display == cfg.display.to_raw() => {}
            Some(_) => {
                return Err(fail!(
                    x11::BAD_MATCH,
                    0,
                    "GLX: share context of another display"
                ))
            }
            None => {
                return Err(fail!(
                    GLX_BAD_CONTEXT_ERR,
                    0,
                    handle = to_word(share),
                    "GLX: bad share context"
                ))
            }
        }
    }
    let previous_api = super::super::egl::eglQueryAPI();
    super::super::egl::eglBindAPI(EGL_OPENGL_API);
    // SAFETY: `attribs` is `EGL_NONE`-terminated.
    let ctx = unsafe {
        super::super::egl::eglCreateContext(
            to_ptr(cfg.display.to_raw()),
            to_ptr(cfg.config.to_raw()),
            share,
            attribs.as_ptr(),
        )
    };
    let error = egl_error();
    super::super::egl::eglBindAPI(previous_api);
    if ctx.is_null() {
        return Err(fail!(
            x_error_of(error),
            0,
            error,
            "GLX: eglCreateContext failed"
        ));
    }
    let info = ContextInfo {
        egl_display: cfg.display.to_raw(),
        config: cfg.config.to_raw(),
        screen: cfg.screen,
    };
    state::state().contexts.insert(to_word(ctx), info);
    Ok(ctx)
}

/// The legacy context: compatibility profile (EGL's default 1.0 request).
const LEGACY: &[EGLint] = &[EGL_NONE];

/// `glXCreateContext`: a compatibility context for the config behind `vis`.
///
/// # Safety
/// `vis` is NULL or points at an `XVisualInfo`.
#[no_mangle]
pub unsafe extern "C" fn glXCreateContext(
    dpy: XDisplay,
    vis: *mut XVisualInfo,
    share: GLXContext,
    _direct: Bool,
) -> GLXContext {
    run(dpy, op::CREATE_CONTEXT, null_mut(), || {
        // SAFETY: the caller's obligation on `vis`.
        let Some(cfg) = (unsafe { config_of_visual(dpy, vis) })? else {
            return Err(fail!(
                x11::BAD_VALUE,
                0,
                "glXCreateContext: not a GL visual"
            ));
        };
        create(&cfg, share, LEGACY)
    })
}

/// `glXCreateNewContext`: `GLX_RGBA_TYPE` only (`BadValue` otherwise).
#[no_mangle]
pub extern "C" fn glXCreateNewContext(
    dpy: XDisplay,
    config: GLXFBConfig,
    render_type: c_int,
    share: GLXContext,
    _direct: Bool,
) -> GLXContext {
    run(dpy, op::CREATE_NEW_CONTEXT, null_mut(), || {
        let cfg = fbconfig(dpy, config)?;
        if render_type != GLX_RGBA_TYPE {
            return Err(fail!(
                x11::BAD_VALUE,
                0,
                render_type,
                "glXCreateNewContext: render type"
            ));
        }
        create(&cfg, share, LEGACY)
    })
}

/// `glXCreateContextAttribsARB` (GLX_ARB_create_context, _profile, _robustness).
///
/// # Safety
/// `attrib_list` is NULL or a `None`-terminated list of pairs.
#[no_mangle]
pub unsafe extern "C" fn glXCreateContextAttribsARB(
    dpy: XDisplay,
    config: GLXFBConfig,
    share: GLXContext,
    _direct: Bool,
    attrib_list: *const c_int,
) -> GLXContext {
    run(dpy, op::CREATE_CONTEXT_ATTRIBS, null_mut(), || {
        let cfg = fbconfig(dpy, config)?;
        // SAFETY: the caller's obligation on `attrib_list`.
        let pairs = unsafe { fbconfig_pairs(attrib_list) };
        let request = parse(&pairs)?;
        // Without a device the version cannot be told; creation then fails as it would.
        if let Ok(offered) = super::super::bridge::offered_gl_version() {
            check_offered(&request, offered)?;
        }
        create(&cfg, share, &egl_attribs(&request))
    })
}

fn context_info(ctx: GLXContext) -> Result<ContextInfo, Fail> {
    let known = state::state().contexts.get(&to_word(ctx)).copied();
    known.ok_or_else(|| {
        fail!(
            GLX_BAD_CONTEXT_ERR,
            0,
            handle = to_word(ctx),
            "GLX: not a GLX context"
        )
    })
}

/// `glXDestroyContext`: destroyed now, or when no longer current (EGL's rule).
#[no_mangle]
pub extern "C" fn glXDestroyContext(dpy: XDisplay, ctx: GLXContext) {
    run(dpy, op::DESTROY_CONTEXT, (), || {
        let info = context_info(ctx)?;
        state::state().contexts.remove(&to_word(ctx));
        super::super::egl::eglDestroyContext(to_ptr(info.egl_display), ctx);
        Ok(())
    })
}

/// `glXCopyContext`: not supported (ArenaGL cannot copy state groups between contexts):
/// `GLXBadContext` for a pointer that is no context, `BadMatch` otherwise.
#[no_mangle]
pub extern "C" fn glXCopyContext(dpy: XDisplay, src: GLXContext, dst: GLXContext, mask: c_ulong) {
    run(dpy, op::COPY_CONTEXT, (), || {
        context_info(src)?;
        context_info(dst)?;
        Err(fail!(
            x11::BAD_MATCH,
            0,
            mask,
            "glXCopyContext is not supported"
        ))
    })
}

/// `glXIsDirect`: every ArenaGL context renders directly.
#[no_mangle]
pub extern "C" fn glXIsDirect(dpy: XDisplay, ctx: GLXContext) -> Bool {
    run(dpy, op::IS_DIRECT, FALSE, || {
        context_info(ctx).map(|_| TRUE)
    })
}

/// Releases the thread's current context, if any.
fn release() {
    if let Some(cur) = state::current() {
        let egl = state::state().displays.get(&cur.dpy).copied();
        if let Some(egl) = egl {
            super::super::egl::eglMakeCurrent(to_ptr(egl), null_mut(), null_mut(), null_mut());
        }
    }
    state::set_current(None);
}

fn make_current(dpy: XDisplay, draw: Xid, read: Xid, ctx: GLXContext) -> Result<Bool, Fail> {
    if ctx.is_null() {
        if draw != 0 || read != 0 {
            return Err(fail!(
                x11::BAD_MATCH,
                draw,
                "GLX: a drawable without a context"
            ));
        }
        release();
        return Ok(TRUE);
    }
    let info = context_info(ctx)?;
    let egl = egl_display(dpy)?;
    if egl.to_raw() != info.egl_display {
        return Err(fail!(x11::BAD_MATCH, 0, "GLX: context of another display"));
    }
    if (draw == 0) != (read == 0) {
        return Err(fail!(x11::BAD_MATCH, draw, "GLX: one drawable None"));
    }
    let surface = |xid: Xid| match xid {
        0 => Ok(null_mut()),
        _ => surface_for(dpy, xid, &info).map(to_ptr),
    };
    let (draw_s, read_s) = (surface(draw)?, surface(read)?);
    if super::super::egl::eglMakeCurrent(to_ptr(info.egl_display), draw_s, read_s, ctx) != 1 {
        let error = egl_error();
        return Err(fail!(
            x_error_of(error),
            draw,
            error,
            "GLX: eglMakeCurrent failed"
        ));
    }
    state::set_current(Some(Current {
        dpy: dpy.addr(),
        ctx: to_word(ctx),
        draw,
        read,
    }));
    if draw != 0 {
        apply_interval(dpy, draw);
    }
    Ok(TRUE)
}

/// `glXMakeCurrent`: `ctx` on `drawable` (a window, GLX window or pbuffer); NULL and `None`
/// release. A 3.0+ context may be made current with no drawable (GLX_ARB_create_context).
#[no_mangle]
pub extern "C" fn glXMakeCurrent(dpy: XDisplay, drawable: Xid, ctx: GLXContext) -> Bool {
    run(dpy, op::MAKE_CURRENT, FALSE, || {
        make_current(dpy, drawable, drawable, ctx)
    })
}

/// `glXMakeContextCurrent`: separate draw and read drawables.
#[no_mangle]
pub extern "C" fn glXMakeContextCurrent(
    dpy: XDisplay,
    draw: Xid,
    read: Xid,
    ctx: GLXContext,
) -> Bool {
    run(dpy, op::MAKE_CONTEXT_CURRENT, FALSE, || {
        make_current(dpy, draw, read, ctx)
    })
}

#[no_mangle]
pub extern "C" fn glXGetCurrentContext() -> GLXContext {
    guard(null_mut(), || {
        state::current().map_or(null_mut(), |c| to_ptr(c.ctx))
    })
}

#[no_mangle]
pub extern "C" fn glXGetCurrentDrawable() -> Xid {
    guard(0, || state::current().map_or(0, |c| c.draw))
}

#[no_mangle]
pub extern "C" fn glXGetCurrentReadDrawable() -> Xid {
    guard(0, || state::current().map_or(0, |c| c.read))
}

#[no_mangle]
pub extern "C" fn glXGetCurrentDisplay() -> XDisplay {
    guard(null_mut(), || {
        state::current().map_or(null_mut(), |c| std::ptr::without_provenance_mut(c.dpy))
    })
}

/// `glXQueryContext`: `GLX_FBCONFIG_ID`, `GLX_RENDER_TYPE`, `GLX_SCREEN`; `GLX_BAD_ATTRIBUTE`
/// otherwise; `GLX_BAD_CONTEXT` (and `GLXBadContext`) for a pointer that is no context.
///
/// # Safety
/// `value` is NULL or valid for one write.
#[no_mangle]
pub unsafe extern "C" fn glXQueryContext(
    dpy: XDisplay,
    ctx: GLXContext,
    attribute: c_int,
    value: *mut c_int,
) -> c_int {
    run(dpy, op::QUERY_CONTEXT, GLX_BAD_CONTEXT_RET, || {
        let info = context_info(ctx)?;
        let id = Display::from_raw(info.egl_display)
            .zip(Config::from_raw(info.config))
            .and_then(|(d, c)| instance().get_config_attrib(d, c, EGL_CONFIG_ID).ok());
        let v = match attribute {
            GLX_FBCONFIG_ID => id.unwrap_or(0),
            GLX_RENDER_TYPE => GLX_RGBA_TYPE,
            GLX_SCREEN => info.screen,
            _ => return Ok(GLX_BAD_ATTRIBUTE),
        };
        if value.is_null() {
            return Ok(GLX_BAD_VALUE);
        }
        // SAFETY: non-NULL, the caller guarantees one write.
        unsafe { value.write(v) };
        Ok(0)
    })
}

/// `glXWaitGL`: finishes the current context's GL work. X never renders into ArenaGL's images
/// (frames reach the window only at a swap), so this is all GLX 1.4 asks.
#[no_mangle]
pub extern "C" fn glXWaitGL() {
    guard((), || {
        super::super::bridge::with_current((), |c| c.finish())
    });
}

/// `glXWaitX`: `XSync` on the current display, so X rendering is done before later GL commands.
#[no_mangle]
pub extern "C" fn glXWaitX() {
    guard((), || {
        let (Some(cur), Some(x)) = (state::current(), x11::xlib()) else {
            return;
        };
        // SAFETY: the display of the current context, which the program keeps open while current.
        unsafe { x.sync(std::ptr::without_provenance_mut(cur.dpy)) };
    })
}

/// `glXUseXFont`: not implemented (ArenaGL rasterises no X fonts into display lists); logs an
/// error and leaves the lists empty.
#[no_mangle]
pub extern "C" fn glXUseXFont(font: Xid, first: c_int, count: c_int, list_base: c_int) {
    guard((), || {
        let _ = op::USE_X_FONT;
        error_repeated!(
            font,
            first,
            count,
            list_base,
            "glXUseXFont is not implemented"
        );
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(pairs: &[(c_int, c_int)]) -> Result<Request, XError> {
        parse(pairs).map_err(|f| f.error)
    }

    #[test]
    fn context_attribute_errors_follow_the_spec() {
        let v = |major, minor| {
            vec![
                (GLX_CONTEXT_MAJOR_VERSION_ARB, major),
                (GLX_CONTEXT_MINOR_VERSION_ARB, minor),
            ]
        };
        assert!(req(&v(3, 3)).is_ok());
        assert!(req(&v(2, 1)).is_ok());
        let r46 = parse(&v(4, 6)).map_err(|f| f.error).unwrap();
        let offered = |r: &Request, v| check_offered(r, v).map_err(|f| f.error);
        assert_eq!(offered(&r46, (4, 0)), Err(GLX_BAD_FBCONFIG_ERR));
        assert_eq!(offered(&r46, (4, 6)), Ok(()));
        assert_eq!(offered(&req(&v(3, 3)).unwrap(), (3, 3)), Ok(()));
        assert_eq!(req(&v(3, 7)), Err(x11::BAD_MATCH));
        assert_eq!(req(&[(0x1234, 1)]), Err(x11::BAD_VALUE));
        assert_eq!(req(&[(GLX_CONTEXT_FLAGS_ARB, 0x80)]), Err(x11::BAD_VALUE));
        assert_eq!(req(&[(GLX_RENDER_TYPE, 0x8015)]), Err(x11::BAD_VALUE));
        let mut p = v(3, 3);
        p.push((GLX_CONTEXT_PROFILE_MASK_ARB, 3));
        assert_eq!(req(&p), Err(GLX_BAD_PROFILE_ERR));
        let mut p = v(3, 2);
        p.push((GLX_CONTEXT_PROFILE_MASK_ARB, 4));
        assert_eq!(req(&p), Err(GLX_BAD_PROFILE_ERR));
        let mut p = v(2, 1);
        p.push((
            GLX_CONTEXT_FLAGS_ARB,
            GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB,
        ));
        assert_eq!(req(&p), Err(x11::BAD_MATCH));
        let mut p = v(3, 3);
        p.push((GLX_CONTEXT_FLAGS_ARB, GLX_CONTEXT_ROBUST_ACCESS_BIT_ARB));
        assert_eq!(req(&p), Err(x11::BAD_MATCH));
        let mut p = v(3, 3);
        p.push((GLX_CONTEXT_RESET_NOTIFICATION_STRATEGY_ARB, 7));
        assert_eq!(req(&p), Err(x11::BAD_VALUE));
    }

    #[test]
    fn a_compatibility_request_becomes_the_egl_profile_bit() {
        let r = parse(&[
            (GLX_CONTEXT_MAJOR_VERSION_ARB, 3),
            (GLX_CONTEXT_MINOR_VERSION_ARB, 3),
            (
                GLX_CONTEXT_PROFILE_MASK_ARB,
                GLX_CONTEXT_COMPATIBILITY_PROFILE_BIT_ARB,
            ),
        ])
        .unwrap();
        let list = egl_attribs(&r);
        let at = list
            .iter()
            .position(|&w| w == EGL_CONTEXT_OPENGL_PROFILE_MASK)
            .unwrap();
        assert_eq!(list[at + 1], EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT);
    }

    /// GLX_ARB_create_context_no_error: the attribute reaches EGL, whose `EGL_BAD_MATCH` (with a
    /// debug context or a share context of the other setting) is `BadMatch` here.
    #[test]
    fn a_no_error_request_becomes_the_egl_attribute() {
        let v = |no_error| {
            parse(&[
                (GLX_CONTEXT_MAJOR_VERSION_ARB, 3),
                (GLX_CONTEXT_MINOR_VERSION_ARB, 3),
                (GLX_CONTEXT_OPENGL_NO_ERROR_ARB, no_error),
            ])
            .map_err(|f| f.error)
        };
        let list = egl_attribs(&v(1).unwrap());
        let at = list
            .iter()
            .position(|&w| w == EGL_CONTEXT_OPENGL_NO_ERROR_KHR)
            .unwrap();
        assert_eq!(list[at + 1], EGL_TRUE);
        let list = egl_attribs(&v(0).unwrap());
        assert!(!list.contains(&EGL_CONTEXT_OPENGL_NO_ERROR_KHR));
        assert_eq!(v(2).err(), Some(x11::BAD_VALUE));
        assert_eq!(x_error_of(EGL_BAD_MATCH), x11::BAD_MATCH);
    }
}
