//! The restore journal: the bytes clients specified for buffers and images, kept in a
//! file-backed store so that a device opened after a loss can be refilled (`recover.rs`).
//!
//! Design decisions:
//! - **Where the bytes come from, and when they are written.** Client bytes reach device memory
//!   through the manager's transfer API (`Manager::write_buffer`, `upload_buffer`,
//!   `upload_image` in `vulkan/transfer.rs`). After that call nothing in the manager keeps them:
//!   a direct write lands in device memory, a staged one in a staging arena that is rewound a
//!   frame or two later, and `upload_image` converts the client's pixels on the way. The
//!   translator's buffer shadows are not kept for every buffer. So the journal is written at
//!   upload time, once the bytes are in their final (tightly packed, device-format) form — the
//!   last moment they exist in the manager. Device-written contents (render targets, copies,
//!   transform feedback) are never journaled: they come back cleared, as the issue specifies.
//! - **Keys.** Entries are keyed by the manager's generational handle (its raw bits), so a
//!   handle's entries go with it when it retires, and a reused slot never sees them. A buffer
//!   keeps one mirror of its whole size (allocated at its first journaled write) with the ranges
//!   written so far: a re-specification overwrites in place. An image keeps an ordered log of
//!   regions (level, layers, box) and mipmap generations; a write to a region equal to an
//!   earlier one overwrites it in place (and moves it last), one that covers earlier regions
//!   drops them, a mipmap generation drops what the levels it writes held. Replaying the log in
//!   order reproduces the client's last specification.
//! - **Storage.** One temporary file (unlinked as soon as it is created, so it goes with the
//!   process), mapped with `memmap2`, grown by doubling up to the cap and carved by a first-fit
//!   free list with coalescing (64-byte granules). Written pages are handed to the kernel's
//!   writeback (`flush_async_range`) and dropped from the process's page tables
//!   (`MADV_DONTNEED`, harmless on a shared file mapping): they live on in the page cache, not
//!   in the resident set, and once written back they are clean, file-backed pages the kernel
//!   may drop at no cost, so they never count toward a dirty-memory limit (Jetsam, LMK).
//!   The file lives in `ARENAGL_JOURNAL_DIR`, else the system temporary directory (on tmpfs the
//!   pages are shared memory instead: point the variable at a disk for the full effect).
//! - **Cap and eviction.** At most `cap` bytes (`ARENAGL_JOURNAL_MB`; `recover.rs` picks the
//!   default, a quarter of the budget). A write that does not fit evicts whole objects, least
//!   recently written first, until it does; an evicted object comes back cleared (its handle
//!   has no entries left, so the restore zeroes it). A write larger than the cap is not
//!   journaled and drops the object's older entries, for the same reason.
//! - The journal is a plain type with no access to the manager; `recover.rs` owns the manager's
//!   `journal` field and calls it.

use std::collections::HashMap;
use std::fs::File;
use std::ops::Range;
use std::path::{Path, PathBuf};

use memmap2::MmapMut;

/// Allocation granule in the file.
const GRANULE: u64 = 64;
/// The first size of the file.
const MIN_FILE: u64 = 1 << 20;

/// A region of an image, as journaled: one level, a layer range, a texel box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct JournalRegion {
    /// Mip level.
    pub level: u32,
    /// First array layer.
    pub base_layer: u32,
    /// Array layers.
    pub layer_count: u32,
    /// Texel offset in the level.
    pub offset: [i32; 3],
    /// Texels.
    pub extent: [u32; 3],
    /// The aspect written (colour, depth or stencil: a depth/stencil image's two planes are
    /// separate writes that never cover each other).
    pub aspect: ash::vk::ImageAspectFlags,
}

impl JournalRegion {
    /// Whether every texel of `other` lies inside `self`.
    pub fn covers(&self, other: &JournalRegion) -> bool {
        let span = |o: i32, e: u32| i64::from(o)..i64::from(o) + i64::from(e);
        let inside = |a: Range<i64>, b: Range<i64>| a.start <= b.start && b.end <= a.end;
        self.level == other.level
            && self.aspect == other.aspect
            && inside(
                i64::from(self.base_layer)
                    ..i64::from(self.base_layer) + i64::from(self.layer_count),
                i64::from(other.base_layer)
                    ..i64::from(other.base_layer) + i64::from(other.layer_count),
            )
            && (0..3).all(|i| {
                inside(
                    span(self.offset[i], self.extent[i]),
                    span(other.offset[i], other.extent[i]),
                )
            })
    }
}

/// One step of an image's replay, oldest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageReplay<'a> {
    /// Tightly packed device-format bytes for a region.
    Region(JournalRegion, &'a [u8]),
    /// Levels `base + 1 ..= last` were generated from `base`.
    Mipmaps {
        /// The source level.
        base: u32,
        /// The last generated level.
        last: u32,
    },
}

/// The journal's figures (the statistics and the memory report).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct JournalFigures {
    /// Bytes of the file holding entries (granule-rounded).
    pub bytes: u64,
    /// Length of the file.
    pub file_bytes: u64,
    /// Objects with entries.
    pub objects: u64,
    /// Objects evicted to stay under the cap (they come back cleared).
    pub evictions: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Extent {
    offset: u64,
    len: u64,
}

#[derive(Debug)]
struct BufferMirror {
    size: u64,
    extent: Extent,
    /// Written ranges, sorted and disjoint.
    valid: Vec<Range<u64>>,
    last_write: u64,
}

#[derive(Debug)]
enum ImageOp {
    Region(JournalRegion, Extent, u64),
    Mipmaps { base: u32, last: u32 },
}

#[derive(Debug, Default)]
struct ImageLog {
    ops: Vec<ImageOp>,
    last_write: u64,
}

/// Which object an entry belongs to, for eviction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Owner {
    Buffer(u64),
    Image(u64),
}

/// The mapped file and its free list.
struct Store {
    file: File,
    map: MmapMut,
    /// Free extents, sorted by offset, coalesced.
    free: Vec<Extent>,
}

/// The restore journal (see the module comment).
pub struct Journal {
    cap: u64,
    dir: PathBuf,
    store: Option<Store>,
    buffers: HashMap<u64, BufferMirror>,
    images: HashMap<u64, ImageLog>,
    used: u64,
    seq: u64,
    evictions: u64,
}

impl std::fmt::Debug for Journal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Journal")
            .field("cap", &self.cap)
            .field("figures", &self.figures())
            .finish()
    }
}

fn round(len: u64) -> u64 {
    len.max(1).div_ceil(GRANULE) * GRANULE
}

impl Journal {
    /// An empty journal of at most `cap` bytes whose file (made at the first write) goes in
    /// `dir`.
    pub fn new(cap: u64, dir: &Path) -> Self {
        Self {
            cap: cap / GRANULE * GRANULE,
            dir: dir.to_path_buf(),
            store: None,
            buffers: HashMap::new(),
            images: HashMap::new(),
            used: 0,
            seq: 0,
            evictions: 0,
        }
    }

    /// The cap in bytes.
    pub fn cap(&self) -> u64 {
        self.cap
    }

    /// The figures now.
    pub fn figures(&self) -> JournalFigures {
        JournalFigures {
            bytes: self.used,
            file_bytes: self.store.as_ref().map_or(0, |s| s.map.len() as u64),
            objects: (self.buffers.len() + self.images.len()) as u64,
            evictions: self.evictions,
        }
    }

    /// Journals `bytes` written at `offset` of the buffer `handle` of `size` bytes. Returns
    /// whether they are journaled (not when the range is outside the buffer, the buffer is
    /// larger than the cap, or the file cannot grow; then the buffer's older entries are
    /// dropped too, so it comes back cleared rather than half-restored).
    pub fn record_buffer(&mut self, handle: u64, size: u64, offset: u64, bytes: &[u8]) -> bool {
        let end = offset.checked_add(bytes.len() as u64);
        if bytes.is_empty() || end.is_none_or(|e| e > size) {
            return bytes.is_empty();
        }
        let end = offset + bytes.len() as u64;
        if self.buffers.get(&handle).is_some_and(|m| m.size != size) {
            self.retire_buffer(handle);
        }
        if !self.buffers.contains_key(&handle) {
            let Some(extent) = self.allocate(round(size)) else {
                self.retire_buffer(handle);
                return false;
            };
            self.buffers.insert(
                handle,
                BufferMirror {
                    size,
                    extent,
                    valid: Vec::new(),
                    last_write: 0,
                },
            );
        }
        self.seq += 1;
        let seq = self.seq;
        let Some(mirror) = self.buffers.get_mut(&handle) else {
            return false;
        };
        mirror.last_write = seq;
        add_range(&mut mirror.valid, offset..end);
        let at = mirror.extent.offset + offset;
        self.write_at(at, bytes);
        true
    }

    /// Journals tightly packed bytes for `region` of the image `handle`. Returns whether they
    /// are journaled (as for buffers; on failure the image's older entries are dropped).
    pub fn record_image(&mut self, handle: u64, region: JournalRegion, bytes: &[u8]) -> bool {
        self.seq += 1;
        let seq = self.seq;
        if let Some(log) = self.images.get_mut(&handle) {
            log.last_write = seq;
            let same = log.ops.iter().position(
                |op| matches!(op, ImageOp::Region(r, e, len) if *r == region && *len == bytes.len() as u64 && e.len >= *len),
            );
            if let Some(i) = same {
                let op = log.ops.remove(i);
                let ImageOp::Region(_, extent, _) = op else {
                    return false;
                };
                log.ops.push(op);
                self.write_at(extent.offset, bytes);
                return true;
            }
            let (kept, dropped) = std::mem::take(&mut log.ops)
                .into_iter()
                .partition(|op| !matches!(op, ImageOp::Region(r, ..) if region.covers(r)));
            log.ops = kept;
            self.free_ops(dropped);
        }
        let Some(extent) = self.allocate(round(bytes.len() as u64)) else {
            self.retire_image(handle);
            return false;
        };
        let log = self.images.entry(handle).or_default();
        log.last_write = seq;
        log.ops
            .push(ImageOp::Region(region, extent, bytes.len() as u64));
        self.write_at(extent.offset, bytes);
        true
    }

    /// Journals that levels `base + 1 ..= last` of the image `handle` were generated from
    /// `base` (every layer): what those levels held before is dropped, and so is an earlier
    /// identical generation. Only for images that already have entries (generating from
    /// nothing journaled restores nothing).
    pub fn record_mipmaps(&mut self, handle: u64, base: u32, last: u32) {
        self.seq += 1;
        let seq = self.seq;
        let Some(log) = self.images.get_mut(&handle) else {
            return;
        };
        log.last_write = seq;
        let (kept, dropped) = std::mem::take(&mut log.ops)
            .into_iter()
            .partition(|op| match op {
                ImageOp::Region(r, ..) => r.level <= base || r.level > last,
                ImageOp::Mipmaps { base: b, last: l } => (*b, *l) != (base, last),
            });
        log.ops = kept;
        log.ops.push(ImageOp::Mipmaps { base, last });
        self.free_ops(dropped);
    }

    /// Drops the buffer's entries (its handle retired).
    pub fn retire_buffer(&mut self, handle: u64) {
        if let Some(m) = self.buffers.remove(&handle) {
            self.release(m.extent);
        }
    }

    /// Drops the image's entries (its handle retired).
    pub fn retire_image(&mut self, handle: u64) {
        if let Some(log) = self.images.remove(&handle) {
            self.free_ops(log.ops);
        }
    }

    /// The buffer's journaled ranges and their bytes, by offset.
    pub fn buffer_contents(&self, handle: u64) -> Vec<(u64, &[u8])> {
        let (Some(m), Some(store)) = (self.buffers.get(&handle), self.store.as_ref()) else {
            return Vec::new();
        };
        m.valid
            .iter()
            .filter_map(|r| {
                let start = usize::try_from(m.extent.offset + r.start).ok()?;
                let end = usize::try_from(m.extent.offset + r.end).ok()?;
                Some((r.start, store.map.get(start..end)?))
            })
            .collect()
    }

    /// The image's replay log, oldest first.
    pub fn image_contents(&self, handle: u64) -> Vec<ImageReplay<'_>> {
        let (Some(log), Some(store)) = (self.images.get(&handle), self.store.as_ref()) else {
            return Vec::new();
        };
        log.ops
            .iter()
            .filter_map(|op| match op {
                ImageOp::Region(r, e, len) => {
                    let start = usize::try_from(e.offset).ok()?;
                    let end = start.checked_add(usize::try_from(*len).ok()?)?;
                    Some(ImageReplay::Region(*r, store.map.get(start..end)?))
                }
                ImageOp::Mipmaps { base, last } => Some(ImageReplay::Mipmaps {
                    base: *base,
                    last: *last,
                }),
            })
            .collect()
    }

    /// Whether the image has entries.
    pub fn has_image(&self, handle: u64) -> bool {
        self.images.contains_key(&handle)
    }

    fn free_ops(&mut self, ops: Vec<ImageOp>) {
        for op in ops {
            if let ImageOp::Region(_, e, _) = op {
                self.release(e);
            }
        }
    }

    fn write_at(&mut self, at: u64, bytes: &[u8]) {
        let Some(store) = self.store.as_mut() else {
            return;
        };
        let Ok(start) = usize::try_from(at) else {
            return;
        };
        if let Some(dst) = store.map.get_mut(start..start.saturating_add(bytes.len())) {
            dst.copy_from_slice(bytes);
            // Hand the pages to writeback (once written they are clean file pages), and take
            // them out of this process's page tables: they stay in the page cache, not in our
            // resident set, until a restore reads them again.
            let _ = store.map.flush_async_range(start, bytes.len());
            #[cfg(unix)]
            // SAFETY: the mapping is MAP_SHARED over our own file, so MADV_DONTNEED only drops
            // page-table entries and the bytes stay in the file (a later read faults them back
            // in); no reference into the range is alive (`dst` ended above, `&mut self`
            // excludes others), and the range lies inside the map.
            let _ = unsafe {
                store.map.unchecked_advise_range(
                    memmap2::UncheckedAdvice::DontNeed,
                    start,
                    bytes.len(),
                )
            };
        }
    }

    /// Space for `len` (granule-rounded) bytes: from the free list, else by growing the file,
    /// else by evicting the least recently written objects. `None` when it cannot fit.
    fn allocate(&mut self, len: u64) -> Option<Extent> {
        if len > self.cap {
            return None;
        }
        loop {
            if let Some(e) = self.take_free(len) {
                self.used += e.len;
                return Some(e);
            }
            if self.grow(len) {
                continue;
            }
            if !self.evict_oldest() {
                return None;
            }
        }
    }

    fn take_free(&mut self, len: u64) -> Option<Extent> {
        let store = self.store.as_mut()?;
        let i = store.free.iter().position(|e| e.len >= len)?;
        let e = store.free[i];
        if e.len == len {
            store.free.remove(i);
        } else {
            store.free[i] = Extent {
                offset: e.offset + len,
                len: e.len - len,
            };
        }
        Some(Extent {
            offset: e.offset,
            len,
        })
    }

    fn release(&mut self, e: Extent) {
        self.used = self.used.saturating_sub(e.len);
        if let Some(store) = self.store.as_mut() {
            insert_free(&mut store.free, e);
        }
    }

    /// Grows (or creates) the file so that `len` more bytes fit at its end; false at the cap
    /// or on an I/O failure (logged once).
    fn grow(&mut self, len: u64) -> bool {
        let old = self.store.as_ref().map_or(0, |s| s.map.len() as u64);
        let tail_free = self
            .store
            .as_ref()
            .and_then(|s| s.free.last().copied())
            .filter(|e| e.offset + e.len == old)
            .map_or(0, |e| e.len);
        let need = old + len - tail_free.min(len);
        if need > self.cap {
            return false;
        }
        let new = need.max(old.saturating_mul(2)).max(MIN_FILE).min(self.cap);
        match self.remap(new) {
            Ok(()) => {
                if let Some(store) = self.store.as_mut() {
                    insert_free(
                        &mut store.free,
                        Extent {
                            offset: old,
                            len: new - old,
                        },
                    );
                }
                true
            }
            Err(e) => {
                static LOGGED: std::sync::Once = std::sync::Once::new();
                LOGGED.call_once(|| {
                    tracing::warn!(error = %e, dir = %self.dir.display(), "restore journal: the file cannot grow; contents past this point come back cleared after a device loss");
                });
                false
            }
        }
    }

    fn remap(&mut self, len: u64) -> std::io::Result<()> {
        if self.store.is_none() {
            let file = create_unlinked(&self.dir)?;
            file.set_len(len)?;
            // SAFETY: the file was created by this process and unlinked at once: no other
            // process or mapping can change or truncate it while this map lives.
            let map = unsafe { MmapMut::map_mut(&file)? };
            self.store = Some(Store {
                file,
                map,
                free: Vec::new(),
            });
            return Ok(());
        }
        let Some(store) = self.store.as_mut() else {
            return Ok(());
        };
        store.file.set_len(len)?;
        // SAFETY: as above; the old map is replaced (and unmapped) here, and no reference into
        // it outlives this `&mut self` call.
        store.map = unsafe { MmapMut::map_mut(&store.file)? };
        Ok(())
    }

    /// Evicts the object written least recently; false when the journal is empty.
    fn evict_oldest(&mut self) -> bool {
        let buffers = self
            .buffers
            .iter()
            .map(|(&h, m)| (m.last_write, Owner::Buffer(h)));
        let images = self
            .images
            .iter()
            .map(|(&h, l)| (l.last_write, Owner::Image(h)));
        let Some((_, victim)) = buffers.chain(images).min_by_key(|&(seq, _)| seq) else {
            return false;
        };
        match victim {
            Owner::Buffer(h) => self.retire_buffer(h),
            Owner::Image(h) => self.retire_image(h),
        }
        self.evictions += 1;
        true
    }
}

/// Adds `r` to sorted, disjoint `ranges`, merging what it touches.
fn add_range(ranges: &mut Vec<Range<u64>>, r: Range<u64>) {
    let (mut start, mut end) = (r.start, r.end);
    ranges.retain(|x| {
        if x.end < start || x.start > end {
            true
        } else {
            start = start.min(x.start);
            end = end.max(x.end);
            false
        }
    });
    let at = ranges.partition_point(|x| x.start < start);
    ranges.insert(at, start..end);
}

/// Puts `e` back on the sorted free list, coalescing with its neighbours.
fn insert_free(free: &mut Vec<Extent>, e: Extent) {
    let at = free.partition_point(|x| x.offset < e.offset);
    free.insert(at, e);
    if at + 1 < free.len() && free[at].offset + free[at].len == free[at + 1].offset {
        free[at].len += free[at + 1].len;
        free.remove(at + 1);
    }
    if at > 0 && free[at - 1].offset + free[at - 1].len == free[at].offset {
        free[at - 1].len += free[at].len;
        free.remove(at);
    }
}

/// A new file in `dir`, already unlinked.
fn create_unlinked(dir: &Path) -> std::io::Result<File> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = dir.join(format!("arenagl-journal-{}-{n}", std::process::id()));
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)?;
    std::fs::remove_file(&path)?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn journal(cap: u64) -> Journal {
        Journal::new(cap, &std::env::temp_dir())
    }

    fn region(level: u32, x: i32, w: u32) -> JournalRegion {
        JournalRegion {
            level,
            base_layer: 0,
            layer_count: 1,
            offset: [x, 0, 0],
            extent: [w, 1, 1],
            aspect: ash::vk::ImageAspectFlags::COLOR,
        }
    }

    #[test]
    fn buffer_writes_overwrite_in_place_and_merge_ranges() {
        let mut j = journal(1 << 20);
        assert!(j.record_buffer(1, 16, 0, &[1; 4]));
        assert!(j.record_buffer(1, 16, 4, &[2; 4]));
        assert!(j.record_buffer(1, 16, 2, &[3; 4]));
        assert!(j.record_buffer(1, 16, 12, &[4; 4]));
        let c = j.buffer_contents(1);
        assert_eq!(c.len(), 2);
        assert_eq!(c[0], (0, &[1, 1, 3, 3, 3, 3, 2, 2][..]));
        assert_eq!(c[1], (12, &[4, 4, 4, 4][..]));
        assert_eq!(j.figures().bytes, 64, "one granule-rounded mirror");
        assert!(!j.record_buffer(1, 16, 14, &[0; 4]), "outside the buffer");
    }

    #[test]
    fn image_regions_overwrite_supersede_and_replay_in_order() {
        let mut j = journal(1 << 20);
        assert!(j.record_image(7, region(0, 0, 2), &[1, 1]));
        assert!(j.record_image(7, region(0, 2, 2), &[2, 2]));
        assert!(j.record_image(7, region(0, 0, 2), &[3, 3]));
        let log = j.image_contents(7);
        assert_eq!(
            log,
            vec![
                ImageReplay::Region(region(0, 2, 2), &[2, 2]),
                ImageReplay::Region(region(0, 0, 2), &[3, 3]),
            ]
        );
        assert!(j.record_image(7, region(1, 0, 1), &[9]));
        assert!(j.record_image(7, region(0, 0, 4), &[4; 4]));
        assert_eq!(
            j.image_contents(7).len(),
            2,
            "the full level dropped both halves"
        );
        j.record_mipmaps(7, 0, 1);
        assert_eq!(
            j.image_contents(7),
            vec![
                ImageReplay::Region(region(0, 0, 4), &[4; 4]),
                ImageReplay::Mipmaps { base: 0, last: 1 },
            ],
            "generating level 1 dropped its upload"
        );
        j.retire_image(7);
        assert!(j.image_contents(7).is_empty());
        assert_eq!(j.figures().bytes, 0);
    }

    #[test]
    fn over_the_cap_the_oldest_object_is_evicted() {
        let mut j = journal(256);
        assert!(j.record_buffer(1, 128, 0, &[1; 128]));
        assert!(j.record_buffer(2, 128, 0, &[2; 128]));
        assert!(j.record_buffer(1, 128, 0, &[3; 1]), "in place: no eviction");
        assert!(j.record_image(3, region(0, 0, 100), &[5; 100]));
        assert!(
            j.buffer_contents(2).is_empty(),
            "the least recently written went"
        );
        assert_eq!(j.buffer_contents(1)[0].1[0], 3);
        assert_eq!(j.figures().evictions, 1);
        assert!(
            !j.record_buffer(4, 512, 0, &[1; 512]),
            "larger than the cap"
        );
        assert!(j.figures().bytes <= 256);
    }

    /// Resident file-backed and shared kibibytes of this process (`/proc/self/status`).
    #[cfg(target_os = "linux")]
    fn rss_file_kib() -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        status
            .lines()
            .filter(|l| l.starts_with("RssFile:") || l.starts_with("RssShmem:"))
            .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
            .sum()
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn journaled_pages_leave_the_resident_set() {
        let mut j = journal(64 << 20);
        let chunk = vec![0x5A; 1 << 20];
        let before = rss_file_kib();
        for i in 0..32 {
            assert!(j.record_image(i, region(0, 0, 1 << 20), &chunk));
        }
        let grown = rss_file_kib().saturating_sub(before);
        assert!(
            grown < 8 << 10,
            "32 MiB journaled, resident file pages grew {grown} KiB"
        );
        let back = j.image_contents(31);
        assert!(matches!(back[0], ImageReplay::Region(_, b) if b == &chunk[..]));
    }

    #[derive(Debug, Clone)]
    enum Op {
        Write {
            obj: u64,
            offset: u64,
            len: u64,
            byte: u8,
        },
        Retire {
            obj: u64,
        },
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => (0u64..6, 0u64..900, 1u64..300, any::<u8>()).prop_map(|(obj, offset, len, byte)| Op::Write { obj, offset, len, byte }),
            1 => (0u64..6).prop_map(|obj| Op::Retire { obj }),
        ]
    }

    const SIZE: u64 = 1000;

    proptest! {
        /// Buffers: whatever survives matches the model byte for byte; an evicted object has
        /// no entries at all (never a partial restore of older bytes); usage stays under the cap.
        #[test]
        fn buffers_match_a_model(ops in prop::collection::vec(op(), 1..60), cap_kib in 1u64..6) {
            let cap = cap_kib * 1024;
            let mut j = journal(cap);
            let mut model: HashMap<u64, Vec<Option<u8>>> = HashMap::new();
            for op in ops {
                match op {
                    Op::Write { obj, offset, len, byte } => {
                        let end = (offset + len).min(SIZE);
                        let data = vec![byte; (end - offset) as usize];
                        let before = j.figures().evictions;
                        let ok = j.record_buffer(obj, SIZE, offset, &data);
                        if j.figures().evictions > before || !ok {
                            // Evicted objects lose everything; find which by asking the journal.
                            model.retain(|h, _| !j.buffer_contents(*h).is_empty() || *h == obj);
                        }
                        if ok {
                            let m = model.entry(obj).or_insert_with(|| vec![None; SIZE as usize]);
                            m[offset as usize..end as usize].fill(Some(byte));
                        } else {
                            model.remove(&obj);
                        }
                    }
                    Op::Retire { obj } => {
                        j.retire_buffer(obj);
                        model.remove(&obj);
                    }
                }
                prop_assert!(j.figures().bytes <= cap);
                for obj in 0..6 {
                    let mut got = vec![None; SIZE as usize];
                    for (off, bytes) in j.buffer_contents(obj) {
                        for (i, b) in bytes.iter().enumerate() {
                            got[off as usize + i] = Some(*b);
                        }
                    }
                    let want = model.get(&obj).cloned().unwrap_or_else(|| vec![None; SIZE as usize]);
                    prop_assert_eq!(got, want, "object {}", obj);
                }
            }
        }

        /// Images: replaying the log onto a blank row reproduces the model's row.
        #[test]
        fn image_replay_matches_a_model(ops in prop::collection::vec(op(), 1..60)) {
            let mut j = journal(1 << 20);
            let mut model: HashMap<u64, Vec<u8>> = HashMap::new();
            for op in ops {
                match op {
                    Op::Write { obj, offset, len, byte } => {
                        let end = (offset + len).min(SIZE);
                        let data = vec![byte; (end - offset) as usize];
                        let r = region(0, offset as i32, (end - offset) as u32);
                        prop_assert!(j.record_image(obj, r, &data));
                        let m = model.entry(obj).or_insert_with(|| vec![0; SIZE as usize]);
                        m[offset as usize..end as usize].fill(byte);
                    }
                    Op::Retire { obj } => {
                        j.retire_image(obj);
                        model.remove(&obj);
                    }
                }
            }
            for obj in 0..6 {
                let mut row = vec![0u8; SIZE as usize];
                for step in j.image_contents(obj) {
                    if let ImageReplay::Region(r, bytes) = step {
                        let at = r.offset[0] as usize;
                        row[at..at + bytes.len()].copy_from_slice(bytes);
                    }
                }
                let want = model.get(&obj).cloned().unwrap_or_else(|| vec![0; SIZE as usize]);
                prop_assert_eq!(row, want, "object {}", obj);
            }
        }
    }
}
