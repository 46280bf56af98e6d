//! Multisample resolves (`glBlitFramebuffer` from a multisampled read framebuffer).
//!
//! Design decisions:
//! - `vkCmdResolveImage` only: colour, same format, same extent, one layer, single-sampled
//!   destination. The translator resolves into a single-sampled image of the source's format
//!   first and then blits from that, so flips, offsets and format conversions of GL's
//!   multisampled blits go through the ordinary blit path.
//! - Both images end in the transfer layouts the resolve used (tracked by the manager), like
//!   `blit_image`.

use ash::vk;

use super::blit::BlitSide;
use super::MemoryManager;
use crate::error::{MemoryError, Result};

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
