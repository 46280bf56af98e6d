//! The texture-side GL 4.x extensions through the C ABI: `glClearTex(Sub)Image`
//! (GL_ARB_clear_texture), `glGetTextureSubImage` and `glGetCompressedTextureSubImage`
//! (GL_ARB_get_texture_sub_image), the `GL_MIRROR_CLAMP_TO_EDGE` wrap
//! (GL_ARB_texture_mirror_clamp_to_edge) read back as drawn pixels, and the anisotropy limit
//! (GL_ARB_texture_filter_anisotropic), the 64-byte grid of mapped pointers
//! (GL_ARB_map_buffer_alignment) and framebuffers without attachments
//! (GL_ARB_framebuffer_no_attachments). The validation layer must stay silent.

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
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_TEXTURE_CUBE_MAP: u32 = 0x8513;
const GL_TEXTURE_CUBE_MAP_POSITIVE_X: u32 = 0x8515;
const GL_TEXTURE_MIN_FILTER: u32 = 0x2801;
const GL_TEXTURE_MAG_FILTER: u32 = 0x2800;
const GL_TEXTURE_WRAP_S: u32 = 0x2802;
const GL_NEAREST: i32 = 0x2600;
const GL_CLAMP_TO_EDGE: i32 = 0x812F;
const GL_MIRROR_CLAMP_TO_EDGE: i32 = 0x8743;
const GL_RGBA: u32 = 0x1908;
const GL_RGBA8: u32 = 0x8058;
const GL_DEPTH_COMPONENT: u32 = 0x1902;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_FLOAT: u32 = 0x1406;
const GL_COMPRESSED_RGBA_S3TC_DXT1_EXT: u32 = 0x83F1;
const GL_MAX_TEXTURE_MAX_ANISOTROPY: u32 = 0x84FF;
const GL_TRIANGLES: u32 = 4;

type ClearSub =
    unsafe extern "C" fn(u32, i32, i32, i32, i32, i32, i32, i32, u32, u32, *const c_void);
type GetSub =
    unsafe extern "C" fn(u32, i32, i32, i32, i32, i32, i32, i32, u32, u32, i32, *mut c_void);

/// A new 4×4 RGBA8 texture (one level) filled with `fill`, left bound to `GL_TEXTURE_2D`.
fn rgba_texture(fill: [u8; 4]) -> u32 {
    let storage = gl!(c"glTexStorage2D": fn(u32, i32, u32, i32, i32));
    let sub = gl!(c"glTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let tex = gl_harness::new_texture(GL_TEXTURE_2D);
    let texels = fill.repeat(16);
    // SAFETY: `texels` holds 4×4 RGBA texels.
    unsafe {
        storage(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4);
        sub(
            GL_TEXTURE_2D,
            0,
            0,
            0,
            4,
            4,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texels.as_ptr().cast(),
        );
    }
    expect(GL_NO_ERROR);
    tex
}

/// `glGetTextureSubImage` of the `w`×`h`×`d` box at (`x`, `y`, `z`) of level 0 as RGBA bytes.
fn sub_image(tex: u32, [x, y, z]: [i32; 3], [w, h, d]: [i32; 3]) -> Vec<u8> {
    // SAFETY: `GetSub` is glGetTextureSubImage's C signature.
    let get = unsafe { f::<GetSub>(c"glGetTextureSubImage") };
    let mut out = vec![0u8; (w * h * d * 4) as usize];
    // SAFETY: `out` holds the box's RGBA bytes, its length passed as bufSize.
    unsafe {
        get(
            tex,
            0,
            x,
            y,
            z,
            w,
            h,
            d,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            out.len() as i32,
            out.as_mut_ptr().cast(),
        )
    };
    out
}

#[test]
fn clear_tex_sub_image_fills_the_box_and_nothing_else() {
    let _ctx = gl_harness::context();
    // SAFETY: `ClearSub` is glClearTexSubImage's C signature.
    let clear_sub = unsafe { f::<ClearSub>(c"glClearTexSubImage") };
    let clear = gl!(c"glClearTexImage": fn(u32, i32, u32, u32, *const c_void));
    let tex = rgba_texture([1, 2, 3, 4]);
    let texel = [200u8, 100, 50, 25];
    // SAFETY: `texel` is one RGBA/GL_UNSIGNED_BYTE texel.
    unsafe {
        clear_sub(
            tex,
            0,
            1,
            1,
            0,
            2,
            2,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texel.as_ptr().cast(),
        )
    };
    expect(GL_NO_ERROR);
    let all = sub_image(tex, [0; 3], [4, 4, 1]);
    for (i, px) in all.chunks_exact(4).enumerate() {
        let (x, y) = (i % 4, i / 4);
        let inside = (1..3).contains(&x) && (1..3).contains(&y);
        let want = if inside { texel } else { [1, 2, 3, 4] };
        assert_eq!(px, want, "texel ({x}, {y})");
    }
    // A float texel converts as glTexSubImage would; a null texel clears to zero.
    let half = [0.5f32, 1.0, 0.0, 1.0];
    // SAFETY: one RGBA/GL_FLOAT texel; a null pointer is allowed.
    unsafe {
        clear_sub(
            tex,
            0,
            0,
            0,
            0,
            1,
            1,
            1,
            GL_RGBA,
            GL_FLOAT,
            half.as_ptr().cast(),
        );
        clear_sub(tex, 0, 3, 3, 0, 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, null());
    }
    expect(GL_NO_ERROR);
    gl_harness::assert_rgba8_near(
        sub_image(tex, [0; 3], [1, 1, 1]).try_into().unwrap(),
        [128, 255, 0, 255],
        "float texel",
    );
    assert_eq!(sub_image(tex, [3, 3, 0], [1, 1, 1]), [0, 0, 0, 0]);
    // SAFETY: one RGBA texel.
    unsafe { clear(tex, 0, GL_RGBA, GL_UNSIGNED_BYTE, texel.as_ptr().cast()) };
    assert!(sub_image(tex, [0; 3], [4, 4, 1])
        .chunks_exact(4)
        .all(|px| px == texel));
}

#[test]
fn clear_tex_image_errors() {
    let _ctx = gl_harness::context();
    // SAFETY: `ClearSub` is glClearTexSubImage's C signature.
    let clear_sub = unsafe { f::<ClearSub>(c"glClearTexSubImage") };
    let clear = gl!(c"glClearTexImage": fn(u32, i32, u32, u32, *const c_void));
    let compressed =
        gl!(c"glCompressedTexImage2D": fn(u32, i32, u32, i32, i32, i32, i32, *const c_void));
    let tex = rgba_texture([0; 4]);
    let texel = [0u8; 16];
    let p = texel.as_ptr().cast();
    // SAFETY: every pointer is 16 readable bytes, more than one texel of each pair used.
    unsafe {
        clear(12345, 0, GL_RGBA, GL_UNSIGNED_BYTE, p);
        expect(GL_INVALID_OPERATION);
        clear(tex, 1, GL_RGBA, GL_UNSIGNED_BYTE, p);
        expect(GL_INVALID_OPERATION);
        clear(tex, -1, GL_RGBA, GL_UNSIGNED_BYTE, p);
        expect(GL_INVALID_VALUE);
        clear(tex, 0, GL_DEPTH_COMPONENT, GL_FLOAT, p);
        expect(GL_INVALID_OPERATION);
        clear(tex, 0, GL_RGBA, 0x1234, p);
        expect(GL_INVALID_ENUM);
        clear_sub(tex, 0, 2, 2, 0, 3, 3, 1, GL_RGBA, GL_UNSIGNED_BYTE, p);
        expect(GL_INVALID_OPERATION);
        clear_sub(tex, 0, 0, 0, 0, -1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, p);
        expect(GL_INVALID_VALUE);
        let dxt = gl_harness::new_texture(GL_TEXTURE_2D);
        compressed(
            GL_TEXTURE_2D,
            0,
            GL_COMPRESSED_RGBA_S3TC_DXT1_EXT,
            4,
            4,
            0,
            8,
            p,
        );
        expect(GL_NO_ERROR);
        clear(dxt, 0, GL_RGBA, GL_UNSIGNED_BYTE, p);
        expect(GL_INVALID_OPERATION);
    }
}

#[test]
fn get_texture_sub_image_reads_boxes_and_cube_faces() {
    let _ctx = gl_harness::context_profile(true);
    let sub = gl!(c"glTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let tex = rgba_texture([9, 9, 9, 9]);
    let corner = [10u8, 20, 30, 40].repeat(4);
    // SAFETY: `corner` is 2×2 RGBA texels.
    unsafe {
        sub(
            GL_TEXTURE_2D,
            0,
            2,
            2,
            2,
            2,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            corner.as_ptr().cast(),
        )
    };
    assert_eq!(sub_image(tex, [2, 2, 0], [2, 2, 1]), corner);
    assert_eq!(sub_image(tex, [1, 2, 0], [1, 1, 1]), [9, 9, 9, 9]);
    sub_image(tex, [3, 3, 0], [2, 1, 1]);
    expect(GL_INVALID_VALUE);
    sub_image(tex, [0, 0, 1], [1, 1, 1]);
    expect(GL_INVALID_VALUE);
    sub_image(54321, [0; 3], [1, 1, 1]);
    expect(GL_INVALID_OPERATION);
    // Five of six faces, each its own colour: faces 0..5 read, all six do not.
    let delete = gl!(c"glDeleteTextures": fn(i32, *const u32));
    // SAFETY: one name.
    unsafe { delete(1, &tex) };
    let cube = gl_harness::new_texture(GL_TEXTURE_CUBE_MAP);
    for face in 0..5 {
        // SAFETY: no data.
        unsafe {
            image(
                GL_TEXTURE_CUBE_MAP_POSITIVE_X + face,
                0,
                GL_RGBA as i32,
                8,
                8,
                0,
                GL_RGBA,
                GL_FLOAT,
                null(),
            )
        };
    }
    sub_image(cube, [0; 3], [8, 8, 6]);
    expect(GL_INVALID_OPERATION);
    sub_image(cube, [0; 3], [8, 8, 5]);
    expect(GL_NO_ERROR);
    for face in 0..5u8 {
        let texels = [face * 40, 1, 2, 255].repeat(4);
        // SAFETY: `texels` is 2×2 RGBA texels.
        unsafe {
            image(
                GL_TEXTURE_CUBE_MAP_POSITIVE_X + u32::from(face),
                0,
                GL_RGBA8 as i32,
                2,
                2,
                0,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                texels.as_ptr().cast(),
            )
        };
    }
    expect(GL_NO_ERROR);
    sub_image(cube, [0; 3], [2, 2, 6]);
    expect(GL_INVALID_OPERATION);
    let faces = sub_image(cube, [1, 1, 1], [1, 1, 4]);
    expect(GL_NO_ERROR);
    let reds: Vec<u8> = faces.chunks_exact(4).map(|px| px[0]).collect();
    assert_eq!(reds, [40, 80, 120, 160]);
}

#[test]
fn get_compressed_texture_sub_image_returns_the_blocks_of_the_box() {
    let _ctx = gl_harness::context();
    let compressed =
        gl!(c"glCompressedTexImage2D": fn(u32, i32, u32, i32, i32, i32, i32, *const c_void));
    let get = gl!(c"glGetCompressedTextureSubImage": fn(u32, i32, i32, i32, i32, i32, i32, i32, i32, *mut c_void));
    // An 8×8 DXT1 image: four 8-byte blocks, block i filled with byte i + 1.
    let blocks: Vec<u8> = (1..=4u8).flat_map(|b| [b; 8]).collect();
    let tex = gl_harness::new_texture(GL_TEXTURE_2D);
    let mut out = [0u8; 16];
    // SAFETY: `blocks` is 32 bytes, the image's size; `out` holds 16 bytes, passed as bufSize.
    unsafe {
        compressed(
            GL_TEXTURE_2D,
            0,
            GL_COMPRESSED_RGBA_S3TC_DXT1_EXT,
            8,
            8,
            0,
            32,
            blocks.as_ptr().cast(),
        );
        expect(GL_NO_ERROR);
        // The right column of blocks: blocks 2 and 4.
        get(tex, 0, 4, 0, 0, 4, 8, 1, 16, out.as_mut_ptr().cast());
        expect(GL_NO_ERROR);
        assert_eq!(out[..8], [2; 8]);
        assert_eq!(out[8..], [4; 8]);
        get(tex, 0, 2, 0, 0, 4, 4, 1, 16, out.as_mut_ptr().cast());
        expect(GL_INVALID_VALUE);
        get(tex, 0, 0, 0, 0, 8, 8, 1, 16, out.as_mut_ptr().cast());
        expect(GL_INVALID_OPERATION);
    }
}

const VS: &str = "#version 330\nvoid main() {\n    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n    gl_Position = vec4(p, 0.0, 1.0);\n}\n";
const FS: &str = "#version 330\nuniform sampler2D tex;\nout vec4 frag;\nvoid main() { frag = texture(tex, vec2(-0.75, 0.5)); }\n";

#[test]
fn mirror_clamp_to_edge_mirrors_once_then_clamps() {
    let _ctx = gl_harness::context();
    let storage = gl!(c"glTexStorage2D": fn(u32, i32, u32, i32, i32));
    let sub = gl!(c"glTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let get_param = gl!(c"glGetTexParameteriv": fn(u32, u32, *mut i32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let program = gl_harness::program(VS, FS);
    gl_harness::new_texture(GL_TEXTURE_2D);
    // Two texels: red at s = 0.25, green at s = 0.75.
    let texels = [255u8, 0, 0, 255, 0, 255, 0, 255];
    let mut vao = 0;
    let mut wrap = 0;
    // SAFETY: `texels` is 2×1 RGBA texels; out-pointers to locals.
    unsafe {
        storage(GL_TEXTURE_2D, 1, GL_RGBA8, 2, 1);
        sub(
            GL_TEXTURE_2D,
            0,
            0,
            0,
            2,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texels.as_ptr().cast(),
        );
        param(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        param(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        use_program(program);
        // s = -0.75: mirrored once to 0.75 (green); clamping to the edge reads red.
        param(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_MIRROR_CLAMP_TO_EDGE);
        get_param(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, &mut wrap);
        draw(GL_TRIANGLES, 0, 3);
    }
    expect(GL_NO_ERROR);
    assert_eq!(wrap, GL_MIRROR_CLAMP_TO_EDGE);
    assert_eq!(gl_harness::read_rgba(4, 4, 1, 1), [0, 255, 0, 255]);
    // SAFETY: plain values.
    unsafe {
        param(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        draw(GL_TRIANGLES, 0, 3);
    }
    assert_eq!(gl_harness::read_rgba(4, 4, 1, 1), [255, 0, 0, 255]);
}

#[test]
fn anisotropy_limit_is_the_devices() {
    let _ctx = gl_harness::context();
    let get = gl!(c"glGetFloatv": fn(u32, *mut f32));
    let param = gl!(c"glTexParameterf": fn(u32, u32, f32));
    let mut max = 0.0f32;
    // SAFETY: out-pointer to a local.
    unsafe { get(GL_MAX_TEXTURE_MAX_ANISOTROPY, &mut max) };
    expect(GL_NO_ERROR);
    assert!(max >= 2.0, "GL_MAX_TEXTURE_MAX_ANISOTROPY {max}");
    gl_harness::new_texture(GL_TEXTURE_2D);
    // SAFETY: plain values.
    unsafe {
        param(GL_TEXTURE_2D, 0x84FE, max);
        expect(GL_NO_ERROR);
        param(GL_TEXTURE_2D, 0x84FE, 0.5);
        expect(GL_INVALID_VALUE);
    }
}

#[test]
fn internalformat_sample_counts_descend_to_the_limits() {
    let _ctx = gl_harness::context();
    let query = gl!(c"glGetInternalformativ": fn(u32, u32, u32, i32, *mut i32));
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    const GL_RENDERBUFFER: u32 = 0x8D41;
    const GL_SAMPLES: u32 = 0x80A9;
    const GL_NUM_SAMPLE_COUNTS: u32 = 0x9380;
    const GL_MAX_SAMPLES: u32 = 0x8D57;
    let (mut count, mut max) = (0, 0);
    let mut counts = [-1i32; 8];
    // SAFETY: out-pointers to locals; `counts` holds 8 values, more than bufSize asks.
    unsafe {
        query(
            GL_RENDERBUFFER,
            GL_RGBA8,
            GL_NUM_SAMPLE_COUNTS,
            1,
            &mut count,
        );
        query(
            GL_RENDERBUFFER,
            GL_RGBA8,
            GL_SAMPLES,
            8,
            counts.as_mut_ptr(),
        );
        get(GL_MAX_SAMPLES, &mut max);
    }
    expect(GL_NO_ERROR);
    assert!(count >= 1, "GL_NUM_SAMPLE_COUNTS {count}");
    let got = &counts[..count as usize];
    assert_eq!(got[0], max, "the largest count is GL_MAX_SAMPLES");
    assert!(got.windows(2).all(|w| w[0] > w[1]), "descending: {got:?}");
    assert_eq!(counts[count as usize], -1, "nothing past the counts");
    // bufSize bounds the write.
    let mut one = [-1i32; 2];
    // SAFETY: `one` holds two values; bufSize 1.
    unsafe { query(GL_RENDERBUFFER, GL_RGBA8, GL_SAMPLES, 1, one.as_mut_ptr()) };
    assert_eq!(one, [max, -1]);
    // With GL_ARB_internalformat_query2 every texture target and format may be asked: a
    // target without samples or a format that does not render leaves the buffer alone.
    let mut untouched = [-1i32; 2];
    // SAFETY: as above.
    unsafe {
        query(
            GL_TEXTURE_2D,
            GL_RGBA8,
            GL_SAMPLES,
            1,
            untouched.as_mut_ptr(),
        );
        expect(GL_NO_ERROR);
        query(
            GL_RENDERBUFFER,
            GL_COMPRESSED_RGBA_S3TC_DXT1_EXT,
            GL_SAMPLES,
            1,
            untouched.as_mut_ptr(),
        );
        expect(GL_NO_ERROR);
        query(GL_RENDERBUFFER, GL_RGBA8, GL_SAMPLES, -1, one.as_mut_ptr());
        expect(GL_INVALID_VALUE);
        query(0x8D40, GL_RGBA8, GL_SAMPLES, 1, one.as_mut_ptr()); // GL_FRAMEBUFFER
        expect(GL_INVALID_ENUM);
    }
    assert_eq!(untouched, [-1, -1]);
}

#[test]
fn copy_image_between_1d_and_2d_textures() {
    let _ctx = gl_harness::context();
    let copy = gl!(c"glCopyImageSubData": fn(u32, u32, i32, i32, i32, i32, u32, u32, i32, i32, i32, i32, i32, i32, i32));
    let storage_1d = gl!(c"glTexStorage1D": fn(u32, i32, u32, i32));
    let sub_1d = gl!(c"glTexSubImage1D": fn(u32, i32, i32, i32, u32, u32, *const c_void));
    const GL_TEXTURE_1D: u32 = 0x0DE0;
    let row: Vec<u8> = (0..4u8).flat_map(|i| [i * 60, 10, 20, 255]).collect();
    let line = gl_harness::new_texture(GL_TEXTURE_1D);
    // SAFETY: `row` is 4 RGBA texels.
    unsafe {
        storage_1d(GL_TEXTURE_1D, 1, GL_RGBA8, 4);
        sub_1d(
            GL_TEXTURE_1D,
            0,
            0,
            4,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            row.as_ptr().cast(),
        );
    }
    let square = rgba_texture([0; 4]);
    // SAFETY: plain values.
    unsafe {
        // Texels 1..3 of the line into row 2 of the square at x = 0, and back into the line.
        copy(
            line,
            GL_TEXTURE_1D,
            0,
            1,
            0,
            0,
            square,
            GL_TEXTURE_2D,
            0,
            0,
            2,
            0,
            3,
            1,
            1,
        );
        copy(
            square,
            GL_TEXTURE_2D,
            0,
            0,
            2,
            0,
            line,
            GL_TEXTURE_1D,
            0,
            0,
            0,
            0,
            1,
            1,
            1,
        );
    }
    expect(GL_NO_ERROR);
    assert_eq!(sub_image(square, [0, 2, 0], [3, 1, 1]), row[4..16]);
    assert_eq!(sub_image(line, [0; 3], [1, 1, 1]), row[4..8]);
}

const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_MIN_MAP_BUFFER_ALIGNMENT: u32 = 0x90BC;
const GL_MAP_READ_BIT: u32 = 0x1;
const GL_MAP_WRITE_BIT: u32 = 0x2;
const GL_MAP_PERSISTENT_BIT: u32 = 0x40;

/// GL_ARB_map_buffer_alignment: every pointer `glMapBufferRange` returns lies on the buffer's
/// 64-byte grid — copies of small (shadowed) and large buffers, and persistent storage mapped
/// in place — and the bytes read and written through it are the buffer's.
#[test]
fn mapped_pointers_sit_on_the_64_byte_grid() {
    let _ctx = gl_harness::context();
    let get_integer = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let map = gl!(c"glMapBufferRange": fn(u32, isize, isize, u32) -> *mut c_void);
    let unmap = gl!(c"glUnmapBuffer": fn(u32) -> u8);
    let storage = gl!(c"glBufferStorage": fn(u32, isize, *const c_void, u32));
    let get_sub = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut c_void));
    let mut alignment = 0;
    // SAFETY: out-pointer to a local.
    unsafe { get_integer(GL_MIN_MAP_BUFFER_ALIGNMENT, &mut alignment) };
    assert_eq!(alignment, 64);
    let check = |offset: isize, access: u32| {
        // SAFETY: the range lies inside the bound buffer; the pointer is read only through
        // `len` bytes of the mapping.
        unsafe {
            let p = map(GL_ARRAY_BUFFER, offset, 5, access);
            expect(GL_NO_ERROR);
            assert_eq!(
                (p as usize).wrapping_sub(offset as usize) % 64,
                0,
                "offset {offset}"
            );
            assert_eq!(*p.cast::<u8>(), (offset % 251) as u8, "byte at {offset}");
            *p.cast::<u8>() = 0xEE;
            assert_eq!(unmap(GL_ARRAY_BUFFER), 1);
            let mut back = 0u8;
            get_sub(GL_ARRAY_BUFFER, offset, 1, (&mut back as *mut u8).cast());
            assert_eq!(back, 0xEE);
        }
    };
    for size in [4096usize, 256 << 10] {
        let bytes: Vec<u8> = (0..size).map(|i| (i % 251) as u8).collect();
        gl_harness::buffer_with(GL_ARRAY_BUFFER, &bytes);
        for offset in [0, 1, 63, 65, 1000, 4000] {
            check(offset, GL_MAP_READ_BIT | GL_MAP_WRITE_BIT);
        }
    }
    let bytes: Vec<u8> = (0..4096).map(|i| (i % 251) as u8).collect();
    let persistent = GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT;
    let gen_buffers = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind_buffer = gl!(c"glBindBuffer": fn(u32, u32));
    // SAFETY: `bytes` holds 4096 bytes; out-pointer to a local.
    unsafe {
        let mut b = 0;
        gen_buffers(1, &mut b);
        bind_buffer(GL_ARRAY_BUFFER, b);
        storage(GL_ARRAY_BUFFER, 4096, bytes.as_ptr().cast(), persistent);
    }
    expect(GL_NO_ERROR);
    for offset in [0, 3, 64, 1001] {
        check(offset, persistent);
    }
}

const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_FRAMEBUFFER_COMPLETE: u32 = 0x8CD5;
const GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT: u32 = 0x8CD7;
const GL_FRAMEBUFFER_DEFAULT_WIDTH: u32 = 0x9310;
const GL_FRAMEBUFFER_DEFAULT_HEIGHT: u32 = 0x9311;
const GL_FRAMEBUFFER_DEFAULT_SAMPLES: u32 = 0x9313;
const GL_MAX_FRAMEBUFFER_WIDTH: u32 = 0x9315;
const GL_SAMPLES: u32 = 0x80A9;
const GL_SAMPLES_PASSED: u32 = 0x8914;
const GL_QUERY_RESULT: u32 = 0x8866;

/// GL_ARB_framebuffer_no_attachments: a framebuffer object with no attachments is complete
/// once it has a default width and height, draws into that area (an occlusion query counts
/// its samples, clipped to it whatever the viewport), rounds its default samples up, and
/// refuses the default framebuffer, bad names and values out of range.
#[test]
fn framebuffers_without_attachments_draw_at_their_default_size() {
    let _ctx = gl_harness::context();
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let status = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
    let param = gl!(c"glFramebufferParameteri": fn(u32, u32, i32));
    let get_param = gl!(c"glGetFramebufferParameteriv": fn(u32, u32, *mut i32));
    let get_integer = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let gen_queries = gl!(c"glGenQueries": fn(i32, *mut u32));
    let begin = gl!(c"glBeginQuery": fn(u32, u32));
    let end = gl!(c"glEndQuery": fn(u32));
    let result = gl!(c"glGetQueryObjectuiv": fn(u32, u32, *mut u32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let fs = "#version 330\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n";
    let program = gl_harness::program(VS, fs);
    let (mut fb, mut q, mut vao, mut v, mut max, mut passed) = (0, 0, 0, -1, 0, 0u32);
    // SAFETY: out-pointers to locals; plain values.
    unsafe {
        param(GL_FRAMEBUFFER, GL_FRAMEBUFFER_DEFAULT_WIDTH, 16);
        expect(GL_INVALID_OPERATION); // the default framebuffer is bound
        gen_fbs(1, &mut fb);
        bind_fb(GL_FRAMEBUFFER, fb);
        assert_eq!(
            status(GL_FRAMEBUFFER),
            GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT
        );
        get_integer(GL_MAX_FRAMEBUFFER_WIDTH, &mut max);
        assert!(max >= 16384);
        param(GL_FRAMEBUFFER, GL_FRAMEBUFFER_DEFAULT_WIDTH, max + 1);
        expect(GL_INVALID_VALUE);
        param(GL_FRAMEBUFFER, GL_SAMPLES, 1);
        expect(GL_INVALID_ENUM);
        param(GL_FRAMEBUFFER, GL_FRAMEBUFFER_DEFAULT_WIDTH, 16);
        param(GL_FRAMEBUFFER, GL_FRAMEBUFFER_DEFAULT_HEIGHT, 8);
        expect(GL_NO_ERROR);
        get_param(GL_FRAMEBUFFER, GL_FRAMEBUFFER_DEFAULT_HEIGHT, &mut v);
        assert_eq!(v, 8);
        assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
        gen_queries(1, &mut q);
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        use_program(program);
        // The viewport is the 32×32 pbuffer's; the framebuffer is 16×8.
        begin(GL_SAMPLES_PASSED, q);
        draw(GL_TRIANGLES, 0, 3);
        end(GL_SAMPLES_PASSED);
        result(q, GL_QUERY_RESULT, &mut passed);
        expect(GL_NO_ERROR);
        assert_eq!(passed, 16 * 8);
        // Three samples round up to a count the device renders.
        param(GL_FRAMEBUFFER, GL_FRAMEBUFFER_DEFAULT_SAMPLES, 3);
        get_integer(GL_SAMPLES, &mut v);
        assert!(v >= 3, "GL_SAMPLES {v}");
        get_param(GL_FRAMEBUFFER, GL_SAMPLES, &mut max);
        assert_eq!(max, v);
    }
    expect(GL_NO_ERROR);
}

const GL_DEPTH24_STENCIL8: u32 = 0x88F0;
const GL_DEPTH_STENCIL: u32 = 0x84F9;
const GL_DEPTH_STENCIL_ATTACHMENT: u32 = 0x821A;
const GL_DEPTH_STENCIL_TEXTURE_MODE: u32 = 0x90EA;
const GL_STENCIL_INDEX: i32 = 0x1901;
const GL_LINEAR: i32 = 0x2601;

/// GL_ARB_stencil_texturing: a depth/stencil texture whose stencil was cleared to 0x5A samples
/// 0x5A through a `usampler2D` in `GL_STENCIL_INDEX` mode (nearest filters), is incomplete
/// (reads 0) with linear filters, and the mode is texture state with GL's value checks.
#[test]
fn depth_stencil_textures_sample_their_stencil_indices() {
    let _ctx = gl_harness::context();
    let storage = gl!(c"glTexStorage2D": fn(u32, i32, u32, i32, i32));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let get_param = gl!(c"glGetTexParameteriv": fn(u32, u32, *mut i32));
    let gen_fbs = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fb = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let clear = gl!(c"glClearBufferfi": fn(u32, i32, f32, i32));
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let fs = "#version 330\nuniform usampler2D s;\nout vec4 o;\nvoid main() { o = vec4(float(texture(s, vec2(0.5)).r) / 255.0, 0.0, 0.0, 1.0); }\n";
    let program = gl_harness::program(VS, fs);
    let tex = gl_harness::new_texture(GL_TEXTURE_2D);
    let (mut fb, mut vao, mut mode) = (0, 0, 0);
    // SAFETY: out-pointers to locals; plain values.
    unsafe {
        storage(GL_TEXTURE_2D, 1, GL_DEPTH24_STENCIL8, 4, 4);
        gen_fbs(1, &mut fb);
        bind_fb(GL_FRAMEBUFFER, fb);
        attach(
            GL_FRAMEBUFFER,
            GL_DEPTH_STENCIL_ATTACHMENT,
            GL_TEXTURE_2D,
            tex,
            0,
        );
        clear(GL_DEPTH_STENCIL, 0, 1.0, 0x5A);
        bind_fb(GL_FRAMEBUFFER, 0);
        get_param(GL_TEXTURE_2D, GL_DEPTH_STENCIL_TEXTURE_MODE, &mut mode);
        assert_eq!(mode as u32, GL_DEPTH_COMPONENT);
        param(GL_TEXTURE_2D, GL_DEPTH_STENCIL_TEXTURE_MODE, GL_RGBA as i32);
        expect(GL_INVALID_ENUM);
        param(
            GL_TEXTURE_2D,
            GL_DEPTH_STENCIL_TEXTURE_MODE,
            GL_STENCIL_INDEX,
        );
        param(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        param(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        expect(GL_NO_ERROR);
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        use_program(program);
        draw(GL_TRIANGLES, 0, 3);
    }
    expect(GL_NO_ERROR);
    assert_eq!(gl_harness::read_rgba(16, 16, 1, 1)[..2], [0x5A, 0]);
    // SAFETY: plain values.
    unsafe {
        param(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
        draw(GL_TRIANGLES, 0, 3);
    }
    expect(GL_NO_ERROR);
    assert_eq!(
        gl_harness::read_rgba(16, 16, 1, 1)[0],
        0,
        "linear filters: incomplete"
    );
}
