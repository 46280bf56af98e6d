//! Draw-time validation: the GL errors a draw raises from its arguments and the current state,
//! before anything is read from buffers or recorded.
//!
//! Design decisions:
//! - Errors keep the order the draw has always raised them in, so a call that breaks several
//!   rules reports the same one: the call itself (`validate_call`), the program
//!   (`draw_program`), the vertex array, index type and element buffer (`vertex_input`),
//!   framebuffer completeness (`draw_target`), each input's array (`vertex_input` again), then
//!   the blend state the draw buffers can take (`check_blend_state`), and last the uniform
//!   blocks' bindings (`resources`). The checks that need a bound buffer (mapped, without
//!   storage, an offset past its end) stay where the buffer is resolved.
//! - A draw of no vertices or no instances returns once the framebuffer is known complete,
//!   before the per-input checks.
//! - `check_draw_state` is the part that depends on state alone, which `glBegin` raises too.

use std::sync::Arc;

use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlError, GlResult};
use crate::gl::context::{Context, Profile};
use crate::gl::draw::lower::is_legacy_mode;
use crate::gl::draw::DrawCall;
use crate::gl::objects::program::Linked;
use crate::gl::vk::conv::topology;

/// What [`Context::draw_program`] resolves: the program and its per-program state.
pub(crate) struct DrawProgram {
    pub linked: Arc<Linked>,
    /// The default uniform block's bytes, streamed per draw.
    pub uniform_data: Vec<u8>,
    /// Per sampler uniform, the texture unit of each element.
    pub sampler_units: Vec<Vec<u32>>,
    /// Per uniform block element, its binding point.
    pub block_bindings: Vec<u32>,
    /// Per storage block element, its binding point (`compute::storage`).
    pub storage_bindings: Vec<u32>,
    /// Per image uniform, the image unit of each element.
    pub image_units: Vec<Vec<u32>>,
}

impl DrawProgram {
    /// Whether the program has a geometry stage (primitive counting and query segments differ).
    pub(super) fn has_geometry_shader(&self) -> bool {
        self.linked
            .modules
            .iter()
            .any(|(stage, _)| *stage == crate::glsl::Stage::Geometry)
    }

    /// Whether the program may write memory (storage blocks, atomic counters, images): its
    /// vertex-processing stages then run for their side effects even under rasterizer discard.
    pub(super) fn writes_memory(&self) -> bool {
        !self.linked.storage_blocks.is_empty() || !self.linked.images.is_empty()
    }
}

impl Context {
    /// The errors of the call itself: a mode this profile has no primitive for, a draw between
    /// `glBegin` and `glEnd` (the draw `glEnd` makes has its own vertex array in place),
    /// negative counts.
    pub(super) fn validate_call(&self, call: &DrawCall) -> GlResult<()> {
        let compat = self.profile == Profile::Compatibility;
        self.es_check_mode(call.mode)?;
        if is_legacy_mode(call.mode) {
            if !compat {
                return invalid_enum("primitive mode (core profile)", call.mode);
            }
        } else {
            self.check_patches_known(call.mode)?;
            topology(call.mode)?;
        }
        if self.compat.immediate.is_some() && self.vao_override.is_none() {
            return invalid_op("draw between glBegin and glEnd");
        }
        if call.count < 0 || call.instances < 0 || call.first < 0 {
            return invalid_value(format!(
                "draw count {} first {} instances {}",
                call.count, call.first, call.instances
            ));
        }
        Ok(())
    }

    /// Per-draw-buffer blend state a draw into `attachments` colour attachments can build:
    /// dual-source factors feed at most `GL_MAX_DUAL_SOURCE_DRAW_BUFFERS` (1) draw buffers, and
    /// without `independentBlend` every attachment needs the same enable, mask and (where
    /// blending is on: `pipeline` builds disabled attachments with the initial factors)
    /// factors and equations.
    pub(super) fn check_blend_state(&self, attachments: usize) -> GlResult<()> {
        let b = &self.pipeline_state.blend;
        let n = attachments.min(crate::gl::context::state::MAX_DRAW_BUFFERS);
        // ARB_blend_func_extended: any draw buffer with blending on and a SRC1 factor, while
        // more draw buffers than MAX_DUAL_SOURCE_DRAW_BUFFERS are active.
        let dual = (0..n).any(|i| b.enabled & (1 << i) != 0 && b.funcs[i].is_dual_source());
        if dual && attachments > 1 {
            return invalid_op(format!(
                "dual-source blending into {attachments} draw buffers (GL_MAX_DUAL_SOURCE_DRAW_BUFFERS is 1)"
            ));
        }
        if !self.device.caps().independent_blend && n > 1 {
            let enables: Vec<bool> = (0..n).map(|i| b.enabled & (1 << i) != 0).collect();
            let masks = &self.pipeline_state.color_mask[..n];
            let funcs = &b.funcs[..n];
            if enables.windows(2).any(|w| w[0] != w[1])
                || masks.windows(2).any(|w| w[0] != w[1])
                || (enables[0] && funcs.windows(2).any(|w| w[0] != w[1]))
            {
                return invalid_op(
                    "draw buffers with different blend state or colour masks need the independentBlend feature, which this device lacks",
                );
            }
        }
        Ok(())
    }

    /// The program a draw runs: the current one, or with none in a compatibility context the
    /// fixed-function one. `GL_INVALID_OPERATION` when there is none or it is not linked.
    pub(super) fn draw_program(&mut self) -> GlResult<DrawProgram> {
        if self.program == 0 {
            // GL_ARB_separate_shader_objects: the bound program pipeline's stages.
            if let Some(pipeline) = self.pipeline_draw_program()? {
                return Ok(pipeline);
            }
            if self.profile != Profile::Compatibility {
                return invalid_op("draw with no current program");
            }
            // The compatibility profile's fixed function.
            let (linked, sampler_units) = self.ff_program()?;
            let uniform_data = vec![0u8; linked.default_block_size as usize];
            return Ok(DrawProgram {
                linked,
                uniform_data,
                sampler_units,
                block_bindings: Vec::new(),
                storage_bindings: Vec::new(),
                image_units: Vec::new(),
            });
        }
        let reuse = self.encoder.scratch.program.take();
        self.program_draw_state_reusing(self.program, reuse)
    }

    /// What a draw needs of program `name`, which must be a linked graphics program whose
    /// samplers do not conflict.
    pub(crate) fn program_draw_state(&self, name: u32) -> GlResult<DrawProgram> {
        self.program_draw_state_reusing(name, None)
    }

    /// [`Context::program_draw_state`], refilling `reuse` (the last draw's) when there is one.
    fn program_draw_state_reusing(
        &self,
        name: u32,
        reuse: Option<DrawProgram>,
    ) -> GlResult<DrawProgram> {
        let p = self
            .programs
            .get(name)
            .ok_or_else(|| GlError::InvalidOperation("the current program is gone".into()))?;
        let linked = p.linked("draw")?;
        if linked.is_compute() {
            return invalid_op("draw with a compute program current");
        }
        if let Some(why) =
            crate::gl::objects::program::sampler_unit_conflict(linked, &p.sampler_units)
        {
            return invalid_op(format!("draw: {why}"));
        }
        // The last draw's copy refilled in place: a steady-state draw allocates nothing here
        // (`scratch::DrawScratch`).
        Ok(match reuse {
            Some(mut d) => {
                d.linked = linked.clone();
                d.uniform_data.clone_from(&p.uniform_data);
                d.sampler_units.clone_from(&p.sampler_units);
                d.block_bindings.clone_from(&p.block_bindings);
                d.storage_bindings.clone_from(&p.storage_bindings);
                d.image_units.clone_from(&p.image_units);
                d
            }
            None => DrawProgram {
                linked: linked.clone(),
                uniform_data: p.uniform_data.clone(),
                sampler_units: p.sampler_units.clone(),
                block_bindings: p.block_bindings.clone(),
                storage_bindings: p.storage_bindings.clone(),
                image_units: p.image_units.clone(),
            },
        })
    }

    /// The errors a drawing command raises from the current state alone, whatever its
    /// arguments: no program that can draw (`draw_program`), an incomplete draw framebuffer,
    /// blend state its draw buffers cannot take (`check_blend_state`). `glBegin` raises them
    /// too, as "Begin or any procedure that implicitly calls Begin" (ARB_blend_func_extended,
    /// GL 3.2 compatibility §2.6.3), and then does not start a primitive.
    pub(crate) fn check_draw_state(&mut self) -> GlResult<()> {
        self.draw_program()?;
        let target = self.draw_target()?;
        self.check_blend_state(target.colors.len())
    }
}
