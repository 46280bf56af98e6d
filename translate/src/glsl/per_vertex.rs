//! `gl_PerVertex` redeclarations below GLSL 4.10.
//!
//! GL_ARB_separate_shader_objects lets a unit redeclare the built-in `gl_PerVertex` blocks (to
//! name the members a separable stage writes or reads). glslang takes a redeclaration below
//! 4.10 only with `#extension GL_ARB_separate_shader_objects` enabled, while GL
//! implementations (Mesa) take it in any GLSL 1.50+ unit of a context offering the extension
//! (piglit's tests redeclare it in 1.50 and 4.00 units without the directive). Such a unit
//! gets the directive after its `#version`, followed by a `#line` that restores the numbering.

use std::borrow::Cow;

use super::version::{read, Number};

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
}
