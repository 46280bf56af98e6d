//! Storage-buffer and atomic-counter-buffer binding points, and the storage-buffer descriptors
//! of the program a draw or dispatch runs.
//!
//! Design decisions:
//! - Both binding tables are GL's indexed bindings (`IndexedBinding`, as for uniform buffers);
//!   `glBindBufferBase/Range` also set the generic binding of the target.
//! - A descriptor covers the bound range clamped to the buffer and to `maxStorageBufferRange`;
//!   a block whose binding has no buffer (or an empty range) is `GL_INVALID_OPERATION` at the
//!   draw or dispatch (GL leaves it undefined; Vulkan needs a buffer).
//! - A buffer bound to a block the program may write loses its CPU shadow here: the shadow
//!   would answer reads with bytes the shader has since overwritten.

use ash::vk;

use crate::gl::compute::{MAX_ATOMIC_BINDINGS, MAX_STORAGE_BINDINGS};
use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_op, invalid_value, GlResult};
use crate::gl::context::{Context, IndexedBinding};
use crate::gl::draw::descriptors::BufferInfos;
use crate::gl::draw::validate::DrawProgram;
use crate::gl::objects::buffer::Buffer;
use crate::gl::objects::program::Linked;
use crate::gl::vk::device::Locked;

/// The context's storage-buffer and atomic-counter-buffer binding points.
#[derive(Debug, Clone, Default)]
pub(crate) struct ComputeState {
    pub storage: [IndexedBinding; MAX_STORAGE_BINDINGS],
    pub atomic: [IndexedBinding; MAX_ATOMIC_BINDINGS],
    /// Image units (`image_unit`).
    pub images: [crate::gl::compute::image_unit::ImageUnit;
        crate::gl::compute::image_unit::MAX_IMAGE_UNITS],
}

impl ComputeState {
    /// The binding table of `target` (`GL_SHADER_STORAGE_BUFFER`, `GL_ATOMIC_COUNTER_BUFFER`).
    pub(crate) fn table_mut(&mut self, target: GLenum) -> Option<&mut [IndexedBinding]> {
        match target {
            GL_SHADER_STORAGE_BUFFER => Some(&mut self.storage),
            GL_ATOMIC_COUNTER_BUFFER => Some(&mut self.atomic),
            _ => None,
        }
    }

    fn table(&self, target: GLenum) -> Option<&[IndexedBinding]> {
        match target {
            GL_SHADER_STORAGE_BUFFER => Some(&self.storage),
            GL_ATOMIC_COUNTER_BUFFER => Some(&self.atomic),
            _ => None,
        }
    }

    /// Unbinds buffer `name` everywhere (`glDeleteBuffers`).
    pub(crate) fn forget_buffer(&mut self, name: u32) {
        for b in self.storage.iter_mut().chain(self.atomic.iter_mut()) {
            if b.buffer == name {
                *b = IndexedBinding::default();
            }
        }
    }

    /// Whether buffer `name` is bound to any of these points.
    pub(crate) fn names_buffer(&self, name: u32) -> bool {
        self.storage
            .iter()
            .chain(self.atomic.iter())
            .any(|b| b.buffer == name)
    }
}

/// The binding point of each storage-block element of `linked` after its link.
pub(crate) fn initial_storage_bindings(linked: &Linked) -> Vec<u32> {
    linked
        .storage_blocks
        .iter()
        .flat_map(|b| (0..b.count).map(move |i| b.initial_binding + i))
        .collect()
}

impl Context {
    /// Whether `target` is an indexed target of this module.
    pub(crate) fn is_storage_target(target: GLenum) -> bool {
        matches!(target, GL_SHADER_STORAGE_BUFFER | GL_ATOMIC_COUNTER_BUFFER)
    }

    /// `glBindBufferRange` / `glBindBufferBase` for `GL_SHADER_STORAGE_BUFFER` and
    /// `GL_ATOMIC_COUNTER_BUFFER` (the caller checked the target).
    pub(crate) fn bind_storage_range(
        &mut self,
        target: GLenum,
        index: u32,
        name: u32,
        range: Option<(i64, i64)>,
    ) -> GlResult<()> {
        let count = self.compute.table(target).map_or(0, <[_]>::len);
        if index as usize >= count {
            return invalid_value(format!("buffer binding {index} of 0x{target:04X}"));
        }
        if let (Some((offset, size)), true) = (range, name != 0) {
            if offset < 0 || size <= 0 {
                return invalid_value(format!("glBindBufferRange offset {offset} size {size}"));
            }
            let align = match target {
                GL_SHADER_STORAGE_BUFFER => self.storage_offset_alignment(),
                _ => 4,
            };
            if offset % align != 0 {
                return invalid_value(format!(
                    "offset {offset} is not a multiple of the target's alignment ({align})"
                ));
            }
        }
        if name != 0 && self.buffers.get_or_create(name, Buffer::new).is_none() {
            return invalid_op(format!("{name} is not a name from glGenBuffers"));
        }
        let (offset, size) = range.map_or((0, 0), |(o, s)| (o as u64, s as u64));
        if let Some(table) = self.compute.table_mut(target) {
            table[index as usize] = IndexedBinding {
                buffer: name,
                offset: if name == 0 { 0 } else { offset },
                size: if name == 0 { 0 } else { size },
            };
        }
        self.generic_bindings.insert(target, name);
        Ok(())
    }

    /// `GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT`.
    pub(crate) fn storage_offset_alignment(&self) -> i64 {
        (self
            .device
            .caps()
            .limits
            .min_storage_buffer_offset_alignment as i64)
            .max(1)
    }

    /// The binding `index` of `target`, for `glGetIntegeri_v` (None: not this module's pname).
    pub(crate) fn storage_binding(&self, target: GLenum, index: u32) -> Option<IndexedBinding> {
        self.compute
            .table(target)
            .and_then(|t| t.get(index as usize))
            .copied()
    }

    /// `glShaderStorageBlockBinding`.
    pub fn shader_storage_block_binding(&mut self, program: u32, index: u32, binding: u32) {
        let r = (|| {
            if binding as usize >= MAX_STORAGE_BINDINGS {
                return invalid_value(format!("shader storage binding {binding}"));
            }
            let p = self.program_mut(program)?;
            let linked = p.linked("glShaderStorageBlockBinding")?.clone();
            let Some(slot) = storage_block_slot(&linked, index) else {
                return invalid_value(format!("shader storage block index {index}"));
            };
            if let Some(b) = p.storage_bindings.get_mut(slot) {
                *b = binding;
            }
            Ok(())
        })();
        self.record(r);
    }

    /// The storage-buffer descriptors of `program`'s storage and atomic-counter blocks, per
    /// binding (each element's bound range), every buffer used for the recording epoch.
    pub(crate) fn storage_descriptors(
        &mut self,
        locked: &mut Locked,
        program: &DrawProgram,
    ) -> GlResult<BufferInfos> {
        let max_range = u64::from(self.device.caps().limits.max_storage_buffer_range);
        let mut out: BufferInfos = Vec::new();
        let mut element = 0usize;
        for b in &program.linked.storage_blocks {
            let mut infos = Vec::with_capacity(b.count as usize);
            for _ in 0..b.count {
                let point = program.storage_bindings.get(element).copied().unwrap_or(0);
                element += 1;
                let target = if b.atomic_binding.is_some() {
                    GL_ATOMIC_COUNTER_BUFFER
                } else {
                    GL_SHADER_STORAGE_BUFFER
                };
                let ib = self.storage_binding(target, point).unwrap_or_default();
                let (handle, offset, range) = self.storage_range(&b.name, point, ib)?;
                infos.push(vk::DescriptorBufferInfo {
                    buffer: locked.manager.use_buffer(handle)?.raw(),
                    offset,
                    range: range.min(max_range),
                });
            }
            out.push((b.binding, infos));
        }
        Ok(out)
    }

    /// The storage and range binding `ib` gives block `name`; the buffer loses its shadow (a
    /// shader may write it).
    fn storage_range(
        &mut self,
        name: &str,
        point: u32,
        ib: IndexedBinding,
    ) -> GlResult<(arenagl_memory::BufferHandle, u64, u64)> {
        let buffer = self.buffers.get_mut(ib.buffer).filter(|_| ib.buffer != 0);
        let Some(buffer) = buffer.filter(|b| b.storage.is_some()) else {
            return invalid_op(format!(
                "storage block {name} reads binding {point}, which has no buffer"
            ));
        };
        let avail = buffer.size.saturating_sub(ib.offset);
        let range = if ib.size == 0 {
            avail
        } else {
            ib.size.min(avail)
        };
        if range == 0 {
            return invalid_op(format!(
                "storage block {name} reads binding {point}, whose range is empty"
            ));
        }
        buffer.shadow = None;
        let handle = buffer.storage.ok_or_else(|| {
            crate::gl::context::error::GlError::InvalidOperation("buffer without storage".into())
        })?;
        Ok((handle, ib.offset, range))
    }
}

/// The index into `Program::storage_bindings` of GL storage block `index` of `linked` (atomic-
/// counter blocks are not GL storage blocks and take no index).
pub(crate) fn storage_block_slot(linked: &Linked, index: u32) -> Option<usize> {
    let mut gl_index = 0u32;
    let mut slot = 0usize;
    for b in &linked.storage_blocks {
        if b.atomic_binding.is_none() && index >= gl_index && index < gl_index + b.count {
            return Some(slot + (index - gl_index) as usize);
        }
        if b.atomic_binding.is_none() {
            gl_index += b.count;
        }
        slot += b.count as usize;
    }
    None
}
