//! GLXFBConfigs: the EGL configs of the display's EGL display, seen through GLX's attribute names
//! (`glXGetFBConfigAttrib`, `glXGetConfig`), and GLX's own selection and sorting rules
//! (`glXChooseFBConfig`, `glXChooseVisual`: GLX 1.4 §3.3.3, Table 3.4), which differ from EGL's
//! (GLX prefers the deeper depth buffer).
//!
//! Every config is double-buffered RGBA with no accumulation, aux or stereo buffers; the X visual
//! is the one the EGL model tied the config to (`EGL_NATIVE_VISUAL_ID`).

use std::cmp::Reverse;
use std::ffi::c_int;

use arenagl_present::egl::*;
use arenagl_present::{Config, Display};

use crate::abi::instance;

pub(super) const GLX_USE_GL: c_int = 1;
pub(super) const GLX_BUFFER_SIZE: c_int = 2;
pub(super) const GLX_LEVEL: c_int = 3;
pub(super) const GLX_RGBA: c_int = 4;
pub(super) const GLX_DOUBLEBUFFER: c_int = 5;
pub(super) const GLX_STEREO: c_int = 6;
pub(super) const GLX_AUX_BUFFERS: c_int = 7;
pub(super) const GLX_RED_SIZE: c_int = 8;
pub(super) const GLX_GREEN_SIZE: c_int = 9;
pub(super) const GLX_BLUE_SIZE: c_int = 10;
pub(super) const GLX_ALPHA_SIZE: c_int = 11;
pub(super) const GLX_DEPTH_SIZE: c_int = 12;
pub(super) const GLX_STENCIL_SIZE: c_int = 13;
pub(super) const GLX_ACCUM_RED_SIZE: c_int = 14;
pub(super) const GLX_ACCUM_ALPHA_SIZE: c_int = 17;
pub(super) const GLX_CONFIG_CAVEAT: c_int = 0x20;
pub(super) const GLX_X_VISUAL_TYPE: c_int = 0x22;
pub(super) const GLX_TRANSPARENT_TYPE: c_int = 0x23;
pub(super) const GLX_TRANSPARENT_INDEX_VALUE: c_int = 0x24;
pub(super) const GLX_TRANSPARENT_ALPHA_VALUE: c_int = 0x28;
pub(super) const GLX_NONE: c_int = 0x8000;
pub(super) const GLX_TRUE_COLOR: c_int = 0x8002;
pub(super) const GLX_DIRECT_COLOR: c_int = 0x8003;
pub(super) const GLX_VISUAL_ID: c_int = 0x800B;
pub(super) const GLX_SCREEN: c_int = 0x800C;
pub(super) const GLX_DRAWABLE_TYPE: c_int = 0x8010;
pub(super) const GLX_RENDER_TYPE: c_int = 0x8011;
pub(super) const GLX_X_RENDERABLE: c_int = 0x8012;
pub(super) const GLX_FBCONFIG_ID: c_int = 0x8013;
pub(super) const GLX_MAX_PBUFFER_WIDTH: c_int = 0x8016;
pub(super) const GLX_MAX_PBUFFER_HEIGHT: c_int = 0x8017;
pub(super) const GLX_MAX_PBUFFER_PIXELS: c_int = 0x8018;
pub(super) const GLX_SAMPLE_BUFFERS: c_int = 100_000;
pub(super) const GLX_SAMPLES: c_int = 100_001;
pub(super) const GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB: c_int = 0x20B2;
pub(super) const GLX_DONT_CARE: c_int = -1;
pub(super) const GLX_WINDOW_BIT: c_int = 0x1;
pub(super) const GLX_PBUFFER_BIT: c_int = 0x4;
pub(super) const GLX_RGBA_BIT: c_int = 0x1;

/// `glXGetConfig`/`glXGetFBConfigAttrib` return values.
pub(super) const GLX_BAD_ATTRIBUTE: c_int = 2;
pub(super) const GLX_BAD_VISUAL: c_int = 4;

/// A config of a GLX display: its EGL display and config.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct FbConfig {
    pub display: Display,
    pub config: Config,
    pub screen: c_int,
}

impl FbConfig {
    fn egl(&self, attr: EGLint) -> c_int {
        instance()
            .get_config_attrib(self.display, self.config, attr)
            .unwrap_or(0)
    }

    /// The X visual id of the config, 0 if it has none.
    pub(super) fn visual_id(&self) -> u32 {
        self.egl(EGL_NATIVE_VISUAL_ID) as u32
    }

    /// The value of GLX attribute `attr`, or `None` if it is not an FBConfig attribute.
    pub(super) fn attrib(&self, attr: c_int) -> Option<c_int> {
        Some(match attr {
            GLX_FBCONFIG_ID => self.egl(EGL_CONFIG_ID),
            GLX_USE_GL | GLX_RGBA | GLX_DOUBLEBUFFER => 1,
            GLX_BUFFER_SIZE => self.egl(EGL_BUFFER_SIZE),
            GLX_LEVEL | GLX_STEREO | GLX_AUX_BUFFERS => 0,
            GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB => {
                c_int::from(super::super::egl::srgb_capable(self.display, self.config))
            }
            GLX_RED_SIZE => self.egl(EGL_RED_SIZE),
            GLX_GREEN_SIZE => self.egl(EGL_GREEN_SIZE),
            GLX_BLUE_SIZE => self.egl(EGL_BLUE_SIZE),
            GLX_ALPHA_SIZE => self.egl(EGL_ALPHA_SIZE),
            GLX_DEPTH_SIZE => self.egl(EGL_DEPTH_SIZE),
            GLX_STENCIL_SIZE => self.egl(EGL_STENCIL_SIZE),
            GLX_ACCUM_RED_SIZE..=GLX_ACCUM_ALPHA_SIZE => 0,
            GLX_RENDER_TYPE => GLX_RGBA_BIT,
            GLX_DRAWABLE_TYPE => self.drawable_type(),
            GLX_X_RENDERABLE => self.egl(EGL_NATIVE_RENDERABLE),
            GLX_VISUAL_ID => self.egl(EGL_NATIVE_VISUAL_ID),
            GLX_X_VISUAL_TYPE => match self.egl(EGL_NATIVE_VISUAL_TYPE) {
                arenagl_present::X_TRUE_COLOR => GLX_TRUE_COLOR,
                arenagl_present::X_DIRECT_COLOR => GLX_DIRECT_COLOR,
                _ => GLX_NONE,
            },
            GLX_CONFIG_CAVEAT | GLX_TRANSPARENT_TYPE => GLX_NONE,
            GLX_TRANSPARENT_INDEX_VALUE..=GLX_TRANSPARENT_ALPHA_VALUE => 0,
            GLX_MAX_PBUFFER_WIDTH => self.egl(EGL_MAX_PBUFFER_WIDTH),
            GLX_MAX_PBUFFER_HEIGHT => self.egl(EGL_MAX_PBUFFER_HEIGHT),
            GLX_MAX_PBUFFER_PIXELS => self.egl(EGL_MAX_PBUFFER_PIXELS),
            GLX_SAMPLE_BUFFERS => self.egl(EGL_SAMPLE_BUFFERS),
            GLX_SAMPLES => self.egl(EGL_SAMPLES),
            GLX_SCREEN => self.screen,
            _ => return None,
        })
    }

    /// `GLX_DRAWABLE_TYPE` from `EGL_SURFACE_TYPE` (no pixmaps: see `docs/window-systems.md`).
    fn drawable_type(&self) -> c_int {
        let egl = self.egl(EGL_SURFACE_TYPE);
        let mut bits = 0;
        if egl & EGL_WINDOW_BIT != 0 {
            bits |= GLX_WINDOW_BIT;
        }
        if egl & EGL_PBUFFER_BIT != 0 {
            bits |= GLX_PBUFFER_BIT;
        }
        bits
    }
}

/// Every config of the display, in `GLX_FBCONFIG_ID` order.
pub(super) fn all(display: Display, screen: c_int) -> Vec<FbConfig> {
    instance()
        .get_configs(display)
        .unwrap_or_default()
        .into_iter()
        .map(|config| FbConfig {
            display,
            config,
            screen,
        })
        .collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rule {
    AtLeast,
    Exact,
    Mask,
}

/// Table 3.4: an attribute, its default, its rule.
const CRITERIA: &[(c_int, c_int, Rule)] = &[
    (GLX_FBCONFIG_ID, GLX_DONT_CARE, Rule::Exact),
    (GLX_BUFFER_SIZE, 0, Rule::AtLeast),
    (GLX_LEVEL, 0, Rule::Exact),
    (GLX_DOUBLEBUFFER, GLX_DONT_CARE, Rule::Exact),
    (GLX_STEREO, 0, Rule::Exact),
    (GLX_AUX_BUFFERS, 0, Rule::AtLeast),
    (GLX_RED_SIZE, 0, Rule::AtLeast),
    (GLX_GREEN_SIZE, 0, Rule::AtLeast),
    (GLX_BLUE_SIZE, 0, Rule::AtLeast),
    (GLX_ALPHA_SIZE, 0, Rule::AtLeast),
    (GLX_DEPTH_SIZE, 0, Rule::AtLeast),
    (GLX_STENCIL_SIZE, 0, Rule::AtLeast),
    (GLX_ACCUM_RED_SIZE, 0, Rule::AtLeast),
    (GLX_ACCUM_RED_SIZE + 1, 0, Rule::AtLeast),
    (GLX_ACCUM_RED_SIZE + 2, 0, Rule::AtLeast),
    (GLX_ACCUM_ALPHA_SIZE, 0, Rule::AtLeast),
    (GLX_RENDER_TYPE, GLX_RGBA_BIT, Rule::Mask),
    (GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT, Rule::Mask),
    (GLX_X_RENDERABLE, GLX_DONT_CARE, Rule::Exact),
    (GLX_X_VISUAL_TYPE, GLX_DONT_CARE, Rule::Exact),
    (GLX_CONFIG_CAVEAT, GLX_DONT_CARE, Rule::Exact),
    (GLX_TRANSPARENT_TYPE, GLX_NONE, Rule::Exact),
    (GLX_SAMPLE_BUFFERS, 0, Rule::AtLeast),
    (GLX_SAMPLES, 0, Rule::AtLeast),
    (GLX_FRAMEBUFFER_SRGB_CAPABLE_ARB, GLX_DONT_CARE, Rule::Exact),
];

/// Accepted in a list, never compared (Table 3.4's "ignored" rows).
const IGNORED: &[c_int] = &[
    GLX_MAX_PBUFFER_WIDTH,
    GLX_MAX_PBUFFER_HEIGHT,
    GLX_MAX_PBUFFER_PIXELS,
    GLX_VISUAL_ID,
    GLX_TRANSPARENT_INDEX_VALUE,
    GLX_TRANSPARENT_INDEX_VALUE + 1,
    GLX_TRANSPARENT_INDEX_VALUE + 2,
    GLX_TRANSPARENT_INDEX_VALUE + 3,
    GLX_TRANSPARENT_ALPHA_VALUE,
];

/// A parsed request: the value wanted for each of `CRITERIA`.
#[derive(Debug, Clone)]
pub(super) struct Request(Vec<c_int>);

impl Request {
    fn defaults() -> Self {
        Request(CRITERIA.iter().map(|c| c.1).collect())
    }

    fn set(&mut self, attr: c_int, value: c_int) -> Result<(), c_int> {
        if IGNORED.contains(&attr) {
            return Ok(());
        }
        let i = CRITERIA.iter().position(|c| c.0 == attr).ok_or(attr)?;
        self.0[i] = value;
        Ok(())
    }

    fn get(&self, attr: c_int) -> c_int {
        CRITERIA
            .iter()
            .position(|c| c.0 == attr)
            .map_or(GLX_DONT_CARE, |i| self.0[i])
    }

    /// A `glXChooseFBConfig` list: `key, value` pairs up to `None` (0). `Err(key)` for a key
    /// that is not an FBConfig attribute.
    pub(super) fn from_fbconfig_list(pairs: &[(c_int, c_int)]) -> Result<Self, c_int> {
        let mut r = Self::defaults();
        for &(k, v) in pairs {
            r.set(k, v)?;
        }
        Ok(r)
    }

    /// A `glXChooseVisual` list: `GLX_RGBA`, `GLX_DOUBLEBUFFER`, `GLX_STEREO` and `GLX_USE_GL`
    /// stand alone, the others take a value. `GLX_RGBA` is required (there are no colour-index
    /// visuals); `GLX_DOUBLEBUFFER` absent means "either", not "single" (deviation: every
    /// ArenaGL visual is double-buffered; see `docs/window-systems.md`). Only window-renderable
    /// configs with a visual qualify. `Err(key)` for an unknown key or no `GLX_RGBA`.
    pub(super) fn from_visual_list(words: &[c_int]) -> Result<Self, c_int> {
        let mut r = Self::defaults();
        let mut rgba = false;
        let mut i = 0;
        while let Some(&key) = words.get(i) {
            i += 1;
            match key {
                0 => break,
                GLX_RGBA => rgba = true,
                GLX_USE_GL => {}
                GLX_DOUBLEBUFFER => r.set(GLX_DOUBLEBUFFER, 1)?,
                GLX_STEREO => r.set(GLX_STEREO, 1)?,
                _ => {
                    let value = *words.get(i).ok_or(key)?;
                    i += 1;
                    r.set(key, value)?;
                }
            }
        }
        if !rgba {
            return Err(GLX_RGBA);
        }
        r.set(GLX_X_RENDERABLE, 1)?;
        r.set(GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT)?;
        Ok(r)
    }

    fn matches(&self, cfg: &FbConfig) -> bool {
        CRITERIA
            .iter()
            .zip(&self.0)
            .all(|(&(attr, _, rule), &want)| {
                if want == GLX_DONT_CARE {
                    return true;
                }
                let have = cfg.attrib(attr).unwrap_or(0);
                match rule {
                    Rule::AtLeast => have >= want,
                    Rule::Exact => have == want,
                    Rule::Mask => have & want == want,
                }
            })
    }

    /// The matching configs, best first (GLX 1.4 Table 3.4's sort priorities).
    pub(super) fn choose(&self, configs: &[FbConfig]) -> Vec<FbConfig> {
        let id = self.get(GLX_FBCONFIG_ID);
        if id != GLX_DONT_CARE {
            return configs
                .iter()
                .filter(|c| c.attrib(GLX_FBCONFIG_ID) == Some(id))
                .copied()
                .collect();
        }
        let counted: Vec<c_int> = [GLX_RED_SIZE, GLX_GREEN_SIZE, GLX_BLUE_SIZE, GLX_ALPHA_SIZE]
            .into_iter()
            .filter(|&a| !matches!(self.get(a), 0 | GLX_DONT_CARE))
            .collect();
        let mut out: Vec<FbConfig> = configs
            .iter()
            .filter(|c| self.matches(c))
            .copied()
            .collect();
        let a = |c: &FbConfig, attr| c.attrib(attr).unwrap_or(0);
        out.sort_by_key(|c| {
            (
                Reverse(counted.iter().map(|&k| a(c, k)).sum::<c_int>()),
                a(c, GLX_BUFFER_SIZE),
                a(c, GLX_SAMPLE_BUFFERS),
                a(c, GLX_SAMPLES),
                Reverse(a(c, GLX_DEPTH_SIZE)),
                a(c, GLX_STENCIL_SIZE),
                a(c, GLX_X_VISUAL_TYPE),
                a(c, GLX_FBCONFIG_ID),
            )
        });
        out
    }
}

/// The config a context made from visual `visual_id` gets when no `glXChooseVisual` /
/// `glXGetVisualFromFBConfig` named one: of the configs tied to that visual, the single-sampled
/// one with the deepest depth/stencil buffers (what legacy GLX programs expect of a visual).
pub(super) fn default_for_visual(configs: &[FbConfig], visual_id: u32) -> Option<FbConfig> {
    let a = |c: &FbConfig, attr| c.attrib(attr).unwrap_or(0);
    configs
        .iter()
        .filter(|c| visual_id != 0 && c.visual_id() == visual_id)
        .min_by_key(|c| {
            (
                a(c, GLX_SAMPLES),
                Reverse(a(c, GLX_DEPTH_SIZE)),
                Reverse(a(c, GLX_STENCIL_SIZE)),
                a(c, GLX_FBCONFIG_ID),
            )
        })
        .copied()
}
