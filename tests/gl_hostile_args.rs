//! Hostile arguments an outside probe found unanswered, each a `GL_INVALID_VALUE` that leaves
//! everything untouched: negative sizes for `glBufferSubData`/`glGetBufferSubData`, negative
//! `bufSize`/`maxCount` for the string and list getters.

use std::ffi::{c_char, c_void};
use std::ptr::null_mut;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, error, expect, f, program};

const GL_INVALID_VALUE: u32 = 0x0501;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_STATIC_DRAW: u32 = 0x88E4;
const GL_VERTEX_SHADER: u32 = 0x8B31;

const VS: &str = "#version 330 core\nvoid main() { gl_Position = vec4(0.0); }\n";
const FS: &str = "#version 330 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";

#[test]
fn negative_buffer_sizes_are_invalid_values() {
    let _ctx = context();
    let gen = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let sub = gl!(c"glBufferSubData": fn(u32, isize, isize, *const c_void));
    let get = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut c_void));
    let bytes = [7u8; 16];
    let mut out = [0u8; 16];
    // SAFETY: `bytes`/`out` hold 16 bytes; negative sizes must touch neither.
    unsafe {
        let mut b = 0;
        gen(1, &mut b);
        bind(GL_ARRAY_BUFFER, b);
        data(GL_ARRAY_BUFFER, 16, bytes.as_ptr().cast(), GL_STATIC_DRAW);
        expect(0);
        for size in [-1, -16, isize::MIN] {
            sub(GL_ARRAY_BUFFER, 0, size, bytes.as_ptr().cast());
            expect(GL_INVALID_VALUE);
            get(GL_ARRAY_BUFFER, 0, size, out.as_mut_ptr().cast());
            expect(GL_INVALID_VALUE);
        }
    }
    assert_eq!(out, [0; 16], "nothing read");
}

#[test]
fn negative_buf_sizes_are_invalid_values_and_write_nothing() {
    let _ctx = context();
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let source = gl!(c"glGetShaderSource": fn(u32, i32, *mut i32, *mut c_char));
    let shader_log = gl!(c"glGetShaderInfoLog": fn(u32, i32, *mut i32, *mut c_char));
    let program_log = gl!(c"glGetProgramInfoLog": fn(u32, i32, *mut i32, *mut c_char));
    let attached = gl!(c"glGetAttachedShaders": fn(u32, i32, *mut i32, *mut u32));
    let active_attrib =
        gl!(c"glGetActiveAttrib": fn(u32, u32, i32, *mut i32, *mut i32, *mut u32, *mut c_char));
    let p = program(VS, FS);
    // SAFETY: a plain value.
    let sh = unsafe { create(GL_VERTEX_SHADER) };
    let mut buf = [0x55 as c_char; 8];
    let mut len = -7;
    let mut names = [0u32; 4];
    // SAFETY: `buf` holds 8 chars, `names` 4 names; negative sizes must write nothing.
    unsafe {
        source(sh, -1, &mut len, buf.as_mut_ptr());
        expect(GL_INVALID_VALUE);
        shader_log(sh, -1, &mut len, buf.as_mut_ptr());
        expect(GL_INVALID_VALUE);
        program_log(p, -1, &mut len, buf.as_mut_ptr());
        expect(GL_INVALID_VALUE);
        attached(p, -1, &mut len, names.as_mut_ptr());
        expect(GL_INVALID_VALUE);
        active_attrib(p, 0, -1, &mut len, null_mut(), null_mut(), buf.as_mut_ptr());
        expect(GL_INVALID_VALUE);
    }
    assert_eq!(len, -7, "no length written");
    assert!(buf.iter().all(|&c| c == 0x55), "no string written");
    assert_eq!(names, [0; 4]);
    assert_eq!(error(), 0);
}

#[test]
fn null_shader_strings_are_errors_and_keep_the_source() {
    let _ctx = context();
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let get_source = gl!(c"glGetShaderSource": fn(u32, i32, *mut i32, *mut c_char));
    let text = c"void main() {}";
    let mut len = 0;
    let mut buf = [0 as c_char; 32];
    // SAFETY: NUL-terminated strings or NULL where the test says; `buf` holds 32 chars.
    unsafe {
        let sh = create(GL_VERTEX_SHADER);
        let one = [text.as_ptr()];
        source(sh, 1, one.as_ptr(), std::ptr::null());
        expect(0);
        source(sh, 1, std::ptr::null(), std::ptr::null());
        expect(GL_INVALID_VALUE);
        let with_null = [text.as_ptr(), std::ptr::null()];
        source(sh, 2, with_null.as_ptr(), std::ptr::null());
        expect(0x0502);
        get_source(sh, 32, &mut len, buf.as_mut_ptr());
    }
    assert_eq!(
        len as usize,
        text.to_bytes().len(),
        "the source set first is kept"
    );
}
