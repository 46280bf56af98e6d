//! GLSL ES in an OpenGL ES context.
//!
//! Design decisions:
//! - Two questions, two passes. "Is this valid GLSL ES?" is answered by glslang's reference
//!   front end with the ES rules (`compile::validate_es_unit`: precision qualifiers and the
//!   default float precision a fragment shader must declare, ES built-ins such as
//!   `gl_MaxVertexUniformVectors`, ES-only restrictions, `#extension GL_OES_*`), on the
//!   application's own source, so the log's lines and names are the application's.
//!   "What runs on Vulkan?" is answered by the path desktop GLSL already takes, since glslang
//!   targets Vulkan only from GLSL ES 3.10: a 1.00 unit (or one without `#version`, which is
//!   1.00 in ES) is legacy GLSL for the upgrader (`legacy`: `attribute`/`varying`,
//!   `texture2D`, `gl_FragColor`/`gl_FragData` through the fragment epilogue), exactly as
//!   GL_ARB_ES2_compatibility treats it in a desktop context; a 3.00 ES unit is compiled as
//!   3.10 ES, a superset whose new reserved words (`buffer`, …: `NEW_IN_310`) are renamed with
//!   [`legacy::USER_PREFIX`] where 3.00 used them as names (reflection strips the prefix).
//! - Which versions an ES context offers is `version`'s business ([`version::mark_es_unoffered`]):
//!   desktop GLSL is refused in an ES context, and a GLSL ES version newer than the context's
//!   (3.00 ES in ES 2.0, 3.10 ES below ES 3.1, 3.20 ES below 3.2: the ES version rule,
//!   `context::es_version`, decides which the device offers). 3.10 and 3.20 ES units are handed
//!   on as they are: glslang targets Vulkan from them, as a desktop context compiles them.
//! - The reference front end judges 1.00 and 3.00 ES units only. From 3.10 ES glslang's Vulkan
//!   path applies the ES rules itself (it compiles the unit as ES), and the reference front end
//!   must not see such a unit: without a client API it aborts on ES 3.10's atomic counter
//!   built-ins (an assertion in glslang, which would end the application).
//! - A desktop context keeps its own rules for ES sources (`legacy`, `version`): 1.00 upgraded
//!   like 1.10, 3.10/3.20 ES compiled; 3.00 ES takes this module's path, as in an ES 3.0 context
//!   (GL_ARB_ES3_compatibility, `objects::program::link::for_profile`).

use std::borrow::Cow;
use std::ffi::CString;

use super::{guard, legacy, macros, version, CompileError, ExtensionSet, Stage};

/// The GLSL a GL context accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Desktop GLSL of a core-profile context (no `compatibility` directives), up to `#version
    /// glsl` (the context's GL version, `glsl::version::mark_above`).
    Core { glsl: u32 },
    /// Desktop GLSL of a compatibility-profile context, up to `#version glsl`.
    Compatibility { glsl: u32 },
    /// GLSL ES of an OpenGL ES context, up to `#version glsl es` (100, 300, 310 or 320: the
    /// context's ES version, `context::es_version`).
    Es { glsl: u32 },
}

/// `gl_MaxVertexUniformVectors` and `gl_MaxFragmentUniformVectors`: what `glGet` answers on every
/// Vulkan device (`maxUniformBufferRange` is at least 16 KiB, and the GL layer caps the default
/// block at 4096 components).
pub(crate) const MAX_UNIFORM_VECTORS: i32 = 1024;
/// `gl_MaxVaryingVectors`: Vulkan's minimum (64 components); `glGet` may answer more.
pub(crate) const MAX_VARYING_VECTORS: i32 = 16;

/// GLSL ES 1.00's built-in constants that desktop GLSL 3.30 (where 1.00 units are compiled)
/// lacks, and their values.
const ES_1_00_CONSTANTS: [(&str, i32); 3] = [
    ("gl_MaxVertexUniformVectors", MAX_UNIFORM_VECTORS),
    ("gl_MaxFragmentUniformVectors", MAX_UNIFORM_VECTORS),
    ("gl_MaxVaryingVectors", MAX_VARYING_VECTORS),
];

/// Names GLSL ES 3.00 leaves free that glslang reserves in 3.10 ES.
const NEW_IN_310: [&str; 3] = ["buffer", "imageCubeArray", "precise"];

/// `source` as the GL layer hands it on in an OpenGL ES context whose newest GLSL ES is
/// `newest`: a version the context does not offer is marked for the compile step to refuse;
/// `#version 300 es` becomes `#version 310 es` (see the module comment); a 1.00 unit has the ES
/// built-in constants desktop GLSL lacks replaced by their values; anything else (3.10 and
/// 3.20 ES, a malformed directive) is unchanged.
pub fn for_es(source: &str, newest: u32) -> Cow<'_, str> {
    if let Some(marked) = version::mark_es_unoffered(source, newest) {
        return Cow::Owned(marked);
    }
    let Some(d) = version::read(source) else {
        return es_1_00_constants(source);
    };
    if d.number == version::Number::Value(100) {
        return es_1_00_constants(source);
    }
    if d.unoffered || d.number != version::Number::Value(300) {
        return Cow::Borrowed(source);
    }
    let (head, tail) = source.split_at(d.found.end);
    let head = head.replacen("300", "310", 1);
    let tail = legacy::rewrite_identifiers(tail, |ident, out| {
        if NEW_IN_310.contains(&ident) {
            out.push_str(legacy::USER_PREFIX);
        }
        // Every precision is highp on the Vulkan path (see `all_highp`).
        out.push_str(if matches!(ident, "lowp" | "mediump") {
            "highp"
        } else {
            ident
        });
    });
    Cow::Owned(head + &all_highp(&tail))
}

/// A 3.00 ES unit (its `lowp`/`mediump` already `highp`) with `precision highp int;` after each
/// default float precision statement, on the same line. GLSL ES 3.00 lets a varying's precision
/// differ between stages, but glslang's cross-stage check compares the members of struct
/// varyings, whose precision is the default in force (int: highp in vertex shaders, mediump in
/// fragment shaders). ArenaGL computes every precision at 32 bits and reports that in
/// `glGetShaderPrecisionFormat`, so making all of them highp changes no result. (A statement in
/// a comment gains a statement in the comment.)
fn all_highp(tail: &str) -> String {
    const DEFAULT_FLOAT: &str = "precision highp float;";
    tail.replace(DEFAULT_FLOAT, "precision highp float; precision highp int;")
}

/// A GLSL ES 3.x unit whose `#version` follows comments or white space, with the directive
/// moved to the start of the unit. GLSL ES allows comments and white space before it (GLSL ES
/// 3.00 §3.4); glslang refuses them from 3.00 ES on ("statement must appear first in es-profile
/// shader"). What preceded the directive becomes spaces on the same lines, so every line keeps
/// its number. Anything else is unchanged.
pub(crate) fn version_first(source: &str) -> Cow<'_, str> {
    let Some(d) = version::read(source) else {
        return Cow::Borrowed(source);
    };
    let es3 = d.profile.as_deref() == Some("es")
        && matches!(d.number, version::Number::Value(v) if v >= 300);
    let f = d.found;
    if !es3 || f.start == 0 {
        return Cow::Borrowed(source);
    }
    let blank: String = (source[..f.start].chars())
        .map(|c| if c == '\n' { '\n' } else { ' ' })
        .collect();
    Cow::Owned(format!(
        "{}{blank}{}",
        &source[f.start..f.end],
        &source[f.end..]
    ))
}

/// Whether `source` declares `#version 300 es` (which a desktop context compiles as an ES 3.0
/// one does, GL_ARB_ES3_compatibility).
pub fn is_es_300(source: &str) -> bool {
    version::read(source).is_some_and(|d| {
        d.number == version::Number::Value(300) && d.profile.as_deref() == Some("es")
    })
}

/// A GLSL ES 1.00 unit with [`ES_1_00_CONSTANTS`] replaced by their values (a literal keeps the
/// line and means what the constant means).
fn es_1_00_constants(source: &str) -> Cow<'_, str> {
    if !source.contains("gl_Max") {
        return Cow::Borrowed(source);
    }
    Cow::Owned(legacy::rewrite_identifiers(
        source,
        |ident, out| match ES_1_00_CONSTANTS.iter().find(|(name, _)| *name == ident) {
            Some((_, value)) => out.push_str(&value.to_string()),
            None => out.push_str(ident),
        },
    ))
}

/// Compiles one unit of `stage` with GLSL ES's rules for an OpenGL ES context whose newest
/// GLSL ES is `newest`, as `glCompileShader` does there before the unit takes the Vulkan path:
/// `Ok` holds the ES front end's warnings, a failure's log is in the error (a refused
/// version's first).
pub fn validate(
    stage: Stage,
    source: &str,
    newest: u32,
    offered: Option<ExtensionSet>,
) -> Result<String, CompileError> {
    let handed_on = for_es(source, newest);
    guard::check(stage, 0, &handed_on, false)?;
    version::check(stage, 0, &handed_on)?;
    macros::check(stage, 0, source)?;
    if version::read(source)
        .is_some_and(|d| matches!(d.number, version::Number::Value(v) if v >= 310))
    {
        // Judged by the Vulkan path's ES front end (see the module comment), but for the
        // integer members of fragment input blocks, which glslang lets through.
        super::es_flat::check(stage, 0, source)?;
        return Ok(String::new());
    }
    let source = version_first(source);
    let source = match offered {
        Some(e) => Cow::Owned(e.with_preamble(&e.rewrite_directives(&source), true)),
        None => source,
    };
    let source = CString::new(source.into_owned())
        .map_err(|_| guard::source_error(stage, 0, 0, "NUL character in shader source"))?;
    super::on_compiler_stack(move || super::compile::validate_es_unit(stage, &source))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const VS_100: &str = "attribute vec4 pos;\nvoid main() { gl_Position = pos; }\n";
    const FS_100: &str = "#version 100\nprecision mediump float;\nuniform vec4 c;\n\
                          void main() { gl_FragColor = c; }\n";
    const FS_300: &str = "#version 300 es\nprecision mediump float;\nout vec4 color;\n\
                          void main() { float buffer = 1.0; color = vec4(buffer); }\n";

    fn log_of(r: Result<String, CompileError>) -> String {
        match r.unwrap_err() {
            CompileError::Compile { log, .. } => log,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn es_sources_validate_with_es_rules() {
        assert!(validate(Stage::Vertex, VS_100, 100, None).is_ok());
        assert!(validate(Stage::Fragment, FS_100, 100, None).is_ok());
        assert!(validate(Stage::Fragment, FS_300, 300, None).is_ok());
        // GLSL ES 1.00 fragment shaders have no default float precision.
        let log = log_of(validate(
            Stage::Fragment,
            "uniform float a;\nvoid main() { gl_FragColor = vec4(a); }\n",
            100,
            None,
        ));
        assert!(log.contains("precision"), "{log}");
        // `texture` is not a GLSL ES 1.00 built-in.
        let log = log_of(validate(
            Stage::Fragment,
            "precision mediump float;\nuniform sampler2D s;\n\
             void main() { gl_FragColor = texture(s, vec2(0.0)); }\n",
            100,
            None,
        ));
        assert!(log.contains("texture"), "{log}");
    }

    #[test]
    fn es_3_10_atomic_counters_are_left_to_the_vulkan_path() {
        let fs = "#version 310 es\nprecision highp float;\n\
                  layout(binding = 0) uniform atomic_uint c;\nout vec4 o;\n\
                  void main() { o = vec4(float(atomicCounterIncrement(c)));\n\
                  o += vec4(float(atomicCounterDecrement(c) + atomicCounter(c))); }\n";
        let r = compile_es(Stage::Fragment, fs, 310);
        assert!(r.is_ok(), "{r:?}");
        // ES rules still hold there: no default float precision in a fragment shader.
        let bad = fs.replace("precision highp float;\n", "");
        assert!(compile_es(Stage::Fragment, &bad, 310).is_err());
    }

    #[test]
    fn versions_the_es_context_lacks_are_refused() {
        for (src, newest, expected) in [
            ("#version 330\nvoid main() {}\n", 300, "GLSL 3.30 is not supported in an OpenGL ES 3.0 context (desktop GLSL). Supported versions are: 1.00 ES, 3.00 ES"),
            ("#version 120\nvoid main() {}\n", 100, "GLSL 1.20 is not supported in an OpenGL ES 2.0 context (desktop GLSL). Supported versions are: 1.00 ES"),
            ("#version 300 es\nvoid main() {}\n", 100, "GLSL 3.00 ES is not supported in an OpenGL ES 2.0 context (it needs an OpenGL ES 3.0 context)"),
            ("#version 310 es\nvoid main() {}\n", 300, "GLSL 3.10 ES is not supported in an OpenGL ES 3.0 context (it needs an OpenGL ES 3.1 context)"),
            ("#version 320 es\nvoid main() {}\n", 310, "GLSL 3.20 ES is not supported in an OpenGL ES 3.1 context (it needs an OpenGL ES 3.2 context). Supported versions are: 1.00 ES, 3.00 ES, 3.10 ES"),
        ] {
            let log = log_of(validate(Stage::Vertex, src, newest, None));
            assert!(
                log.starts_with("ERROR: 0:1: '#version' : ") && log.contains(expected),
                "{src}: {log}"
            );
        }
    }

    /// A unit as `glCompileShader` runs it in an ES context whose newest GLSL ES is `newest`:
    /// the ES check, then the Vulkan path.
    fn compile_es(stage: Stage, src: &str, newest: u32) -> Result<String, CompileError> {
        validate(stage, src, newest, None)?;
        let upgraded = legacy::upgrade(stage, &for_es(src, newest), Default::default()).source;
        crate::glsl::compile_shader(stage, &upgraded, Default::default())
    }

    #[test]
    fn es_built_ins_compile_for_vulkan() {
        let vertex = "uniform vec4 u[gl_MaxVertexUniformVectors / 64];\nattribute vec4 p;\n\
                      uniform sampler2D s;\nvarying vec4 v;\n\
                      void main() { v = texture2DLod(s, p.xy, 0.0) + vec4(gl_MaxVaryingVectors);\n\
                      gl_PointSize = 1.0; gl_Position = p + u[0]; }\n";
        let fragment = "precision mediump float;\nvarying vec4 v;\nuniform sampler2D s;\n\
                        uniform samplerCube c;\n\
                        void main() { vec4 a = texture2DProj(s, v.xyz) + textureCube(c, v.xyz);\n\
                        a += vec4(gl_PointCoord, gl_FrontFacing ? 1.0 : 0.0, \n\
                        float(gl_MaxFragmentUniformVectors + gl_MaxDrawBuffers));\n\
                        gl_FragData[0] = a * gl_FragCoord; }\n";
        for newest in [100, 300] {
            let r = compile_es(Stage::Vertex, vertex, newest);
            assert!(r.is_ok(), "{r:?}");
            let r = compile_es(Stage::Fragment, fragment, newest);
            assert!(r.is_ok(), "{r:?}");
        }
    }

    #[test]
    fn every_name_3_00_es_accepts_stays_a_name_in_3_10() {
        let words = [
            "buffer",
            "shared",
            "coherent",
            "volatile",
            "restrict",
            "readonly",
            "writeonly",
            "atomic_uint",
            "image2D",
            "iimage2D",
            "uimage2D",
            "image3D",
            "imageCube",
            "image2DArray",
            "iimage3D",
            "uimage3D",
            "iimageCube",
            "uimageCube",
            "iimage2DArray",
            "uimage2DArray",
            "imageBuffer",
            "imageCubeArray",
            "sampler2DMS",
            "isampler2DMS",
            "usampler2DMS",
            "sampler2DMSArray",
            "samplerBuffer",
            "samplerCubeArray",
            "patch",
            "sample",
            "precise",
            "subroutine",
            "noperspective",
            "centroid",
            "smooth",
            "layout",
        ];
        for w in words {
            let src = format!(
                "#version 300 es\nprecision mediump float;\nout vec4 o;\n\
                 void main() {{ float {w} = 1.0; o = vec4({w}); }}\n"
            );
            if validate(Stage::Fragment, &src, 300, None).is_err() {
                continue;
            }
            let handed_on = for_es(&src, 300);
            let r = crate::glsl::compile_shader(Stage::Fragment, &handed_on, Default::default());
            assert!(r.is_ok(), "{w}: {r:?}");
        }
    }

    #[test]
    fn struct_varyings_of_3_00_es_link_whatever_their_default_precisions() {
        let vs = "#version 300 es\nstruct S { float a; ivec2 d; };\nflat out S v;\n\
                  void main() { v.a = 1.0; v.d = ivec2(2); gl_Position = vec4(0.0); }\n";
        let fs = "#version 300 es\nprecision mediump float;\nstruct S { float a; ivec2 d; };\n\
                  flat in S v;\nout vec4 o;\nvoid main() { o = vec4(v.a, vec2(v.d), 1.0); }\n";
        let lines = fs.lines().count();
        let (vs, fs) = (for_es(vs, 300), for_es(fs, 300));
        assert!(
            fs.contains("precision highp float; precision highp int;\n"),
            "{fs}"
        );
        assert_eq!(
            fs.lines().count(),
            lines,
            "the application's line numbers are kept"
        );
        let r = crate::glsl::compile_program(
            &[(Stage::Vertex, &vs), (Stage::Fragment, &fs)],
            Default::default(),
        );
        assert!(r.is_ok(), "{:?}", r.err());
    }

    #[test]
    fn comments_before_the_version_keep_every_line() {
        let src = "/* [config]\n * glsl_version: 3.00 es\n */\n\n#version 300 es\n\
                   precision mediump float;\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n";
        let first = version_first(src);
        assert_eq!(
            first.lines().next().map(str::trim_end),
            Some("#version 300 es")
        );
        assert_eq!(first.lines().count(), src.lines().count());
        assert_eq!(first.lines().nth(5), src.lines().nth(5));
        assert!(validate(Stage::Fragment, src, 300, None).is_ok());
        assert!(compile_es(Stage::Fragment, src, 300).is_ok());
        let bad = src.replace("vec4(1.0)", "vec3(1.0)");
        let log = log_of(compile_es(Stage::Fragment, &bad, 310));
        assert!(log.contains("0:8:"), "the application's line: {log}");
        for kept in [VS_100, FS_300, "// desktop\n#version 330\nvoid main() {}\n"] {
            assert_eq!(version_first(kept), kept);
        }
    }

    #[test]
    fn es_3_00_is_handed_on_as_3_10_with_its_names_kept() {
        let out = for_es(FS_300, 300);
        assert!(out.starts_with("#version 310 es\n"), "{out}");
        assert!(out.contains("float arena_u_buffer = 1.0;"), "{out}");
        assert_eq!(out.lines().count(), FS_300.lines().count());
        assert_eq!(for_es(FS_100, 100), FS_100);
        assert_eq!(for_es(VS_100, 300), VS_100);
    }
}
