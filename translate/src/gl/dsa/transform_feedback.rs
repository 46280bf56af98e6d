//! DSA for transform feedback objects: `glCreateTransformFeedbacks`,
//! `glTransformFeedbackBufferBase/Range` (the `glBindBufferBase/Range` path on the named object,
//! leaving the generic binding alone) and `glGetTransformFeedback{iv,i_v,i64_v}` (the `glGet*`
//! answers of the named object).

use crate::gl::context::enums::*;
use crate::gl::context::error::{gen_count, invalid_enum, invalid_value};
use crate::gl::context::Context;
use crate::gl::objects::transform_feedback::TransformFeedback;

use super::Named;

impl Context {
    /// `glCreateTransformFeedbacks`.
    pub fn create_transform_feedbacks(&mut self, n: i32) -> Vec<u32> {
        let r = gen_count("glCreateTransformFeedbacks", n)
            .map(|n| self.xfb.objects.create(n, TransformFeedback::default));
        self.record(r).unwrap_or_default()
    }

    /// `glTransformFeedbackBufferBase` (`range` `None`) and `glTransformFeedbackBufferRange`.
    pub fn transform_feedback_buffer(
        &mut self,
        xfb: u32,
        index: u32,
        buffer: u32,
        range: Option<(i64, i64)>,
    ) {
        const CALL: &str = "glTransformFeedbackBuffer*";
        if buffer != 0 && !self.buffers.exists(buffer) {
            // GL 4.6 §13.2.2 names INVALID_VALUE here, not the usual INVALID_OPERATION.
            let r = invalid_value(format!("{CALL}: {buffer} is not the name of a buffer"));
            return self.record::<()>(r).unwrap_or_default();
        }
        if self
            .dsa_select(CALL, Named::TransformFeedback(xfb))
            .is_none()
        {
            return;
        }
        let (offset, size) = range.unwrap_or((0, 0));
        let r = self.bind_feedback_buffer(index, buffer, offset, size, range.is_none());
        self.dsa_release();
        self.record(r);
    }

    /// `glGetTransformFeedbackiv` (`index` `None`), `glGetTransformFeedbacki_v` (`index`
    /// `Some((i, false))`) and `glGetTransformFeedbacki64_v` (`Some((i, true))`): the value, or
    /// `None` with the error recorded.
    pub fn get_transform_feedback(
        &mut self,
        xfb: u32,
        pname: GLenum,
        index: Option<(u32, bool)>,
    ) -> Option<i64> {
        let takes = match index {
            // GL 4.0's GL_TRANSFORM_FEEDBACK_PAUSED/ACTIVE.
            None => matches!(
                pname,
                GL_TRANSFORM_FEEDBACK_BUFFER_PAUSED | GL_TRANSFORM_FEEDBACK_BUFFER_ACTIVE
            ),
            Some((_, false)) => pname == GL_TRANSFORM_FEEDBACK_BUFFER_BINDING,
            Some((_, true)) => matches!(
                pname,
                GL_TRANSFORM_FEEDBACK_BUFFER_START | GL_TRANSFORM_FEEDBACK_BUFFER_SIZE
            ),
        };
        if !takes {
            return self.record(invalid_enum("glGetTransformFeedback* pname", pname));
        }
        self.dsa_select("glGetTransformFeedback*", Named::TransformFeedback(xfb))?;
        let r = match index {
            None => self.feedback_get(pname),
            Some((i, _)) => self.feedback_get_indexed(pname, i),
        };
        self.dsa_release();
        let r = r.unwrap_or_else(|| invalid_enum("glGetTransformFeedback* pname", pname));
        self.record(r.map(|v| v.to_ints().first().copied().unwrap_or(0)))
    }
}
