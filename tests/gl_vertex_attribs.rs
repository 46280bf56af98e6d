//! Vertex attribute paths Vulkan cannot take directly, through the C ABI: narrow integer arrays
//! (`glVertexAttribIPointer` of `GL_BYTE`/`GL_UNSIGNED_SHORT`) read by an input of the other
//! signedness, packed 2_10_10_10_REV arrays, and `glVertexAttribP*` current values. Each draw
//! colours the drawable green when the shader saw exactly the expected values; the pixels are
//! read back, and the validation layer must stay silent.

use std::ffi::c_void;
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_STATIC_DRAW: u32 = 0x88E4;
const GL_FLOAT: u32 = 0x1406;
const GL_BYTE: u32 = 0x1400;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_SHORT: u32 = 0x1402;
const GL_UNSIGNED_SHORT: u32 = 0x1403;
const GL_INT_2_10_10_10_REV: u32 = 0x8D9F;
const GL_UNSIGNED_INT_2_10_10_10_REV: u32 = 0x8368;
const GL_TRIANGLE_STRIP: u32 = 5;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;

/// The centre pixel of the 32×32 drawable.
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

/// A VAO with a window-filling strip at attribute 0 and `bytes` in a buffer for the caller.
fn setup(bytes: &[u8]) -> u32 {
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let gen_buffers = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind_buffer = gl!(c"glBindBuffer": fn(u32, u32));
    let buffer_data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    let strip: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
    // SAFETY: the data pointers hold the byte counts given; out-pointers are locals.
    unsafe {
        let mut vao = 0;
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        let mut b = [0u32; 2];
        gen_buffers(2, b.as_mut_ptr());
        bind_buffer(GL_ARRAY_BUFFER, b[0]);
        buffer_data(GL_ARRAY_BUFFER, 32, strip.as_ptr().cast(), GL_STATIC_DRAW);
        pointer(0, 2, GL_FLOAT, 0, 0, null());
        enable(0);
        bind_buffer(GL_ARRAY_BUFFER, b[1]);
        buffer_data(
            GL_ARRAY_BUFFER,
            bytes.len() as isize,
            bytes.as_ptr().cast(),
            GL_STATIC_DRAW,
        );
        b[1]
    }
}

fn draw() {
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: plain values.
    unsafe {
        clear_color(0.0, 0.0, 1.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
        draw_arrays(GL_TRIANGLE_STRIP, 0, 4);
    }
}

const INT_VS: &str = "#version 330\nlayout(location = 0) in vec2 pos;\nlayout(location = 1) in ivec4 ai;\nlayout(location = 2) in uvec4 au;\nuniform ivec4 expected;\nout vec4 color;\nvoid main() {\n    gl_Position = vec4(pos, 0.0, 1.0);\n    color = (ai == expected && au == uvec4(expected)) ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);\n}\n";
const PASS_FS: &str =
    "#version 330\nin vec4 color;\nout vec4 frag;\nvoid main() { frag = color; }\n";

#[test]
fn narrow_integer_arrays_keep_their_values_in_inputs_of_the_other_signedness() {
    let _ctx = gl_harness::context();
    let use_program = gl!(c"glUseProgram": fn(u32));
    let location = gl!(c"glGetUniformLocation": fn(u32, *const i8) -> i32);
    let uniform = gl!(c"glUniform4iv": fn(i32, i32, *const i32));
    let ipointer = gl!(c"glVertexAttribIPointer": fn(u32, i32, u32, i32, *const c_void));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    let p = gl_harness::program(INT_VS, PASS_FS);
    // Four vertices of each array; signed data reads sign-extended into the uvec4 and
    // unsigned data zero-extended into the ivec4, as GL converts the array's own values.
    let cases: [(u32, Vec<u8>, [i32; 4]); 4] = [
        (
            GL_BYTE,
            [50i8, 0, -25, -50].map(|v| v as u8).to_vec(),
            [50, 0, -25, -50],
        ),
        (GL_UNSIGNED_BYTE, vec![100, 0, 200, 255], [100, 0, 200, 255]),
        (
            GL_SHORT,
            [2000i16, 0, -4000, -32010]
                .iter()
                .flat_map(|v| v.to_ne_bytes())
                .collect(),
            [2000, 0, -4000, -32010],
        ),
        (
            GL_UNSIGNED_SHORT,
            [16000u16, 0, 32000, 65535]
                .iter()
                .flat_map(|v| v.to_ne_bytes())
                .collect(),
            [16000, 0, 32000, 65535],
        ),
    ];
    for (ty, element, expected) in cases {
        let bytes = element.repeat(4);
        setup(&bytes);
        // SAFETY: offsets into the bound buffer; the uniform pointer is a local of four.
        unsafe {
            use_program(p);
            ipointer(1, 4, ty, 0, null());
            ipointer(2, 4, ty, 0, null());
            enable(1);
            enable(2);
            uniform(location(p, c"expected".as_ptr()), 1, expected.as_ptr());
        }
        draw();
        expect(GL_NO_ERROR);
        assert_eq!(centre(), [0, 255, 0, 255], "type 0x{ty:04X}");
    }
}

const PACKED_VS: &str = "#version 330\nlayout(location = 0) in vec2 pos;\nlayout(location = 1) in vec4 a;\nuniform vec4 expected;\nout vec4 color;\nvoid main() {\n    gl_Position = vec4(pos, 0.0, 1.0);\n    color = all(lessThan(abs(a - expected), vec4(0.002))) ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);\n}\n";

/// x = 1023, y = 512, z = 1, w = 3 packed as 2_10_10_10_REV.
const PACKED: u32 = 1023 | (512 << 10) | (1 << 20) | (3 << 30);

#[test]
fn packed_2_10_10_10_arrays_and_current_values_unpack_each_field() {
    let _ctx = gl_harness::context();
    let use_program = gl!(c"glUseProgram": fn(u32));
    let location = gl!(c"glGetUniformLocation": fn(u32, *const i8) -> i32);
    let uniform = gl!(c"glUniform4f": fn(i32, f32, f32, f32, f32));
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    let disable = gl!(c"glDisableVertexAttribArray": fn(u32));
    let p4ui = gl!(c"glVertexAttribP4ui": fn(u32, u32, u8, u32));
    let p2uiv = gl!(c"glVertexAttribP2uiv": fn(u32, u32, u8, *const u32));
    let p = gl_harness::program(PACKED_VS, PASS_FS);
    let bytes: Vec<u8> = [PACKED; 4].iter().flat_map(|v| v.to_ne_bytes()).collect();
    setup(&bytes);
    // (type, normalized, expected vec4)
    let cases = [
        (GL_UNSIGNED_INT_2_10_10_10_REV, 0, [1023.0, 512.0, 1.0, 3.0]),
        (
            GL_UNSIGNED_INT_2_10_10_10_REV,
            1,
            [1.0, 512.0 / 1023.0, 1.0 / 1023.0, 1.0],
        ),
        (GL_INT_2_10_10_10_REV, 0, [-1.0, -512.0, 1.0, -1.0]),
        (
            GL_INT_2_10_10_10_REV,
            1,
            [-1.0 / 511.0, -1.0, 1.0 / 511.0, -1.0],
        ),
    ];
    for (ty, normalized, e) in cases {
        // SAFETY: offsets into the bound buffer; plain values.
        unsafe {
            use_program(p);
            uniform(location(p, c"expected".as_ptr()), e[0], e[1], e[2], e[3]);
            pointer(1, 4, ty, normalized, 0, null());
            enable(1);
        }
        draw();
        expect(GL_NO_ERROR);
        assert_eq!(
            centre(),
            [0, 255, 0, 255],
            "array 0x{ty:04X} normalized {normalized}"
        );
        // The same word as a current value.
        // SAFETY: plain values.
        unsafe {
            disable(1);
            p4ui(1, ty, normalized, PACKED);
        }
        draw();
        expect(GL_NO_ERROR);
        assert_eq!(
            centre(),
            [0, 255, 0, 255],
            "P4ui 0x{ty:04X} normalized {normalized}"
        );
    }
    // Two components: z and w take 0 and 1.
    // SAFETY: a pointer to a local word; plain values.
    unsafe {
        uniform(location(p, c"expected".as_ptr()), 1023.0, 512.0, 0.0, 1.0);
        p2uiv(1, GL_UNSIGNED_INT_2_10_10_10_REV, 0, &PACKED);
        draw();
        expect(GL_NO_ERROR);
        assert_eq!(centre(), [0, 255, 0, 255], "P2uiv");
        p4ui(1, GL_FLOAT, 0, PACKED);
        expect(GL_INVALID_ENUM);
    }
}

const INT_POSITION_VS: &str = "#version 330\nlayout(location = 0) in vec2 pos;\nlayout(location = 1) in vec2 tc;\nout vec4 color;\nvoid main() {\n    gl_Position = vec4(pos, 0.0, 1.0);\n    color = tc == pos * 10.0 ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);\n}\n";

/// `GL_INT` arrays read as floats are converted on the CPU up to the last vertex the draw reads;
/// for `glDrawElements` that is the largest index (3 here), not `count - 1` (5), which read past
/// the 64-byte buffer and refused the draw (piglit fbo-blit-scaled-linear's own draw).
#[test]
fn converted_arrays_of_an_indexed_draw_end_at_its_largest_index() {
    let _ctx = gl_harness::context();
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
    let draw_elements = gl!(c"glDrawElements": fn(u32, i32, u32, *const c_void));
    const GL_INT: u32 = 0x1404;
    const GL_UNSIGNED_INT: u32 = 0x1405;
    const GL_ELEMENT_ARRAY_BUFFER: u32 = 0x8893;
    const GL_TRIANGLES: u32 = 4;
    // Four interleaved vertices (position, position × 10) of 16 bytes each: 64 bytes.
    let vertices: [[i32; 4]; 4] = [
        [-1, -1, -10, -10],
        [-1, 1, -10, 10],
        [1, 1, 10, 10],
        [1, -1, 10, -10],
    ];
    let indices: [u32; 6] = [0, 1, 2, 0, 2, 3];
    let p = gl_harness::program(INT_POSITION_VS, PASS_FS);
    // SAFETY: the data pointers hold the byte counts given; offsets into the bound buffers.
    unsafe {
        let mut vao = 0;
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        let mut b = [0u32; 2];
        gen_buffers(2, b.as_mut_ptr());
        bind_buffer(GL_ARRAY_BUFFER, b[0]);
        buffer_data(
            GL_ARRAY_BUFFER,
            64,
            vertices.as_ptr().cast(),
            GL_STATIC_DRAW,
        );
        pointer(0, 2, GL_INT, 0, 16, null());
        pointer(1, 2, GL_INT, 0, 16, 8 as *const c_void);
        enable(0);
        enable(1);
        bind_buffer(GL_ELEMENT_ARRAY_BUFFER, b[1]);
        buffer_data(
            GL_ELEMENT_ARRAY_BUFFER,
            24,
            indices.as_ptr().cast(),
            GL_STATIC_DRAW,
        );
        use_program(p);
        clear_color(0.0, 0.0, 1.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
        draw_elements(GL_TRIANGLES, 6, GL_UNSIGNED_INT, null());
    }
    expect(GL_NO_ERROR);
    assert_eq!(centre(), [0, 255, 0, 255]);
}
