//! The fragment epilogue: what a legacy fragment stage does after the application's `main`, for
//! the colour outputs that GL defines around the shader and Vulkan does not.
//!
//! Design decisions:
//! - One extra fragment unit, linked with the program's upgraded legacy units: it holds the real
//!   `main`, which calls the application's (renamed [`legacy::USER_MAIN`] by
//!   [`legacy::upgrade_for_epilogue`]) and then writes the outputs. `gl_FragColor` and
//!   `gl_FragData[]` are private globals shared by name across the units (GLSL links globals of
//!   one stage), so the application's units need no other change and keep their line numbers.
//! - `gl_FragColor` goes to every draw buffer (GL 3.0 §3.12.2): the epilogue writes it to all
//!   [`DRAW_BUFFERS`] locations; writes to locations with no attachment are discarded by Vulkan.
//!   `gl_FragData[i]` goes to location i.
//! - The compatibility alpha test (GL 2.1 §4.1.4) compares the alpha of output 0 (draw buffer 0)
//!   with `GL_ALPHA_TEST_REF` and discards: the function is the specialization constant
//!   [`ALPHA_FUNC_CONSTANT`] (one pipeline per function in use; `GL_ALWAYS` when the test is
//!   off), the reference the built-in uniform `arena_ff_AlphaRef`, filled per draw, so moving it
//!   costs no pipeline.
//! - Fragment colour clamping (`glClampColor(GL_CLAMP_FRAGMENT_COLOR)`, ARB_color_buffer_float)
//!   clamps every output to [0, 1] before the alpha test when [`CLAMP_COLOR_CONSTANT`] is set.
//!   The GL layer sets it only for `GL_TRUE`: with `GL_FIXED_ONLY` the buffers GL would clamp are
//!   the normalized ones, which Vulkan clamps anyway before blending and storing.
//! - The polygon stipple (GL 2.1 §3.5.2) discards a fragment whose bit of the 32×32 pattern —
//!   the built-in uniform `arena_ff_PolygonStipple`, eight `uvec4`s of row words, bit x of row y
//!   for window pixel (x mod 32, y mod 32) — is clear, before the application's `main` runs.
//!   [`STIPPLE_CONSTANT`] turns it on; the GL layer sets it for triangles with
//!   `GL_POLYGON_STIPPLE` enabled. `gl_FragCoord` is GL's window position here (ArenaGL
//!   renders in GL's orientation).
//! - Only upgraded legacy fragment stages (GLSL below 1.40, the fixed-function programs among
//!   them) get the epilogue; a stage writing `out` variables of its own is left as it is.

use super::legacy::USER_MAIN;

/// The specialization constant id of the alpha function: `func - GL_NEVER` (0 never … 7 always).
pub const ALPHA_FUNC_CONSTANT: u32 = 7343;
/// The specialization constant id of fragment colour clamping (a bool).
pub const CLAMP_COLOR_CONSTANT: u32 = 7344;
/// The specialization constant id of the polygon stipple test (a bool; GL 2.1 §3.5.2).
pub const STIPPLE_CONSTANT: u32 = 7345;
/// [`ALPHA_FUNC_CONSTANT`]'s value for `GL_ALWAYS`, the test's off state.
pub const ALPHA_ALWAYS: u32 = 7;
/// Locations the epilogue writes (`GL_MAX_DRAW_BUFFERS`, the size of `gl_FragData[]`).
pub const DRAW_BUFFERS: u32 = 8;

/// Which built-in colour output the application's fragment units write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// Neither: the outputs are undefined, so the epilogue declares none.
    Nothing,
    /// `gl_FragColor`: broadcast to every draw buffer.
    FragColor,
    /// `gl_FragData[]`: one per draw buffer.
    FragData,
}

/// The stipple test every epilogue starts with (off unless [`STIPPLE_CONSTANT`] is set).
const STIPPLE: &str = "layout(constant_id = 7345) const bool arena_ff_Stipple = false;\n\
    uniform uvec4 arena_ff_PolygonStipple[8];\n\
    void arena_ff_stipple() {\n\
    \x20   if (arena_ff_Stipple) {\n\
    \x20       ivec2 p = ivec2(gl_FragCoord.xy) & 31;\n\
    \x20       uint row = arena_ff_PolygonStipple[p.y >> 2][p.y & 3];\n\
    \x20       if (((row >> uint(p.x)) & 1u) == 0u) {\n\
    \x20           discard;\n\
    \x20       }\n\
    \x20   }\n\
    }\n";

/// The epilogue unit (GLSL 3.30) for a program whose legacy units write `written`.
pub fn epilogue_unit(written: Written) -> String {
    let n = DRAW_BUFFERS;
    let mut s = format!("#version 330\nvoid {USER_MAIN}();\n{STIPPLE}");
    let colour = |i: u32| match written {
        Written::FragData => format!("arena_ff_FragData[{i}]"),
        _ => "arena_ff_FragColor".to_owned(),
    };
    match written {
        Written::Nothing => {
            s.push_str(&format!(
                "void main() {{\n    arena_ff_stipple();\n    {USER_MAIN}();\n}}\n"
            ));
            return s;
        }
        Written::FragColor => s.push_str("vec4 arena_ff_FragColor;\n"),
        Written::FragData => s.push_str(&format!("vec4 arena_ff_FragData[{n}];\n")),
    }
    s.push_str(&format!(
        "layout(location = 0) out vec4 arena_ff_FragOut[{n}];\n\
         layout(constant_id = {ALPHA_FUNC_CONSTANT}) const int arena_ff_AlphaFunc = {ALPHA_ALWAYS};\n\
         layout(constant_id = {CLAMP_COLOR_CONSTANT}) const bool arena_ff_ClampColor = false;\n\
         uniform float arena_ff_AlphaRef;\n\
         bool arena_ff_alpha_passes(float a) {{\n\
         \x20   switch (arena_ff_AlphaFunc) {{\n\
         \x20   case 0: return false;\n\
         \x20   case 1: return a < arena_ff_AlphaRef;\n\
         \x20   case 2: return a == arena_ff_AlphaRef;\n\
         \x20   case 3: return a <= arena_ff_AlphaRef;\n\
         \x20   case 4: return a > arena_ff_AlphaRef;\n\
         \x20   case 5: return a != arena_ff_AlphaRef;\n\
         \x20   case 6: return a >= arena_ff_AlphaRef;\n\
         \x20   default: return true;\n\
         \x20   }}\n\
         }}\n\
         vec4 arena_ff_clamped(vec4 c) {{\n\
         \x20   return arena_ff_ClampColor ? clamp(c, 0.0, 1.0) : c;\n\
         }}\n\
         void main() {{\n\
         \x20   arena_ff_stipple();\n\
         \x20   {USER_MAIN}();\n\
         \x20   if (!arena_ff_alpha_passes(arena_ff_clamped({}).a)) {{\n\
         \x20       discard;\n\
         \x20   }}\n",
        colour(0)
    ));
    for i in 0..n {
        s.push_str(&format!(
            "    arena_ff_FragOut[{i}] = arena_ff_clamped({});\n",
            colour(i)
        ));
    }
    s.push_str("}\n");
    s
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::super::legacy::upgrade_for_epilogue;
    use super::super::{compile_program, CompileOptions, Stage};
    use super::*;

    const VERTEX: &str = "#version 330\nin vec4 p;\nvoid main() { gl_Position = p; }\n";

    fn link(fragments: &[&str]) -> Result<super::super::Program, super::super::CompileError> {
        let mut writes = (false, false);
        let mut units: Vec<(Stage, String)> = vec![(Stage::Vertex, VERTEX.to_owned())];
        for f in fragments {
            let u = upgrade_for_epilogue(f);
            writes.0 |= u.writes_frag_color;
            writes.1 |= u.writes_frag_data;
            units.push((Stage::Fragment, u.source));
        }
        let written = match writes {
            (true, _) => Written::FragColor,
            (_, true) => Written::FragData,
            _ => Written::Nothing,
        };
        units.push((Stage::Fragment, epilogue_unit(written)));
        let refs: Vec<(Stage, &str)> = units.iter().map(|(s, c)| (*s, c.as_str())).collect();
        compile_program(&refs, CompileOptions::default())
    }

    fn outputs(p: &super::super::Program) -> HashMap<String, u32> {
        p.reflection
            .frag_outputs
            .iter()
            .map(|o| (o.name.clone(), o.location))
            .collect()
    }

    #[test]
    fn frag_color_written_in_another_unit_reaches_the_epilogues_outputs() {
        // `main` in one unit, the `gl_FragColor` write in another: the private global is one.
        let p = link(&[
            "void colour();\nvoid main() { colour(); }\n",
            "void colour() { gl_FragColor = vec4(1.0); }\n",
        ])
        .unwrap();
        let out = outputs(&p);
        assert_eq!(out.get("arena_ff_FragOut"), Some(&0), "{out:?}");
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(p
            .reflection
            .default_block
            .as_ref()
            .is_some_and(|b| b.members.iter().any(|m| m.name == "arena_ff_AlphaRef")));
    }

    #[test]
    fn frag_data_and_nothing_link() {
        let p = link(&["#version 130\nvoid main() { gl_FragData[1] = vec4(1.0); }\n"]).unwrap();
        assert_eq!(outputs(&p).get("arena_ff_FragOut"), Some(&0));
        let none = link(&["void main() { discard; }\n"]).unwrap();
        assert!(none.reflection.frag_outputs.is_empty());
    }

    #[test]
    fn the_epilogue_writes_every_location_from_the_right_source() {
        let colour = epilogue_unit(Written::FragColor);
        assert!(colour.contains("arena_ff_FragOut[7] = arena_ff_clamped(arena_ff_FragColor);"));
        let data = epilogue_unit(Written::FragData);
        assert!(data.contains("arena_ff_FragOut[7] = arena_ff_clamped(arena_ff_FragData[7]);"));
        assert!(data.contains("arena_ff_clamped(arena_ff_FragData[0]).a"));
    }
}
