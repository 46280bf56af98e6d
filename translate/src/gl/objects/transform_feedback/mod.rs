//! Transform feedback objects (GL 3.0, GL_ARB_transform_feedback2/3/_instanced): the indexed
//! `GL_TRANSFORM_FEEDBACK_BUFFER` bindings, the active capture, and what it captured.
//!
//! Design decisions:
//! - Built on VK_EXT_transform_feedback. The program side (which varyings, at which offsets of
//!   which buffer) is `glsl::xfb`; this module is the GL state and the draw side (`capture`).
//! - The CPU knows how many primitives each draw captures (GL's assembly rules, the same count
//!   `GL_PRIMITIVES_GENERATED` uses) and keeps each binding's write offset itself. Each draw
//!   binds every buffer at its current offset with exactly the bytes the captured primitives
//!   take, and begins and ends Vulkan's transform feedback around the one draw, without
//!   counter buffers. So a capture survives any number of render-pass breaks and submissions
//!   with nothing to resume, `GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN` and buffer overflow
//!   follow GL exactly (a primitive that does not fit in every buffer is not written), pause
//!   and resume are CPU state, and `glDrawTransformFeedback` is a `glDrawArrays` of the vertex
//!   count the object captured.
//! - A geometry or tessellation stage's output count is not known on the CPU: such draws bind
//!   each whole range and resume from a counter buffer the capture owns (Vulkan writes it at
//!   each draw's end). Its primitives reach a primitives-written query when the capture ends or
//!   pauses, and `glDrawTransformFeedback` reads the counter back; both wait for the GPU.
//! - Captured bytes reach later reads through a barrier recorded when a capture ends or
//!   pauses (transform-feedback writes before every later read); a buffer written by the GPU
//!   drops its CPU shadow, so maps and `glGetBufferSubData` read the device copy.
//! - Transform feedback objects are per context (GL container objects); object 0 is the
//!   default, always present.

pub(crate) mod api;
pub(crate) mod capture;

use std::sync::Arc;

use crate::gl::context::enums::GLenum;
use crate::gl::context::names::Names;
use crate::gl::objects::program::Linked;

/// `GL_MAX_TRANSFORM_FEEDBACK_BUFFERS`.
pub(crate) const MAX_BUFFERS: usize = crate::glsl::xfb::MAX_BUFFERS;

/// One indexed `GL_TRANSFORM_FEEDBACK_BUFFER` binding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct XfbBinding {
    pub buffer: u32,
    pub offset: u64,
    /// 0: the whole buffer from `offset` (`glBindBufferBase`).
    pub size: u64,
}

/// A capture between `glBeginTransformFeedback` and `glEndTransformFeedback`.
pub(crate) struct Active {
    /// `GL_POINTS`, `GL_LINES` or `GL_TRIANGLES`.
    pub mode: GLenum,
    pub paused: bool,
    /// The program current at begin (it cannot change while the capture is not paused).
    pub program: Arc<Linked>,
    /// Bytes written into each binding so far.
    pub written: [u64; MAX_BUFFERS],
    /// Vertices captured so far.
    pub vertices: u64,
    /// Some draw wrote into the buffers since the last barrier.
    pub dirty: bool,
    /// The counter buffer of a device-counted capture (`capture`), once a draw made one.
    pub counter: Option<arenagl_memory::BufferHandle>,
    /// Primitives of a device-counted capture already added to a primitives-written query,
    /// per vertex stream.
    pub counted_primitives: [u64; crate::glsl::xfb::MAX_STREAMS as usize],
}

/// A transform feedback object.
#[derive(Default)]
pub(crate) struct TransformFeedback {
    pub bindings: [XfbBinding; MAX_BUFFERS],
    pub active: Option<Active>,
    /// What the last ended capture wrote (`glDrawTransformFeedback`); `None` before any.
    pub captured: Option<Captured>,
}

/// What an ended capture wrote.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Captured {
    /// Vertices, counted on the CPU.
    Vertices(u64),
    /// The byte offset each binding reached is in this counter buffer (at byte 4 × binding);
    /// each vertex stream's count is its first buffer's.
    Counter {
        buffer: arenagl_memory::BufferHandle,
        streams: [Option<api::StreamCounter>; crate::glsl::xfb::MAX_STREAMS as usize],
    },
}

/// A context's transform feedback objects.
#[derive(Default)]
pub(crate) struct XfbState {
    pub objects: Names<TransformFeedback>,
    /// `GL_TRANSFORM_FEEDBACK_BINDING` (0: the default object).
    pub bound: u32,
    pub default: TransformFeedback,
}

impl XfbState {
    /// The bound object.
    pub(crate) fn current(&self) -> &TransformFeedback {
        if self.bound == 0 {
            return &self.default;
        }
        self.objects.get(self.bound).unwrap_or(&self.default)
    }

    pub(crate) fn current_mut(&mut self) -> &mut TransformFeedback {
        if self.bound != 0 && self.objects.get(self.bound).is_some() {
            if let Some(o) = self.objects.get_mut(self.bound) {
                return o;
            }
        }
        &mut self.default
    }

    /// A capture is active and not paused: draws capture, and the program cannot change.
    pub(crate) fn capturing(&self) -> bool {
        self.current().active.as_ref().is_some_and(|a| !a.paused)
    }

    /// The object `name` (0: the default) to change, if it exists.
    pub(crate) fn object_mut(&mut self, name: u32) -> Option<&mut TransformFeedback> {
        if name == 0 {
            Some(&mut self.default)
        } else {
            self.objects.get_mut(name)
        }
    }

    /// The object `name` (0: the default), if it exists.
    pub(crate) fn object(&self, name: u32) -> Option<&TransformFeedback> {
        if name == 0 {
            Some(&self.default)
        } else {
            self.objects.get(name)
        }
    }
}

/// The primitive mode of a capture that a draw of `mode` feeds (GL 4.6 table 13.3; the
/// compatibility profile's quads and polygons are triangles).
pub(crate) fn capture_mode(mode: GLenum) -> Option<GLenum> {
    use crate::gl::context::enums::*;
    match mode {
        GL_POINTS => Some(GL_POINTS),
        GL_LINES | GL_LINE_LOOP | GL_LINE_STRIP | GL_LINES_ADJACENCY | GL_LINE_STRIP_ADJACENCY => {
            Some(GL_LINES)
        }
        GL_TRIANGLES
        | GL_TRIANGLE_STRIP
        | GL_TRIANGLE_FAN
        | GL_TRIANGLES_ADJACENCY
        | GL_TRIANGLE_STRIP_ADJACENCY
        | GL_QUADS
        | GL_QUAD_STRIP
        | GL_POLYGON => Some(GL_TRIANGLES),
        _ => None,
    }
}

/// Vertices per captured primitive of a capture mode.
pub(crate) fn vertices_per_primitive(mode: GLenum) -> u64 {
    use crate::gl::context::enums::*;
    match mode {
        GL_POINTS => 1,
        GL_LINES => 2,
        _ => 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gl::context::enums::*;

    #[test]
    fn draw_modes_feed_their_capture_mode() {
        assert_eq!(capture_mode(GL_LINE_LOOP), Some(GL_LINES));
        assert_eq!(capture_mode(GL_QUADS), Some(GL_TRIANGLES));
        assert_eq!(capture_mode(GL_PATCHES), None);
    }
}
