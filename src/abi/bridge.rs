//! Ties EGL objects to GL state: the device, the GL context behind each EGL context, the images
//! behind each surface, and the context current on this thread.
//!
//! Design: the EGL model (`arenagl-present`) decides what is valid; this module follows its
//! successful outcomes. The device (Vulkan + the memory manager) opens on the first context, so
//! a program that only queries EGL never starts Vulkan. After a device loss the next context or
//! surface created opens a new device; the lost one is dropped with the last object made on it. A GL context is shared behind a mutex
//! because EGL lets a context migrate between threads (current on one at a time).
//!
//! Window surfaces: GL renders into the surface's own [`SurfaceImages`], sized to the window;
//! `eglSwapBuffers` hands the colour image to the manager's present (flipped blit into the
//! swapchain, submission, `vkQueuePresentKHR`). The window's size is read back after each swap:
//! a resized window gets new images, bound to the current context, for the next frame (EGL
//! resizes a window surface at the swap), and its swapchain is recreated at the next present.
//! The default display has no X connection of its own, so its windows use one that this module
//! opens (`XOpenDisplay(NULL)`, libX11 loaded at run time) on first need.

use std::cell::Cell;
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use arenagl_memory::vulkan::{WaylandWindow, WindowId, XcbWindow, XlibWindow};
use arenagl_memory::{MemoryError, MemoryManager};
use arenagl_present::EglError;
use arenagl_translate::gl::{
    Context as GlContext, Device, DeviceFence, GlError, Profile, SurfaceFormat, SurfaceImages,
};

type Shared<T> = Arc<Mutex<T>>;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The process's device: not opened yet, open, or the reason it could not be opened.
enum DeviceSlot {
    Unopened,
    Open(Arc<Device>),
    Failed(String),
}

/// The device new contexts and surfaces get. A lost device is replaced here by a fresh one the
/// next time one is asked for (recovery after a device loss); the lost one lives on only in the contexts and
/// surfaces made on it, and is dropped (its memory released, its Vulkan device destroyed) when
/// the last of them is. The mutex serialises opening, so two threads creating contexts after a
/// loss open one device between them.
static DEVICE: Mutex<DeviceSlot> = Mutex::new(DeviceSlot::Unopened);

/// The device if it has been opened (diagnostics must not open one).
pub(crate) fn opened_device() -> Option<Arc<Device>> {
    match &*lock(&DEVICE) {
        DeviceSlot::Open(d) => Some(d.clone()),
        DeviceSlot::Unopened | DeviceSlot::Failed(_) => None,
    }
}

/// The process's device, opened on first need and reopened after a loss; a failure to open is
/// remembered and reported to every later context creation.
pub(crate) fn device() -> Result<Arc<Device>, String> {
    let mut slot = lock(&DEVICE);
    // The fault plan's counters continue on the new device: `submit@3=device_lost` fires once
    // per process, not once per device.
    let faults = match &*slot {
        // A lost device is replaced behind its handles when recovery is on.
        DeviceSlot::Open(d) if d.recover() => return Ok(d.clone()),
        DeviceSlot::Failed(e) => return Err(e.clone()),
        DeviceSlot::Open(lost) => Some(lost.lock().manager.fault_state()),
        DeviceSlot::Unopened => None,
    };
    // Let go of the lost device first: when no context or surface holds it any more it is
    // destroyed now, before the new one opens (one telemetry page, one device at a time).
    *slot = DeviceSlot::Unopened;
    init_logging();
    let opened = Device::open().map_err(|e| {
        tracing::error!(error = %e, "ArenaGL could not open a Vulkan device");
        e.to_string()
    });
    *slot = match &opened {
        Ok(d) => {
            if let Some(faults) = faults {
                d.lock().manager.resume_faults(faults);
                tracing::warn!("the Vulkan device was lost; a new one is open for new contexts");
            }
            DeviceSlot::Open(d.clone())
        }
        Err(e) => DeviceSlot::Failed(e.clone()),
    };
    opened
}

/// The library's own log output (it is a separate copy of `tracing` from the program's, if the
/// program uses Rust at all): stderr, filtered by `ARENAGL_LOG` (default `warn`), so GL errors
/// and validation-layer messages reach the user and the tests that look for them.
pub(crate) fn init_logging() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(install_logging);
}

fn install_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("ARENAGL_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

fn contexts() -> &'static Mutex<HashMap<u64, Shared<GlContext>>> {
    static MAP: OnceLock<Mutex<HashMap<u64, Shared<GlContext>>>> = OnceLock::new();
    MAP.get_or_init(Default::default)
}

/// The GL side of an EGL surface.
struct SurfaceEntry {
    images: Arc<SurfaceImages>,
    /// The window a window surface presents to (`None` for a pbuffer).
    window: Option<WindowId>,
}

fn surfaces() -> &'static Mutex<HashMap<u64, SurfaceEntry>> {
    static MAP: OnceLock<Mutex<HashMap<u64, SurfaceEntry>>> = OnceLock::new();
    MAP.get_or_init(Default::default)
}

/// EGL contexts created with `EGL_CONTEXT_RELEASE_BEHAVIOR_NONE_KHR`: not flushed when they
/// stop being current (every other context is, as EGL's `eglMakeCurrent` requires).
fn release_without_flush() -> &'static Mutex<std::collections::HashSet<u64>> {
    static SET: OnceLock<Mutex<std::collections::HashSet<u64>>> = OnceLock::new();
    SET.get_or_init(Default::default)
}

thread_local! {
    /// Whether `CURRENT` is flushed when released (EGL_KHR_context_flush_control).
    static CURRENT_FLUSHES: Cell<bool> = const { Cell::new(true) };
    static CURRENT: std::cell::RefCell<Option<Shared<GlContext>>> = const { std::cell::RefCell::new(None) };
    /// The (draw, read) surfaces bound with `CURRENT`, to rebind their new images after a resize.
    static BOUND: Cell<(Option<u64>, Option<u64>)> = const { Cell::new((None, None)) };
}

/// Why [`create_context`] made no GL context.
#[derive(Debug)]
pub(crate) enum CreateError {
    /// The desktop version asked for is above the one the device completes (which it carries):
    /// `EGL_BAD_MATCH`, `GLXBadFBConfig`.
    VersionAbove((u32, u32)),
    /// No device, or the share group could not be joined.
    Failed(String),
}

impl std::fmt::Display for CreateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CreateError::VersionAbove((major, minor)) => {
                write!(f, "the device offers versions up to {major}.{minor}")
            }
            CreateError::Failed(e) => f.write_str(e),
        }
    }
}

/// The desktop GL version a context on the process's device reports (the same for both
/// profiles: `arenagl_translate`'s version rule), for GLX to refuse a request above it before
/// it creates anything.
pub(crate) fn offered_gl_version() -> Result<(u32, u32), String> {
    Ok(GlContext::new(device()?, Profile::Core).desktop_version())
}

/// Creates the GL context of EGL context `handle`, created as `info` (desktop GL and its profile,
/// or OpenGL ES and its version), sharing the objects of EGL context `share` when given (its GL
/// context joins or starts that share group). A GL or ES version above what the context reports
/// is refused, and nothing is kept.
pub(crate) fn create_context(
    handle: u64,
    info: &arenagl_present::ContextInfo,
    share: Option<u64>,
) -> Result<(), CreateError> {
    let profile = if info.profile == arenagl_present::Profile::Compatibility {
        Profile::Compatibility
    } else {
        Profile::Core
    };
    let other =
        match share {
            Some(h) => Some(lock(contexts()).get(&h).cloned().ok_or_else(|| {
                CreateError::Failed("the share context has no GL context".into())
            })?),
            None => None,
        };
    // A context shares the device of the context it shares with: the objects live there.
    let device = match &other {
        Some(o) => lock(o).device().clone(),
        None => device().map_err(CreateError::Failed)?,
    };
    let mut ctx = match info.api {
        arenagl_present::ClientApi::OpenGl => GlContext::new(device, profile),
        arenagl_present::ClientApi::OpenGlEs => {
            GlContext::new_es(device, info.major as u32, info.minor as u32)
        }
    };
    let asked = (info.major.max(0) as u32, info.minor.max(0) as u32);
    // An ES context is the highest ES version its device offers (ES 3.1 and 3.2 by the ES
    // version rule); a request above it is refused as a desktop one is.
    let offered = ctx.es_version().unwrap_or_else(|| ctx.desktop_version());
    if asked > offered {
        return Err(CreateError::VersionAbove(offered));
    }
    ctx.set_lose_context_on_reset(info.lose_context_on_reset);
    ctx.set_debug_context(info.debug);
    ctx.set_no_error(info.no_error);
    ctx.set_flush_on_release(info.flush_on_release);
    if let Some(o) = other {
        ctx.join_share_group(&mut lock(&o))
            .map_err(|e| CreateError::Failed(e.to_string()))?;
    }
    lock(contexts()).insert(handle, Arc::new(Mutex::new(ctx)));
    let mut no_flush = lock(release_without_flush());
    if info.flush_on_release {
        no_flush.remove(&handle);
    } else {
        no_flush.insert(handle);
    }
    Ok(())
}

fn fences() -> &'static Mutex<HashMap<u64, DeviceFence>> {
    static MAP: OnceLock<Mutex<HashMap<u64, DeviceFence>>> = OnceLock::new();
    MAP.get_or_init(Default::default)
}

/// Makes the fence of EGL sync `handle`: everything this thread's current context recorded so
/// far, submitted now. `false` without a current GL context.
pub(crate) fn create_fence(handle: u64) -> bool {
    let fence = with_current(None, |c| Some(c.device_fence()));
    let made = fence.is_some();
    if let Some(f) = fence {
        lock(fences()).insert(handle, f);
    }
    made
}

/// The fence of EGL sync `handle`, for a wait or a status query on any thread.
pub(crate) fn fence(handle: u64) -> Option<DeviceFence> {
    lock(fences()).get(&handle).cloned()
}

/// Forgets the fence of EGL sync `handle` (a wait that already holds it keeps waiting).
pub(crate) fn destroy_fence(handle: u64) {
    let removed = lock(fences()).remove(&handle);
    drop(removed);
}

/// Forgets the fences whose syncs no longer exist (`eglTerminate` destroyed them).
pub(crate) fn retain_fences(exists: impl Fn(u64) -> bool) {
    let mut map = lock(fences());
    map.retain(|&h, _| exists(h));
}

/// Whether the GL context of EGL context `handle` is on a lost device.
pub(crate) fn context_lost(handle: u64) -> bool {
    let ctx = lock(contexts()).get(&handle).cloned();
    ctx.is_some_and(|c| {
        let c = lock(&c);
        c.is_lost() && !c.recovers_from_loss()
    })
}

/// Forgets EGL context `handle` (a thread that has it current keeps it until released).
pub(crate) fn destroy_context(handle: u64) {
    lock(release_without_flush()).remove(&handle);
    let removed = lock(contexts()).remove(&handle);
    drop(removed);
}

/// Creates the images of surface `handle`, made as `format` says.
pub(crate) fn create_surface(
    handle: u64,
    width: u32,
    height: u32,
    format: SurfaceFormat,
) -> Result<(), String> {
    let device = device()?;
    let images = SurfaceImages::with_format(&device, width, height, 1.0, format)
        .map_err(|e| e.to_string())?;
    let entry = SurfaceEntry {
        images: Arc::new(images),
        window: None,
    };
    lock(surfaces()).insert(handle, entry);
    Ok(())
}

/// An Xlib connection of the process's own, for windows of the default display: opened once
/// with `XOpenDisplay(NULL)` (libX11 loaded at run time, so ArenaGL links no X library); `None`
/// without libX11 or an X server.
pub(crate) fn default_x11_display() -> Option<u64> {
    static DISPLAY: OnceLock<Option<(libloading::Library, u64)>> = OnceLock::new();
    type XOpenDisplay = unsafe extern "C" fn(*const std::ffi::c_char) -> *mut c_void;
    DISPLAY
        .get_or_init(|| {
            // SAFETY: libX11's initialisers are safe to run; the library stays loaded for the
            // process (it lives in this static), as the connection it opens must.
            let lib = unsafe { libloading::Library::new("libX11.so.6") }.ok()?;
            // SAFETY: `XOpenDisplay` has exactly this C signature.
            let open = *unsafe { lib.get::<XOpenDisplay>(b"XOpenDisplay\0") }.ok()?;
            // SAFETY: NULL asks for `$DISPLAY`; the result is NULL or a new connection.
            let display = unsafe { open(std::ptr::null()) };
            (!display.is_null()).then(|| (lib, display.addr() as u64))
        })
        .as_ref()
        .map(|(_, d)| *d)
}

/// Creates the images and the swapchain of window surface `handle` for X11 window `xid` on
/// the Xlib connection `native_display` (`None`: the default display's own connection), and
/// returns the window's size. Errors are the EGL errors to report.
pub(crate) fn create_window_surface(
    handle: u64,
    native_display: Option<u64>,
    xid: u64,
    vsync: bool,
    format: SurfaceFormat,
) -> Result<(u32, u32), EglError> {
    let device = device().map_err(|e| {
        error_repeated!(error = %e, "eglCreateWindowSurface: no device");
        EglError::BAD_ALLOC
    })?;
    let Some(display) = native_display.or_else(default_x11_display) else {
        error_repeated!("eglCreateWindowSurface: no X11 connection for the default display");
        return Err(EglError::BAD_NATIVE_WINDOW);
    };
    let window = XlibWindow {
        display: std::ptr::without_provenance_mut(display as usize),
        window: xid,
    };
    open_window(handle, &device, format, |m| m.create_window(window, vsync))
}

/// Creates the images and the swapchain of window surface `handle` for the X11 window of an
/// XCB connection `window`, and returns the window's size. Errors are the EGL errors to report.
///
/// # Safety
/// `window.connection` is a live `xcb_connection_t*` and `window.window` one of its server's
/// windows, and both outlive the surface.
pub(crate) unsafe fn create_xcb_surface(
    handle: u64,
    window: XcbWindow,
    vsync: bool,
    format: SurfaceFormat,
) -> Result<(u32, u32), EglError> {
    let device = device().map_err(|e| {
        error_repeated!(error = %e, "eglCreateWindowSurface: no device");
        EglError::BAD_ALLOC
    })?;
    open_window(handle, &device, format, |m| {
        // SAFETY: the caller's contract, passed on.
        unsafe { m.create_xcb_window(window, vsync) }
    })
}

/// Creates the images and the swapchain of window surface `handle` for the Wayland surface
/// `window` at `size` (the `wl_egl_window`'s), and returns the size the swapchain has. Errors
/// are the EGL errors to report.
///
/// # Safety
/// `window`'s `wl_display*` and `wl_surface*` are live and outlive the surface.
pub(crate) unsafe fn create_wayland_surface(
    handle: u64,
    window: WaylandWindow,
    size: (u32, u32),
    vsync: bool,
    format: SurfaceFormat,
) -> Result<(u32, u32), EglError> {
    let device = device().map_err(|e| {
        error_repeated!(error = %e, "eglCreateWindowSurface: no device");
        EglError::BAD_ALLOC
    })?;
    let extent = ash::vk::Extent2D {
        width: size.0,
        height: size.1,
    };
    open_window(handle, &device, format, |m| {
        // SAFETY: the caller's contract, passed on.
        unsafe { m.create_wayland_window(window, extent, vsync) }
    })
}

/// Makes a window with `create` and the surface images of its size, registered as `handle`.
fn open_window(
    handle: u64,
    device: &Arc<Device>,
    format: SurfaceFormat,
    create: impl FnOnce(&mut MemoryManager) -> Result<WindowId, MemoryError>,
) -> Result<(u32, u32), EglError> {
    let (id, extent) = {
        let mut locked = device.lock();
        let id =
            create(&mut locked.manager).map_err(|e| create_error("eglCreateWindowSurface", &e))?;
        match locked.manager.window_extent(id) {
            Ok(extent) => (id, extent),
            Err(e) => {
                let _ = locked.manager.destroy_window(id);
                return Err(create_error("eglCreateWindowSurface", &e));
            }
        }
    };
    let images = match SurfaceImages::with_format(device, extent.width, extent.height, 1.0, format)
    {
        Ok(images) => images,
        Err(e) => {
            error_repeated!(error = %e, "eglCreateWindowSurface: no images");
            let _ = device.lock().manager.destroy_window(id);
            return Err(EglError::BAD_ALLOC);
        }
    };
    let size = (images.width, images.height);
    let entry = SurfaceEntry {
        images: Arc::new(images),
        window: Some(id),
    };
    lock(surfaces()).insert(handle, entry);
    Ok(size)
}

/// The EGL error for a failure to present to a window: the window (or the device's lack of
/// window support) is `EGL_BAD_NATIVE_WINDOW`, running out of something `EGL_BAD_ALLOC`, a lost
/// device `EGL_CONTEXT_LOST` (`eglSwapBuffers`).
fn window_error(call: &str, e: &MemoryError) -> EglError {
    error_repeated!(error = %e, "{call}: the window cannot be presented to");
    match e {
        MemoryError::Unsupported(_) | MemoryError::Vulkan { .. } => EglError::BAD_NATIVE_WINDOW,
        MemoryError::DeviceLost => EglError::CONTEXT_LOST,
        _ => EglError::BAD_ALLOC,
    }
}

/// The EGL error for a window surface that could not be created. As [`window_error`], except
/// that a device lost while creating it is `EGL_BAD_ALLOC`: EGL 1.5 reports a power management
/// event (`EGL_CONTEXT_LOST`) only from `eglSwapBuffers`, `eglCopyBuffers` and `eglMakeCurrent`
/// (§3.11), and surface creation's errors for a surface that cannot be made are
/// `EGL_BAD_NATIVE_WINDOW` / `EGL_BAD_ALLOC`, as Mesa answers and as
/// `eglCreatePbufferSurface` does. Creating the surface again opens a new device.
fn create_error(call: &str, e: &MemoryError) -> EglError {
    match window_error(call, e) {
        EglError::CONTEXT_LOST => EglError::BAD_ALLOC,
        other => other,
    }
}

pub(crate) fn destroy_surface(handle: u64) {
    let removed = lock(surfaces()).remove(&handle);
    if let Some(entry) = &removed {
        if let Some(id) = entry.window {
            // The window belongs to the device the surface was made on, lost or not.
            let _ = entry.images.device().lock().manager.destroy_window(id);
        }
    }
    drop(removed);
}

/// Follows a successful `eglMakeCurrent`.
pub(crate) fn make_current(ctx: Option<u64>, draw: Option<u64>, read: Option<u64>) {
    // `try_with`: at thread or process exit (glvnd releases the current context from a
    // destructor) the thread-local may already be gone; there is nothing left to release then.
    let previous = CURRENT.try_with(|c| c.borrow_mut().take()).ok().flatten();
    let flushes = CURRENT_FLUSHES.try_with(Cell::get).unwrap_or(true);
    BOUND.with(|b| b.set((None, None)));
    let next = ctx.and_then(|h| lock(contexts()).get(&h).cloned());
    if let Some(prev) = previous {
        let mut prev_ctx = lock(&prev);
        // EGL's implicit flush of a context that stops being current (the release behaviour
        // `…_FLUSH_KHR`); `…_NONE_KHR` leaves its work recorded. Rebinding the same context to
        // other surfaces does not release it. A lost context has nothing left to submit.
        let released = next.as_ref().is_none_or(|n| !Arc::ptr_eq(n, &prev));
        if released && flushes && !prev_ctx.is_lost() {
            prev_ctx.flush();
        }
        prev_ctx.make_current(None, None);
    }
    let (Some(ctx), Some(shared)) = (ctx, next) else {
        return;
    };
    let flushes = !lock(release_without_flush()).contains(&ctx);
    let _ = CURRENT_FLUSHES.try_with(|f| f.set(flushes));
    let (draw_images, read_images) = images_of(draw, read);
    lock(&shared).make_current(draw_images, read_images);
    let _ = CURRENT.try_with(|c| *c.borrow_mut() = Some(shared));
    BOUND.with(|b| b.set((draw, read)));
}

fn images_of(
    draw: Option<u64>,
    read: Option<u64>,
) -> (Option<Arc<SurfaceImages>>, Option<Arc<SurfaceImages>>) {
    let s = lock(surfaces());
    let get = |h: Option<u64>| h.and_then(|h| s.get(&h)).map(|e| e.images.clone());
    (get(draw), get(read))
}

/// Follows a successful `eglSwapBuffers` on `surface` (the current draw surface): submits the
/// current context's frame, and for a window presents it (`interval` 0: without vsync where
/// the window allows). `Ok(Some(size))` when the window was found resized: the surface has new
/// images of that size for the next frame. `Err` is the EGL error to report.
///
/// `stated` is the size of a window whose size the program states (a Wayland `wl_egl_window`'s
/// width and height, as of this swap; `None` for X11 windows and pbuffers): the frame is
/// presented at that size and the surface resized to it, as EGL resizes at the swap.
pub(crate) fn swap_buffers_sized(
    surface: u64,
    interval: i32,
    stated: Option<(u32, u32)>,
) -> Result<Option<(u32, u32)>, EglError> {
    let entry = lock(surfaces())
        .get(&surface)
        .map(|e| (e.images.clone(), e.window));
    let Some((images, Some(window))) = entry else {
        return with_current(Ok(()), |c| {
            if !c.usable_after_loss() {
                c.lost_command();
                return Err(EglError::CONTEXT_LOST);
            }
            let r = c.swap_buffers();
            frame_outcome(c, r)
        })
        .map(|()| None);
    };
    let color = images.presented_color().0;
    with_current(Ok(()), |c| {
        if !c.usable_after_loss() {
            c.lost_command();
            return Err(EglError::CONTEXT_LOST);
        }
        let r = c.swap_buffers_with(|m| {
            m.set_window_vsync(window, interval != 0)?;
            if let Some((width, height)) = stated {
                m.set_window_size(window, ash::vk::Extent2D { width, height })?;
            }
            images.record_resolve(m)?;
            m.present(window, color).map(drop)
        });
        frame_outcome(c, r)
    })?;
    let device = images.device().clone();
    let extent = device
        .lock()
        .manager
        .window_extent(window)
        .map_err(|e| window_error("eglSwapBuffers", &e))?;
    // A window with no area keeps its images; the swap presented nothing.
    let resized = (extent.width, extent.height) != (images.width, images.height);
    if extent.width == 0 || extent.height == 0 {
        return Ok(None);
    }
    // Under memory pressure the frames may render at a reduced scale (`docs/pressure.md`): new images of
    // the scaled size, exactly as for a resize (GL keeps seeing the window's size).
    let scale = with_current(1.0, |c| c.requested_render_scale());
    let fresh_render =
        |v: u32| ((v as f32 * scale.clamp(0.25, 1.0)).round() as u32).clamp(1, v.max(1));
    let rescaled = (fresh_render(extent.width), fresh_render(extent.height))
        != (images.render_width, images.render_height);
    if !resized && !rescaled {
        return Ok(None);
    }
    let fresh =
        SurfaceImages::with_format(&device, extent.width, extent.height, scale, images.format)
            .map_err(|e| {
                error_repeated!(error = %e, "eglSwapBuffers: no images for the resized window");
                EglError::BAD_ALLOC
            })?;
    if rescaled {
        let percent = fresh.scale_percent();
        device
            .lock()
            .manager
            .record_degradation(arenagl_memory::Degradation::RenderScale { percent });
    }
    let size = (fresh.width, fresh.height);
    if let Some(e) = lock(surfaces()).get_mut(&surface) {
        e.images = Arc::new(fresh);
    }
    let (draw, read) = BOUND.with(Cell::get);
    let (draw_images, read_images) = images_of(draw, read);
    with_current((), |c| c.make_current(draw_images, read_images));
    // A rescale alone does not change GL's view of the surface: no new size to report.
    Ok(resized.then_some(size))
}

/// What `eglSwapBuffers` answers for a frame's outcome (the memory manager classified the
/// Vulkan result): a lost device is `EGL_CONTEXT_LOST` (the context is lost from now on); out
/// of memory skips the frame, with `GL_OUT_OF_MEMORY` on the context saying why, and the swap
/// succeeds, so the program carries on; a window the device can no longer present to is
/// `EGL_BAD_NATIVE_WINDOW`; anything else `EGL_BAD_ALLOC`. Every failure is logged (rate-limited).
fn frame_outcome(c: &mut GlContext, r: Result<(), GlError>) -> Result<(), EglError> {
    let Err(e) = r else {
        return Ok(());
    };
    if e.code() == arenagl_translate::gl::enums::GL_CONTEXT_LOST && c.recovers_from_loss() {
        // The frame is dropped; the next command recovers the device.
        c.record::<()>(Err(e));
        return Ok(());
    }
    let egl = match &e {
        GlError::Memory(MemoryError::DeviceLost) => Some(EglError::CONTEXT_LOST),
        GlError::Memory(m) if m.is_out_of_memory() => None,
        GlError::Memory(MemoryError::Vulkan { .. } | MemoryError::Unsupported(_)) => {
            Some(EglError::BAD_NATIVE_WINDOW)
        }
        _ if e.code() == arenagl_translate::gl::enums::GL_CONTEXT_LOST => {
            Some(EglError::CONTEXT_LOST)
        }
        _ => Some(EglError::BAD_ALLOC),
    };
    c.record::<()>(Err(e));
    egl.map_or(Ok(()), Err)
}

/// Runs `f` on the GL context of EGL context `handle` (current anywhere or not: another
/// thread's command finishes first); `None` when it has no GL context.
pub(crate) fn with_context<T>(handle: u64, f: impl FnOnce(&mut GlContext) -> T) -> Option<T> {
    let ctx = lock(contexts()).get(&handle).cloned()?;
    let mut ctx = lock(&ctx);
    Some(ctx.run_shared(f))
}

/// Runs `f` on this thread's current GL context; without one, returns `default` (GL commands
/// without a current context have no effect).
pub(crate) fn with_current<T>(default: T, f: impl FnOnce(&mut GlContext) -> T) -> T {
    let ctx = CURRENT.try_with(|c| c.borrow().clone()).ok().flatten();
    match ctx {
        Some(ctx) => lock(&ctx).run_shared(f),
        None => default,
    }
}
