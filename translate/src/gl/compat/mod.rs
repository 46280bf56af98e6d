//! The compatibility profile's fixed-function layer: client arrays, current values, matrix
//! stacks, immediate mode, and the programs that draw when no program is bound.
//!
//! Design decisions:
//! - Fixed-function vertex arrays are VAO slots after the generic ones (`vertex_array::FfArray`);
//!   legacy shaders are upgraded to read them as `arena_ff_*` inputs (`glsl::legacy`), so one
//!   draw path serves generic and fixed-function attributes alike. Client memory (no buffer
//!   bound) is copied into the frame's stream at draw time (`draw`).
//! - Built-in uniforms (`gl_ModelViewProjectionMatrix`, …) are loose uniforms of the upgraded
//!   program; a draw fills them from the matrix stacks here ([`Context::fill_ff_uniforms`]).
//! - With no program bound a draw uses a generated program: a legacy GLSL 1.10 pair that
//!   transforms by the matrices, passes colour and texture coordinates, applies each enabled
//!   unit's texture environment (`texenv`), fog and the colour sum. Programs are cached per
//!   [`FfKey`]. The alpha test is not in them: like every legacy program they end in the fragment
//!   epilogue (`glsl::frag_epilogue`), which applies it to program and fixed-function draws alike.
//! - Each unit samples the highest-priority enabled target, as GL 2.1 §3.8.16 orders them:
//!   cube map (coordinates s, t, r, q ignored) > 3D (s/q, t/q, r/q) > rectangle (s/q, t/q in
//!   texels) > 2D (s/q, t/q) > 1D (s/q).
//!   A unit whose texture of that target is incomplete is left out of the key: GL treats it as
//!   disabled (the colour passes through), where a shader would read (0, 0, 0, 1). The key holds
//!   the texture's base format class too, since the classic environments depend on it.
//!   The enables are a bit set per unit ([`FfTarget`]), so `glIsEnabled` answers each target.
//! - Immediate mode (`glBegin`/`glEnd`) collects vertices with their current colour, normal and
//!   texture coordinates (unit 0, and every unit up to the highest one given a
//!   `glMultiTexCoord` inside the pair: piglit texrect-many), then draws them as client arrays; quads and polygons are lowered
//!   (`lower`). Lighting is computed per vertex in the generated vertex program (`lighting`).
//!   State the layer accepts but does not emulate (stipple, texgen, point smoothing) is stored
//!   and answered by `glIsEnabled`, and logged once.
//! - `glShadeModel(GL_FLAT)` is part of [`FfKey`]: the generated program then passes its
//!   colours (primary and secondary, lit or not) through `flat` varyings, so they are the
//!   provoking vertex's, which the pipeline's provoking-vertex mode and `lower` choose.
//!   Programs of the application are not varied by it (their colour varyings stay smooth).

pub(crate) mod clamp_color;
pub(crate) mod display_list;
pub(crate) mod enums;
pub(crate) mod lighting;
pub(crate) mod matrix;
pub(crate) mod stipple;
pub(crate) mod texenv;

use std::collections::HashMap;
use std::sync::Arc;

use crate::gl::compat::display_list::ListCommand;
use crate::gl::compat::lighting::{Lighting, LightingKey};
use crate::gl::compat::matrix::{Mat4, MatrixStacks};
use crate::gl::compat::texenv::{Fog, TexBase, TexEnv};
use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlError, GlResult};
use crate::gl::context::get::Value;
use crate::gl::context::{Context, Profile};
use crate::gl::objects::program::{self, Linked, UniformStorage};
use crate::gl::objects::texture::target::TexTarget;
use crate::gl::objects::vertex_array::{AttribArray, FfArray, VertexArray};
use crate::glsl::fixed_function::ff_vertex_source;
use crate::glsl::legacy::Varyings;

/// Texture units the fixed-function layer knows (`GL_MAX_TEXTURE_UNITS`).
pub(crate) const FF_TEXTURE_UNITS: usize = 8;
/// Floats per immediate-mode vertex before its texture coordinates: position, colour, normal
/// (xyz + pad); then 4 per texture coordinate set the primitive carries
/// ([`Immediate::tex_units`]).
const IMMEDIATE_HEAD: usize = 12;

/// Floats per immediate-mode vertex carrying `tex_units` texture coordinate sets.
fn immediate_floats(tex_units: usize) -> usize {
    IMMEDIATE_HEAD + 4 * tex_units
}
/// Immediate-mode vertices one `glBegin`/`glEnd` pair may hold.
const MAX_IMMEDIATE_VERTICES: usize = 1 << 20;

/// What selects a generated program.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub(crate) struct FfKey {
    /// The environment, sampled target and texture base format of each unit with a complete
    /// texture of its enabled target.
    units: [Option<(TexEnv, FfTarget, TexBase)>; FF_TEXTURE_UNITS],
    /// The fog mode when `GL_FOG` is enabled.
    fog: Option<GLenum>,
    /// `GL_COLOR_SUM`.
    color_sum: bool,
    /// `GL_LIGHTING` and what of its state the vertex program depends on.
    lighting: Option<LightingKey>,
    /// `glShadeModel(GL_FLAT)`: the colours are the provoking vertex's ([`flat_colours`]).
    flat: bool,
}

/// A texture target a fixed-function unit can enable, in ascending priority.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub(crate) enum FfTarget {
    D1 = 1,
    D2 = 2,
    D3 = 4,
    Cube = 8,
    Rect = 16,
}

impl FfTarget {
    fn of_capability(cap: GLenum) -> Option<Self> {
        Some(match cap {
            GL_TEXTURE_1D => Self::D1,
            GL_TEXTURE_2D => Self::D2,
            GL_TEXTURE_3D => Self::D3,
            GL_TEXTURE_CUBE_MAP => Self::Cube,
            GL_TEXTURE_RECTANGLE => Self::Rect,
            _ => return None,
        })
    }

    /// The target a unit with `enables` (a bit set of [`FfTarget`]) samples: the enabled one
    /// of highest priority.
    fn sampled(enables: u8) -> Option<Self> {
        [Self::Cube, Self::D3, Self::Rect, Self::D2, Self::D1]
            .into_iter()
            .find(|t| enables & *t as u8 != 0)
    }

    /// The texture target (binding slot) this enable samples.
    fn tex_target(self) -> TexTarget {
        match self {
            Self::D1 => TexTarget::D1,
            Self::D2 => TexTarget::D2,
            Self::D3 => TexTarget::D3,
            Self::Cube => TexTarget::Cube,
            Self::Rect => TexTarget::Rect,
        }
    }

    /// The sampler type and the lookup of unit `i`'s texture coordinate.
    fn glsl(self, i: usize) -> (&'static str, String) {
        let tc = format!("gl_TexCoord[{i}]");
        match self {
            Self::D1 => (
                "sampler1D",
                format!("texture1D(arena_ff_tex{i}, {tc}.x / {tc}.w)"),
            ),
            Self::D2 => (
                "sampler2D",
                format!("texture2D(arena_ff_tex{i}, {tc}.xy / {tc}.w)"),
            ),
            Self::D3 => (
                "sampler3D",
                format!("texture3D(arena_ff_tex{i}, {tc}.xyz / {tc}.w)"),
            ),
            Self::Cube => (
                "samplerCube",
                format!("textureCube(arena_ff_tex{i}, {tc}.xyz)"),
            ),
            // Rectangle coordinates are texels (the rectangle lowering divides them).
            Self::Rect => (
                "sampler2DRect",
                format!("texture2DRect(arena_ff_tex{i}, {tc}.xy / {tc}.w)"),
            ),
        }
    }
}

/// A generated program and the texture unit of each of its samplers.
pub(crate) struct FfProgram {
    pub linked: Arc<Linked>,
    pub sampler_units: Vec<Vec<u32>>,
}

/// A `glBegin` in progress.
#[derive(Debug, Clone)]
pub(crate) struct Immediate {
    mode: GLenum,
    data: Vec<f32>,
    /// Texture coordinate sets each vertex carries: units 0..tex_units. Unit 0 always; a
    /// `glMultiTexCoord` of a higher unit between `glBegin` and `glEnd` widens every vertex
    /// (`widen`), so the units above stay at one current value for the whole primitive and
    /// cost nothing per vertex.
    tex_units: usize,
}

impl Immediate {
    /// Makes room for `units` coordinate sets; the vertices already emitted take `current`
    /// (each unit's current value until now) for the new ones. False when memory runs out.
    fn widen(&mut self, units: usize, current: &[[f32; 4]]) -> bool {
        let (old, new) = (immediate_floats(self.tex_units), immediate_floats(units));
        let mut data = Vec::new();
        if data.try_reserve_exact(self.data.len() / old * new).is_err() {
            return false;
        }
        for v in self.data.chunks_exact(old) {
            data.extend_from_slice(v);
            for unit in self.tex_units..units {
                data.extend_from_slice(current.get(unit).unwrap_or(&[0.0, 0.0, 0.0, 1.0]));
            }
        }
        self.data = data;
        self.tex_units = units;
        true
    }
}

/// Fixed-function state of a compatibility context.
pub(crate) struct CompatState {
    pub matrices: MatrixStacks,
    pub client_active_texture: u32,
    /// The enabled texture targets of each unit, a bit set of [`FfTarget`].
    pub texture_enables: [u8; FF_TEXTURE_UNITS],
    pub tex_env: [TexEnv; FF_TEXTURE_UNITS],
    /// `GL_TEXTURE_ENV_COLOR` per unit.
    pub env_color: [[f32; 4]; FF_TEXTURE_UNITS],
    pub fog: Fog,
    pub fog_enabled: bool,
    pub lighting: Lighting,
    /// `GL_COLOR_SUM`: the secondary colour is added after texturing.
    pub color_sum: bool,
    /// The current raster position (window coordinates, depth, w) and whether it is valid.
    pub raster: ([f32; 4], bool),
    /// `GL_CURRENT_RASTER_COLOR`: the current colour when the raster position was set.
    pub raster_color: [f32; 4],
    /// `glPixelZoom`.
    pub pixel_zoom: [f32; 2],
    pub alpha_test: bool,
    pub alpha_func: GLenum,
    pub alpha_ref: f32,
    /// `glPolygonStipple`'s pattern (`stipple`); the capability is in `caps`.
    pub stipple: stipple::Pattern,
    pub shade_model: GLenum,
    /// Accepted, not emulated capabilities.
    pub caps: HashMap<GLenum, bool>,
    pub immediate: Option<Immediate>,
    pub programs: HashMap<FfKey, FfProgram>,
}

impl Default for CompatState {
    fn default() -> Self {
        Self {
            matrices: MatrixStacks::default(),
            client_active_texture: 0,
            texture_enables: [0; FF_TEXTURE_UNITS],
            tex_env: [TexEnv::default(); FF_TEXTURE_UNITS],
            env_color: [[0.0; 4]; FF_TEXTURE_UNITS],
            fog: Fog::default(),
            fog_enabled: false,
            lighting: Lighting::default(),
            color_sum: false,
            raster: ([0.0, 0.0, 0.0, 1.0], true),
            raster_color: [1.0; 4],
            pixel_zoom: [1.0, 1.0],
            alpha_test: false,
            alpha_func: GL_ALWAYS,
            alpha_ref: 0.0,
            stipple: stipple::Pattern::default(),
            shade_model: GL_SMOOTH,
            caps: HashMap::new(),
            immediate: None,
            programs: HashMap::new(),
        }
    }
}

/// Capabilities kept in `CompatState::caps`: lighting's (read by `lighting`), the polygon
/// stipple's (read by draws, `stipple`) and those stored but not emulated.
fn is_unemulated_capability(cap: GLenum) -> bool {
    matches!(
        cap,
        GL_LIGHTING
            | GL_NORMALIZE
            | GL_COLOR_MATERIAL
            | GL_RESCALE_NORMAL
            | GL_POINT_SMOOTH
            | GL_LINE_STIPPLE
            | GL_POLYGON_STIPPLE
            | GL_TEXTURE_GEN_S
            | GL_TEXTURE_GEN_T
    ) || (GL_LIGHT0..GL_LIGHT0 + 8).contains(&cap)
}

/// The client-array enum of `glEnableClientState`, as a slot.
fn client_state_array(array: GLenum, client_texture: u32) -> GlResult<FfArray> {
    Ok(match array {
        GL_VERTEX_ARRAY => FfArray::Vertex,
        GL_NORMAL_ARRAY => FfArray::Normal,
        GL_COLOR_ARRAY => FfArray::Color,
        GL_SECONDARY_COLOR_ARRAY => FfArray::SecondaryColor,
        GL_FOG_COORD_ARRAY => FfArray::FogCoord,
        GL_TEXTURE_COORD_ARRAY => FfArray::TexCoord(client_texture),
        a => return invalid_enum("client array", a),
    })
}

/// The flat colour varyings of the generated programs under `glShadeModel(GL_FLAT)`.
const FLAT_COLOURS: [(Varyings, &str, &str, &str); 2] = [
    (
        Varyings::FRONT_COLOR,
        "gl_FrontColor",
        "gl_Color",
        "arena_flat_Color",
    ),
    (
        Varyings::FRONT_SECONDARY,
        "gl_FrontSecondaryColor",
        "gl_SecondaryColor",
        "arena_flat_SecondaryColor",
    ),
];

/// The generated `vertex` and `fragment` sources (GLSL 1.10) with the colours the fragment
/// stage reads (`reads`) passed through `flat` varyings of their own instead of the built-in
/// ones, whose interpolation legacy GLSL cannot qualify; the upgrader keeps `flat` a keyword.
/// Lighting writes the front colour even when nothing reads it: that one stays a plain global.
fn flat_colours(vertex: &str, fragment: &str, reads: Varyings) -> (String, String) {
    let (mut vs, mut fs) = (vertex.to_owned(), fragment.to_owned());
    let (mut vs_decls, mut fs_decls) = (String::new(), String::new());
    for (bit, written, read, flat) in FLAT_COLOURS {
        vs = vs.replace(written, flat);
        if reads.contains(bit) {
            vs_decls.push_str(&format!("flat varying vec4 {flat};\n"));
            fs_decls.push_str(&format!("flat varying vec4 {flat};\n"));
            fs = fs.replace(read, flat);
        } else if vs.contains(flat) {
            vs_decls.push_str(&format!("vec4 {flat};\n"));
        }
    }
    let after_version = |s: &str, decls: &str| match s.split_once('\n') {
        Some((version, rest)) => format!("{version}\n{decls}{rest}"),
        None => format!("{decls}{s}"),
    };
    (after_version(&vs, &vs_decls), after_version(&fs, &fs_decls))
}

/// The generated fragment shader for `key`: texture units in order, fog, the colour sum (the
/// alpha test is the fragment epilogue's, as for every legacy program: `glsl::frag_epilogue`).
fn ff_fragment_source(key: &FfKey) -> String {
    let mut s = String::from("#version 110\n");
    let enabled: Vec<bool> = key.units.iter().map(Option::is_some).collect();
    for (i, u) in key.units.iter().enumerate() {
        if let Some((_, target, _)) = u {
            s.push_str(&format!("uniform {} arena_ff_tex{i};\n", target.glsl(i).0));
        }
    }
    if key.units.iter().any(Option::is_some) {
        s.push_str("uniform vec4 arena_ff_EnvColor[8];\n");
    }
    if key.fog.is_some() {
        s.push_str("uniform vec4 arena_ff_FogColor;\nuniform vec4 arena_ff_FogParams;\n");
    }
    s.push_str("void main() {\n    vec4 c = gl_Color;\n");
    for (i, u) in key.units.iter().enumerate() {
        if let Some((_, target, base)) = u {
            let texel = base.texel(&target.glsl(i).1);
            s.push_str(&format!("    vec4 t{i} = {texel};\n"));
        }
    }
    for (i, u) in key.units.iter().enumerate() {
        if let Some((env, _, base)) = u {
            s.push_str(&env.glsl(i, &enabled, *base));
        }
    }
    if key.color_sum {
        s.push_str("    c.rgb = min(c.rgb + gl_SecondaryColor.rgb, vec3(1.0));\n");
    }
    if let Some(mode) = key.fog {
        s.push_str(&Fog::glsl(mode));
    }
    s.push_str("    gl_FragColor = c;\n}\n");
    s
}

/// Writes `m` as a column-major matrix of `columns` × `rows` at `at` with `matrix_stride`.
fn write_matrix(data: &mut [u8], at: usize, stride: usize, m: &Mat4, columns: usize, rows: usize) {
    for c in 0..columns {
        for r in 0..rows {
            let o = at + c * stride + r * 4;
            if let Some(dst) = data.get_mut(o..o + 4) {
                dst.copy_from_slice(&m[c * 4 + r].to_ne_bytes());
            }
        }
    }
}

/// What one fixed-function array-pointer command accepts (GL 2.1 table 2.4).
struct PointerRule {
    /// The command, for errors.
    what: &'static str,
    /// The component counts (`GL_BGRA` where the command takes it).
    sizes: &'static [i32],
    /// Whether a component type is one the command takes.
    takes_type: fn(GLenum) -> bool,
}

/// The types of positions and texture coordinates.
fn position_type(ty: GLenum) -> bool {
    matches!(
        ty,
        GL_SHORT
            | GL_INT
            | GL_FLOAT
            | GL_HALF_FLOAT
            | GL_DOUBLE
            | GL_INT_2_10_10_10_REV
            | GL_UNSIGNED_INT_2_10_10_10_REV
    )
}

/// The types of normals: a position's and signed bytes.
fn normal_type(ty: GLenum) -> bool {
    ty == GL_BYTE || position_type(ty)
}

/// The types of colours: a normal's and the unsigned integers.
fn color_type(ty: GLenum) -> bool {
    matches!(ty, GL_UNSIGNED_BYTE | GL_UNSIGNED_SHORT | GL_UNSIGNED_INT) || normal_type(ty)
}

/// The types of fog coordinates: floats only.
fn fog_coord_type(ty: GLenum) -> bool {
    matches!(ty, GL_FLOAT | GL_HALF_FLOAT | GL_DOUBLE)
}

const VERTEX_POINTER: PointerRule = PointerRule {
    what: "glVertexPointer",
    sizes: &[2, 3, 4],
    takes_type: position_type,
};

const NORMAL_POINTER: PointerRule = PointerRule {
    what: "glNormalPointer",
    sizes: &[3],
    takes_type: normal_type,
};

const COLOR_POINTER: PointerRule = PointerRule {
    what: "glColorPointer",
    sizes: &[3, 4, GL_BGRA as i32],
    takes_type: color_type,
};

const SECONDARY_COLOR_POINTER: PointerRule = PointerRule {
    what: "glSecondaryColorPointer",
    sizes: &[3, GL_BGRA as i32],
    takes_type: color_type,
};

const TEX_COORD_POINTER: PointerRule = PointerRule {
    what: "glTexCoordPointer",
    sizes: &[1, 2, 3, 4],
    takes_type: position_type,
};

const FOG_COORD_POINTER: PointerRule = PointerRule {
    what: "glFogCoordPointer",
    sizes: &[1],
    takes_type: fog_coord_type,
};

impl Context {
    /// Whether a `glBegin` is open (only GL's per-vertex commands may run).
    pub fn in_begin_end(&self) -> bool {
        self.compat.immediate.is_some()
    }

    pub(crate) fn compat_only(&self, what: &str) -> GlResult<()> {
        if self.profile != Profile::Compatibility {
            return invalid_op(format!("{what} needs a compatibility profile context"));
        }
        if self.compat.immediate.is_some() {
            return invalid_op(format!("{what} between glBegin and glEnd"));
        }
        Ok(())
    }

    /// Capabilities of the fixed-function layer: `Some` when `cap` is one.
    pub(crate) fn compat_capability(&mut self, cap: GLenum, on: Option<bool>) -> Option<bool> {
        if self.profile != Profile::Compatibility {
            return None;
        }
        let unit = (self.active_texture as usize).min(FF_TEXTURE_UNITS - 1);
        if let Some(target) = FfTarget::of_capability(cap) {
            let enables = &mut self.compat.texture_enables[unit];
            match on {
                Some(true) => *enables |= target as u8,
                Some(false) => *enables &= !(target as u8),
                None => {}
            }
            return Some(*enables & target as u8 != 0);
        }
        let slot: &mut bool = match cap {
            GL_ALPHA_TEST => &mut self.compat.alpha_test,
            GL_FOG => &mut self.compat.fog_enabled,
            GL_COLOR_SUM => &mut self.compat.color_sum,
            c if is_unemulated_capability(c) => {
                let v = self.compat.caps.entry(c).or_insert(false);
                let emulated = matches!(
                    c,
                    GL_LIGHTING
                        | GL_NORMALIZE
                        | GL_COLOR_MATERIAL
                        | GL_RESCALE_NORMAL
                        | GL_POLYGON_STIPPLE
                ) || (GL_LIGHT0..GL_LIGHT0 + 8).contains(&c);
                if on == Some(true) && !*v && !emulated {
                    static ONCE: std::sync::Once = std::sync::Once::new();
                    ONCE.call_once(|| {
                        tracing::warn!(
                            cap = format!("0x{c:04X}"),
                            "fixed-function state enabled that ArenaGL stores but does not emulate (lighting, fog, stipple, texgen); logged once"
                        )
                    });
                }
                v
            }
            _ => return None,
        };
        if let Some(on) = on {
            *slot = on;
        }
        let value = *slot;
        if cap == GL_COLOR_MATERIAL && on == Some(true) {
            self.track_color_material();
        }
        Some(value)
    }

    /// `glGet*` of fixed-function state (None: not one of these names).
    pub(crate) fn compat_get(&mut self, pname: GLenum) -> Option<Value> {
        if self.profile != Profile::Compatibility {
            return None;
        }
        let floats = |m: &[f32]| Value::Floats(m.iter().map(|&v| f64::from(v)).collect());
        let current = |c: &Self, a: FfArray| -> Vec<f64> {
            c.current_attribs[a.slot()]
                .words
                .iter()
                .map(|&w| f64::from(f32::from_bits(w)))
                .collect()
        };
        let unit = (self.active_texture as usize).min(FF_TEXTURE_UNITS - 1);
        let m = &self.compat.matrices;
        Some(match pname {
            GL_MATRIX_MODE => Value::Ints(vec![i64::from(m.mode)]),
            GL_MODELVIEW_MATRIX => floats(&m.modelview()),
            GL_PROJECTION_MATRIX => floats(&m.projection()),
            GL_TEXTURE_MATRIX => floats(&m.texture(unit)),
            GL_MODELVIEW_STACK_DEPTH => Value::Ints(vec![m.modelview.len() as i64]),
            GL_PROJECTION_STACK_DEPTH => Value::Ints(vec![m.projection.len() as i64]),
            GL_TEXTURE_STACK_DEPTH => Value::Ints(vec![m.texture[unit].len() as i64]),
            GL_MAX_MODELVIEW_STACK_DEPTH
            | GL_MAX_PROJECTION_STACK_DEPTH
            | GL_MAX_TEXTURE_STACK_DEPTH => Value::Ints(vec![matrix::STACK_DEPTH as i64]),
            GL_MAX_TEXTURE_COORDS | GL_MAX_TEXTURE_UNITS => {
                Value::Ints(vec![FF_TEXTURE_UNITS as i64])
            }
            GL_CLIENT_ACTIVE_TEXTURE => Value::Ints(vec![i64::from(
                GL_TEXTURE0 + self.compat.client_active_texture,
            )]),
            GL_CURRENT_COLOR => Value::Colors(current(self, FfArray::Color)),
            GL_CURRENT_SECONDARY_COLOR => Value::Colors(current(self, FfArray::SecondaryColor)),
            GL_CURRENT_NORMAL => Value::Floats(current(self, FfArray::Normal)[..3].to_vec()),
            GL_CURRENT_TEXTURE_COORDS => {
                Value::Floats(current(self, FfArray::TexCoord(unit as u32)))
            }
            GL_ALPHA_TEST_FUNC => Value::Ints(vec![i64::from(self.compat.alpha_func)]),
            GL_ALPHA_TEST_REF => Value::Floats(vec![f64::from(self.compat.alpha_ref)]),
            GL_SHADE_MODEL => Value::Ints(vec![i64::from(self.compat.shade_model)]),
            GL_CURRENT_RASTER_POSITION => {
                Value::Floats(self.compat.raster.0.iter().map(|&v| f64::from(v)).collect())
            }
            GL_CURRENT_RASTER_POSITION_VALID => Value::Bools(vec![self.compat.raster.1]),
            GL_VERTEX_ARRAY
            | GL_NORMAL_ARRAY
            | GL_COLOR_ARRAY
            | GL_SECONDARY_COLOR_ARRAY
            | GL_FOG_COORD_ARRAY
            | GL_TEXTURE_COORD_ARRAY => {
                let a = client_state_array(pname, self.compat.client_active_texture).ok()?;
                Value::Bools(vec![self.current_vao()?.attribs[a.slot()].enabled])
            }
            GL_VERTEX_ARRAY_SIZE | GL_VERTEX_ARRAY_TYPE | GL_VERTEX_ARRAY_STRIDE => {
                let a = self.current_vao()?.attribs[FfArray::Vertex.slot()];
                Value::Ints(vec![match pname {
                    GL_VERTEX_ARRAY_SIZE => i64::from(a.size),
                    GL_VERTEX_ARRAY_TYPE => i64::from(a.ty),
                    _ => i64::from(a.stride),
                }])
            }
            cap => Value::Bools(vec![self.compat_capability(cap, None)?]),
        })
    }

    /// `glVertexPointer`, `glColorPointer`, … (`normalized` as GL defines it for the array):
    /// `rule` says what the command accepts.
    fn ff_pointer(
        &mut self,
        array: FfArray,
        rule: &PointerRule,
        (size, ty): (i32, GLenum),
        stride: i32,
        pointer: usize,
    ) {
        let r = (|| {
            let what = rule.what;
            self.compat_only(what)?;
            if !rule.sizes.contains(&size) {
                return invalid_value(format!("{what} size {size}"));
            }
            if !(rule.takes_type)(ty) {
                return invalid_enum(&format!("{what} type"), ty);
            }
            if stride < 0 {
                return invalid_value(format!("{what} stride {stride}"));
            }
            // Packed 2_10_10_10 arrays hold four components in a word (normals read xyz of it).
            let packed = matches!(ty, GL_INT_2_10_10_10_REV | GL_UNSIGNED_INT_2_10_10_10_REV);
            let size = match (packed, array) {
                (true, FfArray::Normal) => 4,
                (true, _) if size != 4 && size != GL_BGRA as i32 => {
                    return invalid_op(format!("{what}: a packed type needs size 4, not {size}"))
                }
                _ => size,
            };
            let normalized = matches!(
                array,
                FfArray::Color | FfArray::SecondaryColor | FfArray::Normal
            ) && !matches!(ty, GL_FLOAT | GL_DOUBLE | GL_HALF_FLOAT);
            let buffer = self.array_buffer;
            let a = &mut self.current_vao_mut()?.attribs[array.slot()];
            *a = AttribArray {
                divisor: 0,
                ..a.pointed_at(
                    (size, ty),
                    (normalized, false),
                    stride,
                    (buffer, pointer as u64),
                )
            };
            Ok(())
        })();
        self.record(r);
    }

    /// `glVertexPointer`.
    ///
    /// # Safety
    /// In a compatibility context with no buffer bound to `GL_ARRAY_BUFFER`, `pointer` is the
    /// address of a client array (GL's client-array contract): until the array is specified
    /// again, every draw that reads it needs the elements it reads to be readable memory for
    /// that draw's duration. With a buffer bound it is an offset into the buffer and may be
    /// anything.
    pub unsafe fn vertex_pointer(&mut self, size: i32, ty: GLenum, stride: i32, pointer: usize) {
        self.ff_pointer(
            FfArray::Vertex,
            &VERTEX_POINTER,
            (size, ty),
            stride,
            pointer,
        );
    }

    /// `glNormalPointer`.
    ///
    /// # Safety
    /// In a compatibility context with no buffer bound to `GL_ARRAY_BUFFER`, `pointer` is the
    /// address of a client array (GL's client-array contract): until the array is specified
    /// again, every draw that reads it needs the elements it reads to be readable memory for
    /// that draw's duration. With a buffer bound it is an offset into the buffer and may be
    /// anything.
    pub unsafe fn normal_pointer(&mut self, ty: GLenum, stride: i32, pointer: usize) {
        self.ff_pointer(FfArray::Normal, &NORMAL_POINTER, (3, ty), stride, pointer);
    }

    /// `glColorPointer` / `glSecondaryColorPointer` (`secondary`).
    ///
    /// # Safety
    /// In a compatibility context with no buffer bound to `GL_ARRAY_BUFFER`, `pointer` is the
    /// address of a client array (GL's client-array contract): until the array is specified
    /// again, every draw that reads it needs the elements it reads to be readable memory for
    /// that draw's duration. With a buffer bound it is an offset into the buffer and may be
    /// anything.
    pub unsafe fn color_pointer(
        &mut self,
        secondary: bool,
        size: i32,
        ty: GLenum,
        stride: i32,
        pointer: usize,
    ) {
        let (array, rule) = if secondary {
            (FfArray::SecondaryColor, &SECONDARY_COLOR_POINTER)
        } else {
            (FfArray::Color, &COLOR_POINTER)
        };
        self.ff_pointer(array, rule, (size, ty), stride, pointer);
    }

    /// `glTexCoordPointer` (for the client active texture).
    ///
    /// # Safety
    /// In a compatibility context with no buffer bound to `GL_ARRAY_BUFFER`, `pointer` is the
    /// address of a client array (GL's client-array contract): until the array is specified
    /// again, every draw that reads it needs the elements it reads to be readable memory for
    /// that draw's duration. With a buffer bound it is an offset into the buffer and may be
    /// anything.
    pub unsafe fn tex_coord_pointer(&mut self, size: i32, ty: GLenum, stride: i32, pointer: usize) {
        let array = FfArray::TexCoord(self.compat.client_active_texture);
        self.ff_pointer(array, &TEX_COORD_POINTER, (size, ty), stride, pointer);
    }

    /// `glFogCoordPointer`.
    ///
    /// # Safety
    /// In a compatibility context with no buffer bound to `GL_ARRAY_BUFFER`, `pointer` is the
    /// address of a client array (GL's client-array contract): until the array is specified
    /// again, every draw that reads it needs the elements it reads to be readable memory for
    /// that draw's duration. With a buffer bound it is an offset into the buffer and may be
    /// anything.
    pub unsafe fn fog_coord_pointer(&mut self, ty: GLenum, stride: i32, pointer: usize) {
        self.ff_pointer(
            FfArray::FogCoord,
            &FOG_COORD_POINTER,
            (1, ty),
            stride,
            pointer,
        );
    }

    /// `glEnableClientState` / `glDisableClientState`.
    pub fn client_state(&mut self, array: GLenum, on: bool) {
        let r = (|| {
            self.compat_only("glEnableClientState")?;
            let a = client_state_array(array, self.compat.client_active_texture)?;
            self.current_vao_mut()?.attribs[a.slot()].enabled = on;
            Ok(())
        })();
        self.record(r);
    }

    /// `glClientActiveTexture`.
    pub fn client_active_texture(&mut self, texture: GLenum) {
        let r = (|| {
            self.compat_only("glClientActiveTexture")?;
            let i = texture.wrapping_sub(GL_TEXTURE0);
            if i as usize >= FF_TEXTURE_UNITS {
                return invalid_enum("glClientActiveTexture texture", texture);
            }
            self.compat.client_active_texture = i;
            Ok(())
        })();
        self.record(r);
    }

    /// `glColor*`, `glNormal*`, `glTexCoord*`, `glMultiTexCoord*`, `glSecondaryColor*`,
    /// `glFogCoord*`: sets a current value (allowed inside `glBegin`/`glEnd`).
    pub fn ff_current(&mut self, array: FfArray, v: [f32; 4]) {
        if self.compile(ListCommand::Current(array, v)) {
            return;
        }
        if self.profile != Profile::Compatibility {
            let r: GlResult<()> =
                invalid_op("fixed-function current values need a compatibility profile context");
            self.record(r);
            return;
        }
        if let (FfArray::TexCoord(unit), Some(im)) = (array, self.compat.immediate.as_mut()) {
            let units = unit as usize + 1;
            if units > im.tex_units && units <= FF_TEXTURE_UNITS {
                let current: Vec<[f32; 4]> = (0..units)
                    .map(|u| {
                        self.current_attribs[FfArray::TexCoord(u as u32).slot()]
                            .words
                            .map(f32::from_bits)
                    })
                    .collect();
                if !im.widen(units, &current) {
                    let r: GlResult<()> = Err(GlError::Memory(
                        arenagl_memory::MemoryError::InvalidRequest(
                            "no host memory for the immediate-mode vertices".into(),
                        ),
                    ));
                    self.record(r);
                    return;
                }
            }
        }
        self.current_attribs[array.slot()].words = v.map(f32::to_bits);
        if array == FfArray::Color {
            self.track_color_material();
        }
    }

    /// `glVertexP*`, `glColorP*`, `glNormalP*`, `glTexCoordP*`, … (GL 3.3 compatibility): `n`
    /// components of a packed 2_10_10_10_REV word as a current value, or as a vertex for
    /// `FfArray::Vertex`. Colours and normals are normalized, positions and coordinates are not.
    pub fn ff_packed(&mut self, array: FfArray, n: usize, ty: GLenum, word: u32) {
        let normalized = matches!(
            array,
            FfArray::Color | FfArray::SecondaryColor | FfArray::Normal
        );
        let Some(v) = crate::gl::objects::vertex_array::unpack_2_10_10_10(ty, n, normalized, word)
        else {
            let r: GlResult<()> = invalid_enum("packed vertex data type", ty);
            self.record(r);
            return;
        };
        match array {
            FfArray::Vertex => self.vertex(v),
            a => self.ff_current(a, v),
        }
    }

    /// `glMultiTexCoord*`: `target` is `GL_TEXTURE0 + i`.
    pub fn multi_tex_coord(&mut self, target: GLenum, v: [f32; 4]) {
        if self.compile(ListCommand::MultiTexCoord(target, v)) {
            return;
        }
        let i = target.wrapping_sub(GL_TEXTURE0);
        if i as usize >= FF_TEXTURE_UNITS {
            let r: GlResult<()> = invalid_enum("glMultiTexCoord target", target);
            self.record(r);
            return;
        }
        self.ff_current(FfArray::TexCoord(i), v);
    }

    /// `glVertex*`: inside `glBegin`/`glEnd`, emits a vertex with the current values.
    pub fn vertex(&mut self, v: [f32; 4]) {
        if self.compile(ListCommand::Vertex(v)) {
            return;
        }
        if self.profile != Profile::Compatibility {
            let r: GlResult<()> = invalid_op("glVertex needs a compatibility profile context");
            self.record(r);
            return;
        }
        let attribs = &self.current_attribs;
        let cur = |a: FfArray| attribs[a.slot()].words.map(f32::from_bits);
        let (color, normal) = (cur(FfArray::Color), cur(FfArray::Normal));
        let r = match self.compat.immediate.as_mut() {
            // Outside glBegin/glEnd a vertex has no effect (GL leaves it undefined).
            None => Ok(()),
            Some(im)
                if im.data.len() / immediate_floats(im.tex_units) >= MAX_IMMEDIATE_VERTICES =>
            {
                Err(GlError::InvalidOperation(format!(
                    "more than {MAX_IMMEDIATE_VERTICES} vertices between glBegin and glEnd"
                )))
            }
            Some(im) => {
                im.data.extend_from_slice(&v);
                im.data.extend_from_slice(&color);
                im.data.extend_from_slice(&normal);
                for unit in 0..im.tex_units {
                    im.data
                        .extend_from_slice(&cur(FfArray::TexCoord(unit as u32)));
                }
                Ok(())
            }
        };
        self.record(r);
    }

    /// `glBegin`.
    pub fn begin(&mut self, mode: GLenum) {
        if self.compile(ListCommand::Begin(mode)) {
            return;
        }
        let r = (|| {
            self.compat_only("glBegin")?;
            let valid = mode <= GL_POLYGON
                || matches!(
                    mode,
                    GL_LINES_ADJACENCY
                        | GL_LINE_STRIP_ADJACENCY
                        | GL_TRIANGLES_ADJACENCY
                        | GL_TRIANGLE_STRIP_ADJACENCY
                );
            if !valid {
                return invalid_enum("glBegin mode", mode);
            }
            if self.compat.immediate.is_some() {
                return invalid_op("glBegin between glBegin and glEnd");
            }
            // What the draw at glEnd would refuse, glBegin refuses, and no primitive starts.
            self.check_draw_state()?;
            self.compat.immediate = Some(Immediate {
                mode,
                data: Vec::new(),
                tex_units: 1,
            });
            Ok(())
        })();
        self.record(r);
    }

    /// `glEnd`: draws what was collected.
    pub fn end(&mut self) {
        if self.compile(ListCommand::End) {
            return;
        }
        let Some(im) = self.compat.immediate.take() else {
            let r: GlResult<()> = invalid_op("glEnd without glBegin");
            self.record(r);
            return;
        };
        self.draw_immediate(im.mode, &im.data, im.tex_units);
    }

    /// Draws triangles of (clip position, colour) vertices as immediate mode does (the pixel
    /// rectangles of `glBitmap`/`glDrawPixels`).
    pub(crate) fn draw_immediate_triangles(
        &mut self,
        vertices: &[([f32; 4], [f32; 4])],
    ) -> GlResult<()> {
        let mut data = Vec::new();
        data.try_reserve_exact(vertices.len() * immediate_floats(1))
            .map_err(|_| {
                GlError::Memory(arenagl_memory::MemoryError::InvalidRequest(
                    "no host memory for the pixel rectangle's vertices".into(),
                ))
            })?;
        for (p, c) in vertices {
            data.extend_from_slice(p);
            data.extend_from_slice(c);
            // Normal (0, 0, 1), texture coordinate (0, 0, 0, 1).
            data.extend_from_slice(&[0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
        }
        self.draw_immediate(GL_TRIANGLES, &data, 1);
        Ok(())
    }

    /// Draws `data` (vertices of [`immediate_floats`]`(tex_units)`) as client arrays.
    fn draw_immediate(&mut self, mode: GLenum, data: &[f32], tex_units: usize) {
        let floats = immediate_floats(tex_units);
        let count = data.len() / floats;
        if count == 0 {
            return;
        }
        let stride = (floats * 4) as i32;
        let base = data.as_ptr() as usize;
        let array = |size: i32, float_offset: usize| AttribArray {
            enabled: true,
            size,
            ty: GL_FLOAT,
            normalized: false,
            integer: false,
            long: false,
            stride,
            zero_stride: false,
            offset: (base + float_offset * 4) as u64,
            buffer: 0,
            divisor: 0,
        };
        let mut vao = VertexArray::default();
        vao.attribs[FfArray::Vertex.slot()] = array(4, 0);
        vao.attribs[FfArray::Color.slot()] = array(4, 4);
        vao.attribs[FfArray::Normal.slot()] = array(3, 8);
        for unit in 0..tex_units {
            vao.attribs[FfArray::TexCoord(unit as u32).slot()] =
                array(4, IMMEDIATE_HEAD + 4 * unit);
        }
        self.vao_override = Some(std::sync::Arc::new(vao));
        // SAFETY: the override's client arrays point into `data`, which holds every vertex
        // the draw reads and outlives it (the draw copies them into the frame's stream); the
        // draw is not indexed.
        unsafe {
            self.draw(crate::gl::draw::DrawCall {
                mode,
                first: 0,
                count: count as i32,
                instances: 1,
                indexed: None,
                ..Default::default()
            })
        };
        self.vao_override = None;
    }

    /// `glRasterPos*`: `v` through the matrices and the viewport into window coordinates; a
    /// position outside the clip volume makes the raster position invalid.
    pub fn raster_pos(&mut self, v: [f32; 4]) {
        let r = self.compat_only("glRasterPos").map(|()| {
            self.compat.raster_color = self.current_attribs[FfArray::Color.slot()]
                .words
                .map(f32::from_bits);
            let m = &self.compat.matrices;
            let mvp = matrix::mul(&m.projection(), &m.modelview());
            let clip: Vec<f64> = (0..4)
                .map(|r| {
                    (0..4)
                        .map(|c| f64::from(mvp[c * 4 + r]) * f64::from(v[c]))
                        .sum()
                })
                .collect();
            let w = clip[3];
            let inside = w > 0.0 && (0..3).all(|i| clip[i].abs() <= w);
            if !inside {
                self.compat.raster.1 = false;
                return;
            }
            let vp = self.pipeline_state.viewports.rect[0];
            let [n, f] = self.pipeline_state.viewports.depth_range[0];
            let ndc = [clip[0] / w, clip[1] / w, clip[2] / w];
            self.compat.raster = (
                [
                    (f64::from(vp.x) + (ndc[0] + 1.0) * 0.5 * f64::from(vp.width)) as f32,
                    (f64::from(vp.y) + (ndc[1] + 1.0) * 0.5 * f64::from(vp.height)) as f32,
                    (n + (ndc[2] + 1.0) * 0.5 * (f - n)) as f32,
                    w as f32,
                ],
                true,
            );
        });
        self.record(r);
    }

    /// `glWindowPos*`: the raster position in window coordinates directly.
    pub fn window_pos(&mut self, x: f32, y: f32, z: f32) {
        let r = self.compat_only("glWindowPos").map(|()| {
            self.compat.raster_color = self.current_attribs[FfArray::Color.slot()]
                .words
                .map(f32::from_bits);
            let [n, f] = self.pipeline_state.viewports.depth_range[0];
            let depth = (n + f64::from(z.clamp(0.0, 1.0)) * (f - n)) as f32;
            self.compat.raster = ([x, y, depth, 1.0], true);
        });
        self.record(r);
    }

    /// `glMatrixMode`.
    pub fn matrix_mode(&mut self, mode: GLenum) {
        if self.compile(ListCommand::MatrixMode(mode)) {
            return;
        }
        let r = self
            .compat_only("glMatrixMode")
            .and_then(|()| self.compat.matrices.set_mode(mode));
        self.record(r);
    }

    fn texture_unit(&self) -> usize {
        self.active_texture as usize
    }

    /// `glLoadIdentity`, `glLoadMatrix*` (`m`), `glLoadTransposeMatrix*`.
    pub fn load_matrix(&mut self, m: Option<Mat4>, transpose: bool) {
        if self.compile(ListCommand::LoadMatrix(m, transpose)) {
            return;
        }
        let r = self.compat_only("glLoadMatrix").map(|()| {
            let m = m.unwrap_or(matrix::IDENTITY);
            let unit = self.texture_unit();
            *self.compat.matrices.top(unit) = if transpose { matrix::transpose(&m) } else { m };
        });
        self.record(r);
    }

    /// `glMultMatrix*`, `glMultTransposeMatrix*`.
    pub fn mult_matrix(&mut self, m: Mat4, transpose: bool) {
        if self.compile(ListCommand::MultMatrix(m, transpose)) {
            return;
        }
        let r = self.compat_only("glMultMatrix").map(|()| {
            let unit = self.texture_unit();
            let m = if transpose { matrix::transpose(&m) } else { m };
            self.compat.matrices.multiply(unit, &m);
        });
        self.record(r);
    }

    /// `glPushMatrix` (`push`) / `glPopMatrix`.
    pub fn push_pop_matrix(&mut self, push: bool) {
        if self.compile(ListCommand::PushPopMatrix(push)) {
            return;
        }
        let r = self.compat_only("glPushMatrix").and_then(|()| {
            let unit = self.texture_unit();
            if push {
                self.compat.matrices.push(unit)
            } else {
                self.compat.matrices.pop(unit)
            }
        });
        self.record(r);
    }

    /// `glOrtho` (`frustum` false) / `glFrustum`.
    pub fn ortho_frustum(&mut self, frustum: bool, v: [f64; 6]) {
        if self.compile(ListCommand::OrthoFrustum(frustum, v)) {
            return;
        }
        let r = self.compat_only("glOrtho").and_then(|()| {
            let m = if frustum {
                matrix::frustum(v[0], v[1], v[2], v[3], v[4], v[5])?
            } else {
                matrix::ortho(v[0], v[1], v[2], v[3], v[4], v[5])?
            };
            let unit = self.texture_unit();
            self.compat.matrices.multiply(unit, &m);
            Ok(())
        });
        self.record(r);
    }

    /// `glTranslate*`, `glScale*` (`scale`).
    pub fn translate_scale(&mut self, scale: bool, x: f64, y: f64, z: f64) {
        if self.compile(ListCommand::TranslateScale(scale, [x, y, z])) {
            return;
        }
        let r = self.compat_only("glTranslate").map(|()| {
            let m = if scale {
                matrix::scale(x, y, z)
            } else {
                matrix::translate(x, y, z)
            };
            let unit = self.texture_unit();
            self.compat.matrices.multiply(unit, &m);
        });
        self.record(r);
    }

    /// `glRotate*`.
    pub fn rotate(&mut self, angle: f64, x: f64, y: f64, z: f64) {
        if self.compile(ListCommand::Rotate([angle, x, y, z])) {
            return;
        }
        let r = self.compat_only("glRotate").map(|()| {
            let unit = self.texture_unit();
            self.compat
                .matrices
                .multiply(unit, &matrix::rotate(angle, x, y, z));
        });
        self.record(r);
    }

    /// `glAlphaFunc`.
    pub fn alpha_func(&mut self, func: GLenum, reference: f32) {
        if self.compile(ListCommand::AlphaFunc(func, reference)) {
            return;
        }
        let r = self.compat_only("glAlphaFunc").and_then(|()| {
            crate::gl::vk::conv::compare_op(func)?;
            self.compat.alpha_func = func;
            self.compat.alpha_ref = reference.clamp(0.0, 1.0);
            Ok(())
        });
        self.record(r);
    }

    /// `glShadeModel` (stored; colours are always interpolated).
    pub fn shade_model(&mut self, mode: GLenum) {
        if self.compile(ListCommand::ShadeModel(mode)) {
            return;
        }
        let r = self.compat_only("glShadeModel").and_then(|()| match mode {
            GL_FLAT | GL_SMOOTH => {
                self.compat.shade_model = mode;
                Ok(())
            }
            m => invalid_enum("glShadeModel mode", m),
        });
        self.record(r);
    }

    /// `glTexEnv{i,f}{,v}(GL_TEXTURE_ENV, pname, values)` for the active unit (four values for
    /// `GL_TEXTURE_ENV_COLOR`, one otherwise).
    pub fn tex_env(&mut self, target: GLenum, pname: GLenum, values: &[f32]) {
        let r = self.compat_only("glTexEnv").and_then(|()| {
            if target != GL_TEXTURE_ENV {
                return invalid_enum("glTexEnv target", target);
            }
            let unit = self.texture_unit().min(FF_TEXTURE_UNITS - 1);
            if pname == GL_TEXTURE_ENV_COLOR {
                let [r, g, b, a] = values else {
                    return invalid_value("GL_TEXTURE_ENV_COLOR takes four values");
                };
                self.compat.env_color[unit] = [*r, *g, *b, *a].map(|v| v.clamp(0.0, 1.0));
                return Ok(());
            }
            let Some(&v) = values.first() else {
                return invalid_value("glTexEnv with no value");
            };
            self.compat.tex_env[unit].set(pname, v, FF_TEXTURE_UNITS)
        });
        self.record(r);
    }

    /// `glGetTexEnv{i,f}v`.
    pub fn get_tex_env(&mut self, target: GLenum, pname: GLenum) -> Option<Value> {
        let r = self.compat_only("glGetTexEnv").and_then(|()| {
            if target != GL_TEXTURE_ENV {
                return invalid_enum("glGetTexEnv target", target);
            }
            let unit = self.texture_unit().min(FF_TEXTURE_UNITS - 1);
            if pname == GL_TEXTURE_ENV_COLOR {
                let c = self.compat.env_color[unit];
                return Ok(Value::Colors(c.iter().map(|&v| f64::from(v)).collect()));
            }
            self.compat.tex_env[unit].get(pname)
        });
        self.record(r)
    }

    /// `glFog{i,f}{,v}`.
    pub fn fog(&mut self, pname: GLenum, values: &[f32]) {
        let r = self
            .compat_only("glFog")
            .and_then(|()| self.compat.fog.set(pname, values));
        self.record(r);
    }

    /// The base format class of unit `unit`'s texture of `target`, or None when that texture
    /// is incomplete. GL 2.1 §3.8.10: a unit whose texture is incomplete acts as if texturing
    /// were disabled for it (the fragment colour passes through), unlike a shader's sampler,
    /// which reads (0, 0, 0, 1).
    fn ff_texture_base(&self, unit: usize, target: FfTarget) -> Option<TexBase> {
        let t = target.tex_target();
        let name = self
            .texture_units
            .get(unit)
            .map_or(0, |bindings| bindings[t.index()]);
        let sampler = self
            .sampler_units
            .get(unit)
            .and_then(|&n| self.samplers.get(n));
        let texture = if name == 0 {
            self.default_textures.get(t.index())
        } else {
            self.textures.get(name)
        };
        let tex = texture.filter(|tex| tex.is_complete(sampler))?;
        Some(TexBase::of(tex.storage.as_ref()?.info.base).with_depth_mode(tex.params.depth_mode))
    }

    /// The generated program for the current fixed-function state (a draw with no program).
    pub(crate) fn ff_program(&mut self) -> GlResult<(Arc<Linked>, Vec<Vec<u32>>)> {
        let mut units = [None; FF_TEXTURE_UNITS];
        for (i, u) in units.iter_mut().enumerate() {
            *u = FfTarget::sampled(self.compat.texture_enables[i]).and_then(|target| {
                let base = self.ff_texture_base(i, target)?;
                Some((self.compat.tex_env[i], target, base))
            });
        }
        let key = FfKey {
            units,
            fog: self.compat.fog_enabled.then_some(self.compat.fog.mode),
            color_sum: self.compat.color_sum,
            lighting: self.lighting_key(),
            flat: self.compat.shade_model == GL_FLAT,
        };
        if let Some(p) = self.compat.programs.get(&key) {
            return Ok((p.linked.clone(), p.sampler_units.clone()));
        }
        let fragment = ff_fragment_source(&key);
        let reads = crate::glsl::legacy::upgrade(
            crate::glsl::Stage::Fragment,
            &fragment,
            Varyings::default(),
        )
        .varyings;
        let vertex = ff_vertex_source(reads, key.lighting.as_ref().map(lighting::vertex_glsl));
        let (vertex, fragment) = if key.flat {
            flat_colours(&vertex, &fragment, reads)
        } else {
            (vertex, fragment)
        };
        let units = vec![
            (crate::glsl::Stage::Vertex, vertex),
            (crate::glsl::Stage::Fragment, fragment),
        ];
        let (linked, _) = program::link(
            &self.device,
            &units,
            &HashMap::new(),
            crate::gl::objects::vertex_array::MAX_VERTEX_ATTRIBS,
        )
        .map_err(|e| e.internal("the fixed-function program failed to link"))?;
        let linked = Arc::new(linked);
        // `arena_ff_texN` samples unit N.
        let mut sampler_units = vec![vec![0]; linked.samplers.len()];
        for u in &linked.uniforms {
            if let (UniformStorage::Sampler(i), Some(n)) = (
                u.storage,
                u.name
                    .strip_prefix("arena_ff_tex")
                    .and_then(|n| n.parse::<u32>().ok()),
            ) {
                if let Some(slot) = sampler_units.get_mut(i) {
                    *slot = vec![n];
                }
            }
        }
        self.compat.programs.insert(
            key,
            FfProgram {
                linked: linked.clone(),
                sampler_units: sampler_units.clone(),
            },
        );
        Ok((linked, sampler_units))
    }

    /// `GL_DEPTH_TEXTURE_MODE` (as `texture::depth_mode_index`) of the texture the sampler
    /// uniform `name` of `linked` reads (element 0 of an array), at the units `sampler_units`
    /// gives; luminance (0) when there is no such sampler or texture.
    fn sampler_depth_mode(&self, linked: &Linked, sampler_units: &[Vec<u32>], name: &str) -> i32 {
        let element0 = format!("{name}[0]");
        let Some(index) = linked.uniforms.iter().find_map(|u| match u.storage {
            UniformStorage::Sampler(i) if u.name == name || u.name == element0 => Some(i),
            _ => None,
        }) else {
            return 0;
        };
        let unit = sampler_units
            .get(index)
            .and_then(|u| u.first())
            .copied()
            .unwrap_or(0) as usize;
        let Some(target) = linked
            .samplers
            .get(index)
            .and_then(|s| TexTarget::of_sampler(s.ty.dim))
        else {
            return 0;
        };
        let texture = match self
            .texture_units
            .get(unit)
            .map_or(0, |b| b[target.index()])
        {
            0 => self.default_textures.get(target.index()),
            n => self.textures.get(n),
        };
        texture.map_or(0, |t| {
            crate::gl::objects::texture::depth_mode_index(t.params.depth_mode)
        })
    }

    /// Writes the built-in uniforms `linked` declares (matrices, the alpha reference, the
    /// legacy shadow lookups' depth modes) into its default-block bytes; `sampler_units` are
    /// the program's sampler bindings.
    pub(crate) fn fill_ff_uniforms(
        &self,
        linked: &Linked,
        sampler_units: &[Vec<u32>],
        data: &mut [u8],
    ) {
        let m = &self.compat.matrices;
        let mv = m.modelview();
        let p = m.projection();
        for u in &linked.ff_uniforms {
            let at = u.offset as usize;
            if let Some(sampler) = u.name.strip_prefix(crate::glsl::legacy::DEPTH_MODE_PREFIX) {
                let mode = self.sampler_depth_mode(linked, sampler_units, sampler);
                if let Some(dst) = data.get_mut(at..at + 4) {
                    dst.copy_from_slice(&mode.to_ne_bytes());
                }
                continue;
            }
            let stride = u.matrix_stride.max(16) as usize;
            let vec4 = |data: &mut [u8], at: usize, v: [f32; 4]| {
                for (k, x) in v.iter().enumerate() {
                    if let Some(dst) = data.get_mut(at + 4 * k..at + 4 * k + 4) {
                        dst.copy_from_slice(&x.to_ne_bytes());
                    }
                }
            };
            match u.name.as_str() {
                "PolygonStipple" => {
                    let stride = u.array_stride.max(16) as usize;
                    for (i, rows) in self.compat.stipple.0.chunks_exact(4).enumerate() {
                        // Row words, stored bit for bit (the uniform is `uvec4`).
                        let w = |k: usize| f32::from_bits(rows[k]);
                        vec4(data, at + i * stride, [w(0), w(1), w(2), w(3)]);
                    }
                    continue;
                }
                "AlphaRef" => {
                    if let Some(dst) = data.get_mut(at..at + 4) {
                        dst.copy_from_slice(&self.compat.alpha_ref.to_ne_bytes());
                    }
                    continue;
                }
                "EnvColor" => {
                    let stride = u.array_stride.max(16) as usize;
                    for i in 0..(u.count as usize).min(FF_TEXTURE_UNITS) {
                        vec4(data, at + i * stride, self.compat.env_color[i]);
                    }
                    continue;
                }
                "FogColor" => {
                    vec4(data, at, self.compat.fog.color);
                    continue;
                }
                "LightAmbient" | "LightDiffuse" | "LightSpecular" | "LightPosition"
                | "LightSpot" | "LightAttenuation" => {
                    let stride = u.array_stride.max(16) as usize;
                    let lights = &self.compat.lighting.lights;
                    for (i, l) in lights.iter().enumerate().take(u.count as usize) {
                        let v = match u.name.as_str() {
                            "LightAmbient" => l.ambient,
                            "LightDiffuse" => l.diffuse,
                            "LightSpecular" => l.specular,
                            "LightPosition" => l.position,
                            "LightSpot" => l.spot,
                            _ => l.attenuation,
                        };
                        vec4(data, at + i * stride, v);
                    }
                    continue;
                }
                "MatAmbient" | "MatDiffuse" | "MatSpecular" | "MatEmission" | "MatShininess"
                | "SceneAmbient" => {
                    let l = &self.compat.lighting;
                    let v = match u.name.as_str() {
                        "MatAmbient" => l.material.ambient,
                        "MatDiffuse" => l.material.diffuse,
                        "MatSpecular" => l.material.specular,
                        "MatEmission" => l.material.emission,
                        "MatShininess" => [l.material.shininess, 0.0, 0.0, 0.0],
                        _ => l.scene_ambient,
                    };
                    vec4(data, at, v);
                    continue;
                }
                "FogParams" => {
                    let f = &self.compat.fog;
                    vec4(data, at, [f.start, f.end, f.density, 0.0]);
                    continue;
                }
                _ => {}
            }
            if u.name == "NormalMatrix" {
                let n = matrix::normal_matrix(&mv);
                let mut full = matrix::IDENTITY;
                for (c, col) in n.iter().enumerate() {
                    full[c * 4..c * 4 + 3].copy_from_slice(col);
                }
                write_matrix(data, at, stride, &full, 3, 3);
                continue;
            }
            let (base, variant) = match u.name.find("Matrix") {
                Some(i) => u.name.split_at(i + "Matrix".len()),
                None => continue,
            };
            let apply = |x: Mat4| match variant {
                "Inverse" => matrix::inverse(&x),
                "Transpose" => matrix::transpose(&x),
                "InverseTranspose" => matrix::transpose(&matrix::inverse(&x)),
                _ => x,
            };
            match base {
                "ModelViewMatrix" => write_matrix(data, at, stride, &apply(mv), 4, 4),
                "ProjectionMatrix" => write_matrix(data, at, stride, &apply(p), 4, 4),
                "ModelViewProjectionMatrix" => {
                    write_matrix(data, at, stride, &apply(matrix::mul(&p, &mv)), 4, 4)
                }
                "TextureMatrix" => {
                    let array_stride = u.array_stride.max(64) as usize;
                    for i in 0..u.count.min(matrix::TEXTURE_STACKS as u32) as usize {
                        let t = apply(m.texture(i));
                        write_matrix(data, at + i * array_stride, stride, &t, 4, 4);
                    }
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::glsl::legacy::upgrade;
    use crate::glsl::Stage;

    #[test]
    fn flat_colours_pass_through_flat_varyings_the_upgrader_keeps() {
        let key = FfKey {
            units: [None; FF_TEXTURE_UNITS],
            fog: None,
            color_sum: true,
            lighting: None,
            flat: true,
        };
        let fragment = ff_fragment_source(&key);
        let reads = upgrade(Stage::Fragment, &fragment, Varyings::default()).varyings;
        assert!(reads.contains(Varyings::FRONT_COLOR.union(Varyings::FRONT_SECONDARY)));
        let (vs, fs) = flat_colours(&ff_vertex_source(reads, None), &fragment, reads);
        let vs = upgrade(Stage::Vertex, &vs, Varyings::default());
        let fs = upgrade(Stage::Fragment, &fs, Varyings::default());
        for name in ["arena_flat_Color", "arena_flat_SecondaryColor"] {
            assert!(
                vs.source.contains(&format!("flat out vec4 {name};")),
                "{}",
                vs.source
            );
            assert!(
                fs.source.contains(&format!("flat in vec4 {name};")),
                "{}",
                fs.source
            );
        }
        // Only the attribute is read; no smooth built-in colour is left between the stages.
        assert_eq!(fs.varyings, Varyings::default(), "{}", fs.source);
        assert!(
            vs.source.contains("arena_flat_Color = arena_ff_Color;"),
            "{}",
            vs.source
        );
    }
}
