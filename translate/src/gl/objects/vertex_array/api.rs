//! Vertex-array entry points: names and binding, attribute arrays (`glVertexAttribPointer`,
//! enables, divisors), current attribute values, and `glGetVertexAttrib`. The buffers they name
//! are bound through `buffer::api`; the element-array binding lives in the vertex array too.

use std::sync::Arc;

use crate::gl::context::enums::*;
use crate::gl::context::error::{
    gen_count, invalid_enum, invalid_op, invalid_value, GlError, GlResult,
};
use crate::gl::context::Context;
use crate::gl::objects::vertex_array::{
    binding, check_pointer, packed_float, unpack_2_10_10_10, AttribArray, VertexArray,
};

impl Context {
    /// The name of the VAO commands act on: the bound one, or the one a DSA command names
    /// (`dsa`).
    pub(crate) fn edited_vao(&self) -> u32 {
        self.dsa.vertex_array.unwrap_or(self.vertex_array)
    }

    /// The VAO commands act on: the bound one (or a DSA command's), or the default one of a
    /// compatibility context.
    pub(crate) fn current_vao(&self) -> Option<&VertexArray> {
        self.current_vao_shared().map(|v| &**v)
    }

    /// [`Context::current_vao`] as the shared object, which a draw holds without copying it.
    pub(crate) fn current_vao_shared(&self) -> Option<&Arc<VertexArray>> {
        if self.edited_vao() == 0 {
            (self.profile == crate::gl::context::Profile::Compatibility)
                .then_some(&self.default_vertex_array)
        } else {
            self.vertex_arrays.get(self.edited_vao())
        }
    }

    /// [`Context::current_vao`] to change: `GL_INVALID_OPERATION` in a core context with none
    /// bound.
    pub(crate) fn current_vao_mut(&mut self) -> GlResult<&mut VertexArray> {
        let name = self.edited_vao();
        if name == 0 {
            if self.profile == crate::gl::context::Profile::Compatibility {
                return Ok(Arc::make_mut(&mut self.default_vertex_array));
            }
            return invalid_op("no vertex array object is bound (core profile)");
        }
        self.vertex_arrays
            .get_mut(name)
            .map(Arc::make_mut)
            .ok_or_else(|| GlError::InvalidOperation("the bound vertex array is gone".into()))
    }

    /// Where `GL_ELEMENT_ARRAY_BUFFER` binds: the bound VAO, or with none the context's own
    /// (binding it without a VAO is legal even in the core profile; drawing is not).
    pub(crate) fn element_vao(&self) -> &VertexArray {
        self.vertex_arrays
            .get(self.edited_vao())
            .unwrap_or(&self.default_vertex_array)
    }

    /// [`Context::element_vao`] to change.
    pub(crate) fn element_vao_mut(&mut self) -> &mut VertexArray {
        match self.vertex_arrays.get_mut(self.edited_vao()) {
            Some(v) => Arc::make_mut(v),
            None => Arc::make_mut(&mut self.default_vertex_array),
        }
    }

    /// `glGenVertexArrays`.
    pub fn gen_vertex_arrays(&mut self, n: i32) -> Vec<u32> {
        let r = gen_count("glGenVertexArrays", n).map(|n| self.vertex_arrays.generate(n));
        self.record(r).unwrap_or_default()
    }

    /// `glIsVertexArray`.
    pub fn is_vertex_array(&self, name: u32) -> bool {
        self.vertex_arrays.exists(name)
    }

    /// `glBindVertexArray`.
    pub fn bind_vertex_array(&mut self, name: u32) {
        if name != 0
            && self
                .vertex_arrays
                .get_or_create(name, Arc::default)
                .is_none()
        {
            self.record::<()>(invalid_op(format!(
                "glBindVertexArray: {name} is not a vertex array name"
            )));
            return;
        }
        if self.vertex_array != name {
            // Deleted buffers its arrays no longer read are let go of (cheap when none).
            self.element_vao_mut().prune();
        }
        self.vertex_array = name;
    }

    /// `glDeleteVertexArrays`.
    pub fn delete_vertex_arrays(&mut self, names: &[u32]) {
        for &name in names {
            if name != 0 && self.vertex_arrays.is_reserved(name) {
                if self.vertex_array == name {
                    self.vertex_array = 0;
                }
                self.vertex_arrays.remove(name);
            }
        }
    }

    pub(super) fn attrib_index(&self, index: u32) -> GlResult<usize> {
        let max = self.max_vertex_attribs();
        if index >= max {
            return invalid_value(format!(
                "vertex attribute {index} (GL_MAX_VERTEX_ATTRIBS is {max})"
            ));
        }
        Ok(index as usize)
    }

    /// `glEnableVertexAttribArray` / `glDisableVertexAttribArray`.
    pub fn set_vertex_attrib_array(&mut self, index: u32, enabled: bool) {
        self.change_attrib(index, |a| a.enabled = enabled);
    }

    /// Applies `change` to attribute `index` of the bound vertex array (recording the error of
    /// a bad index, or of no vertex array bound).
    fn change_attrib(&mut self, index: u32, change: impl FnOnce(&mut AttribArray)) {
        let r = (|| {
            let i = self.attrib_index(index)?;
            change(&mut self.current_vao_mut()?.attribs[i]);
            Ok(())
        })();
        self.record(r);
    }

    /// `glVertexAttribPointer` / `glVertexAttribIPointer` (`integer`).
    ///
    /// # Safety
    /// In a compatibility context with no buffer bound to `GL_ARRAY_BUFFER`, `offset` is the
    /// address of a client array (GL's client-array contract): until the attribute is
    /// specified again, every draw that reads it needs the elements it reads to be readable
    /// memory for that draw's duration. With a buffer bound it is an offset into the buffer
    /// and may be anything.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn vertex_attrib_pointer(
        &mut self,
        index: u32,
        size: i32,
        ty: GLenum,
        normalized: bool,
        stride: i32,
        offset: usize,
        integer: bool,
    ) {
        // SAFETY: the caller's contract is this function's.
        let r = unsafe {
            self.point_attrib(index, (size, ty), (normalized, integer), stride, offset)
                .map(|_| ())
        };
        self.record(r);
    }

    /// [`Context::vertex_attrib_pointer`] without recording the error: the array re-pointed.
    ///
    /// # Safety
    /// As [`Context::vertex_attrib_pointer`].
    pub(super) unsafe fn point_attrib(
        &mut self,
        index: u32,
        (size, ty): (i32, GLenum),
        (normalized, integer): (bool, bool),
        stride: i32,
        offset: usize,
    ) -> GlResult<&mut AttribArray> {
        let i = self.attrib_index(index)?;
        check_pointer(size, ty, integer, stride)?;
        if stride > self.device.caps().limits.max_vertex_input_binding_stride as i32 {
            return invalid_value(format!("stride {stride} above GL_MAX_VERTEX_ATTRIB_STRIDE"));
        }
        let buffer = self.array_buffer;
        if buffer == 0 && offset != 0 && self.vertex_array != 0 {
            return invalid_op("client-side vertex arrays need a compatibility context");
        }
        let a = &mut self.current_vao_mut()?.attribs[i];
        *a = a.pointed_at(
            (size, ty),
            (normalized, integer),
            stride,
            (buffer, offset as u64),
        );
        let vao = self.current_vao_mut()?;
        vao.point_binding(i, buffer, offset as u64, stride);
        vao.prune();
        Ok(&mut vao.attribs[i])
    }

    /// `glVertexAttribDivisor`.
    pub fn vertex_attrib_divisor(&mut self, index: u32, divisor: u32) {
        let r = (|| {
            let i = self.attrib_index(index)?;
            self.current_vao_mut()?.attrib_divisor(i, divisor);
            Ok(())
        })();
        self.record(r);
    }

    /// `glVertexAttrib4f` and friends: `words` are the four components' bits.
    pub fn vertex_attrib(&mut self, index: u32, words: [u32; 4]) {
        let r = self
            .attrib_index(index)
            .map(|i| self.current_attribs[i].words = words);
        self.record(r);
    }

    /// `glVertexAttribP{n}ui`: `n` components of a packed 2_10_10_10_REV or (`n` up to 3)
    /// 10F_11F_11F_REV word.
    pub fn vertex_attrib_packed(
        &mut self,
        index: u32,
        n: usize,
        ty: GLenum,
        normalized: bool,
        word: u32,
    ) {
        let value = match ty {
            packed_float::GL_UNSIGNED_INT_10F_11F_11F_REV => packed_float::unpack(n, word),
            _ => unpack_2_10_10_10(ty, n, normalized, word),
        };
        let r = match value {
            None => invalid_enum("glVertexAttribP type", ty),
            Some(v) => self
                .attrib_index(index)
                .map(|i| self.current_attribs[i].words = v.map(f32::to_bits)),
        };
        self.record(r);
    }

    /// `glGetVertexAttribiv`/`fv` (as f64 values; `GL_CURRENT_VERTEX_ATTRIB` gives 4).
    pub fn get_vertex_attrib(&mut self, index: u32, pname: GLenum) -> Vec<f64> {
        let r = (|| {
            let i = self.attrib_index(index)?;
            if pname == GL_CURRENT_VERTEX_ATTRIB {
                return Ok(self.current_attribs[i]
                    .words
                    .iter()
                    .map(|w| f64::from(f32::from_bits(*w)))
                    .collect());
            }
            let vao = self.current_vao().ok_or_else(|| {
                GlError::InvalidOperation("no vertex array object is bound".into())
            })?;
            let a = vao.attribs[i];
            let v = match pname {
                GL_VERTEX_ATTRIB_ARRAY_ENABLED => f64::from(u8::from(a.enabled)),
                GL_VERTEX_ATTRIB_ARRAY_SIZE => f64::from(a.size),
                GL_VERTEX_ATTRIB_ARRAY_STRIDE => f64::from(a.stride),
                GL_VERTEX_ATTRIB_ARRAY_TYPE => f64::from(a.ty),
                GL_VERTEX_ATTRIB_ARRAY_NORMALIZED => f64::from(u8::from(a.normalized)),
                GL_VERTEX_ATTRIB_ARRAY_INTEGER => f64::from(u8::from(a.integer)),
                GL_VERTEX_ATTRIB_ARRAY_LONG => f64::from(u8::from(a.long)),
                GL_VERTEX_ATTRIB_ARRAY_DIVISOR => f64::from(a.divisor),
                GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING => f64::from(vao.buffer_name(a.buffer)),
                GL_VERTEX_ATTRIB_ARRAY_POINTER => a.offset as f64,
                binding::GL_VERTEX_ATTRIB_BINDING => vao.bindings.binding_of(i) as f64,
                binding::GL_VERTEX_ATTRIB_RELATIVE_OFFSET => {
                    f64::from(vao.bindings.relative_offset(i))
                }
                p => return invalid_enum("glGetVertexAttrib pname", p),
            };
            Ok(vec![v])
        })();
        self.record(r).unwrap_or_default()
    }
}
