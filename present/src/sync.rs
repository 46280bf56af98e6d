//! Sync objects: `eglCreateSync`, `eglDestroySync`, the validation of `eglClientWaitSync`,
//! `eglWaitSync` and `eglGetSyncAttrib` (EGL 1.5 §3.8.1, EGL_KHR_fence_sync, EGL_KHR_wait_sync).
//!
//! Only fence syncs exist (`EGL_SYNC_FENCE`, condition `EGL_SYNC_PRIOR_COMMANDS_COMPLETE`). The
//! model names them and checks every argument; what a fence waits for (the GL work of the context
//! current at creation) is the C ABI's, which attaches it to the handle after creation. A sync
//! belongs to its display: `eglTerminate` destroys it, and another display's handle is
//! `EGL_BAD_PARAMETER`, as an unknown one is.

use crate::attrib::{self, AttribWord};
use crate::egl::*;
use crate::error::{EglError, EglResult};
use crate::handle::{Display, EglSync};
use crate::instance::{Egl, Registry};

pub(crate) struct SyncState {
    pub(crate) display: usize,
}

/// A sync attribute as `eglGetSyncAttrib` answers it: a fixed value, or the status, which only
/// the fence itself knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyncAttrib {
    Value(EGLint),
    Status,
}

impl Registry {
    /// The display index of live sync `sync` on `dpy`; `EGL_BAD_PARAMETER` for anything else
    /// (`None` is a value the C ABI could not read as a sync handle at all).
    fn sync_on(&self, dpy: Display, sync: Option<EglSync>) -> EglResult<usize> {
        let display = self.initialized(dpy)?;
        sync.and_then(|s| self.syncs.get(s.0))
            .filter(|s| s.display == display)
            .map(|_| display)
            .ok_or(EglError::BAD_PARAMETER)
    }
}

impl Egl {
    /// `eglCreateSync` (`khr` false, `EGLAttrib` list) and `eglCreateSyncKHR` (`khr` true): a
    /// fence needs a context current in this thread on `dpy` (`EGL_BAD_MATCH`) and takes no
    /// attributes (`EGL_BAD_ATTRIBUTE`). An unsupported type is `EGL_BAD_PARAMETER` for the core
    /// function and `EGL_BAD_ATTRIBUTE` for the KHR one, as their texts say.
    pub fn create_sync<T: AttribWord>(
        &self,
        dpy: Display,
        sync_type: EGLenum,
        attribs: &[T],
        khr: bool,
    ) -> EglResult<EglSync> {
        let binding = self.with_thread(|t| t.binding);
        let result = (|| {
            let mut reg = self.lock();
            let display = reg.initialized(dpy)?;
            if sync_type != EGL_SYNC_FENCE {
                return Err(if khr {
                    EglError::BAD_ATTRIBUTE
                } else {
                    EglError::BAD_PARAMETER
                });
            }
            if !attrib::pairs(attribs)?.is_empty() {
                return Err(EglError::BAD_ATTRIBUTE);
            }
            if binding.is_none_or(|b| b.display != dpy) {
                return Err(EglError::BAD_MATCH);
            }
            reg.syncs.insert(SyncState { display }).map(EglSync)
        })();
        self.record(result)
    }

    /// `eglDestroySync`. A wait blocked on the fence keeps waiting for it (the C ABI's waits do
    /// not need the handle once they have begun).
    pub fn destroy_sync(&self, dpy: Display, sync: Option<EglSync>) -> EglResult<()> {
        let result = (|| {
            let mut reg = self.lock();
            reg.sync_on(dpy, sync)?;
            if let Some(s) = sync {
                reg.syncs.remove(s.0);
            }
            Ok(())
        })();
        self.record(result)
    }

    /// The checks of `eglClientWaitSync`: a live sync of `dpy`. Every flag is accepted
    /// (`EGL_SYNC_FLUSH_COMMANDS_BIT` is the only one defined; the fence's work is already
    /// submitted, see the C ABI). Records its outcome; the wait then records its own.
    pub fn check_sync(&self, dpy: Display, sync: Option<EglSync>) -> EglResult<()> {
        let result = self.lock().sync_on(dpy, sync).map(drop);
        self.record(result)
    }

    /// The checks of `eglWaitSync`: a live sync of `dpy`, a context current in this thread on
    /// `dpy` (`EGL_BAD_MATCH`), `flags` 0 (`EGL_BAD_PARAMETER`).
    pub fn check_wait_sync(
        &self,
        dpy: Display,
        sync: Option<EglSync>,
        flags: EGLint,
    ) -> EglResult<()> {
        let binding = self.with_thread(|t| t.binding);
        let result = (|| {
            self.lock().sync_on(dpy, sync)?;
            if binding.is_none_or(|b| b.display != dpy) {
                return Err(EglError::BAD_MATCH);
            }
            if flags != 0 {
                return Err(EglError::BAD_PARAMETER);
            }
            Ok(())
        })();
        self.record(result)
    }

    /// `eglGetSyncAttrib`: `EGL_SYNC_TYPE` and `EGL_SYNC_CONDITION` are answered here,
    /// `EGL_SYNC_STATUS` by the fence; anything else is `EGL_BAD_ATTRIBUTE`.
    pub fn sync_attrib(
        &self,
        dpy: Display,
        sync: Option<EglSync>,
        attribute: EGLint,
    ) -> EglResult<SyncAttrib> {
        let result = (|| {
            self.lock().sync_on(dpy, sync)?;
            match attribute {
                EGL_SYNC_TYPE => Ok(SyncAttrib::Value(EGL_SYNC_FENCE as EGLint)),
                EGL_SYNC_CONDITION => Ok(SyncAttrib::Value(EGL_SYNC_PRIOR_COMMANDS_COMPLETE)),
                EGL_SYNC_STATUS => Ok(SyncAttrib::Status),
                _ => Err(EglError::BAD_ATTRIBUTE),
            }
        })();
        self.record(result)
    }

    /// Whether `sync` still names a sync object (of any display). Not an EGL entry point: records
    /// no error. The C ABI drops the fences of syncs that `eglTerminate` destroyed with it.
    pub fn sync_exists(&self, sync: EglSync) -> bool {
        self.lock().syncs.get(sync.0).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn current() -> (Egl, Display) {
        let egl = Egl::new();
        let dpy = egl.get_display(EGL_DEFAULT_DISPLAY).unwrap();
        egl.initialize(dpy).unwrap();
        egl.bind_api(EGL_OPENGL_API).unwrap();
        let ctx = egl.create_context(dpy, None, None, &[EGL_NONE]).unwrap();
        egl.make_current(dpy, None, None, Some(ctx)).unwrap();
        (egl, dpy)
    }

    #[test]
    fn fences_need_a_current_context_of_the_display() {
        let egl = Egl::new();
        let dpy = egl.get_display(EGL_DEFAULT_DISPLAY).unwrap();
        assert_eq!(
            egl.create_sync::<EGLint>(dpy, EGL_SYNC_FENCE, &[], false),
            Err(EglError::NOT_INITIALIZED)
        );
        egl.initialize(dpy).unwrap();
        assert_eq!(
            egl.create_sync::<EGLint>(dpy, EGL_SYNC_FENCE, &[], false),
            Err(EglError::BAD_MATCH)
        );
        let (egl, dpy) = current();
        let s = egl.create_sync::<EGLint>(dpy, EGL_SYNC_FENCE, &[EGL_NONE], true);
        assert!(s.is_ok());
        // Another (initialized) display than the current context's.
        let other = egl
            .get_platform_display::<EGLint>(EGL_PLATFORM_SURFACELESS_MESA, 0, &[])
            .unwrap();
        egl.initialize(other).unwrap();
        assert_eq!(
            egl.create_sync::<EGLint>(other, EGL_SYNC_FENCE, &[], false),
            Err(EglError::BAD_MATCH)
        );
        assert_eq!(egl.check_sync(other, s.ok()), Err(EglError::BAD_PARAMETER));
    }

    #[test]
    fn types_and_attributes() {
        let (egl, dpy) = current();
        for t in [EGL_SYNC_REUSABLE_KHR, EGL_SYNC_CL_EVENT, 0] {
            assert_eq!(
                egl.create_sync::<EGLint>(dpy, t, &[], false),
                Err(EglError::BAD_PARAMETER)
            );
            assert_eq!(
                egl.create_sync::<EGLint>(dpy, t, &[], true),
                Err(EglError::BAD_ATTRIBUTE)
            );
        }
        assert_eq!(
            egl.create_sync(
                dpy,
                EGL_SYNC_FENCE,
                &[EGL_SYNC_STATUS, EGL_SIGNALED, EGL_NONE],
                true
            ),
            Err(EglError::BAD_ATTRIBUTE)
        );
        let s = egl
            .create_sync::<EGLAttrib>(dpy, EGL_SYNC_FENCE, &[], false)
            .unwrap();
        assert_eq!(
            egl.sync_attrib(dpy, Some(s), EGL_SYNC_TYPE),
            Ok(SyncAttrib::Value(EGL_SYNC_FENCE as EGLint))
        );
        assert_eq!(
            egl.sync_attrib(dpy, Some(s), EGL_SYNC_CONDITION),
            Ok(SyncAttrib::Value(EGL_SYNC_PRIOR_COMMANDS_COMPLETE))
        );
        assert_eq!(
            egl.sync_attrib(dpy, Some(s), EGL_SYNC_STATUS),
            Ok(SyncAttrib::Status)
        );
        assert_eq!(
            egl.sync_attrib(dpy, Some(s), EGL_WIDTH),
            Err(EglError::BAD_ATTRIBUTE)
        );
        assert_eq!(
            egl.check_wait_sync(dpy, Some(s), 1),
            Err(EglError::BAD_PARAMETER)
        );
        assert_eq!(egl.check_wait_sync(dpy, Some(s), 0), Ok(()));
        assert_eq!(egl.destroy_sync(dpy, Some(s)), Ok(()));
        assert_eq!(egl.destroy_sync(dpy, Some(s)), Err(EglError::BAD_PARAMETER));
        assert_eq!(egl.check_sync(dpy, Some(s)), Err(EglError::BAD_PARAMETER));
        assert_eq!(egl.check_sync(dpy, None), Err(EglError::BAD_PARAMETER));
        assert!(!egl.sync_exists(s));
    }

    #[test]
    fn terminate_destroys_the_displays_syncs() {
        let (egl, dpy) = current();
        let s = egl
            .create_sync::<EGLint>(dpy, EGL_SYNC_FENCE, &[], false)
            .unwrap();
        egl.terminate(dpy).unwrap();
        assert!(!egl.sync_exists(s));
        egl.initialize(dpy).unwrap();
        assert_eq!(egl.check_sync(dpy, Some(s)), Err(EglError::BAD_PARAMETER));
    }

    #[test]
    fn wait_sync_needs_the_current_display() {
        let (egl, dpy) = current();
        let s = egl
            .create_sync::<EGLint>(dpy, EGL_SYNC_FENCE, &[], false)
            .unwrap();
        egl.make_current(dpy, None, None, None).unwrap();
        assert_eq!(
            egl.check_wait_sync(dpy, Some(s), 0),
            Err(EglError::BAD_MATCH)
        );
        // A client wait needs no current context (another thread may wait).
        assert_eq!(egl.check_sync(dpy, Some(s)), Ok(()));
    }
}
