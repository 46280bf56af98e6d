//! The GL translator: desktop OpenGL state, validation and GL errors, GLSL → SPIR-V, draw encoding.
//!
//! Two parts: [`gl`], the GL state machine (contexts, objects, draws, pixel transfers, the
//! compatibility profile; its rooms are listed in `gl/mod.rs`), and [`glsl`], the GLSL → SPIR-V
//! compiler (glslang) with the legacy upgrade, input guards and the reflection the GL layer needs.
//! The translator is a thin client of `arenagl-memory`: every buffer, image, view and sampler it
//! holds is a generational handle from the manager, every upload goes through the staging arenas,
//! and every destruction is a retire, never a free.

pub mod gl;
pub mod glsl;
