//! Exact image-to-image copies (`glCopyImageSubData`): `vkCmdCopyImage` of a box of texels
//! between two images of size-compatible formats, or between two regions of one image.
//!
//! Design decisions:
//! - A box is GL's: x, y and a z that is a slice of a 3D image or an array layer of any other
//!   (cube faces included); the manager turns it into Vulkan's subresource layers or depth
//!   range per image, so a 3D image copies to and from a 2D array as Vulkan 1.1 allows.
//! - One image copied to itself (GL allows it, `glCopyImageSubData` with the same name twice)
//!   goes through the `GENERAL` layout, the one layout a copy may read and write. Vulkan forbids
//!   overlapping source and destination regions in one command, so overlapping boxes (whose
//!   result GL leaves undefined) are copied through a temporary image in two commands: the
//!   result is then the source's old contents, and the recording stays valid Vulkan.
//! - The manager checks what would make the command invalid Vulkan (levels, boxes, texel
//!   sizes, sample counts) and answers `InvalidRequest`; GL's own errors are the translator's.

use ash::vk;

use super::transfer::{color_texel_bytes, format_aspects};

/// Bytes per texel of an uncompressed colour format (None for formats the GL never stores).
fn texel_bytes(format: vk::Format) -> Option<u8> {
    use vk::Format as F;
    match format {
        F::R8_UNORM => Some(1),
        F::R8G8_UNORM => Some(2),
        F::R8G8B8_UNORM | F::R8G8B8_SRGB => Some(3),
        F::R8G8B8A8_UNORM
        | F::R8G8B8A8_SRGB
        | F::R8G8B8A8_UINT
        | F::R8G8B8A8_SINT
        | F::B8G8R8A8_UNORM
        | F::B8G8R8A8_SRGB => Some(4),
        other => color_texel_bytes(other),
    }
}
use super::MemoryManager;
use crate::desc::{Category, ImageDesc};
use crate::error::{MemoryError, Result};
use crate::manager::ImageHandle;

/// One side of an image copy: the image, its mip level and the box's first texel (x, y, and
/// z: a 3D slice or an array layer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CopySide {
    pub image: ImageHandle,
    pub mip_level: u32,
    pub offset: [u32; 3],
}

/// What the copy needs to know about one image.
#[derive(Debug, Clone, Copy)]
struct Shape {
    format: vk::Format,
    three_d: bool,
    level_extent: [u32; 3],
    levels: u32,
    layers: u32,
    samples: vk::SampleCountFlags,
}

impl CopySide {
    /// The subresource and offset of this side for a box of `depth` slices or layers.
    fn placed(
        &self,
        shape: &Shape,
        aspect: vk::ImageAspectFlags,
        depth: u32,
    ) -> (vk::ImageSubresourceLayers, vk::Offset3D) {
        let [x, y, z] = self.offset.map(|v| v as i32);
        let (base_array_layer, layer_count, z) = if shape.three_d {
            (0, 1, z)
        } else {
            (self.offset[2], depth, 0)
        };
        (
            vk::ImageSubresourceLayers {
                aspect_mask: aspect,
                mip_level: self.mip_level,
                base_array_layer,
                layer_count,
            },
            vk::Offset3D { x, y, z },
        )
    }

    /// Whether the box of `size` lies inside this side's level.
    fn fits(&self, shape: &Shape, size: [u32; 3]) -> bool {
        let z_limit = if shape.three_d {
            shape.level_extent[2]
        } else {
            shape.layers
        };
        let limits = [shape.level_extent[0], shape.level_extent[1], z_limit];
        self.mip_level < shape.levels
            && (0..3)
                .all(|a| u64::from(self.offset[a]) + u64::from(size[a]) <= u64::from(limits[a]))
    }
}

/// Whether two boxes of `size` at `a` and `b` share a texel.
fn boxes_overlap(a: [u32; 3], b: [u32; 3], size: [u32; 3]) -> bool {
    (0..3).all(|i| a[i] < b[i] + size[i] && b[i] < a[i] + size[i])
}

impl MemoryManager {
    fn copy_shape(&self, image: ImageHandle, level: u32) -> Result<Shape> {
        let d = self.image_info(image)?.desc;
        let three_d = d.image_type == vk::ImageType::TYPE_3D;
        let at = |v: u32| (v >> level).max(1);
        Ok(Shape {
            format: d.format,
            three_d,
            level_extent: [
                at(d.extent.width),
                at(d.extent.height),
                if three_d { at(d.extent.depth) } else { 1 },
            ],
            levels: d.mip_levels,
            layers: d.array_layers,
            samples: d.samples,
        })
    }

    /// Records an exact copy of the `size` box (width, height, and slices or layers) at `src`
    /// onto the box at `dst`. The formats must have the same texel size (or, for depth/stencil,
    /// be equal) and the sample counts must match. Both images end in the layouts the copy used
    /// (tracked by the manager); one image copied to itself stays in `GENERAL`.
    pub fn copy_image(&mut self, src: CopySide, dst: CopySide, size: [u32; 3]) -> Result<()> {
        if self.is_lost() {
            return Err(MemoryError::DeviceLost);
        }
        if size.contains(&0) {
            return Ok(());
        }
        let s = self.copy_shape(src.image, src.mip_level)?;
        let d = self.copy_shape(dst.image, dst.mip_level)?;
        let (sa, da) = (format_aspects(s.format), format_aspects(d.format));
        let compatible = if sa == vk::ImageAspectFlags::COLOR && da == vk::ImageAspectFlags::COLOR {
            texel_bytes(s.format).is_some() && texel_bytes(s.format) == texel_bytes(d.format)
        } else {
            s.format == d.format
        };
        if !compatible || s.samples != d.samples || !src.fits(&s, size) || !dst.fits(&d, size) {
            return Err(MemoryError::InvalidRequest(format!(
                "image copy of {size:?} from {src:?} ({:?}, {:?}) to {dst:?} ({:?}, {:?})",
                s.format, s.samples, d.format, d.samples
            )));
        }
        if src.image == dst.image {
            if src.mip_level == dst.mip_level && boxes_overlap(src.offset, dst.offset, size) {
                return self.copy_through_temporary(src, dst, size, &s);
            }
            return self.record_copy(src, &s, dst, &d, size, vk::ImageLayout::GENERAL);
        }
        self.record_copy(
            src,
            &s,
            dst,
            &d,
            size,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
        )
    }

    /// Overlapping boxes of one image: the source box into a temporary image of its format,
    /// then onto the destination box (GL leaves the result undefined; this one is the source's
    /// contents before the copy).
    fn copy_through_temporary(
        &mut self,
        src: CopySide,
        dst: CopySide,
        size: [u32; 3],
        shape: &Shape,
    ) -> Result<()> {
        let mut desc = ImageDesc::new_2d(
            shape.format,
            size[0],
            size[1],
            1,
            vk::ImageUsageFlags::TRANSFER_SRC | vk::ImageUsageFlags::TRANSFER_DST,
            Category::Texture,
        )
        .named("GL overlapping image copy");
        desc.samples = shape.samples;
        if shape.three_d {
            desc.image_type = vk::ImageType::TYPE_3D;
            desc.extent.depth = size[2];
        } else {
            desc.array_layers = size[2];
        }
        let temp = self.create_image(&desc)?;
        let tshape = self.copy_shape(temp, 0)?;
        let t = CopySide {
            image: temp,
            mip_level: 0,
            offset: [0; 3],
        };
        let layout = vk::ImageLayout::TRANSFER_SRC_OPTIMAL;
        let result = self
            .record_copy(src, shape, t, &tshape, size, layout)
            .and_then(|()| self.record_copy(t, &tshape, dst, shape, size, layout));
        // Retired at once: the epochs keep it alive for the commands just recorded.
        let _ = self.retire_image(temp);
        result
    }

    /// Records one `vkCmdCopyImage`; `src_layout` is `GENERAL` for a copy within one image
    /// (then both sides use it), else the source's layout with the destination in
    /// `TRANSFER_DST_OPTIMAL`.
    fn record_copy(
        &mut self,
        src: CopySide,
        s: &Shape,
        dst: CopySide,
        d: &Shape,
        size: [u32; 3],
        src_layout: vk::ImageLayout,
    ) -> Result<()> {
        let same = src.image == dst.image;
        let dst_layout = if same {
            vk::ImageLayout::GENERAL
        } else {
            vk::ImageLayout::TRANSFER_DST_OPTIMAL
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
        let aspect = format_aspects(s.format);
        let (src_subresource, src_offset) = src.placed(s, aspect, size[2]);
        let (dst_subresource, dst_offset) = dst.placed(d, aspect, size[2]);
        // Vulkan 1.1: depth counts slices only when both sides are 3D; between a 3D image and
        // an array, the array side's layer count equals the 3D side's depth.
        let depth = if s.three_d || d.three_d { size[2] } else { 1 };
        let copy = vk::ImageCopy {
            src_subresource,
            src_offset,
            dst_subresource,
            dst_offset,
            extent: vk::Extent3D {
                width: size[0],
                height: size[1],
                depth,
            },
        };
        let cb = self.recording_command_buffer()?;
        let device = self.device().clone();
        // SAFETY: recording command buffer outside any pass (`recording_command_buffer` ends
        // one); both images are live, stamped for this epoch and in the layouts named; the boxes
        // lie inside their levels, the texel sizes and sample counts agree (checked by
        // `copy_image`), and boxes of one image do not overlap (overlaps take a temporary).
        unsafe {
            device.cmd_copy_image(cb, raw_src, src_layout, raw_dst, dst_layout, &[copy]);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::boxes_overlap;

    #[test]
    fn boxes_overlap_only_when_every_axis_does() {
        assert!(boxes_overlap([0, 0, 0], [3, 3, 0], [4, 4, 1]));
        assert!(!boxes_overlap([0, 0, 0], [4, 0, 0], [4, 4, 1]));
        assert!(!boxes_overlap([0, 0, 0], [0, 0, 1], [4, 4, 1]));
        assert!(boxes_overlap([2, 2, 1], [0, 0, 0], [4, 4, 2]));
    }
}
