//! The device a set of GL contexts render with: the memory manager behind a mutex, the Vulkan
//! objects that are not memory (pipeline cache, samplers' and layouts' caches) and their
//! deferred destruction.
//!
//! Design decisions:
//! - One [`Device`] per process (one Vulkan device); every GL context of every thread shares it.
//!   The manager is `&mut self` by design, so it lives behind one mutex; a GL call locks it for
//!   the duration of its Vulkan work. GL state itself is per context and needs no lock.
//! - The translator creates pipelines, layouts, shader modules and descriptor pools directly:
//!   those are not device memory, so the ownership rule does not route them through the manager.
//!   They may still be referenced by a pending command buffer, so destroying one is deferred to
//!   the completion of the epoch being recorded, exactly like the manager's own retire.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use arenagl_memory::vulkan::DeviceInfo;
use arenagl_memory::{
    ImageDesc, ImageHandle, MemoryError, MemoryManager, SamplerDesc, SamplerHandle, ViewDesc,
    ViewHandle,
};
use ash::vk;

use super::error::GlError;
use super::pipeline::PipelineKey;

/// A Vulkan object whose destruction waits for an epoch.
pub(crate) enum Garbage {
    Pipeline(vk::Pipeline),
    ShaderModule(vk::ShaderModule),
    PipelineLayout(vk::PipelineLayout),
    SetLayout(vk::DescriptorSetLayout),
    DescriptorPool(vk::DescriptorPool),
}

/// What the device found out once, for every context.
#[derive(Debug, Clone)]
pub struct DeviceCaps {
    /// The device's name (the end of `GL_RENDERER`).
    pub name: String,
    /// Core limits.
    pub limits: vk::PhysicalDeviceLimits,
    /// The depth/stencil format of default framebuffers and depth renderbuffers.
    pub depth_stencil_format: vk::Format,
    /// Whether `VK_INDEX_TYPE_UINT8_EXT` indices are available (`GL_UNSIGNED_BYTE` indices).
    pub index_u8: bool,
    /// Whether instance divisors above 1 are available (`VK_EXT_vertex_attribute_divisor`).
    pub vertex_divisor: bool,
    /// `dualSrcBlend`: the `GL_SRC1_*` blend factors (without it they are `GL_INVALID_ENUM` and
    /// `GL_MAX_DUAL_SOURCE_DRAW_BUFFERS` is 0).
    pub dual_src_blend: bool,
    /// `depthClamp`: `GL_DEPTH_CLAMP` (without it the capability is `GL_INVALID_ENUM`).
    pub depth_clamp: bool,
    /// `independentBlend`: draw buffers with different blend enables or colour masks (without
    /// it a draw that needs them is `GL_INVALID_OPERATION`).
    pub independent_blend: bool,
    /// `largePoints`: `glPointSize` above 1 (without it points are drawn 1 pixel wide).
    pub large_points: bool,
}

/// The manager plus the locked state that goes with it.
pub struct Locked {
    pub manager: MemoryManager,
    pub(crate) garbage: Vec<(u64, Garbage)>,
    /// Every pipeline built, by the state it was built for (shared by all contexts).
    pub(crate) pipelines: HashMap<PipelineKey, vk::Pipeline>,
    samplers: Vec<(SamplerDesc, SamplerHandle)>,
}

// SAFETY: the manager is `!Send` only because its buffers carry the raw pointers of their
// persistent mappings. Those point into device memory the manager owns, valid from any thread;
// Vulkan objects are externally synchronised, which the mutex around `Locked` provides: only
// one thread at a time touches the manager, its queue and its command buffers.
unsafe impl Send for Locked {}

/// One Vulkan device shared by the process's GL contexts.
pub struct Device {
    inner: Mutex<Locked>,
    raw: ash::Device,
    caps: DeviceCaps,
    pipeline_cache: vk::PipelineCache,
}

impl Device {
    /// Opens the device and its manager from the environment (`ARENAGL_*` variables: device,
    /// validation, heap limits, faults, budget, telemetry).
    pub fn open() -> Result<Arc<Device>, GlError> {
        let manager = MemoryManager::from_env().map_err(GlError::Memory)?;
        Device::with_manager(manager)
    }

    /// Wraps an existing manager.
    pub fn with_manager(manager: MemoryManager) -> Result<Arc<Device>, GlError> {
        let raw = manager.device().clone();
        let info: &DeviceInfo = manager.device_info();
        let depth_stencil_format = [
            vk::Format::D24_UNORM_S8_UINT,
            vk::Format::D32_SFLOAT_S8_UINT,
        ]
        .into_iter()
        .find(|&f| {
            let desc = ImageDesc::new_2d(
                f,
                1,
                1,
                1,
                vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT,
                arenagl_memory::Category::RenderTarget,
            );
            manager.supports_image(&desc)
        })
        .ok_or_else(|| {
            GlError::Memory(MemoryError::Unsupported(
                "no depth/stencil attachment format (D24S8 or D32S8)".into(),
            ))
        })?;
        let caps = DeviceCaps {
            name: info.name.clone(),
            limits: info.vk_limits,
            depth_stencil_format,
            index_u8: info.features.index_type_uint8,
            vertex_divisor: info.features.vertex_attribute_divisor,
            dual_src_blend: info.features.dual_src_blend,
            depth_clamp: info.features.depth_clamp,
            independent_blend: info.features.independent_blend,
            large_points: info.features.large_points,
        };
        let cache_info = vk::PipelineCacheCreateInfo::default();
        // SAFETY: valid device; the create info lives across the call.
        let pipeline_cache = unsafe { raw.create_pipeline_cache(&cache_info, None) }
            .map_err(|r| GlError::vulkan("vkCreatePipelineCache", r))?;
        Ok(Arc::new(Device {
            inner: Mutex::new(Locked {
                manager,
                garbage: Vec::new(),
                pipelines: HashMap::new(),
                samplers: Vec::new(),
            }),
            raw,
            caps,
            pipeline_cache,
        }))
    }

    /// Locks the manager. A panic while it was held (caught at the C edge) leaves the state as
    /// the panicking call left it; the manager's own invariants hold between its calls, so the
    /// lock is taken over rather than propagating the poison forever.
    pub fn lock(&self) -> MutexGuard<'_, Locked> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The raw device, for creating non-memory objects and recording.
    pub fn raw(&self) -> &ash::Device {
        &self.raw
    }

    pub fn caps(&self) -> &DeviceCaps {
        &self.caps
    }

    pub(crate) fn pipeline_cache(&self) -> vk::PipelineCache {
        self.pipeline_cache
    }
}

impl Locked {
    /// Destroys `item` once `epoch` completes.
    pub(crate) fn defer_at(&mut self, epoch: u64, item: Garbage) {
        self.garbage.push((epoch, item));
    }

    /// Destroys `item` once the epoch being recorded completes.
    pub(crate) fn defer(&mut self, item: Garbage) {
        let epoch = self.manager.recording_epoch();
        self.garbage.push((epoch, item));
    }

    /// Defers the destruction of every pipeline built for the linked program `id`.
    pub(crate) fn forget_pipelines_of(&mut self, id: u64) {
        let keys: Vec<PipelineKey> = self
            .pipelines
            .keys()
            .filter(|k| k.program == id)
            .cloned()
            .collect();
        for k in keys {
            if let Some(p) = self.pipelines.remove(&k) {
                self.defer(Garbage::Pipeline(p));
            }
        }
    }

    /// Destroys the deferred objects whose epoch completed.
    pub(crate) fn collect(&mut self, device: &ash::Device) {
        let done = self.manager.completed_epoch();
        let lost = self.manager.is_lost();
        let mut i = 0;
        while i < self.garbage.len() {
            if lost || self.garbage[i].0 <= done {
                let (_, item) = self.garbage.swap_remove(i);
                destroy(device, item);
            } else {
                i += 1;
            }
        }
    }

    /// A sampler for `desc`, shared by every texture with the same parameters (samplers are a
    /// scarce object on some devices: `maxSamplerAllocationCount` is 4000 on many).
    pub(crate) fn sampler(&mut self, desc: &SamplerDesc) -> Result<SamplerHandle, MemoryError> {
        if let Some((_, h)) = self.samplers.iter().find(|(d, _)| d == desc) {
            return Ok(*h);
        }
        let handle = self.manager.create_sampler(desc)?;
        self.samplers.push((desc.clone(), handle));
        Ok(handle)
    }

    /// Creates an image and its full view.
    pub(crate) fn image_with_view(
        &mut self,
        desc: &ImageDesc,
        view: &ViewDesc,
    ) -> Result<(ImageHandle, ViewHandle), MemoryError> {
        let image = self.manager.create_image(desc)?;
        match self.manager.create_view(image, view) {
            Ok(v) => Ok((image, v)),
            Err(e) => {
                let _ = self.manager.retire_image(image);
                Err(e)
            }
        }
    }
}

fn destroy(device: &ash::Device, item: Garbage) {
    // SAFETY: every object was created on `device`, and the epoch that last could reference it
    // completed (or the device is lost), so no pending command buffer uses it.
    unsafe {
        match item {
            Garbage::Pipeline(p) => device.destroy_pipeline(p, None),
            Garbage::ShaderModule(m) => device.destroy_shader_module(m, None),
            Garbage::PipelineLayout(l) => device.destroy_pipeline_layout(l, None),
            Garbage::SetLayout(l) => device.destroy_descriptor_set_layout(l, None),
            Garbage::DescriptorPool(p) => device.destroy_descriptor_pool(p, None),
        }
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        let locked = self.inner.get_mut().unwrap_or_else(PoisonError::into_inner);
        let _ = locked.manager.collect_garbage_blocking();
        for (_, p) in locked.pipelines.drain() {
            destroy(&self.raw, Garbage::Pipeline(p));
        }
        for (_, item) in locked.garbage.drain(..) {
            destroy(&self.raw, item);
        }
        for (_, s) in locked.samplers.drain(..) {
            let _ = locked.manager.retire_sampler(s);
        }
        // SAFETY: the cache belongs to this device; nothing uses it once the contexts are gone.
        unsafe { self.raw.destroy_pipeline_cache(self.pipeline_cache, None) };
    }
}
