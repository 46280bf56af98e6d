//! Contexts: `eglBindAPI`, `eglCreateContext` with the EGL 1.5 / EGL_KHR_create_context
//! attributes, `eglDestroyContext`, `eglQueryContext`, and the device-lost latch.
//!
//! ArenaGL offers desktop OpenGL up to the version its device completes (3.3 to 4.6, core or
//! compatibility, which every version below 3.2 implies) and OpenGL ES 2.0 and 3.0–3.2 (the ES
//! versions by the same rule); a version that does not exist is `EGL_BAD_MATCH` here, and one
//! above the device's claim is `EGL_BAD_MATCH`
//! from the C ABI, which knows the device (`eglCreateContext` there creates the GL context and
//! compares). Robust buffer access is not offered yet (`EGL_BAD_MATCH` when requested); the
//! reset notification strategy is, since `EGL_LOSE_CONTEXT_ON_RESET` is exactly the device-lost
//! latch (`docs/robustness.md`). EGL_EXT_create_context_robustness's names for both attributes
//! mean the same. EGL_KHR_context_flush_control's release behaviour (flush or not when the
//! context stops being current) is recorded for the C ABI, which does the flushing. A destroyed context that is current somewhere lives on, unnamed, until that
//! thread releases it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::ThreadId;

use crate::attrib::{self, boolean};
use crate::display::config_desc;
use crate::egl::*;
use crate::error::{EglError, EglResult};
use crate::handle::{Config, Context, Display};
use crate::instance::Egl;

/// The client API of a context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientApi {
    OpenGl,
    OpenGlEs,
}

/// The OpenGL profile of a desktop context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    Core,
    Compatibility,
    /// OpenGL ES has no profiles.
    None,
}

/// What a context was created as; what the translator needs to build its GL state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContextInfo {
    pub api: ClientApi,
    pub major: EGLint,
    pub minor: EGLint,
    pub profile: Profile,
    pub debug: bool,
    pub forward_compatible: bool,
    /// `EGL_LOSE_CONTEXT_ON_RESET` rather than `EGL_NO_RESET_NOTIFICATION`.
    pub lose_context_on_reset: bool,
    /// EGL_KHR_context_flush_control: `EGL_CONTEXT_RELEASE_BEHAVIOR_FLUSH_KHR` (the default,
    /// EGL's implicit flush when the context stops being current) rather than `…_NONE_KHR`.
    pub flush_on_release: bool,
    /// EGL_KHR_create_context_no_error: the GL context reports no errors (GL_KHR_no_error).
    pub no_error: bool,
    /// `None` for `EGL_NO_CONFIG_KHR`.
    pub config: Option<Config>,
    /// Contexts that share objects have the same share group.
    pub share_group: u64,
}

pub(crate) struct ContextState {
    pub(crate) display: usize,
    pub(crate) info: ContextInfo,
    pub(crate) current_thread: Option<ThreadId>,
    /// Destroyed (or its display terminated) while current: the handle is dead to the
    /// application, the object lives until released.
    pub(crate) pending_destroy: bool,
    /// The device-lost latch: set once, never cleared.
    pub(crate) lost: bool,
}

/// Parses a context attribute list for `api` (EGL 1.5 §3.7.1, EGL_KHR_create_context).
fn parse_attribs(api: ClientApi, list: &[EGLint]) -> EglResult<ContextInfo> {
    let gl = api == ClientApi::OpenGl;
    let mut info = ContextInfo {
        api,
        major: 1,
        minor: 0,
        profile: Profile::Core,
        debug: false,
        forward_compatible: false,
        lose_context_on_reset: false,
        flush_on_release: true,
        no_error: false,
        config: None,
        share_group: 0,
    };
    let mut profile_mask = EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT;
    let mut robust = false;
    for (key, value) in attrib::pairs(list)? {
        match key {
            EGL_CONTEXT_MAJOR_VERSION => info.major = value,
            EGL_CONTEXT_MINOR_VERSION => info.minor = value,
            EGL_CONTEXT_OPENGL_PROFILE_MASK if gl => profile_mask = value,
            EGL_CONTEXT_FLAGS_KHR => {
                let known = EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR
                    | EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR
                    | EGL_CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR;
                let gl_only = EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR
                    | EGL_CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR;
                if value & !known != 0 || (!gl && value & gl_only != 0) {
                    return Err(EglError::BAD_ATTRIBUTE);
                }
                info.debug = value & EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR != 0;
                info.forward_compatible =
                    value & EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR != 0;
                robust = value & EGL_CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR != 0;
            }
            EGL_CONTEXT_OPENGL_DEBUG => info.debug = boolean(value)?,
            EGL_CONTEXT_OPENGL_NO_ERROR_KHR => info.no_error = boolean(value)?,
            EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE if gl => {
                info.forward_compatible = boolean(value)?
            }
            // EGL 1.5's name, and EGL_EXT_create_context_robustness's.
            EGL_CONTEXT_OPENGL_ROBUST_ACCESS | EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT => {
                robust = boolean(value)?
            }
            EGL_CONTEXT_RELEASE_BEHAVIOR_KHR => {
                info.flush_on_release = match value {
                    EGL_CONTEXT_RELEASE_BEHAVIOR_FLUSH_KHR => true,
                    EGL_CONTEXT_RELEASE_BEHAVIOR_NONE_KHR => false,
                    _ => return Err(EglError::BAD_ATTRIBUTE),
                }
            }
            EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY
            | EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT => {
                info.lose_context_on_reset = match value {
                    EGL_NO_RESET_NOTIFICATION => false,
                    EGL_LOSE_CONTEXT_ON_RESET => true,
                    _ => return Err(EglError::BAD_ATTRIBUTE),
                }
            }
            _ => return Err(EglError::BAD_ATTRIBUTE),
        }
    }
    // EGL_KHR_create_context_no_error: no-error with debug or robust access is a mismatch (and
    // robust access is not offered at all yet).
    if robust || (info.no_error && info.debug) {
        return Err(EglError::BAD_MATCH);
    }
    if gl {
        let valid = matches!(
            (info.major, info.minor),
            (1, 0..=5) | (2, 0..=1) | (3, 0..=3) | (4, 0..=6)
        );
        if !valid {
            return Err(EglError::BAD_MATCH);
        }
        if info.forward_compatible && info.major < 3 {
            return Err(EglError::BAD_MATCH);
        }
        // The profile mask means something from 3.2 on; below, a context is compatibility
        // unless it is forward-compatible (3.0/3.1 with the deprecated features removed, which is
        // what the core profile is).
        info.profile = if (info.major, info.minor) >= (3, 2) {
            match profile_mask {
                EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT => Profile::Core,
                EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT => Profile::Compatibility,
                _ => return Err(EglError::BAD_MATCH),
            }
        } else if info.forward_compatible {
            Profile::Core
        } else {
            Profile::Compatibility
        };
    } else {
        info.profile = Profile::None;
        // ES 3.1 and 3.2 exist; whether the device offers them is the GL layer's question (the
        // ES version rule), asked when the GL context is made.
        if !matches!((info.major, info.minor), (2, 0) | (3, 0..=2)) {
            return Err(EglError::BAD_MATCH);
        }
    }
    Ok(info)
}

/// The `EGL_RENDERABLE_TYPE` bit a context of `info` needs from its config.
fn renderable_bit(info: &ContextInfo) -> EGLint {
    match (info.api, info.major) {
        (ClientApi::OpenGl, _) => EGL_OPENGL_BIT,
        (ClientApi::OpenGlEs, 3) => EGL_OPENGL_ES3_BIT,
        (ClientApi::OpenGlEs, _) => EGL_OPENGL_ES2_BIT,
    }
}

impl Egl {
    /// `eglBindAPI`: OpenGL or OpenGL ES for this thread; OpenVG and anything else is
    /// `EGL_BAD_PARAMETER`.
    pub fn bind_api(&self, api: EGLenum) -> EglResult<()> {
        let result = match api {
            EGL_OPENGL_API | EGL_OPENGL_ES_API => {
                self.with_thread(|t| t.api = api);
                Ok(())
            }
            _ => Err(EglError::BAD_PARAMETER),
        };
        self.record(result)
    }

    /// `eglQueryAPI`.
    pub fn query_api(&self) -> EGLenum {
        self.with_thread(|t| t.api)
    }

    /// `eglCreateContext` for the thread's bound API; `config` `None` is `EGL_NO_CONFIG_KHR`.
    pub fn create_context(
        &self,
        dpy: Display,
        config: Option<Config>,
        share: Option<Context>,
        attribs: &[EGLint],
    ) -> EglResult<Context> {
        let api = match self.query_api() {
            EGL_OPENGL_API => ClientApi::OpenGl,
            _ => ClientApi::OpenGlEs,
        };
        let result = (|| {
            let mut reg = self.lock();
            let display = reg.initialized(dpy)?;
            let desc = config.map(config_desc).transpose()?;
            let mut info = parse_attribs(api, attribs)?;
            if let Some(desc) = desc {
                let renderable = desc.attrib(0, EGL_RENDERABLE_TYPE).unwrap_or(0);
                if renderable & renderable_bit(&info) == 0 {
                    return Err(EglError::BAD_MATCH);
                }
            }
            info.config = config;
            info.share_group = match share {
                Some(share) => {
                    let other = reg.live_context(display, share)?;
                    if other.info.api != info.api
                        || other.info.lose_context_on_reset != info.lose_context_on_reset
                        || other.info.no_error != info.no_error
                    {
                        return Err(EglError::BAD_MATCH);
                    }
                    other.info.share_group
                }
                None => {
                    static NEXT_GROUP: AtomicU64 = AtomicU64::new(1);
                    NEXT_GROUP.fetch_add(1, Ordering::Relaxed)
                }
            };
            let state = ContextState {
                display,
                info,
                current_thread: None,
                pending_destroy: false,
                lost: false,
            };
            reg.contexts.insert(state).map(Context)
        })();
        self.record(result)
    }

    /// `eglDestroyContext`: freed now, or when it stops being current.
    pub fn destroy_context(&self, dpy: Display, ctx: Context) -> EglResult<()> {
        let result = (|| {
            let mut reg = self.lock();
            let display = reg.initialized(dpy)?;
            reg.live_context(display, ctx)?;
            if let Some(state) = reg.contexts.get_mut(ctx.0) {
                state.pending_destroy = true;
            }
            reg.free_context_if_unused(ctx.0);
            Ok(())
        })();
        self.record(result)
    }

    /// `eglQueryContext`.
    pub fn query_context(
        &self,
        dpy: Display,
        ctx: Context,
        attribute: EGLint,
    ) -> EglResult<EGLint> {
        let result = (|| {
            let reg = self.lock();
            let display = reg.initialized(dpy)?;
            let state = reg.live_context(display, ctx)?;
            let info = &state.info;
            match attribute {
                EGL_CONFIG_ID => Ok(info
                    .config
                    .map_or(Ok(0), |c| config_desc(c).map(|d| d.id))?),
                EGL_CONTEXT_CLIENT_TYPE => Ok(match info.api {
                    ClientApi::OpenGl => EGL_OPENGL_API,
                    ClientApi::OpenGlEs => EGL_OPENGL_ES_API,
                } as EGLint),
                EGL_CONTEXT_CLIENT_VERSION => Ok(info.major),
                EGL_RENDER_BUFFER => Ok(if state.current_thread.is_some() {
                    EGL_BACK_BUFFER
                } else {
                    EGL_NONE
                }),
                _ => Err(EglError::BAD_ATTRIBUTE),
            }
        })();
        self.record(result)
    }

    /// What a live context was created as.
    pub fn context_info(&self, dpy: Display, ctx: Context) -> EglResult<ContextInfo> {
        let result = (|| {
            let reg = self.lock();
            let display = reg.initialized(dpy)?;
            Ok(reg.live_context(display, ctx)?.info)
        })();
        self.record(result)
    }

    /// The device-lost latch: from now on, making `ctx` current and swapping its surfaces
    /// report `EGL_CONTEXT_LOST`. Works on contexts awaiting destruction too (the device can be
    /// lost while one is still current). Returns whether `ctx` existed.
    pub fn mark_context_lost(&self, ctx: Context) -> bool {
        let mut reg = self.lock();
        reg.contexts.get_mut(ctx.0).map(|c| c.lost = true).is_some()
    }

    /// Whether the device-lost latch is set for `ctx` (false for unknown handles).
    pub fn is_context_lost(&self, ctx: Context) -> bool {
        self.lock().contexts.get(ctx.0).is_some_and(|c| c.lost)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gl(list: &[EGLint]) -> EglResult<ContextInfo> {
        parse_attribs(ClientApi::OpenGl, list)
    }

    #[test]
    fn default_gl_context_is_compatibility_1_0() {
        let info = gl(&[EGL_NONE]).unwrap();
        assert_eq!(
            (info.major, info.minor, info.profile),
            (1, 0, Profile::Compatibility)
        );
    }

    #[test]
    fn gl_versions_and_profiles() {
        let core = [
            EGL_CONTEXT_MAJOR_VERSION,
            3,
            EGL_CONTEXT_MINOR_VERSION,
            3,
            EGL_NONE,
        ];
        assert_eq!(gl(&core).unwrap().profile, Profile::Core);
        let compat = [
            EGL_CONTEXT_MAJOR_VERSION,
            3,
            EGL_CONTEXT_MINOR_VERSION,
            2,
            EGL_CONTEXT_OPENGL_PROFILE_MASK,
            EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT,
            EGL_NONE,
        ];
        assert_eq!(gl(&compat).unwrap().profile, Profile::Compatibility);
        for (major, minor) in [(4, 7), (3, 4), (2, 2), (0, 0), (5, 0), (-1, 0)] {
            let list = [
                EGL_CONTEXT_MAJOR_VERSION,
                major,
                EGL_CONTEXT_MINOR_VERSION,
                minor,
                EGL_NONE,
            ];
            assert_eq!(gl(&list), Err(EglError::BAD_MATCH), "{major}.{minor}");
        }
        // Every GL 4.x exists; whether the device offers it is the C ABI's check.
        for minor in 0..=6 {
            let list = [
                EGL_CONTEXT_MAJOR_VERSION,
                4,
                EGL_CONTEXT_MINOR_VERSION,
                minor,
                EGL_NONE,
            ];
            assert_eq!(gl(&list).map(|i| i.profile), Ok(Profile::Core), "4.{minor}");
        }
        let both = [
            EGL_CONTEXT_MAJOR_VERSION,
            3,
            EGL_CONTEXT_MINOR_VERSION,
            3,
            EGL_CONTEXT_OPENGL_PROFILE_MASK,
            3,
            EGL_NONE,
        ];
        assert_eq!(gl(&both), Err(EglError::BAD_MATCH));
    }

    #[test]
    fn flags_and_strategies() {
        let fc2 = [
            EGL_CONTEXT_MAJOR_VERSION,
            2,
            EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE,
            EGL_TRUE,
            EGL_NONE,
        ];
        assert_eq!(gl(&fc2), Err(EglError::BAD_MATCH));
        let fc3 = [
            EGL_CONTEXT_MAJOR_VERSION,
            3,
            EGL_CONTEXT_FLAGS_KHR,
            3,
            EGL_NONE,
        ];
        let info = gl(&fc3).unwrap();
        assert!(info.forward_compatible && info.debug);
        // A forward-compatible 3.0 context has the deprecated features removed: core semantics.
        assert_eq!(info.profile, Profile::Core);
        assert_eq!(
            gl(&[EGL_CONTEXT_FLAGS_KHR, 8, EGL_NONE]),
            Err(EglError::BAD_ATTRIBUTE)
        );
        assert_eq!(
            gl(&[EGL_CONTEXT_OPENGL_DEBUG, 2, EGL_NONE]),
            Err(EglError::BAD_ATTRIBUTE)
        );
        assert_eq!(
            gl(&[EGL_CONTEXT_OPENGL_ROBUST_ACCESS, EGL_TRUE, EGL_NONE]),
            Err(EglError::BAD_MATCH)
        );
        let lose = [
            EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY,
            EGL_LOSE_CONTEXT_ON_RESET,
            EGL_NONE,
        ];
        assert!(gl(&lose).unwrap().lose_context_on_reset);
        assert_eq!(
            gl(&[EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY, 0, EGL_NONE]),
            Err(EglError::BAD_ATTRIBUTE)
        );
    }

    #[test]
    fn ext_robustness_names_mean_the_core_ones() {
        let lose = [
            EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT,
            EGL_LOSE_CONTEXT_ON_RESET,
            EGL_NONE,
        ];
        assert!(gl(&lose).unwrap().lose_context_on_reset);
        let none = [
            EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT,
            EGL_NO_RESET_NOTIFICATION,
            EGL_NONE,
        ];
        assert!(!gl(&none).unwrap().lose_context_on_reset);
        assert_eq!(
            gl(&[
                EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT,
                7,
                EGL_NONE
            ]),
            Err(EglError::BAD_ATTRIBUTE)
        );
        assert!(gl(&[EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT, EGL_FALSE, EGL_NONE]).is_ok());
        assert_eq!(
            gl(&[EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT, EGL_TRUE, EGL_NONE]),
            Err(EglError::BAD_MATCH),
            "robust buffer access is not offered"
        );
        assert_eq!(
            gl(&[EGL_CONTEXT_OPENGL_ROBUST_ACCESS_EXT, 2, EGL_NONE]),
            Err(EglError::BAD_ATTRIBUTE)
        );
        let es = parse_attribs(
            ClientApi::OpenGlEs,
            &[
                EGL_CONTEXT_CLIENT_VERSION,
                3,
                EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT,
                EGL_LOSE_CONTEXT_ON_RESET,
                EGL_NONE,
            ],
        );
        assert!(
            es.unwrap().lose_context_on_reset,
            "the EXT was written for ES"
        );
    }

    #[test]
    fn release_behavior() {
        assert!(
            gl(&[EGL_NONE]).unwrap().flush_on_release,
            "flush is the default"
        );
        let none = [
            EGL_CONTEXT_RELEASE_BEHAVIOR_KHR,
            EGL_CONTEXT_RELEASE_BEHAVIOR_NONE_KHR,
            EGL_NONE,
        ];
        assert!(!gl(&none).unwrap().flush_on_release);
        let flush = [
            EGL_CONTEXT_RELEASE_BEHAVIOR_KHR,
            EGL_CONTEXT_RELEASE_BEHAVIOR_FLUSH_KHR,
            EGL_NONE,
        ];
        assert!(gl(&flush).unwrap().flush_on_release);
        assert_eq!(
            gl(&[EGL_CONTEXT_RELEASE_BEHAVIOR_KHR, 1, EGL_NONE]),
            Err(EglError::BAD_ATTRIBUTE)
        );
    }

    #[test]
    fn es_versions_and_gl_only_attributes() {
        let es = |list: &[EGLint]| parse_attribs(ClientApi::OpenGlEs, list);
        assert_eq!(
            es(&[EGL_CONTEXT_CLIENT_VERSION, 3, EGL_NONE])
                .unwrap()
                .major,
            3
        );
        assert_eq!(
            es(&[EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE])
                .unwrap()
                .profile,
            Profile::None
        );
        assert_eq!(
            es(&[EGL_NONE]),
            Err(EglError::BAD_MATCH),
            "ES 1.x is not offered"
        );
        // ES 3.1 and 3.2 exist (whether the device offers them is the GL layer's question);
        // ES 3.3 does not.
        let es3 = |minor| {
            es(&[
                EGL_CONTEXT_CLIENT_VERSION,
                3,
                EGL_CONTEXT_MINOR_VERSION,
                minor,
                EGL_NONE,
            ])
        };
        assert_eq!(es3(2).unwrap().minor, 2);
        assert_eq!(es3(3), Err(EglError::BAD_MATCH));
        assert_eq!(
            es(&[EGL_CONTEXT_OPENGL_PROFILE_MASK, 1, EGL_NONE]),
            Err(EglError::BAD_ATTRIBUTE)
        );
        assert_eq!(
            es(&[EGL_CONTEXT_FLAGS_KHR, 2, EGL_NONE]),
            Err(EglError::BAD_ATTRIBUTE)
        );
    }
}
