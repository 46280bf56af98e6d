//! Recording a draw: the pipeline's key (the state Vulkan bakes into a pipeline), the viewport
//! and scissor, and the commands recorded into the open render pass.
//!
//! Design decisions:
//! - The pipeline key holds every piece of pipeline state Vulkan cannot set dynamically,
//!   so one GL state maps to one cached pipeline; viewport, scissor, blend constants, line width
//!   and stencil references are dynamic state.
//! - A draw records only what changed since the last draw in the same pass: the bound pipeline
//!   and the dynamic state, vertex and index buffers and descriptor sets (set 1 with its
//!   dynamic offset) in `Encoder::recorded` are compared first, so a draw of unchanged state
//!   records its draw command alone (`Context::draw_commands_recorded` counts them)
//!   (lavapipe, MoltenVK and most mobile drivers pay per command recorded). Both are forgotten
//!   with a new pass or an internal draw.
//! - The pass is looked up (and begun) only here, after everything that could end it.
//! - Viewports and scissors (the viewport array, scaled for a reduced render scale) are
//!   `draw::viewport`'s.

use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::GlResult;
use crate::gl::context::Context;
use crate::gl::draw::descriptors::DescriptorSets;
use crate::gl::draw::profile::Phase;
use crate::gl::draw::resources::DrawResources;
use crate::gl::draw::validate::DrawProgram;
use crate::gl::draw::vertex_input::{Assembly, DrawIndices};
use crate::gl::draw::viewport::DrawViewports;
use crate::gl::draw::DrawCall;
use crate::gl::objects::framebuffer::Target;
use crate::gl::objects::program::Linked;
use crate::gl::vk::pipeline::{self, DepthStencilKey, PipelineKey, VertexAttribute, VertexBinding};
use crate::glsl::draw_parameters::DrawParameters;

/// What the encoder remembers of the last draw in its pass (`Encoder::recorded`). It is
/// updated in place, the viewports only when they changed: a draw copies no more than the
/// small `DrawState` (the viewport array is 16 entries, issue 20's per-draw cost).
#[derive(Debug, Clone)]
pub(super) struct RecordedState {
    state: DrawState,
    viewports: DrawViewports,
    vertex_buffers: Vec<(vk::Buffer, u64)>,
}

/// A draw's dynamic state and binds other than the viewports and vertex buffers.
#[derive(Debug, Clone, Copy, PartialEq)]
struct DrawState {
    blend_constants: [f32; 4],
    line_width: Option<f32>,
    stencil_reference: [u32; 2],
    /// The layout set 0 was bound with and the set, when the draw binds one.
    set0: Option<(vk::PipelineLayout, vk::DescriptorSet)>,
    /// Set 1 and its dynamic offset, as last bound (with set 0's layout: one pipeline layout).
    set1: Option<(vk::PipelineLayout, vk::DescriptorSet, u32)>,
    /// The index buffer bound: (buffer, offset, index type).
    index_buffer: Option<(vk::Buffer, u64, vk::IndexType)>,
}

/// Which parts of the remembered state a draw changes (each true with nothing remembered).
struct Changes {
    viewports: bool,
    scissors: bool,
    vertex_buffers: bool,
}

impl Context {
    /// The pipeline key of a draw of `linked` into `target` with the given vertex input.
    pub(super) fn pipeline_key(
        &self,
        linked: &Linked,
        target: &Target,
        assembly: &Assembly,
        (bindings, attributes): (Vec<VertexBinding>, Vec<VertexAttribute>),
        mut color_formats: Vec<vk::Format>,
    ) -> PipelineKey {
        let topo = assembly.topology;
        let type_max = match assembly.element.as_ref().map(|e| e.index_size) {
            Some(1) => Some(0xFF),
            Some(2) => Some(0xFFFF),
            Some(4) => Some(0xFFFF_FFFF),
            _ => None,
        };
        let restart = assembly.lowered.as_ref().is_some_and(|l| l.restart)
            || type_max.is_some_and(|max| self.pipeline_state.restart_for(max) == Some(max));
        let f = &self.pipeline_state;
        color_formats.extend(
            target
                .colors
                .iter()
                .map(|b| b.map_or(vk::Format::UNDEFINED, |b| b.format)),
        );
        PipelineKey {
            program: linked.id,
            topology: topo.as_raw(),
            primitive_restart: restart
                && matches!(
                    topo,
                    vk::PrimitiveTopology::LINE_STRIP
                        | vk::PrimitiveTopology::TRIANGLE_STRIP
                        | vk::PrimitiveTopology::TRIANGLE_FAN
                ),
            bindings,
            attributes,
            color_formats,
            depth_stencil_format: target
                .depth_stencil
                .map_or(vk::Format::UNDEFINED, |b| b.format),
            blend: f.blend,
            no_dst_alpha: self.draw_buffers_without_alpha(),
            provoking_last: assembly.provoking_last,
            subroutines: self.subroutine_constants(linked),
            color_masks: f.color_mask.map(crate::gl::context::state::mask_bits),
            depth_stencil: DepthStencilKey {
                depth_test: f.depth_test,
                depth_write: f.depth_mask,
                depth_compare: f.depth_func,
                stencil_test: f.stencil_test,
                stencil: [
                    pipeline::stencil_key(&f.stencil[0]),
                    pipeline::stencil_key(&f.stencil[1]),
                ],
            },
            cull_mode: if f.cull_face {
                crate::gl::vk::conv::cull_mode(f.cull_mode).as_raw()
            } else {
                0
            },
            // GL's orientation is kept (see `state`): GL_CCW is Vulkan's clockwise.
            // … and under `GL_UPPER_LEFT` the viewport's flip flips it back (`clip_control`).
            front_face_cw: (f.front_face == GL_CCW) != f.clip_control.upper_left(),
            depth_zero_to_one: f.clip_control.zero_to_one(),
            polygon_offset: f.polygon_offset_fill.then(|| {
                (
                    f.polygon_offset[0].to_bits(),
                    f.polygon_offset[1].to_bits(),
                    f.polygon_offset_clamp.to_bits(),
                )
            }),
            depth_clamp: f.depth_clamp,
            rasterizer_discard: f.rasterizer_discard,
            points: (topo == vk::PrimitiveTopology::POINT_LIST).then(|| {
                let [lo, hi] = self.device.caps().limits.point_size_range;
                let size = if self.device.caps().large_points {
                    f.point_size.clamp(lo, hi.max(lo))
                } else {
                    1.0
                };
                (f.program_point_size, size.to_bits())
            }),
            samples: target.samples,
            alpha_to_coverage: f.sample_alpha_to_coverage && f.multisample,
            min_sample_shading: (f.sample_shading
                && f.multisample
                && target.samples > 1
                && self.device.caps().gl4.sample_rate_shading)
                .then(|| f.min_sample_shading.to_bits()),
            sample_mask: if f.sample_mask && f.multisample && target.samples > 1 {
                f.sample_mask_value
            } else {
                u32::MAX
            },
            frag_coord_height: if linked.frag_coord_upper_left {
                target.height
            } else {
                0
            },
            alpha_func: match (linked.frag_epilogue, self.compat.alpha_test) {
                (true, true) => self.compat.alpha_func.saturating_sub(GL_NEVER),
                _ => crate::glsl::frag_epilogue::ALPHA_ALWAYS,
            },
            clamp_fragment_color: linked.frag_epilogue && self.clamp.clamps_fragments(),
            stipple: linked.frag_epilogue && self.stipples(topo),
            patch_control_points: if topo == vk::PrimitiveTopology::PATCH_LIST {
                self.patch.vertices
            } else {
                0
            },
            default_levels: self.default_levels(linked, topo),
            viewport_count: self.viewport_count(linked),
        }
    }

    /// Records the draw into this context's render pass for `target`, beginning one if needed.
    pub(super) fn record_draw(
        &mut self,
        call: &DrawCall,
        target: &Target,
        viewports: &DrawViewports,
        program: &DrawProgram,
        resources: &DrawResources,
        sets: DescriptorSets,
    ) -> GlResult<()> {
        // Without hostQueryReset the segments' slots are reset by a command, outside the pass.
        self.restock_segments(program.has_geometry_shader())?;
        let cb = self.pass_for(target)?;
        // Opening query segments records into the open pass and never ends it.
        self.segments_at_draw(program.has_geometry_shader())?;
        self.encoder.profile.mark(Phase::Pass);
        let pipeline = resources.pipeline;
        let layout = program.linked.pipeline_layout;
        let now = DrawState {
            set0: sets.set0.map(|set| (layout, set)),
            set1: sets.set1.map(|(set, offset)| (layout, set, offset)),
            index_buffer: resources.indices.index_buffer(),
            ..self.dynamic_state()
        };
        let vb = &resources.vertex_buffers;
        let pairs = || vb.raw.iter().copied().zip(vb.offsets.iter().copied());
        let recorded = self.encoder.recorded.as_ref();
        let changes = Changes {
            viewports: changed(recorded, |l| l.viewports.viewports_differ(viewports)),
            scissors: changed(recorded, |l| l.viewports.scissors_differ(viewports)),
            vertex_buffers: changed(recorded, |l| !l.vertex_buffers.iter().copied().eq(pairs())),
        };
        let last = recorded.map(|l| l.state);
        let bind_vertex_buffers = !vb.raw.is_empty() && changes.vertex_buffers;
        let raw = self.device.raw();
        let mut commands = 0u64;
        // SAFETY: `cb` is inside this context's render pass for `target`; the pipeline was built
        // for exactly these attachment formats; every bound object is live and stamped for the
        // recording epoch; the descriptor sets match the pipeline layout.
        unsafe {
            if self.encoder.pipeline != pipeline {
                raw.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipeline);
                self.encoder.pipeline = pipeline;
                commands += 1;
            }
            commands += record_viewports(raw, cb, viewports, &changes);
            commands += record_dynamic_state(raw, cb, last.as_ref(), &now);
            commands += record_descriptor_sets(raw, cb, layout, last.as_ref(), &now);
            if bind_vertex_buffers {
                raw.cmd_bind_vertex_buffers(cb, 0, &vb.raw, &vb.offsets);
                commands += 1;
            }
            if let Some((buffer, offset, ty)) = now
                .index_buffer
                .filter(|_| changed(last.as_ref(), |l| l.index_buffer != now.index_buffer))
            {
                raw.cmd_bind_index_buffer(cb, buffer, offset, ty);
                commands += 1;
            }
            // Transform feedback is begun after the pipeline is bound and ended right after the
            // draw (`objects::transform_feedback`).
            let xfb = resources.feedback.as_ref().zip(self.device.xfb());
            if let Some((f, loader)) = xfb {
                f.begin(loader, cb);
                commands += 1;
            }
            let pushes = program.linked.pushes_draw_parameters.then_some(layout);
            let no_indices = matches!(resources.indices, DrawIndices::Element { count: 0, .. });
            match (call.indirect, resources.indirect) {
                // An element buffer without one whole index past the offset draws nothing.
                (Some(commands), Some(buffers)) if !no_indices => {
                    let multi = self.device.caps().gl4.multi_draw_indirect;
                    let indices = &resources.indices;
                    super::indirect::record_indirect(
                        raw, cb, buffers, &commands, indices, multi, pushes,
                    )
                }
                _ => {
                    if let Some(layout) = pushes {
                        let params = direct_draw_parameters(call, &resources.indices);
                        push_draw_parameters(raw, cb, layout, &params);
                    }
                    record_draw_command(raw, cb, call, &resources.indices)
                }
            }
            commands += 1;
            if let Some((f, loader)) = xfb {
                f.end(loader, cb);
                commands += 1;
            }
        }
        self.encoder.commands_recorded += commands;
        self.remember(now, viewports, &changes, pairs);
        Ok(())
    }

    /// Keeps what the draw recorded for the next draw to compare with: in place, copying the
    /// viewports and refilling the vertex-buffer list only when they changed (a steady-state
    /// draw allocates and copies nothing for them).
    fn remember<I: Iterator<Item = (vk::Buffer, u64)>>(
        &mut self,
        now: DrawState,
        viewports: &DrawViewports,
        changes: &Changes,
        pairs: impl Fn() -> I,
    ) {
        let Some(recorded) = self.encoder.recorded.as_mut() else {
            self.encoder.recorded = Some(RecordedState {
                state: now,
                viewports: *viewports,
                vertex_buffers: pairs().collect(),
            });
            return;
        };
        recorded.state = now;
        if changes.viewports || changes.scissors {
            recorded.viewports = *viewports;
        }
        if changes.vertex_buffers {
            recorded.vertex_buffers.clear();
            recorded.vertex_buffers.extend(pairs());
        }
    }

    /// The dynamic state this draw records, to compare with the last (`record_draw` fills in
    /// the sets and the index buffer).
    fn dynamic_state(&self) -> DrawState {
        let caps = self.device.caps();
        let line_width = caps.wide_lines.then(|| {
            let range = caps.limits.line_width_range;
            self.pipeline_state.line_width.clamp(range[0], range[1])
        });
        DrawState {
            blend_constants: self.pipeline_state.blend_color,
            line_width,
            set0: None,
            set1: None,
            index_buffer: None,
            stencil_reference: [
                self.pipeline_state.stencil[0].reference as u32,
                self.pipeline_state.stencil[1].reference as u32,
            ],
        }
    }
}

/// Whether the recorded `last` differs where `differs` looks (always, with no last).
#[inline]
fn changed<T>(last: Option<&T>, differs: impl FnOnce(&T) -> bool) -> bool {
    last.is_none_or(differs)
}

/// Records the viewports and scissors where `changes` says they changed; returns how many
/// commands.
///
/// # Safety
///
/// `cb` is recording inside a render pass, with a pipeline bound whose viewport count is
/// `viewports.count` and whose viewports and scissors are dynamic.
unsafe fn record_viewports(
    raw: &ash::Device,
    cb: vk::CommandBuffer,
    viewports: &DrawViewports,
    changes: &Changes,
) -> u64 {
    // SAFETY: as the caller guarantees.
    unsafe {
        if changes.viewports {
            viewports.record_viewports(raw, cb);
        }
        if changes.scissors {
            viewports.record_scissors(raw, cb);
        }
    }
    u64::from(changes.viewports) + u64::from(changes.scissors)
}

/// Records the dynamic state in which `now` differs from `last`; returns how many commands.
///
/// # Safety
///
/// `cb` is recording inside a render pass, with a pipeline bound that takes this dynamic state.
unsafe fn record_dynamic_state(
    raw: &ash::Device,
    cb: vk::CommandBuffer,
    last: Option<&DrawState>,
    now: &DrawState,
) -> u64 {
    let line_width = now.line_width;
    let mut commands = 0;
    // SAFETY: as the caller guarantees.
    unsafe {
        if changed(last, |l| l.blend_constants != now.blend_constants) {
            raw.cmd_set_blend_constants(cb, &now.blend_constants);
            commands += 1;
        }
        if let Some(width) = line_width.filter(|_| changed(last, |l| l.line_width != line_width)) {
            raw.cmd_set_line_width(cb, width);
            commands += 1;
        }
        let faces = [vk::StencilFaceFlags::FRONT, vk::StencilFaceFlags::BACK];
        for (face, flag) in faces.into_iter().enumerate() {
            let reference = now.stencil_reference[face];
            if changed(last, |l| l.stencil_reference[face] != reference) {
                raw.cmd_set_stencil_reference(cb, flag, reference);
                commands += 1;
            }
        }
    }
    commands
}

/// Binds the draw's sets, each unless the last draw in the pass bound the same with the same
/// layout: set 0 (a set is never rewritten while its pass is open: see `descriptors`) and set 1
/// with its dynamic offset (it moves when the draw's default-block bytes do); one call when both
/// are bound (set 0 holds no dynamic descriptor, so the offset is set 1's). Set 1 is rebound
/// with set 0, since binding set 0 under another layout may disturb it. Returns how many
/// commands it recorded.
///
/// # Safety
///
/// `cb` is recording inside a render pass; the sets match `layout`.
#[inline]
unsafe fn record_descriptor_sets(
    raw: &ash::Device,
    cb: vk::CommandBuffer,
    layout: vk::PipelineLayout,
    last: Option<&DrawState>,
    now: &DrawState,
) -> u64 {
    let set0 = now
        .set0
        .filter(|_| changed(last, |l| l.set0 != now.set0))
        .map(|(_, set)| set);
    let set1 = now
        .set1
        .filter(|_| set0.is_some() || changed(last, |l| l.set1 != now.set1))
        .map(|(_, set, offset)| (set, offset));
    let graphics = vk::PipelineBindPoint::GRAPHICS;
    // SAFETY: as the caller guarantees.
    unsafe {
        match (set0, set1) {
            (Some(s0), Some((s1, offset))) => {
                raw.cmd_bind_descriptor_sets(cb, graphics, layout, 0, &[s0, s1], &[offset])
            }
            (Some(s0), None) => raw.cmd_bind_descriptor_sets(cb, graphics, layout, 0, &[s0], &[]),
            (None, Some((s1, offset))) => {
                raw.cmd_bind_descriptor_sets(cb, graphics, layout, 1, &[s1], &[offset])
            }
            (None, None) => return 0,
        }
    }
    1
}

/// What a direct draw pushes (`glsl::draw_parameters`): its GL draw index; the device's
/// `BaseVertex` is GL's only for an indexed command from the element buffer (a lowered list has
/// the base vertex folded in, and a non-indexed command's is `firstVertex`, where GL's is 0).
fn direct_draw_parameters(call: &DrawCall, indices: &DrawIndices) -> DrawParameters {
    let from_elements = matches!(indices, DrawIndices::Element { .. });
    DrawParameters {
        draw_id: call.draw_id as i32,
        device_base_vertex: i32::from(from_elements),
        base_vertex: match call.indexed {
            Some((_, _, base)) if !from_elements => base,
            _ => 0,
        },
    }
}

/// Pushes `params` for a program whose vertex stage reads them.
///
/// # Safety
///
/// `cb` is recording; `layout` is a program pipeline layout (`program::link::vulkan_layout`,
/// which carries the vertex range).
pub(super) unsafe fn push_draw_parameters(
    raw: &ash::Device,
    cb: vk::CommandBuffer,
    layout: vk::PipelineLayout,
    params: &DrawParameters,
) {
    // SAFETY: as the caller guarantees; the bytes are the range's size.
    unsafe {
        raw.cmd_push_constants(cb, layout, vk::ShaderStageFlags::VERTEX, 0, &params.bytes());
    }
}

/// Records the draw command: indexed from the element buffer or the lowered list, or not.
///
/// # Safety
///
/// `cb` is recording inside a render pass with a pipeline, its descriptor sets, vertex
/// buffers and index buffer (`DrawIndices::index_buffer`) bound; an index buffer in `indices` is live and used for the recording epoch.
unsafe fn record_draw_command(
    raw: &ash::Device,
    cb: vk::CommandBuffer,
    call: &DrawCall,
    indices: &DrawIndices,
) {
    // SAFETY: as the caller guarantees.
    unsafe {
        match *indices {
            DrawIndices::Element { count, .. } => {
                if count > 0 {
                    raw.cmd_draw_indexed(
                        cb,
                        count,
                        call.instances as u32,
                        0,
                        call.indexed.map_or(0, |i| i.2),
                        call.base_instance,
                    );
                }
            }
            DrawIndices::Lowered { count, .. } => {
                raw.cmd_draw_indexed(cb, count, call.instances as u32, 0, 0, call.base_instance);
            }
            DrawIndices::Nothing => {} // nothing left after lowering
            DrawIndices::Sequential => raw.cmd_draw(
                cb,
                call.count as u32,
                call.instances as u32,
                call.first as u32,
                call.base_instance,
            ),
        }
    }
}
