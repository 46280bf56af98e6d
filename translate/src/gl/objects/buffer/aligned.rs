//! The host copy a mapping of non-persistent storage hands out, aligned as
//! GL_ARB_map_buffer_alignment promises: `(pointer - offset) % GL_MIN_MAP_BUFFER_ALIGNMENT == 0`.
//!
//! Design decisions:
//! - The bytes live in a `Vec` of 64-byte, 64-aligned lines, so no custom allocator or raw
//!   `Layout` is needed; the copy starts `offset % 64` bytes into the first line, which puts
//!   the pointer handed out on the buffer's own 64-byte grid.
//! - Allocation is fallible: a mapping the process cannot hold is refused, never an abort.

use std::collections::TryReserveError;
use std::ops::{Deref, DerefMut};

/// `GL_MIN_MAP_BUFFER_ALIGNMENT`.
pub(crate) const MAP_ALIGNMENT: u64 = 64;

/// One aligned line of the copy.
#[repr(C, align(64))]
#[derive(Clone, Copy)]
struct Line([u8; MAP_ALIGNMENT as usize]);

/// A mapping's host copy of `len` bytes on the buffer's 64-byte grid; derefs to those bytes.
pub(crate) struct MapCopy {
    lines: Vec<Line>,
    start: usize,
    len: usize,
}

impl MapCopy {
    /// No bytes (a mapping that points into the storage's own memory).
    pub(crate) fn empty() -> Self {
        Self {
            lines: Vec::new(),
            start: 0,
            len: 0,
        }
    }

    /// `len` zero bytes for a mapping at buffer `offset`.
    pub(crate) fn zeroed(offset: u64, len: usize) -> Result<Self, TryReserveError> {
        let start = (offset % MAP_ALIGNMENT) as usize;
        let lines_needed = start.saturating_add(len).div_ceil(MAP_ALIGNMENT as usize);
        let mut lines = Vec::new();
        lines.try_reserve_exact(lines_needed)?;
        lines.resize(lines_needed, Line([0; MAP_ALIGNMENT as usize]));
        Ok(Self { lines, start, len })
    }

    fn all_bytes(&self) -> &[u8] {
        // SAFETY: `Line` is `repr(C)` over a `[u8; 64]` with size 64 and no padding, so the
        // vector's buffer is `lines.len() * 64` initialised bytes, borrowed as long as `self`.
        unsafe {
            std::slice::from_raw_parts(
                self.lines.as_ptr().cast::<u8>(),
                self.lines.len() * MAP_ALIGNMENT as usize,
            )
        }
    }

    fn all_bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as in `all_bytes`; the borrow is unique because `self` is.
        unsafe {
            std::slice::from_raw_parts_mut(
                self.lines.as_mut_ptr().cast::<u8>(),
                self.lines.len() * MAP_ALIGNMENT as usize,
            )
        }
    }
}

impl Deref for MapCopy {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.all_bytes()[self.start..self.start + self.len]
    }
}

impl DerefMut for MapCopy {
    fn deref_mut(&mut self) -> &mut [u8] {
        let (start, len) = (self.start, self.len);
        &mut self.all_bytes_mut()[start..start + len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_sit_on_the_buffers_64_byte_grid() {
        for offset in [0u64, 1, 63, 64, 100, 4097] {
            for len in [1usize, 63, 64, 65, 1000] {
                let mut copy = MapCopy::zeroed(offset, len).expect("small copy");
                assert_eq!(copy.len(), len);
                let ptr = copy.as_mut_ptr() as u64;
                assert_eq!(
                    ptr.wrapping_sub(offset) % MAP_ALIGNMENT,
                    0,
                    "{offset} {len}"
                );
                copy[len - 1] = 7;
                assert_eq!(copy[len - 1], 7);
            }
        }
        assert!(MapCopy::empty().is_empty());
    }
}
