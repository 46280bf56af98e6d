//! Layered framebuffers (GL 3.2, GL 4.6 §9.8): `glFramebufferTexture` (and
//! `glNamedFramebufferTexture`) of a whole 3D, array, cube or cube-array texture attaches
//! every layer of one level, and a geometry shader's `gl_Layer` picks the layer each primitive
//! lands in.
//!
//! Design decisions:
//! - A layered attachment is an `Attachment::Texture` with `layered` set (and layer 0); the
//!   `glFramebufferTexture{1D,2D,3D,Layer}` commands keep attaching one layer.
//! - It renders through one view of all the level's layers (`layered_view`: a 2D-array view,
//!   of the depth slices for a 3D texture, whose images are 2D-array compatible; a 1D-array
//!   view for a 1D array texture; cube faces are layers 0–5 of each cube), cached on the
//!   texture beside the single-layer views, and dynamic rendering spans `Target::layers`
//!   layers: the fewest any attachment has (§9.8).
//! - Completeness (§9.4.2): either every populated attachment is layered or none is, and the
//!   layered colour attachments are all of one texture target, else
//!   `GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS`. A framebuffer without attachments spans its
//!   `GL_FRAMEBUFFER_DEFAULT_LAYERS` (GL_ARB_framebuffer_no_attachments), at least one.
//! - Clears clear every layer (the clear rectangle spans `Target::layers`); reads, copies and
//!   blits from a layered framebuffer see layer 0, as GL says (its `Bound` names layer 0).

use arenagl_memory::ViewDesc;
use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::Context;
use crate::gl::objects::framebuffer::{Attachment, Framebuffer};
use crate::gl::objects::texture::target::TexTarget;

/// `GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS`.
pub(crate) const INCOMPLETE_LAYER_TARGETS: GLenum = 0x8DA8;

/// `GL_FRAMEBUFFER_ATTACHMENT_LAYERED`.
pub(crate) const ATTACHMENT_LAYERED: GLenum = 0x8DA7;

/// Whether a whole texture of `target` attaches layered (rather than as its one image).
pub(crate) fn is_layered_target(target: TexTarget) -> bool {
    matches!(
        target,
        TexTarget::D3
            | TexTarget::D1Array
            | TexTarget::D2Array
            | TexTarget::D2MultisampleArray
            | TexTarget::Cube
            | TexTarget::CubeArray
    )
}

/// The view a layered attachment renders through: `layers` layers of level `vk_level` from
/// `vk_layer` (Vulkan's level and layer), 1D-array for a 1D image, else 2D-array.
pub(crate) fn layered_view(
    one_dimensional: bool,
    (vk_level, vk_layer): (u32, u32),
    layers: u32,
    format: vk::Format,
) -> ViewDesc {
    let mut desc = crate::gl::objects::texture::attachment_view(vk_level, vk_layer, format);
    desc.view_type = if one_dimensional {
        vk::ImageViewType::TYPE_1D_ARRAY
    } else {
        vk::ImageViewType::TYPE_2D_ARRAY
    };
    desc.layer_count = layers;
    desc
}

/// One populated attachment as the layer rules see it: its texture target and, when layered,
/// the layers of its level.
struct Layering {
    color: bool,
    target: Option<TexTarget>,
    layers: Option<u32>,
}

impl Context {
    /// The layers rendering into `fb` spans, or `GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS` (see
    /// the module docs).
    pub(crate) fn framebuffer_layers(&self, fb: &Framebuffer) -> Result<u32, GLenum> {
        let colors = fb.colors.iter().map(|a| (true, a));
        let others = [(false, &fb.depth), (false, &fb.stencil)];
        let points: Vec<Layering> = colors
            .chain(others)
            .filter_map(|(color, a)| Some(self.layering(color, (*a)?)))
            .collect();
        let Some(first) = points.first() else {
            return Ok(fb.defaults.layers.max(1));
        };
        if first.layers.is_none() {
            let none_layered = points.iter().all(|p| p.layers.is_none());
            return if none_layered {
                Ok(1)
            } else {
                Err(INCOMPLETE_LAYER_TARGETS)
            };
        }
        let color_target = points.iter().find(|p| p.color).map(|p| p.target);
        let mixed = points
            .iter()
            .any(|p| p.layers.is_none() || (p.color && Some(p.target) != color_target));
        if mixed {
            return Err(INCOMPLETE_LAYER_TARGETS);
        }
        Ok(points
            .iter()
            .filter_map(|p| p.layers)
            .min()
            .unwrap_or(1)
            .max(1))
    }

    fn layering(&self, color: bool, a: Attachment) -> Layering {
        let Attachment::Texture {
            name,
            level,
            layered,
            ..
        } = a
        else {
            return Layering {
                color,
                target: None,
                layers: None,
            };
        };
        let storage = self.textures.get(name).and_then(|t| t.storage.as_ref());
        Layering {
            color,
            target: storage.map(|s| s.target),
            layers: layered.then(|| storage.map_or(0, |s| s.attachable_layers(level))),
        }
    }
}
