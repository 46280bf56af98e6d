//! The GL translator: desktop OpenGL state, validation and GL errors, GLSL → SPIR-V, draw encoding.
//!
//! Not built yet (the GL slice issue fills it). It is a thin client of `arenagl-memory`: every
//! buffer, image, view and sampler it will hold is a generational handle from the manager, every
//! upload goes through the staging arenas, and every destruction is a retire, never a free.
