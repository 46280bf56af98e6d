//! The shared region: plain bytes that the layout code places ring structures into.
//!
//! Design decisions:
//! - **One region type, two backings.** [`Region::heap`] is a zeroed, page-aligned heap block
//!   for thread mode; [`Region::memfd`] is a `memfd_create` file mapped shared with `memmap2`,
//!   whose descriptor a child process maps with [`Region::from_fd`]. The rings never know which.
//! - **Only atomics are placed.** [`Region::place`] and [`Region::words`] hand out references to
//!   types made only of atomics ([`Placeable`]), for which every bit pattern (zero included) is
//!   a valid value: whatever the other process wrote, reading it is defined. Bounds and
//!   alignment are checked on every placement.
//! - **Bulk bytes are handed out as a raw pointer** ([`Region::bytes`]) because they are
//!   copied with `memcpy`; the bulk ring's constructor carries the safety contract.

use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::fs::File;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::ptr::NonNull;

use crate::doorbell::{owned, SideLine};
use crate::error::{Result, TransportError};
use crate::ring::RingControl;
use crate::sync::AtomicU64;

/// The alignment of a region's start: a page.
pub const REGION_ALIGN: usize = 4096;

/// Types that may be placed in a region.
///
/// # Safety
/// The type must consist only of atomics (and padding), so that every bit pattern, all zeros
/// included, is a valid value and shared access from several threads or processes is defined.
pub unsafe trait Placeable: Sync {}

// SAFETY: three cache lines of `AtomicU64`s.
unsafe impl Placeable for RingControl {}
// SAFETY: two `AtomicU32`s on a cache line.
unsafe impl Placeable for SideLine {}
// SAFETY: an atomic.
unsafe impl Placeable for AtomicU64 {}

#[derive(Debug)]
enum Backing {
    Heap(Layout),
    Mapped { _map: memmap2::MmapRaw, fd: OwnedFd },
}

/// A block of memory shared by the two sides of a transport.
#[derive(Debug)]
pub struct Region {
    base: NonNull<u8>,
    len: usize,
    backing: Backing,
}

// SAFETY: the region is only ever accessed through atomics (`place`, `words`) or through the
// bulk ring, whose constructors carry the exclusivity contract; the pointer itself may move
// between and be shared by threads.
unsafe impl Send for Region {}
// SAFETY: as above.
unsafe impl Sync for Region {}

impl Region {
    /// A zeroed heap region of `len` bytes (thread mode).
    pub fn heap(len: usize) -> Result<Self> {
        let layout = Layout::from_size_align(len.max(1), REGION_ALIGN)
            .map_err(|e| TransportError::Layout(e.to_string()))?;
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { alloc_zeroed(layout) };
        let base =
            NonNull::new(ptr).ok_or_else(|| TransportError::Layout("out of memory".into()))?;
        Ok(Self {
            base,
            len,
            backing: Backing::Heap(layout),
        })
    }

    /// A zeroed `memfd` region of `len` bytes, mapped shared (process mode).
    pub fn memfd(len: usize) -> Result<Self> {
        // SAFETY: the name is a NUL-terminated literal; a non-negative result is a new fd.
        let fd =
            owned(unsafe { libc::memfd_create(c"arenagl-transport".as_ptr(), libc::MFD_CLOEXEC) })?;
        File::from(fd.try_clone()?).set_len(len as u64)?;
        Self::map(fd, len)
    }

    /// Maps a region another process created, from its `memfd` (its size is the file's).
    pub fn from_fd(fd: OwnedFd) -> Result<Self> {
        let len = File::from(fd.try_clone()?).metadata()?.len() as usize;
        Self::map(fd, len)
    }

    fn map(fd: OwnedFd, len: usize) -> Result<Self> {
        let map = memmap2::MmapOptions::new().len(len).map_raw(&fd)?;
        let base = NonNull::new(map.as_mut_ptr())
            .ok_or_else(|| TransportError::Layout("null mapping".into()))?;
        Ok(Self {
            base,
            len,
            backing: Backing::Mapped { _map: map, fd },
        })
    }

    /// The region's size in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the region is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `memfd` behind a process-mode region, to pass to a child.
    pub fn fd(&self) -> Option<BorrowedFd<'_>> {
        match &self.backing {
            Backing::Mapped { fd, .. } => Some(fd.as_fd()),
            Backing::Heap(_) => None,
        }
    }

    fn check(&self, offset: usize, size: usize, align: usize) -> Result<()> {
        let end = offset.checked_add(size);
        if end.is_none_or(|end| end > self.len) || offset % align != 0 {
            return Err(TransportError::Layout(format!(
                "{size} bytes at {offset} (align {align}) do not fit a region of {}",
                self.len
            )));
        }
        Ok(())
    }

    /// A reference to the `T` at `offset`.
    pub fn place<T: Placeable>(&self, offset: usize) -> Result<&T> {
        self.check(offset, size_of::<T>(), align_of::<T>())?;
        // SAFETY: in bounds and aligned (checked; the base is page-aligned), and `T` is made of
        // atomics only (`Placeable`), so any bytes there are a valid `T` and shared access is
        // defined. The borrow of `self` keeps the memory alive.
        Ok(unsafe { &*self.base.as_ptr().add(offset).cast::<T>() })
    }

    /// `count` atomic words at `offset`.
    pub fn words(&self, offset: usize, count: usize) -> Result<&[AtomicU64]> {
        let size = count
            .checked_mul(8)
            .ok_or_else(|| TransportError::Layout("too many words".into()))?;
        self.check(offset, size, 8)?;
        // SAFETY: as in `place`, for `count` consecutive `AtomicU64`s.
        Ok(unsafe { std::slice::from_raw_parts(self.base.as_ptr().add(offset).cast(), count) })
    }

    /// The start of `len` bytes at `offset`, for the bulk ring.
    pub fn bytes(&self, offset: usize, len: usize) -> Result<NonNull<u8>> {
        self.check(offset, len, 8)?;
        // SAFETY: in bounds (checked), so the pointer stays inside the allocation.
        Ok(unsafe { self.base.add(offset) })
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        if let Backing::Heap(layout) = self.backing {
            // SAFETY: allocated in `heap` with this layout and not freed before.
            unsafe { dealloc(self.base.as_ptr(), layout) };
        }
    }
}
