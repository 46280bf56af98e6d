//! GLSL that glslang refuses or mistranslates for Vulkan and ArenaGL rewrites, through the C
//! ABI: a structure defined inside a uniform block, GLSL 1.20 uniform initializers, and
//! `GL_ARB_shader_bit_encoding` in GLSL 1.30. Each program draws; pixels are read back, and the
//! validation layer must stay silent.

use std::ffi::{c_void, CString};
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_FLOAT: u32 = 0x1406;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_UNIFORM_BUFFER: u32 = 0x8A11;
const GL_STATIC_DRAW: u32 = 0x88E4;
const GL_TRIANGLE_STRIP: u32 = 5;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_VERTEX_SHADER: u32 = 0x8B31;
const GL_FRAGMENT_SHADER: u32 = 0x8B30;
const GL_LINK_STATUS: u32 = 0x8B82;

fn centre() -> [u8; 4] {
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let mut px = [0u8; 4];
    // SAFETY: one RGBA pixel into a 4-byte local.
    unsafe {
        read(
            16,
            16,
            1,
            1,
            0x1908,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        )
    };
    px
}

/// Draws a window-filling strip from attribute 0 with `program`.
fn draw_with(program: u32) {
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let gen_buffers = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind_buffer = gl!(c"glBindBuffer": fn(u32, u32));
    let buffer_data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let strip: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
    // SAFETY: the strip holds 32 bytes; out-pointers are locals; plain values otherwise.
    unsafe {
        let (mut vao, mut b) = (0, 0);
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        gen_buffers(1, &mut b);
        bind_buffer(GL_ARRAY_BUFFER, b);
        buffer_data(GL_ARRAY_BUFFER, 32, strip.as_ptr().cast(), GL_STATIC_DRAW);
        pointer(0, 2, GL_FLOAT, 0, 0, null());
        enable(0);
        use_program(program);
        clear_color(0.0, 0.0, 1.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
        draw_arrays(GL_TRIANGLE_STRIP, 0, 4);
    }
}

/// Links the units given (type, source), `pos` at attribute 0; returns the program and its
/// link status.
fn link_units(units: &[(u32, &str)]) -> (u32, bool) {
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const i8, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let create_program = gl!(c"glCreateProgram": fn() -> u32);
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    let link = gl!(c"glLinkProgram": fn(u32));
    let get = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    let bind_attrib = gl!(c"glBindAttribLocation": fn(u32, u32, *const i8));
    // SAFETY: NUL-terminated sources; the out-pointer is a local.
    unsafe {
        let p = create_program();
        for &(ty, src) in units {
            let s = create(ty);
            let c = CString::new(src).expect("no NUL");
            let ptr = c.as_ptr();
            source(s, 1, &ptr, null());
            compile(s);
            attach(p, s);
        }
        bind_attrib(p, 0, c"pos".as_ptr());
        link(p);
        let mut ok = 0;
        get(p, GL_LINK_STATUS, &mut ok);
        (p, ok == 1)
    }
}

const POS_VS_120: &str =
    "#version 120\nattribute vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";

#[test]
fn a_struct_defined_inside_a_uniform_block_is_laid_out_and_read() {
    let _ctx = gl_harness::context_profile(true);
    let vs = "#version 120\n#extension GL_ARB_uniform_buffer_object : require\nlayout(std140) uniform;\nuniform ub_info {\n   struct {\n      vec2 pos;\n      float size;\n      vec4 color;\n   } info[2];\n};\nuniform int j;\nattribute vec2 pos;\nvarying vec4 color;\nvoid main() {\n    gl_Position = vec4(pos * info[j].size + info[j].pos, 0.0, 1.0);\n    color = info[j].color;\n}\n";
    let fs = "#version 120\nvarying vec4 color;\nvoid main() { gl_FragColor = color; }\n";
    let (p, ok) = link_units(&[(GL_VERTEX_SHADER, vs), (GL_FRAGMENT_SHADER, fs)]);
    assert!(ok, "the block links");
    let block_index = gl!(c"glGetUniformBlockIndex": fn(u32, *const i8) -> u32);
    let block_iv = gl!(c"glGetActiveUniformBlockiv": fn(u32, u32, u32, *mut i32));
    let gen_buffers = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind_buffer = gl!(c"glBindBuffer": fn(u32, u32));
    let buffer_data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let bind_base = gl!(c"glBindBufferBase": fn(u32, u32, u32));
    let location = gl!(c"glGetUniformLocation": fn(u32, *const i8) -> i32);
    let uniform1i = gl!(c"glUniform1i": fn(i32, i32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    // std140: per element vec2 pos (0), float size (8), vec4 color (16); stride 32.
    let data: [f32; 16] = [
        5.0, 5.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, // element 0: off screen, red
        0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, // element 1: full screen, green
    ];
    // SAFETY: `data` holds 64 bytes; out-pointers are locals; plain values otherwise.
    unsafe {
        let index = block_index(p, c"ub_info".as_ptr());
        let mut size = 0;
        block_iv(p, index, 0x8A40, &mut size); // GL_UNIFORM_BLOCK_DATA_SIZE
        assert_eq!(size, 64);
        let mut b = 0;
        gen_buffers(1, &mut b);
        bind_buffer(GL_UNIFORM_BUFFER, b);
        buffer_data(GL_UNIFORM_BUFFER, 64, data.as_ptr().cast(), GL_STATIC_DRAW);
        bind_base(GL_UNIFORM_BUFFER, 0, b);
        use_program(p);
        uniform1i(location(p, c"j".as_ptr()), 1);
    }
    draw_with(p);
    expect(GL_NO_ERROR);
    assert_eq!(centre(), [0, 255, 0, 255]);
}

#[test]
fn glsl_120_uniform_initializers_are_the_initial_values() {
    let _ctx = gl_harness::context_profile(true);
    let fs = "#version 120\nuniform vec4 c[2] = vec4[2](vec4(1.0, 0.0, 0.0, 1.0), vec4(0.0, 0.5, 0.0, 0.5));\nuniform float k = 2.0;\nuniform int pick = 1;\nuniform vec4 plain;\nvoid main() { gl_FragColor = c[pick] * k + plain; }\n";
    let (p, ok) = link_units(&[(GL_VERTEX_SHADER, POS_VS_120), (GL_FRAGMENT_SHADER, fs)]);
    assert!(ok);
    let get_uniform = gl!(c"glGetUniformfv": fn(u32, i32, *mut f32));
    let location = gl!(c"glGetUniformLocation": fn(u32, *const i8) -> i32);
    // SAFETY: out-pointer to four floats.
    unsafe {
        let mut v = [0f32; 4];
        get_uniform(p, location(p, c"c[1]".as_ptr()), v.as_mut_ptr());
        assert_eq!(
            v,
            [0.0, 0.5, 0.0, 0.5],
            "glGetUniform reads the initializer"
        );
    }
    draw_with(p);
    expect(GL_NO_ERROR);
    assert_eq!(centre(), [0, 255, 0, 255], "c[1] × 2 + 0");
}

#[test]
fn shader_bit_encoding_is_advertised_and_accepted_in_glsl_130() {
    let _ctx = gl_harness::context();
    let get_string_i = gl!(c"glGetStringi": fn(u32, u32) -> *const i8);
    let get_integer = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    // SAFETY: indices below GL_NUM_EXTENSIONS; returned strings are NUL-terminated and static.
    let names: Vec<String> = unsafe {
        let mut n = 0;
        get_integer(0x821D, &mut n);
        (0..n as u32)
            .map(|i| {
                std::ffi::CStr::from_ptr(get_string_i(0x1F03, i))
                    .to_string_lossy()
                    .into_owned()
            })
            .collect()
    };
    assert!(names.iter().any(|e| e == "GL_ARB_shader_bit_encoding"));
    let vs = "#version 130\nin vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
    let fs = "#version 130\n#extension GL_ARB_shader_bit_encoding : enable\nuniform float given;\nvoid main() {\n    bool ok = floatBitsToInt(given) == 0x3f800000 && uintBitsToFloat(0x40000000u) == 2.0;\n    gl_FragColor = ok ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);\n}\n";
    let (p, ok) = link_units(&[(GL_VERTEX_SHADER, vs), (GL_FRAGMENT_SHADER, fs)]);
    assert!(ok);
    let location = gl!(c"glGetUniformLocation": fn(u32, *const i8) -> i32);
    let use_program = gl!(c"glUseProgram": fn(u32));
    let uniform1f = gl!(c"glUniform1f": fn(i32, f32));
    // SAFETY: plain values.
    unsafe {
        use_program(p);
        uniform1f(location(p, c"given".as_ptr()), 1.0);
    }
    draw_with(p);
    expect(GL_NO_ERROR);
    assert_eq!(centre(), [0, 255, 0, 255]);
}
