//! The restore journal under a real GL program (`memory/src/journal.rs`, `docs/memory.md`
//! "Recovery"): what a context specifies for textures and buffers is journaled through the
//! translator's upload paths, re-specifying overwrites in place, deleting drops it, and nothing
//! is journaled for memory the GPU fills. The GL contexts do not re-open a lost device yet, so
//! `recoveries` stays 0 here; the re-open itself is tested in `memory/tests/recover_device.rs`.

use std::ffi::c_void;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{buffer_with, context, error, f, memory_stat, new_texture};

const GL_TEXTURE_2D: u32 = 0x0DE1;
const GL_RGBA: u32 = 0x1908;
const GL_RGBA8: i32 = 0x8058;
const GL_UNSIGNED_BYTE: u32 = 0x1401;
const GL_ARRAY_BUFFER: u32 = 0x8892;

fn journal_bytes() -> u64 {
    memory_stat(c"journal_bytes")
}

#[test]
fn textures_and_buffers_a_context_specifies_are_journaled_until_deleted() {
    // Recovery is opt-in until GL contexts re-create their own device objects (docs/memory.md);
    // this file's only test sets it before its context opens the device.
    std::env::set_var("ARENAGL_RECOVER", "1");
    let _current = context();
    let tex_image = gl!(c"glTexImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let tex_sub_image =
        gl!(c"glTexSubImage2D": fn(u32, i32, i32, i32, i32, i32, u32, u32, *const c_void));
    let delete_textures = gl!(c"glDeleteTextures": fn(i32, *const u32));
    let delete_buffers = gl!(c"glDeleteBuffers": fn(i32, *const u32));
    let finish = gl!(c"glFinish": fn());
    assert_ne!(journal_bytes(), u64::MAX, "the statistic is exported");
    let before = journal_bytes();

    let texels = vec![0x7Fu8; 64 * 64 * 4];
    let texture = new_texture(GL_TEXTURE_2D);
    // SAFETY: `texels` holds 64×64 RGBA8 texels; the default unpack alignment fits.
    unsafe {
        tex_image(
            GL_TEXTURE_2D,
            0,
            GL_RGBA8,
            64,
            64,
            0,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texels.as_ptr().cast(),
        );
    }
    assert_eq!(error(), 0);
    let with_texture = journal_bytes();
    assert!(
        with_texture >= before + 64 * 64 * 4,
        "a 64×64 RGBA8 level is journaled: {before} → {with_texture}"
    );
    // SAFETY: as above, the same region.
    unsafe {
        tex_sub_image(
            GL_TEXTURE_2D,
            0,
            0,
            0,
            64,
            64,
            GL_RGBA,
            GL_UNSIGNED_BYTE,
            texels.as_ptr().cast(),
        );
    }
    assert_eq!(
        journal_bytes(),
        with_texture,
        "re-specifying a region overwrites it in place"
    );

    let bytes: Vec<u8> = (0..8192u32).map(|i| i as u8).collect();
    let buffer = buffer_with(GL_ARRAY_BUFFER, &bytes);
    let with_buffer = journal_bytes();
    assert!(
        with_buffer >= with_texture + 8192,
        "an 8 KiB buffer is journaled: {with_texture} → {with_buffer}"
    );

    // SAFETY: pointers to one live name each.
    unsafe {
        delete_textures(1, &texture);
        delete_buffers(1, &buffer);
        finish();
    }
    assert_eq!(error(), 0);
    assert_eq!(journal_bytes(), before, "deleted objects leave the journal");
    assert_eq!(memory_stat(c"recoveries"), 0);
}
