//! The crate's one error type.
//!
//! Design decisions:
//! - Variants exist only for what the caller cannot rule out up front: sizes and buffers that
//!   come from the application (a `glTexSubImage3D` whose strides overflow 64 bits, a pixel
//!   buffer object or client array too small for the transfer). The translator maps them to GL
//!   errors (`GL_INVALID_OPERATION`, `GL_INVALID_VALUE`) at the API edge.
//! - A broken contract between ArenaGL's own crates (a box outside its region, a row pitch
//!   smaller than a row) is a bug, but library code never panics on it: it is reported as
//!   [`StagingError::Internal`], in the style of gpu-allocator.

/// Everything that can go wrong in the staging arithmetic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum StagingError {
    /// A size or offset derived from application-supplied numbers does not fit in 64 bits (or in
    /// the host's address space).
    #[error("size arithmetic overflows")]
    Overflow,
    /// The source (client memory, pixel buffer object or staged readback data) is shorter than
    /// the transfer reads.
    #[error("source holds {len} bytes but the transfer reads {needed}")]
    SourceTooSmall {
        /// Bytes the transfer reads, counted from the start of the source slice.
        needed: u64,
        /// Bytes the source holds.
        len: u64,
    },
    /// The destination (staging slice or client memory for a readback) is shorter than the
    /// transfer writes.
    #[error("destination holds {len} bytes but the transfer writes {needed}")]
    DestinationTooSmall {
        /// Bytes the transfer writes, counted from the start of the destination slice.
        needed: u64,
        /// Bytes the destination holds.
        len: u64,
    },
    /// A contract between ArenaGL's crates was broken (a bug in the caller, reported instead of
    /// panicking).
    #[error("internal contract broken: {0}")]
    Internal(&'static str),
}

/// Converts a 64-bit size or offset to `usize`, reporting [`StagingError::Overflow`] on hosts
/// whose address space is narrower.
pub(crate) fn to_usize(value: u64) -> Result<usize, StagingError> {
    usize::try_from(value).map_err(|_| StagingError::Overflow)
}
