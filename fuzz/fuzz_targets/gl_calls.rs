//! libFuzzer over GL call streams: the input is cut into 49-byte operations (a tag byte and
//! twelve little-endian words) that `tests/gl_fuzz_ops` decodes and runs through ArenaGL's C ABI,
//! with the same checks as `tests/gl_fuzz.rs` (GL error codes after every call; validation layer
//! and a known-good draw after every stream). A failed check panics, which libFuzzer reports as a
//! crash with the input saved.
//!
//! ArenaGL is linked in (the `arenagl` crate, built with the fuzzer's instrumentation), so
//! libFuzzer's coverage counts the library's code — the translator, the memory manager, the
//! GLSL path — and steers the mutation towards new paths in it.
#![no_main]

#[path = "../../tests/gl_fuzz_ops/mod.rs"]
mod gl_fuzz_ops;

use libfuzzer_sys::fuzz_target;

fuzz_target!(
    init: {
        gl_fuzz_ops::use_linked(gl_fuzz_ops::Linked {
            get_proc: arenagl::abi::egl::eglGetProcAddress,
            validation_errors: arenagl::abi::diagnostics::arenagl_validation_error_count,
        });
    },
    |data: &[u8]| {
    let ops: Vec<gl_fuzz_ops::RawOp> = data
        .chunks_exact(49)
        .take(200)
        .map(|c| {
            let mut w = [0u32; 12];
            for (i, word) in w.iter_mut().enumerate() {
                *word =
                    u32::from_le_bytes([c[1 + 4 * i], c[2 + 4 * i], c[3 + 4 * i], c[4 + 4 * i]]);
            }
            (c[0], w)
        })
        .collect();
    if let Err(e) = gl_fuzz_ops::run_stream(&ops) {
        panic!("{e}");
    }
    }
);
