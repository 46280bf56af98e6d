//! The one error type of the EGL object model: an EGL error code.
//!
//! EGL reports every failure (caller bugs and resource failures alike) as a code that
//! `eglGetError` returns, so the error is exactly that code; the C ABI passes it through.

use crate::egl::{self, EGLint};

/// An EGL error code other than `EGL_SUCCESS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{} ({:#06x})", egl::error_name(self.0), self.0)]
pub struct EglError(EGLint);

/// The result of every fallible EGL operation.
pub type EglResult<T> = Result<T, EglError>;

impl EglError {
    pub const NOT_INITIALIZED: Self = Self(egl::EGL_NOT_INITIALIZED);
    pub const BAD_ACCESS: Self = Self(egl::EGL_BAD_ACCESS);
    pub const BAD_ALLOC: Self = Self(egl::EGL_BAD_ALLOC);
    pub const BAD_ATTRIBUTE: Self = Self(egl::EGL_BAD_ATTRIBUTE);
    pub const BAD_CONFIG: Self = Self(egl::EGL_BAD_CONFIG);
    pub const BAD_CONTEXT: Self = Self(egl::EGL_BAD_CONTEXT);
    pub const BAD_DISPLAY: Self = Self(egl::EGL_BAD_DISPLAY);
    pub const BAD_MATCH: Self = Self(egl::EGL_BAD_MATCH);
    pub const BAD_NATIVE_PIXMAP: Self = Self(egl::EGL_BAD_NATIVE_PIXMAP);
    pub const BAD_NATIVE_WINDOW: Self = Self(egl::EGL_BAD_NATIVE_WINDOW);
    pub const BAD_PARAMETER: Self = Self(egl::EGL_BAD_PARAMETER);
    pub const BAD_SURFACE: Self = Self(egl::EGL_BAD_SURFACE);
    pub const CONTEXT_LOST: Self = Self(egl::EGL_CONTEXT_LOST);
    pub const BAD_DEVICE: Self = Self(egl::EGL_BAD_DEVICE_EXT);

    /// The numeric code `eglGetError` reports.
    pub fn code(self) -> EGLint {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_the_code() {
        assert_eq!(EglError::BAD_MATCH.to_string(), "EGL_BAD_MATCH (0x3009)");
        assert_eq!(EglError::CONTEXT_LOST.code(), 0x300E);
    }
}
