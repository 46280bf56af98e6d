//! GL_ARB_cull_distance: `gl_CullDistance` in every stage, and its limits.
//!
//! Design decisions:
//! - The GLSL is glslang's from GLSL 4.50 on: a unit below 4.50 that enables the extension is
//!   compiled as 4.50 (`glsl::raise`), which declares `gl_CullDistance` (vertex, tessellation
//!   and geometry outputs and inputs, fragment input), `gl_MaxCullDistances` and
//!   `gl_MaxCombinedClipAndCullDistances`, and refuses a unit that writes more than they
//!   allow. SPIR-V's `CullDistance` built-in is Vulkan's, culling a primitive whose vertices
//!   all have a negative distance in one element, as GL does.
//! - The limits are what glslang is told (`glsl::compile`, [`MAX_CULL_DISTANCES`] and
//!   [`MAX_COMBINED_CLIP_AND_CULL_DISTANCES`]): GL's minimums. The extension is offered only
//!   where the device has `shaderCullDistance` and at least those limits, so the GL queries,
//!   the GLSL constants and what the device runs agree.
//! - glslang checks each array against its own limit; the combined limit (clip and cull
//!   distances of one stage interface together) is checked at link (`glsl::clip_cull`).

use crate::gl::vk::device::Device;

/// GL_MAX_CULL_DISTANCES (GL 4.5's minimum).
pub(crate) const MAX_CULL_DISTANCES: u32 = 8;

/// GL_MAX_COMBINED_CLIP_AND_CULL_DISTANCES (GL 4.5's minimum).
pub(crate) const MAX_COMBINED_CLIP_AND_CULL_DISTANCES: u32 = 8;

/// The extension's name.
pub(crate) const EXTENSION: &str = "GL_ARB_cull_distance";

/// Whether `device` runs cull distances at GL's limits.
pub(crate) fn supported(device: &Device) -> bool {
    let caps = device.caps();
    let l = &caps.limits;
    caps.gl4.shader_cull_distance
        && caps.gl4.shader_clip_distance
        && l.max_cull_distances >= MAX_CULL_DISTANCES
        && l.max_combined_clip_and_cull_distances >= MAX_COMBINED_CLIP_AND_CULL_DISTANCES
}

/// The extension where `device` supports it.
pub(crate) fn extensions(device: &Device) -> Option<&'static str> {
    supported(device).then_some(EXTENSION)
}
