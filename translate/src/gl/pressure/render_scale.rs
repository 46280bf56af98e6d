//! The default framebuffer at a reduced internal size (the downscaled image of
//! `docs/pressure.md`):
//! while memory pressure is Critical the presenter renders a window's frames into smaller
//! images and the present blit scales them up to the window.
//!
//! Design decisions:
//! - GL never sees the smaller size. Window coordinates stay the window's: a draw maps the
//!   viewport exactly (Vulkan viewports are fractional) and scissors and clears cover every
//!   image pixel the scaled rectangle touches (`Target::to_image`). What the reduced size
//!   changes is only what it must: fewer pixels are shaded and stored, and edges blur when the
//!   present scales up.
//! - `glReadPixels` of a scaled default framebuffer reads what the window would show: the
//!   requested rectangle is scaled up into a temporary image of exactly that size (a linear
//!   blit), which is then read with the application's pack state. The temporary image is
//!   retired at once (released when the read's epoch completes).
//! - Known limits while scaled: `gl_FragCoord`, line widths and point sizes are in image
//!   pixels; depth and stencil reads of the default framebuffer read the scaled images.
//! - The presenter (`src/abi/bridge.rs`) asks [`Context::requested_render_scale`] after each
//!   swap and remakes the window's images when it differs from theirs, as for a resize.

use arenagl_memory::vulkan::{BlitSide, ImageRegion};
use arenagl_memory::{Category, ImageDesc, ImageHandle};
use ash::vk;

use crate::gl::context::error::GlResult;
use crate::gl::context::Context;
use crate::gl::objects::framebuffer::{Bound, Target};

/// The format a read-back copy of `format` is made in: an RGB565 default framebuffer (which
/// the texel conversions do not read) is copied into RGBA8, which holds every 5/6-bit value
/// exactly; other formats stay as they are.
pub(crate) fn read_copy_format(format: vk::Format) -> vk::Format {
    match format {
        vk::Format::R5G6B5_UNORM_PACK16 => vk::Format::R8G8B8A8_UNORM,
        f => f,
    }
}

impl Context {
    /// The render scale the pressure policy asks the presenter for (1.0: full size).
    pub fn requested_render_scale(&self) -> f32 {
        self.pressure.render_scale
    }

    /// For a read of `rect` (GL window coordinates, inside the GL size) from `src` of a scaled
    /// `target`: a temporary image holding that rectangle scaled up to its GL size, in
    /// [`read_copy_format`] of `src`'s, and the region to read from it (an unscaled target's
    /// copy is exact). The caller retires the image after the read.
    pub(crate) fn upscaled_for_read(
        &mut self,
        target: &Target,
        src: Bound,
        rect: vk::Rect2D,
    ) -> GlResult<(ImageHandle, ImageRegion)> {
        let from = target.to_image(crate::gl::context::state::Rect {
            x: rect.offset.x,
            y: rect.offset.y,
            width: rect.extent.width as i32,
            height: rect.extent.height as i32,
        });
        let (x0, y0) = (from.x.max(0), from.y.max(0));
        let x1 = (from.x + from.width).min(target.width as i32);
        let y1 = (from.y + from.height).min(target.height as i32);
        let device = self.device.clone();
        let mut locked = device.lock();
        let temp = locked.manager.create_image(
            &ImageDesc::new_2d(
                read_copy_format(src.format),
                rect.extent.width,
                rect.extent.height,
                1,
                vk::ImageUsageFlags::TRANSFER_DST | vk::ImageUsageFlags::TRANSFER_SRC,
                Category::Staging,
            )
            .named("scaled read-back"),
        )?;
        let corner = |x: i32, y: i32, z: i32| vk::Offset3D { x, y, z };
        let blitted = locked.manager.blit_image(
            BlitSide {
                image: src.image,
                mip_level: 0,
                layer: 0,
                corners: [corner(x0, y0, 0), corner(x1, y1, 1)],
            },
            BlitSide {
                image: temp,
                mip_level: 0,
                layer: 0,
                corners: [
                    corner(0, 0, 0),
                    corner(rect.extent.width as i32, rect.extent.height as i32, 1),
                ],
            },
            vk::ImageAspectFlags::COLOR,
            vk::Filter::LINEAR,
        );
        if let Err(e) = blitted {
            let _ = locked.manager.retire_image(temp);
            return Err(e.into());
        }
        Ok((
            temp,
            ImageRegion::rect(0, 0, 0, rect.extent.width, rect.extent.height),
        ))
    }
}
