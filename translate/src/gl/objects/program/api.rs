//! Shader and program entry points.

use std::sync::Arc;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlError, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::program::binary::LinkInput;
use crate::gl::objects::program::{
    self, default_block_strides, set_uniform, set_uniform_matrix, stage_enum, stage_of, Program,
    Shader, UniformStorage, ValueKind,
};
use crate::glsl::ScalarKind;

/// A uniform's value as `glGetUniform*` reads it: its components' bits (a 32-bit component's
/// in the low half) and their scalar type, converted to the type asked for as GL's state
/// queries convert (a floating-point value to an integer rounds to nearest; a boolean, stored
/// as the integer the application gave, reads as 0 or 1).
pub struct UniformValues {
    kind: ScalarKind,
    words: Vec<u64>,
}

impl UniformValues {
    /// For `glGetUniformdv` (and, narrowed, `fv`): each component as a double.
    pub fn doubles(&self) -> Vec<f64> {
        self.words
            .iter()
            .map(|&w| match self.kind {
                ScalarKind::Float => f64::from(f32::from_bits(w as u32)),
                ScalarKind::Double => f64::from_bits(w),
                ScalarKind::Int => f64::from(w as u32 as i32),
                ScalarKind::UInt => f64::from(w as u32),
                ScalarKind::Bool => f64::from(u8::from(w != 0)),
                ScalarKind::Int64 => w as i64 as f64,
                ScalarKind::UInt64 => w as f64,
            })
            .collect()
    }

    /// For `glGetUniformfv`.
    pub fn floats(&self) -> Vec<f32> {
        self.doubles().into_iter().map(|v| v as f32).collect()
    }

    /// For `glGetUniformi64vARB` (and, narrowed, `iv`).
    pub fn int64s(&self) -> Vec<i64> {
        self.words
            .iter()
            .map(|&w| match self.kind {
                ScalarKind::Float => f64::from(f32::from_bits(w as u32)).round() as i64,
                ScalarKind::Double => f64::from_bits(w).round() as i64,
                ScalarKind::Bool => i64::from(w != 0),
                ScalarKind::Int => i64::from(w as u32 as i32),
                ScalarKind::UInt | ScalarKind::Int64 | ScalarKind::UInt64 => w as i64,
            })
            .collect()
    }

    /// For `glGetUniformiv`.
    pub fn ints(&self) -> Vec<i32> {
        self.int64s().into_iter().map(|v| v as i32).collect()
    }

    /// For `glGetUniformui64vARB` (and, narrowed, `uiv`).
    pub fn uint64s(&self) -> Vec<u64> {
        self.int64s().into_iter().map(|v| v as u64).collect()
    }

    /// For `glGetUniformuiv`.
    pub fn uints(&self) -> Vec<u32> {
        self.int64s().into_iter().map(|v| v as u32).collect()
    }
}

impl Context {
    pub(crate) fn shader_mut(&mut self, name: u32) -> GlResult<&mut Shader> {
        if self.programs.exists(name) {
            return invalid_op(format!("{name} is a program, not a shader"));
        }
        self.shaders
            .get_mut(name)
            .ok_or_else(|| GlError::InvalidValue(format!("{name} is not a shader")))
    }

    pub(crate) fn program_ref(&self, name: u32) -> GlResult<&Program> {
        if self.shaders.exists(name) {
            return invalid_op(format!("{name} is a shader, not a program"));
        }
        self.programs
            .get(name)
            .ok_or_else(|| GlError::InvalidValue(format!("{name} is not a program")))
    }

    pub(crate) fn program_mut(&mut self, name: u32) -> GlResult<&mut Program> {
        if self.shaders.exists(name) {
            return invalid_op(format!("{name} is a shader, not a program"));
        }
        self.programs
            .get_mut(name)
            .ok_or_else(|| GlError::InvalidValue(format!("{name} is not a program")))
    }

    /// `glCreateShader`; 0 on error.
    pub fn create_shader(&mut self, ty: GLenum) -> u32 {
        let tessellation = self.device.caps().tessellation_shader;
        match stage_of(ty) {
            Some(crate::glsl::Stage::TessControl | crate::glsl::Stage::TessEvaluation)
                if !tessellation =>
            {
                self.record::<()>(invalid_enum("glCreateShader type (no tessellation)", ty));
                0
            }
            Some(crate::glsl::Stage::Geometry) if !self.device.caps().geometry_shader => {
                self.record::<()>(invalid_enum(
                    "glCreateShader type (no geometry shaders)",
                    ty,
                ));
                0
            }
            Some(stage) => {
                // Shaders and programs share one name space in GL.
                loop {
                    let name = self.shaders.insert_new(Shader::new(stage));
                    if !self.programs.is_reserved(name) {
                        return name;
                    }
                    self.shaders.remove(name);
                }
            }
            None => {
                self.record::<()>(invalid_enum("glCreateShader type", ty));
                0
            }
        }
    }

    /// `glShaderSource`: the strings, already joined by the caller.
    pub fn shader_source(&mut self, name: u32, source: String) {
        let r = self.shader_mut(name).map(|s| {
            s.source = source;
            // GL 4.6 §7.2: new source replaces a SPIR-V binary.
            s.spirv = None;
        });
        self.record(r);
    }

    /// `glCompileShader`.
    pub fn compile_shader(&mut self, name: u32) {
        let dialect = self.dialect();
        let offered = self.glsl_extensions();
        let r = self.shader_mut(name).and_then(|s| {
            if s.spirv.is_some() {
                // GL_ARB_gl_spirv: a SPIR-V shader is specialized, not compiled.
                return invalid_op("glCompileShader of a shader holding a SPIR-V binary");
            }
            s.compile(dialect, offered);
            Ok(())
        });
        self.record(r);
    }

    /// The GLSL extensions this context offers (those of `GL_EXTENSIONS`): the only ones its
    /// shaders see macros and `#extension` for (`glsl::ExtensionSet`).
    pub(crate) fn glsl_extensions(&self) -> crate::glsl::ExtensionSet {
        crate::glsl::ExtensionSet::offering(
            self.strings
                .extensions
                .iter()
                .filter_map(|e| e.to_str().ok()),
        )
    }

    /// `glIsShader`.
    pub fn is_shader(&self, name: u32) -> bool {
        self.shaders.exists(name)
    }

    /// `glDeleteShader`.
    pub fn delete_shader(&mut self, name: u32) {
        if name == 0 {
            return;
        }
        let r = (|| {
            let s = self.shader_mut(name)?;
            if s.attached > 0 {
                s.delete_pending = true;
            } else {
                self.shaders.remove(name);
            }
            Ok(())
        })();
        self.record(r);
    }

    /// `glGetShaderiv`.
    pub fn get_shader(&mut self, name: u32, pname: GLenum) -> i32 {
        let r = self.shader_param(name, pname);
        self.record(r).unwrap_or(0)
    }

    pub(crate) fn shader_param(&mut self, name: u32, pname: GLenum) -> GlResult<i32> {
        {
            let spirv = self.offers_gl_spirv();
            let s = self.shader_mut(name)?;
            Ok(match pname {
                GL_SHADER_TYPE => stage_enum(s.stage) as i32,
                GL_DELETE_STATUS => i32::from(s.delete_pending),
                GL_COMPILE_STATUS => i32::from(s.compiled),
                GL_INFO_LOG_LENGTH => log_length(&s.log),
                GL_SHADER_SOURCE_LENGTH => log_length(&s.source),
                program::spirv::GL_SPIR_V_BINARY if spirv => i32::from(s.spirv.is_some()),
                p => return invalid_enum("glGetShaderiv pname", p),
            })
        }
    }

    /// `glGetShaderInfoLog`.
    pub fn shader_info_log(&mut self, name: u32) -> String {
        let r = self.shader_mut(name).map(|s| s.log.clone());
        self.record(r).unwrap_or_default()
    }

    /// `glGetShaderSource`.
    pub fn shader_source_text(&mut self, name: u32) -> String {
        let r = self.shader_mut(name).map(|s| s.source.clone());
        self.record(r).unwrap_or_default()
    }

    /// `glCreateProgram`.
    pub fn create_program(&mut self) -> u32 {
        // One name space with shaders: take a name the shader table does not hold either.
        loop {
            let name = self.programs.insert_new(Program::new());
            if !self.shaders.is_reserved(name) {
                return name;
            }
            self.programs.remove(name);
        }
    }

    /// `glIsProgram`.
    pub fn is_program(&self, name: u32) -> bool {
        self.programs.exists(name)
    }

    /// `glDeleteProgram`.
    pub fn delete_program(&mut self, name: u32) {
        if name == 0 {
            return;
        }
        let r = (|| {
            let p = self.program_mut(name)?;
            if p.current_in > 0 {
                // Current here or in another context of the share group.
                p.delete_pending = true;
                return Ok(());
            }
            self.remove_program(name);
            Ok(())
        })();
        self.record(r);
    }

    /// Makes `name` current, counting the contexts that use each program; a deleted program
    /// that no context uses any more goes.
    pub(crate) fn switch_program(&mut self, name: u32) {
        let old = std::mem::replace(&mut self.program, name);
        if old == name {
            return;
        }
        if let Some(p) = self.programs.get_mut(name) {
            p.current_in += 1;
        }
        let Some(p) = self.programs.get_mut(old) else {
            return;
        };
        p.current_in = p.current_in.saturating_sub(1);
        if p.delete_pending && p.current_in == 0 {
            self.remove_program(old);
        }
    }

    fn remove_program(&mut self, name: u32) {
        if let Some(p) = self.programs.remove(name) {
            for s in p.shaders {
                self.release_shader(s);
            }
        }
    }

    fn release_shader(&mut self, name: u32) {
        if let Some(s) = self.shaders.get_mut(name) {
            s.attached = s.attached.saturating_sub(1);
            if s.attached == 0 && s.delete_pending {
                self.shaders.remove(name);
            }
        }
    }

    /// `glAttachShader`.
    pub fn attach_shader(&mut self, program: u32, shader: u32) {
        let r = (|| {
            self.program_ref(program)?;
            self.shader_mut(shader)?;
            let p = self.program_mut(program)?;
            if p.shaders.contains(&shader) {
                return invalid_op("the shader is already attached");
            }
            p.shaders.push(shader);
            self.shader_mut(shader)?.attached += 1;
            Ok(())
        })();
        self.record(r);
    }

    /// `glDetachShader`.
    pub fn detach_shader(&mut self, program: u32, shader: u32) {
        let r = (|| {
            self.shader_mut(shader)?;
            let p = self.program_mut(program)?;
            let Some(i) = p.shaders.iter().position(|&s| s == shader) else {
                return invalid_op("the shader is not attached to the program");
            };
            p.shaders.remove(i);
            self.release_shader(shader);
            Ok(())
        })();
        self.record(r);
    }

    /// `glGetAttachedShaders`.
    pub fn attached_shaders(&mut self, program: u32) -> Vec<u32> {
        let r = self.program_ref(program).map(|p| p.shaders.clone());
        self.record(r).unwrap_or_default()
    }

    /// `glBindAttribLocation` (applies at the next link).
    pub fn bind_attrib_location(&mut self, program: u32, index: u32, name: &str) {
        let r = (|| {
            if index >= self.max_vertex_attribs() {
                return invalid_value(format!("attribute location {index}"));
            }
            if name.starts_with("gl_") {
                return invalid_op("glBindAttribLocation on a gl_ name");
            }
            self.program_mut(program)?
                .attrib_bindings
                .insert(name.to_owned(), index);
            Ok(())
        })();
        self.record(r);
    }

    /// `glBindFragDataLocation`: `glBindFragDataLocationIndexed` with index 0.
    pub fn bind_frag_data_location(&mut self, program: u32, color: u32, name: &str) {
        self.bind_frag_data_location_indexed(program, color, 0, name);
    }

    /// `glBindFragDataLocationIndexed`: takes effect at the next link (`glsl::frag_outputs`).
    pub fn bind_frag_data_location_indexed(
        &mut self,
        program: u32,
        color: u32,
        index: u32,
        name: &str,
    ) {
        let r = (|| {
            if index > 1 {
                return invalid_value(format!("fragment output index {index} (0 or 1)"));
            }
            // Index 1 feeds dual-source blending: GL_MAX_DUAL_SOURCE_DRAW_BUFFERS (1) colours.
            let colors = if index == 1 {
                1
            } else {
                crate::gl::objects::framebuffer::MAX_COLOR_ATTACHMENTS
            };
            if color as usize >= colors {
                return invalid_value(format!("colour number {color} with index {index}"));
            }
            if name.starts_with("gl_") {
                return invalid_op("glBindFragDataLocation on a gl_ name");
            }
            self.program_mut(program)?
                .frag_bindings
                .insert(name.to_owned(), (color, index));
            Ok(())
        })();
        self.record(r);
    }

    /// `glLinkProgram`.
    pub fn link_program(&mut self, name: u32) {
        let r = (|| {
            if name == self.program {
                self.refuse_while_capturing("glLinkProgram of the current program")?;
            }
            let p = self.program_ref(name)?;
            let (mut units, mut spirv) = (Vec::new(), Vec::new());
            for sh in p.shaders.iter().filter_map(|&s| self.shaders.get(s)) {
                match &sh.spirv {
                    Some(unit) => {
                        let words = unit.specialized.clone().unwrap_or_default();
                        spirv.push((sh.stage, words));
                    }
                    None => units.push((sh.stage, sh.source.clone())),
                }
            }
            let input = LinkInput {
                units,
                attrib_bindings: p.attrib_bindings.clone(),
                frag_bindings: p.frag_bindings.clone(),
                // Without VK_EXT_transform_feedback nothing is captured (and nothing can begin).
                xfb: if self.has_transform_feedback() {
                    p.xfb_request.clone()
                } else {
                    Default::default()
                },
                separable: p.separable,
                spirv,
            };
            let not_compiled = p
                .shaders
                .iter()
                .filter_map(|s| self.shaders.get(*s))
                .any(|s| !s.compiled);
            let result = if not_compiled {
                Err(program::LinkError::Log(
                    "ERROR: Linking: an attached shader is not compiled\n".to_owned(),
                ))
            } else if let Some(log) = self.es_missing_stage(&input) {
                Err(program::LinkError::Log(log))
            } else if let Some(why) = input
                .separable
                .then(|| crate::gl::objects::program_pipeline::separable_link_problem(&input))
                .flatten()
            {
                Err(program::LinkError::Log(format!("ERROR: Linking: {why}\n")))
            } else {
                self.link_input(&input)
            };
            self.install_link(name, input, result)
        })();
        self.record(r);
    }

    /// Links what `input` names with this context's GLSL dialect.
    pub(crate) fn link_input(
        &self,
        input: &LinkInput,
    ) -> Result<(program::Linked, String), program::LinkError> {
        program::link_bound(
            &self.device,
            input,
            self.max_vertex_attribs(),
            self.dialect(),
            Some(self.glsl_extensions()),
        )
    }

    /// Makes `result` (a link of `input`) program `name`'s executable, status and log.
    pub(crate) fn install_link(
        &mut self,
        name: u32,
        input: LinkInput,
        result: Result<(program::Linked, String), program::LinkError>,
    ) -> GlResult<()> {
        let current = self.program == name;
        let p = self.program_mut(name)?;
        match result {
            Ok((linked, log)) => {
                p.uniform_data = vec![0; linked.default_block_size as usize];
                p.sampler_units = linked
                    .samplers
                    .iter()
                    .map(|s| (0..s.count).map(|i| s.initial_unit + i).collect())
                    .collect();
                p.block_bindings = linked
                    .blocks
                    .iter()
                    .flat_map(|b| (0..b.array_size).map(move |i| b.initial_binding + i))
                    .collect();
                p.storage_bindings = crate::gl::compute::initial_storage_bindings(&linked);
                p.image_units = crate::gl::compute::initial_image_units(&linked);
                p.linked = Some(Arc::new(linked));
                p.link_input = Some(Arc::new(input));
                p.link_status = true;
                p.linked_binary_hint = p.binary_hint;
                p.log = log;
                program::apply_initializers(p);
            }
            Err(e) => {
                // A failed relink keeps the last good executable in use, as GL says; the
                // status and log report the failure. Running out of memory (or losing the
                // device) is also GL_OUT_OF_MEMORY (GL_CONTEXT_LOST), and is not remembered:
                // the next glLinkProgram starts again from the sources.
                p.link_status = false;
                p.log = e.log();
                if !current {
                    p.linked = None;
                    p.link_input = None;
                }
                if let program::LinkError::Memory(m) = e {
                    return Err(GlError::Memory(m));
                }
            }
        }
        Ok(())
    }

    /// `glUseProgram`.
    pub fn use_program(&mut self, name: u32) {
        let r = (|| {
            self.refuse_while_capturing("glUseProgram")?;
            if name != 0 {
                let p = self.program_ref(name)?;
                if !p.link_status {
                    return invalid_op("glUseProgram: the program is not linked");
                }
            }
            self.switch_program(name);
            self.subroutine_selection.reset();
            Ok(())
        })();
        self.record(r);
    }

    /// `glValidateProgram`: a linked program whose samplers could draw (see
    /// `program::sampler_unit_conflict`; the reason goes to the info log otherwise).
    pub fn validate_program(&mut self, name: u32) {
        let r = self.program_mut(name).map(|p| {
            let conflict = p
                .linked
                .as_ref()
                .and_then(|l| program::sampler_unit_conflict(l, &p.sampler_units));
            p.validate_status = p.link_status && conflict.is_none();
            if let Some(why) = conflict {
                p.log = format!("ERROR: Validation: {why}\n");
            }
        });
        self.record(r);
    }

    /// `glGetProgramiv`.
    pub fn get_program(&mut self, name: u32, pname: GLenum) -> i32 {
        let r = self.program_param(name, pname);
        self.record(r).unwrap_or(0)
    }

    pub(crate) fn program_param(&mut self, name: u32, pname: GLenum) -> GlResult<i32> {
        {
            let p = self.program_ref(name)?;
            let linked = p.linked.as_ref();
            if self.device.caps().tessellation_shader {
                if let Some(answer) = program::tess::program_param(linked.map(|l| &**l), pname) {
                    return answer;
                }
            }
            if let Some(answer) = crate::gl::compute::program_param(linked.map(|l| &**l), pname) {
                return answer;
            }
            if let Some(answer) = program::geometry_param(linked.map(|l| &**l), pname) {
                return answer;
            }
            let max_len =
                |it: &mut dyn Iterator<Item = usize>| it.map(|l| l + 1).max().unwrap_or(0) as i32;
            Ok(match pname {
                GL_DELETE_STATUS => i32::from(p.delete_pending),
                GL_LINK_STATUS => i32::from(p.link_status),
                GL_VALIDATE_STATUS => i32::from(p.validate_status),
                GL_INFO_LOG_LENGTH => log_length(&p.log),
                GL_ATTACHED_SHADERS => p.shaders.len() as i32,
                GL_ACTIVE_ATTRIBUTES => linked.map_or(0, |l| l.attribs.len() as i32),
                GL_ACTIVE_ATTRIBUTE_MAX_LENGTH => {
                    linked.map_or(0, |l| max_len(&mut l.attribs.iter().map(|a| a.name.len())))
                }
                GL_ACTIVE_UNIFORMS => linked.map_or(0, |l| l.uniforms.len() as i32),
                GL_ACTIVE_UNIFORM_MAX_LENGTH => {
                    linked.map_or(0, |l| max_len(&mut l.uniforms.iter().map(|u| u.name.len())))
                }
                GL_ACTIVE_UNIFORM_BLOCKS => linked.map_or(0, |l| l.block_count() as i32),
                GL_ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH => linked.map_or(0, |l| {
                    max_len(&mut l.blocks.iter().map(|b| b.max_name_len()))
                }),
                GL_TRANSFORM_FEEDBACK_VARYINGS => linked
                    .and_then(|l| l.xfb.as_ref())
                    .map_or(0, |x| x.varyings.len() as i32),
                GL_TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH => linked
                    .and_then(|l| l.xfb.as_ref())
                    .map_or(0, |x| x.max_name_length() as i32),
                GL_TRANSFORM_FEEDBACK_BUFFER_MODE => {
                    let separate = match linked {
                        Some(l) => l.xfb.as_ref().is_some_and(|x| x.separate),
                        None => p.xfb_request.separate,
                    };
                    if separate {
                        GL_SEPARATE_ATTRIBS as i32
                    } else {
                        GL_INTERLEAVED_ATTRIBS as i32
                    }
                }
                GL_PROGRAM_BINARY_RETRIEVABLE_HINT => i32::from(p.linked_binary_hint),
                crate::gl::objects::program_pipeline::GL_PROGRAM_SEPARABLE => {
                    i32::from(p.separable)
                }
                GL_PROGRAM_BINARY_LENGTH => return self.program_binary_length(name),
                p => return invalid_enum("glGetProgramiv pname", p),
            })
        }
    }

    /// `glGetProgramInfoLog`.
    pub fn program_info_log(&mut self, name: u32) -> String {
        let r = self.program_ref(name).map(|p| p.log.clone());
        self.record(r).unwrap_or_default()
    }

    fn linked_program(&self, name: u32, call: &str) -> GlResult<Arc<program::Linked>> {
        Ok(self.program_ref(name)?.linked(call)?.clone())
    }

    /// `glGetUniformLocation`.
    pub fn get_uniform_location(&mut self, program: u32, name: &str) -> i32 {
        let r = self
            .linked_program(program, "glGetUniformLocation")
            .map(|l| l.uniform_location(name));
        self.record(r).unwrap_or(-1)
    }

    /// `glGetAttribLocation`.
    pub fn get_attrib_location(&mut self, program: u32, name: &str) -> i32 {
        let r = self
            .linked_program(program, "glGetAttribLocation")
            .map(|l| l.attrib_location(name));
        self.record(r).unwrap_or(-1)
    }

    /// `glGetFragDataLocation`.
    pub fn get_frag_data_location(&mut self, program: u32, name: &str) -> i32 {
        let r = self
            .linked_program(program, "glGetFragDataLocation")
            .map(|l| {
                l.frag_outputs
                    .iter()
                    .find(|(n, _, _)| n == name)
                    .map_or(-1, |(_, loc, _)| *loc as i32)
            });
        self.record(r).unwrap_or(-1)
    }

    /// `glGetFragDataIndex`.
    pub fn get_frag_data_index(&mut self, program: u32, name: &str) -> i32 {
        let r = self.linked_program(program, "glGetFragDataIndex").map(|l| {
            l.frag_outputs
                .iter()
                .find(|(n, _, _)| n == name)
                .map_or(-1, |(_, _, index)| *index as i32)
        });
        self.record(r).unwrap_or(-1)
    }

    /// `glUniform{1,2,3,4}{f,i,ui}v` on the current program.
    pub fn uniform(
        &mut self,
        location: i32,
        kind: ValueKind,
        components: u32,
        count: i32,
        data: &[u32],
    ) {
        self.write_current_program("glUniform", |p| {
            set_uniform(p, location, kind, components, count, data)
        });
    }

    /// Runs `write` (a `glUniform*` command, `what`) on the current program, recording its
    /// error, or `GL_INVALID_OPERATION` when no program is current.
    fn write_current_program(
        &mut self,
        what: &str,
        write: impl FnOnce(&mut Program) -> GlResult<()>,
    ) {
        let r = (|| {
            // With no program current, a bound program pipeline's active program
            // (`glActiveShaderProgram`) takes the values.
            let name = match self.program {
                0 => self.pipeline_active_program(),
                name => name,
            };
            if name == 0 {
                return invalid_op(format!("{what} with no current program"));
            }
            write(self.program_mut(name)?)
        })();
        self.record(r);
    }

    /// `glUniformMatrix{C}x{R}fv` on the current program.
    pub fn uniform_matrix(
        &mut self,
        location: i32,
        columns: u32,
        rows: u32,
        count: i32,
        transpose: bool,
        data: &[f32],
    ) {
        self.write_current_program("glUniformMatrix", |p| {
            set_uniform_matrix(p, location, columns, rows, count, transpose, data)
        });
    }

    /// `glUniformMatrix{C}x{R}dv` on the current program.
    pub fn uniform_matrix_double(
        &mut self,
        location: i32,
        (columns, rows): (u32, u32),
        count: i32,
        transpose: bool,
        data: &[f64],
    ) {
        self.write_current_program("glUniformMatrix", |p| {
            program::set_uniform_matrix_double(p, location, columns, rows, count, transpose, data)
        });
    }

    /// `glGetUniform{f,i,ui,d,i64,ui64}v`: the components of the value at `location`.
    pub fn get_uniform(&mut self, program: u32, location: i32) -> UniformValues {
        let r = (|| {
            let p = self.program_ref(program)?;
            let l = p.linked("glGetUniform")?;
            let (index, element) = l.uniform_at("glGetUniform", location)?;
            let u = &l.uniforms[index];
            match u.storage {
                UniformStorage::Sampler(s) => Ok(UniformValues {
                    kind: ScalarKind::Int,
                    words: vec![u64::from(
                        p.sampler_units[s][l.descriptor_element(index, element) as usize],
                    )],
                }),
                UniformStorage::Image(i) => Ok(UniformValues {
                    kind: ScalarKind::Int,
                    words: vec![u64::from(p.image_units[i][element as usize])],
                }),
                UniformStorage::Default {
                    offset,
                    array_stride,
                    matrix_stride,
                    ..
                } => {
                    let (kind, cols, rows) = u.ty.shape().unwrap_or((ScalarKind::Float, 1, 1));
                    let (mstride, astride) =
                        default_block_strides(matrix_stride, array_stride, cols, kind);
                    let base = offset + element * astride;
                    let bytes = kind.bytes();
                    let mut out = Vec::new();
                    for c in 0..cols {
                        for r in 0..rows {
                            let at = (base + c * mstride + r * bytes) as usize;
                            out.push(read_component(&p.uniform_data, at, bytes));
                        }
                    }
                    Ok(UniformValues { kind, words: out })
                }
                UniformStorage::Block { .. } => {
                    invalid_op("uniform-block members have no location")
                }
            }
        })();
        self.record(r).unwrap_or(UniformValues {
            kind: ScalarKind::Float,
            words: Vec::new(),
        })
    }

    /// `glGetActiveUniform`: (name, size, type).
    pub fn get_active_uniform(
        &mut self,
        program: u32,
        index: u32,
    ) -> Option<(String, i32, GLenum)> {
        let r = (|| {
            let l = self.linked_program(program, "glGetActiveUniform")?;
            let u = l
                .uniforms
                .get(index as usize)
                .ok_or_else(|| GlError::InvalidValue(format!("active uniform index {index}")))?;
            Ok((
                u.name.clone(),
                u.size as i32,
                u.ty.gl_enum().unwrap_or(GL_FLOAT_VEC4),
            ))
        })();
        self.record(r)
    }

    /// `glGetActiveUniformsiv`: `pname` of each uniform in `indices`; None (nothing written)
    /// on an error.
    pub fn active_uniforms_iv(
        &mut self,
        program: u32,
        indices: &[u32],
        pname: GLenum,
    ) -> Option<Vec<i32>> {
        let r = (|| {
            let l = self.linked_program(program, "glGetActiveUniformsiv")?;
            let mut out = Vec::with_capacity(indices.len());
            for &i in indices {
                let u = l
                    .uniforms
                    .get(i as usize)
                    .ok_or_else(|| GlError::InvalidValue(format!("active uniform index {i}")))?;
                let (block, layout) = match u.storage {
                    UniformStorage::Block {
                        block,
                        offset,
                        array_stride,
                        matrix_stride,
                        row_major,
                    } => {
                        // The block's GL index is that of its first element.
                        let index: u32 = l.blocks[..block].iter().map(|b| b.array_size).sum();
                        (
                            index as i32,
                            Some((offset, array_stride, matrix_stride, row_major)),
                        )
                    }
                    _ => (-1, None),
                };
                let is_matrix = u.ty.shape().is_some_and(|(_, cols, _)| cols > 1);
                out.push(match pname {
                    GL_UNIFORM_TYPE => u.ty.gl_enum().unwrap_or(GL_FLOAT_VEC4) as i32,
                    GL_UNIFORM_SIZE => u.size as i32,
                    GL_UNIFORM_NAME_LENGTH => u.name.len() as i32 + 1,
                    GL_UNIFORM_BLOCK_INDEX => block,
                    // Uniforms of the default block report -1 / 0 (GL 3.3 §2.11.4).
                    GL_UNIFORM_OFFSET => layout.map_or(-1, |l| l.0 as i32),
                    GL_UNIFORM_ARRAY_STRIDE => {
                        layout.map_or(-1, |l| if u.size > 1 { l.1 as i32 } else { 0 })
                    }
                    GL_UNIFORM_MATRIX_STRIDE => {
                        layout.map_or(-1, |l| if is_matrix { l.2 as i32 } else { 0 })
                    }
                    GL_UNIFORM_IS_ROW_MAJOR => i32::from(layout.is_some_and(|l| l.3 && is_matrix)),
                    p => return invalid_enum("glGetActiveUniformsiv pname", p),
                });
            }
            Ok(out)
        })();
        self.record(r)
    }

    /// `glGetActiveAttrib`: (name, size, type).
    pub fn get_active_attrib(&mut self, program: u32, index: u32) -> Option<(String, i32, GLenum)> {
        let r = (|| {
            let l = self.linked_program(program, "glGetActiveAttrib")?;
            let a = l
                .attribs
                .get(index as usize)
                .ok_or_else(|| GlError::InvalidValue(format!("active attribute index {index}")))?;
            Ok((
                a.name.clone(),
                a.array_size.unwrap_or(1) as i32,
                a.ty.gl_enum().unwrap_or(GL_FLOAT_VEC4),
            ))
        })();
        self.record(r)
    }

    /// `glGetUniformBlockIndex`.
    pub fn get_uniform_block_index(&mut self, program: u32, name: &str) -> u32 {
        let r = self
            .linked_program(program, "glGetUniformBlockIndex")
            .map(|l| l.block_index(name));
        self.record(r).unwrap_or(GL_INVALID_INDEX)
    }

    /// `glUniformBlockBinding`.
    pub fn uniform_block_binding(&mut self, program: u32, index: u32, binding: u32) {
        let r = (|| {
            let l = self.linked_program(program, "glUniformBlockBinding")?;
            if index >= l.block_count() {
                return invalid_value(format!("uniform block index {index}"));
            }
            if binding as usize >= crate::gl::context::MAX_UNIFORM_BUFFER_BINDINGS {
                return invalid_value(format!("uniform buffer binding {binding}"));
            }
            self.program_mut(program)?.block_bindings[index as usize] = binding;
            Ok(())
        })();
        self.record(r);
    }

    /// `glGetActiveUniformBlockiv` (single-valued pnames; indices come from
    /// [`Context::active_uniform_block_indices`]).
    pub fn get_active_uniform_block(&mut self, program: u32, index: u32, pname: GLenum) -> i32 {
        let tessellation = self.device.caps().tessellation_shader;
        let r = (|| {
            let p = self.program_ref(program)?;
            let l = p.linked("glGetActiveUniformBlockiv")?;
            let (b, _) = l
                .block_at(index)
                .ok_or_else(|| GlError::InvalidValue(format!("uniform block index {index}")))?;
            use crate::glsl::Stage;
            Ok(match pname {
                GL_UNIFORM_BLOCK_BINDING => p.block_bindings[index as usize] as i32,
                GL_UNIFORM_BLOCK_DATA_SIZE => b.data_size as i32,
                GL_UNIFORM_BLOCK_NAME_LENGTH => (b.max_name_len() + 1) as i32,
                GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS => b.members.len() as i32,
                GL_UNIFORM_BLOCK_REFERENCED_BY_VERTEX_SHADER => {
                    i32::from(b.stages.contains(Stage::Vertex))
                }
                GL_UNIFORM_BLOCK_REFERENCED_BY_GEOMETRY_SHADER => {
                    i32::from(b.stages.contains(Stage::Geometry))
                }
                GL_UNIFORM_BLOCK_REFERENCED_BY_TESS_CONTROL_SHADER if tessellation => {
                    i32::from(b.stages.contains(Stage::TessControl))
                }
                GL_UNIFORM_BLOCK_REFERENCED_BY_TESS_EVALUATION_SHADER if tessellation => {
                    i32::from(b.stages.contains(Stage::TessEvaluation))
                }
                GL_UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER => {
                    i32::from(b.stages.contains(Stage::Fragment))
                }
                p => return invalid_enum("glGetActiveUniformBlockiv pname", p),
            })
        })();
        self.record(r).unwrap_or(0)
    }

    /// `GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES`.
    pub fn active_uniform_block_indices(&mut self, program: u32, index: u32) -> Vec<i32> {
        let r = (|| {
            let l = self.linked_program(program, "glGetActiveUniformBlockiv")?;
            let (b, _) = l
                .block_at(index)
                .ok_or_else(|| GlError::InvalidValue(format!("uniform block index {index}")))?;
            Ok(b.members.iter().map(|&m| m as i32).collect())
        })();
        self.record(r).unwrap_or_default()
    }

    /// `glGetActiveUniformBlockName`.
    pub fn active_uniform_block_name(&mut self, program: u32, index: u32) -> Option<String> {
        let r = (|| {
            let l = self.linked_program(program, "glGetActiveUniformBlockName")?;
            let (b, e) = l
                .block_at(index)
                .ok_or_else(|| GlError::InvalidValue(format!("uniform block index {index}")))?;
            Ok(b.element_name(e))
        })();
        self.record(r)
    }

    /// `glGetUniformIndices`.
    pub fn uniform_indices(&mut self, program: u32, names: &[String]) -> Vec<u32> {
        let r = self
            .linked_program(program, "glGetUniformIndices")
            .map(|l| {
                names
                    .iter()
                    .map(|n| {
                        l.uniforms
                            .iter()
                            .position(|u| {
                                &u.name == n || u.name.strip_suffix("[0]") == Some(n.as_str())
                            })
                            .map_or(GL_INVALID_INDEX, |i| i as u32)
                    })
                    .collect()
            });
        self.record(r).unwrap_or_default()
    }
}

/// A log's `GL_INFO_LOG_LENGTH`: bytes including the terminating NUL, 0 when empty.
/// The component of `bytes` (4 or 8) bytes at `at` in a default block's data (0 past its end).
fn read_component(data: &[u8], at: usize, bytes: u32) -> u64 {
    let Some(src) = data.get(at..at + bytes as usize) else {
        return 0;
    };
    let mut b = [0u8; 8];
    b[..src.len()].copy_from_slice(src);
    if bytes == 8 {
        u64::from_ne_bytes(b)
    } else {
        u64::from(u32::from_ne_bytes([b[0], b[1], b[2], b[3]]))
    }
}

fn log_length(s: &str) -> i32 {
    if s.is_empty() {
        0
    } else {
        s.len() as i32 + 1
    }
}

#[cfg(test)]
mod uniform_values_tests {
    use super::*;

    #[test]
    fn sixty_four_bit_values_convert_as_state_queries_do() {
        let big = UniformValues {
            kind: ScalarKind::Int64,
            words: vec![(-5_000_000_000i64) as u64],
        };
        assert_eq!(big.int64s(), [-5_000_000_000]);
        assert_eq!(big.doubles(), [-5e9]);
        let d = UniformValues {
            kind: ScalarKind::Double,
            words: vec![2.5f64.to_bits()],
        };
        assert_eq!(
            (d.doubles(), d.floats(), d.ints()),
            (vec![2.5], vec![2.5], vec![3])
        );
        let f = UniformValues {
            kind: ScalarKind::Float,
            words: vec![u64::from(0.5f32.to_bits())],
        };
        assert_eq!(f.doubles(), [0.5]);
        let u = UniformValues {
            kind: ScalarKind::UInt64,
            words: vec![u64::MAX],
        };
        assert_eq!(u.uint64s(), [u64::MAX]);
    }
}
