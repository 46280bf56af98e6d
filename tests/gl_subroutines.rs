//! `GL_ARB_shader_subroutine` through the C ABI: the program queries, the selection
//! (`glUniformSubroutinesuiv`) changing what a draw's fragment shader calls, an array of
//! subroutine uniforms in the vertex stage, the reset on `glUseProgram`, and the errors GL
//! specifies. Pixels are read back; the validation layer must stay silent.

use std::ffi::{c_char, CStr};

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, expect, f, program, read_rgba};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_VERTEX_SHADER: u32 = 0x8B31;
const GL_FRAGMENT_SHADER: u32 = 0x8B30;
const GL_TRIANGLE_STRIP: u32 = 0x0005;
const GL_ACTIVE_SUBROUTINES: u32 = 0x8DE5;
const GL_ACTIVE_SUBROUTINE_UNIFORMS: u32 = 0x8DE6;
const GL_ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS: u32 = 0x8E47;
const GL_ACTIVE_SUBROUTINE_MAX_LENGTH: u32 = 0x8E48;
const GL_NUM_COMPATIBLE_SUBROUTINES: u32 = 0x8E4A;
const GL_COMPATIBLE_SUBROUTINES: u32 = 0x8E4B;
const GL_MAX_SUBROUTINES: u32 = 0x8DE7;
const GL_INVALID_INDEX: u32 = 0xFFFF_FFFF;

const VS: &str = "#version 150\n#extension GL_ARB_shader_subroutine : require\n\
    subroutine vec2 shift_t(vec2 p);\n\
    subroutine(shift_t) vec2 keep(vec2 p) { return p; }\n\
    subroutine(shift_t) vec2 squash(vec2 p) { return p * vec2(0.5, 1.0) - vec2(0.5, 0.0); }\n\
    subroutine uniform shift_t shift[2];\n\
    void main() {\n\
        vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;\n\
        gl_Position = vec4(shift[1](shift[0](p)), 0.0, 1.0);\n\
    }\n";

const FS: &str = "#version 150\n#extension GL_ARB_shader_subroutine : require\n\
    out vec4 color;\n\
    subroutine vec4 paint_t(float level);\n\
    subroutine(paint_t) vec4 red(float level) { return vec4(level, 0.0, 0.0, 1.0); }\n\
    layout(index = 3) subroutine(paint_t) vec4 green(float level) { return vec4(0.0, level, 0.0, 1.0); }\n\
    subroutine(paint_t) vec4 blue(float level) { return vec4(0.0, 0.0, level, 1.0); }\n\
    subroutine uniform paint_t paint;\n\
    void main() { color = paint(1.0); }\n";

fn index(p: u32, stage: u32, name: &CStr) -> u32 {
    let f = gl!(c"glGetSubroutineIndex": fn(u32, u32, *const c_char) -> u32);
    // SAFETY: a NUL-terminated name.
    unsafe { f(p, stage, name.as_ptr()) }
}

fn stage_iv(p: u32, stage: u32, pname: u32) -> i32 {
    let f = gl!(c"glGetProgramStageiv": fn(u32, u32, u32, *mut i32));
    let mut v = -7;
    // SAFETY: one value into a local.
    unsafe { f(p, stage, pname, &mut v) };
    v
}

fn select(stage: u32, indices: &[u32]) {
    let f = gl!(c"glUniformSubroutinesuiv": fn(u32, i32, *const u32));
    // SAFETY: `indices.len()` values.
    unsafe { f(stage, indices.len() as i32, indices.as_ptr()) };
}

fn draw_quad() {
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: plain GL calls on the current context (a VAO is bound by the caller).
    unsafe {
        clear_color(0.0, 0.0, 0.0, 0.0);
        clear(0x4000);
        draw(GL_TRIANGLE_STRIP, 0, 4);
    }
}

fn pixel(x: i32, y: i32) -> [u8; 4] {
    let px = read_rgba(x, y, 1, 1);
    [px[0], px[1], px[2], px[3]]
}

#[test]
fn subroutine_queries_selection_and_drawing() {
    let _ctx = context();
    let p = program(VS, FS);
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vao = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let mut vao = 0;
    // SAFETY: one name into a local.
    unsafe {
        gen_vao(1, &mut vao);
        bind_vao(vao);
        use_program(p);
    }
    expect(GL_NO_ERROR);

    // The tables.
    assert_eq!(index(p, GL_FRAGMENT_SHADER, c"red"), 0);
    assert_eq!(index(p, GL_FRAGMENT_SHADER, c"green"), 3);
    assert_eq!(index(p, GL_FRAGMENT_SHADER, c"blue"), 1);
    assert_eq!(index(p, GL_FRAGMENT_SHADER, c"keep"), GL_INVALID_INDEX);
    assert_eq!(index(p, GL_VERTEX_SHADER, c"squash"), 1);
    assert_eq!(stage_iv(p, GL_FRAGMENT_SHADER, GL_ACTIVE_SUBROUTINES), 3);
    assert_eq!(
        stage_iv(p, GL_FRAGMENT_SHADER, GL_ACTIVE_SUBROUTINE_UNIFORMS),
        1
    );
    assert_eq!(
        stage_iv(p, GL_VERTEX_SHADER, GL_ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS),
        2
    );
    assert_eq!(
        stage_iv(p, GL_FRAGMENT_SHADER, GL_ACTIVE_SUBROUTINE_MAX_LENGTH),
        6
    );
    let location = gl!(c"glGetSubroutineUniformLocation": fn(u32, u32, *const c_char) -> i32);
    let uniform_iv = gl!(c"glGetActiveSubroutineUniformiv": fn(u32, u32, u32, u32, *mut i32));
    let get_int = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let (mut n, mut compatible, mut max) = (0, [0i32; 3], 0);
    // SAFETY: NUL-terminated names; values into locals of the sizes GL writes.
    unsafe {
        assert_eq!(location(p, GL_VERTEX_SHADER, c"shift[1]".as_ptr()), 1);
        assert_eq!(location(p, GL_FRAGMENT_SHADER, c"nothing".as_ptr()), -1);
        uniform_iv(
            p,
            GL_FRAGMENT_SHADER,
            0,
            GL_NUM_COMPATIBLE_SUBROUTINES,
            &mut n,
        );
        uniform_iv(
            p,
            GL_FRAGMENT_SHADER,
            0,
            GL_COMPATIBLE_SUBROUTINES,
            compatible.as_mut_ptr(),
        );
        get_int(GL_MAX_SUBROUTINES, &mut max);
    }
    assert_eq!((n, compatible), (3, [0, 1, 3]));
    assert!(max >= 256);
    expect(GL_NO_ERROR);

    // Before any selection each location holds its first compatible subroutine: red, keep.
    draw_quad();
    assert_eq!(pixel(16, 16), [255, 0, 0, 255]);
    assert_eq!(pixel(2, 2), [255, 0, 0, 255]);
    // Green everywhere, then blue squashed into the left half.
    select(GL_FRAGMENT_SHADER, &[3]);
    draw_quad();
    assert_eq!(pixel(16, 16), [0, 255, 0, 255]);
    select(GL_FRAGMENT_SHADER, &[1]);
    select(GL_VERTEX_SHADER, &[0, 1]);
    expect(GL_NO_ERROR);
    draw_quad();
    assert_eq!(pixel(4, 16), [0, 0, 255, 255], "left half drawn");
    assert_eq!(pixel(28, 16), [0, 0, 0, 0], "right half left clear");
    let get_sub = gl!(c"glGetUniformSubroutineuiv": fn(u32, i32, *mut u32));
    let mut chosen = 9;
    // SAFETY: one value into a local.
    unsafe { get_sub(GL_VERTEX_SHADER, 1, &mut chosen) };
    assert_eq!(chosen, 1);

    // glUseProgram resets the selection.
    // SAFETY: a plain GL call.
    unsafe { use_program(p) };
    draw_quad();
    assert_eq!(pixel(28, 16), [255, 0, 0, 255]);

    // Errors: a wrong count, an index past the last, a bad stage enum.
    select(GL_FRAGMENT_SHADER, &[0, 0]);
    expect(GL_INVALID_VALUE);
    select(GL_FRAGMENT_SHADER, &[4]);
    expect(GL_INVALID_VALUE);
    select(0x1234, &[0]);
    expect(GL_INVALID_ENUM);
    // SAFETY: plain GL calls.
    unsafe { use_program(0) };
    select(GL_FRAGMENT_SHADER, &[0]);
    expect(GL_INVALID_OPERATION);
    expect(GL_NO_ERROR);
}

#[test]
fn an_incompatible_subroutine_is_an_invalid_operation() {
    let _ctx = context();
    let fs = "#version 150\n#extension GL_ARB_shader_subroutine : require\n\
        out vec4 color;\n\
        subroutine float a_t();\n\
        subroutine float b_t();\n\
        subroutine(a_t) float one() { return 1.0; }\n\
        subroutine(b_t) float half_() { return 0.5; }\n\
        subroutine uniform a_t a;\n\
        subroutine uniform b_t b;\n\
        void main() { color = vec4(a(), b(), 0.0, 1.0); }\n";
    let vs = "#version 150\nvoid main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }\n";
    let p = program(vs, fs);
    let use_program = gl!(c"glUseProgram": fn(u32));
    // SAFETY: a plain GL call.
    unsafe { use_program(p) };
    let (one, half) = (
        index(p, GL_FRAGMENT_SHADER, c"one"),
        index(p, GL_FRAGMENT_SHADER, c"half_"),
    );
    select(GL_FRAGMENT_SHADER, &[one, half]);
    expect(GL_NO_ERROR);
    select(GL_FRAGMENT_SHADER, &[half, one]);
    expect(GL_INVALID_OPERATION);
}
