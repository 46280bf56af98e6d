//! GL_KHR_no_error: contexts made with EGL's `EGL_CONTEXT_OPENGL_NO_ERROR_KHR` (or GLX's
//! `GLX_CONTEXT_OPENGL_NO_ERROR_ARB`, which ArenaGL's GLX passes on to EGL).
//!
//! Design decisions:
//! - The extension lets a no-error context behave in any way where another would raise an
//!   error, so an implementation may skip its checks. ArenaGL keeps every one: they are what
//!   keeps a bad argument from reaching the device or wild memory across the C ABI, and they
//!   cost little next to the recording they guard. A command that fails them still does
//!   nothing; only the report changes: `glGetError` answers `GL_NO_ERROR`.
//! - `GL_OUT_OF_MEMORY` is still reported (the extension keeps it, since applications cannot
//!   predict it), and so is `GL_CONTEXT_LOST`, which reports a device loss, not a usage error.
//! - `GL_CONTEXT_FLAGS` has `GL_CONTEXT_FLAG_NO_ERROR_BIT_KHR`. EGL refuses a no-error context
//!   that is also a debug or robust-access one, or that shares objects with a context whose
//!   no-error setting differs (`EGL_BAD_MATCH`, EGL_KHR_create_context_no_error).

use super::enums::*;
use super::Context;

/// `GL_CONTEXT_FLAG_NO_ERROR_BIT_KHR`.
pub(crate) const GL_CONTEXT_FLAG_NO_ERROR_BIT_KHR: i64 = 0x8;

/// The extension's name (desktop and ES contexts alike).
pub(crate) const EXTENSION: &str = "GL_KHR_no_error";

impl Context {
    /// Makes this a no-error context (or not): what EGL created it as.
    pub fn set_no_error(&mut self, no_error: bool) {
        self.no_error = no_error;
    }

    /// Whether this is a no-error context.
    pub fn is_no_error(&self) -> bool {
        self.no_error
    }

    /// Whether an error of `code` sets the error flag here (see the module docs).
    pub(crate) fn reports(&self, code: GLenum) -> bool {
        !self.no_error || matches!(code, GL_OUT_OF_MEMORY | GL_CONTEXT_LOST)
    }

    /// `GL_CONTEXT_FLAGS`: the debug state's bits and the no-error mode's.
    pub(crate) fn context_flags(&self) -> i64 {
        let no_error = if self.no_error {
            GL_CONTEXT_FLAG_NO_ERROR_BIT_KHR
        } else {
            0
        };
        self.debug_context_flags() | no_error
    }
}
