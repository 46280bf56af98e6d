//! GL_ARB_internalformat_query2 through the C ABI: `glGetInternalformativ` /
//! `glGetInternalformati64v` answers checked against what the GL then does with the format —
//! the sizes of a texture made with it, pixels uploaded and read back with the pairs it names,
//! framebuffer completeness of an attachment it calls renderable — plus the spec's errors and
//! its "unsupported" answers (the caller's buffer left alone for `GL_SAMPLES`). The validation
//! layer must stay silent.

use std::ffi::c_void;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_TEXTURE_3D: u32 = 0x806F;
const GL_TEXTURE_CUBE_MAP: u32 = 0x8513;
const GL_TEXTURE_BUFFER: u32 = 0x8C2A;
const GL_TEXTURE_2D_MULTISAMPLE: u32 = 0x9100;
const GL_RENDERBUFFER: u32 = 0x8D41;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_FRAMEBUFFER_COMPLETE: u32 = 0x8CD5;
const GL_RGBA8: u32 = 0x8058;
const GL_R16F: u32 = 0x822D;
const GL_RG8: u32 = 0x822B;
const GL_RGB10_A2: u32 = 0x8059;
const GL_RGBA16UI: u32 = 0x8D76;
const GL_RGB9_E5: u32 = 0x8C3D;
const GL_DEPTH_COMPONENT24: u32 = 0x81A6;
const GL_DEPTH32F_STENCIL8: u32 = 0x8CAD;
const GL_SRGB8_ALPHA8: u32 = 0x8C43;
const GL_COMPRESSED_RGBA_S3TC_DXT1: u32 = 0x83F1;
const GL_COMPRESSED_RGBA_S3TC_DXT5: u32 = 0x83F3;

const GL_SAMPLES: u32 = 0x80A9;
const GL_NUM_SAMPLE_COUNTS: u32 = 0x9380;
const GL_INTERNALFORMAT_SUPPORTED: u32 = 0x826F;
const GL_INTERNALFORMAT_RED_SIZE: u32 = 0x8271;
const GL_INTERNALFORMAT_ALPHA_SIZE: u32 = 0x8274;
const GL_INTERNALFORMAT_DEPTH_SIZE: u32 = 0x8275;
const GL_INTERNALFORMAT_STENCIL_SIZE: u32 = 0x8276;
const GL_INTERNALFORMAT_RED_TYPE: u32 = 0x8278;
const GL_INTERNALFORMAT_DEPTH_TYPE: u32 = 0x827C;
const GL_MAX_WIDTH: u32 = 0x827E;
const GL_MAX_DEPTH: u32 = 0x8280;
const GL_MAX_COMBINED_DIMENSIONS: u32 = 0x8282;
const GL_FRAMEBUFFER_RENDERABLE: u32 = 0x8289;
const GL_FRAMEBUFFER_BLEND: u32 = 0x828B;
const GL_TEXTURE_IMAGE_FORMAT: u32 = 0x828F;
const GL_TEXTURE_IMAGE_TYPE: u32 = 0x8290;
const GL_GET_TEXTURE_IMAGE_FORMAT: u32 = 0x8291;
const GL_GET_TEXTURE_IMAGE_TYPE: u32 = 0x8292;
const GL_COLOR_ENCODING: u32 = 0x8296;
const GL_FILTER: u32 = 0x829A;
const GL_SHADER_IMAGE_LOAD: u32 = 0x82A4;
const GL_IMAGE_TEXEL_SIZE: u32 = 0x82A7;
const GL_TEXTURE_COMPRESSED: u32 = 0x86A1;
const GL_TEXTURE_COMPRESSED_BLOCK_WIDTH: u32 = 0x82B1;
const GL_TEXTURE_COMPRESSED_BLOCK_SIZE: u32 = 0x82B3;
const GL_VIEW_COMPATIBILITY_CLASS: u32 = 0x82B6;
const GL_FULL_SUPPORT: i32 = 0x82B7;
const GL_VIEW_CLASS_32_BITS: i32 = 0x82C8;
const GL_SRGB: i32 = 0x8C40;
const GL_LINEAR: i32 = 0x2601;

/// `glGetInternalformativ` of one value (the buffer starts at -1).
fn q(target: u32, internal: u32, pname: u32) -> i32 {
    let query = gl!(c"glGetInternalformativ": fn(u32, u32, u32, i32, *mut i32));
    let mut v = -1;
    // SAFETY: one value into a local.
    unsafe { query(target, internal, pname, 1, &mut v) };
    v
}

/// `glGetInternalformati64v` of one value (the buffer starts at -1).
fn q64(target: u32, internal: u32, pname: u32) -> i64 {
    let query = gl!(c"glGetInternalformati64v": fn(u32, u32, u32, i32, *mut i64));
    let mut v = -1;
    // SAFETY: one value into a local.
    unsafe { query(target, internal, pname, 1, &mut v) };
    v
}

/// `glGetTexLevelParameteriv` of level 0 of the texture bound to `target`.
fn level_param(target: u32, pname: u32) -> i32 {
    let get = gl!(c"glGetTexLevelParameteriv": fn(u32, i32, u32, *mut i32));
    let mut v = -1;
    // SAFETY: one value into a local.
    unsafe { get(target, 0, pname, &mut v) };
    v
}

#[test]
fn sizes_and_types_are_those_of_the_texture_made() {
    let _ctx = gl_harness::context();
    let storage = gl!(c"glTexStorage2D": fn(u32, i32, u32, i32, i32));
    // GL_TEXTURE_RED_SIZE, _ALPHA_SIZE, _DEPTH_SIZE, _STENCIL_SIZE, _RED_TYPE, _DEPTH_TYPE.
    let pairs = [
        (GL_INTERNALFORMAT_RED_SIZE, 0x805C),
        (GL_INTERNALFORMAT_ALPHA_SIZE, 0x805F),
        (GL_INTERNALFORMAT_DEPTH_SIZE, 0x884A),
        (GL_INTERNALFORMAT_STENCIL_SIZE, 0x88F1),
        (GL_INTERNALFORMAT_RED_TYPE, 0x8C10),
        (GL_INTERNALFORMAT_DEPTH_TYPE, 0x8C16),
    ];
    for internal in [
        GL_RGBA8,
        GL_R16F,
        GL_RGB10_A2,
        GL_RGBA16UI,
        GL_DEPTH_COMPONENT24,
        GL_DEPTH32F_STENCIL8,
    ] {
        assert_eq!(q(GL_TEXTURE_2D, internal, GL_INTERNALFORMAT_SUPPORTED), 1);
        gl_harness::new_texture(GL_TEXTURE_2D);
        // SAFETY: plain values.
        unsafe { storage(GL_TEXTURE_2D, 1, internal, 4, 4) };
        expect(GL_NO_ERROR);
        for (query2, level) in pairs {
            let want = level_param(GL_TEXTURE_2D, level);
            assert_eq!(
                q(GL_TEXTURE_2D, internal, query2),
                want,
                "format 0x{internal:04X}, pname 0x{query2:04X}"
            );
            assert_eq!(q64(GL_TEXTURE_2D, internal, query2), i64::from(want));
        }
    }
    assert_eq!(
        q(GL_TEXTURE_2D, GL_RGB10_A2, GL_INTERNALFORMAT_RED_SIZE),
        10
    );
    assert_eq!(
        q(
            GL_TEXTURE_2D,
            GL_DEPTH32F_STENCIL8,
            GL_INTERNALFORMAT_STENCIL_SIZE
        ),
        8
    );
    expect(GL_NO_ERROR);
}

#[test]
fn named_pixel_pairs_upload_and_read_back_exactly() {
    let _ctx = gl_harness::context();
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let get = gl!(c"glGetTexImage": fn(u32, i32, u32, u32, *mut c_void));
    // RG8 (2 bytes a texel) and R16F (one half float): the pairs carry the bits exactly.
    for (internal, texel_bytes) in [(GL_RG8, 2), (GL_R16F, 2), (GL_RGBA8, 4)] {
        let format = q(GL_TEXTURE_2D, internal, GL_TEXTURE_IMAGE_FORMAT) as u32;
        let ty = q(GL_TEXTURE_2D, internal, GL_TEXTURE_IMAGE_TYPE) as u32;
        assert_eq!(
            (format, ty),
            (
                q(GL_TEXTURE_2D, internal, GL_GET_TEXTURE_IMAGE_FORMAT) as u32,
                q(GL_TEXTURE_2D, internal, GL_GET_TEXTURE_IMAGE_TYPE) as u32
            )
        );
        // Half floats 0x3C00 (1.0) and 0x3800 (0.5); bytes for the 8-bit formats.
        let texels: Vec<u8> = (0..16 * texel_bytes)
            .map(|i| {
                if internal == GL_R16F {
                    [0x00, 0x3C, 0x00, 0x38][i % 4]
                } else {
                    (i * 13) as u8
                }
            })
            .collect();
        gl_harness::new_texture(GL_TEXTURE_2D);
        let mut back = vec![0u8; texels.len()];
        // SAFETY: `texels` and `back` hold 4×4 texels of the pair (rows of 8 or 16 bytes,
        // multiples of the default alignment 4).
        unsafe {
            image(
                GL_TEXTURE_2D,
                0,
                internal as i32,
                4,
                4,
                0,
                format,
                ty,
                texels.as_ptr().cast(),
            );
            get(GL_TEXTURE_2D, 0, format, ty, back.as_mut_ptr().cast());
        }
        expect(GL_NO_ERROR);
        assert_eq!(
            back, texels,
            "format 0x{internal:04X} via 0x{format:04X}/0x{ty:04X}"
        );
    }
}

#[test]
fn renderable_answers_match_framebuffer_completeness() {
    let _ctx = gl_harness::context();
    let gen_fb = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let status = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
    let storage = gl!(c"glTexStorage2D": fn(u32, i32, u32, i32, i32));
    for internal in [GL_RGBA8, GL_RGB10_A2, GL_RGBA16UI, GL_RGB9_E5] {
        let tex = gl_harness::new_texture(GL_TEXTURE_2D);
        let mut fb = 0;
        // SAFETY: plain values; out-pointer to a local.
        let complete = unsafe {
            storage(GL_TEXTURE_2D, 1, internal, 4, 4);
            gen_fb(1, &mut fb);
            bind_fb(GL_FRAMEBUFFER, fb);
            attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
            let complete = status(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
            bind_fb(GL_FRAMEBUFFER, 0);
            complete
        };
        expect(GL_NO_ERROR);
        let renderable = q(GL_TEXTURE_2D, internal, GL_FRAMEBUFFER_RENDERABLE);
        assert_eq!(renderable == GL_FULL_SUPPORT, complete, "0x{internal:04X}");
    }
    assert_eq!(q(GL_TEXTURE_2D, GL_RGB9_E5, GL_FRAMEBUFFER_RENDERABLE), 0);
    // Integer colour buffers do not blend; RGBA8 does.
    assert_eq!(q(GL_TEXTURE_2D, GL_RGBA16UI, GL_FRAMEBUFFER_BLEND), 0);
    assert_eq!(
        q(GL_TEXTURE_2D, GL_RGBA8, GL_FRAMEBUFFER_BLEND),
        GL_FULL_SUPPORT
    );
    // Buffer textures are never attachments.
    assert_eq!(q(GL_TEXTURE_BUFFER, GL_RGBA8, GL_FRAMEBUFFER_RENDERABLE), 0);
}

#[test]
fn format_properties() {
    let _ctx = gl_harness::context();
    assert_eq!(
        q(GL_TEXTURE_2D, GL_SRGB8_ALPHA8, GL_COLOR_ENCODING),
        GL_SRGB
    );
    assert_eq!(q(GL_TEXTURE_2D, GL_RGBA8, GL_COLOR_ENCODING), GL_LINEAR);
    assert_eq!(q(GL_TEXTURE_2D, GL_DEPTH_COMPONENT24, GL_COLOR_ENCODING), 0);
    assert_eq!(
        q(
            GL_TEXTURE_2D,
            GL_COMPRESSED_RGBA_S3TC_DXT1,
            GL_TEXTURE_COMPRESSED
        ),
        1
    );
    assert_eq!(q(GL_TEXTURE_2D, GL_RGBA8, GL_TEXTURE_COMPRESSED), 0);
    assert_eq!(
        q(
            GL_TEXTURE_2D,
            GL_COMPRESSED_RGBA_S3TC_DXT1,
            GL_TEXTURE_COMPRESSED_BLOCK_WIDTH
        ),
        4
    );
    assert_eq!(
        q(
            GL_TEXTURE_2D,
            GL_COMPRESSED_RGBA_S3TC_DXT1,
            GL_TEXTURE_COMPRESSED_BLOCK_SIZE
        ),
        8
    );
    assert_eq!(
        q(
            GL_TEXTURE_2D,
            GL_COMPRESSED_RGBA_S3TC_DXT5,
            GL_TEXTURE_COMPRESSED_BLOCK_SIZE
        ),
        16
    );
    assert_eq!(
        q(GL_TEXTURE_2D, GL_RGBA8, GL_VIEW_COMPATIBILITY_CLASS),
        GL_VIEW_CLASS_32_BITS
    );
    assert_eq!(q(GL_TEXTURE_2D, GL_RGBA8, GL_IMAGE_TEXEL_SIZE), 32);
    assert_eq!(
        q(GL_TEXTURE_2D, GL_RGBA8, GL_SHADER_IMAGE_LOAD),
        GL_FULL_SUPPORT
    );
    // Integer textures and multisample ones are not filtered.
    assert_eq!(q(GL_TEXTURE_2D, GL_RGBA16UI, GL_FILTER), 0);
    assert_eq!(q(GL_TEXTURE_2D_MULTISAMPLE, GL_RGBA8, GL_FILTER), 0);
    assert_eq!(q(GL_TEXTURE_2D, GL_RGBA8, GL_FILTER), GL_FULL_SUPPORT);
    expect(GL_NO_ERROR);
}

#[test]
fn maximum_sizes_are_the_limits() {
    let _ctx = gl_harness::context();
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let (mut size_3d, mut cube) = (0, 0);
    // SAFETY: out-pointers to locals.
    unsafe {
        get(0x8073, &mut size_3d); // GL_MAX_3D_TEXTURE_SIZE
        get(0x851C, &mut cube); // GL_MAX_CUBE_MAP_TEXTURE_SIZE
    }
    assert_eq!(q(GL_TEXTURE_3D, GL_RGBA8, GL_MAX_DEPTH), size_3d);
    assert_eq!(
        q(GL_TEXTURE_2D, GL_RGBA8, GL_MAX_DEPTH),
        0,
        "2D has no depth"
    );
    assert_eq!(q(GL_TEXTURE_CUBE_MAP, GL_RGBA8, GL_MAX_WIDTH), cube);
    // The product of a 3D texture's sizes passes 2^31: exact in 64 bits, saturated in 32.
    let combined = i64::from(size_3d).pow(3);
    assert_eq!(
        q64(GL_TEXTURE_3D, GL_RGBA8, GL_MAX_COMBINED_DIMENSIONS),
        combined
    );
    assert_eq!(
        q(GL_TEXTURE_3D, GL_RGBA8, GL_MAX_COMBINED_DIMENSIONS),
        combined.min(i64::from(i32::MAX)) as i32
    );
    assert_eq!(
        q64(GL_TEXTURE_CUBE_MAP, GL_RGBA8, GL_MAX_COMBINED_DIMENSIONS),
        i64::from(cube) * i64::from(cube) * 6
    );
    expect(GL_NO_ERROR);
}

#[test]
fn unsupported_resources_get_the_unsupported_answers() {
    let _ctx = gl_harness::context();
    let query = gl!(c"glGetInternalformativ": fn(u32, u32, u32, i32, *mut i32));
    // Depth textures cannot be 3D; a bogus name is no format at all.
    assert_eq!(
        q(
            GL_TEXTURE_3D,
            GL_DEPTH_COMPONENT24,
            GL_INTERNALFORMAT_SUPPORTED
        ),
        0
    );
    assert_eq!(q(GL_TEXTURE_3D, GL_DEPTH_COMPONENT24, GL_MAX_WIDTH), 0);
    assert_eq!(q(GL_TEXTURE_2D, 0x1234, GL_INTERNALFORMAT_SUPPORTED), 0);
    assert_eq!(q(GL_TEXTURE_2D, 0x1234, GL_TEXTURE_IMAGE_FORMAT), 0);
    assert_eq!(
        q(GL_RENDERBUFFER, GL_RGB9_E5, GL_INTERNALFORMAT_SUPPORTED),
        0
    );
    // GL_SAMPLES of a target without samples leaves the buffer alone; the count is 0.
    let mut counts = [-7i32; 4];
    // SAFETY: `counts` holds four values.
    unsafe { query(GL_TEXTURE_2D, GL_RGBA8, GL_SAMPLES, 4, counts.as_mut_ptr()) };
    assert_eq!(counts, [-7; 4]);
    assert_eq!(q(GL_TEXTURE_2D, GL_RGBA8, GL_NUM_SAMPLE_COUNTS), 0);
    assert!(q(GL_TEXTURE_2D_MULTISAMPLE, GL_RGBA8, GL_NUM_SAMPLE_COUNTS) >= 1);
    expect(GL_NO_ERROR);
}

#[test]
fn errors() {
    let _ctx = gl_harness::context();
    let query = gl!(c"glGetInternalformativ": fn(u32, u32, u32, i32, *mut i32));
    let query64 = gl!(c"glGetInternalformati64v": fn(u32, u32, u32, i32, *mut i64));
    let (mut v, mut v64) = (-1, -1);
    // SAFETY: one value into locals; bufSize -1 writes nothing.
    unsafe {
        query(
            GL_FRAMEBUFFER,
            GL_RGBA8,
            GL_INTERNALFORMAT_SUPPORTED,
            1,
            &mut v,
        );
        expect(GL_INVALID_ENUM);
        query64(GL_TEXTURE_2D, GL_RGBA8, 0x0D33, 1, &mut v64); // GL_MAX_TEXTURE_SIZE
        expect(GL_INVALID_ENUM);
        query64(
            GL_TEXTURE_2D,
            GL_RGBA8,
            GL_INTERNALFORMAT_SUPPORTED,
            -1,
            &mut v64,
        );
        expect(GL_INVALID_VALUE);
    }
    assert_eq!((v, v64), (-1, -1), "errors write nothing");
    assert_eq!(gl_harness::validation_errors(), 0);
}
