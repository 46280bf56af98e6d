//! Shader and program objects: compile, link, the program's interface as GL reports it, uniform
//! storage and the program's Vulkan layout.
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

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_op, invalid_value, GlError, GlResult};
use crate::gl::objects::vertex_array::FfArray;
use crate::gl::vk::device::{Device, Garbage};
use crate::glsl::frag_epilogue::{self, Written};
use crate::glsl::legacy::{self, Varyings};
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
        }
    }

    /// `glCompileShader`.
    pub(crate) fn compile(&mut self) {
        let source = legacy::upgrade(self.stage, &self.source, Varyings::default()).source;
        match glsl::compile_shader(self.stage, &source, CompileOptions::default()) {
            Ok(log) => {
                self.compiled = true;
                self.log = log;
            }
            Err(e) => {
                self.compiled = false;
                self.log = error_log(&e);
            }
        }
    }
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
        _ => return None,
    })
}

pub(crate) fn stage_enum(stage: Stage) -> GLenum {
    match stage {
        Stage::Vertex => GL_VERTEX_SHADER,
        Stage::Fragment => GL_FRAGMENT_SHADER,
        Stage::Geometry => GL_GEOMETRY_SHADER,
        Stage::TessControl => GL_TESS_CONTROL_SHADER,
        Stage::TessEvaluation => GL_TESS_EVALUATION_SHADER,
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
}

/// A sampler uniform's descriptor.
#[derive(Debug, Clone)]
pub(crate) struct SamplerInfo {
    pub binding: u32,
    /// What it samples (a draw reads the unit's binding of the matching target).
    pub ty: SamplerType,
    pub count: u32,
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
    pub set_layouts: [vk::DescriptorSetLayout; 2],
    pub pipeline_layout: vk::PipelineLayout,
    /// Fragment outputs: name, location (the colour attachment it feeds) and index (1: the
    /// second input of dual-source blending).
    pub frag_outputs: Vec<(String, u32, u32)>,
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
    /// A unique id (pipelines are cached per linked program).
    pub id: u64,
    /// Whether a pipeline was ever built from it (`pipeline::build`): every command that uses
    /// a program binds one of its pipelines first, so until then no command references its
    /// modules or layouts.
    pipelines_built: AtomicBool,
    device: Arc<Device>,
}

impl Linked {
    /// Notes that a pipeline was built from this program (see `pipelines_built`).
    pub(crate) fn note_pipeline_built(&self) {
        self.pipelines_built.store(true, Ordering::Relaxed);
    }
}

impl Drop for Linked {
    /// A program no command ever used gives its Vulkan objects back at once; one that drew
    /// defers them (and its pipelines) to the epoch being recorded. Either way the garbage of
    /// completed epochs is collected here too: a program that creates and deletes programs
    /// without ever waiting for the device (no `glFinish`, no read-back, no swap) would
    /// otherwise pile deferred objects up for its whole life.
    fn drop(&mut self) {
        let objects = VkObjects {
            device: self.device.clone(),
            modules: std::mem::take(&mut self.modules),
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
            for g in objects.into_garbage() {
                locked.defer(g);
            }
        } else {
            drop(objects);
        }
        if let Err(e) = locked.manager.poll() {
            tracing::debug!(error = %e, "poll before collecting a deleted program's garbage");
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
    /// The default block's current values.
    pub uniform_data: Vec<u8>,
    /// Texture unit per sampler element, per `Linked::samplers` entry.
    pub sampler_units: Vec<Vec<u32>>,
    /// GL binding point per block element (`glUniformBlockBinding`).
    pub block_bindings: Vec<u32>,
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
            uniform_data: Vec::new(),
            sampler_units: Vec::new(),
            block_bindings: Vec::new(),
        }
    }

    /// The linked interface, or `GL_INVALID_OPERATION` (`what` names the call).
    pub(crate) fn linked(&self, what: &str) -> GlResult<&Arc<Linked>> {
        self.linked
            .as_ref()
            .ok_or_else(|| GlError::InvalidOperation(format!("{what}: the program is not linked")))
    }
}

/// `GL_MAX_VERTEX_UNIFORM_BLOCKS` (and geometry, fragment), as `glGet` answers it.
const MAX_STAGE_UNIFORM_BLOCKS: u32 = 12;
/// `GL_MAX_COMBINED_UNIFORM_BLOCKS`, as `glGet` answers it.
const MAX_COMBINED_UNIFORM_BLOCKS: u32 = 36;

/// The GL type of a block member (the default block's too): SPIR-V has no `bool` in blocks
/// (glslang stores `bool` and `bvecN` members as `uint`s), so a member the source declared
/// boolean gets its type back.
fn block_member_type(ty: GlType, name: &str, bool_members: &[(String, u32)]) -> GlType {
    let Some((ScalarKind::UInt, 1, n)) = ty.shape() else {
        return ty;
    };
    // The member's own name: `Block.m`, `s.m`, `m[2]` → `m`.
    let leaf = name
        .rsplit('.')
        .next()
        .unwrap_or(name)
        .split('[')
        .next()
        .unwrap_or(name);
    if bool_members.iter().any(|(m, k)| m == leaf && *k == n) {
        GlType::from_shape(ScalarKind::Bool, 1, n).unwrap_or(ty)
    } else {
        ty
    }
}

static NEXT_PROGRAM_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// Renames `main` in a vertex unit (keeping line numbers) so the depth wrapper can call it.
fn rename_main(source: &str) -> String {
    let bytes = source.as_bytes();
    let mut out = String::with_capacity(source.len() + 16);
    let mut i = 0;
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    while i < bytes.len() {
        if bytes[i..].starts_with(b"main")
            && (i == 0 || !is_ident(bytes[i - 1]))
            && bytes.get(i + 4).is_none_or(|&b| !is_ident(b))
        {
            out.push_str("arenagl_user_main");
            i += 4;
        } else {
            let ch = source[i..].chars().next().unwrap_or('\0');
            out.push(ch);
            i += ch.len_utf8().max(1);
        }
    }
    out
}

const DEPTH_WRAPPER: &str = "\nlayout(constant_id = 7340) const float arenagl_point_size = 1.0;\nlayout(constant_id = 7341) const bool arenagl_program_point_size = false;\nvoid arenagl_user_main();\nvoid main() {\n    arenagl_user_main();\n    gl_Position.z = (gl_Position.z + gl_Position.w) * 0.5;\n    if (!arenagl_program_point_size) {\n        gl_PointSize = arenagl_point_size;\n    }\n}\n";

/// The sources glslang links: the vertex units rewritten for Vulkan's depth range when the
/// vertex stage is the last before rasterisation.
fn link_sources(units: &[(Stage, String)]) -> Vec<(Stage, String)> {
    let remap = !units.iter().any(|(s, _)| {
        matches!(
            s,
            Stage::Geometry | Stage::TessControl | Stage::TessEvaluation
        )
    });
    let mut wrapped = false;
    units
        .iter()
        .map(|(stage, src)| {
            if remap && *stage == Stage::Vertex {
                let mut s = rename_main(src);
                if !wrapped {
                    s.push_str(DEPTH_WRAPPER);
                    wrapped = true;
                }
                (*stage, s)
            } else {
                (*stage, src.clone())
            }
        })
        .collect()
}

/// The units glslang compiles: legacy GLSL upgraded (`glsl::legacy`), vertex units declaring
/// the legacy varyings the fragment units read, and the fixed-function stage a program lacks (a
/// fragment-only program transforms by the matrices); and whether the fragment stage ends in
/// the epilogue.
fn upgrade_units(units: &[(Stage, String)]) -> (Vec<(Stage, String)>, bool) {
    let has = |stage: Stage| units.iter().any(|(s, _)| *s == stage);
    let mut all: Vec<(Stage, String)> = units.to_vec();
    // GL links a program that lacks a stage (its results are undefined in the core profile);
    // the missing stage is the fixed-function one, which a compatibility context defines.
    if has(Stage::Vertex) && !has(Stage::Fragment) {
        all.push((
            Stage::Fragment,
            crate::glsl::fixed_function::FF_FRAGMENT_PASS.to_owned(),
        ));
    }
    let mut reads = Varyings::default();
    let mut out: Vec<(Stage, String)> = Vec::with_capacity(all.len() + 2);
    // A legacy fragment stage ends in the epilogue (`glsl::frag_epilogue`); one with a unit of
    // GLSL 1.40 or later keeps its own `main` and outputs.
    let epilogue = all.iter().any(|(s, _)| *s == Stage::Fragment)
        && all
            .iter()
            .all(|(s, src)| *s != Stage::Fragment || legacy::needs_upgrade(src));
    let (mut frag_color, mut frag_data) = (false, false);
    for (stage, src) in all.iter().filter(|(s, _)| *s == Stage::Fragment) {
        let u = if epilogue {
            legacy::upgrade_for_epilogue(src)
        } else {
            legacy::upgrade(*stage, src, Varyings::default())
        };
        reads = reads.union(u.varyings);
        frag_color |= u.writes_frag_color;
        frag_data |= u.writes_frag_data;
        out.push((*stage, u.source));
    }
    if epilogue {
        let written = match (frag_color, frag_data) {
            (true, _) => Written::FragColor,
            (_, true) => Written::FragData,
            _ => Written::Nothing,
        };
        out.push((Stage::Fragment, frag_epilogue::epilogue_unit(written)));
    }
    if !has(Stage::Vertex) && has(Stage::Fragment) {
        all.push((
            Stage::Vertex,
            crate::glsl::fixed_function::ff_vertex_source(reads, None),
        ));
    }
    for (stage, src) in all.iter().filter(|(s, _)| *s != Stage::Fragment) {
        let extra = if *stage == Stage::Vertex {
            reads
        } else {
            Varyings::default()
        };
        out.push((*stage, legacy::upgrade(*stage, src, extra).source));
    }
    (out, epilogue)
}

/// The application's name of a reflected one (the upgrader's renames undone).
fn app_name(name: &str) -> String {
    name.replace(legacy::USER_PREFIX, "")
}

/// Locations a vertex input of `ty` (with `array_size`) spans.
fn attrib_slots(ty: GlType, array_size: Option<u32>) -> u32 {
    let columns = ty.shape().map_or(1, |(_, c, _)| c);
    columns * array_size.unwrap_or(1).max(1)
}

/// Links `units` into a program's interface and Vulkan layout.
pub(crate) fn link(
    device: &Arc<Device>,
    units: &[(Stage, String)],
    attrib_bindings: &HashMap<String, u32>,
    max_attribs: u32,
) -> Result<(Linked, String), LinkError> {
    link_bound(device, units, attrib_bindings, &HashMap::new(), max_attribs)
}

/// [`link`] with the application's fragment output bindings (`glBindFragDataLocation*`).
pub(crate) fn link_bound(
    device: &Arc<Device>,
    units: &[(Stage, String)],
    attrib_bindings: &HashMap<String, u32>,
    frag_bindings: &HashMap<String, glsl::FragBinding>,
    max_attribs: u32,
) -> Result<(Linked, String), LinkError> {
    // From the application's sources: the names are its own, not the upgrader's.
    let initializers = units
        .iter()
        .flat_map(|(_, src)| glsl::initializers::uniform_initializers(src))
        .collect();
    let source_units = units;
    let (upgraded, frag_epilogue) = upgrade_units(units);
    let units = &upgraded[..];
    // `upgrade_units` supplies a missing vertex or fragment stage; a program with neither (only
    // geometry shaders, or nothing) cannot draw.
    if !units.iter().any(|(s, _)| *s == Stage::Vertex)
        || !units.iter().any(|(s, _)| *s == Stage::Fragment)
    {
        return Err(LinkError::Log(
            "ERROR: Linking: a program needs a vertex or a fragment shader\n".into(),
        ));
    }
    let sources = link_sources(units);
    let refs: Vec<(Stage, &str)> = sources.iter().map(|(s, c)| (*s, c.as_str())).collect();
    let program = glsl::compile_program_bound(&refs, CompileOptions::default(), frag_bindings)
        .map_err(|e| {
            if e.is_transient() {
                LinkError::Memory(MemoryError::OutOfHostMemory)
            } else {
                LinkError::Log(error_log(&e))
            }
        })?;
    let r = &program.reflection;
    // ARB_blend_func_extended: an output of index 1 (the second colour of dual-source blending)
    // at a location of GL_MAX_DUAL_SOURCE_DRAW_BUFFERS (1) or above fails the link.
    if let Some(o) = r
        .frag_outputs
        .iter()
        .find(|o| o.index == 1 && o.location >= 1)
    {
        return Err(LinkError::Log(format!(
            "ERROR: Linking: fragment output {} has index 1 at location {}; GL_MAX_DUAL_SOURCE_DRAW_BUFFERS is 1\n",
            app_name(&o.name),
            o.location
        )));
    }

    // Attributes: bound names first, then the compiler's locations where free, then the next
    // free slots.
    let mut taken = vec![false; max_attribs as usize];
    let mut attribs: Vec<ActiveAttrib> = r
        .attributes
        .iter()
        .map(|a| {
            // Fixed-function inputs read their own VAO slots, past the generic ones.
            let ff = FfArray::of_input(&a.name);
            ActiveAttrib {
                name: ff.map_or_else(|| app_name(&a.name), FfArray::gl_name),
                ty: a.ty,
                array_size: a.array_size,
                shader_location: a.location,
                gl_location: ff.map_or(u32::MAX, |f| f.slot() as u32),
                slots: attrib_slots(a.ty, a.array_size),
            }
        })
        .collect();
    let claim = |loc: u32, slots: u32, taken: &mut Vec<bool>| -> bool {
        let end = loc as usize + slots as usize;
        if end > taken.len() || taken[loc as usize..end].iter().any(|&t| t) {
            return false;
        }
        taken[loc as usize..end].iter_mut().for_each(|t| *t = true);
        true
    };
    for a in attribs.iter_mut().filter(|a| a.gl_location == u32::MAX) {
        if let Some(&loc) = attrib_bindings.get(&a.name) {
            if !claim(loc, a.slots, &mut taken) {
                return Err(LinkError::Log(format!(
                    "ERROR: Linking: attribute {} bound to location {loc}, which is taken or out of range\n",
                    a.name
                )));
            }
            a.gl_location = loc;
        }
    }
    for a in attribs.iter_mut().filter(|a| a.gl_location == u32::MAX) {
        if claim(a.shader_location, a.slots, &mut taken) {
            a.gl_location = a.shader_location;
        }
    }
    for a in attribs.iter_mut().filter(|a| a.gl_location == u32::MAX) {
        let free = (0..max_attribs).find(|&l| claim(l, a.slots, &mut taken.clone()));
        match free {
            Some(l) => {
                claim(l, a.slots, &mut taken);
                a.gl_location = l;
            }
            None => {
                return Err(LinkError::Log(format!(
                    "ERROR: Linking: too many vertex attributes ({} locations)\n",
                    max_attribs
                )))
            }
        }
    }

    // Uniforms: default-block members, samplers, then named-block members; locations in order.
    let mut uniforms = Vec::new();
    let mut locations = Vec::new();
    let mut samplers = Vec::new();
    let push_located = |name: &str,
                        ty: GlType,
                        size: u32,
                        storage: UniformStorage,
                        uniforms: &mut Vec<ActiveUniform>,
                        locations: &mut Vec<(usize, u32)>| {
        let index = uniforms.len();
        let location = locations.len() as i32;
        for e in 0..size {
            locations.push((index, e));
        }
        uniforms.push(ActiveUniform {
            name: name.to_owned(),
            ty,
            size,
            storage,
            location: Some(location),
        });
    };
    let mut ff_uniforms = Vec::new();
    let legacy_depth_mode = source_units
        .iter()
        .all(|(_, src)| legacy::source_version(src) < 130);
    // Loose uniforms declared `bool`/`bvecN`, which the default block stores as `uint`s.
    let loose_bools: Vec<(String, u32)> = source_units
        .iter()
        .flat_map(|(_, src)| glsl::loose_bool_uniforms(src))
        .collect();
    let (default_block_size, default_block_stages) = match &r.default_block {
        Some(b) => {
            for m in &b.members {
                if let Some(builtin) = m.name.strip_prefix(legacy::FF_PREFIX) {
                    // Built-in state: reported as `gl_…` with no location, filled per draw.
                    let (offset, array_stride, matrix_stride) =
                        (m.offset, m.array_stride, m.matrix_stride);
                    let size = m.array_size.unwrap_or(1).max(1);
                    ff_uniforms.push(FfUniform {
                        name: builtin.to_owned(),
                        offset,
                        array_stride,
                        matrix_stride,
                        count: size,
                    });
                    // Built-in state is not an active uniform (as Mesa reports it).
                    continue;
                }
                let size = m.array_size.unwrap_or(1).max(1);
                let name = if m.array_size.is_some() {
                    format!("{}[0]", app_name(&m.name))
                } else {
                    app_name(&m.name)
                };
                push_located(
                    &name,
                    block_member_type(m.ty, &app_name(&m.name), &loose_bools),
                    size,
                    UniformStorage::Default {
                        offset: m.offset,
                        array_stride: m.array_stride,
                        matrix_stride: m.matrix_stride,
                        row_major: m.row_major,
                    },
                    &mut uniforms,
                    &mut locations,
                );
            }
            (b.size, b.stages)
        }
        None => (0, StageMask::default()),
    };
    for s in &r.samplers {
        let count = s.array_size.unwrap_or(1).max(1);
        let name = if s.array_size.is_some() {
            format!("{}[0]", app_name(&s.name))
        } else {
            app_name(&s.name)
        };
        push_located(
            &name,
            GlType::Sampler(s.ty),
            count,
            UniformStorage::Sampler(samplers.len()),
            &mut uniforms,
            &mut locations,
        );
        samplers.push((
            SamplerInfo {
                binding: s.binding,
                ty: s.ty,
                count,
            },
            s.stages,
        ));
    }
    // Block members declared `bool`/`bvecN`, which SPIR-V stores as `uint`s.
    let bool_members: Vec<(String, u32)> = source_units
        .iter()
        .flat_map(|(_, src)| glsl::block_bool_members(src))
        .collect();
    let mut blocks = Vec::new();
    for b in &r.uniform_blocks {
        let mut members = Vec::new();
        for m in &b.members {
            members.push(uniforms.len());
            uniforms.push(ActiveUniform {
                name: if m.array_size.is_some() {
                    format!("{}[0]", app_name(&m.name))
                } else {
                    app_name(&m.name)
                },
                ty: block_member_type(m.ty, &m.name, &bool_members),
                size: m.array_size.unwrap_or(1).max(1),
                storage: UniformStorage::Block {
                    block: blocks.len(),
                    offset: m.offset,
                    array_stride: m.array_stride,
                    matrix_stride: m.matrix_stride,
                    row_major: m.row_major,
                },
                location: None,
            });
        }
        blocks.push(BlockInfo {
            name: app_name(&b.name),
            data_size: b.size,
            binding: b.binding,
            array_size: b.array_size.unwrap_or(1).max(1),
            stages: b.stages,
            members,
        });
    }

    // GL_MAX_{VERTEX,GEOMETRY,FRAGMENT}_UNIFORM_BLOCKS and GL_MAX_COMBINED_UNIFORM_BLOCKS (a
    // block used by several stages counts once per stage).
    let mut combined = 0;
    for stage in [Stage::Vertex, Stage::Geometry, Stage::Fragment] {
        let used: u32 = blocks
            .iter()
            .filter(|b| b.stages.contains(stage))
            .map(|b| b.array_size)
            .sum();
        if used > MAX_STAGE_UNIFORM_BLOCKS {
            return Err(LinkError::Log(format!(
                "ERROR: Linking: the {stage:?} stage uses {used} uniform blocks, more than GL_MAX_*_UNIFORM_BLOCKS ({MAX_STAGE_UNIFORM_BLOCKS})\n"
            )));
        }
        combined += used;
    }
    if combined > MAX_COMBINED_UNIFORM_BLOCKS {
        return Err(LinkError::Log(format!(
            "ERROR: Linking: {combined} uniform block uses, more than GL_MAX_COMBINED_UNIFORM_BLOCKS ({MAX_COMBINED_UNIFORM_BLOCKS})\n"
        )));
    }

    // Vulkan objects.
    let mut set0 = Vec::new();
    for b in &blocks {
        set0.push(
            vk::DescriptorSetLayoutBinding::default()
                .binding(b.binding)
                .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                .descriptor_count(b.array_size)
                .stage_flags(vk_stages(b.stages)),
        );
    }
    for (s, stages) in &samplers {
        set0.push(
            vk::DescriptorSetLayoutBinding::default()
                .binding(s.binding)
                .descriptor_type(sampler_descriptor_type(s.ty.dim))
                .descriptor_count(s.count)
                .stage_flags(vk_stages(*stages)),
        );
    }
    let set1: Vec<_> = if default_block_size > 0 {
        vec![vk::DescriptorSetLayoutBinding::default()
            .binding(glsl::DEFAULT_BLOCK_BINDING)
            .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC)
            .descriptor_count(1)
            .stage_flags(vk_stages(default_block_stages))]
    } else {
        Vec::new()
    };
    // Each object goes through the manager: the `pipeline` fault rules apply, out of memory
    // runs the ladder's first rung, device loss latches; what is left is transient.
    let mut objects = VkObjects::new(device.clone());
    for stage in &program.stages {
        let info = vk::ShaderModuleCreateInfo::default().code(&stage.spirv);
        let m = create_object(device, |raw| {
            // SAFETY: valid device; the SPIR-V came from glslang and passed its validation.
            unsafe { raw.create_shader_module(&info, None) }
        })?;
        objects.modules.push((stage.stage, m));
    }
    for (i, bindings) in [set0, set1].iter().enumerate() {
        let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(bindings);
        objects.set_layouts[i] = create_object(device, |raw| {
            // SAFETY: valid device; bindings are unique per set (the compiler guarantees it).
            unsafe { raw.create_descriptor_set_layout(&info, None) }
        })?;
    }
    let info = vk::PipelineLayoutCreateInfo::default().set_layouts(&objects.set_layouts);
    let layout = create_object(device, |raw| {
        // SAFETY: valid device; both set layouts were just created.
        unsafe { raw.create_pipeline_layout(&info, None) }
    })?;
    objects.pipeline_layout = layout;

    let frag_outputs = r
        .frag_outputs
        .iter()
        .map(|o| (app_name(&o.name), o.location, o.index))
        .collect();
    let (modules, set_layouts, pipeline_layout) = objects.take();
    let linked = Linked {
        modules,
        attribs,
        uniforms,
        locations,
        default_block_size,
        blocks,
        samplers: samplers.into_iter().map(|(s, _)| s).collect(),
        set_layouts,
        pipeline_layout,
        frag_outputs,
        ff_uniforms,
        initializers,
        frag_coord_upper_left: program.frag_coord.origin_upper_left,
        legacy_depth_mode,
        frag_epilogue,
        id: NEXT_PROGRAM_ID.fetch_add(1, Ordering::Relaxed),
        pipelines_built: AtomicBool::new(false),
        device: device.clone(),
    };
    Ok((linked, program.info_log))
}

/// One Vulkan object of a link, created through the manager (fault plan, ladder, latch).
fn create_object<T>(
    device: &Device,
    create: impl FnMut(&ash::Device) -> Result<T, vk::Result>,
) -> Result<T, LinkError> {
    device
        .lock()
        .manager
        .create_link_object(create)
        .map_err(LinkError::Memory)
}

/// Vulkan objects of a link in progress, destroyed if the link fails half-way (and those of a
/// deleted program no command used).
struct VkObjects {
    device: Arc<Device>,
    modules: Vec<(Stage, vk::ShaderModule)>,
    set_layouts: [vk::DescriptorSetLayout; 2],
    pipeline_layout: vk::PipelineLayout,
}

impl VkObjects {
    fn new(device: Arc<Device>) -> Self {
        Self {
            device,
            modules: Vec::new(),
            set_layouts: [vk::DescriptorSetLayout::null(); 2],
            pipeline_layout: vk::PipelineLayout::null(),
        }
    }

    /// The objects as deferred garbage (nothing is destroyed when `self` drops then).
    fn into_garbage(self) -> Vec<Garbage> {
        let (modules, set_layouts, pipeline_layout) = self.take();
        let mut out: Vec<Garbage> = modules
            .into_iter()
            .map(|(_, m)| Garbage::ShaderModule(m))
            .collect();
        out.extend(
            set_layouts
                .into_iter()
                .filter(|l| *l != vk::DescriptorSetLayout::null())
                .map(Garbage::SetLayout),
        );
        if pipeline_layout != vk::PipelineLayout::null() {
            out.push(Garbage::PipelineLayout(pipeline_layout));
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
        let raw = self.device.raw();
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
    /// `glGetUniformLocation`.
    pub(crate) fn uniform_location(&self, name: &str) -> i32 {
        for u in &self.uniforms {
            let Some(loc) = u.location else { continue };
            if u.name == name {
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
            if b.array_size > 1 {
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
        let Some(u) = usize::try_from(location)
            .ok()
            .and_then(|l| linked.locations.get(l))
            .map(|&(i, _)| &linked.uniforms[i])
        else {
            continue;
        };
        let Some((scalar, columns, rows)) = u.ty.shape() else {
            continue;
        };
        let per = (columns * rows) as usize;
        let count = (init.values.len() / per).min(u.size as usize);
        if count == 0 {
            continue;
        }
        let values = &init.values[..count * per];
        let r = if columns > 1 {
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
            let (kind, words): (ValueKind, Vec<u32>) = match scalar {
                ScalarKind::Int => (
                    ValueKind::Int,
                    values.iter().map(|&v| v as i32 as u32).collect(),
                ),
                ScalarKind::UInt => (ValueKind::UInt, values.iter().map(|&v| v as u32).collect()),
                _ => (
                    ValueKind::Float,
                    values.iter().map(|&v| (v as f32).to_bits()).collect(),
                ),
            };
            set_uniform(program, location, kind, rows, count as i32, &words)
        };
        if let Err(e) = r {
            tracing::debug!(uniform = init.name, error = ?e, "uniform initializer not applied");
        }
    }
}

/// The value kinds of `glUniform*` calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    Float,
    Int,
    UInt,
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
    if count < 0 {
        return invalid_value(format!("glUniform count {count}"));
    }
    if location == -1 {
        return Ok(()); // silently ignored, per the spec
    }
    let linked = program.linked("glUniform")?.clone();
    let Some(&(index, element)) = usize::try_from(location)
        .ok()
        .and_then(|l| linked.locations.get(l))
    else {
        return invalid_op(format!(
            "glUniform: location {location} is not a uniform of the current program"
        ));
    };
    let u = &linked.uniforms[index];
    if count > 1 && u.size == 1 {
        return invalid_op(format!(
            "glUniform: count {count} for the non-array uniform {}",
            u.name
        ));
    }
    let n = (count as u32).min(u.size - element);
    match (u.storage, u.ty) {
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
            let slots = &mut program.sampler_units[s];
            for (i, v) in units.into_iter().enumerate() {
                if let Some(slot) = slots.get_mut(element as usize + i) {
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
            let ok = rows == components
                && matches!(
                    (scalar, kind),
                    (ScalarKind::Float, ValueKind::Float)
                        | (ScalarKind::Int, ValueKind::Int)
                        | (ScalarKind::UInt, ValueKind::UInt | ValueKind::Int)
                        | (ScalarKind::Bool, _)
                );
            if !ok {
                return invalid_op(format!(
                    "glUniform{components}{} does not match {} of type {:?}",
                    match kind {
                        ValueKind::Float => "f",
                        ValueKind::Int => "i",
                        ValueKind::UInt => "ui",
                    },
                    u.name,
                    ty
                ));
            }
            let stride = if array_stride == 0 { 16 } else { array_stride };
            for i in 0..n {
                let at = (offset + (element + i) * stride) as usize;
                for c in 0..components as usize {
                    let mut word = data[(i * components) as usize + c];
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
    if count < 0 {
        return invalid_value(format!("glUniformMatrix count {count}"));
    }
    if location == -1 {
        return Ok(());
    }
    let linked = program.linked("glUniformMatrix")?.clone();
    let Some(&(index, element)) = usize::try_from(location)
        .ok()
        .and_then(|l| linked.locations.get(l))
    else {
        return invalid_op(format!(
            "glUniformMatrix: location {location} is not a uniform of the current program"
        ));
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
    if u.ty.shape() != Some((ScalarKind::Float, columns, rows)) {
        return invalid_op(format!(
            "glUniformMatrix{columns}x{rows}fv does not match {} of type {:?}",
            u.name, u.ty
        ));
    }
    if count > 1 && u.size == 1 {
        return invalid_op(format!(
            "glUniformMatrix: count {count} for the non-array uniform {}",
            u.name
        ));
    }
    let n = (count as u32).min(u.size - element);
    let mstride = if matrix_stride == 0 {
        16
    } else {
        matrix_stride
    };
    let astride = if array_stride == 0 {
        mstride * columns
    } else {
        array_stride
    };
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
                    base + (r * mstride + c * 4) as usize
                } else {
                    base + (c * mstride + r * 4) as usize
                };
                write_word(&mut program.uniform_data, at, value.to_bits());
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

/// Texture units a context has (`GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS`).
pub const MAX_TEXTURE_UNITS: u32 = 48;

/// Why `linked` with texture units `units` (per sampler, per element) cannot draw: two active
/// samplers of different types read one texture unit, which GL 3.3 §2.11.7 forbids (the draw
/// is `GL_INVALID_OPERATION`, `glValidateProgram` fails). Types are told apart by the texture
/// target they read, as Mesa does: `sampler2D`, `isampler2D` and `sampler2DShadow` may share a
/// unit, `sampler2D` and `sampler3D` may not.
pub(crate) fn sampler_unit_conflict(linked: &Linked, units: &[Vec<u32>]) -> Option<String> {
    let mut seen: [Option<SamplerType>; MAX_TEXTURE_UNITS as usize] =
        [None; MAX_TEXTURE_UNITS as usize];
    for (s, elements) in linked.samplers.iter().zip(units) {
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
