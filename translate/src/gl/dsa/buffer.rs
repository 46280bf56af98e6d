//! DSA for buffers: `glCreateBuffers`. The `glNamedBuffer*` commands are their `glBuffer*`
//! twins run on the selected buffer (`Context::bound_buffer` answers `GL_COPY_WRITE_BUFFER` and
//! `GL_COPY_READ_BUFFER` with the selection).

use crate::gl::context::error::gen_count;
use crate::gl::context::Context;
use crate::gl::objects::buffer::Buffer;

impl Context {
    /// `glCreateBuffers`: `n` buffer objects, each an empty buffer at once.
    pub fn create_buffers(&mut self, n: i32) -> Vec<u32> {
        let r = gen_count("glCreateBuffers", n).map(|n| self.buffers.create(n, Buffer::new));
        self.record(r).unwrap_or_default()
    }
}
