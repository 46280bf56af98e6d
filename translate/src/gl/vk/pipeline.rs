//! Graphics pipelines, built from the state a draw needs and cached by it.
//!
//! Design decisions:
//! - The key is everything baked into a pipeline: the linked program, the vertex input layout,
//!   topology, rasterisation, depth/stencil and blend state, and the attachment formats. Viewport,
//!   scissor, blend constants and stencil references are dynamic, so the commonest state changes
//!   of a frame never reach the cache.
//! - One `VkPipelineCache` per device feeds every build; pipelines are shared by all contexts
//!   (keyed by the linked program's unique id) and destroyed when the program is.
//! - Dynamic rendering: no render pass objects at all; formats are part of the key.
//! - The provoking-vertex convention is part of the key (`VK_EXT_provoking_vertex` has it as
//!   pipeline state only); the first-vertex mode is Vulkan's default, so the extension's
//!   structure is chained only for the last-vertex mode.
//! - The fragment epilogue's alpha function and colour clamp are specialization constants in the
//!   key (`glsl::frag_epilogue`); the alpha reference is a uniform, so moving it costs nothing.
//! - Tessellation: `GL_PATCH_VERTICES` is part of the key of a patch-list pipeline, and the
//!   domain origin is GL's lower left (`VkPipelineTessellationDomainOriginStateCreateInfo`).
//! - The attachments' sample count is part of the key (`rasterizationSamples` must equal it);
//!   alpha-to-coverage is baked in with it.

use std::sync::atomic::{AtomicU64, Ordering};

use ash::vk;

use arenagl_memory::MemoryManager;

use crate::gl::context::enums::GL_ALWAYS;
use crate::gl::context::error::GlResult;
use crate::gl::context::state::{Blend, BlendFunc, StencilFace, MAX_DRAW_BUFFERS};
use crate::gl::objects::program::Linked;
use crate::gl::vk::conv::{blend_factor, blend_op, compare_op, stencil_op};
use crate::glsl::frag_epilogue::{ALPHA_FUNC_CONSTANT, CLAMP_COLOR_CONSTANT, STIPPLE_CONSTANT};
use crate::glsl::tess::DEFAULT_LEVEL_CONSTANTS;
use crate::glsl::FRAG_COORD_HEIGHT_CONSTANT;

/// One vertex buffer binding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct VertexBinding {
    pub binding: u32,
    pub stride: u32,
    pub per_instance: bool,
    /// Instances per element when `per_instance` (1 unless `VK_EXT_vertex_attribute_divisor`).
    pub divisor: u32,
}

/// One vertex attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct VertexAttribute {
    pub location: u32,
    pub binding: u32,
    pub format: vk::Format,
    pub offset: u32,
}

/// Depth/stencil state baked into a pipeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct DepthStencilKey {
    pub depth_test: bool,
    pub depth_write: bool,
    pub depth_compare: u32,
    pub stencil_test: bool,
    /// Front and back, without the reference (dynamic).
    pub stencil: [(u32, u32, u32, u32, u32, u32); 2],
}

impl PipelineKey {
    /// The key of an internal full-screen draw of `program` (masked clears, mipmap levels):
    /// triangles, no vertex input, no blending, all channels written, no depth or stencil test,
    /// no culling. Callers change what their draw needs.
    pub(crate) fn internal(
        program: u64,
        color_formats: Vec<vk::Format>,
        depth: vk::Format,
    ) -> Self {
        Self {
            program,
            topology: vk::PrimitiveTopology::TRIANGLE_LIST.as_raw(),
            primitive_restart: false,
            bindings: Vec::new(),
            attributes: Vec::new(),
            color_formats,
            depth_stencil_format: depth,
            blend: Blend::INITIAL,
            color_masks: [0xF; MAX_DRAW_BUFFERS],
            depth_stencil: DepthStencilKey {
                depth_test: false,
                depth_write: false,
                depth_compare: GL_ALWAYS,
                stencil_test: false,
                stencil: [stencil_key(&StencilFace::default()); 2],
            },
            cull_mode: 0,
            front_face_cw: true,
            depth_zero_to_one: false,
            polygon_offset: None,
            depth_clamp: false,
            rasterizer_discard: false,
            points: None,
            samples: 1,
            alpha_to_coverage: false,
            min_sample_shading: None,
            sample_mask: u32::MAX,
            no_dst_alpha: 0,
            frag_coord_height: 0,
            alpha_func: crate::glsl::frag_epilogue::ALPHA_ALWAYS,
            clamp_fragment_color: false,
            stipple: false,
            provoking_last: false,
            patch_control_points: 0,
            default_levels: [0; 6],
            subroutines: Vec::new(),
            viewport_count: 1,
        }
    }
}

/// Everything a pipeline is built from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct PipelineKey {
    pub program: u64,
    pub topology: i32,
    pub primitive_restart: bool,
    pub bindings: Vec<VertexBinding>,
    pub attributes: Vec<VertexAttribute>,
    pub color_formats: Vec<vk::Format>,
    pub depth_stencil_format: vk::Format,
    pub blend: Blend,
    /// Per colour attachment (draw buffer): Vulkan write-mask bits.
    pub color_masks: [u8; MAX_DRAW_BUFFERS],
    pub depth_stencil: DepthStencilKey,
    pub cull_mode: u32,
    pub front_face_cw: bool,
    /// `glClipControl(…, GL_ZERO_TO_ONE)`: the last pre-rasterisation stage leaves depth as
    /// it is (`glsl::depth_remap::ZERO_TO_ONE_CONSTANT`).
    pub depth_zero_to_one: bool,
    /// (factor, units, clamp) bit patterns when GL_POLYGON_OFFSET_FILL is on.
    pub polygon_offset: Option<(u32, u32, u32)>,
    pub depth_clamp: bool,
    pub rasterizer_discard: bool,
    /// Point-list pipelines: (`GL_PROGRAM_POINT_SIZE`, the `glPointSize` bits, already clamped
    /// to the device's range) for the vertex wrapper's `POINT_SIZE_CONSTANTS`.
    pub points: Option<(bool, u32)>,
    /// Samples per pixel of the attachments (`rasterizationSamples` must match them).
    pub samples: u32,
    /// `GL_SAMPLE_ALPHA_TO_COVERAGE` (only where `samples` > 1).
    pub alpha_to_coverage: bool,
    /// `minSampleShading` (bits) with `sampleShadingEnable`: `GL_SAMPLE_SHADING` on a
    /// multisampled target, where the device has `sampleRateShading`.
    pub min_sample_shading: Option<u32>,
    /// `pSampleMask`: `glSampleMaski`'s word under `GL_SAMPLE_MASK` on a multisampled target,
    /// else every sample.
    pub sample_mask: u32,
    /// Bit i: colour attachment i's GL format has no alpha, so blending reads destination
    /// alpha as 1 (`blend_dst_alpha`).
    pub no_dst_alpha: u8,
    /// The draw framebuffer's height for a program with an upper-left `gl_FragCoord`
    /// (`glsl::FRAG_COORD_HEIGHT_CONSTANT`); 0 for every other program.
    pub frag_coord_height: u32,
    /// The alpha test's function (`glsl::frag_epilogue::ALPHA_FUNC_CONSTANT`) of a program
    /// ending in the fragment epilogue; `ALPHA_ALWAYS` for every other program.
    pub alpha_func: u32,
    /// `glClampColor(GL_CLAMP_FRAGMENT_COLOR, GL_TRUE)` for a program ending in the fragment
    /// epilogue (`glsl::frag_epilogue::CLAMP_COLOR_CONSTANT`); false for every other program.
    pub clamp_fragment_color: bool,
    /// The polygon stipple test (`glsl::frag_epilogue::STIPPLE_CONSTANT`): triangles drawn by a
    /// program ending in the fragment epilogue with `GL_POLYGON_STIPPLE` on.
    pub stipple: bool,
    /// Flat outputs from the last vertex of each primitive (GL's default convention, through
    /// `VK_EXT_provoking_vertex`); false: Vulkan's first-vertex default.
    pub provoking_last: bool,
    /// `GL_PATCH_VERTICES` of a patch-list pipeline (a program with tessellation stages); 0
    /// for every other pipeline.
    pub patch_control_points: u32,
    /// `GL_PATCH_DEFAULT_OUTER_LEVEL` then `_INNER_LEVEL` (bits) for a patch-list pipeline of a
    /// program whose control stage ArenaGL supplies (`program::tess::PassThroughControl`); zeros
    /// for every other pipeline.
    pub default_levels: [u32; 6],
    /// Per stage with shader subroutines, the selection as `(constant id, subroutine index)`
    /// (`program::subroutine`); empty for programs without subroutines.
    pub subroutines: Vec<(crate::glsl::Stage, Vec<(u32, u32)>)>,
    /// Viewports and scissors (dynamic): `GL_MAX_VIEWPORTS` for a program writing
    /// `gl_ViewportIndex`, else 1 (`draw::viewport`).
    pub viewport_count: u32,
}

/// Graphics pipelines and shader modules the translator has created since the process started.
static PIPELINES_BUILT: AtomicU64 = AtomicU64::new(0);
static SHADER_MODULES_CREATED: AtomicU64 = AtomicU64::new(0);
static UNIFORM_BRANCH_MODULES: AtomicU64 = AtomicU64::new(0);

/// How many graphics pipelines and shader modules (what a driver compiles) the translator has
/// created so far, process wide: a steady scene must stop adding to them after its first frame (lavapipe compiles every
/// new pipeline with LLVM). Tests read them through `arenagl_memory_stat`; with
/// `ARENAGL_LOG=arenagl_translate::gl::vk::pipeline=debug` each creation is logged.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BuildCounts {
    pub pipelines: u64,
    pub shader_modules: u64,
    /// Shader modules with a branch on uniform values alone, which lavapipe recompiles
    /// whenever their uniforms are rebound (`glsl::uniform_branches`).
    pub uniform_branch_modules: u64,
}

/// The counts so far.
pub fn build_counts() -> BuildCounts {
    BuildCounts {
        pipelines: PIPELINES_BUILT.load(Ordering::Relaxed),
        shader_modules: SHADER_MODULES_CREATED.load(Ordering::Relaxed),
        uniform_branch_modules: UNIFORM_BRANCH_MODULES.load(Ordering::Relaxed),
    }
}

/// Counts a shader module just created from `spirv` (every `vkCreateShaderModule` of the
/// translator), and whether it branches on uniform values alone.
pub(crate) fn note_shader_module(spirv: &[u32]) {
    let n = SHADER_MODULES_CREATED.fetch_add(1, Ordering::Relaxed) + 1;
    let branches = crate::glsl::uniform_branches::uniform_branches(spirv);
    if branches > 0 {
        UNIFORM_BRANCH_MODULES.fetch_add(1, Ordering::Relaxed);
    }
    tracing::debug!(
        total = n,
        uniform_branches = branches,
        "shader module created"
    );
}

/// Counts a graphics pipeline just built for the linked program `program`.
pub(crate) fn note_pipeline(program: u64) {
    let n = PIPELINES_BUILT.fetch_add(1, Ordering::Relaxed) + 1;
    tracing::debug!(total = n, program, "pipeline built");
}

/// The specialization constant ids of the vertex wrapper (`program::link::depth_wrapper`): the point
/// size, and whether the shader's own `gl_PointSize` is kept.
pub(crate) const POINT_SIZE_CONSTANTS: [u32; 2] = [7340, 7341];

pub(crate) fn stencil_key(f: &StencilFace) -> (u32, u32, u32, u32, u32, u32) {
    (
        f.func,
        f.value_mask,
        f.write_mask,
        f.fail,
        f.depth_fail,
        f.pass,
    )
}

fn stencil_state(f: (u32, u32, u32, u32, u32, u32)) -> GlResult<vk::StencilOpState> {
    Ok(vk::StencilOpState {
        fail_op: stencil_op(f.3)?,
        pass_op: stencil_op(f.5)?,
        depth_fail_op: stencil_op(f.4)?,
        compare_op: compare_op(f.0)?,
        compare_mask: f.1,
        write_mask: f.2,
        reference: 0,
    })
}

/// Builds the pipeline for `key` (through the manager: fault injection, OOM retry, the
/// device-lost latch). A failure is never cached: the next draw tries again.
pub(crate) fn build(
    manager: &mut MemoryManager,
    cache: vk::PipelineCache,
    linked: &Linked,
    key: &PipelineKey,
) -> GlResult<vk::Pipeline> {
    let entry = c"main";
    let (program_size, size_bits) = key.points.unwrap_or((false, 1.0f32.to_bits()));
    let frag_coord_height = (key.frag_coord_height as f32).to_bits();
    // Constants a module does not declare are ignored, so every vertex stage gets them.
    let constants: Vec<SpecConstants> = linked
        .modules
        .iter()
        .map(|(stage, _)| {
            let mut list = match stage {
                crate::glsl::Stage::Vertex => vec![
                    (POINT_SIZE_CONSTANTS[0], size_bits),
                    (POINT_SIZE_CONSTANTS[1], u32::from(program_size)),
                    (
                        crate::glsl::depth_remap::ZERO_TO_ONE_CONSTANT,
                        u32::from(key.depth_zero_to_one),
                    ),
                ],
                crate::glsl::Stage::TessEvaluation | crate::glsl::Stage::Geometry => vec![(
                    crate::glsl::depth_remap::ZERO_TO_ONE_CONSTANT,
                    u32::from(key.depth_zero_to_one),
                )],
                crate::glsl::Stage::Fragment => vec![
                    (FRAG_COORD_HEIGHT_CONSTANT, frag_coord_height),
                    (ALPHA_FUNC_CONSTANT, key.alpha_func),
                    (CLAMP_COLOR_CONSTANT, u32::from(key.clamp_fragment_color)),
                    (STIPPLE_CONSTANT, u32::from(key.stipple)),
                    (crate::glsl::NUM_SAMPLES_CONSTANT, key.samples.max(1)),
                    (
                        crate::glsl::blend_advanced::EQUATION_CONSTANT,
                        crate::gl::draw::blend_advanced::advanced_equation(
                            &key.blend,
                            key.color_formats.first().copied(),
                        ),
                    ),
                    (
                        crate::glsl::blend_advanced::MULTISAMPLED_CONSTANT,
                        u32::from(key.samples > 1),
                    ),
                ],
                _ => Vec::new(),
            };
            if let Some((_, selection)) = key.subroutines.iter().find(|(s, _)| s == stage) {
                list.extend_from_slice(selection);
            }
            SpecConstants::new(&list)
        })
        .collect();
    let spec_infos: Vec<vk::SpecializationInfo<'_>> =
        constants.iter().map(SpecConstants::info).collect();
    let level_constants = SpecConstants::new(
        &DEFAULT_LEVEL_CONSTANTS
            .iter()
            .copied()
            .zip(key.default_levels)
            .collect::<Vec<_>>(),
    );
    let level_spec = level_constants.info();
    let mut stages: Vec<_> = linked
        .modules
        .iter()
        .zip(&spec_infos)
        .map(|((stage, module), spec)| {
            vk::PipelineShaderStageCreateInfo::default()
                .stage(crate::gl::objects::program::vk_stages(
                    crate::glsl::StageMask::of(*stage),
                ))
                .module(*module)
                .name(entry)
                .specialization_info(spec)
        })
        .collect();
    if let (Some(control), n @ 1..) = (&linked.pass_through, key.patch_control_points) {
        stages.push(
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::TESSELLATION_CONTROL)
                .module(control.module(manager, n)?)
                .name(entry)
                .specialization_info(&level_spec),
        );
    }
    let (bindings, attributes, divisors) = vertex_input_descriptions(key);
    let mut divisor_state = vk::PipelineVertexInputDivisorStateCreateInfoEXT::default()
        .vertex_binding_divisors(&divisors);
    let mut vertex_input = vk::PipelineVertexInputStateCreateInfo::default()
        .vertex_binding_descriptions(&bindings)
        .vertex_attribute_descriptions(&attributes);
    if !divisors.is_empty() {
        vertex_input = vertex_input.push_next(&mut divisor_state);
    }
    let input_assembly = vk::PipelineInputAssemblyStateCreateInfo::default()
        .topology(vk::PrimitiveTopology::from_raw(key.topology))
        .primitive_restart_enable(key.primitive_restart);
    // GL's tessellation domain has its origin at the lower left (`glsl::tess`'s vertex order
    // then means what it says in GL).
    let mut domain_origin = vk::PipelineTessellationDomainOriginStateCreateInfo::default()
        .domain_origin(vk::TessellationDomainOrigin::LOWER_LEFT);
    let tessellation = vk::PipelineTessellationStateCreateInfo::default()
        .patch_control_points(key.patch_control_points)
        .push_next(&mut domain_origin);
    let viewport = vk::PipelineViewportStateCreateInfo::default()
        .viewport_count(key.viewport_count.max(1))
        .scissor_count(key.viewport_count.max(1));
    let (bias_on, factor, units, clamp) = match key.polygon_offset {
        Some((f, u, c)) => (
            true,
            f32::from_bits(f),
            f32::from_bits(u),
            f32::from_bits(c),
        ),
        None => (false, 0.0, 0.0, 0.0),
    };
    let mut provoking = vk::PipelineRasterizationProvokingVertexStateCreateInfoEXT::default()
        .provoking_vertex_mode(vk::ProvokingVertexModeEXT::LAST_VERTEX);
    let mut raster = vk::PipelineRasterizationStateCreateInfo::default()
        .depth_clamp_enable(key.depth_clamp)
        .rasterizer_discard_enable(key.rasterizer_discard)
        .polygon_mode(vk::PolygonMode::FILL)
        .cull_mode(vk::CullModeFlags::from_raw(key.cull_mode))
        .front_face(if key.front_face_cw {
            vk::FrontFace::CLOCKWISE
        } else {
            vk::FrontFace::COUNTER_CLOCKWISE
        })
        .depth_bias_enable(bias_on)
        .depth_bias_constant_factor(units)
        .depth_bias_slope_factor(factor)
        .depth_bias_clamp(clamp)
        .line_width(1.0);
    if key.provoking_last {
        raster = raster.push_next(&mut provoking);
    }
    let sample_mask = [key.sample_mask];
    let multisample = vk::PipelineMultisampleStateCreateInfo::default()
        .sample_mask(&sample_mask)
        .rasterization_samples(vk::SampleCountFlags::from_raw(key.samples.max(1)))
        .alpha_to_coverage_enable(key.alpha_to_coverage && key.samples > 1)
        .sample_shading_enable(key.min_sample_shading.is_some())
        .min_sample_shading(key.min_sample_shading.map_or(0.0, f32::from_bits));
    let has_stencil = key.depth_stencil_format != vk::Format::UNDEFINED
        && crate::gl::objects::framebuffer::has_stencil(key.depth_stencil_format);
    let depth_stencil = depth_stencil_state(key, has_stencil)?;
    let attachments = blend_attachments(key)?;
    let blend = vk::PipelineColorBlendStateCreateInfo::default().attachments(&attachments);
    let mut dynamic_states = vec![
        vk::DynamicState::VIEWPORT,
        vk::DynamicState::SCISSOR,
        vk::DynamicState::BLEND_CONSTANTS,
        vk::DynamicState::STENCIL_REFERENCE,
    ];
    if manager.device_info().features.wide_lines {
        dynamic_states.push(vk::DynamicState::LINE_WIDTH);
    }
    let dynamic = vk::PipelineDynamicStateCreateInfo::default().dynamic_states(&dynamic_states);
    let stencil_format = if has_stencil {
        key.depth_stencil_format
    } else {
        vk::Format::UNDEFINED
    };
    let mut rendering = vk::PipelineRenderingCreateInfo::default()
        .color_attachment_formats(&key.color_formats)
        .depth_attachment_format(key.depth_stencil_format)
        .stencil_attachment_format(stencil_format);
    // Without dynamic rendering the pipeline names a compatible render pass instead.
    let render_pass = manager.compatible_render_pass(
        &key.color_formats,
        key.depth_stencil_format,
        has_stencil,
        vk::SampleCountFlags::from_raw(key.samples.max(1)),
    )?;
    let mut info = vk::GraphicsPipelineCreateInfo::default()
        .stages(&stages)
        .vertex_input_state(&vertex_input)
        .input_assembly_state(&input_assembly)
        .viewport_state(&viewport)
        .rasterization_state(&raster)
        .multisample_state(&multisample)
        .depth_stencil_state(&depth_stencil)
        .color_blend_state(&blend)
        .dynamic_state(&dynamic)
        .layout(linked.pipeline_layout);
    info = match render_pass {
        Some(pass) => info.render_pass(pass).subpass(0),
        None => info.push_next(&mut rendering),
    };
    if key.patch_control_points > 0 {
        info = info.tessellation_state(&tessellation);
    }
    // SAFETY: valid device and cache; every referenced object (modules, layout) is alive and
    // was created on the manager's device; the create info and everything it points to live
    // across the call.
    let pipeline = unsafe { manager.create_graphics_pipeline(cache, &info) }?;
    linked.note_pipeline_built();
    note_pipeline(key.program);
    Ok(pipeline)
}

/// Specialization constants of one stage: 32-bit words, one after the other.
struct SpecConstants {
    entries: Vec<vk::SpecializationMapEntry>,
    data: Vec<u8>,
}

impl SpecConstants {
    /// The constants `(constant id, value)`, in order.
    fn new(constants: &[(u32, u32)]) -> Self {
        let entries = (0u32..)
            .zip(constants)
            .map(|(i, &(constant_id, _))| vk::SpecializationMapEntry {
                constant_id,
                offset: 4 * i,
                size: 4,
            })
            .collect();
        let data = constants
            .iter()
            .flat_map(|&(_, value)| value.to_ne_bytes())
            .collect();
        Self { entries, data }
    }

    /// The stage's specialization info, pointing into `self`.
    fn info(&self) -> vk::SpecializationInfo<'_> {
        vk::SpecializationInfo::default()
            .map_entries(&self.entries)
            .data(&self.data)
    }
}

/// The vertex bindings, attributes and instance divisors (those above 1) of `key`.
fn vertex_input_descriptions(
    key: &PipelineKey,
) -> (
    Vec<vk::VertexInputBindingDescription>,
    Vec<vk::VertexInputAttributeDescription>,
    Vec<vk::VertexInputBindingDivisorDescriptionEXT>,
) {
    let bindings = key
        .bindings
        .iter()
        .map(|b| vk::VertexInputBindingDescription {
            binding: b.binding,
            stride: b.stride,
            input_rate: if b.per_instance {
                vk::VertexInputRate::INSTANCE
            } else {
                vk::VertexInputRate::VERTEX
            },
        })
        .collect();
    // Inputs packed into one location by `layout(component)` (GL_ARB_enhanced_layouts) read
    // parts of one attribute: Vulkan takes one description per location.
    let mut locations = std::collections::HashSet::new();
    let attributes = key
        .attributes
        .iter()
        .filter(|a| locations.insert(a.location))
        .map(|a| vk::VertexInputAttributeDescription {
            location: a.location,
            binding: a.binding,
            format: a.format,
            offset: a.offset,
        })
        .collect();
    let divisors = key
        .bindings
        .iter()
        .filter(|b| b.per_instance && b.divisor > 1)
        .map(|b| vk::VertexInputBindingDivisorDescriptionEXT {
            binding: b.binding,
            divisor: b.divisor,
        })
        .collect();
    (bindings, attributes, divisors)
}

/// The depth and stencil tests of `key`; each is off where the attachments lack its aspect.
fn depth_stencil_state(
    key: &PipelineKey,
    has_stencil: bool,
) -> GlResult<vk::PipelineDepthStencilStateCreateInfo<'static>> {
    let ds = &key.depth_stencil;
    let has_depth = key.depth_stencil_format != vk::Format::UNDEFINED;
    Ok(vk::PipelineDepthStencilStateCreateInfo::default()
        .depth_test_enable(has_depth && ds.depth_test)
        .depth_write_enable(has_depth && ds.depth_test && ds.depth_write)
        .depth_compare_op(compare_op(ds.depth_compare)?)
        .stencil_test_enable(has_stencil && ds.stencil_test)
        .front(stencil_state(ds.stencil[0])?)
        .back(stencil_state(ds.stencil[1])?)
        .min_depth_bounds(0.0)
        .max_depth_bounds(1.0))
}

/// The blend state of each colour attachment of `key`.
fn blend_attachments(key: &PipelineKey) -> GlResult<Vec<vk::PipelineColorBlendAttachmentState>> {
    (0..key.color_formats.len())
        .map(|i| {
            // GL blends only fixed- and floating-point colour buffers: an integer one skips
            // blending (GL 4.6 §17.3.6), and Vulkan forbids enabling it there.
            let integer = crate::gl::objects::texture::internal_format::is_integer_format(
                key.color_formats[i],
            );
            // An advanced equation is the fragment shader's (`draw::blend_advanced`).
            let advanced = crate::glsl::blend_advanced::equation_index(
                key.blend.funcs.get(i).map_or(0, |b| b.eq_rgb),
            )
            .is_some();
            let enabled = key.blend.enabled & (1 << i) != 0 && !integer && !advanced;
            // A disabled attachment's factors are ignored; the initial ones keep every
            // attachment state identical where `independentBlend` is absent.
            let b = match key.blend.funcs.get(i) {
                Some(b) if enabled => *b,
                _ => BlendFunc::INITIAL,
            };
            let no_dst_alpha = key.no_dst_alpha & (1 << i) != 0;
            let factor = |f| -> GlResult<vk::BlendFactor> {
                let v = blend_factor(f)?;
                Ok(if no_dst_alpha {
                    crate::gl::draw::blend_dst_alpha::at_dst_alpha_one(v)
                } else {
                    v
                })
            };
            Ok(vk::PipelineColorBlendAttachmentState {
                blend_enable: enabled.into(),
                src_color_blend_factor: factor(b.src_rgb)?,
                dst_color_blend_factor: factor(b.dst_rgb)?,
                color_blend_op: blend_op(b.eq_rgb)?,
                src_alpha_blend_factor: factor(b.src_alpha)?,
                dst_alpha_blend_factor: factor(b.dst_alpha)?,
                alpha_blend_op: blend_op(b.eq_alpha)?,
                color_write_mask: vk::ColorComponentFlags::from_raw(u32::from(
                    key.color_masks.get(i).copied().unwrap_or(0),
                )),
            })
        })
        .collect()
}
