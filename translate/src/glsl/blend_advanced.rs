//! GL_KHR_blend_equation_advanced in the fragment shader: the fifteen advanced blend equations
//! (`GL_MULTIPLY_KHR` … `GL_HSL_LUMINOSITY_KHR`) computed by the program, from the colour its
//! `main` wrote and the destination as it stood before the draw (`draw::blend_advanced` copies
//! it into a sampled image).
//!
//! Design decisions:
//! - What a fragment stage supports is what its units declare with `layout(blend_support_*)
//!   out;` ([`declared_support`], a bit per equation of [`EQUATIONS`]); a draw with an advanced
//!   equation the program does not declare is the draw's `GL_INVALID_OPERATION`.
//! - A stage that declares any support gets a wrapper ([`add_blending`]): the application's
//!   `main` is renamed [`USER_MAIN`], and a new `main` appended to the unit that declares the
//!   colour output calls it, then replaces the output by the blend of it (source) and the
//!   texel of [`DST_SAMPLER`] at the fragment (destination). Which equation is the
//!   specialization constant [`EQUATION_CONSTANT`] (0: none, the output is left as written), so
//!   one program serves every equation and draws without advanced blending pay nothing but a
//!   folded branch; fixed-function blending is off for a draw that sets it.
//! - The formulas are the extension's (premultiplied colours; the `f(Cs, Cd)` of tables X.1 and
//!   X.2 with X = Y = Z = 1): `RGB = f(Cs', Cd')·p0 + Cs'·p1 + Cd'·p2`, `A = p0 + p1 + p2`, with
//!   `Cs' = Cs/As`, `Cd' = Cd/Ad` (0 where alpha is 0), `p0 = As·Ad`, `p1 = As·(1 − Ad)`,
//!   `p2 = Ad·(1 − As)`. Source and destination are clamped to [0, 1] first, the range the
//!   equations are defined on.
//! - The destination samplers are ArenaGL's: no GL uniform, no location (`program::link` leaves
//!   them out of the interface), bound by the draw to the copy or to a stand-in. A multisampled
//!   destination is read per sample ([`DST_SAMPLER_MS`] at `gl_SampleID`, chosen by
//!   [`MULTISAMPLED_CONSTANT`]): the wrapper's use of `gl_SampleID` makes the stage run per
//!   sample in every draw, which GL allows (sample shading), and which only programs declaring
//!   `blend_support` pay. Units whose GLSL version lacks `gl_SampleID` or `sampler2DMS` get the
//!   extension that has them enabled after `#version` (`GL_OES_sample_variables`,
//!   `GL_ARB_sample_shading`, `GL_ARB_texture_multisample`: offered wherever this extension is,
//!   since it needs the device's `sampleRateShading`).
//! - Every local is `highp`, so the wrapper compiles in GLSL ES units without a default float
//!   precision; desktop GLSL ignores precision qualifiers.

use super::extensions::after_version;
use super::scan::{tokens, Kind, Token};
use super::version::{read, Number};

/// The advanced equations: GL enum and the name its `blend_support_` qualifier takes, in the
/// order of [`EQUATION_CONSTANT`]'s values (1 for the first).
pub const EQUATIONS: [(u32, &str); 15] = [
    (0x9294, "multiply"),
    (0x9295, "screen"),
    (0x9296, "overlay"),
    (0x9297, "darken"),
    (0x9298, "lighten"),
    (0x9299, "colordodge"),
    (0x929A, "colorburn"),
    (0x929B, "hardlight"),
    (0x929C, "softlight"),
    (0x929E, "difference"),
    (0x92A0, "exclusion"),
    (0x92AD, "hsl_hue"),
    (0x92AE, "hsl_saturation"),
    (0x92AF, "hsl_color"),
    (0x92B0, "hsl_luminosity"),
];

/// Every equation's bit.
pub const ALL_EQUATIONS: u16 = (1 << EQUATIONS.len()) - 1;
/// The specialization constant id of the equation a pipeline blends with (1-based index into
/// [`EQUATIONS`]; 0: no advanced blending).
pub const EQUATION_CONSTANT: u32 = 7348;
/// The specialization constant id telling the wrapper the destination is multisampled (a
/// bool: read [`DST_SAMPLER_MS`] at `gl_SampleID`).
pub const MULTISAMPLED_CONSTANT: u32 = 7349;
/// The sampler the wrapper reads a single-sampled destination through.
pub const DST_SAMPLER: &str = "arena_blend_Dst";
/// The sampler the wrapper reads a multisampled destination through.
pub const DST_SAMPLER_MS: &str = "arena_blend_DstMS";
/// The texture unit `program::link` gives [`DST_SAMPLER`]: none (no unit has this number, so
/// unit checks skip it and a draw without advanced blending binds a stand-in).
pub const DST_UNIT: u32 = u32::MAX;
/// What the application's `main` is renamed to in a wrapped stage.
pub const USER_MAIN: &str = "arena_blend_main";

/// The 1-based index of advanced equation `mode` (the value of [`EQUATION_CONSTANT`]), or
/// `None` for any other blend equation.
pub fn equation_index(mode: u32) -> Option<u32> {
    EQUATIONS
        .iter()
        .position(|&(e, _)| e == mode)
        .map(|i| i as u32 + 1)
}

/// The bit of advanced equation `mode` in a support mask.
pub fn equation_bit(mode: u32) -> u16 {
    equation_index(mode).map_or(0, |i| 1 << (i - 1))
}

/// The equations the `layout(blend_support_*) out;` declarations of `source` name.
fn unit_support(source: &str) -> u16 {
    tokens(source)
        .iter()
        .filter(|t| t.kind == Kind::Ident)
        .filter_map(|t| t.text(source).strip_prefix("blend_support_"))
        .map(|name| match name {
            "all_equations" => ALL_EQUATIONS,
            _ => EQUATIONS
                .iter()
                .position(|&(_, n)| n == name)
                .map_or(0, |i| 1 << i),
        })
        .fold(0, |a, b| a | b)
}

/// The equations the fragment units `fragment_units` declare support for.
pub fn declared_support<'a>(fragment_units: impl IntoIterator<Item = &'a str>) -> u16 {
    fragment_units
        .into_iter()
        .map(unit_support)
        .fold(0, |a, b| a | b)
}

/// The equations a program of `units` supports: what its fragment units declare.
pub fn program_support(units: &[(super::Stage, String)]) -> u16 {
    declared_support(
        units
            .iter()
            .filter(|(s, _)| *s == super::Stage::Fragment)
            .map(|(_, src)| src.as_str()),
    )
}

/// The name of the `vec4` colour output `source` declares at global scope, if any: the last
/// identifier of a declaration with the `out` qualifier and a `vec4` type.
fn colour_output(source: &str) -> Option<String> {
    let toks = tokens(source);
    let mut depth = 0i32;
    let mut statement: Vec<Token> = Vec::new();
    for t in toks {
        match t.kind {
            Kind::Punct(b'{') => {
                depth += 1;
                statement.clear();
            }
            Kind::Punct(b'}') => {
                depth -= 1;
                statement.clear();
            }
            Kind::Punct(b';') if depth == 0 => {
                let words: Vec<&str> = statement
                    .iter()
                    .filter(|t| t.kind == Kind::Ident)
                    .map(|t| t.text(source))
                    .collect();
                if words.contains(&"out") && words.contains(&"vec4") {
                    return words.last().map(|w| (*w).to_owned());
                }
                statement.clear();
            }
            _ if depth == 0 => statement.push(t),
            _ => {}
        }
    }
    None
}

/// `source` with every `main` identifier renamed [`USER_MAIN`] (line numbers kept).
fn rename_main(source: &str) -> String {
    let mut out = String::with_capacity(source.len() + 16);
    let mut last = 0;
    for t in tokens(source) {
        if t.is_word(source, "main") {
            out.push_str(&source[last..t.start]);
            out.push_str(USER_MAIN);
            last = t.end;
        }
    }
    out.push_str(&source[last..]);
    out
}

/// The blend functions and the wrapper's `main`, writing `output`.
fn wrapper(output: &str) -> String {
    format!(
        "\nlayout(constant_id = {EQUATION_CONSTANT}) const int arena_blend_Equation = 0;\n\
         layout(constant_id = {MULTISAMPLED_CONSTANT}) const bool arena_blend_Multisampled = false;\n\
         uniform highp sampler2D {DST_SAMPLER};\n\
         uniform highp sampler2DMS {DST_SAMPLER_MS};\n\
         void {USER_MAIN}();\n\
         {BLEND_FUNCTIONS}\
         void main() {{\n\
         \x20   {USER_MAIN}();\n\
         \x20   if (arena_blend_Equation != 0) {{\n\
         \x20       ivec2 p = ivec2(gl_FragCoord.xy);\n\
         \x20       highp vec4 d = arena_blend_Multisampled\n\
         \x20           ? texelFetch({DST_SAMPLER_MS}, p, gl_SampleID)\n\
         \x20           : texelFetch({DST_SAMPLER}, p, 0);\n\
         \x20       {output} = arena_blend(arena_blend_Equation, vec4({output}), d);\n\
         \x20   }}\n\
         }}\n"
    )
}

/// The equations of the extension's tables X.1 and X.2, on unpremultiplied colours.
const BLEND_FUNCTIONS: &str = "\
highp float arena_blend_channel(int e, highp float s, highp float d) {
    if (e == 1) return s * d;
    if (e == 2) return s + d - s * d;
    if (e == 3) return d <= 0.5 ? 2.0 * s * d : 1.0 - 2.0 * (1.0 - s) * (1.0 - d);
    if (e == 4) return min(s, d);
    if (e == 5) return max(s, d);
    if (e == 6) return d <= 0.0 ? 0.0 : (s < 1.0 ? min(1.0, d / (1.0 - s)) : 1.0);
    if (e == 7) return d >= 1.0 ? 1.0 : (s > 0.0 ? 1.0 - min(1.0, (1.0 - d) / s) : 0.0);
    if (e == 8) return s <= 0.5 ? 2.0 * s * d : 1.0 - 2.0 * (1.0 - s) * (1.0 - d);
    if (e == 9) {
        if (s <= 0.5) return d - (1.0 - 2.0 * s) * d * (1.0 - d);
        if (d <= 0.25) return d + (2.0 * s - 1.0) * d * ((16.0 * d - 12.0) * d + 3.0);
        return d + (2.0 * s - 1.0) * (sqrt(d) - d);
    }
    if (e == 10) return abs(d - s);
    return s + d - 2.0 * s * d;
}
highp float arena_blend_min(highp vec3 c) { return min(min(c.r, c.g), c.b); }
highp float arena_blend_max(highp vec3 c) { return max(max(c.r, c.g), c.b); }
highp float arena_blend_lum(highp vec3 c) { return dot(c, vec3(0.30, 0.59, 0.11)); }
highp float arena_blend_sat(highp vec3 c) { return arena_blend_max(c) - arena_blend_min(c); }
highp vec3 arena_blend_set_lum(highp vec3 cbase, highp vec3 clum) {
    highp vec3 c = cbase + vec3(arena_blend_lum(clum) - arena_blend_lum(cbase));
    highp float l = arena_blend_lum(c);
    highp float lo = arena_blend_min(c);
    highp float hi = arena_blend_max(c);
    if (lo < 0.0) return vec3(l) + (c - vec3(l)) * l / (l - lo);
    if (hi > 1.0) return vec3(l) + (c - vec3(l)) * (1.0 - l) / (hi - l);
    return c;
}
highp vec3 arena_blend_set_lum_sat(highp vec3 cbase, highp vec3 csat, highp vec3 clum) {
    highp float sbase = arena_blend_sat(cbase);
    highp vec3 c = sbase > 0.0
        ? (cbase - vec3(arena_blend_min(cbase))) * arena_blend_sat(csat) / sbase
        : vec3(0.0);
    return arena_blend_set_lum(c, clum);
}
highp vec3 arena_blend_f(int e, highp vec3 s, highp vec3 d) {
    if (e == 12) return arena_blend_set_lum_sat(s, d, d);
    if (e == 13) return arena_blend_set_lum_sat(d, s, d);
    if (e == 14) return arena_blend_set_lum(s, d);
    if (e == 15) return arena_blend_set_lum(d, s);
    return vec3(arena_blend_channel(e, s.r, d.r), arena_blend_channel(e, s.g, d.g),
                arena_blend_channel(e, s.b, d.b));
}
highp vec4 arena_blend(int e, highp vec4 src, highp vec4 dst) {
    highp vec4 s = clamp(src, 0.0, 1.0);
    highp vec4 d = clamp(dst, 0.0, 1.0);
    highp vec3 cs = s.a > 0.0 ? s.rgb / s.a : vec3(0.0);
    highp vec3 cd = d.a > 0.0 ? d.rgb / d.a : vec3(0.0);
    highp float p0 = s.a * d.a;
    highp float p1 = s.a * (1.0 - d.a);
    highp float p2 = d.a * (1.0 - s.a);
    return vec4(arena_blend_f(e, cs, cd) * p0 + cs * p1 + cd * p2, p0 + p1 + p2);
}
";

/// Wraps the fragment stage `units` (the fragment units of one program, rewritten for glslang)
/// when they declare support for an advanced equation: every `main` renamed, the wrapper
/// appended to the unit declaring the colour output. Returns whether it wrapped; a stage
/// declaring support without a `vec4` output is left as it is (it writes no colour to blend).
pub fn add_blending(units: &mut [&mut String]) -> bool {
    if declared_support(units.iter().map(|u| u.as_str())) == 0 {
        return false;
    }
    let Some((at, output)) = units
        .iter()
        .enumerate()
        .find_map(|(i, u)| colour_output(u).map(|o| (i, o)))
    else {
        return false;
    };
    for u in units.iter_mut() {
        **u = rename_main(u);
    }
    let unit = &mut *units[at];
    *unit = after_version(unit, &sample_directives(unit), false);
    unit.push_str(&wrapper(&output));
    true
}

/// The `#extension` directives that give unit `source` the wrapper's `gl_SampleID` and
/// `sampler2DMS` where its version lacks them (GLSL ES below 3.20, desktop GLSL below 4.00 and
/// 1.50).
fn sample_directives(source: &str) -> String {
    let (es, v) = read(source).map_or((false, 110), |d| {
        let v = match d.number {
            Number::Value(v) => v,
            _ => 110,
        };
        (d.profile.as_deref() == Some("es"), v)
    });
    let mut out = String::new();
    let mut need = |name: &str| out.push_str(&format!("#extension {name} : require\n"));
    match (es, v) {
        (true, v) if v < 320 => need("GL_OES_sample_variables"),
        (false, v) if v < 400 => {
            need("GL_ARB_sample_shading");
            if v < 150 {
                need("GL_ARB_texture_multisample");
            }
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{compile_program, CompileOptions, Stage};
    use super::*;

    const ES: &str = "#version 320 es\nprecision mediump float;\n\
        layout(blend_support_multiply, blend_support_hsl_hue) out;\n\
        layout(location = 0) out vec4 colour; // main\nvoid main() { colour = vec4(1.0); }\n";
    const VERTEX_ES: &str = "#version 320 es\nvoid main() { gl_Position = vec4(0.0); }\n";

    #[test]
    fn support_is_read_from_the_layout_qualifiers() {
        assert_eq!(declared_support([ES]), 1 | 1 << 11);
        let all = "layout(blend_support_all_equations) out;\n";
        assert_eq!(declared_support([all]), ALL_EQUATIONS);
        // A comment names nothing.
        assert_eq!(declared_support(["// blend_support_screen\n"]), 0);
        assert_eq!(equation_index(0x92B0), Some(15));
        assert_eq!(equation_index(0x8006), None); // GL_FUNC_ADD
        assert_eq!(equation_bit(0x9295), 2);
    }

    #[test]
    fn the_colour_output_is_found() {
        assert_eq!(colour_output(ES).as_deref(), Some("colour"));
        let desktop = "#version 150\nuniform vec4 u;\nout vec4 frag;\nvoid main() { frag = u; }\n";
        assert_eq!(colour_output(desktop).as_deref(), Some("frag"));
        assert_eq!(
            colour_output("void main() { vec4 out_ = vec4(0.0); }\n"),
            None
        );
    }

    #[test]
    fn a_wrapped_stage_compiles_and_keeps_one_output() {
        let mut fs = ES.to_owned();
        assert!(add_blending(&mut [&mut fs]));
        assert!(
            fs.contains("void arena_blend_main() { colour = vec4(1.0); }"),
            "{fs}"
        );
        assert!(fs.contains("// main\n"), "comments are not renamed: {fs}");
        let p = compile_program(
            &[(Stage::Vertex, VERTEX_ES), (Stage::Fragment, &fs)],
            CompileOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{e:?}\n{fs}"));
        let outputs: Vec<_> = p.reflection.frag_outputs.iter().map(|o| &o.name).collect();
        assert_eq!(outputs, ["colour"]);
        assert!(p.reflection.samplers.iter().any(|s| s.name == DST_SAMPLER));
        assert!(p
            .reflection
            .samplers
            .iter()
            .any(|s| s.name == DST_SAMPLER_MS));
        assert!(fs.starts_with("#version 320 es\n#line 2\n"), "{fs}");
    }

    #[test]
    fn versions_without_sample_ids_enable_an_extension() {
        assert_eq!(sample_directives(ES), "");
        let es31 = sample_directives("#version 310 es\n");
        assert_eq!(es31, "#extension GL_OES_sample_variables : require\n");
        let core = sample_directives("#version 330 core\n");
        assert_eq!(core, "#extension GL_ARB_sample_shading : require\n");
        assert!(sample_directives("#version 140\n").contains("GL_ARB_texture_multisample"));
        assert_eq!(sample_directives("#version 450\n"), "");
    }

    #[test]
    fn a_stage_without_support_is_left_alone() {
        let mut fs =
            "#version 320 es\nout highp vec4 c;\nvoid main() { c = vec4(1.0); }\n".to_owned();
        let before = fs.clone();
        assert!(!add_blending(&mut [&mut fs]));
        assert_eq!(fs, before);
    }
}
