//! Shader programs: compile, link, and report the info log when either fails.
//!
//! Attribute and fragment-output locations are bound by name before linking
//! (`glBindAttribLocation`, `glBindFragDataLocation`), the GL 3.3 way, rather than with
//! `layout(location)` qualifiers, so the scenes exercise both entry points.

use std::ffi::CStr;

use super::gl::{consts::*, GLuint};
use super::{Gl, GlClientError};

/// Compiles one shader; on failure the shader is deleted and its log returned.
pub fn compile(gl: &Gl, kind: u32, source: &str, what: &str) -> Result<GLuint, GlClientError> {
    let shader = gl.create_shader(kind);
    if shader == 0 {
        gl.check_error(what)?;
        return Err(GlClientError::Usage(format!(
            "{what}: glCreateShader returned 0"
        )));
    }
    gl.shader_source(shader, source);
    gl.compile_shader(shader);
    if gl.shader_param(shader, COMPILE_STATUS) == 0 {
        let log = gl.shader_info_log(shader);
        gl.delete_shader(shader);
        return Err(GlClientError::Shader {
            what: format!("{what} did not compile"),
            log,
        });
    }
    Ok(shader)
}

/// Builds a program from GLSL 330 core sources, with `attributes` bound to their locations and
/// fragment output `frag_color` on draw buffer 0.
pub fn link(
    gl: &Gl,
    name: &str,
    vertex: &str,
    fragment: &str,
    attributes: &[(u32, &CStr)],
) -> Result<GLuint, GlClientError> {
    let vs = compile(gl, VERTEX_SHADER, vertex, &format!("{name}: vertex shader"))?;
    let fs = match compile(
        gl,
        FRAGMENT_SHADER,
        fragment,
        &format!("{name}: fragment shader"),
    ) {
        Ok(fs) => fs,
        Err(e) => {
            gl.delete_shader(vs);
            return Err(e);
        }
    };
    let program = gl.create_program();
    gl.attach_shader(program, vs);
    gl.attach_shader(program, fs);
    for &(index, attribute) in attributes {
        gl.bind_attrib_location(program, index, attribute);
    }
    gl.bind_frag_data_location(program, 0, c"frag_color");
    gl.link_program(program);
    // The program keeps the shaders' code; flagging them now frees them with the program.
    gl.delete_shader(vs);
    gl.delete_shader(fs);
    if gl.program_param(program, LINK_STATUS) == 0 {
        let log = gl.program_info_log(program);
        gl.delete_program(program);
        return Err(GlClientError::Shader {
            what: format!("{name}: program did not link"),
            log,
        });
    }
    gl.check_error(&format!("{name}: building the program"))?;
    Ok(program)
}

/// A uniform's location, or an error naming it when the program has no such active uniform.
pub fn uniform(gl: &Gl, program: GLuint, name: &CStr) -> Result<i32, GlClientError> {
    match gl.uniform_location(program, name) {
        -1 => Err(GlClientError::Usage(format!(
            "the program has no active uniform {name:?}"
        ))),
        location => Ok(location),
    }
}
