//! `glCopyImageSubData` between compressed and uncompressed images (GL_ARB_copy_image, GL 4.3
//! §18.3.3): one 4×4 block of a compressed image is one texel of an uncompressed image whose
//! texel has the block's size, and the bits move unchanged both ways. ArenaGL stores compressed
//! textures decoded and keeps their blocks (`pixel/get_compressed.rs`); these tests read the
//! bits back through `glGetTexImage` (uncompressed side) and `glGetCompressedTexImage` plus the
//! decoded texels (compressed side), against images uploaded directly.

use std::ffi::c_void;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, error, f, new_texture as texture, Current};

const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_TEXTURE_CUBE_MAP: u32 = 0x8513;
const GL_TEXTURE_CUBE_MAP_POSITIVE_X: u32 = 0x8515;
const GL_RGBA: u32 = 0x1908;
const GL_RGBA_INTEGER: u32 = 0x8D99;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_UNSIGNED_SHORT: u32 = 0x1403;
const GL_UNSIGNED_INT: u32 = 0x1405;
const GL_RGBA32UI: u32 = 0x8D70;
const GL_RGBA16UI: u32 = 0x8D76;
const GL_COMPRESSED_RGB_S3TC_DXT1: u32 = 0x83F0;
const GL_COMPRESSED_RGBA_S3TC_DXT5: u32 = 0x83F3;
const GL_COMPRESSED_RED_GREEN_RGTC2: u32 = 0x8DBD;

type CopyImage =
    unsafe extern "C" fn(u32, u32, i32, i32, i32, i32, u32, u32, i32, i32, i32, i32, i32, i32, i32);

fn copy_image() -> CopyImage {
    gl!(c"glCopyImageSubData": fn(u32, u32, i32, i32, i32, i32, u32, u32, i32, i32, i32, i32, i32, i32, i32))
}

/// `glCopyImageSubData` of a `w`×`h` box of 2D level 0s (`GL_TEXTURE_2D` both sides).
fn copy_2d(src: u32, sxy: [i32; 2], dst: u32, dxy: [i32; 2], w: i32, h: i32) {
    let copy = copy_image();
    // SAFETY: plain call.
    unsafe {
        copy(
            src,
            GL_TEXTURE_2D,
            0,
            sxy[0],
            sxy[1],
            0,
            dst,
            GL_TEXTURE_2D,
            0,
            dxy[0],
            dxy[1],
            0,
            w,
            h,
            1,
        )
    };
}

/// `n` distinct pseudo-random bytes seeded by `seed`.
fn bytes(n: usize, seed: u32) -> Vec<u8> {
    let mut x = seed.wrapping_mul(2_654_435_761) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect()
}

/// A new 2D (or cube face `target`) texture of `size`² with `blocks` in `format`.
fn compressed(target: u32, format: u32, size: i32, blocks: &[u8]) -> u32 {
    let bind = if target == GL_TEXTURE_2D {
        GL_TEXTURE_2D
    } else {
        GL_TEXTURE_CUBE_MAP
    };
    let t = texture(bind);
    compressed_level(target, format, size, blocks);
    t
}

fn compressed_level(target: u32, format: u32, size: i32, blocks: &[u8]) {
    let upload =
        gl!(c"glCompressedTexImage2D": fn(u32, i32, u32, i32, i32, i32, i32, *const c_void));
    // SAFETY: `blocks` holds the bytes it says.
    unsafe {
        upload(
            target,
            0,
            format,
            size,
            size,
            0,
            blocks.len() as i32,
            blocks.as_ptr().cast(),
        )
    };
}

/// A new 2D integer texture of `w`×`h` with `texels` (`ty`: the component type).
fn integer(internal: u32, w: i32, h: i32, ty: u32, texels: &[u8]) -> u32 {
    let t = texture(GL_TEXTURE_2D);
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    // SAFETY: `texels` holds the image; plain call.
    unsafe {
        tex_image(
            GL_TEXTURE_2D,
            0,
            internal as i32,
            w,
            h,
            0,
            GL_RGBA_INTEGER,
            ty,
            texels.as_ptr().cast(),
        );
        param(GL_TEXTURE_2D, 0x2801, 0x2600); // MIN_FILTER = NEAREST: complete
    }
    t
}

/// `glGetTexImage` of level 0 of `t` (bound to `target`) in `format`/`ty`, `len` bytes.
fn get_image(target: u32, t: u32, format: u32, ty: u32, len: usize) -> Vec<u8> {
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let get = gl!(c"glGetTexImage": fn(u32, i32, u32, u32, *mut c_void));
    let mut out = vec![0xEE; len];
    let bound = if target == GL_TEXTURE_2D {
        GL_TEXTURE_2D
    } else {
        GL_TEXTURE_CUBE_MAP
    };
    // SAFETY: room for `len` bytes, at least the level.
    unsafe {
        bind(bound, t);
        get(target, 0, format, ty, out.as_mut_ptr().cast());
    }
    out
}

/// `glGetCompressedTexImage` of level 0 of `t`, `len` bytes.
fn get_blocks(target: u32, t: u32, len: usize) -> Vec<u8> {
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let get = gl!(c"glGetCompressedTexImage": fn(u32, i32, *mut c_void));
    let mut out = vec![0xEE; len];
    let bound = if target == GL_TEXTURE_2D {
        GL_TEXTURE_2D
    } else {
        GL_TEXTURE_CUBE_MAP
    };
    // SAFETY: room for `len` bytes, at least the level.
    unsafe {
        bind(bound, t);
        get(target, 0, out.as_mut_ptr().cast());
    }
    out
}

#[test]
fn compressed_blocks_become_texels_of_the_block_size() {
    let _c: Current = context();
    // DXT5 8×8 (2×2 blocks of 16 bytes) into texels (1, 2) … (2, 3) of a 4×4 RGBA32UI image.
    let blocks = bytes(4 * 16, 1);
    let src = compressed(GL_TEXTURE_2D, GL_COMPRESSED_RGBA_S3TC_DXT5, 8, &blocks);
    let dst = integer(GL_RGBA32UI, 4, 4, GL_UNSIGNED_INT, &[0u8; 4 * 4 * 16]);
    assert_eq!(error(), 0);
    copy_2d(src, [0, 0], dst, [1, 2], 8, 8);
    assert_eq!(error(), 0);
    let got = get_image(
        GL_TEXTURE_2D,
        dst,
        GL_RGBA_INTEGER,
        GL_UNSIGNED_INT,
        4 * 4 * 16,
    );
    for (by, bx) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
        let texel = ((2 + by) * 4 + 1 + bx) * 16;
        let block = (by * 2 + bx) * 16;
        assert_eq!(
            &got[texel..texel + 16],
            &blocks[block..block + 16],
            "block ({bx}, {by})"
        );
    }
    assert_eq!(&got[..16], &[0u8; 16], "texels outside the box stay");
    // One block from its offset (4, 4) only.
    let one = integer(GL_RGBA32UI, 1, 1, GL_UNSIGNED_INT, &[0u8; 16]);
    copy_2d(src, [4, 4], one, [0, 0], 4, 4);
    assert_eq!(error(), 0);
    let got = get_image(GL_TEXTURE_2D, one, GL_RGBA_INTEGER, GL_UNSIGNED_INT, 16);
    assert_eq!(got, blocks[48..64]);
}

#[test]
fn texels_become_blocks_that_decode_like_uploaded_ones() {
    let _c: Current = context();
    // 2×2 RGBA16UI texels (8 bytes each) into a DXT1 8×8 image: 2×2 blocks.
    let texels = bytes(4 * 8, 2);
    let src = integer(GL_RGBA16UI, 2, 2, GL_UNSIGNED_SHORT, &texels);
    let dst = compressed(GL_TEXTURE_2D, GL_COMPRESSED_RGB_S3TC_DXT1, 8, &[0u8; 32]);
    let reference = compressed(GL_TEXTURE_2D, GL_COMPRESSED_RGB_S3TC_DXT1, 8, &texels);
    assert_eq!(error(), 0);
    copy_2d(src, [0, 0], dst, [0, 0], 2, 2);
    assert_eq!(error(), 0);
    assert_eq!(
        get_blocks(GL_TEXTURE_2D, dst, 32),
        texels,
        "the kept blocks"
    );
    let want = get_image(
        GL_TEXTURE_2D,
        reference,
        GL_RGBA,
        GL_UNSIGNED_BYTE,
        8 * 8 * 4,
    );
    let got = get_image(GL_TEXTURE_2D, dst, GL_RGBA, GL_UNSIGNED_BYTE, 8 * 8 * 4);
    assert_eq!(got, want, "the decoded texels");
}

#[test]
fn blocks_reach_the_edge_of_levels_that_are_not_whole_blocks() {
    let _c: Current = context();
    // A 6×6 DXT1 level is 2×2 blocks, the last ones partly outside: one texel fills one.
    let texel = bytes(8, 3);
    let src = integer(GL_RGBA16UI, 1, 1, GL_UNSIGNED_SHORT, &texel);
    let dst = compressed(GL_TEXTURE_2D, GL_COMPRESSED_RGB_S3TC_DXT1, 6, &[0u8; 32]);
    copy_2d(src, [0, 0], dst, [4, 4], 1, 1);
    assert_eq!(error(), 0);
    let got = get_blocks(GL_TEXTURE_2D, dst, 32);
    assert_eq!(&got[24..32], &texel[..], "the last block");
    assert_eq!(&got[..24], &[0u8; 24], "the other blocks");
    // A box past the rounded-up edge is outside the image.
    copy_2d(src, [0, 0], dst, [8, 0], 1, 1);
    assert_eq!(error(), GL_INVALID_VALUE);
}

#[test]
fn compressed_copies_keep_their_blocks_across_cube_faces() {
    let _c: Current = context();
    // RGTC2 8×8 (16-byte blocks) into face +Y of a cube of RGTC2, then back out as texels.
    let blocks = bytes(4 * 16, 4);
    let src = compressed(GL_TEXTURE_2D, GL_COMPRESSED_RED_GREEN_RGTC2, 8, &blocks);
    let cube = compressed(
        GL_TEXTURE_CUBE_MAP_POSITIVE_X,
        GL_COMPRESSED_RED_GREEN_RGTC2,
        8,
        &[0u8; 64],
    );
    for face in 1..6 {
        compressed_level(
            GL_TEXTURE_CUBE_MAP_POSITIVE_X + face,
            GL_COMPRESSED_RED_GREEN_RGTC2,
            8,
            &[0u8; 64],
        );
    }
    assert_eq!(error(), 0);
    let copy = copy_image();
    // SAFETY: plain call.
    unsafe {
        copy(
            src,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            cube,
            GL_TEXTURE_CUBE_MAP,
            0,
            0,
            0,
            2,
            8,
            8,
            1,
        )
    };
    assert_eq!(error(), 0);
    let face_y = GL_TEXTURE_CUBE_MAP_POSITIVE_X + 2;
    assert_eq!(get_blocks(face_y, cube, 64), blocks);
    assert_eq!(
        get_blocks(GL_TEXTURE_CUBE_MAP_POSITIVE_X, cube, 64),
        [0u8; 64]
    );
    let dst = integer(GL_RGBA32UI, 2, 2, GL_UNSIGNED_INT, &[0u8; 64]);
    // SAFETY: plain call.
    unsafe {
        copy(
            cube,
            GL_TEXTURE_CUBE_MAP,
            0,
            0,
            0,
            2,
            dst,
            GL_TEXTURE_2D,
            0,
            0,
            0,
            0,
            8,
            8,
            1,
        )
    };
    assert_eq!(error(), 0);
    let got = get_image(GL_TEXTURE_2D, dst, GL_RGBA_INTEGER, GL_UNSIGNED_INT, 64);
    assert_eq!(got, blocks);
}

#[test]
fn block_and_texel_sizes_must_match() {
    let _c: Current = context();
    // DXT1 blocks are 64 bits, RGBA32UI texels 128.
    let src = compressed(GL_TEXTURE_2D, GL_COMPRESSED_RGB_S3TC_DXT1, 8, &[0u8; 32]);
    let dst = integer(GL_RGBA32UI, 2, 2, GL_UNSIGNED_INT, &[0u8; 64]);
    copy_2d(src, [0, 0], dst, [0, 0], 8, 8);
    assert_eq!(error(), GL_INVALID_OPERATION);
    // A compressed box off the block grid.
    let wide = integer(GL_RGBA16UI, 2, 2, GL_UNSIGNED_SHORT, &[0u8; 32]);
    copy_2d(src, [2, 0], wide, [0, 0], 4, 4);
    assert_eq!(error(), GL_INVALID_VALUE);
}
