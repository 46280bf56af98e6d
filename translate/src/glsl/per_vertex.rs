//! `gl_PerVertex` redeclarations below GLSL 4.10.
//!
//! GL_ARB_separate_shader_objects lets a unit redeclare the built-in `gl_PerVertex` blocks (to
//! name the members a separable stage writes or reads). glslang takes a redeclaration below
//! 4.10 only with `#extension GL_ARB_separate_shader_objects` enabled, while GL
//! implementations (Mesa) take it in any GLSL 1.50+ unit of a context offering the extension
//! (piglit's tests redeclare it in 1.50 and 4.00 units without the directive). Such a unit
//! gets the directive after its `#version`, followed by a `#line` that restores the numbering.
//!
//! GL_ARB_separate_shader_objects also says a separable program must redeclare the blocks to use
//! their members. Like Mesa, the link refuses it where it matters: between two stages of one
//! separable program, GLSL 1.50 or newer (1.40 has no blocks, issue 28), a stage reading
//! `gl_in[]` without redeclaring `in gl_PerVertex` after a stage of the same program that did
//! not redeclare `out gl_PerVertex` ([`unredeclared_between_stages`]).

use std::borrow::Cow;

use super::scan::{tokens, Kind};
use super::version::{read, Number};
use super::Stage;

/// The first desktop version glslang takes the redeclaration in without the extension.
const CORE_VERSION: u32 = 410;

/// `source` with the extension enabled where it redeclares `gl_PerVertex` below 4.10.
pub(crate) fn enable_redeclaration(source: &str) -> Cow<'_, str> {
    if !source.contains("gl_PerVertex") {
        return Cow::Borrowed(source);
    }
    let Some(d) = read(source) else {
        return Cow::Borrowed(source);
    };
    let below = matches!(d.number, Number::Value(v) if v < CORE_VERSION);
    if !below || d.profile.as_deref() == Some("es") || d.unoffered {
        return Cow::Borrowed(source);
    }
    let f = d.found;
    Cow::Owned(format!(
        "{}\n#extension GL_ARB_separate_shader_objects : enable\n#line {}{}",
        &source[..f.end],
        f.line + 1,
        &source[f.end..]
    ))
}

/// A vertex unit whose `out gl_PerVertex` redeclaration leaves out `gl_PointSize`, which the
/// depth wrapper (`objects::program::link`) writes, with the member added (on the block's
/// first line, so line numbers hold). Comments naming the block are not redeclarations.
pub(crate) fn with_point_size_member(source: &str) -> String {
    let toks = tokens(source);
    let Some(open) = toks.windows(3).position(|w| {
        w[0].is_word(source, "out")
            && w[1].is_word(source, "gl_PerVertex")
            && w[2].kind == Kind::Punct(b'{')
    }) else {
        return source.to_owned();
    };
    let members = toks[open + 3..]
        .iter()
        .take_while(|t| t.kind != Kind::Punct(b'}'));
    if members.clone().any(|t| t.is_word(source, "gl_PointSize")) {
        return source.to_owned();
    }
    let at = toks[open + 2].end;
    format!("{} float gl_PointSize;{}", &source[..at], &source[at..])
}

/// Why a separable program with `units` does not link: a stage reading the previous stage's
/// `gl_PerVertex` members with neither side redeclaring the block; None when it links.
pub(crate) fn unredeclared_between_stages(units: &[(Stage, String)]) -> Option<String> {
    const ORDER: [Stage; 4] = [
        Stage::Vertex,
        Stage::TessControl,
        Stage::TessEvaluation,
        Stage::Geometry,
    ];
    let of = |stage: Stage| units.iter().filter(move |(s, _)| *s == stage).map(|u| &u.1);
    let mut producer: Option<Stage> = None;
    for stage in ORDER {
        if of(stage).next().is_none() {
            continue;
        }
        if let Some(p) = producer {
            let reads = of(stage).any(|u| blocks_apply(u) && uses(u, &["gl_in"]));
            let redeclared_in = of(stage).any(|u| uses(u, &["in", "gl_PerVertex"]));
            let redeclared_out = of(p).any(|u| uses(u, &["out", "gl_PerVertex"]));
            if reads && !redeclared_in && !redeclared_out {
                return Some(format!(
                    "the {stage:?} stage of a separable program reads gl_in[] without \
                     redeclaring gl_PerVertex (nor does the {p:?} stage before it)"
                ));
            }
        }
        producer = Some(stage);
    }
    None
}

/// Whether the unit is desktop GLSL 1.50 or newer (the versions with interface blocks).
fn blocks_apply(source: &str) -> bool {
    read(source).is_some_and(|d| {
        matches!(d.number, Number::Value(v) if v >= 150) && d.profile.as_deref() != Some("es")
    })
}

/// Whether the identifiers `words` follow each other somewhere in `source`'s code.
fn uses(source: &str, words: &[&str]) -> bool {
    let toks = tokens(source);
    toks.windows(words.len()).any(|w| {
        w.iter()
            .zip(words)
            .all(|(t, word)| t.kind == Kind::Ident && t.is_word(source, word))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_redeclaring_unit_below_410_enables_the_extension() {
        let src = "#version 150\nout gl_PerVertex { vec4 gl_Position; };\nvoid main() {}\n";
        assert_eq!(
            enable_redeclaration(src),
            "#version 150\n#extension GL_ARB_separate_shader_objects : enable\n#line 2\n\
             out gl_PerVertex { vec4 gl_Position; };\nvoid main() {}\n"
        );
        let core = "#version 410\nout gl_PerVertex { vec4 gl_Position; };\n";
        assert_eq!(enable_redeclaration(core), core);
        let plain = "#version 150\nvoid main() {}\n";
        assert_eq!(enable_redeclaration(plain), plain);
    }

    #[test]
    fn a_vertex_redeclaration_gets_the_point_size_member() {
        let src = "/* needs gl_PerVertex */\nout gl_PerVertex {\n vec4 gl_Position;\n};\n";
        assert_eq!(
            with_point_size_member(src),
            "/* needs gl_PerVertex */\nout gl_PerVertex { float gl_PointSize;\n vec4 gl_Position;\n};\n"
        );
        let has = "out gl_PerVertex { vec4 gl_Position; float gl_PointSize; };\n";
        assert_eq!(with_point_size_member(has), has);
        let none = "// gl_PerVertex\nvoid main() {}\n";
        assert_eq!(with_point_size_member(none), none);
    }

    #[test]
    fn a_separable_stage_must_redeclare_what_it_reads_from_the_stage_before() {
        let vs = (
            Stage::Vertex,
            "#version 150\nvoid main() { gl_Position = vec4(0); }\n",
        );
        let gs = "#version 150\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\n\
                  void main() { gl_Position = gl_in[0].gl_Position; EmitVertex(); }\n";
        let units = |vs: (Stage, &str), gs: &str| {
            vec![(vs.0, vs.1.to_owned()), (Stage::Geometry, gs.to_owned())]
        };
        assert!(unredeclared_between_stages(&units(vs, gs)).is_some());
        // Redeclared on either side, GLSL 1.40, or the geometry stage alone: links.
        let vs_redeclared = "#version 150\nout gl_PerVertex { vec4 gl_Position; };\n\
                             void main() { gl_Position = vec4(0); }\n";
        assert!(unredeclared_between_stages(&units((Stage::Vertex, vs_redeclared), gs)).is_none());
        let gs_140 = gs.replace("150", "140");
        assert!(unredeclared_between_stages(&units(vs, &gs_140)).is_none());
        assert!(unredeclared_between_stages(&[(Stage::Geometry, gs.to_owned())]).is_none());
    }
}
