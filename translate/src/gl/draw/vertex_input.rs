//! Vertex input: how a draw's vertices are assembled into primitives (the element buffer, or a
//! `u32` index list that `lower` builds on the CPU), and where each shader input reads (a vertex
//! buffer, bytes streamed through the frame's arena, or the current attribute value).
//!
//! Design decisions:
//! - Two passes over GL state, with the framebuffer check between them (see `validate`):
//!   `assemble_primitives` settles the indices and the topology, `vertex_input` then settles the
//!   pipeline's vertex bindings and attributes with one source per binding. Nothing is streamed
//!   here; the sources are placed under the device lock by `resources` (`stream_vertex_sources`,
//!   `draw_indices`, `raw_vertex_buffers`), in the order the draw has always placed them.
//! - Arrays Vulkan cannot read as they are are rewritten on the CPU and streamed: client memory,
//!   32-bit integers or doubles read as floats, narrow integers widened for an input of the
//!   other signedness, and misaligned offsets or strides (repacked). An indexed draw of the
//!   first three kinds is lowered, because only its indices say how far the arrays are read; a
//!   misaligned array is repacked up to the end of its buffer instead.
//! - An input with no enabled array reads the current attribute value through a binding of
//!   stride 0.
//! - The bytes read on the CPU come from `array_bytes`; lowering takes at most
//!   `MAX_LOWERED_VERTICES` vertices.

use std::sync::Arc;

use arenagl_memory::{BufferHandle, StreamRange};
use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, GlError, GlResult};
use crate::gl::context::{Context, Profile};
use crate::gl::draw::array_bytes::{
    client_array_bytes, client_array_floats, last_element, needs_float_conversion, to_floats,
    too_large,
};
use crate::gl::draw::lower::{self, is_legacy_mode, Lowered};
use crate::gl::draw::DrawCall;
use crate::gl::objects::program::{ActiveAttrib, Linked};
use crate::gl::objects::vertex_array::{AttribArray, VertexArray};
use crate::gl::vk::conv::{index_type, topology};
use crate::gl::vk::device::Locked;
use crate::gl::vk::pipeline::{VertexAttribute, VertexBinding};
use crate::glsl::ScalarKind;

/// The most vertices a lowered draw (see `lower`) or a client array may hold: its indices or
/// vertices are built on the CPU and streamed per draw; larger ones report `GL_OUT_OF_MEMORY`.
const MAX_LOWERED_VERTICES: i32 = 1 << 22;

/// How a draw's vertices become primitives: the index list lowering built or the element
/// buffer Vulkan reads as it is (never both), and what the pipeline assembles them as.
pub(super) struct Assembly {
    pub lowered: Option<Lowered>,
    pub element: Option<ElementSource>,
    pub topology: vk::PrimitiveTopology,
    /// The pipeline's provoking vertex is the last: GL's convention, where the device can follow
    /// it (lowered quads, quad strips and polygons are ordered for it: `lower::Provoking`).
    pub provoking_last: bool,
}

/// The element buffer an indexed draw that is not lowered reads.
pub(super) struct ElementSource {
    pub storage: Option<BufferHandle>,
    /// The buffer's size in bytes (indices past it are not drawn).
    pub buffer_size: u64,
    /// Byte offset of the first index.
    pub offset: u64,
    /// Bytes per index: 1, 2 or 4.
    pub index_size: u64,
    pub ty: GLenum,
}

impl Assembly {
    /// The last vertex a per-vertex array is read at (client arrays are copied up to it), for a
    /// draw of at least one vertex; None when lowering left nothing to draw.
    pub(super) fn max_vertex(&self, call: &DrawCall) -> Option<u32> {
        match &self.lowered {
            Some(l) => l.max_vertex,
            None => Some((call.first as u32).saturating_add(call.count as u32 - 1)),
        }
    }

    /// (buffer size, byte offset, index size) of the element buffer, as primitive counting
    /// takes it.
    pub(super) fn element_extent(&self) -> Option<(u64, u64, u64)> {
        self.element
            .as_ref()
            .map(|e| (e.buffer_size, e.offset, e.index_size))
    }
}

/// The pipeline's vertex bindings and attributes, one binding per input slot, and where each
/// binding reads (`sources[i]` feeds `bindings[i]`).
#[derive(Default)]
pub(super) struct VertexInput {
    pub bindings: Vec<VertexBinding>,
    pub attributes: Vec<VertexAttribute>,
    pub sources: Vec<VertexSource>,
}

impl VertexInput {
    /// Adds a binding of `stride` read per vertex (`divisor` 0) or per `divisor` instances,
    /// feeding shader `location` as `format`.
    fn push(
        &mut self,
        location: u32,
        format: vk::Format,
        stride: u32,
        divisor: u32,
        source: VertexSource,
    ) {
        let binding = self.bindings.len() as u32;
        self.bindings.push(VertexBinding {
            binding,
            stride,
            per_instance: divisor > 0,
            divisor: divisor.max(1),
        });
        self.attributes.push(VertexAttribute {
            location,
            binding,
            format,
            offset: 0,
        });
        self.sources.push(source);
    }
}

/// Where a vertex binding reads.
pub(super) enum VertexSource {
    /// A buffer's storage, at a byte offset.
    Buffer(BufferHandle, u64),
    /// Bytes streamed through the frame's arena.
    Stream(Vec<u8>),
}

/// A vertex binding once placed: a buffer handle still to be used, or (the handle unused) the
/// raw arena buffer its bytes were streamed into; and the byte offset.
pub(super) type PlacedVertexBuffer = (BufferHandle, Option<vk::Buffer>, u64);

/// What the draw binds as vertex buffers, in binding order.
#[derive(Default)]
pub(super) struct VertexBuffers {
    pub raw: Vec<vk::Buffer>,
    pub offsets: Vec<u64>,
}

/// How the draw command reads its vertices.
pub(super) enum DrawIndices {
    /// In order from the call's `first` (`vkCmdDraw`).
    Sequential,
    /// From the element buffer: `count` is the call's indices that lie inside the buffer.
    Element {
        buffer: vk::Buffer,
        offset: u64,
        index_type: vk::IndexType,
        count: u32,
    },
    /// From the lowered `u32` list, streamed into the arena.
    Lowered { range: StreamRange, count: u32 },
    /// Lowering left no index to draw.
    Nothing,
}

impl DrawIndices {
    /// The index buffer the draw binds: (buffer, offset, index type). None when no index of
    /// the element buffer lies past the offset (nothing is drawn, and Vulkan forbids binding
    /// at or past the buffer's end).
    pub(super) fn index_buffer(&self) -> Option<(vk::Buffer, u64, vk::IndexType)> {
        match *self {
            DrawIndices::Element { count: 0, .. } => None,
            DrawIndices::Element {
                buffer,
                offset,
                index_type,
                ..
            } => Some((buffer, offset, index_type)),
            DrawIndices::Lowered { range, .. } => {
                Some((range.buffer, range.offset, vk::IndexType::UINT32))
            }
            DrawIndices::Sequential | DrawIndices::Nothing => None,
        }
    }
}

/// What the per-input passes read of a draw's arrays.
struct ArrayReads<'a> {
    call: &'a DrawCall,
    vao: &'a VertexArray,
    /// The last vertex a per-vertex array is read at.
    max_vertex: u32,
}

/// Whether a draw of `linked` from `vao` has an array rewritten on the CPU (see the module
/// docs); client memory read from a core profile context is `GL_INVALID_OPERATION`.
pub(super) fn arrays_rewritten(linked: &Linked, vao: &VertexArray, compat: bool) -> GlResult<bool> {
    let reads_client_memory = linked.attribs.iter().any(|a| {
        (0..a.slots).any(|s| {
            vao.attribs
                .get((a.gl_location + s) as usize)
                .is_some_and(|arr| arr.enabled && arr.buffer == 0)
        })
    });
    if reads_client_memory && !compat {
        return invalid_op("client-side vertex arrays need a compatibility profile context");
    }
    // Arrays rewritten on the CPU (client memory, 32-bit integers or doubles read as floats,
    // narrow integers widened) are copied up to the last vertex the draw reads, which only
    // the indices say for an indexed draw: such draws are lowered, which scans them.
    let rewrites_arrays = reads_client_memory
        || linked.attribs.iter().any(|a| {
            let scalar = a.scalar();
            let float_input = !matches!(scalar, ScalarKind::Int | ScalarKind::UInt);
            (0..a.slots).any(|s| {
                vao.attribs
                    .get((a.gl_location + s) as usize)
                    .is_some_and(|arr| {
                        arr.enabled
                            && ((float_input && needs_float_conversion(arr).is_some())
                                || crate::gl::objects::vertex_array::needs_integer_widening(
                                    arr, scalar,
                                )
                                .is_some())
                    })
            })
        });
    Ok(rewrites_arrays)
}

/// Whether primitive restart at `restart` (None: disabled) makes an indexed draw of `mode` with
/// indices up to `type_max` a lowered one: a restart index Vulkan does not have, or a list mode,
/// whose restart Vulkan leaves to a feature (`primitiveTopologyListRestart`) and `lower` does
/// by dropping incomplete primitives.
pub(super) fn restart_lowers(mode: GLenum, restart: Option<u32>, type_max: u32) -> bool {
    let strip = matches!(
        mode,
        GL_LINE_STRIP
            | GL_TRIANGLE_STRIP
            | GL_TRIANGLE_FAN
            | GL_LINE_STRIP_ADJACENCY
            | GL_TRIANGLE_STRIP_ADJACENCY
    );
    restart.is_some_and(|r| r != type_max || !strip)
}

/// The array that feeds vertex-array slot `gl_loc`, with the compatibility profile's aliasing
/// of generic attribute 0 and `gl_Vertex` applied.
fn aliased_array(vao: &VertexArray, gl_loc: usize) -> AttribArray {
    let mut arr = vao.attribs.get(gl_loc).copied().unwrap_or_default();
    // Compatibility profile: generic attribute 0 aliases gl_Vertex (GL 3.3
    // compatibility §2.7), so a legacy shader reading gl_Vertex draws from an
    // array given with glVertexAttribPointer(0, …).
    if gl_loc == crate::gl::objects::vertex_array::FfArray::Vertex.slot() && !arr.enabled {
        if let Some(generic) = vao.attribs.first().filter(|g| g.enabled) {
            arr = *generic;
        }
    }
    // And the other way: a generic input at location 0 draws from glVertexPointer's
    // array (only a compatibility context can enable it).
    if gl_loc == 0 && !arr.enabled {
        let vertex = crate::gl::objects::vertex_array::FfArray::Vertex.slot();
        if let Some(ff) = vao.attribs.get(vertex).filter(|v| v.enabled) {
            arr = *ff;
        }
    }
    arr
}

/// Streams the bytes of every streamed binding into the frame's arena; buffer bindings keep
/// their handle until `raw_vertex_buffers`.
pub(super) fn stream_vertex_sources(
    locked: &mut Locked,
    sources: &[VertexSource],
    mut vertex_buffers: Vec<PlacedVertexBuffer>,
) -> GlResult<Vec<PlacedVertexBuffer>> {
    vertex_buffers.clear();
    for source in sources {
        match source {
            VertexSource::Buffer(h, offset) => vertex_buffers.push((*h, None, *offset)),
            VertexSource::Stream(bytes) => {
                let range = locked.manager.stream(bytes, 16)?;
                vertex_buffers.push((BufferHandle::from_raw(0), Some(range.buffer), range.offset));
            }
        }
    }
    Ok(vertex_buffers)
}

/// Streams a lowered draw's indices and uses the element buffer: what the draw command reads.
pub(super) fn draw_indices(
    locked: &mut Locked,
    call: &DrawCall,
    assembly: &Assembly,
) -> GlResult<DrawIndices> {
    let lowered_range = match &assembly.lowered {
        Some(l) if !l.indices.is_empty() => {
            let bytes: Vec<u8> = l.indices.iter().flat_map(|i| i.to_ne_bytes()).collect();
            Some((locked.manager.stream(&bytes, 4)?, l.indices.len() as u32))
        }
        _ => None,
    };
    let index_raw = match &assembly.element {
        Some(ElementSource {
            storage: Some(h), ..
        }) => Some(locked.manager.use_buffer(*h)?.raw()),
        Some(ElementSource { storage: None, .. }) => {
            return invalid_op("the element buffer has no data")
        }
        None => None,
    };
    Ok(match (&assembly.element, index_raw) {
        (Some(e), Some(buffer)) => {
            let index_type = index_type(e.ty);
            let available = e.buffer_size.saturating_sub(e.offset) / e.index_size;
            let count = (call.count as u64).min(available) as u32;
            DrawIndices::Element {
                buffer,
                offset: e.offset,
                index_type,
                count,
            }
        }
        _ => match lowered_range {
            Some((range, count)) => DrawIndices::Lowered { range, count },
            None if assembly.lowered.is_some() => DrawIndices::Nothing,
            None => DrawIndices::Sequential,
        },
    })
}

/// The raw buffers of the placed vertex bindings, each buffer used (stamped) for the epoch.
pub(super) fn raw_vertex_buffers(
    locked: &mut Locked,
    placed: &[PlacedVertexBuffer],
    mut out: VertexBuffers,
) -> GlResult<VertexBuffers> {
    out.raw.clear();
    out.offsets.clear();
    for (h, raw, off) in placed {
        out.raw.push(match raw {
            Some(r) => *r,
            None => locked.manager.use_buffer(*h)?.raw(),
        });
        out.offsets.push(*off);
    }
    Ok(out)
}

impl Context {
    /// The vertex array a draw reads: the immediate mode's (`glEnd` puts its own in place), else
    /// the bound one; none bound is `GL_INVALID_OPERATION` (only a core context can lack one).
    pub(super) fn draw_vertex_array(&self) -> GlResult<Arc<VertexArray>> {
        match self
            .vao_override
            .clone()
            .or_else(|| self.current_vao_shared().cloned())
        {
            Some(v) => Ok(v),
            None => invalid_op("draw with no vertex array object bound (core profile)"),
        }
    }

    /// How the draw's vertices become primitives: the index type checked, the draw lowered
    /// where Vulkan cannot take it as it is, else its element buffer checked.
    pub(super) fn assemble_primitives(
        &mut self,
        call: &DrawCall,
        linked: &Linked,
        vao: &VertexArray,
    ) -> GlResult<Assembly> {
        let compat = self.profile == Profile::Compatibility;
        let rewrites_arrays = arrays_rewritten(linked, vao, compat)?;
        let index_size = match call.indexed {
            Some((GL_UNSIGNED_BYTE, ..)) => 1u64,
            Some((GL_UNSIGNED_SHORT, ..)) => 2,
            Some((GL_UNSIGNED_INT, ..)) => 4,
            Some((t, ..)) => return invalid_enum("index type", t),
            None => 0,
        };
        let type_max = match index_size {
            1 => 0xFF,
            2 => 0xFFFF,
            _ => 0xFFFF_FFFF,
        };
        let restart_value = self.pipeline_state.restart_for(type_max);
        // Draws Vulkan cannot take as they are become a u32 index list (see `lower`).
        let lowering = is_legacy_mode(call.mode)
            || call.mode == GL_LINE_LOOP
            || (call.indexed.is_some()
                && ((compat && vao.element_buffer == 0)
                    || rewrites_arrays
                    || restart_lowers(call.mode, restart_value, type_max)));
        // The pipeline's provoking vertex: GL's convention where the device can follow it;
        // lowered quads, quad strips and polygons are ordered for it (`lower::Provoking`).
        let provoking_last = self.device.caps().provoking_vertex_last
            && self.pipeline_state.provoking_vertex == GL_LAST_VERTEX_CONVENTION;
        let lowered = if lowering {
            Some(self.lower_draw(call, vao, index_size, restart_value, provoking_last)?)
        } else {
            None
        };
        let draw_mode = lowered.as_ref().map_or(call.mode, |l| l.mode);
        let topology = topology(draw_mode)?;
        let element = match call.indexed.filter(|_| lowered.is_none()) {
            Some((ty, offset, _)) => Some(self.element_source(vao, ty, offset)?),
            None => None,
        };
        Ok(Assembly {
            lowered,
            element,
            topology,
            provoking_last,
        })
    }

    /// The draw as a `u32` index list (see `lower`): its indices read (from the element buffer
    /// or client memory) or counted from `first`, then rewritten for a mode Vulkan has.
    fn lower_draw(
        &mut self,
        call: &DrawCall,
        vao: &VertexArray,
        index_size: u64,
        restart_value: Option<u32>,
        provoking_last: bool,
    ) -> GlResult<Lowered> {
        if call.count > MAX_LOWERED_VERTICES {
            return Err(too_large(format!(
                "a draw of {} vertices in mode 0x{:04X} that must be lowered on the CPU",
                call.count, call.mode
            )));
        }
        let raw: Vec<u32> = match call.indexed {
            Some((ty, offset, _)) => {
                let bytes = self.index_bytes(vao, offset, call.count as u64 * index_size)?;
                lower::decode_indices(ty, &bytes)
            }
            None => {
                (call.first as u32..(call.first as u32).saturating_add(call.count as u32)).collect()
            }
        };
        let restart = call.indexed.and(restart_value);
        let base = call.indexed.map_or(0, |i| i.2);
        let provoking = if provoking_last {
            lower::Provoking::Last
        } else {
            lower::Provoking::First
        };
        Ok(lower::lower(
            call.mode,
            raw.into_iter(),
            base,
            restart,
            provoking,
        ))
    }

    /// The element buffer an indexed draw Vulkan takes as it is reads, checked: bound, not
    /// mapped, an index type the device has, an offset aligned to the index size.
    fn element_source(
        &self,
        vao: &VertexArray,
        ty: GLenum,
        offset: u64,
    ) -> GlResult<ElementSource> {
        let size = match ty {
            GL_UNSIGNED_BYTE => 1,
            GL_UNSIGNED_SHORT => 2,
            GL_UNSIGNED_INT => 4,
            t => return invalid_enum("index type", t),
        };
        if vao.element_buffer == 0 {
            return invalid_op("indexed draw with no element array buffer bound");
        }
        let b = self
            .element_buffer_of(vao)
            .ok_or_else(|| GlError::InvalidOperation("element buffer gone".into()))?;
        if b.mapped_exclusively() {
            return invalid_op("draw from a mapped element buffer");
        }
        if size == 1 && !self.device.caps().index_u8 {
            return invalid_op(
                "GL_UNSIGNED_BYTE indices need VK_EXT_index_type_uint8, which this device lacks",
            );
        }
        if offset % size != 0 {
            return invalid_op(format!(
                "index offset {offset} not aligned to the index size"
            ));
        }
        Ok(ElementSource {
            storage: b.storage,
            buffer_size: b.size,
            offset,
            index_size: size,
            ty,
        })
    }

    /// The pipeline's vertex input for `linked`'s inputs and where each binding reads; errors
    /// for arrays a draw cannot read (gone, mapped, without data, past their buffer's end, a
    /// format the input cannot take, a divisor the device lacks).
    pub(super) fn vertex_input(
        &self,
        call: &DrawCall,
        linked: &Linked,
        vao: &VertexArray,
        max_vertex: u32,
        mut input: VertexInput,
    ) -> GlResult<VertexInput> {
        let reads = ArrayReads {
            call,
            vao,
            max_vertex,
        };
        for a in &linked.attribs {
            for slot in 0..a.slots {
                self.input_slot(&mut input, &reads, a, slot)?;
            }
        }
        Ok(input)
    }

    /// One location of input `a` (a matrix or array input spans several): a stream, a buffer,
    /// or the current attribute value.
    fn input_slot(
        &self,
        input: &mut VertexInput,
        reads: &ArrayReads,
        a: &ActiveAttrib,
        slot: u32,
    ) -> GlResult<()> {
        let gl_loc = (a.gl_location + slot) as usize;
        // A wide 64-bit column takes two Vulkan locations (`glsl::wide_inputs`).
        let location = a.shader_location + slot * crate::glsl::wide_inputs::vulkan_slots(a.ty);
        let scalar = a.scalar();
        let integer_shader = matches!(scalar, ScalarKind::Int | ScalarKind::UInt);
        let arr = aliased_array(reads.vao, gl_loc);
        if scalar.is_64bit() {
            return self.double_input_slot(input, reads, a, gl_loc, location);
        }
        if let Some((bytes, stride, format)) = self.streamed_array(reads, arr, a)? {
            // Streams converted to floats (client arrays of doubles, say) still have to match
            // an integer input's numeric type in Vulkan.
            let format = if integer_shader {
                crate::gl::objects::vertex_array::for_shader_input(format, scalar).unwrap_or(format)
            } else {
                format
            };
            input.push(
                location,
                format,
                stride,
                arr.divisor,
                VertexSource::Stream(bytes),
            );
        } else if arr.enabled {
            let (format, stride, source) = self.buffer_array(reads, arr, a)?;
            input.push(location, format, stride, arr.divisor, source);
        } else {
            let words = self
                .current_attribs
                .get(gl_loc)
                .copied()
                .unwrap_or_default()
                .words;
            let format = match scalar {
                ScalarKind::Int => vk::Format::R32G32B32A32_SINT,
                ScalarKind::UInt => vk::Format::R32G32B32A32_UINT,
                _ => vk::Format::R32G32B32A32_SFLOAT,
            };
            let mut bytes = Vec::with_capacity(16);
            for w in words {
                bytes.extend_from_slice(&w.to_ne_bytes());
            }
            input.push(location, format, 0, 0, VertexSource::Stream(bytes));
        }
        Ok(())
    }

    /// One GL location of a double input (`a`), at Vulkan `location`: its lowered `uvec` inputs
    /// (`glsl::double_inputs`) read bytes 0–15 of the `glVertexAttribLPointer` array's element
    /// there, and for a `dvec3`/`dvec4` bytes 16–31 at `location + 1` (zeros when the array has
    /// no more than two doubles); with no array enabled, the `glVertexAttribL*` value.
    fn double_input_slot(
        &self,
        input: &mut VertexInput,
        reads: &ArrayReads,
        a: &ActiveAttrib,
        gl_loc: usize,
        location: u32,
    ) -> GlResult<()> {
        use crate::gl::objects::vertex_array::{current_long_value, long_high_format};
        let arr = aliased_array(reads.vao, gl_loc);
        let wide = crate::glsl::wide_inputs::vulkan_slots(a.ty) == 2;
        let quad = vk::Format::R32G32B32A32_UINT;
        let (format, stride, source) =
            if let Some((bytes, stride, format)) = self.streamed_array(reads, arr, a)? {
                (format, stride, VertexSource::Stream(bytes))
            } else if arr.enabled {
                self.buffer_array(reads, arr, a)?
            } else {
                let current = self.current_attribs.get(gl_loc).copied();
                let bytes = current_long_value(current.unwrap_or_default().long);
                if wide {
                    let high = VertexSource::Stream(bytes[16..].to_vec());
                    input.push(location + 1, quad, 0, 0, high);
                }
                input.push(location, quad, 0, 0, VertexSource::Stream(bytes));
                return Ok(());
            };
        if wide {
            match long_high_format(&arr) {
                Some(high_format) => {
                    let high = match &source {
                        VertexSource::Buffer(storage, offset) => {
                            VertexSource::Buffer(*storage, offset + 16)
                        }
                        VertexSource::Stream(bytes) => {
                            VertexSource::Stream(bytes.get(16..).unwrap_or(&[]).to_vec())
                        }
                    };
                    input.push(location + 1, high_format, stride, arr.divisor, high);
                }
                None => input.push(location + 1, quad, 0, 0, VertexSource::Stream(vec![0; 16])),
            }
        }
        input.push(location, format, stride, arr.divisor, source);
        Ok(())
    }

    /// The bytes, stride and format of enabled array `arr` when it is streamed through the
    /// frame's arena: client arrays (compatibility profile), and arrays Vulkan has no vertex
    /// format for (32-bit integers read as floats, doubles) converted to floats, from client
    /// memory or a small buffer's shadow. Narrow integers into an input of the other signedness
    /// are widened too. None: the array is read from its buffer as it is.
    fn streamed_array(
        &self,
        reads: &ArrayReads,
        arr: AttribArray,
        a: &ActiveAttrib,
    ) -> GlResult<Option<(Vec<u8>, u32, vk::Format)>> {
        let (call, vao, max_vertex) = (reads.call, reads.vao, reads.max_vertex);
        let scalar = a.scalar();
        let integer_shader = matches!(scalar, ScalarKind::Int | ScalarKind::UInt);
        let widen =
            crate::gl::objects::vertex_array::needs_integer_widening(&arr, scalar).is_some();
        let streamed = if !arr.enabled {
            None
        } else if arr.buffer == 0 {
            let last = last_element(&arr, call, max_vertex);
            let format = crate::gl::objects::vertex_array::input_format(&arr, scalar);
            Some(match format {
                _ if widen => {
                    let raw = client_array_bytes(&arr, last)?;
                    crate::gl::objects::vertex_array::widen_integers(&arr, &raw, last, scalar)?
                }
                Some(f) => (client_array_bytes(&arr, last)?, arr.effective_stride(), f),
                None => client_array_floats(&arr, last).ok_or_else(|| {
                    GlError::InvalidOperation(format!(
                        "attribute {}'s format is not supported",
                        a.name
                    ))
                })??,
            })
        } else if widen {
            let last = last_element(&arr, call, max_vertex);
            let raw = self.buffer_array_bytes(vao, &arr, last)?;
            Some(crate::gl::objects::vertex_array::widen_integers(
                &arr, &raw, last, scalar,
            )?)
        } else {
            let shadow = self
                .vao_buffer(vao, arr.buffer)
                .filter(|b| b.mapping.is_none() && arr.offset < b.size)
                .and_then(|b| b.shadow.as_ref())
                // Converted to floats only for a float input: an integer input reads
                // the raw bytes as integers (`for_shader_input`, in `input_slot`).
                .filter(|_| !integer_shader && needs_float_conversion(&arr).is_some());
            match shadow {
                Some(shadow) => {
                    let last = last_element(&arr, call, max_vertex);
                    let raw = shadow.get(arr.offset as usize..).unwrap_or(&[]);
                    Some(to_floats(&arr, raw, last)?)
                }
                None => None,
            }
        };
        Ok(streamed)
    }

    /// The format, stride and source of enabled array `arr` read from its buffer: checked
    /// (buffer live, not mapped, with storage, offset inside it, a format the input can take, a
    /// divisor the device has), and repacked and streamed when misaligned for Vulkan.
    fn buffer_array(
        &self,
        reads: &ArrayReads,
        arr: AttribArray,
        a: &ActiveAttrib,
    ) -> GlResult<(vk::Format, u32, VertexSource)> {
        let (call, vao) = (reads.call, reads.vao);
        let scalar = a.scalar();
        let integer_shader = matches!(scalar, ScalarKind::Int | ScalarKind::UInt);
        let b = self.vao_buffer(vao, arr.buffer).ok_or_else(|| {
            GlError::InvalidOperation(format!("attribute {}'s buffer is gone", a.name))
        })?;
        if b.mapped_exclusively() {
            return invalid_op("draw from a mapped vertex buffer");
        }
        let Some(storage) = b.storage else {
            return invalid_op(format!("attribute {}'s buffer has no data", a.name));
        };
        if arr.offset >= b.size {
            return invalid_op(format!(
                "attribute {}'s offset {} is past its buffer ({} bytes)",
                a.name, arr.offset, b.size
            ));
        }
        // The array's bytes read as the input's numeric type (see
        // `for_shader_input`: GL leaves mismatched values undefined, not an error).
        let format =
            crate::gl::objects::vertex_array::input_format(&arr, scalar).ok_or_else(|| {
                GlError::InvalidOperation(format!(
                    "attribute {}'s format cannot feed its {} input",
                    a.name,
                    if integer_shader { "integer" } else { "float" },
                ))
            })?;
        if arr.divisor > 1 && !self.device.caps().vertex_divisor {
            return invalid_op(
                "vertex attribute divisors above 1 need VK_EXT_vertex_attribute_divisor, which this device lacks",
            );
        }

        let (stride, source) = if arr.misaligned() {
            // Vulkan needs component-aligned addresses and strides, GL allows any: the
            // elements this draw can read are repacked and streamed.
            let (bytes, stride) = self.repacked_attribute(&arr, b, storage, call)?;
            (stride, VertexSource::Stream(bytes))
        } else {
            (
                arr.effective_stride(),
                VertexSource::Buffer(storage, arr.offset),
            )
        };
        Ok((format, stride, source))
    }
}
