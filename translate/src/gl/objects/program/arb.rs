//! GL_ARB_shader_objects' own commands (compatibility contexts): one "handle" space for shader
//! and program objects, with commands that take either.
//!
//! Design decisions:
//! - ArenaGL's shader and program names already share one name space (`objects_program`), so a
//!   handle is a name; the commands with a core equivalent (`glCreateShaderObjectARB`,
//!   `glAttachObjectARB`, …) are that command at the C edge, and only what depends on the
//!   object's kind lives here.
//! - `GL_OBJECT_TYPE_ARB` and `GL_OBJECT_SUBTYPE_ARB` are answered here; every other parameter is
//!   the core `glGetShaderiv`/`glGetProgramiv` one (the ARB enums have the core values).
//! - A name that is neither kind is `GL_INVALID_VALUE`, as for the core queries.

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_value, GlResult};
use crate::gl::context::Context;

const GL_PROGRAM_OBJECT_ARB: GLenum = 0x8B40;
const GL_SHADER_OBJECT_ARB: GLenum = 0x8B48;
const GL_OBJECT_TYPE_ARB: GLenum = 0x8B4E;
const GL_OBJECT_SUBTYPE_ARB: GLenum = 0x8B4F;

impl Context {
    fn object_parameter_result(&mut self, handle: u32, pname: GLenum) -> GlResult<i32> {
        if self.is_program(handle) {
            match pname {
                GL_OBJECT_TYPE_ARB => Ok(GL_PROGRAM_OBJECT_ARB as i32),
                GL_OBJECT_SUBTYPE_ARB => invalid_enum("glGetObjectParameterivARB pname", pname),
                _ => self.program_param(handle, pname),
            }
        } else if self.is_shader(handle) {
            match pname {
                GL_OBJECT_TYPE_ARB => Ok(GL_SHADER_OBJECT_ARB as i32),
                GL_OBJECT_SUBTYPE_ARB => self.shader_param(handle, GL_SHADER_TYPE),
                _ => self.shader_param(handle, pname),
            }
        } else {
            invalid_value("glGetObjectParameterivARB: not a shader or program handle")
        }
    }

    /// `glGetObjectParameterivARB`: the value, or None with the error recorded.
    pub fn object_parameter(&mut self, handle: u32, pname: GLenum) -> Option<i32> {
        let r = self.object_parameter_result(handle, pname);
        self.record(r)
    }

    /// `glGetInfoLogARB`.
    pub fn object_info_log(&mut self, handle: u32) -> String {
        if self.is_program(handle) {
            self.program_info_log(handle)
        } else {
            self.shader_info_log(handle)
        }
    }

    /// `glDeleteObjectARB` (0 is ignored).
    pub fn delete_object(&mut self, handle: u32) {
        if self.is_program(handle) {
            self.delete_program(handle);
        } else if handle == 0 || self.is_shader(handle) {
            self.delete_shader(handle);
        } else {
            self.record::<()>(invalid_value(
                "glDeleteObjectARB: not a shader or program handle",
            ));
        }
    }

    /// `glGetHandleARB`: the current program for `GL_PROGRAM_OBJECT_ARB`.
    pub fn handle(&mut self, pname: GLenum) -> u32 {
        match pname {
            GL_PROGRAM_OBJECT_ARB => self.program,
            _ => {
                self.record::<()>(invalid_enum("glGetHandleARB pname", pname));
                0
            }
        }
    }
}
