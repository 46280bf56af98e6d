//! Indirect draws (GL_ARB_draw_indirect, GL_ARB_multi_draw_indirect): the draw parameters lie
//! in the buffer bound to `GL_DRAW_INDIRECT_BUFFER`, as GL's `DrawArraysIndirectCommand`
//! (`count, instanceCount, first, baseInstance`) or `DrawElementsIndirectCommand` (`count,
//! instanceCount, firstIndex, baseVertex, baseInstance`) — the same layouts as Vulkan's
//! `VkDrawIndirectCommand` and `VkDrawIndexedIndirectCommand`.
//!
//! Design decisions:
//! - The device reads the commands (`vkCmdDraw(Indexed)Indirect`) whenever the draw needs no
//!   count on the CPU: no lowering (legacy modes, line loops, client indices, a restart index
//!   Vulkan lacks or a list mode with restart on), no array rewritten on the CPU (`vertex_input::arrays_rewritten`), no
//!   `GL_PRIMITIVES_GENERATED` counting on the CPU. The draw then runs the ordinary phases with
//!   placeholder counts and [`DrawCall::indirect`] set; misaligned arrays are repacked whole.
//! - Otherwise the commands are read back (from the buffer's shadow, else a stall) and drawn as
//!   direct draws, each with its own errors and counts. In a compatibility context with no
//!   indirect buffer bound the commands are client memory (ARB_draw_indirect), read the same way.
//! - Without `multiDrawIndirect` (or with a stride below the command size) a multi-draw is
//!   recorded one command at a time.

use arenagl_memory::BufferHandle;
use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlError, GlResult};
use crate::gl::context::{Context, Profile};
use crate::gl::draw::array_bytes::too_large;
use crate::gl::draw::indirect_count::DrawCountSource;
use crate::gl::draw::lower::is_legacy_mode;
use crate::gl::draw::vertex_input::{arrays_rewritten, restart_lowers, DrawIndices};
use crate::gl::draw::DrawCall;
use crate::glsl::draw_parameters::DrawParameters;

/// The most commands one `vkCmdDraw(Indexed)Indirect` takes (Vulkan's minimum
/// `maxDrawIndirectCount` with `multiDrawIndirect`).
const MAX_BATCH: u32 = 0xFFFF;

/// The most bytes of commands read from client memory (compatibility contexts); more is
/// `GL_OUT_OF_MEMORY` rather than a copy of unbounded size.
const MAX_CLIENT_COMMAND_BYTES: u64 = 1 << 24;

/// Where the device reads an indirect draw's commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndirectCommands {
    pub buffer: BufferHandle,
    /// Byte offset of the first command.
    pub offset: u64,
    pub draw_count: u32,
    /// Bytes from one command to the next (never 0).
    pub stride: u32,
    /// Where the device reads how many of `draw_count` commands to draw
    /// (GL_ARB_indirect_parameters, `indirect_count`); None: all of them.
    pub count: Option<DrawCountSource>,
}

/// The raw buffers an indirect draw reads on the device, used for the recording epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct IndirectBuffers {
    pub commands: vk::Buffer,
    /// The count's buffer (`IndirectCommands::count`).
    pub count: Option<vk::Buffer>,
}

/// One command as GL lays it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Command {
    count: u32,
    instances: u32,
    /// `first` (arrays) or `firstIndex` (elements).
    first: u32,
    base_vertex: i32,
    base_instance: u32,
}

/// The extensions of this file the device can carry: indirect draws always (Vulkan core);
/// base instances where `gl_InstanceID` can be counted from them (`shaderDrawParameters`, see
/// `glsl::instance_id`) and indirect commands may set them (`drawIndirectFirstInstance`);
/// multi-draws with `multiDrawIndirect`.
pub(crate) fn extensions(device: &crate::gl::vk::device::Device) -> Vec<&'static str> {
    let f = &device.caps().gl4;
    let mut out = vec!["GL_ARB_draw_indirect"];
    if f.shader_draw_parameters && f.draw_indirect_first_instance {
        out.push("GL_ARB_base_instance");
    }
    if f.multi_draw_indirect {
        out.push("GL_ARB_multi_draw_indirect");
    }
    out
}

/// The size in bytes of one command of an array (`indexed` false) or element draw.
fn command_size(indexed: bool) -> u32 {
    if indexed {
        20
    } else {
        16
    }
}

/// Decodes the commands in `bytes` (`draw_count` of them, `stride` apart).
fn decode(bytes: &[u8], indexed: bool, draw_count: u32, stride: u32) -> Vec<Command> {
    let word = |at: usize| {
        bytes
            .get(at..at + 4)
            .map_or(0, |w| u32::from_ne_bytes([w[0], w[1], w[2], w[3]]))
    };
    (0..draw_count as usize)
        .map(|i| {
            let at = i * stride as usize;
            let w: Vec<u32> = (0..5).map(|k| word(at + 4 * k)).collect();
            if indexed {
                Command {
                    count: w[0],
                    instances: w[1],
                    first: w[2],
                    base_vertex: w[3] as i32,
                    base_instance: w[4],
                }
            } else {
                Command {
                    count: w[0],
                    instances: w[1],
                    first: w[2],
                    base_vertex: 0,
                    base_instance: w[3],
                }
            }
        })
        .collect()
}

/// The bytes per index of a GL index type.
fn index_size(ty: GLenum) -> GlResult<u64> {
    match ty {
        GL_UNSIGNED_BYTE => Ok(1),
        GL_UNSIGNED_SHORT => Ok(2),
        GL_UNSIGNED_INT => Ok(4),
        t => invalid_enum("index type", t),
    }
}

/// An indirect draw as the entry points state it.
#[derive(Debug, Clone, Copy)]
pub struct IndirectDraw {
    pub mode: GLenum,
    /// The index type of `glDrawElementsIndirect`/`glMultiDrawElementsIndirect`.
    pub index_type: Option<GLenum>,
    /// Byte offset into `GL_DRAW_INDIRECT_BUFFER` (or, with none bound in a compatibility
    /// context, the address of the commands).
    pub indirect: u64,
    pub draw_count: i32,
    /// 0: tightly packed.
    pub stride: i32,
    /// GL_ARB_indirect_parameters: the byte offset of the draw count in `GL_PARAMETER_BUFFER`;
    /// `draw_count` is then the most commands drawn.
    pub count: Option<u64>,
}

impl Context {
    /// `glDrawArraysIndirect`, `glDrawElementsIndirect`, `glMultiDrawArraysIndirect`,
    /// `glMultiDrawElementsIndirect`, and their `…Count` forms (`indirect_count`).
    ///
    /// # Safety
    /// In a compatibility context with no `GL_DRAW_INDIRECT_BUFFER` bound, `draw.indirect` is the
    /// address of `draw_count` commands `stride` apart, readable for the call's duration; and
    /// [`Context::draw`]'s contract for the client arrays the draw reads.
    pub unsafe fn draw_indirect(&mut self, draw: IndirectDraw) {
        // SAFETY: passed on from the caller.
        let r = unsafe { self.draw_indirect_inner(draw) };
        self.record(r);
    }

    /// # Safety
    /// As [`Context::draw_indirect`].
    unsafe fn draw_indirect_inner(&mut self, draw: IndirectDraw) -> GlResult<()> {
        if draw.draw_count < 0 {
            return invalid_value(format!("indirect draw count {}", draw.draw_count));
        }
        if draw.stride < 0 || draw.stride % 4 != 0 {
            return invalid_value(format!("indirect draw stride {}", draw.stride));
        }
        let indexed = draw.index_type.is_some();
        let size = command_size(indexed);
        let stride = if draw.stride == 0 {
            size
        } else {
            draw.stride as u32
        };
        let count = draw.draw_count as u32;
        let span = u64::from(count.saturating_sub(1)) * u64::from(stride) + u64::from(size);
        let probe = DrawCall {
            mode: draw.mode,
            count: 1,
            instances: 1,
            ..DrawCall::default()
        };
        if self.profile != Profile::Compatibility && self.current_vao().is_none() {
            return invalid_op("indirect draw with no vertex array object bound");
        }
        self.validate_call(&probe)?;
        if let Some(ty) = draw.index_type {
            index_size(ty)?;
        }
        if draw.indirect % 4 != 0 {
            return invalid_value(format!(
                "indirect offset {} is not a multiple of 4",
                draw.indirect
            ));
        }
        let count_source = match draw.count {
            Some(offset) => Some(self.draw_count_source(offset)?),
            None => None,
        };
        let name = self
            .generic_bindings
            .get(&GL_DRAW_INDIRECT_BUFFER)
            .copied()
            .unwrap_or(0);
        if name == 0 {
            if self.profile != Profile::Compatibility {
                return invalid_op("indirect draw with no GL_DRAW_INDIRECT_BUFFER bound");
            }
            if draw.indirect == 0 {
                return invalid_op("indirect draw from a null client pointer");
            }
            if span > MAX_CLIENT_COMMAND_BYTES {
                return Err(too_large(format!(
                    "{count} indirect commands in client memory"
                )));
            }
            // SAFETY: with no indirect buffer bound, a compatibility context's commands are
            // client memory the caller keeps readable for `span` bytes (see `draw_indirect`).
            let bytes = unsafe {
                std::slice::from_raw_parts(draw.indirect as usize as *const u8, span as usize)
            };
            let commands = decode(bytes, indexed, count, stride);
            let n = self.commands_to_draw(count_source.as_ref(), commands.len())?;
            return self.draw_commands(&draw, &commands[..n]);
        }
        let b = self
            .buffers
            .get(name)
            .ok_or_else(|| GlError::InvalidOperation("the draw indirect buffer is gone".into()))?;
        if b.mapped_exclusively() {
            return invalid_op("indirect draw from a mapped buffer");
        }
        if count > 0 && draw.indirect.saturating_add(span) > b.size {
            return invalid_op(format!(
                "indirect commands at {} ({span} bytes) past the end of a {}-byte buffer",
                draw.indirect, b.size
            ));
        }
        let Some(storage) = b.storage else {
            return invalid_op("the draw indirect buffer has no data");
        };
        if count == 0 {
            return Ok(());
        }
        let device_counts = count_source.is_none() || self.device.caps().gl4.draw_indirect_count;
        if device_counts && self.indirect_on_device(draw.mode, draw.index_type) {
            let call = DrawCall {
                indexed: draw.index_type.map(|ty| (ty, 0, 0)),
                indirect: Some(IndirectCommands {
                    buffer: storage,
                    offset: draw.indirect,
                    draw_count: count,
                    stride,
                    count: count_source,
                }),
                ..probe
            };
            return self.draw_inner(call);
        }
        let mut bytes = vec![0u8; span as usize];
        crate::gl::objects::buffer::api::read_range(&self.device, b, draw.indirect, &mut bytes)?;
        let commands = decode(&bytes, indexed, count, stride);
        let n = self.commands_to_draw(count_source.as_ref(), commands.len())?;
        self.draw_commands(&draw, &commands[..n])
    }

    /// Draws decoded `commands` as direct draws; the first error is the call's.
    fn draw_commands(&mut self, draw: &IndirectDraw, commands: &[Command]) -> GlResult<()> {
        let mut result = Ok(());
        for (draw_id, c) in (0u32..).zip(commands) {
            let indexed = match draw.index_type {
                Some(ty) => Some((ty, u64::from(c.first) * index_size(ty)?, c.base_vertex)),
                None => None,
            };
            let call = DrawCall {
                mode: draw.mode,
                first: if indexed.is_some() {
                    0
                } else {
                    c.first.min(i32::MAX as u32) as i32
                },
                count: c.count.min(i32::MAX as u32) as i32,
                instances: c.instances.min(i32::MAX as u32) as i32,
                indexed,
                base_instance: c.base_instance,
                indirect: None,
                draw_id,
            };
            let r = self.draw_inner(call);
            if result.is_ok() {
                result = r;
            }
        }
        result
    }

    /// Whether an indirect draw of `mode` can leave its commands to the device: nothing about
    /// it needs a count on the CPU (see the module docs). False when in doubt: the direct path
    /// raises the draw's errors.
    fn indirect_on_device(&self, mode: GLenum, index_type: Option<GLenum>) -> bool {
        if is_legacy_mode(mode) || mode == GL_LINE_LOOP || self.counting_primitives() {
            return false;
        }
        let Some(linked) = self
            .programs
            .get(self.program)
            .and_then(|p| p.linked("indirect draw").ok())
        else {
            return false;
        };
        let Ok(vao) = self.draw_vertex_array() else {
            return false;
        };
        let compat = self.profile == Profile::Compatibility;
        if !matches!(arrays_rewritten(linked, &vao, compat), Ok(false)) {
            return false;
        }
        match index_type {
            None => true,
            Some(ty) => {
                let type_max = match ty {
                    GL_UNSIGNED_BYTE => 0xFF,
                    GL_UNSIGNED_SHORT => 0xFFFF,
                    _ => 0xFFFF_FFFF,
                };
                let restart = self.pipeline_state.restart_for(type_max);
                vao.element_buffer != 0 && !restart_lowers(mode, restart, type_max)
            }
        }
    }
}

/// Records an indirect draw reading `commands` from `buffer`: in batches of up to
/// [`MAX_BATCH`] with `multi` (`multiDrawIndirect`), else one command per call. With
/// `pushes` (the program reads the draw parameters), each batch first pushes the GL draw index
/// of its first command; the device's `BaseVertex` is the command's (0 in a non-indexed one).
/// With a count source, one `vkCmdDraw(Indexed)IndirectCount` of at most `draw_count`.
///
/// # Safety
/// `cb` is recording inside a render pass with a pipeline, its descriptor sets and vertex
/// buffers bound, and the index buffer of `indices` (`DrawIndices::index_buffer`);
/// `buffers` are the live storage of `commands.buffer` and `commands.count`, made with
/// `INDIRECT_BUFFER` usage and used for the recording epoch, holding every command and the
/// count, the count only where the device has `drawIndirectCount`; `pushes` is the bound
/// pipeline's program layout.
pub(super) unsafe fn record_indirect(
    raw: &ash::Device,
    cb: vk::CommandBuffer,
    buffers: IndirectBuffers,
    commands: &IndirectCommands,
    indices: &DrawIndices,
    multi: bool,
    pushes: Option<vk::PipelineLayout>,
) {
    let indexed = matches!(indices, DrawIndices::Element { .. });
    let buffer = buffers.commands;
    if let (Some(source), Some(count_buffer)) = (commands.count, buffers.count) {
        // SAFETY: as the caller guarantees.
        unsafe {
            record_counted(
                raw,
                cb,
                buffers.commands,
                count_buffer,
                commands,
                &source,
                indices,
                pushes,
            )
        };
        return;
    }
    let batch = if multi && commands.stride >= command_size(indexed) {
        MAX_BATCH
    } else {
        1
    };
    // SAFETY: as the caller guarantees; each batch lies inside the checked command range.
    unsafe {
        let mut done = 0;
        while done < commands.draw_count {
            let n = (commands.draw_count - done).min(batch);
            let offset = commands.offset + u64::from(done) * u64::from(commands.stride);
            if let Some(layout) = pushes {
                let params = DrawParameters {
                    draw_id: done as i32,
                    device_base_vertex: i32::from(indexed),
                    base_vertex: 0,
                };
                super::record::push_draw_parameters(raw, cb, layout, &params);
            }
            match indices {
                DrawIndices::Element { .. } => {
                    raw.cmd_draw_indexed_indirect(cb, buffer, offset, n, commands.stride)
                }
                DrawIndices::Sequential => {
                    raw.cmd_draw_indirect(cb, buffer, offset, n, commands.stride)
                }
                // The device path never lowers.
                DrawIndices::Lowered { .. } | DrawIndices::Nothing => {}
            }
            done += n;
        }
    }
}

/// The count-source form of [`record_indirect`]: the device reads the count.
///
/// # Safety
/// As [`record_indirect`], with `count_buffer` the storage of `source.buffer`.
#[allow(clippy::too_many_arguments)]
unsafe fn record_counted(
    raw: &ash::Device,
    cb: vk::CommandBuffer,
    buffer: vk::Buffer,
    count_buffer: vk::Buffer,
    commands: &IndirectCommands,
    source: &DrawCountSource,
    indices: &DrawIndices,
    pushes: Option<vk::PipelineLayout>,
) {
    let (offset, max, stride) = (commands.offset, commands.draw_count, commands.stride);
    let indexed = matches!(indices, DrawIndices::Element { .. });
    // SAFETY: as the caller guarantees; the commands and the count lie inside their buffers.
    unsafe {
        if let Some(layout) = pushes {
            let params = DrawParameters {
                draw_id: 0,
                device_base_vertex: i32::from(indexed),
                base_vertex: 0,
            };
            super::record::push_draw_parameters(raw, cb, layout, &params);
        }
        match indices {
            DrawIndices::Element { .. } => raw.cmd_draw_indexed_indirect_count(
                cb,
                buffer,
                offset,
                count_buffer,
                source.offset,
                max,
                stride,
            ),
            DrawIndices::Sequential => raw.cmd_draw_indirect_count(
                cb,
                buffer,
                offset,
                count_buffer,
                source.offset,
                max,
                stride,
            ),
            DrawIndices::Lowered { .. } | DrawIndices::Nothing => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_both_layouts_at_a_stride() {
        let words: [u32; 10] = [3, 2, 1, 7, 99, 4, 5, 6, 0xFFFF_FFFE, 8];
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_ne_bytes()).collect();
        let arrays = decode(&bytes, false, 2, 20);
        assert_eq!(arrays[0].base_instance, 7);
        assert_eq!((arrays[1].count, arrays[1].first), (4, 6));
        let elements = decode(&bytes, true, 2, 20);
        assert_eq!(elements[1].base_vertex, -2);
        assert_eq!(elements[1].base_instance, 8);
    }
}
