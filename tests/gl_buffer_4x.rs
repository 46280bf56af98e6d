//! Buffer-side GL 4.3–4.4 commands through the C ABI: `glClearBuffer(Sub)Data` and their
//! named twins (GL_ARB_clear_buffer_object). Results are read back with `glGetBufferSubData`;
//! the validation layer must stay silent.

use std::ffi::c_void;
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_COPY_WRITE_BUFFER: u32 = 0x8F37;
const GL_FLOAT: u32 = 0x1406;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_UNSIGNED_INT: u32 = 0x1405;
const GL_RGBA: u32 = 0x1908;
const GL_RGBA_INTEGER: u32 = 0x8D99;
const GL_RGB_INTEGER: u32 = 0x8D98;
const GL_RGBA8: u32 = 0x8058;
const GL_R16F: u32 = 0x822D;
const GL_RGB32UI: u32 = 0x8D71;
const GL_RED: u32 = 0x1903;
const GL_MAP_WRITE_BIT: u32 = 0x0002;

type ClearData = unsafe extern "C" fn(u32, u32, u32, u32, *const c_void);
type ClearSubData = unsafe extern "C" fn(u32, u32, isize, isize, u32, u32, *const c_void);

/// `len` bytes of the buffer bound to `target`, from 0.
fn contents(target: u32, len: usize) -> Vec<u8> {
    let get = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut c_void));
    let mut out = vec![0u8; len];
    // SAFETY: `len` bytes into a vector of that length.
    unsafe { get(target, 0, len as isize, out.as_mut_ptr().cast()) };
    out
}

fn words(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|w| w.to_ne_bytes()).collect()
}

/// The whole buffer takes the converted element; a sub-range takes another and leaves the rest.
#[test]
fn clears_fill_the_range_with_the_converted_element() {
    let _ctx = gl_harness::context();
    let clear: ClearData = gl!(c"glClearBufferData": fn(u32, u32, u32, u32, *const c_void));
    let clear_sub: ClearSubData =
        gl!(c"glClearBufferSubData": fn(u32, u32, isize, isize, u32, u32, *const c_void));
    gl_harness::buffer_with(GL_ARRAY_BUFFER, &[0xAA; 48]);
    let rgba = [1.0f32, 0.0, 1.0, 0.0];
    // SAFETY: one (GL_RGBA, GL_FLOAT) element of four floats.
    unsafe {
        clear(
            GL_ARRAY_BUFFER,
            GL_RGBA8,
            GL_RGBA,
            GL_FLOAT,
            rgba.as_ptr().cast(),
        )
    };
    expect(GL_NO_ERROR);
    assert_eq!(contents(GL_ARRAY_BUFFER, 48), [255, 0, 255, 0].repeat(12));
    // Twelve bytes of GL_RGB32UI at 12: bytes 12–23 only.
    let value = [7u32, 8, 9];
    // SAFETY: one (GL_RGB_INTEGER, GL_UNSIGNED_INT) element of three words.
    unsafe {
        clear_sub(
            GL_ARRAY_BUFFER,
            GL_RGB32UI,
            12,
            12,
            GL_RGB_INTEGER,
            GL_UNSIGNED_INT,
            value.as_ptr().cast(),
        )
    };
    expect(GL_NO_ERROR);
    let got = contents(GL_ARRAY_BUFFER, 48);
    assert_eq!(&got[..12], [255, 0, 255, 0].repeat(3).as_slice());
    assert_eq!(&got[12..24], words(&value).as_slice());
    assert_eq!(&got[24..], [255, 0, 255, 0].repeat(6).as_slice());
    // A half float from a float; a null value is zeros.
    let one = 1.0f32;
    // SAFETY: one (GL_RED, GL_FLOAT) element; a null value.
    unsafe {
        clear_sub(
            GL_ARRAY_BUFFER,
            GL_R16F,
            0,
            4,
            GL_RED,
            GL_FLOAT,
            (&one as *const f32).cast(),
        );
        clear_sub(GL_ARRAY_BUFFER, GL_RGBA8, 44, 4, GL_RGBA, GL_FLOAT, null());
    }
    expect(GL_NO_ERROR);
    let got = contents(GL_ARRAY_BUFFER, 48);
    assert_eq!(&got[..4], [0x00, 0x3C, 0x00, 0x3C].as_slice());
    assert_eq!(&got[44..], [0, 0, 0, 0].as_slice());
}

/// `glClearNamedBuffer(Sub)Data` clear the named buffer without binding it.
#[test]
fn named_clears_reach_the_named_buffer() {
    let _ctx = gl_harness::context();
    let create = gl!(c"glCreateBuffers": fn(i32, *mut u32));
    let storage = gl!(c"glNamedBufferStorage": fn(u32, isize, *const c_void, u32));
    let clear = gl!(c"glClearNamedBufferData": fn(u32, u32, u32, u32, *const c_void));
    let clear_sub =
        gl!(c"glClearNamedBufferSubData": fn(u32, u32, isize, isize, u32, u32, *const c_void));
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let mut b = 0;
    let value = [1u32, 2, 3, 4];
    let zero = [0u32; 4];
    // SAFETY: an out-pointer to a local; elements of four words.
    unsafe {
        create(1, &mut b);
        // Immutable storage without GL_DYNAMIC_STORAGE_BIT may still be cleared.
        storage(b, 32, null(), 0);
        clear(
            b,
            0x8D70,
            GL_RGBA_INTEGER,
            GL_UNSIGNED_INT,
            value.as_ptr().cast(),
        );
        clear_sub(
            b,
            0x8D70,
            16,
            16,
            GL_RGBA_INTEGER,
            GL_UNSIGNED_INT,
            zero.as_ptr().cast(),
        );
        expect(GL_NO_ERROR);
        bind(GL_COPY_WRITE_BUFFER, b);
    }
    assert_eq!(
        contents(GL_COPY_WRITE_BUFFER, 32),
        [words(&value), words(&zero)].concat()
    );
    // SAFETY: a name that is no buffer.
    unsafe { clear(b + 100, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, null()) };
    expect(GL_INVALID_OPERATION);
}

/// Every error GL 4.6 §6.5.2 names, each leaving the buffer as it was.
#[test]
fn bad_clears_are_the_errors_gl_names() {
    let _ctx = gl_harness::context();
    let clear: ClearData = gl!(c"glClearBufferData": fn(u32, u32, u32, u32, *const c_void));
    let clear_sub: ClearSubData =
        gl!(c"glClearBufferSubData": fn(u32, u32, isize, isize, u32, u32, *const c_void));
    let map = gl!(c"glMapBufferRange": fn(u32, isize, isize, u32) -> *mut c_void);
    let unmap = gl!(c"glUnmapBuffer": fn(u32) -> u8);
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let rgba = [0.5f32; 4];
    let v = rgba.as_ptr().cast::<c_void>();
    gl_harness::buffer_with(GL_ARRAY_BUFFER, &[9; 16]);
    // (what, error, target, internal format, client format, range: None for the whole)
    let cases = [
        ("target", GL_INVALID_ENUM, 0x1234, GL_RGBA8, GL_RGBA, None),
        (
            "internal format",
            GL_INVALID_ENUM,
            GL_ARRAY_BUFFER,
            GL_RGBA,
            GL_RGBA,
            None,
        ),
        (
            "integer mix",
            GL_INVALID_OPERATION,
            GL_ARRAY_BUFFER,
            GL_RGBA8,
            GL_RGBA_INTEGER,
            None,
        ),
        (
            "misaligned offset",
            GL_INVALID_VALUE,
            GL_ARRAY_BUFFER,
            GL_RGBA8,
            GL_RGBA,
            Some((2, 4)),
        ),
        (
            "past the end",
            GL_INVALID_VALUE,
            GL_ARRAY_BUFFER,
            GL_RGBA8,
            GL_RGBA,
            Some((12, 8)),
        ),
        (
            "negative size",
            GL_INVALID_VALUE,
            GL_ARRAY_BUFFER,
            GL_RGBA8,
            GL_RGBA,
            Some((0, -4)),
        ),
    ];
    for (what, error, target, internal, format, range) in cases {
        let ty = if format == GL_RGBA {
            GL_FLOAT
        } else {
            GL_UNSIGNED_BYTE
        };
        // SAFETY: `v` is one element of (format, ty): four floats, or more than four bytes.
        unsafe {
            match range {
                None => clear(target, internal, format, ty, v),
                Some((offset, size)) => clear_sub(target, internal, offset, size, format, ty, v),
            }
        }
        assert_eq!(gl_harness::error(), error, "{what}");
    }
    assert_eq!(contents(GL_ARRAY_BUFFER, 16), vec![9; 16]);
    // SAFETY: a mapping released before the test ends; `v` is one element.
    unsafe {
        // Bytes 0–7 mapped: a clear touching them fails, one of bytes 8–15 does not.
        map(GL_ARRAY_BUFFER, 0, 8, GL_MAP_WRITE_BIT);
        clear(GL_ARRAY_BUFFER, GL_RGBA8, GL_RGBA, GL_FLOAT, v);
        expect(GL_INVALID_OPERATION);
        clear_sub(GL_ARRAY_BUFFER, GL_RGBA8, 4, 8, GL_RGBA, GL_FLOAT, v);
        expect(GL_INVALID_OPERATION);
        clear_sub(GL_ARRAY_BUFFER, GL_RGBA8, 8, 8, GL_RGBA, GL_FLOAT, v);
        expect(GL_NO_ERROR);
        unmap(GL_ARRAY_BUFFER);
        assert_eq!(
            contents(GL_ARRAY_BUFFER, 16)[8..],
            [128, 128, 128, 128].repeat(2)
        );
        bind(GL_ARRAY_BUFFER, 0);
        clear(GL_ARRAY_BUFFER, GL_RGBA8, GL_RGBA, GL_FLOAT, v);
        expect(GL_INVALID_VALUE);
    }
}

const GL_QUERY_BUFFER: u32 = 0x9192;
const GL_QUERY_BUFFER_BINDING: u32 = 0x9193;
const GL_QUERY_RESULT: u32 = 0x8866;
const GL_QUERY_RESULT_AVAILABLE: u32 = 0x8867;
const GL_QUERY_RESULT_NO_WAIT: u32 = 0x9194;
const GL_SAMPLES_PASSED: u32 = 0x8914;

/// An occlusion query over a clear-free draw of the whole 32×32 drawable: 1024 samples.
fn occlusion_query() -> u32 {
    let gen = gl!(c"glGenQueries": fn(i32, *mut u32));
    let begin = gl!(c"glBeginQuery": fn(u32, u32));
    let end = gl!(c"glEndQuery": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let vs = "#version 330\nvoid main() {\n    vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 4.0 - 1.0;\n    gl_Position = vec4(p, 0.0, 1.0);\n}\n";
    let fs = "#version 330\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n";
    let p = gl_harness::program(vs, fs);
    let mut q = 0;
    let mut vao = 0;
    // SAFETY: out-pointers to locals; plain values.
    unsafe {
        gen(1, &mut q);
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        use_program(p);
        begin(GL_SAMPLES_PASSED, q);
        draw(4, 0, 3);
        end(GL_SAMPLES_PASSED);
    }
    q
}

/// With a buffer bound to `GL_QUERY_BUFFER`, `glGetQueryObject*v`'s pointer is an offset into
/// it: the result lands there (32 or 64 bits as the entry point's type), and
/// `glGetQueryBufferObject*v` names the buffer itself; nothing is written through the pointer.
#[test]
fn query_results_land_in_the_query_buffer() {
    let _ctx = gl_harness::context();
    let get_uiv = gl!(c"glGetQueryObjectuiv": fn(u32, u32, *mut u32));
    let get_ui64v = gl!(c"glGetQueryObjectui64v": fn(u32, u32, *mut u64));
    let buffer_ui64v = gl!(c"glGetQueryBufferObjectui64v": fn(u32, u32, u32, isize));
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let q = occlusion_query();
    let b = gl_harness::buffer_with(GL_QUERY_BUFFER, &[0xFF; 32]);
    let mut bound = 0;
    // SAFETY: with a query buffer bound the pointers are offsets, never dereferenced; the
    // glGetIntegerv out-pointer is a local.
    unsafe {
        get(GL_QUERY_BUFFER_BINDING, &mut bound);
        get_uiv(q, GL_QUERY_RESULT, std::ptr::without_provenance_mut(4));
        get_ui64v(
            q,
            GL_QUERY_RESULT_AVAILABLE,
            std::ptr::without_provenance_mut(8),
        );
        buffer_ui64v(q, b, GL_QUERY_RESULT_NO_WAIT, 16);
    }
    expect(GL_NO_ERROR);
    assert_eq!(bound as u32, b);
    let got = contents(GL_QUERY_BUFFER, 32);
    assert_eq!(
        &got[..4],
        [0xFF; 4].as_slice(),
        "bytes before the result kept"
    );
    assert_eq!(&got[4..8], 1024u32.to_ne_bytes().as_slice());
    assert_eq!(&got[8..16], 1u64.to_ne_bytes().as_slice());
    assert_eq!(&got[16..24], 1024u64.to_ne_bytes().as_slice());
    // A result past the end, and a negative offset.
    // SAFETY: offsets, as above.
    unsafe {
        get_ui64v(q, GL_QUERY_RESULT, std::ptr::without_provenance_mut(28));
        expect(GL_INVALID_OPERATION);
        buffer_ui64v(q, b, GL_QUERY_RESULT, -8);
        expect(GL_INVALID_VALUE);
        // Unbound: the pointer is the client's again.
        bind(GL_QUERY_BUFFER, 0);
        let mut v = 0u32;
        get_uiv(q, GL_QUERY_RESULT_NO_WAIT, &mut v);
        expect(GL_NO_ERROR);
        assert_eq!(v, 1024);
    }
}

/// GL_ARB_robust_buffer_access_behavior: indices far past the vertex buffer read zeros or
/// values inside it (`robustBufferAccess`), never other memory, and the draw completes.
#[test]
fn out_of_bounds_vertex_fetch_reads_zero_or_in_bounds_values() {
    let _ctx = gl_harness::context();
    let get_stringi = gl!(c"glGetStringi": fn(u32, u32) -> *const std::ffi::c_char);
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let draw_elements = gl!(c"glDrawElements": fn(u32, i32, u32, *const c_void));
    let mut n = 0;
    // SAFETY: an out-pointer to a local; glGetStringi's strings are NUL-terminated statics.
    let offered = unsafe {
        get(0x821D, &mut n); // GL_NUM_EXTENSIONS
        (0..n as u32).any(|i| {
            std::ffi::CStr::from_ptr(get_stringi(0x1F03, i)).to_bytes()
                == b"GL_ARB_robust_buffer_access_behavior"
        })
    };
    assert!(offered, "GL_ARB_robust_buffer_access_behavior not offered");
    let vs = "#version 330\nlayout(location = 0) in vec4 color;\nout vec4 c;\nvoid main() {\n    vec2 p[3] = vec2[3](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));\n    gl_Position = vec4(p[gl_VertexID % 3], 0.0, 1.0);\n    c = color;\n}\n";
    let fs = "#version 330\nin vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n";
    let p = gl_harness::program(vs, fs);
    let green: Vec<u8> = [0.0f32, 1.0, 0.0, 1.0]
        .repeat(3)
        .iter()
        .flat_map(|f| f.to_ne_bytes())
        .collect();
    // Three indices 48 MiB past the 48-byte colour array.
    let indices: Vec<u8> = [3_000_000u32, 3_000_001, 3_000_002]
        .iter()
        .flat_map(|i| i.to_ne_bytes())
        .collect();
    // SAFETY: out-pointers to locals; offsets into the bound buffers.
    unsafe {
        let mut vao = 0;
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        gl_harness::buffer_with(GL_ARRAY_BUFFER, &green);
        pointer(0, 4, GL_FLOAT, 0, 0, null());
        enable(0);
        gl_harness::buffer_with(0x8893, &indices); // GL_ELEMENT_ARRAY_BUFFER
        use_program(p);
        clear_color(0.0, 0.0, 1.0, 1.0);
        clear(0x4000);
        draw_elements(4, 3, GL_UNSIGNED_INT, null());
    }
    expect(GL_NO_ERROR);
    let px = gl_harness::read_rgba(16, 16, 1, 1);
    let allowed: [&[u8]; 3] = [&[0, 255, 0, 255], &[0, 0, 0, 0], &[0, 0, 0, 255]];
    assert!(allowed.contains(&px.as_slice()), "read {px:?}");
}
