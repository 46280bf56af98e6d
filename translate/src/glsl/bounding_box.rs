//! `gl_BoundingBox` (GLSL ES 3.20; `gl_BoundingBoxEXT`/`gl_BoundingBoxOES` with
//! GL_EXT/OES_primitive_bounding_box): accepted in a tessellation control shader and dropped.
//!
//! Design decisions:
//! - The box is a hint for tiling GPUs: primitives outside it are undefined, so ignoring it
//!   is conformant (OpenGL ES 3.2 §13.8). Vulkan has no such built-in, and glslang emits the
//!   variable as an output without a `BuiltIn` decoration (nor a location), which a pipeline
//!   must not carry.
//! - The unit's uses become a private array ([`PRIVATE`], declared in front of the unit's first
//!   token on that token's line, so line numbers stay the application's). Writes land there and
//!   a read gives what the invocation wrote, as the output would.
//! - Each spelling is dropped only where glslang declares it: a `#version 320 es` unit for
//!   `gl_BoundingBox`, a unit that names the extension for the suffixed ones (GLSL ES 3.10's
//!   `#extension` then still decides whether the unit compiles, as glslang judges the
//!   directive). Elsewhere the name is left for glslang to refuse.

use std::borrow::Cow;

use super::{legacy, scan, version, Stage};

/// The private array the built-in's uses become.
const PRIVATE: &str = "arena_ff_bounding_box";

/// `source` with its uses of the bounding box built-in moved to a private array, when it is a
/// tessellation control unit of GLSL ES that may use it; otherwise unchanged.
pub(crate) fn drop_writes(stage: Stage, source: &str) -> Cow<'_, str> {
    if stage != Stage::TessControl || !source.contains("gl_BoundingBox") {
        return Cow::Borrowed(source);
    }
    let Some(d) = version::read(source) else {
        return Cow::Borrowed(source);
    };
    if d.profile.as_deref() != Some("es") {
        return Cow::Borrowed(source);
    }
    let core = d.number == version::Number::Value(320);
    let declared = |name: &str| match name {
        "gl_BoundingBox" => core,
        "gl_BoundingBoxEXT" => source.contains("GL_EXT_primitive_bounding_box"),
        "gl_BoundingBoxOES" => source.contains("GL_OES_primitive_bounding_box"),
        _ => false,
    };
    let Some(first) = scan::tokens(source).first().map(|t| t.start) else {
        return Cow::Borrowed(source);
    };
    let (head, body) = source.split_at(first);
    let mut dropped = false;
    let body = legacy::rewrite_identifiers(body, |ident, out| {
        if declared(ident) {
            dropped = true;
            out.push_str(PRIVATE);
        } else {
            out.push_str(ident);
        }
    });
    if !dropped {
        return Cow::Borrowed(source);
    }
    Cow::Owned(format!("{head}highp vec4 {PRIVATE}[2]; {body}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TCS: &str = "#version 320 es\n// a comment\nlayout(vertices = 1) out;\n\
                       void main() { gl_BoundingBox[0] = vec4(0.0); }\n";

    #[test]
    fn the_built_in_becomes_a_private_array_on_the_same_lines() {
        let out = drop_writes(Stage::TessControl, TCS);
        assert_eq!(out.lines().count(), TCS.lines().count());
        assert!(
            out.contains("\nhighp vec4 arena_ff_bounding_box[2]; layout(vertices"),
            "{out}"
        );
        assert!(
            out.contains("arena_ff_bounding_box[0] = vec4(0.0)"),
            "{out}"
        );
        let r = crate::glsl::compile_shader(Stage::TessControl, &out, Default::default());
        assert!(r.is_ok(), "{r:?}");
    }

    #[test]
    fn only_where_glslang_declares_it() {
        assert_eq!(drop_writes(Stage::Vertex, TCS), TCS);
        let es31 = TCS.replace("320 es", "310 es");
        assert_eq!(drop_writes(Stage::TessControl, &es31), es31);
        let ext = es31
            .replace(
                "\n//",
                "\n#extension GL_EXT_primitive_bounding_box : require\n//",
            )
            .replace("gl_BoundingBox[", "gl_BoundingBoxEXT[");
        assert_ne!(drop_writes(Stage::TessControl, &ext), ext);
        let desktop = TCS.replace("320 es", "450");
        assert_eq!(drop_writes(Stage::TessControl, &desktop), desktop);
    }
}
