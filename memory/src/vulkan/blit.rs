//! Image-to-image blits (`glBlitFramebuffer`): scaled and mirrored with `vkCmdBlitImage` where
//! both formats support it, an exact `vkCmdCopyImage` where the region is not scaled or mirrored
//! and the formats match (depth/stencil formats often have no blit support).
//! - One aspect (depth or stencil) of a depth/stencil format is written through a buffer: the
//!   region is copied image → buffer → image with that aspect (after a blit into a temporary
//!   image when scaled or mirrored). Works around lavapipe (Mesa 22.3 `handle_blit_image` and
//!   `handle_copy_image`), whose image-to-image blits and copies move depth and stencil
//!   together whatever the aspect masks say, overwriting the aspect GL left alone; buffer
//!   copies honour the aspect everywhere.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, PoisonError};

use ash::vk;
use ash::vk::Handle;

use super::transfer::format_aspects;
use super::MemoryManager;
use crate::error::{MemoryError, Result};
use crate::manager::ImageHandle;

/// One side of a blit: an image, its mip level and layer (an array layer, or the slice of a 3D
/// image), and the region's two corners in x and y (either order on an axis; a reversed pair
/// mirrors that axis; z is ignored).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlitSide {
    pub image: ImageHandle,
    pub mip_level: u32,
    pub layer: u32,
    pub corners: [vk::Offset3D; 2],
}

impl BlitSide {
    fn extent(&self) -> (i32, i32) {
        (
            self.corners[1].x - self.corners[0].x,
            self.corners[1].y - self.corners[0].y,
        )
    }

    /// The subresource and the z range: a 3D image's layer is a slice in z.
    fn placed(
        &self,
        aspect: vk::ImageAspectFlags,
        three_d: bool,
    ) -> (vk::ImageSubresourceLayers, [vk::Offset3D; 2]) {
        let (layer, z) = if three_d {
            (0, self.layer as i32)
        } else {
            (self.layer, 0)
        };
        let mut corners = self.corners;
        corners[0].z = z;
        corners[1].z = z + 1;
        (
            vk::ImageSubresourceLayers {
                aspect_mask: aspect,
                mip_level: self.mip_level,
                base_array_layer: layer,
                layer_count: 1,
            },
            corners,
        )
    }
}

impl MemoryManager {
    /// The optimal-tiling features of `format`, cached per physical device and format (draws ask
    /// for every sampled texture).
    pub fn format_features(&self, format: vk::Format) -> vk::FormatFeatureFlags {
        type Cache = HashMap<(u64, i32), vk::FormatFeatureFlags>;
        static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
        let shared = &self.backend().shared;
        let key = (shared.physical.as_raw(), format.as_raw());
        let cache = CACHE.get_or_init(Default::default);
        if let Some(f) = cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&key)
        {
            return *f;
        }
        let features = shared.format_properties(format).optimal_tiling_features;
        cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key, features);
        features
    }

    /// Whether buffers of `format` may be read as uniform texel buffers (buffer textures);
    /// cached like [`MemoryManager::format_features`].
    pub fn supports_texel_buffer(&self, format: vk::Format) -> bool {
        self.buffer_features(format)
            .contains(vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER)
    }

    /// Whether vertex buffers may hold attributes of `format`.
    pub fn supports_vertex_buffer(&self, format: vk::Format) -> bool {
        self.buffer_features(format)
            .contains(vk::FormatFeatureFlags::VERTEX_BUFFER)
    }

    /// The buffer features of `format`, cached like [`MemoryManager::format_features`].
    fn buffer_features(&self, format: vk::Format) -> vk::FormatFeatureFlags {
        type Cache = HashMap<(u64, i32), vk::FormatFeatureFlags>;
        static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
        let shared = &self.backend().shared;
        let key = (shared.physical.as_raw(), format.as_raw());
        let cache = CACHE.get_or_init(Default::default);
        let known = cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&key)
            .copied();
        known.unwrap_or_else(|| {
            let f = shared.format_properties(format).buffer_features;
            cache
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(key, f);
            f
        })
    }

    /// Whether images of `format` may be sampled with linear filtering.
    pub fn supports_linear_filter(&self, format: vk::Format) -> bool {
        self.format_features(format)
            .contains(vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_LINEAR)
    }

    /// Records a blit of `src` onto `dst` for the planes in `aspect` (colour, or depth and/or
    /// stencil) with `filter`. Both images end in the layouts the blit used (tracked by the
    /// manager); an image blitted onto itself goes through `GENERAL`. `Unsupported` when the
    /// formats allow neither a blit nor (for an unscaled, unmirrored region of one format) a copy.
    pub fn blit_image(
        &mut self,
        src: BlitSide,
        dst: BlitSide,
        aspect: vk::ImageAspectFlags,
        filter: vk::Filter,
    ) -> Result<()> {
        if self.is_lost() {
            return Err(MemoryError::DeviceLost);
        }
        let src_format = self.image_info(src.image)?.desc.format;
        let dst_format = self.image_info(dst.image)?.desc.format;
        let three_d = |m: &Self, side: &BlitSide| -> Result<bool> {
            Ok(m.image_info(side.image)?.desc.extent.depth > 1)
        };
        let (src_3d, dst_3d) = (three_d(self, &src)?, three_d(self, &dst)?);
        for (side, is_3d) in [(&src, src_3d), (&dst, dst_3d)] {
            let info = self.image_info(side.image)?;
            let d = &info.desc;
            let w = (d.extent.width >> side.mip_level).max(1) as i32;
            let h = (d.extent.height >> side.mip_level).max(1) as i32;
            let layers = if is_3d {
                (d.extent.depth >> side.mip_level).max(1)
            } else {
                d.array_layers
            };
            let inside = side
                .corners
                .iter()
                .all(|c| (0..=w).contains(&c.x) && (0..=h).contains(&c.y));
            if side.mip_level >= d.mip_levels || side.layer >= layers || !inside {
                return Err(MemoryError::InvalidRequest(format!(
                    "blit region {:?} of level {} layer {} of a {}x{} image with {} levels, {} layers",
                    side.corners, side.mip_level, side.layer, d.extent.width, d.extent.height,
                    d.mip_levels, d.array_layers
                )));
            }
        }
        let aspect = aspect & format_aspects(src_format) & format_aspects(dst_format);
        if aspect.is_empty() {
            return Ok(());
        }
        let blit_ok = self
            .format_features(src_format)
            .contains(vk::FormatFeatureFlags::BLIT_SRC)
            && self
                .format_features(dst_format)
                .contains(vk::FormatFeatureFlags::BLIT_DST)
            && (filter == vk::Filter::NEAREST
                || self
                    .format_features(src_format)
                    .contains(vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_LINEAR));
        let (sw, sh) = src.extent();
        let (dw, dh) = dst.extent();
        let exact = sw == dw && sh == dh && sw > 0 && sh > 0 && src_format == dst_format;
        if !blit_ok && !exact {
            return Err(MemoryError::Unsupported(format!(
                "a scaled or mirrored blit from {src_format:?} to {dst_format:?}"
            )));
        }
        if src_format == dst_format && aspect != format_aspects(dst_format) {
            return self.blit_one_aspect(src, dst, aspect, filter, exact);
        }
        let same = src.image == dst.image;
        let (src_layout, dst_layout) = if same {
            (vk::ImageLayout::GENERAL, vk::ImageLayout::GENERAL)
        } else {
            (
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            )
        };
        let transfer = (
            vk::PipelineStageFlags::TRANSFER,
            vk::AccessFlags::TRANSFER_READ | vk::AccessFlags::TRANSFER_WRITE,
        );
        let raw_src = self.transition_image(src.image, src_layout, transfer)?;
        let raw_dst = if same {
            raw_src
        } else {
            self.transition_image(dst.image, dst_layout, transfer)?
        };
        let cb = self.recording_command_buffer()?;
        let device = self.device().clone();
        if exact {
            let (src_sub, src_corners) = src.placed(aspect, src_3d);
            let (dst_sub, dst_corners) = dst.placed(aspect, dst_3d);
            let copy = vk::ImageCopy {
                src_subresource: src_sub,
                src_offset: src_corners[0],
                dst_subresource: dst_sub,
                dst_offset: dst_corners[0],
                extent: vk::Extent3D {
                    width: sw as u32,
                    height: sh as u32,
                    depth: 1,
                },
            };
            // SAFETY: recording command buffer outside any pass; both images are live, stamped
            // for this epoch and in the layouts named; the regions lie inside their levels.
            unsafe {
                device.cmd_copy_image(cb, raw_src, src_layout, raw_dst, dst_layout, &[copy]);
            }
        } else {
            let (src_subresource, src_offsets) = src.placed(aspect, src_3d);
            let (dst_subresource, dst_offsets) = dst.placed(aspect, dst_3d);
            let blit = vk::ImageBlit {
                src_subresource,
                src_offsets,
                dst_subresource,
                dst_offsets,
            };
            // SAFETY: as above; both formats support blits (checked), a depth/stencil blit
            // uses NEAREST (the caller's GL validation guarantees it).
            unsafe {
                device.cmd_blit_image(
                    cb,
                    raw_src,
                    src_layout,
                    raw_dst,
                    dst_layout,
                    &[blit],
                    filter,
                );
            }
        }
        Ok(())
    }
}

impl MemoryManager {
    /// A blit of one aspect of a depth/stencil format (see the module docs): the scaled or
    /// mirrored source region is first blitted whole into a temporary image the size of the
    /// destination region; then that aspect goes through a temporary buffer into `dst`.
    fn blit_one_aspect(
        &mut self,
        src: BlitSide,
        dst: BlitSide,
        aspect: vk::ImageAspectFlags,
        filter: vk::Filter,
        exact: bool,
    ) -> Result<()> {
        let format = self.image_info(dst.image)?.desc.format;
        let [a, b] = dst.corners;
        let (x0, y0) = (a.x.min(b.x), a.y.min(b.y));
        let (w, h) = ((a.x - b.x).unsigned_abs(), (a.y - b.y).unsigned_abs());
        if w == 0 || h == 0 {
            return Ok(());
        }
        let (mut temporary_image, mut temporary_buffer) = (None, None);
        let result = (|| -> Result<()> {
            // The source region, unscaled and unmirrored: (image, level, layer, x, y).
            let source = if exact {
                let c = src.corners[0];
                (src.image, src.mip_level, src.layer, c.x, c.y)
            } else {
                let temporary = self.create_image(
                    &crate::desc::ImageDesc::new_2d(
                        format,
                        w,
                        h,
                        1,
                        vk::ImageUsageFlags::TRANSFER_SRC | vk::ImageUsageFlags::TRANSFER_DST,
                        crate::desc::Category::RenderTarget,
                    )
                    .named("one-aspect blit image"),
                )?;
                temporary_image = Some(temporary);
                let shift = |c: vk::Offset3D| vk::Offset3D {
                    x: c.x - x0,
                    y: c.y - y0,
                    z: 0,
                };
                let whole = BlitSide {
                    image: temporary,
                    mip_level: 0,
                    layer: 0,
                    corners: [shift(a), shift(b)],
                };
                self.blit_image(src, whole, format_aspects(format), filter)?;
                (temporary, 0, 0, 0, 0)
            };
            let texel = match (aspect, format) {
                (vk::ImageAspectFlags::STENCIL, _) => 1,
                (_, vk::Format::D16_UNORM_S8_UINT) => 2,
                _ => 4,
            };
            let buffer = self.create_buffer(
                &crate::desc::BufferDesc::new(
                    u64::from(w) * u64::from(h) * texel,
                    vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST,
                    crate::desc::MemoryClass::DeviceBuffer,
                    crate::desc::Category::RenderTarget,
                )
                .named("one-aspect blit buffer"),
            )?;
            temporary_buffer = Some(buffer);
            let region = |image_offset: vk::Offset3D, level: u32, layer: u32| vk::BufferImageCopy {
                buffer_offset: 0,
                buffer_row_length: 0,
                buffer_image_height: 0,
                image_subresource: vk::ImageSubresourceLayers {
                    aspect_mask: aspect,
                    mip_level: level,
                    base_array_layer: layer,
                    layer_count: 1,
                },
                image_offset,
                image_extent: vk::Extent3D {
                    width: w,
                    height: h,
                    depth: 1,
                },
            };
            let (image, level, layer, sx, sy) = source;
            let raw_src = self.transition_image(
                image,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                TRANSFER_READ_WRITE,
            )?;
            let raw_buffer = self.use_buffer(buffer)?.raw();
            let cb = self.recording_command_buffer()?;
            // SAFETY: recording command buffer outside any pass; the image is live, stamped and
            // in TRANSFER_SRC_OPTIMAL; the region lies inside it (checked by `blit_image`, or
            // the temporary's own size) and the buffer holds w × h texels of the aspect.
            unsafe {
                self.device().cmd_copy_image_to_buffer(
                    cb,
                    raw_src,
                    vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                    raw_buffer,
                    &[region(vk::Offset3D { x: sx, y: sy, z: 0 }, level, layer)],
                );
            }
            let raw_dst = self.transition_image(
                dst.image,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                TRANSFER_READ_WRITE,
            )?;
            let cb = self.recording_command_buffer()?;
            let written = vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
                .dst_access_mask(vk::AccessFlags::TRANSFER_READ);
            // SAFETY: as above; the barrier orders the buffer's write before its read, and the
            // destination region lies inside `dst` (checked by `blit_image`).
            unsafe {
                let device = self.device();
                device.cmd_pipeline_barrier(
                    cb,
                    vk::PipelineStageFlags::TRANSFER,
                    vk::PipelineStageFlags::TRANSFER,
                    vk::DependencyFlags::empty(),
                    &[written],
                    &[],
                    &[],
                );
                device.cmd_copy_buffer_to_image(
                    cb,
                    raw_buffer,
                    raw_dst,
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    &[region(
                        vk::Offset3D { x: x0, y: y0, z: 0 },
                        dst.mip_level,
                        dst.layer,
                    )],
                );
            }
            Ok(())
        })();
        // Retired through the epochs: the recorded commands keep them alive.
        if let Some(image) = temporary_image {
            let _ = self.retire_image(image);
        }
        if let Some(buffer) = temporary_buffer {
            let _ = self.retire_buffer(buffer);
        }
        result
    }
}

const TRANSFER_READ_WRITE: (vk::PipelineStageFlags, vk::AccessFlags) = (
    vk::PipelineStageFlags::TRANSFER,
    vk::AccessFlags::from_raw(
        vk::AccessFlags::TRANSFER_READ.as_raw() | vk::AccessFlags::TRANSFER_WRITE.as_raw(),
    ),
);
