//! EGL displays, configs, contexts and surfaces; swapchains; the device-lost latch.
//!
//! This is the EGL 1.5 object model as plain Rust: every entry point is a method of [`Egl`] that
//! returns `Result<T, EglError>`, where the error is the EGL error code, and that records its
//! outcome as the calling thread's last error (`eglGetError`). No Vulkan and no C ABI yet: the root
//! package wraps these methods in `extern "C"` functions (handles are opaque non-zero `u64`s, see
//! [`handle`]), and surfaces get images from the memory manager in a later step.
//!
//! Modules: [`egl`] (the enumerants), `attrib` (attribute lists), `config` (the config table and
//! `eglChooseConfig`), `display`, `context`, `surface`, `sync`, `current` (per-thread state and
//! `eglMakeCurrent`), `instance` (the lock-protected registry), [`error`], [`handle`].
#![deny(unsafe_code, clippy::unwrap_used)]
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod attrib;
mod config;
mod context;
mod current;
mod display;
pub mod egl;
pub mod error;
pub mod handle;
mod instance;
mod surface;
mod sync;

pub use config::{
    NativeVisual, MAX_PBUFFER_SIZE, MAX_SWAP_INTERVAL, MIN_SWAP_INTERVAL, X_DIRECT_COLOR,
    X_TRUE_COLOR,
};
pub use context::{ClientApi, ContextInfo, Profile};
pub use display::{the_device, CLIENT_APIS, CLIENT_EXTENSIONS, EXTENSIONS, VENDOR, VERSION};
pub use error::{EglError, EglResult};
pub use handle::{Config, Context, Device, Display, EglSync, Surface};
pub use instance::Egl;
pub use surface::NativeWindow;
pub use sync::SyncAttrib;
