//! The tessellation layout of a linked program, read from its SPIR-V: what
//! `glGetProgramiv(GL_TESS_CONTROL_OUTPUT_VERTICES, GL_TESS_GEN_*)` report and what a pipeline
//! needs to know about its patches.
//!
//! Design decisions:
//! - Read from the execution modes glslang wrote (`OpExecutionMode`), the ground truth: the
//!   control stage's `OutputVertices`, the evaluation stage's domain, spacing, vertex order and
//!   point mode. glslang gives an evaluation stage that declares no spacing or order GL's
//!   defaults (equal spacing, counter-clockwise), so a missing one here means "not declared".
//! - Either stage may declare a layout in SPIR-V; the evaluation stage's wins, as GL says the
//!   generator's layout is the evaluation shader's.

use super::spirv::{decoration as deco, Module, StorageClass, Type};
use super::{CompileError, Stage};

/// SPIR-V execution modes of tessellation.
mod mode {
    pub const SPACING_EQUAL: u32 = 1;
    pub const SPACING_FRACTIONAL_EVEN: u32 = 2;
    pub const SPACING_FRACTIONAL_ODD: u32 = 3;
    pub const VERTEX_ORDER_CW: u32 = 4;
    pub const VERTEX_ORDER_CCW: u32 = 5;
    pub const POINT_MODE: u32 = 10;
    pub const TRIANGLES: u32 = 22;
    pub const QUADS: u32 = 24;
    pub const ISOLINES: u32 = 25;
    pub const OUTPUT_VERTICES: u32 = 26;
}

/// The primitive generator's domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TessDomain {
    Triangles,
    Quads,
    Isolines,
}

/// The spacing of the generated vertices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TessSpacing {
    Equal,
    FractionalEven,
    FractionalOdd,
}

/// The tessellation layout of a program (all `None`/false for a program without tessellation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TessLayout {
    /// The control stage's `layout(vertices = N)`.
    pub output_vertices: Option<u32>,
    pub domain: Option<TessDomain>,
    pub spacing: Option<TessSpacing>,
    /// `Some(true)` for `cw`, `Some(false)` for `ccw`.
    pub clockwise: Option<bool>,
    pub point_mode: bool,
}

impl TessLayout {
    /// The layout declared by the tessellation stages among `stages` (stage, SPIR-V words).
    pub fn of_stages<'a>(stages: impl IntoIterator<Item = (Stage, &'a [u32])>) -> Self {
        let mut control = Self::default();
        let mut evaluation = Self::default();
        for (stage, words) in stages {
            match stage {
                Stage::TessControl => control.read(words),
                Stage::TessEvaluation => evaluation.read(words),
                _ => {}
            }
        }
        Self {
            output_vertices: control.output_vertices.or(evaluation.output_vertices),
            domain: evaluation.domain.or(control.domain),
            spacing: evaluation.spacing.or(control.spacing),
            clockwise: evaluation.clockwise.or(control.clockwise),
            point_mode: evaluation.point_mode || control.point_mode,
        }
    }

    /// Adds the execution modes of one module (an unreadable module declares none).
    fn read(&mut self, words: &[u32]) {
        if let Ok(module) = Module::parse(words) {
            for (_, execution_mode, literals) in &module.execution_modes {
                self.apply(*execution_mode, literals.first().copied());
            }
        }
    }

    fn apply(&mut self, execution_mode: u32, literal: Option<u32>) {
        match execution_mode {
            mode::SPACING_EQUAL => self.spacing = Some(TessSpacing::Equal),
            mode::SPACING_FRACTIONAL_EVEN => self.spacing = Some(TessSpacing::FractionalEven),
            mode::SPACING_FRACTIONAL_ODD => self.spacing = Some(TessSpacing::FractionalOdd),
            mode::VERTEX_ORDER_CW => self.clockwise = Some(true),
            mode::VERTEX_ORDER_CCW => self.clockwise = Some(false),
            mode::POINT_MODE => self.point_mode = true,
            mode::TRIANGLES => self.domain = Some(TessDomain::Triangles),
            mode::QUADS => self.domain = Some(TessDomain::Quads),
            mode::ISOLINES => self.domain = Some(TessDomain::Isolines),
            mode::OUTPUT_VERTICES => self.output_vertices = literal,
            _ => {}
        }
    }
}

/// The specialization constant ids of the pass-through control stage's levels: the four
/// outer levels, then the two inner ones (`glPatchParameterfv`'s defaults).
pub const DEFAULT_LEVEL_CONSTANTS: [u32; 6] = [7350, 7351, 7352, 7353, 7354, 7355];

/// One per-vertex input of an evaluation stage, which a pass-through control stage copies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchVarying {
    pub location: u32,
    pub component: u32,
    /// The GLSL type of one vertex's value (`vec4`, `float[3]`, `dmat2`, …).
    pub glsl_type: String,
}

/// The per-vertex inputs of the evaluation stage `tes` (SPIR-V), which a control stage GL
/// leaves out must pass through from the vertex stage: located, non-built-in, non-patch inputs.
/// Refused for inputs the generated stage cannot declare (blocks and structures).
pub fn patch_varyings(tes: &[u32]) -> Result<Vec<PatchVarying>, CompileError> {
    let unreadable = |e| CompileError::Internal(format!("evaluation SPIR-V unreadable: {e}"));
    let module = Module::parse(tes).map_err(unreadable)?;
    let mut out = Vec::new();
    for var in module
        .variables
        .iter()
        .filter(|v| v.storage == StorageClass::Input)
    {
        if module.has_decoration(var.id, deco::BUILT_IN)
            || module.has_decoration(var.id, deco::PATCH)
        {
            continue;
        }
        let Some(Type::Pointer { pointee, .. }) = module.types.get(&var.pointer_type) else {
            continue;
        };
        let element = match module.types.get(pointee) {
            Some(Type::Array { element, .. }) => *element,
            _ => *pointee,
        };
        if is_builtin_block(&module, element) {
            continue; // gl_in
        }
        let glsl_type = glsl_type(&module, element, 0).ok_or_else(|| CompileError::Link {
            log: format!(
                "ERROR: Linking: the tessellation evaluation input {:?} has a type ArenaGL's pass-through control stage cannot copy (a block or structure); add a tessellation control shader\n",
                module.name(var.id)
            ),
        })?;
        let Some(location) = module.decoration(var.id, deco::LOCATION) else {
            continue; // a block: its members carry the locations (refused above)
        };
        out.push(PatchVarying {
            location,
            component: module.decoration(var.id, deco::COMPONENT).unwrap_or(0),
            glsl_type,
        });
    }
    Ok(out)
}

/// Whether `ty` is a block of built-ins (`gl_PerVertex`).
fn is_builtin_block(module: &Module, ty: u32) -> bool {
    match module.types.get(&ty) {
        Some(Type::Struct { members }) => {
            (0..members.len() as u32).any(|m| module.has_member_decoration(ty, m, deco::BUILT_IN))
        }
        _ => false,
    }
}

/// The GLSL spelling of SPIR-V type `ty` (scalars, vectors, matrices and arrays of them).
fn glsl_type(module: &Module, ty: u32, depth: u32) -> Option<String> {
    if depth > 8 {
        return None;
    }
    let prefix = |component: u32| match module.types.get(&component)? {
        Type::Float { width: 32 } => Some(""),
        Type::Float { width: 64 } => Some("d"),
        Type::Int {
            width: 32,
            signed: true,
        } => Some("i"),
        Type::Int {
            width: 32,
            signed: false,
        } => Some("u"),
        _ => None,
    };
    Some(match module.types.get(&ty)? {
        Type::Float { width: 32 } => "float".into(),
        Type::Float { width: 64 } => "double".into(),
        Type::Int {
            width: 32,
            signed: true,
        } => "int".into(),
        Type::Int {
            width: 32,
            signed: false,
        } => "uint".into(),
        Type::Vector { component, count } => format!("{}vec{count}", prefix(*component)?),
        Type::Matrix { column, columns } => {
            let Type::Vector { component, count } = module.types.get(column)? else {
                return None;
            };
            let p = prefix(*component)?;
            if !matches!(p, "" | "d") {
                return None;
            }
            format!("{p}mat{columns}x{count}")
        }
        Type::Array {
            element,
            length: Some(n),
        } => {
            // `float[2][3]`: this array's length first, then the element's.
            let inner = glsl_type(module, *element, depth + 1)?;
            match inner.find('[') {
                Some(i) => format!("{}[{n}]{}", &inner[..i], &inner[i..]),
                None => format!("{inner}[{n}]"),
            }
        }
        _ => return None,
    })
}

/// The pass-through control stage's version and the extensions its declarations need.
const PASS_THROUGH_HEADER: &str = "#version 150\n\
#extension GL_ARB_tessellation_shader : require\n\
#extension GL_ARB_separate_shader_objects : require\n\
#extension GL_ARB_enhanced_layouts : enable\n\
#extension GL_ARB_gpu_shader_fp64 : enable\n";

/// The control stage GL's fixed function stands in for when a program has none: each patch of
/// `vertices` vertices passed through unchanged (`gl_Position` and `varyings`), at the
/// default levels (specialization constants [`DEFAULT_LEVEL_CONSTANTS`]).
pub fn pass_through_control(varyings: &[PatchVarying], vertices: u32) -> String {
    // GLSL 1.50 with extensions, not 4.50: the built-in `gl_PerVertex` blocks must have the
    // members of the application's stages' (4.50 adds `gl_CullDistance`).
    let mut s = format!("{PASS_THROUGH_HEADER}layout(vertices = {vertices}) out;\n");
    for (i, id) in DEFAULT_LEVEL_CONSTANTS.iter().enumerate() {
        s.push_str(&format!(
            "layout(constant_id = {id}) const float arenagl_level{i} = 1.0;\n"
        ));
    }
    let mut body = String::new();
    for v in varyings {
        let (l, c, t) = (v.location, v.component, &v.glsl_type);
        let (base, dims) = t.split_at(t.find('[').unwrap_or(t.len()));
        let layout = if c == 0 {
            format!("location = {l}")
        } else {
            format!("location = {l}, component = {c}")
        };
        s.push_str(&format!(
            "layout({layout}) in {base} arenagl_in{l}_{c}[]{dims};\n\
             layout({layout}) out {base} arenagl_out{l}_{c}[]{dims};\n"
        ));
        body.push_str(&format!(
            "    arenagl_out{l}_{c}[gl_InvocationID] = arenagl_in{l}_{c}[gl_InvocationID];\n"
        ));
    }
    s.push_str("void main() {\n    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;\n");
    s.push_str(&body);
    s.push_str(
        "    gl_TessLevelOuter = float[4](arenagl_level0, arenagl_level1, arenagl_level2, arenagl_level3);\n\
         \x20   gl_TessLevelInner = float[2](arenagl_level4, arenagl_level5);\n}\n",
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::glsl::{compile_program, CompileOptions};

    const VS: &str = "#version 150\nin vec4 p;\nvoid main() { gl_Position = p; }\n";
    const TCS: &str = "#version 150\n#extension GL_ARB_tessellation_shader : require\nlayout(vertices = 4) out;\nvoid main() {\n  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;\n  gl_TessLevelOuter[0] = 1.0;\n}\n";
    const FS: &str = "#version 150\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";

    fn layout_of(tes_layout: &str) -> TessLayout {
        let tes = format!("#version 150\n#extension GL_ARB_tessellation_shader : require\nlayout({tes_layout}) in;\nvoid main() {{ gl_Position = gl_in[0].gl_Position; }}\n");
        let program = compile_program(
            &[
                (Stage::Vertex, VS),
                (Stage::TessControl, TCS),
                (Stage::TessEvaluation, tes.as_str()),
                (Stage::Fragment, FS),
            ],
            CompileOptions::default(),
        )
        .expect("tessellation program compiles");
        TessLayout::of_stages(program.stages.iter().map(|s| (s.stage, s.spirv.as_slice())))
    }

    #[test]
    fn declared_layouts_are_read_back() {
        let l = layout_of("quads, fractional_odd_spacing, cw, point_mode");
        assert_eq!(l.output_vertices, Some(4));
        assert_eq!(l.domain, Some(TessDomain::Quads));
        assert_eq!(l.spacing, Some(TessSpacing::FractionalOdd));
        assert_eq!(l.clockwise, Some(true));
        assert!(l.point_mode);
    }

    #[test]
    fn undeclared_spacing_and_order_are_gls_defaults() {
        let l = layout_of("triangles");
        assert_eq!(l.domain, Some(TessDomain::Triangles));
        assert_eq!(l.spacing, Some(TessSpacing::Equal));
        assert_eq!(l.clockwise, Some(false));
        assert!(!l.point_mode);
    }

    #[test]
    fn a_program_without_tessellation_has_no_layout() {
        assert_eq!(
            TessLayout::of_stages([(Stage::Vertex, &[0u32; 5][..])]),
            TessLayout::default()
        );
    }

    #[test]
    fn a_pass_through_control_stage_joins_vertex_and_evaluation_stages() {
        let vs = "#version 150\nin vec4 p;\nout vec3 a;\nout float b;\nflat out ivec2 c;\nout mat2 d;\nvoid main() { gl_Position = p; a = p.xyz; b = p.w; c = ivec2(1); d = mat2(1.0); }\n";
        let tes = "#version 150\n#extension GL_ARB_tessellation_shader : require\nlayout(triangles) in;\nin vec3 a[];\nin float b[];\nflat in ivec2 c[];\nin mat2 d[];\nout vec4 o;\nvoid main() { gl_Position = gl_in[0].gl_Position; o = vec4(a[0], b[1] + float(c[2].x) + d[0][1].x); }\n";
        let program = compile_program(
            &[
                (Stage::Vertex, vs),
                (Stage::TessEvaluation, tes),
                (Stage::Fragment, FS),
            ],
            CompileOptions::default(),
        )
        .expect("a program without a control stage compiles");
        let tes_spirv = &program.stage(Stage::TessEvaluation).expect("tes").spirv;
        let varyings = patch_varyings(tes_spirv).expect("copyable inputs");
        let mut types: Vec<&str> = varyings.iter().map(|v| v.glsl_type.as_str()).collect();
        types.sort();
        assert_eq!(types, ["float", "ivec2", "mat2x2", "vec3"]);
        let tcs = pass_through_control(&varyings, 3);
        let control = compile_program(
            &[(Stage::TessControl, tcs.as_str())],
            CompileOptions::default(),
        )
        .unwrap_or_else(|e| panic!("generated control stage compiles: {e:?}\n{tcs}"));
        assert_eq!(
            TessLayout::of_stages(control.stages.iter().map(|s| (s.stage, s.spirv.as_slice())))
                .output_vertices,
            Some(3)
        );
    }

    #[test]
    fn evaluation_blocks_are_refused_for_pass_through() {
        let vs = "#version 150\nin vec4 p;\nout B { vec4 v; } b;\nvoid main() { gl_Position = p; b.v = p; }\n";
        let tes = "#version 150\n#extension GL_ARB_tessellation_shader : require\nlayout(triangles) in;\nin B { vec4 v; } b[];\nvoid main() { gl_Position = b[0].v; }\n";
        let program = compile_program(
            &[
                (Stage::Vertex, vs),
                (Stage::TessEvaluation, tes),
                (Stage::Fragment, FS),
            ],
            CompileOptions::default(),
        )
        .expect("compiles");
        let tes_spirv = &program.stage(Stage::TessEvaluation).expect("tes").spirv;
        assert!(matches!(
            patch_varyings(tes_spirv),
            Err(CompileError::Link { .. })
        ));
    }
}
