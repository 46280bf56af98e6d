//! `gl_FragCoord` layout qualifiers (`origin_upper_left`, `pixel_center_integer`, GLSL 1.50
//! §4.3.8.1 and GL_ARB_fragment_coord_conventions), lowered out of the source.
//!
//! Vulkan has neither: SPIR-V for Vulkan must use `OriginUpperLeft` and must not use
//! `PixelCenterInteger`, and glslang emits the latter as asked. glslang's linker also compares
//! the modes of every fragment unit and so refuses a program where one unit redeclares the
//! variable and another, which never mentions it, does not ("gl_FragCoord redeclarations must
//! match across shaders").
//!
//! Design decisions:
//! - ArenaGL renders in GL's orientation (`gl::state`), so Vulkan's `gl_FragCoord` is GL's
//!   default (lower-left origin, half-integer centres). A redeclaration is removed from the
//!   source, and every other `gl_FragCoord` token of its unit becomes an expression: minus 0.5
//!   in x and y for `pixel_center_integer`; `height - y` for `origin_upper_left`, where the
//!   height is the specialization constant [`HEIGHT_CONSTANT`] that the pipeline sets to the
//!   draw framebuffer's height. Its declaration takes the redeclaration's place, which is before
//!   any use (GLSL forbids redeclaring after a use). Line numbers do not change.
//! - The spec's link errors are ours to report, since the redeclarations are gone before
//!   glslang links: redeclarations with different qualifiers, and a unit that uses
//!   `gl_FragCoord` without redeclaring it while another unit does.
//! - Units without a redeclaration are borrowed untouched.

use std::borrow::Cow;

use super::scan::{tokens, Kind, Token};
use super::{CompileError, Stage};

/// The specialization constant id of the draw framebuffer's height, declared by fragment units
/// that redeclare `gl_FragCoord` with `origin_upper_left`.
pub const HEIGHT_CONSTANT: u32 = 7342;
const HEIGHT_NAME: &str = "arenagl_frag_coord_height";

/// The layout a redeclaration gives `gl_FragCoord`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FragCoordLayout {
    pub origin_upper_left: bool,
    pub pixel_center_integer: bool,
}

/// One fragment unit's `gl_FragCoord` redeclaration: its token range and layout.
struct Redeclaration {
    first: usize,
    semicolon: usize,
    layout: FragCoordLayout,
}

/// The redeclaration among `t` (top-level `… in vec4 gl_FragCoord;`), if any.
fn redeclaration(source: &str, t: &[Token]) -> Option<Redeclaration> {
    let mut start = 0;
    let mut depth = 0usize;
    for (i, k) in t.iter().enumerate() {
        match k.kind {
            Kind::Punct(b'{') => depth += 1,
            Kind::Punct(b'}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    start = i + 1;
                }
            }
            Kind::Punct(b';') if depth == 0 => {
                let stmt = &t[start..i];
                let n = stmt.len();
                if n >= 3
                    && stmt[n - 1].is_word(source, "gl_FragCoord")
                    && stmt[n - 2].is_word(source, "vec4")
                    && stmt.iter().any(|s| s.is_word(source, "in"))
                {
                    let has = |w: &str| stmt.iter().any(|s| s.is_word(source, w));
                    return Some(Redeclaration {
                        first: start,
                        semicolon: i,
                        layout: FragCoordLayout {
                            origin_upper_left: has("origin_upper_left"),
                            pixel_center_integer: has("pixel_center_integer"),
                        },
                    });
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    None
}

/// `source` with its redeclaration removed and its uses rewritten for `layout`.
fn lower(source: &str, t: &[Token], r: &Redeclaration) -> String {
    let layout = r.layout;
    let p = if layout.pixel_center_integer {
        "0.5"
    } else {
        "0.0"
    };
    let use_text = if layout.origin_upper_left {
        format!("vec4(gl_FragCoord.x - {p}, {HEIGHT_NAME} - gl_FragCoord.y - {p}, gl_FragCoord.zw)")
    } else if layout.pixel_center_integer {
        "(gl_FragCoord - vec4(0.5, 0.5, 0.0, 0.0))".to_owned()
    } else {
        "gl_FragCoord".to_owned()
    };
    let mut out = String::with_capacity(source.len() + 64);
    let (from, to) = (t[r.first].start, t[r.semicolon].end);
    out.push_str(&source[..from]);
    if layout.origin_upper_left {
        out.push_str(&format!(
            "layout(constant_id = {HEIGHT_CONSTANT}) const float {HEIGHT_NAME} = 1.0;"
        ));
    }
    // The removed text's newlines stay, so every later line keeps its number.
    out.extend(source[from..to].chars().filter(|&c| c == '\n'));
    let mut at = to;
    for k in &t[r.semicolon + 1..] {
        if k.is_word(source, "gl_FragCoord") {
            out.push_str(&source[at..k.start]);
            out.push_str(&use_text);
            at = k.end;
        }
    }
    out.push_str(&source[at..]);
    out
}

/// A program's sources, each borrowed unless rewritten.
pub(crate) type Sources<'a> = Vec<(Stage, Cow<'a, str>)>;

/// The program's sources with `gl_FragCoord` redeclarations lowered (see the module comment),
/// and the layout they gave it; a link error where the units disagree.
pub(crate) fn lower_redeclarations<'a>(
    stages: &[(Stage, &'a str)],
) -> Result<(Sources<'a>, FragCoordLayout), CompileError> {
    let mut out: Sources<'a> = stages.iter().map(|&(s, c)| (s, Cow::Borrowed(c))).collect();
    let mut program_layout: Option<FragCoordLayout> = None;
    let mut users_without = false;
    for (stage, source) in out.iter_mut() {
        if *stage != Stage::Fragment || !source.contains("gl_FragCoord") {
            continue;
        }
        let t = tokens(source);
        let Some(r) = redeclaration(source, &t) else {
            users_without |= t.iter().any(|k| k.is_word(source, "gl_FragCoord"));
            continue;
        };
        if program_layout.is_some_and(|l| l != r.layout) {
            return Err(link_error(
                "gl_FragCoord is redeclared with different layout qualifiers",
            ));
        }
        program_layout = Some(r.layout);
        *source = Cow::Owned(lower(source, &t, &r));
    }
    match program_layout {
        Some(_) if users_without => Err(link_error(
            "a fragment shader uses gl_FragCoord without the redeclaration another one has",
        )),
        layout => Ok((out, layout.unwrap_or_default())),
    }
}

fn link_error(what: &str) -> CompileError {
    CompileError::Link {
        log: format!("ERROR: Linking fragment stage: {what} (GLSL 1.50 section 4.3.8.1)\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAIN: &str = "layout(origin_upper_left, pixel_center_integer)\n  in vec4 gl_FragCoord;\nvoid blue();\nvoid main() { gl_FragColor = gl_FragCoord; blue(); }\n";
    const BLUE: &str = "void blue() { gl_FragColor.b = 1.0; }";

    fn lowered(stages: &[(Stage, &str)]) -> Vec<String> {
        let (out, _) = lower_redeclarations(stages).unwrap();
        out.into_iter().map(|(_, c)| c.into_owned()).collect()
    }

    #[test]
    fn a_redeclaration_becomes_the_height_constant_and_uses_become_expressions() {
        let (out, layout) = lower_redeclarations(&[
            (Stage::Vertex, "void main() { gl_Position = vec4(0.0); }"),
            (Stage::Fragment, MAIN),
            (Stage::Fragment, BLUE),
        ])
        .unwrap();
        assert_eq!(
            layout,
            FragCoordLayout {
                origin_upper_left: true,
                pixel_center_integer: true
            }
        );
        assert!(matches!(out[0].1, Cow::Borrowed(_)));
        assert!(matches!(out[2].1, Cow::Borrowed(_)));
        assert_eq!(
            out[1].1,
            "layout(constant_id = 7342) const float arenagl_frag_coord_height = 1.0;\n\nvoid blue();\nvoid main() { gl_FragColor = vec4(gl_FragCoord.x - 0.5, arenagl_frag_coord_height - gl_FragCoord.y - 0.5, gl_FragCoord.zw); blue(); }\n"
        );
    }

    #[test]
    fn pixel_centres_alone_need_no_constant_and_a_plain_redeclaration_changes_nothing() {
        let pci = "layout(pixel_center_integer) in vec4 gl_FragCoord;\nvoid main() { gl_FragColor = gl_FragCoord.xyxy; }\n";
        assert_eq!(
            lowered(&[(Stage::Fragment, pci)])[0],
            "\nvoid main() { gl_FragColor = (gl_FragCoord - vec4(0.5, 0.5, 0.0, 0.0)).xyxy; }\n"
        );
        let plain = "in vec4 gl_FragCoord;\nvoid main() { gl_FragColor = gl_FragCoord; }\n";
        assert_eq!(
            lowered(&[(Stage::Fragment, plain)])[0],
            "\nvoid main() { gl_FragColor = gl_FragCoord; }\n"
        );
    }

    #[test]
    fn the_specs_link_errors_are_reported() {
        let uses = "void blue() { gl_FragColor = gl_FragCoord; }\n";
        assert!(lower_redeclarations(&[(Stage::Fragment, MAIN), (Stage::Fragment, uses)]).is_err());
        let other = "layout(origin_upper_left) in vec4 gl_FragCoord;\nvoid alpha() {}\n";
        assert!(
            lower_redeclarations(&[(Stage::Fragment, MAIN), (Stage::Fragment, other)]).is_err()
        );
        // A commented-out redeclaration is none; a use alone is fine.
        let commented = "// layout(origin_upper_left) in vec4 gl_FragCoord;\nvoid main() { gl_FragColor = gl_FragCoord; }\n";
        let out = lowered(&[(Stage::Fragment, commented), (Stage::Fragment, uses)]);
        assert_eq!(out[0], commented);
    }
}
