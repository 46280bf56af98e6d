//! The GL translator: desktop OpenGL state, validation and GL errors, GLSL → SPIR-V, draw encoding.
//!
//! Built so far: [`glsl`], the GLSL → SPIR-V compiler (glslang) with the reflection the GL layer
//! needs (attributes, fragment outputs, the default uniform block's layout, uniform blocks,
//! samplers). The GL state machine and draw encoding are not built yet (the GL slice issue fills
//! them). The translator is a thin client of `arenagl-memory`: every buffer, image, view and sampler
//! it will hold is a generational handle from the manager, every upload goes through the staging
//! arenas, and every destruction is a retire, never a free.

pub mod gl;
pub mod glsl;
