//! Fixed-function lighting of the compatibility profile: `glLight*`, `glMaterial*`,
//! `glLightModel*`, `glColorMaterial`, and the per-vertex Blinn-Phong GL 2.1 §2.14.1 defines,
//! generated into the fixed-function vertex program.
//!
//! Design decisions:
//! - Light positions and spot directions are stored in eye coordinates, transformed by the
//!   modelview matrix current at the `glLight` call, as GL says.
//! - Which lights are on, whether colour material tracks a property, and the local viewer select
//!   the generated program ([`LightingKey`], part of `compat::FfKey`); every colour, position
//!   and factor is a uniform (`arena_ff_Light*`, `arena_ff_Mat*`), so changing them builds no
//!   program.
//! - With `GL_COLOR_MATERIAL` on the program reads the tracked property from `gl_Color` (so
//!   per-vertex colours light correctly), and the current colour is also copied into the
//!   stored material, which keeps it once tracking stops.
//! - Front faces only: `GL_LIGHT_MODEL_TWO_SIDE` is stored and answered but back faces are lit
//!   like front faces; `GL_SEPARATE_SPECULAR_COLOR` is stored, the specular term is always
//!   added to the primary colour.

use crate::gl::compat::display_list::ListCommand;
use crate::gl::compat::matrix::Mat4;
use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_value, GlResult};
use crate::gl::context::Context;

/// `GL_MAX_LIGHTS`.
pub(crate) const MAX_LIGHTS: usize = 8;

const GL_AMBIENT: GLenum = 0x1200;
const GL_DIFFUSE: GLenum = 0x1201;
const GL_SPECULAR: GLenum = 0x1202;
const GL_POSITION: GLenum = 0x1203;
const GL_SPOT_DIRECTION: GLenum = 0x1204;
const GL_SPOT_EXPONENT: GLenum = 0x1205;
const GL_SPOT_CUTOFF: GLenum = 0x1206;
const GL_CONSTANT_ATTENUATION: GLenum = 0x1207;
const GL_LINEAR_ATTENUATION: GLenum = 0x1208;
const GL_QUADRATIC_ATTENUATION: GLenum = 0x1209;
const GL_EMISSION: GLenum = 0x1600;
const GL_SHININESS: GLenum = 0x1601;
const GL_AMBIENT_AND_DIFFUSE: GLenum = 0x1602;
const GL_FRONT: GLenum = 0x0404;
const GL_BACK: GLenum = 0x0405;
const GL_FRONT_AND_BACK: GLenum = 0x0408;
const GL_LIGHT_MODEL_LOCAL_VIEWER: GLenum = 0x0B51;
const GL_LIGHT_MODEL_TWO_SIDE: GLenum = 0x0B52;
const GL_LIGHT_MODEL_AMBIENT: GLenum = 0x0B53;
const GL_LIGHT_MODEL_COLOR_CONTROL: GLenum = 0x81F8;

/// One light's parameters (eye coordinates).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Light {
    pub ambient: [f32; 4],
    pub diffuse: [f32; 4],
    pub specular: [f32; 4],
    pub position: [f32; 4],
    /// Direction xyz, exponent w.
    pub spot: [f32; 4],
    /// Constant, linear, quadratic attenuation, cos(cutoff) (-2 when the cutoff is 180).
    pub attenuation: [f32; 4],
    pub cutoff: f32,
}

impl Light {
    fn new(index: usize) -> Self {
        let on = if index == 0 { 1.0 } else { 0.0 };
        Self {
            ambient: [0.0, 0.0, 0.0, 1.0],
            diffuse: [on, on, on, 1.0],
            specular: [on, on, on, 1.0],
            position: [0.0, 0.0, 1.0, 0.0],
            spot: [0.0, 0.0, -1.0, 0.0],
            attenuation: [1.0, 0.0, 0.0, -2.0],
            cutoff: 180.0,
        }
    }
}

/// The front material.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Material {
    pub ambient: [f32; 4],
    pub diffuse: [f32; 4],
    pub specular: [f32; 4],
    pub emission: [f32; 4],
    pub shininess: f32,
}

impl Default for Material {
    fn default() -> Self {
        Self {
            ambient: [0.2, 0.2, 0.2, 1.0],
            diffuse: [0.8, 0.8, 0.8, 1.0],
            specular: [0.0, 0.0, 0.0, 1.0],
            emission: [0.0, 0.0, 0.0, 1.0],
            shininess: 0.0,
        }
    }
}

/// Lighting state of a compatibility context.
#[derive(Clone, Debug)]
pub(crate) struct Lighting {
    pub lights: [Light; MAX_LIGHTS],
    pub material: Material,
    pub scene_ambient: [f32; 4],
    pub local_viewer: bool,
    pub two_side: bool,
    pub color_control: GLenum,
    /// `glColorMaterial`'s face and property.
    pub color_material: (GLenum, GLenum),
}

impl Default for Lighting {
    fn default() -> Self {
        Self {
            lights: std::array::from_fn(Light::new),
            material: Material::default(),
            scene_ambient: [0.2, 0.2, 0.2, 1.0],
            local_viewer: false,
            two_side: false,
            color_control: 0x81F9, // GL_SINGLE_COLOR
            color_material: (GL_FRONT_AND_BACK, GL_AMBIENT_AND_DIFFUSE),
        }
    }
}

/// What of the lighting state selects the generated vertex program.
#[derive(Clone, Copy, Debug, Default, Hash, PartialEq, Eq)]
pub(crate) struct LightingKey {
    /// Enabled lights, a bit per light.
    pub lights: u8,
    /// The material property `gl_Color` replaces (`GL_COLOR_MATERIAL` on), else 0.
    pub color_material: GLenum,
    pub local_viewer: bool,
    /// `GL_NORMALIZE` or `GL_RESCALE_NORMAL`.
    pub normalize: bool,
}

fn four(values: &[f32]) -> GlResult<[f32; 4]> {
    match values {
        [a, b, c, d, ..] => Ok([*a, *b, *c, *d]),
        _ => invalid_value("a colour or position needs four values"),
    }
}

fn one(values: &[f32]) -> GlResult<f32> {
    values
        .first()
        .copied()
        .map_or_else(|| invalid_value("no value"), Ok)
}

/// `m` × `v` (column-major 4×4).
fn transform(m: &Mat4, v: [f32; 4]) -> [f32; 4] {
    std::array::from_fn(|r| (0..4).map(|c| m[c * 4 + r] * v[c]).sum())
}

impl Lighting {
    /// `glLight*`: `modelview` transforms positions and directions into eye space.
    pub(crate) fn set_light(
        &mut self,
        light: GLenum,
        pname: GLenum,
        values: &[f32],
        modelview: &Mat4,
    ) -> GlResult<()> {
        let i = light.wrapping_sub(GL_LIGHT0) as usize;
        let Some(l) = self.lights.get_mut(i) else {
            return invalid_enum("glLight light", light);
        };
        match pname {
            GL_AMBIENT => l.ambient = four(values)?,
            GL_DIFFUSE => l.diffuse = four(values)?,
            GL_SPECULAR => l.specular = four(values)?,
            GL_POSITION => l.position = transform(modelview, four(values)?),
            GL_SPOT_DIRECTION => {
                let [x, y, z, ..] = values else {
                    return invalid_value("GL_SPOT_DIRECTION needs three values");
                };
                let d = transform(modelview, [*x, *y, *z, 0.0]);
                l.spot = [d[0], d[1], d[2], l.spot[3]];
            }
            GL_SPOT_EXPONENT => {
                let e = one(values)?;
                if !(0.0..=128.0).contains(&e) {
                    return invalid_value(format!("GL_SPOT_EXPONENT {e}"));
                }
                l.spot[3] = e;
            }
            GL_SPOT_CUTOFF => {
                let c = one(values)?;
                if !((0.0..=90.0).contains(&c) || c == 180.0) {
                    return invalid_value(format!("GL_SPOT_CUTOFF {c}"));
                }
                l.cutoff = c;
                l.attenuation[3] = if c == 180.0 {
                    -2.0
                } else {
                    c.to_radians().cos()
                };
            }
            GL_CONSTANT_ATTENUATION | GL_LINEAR_ATTENUATION | GL_QUADRATIC_ATTENUATION => {
                let v = one(values)?;
                if v < 0.0 {
                    return invalid_value("negative attenuation");
                }
                l.attenuation[(pname - GL_CONSTANT_ATTENUATION) as usize] = v;
            }
            p => return invalid_enum("glLight pname", p),
        }
        Ok(())
    }

    /// `glMaterial*` (the back material is not kept: back faces are lit as front faces).
    pub(crate) fn set_material(
        &mut self,
        face: GLenum,
        pname: GLenum,
        values: &[f32],
    ) -> GlResult<()> {
        if !matches!(face, GL_FRONT | GL_BACK | GL_FRONT_AND_BACK) {
            return invalid_enum("glMaterial face", face);
        }
        if face == GL_BACK {
            return Ok(());
        }
        let m = &mut self.material;
        match pname {
            GL_AMBIENT => m.ambient = four(values)?,
            GL_DIFFUSE => m.diffuse = four(values)?,
            GL_SPECULAR => m.specular = four(values)?,
            GL_EMISSION => m.emission = four(values)?,
            GL_AMBIENT_AND_DIFFUSE => {
                m.ambient = four(values)?;
                m.diffuse = m.ambient;
            }
            GL_SHININESS => {
                let s = one(values)?;
                if !(0.0..=128.0).contains(&s) {
                    return invalid_value(format!("GL_SHININESS {s}"));
                }
                m.shininess = s;
            }
            p => return invalid_enum("glMaterial pname", p),
        }
        Ok(())
    }

    /// `glLightModel*`.
    pub(crate) fn set_model(&mut self, pname: GLenum, values: &[f32]) -> GlResult<()> {
        match pname {
            GL_LIGHT_MODEL_AMBIENT => self.scene_ambient = four(values)?,
            GL_LIGHT_MODEL_LOCAL_VIEWER => self.local_viewer = one(values)? != 0.0,
            GL_LIGHT_MODEL_TWO_SIDE => self.two_side = one(values)? != 0.0,
            GL_LIGHT_MODEL_COLOR_CONTROL => match one(values)? as GLenum {
                c @ (0x81F9 | 0x81FA) => self.color_control = c,
                c => return invalid_enum("GL_LIGHT_MODEL_COLOR_CONTROL", c),
            },
            p => return invalid_enum("glLightModel pname", p),
        }
        Ok(())
    }

    /// `glColorMaterial`.
    pub(crate) fn set_color_material(&mut self, face: GLenum, mode: GLenum) -> GlResult<()> {
        if !matches!(face, GL_FRONT | GL_BACK | GL_FRONT_AND_BACK) {
            return invalid_enum("glColorMaterial face", face);
        }
        if !matches!(
            mode,
            GL_AMBIENT | GL_DIFFUSE | GL_SPECULAR | GL_EMISSION | GL_AMBIENT_AND_DIFFUSE
        ) {
            return invalid_enum("glColorMaterial mode", mode);
        }
        self.color_material = (face, mode);
        Ok(())
    }
}

/// GLSL 1.10 declarations and statements computing `lit` (the front colour) from `gl_Color`,
/// the eye-space position `eye` and the normal `normal`.
pub(crate) fn vertex_glsl(key: &LightingKey) -> (String, String) {
    let decls = "uniform vec4 arena_ff_LightAmbient[8];\nuniform vec4 arena_ff_LightDiffuse[8];\nuniform vec4 arena_ff_LightSpecular[8];\nuniform vec4 arena_ff_LightPosition[8];\nuniform vec4 arena_ff_LightSpot[8];\nuniform vec4 arena_ff_LightAttenuation[8];\nuniform vec4 arena_ff_MatAmbient;\nuniform vec4 arena_ff_MatDiffuse;\nuniform vec4 arena_ff_MatSpecular;\nuniform vec4 arena_ff_MatEmission;\nuniform vec4 arena_ff_MatShininess;\nuniform vec4 arena_ff_SceneAmbient;\n".to_owned();
    let tracked = |property: GLenum, name: &str| -> String {
        let both = key.color_material == GL_AMBIENT_AND_DIFFUSE
            && matches!(property, GL_AMBIENT | GL_DIFFUSE);
        if key.color_material == property || both {
            "gl_Color".to_owned()
        } else {
            format!("arena_ff_Mat{name}")
        }
    };
    let (ambient, diffuse, specular, emission) = (
        tracked(GL_AMBIENT, "Ambient"),
        tracked(GL_DIFFUSE, "Diffuse"),
        tracked(GL_SPECULAR, "Specular"),
        tracked(GL_EMISSION, "Emission"),
    );
    let mut s = String::new();
    s.push_str("    vec3 eye3 = eye.xyz / eye.w;\n");
    s.push_str(&format!(
        "    vec3 n = gl_NormalMatrix * gl_Normal;\n{}",
        if key.normalize {
            "    n = normalize(n);\n"
        } else {
            ""
        }
    ));
    s.push_str(&format!(
        "    vec3 lit = {emission}.rgb + {ambient}.rgb * arena_ff_SceneAmbient.rgb;\n"
    ));
    for i in (0..MAX_LIGHTS).filter(|i| key.lights & (1 << i) != 0) {
        let view = if key.local_viewer {
            "normalize(-eye3)"
        } else {
            "vec3(0.0, 0.0, 1.0)"
        };
        s.push_str(&format!(
            "    {{\n        vec4 p = arena_ff_LightPosition[{i}];\n        float positional = p.w != 0.0 ? 1.0 : 0.0;\n        vec3 vp = p.xyz / (p.w + (1.0 - positional)) - positional * eye3;\n        float d = length(vp);\n        vp = normalize(vp);\n        vec4 k = arena_ff_LightAttenuation[{i}];\n        float att = 1.0 / mix(1.0, k.x + k.y * d + k.z * d * d, positional);\n        vec4 spot = arena_ff_LightSpot[{i}];\n        float c = dot(-vp, normalize(spot.xyz));\n        float spotted = c >= k.w ? pow(max(c, 0.0), spot.w) : 0.0;\n        att *= k.w > -1.5 ? spotted : 1.0;\n        float ndotl = max(dot(n, vp), 0.0);\n        vec3 h = normalize(vp + {view});\n        float spec = ndotl > 0.0 ? pow(max(dot(n, h), 0.0), arena_ff_MatShininess.x) : 0.0;\n        lit += att * ({ambient}.rgb * arena_ff_LightAmbient[{i}].rgb + ndotl * {diffuse}.rgb * arena_ff_LightDiffuse[{i}].rgb + spec * {specular}.rgb * arena_ff_LightSpecular[{i}].rgb);\n    }}\n"
        ));
    }
    s.push_str(&format!(
        "    gl_FrontColor = vec4(clamp(lit, 0.0, 1.0), clamp({diffuse}.a, 0.0, 1.0));\n"
    ));
    (decls, s)
}

impl Context {
    /// The lighting part of the generated program's key (None: lighting is off).
    pub(crate) fn lighting_key(&self) -> Option<LightingKey> {
        let on = |cap: GLenum| self.compat.caps.get(&cap).copied().unwrap_or(false);
        if !on(GL_LIGHTING) {
            return None;
        }
        let mut lights = 0u8;
        for i in 0..MAX_LIGHTS {
            if on(GL_LIGHT0 + i as GLenum) {
                lights |= 1 << i;
            }
        }
        Some(LightingKey {
            lights,
            color_material: if on(GL_COLOR_MATERIAL) {
                self.compat.lighting.color_material.1
            } else {
                0
            },
            local_viewer: self.compat.lighting.local_viewer,
            normalize: on(GL_NORMALIZE) || on(GL_RESCALE_NORMAL),
        })
    }

    /// With `GL_COLOR_MATERIAL` on, the current colour becomes the tracked material property
    /// (GL 2.1 §2.14.3: it stays there once tracking stops).
    pub(crate) fn track_color_material(&mut self) {
        if !self
            .compat
            .caps
            .get(&GL_COLOR_MATERIAL)
            .copied()
            .unwrap_or(false)
        {
            return;
        }
        let color = self.current_attribs[crate::gl::objects::vertex_array::FfArray::Color.slot()]
            .words
            .map(f32::from_bits);
        let (face, mode) = self.compat.lighting.color_material;
        let _ = self.compat.lighting.set_material(face, mode, &color);
    }

    /// `glLight{f,i}{,v}`.
    pub fn light(&mut self, light: GLenum, pname: GLenum, values: &[f32]) {
        if self.compile(ListCommand::Light(light, pname, values.to_vec())) {
            return;
        }
        let r = self.compat_only("glLight").and_then(|()| {
            let mv = self.compat.matrices.modelview();
            self.compat.lighting.set_light(light, pname, values, &mv)
        });
        self.record(r);
    }

    /// `glMaterial{f,i}{,v}`.
    pub fn material(&mut self, face: GLenum, pname: GLenum, values: &[f32]) {
        if self.compile(ListCommand::Material(face, pname, values.to_vec())) {
            return;
        }
        // Allowed between glBegin and glEnd.
        let r = if self.profile == crate::gl::context::Profile::Compatibility {
            self.compat.lighting.set_material(face, pname, values)
        } else {
            crate::gl::context::error::invalid_op(
                "glMaterial needs a compatibility profile context",
            )
        };
        self.record(r);
    }

    /// `glLightModel{f,i}{,v}`.
    pub fn light_model(&mut self, pname: GLenum, values: &[f32]) {
        if self.compile(ListCommand::LightModel(pname, values.to_vec())) {
            return;
        }
        let r = self
            .compat_only("glLightModel")
            .and_then(|()| self.compat.lighting.set_model(pname, values));
        self.record(r);
    }

    /// `glColorMaterial`.
    pub fn color_material(&mut self, face: GLenum, mode: GLenum) {
        if self.compile(ListCommand::ColorMaterial(face, mode)) {
            return;
        }
        let r = self
            .compat_only("glColorMaterial")
            .and_then(|()| self.compat.lighting.set_color_material(face, mode));
        self.record(r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gl::compat::matrix;

    #[test]
    fn light_positions_are_stored_in_eye_space_and_parameters_validated() {
        let mut l = Lighting::default();
        let mv = matrix::translate(1.0, 2.0, 3.0);
        l.set_light(GL_LIGHT0 + 1, GL_POSITION, &[0.0, 0.0, 0.0, 1.0], &mv)
            .unwrap();
        assert_eq!(l.lights[1].position, [1.0, 2.0, 3.0, 1.0]);
        // Directions ignore the translation.
        l.set_light(GL_LIGHT0 + 1, GL_SPOT_DIRECTION, &[0.0, 0.0, -1.0], &mv)
            .unwrap();
        assert_eq!(&l.lights[1].spot[..3], &[0.0, 0.0, -1.0]);
        assert!(l
            .set_light(GL_LIGHT0 + 8, GL_AMBIENT, &[0.0; 4], &mv)
            .is_err());
        assert!(l
            .set_light(GL_LIGHT0, GL_SPOT_CUTOFF, &[100.0], &mv)
            .is_err());
        l.set_light(GL_LIGHT0, GL_SPOT_CUTOFF, &[60.0], &mv)
            .unwrap();
        assert!((l.lights[0].attenuation[3] - 0.5).abs() < 1e-6);
        assert_eq!(l.lights[0].diffuse, [1.0; 4], "light 0 is white");
        assert_eq!(l.lights[2].diffuse, [0.0, 0.0, 0.0, 1.0]);
        l.set_material(
            GL_FRONT_AND_BACK,
            GL_AMBIENT_AND_DIFFUSE,
            &[1.0, 0.0, 0.0, 1.0],
        )
        .unwrap();
        assert_eq!(l.material.ambient, l.material.diffuse);
        assert!(l.set_material(GL_FRONT, GL_SHININESS, &[200.0]).is_err());
        assert!(l.set_color_material(GL_FRONT, GL_POSITION).is_err());
    }

    #[test]
    fn the_generated_lighting_reads_the_tracked_material_from_the_colour() {
        let key = LightingKey {
            lights: 0b101,
            color_material: GL_DIFFUSE,
            local_viewer: false,
            normalize: true,
        };
        let (decls, body) = vertex_glsl(&key);
        assert!(decls.contains("arena_ff_LightPosition[8]"));
        assert!(body.contains("arena_ff_LightPosition[0]"));
        assert!(body.contains("arena_ff_LightPosition[2]"));
        assert!(!body.contains("arena_ff_LightPosition[1]"));
        assert!(body.contains("gl_Color.rgb * arena_ff_LightDiffuse[0]"));
        assert!(body.contains("n = normalize(n)"));
    }

    /// lavapipe recompiles a shader that branches on uniforms alone whenever its uniforms are
    /// rebound, per draw (`glsl::uniform_branches`): glxgears ran at 1–3 FPS on such a branch.
    #[test]
    fn the_generated_lighting_never_branches_on_uniforms_alone() {
        for (lights, local_viewer) in [(0b1, false), (0b1011_0001, true)] {
            let key = LightingKey {
                lights,
                color_material: GL_AMBIENT_AND_DIFFUSE,
                local_viewer,
                normalize: true,
            };
            let reads = crate::glsl::legacy::Varyings::FRONT_COLOR;
            let vs = crate::glsl::fixed_function::ff_vertex_source(reads, Some(vertex_glsl(&key)));
            let vs = crate::glsl::legacy::upgrade(crate::glsl::Stage::Vertex, &vs, reads).source;
            assert_eq!(
                crate::glsl::uniform_branches::tests::count(&vs),
                0,
                "lights {lights:#b}:\n{vs}"
            );
        }
    }
}
