//! Draws that sample a texture they also render to (GL_ARB_texture_barrier: a texel written by
//! an earlier draw, after `glTextureBarrier`, or one the draw does not write).
//!
//! Design decisions:
//! - Such an image is in `GENERAL` for the whole draw, both as the sampled image and as the
//!   attachment: Vulkan's attachment and read-only layouts cannot hold at once, and a
//!   descriptor's layout must be the image's. The other images keep their optimal layouts.
//! - An attachment already in `GENERAL` stays there (no transition would gain anything, and one
//!   would end the render pass); each pass takes each attachment's current layout.
//! - `glTextureBarrier` (`compute::barrier`) ends the render pass and makes every earlier write
//!   visible, so the next draw's fetches see the texels the draws before the barrier wrote.

use arenagl_memory::ImageHandle;
use ash::vk;

use crate::gl::objects::framebuffer::{Target, MAX_COLOR_ATTACHMENTS};

/// How many images a draw can render to: every colour attachment and the depth/stencil one.
const ATTACHED: usize = MAX_COLOR_ATTACHMENTS + 1;

/// The images `target` renders to (colour, then depth/stencil). A fixed array, not a `Vec`: it
/// is made for every draw, and a steady-state draw stays within its allocation bound
/// (`tests/draw_allocations.rs`).
pub(crate) fn attached_images(target: &Target) -> [Option<ImageHandle>; ATTACHED] {
    let mut out = [None; ATTACHED];
    let all = target.colors.iter().flatten().chain(&target.depth_stencil);
    for (slot, bound) in out.iter_mut().zip(all) {
        *slot = Some(bound.image);
    }
    out
}

/// The layout a sampled `image` takes for a draw rendering to `attached`.
pub(crate) fn sampled_layout(
    image: ImageHandle,
    attached: &[Option<ImageHandle>],
) -> vk::ImageLayout {
    if attached.contains(&Some(image)) {
        vk::ImageLayout::GENERAL
    } else {
        vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL
    }
}

/// Whether an attachment in layout `current` can be rendered to as it is (`optimal` is the
/// attachment layout it would otherwise move to).
pub(crate) fn attachment_ready(current: vk::ImageLayout, optimal: vk::ImageLayout) -> bool {
    current == optimal || current == vk::ImageLayout::GENERAL
}

/// The accesses an image moved to `layout` for sampling waits for: a feedback-loop image is
/// then also an attachment.
pub(crate) fn sampling_scope(
    layout: vk::ImageLayout,
    shader_stages: vk::PipelineStageFlags,
) -> (vk::PipelineStageFlags, vk::AccessFlags) {
    if layout == vk::ImageLayout::GENERAL {
        (
            vk::PipelineStageFlags::ALL_GRAPHICS,
            vk::AccessFlags::MEMORY_READ | vk::AccessFlags::MEMORY_WRITE,
        )
    } else {
        (shader_stages, vk::AccessFlags::SHADER_READ)
    }
}
