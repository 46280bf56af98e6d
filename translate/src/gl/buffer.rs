//! Buffer objects: storage from the manager, uploads through its staging, mapping through a
//! client-side copy.
//!
//! Design decisions:
//! - Storage is one `DeviceBuffer`-class buffer per GL buffer, usable as vertex, index, uniform
//!   and copy source/destination (GL lets any buffer be bound anywhere). `glBufferData` always
//!   gives the old storage back (retired: freed when the GPU is done) and takes new storage, so
//!   the classic orphaning idiom never waits and never races with a pending draw.
//! - `glBufferSubData` goes through the manager's `upload_buffer`: a direct write when the
//!   buffer is idle and host-visible, otherwise a staged copy recorded in order with the draws.
//! - `glMapBufferRange` hands out a client-side copy (read back first for `GL_MAP_READ_BIT`);
//!   `glUnmapBuffer` / `glFlushMappedBufferRange` upload what was written. The pointer stays valid
//!   until unmap, as GL promises.

use arenagl_memory::{BufferDesc, BufferHandle, Category, MemoryClass};
use ash::vk;

/// A live mapping.
pub(crate) struct Mapping {
    pub offset: u64,
    pub length: u64,
    pub access: u32,
    pub data: Vec<u8>,
    /// Ranges already flushed explicitly (relative to the mapping).
    pub flushed: Vec<(u64, u64)>,
}

/// A GL buffer object.
#[derive(Default)]
pub(crate) struct Buffer {
    pub storage: Option<BufferHandle>,
    pub size: u64,
    pub usage: u32,
    pub mapping: Option<Mapping>,
}

impl Buffer {
    pub(crate) fn new() -> Self {
        Self {
            usage: super::enums::GL_STATIC_DRAW,
            ..Self::default()
        }
    }
}

/// The request for a GL buffer's storage of `size` bytes.
pub(crate) fn storage_desc(size: u64) -> BufferDesc {
    BufferDesc::new(
        size,
        vk::BufferUsageFlags::VERTEX_BUFFER
            | vk::BufferUsageFlags::INDEX_BUFFER
            | vk::BufferUsageFlags::UNIFORM_BUFFER
            | vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::TRANSFER_SRC
            | vk::BufferUsageFlags::TRANSFER_DST,
        MemoryClass::DeviceBuffer,
        Category::Buffer,
    )
    .named("GL buffer")
}
