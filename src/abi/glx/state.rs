//! GLX's own bookkeeping over the EGL objects: the EGL display behind each `Display*`, what each
//! GLX context was made from, the EGL surface behind each GLX drawable, the visual → FBConfig
//! hints, and the thread's current GLX binding.
//!
//! One mutex guards it all; it is never held across a call that can reach the program (an X
//! error handler), so a handler that calls GLX back cannot deadlock.

use std::cell::Cell;
use std::collections::HashMap;
use std::ffi::c_int;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

/// What a GLX drawable is backed by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DrawableKind {
    /// An X window; `explicit` if made by `glXCreateWindow` (else the window itself was made
    /// current, and its surface was created then).
    Window {
        explicit: bool,
    },
    Pbuffer,
}

/// The EGL surface of one GLX drawable.
#[derive(Debug, Clone, Copy)]
pub(super) struct Drawable {
    pub surface: u64,
    pub kind: DrawableKind,
    /// Pbuffer attributes, reported by `glXQueryDrawable`.
    pub preserved: bool,
    pub largest: bool,
}

/// What a GLX context was made from.
#[derive(Debug, Clone, Copy)]
pub(super) struct ContextInfo {
    pub egl_display: u64,
    pub config: u64,
    pub screen: c_int,
}

#[derive(Default)]
pub(super) struct State {
    /// `Display*` → its initialized EGL display.
    pub displays: HashMap<usize, u64>,
    pub contexts: HashMap<u64, ContextInfo>,
    /// (`Display*`, XID) → drawable.
    pub drawables: HashMap<(usize, u64), Drawable>,
    /// (`Display*`, XID) → the swap interval set for it (EXT/MESA/SGI swap control), applied
    /// whenever it becomes the current draw drawable; 1 when never set.
    pub intervals: HashMap<(usize, u64), i32>,
    /// (`Display*`, visual id) → the FBConfig last chosen for that visual, so that a context
    /// created from the visual `glXChooseVisual` returned gets the config that was chosen (several
    /// configs share one X visual).
    pub visual_hints: HashMap<(usize, u32), u64>,
}

pub(super) fn state() -> MutexGuard<'static, State> {
    static STATE: OnceLock<Mutex<State>> = OnceLock::new();
    STATE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
}

/// The thread's current GLX binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Current {
    pub dpy: usize,
    pub ctx: u64,
    pub draw: u64,
    pub read: u64,
}

thread_local! {
    static CURRENT: Cell<Option<Current>> = const { Cell::new(None) };
}

pub(super) fn current() -> Option<Current> {
    CURRENT.try_with(Cell::get).ok().flatten()
}

pub(super) fn set_current(c: Option<Current>) {
    let _ = CURRENT.try_with(|cell| cell.set(c));
}

/// A new pbuffer XID. Real XIDs have their top three bits clear (X11 protocol), so ids from
/// `0x2000_0000` up can never collide with a window of the program.
pub(super) fn next_pbuffer_xid() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0x2000_0001);
    NEXT.fetch_add(1, Ordering::Relaxed)
}
