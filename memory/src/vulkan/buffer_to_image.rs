//! Buffer → image copies on the device: `glTexSubImage*` / `glTexImage*` from a pixel unpack
//! buffer whose bytes already are the image's texels.
//!
//! Design decisions:
//! - Only when no conversion is needed ([`arenagl_staging::unpacks_as_copy`]: RGBA bytes into
//!   an RGBA8 image, BGRA into BGRA8, …) and the client layout is one `vkCmdCopyBufferToImage`
//!   reads: rows and images a whole number of texels apart, the first pixel on a texel
//!   boundary. Otherwise [`MemoryManager::copy_buffer_to_image`] records nothing and says so,
//!   and the client converts on the CPU as for client memory. Colour images only.
//! - The buffer's earlier writes (a staged `glBufferSubData`, a draw that wrote it) are ordered
//!   before the copy by a global barrier from every earlier access; the image goes to
//!   `TRANSFER_DST_OPTIMAL` through the tracked-layout transition every transfer uses. Both
//!   handles are stamped for the recording epoch, so neither is released under the copy.

use ash::vk;

use crate::error::{MemoryError, Result};
use crate::stats::Stat;
use crate::vulkan::transfer::{memory_barrier, ImageRegion, ALL_PRIOR, TRANSFER_WRITE};
use crate::vulkan::MemoryManager;
use crate::{BufferHandle, ImageHandle};
use arenagl_staging::{unpacks_as_copy, ClientFormat, ClientLayout, PixelStore};

/// What a transfer copy reads and writes: reads the source buffer, writes the destination.
const TRANSFER: (vk::PipelineStageFlags, vk::AccessFlags) = (
    vk::PipelineStageFlags::TRANSFER,
    vk::AccessFlags::from_raw(
        vk::AccessFlags::TRANSFER_READ.as_raw() | vk::AccessFlags::TRANSFER_WRITE.as_raw(),
    ),
);

impl MemoryManager {
    /// Copies the pixels at `offset` of `src`, laid out per `store` as `client` pixels, into
    /// `region` of `image` on the device. `Ok(false)` (nothing recorded) when the copy would
    /// need a conversion or a layout Vulkan cannot read: the caller then converts on the CPU.
    ///
    /// # Errors
    /// A region outside the image, a range outside the buffer, a buffer without
    /// `TRANSFER_SRC` usage, a lost device.
    pub fn copy_buffer_to_image(
        &mut self,
        (src, offset): (BufferHandle, u64),
        image: ImageHandle,
        region: &ImageRegion,
        (store, client): (&PixelStore, ClientFormat),
    ) -> Result<bool> {
        let (format, client_region, aspect) = self.image_region_checks(image, region, None)?;
        if aspect != vk::ImageAspectFlags::COLOR
            || !unpacks_as_copy(client, store.swap_bytes, format)
        {
            return Ok(false);
        }
        let layout = ClientLayout::new(store, client_region, client)
            .map_err(|e| MemoryError::InvalidRequest(format!("pixel unpack buffer layout: {e}")))?;
        let texel = u64::from(format.texel_bytes());
        let (row, slice) = (layout.row_stride(), layout.image_stride());
        let first = offset.checked_add(layout.skip_offset());
        let Some(first) = first.filter(|f| f % texel == 0) else {
            return Ok(false);
        };
        if row % texel != 0 || (slice % row.max(1) != 0) {
            return Ok(false);
        }
        let info = self.buffer_range(src, offset, layout.required_bytes() as usize)?;
        if !info.desc.usage.contains(vk::BufferUsageFlags::TRANSFER_SRC) {
            return Ok(false);
        }
        let copy = buffer_image_copy(region, aspect, first, (row / texel, slice / row.max(1)));
        let src_raw = self.use_buffer(src)?.raw();
        let dst_raw =
            self.transition_image(image, vk::ImageLayout::TRANSFER_DST_OPTIMAL, TRANSFER_WRITE)?;
        let cb = self.recording_command_buffer()?;
        memory_barrier(self.device(), cb, ALL_PRIOR, TRANSFER);
        // SAFETY: recording command buffer; the buffer and the image are live and stamped for
        // this epoch; the image is in TRANSFER_DST_OPTIMAL; the region lies in the image and the
        // bytes it reads in the buffer (both checked above), starting on a texel boundary.
        unsafe {
            self.device().cmd_copy_buffer_to_image(
                cb,
                src_raw,
                dst_raw,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                std::slice::from_ref(&copy),
            );
        }
        let bytes = u64::from(region.extent.width)
            * u64::from(region.extent.height)
            * u64::from(region.extent.depth.max(region.layer_count))
            * texel;
        self.record_stat(Stat::BufferToImageBytes(bytes));
        Ok(true)
    }
}

/// The copy of `region` from a buffer at `offset` whose rows are `row_texels` texels and whose
/// images (3D slices or array layers) are `image_rows` rows apart.
fn buffer_image_copy(
    region: &ImageRegion,
    aspect: vk::ImageAspectFlags,
    offset: u64,
    (row_texels, image_rows): (u64, u64),
) -> vk::BufferImageCopy {
    let layered = region.layer_count > 1;
    vk::BufferImageCopy {
        buffer_offset: offset,
        buffer_row_length: u32::try_from(row_texels).unwrap_or(0),
        buffer_image_height: u32::try_from(image_rows).unwrap_or(0),
        image_subresource: vk::ImageSubresourceLayers {
            aspect_mask: aspect,
            mip_level: region.mip_level,
            base_array_layer: region.base_layer,
            layer_count: region.layer_count.max(1),
        },
        image_offset: vk::Offset3D {
            x: region.offset.x,
            y: region.offset.y,
            z: if layered { 0 } else { region.offset.z },
        },
        image_extent: vk::Extent3D {
            width: region.extent.width,
            height: region.extent.height,
            depth: if layered { 1 } else { region.extent.depth },
        },
    }
}
