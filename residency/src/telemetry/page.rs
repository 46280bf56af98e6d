//! The one piece of `unsafe` in this crate: viewing a shared file mapping as atomic words.
//!
//! Design decisions:
//! - The mapping is a `memmap2::MmapRaw`, which hands out only a raw pointer, never a `&[u8]`
//!   or `&mut [u8]`. Every access to the page, in the writer and in every reader, goes through
//!   the `&[AtomicU64]` this module builds, so no reference to plain bytes ever aliases memory
//!   another thread or process is writing.
//! - Both sides map the file read-write, even the reader, which never stores: Rust guarantees
//!   atomic loads on read-only memory only up to pointer size, and on 32-bit Android a `u64`
//!   load is wider than that.
//! - The length is checked against the file before mapping and the mapping has exactly
//!   [`PAGE_BYTES`]; the writer creates the file at that length and never truncates it (it
//!   replaces files by rename), so no access can fall past the end of the file. Another process
//!   of the same user that truncated it anyway would make the next access raise SIGBUS, which
//!   ends the process; it cannot make a load return an invalid value, since every bit pattern
//!   is a valid `u64`.

use std::fs::File;
use std::io;
use std::sync::atomic::AtomicU64;

use memmap2::{MmapOptions, MmapRaw};

/// The size of a telemetry page file in bytes.
pub const PAGE_BYTES: usize = 4096;
/// The number of 64-bit words in a page.
pub const PAGE_WORDS: usize = PAGE_BYTES / 8;

/// A shared, writable mapping of one page file, seen as atomic words.
pub(super) struct SharedPage {
    map: MmapRaw,
}

impl SharedPage {
    /// Maps `file`, which must be open for reading and writing and exactly [`PAGE_BYTES`] long.
    pub(super) fn map(file: &File) -> io::Result<SharedPage> {
        let len = file.metadata()?.len();
        if len != PAGE_BYTES as u64 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("page file is {len} bytes, expected {PAGE_BYTES}"),
            ));
        }
        let map = MmapOptions::new().len(PAGE_BYTES).map_raw(file)?;
        if map.len() != PAGE_BYTES || map.as_ptr().align_offset(align_of::<AtomicU64>()) != 0 {
            // mmap returns page-aligned memory; this only guards a platform that did not.
            return Err(io::Error::other("page mapping is misaligned"));
        }
        Ok(SharedPage { map })
    }

    /// The page as atomic words.
    pub(super) fn words(&self) -> &[AtomicU64] {
        let ptr = self.map.as_ptr().cast::<AtomicU64>();
        // SAFETY:
        // - `ptr` is non-null and aligned for `AtomicU64` (checked in `map`), and the mapping
        //   covers `PAGE_WORDS * 8 == PAGE_BYTES` bytes (checked in `map`), valid for reads and
        //   writes (mapped read-write and shared) for as long as `self.map` lives, which bounds
        //   the returned lifetime.
        // - `AtomicU64` has the size and bit validity of `u64`, and every bit pattern is a valid
        //   `u64`, so whatever the file holds is a valid `[AtomicU64]`.
        // - Atomics permit mutation through shared references, and nothing creates a `&`/`&mut`
        //   to the bytes of the mapping (`MmapRaw` has no `Deref`), so the only accesses,
        //   in this process and in others mapping the same file, are atomic operations on these
        //   words: there is no data race and no aliasing violation.
        // - The file cannot shrink under the mapping while ArenaGL follows its protocol (see the
        //   module docs); a foreign truncation raises SIGBUS rather than yielding invalid values.
        unsafe { std::slice::from_raw_parts(ptr, PAGE_WORDS) }
    }
}
