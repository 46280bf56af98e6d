//! GL_ARB_derivative_control below GLSL 4.00.
//!
//! The extension (GLSL 4.50 core) adds `dFdxFine`, `dFdyFine`, `fwidthFine` and their `Coarse`
//! siblings to fragment shaders of any version from 1.50 (piglit's tests are GLSL 1.10 and 1.50
//! units that enable it), while glslang declares them only from GLSL 4.00. A fragment unit below
//! 4.00 that enables the extension gets them declared after its `#version` as the SPIR-V
//! instructions they are (`OpDPdxFine` …, capability `DerivativeControl`, which every Vulkan
//! device has), through glslang's `GL_EXT_spirv_intrinsics`, followed by a `#line` that keeps
//! the application's numbering. From 4.00 glslang's own declarations serve.

use std::borrow::Cow;

use super::extensions::{after_version, enables};
use super::version::{read, Number};
use super::Stage;

/// The extension's name.
const EXTENSION: &str = "GL_ARB_derivative_control";

/// The first desktop version glslang declares the functions in.
const GLSLANG_VERSION: u32 = 400;

/// SPIR-V's `DerivativeControl` capability.
const CAPABILITY: u32 = 51;

/// Each function and its SPIR-V opcode.
const FUNCTIONS: [(&str, u32); 6] = [
    ("dFdxFine", 210),
    ("dFdyFine", 211),
    ("fwidthFine", 212),
    ("dFdxCoarse", 213),
    ("dFdyCoarse", 214),
    ("fwidthCoarse", 215),
];

/// `source` (a unit of `stage`) with the functions declared where glslang lacks them.
pub(crate) fn declare(stage: Stage, source: &str) -> Cow<'_, str> {
    let below = read(source).is_none_or(|d| {
        d.profile.as_deref() != Some("es")
            && matches!(d.number, Number::Value(v) if v < GLSLANG_VERSION)
    });
    if stage != Stage::Fragment || !below || !enables(source, EXTENSION) {
        return Cow::Borrowed(source);
    }
    let mut block = String::from("#extension GL_EXT_spirv_intrinsics : enable\n");
    for (name, opcode) in FUNCTIONS {
        for ty in ["float", "vec2", "vec3", "vec4"] {
            block.push_str(&format!(
                "spirv_instruction(capabilities = [{CAPABILITY}], id = {opcode}) {ty} {name}({ty} p);\n"
            ));
        }
    }
    block.push_str("#extension GL_EXT_spirv_intrinsics : disable\n");
    Cow::Owned(after_version(source, &block, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FS: &str = "#version 150\n#extension GL_ARB_derivative_control : require\n\
                      out vec4 c;\nvoid main() {\n  float x = gl_FragCoord.x;\n\
                      #if __LINE__ != 6\n#error moved\n#endif\n\
                      c = vec4(dFdxFine(x), dFdyCoarse(vec2(x)), fwidthFine(x));\n}\n";

    #[test]
    fn fragment_units_below_400_get_the_functions() {
        let declared = declare(Stage::Fragment, FS);
        assert!(declared.contains("id = 210) vec4 dFdxFine(vec4 p);"));
        assert_eq!(declare(Stage::Vertex, FS), FS);
        let plain = "#version 150\nvoid main() {}\n";
        assert_eq!(declare(Stage::Fragment, plain), plain);
        let new = FS.replace("#version 150", "#version 400");
        assert_eq!(declare(Stage::Fragment, &new), new);
    }

    #[test]
    fn the_declared_functions_compile_to_spirv() {
        let vs = "#version 150\nin vec4 p;\nvoid main() { gl_Position = p; }\n";
        let program = crate::glsl::compile_program(
            &[(Stage::Vertex, vs), (Stage::Fragment, FS)],
            Default::default(),
        );
        assert!(program.is_ok(), "{program:?}");
    }
}
