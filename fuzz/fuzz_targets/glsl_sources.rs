//! libFuzzer over GLSL sources through ArenaGL's real compile and link path (the library linked
//! in, so coverage counts its code): `glShaderSource`, `glCompileShader`, `glGetShaderiv`,
//! `glGetShaderInfoLog`, `glGetShaderSource`, `glLinkProgram`, `glGetProgramInfoLog`, the
//! active-uniform/attribute queries, `glUseProgram` and draws (which build the Vulkan pipeline
//! from the SPIR-V, checked by the validation layer).
//!
//! Input: byte 0 picks the fuzzed shader's stage (vertex, fragment, geometry); byte 1 picks a
//! `#version` line to prepend (or none: the source's own) from legacy 110 to 460 and ES, and
//! flags: split the source over several `glShaderSource` strings, pass explicit lengths instead
//! of NUL terminators, skip the partner stages. The rest is the source. Partners are minimal
//! shaders of the same version family, so that a source that compiles also links and draws.
//!
//! Every answer is fine: compile and link errors are answers. What fails an input: a crash, a
//! panic caught at the C edge, a GL error code that is not one, `GL_OUT_OF_MEMORY`, an info log
//! or source query that writes past its buffer (the buffers end at guard pages) or is not
//! NUL-terminated within the length it reports, or a validation-layer error.
#![no_main]

#[macro_use]
mod harness;

use std::ffi::c_char;
use std::ptr::null;

use harness::{check_error, make_current, Counters, Guarded, Input};
use libfuzzer_sys::fuzz_target;

const VERTEX: u32 = 0x8B31;
const FRAGMENT: u32 = 0x8B30;
const GEOMETRY: u32 = 0x8DD9;

/// Prepended `#version` lines; index 0 prepends nothing.
const VERSIONS: &[&str] = &[
    "",
    "#version 110\n",
    "#version 120\n",
    "#version 130\n",
    "#version 140\n",
    "#version 150\n",
    "#version 150 core\n",
    "#version 150 compatibility\n",
    "#version 330\n",
    "#version 330 core\n",
    "#version 330 compatibility\n",
    "#version 400 core\n",
    "#version 430 core\n",
    "#version 460 core\n",
    "#version 100\n",
    "#version 300 es\n",
];

/// The version a source declares (its first `#version N`), 110 when it declares none.
fn declared_version(source: &[u8]) -> u32 {
    let text = String::from_utf8_lossy(source);
    text.find("#version")
        .and_then(|at| {
            let digits: String = text[at + 8..]
                .trim_start()
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            digits.parse().ok()
        })
        .unwrap_or(110)
}

/// Minimal partners for `stage` in the version family of `version`.
fn partners(stage: u32, version: u32) -> Vec<(u32, &'static str)> {
    let legacy = version < 140;
    let vs = if legacy {
        "#version 120\nattribute vec4 pos;\nvoid main() { gl_Position = pos; }\n"
    } else {
        "#version 330 core\nlayout(location = 0) in vec4 pos;\nvoid main() { gl_Position = pos; }\n"
    };
    let fs = if legacy {
        "#version 120\nvoid main() { gl_FragColor = vec4(1.0); }\n"
    } else {
        "#version 330 core\nout vec4 color;\nvoid main() { color = vec4(1.0); }\n"
    };
    match stage {
        VERTEX => vec![(FRAGMENT, fs)],
        FRAGMENT => vec![(VERTEX, vs)],
        _ => vec![(VERTEX, vs), (FRAGMENT, fs)],
    }
}

/// Reads a string query of `len_pname`'s length through `get` into a guarded buffer of that
/// size (and, when `short` is below it, of `short` bytes), checking what comes back.
fn check_string_query(
    what: &str,
    object: u32,
    len_pname: u32,
    iv: unsafe extern "C" fn(u32, u32, *mut i32),
    get: unsafe extern "C" fn(u32, i32, *mut i32, *mut c_char),
    short: i32,
) {
    let mut full = -1;
    // SAFETY: `full` is a local.
    unsafe { iv(object, len_pname, &mut full) };
    check_error(what);
    assert!(full >= 0, "{what}: length {full}");
    for size in [full, short.min(full)] {
        let buf = Guarded::new(size as usize);
        let mut written = -1;
        // SAFETY: `buf` holds `size` writable bytes.
        unsafe { get(object, size, &mut written, buf.p()) };
        check_error(what);
        if size == 0 {
            assert!(written <= 0, "{what}: wrote {written} into a 0-byte buffer");
            continue;
        }
        assert!(
            (0..size).contains(&written),
            "{what}: wrote {written} characters into {size} bytes"
        );
        assert_eq!(
            buf.bytes()[written as usize],
            0,
            "{what}: not NUL-terminated at {written}"
        );
        if size == full && full > 0 {
            assert_eq!(written, full - 1, "{what}: length query vs written");
        }
    }
}

/// Creates, sources and compiles one shader; returns it.
fn compile(stage: u32, source: &[u8], split: u8, explicit_lengths: bool, short: i32) -> u32 {
    let create = gl!(c"glCreateShader": fn(u32) -> u32);
    let shader_source = gl!(c"glShaderSource": fn(u32, i32, *const *const c_char, *const i32));
    let compile = gl!(c"glCompileShader": fn(u32));
    let shader_iv = gl!(c"glGetShaderiv": fn(u32, u32, *mut i32));
    // SAFETY: a scalar.
    let s = unsafe { create(stage) };
    check_error("glCreateShader");
    assert_ne!(s, 0, "glCreateShader");
    // Pieces: `split` + 1 of them, cut at evenly spaced points; each piece is its own guarded
    // buffer, NUL-terminated unless lengths are explicit (then exactly its bytes, no NUL).
    let pieces = usize::from(split % 4) + 1;
    let step = source.len().div_ceil(pieces).max(1);
    let chunks: Vec<&[u8]> = if source.is_empty() {
        vec![source]
    } else {
        source.chunks(step).collect()
    };
    let buffers: Vec<Guarded> = chunks
        .iter()
        .map(|c| {
            if explicit_lengths {
                Guarded::from_bytes(c)
            } else {
                // A NUL inside the source ends that string early, as C strings do.
                let mut v = c.to_vec();
                v.push(0);
                Guarded::from_bytes(&v)
            }
        })
        .collect();
    let pointers: Vec<*const c_char> = buffers
        .iter()
        .map(|b| b.p::<c_char>().cast_const())
        .collect();
    let lengths: Vec<i32> = chunks.iter().map(|c| c.len() as i32).collect();
    // SAFETY: `pointers` holds `pointers.len()` strings, each readable to its NUL or for its
    // explicit length.
    unsafe {
        shader_source(
            s,
            pointers.len() as i32,
            pointers.as_ptr(),
            if explicit_lengths {
                lengths.as_ptr()
            } else {
                null()
            },
        )
    };
    check_error("glShaderSource");
    // SAFETY: a scalar.
    unsafe { compile(s) };
    check_error("glCompileShader");
    let mut status = -1;
    // SAFETY: `status` is a local.
    unsafe { shader_iv(s, 0x8B81, &mut status) };
    check_error("glGetShaderiv(GL_COMPILE_STATUS)");
    assert!(status == 0 || status == 1, "GL_COMPILE_STATUS {status}");
    check_string_query(
        "glGetShaderInfoLog",
        s,
        0x8B84,
        shader_iv,
        gl!(c"glGetShaderInfoLog": fn(u32, i32, *mut i32, *mut c_char)),
        short,
    );
    check_string_query(
        "glGetShaderSource",
        s,
        0x8B88,
        shader_iv,
        gl!(c"glGetShaderSource": fn(u32, i32, *mut i32, *mut c_char)),
        short,
    );
    s
}

/// Walks the program's active uniforms and attributes, looking each name up again.
fn query_interface(p: u32, short: i32) {
    let program_iv = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    type Active = unsafe extern "C" fn(u32, u32, i32, *mut i32, *mut i32, *mut u32, *mut c_char);
    let lists: [(u32, u32, Active, &str); 2] = [
        (
            0x8B86,
            0x8B87,
            gl!(c"glGetActiveUniform": fn(u32, u32, i32, *mut i32, *mut i32, *mut u32, *mut c_char)),
            "glGetActiveUniform",
        ),
        (
            0x8B89,
            0x8B8A,
            gl!(c"glGetActiveAttrib": fn(u32, u32, i32, *mut i32, *mut i32, *mut u32, *mut c_char)),
            "glGetActiveAttrib",
        ),
    ];
    let uniform_location = gl!(c"glGetUniformLocation": fn(u32, *const c_char) -> i32);
    let attrib_location = gl!(c"glGetAttribLocation": fn(u32, *const c_char) -> i32);
    for (count_pname, max_len_pname, active, what) in lists {
        let (mut count, mut max_len) = (-1, -1);
        // SAFETY: locals.
        unsafe {
            program_iv(p, count_pname, &mut count);
            program_iv(p, max_len_pname, &mut max_len);
        }
        check_error(what);
        assert!(
            count >= 0 && max_len >= 0,
            "{what}: count {count} max length {max_len}"
        );
        for i in 0..count.min(64) as u32 {
            for size in [max_len, short.min(max_len)] {
                let buf = Guarded::new(size as usize);
                let (mut written, mut array_size, mut ty) = (-1, -1, 0u32);
                // SAFETY: `buf` holds `size` writable bytes; the rest are locals.
                unsafe { active(p, i, size, &mut written, &mut array_size, &mut ty, buf.p()) };
                check_error(what);
                if size > 0 {
                    assert!(
                        (0..size).contains(&written),
                        "{what}: wrote {written} into {size}"
                    );
                    assert_eq!(
                        buf.bytes()[written as usize],
                        0,
                        "{what}: not NUL-terminated"
                    );
                }
                if size == max_len && size > 0 {
                    // SAFETY: the name just written is NUL-terminated inside `buf`.
                    unsafe {
                        if count_pname == 0x8B86 {
                            uniform_location(p, buf.p());
                        } else {
                            attrib_location(p, buf.p());
                        }
                    }
                    check_error(what);
                }
            }
        }
    }
}

/// Uses the linked program and draws with it: triangles and points, every attribute from its
/// current value.
fn draw(p: u32) {
    let mut vao = 0;
    // SAFETY: `vao` is a local; scalars otherwise.
    unsafe {
        gl!(c"glGenVertexArrays": fn(i32, *mut u32))(1, &mut vao);
        gl!(c"glBindVertexArray": fn(u32))(vao);
        gl!(c"glUseProgram": fn(u32))(p);
        check_error("glUseProgram");
        for mode in [4, 0] {
            gl!(c"glDrawArrays": fn(u32, i32, i32))(mode, 0, 3);
            check_error("glDrawArrays");
        }
        gl!(c"glFinish": fn())();
        gl!(c"glUseProgram": fn(u32))(0);
        gl!(c"glBindVertexArray": fn(u32))(0);
        gl!(c"glDeleteVertexArrays": fn(i32, *const u32))(1, &vao);
    }
    check_error("cleanup after the draw");
}

fn run(data: &[u8]) {
    make_current();
    let counters = Counters::now();
    let mut input = Input::new(data);
    let stage = [VERTEX, FRAGMENT, GEOMETRY, VERTEX][usize::from(input.u8() % 4)];
    let flags = input.u8();
    let prefix = VERSIONS[usize::from(flags % 16)];
    let split = flags >> 4 & 3;
    let explicit_lengths = flags & 0x40 != 0;
    let alone = flags & 0x80 != 0;
    let short = i32::from(input.u8() % 16);
    let body = input.rest();
    let mut source = prefix.as_bytes().to_vec();
    source.extend_from_slice(body);
    let version = declared_version(&source);

    let fuzzed = compile(stage, &source, split, explicit_lengths, short);
    let mut shaders = vec![fuzzed];
    if !alone {
        for (partner_stage, partner) in partners(stage, version) {
            shaders.push(compile(partner_stage, partner.as_bytes(), 0, false, short));
        }
    }
    let create_program = gl!(c"glCreateProgram": fn() -> u32);
    let attach = gl!(c"glAttachShader": fn(u32, u32));
    let link = gl!(c"glLinkProgram": fn(u32));
    let program_iv = gl!(c"glGetProgramiv": fn(u32, u32, *mut i32));
    // SAFETY: scalars.
    let p = unsafe { create_program() };
    check_error("glCreateProgram");
    for &s in &shaders {
        // SAFETY: scalars.
        unsafe { attach(p, s) };
        check_error("glAttachShader");
    }
    // SAFETY: scalars; `status` is a local.
    let mut status = -1;
    unsafe {
        link(p);
        check_error("glLinkProgram");
        program_iv(p, 0x8B82, &mut status);
    }
    check_error("glGetProgramiv(GL_LINK_STATUS)");
    assert!(status == 0 || status == 1, "GL_LINK_STATUS {status}");
    check_string_query(
        "glGetProgramInfoLog",
        p,
        0x8B84,
        program_iv,
        gl!(c"glGetProgramInfoLog": fn(u32, i32, *mut i32, *mut c_char)),
        short,
    );
    if status == 1 {
        query_interface(p, short);
        draw(p);
    } else {
        // A program that failed to link cannot be used.
        // SAFETY: a scalar.
        unsafe { gl!(c"glUseProgram": fn(u32))(p) };
        let e = check_error("glUseProgram of an unlinked program");
        assert_eq!(e, 0x0502, "glUseProgram of an unlinked program");
    }
    // SAFETY: scalars.
    unsafe {
        gl!(c"glDeleteProgram": fn(u32))(p);
        for &s in &shaders {
            gl!(c"glDeleteShader": fn(u32))(s);
        }
    }
    check_error("glDelete*");
    counters.check("glsl_sources");
}

fuzz_target!(|data: &[u8]| run(data));
