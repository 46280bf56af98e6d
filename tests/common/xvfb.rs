//! An `Xvfb` for tests that need an X server: on a display number no other server uses, stopped
//! (SIGTERM, so it removes its socket and lock) when dropped. Shared by the tests that open X11
//! windows (`#[path = "common/xvfb.rs"] mod xvfb;`).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `name` found in `$PATH`.
fn find_in_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// The pid in an X server's lock file (`/tmp/.XN-lock`: the pid as text).
fn lock_owner(lock: &Path) -> Option<u32> {
    std::fs::read_to_string(lock).ok()?.trim().parse().ok()
}

/// An `Xvfb` on a display number no other server uses, killed when dropped.
pub struct XServer {
    child: Child,
    /// The display, as `DISPLAY` names it (`:N`).
    pub name: String,
}

impl XServer {
    /// Starts `xvfb` with one 640×480×`depth` screen; panics when no display number is free.
    fn start(xvfb: &Path, depth: u32) -> Self {
        let screen = format!("640x480x{depth}");
        for n in 90..190 {
            let socket = PathBuf::from(format!("/tmp/.X11-unix/X{n}"));
            let lock = PathBuf::from(format!("/tmp/.X{n}-lock"));
            if socket.exists() || lock.exists() {
                continue;
            }
            let name = format!(":{n}");
            let mut child = Command::new(xvfb)
                .args([&name, "-screen", "0", &screen, "-nolisten", "tcp"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("spawn Xvfb");
            let deadline = Instant::now() + Duration::from_secs(20);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = child.try_wait() {
                    break; // Lost a race for this number: try the next.
                }
                // The socket may be a rival's that won the race (tests run in parallel, and so
                // may other test binaries): the server is ours only when its lock names our
                // child, whose own attempt then fails and is seen above.
                if socket.exists() && lock_owner(&lock) == Some(child.id()) {
                    return Self { child, name };
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
        panic!("no free X display number for Xvfb");
    }
}

impl Drop for XServer {
    /// SIGTERM first: Xvfb then removes its socket and lock file (SIGKILL would leave them, and
    /// every later run would skip that display number).
    fn drop(&mut self) {
        let term = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        if term.is_ok_and(|s| s.success()) {
            let deadline = Instant::now() + Duration::from_secs(5);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A fresh `Xvfb`, or `None` (the reason printed: the test is then skipped) when `Xvfb` or
/// libX11 is missing (Debian: xvfb, libx11-6; CI installs both).
#[allow(dead_code)]
pub fn start_or_skip() -> Option<XServer> {
    start_with_depth_or_skip(24)
}

/// As [`start_or_skip`], with a screen of `depth` bits (16 gives a 5-6-5 default visual).
#[allow(dead_code)]
pub fn start_with_depth_or_skip(depth: u32) -> Option<XServer> {
    let Some(xvfb) = find_in_path("Xvfb") else {
        println!("skipped: no Xvfb in PATH (Debian: xvfb)");
        return None;
    };
    // SAFETY: loading libX11 runs its initialisers, which are safe.
    if unsafe { libloading::Library::new("libX11.so.6") }.is_err() {
        println!("skipped: libX11.so.6 cannot be loaded (Debian: libx11-6)");
        return None;
    }
    Some(XServer::start(&xvfb, depth))
}

/// Xlib for the tests that make windows of a chosen visual and read them back: libX11 loaded at
/// run time, as the library does.
#[allow(dead_code)]
pub mod xlib {
    use std::ffi::{c_char, c_int, c_long, c_uint, c_ulong, c_void};
    use std::sync::atomic::{AtomicU8, Ordering};
    use std::time::{Duration, Instant};

    pub type Display = *mut c_void;
    pub type Window = c_ulong;

    /// `XVisualInfo`.
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

    /// `XSetWindowAttributes`.
    #[repr(C)]
    #[derive(Default)]
    struct XSetWindowAttributes {
        background_pixmap: c_ulong,
        background_pixel: c_ulong,
        border_pixmap: c_ulong,
        border_pixel: c_ulong,
        bit_gravity: c_int,
        win_gravity: c_int,
        backing_store: c_int,
        backing_planes: c_ulong,
        backing_pixel: c_ulong,
        save_under: c_int,
        event_mask: c_long,
        do_not_propagate_mask: c_long,
        override_redirect: c_int,
        colormap: c_ulong,
        cursor: c_ulong,
    }

    /// The start of `XImage`.
    #[repr(C)]
    struct XImage {
        width: c_int,
        height: c_int,
        xoffset: c_int,
        format: c_int,
        data: *mut c_char,
        byte_order: c_int,
        bitmap_unit: c_int,
        bitmap_bit_order: c_int,
        bitmap_pad: c_int,
        depth: c_int,
        bytes_per_line: c_int,
        bits_per_pixel: c_int,
        red_mask: c_ulong,
        green_mask: c_ulong,
        blue_mask: c_ulong,
    }

    /// `XErrorEvent`.
    #[repr(C)]
    pub struct XErrorEvent {
        pub type_: c_int,
        pub display: Display,
        pub resourceid: c_ulong,
        pub serial: c_ulong,
        pub error_code: u8,
        pub request_code: u8,
        pub minor_code: u8,
    }

    type Handler = Option<unsafe extern "C" fn(Display, *mut XErrorEvent) -> c_int>;

    pub struct Xlib {
        _lib: libloading::Library,
        pub open_display: unsafe extern "C" fn(*const c_char) -> Display,
        pub default_screen: unsafe extern "C" fn(Display) -> c_int,
        pub root_window: unsafe extern "C" fn(Display, c_int) -> Window,
        pub default_visual: unsafe extern "C" fn(Display, c_int) -> *mut c_void,
        pub default_depth: unsafe extern "C" fn(Display, c_int) -> c_int,
        pub visual_id_from_visual: unsafe extern "C" fn(*mut c_void) -> c_ulong,
        pub get_visual_info:
            unsafe extern "C" fn(Display, c_long, *mut XVisualInfo, *mut c_int) -> *mut XVisualInfo,
        pub create_colormap: unsafe extern "C" fn(Display, Window, *mut c_void, c_int) -> c_ulong,
        #[allow(clippy::type_complexity)]
        create_window: unsafe extern "C" fn(
            Display,
            Window,
            c_int,
            c_int,
            c_uint,
            c_uint,
            c_uint,
            c_int,
            c_uint,
            *mut c_void,
            c_ulong,
            *mut XSetWindowAttributes,
        ) -> Window,
        pub map_window: unsafe extern "C" fn(Display, Window) -> c_int,
        pub resize_window: unsafe extern "C" fn(Display, Window, c_uint, c_uint) -> c_int,
        pub destroy_window: unsafe extern "C" fn(Display, Window) -> c_int,
        pub sync: unsafe extern "C" fn(Display, c_int) -> c_int,
        pub free: unsafe extern "C" fn(*mut c_void) -> c_int,
        set_error_handler: unsafe extern "C" fn(Handler) -> Handler,
        #[allow(clippy::type_complexity)]
        get_image: unsafe extern "C" fn(
            Display,
            Window,
            c_int,
            c_int,
            c_uint,
            c_uint,
            c_ulong,
            c_int,
        ) -> *mut XImage,
    }

    static LAST_ERROR: AtomicU8 = AtomicU8::new(0);

    unsafe extern "C" fn record(_d: Display, e: *mut XErrorEvent) -> c_int {
        // SAFETY: Xlib (or the library under test) passes a live event.
        let code = unsafe { (*e).error_code };
        LAST_ERROR.store(code, Ordering::SeqCst);
        0
    }

    impl Xlib {
        pub fn load() -> Self {
            // SAFETY: libX11's initialisers are safe; each field has the C signature of its
            // symbol (<X11/Xlib.h>, <X11/Xutil.h>); the library outlives the pointers.
            unsafe {
                let lib = libloading::Library::new("libX11.so.6").expect("load libX11.so.6");
                macro_rules! sym {
                    ($name:literal) => {
                        *lib.get(concat!($name, "\0").as_bytes())
                            .expect(concat!("libX11 exports ", $name))
                    };
                }
                Self {
                    open_display: sym!("XOpenDisplay"),
                    default_screen: sym!("XDefaultScreen"),
                    root_window: sym!("XRootWindow"),
                    default_visual: sym!("XDefaultVisual"),
                    default_depth: sym!("XDefaultDepth"),
                    visual_id_from_visual: sym!("XVisualIDFromVisual"),
                    get_visual_info: sym!("XGetVisualInfo"),
                    create_colormap: sym!("XCreateColormap"),
                    create_window: sym!("XCreateWindow"),
                    map_window: sym!("XMapWindow"),
                    resize_window: sym!("XResizeWindow"),
                    destroy_window: sym!("XDestroyWindow"),
                    sync: sym!("XSync"),
                    free: sym!("XFree"),
                    set_error_handler: sym!("XSetErrorHandler"),
                    get_image: sym!("XGetImage"),
                    _lib: lib,
                }
            }
        }

        /// A connection to `$DISPLAY`.
        pub fn open(&self) -> Display {
            // SAFETY: NULL asks for `$DISPLAY`.
            let d = unsafe { (self.open_display)(std::ptr::null()) };
            assert!(!d.is_null(), "XOpenDisplay($DISPLAY)");
            d
        }

        /// The visual `id` of the default screen, if it has one.
        pub fn visual(&self, d: Display, id: c_ulong) -> Option<XVisualInfo> {
            self.visuals(d).into_iter().find(|v| v.visualid == id)
        }

        /// Every visual of the default screen.
        pub fn visuals(&self, d: Display) -> Vec<XVisualInfo> {
            // SAFETY: a live connection; the template is zeroed (all-integer/pointer struct);
            // the list returned holds `n` entries and is freed once.
            unsafe {
                let mut t: XVisualInfo = std::mem::zeroed();
                t.screen = (self.default_screen)(d);
                let mut n = 0;
                let list = (self.get_visual_info)(d, 0x2, &mut t, &mut n);
                if list.is_null() {
                    return Vec::new();
                }
                let out = std::slice::from_raw_parts(list, n as usize).to_vec();
                (self.free)(list.cast());
                out
            }
        }

        /// A mapped `w`×`h` window of visual `v` (the default visual for `None`).
        pub fn window(&self, d: Display, v: Option<&XVisualInfo>, w: u32, h: u32) -> Window {
            // SAFETY: Xlib calls on a live connection with its own visual pointers; the
            // attribute struct is a live local.
            unsafe {
                let screen = (self.default_screen)(d);
                let root = (self.root_window)(d, screen);
                let (visual, depth) = match v {
                    Some(v) => (v.visual, v.depth),
                    None => (
                        (self.default_visual)(d, screen),
                        (self.default_depth)(d, screen),
                    ),
                };
                let mut attrs = XSetWindowAttributes {
                    colormap: (self.create_colormap)(d, root, visual, 0),
                    ..Default::default()
                };
                const CW_BACK_PIXEL: c_ulong = 1 << 1;
                const CW_BORDER_PIXEL: c_ulong = 1 << 3;
                const CW_COLORMAP: c_ulong = 1 << 13;
                let mask = CW_BACK_PIXEL | CW_BORDER_PIXEL | CW_COLORMAP;
                let win = (self.create_window)(
                    d, root, 0, 0, w, h, 0, depth, 1, visual, mask, &mut attrs,
                );
                (self.map_window)(d, win);
                (self.sync)(d, 0);
                win
            }
        }

        /// Installs a handler that records X errors instead of exiting (Xlib's default).
        pub fn trap_errors(&self) {
            // SAFETY: a handler with Xlib's signature.
            unsafe { (self.set_error_handler)(Some(record)) };
        }

        /// The last X error code recorded since the previous call (0: none), after an `XSync`.
        pub fn take_error(&self, d: Display) -> u8 {
            // SAFETY: a live connection.
            unsafe { (self.sync)(d, 0) };
            LAST_ERROR.swap(0, Ordering::SeqCst)
        }

        /// The window's pixel at (x, y), top-left origin, as 8-bit RGB (24/32-bit visuals).
        pub fn pixel(&self, d: Display, w: Window, x: u32, y: u32) -> [u8; 3] {
            // SAFETY: a 1×1 `XGetImage` of a mapped window; its data holds at least 4 bytes;
            // image and data are freed with `XFree`.
            unsafe {
                let image = (self.get_image)(d, w, x as c_int, y as c_int, 1, 1, !0, 2);
                assert!(!image.is_null(), "XGetImage failed");
                let img = &*image;
                assert_eq!(img.bits_per_pixel, 32, "a 24/32-bit visual");
                let b = std::slice::from_raw_parts(img.data.cast::<u8>(), 4);
                let word = if img.byte_order == 0 {
                    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
                } else {
                    u32::from_be_bytes([b[0], b[1], b[2], b[3]])
                };
                let ch = |m: c_ulong| ((word & m as u32) >> (m as u32).trailing_zeros()) as u8;
                let rgb = [ch(img.red_mask), ch(img.green_mask), ch(img.blue_mask)];
                (self.free)(img.data.cast());
                (self.free)(image.cast());
                rgb
            }
        }

        /// Polls (bounded, 10 s: presenting is asynchronous) until every `(x, y, rgb)` probe of
        /// the window reads its colour; at the limit, what the probes last saw.
        pub fn poll_probes(
            &self,
            d: Display,
            w: Window,
            probes: &[(u32, u32, [u8; 3])],
        ) -> Result<(), Vec<[u8; 3]>> {
            let deadline = Instant::now() + Duration::from_secs(10);
            loop {
                let seen: Vec<_> = probes
                    .iter()
                    .map(|&(x, y, _)| self.pixel(d, w, x, y))
                    .collect();
                if probes.iter().zip(&seen).all(|(p, s)| p.2 == *s) {
                    return Ok(());
                }
                if Instant::now() > deadline {
                    return Err(seen);
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
}
