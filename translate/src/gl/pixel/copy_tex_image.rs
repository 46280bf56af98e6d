//! `glCopyTexImage1D/2D` and `glCopyTexSubImage1D/2D/3D`: a rectangle of the read
//! framebuffer's read buffer (colour, or depth/stencil for depth textures) copied into a level
//! of the bound texture.
//!
//! Design decisions:
//! - `glCopyTexImage*` specifies the level first (`specify_level`, the same path and errors as
//!   `glTexImage*` with no data: immutable storage is `GL_INVALID_OPERATION`), then copies as
//!   `glCopyTexSubImage*` does.
//! - The copy is a GPU blit (`MemoryManager::blit_image`): an exact copy where the formats
//!   match and nothing is scaled, `vkCmdBlitImage` where they differ (format conversion, or a
//!   window rendered at a reduced scale, whose GL rectangle maps onto fewer image pixels the way
//!   `glBlitFramebuffer` maps it). Where Vulkan cannot blit (a format without blit support,
//!   integers of another signedness, a source that is the destination's own level and layer),
//!   the pixels go through the CPU: `glReadPixels`' path into RGBA float or integer data, then
//!   the upload path. Depth/stencil copies between different formats (a D24S8 framebuffer into
//!   a `GL_DEPTH_COMPONENT32F` texture) take it too, as depth floats (Vulkan blits depth only
//!   between equal formats); a depth/stencil destination gets the depth and keeps its stencil
//!   (logged). 1D and 1D-array destinations take
//!   the CPU path too: Vulkan copies no texels between 1D and 2D images. A depth copy onto its
//!   own source level is logged and copies nothing.
//! - Pixels of the rectangle outside the read framebuffer are clipped away: their texels are
//!   left as they were (GL leaves them undefined), and nothing outside either image is read or
//!   written.
//! - A 1D array's rows are its layers: framebuffer row i lands in layer `yoffset + i` (the
//!   upload path lays them out so).

use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlError, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::framebuffer::{Bound, Target};
use crate::gl::objects::texture::target::TexTarget;

const GL_RGBA_INTEGER: GLenum = 0x8D99;

/// A rectangle of the read framebuffer in GL window coordinates, clipped to it, and where its
/// first pixel lands in the destination level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Clipped {
    src: [i32; 2],
    size: [u32; 2],
    dst: [i32; 2],
}

/// Clips the `size` rectangle at `src` to a `fb` (width, height) framebuffer, moving the
/// destination offset `dst` with it. None when nothing is left.
fn clip(src: [i32; 2], size: [i32; 2], fb: (u32, u32), dst: [i32; 2]) -> Option<Clipped> {
    let mut out = Clipped {
        src,
        size: [0; 2],
        dst,
    };
    for (axis, limit) in [fb.0, fb.1].into_iter().enumerate() {
        let lo = i64::from(src[axis]).max(0);
        let hi = (i64::from(src[axis]) + i64::from(size[axis])).min(i64::from(limit));
        if hi <= lo {
            return None;
        }
        out.dst[axis] = (i64::from(dst[axis]) + lo - i64::from(src[axis])) as i32;
        out.src[axis] = lo as i32;
        out.size[axis] = (hi - lo) as u32;
    }
    Some(out)
}

/// The image pixels of GL window coordinates `a..b` on one axis of `t` (the identity unless a
/// default framebuffer renders at a reduced scale).
fn to_image(t: &Target, (a, b): (i32, i32), axis: usize) -> (i32, i32) {
    let (image, gl) = if axis == 0 {
        (t.width, t.gl_size.0)
    } else {
        (t.height, t.gl_size.1)
    };
    let map = |v: i32| (i64::from(v) * i64::from(image) / i64::from(gl.max(1))) as i32;
    (map(a), map(b))
}

/// A client `(format, type)` that carries every value of a texture of `info` through the CPU
/// path (and satisfies `glTexImage*`'s checks when a level is specified with no data).
fn carrier_pair(
    info: &crate::gl::objects::texture::internal_format::FormatInfo,
) -> (GLenum, GLenum) {
    use crate::gl::objects::texture::internal_format::{Base, Comp};
    match (info.base, info.comp) {
        (Base::Depth, _) => (GL_DEPTH_COMPONENT, GL_FLOAT),
        (Base::DepthStencil, _) => (GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8),
        (Base::Stencil, _) => (GL_STENCIL_INDEX, GL_UNSIGNED_BYTE),
        (_, Comp::Int) => (GL_RGBA_INTEGER, GL_INT),
        (_, Comp::UInt) => (GL_RGBA_INTEGER, GL_UNSIGNED_INT),
        _ => (GL_RGBA, GL_FLOAT),
    }
}

fn is_integer(f: vk::Format) -> Option<bool> {
    crate::gl::objects::texture::internal_format::texel_format(f).map(|t| t.is_integer())
}

fn is_signed_integer(f: vk::Format) -> bool {
    format!("{f:?}").ends_with("_SINT")
}

impl Context {
    /// `glCopyTexImage1D` (`dims` 1, height 1) and `glCopyTexImage2D`.
    #[allow(clippy::too_many_arguments)]
    pub fn copy_tex_image(
        &mut self,
        dims: u32,
        target: GLenum,
        level: i32,
        internal: GLenum,
        (x, y): (i32, i32),
        (width, height): (i32, i32),
        border: i32,
    ) {
        let r = (|| -> GlResult<()> {
            let call = format!("glCopyTexImage{dims}D");
            let (tt, _) = dest_target(target, dims, &call)?;
            if dims == 1 && height != 1 {
                return invalid_value(format!("{call} height {height}"));
            }
            // glCopyTexImage takes the internal formats glTexImage does except the legacy
            // component counts 1-4; an internal format outside that set is GL_INVALID_ENUM (GL
            // 4.6 compatibility, 8.6), where glTexImage's legacy rule would say
            // GL_INVALID_VALUE.
            if matches!(internal, 1..=4) {
                return invalid_enum(&format!("{call} internal format"), internal);
            }
            crate::gl::objects::texture::internal_format::refuse_texels(internal, &call)?;
            let device = self.device.clone();
            let storage = crate::gl::objects::texture::storage_format(
                &device.lock(),
                internal,
                device.caps().depth_stencil_format,
            )?;
            let read = self.read_source_target(&call)?;
            self.check_copy_source(&read, &storage.info, &call)?;
            let size = [width, height, 1];
            let spec = crate::gl::objects::texture::api::LevelSpec {
                dims,
                target,
                level,
                internal: internal as i32,
                size,
                border,
                blocks: false,
            };
            self.specify_level(spec, carrier_pair(&storage.info), None)?;
            // A 1D array's `height` is its layers: `copy_into_level` copies row by row.
            self.copy_into_level(
                tt,
                target,
                level as u32,
                [0, 0, 0],
                (x, y),
                (width, height),
                &read,
            )
        })();
        if self.record(r).is_some() {
            self.auto_generate_mipmap(target, level);
        }
    }

    /// `glCopyTexSubImage1D/2D/3D`: `offset` in the level's GL axes (unused ones 0).
    pub fn copy_tex_sub_image(
        &mut self,
        dims: u32,
        target: GLenum,
        level: i32,
        offset: [i32; 3],
        (x, y): (i32, i32),
        (width, height): (i32, i32),
    ) {
        let r = (|| -> GlResult<()> {
            let call = format!("glCopyTexSubImage{dims}D");
            let (tt, face) = dest_target(target, dims, &call)?;
            let (_, max_levels) =
                crate::gl::objects::texture::api::limits_of(tt, &self.device.caps().limits);
            if level < 0 || level as u32 >= max_levels {
                return invalid_value(format!("{call} level {level}"));
            }
            let height = if dims == 1 { 1 } else { height };
            if width < 0 || height < 0 {
                return invalid_value(format!("{call} size {width}x{height}"));
            }
            let read = self.read_source_target(&call)?;
            let level = level as u32;
            let t = self.bound_texture(tt)?;
            let Some(s) = t.storage.as_ref() else {
                return invalid_op(format!("{call} on a texture without storage"));
            };
            if !s.face_level_defined(face, level) {
                return invalid_op(format!("{call}: level {level} is not defined"));
            }
            crate::gl::objects::texture::internal_format::refuse_texels(s.internal, &call)?;
            let device = self.device.clone();
            let t = self.bound_texture(tt)?;
            t.decode_native_storage(&device, &call)?;
            let Some(s) = t.storage.as_ref() else {
                return invalid_op(format!("{call} on a texture without storage"));
            };
            let info = s.info;
            let have = s.level_size(level);
            // The box the copy writes: `height` rows, or layers of a 1D array; one slice or layer
            // of a 3D texture or 2D array.
            let extent = [width, height, 1];
            let outside = (0..3)
                .any(|a| offset[a] < 0 || offset[a] as u64 + extent[a] as u64 > u64::from(have[a]));
            if outside {
                return invalid_value(format!(
                    "{call} region {offset:?} {extent:?} outside level {level} ({have:?})"
                ));
            }
            self.check_copy_source(&read, &info, &call)?;
            if width == 0 || height == 0 {
                return Ok(());
            }
            self.copy_into_level(tt, target, level, offset, (x, y), (width, height), &read)
        })();
        if self.record(r).is_some() {
            self.forget_level_blocks(None, target, level);
            self.auto_generate_mipmap(target, level);
        }
    }

    /// The read framebuffer, complete and single-sampled, for the reading command `call`.
    pub(crate) fn read_source_target(&mut self, call: &str) -> GlResult<Target> {
        let fb = self.read_framebuffer;
        let read = self.resolve_framebuffer(fb, false).map_err(|status| {
            GlError::InvalidFramebuffer(format!(
                "{call}: the read framebuffer is not complete (status 0x{status:04X})"
            ))
        })?;
        if read.samples > 1 && fb == 0 {
            return self.resolved_default_read(read);
        }
        if read.samples > 1 {
            return invalid_op(format!("{call} from a multisampled read framebuffer"));
        }
        Ok(read)
    }

    /// A multisampled default read framebuffer as reads see it (GL 4.6 §18.2.1 refuses only
    /// multisampled framebuffer objects): its colour resolved into the surface's single-sampled
    /// image, read from there.
    fn resolved_default_read(&mut self, mut read: Target) -> GlResult<Target> {
        let Some(surface) = self.read_surface.clone() else {
            return Ok(read);
        };
        self.end_pass();
        surface.record_resolve(&mut self.device.lock().manager)?;
        let (image, view) = surface.presented_color();
        for b in read.colors.iter_mut().flatten() {
            *b = Bound {
                image,
                view,
                samples: 1,
                ..*b
            };
        }
        read.samples = 1;
        Ok(read)
    }

    /// GL's checks of the read buffer against the destination's format.
    fn check_copy_source(
        &self,
        read: &Target,
        info: &crate::gl::objects::texture::internal_format::FormatInfo,
        call: &str,
    ) -> GlResult<()> {
        if info.is_depth_stencil() {
            if read.depth_stencil.is_none() {
                return invalid_op(format!("{call} of a depth format with no depth buffer"));
            }
            return Ok(());
        }
        let Some(src) = read.colors.iter().flatten().next() else {
            return invalid_op(format!("{call} with GL_NONE as the read buffer"));
        };
        if is_integer(src.format).unwrap_or(false) != info.comp.is_integer() {
            return invalid_op(format!("{call} between integer and non-integer formats"));
        }
        Ok(())
    }

    /// Copies the `size` rectangle at (x, y) of the read framebuffer into `level` of the
    /// texture bound to `tt`, its first pixel at `offset` (already validated).
    #[allow(clippy::too_many_arguments)]
    fn copy_into_level(
        &mut self,
        tt: TexTarget,
        target: GLenum,
        level: u32,
        offset: [i32; 3],
        (x, y): (i32, i32),
        (width, height): (i32, i32),
        read: &Target,
    ) -> GlResult<()> {
        let Some(c) = clip(
            [x, y],
            [width, height],
            read.gl_size,
            [offset[0], offset[1]],
        ) else {
            return Ok(());
        };
        let (_, face) = TexTarget::from_image(target)
            .ok_or_else(|| GlError::InvalidEnum(format!("target 0x{target:04X}")))?;
        let t = self.bound_texture(tt)?;
        let Some(s) = t.storage.as_ref() else {
            return Ok(());
        };
        let (dst_image, dst_format, info, origin) = (s.image, s.format, s.info, s.origin);
        let src = if info.is_depth_stencil() {
            read.depth_stencil
        } else {
            read.colors.iter().flatten().next().copied()
        };
        let Some(src) = src else {
            return Ok(());
        };
        self.end_pass();
        let device = self.device.clone();
        let features = |f: vk::Format| device.lock().manager.format_features(f);
        let blits = features(src.format).contains(vk::FormatFeatureFlags::BLIT_SRC)
            && features(dst_format).contains(vk::FormatFeatureFlags::BLIT_DST);
        let same_format = src.format == dst_format;
        let signs_agree = is_signed_integer(src.format) == is_signed_integer(dst_format);
        // The layer (cube face, array layer, 3D slice) the rectangle lands in.
        let layer = match tt {
            TexTarget::Cube => face,
            TexTarget::D2Array | TexTarget::D3 | TexTarget::CubeArray => offset[2] as u32,
            _ => 0,
        };
        let one_d = matches!(tt, TexTarget::D1 | TexTarget::D1Array);
        // In the image's levels and layers (a texture view's lie at its origin).
        let (vk_level, vk_layer) = (origin.level + level, origin.layer + layer);
        let same_place = src.image == dst_image && src.level == vk_level && src.layer == vk_layer;
        if info.is_depth_stencil() {
            if same_place {
                warn_unsupported("a depth/stencil copy onto its source");
                return Ok(());
            }
            if !same_format || one_d || (read.is_scaled() && !blits) {
                return self.copy_through_client(tt, face, level, offset, c, &info, dst_image);
            }
        } else if same_place
            || one_d
            || !signs_agree
            || (!same_format && !blits)
            || (read.is_scaled() && !blits)
        {
            return self.copy_through_client(tt, face, level, offset, c, &info, dst_image);
        }
        let aspect = arenagl_memory::format_aspects(dst_format);
        let xs = to_image(read, (c.src[0], c.src[0] + c.size[0] as i32), 0);
        let ys = to_image(read, (c.src[1], c.src[1] + c.size[1] as i32), 1);
        if xs.0 == xs.1 || ys.0 == ys.1 {
            return Ok(());
        }
        let corner = |x: i32, y: i32, z: i32| vk::Offset3D { x, y, z };
        let src_side = arenagl_memory::BlitSide {
            image: src.image,
            mip_level: src.level,
            layer: src.layer,
            corners: [corner(xs.0, ys.0, 0), corner(xs.1, ys.1, 1)],
        };
        let dst_side = arenagl_memory::BlitSide {
            image: dst_image,
            mip_level: vk_level,
            layer: vk_layer,
            corners: [
                corner(c.dst[0], c.dst[1], 0),
                corner(c.dst[0] + c.size[0] as i32, c.dst[1] + c.size[1] as i32, 1),
            ],
        };
        device
            .lock()
            .manager
            .blit_image(src_side, dst_side, aspect, vk::Filter::NEAREST)?;
        Ok(())
    }

    /// The CPU path: the clipped rectangle read like `glReadPixels` (RGBA float or integer),
    /// then uploaded like `glTexSubImage*`.
    #[allow(clippy::too_many_arguments)]
    fn copy_through_client(
        &mut self,
        tt: TexTarget,
        face: u32,
        level: u32,
        offset: [i32; 3],
        c: Clipped,
        info: &crate::gl::objects::texture::internal_format::FormatInfo,
        dst_image: arenagl_memory::ImageHandle,
    ) -> GlResult<()> {
        let (format, ty) = match carrier_pair(info) {
            // Depth/stencil texels are uploaded as depth only (`upload_depth`): the depth is
            // copied, the stencil kept.
            (GL_DEPTH_STENCIL, _) => {
                warn_unsupported("the stencil half of a depth/stencil copy between formats");
                (GL_DEPTH_COMPONENT, GL_FLOAT)
            }
            pair => pair,
        };
        let pixels = c.size[0] as usize * c.size[1] as usize;
        let mut data = vec![0u8; pixels * 16];
        let tight = arenagl_staging::PixelStore {
            alignment: arenagl_staging::PixelAlignment::One,
            ..arenagl_staging::PixelStore::default()
        };
        let saved = std::mem::replace(&mut self.pack, tight);
        let r = self.read_pixels_inner(
            (c.src[0], c.src[1]),
            (c.size[0] as i32, c.size[1] as i32),
            (format, ty),
            &mut data,
        );
        self.pack = saved;
        r?;
        let off = [c.dst[0], c.dst[1], offset[2]];
        let region = crate::gl::objects::texture::api::image_region(
            tt,
            face,
            level,
            off,
            [c.size[0], c.size[1], 1],
        );
        let device = self.device.clone();
        let t = self.bound_texture(tt)?;
        let Some(s) = t.storage.as_ref().filter(|s| s.image == dst_image) else {
            return Ok(());
        };
        let mut locked = device.lock();
        crate::gl::objects::texture::api::upload(
            &mut locked,
            s,
            tt,
            &region,
            &data,
            &tight,
            (format, ty),
        )
    }
}

/// The texture target and face of a `glCopyTex(Sub)Image{dims}D` target (`GL_INVALID_ENUM`
/// for targets of another dimensionality).
fn dest_target(target: GLenum, dims: u32, call: &str) -> GlResult<(TexTarget, u32)> {
    match TexTarget::from_image(target) {
        Some((t, face)) if t.dims() == dims => Ok((t, face)),
        _ => invalid_enum(&format!("{call} target"), target),
    }
}

/// A copy this GL cannot perform yet: logged (first, then every 1000th), nothing written.
fn warn_unsupported(what: &str) {
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    super::warn_now_and_then(&COUNT, format_args!("glCopyTex(Sub)Image: {what}"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping_moves_the_destination_with_the_source() {
        // Inside: unchanged.
        let c = clip([2, 3], [4, 5], (32, 32), [1, 1]).unwrap();
        assert_eq!(
            c,
            Clipped {
                src: [2, 3],
                size: [4, 5],
                dst: [1, 1]
            }
        );
        // Hanging off the bottom-left corner: the first 2 columns and 3 rows are dropped.
        let c = clip([-2, -3], [4, 5], (32, 32), [0, 0]).unwrap();
        assert_eq!(
            c,
            Clipped {
                src: [0, 0],
                size: [2, 2],
                dst: [2, 3]
            }
        );
        // Off the top-right: truncated.
        let c = clip([30, 31], [4, 4], (32, 32), [0, 0]).unwrap();
        assert_eq!(c.size, [2, 1]);
        // Entirely outside.
        assert!(clip([40, 0], [4, 4], (32, 32), [0, 0]).is_none());
    }
}
