//! Xlib, loaded at run time (ArenaGL links no X library): the screen's visuals for EGL configs and
//! GLX, a window's visual and size, and X errors — trapped around queries of XIDs the program
//! handed in, or delivered to the program's error handler for GLX.
//!
//! Design:
//! - libX11 is opened once with `libloading` and kept for the process (as `bridge.rs` does for its
//!   own connection); without it every function here answers "no X": `None` or an error.
//! - Visuals: `XGetVisualInfo` over the default screen, TrueColor/DirectColor only, depth 24/32
//!   with 8-bit channel masks or depth 16 with 5-6-5 masks, the screen's default visual first.
//!   They go to the EGL model as plain data ([`NativeVisual`]), so `present/` stays free of Xlib.
//! - A garbage or destroyed XID must be an error, never Xlib's default handler (which exits the
//!   process): [`trapped`] swaps in a recording handler around the query, with `XSync` on both
//!   sides so that only the query's errors are caught. Xlib's handler is process-global, so
//!   traps are serialised by a mutex; an error another thread causes on another connection in that
//!   window is caught too (and swallowed), the price Mesa pays as well.
//! - GLX errors are X protocol errors: [`deliver_error`] synthesises an `XErrorEvent` and calls the
//!   program's current handler, as Mesa's `__glXSendError` does through `_XError` (we cannot take
//!   Xlib's internal display lock, so the handler is called directly). GLX-specific codes are
//!   offset by the server's GLX `first_error`; a server without GLX gets them as `BadMatch`.

use std::ffi::{c_char, c_int, c_ulong, c_void};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use arenagl_present::{NativeVisual, X_DIRECT_COLOR, X_TRUE_COLOR};

/// `Display*`, opaque.
pub type XDisplay = *mut c_void;

/// `XVisualInfo` (`<X11/Xutil.h>`), the type GLX's visual functions take and return.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct XVisualInfo {
    pub visual: *mut c_void,
    pub visualid: c_ulong,
    pub screen: c_int,
    pub depth: c_int,
    pub class: c_int,
    pub red_mask: c_ulong,
    pub green_mask: c_ulong,
    pub blue_mask: c_ulong,
    pub colormap_size: c_int,
    pub bits_per_rgb: c_int,
}

/// `XWindowAttributes` (`<X11/Xlib.h>`).
#[repr(C)]
struct XWindowAttributes {
    x: c_int,
    y: c_int,
    width: c_int,
    height: c_int,
    border_width: c_int,
    depth: c_int,
    visual: *mut c_void,
    root: c_ulong,
    class: c_int,
    bit_gravity: c_int,
    win_gravity: c_int,
    backing_store: c_int,
    backing_planes: c_ulong,
    backing_pixel: c_ulong,
    save_under: c_int,
    colormap: c_ulong,
    map_installed: c_int,
    map_state: c_int,
    all_event_masks: std::ffi::c_long,
    your_event_mask: std::ffi::c_long,
    do_not_propagate_mask: std::ffi::c_long,
    override_redirect: c_int,
    screen: *mut c_void,
}

/// `XErrorEvent` (`<X11/Xlib.h>`).
#[repr(C)]
pub(crate) struct XErrorEvent {
    pub type_: c_int,
    pub display: XDisplay,
    pub resourceid: c_ulong,
    pub serial: c_ulong,
    pub error_code: u8,
    pub request_code: u8,
    pub minor_code: u8,
}

type ErrorHandler = Option<unsafe extern "C" fn(XDisplay, *mut XErrorEvent) -> c_int>;

const VISUAL_ID_MASK: std::ffi::c_long = 0x1;
const VISUAL_SCREEN_MASK: std::ffi::c_long = 0x2;

/// The libX11 functions ArenaGL calls, each with its C signature from `<X11/Xlib.h>`.
pub(crate) struct Xlib {
    _lib: libloading::Library,
    default_screen: unsafe extern "C" fn(XDisplay) -> c_int,
    screen_count: unsafe extern "C" fn(XDisplay) -> c_int,
    default_visual: unsafe extern "C" fn(XDisplay, c_int) -> *mut c_void,
    visual_id_from_visual: unsafe extern "C" fn(*mut c_void) -> c_ulong,
    get_visual_info: unsafe extern "C" fn(
        XDisplay,
        std::ffi::c_long,
        *mut XVisualInfo,
        *mut c_int,
    ) -> *mut XVisualInfo,
    pub(crate) free: unsafe extern "C" fn(*mut c_void) -> c_int,
    set_error_handler: unsafe extern "C" fn(ErrorHandler) -> ErrorHandler,
    sync: unsafe extern "C" fn(XDisplay, c_int) -> c_int,
    get_window_attributes: unsafe extern "C" fn(XDisplay, c_ulong, *mut XWindowAttributes) -> c_int,
    query_extension:
        unsafe extern "C" fn(XDisplay, *const c_char, *mut c_int, *mut c_int, *mut c_int) -> c_int,
    next_request: unsafe extern "C" fn(XDisplay) -> c_ulong,
}

// SAFETY: the struct holds function pointers into a library that stays loaded for the process;
// calling them from several threads is what Xlib's own thread support governs, not this struct.
unsafe impl Send for Xlib {}
// SAFETY: as above; the struct is immutable after loading.
unsafe impl Sync for Xlib {}

/// libX11, loaded on first need; `None` without it.
pub(crate) fn xlib() -> Option<&'static Xlib> {
    static XLIB: OnceLock<Option<Xlib>> = OnceLock::new();
    XLIB.get_or_init(load).as_ref()
}

fn load() -> Option<Xlib> {
    // SAFETY: libX11's initialisers are safe to run; it stays loaded in the static above.
    let lib = unsafe { libloading::Library::new("libX11.so.6") }.ok()?;
    macro_rules! sym {
        ($name:literal) => {
            // SAFETY: each field's type is the C signature of the symbol of that name.
            *unsafe { lib.get(concat!($name, "\0").as_bytes()) }.ok()?
        };
    }
    Some(Xlib {
        default_screen: sym!("XDefaultScreen"),
        screen_count: sym!("XScreenCount"),
        default_visual: sym!("XDefaultVisual"),
        visual_id_from_visual: sym!("XVisualIDFromVisual"),
        get_visual_info: sym!("XGetVisualInfo"),
        free: sym!("XFree"),
        set_error_handler: sym!("XSetErrorHandler"),
        sync: sym!("XSync"),
        get_window_attributes: sym!("XGetWindowAttributes"),
        query_extension: sym!("XQueryExtension"),
        next_request: sym!("XNextRequest"),
        _lib: lib,
    })
}

/// Whether `dpy` can be a `Display*` at all: non-NULL, outside the first page, pointer-aligned
/// (Xlib allocates it with `malloc`). Small integers and odd addresses a program passes by mistake
/// are refused before Xlib dereferences them; a dangling pointer to freed memory cannot be told
/// from a live one, here as in every GLX and EGL implementation.
pub(crate) fn plausible_display(dpy: XDisplay) -> bool {
    let addr = dpy.addr();
    addr >= 4096 && addr % std::mem::align_of::<usize>() == 0
}

/// The class of visuals GL can render: TrueColor and DirectColor with channel masks of the
/// layouts ArenaGL's configs have.
fn usable(v: &XVisualInfo) -> bool {
    let mask = |m: c_ulong| u32::try_from(m).unwrap_or(0);
    let masks = (mask(v.red_mask), mask(v.green_mask), mask(v.blue_mask));
    usable_layout(v.class, v.depth, masks)
}

/// [`usable`] on a visual's class, depth and red/green/blue masks (XCB's visuals too).
pub(crate) fn usable_layout(class: c_int, depth: c_int, masks: (u32, u32, u32)) -> bool {
    let class_ok = class == X_TRUE_COLOR || class == X_DIRECT_COLOR;
    let layout_ok = match depth {
        24 | 32 => masks == (0xff_0000, 0xff00, 0xff),
        16 => masks == (0xf800, 0x7e0, 0x1f),
        _ => false,
    };
    class_ok && layout_ok
}

fn native(v: &XVisualInfo) -> Option<NativeVisual> {
    Some(NativeVisual {
        id: u32::try_from(v.visualid).ok()?,
        depth: u32::try_from(v.depth).ok()?,
        class: v.class,
    })
}

impl Xlib {
    /// The default screen of `dpy`.
    ///
    /// # Safety
    /// `dpy` is a live Xlib connection.
    pub(crate) unsafe fn default_screen_of(&self, dpy: XDisplay) -> c_int {
        // SAFETY: the caller's obligation.
        unsafe { (self.default_screen)(dpy) }
    }

    /// Whether `screen` is a screen of `dpy`.
    ///
    /// # Safety
    /// `dpy` is a live Xlib connection.
    pub(crate) unsafe fn has_screen(&self, dpy: XDisplay, screen: c_int) -> bool {
        // SAFETY: the caller's obligation.
        (0..unsafe { (self.screen_count)(dpy) }).contains(&screen)
    }

    /// The visuals of `screen` matching `mask`/`template`, copied out (the Xlib list freed).
    ///
    /// # Safety
    /// `dpy` is a live Xlib connection.
    unsafe fn visual_infos(
        &self,
        dpy: XDisplay,
        mask: std::ffi::c_long,
        template: XVisualInfo,
    ) -> Vec<XVisualInfo> {
        let mut template = template;
        let mut n: c_int = 0;
        // SAFETY: the caller's live connection; `template` and `n` are live locals.
        let list = unsafe { (self.get_visual_info)(dpy, mask, &mut template, &mut n) };
        if list.is_null() {
            return Vec::new();
        }
        let len = usize::try_from(n).unwrap_or(0);
        // SAFETY: Xlib returned `n` contiguous `XVisualInfo`s at `list`.
        let out = unsafe { std::slice::from_raw_parts(list, len) }.to_vec();
        // SAFETY: the list came from XGetVisualInfo and is freed once.
        unsafe { (self.free)(list.cast()) };
        out
    }

    /// The GL-usable visuals of `screen`, its default visual first.
    ///
    /// # Safety
    /// `dpy` is a live Xlib connection and `screen` one of its screens.
    pub(crate) unsafe fn screen_visuals(&self, dpy: XDisplay, screen: c_int) -> Vec<NativeVisual> {
        let template = XVisualInfo {
            screen,
            ..empty_visual_info()
        };
        // SAFETY: the caller's obligations.
        let infos = unsafe { self.visual_infos(dpy, VISUAL_SCREEN_MASK, template) };
        // SAFETY: as above; the default visual pointer is Xlib's own.
        let default_id =
            unsafe { (self.visual_id_from_visual)((self.default_visual)(dpy, screen)) };
        let mut visuals: Vec<NativeVisual> = infos
            .iter()
            .filter(|v| usable(v))
            .filter_map(native)
            .collect();
        // Stable: the default visual leads, the server's order otherwise.
        visuals.sort_by_key(|v| c_ulong::from(v.id) != default_id);
        visuals
    }

    /// A fresh Xlib-allocated `XVisualInfo` of visual `id` on `screen` (for GLX, whose callers
    /// free it with `XFree`), or NULL.
    ///
    /// # Safety
    /// `dpy` is a live Xlib connection.
    pub(crate) unsafe fn visual_info_ptr(
        &self,
        dpy: XDisplay,
        screen: c_int,
        id: u32,
    ) -> *mut XVisualInfo {
        let mut template = XVisualInfo {
            visualid: c_ulong::from(id),
            screen,
            ..empty_visual_info()
        };
        let mut n = 0;
        let mask = VISUAL_ID_MASK | VISUAL_SCREEN_MASK;
        // SAFETY: the caller's live connection; `template` and `n` are live locals.
        unsafe { (self.get_visual_info)(dpy, mask, &mut template, &mut n) }
    }

    /// The visual (id, depth, class) of visual `id`, if the screen has it.
    ///
    /// # Safety
    /// `dpy` is a live Xlib connection.
    unsafe fn visual_by_id(&self, dpy: XDisplay, id: c_ulong) -> Option<XVisualInfo> {
        let template = XVisualInfo {
            visualid: id,
            ..empty_visual_info()
        };
        // SAFETY: the caller's obligation.
        unsafe { self.visual_infos(dpy, VISUAL_ID_MASK, template) }
            .first()
            .copied()
    }

    /// `glXQueryExtension`'s (error base, event base): the server's GLX codes, 0 without GLX.
    ///
    /// # Safety
    /// `dpy` is a live Xlib connection.
    pub(crate) unsafe fn glx_bases(&self, dpy: XDisplay) -> (c_int, c_int) {
        let (mut major, mut event, mut error) = (0, 0, 0);
        // SAFETY: live connection; a NUL-terminated name; live out-locals.
        let present = unsafe {
            (self.query_extension)(dpy, c"GLX".as_ptr(), &mut major, &mut event, &mut error)
        };
        if present != 0 {
            (error, event)
        } else {
            (0, 0)
        }
    }

    /// `XSync(dpy, False)`.
    ///
    /// # Safety
    /// `dpy` is a live Xlib connection.
    pub(crate) unsafe fn sync(&self, dpy: XDisplay) {
        // SAFETY: the caller's obligation.
        unsafe { (self.sync)(dpy, 0) };
    }

    /// The server's GLX extension: (major opcode, first error), if it has one.
    ///
    /// # Safety
    /// `dpy` is a live Xlib connection.
    unsafe fn glx_codes(&self, dpy: XDisplay) -> Option<(u8, u8)> {
        let (mut major, mut event, mut error) = (0, 0, 0);
        // SAFETY: live connection; a NUL-terminated name; live out-locals.
        let present = unsafe {
            (self.query_extension)(dpy, c"GLX".as_ptr(), &mut major, &mut event, &mut error)
        };
        let code = |v: c_int| u8::try_from(v).ok();
        (present != 0).then_some((code(major)?, code(error)?))
    }
}

const fn empty_visual_info() -> XVisualInfo {
    XVisualInfo {
        visual: std::ptr::null_mut(),
        visualid: 0,
        screen: 0,
        depth: 0,
        class: 0,
        red_mask: 0,
        green_mask: 0,
        blue_mask: 0,
        colormap_size: 0,
        bits_per_rgb: 0,
    }
}

/// Serialises error traps (Xlib's handler is process-global).
static TRAP: Mutex<()> = Mutex::new(());
/// The first error code the trap saw (0: none).
static TRAPPED: AtomicU8 = AtomicU8::new(0);

unsafe extern "C" fn record_error(_dpy: XDisplay, event: *mut XErrorEvent) -> c_int {
    // SAFETY: Xlib passes a valid event for the duration of the call.
    let code = unsafe { event.as_ref() }.map_or(1, |e| e.error_code.max(1));
    let _ = TRAPPED.compare_exchange(0, code, Ordering::Relaxed, Ordering::Relaxed);
    0
}

/// Runs `query` with X errors trapped instead of reaching the program's handler: `Err(code)`
/// if the query caused an X error.
///
/// # Safety
/// `dpy` is a live Xlib connection.
pub(crate) unsafe fn trapped<T>(
    x: &Xlib,
    dpy: XDisplay,
    query: impl FnOnce() -> T,
) -> Result<T, u8> {
    let _serial = TRAP.lock().unwrap_or_else(PoisonError::into_inner);
    // SAFETY: live connection (the caller's obligation). Earlier requests' errors go to the
    // program's own handler before ours is installed.
    unsafe { (x.sync)(dpy, 0) };
    TRAPPED.store(0, Ordering::Relaxed);
    // SAFETY: installing a handler with Xlib's handler signature.
    let previous = unsafe { (x.set_error_handler)(Some(record_error)) };
    let value = query();
    // SAFETY: live connection; then the program's handler is put back.
    unsafe {
        (x.sync)(dpy, 0);
        (x.set_error_handler)(previous);
    }
    match TRAPPED.swap(0, Ordering::Relaxed) {
        0 => Ok(value),
        code => Err(code),
    }
}

/// What the server says about a window.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WindowInfo {
    pub visual: NativeVisual,
    pub width: u32,
    pub height: u32,
}

/// The visual and size of window `xid`; `None` when the XID names no window (destroyed, garbage,
/// a pixmap), trapped so the program's error handler never sees it.
///
/// # Safety
/// `dpy` is a live Xlib connection.
pub(crate) unsafe fn window_info(x: &Xlib, dpy: XDisplay, xid: u64) -> Option<WindowInfo> {
    let xid = c_ulong::try_from(xid).ok().filter(|&w| w != 0)?;
    // SAFETY: all-zero is a valid `XWindowAttributes` (integers and null pointers).
    let mut attrs: XWindowAttributes = unsafe { std::mem::zeroed() };
    // SAFETY: live connection (the caller's obligation); `attrs` is a live local.
    let status = unsafe { trapped(x, dpy, || (x.get_window_attributes)(dpy, xid, &mut attrs)) };
    if status.ok()? == 0 || attrs.visual.is_null() {
        return None;
    }
    // SAFETY: the visual pointer is the one Xlib just returned for the window.
    let id = unsafe { (x.visual_id_from_visual)(attrs.visual) };
    // SAFETY: live connection.
    let info = unsafe { x.visual_by_id(dpy, id) }?;
    Some(WindowInfo {
        visual: NativeVisual {
            class: info.class,
            ..native(&info)?
        },
        width: u32::try_from(attrs.width).ok()?,
        height: u32::try_from(attrs.height).ok()?,
    })
}

/// An X error to deliver for a failed GLX call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum XError {
    /// A core X error code (`BadValue` 2, `BadMatch` 8, `BadAlloc` 11, …).
    Core(u8),
    /// A GLX error number (`GLXBadContext` 0, …, `GLXBadFBConfig` 9, `GLXBadProfileARB` 13),
    /// offset by the server's GLX first error.
    Glx(u8),
}

pub(crate) const BAD_VALUE: XError = XError::Core(2);
pub(crate) const BAD_MATCH: XError = XError::Core(8);
pub(crate) const BAD_ALLOC: XError = XError::Core(11);

/// Delivers `error` (about `resource`, for GLX request `minor`) to the program's current X error
/// handler, as the server's reply to a GLX request would. Xlib's default handler prints it and
/// exits, exactly as with a server-side GLX.
///
/// # Safety
/// `dpy` is a live Xlib connection.
pub(crate) unsafe fn deliver_error(
    x: &Xlib,
    dpy: XDisplay,
    error: XError,
    resource: u64,
    minor: u8,
) {
    // SAFETY: live connection.
    let glx = unsafe { x.glx_codes(dpy) };
    let code = match (error, glx) {
        (XError::Core(c), _) => c,
        (XError::Glx(n), Some((_, first))) => first.wrapping_add(n),
        (XError::Glx(_), None) => 8,
    };
    let mut event = XErrorEvent {
        type_: 0,
        display: dpy,
        resourceid: c_ulong::try_from(resource).unwrap_or(0),
        // SAFETY: live connection.
        serial: unsafe { (x.next_request)(dpy) }.saturating_sub(1),
        error_code: code,
        request_code: glx.map_or(0, |(major, _)| major),
        minor_code: minor,
    };
    // Read the current handler by swapping it out and back (Xlib has no getter), under the trap
    // lock so that a trap in another thread never sees the swap. The handler is called after the
    // lock is released: it may call back into GLX.
    let handler = {
        let _serial = TRAP.lock().unwrap_or_else(PoisonError::into_inner);
        // SAFETY: NULL installs Xlib's default; the previous one is put straight back.
        unsafe {
            let current = (x.set_error_handler)(None);
            (x.set_error_handler)(current);
            current
        }
    };
    if let Some(h) = handler {
        // SAFETY: an X error handler with its C signature, called as Xlib calls it: with the
        // display and an event that lives for the call.
        unsafe { h(dpy, &mut event) };
    }
}
