//! The GL_ARB_separate_shader_objects entry points: program pipeline objects,
//! `glProgramParameteri`, `glCreateShaderProgramv` and `glProgramUniform*`.

use super::{
    slot, ProgramPipeline, GL_ACTIVE_PROGRAM, GL_ALL_SHADER_BITS, GL_PROGRAM_SEPARABLE, STAGES,
};
use crate::gl::context::enums::*;
use crate::gl::context::error::{gen_count, invalid_enum, invalid_op, invalid_value, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::program::{self, set_uniform, set_uniform_matrix, stage_of, ValueKind};
use crate::glsl::Stage;

impl Context {
    /// `glGenProgramPipelines`.
    pub fn gen_program_pipelines(&mut self, n: i32) -> Vec<u32> {
        let r = gen_count("glGenProgramPipelines", n).map(|n| self.pipelines.names.generate(n));
        self.record(r).unwrap_or_default()
    }

    /// `glCreateProgramPipelines`: names whose objects exist at once.
    pub fn create_program_pipelines(&mut self, n: i32) -> Vec<u32> {
        let names = self.gen_program_pipelines(n);
        for &name in &names {
            self.pipelines
                .names
                .get_or_create(name, ProgramPipeline::default);
        }
        names
    }

    /// `glDeleteProgramPipelines`: unbinds a deleted bound pipeline; unknown names are ignored.
    pub fn delete_program_pipelines(&mut self, names: &[u32]) {
        for &name in names {
            if name == 0 || !self.pipelines.names.is_reserved(name) {
                continue;
            }
            if self.pipelines.bound == name {
                self.pipelines.bound = 0;
            }
            self.pipelines.names.remove(name);
        }
    }

    /// `glIsProgramPipeline`: true once the name was bound (or otherwise used).
    pub fn is_program_pipeline(&self, name: u32) -> bool {
        self.pipelines.names.exists(name)
    }

    /// `glBindProgramPipeline`.
    pub fn bind_program_pipeline(&mut self, name: u32) {
        let r = (|| {
            self.refuse_while_capturing("glBindProgramPipeline")?;
            if name != 0 {
                self.pipeline_mut("glBindProgramPipeline", name)?;
            }
            self.pipelines.bound = name;
            Ok(())
        })();
        self.record(r);
    }

    /// The pipeline object of a generated name, created on its first use; else
    /// `GL_INVALID_OPERATION` naming `what`.
    fn pipeline_mut(&mut self, what: &str, name: u32) -> GlResult<&mut ProgramPipeline> {
        if !self.pipelines.names.is_reserved(name) {
            return invalid_op(format!("{what}: {name} is not a program pipeline name"));
        }
        match self
            .pipelines
            .names
            .get_or_create(name, ProgramPipeline::default)
        {
            Some(p) => Ok(p),
            None => invalid_op(format!("{what}: {name} is not a program pipeline name")),
        }
    }

    /// The `glUseProgramStages` bits this context accepts.
    fn supported_stage_bits(&self) -> u32 {
        STAGES
            .iter()
            .filter(|(stage, _)| match stage {
                Stage::TessControl | Stage::TessEvaluation => {
                    self.device.caps().tessellation_shader
                }
                _ => true,
            })
            .fold(0, |bits, (_, bit)| bits | bit)
    }

    /// `glUseProgramStages`: `program`'s executables for the stages in `stages` (a stage it
    /// lacks is left without a program).
    pub fn use_program_stages(&mut self, pipeline: u32, stages: u32, program: u32) {
        let r = (|| {
            if stages != GL_ALL_SHADER_BITS && stages & !self.supported_stage_bits() != 0 {
                return invalid_value(format!("glUseProgramStages: stages {stages:#x}"));
            }
            if pipeline == self.pipelines.bound {
                self.refuse_while_capturing("glUseProgramStages on the bound pipeline")?;
            }
            let input = match program {
                0 => None,
                name => {
                    let p = self.program_ref(name)?;
                    if !p.separable || !p.link_status {
                        return invalid_op(format!(
                            "glUseProgramStages: program {name} is not linked separable"
                        ));
                    }
                    p.link_input.clone()
                }
            };
            let supported = self.supported_stage_bits();
            let pipe = self.pipeline_mut("glUseProgramStages", pipeline)?;
            for (stage, bit) in STAGES {
                if stages & bit & supported == 0 {
                    continue;
                }
                let has = input.as_ref().is_some_and(|i| i.has_stage(stage));
                pipe.stages[slot(stage)] = if has { program } else { 0 };
            }
            Ok(())
        })();
        self.record(r);
    }

    /// `glActiveShaderProgram`.
    pub fn active_shader_program(&mut self, pipeline: u32, program: u32) {
        let r = (|| {
            if program != 0 && !self.program_ref(program)?.link_status {
                return invalid_op(format!(
                    "glActiveShaderProgram: program {program} is not linked"
                ));
            }
            self.pipeline_mut("glActiveShaderProgram", pipeline)?
                .active_program = program;
            Ok(())
        })();
        self.record(r);
    }

    /// `glValidateProgramPipeline`: the status and log of the checks a draw makes.
    pub fn validate_program_pipeline(&mut self, pipeline: u32) {
        let r = (|| {
            self.pipeline_mut("glValidateProgramPipeline", pipeline)?;
            let problem = self.pipeline_problem(pipeline);
            let p = self.pipeline_mut("glValidateProgramPipeline", pipeline)?;
            p.validate_status = problem.is_none();
            p.log = problem.map_or_else(String::new, |why| format!("ERROR: Validation: {why}\n"));
            Ok(())
        })();
        self.record(r);
    }

    /// `glGetProgramPipelineiv`.
    pub fn get_program_pipeline(&mut self, pipeline: u32, pname: GLenum) -> i32 {
        let tessellation = self.device.caps().tessellation_shader;
        let r = (|| {
            let p = self.pipeline_mut("glGetProgramPipelineiv", pipeline)?;
            let stage = |s: Stage| Ok(p.stages[slot(s)] as i32);
            match pname {
                GL_ACTIVE_PROGRAM => Ok(p.active_program as i32),
                GL_VALIDATE_STATUS => Ok(i32::from(p.validate_status)),
                GL_INFO_LOG_LENGTH => Ok(if p.log.is_empty() {
                    0
                } else {
                    p.log.len() as i32 + 1
                }),
                GL_TESS_CONTROL_SHADER | GL_TESS_EVALUATION_SHADER if !tessellation => {
                    invalid_enum("glGetProgramPipelineiv pname", pname)
                }
                _ => match stage_of(pname) {
                    Some(s) => stage(s),
                    None => invalid_enum("glGetProgramPipelineiv pname", pname),
                },
            }
        })();
        self.record(r).unwrap_or(0)
    }

    /// `glGetProgramPipelineInfoLog`.
    pub fn program_pipeline_info_log(&mut self, pipeline: u32) -> String {
        let r = self
            .pipeline_mut("glGetProgramPipelineInfoLog", pipeline)
            .map(|p| p.log.clone());
        self.record(r).unwrap_or_default()
    }

    /// `glProgramParameteri`: `GL_PROGRAM_SEPARABLE` and `GL_PROGRAM_BINARY_RETRIEVABLE_HINT`
    /// (each taking effect at the next link).
    pub fn program_parameter(&mut self, program: u32, pname: GLenum, value: i32) {
        let r = (|| {
            if pname != GL_PROGRAM_SEPARABLE && pname != GL_PROGRAM_BINARY_RETRIEVABLE_HINT {
                return invalid_enum("glProgramParameteri pname", pname);
            }
            if value != 0 && value != 1 {
                return invalid_value(format!("glProgramParameteri: value {value}"));
            }
            let p = self.program_mut(program)?;
            if pname == GL_PROGRAM_SEPARABLE {
                p.separable = value == 1;
            } else {
                p.binary_hint = value == 1;
            }
            Ok(())
        })();
        self.record(r);
    }

    /// `glCreateShaderProgramv`: a separable program linked from one shader of type `ty`
    /// made of `sources`, the shader's log prepended to the program's; 0 on error.
    pub fn create_shader_program(&mut self, ty: GLenum, sources: &[String]) -> u32 {
        let shader = self.create_shader(ty);
        if shader == 0 {
            return 0;
        }
        self.shader_source(shader, sources.concat());
        self.compile_shader(shader);
        let program = self.create_program();
        if program != 0 {
            self.program_parameter(program, GL_PROGRAM_SEPARABLE, 1);
            let compiled = self.shaders.get(shader).is_some_and(|s| s.compiled);
            if compiled {
                self.attach_shader(program, shader);
                self.link_program(program);
                self.detach_shader(program, shader);
            }
            let shader_log = self
                .shaders
                .get(shader)
                .map(|s| s.log.clone())
                .unwrap_or_default();
            if let Some(p) = self.programs.get_mut(program) {
                if !compiled {
                    p.link_status = false;
                }
                p.log = format!("{shader_log}{}", p.log);
            }
        }
        self.delete_shader(shader);
        program
    }

    /// `glProgramUniform{1,2,3,4}{f,i,ui,d,i64,ui64}(v)`: `glUniform*` on `program`.
    pub fn program_uniform(
        &mut self,
        program: u32,
        location: i32,
        kind: ValueKind,
        components: u32,
        count: i32,
        data: &[u32],
    ) {
        let r = self
            .program_mut(program)
            .and_then(|p| set_uniform(p, location, kind, components, count, data));
        self.record(r);
    }

    /// `glProgramUniformMatrix{C}x{R}fv`.
    pub fn program_uniform_matrix(
        &mut self,
        program: u32,
        location: i32,
        (columns, rows): (u32, u32),
        count: i32,
        transpose: bool,
        data: &[f32],
    ) {
        let r = self
            .program_mut(program)
            .and_then(|p| set_uniform_matrix(p, location, columns, rows, count, transpose, data));
        self.record(r);
    }

    /// `glProgramUniformMatrix{C}x{R}dv`.
    pub fn program_uniform_matrix_double(
        &mut self,
        program: u32,
        location: i32,
        (columns, rows): (u32, u32),
        count: i32,
        transpose: bool,
        data: &[f64],
    ) {
        let r = self.program_mut(program).and_then(|p| {
            program::set_uniform_matrix_double(p, location, columns, rows, count, transpose, data)
        });
        self.record(r);
    }
}
