//! GLSL sees the context's extensions and no others, through the C ABI: an extension's macro is
//! defined exactly when `GL_EXTENSIONS` lists it, `#extension NAME : require` of one it does not
//! list fails the compile (naming it, on its line) while `: enable` only warns, lines keep their
//! numbers, and the link compiles with the same macros (a program drawing with an `#ifdef`).

use std::ffi::{c_void, CString};
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_FRAGMENT_SHADER: u32 = 0x8B30;
const GL_COMPILE_STATUS: u32 = 0x8B81;
const GL_EXTENSIONS: u32 = 0x1F03;
const GL_NUM_EXTENSIONS: u32 = 0x821D;

/// An extension glslang knows (and predefines) that no ArenaGL context offers.
const UNOFFERED: &str = "GL_AMD_shader_ballot";
/// An extension every desktop context offers that glslang knows.
const OFFERED: &str = "GL_ARB_shading_language_420pack";
/// An extension every desktop context offers that glslang has no `#extension` for.
const OFFERED_GLSLANG_LACKS: &str = "GL_ARB_shader_subroutine";

/// `glGetStringi(GL_EXTENSIONS, i)` for every i.
fn extensions() -> Vec<String> {
    let get_string_i = gl!(c"glGetStringi": fn(u32, u32) -> *const i8);
    let get_integer = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    // SAFETY: indices below GL_NUM_EXTENSIONS; the strings are NUL-terminated and static.
    unsafe {
        let mut n = 0;
        get_integer(GL_NUM_EXTENSIONS, &mut n);
        (0..n as u32)
            .map(|i| {
                std::ffi::CStr::from_ptr(get_string_i(GL_EXTENSIONS, i))
                    .to_string_lossy()
                    .into_owned()
            })
            .collect()
    }
}

/// Compiles `src` as a shader of type `ty`: its status and info log.
fn compile(ty: u32, src: &str) -> (bool, String) {
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const i8, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let get = gl!(c"glGetShaderiv": fn(u32, u32, *mut i32));
    let log = gl!(c"glGetShaderInfoLog": fn(u32, i32, *mut i32, *mut i8));
    let c = CString::new(src).expect("no NUL");
    // SAFETY: a NUL-terminated source; out-pointers are locals and a 4 KiB buffer.
    unsafe {
        let s = create(ty);
        let ptr = c.as_ptr();
        source(s, 1, &ptr, null());
        compile(s);
        let mut ok = 0;
        get(s, GL_COMPILE_STATUS, &mut ok);
        let mut buf = vec![0u8; 4096];
        let mut len = 0;
        log(s, buf.len() as i32, &mut len, buf.as_mut_ptr().cast());
        buf.truncate(len.max(0) as usize);
        (ok == 1, String::from_utf8_lossy(&buf).into_owned())
    }
}

/// A fragment shader that fails to compile unless `condition` holds in the preprocessor.
fn asserting(version: &str, condition: &str) -> String {
    format!(
        "{version}\n#if !({condition})\n#error condition failed\n#endif\n\
         out vec4 c;\nvoid main() {{ c = vec4(1.0); }}\n"
    )
}

#[test]
fn macros_follow_the_context_extension_list() {
    let _ctx = gl_harness::context();
    let listed = extensions();
    assert!(!listed.iter().any(|e| e == UNOFFERED));
    assert!(listed.iter().any(|e| e == OFFERED));
    assert!(listed.iter().any(|e| e == OFFERED_GLSLANG_LACKS));
    for (condition, why) in [
        (
            format!("!defined({UNOFFERED})"),
            "an unoffered extension has no macro",
        ),
        (
            format!("defined({OFFERED}) && {OFFERED} == 1"),
            "an offered one is 1",
        ),
        (
            format!("defined({OFFERED_GLSLANG_LACKS}) && {OFFERED_GLSLANG_LACKS} == 1"),
            "an offered one glslang lacks is 1 too",
        ),
        (
            "defined(GL_core_profile) && !defined(GL_compatibility_profile) && __VERSION__ == 150"
                .to_owned(),
            "the version and profile macros stay",
        ),
    ] {
        let (ok, log) = compile(GL_FRAGMENT_SHADER, &asserting("#version 150", &condition));
        assert!(ok, "{why}: {log}");
    }
    expect(GL_NO_ERROR);
}

#[test]
fn extension_directives_follow_the_context_extension_list() {
    let _ctx = gl_harness::context();
    let body = "out vec4 c;\nvoid main() { c = vec4(1.0); }\n";
    // Required but not offered: an error naming the extension, on its line.
    let src = format!("#version 150\n// a comment line\n#extension {UNOFFERED} : require\n{body}");
    let (ok, log) = compile(GL_FRAGMENT_SHADER, &src);
    assert!(!ok, "require of an unoffered extension fails");
    assert!(log.contains(UNOFFERED) && log.contains("0:3"), "{log}");
    assert!(
        !log.contains("arena_ff"),
        "the log names the application's name: {log}"
    );
    // Enabled but not offered: a warning; the shader compiles.
    let src = format!("#version 150\n#extension {UNOFFERED} : enable\n{body}");
    let (ok, log) = compile(GL_FRAGMENT_SHADER, &src);
    assert!(ok, "{log}");
    assert!(log.contains("WARNING") && log.contains(UNOFFERED), "{log}");
    // Offered ones are required without complaint, glslang's or not; lines keep their numbers.
    let src = format!(
        "#version 150\n#extension {OFFERED} : require\n#extension {OFFERED_GLSLANG_LACKS} : require\n\
         #if __LINE__ != 4\n#error lines moved\n#endif\n{body}"
    );
    let (ok, log) = compile(GL_FRAGMENT_SHADER, &src);
    assert!(ok, "{log}");
    // In a false conditional block nothing is reported.
    let src = format!("#version 150\n#if 0\n#extension {UNOFFERED} : require\n#endif\n{body}");
    let (ok, log) = compile(GL_FRAGMENT_SHADER, &src);
    assert!(ok, "{log}");
    expect(GL_NO_ERROR);
}

#[test]
fn the_link_compiles_with_the_same_macros() {
    let _ctx = gl_harness::context();
    let vs = "#version 150\nin vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
    let fs = format!(
        "#version 150\nout vec4 c;\nvoid main() {{\n#ifdef {UNOFFERED}\n  c = vec4(1.0, 0.0, 0.0, 1.0);\n\
         #else\n  c = vec4(0.0, 1.0, 0.0, 1.0);\n#endif\n}}\n"
    );
    let bind_attrib = gl!(c"glBindAttribLocation": fn(u32, u32, *const i8));
    // SAFETY: a live program and a NUL-terminated name.
    let p = gl_harness::program_with(vs, &fs, |p| unsafe { bind_attrib(p, 0, c"pos".as_ptr()) });
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let strip: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
    let bytes: Vec<u8> = strip.iter().flat_map(|v| v.to_ne_bytes()).collect();
    // SAFETY: the out-pointer is a local; attribute 0 reads the bound 32-byte buffer.
    unsafe {
        let mut vao = 0;
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        gl_harness::buffer_with(0x8892, &bytes); // GL_ARRAY_BUFFER
        pointer(0, 2, 0x1406, 0, 0, null()); // GL_FLOAT
        enable(0);
        use_program(p);
        draw_arrays(5, 0, 4); // GL_TRIANGLE_STRIP
    }
    expect(GL_NO_ERROR);
    assert_eq!(gl_harness::read_rgba(16, 16, 1, 1), vec![0, 255, 0, 255]);
}

#[test]
fn an_es_context_offers_its_own_list() {
    // OpenGL ES 2.0 (EGL_OPENGL_ES_API, EGL_OPENGL_ES2_BIT).
    let _ctx = gl_harness::context_with(0x30A0, 0x04, &[0x3098, 2, 0x3038]);
    let get_string = gl!(c"glGetString": fn(u32) -> *const i8);
    // SAFETY: GL_EXTENSIONS is a NUL-terminated static string in an ES 2.0 context.
    let listed: Vec<String> = unsafe { std::ffi::CStr::from_ptr(get_string(GL_EXTENSIONS)) }
        .to_string_lossy()
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    assert!(listed.iter().any(|e| e == "GL_OES_standard_derivatives"));
    assert!(!listed.iter().any(|e| e == "GL_OES_texture_3D"));
    let body = "precision mediump float;\nvoid main() { gl_FragColor = vec4(1.0); }\n";
    let src = format!(
        "#version 100\n#extension GL_OES_standard_derivatives : require\n\
         #if !defined(GL_OES_standard_derivatives) || defined(GL_OES_texture_3D)\n\
         #error wrong macros\n#endif\n{body}"
    );
    let (ok, log) = compile(GL_FRAGMENT_SHADER, &src);
    assert!(ok, "{log}");
    let src = format!("#version 100\n#extension GL_OES_texture_3D : require\n{body}");
    let (ok, log) = compile(GL_FRAGMENT_SHADER, &src);
    assert!(!ok && log.contains("GL_OES_texture_3D"), "{log}");
    expect(GL_NO_ERROR);
}
