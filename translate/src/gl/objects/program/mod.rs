//! Shader and program objects: compile, link, the program's interface as GL reports it, uniform
//! storage and the program's Vulkan layout. The link runs in phases in `link`; the entry points
//! are in `api`, GL_ARB_shader_objects' handle commands in `arb`.
//!
//! Design decisions:
//! - `glCompileShader` compiles the unit on its own only for the status and log; `glLinkProgram`
//!   compiles every attached unit together (the `glsl` module maps IO across stages).
//! - Loose uniforms live in a CPU copy of the std140 default block, written by `glUniform*` at the
//!   offsets reflection gives; a draw streams the bytes into the frame's arena and binds them as a
//!   dynamic uniform buffer (set 1), so per-draw uniforms cost one small copy and one dynamic
//!   offset, never a descriptor write.
//! - GL binding points stay GL's: a sampler's value is a texture unit, a block's binding is a GL
//!   uniform-buffer binding point. The shader's own bindings are fixed by the compiler; a draw
//!   looks the GL values up and writes the descriptors accordingly.
//! - Attribute locations: `glBindAttribLocation` names are honoured at the vertex-input level
//!   (the GL location picks the vertex array slot; the SPIR-V location stays the compiler's).
//! - Depth: unless a geometry or tessellation stage follows it, the vertex stage's `main` is
//!   renamed and wrapped so that `gl_Position.z` is remapped from GL's [-w, w] to Vulkan's [0, w]
//!   (see `state`'s orientation note). The rename keeps line numbers, so logs stay true.
//! - Points: the same wrapper writes `gl_PointSize` from two specialization constants (GL's
//!   `glPointSize` value, and whether `GL_PROGRAM_POINT_SIZE` leaves the size to the shader),
//!   because Vulkan requires a point-list pipeline's last vertex stage to write `PointSize`
//!   while GL draws points from programs that never mention it (`pipeline::POINT_SIZE_CONSTANTS`).
//! - A fragment stage made only of legacy units gets the fragment epilogue as one more unit
//!   (`glsl::frag_epilogue`: the `gl_FragColor` broadcast, the alpha test, colour clamping);
//!   [`Linked::frag_epilogue`] tells draws to set its constants.

pub(crate) mod api;
pub(crate) mod arb;
pub(crate) mod binary;
pub(crate) mod interface_query;
pub(crate) mod link;
pub(crate) mod spirv;
pub(crate) mod subroutine;
pub(crate) mod tess;
pub(crate) mod uniform_locations;

pub(crate) use link::{link, link_bound};

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_op, invalid_value, GlError, GlResult};
use crate::gl::vk::device::{Device, Retired};
use crate::glsl::legacy::{self, Varyings};
use crate::glsl::Dialect;
use crate::glsl::{
    self, CompileError, CompileOptions, GlType, SamplerType, ScalarKind, Stage, StageMask,
};
use arenagl_memory::MemoryError;

/// Why a link failed: because of its sources (permanent: the program's status and log say so),
/// or because memory ran out or the device was lost while compiling or creating the program's
/// Vulkan objects (transient: `GL_OUT_OF_MEMORY` / `GL_CONTEXT_LOST`, and a later link of
/// the same sources may succeed).
#[derive(Debug)]
pub(crate) enum LinkError {
    /// The info log of a link that failed on its sources.
    Log(String),
    /// The manager's (or the compiler's) refusal.
    Memory(MemoryError),
}

impl From<String> for LinkError {
    fn from(log: String) -> Self {
        LinkError::Log(log)
    }
}

impl LinkError {
    /// The GL error of an internal program (one ArenaGL links for itself) that failed: its
    /// sources are ArenaGL's, so a log is a defect (`GL_INVALID_OPERATION` saying `what`).
    pub(crate) fn internal(self, what: &str) -> GlError {
        match self {
            LinkError::Log(log) => GlError::InvalidOperation(format!("{what}: {log}")),
            LinkError::Memory(e) => GlError::Memory(e),
        }
    }

    /// The info log a program keeps after this failure.
    pub(crate) fn log(&self) -> String {
        match self {
            LinkError::Log(log) => log.clone(),
            LinkError::Memory(e) => {
                let code = if *e == MemoryError::DeviceLost {
                    "GL_CONTEXT_LOST"
                } else {
                    "GL_OUT_OF_MEMORY"
                };
                format!("ERROR: Linking: not linked, {code} ({e}); nothing was kept, link again\n")
            }
        }
    }
}

/// A shader object.
pub(crate) struct Shader {
    pub stage: Stage,
    pub source: String,
    pub compiled: bool,
    pub log: String,
    pub delete_pending: bool,
    /// Programs this shader is attached to (a deleted shader lives until detached).
    pub attached: u32,
    /// Its SPIR-V module when `glShaderBinary` loaded one (GL_ARB_gl_spirv, `spirv`).
    pub spirv: Option<spirv::SpirvUnit>,
}

impl Shader {
    pub(crate) fn new(stage: Stage) -> Self {
        Self {
            stage,
            source: String::new(),
            compiled: false,
            log: String::new(),
            delete_pending: false,
            attached: 0,
            spirv: None,
        }
    }

    /// `glCompileShader` in a context compiling `dialect` and offering the GLSL extensions
    /// `offered`. In an ES context the unit is first checked with GLSL ES's rules (`glsl::es`),
    /// whose log it keeps.
    pub(crate) fn compile(&mut self, dialect: Dialect, offered: glsl::ExtensionSet) {
        let es_log = match dialect {
            Dialect::Es { glsl: v } => {
                match glsl::es::validate(self.stage, &self.source, v, Some(offered)) {
                    Ok(log) => Some(log),
                    Err(e) => {
                        self.compiled = false;
                        self.log = error_log(&e);
                        return;
                    }
                }
            }
            _ => None,
        };
        let source = link::for_profile(&self.source, dialect);
        let source = legacy::upgrade(self.stage, &source, Varyings::default()).source;
        let options = CompileOptions {
            extensions: Some(offered),
            ..CompileOptions::default()
        };
        match glsl::compile_shader(self.stage, &source, options) {
            Ok(log) => {
                self.compiled = true;
                self.log = es_log.unwrap_or(log);
            }
            Err(e) => {
                self.log = error_log(&e);
                // GL makes overlapping locations a link-time error; the link compiles the unit
                // again and fails with this log.
                self.compiled = only_link_time_errors(&self.log);
            }
        }
    }
}

/// glslang's compile errors that GL reports at link time.
const LINK_TIME_ERRORS: &[&str] = &[
    "overlapping use of location",
    "aliases sharing the location",
];

/// Whether every error of glslang's `log` is one GL reports at link time, not compile time:
/// locations (or components) two declarations of the unit both use, or share with different
/// basic types (GL_ARB_enhanced_layouts' `component`).
fn only_link_time_errors(log: &str) -> bool {
    let errors: Vec<&str> = log
        .lines()
        .filter(|l| l.starts_with("ERROR:"))
        .filter(|l| !l.contains("compilation terminated") && !l.contains("compilation errors"))
        .collect();
    !errors.is_empty()
        && errors
            .iter()
            .all(|l| LINK_TIME_ERRORS.iter().any(|e| l.contains(e)))
}

fn error_log(e: &CompileError) -> String {
    match e {
        CompileError::Compile { log, .. } | CompileError::Link { log } => log.clone(),
        other => format!("ERROR: {other}\n"),
    }
}

/// The GL stage enum of a shader type; `None` for types this GL does not accept.
pub(crate) fn stage_of(ty: GLenum) -> Option<Stage> {
    Some(match ty {
        GL_VERTEX_SHADER => Stage::Vertex,
        GL_FRAGMENT_SHADER => Stage::Fragment,
        GL_GEOMETRY_SHADER => Stage::Geometry,
        GL_TESS_CONTROL_SHADER => Stage::TessControl,
        GL_TESS_EVALUATION_SHADER => Stage::TessEvaluation,
        GL_COMPUTE_SHADER => Stage::Compute,
        _ => return None,
    })
}

/// `glGetProgramiv`'s geometry pnames (`None` for other pnames): `GL_INVALID_OPERATION` when
/// the program has no linked geometry stage.
pub(crate) fn geometry_param(linked: Option<&Linked>, pname: GLenum) -> Option<GlResult<i32>> {
    const GL_GEOMETRY_SHADER_INVOCATIONS: GLenum = 0x887F;
    if !matches!(
        pname,
        GL_GEOMETRY_VERTICES_OUT
            | GL_GEOMETRY_INPUT_TYPE
            | GL_GEOMETRY_OUTPUT_TYPE
            | GL_GEOMETRY_SHADER_INVOCATIONS
    ) {
        return None;
    }
    let Some(g) = linked.and_then(|l| l.geometry) else {
        return Some(invalid_op(format!(
            "glGetProgramiv(0x{pname:x}): the program has no linked geometry shader"
        )));
    };
    let value = match pname {
        GL_GEOMETRY_VERTICES_OUT => g.vertices_out,
        GL_GEOMETRY_INPUT_TYPE => g.input,
        GL_GEOMETRY_OUTPUT_TYPE => g.output,
        _ => g.invocations,
    };
    Some(Ok(value as i32))
}

pub(crate) fn stage_enum(stage: Stage) -> GLenum {
    match stage {
        Stage::Vertex => GL_VERTEX_SHADER,
        Stage::Fragment => GL_FRAGMENT_SHADER,
        Stage::Geometry => GL_GEOMETRY_SHADER,
        Stage::TessControl => GL_TESS_CONTROL_SHADER,
        Stage::TessEvaluation => GL_TESS_EVALUATION_SHADER,
        Stage::Compute => GL_COMPUTE_SHADER,
    }
}

/// The descriptor type a sampler uniform of dimensionality `dim` is: `samplerBuffer`s are
/// uniform texel buffers (`texture_buffer`), the rest combined image samplers.
pub(crate) fn sampler_descriptor_type(dim: crate::glsl::SamplerDim) -> vk::DescriptorType {
    match dim {
        crate::glsl::SamplerDim::Buffer => vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
        _ => vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
    }
}

pub(crate) fn vk_stages(mask: StageMask) -> vk::ShaderStageFlags {
    let mut flags = vk::ShaderStageFlags::empty();
    for (stage, flag) in [
        (Stage::Vertex, vk::ShaderStageFlags::VERTEX),
        (
            Stage::TessControl,
            vk::ShaderStageFlags::TESSELLATION_CONTROL,
        ),
        (
            Stage::TessEvaluation,
            vk::ShaderStageFlags::TESSELLATION_EVALUATION,
        ),
        (Stage::Geometry, vk::ShaderStageFlags::GEOMETRY),
        (Stage::Fragment, vk::ShaderStageFlags::FRAGMENT),
        (Stage::Compute, vk::ShaderStageFlags::COMPUTE),
    ] {
        if mask.contains(stage) {
            flags |= flag;
        }
    }
    flags
}

/// An active vertex attribute.
#[derive(Debug, Clone)]
pub(crate) struct ActiveAttrib {
    pub name: String,
    pub ty: GlType,
    pub array_size: Option<u32>,
    /// Where the SPIR-V reads it.
    pub shader_location: u32,
    /// The vertex-array slot that feeds it (`glGetAttribLocation`).
    pub gl_location: u32,
    /// Locations it spans (matrix columns × array elements).
    pub slots: u32,
}

impl ActiveAttrib {
    pub(crate) fn scalar(&self) -> ScalarKind {
        self.ty.shape().map_or(ScalarKind::Float, |s| s.0)
    }
}

/// Where an active uniform's values live.
#[derive(Debug, Clone, Copy)]
pub(crate) enum UniformStorage {
    /// In the default block: byte layout.
    Default {
        offset: u32,
        array_stride: u32,
        matrix_stride: u32,
        row_major: bool,
    },
    /// A sampler: index into `Linked::samplers`.
    Sampler(usize),
    /// An image uniform: index into `Linked::images` (its value is an image unit).
    Image(usize),
    /// A member of a named block (no location): the block (index into `Linked::blocks`) and
    /// its layout there.
    Block {
        block: usize,
        offset: u32,
        array_stride: u32,
        matrix_stride: u32,
        row_major: bool,
    },
}

/// An active uniform (`glGetActiveUniform`).
#[derive(Debug, Clone)]
pub(crate) struct ActiveUniform {
    /// GL's name: arrays end in `[0]`.
    pub name: String,
    pub ty: GlType,
    pub size: u32,
    pub storage: UniformStorage,
    /// The location of element 0, if it has locations.
    pub location: Option<i32>,
}

/// A named uniform block.
#[derive(Debug, Clone)]
pub(crate) struct BlockInfo {
    pub name: String,
    pub data_size: u32,
    /// Descriptor binding in set 0 (element 0 for arrays of blocks).
    pub binding: u32,
    /// The GL block index of element 0; element i has index + i.
    pub array_size: u32,
    pub stages: StageMask,
    pub members: Vec<usize>,
    /// The binding point of element 0 at link: `layout(binding = N)`, else 0
    /// (GL_ARB_shading_language_420pack); element i has N + i.
    pub initial_binding: u32,
    /// An array of arrays of blocks: every level's length, outermost first (`array_size` is
    /// their product); empty otherwise.
    pub dims: Vec<u32>,
}

impl BlockInfo {
    /// GL's name of element `e`: `B`, `B[e]`, or `B[i][j]` for an array of arrays.
    pub(crate) fn element_name(&self, e: u32) -> String {
        if self.dims.is_empty() {
            return if self.array_size > 1 {
                format!("{}[{e}]", self.name)
            } else {
                self.name.clone()
            };
        }
        let mut subscripts = Vec::with_capacity(self.dims.len());
        let mut rest = e;
        for &d in self.dims.iter().rev() {
            subscripts.push(rest % d.max(1));
            rest /= d.max(1);
        }
        let mut name = self.name.clone();
        for s in subscripts.iter().rev() {
            name.push_str(&format!("[{s}]"));
        }
        name
    }

    /// The longest of its elements' names.
    pub(crate) fn max_name_len(&self) -> usize {
        self.element_name(self.array_size.saturating_sub(1)).len()
    }
}

/// A sampler uniform's descriptor.
#[derive(Debug, Clone)]
pub(crate) struct SamplerInfo {
    pub binding: u32,
    /// What it samples (a draw reads the unit's binding of the matching target).
    pub ty: SamplerType,
    pub count: u32,
    /// The texture unit of element 0 at link: `layout(binding = N)`, else 0
    /// (GL_ARB_shading_language_420pack); element i reads unit N + i.
    pub initial_unit: u32,
}

/// The immutable result of a successful link.
pub(crate) struct Linked {
    pub modules: Vec<(Stage, vk::ShaderModule)>,
    pub attribs: Vec<ActiveAttrib>,
    pub uniforms: Vec<ActiveUniform>,
    /// location → (uniform index, array element).
    pub locations: Vec<(usize, u32)>,
    pub default_block_size: u32,
    /// One GL block index per element of every named block, in order.
    pub blocks: Vec<BlockInfo>,
    pub samplers: Vec<SamplerInfo>,
    /// Shader storage blocks and atomic-counter blocks (`compute::storage`).
    pub storage_blocks: Vec<crate::gl::compute::StorageBlockInfo>,
    /// Image uniforms (`compute::image_unit`).
    pub images: Vec<crate::gl::compute::ImageInfo>,
    /// A compute program's `GL_COMPUTE_WORK_GROUP_SIZE`; None for a graphics program.
    pub local_size: Option<[u32; 3]>,
    pub set_layouts: [vk::DescriptorSetLayout; 2],
    pub pipeline_layout: vk::PipelineLayout,
    /// Fragment outputs: name, location (the colour attachment it feeds) and index (1: the
    /// second input of dual-source blending).
    pub frag_outputs: Vec<(String, u32, u32)>,
    /// Each fragment output's type and array length (`interface_query`).
    pub frag_output_types: Vec<(GlType, Option<u32>)>,
    /// Built-in uniforms of upgraded legacy GLSL, which a draw fills (`compat`).
    pub ff_uniforms: Vec<FfUniform>,
    /// Initial values of loose uniforms declared with initializers (glslang drops them).
    pub initializers: Vec<glsl::initializers::Initializer>,
    /// A fragment unit redeclared `gl_FragCoord` with `origin_upper_left`: pipelines set
    /// `glsl::FRAG_COORD_HEIGHT_CONSTANT` to the draw framebuffer's height.
    pub frag_coord_upper_left: bool,
    /// Every unit is GLSL 1.10/1.20: lookups of depth textures without comparison follow
    /// `GL_DEPTH_TEXTURE_MODE` in a compatibility context.
    pub legacy_depth_mode: bool,
    /// The fragment stage ends in the epilogue (`glsl::frag_epilogue`): pipelines set its
    /// alpha-test and colour-clamp constants.
    pub frag_epilogue: bool,
    /// Bit i: the fragment stage declares support for advanced blend equation i
    /// (`glsl::blend_advanced::EQUATIONS`) and blends with it in its wrapper.
    pub blend_support: u16,
    /// The tessellation layout its control and evaluation stages declare (`glsl::tess`);
    /// the default (nothing declared) for a program without tessellation.
    pub tess: glsl::tess::TessLayout,
    /// The control stage ArenaGL supplies to a program with an evaluation stage and no
    /// control stage (`tess::PassThroughControl`).
    pub pass_through: Option<tess::PassThroughControl>,
    /// A stage before the rasteriser writes `gl_ViewportIndex`: draws use every viewport
    /// (`draw::viewport`).
    pub writes_viewport_index: bool,
    /// The vertex stage reads `gl_BaseVertexARB` or `gl_DrawIDARB`: draws push
    /// `glsl::draw_parameters::DrawParameters` (`draw::record`).
    pub pushes_draw_parameters: bool,
    /// The geometry stage's layout (`glsl::geometry`); `None` without a geometry stage.
    pub geometry: Option<glsl::geometry::GeometryLayout>,
    /// What transform feedback captures (`glsl::xfb`), when `glTransformFeedbackVaryings`
    /// named varyings before the link.
    pub xfb: Option<glsl::xfb::XfbLayout>,
    /// Each stage's shader subroutines (`subroutine`), empty without any.
    pub subroutines: Vec<(Stage, glsl::subroutine::StageSubroutines)>,
    /// What the Vulkan objects were made from (`glGetProgramBinary` saves it, `binary`).
    pub code: binary::Code,
    /// A unique id (pipelines are cached per linked program).
    pub id: u64,
    /// Whether a pipeline was ever built from it (`pipeline::build`): every command that uses
    /// a program binds one of its pipelines first, so until then no command references its
    /// modules or layouts.
    pipelines_built: AtomicBool,
    /// The device generation its Vulkan objects were made on (`vk::device`): after a
    /// recovery the context makes the program again from `code` (`Linked::remade`).
    pub(crate) generation: u64,
    device: Arc<Device>,
}

impl Linked {
    /// Whether this is a compute program (its one stage is `Stage::Compute`).
    pub(crate) fn is_compute(&self) -> bool {
        self.modules
            .iter()
            .any(|(stage, _)| *stage == Stage::Compute)
    }

    /// Notes that a pipeline was built from this program (see `pipelines_built`).
    pub(crate) fn note_pipeline_built(&self) {
        self.pipelines_built.store(true, Ordering::Relaxed);
    }
}

impl Drop for Linked {
    /// A program no command ever used gives its Vulkan objects back at once; one that drew
    /// defers them (and its pipelines) to the epoch being recorded. Either way the retired objects of
    /// completed epochs is collected here too: a program that creates and deletes programs
    /// without ever waiting for the device (no `glFinish`, no read-back, no swap) would
    /// otherwise pile deferred objects up for its whole life.
    fn drop(&mut self) {
        let objects = VkObjects {
            device: self.device.clone(),
            generation: self.generation,
            modules: std::mem::take(&mut self.modules)
                .into_iter()
                .chain(self.pass_through.as_mut().into_iter().flat_map(|p| {
                    p.take_modules()
                        .into_iter()
                        .map(|m| (Stage::TessControl, m))
                }))
                .collect(),
            set_layouts: std::mem::replace(
                &mut self.set_layouts,
                [vk::DescriptorSetLayout::null(); 2],
            ),
            pipeline_layout: std::mem::replace(
                &mut self.pipeline_layout,
                vk::PipelineLayout::null(),
            ),
        };
        let mut locked = self.device.lock();
        locked.forget_pipelines_of(self.id);
        if self.pipelines_built.load(Ordering::Relaxed) {
            let generation = self.generation;
            for g in objects.into_retired() {
                locked.retire_from(generation, g);
            }
        } else {
            drop(objects);
        }
        if let Err(e) = locked.manager.poll() {
            tracing::debug!(error = %e, "poll before releasing a deleted program's retired objects");
        }
        locked.collect(self.device.raw());
    }
}

/// A built-in uniform (`gl_ModelViewMatrix`, …) in the default block.
#[derive(Debug, Clone)]
pub(crate) struct FfUniform {
    /// The name without `gl_`/`arena_ff_` (`ModelViewProjectionMatrix`, `AlphaRef`, …).
    pub name: String,
    pub offset: u32,
    pub array_stride: u32,
    pub matrix_stride: u32,
    pub count: u32,
}

/// A program object.
pub(crate) struct Program {
    pub shaders: Vec<u32>,
    pub attrib_bindings: HashMap<String, u32>,
    /// `glBindFragDataLocation(Indexed)`: name → (colour number, index), applied at link.
    pub frag_bindings: HashMap<String, glsl::FragBinding>,
    pub linked: Option<Arc<Linked>>,
    pub link_status: bool,
    pub log: String,
    pub validate_status: bool,
    pub delete_pending: bool,
    /// How many contexts have it current (`glUseProgram`): a deleted program lives until no
    /// context of its share group uses it.
    pub current_in: u32,
    /// The default block's current values.
    pub uniform_data: Vec<u8>,
    /// Texture unit per sampler element, per `Linked::samplers` entry.
    pub sampler_units: Vec<Vec<u32>>,
    /// GL binding point per block element (`glUniformBlockBinding`).
    pub block_bindings: Vec<u32>,
    /// GL binding point per storage block element (`glShaderStorageBlockBinding`; for an
    /// atomic-counter block its `GL_ATOMIC_COUNTER_BUFFER` binding).
    pub storage_bindings: Vec<u32>,
    /// Image unit per image uniform element (`glUniform1i` on an image uniform).
    pub image_units: Vec<Vec<u32>>,
    /// `glTransformFeedbackVaryings`: what the next link captures.
    pub xfb_request: glsl::xfb::XfbRequest,
    /// `GL_PROGRAM_SEPARABLE` (`glProgramParameteri`): the next link makes a program for
    /// program pipeline objects (`objects::program_pipeline`).
    pub separable: bool,
    /// `GL_PROGRAM_BINARY_RETRIEVABLE_HINT` as `glProgramParameteri` set it, and as the last
    /// successful link (or `glProgramBinary`) took it: queries report the latter.
    pub binary_hint: bool,
    pub linked_binary_hint: bool,
    /// What the last successful link compiled (pipelines relink stages of several programs
    /// together from it; `glGetProgramBinary` saves it).
    pub link_input: Option<Arc<binary::LinkInput>>,
}

impl Program {
    pub(crate) fn new() -> Self {
        Self {
            shaders: Vec::new(),
            attrib_bindings: HashMap::new(),
            frag_bindings: HashMap::new(),
            linked: None,
            link_status: false,
            log: String::new(),
            validate_status: false,
            delete_pending: false,
            current_in: 0,
            uniform_data: Vec::new(),
            sampler_units: Vec::new(),
            block_bindings: Vec::new(),
            storage_bindings: Vec::new(),
            image_units: Vec::new(),
            xfb_request: glsl::xfb::XfbRequest::default(),
            separable: false,
            binary_hint: false,
            linked_binary_hint: false,
            link_input: None,
        }
    }

    /// The linked interface, or `GL_INVALID_OPERATION` (`what` names the call).
    pub(crate) fn linked(&self, what: &str) -> GlResult<&Arc<Linked>> {
        self.linked
            .as_ref()
            .ok_or_else(|| GlError::InvalidOperation(format!("{what}: the program is not linked")))
    }
}

/// Vulkan objects of a link in progress, destroyed if the link fails half-way (and those of a
/// deleted program no command used).
struct VkObjects {
    device: Arc<Device>,
    /// The device generation they are made on.
    generation: u64,
    modules: Vec<(Stage, vk::ShaderModule)>,
    set_layouts: [vk::DescriptorSetLayout; 2],
    pipeline_layout: vk::PipelineLayout,
}

impl VkObjects {
    fn new(device: Arc<Device>) -> Self {
        Self {
            generation: device.generation(),
            device,
            modules: Vec::new(),
            set_layouts: [vk::DescriptorSetLayout::null(); 2],
            pipeline_layout: vk::PipelineLayout::null(),
        }
    }

    /// The device generation the objects are made on.
    fn generation(&self) -> u64 {
        self.generation
    }

    /// The objects as retired objects (nothing is destroyed when `self` drops then).
    fn into_retired(self) -> Vec<Retired> {
        let (modules, set_layouts, pipeline_layout) = self.take();
        let mut out: Vec<Retired> = modules
            .into_iter()
            .map(|(_, m)| Retired::ShaderModule(m))
            .collect();
        out.extend(
            set_layouts
                .into_iter()
                .filter(|l| *l != vk::DescriptorSetLayout::null())
                .map(Retired::SetLayout),
        );
        if pipeline_layout != vk::PipelineLayout::null() {
            out.push(Retired::PipelineLayout(pipeline_layout));
        }
        out
    }

    fn take(
        mut self,
    ) -> (
        Vec<(Stage, vk::ShaderModule)>,
        [vk::DescriptorSetLayout; 2],
        vk::PipelineLayout,
    ) {
        (
            std::mem::take(&mut self.modules),
            std::mem::replace(&mut self.set_layouts, [vk::DescriptorSetLayout::null(); 2]),
            std::mem::replace(&mut self.pipeline_layout, vk::PipelineLayout::null()),
        )
    }
}

impl Drop for VkObjects {
    fn drop(&mut self) {
        let raw = self.device.raw_of(self.generation);
        // SAFETY: these objects were created on this device, by a link that failed or for a
        // program no command used (no pipeline was ever built from it): nothing references
        // them.
        unsafe {
            for (_, m) in self.modules.drain(..) {
                raw.destroy_shader_module(m, None);
            }
            for l in self.set_layouts {
                if l != vk::DescriptorSetLayout::null() {
                    raw.destroy_descriptor_set_layout(l, None);
                }
            }
            if self.pipeline_layout != vk::PipelineLayout::null() {
                raw.destroy_pipeline_layout(self.pipeline_layout, None);
            }
        }
    }
}

/// Splits `name[3]` into (`name`, 3); a name without a subscript is element 0.
fn split_subscript(name: &str) -> Option<(&str, u32)> {
    if let Some(stripped) = name.strip_suffix(']') {
        let open = stripped.rfind('[')?;
        let index: u32 = stripped[open + 1..].parse().ok()?;
        Some((&stripped[..open], index))
    } else {
        Some((name, 0))
    }
}

impl Linked {
    /// The uniform (index into `uniforms`) and array element at GL `location`;
    /// `GL_INVALID_OPERATION` (naming the command `what`) when no uniform has it.
    pub(crate) fn uniform_at(&self, what: &str, location: i32) -> GlResult<(usize, u32)> {
        match usize::try_from(location)
            .ok()
            .and_then(|l| self.locations.get(l))
        {
            Some(&at) if at.0 != uniform_locations::FREE.0 => Ok(at),
            _ => invalid_op(format!(
                "{what}: location {location} is not a uniform of the current program"
            )),
        }
    }

    /// The element of its descriptor array that element `element` of sampler or image uniform
    /// `index` is: an array of arrays is one descriptor array shared by the uniforms of its
    /// innermost arrays (`s[0][0]`, `s[1][0]`, …), in order.
    pub(crate) fn descriptor_element(&self, index: usize, element: u32) -> u32 {
        let array = |s: UniformStorage| match s {
            UniformStorage::Sampler(i) => Some((false, i)),
            UniformStorage::Image(i) => Some((true, i)),
            _ => None,
        };
        let Some(of) = self.uniforms.get(index).and_then(|u| array(u.storage)) else {
            return element;
        };
        let before: u32 = self.uniforms[..index]
            .iter()
            .filter(|u| array(u.storage) == Some(of))
            .map(|u| u.size)
            .sum();
        before + element
    }

    /// `glGetUniformLocation`.
    pub(crate) fn uniform_location(&self, name: &str) -> i32 {
        for u in &self.uniforms {
            let Some(loc) = u.location else { continue };
            // `a[1]` names `a[1][0]`, the first element of an innermost array.
            if u.name == name || u.name.strip_suffix("[0]") == Some(name) {
                return loc;
            }
            let base = u.name.strip_suffix("[0]");
            if let (Some(base), Some((n, i))) = (base, split_subscript(name)) {
                if n == base && i < u.size {
                    return loc + i as i32;
                }
            }
        }
        -1
    }

    /// `glGetUniformBlockIndex`.
    pub(crate) fn block_index(&self, name: &str) -> u32 {
        let mut index = 0;
        for b in &self.blocks {
            if b.array_size == 1 && b.name == name {
                return index;
            }
            if !b.dims.is_empty() && name.starts_with(b.name.as_str()) {
                if let Some(e) = (0..b.array_size).find(|&e| b.element_name(e) == name) {
                    return index + e;
                }
            } else if b.array_size > 1 {
                if let Some((n, i)) = split_subscript(name) {
                    if n == b.name && i < b.array_size {
                        return index + i;
                    }
                }
            }
            index += b.array_size;
        }
        GL_INVALID_INDEX
    }

    /// Total GL uniform block indices.
    pub(crate) fn block_count(&self) -> u32 {
        self.blocks.iter().map(|b| b.array_size).sum()
    }

    /// (block, element) of a GL block index.
    pub(crate) fn block_at(&self, index: u32) -> Option<(&BlockInfo, u32)> {
        let mut base = 0;
        for b in &self.blocks {
            if index < base + b.array_size {
                return Some((b, index - base));
            }
            base += b.array_size;
        }
        None
    }

    pub(crate) fn attrib_location(&self, name: &str) -> i32 {
        if name.starts_with("gl_") {
            return -1;
        }
        self.attribs
            .iter()
            .find(|a| a.name == name)
            .map_or(-1, |a| a.gl_location as i32)
    }
}

/// Writes the initializers of `program`'s linked uniforms into its default block (right after
/// a link, before the application can set any). A value that does not fit its uniform (too few
/// components) is left at zero.
pub(crate) fn apply_initializers(program: &mut Program) {
    let Some(linked) = program.linked.clone() else {
        return;
    };
    for init in &linked.initializers {
        let location = linked.uniform_location(&init.name);
        let Ok((index, _)) = linked.uniform_at("initializer", location) else {
            continue;
        };
        let u = &linked.uniforms[index];
        let Some((scalar, columns, rows)) = u.ty.shape() else {
            continue;
        };
        let per = (columns * rows) as usize;
        let count = (init.values.len() / per).min(u.size as usize);
        if count == 0 {
            continue;
        }
        let values = &init.values[..count * per];
        let r = if columns > 1 && scalar == ScalarKind::Double {
            set_uniform_matrix_double(
                program,
                location,
                columns,
                rows,
                count as i32,
                false,
                values,
            )
        } else if columns > 1 {
            let floats: Vec<f32> = values.iter().map(|&v| v as f32).collect();
            set_uniform_matrix(
                program,
                location,
                columns,
                rows,
                count as i32,
                false,
                &floats,
            )
        } else {
            let (kind, words) = initializer_words(scalar, values);
            set_uniform(program, location, kind, rows, count as i32, &words)
        };
        if let Err(e) = r {
            tracing::debug!(uniform = init.name, error = ?e, "uniform initializer not applied");
        }
    }
}

/// The `glUniform*` kind and data words that set a uniform of scalar type `scalar` to
/// `values` (an initializer's, evaluated as `f64`).
fn initializer_words(scalar: ScalarKind, values: &[f64]) -> (ValueKind, Vec<u32>) {
    let split = split_u64;
    match scalar {
        ScalarKind::Int => (
            ValueKind::Int,
            values.iter().map(|&v| v as i32 as u32).collect(),
        ),
        ScalarKind::UInt => (ValueKind::UInt, values.iter().map(|&v| v as u32).collect()),
        ScalarKind::Double => (
            ValueKind::Double,
            values.iter().flat_map(|&v| split(v.to_bits())).collect(),
        ),
        ScalarKind::Int64 => (
            ValueKind::Int64,
            values
                .iter()
                .flat_map(|&v| split(v as i64 as u64))
                .collect(),
        ),
        ScalarKind::UInt64 => (
            ValueKind::UInt64,
            values.iter().flat_map(|&v| split(v as u64)).collect(),
        ),
        ScalarKind::Float | ScalarKind::Bool => (
            ValueKind::Float,
            values.iter().map(|&v| (v as f32).to_bits()).collect(),
        ),
    }
}

/// The two data words of a 64-bit `glUniform*` component (its native-endian bytes, split).
pub fn split_u64(bits: u64) -> [u32; 2] {
    let b = bits.to_ne_bytes();
    [
        u32::from_ne_bytes([b[0], b[1], b[2], b[3]]),
        u32::from_ne_bytes([b[4], b[5], b[6], b[7]]),
    ]
}

/// The value kinds of `glUniform*` calls. The 64-bit kinds (`glUniform*d`, `*i64ARB`,
/// `*ui64ARB`) pass each component as two 32-bit words: its native-endian bytes, split.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    Float,
    Int,
    UInt,
    Double,
    Int64,
    UInt64,
}

impl ValueKind {
    /// 32-bit words a component takes in a `glUniform*` call's data.
    pub fn words(self) -> u32 {
        match self {
            ValueKind::Double | ValueKind::Int64 | ValueKind::UInt64 => 2,
            ValueKind::Float | ValueKind::Int | ValueKind::UInt => 1,
        }
    }

    /// The suffix of the `glUniform*` command (for error messages).
    fn suffix(self) -> &'static str {
        match self {
            ValueKind::Float => "f",
            ValueKind::Int => "i",
            ValueKind::UInt => "ui",
            ValueKind::Double => "d",
            ValueKind::Int64 => "i64",
            ValueKind::UInt64 => "ui64",
        }
    }

    /// Whether a `glUniform*` of this kind may set a uniform of scalar type `scalar` (GL 4.6
    /// §7.6.1: the command's type must match, except that booleans take any 32-bit kind and
    /// that a `uint` takes `glUniform*i` too, for booleans glslang reflects as `uint`).
    fn sets(self, scalar: ScalarKind) -> bool {
        matches!(
            (scalar, self),
            (ScalarKind::Float, ValueKind::Float)
                | (ScalarKind::Int, ValueKind::Int)
                | (ScalarKind::UInt, ValueKind::UInt | ValueKind::Int)
                | (
                    ScalarKind::Bool,
                    ValueKind::Float | ValueKind::Int | ValueKind::UInt
                )
                | (ScalarKind::Double, ValueKind::Double)
                | (ScalarKind::Int64, ValueKind::Int64)
                | (ScalarKind::UInt64, ValueKind::UInt64)
        )
    }
}

/// The byte strides of a default-block uniform of `columns` columns: between columns and
/// between array elements. A stride the reflection gives as 0 is the packed one: a 4-vector a
/// column (16 bytes, 32 for 64-bit components), all the columns an element.
pub(crate) fn default_block_strides(
    matrix_stride: u32,
    array_stride: u32,
    columns: u32,
    scalar: ScalarKind,
) -> (u32, u32) {
    let column = if matrix_stride == 0 {
        4 * scalar.bytes()
    } else {
        matrix_stride
    };
    let element = if array_stride == 0 {
        column * columns
    } else {
        array_stride
    };
    (column, element)
}

/// The uniform a `glUniform*` or `glUniformMatrix*` call (`what`) writes, after the checks
/// they share: the count, the link, the location, and a count above 1 for a uniform that is
/// no array. `None` for location -1, which GL ignores silently; otherwise the linked program,
/// the uniform's index in it and the array element `location` names.
fn uniform_written(
    program: &Program,
    what: &str,
    location: i32,
    count: i32,
) -> GlResult<Option<(Arc<Linked>, usize, u32)>> {
    if count < 0 {
        return invalid_value(format!("{what} count {count}"));
    }
    if location == -1 {
        return Ok(None);
    }
    let linked = program.linked(what)?.clone();
    // An explicitly placed uniform the link found inactive: ignored, as -1 is
    // (GL_ARB_explicit_uniform_location).
    let reserved = usize::try_from(location)
        .ok()
        .and_then(|l| linked.locations.get(l));
    if reserved == Some(&uniform_locations::RESERVED) {
        return Ok(None);
    }
    let (index, element) = linked.uniform_at(what, location)?;
    let u = &linked.uniforms[index];
    if count > 1 && u.size == 1 {
        return invalid_op(format!(
            "{what}: count {count} for the non-array uniform {}",
            u.name
        ));
    }
    Ok(Some((linked, index, element)))
}

/// Writes a `glUniform{1,2,3,4}{f,i,ui}v` call into `program`'s storage; `data` holds
/// `count × components` 32-bit words.
pub(crate) fn set_uniform(
    program: &mut Program,
    location: i32,
    kind: ValueKind,
    components: u32,
    count: i32,
    data: &[u32],
) -> GlResult<()> {
    let Some((linked, index, element)) = uniform_written(program, "glUniform", location, count)?
    else {
        return Ok(());
    };
    let u = &linked.uniforms[index];
    let n = (count as u32).min(u.size - element);
    match (u.storage, u.ty) {
        (UniformStorage::Image(i), _) => {
            crate::gl::compute::set_image_units(program, i, element, n, kind, components, data)
        }
        (UniformStorage::Sampler(s), _) => {
            if kind != ValueKind::Int || components != 1 {
                return invalid_op(format!("sampler {} takes glUniform1i", u.name));
            }
            let units = data
                .iter()
                .take(n as usize)
                .map(|&w| w as i32)
                .collect::<Vec<_>>();
            if units
                .iter()
                .any(|&v| !(0..MAX_TEXTURE_UNITS as i32).contains(&v))
            {
                return invalid_value(format!("texture unit out of range for sampler {}", u.name));
            }
            let first = linked.descriptor_element(index, element) as usize;
            let slots = &mut program.sampler_units[s];
            for (i, v) in units.into_iter().enumerate() {
                if let Some(slot) = slots.get_mut(first + i) {
                    *slot = v as u32;
                }
            }
            Ok(())
        }
        (
            UniformStorage::Default {
                offset,
                array_stride,
                ..
            },
            ty,
        ) => {
            let Some((scalar, 1, rows)) = ty.shape() else {
                return invalid_op(format!(
                    "glUniform on the matrix {}: use glUniformMatrix",
                    u.name
                ));
            };
            if rows != components || !kind.sets(scalar) {
                return invalid_op(format!(
                    "glUniform{components}{} does not match {} of type {:?}",
                    kind.suffix(),
                    u.name,
                    ty
                ));
            }
            let stride = if array_stride == 0 { 16 } else { array_stride };
            // Words per element: a 64-bit component is two.
            let per = components * kind.words();
            for i in 0..n {
                let at = (offset + (element + i) * stride) as usize;
                for c in 0..per as usize {
                    let mut word = data[(i * per) as usize + c];
                    if scalar == ScalarKind::Bool {
                        let nonzero = match kind {
                            ValueKind::Float => f32::from_bits(word) != 0.0,
                            _ => word != 0,
                        };
                        word = u32::from(nonzero);
                    }
                    write_word(&mut program.uniform_data, at + c * 4, word);
                }
            }
            Ok(())
        }
        (UniformStorage::Block { .. }, _) => invalid_op("glUniform on a uniform-block member"),
    }
}

/// `glUniformMatrix{C}x{R}fv`.
pub(crate) fn set_uniform_matrix(
    program: &mut Program,
    location: i32,
    columns: u32,
    rows: u32,
    count: i32,
    transpose: bool,
    data: &[f32],
) -> GlResult<()> {
    let words: Vec<u64> = data.iter().map(|v| u64::from(v.to_bits())).collect();
    write_matrix(
        program,
        location,
        (ScalarKind::Float, columns, rows),
        count,
        transpose,
        &words,
    )
}

/// `glUniformMatrix{C}x{R}dv`.
pub(crate) fn set_uniform_matrix_double(
    program: &mut Program,
    location: i32,
    columns: u32,
    rows: u32,
    count: i32,
    transpose: bool,
    data: &[f64],
) -> GlResult<()> {
    let words: Vec<u64> = data.iter().map(|v| v.to_bits()).collect();
    write_matrix(
        program,
        location,
        (ScalarKind::Double, columns, rows),
        count,
        transpose,
        &words,
    )
}

/// A `glUniformMatrix*` call for a matrix of `shape` (scalar, columns, rows): `data` holds each
/// component's bits (a float's in the low 32).
fn write_matrix(
    program: &mut Program,
    location: i32,
    shape: (ScalarKind, u32, u32),
    count: i32,
    transpose: bool,
    data: &[u64],
) -> GlResult<()> {
    let (scalar, columns, rows) = shape;
    let what = "glUniformMatrix";
    let Some((linked, index, element)) = uniform_written(program, what, location, count)? else {
        return Ok(());
    };
    let u = &linked.uniforms[index];
    let UniformStorage::Default {
        offset,
        array_stride,
        matrix_stride,
        row_major,
    } = u.storage
    else {
        return invalid_op(format!(
            "glUniformMatrix on {}, which is not a matrix",
            u.name
        ));
    };
    if u.ty.shape() != Some(shape) {
        return invalid_op(format!(
            "glUniformMatrix{columns}x{rows} ({scalar:?}) does not match {} of type {:?}",
            u.name, u.ty
        ));
    }
    let bytes = scalar.bytes();
    let n = (count as u32).min(u.size - element);
    let (mstride, astride) = default_block_strides(matrix_stride, array_stride, columns, scalar);
    for i in 0..n {
        let base = (offset + (element + i) * astride) as usize;
        for c in 0..columns {
            for r in 0..rows {
                // GL's data is column-major unless `transpose`.
                let src = if transpose {
                    r * columns + c
                } else {
                    c * rows + r
                };
                let value = data[(i * columns * rows + src) as usize];
                let at = if row_major {
                    base + (r * mstride + c * bytes) as usize
                } else {
                    base + (c * mstride + r * bytes) as usize
                };
                write_component(&mut program.uniform_data, at, value, bytes);
            }
        }
    }
    Ok(())
}

fn write_word(data: &mut [u8], at: usize, word: u32) {
    if let Some(dst) = data.get_mut(at..at + 4) {
        dst.copy_from_slice(&word.to_ne_bytes());
    }
}

/// Writes a component of `bytes` (4 or 8) bytes: `bits`, a 32-bit one's in the low half.
fn write_component(data: &mut [u8], at: usize, bits: u64, bytes: u32) {
    if bytes == 8 {
        if let Some(dst) = data.get_mut(at..at + 8) {
            dst.copy_from_slice(&bits.to_ne_bytes());
        }
    } else {
        write_word(data, at, bits as u32);
    }
}

/// Texture units a context has (`GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS` on a device that holds
/// them all, `context::limits`).
pub const MAX_TEXTURE_UNITS: u32 = crate::gl::context::limits::MAX_COMBINED_TEXTURE_UNITS;

/// Why `linked` with texture units `units` (per sampler, per element) cannot draw: two active
/// samplers of different types read one texture unit, which GL 3.3 §2.11.7 forbids (the draw
/// is `GL_INVALID_OPERATION`, `glValidateProgram` fails). Types are told apart by the texture
/// target they read, as Mesa does: `sampler2D`, `isampler2D` and `sampler2DShadow` may share a
/// unit, `sampler2D` and `sampler3D` may not.
pub(crate) fn sampler_unit_conflict(linked: &Linked, units: &[Vec<u32>]) -> Option<String> {
    // One sampler uniform has one type: it conflicts with nothing (every draw asks; skip the
    // per-unit table).
    if linked.samplers.len() < 2 {
        return None;
    }
    samplers_unit_conflict(linked.samplers.iter().zip(units))
}

/// [`sampler_unit_conflict`] over samplers of several programs (a program pipeline's stages),
/// each with the units its elements read.
pub(crate) fn samplers_unit_conflict<'a>(
    samplers: impl Iterator<Item = (&'a SamplerInfo, &'a Vec<u32>)>,
) -> Option<String> {
    let mut seen: [Option<SamplerType>; MAX_TEXTURE_UNITS as usize] =
        [None; MAX_TEXTURE_UNITS as usize];
    for (s, elements) in samplers {
        for &unit in elements.iter().take(s.count as usize) {
            let Some(slot) = seen.get_mut(unit as usize) else {
                continue;
            };
            match slot {
                Some(first) if first.dim != s.ty.dim => {
                    return Some(format!(
                        "texture unit {unit} is read both as a {:?} and as a {:?} sampler",
                        first.dim, s.ty.dim
                    ));
                }
                Some(_) => {}
                None => *slot = Some(s.ty),
            }
        }
    }
    None
}

#[cfg(test)]
mod value_kind_tests {
    use super::*;

    #[test]
    fn setters_match_their_uniform_types() {
        assert!(ValueKind::Double.sets(ScalarKind::Double));
        assert!(!ValueKind::Float.sets(ScalarKind::Double));
        assert!(!ValueKind::Double.sets(ScalarKind::Float));
        assert!(!ValueKind::Double.sets(ScalarKind::Bool));
        assert!(ValueKind::Int64.sets(ScalarKind::Int64));
        assert!(!ValueKind::UInt64.sets(ScalarKind::Int64));
        assert!(!ValueKind::Int.sets(ScalarKind::Int64));
        assert!(ValueKind::UInt64.sets(ScalarKind::UInt64));
        assert!(ValueKind::Int.sets(ScalarKind::Bool));
        assert_eq!((ValueKind::Int64.words(), ValueKind::Float.words()), (2, 1));
    }

    #[test]
    fn sixty_four_bit_initializers_split_into_native_words() {
        let join = |w: &[u32]| {
            let b: Vec<u8> = w.iter().flat_map(|x| x.to_ne_bytes()).collect();
            u64::from_ne_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
        };
        let (kind, words) = initializer_words(ScalarKind::Int64, &[-5_000_000_000.0]);
        assert_eq!(kind, ValueKind::Int64);
        assert_eq!(join(&words) as i64, -5_000_000_000);
        let (kind, words) = initializer_words(ScalarKind::Double, &[0.1]);
        assert_eq!(kind, ValueKind::Double);
        assert_eq!(f64::from_bits(join(&words)), 0.1);
        assert_eq!(split_u64(0x1234_5678_9ABC_DEF0).len(), 2);
    }
}
