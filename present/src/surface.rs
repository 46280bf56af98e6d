//! Surfaces: `eglCreatePbufferSurface`, `eglCreateWindowSurface` (a placeholder that records the
//! native window until the swapchain exists), `eglQuerySurface`, `eglSwapInterval`,
//! `eglSwapBuffers`, `eglDestroySurface`.
//!
//! Nothing here owns pixels yet: the later step backs each surface with images from the memory
//! manager. Bind-to-texture pbuffers are not offered (every config has
//! `EGL_BIND_TO_TEXTURE_RGB[A]` false), so texture attributes other than `EGL_NO_TEXTURE` fail as
//! the spec says. A surface destroyed while current lives until released, like a context.

use std::num::NonZeroU64;
use std::thread::ThreadId;

use crate::attrib::{self, boolean};
use crate::config::{MAX_PBUFFER_SIZE, MAX_SWAP_INTERVAL, MIN_SWAP_INTERVAL};
use crate::display::config_desc;
use crate::egl::*;
use crate::error::{EglError, EglResult};
use crate::handle::{Config, Display, Surface};
use crate::instance::{Egl, Registry};

/// A native window handle (an X11 `Window` for now), kept opaque until the swapchain uses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NativeWindow(pub NonZeroU64);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SurfaceKind {
    Pbuffer { largest: bool },
    Window(NativeWindow),
}

pub(crate) struct SurfaceState {
    pub(crate) display: usize,
    pub(crate) config: Config,
    pub(crate) kind: SurfaceKind,
    /// Zero for a window until the swapchain reports the drawable's size.
    pub(crate) width: EGLint,
    pub(crate) height: EGLint,
    pub(crate) colorspace: EGLint,
    /// `EGL_PRESENT_OPAQUE_EXT`: recorded and reported; presenting is opaque either way (the
    /// swapchain asks for `VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR` first).
    pub(crate) present_opaque: bool,
    pub(crate) swap_interval: EGLint,
    pub(crate) bound_thread: Option<ThreadId>,
    pub(crate) pending_destroy: bool,
}

/// `EGL_BAD_MATCH` unless `config` on `display` supports surfaces of type `bit`.
fn check_surface_type(
    reg: &Registry,
    display: usize,
    config: Config,
    bit: EGLint,
) -> EglResult<()> {
    let desc = config_desc(config)?;
    let env = reg.config_env(display);
    if desc.attrib_in(&env, EGL_SURFACE_TYPE).unwrap_or(0) & bit == 0 {
        return Err(EglError::BAD_MATCH);
    }
    Ok(())
}

/// EGL_KHR_gl_colorspace: sRGB surfaces exist for the configs with 8-bit colour channels (the
/// surface stores RGBA8 and draws through an sRGB view); any other config is `EGL_BAD_MATCH`.
fn check_colorspace(config: Config, colorspace: EGLint) -> EglResult<()> {
    if colorspace == EGL_GL_COLORSPACE_SRGB && config_desc(config)?.red != 8 {
        return Err(EglError::BAD_MATCH);
    }
    Ok(())
}

/// Attributes shared by window and pbuffer surfaces; `true` if consumed.
fn common_attrib(key: EGLint, value: EGLint, colorspace: &mut EGLint) -> EglResult<bool> {
    match key {
        EGL_GL_COLORSPACE => match value {
            EGL_GL_COLORSPACE_LINEAR | EGL_GL_COLORSPACE_SRGB => *colorspace = value,
            _ => return Err(EglError::BAD_ATTRIBUTE),
        },
        // OpenVG attributes are valid but mean nothing to GL.
        EGL_VG_COLORSPACE if matches!(value, EGL_VG_COLORSPACE_SRGB | EGL_VG_COLORSPACE_LINEAR) => {
        }
        EGL_VG_ALPHA_FORMAT
            if matches!(value, EGL_VG_ALPHA_FORMAT_NONPRE | EGL_VG_ALPHA_FORMAT_PRE) => {}
        _ => return Ok(false),
    }
    Ok(true)
}

impl Egl {
    /// `eglCreatePbufferSurface`.
    pub fn create_pbuffer_surface(
        &self,
        dpy: Display,
        config: Config,
        attribs: &[EGLint],
    ) -> EglResult<Surface> {
        let result = (|| {
            let mut reg = self.lock();
            let display = reg.initialized(dpy)?;
            check_surface_type(&reg, display, config, EGL_PBUFFER_BIT)?;
            let (mut width, mut height, mut largest) = (0, 0, false);
            let (mut tex_format, mut tex_target) = (EGL_NO_TEXTURE, EGL_NO_TEXTURE);
            let mut colorspace = EGL_GL_COLORSPACE_LINEAR;
            for (key, value) in attrib::pairs(attribs)? {
                match key {
                    EGL_WIDTH => width = value,
                    EGL_HEIGHT => height = value,
                    EGL_LARGEST_PBUFFER => largest = boolean(value)?,
                    // No config can bind to a texture: RGB/RGBA formats are bad attributes.
                    EGL_TEXTURE_FORMAT => match value {
                        EGL_NO_TEXTURE => tex_format = value,
                        _ => return Err(EglError::BAD_ATTRIBUTE),
                    },
                    EGL_TEXTURE_TARGET => match value {
                        EGL_NO_TEXTURE | EGL_TEXTURE_2D => tex_target = value,
                        _ => return Err(EglError::BAD_ATTRIBUTE),
                    },
                    EGL_MIPMAP_TEXTURE => {
                        boolean(value)?;
                    }
                    _ if common_attrib(key, value, &mut colorspace)? => {}
                    _ => return Err(EglError::BAD_ATTRIBUTE),
                }
            }
            if width < 0 || height < 0 {
                return Err(EglError::BAD_PARAMETER);
            }
            if (tex_format == EGL_NO_TEXTURE) != (tex_target == EGL_NO_TEXTURE) {
                return Err(EglError::BAD_MATCH);
            }
            check_colorspace(config, colorspace)?;
            if width > MAX_PBUFFER_SIZE || height > MAX_PBUFFER_SIZE {
                if !largest {
                    return Err(EglError::BAD_ALLOC);
                }
                width = width.min(MAX_PBUFFER_SIZE);
                height = height.min(MAX_PBUFFER_SIZE);
            }
            let present_opaque = false;
            let state = SurfaceState {
                display,
                config,
                kind: SurfaceKind::Pbuffer { largest },
                width,
                height,
                colorspace,
                present_opaque,
                swap_interval: 1,
                bound_thread: None,
                pending_destroy: false,
            };
            reg.surfaces.insert(state).map(Surface)
        })();
        self.record(result)
    }

    /// `eglCreateWindowSurface`: records the window; `window` `None` is a null handle
    /// (`EGL_BAD_NATIVE_WINDOW`). One surface per window (`EGL_BAD_ALLOC` for a second).
    pub fn create_window_surface(
        &self,
        dpy: Display,
        config: Config,
        window: Option<NativeWindow>,
        attribs: &[EGLint],
    ) -> EglResult<Surface> {
        let result = (|| {
            let mut reg = self.lock();
            let display = reg.initialized(dpy)?;
            check_surface_type(&reg, display, config, EGL_WINDOW_BIT)?;
            let window = window.ok_or(EglError::BAD_NATIVE_WINDOW)?;
            let mut colorspace = EGL_GL_COLORSPACE_LINEAR;
            let mut present_opaque = false;
            for (key, value) in attrib::pairs(attribs)? {
                match key {
                    // A hint; ArenaGL always renders to the back buffer and reports that.
                    EGL_RENDER_BUFFER if matches!(value, EGL_BACK_BUFFER | EGL_SINGLE_BUFFER) => {}
                    EGL_PRESENT_OPAQUE_EXT => present_opaque = boolean(value)?,
                    _ if common_attrib(key, value, &mut colorspace)? => {}
                    _ => return Err(EglError::BAD_ATTRIBUTE),
                }
            }
            check_colorspace(config, colorspace)?;
            let taken = reg.surfaces.handles().into_iter().any(|h| {
                reg.surfaces
                    .get(h)
                    .is_some_and(|s| !s.pending_destroy && s.kind == SurfaceKind::Window(window))
            });
            if taken {
                return Err(EglError::BAD_ALLOC);
            }
            let state = SurfaceState {
                display,
                config,
                kind: SurfaceKind::Window(window),
                width: 0,
                height: 0,
                colorspace,
                present_opaque,
                swap_interval: 1,
                bound_thread: None,
                pending_destroy: false,
            };
            reg.surfaces.insert(state).map(Surface)
        })();
        self.record(result)
    }

    /// `eglDestroySurface`: freed now, or when it stops being current.
    pub fn destroy_surface(&self, dpy: Display, surface: Surface) -> EglResult<()> {
        let result = (|| {
            let mut reg = self.lock();
            let display = reg.initialized(dpy)?;
            reg.live_surface(display, surface)?;
            if let Some(state) = reg.surfaces.get_mut(surface.0) {
                state.pending_destroy = true;
            }
            reg.free_surface_if_unused(surface.0);
            Ok(())
        })();
        self.record(result)
    }

    /// `eglQuerySurface`. `Ok(None)` is the spec's "value is not modified" (`EGL_LARGEST_PBUFFER`
    /// and the texture attributes of a window surface).
    pub fn query_surface(
        &self,
        dpy: Display,
        surface: Surface,
        attribute: EGLint,
    ) -> EglResult<Option<EGLint>> {
        let binding = self.with_thread(|t| t.binding);
        let result = (|| {
            let reg = self.lock();
            let display = reg.initialized(dpy)?;
            let s = reg.live_surface(display, surface)?;
            let pbuffer = matches!(s.kind, SurfaceKind::Pbuffer { .. });
            Ok(Some(match attribute {
                EGL_CONFIG_ID => config_desc(s.config)?.id,
                EGL_WIDTH => s.width,
                EGL_HEIGHT => s.height,
                EGL_LARGEST_PBUFFER => match s.kind {
                    SurfaceKind::Pbuffer { largest } => EGLint::from(largest),
                    SurfaceKind::Window(_) => return Ok(None),
                },
                EGL_TEXTURE_FORMAT | EGL_TEXTURE_TARGET if pbuffer => EGL_NO_TEXTURE,
                EGL_MIPMAP_TEXTURE | EGL_MIPMAP_LEVEL if pbuffer => 0,
                EGL_TEXTURE_FORMAT | EGL_TEXTURE_TARGET | EGL_MIPMAP_TEXTURE | EGL_MIPMAP_LEVEL => {
                    return Ok(None)
                }
                EGL_RENDER_BUFFER => EGL_BACK_BUFFER,
                EGL_SWAP_BEHAVIOR => EGL_BUFFER_DESTROYED,
                EGL_MULTISAMPLE_RESOLVE => EGL_MULTISAMPLE_RESOLVE_DEFAULT,
                EGL_HORIZONTAL_RESOLUTION | EGL_VERTICAL_RESOLUTION | EGL_PIXEL_ASPECT_RATIO => {
                    EGL_UNKNOWN
                }
                EGL_GL_COLORSPACE => s.colorspace,
                EGL_PRESENT_OPAQUE_EXT => EGLint::from(s.present_opaque),
                // EGL_EXT_buffer_age: only for the calling thread's current draw surface. 0
                // ("contents undefined") is always a correct age; ArenaGL reports it because
                // its surfaces promise `EGL_BUFFER_DESTROYED` (see docs/window-systems.md).
                EGL_BUFFER_AGE_EXT => {
                    if binding.is_none_or(|b| b.display != dpy || b.draw != Some(surface)) {
                        return Err(EglError::BAD_SURFACE);
                    }
                    0
                }
                EGL_VG_COLORSPACE => EGL_VG_COLORSPACE_SRGB,
                EGL_VG_ALPHA_FORMAT => EGL_VG_ALPHA_FORMAT_NONPRE,
                _ => return Err(EglError::BAD_ATTRIBUTE),
            }))
        })();
        self.record(result)
    }

    /// `eglSwapInterval`: sets the interval of the calling thread's current draw surface, clamped
    /// to the config's `EGL_MIN/MAX_SWAP_INTERVAL`.
    pub fn swap_interval(&self, dpy: Display, interval: EGLint) -> EglResult<()> {
        let binding = self.with_thread(|t| t.binding);
        let result = (|| {
            let mut reg = self.lock();
            reg.initialized(dpy)?;
            let binding = binding.ok_or(EglError::BAD_CONTEXT)?;
            let draw = binding.draw.ok_or(EglError::BAD_SURFACE)?;
            let state = reg.surfaces.get_mut(draw.0).ok_or(EglError::BAD_SURFACE)?;
            state.swap_interval = interval.clamp(MIN_SWAP_INTERVAL, MAX_SWAP_INTERVAL);
            Ok(())
        })();
        self.record(result)
    }

    /// The swap interval a surface will present with (for the swapchain).
    pub fn surface_swap_interval(&self, dpy: Display, surface: Surface) -> EglResult<EGLint> {
        let result = (|| {
            let reg = self.lock();
            let display = reg.initialized(dpy)?;
            Ok(reg.live_surface(display, surface)?.swap_interval)
        })();
        self.record(result)
    }

    /// The native window of a window surface (`None` for a pbuffer).
    pub fn surface_native_window(
        &self,
        dpy: Display,
        surface: Surface,
    ) -> EglResult<Option<NativeWindow>> {
        let result = (|| {
            let reg = self.lock();
            let display = reg.initialized(dpy)?;
            Ok(match reg.live_surface(display, surface)?.kind {
                SurfaceKind::Window(w) => Some(w),
                SurfaceKind::Pbuffer { .. } => None,
            })
        })();
        self.record(result)
    }

    /// Records the size of a window surface's drawable, as its swapchain found it (at creation,
    /// and when a swap finds the window resized). Not an EGL entry point: records no error.
    pub fn set_window_size(&self, surface: Surface, width: EGLint, height: EGLint) {
        let mut reg = self.lock();
        if let Some(s) = reg.surfaces.get_mut(surface.0) {
            if matches!(s.kind, SurfaceKind::Window(_)) {
                s.width = width;
                s.height = height;
            }
        }
    }

    /// `eglSwapBuffers`: validates that `surface` is the calling thread's current draw surface and
    /// that its context is not lost. Presenting is the swapchain's job (a later step); for a
    /// pbuffer swapping has no effect.
    pub fn swap_buffers(&self, dpy: Display, surface: Surface) -> EglResult<()> {
        let binding = self.with_thread(|t| t.binding);
        let result = (|| {
            let reg = self.lock();
            let display = reg.initialized(dpy)?;
            reg.live_surface(display, surface)?;
            let binding = binding
                .filter(|b| b.draw == Some(surface))
                .ok_or(EglError::BAD_SURFACE)?;
            if reg.contexts.get(binding.context.0).is_none_or(|c| c.lost) {
                return Err(EglError::CONTEXT_LOST);
            }
            Ok(())
        })();
        self.record(result)
    }
}
