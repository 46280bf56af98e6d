//! An X11 window for a session's frames (`arenagl demo --window`): libX11 loaded at run time, one
//! connection to `$DISPLAY`, one top-level window whose close button is reported instead of
//! killing the process.
//!
//! Design decisions:
//! - libX11 is loaded by soname, like the libEGL: the binary links no X library, so headless runs
//!   need none installed.
//! - Xlib's default error handlers end the process (`exit(1)`) on a protocol error or a broken
//!   connection, which would lose the run's statistics. Both are replaced by handlers that only
//!   record what happened; the broken connection needs `XSetIOErrorExitHandler` (libX11 ≥ 1.7),
//!   without which Xlib's default exit stays (the run then ends without statistics).
//! - `XInitThreads` comes first: a GL implementation may reach the same connection from its own
//!   threads (Vulkan WSI present threads, through XCB).
//! - Closing is the window manager's `WM_DELETE_WINDOW` message (the window stays alive until the
//!   session drops, so the last frame can still be drawn and read back), or the window destroyed.

use std::cell::Cell;
use std::ffi::{c_char, c_int, c_long, c_uint, c_ulong, c_void, CString};
use std::mem::ManuallyDrop;
use std::sync::atomic::{AtomicBool, Ordering};

use super::GlClientError;

/// Xlib's `Display*`.
pub type XDisplay = *mut c_void;
/// An X resource id (`Window`, `Atom`, `VisualID`).
pub type Xid = c_ulong;

type ErrorHandler = unsafe extern "C" fn(XDisplay, *mut c_void) -> c_int;
type IoErrorHandler = unsafe extern "C" fn(XDisplay) -> c_int;
type IoErrorExitHandler = unsafe extern "C" fn(XDisplay, *mut c_void);

/// `<X11/X.h>` event types and masks the window uses.
const DESTROY_NOTIFY: c_int = 17;
const CLIENT_MESSAGE: c_int = 33;
const STRUCTURE_NOTIFY_MASK: c_long = 1 << 17;

/// Xlib's `XEvent`: a union padded to 24 longs.
#[repr(C)]
struct XEvent {
    pad: [c_long; 24],
}

/// The prefix of `XClientMessageEvent` (`<X11/Xlib.h>`) up to the first long of its data.
#[repr(C)]
struct XClientMessageEvent {
    kind: c_int,
    serial: c_ulong,
    send_event: c_int,
    display: XDisplay,
    window: Xid,
    message_type: Xid,
    format: c_int,
    data0: c_long,
}

/// The prefix of `XDestroyWindowEvent`.
#[repr(C)]
struct XDestroyWindowEvent {
    kind: c_int,
    serial: c_ulong,
    send_event: c_int,
    display: XDisplay,
    event: Xid,
    window: Xid,
}

/// The libX11 entry points the window uses, with their `<X11/Xlib.h>` signatures.
struct Xlib {
    close_display: unsafe extern "C" fn(XDisplay) -> c_int,
    default_screen: unsafe extern "C" fn(XDisplay) -> c_int,
    root_window: unsafe extern "C" fn(XDisplay, c_int) -> Xid,
    black_pixel: unsafe extern "C" fn(XDisplay, c_int) -> c_ulong,
    default_visual: unsafe extern "C" fn(XDisplay, c_int) -> *mut c_void,
    visual_id: unsafe extern "C" fn(*mut c_void) -> Xid,
    #[allow(clippy::type_complexity)]
    create_simple_window: unsafe extern "C" fn(
        XDisplay,
        Xid,
        c_int,
        c_int,
        c_uint,
        c_uint,
        c_uint,
        c_ulong,
        c_ulong,
    ) -> Xid,
    store_name: unsafe extern "C" fn(XDisplay, Xid, *const c_char) -> c_int,
    intern_atom: unsafe extern "C" fn(XDisplay, *const c_char, c_int) -> Xid,
    set_wm_protocols: unsafe extern "C" fn(XDisplay, Xid, *mut Xid, c_int) -> c_int,
    select_input: unsafe extern "C" fn(XDisplay, Xid, c_long) -> c_int,
    map_window: unsafe extern "C" fn(XDisplay, Xid) -> c_int,
    resize_window: unsafe extern "C" fn(XDisplay, Xid, c_uint, c_uint) -> c_int,
    destroy_window: unsafe extern "C" fn(XDisplay, Xid) -> c_int,
    pending: unsafe extern "C" fn(XDisplay) -> c_int,
    next_event: unsafe extern "C" fn(XDisplay, *mut XEvent) -> c_int,
    sync: unsafe extern "C" fn(XDisplay, c_int) -> c_int,
    set_error_handler: unsafe extern "C" fn(Option<ErrorHandler>) -> Option<ErrorHandler>,
    set_io_error_handler: unsafe extern "C" fn(Option<IoErrorHandler>) -> Option<IoErrorHandler>,
    /// libX11 ≥ 1.7 only.
    set_io_error_exit_handler:
        Option<unsafe extern "C" fn(XDisplay, Option<IoErrorExitHandler>, *mut c_void)>,
}

const LIBX11: &str = "libX11.so.6";

impl Xlib {
    /// Loads libX11 (never unloaded: the GL implementation keeps using the connection's code).
    fn load() -> Result<(Xlib, libloading::Library), GlClientError> {
        let load_error = |reason: String| GlClientError::Load {
            path: LIBX11.into(),
            reason,
        };
        // SAFETY: libX11's initialisers are safe to run.
        let lib = unsafe { libloading::Library::new(LIBX11) }
            .map_err(|e| load_error(format!("{e} (Debian: libx11-6)")))?;
        macro_rules! sym {
            ($name:literal) => {
                // SAFETY: the field the value goes to has the symbol's C signature, and the
                // library outlives the pointer (it is never unloaded).
                *unsafe { lib.get(concat!($name, "\0").as_bytes()) }
                    .map_err(|e| load_error(format!("no {}: {e}", $name)))?
            };
        }
        let xlib = Xlib {
            close_display: sym!("XCloseDisplay"),
            default_screen: sym!("XDefaultScreen"),
            root_window: sym!("XRootWindow"),
            black_pixel: sym!("XBlackPixel"),
            default_visual: sym!("XDefaultVisual"),
            visual_id: sym!("XVisualIDFromVisual"),
            create_simple_window: sym!("XCreateSimpleWindow"),
            store_name: sym!("XStoreName"),
            intern_atom: sym!("XInternAtom"),
            set_wm_protocols: sym!("XSetWMProtocols"),
            select_input: sym!("XSelectInput"),
            map_window: sym!("XMapWindow"),
            resize_window: sym!("XResizeWindow"),
            destroy_window: sym!("XDestroyWindow"),
            pending: sym!("XPending"),
            next_event: sym!("XNextEvent"),
            sync: sym!("XSync"),
            set_error_handler: sym!("XSetErrorHandler"),
            set_io_error_handler: sym!("XSetIOErrorHandler"),
            // SAFETY: as in `sym!`; this one may be missing (older libX11).
            set_io_error_exit_handler: unsafe { lib.get(b"XSetIOErrorExitHandler\0") }
                .ok()
                .map(|f| *f),
        };
        Ok((xlib, lib))
    }
}

/// Set by the handlers below: Xlib calls them from inside whichever Xlib call failed.
static CONNECTION_LOST: AtomicBool = AtomicBool::new(false);
static PROTOCOL_ERROR: AtomicBool = AtomicBool::new(false);

/// A protocol error (say the window destroyed under us): recorded, not fatal.
unsafe extern "C" fn on_error(_display: XDisplay, _event: *mut c_void) -> c_int {
    PROTOCOL_ERROR.store(true, Ordering::Relaxed);
    0
}

/// The connection broke: recorded; Xlib then calls the exit handler.
unsafe extern "C" fn on_io_error(_display: XDisplay) -> c_int {
    CONNECTION_LOST.store(true, Ordering::Relaxed);
    0
}

/// Replaces Xlib's `exit(1)`: returning leaves the display marked dead, and later Xlib calls on
/// it return without doing anything.
unsafe extern "C" fn on_io_error_exit(_display: XDisplay, _data: *mut c_void) {
    CONNECTION_LOST.store(true, Ordering::Relaxed);
}

/// Why a window run ends early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowEnd {
    /// The window manager asked to close the window (`WM_DELETE_WINDOW`).
    Closed,
    /// The window was destroyed.
    Destroyed,
    /// The connection to the X server broke.
    ConnectionLost,
}

impl std::fmt::Display for WindowEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            WindowEnd::Closed => "the window was closed",
            WindowEnd::Destroyed => "the window was destroyed",
            WindowEnd::ConnectionLost => "the connection to the X server broke",
        })
    }
}

/// A mapped top-level window on its own connection to `$DISPLAY`; destroyed and disconnected on
/// drop.
pub struct Window {
    xlib: Xlib,
    display: XDisplay,
    window: Xid,
    wm_delete_window: Xid,
    /// The screen's default visual, the one the window has.
    visual_id: Xid,
    /// Set once the window is destroyed or the connection lost.
    gone: Cell<Option<WindowEnd>>,
    _library: ManuallyDrop<libloading::Library>,
}

impl Window {
    /// Connects to `$DISPLAY` and maps a `width` × `height` window titled `title`.
    pub fn open(width: u32, height: u32, title: &str) -> Result<Window, GlClientError> {
        let (xlib, library) = Xlib::load()?;
        let init_threads = {
            // SAFETY: `XInitThreads` takes nothing and is called before any other Xlib call.
            let f = unsafe { library.get::<unsafe extern "C" fn() -> c_int>(b"XInitThreads\0") };
            f.map(|f| *f)
        };
        if let Ok(init_threads) = init_threads {
            // SAFETY: as above.
            unsafe { init_threads() };
        }
        // SAFETY: `XOpenDisplay` has this C signature; NULL means `$DISPLAY`.
        let open = unsafe {
            library.get::<unsafe extern "C" fn(*const c_char) -> XDisplay>(b"XOpenDisplay\0")
        }
        .map_err(|e| GlClientError::Load {
            path: LIBX11.into(),
            reason: format!("no XOpenDisplay: {e}"),
        })?;
        // SAFETY: NULL asks for `$DISPLAY`.
        let display = unsafe { open(std::ptr::null()) };
        if display.is_null() {
            let name = std::env::var("DISPLAY").unwrap_or_default();
            return Err(GlClientError::Usage(if name.is_empty() {
                "--window: DISPLAY is not set; it must name a running X server (e.g. :0)".into()
            } else {
                format!("--window: cannot open the X display DISPLAY={name}")
            }));
        }
        let mut window = Window {
            xlib,
            display,
            window: 0,
            wm_delete_window: 0,
            visual_id: 0,
            gone: Cell::new(None),
            _library: ManuallyDrop::new(library),
        };
        let x = &window.xlib;
        let title = CString::new(title.replace('\0', " ")).unwrap_or_default();
        let side = |v: u32| c_uint::try_from(v).unwrap_or(c_uint::MAX);
        // SAFETY: every call follows Xlib's C API with the live connection and the handles it
        // returned; the title and atom name are NUL-terminated and outlive the calls.
        unsafe {
            (x.set_error_handler)(Some(on_error));
            if let Some(set_exit) = x.set_io_error_exit_handler {
                (x.set_io_error_handler)(Some(on_io_error));
                set_exit(display, Some(on_io_error_exit), std::ptr::null_mut());
            }
            let screen = (x.default_screen)(display);
            let root = (x.root_window)(display, screen);
            let black = (x.black_pixel)(display, screen);
            window.visual_id = (x.visual_id)((x.default_visual)(display, screen));
            window.window = (x.create_simple_window)(
                display,
                root,
                0,
                0,
                side(width),
                side(height),
                0,
                black,
                black,
            );
            (x.store_name)(display, window.window, title.as_ptr());
            window.wm_delete_window = (x.intern_atom)(display, c"WM_DELETE_WINDOW".as_ptr(), 0);
            let mut protocols = [window.wm_delete_window];
            (x.set_wm_protocols)(display, window.window, protocols.as_mut_ptr(), 1);
            (x.select_input)(display, window.window, STRUCTURE_NOTIFY_MASK);
            (x.map_window)(display, window.window);
            (x.sync)(display, 0);
        }
        if window.window == 0 || PROTOCOL_ERROR.load(Ordering::Relaxed) {
            return Err(GlClientError::Usage(format!(
                "--window: the X server refused a {width}×{height} window"
            )));
        }
        Ok(window)
    }

    /// The Xlib connection.
    pub fn display(&self) -> XDisplay {
        self.display
    }

    /// The window's id.
    pub fn id(&self) -> Xid {
        self.window
    }

    /// The window's visual (a config whose `EGL_NATIVE_VISUAL_ID` matches is preferred).
    pub fn visual_id(&self) -> Xid {
        self.visual_id
    }

    /// Resizes the window to `width` × `height` (as a user dragging its border would) and waits
    /// until the X server has done it. The EGL surface follows at its next frame boundary.
    pub fn resize(&self, width: u32, height: u32) -> Result<(), GlClientError> {
        if !self.alive() {
            return Err(GlClientError::Usage(
                "the window is gone; it cannot be resized".into(),
            ));
        }
        let side = |v: u32| c_uint::try_from(v.max(1)).unwrap_or(c_uint::MAX);
        // SAFETY: the window and connection are this value's and alive (checked above).
        unsafe {
            (self.xlib.resize_window)(self.display, self.window, side(width), side(height));
            (self.xlib.sync)(self.display, 0);
        }
        if PROTOCOL_ERROR.load(Ordering::Relaxed) {
            return Err(GlClientError::Usage(format!(
                "the X server refused to resize the window to {width}×{height}"
            )));
        }
        Ok(())
    }

    /// Drains the pending events; `Some` once the window is closed or gone.
    pub fn poll(&self) -> Option<WindowEnd> {
        if self.gone.get().is_none() {
            self.gone.set(self.drain());
        }
        self.gone.get()
    }

    /// Whether the connection is still usable (not lost, window not destroyed).
    pub fn alive(&self) -> bool {
        !matches!(
            self.gone.get(),
            Some(WindowEnd::ConnectionLost | WindowEnd::Destroyed)
        ) && !CONNECTION_LOST.load(Ordering::Relaxed)
    }

    fn drain(&self) -> Option<WindowEnd> {
        let mut end = None;
        loop {
            if CONNECTION_LOST.load(Ordering::Relaxed) {
                return Some(WindowEnd::ConnectionLost);
            }
            // SAFETY: the connection is live (not lost, checked above); a dead one makes
            // XPending call the recording handlers and return 0.
            if unsafe { (self.xlib.pending)(self.display) } <= 0 {
                break;
            }
            let mut event = XEvent { pad: [0; 24] };
            // SAFETY: an event is pending, so XNextEvent does not block; `event` is an XEvent.
            unsafe { (self.xlib.next_event)(self.display, &mut event) };
            // SAFETY: every XEvent starts with its `int type`; both prefixes lie within the 24
            // longs of the union, and each is read only for its own event type.
            let (message, destroy) = unsafe {
                let p = &event as *const XEvent;
                (
                    &*p.cast::<XClientMessageEvent>(),
                    &*p.cast::<XDestroyWindowEvent>(),
                )
            };
            match message.kind {
                CLIENT_MESSAGE
                    if message.window == self.window
                        && message.format == 32
                        && message.data0 as Xid == self.wm_delete_window =>
                {
                    end = end.or(Some(WindowEnd::Closed));
                }
                DESTROY_NOTIFY if destroy.window == self.window => {
                    end = Some(WindowEnd::Destroyed);
                }
                _ => {}
            }
        }
        if CONNECTION_LOST.load(Ordering::Relaxed) {
            return Some(WindowEnd::ConnectionLost);
        }
        end
    }
}

impl Drop for Window {
    fn drop(&mut self) {
        if CONNECTION_LOST.load(Ordering::Relaxed) {
            // Every call would only print Xlib's complaints about the dead connection; the
            // process ends soon, so the connection's memory is left as it is.
            return;
        }
        // SAFETY: the window and connection are this value's and still live.
        unsafe {
            if self.window != 0 && self.gone.get() != Some(WindowEnd::Destroyed) {
                (self.xlib.destroy_window)(self.display, self.window);
            }
            (self.xlib.sync)(self.display, 0);
            (self.xlib.close_display)(self.display);
        }
    }
}
