//! The storage a draw builds its lists in, kept from one draw to the next (issue 20: per-draw
//! CPU cost). A draw takes each list emptied, fills it, and gives it back when it is done, so a
//! draw of steady state allocates nothing for them; a draw that fails part-way simply does not
//! give them back, and the next one allocates afresh.

use arenagl_memory::{ImageHandle, ViewHandle};
use ash::vk;

use crate::gl::draw::descriptors::ImageInfos;
use crate::gl::draw::resources::DrawResources;
use crate::gl::draw::validate::DrawProgram;
use crate::gl::draw::vertex_input::{PlacedVertexBuffer, VertexBuffers, VertexInput, VertexSource};
use crate::gl::vk::pipeline::PipelineKey;

/// Lists of the last draw, emptied (`Encoder::scratch`).
#[derive(Default)]
pub(super) struct DrawScratch {
    /// The last draw's copy of its program's state (`validate::program_draw_state`).
    pub program: Option<DrawProgram>,
    vertex_input: VertexInput,
    color_formats: Vec<vk::Format>,
    pub placed: Vec<PlacedVertexBuffer>,
    pub vertex_buffers: VertexBuffers,
    pub dummies: Vec<(ImageHandle, ViewHandle)>,
    pub images: ImageInfos,
    /// Per-binding image lists of `images`, emptied.
    image_lists: Vec<Vec<vk::DescriptorImageInfo>>,
}

/// `list`'s storage, emptied.
pub(super) fn take<T>(list: &mut Vec<T>) -> Vec<T> {
    let mut list = std::mem::take(list);
    list.clear();
    list
}

impl DrawScratch {
    /// Empty vertex-input lists.
    pub(super) fn vertex_input(&mut self) -> VertexInput {
        let v = &mut self.vertex_input;
        VertexInput {
            bindings: take(&mut v.bindings),
            attributes: take(&mut v.attributes),
            sources: take(&mut v.sources),
        }
    }

    /// An empty list of attachment formats.
    pub(super) fn color_formats(&mut self) -> Vec<vk::Format> {
        take(&mut self.color_formats)
    }

    /// An empty list of one binding's image descriptors.
    pub(super) fn image_list(&mut self) -> Vec<vk::DescriptorImageInfo> {
        self.image_lists.pop().unwrap_or_default()
    }

    /// Keeps the lists of a draw that is done.
    pub(super) fn recycle(
        &mut self,
        program: DrawProgram,
        key: PipelineKey,
        sources: Vec<VertexSource>,
        resources: DrawResources,
    ) {
        self.program = Some(program);
        self.vertex_input = VertexInput {
            bindings: key.bindings,
            attributes: key.attributes,
            sources,
        };
        self.color_formats = key.color_formats;
        self.vertex_buffers = resources.vertex_buffers;
        let mut images = resources.descriptors.images;
        self.image_lists
            .extend(images.drain(..).map(|(_, mut list)| {
                list.clear();
                list
            }));
        self.images = images;
    }
}
