//! Memory barriers: the two around every dispatch, and `glMemoryBarrier(ByRegion)`.
//!
//! Design decisions:
//! - Global memory barriers (no buffer or image ranges): GL's barrier bits name kinds of later
//!   reads, not objects, and a global barrier costs drivers no more than a ranged one.
//! - Before a dispatch: every earlier write against the dispatch's shader reads and writes and
//!   its indirect read. After it: its shader writes against every later command and the host.
//! - `glMemoryBarrier` with any bit but `GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT` ends the render
//!   pass and records every shader write so far against every later access (draws that store
//!   into buffers and images need it; dispatches have their own).

use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_value, GlResult};
use crate::gl::context::Context;

/// (stages, accesses) of one side of a barrier.
pub(super) type Scope = (vk::PipelineStageFlags, vk::AccessFlags);

/// Earlier writes of any kind.
pub(super) const ALL_WRITES: Scope = (
    vk::PipelineStageFlags::ALL_COMMANDS,
    vk::AccessFlags::MEMORY_WRITE,
);

/// What a dispatch reads and writes.
pub(super) const DISPATCH_ACCESS: Scope = (
    vk::PipelineStageFlags::from_raw(
        vk::PipelineStageFlags::COMPUTE_SHADER.as_raw()
            | vk::PipelineStageFlags::DRAW_INDIRECT.as_raw(),
    ),
    vk::AccessFlags::from_raw(
        vk::AccessFlags::SHADER_READ.as_raw()
            | vk::AccessFlags::SHADER_WRITE.as_raw()
            | vk::AccessFlags::UNIFORM_READ.as_raw()
            | vk::AccessFlags::INDIRECT_COMMAND_READ.as_raw(),
    ),
);

/// Shader writes of the compute stage.
pub(super) const COMPUTE_WRITES: Scope = (
    vk::PipelineStageFlags::COMPUTE_SHADER,
    vk::AccessFlags::SHADER_WRITE,
);

/// Shader writes of every stage.
const SHADER_WRITES: Scope = (
    vk::PipelineStageFlags::ALL_COMMANDS,
    vk::AccessFlags::SHADER_WRITE,
);

/// Every later access, the host's too.
pub(super) const LATER_ACCESS: Scope = (
    vk::PipelineStageFlags::from_raw(
        vk::PipelineStageFlags::ALL_COMMANDS.as_raw() | vk::PipelineStageFlags::HOST.as_raw(),
    ),
    vk::AccessFlags::from_raw(
        vk::AccessFlags::MEMORY_READ.as_raw()
            | vk::AccessFlags::MEMORY_WRITE.as_raw()
            | vk::AccessFlags::HOST_READ.as_raw(),
    ),
);

/// The bits `glMemoryBarrierByRegion` accepts (GL 4.5 §7.12.2).
const BY_REGION_BITS: u32 = GL_ATOMIC_COUNTER_BARRIER_BIT
    | GL_FRAMEBUFFER_BARRIER_BIT
    | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT
    | GL_SHADER_STORAGE_BARRIER_BIT
    | GL_TEXTURE_FETCH_BARRIER_BIT
    | GL_UNIFORM_BARRIER_BIT;

/// Records a global memory barrier from `src` to `dst` into `cb`.
///
/// # Safety
/// `cb` is the manager's recording command buffer, outside any render pass.
pub(super) unsafe fn global_barrier(
    raw: &ash::Device,
    cb: vk::CommandBuffer,
    src: Scope,
    dst: Scope,
) {
    let barrier = vk::MemoryBarrier::default()
        .src_access_mask(src.1)
        .dst_access_mask(dst.1);
    // SAFETY: as the caller guarantees; the barrier lives across the call.
    unsafe {
        raw.cmd_pipeline_barrier(
            cb,
            src.0,
            dst.0,
            vk::DependencyFlags::empty(),
            &[barrier],
            &[],
            &[],
        )
    };
}

impl Context {
    /// Ends the render pass and records every shader write so far against every later access.
    pub(crate) fn shader_write_barrier(&mut self) -> GlResult<()> {
        self.barrier_after(SHADER_WRITES)
    }

    /// Ends the render pass and records the `earlier` writes against every later access.
    fn barrier_after(&mut self, earlier: Scope) -> GlResult<()> {
        self.end_pass();
        let device = self.device.clone();
        let mut locked = device.lock();
        let cb = locked.manager.recording_command_buffer()?;
        // SAFETY: the manager's recording command buffer, outside any pass (fetching it ended
        // the open one).
        unsafe { global_barrier(device.raw(), cb, earlier, LATER_ACCESS) };
        Ok(())
    }

    /// `glTextureBarrier` (GL_ARB_texture_barrier): texels written by earlier draws (as
    /// attachments, or by shaders) can be fetched by later ones. The render pass ends — a
    /// draw never reads, through a texture, what its own pass wrote — and every earlier write
    /// is made visible to every later access.
    pub fn texture_barrier(&mut self) {
        let r = self.barrier_after(ALL_WRITES);
        self.record(r);
    }

    /// `glMemoryBarrierByRegion`: as `glMemoryBarrier` for the bits it allows.
    pub fn memory_barrier_by_region(&mut self, barriers: u32) {
        let r = (|| {
            if barriers != GL_ALL_BARRIER_BITS && barriers & !BY_REGION_BITS != 0 {
                return invalid_value(format!("glMemoryBarrierByRegion bits 0x{barriers:x}"));
            }
            self.shader_write_barrier()
        })();
        self.record(r);
    }
}
