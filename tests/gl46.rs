//! GL 4.6's shader draw parameters through the C ABI (GL_ARB_shader_draw_parameters): each draw
//! of a multi-draw puts a small square in the quadrant its `gl_DrawIDARB` names, green when
//! `gl_BaseVertexARB` holds the base vertex GL gives that draw (0 for every non-indexed draw,
//! the call's for an indexed one) and red otherwise. The draws run as direct commands (one
//! Vulkan draw each, `gl_DrawIDARB` pushed), as device-read indirect commands, as indirect
//! commands read back on the CPU, and lowered to an index list on the CPU. The validation layer
//! must stay silent.

use std::ffi::{c_void, CStr};
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{buffer_with, expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_ELEMENT_ARRAY_BUFFER: u32 = 0x8893;
const GL_DRAW_INDIRECT_BUFFER: u32 = 0x8F3F;
const GL_FLOAT: u32 = 0x1406;
const GL_UNSIGNED_SHORT: u32 = 0x1403;
const GL_TRIANGLE_STRIP: u32 = 5;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_PRIMITIVE_RESTART: u32 = 0x8F9D;
const GL_PRIMITIVES_GENERATED: u32 = 0x8C87;
const GL_EXTENSIONS: u32 = 0x1F03;
const GL_NUM_EXTENSIONS: u32 = 0x821D;

const GREEN: [u8; 4] = [0, 255, 0, 255];
const BLACK: [u8; 4] = [0, 0, 0, 0];
const ALL_GREEN: [[u8; 4]; 4] = [GREEN; 4];

/// Quadrant by draw index (bottom-left, bottom-right, top-left, top-right); green when the base
/// vertex is `base_step` times the draw index.
const VS: &str = "#version 140\n#extension GL_ARB_shader_draw_parameters : require\nin vec2 pos;\nuniform int base_step;\nflat out int ok;\nvoid main() {\n    vec2 shift = vec2((gl_DrawIDARB & 1) == 1 ? 0.5 : -0.5, gl_DrawIDARB >= 2 ? 0.5 : -0.5);\n    gl_Position = vec4(pos * 0.25 + shift, 0.0, 1.0);\n    ok = gl_BaseVertexARB == base_step * gl_DrawIDARB ? 1 : 0;\n}\n";
const FS: &str = "#version 140\nflat in int ok;\nout vec4 frag;\nvoid main() { frag = ok == 1 ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0); }\n";

/// The centre pixels of the four quadrants.
fn quadrants() -> [[u8; 4]; 4] {
    let px = |x: i32, y: i32| {
        let v = gl_harness::read_rgba(x, y, 1, 1);
        [v[0], v[1], v[2], v[3]]
    };
    [px(8, 8), px(24, 8), px(8, 24), px(24, 24)]
}

fn bytes_of<T: Copy>(values: &[T]) -> Vec<u8> {
    // SAFETY: plain numbers, read as the bytes they are.
    unsafe {
        std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), std::mem::size_of_val(values))
    }
    .to_vec()
}

/// The program, a VAO over four copies of the square strip (vertices 0–15) and an element
/// buffer of one strip's indices; `base_step` set; the drawable cleared.
fn scene(base_step: i32) {
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    let bind_location = gl!(c"glBindAttribLocation": fn(u32, u32, *const i8));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let location = gl!(c"glGetUniformLocation": fn(u32, *const i8) -> i32);
    let uniform = gl!(c"glUniform1i": fn(i32, i32));
    let strip = [-1.0f32, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
    let strips: Vec<f32> = strip.iter().copied().cycle().take(32).collect();
    // SAFETY: a live program name and a NUL-terminated name.
    let program =
        gl_harness::program_with(VS, FS, |p| unsafe { bind_location(p, 0, c"pos".as_ptr()) });
    // SAFETY: plain values; NUL-terminated names; null offsets into bound buffers.
    unsafe {
        use_program(program);
        uniform(location(program, c"base_step".as_ptr()), base_step);
        let mut vao = 0;
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        buffer_with(GL_ARRAY_BUFFER, &bytes_of(&strips));
        pointer(0, 2, GL_FLOAT, 0, 0, null());
        enable(0);
        buffer_with(GL_ELEMENT_ARRAY_BUFFER, &bytes_of(&[0u16, 1, 2, 3]));
    }
    clear();
    expect(GL_NO_ERROR);
}

fn clear() {
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    // SAFETY: plain values.
    unsafe {
        clear_color(0.0, 0.0, 0.0, 0.0);
        clear(GL_COLOR_BUFFER_BIT);
    }
}

#[test]
fn the_extension_is_offered() {
    let _ctx = gl_harness::context();
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let string = gl!(c"glGetStringi": fn(u32, u32) -> *const i8);
    let mut n = 0;
    // SAFETY: an out-pointer to a local; indices below GL_NUM_EXTENSIONS give static strings.
    let names: Vec<String> = unsafe {
        get(GL_NUM_EXTENSIONS, &mut n);
        (0..n as u32)
            .map(|i| {
                CStr::from_ptr(string(GL_EXTENSIONS, i))
                    .to_string_lossy()
                    .into_owned()
            })
            .collect()
    };
    assert!(names.iter().any(|e| e == "GL_ARB_shader_draw_parameters"));
}

#[test]
fn multi_draw_arrays_count_draws_and_base_vertex_is_zero() {
    let _ctx = gl_harness::context();
    scene(0);
    let multi = gl!(c"glMultiDrawArrays": fn(u32, *const i32, *const i32, i32));
    // Each draw starts at its own copy: Vulkan's BaseVertex would be 4, 8, 12.
    let first = [0, 4, 8, 12];
    let count = [4; 4];
    // SAFETY: arrays of four values each.
    unsafe { multi(GL_TRIANGLE_STRIP, first.as_ptr(), count.as_ptr(), 4) };
    expect(GL_NO_ERROR);
    assert_eq!(quadrants(), ALL_GREEN);
    clear();
    let single = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: plain values.
    unsafe { single(GL_TRIANGLE_STRIP, 8, 4) };
    expect(GL_NO_ERROR);
    assert_eq!(quadrants(), [GREEN, BLACK, BLACK, BLACK], "draw 0 of one");
}

#[test]
fn multi_draw_elements_see_each_base_vertex() {
    let _ctx = gl_harness::context();
    scene(4);
    let multi = gl!(c"glMultiDrawElementsBaseVertex": fn(u32, *const i32, u32, *const *const c_void, i32, *const i32));
    let count = [4; 4];
    let offsets = [null::<c_void>(); 4];
    let base = [0, 4, 8, 12];
    let enable = gl!(c"glEnable": fn(u32));
    let disable = gl!(c"glDisable": fn(u32));
    let restart_index = gl!(c"glPrimitiveRestartIndex": fn(u32));
    // SAFETY: arrays of four values each; null offsets into the bound element buffer.
    unsafe {
        multi(
            GL_TRIANGLE_STRIP,
            count.as_ptr(),
            GL_UNSIGNED_SHORT,
            offsets.as_ptr(),
            4,
            base.as_ptr(),
        );
        expect(GL_NO_ERROR);
        assert_eq!(quadrants(), ALL_GREEN, "from the element buffer");
        clear();
        // A restart index other than the type's largest: lowered to a list on the CPU, with
        // the base vertex folded into it.
        enable(GL_PRIMITIVE_RESTART);
        restart_index(7);
        multi(
            GL_TRIANGLE_STRIP,
            count.as_ptr(),
            GL_UNSIGNED_SHORT,
            offsets.as_ptr(),
            4,
            base.as_ptr(),
        );
        disable(GL_PRIMITIVE_RESTART);
        expect(GL_NO_ERROR);
        assert_eq!(quadrants(), ALL_GREEN, "lowered");
    }
}

#[test]
fn indirect_multi_draws_on_the_device_and_read_back() {
    let _ctx = gl_harness::context();
    scene(4);
    let arrays = gl!(c"glMultiDrawArraysIndirect": fn(u32, *const c_void, i32, i32));
    let elements = gl!(c"glMultiDrawElementsIndirect": fn(u32, u32, *const c_void, i32, i32));
    let gen_queries = gl!(c"glGenQueries": fn(i32, *mut u32));
    let begin = gl!(c"glBeginQuery": fn(u32, u32));
    let end = gl!(c"glEndQuery": fn(u32));
    // Elements: {count, instances, first index, base vertex, base instance}.
    let elements_commands: [u32; 20] =
        [4, 1, 0, 0, 0, 4, 1, 0, 4, 0, 4, 1, 0, 8, 0, 4, 1, 0, 12, 0];
    buffer_with(GL_DRAW_INDIRECT_BUFFER, &bytes_of(&elements_commands));
    // SAFETY: offsets into the bound indirect buffer; an out-pointer to a local.
    unsafe {
        elements(GL_TRIANGLE_STRIP, GL_UNSIGNED_SHORT, null(), 4, 0);
        expect(GL_NO_ERROR);
        assert_eq!(quadrants(), ALL_GREEN, "elements on the device");
        clear();
        // GL_PRIMITIVES_GENERATED counts on the CPU: the commands are read back.
        let mut q = 0;
        gen_queries(1, &mut q);
        begin(GL_PRIMITIVES_GENERATED, q);
        elements(GL_TRIANGLE_STRIP, GL_UNSIGNED_SHORT, null(), 4, 0);
        end(GL_PRIMITIVES_GENERATED);
        expect(GL_NO_ERROR);
        assert_eq!(quadrants(), ALL_GREEN, "elements read back");
    }
    // Arrays: {count, instances, first, base instance}; the base vertex is 0 whatever `first`.
    scene(0);
    let arrays_commands: [u32; 16] = [4, 1, 0, 0, 4, 1, 4, 0, 4, 1, 8, 0, 4, 1, 12, 0];
    buffer_with(GL_DRAW_INDIRECT_BUFFER, &bytes_of(&arrays_commands));
    // SAFETY: an offset into the bound indirect buffer.
    unsafe { arrays(GL_TRIANGLE_STRIP, null(), 4, 0) };
    expect(GL_NO_ERROR);
    assert_eq!(quadrants(), ALL_GREEN, "arrays on the device");
    assert_eq!(gl_harness::validation_errors(), 0);
}

#[test]
fn indirect_count_draws_read_their_count_from_the_parameter_buffer() {
    const GL_PARAMETER_BUFFER: u32 = 0x80EE;
    const GL_PARAMETER_BUFFER_BINDING: u32 = 0x80EF;
    const GL_INVALID_VALUE: u32 = 0x0501;
    const GL_INVALID_OPERATION: u32 = 0x0502;
    let _ctx = gl_harness::context();
    scene(4);
    let counted =
        gl!(c"glMultiDrawElementsIndirectCountARB": fn(u32, u32, *const c_void, isize, i32, i32));
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let gen_queries = gl!(c"glGenQueries": fn(i32, *mut u32));
    let begin = gl!(c"glBeginQuery": fn(u32, u32));
    let end = gl!(c"glEndQuery": fn(u32));
    let commands: [u32; 20] = [4, 1, 0, 0, 0, 4, 1, 0, 4, 0, 4, 1, 0, 8, 0, 4, 1, 0, 12, 0];
    buffer_with(GL_DRAW_INDIRECT_BUFFER, &bytes_of(&commands));
    // Counts 3 at 0, 9 at 4.
    let parameters = buffer_with(GL_PARAMETER_BUFFER, &bytes_of(&[3u32, 9]));
    let three = [GREEN, GREEN, GREEN, BLACK];
    // SAFETY: offsets into the bound buffers; out-pointers to locals.
    unsafe {
        let mut bound = 0;
        get(GL_PARAMETER_BUFFER_BINDING, &mut bound);
        assert_eq!(bound as u32, parameters);
        counted(GL_TRIANGLE_STRIP, GL_UNSIGNED_SHORT, null(), 0, 4, 0);
        expect(GL_NO_ERROR);
        assert_eq!(quadrants(), three, "the device reads 3");
        clear();
        counted(GL_TRIANGLE_STRIP, GL_UNSIGNED_SHORT, null(), 4, 2, 0);
        expect(GL_NO_ERROR);
        assert_eq!(quadrants(), [GREEN, GREEN, BLACK, BLACK], "9, at most 2");
        clear();
        let mut q = 0;
        gen_queries(1, &mut q);
        begin(GL_PRIMITIVES_GENERATED, q);
        counted(GL_TRIANGLE_STRIP, GL_UNSIGNED_SHORT, null(), 0, 4, 0);
        end(GL_PRIMITIVES_GENERATED);
        expect(GL_NO_ERROR);
        assert_eq!(quadrants(), three, "read back on the CPU");
        counted(GL_TRIANGLE_STRIP, GL_UNSIGNED_SHORT, null(), 2, 4, 0);
        expect(GL_INVALID_VALUE);
        counted(GL_TRIANGLE_STRIP, GL_UNSIGNED_SHORT, null(), 8, 4, 0);
        expect(GL_INVALID_OPERATION);
        bind(GL_PARAMETER_BUFFER, 0);
        counted(GL_TRIANGLE_STRIP, GL_UNSIGNED_SHORT, null(), 0, 4, 0);
        expect(GL_INVALID_OPERATION);
    }
    assert_eq!(gl_harness::validation_errors(), 0);
}
