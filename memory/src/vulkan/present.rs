//! Presenting to windows: `VK_KHR_xlib_surface` and `VK_KHR_xcb_surface` (X11, on an Xlib or
//! an XCB connection) and `VK_KHR_wayland_surface` (Wayland) surfaces, `VK_KHR_swapchain` swapchains, and the frame submission that ends in
//! `vkQueuePresentKHR`.
//!
//! Design decisions:
//! - The manager owns the queue, so it owns presenting. A client names a window
//!   ([`MemoryManager::create_window`]) and, at the end of a frame, hands over the image it
//!   rendered ([`MemoryManager::present`]); the manager acquires a swapchain image, records the
//!   copy into it, submits the frame as the next epoch (waiting for the acquire semaphore,
//!   signalling the timeline and the image's render-finished semaphore) and presents it.
//! - The copy is a `vkCmdBlitImage` with the Y offsets swapped: GL's row 0 is the bottom row of
//!   the picture, a window's row 0 the top. The swapchain format is chosen among those whose
//!   optimal tiling supports `BLIT_DST` (UNORM BGRA/RGBA preferred, so linear GL colour is shown
//!   as written); a surface offering none is refused rather than copied row by row.
//! - One submission per frame: the acquire semaphore is waited at the transfer stage, so only
//!   the transfer commands of the frame (its uploads and the final blit) wait for the
//!   presentation engine; draws run ahead.
//! - Semaphores: acquire semaphores form a ring (one more than the swapchain's images) and a slot
//!   is reused only after the epoch whose submission waited on it completed; render-finished
//!   semaphores are per swapchain image, since an image is acquired again only after the
//!   presentation engine consumed the previous wait on its semaphore.
//! - `OUT_OF_DATE` / `SUBOPTIMAL` (from acquire or present) mark the swapchain stale; it is
//!   recreated, with `oldSwapchain`, at the next present, at the window's size then (EGL resizes
//!   at the swap). Every retired swapchain, semaphore and surface is destroyed only after the
//!   last epoch that used it completed: they wait on a [`RetireQueue`] (the manager's primitive,
//!   holding presentation objects), drained under the manager's [`Horizon`]. A surface is
//!   retired after its swapchains at an epoch no earlier than theirs (the window's last frame),
//!   so the queue's order (epoch, then retirement order) destroys it after them.
//! - Image count: a presentation layer that cycles through more drawables than the swapchain
//!   tracks can crash the compositor, so the swapchain asks for the manager's frames in flight
//!   (`ManagerConfig::frame_slots`) limited to the surface's range ([`image_count`]), and
//!   everything per image — render-finished semaphores, the acquire ring — is sized from the
//!   images `vkGetSwapchainImagesKHR` actually returned (a driver may give more than asked), so
//!   the presenter tracks exactly the drawables the presentation engine cycles through.
//! - A window of zero size (minimised) or an acquire that times out skips presenting but still
//!   submits the frame, so the client's epoch bookkeeping never depends on the window. No
//!   swapchain is ever created at a zero (or "any size", `u32::MAX`) extent: [`drawable_extent`].
//! - A Wayland surface has no size of its own (`currentExtent` is `u32::MAX`: the swapchain
//!   decides): the client states the size ([`MemoryManager::create_wayland_window`],
//!   [`MemoryManager::set_window_size`], from `wl_egl_window`'s width and height), clamped to
//!   the surface's limits ([`chosen_extent`]).

use std::collections::HashMap;
use std::ffi::c_void;
use std::time::Duration;

use ash::vk;

use crate::classify::{classify, Call, Outcome};
use crate::error::{MemoryError, Result};
use crate::fault::FaultSite;
use crate::manager::ImageHandle;
use crate::retire::{Horizon, RetireQueue};
use crate::stats::Stat;
use crate::sync::Arc;
use crate::vulkan::context::DeviceShared;
use crate::vulkan::conv::{map_alloc, map_present};
use crate::vulkan::MemoryManager;
use crate::Epoch;
use crate::SubmitShape;

/// An X11 window on an Xlib connection: what `vkCreateXlibSurfaceKHR` needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct XlibWindow {
    /// The Xlib `Display*` (opaque here; must outlive the swapchain).
    pub display: *mut c_void,
    /// The `Window` XID.
    pub window: u64,
}

/// An X11 window on an XCB connection: what `vkCreateXcbSurfaceKHR` needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct XcbWindow {
    /// The `xcb_connection_t*` (opaque here; must outlive the swapchain).
    pub connection: *mut c_void,
    /// The `xcb_window_t`.
    pub window: u32,
}

/// A Wayland surface on a client connection: what `vkCreateWaylandSurfaceKHR` needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaylandWindow {
    /// The `wl_display*` (opaque here; must outlive the swapchain).
    pub display: *mut c_void,
    /// The `wl_surface*` (opaque here; must outlive the swapchain).
    pub surface: *mut c_void,
}

/// A window the manager presents to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WindowId(u64);

/// What [`MemoryManager::present`] did with the frame (it was submitted either way).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presented {
    /// Queued for presentation.
    Shown,
    /// Not shown: the window has no area, or no image could be acquired in time.
    Skipped,
}

/// The `minImageCount` to ask for: `drawables` (the frames the manager keeps in flight) within
/// the surface's limits (`max` 0: no upper limit), and never fewer than 2 (one shown, one drawn).
pub fn image_count(drawables: u32, caps_min: u32, caps_max: u32) -> u32 {
    let count = drawables.max(2).max(caps_min);
    if caps_max > 0 {
        count.min(caps_max)
    } else {
        count
    }
}

/// The extent a swapchain can be created at from the surface's `currentExtent`, or `None` when
/// the window has no area (minimised: 0 in either dimension) or the surface leaves the size to
/// the swapchain (`u32::MAX`; Xlib surfaces always report the window's size, so this means
/// the window could not be queried). No swapchain is made then: a zero extent is invalid
/// (`VUID-VkSwapchainCreateInfoKHR-imageExtent-01689`).
pub fn drawable_extent(current: vk::Extent2D) -> Option<vk::Extent2D> {
    let unknown = current.width == u32::MAX || current.height == u32::MAX;
    (current.width > 0 && current.height > 0 && !unknown).then_some(current)
}

/// The size of a window: the surface's `currentExtent`, or where the surface leaves the size to
/// the swapchain (`u32::MAX`, Wayland) the size the client `stated`, clamped to the surface's
/// `min`/`max` image extent (0×0 when it stated none).
pub fn chosen_extent(
    caps: &vk::SurfaceCapabilitiesKHR,
    stated: Option<vk::Extent2D>,
) -> vk::Extent2D {
    let current = caps.current_extent;
    if current.width != u32::MAX && current.height != u32::MAX {
        return current;
    }
    let Some(stated) = stated else {
        return vk::Extent2D::default();
    };
    let (min, max) = (caps.min_image_extent, caps.max_image_extent);
    let clamp = |v: u32, lo: u32, hi: u32| if v == 0 { 0 } else { v.clamp(lo, hi.max(lo)) };
    vk::Extent2D {
        width: clamp(stated.width, min.width, max.width),
        height: clamp(stated.height, min.height, max.height),
    }
}

/// The swapchain of one window at one size.
struct Chain {
    raw: vk::SwapchainKHR,
    images: Vec<vk::Image>,
    /// The `minImageCount` it was created with.
    requested: u32,
    /// Per image: whether it has been presented (the drawables actually cycled through).
    shown: Vec<bool>,
    /// Per image: signalled by the frame's submission, waited by the present of that image.
    render_done: Vec<vk::Semaphore>,
    format: vk::Format,
    extent: vk::Extent2D,
    /// The last epoch whose submission wrote one of its images.
    last_epoch: Epoch,
}

/// The native window a surface was made from: kept so that a device re-opened after a loss
/// (`VulkanBackend::reopen`) can make the window's surface again on its new instance.
#[derive(Debug, Clone, Copy)]
enum Native {
    Xlib(XlibWindow),
    Xcb(XcbWindow),
    Wayland(WaylandWindow),
}

// SAFETY: the pointers are opaque handles of the window system, never dereferenced here: they
// are only passed to `vkCreate*SurfaceKHR` under the manager's `&mut`, from whichever thread
// holds it, which the window system's own rules for these handles allow (the client keeps them
// alive until the window is destroyed: EGL's rule for native handles, `create_wayland_window`'s
// contract).
unsafe impl Send for Native {}

struct Window {
    surface: vk::SurfaceKHR,
    native: Native,
    /// The size the client stated, for surfaces that leave it to the swapchain (Wayland).
    stated: Option<vk::Extent2D>,
    chain: Option<Chain>,
    /// Recreate the chain before the next present.
    stale: bool,
    vsync: bool,
    /// (semaphore, epoch of the submission that last waited on it).
    acquire: Vec<(vk::Semaphore, Epoch)>,
    next_acquire: usize,
}

impl Window {
    /// A window of `surface` without a swapchain yet (made at its first present).
    fn new(
        surface: vk::SurfaceKHR,
        native: Native,
        stated: Option<vk::Extent2D>,
        vsync: bool,
    ) -> Self {
        Self {
            surface,
            native,
            stated,
            chain: None,
            stale: true,
            vsync,
            acquire: Vec::new(),
            next_acquire: 0,
        }
    }

    /// The epoch of the window's last frame: every frame waited on an acquire semaphore stamped
    /// with its epoch, and the chain remembers its last blit.
    fn last_frame(&self) -> Epoch {
        self.acquire
            .iter()
            .map(|&(_, e)| e)
            .chain(self.chain.as_ref().map(|c| c.last_epoch))
            .max()
            .unwrap_or(Epoch::ZERO)
    }
}

/// A retired presentation object: its destruction waits for an epoch.
enum Retired {
    Swapchain(vk::SwapchainKHR),
    Semaphore(vk::Semaphore),
    Surface(vk::SurfaceKHR),
}

/// The extension functions and every window (part of the Vulkan backend).
pub(crate) struct Presenter {
    shared: Arc<DeviceShared>,
    fns: Option<Fns>,
    windows: HashMap<u64, Window>,
    next_id: u64,
    /// Retired objects, each with the epoch it waits for.
    retired: RetireQueue<Retired>,
    /// Swapchains created so far, first ones and rebuilds alike.
    chains_created: u64,
}

struct Fns {
    surface: ash::khr::surface::Instance,
    xlib: Option<ash::khr::xlib_surface::Instance>,
    xcb: Option<ash::khr::xcb_surface::Instance>,
    wayland: Option<ash::khr::wayland_surface::Instance>,
    swapchain: ash::khr::swapchain::Device,
}

/// How long an acquire may block before the frame is submitted unshown.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(2);

impl Presenter {
    pub(crate) fn new(shared: &Arc<DeviceShared>) -> Self {
        let features = &shared.info.features;
        let (entry, instance) = (&shared.entry, &shared.instance);
        let windowed = features.xlib_present || features.xcb_present || features.wayland_present;
        let fns = windowed.then(|| Fns {
            surface: ash::khr::surface::Instance::new(entry, instance),
            xlib: features
                .xlib_present
                .then(|| ash::khr::xlib_surface::Instance::new(entry, instance)),
            xcb: features
                .xcb_present
                .then(|| ash::khr::xcb_surface::Instance::new(entry, instance)),
            wayland: features
                .wayland_present
                .then(|| ash::khr::wayland_surface::Instance::new(entry, instance)),
            swapchain: ash::khr::swapchain::Device::new(instance, &shared.raw),
        });
        Self {
            shared: shared.clone(),
            fns,
            windows: HashMap::new(),
            next_id: 1,
            retired: RetireQueue::new(),
            chains_created: 0,
        }
    }

    /// Creates a surface of `native` on this presenter's instance.
    ///
    /// # Safety
    /// `native`'s handles are live objects of the window system (an Xlib `Display*` or an
    /// `xcb_connection_t*` and one of its server's windows; a `wl_display*` and one of its
    /// `wl_surface*`s).
    unsafe fn make_surface(&self, native: Native) -> Result<vk::SurfaceKHR> {
        let fns = self.fns()?;
        match native {
            Native::Xlib(window) => {
                let xlib = fns.xlib.as_ref().ok_or_else(|| {
                    MemoryError::Unsupported(
                        "presenting to X11 windows needs VK_KHR_xlib_surface".into(),
                    )
                })?;
                let info = vk::XlibSurfaceCreateInfoKHR::default()
                    .dpy(window.display)
                    .window(window.window as vk::Window);
                // SAFETY: the caller's contract (live display and window); the info lives
                // across the call.
                unsafe { xlib.create_xlib_surface(&info, None) }
                    .map_err(|r| map_present("vkCreateXlibSurfaceKHR", r))
            }
            Native::Xcb(window) => {
                let xcb = fns.xcb.as_ref().ok_or_else(|| {
                    MemoryError::Unsupported(
                        "presenting to XCB windows needs VK_KHR_xcb_surface".into(),
                    )
                })?;
                let info = vk::XcbSurfaceCreateInfoKHR::default()
                    .connection(window.connection)
                    .window(window.window);
                // SAFETY: the caller's contract (live connection and window); the info lives
                // across the call.
                unsafe { xcb.create_xcb_surface(&info, None) }
                    .map_err(|r| map_present("vkCreateXcbSurfaceKHR", r))
            }
            Native::Wayland(window) => {
                let wayland = fns.wayland.as_ref().ok_or_else(|| {
                    MemoryError::Unsupported(
                        "presenting to Wayland surfaces needs VK_KHR_wayland_surface".into(),
                    )
                })?;
                let info = vk::WaylandSurfaceCreateInfoKHR::default()
                    .display(window.display)
                    .surface(window.surface);
                // SAFETY: the caller's contract (live objects of one connection); the info
                // lives across the call.
                unsafe { wayland.create_wayland_surface(&info, None) }
                    .map_err(|r| map_present("vkCreateWaylandSurfaceKHR", r))
            }
        }
    }

    /// `Ok` when the manager's queue can present to `surface` (made on this instance).
    fn check_support(&self, surface: vk::SurfaceKHR) -> Result<()> {
        let fns = self.fns()?;
        // SAFETY: the surface was created on this instance and is alive.
        let supported = unsafe {
            fns.surface.get_physical_device_surface_support(
                self.shared.physical,
                self.shared.queue_family,
                surface,
            )
        };
        match supported {
            Ok(true) => Ok(()),
            Ok(false) => Err(MemoryError::Unsupported(
                "the queue cannot present to this window".into(),
            )),
            Err(r) => Err(map_present("vkGetPhysicalDeviceSurfaceSupportKHR", r)),
        }
    }

    /// After a device loss, on the presenter of the re-opened device: makes a surface for every
    /// window of the `lost` presenter, under the same ids, with the stated size and swap
    /// interval; each window's swapchain is made at its next present. The lost presenter keeps
    /// its own surfaces and swapchains, destroyed with it. On failure nothing is kept here.
    pub(crate) fn adopt_windows(&mut self, lost: &Presenter) -> Result<()> {
        for (&id, old) in &lost.windows {
            // SAFETY: the window's native handles are live until it is destroyed (the contract
            // under which it was made), and it is not destroyed yet.
            let made = unsafe { self.make_surface(old.native) };
            let checked = made.and_then(|surface| {
                let w = Window::new(surface, old.native, old.stated, old.vsync);
                self.windows.insert(id, w);
                self.check_support(surface)
            });
            if let Err(e) = checked {
                for (_, w) in std::mem::take(&mut self.windows) {
                    self.retire_window(w, Epoch::ZERO);
                }
                self.release(Horizon::All);
                return Err(e);
            }
        }
        self.next_id = lost.next_id;
        self.chains_created = lost.chains_created;
        Ok(())
    }

    fn fns(&self) -> Result<&Fns> {
        self.fns.as_ref().ok_or_else(|| {
            MemoryError::Unsupported(
                "presenting to windows needs VK_KHR_surface and VK_KHR_swapchain".into(),
            )
        })
    }

    fn window(&mut self, id: WindowId) -> Result<&mut Window> {
        self.windows
            .get_mut(&id.0)
            .ok_or(MemoryError::InvalidHandle)
    }

    /// Releases the retired objects `horizon` frees.
    fn release(&mut self, horizon: Horizon) {
        let Some(fns) = self.fns.as_ref() else {
            return;
        };
        let device = &self.shared.raw;
        if self.retired.has_due(horizon) {
            // A presentation's wait on its render-finished semaphore is not part of any epoch: the
            // timeline says the blit finished, not that the presentation engine released the
            // semaphore (and the swapchain). Nothing but an idle device proves that, and retired
            // objects only fall due on a resize or a destroyed window, so pay for it here.
            // SAFETY: valid device; the manager's thread owns the queue while it runs this.
            if let Err(r) = unsafe { device.device_wait_idle() } {
                tracing::warn!(result = ?r, "vkDeviceWaitIdle before destroying swapchain objects");
            }
        }
        for (_, object) in self.retired.drain(horizon) {
            // SAFETY: every object was created on this device/instance and the last submission
            // using it completed (or the device can no longer run it); swapchains are destroyed
            // before the surface they belong to (a surface is retired after its swapchains, at
            // an epoch no earlier than theirs, and the drain goes by epoch, then retirement
            // order).
            unsafe {
                match object {
                    Retired::Swapchain(s) => fns.swapchain.destroy_swapchain(s, None),
                    Retired::Semaphore(s) => device.destroy_semaphore(s, None),
                    Retired::Surface(s) => fns.surface.destroy_surface(s, None),
                }
            }
        }
    }

    /// Retires a chain: its swapchain and render-finished semaphores wait for its last epoch.
    fn retire_chain(&mut self, chain: Chain) {
        let epoch = chain.last_epoch;
        self.retired.push(epoch, Retired::Swapchain(chain.raw));
        for s in chain.render_done {
            self.retired.push(epoch, Retired::Semaphore(s));
        }
    }

    /// Retires a window that was removed: its chain and acquire semaphores at their epochs, then
    /// its surface at the window's last frame (no earlier than `completed`), so that the surface
    /// goes after every swapchain of the window, this one and those retired by rebuilds (each
    /// frame waited on an acquire semaphore stamped with its epoch).
    fn retire_window(&mut self, w: Window, completed: Epoch) {
        let last = w.last_frame().max(completed);
        if let Some(chain) = w.chain {
            self.retire_chain(chain);
        }
        for (s, e) in w.acquire {
            self.retired.push(e, Retired::Semaphore(s));
        }
        self.retired.push(last, Retired::Surface(w.surface));
    }

    fn semaphore(&self) -> Result<vk::Semaphore> {
        // SAFETY: valid device; the create info lives across the call.
        unsafe {
            self.shared
                .raw
                .create_semaphore(&vk::SemaphoreCreateInfo::default(), None)
        }
        .map_err(|r| map_alloc("vkCreateSemaphore", r))
    }

    fn capabilities(&self, surface: vk::SurfaceKHR) -> Result<vk::SurfaceCapabilitiesKHR> {
        let fns = self.fns()?;
        // SAFETY: the surface was created on this instance and is alive.
        unsafe {
            fns.surface
                .get_physical_device_surface_capabilities(self.shared.physical, surface)
        }
        .map_err(|r| map_present("vkGetPhysicalDeviceSurfaceCapabilitiesKHR", r))
    }

    /// The swapchain format: UNORM BGRA/RGBA first, then any non-sRGB format, then anything,
    /// among those whose optimal tiling can be a blit destination.
    fn choose_format(&self, surface: vk::SurfaceKHR) -> Result<vk::SurfaceFormatKHR> {
        let fns = self.fns()?;
        // SAFETY: as in `capabilities`.
        let formats = unsafe {
            fns.surface
                .get_physical_device_surface_formats(self.shared.physical, surface)
        }
        .map_err(|r| map_present("vkGetPhysicalDeviceSurfaceFormatsKHR", r))?;
        let blittable = |f: &vk::SurfaceFormatKHR| {
            // SAFETY: plain query on the physical device.
            let props = unsafe {
                self.shared
                    .instance
                    .get_physical_device_format_properties(self.shared.physical, f.format)
            };
            props
                .optimal_tiling_features
                .contains(vk::FormatFeatureFlags::BLIT_DST)
        };
        let rank = |f: &vk::SurfaceFormatKHR| match f.format {
            vk::Format::B8G8R8A8_UNORM | vk::Format::R8G8B8A8_UNORM => 0,
            vk::Format::B8G8R8A8_SRGB | vk::Format::R8G8B8A8_SRGB => 2,
            _ => 1,
        };
        formats
            .iter()
            .filter(|f| blittable(f))
            .min_by_key(|f| rank(f))
            .copied()
            .ok_or_else(|| {
                MemoryError::Unsupported(format!(
                    "no surface format is a blit destination (offered: {:?})",
                    formats.iter().map(|f| f.format).collect::<Vec<_>>()
                ))
            })
    }

    fn present_mode(&self, surface: vk::SurfaceKHR, vsync: bool) -> Result<vk::PresentModeKHR> {
        if vsync {
            return Ok(vk::PresentModeKHR::FIFO);
        }
        let fns = self.fns()?;
        // SAFETY: as in `capabilities`.
        let modes = unsafe {
            fns.surface
                .get_physical_device_surface_present_modes(self.shared.physical, surface)
        }
        .map_err(|r| map_present("vkGetPhysicalDeviceSurfacePresentModesKHR", r))?;
        // FIFO is the one mode every implementation supports.
        Ok([vk::PresentModeKHR::IMMEDIATE, vk::PresentModeKHR::MAILBOX]
            .into_iter()
            .find(|m| modes.contains(m))
            .unwrap_or(vk::PresentModeKHR::FIFO))
    }

    /// (Re)creates the window's chain at the surface's current size; `Ok(false)` when the
    /// window has no area (nothing to create).
    ///
    /// Creation failing for memory (or `INITIALIZATION_FAILED`) walks a degrade ladder: the
    /// image count the surface needs at least, then that with FIFO (the one mode every surface
    /// has); the usage is already minimal (`TRANSFER_DST` only). `inject` is the fault plan's
    /// `swapchain` check, made before each attempt.
    fn rebuild(
        &mut self,
        id: WindowId,
        completed: Epoch,
        drawables: u32,
        inject: &mut dyn FnMut() -> Option<vk::Result>,
    ) -> Result<bool> {
        let (surface, vsync, stated) = {
            let w = self.window(id)?;
            (w.surface, w.vsync, w.stated)
        };
        let caps = self.capabilities(surface)?;
        let Some(extent) = drawable_extent(chosen_extent(&caps, stated)) else {
            // No area: keep the old chain retired, present nothing.
            if let Some(old) = self.window(id)?.chain.take() {
                self.retire_chain(old);
            }
            return Ok(false);
        };
        let format = self.choose_format(surface)?;
        let mode = self.present_mode(surface, vsync)?;
        if !caps
            .supported_usage_flags
            .contains(vk::ImageUsageFlags::TRANSFER_DST)
        {
            return Err(MemoryError::Unsupported(
                "swapchain images cannot be transfer destinations".into(),
            ));
        }
        let count = image_count(drawables, caps.min_image_count, caps.max_image_count);
        let alpha = [
            vk::CompositeAlphaFlagsKHR::OPAQUE,
            vk::CompositeAlphaFlagsKHR::INHERIT,
            vk::CompositeAlphaFlagsKHR::PRE_MULTIPLIED,
            vk::CompositeAlphaFlagsKHR::POST_MULTIPLIED,
        ]
        .into_iter()
        .find(|&a| caps.supported_composite_alpha.contains(a))
        .unwrap_or(vk::CompositeAlphaFlagsKHR::OPAQUE);
        let old = self.window(id)?.chain.take();
        let least = caps.min_image_count.max(1);
        let ladder = [
            (count, mode),
            (least, mode),
            (least, vk::PresentModeKHR::FIFO),
        ];
        let mut old_raw = old.as_ref().map_or(vk::SwapchainKHR::null(), |c| c.raw);
        let mut created = Err(vk::Result::ERROR_INITIALIZATION_FAILED);
        let mut requested = count;
        for (rung, &(count, mode)) in ladder.iter().enumerate() {
            requested = count;
            let info = vk::SwapchainCreateInfoKHR::default()
                .surface(surface)
                .min_image_count(count)
                .image_format(format.format)
                .image_color_space(format.color_space)
                .image_extent(extent)
                .image_array_layers(1)
                .image_usage(vk::ImageUsageFlags::TRANSFER_DST)
                .image_sharing_mode(vk::SharingMode::EXCLUSIVE)
                .pre_transform(caps.current_transform)
                .composite_alpha(alpha)
                .present_mode(mode)
                .clipped(true)
                .old_swapchain(old_raw);
            created = match inject() {
                Some(r) => Err(r),
                None => {
                    let fns = self.fns()?;
                    // SAFETY: the surface is alive and supported by our queue family (checked at
                    // window creation); the old swapchain, if any, belongs to it and is retired by
                    // this call whatever its result (it is queued for destruction below).
                    unsafe { fns.swapchain.create_swapchain(&info, None) }
                }
            };
            // The old chain is retired by the first call, even a failed one: never pass it
            // again.
            old_raw = vk::SwapchainKHR::null();
            let Err(r) = created else {
                break;
            };
            match classify(Call::CreateSwapchain, r) {
                Outcome::OutOfMemory(_) if rung + 1 < ladder.len() => {
                    tracing::warn!(rung, count, ?mode, %r, "swapchain creation failed; trying with less");
                }
                _ => break,
            }
        }
        if let Some(old) = old {
            self.retire_chain(old);
        }
        let raw = created.map_err(|r| match classify(Call::CreateSwapchain, r) {
            Outcome::DeviceLost => MemoryError::DeviceLost,
            Outcome::OutOfMemory(e) => e,
            _ => map_present("vkCreateSwapchainKHR", r),
        })?;
        let fns = self.fns()?;
        // SAFETY: `raw` was just created on this device.
        let images = match unsafe { fns.swapchain.get_swapchain_images(raw) } {
            Ok(images) => images,
            Err(r) => {
                self.retired.push(completed, Retired::Swapchain(raw));
                return Err(map_present("vkGetSwapchainImagesKHR", r));
            }
        };
        self.chains_created += 1;
        let mut chain = Chain {
            raw,
            shown: vec![false; images.len()],
            images,
            requested,
            render_done: Vec::new(),
            format: format.format,
            extent,
            last_epoch: completed,
        };
        for _ in 0..chain.images.len() {
            match self.semaphore() {
                Ok(s) => chain.render_done.push(s),
                Err(e) => {
                    self.retire_chain(chain);
                    return Err(e);
                }
            }
        }
        // One acquire semaphore more than images: one can be pending acquisition while every
        // image is in use.
        let want = chain.images.len() + 1;
        let mut extra = Vec::new();
        let have = self.window(id)?.acquire.len();
        for _ in have..want {
            match self.semaphore() {
                Ok(s) => extra.push((s, Epoch::ZERO)),
                Err(e) => {
                    self.retire_chain(chain);
                    for (s, _) in extra {
                        self.retired.push(completed, Retired::Semaphore(s));
                    }
                    return Err(e);
                }
            }
        }
        tracing::debug!(
            ?extent,
            format = ?chain.format,
            requested,
            images = chain.images.len(),
            ?mode,
            "swapchain created"
        );
        let w = self.window(id)?;
        w.acquire.extend(extra);
        w.chain = Some(chain);
        w.stale = false;
        Ok(true)
    }
}

impl Drop for Presenter {
    fn drop(&mut self) {
        // The manager waited for every submitted epoch (or the device is gone) before dropping
        // the backend.
        for (_, w) in std::mem::take(&mut self.windows) {
            self.retire_window(w, Epoch::ZERO);
        }
        self.release(Horizon::All);
    }
}

impl MemoryManager {
    /// Whether this device can present to X11 windows.
    pub fn can_present_xlib(&self) -> bool {
        self.backend()
            .presenter
            .fns
            .as_ref()
            .is_some_and(|f| f.xlib.is_some())
    }

    /// Whether this device can present to Wayland surfaces.
    pub fn can_present_wayland(&self) -> bool {
        self.backend()
            .presenter
            .fns
            .as_ref()
            .is_some_and(|f| f.wayland.is_some())
    }

    /// Creates the surface of an X11 window and its swapchain (FIFO when `vsync`, else
    /// IMMEDIATE or MAILBOX when offered). Errors: `Unsupported` (no xlib presentation, or the
    /// queue cannot present to this window), `Vulkan` (the window is gone or taken).
    pub fn create_window(&mut self, window: XlibWindow, vsync: bool) -> Result<WindowId> {
        if self.is_lost() {
            return Err(MemoryError::DeviceLost);
        }
        let native = Native::Xlib(window);
        // SAFETY: the caller guarantees `display` is a live Xlib connection and `window` one of
        // its windows that outlives the window made here (EGL's rule for native handles).
        let surface = unsafe { self.backend().presenter.make_surface(native) }?;
        self.adopt_surface(surface, native, None, vsync)
    }

    /// Creates the surface of an X11 window of an XCB connection and its swapchain, presenting
    /// as [`Self::create_window`]. Errors: `Unsupported` (no XCB presentation, or the queue
    /// cannot present to this window), `Vulkan`.
    ///
    /// # Safety
    /// `window.connection` is a live `xcb_connection_t*` and `window.window` a window of its
    /// server, and both outlive the window (until [`Self::destroy_window`]).
    pub unsafe fn create_xcb_window(&mut self, window: XcbWindow, vsync: bool) -> Result<WindowId> {
        if self.is_lost() {
            return Err(MemoryError::DeviceLost);
        }
        let native = Native::Xcb(window);
        // SAFETY: the caller's contract: a live connection and window that outlive the window.
        let surface = unsafe { self.backend().presenter.make_surface(native) }?;
        self.adopt_surface(surface, native, None, vsync)
    }

    /// Creates the surface of a Wayland `wl_surface` and its swapchain at `extent` (the size the
    /// client gave its `wl_egl_window`; a Wayland surface has none of its own), presenting as
    /// [`Self::create_window`]. Errors: `Unsupported` (no Wayland presentation, or the queue
    /// cannot present to it), `Vulkan`.
    ///
    /// # Safety
    /// `window.display` is a live `wl_display*` and `window.surface` a live `wl_surface*` of that
    /// connection, and both outlive the window (until [`Self::destroy_window`]).
    pub unsafe fn create_wayland_window(
        &mut self,
        window: WaylandWindow,
        extent: vk::Extent2D,
        vsync: bool,
    ) -> Result<WindowId> {
        if self.is_lost() {
            return Err(MemoryError::DeviceLost);
        }
        let native = Native::Wayland(window);
        // SAFETY: the caller's contract: both pointers are live objects of one connection that
        // outlive the window.
        let surface = unsafe { self.backend().presenter.make_surface(native) }?;
        self.adopt_surface(surface, native, Some(extent), vsync)
    }

    /// Makes a window of a freshly created `surface` (checking that the queue can present to
    /// it) and builds its first swapchain; the surface is destroyed on failure.
    fn adopt_surface(
        &mut self,
        surface: vk::SurfaceKHR,
        native: Native,
        stated: Option<vk::Extent2D>,
        vsync: bool,
    ) -> Result<WindowId> {
        let completed = self.completed_epoch();
        let horizon = self.release_horizon();
        let p = &mut self.backend_mut().presenter;
        if let Err(e) = p.check_support(surface) {
            p.retired.push(completed, Retired::Surface(surface));
            p.release(horizon);
            return Err(e);
        }
        let id = WindowId(p.next_id);
        p.next_id += 1;
        p.windows
            .insert(id.0, Window::new(surface, native, stated, vsync));
        match self.rebuild_chain(id, completed) {
            Ok(built) => {
                if built {
                    self.note_chain(id, None);
                }
                Ok(id)
            }
            Err(e) => {
                if e == MemoryError::DeviceLost {
                    self.latch_lost();
                }
                let _ = self.destroy_window(id);
                Err(e)
            }
        }
    }

    /// States the size of a window whose surface leaves it to the swapchain (Wayland: the
    /// `wl_egl_window`'s size, read at each swap); the swapchain is recreated at that size at the
    /// next present if it differs. Ignored by surfaces that report their own size (X11).
    pub fn set_window_size(&mut self, id: WindowId, extent: vk::Extent2D) -> Result<()> {
        let w = self.backend_mut().presenter.window(id)?;
        if w.stated.is_some() && w.stated != Some(extent) {
            w.stated = Some(extent);
            w.stale = true;
        }
        Ok(())
    }

    /// The window's current size, as the surface reports it (0×0 when minimised). When it
    /// differs from the swapchain's, the swapchain is recreated at the next present (the window
    /// system may not report the resize as `OUT_OF_DATE` itself).
    pub fn window_extent(&mut self, id: WindowId) -> Result<vk::Extent2D> {
        let p = &mut self.backend_mut().presenter;
        let (surface, stated) = {
            let w = p.window(id)?;
            (w.surface, w.stated)
        };
        let extent = chosen_extent(&p.capabilities(surface)?, stated);
        let w = p.window(id)?;
        if w.chain.as_ref().is_some_and(|c| c.extent != extent) {
            w.stale = true;
        }
        Ok(extent)
    }

    /// `eglSwapInterval`: 0 presents without waiting for vertical blank where the surface
    /// allows it; the swapchain is recreated at the next present if that changes.
    pub fn set_window_vsync(&mut self, id: WindowId, vsync: bool) -> Result<()> {
        let w = self.backend_mut().presenter.window(id)?;
        if w.vsync != vsync {
            w.vsync = vsync;
            w.stale = true;
        }
        Ok(())
    }

    /// Forgets a window. Its swapchain, semaphores and surface are destroyed once the epochs
    /// that used them complete; this waits (bounded) for those epochs, so that they are gone
    /// before the caller closes the X connection they talk through (the usual order after
    /// `eglDestroySurface`). On a timeout they stay retired, destroyed once their epochs complete.
    pub fn destroy_window(&mut self, id: WindowId) -> Result<()> {
        let last = self.backend_mut().presenter.window(id)?.last_frame();
        if let Err(e) = self.wait_epoch(last) {
            tracing::warn!(error = %e, "destroying a window whose last frame did not finish");
        }
        let completed = self.completed_epoch();
        let horizon = self.release_horizon();
        let p = &mut self.backend_mut().presenter;
        let w = p.windows.remove(&id.0).ok_or(MemoryError::InvalidHandle)?;
        p.retire_window(w, completed);
        p.release(horizon);
        Ok(())
    }

    /// Ends the frame on a window: copies `image` (a colour image in GL orientation, row 0 at
    /// the bottom, usable as a blit source) into a swapchain image flipped vertically, scaling
    /// if the sizes differ, submits everything recorded as the next epoch and presents it.
    /// The frame is submitted even when it is not shown ([`Presented::Skipped`]).
    pub fn present(&mut self, id: WindowId, image: ImageHandle) -> Result<Presented> {
        if self.is_lost() {
            return Err(MemoryError::DeviceLost);
        }
        self.poll()?;
        let horizon = self.release_horizon();
        self.backend_mut().presenter.release(horizon);
        let Some((index, acquire)) = self.acquire(id)? else {
            self.submit()?;
            return Ok(Presented::Skipped);
        };
        let recorded = self.record_blit(id, image, index);
        let (chain_raw, render_done) = {
            let w = self.backend_mut().presenter.window(id)?;
            let chain = w
                .chain
                .as_ref()
                .ok_or(MemoryError::Internal("chain vanished"))?;
            (
                chain.raw,
                *chain
                    .render_done
                    .get(index as usize)
                    .ok_or(MemoryError::Internal("image index out of range"))?,
            )
        };
        if let Err(e) = recorded {
            self.abandon_acquire(id)?;
            return Err(e);
        }
        let wait = Some((acquire, vk::PipelineStageFlags::TRANSFER));
        let submitted = self.submit_with(|backend, epoch, shape| match shape {
            SubmitShape::Whole => backend
                .submitter
                .submit_with_semaphores(epoch, wait, Some(render_done))
                .map(|()| true),
            SubmitShape::Split => backend
                .submitter
                .submit_split(epoch, wait, Some(render_done)),
        });
        let epoch = match submitted {
            Ok(epoch) => epoch,
            Err(e) => {
                self.abandon_acquire(id)?;
                return Err(e);
            }
        };
        let p = &mut self.backend_mut().presenter;
        let w = p.window(id)?;
        if let Some(slot) = w.acquire.get_mut(w.next_acquire) {
            slot.1 = epoch;
        }
        w.next_acquire = (w.next_acquire + 1) % w.acquire.len().max(1);
        if let Some(chain) = w.chain.as_mut() {
            chain.last_epoch = epoch;
        }
        let queue = self.backend().submitter.queue();
        let fns = self.backend().presenter.fns()?;
        let waits = [render_done];
        let chains = [chain_raw];
        let indices = [index];
        let info = vk::PresentInfoKHR::default()
            .wait_semaphores(&waits)
            .swapchains(&chains)
            .image_indices(&indices);
        // SAFETY: the queue is used only by the manager's thread (under the manager's `&mut`);
        // the image was acquired from `chain_raw` and its blit was submitted to signal
        // `render_done`, which this present waits on.
        let mut result = unsafe { fns.swapchain.queue_present(queue, &info) };
        // An injected present result replaces the real one after the call, so the semaphore
        // wait and the image's release happened as they do when a real present reports it.
        if let Some(r) = self.inject(FaultSite::Present, 0) {
            result = if r == vk::Result::SUBOPTIMAL_KHR {
                Ok(true)
            } else {
                Err(r)
            };
        }
        let r = match result {
            Ok(false) => {
                self.note_chain(id, Some(index));
                return Ok(Presented::Shown);
            }
            Ok(true) => {
                self.note_chain(id, Some(index));
                vk::Result::SUBOPTIMAL_KHR
            }
            Err(r) => r,
        };
        if r != vk::Result::SUBOPTIMAL_KHR {
            self.log_failure(Call::Present, r);
        }
        match classify(Call::Present, r) {
            Outcome::Done => Ok(Presented::Shown),
            Outcome::Rebuild { succeeded } => {
                self.backend_mut().presenter.window(id)?.stale = true;
                Ok(if succeeded {
                    Presented::Shown
                } else {
                    Presented::Skipped
                })
            }
            Outcome::DeviceLost => {
                self.latch_lost();
                Err(MemoryError::DeviceLost)
            }
            // The frame is lost, not the program: rebuild the chain and carry on.
            Outcome::OutOfMemory(_) | Outcome::SkipFrame => {
                self.record_stat(Stat::OutOfMemory);
                self.backend_mut().presenter.window(id)?.stale = true;
                Ok(Presented::Skipped)
            }
            Outcome::Failed(e) => {
                self.backend_mut().presenter.window(id)?.stale = true;
                Err(e)
            }
        }
    }

    /// The drawable count a swapchain asks for: the frames the manager keeps in flight.
    fn drawables(&self) -> u32 {
        u32::try_from(self.config().frame_slots).unwrap_or(u32::MAX)
    }

    /// (Re)creates the window's chain ([`Presenter::rebuild`]), with the fault plan's
    /// `swapchain` check before each attempt.
    fn rebuild_chain(&mut self, id: WindowId, completed: Epoch) -> Result<bool> {
        let drawables = self.drawables();
        self.with_fault_check(FaultSite::Swapchain, |backend, inject| {
            backend.presenter.rebuild(id, completed, drawables, inject)
        })
    }

    /// Records in the statistics the window's chain, with image `shown` presented.
    fn note_chain(&mut self, id: WindowId, shown: Option<u32>) {
        let created = self.backend().presenter.chains_created;
        self.record_stat(Stat::SwapchainsCreated(created));
        let Ok(w) = self.backend_mut().presenter.window(id) else {
            return;
        };
        let Some(chain) = w.chain.as_mut() else {
            return;
        };
        if let Some(flag) = shown.and_then(|i| chain.shown.get_mut(i as usize)) {
            *flag = true;
        }
        let newest = Stat::NewestSwapchain {
            min_images: u64::from(chain.requested),
            images: chain.images.len() as u64,
            presented: chain.shown.iter().filter(|&&s| s).count() as u64,
        };
        self.record_stat(newest);
    }

    /// After an acquire whose frame could not be submitted: the acquired image will never be
    /// presented and the acquire semaphore stays signalled, so the chain is retired and the
    /// semaphore replaced (the old one is destroyed after everything recorded so far).
    fn abandon_acquire(&mut self, id: WindowId) -> Result<()> {
        let recording = self.recording_epoch();
        let p = &mut self.backend_mut().presenter;
        let fresh = p.semaphore()?;
        let w = p.window(id)?;
        w.stale = true;
        let slot = w.next_acquire;
        let Some(entry) = w.acquire.get_mut(slot) else {
            return Err(MemoryError::Internal("no acquire semaphore"));
        };
        let old = std::mem::replace(entry, (fresh, Epoch::ZERO)).0;
        p.retired.push(recording, Retired::Semaphore(old));
        Ok(())
    }

    /// Acquires the next image of the window's chain (rebuilding a stale or out-of-date chain,
    /// once); `None` when nothing can be shown this frame.
    fn acquire(&mut self, id: WindowId) -> Result<Option<(u32, vk::Semaphore)>> {
        for attempt in 0..2 {
            let completed = self.completed_epoch();
            let needs_rebuild = {
                let w = self.backend_mut().presenter.window(id)?;
                w.stale || w.chain.is_none()
            };
            if needs_rebuild {
                match self.rebuild_chain(id, completed) {
                    Ok(true) => self.note_chain(id, None),
                    // No area (minimised): nothing to show this frame.
                    Ok(false) => return Ok(None),
                    Err(MemoryError::DeviceLost) => {
                        self.latch_lost();
                        return Err(MemoryError::DeviceLost);
                    }
                    // Even the least swapchain cannot be made now: skip the frame, try again
                    // at the next one (the window stays stale).
                    Err(e) if e.is_out_of_memory() => {
                        self.record_stat(Stat::OutOfMemory);
                        return Ok(None);
                    }
                    Err(e) => return Err(e),
                }
            }
            let (slot_epoch, semaphore, chain) = {
                let w = self.backend_mut().presenter.window(id)?;
                let (s, e) = *w
                    .acquire
                    .get(w.next_acquire)
                    .ok_or(MemoryError::Internal("no acquire semaphore"))?;
                let chain = w.chain.as_ref().ok_or(MemoryError::Internal("no chain"))?;
                (e, s, chain.raw)
            };
            // The semaphore's previous wait must have executed before it is signalled again.
            self.wait_epoch(slot_epoch)?;
            let timeout = u64::try_from(ACQUIRE_TIMEOUT.as_nanos()).unwrap_or(u64::MAX);
            // An injected failure replaces the call (the semaphore stays untouched, as after a
            // real failure); an injected SUBOPTIMAL is a success that also marks the chain.
            let injected = self.inject(FaultSite::Acquire, 0);
            let result = match injected {
                Some(r) if r != vk::Result::SUBOPTIMAL_KHR => Err(r),
                _ => {
                    let fns = self.backend().presenter.fns()?;
                    // SAFETY: `chain` belongs to this device; `semaphore` is unsignalled with no
                    // pending operation (its last wait completed above, and a failed acquire
                    // leaves it alone).
                    unsafe {
                        fns.swapchain.acquire_next_image(
                            chain,
                            timeout,
                            semaphore,
                            vk::Fence::null(),
                        )
                    }
                    .map(|(index, suboptimal)| (index, suboptimal || injected.is_some()))
                }
            };
            let r = match result {
                Ok((index, suboptimal)) => {
                    if suboptimal {
                        self.backend_mut().presenter.window(id)?.stale = true;
                    }
                    return Ok(Some((index, semaphore)));
                }
                Err(r) => r,
            };
            self.log_failure(Call::Acquire, r);
            match classify(Call::Acquire, r) {
                Outcome::Rebuild { .. } if attempt == 0 => {
                    self.backend_mut().presenter.window(id)?.stale = true;
                }
                // Out of date twice: the window is changing under us; show nothing this time.
                Outcome::Rebuild { .. } | Outcome::Done => return Ok(None),
                // The presentation engine holds every image: drain what completed and skip the
                // frame; the chain is fine, so it is not rebuilt.
                Outcome::SkipFrame => {
                    self.drain()?;
                    return Ok(None);
                }
                Outcome::DeviceLost => {
                    self.latch_lost();
                    return Err(MemoryError::DeviceLost);
                }
                // Skip the frame rather than abort; release what completed for the next one.
                Outcome::OutOfMemory(_) => {
                    self.record_stat(Stat::OutOfMemory);
                    self.drain()?;
                    return Ok(None);
                }
                Outcome::Failed(e) => {
                    self.backend_mut().presenter.window(id)?.stale = true;
                    return Err(e);
                }
            }
        }
        Ok(None)
    }

    /// Records the flipped blit of `image` into swapchain image `index` with its barriers.
    fn record_blit(&mut self, id: WindowId, image: ImageHandle, index: u32) -> Result<()> {
        let info = self.image_info(image)?;
        let (sw, sh) = (info.desc.extent.width, info.desc.extent.height);
        let src = self.transition_image(
            image,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            (
                vk::PipelineStageFlags::TRANSFER,
                vk::AccessFlags::TRANSFER_READ,
            ),
        )?;
        let (dst, extent) = {
            let w = self.backend_mut().presenter.window(id)?;
            let chain = w.chain.as_ref().ok_or(MemoryError::Internal("no chain"))?;
            let dst = *chain
                .images
                .get(index as usize)
                .ok_or(MemoryError::Internal("image index out of range"))?;
            (dst, chain.extent)
        };
        let cb = self.recording_command_buffer()?;
        let color = vk::ImageSubresourceRange {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            base_mip_level: 0,
            level_count: 1,
            base_array_layer: 0,
            layer_count: 1,
        };
        // The previous contents are discarded; the acquire semaphore's wait (at TRANSFER) is
        // the first scope this barrier chains with.
        let to_dst = vk::ImageMemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::empty())
            .dst_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .old_layout(vk::ImageLayout::UNDEFINED)
            .new_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(dst)
            .subresource_range(color);
        // The present waits on the render-finished semaphore, which the submission signals
        // after all its commands: no destination stage or access is needed.
        let to_present = vk::ImageMemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::empty())
            .old_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
            .new_layout(vk::ImageLayout::PRESENT_SRC_KHR)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(dst)
            .subresource_range(color);
        let layers = vk::ImageSubresourceLayers {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            mip_level: 0,
            base_array_layer: 0,
            layer_count: 1,
        };
        let corner = |x: u32, y: u32| vk::Offset3D {
            x: i32::try_from(x).unwrap_or(i32::MAX),
            y: i32::try_from(y).unwrap_or(i32::MAX),
            z: 0,
        };
        let far = |o: vk::Offset3D| vk::Offset3D { z: 1, ..o };
        // GL's row 0 is the bottom: read rows [0, sh) and write them to [h, 0), reversed.
        let blit = vk::ImageBlit {
            src_subresource: layers,
            src_offsets: [corner(0, 0), far(corner(sw, sh))],
            dst_subresource: layers,
            dst_offsets: [corner(0, extent.height), far(corner(extent.width, 0))],
        };
        let filter = if (sw, sh) == (extent.width, extent.height) {
            vk::Filter::NEAREST
        } else {
            // RGBA8 UNORM supports linear filtering on every device (a required format).
            vk::Filter::LINEAR
        };
        // SAFETY: recording command buffer outside any render pass; `src` is live, stamped for
        // this epoch and in TRANSFER_SRC_OPTIMAL (transitioned above); `dst` is the acquired
        // swapchain image, whose use this submission's wait on the acquire semaphore orders.
        unsafe {
            let dev = self.device();
            dev.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[to_dst],
            );
            dev.cmd_blit_image(
                cb,
                src,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                dst,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &[blit],
                filter,
            );
            dev.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::BOTTOM_OF_PIPE,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[to_present],
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_image_count_is_the_drawable_count_within_the_surface_limits() {
        // The manager's two frames in flight where the surface allows two (MoltenVK, most
        // Android drivers).
        assert_eq!(image_count(2, 2, 8), 2);
        assert_eq!(image_count(2, 1, 0), 2);
        // A surface needing more gets its minimum (Mesa's X11 WSI asks for 3).
        assert_eq!(image_count(2, 3, 0), 3);
        assert_eq!(image_count(2, 4, 4), 4);
        // More frames in flight than the surface can hold: its maximum.
        assert_eq!(image_count(5, 2, 3), 3);
        assert_eq!(image_count(5, 2, 0), 5);
        // Never fewer than two, even from a config of one slot.
        assert_eq!(image_count(1, 1, 0), 2);
        assert_eq!(image_count(0, 0, 0), 2);
    }

    #[test]
    fn no_swapchain_extent_for_a_window_without_area() {
        let e = |width, height| vk::Extent2D { width, height };
        assert_eq!(drawable_extent(e(64, 48)), Some(e(64, 48)));
        assert_eq!(drawable_extent(e(1, 1)), Some(e(1, 1)));
        // Minimised: no area in one dimension or both.
        assert_eq!(drawable_extent(e(0, 0)), None);
        assert_eq!(drawable_extent(e(0, 48)), None);
        assert_eq!(drawable_extent(e(64, 0)), None);
        // "The swapchain decides" (an Xlib window that could not be queried).
        assert_eq!(drawable_extent(e(u32::MAX, u32::MAX)), None);
        assert_eq!(drawable_extent(e(u32::MAX, 48)), None);
    }

    #[test]
    fn a_surface_without_a_size_takes_the_stated_one_within_its_limits() {
        let e = |width, height| vk::Extent2D { width, height };
        let caps = |current| vk::SurfaceCapabilitiesKHR {
            current_extent: current,
            min_image_extent: e(1, 1),
            max_image_extent: e(4096, 4096),
            ..Default::default()
        };
        // X11: the surface's own size wins over anything stated.
        assert_eq!(chosen_extent(&caps(e(64, 48)), None), e(64, 48));
        assert_eq!(chosen_extent(&caps(e(64, 48)), Some(e(10, 10))), e(64, 48));
        // Wayland: the stated size, clamped; none stated is no area.
        let any = e(u32::MAX, u32::MAX);
        assert_eq!(chosen_extent(&caps(any), Some(e(80, 20))), e(80, 20));
        assert_eq!(chosen_extent(&caps(any), Some(e(9000, 20))), e(4096, 20));
        assert_eq!(chosen_extent(&caps(any), Some(e(0, 20))), e(0, 20));
        assert_eq!(chosen_extent(&caps(any), None), e(0, 0));
    }
}
