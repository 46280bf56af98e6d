//! The fixed-function fragment stages of the compatibility profile as GLSL: texture environments
//! per unit (`GL_MODULATE`, `GL_REPLACE`, `GL_DECAL`, `GL_BLEND`, `GL_ADD` and
//! `GL_COMBINE` with every source, operand, function and scale of ARB_texture_env_combine,
//! ARB_texture_env_crossbar and ARB_texture_env_dot3), and fog (`GL_LINEAR`, `GL_EXP`,
//! `GL_EXP2`). The generated program (see `compat`) is keyed by this state; constant colours and
//! fog parameters are uniforms, so changing them never builds a new program.
//! - The texel a unit reads is already in GL's component semantics (the sampling view's swizzle
//!   makes an `GL_ALPHA` texel (0, 0, 0, A), a luminance one (L, L, L, 1), …), which is what
//!   `GL_COMBINE` sources are. The classic modes also depend on the base format (GL 2.1
//!   table 3.22: an alpha texture leaves the colour alone, an RGB or luminance one under
//!   `GL_REPLACE` keeps the fragment's alpha, an intensity one blends and adds its alpha), so
//!   the key carries the base format's class ([`TexBase`]).

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_value, GlResult};
use crate::gl::context::get::Value;
use crate::gl::objects::texture::internal_format::Base;

const GL_SRC_COLOR: GLenum = 0x0300;
const GL_ONE_MINUS_SRC_COLOR: GLenum = 0x0301;
const GL_SRC_ALPHA: GLenum = 0x0302;
const GL_ONE_MINUS_SRC_ALPHA: GLenum = 0x0303;
const GL_BLEND_MODE: GLenum = 0x0BE2; // GL_BLEND as a texture environment mode

/// What of a texture's base format the classic texture environments depend on.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub(crate) enum TexBase {
    /// RGBA and luminance-alpha: colour and alpha from the texel.
    Rgba,
    /// RGB, red, RG and luminance: no alpha of their own.
    NoAlpha,
    /// Alpha only: no colour of its own.
    Alpha,
    /// Intensity: one value for colour and alpha.
    Intensity,
    /// Depth sampled as colour: GL's default `GL_DEPTH_TEXTURE_MODE`, `GL_LUMINANCE`
    /// ((D, D, D, 1)), then as [`TexBase::NoAlpha`]. Vulkan reads depth as (D, 0, 0, 1).
    Depth,
    /// Depth with `GL_DEPTH_TEXTURE_MODE` `GL_INTENSITY`: (D, D, D, D), then as
    /// [`TexBase::Intensity`].
    DepthIntensity,
    /// Depth with `GL_DEPTH_TEXTURE_MODE` `GL_ALPHA`: (0, 0, 0, D), then as [`TexBase::Alpha`].
    DepthAlpha,
    /// Depth with `GL_DEPTH_TEXTURE_MODE` `GL_RED`: (D, 0, 0, 1), then as [`TexBase::NoAlpha`].
    DepthRed,
}

impl TexBase {
    pub(crate) fn of(base: Base) -> Self {
        match base {
            Base::Rgba | Base::LuminanceAlpha => Self::Rgba,
            Base::Red | Base::Rg | Base::Rgb | Base::Luminance => Self::NoAlpha,
            Base::Alpha => Self::Alpha,
            Base::Intensity => Self::Intensity,
            Base::Depth | Base::DepthStencil | Base::Stencil => Self::Depth,
        }
    }

    /// A depth texture's class under `GL_DEPTH_TEXTURE_MODE` `mode`; other classes unchanged.
    pub(crate) fn with_depth_mode(self, mode: GLenum) -> Self {
        match (self, crate::gl::objects::texture::depth_mode_index(mode)) {
            (Self::Depth, 1) => Self::DepthIntensity,
            (Self::Depth, 2) => Self::DepthAlpha,
            (Self::Depth, 3) => Self::DepthRed,
            (other, _) => other,
        }
    }

    /// The unit's texel `t` in GL's terms, from the sampled value `sampled`.
    pub(crate) fn texel(self, sampled: &str) -> String {
        match self {
            Self::Depth => format!("vec4(vec3(({sampled}).r), 1.0)"),
            Self::DepthIntensity => format!("vec4(({sampled}).r)"),
            Self::DepthAlpha => format!("vec4(vec3(0.0), ({sampled}).r)"),
            Self::DepthRed => format!("vec4(({sampled}).r, 0.0, 0.0, 1.0)"),
            _ => sampled.to_owned(),
        }
    }

    /// The colour-format class whose texture environments apply to the texel.
    fn env_class(self) -> Self {
        match self {
            Self::Depth | Self::DepthRed => Self::NoAlpha,
            Self::DepthIntensity => Self::Intensity,
            Self::DepthAlpha => Self::Alpha,
            other => other,
        }
    }
}

/// One texture unit's environment: what selects the generated program.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub(crate) struct TexEnv {
    pub mode: GLenum,
    pub combine_rgb: GLenum,
    pub combine_alpha: GLenum,
    pub src_rgb: [GLenum; 3],
    pub src_alpha: [GLenum; 3],
    pub op_rgb: [GLenum; 3],
    pub op_alpha: [GLenum; 3],
    pub rgb_scale: u8,
    pub alpha_scale: u8,
}

impl Default for TexEnv {
    fn default() -> Self {
        Self {
            mode: GL_MODULATE,
            combine_rgb: GL_MODULATE,
            combine_alpha: GL_MODULATE,
            src_rgb: [GL_TEXTURE, GL_PREVIOUS, GL_CONSTANT],
            src_alpha: [GL_TEXTURE, GL_PREVIOUS, GL_CONSTANT],
            op_rgb: [GL_SRC_COLOR, GL_SRC_COLOR, GL_SRC_ALPHA],
            op_alpha: [GL_SRC_ALPHA; 3],
            rgb_scale: 1,
            alpha_scale: 1,
        }
    }
}

fn valid_source(v: GLenum, units: usize) -> bool {
    matches!(v, GL_TEXTURE | GL_CONSTANT | GL_PRIMARY_COLOR | GL_PREVIOUS)
        || (GL_TEXTURE0..GL_TEXTURE0 + units as u32).contains(&v)
}

fn scale_of(v: f32) -> GlResult<u8> {
    match v {
        1.0 => Ok(1),
        2.0 => Ok(2),
        4.0 => Ok(4),
        _ => invalid_value(format!("texture environment scale {v} (1, 2 or 4)")),
    }
}

impl TexEnv {
    /// `glTexEnv*(GL_TEXTURE_ENV, pname, value)` for everything but the colour.
    pub(crate) fn set(&mut self, pname: GLenum, value: f32, units: usize) -> GlResult<()> {
        let e = value as GLenum;
        let i = |base: GLenum| (pname - base) as usize;
        match pname {
            GL_TEXTURE_ENV_MODE => match e {
                GL_MODULATE | GL_REPLACE | GL_DECAL | GL_ADD | GL_BLEND_MODE | GL_COMBINE => {
                    self.mode = e
                }
                _ => return invalid_enum("texture environment mode", e),
            },
            GL_COMBINE_RGB => match e {
                GL_REPLACE | GL_MODULATE | GL_ADD | GL_ADD_SIGNED | GL_INTERPOLATE
                | GL_SUBTRACT | GL_DOT3_RGB | GL_DOT3_RGBA => self.combine_rgb = e,
                _ => return invalid_enum("GL_COMBINE_RGB", e),
            },
            GL_COMBINE_ALPHA => match e {
                GL_REPLACE | GL_MODULATE | GL_ADD | GL_ADD_SIGNED | GL_INTERPOLATE
                | GL_SUBTRACT => self.combine_alpha = e,
                _ => return invalid_enum("GL_COMBINE_ALPHA", e),
            },
            p if (GL_SRC0_RGB..GL_SRC0_RGB + 3).contains(&p) => {
                if !valid_source(e, units) {
                    return invalid_enum("texture environment source", e);
                }
                self.src_rgb[i(GL_SRC0_RGB)] = e;
            }
            p if (GL_SRC0_ALPHA..GL_SRC0_ALPHA + 3).contains(&p) => {
                if !valid_source(e, units) {
                    return invalid_enum("texture environment source", e);
                }
                self.src_alpha[i(GL_SRC0_ALPHA)] = e;
            }
            p if (GL_OPERAND0_RGB..GL_OPERAND0_RGB + 3).contains(&p) => match e {
                GL_SRC_COLOR | GL_ONE_MINUS_SRC_COLOR | GL_SRC_ALPHA | GL_ONE_MINUS_SRC_ALPHA => {
                    self.op_rgb[i(GL_OPERAND0_RGB)] = e
                }
                _ => return invalid_enum("texture environment RGB operand", e),
            },
            p if (GL_OPERAND0_ALPHA..GL_OPERAND0_ALPHA + 3).contains(&p) => match e {
                GL_SRC_ALPHA | GL_ONE_MINUS_SRC_ALPHA => self.op_alpha[i(GL_OPERAND0_ALPHA)] = e,
                _ => return invalid_enum("texture environment alpha operand", e),
            },
            GL_RGB_SCALE => self.rgb_scale = scale_of(value)?,
            GL_ALPHA_SCALE => self.alpha_scale = scale_of(value)?,
            p => return invalid_enum("glTexEnv pname", p),
        }
        Ok(())
    }

    /// `glGetTexEnv*` (the colour is answered by the caller).
    pub(crate) fn get(&self, pname: GLenum) -> GlResult<Value> {
        let e = |v: GLenum| Ok(Value::Ints(vec![i64::from(v)]));
        match pname {
            GL_TEXTURE_ENV_MODE => e(self.mode),
            GL_COMBINE_RGB => e(self.combine_rgb),
            GL_COMBINE_ALPHA => e(self.combine_alpha),
            p if (GL_SRC0_RGB..GL_SRC0_RGB + 3).contains(&p) => {
                e(self.src_rgb[(p - GL_SRC0_RGB) as usize])
            }
            p if (GL_SRC0_ALPHA..GL_SRC0_ALPHA + 3).contains(&p) => {
                e(self.src_alpha[(p - GL_SRC0_ALPHA) as usize])
            }
            p if (GL_OPERAND0_RGB..GL_OPERAND0_RGB + 3).contains(&p) => {
                e(self.op_rgb[(p - GL_OPERAND0_RGB) as usize])
            }
            p if (GL_OPERAND0_ALPHA..GL_OPERAND0_ALPHA + 3).contains(&p) => {
                e(self.op_alpha[(p - GL_OPERAND0_ALPHA) as usize])
            }
            GL_RGB_SCALE => Ok(Value::Floats(vec![f64::from(self.rgb_scale)])),
            GL_ALPHA_SCALE => Ok(Value::Floats(vec![f64::from(self.alpha_scale)])),
            p => invalid_enum("glGetTexEnv pname", p),
        }
    }

    /// GLSL statements that turn `c` (the previous stage's colour) into this unit's output; `t`
    /// names this unit's texel (of base format class `base`), `texels[n]` unit n's (None where
    /// unit n is disabled).
    pub(crate) fn glsl(&self, unit: usize, texels: &[bool], base: TexBase) -> String {
        let t = format!("t{unit}");
        let constant = format!("arena_ff_EnvColor[{unit}]");
        match (self.mode, base.env_class()) {
            (GL_REPLACE, TexBase::Alpha) => format!("    c.a = {t}.a;\n"),
            (GL_REPLACE, TexBase::NoAlpha) => format!("    c.rgb = {t}.rgb;\n"),
            (GL_REPLACE, _) => format!("    c = {t};\n"),
            (GL_DECAL, _) => format!("    c = vec4(mix(c.rgb, {t}.rgb, {t}.a), c.a);\n"),
            (GL_BLEND_MODE, TexBase::Intensity) => format!("    c = mix(c, {constant}, {t});\n"),
            (GL_BLEND_MODE, _) => {
                format!("    c = vec4(mix(c.rgb, {constant}.rgb, {t}.rgb), c.a * {t}.a);\n")
            }
            (GL_ADD, TexBase::Intensity) => format!("    c = min(c + {t}, vec4(1.0));\n"),
            (GL_ADD, _) => format!("    c = vec4(min(c.rgb + {t}.rgb, vec3(1.0)), c.a * {t}.a);\n"),
            (GL_MODULATE, TexBase::Alpha) => format!("    c.a *= {t}.a;\n"),
            (GL_COMBINE, _) => {
                let source = |s: GLenum| -> String {
                    match s {
                        GL_TEXTURE => t.clone(),
                        GL_CONSTANT => constant.clone(),
                        GL_PRIMARY_COLOR => "gl_Color".into(),
                        GL_PREVIOUS => "c".into(),
                        n => {
                            let n = (n - GL_TEXTURE0) as usize;
                            if texels.get(n).copied().unwrap_or(false) {
                                format!("t{n}")
                            } else {
                                "vec4(1.0)".into()
                            }
                        }
                    }
                };
                let rgb_arg = |k: usize| -> String {
                    let s = source(self.src_rgb[k]);
                    match self.op_rgb[k] {
                        GL_ONE_MINUS_SRC_COLOR => format!("(vec3(1.0) - {s}.rgb)"),
                        GL_SRC_ALPHA => format!("vec3({s}.a)"),
                        GL_ONE_MINUS_SRC_ALPHA => format!("vec3(1.0 - {s}.a)"),
                        _ => format!("{s}.rgb"),
                    }
                };
                let alpha_arg = |k: usize| -> String {
                    let s = source(self.src_alpha[k]);
                    match self.op_alpha[k] {
                        GL_ONE_MINUS_SRC_ALPHA => format!("(1.0 - {s}.a)"),
                        _ => format!("{s}.a"),
                    }
                };
                let combine = |f: GLenum, a: &dyn Fn(usize) -> String, one: &str| -> String {
                    match f {
                        GL_REPLACE => a(0),
                        GL_MODULATE => format!("{} * {}", a(0), a(1)),
                        GL_ADD => format!("{} + {}", a(0), a(1)),
                        GL_ADD_SIGNED => format!("{} + {} - {one}(0.5)", a(0), a(1)),
                        GL_INTERPOLATE => {
                            format!("mix({}, {}, {})", a(1), a(0), a(2))
                        }
                        GL_SUBTRACT => format!("{} - {}", a(0), a(1)),
                        _ => format!(
                            "{one}(4.0 * dot({} - vec3(0.5), {} - vec3(0.5)))",
                            a(0),
                            a(1)
                        ),
                    }
                };
                let rgb = combine(self.combine_rgb, &rgb_arg, "vec3");
                let alpha = if self.combine_rgb == GL_DOT3_RGBA {
                    "rgb.r".to_owned()
                } else {
                    combine(self.combine_alpha, &alpha_arg, "float")
                };
                format!(
                    "    {{\n        vec3 rgb = {rgb};\n        float alpha = {alpha};\n        c = clamp(vec4(rgb * {}.0, alpha * {}.0), 0.0, 1.0);\n    }}\n",
                    self.rgb_scale,
                    if self.combine_rgb == GL_DOT3_RGBA {
                        self.rgb_scale
                    } else {
                        self.alpha_scale
                    }
                )
            }
            _ => format!("    c = c * {t};\n"),
        }
    }
}

/// Fog state (`glFog*`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Fog {
    pub mode: GLenum,
    pub density: f32,
    pub start: f32,
    pub end: f32,
    pub color: [f32; 4],
}

impl Default for Fog {
    fn default() -> Self {
        Self {
            mode: GL_EXP,
            density: 1.0,
            start: 0.0,
            end: 1.0,
            color: [0.0; 4],
        }
    }
}

impl Fog {
    /// `glFog{f,i}v`: `values` holds one value, or four for `GL_FOG_COLOR`.
    pub(crate) fn set(&mut self, pname: GLenum, values: &[f32]) -> GlResult<()> {
        let Some(&v) = values.first() else {
            return invalid_value("glFog with no value");
        };
        match pname {
            GL_FOG_MODE => match v as GLenum {
                m @ (GL_LINEAR | GL_EXP | GL_EXP2) => self.mode = m,
                m => return invalid_enum("GL_FOG_MODE", m),
            },
            GL_FOG_DENSITY if v < 0.0 => return invalid_value("negative GL_FOG_DENSITY"),
            GL_FOG_DENSITY => self.density = v,
            GL_FOG_START => self.start = v,
            GL_FOG_END => self.end = v,
            GL_FOG_COLOR if values.len() >= 4 => {
                self.color = [values[0], values[1], values[2], values[3]].map(|c| c.clamp(0.0, 1.0))
            }
            // Accepted and ignored: GL_FOG_INDEX, GL_FOG_COORD_SRC (fragment depth is used).
            0x0B61 | 0x8450 => {}
            p => return invalid_enum("glFog pname", p),
        }
        Ok(())
    }

    /// GLSL statements that fog `c` (the fragment's distance is `gl_FogFragCoord`).
    pub(crate) fn glsl(mode: GLenum) -> String {
        let f = match mode {
            GL_LINEAR => {
                "(arena_ff_FogParams.y - z) / (arena_ff_FogParams.y - arena_ff_FogParams.x)"
            }
            GL_EXP2 => "exp(-(arena_ff_FogParams.z * z) * (arena_ff_FogParams.z * z))",
            _ => "exp(-arena_ff_FogParams.z * z)",
        };
        format!(
            "    {{\n        float z = gl_FogFragCoord;\n        float f = clamp({f}, 0.0, 1.0);\n        c.rgb = mix(arena_ff_FogColor.rgb, c.rgb, f);\n    }}\n"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combine_state_is_validated_and_generates_its_function() {
        let mut e = TexEnv::default();
        e.set(GL_TEXTURE_ENV_MODE, GL_COMBINE as f32, 8).unwrap();
        e.set(GL_COMBINE_RGB, GL_INTERPOLATE as f32, 8).unwrap();
        e.set(GL_SRC0_RGB + 2, GL_PRIMARY_COLOR as f32, 8).unwrap();
        e.set(GL_OPERAND0_RGB + 2, GL_SRC_ALPHA as f32, 8).unwrap();
        e.set(GL_RGB_SCALE, 2.0, 8).unwrap();
        assert!(e.set(GL_RGB_SCALE, 3.0, 8).is_err());
        assert!(e.set(GL_SRC0_RGB, (GL_TEXTURE0 + 9) as f32, 8).is_err());
        assert!(e.set(GL_OPERAND0_ALPHA, GL_SRC_COLOR as f32, 8).is_err());
        let g = e.glsl(0, &[true], TexBase::Rgba);
        assert!(g.contains("mix(c.rgb, t0.rgb, vec3(gl_Color.a))"), "{g}");
        assert!(g.contains("rgb * 2.0"), "{g}");
        assert_eq!(
            e.get(GL_COMBINE_RGB).unwrap().to_ints(),
            vec![i64::from(GL_INTERPOLATE)]
        );
        // A disabled unit as a crossbar source reads white.
        e.set(GL_SRC0_RGB + 1, (GL_TEXTURE0 + 3) as f32, 8).unwrap();
        assert!(e.glsl(0, &[true], TexBase::Rgba).contains("vec4(1.0).rgb"));
    }

    #[test]
    fn classic_modes_follow_the_base_format() {
        let mut e = TexEnv::default();
        e.set(GL_TEXTURE_ENV_MODE, GL_REPLACE as f32, 8).unwrap();
        assert_eq!(e.glsl(1, &[], TexBase::Alpha), "    c.a = t1.a;\n");
        assert_eq!(e.glsl(1, &[], TexBase::NoAlpha), "    c.rgb = t1.rgb;\n");
        assert_eq!(e.glsl(1, &[], TexBase::Rgba), "    c = t1;\n");
        e.set(GL_TEXTURE_ENV_MODE, GL_MODULATE as f32, 8).unwrap();
        assert_eq!(e.glsl(0, &[], TexBase::Alpha), "    c.a *= t0.a;\n");
        e.set(GL_TEXTURE_ENV_MODE, GL_ADD as f32, 8).unwrap();
        assert!(e
            .glsl(0, &[], TexBase::Intensity)
            .contains("min(c + t0, vec4(1.0))"));
        assert_eq!(TexBase::Depth.texel("s"), "vec4(vec3((s).r), 1.0)");
    }

    #[test]
    fn fog_validates_its_parameters() {
        let mut f = Fog::default();
        f.set(GL_FOG_MODE, &[GL_LINEAR as f32]).unwrap();
        f.set(GL_FOG_COLOR, &[2.0, 0.5, 0.0, 1.0]).unwrap();
        assert_eq!(f.color, [1.0, 0.5, 0.0, 1.0]);
        assert!(f.set(GL_FOG_DENSITY, &[-1.0]).is_err());
        assert!(f.set(GL_FOG_MODE, &[GL_ADD as f32]).is_err());
        assert!(Fog::glsl(GL_LINEAR).contains("arena_ff_FogParams.y - z"));
    }
}
