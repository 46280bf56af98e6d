//! What the scenes share: an owner of their GL objects, so each scene deletes everything it made
//! (which exercises the `glDelete*` entry points), and the attribute slots they bind by name.

use std::ffi::CStr;

use crate::glclient::gl::{consts::*, GLenum, GLuint, Plain};
use crate::glclient::{program, Gl, GlClientError};

/// Attribute slot of the position.
pub const POSITION: u32 = 0;
/// Attribute slot of the colour.
pub const COLOR: u32 = 1;
/// Attribute slot of the texture coordinate or a per-instance value.
pub const EXTRA: u32 = 2;
/// Attribute slot of an integer attribute.
pub const INTEGER: u32 = 3;

/// The GL objects a scene made, deleted together.
#[derive(Default)]
pub struct Objects {
    buffers: Vec<GLuint>,
    arrays: Vec<GLuint>,
    textures: Vec<GLuint>,
    programs: Vec<GLuint>,
}

impl Objects {
    /// A buffer bound to `target`, filled with `data`.
    pub fn buffer<T: Plain>(
        &mut self,
        gl: &Gl,
        target: GLenum,
        data: &[T],
        usage: GLenum,
    ) -> GLuint {
        let name = gl.gen_buffer();
        gl.bind_buffer(target, name);
        gl.buffer_data(target, data, usage);
        self.buffers.push(name);
        name
    }

    /// A buffer bound to `target` with `size` bytes of undefined contents.
    pub fn buffer_uninit(&mut self, gl: &Gl, target: GLenum, size: usize, usage: GLenum) -> GLuint {
        let name = gl.gen_buffer();
        gl.bind_buffer(target, name);
        gl.buffer_storage_uninit(target, size, usage);
        self.buffers.push(name);
        name
    }

    /// A vertex array, bound.
    pub fn vertex_array(&mut self, gl: &Gl) -> GLuint {
        let name = gl.gen_vertex_array();
        gl.bind_vertex_array(name);
        self.arrays.push(name);
        name
    }

    /// A 2D texture, bound to the active unit.
    pub fn texture(&mut self, gl: &Gl) -> GLuint {
        let name = gl.gen_texture();
        gl.bind_texture(TEXTURE_2D, name);
        self.textures.push(name);
        name
    }

    /// A linked program (see [`program::link`]).
    pub fn program(
        &mut self,
        gl: &Gl,
        name: &str,
        vertex: &str,
        fragment: &str,
        attributes: &[(u32, &CStr)],
    ) -> Result<GLuint, GlClientError> {
        let program = program::link(gl, name, vertex, fragment, attributes)?;
        self.programs.push(program);
        Ok(program)
    }

    /// Deletes everything, unbinding first.
    pub fn release(&mut self, gl: &Gl) {
        gl.use_program(0);
        gl.bind_vertex_array(0);
        for p in self.programs.drain(..) {
            gl.delete_program(p);
        }
        for a in self.arrays.drain(..) {
            gl.delete_vertex_array(a);
        }
        for b in self.buffers.drain(..) {
            gl.delete_buffer(b);
        }
        for t in self.textures.drain(..) {
            gl.delete_texture(t);
        }
    }
}

/// Float attribute `index`: `size` floats at byte `offset` of `stride`-byte vertices of the bound
/// array buffer.
pub fn float_attribute(gl: &Gl, index: u32, size: i32, stride: usize, offset: usize) {
    gl.enable_vertex_attrib_array(index);
    gl.vertex_attrib_pointer(index, size, FLOAT, false, stride, offset);
}
