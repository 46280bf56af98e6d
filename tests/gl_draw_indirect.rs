//! Base-instance and indirect draws through the C ABI (GL_ARB_base_instance,
//! GL_ARB_draw_indirect, GL_ARB_multi_draw_indirect): each instance of a small square sits in
//! the quadrant its per-instance array names and is coloured by `gl_InstanceID` (red for 0,
//! green for 1), so the pixels show which instances were drawn, where per-instance arrays read
//! from, and that `gl_InstanceID` counts from 0 whatever the base instance. Indirect draws run
//! both on the device (`vkCmdDraw(Indexed)Indirect`) and, where a count is needed on the CPU
//! (a restart index Vulkan lacks, `GL_PRIMITIVES_GENERATED`), from commands read back; and
//! the errors ARB_draw_indirect names. The validation layer must stay silent.

use std::ffi::c_void;
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{buffer_with, expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_ELEMENT_ARRAY_BUFFER: u32 = 0x8893;
const GL_DRAW_INDIRECT_BUFFER: u32 = 0x8F3F;
const GL_DRAW_INDIRECT_BUFFER_BINDING: u32 = 0x8F43;
const GL_FLOAT: u32 = 0x1406;
const GL_UNSIGNED_SHORT: u32 = 0x1403;
const GL_TRIANGLE_STRIP: u32 = 5;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_PRIMITIVE_RESTART: u32 = 0x8F9D;
const GL_PRIMITIVES_GENERATED: u32 = 0x8C87;
const GL_QUERY_RESULT: u32 = 0x8866;

const RED: [u8; 4] = [255, 0, 0, 255];
const GREEN: [u8; 4] = [0, 255, 0, 255];
const BLACK: [u8; 4] = [0, 0, 0, 0];

/// Quadrant centres, indexed by instance: bottom-left, bottom-right, top-left, top-right.
const SHIFTS: [f32; 8] = [-0.5, -0.5, 0.5, -0.5, -0.5, 0.5, 0.5, 0.5];

const VS: &str = "#version 330\nlayout(location = 0) in vec2 pos;\nlayout(location = 1) in vec2 shift;\nflat out int id;\nvoid main() {\n    gl_Position = vec4(pos * 0.25 + shift, 0.0, 1.0);\n    id = gl_InstanceID;\n}\n";
const FS: &str = "#version 330\nflat in int id;\nout vec4 frag;\nvoid main() { frag = vec4(id == 0 ? 1.0 : 0.0, id == 1 ? 1.0 : 0.0, 0.0, 1.0); }\n";

/// The centre pixels of the four quadrants, in `SHIFTS` order.
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

/// The program, a VAO with the square strip at 0 and the per-instance shifts at 1, an element
/// buffer of the strip's indices; the drawable cleared.
fn scene() {
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    let divisor = gl!(c"glVertexAttribDivisor": fn(u32, u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let strip: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
    let program = gl_harness::program(VS, FS);
    // SAFETY: plain values; null offsets into bound buffers.
    unsafe {
        use_program(program);
        let mut vao = 0;
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        buffer_with(GL_ARRAY_BUFFER, &bytes_of(&strip));
        pointer(0, 2, GL_FLOAT, 0, 0, null());
        enable(0);
        buffer_with(GL_ARRAY_BUFFER, &bytes_of(&SHIFTS));
        pointer(1, 2, GL_FLOAT, 0, 0, null());
        enable(1);
        divisor(1, 1);
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
fn base_instance_moves_per_instance_arrays_but_not_gl_instance_id() {
    let _ctx = gl_harness::context();
    scene();
    let arrays = gl!(c"glDrawArraysInstancedBaseInstance": fn(u32, i32, i32, i32, u32));
    let elements = gl!(c"glDrawElementsInstancedBaseVertexBaseInstance": fn(u32, i32, u32, *const c_void, i32, i32, u32));
    // SAFETY: plain values; a null offset into the bound element buffer.
    unsafe { arrays(GL_TRIANGLE_STRIP, 0, 4, 2, 2) };
    expect(GL_NO_ERROR);
    assert_eq!(quadrants(), [BLACK, BLACK, RED, GREEN]);
    clear();
    // SAFETY: as above.
    unsafe { elements(GL_TRIANGLE_STRIP, 4, GL_UNSIGNED_SHORT, null(), 1, 0, 1) };
    expect(GL_NO_ERROR);
    assert_eq!(quadrants(), [BLACK, RED, BLACK, BLACK]);
}

#[test]
fn indirect_draws_read_their_commands_from_the_buffer() {
    let _ctx = gl_harness::context();
    scene();
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let arrays = gl!(c"glDrawArraysIndirect": fn(u32, *const c_void));
    let elements = gl!(c"glDrawElementsIndirect": fn(u32, u32, *const c_void));
    let multi_arrays = gl!(c"glMultiDrawArraysIndirect": fn(u32, *const c_void, i32, i32));
    let multi_elements = gl!(c"glMultiDrawElementsIndirect": fn(u32, u32, *const c_void, i32, i32));
    // Arrays: {count, instances, first, base instance}; elements: {count, instances,
    // first index, base vertex, base instance}; a 4-byte pad makes a stride of 20.
    let commands: [u32; 20] = [
        4, 1, 0, 1, 0, // arrays at 0: instance 0 in the bottom right
        4, 2, 0, 2, 0, // arrays at 20: instances 0, 1 in the top half
        4, 1, 0, 0, 3, // elements at 40: instance 0 in the top right
        4, 2, 0, 0, 0, // elements at 60: instances 0, 1 in the bottom half
    ];
    let indirect = buffer_with(GL_DRAW_INDIRECT_BUFFER, &bytes_of(&commands));
    let mut bound = 0;
    // SAFETY: out-pointer to a local; offsets into the bound indirect buffer.
    unsafe {
        get(GL_DRAW_INDIRECT_BUFFER_BINDING, &mut bound);
        assert_eq!(bound as u32, indirect);
        arrays(GL_TRIANGLE_STRIP, null());
        expect(GL_NO_ERROR);
        assert_eq!(quadrants(), [BLACK, RED, BLACK, BLACK]);
        clear();
        elements(GL_TRIANGLE_STRIP, GL_UNSIGNED_SHORT, 40 as *const c_void);
        expect(GL_NO_ERROR);
        assert_eq!(quadrants(), [BLACK, BLACK, BLACK, RED]);
        clear();
        multi_arrays(GL_TRIANGLE_STRIP, null(), 2, 20);
        expect(GL_NO_ERROR);
        assert_eq!(quadrants(), [BLACK, RED, RED, GREEN]);
        clear();
        multi_elements(
            GL_TRIANGLE_STRIP,
            GL_UNSIGNED_SHORT,
            40 as *const c_void,
            2,
            0,
        );
        expect(GL_NO_ERROR);
        assert_eq!(quadrants(), [RED, GREEN, BLACK, RED]);
    }
}

#[test]
fn indirect_draws_that_need_counts_read_the_commands_back() {
    let _ctx = gl_harness::context();
    scene();
    let enable = gl!(c"glEnable": fn(u32));
    let disable = gl!(c"glDisable": fn(u32));
    let restart_index = gl!(c"glPrimitiveRestartIndex": fn(u32));
    let elements = gl!(c"glDrawElementsIndirect": fn(u32, u32, *const c_void));
    let arrays = gl!(c"glDrawArraysIndirect": fn(u32, *const c_void));
    let gen_queries = gl!(c"glGenQueries": fn(i32, *mut u32));
    let begin = gl!(c"glBeginQuery": fn(u32, u32));
    let end = gl!(c"glEndQuery": fn(u32));
    let result = gl!(c"glGetQueryObjectuiv": fn(u32, u32, *mut u32));
    let commands: [u32; 9] = [4, 2, 0, 0, 2, /* arrays at 20 */ 4, 3, 0, 0];
    buffer_with(GL_DRAW_INDIRECT_BUFFER, &bytes_of(&commands));
    // SAFETY: plain values, offsets into the bound indirect buffer, out-pointers to locals.
    unsafe {
        // A restart index other than the type's largest is lowered on the CPU.
        enable(GL_PRIMITIVE_RESTART);
        restart_index(7);
        elements(GL_TRIANGLE_STRIP, GL_UNSIGNED_SHORT, null());
        disable(GL_PRIMITIVE_RESTART);
        expect(GL_NO_ERROR);
        assert_eq!(quadrants(), [BLACK, BLACK, RED, GREEN]);
        clear();
        let mut q = 0;
        gen_queries(1, &mut q);
        begin(GL_PRIMITIVES_GENERATED, q);
        arrays(GL_TRIANGLE_STRIP, 20 as *const c_void);
        end(GL_PRIMITIVES_GENERATED);
        let mut n = 0;
        result(q, GL_QUERY_RESULT, &mut n);
        expect(GL_NO_ERROR);
        assert_eq!(n, 6, "three instances of two triangles");
        assert_eq!(quadrants(), [RED, GREEN, [0, 0, 0, 255], BLACK]);
    }
}

#[test]
fn indirect_draw_errors() {
    let _ctx = gl_harness::context();
    scene();
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let arrays = gl!(c"glDrawArraysIndirect": fn(u32, *const c_void));
    let elements = gl!(c"glDrawElementsIndirect": fn(u32, u32, *const c_void));
    let multi_arrays = gl!(c"glMultiDrawArraysIndirect": fn(u32, *const c_void, i32, i32));
    let map = gl!(c"glMapBuffer": fn(u32, u32) -> *mut c_void);
    let unmap = gl!(c"glUnmapBuffer": fn(u32) -> u8);
    // SAFETY: plain values; the offsets are never dereferenced (a buffer is bound, or the call
    // fails first).
    unsafe {
        arrays(GL_TRIANGLE_STRIP, null());
        expect(GL_INVALID_OPERATION); // no indirect buffer
        buffer_with(
            GL_DRAW_INDIRECT_BUFFER,
            &bytes_of(&[4u32, 1, 0, 0, 0, 0, 0, 0]),
        );
        arrays(GL_TRIANGLE_STRIP, 2 as *const c_void);
        expect(GL_INVALID_VALUE); // misaligned
        arrays(GL_TRIANGLE_STRIP, 20 as *const c_void);
        expect(GL_INVALID_OPERATION); // past the end
        elements(GL_TRIANGLE_STRIP, GL_UNSIGNED_SHORT, 16 as *const c_void);
        expect(GL_INVALID_OPERATION); // 20 bytes at 16 of 32
        arrays(0x7777, null());
        expect(GL_INVALID_ENUM);
        elements(GL_TRIANGLE_STRIP, GL_FLOAT, null());
        expect(GL_INVALID_ENUM);
        multi_arrays(GL_TRIANGLE_STRIP, null(), 1, 3);
        expect(GL_INVALID_VALUE);
        multi_arrays(GL_TRIANGLE_STRIP, null(), -1, 0);
        expect(GL_INVALID_VALUE);
        multi_arrays(GL_TRIANGLE_STRIP, null(), 2, 16);
        expect(GL_NO_ERROR); // exactly the buffer
        map(GL_DRAW_INDIRECT_BUFFER, 0x88B8);
        arrays(GL_TRIANGLE_STRIP, null());
        expect(GL_INVALID_OPERATION); // mapped
        unmap(GL_DRAW_INDIRECT_BUFFER);
        bind(GL_ELEMENT_ARRAY_BUFFER, 0);
        elements(GL_TRIANGLE_STRIP, GL_UNSIGNED_SHORT, null());
        expect(GL_INVALID_OPERATION); // no element buffer
    }
}

#[test]
fn list_modes_restart_by_dropping_incomplete_primitives() {
    let _ctx = gl_harness::context();
    scene();
    let enable = gl!(c"glEnable": fn(u32));
    let restart_index = gl!(c"glPrimitiveRestartIndex": fn(u32));
    let draw_elements = gl!(c"glDrawElements": fn(u32, i32, u32, *const c_void));
    let elements = gl!(c"glDrawElementsIndirect": fn(u32, u32, *const c_void));
    const GL_TRIANGLES: u32 = 4;
    // Restart splits the list into [3, 1], [0, 1, 2] and [0]: only the lower-left triangle of
    // the bottom-left square is a whole primitive (piglit's draw-elements-prim-restart).
    buffer_with(
        GL_ELEMENT_ARRAY_BUFFER,
        &bytes_of(&[3u16, 1, 0xFFFF, 0, 1, 2, 0, 0xFFFF]),
    );
    buffer_with(GL_DRAW_INDIRECT_BUFFER, &bytes_of(&[8u32, 1, 0, 0, 0]));
    let px = |x, y| {
        let v = gl_harness::read_rgba(x, y, 1, 1);
        [v[0], v[1], v[2], v[3]]
    };
    // SAFETY: plain values; null offsets into the bound buffers.
    unsafe {
        enable(GL_PRIMITIVE_RESTART);
        restart_index(0xFFFF);
        draw_elements(GL_TRIANGLES, 8, GL_UNSIGNED_SHORT, null());
        expect(GL_NO_ERROR);
        assert_eq!((px(5, 5), px(11, 11)), (RED, BLACK), "glDrawElements");
        clear();
        elements(GL_TRIANGLES, GL_UNSIGNED_SHORT, null());
        expect(GL_NO_ERROR);
        assert_eq!(
            (px(5, 5), px(11, 11)),
            (RED, BLACK),
            "glDrawElementsIndirect"
        );
    }
}
