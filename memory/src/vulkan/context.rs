//! The device context: instance (with the validation layer and its messenger), the chosen
//! physical device, the logical device and its one queue, and what was discovered about them.
//!
//! Design decisions:
//! - The first suitable device wins, preferring discrete > integrated > virtual > CPU; suitable
//!   means Vulkan 1.1+ (with `VK_KHR_create_renderpass2` below 1.2) and a graphics queue. A
//!   Vulkan 1.1 device is created with 1.1 structures only (no
//!   `VkPhysicalDeviceVulkan11/12Features`): the 1.2 features it has come from their extensions
//!   (`LaterFeatures`). `ARENAGL_DEVICE=N`
//!   picks the Nth enumerated device instead. A device that falls short is refused with a
//!   message naming what it lacks (and the profile that took it away, if any).
//! - `ARENAGL_VK_PROFILE` clamps the device to a Vulkan-Profiles document ([`Profile`]): the
//!   API version, extensions, features, limits and formats are intersected with the profile's
//!   before anything is enabled, so the rest of ArenaGL only ever sees the clamped device.
//! - Dynamic rendering, synchronization2, extended dynamic state, push descriptors, memory
//!   budget and sampler anisotropy are optional: enabled when present, recorded in
//!   [`DeviceFeatures`] for the translator to branch on.
//! - Window presentation is optional too: `VK_KHR_surface` + `VK_KHR_xlib_surface` / `_xcb_surface` /
//!   `VK_KHR_wayland_surface` on the instance and `VK_KHR_swapchain` on the device are enabled
//!   when present ([`DeviceFeatures::xlib_present`], [`DeviceFeatures::wayland_present`]);
//!   without them only window surfaces fail.
//! - With validation on, every message of error severity is counted in a [`ValidationLog`];
//!   tests fail on a non-zero count (lavapipe silently accepts what the layer rejects).

use std::ffi::{c_void, CStr, CString};

use ash::vk;

use crate::backend::DeviceLimits;
use crate::error::{MemoryError, Result};
use crate::sync::{lock, Arc, AtomicU64, Mutex, Ordering};
use crate::vulkan::conv::map_init;
use crate::vulkan::profile::Profile;

const VALIDATION_LAYER: &CStr = c"VK_LAYER_KHRONOS_validation";
const KEPT_MESSAGES: usize = 64;

/// Whether a Wayland compositor could be reached at all: its socket lives in `XDG_RUNTIME_DIR`
/// unless `WAYLAND_DISPLAY` is an absolute path.
fn wayland_reachable() -> bool {
    std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|d| !d.is_empty())
        || std::env::var("WAYLAND_DISPLAY").is_ok_and(|d| d.starts_with('/'))
}

/// Validation-layer errors seen so far.
#[derive(Debug, Default)]
pub struct ValidationLog {
    errors: AtomicU64,
    messages: Mutex<Vec<String>>,
}

impl ValidationLog {
    /// Number of error-severity messages.
    pub fn error_count(&self) -> u64 {
        self.errors.load(Ordering::Acquire)
    }

    /// The first error messages (at most 64 are kept).
    pub fn messages(&self) -> Vec<String> {
        lock(&self.messages).clone()
    }

    fn record(&self, message: String) {
        self.errors.fetch_add(1, Ordering::AcqRel);
        let mut kept = lock(&self.messages);
        if kept.len() < KEPT_MESSAGES {
            kept.push(message);
        }
    }
}

/// Optional capabilities found on the device (and enabled).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeviceFeatures {
    /// Timeline semaphores keep the epoch clock; without them (or with
    /// `ARENAGL_FORCE_FENCES=1`) a fence per submitted epoch does.
    pub timeline_semaphore: bool,
    /// `VK_KHR_dynamic_rendering` / Vulkan 1.3.
    pub dynamic_rendering: bool,
    /// `VK_KHR_synchronization2` / Vulkan 1.3.
    pub synchronization2: bool,
    /// `VK_EXT_extended_dynamic_state` / Vulkan 1.3.
    pub extended_dynamic_state: bool,
    /// `VK_KHR_push_descriptor`.
    pub push_descriptor: bool,
    /// `VK_EXT_vertex_attribute_divisor` with instance-rate divisors (GL divisors above 1).
    pub vertex_attribute_divisor: bool,
    /// `VK_EXT_index_type_uint8` (GL_UNSIGNED_BYTE indices without widening).
    pub index_type_uint8: bool,
    /// `VK_EXT_provoking_vertex` with `provokingVertexLast`: GL's default last-vertex
    /// convention for flat-shaded outputs (Vulkan's own is the first vertex).
    pub provoking_vertex_last: bool,
    /// `VK_EXT_memory_budget`.
    pub memory_budget: bool,
    /// `VK_EXT_custom_border_color` (`customBorderColors`): GL's arbitrary border colours,
    /// integer ones included; without it samplers take the nearest built-in colour.
    pub custom_border_color: bool,
    /// `customBorderColorWithoutFormat`: custom border samplers need not name the view format.
    pub custom_border_color_without_format: bool,
    /// `samplerAnisotropy`.
    pub sampler_anisotropy: bool,
    /// `geometryShader`.
    pub geometry_shader: bool,
    /// `tessellationShader`.
    pub tessellation_shader: bool,
    /// `wideLines` (`glLineWidth` above 1).
    pub wide_lines: bool,
    /// `hostQueryReset` (Vulkan 1.2): query slots are reset from the host before reuse, so a
    /// query can begin inside a render pass (GL queries span the translator's pass breaks).
    pub host_query_reset: bool,
    /// `occlusionQueryPrecise`: exact `GL_SAMPLES_PASSED` counts.
    pub occlusion_query_precise: bool,
    /// `pipelineStatisticsQuery`: `GL_PRIMITIVES_GENERATED` under geometry shaders.
    pub pipeline_statistics_query: bool,
    /// `dualSrcBlend` (GL 3.3's `GL_SRC1_*` blend factors).
    pub dual_src_blend: bool,
    /// `depthClamp` (GL 3.2's `GL_DEPTH_CLAMP`).
    pub depth_clamp: bool,
    /// `independentBlend` (GL 3.0's per-draw-buffer `glColorMaski`/`glEnablei(GL_BLEND)`).
    pub independent_blend: bool,
    /// `largePoints` (GL's `glPointSize` above 1).
    pub large_points: bool,
    /// `VK_KHR_surface` + `VK_KHR_xlib_surface` (instance) and `VK_KHR_swapchain` (device):
    /// presenting to X11 windows (see `vulkan::present`).
    pub xlib_present: bool,
    /// `VK_KHR_surface` + `VK_KHR_xcb_surface` (instance) and `VK_KHR_swapchain` (device):
    /// presenting to X11 windows of an XCB connection (EGL_EXT_platform_xcb).
    pub xcb_present: bool,
    /// `VK_KHR_surface` + `VK_KHR_wayland_surface` (instance) and `VK_KHR_swapchain` (device):
    /// presenting to Wayland surfaces (see `vulkan::present`).
    pub wayland_present: bool,
    /// Core features behind GL 4.x and ES 3.1/3.2 (each enabled when the device has it).
    pub gl4: Gl4Features,
}

/// The device features the GL 4.x / ES 3.1+ surface maps onto, each enabled when present: the
/// translator offers a GL feature only where its Vulkan counterpart is `true` here.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Gl4Features {
    /// `shaderFloat64` (`GL_ARB_gpu_shader_fp64`, `GL_ARB_vertex_attrib_64bit`).
    pub shader_float64: bool,
    /// `shaderInt64` (`GL_ARB_gpu_shader_int64`).
    pub shader_int64: bool,
    /// `imageCubeArray` (`GL_ARB_texture_cube_map_array`).
    pub image_cube_array: bool,
    /// `sampleRateShading` (`GL_ARB_sample_shading`).
    pub sample_rate_shading: bool,
    /// `multiDrawIndirect` (`GL_ARB_multi_draw_indirect`).
    pub multi_draw_indirect: bool,
    /// `drawIndirectFirstInstance` (`GL_ARB_base_instance` through indirect draws).
    pub draw_indirect_first_instance: bool,
    /// `fragmentStoresAndAtomics` (SSBOs, images and atomic counters in fragment shaders).
    pub fragment_stores_and_atomics: bool,
    /// `vertexPipelineStoresAndAtomics` (the same in vertex, tessellation and geometry shaders).
    pub vertex_pipeline_stores_and_atomics: bool,
    /// `shaderImageGatherExtended` (`textureGatherOffset(s)` with non-constant offsets).
    pub shader_image_gather_extended: bool,
    /// `shaderStorageImageExtendedFormats` (the GL image formats beyond Vulkan's base set).
    pub shader_storage_image_extended_formats: bool,
    /// `shaderStorageImageMultisample` (`image2DMS`).
    pub shader_storage_image_multisample: bool,
    /// `shaderStorageImageReadWithoutFormat`.
    pub shader_storage_image_read_without_format: bool,
    /// `shaderStorageImageWriteWithoutFormat` (GL's `writeonly` images without a format).
    pub shader_storage_image_write_without_format: bool,
    /// `shaderSampledImageArrayDynamicIndexing` (`GL_ARB_gpu_shader5` sampler arrays).
    pub shader_sampled_image_array_dynamic_indexing: bool,
    /// `shaderUniformBufferArrayDynamicIndexing`.
    pub shader_uniform_buffer_array_dynamic_indexing: bool,
    /// `shaderStorageBufferArrayDynamicIndexing`.
    pub shader_storage_buffer_array_dynamic_indexing: bool,
    /// `shaderStorageImageArrayDynamicIndexing`.
    pub shader_storage_image_array_dynamic_indexing: bool,
    /// `shaderClipDistance` (`gl_ClipDistance`).
    pub shader_clip_distance: bool,
    /// `shaderCullDistance` (`GL_ARB_cull_distance`).
    pub shader_cull_distance: bool,
    /// `multiViewport` (`GL_ARB_viewport_array`).
    pub multi_viewport: bool,
    /// `fillModeNonSolid` (`glPolygonMode` lines and points).
    pub fill_mode_non_solid: bool,
    /// `logicOp` (`glLogicOp`).
    pub logic_op: bool,
    /// `robustBufferAccess` (`GL_ARB_robust_buffer_access_behavior`: out-of-bounds buffer
    /// reads give zero or in-bounds values, writes are dropped).
    pub robust_buffer_access: bool,
    /// `depthBiasClamp` (`GL_ARB_polygon_offset_clamp`).
    pub depth_bias_clamp: bool,
    /// `shaderDrawParameters` (Vulkan 1.1: `gl_BaseVertex`, `gl_BaseInstance`, `gl_DrawID`).
    pub shader_draw_parameters: bool,
    /// `drawIndirectCount` (Vulkan 1.2: `GL_ARB_indirect_parameters`).
    pub draw_indirect_count: bool,
    /// `VK_EXT_transform_feedback` with `transformFeedback` (GL 3.0 transform feedback).
    pub transform_feedback: bool,
    /// `geometryStreams` of `VK_EXT_transform_feedback` with at least four streams and
    /// `transformFeedbackQueries` (`GL_MAX_VERTEX_STREAMS` is then 4, counted per stream).
    pub transform_feedback_streams: bool,
    /// `samplerMirrorClampToEdge` (Vulkan 1.2: `GL_ARB_texture_mirror_clamp_to_edge`).
    pub sampler_mirror_clamp_to_edge: bool,
    /// `shaderOutputViewportIndex` and `shaderOutputLayer` (Vulkan 1.2: `gl_ViewportIndex` and
    /// `gl_Layer` written by vertex and tessellation stages, GL_ARB_shader_viewport_layer_array).
    pub shader_output_viewport_index_layer: bool,
    /// The shader stages (`vk::ShaderStageFlags` bits) whose subgroups vote
    /// (`VkPhysicalDeviceSubgroupProperties`: `VOTE` in `supportedOperations`, Vulkan 1.1):
    /// `GL_ARB_shader_group_vote` votes across them there (`glsl::group_vote`).
    pub subgroup_vote_stages: u32,
    /// `VK_EXT_shader_atomic_float` with `shaderImageFloat32Atomics`, and `R32_SFLOAT` storage
    /// images with atomics: `imageAtomicExchange` on `r32f` images
    /// (`GL_ARB_ES3_1_compatibility`, OpenGL ES 3.2).
    pub shader_image_float32_atomics: bool,
}

impl Gl4Features {
    fn from_core(f: &vk::PhysicalDeviceFeatures) -> Self {
        let on = |b: vk::Bool32| b == vk::TRUE;
        Self {
            shader_float64: on(f.shader_float64),
            shader_int64: on(f.shader_int64),
            image_cube_array: on(f.image_cube_array),
            sample_rate_shading: on(f.sample_rate_shading),
            multi_draw_indirect: on(f.multi_draw_indirect),
            draw_indirect_first_instance: on(f.draw_indirect_first_instance),
            fragment_stores_and_atomics: on(f.fragment_stores_and_atomics),
            vertex_pipeline_stores_and_atomics: on(f.vertex_pipeline_stores_and_atomics),
            shader_image_gather_extended: on(f.shader_image_gather_extended),
            shader_storage_image_extended_formats: on(f.shader_storage_image_extended_formats),
            shader_storage_image_multisample: on(f.shader_storage_image_multisample),
            shader_storage_image_read_without_format: on(f.shader_storage_image_read_without_format),
            shader_storage_image_write_without_format: on(
                f.shader_storage_image_write_without_format
            ),
            shader_sampled_image_array_dynamic_indexing: on(
                f.shader_sampled_image_array_dynamic_indexing
            ),
            shader_uniform_buffer_array_dynamic_indexing: on(
                f.shader_uniform_buffer_array_dynamic_indexing
            ),
            shader_storage_buffer_array_dynamic_indexing: on(
                f.shader_storage_buffer_array_dynamic_indexing
            ),
            shader_storage_image_array_dynamic_indexing: on(
                f.shader_storage_image_array_dynamic_indexing
            ),
            shader_clip_distance: on(f.shader_clip_distance),
            shader_cull_distance: on(f.shader_cull_distance),
            multi_viewport: on(f.multi_viewport),
            fill_mode_non_solid: on(f.fill_mode_non_solid),
            logic_op: on(f.logic_op),
            robust_buffer_access: on(f.robust_buffer_access),
            depth_bias_clamp: on(f.depth_bias_clamp),
            ..Self::default()
        }
    }

    /// Writes the enabled core features into `core`.
    fn enable(&self, core: vk::PhysicalDeviceFeatures) -> vk::PhysicalDeviceFeatures {
        core.shader_float64(self.shader_float64)
            .shader_int64(self.shader_int64)
            .image_cube_array(self.image_cube_array)
            .sample_rate_shading(self.sample_rate_shading)
            .multi_draw_indirect(self.multi_draw_indirect)
            .draw_indirect_first_instance(self.draw_indirect_first_instance)
            .fragment_stores_and_atomics(self.fragment_stores_and_atomics)
            .vertex_pipeline_stores_and_atomics(self.vertex_pipeline_stores_and_atomics)
            .shader_image_gather_extended(self.shader_image_gather_extended)
            .shader_storage_image_extended_formats(self.shader_storage_image_extended_formats)
            .shader_storage_image_multisample(self.shader_storage_image_multisample)
            .shader_storage_image_read_without_format(self.shader_storage_image_read_without_format)
            .shader_storage_image_write_without_format(
                self.shader_storage_image_write_without_format,
            )
            .shader_sampled_image_array_dynamic_indexing(
                self.shader_sampled_image_array_dynamic_indexing,
            )
            .shader_uniform_buffer_array_dynamic_indexing(
                self.shader_uniform_buffer_array_dynamic_indexing,
            )
            .shader_storage_buffer_array_dynamic_indexing(
                self.shader_storage_buffer_array_dynamic_indexing,
            )
            .shader_storage_image_array_dynamic_indexing(
                self.shader_storage_image_array_dynamic_indexing,
            )
            .shader_clip_distance(self.shader_clip_distance)
            .shader_cull_distance(self.shader_cull_distance)
            .multi_viewport(self.multi_viewport)
            .fill_mode_non_solid(self.fill_mode_non_solid)
            .logic_op(self.logic_op)
            .robust_buffer_access(self.robust_buffer_access)
            .depth_bias_clamp(self.depth_bias_clamp)
    }
}

/// One memory heap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeapInfo {
    /// Size in bytes.
    pub size: u64,
    /// Whether it is device-local.
    pub device_local: bool,
}

/// One memory type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryTypeInfo {
    /// Property flags.
    pub flags: vk::MemoryPropertyFlags,
    /// The heap it draws from.
    pub heap: u32,
}

/// What was learned about the device.
#[derive(Debug, Clone)]
pub struct DeviceInfo {
    /// The driver's device name.
    pub name: String,
    /// Device type.
    pub device_type: vk::PhysicalDeviceType,
    /// The Vulkan version the device reports.
    pub api_version: u32,
    /// The Vulkan version ArenaGL uses (min of instance, device, profile and 1.3; at least 1.1).
    pub used_api_version: u32,
    /// Limits the manager validates against.
    pub limits: DeviceLimits,
    /// Memory heaps.
    pub heaps: Vec<HeapInfo>,
    /// Memory types.
    pub memory_types: Vec<MemoryTypeInfo>,
    /// Optional capabilities.
    pub features: DeviceFeatures,
    /// `maxSamplerAnisotropy`.
    pub max_sampler_anisotropy: f32,
    /// `maxResourceSize` is per format; this is `maxImageDimension2D` for quick checks.
    pub max_image_dimension_2d: u32,
    /// Every core limit, for clients that answer `glGet*` queries from them.
    pub vk_limits: vk::PhysicalDeviceLimits,
    /// `timestampValidBits` of the queue's family (0: no timestamps on it).
    pub timestamp_valid_bits: u32,
    /// The device profile the device is clamped to (`ARENAGL_VK_PROFILE`), if any.
    pub profile: Option<Arc<Profile>>,
    /// The device extensions enabled.
    pub enabled_extensions: Vec<String>,
    /// `pipelineCacheUUID` and `driverVersion`: what program binaries made on this device are
    /// tied to (GL_ARB_get_program_binary's header, `translate`'s `program::binary`).
    pub pipeline_cache_uuid: [u8; 16],
    pub driver_version: u32,
}

impl DeviceInfo {
    /// Whether every device-local type is also host-visible (phones, lavapipe).
    pub fn unified_memory(&self) -> bool {
        self.memory_types
            .iter()
            .filter(|t| t.flags.contains(vk::MemoryPropertyFlags::DEVICE_LOCAL))
            .all(|t| t.flags.contains(vk::MemoryPropertyFlags::HOST_VISIBLE))
    }
}

/// Immutable device state shared by the manager and (later) its clients.
pub struct DeviceShared {
    // Field order is drop order only for what Drop does not destroy explicitly.
    /// The logical device (clients record commands with it).
    pub raw: ash::Device,
    /// The instance.
    pub instance: ash::Instance,
    /// The physical device.
    pub physical: vk::PhysicalDevice,
    /// Its index among the enumerated devices (a device re-opened after a loss uses the same).
    pub(crate) physical_index: usize,
    /// Queue family of the one queue.
    pub queue_family: u32,
    /// What was discovered.
    pub info: DeviceInfo,
    debug: Option<Messenger>,
    validation: Option<Arc<ValidationLog>>,
    /// The loader entry: kept for as long as any function pointer from it is used, and for
    /// loading the surface extensions' functions.
    pub(crate) entry: ash::Entry,
}

impl DeviceShared {
    /// The features of `format` on this device, clamped by the device profile (if any). Every
    /// format query of the manager goes through here.
    pub fn format_properties(&self, format: vk::Format) -> vk::FormatProperties {
        // SAFETY: plain query on the physical device of this instance.
        let props = unsafe {
            self.instance
                .get_physical_device_format_properties(self.physical, format)
        };
        match &self.info.profile {
            Some(p) => p.clamp_format(format, props),
            None => props,
        }
    }

    /// The validation log, when validation is on.
    pub fn validation(&self) -> Option<&ValidationLog> {
        self.validation.as_deref()
    }

    /// The validation log itself, to continue in a device re-opened after a loss.
    pub(crate) fn validation_log(&self) -> Option<Arc<ValidationLog>> {
        self.validation.clone()
    }
}

impl Drop for DeviceShared {
    fn drop(&mut self) {
        // SAFETY: the manager destroyed every child object (allocator, pools, command pool,
        // semaphore, resources) before the last Arc<DeviceShared> dropped, and waited for the
        // device to go idle; the messenger's user data (the ValidationLog) outlives it because
        // this struct holds an Arc to it until after destroy_instance.
        unsafe {
            self.raw.destroy_device(None);
            if let Some((utils, messenger)) = self.debug.take() {
                utils.destroy_debug_utils_messenger(messenger, None);
            }
            self.instance.destroy_instance(None);
        }
    }
}

unsafe extern "system" fn on_validation_message(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    _types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    user: *mut c_void,
) -> vk::Bool32 {
    // SAFETY: the layer passes a valid callback-data pointer for the duration of the call, and
    // `user` is the ValidationLog pointer registered with the messenger, kept alive by
    // DeviceShared until the messenger is destroyed.
    let (message, log) = unsafe {
        let message = data
            .as_ref()
            .and_then(|d| (!d.p_message.is_null()).then(|| CStr::from_ptr(d.p_message)))
            .map(|m| m.to_string_lossy().into_owned())
            .unwrap_or_default();
        (message, (user as *const ValidationLog).as_ref())
    };
    if severity.contains(vk::DebugUtilsMessageSeverityFlagsEXT::ERROR) {
        tracing::error!(target: "arenagl::validation", "{message}");
        if let Some(log) = log {
            log.record(message);
        }
    } else {
        tracing::debug!(target: "arenagl::validation", "{message}");
    }
    vk::FALSE
}

fn messenger_info(log: &Arc<ValidationLog>) -> vk::DebugUtilsMessengerCreateInfoEXT<'static> {
    vk::DebugUtilsMessengerCreateInfoEXT::default()
        .message_severity(
            vk::DebugUtilsMessageSeverityFlagsEXT::ERROR
                | vk::DebugUtilsMessageSeverityFlagsEXT::WARNING,
        )
        .message_type(
            vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
                | vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
                | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE,
        )
        .pfn_user_callback(Some(on_validation_message))
        .user_data(Arc::as_ptr(log) as *mut c_void)
}

fn has_extension(list: &[vk::ExtensionProperties], name: &CStr) -> bool {
    list.iter()
        .any(|e| e.extension_name_as_c_str().is_ok_and(|n| n == name))
}

fn type_rank(t: vk::PhysicalDeviceType) -> u32 {
    match t {
        vk::PhysicalDeviceType::DISCRETE_GPU => 0,
        vk::PhysicalDeviceType::INTEGRATED_GPU => 1,
        vk::PhysicalDeviceType::VIRTUAL_GPU => 2,
        vk::PhysicalDeviceType::CPU => 3,
        _ => 4,
    }
}

/// Options for opening the device.
#[derive(Debug, Clone)]
pub(crate) struct OpenOptions {
    pub(crate) validation: bool,
    pub(crate) device_index: Option<usize>,
    pub(crate) profile: Option<Arc<Profile>>,
    pub(crate) force_render_pass: bool,
    pub(crate) force_fences: bool,
    /// The validation log to continue (a device re-opened after a loss keeps counting in the
    /// lost one's log).
    pub(crate) validation_log: Option<Arc<ValidationLog>>,
}

/// Opens the instance and device.
pub(crate) fn open(options: &OpenOptions) -> Result<(Arc<DeviceShared>, vk::Queue)> {
    // SAFETY: loading the Vulkan loader library runs its initialisers; the Entry is kept in
    // DeviceShared for as long as any function pointer from it is used.
    let entry = unsafe { ash::Entry::load() }
        .map_err(|e| MemoryError::NoDevice(format!("cannot load the Vulkan loader: {e}")))?;
    // SAFETY: plain query on a loaded entry.
    let instance_version = unsafe { entry.try_enumerate_instance_version() }
        .map_err(|r| map_init("vkEnumerateInstanceVersion", r))?
        .unwrap_or(vk::API_VERSION_1_0);
    if instance_version < vk::API_VERSION_1_1 {
        return Err(MemoryError::NoDevice(format!(
            "the Vulkan loader offers {}.{}, ArenaGL needs 1.1",
            vk::api_version_major(instance_version),
            vk::api_version_minor(instance_version)
        )));
    }
    // A profile of an older Vulkan caps the API version too, so that the validation layer
    // flags any use of what the profile's version lacks.
    let api = options
        .profile
        .as_ref()
        .map_or(vk::API_VERSION_1_3, |p| p.api_version)
        .min(instance_version)
        .min(vk::API_VERSION_1_3);

    // SAFETY: plain queries on a loaded entry.
    let (layers, instance_exts) = unsafe {
        (
            entry
                .enumerate_instance_layer_properties()
                .map_err(|r| map_init("vkEnumerateInstanceLayerProperties", r))?,
            entry
                .enumerate_instance_extension_properties(None)
                .map_err(|r| map_init("vkEnumerateInstanceExtensionProperties", r))?,
        )
    };
    let mut layer_names = Vec::new();
    let mut ext_names = Vec::new();
    let validation = if options.validation {
        let present = layers
            .iter()
            .any(|l| l.layer_name_as_c_str().is_ok_and(|n| n == VALIDATION_LAYER));
        if !present {
            return Err(MemoryError::NoDevice(
                "ARENAGL_VALIDATION=1 but VK_LAYER_KHRONOS_validation is not installed (Debian: vulkan-validationlayers)".into(),
            ));
        }
        layer_names.push(VALIDATION_LAYER.as_ptr());
        ext_names.push(ash::ext::debug_utils::NAME.as_ptr());
        Some(options.validation_log.clone().unwrap_or_default())
    } else {
        None
    };
    let mut flags = vk::InstanceCreateFlags::empty();
    if has_extension(&instance_exts, ash::khr::portability_enumeration::NAME) {
        // MoltenVK is a portability implementation: without this it is not enumerated.
        ext_names.push(ash::khr::portability_enumeration::NAME.as_ptr());
        flags |= vk::InstanceCreateFlags::ENUMERATE_PORTABILITY_KHR;
    }
    // The window systems: each surface extension with VK_KHR_surface, enabled when present.
    let surface = has_extension(&instance_exts, ash::khr::surface::NAME);
    let xlib_surface = surface && has_extension(&instance_exts, ash::khr::xlib_surface::NAME);
    let xcb_surface = surface && has_extension(&instance_exts, ash::khr::xcb_surface::NAME);
    // Only where a compositor can be reached: with the extension enabled, Mesa's device-select
    // layer connects to the default compositor while enumerating devices, and prints an error
    // for every process started without `XDG_RUNTIME_DIR` (services, CI, surfaceless programs).
    let wayland_surface = surface
        && wayland_reachable()
        && has_extension(&instance_exts, ash::khr::wayland_surface::NAME);
    if xlib_surface || xcb_surface || wayland_surface {
        ext_names.push(ash::khr::surface::NAME.as_ptr());
    }
    if xlib_surface {
        ext_names.push(ash::khr::xlib_surface::NAME.as_ptr());
    }
    if xcb_surface {
        ext_names.push(ash::khr::xcb_surface::NAME.as_ptr());
    }
    if wayland_surface {
        ext_names.push(ash::khr::wayland_surface::NAME.as_ptr());
    }
    let app_name = CString::new("ArenaGL").map_err(|_| MemoryError::Internal("app name"))?;
    let app = vk::ApplicationInfo::default()
        .application_name(&app_name)
        .engine_name(&app_name)
        .api_version(api);
    let mut debug_info = validation.as_ref().map(messenger_info);
    // Synchronization validation catches missing barriers, which lavapipe (executing
    // everything in order on one thread) would never show as wrong pixels.
    let enabled_checks = [vk::ValidationFeatureEnableEXT::SYNCHRONIZATION_VALIDATION];
    let mut features =
        vk::ValidationFeaturesEXT::default().enabled_validation_features(&enabled_checks);
    let mut create = vk::InstanceCreateInfo::default()
        .application_info(&app)
        .enabled_layer_names(&layer_names)
        .enabled_extension_names(&ext_names)
        .flags(flags);
    if let Some(info) = debug_info.as_mut() {
        create = create.push_next(info).push_next(&mut features);
    }
    // SAFETY: every pointer in `create` refers to locals that outlive the call.
    let instance = unsafe { entry.create_instance(&create, None) }
        .map_err(|r| map_init("vkCreateInstance", r))?;
    let mut guard = InstanceGuard {
        instance: Some(instance.clone()),
        debug: None,
    };
    if let (Some(_), Some(info)) = (&validation, &debug_info) {
        let utils = ash::ext::debug_utils::Instance::new(&entry, &instance);
        // SAFETY: valid instance with debug_utils enabled; the user data is the Arc'd log
        // that DeviceShared keeps alive for the messenger's lifetime.
        let messenger = unsafe { utils.create_debug_utils_messenger(info, None) }
            .map_err(|r| map_init("vkCreateDebugUtilsMessengerEXT", r))?;
        guard.debug = Some((utils, messenger));
    }

    let (physical, queue_family, info, device_exts, physical_index) =
        pick_device(&instance, api, options)?;
    let (device, mut features, enabled_extensions) = create_device(
        &instance,
        physical,
        queue_family,
        &info,
        &device_exts,
        options,
    )?;
    // The device enabled VK_KHR_swapchain when it had it; presenting also needs the instance's.
    features.wayland_present = features.xlib_present && wayland_surface;
    features.xcb_present = features.xlib_present && xcb_surface;
    features.xlib_present &= xlib_surface;
    let info = DeviceInfo {
        features,
        enabled_extensions,
        ..info
    };
    // SAFETY: the device was created with one queue in `queue_family`.
    let queue = unsafe { device.get_device_queue(queue_family, 0) };
    let debug = guard.disarm();
    tracing::info!(
        device = %info.name,
        api = format!("{}.{}", vk::api_version_major(info.used_api_version), vk::api_version_minor(info.used_api_version)),
        features = ?info.features,
        validation = validation.is_some(),
        profile = info.profile.as_ref().map(|p| p.name.as_str()),
        "Vulkan device opened"
    );
    Ok((
        Arc::new(DeviceShared {
            raw: device,
            instance,
            physical,
            physical_index,
            queue_family,
            info,
            debug,
            validation,
            entry,
        }),
        queue,
    ))
}

type Messenger = (ash::ext::debug_utils::Instance, vk::DebugUtilsMessengerEXT);

/// Destroys the messenger and the instance if device setup fails half-way.
struct InstanceGuard {
    instance: Option<ash::Instance>,
    debug: Option<Messenger>,
}

impl InstanceGuard {
    /// Setup succeeded: hand the messenger over and destroy nothing.
    fn disarm(mut self) -> Option<Messenger> {
        self.instance = None;
        self.debug.take()
    }
}

impl Drop for InstanceGuard {
    fn drop(&mut self) {
        // SAFETY: setup failed before the device existed, so the messenger and the instance
        // are the only objects, destroyed child first.
        unsafe {
            if let Some((utils, messenger)) = self.debug.take() {
                utils.destroy_debug_utils_messenger(messenger, None);
            }
            if let Some(instance) = self.instance.take() {
                instance.destroy_instance(None);
            }
        }
    }
}

type Picked = (
    vk::PhysicalDevice,
    u32,
    DeviceInfo,
    Vec<vk::ExtensionProperties>,
    usize,
);

fn pick_device(instance: &ash::Instance, api: u32, options: &OpenOptions) -> Result<Picked> {
    // SAFETY: valid instance.
    let devices = unsafe { instance.enumerate_physical_devices() }
        .map_err(|r| map_init("vkEnumeratePhysicalDevices", r))?;
    let mut candidates = Vec::new();
    let mut rejected = Vec::new();
    for (index, &pd) in devices.iter().enumerate() {
        if options.device_index.is_some_and(|want| want != index) {
            continue;
        }
        match describe(instance, pd, api, options.profile.as_ref()) {
            Ok(found) => candidates.push((type_rank(found.2.device_type), index, pd, found)),
            Err(why) => rejected.push(why),
        }
    }
    candidates.sort_by_key(|c| (c.0, c.1));
    let Some((_, index, pd, (family, exts, info))) = candidates.into_iter().next() else {
        return Err(MemoryError::NoDevice(if rejected.is_empty() {
            "no Vulkan device found (Debian: mesa-vulkan-drivers provides lavapipe)".into()
        } else {
            rejected.join("; ")
        }));
    };
    Ok((pd, family, info, exts, index))
}

/// Why a device of Vulkan `api` is below ArenaGL's floor, Vulkan 1.1 (naming the profile that
/// put it there), or `None`. What 1.2 and 1.3 add has fallbacks: a fence per epoch for timeline
/// semaphores, render passes for dynamic rendering, SPIR-V 1.3 for 1.5.
fn below_floor(api: u32, profile: Option<&Arc<Profile>>) -> Option<String> {
    if api >= vk::API_VERSION_1_1 {
        return None;
    }
    Some(format!(
        "ArenaGL needs Vulkan 1.1; the device is Vulkan {}.{}{}",
        vk::api_version_major(api),
        vk::api_version_minor(api),
        by_profile(profile)
    ))
}

fn by_profile(profile: Option<&Arc<Profile>>) -> String {
    profile.map_or(String::new(), |p| format!(" under profile {}", p.name))
}

/// Why a device of Vulkan `api` with extensions `exts` cannot render, or `None`: below Vulkan
/// 1.2 the render-pass fallback creates its passes through `VK_KHR_create_renderpass2` (render
/// pass 2 is core in 1.2; dynamic rendering in 1.3).
fn missing_for_version(
    api: u32,
    exts: &[vk::ExtensionProperties],
    profile: Option<&Arc<Profile>>,
) -> Option<String> {
    if api >= vk::API_VERSION_1_2 || has_extension(exts, ash::khr::create_renderpass2::NAME) {
        return None;
    }
    Some(format!(
        "ArenaGL needs VK_KHR_create_renderpass2 on a Vulkan 1.1 device{}",
        by_profile(profile)
    ))
}

/// The features of Vulkan 1.1 and 1.2 ArenaGL uses: from the `VkPhysicalDeviceVulkan11/12Features`
/// structures on a Vulkan 1.2 device; on a 1.1 device (which has neither structure) from the
/// 1.1 feature structure and the extensions that became 1.2, or absent.
#[derive(Debug, Clone, Copy, Default)]
struct LaterFeatures {
    shader_draw_parameters: bool,
    host_query_reset: bool,
    draw_indirect_count: bool,
    sampler_mirror_clamp_to_edge: bool,
    shader_output_viewport_index_layer: bool,
    timeline_semaphore: bool,
}

impl LaterFeatures {
    /// # Safety
    /// `pd` belongs to `instance`.
    unsafe fn query(
        instance: &ash::Instance,
        pd: vk::PhysicalDevice,
        api: u32,
        exts: &[vk::ExtensionProperties],
        allow: &dyn Fn(&str) -> bool,
    ) -> Self {
        if api >= vk::API_VERSION_1_2 {
            let mut v11 = vk::PhysicalDeviceVulkan11Features::default();
            let mut v12 = vk::PhysicalDeviceVulkan12Features::default();
            let mut f2 = vk::PhysicalDeviceFeatures2::default()
                .push_next(&mut v11)
                .push_next(&mut v12);
            // SAFETY: the caller's `pd`; the chain lives across the call.
            unsafe { instance.get_physical_device_features2(pd, &mut f2) };
            let on = |b: vk::Bool32, member: &str| b == vk::TRUE && allow(member);
            return Self {
                shader_draw_parameters: on(v11.shader_draw_parameters, "shaderDrawParameters"),
                host_query_reset: on(v12.host_query_reset, "hostQueryReset"),
                draw_indirect_count: on(v12.draw_indirect_count, "drawIndirectCount"),
                sampler_mirror_clamp_to_edge: on(
                    v12.sampler_mirror_clamp_to_edge,
                    "samplerMirrorClampToEdge",
                ),
                shader_output_viewport_index_layer: on(
                    v12.shader_output_viewport_index,
                    "shaderOutputViewportIndex",
                ) && on(
                    v12.shader_output_layer,
                    "shaderOutputLayer",
                ),
                timeline_semaphore: on(v12.timeline_semaphore, "timelineSemaphore"),
            };
        }
        let mut draw_parameters = vk::PhysicalDeviceShaderDrawParametersFeatures::default();
        let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut draw_parameters);
        // SAFETY: as above (the structure is core in Vulkan 1.1).
        unsafe { instance.get_physical_device_features2(pd, &mut f2) };
        Self {
            shader_draw_parameters: draw_parameters.shader_draw_parameters == vk::TRUE
                && allow("shaderDrawParameters"),
            // The extension has no feature bit: enabling it is the feature.
            sampler_mirror_clamp_to_edge: has_extension(
                exts,
                ash::khr::sampler_mirror_clamp_to_edge::NAME,
            ),
            ..Self::default()
        }
    }
}

fn describe(
    instance: &ash::Instance,
    pd: vk::PhysicalDevice,
    api: u32,
    profile: Option<&Arc<Profile>>,
) -> std::result::Result<(u32, Vec<vk::ExtensionProperties>, DeviceInfo), String> {
    let allow = |member: &str| profile.is_none_or(|p| p.allows_feature(member));
    // SAFETY: `pd` came from this instance; the chained structs live across the calls.
    unsafe {
        let props = instance.get_physical_device_properties(pd);
        let name = props
            .device_name_as_c_str()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|_| "unknown".into());
        let used_api = api.min(props.api_version).min(vk::API_VERSION_1_3);
        if let Some(why) = below_floor(used_api, profile) {
            return Err(format!("{name}: {why}"));
        }
        let families = instance.get_physical_device_queue_family_properties(pd);
        let family = families
            .iter()
            .position(|f| f.queue_flags.contains(vk::QueueFlags::GRAPHICS))
            .ok_or_else(|| format!("{name}: no graphics queue"))? as u32;
        let timestamp_valid_bits = families
            .get(family as usize)
            .map_or(0, |f| f.timestamp_valid_bits);
        let mut exts = instance
            .enumerate_device_extension_properties(pd)
            .map_err(|r| format!("{name}: {r}"))?;
        if let Some(p) = profile {
            exts.retain(|e| {
                e.extension_name_as_c_str()
                    .is_ok_and(|n| p.allows_extension(&n.to_string_lossy()))
            });
        }
        if let Some(why) = missing_for_version(used_api, &exts, profile) {
            return Err(format!("{name}: {why}"));
        }
        let mut f2 = vk::PhysicalDeviceFeatures2::default();
        instance.get_physical_device_features2(pd, &mut f2);
        if let Some(p) = profile {
            p.mask_core_features(&mut f2.features);
        }
        let later = LaterFeatures::query(instance, pd, used_api, &exts, &allow);
        let mut gl4 = Gl4Features::from_core(&f2.features);
        let anisotropy = f2.features.sampler_anisotropy == vk::TRUE;
        let geometry = f2.features.geometry_shader == vk::TRUE;
        let tessellation = f2.features.tessellation_shader == vk::TRUE;
        let wide_lines = f2.features.wide_lines == vk::TRUE;
        let occlusion_precise = f2.features.occlusion_query_precise == vk::TRUE;
        let pipeline_statistics = f2.features.pipeline_statistics_query == vk::TRUE;
        let dual_src_blend = f2.features.dual_src_blend == vk::TRUE;
        let depth_clamp = f2.features.depth_clamp == vk::TRUE;
        let independent_blend = f2.features.independent_blend == vk::TRUE;
        let large_points = f2.features.large_points == vk::TRUE;
        let host_query_reset = later.host_query_reset;
        gl4.shader_draw_parameters = later.shader_draw_parameters;
        gl4.draw_indirect_count = later.draw_indirect_count;
        gl4.sampler_mirror_clamp_to_edge = later.sampler_mirror_clamp_to_edge;
        gl4.shader_output_viewport_index_layer = later.shader_output_viewport_index_layer;
        let timeline = later.timeline_semaphore;
        // `maxMemoryAllocationSize` (VkPhysicalDeviceMaintenance3Properties: core in 1.1).
        let mut maintenance3 = vk::PhysicalDeviceMaintenance3Properties::default();
        let mut subgroup = vk::PhysicalDeviceSubgroupProperties::default();
        let mut p2 = vk::PhysicalDeviceProperties2::default()
            .push_next(&mut maintenance3)
            .push_next(&mut subgroup);
        instance.get_physical_device_properties2(pd, &mut p2);
        if subgroup
            .supported_operations
            .contains(vk::SubgroupFeatureFlags::VOTE)
        {
            gl4.subgroup_vote_stages = subgroup.supported_stages.as_raw();
        }
        let mem = instance.get_physical_device_memory_properties(pd);
        let heaps = mem.memory_heaps[..mem.memory_heap_count as usize]
            .iter()
            .map(|h| HeapInfo {
                size: h.size,
                device_local: h.flags.contains(vk::MemoryHeapFlags::DEVICE_LOCAL),
            })
            .collect();
        let memory_types = mem.memory_types[..mem.memory_type_count as usize]
            .iter()
            .map(|t| MemoryTypeInfo {
                flags: t.property_flags,
                heap: t.heap_index,
            })
            .collect();
        let mut limits = props.limits;
        let mut max_allocation = maintenance3.max_memory_allocation_size;
        if let Some(p) = profile {
            p.clamp_limits(&mut limits);
            max_allocation = p.clamp_max_allocation_size(max_allocation);
        }
        let l = &limits;
        let info = DeviceInfo {
            name,
            pipeline_cache_uuid: props.pipeline_cache_uuid,
            driver_version: props.driver_version,
            device_type: props.device_type,
            api_version: props.api_version,
            used_api_version: used_api,
            limits: DeviceLimits {
                max_memory_allocation_count: l.max_memory_allocation_count,
                max_memory_allocation_size: max_allocation,
                max_sampler_allocation_count: l.max_sampler_allocation_count,
                optimal_buffer_copy_offset_alignment: l.optimal_buffer_copy_offset_alignment,
                non_coherent_atom_size: l.non_coherent_atom_size,
            },
            heaps,
            memory_types,
            features: DeviceFeatures {
                timeline_semaphore: timeline,
                sampler_anisotropy: anisotropy,
                geometry_shader: geometry,
                tessellation_shader: tessellation,
                wide_lines,
                host_query_reset,
                occlusion_query_precise: occlusion_precise,
                pipeline_statistics_query: pipeline_statistics,
                dual_src_blend,
                depth_clamp,
                independent_blend,
                large_points,
                gl4,
                ..DeviceFeatures::default()
            },
            max_sampler_anisotropy: l.max_sampler_anisotropy,
            max_image_dimension_2d: l.max_image_dimension2_d,
            vk_limits: *l,
            timestamp_valid_bits,
            profile: profile.cloned(),
            enabled_extensions: Vec::new(),
        };
        Ok((family, exts, info))
    }
}

fn create_device(
    instance: &ash::Instance,
    pd: vk::PhysicalDevice,
    family: u32,
    info: &DeviceInfo,
    exts: &[vk::ExtensionProperties],
    options: &OpenOptions,
) -> Result<(ash::Device, DeviceFeatures, Vec<String>)> {
    let mut features = info.features;
    let allow = |member: &str| {
        info.profile
            .as_ref()
            .is_none_or(|p| p.allows_feature(member))
    };
    // The fence fallback on demand: timeline semaphores are then not even enabled.
    features.timeline_semaphore &= !options.force_fences;
    let core13 = info.used_api_version >= vk::API_VERSION_1_3;
    let mut names: Vec<*const std::ffi::c_char> = Vec::new();
    let mut want = |name: &CStr| -> bool {
        let has = has_extension(exts, name);
        if has {
            names.push(name.as_ptr());
        }
        has
    };
    // Portability implementations (MoltenVK) require this extension to be enabled.
    want(ash::khr::portability_subset::NAME);
    features.push_descriptor = want(ash::khr::push_descriptor::NAME);
    features.memory_budget = want(ash::ext::memory_budget::NAME);
    features.xlib_present = want(ash::khr::swapchain::NAME);
    let core12 = info.used_api_version >= vk::API_VERSION_1_2;
    if !core12 {
        // What Vulkan 1.2 made core, as the extensions a 1.1 device has (`describe` refused
        // one without render pass 2 and took the mirror clamp from the extension's presence).
        want(ash::khr::create_renderpass2::NAME);
        if features.gl4.sampler_mirror_clamp_to_edge {
            want(ash::khr::sampler_mirror_clamp_to_edge::NAME);
        }
    }

    let mut v13_query = vk::PhysicalDeviceVulkan13Features::default();
    if core13 {
        let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut v13_query);
        // SAFETY: `pd` belongs to `instance`; the chain lives across the call.
        unsafe { instance.get_physical_device_features2(pd, &mut f2) };
        // The render-pass fallback on demand: dynamic rendering is then not even enabled, so
        // the validation layer flags any use of it.
        features.dynamic_rendering = v13_query.dynamic_rendering == vk::TRUE
            && allow("dynamicRendering")
            && !options.force_render_pass;
        features.synchronization2 =
            v13_query.synchronization2 == vk::TRUE && allow("synchronization2");
        // Extended dynamic state is core (with no feature bit) in Vulkan 1.3.
        features.extended_dynamic_state = allow("extendedDynamicState");
    }
    let mut eds_query = vk::PhysicalDeviceExtendedDynamicStateFeaturesEXT::default();
    let eds_ext = !core13 && has_extension(exts, ash::ext::extended_dynamic_state::NAME);
    if eds_ext {
        let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut eds_query);
        // SAFETY: as above.
        unsafe { instance.get_physical_device_features2(pd, &mut f2) };
        if eds_query.extended_dynamic_state == vk::TRUE && allow("extendedDynamicState") {
            names.push(ash::ext::extended_dynamic_state::NAME.as_ptr());
            features.extended_dynamic_state = true;
        }
    }

    let mut border_query = vk::PhysicalDeviceCustomBorderColorFeaturesEXT::default();
    if has_extension(exts, ash::ext::custom_border_color::NAME) {
        let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut border_query);
        // SAFETY: as above.
        unsafe { instance.get_physical_device_features2(pd, &mut f2) };
        if border_query.custom_border_colors == vk::TRUE && allow("customBorderColors") {
            names.push(ash::ext::custom_border_color::NAME.as_ptr());
            features.custom_border_color = true;
            features.custom_border_color_without_format =
                border_query.custom_border_color_without_format == vk::TRUE
                    && allow("customBorderColorWithoutFormat");
        }
    }

    let mut divisor_query = vk::PhysicalDeviceVertexAttributeDivisorFeaturesEXT::default();
    let mut uint8_query = vk::PhysicalDeviceIndexTypeUint8FeaturesEXT::default();
    let mut provoking_query = vk::PhysicalDeviceProvokingVertexFeaturesEXT::default();
    let divisor_ext = has_extension(exts, ash::ext::vertex_attribute_divisor::NAME);
    let uint8_ext = has_extension(exts, ash::ext::index_type_uint8::NAME);
    let provoking_ext = has_extension(exts, ash::ext::provoking_vertex::NAME);
    if divisor_ext || uint8_ext || provoking_ext {
        let mut f2 = vk::PhysicalDeviceFeatures2::default()
            .push_next(&mut divisor_query)
            .push_next(&mut uint8_query)
            .push_next(&mut provoking_query);
        // SAFETY: as above; structures of extensions the device lacks stay zeroed.
        unsafe { instance.get_physical_device_features2(pd, &mut f2) };
    }
    if divisor_ext
        && divisor_query.vertex_attribute_instance_rate_divisor == vk::TRUE
        && allow("vertexAttributeInstanceRateDivisor")
    {
        names.push(ash::ext::vertex_attribute_divisor::NAME.as_ptr());
        features.vertex_attribute_divisor = true;
    }
    if uint8_ext && uint8_query.index_type_uint8 == vk::TRUE && allow("indexTypeUint8") {
        names.push(ash::ext::index_type_uint8::NAME.as_ptr());
        features.index_type_uint8 = true;
    }
    if provoking_ext
        && provoking_query.provoking_vertex_last == vk::TRUE
        && allow("provokingVertexLast")
    {
        names.push(ash::ext::provoking_vertex::NAME.as_ptr());
        features.provoking_vertex_last = true;
    }
    let mut xfb_query = vk::PhysicalDeviceTransformFeedbackFeaturesEXT::default();
    if has_extension(exts, ash::ext::transform_feedback::NAME) {
        let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut xfb_query);
        // SAFETY: as above.
        unsafe { instance.get_physical_device_features2(pd, &mut f2) };
        if xfb_query.transform_feedback == vk::TRUE && allow("transformFeedback") {
            names.push(ash::ext::transform_feedback::NAME.as_ptr());
            features.gl4.transform_feedback = true;
            // GL_ARB_gpu_shader5 / GL 4.0 want four vertex streams.
            let mut xfb_props = vk::PhysicalDeviceTransformFeedbackPropertiesEXT::default();
            let mut p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut xfb_props);
            // SAFETY: as above; `p2` chains only `xfb_props`, both live across the call.
            unsafe { instance.get_physical_device_properties2(pd, &mut p2) };
            features.gl4.transform_feedback_streams = xfb_query.geometry_streams == vk::TRUE
                && xfb_props.max_transform_feedback_streams >= 4
                && xfb_props.transform_feedback_queries == vk::TRUE
                && allow("geometryStreams");
        }
    }

    let mut float_atomics_query = vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT::default();
    if has_extension(exts, ash::ext::shader_atomic_float::NAME) {
        let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut float_atomics_query);
        // SAFETY: as above.
        unsafe { instance.get_physical_device_features2(pd, &mut f2) };
        // SAFETY: `pd` belongs to `instance`.
        let r32f =
            unsafe { instance.get_physical_device_format_properties(pd, vk::Format::R32_SFLOAT) };
        if float_atomics_query.shader_image_float32_atomics == vk::TRUE
            && r32f
                .optimal_tiling_features
                .contains(vk::FormatFeatureFlags::STORAGE_IMAGE_ATOMIC)
            && allow("shaderImageFloat32Atomics")
        {
            names.push(ash::ext::shader_atomic_float::NAME.as_ptr());
            features.gl4.shader_image_float32_atomics = true;
        }
    }

    let priorities = [1.0f32];
    let queues = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(family)
        .queue_priorities(&priorities)];
    let core = vk::PhysicalDeviceFeatures::default()
        .sampler_anisotropy(features.sampler_anisotropy)
        .geometry_shader(features.geometry_shader)
        .tessellation_shader(features.tessellation_shader)
        .wide_lines(features.wide_lines)
        .occlusion_query_precise(features.occlusion_query_precise)
        .pipeline_statistics_query(features.pipeline_statistics_query)
        .dual_src_blend(features.dual_src_blend)
        .depth_clamp(features.depth_clamp)
        .independent_blend(features.independent_blend)
        .large_points(features.large_points);
    let core = features.gl4.enable(core);
    let mut v11 = vk::PhysicalDeviceVulkan11Features::default()
        .shader_draw_parameters(features.gl4.shader_draw_parameters);
    let mut v12 = vk::PhysicalDeviceVulkan12Features::default()
        .timeline_semaphore(features.timeline_semaphore)
        .host_query_reset(features.host_query_reset)
        .draw_indirect_count(features.gl4.draw_indirect_count)
        .sampler_mirror_clamp_to_edge(features.gl4.sampler_mirror_clamp_to_edge)
        .shader_output_viewport_index(features.gl4.shader_output_viewport_index_layer)
        .shader_output_layer(features.gl4.shader_output_viewport_index_layer);
    let mut v13 = vk::PhysicalDeviceVulkan13Features::default()
        .dynamic_rendering(features.dynamic_rendering)
        .synchronization2(features.synchronization2);
    let mut eds =
        vk::PhysicalDeviceExtendedDynamicStateFeaturesEXT::default().extended_dynamic_state(true);
    // A Vulkan 1.1 device has neither VkPhysicalDeviceVulkan11Features nor ...12Features: its
    // one later feature ArenaGL uses has the structure of 1.1 itself.
    let mut draw_parameters = vk::PhysicalDeviceShaderDrawParametersFeatures::default()
        .shader_draw_parameters(features.gl4.shader_draw_parameters);
    let mut create = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .enabled_extension_names(&names)
        .enabled_features(&core);
    if core12 {
        create = create.push_next(&mut v11).push_next(&mut v12);
    } else {
        create = create.push_next(&mut draw_parameters);
    }
    if core13 {
        create = create.push_next(&mut v13);
    }
    if eds_ext && features.extended_dynamic_state {
        create = create.push_next(&mut eds);
    }
    let mut divisor = vk::PhysicalDeviceVertexAttributeDivisorFeaturesEXT::default()
        .vertex_attribute_instance_rate_divisor(true);
    if features.vertex_attribute_divisor {
        create = create.push_next(&mut divisor);
    }
    let mut uint8 = vk::PhysicalDeviceIndexTypeUint8FeaturesEXT::default().index_type_uint8(true);
    if features.index_type_uint8 {
        create = create.push_next(&mut uint8);
    }
    let mut border = vk::PhysicalDeviceCustomBorderColorFeaturesEXT::default()
        .custom_border_colors(true)
        .custom_border_color_without_format(features.custom_border_color_without_format);
    if features.custom_border_color {
        create = create.push_next(&mut border);
    }
    let mut xfb = vk::PhysicalDeviceTransformFeedbackFeaturesEXT::default()
        .transform_feedback(true)
        .geometry_streams(features.gl4.transform_feedback_streams);
    if features.gl4.transform_feedback {
        create = create.push_next(&mut xfb);
    }
    // Only `provokingVertexLast`: `transformFeedbackPreservesProvokingVertex` is not used.
    let mut provoking =
        vk::PhysicalDeviceProvokingVertexFeaturesEXT::default().provoking_vertex_last(true);
    if features.provoking_vertex_last {
        create = create.push_next(&mut provoking);
    }
    // Only image exchange (`imageAtomicExchange` on `r32f`): no buffer or add atomics.
    let mut float_atomics = vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT::default()
        .shader_image_float32_atomics(true);
    if features.gl4.shader_image_float32_atomics {
        create = create.push_next(&mut float_atomics);
    }
    // SAFETY: every pointer in `create` refers to locals that outlive the call; the features
    // requested were all reported as supported above.
    let device = unsafe { instance.create_device(pd, &create, None) }
        .map_err(|r| map_init("vkCreateDevice", r))?;
    // SAFETY: every name pushed is a `'static` extension-name constant of ash.
    let enabled = names
        .iter()
        .map(|&n| unsafe { CStr::from_ptr(n) }.to_string_lossy().into_owned())
        .collect();
    Ok((device, features, enabled))
}
