//! Buffer entry points: names and binding (indexed uniform bindings too), data and sub-data,
//! maps, copies and parameter queries. Immutable storage is in `storage`; the vertex-array
//! entry points are in `vertex_array::api`.

use crate::gl::context::enums::*;
use crate::gl::context::error::{
    gen_count, invalid_enum, invalid_op, invalid_value, GlError, GlResult,
};
use crate::gl::context::{Context, MAX_UNIFORM_BUFFER_BINDINGS};
use crate::gl::objects::buffer::{storage_desc, Buffer, Mapping};

fn is_buffer_target(target: GLenum) -> bool {
    matches!(
        target,
        GL_ARRAY_BUFFER
            | GL_ELEMENT_ARRAY_BUFFER
            | GL_PIXEL_PACK_BUFFER
            | GL_PIXEL_UNPACK_BUFFER
            | GL_UNIFORM_BUFFER
            | GL_TEXTURE_BUFFER
            | GL_TRANSFORM_FEEDBACK_BUFFER
            | GL_COPY_READ_BUFFER
            | GL_COPY_WRITE_BUFFER
            | GL_DRAW_INDIRECT_BUFFER
            | GL_PARAMETER_BUFFER
            | GL_SHADER_STORAGE_BUFFER
            | GL_ATOMIC_COUNTER_BUFFER
            | GL_DISPATCH_INDIRECT_BUFFER
            | GL_QUERY_BUFFER
    )
}

impl Context {
    /// The name bound to a buffer target, or the buffer a DSA command names for it (`dsa`);
    /// `GL_INVALID_ENUM` for unknown targets.
    pub(crate) fn bound_buffer(&self, target: GLenum) -> GlResult<u32> {
        if !is_buffer_target(target) {
            return invalid_enum("buffer target", target);
        }
        if let Some(name) = self.dsa.buffer_for(target) {
            return Ok(name);
        }
        Ok(match target {
            GL_ARRAY_BUFFER => self.array_buffer,
            GL_ELEMENT_ARRAY_BUFFER => {
                let vao = self.element_vao();
                if vao.element_retained.is_some() {
                    // Its name may name another buffer by now: refuse rather than act on that.
                    return invalid_op(
                        "the element array buffer of the bound vertex array was deleted (it only feeds draws)",
                    );
                }
                vao.element_buffer
            }
            t => self.generic_bindings.get(&t).copied().unwrap_or(0),
        })
    }

    pub(crate) fn target_buffer(
        &mut self,
        target: GLenum,
        call: &str,
    ) -> GlResult<(u32, &mut Buffer)> {
        let name = self.bound_buffer(target)?;
        if name == 0 {
            return invalid_op(format!("{call}: no buffer bound to 0x{target:04X}"));
        }
        let b = self.buffers.get_mut(name).ok_or_else(|| {
            GlError::InvalidOperation(format!("{call}: bound buffer {name} is gone"))
        })?;
        Ok((name, b))
    }

    /// The buffer bound to `target` that `glBufferSubData`/`glGetBufferSubData` (`call`)
    /// writes or reads `len` bytes of at `offset`, after the checks they share: the range lies
    /// inside the buffer and the buffer is not mapped.
    fn sub_data_buffer(
        &mut self,
        target: GLenum,
        call: &str,
        offset: i64,
        len: usize,
    ) -> GlResult<&mut Buffer> {
        if offset < 0 {
            return invalid_value(format!("{call} offset {offset}"));
        }
        let (_, b) = self.target_buffer(target, call)?;
        if !range_inside(offset, len as i64, b.size) {
            return invalid_value(format!(
                "{call}: {len} bytes at {offset} past the end of a {}-byte buffer",
                b.size
            ));
        }
        if b.mapped_exclusively() {
            return invalid_op(format!("{call} on a mapped buffer"));
        }
        Ok(b)
    }

    /// `glGenBuffers`.
    pub fn gen_buffers(&mut self, n: i32) -> Vec<u32> {
        let r = gen_count("glGenBuffers", n).map(|n| self.buffers.generate(n));
        self.record(r).unwrap_or_default()
    }

    /// `glIsBuffer`.
    pub fn is_buffer(&self, name: u32) -> bool {
        self.buffers.exists(name)
    }

    /// `glBindBuffer`.
    pub fn bind_buffer(&mut self, target: GLenum, name: u32) {
        let r = (|| {
            if !is_buffer_target(target) {
                return invalid_enum("glBindBuffer target", target);
            }
            if name != 0 && self.buffers.get_or_create(name, Buffer::new).is_none() {
                return invalid_op(format!(
                    "glBindBuffer: {name} is not a name from glGenBuffers"
                ));
            }
            match target {
                GL_ARRAY_BUFFER => self.array_buffer = name,
                GL_ELEMENT_ARRAY_BUFFER => {
                    let vao = self.element_vao_mut();
                    vao.element_buffer = name;
                    vao.element_retained = None;
                }
                t => {
                    self.generic_bindings.insert(t, name);
                }
            }
            Ok(())
        })();
        self.record(r);
    }

    /// `glBindBufferRange` / `glBindBufferBase` (size 0 with offset 0).
    pub fn bind_buffer_range(
        &mut self,
        target: GLenum,
        index: u32,
        name: u32,
        offset: i64,
        size: i64,
        whole: bool,
    ) {
        let r = self.bind_indexed_buffer(target, index, name, offset, size, whole);
        self.record(r);
    }

    /// [`Context::bind_buffer_range`] without recording the error (`glBindBuffersBase`/`Range`
    /// run it once per binding, `objects::multi_bind`).
    pub(crate) fn bind_indexed_buffer(
        &mut self,
        target: GLenum,
        index: u32,
        name: u32,
        offset: i64,
        size: i64,
        whole: bool,
    ) -> GlResult<()> {
        (|| {
            if Context::is_storage_target(target) {
                let range = (!whole).then_some((offset, size));
                return self.bind_storage_range(target, index, name, range);
            }
            if target == GL_TRANSFORM_FEEDBACK_BUFFER {
                return self.bind_feedback_buffer(index, name, offset, size, whole);
            }
            if target != GL_UNIFORM_BUFFER {
                if matches!(
                    target,
                    GL_TRANSFORM_FEEDBACK_BUFFER
                        | GL_SHADER_STORAGE_BUFFER
                        | GL_ATOMIC_COUNTER_BUFFER
                ) {
                    return invalid_op("indexed transform-feedback/storage buffers are not supported by this GL yet");
                }
                return invalid_enum("glBindBufferRange target", target);
            }
            if index as usize >= MAX_UNIFORM_BUFFER_BINDINGS {
                return invalid_value(format!("uniform buffer binding {index}"));
            }
            if !whole && name != 0 {
                if offset < 0 || size <= 0 {
                    return invalid_value(format!("glBindBufferRange offset {offset} size {size}"));
                }
                let align = self
                    .device
                    .caps()
                    .limits
                    .min_uniform_buffer_offset_alignment as i64;
                if offset % align.max(1) != 0 {
                    return invalid_value(format!("offset {offset} not a multiple of GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT ({align})"));
                }
            }
            if name != 0 && self.buffers.get_or_create(name, Buffer::new).is_none() {
                return invalid_op(format!("{name} is not a name from glGenBuffers"));
            }
            self.uniform_bindings[index as usize] = crate::gl::context::IndexedBinding {
                buffer: name,
                offset: if whole { 0 } else { offset as u64 },
                size: if whole { 0 } else { size as u64 },
            };
            self.generic_bindings.insert(GL_UNIFORM_BUFFER, name);
            Ok(())
        })()
    }

    /// `glDeleteBuffers`.
    pub fn delete_buffers(&mut self, names: &[u32]) {
        let device = self.device.clone();
        for &name in names {
            if name == 0 || !self.buffers.is_reserved(name) {
                continue;
            }
            if self.array_buffer == name {
                self.array_buffer = 0;
            }
            // The bound vertex array lets go of it (with none bound, the context's own holds
            // the element binding).
            let vao = self.element_vao_mut();
            if vao.element_buffer == name && vao.element_retained.is_none() {
                vao.element_buffer = 0;
            }
            vao.rename_buffer(name, 0);
            self.generic_bindings.retain(|_, b| *b != name);
            self.detach_buffer_from_textures(name);
            for b in self.uniform_bindings.iter_mut() {
                if b.buffer == name {
                    *b = Default::default();
                }
            }
            self.compute.forget_buffer(name);
            if self.shares_objects() {
                self.bury(crate::gl::context::share_group::SharedKind::Buffer, name);
                continue;
            }
            let kept = self
                .buffers
                .remove(name)
                .and_then(|b| self.retain_in_unbound_vaos(name, b));
            if let Some(h) = kept.and_then(|b| b.storage) {
                let _ = device.lock().manager.retire_buffer(h);
            }
        }
    }

    /// Hands `buffer`, just deleted as `name`, to the vertex arrays that are not bound and
    /// still name it: GL keeps a deleted object alive while a container holds it. Returns the
    /// buffer when none does (its storage is then retired).
    fn retain_in_unbound_vaos(&mut self, name: u32, buffer: Buffer) -> Option<Buffer> {
        let bound = self.vertex_array;
        let mut holders: Vec<u32> = self
            .vertex_arrays
            .created()
            .into_iter()
            .filter(|&v| v != bound)
            .filter(|&v| {
                self.vertex_arrays
                    .get(v)
                    .is_some_and(|a| a.names_buffer(name))
            })
            .collect();
        // With a named vertex array bound, the context's own (compatibility) one is unbound.
        let default_holds = bound != 0 && self.default_vertex_array.names_buffer(name);
        if holders.is_empty() && !default_holds {
            return Some(buffer);
        }
        let kept =
            crate::gl::objects::buffer::RetainedBuffer::new(name, buffer, self.device.clone());
        for v in holders.drain(..) {
            if let Some(vao) = self.vertex_arrays.get_mut(v) {
                std::sync::Arc::make_mut(vao).retain(&kept);
            }
        }
        if default_holds {
            std::sync::Arc::make_mut(&mut self.default_vertex_array).retain(&kept);
        }
        None
    }

    /// `glBufferData`.
    pub fn buffer_data(&mut self, target: GLenum, size: i64, data: Option<&[u8]>, usage: GLenum) {
        let device = self.device.clone();
        let r = (|| {
            if size < 0 {
                return invalid_value(format!("glBufferData size {size}"));
            }
            if !(GL_STREAM_DRAW..=GL_DYNAMIC_COPY).contains(&usage)
                || usage == 0x88E3
                || usage == 0x88E7
            {
                return invalid_enum("glBufferData usage", usage);
            }
            let (_, b) = self.target_buffer(target, "glBufferData")?;
            if b.immutable {
                return invalid_op("glBufferData on immutable storage (glBufferStorage)");
            }
            if b.mapping.is_some() {
                // Respecifying a mapped buffer unmaps it.
                b.mapping = None;
            }
            let mut locked = device.lock();
            b.shadow = (size as u64 <= crate::gl::objects::buffer::SHADOW_LIMIT).then(|| {
                crate::gl::objects::buffer::Shadow::new(match data {
                    Some(d) => d[..size as usize].to_vec(),
                    None => vec![0; size as usize],
                })
            });
            let new = if size > 0 {
                let h = locked.manager.create_buffer(&storage_desc(size as u64))?;
                if let Some(d) = data {
                    if let Err(e) = locked.manager.upload_buffer(h, 0, &d[..size as usize]) {
                        let _ = locked.manager.retire_buffer(h);
                        return Err(e.into());
                    }
                }
                Some(h)
            } else {
                None
            };
            if let Some(old) = std::mem::replace(&mut b.storage, new) {
                let _ = locked.manager.retire_buffer(old);
            }
            b.size = size as u64;
            b.usage = usage;
            // What GL 4.4 reports for mutable storage.
            b.storage_flags = GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_DYNAMIC_STORAGE_BIT;
            Ok(())
        })();
        self.record(r);
    }

    /// `glBufferSubData`.
    pub fn buffer_sub_data(&mut self, target: GLenum, offset: i64, data: &[u8]) {
        let device = self.device.clone();
        let r = (|| {
            let b = self.sub_data_buffer(target, "glBufferSubData", offset, data.len())?;
            if b.immutable && b.storage_flags & GL_DYNAMIC_STORAGE_BIT == 0 {
                return invalid_op(
                    "glBufferSubData on immutable storage without GL_DYNAMIC_STORAGE_BIT",
                );
            }
            if data.is_empty() {
                return Ok(());
            }
            write_range(&device, b, offset as u64, data)
        })();
        self.record(r);
    }

    /// `glGetBufferSubData`.
    pub fn get_buffer_sub_data(&mut self, target: GLenum, offset: i64, out: &mut [u8]) {
        let device = self.device.clone();
        let r = (|| {
            let b = self.sub_data_buffer(target, "glGetBufferSubData", offset, out.len())?;
            read_range(&device, b, offset as u64, out)
        })();
        self.record(r);
        self.rewind_idle_staging();
    }

    /// `glMapBufferRange`: a pointer to a client-side copy, valid until unmap.
    pub fn map_buffer_range(
        &mut self,
        target: GLenum,
        offset: i64,
        length: i64,
        access: u32,
    ) -> *mut u8 {
        let device = self.device.clone();
        let r = (|| {
            let (_, b) = self.target_buffer(target, "glMapBufferRange")?;
            let allowed = GL_MAP_READ_BIT
                | GL_MAP_WRITE_BIT
                | GL_MAP_INVALIDATE_RANGE_BIT
                | GL_MAP_INVALIDATE_BUFFER_BIT
                | GL_MAP_FLUSH_EXPLICIT_BIT
                | GL_MAP_UNSYNCHRONIZED_BIT
                | GL_MAP_PERSISTENT_BIT
                | GL_MAP_COHERENT_BIT;
            if offset < 0
                || length <= 0
                || !range_inside(offset, length, b.size)
                || access & !allowed != 0
            {
                return invalid_value(format!(
                    "glMapBufferRange offset {offset} length {length} access 0x{access:x}"
                ));
            }
            let read = access & GL_MAP_READ_BIT != 0;
            let write = access & GL_MAP_WRITE_BIT != 0;
            if !read && !write
                || read
                    && access
                        & (GL_MAP_INVALIDATE_RANGE_BIT
                            | GL_MAP_INVALIDATE_BUFFER_BIT
                            | GL_MAP_UNSYNCHRONIZED_BIT)
                        != 0
                || access & GL_MAP_FLUSH_EXPLICIT_BIT != 0 && !write
            {
                return invalid_op(format!("glMapBufferRange access 0x{access:x}"));
            }
            if b.mapping.is_some() {
                return invalid_op("the buffer is already mapped");
            }
            // GL_ARB_buffer_storage: what the storage was not made for cannot be mapped
            // (mutable storage allows reads and writes, never persistence).
            let storage_bits =
                GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
            let missing = access & storage_bits & !b.storage_flags;
            if missing != 0 {
                return invalid_op(format!(
                    "glMapBufferRange access 0x{missing:x} the buffer's storage flags (0x{:x}) lack",
                    b.storage_flags
                ));
            }
            if b.persistent() {
                let ptr = crate::gl::objects::buffer::storage::map_in_place(
                    &device,
                    b,
                    offset as u64,
                    length as u64,
                    access,
                )?;
                return Ok(ptr);
            }
            // The client copy is as large as the mapping: refuse rather than abort when the
            // process cannot hold it.
            let mut data = crate::gl::objects::buffer::aligned::MapCopy::zeroed(
                offset as u64,
                length as usize,
            )
            .map_err(|_| {
                GlError::Memory(arenagl_memory::MemoryError::InvalidRequest(format!(
                    "no host memory for a {length}-byte mapping"
                )))
            })?;
            let invalidate =
                access & (GL_MAP_INVALIDATE_RANGE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT) != 0;
            if !invalidate {
                // Writers that do not invalidate keep the bytes they do not touch: read back.
                if let Some(shadow) = &b.shadow {
                    data.copy_from_slice(&shadow[offset as usize..(offset + length) as usize]);
                } else if let Some(h) = b.storage {
                    let mut locked = device.lock();
                    crate::gl::context::error::until_done(|| {
                        locked
                            .manager
                            .read_buffer_range(h, offset as u64, &mut data)
                    })?;
                }
            }
            b.mapping = Some(Mapping {
                offset: offset as u64,
                length: length as u64,
                access,
                data,
                flushed: Vec::new(),
                direct: false,
            });
            Ok(b.mapping
                .as_mut()
                .map_or(std::ptr::null_mut(), |m| m.data.as_mut_ptr()))
        })();
        self.record(r).unwrap_or(std::ptr::null_mut())
    }

    /// `glFlushMappedBufferRange`.
    pub fn flush_mapped_buffer_range(&mut self, target: GLenum, offset: i64, length: i64) {
        let device = self.device.clone();
        let r = (|| {
            let (_, b) = self.target_buffer(target, "glFlushMappedBufferRange")?;
            let Some(m) = b.mapping.as_mut() else {
                return invalid_op("the buffer is not mapped");
            };
            if m.access & GL_MAP_FLUSH_EXPLICIT_BIT == 0 {
                return invalid_op("the mapping was not made with GL_MAP_FLUSH_EXPLICIT_BIT");
            }
            if offset < 0 || length < 0 || !range_inside(offset, length, m.length) {
                return invalid_value("flush range outside the mapping");
            }
            m.flushed.push((offset as u64, length as u64));
            let at = m.offset + offset as u64;
            if m.direct {
                if let Some(h) = b.storage {
                    device
                        .lock()
                        .manager
                        .flush_buffer_range(h, at, length as u64)?;
                }
                return Ok(());
            }
            let bytes = m.data[offset as usize..(offset + length) as usize].to_vec();
            if length > 0 && b.storage.is_some() {
                write_range(&device, b, at, &bytes)?;
            }
            Ok(())
        })();
        self.record(r);
    }

    /// `glUnmapBuffer`.
    pub fn unmap_buffer(&mut self, target: GLenum) -> bool {
        let device = self.device.clone();
        let r = (|| {
            let (_, b) = self.target_buffer(target, "glUnmapBuffer")?;
            let Some(m) = b.mapping.take() else {
                return invalid_op("the buffer is not mapped");
            };
            let write = m.access & GL_MAP_WRITE_BIT != 0;
            let explicit = m.access & GL_MAP_FLUSH_EXPLICIT_BIT != 0;
            if m.direct {
                if let (Some(h), true, false) = (b.storage, write, explicit) {
                    device
                        .lock()
                        .manager
                        .flush_buffer_range(h, m.offset, m.length)?;
                }
                return Ok(true);
            }
            if b.storage.is_some() && write && !explicit {
                write_range(&device, b, m.offset, &m.data)?;
            }
            Ok(true)
        })();
        self.record(r).unwrap_or(false)
    }

    /// `glCopyBufferSubData`.
    pub fn copy_buffer_sub_data(
        &mut self,
        read: GLenum,
        write: GLenum,
        read_off: i64,
        write_off: i64,
        size: i64,
    ) {
        let device = self.device.clone();
        let r = (|| {
            let src_name = self.bound_buffer(read)?;
            let dst_name = self.bound_buffer(write)?;
            let (src, dst) = match (self.buffers.get(src_name), self.buffers.get(dst_name)) {
                (Some(s), Some(d)) if src_name != 0 && dst_name != 0 => (s, d),
                _ => return invalid_op("glCopyBufferSubData: no buffer bound to a target"),
            };
            if read_off < 0
                || write_off < 0
                || size < 0
                || !range_inside(read_off, size, src.size)
                || !range_inside(write_off, size, dst.size)
            {
                return invalid_value(format!(
                    "glCopyBufferSubData range out of bounds (read {read_off}, write \
                     {write_off}, size {size}; buffers of {} and {} bytes)",
                    src.size, dst.size
                ));
            }
            if src_name == dst_name && (read_off - write_off).abs() < size {
                return invalid_value("glCopyBufferSubData ranges overlap");
            }
            if src.mapped_exclusively() || dst.mapped_exclusively() {
                return invalid_op("glCopyBufferSubData on a mapped buffer");
            }
            if size == 0 {
                return Ok(());
            }
            let (Some(s), Some(d)) = (src.storage, dst.storage) else {
                return Ok(());
            };
            // Both shadowed: the CPU knows the bytes, so the copy is a shadowed write (no
            // transfer in the command stream). Otherwise the GPU copies and the destination's
            // shadow no longer knows its contents.
            let known = match (&src.shadow, dst.shadow.is_some()) {
                (Some(shadow), true) => {
                    Some(shadow[read_off as usize..(read_off + size) as usize].to_vec())
                }
                _ => None,
            };
            let dst = self
                .buffers
                .get_mut(dst_name)
                .ok_or_else(|| GlError::InvalidOperation("destination buffer gone".into()))?;
            if let Some(bytes) = known {
                return write_range(&device, dst, write_off as u64, &bytes);
            }
            dst.shadow = None;
            device.lock().manager.copy_buffer(
                s,
                read_off as u64,
                d,
                write_off as u64,
                size as u64,
            )?;
            Ok(())
        })();
        self.record(r);
    }

    /// `glGetBufferParameteri64v`.
    pub fn get_buffer_parameter(&mut self, target: GLenum, pname: GLenum) -> i64 {
        let r = (|| {
            let (_, b) = self.target_buffer(target, "glGetBufferParameteriv")?;
            Ok(match pname {
                GL_BUFFER_SIZE => b.size as i64,
                GL_BUFFER_USAGE => i64::from(b.usage),
                GL_BUFFER_MAPPED => i64::from(b.mapping.is_some()),
                GL_BUFFER_ACCESS_FLAGS => b.mapping.as_ref().map_or(0, |m| i64::from(m.access)),
                GL_BUFFER_MAP_LENGTH => b.mapping.as_ref().map_or(0, |m| m.length as i64),
                GL_BUFFER_MAP_OFFSET => b.mapping.as_ref().map_or(0, |m| m.offset as i64),
                GL_BUFFER_ACCESS => i64::from(GL_READ_WRITE),
                GL_BUFFER_IMMUTABLE_STORAGE => i64::from(b.immutable),
                GL_BUFFER_STORAGE_FLAGS => i64::from(b.storage_flags),
                p => return invalid_enum("glGetBufferParameteriv pname", p),
            })
        })();
        self.record(r).unwrap_or(0)
    }
}

/// Whether `offset..offset + size` lies inside `0..len` (the end computed without overflow:
/// an end past `i64::MAX` is outside every buffer). Negative values are the caller's to refuse
/// first; they are outside here too.
pub(crate) fn range_inside(offset: i64, size: i64, len: u64) -> bool {
    offset >= 0
        && size >= 0
        && offset
            .checked_add(size)
            .is_some_and(|end| end as u64 <= len)
}

/// Reads `out.len()` bytes at `offset` (a range already checked against the size) from the
/// shadow or, without one, back from device memory.
pub(crate) fn read_range(
    device: &std::sync::Arc<crate::gl::vk::device::Device>,
    b: &Buffer,
    offset: u64,
    out: &mut [u8],
) -> GlResult<()> {
    if let Some(shadow) = &b.shadow {
        let range = offset as usize..offset as usize + out.len();
        let src = shadow
            .get(range)
            .ok_or_else(|| GlError::InvalidValue("range outside the buffer".into()))?;
        out.copy_from_slice(src);
    } else if let (Some(h), false) = (b.storage, out.is_empty()) {
        let mut locked = device.lock();
        crate::gl::context::error::until_done(|| locked.manager.read_buffer_range(h, offset, out))?;
    }
    Ok(())
}

/// Writes `data` at `offset` of `b`'s storage: a small buffer the GPU still reads is renamed
/// (fresh storage takes the updated shadow by a direct write; see `buffer`), anything else goes
/// through the manager's `upload_buffer` (direct when idle, staged otherwise).
pub(crate) fn write_range(
    device: &std::sync::Arc<crate::gl::vk::device::Device>,
    b: &mut Buffer,
    offset: u64,
    data: &[u8],
) -> GlResult<()> {
    let h = b
        .storage
        .ok_or_else(|| GlError::InvalidOperation("buffer has no storage".into()))?;
    let mut locked = device.lock();
    let Some(shadow) = b.shadow.as_mut() else {
        locked.manager.upload_buffer(h, offset, data)?;
        return Ok(());
    };
    let range = offset as usize..offset as usize + data.len();
    shadow
        .get_mut(range)
        .ok_or_else(|| GlError::InvalidValue("range outside the buffer".into()))?
        .copy_from_slice(data);
    locked.manager.poll()?;
    let busy = locked.manager.buffer_info(h)?.last_use > locked.manager.completed_epoch();
    if !busy {
        locked.manager.upload_buffer(h, offset, data)?;
        return Ok(());
    }
    let renamed = locked.manager.create_buffer(&storage_desc(b.size))?;
    if let Err(e) = locked.manager.upload_buffer(renamed, 0, shadow) {
        let _ = locked.manager.retire_buffer(renamed);
        return Err(e.into());
    }
    locked.manager.retire_buffer(h)?;
    b.storage = Some(renamed);
    Ok(())
}
