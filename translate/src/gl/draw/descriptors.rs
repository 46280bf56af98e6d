//! Descriptor sets: set 0 holds the program's textures, texel buffers, uniform blocks, storage
//! blocks (atomic-counter blocks too) and storage images, set 1
//! its default uniform block (a dynamic uniform buffer into the frame's arena).
//!
//! Design decisions:
//! - Sets are written once the resources are placed (every handle is live and used for the
//!   epoch); allocating and writing them records no command, so the pass is looked up after.
//! - A set is reused rather than written again when one of the last `SET0_CACHE` this context
//!   wrote has the same contents, comes from the current pool and belongs to the epoch being
//!   recorded. Only
//!   within one epoch: a handle retired in it is not destroyed, so not reused, before the epoch
//!   completes; across epochs an equal handle may be a new object.
//! - Set 1's per-draw data is a dynamic offset, so its set only changes with the arena buffer,
//!   the pool, the layout or the epoch.

use arenagl_memory::{Epoch, StreamRange};
use ash::vk;

use crate::gl::context::error::GlResult;
use crate::gl::context::Context;
use crate::gl::draw::resources::DrawResources;
use crate::gl::objects::program::Linked;

/// How many set 0s a context remembers for reuse: a frame that cycles through a few programs
/// and textures (a game's sorted draws) finds each combination again instead of writing a new
/// set per change.
pub(super) const SET0_CACHE: usize = 32;

/// Combined image samplers per binding.
pub(crate) type ImageInfos = Vec<(u32, Vec<vk::DescriptorImageInfo>)>;
/// Uniform buffers per binding.
pub(crate) type BufferInfos = Vec<(u32, Vec<vk::DescriptorBufferInfo>)>;
/// Texel-buffer views per binding.
pub(crate) type TexelInfos = Vec<(u32, Vec<vk::BufferView>)>;

/// What a draw's set 0 is written with.
pub(crate) struct Set0Infos {
    pub images: ImageInfos,
    pub buffers: BufferInfos,
    pub texels: TexelInfos,
    /// Storage buffers (storage and atomic-counter blocks) per binding.
    pub storage: BufferInfos,
    /// Storage images per binding.
    pub storage_images: ImageInfos,
}

impl Set0Infos {
    fn is_empty(&self) -> bool {
        self.images.is_empty()
            && self.buffers.is_empty()
            && self.texels.is_empty()
            && self.storage.is_empty()
            && self.storage_images.is_empty()
    }
}

/// The sets a draw binds: set 0, and set 1 with its dynamic offset.
pub(crate) struct DescriptorSets {
    pub set0: Option<vk::DescriptorSet>,
    pub set1: Option<(vk::DescriptorSet, u32)>,
}

/// What a set 0 holds: its layout, and per binding the (sampler, view, layout) of each image,
/// the (buffer, offset, range) of each uniform block and the view of each texel buffer.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Set0Contents {
    layout: vk::DescriptorSetLayout,
    images: Vec<(u32, Vec<ImageDescriptor>)>,
    buffers: Vec<(u32, Vec<BufferDescriptor>)>,
    texels: Vec<(u32, Vec<vk::BufferView>)>,
    storage: Vec<(u32, Vec<BufferDescriptor>)>,
    storage_images: Vec<(u32, Vec<ImageDescriptor>)>,
}

/// A combined image sampler descriptor's (sampler, view, layout).
type ImageDescriptor = (vk::Sampler, vk::ImageView, vk::ImageLayout);
/// A uniform buffer descriptor's (buffer, offset, range).
type BufferDescriptor = (vk::Buffer, u64, u64);

impl Set0Contents {
    fn new(layout: vk::DescriptorSetLayout, infos: &Set0Infos) -> Self {
        Self {
            layout,
            texels: infos.texels.to_vec(),
            images: per_binding(&infos.images, image_key),
            buffers: per_binding(&infos.buffers, buffer_key),
            storage: per_binding(&infos.storage, buffer_key),
            storage_images: per_binding(&infos.storage_images, image_key),
        }
    }
}

impl Set0Contents {
    /// Whether a set written with these infos would hold what this one holds (compared in
    /// place: a reused set allocates nothing).
    fn matches(&self, layout: vk::DescriptorSetLayout, infos: &Set0Infos) -> bool {
        self.layout == layout
            && self.texels == infos.texels
            && same_per_binding(&self.images, &infos.images, image_key)
            && same_per_binding(&self.buffers, &infos.buffers, buffer_key)
            && same_per_binding(&self.storage, &infos.storage, buffer_key)
            && same_per_binding(&self.storage_images, &infos.storage_images, image_key)
    }
}

/// What a reused set must match of an image descriptor.
fn image_key(i: &vk::DescriptorImageInfo) -> ImageDescriptor {
    (i.sampler, i.image_view, i.image_layout)
}

/// What a reused set must match of a uniform buffer descriptor.
fn buffer_key(i: &vk::DescriptorBufferInfo) -> BufferDescriptor {
    (i.buffer, i.offset, i.range)
}

/// Whether `infos`, reduced by `key`, equal `held` binding by binding.
fn same_per_binding<I, K: PartialEq>(
    held: &[(u32, Vec<K>)],
    infos: &[(u32, Vec<I>)],
    key: impl Fn(&I) -> K,
) -> bool {
    held.len() == infos.len()
        && held.iter().zip(infos).all(|((hb, h), (b, i))| {
            hb == b && h.len() == i.len() && h.iter().zip(i).all(|(h, i)| *h == key(i))
        })
}

/// `infos` per binding, each reduced by `key` to what a reused set must match.
fn per_binding<I, K>(infos: &[(u32, Vec<I>)], key: impl Fn(&I) -> K) -> Vec<(u32, Vec<K>)> {
    infos
        .iter()
        .map(|(binding, infos)| (*binding, infos.iter().map(&key).collect()))
        .collect()
}

impl Context {
    /// The draw's descriptor sets, reused or allocated and written.
    pub(super) fn descriptor_sets(
        &mut self,
        linked: &Linked,
        resources: &DrawResources,
    ) -> GlResult<DescriptorSets> {
        self.program_descriptor_sets(linked, &resources.descriptors, resources.default_range)
    }

    /// The sets of `linked` written with `infos` and the default block at `default_range`
    /// (draws and dispatches alike), reused or allocated and written.
    pub(crate) fn program_descriptor_sets(
        &mut self,
        linked: &Linked,
        infos: &Set0Infos,
        default_range: Option<StreamRange>,
    ) -> GlResult<DescriptorSets> {
        let (epoch, completed) = {
            let locked = self.device.lock();
            (
                locked.manager.recording_epoch(),
                locked.manager.completed_epoch(),
            )
        };
        let set0 = self.set0(linked, infos, epoch, completed)?;
        let set1 = match default_range {
            Some(range) => Some(self.default_block_set(linked, range, epoch, completed)?),
            None => None,
        };
        Ok(DescriptorSets { set0, set1 })
    }

    /// Set 0, or None when the program has no texture, texel buffer or uniform block.
    fn set0(
        &mut self,
        linked: &Linked,
        infos: &Set0Infos,
        epoch: Epoch,
        completed: Epoch,
    ) -> GlResult<Option<vk::DescriptorSet>> {
        let (image_infos, buffer_infos, texel_infos) =
            (&infos.images, &infos.buffers, &infos.texels);
        let (storage_infos, storage_image_infos) = (&infos.storage, &infos.storage_images);
        let layout = linked.set_layouts[0];
        let pool = self.descriptors.touch_current(epoch);
        let cache = &mut self.encoder.set0;
        // Every entry has the same pool and epoch: all go when they change.
        if cache
            .first()
            .is_some_and(|(_, p, e, _)| Some(*p) != pool || *e != epoch)
        {
            cache.clear();
        }
        let reused = cache
            .iter()
            .rev()
            .find(|(c, _, _, _)| c.matches(layout, infos))
            .map(|(_, _, _, set)| *set);
        let set0 = if infos.is_empty() {
            None
        } else if reused.is_some() {
            reused
        } else {
            let contents = Set0Contents::new(layout, infos);
            let set =
                self.descriptors
                    .allocate(&self.device, linked.set_layouts[0], epoch, completed)?;
            let write = |binding: &u32, ty| {
                vk::WriteDescriptorSet::default()
                    .dst_set(set)
                    .dst_binding(*binding)
                    .descriptor_type(ty)
            };
            let mut writes = Vec::new();
            for (binding, infos) in image_infos {
                let ty = vk::DescriptorType::COMBINED_IMAGE_SAMPLER;
                writes.push(write(binding, ty).image_info(infos));
            }
            for (binding, infos) in buffer_infos {
                let ty = vk::DescriptorType::UNIFORM_BUFFER;
                writes.push(write(binding, ty).buffer_info(infos));
            }
            for (binding, views) in texel_infos {
                let ty = vk::DescriptorType::UNIFORM_TEXEL_BUFFER;
                writes.push(write(binding, ty).texel_buffer_view(views));
            }
            for (binding, infos) in storage_infos {
                let ty = vk::DescriptorType::STORAGE_BUFFER;
                writes.push(write(binding, ty).buffer_info(infos));
            }
            for (binding, infos) in storage_image_infos {
                let ty = vk::DescriptorType::STORAGE_IMAGE;
                writes.push(write(binding, ty).image_info(infos));
            }
            // SAFETY: the set was just allocated from this context's pool; every written
            // handle is live and stamped for the recording epoch.
            unsafe { self.device.raw().update_descriptor_sets(&writes, &[]) };
            if let Some(p) = self.descriptors.touch_current(epoch) {
                let cache = &mut self.encoder.set0;
                if cache.first().is_some_and(|(_, first, _, _)| *first != p) {
                    cache.clear(); // the allocation began a new pool
                }
                if cache.len() == SET0_CACHE {
                    cache.remove(0);
                }
                cache.push((contents, p, epoch, set));
            }
            Some(set)
        };
        Ok(set0)
    }

    /// Set 1, pointing at the arena buffer `range` lies in, and the dynamic offset of `range`.
    fn default_block_set(
        &mut self,
        linked: &Linked,
        range: StreamRange,
        epoch: Epoch,
        completed: Epoch,
    ) -> GlResult<(vk::DescriptorSet, u32)> {
        let layout = linked.set_layouts[1];
        let pool = self.descriptors.touch_current(epoch);
        let cached = self.encoder.default_set.filter(|(buf, p, l, e, _)| {
            *buf == range.buffer && Some(*p) == pool && *l == layout && *e == epoch
        });
        let set = match cached {
            Some((_, _, _, _, set)) => set,
            None => {
                let set = self
                    .descriptors
                    .allocate(&self.device, layout, epoch, completed)?;
                write_default_block(self.device.raw(), set, linked, range.buffer);
                if let Some(p) = self.descriptors.touch_current(epoch) {
                    self.encoder.default_set = Some((range.buffer, p, layout, epoch, set));
                }
                set
            }
        };
        Ok((set, range.offset as u32))
    }
}

/// Points the fresh set 1 `set` (allocated from this context's pool) at `linked`'s default
/// uniform block in the arena buffer `buffer`; the draw supplies the block's offset.
pub(super) fn write_default_block(
    raw: &ash::Device,
    set: vk::DescriptorSet,
    linked: &Linked,
    buffer: vk::Buffer,
) {
    let info = [vk::DescriptorBufferInfo {
        buffer,
        offset: 0,
        range: u64::from(linked.default_block_size),
    }];
    let write = vk::WriteDescriptorSet::default()
        .dst_set(set)
        .dst_binding(crate::glsl::DEFAULT_BLOCK_BINDING)
        .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC)
        .buffer_info(&info);
    // SAFETY: `set` is unused so far and the arena buffer is live for this frame.
    unsafe { raw.update_descriptor_sets(&[write], &[]) };
}
