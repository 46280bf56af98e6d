//! GLSL 4.x through the C ABI: the `#version`s a context compiles follow the GL version it
//! reports (every one up to it, none above, with a log naming what is supported), and
//! `GL_NUM_SHADING_LANGUAGE_VERSIONS` / `glGetStringi(GL_SHADING_LANGUAGE_VERSION, i)` list them.

use std::ffi::{c_char, CStr, CString};
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_VERTEX_SHADER: u32 = 0x8B31;
const GL_COMPILE_STATUS: u32 = 0x8B81;
const GL_MAJOR_VERSION: u32 = 0x821B;
const GL_MINOR_VERSION: u32 = 0x821C;
const GL_SHADING_LANGUAGE_VERSION: u32 = 0x8B8C;
const GL_NUM_SHADING_LANGUAGE_VERSIONS: u32 = 0x82E9;

fn integer(pname: u32) -> i32 {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = -1;
    // SAFETY: single-valued pnames only.
    unsafe { get(pname, &mut v) };
    v
}

/// The context's GLSL `#version` number (GL 4.0 → 400).
fn ceiling() -> i32 {
    integer(GL_MAJOR_VERSION) * 100 + integer(GL_MINOR_VERSION) * 10
}

/// Compiles a vertex shader of `source`: whether it compiled, and its log.
fn compile(source: &str) -> (bool, String) {
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let shader_source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let get = gl!(c"glGetShaderiv": fn(u32, u32, *mut i32));
    let log = gl!(c"glGetShaderInfoLog": fn(u32, i32, *mut i32, *mut c_char));
    let c = CString::new(source).expect("no NUL");
    // SAFETY: a NUL-terminated source, length NULL; out-pointers to locals of their size.
    unsafe {
        let s = create(GL_VERTEX_SHADER);
        let ptr = c.as_ptr();
        shader_source(s, 1, &ptr, null());
        compile(s);
        let mut ok = 0;
        get(s, GL_COMPILE_STATUS, &mut ok);
        let mut text = vec![0 as c_char; 2048];
        log(
            s,
            text.len() as i32,
            null::<i32>().cast_mut(),
            text.as_mut_ptr(),
        );
        let text = CStr::from_ptr(text.as_ptr()).to_string_lossy().into_owned();
        (ok == 1, text)
    }
}

fn vertex_shader(version: i32) -> String {
    format!("#version {version}\nvoid main() {{ gl_Position = vec4(0.0); }}\n")
}

#[test]
fn every_version_up_to_the_contexts_compiles_and_none_above() {
    let _ctx = gl_harness::context();
    let ceiling = ceiling();
    assert!(ceiling >= 330, "{ceiling}");
    for v in [330, 400, 410, 420, 430, 440, 450, 460] {
        let (ok, log) = compile(&vertex_shader(v));
        if v <= ceiling {
            assert!(ok, "#version {v} under {ceiling}: {log}");
        } else {
            assert!(!ok, "#version {v} above {ceiling}");
            let want = format!("GLSL {}.{:02} is not supported", v / 100, v % 100);
            assert!(log.contains(&want), "{log}");
            let newest = format!("{}.{:02}, 1.00 ES", ceiling / 100, ceiling % 100);
            assert!(log.contains(&newest), "{log}");
        }
    }
    expect(GL_NO_ERROR);
}

#[test]
fn the_shading_language_versions_are_listed_newest_first() {
    let _ctx = gl_harness::context();
    let get_string = gl!(c"glGetString": fn(u32) -> *const c_char);
    let get_stringi = gl!(c"glGetStringi": fn(u32, u32) -> *const c_char);
    let n = integer(GL_NUM_SHADING_LANGUAGE_VERSIONS);
    expect(GL_NO_ERROR);
    let listed: Vec<String> = (0..n as u32)
        .map(|i| {
            // SAFETY: `i` is below the count: a NUL-terminated string the context owns.
            unsafe { CStr::from_ptr(get_stringi(GL_SHADING_LANGUAGE_VERSION, i)) }
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let ceiling = ceiling();
    assert_eq!(listed.first(), Some(&ceiling.to_string()), "{listed:?}");
    // GLSL ES 3.00 compiles in a desktop context (GL 4.3's ES3 compatibility).
    for v in [
        "330", "150", "140", "130", "120", "110", "100", "300 es", "",
    ] {
        assert!(listed.iter().any(|l| l == v), "{v:?} in {listed:?}");
    }
    // GL_SHADING_LANGUAGE_VERSION itself names the newest.
    // SAFETY: a NUL-terminated string the context owns.
    let glsl = unsafe { CStr::from_ptr(get_string(GL_SHADING_LANGUAGE_VERSION)) };
    let want = format!("{}.{:02}", ceiling / 100, ceiling % 100);
    assert_eq!(glsl.to_string_lossy(), want);
    // SAFETY: an index past the end; NULL comes back.
    let past = unsafe { get_stringi(GL_SHADING_LANGUAGE_VERSION, n as u32) };
    assert!(past.is_null());
    expect(GL_INVALID_VALUE);
}

/// GL_ARB_shading_language_420pack: `layout(binding = N)` on a sampler (array) and a uniform
/// block (array) sets the initial texture unit and binding point at link, and a draw reads
/// what is bound there.
#[test]
fn layout_bindings_set_the_initial_units_and_binding_points() {
    const GL_TEXTURE_2D: u32 = 0x0DE1;
    const GL_TEXTURE0: u32 = 0x84C0;
    const GL_UNIFORM_BUFFER: u32 = 0x8A11;
    const GL_UNIFORM_BLOCK_BINDING: u32 = 0x8A3F;
    const GL_TRIANGLE_STRIP: u32 = 5;
    let _ctx = gl_harness::context();
    let vs = "#version 330\n#extension GL_ARB_shading_language_420pack : require\n\
        void main() { gl_Position = vec4(gl_VertexID % 2 == 0 ? -1.0 : 1.0, \
        gl_VertexID < 2 ? -1.0 : 1.0, 0.0, 1.0); }\n";
    let fs = "#version 330\n#extension GL_ARB_shading_language_420pack : require\n\
        layout(binding = 3) uniform sampler2D t[2];\n\
        layout(std140, binding = 5) uniform B { vec4 c; } b[2];\n\
        out vec4 color;\n\
        void main() { color = texelFetch(t[1], ivec2(0), 0) + b[1].c; }\n";
    let p = gl_harness::program(vs, fs);
    let use_program = gl!(c"glUseProgram": fn(u32));
    let location = gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32);
    let get_uniform = gl!(c"glGetUniformiv": fn(u32, i32, *mut i32));
    let block_index = gl!(c"glGetUniformBlockIndex": fn(u32, *const c_char) -> u32);
    let block_iv = gl!(c"glGetActiveUniformBlockiv": fn(u32, u32, u32, *mut i32));
    let active = gl!(c"glActiveTexture": fn(u32));
    let image =
        gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const std::ffi::c_void));
    let parameter = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let bind_base = gl!(c"glBindBufferBase": fn(u32, u32, u32));
    let gen = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind = gl!(c"glBindVertexArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: a linked program; NUL-terminated names; out-pointers to locals; one RGBA texel.
    unsafe {
        use_program(p);
        let mut units = [-1; 2];
        get_uniform(p, location(p, c"t[0]".as_ptr()), &mut units[0]);
        get_uniform(p, location(p, c"t[1]".as_ptr()), &mut units[1]);
        assert_eq!(units, [3, 4]);
        let mut bindings = [-1; 2];
        for (i, name) in [c"B[0]", c"B[1]"].iter().enumerate() {
            let index = block_index(p, name.as_ptr());
            block_iv(p, index, GL_UNIFORM_BLOCK_BINDING, &mut bindings[i]);
        }
        assert_eq!(bindings, [5, 6]);
        // Red on unit 4, blue in binding point 6; decoys on unit 3 and binding point 5.
        for (unit, texel) in [(3u32, [0u8, 255, 0, 255]), (4, [255, 0, 0, 255])] {
            active(GL_TEXTURE0 + unit);
            gl_harness::new_texture(GL_TEXTURE_2D);
            image(
                GL_TEXTURE_2D,
                0,
                0x8058,
                1,
                1,
                0,
                0x1908,
                0x1401,
                texel.as_ptr().cast(),
            );
            parameter(GL_TEXTURE_2D, 0x2801, 0x2600);
        }
        for (binding, value) in [(5u32, [0.0f32, 1.0, 0.0, 0.0]), (6, [0.0, 0.0, 1.0, 0.0])] {
            let bytes: Vec<u8> = value.iter().flat_map(|x| x.to_ne_bytes()).collect();
            let b = gl_harness::buffer_with(GL_UNIFORM_BUFFER, &bytes);
            bind_base(GL_UNIFORM_BUFFER, binding, b);
        }
        let mut vao = 0;
        gen(1, &mut vao);
        bind(vao);
        draw(GL_TRIANGLE_STRIP, 0, 4);
    }
    expect(GL_NO_ERROR);
    assert_eq!(gl_harness::read_rgba(16, 16, 1, 1), [255, 0, 255, 255]);
}
