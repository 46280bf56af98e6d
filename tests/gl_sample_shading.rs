//! GL_ARB_sample_shading through the C ABI: `glMinSampleShading` clamps and is queried,
//! `GL_SAMPLE_SHADING` enables, a draw with it on into a multisampled framebuffer builds its
//! pipeline (`sampleShadingEnable`, silent validation layer), and `gl_NumSamples` reads the draw
//! framebuffer's sample count (1 when single-sampled). Pixels are read back after a resolve.

use std::ffi::c_char;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_SAMPLE_SHADING: u32 = 0x8C36;
const GL_MIN_SAMPLE_SHADING_VALUE: u32 = 0x8C37;
const GL_MAX_SAMPLES: u32 = 0x8D57;
const GL_SAMPLES: u32 = 0x80A9;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_READ_FRAMEBUFFER: u32 = 0x8CA8;
const GL_DRAW_FRAMEBUFFER: u32 = 0x8CA9;
const GL_RENDERBUFFER: u32 = 0x8D41;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_RGBA8: u32 = 0x8058;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_NEAREST: u32 = 0x2600;
const GL_TRIANGLES: u32 = 4;

const VS: &str = "#version 330\nvoid main() {\n    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n    gl_Position = vec4(p, 0.0, 1.0);\n}\n";
const FS: &str = "#version 330\n#extension GL_ARB_sample_shading : require\nuniform int expected;\nout vec4 color;\nvoid main() {\n    color = gl_NumSamples == expected ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);\n}\n";

fn get_int(pname: u32) -> i32 {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = 0;
    // SAFETY: out-pointer to a local.
    unsafe { get(pname, &mut v) };
    v
}

/// Draws the window-covering triangle with `expected` as the sample count the shader checks.
fn draw(program: u32, expected: i32) {
    let location = gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32);
    let uniform = gl!(c"glUniform1i": fn(i32, i32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: a NUL-terminated name; plain values.
    unsafe {
        uniform(location(program, c"expected".as_ptr()), expected);
        draw(GL_TRIANGLES, 0, 3);
    }
}

fn centre() -> [u8; 4] {
    let v = gl_harness::read_rgba(16, 16, 1, 1);
    [v[0], v[1], v[2], v[3]]
}

#[test]
fn sample_shading_state_and_gl_num_samples() {
    let _ctx = gl_harness::context();
    let min_sample_shading = gl!(c"glMinSampleShading": fn(f32));
    let get_float = gl!(c"glGetFloatv": fn(u32, *mut f32));
    let enable = gl!(c"glEnable": fn(u32));
    let is_enabled = gl!(c"glIsEnabled": fn(u32) -> u8);
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let gen_rbs = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_rb = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage = gl!(c"glRenderbufferStorageMultisample": fn(u32, i32, u32, i32, i32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let blit = gl!(c"glBlitFramebuffer": fn(i32, i32, i32, i32, i32, i32, i32, i32, u32, u32));
    let program = gl_harness::program(VS, FS);
    let mut value = 0.0f32;
    // SAFETY: out-pointers to locals; plain values.
    unsafe {
        get_float(GL_MIN_SAMPLE_SHADING_VALUE, &mut value);
        assert_eq!(value, 0.0);
        min_sample_shading(1.5);
        get_float(GL_MIN_SAMPLE_SHADING_VALUE, &mut value);
        assert_eq!(value, 1.0, "clamped to [0, 1]");
        assert_eq!(is_enabled(GL_SAMPLE_SHADING), 0);
        enable(GL_SAMPLE_SHADING);
        assert_eq!(is_enabled(GL_SAMPLE_SHADING), 1);
        expect(GL_NO_ERROR);
        let mut vao = 0;
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        use_program(program);
    }
    draw(program, 1);
    assert_eq!(
        centre(),
        [0, 255, 0, 255],
        "single-sampled: gl_NumSamples is 1"
    );
    let samples = get_int(GL_MAX_SAMPLES).min(4);
    // SAFETY: out-pointers to locals; plain values.
    unsafe {
        let (mut fb, mut rb) = (0, 0);
        gen_fbs(1, &mut fb);
        bind_fb(GL_FRAMEBUFFER, fb);
        gen_rbs(1, &mut rb);
        bind_rb(GL_RENDERBUFFER, rb);
        storage(GL_RENDERBUFFER, samples, GL_RGBA8, 32, 32);
        attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
        let count = get_int(GL_SAMPLES);
        assert!(count > 1, "a multisampled framebuffer");
        draw(program, count);
        expect(GL_NO_ERROR);
        bind_fb(GL_DRAW_FRAMEBUFFER, 0);
        bind_fb(GL_READ_FRAMEBUFFER, fb);
        blit(0, 0, 32, 32, 0, 0, 32, 32, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        bind_fb(GL_READ_FRAMEBUFFER, 0);
    }
    assert_eq!(
        centre(),
        [0, 255, 0, 255],
        "multisampled: gl_NumSamples is the count"
    );
    expect(GL_NO_ERROR);
}
