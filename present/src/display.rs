//! Displays, platforms and the one device: `eglGetDisplay`, `eglGetPlatformDisplay`,
//! `eglQueryDevicesEXT`, `eglInitialize`, `eglTerminate`, `eglQueryString`, configs by display.
//!
//! There is one display per platform (default, surfaceless, device) and one per native X11
//! `Display*`, created on first request and returned again for the same request, as EGL requires.
//! The default and X11 displays are the windowed ones; an X11 display keeps its native pointer
//! (opaque here, never dereferenced) because the swapchain's `VkSurfaceKHR` needs it next to the
//! window. Surfaceless and device displays have pbuffers only, so their configs lack
//! `EGL_WINDOW_BIT`. `eglTerminate` frees every object of the display at once, except objects
//! current in some thread: they become invalid handles immediately but live until released.

use crate::attrib;
use crate::config::{
    self, ConfigDesc, ConfigEnv, NativeVisual, CONFIGS, X_DIRECT_COLOR, X_TRUE_COLOR,
};
use crate::egl::*;
use crate::error::{EglError, EglResult};
use crate::handle::{Config, Device, Display, Kind, RawHandle};
use crate::instance::{Egl, Registry};

pub const VENDOR: &str = "ArenaGL";
pub const VERSION: &str = "1.5 ArenaGL";
pub const CLIENT_APIS: &str = "OpenGL OpenGL_ES";
/// Display extensions. Each is tested through the C ABI in `tests/egl_extensions.rs`.
pub const EXTENSIONS: &str = "EGL_KHR_create_context EGL_KHR_no_config_context \
     EGL_KHR_surfaceless_context EGL_KHR_fence_sync EGL_KHR_wait_sync EGL_EXT_buffer_age \
     EGL_KHR_swap_buffers_with_damage EGL_EXT_swap_buffers_with_damage EGL_EXT_present_opaque \
     EGL_KHR_context_flush_control EGL_EXT_create_context_robustness EGL_KHR_gl_colorspace \
     EGL_KHR_create_context_no_error \
     EGL_KHR_image_base EGL_KHR_gl_texture_2D_image EGL_KHR_gl_texture_cubemap_image \
     EGL_KHR_gl_renderbuffer_image";
/// Client extensions (`eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS)`): platforms and devices are
/// client-side, per EGL_EXT_client_extensions.
pub const CLIENT_EXTENSIONS: &str = "EGL_EXT_client_extensions EGL_EXT_platform_base EGL_EXT_platform_device \
     EGL_KHR_platform_x11 EGL_EXT_platform_x11 EGL_EXT_platform_xcb EGL_KHR_platform_wayland EGL_EXT_platform_wayland EGL_MESA_platform_surfaceless EGL_EXT_device_base EGL_EXT_device_enumeration EGL_EXT_device_query";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Platform {
    Default = 0,
    Surfaceless = 1,
    Device = 2,
    /// An X11 `Display*`; its displays follow the three fixed ones in the registry.
    X11 = 3,
    /// A Wayland `wl_display*` (its displays are registered as the X11 ones are).
    Wayland = 4,
    /// An `xcb_connection_t*` and a screen of it (registered as the X11 ones are).
    Xcb = 5,
}

impl Platform {
    /// The platforms with one fixed display each, at the registry index of their value.
    pub(crate) const FIXED: [Platform; 3] =
        [Platform::Default, Platform::Surfaceless, Platform::Device];

    /// `EGL_SURFACE_TYPE` of every config on this platform.
    pub(crate) fn surface_type(self) -> EGLint {
        match self {
            Platform::Default | Platform::X11 | Platform::Wayland | Platform::Xcb => {
                EGL_PBUFFER_BIT | EGL_WINDOW_BIT
            }
            Platform::Surfaceless | Platform::Device => EGL_PBUFFER_BIT,
        }
    }
}

pub(crate) struct DisplayState {
    pub(crate) platform: Platform,
    /// The native display (an Xlib `Display*` for [`Platform::X11`], a `wl_display*` for
    /// [`Platform::Wayland`], an `xcb_connection_t*` for [`Platform::Xcb`], 0 otherwise).
    pub(crate) native: u64,
    /// The screen of an XCB display (`EGL_PLATFORM_XCB_SCREEN_EXT`), 0 otherwise.
    pub(crate) screen: i32,
    pub(crate) initialized: bool,
    /// The screen's visuals, once the C ABI has enumerated them (X11 and default displays with
    /// an X server); `None` before, and for displays without windows.
    pub(crate) visuals: Option<Vec<NativeVisual>>,
}

impl DisplayState {
    pub(crate) fn new(platform: Platform) -> Self {
        Self {
            platform,
            native: 0,
            screen: 0,
            initialized: false,
            visuals: None,
        }
    }
}

/// Bounds the registry: a program opening this many X11 (or Wayland) connections is misbehaving.
const MAX_X11_DISPLAYS: usize = 64;

fn display_handle(index: usize) -> Display {
    Display(RawHandle::new(Kind::Display, 1, index as u32))
}

/// The one `EGLDeviceEXT`: the Vulkan device the memory manager opens.
pub fn the_device() -> Device {
    Device(RawHandle::new(Kind::Device, 1, 0))
}

/// Rejects any attribute: the platforms ArenaGL offers take none.
fn no_attribs<T: attrib::AttribWord>(list: &[T]) -> EglResult<()> {
    match attrib::pairs(list)?.is_empty() {
        true => Ok(()),
        false => Err(EglError::BAD_ATTRIBUTE),
    }
}

/// The XCB platform's attributes: `EGL_PLATFORM_XCB_SCREEN_EXT` (a screen number, 0 by
/// default; the C ABI checks that the connection has it) and nothing else.
fn xcb_screen<T: attrib::AttribWord>(list: &[T]) -> EglResult<i32> {
    let mut screen = 0;
    for (key, value) in attrib::pairs(list)? {
        if key != EGL_PLATFORM_XCB_SCREEN_EXT || value < 0 {
            return Err(EglError::BAD_ATTRIBUTE);
        }
        screen = value;
    }
    Ok(screen)
}

/// The X11 platform's attributes: `EGL_PLATFORM_X11_SCREEN_KHR` (any screen: the surface's
/// window names its own) and nothing else.
fn x11_attribs<T: attrib::AttribWord>(list: &[T]) -> EglResult<()> {
    for (key, _) in attrib::pairs(list)? {
        if key != EGL_PLATFORM_X11_SCREEN_KHR {
            return Err(EglError::BAD_ATTRIBUTE);
        }
    }
    Ok(())
}

impl Egl {
    /// `eglGetDisplay`: `EGL_DEFAULT_DISPLAY` gives the default display; any other value is taken
    /// as an X11 `Display*` (the only native platform ArenaGL has), one EGL display per pointer.
    /// `None` (`EGL_NO_DISPLAY`, which sets no error) when too many are open.
    pub fn get_display(&self, native_display: usize) -> Option<Display> {
        if native_display == EGL_DEFAULT_DISPLAY {
            return Some(display_handle(Platform::Default as usize));
        }
        self.native_display(Platform::X11, native_display as u64, 0)
    }

    /// The display of a Wayland `wl_display*` (`eglGetDisplay` of a pointer the C ABI has
    /// recognised as one); `None` when too many are open.
    pub fn get_wayland_display(&self, native_display: usize) -> Option<Display> {
        self.native_display(Platform::Wayland, native_display as u64, 0)
    }

    /// The one display of `native` (and `screen`) on `platform`, registered on first request.
    fn native_display(&self, platform: Platform, native: u64, screen: i32) -> Option<Display> {
        let mut reg = self.lock();
        let found = reg
            .displays
            .iter()
            .position(|d| d.platform == platform && d.native == native && d.screen == screen);
        let index = match found {
            Some(i) => i,
            None if reg.displays.len() < Platform::FIXED.len() + MAX_X11_DISPLAYS => {
                reg.displays.push(DisplayState {
                    native,
                    screen,
                    ..DisplayState::new(platform)
                });
                reg.displays.len() - 1
            }
            None => return None,
        };
        Some(display_handle(index))
    }

    /// The native display behind `dpy`: the Xlib `Display*` of an X11 display, `None` for the
    /// others (the default display has no connection of its own).
    pub fn display_native(&self, dpy: Display) -> EglResult<Option<u64>> {
        let reg = self.lock();
        let i = reg.display_index(dpy)?;
        let d = &reg.displays[i];
        Ok((d.platform == Platform::X11).then_some(d.native))
    }

    /// The `xcb_connection_t*` and screen behind `dpy` when it is an XCB display, `None` for
    /// the others.
    pub fn display_xcb(&self, dpy: Display) -> EglResult<Option<(u64, i32)>> {
        let reg = self.lock();
        let i = reg.display_index(dpy)?;
        let d = &reg.displays[i];
        Ok((d.platform == Platform::Xcb).then_some((d.native, d.screen)))
    }

    /// The `wl_display*` behind `dpy` when it is a Wayland display, `None` for the others.
    pub fn display_wayland(&self, dpy: Display) -> EglResult<Option<u64>> {
        let reg = self.lock();
        let i = reg.display_index(dpy)?;
        let d = &reg.displays[i];
        Ok((d.platform == Platform::Wayland).then_some(d.native))
    }

    /// `eglGetPlatformDisplay` (and the EXT form, with `EGLint` attributes): the surfaceless
    /// platform takes `EGL_DEFAULT_DISPLAY`, the device platform the device's raw handle.
    pub fn get_platform_display<T: attrib::AttribWord>(
        &self,
        platform: EGLenum,
        native_display: u64,
        attribs: &[T],
    ) -> EglResult<Display> {
        let result = (|| {
            let platform = match platform {
                EGL_PLATFORM_SURFACELESS_MESA if native_display == EGL_DEFAULT_DISPLAY as u64 => {
                    Platform::Surfaceless
                }
                EGL_PLATFORM_DEVICE_EXT
                    if Device::from_raw(native_display) == Some(the_device()) =>
                {
                    Platform::Device
                }
                EGL_PLATFORM_X11_KHR => {
                    x11_attribs(attribs)?;
                    if native_display == EGL_DEFAULT_DISPLAY as u64 {
                        return Ok(display_handle(Platform::Default as usize));
                    }
                    return self
                        .native_display(Platform::X11, native_display, 0)
                        .ok_or(EglError::BAD_ALLOC);
                }
                // The C ABI has checked the connection and its screen (and connected for
                // EGL_DEFAULT_DISPLAY).
                EGL_PLATFORM_XCB_EXT if native_display != 0 => {
                    let screen = xcb_screen(attribs)?;
                    return self
                        .native_display(Platform::Xcb, native_display, screen)
                        .ok_or(EglError::BAD_ALLOC);
                }
                // The C ABI has checked that the pointer is a `wl_display*` (or connected one
                // for `EGL_DEFAULT_DISPLAY`); EGL_KHR_platform_wayland defines no attributes.
                EGL_PLATFORM_WAYLAND_KHR if native_display != 0 => {
                    no_attribs(attribs)?;
                    return self
                        .native_display(Platform::Wayland, native_display, 0)
                        .ok_or(EglError::BAD_ALLOC);
                }
                _ => return Err(EglError::BAD_PARAMETER),
            };
            no_attribs(attribs)?;
            Ok(display_handle(platform as usize))
        })();
        self.record(result)
    }

    /// `eglQueryDevicesEXT`: the devices, at most `max` of them (`EGL_BAD_PARAMETER` for 0).
    pub fn query_devices(&self, max: usize) -> EglResult<Vec<Device>> {
        let result = if max == 0 {
            Err(EglError::BAD_PARAMETER)
        } else {
            Ok(vec![the_device()])
        };
        self.record(result)
    }

    /// `eglQueryDisplayAttribEXT(dpy, EGL_DEVICE_EXT)`: the device behind an initialized display.
    pub fn query_display_device(&self, dpy: Display, attribute: EGLint) -> EglResult<Device> {
        let result = (|| {
            self.lock().initialized(dpy)?;
            match attribute {
                EGL_DEVICE_EXT => Ok(the_device()),
                _ => Err(EglError::BAD_ATTRIBUTE),
            }
        })();
        self.record(result)
    }

    /// `eglInitialize`: the EGL version, (1, 5). Initializing twice is allowed.
    pub fn initialize(&self, dpy: Display) -> EglResult<(EGLint, EGLint)> {
        let result = (|| {
            let mut reg = self.lock();
            let i = reg.display_index(dpy)?;
            reg.displays[i].initialized = true;
            Ok((1, 5))
        })();
        self.record(result)
    }

    /// `eglTerminate`: frees the display's objects now, or when they stop being current.
    pub fn terminate(&self, dpy: Display) -> EglResult<()> {
        let result = (|| {
            let mut reg = self.lock();
            let i = reg.display_index(dpy)?;
            terminate_objects(&mut reg, i);
            reg.displays[i].initialized = false;
            Ok(())
        })();
        self.record(result)
    }

    /// `eglQueryString`; `None` for the display is `EGL_NO_DISPLAY` (client extensions, version).
    pub fn query_string(&self, dpy: Option<Display>, name: EGLint) -> EglResult<&'static str> {
        let result = (|| {
            let Some(dpy) = dpy else {
                return match name {
                    EGL_EXTENSIONS => Ok(CLIENT_EXTENSIONS),
                    EGL_VERSION => Ok(VERSION),
                    _ => Err(EglError::BAD_DISPLAY),
                };
            };
            self.lock().initialized(dpy)?;
            match name {
                EGL_VENDOR => Ok(VENDOR),
                EGL_VERSION => Ok(VERSION),
                EGL_CLIENT_APIS => Ok(CLIENT_APIS),
                EGL_EXTENSIONS => Ok(EXTENSIONS),
                _ => Err(EglError::BAD_PARAMETER),
            }
        })();
        self.record(result)
    }

    /// `eglGetConfigs`: every config, in `EGL_CONFIG_ID` order.
    pub fn get_configs(&self, dpy: Display) -> EglResult<Vec<Config>> {
        let result = self
            .lock()
            .initialized(dpy)
            .map(|_| CONFIGS.iter().map(config_handle).collect());
        self.record(result)
    }

    /// `eglChooseConfig`: the matching configs, best first (EGL 1.5 §3.4.1).
    pub fn choose_config(&self, dpy: Display, attribs: &[EGLint]) -> EglResult<Vec<Config>> {
        let result = (|| {
            let reg = self.lock();
            let i = reg.initialized(dpy)?;
            Ok(config::choose(&reg.config_env(i), attribs)?
                .into_iter()
                .map(config_handle)
                .collect())
        })();
        self.record(result)
    }

    /// `eglGetConfigAttrib`.
    pub fn get_config_attrib(
        &self,
        dpy: Display,
        config: Config,
        attribute: EGLint,
    ) -> EglResult<EGLint> {
        let result = (|| {
            let reg = self.lock();
            let i = reg.initialized(dpy)?;
            let desc = config_desc(config)?;
            desc.attrib_in(&reg.config_env(i), attribute)
                .ok_or(EglError::BAD_ATTRIBUTE)
        })();
        self.record(result)
    }

    /// Gives a windowed display the visuals of its X screen (the C ABI enumerates them with
    /// Xlib at `eglInitialize`; this crate links no X library). From then on every config
    /// reports its visual (`EGL_NATIVE_VISUAL_ID/TYPE`, `EGL_NATIVE_RENDERABLE`) and a config
    /// without one loses `EGL_WINDOW_BIT`. Ignored for pbuffer-only platforms. Not an EGL entry
    /// point: records no error.
    pub fn set_native_visuals(&self, dpy: Display, visuals: Vec<NativeVisual>) -> EglResult<()> {
        let mut reg = self.lock();
        let i = reg.display_index(dpy)?;
        let d = &mut reg.displays[i];
        if d.platform.surface_type() & EGL_WINDOW_BIT != 0 {
            d.visuals = Some(visuals);
        }
        Ok(())
    }

    /// Whether the display already has its visual table.
    pub fn has_native_visuals(&self, dpy: Display) -> bool {
        let reg = self.lock();
        reg.display_index(dpy)
            .is_ok_and(|i| reg.displays[i].visuals.is_some())
    }

    /// The visual `config` renders windows of on `dpy` (`None`: no visual table, or none
    /// matches). Records no error (for GLX, which reports its own).
    pub fn config_native_visual(
        &self,
        dpy: Display,
        config: Config,
    ) -> EglResult<Option<NativeVisual>> {
        let desc = config_desc(config)?;
        let reg = self.lock();
        let i = reg.display_index(dpy)?;
        Ok(reg.displays[i]
            .visuals
            .as_deref()
            .and_then(|v| desc.native_visual(v)))
    }

    /// `EGL_BAD_MATCH` unless a window of visual `window` can show `config`'s colour buffer:
    /// a TrueColor or DirectColor visual of a depth with the config's channel layout (see
    /// `ConfigDesc::window_depth_matches`). Called by `eglCreateWindowSurface` with the visual
    /// the X server reports for the window; records its outcome.
    pub fn check_window_visual(
        &self,
        dpy: Display,
        config: Config,
        window: NativeVisual,
    ) -> EglResult<()> {
        let result = (|| {
            self.lock().initialized(dpy)?;
            let desc = config_desc(config)?;
            let class_ok = window.class == X_TRUE_COLOR || window.class == X_DIRECT_COLOR;
            if !class_ok || !desc.window_depth_matches(window.depth) {
                return Err(EglError::BAD_MATCH);
            }
            Ok(())
        })();
        self.record(result)
    }
}

impl Registry {
    /// What display `i` adds to the config table (its surface types and visuals).
    pub(crate) fn config_env(&self, i: usize) -> ConfigEnv<'_> {
        let d = &self.displays[i];
        ConfigEnv {
            surface_type: d.platform.surface_type(),
            visuals: d.visuals.as_deref(),
        }
    }
}

fn terminate_objects(reg: &mut Registry, display: usize) {
    for h in reg.syncs.handles() {
        if reg.syncs.get(h).is_some_and(|s| s.display == display) {
            reg.syncs.remove(h);
        }
    }
    for h in reg.contexts.handles() {
        if let Some(ctx) = reg.contexts.get_mut(h).filter(|c| c.display == display) {
            ctx.pending_destroy = true;
            reg.free_context_if_unused(h);
        }
    }
    for h in reg.surfaces.handles() {
        if let Some(s) = reg.surfaces.get_mut(h).filter(|s| s.display == display) {
            s.pending_destroy = true;
            reg.free_surface_if_unused(h);
        }
    }
}

pub(crate) fn config_handle(desc: &ConfigDesc) -> Config {
    Config(RawHandle::new(Kind::Config, 1, desc.id as u32))
}

/// The config a handle names, or `EGL_BAD_CONFIG`.
pub(crate) fn config_desc(config: Config) -> EglResult<&'static ConfigDesc> {
    if config.0.generation() != 1 {
        return Err(EglError::BAD_CONFIG);
    }
    EGLint::try_from(config.0.index())
        .ok()
        .and_then(config::by_id)
        .ok_or(EglError::BAD_CONFIG)
}
