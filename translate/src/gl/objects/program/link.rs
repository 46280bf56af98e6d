//! `glLinkProgram`'s work, in phases with a small value between each:
//!
//! 1. [`SourceFacts`]: what only the application's own sources tell (uniform initializers,
//!    boolean members, whether every unit is legacy GLSL), read before anything is rewritten.
//! 2. [`prepare`]: the units upgraded (`glsl::legacy`, with the context's profile rules), a
//!    missing vertex or fragment stage supplied, the fragment epilogue added, and the vertex
//!    stage wrapped for Vulkan's depth range.
//! 3. [`compile`]: glslang links every unit together; dual-source outputs are checked.
//! 4. [`assign_attributes`]: GL locations for the vertex inputs.
//! 5. [`Interface::reflect`]: the uniform interface as GL reports it — located uniforms of the
//!    default block and samplers, named blocks and their members, built-in state — and the
//!    uniform-block limits.
//! 6. [`vulkan_layout`]: shader modules, the two descriptor-set layouts and the pipeline
//!    layout, each created through the manager; a failure half-way destroys what was made.
//!
//! [`link_bound`] runs them in order and assembles the [`Linked`] program.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use ash::vk;

use super::binary::{Code, LayoutBinding, LinkInput};
use super::{
    error_log, sampler_descriptor_type, vk_stages, ActiveAttrib, ActiveUniform, BlockInfo,
    FfUniform, LinkError, Linked, SamplerInfo, UniformStorage, VkObjects,
};
use crate::gl::context::limits::ShaderLimits;
use crate::gl::objects::vertex_array::FfArray;
use crate::gl::vk::device::Device;
use crate::glsl::frag_epilogue::{self, Written};
use crate::glsl::initializers::Initializer;
use crate::glsl::layout_bindings::{explicit_bindings, Declared};
use crate::glsl::legacy::{self, Varyings};
use crate::glsl::Dialect;
use crate::glsl::{
    self, CompileOptions, GlType, Reflection, SamplerUniform, ScalarKind, Stage, StageMask,
    UniformBlock,
};
use arenagl_memory::MemoryError;

static NEXT_PROGRAM_ID: AtomicU64 = AtomicU64::new(1);

/// A new program's unique id (`Linked::id`).
pub(super) fn next_program_id() -> u64 {
    NEXT_PROGRAM_ID.fetch_add(1, Ordering::Relaxed)
}

/// Links `units` into a program's interface and Vulkan layout: for the programs ArenaGL links
/// for itself, whose sources follow the compatibility profile's rules.
pub(crate) fn link(
    device: &Arc<Device>,
    units: &[(Stage, String)],
    attrib_bindings: &HashMap<String, u32>,
    max_attribs: u32,
) -> Result<(Linked, String), LinkError> {
    let input = LinkInput {
        units: units.to_vec(),
        attrib_bindings: attrib_bindings.clone(),
        ..LinkInput::default()
    };
    link_bound(
        device,
        &input,
        max_attribs,
        // ArenaGL's own programs, which may use any GLSL glslang compiles.
        Dialect::Compatibility {
            glsl: glsl::version::NEWEST,
        },
        None,
    )
}

/// [`link`] of the application's units with its bindings (attributes, fragment outputs
/// (`glBindFragDataLocation*`), captured varyings) and `GL_PROGRAM_SEPARABLE`, for a context
/// compiling `dialect` and offering the GLSL extensions `offered` (`None`: all glslang knows):
/// the program and glslang's info log. A separable program's stages are not checked against the
/// stages a link supplies (another program's stages will face them).
pub(crate) fn link_bound(
    device: &Arc<Device>,
    input: &LinkInput,
    max_attribs: u32,
    dialect: Dialect,
    offered: Option<glsl::ExtensionSet>,
) -> Result<(Linked, String), LinkError> {
    let attrib_bindings = &input.attrib_bindings;
    let (facts, frag_epilogue, mut program, xfb) = if input.spirv.is_empty() {
        compile_glsl(input, dialect, offered)?
    } else {
        link_spirv(input)?
    };
    program
        .remap_geometry_depth()
        .map_err(|e| LinkError::Log(error_log(&e)))?;
    check_varyings(device, &program)?;
    if device.caps().gl4.shader_draw_parameters {
        // GL_ARB_base_instance: gl_InstanceID counts from 0 (`glsl::instance_id`).
        program
            .count_instances_from_base()
            .map_err(|e| LinkError::Log(error_log(&e)))?;
        // GL_ARB_shader_draw_parameters: gl_BaseVertexARB and gl_DrawIDARB take GL's values
        // from the draw's push constants (`glsl::draw_parameters`).
        program
            .correct_draw_parameters()
            .map_err(|e| LinkError::Log(error_log(&e)))?;
    }
    // Subgroup votes where the device's stage votes, else groups of one (`glsl::group_vote`).
    let voting = device.caps().gl4.subgroup_vote_stages;
    program
        .lower_group_votes(|stage| voting & vk_stages(glsl::StageMask::of(stage)).as_raw() != 0)
        .map_err(|e| LinkError::Log(error_log(&e)))?;
    // Sampler/image/block arrays indexed where the device cannot (`glsl::array_index`).
    program
        .lower_array_indexing(indexable(&device.caps().gl4))
        .map_err(|e| LinkError::Log(error_log(&e)))?;
    // Vertex inputs packed (unused locations take no Vulkan location), wide double ones take
    // two, doubles are read through `uvec`s (`glsl::wide_inputs`, `glsl::double_inputs`).
    let stretch = program
        .lower_double_vertex_inputs()
        .map_err(|e| LinkError::Log(error_log(&e)))?;
    let r = &program.reflection;
    let mut attribs = assign_attributes(r, attrib_bindings, max_attribs)?;
    for a in &mut attribs {
        a.shader_location = stretch.location(a.shader_location);
    }
    check_vulkan_inputs(device, &attribs)?;
    let mut interface = Interface::reflect(r, &facts)?;
    interface.check_block_limits(&ShaderLimits::of(&device.caps().limits))?;
    crate::gl::compute::check_local_size(device, r.local_size)?;
    interface.storage = crate::gl::compute::storage_block_infos(device, r, &facts.explicit)?;
    interface.images = crate::gl::compute::image_infos(r, &facts.explicit);
    interface.add_images();
    interface.place_explicit_locations(&facts.explicit_locations)?;
    let pass_through = pass_through_control(&program)?;
    let code = Code {
        stages: program
            .stages
            .iter()
            .map(|s| (s.stage, s.spirv.clone()))
            .collect(),
        sets: interface
            .set_layout_bindings()
            .map(|set| set.iter().map(LayoutBinding::of).collect()),
    };
    let objects = vulkan_layout(device, &code)?;
    let frag_outputs = r
        .frag_outputs
        .iter()
        .map(|o| (app_name(&o.name), o.location, o.index))
        .collect();
    let frag_output_types = r
        .frag_outputs
        .iter()
        .map(|o| (o.ty, o.array_size))
        .collect();
    let generation = objects.generation();
    let (modules, set_layouts, pipeline_layout) = objects.take();
    let linked = Linked {
        modules,
        frag_output_types,
        attribs,
        uniforms: interface.uniforms,
        locations: interface.locations,
        default_block_size: interface.default_block_size,
        blocks: interface.blocks,
        samplers: interface.samplers.into_iter().map(|(s, _)| s).collect(),
        storage_blocks: interface.storage,
        images: interface.images,
        local_size: r.local_size,
        set_layouts,
        pipeline_layout,
        frag_outputs,
        ff_uniforms: interface.ff_uniforms,
        initializers: facts.initializers,
        frag_coord_upper_left: program.frag_coord.origin_upper_left,
        legacy_depth_mode: facts.legacy_depth_mode,
        frag_epilogue,
        blend_support: glsl::blend_advanced::program_support(&input.units),
        tess: glsl::tess::TessLayout::of_stages(
            program.stages.iter().map(|s| (s.stage, s.spirv.as_slice())),
        ),
        pass_through,
        writes_viewport_index: glsl::layer_viewport::writes_viewport_index(
            program.stages.iter().map(|s| (s.stage, s.spirv.as_slice())),
        ),
        pushes_draw_parameters: glsl::draw_parameters::pushed(
            program.stages.iter().map(|s| (s.stage, s.spirv.as_slice())),
        ),
        geometry: program
            .stage(Stage::Geometry)
            .map(|g| glsl::geometry::GeometryLayout::of(&g.spirv)),
        xfb,
        subroutines: program.subroutines.clone(),
        code,
        id: next_program_id(),
        pipelines_built: AtomicBool::new(false),
        generation,
        device: device.clone(),
    };
    Ok((linked, program.info_log))
}

/// The program glslang links from the application's GLSL units: what the sources tell, whether
/// the fragment stage ends in the epilogue, the program, and what transform feedback captures.
fn compile_glsl(
    input: &LinkInput,
    dialect: Dialect,
    offered: Option<glsl::ExtensionSet>,
) -> Result<Compiled, LinkError> {
    let units = &input.units;
    let facts = SourceFacts::read(units);
    let prepared = prepare(units, dialect, input.separable)?;
    let mut program = compile(&prepared, input, offered)?;
    let xfb = match capture_feedback(&prepared, &program, input, offered)? {
        Some((layout, captured)) => {
            program = captured;
            Some(layout)
        }
        None => None,
    };
    Ok((facts, prepared.frag_epilogue, program, xfb))
}

/// What [`compile_glsl`] and [`link_spirv`] give the link: the facts, whether the fragment stage
/// ends in the epilogue, the program, what transform feedback captures.
type Compiled = (
    SourceFacts,
    bool,
    glsl::Program,
    Option<glsl::xfb::XfbLayout>,
);

/// [`compile_glsl`] for a program of SPIR-V shaders (GL_ARB_gl_spirv, `glsl::gl_spirv`): no
/// epilogue; what the modules declare is captured.
fn link_spirv(input: &LinkInput) -> Result<Compiled, LinkError> {
    if !input.units.is_empty() {
        return Err(LinkError::Log(
            "ERROR: Linking: a program's shaders must be all SPIR-V or all GLSL\n".into(),
        ));
    }
    let has = |stage: Stage| input.spirv.iter().any(|(s, _)| *s == stage);
    if !has(Stage::Compute) && !input.separable && !has(Stage::Vertex) {
        return Err(LinkError::Log(
            "ERROR: Linking: a SPIR-V program needs a vertex shader\n".into(),
        ));
    }
    let (program, mut facts) =
        glsl::gl_spirv::link_program(&input.spirv).map_err(|e| LinkError::Log(error_log(&e)))?;
    let xfb = facts.xfb.take();
    Ok((SourceFacts::of_spirv(facts), false, program, xfb))
}

// ---- 1. what the application's sources tell --------------------------------------------------

/// Read from the application's sources before any rewrite: the names are its own, not the
/// upgrader's.
struct SourceFacts {
    /// Initial values of loose uniforms (glslang drops initializers).
    initializers: Vec<Initializer>,
    /// Every unit is GLSL 1.10/1.20 (see [`Linked::legacy_depth_mode`]).
    legacy_depth_mode: bool,
    /// Loose uniforms declared `bool`/`bvecN`, which the default block stores as `uint`s.
    loose_bools: Vec<(String, u32)>,
    /// Block members declared `bool`/`bvecN`, which SPIR-V stores as `uint`s.
    bool_members: Vec<(String, u32)>,
    /// `layout(binding = N)` of samplers, images and blocks (GL_ARB_shading_language_420pack).
    explicit: Vec<(Declared, u32)>,
    /// `layout(location = N) uniform` (GL_ARB_explicit_uniform_location): name, location.
    explicit_locations: Vec<(String, u32)>,
}

impl SourceFacts {
    fn read(units: &[(Stage, String)]) -> Self {
        Self {
            initializers: units
                .iter()
                .flat_map(|(_, src)| glsl::initializers::uniform_initializers(src))
                .collect(),
            legacy_depth_mode: units
                .iter()
                .all(|(_, src)| legacy::source_version(src) < 130),
            loose_bools: units
                .iter()
                .flat_map(|(_, src)| glsl::loose_bool_uniforms(src))
                .collect(),
            bool_members: units
                .iter()
                .flat_map(|(_, src)| glsl::block_bool_members(src))
                .collect(),
            explicit: units
                .iter()
                .flat_map(|(_, src)| explicit_bindings(src))
                .collect(),
            explicit_locations: units
                .iter()
                .flat_map(|(_, src)| glsl::rendezvous::explicit_uniform_locations(src))
                .collect(),
        }
    }

    /// What a SPIR-V program's modules tell (`glsl::gl_spirv::Facts`).
    fn of_spirv(facts: glsl::gl_spirv::Facts) -> Self {
        Self {
            initializers: facts.initializers,
            legacy_depth_mode: false,
            loose_bools: facts.loose_bools,
            bool_members: Vec::new(),
            explicit: facts.bindings,
            explicit_locations: facts.explicit_locations,
        }
    }

    /// The explicit binding of the sampler or block `declared` names (0 without one).
    fn binding_of(&self, declared: &Declared) -> u32 {
        self.explicit
            .iter()
            .find_map(|(d, b)| (d == declared).then_some(*b))
            .unwrap_or(0)
    }
}

// ---- 2. the units glslang compiles -----------------------------------------------------------

/// The units as glslang links them.
pub(crate) struct Prepared {
    /// Upgraded, completed with the stages the program lacks, the vertex stage wrapped.
    pub(crate) sources: Vec<(Stage, String)>,
    /// The fragment stage ends in the epilogue (`glsl::frag_epilogue`).
    pub(crate) frag_epilogue: bool,
}

/// Upgrades and completes `units` (see [`upgrade_units`]) and wraps the vertex stage (see
/// [`link_sources`]); a program that ends up without a vertex or a fragment stage does not link,
/// unless it is `separable` (its stages join other programs' in a program pipeline).
fn prepare(
    units: &[(Stage, String)],
    dialect: Dialect,
    separable: bool,
) -> Result<Prepared, LinkError> {
    if units.iter().any(|(s, _)| *s == Stage::Compute) {
        return crate::gl::compute::prepare_compute(units, |src| for_profile(src, dialect));
    }
    if !separable {
        check_tessellation_stages(units)?;
    }
    let (mut upgraded, frag_epilogue) = upgrade_units(units, dialect);
    // GL_KHR_blend_equation_advanced: a stage declaring `blend_support` blends in a wrapper of
    // its `main` (`glsl::blend_advanced`).
    let mut fragments: Vec<&mut String> = upgraded
        .iter_mut()
        .filter(|(s, _)| *s == Stage::Fragment)
        .map(|(_, src)| src)
        .collect();
    if !frag_epilogue {
        glsl::blend_advanced::add_blending(&mut fragments);
    }
    // `upgrade_units` supplies a missing vertex or fragment stage; a program with neither (only
    // geometry shaders, or nothing) cannot draw.
    if units.is_empty()
        || !separable
            && (!upgraded.iter().any(|(s, _)| *s == Stage::Vertex)
                || !upgraded.iter().any(|(s, _)| *s == Stage::Fragment))
    {
        return Err(LinkError::Log(
            "ERROR: Linking: a program needs a vertex or a fragment shader\n".into(),
        ));
    }
    Ok(Prepared {
        sources: link_sources(&upgraded),
        frag_epilogue,
    })
}

/// GL_ARB_tessellation_shader's linking rules, on the application's units: a control stage
/// needs an evaluation stage, and tessellation stages need a vertex stage (no fixed-function
/// one is supplied to them). An evaluation stage alone is legal: see [`pass_through_control`].
fn check_tessellation_stages(units: &[(Stage, String)]) -> Result<(), LinkError> {
    let has = |stage: Stage| units.iter().any(|(s, _)| *s == stage);
    let why = if has(Stage::TessControl) && !has(Stage::TessEvaluation) {
        "a tessellation control shader needs a tessellation evaluation shader"
    } else if (has(Stage::TessControl) || has(Stage::TessEvaluation)) && !has(Stage::Vertex) {
        "tessellation shaders need a vertex shader"
    } else {
        return Ok(());
    };
    Err(LinkError::Log(format!("ERROR: Linking: {why}\n")))
}

/// The control stage of a program with an evaluation stage and none of its own (GL's fixed
/// function, `tess::PassThroughControl`); `None` for every other program.
fn pass_through_control(
    program: &glsl::Program,
) -> Result<Option<super::tess::PassThroughControl>, LinkError> {
    if program.stage(Stage::TessControl).is_some() {
        return Ok(None);
    }
    program
        .stage(Stage::TessEvaluation)
        .map(|tes| super::tess::PassThroughControl::new(&tes.spirv))
        .transpose()
}

/// A unit as the upgrader must see it in a context compiling `dialect` (see
/// `legacy::for_core_profile`, `glsl::es::for_es`); desktop units with their line
/// continuations joined (`glsl::join_continued_lines`: GL takes them in every GLSL version).
pub(super) fn for_profile(source: &str, dialect: Dialect) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    // Versions above the context's are marked first, so that is the reason their log gives.
    let desktop = |ceiling: u32, core: bool| {
        let joined = glsl::join_continued_lines(source);
        let marked = glsl::version::mark_above(&joined, ceiling).map_or(joined, Cow::Owned);
        match (core, marked) {
            (false, marked) => marked,
            (true, Cow::Borrowed(s)) => legacy::for_core_profile(s),
            (true, Cow::Owned(s)) => Cow::Owned(legacy::for_core_profile(&s).into_owned()),
        }
    };
    // GL_ARB_ES3_compatibility: GLSL ES 3.00 takes the path it takes in an ES 3.0 context.
    if !matches!(dialect, Dialect::Es { .. }) && glsl::es::is_es_300(source) {
        return glsl::es::for_es(source, 300);
    }
    match dialect {
        Dialect::Core { glsl } => desktop(glsl, true),
        Dialect::Compatibility { glsl } => desktop(glsl, false),
        Dialect::Es { glsl: newest } => glsl::es::for_es(source, newest),
    }
}

/// The units glslang compiles: legacy GLSL upgraded (`glsl::legacy`, with `dialect`'s rules),
/// vertex units declaring the legacy varyings the fragment units read, and the fixed-function
/// stage a program lacks (a fragment-only program transforms by the matrices); and whether the
/// fragment stage ends in the epilogue.
fn upgrade_units(units: &[(Stage, String)], dialect: Dialect) -> (Vec<(Stage, String)>, bool) {
    let has = |stage: Stage| units.iter().any(|(s, _)| *s == stage);
    let mut all: Vec<(Stage, String)> = units
        .iter()
        .map(|(stage, src)| (*stage, for_profile(src, dialect).into_owned()))
        .collect();
    // GL links a program that lacks a stage (its results are undefined in the core profile);
    // the missing stage is the fixed-function one, which a compatibility context defines.
    if has(Stage::Vertex) && !has(Stage::Fragment) {
        all.push((Stage::Fragment, missing_fragment_stage(&all)));
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

/// The fragment stage of a program without one: the fixed-function colour pass after legacy
/// GLSL, which writes `gl_FrontColor`; an empty one after GLSL 1.40 and later, which has no
/// such output (such programs typically only capture with transform feedback).
fn missing_fragment_stage(units: &[(Stage, String)]) -> String {
    let last = [Stage::Geometry, Stage::TessEvaluation, Stage::Vertex]
        .into_iter()
        .find(|&s| units.iter().any(|(u, _)| *u == s));
    let legacy_last = units
        .iter()
        .filter(|(s, _)| Some(*s) == last)
        .all(|(_, src)| legacy::needs_upgrade(src));
    if legacy_last {
        crate::glsl::fixed_function::FF_FRAGMENT_PASS.to_owned()
    } else {
        "#version 150\nvoid main() {}\n".to_owned()
    }
}

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

/// The `main` of the last stage before rasterisation when it is the vertex or the evaluation
/// stage, around the application's: GL's depth range remapped to Vulkan's unless
/// `glClipControl` chose `GL_ZERO_TO_ONE` (`glsl::depth_remap`'s constant). The vertex stage's
/// also writes the point size from the specialization constants `vk::pipeline` sets; the
/// evaluation stage's does not (writing it from a tessellation stage needs
/// `shaderTessellationAndGeometryPointSize`; points are 1 pixel).
fn depth_wrapper(stage: Stage) -> String {
    let point_size = stage == Stage::Vertex;
    let mut s = String::from("\n");
    if point_size {
        s.push_str("layout(constant_id = 7340) const float arenagl_point_size = 1.0;\nlayout(constant_id = 7341) const bool arenagl_program_point_size = false;\n");
    }
    s.push_str(glsl::depth_remap::GLSL_DECLARATION);
    s.push_str("void arenagl_user_main();\nvoid main() {\n");
    s.push_str(WRAPPER_CALL);
    s.push_str(glsl::depth_remap::GLSL_REMAP);
    if point_size {
        s.push_str("    if (!arenagl_program_point_size) {\n        gl_PointSize = arenagl_point_size;\n    }\n");
    }
    s.push_str("}\n");
    s
}

/// The sources glslang links: the units of the last stage before rasterisation rewritten for
/// Vulkan's depth range, when that stage is the vertex or the tessellation evaluation stage.
fn link_sources(units: &[(Stage, String)]) -> Vec<(Stage, String)> {
    let has = |stage: Stage| units.iter().any(|(s, _)| *s == stage);
    // A geometry stage's SPIR-V is remapped after the link (`glsl::depth_remap`).
    let last = if has(Stage::Geometry) {
        None
    } else if has(Stage::TessEvaluation) {
        Some(Stage::TessEvaluation)
    } else {
        Some(Stage::Vertex)
    };
    let mut wrapped = false;
    units
        .iter()
        .map(|(stage, src)| match last {
            Some(wrapped_stage) if *stage == wrapped_stage => {
                let mut s = rename_main(src);
                if *stage == Stage::Vertex {
                    s = glsl::per_vertex::with_point_size_member(&s);
                }
                if !wrapped {
                    s.push_str(&depth_wrapper(wrapped_stage));
                    wrapped = true;
                }
                (*stage, s)
            }
            _ => (*stage, src.clone()),
        })
        .collect()
}

/// The wrappers' call of the application's `main`, after which transform feedback copies.
const WRAPPER_CALL: &str = "    arenagl_user_main();\n";

/// GL transform feedback (`glsl::xfb`): the captures the last vertex stage declares
/// (GL_ARB_enhanced_layouts, which override `glTransformFeedbackVaryings`) or else the
/// requested varyings, resolved against a first link's last vertex stage; then the program
/// linked again with the copies that capture them, decorated. `None`: nothing is captured.
fn capture_feedback(
    prepared: &Prepared,
    first: &glsl::Program,
    input: &LinkInput,
    offered: Option<glsl::ExtensionSet>,
) -> Result<Option<(glsl::xfb::XfbLayout, glsl::Program)>, LinkError> {
    let request = &input.xfb;
    let may_declare = glsl::xfb::may_declare(&prepared.sources);
    if request.varyings.is_empty() && !may_declare {
        return Ok(None);
    }
    let log = |e: String| LinkError::Log(format!("ERROR: Linking: {e}\n"));
    let last = [Stage::Geometry, Stage::TessEvaluation, Stage::Vertex]
        .into_iter()
        .find(|&s| first.stages.iter().any(|m| m.stage == s))
        .ok_or_else(|| log("no vertex stage".into()))?;
    let spirv = |p: &glsl::Program| p.stages.iter().position(|m| m.stage == last);
    let at = spirv(first).ok_or_else(|| log("no vertex stage".into()))?;
    let last_spirv = &first.stages[at].spirv;
    let declared = if may_declare {
        glsl::xfb::resolve_declared(last_spirv).map_err(log)?
    } else {
        None
    };
    let layout = match declared {
        Some(layout) => layout,
        None if request.varyings.is_empty() => return Ok(None),
        None => glsl::xfb::resolve(request, last_spirv).map_err(log)?,
    };
    let mut sources = prepared.sources.clone();
    glsl::xfb::add_capture(&mut sources, last, &layout, WRAPPER_CALL).map_err(log)?;
    let rewritten = Prepared {
        sources,
        frag_epilogue: prepared.frag_epilogue,
    };
    let mut program = compile(&rewritten, input, offered)?;
    let at = spirv(&program).ok_or_else(|| log("no vertex stage".into()))?;
    glsl::xfb::decorate(&mut program.stages[at].spirv, &layout).map_err(log)?;
    Ok(Some((layout, program)))
}

// ---- 3. glslang -------------------------------------------------------------------------------

/// Compiles and links the prepared units; running out of memory in the compiler is transient.
fn compile(
    prepared: &Prepared,
    input: &LinkInput,
    offered: Option<glsl::ExtensionSet>,
) -> Result<glsl::Program, LinkError> {
    let options = CompileOptions {
        separable: input.separable,
        extensions: offered,
        ..CompileOptions::default()
    };
    let refs: Vec<(Stage, &str)> = prepared
        .sources
        .iter()
        .map(|(s, c)| (*s, c.as_str()))
        .collect();
    let program =
        glsl::compile_program_bound(&refs, options, &input.frag_bindings).map_err(|e| {
            if e.is_transient() {
                LinkError::Memory(MemoryError::OutOfHostMemory)
            } else {
                LinkError::Log(error_log(&e))
            }
        })?;
    // ARB_blend_func_extended: an output of index 1 (the second colour of dual-source blending)
    // at a location of GL_MAX_DUAL_SOURCE_DRAW_BUFFERS (1) or above fails the link.
    if let Some(o) = program
        .reflection
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
    Ok(program)
}

/// Refuses a program whose varyings take more interface locations than the device offers
/// (`glsl::varying_locations`): a pipeline over the limit is invalid, and a driver may crash
/// building it. GL lets a link fail for exceeding an implementation limit.
fn check_varyings(device: &Device, program: &glsl::Program) -> Result<(), LinkError> {
    let l = &device.caps().limits;
    let views: Vec<(Stage, &[u32])> = program
        .stages
        .iter()
        .map(|s| (s.stage, s.spirv.as_slice()))
        .collect();
    let uses = glsl::varying_locations(&views).map_err(|e| LinkError::Log(error_log(&e)))?;
    for u in uses {
        let (limit, what) = match u.stage {
            Stage::Vertex => (l.max_vertex_output_components, "vertex shader's outputs"),
            Stage::TessControl => (
                l.max_tessellation_control_per_vertex_output_components,
                "tessellation control shader's outputs",
            ),
            Stage::TessEvaluation => (
                l.max_tessellation_evaluation_output_components,
                "tessellation evaluation shader's outputs",
            ),
            Stage::Geometry => (
                l.max_geometry_output_components,
                "geometry shader's outputs",
            ),
            Stage::Fragment => (l.max_fragment_input_components, "fragment shader's inputs"),
            Stage::Compute => continue,
        };
        let components = u.locations.saturating_mul(4);
        if components > limit {
            return Err(LinkError::Log(format!(
                "ERROR: Linking: the {what} take {} locations ({components} components; each \
                 varying takes whole 4-component locations here); this implementation offers \
                 {limit} components\n",
                u.locations
            )));
        }
    }
    Ok(())
}

/// The application's name of a reflected one (the upgrader's renames undone).
fn app_name(name: &str) -> String {
    name.replace(legacy::USER_PREFIX, "")
}

/// The application's name of a reflected sampler or block without any array subscript, as
/// its declaration spells it.
fn base_name(name: &str) -> String {
    let name = app_name(name);
    match name.find('[') {
        Some(at) => name[..at].to_owned(),
        None => name,
    }
}

/// The GL uniforms of a reflected array of `dims` levels (an array of arrays; see
/// `glsl::reflect`), else the one of `gl_uniform_name`, each with its size: `s[1][0]` of size 3
/// for every subscript of the levels outside the innermost, in element order (the uniforms of
/// one descriptor array, `Linked::descriptor_element`).
fn array_uniforms(name: &str, array_size: Option<u32>, dims: &[u32]) -> Vec<(String, u32)> {
    let Some((&inner, outer)) = dims.split_last() else {
        return vec![(
            gl_uniform_name(name, array_size),
            array_size.unwrap_or(1).max(1),
        )];
    };
    let mut names = vec![app_name(name)];
    for &d in outer {
        names = names
            .iter()
            .flat_map(|n| (0..d).map(move |i| format!("{n}[{i}]")))
            .collect();
    }
    names
        .into_iter()
        .map(|n| (format!("{n}[0]"), inner))
        .collect()
}

/// GL's name of a reflected uniform: the application's, arrays ending in `[0]`.
fn gl_uniform_name(name: &str, array_size: Option<u32>) -> String {
    if array_size.is_some() {
        format!("{}[0]", app_name(name))
    } else {
        app_name(name)
    }
}

// ---- 4. vertex inputs ---------------------------------------------------------------------------

/// Locations a vertex input of `ty` (with `array_size`) spans.
fn attrib_slots(ty: GlType, array_size: Option<u32>) -> u32 {
    let columns = ty.shape().map_or(1, |(_, c, _)| c);
    columns * array_size.unwrap_or(1).max(1)
}

/// The Vulkan locations (and bindings: one each) the vertex inputs take once packed and
/// stretched (`glsl::wide_inputs`) fit the device: generic inputs, double ones, and the
/// fixed-function arrays an upgraded legacy shader reads, together.
fn check_vulkan_inputs(device: &Device, attribs: &[ActiveAttrib]) -> Result<(), LinkError> {
    let l = &device.caps().limits;
    let limit = l
        .max_vertex_input_attributes
        .min(l.max_vertex_input_bindings);
    let end = attribs
        .iter()
        .map(|a| a.shader_location + a.slots * glsl::wide_inputs::vulkan_slots(a.ty))
        .max()
        .unwrap_or(0);
    if end > limit {
        return Err(LinkError::Log(format!(
            "ERROR: Linking: the vertex inputs take {end} Vulkan locations (a dvec3 or dvec4 \
             takes two, and each gl_Vertex, gl_Color, … read one); this device reads {limit}\n"
        )));
    }
    Ok(())
}

/// Whether `slots` locations from `loc` are in range and free.
fn fits(taken: &[bool], loc: u32, slots: u32) -> bool {
    let end = loc as usize + slots as usize;
    end <= taken.len() && !taken[loc as usize..end].iter().any(|&t| t)
}

/// Takes `slots` locations from `loc` when they fit.
fn claim(taken: &mut [bool], loc: u32, slots: u32) -> bool {
    if !fits(taken, loc, slots) {
        return false;
    }
    taken[loc as usize..loc as usize + slots as usize]
        .iter_mut()
        .for_each(|t| *t = true);
    true
}

/// The active vertex inputs with their GL locations: fixed-function inputs read their own
/// slots past the generic ones; the others take their bound location first, then the
/// compiler's where free, then the next free slots. When that leaves no room (glslang places
/// inputs without a `layout(location)` where it likes, which can split the free slots: three
/// inputs of 20, 3 and 1 locations in 32), the inputs without a bound location are placed
/// again, largest first, in the free slots.
fn assign_attributes(
    r: &Reflection,
    attrib_bindings: &HashMap<String, u32>,
    max_attribs: u32,
) -> Result<Vec<ActiveAttrib>, LinkError> {
    place_attributes(r, attrib_bindings, max_attribs, true)
        .or_else(|_| place_attributes(r, attrib_bindings, max_attribs, false))
}

/// [`assign_attributes`], keeping the compiler's locations where free when `compiler_first`,
/// else placing the unbound inputs largest first.
fn place_attributes(
    r: &Reflection,
    attrib_bindings: &HashMap<String, u32>,
    max_attribs: u32,
    compiler_first: bool,
) -> Result<Vec<ActiveAttrib>, LinkError> {
    let mut taken = vec![false; max_attribs as usize];
    let mut attribs: Vec<ActiveAttrib> = r
        .attributes
        .iter()
        .map(|a| {
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
    for a in attribs.iter_mut().filter(|a| a.gl_location == u32::MAX) {
        if let Some(&loc) = attrib_bindings.get(&a.name) {
            if !claim(&mut taken, loc, a.slots) {
                return Err(LinkError::Log(format!(
                    "ERROR: Linking: attribute {} bound to location {loc}, which is taken or out of range\n",
                    a.name
                )));
            }
            a.gl_location = loc;
        }
    }
    for a in attribs.iter_mut().filter(|a| a.gl_location == u32::MAX) {
        if compiler_first && claim(&mut taken, a.shader_location, a.slots) {
            a.gl_location = a.shader_location;
        }
    }
    let mut unplaced: Vec<&mut ActiveAttrib> = attribs
        .iter_mut()
        .filter(|a| a.gl_location == u32::MAX)
        .collect();
    if !compiler_first {
        unplaced.sort_by_key(|a| std::cmp::Reverse(a.slots));
    }
    for a in unplaced {
        let Some(free) = (0..max_attribs).find(|&l| fits(&taken, l, a.slots)) else {
            return Err(LinkError::Log(format!(
                "ERROR: Linking: no room for attribute {} ({} locations) among \
                 GL_MAX_VERTEX_ATTRIBS {max_attribs}\n",
                a.name, a.slots
            )));
        };
        claim(&mut taken, free, a.slots);
        a.gl_location = free;
    }
    Ok(attribs)
}

// ---- 5. the uniform interface ------------------------------------------------------------------

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

/// The program's uniforms as GL reports them, and where their values live.
#[derive(Default)]
struct Interface {
    /// Default-block members and samplers first (they have locations, in order), then the
    /// members of named blocks.
    uniforms: Vec<ActiveUniform>,
    /// location → (uniform index, array element).
    locations: Vec<(usize, u32)>,
    /// Sampler descriptors and the stages that read them.
    samplers: Vec<(SamplerInfo, StageMask)>,
    blocks: Vec<BlockInfo>,
    /// Built-in state of upgraded legacy GLSL, stored in the default block.
    ff_uniforms: Vec<FfUniform>,
    default_block_size: u32,
    default_block_stages: StageMask,
    /// Storage and atomic-counter blocks (`compute::storage_block_infos`).
    storage: Vec<crate::gl::compute::StorageBlockInfo>,
    /// Image uniforms (`compute::image_infos`).
    images: Vec<crate::gl::compute::ImageInfo>,
}

impl Interface {
    /// GL_ARB_explicit_uniform_location: the located uniforms moved to their
    /// `layout(location = N)` (`uniform_locations`), the others around them.
    fn place_explicit_locations(&mut self, explicit: &[(String, u32)]) -> Result<(), LinkError> {
        if explicit.is_empty() {
            return Ok(());
        }
        self.locations = super::uniform_locations::place(&mut self.uniforms, explicit)
            .map_err(|why| LinkError::Log(format!("ERROR: Linking: {why}\n")))?;
        Ok(())
    }

    /// The interface of reflection `r`, in GL's order: default-block members, samplers, then
    /// named-block members.
    fn reflect(r: &Reflection, facts: &SourceFacts) -> Result<Self, LinkError> {
        let mut interface = Self::default();
        if let Some(b) = &r.default_block {
            interface.add_default_block(b, &facts.loose_bools);
        }
        interface.add_samplers(&r.samplers, facts);
        interface.add_blocks(&r.uniform_blocks, facts);
        Ok(interface)
    }

    /// Adds a uniform with one location per element.
    fn push_located(&mut self, name: String, ty: GlType, size: u32, storage: UniformStorage) {
        let index = self.uniforms.len();
        let location = self.locations.len() as i32;
        self.locations.extend((0..size).map(|e| (index, e)));
        self.uniforms.push(ActiveUniform {
            name,
            ty,
            size,
            storage,
            location: Some(location),
        });
    }

    /// The loose uniforms: located ones for the application's, [`FfUniform`]s (no location,
    /// filled per draw; not active, as Mesa reports them) for built-in state.
    fn add_default_block(&mut self, block: &UniformBlock, loose_bools: &[(String, u32)]) {
        for m in &block.members {
            let size = m.array_size.unwrap_or(1).max(1);
            if let Some(builtin) = m.name.strip_prefix(legacy::FF_PREFIX) {
                self.ff_uniforms.push(FfUniform {
                    name: builtin.to_owned(),
                    offset: m.offset,
                    array_stride: m.array_stride,
                    matrix_stride: m.matrix_stride,
                    count: size,
                });
                continue;
            }
            self.push_located(
                gl_uniform_name(&m.name, m.array_size),
                block_member_type(m.ty, &app_name(&m.name), loose_bools),
                size,
                UniformStorage::Default {
                    offset: m.offset,
                    array_stride: m.array_stride,
                    matrix_stride: m.matrix_stride,
                    row_major: m.row_major,
                },
            );
        }
        self.default_block_size = block.size;
        self.default_block_stages = block.stages;
    }

    /// Sampler uniforms: located, each with its descriptor.
    fn add_samplers(&mut self, samplers: &[SamplerUniform], facts: &SourceFacts) {
        for s in samplers {
            let count = s.array_size.unwrap_or(1).max(1);
            // The destinations of advanced blending are ArenaGL's: no uniform, no unit.
            if [
                glsl::blend_advanced::DST_SAMPLER,
                glsl::blend_advanced::DST_SAMPLER_MS,
            ]
            .contains(&s.name.as_str())
            {
                self.samplers.push((
                    SamplerInfo {
                        binding: s.binding,
                        ty: s.ty,
                        count: 1,
                        initial_unit: glsl::blend_advanced::DST_UNIT,
                    },
                    s.stages,
                ));
                continue;
            }
            let initial_unit = facts.binding_of(&Declared::Sampler(base_name(&s.name)));
            for (name, size) in array_uniforms(&s.name, s.array_size, &s.dims) {
                self.push_located(
                    name,
                    GlType::Sampler(s.ty),
                    size,
                    UniformStorage::Sampler(self.samplers.len()),
                );
            }
            self.samplers.push((
                SamplerInfo {
                    binding: s.binding,
                    ty: s.ty,
                    count,
                    initial_unit,
                },
                s.stages,
            ));
        }
    }

    /// Image uniforms: located, their values image units (`compute::image_unit`).
    fn add_images(&mut self) {
        let images: Vec<_> = self
            .images
            .iter()
            .map(|i| (i.name.clone(), i.ty, i.count))
            .collect();
        for (index, (name, ty, count)) in images.into_iter().enumerate() {
            let array = (count > 1).then_some(count);
            self.push_located(
                gl_uniform_name(&name, array),
                GlType::Image(ty),
                count,
                UniformStorage::Image(index),
            );
        }
    }

    /// Named uniform blocks and their members (which have no locations).
    fn add_blocks(&mut self, blocks: &[UniformBlock], facts: &SourceFacts) {
        let bool_members = &facts.bool_members;
        for b in blocks {
            let mut members = Vec::new();
            for m in &b.members {
                members.push(self.uniforms.len());
                self.uniforms.push(ActiveUniform {
                    name: gl_uniform_name(&m.name, m.array_size),
                    ty: block_member_type(m.ty, &m.name, bool_members),
                    size: m.array_size.unwrap_or(1).max(1),
                    storage: UniformStorage::Block {
                        block: self.blocks.len(),
                        offset: m.offset,
                        array_stride: m.array_stride,
                        matrix_stride: m.matrix_stride,
                        row_major: m.row_major,
                    },
                    location: None,
                });
            }
            self.blocks.push(BlockInfo {
                name: app_name(&b.name),
                data_size: b.size,
                binding: b.binding,
                array_size: b.array_size.unwrap_or(1).max(1),
                stages: b.stages,
                members,
                initial_binding: facts.binding_of(&Declared::UniformBlock(base_name(&b.name))),
                dims: b.dims.clone(),
            });
        }
    }

    /// GL_MAX_{VERTEX,TESS_*,GEOMETRY,FRAGMENT}_UNIFORM_BLOCKS and GL_MAX_COMBINED_UNIFORM_BLOCKS (a
    /// block used by several stages counts once per stage).
    fn check_block_limits(&self, limits: &ShaderLimits) -> Result<(), LinkError> {
        let stage_limit = limits.stage_uniform_blocks;
        let mut combined = 0;
        for stage in [
            Stage::Vertex,
            Stage::TessControl,
            Stage::TessEvaluation,
            Stage::Geometry,
            Stage::Fragment,
        ] {
            let used: u32 = self
                .blocks
                .iter()
                .filter(|b| b.stages.contains(stage))
                .map(|b| b.array_size)
                .sum();
            if used > stage_limit {
                return Err(LinkError::Log(format!(
                    "ERROR: Linking: the {stage:?} stage uses {used} uniform blocks, more than GL_MAX_*_UNIFORM_BLOCKS ({stage_limit})\n"
                )));
            }
            combined += used;
        }
        if combined > limits.combined_uniform_blocks {
            return Err(LinkError::Log(format!(
                "ERROR: Linking: {combined} uniform block uses, more than GL_MAX_COMBINED_UNIFORM_BLOCKS ({})\n",
                limits.combined_uniform_blocks
            )));
        }
        Ok(())
    }

    /// The descriptor-set layout bindings: set 0 holds the named blocks and the samplers, set 1
    /// the default block (a dynamic uniform buffer), when the program has loose uniforms.
    fn set_layout_bindings(&self) -> [Vec<vk::DescriptorSetLayoutBinding<'static>>; 2] {
        let blocks = self.blocks.iter().map(|b| {
            vk::DescriptorSetLayoutBinding::default()
                .binding(b.binding)
                .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                .descriptor_count(b.array_size)
                .stage_flags(vk_stages(b.stages))
        });
        let samplers = self.samplers.iter().map(|(s, stages)| {
            vk::DescriptorSetLayoutBinding::default()
                .binding(s.binding)
                .descriptor_type(sampler_descriptor_type(s.ty.dim))
                .descriptor_count(s.count)
                .stage_flags(vk_stages(*stages))
        });
        let storage = self.storage.iter().map(|b| b.layout_binding());
        let images = self.images.iter().map(|i| i.layout_binding());
        let set0 = blocks
            .chain(samplers)
            .chain(storage)
            .chain(images)
            .collect();
        let set1 = if self.default_block_size > 0 {
            vec![vk::DescriptorSetLayoutBinding::default()
                .binding(glsl::DEFAULT_BLOCK_BINDING)
                .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC)
                .descriptor_count(1)
                .stage_flags(vk_stages(self.default_block_stages))]
        } else {
            Vec::new()
        };
        [set0, set1]
    }
}

// ---- 6. the Vulkan layout -----------------------------------------------------------------------

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

/// The program's Vulkan objects: a module per stage of `code`, its set layouts, and the
/// pipeline layout (for a link, and for a program binary, `binary`). Each goes through the manager: the `pipeline` fault rules apply, out of
/// memory runs the ladder's first rung, device loss latches; what is left is transient, and
/// what was made before a failure is destroyed with the returned error.
pub(super) fn vulkan_layout(device: &Arc<Device>, code: &Code) -> Result<VkObjects, LinkError> {
    let mut objects = VkObjects::new(device.clone());
    for (stage, spirv) in &code.stages {
        let info = vk::ShaderModuleCreateInfo::default().code(spirv);
        let m = create_object(device, |raw| {
            // SAFETY: valid device; the SPIR-V came from glslang and passed its validation (a
            // program binary's passed its checksum: it is what a link here made).
            unsafe { raw.create_shader_module(&info, None) }
        })?;
        crate::gl::vk::pipeline::note_shader_module(spirv);
        objects.modules.push((*stage, m));
    }
    for (i, set) in code.sets.iter().enumerate() {
        let bindings: Vec<_> = set.iter().map(LayoutBinding::vk).collect();
        let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
        objects.set_layouts[i] = create_object(device, |raw| {
            // SAFETY: valid device; bindings are unique per set (the compiler guarantees it).
            unsafe { raw.create_descriptor_set_layout(&info, None) }
        })?;
    }
    // Every program's layout has the draw parameters' range, so layouts stay compatible.
    let push = [vk::PushConstantRange {
        stage_flags: vk::ShaderStageFlags::VERTEX,
        offset: 0,
        size: glsl::draw_parameters::PUSH_CONSTANT_BYTES,
    }];
    let info = vk::PipelineLayoutCreateInfo::default()
        .set_layouts(&objects.set_layouts)
        .push_constant_ranges(&push);
    objects.pipeline_layout = create_object(device, |raw| {
        // SAFETY: valid device; both set layouts were just created.
        unsafe { raw.create_pipeline_layout(&info, None) }
    })?;
    Ok(objects)
}

/// The descriptor arrays `gl4` lets shaders index with non-constant indices.
fn indexable(gl4: &arenagl_memory::vulkan::Gl4Features) -> glsl::array_index::Indexable {
    glsl::array_index::Indexable {
        sampled_images: gl4.shader_sampled_image_array_dynamic_indexing,
        storage_images: gl4.shader_storage_image_array_dynamic_indexing,
        uniform_buffers: gl4.shader_uniform_buffer_array_dynamic_indexing,
        storage_buffers: gl4.shader_storage_buffer_array_dynamic_indexing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_claim_whole_free_ranges() {
        let mut taken = vec![false; 4];
        assert!(claim(&mut taken, 1, 2));
        assert_eq!(taken, [false, true, true, false]);
        assert!(!fits(&taken, 0, 2) && !fits(&taken, 3, 2) && fits(&taken, 3, 1));
        assert!(!claim(&mut taken, 2, 1));
        assert!(fits(&taken, 0, 1) && !fits(&taken, 4, 1) && fits(&taken, 4, 0));
    }

    #[test]
    fn a_core_context_marks_the_compatibility_profile() {
        let compat = "#version 330 compatibility\nvoid main() {}\n";
        let (core_dialect, compat_dialect) = (
            Dialect::Core { glsl: 330 },
            Dialect::Compatibility { glsl: 330 },
        );
        assert_eq!(for_profile(compat, compat_dialect), compat);
        assert_ne!(for_profile(compat, core_dialect), compat);
        let core = "#version 330 core\nvoid main() {}\n";
        assert_eq!(for_profile(core, core_dialect), core);
        let newer = "#version 400\nvoid main() {}\n";
        assert_ne!(for_profile(newer, core_dialect), newer);
        assert_eq!(for_profile(newer, Dialect::Core { glsl: 400 }), newer);
    }
}
