//! Image-to-image blits (`glBlitFramebuffer`): scaled and mirrored with `vkCmdBlitImage` where
//! both formats support it, an exact `vkCmdCopyImage` where the region is not scaled or mirrored
//! and the formats match (depth/stencil formats often have no blit support).

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
        // SAFETY: plain query on the physical device this backend was opened on.
        let features = unsafe {
            shared
                .instance
                .get_physical_device_format_properties(shared.physical, format)
        }
        .optimal_tiling_features;
        cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key, features);
        features
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
