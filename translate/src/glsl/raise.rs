//! Units compiled at a newer desktop GLSL version than they declare, for extensions whose GLSL
//! glslang accepts only from a version on.
//!
//! glslang takes some extensions' GLSL only from the core version that absorbed them, whatever
//! the unit's `#extension` says: arrays of arrays (GL_ARB_arrays_of_arrays) only from GLSL 4.30
//! (`arrayOfArrayVersionCheck` names no extension). A unit that enables such an extension — and
//! whose GL context offers it — is compiled as that version ([`RAISES`]); the choice is one
//! table, so an extension another version absorbed adds a row (its version, its extension).
//!
//! What the raise keeps of the unit's own version:
//! - Line numbers: the `#version` directive is rewritten in place, and the only lines added
//!   (an output declaration, below) are followed by a `#line` naming the next line.
//! - The profile: the unit stays core (the legacy upgrader has already rewritten GLSL below
//!   1.40 and the compatibility profile as GLSL 3.30, `legacy`); an ES unit is never raised.
//! - Names: words the newer version reserves that the unit's version leaves free (`sample`,
//!   `patch`, `buffer`, `shared`, …) and built-in functions it adds (`fma`, `bitCount`, …) are
//!   renamed with [`USER_PREFIX`] when the unit uses them, unless it enables an extension that
//!   gives them their new meaning; reflection strips the prefix, as for the upgrader's renames.
//! - Lookups: `texture2D()` and the other lookups named after their sampler, which glslang
//!   declares only below 4.20 (and whose names Vulkan GLSL gives its texture types), become
//!   the generic lookup they are (`texture()`, `textureProj()`, `textureLod()`).
//! - `gl_FragColor`, which glslang leaves out of the core profile from 4.20: a raised fragment
//!   unit below 4.20 writes it as an output of its own at location 0 (what glslang makes of
//!   `gl_FragColor` below 4.20), declared after the unit's leading directives.
//!
//! What the raise changes, accepted: built-in functions that the newer version has without an
//! extension (`bitCount` in 4.00) compile in a raised unit that does not enable their
//! extension, and 4.20's relaxed rules (implicit conversions in overload resolution, `const`
//! locals with non-constant initialisers, `.length()` on vectors) apply to it. Every unit that
//! is valid at its own version and enables the extension keeps its meaning.

use std::borrow::Cow;

use super::extensions;
use super::legacy::{rewrite_identifiers, USER_PREFIX};
use super::version::{read, Number};
use super::Stage;

/// Extensions whose GLSL glslang takes only from a desktop version on: (extension, version).
pub(crate) const RAISES: &[(&str, u32)] = &[
    ("GL_ARB_arrays_of_arrays", 430),
    // Constant expressions in layout qualifiers, `component`, `offset`/`align`, `xfb_*`
    // and `gl_MaxTransformFeedback*` only from 4.40 (`profileRequires(…, 440, …)`).
    ("GL_ARB_enhanced_layouts", 440),
    // `gl_CullDistance` and its constants (`gl::context::cull_distance`).
    ("GL_ARB_cull_distance", 450),
    // `atomicCounterAddARB` and the other operations: glslang declares them at 4.50 only.
    ("GL_ARB_shader_atomic_counter_ops", 450),
    // `gl_HelperInvocation`, `mix()` of integers and booleans, `imageAtomicExchange` on `r32f`
    // images, `gl_MaxSamples` and the image-uniform constants: glslang has them from 4.50
    // (its `#extension` does not know the name, `extensions::LACKING`).
    ("GL_ARB_ES3_1_compatibility", 450),
    // `anyInvocationARB`, `allInvocationsARB`, `allInvocationsEqualARB`: glslang declares
    // them from 4.30 (`group_vote` lowers what it makes of them).
    ("GL_ARB_shader_group_vote", 430),
];

/// The version glslang drops `gl_FragColor` from the core profile in.
const NO_FRAG_COLOR: u32 = 420;

/// What `gl_FragColor` becomes in a raised unit below [`NO_FRAG_COLOR`].
const FRAG_COLOR_OUTPUT: &str = "arena_ff_FragColor";

/// Words reserved (or built-in functions added) by a desktop version, with the extensions that
/// give them their meaning below it: (word, version, extensions).
const NEW_WORDS: &[(&str, u32, &[&str])] = &[
    ("patch", 400, TESSELLATION),
    ("sample", 400, GPU_SHADER5_AND_SAMPLE),
    ("subroutine", 400, &["GL_ARB_shader_subroutine"]),
    ("precise", 400, GPU_SHADER5),
    ("fma", 400, GPU_SHADER5),
    ("frexp", 400, GPU_SHADER5),
    ("ldexp", 400, GPU_SHADER5),
    ("bitfieldExtract", 400, GPU_SHADER5),
    ("bitfieldInsert", 400, GPU_SHADER5),
    ("bitfieldReverse", 400, GPU_SHADER5),
    ("bitCount", 400, GPU_SHADER5),
    ("findLSB", 400, GPU_SHADER5),
    ("findMSB", 400, GPU_SHADER5),
    ("uaddCarry", 400, GPU_SHADER5),
    ("usubBorrow", 400, GPU_SHADER5),
    ("umulExtended", 400, GPU_SHADER5),
    ("imulExtended", 400, GPU_SHADER5),
    ("textureGather", 400, GATHER),
    ("textureGatherOffset", 400, GATHER),
    ("textureGatherOffsets", 400, GPU_SHADER5),
    ("interpolateAtCentroid", 400, GPU_SHADER5),
    ("interpolateAtSample", 400, GPU_SHADER5),
    ("interpolateAtOffset", 400, GPU_SHADER5),
    ("textureQueryLod", 400, &["GL_ARB_texture_query_lod"]),
    ("coherent", 420, IMAGES),
    ("volatile", 420, IMAGES),
    ("restrict", 420, IMAGES),
    ("readonly", 420, IMAGES_AND_STORAGE),
    ("writeonly", 420, IMAGES_AND_STORAGE),
    ("memoryBarrier", 420, IMAGES_AND_STORAGE),
    ("atomic_uint", 420, &["GL_ARB_shader_atomic_counters"]),
    ("buffer", 430, STORAGE),
    ("shared", 430, &["GL_ARB_compute_shader"]),
    ("textureQueryLevels", 430, &["GL_ARB_texture_query_levels"]),
    ("atomicAdd", 430, STORAGE),
    ("atomicMin", 430, STORAGE),
    ("atomicMax", 430, STORAGE),
    ("atomicAnd", 430, STORAGE),
    ("atomicOr", 430, STORAGE),
    ("atomicXor", 430, STORAGE),
    ("atomicExchange", 430, STORAGE),
    ("atomicCompSwap", 430, STORAGE),
];

/// The lookups of GLSL 1.10 that glslang declares below 4.20 only (and whose names are
/// Vulkan GLSL's texture types), with the generic lookup each one is: a raised unit calls that.
const OLD_LOOKUPS: &[(&str, &str)] = &[
    ("texture1D", "texture"),
    ("texture2D", "texture"),
    ("texture3D", "texture"),
    ("textureCube", "texture"),
    ("texture1DProj", "textureProj"),
    ("texture2DProj", "textureProj"),
    ("texture3DProj", "textureProj"),
    ("texture1DLod", "textureLod"),
    ("texture2DLod", "textureLod"),
    ("texture3DLod", "textureLod"),
    ("textureCubeLod", "textureLod"),
    ("texture1DProjLod", "textureProjLod"),
    ("texture2DProjLod", "textureProjLod"),
    ("texture3DProjLod", "textureProjLod"),
];

const TESSELLATION: &[&str] = &["GL_ARB_tessellation_shader"];
const GPU_SHADER5: &[&str] = &["GL_ARB_gpu_shader5"];
const GPU_SHADER5_AND_SAMPLE: &[&str] = &["GL_ARB_gpu_shader5", "GL_ARB_sample_shading"];
const GATHER: &[&str] = &["GL_ARB_gpu_shader5", "GL_ARB_texture_gather"];
const IMAGES: &[&str] = &["GL_ARB_shader_image_load_store"];
const IMAGES_AND_STORAGE: &[&str] = &[
    "GL_ARB_shader_image_load_store",
    "GL_ARB_shader_storage_buffer_object",
];
const STORAGE: &[&str] = &["GL_ARB_shader_storage_buffer_object"];

/// `source` (a unit of `stage`) raised to the newest version of [`RAISES`] among the extensions
/// it enables that `offers` says the context offers; unchanged when it enables none, is ES, or
/// is already at that version (see the module docs). Runs before the context's `#extension`
/// rules rewrite the directives.
pub(crate) fn for_extensions<'s>(
    stage: Stage,
    source: &'s str,
    offers: impl Fn(&str) -> bool,
) -> Cow<'s, str> {
    let target = RAISES
        .iter()
        .filter(|(name, _)| offers(name) && extensions::enables(source, name))
        .map(|&(_, version)| version)
        .max();
    match target {
        Some(version) => raise_version(stage, source, version),
        None => Cow::Borrowed(source),
    }
}

/// `source` (a unit of `stage`) compiled as desktop GLSL `to`: its `#version` rewritten in
/// place, the names `to` reserves renamed, `gl_FragColor` kept (see the module docs).
/// Unchanged when it declares no version, an ES or newer one, or one the compile step refuses.
pub(crate) fn raise_version(stage: Stage, source: &str, to: u32) -> Cow<'_, str> {
    let Some(d) = read(source) else {
        return Cow::Borrowed(source);
    };
    let Number::Value(from) = d.number else {
        return Cow::Borrowed(source);
    };
    let es = d.profile.as_deref() == Some("es");
    if d.unoffered || es || from >= to {
        return Cow::Borrowed(source);
    }
    let f = d.found;
    let renamed = rename_new_words(&source[f.end..], source, from, to);
    let frag_color = stage == Stage::Fragment && from < NO_FRAG_COLOR && to >= NO_FRAG_COLOR;
    let tail = if frag_color && renamed.contains("gl_FragColor") {
        declare_frag_color(&renamed, f.line)
    } else {
        renamed
    };
    // The compatibility profile (which the compile step refuses for Vulkan) is kept; `core`
    // is what a version without a profile means.
    let profile = match d.profile.as_deref() {
        Some("compatibility") => " compatibility",
        _ => "",
    };
    Cow::Owned(format!(
        "{}#version {to}{profile}{tail}",
        &source[..f.start]
    ))
}

/// `tail` (the unit after its `#version`, in `source`) with the words version `to` reserves
/// and `from` leaves free renamed, unless `source` enables an extension that brings them.
fn rename_new_words(tail: &str, source: &str, from: u32, to: u32) -> String {
    rewrite_identifiers(tail, |ident, out| {
        if let Some(&(_, lookup)) = OLD_LOOKUPS.iter().find(|(old, _)| *old == ident) {
            return out.push_str(lookup);
        }
        let renamed = NEW_WORDS.iter().any(|&(word, since, brought_by)| {
            word == ident
                && from < since
                && since <= to
                && !brought_by.iter().any(|e| extensions::enables(source, e))
        });
        if renamed {
            out.push_str(USER_PREFIX);
        }
        out.push_str(ident);
    })
}

/// `tail` (the unit after its `#version` line, which is line `version_line`) writing
/// [`FRAG_COLOR_OUTPUT`] for `gl_FragColor`, declared after the leading directives.
fn declare_frag_color(tail: &str, version_line: usize) -> String {
    let renamed = rewrite_identifiers(tail, |ident, out| {
        out.push_str(if ident == "gl_FragColor" {
            FRAG_COLOR_OUTPUT
        } else {
            ident
        });
    });
    let (head, rest) = split_leading_directives(&renamed);
    // `head` ends with a newline (or is the directive line's rest); `rest` starts on the
    // application's line `version_line + lines in head`.
    let next = version_line + head.matches('\n').count();
    let mut out = String::with_capacity(renamed.len() + 96);
    out.push_str(head);
    if !head.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&format!(
        "layout(location = 0) out vec4 {FRAG_COLOR_OUTPUT};\n#line {next}\n"
    ));
    out.push_str(rest);
    out
}

/// `tail` split after the `#version` line's rest and the lines of `#extension`/`#pragma`
/// directives, comments and blanks that follow (what must stay ahead of declarations).
fn split_leading_directives(tail: &str) -> (&str, &str) {
    let mut at = tail.find('\n').map_or(tail.len(), |e| e + 1);
    let mut in_block_comment = false;
    for line in tail[at..].split_inclusive('\n') {
        let t = line.trim();
        if in_block_comment || t.starts_with("/*") {
            in_block_comment = !t.contains("*/");
        } else if !(t.is_empty()
            || t.starts_with("//")
            || t.starts_with("#extension")
            || t.starts_with("#pragma"))
        {
            break;
        }
        at += line.len();
    }
    tail.split_at(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    const AOA: &str = "GL_ARB_arrays_of_arrays";

    #[test]
    fn only_units_enabling_an_offered_extension_are_raised() {
        let src = "#version 150\n#extension GL_ARB_arrays_of_arrays : enable\nfloat a[2][3];\n";
        let raised = for_extensions(Stage::Vertex, src, |_| true);
        assert_eq!(
            raised,
            "#version 430\n#extension GL_ARB_arrays_of_arrays : enable\nfloat a[2][3];\n"
        );
        assert_eq!(for_extensions(Stage::Vertex, src, |_| false), src);
        let off = "#version 150\n#extension GL_ARB_arrays_of_arrays : disable\n";
        assert_eq!(for_extensions(Stage::Vertex, off, |_| true), off);
        for kept in [
            "#version 430\n#extension GL_ARB_arrays_of_arrays : enable\n",
            "#version 310 es\n#extension GL_ARB_arrays_of_arrays : enable\n",
            "#version 460\n#extension GL_ARB_arrays_of_arrays : require\n",
            "#extension GL_ARB_arrays_of_arrays : require\n",
        ] {
            assert_eq!(for_extensions(Stage::Vertex, kept, |_| true), kept);
        }
    }

    #[test]
    fn newly_reserved_words_are_renamed_unless_an_extension_brings_them() {
        let src = "#version 330\n#extension GL_ARB_arrays_of_arrays : enable\n\
                   uniform float sample; float buffer[2][2]; // patch\n";
        let raised = raise_version(Stage::Fragment, src, 430);
        assert!(
            raised.contains(&format!(
                "uniform float {USER_PREFIX}sample; float {USER_PREFIX}buffer[2][2]; // patch"
            )),
            "{raised}"
        );
        let ssbo = "#version 150\n#extension GL_ARB_shader_storage_buffer_object : enable\n\
                    buffer B { float x; };\n";
        assert!(raise_version(Stage::Vertex, ssbo, 430).contains("\nbuffer B"));
        assert!(raise_version(Stage::Vertex, src, 400).contains(" buffer[2][2]"));
    }

    #[test]
    fn gl_frag_color_becomes_an_output_and_lines_stay() {
        let src = "#version 150\n// note\n#extension GL_ARB_arrays_of_arrays : enable\n\n\
                   void main() { gl_FragColor = vec4(1.0); }\n";
        let raised = raise_version(Stage::Fragment, src, 430);
        assert_eq!(
            raised,
            format!(
                "#version 430\n// note\n#extension GL_ARB_arrays_of_arrays : enable\n\n\
                 layout(location = 0) out vec4 {FRAG_COLOR_OUTPUT};\n#line 5\n\
                 void main() {{ {FRAG_COLOR_OUTPUT} = vec4(1.0); }}\n"
            )
        );
        let vs = "#version 150\nvoid main() { gl_Position = vec4(0.0); }\n";
        assert!(!raise_version(Stage::Vertex, vs, 430).contains("layout"));
        assert!(enables_aoa(src));
    }

    fn enables_aoa(src: &str) -> bool {
        extensions::enables(src, AOA)
    }
}
