//! The fixed config table, `eglGetConfigAttrib` and the `eglChooseConfig` matching and sorting
//! rules of EGL 1.5 §3.4.1 (Table 3.4).
//!
//! The table is a property of ArenaGL, not of a Vulkan device: every format in it is one any
//! Vulkan implementation can render (the memory manager picks the concrete depth format later), so
//! configs need no device to enumerate. Which surface types a config offers depends on the display
//! platform: surfaceless and device displays have no windows.
//!
//! On an X11 display each config is tied to one of the screen's visuals (the C ABI enumerates
//! them with Xlib and hands them over as [`NativeVisual`] data; this crate links no X library):
//! see [`ConfigDesc::native_visual`] for the rule. A config with no matching visual on such a
//! display offers no `EGL_WINDOW_BIT`.
//!
//! One deliberate deviation: the spec's default for `EGL_RENDERABLE_TYPE` in `eglChooseConfig` is
//! `EGL_OPENGL_ES_BIT` (OpenGL ES 1.x), which no ArenaGL config supports; with it, the common empty
//! attribute list would match nothing. The default here is 0 (no requirement), as the lists of
//! desktop-GL programs expect.

use std::cmp::Reverse;

use crate::attrib::{self, AttribWord};
use crate::egl::*;
use crate::error::{EglError, EglResult};

/// Largest pbuffer side; the memory manager's image limit will replace this constant.
pub const MAX_PBUFFER_SIZE: EGLint = 16384;
/// The swap interval range every config offers (0 = immediate/mailbox, 1 = FIFO).
pub const MIN_SWAP_INTERVAL: EGLint = 0;
pub const MAX_SWAP_INTERVAL: EGLint = 1;
/// The client APIs every config can render and conforms to.
pub const RENDERABLE: EGLint = EGL_OPENGL_BIT | EGL_OPENGL_ES2_BIT | EGL_OPENGL_ES3_BIT;

/// X11 visual classes (`<X11/X.h>`), the values of `EGL_NATIVE_VISUAL_TYPE`.
pub const X_TRUE_COLOR: EGLint = 4;
pub const X_DIRECT_COLOR: EGLint = 5;

/// One X11 visual of a screen, as the C ABI found it (`XGetVisualInfo`): only TrueColor and
/// DirectColor visuals with the usual 8-bit (depth 24/32) or 5-6-5 (depth 16) channel masks are
/// passed in, the screen's default visual first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NativeVisual {
    /// The `VisualID`.
    pub id: u32,
    pub depth: u32,
    /// `X_TRUE_COLOR` or `X_DIRECT_COLOR`.
    pub class: EGLint,
}

/// What a display adds to the config table: its platform's surface types, and for an X11
/// display with a known screen the visuals configs are tied to (`None`: no visual table, so
/// configs report no native visual and keep the platform's surface types, as before visuals).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ConfigEnv<'a> {
    pub(crate) surface_type: EGLint,
    pub(crate) visuals: Option<&'a [NativeVisual]>,
}

impl ConfigEnv<'_> {
    /// A display without a visual table.
    #[cfg(test)]
    pub(crate) fn plain(surface_type: EGLint) -> Self {
        ConfigEnv {
            surface_type,
            visuals: None,
        }
    }
}

/// The first visual of `depth` in the table's order (the default visual leads), TrueColor
/// before DirectColor.
fn visual_of_depth(visuals: &[NativeVisual], depth: u32) -> Option<NativeVisual> {
    let of = |class| {
        visuals
            .iter()
            .find(|v| v.depth == depth && v.class == class)
            .copied()
    };
    of(X_TRUE_COLOR).or_else(|| of(X_DIRECT_COLOR))
}

/// One row of the table; everything else is the same for every config.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ConfigDesc {
    pub(crate) id: EGLint,
    pub(crate) red: EGLint,
    pub(crate) green: EGLint,
    pub(crate) blue: EGLint,
    pub(crate) alpha: EGLint,
    pub(crate) depth: EGLint,
    pub(crate) stencil: EGLint,
    pub(crate) samples: EGLint,
}

const fn row(
    id: EGLint,
    rgba: [EGLint; 4],
    depth: EGLint,
    stencil: EGLint,
    samples: EGLint,
) -> ConfigDesc {
    ConfigDesc {
        id,
        red: rgba[0],
        green: rgba[1],
        blue: rgba[2],
        alpha: rgba[3],
        depth,
        stencil,
        samples,
    }
}

const RGBA8: [EGLint; 4] = [8, 8, 8, 8];
const RGBX8: [EGLint; 4] = [8, 8, 8, 0];
const RGB565: [EGLint; 4] = [5, 6, 5, 0];

/// The table, in `EGL_CONFIG_ID` order (ids are 1-based and dense).
/// Rows 11 and 12 (depth without stencil) came last so earlier ids keep their meaning; GLX
/// programs that ask for no stencil (glmark2's default) need them.
pub(crate) const CONFIGS: [ConfigDesc; 12] = [
    row(1, RGBA8, 24, 8, 0),
    row(2, RGBA8, 0, 0, 0),
    row(3, RGBA8, 24, 8, 4),
    row(4, RGBA8, 0, 0, 4),
    row(5, RGBX8, 24, 8, 0),
    row(6, RGBX8, 0, 0, 0),
    row(7, RGBX8, 24, 8, 4),
    row(8, RGB565, 24, 8, 0),
    row(9, RGB565, 16, 0, 0),
    row(10, RGB565, 0, 0, 0),
    row(11, RGBA8, 24, 0, 0),
    row(12, RGBX8, 24, 0, 0),
];

pub(crate) fn by_id(id: EGLint) -> Option<&'static ConfigDesc> {
    CONFIGS.iter().find(|c| c.id == id)
}

impl ConfigDesc {
    /// `EGL_BUFFER_SIZE`: the colour bits, alpha included (RGBX8 stores 24 bits of colour).
    fn buffer_size(&self) -> EGLint {
        self.red + self.green + self.blue + self.alpha
    }

    /// Whether a context of this config can render to a surface of `other` (EGL 1.5 §2.2: same
    /// colour buffer and ancillary buffer layout).
    pub(crate) fn compatible_with(&self, other: &ConfigDesc) -> bool {
        ConfigDesc { id: 0, ..*self } == ConfigDesc { id: 0, ..*other }
    }

    /// The X11 visual this config renders windows of (EGL 1.5 §3.4: `EGL_NATIVE_VISUAL_ID`):
    /// 8-bit configs the depth-24 visual — RGBA8 ones too, as Mesa's do: their window shows
    /// the colour and the alpha channel is not composited (a depth-32 ARGB window presented
    /// through lavapipe's X11 swapchain stayed black under Xvfb, where glmark2-es2 picked one),
    /// with the depth-32 visual only on a screen that has no depth-24 one; RGB565 configs a
    /// depth-16 visual, which a depth-24 screen usually lacks (those configs are then
    /// pbuffer-only).
    pub(crate) fn native_visual(&self, visuals: &[NativeVisual]) -> Option<NativeVisual> {
        let depths: &[u32] = match (self.red, self.alpha) {
            (5, _) => &[16],
            (_, 0) => &[24],
            _ => &[24, 32],
        };
        depths.iter().find_map(|&d| visual_of_depth(visuals, d))
    }

    /// The window depths whose visuals have this config's colour layout: 8-bit channels go to
    /// depth 24 and 32 windows (the alpha channel is dropped or left opaque), 5-6-5 to depth 16.
    pub(crate) fn window_depth_matches(&self, depth: u32) -> bool {
        match self.red {
            5 => depth == 16,
            _ => depth == 24 || depth == 32,
        }
    }

    /// `eglGetConfigAttrib` on a display: [`Self::attrib`] with the display's native visual
    /// facts (`EGL_NATIVE_*`, and no `EGL_WINDOW_BIT` without a visual).
    pub(crate) fn attrib_in(&self, env: &ConfigEnv<'_>, attr: EGLint) -> Option<EGLint> {
        let Some(visuals) = env.visuals else {
            return self.attrib(env.surface_type, attr);
        };
        let visual = self.native_visual(visuals);
        Some(match attr {
            EGL_NATIVE_RENDERABLE => EGLint::from(visual.is_some()),
            EGL_NATIVE_VISUAL_ID => visual.map_or(0, |v| v.id as EGLint),
            EGL_NATIVE_VISUAL_TYPE => visual.map_or(EGL_NONE, |v| v.class),
            EGL_SURFACE_TYPE if visual.is_none() => env.surface_type & !EGL_WINDOW_BIT,
            _ => return self.attrib(env.surface_type, attr),
        })
    }

    /// `eglGetConfigAttrib`; `None` for an attribute that is not a config attribute.
    pub(crate) fn attrib(&self, surface_type: EGLint, attr: EGLint) -> Option<EGLint> {
        Some(match attr {
            EGL_BUFFER_SIZE => self.buffer_size(),
            EGL_RED_SIZE => self.red,
            EGL_GREEN_SIZE => self.green,
            EGL_BLUE_SIZE => self.blue,
            EGL_ALPHA_SIZE => self.alpha,
            EGL_LUMINANCE_SIZE | EGL_ALPHA_MASK_SIZE => 0,
            EGL_DEPTH_SIZE => self.depth,
            EGL_STENCIL_SIZE => self.stencil,
            EGL_SAMPLES => self.samples,
            EGL_SAMPLE_BUFFERS => EGLint::from(self.samples > 0),
            EGL_CONFIG_ID => self.id,
            EGL_CONFIG_CAVEAT => EGL_NONE,
            EGL_COLOR_BUFFER_TYPE => EGL_RGB_BUFFER,
            EGL_LEVEL => 0,
            EGL_MAX_PBUFFER_WIDTH | EGL_MAX_PBUFFER_HEIGHT => MAX_PBUFFER_SIZE,
            EGL_MAX_PBUFFER_PIXELS => MAX_PBUFFER_SIZE * MAX_PBUFFER_SIZE,
            EGL_NATIVE_RENDERABLE => EGL_FALSE,
            EGL_NATIVE_VISUAL_ID => 0,
            EGL_NATIVE_VISUAL_TYPE => EGL_NONE,
            EGL_SURFACE_TYPE => surface_type,
            EGL_RENDERABLE_TYPE | EGL_CONFORMANT => RENDERABLE,
            EGL_TRANSPARENT_TYPE => EGL_NONE,
            EGL_TRANSPARENT_RED_VALUE
            | EGL_TRANSPARENT_GREEN_VALUE
            | EGL_TRANSPARENT_BLUE_VALUE => 0,
            EGL_BIND_TO_TEXTURE_RGB | EGL_BIND_TO_TEXTURE_RGBA => EGL_FALSE,
            EGL_MIN_SWAP_INTERVAL => MIN_SWAP_INTERVAL,
            EGL_MAX_SWAP_INTERVAL => MAX_SWAP_INTERVAL,
            _ => return None,
        })
    }
}

/// How `eglChooseConfig` compares a requested value with a config's (Table 3.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rule {
    AtLeast,
    Exact,
    Mask,
    /// Accepted in the list but never compared (the MAX_PBUFFER_* and NATIVE_VISUAL_ID rows).
    Ignored,
    /// `EGL_MATCH_NATIVE_PIXMAP`: only `EGL_NONE` can match, ArenaGL has no pixmaps.
    NativePixmap,
}

/// Which values an attribute accepts in a `eglChooseConfig` list.
#[derive(Debug, Clone, Copy)]
enum Domain {
    /// A size: non-negative.
    Size,
    Bool,
    Enum(&'static [EGLint]),
    /// A bitmask within these bits.
    Bits(EGLint),
    /// Any integer.
    Any,
}

struct Criterion {
    attr: EGLint,
    default: EGLint,
    rule: Rule,
    domain: Domain,
    /// `EGL_DONT_CARE` is allowed for every attribute but `EGL_LEVEL`.
    dont_care_ok: bool,
}

const fn c(attr: EGLint, default: EGLint, rule: Rule, domain: Domain) -> Criterion {
    Criterion {
        attr,
        default,
        rule,
        domain,
        dont_care_ok: true,
    }
}

const SURFACE_BITS: EGLint = EGL_PBUFFER_BIT
    | EGL_PIXMAP_BIT
    | EGL_WINDOW_BIT
    | EGL_VG_COLORSPACE_LINEAR_BIT
    | EGL_VG_ALPHA_FORMAT_PRE_BIT
    | EGL_MULTISAMPLE_RESOLVE_BOX_BIT
    | EGL_SWAP_BEHAVIOR_PRESERVED_BIT;
const API_BITS: EGLint =
    EGL_OPENGL_ES_BIT | EGL_OPENVG_BIT | EGL_OPENGL_ES2_BIT | EGL_OPENGL_BIT | EGL_OPENGL_ES3_BIT;

/// Table 3.4: defaults, selection rules and accepted values.
const CRITERIA: &[Criterion] = &[
    c(EGL_BUFFER_SIZE, 0, Rule::AtLeast, Domain::Size),
    c(EGL_RED_SIZE, 0, Rule::AtLeast, Domain::Size),
    c(EGL_GREEN_SIZE, 0, Rule::AtLeast, Domain::Size),
    c(EGL_BLUE_SIZE, 0, Rule::AtLeast, Domain::Size),
    c(EGL_LUMINANCE_SIZE, 0, Rule::AtLeast, Domain::Size),
    c(EGL_ALPHA_SIZE, 0, Rule::AtLeast, Domain::Size),
    c(EGL_ALPHA_MASK_SIZE, 0, Rule::AtLeast, Domain::Size),
    c(
        EGL_BIND_TO_TEXTURE_RGB,
        EGL_DONT_CARE,
        Rule::Exact,
        Domain::Bool,
    ),
    c(
        EGL_BIND_TO_TEXTURE_RGBA,
        EGL_DONT_CARE,
        Rule::Exact,
        Domain::Bool,
    ),
    c(
        EGL_COLOR_BUFFER_TYPE,
        EGL_RGB_BUFFER,
        Rule::Exact,
        Domain::Enum(&[EGL_RGB_BUFFER, EGL_LUMINANCE_BUFFER]),
    ),
    c(
        EGL_CONFIG_CAVEAT,
        EGL_DONT_CARE,
        Rule::Exact,
        Domain::Enum(&[EGL_NONE, EGL_SLOW_CONFIG, EGL_NON_CONFORMANT_CONFIG]),
    ),
    c(EGL_CONFIG_ID, EGL_DONT_CARE, Rule::Exact, Domain::Any),
    c(EGL_CONFORMANT, 0, Rule::Mask, Domain::Bits(API_BITS)),
    c(EGL_DEPTH_SIZE, 0, Rule::AtLeast, Domain::Size),
    Criterion {
        attr: EGL_LEVEL,
        default: 0,
        rule: Rule::Exact,
        domain: Domain::Any,
        dont_care_ok: false,
    },
    c(
        EGL_MATCH_NATIVE_PIXMAP,
        EGL_NONE,
        Rule::NativePixmap,
        Domain::Any,
    ),
    c(EGL_MAX_PBUFFER_WIDTH, 0, Rule::Ignored, Domain::Any),
    c(EGL_MAX_PBUFFER_HEIGHT, 0, Rule::Ignored, Domain::Any),
    c(EGL_MAX_PBUFFER_PIXELS, 0, Rule::Ignored, Domain::Any),
    c(
        EGL_MAX_SWAP_INTERVAL,
        EGL_DONT_CARE,
        Rule::Exact,
        Domain::Any,
    ),
    c(
        EGL_MIN_SWAP_INTERVAL,
        EGL_DONT_CARE,
        Rule::Exact,
        Domain::Any,
    ),
    c(
        EGL_NATIVE_RENDERABLE,
        EGL_DONT_CARE,
        Rule::Exact,
        Domain::Bool,
    ),
    c(EGL_NATIVE_VISUAL_ID, 0, Rule::Ignored, Domain::Any),
    c(
        EGL_NATIVE_VISUAL_TYPE,
        EGL_DONT_CARE,
        Rule::Exact,
        Domain::Any,
    ),
    // Deviation from the spec's EGL_OPENGL_ES_BIT default: see the module comment.
    c(EGL_RENDERABLE_TYPE, 0, Rule::Mask, Domain::Bits(API_BITS)),
    c(EGL_SAMPLE_BUFFERS, 0, Rule::AtLeast, Domain::Size),
    c(EGL_SAMPLES, 0, Rule::AtLeast, Domain::Size),
    c(EGL_STENCIL_SIZE, 0, Rule::AtLeast, Domain::Size),
    c(
        EGL_SURFACE_TYPE,
        EGL_WINDOW_BIT,
        Rule::Mask,
        Domain::Bits(SURFACE_BITS),
    ),
    c(
        EGL_TRANSPARENT_TYPE,
        EGL_NONE,
        Rule::Exact,
        Domain::Enum(&[EGL_NONE, EGL_TRANSPARENT_RGB]),
    ),
    c(
        EGL_TRANSPARENT_RED_VALUE,
        EGL_DONT_CARE,
        Rule::Exact,
        Domain::Any,
    ),
    c(
        EGL_TRANSPARENT_GREEN_VALUE,
        EGL_DONT_CARE,
        Rule::Exact,
        Domain::Any,
    ),
    c(
        EGL_TRANSPARENT_BLUE_VALUE,
        EGL_DONT_CARE,
        Rule::Exact,
        Domain::Any,
    ),
];

fn valid(crit: &Criterion, value: EGLint) -> bool {
    if value == EGL_DONT_CARE {
        return crit.dont_care_ok;
    }
    match crit.domain {
        Domain::Size => value >= 0,
        Domain::Bool => value == EGL_TRUE || value == EGL_FALSE,
        Domain::Enum(values) => values.contains(&value),
        Domain::Bits(bits) => value & !bits == 0,
        Domain::Any => true,
    }
}

/// `eglChooseConfig` over the table for a display described by `env`: the matching configs,
/// best first.
pub(crate) fn choose<T: AttribWord>(
    env: &ConfigEnv<'_>,
    list: &[T],
) -> EglResult<Vec<&'static ConfigDesc>> {
    let mut requested: Vec<EGLint> = CRITERIA.iter().map(|c| c.default).collect();
    for (key, value) in attrib::pairs(list)? {
        let i = CRITERIA
            .iter()
            .position(|c| c.attr == key)
            .ok_or(EglError::BAD_ATTRIBUTE)?;
        if !valid(&CRITERIA[i], value) {
            return Err(EglError::BAD_ATTRIBUTE);
        }
        requested[i] = value;
    }
    let get = |attr: EGLint| {
        CRITERIA
            .iter()
            .position(|c| c.attr == attr)
            .map_or(EGL_DONT_CARE, |i| requested[i])
    };

    // §3.4.1: a given EGL_CONFIG_ID overrides every other attribute.
    let config_id = get(EGL_CONFIG_ID);
    if config_id != EGL_DONT_CARE {
        return Ok(by_id(config_id).into_iter().collect());
    }
    if get(EGL_MATCH_NATIVE_PIXMAP) != EGL_NONE {
        return Err(EglError::BAD_NATIVE_PIXMAP);
    }
    let transparent_rgb = get(EGL_TRANSPARENT_TYPE) == EGL_TRANSPARENT_RGB;

    let matches = |cfg: &ConfigDesc| {
        CRITERIA.iter().zip(&requested).all(|(crit, &want)| {
            if want == EGL_DONT_CARE {
                return true;
            }
            let is_transparent_value = matches!(
                crit.attr,
                EGL_TRANSPARENT_RED_VALUE
                    | EGL_TRANSPARENT_GREEN_VALUE
                    | EGL_TRANSPARENT_BLUE_VALUE
            );
            if is_transparent_value && !transparent_rgb {
                return true;
            }
            let Some(have) = cfg.attrib_in(env, crit.attr) else {
                return crit.rule == Rule::Ignored || crit.rule == Rule::NativePixmap;
            };
            match crit.rule {
                Rule::AtLeast => have >= want,
                Rule::Exact => have == want,
                Rule::Mask => have & want == want,
                Rule::Ignored | Rule::NativePixmap => true,
            }
        })
    };

    // The "Special" colour-bit rule: count only the components requested non-zero.
    let counted: Vec<EGLint> = [
        EGL_RED_SIZE,
        EGL_GREEN_SIZE,
        EGL_BLUE_SIZE,
        EGL_ALPHA_SIZE,
        EGL_LUMINANCE_SIZE,
    ]
    .into_iter()
    .filter(|&a| {
        let v = get(a);
        v != 0 && v != EGL_DONT_CARE
    })
    .collect();
    let color_bits = |cfg: &ConfigDesc| {
        counted
            .iter()
            .map(|&a| cfg.attrib_in(env, a).unwrap_or(0))
            .sum::<EGLint>()
    };
    let caveat_rank = |v: EGLint| match v {
        EGL_NONE => 0,
        EGL_SLOW_CONFIG => 1,
        _ => 2,
    };
    let attr = |cfg: &ConfigDesc, a: EGLint| cfg.attrib_in(env, a).unwrap_or(0);

    let mut out: Vec<&'static ConfigDesc> = CONFIGS.iter().filter(|c| matches(c)).collect();
    out.sort_by_key(|cfg| {
        (
            caveat_rank(attr(cfg, EGL_CONFIG_CAVEAT)),
            EGLint::from(attr(cfg, EGL_COLOR_BUFFER_TYPE) != EGL_RGB_BUFFER),
            Reverse(color_bits(cfg)),
            attr(cfg, EGL_BUFFER_SIZE),
            attr(cfg, EGL_SAMPLE_BUFFERS),
            attr(cfg, EGL_SAMPLES),
            attr(cfg, EGL_DEPTH_SIZE),
            attr(cfg, EGL_STENCIL_SIZE),
            attr(cfg, EGL_ALPHA_MASK_SIZE),
            attr(cfg, EGL_NATIVE_VISUAL_TYPE),
            cfg.id,
        )
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const WINDOWED: EGLint = EGL_WINDOW_BIT | EGL_PBUFFER_BIT;

    fn ids(list: &[EGLint]) -> EglResult<Vec<EGLint>> {
        choose(&ConfigEnv::plain(WINDOWED), list).map(|v| v.iter().map(|c| c.id).collect())
    }

    #[test]
    fn table_ids_are_dense_and_one_based() {
        for (i, cfg) in CONFIGS.iter().enumerate() {
            assert_eq!(cfg.id as usize, i + 1);
        }
    }

    #[test]
    fn empty_list_sorts_by_buffer_size_then_samples_then_depth() {
        // No colour requested: colour bits do not count; smaller buffers first, then no-MSAA
        // before MSAA, then smaller depth; ties by id.
        assert_eq!(
            ids(&[EGL_NONE]).unwrap(),
            vec![10, 9, 8, 6, 12, 5, 7, 2, 11, 1, 4, 3]
        );
    }

    #[test]
    fn requesting_colour_puts_the_deepest_colour_first() {
        // RED_SIZE 1: total requested colour bits (red only) descending, then buffer size.
        let got = ids(&[EGL_RED_SIZE, 1, EGL_NONE]).unwrap();
        assert_eq!(&got[..7], &[6, 12, 5, 7, 2, 11, 1]);
        // ALPHA_SIZE 8 excludes every config without alpha.
        assert_eq!(
            ids(&[EGL_ALPHA_SIZE, 8, EGL_NONE]).unwrap(),
            vec![2, 11, 1, 4, 3]
        );
    }

    #[test]
    fn at_least_exact_and_mask_rules() {
        assert_eq!(
            ids(&[EGL_DEPTH_SIZE, 17, EGL_NONE]).unwrap(),
            vec![8, 12, 5, 7, 11, 1, 3]
        );
        assert_eq!(ids(&[EGL_SAMPLES, 4, EGL_NONE]).unwrap(), vec![7, 4, 3]);
        assert_eq!(
            ids(&[EGL_LEVEL, 1, EGL_NONE]).unwrap(),
            Vec::<EGLint>::new()
        );
        assert!(
            ids(&[
                EGL_RENDERABLE_TYPE,
                EGL_OPENGL_BIT | EGL_OPENGL_ES3_BIT,
                EGL_NONE
            ])
            .unwrap()
            .len()
                == 12
        );
        assert!(ids(&[EGL_RENDERABLE_TYPE, EGL_OPENGL_ES_BIT, EGL_NONE])
            .unwrap()
            .is_empty());
        // Pbuffer-only displays do not match the default EGL_SURFACE_TYPE of EGL_WINDOW_BIT.
        assert!(choose(&ConfigEnv::plain(EGL_PBUFFER_BIT), &[EGL_NONE])
            .unwrap()
            .is_empty());
        assert_eq!(
            choose(
                &ConfigEnv::plain(EGL_PBUFFER_BIT),
                &[EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE]
            )
            .unwrap()
            .len(),
            12
        );
    }

    #[test]
    fn dont_care_and_config_id() {
        assert_eq!(
            ids(&[EGL_DEPTH_SIZE, EGL_DONT_CARE, EGL_NONE])
                .unwrap()
                .len(),
            12
        );
        // EGL_CONFIG_ID wins over everything else, even a mismatching attribute.
        assert_eq!(
            ids(&[EGL_CONFIG_ID, 3, EGL_DEPTH_SIZE, 32, EGL_NONE]).unwrap(),
            vec![3]
        );
        assert_eq!(
            ids(&[EGL_CONFIG_ID, 99, EGL_NONE]).unwrap(),
            Vec::<EGLint>::new()
        );
    }

    #[test]
    fn bad_values_and_keys_are_bad_attributes() {
        for list in [
            &[0x1234, 0, EGL_NONE][..],
            &[EGL_LEVEL, EGL_DONT_CARE, EGL_NONE],
            &[EGL_RED_SIZE, -2, EGL_NONE],
            &[EGL_COLOR_BUFFER_TYPE, 7, EGL_NONE],
            &[EGL_SURFACE_TYPE, 0x1000, EGL_NONE],
            &[EGL_NATIVE_RENDERABLE, 2, EGL_NONE],
            &[EGL_RED_SIZE],
        ] {
            assert_eq!(ids(list), Err(EglError::BAD_ATTRIBUTE), "{list:x?}");
        }
        assert_eq!(
            ids(&[EGL_MATCH_NATIVE_PIXMAP, 5, EGL_NONE]),
            Err(EglError::BAD_NATIVE_PIXMAP)
        );
    }

    const V24: NativeVisual = NativeVisual {
        id: 0x21,
        depth: 24,
        class: X_TRUE_COLOR,
    };
    const V24_DIRECT: NativeVisual = NativeVisual {
        id: 0x22,
        depth: 24,
        class: X_DIRECT_COLOR,
    };
    const V32: NativeVisual = NativeVisual {
        id: 0x7e,
        depth: 32,
        class: X_TRUE_COLOR,
    };

    fn env(visuals: &[NativeVisual]) -> ConfigEnv<'_> {
        ConfigEnv {
            surface_type: WINDOWED,
            visuals: Some(visuals),
        }
    }

    #[test]
    fn configs_get_the_visual_of_their_colour_layout() {
        let with_argb = [V24_DIRECT, V24, V32];
        let e = env(&with_argb);
        let visual = |id: EGLint| by_id(id).unwrap().attrib_in(&e, EGL_NATIVE_VISUAL_ID);
        assert_eq!(
            visual(1),
            Some(0x21),
            "RGBA8 → the depth-24 visual, as Mesa's"
        );
        assert_eq!(
            visual(5),
            Some(0x21),
            "RGBX8 → TrueColor before DirectColor"
        );
        assert_eq!(visual(8), Some(0), "RGB565 has no depth-16 visual here");
        let rgb565 = by_id(8).unwrap();
        assert_eq!(
            rgb565.attrib_in(&e, EGL_SURFACE_TYPE),
            Some(EGL_PBUFFER_BIT)
        );
        assert_eq!(rgb565.attrib_in(&e, EGL_NATIVE_RENDERABLE), Some(EGL_FALSE));
        assert_eq!(rgb565.attrib_in(&e, EGL_NATIVE_VISUAL_TYPE), Some(EGL_NONE));
        let rgba = by_id(1).unwrap();
        assert_eq!(rgba.attrib_in(&e, EGL_NATIVE_RENDERABLE), Some(EGL_TRUE));
        assert_eq!(
            rgba.attrib_in(&e, EGL_NATIVE_VISUAL_TYPE),
            Some(X_TRUE_COLOR)
        );
        assert_eq!(rgba.attrib_in(&e, EGL_SURFACE_TYPE), Some(WINDOWED));
        // Without a depth-24 visual the alpha configs take the depth-32 one.
        let only_32 = [V32];
        let e = env(&only_32);
        assert_eq!(rgba.attrib_in(&e, EGL_NATIVE_VISUAL_ID), Some(0x7e));
    }

    #[test]
    fn choose_honours_native_attributes_on_a_visual_table() {
        let visuals = [V24, V32];
        let e = env(&visuals);
        let ids = |list: &[EGLint]| -> Vec<EGLint> {
            choose(&e, list).unwrap().iter().map(|c| c.id).collect()
        };
        // Window configs exclude the 565 rows (no depth-16 visual); pbuffers include them.
        assert_eq!(ids(&[EGL_NONE]).len(), 9);
        assert_eq!(
            ids(&[EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE]).len(),
            12
        );
        assert_eq!(ids(&[EGL_NATIVE_RENDERABLE, EGL_TRUE, EGL_NONE]).len(), 9);
        assert_eq!(
            ids(&[
                EGL_SURFACE_TYPE,
                EGL_PBUFFER_BIT,
                EGL_NATIVE_RENDERABLE,
                EGL_FALSE,
                EGL_NONE
            ]),
            vec![10, 9, 8]
        );
        assert_eq!(
            ids(&[EGL_NATIVE_VISUAL_TYPE, X_TRUE_COLOR, EGL_NONE]).len(),
            9
        );
        assert!(ids(&[EGL_NATIVE_VISUAL_TYPE, X_DIRECT_COLOR, EGL_NONE]).is_empty());
    }

    #[test]
    fn window_depths_follow_the_channel_layout() {
        let (rgba, rgb565) = (by_id(1).unwrap(), by_id(8).unwrap());
        assert!(rgba.window_depth_matches(24) && rgba.window_depth_matches(32));
        assert!(!rgba.window_depth_matches(16) && !rgba.window_depth_matches(8));
        assert!(rgb565.window_depth_matches(16) && !rgb565.window_depth_matches(24));
    }
}
