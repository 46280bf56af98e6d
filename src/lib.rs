//! `libarenagl.so`: ArenaGL's C ABI.
//!
//! The library target holds only the ABI ([`abi`]); the `arenagl` command-line tool is the
//! binary target and does not link it. Today it exports the EGL 1.5 entry points; the GL entry
//! points (and with them `libGL.so.1` / `libGLESv2.so.2`) come with the translator.

// Handles travel as the pointer value of `EGLDisplay`/`EGLContext`/...: a 64-bit word.
#[cfg(not(target_pointer_width = "64"))]
compile_error!("ArenaGL's C ABI carries 64-bit handles in pointers and needs a 64-bit target");

pub mod abi;
