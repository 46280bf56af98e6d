//! `gl_Layer` and `gl_ViewportIndex` where glslang does not declare them: read in fragment
//! shaders below GLSL 4.30 (GL_ARB_fragment_layer_viewport), written by vertex and tessellation
//! evaluation shaders below GLSL 4.10 (GL_AMD_vertex_shader_layer,
//! GL_AMD_vertex_shader_viewport_index, GL_ARB_shader_viewport_layer_array).
//!
//! A unit of an older version (1.30 on: `flat int` inputs, `int` outputs) that uses them in a
//! context offering the extension declares them itself, decorated with the SPIR-V built-ins
//! through GL_EXT_spirv_intrinsics (which lets a unit declare `gl_` names), with the capability
//! each needs (`Geometry` for a fragment `Layer`, `MultiViewport` for a fragment
//! `ViewportIndex`, `ShaderLayer`/`ShaderViewportIndex` for the vertex outputs, as glslang adds
//! them where it declares the variables). The names stay `gl_`: glslang's link leaves such
//! inputs out of its stage-interface matching, as it does built-ins. The directive goes after
//! `#version` with a `#line` restoring the numbering, the declaration right before the
//! top-level statement of the first use, on its line (as `num_samples` does), so compile logs
//! keep their line numbers. From 4.10 glslang declares the vertex outputs under
//! GL_ARB_shader_viewport_layer_array only: a unit naming AMD's extensions gets that directive
//! too ([`enable_vertex_outputs`]).
//!
//! [`writes_viewport_index`] tells the draw whether a program's stages before the rasteriser
//! write `gl_ViewportIndex` (its pipelines then take every viewport, `draw::viewport`).

use std::borrow::Cow;

use super::num_samples::declaration_point;
use super::scan::tokens;
use super::version::{read, Number};
use super::Stage;

/// The two built-ins and their SPIR-V `BuiltIn`s.
const BUILTINS: [(&str, u32); 2] = [("gl_Layer", 9), ("gl_ViewportIndex", 10)];

/// How a stage declares the built-ins: the qualifiers, each built-in's capability (in
/// [`BUILTINS`]' order), and the versions below which glslang does not declare them.
struct Declaration {
    qualifiers: &'static str,
    capabilities: [u32; 2],
    below: u32,
}

const FRAGMENT: Declaration = Declaration {
    qualifiers: "flat in int",
    capabilities: [2, 57], // Geometry, MultiViewport
    below: 430,
};

const VERTEX: Declaration = Declaration {
    qualifiers: "out int",
    capabilities: [69, 70], // ShaderLayer, ShaderViewportIndex
    below: 410,
};

/// The first version with `flat` inputs.
const OLDEST: u32 = 130;

/// The extension whose offer makes the fragment inputs exist below 4.30.
pub(crate) const EXTENSION: &str = "GL_ARB_fragment_layer_viewport";

/// The extensions that let vertex and tessellation stages write the two built-ins: the ARB one
/// glslang knows, and AMD's two, which it does not.
pub(crate) const VERTEX_EXTENSIONS: [&str; 3] = [
    "GL_ARB_shader_viewport_layer_array",
    "GL_AMD_vertex_shader_layer",
    "GL_AMD_vertex_shader_viewport_index",
];

/// Whether `source` uses either built-in (a cheap test before any scan).
fn mentions_builtins(source: &str) -> bool {
    BUILTINS.iter().any(|(builtin, _)| source.contains(builtin))
}

/// A vertex or tessellation evaluation unit of GLSL 4.10 or later naming AMD's extensions:
/// `source` with GL_ARB_shader_viewport_layer_array enabled too (see the module docs). Runs
/// before the context's `#extension` rules (`extensions`), which refuse AMD's directive where it
/// is not offered and blank it where it is (the ARB one is offered with them).
pub(crate) fn enable_vertex_outputs(source: &str) -> Cow<'_, str> {
    let Some(d) = read(source) else {
        return Cow::Borrowed(source);
    };
    let names_amd = VERTEX_EXTENSIONS[1..].iter().any(|e| source.contains(e));
    let declared = matches!(d.number, Number::Value(v) if v >= VERTEX.below);
    if !names_amd || !declared || !mentions_builtins(source) || d.unoffered {
        return Cow::Borrowed(source);
    }
    let f = d.found;
    Cow::Owned(format!(
        "{}\n#extension {} : enable\n#line {}{}",
        &source[..f.end],
        VERTEX_EXTENSIONS[0],
        f.line + 1,
        &source[f.end..]
    ))
}

/// A `stage` unit's `source` with the two built-ins declared (see the module docs); unchanged
/// for other stages, units that use neither, or versions glslang declares them in.
pub(crate) fn lower(stage: Stage, source: &str) -> Cow<'_, str> {
    let decl = match stage {
        Stage::Fragment => FRAGMENT,
        Stage::Vertex | Stage::TessEvaluation => VERTEX,
        _ => return Cow::Borrowed(source),
    };
    if !mentions_builtins(source) {
        return Cow::Borrowed(source);
    }
    let Some(d) = read(source) else {
        return Cow::Borrowed(source);
    };
    let in_range = matches!(d.number, Number::Value(v) if (OLDEST..decl.below).contains(&v));
    if !in_range || d.profile.as_deref() == Some("es") || d.unoffered {
        return Cow::Borrowed(source);
    }
    let t = tokens(source);
    let used: Vec<_> = BUILTINS
        .iter()
        .zip(decl.capabilities)
        .filter(|((builtin, _), _)| t.iter().any(|k| k.is_word(source, builtin)))
        .collect();
    let Some(first) = t
        .iter()
        .position(|k| used.iter().any(|((b, _), _)| k.is_word(source, b)))
    else {
        return Cow::Borrowed(source);
    };
    let declarations: String = used
        .iter()
        .map(|((name, builtin), capability)| {
            format!(
                " spirv_decorate(capabilities = [{capability}], 11, {builtin}) {} {name};",
                decl.qualifiers
            )
        })
        .collect();
    Cow::Owned(with_declarations(
        source,
        &d.found,
        declaration_point(&t, first),
        &declarations,
    ))
}

/// `source` with GL_EXT_spirv_intrinsics enabled after its `#version` (`version`, a `#line`
/// keeping the numbering) and `declarations` inserted at byte `insert` (on its line): how a unit
/// declares built-ins glslang lacks at its version (here, and `draw_parameters`).
pub(super) fn with_declarations(
    source: &str,
    version: &super::version::Found,
    insert: usize,
    declarations: &str,
) -> String {
    let mut out = String::with_capacity(source.len() + 64 + declarations.len());
    out.push_str(&source[..version.end]);
    out.push_str(&format!(
        "\n#extension GL_EXT_spirv_intrinsics : enable\n#line {}",
        version.line + 1
    ));
    out.push_str(&source[version.end..insert]);
    out.push_str(declarations);
    out.push_str(&source[insert..]);
    out
}

/// SPIR-V's `BuiltIn ViewportIndex`.
const BUILT_IN_VIEWPORT_INDEX: u32 = 10;

/// Whether a program of these stages writes `gl_ViewportIndex` before the rasteriser: a
/// vertex, tessellation or geometry module decorates a variable or block member with
/// `BuiltIn ViewportIndex` (there it can only be an output). A module that does not parse
/// writes nothing (the link already failed for it).
pub(crate) fn writes_viewport_index<'a>(
    mut stages: impl Iterator<Item = (Stage, &'a [u32])>,
) -> bool {
    use super::spirv::{decoration::BUILT_IN, Module};
    stages.any(|(stage, words)| {
        stage != Stage::Fragment
            && stage != Stage::Compute
            && Module::parse(words).is_ok_and(|m| {
                let is_index = |d: &u32, ops: &Vec<u32>| {
                    *d == BUILT_IN && ops.first() == Some(&BUILT_IN_VIEWPORT_INDEX)
                };
                m.decorations.iter().any(|((_, d), ops)| is_index(d, ops))
                    || m.member_decorations
                        .iter()
                        .any(|((_, _, d), ops)| is_index(d, ops))
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uses_below_430_become_decorated_inputs() {
        let src = "#version 150\n#extension GL_ARB_fragment_layer_viewport : require\nflat in int vp;\nout vec4 c;\nvoid main()\n{\n  c = vec4(gl_ViewportIndex == vp);\n}\n";
        let out = lower(Stage::Fragment, src);
        assert_eq!(out.lines().count(), src.lines().count() + 2, "{out}");
        assert!(
            out.contains("#version 150\n#extension GL_EXT_spirv_intrinsics : enable\n#line 2\n"),
            "{out}"
        );
        assert!(
            out.contains("out vec4 c; spirv_decorate(capabilities = [57], 11, 10) flat in int gl_ViewportIndex;\n"),
            "{out}"
        );
        assert!(!out.contains("gl_Layer"), "{out}");
        let core = "#version 430\nout vec4 c;\nvoid main() { c = vec4(gl_Layer); }\n";
        assert_eq!(lower(Stage::Fragment, core), core);
        assert_eq!(lower(Stage::Fragment, "void main() {}"), "void main() {}");
        let vs = "#version 140\nuniform int v;\nvoid main() { gl_ViewportIndex = v; }\n";
        let out = lower(Stage::Vertex, vs);
        assert!(out.contains("uniform int v; spirv_decorate(capabilities = [70], 11, 10) out int gl_ViewportIndex;"), "{out}");
        assert_eq!(lower(Stage::Geometry, vs), vs);
    }

    /// `OpCapability cap` is in `words`.
    fn has_capability(words: &[u32], cap: u32) -> bool {
        words.windows(2).any(|w| w == [(2 << 16) | 17, cap])
    }

    #[test]
    fn a_150_program_reads_what_its_geometry_stage_wrote() {
        use crate::glsl::{compile_program, CompileOptions, ExtensionSet};
        let vs = "#version 150\nin vec4 p;\nvoid main() { gl_Position = p; }\n";
        let gs = "#version 150\n#extension GL_ARB_viewport_array : require\nlayout(triangles) in;\nlayout(triangle_strip, max_vertices = 3) out;\nvoid main() {\n  for (int i = 0; i < 3; i++) {\n    gl_Position = gl_in[i].gl_Position;\n    gl_ViewportIndex = 2;\n    gl_Layer = 1;\n    EmitVertex();\n  }\n}\n";
        let fs = "#version 150\n#extension GL_ARB_fragment_layer_viewport : require\nout vec4 c;\nvoid main() { c = vec4(gl_Layer, gl_ViewportIndex, 0, 1); }\n";
        let options = CompileOptions {
            extensions: Some(ExtensionSet::offering(["GL_ARB_viewport_array", EXTENSION])),
            ..Default::default()
        };
        let units = [
            (Stage::Vertex, vs),
            (Stage::Geometry, gs),
            (Stage::Fragment, fs),
        ];
        let program = compile_program(&units, options);
        let program = program.unwrap_or_else(|e| panic!("{e:?}"));
        let frag = program
            .stage(Stage::Fragment)
            .map(|m| m.spirv.clone())
            .unwrap_or_default();
        assert!(
            has_capability(&frag, 2) && has_capability(&frag, 57),
            "Geometry, MultiViewport"
        );
        let stages = program.stages.iter().map(|m| (m.stage, m.spirv.as_slice()));
        assert!(writes_viewport_index(stages));
        let vs_fs = [(Stage::Vertex, vs), (Stage::Fragment, fs)];
        let program = compile_program(&vs_fs, options).unwrap_or_else(|e| panic!("{e:?}"));
        let stages = program.stages.iter().map(|m| (m.stage, m.spirv.as_slice()));
        assert!(!writes_viewport_index(stages), "reading is not writing");
        // Not offered: the built-ins do not exist below 4.30.
        let none = CompileOptions {
            extensions: Some(ExtensionSet::offering(["GL_ARB_viewport_array"])),
            ..Default::default()
        };
        assert!(compile_program(&units, none).is_err());
    }
}
