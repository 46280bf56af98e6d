//! Sync objects, queries and conditional rendering through the C ABI (issue 6): the errors the
//! GL 3.3 specification names for each entry point, fences that signal after `glFinish` and in
//! a zero-timeout polling loop, exact occlusion counts (also across render-pass breaks and
//! submissions), timer queries, primitives generated, and conditional rendering checked by pixels.
//! Each test makes its own context on a 32×32 pbuffer (`tests/common/gl.rs`).

use std::ffi::{c_void, CStr};
use std::ptr::{null, null_mut};

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, expect, f, P};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_STATIC_DRAW: u32 = 0x88E4;
const GL_TRIANGLES: u32 = 4;
const GL_TRIANGLE_STRIP: u32 = 5;
const GL_FLOAT: u32 = 0x1406;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_RGBA: u32 = 0x1908;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_DEPTH_BUFFER_BIT: u32 = 0x0100;
const GL_DEPTH_TEST: u32 = 0x0B71;
const GL_SCISSOR_TEST: u32 = 0x0C11;
const GL_NEVER: u32 = 0x0200;
const GL_EXTENSIONS: u32 = 0x1F03;
const GL_NUM_EXTENSIONS: u32 = 0x821D;

const GL_SYNC_GPU_COMMANDS_COMPLETE: u32 = 0x9117;
const GL_OBJECT_TYPE: u32 = 0x9112;
const GL_SYNC_CONDITION: u32 = 0x9113;
const GL_SYNC_STATUS: u32 = 0x9114;
const GL_SYNC_FLAGS: u32 = 0x9115;
const GL_SYNC_FENCE: u32 = 0x9116;
const GL_SIGNALED: u32 = 0x9119;
const GL_ALREADY_SIGNALED: u32 = 0x911A;
const GL_CONDITION_SATISFIED: u32 = 0x911C;
const GL_WAIT_FAILED: u32 = 0x911D;
const GL_SYNC_FLUSH_COMMANDS_BIT: u32 = 1;
const GL_TIMEOUT_IGNORED: u64 = u64::MAX;
const GL_MAX_SERVER_WAIT_TIMEOUT: u32 = 0x9111;

const GL_SAMPLES_PASSED: u32 = 0x8914;
const GL_ANY_SAMPLES_PASSED: u32 = 0x8C2F;
const GL_ANY_SAMPLES_PASSED_CONSERVATIVE: u32 = 0x8D6A;
const GL_TIME_ELAPSED: u32 = 0x88BF;
const GL_TIMESTAMP: u32 = 0x8E28;
const GL_PRIMITIVES_GENERATED: u32 = 0x8C87;
const GL_QUERY_COUNTER_BITS: u32 = 0x8864;
const GL_CURRENT_QUERY: u32 = 0x8865;
const GL_QUERY_RESULT: u32 = 0x8866;
const GL_QUERY_RESULT_AVAILABLE: u32 = 0x8867;
const GL_QUERY_WAIT: u32 = 0x8E13;
const GL_QUERY_NO_WAIT: u32 = 0x8E14;

const VS: &str = "#version 330 core\nlayout(location = 0) in vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n";
const RED_FS: &str =
    "#version 330 core\nout vec4 color;\nvoid main() { color = vec4(1.0, 0.0, 0.0, 1.0); }\n";

/// The GL functions the tests use.
struct Gl {
    fence_sync: unsafe extern "C" fn(u32, u32) -> P,
    is_sync: unsafe extern "C" fn(P) -> u8,
    delete_sync: unsafe extern "C" fn(P),
    client_wait: unsafe extern "C" fn(P, u32, u64) -> u32,
    wait_sync: unsafe extern "C" fn(P, u32, u64),
    get_synciv: unsafe extern "C" fn(P, u32, i32, *mut i32, *mut i32),
    get_i64: unsafe extern "C" fn(u32, *mut i64),
    gen_queries: unsafe extern "C" fn(i32, *mut u32),
    delete_queries: unsafe extern "C" fn(i32, *const u32),
    is_query: unsafe extern "C" fn(u32) -> u8,
    begin_query: unsafe extern "C" fn(u32, u32),
    end_query: unsafe extern "C" fn(u32),
    query_counter: unsafe extern "C" fn(u32, u32),
    get_queryiv: unsafe extern "C" fn(u32, u32, *mut i32),
    get_objectuiv: unsafe extern "C" fn(u32, u32, *mut u32),
    get_objectiv: unsafe extern "C" fn(u32, u32, *mut i32),
    get_objectui64v: unsafe extern "C" fn(u32, u32, *mut u64),
    get_objecti64v: unsafe extern "C" fn(u32, u32, *mut i64),
    begin_conditional: unsafe extern "C" fn(u32, u32),
    end_conditional: unsafe extern "C" fn(),
    draw_arrays: unsafe extern "C" fn(u32, i32, i32),
    draw_arrays_instanced: unsafe extern "C" fn(u32, i32, i32, i32),
    enable: unsafe extern "C" fn(u32),
    disable: unsafe extern "C" fn(u32),
    depth_func: unsafe extern "C" fn(u32),
    scissor: unsafe extern "C" fn(i32, i32, i32, i32),
    clear: unsafe extern "C" fn(u32),
    clear_color: unsafe extern "C" fn(f32, f32, f32, f32),
    color_mask: unsafe extern "C" fn(u8, u8, u8, u8),
    flush: unsafe extern "C" fn(),
    finish: unsafe extern "C" fn(),
    buffer_sub_data: unsafe extern "C" fn(u32, isize, isize, *const c_void),
    read_pixels: unsafe extern "C" fn(i32, i32, i32, i32, u32, u32, *mut c_void),
}

fn gl() -> Gl {
    Gl {
        fence_sync: gl!(c"glFenceSync": fn(u32, u32) -> P),
        is_sync: gl!(c"glIsSync": fn(P) -> u8),
        delete_sync: gl!(c"glDeleteSync": fn(P)),
        client_wait: gl!(c"glClientWaitSync": fn(P, u32, u64) -> u32),
        wait_sync: gl!(c"glWaitSync": fn(P, u32, u64)),
        get_synciv: gl!(c"glGetSynciv": fn(P, u32, i32, *mut i32, *mut i32)),
        get_i64: gl!(c"glGetInteger64v": fn(u32, *mut i64)),
        gen_queries: gl!(c"glGenQueries": fn(i32, *mut u32)),
        delete_queries: gl!(c"glDeleteQueries": fn(i32, *const u32)),
        is_query: gl!(c"glIsQuery": fn(u32) -> u8),
        begin_query: gl!(c"glBeginQuery": fn(u32, u32)),
        end_query: gl!(c"glEndQuery": fn(u32)),
        query_counter: gl!(c"glQueryCounter": fn(u32, u32)),
        get_queryiv: gl!(c"glGetQueryiv": fn(u32, u32, *mut i32)),
        get_objectuiv: gl!(c"glGetQueryObjectuiv": fn(u32, u32, *mut u32)),
        get_objectiv: gl!(c"glGetQueryObjectiv": fn(u32, u32, *mut i32)),
        get_objectui64v: gl!(c"glGetQueryObjectui64v": fn(u32, u32, *mut u64)),
        get_objecti64v: gl!(c"glGetQueryObjecti64v": fn(u32, u32, *mut i64)),
        begin_conditional: gl!(c"glBeginConditionalRender": fn(u32, u32)),
        end_conditional: gl!(c"glEndConditionalRender": fn()),
        draw_arrays: gl!(c"glDrawArrays": fn(u32, i32, i32)),
        draw_arrays_instanced: gl!(c"glDrawArraysInstanced": fn(u32, i32, i32, i32)),
        enable: gl!(c"glEnable": fn(u32)),
        disable: gl!(c"glDisable": fn(u32)),
        depth_func: gl!(c"glDepthFunc": fn(u32)),
        scissor: gl!(c"glScissor": fn(i32, i32, i32, i32)),
        clear: gl!(c"glClear": fn(u32)),
        clear_color: gl!(c"glClearColor": fn(f32, f32, f32, f32)),
        color_mask: gl!(c"glColorMask": fn(u8, u8, u8, u8)),
        flush: gl!(c"glFlush": fn()),
        finish: gl!(c"glFinish": fn()),
        buffer_sub_data: gl!(c"glBufferSubData": fn(u32, isize, isize, *const c_void)),
        read_pixels: gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void)),
    }
}

/// Two triangles covering the whole viewport (then the same as a 4-vertex strip), drawn
/// red by the current program; the array buffer stays bound for `glBufferSubData`.
const QUAD: [f32; 12] = [
    -1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, -1.0, 1.0, 1.0, -1.0, 1.0,
];

fn setup_quad() {
    let gen_buffers = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind_buffer = gl!(c"glBindBuffer": fn(u32, u32));
    let buffer_data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let enable_attrib = gl!(c"glEnableVertexAttribArray": fn(u32));
    let attrib = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let use_program = gl!(c"glUseProgram": fn(u32));
    // SAFETY: out-pointers to locals; QUAD outlives the upload.
    unsafe {
        let p = gl_harness::program(VS, RED_FS);
        use_program(p);
        let mut vao = 0;
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        let mut buffer = 0;
        gen_buffers(1, &mut buffer);
        bind_buffer(GL_ARRAY_BUFFER, buffer);
        buffer_data(GL_ARRAY_BUFFER, 48, QUAD.as_ptr().cast(), GL_STATIC_DRAW);
        enable_attrib(0);
        attrib(0, 2, GL_FLOAT, 0, 0, null());
    }
    expect(GL_NO_ERROR);
}

/// The red channel of pixel (x, y).
fn red_at(g: &Gl, x: i32, y: i32) -> u8 {
    let mut px = [0u8; 4];
    // SAFETY: 4 bytes for one RGBA8 pixel.
    unsafe {
        (g.read_pixels)(
            x,
            y,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        )
    };
    px[0]
}

fn new_query(g: &Gl) -> u32 {
    let mut q = 0;
    // SAFETY: one name into a local.
    unsafe { (g.gen_queries)(1, &mut q) };
    q
}

/// `GL_QUERY_RESULT` of `q` (waits).
fn result(g: &Gl, q: u32) -> u64 {
    let mut v = u64::MAX;
    // SAFETY: one value into a local.
    unsafe { (g.get_objectui64v)(q, GL_QUERY_RESULT, &mut v) };
    expect(GL_NO_ERROR);
    v
}

#[test]
fn sync_entry_points_report_the_spec_errors() {
    let _ctx = context();
    let g = gl();
    let bogus = 0x1234usize as P;
    // SAFETY: every pointer passed is a sync handle (never dereferenced by the GL) or a local.
    unsafe {
        assert!((g.fence_sync)(0x1234, 0).is_null());
        expect(GL_INVALID_ENUM);
        assert!((g.fence_sync)(GL_SYNC_GPU_COMMANDS_COMPLETE, 1).is_null());
        expect(GL_INVALID_VALUE);

        let s = (g.fence_sync)(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        assert!(!s.is_null());
        expect(GL_NO_ERROR);
        assert_eq!((g.is_sync)(s), 1);
        assert_eq!((g.is_sync)(bogus), 0);
        assert_eq!((g.is_sync)(null_mut()), 0);
        expect(GL_NO_ERROR);

        assert_eq!((g.client_wait)(bogus, 0, 0), GL_WAIT_FAILED);
        expect(GL_INVALID_VALUE);
        assert_eq!((g.client_wait)(s, 0x2, 0), GL_WAIT_FAILED);
        expect(GL_INVALID_VALUE);

        (g.wait_sync)(bogus, 0, GL_TIMEOUT_IGNORED);
        expect(GL_INVALID_VALUE);
        (g.wait_sync)(s, 1, GL_TIMEOUT_IGNORED);
        expect(GL_INVALID_VALUE);
        (g.wait_sync)(s, 0, 1000);
        expect(GL_INVALID_VALUE);
        (g.wait_sync)(s, 0, GL_TIMEOUT_IGNORED);
        expect(GL_NO_ERROR);

        let mut v = [-1i32; 2];
        let mut len = -1;
        (g.get_synciv)(bogus, GL_OBJECT_TYPE, 1, &mut len, v.as_mut_ptr());
        expect(GL_INVALID_VALUE);
        (g.get_synciv)(s, 0x1234, 1, &mut len, v.as_mut_ptr());
        expect(GL_INVALID_ENUM);
        assert_eq!((v, len), ([-1, -1], -1), "nothing written on error");
        for (pname, want) in [
            (GL_OBJECT_TYPE, GL_SYNC_FENCE),
            (GL_SYNC_CONDITION, GL_SYNC_GPU_COMMANDS_COMPLETE),
            (GL_SYNC_FLAGS, 0),
        ] {
            (g.get_synciv)(s, pname, 2, &mut len, v.as_mut_ptr());
            expect(GL_NO_ERROR);
            assert_eq!((v[0], len), (want as i32, 1), "pname 0x{pname:04X}");
        }
        // bufSize 0 writes nothing.
        v[0] = -7;
        (g.get_synciv)(s, GL_OBJECT_TYPE, 0, &mut len, v.as_mut_ptr());
        expect(GL_NO_ERROR);
        assert_eq!(v[0], -7);

        let mut max = -1i64;
        (g.get_i64)(GL_MAX_SERVER_WAIT_TIMEOUT, &mut max);
        expect(GL_NO_ERROR);
        assert!(max >= 0);

        (g.delete_sync)(null_mut());
        expect(GL_NO_ERROR);
        (g.delete_sync)(bogus);
        expect(GL_INVALID_VALUE);
        (g.delete_sync)(s);
        expect(GL_NO_ERROR);
        assert_eq!((g.is_sync)(s), 0, "a deleted sync is no sync");
        (g.delete_sync)(s);
        expect(GL_INVALID_VALUE);
    }
}

#[test]
fn a_fence_after_a_draw_signals_after_finish_and_in_a_polling_loop() {
    let _ctx = context();
    let g = gl();
    setup_quad();
    // SAFETY: sync handles from glFenceSync; out-pointers to locals.
    unsafe {
        (g.draw_arrays)(GL_TRIANGLES, 0, 6);
        let s = (g.fence_sync)(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        (g.finish)();
        let mut status = 0;
        (g.get_synciv)(s, GL_SYNC_STATUS, 1, null_mut(), &mut status);
        assert_eq!(status as u32, GL_SIGNALED);
        assert_eq!((g.client_wait)(s, 0, 0), GL_ALREADY_SIGNALED);
        (g.delete_sync)(s);

        // A zero-timeout poll with no flush bit and nothing else called must make progress.
        (g.draw_arrays)(GL_TRIANGLES, 0, 6);
        let s = (g.fence_sync)(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        let mut polls = 0;
        while (g.client_wait)(s, 0, 0) != GL_ALREADY_SIGNALED {
            polls += 1;
            assert!(
                polls < 20_000,
                "a zero-timeout polling loop never saw the fence signal"
            );
            std::thread::sleep(std::time::Duration::from_micros(100));
        }
        (g.delete_sync)(s);

        // A bounded wait with the flush bit.
        (g.draw_arrays)(GL_TRIANGLES, 0, 6);
        let s = (g.fence_sync)(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        let r = (g.client_wait)(s, GL_SYNC_FLUSH_COMMANDS_BIT, 5_000_000_000);
        assert!(
            r == GL_CONDITION_SATISFIED || r == GL_ALREADY_SIGNALED,
            "0x{r:04X}"
        );
        (g.delete_sync)(s);
        expect(GL_NO_ERROR);
    }
}

#[test]
fn query_entry_points_report_the_spec_errors() {
    let _ctx = context();
    let g = gl();
    // SAFETY: names and out-pointers to locals.
    unsafe {
        let mut names = [0u32; 2];
        (g.gen_queries)(-1, names.as_mut_ptr());
        expect(GL_INVALID_VALUE);
        (g.gen_queries)(2, names.as_mut_ptr());
        let [a, b] = names;
        assert!(a != 0 && b != 0 && a != b);
        assert_eq!((g.is_query)(a), 0, "not a query until first begun");

        (g.begin_query)(0x1234, a);
        expect(GL_INVALID_ENUM);
        (g.begin_query)(GL_TIMESTAMP, a);
        expect(GL_INVALID_ENUM);
        (g.begin_query)(GL_SAMPLES_PASSED, 0);
        expect(GL_INVALID_OPERATION);
        (g.begin_query)(GL_SAMPLES_PASSED, 9999);
        expect(GL_INVALID_OPERATION);
        (g.end_query)(GL_SAMPLES_PASSED);
        expect(GL_INVALID_OPERATION);

        (g.begin_query)(GL_SAMPLES_PASSED, a);
        expect(GL_NO_ERROR);
        assert_eq!((g.is_query)(a), 1);
        let mut cur = -1;
        (g.get_queryiv)(GL_SAMPLES_PASSED, GL_CURRENT_QUERY, &mut cur);
        assert_eq!(cur as u32, a);
        (g.begin_query)(GL_SAMPLES_PASSED, b);
        expect(GL_INVALID_OPERATION); // one active query per target
        (g.begin_query)(GL_ANY_SAMPLES_PASSED, a);
        expect(GL_INVALID_OPERATION); // a is active
        let mut v = 7u32;
        (g.get_objectuiv)(a, GL_QUERY_RESULT, &mut v);
        expect(GL_INVALID_OPERATION); // results of an active query
        assert_eq!(v, 7);
        (g.query_counter)(a, GL_TIMESTAMP);
        expect(GL_INVALID_OPERATION);
        (g.end_query)(GL_SAMPLES_PASSED);
        expect(GL_NO_ERROR);
        (g.get_queryiv)(GL_SAMPLES_PASSED, GL_CURRENT_QUERY, &mut cur);
        assert_eq!(cur, 0);

        (g.begin_query)(GL_TIME_ELAPSED, a);
        expect(GL_INVALID_OPERATION); // a is a samples-passed query
        (g.query_counter)(b, GL_TIME_ELAPSED);
        expect(GL_INVALID_ENUM);
        (g.get_objectuiv)(a, 0x1234, &mut v);
        expect(GL_INVALID_ENUM);
        (g.get_objectuiv)(b, GL_QUERY_RESULT, &mut v);
        expect(GL_INVALID_OPERATION); // b was never begun
        (g.get_queryiv)(0x1234, GL_CURRENT_QUERY, &mut cur);
        expect(GL_INVALID_ENUM);
        (g.get_queryiv)(GL_SAMPLES_PASSED, 0x1234, &mut cur);
        expect(GL_INVALID_ENUM);
        for (target, min) in [
            (GL_SAMPLES_PASSED, 1),
            (GL_ANY_SAMPLES_PASSED, 1),
            (GL_ANY_SAMPLES_PASSED_CONSERVATIVE, 1),
            (GL_TIME_ELAPSED, 30),
            (GL_TIMESTAMP, 30),
            (GL_PRIMITIVES_GENERATED, 1),
        ] {
            let mut bits = 0;
            (g.get_queryiv)(target, GL_QUERY_COUNTER_BITS, &mut bits);
            expect(GL_NO_ERROR);
            assert!(bits >= min, "0x{target:04X}: {bits} bits");
        }

        (g.begin_conditional)(b, GL_QUERY_WAIT);
        expect(GL_INVALID_VALUE); // not a query object yet
        (g.begin_conditional)(a, 0x1234);
        expect(GL_INVALID_ENUM);
        (g.end_conditional)();
        expect(GL_INVALID_OPERATION);
        (g.query_counter)(b, GL_TIMESTAMP);
        expect(GL_NO_ERROR);
        (g.begin_conditional)(b, GL_QUERY_WAIT);
        expect(GL_INVALID_OPERATION); // not an occlusion query
        (g.begin_conditional)(a, GL_QUERY_WAIT);
        expect(GL_NO_ERROR);
        (g.begin_conditional)(a, GL_QUERY_WAIT);
        expect(GL_INVALID_OPERATION);
        (g.end_conditional)();
        expect(GL_NO_ERROR);

        (g.delete_queries)(-1, names.as_ptr());
        expect(GL_INVALID_VALUE);
        (g.delete_queries)(2, names.as_ptr());
        expect(GL_NO_ERROR);
        assert_eq!((g.is_query)(a), 0);
        (g.begin_query)(GL_SAMPLES_PASSED, a);
        expect(GL_INVALID_OPERATION); // deleted name
    }
}

#[test]
fn samples_passed_counts_exactly_across_pass_breaks_and_submissions() {
    let _ctx = context();
    let g = gl();
    setup_quad();
    let q = new_query(&g);
    // SAFETY: query names from glGenQueries; QUAD outlives the upload.
    unsafe {
        (g.begin_query)(GL_SAMPLES_PASSED, q);
        (g.draw_arrays)(GL_TRIANGLES, 0, 6);
        (g.end_query)(GL_SAMPLES_PASSED);
        assert_eq!(result(&g, q), 32 * 32, "a full-viewport quad on 32×32");

        (g.enable)(GL_SCISSOR_TEST);
        (g.scissor)(3, 5, 10, 8);
        (g.begin_query)(GL_SAMPLES_PASSED, q);
        (g.draw_arrays)(GL_TRIANGLES, 0, 6);
        (g.end_query)(GL_SAMPLES_PASSED);
        assert_eq!(result(&g, q), 80, "a 10×8 scissor");
        (g.disable)(GL_SCISSOR_TEST);

        (g.enable)(GL_DEPTH_TEST);
        (g.depth_func)(GL_NEVER);
        (g.begin_query)(GL_SAMPLES_PASSED, q);
        (g.draw_arrays)(GL_TRIANGLES, 0, 6);
        (g.end_query)(GL_SAMPLES_PASSED);
        assert_eq!(result(&g, q), 0, "every sample fails the depth test");
        (g.disable)(GL_DEPTH_TEST);

        // One query over four draws with a transfer (ends the render pass), a submission and a
        // clear between them: each draw counts, the clears (one of them masked) do not.
        (g.begin_query)(GL_SAMPLES_PASSED, q);
        (g.draw_arrays)(GL_TRIANGLES, 0, 6);
        (g.buffer_sub_data)(GL_ARRAY_BUFFER, 0, 48, QUAD.as_ptr().cast());
        (g.draw_arrays)(GL_TRIANGLES, 0, 6);
        (g.flush)();
        (g.draw_arrays)(GL_TRIANGLES, 0, 6);
        (g.clear)(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        (g.color_mask)(1, 0, 0, 1); // a masked clear is a full-screen triangle inside
        (g.clear)(GL_COLOR_BUFFER_BIT);
        (g.color_mask)(1, 1, 1, 1);
        (g.draw_arrays)(GL_TRIANGLES, 0, 6);
        (g.end_query)(GL_SAMPLES_PASSED);
        assert_eq!(
            result(&g, q),
            4 * 1024,
            "four full quads, the clear uncounted"
        );
    }
}

#[test]
fn any_samples_and_polling_for_availability_make_progress() {
    let _ctx = context();
    let g = gl();
    setup_quad();
    let (q, r) = (new_query(&g), new_query(&g));
    // SAFETY: query names from glGenQueries; out-pointers to locals.
    unsafe {
        (g.begin_query)(GL_ANY_SAMPLES_PASSED, q);
        (g.begin_query)(GL_SAMPLES_PASSED, r);
        expect(GL_INVALID_OPERATION); // one occlusion query at a time (ARB_occlusion_query2)
        (g.draw_arrays)(GL_TRIANGLES, 0, 6);
        (g.end_query)(GL_ANY_SAMPLES_PASSED);
        (g.begin_query)(GL_SAMPLES_PASSED, r);
        (g.draw_arrays)(GL_TRIANGLES, 0, 6);
        (g.end_query)(GL_SAMPLES_PASSED);
        expect(GL_NO_ERROR);
        let mut polls = 0;
        loop {
            let mut available = 0u32;
            (g.get_objectuiv)(q, GL_QUERY_RESULT_AVAILABLE, &mut available);
            if available == 1 {
                break;
            }
            polls += 1;
            assert!(
                polls < 20_000,
                "GL_QUERY_RESULT_AVAILABLE never became true"
            );
            std::thread::sleep(std::time::Duration::from_micros(100));
        }
        let mut v = -1i32;
        (g.get_objectiv)(q, GL_QUERY_RESULT, &mut v);
        assert_eq!(v, 1);
        assert_eq!(result(&g, r), 1024);

        (g.enable)(GL_DEPTH_TEST);
        (g.depth_func)(GL_NEVER);
        (g.begin_query)(GL_ANY_SAMPLES_PASSED_CONSERVATIVE, r);
        expect(GL_INVALID_OPERATION); // r is a samples-passed query
        (g.begin_query)(GL_ANY_SAMPLES_PASSED, q);
        (g.draw_arrays)(GL_TRIANGLES, 0, 6);
        (g.end_query)(GL_ANY_SAMPLES_PASSED);
        assert_eq!(result(&g, q), 0);
        expect(GL_NO_ERROR);
    }
}

#[test]
fn timer_queries_measure_and_timestamps_increase() {
    let _ctx = context();
    let g = gl();
    setup_quad();
    let (elapsed, t1, t2) = (new_query(&g), new_query(&g), new_query(&g));
    // SAFETY: query names from glGenQueries; out-pointers to locals.
    unsafe {
        let mut t0 = 0i64;
        (g.get_i64)(GL_TIMESTAMP, &mut t0);
        expect(GL_NO_ERROR);
        (g.query_counter)(t1, GL_TIMESTAMP);
        (g.begin_query)(GL_TIME_ELAPSED, elapsed);
        for _ in 0..50 {
            (g.draw_arrays)(GL_TRIANGLES, 0, 6);
        }
        (g.end_query)(GL_TIME_ELAPSED);
        (g.query_counter)(t2, GL_TIMESTAMP);
        let mut t3 = 0i64;
        (g.get_i64)(GL_TIMESTAMP, &mut t3);
        expect(GL_NO_ERROR);
        let ns = result(&g, elapsed);
        let (a, b) = (result(&g, t1), result(&g, t2));
        let mut signed = 0i64;
        (g.get_objecti64v)(t2, GL_QUERY_RESULT, &mut signed);
        assert_eq!(signed as u64, b);
        eprintln!("GL_TIME_ELAPSED of 50 quads: {ns} ns; timestamps {t0} {a} {b} {t3}");
        assert!(ns > 0, "time elapsed");
        assert!(t0 > 0, "GL_TIMESTAMP");
        assert!(
            t0 as u64 <= a && a <= b && b <= t3 as u64,
            "monotonic: {t0} {a} {b} {t3}"
        );
        assert!(
            b - a >= ns,
            "the elapsed interval lies between the two counters"
        );
    }
}

#[test]
fn primitives_generated_counts_every_assembled_primitive() {
    let _ctx = context();
    let g = gl();
    setup_quad();
    let q = new_query(&g);
    // SAFETY: query names from glGenQueries.
    unsafe {
        (g.begin_query)(GL_PRIMITIVES_GENERATED, q);
        (g.draw_arrays)(GL_TRIANGLES, 0, 6); // 2
        (g.draw_arrays_instanced)(GL_TRIANGLE_STRIP, 0, 5, 3); // 3 × 3
        (g.enable)(GL_SCISSOR_TEST);
        (g.scissor)(0, 0, 0, 0);
        (g.draw_arrays)(GL_TRIANGLES, 0, 5); // 1: generated even though nothing is drawn
        (g.disable)(GL_SCISSOR_TEST);
        (g.draw_arrays)(0x7777, 0, 3); // an error: counts nothing
        expect(GL_INVALID_ENUM);
        (g.end_query)(GL_PRIMITIVES_GENERATED);
        assert_eq!(result(&g, q), 2 + 9 + 1);
    }
}

const GS: &str = "#version 330 core
layout(triangles) in;
layout(triangle_strip, max_vertices = 6) out;
void main() {
    for (int copy = 0; copy < 2; copy++) {
        for (int i = 0; i < 3; i++) {
            gl_Position = gl_in[i].gl_Position;
            EmitVertex();
        }
        EndPrimitive();
    }
}
";

#[test]
fn primitives_generated_counts_what_a_geometry_shader_emits() {
    let _ctx = context();
    let g = gl();
    setup_quad();
    let create_shader = gl!(c"glCreateShader": fn(u32) -> u32);
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const std::ffi::c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let create_program = gl!(c"glCreateProgram": fn() -> u32);
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    let link = gl!(c"glLinkProgram": fn(u32));
    let get_program = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let q = new_query(&g);
    // SAFETY: NUL-terminated sources; out-pointers to locals; names from glGen*/glCreate*.
    unsafe {
        let flat = {
            // GL_CURRENT_PROGRAM: the plain program setup_quad made current.
            let mut current = 0;
            let get_integer = gl!(c"glGetIntegerv": fn(u32, *mut i32));
            get_integer(0x8B8D, &mut current);
            current as u32
        };
        let p = create_program();
        for (ty, src) in [(0x8B31, VS), (0x8DD9, GS), (0x8B30, RED_FS)] {
            let s = create_shader(ty);
            let c = std::ffi::CString::new(src).expect("no NUL");
            let ptr = c.as_ptr();
            source(s, 1, &ptr, null());
            compile(s);
            attach(p, s);
        }
        link(p);
        let mut ok = 0;
        get_program(p, 0x8B82, &mut ok);
        assert_eq!(ok, 1, "link with a geometry shader");
        expect(GL_NO_ERROR);

        (g.begin_query)(GL_PRIMITIVES_GENERATED, q);
        use_program(p);
        (g.draw_arrays)(GL_TRIANGLES, 0, 6); // 2 triangles in, each emitted twice: 4
        (g.flush)();
        (g.draw_arrays)(GL_TRIANGLES, 0, 3); // 2 more, after a submission
        use_program(flat);
        (g.draw_arrays)(GL_TRIANGLES, 0, 6); // no geometry shader: 2, counted on the CPU
        (g.end_query)(GL_PRIMITIVES_GENERATED);
        expect(GL_NO_ERROR);
        assert_eq!(result(&g, q), 4 + 2 + 2);
        assert_eq!(
            red_at(&g, 16, 16),
            255,
            "the geometry-shader draws rendered"
        );
    }
}

#[test]
fn conditional_rendering_skips_draws_whose_query_saw_nothing() {
    let _ctx = context();
    let g = gl();
    setup_quad();
    let (hidden, seen) = (new_query(&g), new_query(&g));
    // SAFETY: query names from glGenQueries.
    unsafe {
        (g.clear_color)(0.0, 0.0, 0.0, 1.0);
        (g.clear)(GL_COLOR_BUFFER_BIT);
        (g.enable)(GL_DEPTH_TEST);
        (g.depth_func)(GL_NEVER);
        (g.begin_query)(GL_SAMPLES_PASSED, hidden);
        (g.draw_arrays)(GL_TRIANGLES, 0, 6);
        (g.end_query)(GL_SAMPLES_PASSED);
        (g.disable)(GL_DEPTH_TEST);
        (g.begin_query)(GL_ANY_SAMPLES_PASSED, seen);
        (g.draw_arrays)(GL_TRIANGLES, 0, 6);
        (g.end_query)(GL_ANY_SAMPLES_PASSED);
        (g.clear)(GL_COLOR_BUFFER_BIT);
        expect(GL_NO_ERROR);

        (g.begin_conditional)(hidden, GL_QUERY_WAIT);
        (g.draw_arrays)(GL_TRIANGLES, 0, 6);
        (g.end_conditional)();
        expect(GL_NO_ERROR);
        assert_eq!(
            red_at(&g, 16, 16),
            0,
            "the draw under a zero query was discarded"
        );

        (g.begin_conditional)(seen, GL_QUERY_WAIT);
        (g.draw_arrays)(GL_TRIANGLES, 0, 6);
        (g.end_conditional)();
        assert_eq!(
            red_at(&g, 16, 16),
            255,
            "the draw under a non-zero query ran"
        );

        // A discarded clear leaves the red; NO_WAIT after glFinish sees the result too.
        (g.finish)();
        (g.begin_conditional)(hidden, GL_QUERY_NO_WAIT);
        (g.clear)(GL_COLOR_BUFFER_BIT);
        (g.end_conditional)();
        assert_eq!(
            red_at(&g, 16, 16),
            255,
            "the clear under a zero query was discarded"
        );
        expect(GL_NO_ERROR);
    }
}

#[test]
fn the_sync_and_query_extensions_are_advertised_and_their_suffixed_names_resolve() {
    let _ctx = context();
    let get_stringi = gl!(c"glGetStringi": fn(u32, u32) -> *const u8);
    let get_integer = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    // SAFETY: glGetStringi returns NUL-terminated strings owned by the context.
    let names: Vec<String> = unsafe {
        let mut n = 0;
        get_integer(GL_NUM_EXTENSIONS, &mut n);
        (0..n as u32)
            .map(|i| {
                CStr::from_ptr(get_stringi(GL_EXTENSIONS, i).cast())
                    .to_string_lossy()
                    .into_owned()
            })
            .collect()
    };
    for ext in [
        "GL_ARB_sync",
        "GL_ARB_occlusion_query",
        "GL_ARB_occlusion_query2",
        "GL_ARB_timer_query",
        "GL_NV_conditional_render",
    ] {
        assert!(names.iter().any(|n| n == ext), "{ext} in {names:?}");
    }
    let _ = gl!(c"glBeginConditionalRenderNV": fn(u32, u32));
    let _ = gl!(c"glGenQueriesARB": fn(i32, *mut u32));
    let _ = gl!(c"glGetQueryObjectuivARB": fn(u32, u32, *mut u32));
}
