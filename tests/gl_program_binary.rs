//! GL_ARB_get_program_binary (and GL_OES_get_program_binary) through the C ABI: a program saved
//! with `glGetProgramBinary` loads with `glProgramBinary` into a program of another context, one
//! with no shader objects at all, and draws as the original did (pixels read back), its uniforms
//! reset to their initializers; transform-feedback varyings, attribute bindings and
//! `GL_PROGRAM_SEPARABLE` travel with it; a truncated, corrupt or foreign binary fails the
//! "link" with a log, never an error or a crash; the errors GL specifies. The validation layer
//! must stay silent.

use std::ffi::{c_char, c_void, CString};
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, context_with, expect, f, make_current_pbuffer, program_with, read_rgba};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_LINK_STATUS: u32 = 0x8B82;
const GL_ACTIVE_UNIFORMS: u32 = 0x8B86;
const GL_PROGRAM_BINARY_LENGTH: u32 = 0x8741;
const GL_NUM_PROGRAM_BINARY_FORMATS: u32 = 0x87FE;
const GL_PROGRAM_BINARY_FORMATS: u32 = 0x87FF;
const GL_PROGRAM_BINARY_RETRIEVABLE_HINT: u32 = 0x8257;
const GL_PROGRAM_SEPARABLE: u32 = 0x8258;
const GL_TRANSFORM_FEEDBACK_VARYINGS: u32 = 0x8C83;
const GL_INTERLEAVED_ATTRIBS: u32 = 0x8C8C;
const GL_TRIANGLE_STRIP: u32 = 0x0005;

/// A quad over the whole target from `gl_VertexID`, moved by `shift` (an attribute bound to
/// location 5 by the application), coloured by `colour` (an initializer: green) scaled by
/// `level`, with a captured varying.
const VS: &str = "#version 150\n\
    in float shift;\n\
    out vec4 captured;\n\
    void main() {\n\
        vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;\n\
        gl_Position = vec4(p + vec2(shift, 0.0), 0.0, 1.0);\n\
        captured = vec4(p, 7.0, 1.0);\n\
    }\n";

const FS: &str = "#version 150\n\
    uniform vec4 colour = vec4(0.0, 1.0, 0.0, 1.0);\n\
    uniform float level = 1.0;\n\
    out vec4 result;\n\
    void main() { result = colour * level; }\n";

fn program_iv(p: u32, pname: u32) -> i32 {
    let get = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    let mut v = -7;
    // SAFETY: one value into a local.
    unsafe { get(p, pname, &mut v) };
    v
}

fn program_log(p: u32) -> String {
    let get = gl!(c"glGetProgramInfoLog": fn(u32, i32, *mut i32, *mut c_char));
    let mut buf = vec![0u8; 4096];
    let mut len = 0;
    // SAFETY: `buf.len()` bytes into a local buffer.
    unsafe { get(p, buf.len() as i32, &mut len, buf.as_mut_ptr().cast()) };
    String::from_utf8_lossy(&buf[..len.max(0) as usize]).into_owned()
}

fn integers(pname: u32, n: usize) -> Vec<i32> {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = vec![-7; n + 1];
    // SAFETY: room for `n` values and a sentinel.
    unsafe { get(pname, v.as_mut_ptr()) };
    assert_eq!(v[n], -7, "glGetIntegerv(0x{pname:x}) wrote past {n} values");
    v.truncate(n);
    v
}

/// The program's binary and format (asserting no error).
fn save(p: u32) -> (Vec<u8>, u32) {
    let get = gl!(c"glGetProgramBinary": fn(u32, i32, *mut i32, *mut u32, *mut c_void));
    let len = program_iv(p, GL_PROGRAM_BINARY_LENGTH);
    assert!(len > 0, "GL_PROGRAM_BINARY_LENGTH {len}");
    let mut bytes = vec![0u8; len as usize];
    let (mut written, mut format) = (-1, 0);
    // SAFETY: `len` bytes into a local buffer, two out-values into locals.
    unsafe { get(p, len, &mut written, &mut format, bytes.as_mut_ptr().cast()) };
    expect(GL_NO_ERROR);
    assert_eq!(written, len);
    (bytes, format)
}

/// A new program loaded from `bytes`.
fn load(bytes: &[u8], format: u32) -> u32 {
    let create = gl!(c"glCreateProgram": fn() -> u32);
    let binary = gl!(c"glProgramBinary": fn(u32, u32, *const c_void, i32));
    // SAFETY: `bytes.len()` readable bytes.
    unsafe {
        let p = create();
        binary(p, format, bytes.as_ptr().cast(), bytes.len() as i32);
        p
    }
}

fn location(p: u32, name: &std::ffi::CStr) -> i32 {
    let f = gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32);
    // SAFETY: a NUL-terminated name.
    unsafe { f(p, name.as_ptr()) }
}

/// Draws the quad with `p`, `shift` at location 5 as the constant attribute value, and reads
/// the pixels at x = 4 and x = 28 of row 16.
fn draw(p: u32, shift: f32) -> ([u8; 4], [u8; 4]) {
    let use_program = gl!(c"glUseProgram": fn(u32));
    // SAFETY: a plain GL call.
    unsafe { use_program(p) };
    expect(GL_NO_ERROR);
    draw_current(shift)
}

/// [`draw`] with the current program.
fn draw_current(shift: f32) -> ([u8; 4], [u8; 4]) {
    let gen_vao = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let attrib = gl!(c"glVertexAttrib1f": fn(u32, f32));
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let mut vao = 0;
    // SAFETY: plain GL calls on the current context, out-pointer to a local.
    unsafe {
        gen_vao(1, &mut vao);
        bind_vao(vao);
        attrib(5, shift);
        clear_color(0.0, 0.0, 0.0, 0.0);
        clear(0x4000);
        draw(GL_TRIANGLE_STRIP, 0, 4);
    }
    expect(GL_NO_ERROR);
    let px = |x| {
        let v = read_rgba(x, 16, 1, 1);
        [v[0], v[1], v[2], v[3]]
    };
    (px(4), px(28))
}

fn bound_program() -> u32 {
    let bind = gl!(c"glBindAttribLocation": fn(u32, u32, *const c_char));
    let varyings = gl!(c"glTransformFeedbackVaryings": fn(u32, i32, *const *const c_char, u32));
    program_with(VS, FS, |p| {
        let name = CString::new("captured").expect("no NUL");
        let names = [name.as_ptr()];
        // SAFETY: NUL-terminated names.
        unsafe {
            bind(p, 5, c"shift".as_ptr());
            varyings(p, 1, names.as_ptr(), GL_INTERLEAVED_ATTRIBS);
        }
    })
}

#[test]
fn a_binary_draws_in_another_context_without_shaders() {
    let _ctx = context();
    let ext = gl!(c"glGetStringi": fn(u32, u32) -> *const c_char);
    let count = integers(0x821D, 1)[0] as u32; // GL_NUM_EXTENSIONS
                                               // SAFETY: indices below GL_NUM_EXTENSIONS give NUL-terminated strings.
    let offered = (0..count).any(|i| unsafe {
        std::ffi::CStr::from_ptr(ext(0x1F03, i)).to_bytes() == b"GL_ARB_get_program_binary"
    });
    assert!(offered, "GL_ARB_get_program_binary is offered");
    assert_eq!(integers(GL_NUM_PROGRAM_BINARY_FORMATS, 1), [1]);
    let formats = integers(GL_PROGRAM_BINARY_FORMATS, 1);

    let p = bound_program();
    let uniform4f = gl!(c"glUniform4f": fn(i32, f32, f32, f32, f32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    // SAFETY: plain GL calls.
    unsafe {
        use_program(p);
        uniform4f(location(p, c"colour"), 1.0, 0.0, 0.0, 1.0);
    }
    // The original: red (the value set), shifted right by 1 (half the target).
    assert_eq!(draw(p, 1.0), ([0, 0, 0, 0], [255, 0, 0, 255]));
    let (bytes, format) = save(p);
    assert_eq!(
        format as i32, formats[0],
        "the format GL_PROGRAM_BINARY_FORMATS lists"
    );
    let again = save(p);
    assert_eq!(again.0, bytes, "one program, one binary");

    // A fresh context, not sharing with the first, where no shader was ever compiled.
    make_current_pbuffer();
    let q = load(&bytes, format);
    expect(GL_NO_ERROR);
    assert_eq!(program_iv(q, GL_LINK_STATUS), 1, "{}", program_log(q));
    assert_eq!(program_iv(q, GL_ACTIVE_UNIFORMS), 2);
    assert_eq!(program_iv(q, GL_TRANSFORM_FEEDBACK_VARYINGS), 1);
    let get_attrib = gl!(c"glGetAttribLocation": fn(u32, *const c_char) -> i32);
    // SAFETY: a NUL-terminated name.
    assert_eq!(unsafe { get_attrib(q, c"shift".as_ptr()) }, 5);
    // Uniforms start at their initializers (green), not at the values the original had.
    assert_eq!(draw(q, 1.0), ([0, 0, 0, 0], [0, 255, 0, 255]));
    let uniform1f = gl!(c"glUniform1f": fn(i32, f32));
    // SAFETY: a plain GL call on the current program.
    unsafe { uniform1f(location(q, c"level"), 0.0) };
    assert_eq!(draw(q, -1.0), ([0, 0, 0, 0], [0, 0, 0, 0]));
    // SAFETY: as above.
    unsafe { uniform1f(location(q, c"level"), 1.0) };
    assert_eq!(draw(q, -1.0), ([0, 255, 0, 255], [0, 0, 0, 0]));
    // The binary of a loaded program loads too.
    let (again, _) = save(q);
    let r = load(&again, format);
    assert_eq!(program_iv(r, GL_LINK_STATUS), 1, "{}", program_log(r));
}

#[test]
fn corrupt_truncated_and_foreign_binaries_fail_the_link_with_a_log() {
    let _ctx = context();
    let p = bound_program();
    let (bytes, format) = save(p);
    let mut broken: Vec<(String, Vec<u8>)> = vec![
        ("empty".into(), Vec::new()),
        ("an ELF file".into(), b"\x7fELF\x02\x01\x01".to_vec()),
    ];
    for n in [1, 4, 8, 40, bytes.len() / 2, bytes.len() - 1] {
        broken.push((format!("the first {n} bytes"), bytes[..n].to_vec()));
    }
    let mut longer = bytes.clone();
    longer.extend_from_slice(&[0; 3]);
    broken.push(("three bytes more".into(), longer));
    // Every byte of the header, then every 37th of the payload, one bit flipped.
    for i in (0..64).chain((64..bytes.len()).step_by(37)) {
        let mut b = bytes.clone();
        b[i] ^= 0x10;
        broken.push((format!("byte {i} flipped"), b));
    }
    for (what, b) in &broken {
        let q = load(b, format);
        expect(GL_NO_ERROR);
        assert_eq!(program_iv(q, GL_LINK_STATUS), 0, "{what}");
        let log = program_log(q);
        assert!(log.starts_with("ERROR: glProgramBinary: "), "{what}: {log}");
        assert_eq!(program_iv(q, GL_PROGRAM_BINARY_LENGTH), 0, "{what}");
    }
    // A failed load of the current program keeps its executable in use (as a failed link).
    let q = load(&bytes, format);
    assert_eq!(draw(q, 0.0), ([0, 255, 0, 255], [0, 255, 0, 255]));
    let binary = gl!(c"glProgramBinary": fn(u32, u32, *const c_void, i32));
    // SAFETY: three readable bytes.
    unsafe { binary(q, format, b"bad".as_ptr().cast(), 3) };
    expect(GL_NO_ERROR);
    assert_eq!(program_iv(q, GL_LINK_STATUS), 0);
    assert_eq!(draw_current(0.0), ([0, 255, 0, 255], [0, 255, 0, 255]));
}

#[test]
fn the_errors_gl_specifies() {
    let _ctx = context();
    let get = gl!(c"glGetProgramBinary": fn(u32, i32, *mut i32, *mut u32, *mut c_void));
    let binary = gl!(c"glProgramBinary": fn(u32, u32, *const c_void, i32));
    let create = gl!(c"glCreateProgram": fn() -> u32);
    let parameter = gl!(c"glProgramParameteri": fn(u32, u32, i32));
    let p = bound_program();
    let (bytes, format) = save(p);
    let mut buf = vec![0u8; bytes.len()];
    let (mut len, mut fmt) = (-1, 0);
    // SAFETY: every buffer holds what the calls are told; NULL pointers where GL allows them.
    unsafe {
        // Not linked.
        let unlinked = create();
        get(
            unlinked,
            1 << 20,
            &mut len,
            &mut fmt,
            buf.as_mut_ptr().cast(),
        );
        expect(GL_INVALID_OPERATION);
        assert_eq!((len, fmt), (-1, 0), "nothing written on an error");
        // Too small, negative.
        get(
            p,
            bytes.len() as i32 - 1,
            &mut len,
            &mut fmt,
            buf.as_mut_ptr().cast(),
        );
        expect(GL_INVALID_OPERATION);
        get(p, -1, &mut len, &mut fmt, buf.as_mut_ptr().cast());
        expect(GL_INVALID_VALUE);
        // Not a program.
        get(0xDEAD, 1 << 20, &mut len, &mut fmt, buf.as_mut_ptr().cast());
        expect(GL_INVALID_VALUE);
        binary(0xDEAD, format, bytes.as_ptr().cast(), bytes.len() as i32);
        expect(GL_INVALID_VALUE);
        // A format ArenaGL does not have; a negative length.
        binary(
            unlinked,
            format ^ 1,
            bytes.as_ptr().cast(),
            bytes.len() as i32,
        );
        expect(GL_INVALID_ENUM);
        binary(unlinked, format, bytes.as_ptr().cast(), -1);
        expect(GL_INVALID_VALUE);
        assert_eq!(program_iv(unlinked, GL_LINK_STATUS), 0);
        // The hint: it takes effect at the next link; TRUE or FALSE only.
        parameter(p, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, 1);
        expect(GL_NO_ERROR);
        assert_eq!(program_iv(p, GL_PROGRAM_BINARY_RETRIEVABLE_HINT), 0);
        gl!(c"glLinkProgram": fn(u32))(p);
        assert_eq!(program_iv(p, GL_PROGRAM_BINARY_RETRIEVABLE_HINT), 1);
        parameter(p, GL_PROGRAM_BINARY_RETRIEVABLE_HINT, 7);
        expect(GL_INVALID_VALUE);
        parameter(p, GL_PROGRAM_BINARY_LENGTH, 0);
        expect(GL_INVALID_ENUM);
        // A binary with a NULL pointer is an empty one: a failed load.
        binary(unlinked, format, null(), 0);
        expect(GL_NO_ERROR);
        assert_eq!(program_iv(unlinked, GL_LINK_STATUS), 0);
    }
}

#[test]
fn a_separable_program_stays_separable() {
    let _ctx = context();
    let p = program_with(VS, FS, |p| {
        let parameter = gl!(c"glProgramParameteri": fn(u32, u32, i32));
        // SAFETY: a plain GL call.
        unsafe { parameter(p, GL_PROGRAM_SEPARABLE, 1) };
    });
    let (bytes, format) = save(p);
    let q = load(&bytes, format);
    assert_eq!(program_iv(q, GL_LINK_STATUS), 1, "{}", program_log(q));
    assert_eq!(program_iv(q, GL_PROGRAM_SEPARABLE), 1);
    let gen = gl!(c"glGenProgramPipelines": fn(i32, *mut u32));
    let stages = gl!(c"glUseProgramStages": fn(u32, u32, u32));
    let mut pipe = 0;
    // SAFETY: plain GL calls, out-pointer to a local.
    unsafe {
        gen(1, &mut pipe);
        stages(pipe, 0x3, q); // GL_VERTEX_SHADER_BIT | GL_FRAGMENT_SHADER_BIT
    }
    expect(GL_NO_ERROR);
}

#[test]
fn es3_contexts_save_and_load_binaries() {
    let _ctx = context_with(0x30A0, 0x40, &[0x3098, 3, 0x3038]); // OpenGL ES 3.0
    let vs = "#version 300 es\n\
        void main() {\n\
            vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;\n\
            gl_Position = vec4(p, 0.0, 1.0);\n\
        }\n";
    let fs = "#version 300 es\n\
        precision mediump float;\n\
        uniform vec4 colour;\n\
        out vec4 result;\n\
        void main() { result = colour + vec4(0.0, 0.0, 1.0, 1.0); }\n";
    assert_eq!(integers(GL_NUM_PROGRAM_BINARY_FORMATS, 1), [1]);
    let p = program_with(vs, fs, |_| {});
    let (bytes, format) = save(p);
    let q = load(&bytes, format);
    expect(GL_NO_ERROR);
    assert_eq!(program_iv(q, GL_LINK_STATUS), 1, "{}", program_log(q));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let clear = gl!(c"glClear": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: plain GL calls on the current context (ES draws without a vertex array).
    unsafe {
        use_program(q);
        clear(0x4000);
        draw(GL_TRIANGLE_STRIP, 0, 4);
    }
    expect(GL_NO_ERROR);
    assert_eq!(read_rgba(16, 16, 1, 1), [0, 0, 255, 255]);
}

/// Writes `index * scale` into element `gl_GlobalInvocationID.x` of the storage block at binding
/// 1 (`scale` starts at 3, its initializer).
const FILL: &str = "#version 330\n#extension GL_ARB_compute_shader : require\n\
    #extension GL_ARB_shader_storage_buffer_object : require\n\
    layout(local_size_x = 4) in;\n\
    layout(std430, binding = 1) buffer Out { uint values[]; };\n\
    uniform uint scale = 3u;\n\
    void main() { uint i = gl_GlobalInvocationID.x; values[i] = i * scale; }\n";

#[test]
fn a_compute_binary_dispatches_as_its_program() {
    let _ctx = context();
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let create_program = gl!(c"glCreateProgram": fn() -> u32);
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    let link = gl!(c"glLinkProgram": fn(u32));
    let src = CString::new(FILL).expect("no NUL");
    // SAFETY: a NUL-terminated source, lengths NULL.
    let p = unsafe {
        let s = create(0x91B9); // GL_COMPUTE_SHADER
        source(s, 1, &src.as_ptr(), null());
        compile(s);
        let p = create_program();
        attach(p, s);
        link(p);
        p
    };
    assert_eq!(program_iv(p, GL_LINK_STATUS), 1, "{}", program_log(p));
    let (bytes, format) = save(p);
    make_current_pbuffer();
    let q = load(&bytes, format);
    assert_eq!(program_iv(q, GL_LINK_STATUS), 1, "{}", program_log(q));
    let get_program = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    let mut size = [0i32; 3];
    // SAFETY: GL_COMPUTE_WORK_GROUP_SIZE writes three integers.
    unsafe { get_program(q, 0x8267, size.as_mut_ptr()) };
    assert_eq!(size, [4, 1, 1]);
    let gen = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let bind_base = gl!(c"glBindBufferBase": fn(u32, u32, u32));
    let data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let dispatch = gl!(c"glDispatchCompute": fn(u32, u32, u32));
    let get = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut c_void));
    let mut out = [0u32; 8];
    let mut b = 0;
    // SAFETY: 32 bytes of buffer data and of `out`; the out-pointer is a local.
    unsafe {
        gen(1, &mut b);
        bind(0x90D2, b); // GL_SHADER_STORAGE_BUFFER
        data(0x90D2, 32, [0xABu8; 32].as_ptr().cast(), 0x88E8);
        bind_base(0x90D2, 1, b);
        use_program(q);
        dispatch(2, 1, 1);
        get(0x90D2, 0, 32, out.as_mut_ptr().cast());
    }
    expect(GL_NO_ERROR);
    assert_eq!(out, [0, 3, 6, 9, 12, 15, 18, 21]);
}
