//! Program pipeline objects (GL_ARB_separate_shader_objects): which separable program runs
//! each stage when no program is current (`glUseProgramStages`), and which one `glUniform*`
//! writes (`glActiveShaderProgram`). The entry points are in `api`.
//!
//! Design decisions:
//! - Each separable program links on its own (`glLinkProgram`, with the stages a link supplies
//!   to a program lacking its vertex or fragment stage). A draw through a pipeline whose stages
//!   come from one program runs that program's executable as it is.
//! - Stages of *different* programs are relinked together into one executable ([`Combined`],
//!   cached in the pipeline until one of its programs is relinked): glslang then matches the
//!   interfaces (by location, else by name, `gl_PerVertex` redeclarations included) and the
//!   depth remap lands on the last vertex-processing stage, as it must.
//! - Each program keeps its own uniform name space: a uniform or uniform block name that two
//!   stage programs declare is renamed in each of them before the combined link
//!   ([`Namespace`], `glsl::rendezvous::rename_globals`). A draw copies every stage program's
//!   uniform values, sampler and image units and block bindings into the combined executable
//!   by (renamed) name.
//! - Pipelines are container objects: each context has its own (`Context::pipelines`).

pub(crate) mod api;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::gl::context::error::{invalid_op, GlError, GlResult};
use crate::gl::context::names::Names;
use crate::gl::context::Context;
use crate::gl::draw::validate::DrawProgram;
use crate::gl::objects::program::binary::LinkInput;
use crate::gl::objects::program::{Linked, Program, UniformStorage};
use crate::glsl::{rendezvous, Stage};

/// `glUseProgramStages` bits.
pub(crate) const GL_VERTEX_SHADER_BIT: u32 = 0x0001;
pub(crate) const GL_FRAGMENT_SHADER_BIT: u32 = 0x0002;
pub(crate) const GL_GEOMETRY_SHADER_BIT: u32 = 0x0004;
pub(crate) const GL_TESS_CONTROL_SHADER_BIT: u32 = 0x0008;
pub(crate) const GL_TESS_EVALUATION_SHADER_BIT: u32 = 0x0010;
pub(crate) const GL_COMPUTE_SHADER_BIT: u32 = 0x0020;
pub(crate) const GL_ALL_SHADER_BITS: u32 = 0xFFFF_FFFF;
/// `glProgramParameteri` / `glGetProgramiv`.
pub(crate) const GL_PROGRAM_SEPARABLE: u32 = 0x8258;
/// `glGetProgramPipelineiv`.
pub(crate) const GL_ACTIVE_PROGRAM: u32 = 0x8259;
/// `glGet`.
pub(crate) const GL_PROGRAM_PIPELINE_BINDING: u32 = 0x825A;

/// The stages a pipeline holds, in pipeline order, with their `glUseProgramStages` bits.
pub(crate) const STAGES: [(Stage, u32); 6] = [
    (Stage::Vertex, GL_VERTEX_SHADER_BIT),
    (Stage::TessControl, GL_TESS_CONTROL_SHADER_BIT),
    (Stage::TessEvaluation, GL_TESS_EVALUATION_SHADER_BIT),
    (Stage::Geometry, GL_GEOMETRY_SHADER_BIT),
    (Stage::Fragment, GL_FRAGMENT_SHADER_BIT),
    (Stage::Compute, GL_COMPUTE_SHADER_BIT),
];

/// The slot of `stage` in [`STAGES`] (and in [`ProgramPipeline::stages`]).
pub(crate) fn slot(stage: Stage) -> usize {
    STAGES.iter().position(|(s, _)| *s == stage).unwrap_or(0)
}

/// One program pipeline object.
#[derive(Default)]
pub(crate) struct ProgramPipeline {
    /// The program of each stage of [`STAGES`] (0: none).
    pub stages: [u32; 6],
    /// `glActiveShaderProgram`: the program `glUniform*` writes with no program current.
    pub active_program: u32,
    pub validate_status: bool,
    pub log: String,
    combined: Option<Combined>,
}

/// The stages of several programs linked together, and the executables it was made from.
struct Combined {
    /// `Linked::id` of each slot's program (0: none).
    key: [u64; 6],
    linked: Arc<Linked>,
    namespaces: Vec<Namespace>,
}

/// How one stage program's uniform names read in a combined executable: the names it shares
/// with another stage program carry its own suffix there.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Namespace {
    program: u32,
    suffix: String,
    renamed: HashSet<String>,
}

impl Namespace {
    /// `name` (a uniform's GL name, `a.b[2]`, or a block's) in the combined executable.
    fn map(&self, name: &str) -> String {
        let end = name.find(['.', '[']).unwrap_or(name.len());
        if self.renamed.contains(&name[..end]) {
            format!("{}{}{}", &name[..end], self.suffix, &name[end..])
        } else {
            name.to_owned()
        }
    }
}

/// A context's pipeline objects and its binding (`glBindProgramPipeline`).
#[derive(Default)]
pub(crate) struct Pipelines {
    pub names: Names<ProgramPipeline>,
    pub bound: u32,
}

/// A graphics slot's program as a draw sees it.
struct StageProgram<'a> {
    program: &'a Program,
    linked: &'a Arc<Linked>,
    input: &'a LinkInput,
}

impl Context {
    /// The program `glUniform*` writes through the bound pipeline (0: none).
    pub(crate) fn pipeline_active_program(&self) -> u32 {
        self.pipelines
            .names
            .get(self.pipelines.bound)
            .map_or(0, |p| p.active_program)
    }

    /// Why the pipeline `name` cannot draw (GL 4.1's program pipeline validation), or None.
    pub(crate) fn pipeline_problem(&self, name: u32) -> Option<String> {
        let pipeline = self.pipelines.names.get(name)?;
        if pipeline.stages.iter().all(|&p| p == 0) {
            return Some("no program is bound to any stage".into());
        }
        for (i, &p) in pipeline.stages.iter().enumerate() {
            if p == 0 {
                continue;
            }
            let Some(program) = self.programs.get(p) else {
                return Some(format!("program {p} is gone"));
            };
            let Some(input) = program
                .link_input
                .as_ref()
                .filter(|_| program.linked.is_some())
            else {
                return Some(format!("program {p} is not linked"));
            };
            if !input.separable {
                return Some(format!("program {p} was not linked separable"));
            }
            // A program must be bound to every stage it has, or to none.
            for stage in input.stages() {
                if pipeline.stages[slot(stage)] != p {
                    return Some(format!(
                        "program {p} has a {stage:?} stage but is not bound to it (stage {i})"
                    ));
                }
            }
        }
        let stages = &pipeline.stages;
        let vertex_processing = stages[slot(Stage::TessControl)..=slot(Stage::Geometry)]
            .iter()
            .any(|&p| p != 0);
        if vertex_processing && stages[slot(Stage::Vertex)] == 0 {
            return Some("tessellation or geometry stages without a vertex stage".into());
        }
        split_program(stages).or_else(|| self.stage_sampler_conflict(stages))
    }

    /// Two samplers of different types reading one texture unit, in any of `stages`' programs
    /// (each program's samplers counted once).
    fn stage_sampler_conflict(&self, stages: &[u32; 6]) -> Option<String> {
        let mut programs: Vec<&Program> = Vec::new();
        for &p in stages.iter().filter(|&&p| p != 0) {
            let program = self.programs.get(p)?;
            if !programs.iter().any(|q| std::ptr::eq(*q, program)) {
                programs.push(program);
            }
        }
        let samplers = programs.iter().flat_map(|p| {
            let linked = p.linked.as_deref();
            linked
                .into_iter()
                .flat_map(|l| l.samplers.iter())
                .zip(&p.sampler_units)
        });
        crate::gl::objects::program::samplers_unit_conflict(samplers)
    }

    /// The executable whose varyings transform feedback captures through the bound pipeline:
    /// its last vertex-processing stage's program's; None without one.
    pub(crate) fn pipeline_feedback_program(&self) -> Option<Arc<Linked>> {
        let pipeline = self.pipelines.names.get(self.pipelines.bound)?;
        let graphics = graphics_programs(&pipeline.stages);
        let &(_, last) = last_vertex_processing(&graphics)?;
        self.programs.get(last)?.linked.clone()
    }

    /// The bound pipeline's compute program, which `glDispatchCompute*` runs with no program
    /// current (0: none).
    pub(crate) fn pipeline_compute_program(&self) -> u32 {
        self.pipelines
            .names
            .get(self.pipelines.bound)
            .map_or(0, |p| p.stages[slot(Stage::Compute)])
    }

    /// The draw state of the bound program pipeline; None without one.
    pub(crate) fn pipeline_draw_program(&mut self) -> GlResult<Option<DrawProgram>> {
        let bound = self.pipelines.bound;
        if bound == 0 {
            return Ok(None);
        }
        if let Some(why) = self.pipeline_problem(bound) {
            return invalid_op(format!("draw with program pipeline {bound}: {why}"));
        }
        let stages = self.pipelines.names.get(bound).map(|p| p.stages);
        let Some(graphics) = stages.map(|s| graphics_programs(&s)) else {
            return Ok(None);
        };
        // A vertex or a fragment stage at least: the link supplies the other one.
        if !graphics
            .iter()
            .any(|(s, _)| matches!(s, Stage::Vertex | Stage::Fragment))
        {
            return invalid_op("draw with a program pipeline that has no vertex or fragment stage");
        }
        if graphics.iter().all(|&(_, p)| p == graphics[0].1) {
            return self.program_draw_state(graphics[0].1).map(Some);
        }
        let (linked, namespaces) = self.combined_executable(bound, &graphics)?;
        let mut state = initial_draw_state(linked);
        for ns in &namespaces {
            let program = self.stage_program(ns.program)?;
            copy_program_state(&program, ns, &mut state);
        }
        if let Some(why) =
            crate::gl::objects::program::sampler_unit_conflict(&state.linked, &state.sampler_units)
        {
            return invalid_op(format!("draw: {why}"));
        }
        Ok(Some(state))
    }

    /// Program `name` of a valid pipeline (linked, with its link input).
    fn stage_program(&self, name: u32) -> GlResult<StageProgram<'_>> {
        let program = self
            .programs
            .get(name)
            .ok_or_else(|| GlError::InvalidOperation(format!("program {name} is gone")))?;
        match (program.linked.as_ref(), program.link_input.as_ref()) {
            (Some(linked), Some(input)) => Ok(StageProgram {
                program,
                linked,
                input,
            }),
            _ => invalid_op(format!("program {name} is not linked")),
        }
    }

    /// The executable of `graphics`' stages linked together (with each stage program's name
    /// space in it): the pipeline's cached one while its programs keep their executables, else
    /// a new link.
    fn combined_executable(
        &mut self,
        pipeline: u32,
        graphics: &[(Stage, u32)],
    ) -> GlResult<(Arc<Linked>, Vec<Namespace>)> {
        let mut key = [0u64; 6];
        for &(stage, name) in graphics {
            key[slot(stage)] = self.stage_program(name)?.linked.id;
        }
        let cached = self.pipelines.names.get(pipeline).and_then(|p| {
            p.combined
                .as_ref()
                .filter(|c| c.key == key)
                .map(|c| (c.linked.clone(), c.namespaces.clone()))
        });
        if let Some(cached) = cached {
            return Ok(cached);
        }
        let namespaces = self.namespaces(graphics)?;
        let input = self.combined_input(graphics, &namespaces)?;
        let linked = match self.link_input(&input) {
            Ok((linked, _)) => Arc::new(linked),
            Err(crate::gl::objects::program::LinkError::Memory(m)) => {
                return Err(GlError::Memory(m))
            }
            Err(e) => {
                return invalid_op(format!(
                    "the stages of program pipeline {pipeline} do not link together: {}",
                    e.log().trim_end()
                ))
            }
        };
        if let Some(p) = self.pipelines.names.get_mut(pipeline) {
            p.combined = Some(Combined {
                key,
                linked: linked.clone(),
                namespaces: namespaces.clone(),
            });
        }
        Ok((linked, namespaces))
    }

    /// The name space of each distinct program of `graphics`, in pipeline order: the uniform
    /// and uniform block names it shares with another of them get the suffix `_arenagl_pI`.
    fn namespaces(&self, graphics: &[(Stage, u32)]) -> GlResult<Vec<Namespace>> {
        let mut programs: Vec<u32> = Vec::new();
        for &(_, name) in graphics {
            if !programs.contains(&name) {
                programs.push(name);
            }
        }
        let mut declared = Vec::with_capacity(programs.len());
        let mut count: HashMap<String, usize> = HashMap::new();
        for &name in &programs {
            let names = global_uniform_names(self.stage_program(name)?.linked);
            for n in &names {
                *count.entry(n.clone()).or_default() += 1;
            }
            declared.push(names);
        }
        Ok(programs
            .iter()
            .zip(declared)
            .enumerate()
            .map(|(i, (&program, names))| Namespace {
                program,
                suffix: format!("_arenagl_p{i}"),
                renamed: names.into_iter().filter(|n| count[n] > 1).collect(),
            })
            .collect())
    }

    /// Each stage's units from its program, with the vertex program's attribute bindings, the
    /// fragment program's output bindings and the last vertex-processing program's capture.
    fn combined_input(
        &self,
        graphics: &[(Stage, u32)],
        namespaces: &[Namespace],
    ) -> GlResult<LinkInput> {
        let mut input = LinkInput {
            separable: true,
            ..LinkInput::default()
        };
        for (i, &(stage, name)) in graphics.iter().enumerate() {
            let p = self.stage_program(name)?;
            let ns = namespaces.iter().find(|n| n.program == name);
            // Located inputs meet the previous stage's outputs by location, whatever their
            // names (`glsl::rendezvous`).
            input
                .units
                .extend(
                    p.input
                        .units
                        .iter()
                        .filter(|(s, _)| *s == stage)
                        .map(|(s, src)| {
                            let src = match ns {
                                Some(ns) => {
                                    rendezvous::rename_globals(src, &ns.renamed, &ns.suffix)
                                }
                                None => src.clone(),
                            };
                            match i {
                                0 => (*s, src),
                                _ => (*s, rendezvous::rename_located_inputs(&src)),
                            }
                        }),
                );
            match stage {
                Stage::Vertex => input.attrib_bindings = p.input.attrib_bindings.clone(),
                Stage::Fragment => input.frag_bindings = p.input.frag_bindings.clone(),
                _ => {}
            }
        }
        if let Some(&(_, last)) = last_vertex_processing(graphics) {
            input.xfb = self.stage_program(last)?.input.xfb.clone();
        }
        Ok(input)
    }
}

/// Why separable program `input` does not link, by the rules GL keeps between the stages of
/// one program (the link itself leaves them to the pipeline): an input of one of its stages
/// that the stage before does not write, a `gl_PerVertex` use without a redeclaration.
pub(crate) fn separable_link_problem(input: &LinkInput) -> Option<String> {
    let mut previous: Option<&str> = None;
    for (stage, _) in STAGES.iter().filter(|(s, _)| *s != Stage::Compute) {
        let mut units = input.units.iter().filter(|(s, _)| s == stage);
        let Some((_, source)) = units.next() else {
            continue;
        };
        // One unit per stage is compared (a stage of several units is left to the link).
        if let Some(why) = previous.and_then(|p| rendezvous::unmatched_input(p, source)) {
            return Some(format!("the {stage:?} stage's {why}"));
        }
        previous = Some(source.as_str()).filter(|_| units.next().is_none());
    }
    crate::glsl::per_vertex::unredeclared_between_stages(&input.units)
}

/// The global names `linked`'s uniforms and uniform blocks take: loose uniforms' first name
/// component and block names without their array index.
fn global_uniform_names(linked: &Linked) -> HashSet<String> {
    let head = |n: &str| n[..n.find(['.', '[']).unwrap_or(n.len())].to_owned();
    let loose = linked
        .uniforms
        .iter()
        .filter(|u| !matches!(u.storage, UniformStorage::Block { .. }))
        .map(|u| head(&u.name));
    loose
        .chain(linked.blocks.iter().map(|b| head(&b.name)))
        .collect()
}

/// A program bound to two stages with another program's stage between them (GL 4.1's
/// validation rule), or None.
fn split_program(stages: &[u32; 6]) -> Option<String> {
    let graphics = &stages[..5];
    for (first, &p) in graphics.iter().enumerate() {
        let last = graphics.iter().rposition(|&q| q == p)?;
        if p == 0 || last <= first {
            continue;
        }
        if let Some(&q) = graphics[first..last].iter().find(|&&q| q != 0 && q != p) {
            return Some(format!(
                "program {q} runs a stage between two stages of program {p}"
            ));
        }
    }
    None
}

/// The graphics stages a pipeline's `stages` bind, with their programs, in pipeline order.
fn graphics_programs(stages: &[u32; 6]) -> Vec<(Stage, u32)> {
    STAGES
        .iter()
        .zip(stages)
        .filter(|((stage, _), &p)| *stage != Stage::Compute && p != 0)
        .map(|((stage, _), &p)| (*stage, p))
        .collect()
}

/// The last stage before the rasteriser among `graphics` (in pipeline order), with its
/// program.
fn last_vertex_processing(graphics: &[(Stage, u32)]) -> Option<&(Stage, u32)> {
    graphics.iter().rev().find(|(s, _)| *s != Stage::Fragment)
}

/// A fresh executable's draw state: zeroed uniforms, unit 0 samplers, its initial bindings.
fn initial_draw_state(linked: Arc<Linked>) -> DrawProgram {
    DrawProgram {
        uniform_data: vec![0; linked.default_block_size as usize],
        sampler_units: linked
            .samplers
            .iter()
            .map(|s| vec![0; s.count as usize])
            .collect(),
        block_bindings: vec![0; linked.block_count() as usize],
        storage_bindings: crate::gl::compute::initial_storage_bindings(&linked),
        image_units: crate::gl::compute::initial_image_units(&linked),
        linked,
    }
}

/// Copies `from`'s uniform values, sampler and image units and block bindings into the
/// combined executable's `to`, matching by name (as `ns` renamed them there).
fn copy_program_state(from: &StageProgram<'_>, ns: &Namespace, to: &mut DrawProgram) {
    let (src, dst) = (&**from.linked, to.linked.clone());
    for u in &src.uniforms {
        let name = ns.map(&u.name);
        let Some(d) = dst.uniforms.iter().find(|d| d.name == name) else {
            continue;
        };
        match (u.storage, d.storage) {
            (
                UniformStorage::Default {
                    offset: so,
                    array_stride,
                    matrix_stride,
                    row_major,
                },
                UniformStorage::Default { offset: dof, .. },
            ) => {
                let len = default_extent(u, array_stride, matrix_stride, row_major);
                copy_bytes(
                    &from.program.uniform_data,
                    so,
                    &mut to.uniform_data,
                    dof,
                    len,
                );
            }
            (UniformStorage::Sampler(si), UniformStorage::Sampler(di)) => {
                copy_units(&from.program.sampler_units, si, &mut to.sampler_units, di)
            }
            (UniformStorage::Image(si), UniformStorage::Image(di)) => {
                copy_units(&from.program.image_units, si, &mut to.image_units, di)
            }
            _ => {}
        }
    }
    for (i, b) in src.blocks.iter().enumerate() {
        let index = src.blocks[..i].iter().map(|b| b.array_size).sum::<u32>();
        let block_name = ns.map(&b.name);
        let to_index = dst.block_index(&block_name);
        let name0 = format!("{block_name}[0]");
        let to_index = if to_index == crate::gl::context::enums::GL_INVALID_INDEX {
            dst.block_index(&name0)
        } else {
            to_index
        };
        for e in 0..b.array_size {
            let (s, d) = (index + e, to_index.wrapping_add(e));
            if let (Some(&v), Some(slot)) = (
                from.program.block_bindings.get(s as usize),
                to.block_bindings.get_mut(d as usize),
            ) {
                *slot = v;
            }
        }
    }
    let mut s = 0usize;
    for b in &src.storage_blocks {
        let mut d = 0usize;
        for db in &dst.storage_blocks {
            if db.name == b.name {
                for e in 0..b.count.min(db.count) as usize {
                    if let (Some(&v), Some(slot)) = (
                        from.program.storage_bindings.get(s + e),
                        to.storage_bindings.get_mut(d + e),
                    ) {
                        *slot = v;
                    }
                }
            }
            d += db.count as usize;
        }
        s += b.count as usize;
    }
}

/// The bytes a default-block uniform occupies.
fn default_extent(
    u: &crate::gl::objects::program::ActiveUniform,
    array_stride: u32,
    matrix_stride: u32,
    row_major: bool,
) -> usize {
    let Some((scalar, columns, rows)) = u.ty.shape() else {
        return 0;
    };
    let bytes = if matches!(
        scalar,
        crate::glsl::ScalarKind::Double
            | crate::glsl::ScalarKind::Int64
            | crate::glsl::ScalarKind::UInt64
    ) {
        8
    } else {
        4
    };
    let element = if columns > 1 {
        (if row_major { rows } else { columns }) * matrix_stride
    } else {
        rows * bytes
    };
    if u.size > 1 {
        (array_stride * (u.size - 1) + element) as usize
    } else {
        element as usize
    }
}

fn copy_bytes(from: &[u8], at: u32, to: &mut [u8], to_at: u32, len: usize) {
    let (at, to_at) = (at as usize, to_at as usize);
    if let (Some(src), Some(dst)) = (from.get(at..at + len), to.get_mut(to_at..to_at + len)) {
        dst.copy_from_slice(src);
    }
}

fn copy_units(from: &[Vec<u32>], at: usize, to: &mut [Vec<u32>], to_at: usize) {
    if let (Some(src), Some(dst)) = (from.get(at), to.get_mut(to_at)) {
        let n = src.len().min(dst.len());
        dst[..n].copy_from_slice(&src[..n]);
    }
}
