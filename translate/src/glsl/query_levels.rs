//! GL_ARB_texture_query_levels below GLSL 4.30.
//!
//! The extension (GLSL 4.30 core) adds `int textureQueryLevels(gsampler*)` to any GLSL from
//! 1.30 (piglit's tests are GLSL 1.10 and 1.30 units that enable it); glslang declares it only
//! from GLSL 4.30 and has no `#extension` for it.
//!
//! Design decisions:
//! - A unit below 4.30 that enables the extension gets the function declared after its
//!   `#version`, one overload per sampler type GLSL 1.30 has (and the cube-array ones where the
//!   unit may name them), as SPIR-V's `OpImageQueryLevels` through glslang's
//!   `GL_EXT_spirv_intrinsics`, followed by a `#line` that keeps the application's numbering
//!   (`extensions::after_version`). Compiling such units as 4.30 instead would change what else
//!   they mean (new keywords, `gl_FragColor` gone from the core profile).
//! - glslang passes the combined sampler as it is, while `OpImageQueryLevels` takes the image:
//!   [`extract_images`] puts an `OpImage` in front of every query whose operand is a sampled
//!   image — exactly what glslang emits for its own `textureQueryLevels` from 4.30 on.
//! - The directive is blanked by `extensions` (glslang does not know the name), so whether the
//!   unit enables the extension is read from the application's text, before that rewrite
//!   ([`wanted`]), and the declarations are added after it ([`declare`]).
//! - The query answers the levels of the image view the texture unit binds, which spans the
//!   texture's base level to its effective maximum level: the number GL defines.
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;

use super::extensions::{after_version, enables};
use super::rect::{header, opcode, split};
use super::spirv::{ParseError, MAGIC};
use super::version::{read, Number};

/// The extension's name.
pub(crate) const EXTENSION: &str = "GL_ARB_texture_query_levels";

/// The extension that gives GLSL below 4.00 the cube-array sampler types.
const CUBE_ARRAY: &str = "GL_ARB_texture_cube_map_array";

/// The first desktop version glslang declares `textureQueryLevels` in.
const GLSLANG_VERSION: u32 = 430;

/// SPIR-V's `ImageQuery` capability.
const IMAGE_QUERY: u32 = 50;

/// Opcodes the pass reads or writes (SPIR-V 1.6 unified specification, section 3.52).
mod op {
    pub const TYPE_SAMPLED_IMAGE: u16 = 27;
    pub const FUNCTION_PARAMETER: u16 = 55;
    pub const FUNCTION_CALL: u16 = 57;
    pub const LOAD: u16 = 61;
    pub const COPY_OBJECT: u16 = 83;
    pub const SAMPLED_IMAGE: u16 = 86;
    pub const IMAGE: u16 = 100;
    pub const IMAGE_QUERY_LEVELS: u16 = 106;
    pub const SELECT: u16 = 169;
    pub const PHI: u16 = 245;
}

/// The image queries glslang is given a sampled image for: this extension's, and
/// GL_ARB_shader_texture_image_samples's `OpImageQuerySamples` (`texture_samples`).
const QUERIES: [u16; 2] = [
    op::IMAGE_QUERY_LEVELS,
    super::texture_samples::IMAGE_QUERY_SAMPLES,
];

/// Instructions whose first operands are a result type and a result id and that can yield a
/// sampled image.
const TYPED_VALUES: [u16; 7] = [
    op::FUNCTION_PARAMETER,
    op::FUNCTION_CALL,
    op::LOAD,
    op::COPY_OBJECT,
    op::SAMPLED_IMAGE,
    op::SELECT,
    op::PHI,
];

/// The sampler types of GLSL 1.30 `textureQueryLevels` takes (no rectangle, buffer or
/// multisample ones).
const SAMPLERS: [&str; 23] = [
    "sampler1D",
    "sampler2D",
    "sampler3D",
    "samplerCube",
    "sampler1DArray",
    "sampler2DArray",
    "sampler1DShadow",
    "sampler2DShadow",
    "samplerCubeShadow",
    "sampler1DArrayShadow",
    "sampler2DArrayShadow",
    "isampler1D",
    "isampler2D",
    "isampler3D",
    "isamplerCube",
    "isampler1DArray",
    "isampler2DArray",
    "usampler1D",
    "usampler2D",
    "usampler3D",
    "usamplerCube",
    "usampler1DArray",
    "usampler2DArray",
];

/// The cube-array sampler types (GLSL 4.00, or GL_ARB_texture_cube_map_array).
const CUBE_ARRAY_SAMPLERS: [&str; 4] = [
    "samplerCubeArray",
    "samplerCubeArrayShadow",
    "isamplerCubeArray",
    "usamplerCubeArray",
];

/// Whether `source` (the application's text) is a desktop unit below 4.30 that enables the
/// extension, and so needs [`declare`].
pub(crate) fn wanted(source: &str) -> bool {
    let below = read(source).is_none_or(|d| {
        d.profile.as_deref() != Some("es")
            && matches!(d.number, Number::Value(v) if v < GLSLANG_VERSION)
    });
    below && enables(source, EXTENSION)
}

/// `source` with `textureQueryLevels` declared after its `#version` (see the module docs).
pub(crate) fn declare(source: &str) -> String {
    let core = read(source).is_some_and(|d| matches!(d.number, Number::Value(v) if v >= 400));
    // Below 4.00 the unit's own directives come after the block: the cube-array types are
    // named with the extension on just for their declarations.
    let cube_array = !core && enables(source, CUBE_ARRAY);
    let extra: &[&str] = if core || cube_array {
        &CUBE_ARRAY_SAMPLERS
    } else {
        &[]
    };
    let mut block = String::from("#extension GL_EXT_spirv_intrinsics : enable\n");
    if cube_array {
        block.push_str(&format!("#extension {CUBE_ARRAY} : enable\n"));
    }
    for ty in SAMPLERS.iter().chain(extra) {
        block.push_str(&format!(
            "spirv_instruction(capabilities = [{IMAGE_QUERY}], id = {}) \
             int textureQueryLevels({ty} s);\n",
            op::IMAGE_QUERY_LEVELS
        ));
    }
    if cube_array {
        block.push_str(&format!("#extension {CUBE_ARRAY} : disable\n"));
    }
    block.push_str("#extension GL_EXT_spirv_intrinsics : disable\n");
    after_version(source, &block, false)
}

/// Gives every query of [`QUERIES`] of a sampled image its image through an `OpImage` (see the
/// module docs). Returns whether the module changed.
pub(crate) fn extract_images(words: &mut Vec<u32>) -> Result<bool, ParseError> {
    let mut insts = split(words)?;
    let mut sampled_types: HashMap<u32, u32> = HashMap::new();
    let mut value_types: HashMap<u32, u32> = HashMap::new();
    for inst in &insts {
        match (opcode(inst), inst.get(1), inst.get(2)) {
            (op::TYPE_SAMPLED_IMAGE, Some(&id), Some(&image)) => {
                sampled_types.insert(id, image);
            }
            (o, Some(&ty), Some(&id)) if TYPED_VALUES.contains(&o) => {
                value_types.insert(id, ty);
            }
            _ => {}
        }
    }
    let mut bound = words[3];
    let mut out: Vec<Vec<u32>> = Vec::with_capacity(insts.len());
    let mut changed = false;
    for mut inst in insts.drain(..) {
        if QUERIES.contains(&opcode(&inst)) && inst.len() == 4 {
            let operand = inst[3];
            let image_type = value_types
                .get(&operand)
                .and_then(|ty| sampled_types.get(ty));
            if let Some(&image_type) = image_type {
                let image = bound;
                bound += 1;
                out.push(vec![header(op::IMAGE, 4), image_type, image, operand]);
                inst[3] = image;
                changed = true;
            }
        }
        out.push(inst);
    }
    if changed {
        let mut rebuilt = Vec::with_capacity(words.len() + 4 * out.len());
        rebuilt.extend_from_slice(&[MAGIC, words[1], words[2], bound, words[4]]);
        rebuilt.extend(out.into_iter().flatten());
        *words = rebuilt;
    }
    Ok(changed)
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;
    use crate::glsl::Stage;

    const FS: &str = "#version 150\n#extension GL_ARB_texture_query_levels : require\n\
                      uniform sampler2D s;\nuniform isampler3D t;\nout vec4 c;\n\
                      void main() {\n#if __LINE__ != 7\n#error moved\n#endif\n\
                      c = vec4(textureQueryLevels(s) + textureQueryLevels(t));\n}\n";

    #[test]
    fn units_below_430_that_enable_it_get_the_function() {
        assert!(wanted(FS));
        let declared = declare(FS);
        assert!(declared.contains("id = 106) int textureQueryLevels(usampler2DArray s);"));
        assert!(!declared.contains("samplerCubeArray"));
        assert!(!wanted(&FS.replace("#version 150", "#version 430")));
        assert!(!wanted("#version 150\nvoid main() {}\n"));
        let cube = FS.replace(
            "\nuniform",
            "\n#extension GL_ARB_texture_cube_map_array : enable\nuniform",
        );
        assert!(declare(&cube).contains("int textureQueryLevels(samplerCubeArray s);"));
    }

    #[test]
    fn the_queries_take_the_image_of_the_sampler() {
        let vs = "#version 150\nin vec4 p;\nvoid main() { gl_Position = p; }\n";
        let fs = declare(FS).replace("#extension GL_ARB_texture_query_levels : require", "");
        let program = crate::glsl::compile_program(
            &[(Stage::Vertex, vs), (Stage::Fragment, &fs)],
            Default::default(),
        );
        let program = program.expect("compiles");
        let words = &program.stage(Stage::Fragment).expect("fragment").spirv;
        let insts = split(words).expect("parses");
        let queries: Vec<&Vec<u32>> = insts
            .iter()
            .filter(|i| opcode(i) == op::IMAGE_QUERY_LEVELS)
            .collect();
        assert_eq!(queries.len(), 2);
        for q in queries {
            let def = insts
                .iter()
                .find(|i| i.get(2) == Some(&q[3]))
                .expect("defined");
            assert_eq!(opcode(def), op::IMAGE, "{def:?}");
        }
    }
}
