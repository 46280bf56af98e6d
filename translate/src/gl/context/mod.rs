//! A GL context: all of GL's per-context state, and the entry points as Rust methods.
//!
//! Every method validates before it changes anything and reports failures through the error
//! flag (see `error`); the C ABI turns pointers into slices and calls these. Objects are the
//! context's own unless it shares them (`share_group`).

pub(crate) mod clip_control;
pub(crate) mod cull_distance;
pub mod debug;
pub mod enums;
pub(crate) mod error;
pub(crate) mod es;
pub(crate) mod es31_compat;
pub(crate) mod es_version;
pub(crate) mod experimental;
pub(crate) mod get;
pub(crate) mod limits;
pub(crate) mod names;
pub(crate) mod no_error;
mod recovery;
pub(crate) mod share_group;
pub(crate) mod state;
pub(crate) mod version;
pub(crate) mod viewports;

use std::collections::HashMap;
use std::ffi::CString;
use std::sync::Arc;

use arenagl_staging::PixelStore;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlError, GlResult};
use crate::gl::context::names::Names;
use crate::gl::context::state::PipelineState;
use crate::gl::draw::Encoder;
use crate::gl::objects::buffer::Buffer;
use crate::gl::objects::framebuffer::{Framebuffer, Renderbuffer, SurfaceImages};
use crate::gl::objects::program::{Program, Shader};
use crate::gl::objects::texture::Texture;
use crate::gl::objects::vertex_array::{FfArray, VertexArray, ATTRIB_SLOTS};
use crate::gl::vk::descriptors::DescriptorPools;
use crate::gl::vk::device::Device;

/// Which profile the context was created for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    Core,
    Compatibility,
}

/// An indexed buffer binding (`glBindBufferRange`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct IndexedBinding {
    pub buffer: u32,
    pub offset: u64,
    /// 0: the whole buffer.
    pub size: u64,
}

/// Uniform-buffer binding points (`GL_MAX_UNIFORM_BUFFER_BINDINGS`).
pub use limits::MAX_UNIFORM_BUFFER_BINDINGS;

/// A generic vertex attribute's current value (`glVertexAttrib*`): 16 bytes and whether it is
/// integer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct CurrentAttrib {
    pub words: [u32; 4],
    /// The `glVertexAttribL*` value (GL_ARB_vertex_attrib_64bit), which 64-bit inputs read.
    pub long: [u64; 4],
}

impl Default for CurrentAttrib {
    fn default() -> Self {
        Self {
            words: [0, 0, 0, 1.0f32.to_bits()],
            long: [0, 0, 0, 1.0f64.to_bits()],
        }
    }
}

/// Current values at context creation: (0, 0, 0, 1) but colour (1, 1, 1, 1) and normal
/// (0, 0, 1).
fn initial_attribs() -> [CurrentAttrib; ATTRIB_SLOTS] {
    let mut a = [CurrentAttrib::default(); ATTRIB_SLOTS];
    let f = |v: [f32; 4]| CurrentAttrib {
        words: v.map(f32::to_bits),
        ..CurrentAttrib::default()
    };
    a[FfArray::Color.slot()] = f([1.0; 4]);
    a[FfArray::SecondaryColor.slot()] = f([0.0, 0.0, 0.0, 1.0]);
    a[FfArray::Normal.slot()] = f([0.0, 0.0, 1.0, 1.0]);
    a
}

/// One GL context.
pub struct Context {
    pub(crate) device: Arc<Device>,
    pub(crate) profile: Profile,
    /// Desktop GL or OpenGL ES (`es`).
    pub(crate) api: es::Api,
    /// `glPrimitiveBoundingBox`'s eight values (`es`).
    pub(crate) primitive_bounding_box: [f32; 8],
    error: GLenum,
    /// Every error raised so far, the flag already set or not (`errors_raised`).
    errors_raised: u64,
    pub(crate) strings: Strings,
    pub(crate) buffers: Names<Buffer>,
    /// Shared with the draw that reads one (a reference count, not a copy of its ~3 KiB per
    /// draw); changed through `Arc::make_mut` (`current_vao_mut`).
    pub(crate) vertex_arrays: Names<Arc<VertexArray>>,
    pub(crate) shaders: Names<Shader>,
    pub(crate) programs: Names<Program>,
    /// Program pipeline objects and the bound one (GL_ARB_separate_shader_objects).
    pub(crate) pipelines: crate::gl::objects::program_pipeline::Pipelines,
    /// `glUniformSubroutinesuiv`'s selection for the current program (reset by `glUseProgram`).
    pub(crate) subroutine_selection: crate::gl::objects::program::subroutine::SubroutineSelection,
    pub(crate) textures: Names<Texture>,
    /// Sampler objects: sampling parameters only (`glSamplerParameter*`).
    pub(crate) samplers: Names<crate::gl::objects::texture::TexParams>,
    /// Per unit: the bound sampler object (0: the texture's own sampling state).
    pub(crate) sampler_units: Vec<u32>,
    /// The proxy multisample textures' level state (2D, 2D array; `texture_multisample`).
    pub(crate) proxy_multisample: [Option<crate::gl::objects::texture::multisample::ProxyLevel>; 2],
    pub(crate) framebuffers: Names<Framebuffer>,
    pub(crate) renderbuffers: Names<Renderbuffer>,
    pub(crate) array_buffer: u32,
    pub(crate) generic_bindings: HashMap<GLenum, u32>,
    pub(crate) uniform_bindings: [IndexedBinding; MAX_UNIFORM_BUFFER_BINDINGS],
    /// Storage-buffer, atomic-counter-buffer and image-unit bindings (`compute`).
    pub(crate) compute: crate::gl::compute::ComputeState,
    pub(crate) vertex_array: u32,
    /// The VAO a compatibility context draws from when none is bound.
    pub(crate) default_vertex_array: Arc<VertexArray>,
    /// Current values of the generic attributes, then of the fixed-function ones.
    pub(crate) current_attribs: [CurrentAttrib; ATTRIB_SLOTS],
    /// The compatibility profile's default texture objects (texture name 0), one per target.
    pub(crate) default_textures: Vec<crate::gl::objects::texture::Texture>,
    /// The compatibility profile's fixed-function state (`compat`).
    pub(crate) compat: crate::gl::compat::CompatState,
    /// `glClampColor` (`clamp_color`).
    pub(crate) clamp: crate::gl::compat::clamp_color::ClampColor,
    pub(crate) lists: crate::gl::compat::display_list::DisplayLists,
    /// The vertex arrays of an immediate-mode (`glBegin`/`glEnd`) draw in progress.
    pub(crate) vao_override: Option<Arc<VertexArray>>,
    /// The objects a direct-state-access command names, for its one command (`dsa`).
    pub(crate) dsa: crate::gl::dsa::Selection,
    pub(crate) program: u32,
    pub(crate) active_texture: u32,
    /// Per unit, per target (`TexTarget::index`): the bound texture.
    pub(crate) texture_units: Vec<[u32; crate::gl::objects::texture::target::TexTarget::COUNT]>,
    /// Per unit, the `GL_TEXTURE_BUFFER` binding (`texture_buffer`).
    pub(crate) texture_buffers: crate::gl::objects::texture::buffer::TextureBufferUnits,
    pub(crate) draw_framebuffer: u32,
    pub(crate) read_framebuffer: u32,
    pub(crate) renderbuffer: u32,
    pub(crate) default_draw_buffer: GLenum,
    pub(crate) default_read_buffer: GLenum,
    pub(crate) pipeline_state: PipelineState,
    pub(crate) unpack: PixelStore,
    pub(crate) pack: PixelStore,
    /// `GL_UNPACK_COMPRESSED_BLOCK_*` / `GL_PACK_COMPRESSED_BLOCK_*` (`pixel/compressed_store.rs`).
    pub(crate) unpack_blocks: crate::gl::pixel::compressed_store::BlockStore,
    pub(crate) pack_blocks: crate::gl::pixel::compressed_store::BlockStore,
    pub(crate) surface: Option<Arc<SurfaceImages>>,
    pub(crate) read_surface: Option<Arc<SurfaceImages>>,
    pub(crate) made_current: bool,
    pub(crate) encoder: Encoder,
    pub(crate) descriptors: DescriptorPools,
    pub(crate) hints: HashMap<GLenum, GLenum>,
    pub(crate) ignored_caps: HashMap<GLenum, bool>,
    pub(crate) lost: bool,
    /// Whether `glGetGraphicsResetStatus` has reported the loss already.
    reset_reported: bool,
    /// The stand-ins for incomplete textures, one per target (view type) and sampled kind
    /// (float, int, uint), made on first need.
    pub(crate) dummy: [Option<(arenagl_memory::ImageHandle, arenagl_memory::ViewHandle)>;
        crate::gl::objects::texture::target::TexTarget::COUNT * 3],
    /// The program of colour clears under a partial mask, made on first need.
    pub(crate) clear_program: Option<Arc<crate::gl::objects::program::Linked>>,
    /// The colour and depth programs of mipmap generation by drawing, made on first need.
    pub(crate) mipmap_programs: [Option<Arc<crate::gl::objects::program::Linked>>; 2],
    /// Query objects, their Vulkan slots and conditional rendering.
    pub(crate) queries: crate::gl::objects::query::QueryState,
    /// Transform feedback objects and the active capture (`objects::transform_feedback`).
    pub(crate) xfb: crate::gl::objects::transform_feedback::XfbState,
    /// Demotion, pruning, trimming and the render scale under memory pressure.
    pub(crate) pressure: crate::gl::pressure::degrade::PressureState,
    /// The share group whose objects this context uses (`share_group`), if it shares any.
    pub(crate) share: Option<Arc<crate::gl::context::share_group::ShareGroup>>,
    /// This context's id among the members of a share group (unique in the process).
    pub(crate) member_id: u64,
    /// During a command of a sharing context: the group's members and its deleted objects
    /// that members may still use (swapped in with the tables; empty otherwise).
    pub(crate) share_members: Vec<u64>,
    pub(crate) tombstones: Vec<crate::gl::context::share_group::Tombstone>,
    /// Made with `GL_LOSE_CONTEXT_ON_RESET` as its reset notification strategy (EGL's
    /// `EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY`); `GL_NO_RESET_NOTIFICATION` otherwise.
    pub(crate) lose_context_on_reset: bool,
    /// The device generation this context's Vulkan objects belong to (`recovery`).
    device_generation: u64,
    /// `glPatchParameter*` (GL_ARB_tessellation_shader, `draw::patch`).
    pub(crate) patch: crate::gl::draw::patch::PatchState,
    /// GL_KHR_debug: messages, callback, groups, labels (`debug`).
    pub(crate) debug: debug::DebugState,
    /// GL_KHR_context_flush_control: whether releasing the context flushes it (what
    /// `GL_CONTEXT_RELEASE_BEHAVIOR` answers; the C edge does the flushing).
    pub(crate) flush_on_release: bool,
    /// GL_KHR_no_error: made as a no-error context (`no_error`).
    pub(crate) no_error: bool,
}

/// The strings `glGetString` returns (they must stay valid for the context's life).
pub(crate) struct Strings {
    pub vendor: CString,
    pub renderer: CString,
    pub version: CString,
    pub glsl: CString,
    /// `glGetStringi(GL_SHADING_LANGUAGE_VERSION, i)` (desktop GL; empty in ES).
    pub glsl_versions: Vec<CString>,
    pub extensions: Vec<CString>,
    pub all_extensions: CString,
}

impl Strings {
    /// Replaces the version strings and the extensions.
    pub(crate) fn set(&mut self, version: &str, glsl: &str, extensions: &[&str]) {
        self.version = cstr(version);
        self.glsl = cstr(glsl);
        self.glsl_versions.clear();
        self.extensions = extensions.iter().map(|e| cstr(e)).collect();
        self.all_extensions = cstr(&extensions.join(" "));
    }
}

/// A C string of `s` (a NUL inside becomes a space).
fn cstr(s: &str) -> CString {
    CString::new(s.replace('\0', " ")).unwrap_or_default()
}

/// The extensions this slice advertises (each is implemented by the core paths here).
const EXTENSIONS: &[&str] = &[
    "GL_ARB_depth_texture",
    "GL_ARB_half_float_vertex",
    "GL_ARB_texture_border_clamp",
    "GL_ARB_texture_mirrored_repeat",
    "GL_ARB_texture_non_power_of_two",
    "GL_ARB_vertex_array_bgra",
    "GL_ARB_vertex_buffer_object",
    "GL_EXT_blend_color",
    "GL_EXT_blend_equation_separate",
    "GL_EXT_blend_func_separate",
    "GL_EXT_blend_minmax",
    "GL_EXT_framebuffer_object",
    "GL_EXT_framebuffer_blit",
    "GL_ARB_draw_buffers",
    "GL_EXT_packed_depth_stencil",
    "GL_EXT_texture_edge_clamp",
    "GL_EXT_texture_sRGB",
    // sRGB attachments encode only while GL_FRAMEBUFFER_SRGB is on (`draw/target.rs`).
    "GL_ARB_framebuffer_sRGB",
    "GL_ARB_vertex_array_object",
    "GL_ARB_uniform_buffer_object",
    "GL_ARB_map_buffer_range",
    "GL_ARB_copy_buffer",
    "GL_ARB_draw_elements_base_vertex",
    "GL_ARB_draw_instanced",
    "GL_ARB_instanced_arrays",
    "GL_ARB_framebuffer_object",
    "GL_ARB_explicit_attrib_location",
    "GL_ARB_texture_storage",
    "GL_ARB_sync",
    "GL_ARB_occlusion_query",
    "GL_ARB_occlusion_query2",
    "GL_ARB_timer_query",
    "GL_ARB_invalidate_subdata",
    "GL_EXT_draw_buffers2",
    "GL_ARB_texture_query_lod",
    "GL_ARB_shader_subroutine",
    "GL_ARB_texture_gather",
    "GL_NV_conditional_render",
    "GL_ARB_sampler_objects",
    "GL_ARB_texture_cube_map",
    "GL_ARB_texture_swizzle",
    "GL_EXT_texture_swizzle",
    "GL_EXT_texture_array",
    "GL_ARB_shader_bit_encoding",
    "GL_ARB_vertex_type_2_10_10_10_rev",
    // Texture formats (internal_format.rs) and the pixel types staging converts.
    "GL_ARB_texture_float",
    "GL_ARB_texture_rg",
    "GL_ARB_half_float_pixel",
    "GL_EXT_texture_snorm",
    "GL_ARB_depth_buffer_float",
    "GL_ARB_texture_rgb10_a2ui",
    "GL_EXT_packed_float",
    "GL_EXT_texture_shared_exponent",
    // Compressed formats, decompressed on upload (staging::compressed).
    "GL_ARB_texture_compression_rgtc",
    "GL_EXT_texture_compression_rgtc",
    "GL_EXT_texture_compression_s3tc",
    // Texture targets beyond GL 3.0's (texture_target.rs; rectangle samplers: glsl/rect.rs).
    "GL_ARB_texture_rectangle",
    "GL_ARB_texture_multisample",
    "GL_ARB_texture_storage_multisample",
    // Immutable and persistently mapped buffers (buffer_storage.rs).
    "GL_ARB_buffer_storage",
    // Mapped pointers on a 64-byte grid (objects/buffer/aligned.rs).
    "GL_ARB_map_buffer_alignment",
    // Buffers filled with one element (objects/buffer/clear.rs).
    "GL_ARB_clear_buffer_object",
    // Query results written into buffers (objects/query_buffer.rs).
    "GL_ARB_query_buffer_object",
    // Buffer-texture ranges (texture_buffer.rs; buffer textures themselves are GL 3.1 core,
    // and GL_ARB_texture_buffer_object's legacy formats are not supported).
    "GL_ARB_texture_buffer_range",
    // Pixel transfers from and into buffers (pixel_buffer.rs).
    "GL_ARB_pixel_buffer_object",
    "GL_EXT_pixel_buffer_object",
    // Debug output, groups and labels (context/debug.rs).
    "GL_KHR_debug",
    "GL_ARB_debug_output",
    // Vertex buffer binding points (objects/vertex_array/binding.rs).
    "GL_ARB_vertex_attrib_binding",
    // GL_CONTEXT_RELEASE_BEHAVIOR, from EGL's/GLX's release-behaviour attribute.
    "GL_KHR_context_flush_control",
    // Separable programs and program pipelines (objects/program_pipeline), and the program
    // interface queries (objects/program/interface_query.rs).
    "GL_ARB_separate_shader_objects",
    "GL_ARB_program_interface_query",
    // `layout(location = N) uniform` (objects/program/uniform_locations.rs).
    "GL_ARB_explicit_uniform_location",
    // glClipControl (context/clip_control.rs, glsl/depth_remap.rs).
    "GL_ARB_clip_control",
];

/// GLSL-only extensions of GL 4.2–4.5 that glslang compiles to what Vulkan runs, with no API of
/// their own (`layout(binding)` of GL_ARB_shading_language_420pack is read at link,
/// `glsl::layout_bindings`; GL_ARB_derivative_control's functions below GLSL 4.00:
/// `glsl::derivative_control`).
const GLSL_EXTENSIONS: &[&str] = &[
    "GL_ARB_shading_language_420pack",
    "GL_ARB_shading_language_packing",
    "GL_ARB_conservative_depth",
    "GL_ARB_derivative_control",
    // `textureQueryLevels` below GLSL 4.30 (`glsl::query_levels`).
    "GL_ARB_texture_query_levels",
    // `textureSamples`/`imageSamples` below GLSL 4.30 (`glsl::texture_samples`).
    "GL_ARB_shader_texture_image_samples",
    // Arrays of arrays below GLSL 4.30: such units compile as 4.30 (`glsl::raise`).
    "GL_ARB_arrays_of_arrays",
];

/// The GLSL-only extensions a context offers, given the `offered` ones so far: those of
/// [`GLSL_EXTENSIONS`], and those that need another extension.
fn glsl_extensions(offered: &[&str]) -> Vec<&'static str> {
    let mut out = GLSL_EXTENSIONS.to_vec();
    if offered.contains(&"GL_ARB_shader_image_load_store") {
        out.push("GL_ARB_shader_image_size");
    }
    // `atomicCounterAddARB` … `atomicCounterCompSwapARB` (compiled as GLSL 4.50, `glsl::raise`).
    if offered.contains(&"GL_ARB_shader_atomic_counters") {
        out.push("GL_ARB_shader_atomic_counter_ops");
    }
    out
}

/// Extensions only a compatibility-profile context advertises (fixed-function features, and
/// the ARB shader-object API of GL 1.5 programs).
const COMPAT_EXTENSIONS: &[&str] = &[
    "GL_ARB_fragment_shader",
    "GL_ARB_multitexture",
    "GL_ARB_shader_objects",
    "GL_ARB_shading_language_100",
    "GL_ARB_texture_env_add",
    "GL_ARB_texture_env_combine",
    "GL_ARB_texture_env_crossbar",
    "GL_ARB_texture_env_dot3",
    "GL_ARB_vertex_shader",
    "GL_ARB_window_pos",
    "GL_EXT_texture_env_combine",
    // GLSL 1.30's integers, outputs and lookups in GLSL 1.10/1.20 (`glsl::gpu_shader4`); its API
    // is GL 3.0's under EXT names.
    "GL_EXT_gpu_shader4",
];

impl Context {
    /// A context on `device`.
    pub fn new(device: Arc<Device>, profile: Profile) -> Context {
        let renderer = format!("ArenaGL on Vulkan ({})", device.caps().name);
        let device_generation = device.generation();
        let mut extensions: Vec<&str> = EXTENSIONS.to_vec();
        if profile == Profile::Compatibility {
            extensions.extend_from_slice(COMPAT_EXTENSIONS);
        }
        // Extensions that need a device feature (`DeviceCaps`) are advertised only with it.
        if device.caps().depth_clamp {
            extensions.push("GL_ARB_depth_clamp");
        }
        if device.caps().independent_blend {
            extensions.push("GL_ARB_draw_buffers_blend");
        }
        if device.caps().dual_src_blend {
            extensions.push("GL_ARB_blend_func_extended");
        }
        if device.caps().tessellation_shader {
            extensions.push("GL_ARB_tessellation_shader");
        }
        // Transform feedback (`objects::transform_feedback`) on VK_EXT_transform_feedback.
        if device.caps().gl4.transform_feedback && device.xfb().is_some() {
            extensions.push("GL_EXT_transform_feedback");
            extensions.push("GL_ARB_transform_feedback2");
            extensions.push("GL_ARB_transform_feedback3");
            extensions.push("GL_ARB_transform_feedback_instanced");
            // `xfb_*` qualifiers capture without glTransformFeedbackVaryings
            // (`objects::program::xfb_layout`), `layout(component, offset, align)`.
            extensions.push("GL_ARB_enhanced_layouts");
            // OpenGL ES 3.0 on desktop (`context::es`): ETC2/EAC (decoded where the device
            // lacks them), fixed-index restart, GL_MAX_ELEMENT_INDEX, GLSL ES 3.00, the
            // conservative occlusion query, and transform feedback, which ES 3.0 needs.
            extensions.push("GL_ARB_ES3_compatibility");
        }
        if device.caps().provoking_vertex_last {
            extensions.push("GL_EXT_provoking_vertex");
            extensions.push("GL_ARB_provoking_vertex");
        }
        if Context::texture_buffer_rgb32(&device) {
            extensions.push("GL_ARB_texture_buffer_object_rgb32");
        }
        if crate::gl::objects::framebuffer::max_samples(&device) > 1 {
            extensions.push("GL_EXT_framebuffer_multisample");
        }
        // 64-bit types in shaders, uniforms and vertex inputs (`glsl::wide_inputs`,
        // `objects::vertex_array::long`, the 64-bit `ValueKind`s).
        if device.caps().gl4.shader_float64 {
            extensions.push("GL_ARB_gpu_shader_fp64");
            extensions.push("GL_ARB_vertex_attrib_64bit");
        }
        extensions.extend(crate::gl::compute::extensions(&device));
        extensions.extend(crate::gl::draw::indirect::extensions(&device));
        extensions.extend(crate::gl::draw::indirect_count::extensions(&device));
        extensions.extend(crate::gl::objects::texture::extensions::extensions(&device));
        // Framebuffers without attachments (objects/framebuffer/params.rs), at GL's limits.
        if crate::gl::objects::framebuffer::params::supported(&device) {
            extensions.push("GL_ARB_framebuffer_no_attachments");
        }
        if device.caps().gl4.image_cube_array {
            extensions.push("GL_ARB_texture_cube_map_array");
        }
        if device.caps().gl4.sample_rate_shading {
            extensions.push("GL_ARB_sample_shading");
        }
        // Out-of-bounds buffer reads by shaders and vertex fetch give zero or in-bounds values
        // (`robustBufferAccess`, docs/gl.md "Draws").
        if device.caps().gl4.robust_buffer_access {
            extensions.push("GL_ARB_robust_buffer_access_behavior");
        }
        if device.caps().gl4.depth_bias_clamp {
            extensions.push("GL_ARB_polygon_offset_clamp");
            extensions.push("GL_EXT_polygon_offset_clamp");
        }
        // GL_ARB_gpu_shader5: extended gather, interpolateAt* (sample shading), four vertex
        // streams (geometry streams); sampler/UBO arrays are lowered where not indexable.
        let gl4 = &device.caps().gl4;
        if gl4.shader_image_gather_extended
            && gl4.sample_rate_shading
            && gl4.transform_feedback_streams
            && device.xfb().is_some()
        {
            extensions.push("GL_ARB_gpu_shader5");
        }
        // Per-index viewports, depth ranges and scissors (`viewports`, `draw::viewport`).
        extensions.extend(viewports::extensions(&device));
        // GL_ARB_pipeline_statistics_query and GL_ARB_transform_feedback_overflow_query
        // (`objects::query::{statistics, overflow}`).
        extensions.extend(crate::gl::objects::query::statistics::extensions(&device));
        extensions.extend(crate::gl::objects::query::overflow::extensions(&device));
        extensions.extend(glsl_extensions(&extensions));
        // `gl_CullDistance`: such units compile as GLSL 4.50 (`cull_distance`, `glsl::raise`).
        extensions.extend(cull_distance::extensions(&device));
        // `gl_BaseVertexARB`, `gl_BaseInstanceARB`, `gl_DrawIDARB` (`glsl::draw_parameters`).
        if device.caps().gl4.shader_draw_parameters {
            extensions.push("GL_ARB_shader_draw_parameters");
        }
        extensions.extend(crate::gl::dsa::extensions());
        // GL 4.4/4.5: runs of bindings in one call (`objects::multi_bind`), draws that read
        // what they render to after `glTextureBarrier` (`draw::feedback_loop`), inverted
        // conditional rendering (`objects::query`).
        extensions.extend(crate::gl::objects::vertex_array::packed_float::extensions(
            &device,
        ));
        extensions.extend([
            "GL_ARB_multi_bind",
            "GL_ARB_texture_barrier",
            "GL_ARB_conditional_render_inverted",
            "GL_KHR_robustness",
        ]);
        // ES 2.0's commands, queries and formats on desktop (`context::es`), the GLSL 4.1
        // precision rules (what Vulkan's SPIR-V precision already guarantees), and program
        // binaries (`objects::program::binary`).
        extensions.extend([
            "GL_ARB_ES2_compatibility",
            "GL_ARB_shader_precision",
            "GL_ARB_get_program_binary",
        ]);
        // EGL images as textures and renderbuffers (`objects::texture::egl_image`).
        extensions.push("GL_OES_EGL_image");
        // The advanced blend equations, blended by the fragment shader (`draw::blend_advanced`).
        extensions.extend(crate::gl::draw::blend_advanced::offered(&device));
        // SPIR-V programs (`objects::program::spirv`, `glsl::gl_spirv`): the modules are passed
        // to the device after rewriting, so a Vulkan 1.1 device takes them as they come.
        extensions.extend(crate::gl::objects::program::spirv::EXTENSIONS);
        // OpenGL ES 3.1 on desktop, where its other parts are offered (`es31_compat`).
        extensions.extend(es31_compat::extensions(&device, &extensions));
        // Votes of the device's subgroups, or of groups of one invocation (`glsl::group_vote`).
        extensions.push("GL_ARB_shader_group_vote");
        // Contexts that report no errors (`no_error`).
        extensions.push(no_error::EXTENSION);
        // Built but incomplete extensions leave the list here, before they could count towards
        // a version (`experimental`).
        experimental::filter(&mut extensions);
        // The version the extensions and the shader limits complete (`version`), and the GLSL
        // version with it: extensions pushed below this line do not count towards it.
        let limits_reach_4_0 = limits::ShaderLimits::of(&device.caps().limits).reach_gl_4_0();
        let below_4 = version::below_4(&device, &extensions);
        let desktop = version::desktop(&extensions, below_4, limits_reach_4_0);
        // GL_ARB_gpu_shader_int64 is written against GLSL 4.00, and glslang refuses its types
        // below it: advertised once the context offers 4.00.
        if device.caps().gl4.shader_int64 && desktop >= (4, 0) {
            extensions.push("GL_ARB_gpu_shader_int64");
        }
        let profile_name = match profile {
            Profile::Core => "Core",
            Profile::Compatibility => "Compatibility",
        };
        let strings = Strings {
            vendor: cstr("ArenaGL"),
            renderer: cstr(&renderer),
            version: cstr(&version::version_string(desktop, profile_name)),
            glsl: cstr(&version::glsl_string(desktop)),
            glsl_versions: version::glsl_versions(desktop)
                .iter()
                .map(|v| cstr(v))
                .collect(),
            extensions: extensions.iter().map(|e| cstr(e)).collect(),
            all_extensions: cstr(&extensions.join(" ")),
        };
        Context {
            device,
            profile,
            api: es::Api::Gl,
            primitive_bounding_box: es::PRIMITIVE_BOUNDING_BOX_DEFAULT,
            error: GL_NO_ERROR,
            errors_raised: 0,
            strings,
            buffers: Names::default(),
            vertex_arrays: Names::default(),
            shaders: Names::default(),
            programs: Names::default(),
            subroutine_selection: Default::default(),
            pipelines: Default::default(),
            textures: Names::default(),
            samplers: Names::default(),
            sampler_units: vec![0; crate::gl::objects::program::MAX_TEXTURE_UNITS as usize],
            proxy_multisample: [None; 2],
            framebuffers: Names::default(),
            renderbuffers: Names::default(),
            array_buffer: 0,
            generic_bindings: HashMap::new(),
            uniform_bindings: [IndexedBinding::default(); MAX_UNIFORM_BUFFER_BINDINGS],
            compute: Default::default(),
            vertex_array: 0,
            default_vertex_array: Arc::default(),
            current_attribs: initial_attribs(),
            default_textures: (0..crate::gl::objects::texture::target::TexTarget::COUNT)
                .map(|_| Default::default())
                .collect(),
            compat: Default::default(),
            clamp: Default::default(),
            lists: Default::default(),
            vao_override: None,
            dsa: Default::default(),
            program: 0,
            active_texture: 0,
            texture_units: vec![
                [0; crate::gl::objects::texture::target::TexTarget::COUNT];
                crate::gl::objects::program::MAX_TEXTURE_UNITS as usize
            ],
            texture_buffers: crate::gl::objects::texture::buffer::TextureBufferUnits::new(
                crate::gl::objects::program::MAX_TEXTURE_UNITS as usize,
                profile,
            ),
            draw_framebuffer: 0,
            read_framebuffer: 0,
            renderbuffer: 0,
            default_draw_buffer: GL_BACK,
            default_read_buffer: GL_BACK,
            pipeline_state: PipelineState::new(0, 0),
            unpack: PixelStore::default(),
            pack: PixelStore::default(),
            unpack_blocks: Default::default(),
            pack_blocks: Default::default(),
            surface: None,
            read_surface: None,
            made_current: false,
            encoder: Encoder::default(),
            descriptors: DescriptorPools::default(),
            hints: HashMap::new(),
            ignored_caps: HashMap::new(),
            lost: false,
            reset_reported: false,
            dummy: Default::default(),
            clear_program: None,
            mipmap_programs: [None, None],
            queries: crate::gl::objects::query::QueryState::default(),
            xfb: crate::gl::objects::transform_feedback::XfbState::default(),
            pressure: crate::gl::pressure::degrade::PressureState::default(),
            share: None,
            member_id: {
                static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
                NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            },
            share_members: Vec::new(),
            tombstones: Vec::new(),
            lose_context_on_reset: false,
            device_generation,
            patch: Default::default(),
            debug: Default::default(),
            flush_on_release: true,
            no_error: false,
        }
    }

    /// The device the context renders with.
    pub fn device(&self) -> &Arc<Device> {
        &self.device
    }

    /// Records the outcome of a GL command: the first error sticks until `glGetError`.
    pub fn record<T>(&mut self, result: GlResult<T>) -> Option<T> {
        match result {
            Ok(v) => Some(v),
            Err(e) => {
                let code = e.code();
                if self.absorbs_loss(code) {
                    // The work is dropped; the next command recovers (`recovery`).
                    tracing::warn!(error = %e, "the device was lost; the context recovers");
                    return None;
                }
                if code == GL_CONTEXT_LOST {
                    self.lost = true;
                }
                crate::gl::log_error(&e);
                self.debug_error(&e);
                self.errors_raised += 1;
                if self.error == GL_NO_ERROR && self.reports(code) {
                    self.error = code;
                }
                None
            }
        }
    }

    /// Records an error code directly (the C edge uses it for a caught panic).
    pub fn set_error(&mut self, code: GLenum) {
        self.debug_error_code(code);
        self.errors_raised += 1;
        if self.error == GL_NO_ERROR && self.reports(code) {
            self.error = code;
        }
    }

    /// Records `GL_INVALID_VALUE` found at the C edge.
    pub fn record_invalid_value(&mut self, why: &str) {
        self.record::<()>(invalid_value(why));
    }

    /// Records `GL_INVALID_OPERATION` found at the C edge.
    pub fn record_invalid_operation(&mut self, why: &str) {
        self.record::<()>(invalid_op(why));
    }

    /// Records `GL_INVALID_ENUM` found at the C edge.
    pub fn record_invalid_enum(&mut self, what: &str, value: GLenum) -> Option<()> {
        self.record::<()>(invalid_enum(what, value))
    }

    /// How many errors this context has raised, counting those that found the flag already
    /// set: a command raised one exactly when this moved. The C edge writes a query's answer
    /// only when it did not (GL: a command that raises an error has no other effect).
    pub fn errors_raised(&self) -> u64 {
        self.errors_raised
    }

    /// `glGetError`.
    pub fn get_error(&mut self) -> GLenum {
        std::mem::replace(&mut self.error, GL_NO_ERROR)
    }

    /// Whether the device behind the context was lost: `GL_CONTEXT_LOST` was reported here, or
    /// the device's latch is set (by this or any other context). A lost context stays lost; the
    /// application replaces it (KHR_robustness).
    pub fn is_lost(&self) -> bool {
        self.lost || self.device.is_lost()
    }

    /// A command on a lost context (the device-lost latch): it has no effect and generates `GL_CONTEXT_LOST`, as
    /// GL 4.5 §2.3.1 specifies for every command but `glGetError` and
    /// `glGetGraphicsResetStatus`. Not logged: a program may issue thousands before it notices.
    pub fn lost_command(&mut self) {
        self.lost = true;
        self.set_error(GL_CONTEXT_LOST);
    }

    /// Sets the reset notification strategy the context was made with
    /// (`GL_RESET_NOTIFICATION_STRATEGY` answers it). A lost device latches the context either
    /// way (`docs/robustness.md`).
    pub fn set_lose_context_on_reset(&mut self, lose: bool) {
        self.lose_context_on_reset = lose;
    }

    /// Sets the release behaviour the context was made with (EGL/GLX `…_RELEASE_BEHAVIOR`):
    /// `GL_CONTEXT_RELEASE_BEHAVIOR` answers `GL_CONTEXT_RELEASE_BEHAVIOR_FLUSH` or `GL_NONE`.
    pub fn set_flush_on_release(&mut self, flush: bool) {
        self.flush_on_release = flush;
    }

    /// `glGetGraphicsResetStatus`: `GL_UNKNOWN_CONTEXT_RESET` once after the device was lost
    /// (nothing tells us whose work caused it), then `GL_NO_ERROR` ("the reset completed": the
    /// context stays lost, and the application creates a new one).
    pub fn graphics_reset_status(&mut self) -> GLenum {
        if self.is_lost() && !self.reset_reported {
            self.lost = true;
            self.reset_reported = true;
            GL_UNKNOWN_CONTEXT_RESET
        } else {
            GL_NO_ERROR
        }
    }

    /// Binds the context to an EGL surface (`eglMakeCurrent`). The first binding sets the
    /// viewport and scissor to the surface size, as GL requires.
    pub fn make_current(
        &mut self,
        draw: Option<Arc<SurfaceImages>>,
        read: Option<Arc<SurfaceImages>>,
    ) {
        self.finish_rendering();
        if !self.made_current {
            if let Some(s) = &draw {
                let (w, h) = (s.width as i32, s.height as i32);
                self.pipeline_state.viewports.set_drawable_size(w, h);
            }
            self.made_current = true;
        }
        self.surface = draw;
        self.read_surface = read;
    }

    /// `eglSwapBuffers` on a pbuffer: everything recorded is submitted as one epoch and a new
    /// frame begins (staging rotates, retired memory is released, telemetry is published).
    pub fn swap_buffers(&mut self) -> GlResult<()> {
        self.swap_buffers_with(|manager| manager.submit().map(drop))
    }

    /// `eglSwapBuffers` on a window surface: as [`Context::swap_buffers`], except that `submit`
    /// ends the frame (the manager's present: blit, submission, `vkQueuePresentKHR`) in place of
    /// the plain submission. The render pass is ended first, so `submit` may record transfers.
    pub fn swap_buffers_with(
        &mut self,
        submit: impl FnOnce(
            &mut arenagl_memory::MemoryManager,
        ) -> Result<(), arenagl_memory::MemoryError>,
    ) -> GlResult<()> {
        self.end_pass();
        let device = self.device.clone();
        let mut locked = device.lock();
        // A frame that could not be submitted (out of memory) is skipped, not the program:
        // the next frame still begins, so staging rotates and retired memory is released.
        let submitted = submit(&mut locked.manager);
        let began = locked.manager.begin_frame();
        locked.collect(device.raw());
        drop(locked);
        self.after_frame();
        submitted?;
        began?;
        Ok(())
    }

    /// Ends the current render pass (before the context is released).
    pub(crate) fn finish_rendering(&mut self) {
        self.end_pass();
    }

    // ---- strings and errors ---------------------------------------------------------------

    /// `glGetString`.
    pub fn get_string(&mut self, name: GLenum) -> Option<&std::ffi::CStr> {
        let s = match name {
            GL_VENDOR => &self.strings.vendor,
            GL_RENDERER => &self.strings.renderer,
            GL_VERSION => &self.strings.version,
            GL_SHADING_LANGUAGE_VERSION => &self.strings.glsl,
            // Core profiles have only glGetStringi; ES and compatibility contexts have both.
            GL_EXTENSIONS if self.profile == Profile::Compatibility => &self.strings.all_extensions,
            _ => {
                self.record::<()>(invalid_enum("glGetString name", name));
                return None;
            }
        };
        Some(s.as_c_str())
    }

    /// `glGetStringi`.
    pub fn get_stringi(&mut self, name: GLenum, index: u32) -> Option<&std::ffi::CStr> {
        if name == crate::gl::objects::program::spirv::GL_SPIR_V_EXTENSIONS
            && self.offers_gl_spirv()
        {
            return self.spirv_extension(index);
        }
        let len = match name {
            GL_EXTENSIONS => self.strings.extensions.len(),
            // GL 4.3; not in OpenGL ES (whose list is empty).
            GL_SHADING_LANGUAGE_VERSION if !self.strings.glsl_versions.is_empty() => {
                self.strings.glsl_versions.len()
            }
            _ => {
                self.record::<()>(invalid_enum("glGetStringi name", name));
                return None;
            }
        };
        if index as usize >= len {
            self.record::<()>(invalid_value(format!("glGetStringi index {index}")));
            return None;
        }
        let list = match name {
            GL_EXTENSIONS => &self.strings.extensions,
            _ => &self.strings.glsl_versions,
        };
        list.get(index as usize).map(|s| s.as_c_str())
    }

    // ---- pipeline state (blend, depth, stencil, viewport, raster) --------------------------

    /// `glEnable` / `glDisable`.
    pub fn set_capability(&mut self, cap: GLenum, on: bool) {
        if self.compile(crate::gl::compat::display_list::ListCommand::Capability(
            cap, on,
        )) {
            return;
        }
        if self.debug_capability(cap, Some(on)).is_some() {
            return;
        }
        if let Err(e) = self.es_check_capability(cap) {
            self.record::<()>(Err(e));
            return;
        }
        if self.compat_capability(cap, Some(on)).is_some() {
            return;
        }
        if crate::gl::context::state::is_ignored_capability(cap) {
            self.ignored_caps.insert(cap, on);
            return;
        }
        if cap == GL_BLEND {
            self.pipeline_state.blend.enabled = if on { u8::MAX } else { 0 };
            return;
        }
        if cap == GL_SCISSOR_TEST {
            self.set_scissor_test(on);
            return;
        }
        let r = self
            .check_capability(cap)
            .and_then(|()| self.pipeline_state.capability(cap).map(|f| *f = on));
        self.record(r);
    }

    /// `glIsEnabled`.
    pub fn is_enabled(&mut self, cap: GLenum) -> bool {
        if let Some(on) = self.debug_capability(cap, None) {
            return on;
        }
        if let Err(e) = self.es_check_capability(cap) {
            self.record::<()>(Err(e));
            return false;
        }
        if let Some(on) = self.compat_capability(cap, None) {
            return on;
        }
        if crate::gl::context::state::is_ignored_capability(cap) {
            return self.ignored_caps.get(&cap).copied().unwrap_or(false);
        }
        if cap == GL_BLEND {
            return self.pipeline_state.blend.enabled & 1 != 0;
        }
        if cap == GL_SCISSOR_TEST {
            return self.pipeline_state.viewports.scissor_on(0);
        }
        let r = self
            .check_capability(cap)
            .and_then(|()| self.pipeline_state.capability(cap).map(|f| *f));
        self.record(r).unwrap_or(false)
    }

    /// Capabilities that need a device feature are unknown enums on devices without it.
    fn check_capability(&self, cap: GLenum) -> GlResult<()> {
        if cap == GL_DEPTH_CLAMP && !self.device.caps().depth_clamp {
            return invalid_enum(
                "GL_DEPTH_CLAMP (this device lacks the depthClamp feature)",
                cap,
            );
        }
        Ok(())
    }

    /// The draw buffer `index` of an indexed command, `GL_INVALID_VALUE` past the last.
    pub(crate) fn draw_buffer_index(index: u32) -> GlResult<usize> {
        let i = index as usize;
        if i >= crate::gl::context::state::MAX_DRAW_BUFFERS {
            return invalid_value(format!(
                "draw buffer index {index} (GL_MAX_DRAW_BUFFERS is {})",
                crate::gl::context::state::MAX_DRAW_BUFFERS
            ));
        }
        Ok(i)
    }

    /// `glEnablei` / `glDisablei`: `GL_BLEND` per draw buffer, `GL_SCISSOR_TEST` per viewport.
    pub fn set_capability_indexed(&mut self, cap: GLenum, index: u32, on: bool) {
        let r = (|| {
            if cap == GL_SCISSOR_TEST {
                return self.set_scissor_test_indexed(index, on);
            }
            if cap != GL_BLEND {
                return invalid_enum("glEnablei/glDisablei capability", cap);
            }
            let bit = 1u8 << Self::draw_buffer_index(index)?;
            let enabled = &mut self.pipeline_state.blend.enabled;
            *enabled = if on { *enabled | bit } else { *enabled & !bit };
            Ok(())
        })();
        self.record(r);
    }

    /// `glIsEnabledi`.
    pub fn is_enabled_indexed(&mut self, cap: GLenum, index: u32) -> bool {
        let r = (|| {
            if cap == GL_SCISSOR_TEST {
                let i = self.viewport_index(index)?;
                return Ok(self.pipeline_state.viewports.scissor_on(i));
            }
            if cap != GL_BLEND {
                return invalid_enum("glIsEnabledi capability", cap);
            }
            Ok(self.pipeline_state.blend.enabled & (1 << Self::draw_buffer_index(index)?) != 0)
        })();
        self.record(r).unwrap_or(false)
    }

    /// `glClearColor`.
    pub fn clear_color(&mut self, c: [f32; 4]) {
        self.pipeline_state.clear_color = c;
    }

    /// `glClearDepth`.
    pub fn clear_depth(&mut self, d: f64) {
        self.pipeline_state.clear_depth = clamp_unit(d);
    }

    /// `glClearStencil`.
    pub fn clear_stencil(&mut self, s: i32) {
        self.pipeline_state.clear_stencil = s;
    }

    /// `glColorMask`: every draw buffer's mask.
    pub fn color_mask(&mut self, mask: [bool; 4]) {
        self.pipeline_state.color_mask = [mask; crate::gl::context::state::MAX_DRAW_BUFFERS];
    }

    /// `glColorMaski`: draw buffer `index`'s mask.
    pub fn color_mask_indexed(&mut self, index: u32, mask: [bool; 4]) {
        let r = Self::draw_buffer_index(index).map(|i| self.pipeline_state.color_mask[i] = mask);
        self.record(r);
    }

    /// `glDepthMask`.
    pub fn depth_mask(&mut self, on: bool) {
        self.pipeline_state.depth_mask = on;
    }

    /// `glDepthFunc`.
    pub fn depth_func(&mut self, func: GLenum) {
        let r =
            crate::gl::vk::conv::compare_op(func).map(|_| self.pipeline_state.depth_func = func);
        self.record(r);
    }

    /// `glBlendFuncSeparate` (and `glBlendFunc` with the same factors twice): every draw
    /// buffer's factors.
    pub fn blend_func_separate(
        &mut self,
        src_rgb: GLenum,
        dst_rgb: GLenum,
        src_a: GLenum,
        dst_a: GLenum,
    ) {
        let r = self.set_blend_func(None, [src_rgb, dst_rgb, src_a, dst_a]);
        self.record(r);
    }

    /// `glBlendFuncSeparatei` (and `glBlendFunci`): draw buffer `buf`'s factors.
    pub fn blend_func_separate_indexed(
        &mut self,
        buf: u32,
        src_rgb: GLenum,
        dst_rgb: GLenum,
        src_a: GLenum,
        dst_a: GLenum,
    ) {
        let r = Self::draw_buffer_index(buf)
            .and_then(|i| self.set_blend_func(Some(i), [src_rgb, dst_rgb, src_a, dst_a]));
        self.record(r);
    }

    /// Sets the factors of draw buffer `index`, or of all of them.
    fn set_blend_func(&mut self, index: Option<usize>, factors: [GLenum; 4]) -> GlResult<()> {
        for f in factors {
            crate::gl::vk::conv::blend_factor(f)?;
            if crate::gl::context::state::is_dual_source_factor(f)
                && !self.device.caps().dual_src_blend
            {
                return invalid_enum(
                    "dual-source blend factor (this device lacks the dualSrcBlend feature)",
                    f,
                );
            }
        }
        let [src_rgb, dst_rgb, src_a, dst_a] = factors;
        for (i, b) in self.pipeline_state.blend.funcs.iter_mut().enumerate() {
            if index.is_none_or(|n| n == i) {
                (b.src_rgb, b.dst_rgb, b.src_alpha, b.dst_alpha) = (src_rgb, dst_rgb, src_a, dst_a);
            }
        }
        Ok(())
    }

    /// `glBlendEquationSeparate` (and `glBlendEquation`): every draw buffer's equations.
    pub fn blend_equation_separate(&mut self, rgb: GLenum, alpha: GLenum) {
        let r = self.set_blend_equation(None, rgb, alpha);
        self.record(r);
    }

    /// `glBlendEquationSeparatei` (and `glBlendEquationi`): draw buffer `buf`'s equations.
    pub fn blend_equation_separate_indexed(&mut self, buf: u32, rgb: GLenum, alpha: GLenum) {
        let r =
            Self::draw_buffer_index(buf).and_then(|i| self.set_blend_equation(Some(i), rgb, alpha));
        self.record(r);
    }

    /// Sets the equations of draw buffer `index`, or of all of them.
    pub(crate) fn set_blend_equation(
        &mut self,
        index: Option<usize>,
        rgb: GLenum,
        alpha: GLenum,
    ) -> GlResult<()> {
        crate::gl::vk::conv::blend_op(rgb)?;
        crate::gl::vk::conv::blend_op(alpha)?;
        for (i, b) in self.pipeline_state.blend.funcs.iter_mut().enumerate() {
            if index.is_none_or(|n| n == i) {
                (b.eq_rgb, b.eq_alpha) = (rgb, alpha);
            }
        }
        Ok(())
    }

    /// `glBlendColor`.
    pub fn blend_color(&mut self, c: [f32; 4]) {
        self.pipeline_state.blend_color = c.map(crate::gl::context::state::clamp01);
    }

    /// `glCullFace`.
    pub fn cull_face(&mut self, mode: GLenum) {
        let r = crate::gl::context::state::face_indices(mode)
            .map(|_| self.pipeline_state.cull_mode = mode);
        self.record(r);
    }

    /// `glFrontFace`.
    pub fn front_face(&mut self, mode: GLenum) {
        let allowed = [GL_CW, GL_CCW];
        self.set_pipeline_mode("glFrontFace mode", mode, &allowed, |s| &mut s.front_face);
    }

    /// Stores `mode` in the pipeline-state field `field` when it is one of `allowed`; records
    /// `GL_INVALID_ENUM` (naming `what`) otherwise.
    fn set_pipeline_mode(
        &mut self,
        what: &str,
        mode: GLenum,
        allowed: &[GLenum],
        field: fn(&mut PipelineState) -> &mut GLenum,
    ) {
        let r = if allowed.contains(&mode) {
            *field(&mut self.pipeline_state) = mode;
            Ok(())
        } else {
            invalid_enum(what, mode)
        };
        self.record(r);
    }

    /// `glPolygonOffset`.
    pub fn polygon_offset(&mut self, factor: f32, units: f32) {
        use crate::gl::compat::display_list::ListCommand;
        if self.compile(ListCommand::PolygonOffset(factor, units, None)) {
            return;
        }
        self.pipeline_state.polygon_offset = [factor, units];
        self.pipeline_state.polygon_offset_clamp = 0.0;
    }

    /// `glPolygonOffsetClamp` (GL_ARB_polygon_offset_clamp: Vulkan's `depthBiasClamp`; a
    /// clamp of 0 or NaN clamps nothing).
    pub fn polygon_offset_clamp(&mut self, factor: f32, units: f32, clamp: f32) {
        if !self.device.caps().gl4.depth_bias_clamp {
            self.record::<()>(invalid_op(
                "glPolygonOffsetClamp: this device lacks the depthBiasClamp feature",
            ));
            return;
        }
        use crate::gl::compat::display_list::ListCommand;
        if self.compile(ListCommand::PolygonOffset(factor, units, Some(clamp))) {
            return;
        }
        self.pipeline_state.polygon_offset = [factor, units];
        self.pipeline_state.polygon_offset_clamp = if clamp.is_nan() { 0.0 } else { clamp };
    }

    /// `glPolygonMode`: only `GL_FILL` is drawn by this slice.
    pub fn polygon_mode(&mut self, face: GLenum, mode: GLenum) {
        if let Err(e) = self.es_lacks_command("glPolygonMode") {
            self.record::<()>(Err(e));
            return;
        }
        let r = match (face, mode) {
            (GL_FRONT_AND_BACK, GL_FILL) => Ok(()),
            (GL_FRONT_AND_BACK, GL_POINT | GL_LINE) => {
                invalid_op("glPolygonMode GL_LINE/GL_POINT is not supported by this GL yet")
            }
            (GL_FRONT_AND_BACK, m) => invalid_enum("glPolygonMode mode", m),
            (f, _) => invalid_enum("glPolygonMode face (core: GL_FRONT_AND_BACK)", f),
        };
        self.record(r);
    }

    /// `glLineWidth`.
    pub fn line_width(&mut self, w: f32) {
        if w <= 0.0 || w.is_nan() {
            self.record::<()>(invalid_value(format!("line width {w}")));
        } else {
            self.pipeline_state.line_width = w;
        }
    }

    /// `glMinSampleShading` (GL_ARB_sample_shading): the fraction, clamped to [0, 1].
    pub fn min_sample_shading(&mut self, value: f32) {
        self.pipeline_state.min_sample_shading = if value.is_nan() {
            0.0
        } else {
            value.clamp(0.0, 1.0)
        };
    }

    /// `glSampleMaski`: the sample mask's word `index` (only word 0 exists:
    /// `GL_MAX_SAMPLE_MASK_WORDS` is 1), applied to multisampled draws under `GL_SAMPLE_MASK`.
    pub fn sample_maski(&mut self, index: u32, mask: u32) {
        if index >= 1 {
            return self.record_invalid_value("glSampleMaski index >= GL_MAX_SAMPLE_MASK_WORDS");
        }
        self.pipeline_state.sample_mask_value = mask;
    }

    /// `glPointSize`.
    pub fn point_size(&mut self, s: f32) {
        if s <= 0.0 || s.is_nan() {
            self.record::<()>(invalid_value(format!("point size {s}")));
        } else {
            self.pipeline_state.point_size = s;
        }
    }

    /// `glStencilFuncSeparate`.
    pub fn stencil_func_separate(&mut self, face: GLenum, func: GLenum, reference: i32, mask: u32) {
        let r = (|| {
            let faces = crate::gl::context::state::face_indices(face)?;
            crate::gl::vk::conv::compare_op(func)?;
            for &i in faces {
                let f = &mut self.pipeline_state.stencil[i];
                (f.func, f.reference, f.value_mask) = (func, reference, mask);
            }
            Ok(())
        })();
        self.record(r);
    }

    /// `glStencilOpSeparate`.
    pub fn stencil_op_separate(
        &mut self,
        face: GLenum,
        fail: GLenum,
        zfail: GLenum,
        zpass: GLenum,
    ) {
        let r = (|| {
            let faces = crate::gl::context::state::face_indices(face)?;
            for op in [fail, zfail, zpass] {
                crate::gl::vk::conv::stencil_op(op)?;
            }
            for &i in faces {
                let f = &mut self.pipeline_state.stencil[i];
                (f.fail, f.depth_fail, f.pass) = (fail, zfail, zpass);
            }
            Ok(())
        })();
        self.record(r);
    }

    /// `glStencilMaskSeparate`.
    pub fn stencil_mask_separate(&mut self, face: GLenum, mask: u32) {
        let r = crate::gl::context::state::face_indices(face).map(|faces| {
            for &i in faces {
                self.pipeline_state.stencil[i].write_mask = mask;
            }
        });
        self.record(r);
    }

    /// `glPixelStorei`.
    pub fn pixel_store(&mut self, pname: GLenum, value: i32) {
        if let Some(r) = self.block_store_param(pname, value) {
            self.record(r);
            return;
        }
        let r = (|| {
            let unpack = matches!(
                pname,
                GL_UNPACK_SWAP_BYTES
                    | GL_UNPACK_LSB_FIRST
                    | GL_UNPACK_ROW_LENGTH
                    | GL_UNPACK_SKIP_ROWS
                    | GL_UNPACK_SKIP_PIXELS
                    | GL_UNPACK_ALIGNMENT
                    | GL_UNPACK_IMAGE_HEIGHT
                    | GL_UNPACK_SKIP_IMAGES
            );
            let valid_pack = unpack
                || matches!(
                    pname,
                    GL_PACK_SWAP_BYTES
                        | GL_PACK_LSB_FIRST
                        | GL_PACK_ROW_LENGTH
                        | GL_PACK_SKIP_ROWS
                        | GL_PACK_SKIP_PIXELS
                        | GL_PACK_ALIGNMENT
                        | GL_PACK_IMAGE_HEIGHT
                        | GL_PACK_SKIP_IMAGES
                );
            // Checked before the pack → unpack enum arithmetic below, which would underflow
            // for names under GL_PACK_SWAP_BYTES (a panic: a gl_calls fuzz finding).
            if !valid_pack {
                return invalid_enum("glPixelStorei pname", pname);
            }
            let store = if unpack {
                &mut self.unpack
            } else {
                &mut self.pack
            };
            let base = if unpack {
                pname
            } else {
                pname - GL_PACK_SWAP_BYTES + GL_UNPACK_SWAP_BYTES
            };
            let base = match pname {
                GL_PACK_IMAGE_HEIGHT => GL_UNPACK_IMAGE_HEIGHT,
                GL_PACK_SKIP_IMAGES => GL_UNPACK_SKIP_IMAGES,
                _ => base,
            };
            if base == GL_UNPACK_ALIGNMENT {
                store.alignment = arenagl_staging::PixelAlignment::from_gl(value)
                    .ok_or_else(|| GlError::InvalidValue(format!("alignment {value}")))?;
                return Ok(());
            }
            if value < 0 && base != GL_UNPACK_SWAP_BYTES && base != GL_UNPACK_LSB_FIRST {
                return invalid_value(format!("negative pixel store value {value}"));
            }
            let v = value.max(0) as u32;
            match base {
                GL_UNPACK_SWAP_BYTES => store.swap_bytes = value != 0,
                GL_UNPACK_LSB_FIRST => {}
                GL_UNPACK_ROW_LENGTH => store.row_length = v,
                GL_UNPACK_SKIP_ROWS => store.skip_rows = v,
                GL_UNPACK_SKIP_PIXELS => store.skip_pixels = v,
                GL_UNPACK_IMAGE_HEIGHT => store.image_height = v,
                GL_UNPACK_SKIP_IMAGES => store.skip_images = v,
                _ => return invalid_enum("glPixelStorei pname", pname),
            }
            Ok(())
        })();
        self.record(r);
    }

    /// `glHint`.
    pub fn hint(&mut self, target: GLenum, mode: GLenum) {
        let r = match (target, mode) {
            (
                GL_LINE_SMOOTH_HINT
                | GL_POLYGON_SMOOTH_HINT
                | GL_TEXTURE_COMPRESSION_HINT
                | GL_FRAGMENT_SHADER_DERIVATIVE_HINT,
                GL_FASTEST | GL_NICEST | GL_DONT_CARE,
            ) => {
                self.hints.insert(target, mode);
                Ok(())
            }
            (
                GL_LINE_SMOOTH_HINT
                | GL_POLYGON_SMOOTH_HINT
                | GL_TEXTURE_COMPRESSION_HINT
                | GL_FRAGMENT_SHADER_DERIVATIVE_HINT,
                m,
            ) => invalid_enum("glHint mode", m),
            (t, _) => invalid_enum("glHint target", t),
        };
        self.record(r);
    }

    /// `glProvokingVertex`.
    pub fn provoking_vertex(&mut self, mode: GLenum) {
        let allowed = [GL_FIRST_VERTEX_CONVENTION, GL_LAST_VERTEX_CONVENTION];
        let what = "glProvokingVertex mode";
        self.set_pipeline_mode(what, mode, &allowed, |s| &mut s.provoking_vertex);
    }

    /// `glPrimitiveRestartIndex`.
    pub fn primitive_restart_index(&mut self, index: u32) {
        self.pipeline_state.restart_index = index;
    }

    /// `glFlush`: submits what is recorded (no wait).
    pub fn flush(&mut self) {
        self.end_pass();
        let device = self.device.clone();
        let r = device
            .lock()
            .manager
            .submit()
            .map(|_| ())
            .map_err(GlError::from);
        self.record(r);
    }

    /// `glFinish`: submits and waits until the GPU is done.
    pub fn finish(&mut self) {
        self.end_pass();
        let device = self.device.clone();
        let r = (|| {
            let mut locked = device.lock();
            let epoch = locked.manager.submit()?;
            crate::gl::context::error::until_done(|| locked.manager.wait_epoch(epoch))?;
            locked.manager.drain()?;
            locked.collect(device.raw());
            Ok(())
        })();
        self.record(r);
        self.rewind_idle_staging();
    }

    /// The end of a GL call that waited for the device (`glFinish`, read-backs, a satisfied
    /// `glClientWaitSync`): the staging the device has finished with is rewound in place,
    /// because a program that never swaps (offscreen rendering, piglit's `-fbo` tests) has no
    /// frame boundary to rewind it, and its uploads would otherwise chain staging blocks until
    /// the budget refuses. Only at the end of a call: no staged range of this call is waiting
    /// for its command any more. A failure changes nothing GL can see (the staging simply
    /// stays), so it is only logged.
    pub(crate) fn rewind_idle_staging(&mut self) {
        let device = self.device.clone();
        let r = device.lock().manager.rewind_idle_staging();
        if let Err(e) = r {
            tracing::debug!(error = %e, "staging was not rewound after a wait");
        }
    }
}

/// GL's clamp to [0, 1] for depth values; NaN (which `f64::clamp` passes through) becomes 0.
fn clamp_unit(v: f64) -> f64 {
    if v.is_nan() {
        0.0
    } else {
        v.clamp(0.0, 1.0)
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        // What this context made on a device replaced since its last command is given back
        // to that device (`recovery`).
        self.run_shared(|c| c.follow_recovery());
        self.end_pass();
        // Deleted objects this context's framebuffers keep alive live in the shared tables:
        // deleting the framebuffers lets them go before the group outlives this context.
        if self.shares_objects() {
            let names = self.framebuffers.created();
            self.run_shared(|c| {
                c.delete_framebuffers(&names);
                c.switch_program(0);
                c.leave_share_group();
            });
        }
        self.release_queries();
        self.release_transform_feedback();
        self.descriptors.release(&self.device);
        // A context in a share group holds empty tables between commands: the group releases
        // the shared objects when its last context goes.
        let mut objects = crate::gl::context::share_group::SharedObjects::default();
        objects.swap_with(self);
        let device = self.device.clone();
        let mut locked = device.lock();
        self.texture_buffers.release(&mut locked);
        for (image, _) in std::mem::take(&mut self.dummy).into_iter().flatten() {
            let _ = locked.manager.retire_image(image);
        }
        self.release_blend_destination(&mut locked);
        // The compatibility profile's default textures are the context's own.
        for t in std::mem::take(&mut self.default_textures) {
            crate::gl::context::share_group::release_texture(t, &mut locked);
        }
        objects.release(&mut locked);
        drop(locked);
        // Programs drop their Vulkan objects through their own Drop (deferred).
        objects.programs.drain().for_each(drop);
    }
}
