//! Colour clears under a partial `glColorMask`: `vkCmdClearAttachments` ignores write masks, so
//! such a clear is a full-screen triangle of the clear colour drawn with the mask (scissor as the
//! clear's rectangle). The program is an ordinary linked program, made once per context.

use std::sync::Arc;

use ash::vk;

use crate::gl::context::error::GlResult;
use crate::gl::context::state::MAX_DRAW_BUFFERS;
use crate::gl::context::Context;
use crate::gl::objects::framebuffer::Target;
use crate::gl::objects::program::{self, Linked};
use crate::gl::vk::pipeline::PipelineKey;
use crate::glsl::Stage;

const VS: &str = "#version 330 core\nvoid main() {\n    vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID >> 1) * 4 - 1));\n    gl_Position = vec4(p, 0.0, 1.0);\n}\n";
const FS: &str = "#version 330 core\nuniform vec4 arenagl_clear_color;\nlayout(location = 0) out vec4 color0;\nlayout(location = 1) out vec4 color1;\nlayout(location = 2) out vec4 color2;\nlayout(location = 3) out vec4 color3;\nvoid main() {\n    color0 = arenagl_clear_color;\n    color1 = arenagl_clear_color;\n    color2 = arenagl_clear_color;\n    color3 = arenagl_clear_color;\n}\n";

impl Context {
    fn clear_program(&mut self) -> GlResult<Arc<Linked>> {
        if let Some(p) = &self.clear_program {
            return Ok(p.clone());
        }
        let units = [
            (Stage::Vertex, VS.to_owned()),
            (Stage::Fragment, FS.to_owned()),
        ];
        let (linked, _) = program::link(&self.device, &units, &Default::default(), 16)
            .map_err(|e| e.internal("internal clear program"))?;
        let linked = Arc::new(linked);
        self.clear_program = Some(linked.clone());
        Ok(linked)
    }

    /// Clears the colour attachments of `target` inside `rect` to `color` through the colour
    /// masks `masks` (per attachment, bit i: channel i written).
    pub(crate) fn masked_color_clear(
        &mut self,
        target: &Target,
        rect: vk::Rect2D,
        color: [f32; 4],
        masks: [u8; MAX_DRAW_BUFFERS],
    ) -> GlResult<()> {
        let linked = self.clear_program()?;
        let key = PipelineKey {
            color_masks: masks,
            samples: target.samples,
            ..PipelineKey::internal(
                linked.id,
                target
                    .colors
                    .iter()
                    .map(|b| b.map_or(vk::Format::UNDEFINED, |b| b.format))
                    .collect(),
                target
                    .depth_stencil
                    .map_or(vk::Format::UNDEFINED, |b| b.format),
            )
        };
        let device = self.device.clone();
        let mut bytes = Vec::with_capacity(16);
        for c in color {
            bytes.extend_from_slice(&c.to_ne_bytes());
        }
        let (pipeline, range) = {
            let mut locked = device.lock();
            let p = locked.pipeline(device.pipeline_cache(), &linked, &key)?;
            let mut block = vec![0u8; linked.default_block_size as usize];
            if let Some(dst) = block.get_mut(..16) {
                dst.copy_from_slice(&bytes);
            }
            (p, locked.manager.stream(&block, 256)?)
        };
        self.prepare_attachments_for(target)?;
        let (epoch, completed) = {
            let locked = device.lock();
            (
                locked.manager.recording_epoch(),
                locked.manager.completed_epoch(),
            )
        };
        let set = self
            .descriptors
            .allocate(&device, linked.set_layouts[1], epoch, completed)?;
        super::descriptors::write_default_block(device.raw(), set, &linked, range.buffer);
        let cb = self.pass_for_target(target)?;
        // GL clears never count samples: the triangle below must not reach an occlusion query
        // (ending the query records into the open pass and never ends it).
        self.pause_segment(crate::gl::vk::query_pool::SlotKind::Occlusion);
        // Nor a pipeline statistics query (GL_ARB_pipeline_statistics_query).
        self.pause_segment(crate::gl::vk::query_pool::SlotKind::Statistics);
        let viewport = vk::Viewport {
            x: 0.0,
            y: 0.0,
            width: target.width as f32,
            height: target.height as f32,
            min_depth: 0.0,
            max_depth: 1.0,
        };
        let raw = device.raw();
        // SAFETY: `cb` is inside this context's pass for `target`, the pipeline matches its
        // formats, the set matches the program's layout.
        unsafe {
            raw.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipeline);
            raw.cmd_set_viewport(cb, 0, &[viewport]);
            raw.cmd_set_scissor(cb, 0, &[rect]);
            raw.cmd_set_blend_constants(cb, &[0.0; 4]);
            if self.device.caps().wide_lines {
                raw.cmd_set_line_width(cb, 1.0);
            }
            raw.cmd_set_stencil_reference(cb, vk::StencilFaceFlags::FRONT_AND_BACK, 0);
            raw.cmd_bind_descriptor_sets(
                cb,
                vk::PipelineBindPoint::GRAPHICS,
                linked.pipeline_layout,
                1,
                &[set],
                &[range.offset as u32],
            );
            raw.cmd_draw(cb, 3, 1, 0, 0);
        }
        self.encoder_forget_pipeline();
        Ok(())
    }
}
