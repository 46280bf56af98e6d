//! `GL_ARB_invalidate_subdata` through the C ABI: the six invalidation commands accept what GL
//! accepts — and keep contents, which the spec allows — and refuse the rest with the spec's
//! errors: names that are no objects, ranges outside the object, levels a target cannot have,
//! mapped buffers, attachments of the wrong kind of framebuffer.

use std::ffi::c_void;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, error, expect, f, Current};

const GL_INVALID_ENUM: u32 = 0x0500;
const GL_INVALID_VALUE: u32 = 0x0501;
const GL_INVALID_OPERATION: u32 = 0x0502;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_STATIC_DRAW: u32 = 0x88E4;
const GL_MAP_READ_BIT: u32 = 0x0001;
const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_RGBA8: i32 = 0x8058;
const GL_FRAMEBUFFER: u32 = 0x8D40;
const GL_READ_FRAMEBUFFER: u32 = 0x8CA8;
const GL_COLOR_ATTACHMENT0: u32 = 0x8CE0;
const GL_DEPTH_ATTACHMENT: u32 = 0x8D00;
const GL_COLOR: u32 = 0x1800;
const GL_DEPTH: u32 = 0x1801;

fn buffer(len: usize) -> u32 {
    let gen = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let bytes: Vec<u8> = (0..len).map(|i| i as u8).collect();
    let mut b = 0;
    // SAFETY: out-pointer to a local; `bytes` holds `len` bytes.
    unsafe {
        gen(1, &mut b);
        bind(GL_ARRAY_BUFFER, b);
        data(
            GL_ARRAY_BUFFER,
            len as isize,
            bytes.as_ptr().cast(),
            GL_STATIC_DRAW,
        );
    }
    b
}

#[test]
fn buffer_invalidation_checks_names_ranges_and_mappings() {
    let _c: Current = context();
    let data = gl!(c"glInvalidateBufferData": fn(u32));
    let sub = gl!(c"glInvalidateBufferSubData": fn(u32, isize, isize));
    let map = gl!(c"glMapBufferRange": fn(u32, isize, isize, u32) -> *mut c_void);
    let unmap = gl!(c"glUnmapBuffer": fn(u32) -> u8);
    let b = buffer(64);
    // SAFETY: plain values throughout.
    unsafe {
        data(b);
        sub(b, 16, 48);
        sub(b, 0, 0);
    }
    assert_eq!(error(), 0);
    let bad: [(u32, isize, isize); 4] = [(b, -1, 4), (b, 0, -4), (b, 60, 8), (b + 100, 0, 4)];
    for (name, offset, length) in bad {
        // SAFETY: plain values.
        unsafe { sub(name, offset, length) };
        expect(GL_INVALID_VALUE);
    }
    // SAFETY: plain values.
    unsafe { data(0) };
    expect(GL_INVALID_VALUE);
    // SAFETY: the buffer is bound to GL_ARRAY_BUFFER; the mapping is released below.
    unsafe {
        assert!(!map(GL_ARRAY_BUFFER, 0, 64, GL_MAP_READ_BIT).is_null());
        data(b);
    }
    expect(GL_INVALID_OPERATION);
    // SAFETY: as above; the mapping is released right after.
    unsafe {
        unmap(GL_ARRAY_BUFFER);
        assert!(!map(GL_ARRAY_BUFFER, 32, 16, GL_MAP_READ_BIT).is_null());
        sub(b, 0, 32);
        assert_eq!(error(), 0, "a range beside the mapping");
        sub(b, 40, 4);
        expect(GL_INVALID_OPERATION);
        unmap(GL_ARRAY_BUFFER);
    }
    // Contents are kept (allowed: invalidation only permits losing them).
    let get = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut c_void));
    let mut out = [0u8; 4];
    // SAFETY: room for 4 bytes.
    unsafe { get(GL_ARRAY_BUFFER, 0, 4, out.as_mut_ptr().cast()) };
    assert_eq!(out, [0, 1, 2, 3]);
}

#[test]
fn texture_invalidation_checks_names_levels_and_regions() {
    let _c: Current = context();
    let gen = gl!(c"glGenTextures": fn(i32, *mut u32));
    let bind = gl!(c"glBindTexture": fn(u32, u32));
    let storage = gl!(c"glTexStorage2D": fn(u32, i32, i32, i32, i32));
    let image = gl!(c"glInvalidateTexImage": fn(u32, i32));
    let sub = gl!(c"glInvalidateTexSubImage": fn(u32, i32, i32, i32, i32, i32, i32, i32));
    let mut t = 0;
    // SAFETY: out-pointer to a local; plain values.
    unsafe {
        gen(1, &mut t);
        bind(GL_TEXTURE_2D, t);
        storage(GL_TEXTURE_2D, 3, GL_RGBA8, 16, 16);
        image(t, 0);
        image(t, 2);
        sub(t, 1, 0, 0, 0, 8, 8, 1);
        sub(t, 2, 1, 1, 0, 3, 3, 1);
    }
    assert_eq!(error(), 0);
    let bad: [(u32, i32, [i32; 6]); 5] = [
        (t, -1, [0, 0, 0, 1, 1, 1]),
        (t, 40, [0, 0, 0, 1, 1, 1]),
        (t, 1, [4, 0, 0, 8, 8, 1]),
        (t, 0, [0, 0, 0, -1, 1, 1]),
        (t + 50, 0, [0, 0, 0, 1, 1, 1]),
    ];
    for (name, level, [x, y, z, w, h, d]) in bad {
        // SAFETY: plain values.
        unsafe { sub(name, level, x, y, z, w, h, d) };
        expect(GL_INVALID_VALUE);
    }
    // SAFETY: plain values.
    unsafe { image(0, 0) };
    expect(GL_INVALID_VALUE);
}

#[test]
fn framebuffer_invalidation_checks_targets_and_attachments() {
    let _c: Current = context();
    let inv = gl!(c"glInvalidateFramebuffer": fn(u32, i32, *const u32));
    let sub = gl!(c"glInvalidateSubFramebuffer": fn(u32, i32, *const u32, i32, i32, i32, i32));
    let gen = gl!(c"glGenFramebuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindFramebuffer": fn(u32, u32));
    let default = [GL_COLOR, GL_DEPTH];
    let object = [GL_COLOR_ATTACHMENT0, GL_DEPTH_ATTACHMENT];
    // SAFETY: the arrays hold the counts given.
    unsafe {
        inv(GL_FRAMEBUFFER, 2, default.as_ptr());
        sub(GL_READ_FRAMEBUFFER, 1, default.as_ptr(), 0, 0, 8, 8);
    }
    assert_eq!(error(), 0);
    let cases: [(u32, i32, &[u32], u32); 4] = [
        (0x1234, 1, &default, GL_INVALID_ENUM),
        (GL_FRAMEBUFFER, -1, &default, GL_INVALID_VALUE),
        (GL_FRAMEBUFFER, 1, &object, GL_INVALID_ENUM),
        (GL_FRAMEBUFFER, 1, &[0xDEAD], GL_INVALID_ENUM),
    ];
    for (target, n, list, want) in cases {
        // SAFETY: `list` holds at least `n` entries (none for a negative n).
        unsafe { inv(target, n, list.as_ptr()) };
        expect(want);
    }
    // SAFETY: plain values.
    unsafe { sub(GL_FRAMEBUFFER, 1, default.as_ptr(), 0, 0, -1, 4) };
    expect(GL_INVALID_VALUE);
    let mut fb = 0;
    let past = [GL_COLOR_ATTACHMENT0 + 20];
    // SAFETY: out-pointer to a local; arrays hold the counts given.
    unsafe {
        gen(1, &mut fb);
        bind(GL_FRAMEBUFFER, fb);
        inv(GL_FRAMEBUFFER, 2, object.as_ptr());
        assert_eq!(error(), 0);
        inv(GL_FRAMEBUFFER, 1, default.as_ptr());
        expect(GL_INVALID_ENUM);
        inv(GL_FRAMEBUFFER, 1, past.as_ptr());
        expect(GL_INVALID_OPERATION);
    }
}

#[test]
fn the_extension_is_advertised() {
    let _c: Current = context();
    let count = gl!(c"glGetIntegerv": fn(u32, *mut i32));
    let at = gl!(c"glGetStringi": fn(u32, u32) -> *const std::ffi::c_char);
    let mut n = 0;
    // SAFETY: out-pointer to a local.
    unsafe { count(0x821D, &mut n) };
    let names: Vec<String> = (0..n as u32)
        .map(|i| {
            // SAFETY: indices below GL_NUM_EXTENSIONS give static strings.
            unsafe { std::ffi::CStr::from_ptr(at(0x1F03, i)) }
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert!(
        names.iter().any(|e| e == "GL_ARB_invalidate_subdata"),
        "{names:?}"
    );
}
