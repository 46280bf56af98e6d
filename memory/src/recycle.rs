//! The recycle bin: retired buffers and images whose epoch has completed are kept for a few
//! frames, and a request for an identical resource takes one back instead of creating it anew.
//!
//! Why: a program that creates and deletes the same kinds of textures and buffers every frame
//! (chunk meshes, per-frame render targets, streamed atlases) empties a VMA block each frame; VMA
//! frees an empty block as soon as another one is empty or any other free happens, and the next
//! frame allocates it again: one `vkAllocateMemory` and one `vkFreeMemory` a frame, each a
//! zeroed, page-faulted block on most drivers. Keeping the released resources briefly keeps
//! their block alive and skips `vkCreate*` and the bind as well.
//!
//! Design decisions:
//! - Off unless the manager's configuration gives it bytes (`ManagerConfig::recycle_bin_bytes`);
//!   the GL device turns it on with a cap derived from the budget. At most that many bytes are
//!   held; a release that does not fit is destroyed at once.
//! - A binned resource stays counted in its category's live bytes: memory held is memory
//!   counted, so the budget, the pressure levels and the peak see it. It is not a client object
//!   (`MemoryStats::client_objects_live` leaves it out) and the bin is the first thing given
//!   back: whenever a request does not fit the budget, on the OOM ladder, at every blocking GC,
//!   above the Normal pressure level, and after [`MAX_AGE_FRAMES`] frames unused.
//! - Only exact matches are reused (every field of the description but its debug name), so a
//!   reused resource is indistinguishable from a new one: its contents are undefined either way
//!   (GL gives no guarantee for new storage, Vulkan none for new memory), and an image starts
//!   again from `UNDEFINED` layout. Staging blocks are never binned (their arenas keep their own
//!   blocks); dedicated allocations are, within the cap (reusing one saves a whole
//!   `vkAllocateMemory`).

use crate::backend::AllocInfo;
use crate::desc::{BufferDesc, ImageDesc};

/// Frames a binned resource waits for a matching request before it is destroyed.
pub const MAX_AGE_FRAMES: u64 = 4;

/// A binned resource: what it was made from, the backend object, its allocation, and the frame
/// it was binned in.
pub(crate) struct Binned<D, R> {
    desc: D,
    raw: R,
    alloc: AllocInfo,
    frame: u64,
}

impl<D, R> Binned<D, R> {
    /// What the manager needs back: the description, the backend object and its allocation.
    pub(crate) fn into_parts(self) -> (D, R, AllocInfo) {
        (self.desc, self.raw, self.alloc)
    }
}

/// The bin (module doc).
pub(crate) struct RecycleBin<Buf, Img> {
    buffers: Vec<Binned<BufferDesc, Buf>>,
    images: Vec<Binned<ImageDesc, Img>>,
    bytes: u64,
    cap: u64,
    frame: u64,
}

/// Whether two buffer requests describe the same resource (the debug name apart).
fn same_buffer(a: &BufferDesc, b: &BufferDesc) -> bool {
    a.size == b.size && a.usage == b.usage && a.class == b.class && a.category == b.category
}

/// Whether two image requests describe the same resource (the debug name apart).
fn same_image(a: &ImageDesc, b: &ImageDesc) -> bool {
    a.image_type == b.image_type
        && a.format == b.format
        && a.extent == b.extent
        && a.mip_levels == b.mip_levels
        && a.array_layers == b.array_layers
        && a.samples == b.samples
        && a.usage == b.usage
        && a.flags == b.flags
        && a.category == b.category
}

/// Takes the oldest entry matching `want` out of `list`.
fn take<D, R>(
    list: &mut Vec<Binned<D, R>>,
    bytes: &mut u64,
    matches: impl Fn(&D) -> bool,
) -> Option<Binned<D, R>> {
    let at = list.iter().position(|e| matches(&e.desc))?;
    let entry = list.remove(at);
    *bytes -= entry.alloc.size;
    Some(entry)
}

/// What the bin gives back to be destroyed.
pub(crate) struct Expired<Buf, Img> {
    buffers: Vec<Binned<BufferDesc, Buf>>,
    images: Vec<Binned<ImageDesc, Img>>,
}

impl<Buf, Img> Expired<Buf, Img> {
    /// Whether nothing is given back.
    pub(crate) fn is_empty(&self) -> bool {
        self.buffers.is_empty() && self.images.is_empty()
    }

    /// The buffers and the images given back.
    #[allow(clippy::type_complexity)]
    pub(crate) fn into_parts(self) -> (Vec<Binned<BufferDesc, Buf>>, Vec<Binned<ImageDesc, Img>>) {
        (self.buffers, self.images)
    }
}

impl<Buf, Img> RecycleBin<Buf, Img> {
    /// A bin holding at most `cap` bytes (0: off).
    pub(crate) fn new(cap: u64) -> Self {
        Self {
            buffers: Vec::new(),
            images: Vec::new(),
            bytes: 0,
            cap,
            frame: 0,
        }
    }

    /// Changes the cap; what no longer fits is the caller's to empty.
    pub(crate) fn set_cap(&mut self, cap: u64) {
        self.cap = cap;
    }

    /// The cap.
    pub(crate) fn cap(&self) -> u64 {
        self.cap
    }

    /// Bytes held.
    pub(crate) fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Resources held.
    pub(crate) fn len(&self) -> usize {
        self.buffers.len() + self.images.len()
    }

    fn accepts(&self, category: crate::desc::Category, alloc: &AllocInfo) -> bool {
        self.cap > 0
            && category != crate::desc::Category::Staging
            && self.bytes + alloc.size <= self.cap
    }

    /// Bins a released buffer, or hands it back when it may not be kept.
    pub(crate) fn put_buffer(
        &mut self,
        desc: BufferDesc,
        raw: Buf,
        alloc: AllocInfo,
    ) -> Result<(), (BufferDesc, Buf, AllocInfo)> {
        if !self.accepts(desc.category, &alloc) {
            return Err((desc, raw, alloc));
        }
        self.bytes += alloc.size;
        self.buffers.push(Binned {
            desc,
            raw,
            alloc,
            frame: self.frame,
        });
        Ok(())
    }

    /// Bins a released image, or hands it back when it may not be kept.
    pub(crate) fn put_image(
        &mut self,
        desc: ImageDesc,
        raw: Img,
        alloc: AllocInfo,
    ) -> Result<(), (ImageDesc, Img, AllocInfo)> {
        if !self.accepts(desc.category, &alloc) {
            return Err((desc, raw, alloc));
        }
        self.bytes += alloc.size;
        self.images.push(Binned {
            desc,
            raw,
            alloc,
            frame: self.frame,
        });
        Ok(())
    }

    /// A binned buffer identical to `desc`, taken out of the bin.
    pub(crate) fn take_buffer(&mut self, desc: &BufferDesc) -> Option<Binned<BufferDesc, Buf>> {
        take(&mut self.buffers, &mut self.bytes, |d| same_buffer(d, desc))
    }

    /// A binned image identical to `desc`, taken out of the bin.
    pub(crate) fn take_image(&mut self, desc: &ImageDesc) -> Option<Binned<ImageDesc, Img>> {
        take(&mut self.images, &mut self.bytes, |d| same_image(d, desc))
    }

    /// Starts a frame; returns what waited [`MAX_AGE_FRAMES`] frames unused.
    pub(crate) fn next_frame(&mut self) -> Expired<Buf, Img> {
        self.frame += 1;
        let frame = self.frame;
        let (buffers, keep): (Vec<_>, Vec<_>) = std::mem::take(&mut self.buffers)
            .into_iter()
            .partition(|e| frame - e.frame >= MAX_AGE_FRAMES);
        self.buffers = keep;
        let (images, keep): (Vec<_>, Vec<_>) = std::mem::take(&mut self.images)
            .into_iter()
            .partition(|e| frame - e.frame >= MAX_AGE_FRAMES);
        self.images = keep;
        let gone: u64 = buffers.iter().map(|e| e.alloc.size).sum::<u64>()
            + images.iter().map(|e| e.alloc.size).sum::<u64>();
        self.bytes -= gone;
        Expired { buffers, images }
    }

    /// Empties the bin.
    pub(crate) fn take_all(&mut self) -> Expired<Buf, Img> {
        self.bytes = 0;
        Expired {
            buffers: std::mem::take(&mut self.buffers),
            images: std::mem::take(&mut self.images),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::desc::{Category, MemoryClass};
    use ash::vk;

    fn alloc(size: u64) -> AllocInfo {
        AllocInfo {
            size,
            dedicated: false,
            memory_type: 0,
        }
    }

    fn buffer(size: u64) -> BufferDesc {
        BufferDesc::new(
            size,
            vk::BufferUsageFlags::VERTEX_BUFFER,
            MemoryClass::DeviceBuffer,
            Category::Buffer,
        )
    }

    #[test]
    fn only_an_identical_request_takes_a_binned_resource() {
        let mut bin: RecycleBin<u32, u32> = RecycleBin::new(1 << 20);
        assert!(bin.put_buffer(buffer(256), 7, alloc(256)).is_ok());
        assert!(bin.take_buffer(&buffer(512)).is_none());
        let mut other_use = buffer(256);
        other_use.usage = vk::BufferUsageFlags::INDEX_BUFFER;
        assert!(bin.take_buffer(&other_use).is_none());
        let mut renamed = buffer(256);
        renamed.name = "another name";
        assert_eq!(bin.take_buffer(&renamed).map(|e| e.raw), Some(7));
        assert_eq!(bin.bytes(), 0);
    }

    #[test]
    fn the_cap_and_staging_are_refused() {
        let mut bin: RecycleBin<u32, u32> = RecycleBin::new(1000);
        assert!(bin.put_buffer(buffer(600), 1, alloc(600)).is_ok());
        assert!(bin.put_buffer(buffer(600), 2, alloc(600)).is_err());
        let mut staging = buffer(100);
        staging.category = Category::Staging;
        assert!(bin.put_buffer(staging, 4, alloc(100)).is_err());
        assert!(RecycleBin::<u32, u32>::new(0)
            .put_buffer(buffer(1), 5, alloc(1))
            .is_err());
        assert_eq!((bin.bytes(), bin.len()), (600, 1));
    }

    #[test]
    fn unused_resources_expire_after_max_age_frames() {
        let mut bin: RecycleBin<u32, u32> = RecycleBin::new(1 << 20);
        assert!(bin.put_buffer(buffer(64), 1, alloc(64)).is_ok());
        for _ in 1..MAX_AGE_FRAMES {
            assert!(bin.next_frame().is_empty());
        }
        assert!(bin.put_buffer(buffer(32), 2, alloc(32)).is_ok());
        let expired = bin.next_frame();
        assert_eq!(
            expired.buffers.iter().map(|e| e.raw).collect::<Vec<_>>(),
            [1]
        );
        assert_eq!((bin.bytes(), bin.len()), (32, 1));
        assert_eq!(bin.take_all().buffers.len(), 1);
        assert_eq!(bin.bytes(), 0);
    }
}
