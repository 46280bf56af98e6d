//! `glGetCompressedTexImage` / `glGetnCompressedTexImage` through the C ABI: the blocks a
//! program gave come back byte for byte (whole images, patched sub-images, cube faces), into
//! client memory or a pixel pack buffer, with GL's errors for an uncompressed texture, a short
//! `bufSize`, a pack range outside the buffer — and `GL_INVALID_OPERATION` for a level whose
//! texels were written another way (ArenaGL keeps blocks, it has no block encoder).

use std::ffi::c_void;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, error, f, new_texture as texture, Current};

const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_TEXTURE_CUBE_MAP_POSITIVE_Y: u32 = 0x8517;
const GL_TEXTURE_CUBE_MAP: u32 = 0x8513;
const GL_RGBA: u32 = 0x1908;
const GL_RGBA8: i32 = 0x8058;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_COMPRESSED_RGBA_S3TC_DXT5: u32 = 0x83F3;
const GL_COMPRESSED_RGB_S3TC_DXT1: u32 = 0x83F0;
const GL_TEXTURE_COMPRESSED_IMAGE_SIZE: u32 = 0x86A0;
const GL_PIXEL_PACK_BUFFER: u32 = 0x88EB;
const GL_STREAM_READ: u32 = 0x88E1;

/// `n` distinct 8-byte BC1 blocks (block i's bytes are i*8 … i*8+7, plus one).
fn bc1_blocks(n: usize) -> Vec<u8> {
    (0..n * 8).map(|i| i as u8 + 1).collect()
}

fn compressed_image(target: u32, format: u32, size: i32, blocks: &[u8]) {
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

/// `glGetCompressedTexImage` into a buffer of `len` bytes filled with 0xEE first.
fn read_back(target: u32, level: i32, len: usize) -> Vec<u8> {
    let get = gl!(c"glGetCompressedTexImage": fn(u32, i32, *mut c_void));
    let mut out = vec![0xEE; len];
    // SAFETY: room for `len` bytes, at least the image.
    unsafe { get(target, level, out.as_mut_ptr().cast()) };
    out
}

#[test]
fn the_blocks_given_come_back_byte_for_byte() {
    let _c: Current = context();
    texture(GL_TEXTURE_2D);
    let blocks = bc1_blocks(4); // 8×8: 2×2 blocks
    compressed_image(GL_TEXTURE_2D, GL_COMPRESSED_RGB_S3TC_DXT1, 8, &blocks);
    assert_eq!(error(), 0);
    let level_param = gl!(c"glGetTexLevelParameteriv": fn(u32, i32, u32, *mut i32));
    let mut size = 0;
    // SAFETY: out-pointer to a local.
    unsafe {
        level_param(
            GL_TEXTURE_2D,
            0,
            GL_TEXTURE_COMPRESSED_IMAGE_SIZE,
            &mut size,
        )
    };
    assert_eq!(size, 32);
    let got = read_back(GL_TEXTURE_2D, 0, 40);
    assert_eq!(&got[..32], &blocks[..], "the image's blocks");
    assert_eq!(&got[32..], &[0xEE; 8], "nothing past the image");
    assert_eq!(error(), 0);

    // A sub-image replaces block (1, 1) only.
    let sub = gl!(c"glCompressedTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, i32, *const c_void));
    let patch = [0xA0u8, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7];
    // SAFETY: one 8-byte block.
    unsafe {
        sub(
            GL_TEXTURE_2D,
            0,
            4,
            4,
            4,
            4,
            GL_COMPRESSED_RGB_S3TC_DXT1,
            8,
            patch.as_ptr().cast(),
        )
    };
    assert_eq!(error(), 0);
    let mut want = blocks.clone();
    want[24..32].copy_from_slice(&patch);
    assert_eq!(&read_back(GL_TEXTURE_2D, 0, 32)[..], &want[..]);
}

#[test]
fn cube_faces_keep_their_own_blocks() {
    let _c: Current = context();
    texture(GL_TEXTURE_CUBE_MAP);
    for face in 0..6u32 {
        let blocks: Vec<u8> = (0..16).map(|i| (face * 16 + i) as u8).collect();
        compressed_image(0x8515 + face, GL_COMPRESSED_RGBA_S3TC_DXT5, 4, &blocks);
    }
    assert_eq!(error(), 0);
    let got = read_back(GL_TEXTURE_CUBE_MAP_POSITIVE_Y, 0, 16);
    let want: Vec<u8> = (0..16).map(|i| (2 * 16 + i) as u8).collect();
    assert_eq!(got, want, "+Y is face 2");
}

#[test]
fn into_a_pixel_pack_buffer_at_an_offset_and_refused_past_its_end() {
    let _c: Current = context();
    texture(GL_TEXTURE_2D);
    let blocks = bc1_blocks(1);
    compressed_image(GL_TEXTURE_2D, GL_COMPRESSED_RGB_S3TC_DXT1, 4, &blocks);
    let gen = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let get_sub = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut c_void));
    let get = gl!(c"glGetCompressedTexImage": fn(u32, i32, *mut c_void));
    let mut b = 0;
    let zeros = [0u8; 24];
    // SAFETY: out-pointer to a local; 24 bytes of data.
    unsafe {
        gen(1, &mut b);
        bind(GL_PIXEL_PACK_BUFFER, b);
        data(
            GL_PIXEL_PACK_BUFFER,
            24,
            zeros.as_ptr().cast(),
            GL_STREAM_READ,
        );
        get(GL_TEXTURE_2D, 0, 8 as *mut c_void);
    }
    assert_eq!(error(), 0);
    let mut out = [0u8; 24];
    // SAFETY: room for 24 bytes.
    unsafe { get_sub(GL_PIXEL_PACK_BUFFER, 0, 24, out.as_mut_ptr().cast()) };
    assert_eq!(&out[8..16], &blocks[..], "the block at offset 8");
    assert_eq!(&out[..8], &[0; 8]);
    // Offset 20 + 8 bytes passes the end; an address as "offset" is far past it.
    let client = [0u8; 8];
    // SAFETY: plain offsets into the bound buffer, never dereferenced.
    unsafe { get(GL_TEXTURE_2D, 0, 20 as *mut c_void) };
    assert_eq!(error(), GL_INVALID_OPERATION);
    // SAFETY: as above.
    unsafe { get(GL_TEXTURE_2D, 0, client.as_ptr() as *mut c_void) };
    assert_eq!(error(), GL_INVALID_OPERATION);
    assert_eq!(
        client, [0; 8],
        "client memory named as an offset is untouched"
    );
}

#[test]
fn errors_for_uncompressed_short_buffers_and_levels_written_otherwise() {
    let _c: Current = context();
    texture(GL_TEXTURE_2D);
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    // SAFETY: NULL data.
    unsafe {
        image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8,
            4,
            4,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            std::ptr::null(),
        )
    };
    let _ = read_back(GL_TEXTURE_2D, 0, 64);
    assert_eq!(error(), GL_INVALID_OPERATION, "an uncompressed texture");

    texture(GL_TEXTURE_2D);
    let blocks = bc1_blocks(4);
    compressed_image(GL_TEXTURE_2D, GL_COMPRESSED_RGB_S3TC_DXT1, 8, &blocks);
    let getn = gl!(c"glGetnCompressedTexImage": fn(u32, i32, i32, *mut c_void));
    let mut short = [0xEEu8; 16];
    // SAFETY: `short` holds the 16 bytes bufSize names.
    unsafe { getn(GL_TEXTURE_2D, 0, 16, short.as_mut_ptr().cast()) };
    assert_eq!(error(), GL_INVALID_OPERATION, "bufSize below the image");
    assert_eq!(short, [0xEE; 16], "nothing written");
    // Level 1 was never given: nothing written, no error.
    assert_eq!(read_back(GL_TEXTURE_2D, 1, 8), vec![0xEE; 8]);
    assert_eq!(error(), 0);
    // Texels written uncompressed: the blocks are gone, and GL says so.
    let sub = gl!(c"glTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let texels = [200u8; 64];
    // SAFETY: 4×4 RGBA texels.
    unsafe {
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
        )
    };
    assert_eq!(
        error(),
        0,
        "block-aligned texels into a S3TC texture (EXT_texture_compression_s3tc)"
    );
    assert_eq!(read_back(GL_TEXTURE_2D, 0, 32), vec![0xEE; 32]);
    assert_eq!(
        error(),
        GL_INVALID_OPERATION,
        "no blocks for texels given uncompressed"
    );
}
