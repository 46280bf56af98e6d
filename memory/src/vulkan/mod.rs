//! The Vulkan backend: ash for the device, VMA for sub-allocation.
//!
//! `context` opens the instance and device, `suballoc` owns VMA and its per-class pools,
//! `submit` owns the queue, the timeline semaphore and the command buffers, `present` the window
//! surfaces and swapchains (presenting is a queue operation, so it is the manager's), `conv` maps
//! result codes. [`MemoryManager`] is the manager over this backend; its extra methods (the recording
//! command buffer, the device, the pool report, the validation log) live at the bottom.

mod blit;
mod blocks;
mod buffer_to_image;
pub mod context;
pub(crate) mod conv;
mod copy;
mod epoch_fences;
mod pipeline;
mod present;
pub mod profile;
mod render;
mod render_pass;
mod resolve;
mod restore;
mod suballoc;
mod submit;
mod transfer;

use std::time::Duration;

use ash::vk;

use crate::backend::{AllocInfo, Backend, DeviceLimits, Mapping, Placement};
use crate::desc::{BufferDesc, ImageDesc, MemoryClass, SamplerDesc, ViewDesc};
use crate::error::{MemoryError, Result};
use crate::manager::{Manager, ManagerConfig};
use crate::stats::DeviceMemoryCounters;
use crate::sync::Arc;
use crate::Epoch;
use context::{DeviceShared, OpenOptions};
use conv::map_alloc;
use suballoc::{SubAllocation, SubAllocator, VmaSubAllocator};
use submit::Submitter;

pub use blit::BlitSide;
pub use blocks::compressed_block;
pub use context::{
    DeviceFeatures, DeviceInfo, Gl4Features, HeapInfo, MemoryTypeInfo, ValidationLog,
};
pub use copy::CopySide;
pub use present::{Presented, WaylandWindow, WindowId, XcbWindow, XlibWindow};
pub use profile::Profile;
pub use render::StreamRange;
pub use restore::DeviceHold;
pub use transfer::{format_aspects, ImageRegion, UploadPath};

/// How to open the Vulkan device.
#[derive(Debug, Clone)]
pub struct VulkanConfig {
    /// Enable `VK_LAYER_KHRONOS_validation` and count its errors.
    pub validation: bool,
    /// Use the Nth enumerated device instead of the best suitable one.
    pub device_index: Option<usize>,
    /// Cap every heap at this many bytes (VMA `heap_size_limits`), to simulate small devices.
    pub heap_size_limit: Option<u64>,
    /// VMA's preferred block size for large heaps.
    pub block_size: u64,
    /// Clamp the device to this Vulkan-Profiles profile: a built-in name or a JSON path
    /// (`ARENAGL_VK_PROFILE`; see [`Profile::load`]).
    pub profile: Option<String>,
    /// Begin render passes even where dynamic rendering exists (`ARENAGL_FORCE_RENDER_PASS=1`):
    /// the render-pass fallback of Vulkan 1.1/1.2 devices, testable on any device.
    pub force_render_pass: bool,
    /// Keep the epoch clock with a fence per submission even where timeline semaphores exist
    /// (`ARENAGL_FORCE_FENCES=1`): the fallback of Vulkan 1.1 devices, testable on any device.
    pub force_fences: bool,
}

impl Default for VulkanConfig {
    fn default() -> Self {
        Self {
            validation: false,
            device_index: None,
            heap_size_limit: None,
            block_size: 64 << 20,
            profile: None,
            force_render_pass: false,
            force_fences: false,
        }
    }
}

impl VulkanConfig {
    /// Reads `ARENAGL_VALIDATION=1`, `ARENAGL_DEVICE=N`, `ARENAGL_HEAP_LIMIT_MB=N` and
    /// `ARENAGL_VK_PROFILE=NAME|FILE.json`, `ARENAGL_FORCE_RENDER_PASS=1`,
    /// `ARENAGL_FORCE_FENCES=1`.
    pub fn from_env() -> Self {
        let var = |name: &str| std::env::var(name).ok();
        Self {
            validation: var("ARENAGL_VALIDATION").is_some_and(|v| v.trim() == "1"),
            device_index: var("ARENAGL_DEVICE").and_then(|v| v.trim().parse().ok()),
            heap_size_limit: var("ARENAGL_HEAP_LIMIT_MB")
                .and_then(|v| v.trim().parse::<u64>().ok())
                .map(|mb| mb << 20),
            profile: var("ARENAGL_VK_PROFILE").filter(|v| !v.trim().is_empty()),
            force_render_pass: var("ARENAGL_FORCE_RENDER_PASS").is_some_and(|v| v.trim() == "1"),
            force_fences: var("ARENAGL_FORCE_FENCES").is_some_and(|v| v.trim() == "1"),
            ..Self::default()
        }
    }
}

/// A buffer with its VMA allocation.
pub struct VulkanBuffer {
    raw: vk::Buffer,
    allocation: vk_mem::Allocation,
    mapped: *mut u8,
    size: u64,
    coherent: bool,
}

impl VulkanBuffer {
    /// The Vulkan buffer, for recording commands.
    pub fn raw(&self) -> vk::Buffer {
        self.raw
    }
}

/// An image with its VMA allocation.
pub struct VulkanImage {
    raw: vk::Image,
    allocation: vk_mem::Allocation,
    format: vk::Format,
}

impl VulkanImage {
    /// The Vulkan image, for recording commands.
    pub fn raw(&self) -> vk::Image {
        self.raw
    }
}

/// An image view.
pub struct VulkanView(vk::ImageView);

impl VulkanView {
    /// The Vulkan image view.
    pub fn raw(&self) -> vk::ImageView {
        self.0
    }
}

/// A sampler.
pub struct VulkanSampler(vk::Sampler);

impl VulkanSampler {
    /// The Vulkan sampler.
    pub fn raw(&self) -> vk::Sampler {
        self.0
    }
}

/// Which memory type a pool chose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolReport {
    /// The class.
    pub class: MemoryClass,
    /// Memory type index.
    pub memory_type: u32,
    /// Its property flags.
    pub flags: vk::MemoryPropertyFlags,
    /// Its heap.
    pub heap: u32,
    /// The heap's size.
    pub heap_size: u64,
}

/// The Vulkan device as a [`Backend`].
pub struct VulkanBackend {
    // Declaration order is drop order: swapchains and surfaces, command buffers and semaphore,
    // then VMA, then the device.
    presenter: present::Presenter,
    submitter: Submitter,
    suballoc: VmaSubAllocator,
    shared: Arc<DeviceShared>,
    /// What it was opened with (a re-open after a loss uses the same).
    config: VulkanConfig,
}

impl VulkanBackend {
    /// Opens the device and creates the pools.
    pub fn open(config: &VulkanConfig) -> Result<Self> {
        Self::open_at(config, None, Epoch::ZERO)
    }

    /// Opens the device with `validation_log` continued and the epoch clock at `completed`.
    fn open_at(
        config: &VulkanConfig,
        validation_log: Option<Arc<context::ValidationLog>>,
        completed: Epoch,
    ) -> Result<Self> {
        let profile = config
            .profile
            .as_deref()
            .map(Profile::load)
            .transpose()
            .map_err(|e| MemoryError::NoDevice(format!("ARENAGL_VK_PROFILE: {e}")))?;
        let (shared, queue) = context::open(&OpenOptions {
            validation: config.validation,
            device_index: config.device_index,
            profile: profile.map(Arc::new),
            force_render_pass: config.force_render_pass,
            force_fences: config.force_fences,
            validation_log,
        })?;
        let suballoc = VmaSubAllocator::new(&shared, config.block_size, config.heap_size_limit)?;
        let xfb = shared.info.features.gl4.transform_feedback;
        let xfb =
            xfb.then(|| ash::ext::transform_feedback::Device::new(&shared.instance, &shared.raw));
        let submitter = Submitter::new(
            &shared.raw,
            queue,
            shared.queue_family,
            (
                shared.info.features.dynamic_rendering,
                shared.info.features.timeline_semaphore,
            ),
            (xfb, render_pass::Create2::of(&shared)),
            completed,
        )?;
        Ok(Self {
            presenter: present::Presenter::new(&shared),
            submitter,
            suballoc,
            shared,
            config: config.clone(),
        })
    }

    /// The shared device state.
    pub fn shared(&self) -> &Arc<DeviceShared> {
        &self.shared
    }

    fn coherent(&self, memory_type: u32) -> bool {
        self.shared
            .info
            .memory_types
            .get(memory_type as usize)
            .is_some_and(|t| t.flags.contains(vk::MemoryPropertyFlags::HOST_COHERENT))
    }

    fn alloc_info<A>(sub: &SubAllocation<A>) -> AllocInfo {
        AllocInfo {
            size: sub.size,
            dedicated: sub.dedicated,
            memory_type: sub.memory_type,
        }
    }
}

impl VulkanBackend {
    /// Under a device profile that lists formats, `desc`'s usage must be among the format's
    /// clamped optimal-tiling features (the device's own check passed already).
    fn check_profile_format(&self, desc: &ImageDesc) -> Result<()> {
        if !self
            .shared
            .info
            .profile
            .as_ref()
            .is_some_and(|p| p.clamps_formats())
        {
            return Ok(());
        }
        let have = self
            .shared
            .format_properties(desc.format)
            .optimal_tiling_features;
        let need = [
            (
                vk::ImageUsageFlags::SAMPLED,
                vk::FormatFeatureFlags::SAMPLED_IMAGE,
            ),
            (
                vk::ImageUsageFlags::STORAGE,
                vk::FormatFeatureFlags::STORAGE_IMAGE,
            ),
            (
                vk::ImageUsageFlags::COLOR_ATTACHMENT,
                vk::FormatFeatureFlags::COLOR_ATTACHMENT,
            ),
            (
                vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT,
                vk::FormatFeatureFlags::DEPTH_STENCIL_ATTACHMENT,
            ),
            (
                vk::ImageUsageFlags::TRANSFER_SRC,
                vk::FormatFeatureFlags::TRANSFER_SRC,
            ),
            (
                vk::ImageUsageFlags::TRANSFER_DST,
                vk::FormatFeatureFlags::TRANSFER_DST,
            ),
        ]
        .into_iter()
        .filter(|(usage, _)| desc.usage.contains(*usage))
        .fold(vk::FormatFeatureFlags::empty(), |a, (_, f)| a | f);
        if have.contains(need) {
            return Ok(());
        }
        Err(MemoryError::Unsupported(format!(
            "format {:?} with usage {:?} under the device profile (it guarantees {:?})",
            desc.format, desc.usage, have
        )))
    }
}

impl Backend for VulkanBackend {
    type Buffer = VulkanBuffer;
    type Image = VulkanImage;
    type View = VulkanView;
    type Sampler = VulkanSampler;

    fn limits(&self) -> &DeviceLimits {
        &self.shared.info.limits
    }

    fn device_memory(&self) -> DeviceMemoryCounters {
        self.suballoc.counters()
    }

    fn heap_budget(&self) -> Option<u64> {
        let info = &self.shared.info;
        if !info.features.memory_budget {
            return None;
        }
        let (index, _) = info
            .heaps
            .iter()
            .enumerate()
            .filter(|(_, h)| h.device_local)
            .max_by_key(|(_, h)| h.size)?;
        self.suballoc.fresh_heap_budgets().get(index).copied()
    }

    fn check_image(&self, desc: &ImageDesc) -> Result<()> {
        // SAFETY: plain query on the physical device this backend was opened on.
        let props = unsafe {
            self.shared
                .instance
                .get_physical_device_image_format_properties(
                    self.shared.physical,
                    desc.format,
                    desc.image_type,
                    vk::ImageTiling::OPTIMAL,
                    desc.usage,
                    desc.flags,
                )
        }
        .map_err(|r| match r {
            vk::Result::ERROR_FORMAT_NOT_SUPPORTED => MemoryError::Unsupported(format!(
                "format {:?} with usage {:?} and flags {:?}",
                desc.format, desc.usage, desc.flags
            )),
            other => map_alloc("vkGetPhysicalDeviceImageFormatProperties", other),
        })?;
        self.check_profile_format(desc)?;
        let e = desc.extent;
        let m = props.max_extent;
        if e.width > m.width || e.height > m.height || e.depth > m.depth {
            return Err(MemoryError::Unsupported(format!(
                "extent {}x{}x{} exceeds {}x{}x{} for {:?}",
                e.width, e.height, e.depth, m.width, m.height, m.depth, desc.format
            )));
        }
        if desc.mip_levels > props.max_mip_levels || desc.array_layers > props.max_array_layers {
            return Err(MemoryError::Unsupported(format!(
                "{} mips / {} layers exceed {} / {}",
                desc.mip_levels, desc.array_layers, props.max_mip_levels, props.max_array_layers
            )));
        }
        if !props.sample_counts.contains(desc.samples) || desc.samples.as_raw().count_ones() != 1 {
            return Err(MemoryError::Unsupported(format!(
                "sample count {:?} (supported {:?})",
                desc.samples, props.sample_counts
            )));
        }
        if crate::desc::packed_image_bytes(desc).is_some_and(|b| b > props.max_resource_size) {
            return Err(MemoryError::Unsupported(format!(
                "image larger than maxResourceSize ({})",
                props.max_resource_size
            )));
        }
        Ok(())
    }

    fn create_buffer(
        &mut self,
        desc: &BufferDesc,
        placement: Placement,
    ) -> Result<(VulkanBuffer, AllocInfo)> {
        let info = vk::BufferCreateInfo::default()
            .size(desc.size)
            .usage(desc.usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        let device = &self.shared.raw;
        // SAFETY: the create info is valid (the manager checked size and usage).
        let raw = unsafe { device.create_buffer(&info, None) }
            .map_err(|r| map_alloc("vkCreateBuffer", r))?;
        let sub = match self.suballoc.bind_buffer(raw, placement) {
            Ok(sub) => sub,
            Err(e) => {
                // SAFETY: the buffer is unbound and unused.
                unsafe { device.destroy_buffer(raw, None) };
                return Err(e);
            }
        };
        let alloc = Self::alloc_info(&sub);
        let coherent = self.coherent(sub.memory_type);
        Ok((
            VulkanBuffer {
                raw,
                mapped: sub.mapped,
                size: desc.size,
                coherent,
                allocation: sub.allocation,
            },
            alloc,
        ))
    }

    fn destroy_buffer(&mut self, buffer: VulkanBuffer) {
        // SAFETY: the manager destroys a buffer only after every submission using it completed.
        unsafe { self.shared.raw.destroy_buffer(buffer.raw, None) };
        self.suballoc.free(buffer.allocation);
    }

    fn buffer_mapping(&self, buffer: &VulkanBuffer) -> Option<Mapping> {
        Some(Mapping {
            ptr: std::ptr::NonNull::new(buffer.mapped)?,
            len: usize::try_from(buffer.size).ok()?,
            coherent: buffer.coherent,
        })
    }

    fn flush_buffer(&self, buffer: &VulkanBuffer, offset: u64, len: u64) -> Result<()> {
        self.suballoc.flush(&buffer.allocation, offset, len)
    }

    fn invalidate_buffer(&self, buffer: &VulkanBuffer, offset: u64, len: u64) -> Result<()> {
        self.suballoc.invalidate(&buffer.allocation, offset, len)
    }

    fn create_image(
        &mut self,
        desc: &ImageDesc,
        placement: Placement,
    ) -> Result<(VulkanImage, AllocInfo)> {
        let info = vk::ImageCreateInfo::default()
            .image_type(desc.image_type)
            .format(desc.format)
            .extent(desc.extent)
            .mip_levels(desc.mip_levels)
            .array_layers(desc.array_layers)
            .samples(desc.samples)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(desc.usage)
            .flags(desc.flags)
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .initial_layout(vk::ImageLayout::UNDEFINED);
        let device = &self.shared.raw;
        // SAFETY: the manager validated the description against the format properties.
        let raw = unsafe { device.create_image(&info, None) }
            .map_err(|r| map_alloc("vkCreateImage", r))?;
        let sub = match self.suballoc.bind_image(raw, placement) {
            Ok(sub) => sub,
            Err(e) => {
                // SAFETY: the image is unbound and unused.
                unsafe { device.destroy_image(raw, None) };
                return Err(e);
            }
        };
        let alloc = Self::alloc_info(&sub);
        Ok((
            VulkanImage {
                raw,
                allocation: sub.allocation,
                format: desc.format,
            },
            alloc,
        ))
    }

    fn destroy_image(&mut self, image: VulkanImage) {
        // SAFETY: as for buffers.
        unsafe { self.shared.raw.destroy_image(image.raw, None) };
        self.suballoc.free(image.allocation);
    }

    fn create_view(
        &mut self,
        image: &VulkanImage,
        image_desc: &ImageDesc,
        desc: &ViewDesc,
    ) -> Result<VulkanView> {
        let format = if desc.format == vk::Format::UNDEFINED {
            image.format
        } else {
            desc.format
        };
        let info = vk::ImageViewCreateInfo::default()
            .image(image.raw)
            .view_type(desc.view_type)
            .format(format)
            .components(desc.components)
            .subresource_range(vk::ImageSubresourceRange {
                aspect_mask: desc.aspect,
                base_mip_level: desc.base_mip_level,
                level_count: desc.mip_level_count,
                base_array_layer: desc.base_array_layer,
                layer_count: desc.layer_count,
            });
        // A view in another format of a mutable-format image (texture views, UNORM views of
        // sRGB images) is used only as its format allows: the image's usage without what the
        // view format lacks the features for (storage for sRGB formats, for example).
        let mut usage = vk::ImageViewUsageCreateInfo::default().usage(view_usage(
            image_desc.usage,
            self.shared.format_properties(format),
        ));
        let info = if format == image.format {
            info
        } else {
            info.push_next(&mut usage)
        };
        // SAFETY: the manager checked the range against the image it belongs to.
        let view = unsafe { self.shared.raw.create_image_view(&info, None) }
            .map_err(|r| map_alloc("vkCreateImageView", r))?;
        if let Some(passes) = self.submitter.passes.as_mut() {
            passes.note_view(view, format, image_desc.samples);
        }
        Ok(VulkanView(view))
    }

    fn destroy_view(&mut self, view: VulkanView) {
        if let Some(passes) = self.submitter.passes.as_mut() {
            passes.forget_view(view.0);
        }
        // SAFETY: no pending submission uses the view (manager rule).
        unsafe { self.shared.raw.destroy_image_view(view.0, None) };
    }

    fn create_sampler(&mut self, desc: &SamplerDesc) -> Result<VulkanSampler> {
        let anisotropy = desc
            .max_anisotropy
            .filter(|&a| a > 1.0 && self.shared.info.features.sampler_anisotropy)
            .map(|a| a.min(self.shared.info.max_sampler_anisotropy));
        let info = vk::SamplerCreateInfo::default()
            .mag_filter(desc.mag_filter)
            .min_filter(desc.min_filter)
            .mipmap_mode(desc.mipmap_mode)
            .address_mode_u(desc.address_modes[0])
            .address_mode_v(desc.address_modes[1])
            .address_mode_w(desc.address_modes[2])
            .mip_lod_bias(desc.mip_lod_bias)
            .min_lod(desc.min_lod)
            .max_lod(desc.max_lod.max(desc.min_lod))
            .anisotropy_enable(anisotropy.is_some())
            .max_anisotropy(anisotropy.unwrap_or(1.0))
            .compare_enable(desc.compare_op.is_some())
            .compare_op(desc.compare_op.unwrap_or(vk::CompareOp::NEVER));
        let features = &self.shared.info.features;
        let custom = matches!(
            desc.border_color,
            vk::BorderColor::FLOAT_CUSTOM_EXT | vk::BorderColor::INT_CUSTOM_EXT
        );
        let mut custom_info = vk::SamplerCustomBorderColorCreateInfoEXT::default()
            .custom_border_color(vk::ClearColorValue {
                uint32: desc.custom_border,
            })
            .format(if features.custom_border_color_without_format {
                vk::Format::UNDEFINED
            } else {
                desc.custom_border_format
            });
        let info = if custom && features.custom_border_color {
            info.border_color(desc.border_color)
                .push_next(&mut custom_info)
        } else {
            info.border_color(crate::desc::nearest_builtin_border(
                desc.border_color,
                desc.custom_border,
            ))
        };
        // SAFETY: the create info is valid (anisotropy only with the feature, within limits;
        // a custom border colour only with `customBorderColors` enabled, and with the view's
        // format unless `customBorderColorWithoutFormat` is).
        unsafe { self.shared.raw.create_sampler(&info, None) }
            .map(VulkanSampler)
            .map_err(|r| map_alloc("vkCreateSampler", r))
    }

    fn destroy_sampler(&mut self, sampler: VulkanSampler) {
        // SAFETY: no pending submission uses the sampler (manager rule).
        unsafe { self.shared.raw.destroy_sampler(sampler.0, None) };
    }

    fn submit(&mut self, epoch: Epoch) -> Result<()> {
        self.submitter.submit(epoch)
    }

    fn submit_split(&mut self, epoch: Epoch) -> Result<bool> {
        self.submitter.submit_split(epoch, None, None)
    }

    fn discard_recording(&mut self) {
        self.submitter.discard();
    }

    fn poll_completed(&mut self) -> Result<Epoch> {
        self.submitter.poll()
    }

    fn wait(&mut self, epoch: Epoch, timeout: Duration) -> Result<bool> {
        self.submitter.wait(epoch, timeout)
    }

    /// The same physical device with the same configuration (profile, validation, heap
    /// limit), its validation log continued, and every open window's surface made again on
    /// the new instance (`Presenter::adopt_windows`: same window ids, swapchains made at each
    /// window's next present); refused when the new device's features differ from the lost
    /// one's.
    fn reopen(&self, completed: Epoch) -> Result<Self> {
        let config = VulkanConfig {
            device_index: Some(self.shared.physical_index),
            ..self.config.clone()
        };
        let mut fresh = Self::open_at(&config, self.shared.validation_log(), completed)?;
        if fresh.shared.info.features != self.shared.info.features {
            return Err(MemoryError::NoDevice(
                "the re-opened device enables other features than the lost one".into(),
            ));
        }
        fresh.presenter.adopt_windows(&self.presenter)?;
        Ok(fresh)
    }
}

/// The budget for this device: the platform profile (`ARENAGL_PROFILE`, else this Linux host
/// from cgroup v2 and available RAM), the largest device-local heap, `VK_EXT_memory_budget`'s
/// budget for it (`heap_budget`, when the device has the extension), and `ARENAGL_BUDGET_MB`.
pub fn derive_budget(
    info: &DeviceInfo,
    heap_budget: Option<u64>,
    overrides: arenagl_residency::EnvOverrides,
) -> arenagl_residency::Budget {
    arenagl_residency::Budget::derive(&budget_inputs(info, heap_budget, overrides))
}

/// What [`derive_budget`] derives from (kept by the manager, which derives again when a live
/// signal moves one of them: `budget.rs`).
pub fn budget_inputs(
    info: &DeviceInfo,
    heap_budget: Option<u64>,
    overrides: arenagl_residency::EnvOverrides,
) -> arenagl_residency::BudgetInputs {
    use arenagl_residency::{BudgetInputs, Profile, VulkanMemory};
    let heap = info
        .heaps
        .iter()
        .filter(|h| h.device_local)
        .map(|h| h.size)
        .max()
        .unwrap_or(0);
    BudgetInputs::new(Profile::linux_host())
        .with_vulkan(VulkanMemory {
            device_local_heap_bytes: heap,
            unified: info.unified_memory(),
            heap_budget_bytes: heap_budget,
        })
        .with_overrides(overrides)
}

/// The recycle bin's cap for a device under `budget`: `ARENAGL_RECYCLE_BIN_MB` (0 turns the bin
/// off), else 1/32 of the budget, at most 64 MiB: room for a frame's worth of a game's churned
/// resources, small beside the budget, and emptied first under pressure anyway.
pub fn recycle_bin_bytes(budget: &arenagl_residency::Budget) -> Result<u64> {
    const MIB: u64 = 1 << 20;
    match std::env::var(RECYCLE_BIN_VAR) {
        Ok(v) => v.trim().parse::<u64>().map(|mb| mb * MIB).map_err(|_| {
            MemoryError::InvalidRequest(format!(
                "{RECYCLE_BIN_VAR}={v:?}: expected a whole number of MiB"
            ))
        }),
        Err(_) => Ok((budget.total_bytes / 32).min(64 * MIB)),
    }
}

/// The variable that overrides the recycle bin's cap, in MiB.
pub const RECYCLE_BIN_VAR: &str = "ARENAGL_RECYCLE_BIN_MB";

/// The memory manager on the real device.
pub type MemoryManager = Manager<VulkanBackend>;

impl Manager<VulkanBackend> {
    /// Opens the Vulkan device and builds the manager.
    pub fn new(vulkan: &VulkanConfig, config: ManagerConfig) -> Result<Self> {
        Ok(Self::with_backend(VulkanBackend::open(vulkan)?, config))
    }

    /// Opens the device configured from the environment (`ARENAGL_VALIDATION`,
    /// `ARENAGL_DEVICE`, `ARENAGL_HEAP_LIMIT_MB`, `ARENAGL_FAULTS`, `ARENAGL_FAULT_*`) and installs the budget
    /// derived from the platform, the device's heaps and `ARENAGL_PROFILE` / `ARENAGL_BUDGET_MB`,
    /// with the pressure policy's `ARENAGL_DEMOTE_AFTER_FRAMES` / `ARENAGL_CRITICAL_RENDER_SCALE`
    /// the recycle bin's cap ([`recycle_bin_bytes`]) and the recovery policy with its restore
    /// journal (`ARENAGL_RECOVER`, `ARENAGL_JOURNAL_MB`, `ARENAGL_JOURNAL_DIR`:
    /// [`crate::recover::RecoverPolicy::from_env`]); on a device whose memory is host memory
    /// (every device-local type host-visible: lavapipe, phones) the C heap is trimmed whenever
    /// device memory grows ([`Manager::set_trim_host_heap`]).
    pub fn from_env() -> Result<Self> {
        let config = ManagerConfig {
            faults: crate::fault::FaultPlan::from_env()?,
            ..ManagerConfig::default()
        };
        let mut manager = Self::new(&VulkanConfig::from_env(), config)?;
        let overrides = arenagl_residency::EnvOverrides::from_env()
            .map_err(|e| MemoryError::InvalidRequest(e.to_string()))?;
        let inputs = budget_inputs(
            manager.device_info(),
            manager.heap_budget_bytes(),
            overrides,
        );
        let budget = arenagl_residency::Budget::derive(&inputs);
        let bin = recycle_bin_bytes(&budget)?;
        let unified = manager.device_info().unified_memory();
        let recover = crate::recover::RecoverPolicy::from_env(Some(budget.total_bytes), unified)?;
        let reader = arenagl_residency::signals::SignalReader::from_env();
        manager.set_live_budget(inputs, reader);
        manager.set_recover_policy(recover);
        manager.set_recycle_bin_bytes(bin);
        let host_memory = manager.device_info().unified_memory();
        manager.set_trim_host_heap(host_memory);
        let policy = arenagl_residency::overrides::policy_from_env()
            .map_err(|e| MemoryError::InvalidRequest(e.to_string()))?;
        manager.set_pressure_policy(policy);
        if std::env::var("ARENAGL_TELEMETRY").map_or(true, |v| v.trim() != "0") {
            if let Err(e) = manager.publish_telemetry(None) {
                tracing::warn!(error = %e, "telemetry page not published");
            }
        }
        Ok(manager)
    }

    /// The command buffer being recorded (begun if needed). Fetch it again after any manager
    /// call that may submit (allocation under pressure, blocking GC, `submit`): those end the
    /// current one and recording continues in a fresh one.
    ///
    /// The command buffer is outside any render pass: an open one (see
    /// [`MemoryManager::begin_rendering`]) is ended first, so transfers and barriers may follow.
    pub fn recording_command_buffer(&mut self) -> Result<vk::CommandBuffer> {
        if self.is_lost() {
            return Err(MemoryError::DeviceLost);
        }
        self.backend_mut().submitter.end_rendering();
        let cb = self.backend_mut().submitter.recording()?;
        self.note_recording();
        Ok(cb)
    }

    /// Command buffers (segments) of the recording not yet submitted: what a submission that
    /// runs out of memory can be split into (`vulkan/submit.rs`).
    pub fn recorded_segments(&self) -> usize {
        self.backend().submitter.segments()
    }

    /// The device, for recording commands.
    pub fn device(&self) -> &ash::Device {
        &self.backend().shared.raw
    }

    /// The instance, for loading device-extension commands (`VK_EXT_transform_feedback`).
    pub fn instance(&self) -> &ash::Instance {
        &self.backend().shared.instance
    }

    /// Whether the device can create an image like `desc` (format, usage, flags).
    pub fn supports_image(&self, desc: &ImageDesc) -> bool {
        self.backend().check_image(desc).is_ok()
    }

    /// Everything learned about the device.
    pub fn device_info(&self) -> &DeviceInfo {
        &self.backend().shared.info
    }

    /// The memory type each pool chose.
    pub fn pool_report(&self) -> Vec<PoolReport> {
        let info = &self.backend().shared.info;
        MemoryClass::ALL
            .iter()
            .map(|&class| {
                let memory_type = self.backend().suballoc.pool_memory_type(class);
                let t = info.memory_types.get(memory_type as usize);
                let heap = t.map(|t| t.heap).unwrap_or(u32::MAX);
                PoolReport {
                    class,
                    memory_type,
                    flags: t.map(|t| t.flags).unwrap_or_default(),
                    heap,
                    heap_size: info.heaps.get(heap as usize).map(|h| h.size).unwrap_or(0),
                }
            })
            .collect()
    }

    /// `VK_EXT_memory_budget`'s budget for the largest device-local heap, when the device has
    /// the extension.
    pub fn heap_budget_bytes(&self) -> Option<u64> {
        self.backend().heap_budget()
    }

    /// Allocations placed outside their class's pool because of their memory requirements.
    pub fn pool_fallbacks(&self) -> u64 {
        self.backend().suballoc.fallbacks()
    }

    /// Validation-layer error messages so far (empty when validation is off).
    pub fn validation_errors(&self) -> Vec<String> {
        self.backend()
            .shared
            .validation()
            .map(|v| v.messages())
            .unwrap_or_default()
    }

    /// Number of validation-layer errors so far.
    pub fn validation_error_count(&self) -> u64 {
        self.backend()
            .shared
            .validation()
            .map(|v| v.error_count())
            .unwrap_or(0)
    }
}

/// The part of an image's `usage` that a view of a format with `props` may have (the
/// view-usage rule of `vkCreateImageView`: each usage needs its format feature).
fn view_usage(usage: vk::ImageUsageFlags, props: vk::FormatProperties) -> vk::ImageUsageFlags {
    use vk::FormatFeatureFlags as F;
    use vk::ImageUsageFlags as U;
    let features = props.optimal_tiling_features;
    let needs = [
        (U::SAMPLED, F::SAMPLED_IMAGE),
        (U::STORAGE, F::STORAGE_IMAGE),
        (U::COLOR_ATTACHMENT, F::COLOR_ATTACHMENT),
        (U::DEPTH_STENCIL_ATTACHMENT, F::DEPTH_STENCIL_ATTACHMENT),
    ];
    needs
        .iter()
        .filter(|(_, feature)| !features.contains(*feature))
        .fold(usage, |u, (flag, _)| u & !*flag)
}
