//! 64-bit vertex attributes (GL_ARB_vertex_attrib_64bit): `glVertexAttribLPointer` arrays,
//! `glVertexAttribL*` current values, and the Vulkan formats double inputs read.
//!
//! Design decisions:
//! - An `L` array (`AttribArray::long`) holds doubles the shader reads as they are: drivers
//!   need not read `R64*_SFLOAT` vertex formats (lavapipe does not), so the vertex module reads
//!   each double input through `uvec` inputs (`glsl::double_inputs`) and the array feeds them
//!   through `R32*_UINT` formats, bytes 0–15 of an element at the input's first Vulkan location
//!   and bytes 16–31 (a `dvec3`'s or `dvec4`'s) at its second. Other arrays keep converting
//!   doubles to floats for 32-bit inputs.
//! - GL leaves undefined what a 64-bit input reads from a non-`L` array, and what a 32-bit input
//!   reads from an `L` array; Vulkan forbids both pairings (the format's width must match the
//!   input's), so such a draw is `GL_INVALID_OPERATION` instead of undefined values.
//! - The `L` current value is kept apart from the 32-bit one (`CurrentAttrib::long`): a
//!   64-bit input with no enabled array reads it, as doubles.

use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_value};
use crate::gl::context::Context;
use crate::gl::objects::vertex_array::AttribArray;
use crate::glsl::ScalarKind;

/// The format of the first 16 bytes of an `L` array's element of `GL_DOUBLE`s (the only type
/// `L` arrays take), as the lowered shader reads them: `R32G32_UINT` for one double,
/// `R32G32B32A32_UINT` for two or more (see `glsl::double_inputs`).
pub(super) fn vertex_format(a: &AttribArray) -> Option<vk::Format> {
    match (a.ty, a.size) {
        (GL_DOUBLE, 1) => Some(vk::Format::R32G32_UINT),
        (GL_DOUBLE, 2..=4) => Some(vk::Format::R32G32B32A32_UINT),
        _ => None,
    }
}

/// The format of the bytes past the first 16 of an `L` array's element (the second Vulkan
/// location of a `dvec3`/`dvec4` input); `None` for one or two doubles, which have none.
pub(crate) fn high_format(a: &AttribArray) -> Option<vk::Format> {
    match a.size {
        3 => Some(vk::Format::R32G32_UINT),
        4 => Some(vk::Format::R32G32B32A32_UINT),
        _ => None,
    }
}

/// The format an array feeds an input of `kind` through when either is 64-bit: an `L` array
/// into a `double` input only (see the module notes).
pub(super) fn input_format(a: &AttribArray, kind: ScalarKind) -> Option<vk::Format> {
    (a.long && kind == ScalarKind::Double)
        .then(|| vertex_format(a))
        .flatten()
}

/// The bytes of a 64-bit input's current value (`glVertexAttribL4d`'s), read as two
/// `R32G32B32A32_UINT` locations through bindings of stride 0.
pub(crate) fn current_value(long: [u64; 4]) -> Vec<u8> {
    long.iter().flat_map(|v| v.to_ne_bytes()).collect()
}

impl Context {
    /// `glVertexAttribLPointer`: an array of `size` doubles per vertex (`ty` must be
    /// `GL_DOUBLE`) that 64-bit inputs read as doubles.
    ///
    /// # Safety
    /// As [`Context::vertex_attrib_pointer`] (a client array's address in a compatibility
    /// context with no `GL_ARRAY_BUFFER` bound).
    pub unsafe fn vertex_attrib_l_pointer(
        &mut self,
        index: u32,
        size: i32,
        ty: GLenum,
        stride: i32,
        offset: usize,
    ) {
        let r = if ty != GL_DOUBLE {
            invalid_enum("glVertexAttribLPointer type", ty)
        } else if !(1..=4).contains(&size) {
            // GL_BGRA included: only the 32-bit pointers take it.
            invalid_value(format!("glVertexAttribLPointer size {size}"))
        } else {
            // SAFETY: the caller's contract is this function's.
            unsafe { self.point_attrib(index, (size, ty), (false, false), stride, offset) }
                .map(|a| a.long = true)
        };
        self.record(r);
    }

    /// `glVertexAttribL{1,2,3,4}d(v)`: `values` are the four components (GL fills missing ones
    /// with 0, 0, 1).
    pub fn vertex_attrib_l(&mut self, index: u32, values: [f64; 4]) {
        let r = self
            .attrib_index(index)
            .map(|i| self.current_attribs[i].long = values.map(f64::to_bits));
        self.record(r);
    }

    /// `glGetVertexAttribLdv`: as `glGetVertexAttribdv`, except that
    /// `GL_CURRENT_VERTEX_ATTRIB` answers the `glVertexAttribL*` value.
    pub fn get_vertex_attrib_l(&mut self, index: u32, pname: GLenum) -> Vec<f64> {
        if pname != GL_CURRENT_VERTEX_ATTRIB {
            return self.get_vertex_attrib(index, pname);
        }
        let r = self.attrib_index(index).map(|i| {
            self.current_attribs[i]
                .long
                .iter()
                .map(|&b| f64::from_bits(b))
                .collect()
        });
        self.record(r).unwrap_or_default()
    }
}
