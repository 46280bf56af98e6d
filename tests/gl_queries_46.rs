//! GL 4.6's queries through the C ABI: GL_ARB_pipeline_statistics_query (the statistics of
//! known draws and dispatches, several active at once, the errors GL names) and
//! GL_ARB_transform_feedback_overflow_query (captures that fit and that overflow, per stream
//! and on any stream, and conditional rendering on the result). The validation layer must stay
//! silent.

use std::ffi::{c_char, c_void, CString};
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{buffer_with, expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_POINTS: u32 = 0;
const GL_TRIANGLES: u32 = 4;
const GL_FLOAT: u32 = 0x1406;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_TRANSFORM_FEEDBACK_BUFFER: u32 = 0x8C8E;
const GL_INTERLEAVED_ATTRIBS: u32 = 0x8C8C;
const GL_RASTERIZER_DISCARD: u32 = 0x8C89;
const GL_PRIMITIVES_GENERATED: u32 = 0x8C87;
const GL_QUERY_RESULT: u32 = 0x8866;
const GL_QUERY_COUNTER_BITS: u32 = 0x8864;
const GL_QUERY_WAIT: u32 = 0x8E13;
const GL_QUERY_WAIT_INVERTED: u32 = 0x8E17;
const GL_VERTICES_SUBMITTED: u32 = 0x82EE;
const GL_PRIMITIVES_SUBMITTED: u32 = 0x82EF;
const GL_VERTEX_SHADER_INVOCATIONS: u32 = 0x82F0;
const GL_FRAGMENT_SHADER_INVOCATIONS: u32 = 0x82F4;
const GL_COMPUTE_SHADER_INVOCATIONS: u32 = 0x82F5;
const GL_CLIPPING_INPUT_PRIMITIVES: u32 = 0x82F6;
const GL_GEOMETRY_SHADER_INVOCATIONS: u32 = 0x887F;
const GL_TRANSFORM_FEEDBACK_OVERFLOW: u32 = 0x82EC;
const GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW: u32 = 0x82ED;

const VS: &str = "#version 150\nin vec4 pos;\nout float v;\nvoid main() { gl_Position = pos; v = float(gl_VertexID); }\n";
const FS: &str = "#version 150\nout vec4 c;\nvoid main() { c = vec4(0.0, 1.0, 0.0, 1.0); }\n";

/// One triangle covering the whole 32×32 drawable.
const TRIANGLE: [f32; 12] = [
    -1.0, -1.0, 0.0, 1.0, 3.0, -1.0, 0.0, 1.0, -1.0, 3.0, 0.0, 1.0,
];

fn floats_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_ne_bytes()).collect()
}

/// `p` current with `TRIANGLE` at attribute 0.
fn scene(p: u32) {
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let mut vao = 0;
    // SAFETY: a local as the out-pointer; the vertex buffer is bound before the pointer.
    unsafe {
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        buffer_with(GL_ARRAY_BUFFER, &floats_bytes(&TRIANGLE));
        pointer(0, 4, GL_FLOAT, 0, 0, null());
        enable(0);
        use_program(p);
    }
}

/// A program of `VS` and `FS`, `pos` at attribute 0, capturing `varyings` when some are given.
fn program(vs: &str, gs: Option<&str>, varyings: &[&str]) -> u32 {
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let create_program = gl!(c"glCreateProgram": fn() -> u32);
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    let link = gl!(c"glLinkProgram": fn(u32));
    let get = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    let bind = gl!(c"glBindAttribLocation": fn(u32, u32, *const c_char));
    let tfv = gl!(c"glTransformFeedbackVaryings": fn(u32, i32, *const *const c_char, u32));
    let names: Vec<CString> = varyings
        .iter()
        .map(|v| CString::new(*v).expect("no NUL"))
        .collect();
    let ptrs: Vec<*const c_char> = names.iter().map(|n| n.as_ptr()).collect();
    let mut stages = vec![(0x8B31, vs), (0x8B30, FS)];
    if let Some(gs) = gs {
        stages.push((0x8DD9, gs));
    }
    // SAFETY: NUL-terminated sources and names that outlive the calls; a local out-pointer.
    unsafe {
        let p = create_program();
        for (ty, src) in stages {
            let s = create(ty);
            let c = CString::new(src).expect("no NUL");
            let ptr = c.as_ptr();
            source(s, 1, &ptr, null());
            compile(s);
            attach(p, s);
        }
        bind(p, 0, c"pos".as_ptr());
        if !ptrs.is_empty() {
            tfv(p, ptrs.len() as i32, ptrs.as_ptr(), GL_INTERLEAVED_ATTRIBS);
        }
        link(p);
        let mut ok = 0;
        get(p, 0x8B82, &mut ok);
        assert_eq!(ok, 1, "link");
        p
    }
}

/// Queries of `targets` (each on stream 0) around `f`: their results, in order.
fn counted(targets: &[u32], f: impl FnOnce()) -> Vec<u64> {
    let gen = gl!(c"glGenQueries": fn(i32, *mut u32));
    let begin = gl!(c"glBeginQuery": fn(u32, u32));
    let end = gl!(c"glEndQuery": fn(u32));
    let result = gl!(c"glGetQueryObjectui64v": fn(u32, u32, *mut u64));
    let mut ids = vec![0u32; targets.len()];
    // SAFETY: `ids` holds the count given; locals as out-pointers.
    unsafe {
        gen(ids.len() as i32, ids.as_mut_ptr());
        for (&t, &q) in targets.iter().zip(&ids) {
            begin(t, q);
        }
        f();
        for &t in targets {
            end(t);
        }
        ids.iter()
            .map(|&q| {
                let mut n = 0u64;
                result(q, GL_QUERY_RESULT, &mut n);
                n
            })
            .collect()
    }
}

fn draw(mode: u32, count: i32) {
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: plain values; the arrays are bound.
    unsafe { draw(mode, 0, count) }
}

#[test]
fn statistics_count_a_known_draw() {
    let _ctx = gl_harness::context();
    scene(program(VS, None, &[]));
    let got = counted(
        &[
            GL_VERTICES_SUBMITTED,
            GL_PRIMITIVES_SUBMITTED,
            GL_VERTEX_SHADER_INVOCATIONS,
            GL_CLIPPING_INPUT_PRIMITIVES,
            GL_FRAGMENT_SHADER_INVOCATIONS,
            GL_GEOMETRY_SHADER_INVOCATIONS,
        ],
        || draw(GL_TRIANGLES, 3),
    );
    expect(GL_NO_ERROR);
    assert_eq!(got[0], 3, "vertices submitted");
    assert_eq!(got[1], 1, "primitives submitted");
    assert!(got[2] >= 3, "vertex shader invocations: {}", got[2]);
    assert_eq!(got[3], 1, "clipping input primitives");
    assert!(got[4] >= 32 * 32, "fragment invocations: {}", got[4]);
    assert_eq!(got[5], 0, "no geometry stage");
    // A query begun after the draw sees nothing of it.
    assert_eq!(counted(&[GL_VERTICES_SUBMITTED], || {}), vec![0]);
}

#[test]
fn statistics_count_dispatches() {
    let _ctx = gl_harness::context();
    const CS: &str = "#version 430\nlayout(local_size_x = 8) in;\nlayout(std430, binding = 0) buffer B { uint n[]; };\nvoid main() { n[gl_GlobalInvocationID.x] = 1u; }\n";
    let create = gl!(c"glCreateShaderProgramv": fn(u32, i32, *const *const c_char) -> u32);
    let use_program = gl!(c"glUseProgram": fn(u32));
    let base = gl!(c"glBindBufferBase": fn(u32, u32, u32));
    let dispatch = gl!(c"glDispatchCompute": fn(u32, u32, u32));
    let src = CString::new(CS).expect("no NUL");
    let ptr = src.as_ptr();
    let ssbo = buffer_with(0x90D2, &[0u8; 4 * 32]);
    // SAFETY: a NUL-terminated source; plain values.
    unsafe {
        let p = create(0x91B9, 1, &ptr);
        use_program(p);
        base(0x90D2, 0, ssbo);
    }
    // SAFETY: plain values.
    let got = counted(
        &[GL_COMPUTE_SHADER_INVOCATIONS, GL_VERTICES_SUBMITTED],
        || unsafe { dispatch(4, 1, 1) },
    );
    expect(GL_NO_ERROR);
    assert_eq!(got, vec![32, 0]);
}

#[test]
fn statistics_errors_and_counter_bits() {
    let _ctx = gl_harness::context();
    let gen = gl!(c"glGenQueries": fn(i32, *mut u32));
    let begin_indexed = gl!(c"glBeginQueryIndexed": fn(u32, u32, u32));
    let get = gl!(c"glGetQueryiv": fn(u32, u32, *mut i32));
    let mut q = 0;
    let mut bits = 0;
    // SAFETY: locals as out-pointers.
    unsafe {
        gen(1, &mut q);
        begin_indexed(GL_VERTICES_SUBMITTED, 1, q);
        expect(GL_INVALID_VALUE);
        get(
            GL_FRAGMENT_SHADER_INVOCATIONS,
            GL_QUERY_COUNTER_BITS,
            &mut bits,
        );
        expect(GL_NO_ERROR);
        assert_eq!(bits, 64);
        get(0x82F8, GL_QUERY_COUNTER_BITS, &mut bits);
        expect(GL_INVALID_ENUM);
    }
}

/// A pass-through geometry stage writing `s0` on stream 0 and `s1` on stream 1.
const GS: &str = "#version 150\n#extension GL_ARB_gpu_shader5 : enable\n\
layout(points) in;\nlayout(points, max_vertices = 2) out;\n\
layout(stream = 0) out vec2 s0;\nlayout(stream = 1) out vec2 s1;\n\
void main() {\n    gl_Position = gl_in[0].gl_Position;\n\
    s0 = vec2(1.0); EmitStreamVertex(0); EndStreamPrimitive(0);\n\
    s1 = vec2(2.0); EmitStreamVertex(1); EndStreamPrimitive(1);\n}\n";

/// Feedback buffers of `floats[i]` floats at binding i.
fn feedback_buffers(floats: &[usize]) {
    let base = gl!(c"glBindBufferBase": fn(u32, u32, u32));
    for (i, &n) in floats.iter().enumerate() {
        let b = buffer_with(GL_TRANSFORM_FEEDBACK_BUFFER, &vec![0u8; 4 * n]);
        // SAFETY: plain values.
        unsafe { base(GL_TRANSFORM_FEEDBACK_BUFFER, i as u32, b) };
    }
}

/// The overflow query (`target`, stream `stream`) of capturing 3 points.
fn overflow_of_three_points(target: u32, stream: u32) -> (u32, u64) {
    let enable = gl!(c"glEnable": fn(u32));
    let gen = gl!(c"glGenQueries": fn(i32, *mut u32));
    let begin_q = gl!(c"glBeginQueryIndexed": fn(u32, u32, u32));
    let end_q = gl!(c"glEndQueryIndexed": fn(u32, u32));
    let result = gl!(c"glGetQueryObjectui64v": fn(u32, u32, *mut u64));
    let begin = gl!(c"glBeginTransformFeedback": fn(u32));
    let end = gl!(c"glEndTransformFeedback": fn());
    let (mut q, mut n) = (0, 0);
    // SAFETY: locals as out-pointers; plain values.
    unsafe {
        enable(GL_RASTERIZER_DISCARD);
        gen(1, &mut q);
        begin_q(target, stream, q);
        begin(GL_POINTS);
        draw(GL_POINTS, 3);
        end_q(target, stream);
        end();
        result(q, GL_QUERY_RESULT, &mut n);
    }
    (q, n)
}

#[test]
fn overflow_of_a_vertex_capture() {
    let _ctx = gl_harness::context();
    scene(program(VS, None, &["v"]));
    feedback_buffers(&[3]);
    let (_, fits) = overflow_of_three_points(GL_TRANSFORM_FEEDBACK_OVERFLOW, 0);
    feedback_buffers(&[2]);
    let (_, overflows) = overflow_of_three_points(GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW, 0);
    expect(GL_NO_ERROR);
    assert_eq!((fits, overflows), (0, 1));
}

#[test]
fn overflow_per_stream_and_on_any_stream() {
    let _ctx = gl_harness::context();
    let p = program(VS, Some(GS), &["s0", "gl_NextBuffer", "s1"]);
    scene(p);
    // 3 points: each stream needs 6 floats. Stream 1's buffer holds only 5.
    feedback_buffers(&[6, 5]);
    let stream = GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW;
    assert_eq!(overflow_of_three_points(stream, 0).1, 0, "stream 0 fits");
    assert_eq!(
        overflow_of_three_points(stream, 1).1,
        1,
        "stream 1 overflows"
    );
    let (any, overflowed) = overflow_of_three_points(GL_TRANSFORM_FEEDBACK_OVERFLOW, 0);
    assert_eq!(overflowed, 1, "some stream overflows");
    feedback_buffers(&[6, 6]);
    assert_eq!(
        overflow_of_three_points(GL_TRANSFORM_FEEDBACK_OVERFLOW, 0).1,
        0
    );
    expect(GL_NO_ERROR);
    // Conditional rendering on the overflow query: the draw runs (the query saw overflow),
    // and does not under the inverted mode.
    let begin_cr = gl!(c"glBeginConditionalRender": fn(u32, u32));
    let end_cr = gl!(c"glEndConditionalRender": fn());
    for (mode, drawn) in [(GL_QUERY_WAIT, true), (GL_QUERY_WAIT_INVERTED, false)] {
        let got = counted(&[GL_PRIMITIVES_GENERATED], || {
            // SAFETY: plain values.
            unsafe { begin_cr(any, mode) };
            draw(GL_POINTS, 3);
            // SAFETY: no arguments.
            unsafe { end_cr() };
        });
        assert_eq!(got[0] > 0, drawn, "conditional mode 0x{mode:04X}: {got:?}");
    }
    expect(GL_NO_ERROR);
}
