//! Refilling a re-opened device (`recover.rs`): journaled buffer bytes go back through
//! `upload_buffer`, journaled image regions through the staging arenas and
//! `vkCmdCopyBufferToImage` (the same copy `upload_image` recorded, from the same tightly
//! packed texels), mipmap generations run again, and what has no entries is cleared to zero:
//! buffers with `vkCmdFillBuffer` (or a host write when mapped without `TRANSFER_DST`), images
//! with `vkCmdClearColorImage` / `vkCmdClearDepthStencilImage` where their usage and format
//! allow a transfer write. Everything is recorded into one recording, submitted at the end.

use ash::vk;

use crate::error::{MemoryError, Result};
use crate::journal::JournalRegion;
use crate::manager::{BufferHandle, ImageHandle};
use crate::recover::RestoreContents;
use crate::vulkan::transfer::{format_aspects, memory_barrier, ALL_PRIOR, TRANSFER_WRITE};
use crate::vulkan::MemoryManager;

/// The journal's region for one buffer-to-image copy that `upload_image` recorded.
pub(super) fn journal_region(copy: &vk::BufferImageCopy) -> JournalRegion {
    let o = copy.image_offset;
    let e = copy.image_extent;
    JournalRegion {
        level: copy.image_subresource.mip_level,
        base_layer: copy.image_subresource.base_array_layer,
        layer_count: copy.image_subresource.layer_count,
        offset: [o.x, o.y, o.z],
        extent: [e.width, e.height, e.depth],
        aspect: copy.image_subresource.aspect_mask,
    }
}

/// The copy that writes `region` (its recorded aspect) from tightly packed texels at
/// `buffer_offset`.
fn region_copy(region: &JournalRegion, buffer_offset: u64) -> vk::BufferImageCopy {
    vk::BufferImageCopy {
        buffer_offset,
        buffer_row_length: 0,
        buffer_image_height: 0,
        image_subresource: vk::ImageSubresourceLayers {
            aspect_mask: region.aspect,
            mip_level: region.level,
            base_array_layer: region.base_layer,
            layer_count: region.layer_count,
        },
        image_offset: vk::Offset3D {
            x: region.offset[0],
            y: region.offset[1],
            z: region.offset[2],
        },
        image_extent: vk::Extent3D {
            width: region.extent[0],
            height: region.extent[1],
            depth: region.extent[2],
        },
    }
}

impl RestoreContents for MemoryManager {
    fn restore_buffer(&mut self, buffer: BufferHandle, offset: u64, bytes: &[u8]) -> Result<()> {
        self.upload_buffer(buffer, offset, bytes).map(|_| ())
    }

    fn clear_buffer(&mut self, buffer: BufferHandle) -> Result<()> {
        let desc = self.buffer_info(buffer)?.desc;
        if !desc.usage.contains(vk::BufferUsageFlags::TRANSFER_DST) {
            if self.buffer_is_mapped(buffer)? {
                let zeros = vec![0u8; usize::try_from(desc.size).unwrap_or(0)];
                self.write_buffer(buffer, 0, &zeros)?;
            }
            return Ok(());
        }
        let raw = self.use_buffer(buffer)?.raw();
        let cb = self.recording_command_buffer()?;
        memory_barrier(self.device(), cb, ALL_PRIOR, TRANSFER_WRITE);
        // SAFETY: recording command buffer outside any pass; the buffer is live, stamped for
        // this epoch and has TRANSFER_DST usage; the whole size is filled.
        unsafe { self.device().cmd_fill_buffer(cb, raw, 0, vk::WHOLE_SIZE, 0) };
        memory_barrier(self.device(), cb, TRANSFER_WRITE, ALL_PRIOR);
        Ok(())
    }

    fn restore_image_region(
        &mut self,
        image: ImageHandle,
        region: &JournalRegion,
        bytes: &[u8],
    ) -> Result<()> {
        let texels = region.extent.iter().map(|&v| u64::from(v)).product::<u64>()
            * u64::from(region.layer_count);
        let texel = u32::try_from(bytes.len() as u64 / texels.max(1))
            .map_err(|_| MemoryError::Internal("journaled texel size"))?;
        let align = self.copy_alignment(texel.max(1))?;
        let staged = self.stage_copy(bytes.len() as u64, align)?;
        self.fill_staged(&staged, |dst| {
            dst.copy_from_slice(bytes);
            Ok(())
        })?;
        let raw =
            self.transition_image(image, vk::ImageLayout::TRANSFER_DST_OPTIMAL, TRANSFER_WRITE)?;
        let src = self.use_buffer(staged.buffer)?.raw();
        let cb = self.recording_command_buffer()?;
        let copy = region_copy(region, staged.offset);
        // SAFETY: recording command buffer; the staging buffer and the image are live and
        // stamped; the image is in TRANSFER_DST_OPTIMAL; the region is one `upload_image`
        // checked against this image's description (the same on the new device).
        unsafe {
            self.device().cmd_copy_buffer_to_image(
                cb,
                src,
                raw,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                std::slice::from_ref(&copy),
            );
        }
        Ok(())
    }

    fn regenerate_mipmaps(&mut self, image: ImageHandle, base: u32, last: u32) -> Result<()> {
        self.generate_mipmaps(image, base, last)
    }

    fn clear_image(&mut self, image: ImageHandle) -> Result<()> {
        let desc = self.image_info(image)?.desc;
        let writable = desc.usage.contains(vk::ImageUsageFlags::TRANSFER_DST)
            && self
                .format_features(desc.format)
                .contains(vk::FormatFeatureFlags::TRANSFER_DST);
        // Block-compressed images cannot be cleared (VUID-vkCmdClearColorImage-image-00007).
        let compressed = crate::vulkan::compressed_block(desc.format).is_some();
        if !writable || compressed {
            // GL leaves such contents undefined after a reset; nothing can write them here.
            return Ok(());
        }
        let aspect = format_aspects(desc.format);
        let raw =
            self.transition_image(image, vk::ImageLayout::TRANSFER_DST_OPTIMAL, TRANSFER_WRITE)?;
        let cb = self.recording_command_buffer()?;
        let range = vk::ImageSubresourceRange {
            aspect_mask: aspect,
            base_mip_level: 0,
            level_count: desc.mip_levels,
            base_array_layer: 0,
            layer_count: desc.array_layers,
        };
        // SAFETY: recording command buffer outside any pass; the image is live, stamped, in
        // TRANSFER_DST_OPTIMAL, has TRANSFER_DST usage and a format with the transfer-write
        // feature; the range is the whole image with its own aspects.
        unsafe {
            if aspect.contains(vk::ImageAspectFlags::COLOR) {
                self.device().cmd_clear_color_image(
                    cb,
                    raw,
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    &vk::ClearColorValue::default(),
                    &[range],
                );
            } else {
                self.device().cmd_clear_depth_stencil_image(
                    cb,
                    raw,
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    &vk::ClearDepthStencilValue::default(),
                    &[range],
                );
            }
        }
        Ok(())
    }

    fn finish_restore(&mut self) -> Result<()> {
        self.submit().map(|_| ())
    }
}

/// Keeps one Vulkan device (and its instance) open: a client that made its own objects on the
/// device (the GL translator's pipelines, layouts, descriptor and query pools) holds one, so a
/// device replaced by [`crate::Manager::recover`] is destroyed only after the client destroyed
/// what it made on it (Vulkan requires every child gone before `vkDestroyDevice`). Destroying
/// objects of a lost device is allowed; nothing else should be done with it.
#[derive(Clone)]
pub struct DeviceHold(crate::sync::Arc<crate::vulkan::context::DeviceShared>);

impl DeviceHold {
    /// The held device.
    pub fn raw(&self) -> &ash::Device {
        &self.0.raw
    }

    /// The instance it was created from (for loading device-extension commands).
    pub fn instance(&self) -> &ash::Instance {
        &self.0.instance
    }
}

impl std::fmt::Debug for DeviceHold {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("DeviceHold")
            .field(&self.0.raw.handle())
            .finish()
    }
}

impl MemoryManager {
    /// A hold on the device now open (see [`DeviceHold`]); a recovery opens a new one, so a
    /// client fetches it again when [`crate::Manager::recoveries`] moves.
    pub fn device_hold(&self) -> DeviceHold {
        DeviceHold(self.backend().shared.clone())
    }
}
