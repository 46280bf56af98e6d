//! The shader-resource limits a context reports: texture units and uniform blocks per stage and
//! combined, and the GL version each set of them is enough for.
//!
//! Design decisions:
//! - Texture units and uniform blocks are not Vulkan objects of their own: at link every sampler
//!   uniform and every named uniform block becomes one binding of the program's descriptor set 0,
//!   filled at draw from the unit or binding point it names (`draw::descriptors`). So what a
//!   program may use is what one descriptor set may hold, per stage and in all: the figures are
//!   ArenaGL's own (GL 4.3's minimums, six stages with compute) lowered to the device's
//!   `maxPerStageDescriptor*` / `maxDescriptorSet*` limits.
//! - A stage's default uniform block is one more uniform buffer (set 1, dynamic) in every stage
//!   that has loose uniforms, so a stage's block limit keeps one of the device's per-stage
//!   uniform buffers for it.
//! - The GL 4.0 minimums (16 units and 12 blocks per stage, 80 units and 60 blocks combined) are
//!   part of the version rule (`version`): a device that cannot hold them reports GL 3.3.

use ash::vk;

use crate::gl::context::Context;

/// Texture units a stage may use, at most (`GL_MAX_*_TEXTURE_IMAGE_UNITS`).
const STAGE_TEXTURE_UNITS: u32 = 16;
/// Uniform blocks a stage may use, at most (`GL_MAX_*_UNIFORM_BLOCKS`).
const STAGE_UNIFORM_BLOCKS: u32 = 12;
/// Shader stages one program may hold (vertex, two tessellation, geometry, fragment; compute
/// alone), which the combined figures are counted over (GL 4.3's tables).
const STAGES: u32 = 6;
/// `GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS` at most, and the texture units a context has.
pub const MAX_COMBINED_TEXTURE_UNITS: u32 = STAGE_TEXTURE_UNITS * STAGES;
/// `GL_MAX_COMBINED_UNIFORM_BLOCKS` at most.
const MAX_COMBINED_UNIFORM_BLOCKS: u32 = STAGE_UNIFORM_BLOCKS * STAGES;
/// Uniform-buffer binding points (`GL_MAX_UNIFORM_BUFFER_BINDINGS`, GL 4.3's minimum).
pub const MAX_UNIFORM_BUFFER_BINDINGS: usize = 84;

/// The shader-resource limits of a device, as `glGet` answers them and link enforces them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ShaderLimits {
    /// `GL_MAX_{VERTEX,TESS_*,GEOMETRY,COMPUTE}_TEXTURE_IMAGE_UNITS`, `GL_MAX_TEXTURE_IMAGE_UNITS`.
    pub stage_texture_units: u32,
    /// `GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS`.
    pub combined_texture_units: u32,
    /// `GL_MAX_{VERTEX,TESS_*,GEOMETRY,FRAGMENT,COMPUTE}_UNIFORM_BLOCKS`.
    pub stage_uniform_blocks: u32,
    /// `GL_MAX_COMBINED_UNIFORM_BLOCKS`.
    pub combined_uniform_blocks: u32,
}

impl ShaderLimits {
    /// The limits a device with Vulkan limits `l` can hold in one descriptor set.
    pub(crate) fn of(l: &vk::PhysicalDeviceLimits) -> Self {
        // A combined image sampler is a sampler and a sampled image; a texel buffer (a buffer
        // texture's unit) is a sampled image.
        let stage_images = l
            .max_per_stage_descriptor_samplers
            .min(l.max_per_stage_descriptor_sampled_images);
        let set_images = l
            .max_descriptor_set_samplers
            .min(l.max_descriptor_set_sampled_images);
        Self {
            stage_texture_units: STAGE_TEXTURE_UNITS.min(stage_images),
            combined_texture_units: MAX_COMBINED_TEXTURE_UNITS.min(set_images),
            stage_uniform_blocks: STAGE_UNIFORM_BLOCKS
                .min(l.max_per_stage_descriptor_uniform_buffers.saturating_sub(1)),
            combined_uniform_blocks: MAX_COMBINED_UNIFORM_BLOCKS
                .min(l.max_descriptor_set_uniform_buffers),
        }
    }

    /// Whether these reach GL 4.0's minimums (OpenGL 4.0 specification, table 6.50 ff.).
    pub(crate) fn reach_gl_4_0(&self) -> bool {
        self.stage_texture_units >= 16
            && self.combined_texture_units >= 80
            && self.stage_uniform_blocks >= 12
            && self.combined_uniform_blocks >= 60
    }
}

impl Context {
    /// This context's shader-resource limits (its device's).
    pub(crate) fn shader_limits(&self) -> ShaderLimits {
        ShaderLimits::of(&self.device.caps().limits)
    }

    /// `GL_MAX_VERTEX_ATTRIBS`: the device's vertex input attributes and bindings (a draw binds
    /// one per Vulkan location), at most the slots a vertex array holds.
    pub(crate) fn max_vertex_attribs(&self) -> u32 {
        vertex_attrib_limit(&self.device.caps().limits)
    }
}

/// [`Context::max_vertex_attribs`] of a device with `l`.
pub(crate) fn vertex_attrib_limit(l: &vk::PhysicalDeviceLimits) -> u32 {
    l.max_vertex_input_attributes
        .min(l.max_vertex_input_bindings)
        .min(crate::gl::objects::vertex_array::MAX_VERTEX_ATTRIBS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(per_stage: u32, per_set: u32) -> vk::PhysicalDeviceLimits {
        vk::PhysicalDeviceLimits {
            max_per_stage_descriptor_samplers: per_stage,
            max_per_stage_descriptor_sampled_images: per_stage,
            max_per_stage_descriptor_uniform_buffers: per_stage,
            max_descriptor_set_samplers: per_set,
            max_descriptor_set_sampled_images: per_set,
            max_descriptor_set_uniform_buffers: per_set,
            ..Default::default()
        }
    }

    #[test]
    fn vertex_attributes_are_the_device_inputs_up_to_32() {
        let inputs = |attributes, bindings| vk::PhysicalDeviceLimits {
            max_vertex_input_attributes: attributes,
            max_vertex_input_bindings: bindings,
            ..Default::default()
        };
        assert_eq!(vertex_attrib_limit(&inputs(32, 32)), 32);
        assert_eq!(vertex_attrib_limit(&inputs(64, 64)), 32);
        // Vulkan's minimums; a draw takes a binding per location, so the fewer counts.
        assert_eq!(vertex_attrib_limit(&inputs(16, 16)), 16);
        assert_eq!(vertex_attrib_limit(&inputs(32, 16)), 16);
    }

    #[test]
    fn a_large_device_gets_the_full_figures() {
        let s = ShaderLimits::of(&limits(1 << 20, 1 << 20));
        assert_eq!(s.stage_texture_units, 16);
        assert_eq!(s.combined_texture_units, 96);
        assert_eq!(s.stage_uniform_blocks, 12);
        assert_eq!(s.combined_uniform_blocks, 72);
        assert!(s.reach_gl_4_0());
    }

    #[test]
    fn vulkan_minimums_keep_a_uniform_buffer_for_the_default_block() {
        // Vulkan 1.0's required minimums: 16 samplers, 12 uniform buffers per stage; 96 and 72
        // per set.
        let l = vk::PhysicalDeviceLimits {
            max_per_stage_descriptor_samplers: 16,
            max_per_stage_descriptor_sampled_images: 16,
            max_per_stage_descriptor_uniform_buffers: 12,
            max_descriptor_set_samplers: 96,
            max_descriptor_set_sampled_images: 96,
            max_descriptor_set_uniform_buffers: 72,
            ..Default::default()
        };
        let s = ShaderLimits::of(&l);
        assert_eq!(s.stage_uniform_blocks, 11);
        assert!(!s.reach_gl_4_0());
        let s = ShaderLimits::of(&limits(13, 72));
        assert_eq!(s.combined_texture_units, 72);
        assert!(!s.reach_gl_4_0());
        assert!(ShaderLimits::of(&limits(16, 80)).reach_gl_4_0());
    }
}
