//! GL_ARB_buffer_storage: immutable buffer storage, persistent and coherent maps, and the
//! barriers that make GPU writes visible through them.
//!
//! Design decisions:
//! - `glBufferStorage` storage comes from the manager like any other buffer. Storage made with
//!   `GL_MAP_PERSISTENT_BIT` is host-visible (`buffer::persistent_storage_desc`), keeps no CPU
//!   shadow and is never renamed, so the pointer a map hands out is the manager's own
//!   persistent mapping of it: application writes land in the memory the GPU reads, and GPU
//!   writes land in the memory the application reads.
//! - Host → GPU: the GPU reads host writes made before the submission that carries the draw
//!   (Vulkan's submission guarantee for host-coherent memory). Non-coherent memory is flushed at
//!   `glFlushMappedBufferRange`, at unmap and at `glMemoryBarrier(GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT)`.
//! - GPU → host: a semaphore wait alone does not make device writes visible to host reads, so
//!   `glFenceSync` (while the context has persistent storage) and
//!   `glMemoryBarrier(GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT)` record the manager's
//!   `host_read_barrier` first; waiting on the fence then sees the writes, as GL promises.
//! - A persistent map waits for nothing (synchronisation is the application's, with fences); a
//!   non-persistent map of persistent storage waits for the GPU's last use unless
//!   `GL_MAP_UNSYNCHRONIZED_BIT`, as an ordinary map would.
//! - `GL_MAP_COHERENT_BIT` relies on host-coherent memory, which is what the manager's
//!   host-visible class gets on lavapipe (its only memory type) and on the desktop drivers
//!   seen so far; on a non-coherent type only the explicit flushes above publish host writes.
//! - `GL_CLIENT_STORAGE_BIT` is a hint and changes nothing: every class already honours the
//!   memory manager's budget.

use std::sync::Arc;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_op, invalid_value, GlError, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::buffer::{persistent_storage_desc, storage_desc, Buffer, Mapping};
use crate::gl::vk::device::Device;

/// Every flag `glBufferStorage` accepts.
const STORAGE_FLAGS: u32 = GL_DYNAMIC_STORAGE_BIT
    | GL_MAP_READ_BIT
    | GL_MAP_WRITE_BIT
    | GL_MAP_PERSISTENT_BIT
    | GL_MAP_COHERENT_BIT
    | GL_CLIENT_STORAGE_BIT;

/// `GL_ALL_BARRIER_BITS`.
const ALL_BARRIER_BITS: u32 = 0xFFFF_FFFF;
/// The barrier bits GL 4.4 defines (`glMemoryBarrier` rejects others).
const KNOWN_BARRIER_BITS: u32 = 0x0000_FFFF;

impl Context {
    /// `glBufferStorage`.
    pub fn buffer_storage(&mut self, target: GLenum, size: i64, data: Option<&[u8]>, flags: u32) {
        let device = self.device.clone();
        let r = (|| {
            let (_, b) = self.target_buffer(target, "glBufferStorage")?;
            if flags & !STORAGE_FLAGS != 0 {
                return invalid_value(format!("glBufferStorage flags 0x{flags:x}"));
            }
            if size <= 0 {
                return invalid_value(format!("glBufferStorage size {size}"));
            }
            if flags & GL_MAP_PERSISTENT_BIT != 0
                && flags & (GL_MAP_READ_BIT | GL_MAP_WRITE_BIT) == 0
            {
                return invalid_value(
                    "GL_MAP_PERSISTENT_BIT without GL_MAP_READ_BIT or GL_MAP_WRITE_BIT",
                );
            }
            if flags & GL_MAP_COHERENT_BIT != 0 && flags & GL_MAP_PERSISTENT_BIT == 0 {
                return invalid_value("GL_MAP_COHERENT_BIT without GL_MAP_PERSISTENT_BIT");
            }
            if b.immutable {
                return invalid_op("glBufferStorage on a buffer whose storage is immutable");
            }
            let size = size as u64;
            let persistent = flags & GL_MAP_PERSISTENT_BIT != 0;
            let data = data.and_then(|d| d.get(..size as usize));
            let mut locked = device.lock();
            let desc = if persistent {
                persistent_storage_desc(size)
            } else {
                storage_desc(size)
            };
            let h = locked.manager.create_buffer(&desc)?;
            if persistent && !matches!(locked.manager.buffer_host_mapping(h), Ok(Some(_))) {
                let _ = locked.manager.retire_buffer(h);
                return Err(GlError::InvalidOperation(
                    "persistent buffer storage is not host-visible on this device".into(),
                ));
            }
            if let Some(d) = data {
                if let Err(e) = locked.manager.upload_buffer(h, 0, d) {
                    let _ = locked.manager.retire_buffer(h);
                    return Err(e.into());
                }
            } else if persistent {
                // The storage is the application's to read: no stale bytes from recycled memory.
                let zeros = vec![0u8; size as usize];
                if let Err(e) = locked.manager.upload_buffer(h, 0, &zeros) {
                    let _ = locked.manager.retire_buffer(h);
                    return Err(e.into());
                }
            }
            b.mapping = None;
            b.shadow =
                (!persistent && size <= crate::gl::objects::buffer::SHADOW_LIMIT).then(|| {
                    crate::gl::objects::buffer::Shadow::new(match data {
                        Some(d) => d.to_vec(),
                        None => vec![0; size as usize],
                    })
                });
            if let Some(old) = b.storage.replace(h) {
                let _ = locked.manager.retire_buffer(old);
            }
            b.size = size;
            b.usage = GL_DYNAMIC_DRAW;
            b.immutable = true;
            b.storage_flags = flags;
            Ok(())
        })();
        self.record(r);
    }

    /// `glMemoryBarrier`: any bit but the client-mapped one records a shader-write barrier
    /// (`compute::barrier`; dispatches have their own); `GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT` makes GPU writes to persistent storage visible to
    /// host reads once the commands before it complete.
    pub fn memory_barrier(&mut self, barriers: u32) {
        let r = (|| {
            if barriers != ALL_BARRIER_BITS && barriers & !KNOWN_BARRIER_BITS != 0 {
                return invalid_value(format!("glMemoryBarrier bits 0x{barriers:x}"));
            }
            if barriers & GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT != 0 {
                self.host_read_barrier()?;
            }
            // Shader writes (stores and atomics of draws) against every later access.
            if barriers & !GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT != 0 {
                self.shader_write_barrier()?;
            }
            Ok(())
        })();
        self.record(r);
    }

    /// Whether any buffer of the context has persistent storage (`glFenceSync` then records
    /// a host-read barrier).
    pub(crate) fn has_persistent_buffers(&self) -> bool {
        self.buffers
            .created()
            .into_iter()
            .any(|n| self.buffers.get(n).is_some_and(Buffer::persistent))
    }

    /// Ends the render pass and records the manager's host-read barrier.
    pub(crate) fn host_read_barrier(&mut self) -> GlResult<()> {
        self.end_pass();
        self.device.lock().manager.host_read_barrier()?;
        Ok(())
    }
}

/// Maps `offset..offset + length` of persistent storage in place: the pointer into the
/// manager's mapping (see the module docs for the waits).
pub(crate) fn map_in_place(
    device: &Arc<Device>,
    b: &mut Buffer,
    offset: u64,
    length: u64,
    access: u32,
) -> GlResult<*mut u8> {
    let h = b
        .storage
        .ok_or_else(|| GlError::InvalidOperation("buffer has no storage".into()))?;
    let mut locked = device.lock();
    let synchronized = access & (GL_MAP_PERSISTENT_BIT | GL_MAP_UNSYNCHRONIZED_BIT) == 0;
    if synchronized {
        let last_use = locked.manager.buffer_info(h)?.last_use;
        if last_use > locked.manager.completed_epoch() {
            locked.manager.host_read_barrier()?;
            crate::gl::context::error::until_done(|| locked.manager.wait_epoch(last_use))?;
        }
    }
    let mapping = locked
        .manager
        .buffer_host_mapping(h)?
        .ok_or_else(|| GlError::InvalidOperation("persistent storage lost its mapping".into()))?;
    if offset
        .checked_add(length)
        .is_none_or(|end| end > mapping.len as u64)
    {
        return Err(GlError::InvalidOperation(
            "map range past the storage's mapping".into(),
        ));
    }
    if access & GL_MAP_READ_BIT != 0 {
        locked.manager.invalidate_buffer_range(h, offset, length)?;
    }
    b.mapping = Some(Mapping {
        offset,
        length,
        access,
        data: crate::gl::objects::buffer::aligned::MapCopy::empty(),
        flushed: Vec::new(),
        direct: true,
    });
    // SAFETY: `offset + length` lies inside the live mapping (checked above); the pointer is
    // only offset here, never dereferenced.
    Ok(unsafe { mapping.ptr.as_ptr().add(offset as usize) })
}
