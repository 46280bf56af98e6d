//! BPTC textures (GL_ARB_texture_compression_bptc) and the compressed pixel-store parameters
//! (GL_ARB_compressed_texture_pixel_storage) through the C ABI: BC7 and BC6H blocks decoded
//! to the texels the spec defines, read back with `glGetTexImage`; the blocks returned by
//! `glGetCompressedTexImage`; block-alignment and size errors; compressed uploads and
//! downloads that honour the row length and skips counted in blocks. The validation layer
//! must stay silent.

use std::ffi::c_void;
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{expect, f};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_RGBA: u32 = 0x1908;
const GL_FLOAT: u32 = 0x1406;
const GL_COMPRESSED_RGBA_BPTC_UNORM: u32 = 0x8E8C;
const GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT: u32 = 0x8E8F;
const GL_COMPRESSED_RGB_S3TC_DXT1_EXT: u32 = 0x83F0;
const GL_TEXTURE_COMPRESSED_IMAGE_SIZE: u32 = 0x86A0;
const GL_TEXTURE_INTERNAL_FORMAT: u32 = 0x1003;
const GL_UNPACK_ROW_LENGTH: u32 = 0x0CF2;
const GL_UNPACK_SKIP_ROWS: u32 = 0x0CF3;
const GL_UNPACK_SKIP_PIXELS: u32 = 0x0CF4;
const GL_PACK_ROW_LENGTH: u32 = 0x0D02;
const GL_PACK_SKIP_PIXELS: u32 = 0x0D04;
const GL_UNPACK_COMPRESSED_BLOCK_WIDTH: u32 = 0x9127;
const GL_UNPACK_COMPRESSED_BLOCK_HEIGHT: u32 = 0x9128;
const GL_UNPACK_COMPRESSED_BLOCK_SIZE: u32 = 0x912A;
const GL_PACK_COMPRESSED_BLOCK_WIDTH: u32 = 0x912B;
const GL_PACK_COMPRESSED_BLOCK_SIZE: u32 = 0x912E;

type CompressedImage2d = unsafe extern "C" fn(u32, i32, u32, i32, i32, i32, i32, *const c_void);
type CompressedSubImage2d =
    unsafe extern "C" fn(u32, i32, i32, i32, i32, i32, u32, i32, *const c_void);

/// A 128-bit block built field by field, least significant bit first.
struct Bits {
    value: u128,
    at: u32,
}

impl Bits {
    fn new() -> Self {
        Self { value: 0, at: 0 }
    }

    fn put(&mut self, n: u32, v: u32) -> &mut Self {
        self.value |= (u128::from(v) & ((1u128 << n) - 1)) << self.at;
        self.at += n;
        self
    }

    fn block(&self) -> [u8; 16] {
        assert_eq!(self.at, 128, "a whole block");
        self.value.to_le_bytes()
    }
}

/// BC7 mode 6: RGB endpoints black → white, alpha 254 → 255, texel `i` with index `i`
/// (texel 0 is the anchor: index 0).
fn bc7_ramp() -> [u8; 16] {
    let mut b = Bits::new();
    b.put(7, 1 << 6);
    for (e0, e1) in [(0, 127), (0, 127), (0, 127), (127, 127)] {
        b.put(7, e0).put(7, e1);
    }
    b.put(2, 0b10).put(3, 0);
    for i in 1..16 {
        b.put(4, i);
    }
    b.block()
}

/// BC6H mode 00011 (10-bit endpoints, unsigned): 0 → 1023 (the largest value), texel 0 at
/// index 0, every other texel at index 15.
fn bc6h_block() -> [u8; 16] {
    let mut b = Bits::new();
    b.put(5, 0b00011);
    for v in [0, 0, 0, 1023, 1023, 1023] {
        b.put(10, v);
    }
    b.put(3, 0);
    for _ in 1..16 {
        b.put(4, 15);
    }
    b.block()
}

fn compressed_image() -> CompressedImage2d {
    // SAFETY: the signature is glCompressedTexImage2D's.
    unsafe { f::<CompressedImage2d>(c"glCompressedTexImage2D") }
}

fn get_compressed(len: usize) -> Vec<u8> {
    let get = gl!(c"glGetCompressedTexImage": fn(u32, i32, *mut c_void));
    let mut out = vec![0xEEu8; len];
    // SAFETY: `out` holds `len` bytes, at least what the bound level writes.
    unsafe { get(GL_TEXTURE_2D, 0, out.as_mut_ptr().cast()) };
    out
}

fn level_param(pname: u32) -> i32 {
    let get = gl!(c"glGetTexLevelParameteriv": fn(u32, i32, u32, *mut i32));
    let mut v = 0;
    // SAFETY: out-pointer to a local.
    unsafe { get(GL_TEXTURE_2D, 0, pname, &mut v) };
    v
}

fn pixel_store(pname: u32, value: i32) {
    let store = gl!(c"glPixelStorei": fn(u32, i32));
    // SAFETY: plain values.
    unsafe { store(pname, value) };
}

#[test]
fn bc7_blocks_decode_to_the_specified_texels_and_read_back_as_given() {
    let _ctx = gl_harness::context();
    let block = bc7_ramp();
    gl_harness::new_texture(GL_TEXTURE_2D);
    // SAFETY: `block` is the 16 bytes of one 4×4 block.
    unsafe {
        compressed_image()(
            GL_TEXTURE_2D,
            0,
            GL_COMPRESSED_RGBA_BPTC_UNORM,
            4,
            4,
            0,
            16,
            block.as_ptr().cast(),
        )
    };
    expect(GL_NO_ERROR);
    let texels = gl_harness::tex_image_rgba(GL_TEXTURE_2D, 0, 64);
    // Index 0: endpoint 0 (alpha 254); index 15: endpoint 1; index 8 (weight 34):
    // (30 · 0 + 34 · 255 + 32) >> 6 = 135.
    assert_eq!(texels[..4], [0, 0, 0, 254]);
    assert_eq!(texels[32..36], [135, 135, 135, 255]);
    assert_eq!(texels[60..], [255, 255, 255, 255]);
    assert_eq!(level_param(GL_TEXTURE_COMPRESSED_IMAGE_SIZE), 16);
    assert_eq!(
        level_param(GL_TEXTURE_INTERNAL_FORMAT),
        GL_COMPRESSED_RGBA_BPTC_UNORM as i32
    );
    assert_eq!(get_compressed(16), block);
}

#[test]
fn bc6h_blocks_decode_to_half_floats() {
    let _ctx = gl_harness::context();
    let block = bc6h_block();
    gl_harness::new_texture(GL_TEXTURE_2D);
    let get = gl!(c"glGetTexImage": fn(u32, i32, u32, u32, *mut c_void));
    let mut texels = [0f32; 64];
    // SAFETY: `block` is one block; `texels` holds 4×4 RGBA floats.
    unsafe {
        compressed_image()(
            GL_TEXTURE_2D,
            0,
            GL_COMPRESSED_RGB_BPTC_UNSIGNED_FLOAT,
            4,
            4,
            0,
            16,
            block.as_ptr().cast(),
        );
        expect(GL_NO_ERROR);
        get(
            GL_TEXTURE_2D,
            0,
            GL_RGBA,
            GL_FLOAT,
            texels.as_mut_ptr().cast(),
        );
    }
    expect(GL_NO_ERROR);
    assert_eq!(texels[..4], [0.0, 0.0, 0.0, 1.0]);
    // The largest endpoint is the largest finite half, 65504.
    assert_eq!(texels[4..8], [65504.0, 65504.0, 65504.0, 1.0]);
}

#[test]
fn bptc_sizes_and_block_alignment_are_checked() {
    let _ctx = gl_harness::context();
    // SAFETY: the signature is glCompressedTexSubImage2D's.
    let sub = unsafe { f::<CompressedSubImage2d>(c"glCompressedTexSubImage2D") };
    let blocks = [bc7_ramp(); 4].concat();
    gl_harness::new_texture(GL_TEXTURE_2D);
    // SAFETY: `blocks` holds four blocks (64 bytes); every call reads at most that.
    unsafe {
        // 8×8 is four blocks: 48 bytes is the wrong size.
        let image = compressed_image();
        image(
            GL_TEXTURE_2D,
            0,
            GL_COMPRESSED_RGBA_BPTC_UNORM,
            8,
            8,
            0,
            48,
            blocks.as_ptr().cast(),
        );
        expect(GL_INVALID_VALUE);
        image(
            GL_TEXTURE_2D,
            0,
            GL_COMPRESSED_RGBA_BPTC_UNORM,
            8,
            8,
            0,
            64,
            null(),
        );
        expect(GL_NO_ERROR);
        // A sub-image off the 4×4 grid, and one on it.
        let fmt = GL_COMPRESSED_RGBA_BPTC_UNORM;
        sub(
            GL_TEXTURE_2D,
            0,
            2,
            0,
            4,
            4,
            fmt,
            16,
            blocks.as_ptr().cast(),
        );
        expect(GL_INVALID_OPERATION);
        sub(
            GL_TEXTURE_2D,
            0,
            4,
            4,
            4,
            4,
            fmt,
            16,
            blocks.as_ptr().cast(),
        );
        expect(GL_NO_ERROR);
    }
    assert_eq!(level_param(GL_TEXTURE_COMPRESSED_IMAGE_SIZE), 64);
    let texels = gl_harness::tex_image_rgba(GL_TEXTURE_2D, 0, 256);
    // Texel (7, 7) is the block's texel 15; texel (4, 4) its texel 0.
    assert_eq!(texels[(7 * 8 + 7) * 4..][..4], [255, 255, 255, 255]);
    assert_eq!(texels[(4 * 8 + 4) * 4..][..4], [0, 0, 0, 254]);
}

/// An 8×8 DXT1 image (2×2 blocks of 8 bytes) taken out of a client image 16 texels wide,
/// skipping one block row and one block column; read back tight, then into a wider layout.
#[test]
fn compressed_uploads_and_downloads_honour_the_block_pixel_store() {
    let _ctx = gl_harness::context();
    // Client memory: 4 blocks a row; block (column c, row r) filled with byte 10r + c + 1.
    let client: Vec<u8> = (0..3u8)
        .flat_map(|r| (0..4u8).flat_map(move |c| [10 * r + c + 1; 8]))
        .collect();
    pixel_store(GL_UNPACK_COMPRESSED_BLOCK_WIDTH, 4);
    pixel_store(GL_UNPACK_COMPRESSED_BLOCK_HEIGHT, 4);
    pixel_store(GL_UNPACK_COMPRESSED_BLOCK_SIZE, 8);
    pixel_store(GL_UNPACK_ROW_LENGTH, 16);
    pixel_store(GL_UNPACK_SKIP_PIXELS, 4);
    pixel_store(GL_UNPACK_SKIP_ROWS, 4);
    expect(GL_NO_ERROR);
    gl_harness::new_texture(GL_TEXTURE_2D);
    // SAFETY: `client` covers the layout: 3 block rows of 4 blocks.
    unsafe {
        let image = compressed_image();
        image(
            GL_TEXTURE_2D,
            0,
            GL_COMPRESSED_RGB_S3TC_DXT1_EXT,
            8,
            8,
            0,
            32,
            client.as_ptr().cast(),
        );
    }
    expect(GL_NO_ERROR);
    let tight = get_compressed(32);
    let want: Vec<u8> = [12u8, 13, 22, 23].iter().flat_map(|&b| [b; 8]).collect();
    assert_eq!(tight, want);
    // Skips that are not whole blocks are refused.
    pixel_store(GL_UNPACK_SKIP_PIXELS, 2);
    // SAFETY: as above; the call is refused before reading.
    unsafe {
        let image = compressed_image();
        image(
            GL_TEXTURE_2D,
            0,
            GL_COMPRESSED_RGB_S3TC_DXT1_EXT,
            8,
            8,
            0,
            32,
            client.as_ptr().cast(),
        );
    }
    expect(GL_INVALID_OPERATION);
    pixel_store(GL_UNPACK_COMPRESSED_BLOCK_SIZE, -1);
    expect(GL_INVALID_VALUE);
    let get_integer = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let mut v = 0;
    // SAFETY: out-pointer to a local.
    unsafe { get_integer(GL_UNPACK_COMPRESSED_BLOCK_SIZE, &mut v) };
    assert_eq!(v, 8);
    // Download into rows of 3 blocks, one block in: the bytes around the image stay.
    pixel_store(GL_PACK_COMPRESSED_BLOCK_WIDTH, 4);
    pixel_store(GL_PACK_COMPRESSED_BLOCK_SIZE, 8);
    pixel_store(GL_PACK_ROW_LENGTH, 12);
    pixel_store(GL_PACK_SKIP_PIXELS, 4);
    let packed = get_compressed(8 + 24 + 16);
    assert_eq!(packed[..8], [0xEE; 8]);
    assert_eq!(packed[8..24], want[..16]);
    assert_eq!(packed[24..32], [0xEE; 8]);
    assert_eq!(packed[32..48], want[16..]);
}

/// Texels given uncompressed for the unsigned BPTC float format keep no negative values (GL
/// compresses them to 0); the signed format keeps them.
#[test]
fn unsigned_bptc_float_uploads_clamp_negatives() {
    let _ctx = gl_harness::context();
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let get = gl!(c"glGetTexImage": fn(u32, i32, u32, u32, *mut c_void));
    let texels: Vec<f32> = [-1.0f32, 0.5, 2.0, 1.0].repeat(16);
    for (internal, red) in [(0x8E8Fu32, 0.0f32), (0x8E8E, -1.0)] {
        gl_harness::new_texture(GL_TEXTURE_2D);
        let mut back = [7f32; 64];
        // SAFETY: `texels` holds 4×4 RGBA floats; `back` as many.
        unsafe {
            image(
                GL_TEXTURE_2D,
                0,
                internal as i32,
                4,
                4,
                0,
                GL_RGBA,
                GL_FLOAT,
                texels.as_ptr().cast(),
            );
            get(
                GL_TEXTURE_2D,
                0,
                GL_RGBA,
                GL_FLOAT,
                back.as_mut_ptr().cast(),
            );
        }
        expect(GL_NO_ERROR);
        assert_eq!(back[..4], [red, 0.5, 2.0, 1.0], "format 0x{internal:04X}");
    }
}
