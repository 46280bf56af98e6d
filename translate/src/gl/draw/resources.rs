//! Draw resources: everything a draw allocates, streams, uses or transitions before its render
//! pass is open: the pipeline, the vertex and index data placed for the draw, the default
//! uniform block, the textures and samplers of the program's samplers, and its uniform blocks.
//!
//! Design decisions:
//! - All of it runs under one device lock, in a fixed order (pipeline, vertex streams, default
//!   block, textures, uniform blocks, indices, vertex buffers): the order decides where streamed
//!   bytes land in the frame's arena, and so what the draw records.
//! - Stand-in textures for incomplete or missing textures (`dummy_texture`) are made before
//!   the lock is taken, since making one records a clear or an upload of its own.
//! - A sampler reads the texture bound to its unit for the target its type names; a texture
//!   that is incomplete, or of a kind the sampler cannot read, samples as the stand-in. Sampler
//!   state the device cannot take is adjusted here (linear filters on formats without the
//!   linear-filter feature or integer formats become nearest; the LOD bias is clamped to the
//!   device's range).
//! - Images are moved to `SHADER_READ_ONLY_OPTIMAL` here, outside any pass, and everything
//!   handed to the descriptors is used (stamped) for the epoch being recorded.

use arenagl_memory::{ImageHandle, ImageRegion, StreamRange, ViewHandle};
use ash::vk;

use crate::gl::context::error::{invalid_op, GlResult};
use crate::gl::context::{Context, Profile};
use crate::gl::draw::descriptors::{BufferInfos, ImageInfos, Set0Infos, TexelInfos};
use crate::gl::draw::profile::Phase;
use crate::gl::draw::validate::DrawProgram;
use crate::gl::draw::vertex_input::{self, Assembly, DrawIndices, VertexBuffers, VertexSource};
use crate::gl::draw::DrawCall;
use crate::gl::objects::framebuffer::Target;
use crate::gl::objects::program::Linked;
use crate::gl::objects::texture::target::TexTarget;
use crate::gl::objects::texture::IDENTITY_SWIZZLE;
use crate::gl::vk::device::{Device, Locked};
use crate::gl::vk::pipeline::PipelineKey;
use crate::glsl::SampledKind;

/// What a draw has placed and resolved before its pass: what `descriptors` writes and
/// `record` binds.
pub(super) struct DrawResources {
    pub pipeline: vk::Pipeline,
    pub vertex_buffers: VertexBuffers,
    /// The default uniform block's bytes in the arena (the program has one).
    pub default_range: Option<StreamRange>,
    pub descriptors: Set0Infos,
    pub indices: DrawIndices,
    /// The storage of an indirect draw's commands and count (`DrawCall::indirect`), used for
    /// the epoch.
    pub indirect: Option<super::indirect::IndirectBuffers>,
    /// Where the draw captures with transform feedback (`objects::transform_feedback`); set
    /// by the draw after this phase.
    pub feedback: Option<crate::gl::objects::transform_feedback::capture::FeedbackDraw>,
}

impl Context {
    /// Writes the built-in uniforms a fixed-function or upgraded legacy program declares into
    /// its default block's bytes (`compat`).
    pub(super) fn fill_builtin_uniforms(&self, program: &mut DrawProgram) {
        if !program.linked.ff_uniforms.is_empty() {
            self.fill_ff_uniforms(
                &program.linked,
                &program.sampler_units,
                &mut program.uniform_data,
            );
        }
    }

    /// Places and resolves everything the draw binds (see the module docs for the order).
    pub(super) fn draw_resources(
        &mut self,
        call: &DrawCall,
        program: &DrawProgram,
        key: &PipelineKey,
        sources: &[VertexSource],
        assembly: &Assembly,
        target: &Target,
    ) -> GlResult<DrawResources> {
        let linked = &program.linked;
        let device = self.device.clone();
        // A stand-in per sampler dimensionality the program declares.
        let mut dummies = super::scratch::take(&mut self.encoder.scratch.dummies);
        for s in &linked.samplers {
            dummies.push(self.dummy_texture(TexTarget::of_sampler(s.ty.dim), s.ty.kind)?);
        }
        let mut locked = device.lock();
        let pipeline = self.draw_pipeline(&mut locked, &device, linked, key)?;
        let placed = std::mem::take(&mut self.encoder.scratch.placed);
        let placed = vertex_input::stream_vertex_sources(&mut locked, sources, placed)?;
        let default_range = if linked.default_block_size > 0 {
            Some(self.default_block(&mut locked, &program.uniform_data)?)
        } else {
            None
        };
        // Textures it renders to are sampled in `GENERAL` (`feedback_loop`).
        let attached = super::feedback_loop::attached_images(target);
        let (images, texels) =
            self.sampler_descriptors(&mut locked, &device, program, &dummies, &attached)?;
        let buffers = self.uniform_block_descriptors(&mut locked, program)?;
        let storage = self.storage_descriptors(&mut locked, program)?;
        let storage_images = self.storage_image_descriptors(&mut locked, program)?;
        let indices = vertex_input::draw_indices(&mut locked, call, assembly)?;
        let vertex_buffers = std::mem::take(&mut self.encoder.scratch.vertex_buffers);
        let vertex_buffers =
            vertex_input::raw_vertex_buffers(&mut locked, &placed, vertex_buffers)?;
        self.encoder.scratch.placed = placed;
        self.encoder.scratch.dummies = dummies;
        let indirect = match call.indirect {
            Some(c) => Some(super::indirect::IndirectBuffers {
                commands: locked.manager.use_buffer(c.buffer)?.raw(),
                count: match c.count {
                    Some(source) => Some(locked.manager.use_buffer(source.buffer)?.raw()),
                    None => None,
                },
            }),
            None => None,
        };
        Ok(DrawResources {
            pipeline,
            vertex_buffers,
            default_range,
            descriptors: Set0Infos {
                images,
                buffers,
                texels,
                storage,
                storage_images,
            },
            indices,
            indirect,
            feedback: None,
        })
    }

    /// Where the draw's default-block `bytes` lie in the frame's arena: where the last draw's
    /// were when they are the same bytes and the epoch being recorded is the same (a streamed
    /// range lives until its epoch completes), else streamed now. The bytes are kept in a
    /// buffer refilled in place, so a steady-state draw allocates nothing for them.
    fn default_block(&mut self, locked: &mut Locked, bytes: &[u8]) -> GlResult<StreamRange> {
        let epoch = locked.manager.recording_epoch();
        let last = &mut self.encoder.last_uniforms;
        if let Some((_, _, range)) = last
            .as_ref()
            .filter(|(b, e, _)| *e == epoch && b == bytes && !locked.manager.is_lost())
        {
            return Ok(*range);
        }
        let range = locked.manager.stream(bytes, 256)?;
        let mut kept = last.take().map(|(kept, _, _)| kept).unwrap_or_default();
        kept.clear();
        kept.extend_from_slice(bytes);
        *last = Some((kept, epoch, range));
        Ok(range)
    }

    /// The draw's pipeline: the last one this context looked up when `key` is the same and the
    /// epoch being recorded is too (no pipeline is destroyed before an epoch that used it
    /// completes, and the cache stamped it for this epoch when it was looked up), else the
    /// device's cache's, built on a miss.
    fn draw_pipeline(
        &mut self,
        locked: &mut Locked,
        device: &Device,
        linked: &Linked,
        key: &PipelineKey,
    ) -> GlResult<vk::Pipeline> {
        let epoch = locked.manager.recording_epoch();
        let last = self.encoder.last_pipeline.as_ref();
        if let Some((_, _, pipeline)) =
            last.filter(|(k, e, _)| *e == epoch && k == key && !locked.manager.is_lost())
        {
            self.encoder.profile.mark(Phase::PipelineLookup);
            return Ok(*pipeline);
        }
        let cached = locked.pipelines.len();
        let pipeline = locked.pipeline(device.pipeline_cache(), linked, key)?;
        self.encoder
            .profile
            .mark(if locked.pipelines.len() == cached {
                Phase::PipelineLookup
            } else {
                Phase::PipelineBuild
            });
        self.encoder.last_pipeline = Some((key.clone(), epoch, pipeline));
        Ok(pipeline)
    }

    /// The descriptors of the program's samplers, per binding: combined image samplers, and
    /// texel-buffer views for `samplerBuffer`s.
    pub(crate) fn sampler_descriptors(
        &mut self,
        locked: &mut Locked,
        device: &Device,
        program: &DrawProgram,
        dummies: &[(ImageHandle, ViewHandle)],
        attached: &[Option<ImageHandle>],
    ) -> GlResult<(ImageInfos, TexelInfos)> {
        let linked = &program.linked;
        let sampler_units = &program.sampler_units;
        let mut image_infos: ImageInfos = super::scratch::take(&mut self.encoder.scratch.images);
        let mut texel_infos: TexelInfos = Vec::new();
        // The texture unit of element `e` of sampler `si`.
        let unit_of = |si: usize, e: usize| {
            sampler_units
                .get(si)
                .and_then(|u| u.get(e))
                .copied()
                .unwrap_or(0) as usize
        };
        for (si, s) in linked.samplers.iter().enumerate() {
            if s.ty.dim == crate::glsl::SamplerDim::Buffer {
                // A samplerBuffer reads its units' buffer textures through texel-buffer views.
                let mut views = Vec::new();
                for e in 0..s.count as usize {
                    let unit = unit_of(si, e);
                    views.push(self.buffer_texture_view(locked, device, unit, s.ty.kind)?);
                }
                texel_infos.push((s.binding, views));
                continue;
            }
            let mut infos = self.encoder.scratch.image_list();
            for e in 0..s.count as usize {
                let unit = unit_of(si, e);
                let dummy = dummies[si];
                infos.push(self.sampled_image(locked, linked, (si, unit), dummy, attached)?);
            }
            image_infos.push((s.binding, infos));
        }
        Ok((image_infos, texel_infos))
    }

    /// The image descriptor sampler `si` reads on texture unit `unit`: the unit's texture (or
    /// the stand-in `dummy`) with its view, its layout and a sampler the device can take.
    fn sampled_image(
        &mut self,
        locked: &mut Locked,
        linked: &Linked,
        (si, unit): (usize, usize),
        dummy: (ImageHandle, ViewHandle),
        attached: &[Option<ImageHandle>],
    ) -> GlResult<vk::DescriptorImageInfo> {
        let compat = self.profile == Profile::Compatibility;
        let s = &linked.samplers[si];
        if s.initial_unit == crate::glsl::blend_advanced::DST_UNIT {
            let multisampled = s.ty.dim == crate::glsl::SamplerDim::D2Multisample;
            return self.blend_dst_descriptor(locked, dummy, multisampled);
        }
        // The unit's binding for the target the sampler's type reads: a texture of
        // another target is never seen, so it samples as incomplete.
        let target = TexTarget::of_sampler(s.ty.dim);
        let name = target
            .and_then(|t| Some(self.texture_units.get(unit)?[t.index()]))
            .unwrap_or(0);
        // Name 0 is the compatibility profile's default texture of the target.
        let default = (name == 0 && compat).then_some(target).flatten();
        // A sampler object bound to the unit overrides the texture's sampling state.
        let sampler_object = self
            .sampler_units
            .get(unit)
            .and_then(|&n| self.samplers.get(n));
        // An integer sampler reads integer formats only; anything else (every format
        // this GL stores today is normalized or float) samples as incomplete.
        let object = match default {
            Some(t) => self.default_textures.get(t.index()),
            None => self.textures.get(name),
        };
        if let Some(t) = object {
            t.last_sampled.set(self.pressure.frame);
        }
        // GL_DEPTH_STENCIL_TEXTURE_MODE: a depth/stencil texture in stencil mode samples
        // unsigned stencil indices, with nearest filters only (`texture/stencil.rs`).
        let stencil = object
            .and_then(|t| Some(t.storage.as_ref()?.samples_stencil(&t.params)))
            .unwrap_or(false);
        let tex = object.filter(|t| {
            let kind = if stencil {
                SampledKind::UInt
            } else {
                t.storage.as_ref().map_or(SampledKind::Float, |st| {
                    crate::gl::objects::texture::sampled_kind(st.format)
                })
            };
            let filters = sampler_object.unwrap_or(&t.params);
            t.is_complete(sampler_object)
                && t.storage.is_some()
                && kind == s.ty.kind
                && (!stencil
                    || crate::gl::objects::texture::stencil::stencil_filters_complete(filters))
        });
        // GLSL 1.10/1.20 programs of a compatibility context see a depth texture
        // through GL_DEPTH_TEXTURE_MODE (the swizzle applies after it).
        let depth_mode = compat && self.program != 0 && linked.legacy_depth_mode;
        let swizzle = tex.map(|t| match &t.storage {
            Some(st)
                if depth_mode
                    && !s.ty.shadow
                    && crate::gl::objects::framebuffer::is_depth_format(st.format) =>
            {
                crate::gl::objects::texture::compose_swizzle(
                    crate::gl::objects::texture::depth_mode_swizzle(t.params.depth_mode),
                    t.params.swizzle,
                )
            }
            _ => t.params.swizzle,
        });
        let (image, mut view, desc) = match tex.and_then(|t| {
            t.storage.as_ref().map(|st| {
                let mut desc = t.sampler_desc(sampler_object, s.ty.shadow, true);
                // GL filters any format; Vulkan only those with the linear-filter
                // feature (depth formats seldom have it): the rest sample nearest.
                if !locked.manager.supports_linear_filter(st.format) {
                    desc.mag_filter = vk::Filter::NEAREST;
                    desc.min_filter = vk::Filter::NEAREST;
                    desc.mipmap_mode = vk::SamplerMipmapMode::NEAREST;
                }
                (st.image, st.view, desc)
            })
        }) {
            Some(v) => v,
            None => (dummy.0, dummy.1, arenagl_memory::SamplerDesc::default()),
        };
        // GL_TEXTURE_BASE_LEVEL/MAX_LEVEL narrowing the levels (`Texture::level_window`).
        let window = tex.and_then(|t| t.level_window());
        if let (true, Some(swizzle)) = (stencil, swizzle) {
            let object = match default {
                Some(t) => self.default_textures.get_mut(t.index()),
                None => self.textures.get_mut(name),
            };
            if let Some(st) = object.and_then(|t| t.storage.as_mut()) {
                view = st.stencil_view(&mut locked.manager, swizzle, window)?;
            }
        } else if let Some(swizzle) =
            swizzle.filter(|&sw| sw != IDENTITY_SWIZZLE || window.is_some())
        {
            // GL_TEXTURE_SWIZZLE_*: a view with that component mapping, cached per texture.
            let object = match default {
                Some(t) => self.default_textures.get_mut(t.index()),
                None => self.textures.get_mut(name),
            };
            if let Some(st) = object.and_then(|t| t.storage.as_mut()) {
                view = st.swizzled_view(&mut locked.manager, swizzle, window)?;
            }
        }
        let layout = super::feedback_loop::sampled_layout(image, attached);
        if locked.manager.image_layout(image)? != layout {
            let stages = self.device.caps().shader_stages();
            let scope = super::feedback_loop::sampling_scope(layout, stages);
            locked.manager.transition_image(image, layout, scope)?;
        }
        let mut desc = desc;
        if s.ty.kind != SampledKind::Float {
            // Integer formats never filter (GL treats linear filters as nearest there;
            // Vulkan rejects them).
            desc.mag_filter = vk::Filter::NEAREST;
            desc.min_filter = vk::Filter::NEAREST;
            desc.mipmap_mode = vk::SamplerMipmapMode::NEAREST;
        }
        let max_bias = self.device.caps().limits.max_sampler_lod_bias;
        desc.mip_lod_bias = if desc.mip_lod_bias.is_nan() {
            0.0
        } else {
            desc.mip_lod_bias.clamp(-max_bias, max_bias)
        };
        let sampler = locked.sampler(&desc)?;
        let raw_sampler = locked.manager.use_sampler(sampler)?.raw();
        let raw_view = locked.manager.use_view(view)?.raw();
        Ok(vk::DescriptorImageInfo {
            sampler: raw_sampler,
            image_view: raw_view,
            image_layout: layout,
        })
    }

    /// The descriptors of the program's uniform blocks, per binding: each element's bound
    /// range, which must exist and hold the block's data size.
    pub(crate) fn uniform_block_descriptors(
        &self,
        locked: &mut Locked,
        program: &DrawProgram,
    ) -> GlResult<BufferInfos> {
        let linked = &program.linked;
        let block_bindings = &program.block_bindings;
        let mut buffer_infos: BufferInfos = Vec::new();
        let mut block_index = 0usize;
        let max_range = self.device.caps().limits.max_uniform_buffer_range as u64;
        for b in &linked.blocks {
            let mut infos = Vec::new();
            for _ in 0..b.array_size {
                let point = block_bindings.get(block_index).copied().unwrap_or(0) as usize;
                block_index += 1;
                let ib = self
                    .uniform_bindings
                    .get(point)
                    .copied()
                    .unwrap_or_default();
                let buf = self.buffers.get(ib.buffer).filter(|_| ib.buffer != 0);
                let Some((storage, size)) = buf.and_then(|x| x.storage.map(|s| (s, x.size))) else {
                    return invalid_op(format!(
                        "uniform block {} reads binding {point}, which has no buffer",
                        b.name
                    ));
                };
                let avail = size.saturating_sub(ib.offset);
                let range = if ib.size == 0 {
                    avail
                } else {
                    ib.size.min(avail)
                };
                if range < u64::from(b.data_size) {
                    return invalid_op(format!(
                        "uniform block {} needs {} bytes; binding {point} has {range}",
                        b.name, b.data_size
                    ));
                }
                infos.push(vk::DescriptorBufferInfo {
                    buffer: locked.manager.use_buffer(storage)?.raw(),
                    offset: ib.offset,
                    range: range.min(max_range),
                });
            }
            buffer_infos.push((b.binding, infos));
        }
        Ok(buffer_infos)
    }

    /// A 1×1 (0, 0, 0, 1) texture that incomplete or missing textures sample as, with the
    /// image and view type of `target` (2D for samplers of targets this GL has no storage for)
    /// and a format of the sampler's kind (an integer sampler must read an integer view).
    pub(crate) fn dummy_texture(
        &mut self,
        target: Option<TexTarget>,
        kind: SampledKind,
    ) -> GlResult<(ImageHandle, ViewHandle)> {
        let target = target.unwrap_or(TexTarget::D2);
        let (format, one, slot) = match kind {
            SampledKind::Float => (vk::Format::R8G8B8A8_UNORM, 255, 0),
            SampledKind::Int => (vk::Format::R8G8B8A8_SINT, 1, 1),
            SampledKind::UInt => (vk::Format::R8G8B8A8_UINT, 1, 2),
        };
        let index = target.index() * 3 + slot;
        if let Some(d) = self.dummy[index] {
            return Ok(d);
        }
        let device = self.device.clone();
        let mut locked = device.lock();
        // A cube map array's stand-in is one cube: six layer-faces.
        let depth = if target == TexTarget::CubeArray { 6 } else { 1 };
        let mut desc = crate::gl::objects::texture::image_desc(target, format, [1, 1, depth], 1)
            .named("GL incomplete-texture stand-in");
        let layers = desc.array_layers;
        if target.is_multisample() {
            // A multisampled sampler must read a multisampled image: the fewest samples.
            let samples = crate::gl::objects::framebuffer::pick_samples(&device, 1).unwrap_or(1);
            desc.samples = vk::SampleCountFlags::from_raw(samples);
        }
        let (image, view) = locked.image_with_view(
            &desc,
            &crate::gl::objects::texture::full_view(
                target,
                1,
                layers,
                format,
                crate::gl::objects::texture::IDENTITY_SWIZZLE,
            ),
        )?;
        if target.is_multisample() {
            // Multisampled images take no buffer copies: clear every sample instead.
            let raw = locked.manager.transition_image(
                image,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                (
                    vk::PipelineStageFlags::TRANSFER,
                    vk::AccessFlags::TRANSFER_WRITE,
                ),
            )?;
            let cb = locked.manager.recording_command_buffer()?;
            let value = match kind {
                SampledKind::Float => vk::ClearColorValue {
                    float32: [0.0, 0.0, 0.0, 1.0],
                },
                SampledKind::Int => vk::ClearColorValue {
                    int32: [0, 0, 0, 1],
                },
                SampledKind::UInt => vk::ClearColorValue {
                    uint32: [0, 0, 0, 1],
                },
            };
            let range = vk::ImageSubresourceRange {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                base_mip_level: 0,
                level_count: 1,
                base_array_layer: 0,
                layer_count: layers,
            };
            // SAFETY: `cb` is the manager's recording command buffer outside any render pass
            // (stand-ins are made before the draw's pass begins); the image is live, stamped
            // for this epoch by the transition, and in TRANSFER_DST_OPTIMAL.
            unsafe {
                device.raw().cmd_clear_color_image(
                    cb,
                    raw,
                    vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    &value,
                    &[range],
                )
            };
            self.dummy[index] = Some((image, view));
            return Ok((image, view));
        }
        let store = arenagl_staging::PixelStore::default();
        let black = [0u8, 0, 0, one].repeat(layers as usize);
        let mut region = ImageRegion::rect(0, 0, 0, 1, 1);
        region.layer_count = layers;
        locked.manager.upload_image(
            image,
            &region,
            &black,
            &store,
            arenagl_staging::ClientFormat::Rgba,
        )?;
        self.dummy[index] = Some((image, view));
        Ok((image, view))
    }
}
