//! GL_ARB_transform_feedback_overflow_query: whether a capture ran out of buffer space, on one
//! vertex stream (`GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW`) or on any
//! (`GL_TRANSFORM_FEEDBACK_OVERFLOW`).
//!
//! Design decisions:
//! - A draw whose captured primitives the CPU counts (`transform_feedback::capture`) knows
//!   when some did not fit, and marks the active overflow queries of its stream (0) itself: such
//!   a draw may record no capture at all when nothing fits.
//! - The other draws (with a geometry stage) are counted by the device: while a capture runs,
//!   each draw counts in transform feedback stream segments (`vkCmdBeginQueryIndexedEXT`, opened
//!   like every segment in the parent module), whose two values are the primitives written and
//!   those needed; a stream overflowed when it needed more than it wrote.
//! - The result is 1 or 0; conditional rendering takes these queries as it takes occlusion
//!   queries (draw when the result is 1, or 0 when inverted).

use super::*;

pub(crate) const GL_TRANSFORM_FEEDBACK_OVERFLOW: GLenum = 0x82EC;
pub(crate) const GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW: GLenum = 0x82ED;

/// Whether `target` is one of the two overflow targets.
pub(crate) fn is_overflow(target: GLenum) -> bool {
    matches!(
        target,
        GL_TRANSFORM_FEEDBACK_OVERFLOW | GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW
    )
}

/// The extension, where the device captures and counts vertex streams.
pub(crate) fn extensions(device: &crate::gl::vk::device::Device) -> Option<&'static str> {
    let gl4 = &device.caps().gl4;
    (gl4.transform_feedback && gl4.transform_feedback_streams && device.xfb().is_some())
        .then_some("GL_ARB_transform_feedback_overflow_query")
}

impl Context {
    /// The active overflow queries (target, id) a stream `stream` overflow sets.
    pub(super) fn overflow_queries(&self, stream: u32) -> Vec<(GLenum, u32)> {
        let any = self
            .queries
            .active
            .get(&GL_TRANSFORM_FEEDBACK_OVERFLOW)
            .map(|&q| (GL_TRANSFORM_FEEDBACK_OVERFLOW, q));
        let one = self
            .stream_query(GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW, stream)
            .map(|q| (GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW, q));
        any.into_iter().chain(one).collect()
    }

    /// A CPU-counted draw on vertex stream `stream` generated primitives that did not fit.
    pub(crate) fn mark_overflow(&mut self, stream: u32) {
        for (_, id) in self.overflow_queries(stream) {
            if let Some(q) = self.queries.objects.get_mut(id) {
                q.primitives = 1;
            }
        }
    }

    /// An overflow query's result: marked by a counted draw, or a stream segment that needed
    /// more than it wrote.
    pub(super) fn overflow_result(&self, marked: bool, slots: &[Slot]) -> u64 {
        let overflowed = slots.iter().any(|s| {
            self.queries
                .pools
                .read_stream(&self.device, *s)
                .is_some_and(|[written, needed]| needed > written)
        });
        u64::from(marked || overflowed)
    }
}
