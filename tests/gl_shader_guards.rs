//! Shader sources `glCompileShader` must refuse, through the C ABI: `#version` directives that
//! name no GLSL version or one the 3.3 context does not offer, and preprocessor macro bombs,
//! which must fail promptly instead of running glslang's preprocessor for minutes. The versions
//! and macros real shaders use keep compiling.

use std::ffi::{c_char, CString};
use std::ptr::null;
use std::time::{Duration, Instant};

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_VERTEX_SHADER: u32 = 0x8B31;
const GL_FRAGMENT_SHADER: u32 = 0x8B30;
const GL_COMPILE_STATUS: u32 = 0x8B81;
const GL_INFO_LOG_LENGTH: u32 = 0x8B84;

/// A hang guard, not a performance bound: a bomb that got through runs for minutes.
const PROMPT: Duration = Duration::from_secs(10);

/// What `glCompileShader` made of one source.
struct Compiled {
    ok: bool,
    log: String,
    took: Duration,
}

/// Creates, sources and compiles one shader of `ty`; its status, info log and compile time.
fn compile(ty: u32, src: &str) -> Compiled {
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let get = gl!(c"glGetShaderiv": fn(u32, u32, *mut i32));
    let info_log = gl!(c"glGetShaderInfoLog": fn(u32, i32, *mut i32, *mut c_char));
    let delete = gl!(c"glDeleteShader": fn(u32));
    let text = CString::new(src).expect("no NUL");
    // SAFETY: a NUL-terminated source with NULL lengths; out-pointers are locals; the log
    // buffer holds the length GL reported.
    unsafe {
        let s = create(ty);
        let ptr = text.as_ptr();
        source(s, 1, &ptr, null());
        let start = Instant::now();
        compile(s);
        let took = start.elapsed();
        let (mut status, mut len) = (0, 0);
        get(s, GL_COMPILE_STATUS, &mut status);
        get(s, GL_INFO_LOG_LENGTH, &mut len);
        let mut buf = vec![0u8; usize::try_from(len).unwrap_or(0).max(1)];
        let mut written = 0;
        info_log(s, len.max(1), &mut written, buf.as_mut_ptr().cast());
        buf.truncate(usize::try_from(written).unwrap_or(0));
        delete(s);
        Compiled {
            ok: status == 1,
            log: String::from_utf8_lossy(&buf).into_owned(),
            took,
        }
    }
}

const FS_BODY: &str = "out vec4 c;\nvoid main() { c = vec4(1.0); }\n";
const FS_LEGACY_BODY: &str = "void main() { gl_FragColor = vec4(1.0); }\n";

#[test]
fn version_directives_naming_no_offered_version_fail_with_a_log() {
    let _ctx = gl_harness::context();
    for (directive, expected) in [
        ("#version -1", "'-1' is not a version number"),
        ("#version 4294967297", "out of range"),
        ("#version 460", "GLSL 4.60 is not supported"),
        ("#version 460 core", "GLSL 4.60 is not supported"),
        ("#version abc", "'abc' is not a version number"),
    ] {
        let got = compile(GL_FRAGMENT_SHADER, &format!("{directive}\n{FS_BODY}"));
        assert!(!got.ok, "{directive} compiled");
        assert!(
            got.log.starts_with("ERROR: 0:1: '#version' : ") && got.log.contains(expected),
            "{directive}: {}",
            got.log
        );
    }
    expect(GL_NO_ERROR);
}

#[test]
fn the_versions_the_context_offers_still_compile() {
    let _ctx = gl_harness::context();
    for (ty, src) in [
        (GL_FRAGMENT_SHADER, format!("#version 330 core\n{FS_BODY}")),
        // lavapipe's contexts report GL 4.0 (tests/gl_glsl4x.rs checks the rule on any device).
        (GL_FRAGMENT_SHADER, format!("#version 400 core\n{FS_BODY}")),
        (GL_FRAGMENT_SHADER, format!("#version 150\n{FS_BODY}")),
        (GL_FRAGMENT_SHADER, format!("#version 120\n{FS_LEGACY_BODY}")),
        (GL_FRAGMENT_SHADER, format!("#version 110\n{FS_LEGACY_BODY}")),
        (GL_FRAGMENT_SHADER, format!("#version 100\n{FS_LEGACY_BODY}")),
        (
            GL_VERTEX_SHADER,
            "#version 120\nattribute vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n"
                .to_owned(),
        ),
        (
            GL_VERTEX_SHADER,
            "#version 330 core\nlayout(location = 0) in vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n"
                .to_owned(),
        ),
    ] {
        let got = compile(ty, &src);
        assert!(got.ok, "{src}: {}", got.log);
    }
    expect(GL_NO_ERROR);
}

/// `#define A0 x +`, `#define A1 A0 A0`, … `#define A{levels} …`, used in a function body
/// (`x + x + … 0.0`, valid GLSL when small).
fn doubling_bomb(levels: usize) -> String {
    let mut s = String::from("#version 330 core\n#define A0 x +\n");
    for i in 1..=levels {
        s.push_str(&format!("#define A{i} A{0} A{0}\n", i - 1));
    }
    s.push_str(&format!(
        "out vec4 c;\nfloat x = 1.0;\nfloat f() {{ return A{levels} 0.0; }}\nvoid main() {{ c = vec4(f()); }}\n"
    ));
    s
}

/// `#define D(v) v, v` called 30 levels deep in an array initializer.
fn function_bomb() -> String {
    let mut call = "1.0".to_owned();
    for _ in 0..30 {
        call = format!("D({call})");
    }
    format!("#version 330 core\n#define D(v) v, v\nout vec4 c;\nfloat x[] = float[]({call});\nvoid main() {{ c = vec4(x[0]); }}\n")
}

#[test]
fn macro_bombs_fail_to_compile_promptly() {
    let _ctx = gl_harness::context();
    for (what, src) in [
        ("doubling object-like macros", doubling_bomb(30)),
        ("a doubling function-like macro", function_bomb()),
    ] {
        let got = compile(GL_FRAGMENT_SHADER, &src);
        assert!(
            got.took < PROMPT,
            "{what}: glCompileShader took {:?}",
            got.took
        );
        assert!(!got.ok, "{what} compiled");
        assert!(
            got.log.contains("'macro expansion'") && !got.log.trim().is_empty(),
            "{what}: {}",
            got.log
        );
    }
    expect(GL_NO_ERROR);
}

#[test]
fn shaders_with_ordinary_macros_compile() {
    let _ctx = gl_harness::context();
    let src = "#version 330 core\n\
               #define PI 3.14159265\n\
               #define SAT(x) clamp((x), 0.0, 1.0)\n\
               #define MIX3(a, b, d, t) mix(mix(a, b, t), d, t)\n\
               #define REP4(s) s s s s\n\
               #define REP16(s) REP4(REP4(s))\n\
               #define APPLY(f, v) f(v)\n\
               #ifdef GL_ES\n#define P mediump\n#else\n#define P\n#endif\n\
               out P vec4 c;\n\
               void main() {\n\
                   float s = 0.0;\n\
                   REP16(s += SAT(PI * 0.01);)\n\
                   c = vec4(MIX3(SAT(s), APPLY(SAT, s * 2.0), SAT(SAT(-s)), 0.5));\n\
               }\n";
    let got = compile(GL_FRAGMENT_SHADER, src);
    assert!(got.ok, "{}", got.log);
    // A bomb small enough to stay under the limits is an ordinary shader.
    let got = compile(GL_FRAGMENT_SHADER, &doubling_bomb(8));
    assert!(got.ok, "{}", got.log);
    expect(GL_NO_ERROR);
}

/// A program passing `n` float varyings from the vertex to the fragment stage and drawing.
fn varyings_program(n: usize) -> (String, String) {
    let decl = |q: &str| format!("{q} float v[{n}];\n");
    let vs = format!(
        "#version 330 core\n{}void main() {{ for (int i = 0; i < {n}; i++) v[i] = float(i); gl_Position = vec4(0.0); }}\n",
        decl("out")
    );
    let fs = format!(
        "#version 330 core\n{}out vec4 c;\nvoid main() {{ float s = 0.0; for (int i = 0; i < {n}; i++) s += v[i]; c = vec4(s); }}\n",
        decl("in")
    );
    (vs, fs)
}

#[test]
fn varyings_past_the_devices_interface_locations_fail_to_link_not_crash() {
    let _c = gl_harness::context();
    let max_varying = {
        let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
        let mut v = 0;
        // SAFETY: out-pointer to a local. GL_MAX_VARYING_COMPONENTS.
        unsafe { get(0x8B4B, &mut v) };
        v as usize
    };
    // Each float varying takes a whole location here (no packing): a quarter of the
    // components link, all of them do not — and nothing reaches the driver.
    let (vs, fs) = varyings_program(max_varying / 4);
    let (_, linked) = gl_harness::try_program_with(&vs, &fs, |_| {});
    assert!(
        linked,
        "{} float varyings fit the locations",
        max_varying / 4
    );
    let (vs, fs) = varyings_program(max_varying);
    let (p, linked) = gl_harness::try_program_with(&vs, &fs, |_| {});
    assert!(
        !linked,
        "{max_varying} float varyings need more locations than the device has"
    );
    let info_log = gl!(c"glGetProgramInfoLog": fn(u32, i32, *mut i32, *mut c_char));
    let mut buf = vec![0u8; 1024];
    let mut len = 0;
    // SAFETY: `buf` holds the 1024 bytes named.
    unsafe { info_log(p, 1024, &mut len, buf.as_mut_ptr().cast()) };
    let log = String::from_utf8_lossy(&buf[..len as usize]).into_owned();
    assert!(log.contains("locations"), "the log says why: {log}");
    assert_eq!(gl_harness::error(), 0);
}
