//! Units of GLSL below 4.30 that use compute shaders or atomic counters through extensions.
//!
//! - glslang refuses a compute unit whose `#version` is below 4.20 (desktop) before it reads
//!   the unit's `#extension` directives, although GL_ARB_compute_shader allows compute shaders
//!   from GLSL 1.40 on (piglit's compute tests are `#version 330`). Such a unit is compiled as
//!   GLSL 4.30 — a superset of 3.30 for everything a compute shader may say, with storage
//!   blocks and their atomics core — with the directive rewritten in place, so line numbers in
//!   logs stay the application's.
//! - Atomic counters become storage-block atomics (see `gl::compute`), which GLSL below 4.30
//!   has only with GL_ARB_shader_storage_buffer_object; and the `layout(binding = N)` that
//!   GL_ARB_shader_atomic_counters, GL_ARB_shader_storage_buffer_object and
//!   GL_ARB_shader_image_load_store allow on their resources is GLSL 4.20's (glslang takes it
//!   below 4.20 only with GL_ARB_shading_language_420pack). A unit below 4.30 that declares
//!   `atomic_uint` or enables one of those extensions gets both extensions enabled after its
//!   `#version` (with GL_ARB_shader_image_size), followed by a `#line` that restores the
//!   numbering; below 4.00 it is compiled as 4.00, the first version glslang declares the
//!   atomic functions in (4.20 for a unit that calls `imageSize`).
//! - Likewise glslang refuses tessellation units below GLSL 1.50, which GL_ARB_tessellation_shader
//!   allows from 1.40 (piglit's extension tests are `#version 140`): such a unit is compiled as
//!   1.50, its directive rewritten in place.

use std::borrow::Cow;

use super::version::{read, Number};

/// The desktop version compute units below it are compiled as.
const COMPUTE_VERSION: u32 = 430;

/// The first desktop version glslang declares the atomic functions in (`atomicAdd`, which
/// storage atomics and the lowered atomic counters call).
const ATOMICS_VERSION: u32 = 400;
/// The first desktop version glslang declares `imageSize` in; it also drops `gl_FragColor`
/// from the core profile, so only a unit that calls `imageSize` is compiled as it.
const IMAGE_SIZE_VERSION: u32 = 420;

/// The desktop version tessellation units below it are compiled as (glslang's first).
const TESSELLATION_VERSION: u32 = 150;

/// `source` (a unit of `stage`) with a tessellation unit below 1.50 raised to it in place.
pub(crate) fn for_tessellation(stage: super::Stage, source: &str) -> Cow<'_, str> {
    use super::Stage::{TessControl, TessEvaluation};
    if !matches!(stage, TessControl | TessEvaluation) {
        return Cow::Borrowed(source);
    }
    match read(source) {
        Some(d)
            if matches!(d.number, Number::Value(v) if v < TESSELLATION_VERSION) && !d.unoffered =>
        {
            let f = d.found;
            Cow::Owned(format!(
                "{}#version {TESSELLATION_VERSION}{}",
                &source[..f.start],
                &source[f.end..]
            ))
        }
        _ => Cow::Borrowed(source),
    }
}

/// What in a unit below 4.30 asks for the extensions (see the module docs).
const STORAGE_MARKERS: &[&str] = &[
    "atomic_uint",
    "GL_ARB_shader_storage_buffer_object",
    "GL_ARB_shader_image_load_store",
    "GL_ARB_shader_image_size",
];

/// `source` (a unit of `stage`) as glslang must see it: see the module docs.
pub(crate) fn for_storage(stage: super::Stage, source: &str) -> Cow<'_, str> {
    let Some(d) = read(source) else {
        return Cow::Borrowed(source);
    };
    let below = matches!(d.number, Number::Value(v) if v < COMPUTE_VERSION);
    if !below || d.profile.as_deref() == Some("es") || d.unoffered {
        return Cow::Borrowed(source);
    }
    let f = d.found;
    if stage == super::Stage::Compute {
        return Cow::Owned(format!(
            "{}#version {COMPUTE_VERSION}{}",
            &source[..f.start],
            &source[f.end..]
        ));
    }
    if !STORAGE_MARKERS.iter().any(|m| source.contains(m)) {
        return Cow::Borrowed(source);
    }
    let floor = if source.contains("imageSize") {
        IMAGE_SIZE_VERSION
    } else {
        ATOMICS_VERSION
    };
    let version = match d.number {
        Number::Value(v) if v < floor => format!("#version {floor}"),
        _ => source[f.start..f.end].to_owned(),
    };
    Cow::Owned(format!(
        "{}{version}\n#extension GL_ARB_shader_storage_buffer_object : enable\n\
         #extension GL_ARB_shading_language_420pack : enable\n\
         #extension GL_ARB_shader_image_size : enable\n#line {}{}",
        &source[..f.start],
        f.line + 1,
        &source[f.end..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_compute_units_become_430_in_place() {
        let c = super::super::Stage::Compute;
        let src = "#version 330\n#extension GL_ARB_compute_shader: enable\nvoid main() {}\n";
        let raised = for_storage(c, src);
        assert!(raised.starts_with("#version 430\n#extension"));
        assert_eq!(raised.lines().count(), src.lines().count());
        let new = "#version 430\nvoid main() {}\n";
        assert_eq!(for_storage(c, new), new);
        let es = "#version 310 es\nvoid main() {}\n";
        assert_eq!(for_storage(c, es), es);
    }

    #[test]
    fn old_tessellation_units_become_150_in_place() {
        let t = super::super::Stage::TessControl;
        let src = "#version 140\n#extension GL_ARB_tessellation_shader : require\n";
        assert!(for_tessellation(t, src).starts_with("#version 150\n#extension"));
        let vs = super::super::Stage::Vertex;
        assert_eq!(for_tessellation(vs, src), src);
        let new = "#version 400\nvoid main() {}\n";
        assert_eq!(for_tessellation(t, new), new);
    }

    #[test]
    fn atomic_counters_below_430_enable_storage_blocks() {
        let f = super::super::Stage::Fragment;
        let src = "#version 140\nlayout(binding = 0) uniform atomic_uint c;\n";
        assert_eq!(
            for_storage(f, src),
            "#version 400\n#extension GL_ARB_shader_storage_buffer_object : enable\n\
             #extension GL_ARB_shading_language_420pack : enable\n\
             #extension GL_ARB_shader_image_size : enable\n#line 2\n\
             layout(binding = 0) uniform atomic_uint c;\n"
        );
        let plain = "#version 140\nvoid main() {}\n";
        assert_eq!(for_storage(f, plain), plain);
    }
}
