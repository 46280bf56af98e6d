//! GL_ARB_indirect_parameters: multi-draws whose draw count lies in a buffer, the one bound to
//! `GL_PARAMETER_BUFFER` (`glMultiDrawArraysIndirectCount`, `glMultiDrawElementsIndirectCount`).
//! The call's `maxdrawcount` bounds the count read there.
//!
//! Design decisions:
//! - On the device path of `indirect` the count stays in the buffer: one
//!   `vkCmdDraw(Indexed)IndirectCount` (`drawIndirectCount`) with `maxDrawCount` the call's.
//! - Where the commands are drawn from the CPU (lowering, counts on the CPU, client commands in
//!   a compatibility context) the count is read back the same way the commands are, and the
//!   first `min(count, maxdrawcount)` commands are drawn.
//! - The errors are the extension's: `GL_INVALID_VALUE` for a count offset that is not a
//!   multiple of 4, `GL_INVALID_OPERATION` with no parameter buffer bound, a mapped one, or an
//!   offset whose 4 bytes lie past its end.

use arenagl_memory::BufferHandle;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_op, invalid_value, GlError, GlResult};
use crate::gl::context::Context;

/// Where an indirect draw's count lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawCountSource {
    /// The buffer bound to `GL_PARAMETER_BUFFER`.
    pub name: u32,
    /// Its storage.
    pub buffer: BufferHandle,
    /// Byte offset of the count (a multiple of 4).
    pub offset: u64,
}

/// The extension where the device can read counts (`drawIndirectCount`) and several commands
/// (`multiDrawIndirect`).
pub(crate) fn extensions(device: &crate::gl::vk::device::Device) -> Vec<&'static str> {
    let f = &device.caps().gl4;
    if f.draw_indirect_count && f.multi_draw_indirect {
        vec!["GL_ARB_indirect_parameters"]
    } else {
        Vec::new()
    }
}

impl Context {
    /// The count at byte `offset` of the buffer bound to `GL_PARAMETER_BUFFER`, checked.
    pub(super) fn draw_count_source(&self, offset: u64) -> GlResult<DrawCountSource> {
        if offset % 4 != 0 {
            return invalid_value(format!("draw count offset {offset} is not a multiple of 4"));
        }
        let name = self
            .generic_bindings
            .get(&GL_PARAMETER_BUFFER)
            .copied()
            .unwrap_or(0);
        if name == 0 {
            return invalid_op("indirect count draw with no GL_PARAMETER_BUFFER bound");
        }
        let b = self
            .buffers
            .get(name)
            .ok_or_else(|| GlError::InvalidOperation("the parameter buffer is gone".into()))?;
        if b.mapped_exclusively() {
            return invalid_op("indirect count draw from a mapped parameter buffer");
        }
        if offset.saturating_add(4) > b.size {
            return invalid_op(format!(
                "draw count at {offset} past the end of a {}-byte parameter buffer",
                b.size
            ));
        }
        let Some(buffer) = b.storage else {
            return invalid_op("the parameter buffer has no data");
        };
        Ok(DrawCountSource {
            name,
            buffer,
            offset,
        })
    }

    /// How many of `max` commands a CPU-drawn indirect draw runs: all without a count source,
    /// else the count read back from it, at most `max`.
    pub(super) fn commands_to_draw(
        &self,
        source: Option<&DrawCountSource>,
        max: usize,
    ) -> GlResult<usize> {
        let Some(source) = source else {
            return Ok(max);
        };
        let b = self
            .buffers
            .get(source.name)
            .ok_or_else(|| GlError::InvalidOperation("the parameter buffer is gone".into()))?;
        let mut word = [0u8; 4];
        crate::gl::objects::buffer::api::read_range(&self.device, b, source.offset, &mut word)?;
        Ok((u32::from_ne_bytes(word) as usize).min(max))
    }
}
