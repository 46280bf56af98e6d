//! The bytes of vertex arrays and indices a draw reads on the CPU: client memory (the
//! compatibility profile's arrays and indices in application memory), buffer shadows, and
//! read-backs from the GPU, with the conversions Vulkan's vertex formats need (32-bit integers
//! and doubles to floats, misaligned arrays repacked).
//!
//! Design decisions:
//! - Client memory is copied only up to the last element the draw reads (`last_element`), and
//!   at most `MAX_CLIENT_ARRAY_BYTES` per array; more is `GL_OUT_OF_MEMORY`.
//! - A buffer's CPU shadow is preferred; without one the bytes are read back from the GPU, a
//!   stall on a path GL programs rarely take.
//! - A buffer deleted while a vertex array holds it still feeds that array's draws
//!   (`vao_buffer`, `element_buffer_of`).

use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_op, GlError, GlResult};
use crate::gl::context::{Context, Profile};
use crate::gl::draw::DrawCall;
use crate::gl::objects::buffer::Buffer;
use crate::gl::objects::vertex_array::{pack_components, VertexArray};

/// The most bytes one client array copies per draw.
const MAX_CLIENT_ARRAY_BYTES: u64 = 256 << 20;

pub(super) fn too_large(what: String) -> GlError {
    GlError::Memory(arenagl_memory::MemoryError::InvalidRequest(what))
}

/// The bytes of client array `arr` up to element `last` (the compatibility profile's vertex
/// arrays in application memory).
pub(super) fn client_array_bytes(
    arr: &crate::gl::objects::vertex_array::AttribArray,
    last: u32,
) -> GlResult<Vec<u8>> {
    let element = arr.element_size();
    let len = u64::from(last) * u64::from(arr.effective_stride()) + u64::from(element);
    if arr.offset == 0 {
        return invalid_op("a client vertex array with a null pointer");
    }
    if len > MAX_CLIENT_ARRAY_BYTES {
        return Err(too_large(format!("a client vertex array of {len} bytes")));
    }
    // SAFETY: a client array is application memory that GL requires to hold every element the
    // draw reads (GL 3.3 compatibility §2.8) until the draw call returns; `len` covers exactly
    // the elements up to `last`, the largest index this draw reads, and it is copied out here.
    let bytes =
        unsafe { std::slice::from_raw_parts(arr.offset as usize as *const u8, len as usize) };
    Ok(bytes.to_vec())
}

/// The last element of `arr` `call` reads: per instance (from its base instance), or up to
/// `max_vertex`.
pub(super) fn last_element(
    arr: &crate::gl::objects::vertex_array::AttribArray,
    call: &DrawCall,
    max_vertex: u32,
) -> u32 {
    (call.instances.max(1) as u32 - 1)
        .checked_div(arr.divisor)
        .map_or(max_vertex, |i| i.saturating_add(call.base_instance))
}

/// A client array Vulkan has no vertex format for (32-bit integers read as floats, doubles),
/// converted to tightly packed `f32`s: (bytes, stride, format). None for other types.
pub(super) fn client_array_floats(
    arr: &crate::gl::objects::vertex_array::AttribArray,
    last: u32,
) -> Option<GlResult<(Vec<u8>, u32, vk::Format)>> {
    needs_float_conversion(arr)?;
    Some(client_array_bytes(arr, last).and_then(|raw| to_floats(arr, &raw, last)))
}

/// Bytes per component of an array Vulkan cannot read directly (None: it can, or never).
pub(super) fn needs_float_conversion(
    arr: &crate::gl::objects::vertex_array::AttribArray,
) -> Option<usize> {
    match arr.ty {
        GL_INT | GL_UNSIGNED_INT if !arr.integer => Some(4),
        // GL_ARB_ES2_compatibility's 16.16 fixed point, which Vulkan has no format for.
        GL_FIXED => Some(4),
        // `glVertexAttribLPointer` doubles are read as they are (`vertex_array::long`).
        GL_DOUBLE if !arr.long => Some(8),
        _ => None,
    }
}

/// Converts elements 0..=`last` of `raw` (laid out as `arr` says) to tightly packed `f32`s.
pub(super) fn to_floats(
    arr: &crate::gl::objects::vertex_array::AttribArray,
    raw: &[u8],
    last: u32,
) -> GlResult<(Vec<u8>, u32, vk::Format)> {
    let comps = arr.size.clamp(1, 4) as usize;
    let width = needs_float_conversion(arr).unwrap_or(4);
    let out = pack_components(arr, raw, last, width, |b| {
        let x = match (arr.ty, arr.normalized) {
            (GL_DOUBLE, _) => f64::from_ne_bytes(b.try_into().unwrap_or([0; 8])) as f32,
            (GL_INT, false) => i32::from_ne_bytes(b.try_into().unwrap_or([0; 4])) as f32,
            (GL_FIXED, _) => {
                (f64::from(i32::from_ne_bytes(b.try_into().unwrap_or([0; 4]))) / 65536.0) as f32
            }
            (GL_INT, true) => (i32::from_ne_bytes(b.try_into().unwrap_or([0; 4])) as f64
                / i32::MAX as f64)
                .max(-1.0) as f32,
            (_, false) => u32::from_ne_bytes(b.try_into().unwrap_or([0; 4])) as f32,
            (_, true) => {
                (u32::from_ne_bytes(b.try_into().unwrap_or([0; 4])) as f64 / u32::MAX as f64) as f32
            }
        };
        x.to_ne_bytes()
    })?;
    let format = [
        vk::Format::R32_SFLOAT,
        vk::Format::R32G32_SFLOAT,
        vk::Format::R32G32B32_SFLOAT,
        vk::Format::R32G32B32A32_SFLOAT,
    ][comps - 1];
    Ok((out, (comps * 4) as u32, format))
}

impl Context {
    /// The buffer an array of `vao` names: a live one, or one deleted while `vao` held it.
    pub(super) fn vao_buffer<'a>(&'a self, vao: &'a VertexArray, name: u32) -> Option<&'a Buffer> {
        vao.retained_buffer(name).or_else(|| self.buffers.get(name))
    }

    /// `vao`'s element array buffer: a live one, or one deleted while `vao` held it.
    pub(super) fn element_buffer_of<'a>(&'a self, vao: &'a VertexArray) -> Option<&'a Buffer> {
        match &vao.element_retained {
            Some(r) => Some(&r.buffer),
            None => self.buffers.get(vao.element_buffer),
        }
    }

    /// `len` bytes of indices at `offset` of `vao`'s element buffer, or in a compatibility
    /// context with none bound, at the client pointer `offset`.
    pub(super) fn index_bytes(
        &mut self,
        vao: &VertexArray,
        offset: u64,
        len: u64,
    ) -> GlResult<Vec<u8>> {
        if vao.element_buffer == 0 {
            if self.profile != Profile::Compatibility {
                return invalid_op("indexed draw with no element array buffer bound");
            }
            if offset == 0 {
                return invalid_op("indexed draw with no element buffer and a null index pointer");
            }
            // SAFETY: with no element buffer bound, a compatibility context's indices are
            // application memory the application must keep valid for `count` indices during
            // the call (GL 3.3 compatibility §2.8.1); `len` is exactly that.
            let bytes =
                unsafe { std::slice::from_raw_parts(offset as usize as *const u8, len as usize) };
            return Ok(bytes.to_vec());
        }
        let b = self
            .element_buffer_of(vao)
            .ok_or_else(|| GlError::InvalidOperation("element buffer gone".into()))?;
        if b.mapped_exclusively() {
            return invalid_op("draw from a mapped element buffer");
        }
        let end = offset.saturating_add(len).min(b.size);
        let mut out = vec![0u8; end.saturating_sub(offset) as usize];
        if out.is_empty() {
            return Ok(out);
        }
        if let Some(shadow) = &b.shadow {
            out.copy_from_slice(&shadow[offset as usize..end as usize]);
        } else if let Some(h) = b.storage {
            self.device
                .lock()
                .manager
                .read_buffer_range(h, offset, &mut out)?;
        } else {
            return invalid_op("the element buffer has no data");
        }
        Ok(out)
    }

    /// The bytes of buffer array `arr` up to element `last` (fewer where the buffer ends
    /// first): from the buffer's CPU shadow, else read back from the GPU (a stall, on a path GL
    /// programs rarely take).
    pub(super) fn buffer_array_bytes(
        &self,
        vao: &VertexArray,
        arr: &crate::gl::objects::vertex_array::AttribArray,
        last: u32,
    ) -> GlResult<Vec<u8>> {
        let b = self
            .vao_buffer(vao, arr.buffer)
            .ok_or_else(|| GlError::InvalidOperation("vertex buffer gone".into()))?;
        if b.mapped_exclusively() {
            return invalid_op("draw from a mapped vertex buffer");
        }
        let element = arr.element_size();
        let span = u64::from(last) * u64::from(arr.effective_stride()) + u64::from(element);
        let end = arr.offset.saturating_add(span).min(b.size);
        let mut out = vec![0u8; end.saturating_sub(arr.offset) as usize];
        if out.is_empty() {
            return Ok(out);
        }
        if let Some(shadow) = &b.shadow {
            if let Some(src) = shadow.get(arr.offset as usize..end as usize) {
                out.copy_from_slice(src);
                return Ok(out);
            }
        }
        let Some(storage) = b.storage else {
            return invalid_op("the vertex buffer has no data");
        };
        let mut locked = self.device.lock();
        crate::gl::context::error::until_done(|| {
            locked
                .manager
                .read_buffer_range(storage, arr.offset, &mut out)
        })?;
        Ok(out)
    }

    /// The elements of a misaligned array (`AttribArray::misaligned`) that `call` can read,
    /// packed at an aligned stride: from the buffer's CPU shadow, else read back from the GPU (a
    /// stall, on a path GL programs rarely take). Non-indexed per-vertex draws need the elements
    /// up to their last vertex, per-instance arrays one per `divisor` instances, indexed draws
    /// every element that fits in the buffer.
    pub(super) fn repacked_attribute(
        &self,
        arr: &crate::gl::objects::vertex_array::AttribArray,
        b: &crate::gl::objects::buffer::Buffer,
        storage: arenagl_memory::BufferHandle,
        call: &DrawCall,
    ) -> GlResult<(Vec<u8>, u32)> {
        let stride = arr.effective_stride();
        let element = arr.element_size();
        let fit = crate::gl::objects::vertex_array::elements_that_fit(
            b.size, arr.offset, stride, element,
        );
        let needed = if call.indirect.is_some() {
            fit // the counts are in the device's buffer
        } else if arr.divisor > 0 {
            (call.instances as u64).div_ceil(u64::from(arr.divisor)) + u64::from(call.base_instance)
        } else if call.indexed.is_none() {
            call.first as u64 + call.count as u64
        } else {
            fit
        };
        let count = needed.min(fit);
        if count == 0 {
            // Nothing of the array fits: one zero element keeps the binding valid.
            let packed = element.next_multiple_of(4);
            return Ok((vec![0; packed as usize], packed));
        }
        let span = (count - 1) * u64::from(stride) + u64::from(element);
        let bytes;
        let src = match &b.shadow {
            Some(shadow) => shadow
                .get(arr.offset as usize..(arr.offset + span) as usize)
                .ok_or_else(|| {
                    GlError::InvalidOperation("buffer shadow shorter than the buffer".into())
                })?,
            None => {
                let mut read = vec![0u8; span as usize];
                let mut locked = self.device.lock();
                crate::gl::context::error::until_done(|| {
                    locked
                        .manager
                        .read_buffer_range(storage, arr.offset, &mut read)
                })?;
                bytes = read;
                &bytes[..]
            }
        };
        Ok(crate::gl::objects::vertex_array::repack(
            src,
            0,
            stride as usize,
            element as usize,
            count as usize,
        ))
    }
}
