//! Buffer- and state-side GL 4.x through the C ABI. GL_ARB_vertex_attrib_binding: attributes
//! reading shared binding points at relative offsets (drawn and read back), a binding stride of
//! 0 (every vertex the same element), `glVertexAttribPointer` resetting an attribute to its own
//! binding, the binding queries, and the commands' errors.

use std::ffi::c_void;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, expect, f, program, read_rgba};

const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_STATIC_DRAW: u32 = 0x88E4;
const GL_FLOAT: u32 = 0x1406;
const GL_TRIANGLE_STRIP: u32 = 5;
const GL_VERTEX_ATTRIB_BINDING: u32 = 0x82D4;
const GL_VERTEX_ATTRIB_RELATIVE_OFFSET: u32 = 0x82D5;
const GL_VERTEX_BINDING_DIVISOR: u32 = 0x82D6;
const GL_VERTEX_BINDING_OFFSET: u32 = 0x82D7;
const GL_VERTEX_BINDING_STRIDE: u32 = 0x82D8;
const GL_VERTEX_BINDING_BUFFER: u32 = 0x8F4F;
const GL_MAX_VERTEX_ATTRIB_BINDINGS: u32 = 0x82DA;
const GL_MAX_VERTEX_ATTRIB_RELATIVE_OFFSET: u32 = 0x82D9;
const GL_VERTEX_ATTRIB_ARRAY_STRIDE: u32 = 0x8624;

const VS: &str = "#version 330 core
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 color;
out vec4 c;
void main() { gl_Position = vec4(pos, 0.0, 1.0); c = color; }";
const FS: &str = "#version 330 core
in vec4 c;
out vec4 o;
void main() { o = c; }";

fn buffer(data: &[f32]) -> u32 {
    let gen = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let upload = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    // SAFETY: `data` holds the bytes given; the out-pointer is a local.
    unsafe {
        let mut b = 0;
        gen(1, &mut b);
        bind(GL_ARRAY_BUFFER, b);
        upload(
            GL_ARRAY_BUFFER,
            std::mem::size_of_val(data) as isize,
            data.as_ptr().cast(),
            GL_STATIC_DRAW,
        );
        bind(GL_ARRAY_BUFFER, 0);
        b
    }
}

fn bound_vao() -> u32 {
    let gen = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind = gl!(c"glBindVertexArray": fn(u32));
    // SAFETY: the out-pointer is a local.
    unsafe {
        let mut v = 0;
        gen(1, &mut v);
        bind(v);
        v
    }
}

fn indexed(pname: u32, index: u32) -> i32 {
    let get = gl!(c"glGetIntegeri_v": fn(u32, u32, *mut i32));
    let mut v = -1;
    // SAFETY: one integer out.
    unsafe { get(pname, index, &mut v) };
    v
}

fn attrib(index: u32, pname: u32) -> i32 {
    let get = gl!(c"glGetVertexAttribiv": fn(u32, u32, *mut i32));
    let mut v = -1;
    // SAFETY: one integer out.
    unsafe { get(index, pname, &mut v) };
    v
}

fn draw_strip() -> [u8; 4] {
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: plain arguments; the bound VAO's arrays hold 4 vertices.
    unsafe { draw(GL_TRIANGLE_STRIP, 0, 4) };
    let px = read_rgba(16, 16, 1, 1);
    [px[0], px[1], px[2], px[3]]
}

#[test]
fn attributes_read_shared_bindings_at_relative_offsets() {
    let _c = context();
    let use_program = gl!(c"glUseProgram": fn(u32));
    let bind_vb = gl!(c"glBindVertexBuffer": fn(u32, u32, isize, i32));
    let format = gl!(c"glVertexAttribFormat": fn(u32, i32, u32, u8, u32));
    let attrib_binding = gl!(c"glVertexAttribBinding": fn(u32, u32));
    let divisor = gl!(c"glVertexBindingDivisor": fn(u32, u32));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    // Two vertices' worth of padding, then x, y, r, g, b, a per vertex.
    let mut data = vec![0.0f32; 12];
    for (x, y) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)] {
        data.extend([x, y, 0.0, 1.0, 0.0, 1.0]);
    }
    let interleaved = buffer(&data);
    let blue = buffer(&[0.0, 0.0, 1.0, 1.0]);
    let p = program(VS, FS);
    // SAFETY: a linked program.
    unsafe { use_program(p) };
    bound_vao();
    // SAFETY: plain arguments.
    unsafe {
        bind_vb(3, interleaved, 48, 24);
        format(0, 2, GL_FLOAT, 0, 0);
        format(1, 4, GL_FLOAT, 0, 8);
        attrib_binding(0, 3);
        attrib_binding(1, 3);
        enable(0);
        enable(1);
    }
    expect(0);
    assert_eq!(
        draw_strip(),
        [0, 255, 0, 255],
        "green from the interleaved binding"
    );
    assert_eq!(attrib(1, GL_VERTEX_ATTRIB_BINDING), 3);
    assert_eq!(attrib(1, GL_VERTEX_ATTRIB_RELATIVE_OFFSET), 8);
    assert_eq!(indexed(GL_VERTEX_BINDING_BUFFER, 3), interleaved as i32);
    assert_eq!(indexed(GL_VERTEX_BINDING_OFFSET, 3), 48);
    assert_eq!(indexed(GL_VERTEX_BINDING_STRIDE, 3), 24);

    // Colour from a binding of stride 0: every vertex reads the one element.
    // SAFETY: plain arguments.
    unsafe {
        bind_vb(5, blue, 0, 0);
        attrib_binding(1, 5);
        format(1, 4, GL_FLOAT, 0, 0);
        divisor(5, 0);
    }
    expect(0);
    assert_eq!(
        draw_strip(),
        [0, 0, 255, 255],
        "blue from the stride-0 binding"
    );
    assert_eq!(indexed(GL_VERTEX_BINDING_STRIDE, 5), 0);
    assert_eq!(indexed(GL_VERTEX_BINDING_DIVISOR, 5), 0);
}

#[test]
fn a_pointer_puts_the_attribute_back_on_its_own_binding() {
    let _c = context();
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let attrib_binding = gl!(c"glVertexAttribBinding": fn(u32, u32));
    let attrib_divisor = gl!(c"glVertexAttribDivisor": fn(u32, u32));
    let b = buffer(&[0.0; 16]);
    bound_vao();
    // SAFETY: plain arguments; the pointer is an offset into the bound buffer.
    unsafe {
        attrib_binding(2, 7);
        assert_eq!(attrib(2, GL_VERTEX_ATTRIB_BINDING), 7);
        bind(GL_ARRAY_BUFFER, b);
        pointer(2, 3, GL_FLOAT, 0, 0, 4 as *const c_void);
        attrib_divisor(2, 3);
    }
    expect(0);
    assert_eq!(attrib(2, GL_VERTEX_ATTRIB_BINDING), 2);
    assert_eq!(attrib(2, GL_VERTEX_ATTRIB_ARRAY_STRIDE), 0, "as given");
    assert_eq!(
        indexed(GL_VERTEX_BINDING_STRIDE, 2),
        12,
        "packed: the element size"
    );
    assert_eq!(indexed(GL_VERTEX_BINDING_OFFSET, 2), 4);
    assert_eq!(indexed(GL_VERTEX_BINDING_BUFFER, 2), b as i32);
    assert_eq!(indexed(GL_VERTEX_BINDING_DIVISOR, 2), 3);
}

#[test]
fn vertex_binding_commands_refuse_bad_arguments() {
    let _c = context();
    let bind_vb = gl!(c"glBindVertexBuffer": fn(u32, u32, isize, i32));
    let format = gl!(c"glVertexAttribFormat": fn(u32, i32, u32, u8, u32));
    let lformat = gl!(c"glVertexAttribLFormat": fn(u32, i32, u32, u32));
    let attrib_binding = gl!(c"glVertexAttribBinding": fn(u32, u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let (mut bindings, mut max_offset) = (0, 0);
    // SAFETY: plain arguments; out-pointers are locals.
    unsafe {
        get(GL_MAX_VERTEX_ATTRIB_BINDINGS, &mut bindings);
        get(GL_MAX_VERTEX_ATTRIB_RELATIVE_OFFSET, &mut max_offset);
        assert!(bindings >= 16 && max_offset >= 2047);
        bind_vb(0, 0, 0, 16);
        expect(GL_INVALID_OPERATION); // no vertex array bound (core)
        bound_vao();
        bind_vb(bindings as u32, 0, 0, 16);
        expect(GL_INVALID_VALUE);
        bind_vb(0, 0, -4, 16);
        expect(GL_INVALID_VALUE);
        bind_vb(0, 0, 0, -16);
        expect(GL_INVALID_VALUE);
        bind_vb(0, 0xBAD, 0, 16);
        expect(GL_INVALID_OPERATION);
        format(0, 4, GL_FLOAT, 0, max_offset as u32 + 1);
        expect(GL_INVALID_VALUE);
        format(0, 5, GL_FLOAT, 0, 0);
        expect(GL_INVALID_VALUE);
        format(0, 4, 0x1234, 0, 0);
        expect(GL_INVALID_ENUM);
        lformat(0, 4, GL_FLOAT, 0);
        expect(GL_INVALID_ENUM);
        attrib_binding(0, bindings as u32);
        expect(GL_INVALID_VALUE);
        attrib_binding(32, 0); // GL_MAX_VERTEX_ATTRIBS is 32 on lavapipe
        expect(GL_INVALID_VALUE);
        bind_vao(0);
        attrib_binding(0, 0);
        expect(GL_INVALID_OPERATION);
    }
}

#[test]
fn polygon_offset_clamp_is_state_that_plain_offsets_reset() {
    let _c = context();
    const GL_POLYGON_OFFSET_FACTOR: u32 = 0x8038;
    const GL_POLYGON_OFFSET_UNITS: u32 = 0x2A00;
    const GL_POLYGON_OFFSET_CLAMP: u32 = 0x8E1B;
    let clamp = gl!(c"glPolygonOffsetClamp": fn(f32, f32, f32));
    let offset = gl!(c"glPolygonOffset": fn(f32, f32));
    let get = gl!(c"glGetFloatv": fn(u32, *mut f32));
    let float = |pname| {
        let mut v = f32::NAN;
        // SAFETY: one float out.
        unsafe { get(pname, &mut v) };
        v
    };
    // SAFETY: plain arguments.
    unsafe { clamp(2.0, 3.0, 0.25) };
    expect(0);
    assert_eq!(float(GL_POLYGON_OFFSET_FACTOR), 2.0);
    assert_eq!(float(GL_POLYGON_OFFSET_UNITS), 3.0);
    assert_eq!(float(GL_POLYGON_OFFSET_CLAMP), 0.25);
    // SAFETY: plain arguments.
    unsafe { offset(1.0, 1.0) };
    assert_eq!(
        float(GL_POLYGON_OFFSET_CLAMP),
        0.0,
        "glPolygonOffset clamps nothing"
    );
}

#[test]
fn the_release_behaviour_is_the_one_the_context_was_made_with() {
    const GL_CONTEXT_RELEASE_BEHAVIOR: u32 = 0x82FB;
    const GL_CONTEXT_RELEASE_BEHAVIOR_FLUSH: i32 = 0x82FC;
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let behaviour = || {
        let mut v = -1;
        // SAFETY: one integer out.
        unsafe { get(GL_CONTEXT_RELEASE_BEHAVIOR, &mut v) };
        v
    };
    {
        let _c = context();
        assert_eq!(behaviour(), GL_CONTEXT_RELEASE_BEHAVIOR_FLUSH);
    }
    // EGL_CONTEXT_RELEASE_BEHAVIOR_KHR = EGL_CONTEXT_RELEASE_BEHAVIOR_NONE_KHR.
    let attribs = [0x3098, 3, 0x30FB, 3, 0x30FD, 1, 0x2097, 0, 0x3038];
    let _c = gl_harness::context_with(0x30A2, 0x0008, &attribs);
    assert_eq!(behaviour(), 0, "GL_NONE");
    expect(0);
}
