//! Multisample resolves (`glBlitFramebuffer` from a multisampled read framebuffer).
//!
//! Design decisions:
//! - Colour: `vkCmdResolveImage`: same format, same extent, one layer, single-sampled
//!   destination. The translator resolves into a single-sampled image of the source's format
//!   first and then blits from that, so flips, offsets and format conversions of GL's
//!   multisampled blits go through the ordinary blit path. Both images end in the transfer
//!   layouts the resolve used (tracked by the manager), like `blit_image`.
//! - Depth/stencil: `vkCmdResolveImage` takes colour only, so a dynamic-rendering instance with
//!   no draws resolves at its end (Vulkan 1.2 depth/stencil resolve attachments) with
//!   `VK_RESOLVE_MODE_SAMPLE_ZERO_BIT`, the one mode every device must support for both depth
//!   and stencil (GL leaves the resolved value of a depth/stencil sample to the
//!   implementation). Chosen over a shader copy of sample 0 because it needs no pipeline, no
//!   stencil export and works on lavapipe and the NVIDIA driver alike. It resolves whole
//!   levels (the render area), both images end in `DEPTH_STENCIL_ATTACHMENT_OPTIMAL`.

use ash::vk;

use super::blit::BlitSide;
use super::transfer::format_aspects;
use super::MemoryManager;
use crate::desc::ViewDesc;
use crate::error::{MemoryError, Result};
use crate::manager::ImageHandle;

impl MemoryManager {
    /// Records a resolve of the colour region `src.corners` of the multisampled `src` onto the
    /// same-sized, same-format region of the single-sampled `dst` (corners ascending on both).
    pub fn resolve_image(&mut self, src: BlitSide, dst: BlitSide) -> Result<()> {
        if self.is_lost() {
            return Err(MemoryError::DeviceLost);
        }
        let s = self.image_info(src.image)?.desc;
        let d = self.image_info(dst.image)?.desc;
        let extent = |side: &BlitSide| {
            (
                side.corners[1].x - side.corners[0].x,
                side.corners[1].y - side.corners[0].y,
            )
        };
        let (w, h) = extent(&src);
        let inside = |side: &BlitSide, desc: &crate::desc::ImageDesc| {
            let lw = (desc.extent.width >> side.mip_level).max(1) as i32;
            let lh = (desc.extent.height >> side.mip_level).max(1) as i32;
            side.mip_level < desc.mip_levels
                && side.layer < desc.array_layers
                && side
                    .corners
                    .iter()
                    .all(|c| (0..=lw).contains(&c.x) && (0..=lh).contains(&c.y))
        };
        if s.samples == vk::SampleCountFlags::TYPE_1
            || d.samples != vk::SampleCountFlags::TYPE_1
            || s.format != d.format
            || extent(&dst) != (w, h)
            || w <= 0
            || h <= 0
            || !inside(&src, &s)
            || !inside(&dst, &d)
            || src.image == dst.image
        {
            return Err(MemoryError::InvalidRequest(format!(
                "resolve of {:?} ({:?}, {:?}) onto {:?} ({:?}, {:?})",
                src.corners, s.format, s.samples, dst.corners, d.format, d.samples
            )));
        }
        let transfer = (
            vk::PipelineStageFlags::TRANSFER,
            vk::AccessFlags::TRANSFER_READ | vk::AccessFlags::TRANSFER_WRITE,
        );
        let raw_src =
            self.transition_image(src.image, vk::ImageLayout::TRANSFER_SRC_OPTIMAL, transfer)?;
        let raw_dst =
            self.transition_image(dst.image, vk::ImageLayout::TRANSFER_DST_OPTIMAL, transfer)?;
        let cb = self.recording_command_buffer()?;
        let sub = |side: &BlitSide| vk::ImageSubresourceLayers {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            mip_level: side.mip_level,
            base_array_layer: side.layer,
            layer_count: 1,
        };
        let region = vk::ImageResolve {
            src_subresource: sub(&src),
            src_offset: vk::Offset3D {
                z: 0,
                ..src.corners[0]
            },
            dst_subresource: sub(&dst),
            dst_offset: vk::Offset3D {
                z: 0,
                ..dst.corners[0]
            },
            extent: vk::Extent3D {
                width: w as u32,
                height: h as u32,
                depth: 1,
            },
        };
        let device = self.device().clone();
        // SAFETY: recording command buffer outside any pass (`recording_command_buffer` ends
        // one); both images are live, distinct, stamped for this epoch and in the layouts
        // named; formats match, the source is multisampled and the destination is not, and
        // both regions lie inside their levels (checked above).
        unsafe {
            device.cmd_resolve_image(
                cb,
                raw_src,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                raw_dst,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &[region],
            );
        }
        Ok(())
    }
}

impl MemoryManager {
    /// Records a resolve of level `src_level`, layer `src_layer` of the multisampled depth
    /// and/or stencil image `src` onto level `dst_level`, layer `dst_layer` of the
    /// single-sampled `dst` of the same format and size: every aspect of the format, sample 0
    /// of each pixel.
    pub fn resolve_depth_stencil_image(
        &mut self,
        (src, src_level, src_layer): (ImageHandle, u32, u32),
        (dst, dst_level, dst_layer): (ImageHandle, u32, u32),
    ) -> Result<()> {
        if self.is_lost() {
            return Err(MemoryError::DeviceLost);
        }
        let s = self.image_info(src)?.desc;
        let d = self.image_info(dst)?.desc;
        let level_size = |desc: &crate::desc::ImageDesc, l: u32| {
            (
                (desc.extent.width >> l).max(1),
                (desc.extent.height >> l).max(1),
            )
        };
        let aspect = format_aspects(s.format);
        let attachment = vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT;
        if s.samples == vk::SampleCountFlags::TYPE_1
            || d.samples != vk::SampleCountFlags::TYPE_1
            || s.format != d.format
            || !aspect.intersects(vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL)
            || src_level >= s.mip_levels
            || dst_level >= d.mip_levels
            || src_layer >= s.array_layers
            || dst_layer >= d.array_layers
            || level_size(&s, src_level) != level_size(&d, dst_level)
            || !s.usage.contains(attachment)
            || !d.usage.contains(attachment)
            || src == dst
        {
            return Err(MemoryError::InvalidRequest(format!(
                "depth/stencil resolve of {:?} ({:?}, {:?}) onto {:?} ({:?}, {:?})",
                s.extent, s.format, s.samples, d.extent, d.format, d.samples
            )));
        }
        if self.device_info().used_api_version < vk::API_VERSION_1_2 {
            // Depth/stencil resolve modes are Vulkan 1.2 (VK_KHR_depth_stencil_resolve).
            return Err(MemoryError::Unsupported(
                "depth/stencil resolves need Vulkan 1.2".into(),
            ));
        }
        let (width, height) = level_size(&s, src_level);
        let view = |level: u32, layer: u32| ViewDesc {
            aspect,
            base_mip_level: level,
            mip_level_count: 1,
            base_array_layer: layer,
            layer_count: 1,
            ..ViewDesc::color_2d(1)
        };
        let src_view = self.create_view(src, &view(src_level, src_layer))?;
        let dst_view = match self.create_view(dst, &view(dst_level, dst_layer)) {
            Ok(v) => v,
            Err(e) => {
                let _ = self.retire_view(src_view);
                return Err(e);
            }
        };
        let result = (|| -> Result<()> {
            let layout = vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
            let attachment_access = (
                vk::PipelineStageFlags::EARLY_FRAGMENT_TESTS
                    | vk::PipelineStageFlags::LATE_FRAGMENT_TESTS,
                vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_READ
                    | vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE,
            );
            self.transition_image(src, layout, attachment_access)?;
            self.transition_image(dst, layout, attachment_access)?;
            let raw_src = self.use_view(src_view)?.raw();
            let raw_dst = self.use_view(dst_view)?.raw();
            let info = vk::RenderingAttachmentInfo::default()
                .image_view(raw_src)
                .image_layout(layout)
                .resolve_mode(vk::ResolveModeFlags::SAMPLE_ZERO)
                .resolve_image_view(raw_dst)
                .resolve_image_layout(layout)
                .load_op(vk::AttachmentLoadOp::LOAD)
                .store_op(vk::AttachmentStoreOp::STORE);
            let area = vk::Rect2D {
                offset: vk::Offset2D::default(),
                extent: vk::Extent2D { width, height },
            };
            let attachments = [info];
            let mut rendering = vk::RenderingInfo::default()
                .render_area(area)
                .layer_count(1);
            if aspect.contains(vk::ImageAspectFlags::DEPTH) {
                rendering = rendering.depth_attachment(&attachments[0]);
            }
            if aspect.contains(vk::ImageAspectFlags::STENCIL) {
                rendering = rendering.stencil_attachment(&attachments[0]);
            }
            // The resolve happens when the instance ends; nothing is drawn in it.
            self.begin_rendering(&rendering)?;
            self.end_rendering();
            Ok(())
        })();
        let _ = self.retire_view(src_view);
        let _ = self.retire_view(dst_view);
        result
    }
}
