//! Draw encoding: framebuffer resolution, the open render pass, and what one draw records.
//!
//! Design decisions:
//! - Dynamic rendering, one instance open at a time per context, begun lazily by the first draw
//!   or clear and kept open across draws into the same target. Anything that must happen outside
//!   a render pass (a transfer, a layout transition, a submission the OOM ladder makes) ends it
//!   inside the manager; the encoder notices (the manager no longer reports its instance open)
//!   and begins a new one with load operations, so contents are never lost.
//! - A draw first does everything that may allocate or transition (streaming the default
//!   uniform block, texture layouts, attachment layouts), then descriptor writes, then makes sure
//!   its render pass is open, then records: nothing that could end the pass runs between the
//!   begin and the draw.
//! - Per-draw uniforms are a dynamic offset into the frame's arena block; the set that points at
//!   the block is reused across draws while the block and the descriptor pool stay the same.

pub(crate) mod blend_dst_alpha;
pub(crate) mod clear_buffer;
pub(crate) mod lower;
pub(crate) mod masked_clear;

use std::sync::Arc;

use arenagl_memory::{ImageHandle, ImageRegion, ViewHandle};
use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlError, GlResult};
use crate::gl::context::state::{Rect, MAX_DRAW_BUFFERS};
use crate::gl::context::{Context, Profile};
use crate::gl::draw::lower::is_legacy_mode;
use crate::gl::objects::buffer::Buffer;
use crate::gl::objects::framebuffer::{Attachment, Bound, Target};
use crate::gl::objects::program::Linked;
use crate::gl::objects::texture::target::TexTarget;
use crate::gl::objects::texture::IDENTITY_SWIZZLE;
use crate::gl::objects::vertex_array::VertexArray;
use crate::gl::vk::pipeline::{self, DepthStencilKey, PipelineKey, VertexAttribute, VertexBinding};
use crate::glsl::{SampledKind, ScalarKind};

/// What the open render pass was begun for, and what is bound in it.
#[derive(Default)]
pub(crate) struct Encoder {
    pass: Option<u64>,
    target: Option<Target>,
    pipeline: vk::Pipeline,
    /// Cached default-block set: (arena buffer, pool, layout, recording epoch, set); reused
    /// within its epoch only, as `set0` is.
    default_set: Option<(
        vk::Buffer,
        vk::DescriptorPool,
        vk::DescriptorSetLayout,
        u64,
        vk::DescriptorSet,
    )>,
    /// Set by `end` and read by the context: the device to end the pass on.
    device: Option<Arc<crate::gl::vk::device::Device>>,
    /// The last texture/uniform-block set written (set 0): its contents, pool, recording epoch
    /// and set. A draw of the same epoch whose set would be identical reuses it while its pool is
    /// still the current one (a pool is reset only after it stops being current and its epoch
    /// completes). Only within one epoch: a handle retired in it is not destroyed, so not
    /// reused, before the epoch completes; across epochs an equal handle may be a new object.
    set0: Option<(Set0Contents, vk::DescriptorPool, u64, vk::DescriptorSet)>,
    /// The dynamic state and vertex buffers the last draw set in the open pass, so that a draw
    /// records only what changed (lavapipe, MoltenVK and most mobile drivers pay per command
    /// recorded). Forgotten with the pipeline: a new pass or an internal draw.
    recorded: Option<RecordedState>,
}

/// What a set 0 holds: its layout, and per binding the (sampler, view, layout) of each image,
/// the (buffer, offset, range) of each uniform block and the view of each texel buffer.
#[derive(Debug, Clone, PartialEq)]
struct Set0Contents {
    layout: vk::DescriptorSetLayout,
    images: Vec<(u32, Vec<ImageDescriptor>)>,
    buffers: Vec<(u32, Vec<BufferDescriptor>)>,
    texels: Vec<(u32, Vec<vk::BufferView>)>,
}

/// A combined image sampler descriptor's (sampler, view, layout).
type ImageDescriptor = (vk::Sampler, vk::ImageView, vk::ImageLayout);
/// A uniform buffer descriptor's (buffer, offset, range).
type BufferDescriptor = (vk::Buffer, u64, u64);

impl Set0Contents {
    fn new(
        layout: vk::DescriptorSetLayout,
        images: &[(u32, Vec<vk::DescriptorImageInfo>)],
        buffers: &[(u32, Vec<vk::DescriptorBufferInfo>)],
        texels: &[(u32, Vec<vk::BufferView>)],
    ) -> Self {
        Self {
            layout,
            texels: texels.to_vec(),
            images: images
                .iter()
                .map(|(b, infos)| {
                    let infos = infos
                        .iter()
                        .map(|i| (i.sampler, i.image_view, i.image_layout))
                        .collect();
                    (*b, infos)
                })
                .collect(),
            buffers: buffers
                .iter()
                .map(|(b, infos)| {
                    let infos = infos
                        .iter()
                        .map(|i| (i.buffer, i.offset, i.range))
                        .collect();
                    (*b, infos)
                })
                .collect(),
        }
    }
}

/// What [`Encoder::recorded`] remembers.
#[derive(Debug, Clone, PartialEq)]
struct RecordedState {
    /// x, y, width, height, min depth, max depth.
    viewport: [f32; 6],
    scissor: vk::Rect2D,
    blend_constants: [f32; 4],
    line_width: Option<f32>,
    stencil_reference: [u32; 2],
    vertex_buffers: Vec<(vk::Buffer, u64)>,
}

impl Encoder {
    /// The id of the rendering instance this context last began (it may have ended since).
    pub(crate) fn open_pass(&self) -> Option<u64> {
        self.pass
    }

    /// Ends the open render pass, if this context's is the one open.
    pub(crate) fn end(&mut self) {
        if let (Some(pass), Some(device)) = (self.pass.take(), self.device.as_ref()) {
            let mut locked = device.lock();
            if locked.manager.rendering_command_buffer(pass).is_some() {
                locked.manager.end_rendering();
            }
        }
        self.target = None;
        self.pipeline = vk::Pipeline::null();
        self.recorded = None;
    }
}

/// The most vertices a lowered draw (see `lower`) or a client array may hold: its indices or
/// vertices are built on the CPU and streamed per draw; larger ones report `GL_OUT_OF_MEMORY`.
const MAX_LOWERED_VERTICES: i32 = 1 << 22;
/// The most bytes one client array copies per draw.
const MAX_CLIENT_ARRAY_BYTES: u64 = 256 << 20;

/// What [`Context::draw_program`] resolves: the program and its per-program state.
struct DrawProgram {
    linked: Arc<Linked>,
    uniform_data: Vec<u8>,
    sampler_units: Vec<Vec<u32>>,
    block_bindings: Vec<u32>,
}

fn too_large(what: String) -> GlError {
    GlError::Memory(arenagl_memory::MemoryError::InvalidRequest(what))
}

/// The bytes of client array `arr` up to element `last` (the compatibility profile's vertex
/// arrays in application memory).
fn client_array_bytes(
    arr: &crate::gl::objects::vertex_array::AttribArray,
    last: u32,
) -> GlResult<Vec<u8>> {
    let element =
        crate::gl::objects::vertex_array::AttribArray { stride: 0, ..*arr }.effective_stride();
    let len = u64::from(last) * u64::from(arr.effective_stride()) + u64::from(element);
    if arr.offset == 0 {
        return invalid_op("a client vertex array with a null pointer");
    }
    if len > MAX_CLIENT_ARRAY_BYTES {
        return Err(too_large(format!("a client vertex array of {len} bytes")));
    }
    // SAFETY: a client array is application memory that GL requires to hold every element the
    // draw reads (GL 3.3 compatibility §2.8) until the draw call returns; `len` covers exactly
    // the elements up to `last`, the largest index this draw reads, and it is copied out here.
    let bytes =
        unsafe { std::slice::from_raw_parts(arr.offset as usize as *const u8, len as usize) };
    Ok(bytes.to_vec())
}

/// The last element of `arr` a draw of `instances` reads: per instance, or up to `max_vertex`.
fn last_element(
    arr: &crate::gl::objects::vertex_array::AttribArray,
    instances: i32,
    max_vertex: u32,
) -> u32 {
    (instances.max(1) as u32 - 1)
        .checked_div(arr.divisor)
        .unwrap_or(max_vertex)
}

/// A client array Vulkan has no vertex format for (32-bit integers read as floats, doubles),
/// converted to tightly packed `f32`s: (bytes, stride, format). None for other types.
fn client_array_floats(
    arr: &crate::gl::objects::vertex_array::AttribArray,
    last: u32,
) -> Option<GlResult<(Vec<u8>, u32, vk::Format)>> {
    needs_float_conversion(arr)?;
    Some(client_array_bytes(arr, last).and_then(|raw| to_floats(arr, &raw, last)))
}

/// Bytes per component of an array Vulkan cannot read directly (None: it can, or never).
fn needs_float_conversion(arr: &crate::gl::objects::vertex_array::AttribArray) -> Option<usize> {
    match arr.ty {
        GL_INT | GL_UNSIGNED_INT if !arr.integer => Some(4),
        GL_DOUBLE => Some(8),
        _ => None,
    }
}

/// Converts elements 0..=`last` of `raw` (laid out as `arr` says) to tightly packed `f32`s.
fn to_floats(
    arr: &crate::gl::objects::vertex_array::AttribArray,
    raw: &[u8],
    last: u32,
) -> GlResult<(Vec<u8>, u32, vk::Format)> {
    let comps = arr.size.clamp(1, 4) as usize;
    let width = needs_float_conversion(arr).unwrap_or(4);
    let stride = arr.effective_stride() as usize;
    let needed = last as usize * stride + comps * width;
    if needed > raw.len() {
        return invalid_op(format!(
            "the draw reads vertex {last} of an array holding {} bytes",
            raw.len()
        ));
    }
    let mut out = Vec::with_capacity((last as usize + 1) * comps * 4);
    for v in 0..=last as usize {
        for c in 0..comps {
            let at = v * stride + c * width;
            let Some(b) = raw.get(at..at + width) else {
                return invalid_op("vertex array shorter than the draw reads");
            };
            let x = match (arr.ty, arr.normalized) {
                (GL_DOUBLE, _) => f64::from_ne_bytes(b.try_into().unwrap_or([0; 8])) as f32,
                (GL_INT, false) => i32::from_ne_bytes(b.try_into().unwrap_or([0; 4])) as f32,
                (GL_INT, true) => (i32::from_ne_bytes(b.try_into().unwrap_or([0; 4])) as f64
                    / i32::MAX as f64)
                    .max(-1.0) as f32,
                (_, false) => u32::from_ne_bytes(b.try_into().unwrap_or([0; 4])) as f32,
                (_, true) => {
                    (u32::from_ne_bytes(b.try_into().unwrap_or([0; 4])) as f64 / u32::MAX as f64)
                        as f32
                }
            };
            out.extend_from_slice(&x.to_ne_bytes());
        }
    }
    let format = [
        vk::Format::R32_SFLOAT,
        vk::Format::R32G32_SFLOAT,
        vk::Format::R32G32B32_SFLOAT,
        vk::Format::R32G32B32A32_SFLOAT,
    ][comps - 1];
    Ok((out, (comps * 4) as u32, format))
}

/// A draw call as GL states it.
#[derive(Debug, Clone, Copy)]
pub struct DrawCall {
    pub mode: GLenum,
    pub first: i32,
    pub count: i32,
    pub instances: i32,
    /// (index type, byte offset in the element buffer, base vertex) for indexed draws.
    pub indexed: Option<(GLenum, u64, i32)>,
}

fn topology(mode: GLenum) -> GlResult<vk::PrimitiveTopology> {
    use vk::PrimitiveTopology as T;
    Ok(match mode {
        GL_POINTS => T::POINT_LIST,
        GL_LINES => T::LINE_LIST,
        GL_LINE_STRIP => T::LINE_STRIP,
        GL_TRIANGLES => T::TRIANGLE_LIST,
        GL_TRIANGLE_STRIP => T::TRIANGLE_STRIP,
        GL_TRIANGLE_FAN => T::TRIANGLE_FAN,
        GL_LINES_ADJACENCY => T::LINE_LIST_WITH_ADJACENCY,
        GL_LINE_STRIP_ADJACENCY => T::LINE_STRIP_WITH_ADJACENCY,
        GL_TRIANGLES_ADJACENCY => T::TRIANGLE_LIST_WITH_ADJACENCY,
        GL_TRIANGLE_STRIP_ADJACENCY => T::TRIANGLE_STRIP_WITH_ADJACENCY,
        // Vulkan has no loops: non-indexed loops are drawn as a strip over generated indices that
        // end where they began (see `draw_inner`).
        GL_LINE_LOOP => T::LINE_STRIP,
        m => return invalid_enum("primitive mode", m),
    })
}

/// A colour clear value as the buffer's kind takes it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum ClearColor {
    Float([f32; 4]),
    Int([i32; 4]),
    Uint([u32; 4]),
}

impl ClearColor {
    fn vulkan(self) -> vk::ClearColorValue {
        match self {
            ClearColor::Float(float32) => vk::ClearColorValue { float32 },
            ClearColor::Int(int32) => vk::ClearColorValue { int32 },
            ClearColor::Uint(uint32) => vk::ClearColorValue { uint32 },
        }
    }
}

/// What one clear writes: colour draw-buffer slots with their values, depth, stencil.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ClearRequest {
    pub colors: Vec<(usize, ClearColor)>,
    pub depth: Option<f32>,
    pub stencil: Option<u32>,
}

/// The intersection of a GL rectangle with the target, as a Vulkan rect (None when empty).
fn clip(r: Rect, w: u32, h: u32) -> Option<vk::Rect2D> {
    let x0 = r.x.max(0) as i64;
    let y0 = r.y.max(0) as i64;
    let x1 = (r.x as i64 + r.width as i64).min(w as i64);
    let y1 = (r.y as i64 + r.height as i64).min(h as i64);
    (x1 > x0 && y1 > y0).then(|| vk::Rect2D {
        offset: vk::Offset2D {
            x: x0 as i32,
            y: y0 as i32,
        },
        extent: vk::Extent2D {
            width: (x1 - x0) as u32,
            height: (y1 - y0) as u32,
        },
    })
}

impl Context {
    /// Ends this context's render pass (before transfers and at the end of a frame).
    pub(crate) fn end_pass(&mut self) {
        self.encoder.device = Some(self.device.clone());
        self.encoder.end();
    }

    /// The single-level, single-layer view of a texture level used as an attachment.
    fn texture_level(&mut self, name: u32, level: u32, layer: u32) -> Result<Bound, GLenum> {
        let device = self.device.clone();
        let t = self
            .textures
            .get_mut(name)
            .ok_or(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT)?;
        let s = t
            .storage
            .as_mut()
            .ok_or(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT)?;
        let face = if s.target == crate::gl::objects::texture::target::TexTarget::Cube {
            layer
        } else {
            0
        };
        if !s.face_level_defined(face, level) || layer >= s.attachable_layers(level) {
            return Err(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
        }
        let view = match s.level_views.get(&(level, layer)) {
            Some(v) => *v,
            None => {
                let desc = crate::gl::objects::texture::attachment_view(level, layer, s.format);
                let v = device
                    .lock()
                    .manager
                    .create_view(s.image, &desc)
                    .map_err(|_| GL_FRAMEBUFFER_UNSUPPORTED)?;
                s.level_views.insert((level, layer), v);
                v
            }
        };
        Ok(Bound {
            image: s.image,
            view,
            format: s.format,
            level,
            layer,
            samples: s.samples.max(1),
        })
    }

    fn attachment(&mut self, a: Attachment) -> Result<(Bound, u32, u32), GLenum> {
        match a {
            Attachment::Texture { name, level, layer } => {
                let b = self.texture_level(name, level, layer)?;
                let size = self
                    .textures
                    .get(name)
                    .and_then(|t| t.storage.as_ref())
                    .map(|s| {
                        let [w, h, _] = s.level_size(level);
                        if s.target == crate::gl::objects::texture::target::TexTarget::D1Array {
                            (w, 1)
                        } else {
                            (w, h)
                        }
                    })
                    .ok_or(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT)?;
                Ok((b, size.0, size.1))
            }
            Attachment::Renderbuffer(name) => {
                let rb = self
                    .renderbuffers
                    .get(name)
                    .ok_or(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT)?;
                let (image, view) = rb.storage.ok_or(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT)?;
                Ok((
                    Bound {
                        image,
                        view,
                        format: rb.format,
                        level: 0,
                        layer: 0,
                        samples: rb.samples.max(1),
                    },
                    rb.width,
                    rb.height,
                ))
            }
        }
    }

    /// GL 4.6 §9.4.2: every attached texture has the same `GL_TEXTURE_FIXED_SAMPLE_LOCATIONS`,
    /// and it is true for all of them when renderbuffers are attached too.
    fn sample_locations_agree(&self, fb: &crate::gl::objects::framebuffer::Framebuffer) -> bool {
        let mut fixed = Vec::new();
        let mut renderbuffer = false;
        for a in fb.colors.iter().chain([&fb.depth, &fb.stencil]).flatten() {
            match a {
                Attachment::Renderbuffer(_) => renderbuffer = true,
                Attachment::Texture { name, .. } => fixed.extend(
                    self.textures
                        .get(*name)
                        .and_then(|t| t.storage.as_ref())
                        .map(|s| s.fixed_locations),
                ),
            }
        }
        let all_fixed = fixed.iter().all(|&f| f);
        all_fixed || (!renderbuffer && fixed.iter().all(|&f| !f))
    }

    /// Resolves framebuffer `name` for drawing (`draw`) or reading; the error is the
    /// `glCheckFramebufferStatus` value.
    pub(crate) fn resolve_framebuffer(&mut self, name: u32, draw: bool) -> Result<Target, GLenum> {
        if name == 0 {
            let surface = if draw {
                &self.surface
            } else {
                &self.read_surface
            };
            let s = surface.as_ref().ok_or(GL_FRAMEBUFFER_UNDEFINED)?;
            let selected = if draw {
                self.default_draw_buffer
            } else {
                self.default_read_buffer
            };
            let color = (selected != GL_NONE).then_some(Bound {
                image: s.color.0,
                view: s.color.1,
                format: s.color_format,
                level: 0,
                layer: 0,
                samples: 1,
            });
            return Ok(Target {
                width: s.render_width,
                height: s.render_height,
                gl_size: (s.width, s.height),
                colors: vec![color],
                depth_stencil: Some(Bound {
                    image: s.depth.0,
                    view: s.depth.1,
                    format: s.depth_format,
                    level: 0,
                    layer: 0,
                    samples: 1,
                }),
                samples: 1,
            });
        }
        let fb = self
            .framebuffers
            .get(name)
            .ok_or(GL_FRAMEBUFFER_UNDEFINED)?
            .clone();
        let mut size: Option<(u32, u32)> = None;
        let mut samples: Option<u32> = None;
        let mut add = |w: u32, h: u32, n: u32| {
            size = Some(size.map_or((w, h), |(a, b)| (a.min(w), b.min(h))));
            if samples.is_some_and(|s| s != n) {
                return Err(GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE);
            }
            samples = Some(n);
            Ok(())
        };
        // Every colour attachment, by attachment index.
        let mut attached = [None; crate::gl::objects::framebuffer::MAX_COLOR_ATTACHMENTS];
        for (i, a) in fb.colors.iter().enumerate() {
            let Some(a) = a else { continue };
            let (b, w, h) = self.attachment(*a)?;
            if crate::gl::objects::framebuffer::is_depth_format(b.format) {
                return Err(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
            }
            add(w, h, b.samples)?;
            attached[i] = Some(b);
        }
        let depth_stencil = match fb.depth.or(fb.stencil) {
            Some(a) => {
                let (b, w, h) = self.attachment(a)?;
                if !crate::gl::objects::framebuffer::is_depth_format(b.format) {
                    return Err(GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
                }
                add(w, h, b.samples)?;
                Some(b)
            }
            None => None,
        };
        if size.is_none() {
            return Err(GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT);
        }
        if !self.sample_locations_agree(&fb) {
            return Err(GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE);
        }
        let named = |buffer: GLenum| {
            buffer
                .checked_sub(GL_COLOR_ATTACHMENT0)
                .and_then(|i| attached.get(i as usize))
        };
        // Drawing: slot i (fragment output i) writes the attachment draw buffer i names, so
        // `glDrawBuffers({GL_NONE, GL_COLOR_ATTACHMENT0})` routes output 1 to attachment 0.
        // Reading: the read buffer's attachment, at its own index.
        let mut colors = Vec::new();
        if draw {
            for &buffer in &fb.draw_buffers {
                if buffer == GL_NONE {
                    colors.push(None);
                    continue;
                }
                match named(buffer) {
                    Some(Some(b)) => colors.push(Some(*b)),
                    _ => return Err(GL_FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER),
                }
            }
        } else {
            for (i, b) in attached.iter().enumerate() {
                let selected = fb.read_buffer == GL_COLOR_ATTACHMENT0 + i as u32;
                colors.push(b.filter(|_| selected));
            }
        }
        while colors.last() == Some(&None) {
            colors.pop();
        }
        let (width, height) = size.unwrap_or((0, 0));
        Ok(Target {
            width,
            height,
            gl_size: (width, height),
            colors,
            depth_stencil,
            samples: samples.unwrap_or(1),
        })
    }

    pub(crate) fn draw_target(&mut self) -> GlResult<Target> {
        let fb = self.draw_framebuffer;
        self.resolve_framebuffer(fb, true).map_err(|status| {
            GlError::InvalidFramebuffer(format!(
                "the draw framebuffer is not complete (status 0x{status:04X})"
            ))
        })
    }

    pub(crate) fn prepare_attachments_for(&mut self, target: &Target) -> GlResult<()> {
        self.prepare_attachments(target)
    }

    pub(crate) fn pass_for_target(&mut self, target: &Target) -> GlResult<vk::CommandBuffer> {
        self.pass_for(target)
    }

    /// Makes the next draw bind its pipeline again (an internal draw bound another).
    pub(crate) fn encoder_forget_pipeline(&mut self) {
        self.encoder.pipeline = vk::Pipeline::null();
        self.encoder.recorded = None;
    }

    /// Puts the target's attachments in attachment layouts (outside any pass).
    fn prepare_attachments(&mut self, target: &Target) -> GlResult<()> {
        let mut locked = self.device.lock();
        for b in target.colors.iter().flatten() {
            if locked.manager.image_layout(b.image)? != vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL {
                locked.manager.transition_image(
                    b.image,
                    vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
                    (
                        vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
                        vk::AccessFlags::COLOR_ATTACHMENT_READ
                            | vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
                    ),
                )?;
            }
        }
        if let Some(d) = target.depth_stencil {
            if locked.manager.image_layout(d.image)?
                != vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL
            {
                locked.manager.transition_image(
                    d.image,
                    vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                    (
                        vk::PipelineStageFlags::EARLY_FRAGMENT_TESTS
                            | vk::PipelineStageFlags::LATE_FRAGMENT_TESTS,
                        vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_READ
                            | vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE,
                    ),
                )?;
            }
        }
        Ok(())
    }

    /// The command buffer inside this context's render pass for `target`, beginning one if
    /// needed. Call only after everything that may end a pass.
    fn pass_for(&mut self, target: &Target) -> GlResult<vk::CommandBuffer> {
        let device = self.device.clone();
        let mut locked = device.lock();
        if let (Some(pass), Some(t)) = (self.encoder.pass, &self.encoder.target) {
            if t == target {
                if let Some(cb) = locked.manager.rendering_command_buffer(pass) {
                    return Ok(cb);
                }
            }
        }
        let mut views = Vec::new();
        for b in &target.colors {
            views.push(match b {
                Some(b) => Some(locked.manager.use_view(b.view)?.raw()),
                None => None,
            });
        }
        let colors: Vec<vk::RenderingAttachmentInfo> = views
            .iter()
            .map(|v| match v {
                Some(view) => vk::RenderingAttachmentInfo::default()
                    .image_view(*view)
                    .image_layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)
                    .load_op(vk::AttachmentLoadOp::LOAD)
                    .store_op(vk::AttachmentStoreOp::STORE),
                None => vk::RenderingAttachmentInfo::default(),
            })
            .collect();
        let depth_view = match target.depth_stencil {
            Some(d) => Some(locked.manager.use_view(d.view)?.raw()),
            None => None,
        };
        let depth = depth_view.map(|v| {
            vk::RenderingAttachmentInfo::default()
                .image_view(v)
                .image_layout(vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL)
                .load_op(vk::AttachmentLoadOp::LOAD)
                .store_op(vk::AttachmentStoreOp::STORE)
        });
        let mut info = vk::RenderingInfo::default()
            .render_area(vk::Rect2D {
                offset: vk::Offset2D { x: 0, y: 0 },
                extent: vk::Extent2D {
                    width: target.width.max(1),
                    height: target.height.max(1),
                },
            })
            .layer_count(1)
            .color_attachments(&colors);
        if let Some(d) = depth.as_ref() {
            info = info.depth_attachment(d);
            if target.has_stencil() {
                info = info.stencil_attachment(d);
            }
        }
        let pass = locked.manager.begin_rendering(&info)?;
        let cb = locked
            .manager
            .rendering_command_buffer(pass)
            .ok_or(GlError::Memory(arenagl_memory::MemoryError::Internal(
                "rendering did not open",
            )))?;
        self.encoder.pass = Some(pass);
        self.encoder.target = Some(target.clone());
        self.encoder.pipeline = vk::Pipeline::null();
        self.encoder.recorded = None;
        self.encoder.device = Some(device.clone());
        Ok(cb)
    }

    /// `glClear`.
    pub fn clear(&mut self, mask: u32) {
        let r = self.clear_inner(mask);
        self.record(r);
    }

    fn clear_inner(&mut self, mask: u32) -> GlResult<()> {
        let all = GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT;
        if mask & !all != 0 {
            return invalid_value(format!("glClear mask 0x{mask:x}"));
        }
        let target = self.draw_target()?;
        let c = self.fixed.clear_color;
        let colors = if mask & GL_COLOR_BUFFER_BIT != 0 {
            (0..target.colors.len())
                .map(|i| (i, ClearColor::Float(c)))
                .collect()
        } else {
            Vec::new()
        };
        let request = ClearRequest {
            colors,
            depth: (mask & GL_DEPTH_BUFFER_BIT != 0).then_some(self.fixed.clear_depth as f32),
            stencil: (mask & GL_STENCIL_BUFFER_BIT != 0).then_some(self.fixed.clear_stencil as u32),
        };
        self.clear_target(&target, request)
    }

    /// Clears what `request` names in `target` (the draw framebuffer) through the scissor, the
    /// colour masks, the depth mask and the stencil write mask; discarded under conditional
    /// rendering and rasterizer discard (GL 4.6 §17.4.3: `glClear` and `glClearBuffer*` alike).
    pub(crate) fn clear_target(&mut self, target: &Target, request: ClearRequest) -> GlResult<()> {
        if self.render_discarded() || self.fixed.rasterizer_discard {
            return Ok(());
        }
        let area = if self.fixed.scissor_test {
            self.fixed.scissor
        } else {
            Rect {
                x: 0,
                y: 0,
                width: i32::MAX,
                height: i32::MAX,
            }
        };
        let Some(rect) = clip(target.to_image(area), target.width, target.height) else {
            return Ok(());
        };
        let mut clears = Vec::new();
        // Draw buffer i clears through its own mask: whole ones with vkCmdClearAttachments,
        // partial ones with a masked draw (float colours; an integer buffer under a partial
        // mask is cleared whole).
        let masks = self
            .fixed
            .color_mask
            .map(crate::gl::context::state::mask_bits);
        let mut masked: Option<([f32; 4], [u8; MAX_DRAW_BUFFERS])> = None;
        for (i, value) in request.colors {
            if target.colors.get(i).copied().flatten().is_none() {
                continue;
            }
            let mask = masks.get(i).copied().unwrap_or(0xF);
            if mask == 0 {
                continue;
            }
            if let (true, ClearColor::Float(c)) = (mask != 0xF, value) {
                let entry = masked.get_or_insert((c, [0; MAX_DRAW_BUFFERS]));
                if entry.0 == c {
                    entry.1[i] = mask;
                    continue;
                }
                // A second colour under a partial mask (glClearBuffer clears one buffer, so
                // only glClear could, and it has one colour): cleared whole.
            }
            clears.push(vk::ClearAttachment {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                color_attachment: i as u32,
                clear_value: vk::ClearValue {
                    color: value.vulkan(),
                },
            });
        }
        if let Some((c, m)) = masked {
            self.masked_color_clear(target, rect, c, m)?;
        }
        let mut aspects = vk::ImageAspectFlags::empty();
        if request.depth.is_some() && self.fixed.depth_mask && target.has_depth() {
            aspects |= vk::ImageAspectFlags::DEPTH;
        }
        if request.stencil.is_some()
            && target.has_stencil()
            && self.fixed.stencil[0].write_mask != 0
        {
            aspects |= vk::ImageAspectFlags::STENCIL;
        }
        if !aspects.is_empty() {
            clears.push(vk::ClearAttachment {
                aspect_mask: aspects,
                color_attachment: 0,
                clear_value: vk::ClearValue {
                    depth_stencil: vk::ClearDepthStencilValue {
                        depth: request.depth.unwrap_or(0.0).clamp(0.0, 1.0),
                        stencil: request.stencil.unwrap_or(0),
                    },
                },
            });
        }
        if clears.is_empty() {
            return Ok(());
        }
        self.prepare_attachments(target)?;
        let cb = self.pass_for(target)?;
        let rects = [vk::ClearRect {
            rect,
            base_array_layer: 0,
            layer_count: 1,
        }];
        // SAFETY: `cb` is inside this context's render pass for `target`; every cleared
        // attachment exists in it and the rect lies inside the render area.
        unsafe { self.device.raw().cmd_clear_attachments(cb, &clears, &rects) };
        Ok(())
    }

    /// The buffer an array of `vao` names: a live one, or one deleted while `vao` held it.
    fn vao_buffer<'a>(&'a self, vao: &'a VertexArray, name: u32) -> Option<&'a Buffer> {
        vao.retained_buffer(name).or_else(|| self.buffers.get(name))
    }

    /// `vao`'s element array buffer: a live one, or one deleted while `vao` held it.
    fn element_buffer_of<'a>(&'a self, vao: &'a VertexArray) -> Option<&'a Buffer> {
        match &vao.element_retained {
            Some(r) => Some(&r.buffer),
            None => self.buffers.get(vao.element_buffer),
        }
    }

    /// `len` bytes of indices at `offset` of `vao`'s element buffer, or in a compatibility
    /// context with none bound, at the client pointer `offset`.
    fn index_bytes(&mut self, vao: &VertexArray, offset: u64, len: u64) -> GlResult<Vec<u8>> {
        if vao.element_buffer == 0 {
            if self.profile != Profile::Compatibility {
                return invalid_op("indexed draw with no element array buffer bound");
            }
            if offset == 0 {
                return invalid_op("indexed draw with no element buffer and a null index pointer");
            }
            // SAFETY: with no element buffer bound, a compatibility context's indices are
            // application memory the application must keep valid for `count` indices during
            // the call (GL 3.3 compatibility §2.8.1); `len` is exactly that.
            let bytes =
                unsafe { std::slice::from_raw_parts(offset as usize as *const u8, len as usize) };
            return Ok(bytes.to_vec());
        }
        let b = self
            .element_buffer_of(vao)
            .ok_or_else(|| GlError::InvalidOperation("element buffer gone".into()))?;
        if b.mapped_exclusively() {
            return invalid_op("draw from a mapped element buffer");
        }
        let end = offset.saturating_add(len).min(b.size);
        let mut out = vec![0u8; end.saturating_sub(offset) as usize];
        if out.is_empty() {
            return Ok(out);
        }
        if let Some(shadow) = &b.shadow {
            out.copy_from_slice(&shadow[offset as usize..end as usize]);
        } else if let Some(h) = b.storage {
            self.device
                .lock()
                .manager
                .read_buffer_range(h, offset, &mut out)?;
        } else {
            return invalid_op("the element buffer has no data");
        }
        Ok(out)
    }

    /// The bytes of buffer array `arr` up to element `last` (fewer where the buffer ends
    /// first): from the buffer's CPU shadow, else read back from the GPU (a stall, on a path GL
    /// programs rarely take).
    fn buffer_array_bytes(
        &self,
        vao: &VertexArray,
        arr: &crate::gl::objects::vertex_array::AttribArray,
        last: u32,
    ) -> GlResult<Vec<u8>> {
        let b = self
            .vao_buffer(vao, arr.buffer)
            .ok_or_else(|| GlError::InvalidOperation("vertex buffer gone".into()))?;
        if b.mapped_exclusively() {
            return invalid_op("draw from a mapped vertex buffer");
        }
        let element =
            crate::gl::objects::vertex_array::AttribArray { stride: 0, ..*arr }.effective_stride();
        let span = u64::from(last) * u64::from(arr.effective_stride()) + u64::from(element);
        let end = arr.offset.saturating_add(span).min(b.size);
        let mut out = vec![0u8; end.saturating_sub(arr.offset) as usize];
        if out.is_empty() {
            return Ok(out);
        }
        if let Some(shadow) = &b.shadow {
            if let Some(src) = shadow.get(arr.offset as usize..end as usize) {
                out.copy_from_slice(src);
                return Ok(out);
            }
        }
        let Some(storage) = b.storage else {
            return invalid_op("the vertex buffer has no data");
        };
        let mut locked = self.device.lock();
        crate::gl::context::error::until_done(|| {
            locked
                .manager
                .read_buffer_range(storage, arr.offset, &mut out)
        })?;
        Ok(out)
    }

    /// The elements of a misaligned array (`AttribArray::misaligned`) that `call` can read,
    /// packed at an aligned stride: from the buffer's CPU shadow, else read back from the GPU (a
    /// stall, on a path GL programs rarely take). Non-indexed per-vertex draws need the elements
    /// up to their last vertex, per-instance arrays one per `divisor` instances, indexed draws
    /// every element that fits in the buffer.
    fn repacked_attribute(
        &self,
        arr: &crate::gl::objects::vertex_array::AttribArray,
        b: &crate::gl::objects::buffer::Buffer,
        storage: arenagl_memory::BufferHandle,
        call: &DrawCall,
    ) -> GlResult<(Vec<u8>, u32)> {
        let stride = arr.effective_stride();
        let element = arr.element_size();
        let fit = crate::gl::objects::vertex_array::elements_that_fit(
            b.size, arr.offset, stride, element,
        );
        let needed = if arr.divisor > 0 {
            (call.instances as u64).div_ceil(u64::from(arr.divisor))
        } else if call.indexed.is_none() {
            call.first as u64 + call.count as u64
        } else {
            fit
        };
        let count = needed.min(fit);
        if count == 0 {
            // Nothing of the array fits: one zero element keeps the binding valid.
            let packed = element.next_multiple_of(4);
            return Ok((vec![0; packed as usize], packed));
        }
        let span = (count - 1) * u64::from(stride) + u64::from(element);
        let bytes;
        let src = match &b.shadow {
            Some(shadow) => shadow
                .get(arr.offset as usize..(arr.offset + span) as usize)
                .ok_or_else(|| {
                    GlError::InvalidOperation("buffer shadow shorter than the buffer".into())
                })?,
            None => {
                let mut read = vec![0u8; span as usize];
                let mut locked = self.device.lock();
                crate::gl::context::error::until_done(|| {
                    locked
                        .manager
                        .read_buffer_range(storage, arr.offset, &mut read)
                })?;
                bytes = read;
                &bytes[..]
            }
        };
        Ok(crate::gl::objects::vertex_array::repack(
            src,
            0,
            stride as usize,
            element as usize,
            count as usize,
        ))
    }

    /// Per-draw-buffer blend state a draw into `attachments` colour attachments can build:
    /// dual-source factors feed at most `GL_MAX_DUAL_SOURCE_DRAW_BUFFERS` (1) draw buffers, and
    /// without `independentBlend` every attachment needs the same enable, mask and (where
    /// blending is on: `pipeline` builds disabled attachments with the initial factors)
    /// factors and equations.
    fn check_blend_state(&self, attachments: usize) -> GlResult<()> {
        let b = &self.fixed.blend;
        let n = attachments.min(crate::gl::context::state::MAX_DRAW_BUFFERS);
        // ARB_blend_func_extended: any draw buffer with blending on and a SRC1 factor, while
        // more draw buffers than MAX_DUAL_SOURCE_DRAW_BUFFERS are active.
        let dual = (0..n).any(|i| b.enabled & (1 << i) != 0 && b.funcs[i].is_dual_source());
        if dual && attachments > 1 {
            return invalid_op(format!(
                "dual-source blending into {attachments} draw buffers (GL_MAX_DUAL_SOURCE_DRAW_BUFFERS is 1)"
            ));
        }
        if !self.device.caps().independent_blend && n > 1 {
            let enables: Vec<bool> = (0..n).map(|i| b.enabled & (1 << i) != 0).collect();
            let masks = &self.fixed.color_mask[..n];
            let funcs = &b.funcs[..n];
            if enables.windows(2).any(|w| w[0] != w[1])
                || masks.windows(2).any(|w| w[0] != w[1])
                || (enables[0] && funcs.windows(2).any(|w| w[0] != w[1]))
            {
                return invalid_op(
                    "draw buffers with different blend state or colour masks need the independentBlend feature, which this device lacks",
                );
            }
        }
        Ok(())
    }

    /// The program a draw runs: the current one, or with none in a compatibility context the
    /// fixed-function one. `GL_INVALID_OPERATION` when there is none or it is not linked.
    fn draw_program(&mut self) -> GlResult<DrawProgram> {
        if self.program == 0 {
            if self.profile != Profile::Compatibility {
                return invalid_op("draw with no current program");
            }
            // The compatibility profile's fixed function.
            let (linked, sampler_units) = self.ff_program()?;
            let uniform_data = vec![0u8; linked.default_block_size as usize];
            return Ok(DrawProgram {
                linked,
                uniform_data,
                sampler_units,
                block_bindings: Vec::new(),
            });
        }
        let p = self
            .programs
            .get(self.program)
            .ok_or_else(|| GlError::InvalidOperation("the current program is gone".into()))?;
        let linked = p.linked("draw")?;
        if let Some(why) =
            crate::gl::objects::program::sampler_unit_conflict(linked, &p.sampler_units)
        {
            return invalid_op(format!("draw: {why}"));
        }
        Ok(DrawProgram {
            linked: linked.clone(),
            uniform_data: p.uniform_data.clone(),
            sampler_units: p.sampler_units.clone(),
            block_bindings: p.block_bindings.clone(),
        })
    }

    /// The errors a drawing command raises from the current state alone, whatever its
    /// arguments: no program that can draw (`draw_program`), an incomplete draw framebuffer,
    /// blend state its draw buffers cannot take (`check_blend_state`). `glBegin` raises them
    /// too, as "Begin or any procedure that implicitly calls Begin" (ARB_blend_func_extended,
    /// GL 3.2 compatibility §2.6.3), and then does not start a primitive.
    pub(crate) fn check_draw_state(&mut self) -> GlResult<()> {
        self.draw_program()?;
        let target = self.draw_target()?;
        self.check_blend_state(target.colors.len())
    }

    /// Every draw call.
    pub fn draw(&mut self, call: DrawCall) {
        let r = self.draw_inner(call);
        self.record(r);
    }

    fn draw_inner(&mut self, call: DrawCall) -> GlResult<()> {
        let compat = self.profile == Profile::Compatibility;
        if is_legacy_mode(call.mode) {
            if !compat {
                return invalid_enum("primitive mode (core profile)", call.mode);
            }
        } else {
            topology(call.mode)?;
        }
        if self.compat.immediate.is_some() && self.vao_override.is_none() {
            return invalid_op("draw between glBegin and glEnd");
        }
        if call.count < 0 || call.instances < 0 || call.first < 0 {
            return invalid_value(format!(
                "draw count {} first {} instances {}",
                call.count, call.first, call.instances
            ));
        }
        let DrawProgram {
            linked,
            mut uniform_data,
            sampler_units,
            block_bindings,
        } = self.draw_program()?;
        if !linked.ff_uniforms.is_empty() {
            self.fill_ff_uniforms(&linked, &sampler_units, &mut uniform_data);
        }
        let vao = match self
            .vao_override
            .clone()
            .or_else(|| self.current_vao().cloned())
        {
            Some(v) => v,
            None => return invalid_op("draw with no vertex array object bound (core profile)"),
        };
        let reads_client_memory = linked.attribs.iter().any(|a| {
            (0..a.slots).any(|s| {
                vao.attribs
                    .get((a.gl_location + s) as usize)
                    .is_some_and(|arr| arr.enabled && arr.buffer == 0)
            })
        });
        if reads_client_memory && !compat {
            return invalid_op("client-side vertex arrays need a compatibility profile context");
        }
        // Arrays rewritten on the CPU (client memory, 32-bit integers or doubles read as floats,
        // narrow integers widened) are copied up to the last vertex the draw reads, which only
        // the indices say for an indexed draw: such draws are lowered, which scans them.
        let rewrites_arrays = reads_client_memory
            || linked.attribs.iter().any(|a| {
                let scalar = a.scalar();
                let float_input = !matches!(scalar, ScalarKind::Int | ScalarKind::UInt);
                (0..a.slots).any(|s| {
                    vao.attribs
                        .get((a.gl_location + s) as usize)
                        .is_some_and(|arr| {
                            arr.enabled
                                && ((float_input && needs_float_conversion(arr).is_some())
                                    || crate::gl::objects::vertex_array::needs_integer_widening(
                                        arr, scalar,
                                    )
                                    .is_some())
                        })
                })
            });
        let index_size = match call.indexed {
            Some((GL_UNSIGNED_BYTE, ..)) => 1u64,
            Some((GL_UNSIGNED_SHORT, ..)) => 2,
            Some((GL_UNSIGNED_INT, ..)) => 4,
            Some((t, ..)) => return invalid_enum("index type", t),
            None => 0,
        };
        let restart_value = self
            .fixed
            .primitive_restart
            .then_some(self.fixed.restart_index);
        let type_max = match index_size {
            1 => 0xFF,
            2 => 0xFFFF,
            _ => 0xFFFF_FFFF,
        };
        // Draws Vulkan cannot take as they are become a u32 index list (see `lower`).
        let lowering = is_legacy_mode(call.mode)
            || call.mode == GL_LINE_LOOP
            || (call.indexed.is_some()
                && ((compat && vao.element_buffer == 0)
                    || rewrites_arrays
                    || restart_value.is_some_and(|r| r != type_max)));
        // The pipeline's provoking vertex: GL's convention where the device can follow it;
        // lowered quads, quad strips and polygons are ordered for it (`lower::Provoking`).
        let provoking_last = self.device.caps().provoking_vertex_last
            && self.fixed.provoking_vertex == GL_LAST_VERTEX_CONVENTION;
        let lowered = if lowering {
            if call.count > MAX_LOWERED_VERTICES {
                return Err(too_large(format!(
                    "a draw of {} vertices in mode 0x{:04X} that must be lowered on the CPU",
                    call.count, call.mode
                )));
            }
            let raw: Vec<u32> = match call.indexed {
                Some((ty, offset, _)) => {
                    let bytes = self.index_bytes(&vao, offset, call.count as u64 * index_size)?;
                    lower::decode_indices(ty, &bytes)
                }
                None => (call.first as u32..(call.first as u32).saturating_add(call.count as u32))
                    .collect(),
            };
            let restart = call.indexed.and(restart_value);
            let base = call.indexed.map_or(0, |i| i.2);
            let provoking = if provoking_last {
                lower::Provoking::Last
            } else {
                lower::Provoking::First
            };
            Some(lower::lower(
                call.mode,
                raw.into_iter(),
                base,
                restart,
                provoking,
            ))
        } else {
            None
        };
        let draw_mode = lowered.as_ref().map_or(call.mode, |l| l.mode);
        let topo = topology(draw_mode)?;
        let element = match call.indexed.filter(|_| lowered.is_none()) {
            Some((ty, offset, _)) => {
                let size = match ty {
                    GL_UNSIGNED_BYTE => 1,
                    GL_UNSIGNED_SHORT => 2,
                    GL_UNSIGNED_INT => 4,
                    t => return invalid_enum("index type", t),
                };
                if vao.element_buffer == 0 {
                    return invalid_op("indexed draw with no element array buffer bound");
                }
                let b = self
                    .element_buffer_of(&vao)
                    .ok_or_else(|| GlError::InvalidOperation("element buffer gone".into()))?;
                if b.mapped_exclusively() {
                    return invalid_op("draw from a mapped element buffer");
                }
                if size == 1 && !self.device.caps().index_u8 {
                    return invalid_op(
                        "GL_UNSIGNED_BYTE indices need VK_EXT_index_type_uint8, which this device lacks",
                    );
                }
                if offset % size != 0 {
                    return invalid_op(format!(
                        "index offset {offset} not aligned to the index size"
                    ));
                }
                Some((b.storage, b.size, offset, size, ty))
            }
            None => None,
        };
        let target = self.draw_target()?;
        if call.count == 0 || call.instances == 0 {
            return Ok(());
        }
        // The last vertex a per-vertex array is read at (client arrays copy up to it).
        let max_vertex = match &lowered {
            Some(l) => match l.max_vertex {
                Some(m) => m,
                None => return Ok(()), // nothing left to draw
            },
            None => (call.first as u32).saturating_add(call.count as u32 - 1),
        };
        let scissor_area = if self.fixed.scissor_test {
            self.fixed.scissor
        } else {
            Rect {
                x: 0,
                y: 0,
                width: i32::MAX,
                height: i32::MAX,
            }
        };
        // An empty viewport or scissor draws nothing but still generates primitives (counted
        // once the draw is known valid, below).
        let scissor = if self.fixed.viewport.width == 0 || self.fixed.viewport.height == 0 {
            None
        } else {
            clip(target.to_image(scissor_area), target.width, target.height)
        };

        // Vertex input.
        let mut bindings = Vec::new();
        let mut attributes = Vec::new();
        let mut sources: Vec<(Option<arenagl_memory::BufferHandle>, u64, Option<Vec<u8>>)> =
            Vec::new();
        for a in &linked.attribs {
            for slot in 0..a.slots {
                let gl_loc = (a.gl_location + slot) as usize;
                let binding = bindings.len() as u32;
                let scalar = a.scalar();
                let integer_shader = matches!(scalar, ScalarKind::Int | ScalarKind::UInt);
                let mut arr = vao.attribs.get(gl_loc).copied().unwrap_or_default();
                // Compatibility profile: generic attribute 0 aliases gl_Vertex (GL 3.3
                // compatibility §2.7), so a legacy shader reading gl_Vertex draws from an
                // array given with glVertexAttribPointer(0, …).
                if gl_loc == crate::gl::objects::vertex_array::FfArray::Vertex.slot()
                    && !arr.enabled
                {
                    if let Some(generic) = vao.attribs.first().filter(|g| g.enabled) {
                        arr = *generic;
                    }
                }
                // And the other way: a generic input at location 0 draws from glVertexPointer's
                // array (only a compatibility context can enable it).
                if gl_loc == 0 && !arr.enabled {
                    let vertex = crate::gl::objects::vertex_array::FfArray::Vertex.slot();
                    if let Some(ff) = vao.attribs.get(vertex).filter(|v| v.enabled) {
                        arr = *ff;
                    }
                }
                // Streamed through the frame's arena: client arrays (compatibility profile), and
                // arrays Vulkan has no vertex format for (32-bit integers read as floats,
                // doubles) converted to floats, from client memory or a small buffer's shadow.
                // Narrow integers into an input of the other signedness are widened too.
                let widen = crate::gl::objects::vertex_array::needs_integer_widening(&arr, scalar)
                    .is_some();
                let streamed = if !arr.enabled {
                    None
                } else if arr.buffer == 0 {
                    let last = last_element(&arr, call.instances, max_vertex);
                    let format = crate::gl::objects::vertex_array::input_format(&arr, scalar);
                    Some(match format {
                        _ if widen => {
                            let raw = client_array_bytes(&arr, last)?;
                            crate::gl::objects::vertex_array::widen_integers(
                                &arr, &raw, last, scalar,
                            )?
                        }
                        Some(f) => (client_array_bytes(&arr, last)?, arr.effective_stride(), f),
                        None => client_array_floats(&arr, last).ok_or_else(|| {
                            GlError::InvalidOperation(format!(
                                "attribute {}'s format is not supported",
                                a.name
                            ))
                        })??,
                    })
                } else if widen {
                    let last = last_element(&arr, call.instances, max_vertex);
                    let raw = self.buffer_array_bytes(&vao, &arr, last)?;
                    Some(crate::gl::objects::vertex_array::widen_integers(
                        &arr, &raw, last, scalar,
                    )?)
                } else {
                    let shadow = self
                        .vao_buffer(&vao, arr.buffer)
                        .filter(|b| b.mapping.is_none() && arr.offset < b.size)
                        .and_then(|b| b.shadow.as_ref())
                        // Converted to floats only for a float input: an integer input reads
                        // the raw bytes as integers (`for_shader_input`, below).
                        .filter(|_| !integer_shader && needs_float_conversion(&arr).is_some());
                    match shadow {
                        Some(shadow) => {
                            let last = last_element(&arr, call.instances, max_vertex);
                            let raw = shadow.get(arr.offset as usize..).unwrap_or(&[]);
                            Some(to_floats(&arr, raw, last)?)
                        }
                        None => None,
                    }
                };
                if let Some((bytes, stride, format)) = streamed {
                    // Streams converted to floats (client arrays of doubles, say) still have to
                    // match an integer input's numeric type in Vulkan.
                    let format = if integer_shader {
                        crate::gl::objects::vertex_array::for_shader_input(format, scalar)
                            .unwrap_or(format)
                    } else {
                        format
                    };
                    bindings.push(VertexBinding {
                        binding,
                        stride,
                        per_instance: arr.divisor > 0,
                        divisor: arr.divisor.max(1),
                    });
                    attributes.push(VertexAttribute {
                        location: a.shader_location + slot,
                        binding,
                        format,
                        offset: 0,
                    });
                    sources.push((None, 0, Some(bytes)));
                } else if arr.enabled {
                    let b = self.vao_buffer(&vao, arr.buffer).ok_or_else(|| {
                        GlError::InvalidOperation(format!("attribute {}'s buffer is gone", a.name))
                    })?;
                    if b.mapped_exclusively() {
                        return invalid_op("draw from a mapped vertex buffer");
                    }
                    let Some(storage) = b.storage else {
                        return invalid_op(format!("attribute {}'s buffer has no data", a.name));
                    };
                    if arr.offset >= b.size {
                        return invalid_op(format!(
                            "attribute {}'s offset {} is past its buffer ({} bytes)",
                            a.name, arr.offset, b.size
                        ));
                    }
                    // The array's bytes read as the input's numeric type (see
                    // `for_shader_input`: GL leaves mismatched values undefined, not an error).
                    let format = crate::gl::objects::vertex_array::input_format(&arr, scalar)
                        .ok_or_else(|| {
                            GlError::InvalidOperation(format!(
                                "attribute {}'s format cannot feed its {} input",
                                a.name,
                                if integer_shader { "integer" } else { "float" },
                            ))
                        })?;
                    if arr.divisor > 1 && !self.device.caps().vertex_divisor {
                        return invalid_op(
                            "vertex attribute divisors above 1 need VK_EXT_vertex_attribute_divisor, which this device lacks",
                        );
                    }

                    let (stride, source) = if arr.misaligned() {
                        // Vulkan needs component-aligned addresses and strides, GL allows any:
                        // the elements this draw can read are repacked and streamed.
                        let (bytes, stride) = self.repacked_attribute(&arr, b, storage, &call)?;
                        (stride, (None, 0, Some(bytes)))
                    } else {
                        (arr.effective_stride(), (Some(storage), arr.offset, None))
                    };
                    bindings.push(VertexBinding {
                        binding,
                        stride,
                        per_instance: arr.divisor > 0,
                        divisor: arr.divisor.max(1),
                    });
                    attributes.push(VertexAttribute {
                        location: a.shader_location + slot,
                        binding,
                        format,
                        offset: 0,
                    });
                    sources.push(source);
                } else {
                    let words = self
                        .current_attribs
                        .get(gl_loc)
                        .copied()
                        .unwrap_or_default()
                        .words;
                    let format = match scalar {
                        ScalarKind::Int => vk::Format::R32G32B32A32_SINT,
                        ScalarKind::UInt => vk::Format::R32G32B32A32_UINT,
                        _ => vk::Format::R32G32B32A32_SFLOAT,
                    };
                    let mut bytes = Vec::with_capacity(16);
                    for w in words {
                        bytes.extend_from_slice(&w.to_ne_bytes());
                    }
                    bindings.push(VertexBinding {
                        binding,
                        stride: 0,
                        per_instance: false,
                        divisor: 1,
                    });
                    attributes.push(VertexAttribute {
                        location: a.shader_location + slot,
                        binding,
                        format,
                        offset: 0,
                    });
                    sources.push((None, 0, Some(bytes)));
                }
            }
        }

        let restart = lowered.as_ref().is_some_and(|l| l.restart)
            || self.fixed.primitive_restart
                && match element {
                    Some((_, _, _, 1, _)) => self.fixed.restart_index == 0xFF,
                    Some((_, _, _, 2, _)) => self.fixed.restart_index == 0xFFFF,
                    Some((_, _, _, 4, _)) => self.fixed.restart_index == 0xFFFF_FFFF,
                    _ => false,
                };
        self.check_blend_state(target.colors.len())?;
        if self.render_discarded() {
            return Ok(());
        }
        let geometry_shader = linked
            .modules
            .iter()
            .any(|(stage, _)| *stage == crate::glsl::Stage::Geometry);
        if self.counting_primitives() {
            if !geometry_shader {
                let n = self.primitives_of_draw(&call, element.map(|e| (e.1, e.2, e.3)))?;
                self.add_primitives(n);
            } else if !self.device.caps().pipeline_statistics {
                static WARNED: std::sync::atomic::AtomicBool =
                    std::sync::atomic::AtomicBool::new(false);
                if !WARNED.swap(true, std::sync::atomic::Ordering::Relaxed) {
                    tracing::warn!(
                        "GL_PRIMITIVES_GENERATED misses geometry-shader draws: the device has no pipelineStatisticsQuery"
                    );
                }
            }
        }
        let Some(scissor) = scissor else {
            return Ok(());
        };
        let f = &self.fixed;
        let key = PipelineKey {
            program: linked.id,
            topology: topo.as_raw(),
            primitive_restart: restart
                && matches!(
                    topo,
                    vk::PrimitiveTopology::LINE_STRIP
                        | vk::PrimitiveTopology::TRIANGLE_STRIP
                        | vk::PrimitiveTopology::TRIANGLE_FAN
                ),
            bindings,
            attributes,
            color_formats: target
                .colors
                .iter()
                .map(|b| b.map_or(vk::Format::UNDEFINED, |b| b.format))
                .collect(),
            depth_stencil_format: target
                .depth_stencil
                .map_or(vk::Format::UNDEFINED, |b| b.format),
            blend: f.blend,
            no_dst_alpha: self.draw_buffers_without_alpha(),
            provoking_last,
            color_masks: f.color_mask.map(crate::gl::context::state::mask_bits),
            depth_stencil: DepthStencilKey {
                depth_test: f.depth_test,
                depth_write: f.depth_mask,
                depth_compare: f.depth_func,
                stencil_test: f.stencil_test,
                stencil: [
                    pipeline::stencil_key(&f.stencil[0]),
                    pipeline::stencil_key(&f.stencil[1]),
                ],
            },
            cull_mode: if f.cull_face {
                match f.cull_mode {
                    GL_FRONT => vk::CullModeFlags::FRONT.as_raw(),
                    GL_BACK => vk::CullModeFlags::BACK.as_raw(),
                    _ => vk::CullModeFlags::FRONT_AND_BACK.as_raw(),
                }
            } else {
                0
            },
            // GL's orientation is kept (see `state`): GL_CCW is Vulkan's clockwise.
            front_face_cw: f.front_face == GL_CCW,
            polygon_offset: f
                .polygon_offset_fill
                .then(|| (f.polygon_offset[0].to_bits(), f.polygon_offset[1].to_bits())),
            depth_clamp: f.depth_clamp,
            rasterizer_discard: f.rasterizer_discard,
            points: (topo == vk::PrimitiveTopology::POINT_LIST).then(|| {
                let [lo, hi] = self.device.caps().limits.point_size_range;
                let size = if self.device.caps().large_points {
                    f.point_size.clamp(lo, hi.max(lo))
                } else {
                    1.0
                };
                (f.program_point_size, size.to_bits())
            }),
            samples: target.samples,
            alpha_to_coverage: f.sample_alpha_to_coverage && f.multisample,
            frag_coord_height: if linked.frag_coord_upper_left {
                target.height
            } else {
                0
            },
            alpha_func: match (linked.frag_epilogue, self.compat.alpha_test) {
                (true, true) => self.compat.alpha_func.saturating_sub(GL_NEVER),
                _ => crate::glsl::frag_epilogue::ALPHA_ALWAYS,
            },
            clamp_fragment_color: linked.frag_epilogue && self.clamp.clamps_fragments(),
        };

        // Everything that may allocate, stream or transition, before the pass.
        let device = self.device.clone();
        // A stand-in per sampler dimensionality the program declares.
        let mut dummies = Vec::with_capacity(linked.samplers.len());
        for s in &linked.samplers {
            dummies.push(self.dummy_texture(TexTarget::of_sampler(s.ty.dim), s.ty.kind)?);
        }
        let mut locked = device.lock();
        let pipeline = locked.pipeline(device.pipeline_cache(), &linked, &key)?;
        let mut vertex_buffers = Vec::new();
        for (storage, offset, constant) in &sources {
            match (storage, constant) {
                (Some(h), _) => vertex_buffers.push((*h, None, *offset)),
                (None, Some(bytes)) => {
                    let range = locked.manager.stream(bytes, 16)?;
                    vertex_buffers.push((
                        arenagl_memory::BufferHandle::from_raw(0),
                        Some(range.buffer),
                        range.offset,
                    ));
                }
                (None, None) => {}
            }
        }
        let default_range = if linked.default_block_size > 0 {
            Some(locked.manager.stream(&uniform_data, 256)?)
        } else {
            None
        };
        // Textures.
        let mut image_infos: Vec<(u32, Vec<vk::DescriptorImageInfo>)> = Vec::new();
        let mut texel_infos: Vec<(u32, Vec<vk::BufferView>)> = Vec::new();
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
                    views.push(self.buffer_texture_view(&mut locked, &device, unit, s.ty.kind)?);
                }
                texel_infos.push((s.binding, views));
                continue;
            }
            let mut infos = Vec::new();
            for e in 0..s.count as usize {
                let unit = unit_of(si, e);
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
                let tex = object.filter(|t| {
                    t.is_complete(sampler_object)
                        && t.storage.as_ref().is_some_and(|st| {
                            crate::gl::objects::texture::sampled_kind(st.format) == s.ty.kind
                        })
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
                        let mut desc = t.sampler_desc(sampler_object, s.ty.shadow, false);
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
                    None => (
                        dummies[si].0,
                        dummies[si].1,
                        arenagl_memory::SamplerDesc::default(),
                    ),
                };
                // GL_TEXTURE_SWIZZLE_*: a view with that component mapping, cached per texture.
                if let Some(swizzle) = swizzle.filter(|&sw| sw != IDENTITY_SWIZZLE) {
                    let object = match default {
                        Some(t) => self.default_textures.get_mut(t.index()),
                        None => self.textures.get_mut(name),
                    };
                    if let Some(st) = object.and_then(|t| t.storage.as_mut()) {
                        view = st.swizzled_view(&mut locked.manager, swizzle)?;
                    }
                }
                if locked.manager.image_layout(image)? != vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL
                {
                    locked.manager.transition_image(
                        image,
                        vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                        (
                            vk::PipelineStageFlags::VERTEX_SHADER
                                | vk::PipelineStageFlags::FRAGMENT_SHADER,
                            vk::AccessFlags::SHADER_READ,
                        ),
                    )?;
                }
                let mut desc = desc;
                if s.ty.kind != SampledKind::Float {
                    // Integer formats never filter (GL treats linear filters as nearest there;
                    // Vulkan rejects them).
                    desc.mag_filter = vk::Filter::NEAREST;
                    desc.min_filter = vk::Filter::NEAREST;
                    desc.mipmap_mode = vk::SamplerMipmapMode::NEAREST;
                }
                let max_bias = device.caps().limits.max_sampler_lod_bias;
                desc.mip_lod_bias = if desc.mip_lod_bias.is_nan() {
                    0.0
                } else {
                    desc.mip_lod_bias.clamp(-max_bias, max_bias)
                };
                let sampler = locked.sampler(&desc)?;
                let raw_sampler = locked.manager.use_sampler(sampler)?.raw();
                let raw_view = locked.manager.use_view(view)?.raw();
                infos.push(vk::DescriptorImageInfo {
                    sampler: raw_sampler,
                    image_view: raw_view,
                    image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                });
            }
            image_infos.push((s.binding, infos));
        }
        // Uniform blocks.
        let mut buffer_infos: Vec<(u32, Vec<vk::DescriptorBufferInfo>)> = Vec::new();
        let mut block_index = 0usize;
        let max_range = device.caps().limits.max_uniform_buffer_range as u64;
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
        // A lowered draw's indices.
        let lowered_range = match &lowered {
            Some(l) if !l.indices.is_empty() => {
                let bytes: Vec<u8> = l.indices.iter().flat_map(|i| i.to_ne_bytes()).collect();
                Some((locked.manager.stream(&bytes, 4)?, l.indices.len() as u32))
            }
            _ => None,
        };
        let index_raw = match element {
            Some((Some(h), _, _, _, _)) => Some(locked.manager.use_buffer(h)?.raw()),
            Some((None, _, _, _, _)) => return invalid_op("the element buffer has no data"),
            None => None,
        };
        let mut vb_raw = Vec::new();
        let mut vb_offsets = Vec::new();
        for (h, raw, off) in &vertex_buffers {
            vb_raw.push(match raw {
                Some(r) => *r,
                None => locked.manager.use_buffer(*h)?.raw(),
            });
            vb_offsets.push(*off);
        }
        drop(locked);
        self.prepare_attachments(&target)?;

        // Descriptor sets.
        let epoch = device.lock().manager.recording_epoch();
        let completed = device.lock().manager.completed_epoch();
        let contents = Set0Contents::new(
            linked.set_layouts[0],
            &image_infos,
            &buffer_infos,
            &texel_infos,
        );
        let pool = self.descriptors.touch_current(epoch);
        let reused = self
            .encoder
            .set0
            .as_ref()
            .filter(|(c, p, e, _)| Some(*p) == pool && *e == epoch && *c == contents)
            .map(|(_, _, _, set)| *set);
        let set0 = if image_infos.is_empty() && buffer_infos.is_empty() && texel_infos.is_empty() {
            None
        } else if reused.is_some() {
            reused
        } else {
            let set =
                self.descriptors
                    .allocate(&device, linked.set_layouts[0], epoch, completed)?;
            let mut writes = Vec::new();
            for (binding, infos) in &image_infos {
                writes.push(
                    vk::WriteDescriptorSet::default()
                        .dst_set(set)
                        .dst_binding(*binding)
                        .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                        .image_info(infos),
                );
            }
            for (binding, infos) in &buffer_infos {
                writes.push(
                    vk::WriteDescriptorSet::default()
                        .dst_set(set)
                        .dst_binding(*binding)
                        .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                        .buffer_info(infos),
                );
            }
            for (binding, views) in &texel_infos {
                writes.push(
                    vk::WriteDescriptorSet::default()
                        .dst_set(set)
                        .dst_binding(*binding)
                        .descriptor_type(vk::DescriptorType::UNIFORM_TEXEL_BUFFER)
                        .texel_buffer_view(views),
                );
            }
            // SAFETY: the set was just allocated from this context's pool; every written
            // handle is live and stamped for the recording epoch.
            unsafe { device.raw().update_descriptor_sets(&writes, &[]) };
            if let Some(p) = self.descriptors.touch_current(epoch) {
                self.encoder.set0 = Some((contents, p, epoch, set));
            }
            Some(set)
        };
        let set1 = match default_range {
            Some(range) => {
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
                            .allocate(&device, layout, epoch, completed)?;
                        let info = [vk::DescriptorBufferInfo {
                            buffer: range.buffer,
                            offset: 0,
                            range: u64::from(linked.default_block_size),
                        }];
                        let write = vk::WriteDescriptorSet::default()
                            .dst_set(set)
                            .dst_binding(crate::glsl::DEFAULT_BLOCK_BINDING)
                            .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC)
                            .buffer_info(&info);
                        // SAFETY: as above; the arena block is live for this frame.
                        unsafe { device.raw().update_descriptor_sets(&[write], &[]) };
                        if let Some(p) = self.descriptors.touch_current(epoch) {
                            self.encoder.default_set = Some((range.buffer, p, layout, epoch, set));
                        }
                        set
                    }
                };
                Some((set, range.offset as u32))
            }
            None => None,
        };

        // Record.
        let cb = self.pass_for(&target)?;
        // Opening query segments records into the open pass and never ends it.
        self.segments_at_draw(geometry_shader)?;
        let raw = device.raw();
        let vp = self.fixed.viewport;
        // A default framebuffer rendered at a reduced scale maps GL's window coordinates onto
        // its smaller images (exactly: viewports are fractional).
        let (sx, sy) = target.scale();
        // Vulkan bounds the viewport's corners to viewportBoundsRange (GL leaves a viewport far
        // off the drawable legal): keep the size, slide the origin inside the range.
        let bounds = device.caps().limits.viewport_bounds_range;
        let place =
            |origin: f32, size: f32| origin.clamp(bounds[0], (bounds[1] - size).max(bounds[0]));
        let viewport = vk::Viewport {
            x: place(vp.x as f32 * sx, vp.width as f32 * sx),
            y: place(vp.y as f32 * sy, vp.height as f32 * sy),
            width: vp.width as f32 * sx,
            height: vp.height as f32 * sy,
            min_depth: self.fixed.depth_range[0] as f32,
            max_depth: self.fixed.depth_range[1] as f32,
        };
        // SAFETY: `cb` is inside this context's render pass for `target`; the pipeline was built
        // for exactly these attachment formats; every bound object is live and stamped for the
        // recording epoch; the descriptor sets match the pipeline layout.
        unsafe {
            if self.encoder.pipeline != pipeline {
                raw.cmd_bind_pipeline(cb, vk::PipelineBindPoint::GRAPHICS, pipeline);
                self.encoder.pipeline = pipeline;
            }
            let line_width = device.caps().wide_lines.then(|| {
                let range = device.caps().limits.line_width_range;
                self.fixed.line_width.clamp(range[0], range[1])
            });
            let now = RecordedState {
                viewport: [
                    viewport.x,
                    viewport.y,
                    viewport.width,
                    viewport.height,
                    viewport.min_depth,
                    viewport.max_depth,
                ],
                scissor,
                blend_constants: self.fixed.blend_color,
                line_width,
                stencil_reference: [
                    self.fixed.stencil[0].reference as u32,
                    self.fixed.stencil[1].reference as u32,
                ],
                vertex_buffers: vb_raw
                    .iter()
                    .copied()
                    .zip(vb_offsets.iter().copied())
                    .collect(),
            };
            let last = self.encoder.recorded.take();
            let changed = |f: &dyn Fn(&RecordedState) -> bool| last.as_ref().is_none_or(f);
            if changed(&|l| l.viewport != now.viewport) {
                raw.cmd_set_viewport(cb, 0, &[viewport]);
            }
            if changed(&|l| l.scissor != now.scissor) {
                raw.cmd_set_scissor(cb, 0, &[scissor]);
            }
            if changed(&|l| l.blend_constants != now.blend_constants) {
                raw.cmd_set_blend_constants(cb, &now.blend_constants);
            }
            if let Some(width) = line_width.filter(|_| changed(&|l| l.line_width != line_width)) {
                raw.cmd_set_line_width(cb, width);
            }
            if changed(&|l| l.stencil_reference[0] != now.stencil_reference[0]) {
                raw.cmd_set_stencil_reference(
                    cb,
                    vk::StencilFaceFlags::FRONT,
                    now.stencil_reference[0],
                );
            }
            if changed(&|l| l.stencil_reference[1] != now.stencil_reference[1]) {
                raw.cmd_set_stencil_reference(
                    cb,
                    vk::StencilFaceFlags::BACK,
                    now.stencil_reference[1],
                );
            }
            if let Some(set) = set0 {
                raw.cmd_bind_descriptor_sets(
                    cb,
                    vk::PipelineBindPoint::GRAPHICS,
                    linked.pipeline_layout,
                    0,
                    &[set],
                    &[],
                );
            }
            if let Some((set, offset)) = set1 {
                raw.cmd_bind_descriptor_sets(
                    cb,
                    vk::PipelineBindPoint::GRAPHICS,
                    linked.pipeline_layout,
                    1,
                    &[set],
                    &[offset],
                );
            }
            if !vb_raw.is_empty() && changed(&|l| l.vertex_buffers != now.vertex_buffers) {
                raw.cmd_bind_vertex_buffers(cb, 0, &vb_raw, &vb_offsets);
            }
            self.encoder.recorded = Some(now);
            match (element, index_raw) {
                (Some((_, size_bytes, offset, size, ty)), Some(ib)) => {
                    let index_type = match ty {
                        GL_UNSIGNED_BYTE => vk::IndexType::UINT8_EXT,
                        GL_UNSIGNED_SHORT => vk::IndexType::UINT16,
                        _ => vk::IndexType::UINT32,
                    };
                    let available = size_bytes.saturating_sub(offset) / size;
                    let count = (call.count as u64).min(available) as u32;
                    if count > 0 {
                        raw.cmd_bind_index_buffer(cb, ib, offset, index_type);
                        raw.cmd_draw_indexed(
                            cb,
                            count,
                            call.instances as u32,
                            0,
                            call.indexed.map_or(0, |i| i.2),
                            0,
                        );
                    }
                }
                _ => match lowered_range {
                    Some((range, count)) => {
                        raw.cmd_bind_index_buffer(
                            cb,
                            range.buffer,
                            range.offset,
                            vk::IndexType::UINT32,
                        );
                        raw.cmd_draw_indexed(cb, count, call.instances as u32, 0, 0, 0);
                    }
                    None if lowered.is_some() => {} // nothing left after lowering
                    None => raw.cmd_draw(
                        cb,
                        call.count as u32,
                        call.instances as u32,
                        call.first as u32,
                        0,
                    ),
                },
            }
        }
        Ok(())
    }

    /// A 1×1 (0, 0, 0, 1) texture that incomplete or missing textures sample as, with the
    /// image and view type of `target` (2D for samplers of targets this GL has no storage for)
    /// and a format of the sampler's kind (an integer sampler must read an integer view).
    fn dummy_texture(
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
        let mut desc = crate::gl::objects::texture::image_desc(target, format, [1, 1, 1], 1)
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

    /// `glReadPixels` into `out` (already sized by [`Context::client_image_bytes`]).
    #[allow(clippy::too_many_arguments)]
    pub fn read_pixels(
        &mut self,
        x: i32,
        y: i32,
        width: i32,
        height: i32,
        format: GLenum,
        ty: GLenum,
        out: &mut [u8],
    ) {
        let r = self.read_pixels_inner(x, y, width, height, format, ty, out);
        self.record(r);
        self.rewind_idle_staging();
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn read_pixels_inner(
        &mut self,
        x: i32,
        y: i32,
        width: i32,
        height: i32,
        format: GLenum,
        ty: GLenum,
        out: &mut [u8],
    ) -> GlResult<()> {
        if width < 0 || height < 0 {
            return invalid_value(format!("glReadPixels size {width}x{height}"));
        }
        if crate::gl::pixel::readback_depth::is_depth_stencil_format(format) {
            let fb = self.read_framebuffer;
            let target = self.resolve_framebuffer(fb, false).map_err(|status| {
                GlError::InvalidFramebuffer(format!(
                    "the read framebuffer is not complete (status 0x{status:04X})"
                ))
            })?;
            if target.samples > 1 {
                return invalid_op("glReadPixels from a multisampled read framebuffer");
            }
            let area = Rect {
                x,
                y,
                width,
                height,
            };
            let Some(rect) = clip(area, target.width, target.height) else {
                return Ok(());
            };
            return self.read_depth_stencil((x, y), rect, format, ty, out);
        }
        let pair = crate::gl::objects::texture::api::client_pixel_for(format, ty)?;
        let fb = self.read_framebuffer;
        let target = self.resolve_framebuffer(fb, false).map_err(|status| {
            GlError::InvalidFramebuffer(format!(
                "the read framebuffer is not complete (status 0x{status:04X})"
            ))
        })?;
        if target.samples > 1 {
            return invalid_op("glReadPixels from a multisampled read framebuffer");
        }
        let Some(src) = target.colors.iter().flatten().next().copied() else {
            return invalid_op("glReadPixels with GL_NONE as the read buffer");
        };
        // The attached level and layer (cube face, array layer, 3D slice) of a texture.
        let (level, layer) = (src.level, src.layer);
        let Some(rect) = clip(
            Rect {
                x,
                y,
                width,
                height,
            },
            target.gl_size.0,
            target.gl_size.1,
        ) else {
            return Ok(());
        };
        let mut pack = self.pack;
        if pack.row_length == 0 {
            pack.row_length = width as u32;
        }
        pack.skip_pixels += (rect.offset.x - x) as u32;
        pack.skip_rows += (rect.offset.y - y) as u32;
        self.end_pass();
        let mut region = ImageRegion::rect(
            level,
            rect.offset.x,
            rect.offset.y,
            rect.extent.width,
            rect.extent.height,
        );
        if layer > 0 {
            let three_d = self
                .device
                .lock()
                .manager
                .image_info(src.image)?
                .desc
                .image_type
                == vk::ImageType::TYPE_3D;
            if three_d {
                region.offset.z = layer as i32;
            } else {
                region.base_layer = layer;
            }
        }
        // A default framebuffer at a reduced render scale is read as the window shows it.
        let (image, region, temp) = if target.is_scaled() {
            let (temp, region) = self.upscaled_for_read(&target, src, rect)?;
            (temp, region, Some(temp))
        } else {
            (src.image, region, None)
        };
        let info = self.read_attachment_format().map(|(info, _)| info);
        let device = self.device.clone();
        let mut locked = device.lock();
        let read = crate::gl::objects::texture::api::read_color_of(
            &mut locked,
            Bound { image, ..src },
            info.as_ref(),
            &region,
            &pack,
            (format, ty),
            pair,
            out,
        );
        if let Some(temp) = temp {
            let _ = locked.manager.retire_image(temp);
        }
        read?;
        locked.collect(device.raw());
        Ok(())
    }
}
