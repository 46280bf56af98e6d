//! Uploads and readbacks on the real device: the API the GL translator uses.
//!
//! Design decisions:
//! - **Buffer uploads** write straight into the buffer when it is host-visible and idle (unified
//!   memory: phones, lavapipe); otherwise the bytes go through the frame's staging arena, split
//!   into arena-sized chunks, and become `vkCmdCopyBuffer`s in the recording command buffer.
//! - **Image uploads** unpack and convert (GL unpack state, RGB → RGBA and friends) directly into
//!   staging memory in one pass, chunked so that no chunk exceeds an arena, then
//!   `vkCmdCopyBufferToImage` per chunk. The image is left in `TRANSFER_DST_OPTIMAL`.
//! - **Readbacks** never infer what to wait for from the image's layout: a readback whose barrier
//!   is derived from a layout that means "wait for nothing" races a draw still in flight and reads
//!   stale pixels. Every readback records a barrier from *all prior writes* (`ALL_COMMANDS`,
//!   `MEMORY_WRITE`) to the transfer read, copies into a host-visible readback buffer, makes the
//!   copy visible to the host, submits, and waits for exactly that submission — which, by
//!   timeline-signal ordering, also covers every earlier submission that wrote the data.
//! - Layout tracking is per image (all subresources move together), stored in the manager's
//!   image entry (`tracked_layout` / `set_tracked_layout`), so the next user knows the layout to
//!   transition from.
//! - Upload barriers are conservative (all prior accesses → transfer write; transfer write →
//!   everything after) so a later command of any kind sees the data without knowing about it.

use ash::vk;

use arenagl_staging::{
    split_buffer, split_image, unpack_box, ClientFormat, ClientLayout, DeviceFormat, Dims,
    Extent3d, LuminanceRule, PackState, Region, StagingLayout, TexelBlock, UnpackState,
};

use crate::error::{MemoryError, Result};
use crate::manager::{BufferHandle, ImageHandle};
use crate::staging::map_staging;
use crate::stats::Stat;
use crate::vulkan::restore::journal_region;
use crate::vulkan::MemoryManager;

/// How an upload reached the buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UploadPath {
    /// Written straight into the idle, host-visible buffer.
    Direct,
    /// Staged and copied by this many `vkCmdCopyBuffer` regions.
    Staged {
        /// Copy regions recorded.
        chunks: u32,
    },
}

/// The part of an image a transfer touches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageRegion {
    /// Mip level.
    pub mip_level: u32,
    /// First array layer.
    pub base_layer: u32,
    /// Array layers (1 for non-array images).
    pub layer_count: u32,
    /// Texel offset in the level.
    pub offset: vk::Offset3D,
    /// Texels (depth 1 for 2D images; layers are counted by `layer_count`).
    pub extent: vk::Extent3D,
}

impl ImageRegion {
    /// A `width × height` rectangle at (`x`, `y`) of layer 0 of `mip_level`.
    pub fn rect(mip_level: u32, x: i32, y: i32, width: u32, height: u32) -> Self {
        Self {
            mip_level,
            base_layer: 0,
            layer_count: 1,
            offset: vk::Offset3D { x, y, z: 0 },
            extent: vk::Extent3D {
                width,
                height,
                depth: 1,
            },
        }
    }
}

/// The staging format for a Vulkan format, where the staging crate converts into it.
fn device_format(format: vk::Format) -> Option<DeviceFormat> {
    Some(match format {
        // Integer RGBA8 holds the same bytes (the incomplete-texture stand-in of integer
        // samplers is uploaded as such).
        vk::Format::R8G8B8A8_UNORM
        | vk::Format::R8G8B8A8_SRGB
        | vk::Format::R8G8B8A8_UINT
        | vk::Format::R8G8B8A8_SINT => DeviceFormat::Rgba8,
        vk::Format::B8G8R8A8_UNORM | vk::Format::B8G8R8A8_SRGB => DeviceFormat::Bgra8,
        vk::Format::R8G8B8_UNORM | vk::Format::R8G8B8_SRGB => DeviceFormat::Rgb8,
        vk::Format::R8G8_UNORM => DeviceFormat::Rg8,
        vk::Format::R8_UNORM => DeviceFormat::R8,
        // The depth aspect as a buffer copy lays it out (the translator encodes the texels;
        // D24 occupies the low 24 bits of 32).
        vk::Format::D16_UNORM | vk::Format::D16_UNORM_S8_UINT => DeviceFormat::Texels(2),
        vk::Format::D32_SFLOAT
        | vk::Format::D32_SFLOAT_S8_UINT
        | vk::Format::X8_D24_UNORM_PACK32
        | vk::Format::D24_UNORM_S8_UINT => DeviceFormat::Texels(4),
        other => DeviceFormat::Texels(color_texel_bytes(other)?),
    })
}

/// Bytes per texel of the other uncompressed colour formats the GL stores (float, integer,
/// snorm, 16-bit and packed): staging copies their texels, which the translator converted.
pub fn color_texel_bytes(format: vk::Format) -> Option<u8> {
    use vk::Format as F;
    Some(match format {
        F::R8_SNORM | F::R8_UINT | F::R8_SINT | F::R8_SRGB => 1,
        F::R8G8_SNORM
        | F::R8G8_UINT
        | F::R8G8_SINT
        | F::R8G8_SRGB
        | F::R16_UNORM
        | F::R16_SNORM
        | F::R16_SFLOAT
        | F::R16_UINT
        | F::R16_SINT
        | F::R5G6B5_UNORM_PACK16
        | F::R4G4B4A4_UNORM_PACK16
        | F::R5G5B5A1_UNORM_PACK16 => 2,
        F::R8G8B8A8_SNORM
        | F::R16G16_UNORM
        | F::R16G16_SNORM
        | F::R16G16_SFLOAT
        | F::R16G16_UINT
        | F::R16G16_SINT
        | F::R32_SFLOAT
        | F::R32_UINT
        | F::R32_SINT
        | F::A2B10G10R10_UNORM_PACK32
        | F::A2B10G10R10_UINT_PACK32
        | F::B10G11R11_UFLOAT_PACK32
        | F::E5B9G9R9_UFLOAT_PACK32 => 4,
        F::R16G16B16A16_UNORM
        | F::R16G16B16A16_SNORM
        | F::R16G16B16A16_SFLOAT
        | F::R16G16B16A16_UINT
        | F::R16G16B16A16_SINT
        | F::R32G32_SFLOAT
        | F::R32G32_UINT
        | F::R32G32_SINT => 8,
        F::R32G32B32_SFLOAT | F::R32G32B32_UINT | F::R32G32B32_SINT => 12,
        F::R32G32B32A32_SFLOAT | F::R32G32B32A32_UINT | F::R32G32B32A32_SINT => 16,
        _ => return None,
    })
}

/// Every aspect an image of `format` has (a whole-image transition names all of them).
pub fn format_aspects(format: vk::Format) -> vk::ImageAspectFlags {
    use vk::Format as F;
    match format {
        F::D16_UNORM | F::X8_D24_UNORM_PACK32 | F::D32_SFLOAT => vk::ImageAspectFlags::DEPTH,
        F::S8_UINT => vk::ImageAspectFlags::STENCIL,
        F::D16_UNORM_S8_UINT | F::D24_UNORM_S8_UINT | F::D32_SFLOAT_S8_UINT => {
            vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL
        }
        _ => vk::ImageAspectFlags::COLOR,
    }
}

/// The aspect a transfer that names none moves: depth for formats with depth (their stencil
/// is named explicitly: [`MemoryManager::upload_image_aspect`]), else the only aspect.
pub(crate) fn transfer_aspect(format: vk::Format) -> vk::ImageAspectFlags {
    let all = format_aspects(format);
    if all.contains(vk::ImageAspectFlags::DEPTH) {
        vk::ImageAspectFlags::DEPTH
    } else {
        all
    }
}

/// A global barrier from every earlier access to every later one, scoped by the given stages.
pub(super) fn memory_barrier(
    device: &ash::Device,
    cb: vk::CommandBuffer,
    src: (vk::PipelineStageFlags, vk::AccessFlags),
    dst: (vk::PipelineStageFlags, vk::AccessFlags),
) {
    let barrier = vk::MemoryBarrier::default()
        .src_access_mask(src.1)
        .dst_access_mask(dst.1);
    // SAFETY: `cb` is the manager's recording command buffer; the barrier is self-contained.
    unsafe {
        device.cmd_pipeline_barrier(
            cb,
            src.0,
            dst.0,
            vk::DependencyFlags::empty(),
            &[barrier],
            &[],
            &[],
        );
    }
}

pub(super) const ALL_PRIOR: (vk::PipelineStageFlags, vk::AccessFlags) = (
    vk::PipelineStageFlags::ALL_COMMANDS,
    vk::AccessFlags::from_raw(
        vk::AccessFlags::MEMORY_WRITE.as_raw() | vk::AccessFlags::MEMORY_READ.as_raw(),
    ),
);
pub(super) const TRANSFER_WRITE: (vk::PipelineStageFlags, vk::AccessFlags) = (
    vk::PipelineStageFlags::TRANSFER,
    vk::AccessFlags::TRANSFER_WRITE,
);
const ALL_LATER: (vk::PipelineStageFlags, vk::AccessFlags) = ALL_PRIOR;

impl MemoryManager {
    /// The buffer's info, once the device is known alive and `offset..offset + len` lies inside it.
    pub(super) fn buffer_range(
        &self,
        buffer: BufferHandle,
        offset: u64,
        len: usize,
    ) -> Result<crate::manager::BufferInfo> {
        if self.is_lost() {
            return Err(MemoryError::DeviceLost);
        }
        let info = self.buffer_info(buffer)?;
        let end = offset.checked_add(len as u64);
        if end.is_none_or(|end| end > info.desc.size) {
            return Err(MemoryError::InvalidRequest(format!(
                "{len} bytes at {offset} of a buffer of {}",
                info.desc.size
            )));
        }
        Ok(info)
    }

    /// `glBufferSubData`: writes `data` at `offset` of `dst`, directly when the buffer is
    /// host-visible and idle, otherwise through the staging arenas.
    pub fn upload_buffer(
        &mut self,
        dst: BufferHandle,
        offset: u64,
        data: &[u8],
    ) -> Result<UploadPath> {
        let info = self.buffer_range(dst, offset, data.len())?;
        if data.is_empty() {
            return Ok(UploadPath::Direct);
        }
        let mapped = self.buffer_is_mapped(dst)?;
        if mapped {
            match self.write_buffer(dst, offset, data) {
                Ok(()) => {
                    self.record_stat(Stat::DirectWriteBytes(data.len() as u64));
                    return Ok(UploadPath::Direct);
                }
                Err(MemoryError::Busy(_)) => {} // in flight: stage instead of waiting
                Err(e) => return Err(e),
            }
        }
        if !info.desc.usage.contains(vk::BufferUsageFlags::TRANSFER_DST) {
            return Err(MemoryError::InvalidRequest(
                "buffer busy or not host-visible, and it lacks TRANSFER_DST usage for a staged copy".into(),
            ));
        }
        let align = self.copy_alignment(1)?;
        self.bound_staging(data.len() as u64)?;
        let mut regions: Vec<(BufferHandle, vk::BufferCopy)> = Vec::new();
        for range in split_buffer(data.len() as u64, self.arena_size()) {
            let staged = self.stage_copy(range.end - range.start, align)?;
            let chunk = data
                .get(range.start as usize..range.end as usize)
                .ok_or(MemoryError::Internal("split range outside the upload"))?;
            self.fill_staged(&staged, |bytes| {
                bytes.copy_from_slice(chunk);
                Ok(())
            })?;
            regions.push((
                staged.buffer,
                vk::BufferCopy {
                    src_offset: staged.offset,
                    dst_offset: offset + range.start,
                    size: range.end - range.start,
                },
            ));
        }
        // Record after all staging: staging may have created blocks (and submitted).
        let dst_raw = self.use_buffer(dst)?.raw();
        let cb = self.recording_command_buffer()?;
        memory_barrier(self.device(), cb, ALL_PRIOR, TRANSFER_WRITE);
        for (src, region) in &regions {
            let src_raw = self.use_buffer(*src)?.raw();
            // SAFETY: recording command buffer; both buffers live and stamped for this epoch;
            // the regions lie inside both (checked above and by the arena).
            unsafe {
                self.device()
                    .cmd_copy_buffer(cb, src_raw, dst_raw, std::slice::from_ref(region))
            };
        }
        memory_barrier(self.device(), cb, TRANSFER_WRITE, ALL_LATER);
        self.record_stat(Stat::StagedBytes(data.len() as u64));
        self.journal_buffer_write(dst, offset, data);
        Ok(UploadPath::Staged {
            chunks: regions.len() as u32,
        })
    }

    /// Checks `region` against `image` for a transfer of `aspect` (`None`: the image's
    /// default, [`transfer_aspect`]); returns the staging format of that aspect's texels, the
    /// client region and the aspect.
    pub(super) fn image_region_checks(
        &self,
        image: ImageHandle,
        region: &ImageRegion,
        aspect: Option<vk::ImageAspectFlags>,
    ) -> Result<(DeviceFormat, Region, vk::ImageAspectFlags)> {
        let info = self.image_info(image)?;
        let desc = &info.desc;
        let aspect = aspect.unwrap_or_else(|| transfer_aspect(desc.format));
        if aspect.as_raw().count_ones() != 1 || !format_aspects(desc.format).contains(aspect) {
            return Err(MemoryError::InvalidRequest(format!(
                "aspect {aspect:?} of a {:?} image",
                desc.format
            )));
        }
        let format = if aspect == vk::ImageAspectFlags::STENCIL {
            // The stencil aspect as a buffer copy lays it out: one byte per texel.
            Some(DeviceFormat::Texels(1))
        } else {
            device_format(desc.format)
        }
        .ok_or_else(|| {
            MemoryError::Unsupported(format!("pixel transfer to {:?} images", desc.format))
        })?;
        if region.mip_level >= desc.mip_levels {
            return Err(MemoryError::InvalidRequest(format!(
                "mip level {} of an image with {}",
                region.mip_level, desc.mip_levels
            )));
        }
        let level = |v: u32| (v >> region.mip_level).max(1);
        let (w, h, d) = (
            level(desc.extent.width),
            level(desc.extent.height),
            level(desc.extent.depth),
        );
        let fits = |off: i32, len: u32, max: u32| {
            off >= 0 && u64::from(off as u32) + u64::from(len) <= u64::from(max)
        };
        let layers_ok = region.layer_count >= 1
            && u64::from(region.base_layer) + u64::from(region.layer_count)
                <= u64::from(desc.array_layers);
        if !(fits(region.offset.x, region.extent.width, w)
            && fits(region.offset.y, region.extent.height, h)
            && fits(region.offset.z, region.extent.depth, d)
            && layers_ok)
        {
            return Err(MemoryError::InvalidRequest(format!(
                "region {:?} outside level {} ({w}x{h}x{d}, {} layers)",
                region, region.mip_level, desc.array_layers
            )));
        }
        if region.extent.depth > 1 && region.layer_count > 1 {
            return Err(MemoryError::InvalidRequest(
                "a region cannot be both 3D and layered".into(),
            ));
        }
        let depth = region.extent.depth.max(region.layer_count);
        let dims = if depth > 1 || desc.image_type == vk::ImageType::TYPE_3D {
            Dims::Three
        } else {
            Dims::Two
        };
        let client = Region {
            extent: Extent3d::new(region.extent.width, region.extent.height, depth),
            dims,
        };
        Ok((format, client, aspect))
    }

    /// Checks a pixel transfer between `region` of `image` and `client_len` bytes of client
    /// memory laid out per `store` as `client` pixels; returns the staging format, the client
    /// region, the aspect and the client layout.
    fn image_transfer(
        &self,
        (image, aspect): (ImageHandle, Option<vk::ImageAspectFlags>),
        region: &ImageRegion,
        store: &arenagl_staging::PixelStore,
        client: ClientFormat,
        client_len: usize,
    ) -> Result<(DeviceFormat, Region, vk::ImageAspectFlags, ClientLayout)> {
        if self.is_lost() {
            return Err(MemoryError::DeviceLost);
        }
        let (format, client_region, aspect) = self.image_region_checks(image, region, aspect)?;
        let layout = ClientLayout::new(store, client_region, client).map_err(map_staging)?;
        if (client_len as u64) < layout.required_bytes() {
            return Err(MemoryError::InvalidRequest(format!(
                "{client_len} bytes of client memory for a transfer of {}",
                layout.required_bytes()
            )));
        }
        Ok((format, client_region, aspect, layout))
    }

    /// Records a transition of the whole image from its tracked layout to `new`, waiting for
    /// every earlier access, and makes `dst` (stages, accesses) the second scope. Returns the raw
    /// image, stamped for the recording epoch. Clients that record their own transitions report
    /// them with [`MemoryManager::set_image_layout`] instead.
    pub fn transition_image(
        &mut self,
        image: ImageHandle,
        new: vk::ImageLayout,
        dst: (vk::PipelineStageFlags, vk::AccessFlags),
    ) -> Result<vk::Image> {
        let raw = self.use_image(image)?.raw();
        let old = self.tracked_layout(image)?;
        let desc = self.image_info(image)?.desc;
        let (mips, layers, aspect) = (
            desc.mip_levels,
            desc.array_layers,
            format_aspects(desc.format),
        );
        let barrier = vk::ImageMemoryBarrier::default()
            // Never inferred from the old layout: whatever wrote the image before, wait for it.
            .src_access_mask(ALL_PRIOR.1)
            .dst_access_mask(dst.1)
            .old_layout(old)
            .new_layout(new)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(raw)
            .subresource_range(vk::ImageSubresourceRange {
                aspect_mask: aspect,
                base_mip_level: 0,
                level_count: mips,
                base_array_layer: 0,
                layer_count: layers,
            });
        let cb = self.recording_command_buffer()?;
        // SAFETY: recording command buffer; `raw` is live and stamped for this epoch; the range
        // covers the whole image, whose tracked layout is `old`.
        unsafe {
            self.device().cmd_pipeline_barrier(
                cb,
                ALL_PRIOR.0,
                dst.0,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[barrier],
            );
        }
        self.set_tracked_layout(image, new)?;
        Ok(raw)
    }

    /// The layout the image is in after everything recorded so far.
    pub fn image_layout(&self, image: ImageHandle) -> Result<vk::ImageLayout> {
        self.tracked_layout(image)
    }

    /// Records that the client transitioned the whole image to `layout` in the recording.
    pub fn set_image_layout(&mut self, image: ImageHandle, layout: vk::ImageLayout) -> Result<()> {
        self.set_tracked_layout(image, layout)
    }

    /// `glTexSubImage*`: unpacks `src` (laid out per `unpack` as `client` pixels) into `region`
    /// of `image`, converting to the image's format, through the staging arenas. A
    /// depth/stencil image receives its depth aspect (`transfer_aspect`).
    pub fn upload_image(
        &mut self,
        image: ImageHandle,
        region: &ImageRegion,
        src: &[u8],
        unpack: &UnpackState,
        client: ClientFormat,
    ) -> Result<()> {
        self.upload_image_aspect((image, None), region, src, unpack, client)
    }

    /// [`MemoryManager::upload_image`] into one named aspect of `image` (`None`: the default
    /// one). The stencil aspect takes one byte per texel (`ClientFormat::Texels(1)`), the
    /// depth aspect its buffer encoding (see [`MemoryManager::read_image_plane`]); the journal
    /// records the aspect with the texels, so a restore writes the same one.
    pub fn upload_image_aspect(
        &mut self,
        (image, aspect): (ImageHandle, Option<vk::ImageAspectFlags>),
        region: &ImageRegion,
        src: &[u8],
        unpack: &UnpackState,
        client: ClientFormat,
    ) -> Result<()> {
        let (format, client_region, aspect, layout) =
            self.image_transfer((image, aspect), region, unpack, client, src.len())?;
        let texel = format.texel_bytes();
        let align = self.copy_alignment(texel)?;
        let chunks = split_image(
            client_region.extent,
            TexelBlock {
                width: 1,
                height: 1,
                bytes: texel,
            },
            self.arena_size(),
        )
        .map_err(map_staging)?;
        let mut copies: Vec<(BufferHandle, vk::BufferImageCopy)> = Vec::new();
        // The converted texels of each chunk, for the restore journal (`recover.rs`).
        let journal = self.journal_takes_image(image);
        let mut journaled: Vec<Vec<u8>> = Vec::new();
        let mut staged_bytes = 0;
        self.bound_staging(chunks.clone().map(|c| c.bytes).sum())?;
        for chunk in chunks {
            let staged = self.stage_copy(chunk.bytes, align)?;
            self.fill_staged(&staged, |bytes| {
                unpack_box(
                    src,
                    &layout,
                    chunk.texels,
                    bytes,
                    StagingLayout::tight(format),
                )
                .map_err(map_staging)?;
                if journal {
                    journaled.push(bytes.to_vec());
                }
                Ok(())
            })?;
            staged_bytes += chunk.bytes;
            copies.push((
                staged.buffer,
                chunk_copy(staged.offset, aspect, region, chunk.texels),
            ));
        }
        self.record_staged_copies(image, &copies, &journaled, staged_bytes)
    }

    /// Records `copies` (each a staging buffer and its region, checked by the caller to lie
    /// inside `image`) into `image`, moved to `TRANSFER_DST_OPTIMAL` first, counts
    /// `staged_bytes` and journals each copy's bytes (`journaled`, one per copy, or none when
    /// the journal does not take the image).
    pub(super) fn record_staged_copies(
        &mut self,
        image: ImageHandle,
        copies: &[(BufferHandle, vk::BufferImageCopy)],
        journaled: &[Vec<u8>],
        staged_bytes: u64,
    ) -> Result<()> {
        let raw =
            self.transition_image(image, vk::ImageLayout::TRANSFER_DST_OPTIMAL, TRANSFER_WRITE)?;
        let cb = self.recording_command_buffer()?;
        for (src_buffer, copy) in copies {
            let src_raw = self.use_buffer(*src_buffer)?.raw();
            // SAFETY: recording command buffer; the staging buffer and the image are live and
            // stamped; the image is in TRANSFER_DST_OPTIMAL; the caller checked the region.
            unsafe {
                self.device().cmd_copy_buffer_to_image(
                    cb,
                    src_raw,
                    raw,
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    std::slice::from_ref(copy),
                );
            }
        }
        self.record_stat(Stat::StagedBytes(staged_bytes));
        for ((_, copy), bytes) in copies.iter().zip(journaled) {
            self.journal_image_write(image, journal_region(copy), bytes);
        }
        Ok(())
    }

    /// `glReadPixels` / `glGetTexImage`: copies `region` of `image` back and packs it into `out`
    /// per `pack` as `client` pixels. Waits for exactly the submission that carries the copy.
    pub fn read_image(
        &mut self,
        image: ImageHandle,
        region: &ImageRegion,
        pack: &PackState,
        client: ClientFormat,
        out: &mut [u8],
    ) -> Result<()> {
        let (format, client_region, aspect, layout) =
            self.image_transfer((image, None), region, pack, client, out.len())?;
        let e = client_region.extent;
        let staging = StagingLayout::tight(format);
        let bytes = staging.required_bytes(e).map_err(map_staging)?;
        let layered = region.layer_count > 1;
        let copy = vk::BufferImageCopy {
            buffer_offset: 0,
            buffer_row_length: 0,
            buffer_image_height: 0,
            image_subresource: vk::ImageSubresourceLayers {
                aspect_mask: aspect,
                mip_level: region.mip_level,
                base_array_layer: region.base_layer,
                layer_count: region.layer_count,
            },
            image_offset: region.offset,
            image_extent: vk::Extent3D {
                width: e.width,
                height: e.height,
                depth: if layered { 1 } else { e.depth },
            },
        };
        let staged = self.read_back(image, copy, bytes)?;
        arenagl_staging::pack_box(
            staged,
            staging,
            &layout,
            arenagl_staging::TexelBox::whole(e),
            LuminanceRule::Red,
            out,
        )
        .map_err(map_staging)?;
        Ok(())
    }

    /// Depth or stencil texels of `region` (layer `region.base_layer`, depth 1) as Vulkan lays a
    /// single plane out in a buffer, tightly packed, row 0 first: depth of `D16_UNORM` as `u16`,
    /// of `X8_D24`/`D24_UNORM_S8_UINT` as `u32` with the depth in the low 24 bits, of
    /// `D32_SFLOAT(_S8_UINT)` as `f32`; stencil as one byte. `glReadPixels` of
    /// `GL_DEPTH_COMPONENT`/`GL_STENCIL_INDEX`/`GL_DEPTH_STENCIL` converts from these. Waits for
    /// exactly the submission carrying the copy, like [`MemoryManager::read_image`].
    pub fn read_image_plane(
        &mut self,
        image: ImageHandle,
        region: &ImageRegion,
        aspect: vk::ImageAspectFlags,
    ) -> Result<Vec<u8>> {
        if self.is_lost() {
            return Err(MemoryError::DeviceLost);
        }
        let format = self.image_info(image)?.desc.format;
        let texel = match (aspect, format) {
            (vk::ImageAspectFlags::STENCIL, _) => 1u64,
            (
                vk::ImageAspectFlags::DEPTH,
                vk::Format::D16_UNORM | vk::Format::D16_UNORM_S8_UINT,
            ) => 2,
            (vk::ImageAspectFlags::DEPTH, _) => 4,
            _ => {
                return Err(MemoryError::InvalidRequest(format!(
                    "a plane read of aspect {aspect:?}"
                )))
            }
        };
        if !format_aspects(format).contains(aspect) {
            return Err(MemoryError::InvalidRequest(format!(
                "aspect {aspect:?} of a {format:?} image"
            )));
        }
        let e = region.extent;
        let bytes = u64::from(e.width) * u64::from(e.height) * texel;
        if bytes == 0 {
            return Ok(Vec::new());
        }
        let copy = vk::BufferImageCopy {
            buffer_offset: 0,
            buffer_row_length: 0,
            buffer_image_height: 0,
            image_subresource: vk::ImageSubresourceLayers {
                aspect_mask: aspect,
                mip_level: region.mip_level,
                base_array_layer: region.base_layer,
                layer_count: 1,
            },
            image_offset: region.offset,
            image_extent: vk::Extent3D {
                width: e.width,
                height: e.height,
                depth: 1,
            },
        };
        Ok(self.read_back(image, copy, bytes)?.to_vec())
    }

    /// Records `copy` of `image` into the readback buffer (the image made a transfer source
    /// first, whatever wrote it), waits for exactly that submission and returns the `bytes` it
    /// wrote, valid until the next readback.
    pub(super) fn read_back(
        &mut self,
        image: ImageHandle,
        copy: vk::BufferImageCopy,
        bytes: u64,
    ) -> Result<&[u8]> {
        let readback = self.readback_buffer(bytes)?;
        let raw = self.transition_image(
            image,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            (
                vk::PipelineStageFlags::TRANSFER,
                vk::AccessFlags::TRANSFER_READ,
            ),
        )?;
        let dst = self.use_buffer(readback)?.raw();
        let cb = self.recording_command_buffer()?;
        // SAFETY: recording command buffer; image in TRANSFER_SRC_OPTIMAL after the barrier
        // above; the readback buffer is live, idle (readbacks wait) and at least `bytes` long.
        unsafe {
            self.device().cmd_copy_image_to_buffer(
                cb,
                raw,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                dst,
                &[copy],
            );
        }
        memory_barrier(
            self.device(),
            cb,
            TRANSFER_WRITE,
            (vk::PipelineStageFlags::HOST, vk::AccessFlags::HOST_READ),
        );
        let epoch = self.recording_epoch();
        self.wait_epoch(epoch)?;
        let mapping = self
            .buffer_host_mapping(readback)?
            .ok_or(MemoryError::Internal("readback buffer is not mapped"))?;
        if !mapping.coherent {
            self.invalidate_buffer_range(readback, 0, bytes)?;
        }
        self.record_stat(Stat::ReadbackBytes(bytes));
        // SAFETY: the copy that wrote these bytes has completed (waited above) and no other
        // submission uses the readback buffer until the next readback, which needs `&mut self`;
        // `bytes` lies inside the mapping (the buffer was created at least that large).
        Ok(unsafe { std::slice::from_raw_parts(mapping.ptr.as_ptr(), bytes as usize) })
    }

    /// Records a barrier that makes every device write recorded so far visible to host reads
    /// once this submission completes (GL's persistent maps: a fence or
    /// `glMemoryBarrier(GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT)` then a host read through the
    /// pointer). A semaphore or fence wait alone does not make device writes visible to the
    /// host domain. Must be called outside a render pass.
    pub fn host_read_barrier(&mut self) -> Result<()> {
        if self.is_lost() {
            return Err(MemoryError::DeviceLost);
        }
        let cb = self.recording_command_buffer()?;
        memory_barrier(
            self.device(),
            cb,
            ALL_PRIOR,
            (vk::PipelineStageFlags::HOST, vk::AccessFlags::HOST_READ),
        );
        Ok(())
    }

    /// `glGetBufferSubData` / mapping for read: `out.len()` bytes at `offset` of `src`. A mapped
    /// buffer is read in place once the last submission that used it completed; otherwise the
    /// range is copied to the readback buffer and read after that copy completes.
    pub fn read_buffer_range(
        &mut self,
        src: BufferHandle,
        offset: u64,
        out: &mut [u8],
    ) -> Result<()> {
        let info = self.buffer_range(src, offset, out.len())?;
        if out.is_empty() {
            return Ok(());
        }
        if self.buffer_is_mapped(src)? {
            if info.last_use > self.completed_epoch() {
                // Exactly the submissions that may have written it (the latest one covers the
                // earlier ones); a use still being recorded is submitted first.
                self.wait_epoch(info.last_use)?;
            }
            self.read_buffer(src, offset, out)?;
            self.record_stat(Stat::ReadbackBytes(out.len() as u64));
            return Ok(());
        }
        if !info.desc.usage.contains(vk::BufferUsageFlags::TRANSFER_SRC) {
            return Err(MemoryError::InvalidRequest(
                "buffer is not host-visible and lacks TRANSFER_SRC usage for a readback copy"
                    .into(),
            ));
        }
        let len = out.len() as u64;
        let readback = self.readback_buffer(len)?;
        let src_raw = self.use_buffer(src)?.raw();
        let dst_raw = self.use_buffer(readback)?.raw();
        let cb = self.recording_command_buffer()?;
        memory_barrier(
            self.device(),
            cb,
            ALL_PRIOR,
            (
                vk::PipelineStageFlags::TRANSFER,
                vk::AccessFlags::TRANSFER_READ,
            ),
        );
        let region = vk::BufferCopy {
            src_offset: offset,
            dst_offset: 0,
            size: len,
        };
        // SAFETY: recording command buffer; both buffers live and stamped; ranges checked.
        unsafe {
            self.device()
                .cmd_copy_buffer(cb, src_raw, dst_raw, &[region])
        };
        memory_barrier(
            self.device(),
            cb,
            TRANSFER_WRITE,
            (vk::PipelineStageFlags::HOST, vk::AccessFlags::HOST_READ),
        );
        let epoch = self.recording_epoch();
        self.wait_epoch(epoch)?;
        self.read_buffer(readback, 0, out)?;
        self.record_stat(Stat::ReadbackBytes(len));
        Ok(())
    }
}

impl MemoryManager {
    /// Whether `format` can be the source and destination of linearly filtered blits in
    /// optimal tiling (what [`MemoryManager::generate_mipmaps`] needs).
    pub fn supports_linear_blit(&self, format: vk::Format) -> bool {
        let shared = &self.backend().shared;
        let props = shared.format_properties(format);
        props.optimal_tiling_features.contains(
            vk::FormatFeatureFlags::BLIT_SRC
                | vk::FormatFeatureFlags::BLIT_DST
                | vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_LINEAR,
        )
    }

    /// `glGenerateMipmap` by blits: level `base` is filtered down into every level up to and
    /// including `last`, each from the one before (a linear 2:1 blit is GL's box filter). The
    /// image ends in `TRANSFER_DST_OPTIMAL` as a whole; `Unsupported` when the format cannot be
    /// blitted linearly (the caller's shader fallback takes over).
    pub fn generate_mipmaps(&mut self, image: ImageHandle, base: u32, last: u32) -> Result<()> {
        let (format, extent, levels, layers) = {
            let info = self.image_info(image)?;
            (
                info.desc.format,
                info.desc.extent,
                info.desc.mip_levels,
                info.desc.array_layers,
            )
        };
        if base >= last || last >= levels {
            return Err(MemoryError::InvalidRequest(format!(
                "mip levels {base}..={last} of an image with {levels}"
            )));
        }
        if !self.supports_linear_blit(format) {
            return Err(MemoryError::Unsupported(format!(
                "linear blits of {format:?} (mipmap generation)"
            )));
        }
        let aspect = format_aspects(format);
        let raw =
            self.transition_image(image, vk::ImageLayout::TRANSFER_DST_OPTIMAL, TRANSFER_WRITE)?;
        let cb = self.recording_command_buffer()?;
        let size = |v: u32, l: u32| ((v >> l).max(1)) as i32;
        let range = |level: u32| vk::ImageSubresourceRange {
            aspect_mask: aspect,
            base_mip_level: level,
            level_count: 1,
            base_array_layer: 0,
            layer_count: layers,
        };
        let level_barrier = |level: u32,
                             old: vk::ImageLayout,
                             new: vk::ImageLayout,
                             src: vk::AccessFlags,
                             dst: vk::AccessFlags| {
            vk::ImageMemoryBarrier::default()
                .src_access_mask(src)
                .dst_access_mask(dst)
                .old_layout(old)
                .new_layout(new)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .image(raw)
                .subresource_range(range(level))
        };
        let device = self.device().clone();
        for level in base + 1..=last {
            let to_src = level_barrier(
                level - 1,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                vk::AccessFlags::TRANSFER_WRITE,
                vk::AccessFlags::TRANSFER_READ,
            );
            let layers_of = |l: u32| vk::ImageSubresourceLayers {
                aspect_mask: aspect,
                mip_level: l,
                base_array_layer: 0,
                layer_count: layers,
            };
            let corner = |l: u32| vk::Offset3D {
                x: size(extent.width, l),
                y: size(extent.height, l),
                z: size(extent.depth, l),
            };
            let blit = vk::ImageBlit {
                src_subresource: layers_of(level - 1),
                src_offsets: [vk::Offset3D::default(), corner(level - 1)],
                dst_subresource: layers_of(level),
                dst_offsets: [vk::Offset3D::default(), corner(level)],
            };
            // SAFETY: recording command buffer outside any pass; `raw` is live and stamped;
            // level - 1 is made a transfer source after its own write; both levels exist.
            unsafe {
                device.cmd_pipeline_barrier(
                    cb,
                    vk::PipelineStageFlags::TRANSFER,
                    vk::PipelineStageFlags::TRANSFER,
                    vk::DependencyFlags::empty(),
                    &[],
                    &[],
                    &[to_src],
                );
                device.cmd_blit_image(
                    cb,
                    raw,
                    vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                    raw,
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    &[blit],
                    vk::Filter::LINEAR,
                );
            }
        }
        // Every level read as a source goes back to TRANSFER_DST: the whole image is then in one
        // layout again, which is what the manager tracks.
        let back: Vec<_> = (base..last)
            .map(|level| {
                level_barrier(
                    level,
                    vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    vk::AccessFlags::TRANSFER_READ,
                    vk::AccessFlags::TRANSFER_WRITE,
                )
            })
            .collect();
        // SAFETY: as above; the barriers name levels this function made transfer sources.
        unsafe {
            device.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &back,
            );
        }
        self.journal_mipmaps(image, base, last);
        Ok(())
    }
}

/// The copy of one staged chunk `t` of `region` (at `offset` of its staging buffer) into
/// `aspect` of the image: a layered region's chunks run along its layers, a 3D one's along z.
pub(super) fn chunk_copy(
    offset: vk::DeviceSize,
    aspect: vk::ImageAspectFlags,
    region: &ImageRegion,
    t: arenagl_staging::TexelBox,
) -> vk::BufferImageCopy {
    let (z, depth, base_array_layer, layer_count) = if region.layer_count > 1 {
        (0, 1, region.base_layer + t.z, t.depth)
    } else {
        (region.offset.z + t.z as i32, t.depth, region.base_layer, 1)
    };
    vk::BufferImageCopy {
        buffer_offset: offset,
        buffer_row_length: 0,
        buffer_image_height: 0,
        image_subresource: vk::ImageSubresourceLayers {
            aspect_mask: aspect,
            mip_level: region.mip_level,
            base_array_layer,
            layer_count,
        },
        image_offset: vk::Offset3D {
            x: region.offset.x + t.x as i32,
            y: region.offset.y + t.y as i32,
            z,
        },
        image_extent: vk::Extent3D {
            width: t.width,
            height: t.height,
            depth,
        },
    }
}
