//! Draws and clears: framebuffer resolution, the open render pass, and what one draw records.
//!
//! A draw ([`Context::draw`]) runs in phases, each in a file of its own, passing small structs
//! from one to the next:
//! 1. `validate` — the errors of the call and of the state it draws with; the program
//!    (`DrawProgram`).
//! 2. `vertex_input` — how vertices become primitives (`Assembly`: the element buffer, or a
//!    `u32` list that `lower` builds on the CPU), then where each shader input reads
//!    (`VertexInput`; the bytes read on the CPU come from `array_bytes`).
//! 3. `target` — the draw framebuffer, resolved and checked complete. It runs between the two
//!    halves of step 2, the order in which the draw has always raised its errors.
//! 4. `record::pipeline_key` — the state Vulkan bakes into a pipeline.
//! 5. `resources` — under one device lock: the pipeline, streamed vertex, index and uniform
//!    data, and the textures, samplers and uniform blocks the program reads (`DrawResources`).
//! 6. `descriptors` — sets 0 and 1, written or reused (`DescriptorSets`).
//! 7. `record` — the render pass (`pass`), the dynamic state, the binds and the draw command.
//!
//! With `ARENAGL_DRAW_PROFILE=1`, `profile` times these phases per context and prints a table
//! when the context is destroyed (`docs/results/per-draw.md`).
//!
//! Clears are in `clear` (with `clear_buffer` and `masked_clear`); `blend_dst_alpha` adjusts
//! blend factors for attachments without alpha. `glReadPixels` is a pixel transfer
//! (`pixel::read`).
//!
//! Design decisions:
//! - Dynamic rendering, one instance open at a time per context, begun lazily by the first draw
//!   or clear and kept open across draws into the same target. Anything that must happen outside
//!   a render pass (a transfer, a layout transition, a submission the OOM ladder makes) ends it
//!   inside the manager; the encoder notices (the manager no longer reports its instance open)
//!   and begins a new one with load operations, so contents are never lost.
//! - A draw first does everything that may allocate or transition (streaming the default
//!   uniform block, texture layouts, attachment layouts), then descriptor writes, then makes sure
//!   its render pass is open, then records: nothing that could end the pass runs between the
//!   begin and the draw.

pub(crate) mod array_bytes;
pub(crate) mod blend_advanced;
pub(crate) mod blend_dst_alpha;
pub(crate) mod clear;
pub(crate) mod clear_buffer;
pub(crate) mod descriptors;
pub(crate) mod feedback_loop;
pub(crate) mod indirect;
pub(crate) mod indirect_count;
pub(crate) mod lower;
pub(crate) mod masked_clear;
pub(crate) mod pass;
pub(crate) mod patch;
pub(crate) mod profile;
pub(crate) mod record;
pub(crate) mod resources;
pub(crate) mod scratch;
pub(crate) mod target;
pub(crate) mod validate;
pub(crate) mod vertex_input;
pub(crate) mod viewport;

pub(crate) use clear::{ClearColor, ClearRequest};

use std::sync::Arc;

use arenagl_memory::Epoch;
use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::GlResult;
use crate::gl::context::state::Rect;
use crate::gl::context::Context;
use crate::gl::objects::framebuffer::Target;
use descriptors::Set0Contents;
use profile::Phase;
use record::RecordedState;
use validate::DrawProgram;
use vertex_input::Assembly;

/// What the open render pass was begun for, and what is bound in it.
#[derive(Default)]
pub(crate) struct Encoder {
    pass: Option<u64>,
    target: Option<Target>,
    pipeline: vk::Pipeline,
    /// Cached default-block set: (arena buffer, pool, layout, recording epoch, set); reused
    /// within its epoch only, as `set0` is.
    default_set: Option<(
        vk::Buffer,
        vk::DescriptorPool,
        vk::DescriptorSetLayout,
        Epoch,
        vk::DescriptorSet,
    )>,
    /// Set by `end` and read by the context: the device to end the pass on.
    device: Option<Arc<crate::gl::vk::device::Device>>,
    /// The last texture/uniform-block sets written (set 0), oldest first, at most
    /// `descriptors::SET0_CACHE`: their contents, pool, recording epoch and set. A draw of the
    /// same epoch whose set would be identical to one reuses it while its pool is still the
    /// current one (a pool is reset only after it stops being current and its epoch
    /// completes). Only within one epoch: a handle retired in it is not destroyed, so not
    /// reused, before the epoch completes; across epochs an equal handle may be a new object.
    set0: Vec<(Set0Contents, vk::DescriptorPool, Epoch, vk::DescriptorSet)>,
    /// The dynamic state and vertex buffers the last draw set in the open pass, so that a draw
    /// records only what changed (lavapipe, MoltenVK and most mobile drivers pay per command
    /// recorded). Forgotten with the pipeline: a new pass or an internal draw.
    recorded: Option<RecordedState>,
    /// The last pipeline looked up: its key, the epoch it was looked up for, the pipeline. A
    /// draw of the same key in the same epoch takes it without hashing the key
    /// (`resources::draw_pipeline`).
    last_pipeline: Option<(crate::gl::vk::pipeline::PipelineKey, Epoch, vk::Pipeline)>,
    /// The last default-block bytes streamed: the bytes, the epoch and where they lie. A draw
    /// of the same epoch with the same bytes reads them there (`resources::default_block`), so
    /// its set 1 offset does not move and is not bound again.
    last_uniforms: Option<(Vec<u8>, Epoch, arenagl_memory::StreamRange)>,
    /// The lists the last draw built, emptied for the next (`scratch`).
    scratch: scratch::DrawScratch,
    /// Commands the draws of this context recorded (binds, dynamic state, draws): a repeated
    /// draw of unchanged state records one (`draw_commands_recorded`).
    commands_recorded: u64,
    /// Per-phase CPU time of this context's draws (`ARENAGL_DRAW_PROFILE=1`).
    pub(crate) profile: profile::DrawProfile,
    /// The destination copy advanced-blending draws read (`blend_advanced`).
    blend_dst: blend_advanced::BlendDst,
}

impl Encoder {
    /// The id of the rendering instance this context last began (it may have ended since).
    pub(crate) fn open_pass(&self) -> Option<u64> {
        self.pass
    }

    /// After a device recovery: forgets every Vulkan object of the lost device it caches
    /// (pipeline, descriptor sets, the recorded state); the open pass died with the device.
    pub(crate) fn forget_lost_device(&mut self) {
        let profile = std::mem::take(&mut self.profile);
        let blend_dst = std::mem::take(&mut self.blend_dst);
        *self = Encoder {
            profile,
            blend_dst,
            commands_recorded: self.commands_recorded,
            ..Encoder::default()
        };
    }

    /// Ends the open render pass, if this context's is the one open.
    pub(crate) fn end(&mut self) {
        if let (Some(pass), Some(device)) = (self.pass.take(), self.device.as_ref()) {
            let mut locked = device.lock();
            if locked.manager.rendering_command_buffer(pass).is_some() {
                locked.manager.end_rendering();
            }
        }
        self.target = None;
        self.pipeline = vk::Pipeline::null();
        self.recorded = None;
    }
}

/// A draw call as GL states it.
#[derive(Debug, Clone, Copy, Default)]
pub struct DrawCall {
    pub mode: GLenum,
    pub first: i32,
    pub count: i32,
    pub instances: i32,
    /// (index type, byte offset in the element buffer, base vertex) for indexed draws.
    pub indexed: Option<(GLenum, u64, i32)>,
    /// The first instance per-instance arrays read (GL_ARB_base_instance); `gl_InstanceID`
    /// still counts from 0.
    pub base_instance: u32,
    /// Set for a draw the device reads from `GL_DRAW_INDIRECT_BUFFER` (`indirect`): `first`,
    /// `count`, `instances` and the base vertex are then in that buffer, not in the call.
    pub indirect: Option<indirect::IndirectCommands>,
    /// The draw's index in its `glMultiDraw*` call (`gl_DrawIDARB`); 0 for a single draw.
    pub draw_id: u32,
}

/// The intersection of a GL rectangle with the target, as a Vulkan rect (None when empty).
pub(crate) fn clip(r: Rect, w: u32, h: u32) -> Option<vk::Rect2D> {
    let x0 = r.x.max(0) as i64;
    let y0 = r.y.max(0) as i64;
    let x1 = (r.x as i64 + r.width as i64).min(w as i64);
    let y1 = (r.y as i64 + r.height as i64).min(h as i64);
    (x1 > x0 && y1 > y0).then(|| vk::Rect2D {
        offset: vk::Offset2D {
            x: x0 as i32,
            y: y0 as i32,
        },
        extent: vk::Extent2D {
            width: (x1 - x0) as u32,
            height: (y1 - y0) as u32,
        },
    })
}

impl Context {
    /// How many Vulkan commands (binds, dynamic state, draw commands) this context's draws have
    /// recorded so far: a draw whose state did not change since the last one in the same
    /// render pass records only its draw command (issue 20's dirty tracking; tests read it).
    pub fn draw_commands_recorded(&self) -> u64 {
        self.encoder.commands_recorded
    }

    /// Every draw call.
    ///
    /// # Safety
    /// In a compatibility context with no element array buffer bound, an indexed `call`'s
    /// offset is the address of its `count` indices, readable for the call's duration; and the
    /// client arrays the draw reads meet the contract of the calls that specified them
    /// ([`Context::vertex_attrib_pointer`] and the fixed-function `*_pointer` calls).
    pub unsafe fn draw(&mut self, call: DrawCall) {
        let r = self.draw_inner(call);
        self.record(r);
    }

    /// One draw, phase by phase (see the module docs).
    fn draw_inner(&mut self, call: DrawCall) -> GlResult<()> {
        self.encoder.profile.begin();
        self.validate_call(&call)?;
        self.encoder.profile.mark(Phase::Validate);
        let mut program = self.draw_program()?;
        self.check_patch_mode(call.mode, &program.linked)?;
        self.check_feedback_mode(call.mode, &program.linked)?;
        self.fill_builtin_uniforms(&mut program);
        self.encoder.profile.mark(Phase::Program);
        let vao = self.draw_vertex_array()?;
        let assembly = self.assemble_primitives(&call, &program.linked, &vao)?;
        self.encoder.profile.mark(Phase::VertexInput);
        let target = self.draw_target()?;
        self.encoder.profile.mark(Phase::Target);
        if call.count == 0 || call.instances == 0 {
            return Ok(());
        }
        let Some(max_vertex) = assembly.max_vertex(&call) else {
            return Ok(()); // nothing left to draw after lowering
        };
        let viewports = self.draw_viewports(&target, &program.linked);
        let input = self.encoder.scratch.vertex_input();
        let vertex = self.vertex_input(&call, &program.linked, &vao, max_vertex, input)?;
        self.encoder.profile.mark(Phase::VertexInput);
        self.check_blend_state(target.colors.len())?;
        self.check_advanced_blend(&program.linked)?;
        if self.render_discarded() {
            return Ok(());
        }
        self.count_primitives(&call, &program, &assembly)?;
        let feedback = self.feedback_for_draw(&call, assembly.element_extent())?;
        // Under rasterizer discard a draw has no effect but the primitives just counted, what
        // transform feedback captures and what its shaders write to memory — unless the
        // device counts them, for a geometry shader or an active pipeline statistics query.
        // Not recording it also keeps a discarding pipeline out of a pass whose multisampled
        // attachments its ignored multisample state cannot match.
        let device_counts = program.has_geometry_shader() && self.counting_primitives()
            || self.counting_statistics()
            || program.writes_memory();
        if self.pipeline_state.rasterizer_discard && !device_counts && feedback.is_none() {
            return Ok(());
        }
        // An empty viewport or scissor draws nothing, but its primitives were counted (and
        // are captured).
        let empty = || viewport::DrawViewports::empty(self.viewport_count(&program.linked));
        let Some(viewports) = viewports.or_else(|| feedback.as_ref().map(|_| empty())) else {
            return Ok(());
        };
        self.encoder.profile.mark(Phase::Validate);
        let formats = self.encoder.scratch.color_formats();
        let key = self.pipeline_key(
            &program.linked,
            &target,
            &assembly,
            (vertex.bindings, vertex.attributes),
            formats,
        );
        self.encoder.profile.mark(Phase::PipelineKey);
        // Everything that may allocate, stream or transition, before the pass.
        self.copy_blend_destination(&target)?;
        let mut resources =
            self.draw_resources(&call, &program, &key, &vertex.sources, &assembly, &target)?;
        resources.feedback = feedback;
        self.encoder.profile.mark(Phase::Resources);
        self.prepare_attachments(&target)?;
        self.encoder.profile.mark(Phase::Target);
        let sets = self.descriptor_sets(&program.linked, &resources)?;
        self.encoder.profile.mark(Phase::Descriptors);
        self.record_draw(&call, &target, &viewports, &program, &resources, sets)?;
        self.encoder.profile.mark(Phase::Record);
        let scratch = &mut self.encoder.scratch;
        scratch.recycle(program, key, vertex.sources, resources);
        Ok(())
    }

    /// Adds the draw's primitives to an active `GL_PRIMITIVES_GENERATED` query; the device
    /// counts those of a program with a geometry shader, where it can.
    fn count_primitives(
        &mut self,
        call: &DrawCall,
        program: &DrawProgram,
        assembly: &Assembly,
    ) -> GlResult<()> {
        if self.counting_primitives() {
            if patch::tessellates(&program.linked) && !program.has_geometry_shader() {
                // Not counted: the primitives are the tessellator's, which no CPU count and
                // no pipeline statistic without a geometry stage gives.
            } else if !program.has_geometry_shader() {
                let n = self.primitives_of_draw(call, assembly.element_extent())?;
                self.add_primitives(n);
            } else if !self.device.caps().pipeline_statistics {
                static WARNED: std::sync::atomic::AtomicBool =
                    std::sync::atomic::AtomicBool::new(false);
                if !WARNED.swap(true, std::sync::atomic::Ordering::Relaxed) {
                    tracing::warn!(
                        "GL_PRIMITIVES_GENERATED misses geometry-shader draws: the device has no pipelineStatisticsQuery"
                    );
                }
            }
        }
        Ok(())
    }
}
