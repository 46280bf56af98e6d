//! GL_ARB_enhanced_layouts through the C ABI: captures declared in the shader (`xfb_buffer`,
//! `xfb_offset`, `xfb_stride`) without `glTransformFeedbackVaryings`, read back byte for byte;
//! the `GL_TRANSFORM_FEEDBACK_BUFFER` program interface; `layout(offset, align)` in a uniform
//! block as reflection reports it and as a draw reads it; constant expressions in layout
//! qualifiers. The validation layer must stay silent.

use std::ffi::{c_char, c_void};
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{buffer_with, expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_POINTS: u32 = 0;
const GL_FLOAT: u32 = 0x1406;
const GL_FLOAT_VEC3: u32 = 0x8B51;
const GL_FLOAT_VEC4: u32 = 0x8B52;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_UNIFORM_BUFFER: u32 = 0x8A11;
const GL_TRANSFORM_FEEDBACK_BUFFER: u32 = 0x8C8E;
const GL_TRANSFORM_FEEDBACK_VARYING: u32 = 0x92F4;
const GL_TRANSFORM_FEEDBACK_VARYINGS: u32 = 0x8C83;
const GL_INTERLEAVED_ATTRIBS: u32 = 0x8C8C;
const GL_RASTERIZER_DISCARD: u32 = 0x8C89;
const GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN: u32 = 0x8C88;
const GL_QUERY_RESULT: u32 = 0x8866;
const GL_ACTIVE_RESOURCES: u32 = 0x92F5;
const GL_BUFFER_BINDING: u32 = 0x9302;
const GL_NUM_ACTIVE_VARIABLES: u32 = 0x9304;
const GL_ACTIVE_VARIABLES: u32 = 0x9305;
const GL_TRANSFORM_FEEDBACK_BUFFER_INDEX: u32 = 0x934B;
const GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE: u32 = 0x934C;
const GL_OFFSET: u32 = 0x92FC;
const GL_TYPE: u32 = 0x92FA;
const GL_UNIFORM_OFFSET: u32 = 0x8A3B;
const GL_TRIANGLES: u32 = 4;

/// Two buffers declared in the shader: 0 holds x1, x2[2], x3 (24 bytes), 2 holds y1, y2
/// (20 bytes, stride declared 24).
const VS_DECLARED: &str = "#version 150\n#extension GL_ARB_enhanced_layouts : require\n\
layout(xfb_offset = 0) out float x1;\n\
layout(xfb_offset = 4) out float x2[2];\n\
layout(xfb_offset = 12) out vec3 x3;\n\
out vec4 not_captured;\n\
layout(xfb_buffer = 2, xfb_stride = 24) out;\n\
layout(xfb_offset = 0) out float y1;\n\
layout(xfb_offset = 4) out vec4 y2;\n\
void main() {\n\
    float v = float(gl_VertexID) * 100.0;\n\
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);\n\
    x1 = v + 1.0; x2[0] = v + 2.0; x2[1] = v + 3.0; x3 = vec3(v + 4.0, v + 5.0, v + 6.0);\n\
    not_captured = vec4(-5.0);\n\
    y1 = v + 7.0; y2 = vec4(v + 8.0, v + 9.0, v + 10.0, v + 11.0);\n\
}\n";
const FS: &str = "#version 150\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";

fn floats_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_ne_bytes()).collect()
}

/// A feedback buffer of `floats` floats (filled with -1) bound to binding `index`.
fn feedback_buffer(index: u32, floats: usize) -> u32 {
    let base = gl!(c"glBindBufferBase": fn(u32, u32, u32));
    let b = buffer_with(
        GL_TRANSFORM_FEEDBACK_BUFFER,
        &floats_bytes(&vec![-1.0; floats]),
    );
    // SAFETY: plain values.
    unsafe { base(GL_TRANSFORM_FEEDBACK_BUFFER, index, b) };
    b
}

/// `floats` floats of buffer `b`, through `glGetBufferSubData`.
fn read(b: u32, floats: usize) -> Vec<f32> {
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let get = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut c_void));
    let mut out = vec![0f32; floats];
    // SAFETY: `out` holds the size given.
    unsafe {
        bind(GL_ARRAY_BUFFER, b);
        get(
            GL_ARRAY_BUFFER,
            0,
            (floats * 4) as isize,
            out.as_mut_ptr().cast(),
        );
    }
    out
}

/// Binds an empty vertex array and makes `p` current.
fn use_with_vao(p: u32) {
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let mut vao = 0;
    // SAFETY: a local as the out-pointer.
    unsafe {
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        use_program(p);
    }
}

/// Captures `points` points of the current program; the primitives written.
fn capture_points(points: i32) -> u32 {
    let enable = gl!(c"glEnable": fn(u32));
    let disable = gl!(c"glDisable": fn(u32));
    let gen = gl!(c"glGenQueries": fn(i32, *mut u32));
    let begin_query = gl!(c"glBeginQuery": fn(u32, u32));
    let end_query = gl!(c"glEndQuery": fn(u32));
    let result = gl!(c"glGetQueryObjectuiv": fn(u32, u32, *mut u32));
    let begin = gl!(c"glBeginTransformFeedback": fn(u32));
    let end = gl!(c"glEndTransformFeedback": fn());
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let (mut q, mut n) = (0, 0);
    // SAFETY: locals as out-pointers; plain values.
    unsafe {
        enable(GL_RASTERIZER_DISCARD);
        gen(1, &mut q);
        begin_query(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q);
        begin(GL_POINTS);
        draw(GL_POINTS, 0, points);
        end();
        end_query(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN);
        result(q, GL_QUERY_RESULT, &mut n);
        disable(GL_RASTERIZER_DISCARD);
    }
    n
}

fn resource_iv(p: u32, interface: u32, index: u32, props: &[u32], count: usize) -> Vec<i32> {
    let get =
        gl!(c"glGetProgramResourceiv": fn(u32, u32, u32, i32, *const u32, i32, *mut i32, *mut i32));
    let mut out = vec![-7; count];
    let mut len = 0;
    // SAFETY: `props` and `out` hold the sizes given.
    unsafe {
        get(
            p,
            interface,
            index,
            props.len() as i32,
            props.as_ptr(),
            out.len() as i32,
            &mut len,
            out.as_mut_ptr(),
        )
    };
    out.truncate(len.max(0) as usize);
    out
}

fn resource_name(p: u32, interface: u32, index: u32) -> String {
    let get = gl!(c"glGetProgramResourceName": fn(u32, u32, u32, i32, *mut i32, *mut c_char));
    let mut buf = [0u8; 64];
    let mut len = 0;
    // SAFETY: `buf` holds the size given.
    unsafe { get(p, interface, index, 64, &mut len, buf.as_mut_ptr().cast()) };
    String::from_utf8_lossy(&buf[..len.max(0) as usize]).into_owned()
}

#[test]
fn declared_captures_fill_the_declared_buffers() {
    let _ctx = gl_harness::context();
    let p = gl_harness::program(VS_DECLARED, FS);
    use_with_vao(p);
    let b0 = feedback_buffer(0, 12);
    let b2 = feedback_buffer(2, 12);
    assert_eq!(capture_points(2), 2);
    expect(GL_NO_ERROR);
    let first: Vec<f32> = (0..2)
        .flat_map(|i| (1..=6).map(move |k| (i * 100 + k) as f32))
        .collect();
    assert_eq!(read(b0, 12), first, "buffer 0: x1, x2[2], x3 per vertex");
    // Stride 24: y1, y2 and one word the capture leaves alone.
    let mut second = Vec::new();
    for i in 0..2 {
        second.extend((7..=11).map(|k| (i * 100 + k) as f32));
        second.push(-1.0);
    }
    assert_eq!(read(b2, 12), second, "buffer 2: y1, y2, stride 24");
}

#[test]
fn declared_captures_override_requested_varyings() {
    let _ctx = gl_harness::context();
    let tfv = gl!(c"glTransformFeedbackVaryings": fn(u32, i32, *const *const c_char, u32));
    let get = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    let names = [c"not_captured".as_ptr()];
    let p = gl_harness::program_with(VS_DECLARED, FS, |p| {
        // SAFETY: the array outlives the call; names are NUL-terminated.
        unsafe { tfv(p, 1, names.as_ptr(), GL_INTERLEAVED_ATTRIBS) };
    });
    let mut n = 0;
    // SAFETY: a local as the out-pointer.
    unsafe { get(p, GL_TRANSFORM_FEEDBACK_VARYINGS, &mut n) };
    assert_eq!(n, 5, "the shader's five captures, not the requested one");
    expect(GL_NO_ERROR);
}

#[test]
fn the_buffer_interface_reports_bindings_strides_and_offsets() {
    let _ctx = gl_harness::context();
    let p = gl_harness::program(VS_DECLARED, FS);
    let interface_iv = gl!(c"glGetProgramInterfaceiv": fn(u32, u32, u32, *mut i32));
    let mut buffers = 0;
    // SAFETY: a local as the out-pointer.
    unsafe {
        interface_iv(
            p,
            GL_TRANSFORM_FEEDBACK_BUFFER,
            GL_ACTIVE_RESOURCES,
            &mut buffers,
        )
    };
    assert_eq!(buffers, 2);
    let props = [
        GL_BUFFER_BINDING,
        GL_TRANSFORM_FEEDBACK_BUFFER_STRIDE,
        GL_NUM_ACTIVE_VARIABLES,
        GL_ACTIVE_VARIABLES,
    ];
    let b0 = resource_iv(p, GL_TRANSFORM_FEEDBACK_BUFFER, 0, &props, 8);
    let b1 = resource_iv(p, GL_TRANSFORM_FEEDBACK_BUFFER, 1, &props, 8);
    assert_eq!(
        &b0[..3],
        &[0, 24, 3],
        "binding 0: stride 24, three varyings"
    );
    assert_eq!(&b1[..3], &[2, 24, 2], "binding 2: declared stride 24, two");
    // Each varying of binding 2 names its buffer's index (1) and its offset.
    let mut seen = Vec::new();
    for &v in &b1[3..] {
        let props = [GL_TRANSFORM_FEEDBACK_BUFFER_INDEX, GL_OFFSET, GL_TYPE];
        let got = resource_iv(p, GL_TRANSFORM_FEEDBACK_VARYING, v as u32, &props, 3);
        seen.push((
            resource_name(p, GL_TRANSFORM_FEEDBACK_VARYING, v as u32),
            got,
        ));
    }
    seen.sort();
    assert_eq!(
        seen,
        vec![
            ("y1".to_owned(), vec![1, 0, GL_FLOAT as i32]),
            ("y2".to_owned(), vec![1, 4, GL_FLOAT_VEC4 as i32]),
        ]
    );
    let x3 = (0..5)
        .find(|&i| resource_name(p, GL_TRANSFORM_FEEDBACK_VARYING, i) == "x3")
        .expect("x3 is a varying");
    let props = [GL_TRANSFORM_FEEDBACK_BUFFER_INDEX, GL_OFFSET, GL_TYPE];
    assert_eq!(
        resource_iv(p, GL_TRANSFORM_FEEDBACK_VARYING, x3, &props, 3),
        vec![0, 12, GL_FLOAT_VEC3 as i32]
    );
    expect(GL_NO_ERROR);
}

/// `layout(offset)` and `layout(align)` place uniform block members where glslang laid them
/// out: reflection reports those offsets and a draw reads the values stored there.
#[test]
fn block_member_offsets_and_alignments_are_honoured() {
    let _ctx = gl_harness::context();
    const VS: &str = "#version 150\nin vec4 pos;\nvoid main() { gl_Position = pos; }\n";
    const FS_BLOCK: &str = "#version 150\n#extension GL_ARB_enhanced_layouts : require\n\
layout(std140) uniform B {\n    layout(offset = 20) float a;\n    layout(align = 64) vec4 b;\n};\n\
out vec4 c;\nvoid main() { c = vec4(a, b.y, b.w, 1.0); }\n";
    let p = gl_harness::program_with(VS, FS_BLOCK, |p| {
        let bind = gl!(c"glBindAttribLocation": fn(u32, u32, *const c_char));
        // SAFETY: a NUL-terminated name.
        unsafe { bind(p, 0, c"pos".as_ptr()) };
    });
    let indices = gl!(c"glGetUniformIndices": fn(u32, i32, *const *const c_char, *mut u32));
    let active = gl!(c"glGetActiveUniformsiv": fn(u32, i32, *const u32, u32, *mut i32));
    let names = [c"a".as_ptr(), c"b".as_ptr()];
    let mut idx = [0u32; 2];
    let mut offsets = [0i32; 2];
    // SAFETY: the arrays hold the counts given.
    unsafe {
        indices(p, 2, names.as_ptr(), idx.as_mut_ptr());
        active(p, 2, idx.as_ptr(), GL_UNIFORM_OFFSET, offsets.as_mut_ptr());
    }
    assert_eq!(offsets, [20, 64]);
    // a = 0.2 at byte 20, b = (0, 0.6, 0, 1.0) at byte 64; everything else 0.9 (not read).
    let mut data = vec![0.9f32; 20];
    data[5] = 0.2;
    data[16..20].copy_from_slice(&[0.0, 0.6, 0.0, 1.0]);
    let ubo = buffer_with(GL_UNIFORM_BUFFER, &floats_bytes(&data));
    let base = gl!(c"glBindBufferBase": fn(u32, u32, u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let mut vao = 0;
    // SAFETY: a local as the out-pointer; the vertex buffer is bound before the pointer.
    unsafe {
        base(GL_UNIFORM_BUFFER, 0, ubo);
        use_program(p);
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        buffer_with(
            GL_ARRAY_BUFFER,
            &floats_bytes(&[
                -1.0, -1.0, 0.0, 1.0, 3.0, -1.0, 0.0, 1.0, -1.0, 3.0, 0.0, 1.0,
            ]),
        );
        pointer(0, 4, GL_FLOAT, 0, 0, null());
        enable(0);
        draw(GL_TRIANGLES, 0, 3);
    }
    let px = gl_harness::read_rgba(16, 16, 1, 1);
    gl_harness::assert_rgba8_near(
        [px[0], px[1], px[2], px[3]],
        [51, 153, 255, 255],
        "a, b.y, b.w",
    );
    expect(GL_NO_ERROR);
}

#[test]
fn layout_qualifiers_take_constant_expressions() {
    let _ctx = gl_harness::context();
    const VS: &str = "#version 140\n#extension GL_ARB_enhanced_layouts : require\n\
#extension GL_ARB_explicit_attrib_location : require\n\
const int start = 3;\nlayout(location = start + 2) in vec4 b;\n\
void main() { gl_Position = b; }\n";
    const FS140: &str = "#version 140\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";
    let p = gl_harness::program(VS, FS140);
    let location = gl!(c"glGetAttribLocation": fn(u32, *const c_char) -> i32);
    // SAFETY: a NUL-terminated name.
    assert_eq!(unsafe { location(p, c"b".as_ptr()) }, 5);
    expect(GL_NO_ERROR);
}
