//! DSA for vertex arrays: `glCreateVertexArrays`, `glVertexArrayElementBuffer`,
//! `glGetVertexArrayiv` and `glGetVertexArrayIndexediv`. The attribute commands
//! (`glEnableVertexArrayAttrib`, …) are their `glVertexAttrib*` twins run on the selected
//! vertex array (`Context::current_vao_mut` answers with the selection).

use crate::gl::context::enums::*;
use crate::gl::context::error::{gen_count, invalid_enum, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::multi_bind::VertexBuffers;
use crate::gl::objects::vertex_array::binding::{
    GL_VERTEX_ATTRIB_RELATIVE_OFFSET, GL_VERTEX_BINDING_OFFSET,
};
use crate::gl::objects::vertex_array::VertexArray;

use super::{not_created, Named};

impl Context {
    /// `glCreateVertexArrays`.
    pub fn create_vertex_arrays(&mut self, n: i32) -> Vec<u32> {
        let r = gen_count("glCreateVertexArrays", n).map(|n| {
            self.vertex_arrays
                .create(n, std::sync::Arc::<VertexArray>::default)
        });
        self.record(r).unwrap_or_default()
    }

    /// `glVertexArrayElementBuffer`: `glBindBuffer(GL_ELEMENT_ARRAY_BUFFER)` on `vao`; the
    /// buffer must be 0 or a created buffer.
    pub fn vertex_array_element_buffer(&mut self, vao: u32, buffer: u32) {
        const CALL: &str = "glVertexArrayElementBuffer";
        if buffer != 0 && !self.buffers.exists(buffer) {
            return self
                .record::<()>(not_created(CALL, "buffer", buffer))
                .unwrap_or_default();
        }
        if self.dsa_select(CALL, Named::VertexArray(vao)).is_some() {
            self.bind_buffer(GL_ELEMENT_ARRAY_BUFFER, buffer);
            self.dsa_release();
        }
    }

    /// `glGetVertexArrayiv`: `GL_ELEMENT_ARRAY_BUFFER_BINDING` of `vao` (`None`: error recorded).
    pub fn get_vertex_array(&mut self, vao: u32, pname: GLenum) -> Option<i32> {
        let r = (|| -> GlResult<i32> {
            if pname != GL_ELEMENT_ARRAY_BUFFER_BINDING {
                return invalid_enum("glGetVertexArrayiv pname", pname);
            }
            match self
                .vertex_arrays
                .get(vao)
                .filter(|_| self.vertex_arrays.exists(vao))
            {
                Some(v) => Ok(v.element_buffer as i32),
                None => not_created("glGetVertexArrayiv", "vertex array", vao),
            }
        })();
        self.record(r)
    }

    /// `glVertexArrayVertexBuffers` (`glVertexArrayVertexBuffer` with one): binding points
    /// `first ..` of `vao` read `buffers` at `offsets`, `strides` apart (all three of one length);
    /// no buffers (`None`) unbinds them. Each binding point is set or refused on its own (the
    /// multi-bind rule); the first error is the one recorded.
    pub fn vertex_array_vertex_buffers(
        &mut self,
        vao: u32,
        first: u32,
        count: i32,
        buffers: Option<VertexBuffers>,
    ) {
        const CALL: &str = "glVertexArrayVertexBuffers";
        if self.dsa_select(CALL, Named::VertexArray(vao)).is_none() {
            return;
        }
        let r = self.bind_vertex_buffers_checked(CALL, first, count, buffers);
        self.dsa_release();
        self.record(r);
    }

    /// `glGetVertexArrayIndexed64iv`: `GL_VERTEX_BINDING_OFFSET` of binding point `index` of
    /// `vao` (`None`: error recorded).
    pub fn get_vertex_array_binding_offset(
        &mut self,
        vao: u32,
        index: u32,
        pname: GLenum,
    ) -> Option<i64> {
        const CALL: &str = "glGetVertexArrayIndexed64iv";
        if pname != GL_VERTEX_BINDING_OFFSET {
            return self.record(invalid_enum(CALL, pname));
        }
        self.dsa_select(CALL, Named::VertexArray(vao))?;
        let r = self.get_vertex_binding(pname, index);
        self.dsa_release();
        self.record(r.unwrap_or_else(|| invalid_enum(CALL, pname)))
    }

    /// `glGetVertexArrayIndexediv`: `glGetVertexAttribiv` of attribute `index` of `vao` (`None`:
    /// error recorded).
    pub fn get_vertex_array_indexed(&mut self, vao: u32, index: u32, pname: GLenum) -> Option<i64> {
        const CALL: &str = "glGetVertexArrayIndexediv";
        if !vertex_array_indexed_pname(pname) {
            return self.record(invalid_enum(CALL, pname));
        }
        self.dsa_select(CALL, Named::VertexArray(vao))?;
        let before = self.errors_raised();
        let v = self.get_vertex_attrib(index, pname);
        self.dsa_release();
        (self.errors_raised() == before).then(|| v.first().copied().unwrap_or(0.0) as i64)
    }
}

/// The `pname`s `glGetVertexArrayIndexediv` takes (GL 4.6 table 23.5's attribute state, less
/// the current value and the buffer binding, which it has no name for).
fn vertex_array_indexed_pname(pname: GLenum) -> bool {
    matches!(
        pname,
        GL_VERTEX_ATTRIB_ARRAY_ENABLED
            | GL_VERTEX_ATTRIB_ARRAY_SIZE
            | GL_VERTEX_ATTRIB_ARRAY_STRIDE
            | GL_VERTEX_ATTRIB_ARRAY_TYPE
            | GL_VERTEX_ATTRIB_ARRAY_NORMALIZED
            | GL_VERTEX_ATTRIB_ARRAY_INTEGER
            | GL_VERTEX_ATTRIB_ARRAY_LONG
            | GL_VERTEX_ATTRIB_ARRAY_DIVISOR
            | GL_VERTEX_ATTRIB_RELATIVE_OFFSET
    )
}
