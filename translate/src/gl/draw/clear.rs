//! `glClear`, and the clear every clear command ends in (`clear_target`, which `glClearBuffer*`
//! shares).
//!
//! Design decisions:
//! - A clear is recorded inside the render pass with `vkCmdClearAttachments` over the scissor
//!   rectangle, so a clear between draws into the same target keeps their pass open.
//! - Draw buffers with a partial colour mask are cleared by one masked draw (`masked_clear`);
//!   depth is skipped while the depth mask is off and stencil while the front write mask is 0.
//! - Under conditional rendering that discards, or rasterizer discard, a clear does nothing.

use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_value, GlResult};
use crate::gl::context::state::MAX_DRAW_BUFFERS;
use crate::gl::context::Context;
use crate::gl::draw::clip;
use crate::gl::objects::framebuffer::Target;

/// A colour clear value as the buffer's kind takes it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum ClearColor {
    Float([f32; 4]),
    Int([i32; 4]),
    Uint([u32; 4]),
}

impl ClearColor {
    fn vulkan(self) -> vk::ClearColorValue {
        match self {
            ClearColor::Float(float32) => vk::ClearColorValue { float32 },
            ClearColor::Int(int32) => vk::ClearColorValue { int32 },
            ClearColor::Uint(uint32) => vk::ClearColorValue { uint32 },
        }
    }
}

/// What one clear writes: colour draw-buffer slots with their values, depth, stencil.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ClearRequest {
    pub colors: Vec<(usize, ClearColor)>,
    pub depth: Option<f32>,
    pub stencil: Option<u32>,
}

impl Context {
    /// `glClear`.
    pub fn clear(&mut self, mask: u32) {
        let r = self.clear_inner(mask);
        self.record(r);
    }

    fn clear_inner(&mut self, mask: u32) -> GlResult<()> {
        let all = GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT;
        if mask & !all != 0 {
            return invalid_value(format!("glClear mask 0x{mask:x}"));
        }
        let target = self.draw_target()?;
        let c = self.pipeline_state.clear_color;
        let colors = if mask & GL_COLOR_BUFFER_BIT != 0 {
            (0..target.colors.len())
                .map(|i| (i, ClearColor::Float(c)))
                .collect()
        } else {
            Vec::new()
        };
        let request = ClearRequest {
            colors,
            depth: (mask & GL_DEPTH_BUFFER_BIT != 0)
                .then_some(self.pipeline_state.clear_depth as f32),
            stencil: (mask & GL_STENCIL_BUFFER_BIT != 0)
                .then_some(self.pipeline_state.clear_stencil as u32),
        };
        self.clear_target(&target, request)
    }

    /// Clears what `request` names in `target` (the draw framebuffer) through the scissor, the
    /// colour masks, the depth mask and the stencil write mask; discarded under conditional
    /// rendering and rasterizer discard (GL 4.6 §17.4.3: `glClear` and `glClearBuffer*` alike).
    pub(crate) fn clear_target(&mut self, target: &Target, request: ClearRequest) -> GlResult<()> {
        if self.render_discarded() || self.pipeline_state.rasterizer_discard {
            return Ok(());
        }
        // Clears see index 0's scissor only (GL_ARB_viewport_array).
        let area = self.pipeline_state.viewports.scissor_area(0);
        let Some(rect) = clip(target.to_image(area), target.width, target.height) else {
            return Ok(());
        };
        let mut clears = Vec::new();
        // Draw buffer i clears through its own mask: whole ones with vkCmdClearAttachments,
        // partial ones with a masked draw (float colours; an integer buffer under a partial
        // mask is cleared whole).
        let masks = self
            .pipeline_state
            .color_mask
            .map(crate::gl::context::state::mask_bits);
        let mut masked: Option<([f32; 4], [u8; MAX_DRAW_BUFFERS])> = None;
        for (i, value) in request.colors {
            if target.colors.get(i).copied().flatten().is_none() {
                continue;
            }
            let mask = masks.get(i).copied().unwrap_or(0xF);
            if mask == 0 {
                continue;
            }
            if let (true, ClearColor::Float(c)) = (mask != 0xF, value) {
                let entry = masked.get_or_insert((c, [0; MAX_DRAW_BUFFERS]));
                if entry.0 == c {
                    entry.1[i] = mask;
                    continue;
                }
                // A second colour under a partial mask (glClearBuffer clears one buffer, so
                // only glClear could, and it has one colour): cleared whole.
            }
            clears.push(vk::ClearAttachment {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                color_attachment: i as u32,
                clear_value: vk::ClearValue {
                    color: value.vulkan(),
                },
            });
        }
        if let Some((c, m)) = masked {
            self.masked_color_clear(target, rect, c, m)?;
        }
        let mut aspects = vk::ImageAspectFlags::empty();
        if request.depth.is_some() && self.pipeline_state.depth_mask && target.has_depth() {
            aspects |= vk::ImageAspectFlags::DEPTH;
        }
        if request.stencil.is_some()
            && target.has_stencil()
            && self.pipeline_state.stencil[0].write_mask != 0
        {
            aspects |= vk::ImageAspectFlags::STENCIL;
        }
        if !aspects.is_empty() {
            clears.push(vk::ClearAttachment {
                aspect_mask: aspects,
                color_attachment: 0,
                clear_value: vk::ClearValue {
                    depth_stencil: vk::ClearDepthStencilValue {
                        depth: request.depth.unwrap_or(0.0).clamp(0.0, 1.0),
                        stencil: request.stencil.unwrap_or(0),
                    },
                },
            });
        }
        if clears.is_empty() {
            return Ok(());
        }
        self.prepare_attachments(target)?;
        let cb = self.pass_for(target)?;
        let rects = [vk::ClearRect {
            rect,
            base_array_layer: 0,
            layer_count: target.layers.max(1),
        }];
        // SAFETY: `cb` is inside this context's render pass for `target`; every cleared
        // attachment exists in it and the rect lies inside the render area.
        unsafe { self.device.raw().cmd_clear_attachments(cb, &clears, &rects) };
        Ok(())
    }
}
