//! Multisample textures (GL_ARB_texture_multisample, core in GL 3.2): `glTexImage2DMultisample`,
//! `glTexStorage2DMultisample` and their 2D-array forms, the sample-count limits, and
//! `glGetMultisamplefv(GL_SAMPLE_POSITION)`.
//!
//! Design decisions:
//! - A multisample texture is one multisampled Vulkan image (one level; layers for the array
//!   target) made like a texture's (`texture::image_desc_for`) with the sample count a
//!   renderbuffer request would get (`framebuffer::pick_samples`), so a texture and a
//!   renderbuffer asked for the same count agree, as framebuffer completeness requires.
//!   Shaders read it with `texelFetch(sampler2DMS, p, sample)`: its sampling view is an
//!   ordinary view of the image. Resolves reuse the renderbuffer path (`blit`).
//! - The formats are those a renderbuffer takes (colour-, depth- or stencil-renderable;
//!   `framebuffer::renderbuffer_format`); the limits are what the device can both render and
//!   sample with each kind (`GL_MAX_COLOR_TEXTURE_SAMPLES`, `GL_MAX_DEPTH_TEXTURE_SAMPLES`,
//!   `GL_MAX_INTEGER_SAMPLES`).
//! - The proxy targets (`GL_PROXY_TEXTURE_2D_MULTISAMPLE(_ARRAY)`) run the same checks and
//!   make nothing: what would not fit (samples above the limit, sizes beyond the device's)
//!   zeroes the proxy's level state instead of raising an error, as GL (and Mesa) do, and
//!   `glGetTexLevelParameter` answers from that state.
//! - Sample positions are Vulkan's standard locations. Images keep GL's orientation (row 0 at
//!   the bottom), so Vulkan's offsets from a pixel's first row are GL's offsets upwards.

use std::collections::HashMap;

use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlError};
use crate::gl::context::Context;
use crate::gl::objects::framebuffer::highest;
use crate::gl::objects::texture::target::TexTarget;
use crate::gl::objects::texture::{full_view, image_desc_for, TexImage};
use crate::gl::vk::device::Device;

/// `GL_SAMPLE_POSITION`.
const GL_SAMPLE_POSITION: GLenum = 0x8E50;
const GL_PROXY_TEXTURE_2D_MULTISAMPLE: GLenum = 0x9101;
const GL_PROXY_TEXTURE_2D_MULTISAMPLE_ARRAY: GLenum = 0x9103;

/// What a proxy multisample target's level 0 holds after a `glTexImage*Multisample` on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ProxyLevel {
    size: [u32; 3],
    internal: GLenum,
    samples: u32,
    fixed_locations: bool,
}

/// The proxy slot of a proxy multisample target.
pub(crate) fn proxy_index(target: GLenum) -> Option<usize> {
    match target {
        GL_PROXY_TEXTURE_2D_MULTISAMPLE => Some(0),
        GL_PROXY_TEXTURE_2D_MULTISAMPLE_ARRAY => Some(1),
        _ => None,
    }
}

impl ProxyLevel {
    /// `glGetTexLevelParameteriv` of a proxy target's level 0 (`None`: unknown pname). An
    /// unset or failed proxy answers zeros (and `GL_TEXTURE_INTERNAL_FORMAT` GL_RGBA).
    pub(crate) fn query(proxy: Option<&Self>, pname: GLenum) -> Option<i32> {
        let size = proxy.map_or([0; 3], |p| p.size);
        Some(match pname {
            GL_TEXTURE_WIDTH => size[0] as i32,
            GL_TEXTURE_HEIGHT => size[1] as i32,
            GL_TEXTURE_DEPTH => size[2] as i32,
            GL_TEXTURE_INTERNAL_FORMAT => proxy.map_or(GL_RGBA, |p| p.internal) as i32,
            GL_TEXTURE_SAMPLES => proxy.map_or(0, |p| p.samples) as i32,
            GL_TEXTURE_FIXED_SAMPLE_LOCATIONS => i32::from(proxy.is_none_or(|p| p.fixed_locations)),
            _ => return None,
        })
    }
}

/// `GL_MAX_COLOR_TEXTURE_SAMPLES`: rendered and sampled as colour.
pub(crate) fn max_color_texture_samples(device: &Device) -> u32 {
    let l = &device.caps().limits;
    highest(l.framebuffer_color_sample_counts & l.sampled_image_color_sample_counts)
}

/// `GL_MAX_DEPTH_TEXTURE_SAMPLES`: rendered and sampled as depth (and stencil).
pub(crate) fn max_depth_texture_samples(device: &Device) -> u32 {
    let l = &device.caps().limits;
    highest(
        l.framebuffer_depth_sample_counts
            & l.framebuffer_stencil_sample_counts
            & l.sampled_image_depth_sample_counts,
    )
}

/// Vulkan's standard sample locations for `samples` per pixel (`None`: no such count).
fn standard_positions(samples: u32) -> Option<&'static [(f32, f32)]> {
    Some(match samples {
        1 => &[(0.5, 0.5)],
        2 => &[(0.75, 0.75), (0.25, 0.25)],
        4 => &[
            (0.375, 0.125),
            (0.875, 0.375),
            (0.125, 0.625),
            (0.625, 0.875),
        ],
        8 => &[
            (0.5625, 0.3125),
            (0.4375, 0.6875),
            (0.8125, 0.5625),
            (0.3125, 0.1875),
            (0.1875, 0.8125),
            (0.0625, 0.4375),
            (0.6875, 0.9375),
            (0.9375, 0.0625),
        ],
        16 => &[
            (0.5625, 0.5625),
            (0.4375, 0.3125),
            (0.3125, 0.625),
            (0.75, 0.4375),
            (0.1875, 0.375),
            (0.625, 0.8125),
            (0.8125, 0.6875),
            (0.6875, 0.1875),
            (0.375, 0.875),
            (0.5, 0.0625),
            (0.25, 0.125),
            (0.125, 0.75),
            (0.0, 0.5),
            (0.9375, 0.25),
            (0.875, 0.9375),
            (0.0625, 0.0),
        ],
        _ => return None,
    })
}

impl Context {
    /// `glTexImage2DMultisample` (`dims` 2), `glTexImage3DMultisample` (3) and, with
    /// `immutable`, `glTexStorage2DMultisample` / `glTexStorage3DMultisample`.
    #[allow(clippy::too_many_arguments)]
    pub fn tex_image_multisample(
        &mut self,
        dims: u32,
        target: GLenum,
        samples: i32,
        internal: GLenum,
        size: [i32; 3],
        fixed_locations: bool,
        immutable: bool,
    ) {
        let r = (|| {
            let device = self.device.clone();
            let (tt, proxy) = match (dims, target) {
                (2, GL_TEXTURE_2D_MULTISAMPLE) => (TexTarget::D2Multisample, None),
                (3, GL_TEXTURE_2D_MULTISAMPLE_ARRAY) => (TexTarget::D2MultisampleArray, None),
                (2, GL_PROXY_TEXTURE_2D_MULTISAMPLE) => (TexTarget::D2Multisample, Some(0)),
                (3, GL_PROXY_TEXTURE_2D_MULTISAMPLE_ARRAY) => {
                    (TexTarget::D2MultisampleArray, Some(1))
                }
                _ => return invalid_enum("multisample texture target", target),
            };
            // GL 4.6 §8.8: the format must be colour-, depth- or stencil-renderable.
            let Some(format) =
                crate::gl::objects::framebuffer::renderbuffer_format(&device, internal, false)
            else {
                return invalid_enum("multisample texture internal format", internal);
            };
            let Some(info) = crate::gl::objects::texture::internal_format::lookup(internal) else {
                return invalid_enum("multisample texture internal format", internal);
            };
            if immutable && !crate::gl::objects::texture::api::is_sized(internal) {
                return invalid_enum("glTexStorage*Multisample needs a sized format", internal);
            }
            if samples < 1 {
                return invalid_value(format!("{samples} samples"));
            }
            let depth = crate::gl::objects::texture::internal_format::is_depth_format(format);
            let integer = crate::gl::objects::texture::sampled_kind(format)
                != crate::glsl::SampledKind::Float;
            let max = if depth {
                max_depth_texture_samples(&device)
            } else if integer {
                crate::gl::objects::framebuffer::max_integer_samples(&device)
            } else {
                max_color_texture_samples(&device)
            };
            let l = device.caps().limits;
            let [w, h, layers] = size;
            let layers = if dims == 3 { layers } else { 1 };
            let least = i32::from(immutable);
            let max_2d = l.max_image_dimension2_d as i32;
            let too_many = samples as u32 > max;
            let bad_size = w < least
                || h < least
                || layers < least
                || w > max_2d
                || h > max_2d
                || layers > l.max_image_array_layers as i32;
            let count = crate::gl::objects::framebuffer::pick_samples(&device, samples as u32);
            if let Some(slot) = proxy {
                // What would not fit is the proxy's answer, not an error (negative sizes apart).
                if w < 0 || h < 0 || layers < 0 {
                    return invalid_value(format!("multisample texture size {w}x{h}x{layers}"));
                }
                self.proxy_multisample[slot] = match count {
                    Some(count) if !too_many && !bad_size => Some(ProxyLevel {
                        size: [w as u32, h as u32, layers as u32],
                        internal,
                        samples: count,
                        fixed_locations,
                    }),
                    _ => None,
                };
                return Ok(());
            }
            if too_many {
                return invalid_op(format!(
                    "{samples} samples of format 0x{internal:04X} (the limit is {max})"
                ));
            }
            if bad_size {
                return invalid_value(format!("multisample texture size {w}x{h}x{layers}"));
            }
            let count =
                count.ok_or_else(|| GlError::InvalidOperation(format!("{samples} samples")))?;
            let bound = self.bound_texture_name(tt);
            if immutable && bound == 0 {
                return invalid_op("glTexStorage*Multisample on the default texture");
            }
            let t = self.bound_texture(tt)?;
            if t.storage.as_ref().is_some_and(|s| s.immutable) {
                return invalid_op("the texture's storage is immutable (glTexStorage)");
            }
            let mut locked = device.lock();
            if let Some(old) = t.storage.take() {
                old.release(&mut locked.manager);
            }
            if w == 0 || h == 0 || layers == 0 {
                return Ok(());
            }
            let gl_size = [w as u32, h as u32, layers as u32];
            let mut desc =
                image_desc_for(tt, format, gl_size, 1, true).named("GL multisample texture");
            desc.samples = vk::SampleCountFlags::from_raw(count);
            desc.flags |= crate::gl::objects::texture::api::view_flags(
                tt, internal, format, gl_size, immutable,
            );
            let swizzle = info.swizzle(format);
            let view = full_view(tt, 1, desc.array_layers, format, swizzle);
            let (image, view) = locked.image_with_view(&desc, &view)?;
            let mut s = TexImage {
                image,
                shared: crate::gl::objects::texture::storage::ImageRef::new(image),
                origin: crate::gl::objects::texture::storage::Origin::default(),
                immutable_levels: u32::from(immutable),
                view,
                format,
                internal,
                info,
                format_swizzle: swizzle,
                target: tt,
                size: gl_size,
                levels: 1,
                defined: [0; 6],
                immutable,
                level_views: HashMap::new(),
                swizzle_views: HashMap::new(),
                demotion: None,
                samples: count,
                fixed_locations,
            };
            s.define(0, 0);
            t.storage = Some(s);
            Ok(())
        })();
        self.record(r);
    }

    /// `glGetMultisamplefv`: the position of sample `index` of the draw framebuffer's pixels.
    pub fn get_multisample_fv(&mut self, pname: GLenum, index: u32) -> [f32; 2] {
        let r = (|| {
            if pname != GL_SAMPLE_POSITION {
                return invalid_enum("glGetMultisamplefv pname", pname);
            }
            let samples = self.draw_framebuffer_samples().max(1);
            let positions = standard_positions(samples).unwrap_or(&[(0.5, 0.5)]);
            match positions.get(index as usize) {
                Some(&(x, y)) => Ok([x, y]),
                _ => invalid_value(format!(
                    "sample {index} of a framebuffer with {samples} samples"
                )),
            }
        })();
        self.record(r).unwrap_or([0.0; 2])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_positions_lie_inside_the_pixel_and_differ() {
        for n in [1, 2, 4, 8, 16] {
            let p = standard_positions(n).unwrap_or(&[]);
            assert_eq!(p.len(), n as usize);
            for (i, a) in p.iter().enumerate() {
                assert!((0.0..1.0).contains(&a.0) && (0.0..1.0).contains(&a.1));
                assert!(p[..i].iter().all(|b| b != a), "{n} samples repeat {a:?}");
            }
        }
        assert!(standard_positions(3).is_none());
        assert_eq!(
            highest(vk::SampleCountFlags::TYPE_1 | vk::SampleCountFlags::TYPE_4),
            4
        );
    }
}
