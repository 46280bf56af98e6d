//! Wayland for EGL (EGL_KHR_platform_wayland / EGL_EXT_platform_wayland): recognising a
//! `wl_display*`, checking a `wl_egl_window*`, and following it through resizes and its
//! destruction.
//!
//! Design:
//! - **No Wayland library is linked.** Only
//!   `eglGetPlatformDisplay(EGL_PLATFORM_WAYLAND_KHR, EGL_DEFAULT_DISPLAY)` loads
//!   libwayland-client (at run time), to connect to the default compositor. libwayland-egl is not
//!   needed at all: `struct wl_egl_window` is its stable ABI (`wayland-egl-backend.h`,
//!   `WL_EGL_WINDOW_VERSION` 3), read and written here as Mesa does.
//! - **Recognising objects.** A Wayland proxy starts with its interface pointer, and an interface
//!   with its name, so a `wl_display*` is a pointer whose interface is called `wl_display` (Mesa
//!   compares the interface address with its own `&wl_display_interface`; names also accept
//!   clients that carry their own copies of the interface structs, as waffle does), a
//!   `wl_surface*` one whose interface is called `wl_surface`. Every pointer the program
//!   hands over is first checked to be plausible (not in the first page, aligned) and readable
//!   (a `write` of its bytes into a socket answers `EFAULT` for unmapped memory instead of
//!   faulting), so garbage is `EGL_BAD_PARAMETER` / `EGL_BAD_NATIVE_WINDOW`, never a crash. A
//!   dangling pointer into memory that is still mapped cannot be detected (as in any EGL).
//! - **Window lifetime.** A surface claims its `wl_egl_window`: `driver_private` (the EGL
//!   surface handle; a window already claimed is `EGL_BAD_ALLOC`, as on Mesa),
//!   `resize_callback` (records the new size, which the next `eglSwapBuffers` presents at and
//!   resizes the surface to) and `destroy_window_callback` (the window is gone: the next swap is
//!   `EGL_BAD_NATIVE_WINDOW`). `eglDestroySurface` hands a live window back (the three fields
//!   cleared). All window state sits behind one mutex, which the destroy callback also takes,
//!   so a swap never touches a freed window.
//! - **Presenting** is the memory manager's (`VK_KHR_wayland_surface`, the swapchain in
//!   `memory/src/vulkan/present.rs`); a Wayland surface has no size of its own, so the window's
//!   width and height are handed to it. `dx`/`dy` are not applied (the swapchain attaches at
//!   0,0); `attached_width`/`attached_height` report the size of the last frame swapped.

use std::collections::HashMap;
use std::ffi::{c_int, c_void};
use std::os::fd::AsRawFd;
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use arenagl_present::{EglError, EglResult};

/// `struct wl_egl_window` of libwayland-egl (`wayland-egl-backend.h`), version 3.
#[repr(C)]
struct WlEglWindow {
    version: isize,
    width: c_int,
    height: c_int,
    dx: c_int,
    dy: c_int,
    attached_width: c_int,
    attached_height: c_int,
    driver_private: *mut c_void,
    resize_callback: Option<unsafe extern "C" fn(*mut WlEglWindow, *mut c_void)>,
    destroy_window_callback: Option<unsafe extern "C" fn(*mut c_void)>,
    surface: *mut c_void,
}

/// The struct layout this file knows (`WL_EGL_WINDOW_VERSION`); later versions only append.
const WL_EGL_WINDOW_VERSION: isize = 3;

const CLIENT_SONAME: &str = "libwayland-client.so.0";

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

extern "C" {
    fn write(fd: c_int, buf: *const c_void, count: usize) -> isize;
}

/// Whether `len` bytes at `addr` are plausible (past the first page, aligned) and mapped
/// readable: the kernel copies them into a socket, answering `EFAULT` instead of faulting.
pub(crate) fn readable(addr: usize, len: usize) -> bool {
    if addr < 4096 || addr % std::mem::align_of::<usize>() != 0 {
        return false;
    }
    let Ok((writer, _reader)) = std::os::unix::net::UnixStream::pair() else {
        return false;
    };
    let ptr = std::ptr::without_provenance::<c_void>(addr);
    // SAFETY: `write` only reads `len` bytes through the kernel, which reports unmapped memory as
    // EFAULT; the socket's buffer takes `len` (a few words) without blocking.
    let written = unsafe { write(writer.as_raw_fd(), ptr, len) };
    written == len as isize
}

/// The word at `addr` if it is plausible and readable.
fn read_word(addr: usize) -> Option<usize> {
    if !readable(addr, std::mem::size_of::<usize>()) {
        return None;
    }
    // SAFETY: the word is mapped and aligned (checked just above).
    Some(unsafe { std::ptr::with_exposed_provenance::<usize>(addr).read() })
}

/// Whether `addr` is a live-looking proxy of the interface called `name` (NUL-terminated): its
/// first word points at a `struct wl_interface`, whose first word points at the name. Names, not
/// interface addresses, because a client may carry its own copies of the interface structs
/// (waffle does: it loads libwayland-client at run time, as ArenaGL does).
fn is_proxy(addr: usize, name: &[u8]) -> bool {
    let Some(name_ptr) = read_word(addr).and_then(read_word) else {
        return false;
    };
    // Any address: the name needs no alignment; `readable` wants it aligned, so read the
    // aligned words that cover it.
    let start = name_ptr & !(std::mem::align_of::<usize>() - 1);
    let span = (name_ptr - start + name.len()).next_multiple_of(std::mem::size_of::<usize>());
    if !readable(start, span) {
        return false;
    }
    let text = std::ptr::with_exposed_provenance::<u8>(name_ptr);
    // SAFETY: the bytes `name_ptr..name_ptr + name.len()` lie in the readable span checked above.
    let bytes = unsafe { std::slice::from_raw_parts(text, name.len()) };
    bytes == name
}

/// Whether `native` is a `wl_display*` (for `eglGetDisplay`, which has no platform argument).
pub(crate) fn is_display(native: usize) -> bool {
    is_proxy(native, b"wl_display\0")
}

/// The `wl_display*` an `eglGetPlatformDisplay(EGL_PLATFORM_WAYLAND_KHR, native)` names:
/// `native` itself when it is one, the default compositor (`$WAYLAND_DISPLAY`, connected once)
/// for `EGL_DEFAULT_DISPLAY`. `EGL_BAD_PARAMETER` for anything else or no compositor.
pub(crate) fn platform_display(native: usize) -> EglResult<usize> {
    if native == 0 {
        return default_display().ok_or(EglError::BAD_PARAMETER);
    }
    match is_display(native) {
        true => Ok(native),
        false => Err(EglError::BAD_PARAMETER),
    }
}

/// A connection of ArenaGL's own to the default compositor (`wl_display_connect(NULL)`), kept
/// for the process; `None` without libwayland-client or a compositor.
fn default_display() -> Option<usize> {
    static DISPLAY: OnceLock<Option<(libloading::Library, usize)>> = OnceLock::new();
    type Connect = unsafe extern "C" fn(*const std::ffi::c_char) -> *mut c_void;
    DISPLAY
        .get_or_init(|| {
            // SAFETY: libwayland-client's initialisers are safe to run; it stays loaded for the
            // process (in this static), as the connection it opens must.
            let lib = unsafe { libloading::Library::new(CLIENT_SONAME) }.ok()?;
            // SAFETY: `wl_display_connect` has exactly this C signature.
            let connect = *unsafe { lib.get::<Connect>(b"wl_display_connect\0") }.ok()?;
            // SAFETY: NULL asks for `$WAYLAND_DISPLAY`; the result is NULL or a new connection.
            let display = unsafe { connect(std::ptr::null()) };
            (!display.is_null()).then(|| (lib, display.addr()))
        })
        .as_ref()
        .map(|(_, d)| *d)
}

/// What a checked `wl_egl_window` gives a new surface.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WindowInfo {
    /// The `wl_surface*`.
    pub(crate) surface: usize,
    pub(crate) width: u32,
    pub(crate) height: u32,
}

/// Checks that `native` is a `wl_egl_window*` of a live-looking `wl_surface` with a size:
/// `EGL_BAD_NATIVE_WINDOW` otherwise, `EGL_BAD_ALLOC` when another surface already has it.
pub(crate) fn check_window(native: usize) -> EglResult<WindowInfo> {
    let _windows = lock(windows());
    if !readable(native, std::mem::size_of::<WlEglWindow>()) {
        return Err(EglError::BAD_NATIVE_WINDOW);
    }
    let win = std::ptr::with_exposed_provenance::<WlEglWindow>(native);
    // SAFETY: the struct's bytes are mapped and aligned (checked above); every field is plain
    // data or a pointer read as a value.
    let w = unsafe { win.read() };
    let surface_ok = is_proxy(w.surface.addr(), b"wl_surface\0");
    let size = (u32::try_from(w.width), u32::try_from(w.height));
    let (Ok(width @ 1..), Ok(height @ 1..)) = size else {
        return Err(EglError::BAD_NATIVE_WINDOW);
    };
    if w.version < WL_EGL_WINDOW_VERSION || w.version > 0xffff || !surface_ok {
        return Err(EglError::BAD_NATIVE_WINDOW);
    }
    if !w.driver_private.is_null() {
        return Err(EglError::BAD_ALLOC);
    }
    Ok(WindowInfo {
        surface: w.surface.addr(),
        width,
        height,
    })
}

/// A claimed window: `None` once the program destroyed it.
struct Claimed {
    window: Option<usize>,
    /// The size the program last gave it (`wl_egl_window_create` / `_resize`).
    size: (u32, u32),
}

/// Claimed windows by EGL surface handle.
fn windows() -> &'static Mutex<HashMap<u64, Claimed>> {
    static WINDOWS: OnceLock<Mutex<HashMap<u64, Claimed>>> = OnceLock::new();
    WINDOWS.get_or_init(Default::default)
}

/// `resize_callback`: records the window's new size for the next swap.
unsafe extern "C" fn on_resize(win: *mut WlEglWindow, private: *mut c_void) {
    super::guard::guard((), || {
        let mut map = lock(windows());
        let Some(c) = map.get_mut(&(private.addr() as u64)) else {
            return;
        };
        if c.window != Some(win.addr()) {
            return;
        }
        // SAFETY: libwayland-egl calls this with its live window, which this surface claimed.
        let (w, h) = unsafe { ((*win).width, (*win).height) };
        c.size = (u32::try_from(w).unwrap_or(0), u32::try_from(h).unwrap_or(0));
    });
}

/// `destroy_window_callback`: the window is being freed; the surface forgets it.
unsafe extern "C" fn on_destroy(private: *mut c_void) {
    super::guard::guard((), || {
        if let Some(c) = lock(windows()).get_mut(&(private.addr() as u64)) {
            c.window = None;
        }
    });
}

/// Claims the checked window `native` for surface `handle`.
pub(crate) fn claim(handle: u64, native: usize, info: WindowInfo) {
    let mut map = lock(windows());
    let win = std::ptr::with_exposed_provenance_mut::<WlEglWindow>(native);
    // SAFETY: `check_window` found a version-3 window here; the program keeps it alive while a
    // surface uses it (EGL's rule), and its destroy callback (set here) ends our use of it.
    unsafe {
        (*win).driver_private = std::ptr::without_provenance_mut(handle as usize);
        (*win).resize_callback = Some(on_resize);
        (*win).destroy_window_callback = Some(on_destroy);
    }
    let claimed = Claimed {
        window: Some(native),
        size: (info.width, info.height),
    };
    map.insert(handle, claimed);
}

/// Hands surface `handle`'s window back (`eglDestroySurface`); nothing for other surfaces.
pub(crate) fn release(handle: u64) {
    let Some(c) = lock(windows()).remove(&handle) else {
        return;
    };
    if let Some(native) = c.window {
        let win = std::ptr::with_exposed_provenance_mut::<WlEglWindow>(native);
        // SAFETY: the window is live (its destroy callback has not run; it takes this lock).
        unsafe {
            (*win).driver_private = std::ptr::null_mut();
            (*win).resize_callback = None;
            (*win).destroy_window_callback = None;
        }
    }
}

/// The size to present surface `handle` at: `Ok(None)` for a surface without a Wayland window,
/// `EGL_BAD_NATIVE_WINDOW` once the program destroyed its window.
pub(crate) fn stated_size(handle: u64) -> EglResult<Option<(u32, u32)>> {
    match lock(windows()).get(&handle) {
        None => Ok(None),
        Some(Claimed { window: None, .. }) => Err(EglError::BAD_NATIVE_WINDOW),
        Some(c) => Ok(Some(c.size)),
    }
}

/// After a swap of surface `handle` at `size`: the window's attached size
/// (`wl_egl_window_get_attached_size`).
pub(crate) fn note_attached(handle: u64, size: (u32, u32)) {
    let map = lock(windows());
    let Some(native) = map.get(&handle).and_then(|c| c.window) else {
        return;
    };
    let win = std::ptr::with_exposed_provenance_mut::<WlEglWindow>(native);
    let int = |v: u32| c_int::try_from(v).unwrap_or(c_int::MAX);
    // SAFETY: as in `release`.
    unsafe {
        (*win).attached_width = int(size.0);
        (*win).attached_height = int(size.1);
    }
}
