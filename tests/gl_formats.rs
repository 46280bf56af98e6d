//! Texture formats and pixel transfer through the C ABI: each internal-format family (float,
//! integer, snorm, 16-bit, packed, sRGB, legacy luminance/alpha/intensity, compressed) uploaded
//! from the client types GL converts, sampled in a shader and compared with values computed by
//! hand; `glReadPixels` of float and integer framebuffers; the format queries; the errors of
//! mismatched pairs. Each test makes its own context (serialised by the harness).

use std::ffi::c_void;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, context_profile, error, expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_TEXTURE_MIN_FILTER: u32 = 0x2801;
const GL_TEXTURE_MAG_FILTER: u32 = 0x2800;
const GL_NEAREST: i32 = 0x2600;
const GL_TRIANGLES: u32 = 4;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_RENDERBUFFER: u32 = 0x8D41;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_FRAMEBUFFER_COMPLETE: u32 = 0x8CD5;

// Client formats and types.
const GL_RED: u32 = 0x1903;
const GL_ALPHA: u32 = 0x1906;
const GL_RGB: u32 = 0x1907;
const GL_RGBA: u32 = 0x1908;
const GL_LUMINANCE: u32 = 0x1909;
const GL_LUMINANCE_ALPHA: u32 = 0x190A;
const GL_RG: u32 = 0x8227;
const GL_BGRA: u32 = 0x80E1;
const GL_RG_INTEGER: u32 = 0x8228;
const GL_RGBA_INTEGER: u32 = 0x8D99;
const GL_BYTE: u32 = 0x1400;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_UNSIGNED_SHORT: u32 = 0x1403;
const GL_INT: u32 = 0x1404;
const GL_UNSIGNED_INT: u32 = 0x1405;
const GL_FLOAT: u32 = 0x1406;
const GL_HALF_FLOAT: u32 = 0x140B;
const GL_UNSIGNED_BYTE_3_3_2: u32 = 0x8032;
const GL_UNSIGNED_SHORT_4_4_4_4: u32 = 0x8033;
const GL_UNSIGNED_INT_10_10_10_2: u32 = 0x8036;
const GL_UNSIGNED_SHORT_5_6_5: u32 = 0x8363;
const GL_UNSIGNED_SHORT_1_5_5_5_REV: u32 = 0x8366;
const GL_UNSIGNED_INT_2_10_10_10_REV: u32 = 0x8368;
const GL_UNSIGNED_INT_5_9_9_9_REV: u32 = 0x8C3E;

// Internal formats.
const GL_RGBA8: u32 = 0x8058;
const GL_RGBA16F: u32 = 0x881A;
const GL_RGB16F: u32 = 0x881B;
const GL_RGBA32F: u32 = 0x8814;
const GL_R32F: u32 = 0x822E;
const GL_RG16: u32 = 0x822C;
const GL_RGBA8_SNORM: u32 = 0x8F97;
const GL_RGBA8UI: u32 = 0x8D7C;
const GL_RGBA16UI: u32 = 0x8D76;
const GL_RG32I: u32 = 0x823B;
const GL_R8I: u32 = 0x8231;
const GL_RGB10_A2UI: u32 = 0x906F;
const GL_R11F_G11F_B10F: u32 = 0x8C3A;
const GL_RGB9_E5: u32 = 0x8C3D;
const GL_RGB565: u32 = 0x8D62;
const GL_RGBA4: u32 = 0x8056;
const GL_RGB5_A1: u32 = 0x8057;
const GL_R3_G3_B2: u32 = 0x2A10;
const GL_SRGB8_ALPHA8: u32 = 0x8C43;
const GL_ALPHA8: u32 = 0x803C;
const GL_LUMINANCE16: u32 = 0x8042;
const GL_LUMINANCE8_ALPHA8: u32 = 0x8045;
const GL_INTENSITY8: u32 = 0x804B;
const GL_DEPTH32F_STENCIL8: u32 = 0x8CAD;
const GL_COMPRESSED_RGBA_S3TC_DXT1: u32 = 0x83F1;
const GL_COMPRESSED_RED_RGTC1: u32 = 0x8DBB;
const GL_COMPRESSED_RGB8_ETC2: u32 = 0x9274;

/// A 1×1 texture of `internal` from one client pixel `bytes` (`format`/`ty`), nearest filtering.
fn texture_1x1(internal: u32, format: u32, ty: u32, bytes: &[u8]) -> u32 {
    let gen = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let store = gl!(c"glPixelStorei": fn(u32, i32));
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let mut t = 0;
    // SAFETY: out-pointer to a local; `bytes` holds the one pixel (alignment 1).
    unsafe {
        gen(1, &mut t);
        bind(GL_TEXTURE_2D, t);
        param(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        param(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        store(0x0CF5, 1); // GL_UNPACK_ALIGNMENT
        image(
            GL_TEXTURE_2D,
            0,
            internal as i32,
            1,
            1,
            0,
            format,
            ty,
            bytes.as_ptr().cast(),
        );
        store(0x0CF5, 4);
    }
    assert_eq!(error(), GL_NO_ERROR, "upload into 0x{internal:04X}");
    t
}

const VS: &str = "#version 330 core\nvoid main() {\n  vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1));\n  gl_Position = vec4(p, 0.0, 1.0);\n}\n";

/// Draws a full-screen triangle of colour `expr` (GLSL over `uniform {sampler} t`) into the
/// bound framebuffer and reads the centre pixel as RGBA8.
fn sample(sampler: &str, expr: &str) -> [u8; 4] {
    draw(&format!(
        "#version 330 core\nuniform {sampler} t;\nout vec4 color;\nvoid main() {{ color = {expr}; }}\n"
    ));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let mut px = [0u8; 4];
    // SAFETY: one RGBA8 pixel into a 4-byte local.
    unsafe {
        read(
            16,
            16,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        )
    };
    assert_eq!(error(), GL_NO_ERROR, "sampling {sampler} with {expr}");
    px
}

/// One full-screen triangle with fragment shader `fs`.
fn draw(fs: &str) {
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let program = gl_harness::program(VS, fs);
    let mut vao = 0;
    // SAFETY: out-pointer to a local.
    unsafe {
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        use_program(program);
        draw(GL_TRIANGLES, 0, 3);
    }
}

fn ne<T: Copy, const N: usize>(values: [T; N], to: impl Fn(T) -> Vec<u8>) -> Vec<u8> {
    values.into_iter().flat_map(to).collect()
}

const CENTRE: &str = "texture(t, vec2(0.5))";

#[test]
fn float_snorm_16_bit_and_packed_float_formats_sample_the_converted_values() {
    let _ctx = context();
    let f32s = |v: [f32; 4]| ne(v, |x| x.to_ne_bytes().to_vec());
    // RGBA16F from floats, scaled by 1/4 in the shader: (0.125, 0.51, 0 (clamped −0.25), 1).
    texture_1x1(GL_RGBA16F, GL_RGBA, GL_FLOAT, &f32s([0.5, 2.04, -1.0, 4.0]));
    assert_eq!(
        sample("sampler2D", "texture(t, vec2(0.5)) / 4.0"),
        [32, 130, 0, 255]
    );
    // R32F keeps values above 1; G, B read 0 and A 1.
    texture_1x1(GL_R32F, GL_RED, GL_FLOAT, &3.0f32.to_ne_bytes());
    assert_eq!(
        sample(
            "sampler2D",
            "vec4(texture(t, vec2(0.5)).r / 4.0, texture(t, vec2(0.5)).gba)"
        ),
        [191, 0, 0, 255]
    );
    // RG16 (unorm) from unsigned shorts.
    texture_1x1(
        GL_RG16,
        GL_RG,
        GL_UNSIGNED_SHORT,
        &ne([65535u16, 32768], |x| x.to_ne_bytes().to_vec()),
    );
    // 32768 / 65535 is just above one half: 128 after rounding, 127 where a device truncates.
    let rg16 = sample("sampler2D", CENTRE);
    assert!(
        rg16.iter()
            .zip([255u8, 128, 0, 255])
            .all(|(a, b)| a.abs_diff(b) <= 1),
        "{rg16:?}"
    );
    // RGBA8_SNORM from signed bytes, mapped to [0, 1] in the shader.
    texture_1x1(GL_RGBA8_SNORM, GL_RGBA, GL_BYTE, &[127, 0x81, 64, 32]);
    assert_eq!(
        sample("sampler2D", "texture(t, vec2(0.5)) * 0.5 + 0.5"),
        [255, 0, 192, 160]
    );
    // R11F_G11F_B10F from floats (1.5 survives), halved.
    texture_1x1(
        GL_R11F_G11F_B10F,
        GL_RGB,
        GL_FLOAT,
        &f32s([0.5, 0.25, 1.5, 0.0])[..12],
    );
    assert_eq!(
        sample("sampler2D", "vec4(texture(t, vec2(0.5)).rgb / 2.0, 1.0)"),
        [64, 32, 191, 255]
    );
    // RGB9_E5 from the shared-exponent type, packed by hand: (1, 0.5, 0.25), exponent 16.
    let e5: u32 = 256 | (128 << 9) | (64 << 18) | (16 << 27);
    texture_1x1(
        GL_RGB9_E5,
        GL_RGB,
        GL_UNSIGNED_INT_5_9_9_9_REV,
        &e5.to_ne_bytes(),
    );
    assert_eq!(sample("sampler2D", CENTRE), [255, 128, 64, 255]);
    // RGB16F from half floats: alpha of an RGB format samples as 1.
    texture_1x1(
        GL_RGB16F,
        GL_RGB,
        GL_HALF_FLOAT,
        &ne([0x3800u16, 0x3C00, 0], |x| x.to_ne_bytes().to_vec()),
    );
    assert_eq!(sample("sampler2D", CENTRE), [128, 255, 0, 255]);
}

#[test]
fn packed_client_types_unpack_their_fields_in_gl_order() {
    let _ctx = context();
    let u16s = |v: u16| v.to_ne_bytes().to_vec();
    // 5_6_5: R in the top five bits. (31, 0, 31).
    texture_1x1(GL_RGB565, GL_RGB, GL_UNSIGNED_SHORT_5_6_5, &u16s(0xF81F));
    assert_eq!(sample("sampler2D", CENTRE), [255, 0, 255, 255]);
    // 4_4_4_4: (15, 0, 10, 5).
    texture_1x1(GL_RGBA4, GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4, &u16s(0xF0A5));
    assert_eq!(sample("sampler2D", CENTRE), [255, 0, 170, 85]);
    // BGRA 1_5_5_5_REV: blue in the low five bits, alpha in bit 15.
    texture_1x1(
        GL_RGB5_A1,
        GL_BGRA,
        GL_UNSIGNED_SHORT_1_5_5_5_REV,
        &u16s(0x801F),
    );
    assert_eq!(sample("sampler2D", CENTRE), [0, 0, 255, 255]);
    // 10_10_10_2: R = 1023 in bits 22-31, B = 512, A = 3.
    let w: u32 = (1023 << 22) | (512 << 2) | 3;
    texture_1x1(
        GL_RGBA8,
        GL_RGBA,
        GL_UNSIGNED_INT_10_10_10_2,
        &w.to_ne_bytes(),
    );
    assert_eq!(sample("sampler2D", CENTRE), [255, 0, 128, 255]);
    // 3_3_2: (7, 0, 3).
    texture_1x1(GL_R3_G3_B2, GL_RGB, GL_UNSIGNED_BYTE_3_3_2, &[0b1110_0011]);
    assert_eq!(sample("sampler2D", CENTRE), [255, 0, 255, 255]);
    // sRGB: 128 decodes to 55 linear; alpha is linear.
    texture_1x1(
        GL_SRGB8_ALPHA8,
        GL_RGBA,
        GL_UNSIGNED_BYTE,
        &[128, 0, 255, 128],
    );
    assert_eq!(sample("sampler2D", CENTRE), [55, 0, 255, 128]);
}

#[test]
fn integer_formats_keep_their_values() {
    let _ctx = context();
    texture_1x1(
        GL_RGBA8UI,
        GL_RGBA_INTEGER,
        GL_UNSIGNED_BYTE,
        &[10, 20, 30, 40],
    );
    assert_eq!(
        sample("usampler2D", "vec4(texture(t, vec2(0.5))) / 255.0"),
        [10, 20, 30, 40]
    );
    let ints = ne([-5i32, 100_000], |x| x.to_ne_bytes().to_vec());
    texture_1x1(GL_RG32I, GL_RG_INTEGER, GL_INT, &ints);
    assert_eq!(
        sample(
            "isampler2D",
            "vec4(texture(t, vec2(0.5)).r == -5 ? 1.0 : 0.0, texture(t, vec2(0.5)).g == 100000 ? 1.0 : 0.0, 0.0, 1.0)"
        ),
        [255, 255, 0, 255]
    );
    let w: u32 = 1000 | (3 << 10) | (2 << 30);
    texture_1x1(
        GL_RGB10_A2UI,
        GL_RGBA_INTEGER,
        GL_UNSIGNED_INT_2_10_10_10_REV,
        &w.to_ne_bytes(),
    );
    assert_eq!(
        sample(
            "usampler2D",
            "vec4(texture(t, vec2(0.5))) / vec4(1000.0, 3.0, 1.0, 3.0)"
        ),
        [255, 255, 0, 170]
    );
}

#[test]
fn legacy_formats_sample_with_their_gl_semantics() {
    let _ctx = context_profile(true);
    texture_1x1(
        GL_LUMINANCE8_ALPHA8,
        GL_LUMINANCE_ALPHA,
        GL_UNSIGNED_BYTE,
        &[200, 100],
    );
    assert_eq!(sample("sampler2D", CENTRE), [200, 200, 200, 100]);
    texture_1x1(GL_ALPHA8, GL_ALPHA, GL_UNSIGNED_BYTE, &[77]);
    assert_eq!(sample("sampler2D", CENTRE), [0, 0, 0, 77]);
    texture_1x1(GL_INTENSITY8, GL_RED, GL_UNSIGNED_BYTE, &[99]);
    assert_eq!(sample("sampler2D", CENTRE), [99, 99, 99, 99]);
    texture_1x1(
        GL_LUMINANCE16,
        GL_LUMINANCE,
        GL_UNSIGNED_SHORT,
        &65535u16.to_ne_bytes(),
    );
    assert_eq!(sample("sampler2D", CENTRE), [255, 255, 255, 255]);
    // An RGB client pixel into luminance keeps R (GL's L = R).
    texture_1x1(GL_LUMINANCE, GL_RGB, GL_UNSIGNED_BYTE, &[30, 60, 90]);
    assert_eq!(sample("sampler2D", CENTRE), [30, 30, 30, 255]);
}

/// A 1×1 framebuffer object with a texture of `internal` as colour attachment 0.
fn fbo_with(internal: u32) -> u32 {
    let gen = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let status = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let (format, ty) = match internal {
        GL_RGBA16UI | GL_RGBA8UI => (GL_RGBA_INTEGER, GL_UNSIGNED_SHORT),
        GL_R8I => (0x8D94, GL_BYTE),
        _ => (GL_RGBA, GL_FLOAT),
    };
    let t = texture_1x1(internal, format, ty, &[0; 16]);
    let mut fb = 0;
    // SAFETY: out-pointer to a local; NULL data.
    unsafe {
        image(
            GL_TEXTURE_2D,
            0,
            internal as i32,
            1,
            1,
            0,
            format,
            ty,
            std::ptr::null(),
        );
        gen(1, &mut fb);
        bind(GL_FRAMEBUFFER, fb);
        attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 0);
        assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    }
    fb
}

#[test]
fn read_pixels_of_float_and_integer_framebuffers() {
    let _ctx = context();
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    fbo_with(GL_RGBA32F);
    draw(
        "#version 330 core\nout vec4 color;\nvoid main() { color = vec4(1.5, -2.0, 0.25, 8.0); }\n",
    );
    let mut px = [0f32; 4];
    let mut half = [0u16; 2];
    let mut bytes = [0u8; 4];
    // SAFETY: each read is one pixel into a local of its size.
    unsafe {
        read(0, 0, 1, 1, GL_RGBA, GL_FLOAT, px.as_mut_ptr().cast());
        assert_eq!(px, [1.5, -2.0, 0.25, 8.0]);
        // Another format and type of the same pixel: RG as half floats.
        read(0, 0, 1, 1, GL_RG, GL_HALF_FLOAT, half.as_mut_ptr().cast());
        assert_eq!(half, [0x3E00, 0xC000]);
        // Normalised bytes clamp.
        read(
            0,
            0,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            bytes.as_mut_ptr().cast(),
        );
        assert_eq!(bytes, [255, 0, 64, 255]);
    }
    assert_eq!(error(), GL_NO_ERROR);
    fbo_with(GL_RGBA16UI);
    draw(
        "#version 330 core\nout uvec4 color;\nvoid main() { color = uvec4(7u, 8u, 9u, 1000u); }\n",
    );
    let mut ui = [0u32; 4];
    // SAFETY: one RGBA_INTEGER/UNSIGNED_INT pixel into a 16-byte local, then a refused read.
    unsafe {
        read(
            0,
            0,
            1,
            1,
            GL_RGBA_INTEGER,
            GL_UNSIGNED_INT,
            ui.as_mut_ptr().cast(),
        );
        assert_eq!(ui, [7, 8, 9, 1000]);
        read(
            0,
            0,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            bytes.as_mut_ptr().cast(),
        );
    }
    expect(GL_INVALID_OPERATION);
}

#[test]
fn format_queries_answer_for_the_gl_format() {
    let _ctx = context();
    let level = gl!(c"glGetTexLevelParameteriv": fn(u32, i32, u32, *mut i32));
    let q = |pname: u32| {
        let mut v = -1;
        // SAFETY: out-pointer to a local.
        unsafe { level(GL_TEXTURE_2D, 0, pname, &mut v) };
        v
    };
    texture_1x1(GL_RGB565, GL_RGB, GL_UNSIGNED_BYTE, &[1, 2, 3]);
    assert_eq!([q(0x805C), q(0x805D), q(0x805E), q(0x805F)], [5, 6, 5, 0]);
    assert_eq!(q(0x1003), GL_RGB565 as i32, "GL_TEXTURE_INTERNAL_FORMAT");
    assert_eq!(
        q(0x8C10),
        0x8C17,
        "GL_TEXTURE_RED_TYPE: unsigned normalized"
    );
    texture_1x1(GL_RGBA16F, GL_RGBA, GL_FLOAT, &[0; 16]);
    assert_eq!([q(0x805C), q(0x8C13)], [16, GL_FLOAT as i32]);
    texture_1x1(GL_R8I, 0x8D94, GL_BYTE, &[0]);
    assert_eq!(
        [q(0x805C), q(0x805D), q(0x8C10), q(0x8C11)],
        [8, 0, GL_INT as i32, 0]
    );
    let gen = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let storage = gl!(c"glRenderbufferStorage": fn(u32, u32, i32, i32));
    let get = gl!(c"glGetRenderbufferParameteriv": fn(u32, u32, *mut i32));
    let rq = |pname: u32| {
        let mut v = -1;
        // SAFETY: out-pointer to a local.
        unsafe { get(GL_RENDERBUFFER, pname, &mut v) };
        v
    };
    let mut rb = 0;
    // SAFETY: out-pointer to a local.
    unsafe {
        gen(1, &mut rb);
        bind(GL_RENDERBUFFER, rb);
        storage(GL_RENDERBUFFER, GL_RGBA16F, 4, 4);
    }
    assert_eq!(
        [rq(0x8D50), rq(0x8D53), rq(0x8D44)],
        [16, 16, GL_RGBA16F as i32]
    );
    // SAFETY: plain call.
    unsafe { storage(GL_RENDERBUFFER, GL_DEPTH32F_STENCIL8, 4, 4) };
    assert_eq!([rq(0x8D54), rq(0x8D55)], [32, 8]);
    assert_eq!(error(), GL_NO_ERROR);
}

#[test]
fn mismatched_pairs_get_the_gl_errors() {
    let _ctx = context();
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let px = [0u8; 16];
    let mut t = 0;
    let gen = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let up = |internal: u32, format: u32, ty: u32| {
        // SAFETY: `px` holds more than one pixel of any pair.
        unsafe {
            image(
                GL_TEXTURE_2D,
                0,
                internal as i32,
                1,
                1,
                0,
                format,
                ty,
                px.as_ptr().cast(),
            )
        };
    };
    // SAFETY: out-pointer to a local.
    unsafe {
        gen(1, &mut t);
        bind(GL_TEXTURE_2D, t);
    }
    up(GL_RGBA8UI, GL_RGBA, GL_UNSIGNED_BYTE);
    expect(GL_INVALID_OPERATION);
    up(GL_RGBA8, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE);
    expect(GL_INVALID_OPERATION);
    up(GL_RGB565, GL_RGBA, GL_UNSIGNED_SHORT_5_6_5);
    expect(GL_INVALID_OPERATION);
    up(GL_RGBA8, GL_RGBA, 0x1234);
    expect(GL_INVALID_ENUM);
    up(0x1234, GL_RGBA, GL_UNSIGNED_BYTE);
    expect(GL_INVALID_ENUM);
}

#[test]
fn compressed_blocks_decompress_on_upload() {
    let _ctx = context();
    let compressed =
        gl!(c"glCompressedTexImage2D": fn(u32, i32, u32, i32, i32, i32, i32, *const c_void));
    let compressed_sub = gl!(
        c"glCompressedTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, i32, *const c_void)
    );
    let level = gl!(c"glGetTexLevelParameteriv": fn(u32, i32, u32, *mut i32));
    let t = texture_1x1(GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, &[0; 4]);
    let _ = t;
    // BC1: c0 = red, c1 = blue, all indices 2 → (2·red + blue) / 3 = (170, 0, 85).
    let bc1: [u8; 8] = [0x00, 0xF8, 0x1F, 0x00, 0xAA, 0xAA, 0xAA, 0xAA];
    // RGTC1: a0 = 200, every index 0.
    let rgtc: [u8; 8] = [200, 10, 0, 0, 0, 0, 0, 0];
    // ETC2 individual mode: left sub-block R1 = 0xF, G1 = 0x8, table 0, indices 0 (+2):
    // (255, 138, 2); the right sub-block's colour is 0 (+2).
    let etc2 = ((0xFu64 << 60) | (0x8u64 << 52)).to_be_bytes();
    let mut v = 0;
    // SAFETY: each block array holds exactly the imageSize given; out-pointer to a local.
    unsafe {
        compressed(
            GL_TEXTURE_2D,
            0,
            GL_COMPRESSED_RGBA_S3TC_DXT1,
            4,
            4,
            0,
            8,
            bc1.as_ptr().cast(),
        );
        assert_eq!(error(), GL_NO_ERROR);
        level(GL_TEXTURE_2D, 0, 0x86A1, &mut v); // GL_TEXTURE_COMPRESSED
        assert_eq!(v, 1);
        // Kept as BC1 where the device samples it: BC1's interpolation may round either way.
        gl_harness::assert_rgba8_near(sample("sampler2D", CENTRE), [170, 0, 85, 255], "BC1");
        // A sub-image off the block grid is refused; a wrong size too.
        compressed_sub(
            GL_TEXTURE_2D,
            0,
            2,
            0,
            2,
            4,
            GL_COMPRESSED_RGBA_S3TC_DXT1,
            8,
            bc1.as_ptr().cast(),
        );
        expect(GL_INVALID_OPERATION);
        compressed(
            GL_TEXTURE_2D,
            0,
            GL_COMPRESSED_RGBA_S3TC_DXT1,
            4,
            4,
            0,
            7,
            bc1.as_ptr().cast(),
        );
        expect(GL_INVALID_VALUE);
        compressed(
            GL_TEXTURE_2D,
            0,
            GL_COMPRESSED_RED_RGTC1,
            4,
            4,
            0,
            8,
            rgtc.as_ptr().cast(),
        );
        assert_eq!(sample("sampler2D", CENTRE), [200, 0, 0, 255]);
        compressed(
            GL_TEXTURE_2D,
            0,
            GL_COMPRESSED_RGB8_ETC2,
            4,
            4,
            0,
            8,
            etc2.as_ptr().cast(),
        );
        assert_eq!(
            sample("sampler2D", "texture(t, vec2(0.125, 0.5))"),
            [255, 138, 2, 255]
        );
        assert_eq!(
            sample("sampler2D", "texture(t, vec2(0.875, 0.5))"),
            [2, 2, 2, 255]
        );
        // A full-block sub-image replaces the texels.
        compressed(
            GL_TEXTURE_2D,
            0,
            GL_COMPRESSED_RGBA_S3TC_DXT1,
            8,
            4,
            0,
            16,
            [bc1, bc1].concat().as_ptr().cast(),
        );
        let white: [u8; 8] = [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0];
        compressed_sub(
            GL_TEXTURE_2D,
            0,
            4,
            0,
            4,
            4,
            GL_COMPRESSED_RGBA_S3TC_DXT1,
            8,
            white.as_ptr().cast(),
        );
        assert_eq!(error(), GL_NO_ERROR);
        assert_eq!(
            sample("sampler2D", "texture(t, vec2(0.75, 0.5))"),
            [255, 255, 255, 255]
        );
        gl_harness::assert_rgba8_near(
            sample("sampler2D", "texture(t, vec2(0.25, 0.5))"),
            [170, 0, 85, 255],
            "BC1 beside the replaced block",
        );
    }
}
