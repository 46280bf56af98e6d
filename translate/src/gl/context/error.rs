//! GL errors: the per-context error flag and the translator's error type.
//!
//! Design decisions:
//! - Every GL entry point validates first and returns `Result<T, GlError>`; the context records
//!   the first error in its flag (GL keeps the oldest until `glGetError` reads it) and the entry
//!   point returns GL's "nothing happened" value. So "no side effect on error", which the spec
//!   demands of nearly every command, is the natural shape of the code.
//! - Memory failures map to `GL_OUT_OF_MEMORY` (after the manager's OOM ladder gave up), a lost
//!   device to `GL_CONTEXT_LOST`; anything else the manager refuses is reported as
//!   `GL_OUT_OF_MEMORY` too (the GL has no better code), with the reason logged at a rate limit.

use arenagl_memory::MemoryError;
use ash::vk;

use crate::gl::context::enums::*;

/// Why a GL command failed.
#[derive(Debug, thiserror::Error)]
pub enum GlError {
    /// `GL_INVALID_ENUM` and why.
    #[error("GL_INVALID_ENUM: {0}")]
    InvalidEnum(String),
    /// `GL_INVALID_VALUE` and why.
    #[error("GL_INVALID_VALUE: {0}")]
    InvalidValue(String),
    /// `GL_INVALID_OPERATION` and why.
    #[error("GL_INVALID_OPERATION: {0}")]
    InvalidOperation(String),
    /// `GL_INVALID_FRAMEBUFFER_OPERATION` and why.
    #[error("GL_INVALID_FRAMEBUFFER_OPERATION: {0}")]
    InvalidFramebuffer(String),
    /// `GL_STACK_OVERFLOW` (a matrix push past the stack's depth) and why.
    #[error("GL_STACK_OVERFLOW: {0}")]
    StackOverflow(String),
    /// `GL_STACK_UNDERFLOW` (a pop of the last matrix) and why.
    #[error("GL_STACK_UNDERFLOW: {0}")]
    StackUnderflow(String),
    /// The memory manager refused (`GL_OUT_OF_MEMORY`, or `GL_CONTEXT_LOST` for a lost device).
    #[error("memory manager: {0}")]
    Memory(#[from] MemoryError),
    /// A Vulkan call outside the manager failed (pipeline or layout creation).
    #[error("{call} failed: {result}")]
    Vulkan {
        call: &'static str,
        result: vk::Result,
    },
}

impl GlError {
    pub(crate) fn vulkan(call: &'static str, result: vk::Result) -> Self {
        GlError::Vulkan { call, result }
    }

    /// The GL error code this failure sets.
    pub fn code(&self) -> GLenum {
        match self {
            GlError::InvalidEnum(_) => GL_INVALID_ENUM,
            GlError::InvalidValue(_) => GL_INVALID_VALUE,
            GlError::InvalidOperation(_) => GL_INVALID_OPERATION,
            GlError::InvalidFramebuffer(_) => GL_INVALID_FRAMEBUFFER_OPERATION,
            GlError::StackOverflow(_) => GL_STACK_OVERFLOW,
            GlError::StackUnderflow(_) => GL_STACK_UNDERFLOW,
            GlError::Memory(MemoryError::DeviceLost) => GL_CONTEXT_LOST,
            GlError::Memory(_) => GL_OUT_OF_MEMORY,
            GlError::Vulkan {
                result: vk::Result::ERROR_DEVICE_LOST,
                ..
            } => GL_CONTEXT_LOST,
            GlError::Vulkan { .. } => GL_OUT_OF_MEMORY,
        }
    }
}

pub(crate) type GlResult<T> = Result<T, GlError>;

/// Runs a blocking manager call (a wait, a readback) until it stops timing out. GL's blocking
/// commands (`glFinish`, `glReadPixels`, `glGetBufferSubData`, reading maps) wait as long as the
/// GPU takes and have no timeout to report; the manager bounds every wait
/// (`ManagerConfig::wait_timeout`, which it logs at a rate limit) so that its own OOM ladder can
/// never hang. So a timeout here is waited out again, not turned into `GL_OUT_OF_MEMORY`; a lost
/// device still ends the wait (`GL_CONTEXT_LOST`), as does any other failure.
pub(crate) fn until_done<T>(
    mut blocking: impl FnMut() -> Result<T, MemoryError>,
) -> Result<T, MemoryError> {
    loop {
        match blocking() {
            Err(MemoryError::Timeout(_)) => continue,
            other => return other,
        }
    }
}

pub(crate) fn invalid_enum<T>(what: &str, value: GLenum) -> GlResult<T> {
    Err(GlError::InvalidEnum(format!("{what} 0x{value:04X}")))
}

pub(crate) fn invalid_value<T>(why: impl Into<String>) -> GlResult<T> {
    Err(GlError::InvalidValue(why.into()))
}

pub(crate) fn invalid_op<T>(why: impl Into<String>) -> GlResult<T> {
    Err(GlError::InvalidOperation(why.into()))
}

/// The `n` of a `glGen*` call as a count: `GL_INVALID_VALUE` (naming the command `what`) when
/// it is negative.
pub(crate) fn gen_count(what: &str, n: i32) -> GlResult<usize> {
    usize::try_from(n).or_else(|_| invalid_value(format!("{what} n = {n}")))
}

/// The name `glGetError`'s value is known by.
pub fn error_name(code: GLenum) -> &'static str {
    match code {
        GL_NO_ERROR => "GL_NO_ERROR",
        GL_INVALID_ENUM => "GL_INVALID_ENUM",
        GL_INVALID_VALUE => "GL_INVALID_VALUE",
        GL_INVALID_OPERATION => "GL_INVALID_OPERATION",
        GL_OUT_OF_MEMORY => "GL_OUT_OF_MEMORY",
        GL_INVALID_FRAMEBUFFER_OPERATION => "GL_INVALID_FRAMEBUFFER_OPERATION",
        GL_CONTEXT_LOST => "GL_CONTEXT_LOST",
        GL_STACK_OVERFLOW => "GL_STACK_OVERFLOW",
        GL_STACK_UNDERFLOW => "GL_STACK_UNDERFLOW",
        _ => "unknown GL error",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arenagl_memory::Epoch;

    #[test]
    fn timeouts_are_waited_out_and_other_failures_end_the_wait() {
        let mut calls = 0;
        let r = until_done(|| {
            calls += 1;
            if calls < 4 {
                Err(MemoryError::Timeout(Epoch::new(7)))
            } else {
                Ok(calls)
            }
        });
        assert_eq!(r.ok(), Some(4));
        let mut calls = 0;
        let r: Result<(), _> = until_done(|| {
            calls += 1;
            if calls < 2 {
                Err(MemoryError::Timeout(Epoch::new(7)))
            } else {
                Err(MemoryError::DeviceLost)
            }
        });
        assert!(matches!(r, Err(MemoryError::DeviceLost)));
        assert_eq!(calls, 2);
    }
}
