//! 64-bit shader types through the C ABI (GL_ARB_gpu_shader_fp64, GL_ARB_vertex_attrib_64bit,
//! GL_ARB_gpu_shader_int64): double and 64-bit integer uniforms, `glVertexAttribLPointer`
//! arrays and `glVertexAttribL*` current values, each checked in the shader at full precision
//! (values a float cannot hold) and seen as a green pixel; the errors of mismatched setters; the
//! queries. The validation layer must stay silent.

use std::ffi::{c_void, CStr};
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
const GL_STATIC_DRAW: u32 = 0x88E4;
const GL_FLOAT: u32 = 0x1406;
const GL_DOUBLE: u32 = 0x140A;
const GL_TRIANGLE_STRIP: u32 = 5;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_VERTEX_ATTRIB_ARRAY_LONG: u32 = 0x874E;
const GL_CURRENT_VERTEX_ATTRIB: u32 = 0x8626;
const GL_EXTENSIONS: u32 = 0x1F03;
const GL_NUM_EXTENSIONS: u32 = 0x821D;

/// 1 + 2⁻⁴⁰: a float reads it as 1.
const FINE: f64 = 1.0 + 1.0 / (1u64 << 40) as f64;

/// Whether the context advertises `name`.
fn has_extension(name: &str) -> bool {
    let get_integer = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let get_stringi = gl!(c"glGetStringi": fn(u32, u32) -> *const u8);
    let mut n = 0;
    // SAFETY: the out-pointer is a local; glGetStringi returns NUL-terminated strings.
    unsafe {
        get_integer(GL_NUM_EXTENSIONS, &mut n);
        (0..n as u32).any(|i| {
            CStr::from_ptr(get_stringi(GL_EXTENSIONS, i).cast()).to_bytes() == name.as_bytes()
        })
    }
}

/// Clears to blue, draws a window-filling strip with `program`, and reads the centre pixel.
fn draw_centre(program: u32) -> [u8; 4] {
    let use_program = gl!(c"glUseProgram": fn(u32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let draw_arrays = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: plain values.
    unsafe {
        use_program(program);
        clear_color(0.0, 0.0, 1.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
        draw_arrays(GL_TRIANGLE_STRIP, 0, 4);
    }
    expect(GL_NO_ERROR);
    let px = gl_harness::read_rgba(16, 16, 1, 1);
    [px[0], px[1], px[2], px[3]]
}

/// A bound VAO whose buffer holds `bytes` (bound to `GL_ARRAY_BUFFER`).
fn vao_with(bytes: &[u8]) {
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let gen_buffers = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind_buffer = gl!(c"glBindBuffer": fn(u32, u32));
    let buffer_data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    // SAFETY: the data pointer holds `bytes.len()` bytes; out-pointers are locals.
    unsafe {
        let (mut vao, mut buffer) = (0, 0);
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        gen_buffers(1, &mut buffer);
        bind_buffer(GL_ARRAY_BUFFER, buffer);
        buffer_data(
            GL_ARRAY_BUFFER,
            bytes.len() as isize,
            bytes.as_ptr().cast(),
            GL_STATIC_DRAW,
        );
    }
}

fn location(program: u32, name: &CStr) -> i32 {
    let get = gl!(c"glGetUniformLocation": fn(u32, *const i8) -> i32);
    // SAFETY: a NUL-terminated name.
    unsafe { get(program, name.as_ptr()) }
}

/// Two `dvec3` inputs at consecutive GLSL locations (two Vulkan locations each), a `double`
/// input fed by its current value, and double uniforms: scalar, vector, matrix.
const FP64_VS: &str = "#version 150
#extension GL_ARB_gpu_shader_fp64 : require
#extension GL_ARB_vertex_attrib_64bit : require
#extension GL_ARB_explicit_attrib_location : require
layout(location = 0) in dvec3 pos;
layout(location = 1) in dvec3 fine;
layout(location = 2) in double current;
uniform double d;
uniform dvec3 dv;
uniform dmat2x3 dm;
uniform float f;
flat out int ok;
void main() {
    gl_Position = vec4(vec2(pos.xy), 0.0, 1.0);
    double e = 1.0lf + 1.0lf / 1099511627776.0lf;
    ok = int(fine == dvec3(e, 2.0lf * e, pos.z) && current == e && d == e
        && dv == dvec3(e, -e, 3.0lf) && dm[1] == dvec3(4.0lf, e, 6.0lf) && dm[0].x == 1.0lf
        && f == 0.5);
}
";
const FP64_FS: &str = "#version 150
flat in int ok;
out vec4 frag;
void main() { frag = ok == 1 ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0); }
";

#[test]
fn double_uniforms_attributes_and_current_values_keep_full_precision() {
    let _ctx = gl_harness::context();
    if !has_extension("GL_ARB_gpu_shader_fp64") {
        eprintln!("no shaderFloat64 on this device: skipped");
        return;
    }
    assert!(has_extension("GL_ARB_vertex_attrib_64bit"));
    let lpointer = gl!(c"glVertexAttribLPointer": fn(u32, i32, u32, i32, *const c_void));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    let attrib_l1d = gl!(c"glVertexAttribL1d": fn(u32, f64));
    let uniform1d = gl!(c"glUniform1d": fn(i32, f64));
    let uniform3dv = gl!(c"glUniform3dv": fn(i32, i32, *const f64));
    let matrix2x3dv = gl!(c"glUniformMatrix2x3dv": fn(i32, i32, u8, *const f64));
    let uniform1f = gl!(c"glUniform1f": fn(i32, f32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    // Interleaved: pos (dvec3), fine (dvec3) per vertex.
    let corners = [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)];
    let vertices: Vec<u8> = corners
        .iter()
        .flat_map(|&(x, y)| [x, y, 0.25, FINE, 2.0 * FINE, 0.25])
        .flat_map(f64::to_ne_bytes)
        .collect();
    vao_with(&vertices);
    let p = gl_harness::program(FP64_VS, FP64_FS);
    // SAFETY: offsets into the bound buffer; pointers to locals of the sizes given.
    unsafe {
        lpointer(0, 3, GL_DOUBLE, 48, null());
        lpointer(1, 3, GL_DOUBLE, 48, 24 as *const c_void);
        enable(0);
        enable(1);
        attrib_l1d(2, FINE);
        use_program(p);
        uniform1d(location(p, c"d"), FINE);
        uniform3dv(location(p, c"dv"), 1, [FINE, -FINE, 3.0].as_ptr());
        matrix2x3dv(
            location(p, c"dm"),
            1,
            0,
            [1.0, 2.0, 3.0, 4.0, FINE, 6.0].as_ptr(),
        );
        uniform1f(location(p, c"f"), 0.5);
    }
    expect(GL_NO_ERROR);
    assert_eq!(draw_centre(p), [0, 255, 0, 255]);

    // Read back at full precision.
    let get_uniformdv = gl!(c"glGetUniformdv": fn(u32, i32, *mut f64));
    let get_attrib_ldv = gl!(c"glGetVertexAttribLdv": fn(u32, u32, *mut f64));
    let get_attribiv = gl!(c"glGetVertexAttribiv": fn(u32, u32, *mut i32));
    let mut m = [0.0f64; 6];
    let mut current = [0.0f64; 4];
    let mut long = [0i32; 2];
    // SAFETY: out-pointers are locals large enough for the values asked.
    unsafe {
        get_uniformdv(p, location(p, c"dm"), m.as_mut_ptr());
        get_attrib_ldv(2, GL_CURRENT_VERTEX_ATTRIB, current.as_mut_ptr());
        get_attribiv(0, GL_VERTEX_ATTRIB_ARRAY_LONG, &mut long[0]);
        get_attribiv(2, GL_VERTEX_ATTRIB_ARRAY_LONG, &mut long[1]);
    }
    expect(GL_NO_ERROR);
    assert_eq!(m, [1.0, 2.0, 3.0, 4.0, FINE, 6.0]);
    assert_eq!(current, [FINE, 0.0, 0.0, 1.0]);
    assert_eq!(long, [1, 0]);
}

#[test]
fn mismatched_setters_and_pointers_are_errors() {
    let _ctx = gl_harness::context();
    if !has_extension("GL_ARB_gpu_shader_fp64") {
        return;
    }
    let lpointer = gl!(c"glVertexAttribLPointer": fn(u32, i32, u32, i32, *const c_void));
    let uniform1d = gl!(c"glUniform1d": fn(i32, f64));
    let uniform2d = gl!(c"glUniform2d": fn(i32, f64, f64));
    let uniform1f = gl!(c"glUniform1f": fn(i32, f32));
    let uniform1i = gl!(c"glUniform1i": fn(i32, i32));
    let matrix2x3fv = gl!(c"glUniformMatrix2x3fv": fn(i32, i32, u8, *const f32));
    let matrix3x2dv = gl!(c"glUniformMatrix3x2dv": fn(i32, i32, u8, *const f64));
    let use_program = gl!(c"glUseProgram": fn(u32));
    vao_with(&[0; 64]);
    let p = gl_harness::program(FP64_VS, FP64_FS);
    let m = [0.0f32; 6];
    let md = [0.0f64; 6];
    // SAFETY: pointers to locals of the sizes given; offsets into the bound buffer.
    unsafe {
        use_program(p);
        uniform1f(location(p, c"d"), 1.0);
        expect(GL_INVALID_OPERATION);
        uniform1i(location(p, c"d"), 1);
        expect(GL_INVALID_OPERATION);
        uniform2d(location(p, c"d"), 1.0, 2.0);
        expect(GL_INVALID_OPERATION);
        uniform1d(location(p, c"f"), 1.0);
        expect(GL_INVALID_OPERATION);
        matrix2x3fv(location(p, c"dm"), 1, 0, m.as_ptr());
        expect(GL_INVALID_OPERATION);
        matrix3x2dv(location(p, c"dm"), 1, 0, md.as_ptr());
        expect(GL_INVALID_OPERATION);
        lpointer(0, 3, GL_FLOAT, 0, null());
        expect(GL_INVALID_ENUM);
        lpointer(0, 5, GL_DOUBLE, 0, null());
        expect(GL_INVALID_VALUE);
        lpointer(0, 0x80E1, GL_DOUBLE, 0, null()); // GL_BGRA
        expect(GL_INVALID_VALUE);
        lpointer(32, 1, GL_DOUBLE, 0, null()); // GL_MAX_VERTEX_ATTRIBS is 32 on lavapipe
        expect(GL_INVALID_VALUE);
    }
}

const INT64_FS: &str = "#version 400
#extension GL_ARB_gpu_shader_int64 : require
uniform int64_t i;
uniform u64vec2 u;
out vec4 frag;
void main() {
    bool ok = i == -5000000000L && u == u64vec2(0x123456789ABCDEF0UL, 7UL);
    frag = ok ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}
";
const PLAIN_VS: &str = "#version 150
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
";

#[test]
fn int64_uniforms_hold_values_past_32_bits() {
    let _ctx = gl_harness::context();
    if !has_extension("GL_ARB_gpu_shader_int64") {
        eprintln!("no shaderInt64 on this device: skipped");
        return;
    }
    let pointer = gl!(c"glVertexAttribPointer": fn(u32, i32, u32, u8, i32, *const c_void));
    let enable = gl!(c"glEnableVertexAttribArray": fn(u32));
    let bind_attrib = gl!(c"glBindAttribLocation": fn(u32, u32, *const i8));
    let uniform1i64 = gl!(c"glUniform1i64ARB": fn(i32, i64));
    let uniform2ui64v = gl!(c"glUniform2ui64vARB": fn(i32, i32, *const u64));
    let uniform1ui64 = gl!(c"glUniform1ui64ARB": fn(i32, u64));
    let uniform1i = gl!(c"glUniform1i": fn(i32, i32));
    let get_i64 = gl!(c"glGetUniformi64vARB": fn(u32, i32, *mut i64));
    let get_u64 = gl!(c"glGetUniformui64vARB": fn(u32, i32, *mut u64));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let strip: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
    vao_with(
        &strip
            .iter()
            .flat_map(|v| v.to_ne_bytes())
            .collect::<Vec<u8>>(),
    );
    // SAFETY: a NUL-terminated name.
    let p = gl_harness::program_with(PLAIN_VS, INT64_FS, |p| unsafe {
        bind_attrib(p, 0, c"pos".as_ptr())
    });
    let u = [0x1234_5678_9ABC_DEF0u64, 7];
    let (mut i_back, mut u_back) = (0i64, [0u64; 2]);
    // SAFETY: offsets into the bound buffer; pointers to locals of the sizes given.
    unsafe {
        pointer(0, 2, GL_FLOAT, 0, 0, null());
        enable(0);
        use_program(p);
        uniform1i64(location(p, c"i"), -5_000_000_000);
        uniform2ui64v(location(p, c"u"), 1, u.as_ptr());
        expect(GL_NO_ERROR);
        uniform1ui64(location(p, c"i"), 1);
        expect(GL_INVALID_OPERATION);
        uniform1i(location(p, c"i"), 1);
        expect(GL_INVALID_OPERATION);
        get_i64(p, location(p, c"i"), &mut i_back);
        get_u64(p, location(p, c"u"), u_back.as_mut_ptr());
    }
    expect(GL_NO_ERROR);
    assert_eq!((i_back, u_back), (-5_000_000_000, u));
    assert_eq!(draw_centre(p), [0, 255, 0, 255]);
}
