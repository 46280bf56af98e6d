//! Pixel buffer objects through the C ABI: every pixel-transfer entry point with a buffer bound
//! to `GL_PIXEL_UNPACK_BUFFER` / `GL_PIXEL_PACK_BUFFER`, at an in-range offset (the data comes
//! from / lands in the buffer), offset 0, out-of-range offsets (64 KiB, 2^40, 2^64 − 4), a
//! misaligned offset, a mapped buffer, a buffer too small for the image, and an "offset" equal
//! to the address of real client memory — which must be refused with `GL_INVALID_OPERATION`
//! and never read or written. Each test makes its own context.

use std::ffi::c_void;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context_profile, error, expect, f, Current};

const GL_NO_ERROR: u32 = 0;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_UNSIGNED_SHORT: u32 = 0x1403;
const GL_FLOAT: u32 = 0x1406;
const GL_RGBA: u32 = 0x1908;
const GL_RGBA8: i32 = 0x8058;
const GL_TEXTURE_1D: u32 = 0x0DE0;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_TEXTURE_3D: u32 = 0x806F;
const GL_PIXEL_PACK_BUFFER: u32 = 0x88EB;
const GL_PIXEL_UNPACK_BUFFER: u32 = 0x88EC;
const GL_STREAM_DRAW: u32 = 0x88E0;
const GL_MAP_READ_BIT: u32 = 0x0001;
const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
const GL_COMPRESSED_RGBA_S3TC_DXT1: u32 = 0x83F1;
const GL_NUM_EXTENSIONS: u32 = 0x821D;
const GL_EXTENSIONS: u32 = 0x1F03;

/// The texel every unpack case uploads, found from byte 8 of the unpack buffer on.
const TEXEL: [u8; 4] = [10, 20, 30, 40];
/// What the texture holds before an upload, so a refused one is visible.
const BEFORE: [u8; 4] = [1, 2, 3, 4];
/// The size of the pixel buffers.
const PBO_BYTES: usize = 64;
/// Offsets past the end of a 64-byte buffer, the last one overflowing when an image is added.
const OUT_OF_RANGE: [usize; 3] = [64 << 10, 1 << 40, usize::MAX - 3];

/// A current context (compatibility profile for `glDrawPixels`/`glBitmap`).
fn ctx() -> Current {
    context_profile(true)
}

/// A buffer bound to `target` holding `data`.
fn buffer(target: u32, data: &[u8]) -> u32 {
    let gen = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let data_fn = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let mut b = 0;
    // SAFETY: out-pointer to a local; `data` holds `data.len()` bytes.
    unsafe {
        gen(1, &mut b);
        bind(target, b);
        data_fn(
            target,
            data.len() as isize,
            data.as_ptr().cast(),
            GL_STREAM_DRAW,
        );
    }
    assert_eq!(error(), GL_NO_ERROR);
    b
}

fn unbind(target: u32) {
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    // SAFETY: plain values.
    unsafe { bind(target, 0) }
}

/// The unpack buffer of every upload case: 8 bytes of 0xEE, then `TEXEL` repeated.
fn unpack_source() -> Vec<u8> {
    (0..PBO_BYTES)
        .map(|i| if i < 8 { 0xEE } else { TEXEL[i % 4] })
        .collect()
}

/// A texture of `target` (1D, 2D or 3D), 2 texels a side, filled with `BEFORE`, bound.
fn texture(target: u32) -> u32 {
    let gen = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let image1 = gl!(c"glTexImage1D": fn(u32, i32, i32, i32, i32, u32, u32, *const c_void));
    let image2 = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let image3 =
        gl!(c"glTexImage3D": fn(u32, i32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let fill: Vec<u8> = BEFORE.repeat(8);
    let px = fill.as_ptr().cast();
    let mut t = 0;
    // SAFETY: `fill` holds 8 texels, enough for each image; out-pointer to a local.
    unsafe {
        gen(1, &mut t);
        bind(target, t);
        match target {
            GL_TEXTURE_1D => image1(target, 0, GL_RGBA8, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, px),
            GL_TEXTURE_2D => image2(target, 0, GL_RGBA8, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, px),
            _ => image3(
                target,
                0,
                GL_RGBA8,
                2,
                2,
                2,
                0,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                px,
            ),
        }
    }
    assert_eq!(error(), GL_NO_ERROR);
    t
}

/// The first texel of the bound `target` texture's level 0, read into client memory.
fn first_texel(target: u32) -> [u8; 4] {
    let get = gl!(c"glGetTexImage": fn(u32, i32, u32, u32, *mut c_void));
    let mut out = vec![0u8; 4 * 16];
    // SAFETY: 16 texels of room, more than any level here.
    unsafe {
        get(
            target,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            out.as_mut_ptr().cast(),
        )
    };
    assert_eq!(error(), GL_NO_ERROR);
    [out[0], out[1], out[2], out[3]]
}

/// One upload entry point: its name, its target, and the call with the pixel argument given
/// (an unpack-buffer offset, or a pointer).
struct Upload {
    name: &'static str,
    target: u32,
    call: fn(usize),
}

fn uploads() -> Vec<Upload> {
    vec![
        Upload {
            name: "glTexImage1D",
            target: GL_TEXTURE_1D,
            call: |p| {
                let f = gl!(c"glTexImage1D": fn(u32, i32, i32, i32, i32, u32, u32, usize));
                // SAFETY: plain values; `p` is an offset (or memory of the image's size).
                unsafe {
                    f(
                        GL_TEXTURE_1D,
                        0,
                        GL_RGBA8,
                        2,
                        0,
                        GL_RGBA,
                        GL_UNSIGNED_BYTE,
                        p,
                    )
                }
            },
        },
        Upload {
            name: "glTexImage2D",
            target: GL_TEXTURE_2D,
            call: |p| {
                let f = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, usize));
                // SAFETY: as above.
                unsafe {
                    f(
                        GL_TEXTURE_2D,
                        0,
                        GL_RGBA8,
                        2,
                        2,
                        0,
                        GL_RGBA,
                        GL_UNSIGNED_BYTE,
                        p,
                    )
                }
            },
        },
        Upload {
            name: "glTexImage3D",
            target: GL_TEXTURE_3D,
            call: |p| {
                let f =
                    gl!(c"glTexImage3D": fn(u32, i32, i32, i32, i32, i32, i32, u32, u32, usize));
                // SAFETY: as above.
                unsafe {
                    f(
                        GL_TEXTURE_3D,
                        0,
                        GL_RGBA8,
                        2,
                        2,
                        2,
                        0,
                        GL_RGBA,
                        GL_UNSIGNED_BYTE,
                        p,
                    )
                }
            },
        },
        Upload {
            name: "glTexSubImage1D",
            target: GL_TEXTURE_1D,
            call: |p| {
                let f = gl!(c"glTexSubImage1D": fn(u32, i32, i32, i32, u32, u32, usize));
                // SAFETY: as above.
                unsafe { f(GL_TEXTURE_1D, 0, 0, 1, GL_RGBA, GL_UNSIGNED_BYTE, p) }
            },
        },
        Upload {
            name: "glTexSubImage2D",
            target: GL_TEXTURE_2D,
            call: |p| {
                let f = gl!(c"glTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, usize));
                // SAFETY: as above.
                unsafe { f(GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, p) }
            },
        },
        Upload {
            name: "glTexSubImage3D",
            target: GL_TEXTURE_3D,
            call: |p| {
                let f = gl!(c"glTexSubImage3D": fn(u32, i32, i32, i32, i32, i32, i32, i32, u32, u32, usize));
                // SAFETY: as above.
                unsafe {
                    f(
                        GL_TEXTURE_3D,
                        0,
                        0,
                        0,
                        0,
                        1,
                        1,
                        1,
                        GL_RGBA,
                        GL_UNSIGNED_BYTE,
                        p,
                    )
                }
            },
        },
    ]
}

#[test]
fn uploads_read_the_unpack_buffer_at_the_offset() {
    let _ctx = ctx();
    for u in uploads() {
        for offset in [8, 0] {
            texture(u.target);
            let pbo = buffer(GL_PIXEL_UNPACK_BUFFER, &unpack_source());
            (u.call)(offset);
            assert_eq!(error(), GL_NO_ERROR, "{} at offset {offset}", u.name);
            unbind(GL_PIXEL_UNPACK_BUFFER);
            let want = if offset == 0 { [0xEE; 4] } else { TEXEL };
            assert_eq!(first_texel(u.target), want, "{} at offset {offset}", u.name);
            delete_buffer(pbo);
        }
    }
}

#[test]
fn uploads_refuse_offsets_past_the_buffer_and_client_pointers() {
    let _ctx = ctx();
    // Real client memory holding a different texel: with a buffer bound its address is only
    // an offset, far past the buffer's end, and must never be read.
    let client: Vec<u8> = [99u8, 98, 97, 96].repeat(16);
    let pointer = client.as_ptr() as usize;
    for u in uploads() {
        texture(u.target);
        let _pbo = buffer(GL_PIXEL_UNPACK_BUFFER, &unpack_source());
        for offset in OUT_OF_RANGE.into_iter().chain([pointer]) {
            (u.call)(offset);
            expect(GL_INVALID_OPERATION);
        }
        unbind(GL_PIXEL_UNPACK_BUFFER);
        assert_eq!(
            first_texel(u.target),
            BEFORE,
            "{}: nothing uploaded",
            u.name
        );
    }
}

#[test]
fn uploads_refuse_misaligned_offsets_small_buffers_and_mapped_buffers() {
    let _ctx = ctx();
    let sub = gl!(c"glTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, usize));
    let map = gl!(c"glMapBufferRange": fn(u32, isize, isize, u32) -> *mut c_void);
    let unmap = gl!(c"glUnmapBuffer": fn(u32) -> u8);
    texture(GL_TEXTURE_2D);
    buffer(GL_PIXEL_UNPACK_BUFFER, &unpack_source());
    // SAFETY: with a buffer bound the pointer arguments are offsets; plain values otherwise.
    unsafe {
        // Bytes may start anywhere; shorts only on even offsets.
        sub(GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, 9);
        expect(GL_NO_ERROR);
        sub(GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_SHORT, 9);
        expect(GL_INVALID_OPERATION);
        sub(GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_SHORT, 8);
        expect(GL_NO_ERROR);
        // The last byte of the image one past the end.
        sub(
            GL_TEXTURE_2D,
            0,
            0,
            0,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            PBO_BYTES - 3,
        );
        expect(GL_INVALID_OPERATION);
        sub(
            GL_TEXTURE_2D,
            0,
            0,
            0,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            PBO_BYTES - 4,
        );
        expect(GL_NO_ERROR);
        // A mapped buffer is no source.
        assert!(!map(GL_PIXEL_UNPACK_BUFFER, 0, 16, GL_MAP_READ_BIT).is_null());
        sub(GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, 8);
        expect(GL_INVALID_OPERATION);
        assert_eq!(unmap(GL_PIXEL_UNPACK_BUFFER), 1);
    }
    // A 64×64 image from a 16-byte buffer.
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, usize));
    buffer(GL_PIXEL_UNPACK_BUFFER, &[0u8; 16]);
    // SAFETY: plain values (the offset is into the bound buffer).
    unsafe {
        image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8,
            64,
            64,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            0,
        )
    };
    expect(GL_INVALID_OPERATION);
}

#[test]
fn compressed_uploads_read_the_unpack_buffer() {
    let _ctx = ctx();
    let image = gl!(c"glCompressedTexImage2D": fn(u32, i32, u32, i32, i32, i32, i32, usize));
    let sub = gl!(c"glCompressedTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, i32, usize));
    // BC1: colour 0 pure red, colour 1 pure blue, every index 2 → (170, 0, 85).
    let block: [u8; 8] = [0x00, 0xF8, 0x1F, 0x00, 0xAA, 0xAA, 0xAA, 0xAA];
    let mut source = vec![0u8; 8];
    source.extend_from_slice(&block);
    texture(GL_TEXTURE_2D);
    buffer(GL_PIXEL_UNPACK_BUFFER, &source);
    let pointer = block.as_ptr() as usize;
    // SAFETY: with a buffer bound the pointer arguments are offsets.
    unsafe {
        image(
            GL_TEXTURE_2D,
            0,
            GL_COMPRESSED_RGBA_S3TC_DXT1,
            4,
            4,
            0,
            8,
            8,
        );
        expect(GL_NO_ERROR);
        for offset in [9, 1 << 40, usize::MAX - 3, pointer] {
            image(
                GL_TEXTURE_2D,
                0,
                GL_COMPRESSED_RGBA_S3TC_DXT1,
                4,
                4,
                0,
                8,
                offset,
            );
            expect(GL_INVALID_OPERATION);
            sub(
                GL_TEXTURE_2D,
                0,
                0,
                0,
                4,
                4,
                GL_COMPRESSED_RGBA_S3TC_DXT1,
                8,
                offset,
            );
            expect(GL_INVALID_OPERATION);
        }
        sub(
            GL_TEXTURE_2D,
            0,
            0,
            0,
            4,
            4,
            GL_COMPRESSED_RGBA_S3TC_DXT1,
            8,
            8,
        );
        expect(GL_NO_ERROR);
    }
    unbind(GL_PIXEL_UNPACK_BUFFER);
    assert_eq!(first_texel(GL_TEXTURE_2D), [170, 0, 85, 255]);
}

/// The pack buffer's bytes.
fn buffer_bytes(target: u32) -> Vec<u8> {
    let get = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut c_void));
    let mut out = vec![0u8; PBO_BYTES];
    // SAFETY: room for the whole buffer.
    unsafe { get(target, 0, PBO_BYTES as isize, out.as_mut_ptr().cast()) };
    assert_eq!(error(), GL_NO_ERROR);
    out
}

/// One pack entry point, writing one RGBA/ubyte pixel (`TEXEL`) at its pixel argument.
struct Pack {
    name: &'static str,
    call: fn(usize, u32),
}

fn packs() -> [Pack; 2] {
    [
        Pack {
            name: "glReadPixels",
            call: |p, ty| {
                let f = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, usize));
                // SAFETY: `p` is an offset into the bound pack buffer.
                unsafe { f(0, 0, 1, 1, GL_RGBA, ty, p) }
            },
        },
        Pack {
            name: "glGetTexImage",
            call: |p, ty| {
                let f = gl!(c"glGetTexImage": fn(u32, i32, u32, u32, usize));
                // SAFETY: as above; the bound 1D texture is one texel wide.
                unsafe { f(GL_TEXTURE_1D, 0, GL_RGBA, ty, p) }
            },
        },
    ]
}

/// The framebuffer cleared to `TEXEL` and a 1-texel 1D texture holding it, for the packs.
fn pack_sources() {
    let clear_color = gl!(c"glClearColor": fn(f32, f32, f32, f32));
    let clear = gl!(c"glClear": fn(u32));
    let image1 = gl!(c"glTexImage1D": fn(u32, i32, i32, i32, i32, u32, u32, *const c_void));
    let [r, g, b, a] = TEXEL.map(|c| f32::from(c) / 255.0);
    let gen = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let mut t = 0;
    // SAFETY: `TEXEL` is one RGBA/ubyte texel; out-pointer to a local.
    unsafe {
        clear_color(r, g, b, a);
        clear(GL_COLOR_BUFFER_BIT);
        gen(1, &mut t);
        bind(GL_TEXTURE_1D, t);
        image1(
            GL_TEXTURE_1D,
            0,
            GL_RGBA8,
            1,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            TEXEL.as_ptr().cast(),
        );
    }
    assert_eq!(error(), GL_NO_ERROR);
}

#[test]
fn packs_write_the_pack_buffer_at_the_offset_and_nothing_else() {
    let _ctx = ctx();
    pack_sources();
    for p in packs() {
        for offset in [8usize, 0] {
            let pbo = buffer(GL_PIXEL_PACK_BUFFER, &[0xEE; PBO_BYTES]);
            (p.call)(offset, GL_UNSIGNED_BYTE);
            assert_eq!(error(), GL_NO_ERROR, "{} at offset {offset}", p.name);
            let got = buffer_bytes(GL_PIXEL_PACK_BUFFER);
            let mut want = vec![0xEE; PBO_BYTES];
            want[offset..offset + 4].copy_from_slice(&TEXEL);
            assert_eq!(got, want, "{} at offset {offset}", p.name);
            delete_buffer(pbo);
        }
    }
}

#[test]
fn packs_refuse_offsets_past_the_buffer_and_never_write_client_memory() {
    let _ctx = ctx();
    let map = gl!(c"glMapBufferRange": fn(u32, isize, isize, u32) -> *mut c_void);
    let unmap = gl!(c"glUnmapBuffer": fn(u32) -> u8);
    pack_sources();
    // Real client memory: with a buffer bound its address is only an offset.
    let client = [0x5Au8; 64];
    let pointer = client.as_ptr() as usize;
    for p in packs() {
        buffer(GL_PIXEL_PACK_BUFFER, &[0xEE; PBO_BYTES]);
        for offset in OUT_OF_RANGE.into_iter().chain([pointer, PBO_BYTES - 3]) {
            (p.call)(offset, GL_UNSIGNED_BYTE);
            expect(GL_INVALID_OPERATION);
        }
        // Floats only on multiples of 4.
        (p.call)(2, GL_FLOAT);
        expect(GL_INVALID_OPERATION);
        // SAFETY: plain values.
        unsafe { assert!(!map(GL_PIXEL_PACK_BUFFER, 0, 8, GL_MAP_READ_BIT).is_null()) };
        (p.call)(8, GL_UNSIGNED_BYTE);
        expect(GL_INVALID_OPERATION);
        // SAFETY: plain values.
        unsafe { assert_eq!(unmap(GL_PIXEL_PACK_BUFFER), 1) };
        assert_eq!(
            buffer_bytes(GL_PIXEL_PACK_BUFFER),
            vec![0xEE; PBO_BYTES],
            "{}",
            p.name
        );
    }
    assert!(
        client.iter().all(|&b| b == 0x5A),
        "client memory was written"
    );
}

#[test]
fn draw_pixels_and_bitmap_read_the_unpack_buffer() {
    let _ctx = ctx();
    let window_pos = gl!(c"glWindowPos2i": fn(i32, i32));
    let draw_pixels = gl!(c"glDrawPixels": fn(i32, i32, u32, u32, usize));
    let bitmap = gl!(c"glBitmap": fn(i32, i32, f32, f32, f32, f32, usize));
    let color = gl!(c"glColor4ub": fn(u8, u8, u8, u8));
    let read = gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, *mut c_void));
    let client = [0xFFu8; 64];
    let pointer = client.as_ptr() as usize;
    // Bitmap rows from byte 8: 0b1000_0000 sets only the first pixel of each row.
    let mut source = unpack_source();
    source[60..].copy_from_slice(&[0x80, 0, 0, 0]);
    buffer(GL_PIXEL_UNPACK_BUFFER, &source);
    let mut px = [0u8; 8];
    // SAFETY: offsets into the bound unpack buffer; `px` holds two pixels.
    unsafe {
        window_pos(2, 2);
        draw_pixels(1, 1, GL_RGBA, GL_UNSIGNED_BYTE, 8);
        expect(GL_NO_ERROR);
        color(200, 100, 50, 255);
        window_pos(5, 5);
        bitmap(2, 1, 0.0, 0.0, 0.0, 0.0, 60);
        expect(GL_NO_ERROR);
        for offset in OUT_OF_RANGE.into_iter().chain([pointer]) {
            draw_pixels(1, 1, GL_RGBA, GL_UNSIGNED_BYTE, offset);
            expect(GL_INVALID_OPERATION);
            bitmap(8, 8, 0.0, 0.0, 0.0, 0.0, offset);
            expect(GL_INVALID_OPERATION);
        }
        unbind(GL_PIXEL_UNPACK_BUFFER);
        read(
            2,
            2,
            1,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        );
        assert_eq!(px[..4], TEXEL, "glDrawPixels from the buffer");
        read(
            5,
            5,
            2,
            1,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            px.as_mut_ptr().cast(),
        );
        assert_eq!(px[..4], [200, 100, 50, 255], "the set bitmap bit");
        assert_ne!(px[4..], [200, 100, 50, 255], "the clear bitmap bit");
    }
}

#[test]
fn the_extension_is_advertised() {
    let _ctx = ctx();
    let get = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let stringi = gl!(c"glGetStringi": fn(u32, u32) -> *const u8);
    let mut n = 0;
    // SAFETY: out-pointer to a local; indices below the count; the strings are NUL-terminated.
    let names: Vec<String> = unsafe {
        get(GL_NUM_EXTENSIONS, &mut n);
        (0..n as u32)
            .map(|i| {
                std::ffi::CStr::from_ptr(stringi(GL_EXTENSIONS, i).cast())
                    .to_string_lossy()
                    .into_owned()
            })
            .collect()
    };
    assert!(names.iter().any(|e| e == "GL_ARB_pixel_buffer_object"));
}

fn delete_buffer(b: u32) {
    let delete = gl!(c"glDeleteBuffers": fn(i32, *const u32));
    // SAFETY: one name.
    unsafe { delete(1, &b) };
}

/// The whole 2D level 0 of the bound texture as RGBA bytes.
fn level_bytes(side: usize) -> Vec<u8> {
    gl_harness::tex_image_rgba(GL_TEXTURE_2D, 0, side * side * 4)
}

#[test]
fn a_sub_image_whose_bytes_are_the_texels_is_a_device_copy() {
    const GL_RGB: u32 = 0x1907;
    const GL_UNPACK_ROW_LENGTH: u32 = 0x0CF2;
    const GL_UNPACK_SKIP_ROWS: u32 = 0x0CF3;
    const SIDE: usize = 64;
    let _c = ctx();
    let stat = |name| gl_harness::memory_stat(name);
    // A buffer above the shadow limit (device memory): 128 KiB of a pattern.
    let source: Vec<u8> = (0..128 << 10).map(|i| (i * 7 % 251) as u8).collect();
    let pbo = buffer(GL_PIXEL_UNPACK_BUFFER, &source);
    unbind(GL_PIXEL_UNPACK_BUFFER);
    let image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let sub = gl!(c"glTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let store = gl!(c"glPixelStorei": fn(u32, i32));
    let bind_buffer = gl!(c"glBindBuffer": fn(u32, u32));
    // `glTexSubImage2D` of level 0 from `pbo` at `offset`, then the unpack buffer unbound.
    let sub_from_pbo = |[x, y, w, h]: [i32; 4], format: u32, offset: usize| {
        // SAFETY: an offset into the bound buffer, never dereferenced.
        unsafe {
            bind_buffer(GL_PIXEL_UNPACK_BUFFER, pbo);
            sub(
                GL_TEXTURE_2D,
                0,
                x,
                y,
                w,
                h,
                format,
                GL_UNSIGNED_BYTE,
                offset as *const c_void,
            );
        }
    };
    let whole = [0, 0, SIDE as i32, SIDE as i32];
    gl_harness::new_texture(GL_TEXTURE_2D);
    // SAFETY: NULL data.
    unsafe {
        image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8,
            SIDE as i32,
            SIDE as i32,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            std::ptr::null(),
        );
    }
    let (copied, read) = (stat(c"buffer_to_image_bytes"), stat(c"readback_bytes"));
    // RGBA bytes into RGBA8 from offset 256: a copy on the device, nothing read back.
    sub_from_pbo(whole, GL_RGBA, 256);
    assert_eq!(error(), GL_NO_ERROR);
    assert_eq!(
        stat(c"buffer_to_image_bytes") - copied,
        (SIDE * SIDE * 4) as u64
    );
    assert_eq!(stat(c"readback_bytes"), read, "no CPU round trip");
    unbind(GL_PIXEL_UNPACK_BUFFER);
    assert_eq!(
        level_bytes(SIDE),
        source[256..256 + SIDE * SIDE * 4],
        "the texels"
    );

    // A row length and skipped rows: still a copy (rows a whole number of texels apart).
    // SAFETY: plain values.
    unsafe {
        store(GL_UNPACK_ROW_LENGTH, 80);
        store(GL_UNPACK_SKIP_ROWS, 2);
    }
    sub_from_pbo([8, 4, 16, 8], GL_RGBA, 4);
    // SAFETY: plain values.
    unsafe {
        store(GL_UNPACK_ROW_LENGTH, 0);
        store(GL_UNPACK_SKIP_ROWS, 0);
    }
    assert_eq!(error(), GL_NO_ERROR);
    unbind(GL_PIXEL_UNPACK_BUFFER);
    let level = level_bytes(SIDE);
    for row in 0..8 {
        let from = 4 + (2 + row) * 80 * 4;
        let at = ((4 + row) * SIDE + 8) * 4;
        assert_eq!(level[at..at + 64], source[from..from + 64], "row {row}");
    }

    // RGB bytes need a conversion: the CPU path, with the same result GL defines.
    let before = stat(c"buffer_to_image_bytes");
    sub_from_pbo([0, 0, 2, 1], GL_RGB, 0);
    assert_eq!(error(), GL_NO_ERROR);
    assert_eq!(
        stat(c"buffer_to_image_bytes"),
        before,
        "a conversion is not a device copy"
    );
    unbind(GL_PIXEL_UNPACK_BUFFER);
    let level = level_bytes(SIDE);
    assert_eq!(
        level[..8],
        [source[0], source[1], source[2], 255, source[3], source[4], source[5], 255]
    );
    // A range past the end is still GL's error, whichever path.
    sub_from_pbo(whole, GL_RGBA, 120 << 10);
    assert_eq!(error(), GL_INVALID_OPERATION);
    unbind(GL_PIXEL_UNPACK_BUFFER);
    assert_eq!(gl_harness::validation_errors(), 0);
}
