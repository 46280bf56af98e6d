//! GL_ARB_shader_texture_image_samples below GLSL 4.30.
//!
//! The extension (GLSL 4.50 core) adds `int textureSamples(gsampler2DMS[Array])` and
//! `int imageSamples(gimage2DMS[Array])` to any GLSL from 1.50 (piglit's tests are GLSL 1.50
//! units that enable it); glslang declares both only from GLSL 4.30, whatever the directive says.
//!
//! Design decisions:
//! - A unit below 4.30 that enables the extension gets the functions declared after its
//!   `#version`, one overload per multisample sampler (and image) type, as SPIR-V's
//!   `OpImageQuerySamples` through glslang's `GL_EXT_spirv_intrinsics`, followed by a `#line`
//!   that keeps the application's numbering (`extensions::after_version`) — the same scheme as
//!   `query_levels`, and for the same reason: compiling such units as 4.30 would change what
//!   else they mean.
//! - The query takes an image, so `query_levels::extract_images` gives a sampler's query the
//!   image of the sampler (as glslang does for its own `textureSamples`); an image's query
//!   already has one.
//! - Image types below GLSL 4.20 need GL_ARB_shader_image_load_store: `imageSamples` is
//!   declared only where the unit enables it, with it on just for the declarations. The
//!   parameter carries every memory qualifier, as glslang's own declaration does, so an image
//!   of any access can be passed.
//! - The query answers the sample count of the image view the unit binds: the texture's.
#![deny(unsafe_code, clippy::unwrap_used, clippy::expect_used)]

use super::extensions::{after_version, enables};
use super::version::{read, Number};

/// The extension's name.
pub(crate) const EXTENSION: &str = "GL_ARB_shader_texture_image_samples";

/// The extension that gives GLSL below 4.20 its image types.
const IMAGES: &str = "GL_ARB_shader_image_load_store";

/// The first desktop version glslang declares the functions in.
const GLSLANG_VERSION: u32 = 430;

/// The first desktop version with image types in core.
const IMAGE_VERSION: u32 = 420;

/// The extension that gives GLSL below 1.50 its multisample sampler types.
const MULTISAMPLE: &str = "GL_ARB_texture_multisample";

/// The first desktop version with multisample sampler types in core.
const MULTISAMPLE_VERSION: u32 = 150;

/// SPIR-V's `ImageQuery` capability.
const IMAGE_QUERY: u32 = 50;

/// SPIR-V's `OpImageQuerySamples`.
pub(crate) const IMAGE_QUERY_SAMPLES: u16 = 107;

/// The prefixes of the sampler and image types (float, int, unsigned).
const PREFIXES: [&str; 3] = ["", "i", "u"];

/// The multisample dimensionalities.
const DIMS: [&str; 2] = ["2DMS", "2DMSArray"];

/// Whether `source` (the application's text) is a desktop unit below 4.30 that enables the
/// extension, and so needs [`declare`].
pub(crate) fn wanted(source: &str) -> bool {
    let below = read(source).is_none_or(|d| {
        d.profile.as_deref() != Some("es")
            && matches!(d.number, Number::Value(v) if v < GLSLANG_VERSION)
    });
    below && enables(source, EXTENSION)
}

/// `source` with `textureSamples` (and, where it has image types, `imageSamples`) declared
/// after its `#version` (see the module docs).
pub(crate) fn declare(source: &str) -> String {
    let version = read(source).map_or(110, |d| match d.number {
        Number::Value(v) => v,
        _ => 110,
    });
    let mut block = String::from("#extension GL_EXT_spirv_intrinsics : enable\n");
    let samplers = |p: &str, d: &str| format!("textureSamples({p}sampler{d} s)");
    let images = |p: &str, d: &str| {
        format!("imageSamples(readonly writeonly volatile coherent {p}image{d} i)")
    };
    for (types, core, extension) in [
        (
            &samplers as &dyn Fn(&str, &str) -> String,
            MULTISAMPLE_VERSION,
            MULTISAMPLE,
        ),
        (&images, IMAGE_VERSION, IMAGES),
    ] {
        if version >= core {
            declare_overloads(&mut block, types);
        } else if enables(source, extension) {
            // Below `core` the unit's own directives come after the block: the types are
            // named with the extension on just for their declarations.
            block.push_str(&format!("#extension {extension} : enable\n"));
            declare_overloads(&mut block, types);
            block.push_str(&format!("#extension {extension} : disable\n"));
        }
    }
    block.push_str("#extension GL_EXT_spirv_intrinsics : disable\n");
    after_version(source, &block, false)
}

/// One overload of `signature(prefix, dimensionality)` per multisample type, each an `int`
/// function that is an `OpImageQuerySamples`.
fn declare_overloads(block: &mut String, signature: &dyn Fn(&str, &str) -> String) {
    for (prefix, dim) in PREFIXES.iter().flat_map(|p| DIMS.map(|d| (p, d))) {
        block.push_str(&format!(
            "spirv_instruction(capabilities = [{IMAGE_QUERY}], id = {IMAGE_QUERY_SAMPLES}) \
             int {};\n",
            signature(prefix, dim)
        ));
    }
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;
    use crate::glsl::rect::{opcode, split};
    use crate::glsl::Stage;

    const FS: &str = "#version 150\n#extension GL_ARB_shader_image_load_store : require\n\
                      #extension GL_ARB_shader_texture_image_samples : require\n\
                      uniform sampler2DMS s;\nuniform usampler2DMSArray t;\n\
                      writeonly uniform iimage2DMS i;\n\
                      void main() {\n#if __LINE__ != 8\n#error moved\n#endif\n\
                      gl_FragColor = vec4(textureSamples(s) + textureSamples(t) \
                      + imageSamples(i));\n}\n";

    #[test]
    fn units_below_430_that_enable_it_get_the_functions() {
        assert!(wanted(FS));
        let declared = declare(FS);
        assert!(declared.contains("id = 107) int textureSamples(usampler2DMSArray s);"));
        assert!(
            declared.contains("int imageSamples(readonly writeonly volatile coherent image2DMS")
        );
        assert!(!wanted(&FS.replace("#version 150", "#version 430")));
        assert!(!wanted("#version 150\nvoid main() {}\n"));
        let no_images = FS.replace("#extension GL_ARB_shader_image_load_store : require\n", "");
        assert!(!declare(&no_images).contains("int imageSamples("));
        let old = "#version 140\n#extension GL_ARB_shader_texture_image_samples : require\n";
        assert!(!declare(old).contains("int textureSamples("));
        let with_ms = format!("{old}#extension GL_ARB_texture_multisample : enable\n");
        assert!(declare(&with_ms).contains("int textureSamples(isampler2DMS s);"));
    }

    #[test]
    fn the_queries_read_the_sample_count_of_an_image() {
        let vs = "#version 150\nin vec4 p;\nvoid main() { gl_Position = p; }\n";
        let program = crate::glsl::compile_program(
            &[(Stage::Vertex, vs), (Stage::Fragment, FS)],
            Default::default(),
        );
        let program = program.expect("compiles");
        let words = &program.stage(Stage::Fragment).expect("fragment").spirv;
        let insts = split(words).expect("parses");
        let queries: Vec<&Vec<u32>> = insts
            .iter()
            .filter(|i| opcode(i) == IMAGE_QUERY_SAMPLES)
            .collect();
        assert_eq!(queries.len(), 3);
        const OP_IMAGE: u16 = 100;
        let images = queries
            .iter()
            .filter(|q| (insts.iter()).any(|i| opcode(i) == OP_IMAGE && i.get(2) == Some(&q[3])));
        assert_eq!(images.count(), 2, "each sampler's query takes its image");
    }
}
