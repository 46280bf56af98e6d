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

const GL_MAX_VERTEX_ATTRIBS: u32 = 0x8869;
const GL_MAX_VERTEX_ATTRIB_BINDINGS: u32 = 0x82DA;
const GL_INVALID_VALUE: u32 = 0x0501;

/// Program `p`'s info log.
fn program_log(p: u32) -> String {
    let log = gl!(c"glGetProgramInfoLog": fn(u32, i32, *mut i32, *mut std::ffi::c_char));
    let mut buf = vec![0u8; 4096];
    let mut len = 0;
    // SAFETY: a 4096-byte buffer and a local length.
    unsafe { log(p, 4096, &mut len, buf.as_mut_ptr().cast()) };
    String::from_utf8_lossy(&buf[..len.max(0) as usize]).into_owned()
}

fn get_integer(pname: u32) -> i32 {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = 0;
    // SAFETY: one integer into a local.
    unsafe { get(pname, &mut v) };
    v
}

/// A vertex shader reading float inputs `a1`…`a{n-1}` at locations 1…n-1 (`pos` at 0), green
/// when input `i` holds `i`.
fn many_inputs_vs(n: u32) -> String {
    let mut s = String::from("#version 330\nlayout(location = 0) in vec2 pos;\n");
    for i in 1..n {
        s.push_str(&format!("layout(location = {i}) in float a{i};\n"));
    }
    s.push_str("out vec4 color;\nvoid main() {\n    gl_Position = vec4(pos, 0.0, 1.0);\n    bool ok = true;\n");
    for i in 1..n {
        s.push_str(&format!("    ok = ok && a{i} == {i}.0;\n"));
    }
    s.push_str("    color = ok ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);\n}\n");
    s
}

/// GL_MAX_VERTEX_ATTRIBS is 32 on a device with 32 vertex input attributes (lavapipe): a
/// program with 32 generic inputs links, and each reads its own array (odd locations) or
/// current value (even ones); index 32 is `GL_INVALID_VALUE`.
#[test]
fn thirty_two_generic_attributes_each_read_their_own_value() {
    let _ctx = gl_harness::context();
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    let attrib1f = gl!(c"glVertexAttrib1f": fn(u32, f32));
    let divisor = gl!(c"glVertexAttribDivisor": fn(u32, u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let max = get_integer(GL_MAX_VERTEX_ATTRIBS);
    assert_eq!(max, 32, "GL_MAX_VERTEX_ATTRIBS");
    assert!(get_integer(GL_MAX_VERTEX_ATTRIB_BINDINGS) >= max);
    let (p, linked) = gl_harness::try_program_with(&many_inputs_vs(32), PASS_FS, |_| {});
    assert!(linked, "{}", program_log(p));
    // Element i of the buffer is the float i: array i starts there, with a divisor of 1 so all
    // four vertices (one instance) read that element.
    let values: Vec<u8> = (0..32).flat_map(|i| (i as f32).to_ne_bytes()).collect();
    setup(&values);
    // SAFETY: offsets into the bound buffer (128 bytes); plain values.
    unsafe {
        for i in 1..32u32 {
            if i % 2 == 1 {
                pointer(i, 1, GL_FLOAT, 0, 0, (4 * i as usize) as *const c_void);
                enable(i);
                divisor(i, 1);
            } else {
                attrib1f(i, i as f32);
            }
        }
        use_program(p);
    }
    draw();
    expect(GL_NO_ERROR);
    assert_eq!(centre(), [0, 255, 0, 255]);
    // SAFETY: plain values.
    unsafe {
        attrib1f(32, 1.0);
        expect(GL_INVALID_VALUE);
        enable(32);
        expect(GL_INVALID_VALUE);
    }
}

/// A legacy shader's `gl_Vertex` and `gl_Color` take Vulkan locations only when read, after the
/// generic ones the program uses: attribute 31 beside them draws; 32 generic inputs and
/// `gl_Color` cannot all fit and fail to link (never a wrong draw).
#[test]
fn fixed_function_inputs_fit_beside_high_generic_locations_or_fail_to_link() {
    let _ctx = gl_harness::context_profile(true);
    let bind = gl!(c"glBindAttribLocation": fn(u32, u32, *const i8));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let attrib1f = gl!(c"glVertexAttrib1f": fn(u32, f32));
    let color = gl!(c"glColor4f": fn(f32, f32, f32, f32));
    let vertex_pointer = gl!(c"glVertexPointer": fn(i32, u32, i32, *const c_void));
    let enable_client = gl!(c"glEnableClientState": fn(u32));
    let clear = gl!(c"glClear": fn(u32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    const GL_VERTEX_ARRAY: u32 = 0x8074;
    // One input bound to 31 with glBindAttribLocation, one declared at 30: glslang places
    // gl_Vertex and gl_Color after location 30, past the device's 32 unless packed.
    let vs = "#version 120\n#extension GL_ARB_explicit_attrib_location : require\nattribute float high;\nlayout(location = 30) attribute float next;\nvarying vec4 c;\nvoid main() {\n    gl_Position = gl_Vertex;\n    c = high == 31.0 && next == 30.0 ? gl_Color : vec4(1.0, 0.0, 0.0, 1.0);\n}\n";
    let fs = "#version 120\nvarying vec4 c;\nvoid main() { gl_FragColor = c; }\n";
    // SAFETY: NUL-terminated names.
    let (p, linked) =
        gl_harness::try_program_with(vs, fs, |p| unsafe { bind(p, 31, c"high".as_ptr()) });
    assert!(linked, "{}", program_log(p));
    let strip: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
    // SAFETY: a client array of 8 floats that outlives the draw; plain values.
    unsafe {
        use_program(p);
        attrib1f(31, 31.0);
        attrib1f(30, 30.0);
        color(0.0, 1.0, 0.0, 1.0);
        vertex_pointer(2, GL_FLOAT, 0, strip.as_ptr().cast());
        enable_client(GL_VERTEX_ARRAY);
        clear(GL_COLOR_BUFFER_BIT);
        draw_arrays(GL_TRIANGLE_STRIP, 0, 4);
    }
    expect(GL_NO_ERROR);
    assert_eq!(centre(), [0, 255, 0, 255]);
    // 32 generic inputs (locations 0–31) and gl_Color: 33 Vulkan locations.
    let mut full = String::from("#version 330 compatibility\n");
    for i in 0..32 {
        full.push_str(&format!("layout(location = {i}) in float g{i};\n"));
    }
    full.push_str("out vec4 c;\nvoid main() {\n    float s = 0.0;\n");
    for i in 0..32 {
        full.push_str(&format!("    s += g{i};\n"));
    }
    full.push_str("    gl_Position = vec4(s);\n    c = gl_Color;\n}\n");
    let fs = "#version 330 compatibility\nin vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n";
    let (_, linked) = gl_harness::try_program_with(&full, fs, |_| {});
    assert!(!linked, "32 generic inputs and gl_Color linked");
}

/// A `dvec4` takes two Vulkan locations: beside it, an input at GL location 31 still fits the
/// device's 32 because locations no input uses take none (`glsl::wide_inputs`).
#[test]
fn a_wide_double_input_leaves_room_for_location_31() {
    let _ctx = gl_harness::context();
    let attrib_l4d = gl!(c"glVertexAttribL4d": fn(u32, f64, f64, f64, f64));
    let attrib1f = gl!(c"glVertexAttrib1f": fn(u32, f32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let vs = "#version 330\n#extension GL_ARB_gpu_shader_fp64 : require\n#extension GL_ARB_vertex_attrib_64bit : require\nlayout(location = 0) in vec2 pos;\nlayout(location = 1) in dvec4 d;\nlayout(location = 31) in float f;\nout vec4 color;\nvoid main() {\n    gl_Position = vec4(pos, 0.0, 1.0);\n    color = d == dvec4(1.0, 2.0, 3.0, 4.0) && f == 31.0 ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);\n}\n";
    let (p, linked) = gl_harness::try_program_with(vs, PASS_FS, |_| {});
    assert!(linked, "{}", program_log(p));
    setup(&[0; 4]);
    // SAFETY: plain values.
    unsafe {
        attrib_l4d(1, 1.0, 2.0, 3.0, 4.0);
        attrib1f(31, 31.0);
        use_program(p);
    }
    draw();
    expect(GL_NO_ERROR);
    assert_eq!(centre(), [0, 255, 0, 255]);
}
