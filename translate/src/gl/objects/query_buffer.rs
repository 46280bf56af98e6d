//! GL_ARB_query_buffer_object (GL 4.4): query results written into a buffer object. While a
//! buffer is bound to `GL_QUERY_BUFFER`, `glGetQueryObject*v` takes its pointer as a byte
//! offset into that buffer; `glGetQueryBufferObject*v` (GL 4.5 DSA) names the buffer itself.
//!
//! Design decisions:
//! - The value is the one `glGetQueryObject*v` answers (`Context::query_object_value`), read
//!   on the CPU and written like `glBufferSubData` (`write_range`): `GL_QUERY_RESULT` waits for
//!   the result, `GL_QUERY_RESULT_AVAILABLE` writes 0 or 1 without waiting, and
//!   `GL_QUERY_RESULT_NO_WAIT` writes the result only once it is available (else the buffer
//!   keeps its bytes). GL lets the write land at any point before a later command reads the
//!   buffer; writing it at once is the earliest such point, so later draws, copies, maps and
//!   shader reads (`arb_query_buffer_object-coherency`) see it without a barrier.
//! - The result is stored as the entry point's type: 32 bits for `…iv`/`…uiv`, 64 for
//!   `…i64v`/`…ui64v`, saturated as the client-memory queries saturate it.
//! - Errors: the query's own (`GL_INVALID_OPERATION` for no query or an active one,
//!   `GL_INVALID_ENUM` for the pname), a negative offset `GL_INVALID_VALUE`, a buffer that is
//!   not one (DSA) or a result past its end or a mapped buffer `GL_INVALID_OPERATION`; the
//!   range is checked before waiting.

use crate::gl::context::enums::*;
use crate::gl::context::error::{invalid_op, invalid_value, GlError, GlResult};
use crate::gl::context::Context;
use crate::gl::objects::buffer::api::{range_inside, write_range};

/// How a query result is stored: the entry point's integer type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueryResultType {
    Int,
    UInt,
    Int64,
    UInt64,
}

impl QueryResultType {
    /// Bytes of one result.
    fn bytes(self) -> i64 {
        match self {
            Self::Int | Self::UInt => 4,
            Self::Int64 | Self::UInt64 => 8,
        }
    }

    /// `value` saturated to the type, in native byte order.
    fn encode(self, value: u64) -> Vec<u8> {
        match self {
            Self::Int => (value.min(i32::MAX as u64) as i32).to_ne_bytes().to_vec(),
            Self::UInt => (value.min(u64::from(u32::MAX)) as u32)
                .to_ne_bytes()
                .to_vec(),
            Self::Int64 => (value.min(i64::MAX as u64) as i64).to_ne_bytes().to_vec(),
            Self::UInt64 => value.to_ne_bytes().to_vec(),
        }
    }
}

impl Context {
    /// The buffer bound to `GL_QUERY_BUFFER` (0: none): while one is, `glGetQueryObject*v`
    /// writes into it ([`Context::query_object_to_buffer`]) rather than through its pointer.
    pub fn query_buffer_bound(&self) -> u32 {
        self.generic_bindings
            .get(&GL_QUERY_BUFFER)
            .copied()
            .unwrap_or(0)
    }

    /// `glGetQueryObject*v` with a query buffer bound (`buffer` None) and
    /// `glGetQueryBufferObject*v` (`buffer` names it): query `id`'s `pname` written as `ty` at
    /// byte `offset` of the buffer.
    pub fn query_object_to_buffer(
        &mut self,
        id: u32,
        buffer: Option<u32>,
        pname: GLenum,
        offset: i64,
        ty: QueryResultType,
    ) {
        let r = self.write_query_object(id, buffer, pname, offset, ty);
        self.record(r);
    }

    fn write_query_object(
        &mut self,
        id: u32,
        buffer: Option<u32>,
        pname: GLenum,
        offset: i64,
        ty: QueryResultType,
    ) -> GlResult<()> {
        let name = match buffer {
            Some(name) if !self.buffers.exists(name) => {
                return invalid_op(format!("glGetQueryBufferObject: {name} is not a buffer"))
            }
            Some(name) => name,
            None => self.query_buffer_bound(),
        };
        if offset < 0 {
            return invalid_value(format!("query result offset {offset}"));
        }
        self.query_target_buffer(name, offset, ty)?;
        let Some(value) = self.query_object_value(id, pname)? else {
            return Ok(());
        };
        let device = self.device.clone();
        let b = self.query_target_buffer(name, offset, ty)?;
        write_range(&device, b, offset as u64, &ty.encode(value))
    }

    /// Buffer `name` checked to take a result of `ty` at `offset`.
    fn query_target_buffer(
        &mut self,
        name: u32,
        offset: i64,
        ty: QueryResultType,
    ) -> GlResult<&mut crate::gl::objects::buffer::Buffer> {
        let b = self
            .buffers
            .get_mut(name)
            .ok_or_else(|| GlError::InvalidOperation(format!("query buffer {name} is gone")))?;
        if !range_inside(offset, ty.bytes(), b.size) {
            return invalid_op(format!(
                "a {}-byte query result at {offset} of a {}-byte buffer",
                ty.bytes(),
                b.size
            ));
        }
        if b.mapped_exclusively() {
            return invalid_op("query result into a mapped buffer");
        }
        Ok(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_saturate_to_the_entry_point_type() {
        let big = u64::MAX - 1;
        assert_eq!(QueryResultType::Int.encode(big), i32::MAX.to_ne_bytes());
        assert_eq!(QueryResultType::UInt.encode(big), u32::MAX.to_ne_bytes());
        assert_eq!(QueryResultType::Int64.encode(big), i64::MAX.to_ne_bytes());
        assert_eq!(QueryResultType::UInt64.encode(7), 7u64.to_ne_bytes());
        assert_eq!(QueryResultType::UInt.bytes(), 4);
    }
}
