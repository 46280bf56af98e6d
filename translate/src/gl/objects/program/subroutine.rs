//! `GL_ARB_shader_subroutine`: the program queries, the context's selection, and the
//! specialization constants a draw's pipeline takes from it.
//!
//! Design decisions:
//! - The compiler lowers subroutines to specialization constants (`glsl::subroutine`); a linked
//!   program keeps each stage's table ([`Linked::subroutines`]), and the context holds what
//!   `glUniformSubroutinesuiv` selected, per stage of the current program.
//! - GL resets the selection whenever `glUseProgram` is called; until a stage's selection is
//!   set, its locations hold their first compatible subroutine (the lowering's defaults), which
//!   `glGetUniformSubroutineuiv` reports.
//! - The selection is part of the pipeline key (see `draw::record`): each selection used gets
//!   a pipeline of its own, with the dispatch folded to a direct call by the driver.

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::program::{stage_of, Linked};
use crate::glsl::subroutine::{
    StageSubroutines, MAX_SUBROUTINES, MAX_SUBROUTINE_UNIFORM_LOCATIONS,
};
use crate::glsl::Stage;

pub(crate) const GL_ACTIVE_SUBROUTINES: GLenum = 0x8DE5;
pub(crate) const GL_ACTIVE_SUBROUTINE_UNIFORMS: GLenum = 0x8DE6;
pub(crate) const GL_MAX_SUBROUTINES: GLenum = 0x8DE7;
pub(crate) const GL_MAX_SUBROUTINE_UNIFORM_LOCATIONS: GLenum = 0x8DE8;
pub(crate) const GL_ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS: GLenum = 0x8E47;
pub(crate) const GL_ACTIVE_SUBROUTINE_MAX_LENGTH: GLenum = 0x8E48;
pub(crate) const GL_ACTIVE_SUBROUTINE_UNIFORM_MAX_LENGTH: GLenum = 0x8E49;
pub(crate) const GL_NUM_COMPATIBLE_SUBROUTINES: GLenum = 0x8E4A;
pub(crate) const GL_COMPATIBLE_SUBROUTINES: GLenum = 0x8E4B;
const GL_UNIFORM_SIZE: GLenum = 0x8A38;
const GL_UNIFORM_NAME_LENGTH: GLenum = 0x8A39;

/// `glGetIntegerv` limits of the extension, if `pname` is one.
pub(crate) fn limit(pname: GLenum) -> Option<i32> {
    match pname {
        GL_MAX_SUBROUTINES => Some(MAX_SUBROUTINES as i32),
        GL_MAX_SUBROUTINE_UNIFORM_LOCATIONS => Some(MAX_SUBROUTINE_UNIFORM_LOCATIONS as i32),
        _ => None,
    }
}

/// What `glUniformSubroutinesuiv` set, per stage, for the current program.
#[derive(Debug, Default)]
pub(crate) struct SubroutineSelection {
    stages: Vec<(Stage, Vec<u32>)>,
}

impl SubroutineSelection {
    /// Forgets every stage's selection (`glUseProgram`).
    pub(crate) fn reset(&mut self) {
        self.stages.clear();
    }

    fn of(&self, stage: Stage) -> Option<&[u32]> {
        self.stages
            .iter()
            .find(|(s, _)| *s == stage)
            .map(|(_, v)| v.as_slice())
    }
}

impl Linked {
    /// The subroutine table of `stage` (empty when it declares none).
    pub(crate) fn subroutines_of(&self, stage: Stage) -> Option<&StageSubroutines> {
        self.subroutines
            .iter()
            .find(|(s, _)| *s == stage)
            .map(|(_, t)| t)
    }
}

/// The stage a `shadertype` argument names.
fn shader_stage(call: &str, ty: GLenum) -> GlResult<Stage> {
    stage_of(ty).map_or_else(|| invalid_enum(&format!("{call} shadertype"), ty), Ok)
}

/// The longest name's length with its terminator, 0 for none.
fn max_name<'a>(names: impl Iterator<Item = &'a str>) -> i32 {
    names.map(|n| n.len() as i32 + 1).max().unwrap_or(0)
}

impl Context {
    /// The constants of the subroutine selection for a draw with `linked`: per stage that
    /// declares subroutines, `(constant id, subroutine index)` for each location.
    pub(crate) fn subroutine_constants(&self, linked: &Linked) -> Vec<(Stage, Vec<(u32, u32)>)> {
        linked
            .subroutines
            .iter()
            .map(|(stage, table)| {
                let chosen = self.subroutine_selection.of(*stage).unwrap_or(&[]);
                (*stage, table.constants(chosen))
            })
            .collect()
    }

    fn stage_table(
        &self,
        program: u32,
        ty: GLenum,
        call: &str,
    ) -> GlResult<(std::sync::Arc<Linked>, Stage)> {
        let stage = shader_stage(call, ty)?;
        let linked = self.program_ref(program)?.linked(call)?.clone();
        Ok((linked, stage))
    }

    /// `glGetSubroutineIndex`: `GL_INVALID_INDEX` for a name that is no subroutine.
    pub fn get_subroutine_index(&mut self, program: u32, ty: GLenum, name: &str) -> u32 {
        let r = self
            .stage_table(program, ty, "glGetSubroutineIndex")
            .map(|(l, stage)| {
                l.subroutines_of(stage)
                    .and_then(|t| t.functions.iter().find(|f| f.name == name))
                    .map_or(GL_INVALID_INDEX, |f| f.index)
            });
        self.record(r).unwrap_or(GL_INVALID_INDEX)
    }

    /// `glGetSubroutineUniformLocation`: `name` or `name[i]`; -1 when it names none.
    pub fn get_subroutine_uniform_location(&mut self, program: u32, ty: GLenum, name: &str) -> i32 {
        let r = self
            .stage_table(program, ty, "glGetSubroutineUniformLocation")
            .map(|(l, stage)| {
                let (base, element) = match name.strip_suffix(']').and_then(|n| n.split_once('[')) {
                    Some((base, i)) => (base, i.parse::<u32>().ok()),
                    None => (name, Some(0)),
                };
                l.subroutines_of(stage)
                    .and_then(|t| t.uniforms.iter().find(|u| u.name == base))
                    .zip(element)
                    .filter(|(u, e)| *e < u.size)
                    .map_or(-1, |(u, e)| (u.location + e) as i32)
            });
        self.record(r).unwrap_or(-1)
    }

    /// `glGetActiveSubroutineName`.
    pub fn active_subroutine_name(
        &mut self,
        program: u32,
        ty: GLenum,
        index: u32,
    ) -> Option<String> {
        let r = self
            .stage_table(program, ty, "glGetActiveSubroutineName")
            .and_then(|(l, stage)| {
                l.subroutines_of(stage)
                    .and_then(|t| t.functions.iter().find(|f| f.index == index))
                    .map(|f| f.name.clone())
                    .map_or_else(|| invalid_value(format!("subroutine index {index}")), Ok)
            });
        self.record(r)
    }

    /// `glGetActiveSubroutineUniformName`.
    pub fn active_subroutine_uniform_name(
        &mut self,
        program: u32,
        ty: GLenum,
        index: u32,
    ) -> Option<String> {
        let r = self
            .stage_table(program, ty, "glGetActiveSubroutineUniformName")
            .and_then(|(l, stage)| {
                l.subroutines_of(stage)
                    .and_then(|t| t.uniforms.get(index as usize))
                    .map(|u| u.name.clone())
                    .map_or_else(|| invalid_value(format!("subroutine uniform {index}")), Ok)
            });
        self.record(r)
    }

    /// `glGetActiveSubroutineUniformiv`.
    pub fn active_subroutine_uniform_iv(
        &mut self,
        program: u32,
        ty: GLenum,
        index: u32,
        pname: GLenum,
    ) -> Option<Vec<i32>> {
        let r = self
            .stage_table(program, ty, "glGetActiveSubroutineUniformiv")
            .and_then(|(l, stage)| {
                let Some(u) = l
                    .subroutines_of(stage)
                    .and_then(|t| t.uniforms.get(index as usize))
                else {
                    return invalid_value(format!("subroutine uniform {index}"));
                };
                Ok(match pname {
                    GL_NUM_COMPATIBLE_SUBROUTINES => vec![u.compatible.len() as i32],
                    GL_COMPATIBLE_SUBROUTINES => u.compatible.iter().map(|&i| i as i32).collect(),
                    GL_UNIFORM_SIZE => vec![u.size as i32],
                    GL_UNIFORM_NAME_LENGTH => vec![u.name.len() as i32 + 1],
                    p => return invalid_enum("glGetActiveSubroutineUniformiv pname", p),
                })
            });
        self.record(r)
    }

    /// `glGetProgramStageiv`.
    pub fn get_program_stage(&mut self, program: u32, ty: GLenum, pname: GLenum) -> Option<i32> {
        let r = self
            .stage_table(program, ty, "glGetProgramStageiv")
            .and_then(|(l, stage)| {
                let empty = StageSubroutines::default();
                let t = l.subroutines_of(stage).unwrap_or(&empty);
                Ok(match pname {
                    GL_ACTIVE_SUBROUTINES => t.functions.len() as i32,
                    GL_ACTIVE_SUBROUTINE_UNIFORMS => t.uniforms.len() as i32,
                    GL_ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS => t.location_count() as i32,
                    GL_ACTIVE_SUBROUTINE_MAX_LENGTH => {
                        max_name(t.functions.iter().map(|f| f.name.as_str()))
                    }
                    GL_ACTIVE_SUBROUTINE_UNIFORM_MAX_LENGTH => {
                        max_name(t.uniforms.iter().map(|u| u.name.as_str()))
                    }
                    p => return invalid_enum("glGetProgramStageiv pname", p),
                })
            });
        self.record(r)
    }

    /// The current program's linked form, for the selection calls.
    fn current_linked(&self, call: &str) -> GlResult<std::sync::Arc<Linked>> {
        if self.program == 0 {
            return invalid_op(format!("{call}: no current program"));
        }
        Ok(self.program_ref(self.program)?.linked(call)?.clone())
    }

    /// `glUniformSubroutinesuiv`: one index per active location of the stage.
    pub fn uniform_subroutines(&mut self, ty: GLenum, indices: &[u32]) {
        let r = (|| {
            let call = "glUniformSubroutinesuiv";
            let stage = shader_stage(call, ty)?;
            let linked = self.current_linked(call)?;
            let empty = StageSubroutines::default();
            let t = linked.subroutines_of(stage).unwrap_or(&empty);
            if indices.len() != t.location_count() as usize {
                return invalid_value(format!(
                    "{call}: count {} is not the stage's {} locations",
                    indices.len(),
                    t.location_count()
                ));
            }
            let highest = t.functions.iter().map(|f| f.index).max();
            for (location, &index) in (0u32..).zip(indices) {
                if highest.is_none_or(|h| index > h) {
                    return invalid_value(format!("{call}: subroutine index {index}"));
                }
                let compatible = t
                    .uniform_at(location)
                    .is_none_or(|u| u.compatible.contains(&index));
                if !compatible {
                    return invalid_op(format!(
                        "{call}: subroutine {index} does not match location {location}'s type"
                    ));
                }
            }
            let stages = &mut self.subroutine_selection.stages;
            stages.retain(|(s, _)| *s != stage);
            stages.push((stage, indices.to_vec()));
            Ok(())
        })();
        self.record(r);
    }

    /// `glGetUniformSubroutineuiv`.
    pub fn get_uniform_subroutine(&mut self, ty: GLenum, location: i32) -> Option<u32> {
        let r = (|| {
            let call = "glGetUniformSubroutineuiv";
            let stage = shader_stage(call, ty)?;
            let linked = self.current_linked(call)?;
            let empty = StageSubroutines::default();
            let t = linked.subroutines_of(stage).unwrap_or(&empty);
            let Some(l) = u32::try_from(location)
                .ok()
                .filter(|&l| l < t.location_count())
            else {
                return invalid_value(format!("{call}: location {location}"));
            };
            let chosen = self.subroutine_selection.of(stage);
            Ok(chosen
                .and_then(|c| c.get(l as usize).copied())
                .unwrap_or_else(|| t.default_selection()[l as usize]))
        })();
        self.record(r)
    }
}
