//! Buffer objects: storage from the manager, uploads through its staging, mapping through a
//! client-side copy.
//!
//! Design decisions:
//! - Storage is one `DeviceBuffer`-class buffer per GL buffer, usable as vertex, index, uniform
//!   copy source/destination and texel buffer (GL lets any buffer be bound anywhere). `glBufferData` always
//!   gives the old storage back (retired: freed when the GPU is done) and takes new storage, so
//!   the classic orphaning idiom never waits and never races with a pending draw.
//! - `glBufferSubData` goes through the manager's `upload_buffer`: a direct write when the
//!   buffer is idle and host-visible, otherwise a staged copy recorded in order with the draws.
//! - `glMapBufferRange` hands out a client-side copy (read back first for `GL_MAP_READ_BIT`),
//!   placed so that `(pointer - offset) % 64 == 0` (GL_ARB_map_buffer_alignment, `aligned`);
//!   `glUnmapBuffer` / `glFlushMappedBufferRange` upload what was written. The pointer stays valid
//!   until unmap, as GL promises.
//! - Small buffers (up to [`SHADOW_LIMIT`]) keep a CPU shadow and live in host-visible
//!   `Transient` memory. Updating one that a recorded or in-flight draw still reads *renames* it:
//!   fresh storage takes the whole shadow by a direct write and the old storage is retired. So the
//!   glBufferSubData-between-draws idiom costs a small allocation and a memcpy instead of a
//!   transfer in the command stream, which would end the render pass and add two barriers.
//!   Reads (`glGetBufferSubData`, read maps) come from the shadow without waiting for the GPU.
//!   A GPU write (`glCopyBufferSubData` into it) drops the shadow.
//! - Immutable storage (`glBufferStorage`, see `buffer_storage`) with `GL_MAP_PERSISTENT_BIT`
//!   lives in host-visible memory with no shadow and is never renamed: its maps hand out the
//!   manager's own persistent mapping, so the pointer stays valid across draws and the GPU
//!   reads exactly what the application wrote.

pub(crate) mod aligned;
pub(crate) mod api;
pub(crate) mod clear;
pub(crate) mod storage;

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;

use arenagl_memory::report::{note_host_bytes, HostMemory};
use arenagl_memory::{BufferDesc, BufferHandle, Category, MemoryClass};
use ash::vk;

use crate::gl::vk::device::Device;

/// A live mapping.
pub(crate) struct Mapping {
    pub offset: u64,
    pub length: u64,
    pub access: u32,
    /// The host copy handed out (on the 64-byte grid, `aligned`).
    pub data: aligned::MapCopy,
    /// Ranges already flushed explicitly (relative to the mapping).
    pub flushed: Vec<(u64, u64)>,
    /// The pointer handed out is the storage's own persistent mapping (`data` is empty):
    /// nothing is uploaded at unmap; non-coherent memory is flushed instead.
    pub direct: bool,
}

/// Buffers up to this size keep a CPU shadow and are renamed instead of updated in place while
/// the GPU uses them.
pub const SHADOW_LIMIT: u64 = 64 << 10;

/// A small buffer's CPU shadow: its bytes (a fixed length), counted in the memory manager's
/// report (`arenagl_memory::report`, `ARENAGL_MEMORY_REPORT=1`) while they live.
pub(crate) struct Shadow(Vec<u8>);

impl Shadow {
    /// Takes `bytes` as a buffer's shadow.
    pub(crate) fn new(bytes: Vec<u8>) -> Self {
        note_host_bytes(HostMemory::BufferShadows, bytes.capacity() as u64, 0);
        Self(bytes)
    }
}

impl std::ops::Deref for Shadow {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl std::ops::DerefMut for Shadow {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.0
    }
}

impl Drop for Shadow {
    fn drop(&mut self) {
        note_host_bytes(HostMemory::BufferShadows, 0, self.0.capacity() as u64);
    }
}

/// A GL buffer object.
#[derive(Default)]
pub(crate) struct Buffer {
    pub storage: Option<BufferHandle>,
    pub size: u64,
    pub usage: u32,
    pub mapping: Option<Mapping>,
    /// The contents, for small buffers the CPU knows in full (see the module docs).
    pub shadow: Option<Shadow>,
    /// `GL_BUFFER_IMMUTABLE_STORAGE`: the storage came from `glBufferStorage`.
    pub immutable: bool,
    /// `GL_BUFFER_STORAGE_FLAGS`: `glBufferStorage`'s flags, or what `glBufferData` implies.
    pub storage_flags: u32,
}

impl Buffer {
    pub(crate) fn new() -> Self {
        Self {
            usage: crate::gl::context::enums::GL_STATIC_DRAW,
            ..Self::default()
        }
    }

    /// Immutable storage made with `GL_MAP_PERSISTENT_BIT`: host-visible, never renamed,
    /// mapped in place.
    pub(crate) fn persistent(&self) -> bool {
        self.immutable && self.storage_flags & crate::gl::context::enums::GL_MAP_PERSISTENT_BIT != 0
    }

    /// Whether commands that refuse a mapped buffer must refuse this one (a persistent
    /// mapping lets the buffer be used while mapped).
    pub(crate) fn mapped_exclusively(&self) -> bool {
        self.mapping
            .as_ref()
            .is_some_and(|m| m.access & crate::gl::context::enums::GL_MAP_PERSISTENT_BIT == 0)
    }
}

/// The request for persistently mappable storage of `size` bytes: host-visible memory the
/// manager keeps mapped (`Transient`, the class of CPU-written, GPU-read buffers).
pub(crate) fn persistent_storage_desc(size: u64) -> BufferDesc {
    BufferDesc {
        class: MemoryClass::Transient,
        ..storage_desc(size)
    }
    .named("GL persistent buffer")
}

/// The request for a GL buffer's storage of `size` bytes: host-visible `Transient` memory for
/// shadowed (small) buffers, device-local otherwise.
pub(crate) fn storage_desc(size: u64) -> BufferDesc {
    let class = if size <= SHADOW_LIMIT {
        MemoryClass::Transient
    } else {
        MemoryClass::DeviceBuffer
    };
    BufferDesc::new(
        size,
        vk::BufferUsageFlags::VERTEX_BUFFER
            | vk::BufferUsageFlags::INDEX_BUFFER
            | vk::BufferUsageFlags::UNIFORM_BUFFER
            | vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER
            | vk::BufferUsageFlags::INDIRECT_BUFFER
            | vk::BufferUsageFlags::TRANSFER_SRC
            | vk::BufferUsageFlags::TRANSFER_DST
            | feedback_usage(),
        class,
        Category::Buffer,
    )
    .named("GL buffer")
}

/// Set when the process's device enables VK_EXT_transform_feedback (`vk::device`): every GL
/// buffer may then be a transform feedback buffer, which its usage must say at creation.
pub(crate) static FEEDBACK_USAGE: AtomicBool = AtomicBool::new(false);

/// `TRANSFORM_FEEDBACK_BUFFER_EXT` where the device has transform feedback, else nothing.
fn feedback_usage() -> vk::BufferUsageFlags {
    if FEEDBACK_USAGE.load(Ordering::Relaxed) {
        vk::BufferUsageFlags::TRANSFORM_FEEDBACK_BUFFER_EXT
    } else {
        vk::BufferUsageFlags::empty()
    }
}

/// A buffer object deleted while vertex arrays that were not bound held it. GL frees the name at
/// once but keeps the object until its last reference goes (GL 4.6 §5.1.3): the vertex arrays
/// that held it share it through an `Arc` and name it by `id`, a private name from the top of
/// the range (`glGenBuffers` counts up from 1), so a buffer that later gets the old name is
/// never mistaken for it. The storage is retired (freed once the GPU is done with it) when the
/// last vertex array lets go.
pub(crate) struct RetainedBuffer {
    /// The private name the vertex arrays' slots hold.
    pub id: u32,
    /// The name it had, which queries of a vertex array's bindings still report.
    pub name: u32,
    pub buffer: Buffer,
    device: Arc<Device>,
}

/// Private names handed out before they repeat (from `u32::MAX` down).
const RETAINED_IDS: u32 = 1 << 30;

impl RetainedBuffer {
    /// Keeps `buffer`, deleted as `name`. Deleting a buffer unmaps it.
    pub(crate) fn new(name: u32, mut buffer: Buffer, device: Arc<Device>) -> Arc<Self> {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed) % RETAINED_IDS;
        buffer.mapping = None;
        Arc::new(Self {
            id: u32::MAX - n,
            name,
            buffer,
            device,
        })
    }
}

impl std::fmt::Debug for RetainedBuffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RetainedBuffer")
            .field("id", &self.id)
            .field("name", &self.name)
            .field("size", &self.buffer.size)
            .finish()
    }
}

impl Drop for RetainedBuffer {
    fn drop(&mut self) {
        if let Some(h) = self.buffer.storage.take() {
            if let Err(e) = self.device.lock().manager.retire_buffer(h) {
                tracing::debug!(error = %e, "retiring a deleted buffer's storage");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arenagl_memory::report::host_bytes;

    #[test]
    fn shadow_bytes_are_counted_while_the_shadow_lives() {
        // Larger than any real shadow, so buffers that other tests shadow meanwhile (64 KiB at
        // most each) cannot hide it.
        const BYTES: u64 = 8 << 20;
        let before = host_bytes(HostMemory::BufferShadows);
        let shadow = Shadow::new(vec![0; BYTES as usize]);
        assert!(host_bytes(HostMemory::BufferShadows) >= before + BYTES);
        drop(shadow);
        assert!(host_bytes(HostMemory::BufferShadows) < before + BYTES);
    }
}
