//! `glReadPixels`: colour, depth and stencil reads from the read framebuffer into client memory
//! (or, through the C edge, a pixel pack buffer).
//!
//! Design decisions:
//! - The read rectangle is clipped to the framebuffer first; the pack state's skips absorb what
//!   the clip cut from the left and bottom, so each pixel read lands where it would in the
//!   unclipped image and nothing is written for pixels outside the framebuffer.
//! - Depth and stencil formats go through `readback_depth`; colour through the texture room's
//!   colour read, which converts to the requested format and type.
//! - A read is a transfer: it ends the render pass. A multisampled read framebuffer is
//!   `GL_INVALID_OPERATION` (a program resolves it with a blit first).
//! - A default framebuffer rendered at a reduced scale is upscaled into a temporary image, read
//!   as the window shows it, and the temporary retired.

use arenagl_memory::ImageRegion;
use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_op, invalid_value, GlResult};
use crate::gl::context::state::Rect;
use crate::gl::context::Context;
use crate::gl::draw::clip;
use crate::gl::objects::framebuffer::Bound;

impl Context {
    /// `glReadPixels` into `out` (already sized by [`Context::client_image_bytes`]).
    #[allow(clippy::too_many_arguments)]
    pub fn read_pixels(
        &mut self,
        x: i32,
        y: i32,
        width: i32,
        height: i32,
        format: GLenum,
        ty: GLenum,
        out: &mut [u8],
    ) {
        let r = self.read_pixels_inner((x, y), (width, height), (format, ty), out);
        self.record(r);
        self.rewind_idle_staging();
    }

    /// [`Context::read_pixels`]'s work, returning the error instead of recording it (a copy
    /// from the framebuffer into a texture reads through it too).
    pub(crate) fn read_pixels_inner(
        &mut self,
        (x, y): (i32, i32),
        (width, height): (i32, i32),
        (format, ty): (GLenum, GLenum),
        out: &mut [u8],
    ) -> GlResult<()> {
        if width < 0 || height < 0 {
            return invalid_value(format!("glReadPixels size {width}x{height}"));
        }
        let depth_stencil = crate::gl::pixel::readback_depth::is_depth_stencil_format(format);
        let pair = if depth_stencil {
            None
        } else {
            Some(crate::gl::objects::texture::api::client_pixel_for(
                format, ty,
            )?)
        };
        let target = self.read_source_target("glReadPixels")?;
        let Some(pair) = pair else {
            let area = Rect {
                x,
                y,
                width,
                height,
            };
            let Some(rect) = clip(area, target.width, target.height) else {
                return Ok(());
            };
            return self.read_depth_stencil((x, y), rect, format, ty, out);
        };
        let Some(src) = target.colors.iter().flatten().next().copied() else {
            return invalid_op("glReadPixels with GL_NONE as the read buffer");
        };
        // The attached level and layer (cube face, array layer, 3D slice) of a texture.
        let (level, layer) = (src.level, src.layer);
        let Some(rect) = clip(
            Rect {
                x,
                y,
                width,
                height,
            },
            target.gl_size.0,
            target.gl_size.1,
        ) else {
            return Ok(());
        };
        let mut pack = self.pack;
        if pack.row_length == 0 {
            pack.row_length = width as u32;
        }
        pack.skip_pixels += (rect.offset.x - x) as u32;
        pack.skip_rows += (rect.offset.y - y) as u32;
        self.end_pass();
        let mut region = ImageRegion::rect(
            level,
            rect.offset.x,
            rect.offset.y,
            rect.extent.width,
            rect.extent.height,
        );
        if layer > 0 {
            let three_d = self
                .device
                .lock()
                .manager
                .image_info(src.image)?
                .desc
                .image_type
                == vk::ImageType::TYPE_3D;
            if three_d {
                region.offset.z = layer as i32;
            } else {
                region.base_layer = layer;
            }
        }
        // A default framebuffer at a reduced render scale is read as the window shows it; an
        // RGB565 one through an RGBA8 copy.
        let copy_format = crate::gl::pressure::render_scale::read_copy_format(src.format);
        let (image, region, temp) = if target.is_scaled() || copy_format != src.format {
            let (temp, region) = self.upscaled_for_read(&target, src, rect)?;
            (temp, region, Some(temp))
        } else {
            (src.image, region, None)
        };
        let info = self.read_attachment_format().map(|(info, _)| info);
        let device = self.device.clone();
        let mut locked = device.lock();
        let read = crate::gl::objects::texture::api::read_color_of(
            &mut locked,
            Bound {
                image,
                format: copy_format,
                ..src
            },
            info.as_ref(),
            &region,
            &pack,
            (format, ty),
            pair,
            out,
        );
        if let Some(temp) = temp {
            let _ = locked.manager.retire_image(temp);
        }
        read?;
        locked.collect(device.raw());
        Ok(())
    }
}
