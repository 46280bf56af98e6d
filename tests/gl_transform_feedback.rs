//! Transform feedback through the C ABI (GL 3.0, GL_ARB_transform_feedback2/3/_instanced):
//! known vertices captured interleaved and separate, with and without rasterization, read back
//! through maps and `glGetBufferSubData` and compared byte for byte; overflow and the
//! primitive queries; pause / resume, objects and `glDrawTransformFeedback`; and the errors GL
//! names. The validation layer must stay silent.

use std::ffi::{c_char, c_void, CString};
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{buffer_with, expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_POINTS: u32 = 0;
const GL_LINES: u32 = 1;
const GL_TRIANGLES: u32 = 4;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_FLOAT: u32 = 0x1406;
const GL_FLOAT_VEC4: u32 = 0x8B52;
const GL_TRANSFORM_FEEDBACK_BUFFER: u32 = 0x8C8E;
const GL_TRANSFORM_FEEDBACK: u32 = 0x8E22;
const GL_INTERLEAVED_ATTRIBS: u32 = 0x8C8C;
const GL_SEPARATE_ATTRIBS: u32 = 0x8C8D;
const GL_RASTERIZER_DISCARD: u32 = 0x8C89;
const GL_PRIMITIVES_GENERATED: u32 = 0x8C87;
const GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN: u32 = 0x8C88;
const GL_QUERY_RESULT: u32 = 0x8866;
const GL_MAP_READ_BIT: u32 = 1;
const GL_TRANSFORM_FEEDBACK_VARYINGS: u32 = 0x8C83;
const GL_TRANSFORM_FEEDBACK_BUFFER_SIZE: u32 = 0x8C85;
const GL_TRANSFORM_FEEDBACK_BUFFER_BINDING: u32 = 0x8C8F;
const GL_TRANSFORM_FEEDBACK_BUFFER_ACTIVE: u32 = 0x8E24;
const GL_TRANSFORM_FEEDBACK_BUFFER_PAUSED: u32 = 0x8E23;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;

/// Each vertex: `a` = its position + 10, `b` = its index (as a float), `c[i]` = i + 100 * id.
const VS: &str = "#version 150\nin vec4 pos;\nout vec4 a;\nout float b;\nout float c[3];\nvoid main() {\n    gl_Position = pos;\n    gl_PointSize = 1.0;\n    a = pos + vec4(10.0);\n    b = float(gl_VertexID);\n    for (int i = 0; i < 3; i++) c[i] = float(i + 100 * gl_VertexID);\n}\n";
const FS: &str =
    "#version 150\nout vec4 colour;\nvoid main() { colour = vec4(0.0, 1.0, 0.0, 1.0); }\n";

/// Three vertices of a triangle that covers the middle of the drawable.
const POSITIONS: [f32; 12] = [
    -1.0, -1.0, 0.0, 1.0, 3.0, -1.0, 0.0, 1.0, -1.0, 3.0, 0.0, 1.0,
];

/// The program with `varyings` captured in `mode`; (program, whether it linked).
fn program(varyings: &[&str], mode: u32) -> (u32, bool) {
    let tfv = gl!(c"glTransformFeedbackVaryings": fn(u32, i32, *const *const c_char, u32));
    let names: Vec<CString> = varyings
        .iter()
        .map(|v| CString::new(*v).expect("no NUL"))
        .collect();
    let ptrs: Vec<*const c_char> = names.iter().map(|n| n.as_ptr()).collect();
    let (p, linked) = gl_harness::try_program_with(VS, FS, |p| {
        let bind = gl!(c"glBindAttribLocation": fn(u32, u32, *const c_char));
        // SAFETY: the arrays outlive the calls; names are NUL-terminated.
        unsafe {
            bind(p, 0, c"pos".as_ptr());
            tfv(p, ptrs.len() as i32, ptrs.as_ptr(), mode);
        }
    });
    if !linked {
        let log = gl!(c"glGetProgramInfoLog": fn(u32, i32, *mut i32, *mut c_char));
        let mut buf = vec![0u8; 4096];
        let mut len = 0;
        // SAFETY: `buf` holds the size given.
        unsafe { log(p, buf.len() as i32, &mut len, buf.as_mut_ptr().cast()) };
        eprintln!(
            "link log: {}",
            String::from_utf8_lossy(&buf[..len.max(0) as usize])
        );
    }
    (p, linked)
}

/// A vertex array with `POSITIONS` at attribute 0, and the program current.
fn scene(p: u32) {
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let mut vao = 0;
    // SAFETY: locals as out-pointers; offsets into bound buffers.
    unsafe {
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        buffer_with(GL_ARRAY_BUFFER, &floats_bytes(&POSITIONS));
        pointer(0, 4, GL_FLOAT, 0, 0, null());
        enable(0);
        use_program(p);
    }
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

fn floats_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|f| f.to_ne_bytes()).collect()
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

/// `floats` floats of the buffer bound to `GL_TRANSFORM_FEEDBACK_BUFFER`, through a read map.
fn read_mapped(floats: usize) -> Vec<f32> {
    let map = gl!(c"glMapBufferRange": fn(u32, isize, isize, u32) -> *mut c_void);
    let unmap = gl!(c"glUnmapBuffer": fn(u32) -> u8);
    // SAFETY: the mapping covers `floats` floats until the unmap.
    unsafe {
        let p = map(
            GL_TRANSFORM_FEEDBACK_BUFFER,
            0,
            (floats * 4) as isize,
            GL_MAP_READ_BIT,
        );
        assert!(!p.is_null(), "glMapBufferRange on a feedback buffer");
        let v = std::slice::from_raw_parts(p.cast::<f32>(), floats).to_vec();
        unmap(GL_TRANSFORM_FEEDBACK_BUFFER);
        v
    }
}

/// A query of `target` around `f`: its result.
fn counted(target: u32, f: impl FnOnce()) -> u32 {
    let gen = gl!(c"glGenQueries": fn(i32, *mut u32));
    let begin = gl!(c"glBeginQuery": fn(u32, u32));
    let end = gl!(c"glEndQuery": fn(u32));
    let result = gl!(c"glGetQueryObjectuiv": fn(u32, u32, *mut u32));
    let mut q = 0;
    let mut n = 0;
    // SAFETY: locals as out-pointers.
    unsafe {
        gen(1, &mut q);
        begin(target, q);
        f();
        end(target);
        result(q, GL_QUERY_RESULT, &mut n);
    }
    n
}

fn draw(mode: u32, first: i32, count: i32) {
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: plain values; the arrays are bound.
    unsafe { draw(mode, first, count) }
}

fn begin(mode: u32) {
    let begin = gl!(c"glBeginTransformFeedback": fn(u32));
    // SAFETY: plain values.
    unsafe { begin(mode) }
}

fn end() {
    let end = gl!(c"glEndTransformFeedback": fn());
    // SAFETY: no arguments.
    unsafe { end() }
}

fn vertex(i: usize) -> [f32; 4] {
    [
        POSITIONS[4 * i],
        POSITIONS[4 * i + 1],
        POSITIONS[4 * i + 2],
        POSITIONS[4 * i + 3],
    ]
}

#[test]
fn interleaved_capture_with_and_without_rasterization() {
    let _ctx = gl_harness::context();
    let (p, linked) = program(&["gl_Position", "b", "a"], GL_INTERLEAVED_ATTRIBS);
    assert!(linked);
    scene(p);
    let enable = gl!(c"glEnable": fn(u32));
    let disable = gl!(c"glDisable": fn(u32));
    let clear = gl!(c"glClear": fn(u32));
    for discard in [true, false] {
        let b = feedback_buffer(0, 9 * 3);
        // SAFETY: plain values.
        unsafe {
            clear(GL_COLOR_BUFFER_BIT);
            if discard {
                enable(GL_RASTERIZER_DISCARD);
            } else {
                disable(GL_RASTERIZER_DISCARD);
            }
        }
        let written = counted(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, || {
            begin(GL_TRIANGLES);
            draw(GL_TRIANGLES, 0, 3);
            end();
        });
        expect(GL_NO_ERROR);
        assert_eq!(written, 1);
        let got = read_mapped(27);
        for i in 0..3 {
            let v = vertex(i);
            let mut want = v.to_vec();
            want.push(i as f32);
            want.extend(v.iter().map(|x| x + 10.0));
            assert_eq!(
                &got[9 * i..9 * i + 9],
                &want[..],
                "vertex {i} (discard {discard})"
            );
        }
        assert_eq!(read(b, 27), got);
        // The triangle covers the drawable unless rasterization was discarded.
        let px = gl_harness::read_rgba(16, 16, 1, 1);
        assert_eq!(
            px[1],
            if discard { 0 } else { 255 },
            "rasterized (discard {discard})"
        );
    }
}

#[test]
fn separate_capture_of_elements_and_skipped_components() {
    let _ctx = gl_harness::context();
    let (p, linked) = program(&["c[2]", "b"], GL_SEPARATE_ATTRIBS);
    assert!(linked);
    scene(p);
    let b0 = feedback_buffer(0, 3);
    let b1 = feedback_buffer(1, 3);
    begin(GL_POINTS);
    draw(GL_POINTS, 0, 3);
    end();
    expect(GL_NO_ERROR);
    assert_eq!(read(b0, 3), vec![2.0, 102.0, 202.0]);
    assert_eq!(read(b1, 3), vec![0.0, 1.0, 2.0]);

    let (p, linked) = program(
        &["b", "gl_SkipComponents2", "c[1]", "gl_NextBuffer", "c"],
        GL_INTERLEAVED_ATTRIBS,
    );
    assert!(linked);
    scene(p);
    let b0 = feedback_buffer(0, 8);
    let b1 = feedback_buffer(1, 6);
    begin(GL_POINTS);
    draw(GL_POINTS, 1, 2);
    end();
    expect(GL_NO_ERROR);
    // Skipped components keep what the buffer held.
    assert_eq!(
        read(b0, 8),
        vec![1.0, -1.0, -1.0, 101.0, 2.0, -1.0, -1.0, 201.0]
    );
    assert_eq!(read(b1, 6), vec![100.0, 101.0, 102.0, 200.0, 201.0, 202.0]);
}

#[test]
fn overflow_stops_whole_primitives_and_queries_count() {
    let _ctx = gl_harness::context();
    let (p, _) = program(&["b"], GL_INTERLEAVED_ATTRIBS);
    scene(p);
    // Room for two lines (four vertices) and a half.
    let b = feedback_buffer(0, 5);
    let mut generated = 0;
    let written = counted(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, || {
        generated = counted(GL_PRIMITIVES_GENERATED, || {
            begin(GL_LINES);
            draw(GL_LINES, 0, 2);
            draw(GL_LINES, 1, 2);
            draw(GL_LINES, 0, 2);
            end();
        });
    });
    expect(GL_NO_ERROR);
    assert_eq!((generated, written), (3, 2));
    assert_eq!(read(b, 5), vec![0.0, 1.0, 1.0, 2.0, -1.0]);
}

#[test]
fn pause_resume_objects_and_draw_transform_feedback() {
    let _ctx = gl_harness::context();
    let gen = gl!(c"glGenTransformFeedbacks": fn(i32, *mut u32));
    let bind = gl!(c"glBindTransformFeedback": fn(u32, u32));
    let is = gl!(c"glIsTransformFeedback": fn(u32) -> u8);
    let pause = gl!(c"glPauseTransformFeedback": fn());
    let resume = gl!(c"glResumeTransformFeedback": fn());
    let draw_feedback = gl!(c"glDrawTransformFeedback": fn(u32, u32));
    let get_bool = gl!(c"glGetBooleanv": fn(u32, *mut u8));
    let (p, _) = program(&["b"], GL_INTERLEAVED_ATTRIBS);
    scene(p);
    let mut tf = 0;
    let mut flag = 0u8;
    // SAFETY: locals as out-pointers; plain values.
    unsafe {
        gen(1, &mut tf);
        assert_eq!(is(tf), 0, "a name is an object once bound");
        bind(GL_TRANSFORM_FEEDBACK, tf);
        assert_eq!(is(tf), 1);
        let b = feedback_buffer(0, 8);
        begin(GL_POINTS);
        draw(GL_POINTS, 0, 3);
        pause();
        get_bool(GL_TRANSFORM_FEEDBACK_BUFFER_PAUSED, &mut flag);
        assert_eq!(flag, 1);
        draw(GL_TRIANGLES, 0, 3); // not captured, any mode
        resume();
        draw(GL_POINTS, 1, 2);
        end();
        get_bool(GL_TRANSFORM_FEEDBACK_BUFFER_ACTIVE, &mut flag);
        assert_eq!(flag, 0);
        expect(GL_NO_ERROR);
        assert_eq!(read(b, 6), vec![0.0, 1.0, 2.0, 1.0, 2.0, -1.0]);
        bind(GL_TRANSFORM_FEEDBACK, 0);
        let generated = counted(GL_PRIMITIVES_GENERATED, || draw_feedback(GL_POINTS, tf));
        expect(GL_NO_ERROR);
        assert_eq!(
            generated, 5,
            "glDrawTransformFeedback draws what was captured"
        );
        // The default object's binding is its own.
        let mut binding = 0;
        let get_i = gl!(c"glGetIntegeri_v": fn(u32, u32, *mut i32));
        get_i(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, 0, &mut binding);
        assert_eq!(binding, 0);
        bind(GL_TRANSFORM_FEEDBACK, tf);
        get_i(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, 0, &mut binding);
        assert_eq!(binding as u32, b);
        get_i(GL_TRANSFORM_FEEDBACK_BUFFER_SIZE, 0, &mut binding);
        assert_eq!(binding, 0, "glBindBufferBase binds the whole buffer");
        bind(GL_TRANSFORM_FEEDBACK, 0);
    }
}

#[test]
fn transform_feedback_errors() {
    let _ctx = gl_harness::context();
    let range = gl!(c"glBindBufferRange": fn(u32, u32, u32, isize, isize));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let get_program = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    let varying = gl!(c"glGetTransformFeedbackVarying": fn(u32, u32, i32, *mut i32, *mut i32, *mut u32, *mut c_char));
    let draw_feedback = gl!(c"glDrawTransformFeedback": fn(u32, u32));
    let (bad, linked) = program(&["nope"], GL_INTERLEAVED_ATTRIBS);
    assert!(!linked, "an unknown varying fails the link");
    let _ = bad;
    let (p, linked) = program(&["b", "a"], GL_INTERLEAVED_ATTRIBS);
    assert!(linked);
    // SAFETY: locals as out-pointers; plain values.
    unsafe {
        let mut n = 0;
        get_program(p, GL_TRANSFORM_FEEDBACK_VARYINGS, &mut n);
        assert_eq!(n, 2);
        let (mut len, mut size, mut ty) = (0, 0, 0u32);
        let mut name = [0 as c_char; 16];
        varying(p, 1, 16, &mut len, &mut size, &mut ty, name.as_mut_ptr());
        assert_eq!((len, size, ty, name[0] as u8), (1, 1, GL_FLOAT_VEC4, b'a'));
        varying(p, 2, 16, &mut len, &mut size, &mut ty, name.as_mut_ptr());
        expect(GL_INVALID_VALUE);
        begin(GL_POINTS);
        expect(GL_INVALID_OPERATION); // no program
        scene(p);
        begin(GL_POINTS);
        expect(GL_INVALID_OPERATION); // no buffer bound
        let b = feedback_buffer(0, 16);
        range(GL_TRANSFORM_FEEDBACK_BUFFER, 0, b, 2, 8);
        expect(GL_INVALID_VALUE); // misaligned
        range(GL_TRANSFORM_FEEDBACK_BUFFER, 4, b, 0, 8);
        expect(GL_INVALID_VALUE); // past GL_MAX_TRANSFORM_FEEDBACK_BUFFERS
        begin(0x7777);
        expect(GL_INVALID_ENUM);
        draw_feedback(GL_POINTS, 0);
        expect(GL_INVALID_OPERATION); // nothing captured yet
        begin(GL_POINTS);
        expect(GL_NO_ERROR);
        begin(GL_POINTS);
        expect(GL_INVALID_OPERATION); // already active
        draw(GL_TRIANGLES, 0, 3);
        expect(GL_INVALID_OPERATION); // mode mismatch
        use_program(0);
        expect(GL_INVALID_OPERATION); // program change while active
        range(GL_TRANSFORM_FEEDBACK_BUFFER, 0, b, 0, 8);
        expect(GL_INVALID_OPERATION); // binding change while active
        end();
        expect(GL_NO_ERROR);
        end();
        expect(GL_INVALID_OPERATION); // not active
    }
}

/// A geometry shader doubling each point: only the device counts what it emits, through the
/// capture's counter buffer (resumed across draws), which the primitives-written query and
/// `glDrawTransformFeedback` read back.
#[test]
fn geometry_shader_capture_is_counted_on_the_device() {
    let _ctx = gl_harness::context();
    const GS_VS: &str = "#version 150\nout float v;\nvoid main() { v = float(gl_VertexID); gl_Position = vec4(0.0); }\n";
    const GS: &str = "#version 150\nlayout(points) in;\nlayout(points, max_vertices = 2) out;\nin float v[];\nout float w;\nvoid main() {\n    for (int i = 0; i < 2; i++) {\n        w = v[0] * 10.0 + float(i);\n        gl_Position = vec4(0.0);\n        EmitVertex();\n    }\n}\n";
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let create_program = gl!(c"glCreateProgram": fn() -> u32);
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    let link = gl!(c"glLinkProgram": fn(u32));
    let get = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    let tfv = gl!(c"glTransformFeedbackVaryings": fn(u32, i32, *const *const c_char, u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let enable = gl!(c"glEnable": fn(u32));
    let draw_feedback = gl!(c"glDrawTransformFeedback": fn(u32, u32));
    // SAFETY: NUL-terminated sources and names; locals as out-pointers.
    unsafe {
        let p = create_program();
        for (ty, src) in [(0x8B31, GS_VS), (0x8DD9, GS), (0x8B30, FS)] {
            let sh = create(ty);
            let c = CString::new(src).expect("no NUL");
            source(sh, 1, &c.as_ptr(), null());
            compile(sh);
            attach(p, sh);
        }
        let w = c"w".as_ptr();
        tfv(p, 1, &w, GL_INTERLEAVED_ATTRIBS);
        link(p);
        let mut ok = 0;
        get(p, 0x8B82, &mut ok);
        assert_eq!(ok, 1, "links");
        use_program(p);
        let mut vao = 0;
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        enable(GL_RASTERIZER_DISCARD);
        let b = feedback_buffer(0, 10);
        let written = counted(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, || {
            begin(GL_POINTS);
            draw(GL_POINTS, 0, 2);
            draw(GL_POINTS, 0, 1);
            end();
        });
        expect(GL_NO_ERROR);
        assert_eq!(written, 6);
        assert_eq!(read(b, 8), vec![0.0, 1.0, 10.0, 11.0, 0.0, 1.0, -1.0, -1.0]);
        // Redrawn through the same program: 6 captured vertices in, 12 points out.
        let generated = counted(GL_PRIMITIVES_GENERATED, || draw_feedback(GL_POINTS, 0));
        expect(GL_NO_ERROR);
        assert_eq!(generated, 12);
    }
}
