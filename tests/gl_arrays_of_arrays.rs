//! `GL_ARB_arrays_of_arrays` below GLSL 4.30 through the C ABI: units that enable it compile
//! (and only those), uniforms of arrays of arrays are named, located and written per GL's rules
//! (`a[1][0]` of the innermost size, `a[1][2]` its element, samplers one texture unit per
//! element, blocks one binding per element), and a draw reads them back as pixels. The
//! validation layer must stay silent.

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use std::ffi::{c_char, c_void, CStr, CString};
use std::ptr::null;

use gl_harness::{
    assert_rgba8_near, buffer_with, context, context_profile, expect, f, new_texture, read_rgba,
    try_program_with,
};

const GL_NO_ERROR: u32 = 0;
const GL_FRAGMENT_SHADER: u32 = 0x8B30;
const GL_COMPILE_STATUS: u32 = 0x8B81;
const GL_ACTIVE_UNIFORMS: u32 = 0x8B86;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_TEXTURE0: u32 = 0x84C0;
const GL_UNIFORM_BUFFER: u32 = 0x8A11;
const GL_TRIANGLE_STRIP: u32 = 0x0005;

const VS: &str = "#version 150\n\
    void main() {\n\
        vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;\n\
        gl_Position = vec4(p, 0.0, 1.0);\n\
    }\n";

/// Whether a fragment unit of `source` compiles, with its info log.
fn compiles(source: &str) -> (bool, String) {
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let set_source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let get = gl!(c"glGetShaderiv": fn(u32, u32, *mut i32));
    let log = gl!(c"glGetShaderInfoLog": fn(u32, i32, *mut i32, *mut c_char));
    let c = CString::new(source).expect("no NUL");
    let mut ok = 0;
    let mut text = vec![0u8; 4096];
    // SAFETY: a NUL-terminated source, lengths NULL; out-pointers to locals of the sizes given.
    unsafe {
        let s = create(GL_FRAGMENT_SHADER);
        let ptr = c.as_ptr();
        set_source(s, 1, &ptr, null());
        compile(s);
        get(s, GL_COMPILE_STATUS, &mut ok);
        log(s, 4096, std::ptr::null_mut(), text.as_mut_ptr().cast());
    }
    let end = text.iter().position(|&b| b == 0).unwrap_or(text.len());
    (ok == 1, String::from_utf8_lossy(&text[..end]).into_owned())
}

fn location(p: u32, name: &str) -> i32 {
    let get = gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32);
    let c = CString::new(name).expect("no NUL");
    // SAFETY: a NUL-terminated name.
    unsafe { get(p, c.as_ptr()) }
}

/// `glGetActiveUniform`'s (name, size) of every active uniform.
fn active_uniforms(p: u32) -> Vec<(String, i32)> {
    let get = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    let active =
        gl!(c"glGetActiveUniform": fn(u32, u32, i32, *mut i32, *mut i32, *mut u32, *mut c_char));
    let mut count = 0;
    // SAFETY: out-pointer to a local.
    unsafe { get(p, GL_ACTIVE_UNIFORMS, &mut count) };
    (0..count as u32)
        .map(|i| {
            let (mut len, mut size, mut ty) = (0, 0, 0);
            let mut name = [0u8; 64];
            // SAFETY: out-pointers to locals; `name` holds 64 bytes.
            unsafe {
                active(
                    p,
                    i,
                    64,
                    &mut len,
                    &mut size,
                    &mut ty,
                    name.as_mut_ptr().cast(),
                )
            };
            let name = CStr::from_bytes_until_nul(&name).expect("NUL-terminated");
            (name.to_string_lossy().into_owned(), size)
        })
        .collect()
}

/// Draws a quad over the 32×32 target with `p` and returns the centre pixel.
fn draw(p: u32, set: impl FnOnce()) -> [u8; 4] {
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vao = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let mut vao = 0;
    // SAFETY: plain GL calls with locals.
    unsafe {
        gen_vao(1, &mut vao);
        bind_vao(vao);
        use_program(p);
    }
    set();
    // SAFETY: a bound VAO and program; no arrays are read.
    unsafe { draw(GL_TRIANGLE_STRIP, 0, 4) };
    expect(GL_NO_ERROR);
    let px = read_rgba(16, 16, 1, 1);
    [px[0], px[1], px[2], px[3]]
}

#[test]
fn units_compile_with_arrays_of_arrays_only_when_they_enable_it() {
    let _ctx = context_profile(true);
    let body = "uniform float a[2][3];\nfloat[2] b[3];\nout vec4 c;\n\
                float sum(float x[2][3]) { return x[1][2] + float(x.length() + x[0].length()); }\n\
                void main() { float[3][2] d = float[3][2](float[2](1.0, 2.0), b[1], b[2]);\n\
                c = vec4(sum(a) + d[2][1]); }\n";
    let enabled = format!("#version 150\n#extension GL_ARB_arrays_of_arrays : enable\n{body}");
    let (ok, log) = compiles(&enabled);
    assert!(ok, "{log}");
    let (ok, _) = compiles(&format!("#version 150\n{body}"));
    assert!(
        !ok,
        "arrays of arrays compiled in GLSL 1.50 without the extension"
    );
    let disabled = format!("#version 150\n#extension GL_ARB_arrays_of_arrays : disable\n{body}");
    assert!(
        !compiles(&disabled).0,
        "compiled with the extension disabled"
    );
    // GLSL 1.20 (through the legacy upgrader) with gl_FragColor, and a name 4.30 reserves.
    let legacy = "#version 120\n#extension GL_ARB_arrays_of_arrays : require\n\
                  uniform vec4 sample[2][2];\n\
                  void main() { gl_FragColor = sample[1][1]; }\n";
    let (ok, log) = compiles(legacy);
    assert!(ok, "{log}");
    // A compile error keeps the application's line number.
    let (ok, log) = compiles(
        "#version 150\n#extension GL_ARB_arrays_of_arrays : enable\nout vec4 c;\n\
         void main() { float x[2][2]; c = vec4(x[0][2]); }\n",
    );
    assert!(!ok && log.contains("0:4:"), "{log}");
    expect(GL_NO_ERROR);
}

const FS: &str = "#version 150\n#extension GL_ARB_arrays_of_arrays : enable\n\
    uniform float a[2][3];\n\
    uniform sampler2D s[2][2];\n\
    uniform int n;\n\
    out vec4 colour;\n\
    void main() {\n\
        colour = vec4(a[1][2], a[0][1], texture(s[n][0], vec2(0.5)).r, texture(s[1][1], vec2(0.5)).g);\n\
    }\n";

/// A 1×1 RGBA8 texture of `rgba` on unit `unit`.
fn texture_on(unit: u32, rgba: [u8; 4]) {
    let active = gl!(c"glActiveTexture": fn(u32));
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    // SAFETY: `rgba` holds the 1×1 image's 4 bytes.
    unsafe {
        active(GL_TEXTURE0 + unit);
        new_texture(GL_TEXTURE_2D);
        image(
            GL_TEXTURE_2D,
            0,
            0x8058,
            1,
            1,
            0,
            0x1908,
            0x1401,
            rgba.as_ptr().cast(),
        );
        param(GL_TEXTURE_2D, 0x2801, 0x2600);
    }
}

#[test]
fn uniforms_of_arrays_of_arrays_are_named_located_and_drawn() {
    let _ctx = context();
    let (p, linked) = try_program_with(VS, FS, |_| {});
    assert!(linked, "link");
    let uniforms = active_uniforms(p);
    for want in [
        ("a[0][0]", 3),
        ("a[1][0]", 3),
        ("s[0][0]", 2),
        ("s[1][0]", 2),
    ] {
        assert!(
            uniforms.iter().any(|(n, s)| (n.as_str(), *s) == want),
            "{want:?} not in {uniforms:?}"
        );
    }
    let a10 = location(p, "a[1][0]");
    assert!(a10 >= 0);
    assert_eq!(location(p, "a[1][2]"), a10 + 2);
    assert_eq!(location(p, "a[1]"), a10);
    assert_eq!(location(p, "a[1][3]"), -1);
    assert_eq!(location(p, "a[2][0]"), -1);
    assert_eq!(location(p, "s[1][1]"), location(p, "s[1][0]") + 1);

    texture_on(0, [0, 0, 0, 0]);
    texture_on(1, [255, 0, 0, 0]);
    texture_on(2, [0, 255, 0, 0]);
    let uniform1f = gl!(c"glUniform1f": fn(i32, f32));
    let uniform1i = gl!(c"glUniform1i": fn(i32, i32));
    let uniform1iv = gl!(c"glUniform1iv": fn(i32, i32, *const i32));
    let get_uniformiv = gl!(c"glGetUniformiv": fn(u32, i32, *mut i32));
    let px = draw(p, || {
        // SAFETY: plain GL calls; `units` holds the 2 values written.
        unsafe {
            uniform1f(location(p, "a[1][2]"), 1.0);
            uniform1f(location(p, "a[0][1]"), 0.5);
            uniform1i(location(p, "n"), 1);
            let units = [1, 2];
            uniform1iv(location(p, "s[1][0]"), 2, units.as_ptr());
        }
    });
    assert_rgba8_near(
        px,
        [255, 128, 255, 255],
        "a[1][2], a[0][1], s[1][0], s[1][1]",
    );
    let mut unit = -1;
    // SAFETY: out-pointer to a local.
    unsafe { get_uniformiv(p, location(p, "s[1][1]"), &mut unit) };
    assert_eq!(unit, 2);
    // SAFETY: out-pointer to a local.
    unsafe { get_uniformiv(p, location(p, "s[1][0]"), &mut unit) };
    assert_eq!(unit, 1);
}

#[test]
fn arrays_of_arrays_of_uniform_blocks_bind_one_buffer_per_element() {
    let _ctx = context();
    let fs = "#version 150\n#extension GL_ARB_arrays_of_arrays : enable\n\
        uniform Colour { vec4 c; } blocks[2][2];\n\
        out vec4 colour;\n\
        void main() { colour = blocks[1][0].c + blocks[0][1].c; }\n";
    let (p, linked) = try_program_with(VS, fs, |_| {});
    assert!(linked, "link");
    let index = gl!(c"glGetUniformBlockIndex": fn(u32, *const c_char) -> u32);
    let binding = gl!(c"glUniformBlockBinding": fn(u32, u32, u32));
    let bind_base = gl!(c"glBindBufferBase": fn(u32, u32, u32));
    let colours: [[f32; 4]; 3] = [[0.0; 4], [1.0, 0.0, 0.0, 0.5], [0.0, 0.0, 1.0, 0.5]];
    let px = draw(p, || {
        for (k, rgba) in colours.iter().enumerate() {
            let bytes: Vec<u8> = rgba.iter().flat_map(|v| v.to_le_bytes()).collect();
            let b = buffer_with(GL_UNIFORM_BUFFER, &bytes);
            // SAFETY: plain GL calls.
            unsafe { bind_base(GL_UNIFORM_BUFFER, k as u32, b) };
        }
        for (name, point) in [
            ("Colour[0][0]", 0),
            ("Colour[0][1]", 2),
            ("Colour[1][0]", 1),
            ("Colour[1][1]", 0),
        ] {
            let c = CString::new(name).expect("no NUL");
            // SAFETY: a NUL-terminated name.
            let i = unsafe { index(p, c.as_ptr()) };
            assert_ne!(i, u32::MAX, "{name}");
            // SAFETY: plain GL call.
            unsafe { binding(p, i, point) };
        }
        expect(GL_NO_ERROR);
    });
    assert_rgba8_near(px, [255, 0, 255, 255], "Colour[1][0] + Colour[0][1]");
}
