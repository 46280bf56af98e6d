//! Compressed textures kept compressed where the device samples the format, and ASTC LDR
//! (GL_KHR_texture_compression_astc_ldr), through the C ABI on lavapipe: BC1 blocks stay BC1
//! (lavapipe samples BC; the upload counters say which path each upload took) and sample
//! like the CPU decoder's reference; a level that is no whole number of blocks; the block
//! alignment errors of `glCompressedTexSubImage2D`; texels written into a block texture (it
//! moves to decoded storage); ETC2, which lavapipe cannot sample, decoded as before; ASTC 4×4,
//! 8×8 and sRGB blocks sampled against their colours; the device memory a BC1 texture takes.
//! The validation layer must stay silent.

use std::ffi::c_void;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use arenagl_staging::{decompress, Codec};
use gl_harness::{expect, f, memory_stat, new_texture, read_rgba, validation_errors};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_TRIANGLES: u32 = 0x0004;
const GL_RGBA: u32 = 0x1908;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_COMPRESSED_RGBA_S3TC_DXT1: u32 = 0x83F1;
const GL_COMPRESSED_RGB8_ETC2: u32 = 0x9274;
const GL_COMPRESSED_RGBA_ASTC_4X4: u32 = 0x93B0;
const GL_COMPRESSED_RGBA_ASTC_8X8: u32 = 0x93B7;
const GL_COMPRESSED_SRGB8_ALPHA8_ASTC_8X8: u32 = 0x93D7;
const GL_TEXTURE_MAX_LEVEL: u32 = 0x813D;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_RENDERBUFFER: u32 = 0x8D41;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_RGBA8: u32 = 0x8058;

/// Compressed uploads so far that kept their blocks, and that were decoded.
fn uploads() -> (u64, u64) {
    (
        memory_stat(c"compressed_native_uploads"),
        memory_stat(c"compressed_decoded_uploads"),
    )
}

/// `glCompressedTexImage2D` of `blocks` as level `level` (`w`×`h`) of the bound 2D texture.
fn compressed_image(level: i32, format: u32, (w, h): (i32, i32), blocks: &[u8]) {
    let upload =
        gl!(c"glCompressedTexImage2D": fn(u32, i32, u32, i32, i32, i32, i32, *const c_void));
    // SAFETY: `blocks` holds the bytes it says.
    unsafe {
        upload(
            GL_TEXTURE_2D,
            level,
            format,
            w,
            h,
            0,
            blocks.len() as i32,
            blocks.as_ptr().cast(),
        )
    };
}

/// `glCompressedTexSubImage2D` of `blocks` into the box at `(x, y)` of `w`×`h` of level 0.
fn compressed_sub_image(format: u32, (x, y, w, h): (i32, i32, i32, i32), blocks: &[u8]) {
    let sub = gl!(c"glCompressedTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, i32, *const c_void));
    // SAFETY: `blocks` holds the bytes it says.
    unsafe {
        sub(
            GL_TEXTURE_2D,
            0,
            x,
            y,
            w,
            h,
            format,
            blocks.len() as i32,
            blocks.as_ptr().cast(),
        )
    };
}

/// `glGetTexImage` of level `level` (`w`×`h`) of the bound 2D texture as RGBA bytes.
fn texels(level: i32, (w, h): (usize, usize)) -> Vec<u8> {
    let get = gl!(c"glGetTexImage": fn(u32, i32, u32, u32, *mut c_void));
    let mut out = vec![0u8; w * h * 4];
    // SAFETY: room for the level's RGBA bytes (pack alignment 4, rows of 4-byte texels).
    unsafe {
        get(
            GL_TEXTURE_2D,
            level,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            out.as_mut_ptr().cast(),
        )
    };
    out
}

const VS: &str = "#version 330\nvoid main() {\n    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n    gl_Position = vec4(p, 0.0, 1.0);\n}\n";
/// Each pixel fetches the texel at its coordinates (wrapped to the level).
const FS: &str = "#version 330\nuniform sampler2D tex;\nout vec4 frag;\nvoid main() {\n    ivec2 size = textureSize(tex, 0);\n    frag = texelFetch(tex, ivec2(gl_FragCoord.xy) % size, 0);\n}\n";

/// Draws the bound 2D texture's level 0 texel for texel into a 32×32 RGBA8 renderbuffer (the
/// pbuffer's config may have fewer bits) and reads back its `w`×`h` corner, row 0 first.
fn sampled(w: i32, h: i32) -> Vec<u8> {
    let use_program = gl!(c"glUseProgram": fn(u32));
    let gen_vaos = gl!(c"glGenVertexArrays": fn(i32, *mut u32));
    let bind_vao = gl!(c"glBindVertexArray": fn(u32));
    let draw = gl!(c"glDrawArrays": fn(u32, i32, i32));
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    let gen_fbos = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fbo = gl!(c"glBindFramebuffer": fn(u32, u32));
    let gen_rbs = gl!(c"glGenRenderbuffers": fn(i32, *mut u32));
    let bind_rb = gl!(c"glBindRenderbuffer": fn(u32, u32));
    let rb_storage = gl!(c"glRenderbufferStorage": fn(u32, u32, i32, i32));
    let attach = gl!(c"glFramebufferRenderbuffer": fn(u32, u32, u32, u32));
    let program = gl_harness::program(VS, FS);
    let (mut vao, mut fbo, mut rb) = (0, 0, 0);
    // SAFETY: out-pointers to locals; plain values.
    unsafe {
        gen_fbos(1, &mut fbo);
        bind_fbo(GL_FRAMEBUFFER, fbo);
        gen_rbs(1, &mut rb);
        bind_rb(GL_RENDERBUFFER, rb);
        rb_storage(GL_RENDERBUFFER, GL_RGBA8, 32, 32);
        attach(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
        param(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
        gen_vaos(1, &mut vao);
        bind_vao(vao);
        use_program(program);
        draw(GL_TRIANGLES, 0, 3);
    }
    expect(GL_NO_ERROR);
    read_rgba(0, 0, w, h)
}

/// A BC1 block: endpoints `c0`, `c1` (RGB565) and 2-bit indices, texel 0 first.
fn bc1(c0: u16, c1: u16, indices: [u8; 16]) -> [u8; 8] {
    let bits = indices
        .iter()
        .enumerate()
        .fold(0u32, |acc, (i, &v)| acc | (u32::from(v & 3) << (2 * i)));
    let mut b = [0u8; 8];
    b[..2].copy_from_slice(&c0.to_le_bytes());
    b[2..4].copy_from_slice(&c1.to_le_bytes());
    b[4..].copy_from_slice(&bits.to_le_bytes());
    b
}

/// Four BC1 blocks of an 8×8 image: red/blue gradients, opaque green/black, punch-through.
fn bc1_image() -> Vec<u8> {
    let ramp: [u8; 16] = std::array::from_fn(|i| (i % 4) as u8);
    let rows: [u8; 16] = std::array::from_fn(|i| (i / 4) as u8);
    [
        bc1(0xF800, 0x001F, ramp),
        bc1(0x07E0, 0x0000, rows),
        // c0 <= c1: three colours and transparent black at index 3.
        bc1(0x001F, 0xF800, ramp),
        bc1(0xFFFF, 0x0000, [0; 16]),
    ]
    .concat()
}

/// `got` and `want` (RGBA bytes) agree within `tolerance` per channel: BC1's interpolated
/// colours may round either way on the device.
#[track_caller]
fn assert_close(got: &[u8], want: &[u8], tolerance: u8, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            g.abs_diff(*w) <= tolerance,
            "{what}: byte {i} (texel {}) is {g}, want {w} ±{tolerance}",
            i / 4
        );
    }
}

#[test]
fn bc1_is_kept_as_blocks_and_samples_like_the_decoded_reference() {
    let _c = gl_harness::context();
    new_texture(GL_TEXTURE_2D);
    let blocks = bc1_image();
    let before = uploads();
    compressed_image(0, GL_COMPRESSED_RGBA_S3TC_DXT1, (8, 8), &blocks);
    expect(GL_NO_ERROR);
    let after = uploads();
    assert_eq!(
        (after.0 - before.0, after.1 - before.1),
        (1, 0),
        "lavapipe samples BC1: the upload kept its blocks"
    );
    let reference = decompress(Codec::Bc1 { alpha: true }, &blocks, 8, 8, 1).unwrap_or_default();
    // glGetTexImage decodes the device's blocks on the CPU: exactly the reference.
    assert_eq!(texels(0, (8, 8)), reference, "glGetTexImage");
    // The device's own decoding, sampled texel for texel.
    assert_close(&sampled(8, 8), &reference, 3, "sampled");
    assert_eq!(validation_errors(), 0);
}

#[test]
fn a_level_that_is_no_whole_number_of_blocks_keeps_its_texels() {
    let _c = gl_harness::context();
    new_texture(GL_TEXTURE_2D);
    let blocks = bc1_image();
    // 6×6: 2×2 blocks cropped; level 1 (3×3) and level 2 (1×1): one cropped block each.
    compressed_image(0, GL_COMPRESSED_RGBA_S3TC_DXT1, (6, 6), &blocks);
    compressed_image(1, GL_COMPRESSED_RGBA_S3TC_DXT1, (3, 3), &blocks[..8]);
    compressed_image(2, GL_COMPRESSED_RGBA_S3TC_DXT1, (1, 1), &blocks[8..16]);
    expect(GL_NO_ERROR);
    let bc1 = Codec::Bc1 { alpha: true };
    let want = |b: &[u8], w, h| decompress(bc1, b, w, h, 1).unwrap_or_default();
    assert_eq!(texels(0, (6, 6)), want(&blocks, 6, 6), "level 0");
    assert_eq!(texels(1, (3, 3)), want(&blocks[..8], 3, 3), "level 1");
    assert_eq!(texels(2, (1, 1)), want(&blocks[8..16], 1, 1), "level 2");
    assert_close(&sampled(6, 6), &want(&blocks, 6, 6), 3, "sampled level 0");
    assert_eq!(validation_errors(), 0);
}

#[test]
fn sub_images_keep_to_the_block_grid() {
    let _c = gl_harness::context();
    new_texture(GL_TEXTURE_2D);
    let blocks = bc1_image();
    compressed_image(0, GL_COMPRESSED_RGBA_S3TC_DXT1, (6, 6), &blocks);
    let one = bc1(0x001F, 0x001F, [0; 16]);
    compressed_sub_image(GL_COMPRESSED_RGBA_S3TC_DXT1, (2, 0, 4, 4), &one);
    expect(GL_INVALID_OPERATION); // x off the grid
    compressed_sub_image(GL_COMPRESSED_RGBA_S3TC_DXT1, (0, 0, 3, 4), &one);
    expect(GL_INVALID_OPERATION); // a width that is neither whole blocks nor the edge
    compressed_sub_image(GL_COMPRESSED_RGBA_S3TC_DXT1, (0, 0, 4, 4), &one[..4]);
    expect(GL_INVALID_VALUE); // imageSize
                              // The last block reaches the 6×6 edge with a 2×2 box: allowed.
    compressed_sub_image(GL_COMPRESSED_RGBA_S3TC_DXT1, (4, 4, 2, 2), &one);
    expect(GL_NO_ERROR);
    let mut want_blocks = blocks.clone();
    want_blocks[24..32].copy_from_slice(&one);
    let want = decompress(Codec::Bc1 { alpha: true }, &want_blocks, 6, 6, 1).unwrap_or_default();
    assert_eq!(texels(0, (6, 6)), want);
    assert_eq!(validation_errors(), 0);
}

#[test]
fn texels_written_into_a_block_texture_are_kept_decoded() {
    let _c = gl_harness::context();
    new_texture(GL_TEXTURE_2D);
    let blocks = bc1_image();
    compressed_image(0, GL_COMPRESSED_RGBA_S3TC_DXT1, (8, 8), &blocks);
    // EXT_texture_compression_s3tc lets texels replace a block-aligned box.
    let sub = gl!(c"glTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let white = [255u8; 64];
    // SAFETY: 4×4 RGBA texels.
    unsafe {
        sub(
            GL_TEXTURE_2D,
            0,
            4,
            4,
            4,
            4,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            white.as_ptr().cast(),
        )
    };
    expect(GL_NO_ERROR);
    let mut want = decompress(Codec::Bc1 { alpha: true }, &blocks, 8, 8, 1).unwrap_or_default();
    for y in 4..8 {
        want[(y * 8 + 4) * 4..(y * 8 + 8) * 4].fill(255);
    }
    assert_eq!(texels(0, (8, 8)), want, "the other blocks' texels survive");
    assert_close(&sampled(8, 8), &want, 3, "sampled");
    assert_eq!(validation_errors(), 0);
}

#[test]
fn etc2_which_lavapipe_cannot_sample_is_decoded() {
    let _c = gl_harness::context();
    new_texture(GL_TEXTURE_2D);
    // ETC2 individual mode, base colours 0xF0/0x80/0x10, table 0, all indices 0.
    let block = [0xF0u8, 0x80, 0x10, 0x00, 0, 0, 0, 0];
    let before = uploads();
    compressed_image(0, GL_COMPRESSED_RGB8_ETC2, (4, 4), &block);
    expect(GL_NO_ERROR);
    let after = uploads();
    assert_eq!((after.0 - before.0, after.1 - before.1), (0, 1));
    let want = decompress(Codec::Etc2Rgb, &block, 4, 4, 1).unwrap_or_default();
    assert_eq!(texels(0, (4, 4)), want);
    assert_close(&sampled(4, 4), &want, 0, "sampled");
    assert_eq!(validation_errors(), 0);
}

/// A void-extent ASTC LDR block: every texel `rgba` (UNORM16).
fn astc_constant(rgba: [u16; 4]) -> [u8; 16] {
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&0xFFFF_FFFF_FFFF_FDFCu64.to_le_bytes());
    for (c, v) in rgba.iter().enumerate() {
        b[8 + 2 * c..10 + 2 * c].copy_from_slice(&v.to_le_bytes());
    }
    b
}

#[test]
fn astc_blocks_sample_as_their_colours() {
    let _c = gl_harness::context();
    new_texture(GL_TEXTURE_2D);
    // 4×4 footprint, 8×4 texels: an orange block and a reserved (error) block.
    let blocks = [astc_constant([0xFFFF, 0x8080, 0, 0xFFFF]), [0; 16]].concat();
    compressed_image(0, GL_COMPRESSED_RGBA_ASTC_4X4, (8, 4), &blocks);
    expect(GL_NO_ERROR);
    let got = sampled(8, 4);
    for y in 0..4 {
        for x in 0..8 {
            let want = if x < 4 {
                [255, 128, 0, 255]
            } else {
                [255, 0, 255, 255] // the LDR error colour
            };
            let at = (y * 8 + x) * 4;
            assert_eq!(got[at..at + 4], want, "texel ({x}, {y})");
        }
    }
    // 8×8 footprint over a 10×10 level: 2×2 blocks, cropped.
    let teal = astc_constant([0, 0x8080, 0x8080, 0xFFFF]);
    compressed_image(0, GL_COMPRESSED_RGBA_ASTC_8X8, (10, 10), &teal.repeat(4));
    expect(GL_NO_ERROR);
    assert_eq!(texels(0, (10, 10)), [0u8, 128, 128, 255].repeat(100));
    // sRGB: the blocks hold encoded values, sampling decodes them (128 → 55).
    compressed_image(0, GL_COMPRESSED_SRGB8_ALPHA8_ASTC_8X8, (8, 8), &teal);
    expect(GL_NO_ERROR);
    assert_eq!(texels(0, (8, 8)), [0u8, 128, 128, 255].repeat(64));
    assert_close(&sampled(8, 8), &[0u8, 55, 55, 255].repeat(64), 1, "sRGB");
    // ASTC takes blocks only: no texels, no online compression.
    let sub = gl!(c"glTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let texels4 = [0u8; 64];
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
            texels4.as_ptr().cast(),
        )
    };
    expect(GL_INVALID_OPERATION);
    assert_eq!(validation_errors(), 0);
}

#[test]
fn a_bc1_texture_takes_the_memory_of_its_blocks() {
    let _c = gl_harness::context();
    new_texture(GL_TEXTURE_2D);
    // 512×512 BC1: 128 KiB of blocks, 1 MiB decoded to RGBA8. A first texture brings the
    // staging arenas up; the second one's growth is its image alone.
    let blocks = bc1(0xF800, 0x001F, [1; 16]).repeat(128 * 128);
    compressed_image(0, GL_COMPRESSED_RGBA_S3TC_DXT1, (512, 512), &blocks);
    new_texture(GL_TEXTURE_2D);
    let before = memory_stat(c"live_bytes");
    compressed_image(0, GL_COMPRESSED_RGBA_S3TC_DXT1, (512, 512), &blocks);
    let param = gl!(c"glTexParameteri": fn(u32, u32, i32));
    // SAFETY: plain values.
    unsafe { param(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0) };
    expect(GL_NO_ERROR);
    let grown = memory_stat(c"live_bytes") - before;
    // The full mip chain's image: 4/3 of the level, plus alignment.
    assert!(
        (128 << 10..512 << 10).contains(&grown),
        "the texture took {grown} bytes; 128 KiB of blocks, 1 MiB decoded"
    );
    assert_eq!(validation_errors(), 0);
}

/// The figures of `docs/results/memory.md`: 16 MiB of BC1 blocks (sixteen 2048×1024 textures
/// with full mip chains) uploaded, and the device memory the manager holds before and after.
/// Run once as it is and once with `ARENAGL_COMPRESSED=decode` (every compressed texture
/// decoded, as before native storage):
/// `cargo test --test gl_compressed_native -- --ignored --nocapture memory_of_bc1_atlases`.
#[test]
#[ignore = "a measurement: prints figures, asserts nothing a run could differ on"]
fn memory_of_bc1_atlases() {
    let _c = gl_harness::context();
    let level0 = bc1(0xF800, 0x001F, [1; 16]).repeat(512 * 256);
    let upload_chain = || {
        let (mut w, mut h, mut level) = (2048, 1024, 0);
        while w >= 1 && h >= 1 {
            let blocks = (w as usize).div_ceil(4) * (h as usize).div_ceil(4) * 8;
            compressed_image(
                level,
                GL_COMPRESSED_RGBA_S3TC_DXT1,
                (w, h),
                &level0[..blocks],
            );
            if w == 1 && h == 1 {
                break;
            }
            (w, h, level) = ((w / 2).max(1), (h / 2).max(1), level + 1);
        }
    };
    // A first texture brings the staging arenas up; it is not counted.
    new_texture(GL_TEXTURE_2D);
    upload_chain();
    let before = memory_stat(c"live_bytes");
    for _ in 0..16 {
        new_texture(GL_TEXTURE_2D);
        upload_chain();
    }
    expect(GL_NO_ERROR);
    let after = memory_stat(c"live_bytes");
    let (native, decoded) = uploads();
    println!(
        "BC1 16 MiB level-0 blocks (16 × 2048×1024, full chains): live_bytes {before} -> {after} \
         (+{} bytes, {:.1} MiB); uploads native {native}, decoded {decoded}",
        after - before,
        (after - before) as f64 / f64::from(1 << 20)
    );
    assert_eq!(validation_errors(), 0);
}

#[test]
fn a_block_cube_map_is_no_colour_attachment_and_takes_texels_per_face() {
    let _c = gl_harness::context();
    const GL_TEXTURE_CUBE_MAP: u32 = 0x8513;
    const GL_TEXTURE_CUBE_MAP_POSITIVE_X: u32 = 0x8515;
    const GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT: u32 = 0x8CD6;
    let tex = new_texture(GL_TEXTURE_CUBE_MAP);
    let storage = gl!(c"glTexStorage2D": fn(u32, i32, u32, i32, i32));
    let gen_fbos = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind_fbo = gl!(c"glBindFramebuffer": fn(u32, u32));
    let attach = gl!(c"glFramebufferTexture2D": fn(u32, u32, u32, u32, i32));
    let status = gl!(c"glCheckFramebufferStatus": fn(u32) -> u32);
    let sub = gl!(c"glTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let generate = gl!(c"glGenerateMipmap": fn(u32));
    let get = gl!(c"glGetTexImage": fn(u32, i32, u32, u32, *mut c_void));
    // Face f: black left half, a face-coloured right half.
    let face_texels = |f: u8| -> Vec<u8> {
        (0..64)
            .flat_map(|i| {
                if i % 8 < 4 {
                    [0, 0, 0, 255]
                } else {
                    [40 * f, 255, 0, 255]
                }
            })
            .collect()
    };
    let mut fbo = 0;
    let mut out = vec![0u8; 8 * 8 * 4];
    // SAFETY: out-pointers to locals; each face's texels are 8×8 RGBA bytes.
    unsafe {
        storage(GL_TEXTURE_CUBE_MAP, 4, GL_COMPRESSED_RGBA_S3TC_DXT1, 8, 8);
        gen_fbos(1, &mut fbo);
        bind_fbo(GL_FRAMEBUFFER, fbo);
        attach(
            GL_FRAMEBUFFER,
            GL_COLOR_ATTACHMENT0,
            GL_TEXTURE_CUBE_MAP_POSITIVE_X,
            tex,
            0,
        );
        assert_eq!(status(GL_FRAMEBUFFER), GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
        for face in 0..6u8 {
            let texels = face_texels(face);
            let target = GL_TEXTURE_CUBE_MAP_POSITIVE_X + u32::from(face);
            sub(
                target,
                0,
                0,
                0,
                8,
                8,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                texels.as_ptr().cast(),
            );
        }
        generate(GL_TEXTURE_CUBE_MAP);
        expect(GL_NO_ERROR);
        get(
            GL_TEXTURE_CUBE_MAP_POSITIVE_X + 3,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            out.as_mut_ptr().cast(),
        );
    }
    assert_eq!(out, face_texels(3), "face 3 as given");
    assert_eq!(validation_errors(), 0);
}

/// `arenagl_set_faults(spec)`: the fault plan from now on.
fn set_faults(spec: &std::ffi::CStr) {
    // SAFETY: the exported symbol has exactly this signature.
    let set = *unsafe {
        gl_harness::lib()
            .lib
            .get::<unsafe extern "C" fn(*const std::ffi::c_char) -> i32>(b"arenagl_set_faults\0")
    }
    .expect("arenagl_set_faults is exported");
    // SAFETY: a NUL-terminated string.
    assert_eq!(unsafe { set(spec.as_ptr()) }, 0, "plan {spec:?}");
}

#[test]
fn recovery_after_a_device_loss_copies_the_blocks_back() {
    // Recovery and its journal are on by default where device memory is host memory (lavapipe).
    let _c = gl_harness::context();
    new_texture(GL_TEXTURE_2D);
    let blocks = bc1_image();
    compressed_image(0, GL_COMPRESSED_RGBA_S3TC_DXT1, (8, 8), &blocks);
    expect(GL_NO_ERROR);
    let before = sampled(8, 8);
    let recoveries = memory_stat(c"recoveries");
    let finish = gl!(c"glFinish": fn());
    set_faults(c"submit@1=device_lost");
    // SAFETY: no arguments.
    unsafe { finish() };
    set_faults(c"");
    let after = sampled(8, 8);
    assert_eq!(memory_stat(c"recoveries"), recoveries + 1, "one recovery");
    assert_eq!(after, before, "the same texels from the journaled blocks");
    let reference = decompress(Codec::Bc1 { alpha: true }, &blocks, 8, 8, 1).unwrap_or_default();
    assert_eq!(
        texels(0, (8, 8)),
        reference,
        "glGetTexImage after the recovery"
    );
    assert_eq!(validation_errors(), 0);
}

#[test]
fn a_box_off_the_block_grid_reads_its_texels() {
    let _c = gl_harness::context();
    let tex = new_texture(GL_TEXTURE_2D);
    let blocks = bc1_image();
    compressed_image(0, GL_COMPRESSED_RGBA_S3TC_DXT1, (8, 8), &blocks);
    let get = gl!(c"glGetTextureSubImage": fn(u32, i32, i32, i32, i32, i32, i32, i32, u32, u32, i32, *mut c_void));
    let mut out = vec![0u8; 5 * 3 * 4];
    // SAFETY: `out` holds the 5×3 RGBA box (rows of 20 bytes, pack alignment 4).
    unsafe {
        get(
            tex,
            0,
            1,
            2,
            0,
            5,
            3,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            out.len() as i32,
            out.as_mut_ptr().cast(),
        )
    };
    expect(GL_NO_ERROR);
    let all = decompress(Codec::Bc1 { alpha: true }, &blocks, 8, 8, 1).unwrap_or_default();
    let want: Vec<u8> = (2..5)
        .flat_map(|y| all[(y * 8 + 1) * 4..(y * 8 + 6) * 4].to_vec())
        .collect();
    assert_eq!(out, want);
    assert_eq!(validation_errors(), 0);
}
