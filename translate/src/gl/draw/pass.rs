//! The render pass draws and clears record into: attachments moved into attachment layouts, and
//! the dynamic-rendering instance for a target, begun when this context has none open for it.
//!
//! Design decisions:
//! - The open pass is asked for again rather than trusted: anything recorded outside a pass (a
//!   transfer, a layout transition, a submission under memory pressure) ends it inside the
//!   manager, which then no longer reports it open, and the next draw begins a new one with
//!   load operations, so nothing drawn before is lost.
//! - Layout transitions (`prepare_attachments`) run before the pass is looked up: a transition
//!   would end it.
//! - Beginning a pass forgets the bound pipeline and the recorded dynamic state: a new instance
//!   starts with nothing bound.

use ash::vk;

use crate::gl::context::error::{GlError, GlResult};
use crate::gl::context::Context;
use crate::gl::draw::feedback_loop::attachment_ready;
use crate::gl::objects::framebuffer::Target;

impl Context {
    /// Ends this context's render pass (before transfers and at the end of a frame).
    pub(crate) fn end_pass(&mut self) {
        self.encoder.device = Some(self.device.clone());
        self.encoder.end();
    }

    pub(crate) fn prepare_attachments_for(&mut self, target: &Target) -> GlResult<()> {
        self.prepare_attachments(target)
    }

    pub(crate) fn pass_for_target(&mut self, target: &Target) -> GlResult<vk::CommandBuffer> {
        self.pass_for(target)
    }

    /// Makes the next draw bind its pipeline again (an internal draw bound another).
    pub(crate) fn encoder_forget_pipeline(&mut self) {
        self.encoder.pipeline = vk::Pipeline::null();
        self.encoder.recorded = None;
    }

    /// Puts the target's attachments in attachment layouts (outside any pass).
    pub(super) fn prepare_attachments(&mut self, target: &Target) -> GlResult<()> {
        let mut locked = self.device.lock();
        for b in target.colors.iter().flatten() {
            let optimal = vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL;
            if !attachment_ready(locked.manager.image_layout(b.image)?, optimal) {
                locked.manager.transition_image(
                    b.image,
                    vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
                    (
                        vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
                        vk::AccessFlags::COLOR_ATTACHMENT_READ
                            | vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
                    ),
                )?;
            }
        }
        if let Some(d) = target.depth_stencil {
            let optimal = vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
            if !attachment_ready(locked.manager.image_layout(d.image)?, optimal) {
                locked.manager.transition_image(
                    d.image,
                    vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                    (
                        vk::PipelineStageFlags::EARLY_FRAGMENT_TESTS
                            | vk::PipelineStageFlags::LATE_FRAGMENT_TESTS,
                        vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_READ
                            | vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE,
                    ),
                )?;
            }
        }
        Ok(())
    }

    /// The command buffer inside this context's render pass for `target`, beginning one if
    /// needed. Call only after everything that may end a pass.
    pub(super) fn pass_for(&mut self, target: &Target) -> GlResult<vk::CommandBuffer> {
        let device = self.device.clone();
        let mut locked = device.lock();
        if let (Some(pass), Some(t)) = (self.encoder.pass, &self.encoder.target) {
            if t == target {
                if let Some(cb) = locked.manager.rendering_command_buffer(pass) {
                    return Ok(cb);
                }
            }
        }
        // Each attachment in its current layout (`GENERAL` in a feedback loop).
        let mut views = Vec::new();
        for b in &target.colors {
            views.push(match b {
                Some(b) => Some((
                    locked.manager.use_view(b.view)?.raw(),
                    locked.manager.image_layout(b.image)?,
                )),
                None => None,
            });
        }
        let colors: Vec<vk::RenderingAttachmentInfo> = views
            .iter()
            .map(|v| match v {
                Some((view, layout)) => vk::RenderingAttachmentInfo::default()
                    .image_view(*view)
                    .image_layout(*layout)
                    .load_op(vk::AttachmentLoadOp::LOAD)
                    .store_op(vk::AttachmentStoreOp::STORE),
                None => vk::RenderingAttachmentInfo::default(),
            })
            .collect();
        let depth_view = match target.depth_stencil {
            Some(d) => Some((
                locked.manager.use_view(d.view)?.raw(),
                locked.manager.image_layout(d.image)?,
            )),
            None => None,
        };
        let depth = depth_view.map(|(v, layout)| {
            vk::RenderingAttachmentInfo::default()
                .image_view(v)
                .image_layout(layout)
                .load_op(vk::AttachmentLoadOp::LOAD)
                .store_op(vk::AttachmentStoreOp::STORE)
        });
        let mut info = vk::RenderingInfo::default()
            .render_area(vk::Rect2D {
                offset: vk::Offset2D { x: 0, y: 0 },
                extent: vk::Extent2D {
                    width: target.width.max(1),
                    height: target.height.max(1),
                },
            })
            .layer_count(target.layers.max(1))
            .color_attachments(&colors);
        if let Some(d) = depth.as_ref() {
            info = info.depth_attachment(d);
            if target.has_stencil() {
                info = info.stencil_attachment(d);
            }
        }
        let pass = locked.manager.begin_rendering(&info)?;
        let cb = locked
            .manager
            .rendering_command_buffer(pass)
            .ok_or(GlError::Memory(arenagl_memory::MemoryError::Internal(
                "rendering did not open",
            )))?;
        self.encoder.pass = Some(pass);
        self.encoder.target = Some(target.clone());
        self.encoder.pipeline = vk::Pipeline::null();
        self.encoder.recorded = None;
        self.encoder.device = Some(device.clone());
        Ok(cb)
    }
}
