//! EGL displays, configs, contexts and surfaces; swapchains; the device-lost latch.
//!
//! Not built yet (the GL slice and robustness issues fill it). Like the translator it is a thin
//! client of `arenagl-memory`: it records command buffers and hands them to the manager to submit.
