//! GL_ARB_ES3_1_compatibility through the C ABI: its GLSL in a desktop unit that enables it
//! (`imageAtomicExchange` on an `r32f` image, `mix()` of integers and booleans, `gl_MaxSamples`,
//! `gl_HelperInvocation`), GLSL ES 3.10 programs drawing in a desktop context, its API
//! (`glMemoryBarrierByRegion`'s bits, `GL_BACK` on the default framebuffer) and
//! `GL_IMPLEMENTATION_COLOR_READ_FORMAT`/`_TYPE` following the read framebuffer, with the
//! errors the extension names. Values are read back from buffers, textures and pixels.

use std::ffi::{c_char, c_void, CStr, CString};
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context_with, expect, f, program, read_rgba, Current};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_EXTENSIONS: u32 = 0x1F03;
const GL_NUM_EXTENSIONS: u32 = 0x821D;
const GL_SHADING_LANGUAGE_VERSION: u32 = 0x8B8C;
const GL_NUM_SHADING_LANGUAGE_VERSIONS: u32 = 0x82E9;
const GL_MAX_SHADER_STORAGE_BLOCK_SIZE: u32 = 0x90DE;
const GL_MAX_SAMPLES: u32 = 0x8D57;
const GL_COMPUTE_SHADER: u32 = 0x91B9;
const GL_LINK_STATUS: u32 = 0x8B82;
const GL_SHADER_STORAGE_BUFFER: u32 = 0x90D2;
const GL_DYNAMIC_DRAW: u32 = 0x88E8;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_R32F: u32 = 0x822E;
const GL_RED: u32 = 0x1903;
const GL_RGBA: u32 = 0x1908;
const GL_RGBA_INTEGER: u32 = 0x8D99;
const GL_FLOAT: u32 = 0x1406;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_UNSIGNED_INT: u32 = 0x1405;
const GL_READ_WRITE: u32 = 0x88BA;
const GL_ALL_BARRIER_BITS: u32 = 0xFFFF_FFFF;
const GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT: u32 = 0x0001;
const GL_UNIFORM_BARRIER_BIT: u32 = 0x0004;
const GL_SHADER_IMAGE_ACCESS_BARRIER_BIT: u32 = 0x0020;
const GL_FRAMEBUFFER_BARRIER_BIT: u32 = 0x0400;
const GL_SHADER_STORAGE_BARRIER_BIT: u32 = 0x2000;
const GL_BACK: u32 = 0x0405;
const GL_NONE: u32 = 0;
const GL_DRAW_FRAMEBUFFER: u32 = 0x8CA9;
const GL_READ_FRAMEBUFFER: u32 = 0x8CA8;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_RENDERBUFFER: u32 = 0x8D41;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_COLOR_ATTACHMENT1: u32 = 0x8CE1;
const GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE: u32 = 0x8CD0;
const GL_FRAMEBUFFER_DEFAULT: i32 = 0x8218;
const GL_RGBA8: u32 = 0x8058;
const GL_RGBA32UI: u32 = 0x8D70;
const GL_RGBA32F: u32 = 0x8814;
const GL_IMPLEMENTATION_COLOR_READ_FORMAT: u32 = 0x8B9B;
const GL_IMPLEMENTATION_COLOR_READ_TYPE: u32 = 0x8B9A;
const GL_TRIANGLE_STRIP: u32 = 5;

const EXTENSION: &str = "GL_ARB_ES3_1_compatibility";

/// A current 4.3 core context (compute, images and storage buffers are core there).
fn context_4_3() -> Current {
    const EGL_OPENGL_API: u32 = 0x30A2;
    context_with(
        EGL_OPENGL_API,
        0x0008,
        &[0x3098, 4, 0x30FB, 3, 0x30FD, 1, 0x3038],
    )
}

fn integer(pname: u32) -> i64 {
    let get = gl!(c"glGetInteger64v": fn(u32, *mut i64));
    let mut v = -1;
    // SAFETY: one integer out.
    unsafe { get(pname, &mut v) };
    v
}

/// Every `glGetStringi(name, i)` for `i` below `glGetIntegerv(count)`.
fn strings(name: u32, count: u32) -> Vec<String> {
    let get = gl!(c"glGetStringi": fn(u32, u32) -> *const c_char);
    (0..integer(count) as u32)
        .map(|i| {
            // SAFETY: `i` is below the count; the string is NUL-terminated and lives with the
            // context.
            unsafe { CStr::from_ptr(get(name, i)) }
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}

/// A compute program (asserts the link).
fn compute_program(source: &str) -> u32 {
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let shader_source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let create_program = gl!(c"glCreateProgram": fn() -> u32);
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    let link = gl!(c"glLinkProgram": fn(u32));
    let get = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    // SAFETY: a NUL-terminated source, lengths NULL; the out-pointer is a local.
    unsafe {
        let p = create_program();
        let s = create(GL_COMPUTE_SHADER);
        let c = CString::new(source).expect("no NUL");
        let ptr = c.as_ptr();
        shader_source(s, 1, &ptr, null());
        compile(s);
        attach(p, s);
        link(p);
        let mut ok = 0;
        get(p, GL_LINK_STATUS, &mut ok);
        assert_eq!(ok, 1, "compute link");
        p
    }
}

/// A storage buffer of `words` zeroes bound at index 0.
fn storage_buffer(words: usize) -> u32 {
    let gen = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let bind_base = gl!(c"glBindBufferBase": fn(u32, u32, u32));
    let zeroes = vec![0u32; words];
    let mut b = 0;
    // SAFETY: one name out; the data pointer covers the size given.
    unsafe {
        gen(1, &mut b);
        bind(GL_SHADER_STORAGE_BUFFER, b);
        data(
            GL_SHADER_STORAGE_BUFFER,
            (words * 4) as isize,
            zeroes.as_ptr().cast(),
            GL_DYNAMIC_DRAW,
        );
        bind_base(GL_SHADER_STORAGE_BUFFER, 0, b);
    }
    b
}

/// The first `n` words of the bound storage buffer.
fn storage_words(n: usize) -> Vec<u32> {
    let get = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut c_void));
    let mut out = vec![0u32; n];
    // SAFETY: the destination holds `n` words.
    unsafe {
        get(
            GL_SHADER_STORAGE_BUFFER,
            0,
            (n * 4) as isize,
            out.as_mut_ptr().cast(),
        )
    };
    out
}

/// A 1×1 `GL_R32F` texture holding `value`, bound to image unit 0 for reading and writing.
fn r32f_image(value: f32) -> u32 {
    let gen = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let storage = gl!(c"glTexStorage2D": fn(u32, i32, u32, i32, i32));
    let sub = gl!(c"glTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let bind_image = gl!(c"glBindImageTexture": fn(u32, u32, i32, u8, i32, u32, u32));
    let mut t = 0;
    // SAFETY: one name out; the texel pointer covers one float.
    unsafe {
        gen(1, &mut t);
        bind(GL_TEXTURE_2D, t);
        storage(GL_TEXTURE_2D, 1, GL_R32F, 1, 1);
        sub(
            GL_TEXTURE_2D,
            0,
            0,
            0,
            1,
            1,
            GL_RED,
            GL_FLOAT,
            (&value as *const f32).cast(),
        );
        bind_image(0, t, 0, 0, 0, GL_READ_WRITE, GL_R32F);
    }
    t
}

/// The one texel of the bound 1×1 `GL_R32F` texture.
fn r32f_texel() -> f32 {
    let get = gl!(c"glGetTexImage": fn(u32, i32, u32, u32, *mut c_void));
    let mut v = f32::NAN;
    // SAFETY: the destination holds the one float of a 1×1 red float image.
    unsafe {
        get(
            GL_TEXTURE_2D,
            0,
            GL_RED,
            GL_FLOAT,
            (&mut v as *mut f32).cast(),
        )
    };
    v
}

fn run_compute(p: u32) {
    let use_program = gl!(c"glUseProgram": fn(u32));
    let dispatch = gl!(c"glDispatchCompute": fn(u32, u32, u32));
    let barrier = gl!(c"glMemoryBarrier": fn(u32));
    // SAFETY: plain calls on the current context.
    unsafe {
        use_program(p);
        dispatch(1, 1, 1);
        barrier(GL_ALL_BARRIER_BITS);
    }
}

/// A bound vertex array and a draw of the whole viewport as a four-vertex strip (positions
/// come from `gl_VertexID`).
fn draw_quad(p: u32) {
    let gen = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind = gl!(c"glBindVertexArray": fn(u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let mut vao = 0;
    // SAFETY: one name out; plain calls on the current context.
    unsafe {
        gen(1, &mut vao);
        bind(vao);
        use_program(p);
        draw(GL_TRIANGLE_STRIP, 0, 4);
    }
}

#[test]
fn the_extension_is_offered_with_glsl_es_3_10_and_its_storage_block_minimum() {
    let _c = context_4_3();
    let extensions = strings(GL_EXTENSIONS, GL_NUM_EXTENSIONS);
    assert!(extensions.iter().any(|e| e == EXTENSION), "{extensions:?}");
    let versions = strings(
        GL_SHADING_LANGUAGE_VERSION,
        GL_NUM_SHADING_LANGUAGE_VERSIONS,
    );
    for v in ["100", "300 es", "310 es"] {
        assert!(versions.iter().any(|s| s == v), "{v} in {versions:?}");
    }
    assert!(integer(GL_MAX_SHADER_STORAGE_BLOCK_SIZE) >= 1 << 27);
    expect(GL_NO_ERROR);
}

/// `imageAtomicExchange` on `r32f`, `mix()` of ints, uints and bools, and `gl_MaxSamples` in a
/// GLSL 4.30 unit that enables the extension.
const EXCHANGE: &str = "#version 430\n#extension GL_ARB_ES3_1_compatibility : require\nlayout(local_size_x = 1) in;\nlayout(r32f, binding = 0) uniform coherent image2D img;\nlayout(std430, binding = 0) buffer Out { uint v[]; };\nvoid main() {\n    float old = imageAtomicExchange(img, ivec2(0), 2.5);\n    v[0] = floatBitsToUint(old);\n    ivec2 i = mix(ivec2(1, 2), ivec2(3, 4), bvec2(false, true));\n    uvec2 u = mix(uvec2(5u, 6u), uvec2(7u, 8u), bvec2(true, false));\n    bvec2 b = mix(bvec2(false, true), bvec2(true, false), bvec2(true, true));\n    v[1] = uint(i.x * 10 + i.y);\n    v[2] = u.x * 10u + u.y;\n    v[3] = uint(b.x) * 2u + uint(b.y);\n    v[4] = uint(gl_MaxSamples);\n}\n";

#[test]
fn a_desktop_unit_enabling_the_extension_exchanges_floats_and_mixes_integers() {
    let _c = context_4_3();
    let image = r32f_image(1.5);
    let out = storage_buffer(5);
    run_compute(compute_program(EXCHANGE));
    let words = storage_words(5);
    assert_eq!(f32::from_bits(words[0]), 1.5, "the exchanged-out value");
    assert_eq!(words[1], 14, "mix(ivec2, ivec2, bvec2)");
    assert_eq!(words[2], 76, "mix(uvec2, uvec2, bvec2)");
    assert_eq!(words[3], 2, "mix(bvec2, bvec2, bvec2)");
    assert_eq!(
        i64::from(words[4]),
        integer(GL_MAX_SAMPLES),
        "gl_MaxSamples"
    );
    assert_eq!(r32f_texel(), 2.5, "the exchanged-in value");
    expect(GL_NO_ERROR);
    let _ = (image, out);
}

const ES_VS: &str = "#version 310 es\nvoid main() {\n    vec2 p = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));\n    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);\n}\n";
/// Green where the invocation is not a helper; blue where `mix()` of two ints selected the second.
const ES_FS: &str = "#version 310 es\nprecision mediump float;\nout vec4 color;\nvoid main() {\n    int r = mix(255, 51, true);\n    color = gl_HelperInvocation ? vec4(1.0, 0.0, 0.0, 1.0) : vec4(0.0, 1.0, r == 51 ? 1.0 : 0.0, 1.0);\n}\n";
const DESKTOP_FS: &str = "#version 430\n#extension GL_ARB_ES3_1_compatibility : enable\nout vec4 color;\nvoid main() {\n    color = gl_HelperInvocation ? vec4(1.0, 0.0, 0.0, 1.0) : vec4(0.0, 0.0, 1.0, 1.0);\n}\n";
const DESKTOP_VS: &str = "#version 430\nvoid main() {\n    vec2 p = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));\n    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);\n}\n";

#[test]
fn glsl_es_3_10_programs_draw_in_a_desktop_context_and_see_no_helper_invocations() {
    let _c = context_4_3();
    draw_quad(program(ES_VS, ES_FS));
    let px = read_rgba(16, 16, 1, 1);
    assert_eq!(px, [0, 255, 255, 255], "GLSL ES 3.10 pixel");
    // GLSL ES 3.00, which the extension's version list names with 1.00 and 3.10.
    let es300_vs = ES_VS.replace("310 es", "300 es");
    let es300_fs = "#version 300 es\nprecision mediump float;\nout vec4 color;\nvoid main() { color = vec4(1.0, 0.0, 1.0, 1.0); }\n";
    draw_quad(program(&es300_vs, es300_fs));
    assert_eq!(
        read_rgba(16, 16, 1, 1),
        [255, 0, 255, 255],
        "GLSL ES 3.00 pixel"
    );
    draw_quad(program(DESKTOP_VS, DESKTOP_FS));
    let px = read_rgba(5, 27, 1, 1);
    assert_eq!(
        px,
        [0, 0, 255, 255],
        "gl_HelperInvocation false where written"
    );
    expect(GL_NO_ERROR);
}

#[test]
fn memory_barrier_by_region_takes_only_the_fragment_bits() {
    let _c = context_4_3();
    let by_region = gl!(c"glMemoryBarrierByRegion": fn(u32));
    // SAFETY: plain calls on the current context.
    unsafe {
        by_region(GL_ALL_BARRIER_BITS);
        expect(GL_NO_ERROR);
        by_region(
            GL_UNIFORM_BARRIER_BIT
                | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT
                | GL_FRAMEBUFFER_BARRIER_BIT
                | GL_SHADER_STORAGE_BARRIER_BIT,
        );
        expect(GL_NO_ERROR);
        by_region(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT);
        expect(GL_INVALID_VALUE);
    }
}

#[test]
fn back_names_the_default_framebuffers_colour_buffer() {
    let _c = context_4_3();
    let draw_buffers = gl!(c"glDrawBuffers": fn(i32, *const u32));
    let attachment = gl!(c"glGetFramebufferAttachmentParameteriv": fn(u32, u32, u32, *mut i32));
    // SAFETY: the lists hold the counts given; one integer out.
    unsafe {
        draw_buffers(1, [GL_BACK].as_ptr());
        expect(GL_NO_ERROR);
        draw_buffers(2, [GL_BACK, GL_NONE].as_ptr());
        expect(GL_INVALID_OPERATION);
        let mut kind = 0;
        attachment(
            GL_DRAW_FRAMEBUFFER,
            GL_BACK,
            GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
            &mut kind,
        );
        expect(GL_NO_ERROR);
        assert_eq!(kind, GL_FRAMEBUFFER_DEFAULT);
    }
}

/// `(GL_IMPLEMENTATION_COLOR_READ_FORMAT, _TYPE)`, and the error the two queries raised.
fn color_read() -> ((i32, i32), u32) {
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let (mut format, mut ty) = (-1, -1);
    // SAFETY: one integer out each.
    unsafe {
        get(GL_IMPLEMENTATION_COLOR_READ_FORMAT, &mut format);
        get(GL_IMPLEMENTATION_COLOR_READ_TYPE, &mut ty);
    }
    ((format, ty), gl_harness::error())
}

/// A framebuffer object bound for reading with a 4×4 renderbuffer of `internal` at
/// `GL_COLOR_ATTACHMENT0`.
fn read_framebuffer_with(internal: u32) {
    let gen_fb = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let gen_rb = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_rb = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage = gl!(c"glRenderbufferStorage": fn(u32, u32, i32, i32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let (mut fb, mut rb) = (0, 0);
    // SAFETY: one name out each; plain calls on the current context.
    unsafe {
        gen_fb(1, &mut fb);
        bind_fb(GL_READ_FRAMEBUFFER, fb);
        gen_rb(1, &mut rb);
        bind_rb(GL_RENDERBUFFER, rb);
        storage(GL_RENDERBUFFER, internal, 4, 4);
        attach(
            GL_READ_FRAMEBUFFER,
            GL_COLOR_ATTACHMENT0,
            GL_RENDERBUFFER,
            rb,
        );
    }
}

#[test]
fn implementation_color_read_follows_the_read_framebuffer() {
    let _c = context_4_3();
    let read_buffer = gl!(c"glReadBuffer": fn(u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let gen_fb = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let e = |v: u32| v as i32;
    assert_eq!(
        color_read(),
        ((e(GL_RGBA), e(GL_UNSIGNED_BYTE)), GL_NO_ERROR)
    );
    // SAFETY: plain calls on the current context; one name out.
    unsafe {
        read_buffer(GL_NONE);
        assert_eq!(color_read().1, GL_INVALID_OPERATION, "default, GL_NONE");
        read_buffer(GL_BACK);
        read_framebuffer_with(GL_RGBA32UI);
        assert_eq!(
            color_read(),
            ((e(GL_RGBA_INTEGER), e(GL_UNSIGNED_INT)), GL_NO_ERROR)
        );
        read_framebuffer_with(GL_RGBA32F);
        assert_eq!(color_read(), ((e(GL_RGBA), e(GL_FLOAT)), GL_NO_ERROR));
        read_framebuffer_with(GL_RGBA8);
        assert_eq!(
            color_read(),
            ((e(GL_RGBA), e(GL_UNSIGNED_BYTE)), GL_NO_ERROR)
        );
        read_buffer(GL_COLOR_ATTACHMENT1);
        assert_eq!(color_read().1, GL_INVALID_OPERATION, "no image attached");
        let mut empty = 0;
        gen_fb(1, &mut empty);
        bind_fb(GL_FRAMEBUFFER, empty);
        assert_eq!(color_read().1, GL_INVALID_OPERATION, "incomplete");
        bind_fb(GL_FRAMEBUFFER, 0);
    }
}
