//! The render-pass fallback: render passes and framebuffers for devices without dynamic
//! rendering (Vulkan 1.1/1.2 phones, or `ARENAGL_FORCE_RENDER_PASS=1`).
//!
//! Design decisions:
//! - Clients keep describing a pass as a `VkRenderingInfo` (one description for both paths);
//!   without dynamic rendering the submitter turns it into a one-subpass render pass and a
//!   framebuffer here and begins that instead. Attachments keep the layout the client gave for
//!   the whole pass (initial = subpass = final layout), so no layout changes hide in the pass,
//!   exactly as with dynamic rendering.
//! - Render passes are cached by what makes them differ (formats, sample counts, load and store
//!   operations, layouts, resolves), framebuffers by pass, views and size. A framebuffer is
//!   destroyed with the first of its views: the view's use stamp covers every use of the
//!   framebuffer (a client uses each view before a pass names it), so when the view may go, so
//!   may the framebuffer.
//! - Pipelines need a *compatible* render pass ([`RenderPasses::compatible`]): the same formats
//!   and sample counts; load operations and layouts do not matter for compatibility.
//! - Passes are created with render pass 2 (core in Vulkan 1.2; on a Vulkan 1.1 device through
//!   `VK_KHR_create_renderpass2`, which the device then must have: [`Create2`]), so that
//!   depth/stencil resolves (`VkSubpassDescriptionDepthStencilResolve`) work as colour ones do.

use std::collections::HashMap;

use ash::vk;

use crate::error::{MemoryError, Result};
use crate::vulkan::context::DeviceShared;
use crate::vulkan::conv::map_alloc;

/// What the cache needs to know about a view (the pass only names raw views).
#[derive(Debug, Clone, Copy)]
struct ViewFacts {
    format: vk::Format,
    samples: vk::SampleCountFlags,
}

/// One attachment as far as a render pass is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct AttachmentKey {
    format: vk::Format,
    samples: vk::SampleCountFlags,
    load: vk::AttachmentLoadOp,
    store: vk::AttachmentStoreOp,
    layout: vk::ImageLayout,
}

/// What makes two render passes differ.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
struct PassKey {
    /// Colour attachments by location (`None`: unused), each with its resolve target.
    colors: Vec<Option<(AttachmentKey, Option<AttachmentKey>)>>,
    /// The depth/stencil attachment and whether its stencil aspect is used.
    depth: Option<(AttachmentKey, bool)>,
    /// The depth/stencil resolve target with the depth and stencil resolve modes.
    depth_resolve: Option<(AttachmentKey, vk::ResolveModeFlags, vk::ResolveModeFlags)>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct FramebufferKey {
    pass: vk::RenderPass,
    views: Vec<vk::ImageView>,
    width: u32,
    height: u32,
    layers: u32,
}

/// Where `vkCreateRenderPass2` comes from: the core of Vulkan 1.2, or `VK_KHR_create_renderpass2`
/// on a Vulkan 1.1 device (the context enables the extension there and refuses a 1.1 device
/// without it).
pub(crate) enum Create2 {
    Core,
    Khr(ash::khr::create_renderpass2::Device),
}

impl Create2 {
    /// The source for `shared`'s device.
    pub(crate) fn of(shared: &DeviceShared) -> Self {
        if shared.info.used_api_version >= vk::API_VERSION_1_2 {
            Create2::Core
        } else {
            Create2::Khr(ash::khr::create_renderpass2::Device::new(
                &shared.instance,
                &shared.raw,
            ))
        }
    }

    /// # Safety
    /// `info` is a valid create info for `device`, the device this source was made for.
    unsafe fn create(
        &self,
        device: &ash::Device,
        info: &vk::RenderPassCreateInfo2,
    ) -> Result<vk::RenderPass> {
        // SAFETY: the caller's contract; the KHR loader was made for `device` with the
        // extension enabled (`Create2::of`).
        let made = unsafe {
            match self {
                Create2::Core => device.create_render_pass2(info, None),
                Create2::Khr(khr) => khr.create_render_pass2(info, None),
            }
        };
        made.map_err(|r| map_alloc("vkCreateRenderPass2", r))
    }
}

/// The cached render passes and framebuffers of the fallback.
pub(crate) struct RenderPasses {
    device: ash::Device,
    create2: Create2,
    views: HashMap<vk::ImageView, ViewFacts>,
    passes: HashMap<PassKey, vk::RenderPass>,
    framebuffers: HashMap<FramebufferKey, vk::Framebuffer>,
}

/// The attachments of a `VkRenderingInfo`, read out of its pointers.
struct Attachments<'a> {
    colors: &'a [vk::RenderingAttachmentInfo<'a>],
    depth: Option<&'a vk::RenderingAttachmentInfo<'a>>,
    stencil: Option<&'a vk::RenderingAttachmentInfo<'a>>,
}

impl<'a> Attachments<'a> {
    fn of(info: &'a vk::RenderingInfo<'a>) -> Self {
        let colors = if info.color_attachment_count == 0 || info.p_color_attachments.is_null() {
            &[][..]
        } else {
            // SAFETY: a `VkRenderingInfo` built through ash's builder points at
            // `color_attachment_count` attachments that live as long as the info ('a).
            unsafe {
                std::slice::from_raw_parts(
                    info.p_color_attachments,
                    info.color_attachment_count as usize,
                )
            }
        };
        // SAFETY: as above: null or a live attachment for the info's lifetime.
        let (depth, stencil) = unsafe {
            (
                info.p_depth_attachment.as_ref(),
                info.p_stencil_attachment.as_ref(),
            )
        };
        let present = |a: &&vk::RenderingAttachmentInfo| a.image_view != vk::ImageView::null();
        Attachments {
            colors,
            depth: depth.filter(present),
            stencil: stencil.filter(present),
        }
    }
}

impl RenderPasses {
    pub(crate) fn new(device: &ash::Device, create2: Create2) -> Self {
        RenderPasses {
            device: device.clone(),
            create2,
            views: HashMap::new(),
            passes: HashMap::new(),
            framebuffers: HashMap::new(),
        }
    }

    /// Records a new view's format and its image's sample count.
    pub(crate) fn note_view(
        &mut self,
        view: vk::ImageView,
        format: vk::Format,
        samples: vk::SampleCountFlags,
    ) {
        self.views.insert(view, ViewFacts { format, samples });
    }

    /// Forgets a view about to be destroyed, destroying the framebuffers that name it.
    pub(crate) fn forget_view(&mut self, view: vk::ImageView) {
        self.views.remove(&view);
        let device = &self.device;
        self.framebuffers.retain(|key, fb| {
            let keep = !key.views.contains(&view);
            if !keep {
                // SAFETY: the view's epoch completed (it is being released), and every use of
                // this framebuffer also used the view, so no pending command buffer uses it.
                unsafe { device.destroy_framebuffer(*fb, None) };
            }
            keep
        });
    }

    fn attachment(
        &self,
        a: &vk::RenderingAttachmentInfo,
        view: vk::ImageView,
        layout: vk::ImageLayout,
    ) -> Result<AttachmentKey> {
        let facts = self.views.get(&view).ok_or(MemoryError::Internal(
            "a render-pass attachment names a view the manager did not create",
        ))?;
        Ok(AttachmentKey {
            format: facts.format,
            samples: facts.samples,
            load: a.load_op,
            store: a.store_op,
            layout,
        })
    }

    /// The pass key, the views in attachment order and the clear values of `info`.
    fn describe(
        &self,
        info: &vk::RenderingInfo,
    ) -> Result<(PassKey, Vec<vk::ImageView>, Vec<vk::ClearValue>)> {
        let at = Attachments::of(info);
        let mut key = PassKey::default();
        let mut views = Vec::new();
        let mut clears = Vec::new();
        for c in at.colors {
            if c.image_view == vk::ImageView::null() {
                key.colors.push(None);
                continue;
            }
            let main = self.attachment(c, c.image_view, c.image_layout)?;
            views.push(c.image_view);
            clears.push(c.clear_value);
            let resolve = if c.resolve_mode != vk::ResolveModeFlags::NONE
                && c.resolve_image_view != vk::ImageView::null()
            {
                let r = self.attachment(c, c.resolve_image_view, c.resolve_image_layout)?;
                views.push(c.resolve_image_view);
                clears.push(vk::ClearValue::default());
                Some(AttachmentKey {
                    load: vk::AttachmentLoadOp::DONT_CARE,
                    store: vk::AttachmentStoreOp::STORE,
                    ..r
                })
            } else {
                None
            };
            key.colors.push(Some((main, resolve)));
        }
        if let Some(d) = at.depth.or(at.stencil) {
            key.depth = Some((
                self.attachment(d, d.image_view, d.image_layout)?,
                at.stencil.is_some(),
            ));
            views.push(d.image_view);
            clears.push(d.clear_value);
            let mode = |a: Option<&vk::RenderingAttachmentInfo>| {
                a.map_or(vk::ResolveModeFlags::NONE, |a| a.resolve_mode)
            };
            let (depth_mode, stencil_mode) = (mode(at.depth), mode(at.stencil));
            if (depth_mode | stencil_mode) != vk::ResolveModeFlags::NONE
                && d.resolve_image_view != vk::ImageView::null()
            {
                let r = self.attachment(d, d.resolve_image_view, d.resolve_image_layout)?;
                views.push(d.resolve_image_view);
                clears.push(vk::ClearValue::default());
                key.depth_resolve = Some((
                    AttachmentKey {
                        load: vk::AttachmentLoadOp::DONT_CARE,
                        store: vk::AttachmentStoreOp::STORE,
                        ..r
                    },
                    depth_mode,
                    stencil_mode,
                ));
            }
        }
        Ok((key, views, clears))
    }

    /// The render pass for `key`, created on first need.
    fn pass(&mut self, key: &PassKey) -> Result<vk::RenderPass> {
        if let Some(&p) = self.passes.get(key) {
            return Ok(p);
        }
        let p = create_pass(&self.device, &self.create2, key)?;
        self.passes.insert(key.clone(), p);
        Ok(p)
    }

    /// A render pass compatible with pipelines drawing into `colors` (`UNDEFINED`: no
    /// attachment at that location) and `depth` (with `stencil`), all at `samples`.
    pub(crate) fn compatible(
        &mut self,
        colors: &[vk::Format],
        depth: vk::Format,
        stencil: bool,
        samples: vk::SampleCountFlags,
    ) -> Result<vk::RenderPass> {
        let attachment = |format, layout| AttachmentKey {
            format,
            samples,
            load: vk::AttachmentLoadOp::LOAD,
            store: vk::AttachmentStoreOp::STORE,
            layout,
        };
        let key = PassKey {
            colors: colors
                .iter()
                .map(|&f| {
                    (f != vk::Format::UNDEFINED).then(|| {
                        (
                            attachment(f, vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL),
                            None,
                        )
                    })
                })
                .collect(),
            depth: (depth != vk::Format::UNDEFINED).then(|| {
                (
                    attachment(depth, vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL),
                    stencil,
                )
            }),
            depth_resolve: None,
        };
        self.pass(&key)
    }

    /// Begins the render pass instance `info` describes in `cb`.
    pub(crate) fn begin(&mut self, cb: vk::CommandBuffer, info: &vk::RenderingInfo) -> Result<()> {
        let (key, views, clears) = self.describe(info)?;
        let pass = self.pass(&key)?;
        let area = info.render_area;
        let fb_key = FramebufferKey {
            pass,
            views,
            width: (area.offset.x.max(0) as u32 + area.extent.width).max(1),
            height: (area.offset.y.max(0) as u32 + area.extent.height).max(1),
            layers: info.layer_count.max(1),
        };
        let framebuffer = match self.framebuffers.get(&fb_key) {
            Some(&fb) => fb,
            None => {
                let fb = create_framebuffer(&self.device, &fb_key)?;
                self.framebuffers.insert(fb_key, fb);
                fb
            }
        };
        let begin = vk::RenderPassBeginInfo::default()
            .render_pass(pass)
            .framebuffer(framebuffer)
            .render_area(area)
            .clear_values(&clears);
        // SAFETY: `cb` is recording outside any render pass (the submitter ended the previous
        // one); the pass and framebuffer are live objects of this device built from `info`,
        // whose views the client keeps alive and in the layouts it named.
        unsafe {
            self.device
                .cmd_begin_render_pass(cb, &begin, vk::SubpassContents::INLINE)
        };
        Ok(())
    }
}

impl Drop for RenderPasses {
    fn drop(&mut self) {
        // SAFETY: the submitter drops this after the device went idle (the manager's rule for
        // the backend), so no command buffer uses these objects.
        unsafe {
            for (_, fb) in self.framebuffers.drain() {
                self.device.destroy_framebuffer(fb, None);
            }
            for (_, p) in self.passes.drain() {
                self.device.destroy_render_pass(p, None);
            }
        }
    }
}

fn description(a: &AttachmentKey, stencil: bool) -> vk::AttachmentDescription2<'static> {
    let (stencil_load, stencil_store) = if stencil {
        (a.load, a.store)
    } else {
        (
            vk::AttachmentLoadOp::DONT_CARE,
            vk::AttachmentStoreOp::DONT_CARE,
        )
    };
    vk::AttachmentDescription2::default()
        .format(a.format)
        .samples(a.samples)
        .load_op(a.load)
        .store_op(a.store)
        .stencil_load_op(stencil_load)
        .stencil_store_op(stencil_store)
        .initial_layout(a.layout)
        .final_layout(a.layout)
}

/// The aspects of a depth/stencil attachment reference.
fn depth_aspects(stencil: bool) -> vk::ImageAspectFlags {
    if stencil {
        vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL
    } else {
        vk::ImageAspectFlags::DEPTH
    }
}

fn create_pass(device: &ash::Device, create2: &Create2, key: &PassKey) -> Result<vk::RenderPass> {
    let mut attachments = Vec::new();
    let mut colors = Vec::new();
    let mut resolves = Vec::new();
    let reference = |a: &AttachmentKey,
                     stencil: bool,
                     aspect: vk::ImageAspectFlags,
                     list: &mut Vec<vk::AttachmentDescription2<'static>>| {
        list.push(description(a, stencil));
        vk::AttachmentReference2::default()
            .attachment(list.len() as u32 - 1)
            .layout(a.layout)
            .aspect_mask(aspect)
    };
    let unused = vk::AttachmentReference2::default()
        .attachment(vk::ATTACHMENT_UNUSED)
        .layout(vk::ImageLayout::UNDEFINED);
    let color = vk::ImageAspectFlags::COLOR;
    for c in &key.colors {
        match c {
            Some((main, resolve)) => {
                colors.push(reference(main, false, color, &mut attachments));
                resolves.push(match resolve {
                    Some(r) => reference(r, false, color, &mut attachments),
                    None => unused,
                });
            }
            None => {
                colors.push(unused);
                resolves.push(unused);
            }
        }
    }
    let stencil = key.depth.as_ref().is_some_and(|(_, s)| *s);
    let depth = key
        .depth
        .as_ref()
        .map(|(d, s)| reference(d, *s, depth_aspects(*s), &mut attachments));
    let depth_resolve = key
        .depth_resolve
        .as_ref()
        .map(|(r, _, _)| reference(r, stencil, depth_aspects(stencil), &mut attachments));
    let mut subpass = vk::SubpassDescription2::default()
        .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
        .color_attachments(&colors);
    if resolves
        .iter()
        .any(|r| r.attachment != vk::ATTACHMENT_UNUSED)
    {
        subpass = subpass.resolve_attachments(&resolves);
    }
    if let Some(d) = depth.as_ref() {
        subpass = subpass.depth_stencil_attachment(d);
    }
    let mut ds_resolve = vk::SubpassDescriptionDepthStencilResolve::default();
    if let (Some(r), Some((_, depth_mode, stencil_mode))) =
        (depth_resolve.as_ref(), key.depth_resolve.as_ref())
    {
        ds_resolve = ds_resolve
            .depth_resolve_mode(*depth_mode)
            .stencil_resolve_mode(*stencil_mode)
            .depth_stencil_resolve_attachment(r);
        subpass = subpass.push_next(&mut ds_resolve);
    }
    let subpasses = [subpass];
    // A depth/stencil resolve writes its target in the colour-attachment-output stage (the
    // specification's rule), which the client's depth-stage barriers do not cover: order it
    // after every earlier write.
    let resolve_after_writes = [vk::SubpassDependency2::default()
        .src_subpass(vk::SUBPASS_EXTERNAL)
        .dst_subpass(0)
        .src_stage_mask(vk::PipelineStageFlags::ALL_COMMANDS)
        .src_access_mask(vk::AccessFlags::MEMORY_WRITE)
        .dst_stage_mask(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT)
        .dst_access_mask(
            vk::AccessFlags::COLOR_ATTACHMENT_READ | vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
        )];
    let mut info = vk::RenderPassCreateInfo2::default()
        .attachments(&attachments)
        .subpasses(&subpasses);
    if key.depth_resolve.is_some() {
        info = info.dependencies(&resolve_after_writes);
    }
    // SAFETY: `create2` was made for `device`; the create info and its arrays live across the
    // call.
    unsafe { create2.create(device, &info) }
}

fn create_framebuffer(device: &ash::Device, key: &FramebufferKey) -> Result<vk::Framebuffer> {
    let info = vk::FramebufferCreateInfo::default()
        .render_pass(key.pass)
        .attachments(&key.views)
        .width(key.width)
        .height(key.height)
        .layers(key.layers);
    // SAFETY: valid device; the pass and the views are live objects of it and the views are
    // in the pass's attachment order.
    unsafe { device.create_framebuffer(&info, None) }
        .map_err(|r| map_alloc("vkCreateFramebuffer", r))
}
