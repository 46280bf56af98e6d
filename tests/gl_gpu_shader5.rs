//! GL_ARB_gpu_shader5 through the C ABI: the extension is offered, sampler arrays are indexed
//! with a dynamically uniform index (lowered to a switch where the device cannot, silent
//! validation layer either way), and the implementation limits the extension adds are queried.
//! Pixels are read back.

use std::ffi::{c_char, c_void, CStr};

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_EXTENSIONS: u32 = 0x1F03;
const GL_NUM_EXTENSIONS: u32 = 0x821D;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_TEXTURE0: u32 = 0x84C0;
const GL_RGBA: u32 = 0x1908;
const GL_RGBA8: u32 = 0x8058;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_TEXTURE_MIN_FILTER: u32 = 0x2801;
const GL_NEAREST: i32 = 0x2600;
const GL_TRIANGLES: u32 = 4;
const GL_UNIFORM_BUFFER: u32 = 0x8A11;

const VS: &str = "#version 150\nvoid main() {\n    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n    gl_Position = vec4(p, 0.0, 1.0);\n}\n";

/// Four colours, one per texture / block of the arrays.
const COLOURS: [[u8; 4]; 4] = [
    [255, 0, 0, 255],
    [0, 255, 0, 255],
    [0, 0, 255, 255],
    [255, 255, 0, 255],
];

fn has_extension(name: &str) -> bool {
    let get_integer = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let get_stringi = gl!(c"glGetStringi": fn(u32, u32) -> *const c_char);
    let mut n = 0;
    // SAFETY: out-pointer to a local; indices below GL_NUM_EXTENSIONS give NUL-terminated strings.
    unsafe {
        get_integer(GL_NUM_EXTENSIONS, &mut n);
        (0..n as u32)
            .any(|i| CStr::from_ptr(get_stringi(GL_EXTENSIONS, i)).to_bytes() == name.as_bytes())
    }
}

/// A 1×1 RGBA8 texture of `colour` bound to unit `unit`.
fn texture_on_unit(unit: u32, colour: [u8; 4]) {
    let active = gl!(c"glActiveTexture": fn(u32));
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let parameter = gl!(c"glTexParameteri": fn(u32, u32, i32));
    // SAFETY: one RGBA texel from a local.
    unsafe {
        active(GL_TEXTURE0 + unit);
        gl_harness::new_texture(GL_TEXTURE_2D);
        image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8 as i32,
            1,
            1,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            colour.as_ptr().cast(),
        );
        parameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    }
}

/// Compiles and links `fs` with the covering-triangle vertex shader, made current with a vertex
/// array bound (core profile).
fn use_program(fs: &str) -> u32 {
    let program = gl_harness::program(VS, fs);
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let mut vao = 0;
    // SAFETY: out-pointer to a local; plain values.
    unsafe {
        use_program(program);
        gen_vaos(1, &mut vao);
        bind_vao(vao);
    }
    program
}

fn uniform_location(program: u32, name: &CStr) -> i32 {
    let location = gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32);
    // SAFETY: a NUL-terminated name.
    unsafe { location(program, name.as_ptr()) }
}

/// Draws the covering triangle with `index` in the uniform `index` and reads the centre.
fn draw_with_index(program: u32, index: i32) -> [u8; 4] {
    let uniform = gl!(c"glUniform1i": fn(i32, i32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: plain values.
    unsafe {
        uniform(uniform_location(program, c"index"), index);
        draw(GL_TRIANGLES, 0, 3);
    }
    let v = gl_harness::read_rgba(16, 16, 1, 1);
    [v[0], v[1], v[2], v[3]]
}

#[test]
fn the_extension_is_offered_with_gl_4_0() {
    let _ctx = gl_harness::context();
    assert!(has_extension("GL_ARB_gpu_shader5"));
    let get_string = gl!(c"glGetString": fn(u32) -> *const c_char);
    // SAFETY: GL_VERSION is a NUL-terminated string owned by the context.
    let version = unsafe { CStr::from_ptr(get_string(0x1F02)) }
        .to_string_lossy()
        .into_owned();
    assert!(version.starts_with("4."), "GL_VERSION {version}");
}

#[test]
fn sampler_arrays_take_a_dynamically_uniform_index() {
    let _ctx = gl_harness::context();
    const FS: &str = "#version 150\n#extension GL_ARB_gpu_shader5 : require\nuniform sampler2D s[4];\nuniform int index;\nout vec4 color;\nvoid main() {\n    color = texture(s[index], vec2(0.5));\n    if (textureSize(s[index], 0).x != 1) color = vec4(0.5);\n}\n";
    let program = use_program(FS);
    let uniform_iv = gl!(c"glUniform1iv": fn(i32, i32, *const i32));
    // SAFETY: plain values; the array holds four ints.
    unsafe {
        uniform_iv(uniform_location(program, c"s"), 4, [3, 2, 1, 0].as_ptr());
    }
    for (unit, colour) in COLOURS.iter().enumerate() {
        texture_on_unit(unit as u32, *colour);
    }
    for index in 0..4 {
        let got = draw_with_index(program, index);
        assert_eq!(
            got,
            COLOURS[3 - index as usize],
            "s[{index}] samples unit {}",
            3 - index
        );
    }
    expect(GL_NO_ERROR);
}

#[test]
fn uniform_block_arrays_take_a_dynamically_uniform_index() {
    let _ctx = gl_harness::context();
    const FS: &str = "#version 150\n#extension GL_ARB_gpu_shader5 : require\nuniform Colour { vec4 value; } blocks[4];\nuniform int index;\nout vec4 color;\nvoid main() {\n    color = blocks[index].value;\n}\n";
    let program = use_program(FS);
    let block_index = gl!(c"glGetUniformBlockIndex": fn(u32, *const c_char) -> u32);
    let block_binding = gl!(c"glUniformBlockBinding": fn(u32, u32, u32));
    let bind_base = gl!(c"glBindBufferBase": fn(u32, u32, u32));
    // SAFETY: NUL-terminated names; plain values.
    unsafe {
        for (k, name) in [c"Colour[0]", c"Colour[1]", c"Colour[2]", c"Colour[3]"]
            .iter()
            .enumerate()
        {
            block_binding(program, block_index(program, name.as_ptr()), k as u32);
            let floats: Vec<u8> = COLOURS[k]
                .iter()
                .flat_map(|&c| (f32::from(c) / 255.0).to_le_bytes())
                .collect();
            let buffer = gl_harness::buffer_with(GL_UNIFORM_BUFFER, &floats);
            bind_base(GL_UNIFORM_BUFFER, k as u32, buffer);
        }
    }
    for index in 0..4 {
        assert_eq!(
            draw_with_index(program, index),
            COLOURS[index as usize],
            "blocks[{index}]"
        );
    }
    expect(GL_NO_ERROR);
}

/// Links `vs`, `gs` and `fs`, makes the program current with a vertex array bound.
fn use_program_with_geometry(gs: &str, fs: &str) -> u32 {
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    let link = gl!(c"glLinkProgram": fn(u32));
    let get = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    let gs = std::ffi::CString::new(gs).expect("no NUL");
    let program = gl_harness::try_program_with(VS, fs, |p| {
        // SAFETY: a NUL-terminated source, length NULL.
        unsafe {
            let s = create(0x8DD9); // GL_GEOMETRY_SHADER
            source(s, 1, &gs.as_ptr(), std::ptr::null());
            compile(s);
            attach(p, s);
        }
    })
    .0;
    let mut ok = 0;
    // SAFETY: out-pointer to a local.
    unsafe {
        link(program);
        get(program, 0x8B82, &mut ok);
    }
    assert_eq!(ok, 1, "link");
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let mut vao = 0;
    // SAFETY: out-pointer to a local; plain values.
    unsafe {
        use_program(program);
        gen_vaos(1, &mut vao);
        bind_vao(vao);
    }
    program
}

fn pixel(x: i32, y: i32) -> [u8; 4] {
    let v = gl_harness::read_rgba(x, y, 1, 1);
    [v[0], v[1], v[2], v[3]]
}

fn get_int(pname: u32) -> i32 {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = -1;
    // SAFETY: out-pointer to a local.
    unsafe { get(pname, &mut v) };
    v
}

#[test]
fn geometry_invocations_each_draw_their_half() {
    let _ctx = gl_harness::context();
    const GS: &str = "#version 150\n#extension GL_ARB_gpu_shader5 : require\nlayout(triangles, invocations = 2) in;\nlayout(triangle_strip, max_vertices = 4) out;\nflat out int invocation;\nvoid main() {\n    float x0 = gl_InvocationID == 0 ? -1.0 : 0.0;\n    for (int i = 0; i < 4; i++) {\n        invocation = gl_InvocationID;\n        gl_Position = vec4(x0 + float(i & 1), (i & 2) == 0 ? -1.0 : 1.0, 0.0, 1.0);\n        EmitVertex();\n    }\n}\n";
    const FS: &str = "#version 150\nflat in int invocation;\nout vec4 color;\nvoid main() { color = invocation == 0 ? vec4(1.0, 0.0, 0.0, 1.0) : vec4(0.0, 1.0, 0.0, 1.0); }\n";
    let program = use_program_with_geometry(GS, FS);
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let get_program = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    let mut invocations = 0;
    // SAFETY: plain values; out-pointer to a local.
    unsafe {
        draw(GL_TRIANGLES, 0, 3);
        get_program(program, 0x887F, &mut invocations); // GL_GEOMETRY_SHADER_INVOCATIONS
    }
    assert_eq!(invocations, 2);
    assert_eq!(pixel(8, 16), COLOURS[0], "invocation 0 drew the left half");
    assert_eq!(
        pixel(24, 16),
        COLOURS[1],
        "invocation 1 drew the right half"
    );
    assert!(get_int(0x8E5A) >= 32, "GL_MAX_GEOMETRY_SHADER_INVOCATIONS");
    expect(GL_NO_ERROR);
}

#[test]
fn texture_gather_takes_a_component_and_a_uniform_offset() {
    let _ctx = gl_harness::context();
    const FS: &str = "#version 150\n#extension GL_ARB_gpu_shader5 : require\nuniform sampler2D s;\nuniform ivec2 offset;\nout vec4 color;\nvoid main() { color = textureGatherOffset(s, vec2(0.5), offset, 1); }\n";
    let program = use_program(FS);
    // A 4×4 texture whose green channel is 16 × (x + 4y).
    let texels: Vec<u8> = (0..16u8).flat_map(|i| [255, i * 16, 0, 255]).collect();
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let parameter = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let uniform = gl!(c"glUniform2i": fn(i32, i32, i32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    gl_harness::new_texture(GL_TEXTURE_2D);
    // SAFETY: 16 RGBA texels from a local; plain values.
    unsafe {
        image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8 as i32,
            4,
            4,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texels.as_ptr().cast(),
        );
        parameter(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    }
    // Gather order: (u0, v1), (u1, v1), (u1, v0), (u0, v0) of the 2×2 footprint.
    for (offset, want) in [((0, 0), [144, 160, 96, 80]), ((-1, -1), [64, 80, 16, 0])] {
        // SAFETY: plain values.
        unsafe {
            uniform(uniform_location(program, c"offset"), offset.0, offset.1);
            draw(GL_TRIANGLES, 0, 3);
        }
        assert_eq!(pixel(16, 16), want, "gather of green at offset {offset:?}");
    }
    expect(GL_NO_ERROR);
}

#[test]
fn interpolate_at_offset_centroid_and_sample() {
    let _ctx = gl_harness::context();
    const VS_X: &str = "#version 150\nout float x;\nvoid main() {\n    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n    x = (p.x + 1.0) * 16.0;\n    gl_Position = vec4(p, 0.0, 1.0);\n}\n";
    const FS: &str = "#version 150\n#extension GL_ARB_gpu_shader5 : require\nin float x;\nout vec4 color;\nvoid main() {\n    color = vec4(fract(interpolateAtOffset(x, vec2(0.25, 0.0))), fract(interpolateAtCentroid(x)), fract(interpolateAtSample(x, 0)), 1.0);\n}\n";
    let program = gl_harness::program(VS_X, FS);
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let get_float = gl!(c"glGetFloatv": fn(u32, *mut f32));
    let (mut vao, mut min, mut max) = (0, 0.0, 0.0);
    // SAFETY: out-pointers to locals; plain values.
    unsafe {
        use_program(program);
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        draw(GL_TRIANGLES, 0, 3);
        get_float(0x8E5B, &mut min); // GL_MIN_FRAGMENT_INTERPOLATION_OFFSET
        get_float(0x8E5C, &mut max); // GL_MAX_FRAGMENT_INTERPOLATION_OFFSET
    }
    // Pixel centres are at .5; a quarter-pixel offset to the right reads .75.
    gl_harness::assert_rgba8_near(pixel(10, 16), [191, 128, 128, 255], "interpolateAt*");
    assert!(min <= -0.5 && max >= 0.4375, "offset range {min}..{max}");
    assert!(
        get_int(0x8E5D) >= 4,
        "GL_FRAGMENT_INTERPOLATION_OFFSET_BITS"
    );
    expect(GL_NO_ERROR);
}

#[test]
fn only_vertex_stream_0_is_rasterized() {
    let _ctx = gl_harness::context();
    // Points at the centres of pixels (8, 8) (stream 0) and (24, 24) (stream 1).
    const GS: &str = "#version 150\n#extension GL_ARB_gpu_shader5 : require\nlayout(triangles) in;\nlayout(points, max_vertices = 2) out;\nvoid main() {\n    gl_Position = vec4(-0.46875, -0.46875, 0.0, 1.0);\n    EmitStreamVertex(0);\n    EndStreamPrimitive(0);\n    gl_Position = vec4(0.53125, 0.53125, 0.0, 1.0);\n    EmitStreamVertex(1);\n    EndStreamPrimitive(1);\n}\n";
    const FS: &str =
        "#version 150\nout vec4 color;\nvoid main() { color = vec4(1.0, 0.0, 0.0, 1.0); }\n";
    use_program_with_geometry(GS, FS);
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    // SAFETY: plain values.
    unsafe {
        clear_color(0.0, 0.0, 0.0, 0.0);
        clear(0x4000);
        draw(GL_TRIANGLES, 0, 3);
    }
    assert_eq!(pixel(8, 8), COLOURS[0], "stream 0's point");
    assert_eq!(pixel(24, 24), [0, 0, 0, 0], "stream 1 is not rasterized");
    expect(GL_NO_ERROR);
}

// ---- vertex streams (GL_ARB_gpu_shader5 / GL_ARB_transform_feedback3) -------------------------

const GL_POINTS: u32 = 0;
const GL_TRANSFORM_FEEDBACK_BUFFER: u32 = 0x8C8E;
const GL_INTERLEAVED_ATTRIBS: u32 = 0x8C8C;
const GL_PRIMITIVES_GENERATED: u32 = 0x8C87;
const GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN: u32 = 0x8C88;
const GL_QUERY_RESULT: u32 = 0x8866;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;

/// Each geometry invocation emits two points on stream 0 (`a` = 1, 2) and three on stream 1
/// (`b` = (10 + i, 20 + i)).
const STREAMS_GS: &str = "#version 150\n#extension GL_ARB_gpu_shader5 : require\nlayout(triangles) in;\nlayout(points, max_vertices = 5) out;\nlayout(stream = 0) out float a;\nlayout(stream = 1) out vec2 b;\nvoid main() {\n    for (int i = 0; i < 2; i++) {\n        a = float(i + 1);\n        gl_Position = vec4(0.0, 0.0, 0.0, 1.0);\n        EmitStreamVertex(0);\n        EndStreamPrimitive(0);\n    }\n    for (int i = 0; i < 3; i++) {\n        b = vec2(10.0 + float(i), 20.0 + float(i));\n        EmitStreamVertex(1);\n        EndStreamPrimitive(1);\n    }\n}\n";

/// Links the vertex shader, `STREAMS_GS` and a plain fragment shader capturing `varyings`
/// (interleaved); whether it linked.
fn link_stream_capture(varyings: &[&CStr]) -> (u32, bool) {
    const FS: &str = "#version 150\nout vec4 color;\nvoid main() { color = vec4(1.0); }\n";
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    let set_varyings = gl!(c"glTransformFeedbackVaryings": fn(u32, i32, *const *const c_char, u32));
    let gs = std::ffi::CString::new(STREAMS_GS).expect("no NUL");
    let names: Vec<*const c_char> = varyings.iter().map(|v| v.as_ptr()).collect();
    gl_harness::try_program_with(VS, FS, |p| {
        // SAFETY: NUL-terminated sources and names that outlive the calls; length NULL.
        unsafe {
            let s = create(0x8DD9); // GL_GEOMETRY_SHADER
            source(s, 1, &gs.as_ptr(), std::ptr::null());
            compile(s);
            attach(p, s);
            set_varyings(
                p,
                names.len() as i32,
                names.as_ptr(),
                GL_INTERLEAVED_ATTRIBS,
            );
        }
    })
}

/// The first `n` floats of the buffer bound to `GL_TRANSFORM_FEEDBACK_BUFFER`.
fn read_floats(buffer: u32, n: usize) -> Vec<f32> {
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let get = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut c_void));
    let mut out = vec![0f32; n];
    // SAFETY: `out` holds `4 n` bytes.
    unsafe {
        bind(GL_TRANSFORM_FEEDBACK_BUFFER, buffer);
        get(
            GL_TRANSFORM_FEEDBACK_BUFFER,
            0,
            4 * n as isize,
            out.as_mut_ptr().cast(),
        );
    }
    out
}

#[test]
fn two_streams_are_captured_into_their_buffers_and_counted() {
    let _ctx = gl_harness::context();
    assert_eq!(get_int(0x8E71), 4, "GL_MAX_VERTEX_STREAMS");
    let (program, linked) = link_stream_capture(&[c"a", c"gl_NextBuffer", c"b"]);
    assert!(linked, "a stream-0 buffer and a stream-1 buffer link");
    let sentinel = [0xAAu8; 64];
    let buffers = [
        gl_harness::buffer_with(GL_TRANSFORM_FEEDBACK_BUFFER, &sentinel),
        gl_harness::buffer_with(GL_TRANSFORM_FEEDBACK_BUFFER, &sentinel),
    ];
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let bind_base = gl!(c"glBindBufferBase": fn(u32, u32, u32));
    let gen_queries = gl!(c"glGenQueries": fn(i32, *mut u32));
    let begin_query = gl!(c"glBeginQueryIndexed": fn(u32, u32, u32));
    let end_query = gl!(c"glEndQueryIndexed": fn(u32, u32));
    let result = gl!(c"glGetQueryObjectuiv": fn(u32, u32, *mut u32));
    let begin = gl!(c"glBeginTransformFeedback": fn(u32));
    let end = gl!(c"glEndTransformFeedback": fn());
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let (mut vao, mut queries, mut generated) = (0, [0u32; 2], [0u32; 2]);
    // SAFETY: out-pointers to locals; plain values.
    unsafe {
        use_program(program);
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        bind_base(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffers[0]);
        bind_base(GL_TRANSFORM_FEEDBACK_BUFFER, 1, buffers[1]);
        gen_queries(2, queries.as_mut_ptr());
        gen_queries(2, generated.as_mut_ptr());
        for stream in 0..2 {
            let i = stream as usize;
            begin_query(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, stream, queries[i]);
            begin_query(GL_PRIMITIVES_GENERATED, stream, generated[i]);
        }
        begin(GL_POINTS);
        draw(GL_TRIANGLES, 0, 6); // two geometry invocations
                                  // One query ends inside the capture, one after it.
        end_query(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, 1);
        end_query(GL_PRIMITIVES_GENERATED, 1);
        end();
        end_query(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, 0);
        end_query(GL_PRIMITIVES_GENERATED, 0);
    }
    expect(GL_NO_ERROR);
    let sentinel = f32::from_ne_bytes([0xAA; 4]);
    assert_eq!(
        read_floats(buffers[0], 5),
        [1.0, 2.0, 1.0, 2.0, sentinel],
        "stream 0's buffer"
    );
    assert_eq!(
        read_floats(buffers[1], 13),
        [10.0, 20.0, 11.0, 21.0, 12.0, 22.0, 10.0, 20.0, 11.0, 21.0, 12.0, 22.0, sentinel],
        "stream 1's buffer"
    );
    for (stream, (&q, want)) in queries.iter().zip([4, 6]).enumerate() {
        let mut n = 0;
        // SAFETY: out-pointer to a local.
        unsafe { result(q, GL_QUERY_RESULT, &mut n) };
        assert_eq!(n, want, "primitives written on stream {stream}");
        // SAFETY: out-pointer to a local.
        unsafe { result(generated[stream], GL_QUERY_RESULT, &mut n) };
        assert_eq!(n, want, "primitives generated on stream {stream}");
    }
    expect(GL_NO_ERROR);
}

#[test]
fn stream_errors() {
    let _ctx = gl_harness::context();
    let (_, linked) = link_stream_capture(&[c"a", c"b"]);
    assert!(!linked, "streams 0 and 1 in one buffer is a link error");
    let gen_queries = gl!(c"glGenQueries": fn(i32, *mut u32));
    let begin_query = gl!(c"glBeginQueryIndexed": fn(u32, u32, u32));
    let end_query = gl!(c"glEndQueryIndexed": fn(u32, u32));
    let current = gl!(c"glGetQueryIndexediv": fn(u32, u32, u32, *mut i32));
    let draw_stream = gl!(c"glDrawTransformFeedbackStream": fn(u32, u32, u32));
    let mut q = [0u32; 2];
    let mut active = 0;
    // SAFETY: out-pointers to locals; plain values.
    unsafe {
        gen_queries(2, q.as_mut_ptr());
        begin_query(GL_PRIMITIVES_GENERATED, 4, q[0]);
        expect(GL_INVALID_VALUE);
        begin_query(GL_PRIMITIVES_GENERATED, 3, q[0]);
        expect(GL_NO_ERROR);
        current(GL_PRIMITIVES_GENERATED, 3, 0x8865, &mut active); // GL_CURRENT_QUERY
        assert_eq!(active, q[0] as i32);
        begin_query(GL_PRIMITIVES_GENERATED, 3, q[1]);
        expect(GL_INVALID_OPERATION);
        end_query(GL_PRIMITIVES_GENERATED, 3);
        end_query(GL_PRIMITIVES_GENERATED, 3);
        expect(GL_INVALID_OPERATION);
        draw_stream(GL_POINTS, 0, 4);
        expect(GL_INVALID_VALUE);
    }
}
