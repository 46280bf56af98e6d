//! `glGenerateMipmap` on the CPU, for colour formats the device can neither blit with linear
//! filtering nor render to (`GL_RGB9_E5` stored as `E5B9G9R9_UFLOAT_PACK32` on lavapipe and
//! most GPUs), and for targets the drawing fallback does not draw (cube maps, arrays, 3D).
//!
//! Design decisions:
//! - The base level is read back once through the manager (`read_image`, the path
//!   `glGetTexImage` takes), decoded by staging's texel codec into `f64` RGBA, and each level
//!   is box-filtered from the one before in memory: one readback, one upload per level.
//! - The filter is the drawing fallback's: the 2×2 texels under each destination texel
//!   (2×2×2 for 3D), clamped at odd edges. Layers and cube faces are filtered separately.
//! - Rare and slow by nature (a readback waits for the GPU); the drawing and blit paths stay
//!   the ones taken wherever they work. Depth formats are not handled here: they are rendered
//!   or blitted, and a depth format that can be neither is `GL_INVALID_OPERATION`.

use arenagl_memory::{ImageHandle, ImageRegion};
use arenagl_staging::{ClientFormat, PixelStore, TexelFormat};
use ash::vk;

use crate::gl::context::error::{GlError, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::texture::storage::Origin;
use crate::gl::objects::texture::target::TexTarget;

/// One level's texels as RGBA: `slices` images (layers, faces or 3D slices) of `w × h`.
struct Level {
    w: usize,
    h: usize,
    slices: usize,
    texels: Vec<[f64; 4]>,
}

impl Level {
    fn at(&self, x: usize, y: usize, s: usize) -> [f64; 4] {
        let (x, y, s) = (x.min(self.w - 1), y.min(self.h - 1), s.min(self.slices - 1));
        self.texels[(s * self.h + y) * self.w + x]
    }

    /// The next level down: halved in x and y, and across slices when `volume` (3D).
    fn halved(&self, volume: bool) -> Level {
        let (w, h) = ((self.w / 2).max(1), (self.h / 2).max(1));
        let slices = if volume {
            (self.slices / 2).max(1)
        } else {
            self.slices
        };
        let depth_taps: &[usize] = if volume { &[0, 1] } else { &[0] };
        let mut texels = Vec::with_capacity(w * h * slices);
        for s in 0..slices {
            let src_s = if volume { s * 2 } else { s };
            for y in 0..h {
                for x in 0..w {
                    let mut sum = [0.0; 4];
                    let mut n = 0.0;
                    for &dz in depth_taps {
                        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                            let v = self.at(x * 2 + dx, y * 2 + dy, src_s + dz);
                            for (acc, c) in sum.iter_mut().zip(v) {
                                *acc += c;
                            }
                            n += 1.0;
                        }
                    }
                    texels.push(sum.map(|c| c / n));
                }
            }
        }
        Level {
            w,
            h,
            slices,
            texels,
        }
    }
}

/// The whole of `level` (every layer or face) of a texture of `target` whose level has GL size
/// `size` and whose levels and layers start at `origin` in its image (texture views).
fn whole_level(target: TexTarget, origin: Origin, level: u32, size: [u32; 3]) -> ImageRegion {
    let (extent, layers) = target.vk_extent(size);
    let mut r = ImageRegion::rect(origin.level + level, 0, 0, extent.width, extent.height);
    r.base_layer = origin.layer;
    r.extent.depth = extent.depth;
    r.layer_count = layers;
    r
}

impl Context {
    /// Levels `base + 1 ..= last` of `image` (`format`, `target`, level-0 GL size `size`, the
    /// texture's levels and layers at `origin` in the image),
    /// each box-filtered from the one before on the CPU.
    pub(crate) fn generate_mipmaps_on_cpu(
        &mut self,
        (image, format, target, origin): (ImageHandle, vk::Format, TexTarget, Origin),
        size_of: impl Fn(u32) -> [u32; 3],
        base: u32,
        last: u32,
    ) -> GlResult<()> {
        let texel = crate::gl::objects::texture::internal_format::texel_format(format).ok_or_else(
            || {
                GlError::InvalidOperation(format!(
                    "glGenerateMipmap: {format:?} can be neither blitted, rendered nor converted"
                ))
            },
        )?;
        let bytes = texel.texel_bytes() as usize;
        let tight = PixelStore {
            alignment: arenagl_staging::PixelAlignment::One,
            ..PixelStore::default()
        };
        let device = self.device.clone();
        let mut locked = device.lock();
        let region = whole_level(target, origin, base, size_of(base));
        let (w, h) = (region.extent.width as usize, region.extent.height as usize);
        let slices = (region.extent.depth * region.layer_count) as usize;
        let mut raw = vec![0u8; w * h * slices * bytes];
        let client = crate::gl::pixel::get_tex_image::raw_client(format, texel);
        crate::gl::context::error::until_done(|| {
            locked
                .manager
                .read_image(image, &region, &tight, client, &mut raw)
        })?;
        locked.collect(device.raw());
        let mut level = Level {
            w,
            h,
            slices,
            texels: raw.chunks_exact(bytes).map(|t| texel.decode(t)).collect(),
        };
        for l in base + 1..=last {
            level = level.halved(target == TexTarget::D3);
            let region = whole_level(target, origin, l, size_of(l));
            let out = encode(texel, &level.texels, bytes);
            locked.manager.upload_image(
                image,
                &region,
                &out,
                &tight,
                ClientFormat::Texels(bytes as u8),
            )?;
        }
        Ok(())
    }
}

fn encode(texel: TexelFormat, texels: &[[f64; 4]], bytes: usize) -> Vec<u8> {
    let mut out = vec![0u8; texels.len() * bytes];
    for (v, dst) in texels.iter().zip(out.chunks_exact_mut(bytes)) {
        texel.encode(*v, dst);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(w: usize, h: usize, slices: usize, values: &[f64]) -> Level {
        Level {
            w,
            h,
            slices,
            texels: values.iter().map(|&v| [v, v, v, 1.0]).collect(),
        }
    }

    #[test]
    fn each_texel_averages_the_two_by_two_above_it() {
        let l = level(2, 2, 1, &[0.0, 1.0, 2.0, 3.0]).halved(false);
        assert_eq!((l.w, l.h, l.slices), (1, 1, 1));
        assert_eq!(l.texels, vec![[1.5, 1.5, 1.5, 1.0]]);
    }

    #[test]
    fn odd_edges_clamp_and_layers_stay_apart() {
        // 3×1, two layers: the last texel of each row pairs with itself.
        let l = level(3, 1, 2, &[0.0, 2.0, 4.0, 10.0, 20.0, 30.0]).halved(false);
        assert_eq!((l.w, l.h, l.slices), (1, 1, 2));
        assert_eq!(l.texels[0][0], 1.0);
        assert_eq!(l.texels[1][0], 15.0);
    }

    #[test]
    fn volumes_halve_across_slices() {
        let l = level(1, 1, 2, &[2.0, 4.0]).halved(true);
        assert_eq!(l.slices, 1);
        assert_eq!(l.texels[0][0], 3.0);
    }
}
