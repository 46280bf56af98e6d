//! libFuzzer over pixel transfers with pixel buffer objects, through ArenaGL's C ABI (the library
//! linked in and built with AddressSanitizer, so a read or write of memory the call does not own
//! is a crash): `glTexImage1D/2D/3D`, `glTexSubImage1D/2D/3D`, `glCompressedTexImage2D`,
//! `glCompressedTexSubImage2D`, `glDrawPixels`, `glBitmap`, `glReadPixels`, `glGetTexImage`,
//! `glGetCompressedTexImage`,
//! with and without a buffer bound to `GL_PIXEL_UNPACK_BUFFER` / `GL_PIXEL_PACK_BUFFER`, under
//! fuzzed pixel-store state, buffer sizes and mappings.
//!
//! Input: a sequence of 16-byte operations. Byte 0 picks the entry point (or a state change:
//! buffer size, map/unmap, pixel store), byte 1 the pixel argument — an offset in range, at the
//! buffer's end, misaligned, a huge value, or the address of real client memory — byte 2 which
//! buffers are bound, byte 3 a format/type pair, bytes 4–6 the image size (0–8, or −1), the rest
//! an arbitrary 64-bit offset and a pixel-store value.
//!
//! The committed seeds (`fuzz/corpus/pixel_buffers`) are the matrix: every entry point × an
//! in-range, misaligned and out-of-range offset and an offset equal to a real pointer.
//!
//! What fails an input: a crash or an AddressSanitizer report, a panic caught at the C edge, a
//! GL error code that is not one, a validation-layer error, `GL_NO_ERROR` for a non-empty image
//! whose bound buffer cannot hold it, and any change to the sentinel client memory whose address
//! is passed as an "offset" while a buffer is bound (it is never to be read or written).
#![no_main]

#[macro_use]
mod harness;

use std::ffi::c_void;

use harness::{check_error, make_current, Counters, Guarded, Input};
use libfuzzer_sys::fuzz_target;

const UNPACK: u32 = 0x88EC;
const PACK: u32 = 0x88EB;
const TEX_1D: u32 = 0x0DE0;
const TEX_2D: u32 = 0x0DE1;
const TEX_3D: u32 = 0x806F;
const RGBA8: i32 = 0x8058;
const DXT1: u32 = 0x83F1;

/// Format/type pairs (some valid, some not).
const PAIRS: &[(u32, u32)] = &[
    (0x1908, 0x1401), // RGBA, UNSIGNED_BYTE
    (0x1907, 0x1401), // RGB, UNSIGNED_BYTE
    (0x1903, 0x1406), // RED, FLOAT
    (0x1908, 0x1403), // RGBA, UNSIGNED_SHORT
    (0x1907, 0x8363), // RGB, UNSIGNED_SHORT_5_6_5
    (0x1908, 0x8367), // RGBA, UNSIGNED_INT_8_8_8_8_REV
    (0x80E1, 0x1401), // BGRA, UNSIGNED_BYTE
    (0x1902, 0x1406), // DEPTH_COMPONENT, FLOAT
    (0x1908, 0x1406), // RGBA, FLOAT
    (0x1908, 0x140B), // RGBA, HALF_FLOAT
    (0x8D99, 0x1404), // RGBA_INTEGER, INT
    (0x1908, 0x1234), // an unknown type
];

/// Pixel-store parameters the fuzzer sets (alignment, row length, skips, image height).
const STORE: &[u32] = &[0x0CF5, 0x0CF2, 0x0CF3, 0x0CF4, 0x806E, 0x806D, 0x0D05, 0x0D02];

/// Client memory for calls with no buffer bound: more than any image here needs (sizes up to
/// 8 texels a side, pixel-store values up to 8, 16 bytes a texel).
const CLIENT_BYTES: usize = 1 << 17;

/// The fuzzed state that lives across operations.
struct State {
    pbo_bytes: usize,
    mapped: bool,
    /// Memory whose address is passed as an "offset": never to be touched.
    sentinel: Guarded,
    /// Memory for calls with no buffer bound.
    client: Guarded,
}

/// One decoded operation.
struct Op {
    entry: u8,
    arg_kind: u8,
    bind: u8,
    pair: (u32, u32),
    size: [i32; 3],
    raw: u64,
    store: u32,
}

fn decode(input: &mut Input) -> Op {
    let (entry, arg_kind, bind) = (input.u8(), input.u8(), input.u8());
    let pair = PAIRS[usize::from(input.u8()) % PAIRS.len()];
    let dim = |b: u8| if b == 0xFF { -1 } else { i32::from(b % 9) };
    let size = [dim(input.u8()), dim(input.u8()), dim(input.u8())];
    let raw = u64::from(input.u32()) | u64::from(input.u32()) << 32;
    let store = u32::from(input.u8());
    Op {
        entry,
        arg_kind,
        bind,
        pair,
        size,
        raw,
        store,
    }
}

/// The pixel argument: with a buffer bound an offset of some kind, else client memory.
fn pixel_arg(op: &Op, state: &State, bound: bool) -> usize {
    if !bound {
        return state.client.p::<u8>() as usize;
    }
    match op.arg_kind % 6 {
        0 => (op.raw % 64) as usize,
        1 => state.pbo_bytes.saturating_sub((op.raw % 8) as usize),
        2 => 1 + 2 * (op.raw % 16) as usize,
        3 => op.raw as usize,
        4 => state.sentinel.p::<u8>() as usize,
        _ => usize::MAX - (op.raw % 8) as usize,
    }
}

fn bind_buffer(target: u32, on: bool, name: u32) {
    // SAFETY: plain values.
    unsafe { gl!(c"glBindBuffer": fn(u32, u32))(target, if on { name } else { 0 }) };
}

/// Runs one upload or pack entry point with pixel argument `px`.
fn transfer(entry: u8, op: &Op, px: usize) {
    let (format, ty) = op.pair;
    let [w, h, d] = op.size;
    // SAFETY: with a buffer bound `px` is an offset (never dereferenced, the point of this
    // target); without one it is `CLIENT_BYTES` of client memory, more than any image here.
    unsafe {
        match entry % 10 {
            0 => gl!(c"glTexImage1D": fn(u32, i32, i32, i32, i32, u32, u32, usize))(TEX_1D, 0, RGBA8, w, 0, format, ty, px),
            1 => gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, usize))(TEX_2D, 0, RGBA8, w, h, 0, format, ty, px),
            2 => gl!(c"glTexImage3D": fn(u32, i32, i32, i32, i32, i32, i32, u32, u32, usize))(TEX_3D, 0, RGBA8, w, h, d, 0, format, ty, px),
            3 => gl!(c"glTexSubImage1D": fn(u32, i32, i32, i32, u32, u32, usize))(TEX_1D, 0, 0, w, format, ty, px),
            4 => gl!(c"glTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, usize))(TEX_2D, 0, 0, 0, w, h, format, ty, px),
            5 => gl!(c"glTexSubImage3D": fn(u32, i32, i32, i32, i32, i32, i32, i32, u32, u32, usize))(TEX_3D, 0, 0, 0, 0, w, h, d, format, ty, px),
            6 if op.arg_kind & 0x80 == 0 => gl!(c"glCompressedTexImage2D": fn(u32, i32, u32, i32, i32, i32, i32, usize))(TEX_2D, 0, DXT1, 4 * (w % 3), 4 * (h % 3), 0, 8 * (w % 3) * (h % 3), px),
            6 => gl!(c"glCompressedTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, i32, usize))(TEX_2D, 0, 0, 0, 4 * (w % 3), 4 * (h % 3), DXT1, 8 * (w % 3) * (h % 3), px),
            7 => gl!(c"glDrawPixels": fn(i32, i32, u32, u32, usize))(w, h, format, ty, px),
            8 => gl!(c"glReadPixels": fn(i32, i32, i32, i32, u32, u32, usize))(0, 0, w, h, format, ty, px),
            _ if op.arg_kind & 0x80 != 0 => gl!(c"glGetCompressedTexImage": fn(u32, i32, usize))(TEX_2D, 0, px),
            _ => gl!(c"glGetTexImage": fn(u32, i32, u32, u32, usize))(TEX_2D, 0, format, ty, px),
        }
    }
}

/// A state change: buffer size, map/unmap, pixel store, a bitmap.
fn change_state(op: &Op, state: &mut State, px: usize) {
    // SAFETY: plain values; a bitmap's pointer as in `transfer`.
    unsafe {
        match op.entry % 4 {
            0 if !state.mapped => {
                state.pbo_bytes = (op.raw % 4096) as usize;
                for target in [UNPACK, PACK] {
                    gl!(c"glBufferData": fn(u32, isize, *const c_void, u32))(target, state.pbo_bytes as isize, std::ptr::null(), 0x88E0);
                }
            }
            1 => {
                if state.mapped {
                    gl!(c"glUnmapBuffer": fn(u32) -> u8)(UNPACK);
                } else if state.pbo_bytes > 0 {
                    gl!(c"glMapBufferRange": fn(u32, isize, isize, u32) -> *mut c_void)(UNPACK, 0, 1, 1);
                }
                state.mapped = !state.mapped;
            }
            2 => gl!(c"glPixelStorei": fn(u32, i32))(STORE[usize::from(op.arg_kind) % STORE.len()], (op.store % 9) as i32),
            _ => gl!(c"glBitmap": fn(i32, i32, f32, f32, f32, f32, usize))(op.size[0], op.size[1], 0.0, 0.0, 0.0, 0.0, px),
        }
    }
}

fn run(data: &[u8]) {
    make_current();
    let counters = Counters::now();
    let (mut names, mut tex) = ([0u32; 2], [0u32; 3]);
    // SAFETY: out-pointers to locals; plain values.
    unsafe {
        gl!(c"glGenBuffers": fn(i32, *mut u32))(2, names.as_mut_ptr());
        gl!(c"glGenTextures": fn(i32, *mut u32))(3, tex.as_mut_ptr());
        for (t, target) in tex.iter().zip([TEX_1D, TEX_2D, TEX_3D]) {
            gl!(c"glBindTexture": fn(u32, u32))(target, *t);
        }
    }
    let mut state = State {
        pbo_bytes: 64,
        mapped: false,
        sentinel: Guarded::from_bytes(&[0xA5; 256]),
        client: Guarded::new(CLIENT_BYTES),
    };
    for (target, name) in [UNPACK, PACK].into_iter().zip(names) {
        bind_buffer(target, true, name);
        // SAFETY: a NULL data pointer allocates.
        unsafe { gl!(c"glBufferData": fn(u32, isize, *const c_void, u32))(target, 64, std::ptr::null(), 0x88E0) };
    }
    let mut input = Input::new(data);
    for _ in 0..24 {
        if input.is_empty() {
            break;
        }
        let op = decode(&mut input);
        one(&op, &mut state, names);
        counters.check("pixel transfer");
    }
    // Leave a clean context for the next input.
    // SAFETY: plain values; the names came from glGen*.
    unsafe {
        if state.mapped {
            gl!(c"glUnmapBuffer": fn(u32) -> u8)(UNPACK);
        }
        gl!(c"glDeleteBuffers": fn(i32, *const u32))(2, names.as_ptr());
        gl!(c"glDeleteTextures": fn(i32, *const u32))(3, tex.as_ptr());
        for p in STORE {
            let default = if matches!(*p, 0x0CF5 | 0x0D05) { 4 } else { 0 };
            gl!(c"glPixelStorei": fn(u32, i32))(*p, default);
        }
    }
    let _ = check_error("cleanup");
}

/// One operation and its checks.
fn one(op: &Op, state: &mut State, names: [u32; 2]) {
    let unpack_bound = op.bind & 1 != 0;
    let pack_bound = op.bind & 2 != 0;
    bind_buffer(UNPACK, unpack_bound, names[0]);
    bind_buffer(PACK, pack_bound, names[1]);
    let pack = matches!(op.entry % 10, 8 | 9);
    let bound = if pack { pack_bound } else { unpack_bound };
    let px = pixel_arg(op, state, bound);
    if op.entry >= 200 {
        change_state(op, state, pixel_arg(op, state, unpack_bound));
        let _ = check_error("state change");
    } else {
        transfer(op.entry, op, px);
        let e = check_error("pixel transfer");
        let far = px >= state.pbo_bytes.saturating_add(4096);
        let nonempty = op.size.iter().all(|&n| n > 0);
        // Compressed images take their size from their own argument, `glGet(Compressed)TexImage` from
        // the texture (an undefined level packs nothing and is no error): only the other
        // entry points cover `op.size`.
        if bound && far && nonempty && !matches!(op.entry % 10, 6 | 9) {
            assert_ne!(e, 0, "an image past the bound buffer's end was accepted");
        }
    }
    assert!(
        state.sentinel.bytes().iter().all(|&b| b == 0xA5),
        "client memory passed as an offset was written"
    );
}

fuzz_target!(|data: &[u8]| run(data));
