//! GL_KHR_blend_equation_advanced at draw time: the advanced equations as blend state, the
//! draw's errors, and the destination a draw with one reads.
//!
//! Design decisions:
//! - The device blends with no advanced equation (lavapipe has no
//!   VK_EXT_blend_operation_advanced), so the program does (`glsl::blend_advanced`): its wrapper
//!   blends the colour its `main` wrote with the destination, read from a copy of draw buffer 0
//!   made before the draw, and the pipeline writes the result with fixed-function blending off
//!   (`vk::pipeline`). The equation reaches the wrapper as a specialization constant, taken
//!   from draw buffer 0's blend state like the rest of the pipeline key.
//! - The copy is the manager's `copy_image` of the attachment's level and layer into an image
//!   of the same format and size that the context keeps for the next draw ([`BlendDst`]; a
//!   draw into another format or size replaces it). Copying ends the render pass; the draw
//!   begins another with load operations.
//! - Every draw with an advanced equation copies, so a draw sees what every earlier command
//!   left (GL asks that only of draws after `glBlendBarrierKHR`; the barrier has nothing left
//!   to do). Within one draw, overlapping primitives read the destination as it was before the
//!   draw: the non-coherent behaviour, so `GL_KHR_blend_equation_advanced_coherent` is not
//!   offered.
//! - A multisampled draw buffer is copied into a multisampled image, which the wrapper reads
//!   per sample; so the extension needs the device's `sampleRateShading` and is offered only
//!   with it ([`offered`]).
//! - Errors are the extension's (a program without the equation's `blend_support`, a second
//!   draw buffer, `GL_FRONT_AND_BACK`), all `GL_INVALID_OPERATION`.

use arenagl_memory::{CopySide, ImageHandle, ViewHandle};
use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_op, GlResult};
use crate::gl::context::state::Blend;
use crate::gl::context::Context;
use crate::gl::objects::framebuffer::Target;
use crate::gl::objects::program::Linked;
use crate::gl::vk::device::Locked;
use crate::glsl::blend_advanced::{equation_bit, equation_index};

/// The name the context offers the extension under.
pub(crate) const EXTENSION: &str = "GL_KHR_blend_equation_advanced";

/// The extension where `device` can offer it: the wrapper reads multisampled destinations at
/// `gl_SampleID`, which needs `sampleRateShading`.
pub(crate) fn offered(device: &crate::gl::vk::device::Device) -> Option<&'static str> {
    device.caps().gl4.sample_rate_shading.then_some(EXTENSION)
}

/// The copy of the destination an advanced-blending draw reads.
#[derive(Debug, Default)]
pub(crate) struct BlendDst {
    /// The image, its view, and its shape, kept from draw to draw.
    copy: Option<(ImageHandle, ViewHandle, CopyShape)>,
    /// The draw being made reads the copy (else the sampler reads a stand-in).
    in_use: bool,
}

/// What the copy image must match: format, width, height, samples.
type CopyShape = (vk::Format, u32, u32, u32);

/// The specialization constant of a pipeline with blend state `blend` whose draw buffer 0 has
/// format `format`: the 1-based advanced equation, or 0 when draw buffer 0 does not blend with
/// one (blending off, an integer or absent buffer, another equation).
pub(crate) fn advanced_equation(blend: &Blend, format: Option<vk::Format>) -> u32 {
    let blends = blend.enabled & 1 != 0
        && format.is_some_and(|f| {
            f != vk::Format::UNDEFINED
                && !crate::gl::objects::texture::internal_format::is_integer_format(f)
        });
    if !blends {
        return 0;
    }
    equation_index(blend.funcs[0].eq_rgb).unwrap_or(0)
}

impl Context {
    /// `glBlendEquation`: every draw buffer's equation, an advanced one included.
    pub fn blend_equation(&mut self, mode: GLenum) {
        let r = self.set_blend_mode(None, mode);
        self.record(r);
    }

    /// `glBlendEquationi`: draw buffer `buf`'s equation, an advanced one included.
    pub fn blend_equation_indexed(&mut self, buf: u32, mode: GLenum) {
        let r = Self::draw_buffer_index(buf).and_then(|i| self.set_blend_mode(Some(i), mode));
        self.record(r);
    }

    /// `glBlendBarrierKHR` (`glBlendBarrier` in OpenGL ES 3.2): nothing left to do, since every
    /// advanced-blending draw reads a copy made after every earlier command.
    pub fn blend_barrier(&mut self) {}

    /// Sets one equation for RGB and alpha: an advanced one (only through `glBlendEquation[i]`,
    /// where the extension is offered), or any `glBlendEquationSeparate` takes.
    fn set_blend_mode(&mut self, index: Option<usize>, mode: GLenum) -> GlResult<()> {
        if equation_index(mode).is_none() || !self.offers(EXTENSION) {
            return self.set_blend_equation(index, mode, mode);
        }
        for (i, b) in self.pipeline_state.blend.funcs.iter_mut().enumerate() {
            if index.is_none_or(|n| n == i) {
                (b.eq_rgb, b.eq_alpha) = (mode, mode);
            }
        }
        Ok(())
    }

    /// The advanced equation some draw buffer blends with, if any.
    fn advanced_mode_in_use(&self) -> Option<GLenum> {
        let b = &self.pipeline_state.blend;
        (b.funcs.iter().enumerate())
            .find(|(i, f)| b.enabled & (1 << i) != 0 && equation_index(f.eq_rgb).is_some())
            .map(|(_, f)| f.eq_rgb)
    }

    /// The draw's errors under an advanced equation (GL_KHR_blend_equation_advanced, "Errors"):
    /// a draw buffer other than the first, or a first that selects several buffers, or a
    /// program that did not declare the equation.
    pub(super) fn check_advanced_blend(&self, linked: &Linked) -> GlResult<()> {
        let Some(mode) = self.advanced_mode_in_use() else {
            return Ok(());
        };
        if self.draw_framebuffer == 0 && self.default_draw_buffer == GL_FRONT_AND_BACK {
            return invalid_op("advanced blending into GL_FRONT_AND_BACK");
        }
        if let Some(fb) = self.framebuffers.get(self.draw_framebuffer) {
            if fb.draw_buffers.iter().skip(1).any(|&b| b != GL_NONE) {
                return invalid_op("advanced blending with more than one draw buffer");
            }
        }
        let mode0 = equation_index(self.pipeline_state.blend.funcs[0].eq_rgb)
            .map_or(mode, |_| self.pipeline_state.blend.funcs[0].eq_rgb);
        if linked.blend_support & equation_bit(mode0) == 0 {
            return invalid_op(format!(
                "blend equation 0x{mode0:04X} without a fragment shader declaring its blend_support"
            ));
        }
        Ok(())
    }

    /// Before the draw's resources: the copy of draw buffer 0 the draw reads when it blends
    /// with an advanced equation.
    pub(super) fn copy_blend_destination(&mut self, target: &Target) -> GlResult<()> {
        self.encoder.blend_dst.in_use = false;
        let src = target.colors.first().copied().flatten();
        let equation = advanced_equation(&self.pipeline_state.blend, src.map(|b| b.format));
        let Some(src) = src.filter(|_| equation != 0) else {
            return Ok(());
        };
        self.end_pass();
        let (w, h) = (target.width.max(1), target.height.max(1));
        let device = self.device.clone();
        let mut locked = device.lock();
        let shape = (src.format, w, h, src.samples.max(1));
        let image = self.blend_dst_image(&mut locked, shape)?;
        let from = CopySide {
            image: src.image,
            mip_level: src.level,
            offset: [0, 0, src.layer],
        };
        let to = CopySide {
            image,
            mip_level: 0,
            offset: [0; 3],
        };
        locked.manager.copy_image(from, to, [w, h, 1])?;
        let read = (
            vk::PipelineStageFlags::FRAGMENT_SHADER,
            vk::AccessFlags::SHADER_READ,
        );
        locked
            .manager
            .transition_image(image, vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL, read)?;
        self.encoder.blend_dst.in_use = true;
        Ok(())
    }

    /// The kept copy image of `shape`, made (and the old one retired) on a change.
    fn blend_dst_image(&mut self, locked: &mut Locked, shape: CopyShape) -> GlResult<ImageHandle> {
        let kept = &mut self.encoder.blend_dst.copy;
        if let Some((image, _, kept_shape)) = *kept {
            if kept_shape == shape && locked.manager.image_layout(image).is_ok() {
                return Ok(image);
            }
            let _ = locked.manager.retire_image(image);
            *kept = None;
        }
        let (format, w, h, samples) = shape;
        let mut desc = arenagl_memory::ImageDesc::new_2d(
            format,
            w,
            h,
            1,
            vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST,
            arenagl_memory::Category::Texture,
        )
        .named("GL advanced blending destination");
        desc.samples = vk::SampleCountFlags::from_raw(samples);
        let (image, view) =
            locked.image_with_view(&desc, &arenagl_memory::ViewDesc::color_2d(1))?;
        *kept = Some((image, view, shape));
        Ok(image)
    }

    /// The descriptor of one of the wrapper's destination samplers (`multisampled`: the
    /// `sampler2DMS` one): the copy for a draw that made one of its kind, else the stand-in
    /// `dummy`, in `SHADER_READ_ONLY_OPTIMAL`.
    pub(super) fn blend_dst_descriptor(
        &self,
        locked: &mut Locked,
        dummy: (ImageHandle, ViewHandle),
        multisampled: bool,
    ) -> GlResult<vk::DescriptorImageInfo> {
        let dst = &self.encoder.blend_dst;
        let (image, view) = match dst.copy {
            Some((image, view, (.., samples))) if dst.in_use && (samples > 1) == multisampled => {
                (image, view)
            }
            _ => dummy,
        };
        let layout = vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL;
        if locked.manager.image_layout(image)? != layout {
            let scope = (
                self.device.caps().shader_stages(),
                vk::AccessFlags::SHADER_READ,
            );
            locked.manager.transition_image(image, layout, scope)?;
        }
        let sampler = locked.sampler(&arenagl_memory::SamplerDesc::default())?;
        Ok(vk::DescriptorImageInfo {
            sampler: locked.manager.use_sampler(sampler)?.raw(),
            image_view: locked.manager.use_view(view)?.raw(),
            image_layout: layout,
        })
    }

    /// Retires the kept copy (the context is going).
    pub(crate) fn release_blend_destination(&mut self, locked: &mut Locked) {
        if let Some((image, ..)) = self.encoder.blend_dst.copy.take() {
            let _ = locked.manager.retire_image(image);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gl::context::state::BlendFunc;

    #[test]
    fn the_constant_is_draw_buffer_zeros_advanced_equation() {
        let mut blend = Blend::INITIAL;
        blend.funcs[0] = BlendFunc {
            eq_rgb: 0x9294,
            eq_alpha: 0x9294,
            ..BlendFunc::INITIAL
        };
        let rgba8 = Some(vk::Format::R8G8B8A8_UNORM);
        assert_eq!(advanced_equation(&blend, rgba8), 0, "blending off");
        blend.enabled = 1;
        assert_eq!(advanced_equation(&blend, rgba8), 1);
        assert_eq!(
            advanced_equation(&blend, Some(vk::Format::R8G8B8A8_UINT)),
            0
        );
        assert_eq!(advanced_equation(&blend, None), 0);
        blend.funcs[0].eq_rgb = GL_FUNC_ADD;
        assert_eq!(advanced_equation(&blend, rgba8), 0);
    }
}
