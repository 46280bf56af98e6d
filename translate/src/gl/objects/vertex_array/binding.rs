//! GL_ARB_vertex_attrib_binding (GL 4.3): a vertex array's generic attributes as formats that
//! read from vertex buffer binding points (`glBindVertexBuffer`, `glVertexAttribFormat`,
//! `glVertexAttribBinding`, `glVertexBindingDivisor`, and their queries).
//!
//! Design decisions:
//! - The draw path reads each attribute's *resolved* array ([`AttribArray`]: buffer, offset,
//!   stride and divisor of its own); the binding points live beside the attributes
//!   ([`VertexBindings`]) and every change re-resolves the attributes that read the binding
//!   it touched ([`VertexArray::resolve`]). So draws, client arrays and repacking are unchanged.
//! - `glVertexAttribPointer` is what GL 4.3 defines it as: a format, attribute `i` reading
//!   binding `i`, and binding `i` pointed at the buffer (`VertexArray::point_binding`, called
//!   by `api`); `glVertexAttribDivisor` likewise sets binding `i`'s divisor.
//! - A binding's stride of 0 means "every vertex reads the same element"; a legacy pointer's
//!   stride of 0 means "packed" (`VertexBinding::packed`): [`AttribArray::zero_stride`] tells
//!   the two apart for the draw.
//! - Binding points hold buffer names like the attributes; a deleted buffer is renamed in both
//!   ([`VertexArray::rename_buffer`]).

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_enum, invalid_op, invalid_value, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::buffer::Buffer;
use crate::gl::objects::vertex_array::{
    check_pointer, AttribArray, VertexArray, MAX_VERTEX_ATTRIBS,
};

/// Binding points per vertex array (`GL_MAX_VERTEX_ATTRIB_BINDINGS`): one per generic
/// attribute, which `glVertexAttribPointer(i, …)` points binding `i` for. GL-side only: a draw
/// gives every Vulkan location a binding of its own.
pub const MAX_VERTEX_ATTRIB_BINDINGS: u32 = MAX_VERTEX_ATTRIBS;
/// The largest `relativeoffset` (`GL_MAX_VERTEX_ATTRIB_RELATIVE_OFFSET`, GL's minimum).
pub const MAX_VERTEX_ATTRIB_RELATIVE_OFFSET: u32 = 2047;

pub const GL_VERTEX_ATTRIB_BINDING: GLenum = 0x82D4;
pub const GL_VERTEX_ATTRIB_RELATIVE_OFFSET: GLenum = 0x82D5;
pub const GL_VERTEX_BINDING_DIVISOR: GLenum = 0x82D6;
pub const GL_VERTEX_BINDING_OFFSET: GLenum = 0x82D7;
pub const GL_VERTEX_BINDING_STRIDE: GLenum = 0x82D8;
pub const GL_MAX_VERTEX_ATTRIB_RELATIVE_OFFSET: GLenum = 0x82D9;
pub const GL_MAX_VERTEX_ATTRIB_BINDINGS: GLenum = 0x82DA;
pub const GL_VERTEX_BINDING_BUFFER: GLenum = 0x8F4F;
pub const GL_MAX_VERTEX_ATTRIB_STRIDE: GLenum = 0x82E5;

/// One vertex buffer binding point.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct VertexBinding {
    pub buffer: u32,
    pub offset: u64,
    pub stride: i32,
    /// Set by a legacy pointer of stride 0: elements are packed, not all the same.
    pub packed: bool,
    pub divisor: u32,
}

/// A vertex array's binding points and which one each generic attribute reads.
#[derive(Debug, Clone, Default)]
pub(crate) struct VertexBindings {
    pub points: [VertexBinding; MAX_VERTEX_ATTRIB_BINDINGS as usize],
    /// Per generic attribute: the binding it reads (`None`: its own index, GL's default).
    reads: [Option<u8>; MAX_VERTEX_ATTRIBS as usize],
    relative_offset: [u32; MAX_VERTEX_ATTRIBS as usize],
}

impl VertexBindings {
    /// The binding generic attribute `attrib` reads.
    pub(crate) fn binding_of(&self, attrib: usize) -> usize {
        self.reads[attrib].map_or(attrib, usize::from)
    }

    pub(crate) fn relative_offset(&self, attrib: usize) -> u32 {
        self.relative_offset[attrib]
    }
}

impl VertexArray {
    /// Re-derives the buffer, offset, stride and divisor of every generic attribute that reads
    /// binding `binding`.
    pub(crate) fn resolve(&mut self, binding: usize) {
        let b = self.bindings.points[binding];
        for i in 0..MAX_VERTEX_ATTRIBS as usize {
            if self.bindings.binding_of(i) != binding {
                continue;
            }
            let a = &mut self.attribs[i];
            a.buffer = b.buffer;
            a.offset = b.offset + u64::from(self.bindings.relative_offset[i]);
            a.stride = b.stride;
            a.zero_stride = b.stride == 0 && !b.packed;
            a.divisor = b.divisor;
        }
    }

    /// What `glVertexAttribPointer` does beyond the format (GL 4.3 §10.3.2): attribute `i`
    /// reads binding `i` at relative offset 0, and binding `i` points at `buffer`, `offset`.
    pub(crate) fn point_binding(&mut self, i: usize, buffer: u32, offset: u64, stride: i32) {
        self.bindings.reads[i] = None;
        self.bindings.relative_offset[i] = 0;
        let divisor = self.bindings.points[i].divisor;
        self.bindings.points[i] = VertexBinding {
            buffer,
            offset,
            stride,
            packed: stride == 0,
            divisor,
        };
        self.resolve(i);
    }

    /// `glVertexAttribDivisor`: attribute `i` reads binding `i`, whose divisor is `divisor`.
    pub(crate) fn attrib_divisor(&mut self, i: usize, divisor: u32) {
        self.bindings.reads[i] = None;
        self.bindings.points[i].divisor = divisor;
        self.resolve(i);
    }

    /// Every array and binding point that names buffer `from` names `to` instead.
    pub(crate) fn rename_buffer(&mut self, from: u32, to: u32) {
        for a in self.attribs.iter_mut().filter(|a| a.buffer == from) {
            a.buffer = to;
        }
        for b in self.bindings.points.iter_mut().filter(|b| b.buffer == from) {
            b.buffer = to;
        }
    }

    /// Whether an attribute array or a binding point names buffer `name`.
    pub(crate) fn reads_buffer(&self, name: u32) -> bool {
        self.attribs.iter().any(|a| a.buffer == name)
            || self.bindings.points.iter().any(|b| b.buffer == name)
    }
}

/// A binding index, `GL_INVALID_VALUE` past the last.
fn binding_index(what: &str, index: u32) -> GlResult<usize> {
    if index >= MAX_VERTEX_ATTRIB_BINDINGS {
        return invalid_value(format!(
            "{what}: binding {index} (GL_MAX_VERTEX_ATTRIB_BINDINGS is {MAX_VERTEX_ATTRIB_BINDINGS})"
        ));
    }
    Ok(index as usize)
}

/// The kind of format `glVertexAttrib{,I,L}Format` sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormatKind {
    /// `glVertexAttribFormat`: converted to floats (normalized or not).
    Float { normalized: bool },
    /// `glVertexAttribIFormat`: read as integers.
    Integer,
    /// `glVertexAttribLFormat`: doubles read as doubles.
    Long,
}

impl Context {
    /// `glBindVertexBuffer`: binding point `index` of the current vertex array reads `buffer`
    /// from `offset`, `stride` bytes apart.
    pub fn bind_vertex_buffer(&mut self, index: u32, buffer: u32, offset: i64, stride: i32) {
        let r =
            self.bind_vertex_buffer_checked("glBindVertexBuffer", index, buffer, offset, stride);
        self.record(r);
    }

    /// [`Context::bind_vertex_buffer`] without recording the error (`glBindVertexBuffers`
    /// runs it once per binding).
    pub(crate) fn bind_vertex_buffer_checked(
        &mut self,
        what: &str,
        index: u32,
        buffer: u32,
        offset: i64,
        stride: i32,
    ) -> GlResult<()> {
        let i = binding_index(what, index)?;
        let max_stride = self.device.caps().limits.max_vertex_input_binding_stride;
        if offset < 0 || stride < 0 || stride as u32 > max_stride {
            return invalid_value(format!(
                "{what}: offset {offset} and stride {stride} (0 to {max_stride})"
            ));
        }
        if buffer != 0 && self.buffers.get_or_create(buffer, Buffer::new).is_none() {
            return invalid_op(format!("{what}: {buffer} is not a name from glGenBuffers"));
        }
        let vao = self.current_vao_mut()?;
        vao.bindings.points[i] = VertexBinding {
            buffer,
            offset: offset as u64,
            stride,
            packed: false,
            divisor: vao.bindings.points[i].divisor,
        };
        vao.resolve(i);
        vao.prune();
        Ok(())
    }

    /// `glVertexAttribFormat` / `glVertexAttribIFormat` / `glVertexAttribLFormat` (`kind`).
    pub fn vertex_attrib_format(
        &mut self,
        index: u32,
        size: i32,
        ty: GLenum,
        kind: FormatKind,
        relative_offset: u32,
    ) {
        let r = (|| {
            let i = self.attrib_index(index)?;
            match kind {
                FormatKind::Long if ty != GL_DOUBLE => {
                    return invalid_enum("glVertexAttribLFormat type", ty)
                }
                FormatKind::Long if !(1..=4).contains(&size) => {
                    return invalid_value(format!("glVertexAttribLFormat size {size}"))
                }
                FormatKind::Long => {}
                _ => check_pointer(size, ty, kind == FormatKind::Integer, 0)?,
            }
            if relative_offset > MAX_VERTEX_ATTRIB_RELATIVE_OFFSET {
                return invalid_value(format!(
                    "relative offset {relative_offset} above {MAX_VERTEX_ATTRIB_RELATIVE_OFFSET}"
                ));
            }
            let vao = self.current_vao_mut()?;
            let a = &mut vao.attribs[i];
            let normalized = matches!(kind, FormatKind::Float { normalized: true });
            *a = AttribArray {
                size,
                ty,
                normalized: normalized || size == GL_BGRA as i32,
                integer: kind == FormatKind::Integer,
                long: kind == FormatKind::Long,
                ..*a
            };
            vao.bindings.relative_offset[i] = relative_offset;
            vao.resolve(vao.bindings.binding_of(i));
            Ok(())
        })();
        self.record(r);
    }

    /// `glVertexAttribBinding`: generic attribute `index` reads binding point `binding`.
    pub fn vertex_attrib_binding(&mut self, index: u32, binding: u32) {
        let r = (|| {
            let i = self.attrib_index(index)?;
            let b = binding_index("glVertexAttribBinding", binding)?;
            let vao = self.current_vao_mut()?;
            vao.bindings.reads[i] = Some(b as u8);
            vao.resolve(b);
            Ok(())
        })();
        self.record(r);
    }

    /// `glVertexBindingDivisor`.
    pub fn vertex_binding_divisor(&mut self, binding: u32, divisor: u32) {
        let r = (|| {
            let b = binding_index("glVertexBindingDivisor", binding)?;
            let vao = self.current_vao_mut()?;
            vao.bindings.points[b].divisor = divisor;
            vao.resolve(b);
            Ok(())
        })();
        self.record(r);
    }

    /// The binding-point queries of `glGetIntegeri_v` (`None` for other pnames).
    pub(crate) fn get_vertex_binding(&self, pname: GLenum, index: u32) -> Option<GlResult<i64>> {
        if !matches!(
            pname,
            GL_VERTEX_BINDING_BUFFER
                | GL_VERTEX_BINDING_OFFSET
                | GL_VERTEX_BINDING_STRIDE
                | GL_VERTEX_BINDING_DIVISOR
        ) {
            return None;
        }
        Some((|| {
            let i = binding_index("glGetIntegeri_v", index)?;
            let vao = self.current_vao().ok_or_else(|| {
                crate::gl::context::error::GlError::InvalidOperation(
                    "no vertex array object is bound".into(),
                )
            })?;
            let b = vao.bindings.points[i];
            Ok(match pname {
                GL_VERTEX_BINDING_BUFFER => i64::from(vao.buffer_name(b.buffer)),
                GL_VERTEX_BINDING_OFFSET => b.offset as i64,
                GL_VERTEX_BINDING_STRIDE if b.packed && i < MAX_VERTEX_ATTRIBS as usize => {
                    i64::from(vao.attribs[i].effective_stride())
                }
                GL_VERTEX_BINDING_STRIDE => i64::from(b.stride),
                _ => i64::from(b.divisor),
            })
        })())
    }

    /// The binding limits `glGet` answers (`None` for other pnames).
    pub(crate) fn vertex_binding_limit(&self, pname: GLenum) -> Option<i64> {
        match pname {
            GL_MAX_VERTEX_ATTRIB_STRIDE => Some(i64::from(
                self.device.caps().limits.max_vertex_input_binding_stride,
            )),
            GL_MAX_VERTEX_ATTRIB_BINDINGS => Some(i64::from(MAX_VERTEX_ATTRIB_BINDINGS)),
            GL_MAX_VERTEX_ATTRIB_RELATIVE_OFFSET => {
                Some(i64::from(MAX_VERTEX_ATTRIB_RELATIVE_OFFSET))
            }
            _ => None,
        }
    }
}
