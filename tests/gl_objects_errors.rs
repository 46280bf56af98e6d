//! Errors of the object entry points, through the C ABI: ranges whose end overflows a 64-bit
//! offset are `GL_INVALID_VALUE` (not a panic inside the translator, which the C edge would
//! report as `GL_OUT_OF_MEMORY`), and a `#version … compatibility` directive does not compile
//! in a core-profile context, which offers no compatibility profile.

use std::ffi::{c_char, c_void, CString};
use std::ptr::null;

#[macro_use]
#[path = "common/gl.rs"]
mod gl_harness;

use gl_harness::{context, context_profile, error, expect, f};

const GL_INVALID_VALUE: u32 = 0x0501;
const GL_ARRAY_BUFFER: u32 = 0x8892;
const GL_UNIFORM_BUFFER: u32 = 0x8A11;
const GL_COPY_READ_BUFFER: u32 = 0x8F36;
const GL_COPY_WRITE_BUFFER: u32 = 0x8F37;
const GL_STATIC_DRAW: u32 = 0x88E4;
const GL_MAP_READ_BIT: u32 = 0x0001;
const GL_MAP_WRITE_BIT: u32 = 0x0002;
const GL_MAP_FLUSH_EXPLICIT_BIT: u32 = 0x0010;
const GL_VERTEX_SHADER: u32 = 0x8B31;
const GL_FRAGMENT_SHADER: u32 = 0x8B30;
const GL_COMPILE_STATUS: u32 = 0x8B81;

/// Offsets and sizes whose sum with a small positive value passes `i64::MAX`.
const NEAR_MAX: [isize; 3] = [isize::MAX, isize::MAX - 2, isize::MAX - 63];

/// A fresh buffer of `size` bytes (every byte `fill`) bound to `target`.
fn buffer(target: u32, size: usize, fill: u8) -> u32 {
    let gen = gl!(c"glGenBuffers": fn(i32, *mut u32));
    let bind = gl!(c"glBindBuffer": fn(u32, u32));
    let data = gl!(c"glBufferData": fn(u32, isize, *const c_void, u32));
    let bytes = vec![fill; size];
    let mut name = 0;
    // SAFETY: `bytes` holds `size` bytes; the out-pointer is a local.
    unsafe {
        gen(1, &mut name);
        bind(target, name);
        data(target, size as isize, bytes.as_ptr().cast(), GL_STATIC_DRAW);
    }
    expect(0);
    name
}

/// The first `n` bytes of the buffer bound to `target`.
fn contents(target: u32, n: usize) -> Vec<u8> {
    let get = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut c_void));
    let mut out = vec![0u8; n];
    // SAFETY: `out` holds `n` bytes.
    unsafe { get(target, 0, n as isize, out.as_mut_ptr().cast()) };
    expect(0);
    out
}

#[test]
fn copy_buffer_sub_data_ranges_that_overflow_are_invalid_values() {
    let _ctx = context();
    let copy = gl!(c"glCopyBufferSubData": fn(u32, u32, isize, isize, isize));
    buffer(GL_COPY_READ_BUFFER, 64, 3);
    buffer(GL_COPY_WRITE_BUFFER, 32, 9);
    // SAFETY: plain values; no range is valid, so nothing is copied.
    unsafe {
        for big in NEAR_MAX {
            copy(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, big, 0, 4);
            expect(GL_INVALID_VALUE);
            copy(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, big, 4);
            expect(GL_INVALID_VALUE);
            copy(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 4, 0, big);
            expect(GL_INVALID_VALUE);
            copy(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, big, big, big);
            expect(GL_INVALID_VALUE);
        }
        // The same buffer on both sides, with offsets far apart: out of range, not overlapping.
        let same = buffer(GL_COPY_READ_BUFFER, 64, 5);
        gl!(c"glBindBuffer": fn(u32, u32))(GL_COPY_WRITE_BUFFER, same);
        copy(
            GL_COPY_READ_BUFFER,
            GL_COPY_WRITE_BUFFER,
            0,
            isize::MAX - 1,
            8,
        );
        expect(GL_INVALID_VALUE);
        // A valid copy still works.
        copy(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 32, 8);
        expect(0);
    }
    assert_eq!(contents(GL_COPY_READ_BUFFER, 64), vec![5u8; 64]);
}

#[test]
fn buffer_ranges_that_overflow_are_invalid_values() {
    let _ctx = context();
    let sub = gl!(c"glBufferSubData": fn(u32, isize, isize, *const c_void));
    let get = gl!(c"glGetBufferSubData": fn(u32, isize, isize, *mut c_void));
    let map = gl!(c"glMapBufferRange": fn(u32, isize, isize, u32) -> *mut c_void);
    let flush = gl!(c"glFlushMappedBufferRange": fn(u32, isize, isize));
    let unmap = gl!(c"glUnmapBuffer": fn(u32) -> u8);
    let bind_range = gl!(c"glBindBufferRange": fn(u32, u32, u32, isize, isize));
    let bytes = [7u8; 16];
    let mut out = [0u8; 16];
    buffer(GL_ARRAY_BUFFER, 64, 1);
    // SAFETY: `bytes`/`out` hold 16 bytes, and every call passes a size of at most 16; no
    // range is valid, so neither is touched.
    unsafe {
        for big in NEAR_MAX {
            sub(GL_ARRAY_BUFFER, big, 16, bytes.as_ptr().cast());
            expect(GL_INVALID_VALUE);
            get(GL_ARRAY_BUFFER, big, 16, out.as_mut_ptr().cast());
            expect(GL_INVALID_VALUE);
            for (offset, length) in [(big, 16), (16, big), (big, big)] {
                let p = map(GL_ARRAY_BUFFER, offset, length, GL_MAP_READ_BIT);
                assert!(p.is_null(), "no mapping of {offset}+{length}");
                expect(GL_INVALID_VALUE);
            }
        }
        let p = map(
            GL_ARRAY_BUFFER,
            0,
            64,
            GL_MAP_WRITE_BIT | GL_MAP_FLUSH_EXPLICIT_BIT,
        );
        assert!(!p.is_null());
        expect(0);
        for big in NEAR_MAX {
            for (offset, length) in [(big, 16), (16, big), (big, big)] {
                flush(GL_ARRAY_BUFFER, offset, length);
                expect(GL_INVALID_VALUE);
            }
        }
        assert_eq!(unmap(GL_ARRAY_BUFFER), 1);
        expect(0);
        let ubo = buffer(GL_UNIFORM_BUFFER, 256, 0);
        for (offset, size) in [(-256, 16), (0, -16), (isize::MIN, 16)] {
            bind_range(GL_UNIFORM_BUFFER, 0, ubo, offset, size);
            expect(GL_INVALID_VALUE);
        }
    }
    assert_eq!(out, [0; 16], "nothing read");
    assert_eq!(
        contents(GL_ARRAY_BUFFER, 64),
        vec![1u8; 64],
        "nothing written"
    );
}

/// Compiles `source` as a `stage` shader: whether it compiled, and its info log.
fn compile(stage: u32, source: &str) -> (bool, String) {
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let shader_source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let get = gl!(c"glGetShaderiv": fn(u32, u32, *mut i32));
    let log = gl!(c"glGetShaderInfoLog": fn(u32, i32, *mut i32, *mut c_char));
    let c = CString::new(source).expect("no NUL");
    let mut status = 0;
    let mut buf = vec![0u8; 4096];
    let mut len = 0;
    // SAFETY: a NUL-terminated source with NULL lengths; `buf` holds 4096 bytes; out-pointers
    // are locals.
    unsafe {
        let s = create(stage);
        let ptr = c.as_ptr();
        shader_source(s, 1, &ptr, null());
        compile(s);
        get(s, GL_COMPILE_STATUS, &mut status);
        log(s, buf.len() as i32, &mut len, buf.as_mut_ptr().cast());
    }
    buf.truncate(len.max(0) as usize);
    (status == 1, String::from_utf8_lossy(&buf).into_owned())
}

const VS_COMPAT: &str =
    "#version 330 compatibility\nin vec4 p;\nvoid main() { gl_Position = p; }\n";
const FS_COMPAT: &str = "#version 330 compatibility\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";

#[test]
fn the_compatibility_profile_does_not_compile_in_a_core_context() {
    let _ctx = context();
    for (stage, source) in [
        (GL_VERTEX_SHADER, VS_COMPAT),
        (GL_FRAGMENT_SHADER, FS_COMPAT),
        (
            GL_VERTEX_SHADER,
            "#version 150 compatibility\nvoid main() {}\n",
        ),
        (
            GL_VERTEX_SHADER,
            "// header\n  #  version 330   compatibility // c\nvoid main() {}\n",
        ),
    ] {
        let (ok, log) = compile(stage, source);
        assert!(!ok, "compiled in a core context: {source:?}");
        let line = source[..source.find('#').expect("a directive")]
            .matches('\n')
            .count()
            + 1;
        let head = format!("ERROR: 0:{line}: '#version' : ");
        assert!(
            log.starts_with(&head) && log.contains("compatibility profile"),
            "{log}"
        );
    }
    // The core profile, and no profile word, still compile.
    for source in [
        "#version 330 core\nvoid main() {}\n",
        "#version 330\nvoid main() {}\n",
        "#version 150\nvoid main() {}\n",
        "#version 120\nvoid main() { gl_Position = gl_Vertex; }\n",
    ] {
        let (ok, log) = compile(GL_VERTEX_SHADER, source);
        assert!(ok, "{source:?}: {log}");
    }
    // A program of such units does not link.
    let (_, linked) = gl_harness::try_program_with(VS_COMPAT, FS_COMPAT, |_| {});
    assert!(!linked);
    assert_eq!(error(), 0);
}

/// A compatibility context still compiles the profile: only a core context refuses it. (Not
/// linked here: for SPIR-V glslang does not support the profile — its log says so though the
/// compile succeeds — and the module of such a program mixes built-in and ordinary members in
/// `gl_PerVertex`, which the validation layer refuses; a separate defect.)
#[test]
fn the_compatibility_profile_compiles_in_a_compatibility_context() {
    let _ctx = context_profile(true);
    for (stage, source) in [
        (GL_VERTEX_SHADER, VS_COMPAT),
        (GL_FRAGMENT_SHADER, FS_COMPAT),
    ] {
        let (ok, log) = compile(stage, source);
        assert!(ok, "{source:?}: {log}");
    }
    assert_eq!(error(), 0);
}

#[test]
fn deleting_a_negative_count_of_names_is_an_invalid_value_and_deletes_nothing() {
    let _current = context();
    let is_buffer = gl!(c"glIsBuffer": fn(u32) -> u8);
    let name = buffer(GL_ARRAY_BUFFER, 4, 0);
    let deletes = [
        gl!(c"glDeleteBuffers": fn(i32, *const u32)),
        gl!(c"glDeleteVertexArrays": fn(i32, *const u32)),
        gl!(c"glDeleteProgramPipelines": fn(i32, *const u32)),
        gl!(c"glDeleteTextures": fn(i32, *const u32)),
        gl!(c"glDeleteSamplers": fn(i32, *const u32)),
        gl!(c"glDeleteFramebuffers": fn(i32, *const u32)),
        gl!(c"glDeleteRenderbuffers": fn(i32, *const u32)),
    ];
    for delete in deletes {
        // SAFETY: a negative count reads no names; the pointer is a local.
        unsafe { delete(-1, &name) };
        expect(GL_INVALID_VALUE);
    }
    // SAFETY: plain query.
    assert_eq!(unsafe { is_buffer(name) }, 1, "the buffer survives");
}
