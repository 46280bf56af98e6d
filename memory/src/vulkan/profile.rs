//! Device profiles: `ARENAGL_VK_PROFILE=NAME|FILE.json` clamps the device to a Khronos
//! Vulkan-Profiles document (the JSON of the public KhronosGroup/Vulkan-Profiles repository), so
//! that a desktop GPU or lavapipe behaves like the phones the profile describes.
//!
//! Design decisions:
//! - The clamp is an intersection: an extension or feature is enabled only when both the profile
//!   and the device have it; a limit is the less capable of the two; a format's features are the
//!   intersection of the profile's and the device's. The validation layer then flags any use of
//!   what was not enabled.
//! - Features the profile's Vulkan version makes mandatory count as listed (a 1.3 profile has
//!   dynamic rendering without naming it); the Vulkan version itself caps the API version the
//!   instance and device are created with.
//! - A capability entry that is a list (alternatives: a device has one of them) contributes all
//!   of its alternatives; a profile that inherits others (`"profiles": [...]`) contributes theirs.
//! - Formats a profile does not list have no guaranteed features, so they are unsupported under
//!   the clamp — except depth/stencil formats, which profiles leave to the core specification
//!   (every device has one of D24S8/D32S8): those keep the device's features. A profile with no
//!   `formats` section does not clamp formats.
//! - The shipped profiles (top-level `profiles/`, see its README) are built into the library, so
//!   `NAME` works without files; names match case-insensitively, with or without `VP_`, and
//!   with `-` for `_` (`android-baseline-2022`).

use std::collections::{BTreeMap, BTreeSet};

use ash::vk;
use serde_json::Value;

/// The profiles built into the library: (file stem, JSON).
const BUILTIN: &[(&str, &str)] = &[
    (
        "VP_ANDROID_baseline_2021",
        include_str!("../../../profiles/VP_ANDROID_baseline_2021.json"),
    ),
    (
        "VP_ANDROID_baseline_2022",
        include_str!("../../../profiles/VP_ANDROID_baseline_2022.json"),
    ),
    (
        "VP_ANDROID_15_minimums",
        include_str!("../../../profiles/VP_ANDROID_15_minimums.json"),
    ),
    (
        "VP_GPUINFO_Apple_M1_MoltenVK",
        include_str!("../../../profiles/VP_GPUINFO_Apple_M1_MoltenVK.json"),
    ),
];

/// Short names for the built-in profiles.
const ALIASES: &[(&str, &str)] = &[
    ("moltenvk", "VP_GPUINFO_Apple_M1_MoltenVK"),
    ("apple", "VP_GPUINFO_Apple_M1_MoltenVK"),
];

/// Features every device of a Vulkan version has (the specification's required features), so a
/// profile of that version has them without listing them.
const IMPLIED: &[(u32, &str)] = &[
    (vk::API_VERSION_1_2, "timelineSemaphore"),
    (vk::API_VERSION_1_2, "hostQueryReset"),
    (vk::API_VERSION_1_3, "dynamicRendering"),
    (vk::API_VERSION_1_3, "synchronization2"),
    (vk::API_VERSION_1_3, "extendedDynamicState"),
];

/// A profile's guaranteed features of one format.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FormatCaps {
    /// `linearTilingFeatures`.
    pub linear: vk::FormatFeatureFlags,
    /// `optimalTilingFeatures`.
    pub optimal: vk::FormatFeatureFlags,
    /// `bufferFeatures`.
    pub buffer: vk::FormatFeatureFlags,
}

/// A resolved profile: everything its capabilities (and the profiles it inherits) list.
#[derive(Debug, Clone, Default)]
pub struct Profile {
    /// The profile's name (`VP_ANDROID_baseline_2022`).
    pub name: String,
    /// Where it came from: `built-in` or the file's path.
    pub source: String,
    /// Its `api-version`.
    pub api_version: u32,
    extensions: BTreeSet<String>,
    features: BTreeSet<String>,
    limits: BTreeMap<String, Value>,
    formats: Option<BTreeMap<String, FormatCaps>>,
}

/// How a limit compares: which of two values is the more capable.
#[derive(Clone, Copy)]
enum Better {
    /// Larger is more capable (`max*`): the clamp takes the minimum.
    Larger,
    /// Smaller is more capable (alignments, granularities, negative offsets): the clamp takes
    /// the maximum.
    Smaller,
}

macro_rules! limit_table {
    ($($json:literal => $field:ident: $better:ident),* $(,)?) => {
        /// Applies `f` to each scalar limit the clamp knows, by its JSON name.
        fn for_each_limit(l: &mut vk::PhysicalDeviceLimits, mut f: impl FnMut(&str, Better, &mut dyn Scalar)) {
            $( f($json, Better::$better, &mut l.$field); )*
        }
    };
}

limit_table! {
    "maxImageDimension1D" => max_image_dimension1_d: Larger,
    "maxImageDimension2D" => max_image_dimension2_d: Larger,
    "maxImageDimension3D" => max_image_dimension3_d: Larger,
    "maxImageDimensionCube" => max_image_dimension_cube: Larger,
    "maxImageArrayLayers" => max_image_array_layers: Larger,
    "maxTexelBufferElements" => max_texel_buffer_elements: Larger,
    "maxUniformBufferRange" => max_uniform_buffer_range: Larger,
    "maxStorageBufferRange" => max_storage_buffer_range: Larger,
    "maxPushConstantsSize" => max_push_constants_size: Larger,
    "maxMemoryAllocationCount" => max_memory_allocation_count: Larger,
    "maxSamplerAllocationCount" => max_sampler_allocation_count: Larger,
    "bufferImageGranularity" => buffer_image_granularity: Smaller,
    "maxBoundDescriptorSets" => max_bound_descriptor_sets: Larger,
    "maxPerStageDescriptorSamplers" => max_per_stage_descriptor_samplers: Larger,
    "maxPerStageDescriptorUniformBuffers" => max_per_stage_descriptor_uniform_buffers: Larger,
    "maxPerStageDescriptorStorageBuffers" => max_per_stage_descriptor_storage_buffers: Larger,
    "maxPerStageDescriptorSampledImages" => max_per_stage_descriptor_sampled_images: Larger,
    "maxPerStageDescriptorStorageImages" => max_per_stage_descriptor_storage_images: Larger,
    "maxPerStageDescriptorInputAttachments" => max_per_stage_descriptor_input_attachments: Larger,
    "maxPerStageResources" => max_per_stage_resources: Larger,
    "maxDescriptorSetSamplers" => max_descriptor_set_samplers: Larger,
    "maxDescriptorSetUniformBuffers" => max_descriptor_set_uniform_buffers: Larger,
    "maxDescriptorSetUniformBuffersDynamic" => max_descriptor_set_uniform_buffers_dynamic: Larger,
    "maxDescriptorSetStorageBuffers" => max_descriptor_set_storage_buffers: Larger,
    "maxDescriptorSetStorageBuffersDynamic" => max_descriptor_set_storage_buffers_dynamic: Larger,
    "maxDescriptorSetSampledImages" => max_descriptor_set_sampled_images: Larger,
    "maxDescriptorSetStorageImages" => max_descriptor_set_storage_images: Larger,
    "maxDescriptorSetInputAttachments" => max_descriptor_set_input_attachments: Larger,
    "maxVertexInputAttributes" => max_vertex_input_attributes: Larger,
    "maxVertexInputBindings" => max_vertex_input_bindings: Larger,
    "maxVertexInputAttributeOffset" => max_vertex_input_attribute_offset: Larger,
    "maxVertexInputBindingStride" => max_vertex_input_binding_stride: Larger,
    "maxVertexOutputComponents" => max_vertex_output_components: Larger,
    "maxTessellationGenerationLevel" => max_tessellation_generation_level: Larger,
    "maxTessellationPatchSize" => max_tessellation_patch_size: Larger,
    "maxGeometryShaderInvocations" => max_geometry_shader_invocations: Larger,
    "maxGeometryOutputVertices" => max_geometry_output_vertices: Larger,
    "maxFragmentInputComponents" => max_fragment_input_components: Larger,
    "maxFragmentOutputAttachments" => max_fragment_output_attachments: Larger,
    "maxFragmentDualSrcAttachments" => max_fragment_dual_src_attachments: Larger,
    "maxFragmentCombinedOutputResources" => max_fragment_combined_output_resources: Larger,
    "maxComputeSharedMemorySize" => max_compute_shared_memory_size: Larger,
    "maxComputeWorkGroupInvocations" => max_compute_work_group_invocations: Larger,
    "maxDrawIndexedIndexValue" => max_draw_indexed_index_value: Larger,
    "maxDrawIndirectCount" => max_draw_indirect_count: Larger,
    "maxSamplerLodBias" => max_sampler_lod_bias: Larger,
    "maxSamplerAnisotropy" => max_sampler_anisotropy: Larger,
    "maxViewports" => max_viewports: Larger,
    "minMemoryMapAlignment" => min_memory_map_alignment: Smaller,
    "minTexelBufferOffsetAlignment" => min_texel_buffer_offset_alignment: Smaller,
    "minUniformBufferOffsetAlignment" => min_uniform_buffer_offset_alignment: Smaller,
    "minStorageBufferOffsetAlignment" => min_storage_buffer_offset_alignment: Smaller,
    "minTexelOffset" => min_texel_offset: Smaller,
    "maxTexelOffset" => max_texel_offset: Larger,
    "minTexelGatherOffset" => min_texel_gather_offset: Smaller,
    "maxTexelGatherOffset" => max_texel_gather_offset: Larger,
    "minInterpolationOffset" => min_interpolation_offset: Smaller,
    "maxInterpolationOffset" => max_interpolation_offset: Larger,
    "maxFramebufferWidth" => max_framebuffer_width: Larger,
    "maxFramebufferHeight" => max_framebuffer_height: Larger,
    "maxFramebufferLayers" => max_framebuffer_layers: Larger,
    "maxColorAttachments" => max_color_attachments: Larger,
    "maxSampleMaskWords" => max_sample_mask_words: Larger,
    "maxClipDistances" => max_clip_distances: Larger,
    "maxCullDistances" => max_cull_distances: Larger,
    "maxCombinedClipAndCullDistances" => max_combined_clip_and_cull_distances: Larger,
    "nonCoherentAtomSize" => non_coherent_atom_size: Smaller,
    "optimalBufferCopyOffsetAlignment" => optimal_buffer_copy_offset_alignment: Smaller,
    "optimalBufferCopyRowPitchAlignment" => optimal_buffer_copy_row_pitch_alignment: Smaller,
}

macro_rules! core_feature_table {
    ($($json:literal => $field:ident),* $(,)?) => {
        /// Applies `f` to each `VkPhysicalDeviceFeatures` member, by its Vulkan name.
        fn for_each_core_feature(c: &mut vk::PhysicalDeviceFeatures, mut f: impl FnMut(&str, &mut vk::Bool32)) {
            $( f($json, &mut c.$field); )*
        }
    };
}

core_feature_table! {
    "robustBufferAccess" => robust_buffer_access,
    "fullDrawIndexUint32" => full_draw_index_uint32,
    "imageCubeArray" => image_cube_array,
    "independentBlend" => independent_blend,
    "geometryShader" => geometry_shader,
    "tessellationShader" => tessellation_shader,
    "sampleRateShading" => sample_rate_shading,
    "dualSrcBlend" => dual_src_blend,
    "logicOp" => logic_op,
    "multiDrawIndirect" => multi_draw_indirect,
    "drawIndirectFirstInstance" => draw_indirect_first_instance,
    "depthClamp" => depth_clamp,
    "depthBiasClamp" => depth_bias_clamp,
    "fillModeNonSolid" => fill_mode_non_solid,
    "depthBounds" => depth_bounds,
    "wideLines" => wide_lines,
    "largePoints" => large_points,
    "alphaToOne" => alpha_to_one,
    "multiViewport" => multi_viewport,
    "samplerAnisotropy" => sampler_anisotropy,
    "textureCompressionETC2" => texture_compression_etc2,
    "textureCompressionASTC_LDR" => texture_compression_astc_ldr,
    "textureCompressionBC" => texture_compression_bc,
    "occlusionQueryPrecise" => occlusion_query_precise,
    "pipelineStatisticsQuery" => pipeline_statistics_query,
    "vertexPipelineStoresAndAtomics" => vertex_pipeline_stores_and_atomics,
    "fragmentStoresAndAtomics" => fragment_stores_and_atomics,
    "shaderTessellationAndGeometryPointSize" => shader_tessellation_and_geometry_point_size,
    "shaderImageGatherExtended" => shader_image_gather_extended,
    "shaderStorageImageExtendedFormats" => shader_storage_image_extended_formats,
    "shaderStorageImageMultisample" => shader_storage_image_multisample,
    "shaderStorageImageReadWithoutFormat" => shader_storage_image_read_without_format,
    "shaderStorageImageWriteWithoutFormat" => shader_storage_image_write_without_format,
    "shaderUniformBufferArrayDynamicIndexing" => shader_uniform_buffer_array_dynamic_indexing,
    "shaderSampledImageArrayDynamicIndexing" => shader_sampled_image_array_dynamic_indexing,
    "shaderStorageBufferArrayDynamicIndexing" => shader_storage_buffer_array_dynamic_indexing,
    "shaderStorageImageArrayDynamicIndexing" => shader_storage_image_array_dynamic_indexing,
    "shaderClipDistance" => shader_clip_distance,
    "shaderCullDistance" => shader_cull_distance,
    "shaderFloat64" => shader_float64,
    "shaderInt64" => shader_int64,
    "shaderInt16" => shader_int16,
    "shaderResourceResidency" => shader_resource_residency,
    "shaderResourceMinLod" => shader_resource_min_lod,
    "sparseBinding" => sparse_binding,
    "sparseResidencyBuffer" => sparse_residency_buffer,
    "sparseResidencyImage2D" => sparse_residency_image2_d,
    "sparseResidencyImage3D" => sparse_residency_image3_d,
    "sparseResidency2Samples" => sparse_residency2_samples,
    "sparseResidency4Samples" => sparse_residency4_samples,
    "sparseResidency8Samples" => sparse_residency8_samples,
    "sparseResidency16Samples" => sparse_residency16_samples,
    "sparseResidencyAliased" => sparse_residency_aliased,
    "variableMultisampleRate" => variable_multisample_rate,
    "inheritedQueries" => inherited_queries,
}

/// The sample-count limits: the clamp intersects the flags.
fn for_each_sample_limit(
    l: &mut vk::PhysicalDeviceLimits,
    mut f: impl FnMut(&str, &mut vk::SampleCountFlags),
) {
    f(
        "framebufferColorSampleCounts",
        &mut l.framebuffer_color_sample_counts,
    );
    f(
        "framebufferDepthSampleCounts",
        &mut l.framebuffer_depth_sample_counts,
    );
    f(
        "framebufferStencilSampleCounts",
        &mut l.framebuffer_stencil_sample_counts,
    );
    f(
        "framebufferNoAttachmentsSampleCounts",
        &mut l.framebuffer_no_attachments_sample_counts,
    );
    f(
        "sampledImageColorSampleCounts",
        &mut l.sampled_image_color_sample_counts,
    );
    f(
        "sampledImageIntegerSampleCounts",
        &mut l.sampled_image_integer_sample_counts,
    );
    f(
        "sampledImageDepthSampleCounts",
        &mut l.sampled_image_depth_sample_counts,
    );
    f(
        "sampledImageStencilSampleCounts",
        &mut l.sampled_image_stencil_sample_counts,
    );
    f(
        "storageImageSampleCounts",
        &mut l.storage_image_sample_counts,
    );
}

/// A numeric limit field, clamped through `f64` (exact for every limit's range).
trait Scalar {
    fn get(&self) -> f64;
    fn set(&mut self, v: f64);
}

macro_rules! scalar {
    ($($t:ty),*) => {$(
        impl Scalar for $t {
            fn get(&self) -> f64 {
                *self as f64
            }
            fn set(&mut self, v: f64) {
                *self = v as $t;
            }
        }
    )*};
}
scalar!(u32, u64, i32, f32, usize);

/// `VK_FORMAT_FEATURE_*_BIT` names.
const FORMAT_FEATURES: &[(&str, vk::FormatFeatureFlags)] = &[
    ("SAMPLED_IMAGE", vk::FormatFeatureFlags::SAMPLED_IMAGE),
    ("STORAGE_IMAGE", vk::FormatFeatureFlags::STORAGE_IMAGE),
    (
        "STORAGE_IMAGE_ATOMIC",
        vk::FormatFeatureFlags::STORAGE_IMAGE_ATOMIC,
    ),
    (
        "UNIFORM_TEXEL_BUFFER",
        vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER,
    ),
    (
        "STORAGE_TEXEL_BUFFER",
        vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER,
    ),
    (
        "STORAGE_TEXEL_BUFFER_ATOMIC",
        vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER_ATOMIC,
    ),
    ("VERTEX_BUFFER", vk::FormatFeatureFlags::VERTEX_BUFFER),
    ("COLOR_ATTACHMENT", vk::FormatFeatureFlags::COLOR_ATTACHMENT),
    (
        "COLOR_ATTACHMENT_BLEND",
        vk::FormatFeatureFlags::COLOR_ATTACHMENT_BLEND,
    ),
    (
        "DEPTH_STENCIL_ATTACHMENT",
        vk::FormatFeatureFlags::DEPTH_STENCIL_ATTACHMENT,
    ),
    ("BLIT_SRC", vk::FormatFeatureFlags::BLIT_SRC),
    ("BLIT_DST", vk::FormatFeatureFlags::BLIT_DST),
    (
        "SAMPLED_IMAGE_FILTER_LINEAR",
        vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_LINEAR,
    ),
    ("TRANSFER_SRC", vk::FormatFeatureFlags::TRANSFER_SRC),
    ("TRANSFER_DST", vk::FormatFeatureFlags::TRANSFER_DST),
];

/// Lower case, `-` as `_`, without a leading `vp_`: how profile names are compared.
fn normalise(name: &str) -> String {
    let n = name.trim().to_ascii_lowercase().replace('-', "_");
    n.strip_prefix("vp_").map(str::to_owned).unwrap_or(n)
}

/// Parses `"1.3.273"` into a Vulkan version.
fn parse_api_version(text: &str) -> Result<u32, String> {
    let mut parts = text.split('.').map(|p| p.trim().parse::<u32>());
    let mut next = || -> Result<u32, String> {
        parts
            .next()
            .unwrap_or(Ok(0))
            .map_err(|_| format!("bad api-version {text:?}"))
    };
    let (major, minor, patch) = (next()?, next()?, next()?);
    Ok(vk::make_api_version(0, major, minor, patch))
}

fn parse_format_features(v: Option<&Value>) -> vk::FormatFeatureFlags {
    let names = v.and_then(Value::as_array).into_iter().flatten();
    names
        .filter_map(Value::as_str)
        .filter_map(|n| {
            let n = n.strip_prefix("VK_FORMAT_FEATURE_")?.strip_suffix("_BIT")?;
            FORMAT_FEATURES
                .iter()
                .find(|(k, _)| *k == n)
                .map(|(_, f)| *f)
        })
        .fold(vk::FormatFeatureFlags::empty(), |a, f| a | f)
}

fn sample_counts(v: &Value) -> vk::SampleCountFlags {
    let names = v.as_array().into_iter().flatten().filter_map(Value::as_str);
    names
        .filter_map(|n| n.strip_prefix("VK_SAMPLE_COUNT_")?.strip_suffix("_BIT"))
        .filter_map(|n| n.parse::<u32>().ok())
        .fold(vk::SampleCountFlags::empty(), |a, n| {
            a | vk::SampleCountFlags::from_raw(n)
        })
}

/// Whether `format` is a depth and/or stencil format (left to the core specification).
fn is_depth_stencil(format: vk::Format) -> bool {
    matches!(
        format,
        vk::Format::D16_UNORM
            | vk::Format::X8_D24_UNORM_PACK32
            | vk::Format::D32_SFLOAT
            | vk::Format::S8_UINT
            | vk::Format::D16_UNORM_S8_UINT
            | vk::Format::D24_UNORM_S8_UINT
            | vk::Format::D32_SFLOAT_S8_UINT
    )
}

impl Profile {
    /// The names of the built-in profiles.
    pub fn builtin_names() -> impl Iterator<Item = &'static str> {
        BUILTIN.iter().map(|(name, _)| *name)
    }

    /// Loads `spec`: a path to a profiles JSON (its only profile, or the one named after `#`:
    /// `FILE.json#VP_NAME`), or the name of a built-in profile.
    pub fn load(spec: &str) -> Result<Profile, String> {
        let spec = spec.trim();
        let (path, wanted) = match spec.split_once('#') {
            Some((p, n)) => (p, Some(n)),
            None => (spec, None),
        };
        if path.ends_with(".json") || path.contains('/') {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            let mut p = Self::from_json(&text, wanted)?;
            p.source = path.to_owned();
            return Ok(p);
        }
        Self::builtin(spec).ok_or_else(|| {
            let known: Vec<&str> = Self::builtin_names().collect();
            format!(
                "unknown profile {spec:?} (built in: {}; or give a path to a .json)",
                known.join(", ")
            )
        })?
    }

    /// A built-in profile by (normalised) name: its file stem, its profile name or an alias.
    fn builtin(name: &str) -> Option<Result<Profile, String>> {
        let want = normalise(name);
        let stem = ALIASES
            .iter()
            .find(|(alias, _)| *alias == want)
            .map(|(_, stem)| *stem);
        let (_, text) = BUILTIN.iter().find(|(s, text)| {
            stem == Some(*s)
                || normalise(s) == want
                || Self::names_in(text).any(|n| normalise(&n) == want)
        })?;
        Some(Self::from_json(text, None).map(|mut p| {
            p.source = "built-in".into();
            p
        }))
    }

    fn names_in(text: &str) -> impl Iterator<Item = String> {
        let doc: Value = serde_json::from_str(text).unwrap_or(Value::Null);
        let names: Vec<String> = doc["profiles"]
            .as_object()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        names.into_iter()
    }

    /// Parses a profiles document and resolves the profile `wanted` (or its only profile).
    pub fn from_json(text: &str, wanted: Option<&str>) -> Result<Profile, String> {
        let doc: Value = serde_json::from_str(text).map_err(|e| format!("profile JSON: {e}"))?;
        let profiles = doc["profiles"]
            .as_object()
            .ok_or("profile JSON has no \"profiles\" object")?;
        let (name, body) = match wanted {
            Some(w) => profiles
                .iter()
                .find(|(n, _)| normalise(n) == normalise(w))
                .ok_or_else(|| format!("no profile {w:?} in the document"))?,
            None if profiles.len() == 1 => profiles.iter().next().ok_or("no profile")?,
            None => {
                let names: Vec<&String> = profiles.keys().collect();
                return Err(format!(
                    "several profiles ({names:?}): name one with FILE.json#NAME"
                ));
            }
        };
        let mut p = Profile {
            name: name.clone(),
            api_version: parse_api_version(body["api-version"].as_str().unwrap_or("1.0.0"))?,
            ..Profile::default()
        };
        for parent in body["profiles"].as_array().into_iter().flatten() {
            let parent = parent.as_str().ok_or("a non-string parent profile")?;
            let resolved = Self::builtin(parent)
                .ok_or_else(|| format!("{name} inherits {parent}, which is not built in"))??;
            p.merge(resolved);
        }
        for entry in body["capabilities"].as_array().into_iter().flatten() {
            let names: Vec<&Value> = match entry {
                Value::Array(alternatives) => alternatives.iter().collect(),
                single => vec![single],
            };
            for cap in names.into_iter().filter_map(Value::as_str) {
                p.add_capability(&doc["capabilities"][cap]);
            }
        }
        Ok(p)
    }

    /// Adds what another (inherited) profile lists.
    fn merge(&mut self, other: Profile) {
        self.api_version = self.api_version.max(other.api_version);
        self.extensions.extend(other.extensions);
        self.features.extend(other.features);
        for (k, v) in other.limits {
            self.add_limit(k, v);
        }
        if let Some(formats) = other.formats {
            let mine = self.formats.get_or_insert_with(BTreeMap::new);
            for (k, caps) in formats {
                let e = mine.entry(k).or_default();
                e.linear |= caps.linear;
                e.optimal |= caps.optimal;
                e.buffer |= caps.buffer;
            }
        }
    }

    /// Adds one capability block's extensions, features, limits and formats.
    fn add_capability(&mut self, cap: &Value) {
        if let Some(exts) = cap["extensions"].as_object() {
            self.extensions.extend(exts.keys().cloned());
        }
        for members in cap["features"]
            .as_object()
            .into_iter()
            .flat_map(|m| m.values())
        {
            let on = members.as_object().into_iter().flatten();
            let on = on.filter(|(_, v)| v.as_bool() == Some(true));
            self.features.extend(on.map(|(k, _)| k.clone()));
        }
        let props = &cap["properties"];
        for (k, v) in props["VkPhysicalDeviceProperties"]["limits"]
            .as_object()
            .into_iter()
            .flatten()
        {
            self.add_limit(k.clone(), v.clone());
        }
        for s in [
            "VkPhysicalDeviceVulkan11Properties",
            "VkPhysicalDeviceMaintenance3Properties",
        ] {
            if let Some(v) = props[s].get("maxMemoryAllocationSize") {
                self.add_limit("maxMemoryAllocationSize".into(), v.clone());
            }
        }
        if let Some(formats) = cap["formats"].as_object() {
            let mine = self.formats.get_or_insert_with(BTreeMap::new);
            for (name, f) in formats {
                let p = &f["VkFormatProperties"];
                let e = mine.entry(name.clone()).or_default();
                e.linear |= parse_format_features(p.get("linearTilingFeatures"));
                e.optimal |= parse_format_features(p.get("optimalTilingFeatures"));
                e.buffer |= parse_format_features(p.get("bufferFeatures"));
            }
        }
    }

    /// Records a limit, keeping the more capable value when two blocks give one.
    fn add_limit(&mut self, name: String, value: Value) {
        let better = limit_better(&name);
        let keep = match (
            self.limits.get(&name).and_then(Value::as_f64),
            value.as_f64(),
        ) {
            (Some(old), Some(new)) => match better {
                Better::Larger => new > old,
                Better::Smaller => new < old,
            },
            _ => true,
        };
        if keep {
            self.limits.insert(name, value);
        }
    }

    /// Whether the profile lists device extension `name`. `VK_KHR_portability_subset` is always
    /// allowed: a portability implementation requires it enabled.
    pub fn allows_extension(&self, name: &str) -> bool {
        name == "VK_KHR_portability_subset" || self.extensions.contains(name)
    }

    /// Whether the profile has feature `member` (its Vulkan name, e.g. `dynamicRendering`),
    /// listed or implied by its Vulkan version.
    pub fn allows_feature(&self, member: &str) -> bool {
        self.features.contains(member)
            || IMPLIED
                .iter()
                .any(|&(v, f)| f == member && self.api_version >= v)
    }

    /// Turns off every core feature of `core` the profile does not have.
    pub fn mask_core_features(&self, core: &mut vk::PhysicalDeviceFeatures) {
        for_each_core_feature(core, |name, on| {
            if !self.allows_feature(name) {
                *on = vk::FALSE;
            }
        });
    }

    /// The extensions the profile lists.
    pub fn extensions(&self) -> impl Iterator<Item = &str> {
        self.extensions.iter().map(String::as_str)
    }

    /// Clamps `l` to the profile's limits (each the less capable of the two).
    pub fn clamp_limits(&self, l: &mut vk::PhysicalDeviceLimits) {
        for_each_limit(l, |name, better, field| {
            if let Some(p) = self.limits.get(name).and_then(Value::as_f64) {
                let d = field.get();
                field.set(match better {
                    Better::Larger => d.min(p),
                    Better::Smaller => d.max(p),
                });
            }
        });
        for_each_sample_limit(l, |name, field| {
            if let Some(v) = self.limits.get(name) {
                *field &= sample_counts(v);
            }
        });
    }

    /// Clamps `maxMemoryAllocationSize`.
    pub fn clamp_max_allocation_size(&self, device: u64) -> u64 {
        match self
            .limits
            .get("maxMemoryAllocationSize")
            .and_then(Value::as_u64)
        {
            Some(p) => device.min(p),
            None => device,
        }
    }

    /// Whether the profile lists formats (and so clamps them).
    pub fn clamps_formats(&self) -> bool {
        self.formats.is_some()
    }

    /// The device's `props` of `format` under the profile (see the module docs).
    pub fn clamp_format(
        &self,
        format: vk::Format,
        props: vk::FormatProperties,
    ) -> vk::FormatProperties {
        let Some(formats) = &self.formats else {
            return props;
        };
        let name = format!("VK_FORMAT_{format:?}");
        let listed = formats
            .get(&name)
            .or_else(|| formats.get(&format!("{name}_EXT")))
            .or_else(|| formats.get(&format!("{name}_KHR")));
        match listed {
            Some(caps) => vk::FormatProperties {
                linear_tiling_features: props.linear_tiling_features & caps.linear,
                optimal_tiling_features: props.optimal_tiling_features & caps.optimal,
                buffer_features: props.buffer_features & caps.buffer,
            },
            None if is_depth_stencil(format) => props,
            None => vk::FormatProperties::default(),
        }
    }
}

/// How limit `name` compares (see [`Better`]).
fn limit_better(name: &str) -> Better {
    let smaller = name.contains("Alignment")
        || name.contains("Granularity")
        || name == "nonCoherentAtomSize"
        || name.starts_with("min");
    if smaller && !name.starts_with("max") {
        Better::Smaller
    } else {
        Better::Larger
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_profile_parses() {
        for name in Profile::builtin_names() {
            let p = Profile::load(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(
                !p.name.is_empty() && p.api_version >= vk::API_VERSION_1_0,
                "{name}"
            );
        }
    }

    #[test]
    fn android_baseline_2022_clamps_to_its_limits_and_formats() {
        let p = Profile::load("android-baseline-2022").expect("alias");
        assert_eq!(p.name, "VP_ANDROID_baseline_2022");
        assert_eq!(vk::api_version_minor(p.api_version), 1);
        assert!(!p.allows_feature("timelineSemaphore"));
        assert!(!p.allows_feature("dynamicRendering"));
        assert!(p.allows_feature("sampleRateShading"));
        assert!(!p.allows_extension("VK_KHR_push_descriptor"));
        assert!(p.allows_extension("VK_KHR_swapchain"));
        let mut l = vk::PhysicalDeviceLimits {
            max_bound_descriptor_sets: 32,
            max_image_dimension2_d: 16384,
            buffer_image_granularity: 1,
            min_texel_offset: -32,
            framebuffer_color_sample_counts: vk::SampleCountFlags::from_raw(0b1111),
            ..Default::default()
        };
        p.clamp_limits(&mut l);
        assert_eq!(l.max_bound_descriptor_sets, 4);
        assert_eq!(l.max_image_dimension2_d, 4096);
        assert_eq!(
            l.buffer_image_granularity, 1,
            "the profile does not list it"
        );
        assert_eq!(l.min_texel_offset, -8);
        assert_eq!(l.framebuffer_color_sample_counts.as_raw(), 0b101);
        let all = vk::FormatProperties {
            linear_tiling_features: vk::FormatFeatureFlags::from_raw(!0),
            optimal_tiling_features: vk::FormatFeatureFlags::from_raw(!0),
            buffer_features: vk::FormatFeatureFlags::from_raw(!0),
        };
        let bc = p.clamp_format(vk::Format::BC1_RGBA_UNORM_BLOCK, all);
        assert!(
            bc.optimal_tiling_features.is_empty(),
            "BC is not an Android format"
        );
        let rgba = p.clamp_format(vk::Format::R8G8B8A8_UNORM, all);
        assert!(rgba
            .optimal_tiling_features
            .contains(vk::FormatFeatureFlags::COLOR_ATTACHMENT_BLEND));
        let d24s8 = p.clamp_format(vk::Format::D24_UNORM_S8_UINT, all);
        assert_eq!(
            d24s8.optimal_tiling_features, all.optimal_tiling_features,
            "depth/stencil formats are left to the core specification"
        );
    }

    #[test]
    fn android_15_inherits_the_2022_baseline_and_is_vulkan_1_3() {
        let p = Profile::load("VP_ANDROID_15_minimums").expect("built in");
        assert!(p.allows_feature("dynamicRendering"), "implied by 1.3");
        assert!(
            p.allows_feature("sampleRateShading"),
            "inherited from the 2022 baseline"
        );
        assert!(p.allows_extension("VK_EXT_index_type_uint8"));
        let mut l = vk::PhysicalDeviceLimits {
            max_per_stage_descriptor_sampled_images: 1000,
            max_bound_descriptor_sets: 32,
            ..Default::default()
        };
        p.clamp_limits(&mut l);
        assert_eq!(
            l.max_per_stage_descriptor_sampled_images, 128,
            "the larger of the two"
        );
        assert_eq!(l.max_bound_descriptor_sets, 4);
    }

    #[test]
    fn unknown_names_and_bad_files_are_errors() {
        assert!(Profile::load("VP_NO_SUCH_PROFILE").is_err());
        assert!(Profile::load("/nonexistent/profile.json").is_err());
        assert!(Profile::from_json("{\"profiles\": {}}", None).is_err());
    }
}
