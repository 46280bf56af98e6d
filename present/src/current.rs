//! Per-thread EGL state: the bound API, the last error and the current binding.
//!
//! EGL keeps these per thread, so they live in a thread-local, keyed by the [`crate::Egl`]
//! instance (the C ABI has one; tests make many, and must not see each other's bindings). The
//! registry is the only place that says which thread a context is current in; this is the
//! thread's own view of the same fact. When a thread exits with a context current, its entry's
//! destructor releases the binding in the registry so the context is not stuck "current in
//! another thread" forever (and a context destroyed while current is freed).

use std::cell::RefCell;
use std::sync::Weak;

use crate::egl::{EGLenum, EGLint, EGL_OPENGL_ES_API, EGL_SUCCESS};
use crate::handle::{Context, Display, Surface};
use crate::instance::Shared;

/// What `eglMakeCurrent` bound in this thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Binding {
    pub(crate) display: Display,
    pub(crate) context: Context,
    pub(crate) draw: Option<Surface>,
    pub(crate) read: Option<Surface>,
}

pub(crate) struct ThreadState {
    instance: Weak<Shared>,
    instance_id: u64,
    /// `eglBindAPI`; the spec's initial value is OpenGL ES.
    pub(crate) api: EGLenum,
    pub(crate) last_error: EGLint,
    pub(crate) binding: Option<Binding>,
}

impl Drop for ThreadState {
    fn drop(&mut self) {
        if let (Some(binding), Some(shared)) = (self.binding.take(), self.instance.upgrade()) {
            shared.lock().unbind(binding);
        }
    }
}

thread_local! {
    static THREAD: RefCell<Vec<ThreadState>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` on this thread's state for `shared`, creating it on first use. `f` must not call back
/// into this module.
pub(crate) fn with<R>(shared: &std::sync::Arc<Shared>, f: impl FnOnce(&mut ThreadState) -> R) -> R {
    let id = shared.id;
    let fresh = || ThreadState {
        instance: std::sync::Arc::downgrade(shared),
        instance_id: id,
        api: EGL_OPENGL_ES_API,
        last_error: EGL_SUCCESS,
        binding: None,
    };
    // At thread or process exit (glvnd calls eglReleaseThread from a destructor) the thread's
    // state may already be destroyed: the call then runs on a fresh state that is discarded,
    // as for a thread that never made a call.
    let mut f = Some(f);
    let result = THREAD.try_with(|cell| {
        let mut states = cell.borrow_mut();
        let pos = match states.iter().position(|s| s.instance_id == id) {
            Some(pos) => pos,
            None => {
                // Entries of dropped instances hold nothing that needs releasing.
                states.retain(|s| s.instance.strong_count() > 0);
                states.push(fresh());
                states.len() - 1
            }
        };
        f.take().map(|f| f(&mut states[pos]))
    });
    match (result, f) {
        (Ok(Some(r)), _) => r,
        (_, Some(f)) => f(&mut fresh()),
        // `f` ran inside `try_with` and returned nothing: impossible (it always returns), but
        // keep the types honest without a panic path.
        (_, None) => unreachable_state(),
    }
}

/// The `(Ok(None), None)` case of [`with`]: `f` was taken and run, so its result is `Some`.
#[cold]
fn unreachable_state() -> ! {
    unreachable!("current::with ran its closure without a result")
}

use crate::egl::{EGL_DRAW, EGL_READ, EGL_RENDERABLE_TYPE};
use crate::error::{EglError, EglResult};
use crate::instance::Egl;

impl Egl {
    /// `eglMakeCurrent` (EGL 1.5 §3.7.3). All of `draw`, `read` and `ctx` `None` releases the
    /// thread's binding, which an uninitialized (terminated) display allows; a context with both
    /// surfaces `None` is surfaceless (EGL_KHR_surfaceless_context).
    pub fn make_current(
        &self,
        dpy: Display,
        draw: Option<Surface>,
        read: Option<Surface>,
        ctx: Option<Context>,
    ) -> EglResult<()> {
        let result = self.make_current_inner(dpy, draw, read, ctx);
        self.record(result)
    }

    fn make_current_inner(
        &self,
        dpy: Display,
        draw: Option<Surface>,
        read: Option<Surface>,
        ctx: Option<Context>,
    ) -> EglResult<()> {
        let thread = std::thread::current().id();
        let old = self.with_thread(|t| t.binding);
        let mut reg = self.lock();
        let display = reg.display_index(dpy)?;
        let Some(ctx) = ctx else {
            if draw.is_some() || read.is_some() {
                return Err(EglError::BAD_MATCH);
            }
            if let Some(old) = old {
                reg.unbind(old);
            }
            drop(reg);
            self.with_thread(|t| t.binding = None);
            return Ok(());
        };
        reg.initialized(dpy)?;
        let context = reg.live_context(display, ctx)?;
        let (ctx_config, ctx_api_bit, ctx_thread, lost) = (
            context.info.config,
            match context.info.api {
                crate::context::ClientApi::OpenGl => crate::egl::EGL_OPENGL_BIT,
                crate::context::ClientApi::OpenGlEs => {
                    crate::egl::EGL_OPENGL_ES2_BIT | crate::egl::EGL_OPENGL_ES3_BIT
                }
            },
            context.current_thread,
            context.lost,
        );
        let mut surfaces = Vec::new();
        for s in [draw, read].into_iter().flatten() {
            surfaces.push(reg.live_surface(display, s)?);
        }
        if draw.is_some() != read.is_some() {
            return Err(EglError::BAD_MATCH);
        }
        if ctx_thread.is_some_and(|t| t != thread)
            || surfaces
                .iter()
                .any(|s| s.bound_thread.is_some_and(|t| t != thread))
        {
            return Err(EglError::BAD_ACCESS);
        }
        let ctx_desc = ctx_config.map(crate::display::config_desc).transpose()?;
        for s in &surfaces {
            let desc = crate::display::config_desc(s.config)?;
            let api_ok = desc.attrib(0, EGL_RENDERABLE_TYPE).unwrap_or(0) & ctx_api_bit != 0;
            if !api_ok || ctx_desc.is_some_and(|c| !c.compatible_with(desc)) {
                return Err(EglError::BAD_MATCH);
            }
        }
        if lost {
            return Err(EglError::CONTEXT_LOST);
        }
        let new = Binding {
            display: dpy,
            context: ctx,
            draw,
            read,
        };
        if let Some(old) = old {
            reg.unbind(old);
        }
        reg.bind(new, thread);
        drop(reg);
        self.with_thread(|t| t.binding = Some(new));
        Ok(())
    }

    /// `eglReleaseThread`: releases the thread's binding and resets its API and error state.
    pub fn release_thread(&self) -> EglResult<()> {
        if let Some(old) = self.with_thread(|t| t.binding.take()) {
            self.lock().unbind(old);
        }
        self.with_thread(|t| t.api = EGL_OPENGL_ES_API);
        self.record(Ok(()))
    }

    /// `eglGetCurrentContext`: still answers a context destroyed or terminated while current.
    pub fn get_current_context(&self) -> Option<Context> {
        self.with_thread(|t| t.binding.map(|b| b.context))
    }

    /// `eglGetCurrentDisplay`.
    pub fn get_current_display(&self) -> Option<Display> {
        self.with_thread(|t| t.binding.map(|b| b.display))
    }

    /// `eglGetCurrentSurface(EGL_DRAW | EGL_READ)`; anything else is `EGL_BAD_PARAMETER`.
    pub fn get_current_surface(&self, readdraw: EGLint) -> EglResult<Option<Surface>> {
        let binding = self.with_thread(|t| t.binding);
        let result = match readdraw {
            EGL_DRAW => Ok(binding.and_then(|b| b.draw)),
            EGL_READ => Ok(binding.and_then(|b| b.read)),
            _ => Err(EglError::BAD_PARAMETER),
        };
        // Only failures touch the error state here; the getters do not reset it.
        match result {
            Ok(v) => Ok(v),
            Err(e) => self.record(Err(e)),
        }
    }
}
