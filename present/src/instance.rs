//! The EGL instance: one lock-protected registry of displays, contexts, surfaces and syncs.
//!
//! EGL is thread-safe and its objects are shared between threads, so all object state sits behind
//! one `Mutex` (EGL calls are rare and short; there is nothing to gain from finer locks). Only the
//! per-thread facts (bound API, last error, current binding) live in thread-locals, see
//! [`crate::current`]. Every public entry point records its outcome as the thread's last error, as
//! `eglGetError` requires; the getters the spec exempts (`eglGetCurrent*`, `eglQueryAPI`,
//! `eglGetError`) do not.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::ThreadId;

use crate::context::ContextState;
use crate::current::{self, Binding};
use crate::display::{DisplayState, Platform};
use crate::egl::{EGLint, EGL_SUCCESS};
use crate::error::{EglError, EglResult};
use crate::handle::{Context, Display, Kind, RawHandle, Slab, Surface};
use crate::surface::SurfaceState;
use crate::sync::SyncState;

/// An EGL implementation instance. The C ABI owns one for the process; tests make their own.
#[derive(Clone)]
pub struct Egl {
    pub(crate) shared: Arc<Shared>,
}

pub(crate) struct Shared {
    /// Keys this instance's thread-local state (see [`crate::current`]).
    pub(crate) id: u64,
    registry: Mutex<Registry>,
}

impl Shared {
    /// A panic while the lock was held left no half-updated invariant that matters more than
    /// staying usable (every mutation is a single field store), so poisoning is ignored.
    pub(crate) fn lock(&self) -> MutexGuard<'_, Registry> {
        self.registry.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

pub(crate) struct Registry {
    /// Displays are never destroyed (EGL has no call for it): the fixed platforms first (index =
    /// platform), then one per X11 `Display*` in order of first request.
    pub(crate) displays: Vec<DisplayState>,
    pub(crate) contexts: Slab<ContextState>,
    pub(crate) surfaces: Slab<SurfaceState>,
    pub(crate) syncs: Slab<SyncState>,
}

impl Default for Egl {
    fn default() -> Self {
        Self::new()
    }
}

impl Egl {
    /// A fresh instance with no initialized display.
    pub fn new() -> Self {
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        let registry = Registry {
            displays: Platform::FIXED.map(DisplayState::new).into(),
            contexts: Slab::new(Kind::Context),
            surfaces: Slab::new(Kind::Surface),
            syncs: Slab::new(Kind::Sync),
        };
        Self {
            shared: Arc::new(Shared {
                id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
                registry: Mutex::new(registry),
            }),
        }
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, Registry> {
        self.shared.lock()
    }

    pub(crate) fn with_thread<R>(&self, f: impl FnOnce(&mut current::ThreadState) -> R) -> R {
        current::with(&self.shared, f)
    }

    /// Stores the outcome as this thread's last error and passes it on. Public for the C ABI,
    /// which reports the failures it finds before reaching a method (NULL out-pointers, handles
    /// of the wrong kind, caught panics) through the same per-thread slot.
    pub fn record<T>(&self, result: EglResult<T>) -> EglResult<T> {
        let code = match &result {
            Ok(_) => EGL_SUCCESS,
            Err(e) => e.code(),
        };
        self.with_thread(|t| t.last_error = code);
        result
    }

    /// `eglGetError`: this thread's last error, reset to `EGL_SUCCESS`.
    pub fn get_error(&self) -> EGLint {
        self.with_thread(|t| std::mem::replace(&mut t.last_error, EGL_SUCCESS))
    }
}

impl Registry {
    /// The display's index, or `EGL_BAD_DISPLAY`.
    pub(crate) fn display_index(&self, dpy: Display) -> EglResult<usize> {
        let i = dpy.0.index() as usize;
        if dpy.0.generation() == 1 && i < self.displays.len() {
            Ok(i)
        } else {
            Err(EglError::BAD_DISPLAY)
        }
    }

    /// The display's index if it is valid and initialized.
    pub(crate) fn initialized(&self, dpy: Display) -> EglResult<usize> {
        let i = self.display_index(dpy)?;
        if self.displays[i].initialized {
            Ok(i)
        } else {
            Err(EglError::NOT_INITIALIZED)
        }
    }

    /// A context the application may still name: not destroyed, not pending destruction, of this
    /// display.
    pub(crate) fn live_context(&self, display: usize, ctx: Context) -> EglResult<&ContextState> {
        self.contexts
            .get(ctx.0)
            .filter(|c| c.display == display && !c.pending_destroy)
            .ok_or(EglError::BAD_CONTEXT)
    }

    pub(crate) fn live_surface(
        &self,
        display: usize,
        surface: Surface,
    ) -> EglResult<&SurfaceState> {
        self.surfaces
            .get(surface.0)
            .filter(|s| s.display == display && !s.pending_destroy)
            .ok_or(EglError::BAD_SURFACE)
    }

    /// Makes `binding` no longer current and frees what was waiting for that.
    pub(crate) fn unbind(&mut self, binding: Binding) {
        if let Some(ctx) = self.contexts.get_mut(binding.context.0) {
            ctx.current_thread = None;
        }
        self.free_context_if_unused(binding.context.0);
        for s in [binding.draw, binding.read].into_iter().flatten() {
            if let Some(state) = self.surfaces.get_mut(s.0) {
                state.bound_thread = None;
            }
            self.free_surface_if_unused(s.0);
        }
    }

    /// Binds the (already validated) objects of `binding` to `thread`.
    pub(crate) fn bind(&mut self, binding: Binding, thread: ThreadId) {
        if let Some(ctx) = self.contexts.get_mut(binding.context.0) {
            ctx.current_thread = Some(thread);
        }
        for s in [binding.draw, binding.read].into_iter().flatten() {
            if let Some(state) = self.surfaces.get_mut(s.0) {
                state.bound_thread = Some(thread);
            }
        }
    }

    pub(crate) fn free_context_if_unused(&mut self, h: RawHandle) {
        if self
            .contexts
            .get(h)
            .is_some_and(|c| c.pending_destroy && c.current_thread.is_none())
        {
            self.contexts.remove(h);
        }
    }

    pub(crate) fn free_surface_if_unused(&mut self, h: RawHandle) {
        if self
            .surfaces
            .get(h)
            .is_some_and(|s| s.pending_destroy && s.bound_thread.is_none())
        {
            self.surfaces.remove(h);
        }
    }

    /// Live object counts (contexts, surfaces), pending ones included, for leak tests.
    pub(crate) fn counts(&self) -> (usize, usize) {
        (self.contexts.handles().len(), self.surfaces.handles().len())
    }
}

impl Egl {
    /// How many contexts and surfaces exist, including those whose destruction waits until they
    /// are no longer current. For tests and leak reports.
    pub fn object_counts(&self) -> (usize, usize) {
        self.lock().counts()
    }
}
