//! libxcb, loaded at run time (ArenaGL links no X library), for EGL_EXT_platform_xcb: a
//! connection's screens and their visuals for EGL configs, a window's visual, and the connection
//! ArenaGL opens itself for `EGL_DEFAULT_DISPLAY`.
//!
//! Design:
//! - libxcb is opened once with `libloading` and kept for the process; without it the XCB
//!   platform has no displays (`EGL_BAD_PARAMETER`).
//! - Visuals come from the connection's setup (no round trip): the screen's depths and their
//!   visual types, filtered by the same rule as Xlib's (`x11::usable_layout`), the screen's root
//!   visual first. They go to the EGL model as plain data, as the Xlib ones do.
//! - Window checks ask the server (`GetWindowAttributes`) with the reply's error returned to the
//!   caller: XCB never sends a checked request's error to an event queue or a handler, so a
//!   garbage or destroyed XID is simply "no window" here.
//! - A connection pointer from the program is checked before use: plausible (past the first
//!   page, aligned), readable, and without a connection error (`xcb_connection_has_error`).

use std::ffi::{c_char, c_int, c_void};
use std::sync::OnceLock;

use arenagl_present::NativeVisual;

/// `xcb_connection_t*`, opaque.
pub(crate) type XcbConnection = *mut c_void;

/// The iterators of `<xcb/xproto.h>`: a pointer to the current item, how many remain, and the
/// byte index.
#[repr(C)]
#[derive(Clone, Copy)]
struct Iter<T> {
    data: *mut T,
    rem: c_int,
    index: c_int,
}

/// `xcb_screen_t`.
#[repr(C)]
struct Screen {
    root: u32,
    default_colormap: u32,
    white_pixel: u32,
    black_pixel: u32,
    current_input_masks: u32,
    width_in_pixels: u16,
    height_in_pixels: u16,
    width_in_millimeters: u16,
    height_in_millimeters: u16,
    min_installed_maps: u16,
    max_installed_maps: u16,
    root_visual: u32,
    backing_stores: u8,
    save_unders: u8,
    root_depth: u8,
    allowed_depths_len: u8,
}

/// `xcb_depth_t`.
#[repr(C)]
struct Depth {
    depth: u8,
    pad0: u8,
    visuals_len: u16,
    pad1: [u8; 4],
}

/// `xcb_visualtype_t`.
#[repr(C)]
struct VisualType {
    visual_id: u32,
    class: u8,
    bits_per_rgb_value: u8,
    colormap_entries: u16,
    red_mask: u32,
    green_mask: u32,
    blue_mask: u32,
    pad0: [u8; 4],
}

/// The start of `xcb_get_window_attributes_reply_t` (only `visual` is read).
#[repr(C)]
struct WindowAttributesReply {
    response_type: u8,
    backing_store: u8,
    sequence: u16,
    length: u32,
    visual: u32,
}

/// A request's cookie (`xcb_get_window_attributes_cookie_t`).
#[repr(C)]
#[derive(Clone, Copy)]
struct Cookie {
    sequence: u32,
}

/// The libxcb functions ArenaGL calls, each with its C signature from `<xcb/xcb.h>` and
/// `<xcb/xproto.h>`.
pub(crate) struct Xcb {
    _lib: libloading::Library,
    connect: unsafe extern "C" fn(*const c_char, *mut c_int) -> XcbConnection,
    has_error: unsafe extern "C" fn(XcbConnection) -> c_int,
    get_setup: unsafe extern "C" fn(XcbConnection) -> *const c_void,
    roots: unsafe extern "C" fn(*const c_void) -> Iter<Screen>,
    screen_next: unsafe extern "C" fn(*mut Iter<Screen>),
    depths: unsafe extern "C" fn(*const Screen) -> Iter<Depth>,
    depth_next: unsafe extern "C" fn(*mut Iter<Depth>),
    visuals: unsafe extern "C" fn(*const Depth) -> Iter<VisualType>,
    visual_next: unsafe extern "C" fn(*mut Iter<VisualType>),
    window_attributes: unsafe extern "C" fn(XcbConnection, u32) -> Cookie,
    window_attributes_reply:
        unsafe extern "C" fn(XcbConnection, Cookie, *mut *mut c_void) -> *mut WindowAttributesReply,
}

// SAFETY: function pointers into a library that stays loaded for the process; libxcb is
// thread-safe (its connection has its own lock).
unsafe impl Send for Xcb {}
// SAFETY: as above; the struct is immutable after loading.
unsafe impl Sync for Xcb {}

extern "C" {
    fn free(ptr: *mut c_void);
}

/// libxcb, loaded on first need; `None` without it.
pub(crate) fn xcb() -> Option<&'static Xcb> {
    static XCB: OnceLock<Option<Xcb>> = OnceLock::new();
    XCB.get_or_init(|| {
        // SAFETY: loading libxcb runs its initialisers, which are safe; each symbol is looked up
        // with the signature `<xcb/xcb.h>`/`<xcb/xproto.h>` give it.
        unsafe {
            let lib = libloading::Library::new("libxcb.so.1").ok()?;
            macro_rules! sym {
                ($name:literal) => {
                    *lib.get($name).ok()?
                };
            }
            Some(Xcb {
                connect: sym!(b"xcb_connect\0"),
                has_error: sym!(b"xcb_connection_has_error\0"),
                get_setup: sym!(b"xcb_get_setup\0"),
                roots: sym!(b"xcb_setup_roots_iterator\0"),
                screen_next: sym!(b"xcb_screen_next\0"),
                depths: sym!(b"xcb_screen_allowed_depths_iterator\0"),
                depth_next: sym!(b"xcb_depth_next\0"),
                visuals: sym!(b"xcb_depth_visuals_iterator\0"),
                visual_next: sym!(b"xcb_visualtype_next\0"),
                window_attributes: sym!(b"xcb_get_window_attributes\0"),
                window_attributes_reply: sym!(b"xcb_get_window_attributes_reply\0"),
                _lib: lib,
            })
        }
    })
    .as_ref()
}

/// Whether `conn` looks like a live, healthy `xcb_connection_t*`: plausible, its first words
/// readable, and no connection error.
pub(crate) fn usable_connection(conn: usize) -> bool {
    let Some(x) = xcb() else {
        return false;
    };
    if !super::wayland::readable(conn, 2 * std::mem::size_of::<usize>()) {
        return false;
    }
    // SAFETY: the pointer is readable where libxcb looks first (`has_error` is the first field
    // of `struct xcb_connection_t`); a program passing a non-connection that happens to be
    // readable breaks EGL's contract, as with any EGL.
    unsafe { (x.has_error)(std::ptr::with_exposed_provenance_mut(conn)) == 0 }
}

/// The connection ArenaGL opens itself for `EGL_DEFAULT_DISPLAY` on the XCB platform (to
/// `$DISPLAY`, once; `None` without libxcb or a server).
pub(crate) fn default_connection() -> Option<usize> {
    static DEFAULT: OnceLock<Option<usize>> = OnceLock::new();
    *DEFAULT.get_or_init(|| {
        let x = xcb()?;
        // SAFETY: NULL display name and screen out-pointer are allowed; the connection is kept
        // for the process.
        let conn = unsafe { (x.connect)(std::ptr::null(), std::ptr::null_mut()) };
        // SAFETY: xcb_connect always returns a connection object (an error one on failure).
        let healthy = !conn.is_null() && unsafe { (x.has_error)(conn) } == 0;
        healthy.then(|| conn.expose_provenance())
    })
}

/// One visual of the setup, with the depth it belongs to.
struct SetupVisual {
    depth: u8,
    id: u32,
    class: u8,
    masks: (u32, u32, u32),
}

impl Xcb {
    /// Every visual of `screen` with its depth, and the screen's root visual; `None` when the
    /// connection has no such screen.
    ///
    /// # Safety
    /// `conn` is a live connection.
    unsafe fn setup_visuals(
        &self,
        conn: XcbConnection,
        screen: i32,
    ) -> Option<(Vec<SetupVisual>, u32)> {
        // SAFETY: the caller's live connection; libxcb's iterators walk its own setup data.
        unsafe {
            let mut screens = (self.roots)((self.get_setup)(conn));
            for _ in 0..screen {
                if screens.rem <= 0 {
                    return None;
                }
                (self.screen_next)(&mut screens);
            }
            if screens.rem <= 0 || screen < 0 {
                return None;
            }
            let s = screens.data;
            let mut out = Vec::new();
            let mut depths = (self.depths)(s);
            while depths.rem > 0 {
                let d = depths.data;
                let mut visuals = (self.visuals)(d);
                while visuals.rem > 0 {
                    let v = &*visuals.data;
                    out.push(SetupVisual {
                        depth: (*d).depth,
                        id: v.visual_id,
                        class: v.class,
                        masks: (v.red_mask, v.green_mask, v.blue_mask),
                    });
                    (self.visual_next)(&mut visuals);
                }
                (self.depth_next)(&mut depths);
            }
            Some((out, (*s).root_visual))
        }
    }

    /// The GL-usable visuals of `screen`, its root visual first; `None` without that screen.
    ///
    /// # Safety
    /// `conn` is a live connection.
    pub(crate) unsafe fn screen_visuals(
        &self,
        conn: XcbConnection,
        screen: i32,
    ) -> Option<Vec<NativeVisual>> {
        // SAFETY: the caller's obligation.
        let (all, root) = unsafe { self.setup_visuals(conn, screen) }?;
        let mut visuals: Vec<NativeVisual> = all
            .iter()
            .filter(|v| {
                super::x11::usable_layout(c_int::from(v.class), c_int::from(v.depth), v.masks)
            })
            .map(native)
            .collect();
        // Stable: the root visual leads, the server's order otherwise.
        visuals.sort_by_key(|v| v.id != root);
        Some(visuals)
    }

    /// The visual of window `xid` (its class and depth from the setup), or `None` when the XID
    /// is not a window (the error is taken with the reply, never queued).
    ///
    /// # Safety
    /// `conn` is a live connection.
    pub(crate) unsafe fn window_visual(
        &self,
        conn: XcbConnection,
        xid: u32,
    ) -> Option<NativeVisual> {
        let mut error: *mut c_void = std::ptr::null_mut();
        // SAFETY: the caller's live connection; the reply and error are malloc'd by libxcb and
        // freed once here.
        let visual = unsafe {
            let cookie = (self.window_attributes)(conn, xid);
            let reply = (self.window_attributes_reply)(conn, cookie, &mut error);
            if !error.is_null() {
                free(error);
            }
            if reply.is_null() {
                return None;
            }
            let visual = (*reply).visual;
            free(reply.cast());
            visual
        };
        // A window's visual is one of its server's: search every screen.
        for screen in 0.. {
            // SAFETY: as above.
            let (all, _) = unsafe { self.setup_visuals(conn, screen) }?;
            if let Some(v) = all.iter().find(|v| v.id == visual) {
                return Some(native(v));
            }
        }
        None
    }
}

fn native(v: &SetupVisual) -> NativeVisual {
    NativeVisual {
        id: v.id,
        depth: u32::from(v.depth),
        class: i32::from(v.class),
    }
}
