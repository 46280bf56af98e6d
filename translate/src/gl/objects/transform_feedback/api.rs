//! Transform feedback entry points: objects, the indexed buffer bindings, begin / end /
//! pause / resume, `glDrawTransformFeedback*`, the program's varyings and the queries, with
//! the errors GL 4.6 §13.2 and §7.13 name.

use std::sync::Arc;

use super::{Active, Captured, TransformFeedback, XfbBinding, MAX_BUFFERS};
use crate::gl::context::enums::*;
use crate::gl::context::error::{gen_count, invalid_enum, invalid_op, invalid_value, GlResult};
use crate::gl::context::get::Value;
use crate::gl::context::Context;
use crate::gl::draw::DrawCall;
use crate::gl::objects::program::Linked;
use crate::gl::objects::query;
use crate::gl::vk::query_pool::SlotKind;
use crate::glsl::xfb::XfbRequest;

/// `GL_MAX_VERTEX_STREAMS` at most.
const MAX_STREAMS: usize = crate::glsl::xfb::MAX_STREAMS as usize;

/// Where a device-counted capture's counter for one vertex stream is: the first buffer
/// binding the stream writes (its counter at byte 4 × binding) and its bytes per vertex.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StreamCounter {
    pub binding: u32,
    pub stride: u32,
}

/// The counter of each vertex stream `program` captures.
fn stream_counters(program: &Linked) -> [Option<StreamCounter>; MAX_STREAMS] {
    let mut out = [None; MAX_STREAMS];
    let Some(layout) = program.xfb.as_ref() else {
        return out;
    };
    for (binding, (&stride, &stream)) in (0u32..).zip(layout.strides.iter().zip(&layout.streams)) {
        let slot = out.get_mut(stream as usize);
        if let Some(slot @ None) = slot.filter(|_| stride > 0) {
            *slot = Some(StreamCounter { binding, stride });
        }
    }
    out
}

/// `GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS`.
const MAX_SEPARATE_ATTRIBS: usize = MAX_BUFFERS;

impl Context {
    /// Whether this device can capture (VK_EXT_transform_feedback).
    pub(crate) fn has_transform_feedback(&self) -> bool {
        self.device.caps().gl4.transform_feedback && self.device.xfb().is_some()
    }

    /// `GL_MAX_VERTEX_STREAMS`: four where the device has geometry streams (with at least four
    /// streams), else GL_ARB_transform_feedback3's minimum, 1.
    pub(crate) fn max_vertex_streams(&self) -> u32 {
        if self.device.caps().gl4.transform_feedback_streams {
            crate::glsl::xfb::MAX_STREAMS
        } else {
            1
        }
    }

    /// `GL_INVALID_OPERATION` while a capture is active and not paused (`what` is refused).
    pub(crate) fn refuse_while_capturing(&self, what: &str) -> GlResult<()> {
        if self.xfb.capturing() {
            return invalid_op(format!("{what} while transform feedback is active"));
        }
        Ok(())
    }

    /// `glGenTransformFeedbacks`.
    pub fn gen_transform_feedbacks(&mut self, n: i32) -> Vec<u32> {
        let r = gen_count("glGenTransformFeedbacks", n).map(|n| self.xfb.objects.generate(n));
        self.record(r).unwrap_or_default()
    }

    /// `glDeleteTransformFeedbacks`: an active object is `GL_INVALID_OPERATION` (nothing is
    /// deleted); deleting the bound object binds the default one.
    pub fn delete_transform_feedbacks(&mut self, names: &[u32], n: i32) {
        let r = (|| {
            if n < 0 {
                return invalid_value("glDeleteTransformFeedbacks count");
            }
            if names
                .iter()
                .any(|&x| self.xfb.objects.get(x).is_some_and(|o| o.active.is_some()))
            {
                return invalid_op("glDeleteTransformFeedbacks of an active object");
            }
            for &name in names.iter().filter(|&&x| x != 0) {
                if let Some(o) = self.xfb.objects.remove(name) {
                    self.retire_captured(o.captured);
                }
                if self.xfb.bound == name {
                    self.xfb.bound = 0;
                }
            }
            Ok(())
        })();
        self.record(r);
    }

    /// `glIsTransformFeedback`: a name bound at least once.
    pub fn is_transform_feedback(&self, name: u32) -> bool {
        name != 0 && self.xfb.objects.exists(name)
    }

    /// `glBindTransformFeedback`.
    pub fn bind_transform_feedback(&mut self, target: GLenum, name: u32) {
        let r = (|| {
            if target != GL_TRANSFORM_FEEDBACK {
                return invalid_enum("glBindTransformFeedback target", target);
            }
            self.refuse_while_capturing("glBindTransformFeedback")?;
            if name != 0
                && self
                    .xfb
                    .objects
                    .get_or_create(name, TransformFeedback::default)
                    .is_none()
            {
                return invalid_op(format!(
                    "glBindTransformFeedback: {name} is not a name from glGenTransformFeedbacks"
                ));
            }
            self.xfb.bound = name;
            Ok(())
        })();
        self.record(r);
    }

    /// `glBindBufferRange` / `glBindBufferBase` on `GL_TRANSFORM_FEEDBACK_BUFFER` (validated
    /// target; `whole` for Base).
    pub(crate) fn bind_feedback_buffer(
        &mut self,
        index: u32,
        name: u32,
        offset: i64,
        size: i64,
        whole: bool,
    ) -> GlResult<()> {
        if !whole && name != 0 && (offset < 0 || size <= 0 || offset % 4 != 0 || size % 4 != 0) {
            self.check_feedback_index(index)?;
            return invalid_value(format!(
                "transform feedback range offset {offset} size {size} (multiples of 4 needed)"
            ));
        }
        if whole {
            self.set_feedback_binding(index, name, 0, 0)
        } else {
            self.set_feedback_binding(index, name, offset as u64, size as u64)
        }
    }

    /// `glBindBufferOffsetEXT`: binding `index` from `offset` to the end of the buffer.
    pub fn bind_buffer_offset(&mut self, target: GLenum, index: u32, name: u32, offset: i64) {
        let r = (|| {
            if target != GL_TRANSFORM_FEEDBACK_BUFFER {
                return invalid_enum("glBindBufferOffsetEXT target", target);
            }
            self.check_feedback_index(index)?;
            if offset < 0 || offset % 4 != 0 {
                return invalid_value(format!("glBindBufferOffsetEXT offset {offset}"));
            }
            self.set_feedback_binding(index, name, offset as u64, 0)
        })();
        self.record(r);
    }

    fn check_feedback_index(&self, index: u32) -> GlResult<()> {
        if index as usize >= MAX_BUFFERS {
            return invalid_value(format!("transform feedback buffer binding {index}"));
        }
        Ok(())
    }

    /// Binds `name` (`size` 0: to its end) at `index` of the bound object, and to the generic
    /// binding point.
    fn set_feedback_binding(
        &mut self,
        index: u32,
        name: u32,
        offset: u64,
        size: u64,
    ) -> GlResult<()> {
        self.check_feedback_index(index)?;
        // The bound object, or the one a DSA command names (`dsa`).
        let object = self.dsa.transform_feedback;
        let edited = match object {
            Some(name) => self.xfb.object(name),
            None => Some(self.xfb.current()),
        };
        if edited.is_some_and(|o| o.active.is_some()) {
            return invalid_op("transform feedback buffers cannot change during a capture");
        }
        if name != 0
            && self
                .buffers
                .get_or_create(name, crate::gl::objects::buffer::Buffer::new)
                .is_none()
        {
            return invalid_op(format!("{name} is not a name from glGenBuffers"));
        }
        let binding = XfbBinding {
            buffer: name,
            offset,
            size,
        };
        match object {
            // A DSA command leaves the generic binding point alone.
            Some(o) => {
                if let Some(o) = self.xfb.object_mut(o) {
                    o.bindings[index as usize] = binding;
                }
            }
            None => {
                self.xfb.current_mut().bindings[index as usize] = binding;
                self.generic_bindings
                    .insert(GL_TRANSFORM_FEEDBACK_BUFFER, name);
            }
        }
        Ok(())
    }

    /// `glBeginTransformFeedback`.
    pub fn begin_transform_feedback(&mut self, mode: GLenum) {
        let r = self.begin_feedback(mode);
        self.record(r);
    }

    fn begin_feedback(&mut self, mode: GLenum) -> GlResult<()> {
        if !matches!(mode, GL_POINTS | GL_LINES | GL_TRIANGLES) {
            return invalid_enum("glBeginTransformFeedback mode", mode);
        }
        if self.xfb.current().active.is_some() {
            return invalid_op("glBeginTransformFeedback: a capture is already active");
        }
        let program = self.feedback_program()?;
        let layout = program.xfb.as_ref().ok_or_else(|| {
            crate::gl::context::error::GlError::InvalidOperation(
                "glBeginTransformFeedback: the program captures no varyings".into(),
            )
        })?;
        let bindings = self.xfb.current().bindings;
        for (i, _) in layout.strides.iter().enumerate().filter(|(_, s)| **s > 0) {
            if self.buffers.get(bindings[i].buffer).is_none() {
                return invalid_op(format!(
                    "glBeginTransformFeedback: no buffer bound to binding {i}"
                ));
            }
        }
        if !self.has_transform_feedback() {
            return invalid_op("transform feedback needs VK_EXT_transform_feedback");
        }
        self.xfb.current_mut().active = Some(Active {
            mode,
            paused: false,
            program,
            written: [0; MAX_BUFFERS],
            vertices: 0,
            dirty: false,
            counter: None,
            counted_primitives: [0; MAX_STREAMS],
        });
        Ok(())
    }

    /// The linked program current for a capture (`GL_INVALID_OPERATION` without one).
    fn feedback_program(&self) -> GlResult<Arc<Linked>> {
        let linked = match self.program {
            // GL_ARB_separate_shader_objects: the bound pipeline's last vertex-processing
            // stage's program.
            0 => self.pipeline_feedback_program(),
            current => self.programs.get(current).and_then(|p| p.linked.clone()),
        };
        linked.ok_or_else(|| {
            crate::gl::context::error::GlError::InvalidOperation(
                "glBeginTransformFeedback without a linked program".into(),
            )
        })
    }

    /// `glEndTransformFeedback`.
    pub fn end_transform_feedback(&mut self) {
        let r = (|| {
            if self.xfb.current().active.is_none() {
                return invalid_op("glEndTransformFeedback: no capture is active");
            }
            self.feedback_barrier()?;
            self.count_device_primitives()?;
            let object = self.xfb.current_mut();
            let captured = object.active.take().map(|a| match a.counter {
                Some(buffer) => Captured::Counter {
                    buffer,
                    streams: stream_counters(&a.program),
                },
                None => Captured::Vertices(a.vertices),
            });
            let old = std::mem::replace(&mut object.captured, captured);
            self.retire_captured(old);
            Ok(())
        })();
        self.record(r);
    }

    /// `glPauseTransformFeedback` (`pause`) / `glResumeTransformFeedback`.
    pub fn pause_transform_feedback(&mut self, pause: bool) {
        let r = (|| {
            let Some(active) = self.xfb.current().active.as_ref() else {
                return invalid_op("pause/resume: no capture is active");
            };
            if active.paused == pause {
                return invalid_op(if pause {
                    "glPauseTransformFeedback: already paused"
                } else {
                    "glResumeTransformFeedback: not paused"
                });
            }
            if !pause {
                // The program current at resume must be the one the capture began with.
                let program = self.feedback_program()?;
                if !Arc::ptr_eq(&program, &active.program) {
                    return invalid_op("glResumeTransformFeedback with another program current");
                }
            }
            self.feedback_barrier()?;
            if pause {
                self.count_device_primitives()?;
            }
            if let Some(a) = self.xfb.current_mut().active.as_mut() {
                a.paused = pause;
            }
            Ok(())
        })();
        self.record(r);
    }

    /// `glDrawTransformFeedback[Stream][Instanced]`: draws the vertices object `name` captured
    /// in its last ended capture, as `glDrawArraysInstanced(mode, 0, that count, instances)`.
    ///
    /// # Safety
    /// As for [`Context::draw`] (the client arrays the draw reads).
    pub unsafe fn draw_transform_feedback(
        &mut self,
        mode: GLenum,
        name: u32,
        stream: u32,
        instances: i32,
    ) {
        let r = (|| {
            let max = self.max_vertex_streams();
            if stream >= max {
                return invalid_value(format!(
                    "vertex stream {stream} (GL_MAX_VERTEX_STREAMS is {max})"
                ));
            }
            if instances < 0 {
                return invalid_value("glDrawTransformFeedbackInstanced instance count");
            }
            let Some(object) = self
                .xfb
                .object(name)
                .filter(|_| name == 0 || self.xfb.objects.exists(name))
            else {
                return invalid_value(format!("{name} is not a transform feedback object"));
            };
            let count = match object.captured {
                None => {
                    return invalid_op("glDrawTransformFeedback: the object never ended a capture")
                }
                // Counted on the CPU: no geometry stage, so stream 0 alone.
                Some(Captured::Vertices(n)) if stream == 0 => n,
                Some(Captured::Vertices(_)) => 0,
                Some(Captured::Counter { buffer, streams }) => match streams[stream as usize] {
                    Some(counter) => self.counted_vertices(buffer, counter)?,
                    None => 0,
                },
            };
            Ok(DrawCall {
                mode,
                first: 0,
                count: count.min(i32::MAX as u64) as i32,
                instances,
                indexed: None,
                ..DrawCall::default()
            })
        })();
        if let Some(call) = self.record(r) {
            // SAFETY: a non-indexed draw; the client-array contract is the caller's.
            unsafe { self.draw(call) };
        }
    }

    /// Before a `GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN` query ends inside a device-counted
    /// capture: what the capture wrote so far reaches the query (a barrier, then a wait).
    pub(crate) fn count_written_before_query_end(&mut self) -> GlResult<()> {
        let counted = self
            .xfb
            .current()
            .active
            .as_ref()
            .is_some_and(|a| a.counter.is_some());
        if !counted {
            return Ok(());
        }
        self.feedback_barrier()?;
        self.count_device_primitives()
    }

    /// Adds what a device-counted capture wrote on each vertex stream since the last call to
    /// that stream's active `GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN` query: the counter of
    /// the stream's first buffer read back (a wait for the GPU, only with such a query
    /// active), at the capture's end or pause.
    fn count_device_primitives(&mut self) -> GlResult<()> {
        let Some(a) = self.xfb.current().active.as_ref() else {
            return Ok(());
        };
        let Some(counter) = a.counter else {
            return Ok(());
        };
        let per_primitive = super::vertices_per_primitive(a.mode);
        let streams = stream_counters(&a.program);
        for (stream, binding) in (0u32..).zip(streams) {
            let Some(binding) = binding else { continue };
            if self
                .stream_query(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, stream)
                .is_none()
            {
                continue;
            }
            let primitives = self.counted_vertices(counter, binding)? / per_primitive;
            if let Some(a) = self.xfb.current_mut().active.as_mut() {
                let seen = &mut a.counted_primitives[stream as usize];
                let new = primitives.saturating_sub(*seen);
                *seen = primitives;
                self.add_to_stream_query(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, stream, new);
            }
        }
        Ok(())
    }

    /// Gives back every counter buffer the context's objects hold (the context is going).
    pub(crate) fn release_transform_feedback(&mut self) {
        let mut objects: Vec<TransformFeedback> = self
            .xfb
            .objects
            .created()
            .into_iter()
            .filter_map(|name| self.xfb.objects.remove(name))
            .collect();
        objects.push(std::mem::take(&mut self.xfb.default));
        for o in objects {
            let active = o
                .active
                .and_then(|a| a.counter)
                .map(|buffer| Captured::Counter {
                    buffer,
                    streams: [None; MAX_STREAMS],
                });
            self.retire_captured(active);
            self.retire_captured(o.captured);
        }
    }

    /// Gives back the counter buffer a device-counted capture left (freed once the GPU is done).
    fn retire_captured(&mut self, captured: Option<Captured>) {
        if let Some(Captured::Counter { buffer, .. }) = captured {
            if let Err(e) = self.device.lock().manager.retire_buffer(buffer) {
                tracing::debug!(error = %e, "retiring a transform feedback counter buffer");
            }
        }
    }

    /// The vertices a device-counted capture wrote into one binding: its counter (the byte
    /// offset reached) read back, a wait for the GPU, over the bytes per vertex.
    fn counted_vertices(
        &mut self,
        buffer: arenagl_memory::BufferHandle,
        counter: StreamCounter,
    ) -> GlResult<u64> {
        let StreamCounter { binding, stride } = counter;
        self.end_pass();
        let mut bytes = [0u8; 4];
        let device = self.device.clone();
        let mut locked = device.lock();
        let at = 4 * u64::from(binding);
        crate::gl::context::error::until_done(|| {
            locked.manager.read_buffer_range(buffer, at, &mut bytes)
        })?;
        Ok(u64::from(u32::from_ne_bytes(bytes)) / u64::from(stride.max(1)))
    }

    /// `glTransformFeedbackVaryings`: what the next link of `program` captures.
    pub fn transform_feedback_varyings(
        &mut self,
        program: u32,
        varyings: Vec<String>,
        mode: GLenum,
    ) {
        let r = (|| {
            if !matches!(mode, GL_INTERLEAVED_ATTRIBS | GL_SEPARATE_ATTRIBS) {
                return invalid_enum("glTransformFeedbackVaryings bufferMode", mode);
            }
            if program == self.program {
                self.refuse_while_capturing("glTransformFeedbackVaryings of the current program")?;
            }
            let separate = mode == GL_SEPARATE_ATTRIBS;
            if separate && varyings.len() > MAX_SEPARATE_ATTRIBS {
                return invalid_value(format!(
                    "{} separate varyings; GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS is {MAX_SEPARATE_ATTRIBS}",
                    varyings.len()
                ));
            }
            // GL_ARB_transform_feedback3: the special names only in interleaved mode, and no
            // more buffers than there are.
            let special = |v: &String| v == "gl_NextBuffer" || v.starts_with("gl_SkipComponents");
            if separate && varyings.iter().any(special) {
                return invalid_op("gl_NextBuffer / gl_SkipComponents with GL_SEPARATE_ATTRIBS");
            }
            let buffers = 1 + varyings.iter().filter(|v| *v == "gl_NextBuffer").count();
            if buffers > MAX_BUFFERS {
                return invalid_op(format!(
                    "{buffers} buffers; GL_MAX_TRANSFORM_FEEDBACK_BUFFERS is {MAX_BUFFERS}"
                ));
            }
            let p = self.program_mut(program)?;
            p.xfb_request = XfbRequest { varyings, separate };
            Ok(())
        })();
        self.record(r);
    }

    /// `glGetTransformFeedbackVarying`: (name, size, type) of entry `index` of the last link.
    pub fn get_transform_feedback_varying(
        &mut self,
        program: u32,
        index: u32,
    ) -> Option<(String, i32, u32)> {
        let r = (|| {
            let p = self.program_ref(program)?;
            let v = p
                .linked
                .as_ref()
                .and_then(|l| l.xfb.as_ref())
                .and_then(|x| x.varyings.get(index as usize));
            match v {
                Some(v) => Ok((v.name.clone(), v.size, v.gl_type)),
                None => invalid_value(format!("transform feedback varying {index}")),
            }
        })();
        self.record(r)
    }

    /// GL_ARB_transform_feedback3's check of a query's vertex stream `index` (before the
    /// query command itself): `GL_INVALID_ENUM` for a target no query has, `GL_INVALID_VALUE`
    /// for a stream past `GL_MAX_VERTEX_STREAMS` (or any but 0 for targets without streams).
    pub(crate) fn check_query_stream(&self, target: GLenum, index: u32) -> GlResult<()> {
        let streams = self.max_vertex_streams();
        match target {
            GL_PRIMITIVES_GENERATED
            | GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN
            | query::overflow::GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW
                if index < streams =>
            {
                Ok(())
            }
            t if query::statistics::is_statistic(t) || query::overflow::is_overflow(t) => {
                match index {
                    0 => Ok(()),
                    _ => invalid_value(format!("query stream {index} of 0x{t:04X}")),
                }
            }
            GL_SAMPLES_PASSED
            | GL_ANY_SAMPLES_PASSED
            | GL_ANY_SAMPLES_PASSED_CONSERVATIVE
            | GL_TIME_ELAPSED
            | GL_TIMESTAMP
                if index == 0 =>
            {
                Ok(())
            }
            GL_PRIMITIVES_GENERATED
            | GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN
            | GL_SAMPLES_PASSED
            | GL_ANY_SAMPLES_PASSED
            | GL_ANY_SAMPLES_PASSED_CONSERVATIVE
            | GL_TIME_ELAPSED
            | GL_TIMESTAMP => invalid_value(format!("query stream {index} of 0x{target:04X}")),
            t => invalid_enum("indexed query target", t),
        }
    }

    /// `glBeginQueryIndexed`: stream 0 is `glBeginQuery`'s query.
    pub fn begin_query_indexed(&mut self, target: GLenum, index: u32, id: u32) {
        let r = self.check_query_stream(target, index).and_then(|()| {
            if index == 0 {
                self.begin_query(target, id);
                return Ok(());
            }
            if self.stream_query(target, index).is_some() {
                return invalid_op(format!(
                    "glBeginQueryIndexed: a 0x{target:04X} query of stream {index} is active"
                ));
            }
            self.query_for(target, id, "glBeginQueryIndexed")?;
            self.queries.stream_active.insert((target, index), id);
            Ok(())
        });
        self.record(r);
    }

    /// `glEndQueryIndexed`.
    pub fn end_query_indexed(&mut self, target: GLenum, index: u32) {
        let r = self.check_query_stream(target, index).and_then(|()| {
            if index == 0 {
                self.end_query(target);
                return Ok(());
            }
            if self.stream_query(target, index).is_none() {
                return invalid_op(format!(
                    "glEndQueryIndexed: no 0x{target:04X} query of stream {index} is active"
                ));
            }
            if target == GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN {
                self.count_written_before_query_end()?;
            } else {
                self.pause_segment(SlotKind::XfbStream(index));
            }
            let Some(id) = self.queries.stream_active.remove(&(target, index)) else {
                return invalid_op(format!(
                    "glEndQueryIndexed: no 0x{target:04X} query of stream {index} is active"
                ));
            };
            let epoch = self.device.lock().manager.recording_epoch();
            self.set_query_epoch(id, epoch);
            Ok(())
        });
        self.record(r);
    }

    /// `glGetQueryIndexediv`.
    pub fn get_query_indexed(&mut self, target: GLenum, index: u32, pname: GLenum) -> Option<i32> {
        let r = self.check_query_stream(target, index);
        match (r, index, pname) {
            (Err(e), _, _) => self.record::<i32>(Err(e)),
            (Ok(()), 0, _) => self.get_queryiv(target, pname),
            (Ok(()), _, GL_CURRENT_QUERY) => {
                Some(self.stream_query(target, index).unwrap_or(0) as i32)
            }
            (Ok(()), _, GL_QUERY_COUNTER_BITS) => Some(64),
            (Ok(()), _, p) => self.record::<i32>(invalid_enum("glGetQueryIndexediv pname", p)),
        }
    }

    /// The object the queries answer for: the bound one, or the one a DSA command names
    /// (`dsa`).
    pub(crate) fn feedback_object(&self) -> &TransformFeedback {
        let selected = self.dsa.transform_feedback.and_then(|n| self.xfb.object(n));
        selected.unwrap_or_else(|| self.xfb.current())
    }

    /// `glGet*` of transform feedback state and limits; `None` for other pnames.
    pub(crate) fn feedback_get(&self, pname: GLenum) -> Option<GlResult<Value>> {
        let int = |v: i64| Some(Ok(Value::Ints(vec![v])));
        let active = self.feedback_object().active.as_ref();
        match pname {
            GL_TRANSFORM_FEEDBACK_BINDING => int(i64::from(self.xfb.bound)),
            GL_TRANSFORM_FEEDBACK_BUFFER_BINDING => int(i64::from(
                self.generic_bindings
                    .get(&GL_TRANSFORM_FEEDBACK_BUFFER)
                    .copied()
                    .unwrap_or(0),
            )),
            GL_TRANSFORM_FEEDBACK_BUFFER_ACTIVE => Some(Ok(Value::Bools(vec![active.is_some()]))),
            GL_TRANSFORM_FEEDBACK_BUFFER_PAUSED => {
                Some(Ok(Value::Bools(vec![active.is_some_and(|a| a.paused)])))
            }
            GL_MAX_TRANSFORM_FEEDBACK_BUFFERS => int(MAX_BUFFERS as i64),
            GL_MAX_VERTEX_STREAMS => int(i64::from(self.max_vertex_streams())),
            _ => None,
        }
    }

    /// `glGetIntegeri_v` of the indexed bindings; `None` for other pnames.
    pub(crate) fn feedback_get_indexed(
        &self,
        pname: GLenum,
        index: u32,
    ) -> Option<GlResult<Value>> {
        if !matches!(
            pname,
            GL_TRANSFORM_FEEDBACK_BUFFER_BINDING
                | GL_TRANSFORM_FEEDBACK_BUFFER_START
                | GL_TRANSFORM_FEEDBACK_BUFFER_SIZE
        ) {
            return None;
        }
        let Some(b) = self.feedback_object().bindings.get(index as usize) else {
            return Some(invalid_value(format!("transform feedback binding {index}")));
        };
        Some(Ok(Value::Ints(vec![match pname {
            GL_TRANSFORM_FEEDBACK_BUFFER_BINDING => i64::from(b.buffer),
            GL_TRANSFORM_FEEDBACK_BUFFER_START => b.offset as i64,
            _ => b.size as i64,
        }])))
    }
}
