//! `GL_ARB_explicit_uniform_location` through the C ABI: `layout(location = N) uniform` places
//! uniforms (arrays and structs on consecutive locations), the others fill around them, one
//! location is shared by the stages of a program, overlaps and out-of-range locations do not
//! link, an inactive explicit uniform's location is ignored by `glUniform*`, and
//! `GL_MAX_UNIFORM_LOCATIONS`. Pixels are read back; the validation layer must stay silent.

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use std::ffi::{c_char, CStr};

use gl_harness::{context, expect, f, read_rgba, try_program_with};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_MAX_UNIFORM_LOCATIONS: u32 = 0x826E;

const VS: &str = "#version 330\n#extension GL_ARB_explicit_uniform_location : require\n\
    layout(location = 7) uniform vec2 offset;\n\
    void main() {\n\
        vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;\n\
        gl_Position = vec4(p + offset, 0.0, 1.0);\n\
    }\n";

const FS: &str = "#version 330\n#extension GL_ARB_explicit_uniform_location : require\n\
    struct Tint { float r; float g; };\n\
    layout(location = 2) uniform float weights[3];\n\
    layout(location = 10) uniform Tint tint;\n\
    uniform float blue;\n\
    layout(location = 20) uniform float unused;\n\
    out vec4 colour;\n\
    void main() { colour = vec4(tint.r * weights[2], tint.g, blue, 1.0); }\n";

fn location(p: u32, name: &CStr) -> i32 {
    let get = gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32);
    // SAFETY: a NUL-terminated name.
    unsafe { get(p, name.as_ptr()) }
}

#[test]
fn explicit_locations_place_uniforms_and_the_rest_fill_around() {
    let _ctx = context();
    let (p, linked) = try_program_with(VS, FS, |_| {});
    assert!(linked, "link");
    expect(GL_NO_ERROR);
    assert_eq!(location(p, c"offset"), 7);
    assert_eq!(location(p, c"weights"), 2);
    assert_eq!(location(p, c"weights[2]"), 4);
    assert_eq!(location(p, c"tint.r"), 10);
    assert_eq!(location(p, c"tint.g"), 11);
    // The implicit uniform takes the first free location.
    assert_eq!(location(p, c"blue"), 0);
    // glslang keeps an unread loose uniform, so it stays active at its location.
    assert_eq!(location(p, c"unused"), 20);

    let use_program = gl!(c"glUseProgram": fn(u32));
    let uniform1f = gl!(c"glUniform1f": fn(i32, f32));
    let uniform2f = gl!(c"glUniform2f": fn(i32, f32, f32));
    let gen_vao = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let mut vao = 0;
    // SAFETY: plain GL calls with locals.
    unsafe {
        gen_vao(1, &mut vao);
        bind_vao(vao);
        use_program(p);
        uniform2f(7, 0.5, 0.0);
        uniform1f(4, 2.0);
        uniform1f(10, 0.5);
        uniform1f(11, 1.0);
        uniform1f(0, 1.0);
        // A location no uniform has is an error (location 5 is a hole between them).
        uniform1f(20, 1.0);
        expect(GL_NO_ERROR);
        uniform1f(5, 1.0);
        expect(GL_INVALID_OPERATION);
        clear_color(0.0, 0.0, 0.0, 0.0);
        clear(0x4000);
        draw(0x0005, 0, 4);
    }
    expect(GL_NO_ERROR);
    // The quad moved right by a quarter of the target: the left quarter stays clear.
    assert_eq!(read_rgba(2, 16, 1, 1), [0, 0, 0, 0]);
    assert_eq!(read_rgba(20, 16, 1, 1), [255, 255, 255, 255]);
}

#[test]
fn overlapping_or_out_of_range_locations_do_not_link() {
    let _ctx = context();
    let fs = |decl: &str| {
        format!(
            "#version 330\n#extension GL_ARB_explicit_uniform_location : require\n{decl}\n\
             out vec4 colour;\nvoid main() {{ colour = vec4(a[0] + b); }}\n"
        )
    };
    // `a` takes 3 and 4, `b` wants 4.
    let overlap =
        fs("layout(location = 3) uniform float a[2];\nlayout(location = 4) uniform float b;");
    assert!(!try_program_with(VS, &overlap, |_| {}).1, "overlap linked");
    let far = fs("layout(location = 1023) uniform float a[2];\nuniform float b;");
    assert!(
        !try_program_with(VS, &far, |_| {}).1,
        "location past the limit linked"
    );
    // The vertex stage's `offset` at 7 and a fragment uniform of another name at 7.
    let clash = fs("uniform float a[2];\nlayout(location = 7) uniform float b;");
    assert!(
        !try_program_with(VS, &clash, |_| {}).1,
        "clash across stages linked"
    );
    let fine =
        fs("layout(location = 3) uniform float a[2];\nlayout(location = 5) uniform float b;");
    assert!(try_program_with(VS, &fine, |_| {}).1);

    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut max = 0;
    // SAFETY: one value into a local.
    unsafe { get(GL_MAX_UNIFORM_LOCATIONS, &mut max) };
    assert_eq!(max, 1024);
    expect(GL_NO_ERROR);
}
