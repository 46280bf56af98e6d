//! Image copies and texture readback through the C ABI: `glGetTexImage` (every target, levels,
//! the pack state, the pixel pack buffer, depth), `glCopyTexImage*`/`glCopyTexSubImage*` from
//! the read framebuffer, and `glCopyImageSubData` between and within images, each checked by
//! value, plus the errors the spec lists. The results here are defined exactly (bit copies of
//! uploaded or cleared values), so the expected bytes are written out rather than rendered by
//! llvmpipe. Every test runs in its own context and fails on any validation error.

use std::ffi::c_void;
use std::ptr::{null, null_mut};

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, error, expect, f, new_texture as texture};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_INVALID_FRAMEBUFFER_OPERATION: u32 = 0x0506;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_FLOAT: u32 = 0x1406;
const GL_RED: u32 = 0x1903;
const GL_RGB: u32 = 0x1907;
const GL_RGBA: u32 = 0x1908;
const GL_BGRA: u32 = 0x80E1;
const GL_RGBA_INTEGER: u32 = 0x8D99;
const GL_DEPTH_COMPONENT: u32 = 0x1902;
const GL_RGBA8: u32 = 0x8058;
const GL_RGB8: u32 = 0x8051;
const GL_R32F: u32 = 0x822E;
const GL_R8: u32 = 0x8229;
const GL_RGBA8UI: u32 = 0x8D7C;
const GL_DEPTH_COMPONENT32F: u32 = 0x8CAC;
const GL_TEXTURE_1D: u32 = 0x0DE0;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_TEXTURE_3D: u32 = 0x806F;
const GL_TEXTURE_1D_ARRAY: u32 = 0x8C18;
const GL_TEXTURE_2D_ARRAY: u32 = 0x8C1A;
const GL_TEXTURE_CUBE_MAP: u32 = 0x8513;
const GL_TEXTURE_CUBE_MAP_POSITIVE_X: u32 = 0x8515;
const GL_TEXTURE_BUFFER: u32 = 0x8C2A;
const GL_RENDERBUFFER: u32 = 0x8D41;
const GL_PACK_ALIGNMENT: u32 = 0x0D05;
const GL_PACK_ROW_LENGTH: u32 = 0x0D02;
const GL_PACK_SKIP_ROWS: u32 = 0x0D03;
const GL_PACK_SKIP_PIXELS: u32 = 0x0D04;
const GL_PIXEL_PACK_BUFFER: u32 = 0x88EB;
const GL_STATIC_READ: u32 = 0x88E5;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_DEPTH_ATTACHMENT: u32 = 0x8D00;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_DEPTH_BUFFER_BIT: u32 = 0x0100;
const GL_SCISSOR_TEST: u32 = 0x0C11;

/// `glTexImage2D` of RGBA8 bytes (or storage only for `None`).
fn image_2d(target: u32, level: i32, internal: u32, w: i32, h: i32, data: Option<&[u8]>) {
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let p = data.map_or(null(), |d| d.as_ptr().cast());
    // SAFETY: `data` holds w × h RGBA8 pixels (the tests size it so), or NULL.
    unsafe {
        tex_image(
            target,
            level,
            internal as i32,
            w,
            h,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            p,
        )
    };
}

/// `glGetTexImage` into a buffer of `len` bytes prefilled with 0xAA.
fn get_image(target: u32, level: i32, format: u32, ty: u32, len: usize) -> Vec<u8> {
    let get = gl!(c"glGetTexImage": fn(u32, i32, u32, u32, *mut c_void));
    let mut out = vec![0xAA; len];
    // SAFETY: `out` is at least as large as the image under the pack state (callers size it).
    unsafe { get(target, level, format, ty, out.as_mut_ptr().cast()) };
    out
}

/// Distinct RGBA8 bytes for `n` pixels, offset by `seed`.
fn pattern(n: usize, seed: u8) -> Vec<u8> {
    (0..n * 4)
        .map(|i| (i as u8).wrapping_mul(7).wrapping_add(seed))
        .collect()
}

fn pixel_store(pname: u32, v: i32) {
    let store = gl!(c"glPixelStorei": fn(u32, i32));
    // SAFETY: plain call.
    unsafe { store(pname, v) };
}

/// Clears the current draw framebuffer to `c`, then the `rect` (x, y, w, h) to `inner`.
fn clear_with_box(c: [f32; 4], rect: [i32; 4], inner: [f32; 4]) {
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let enable = gl!(c"glEnable": fn(u32));
    let disable = gl!(c"glDisable": fn(u32));
    let scissor = gl!(c"glScissor": fn(i32, i32, i32, i32));
    // SAFETY: plain calls.
    unsafe {
        clear_color(c[0], c[1], c[2], c[3]);
        clear(GL_COLOR_BUFFER_BIT);
        enable(GL_SCISSOR_TEST);
        scissor(rect[0], rect[1], rect[2], rect[3]);
        clear_color(inner[0], inner[1], inner[2], inner[3]);
        clear(GL_COLOR_BUFFER_BIT);
        disable(GL_SCISSOR_TEST);
    }
}

#[test]
fn get_tex_image_returns_every_level_of_2d_textures_as_uploaded() {
    let _c = context();
    texture(GL_TEXTURE_2D);
    let level0 = pattern(8 * 4, 1);
    let level1 = pattern(4 * 2, 90);
    image_2d(GL_TEXTURE_2D, 0, GL_RGBA8, 8, 4, Some(&level0));
    image_2d(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 2, Some(&level1));
    assert_eq!(
        get_image(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, 128),
        level0
    );
    assert_eq!(
        get_image(GL_TEXTURE_2D, 1, GL_RGBA, GL_UNSIGNED_BYTE, 32),
        level1
    );
    // BGRA swaps red and blue.
    let bgra = get_image(GL_TEXTURE_2D, 1, GL_BGRA, GL_UNSIGNED_BYTE, 32);
    assert_eq!(&bgra[..4], &[level1[2], level1[1], level1[0], level1[3]]);
    // An RGB texture reads alpha as 1 whatever the storage holds.
    texture(GL_TEXTURE_2D);
    image_2d(
        GL_TEXTURE_2D,
        0,
        GL_RGB8,
        2,
        1,
        Some(&[10, 20, 30, 40, 50, 60, 70, 80]),
    );
    assert_eq!(
        get_image(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, 8),
        [10, 20, 30, 255, 50, 60, 70, 255]
    );
    // A float texture read as floats, and an 8-bit one read as floats.
    texture(GL_TEXTURE_2D);
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let values = [0.25f32, -3.5, 1e6, 0.0];
    // SAFETY: 4 × 1 floats.
    unsafe {
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_R32F as i32,
            4,
            1,
            0,
            GL_RED,
            GL_FLOAT,
            values.as_ptr().cast(),
        )
    };
    let got = get_image(GL_TEXTURE_2D, 0, GL_RED, GL_FLOAT, 16);
    let floats: Vec<f32> = got
        .chunks(4)
        .map(|c| f32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(floats, values);
    expect(GL_NO_ERROR);
}

#[test]
fn get_tex_image_honours_the_pack_state_and_leaves_the_gaps_alone() {
    let _c = context();
    texture(GL_TEXTURE_2D);
    let data = pattern(3 * 2, 5);
    image_2d(GL_TEXTURE_2D, 0, GL_RGBA8, 3, 2, Some(&data));
    // Rows of 5 pixels, 1 pixel and 1 row skipped, RGB (3 bytes) aligned to 8.
    pixel_store(GL_PACK_ROW_LENGTH, 5);
    pixel_store(GL_PACK_SKIP_PIXELS, 1);
    pixel_store(GL_PACK_SKIP_ROWS, 1);
    pixel_store(GL_PACK_ALIGNMENT, 8);
    let stride = 16; // 5 × 3 = 15, aligned to 8
    let out = get_image(GL_TEXTURE_2D, 0, GL_RGB, GL_UNSIGNED_BYTE, stride * 3);
    for y in 0..2 {
        for x in 0..3 {
            let at = (1 + y) * stride + (1 + x) * 3;
            let src = (y * 3 + x) * 4;
            assert_eq!(&out[at..at + 3], &data[src..src + 3], "pixel ({x}, {y})");
        }
    }
    // Nothing outside the pixels is written.
    assert!(out[..stride + 3].iter().all(|&b| b == 0xAA));
    assert_eq!(out[stride + 12], 0xAA);
    expect(GL_NO_ERROR);
}

#[test]
fn get_tex_image_reads_every_target_layer_and_face() {
    let _c = context();
    let tex3d =
        gl!(c"glTexImage3D": fn(u32, i32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let tex1d = gl!(c"glTexImage1D": fn(u32, i32, i32, i32, i32, u32, u32, *const c_void));
    // 3D: 2 × 2 × 3 slices.
    texture(GL_TEXTURE_3D);
    let d3 = pattern(12, 3);
    // SAFETY: 12 RGBA8 texels.
    unsafe {
        tex3d(
            GL_TEXTURE_3D,
            0,
            GL_RGBA8 as i32,
            2,
            2,
            3,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            d3.as_ptr().cast(),
        )
    };
    assert_eq!(
        get_image(GL_TEXTURE_3D, 0, GL_RGBA, GL_UNSIGNED_BYTE, 48),
        d3
    );
    // 2D array: 2 × 1 × 4 layers.
    texture(GL_TEXTURE_2D_ARRAY);
    let arr = pattern(8, 40);
    // SAFETY: 8 RGBA8 texels.
    unsafe {
        tex3d(
            GL_TEXTURE_2D_ARRAY,
            0,
            GL_RGBA8 as i32,
            2,
            1,
            4,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            arr.as_ptr().cast(),
        )
    };
    assert_eq!(
        get_image(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA, GL_UNSIGNED_BYTE, 32),
        arr
    );
    // 1D array: 3 texels × 2 layers (the layers are rows).
    texture(GL_TEXTURE_1D_ARRAY);
    let a1 = pattern(6, 77);
    image_2d(GL_TEXTURE_1D_ARRAY, 0, GL_RGBA8, 3, 2, Some(&a1));
    assert_eq!(
        get_image(GL_TEXTURE_1D_ARRAY, 0, GL_RGBA, GL_UNSIGNED_BYTE, 24),
        a1
    );
    // 1D, level 1.
    texture(GL_TEXTURE_1D);
    let l0 = pattern(4, 9);
    let l1 = pattern(2, 200);
    // SAFETY: 4 and 2 RGBA8 texels.
    unsafe {
        tex1d(
            GL_TEXTURE_1D,
            0,
            GL_RGBA8 as i32,
            4,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            l0.as_ptr().cast(),
        );
        tex1d(
            GL_TEXTURE_1D,
            1,
            GL_RGBA8 as i32,
            2,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            l1.as_ptr().cast(),
        );
    }
    assert_eq!(
        get_image(GL_TEXTURE_1D, 1, GL_RGBA, GL_UNSIGNED_BYTE, 8),
        l1
    );
    // Cube: each face its own data.
    texture(GL_TEXTURE_CUBE_MAP);
    let faces: Vec<Vec<u8>> = (0..6).map(|i| pattern(4, 30 * i as u8)).collect();
    for (i, face) in faces.iter().enumerate() {
        image_2d(
            GL_TEXTURE_CUBE_MAP_POSITIVE_X + i as u32,
            0,
            GL_RGBA8,
            2,
            2,
            Some(face),
        );
    }
    for (i, face) in faces.iter().enumerate() {
        let got = get_image(
            GL_TEXTURE_CUBE_MAP_POSITIVE_X + i as u32,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            16,
        );
        assert_eq!(&got, face, "face {i}");
    }
    expect(GL_NO_ERROR);
}

#[test]
fn get_tex_image_writes_into_the_pixel_pack_buffer() {
    let _c = context();
    texture(GL_TEXTURE_2D);
    let data = pattern(4, 17);
    image_2d(GL_TEXTURE_2D, 0, GL_RGBA8, 2, 2, Some(&data));
    let gen = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let buffer_data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let get_sub = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut c_void));
    let get = gl!(c"glGetTexImage": fn(u32, i32, u32, u32, *mut c_void));
    let mut b = 0;
    let mut back = [0u8; 24];
    // SAFETY: out-pointers to locals; with a pack buffer bound the pointer is an offset.
    unsafe {
        gen(1, &mut b);
        bind(GL_PIXEL_PACK_BUFFER, b);
        buffer_data(
            GL_PIXEL_PACK_BUFFER,
            24,
            [0x55u8; 24].as_ptr().cast(),
            GL_STATIC_READ,
        );
        get(
            GL_TEXTURE_2D,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            8 as *mut c_void,
        );
        expect(GL_NO_ERROR);
        get_sub(GL_PIXEL_PACK_BUFFER, 0, 24, back.as_mut_ptr().cast());
        // 16 bytes at offset 9 do not fit 24.
        get(
            GL_TEXTURE_2D,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            9 as *mut c_void,
        );
        expect(GL_INVALID_OPERATION);
    }
    assert_eq!(&back[..8], &[0x55; 8]);
    assert_eq!(&back[8..], &data[..]);
}

#[test]
fn get_tex_image_reads_depth_textures() {
    let _c = context();
    let tex = texture(GL_TEXTURE_2D);
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let clear_depth = gl!(c"glClearDepth": fn(f64));
    let clear = gl!(c"glClear": fn(u32));
    let draw_buffer = gl!(c"glDrawBuffer": fn(u32));
    let read_buffer = gl!(c"glReadBuffer": fn(u32));
    let mut fb = 0;
    // SAFETY: storage only (NULL data); out-pointer to a local.
    unsafe {
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_DEPTH_COMPONENT32F as i32,
            4,
            4,
            0,
            GL_DEPTH_COMPONENT,
            GL_FLOAT,
            null(),
        );
        gen_fbs(1, &mut fb);
        bind_fb(GL_FRAMEBUFFER, fb);
        attach(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, tex, 0);
        draw_buffer(0);
        read_buffer(0);
        clear_depth(0.375);
        clear(GL_DEPTH_BUFFER_BIT);
    }
    let got = get_image(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, GL_FLOAT, 64);
    for c in got.chunks(4) {
        assert_eq!(f32::from_ne_bytes([c[0], c[1], c[2], c[3]]), 0.375);
    }
    // A colour format from a depth texture is an error.
    get_image(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, 64);
    expect(GL_INVALID_OPERATION);
}

#[test]
fn copy_tex_image_converts_depth_between_formats() {
    const GL_DEPTH_COMPONENT24: u32 = 0x81A6;
    let _c = context();
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let copy = gl!(c"glCopyTexImage2D": fn(u32, i32, u32, i32, i32, i32, i32, i32));
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let clear_depth = gl!(c"glClearDepth": fn(f64));
    let clear = gl!(c"glClear": fn(u32));
    let draw_buffer = gl!(c"glDrawBuffer": fn(u32));
    let read_buffer = gl!(c"glReadBuffer": fn(u32));
    // A 24-bit depth framebuffer cleared to 0.75.
    let source = texture(GL_TEXTURE_2D);
    let mut fb = 0;
    // SAFETY: storage only (NULL data); out-pointer to a local.
    unsafe {
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_DEPTH_COMPONENT24 as i32,
            4,
            4,
            0,
            GL_DEPTH_COMPONENT,
            GL_FLOAT,
            null(),
        );
        gen_fbs(1, &mut fb);
        bind_fb(GL_FRAMEBUFFER, fb);
        attach(
            GL_FRAMEBUFFER,
            GL_DEPTH_ATTACHMENT,
            GL_TEXTURE_2D,
            source,
            0,
        );
        draw_buffer(0);
        read_buffer(0);
        clear_depth(0.75);
        clear(GL_DEPTH_BUFFER_BIT);
        // Copied into a float depth texture: Vulkan cannot blit D24 into D32F.
        texture(GL_TEXTURE_2D);
        copy(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT32F, 0, 0, 4, 4, 0);
    }
    expect(GL_NO_ERROR);
    let got = get_image(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, GL_FLOAT, 64);
    for c in got.chunks(4) {
        let d = f32::from_ne_bytes([c[0], c[1], c[2], c[3]]);
        assert!((d - 0.75).abs() < 1e-6, "copied depth {d}");
    }
}

#[test]
fn get_tex_image_errors_follow_the_spec() {
    let _c = context();
    texture(GL_TEXTURE_2D);
    image_2d(GL_TEXTURE_2D, 0, GL_RGBA8, 2, 2, Some(&pattern(4, 0)));
    let get = gl!(c"glGetTexImage": fn(u32, i32, u32, u32, *mut c_void));
    let mut out = [0u8; 64];
    let p = out.as_mut_ptr().cast();
    // SAFETY: 64 bytes hold every image these calls could write.
    unsafe {
        get(GL_TEXTURE_CUBE_MAP, 0, GL_RGBA, GL_UNSIGNED_BYTE, p);
        expect(GL_INVALID_ENUM);
        get(GL_TEXTURE_2D, -1, GL_RGBA, GL_UNSIGNED_BYTE, p);
        expect(GL_INVALID_VALUE);
        get(GL_TEXTURE_2D, 40, GL_RGBA, GL_UNSIGNED_BYTE, p);
        expect(GL_INVALID_VALUE);
        get(GL_TEXTURE_2D, 0, GL_RGBA, 0x1234, p);
        expect(GL_INVALID_ENUM);
        get(GL_TEXTURE_2D, 0, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, p);
        expect(GL_INVALID_OPERATION);
        get(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, GL_FLOAT, p);
        expect(GL_INVALID_OPERATION);
        // An undefined level writes nothing and is no error.
        out[0] = 0xEE;
        get(
            GL_TEXTURE_2D,
            3,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            out.as_mut_ptr().cast(),
        );
        expect(GL_NO_ERROR);
    }
    assert_eq!(out[0], 0xEE);
}

#[test]
fn copy_tex_sub_image_2d_lands_the_framebuffer_pixels_at_the_offset() {
    let _c = context();
    // The 32×32 window: blue, with a red 4×4 box at (8, 8).
    clear_with_box([0.0, 0.0, 1.0, 1.0], [8, 8, 4, 4], [1.0, 0.0, 0.0, 1.0]);
    texture(GL_TEXTURE_2D);
    image_2d(GL_TEXTURE_2D, 0, GL_RGBA8, 8, 8, Some(&[0u8; 256]));
    let copy = gl!(c"glCopyTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, i32, i32));
    // SAFETY: plain call.
    unsafe { copy(GL_TEXTURE_2D, 0, 2, 3, 7, 7, 4, 4) };
    expect(GL_NO_ERROR);
    let got = get_image(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, 256);
    let at = |x: usize, y: usize| &got[(y * 8 + x) * 4..(y * 8 + x) * 4 + 4];
    // Source (7, 7) is blue, (8..11, 8..11) red; they land at (2, 3) and (3.., 4..).
    assert_eq!(at(2, 3), [0, 0, 255, 255]);
    assert_eq!(at(3, 4), [255, 0, 0, 255]);
    assert_eq!(at(5, 6), [255, 0, 0, 255]);
    assert_eq!(at(1, 3), [0, 0, 0, 0], "left of the copy stays");
    assert_eq!(at(6, 6), [0, 0, 0, 0], "right of the copy stays");
    // A rectangle hanging off the bottom-left corner copies the part inside.
    // SAFETY: plain call.
    unsafe { copy(GL_TEXTURE_2D, 0, 0, 0, -2, -2, 4, 4) };
    expect(GL_NO_ERROR);
    let got = get_image(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, 256);
    assert_eq!(
        &got[(2 * 8 + 2) * 4..(2 * 8 + 2) * 4 + 4],
        &[0, 0, 255, 255]
    );
}

#[test]
fn copy_tex_image_2d_specifies_a_level_in_another_format() {
    let _c = context();
    clear_with_box([0.2, 0.4, 0.6, 0.8], [0, 0, 1, 1], [1.0, 0.0, 0.0, 0.0]);
    texture(GL_TEXTURE_2D);
    let copy = gl!(c"glCopyTexImage2D": fn(u32, i32, u32, i32, i32, i32, i32, i32));
    // RGB8 drops alpha; R8 keeps red only.
    // SAFETY: plain call.
    unsafe { copy(GL_TEXTURE_2D, 0, GL_RGB8, 0, 0, 2, 2, 0) };
    expect(GL_NO_ERROR);
    let got = get_image(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, 16);
    assert_eq!(&got[..4], &[255, 0, 0, 255]);
    assert_eq!(&got[4..8], &[51, 102, 153, 255]);
    texture(GL_TEXTURE_2D);
    // SAFETY: plain call.
    unsafe { copy(GL_TEXTURE_2D, 0, GL_R8, 1, 0, 1, 1, 0) };
    expect(GL_NO_ERROR);
    assert_eq!(
        get_image(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, 4),
        [51, 0, 0, 255]
    );
    // A 1D array from rows: row i becomes layer i.
    texture(GL_TEXTURE_1D_ARRAY);
    // SAFETY: plain call.
    unsafe { copy(GL_TEXTURE_1D_ARRAY, 0, GL_RGBA8, 0, 0, 2, 2, 0) };
    expect(GL_NO_ERROR);
    let got = get_image(GL_TEXTURE_1D_ARRAY, 0, GL_RGBA, GL_UNSIGNED_BYTE, 16);
    assert_eq!(&got[..4], &[255, 0, 0, 0]);
    assert_eq!(&got[8..12], &[51, 102, 153, 204]);
}

#[test]
fn copy_tex_sub_image_3d_writes_one_layer() {
    let _c = context();
    clear_with_box([0.0, 1.0, 0.0, 1.0], [0, 0, 0, 0], [0.0; 4]);
    texture(GL_TEXTURE_2D_ARRAY);
    let tex3d =
        gl!(c"glTexImage3D": fn(u32, i32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let copy = gl!(c"glCopyTexSubImage3D": fn(u32, i32, i32, i32, i32, i32, i32, i32, i32));
    // SAFETY: 2 × 2 × 3 zeroed texels; then a plain call.
    unsafe {
        tex3d(
            GL_TEXTURE_2D_ARRAY,
            0,
            GL_RGBA8 as i32,
            2,
            2,
            3,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            [0u8; 48].as_ptr().cast(),
        );
        copy(GL_TEXTURE_2D_ARRAY, 0, 0, 0, 1, 5, 5, 2, 2);
    }
    expect(GL_NO_ERROR);
    let got = get_image(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA, GL_UNSIGNED_BYTE, 48);
    assert!(got[..16].iter().all(|&b| b == 0), "layer 0 untouched");
    assert_eq!(got[16..32], [0, 255, 0, 255].repeat(4));
    assert!(got[32..].iter().all(|&b| b == 0), "layer 2 untouched");
}

#[test]
fn copy_tex_image_errors_follow_the_spec() {
    let _c = context();
    let copy = gl!(c"glCopyTexImage2D": fn(u32, i32, u32, i32, i32, i32, i32, i32));
    let copy_sub = gl!(c"glCopyTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, i32, i32));
    let storage = gl!(c"glTexStorage2D": fn(u32, i32, u32, i32, i32));
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    texture(GL_TEXTURE_2D);
    // SAFETY: plain calls; out-pointer to a local.
    unsafe {
        copy(GL_TEXTURE_3D, 0, GL_RGBA8, 0, 0, 2, 2, 0);
        expect(GL_INVALID_ENUM);
        copy(GL_TEXTURE_2D, 0, GL_RGBA8, 0, 0, 2, 2, 1);
        expect(GL_INVALID_VALUE);
        copy(GL_TEXTURE_2D, 0, GL_RGBA8, 0, 0, -1, 2, 0);
        expect(GL_INVALID_VALUE);
        // glTexImage's legacy component counts are not internal formats here: GL_INVALID_ENUM
        // (piglit copyteximage), like any other unknown internal format.
        for legacy in 1..=4 {
            copy(GL_TEXTURE_2D, 0, legacy, 0, 0, 2, 2, 0);
            expect(GL_INVALID_ENUM);
        }
        copy(GL_TEXTURE_2D, 0, 0x1234, 0, 0, 2, 2, 0);
        expect(GL_INVALID_ENUM);
        // An integer texture from a normalized framebuffer.
        copy(GL_TEXTURE_2D, 0, GL_RGBA8UI, 0, 0, 2, 2, 0);
        expect(GL_INVALID_OPERATION);
        // Sub-image of an undefined level, and a region outside the level.
        copy_sub(GL_TEXTURE_2D, 0, 0, 0, 0, 0, 2, 2);
        expect(GL_INVALID_OPERATION);
        copy(GL_TEXTURE_2D, 0, GL_RGBA8, 0, 0, 4, 4, 0);
        expect(GL_NO_ERROR);
        copy_sub(GL_TEXTURE_2D, 0, 3, 0, 0, 0, 2, 2);
        expect(GL_INVALID_VALUE);
        copy_sub(GL_TEXTURE_2D, -1, 0, 0, 0, 0, 2, 2);
        expect(GL_INVALID_VALUE);
        // Immutable storage cannot be respecified, only copied into.
        texture(GL_TEXTURE_2D);
        storage(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4);
        copy(GL_TEXTURE_2D, 0, GL_RGBA8, 0, 0, 4, 4, 0);
        expect(GL_INVALID_OPERATION);
        copy_sub(GL_TEXTURE_2D, 0, 0, 0, 0, 0, 4, 4);
        expect(GL_NO_ERROR);
        // An incomplete read framebuffer.
        let mut fb = 0;
        gen_fbs(1, &mut fb);
        bind_fb(GL_FRAMEBUFFER, fb);
        copy_sub(GL_TEXTURE_2D, 0, 0, 0, 0, 0, 4, 4);
        expect(GL_INVALID_FRAMEBUFFER_OPERATION);
    }
}

/// An RGBA8 2D texture of `w × h` holding `data`, with nearest filtering (complete without
/// mipmaps).
fn filled_2d(w: i32, h: i32, data: &[u8]) -> u32 {
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let t = texture(GL_TEXTURE_2D);
    image_2d(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, Some(data));
    // SAFETY: plain call.
    unsafe { param(GL_TEXTURE_2D, 0x2801, 0x2600) }; // MIN_FILTER = NEAREST
    t
}

type CopyImage =
    unsafe extern "C" fn(u32, u32, i32, i32, i32, i32, u32, u32, i32, i32, i32, i32, i32, i32, i32);

fn copy_image() -> CopyImage {
    gl!(c"glCopyImageSubData": fn(u32, u32, i32, i32, i32, i32, u32, u32, i32, i32, i32, i32, i32, i32, i32))
}

#[test]
fn copy_image_sub_data_copies_bits_between_textures_and_renderbuffers() {
    let _c = context();
    let copy = copy_image();
    let src_data = pattern(16, 11);
    let src = filled_2d(4, 4, &src_data);
    let dst = filled_2d(4, 4, &[0u8; 64]);
    // SAFETY: plain call.
    unsafe {
        copy(
            src,
            GL_TEXTURE_2D,
            0,
            1,
            1,
            0,
            dst,
            GL_TEXTURE_2D,
            0,
            0,
            2,
            0,
            2,
            2,
            1,
        )
    };
    expect(GL_NO_ERROR);
    let got = get_image(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, 64);
    let px = |d: &[u8], x: usize, y: usize| d[(y * 4 + x) * 4..(y * 4 + x) * 4 + 4].to_vec();
    assert_eq!(px(&got, 0, 2), px(&src_data, 1, 1));
    assert_eq!(px(&got, 1, 3), px(&src_data, 2, 2));
    assert_eq!(px(&got, 0, 0), [0, 0, 0, 0]);
    // RGBA8 into R32F (one 32-bit class): the bits move unchanged.
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let float = texture(GL_TEXTURE_2D);
    // SAFETY: 4 × 4 zero floats; plain calls.
    unsafe {
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_R32F as i32,
            4,
            4,
            0,
            GL_RED,
            GL_FLOAT,
            [0f32; 16].as_ptr().cast(),
        );
        param(GL_TEXTURE_2D, 0x2801, 0x2600);
        copy(
            src,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            float,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            4,
            4,
            1,
        );
    }
    expect(GL_NO_ERROR);
    assert_eq!(get_image(GL_TEXTURE_2D, 0, GL_RED, GL_FLOAT, 64), src_data);
    // Into a renderbuffer, then read it back through a framebuffer.
    let gen_rb = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_rb = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let rb_storage = gl!(c"glRenderbufferStorage": fn(u32, u32, i32, i32));
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let (mut rb, mut fb) = (0, 0);
    let mut back = [0u8; 64];
    // SAFETY: out-pointers to locals; the read is 4 × 4 RGBA8 into 64 bytes.
    unsafe {
        gen_rb(1, &mut rb);
        bind_rb(GL_RENDERBUFFER, rb);
        rb_storage(GL_RENDERBUFFER, GL_RGBA8, 4, 4);
        copy(
            src,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            rb,
            GL_RENDERBUFFER,
            0,
            0,
            0,
            0,
            4,
            4,
            1,
        );
        expect(GL_NO_ERROR);
        gen_fbs(1, &mut fb);
        bind_fb(GL_FRAMEBUFFER, fb);
        attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
        read(
            0,
            0,
            4,
            4,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            back.as_mut_ptr().cast(),
        );
    }
    assert_eq!(&back[..], &src_data[..]);
    expect(GL_NO_ERROR);
}

#[test]
fn copy_image_sub_data_between_levels_faces_and_layers() {
    let _c = context();
    let copy = copy_image();
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    // A cube map with distinct faces.
    let cube = texture(GL_TEXTURE_CUBE_MAP);
    let faces: Vec<Vec<u8>> = (0..6).map(|i| pattern(4, 20 * i as u8 + 1)).collect();
    for (i, face) in faces.iter().enumerate() {
        image_2d(
            GL_TEXTURE_CUBE_MAP_POSITIVE_X + i as u32,
            0,
            GL_RGBA8,
            2,
            2,
            Some(face),
        );
    }
    // SAFETY: plain call.
    unsafe { param(GL_TEXTURE_CUBE_MAP, 0x2801, 0x2600) };
    // Faces 2..4 into layers 1..3 of a 2D array.
    let arr = texture(GL_TEXTURE_2D_ARRAY);
    let tex3d =
        gl!(c"glTexImage3D": fn(u32, i32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    // SAFETY: 2 × 2 × 4 zeroed texels; plain calls.
    unsafe {
        tex3d(
            GL_TEXTURE_2D_ARRAY,
            0,
            GL_RGBA8 as i32,
            2,
            2,
            4,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            [0u8; 64].as_ptr().cast(),
        );
        param(GL_TEXTURE_2D_ARRAY, 0x2801, 0x2600);
        copy(
            cube,
            GL_TEXTURE_CUBE_MAP,
            0,
            0,
            0,
            2,
            arr,
            GL_TEXTURE_2D_ARRAY,
            0,
            0,
            0,
            1,
            2,
            2,
            3,
        );
    }
    expect(GL_NO_ERROR);
    let got = get_image(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA, GL_UNSIGNED_BYTE, 64);
    assert!(got[..16].iter().all(|&b| b == 0));
    for layer in 1..4 {
        assert_eq!(
            &got[layer * 16..layer * 16 + 16],
            &faces[layer + 1][..],
            "layer {layer}"
        );
    }
    // Level 0 into level 1 of one texture (one image, GENERAL layout), then overlapping
    // boxes of one level (undefined in GL, but valid Vulkan: no validation error).
    let mipped = texture(GL_TEXTURE_2D);
    let l0 = pattern(16, 3);
    image_2d(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, Some(&l0));
    image_2d(GL_TEXTURE_2D, 1, GL_RGBA8, 2, 2, Some(&[0u8; 16]));
    image_2d(GL_TEXTURE_2D, 2, GL_RGBA8, 1, 1, Some(&[0u8; 4]));
    // SAFETY: plain calls.
    unsafe {
        copy(
            mipped,
            GL_TEXTURE_2D,
            0,
            2,
            2,
            0,
            mipped,
            GL_TEXTURE_2D,
            1,
            0,
            0,
            0,
            2,
            2,
            1,
        );
        expect(GL_NO_ERROR);
        copy(
            mipped,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            mipped,
            GL_TEXTURE_2D,
            0,
            1,
            1,
            0,
            3,
            3,
            1,
        );
        expect(GL_NO_ERROR);
    }
    let got = get_image(GL_TEXTURE_2D, 1, GL_RGBA, GL_UNSIGNED_BYTE, 16);
    let row = |y: usize| l0[(y * 4 + 2) * 4..(y * 4 + 4) * 4].to_vec();
    assert_eq!(&got[..8], &row(2)[..]);
    assert_eq!(&got[8..], &row(3)[..]);
    // The overlapping copy read the source before writing: (1, 1) holds old (0, 0).
    let level0 = get_image(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, 64);
    assert_eq!(&level0[(4 + 1) * 4..(4 + 1) * 4 + 4], &l0[..4]);
}

#[test]
fn copy_image_sub_data_errors_follow_the_spec() {
    let _c = context();
    let copy = copy_image();
    let a = filled_2d(4, 4, &[0u8; 64]);
    let b = filled_2d(4, 4, &[0u8; 64]);
    let gen = gl!(c"glGenTextures": fn(i32, *mut u32));
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let mut unused = 0;
    // SAFETY: plain calls; out-pointer to a local.
    unsafe {
        // Bad targets: a cube face, a buffer texture, nonsense.
        copy(
            a,
            GL_TEXTURE_CUBE_MAP_POSITIVE_X,
            0,
            0,
            0,
            0,
            b,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            1,
            1,
            1,
        );
        expect(GL_INVALID_ENUM);
        copy(
            a,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            b,
            GL_TEXTURE_BUFFER,
            0,
            0,
            0,
            0,
            1,
            1,
            1,
        );
        expect(GL_INVALID_ENUM);
        // Bad names: 0, never generated; a target that is not the texture's (GL_INVALID_ENUM).
        copy(
            0,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            b,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            1,
            1,
            1,
        );
        expect(GL_INVALID_VALUE);
        copy(
            a,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            9999,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            1,
            1,
            1,
        );
        expect(GL_INVALID_VALUE);
        copy(
            a,
            GL_TEXTURE_3D,
            0,
            0,
            0,
            0,
            b,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            1,
            1,
            1,
        );
        expect(GL_INVALID_ENUM);
        // Levels: beyond a mipmap-incomplete texture's base level is GL_INVALID_OPERATION
        // (Mesa's order), beyond a complete chain GL_INVALID_VALUE.
        copy(
            a,
            GL_TEXTURE_2D,
            1,
            0,
            0,
            0,
            b,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            1,
            1,
            1,
        );
        expect(GL_INVALID_OPERATION);
        let chain = filled_2d(2, 2, &[0u8; 16]);
        image_2d(GL_TEXTURE_2D, 1, GL_RGBA8, 1, 1, Some(&[0u8; 4]));
        copy(
            chain,
            GL_TEXTURE_2D,
            2,
            0,
            0,
            0,
            b,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            1,
            1,
            1,
        );
        expect(GL_INVALID_VALUE);
        copy(
            chain,
            GL_TEXTURE_2D,
            1,
            0,
            0,
            0,
            b,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            1,
            1,
            1,
        );
        expect(GL_NO_ERROR);
        // Boxes outside either image.
        copy(
            a,
            GL_TEXTURE_2D,
            0,
            3,
            0,
            0,
            b,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            2,
            1,
            1,
        );
        expect(GL_INVALID_VALUE);
        copy(
            a,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            1,
            b,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            1,
            1,
            1,
        );
        expect(GL_INVALID_VALUE);
        copy(
            a,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            b,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            -1,
            1,
            1,
        );
        expect(GL_INVALID_VALUE);
        // An incomplete texture (a name with no image).
        gen(1, &mut unused);
        copy(
            unused,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            b,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            1,
            1,
            1,
        );
        expect(GL_INVALID_OPERATION);
        // Incompatible formats: RGBA8 (32 bits) and R8, from a complete texture (`a` has an
        // inconsistent level 1 by now, which is GL_INVALID_OPERATION on its own).
        let rgba8 = filled_2d(4, 4, &[0u8; 64]);
        let r8 = texture(GL_TEXTURE_2D);
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_R8 as i32,
            4,
            4,
            0,
            GL_RED,
            GL_UNSIGNED_BYTE,
            [0u8; 16].as_ptr().cast(),
        );
        param(GL_TEXTURE_2D, 0x2801, 0x2600);
        copy(
            rgba8,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            r8,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            1,
            1,
            1,
        );
        expect(GL_INVALID_OPERATION);
        // A zero-sized copy is no error.
        copy(
            a,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            b,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
        );
        expect(GL_NO_ERROR);
    }
    let _ = (null_mut::<c_void>(), error());
}

/// A luminance client format: `glReadPixels` gives L = R + G + B (GL 4.6 §18.2.8, conversion to
/// L), `glGetTexImage` of an RGBA texture gives L = R (table 8.18); piglit getteximage-luminance
/// checks both.
#[test]
fn luminance_is_the_sum_from_the_framebuffer_and_red_from_a_texture() {
    const GL_LUMINANCE: u32 = 0x1909;
    let _ctx = gl_harness::context_profile(true);
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let mut l = [0u8; 1];
    // SAFETY: `l` holds one GL_LUMINANCE / GL_UNSIGNED_BYTE pixel (pack alignment irrelevant
    // for one pixel).
    unsafe {
        clear_color(64.0 / 255.0, 64.0 / 255.0, 32.0 / 255.0, 1.0);
        clear(GL_COLOR_BUFFER_BIT);
        read(
            0,
            0,
            1,
            1,
            GL_LUMINANCE,
            GL_UNSIGNED_BYTE,
            l.as_mut_ptr().cast(),
        );
    }
    expect(GL_NO_ERROR);
    assert_eq!(l, [160], "R + G + B = 64 + 64 + 32");
    texture(GL_TEXTURE_2D);
    image_2d(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, Some(&[64, 32, 16, 255]));
    assert_eq!(
        get_image(GL_TEXTURE_2D, 0, GL_LUMINANCE, GL_UNSIGNED_BYTE, 1),
        [64],
        "R"
    );
    expect(GL_NO_ERROR);
}
