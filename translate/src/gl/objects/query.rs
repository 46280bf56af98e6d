//! Query objects (GL 3.3 core §4.1.6, §6.1.13; `GL_ARB_occlusion_query`, `…2`,
//! `GL_ARB_timer_query`) and conditional rendering (GL 3.0 §2.18, `GL_NV_conditional_render`).
//!
//! Design decisions:
//! - Occlusion queries (`GL_SAMPLES_PASSED`, `GL_ANY_SAMPLES_PASSED[_CONSERVATIVE]`) are a list
//!   of Vulkan occlusion *segments*. A GL query stays active across the translator's render
//!   pass breaks (transfers, layout transitions, submissions end passes at any time), but a
//!   Vulkan query begun inside a render pass must end in it. So the first draw in each rendering
//!   instance begins a segment through [`arenagl_memory::MemoryManager::begin_pass_query`], and
//!   the manager ends it with the instance (or `glEndQuery` ends it first). The result is the
//!   sum of the segments. Draws only happen inside instances, so nothing is missed; the
//!   full-screen triangle of a masked clear (`masked_clear`) pauses the segment, because GL
//!   clears never count samples.
//! - One occlusion-type query is active at a time (`GL_ARB_occlusion_query2` makes beginning
//!   `GL_SAMPLES_PASSED` while `GL_ANY_SAMPLES_PASSED` is active an error, and the reverse),
//!   which is also Vulkan's rule of one active query per type in a command buffer.
//! - `GL_TIME_ELAPSED` is two timestamps (bottom of pipe) around the commands, `GL_TIMESTAMP`
//!   (`glQueryCounter`) one; timestamps may be written inside or outside a render pass, so they
//!   never break one. `glGetInteger64v(GL_TIMESTAMP)` writes one, submits and waits: GL defines
//!   it as the time once all earlier commands reached the GPU.
//! - `GL_PRIMITIVES_GENERATED` is counted on the CPU from each draw's vertex count, mode and
//!   instance count (with primitive restart, from the indices), which is exact without a
//!   geometry shader. Draws whose program has a geometry shader are counted by the device
//!   instead: a pipeline-statistics segment (`GEOMETRY_SHADER_PRIMITIVES`, which only geometry
//!   shader draws advance) opened like an occlusion segment; the result is the CPU count plus
//!   the segments. While a capture runs (and the device counts vertex streams) they use one
//!   transform feedback stream segment per stream instead (`vkCmdBeginQueryIndexedEXT`, whose
//!   "primitives needed" value is the stream's primitives), since the statistic counts every
//!   stream; `glBeginQueryIndexed` queries of streams past 0 live in `stream_active`.
//! - Results are read only after the last epoch that wrote them completed. Asking whether a
//!   result is available submits that epoch if it is still recording, so polling loops make
//!   progress; `GL_QUERY_RESULT` submits and waits. A lost device makes every result available
//!   (as whatever was written, 0 when nothing was).
//! - Conditional rendering reads the query's result when it begins: the `*_WAIT` modes wait for
//!   it, the `*_NO_WAIT` modes use it if it is available and otherwise render (GL allows both).
//!   While the result is zero, draws and clears are discarded.

pub(crate) mod overflow;
pub(crate) mod statistics;

use std::collections::HashMap;

use arenagl_memory::Epoch;
use ash::vk;

use crate::gl::context::enums::*;
use crate::gl::context::error::{
    gen_count, invalid_enum, invalid_op, invalid_value, GlError, GlResult,
};
use crate::gl::context::names::Names;
use crate::gl::context::Context;
use crate::gl::vk::query_pool::{QueryPools, Slot, SlotKind};

/// One GL query object.
pub(crate) struct QueryObject {
    /// The target it was first used with (fixed for its life).
    target: GLenum,
    /// Occlusion segments, `[begin, end]` timestamps, or the `glQueryCounter` timestamp.
    slots: Vec<Slot>,
    /// `GL_PRIMITIVES_GENERATED`: the CPU count.
    primitives: u64,
    /// The last epoch whose commands write this query's slots.
    epoch: Epoch,
    /// The result, once read.
    result: Option<u64>,
    /// Begun on a device that was lost since: its result is 0 (`QueryState::forget_lost_device`).
    reset: bool,
}

impl QueryObject {
    /// A query of `target` with no result yet.
    pub(crate) fn new(target: GLenum) -> Self {
        QueryObject {
            target,
            slots: Vec::new(),
            primitives: 0,
            epoch: Epoch::ZERO,
            result: None,
            reset: false,
        }
    }
}

/// The queries of one context.
#[derive(Default)]
pub(crate) struct QueryState {
    pub(crate) objects: Names<QueryObject>,
    /// The active query of each target.
    active: HashMap<GLenum, u32>,
    /// The active query of each (target, vertex stream past 0) (`glBeginQueryIndexed`).
    pub(crate) stream_active: HashMap<(GLenum, u32), u32>,
    /// The segments open in a rendering instance: (kind, instance id, slot).
    open: Vec<(SlotKind, u64, Slot)>,
    pools: QueryPools,
    /// Conditional rendering: (query, whether draws are discarded).
    conditional: Option<(u32, bool)>,
}

impl QueryState {
    /// After a device recovery: the pools, made on the device of generation `lost`, are made
    /// again on the device in use (`QueryPools::forget_lost_device`).
    pub(crate) fn forget_lost_device(
        &mut self,
        device: &crate::gl::vk::device::Device,
        locked: &mut crate::gl::vk::device::Locked,
        lost: u64,
    ) {
        self.open.clear();
        self.pools.forget_lost_device(device, locked, lost);
        // What the queries counted on the lost device is gone: each one not read yet answers
        // available with 0 (an active one when it ends), until it begins again.
        for id in self.objects.created() {
            if let Some(q) = self.objects.get_mut(id) {
                q.reset = true;
            }
        }
    }

    /// Whether query `id` is active (on any target or vertex stream).
    fn is_active(&self, id: u32) -> bool {
        let mut all = self.active.values().chain(self.stream_active.values());
        all.any(|&q| q == id)
    }
}

fn is_occlusion(target: GLenum) -> bool {
    matches!(
        target,
        GL_SAMPLES_PASSED | GL_ANY_SAMPLES_PASSED | GL_ANY_SAMPLES_PASSED_CONSERVATIVE
    )
}

/// Targets `glBeginQuery` accepts.
pub(crate) fn check_begin_target(target: GLenum, command: &str) -> GlResult<()> {
    match target {
        GL_SAMPLES_PASSED
        | GL_ANY_SAMPLES_PASSED
        | GL_ANY_SAMPLES_PASSED_CONSERVATIVE
        | GL_TIME_ELAPSED
        | GL_PRIMITIVES_GENERATED
        | GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN => Ok(()),
        t if statistics::is_statistic(t) || overflow::is_overflow(t) => Ok(()),
        t => invalid_enum(&format!("{command} target"), t),
    }
}

/// How many primitives `count` vertices of `mode` make (GL 3.3 §2.6.1).
pub(crate) fn primitives_of(mode: GLenum, count: u64) -> u64 {
    match mode {
        GL_POINTS => count,
        GL_LINES => count / 2,
        GL_LINE_STRIP => count.saturating_sub(1),
        GL_LINE_LOOP if count >= 2 => count,
        GL_LINE_LOOP => 0,
        GL_TRIANGLES => count / 3,
        GL_TRIANGLE_STRIP | GL_TRIANGLE_FAN => count.saturating_sub(2),
        GL_LINES_ADJACENCY => count / 4,
        GL_LINE_STRIP_ADJACENCY => count.saturating_sub(3),
        GL_TRIANGLES_ADJACENCY => count / 6,
        GL_TRIANGLE_STRIP_ADJACENCY if count >= 6 => (count - 4) / 2,
        // The compatibility profile's quads and polygons count as the triangles they are
        // drawn (and captured by transform feedback) as, as Mesa counts them.
        GL_QUADS => count / 4 * 2,
        GL_QUAD_STRIP if count >= 4 => (count - 2) / 2 * 2,
        GL_POLYGON => count.saturating_sub(2),
        _ => 0,
    }
}

/// Primitives of an indexed draw with primitive restart: each run between restart indices is
/// its own primitive sequence.
pub(crate) fn primitives_with_restart(
    mode: GLenum,
    indices: &[u8],
    size: usize,
    restart: u32,
) -> u64 {
    let mut total = 0;
    let mut run = 0u64;
    for chunk in indices.chunks_exact(size) {
        let index = match size {
            1 => u32::from(chunk[0]),
            2 => u32::from(u16::from_ne_bytes([chunk[0], chunk[1]])),
            _ => u32::from_ne_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]),
        };
        if index == restart {
            total += primitives_of(mode, run);
            run = 0;
        } else {
            run += 1;
        }
    }
    total + primitives_of(mode, run)
}

impl Context {
    /// `glGenQueries`.
    pub fn gen_queries(&mut self, n: i32) -> Vec<u32> {
        let r = gen_count("glGenQueries", n).map(|n| self.queries.objects.generate(n));
        self.record(r).unwrap_or_default()
    }

    /// `glIsQuery`: only names that were begun (or counted) at least once are queries.
    pub fn is_query(&self, name: u32) -> bool {
        self.queries.objects.exists(name)
    }

    /// `glDeleteQueries`: an active query is ended first; unused names and 0 are ignored.
    pub fn delete_queries(&mut self, names: &[u32], n: i32) {
        if n < 0 {
            self.record::<()>(invalid_value(format!("glDeleteQueries n = {n}")));
            return;
        }
        for &name in names {
            if name == 0 || !self.queries.objects.is_reserved(name) {
                continue;
            }
            let target = self
                .queries
                .active
                .iter()
                .find(|(_, &q)| q == name)
                .map(|(&t, _)| t);
            if let Some(t) = target {
                let r = self.end_query_inner(t);
                self.record(r);
            }
            if let Some(q) = self.queries.objects.remove(name) {
                for s in q.slots {
                    self.queries.pools.release(s, q.epoch);
                }
            }
        }
    }

    /// `glBeginQuery`.
    pub fn begin_query(&mut self, target: GLenum, id: u32) {
        let r = self.begin_query_inner(target, id);
        self.record(r);
    }

    /// Validation shared by `glBeginQuery` and `glQueryCounter`: the object `id` for `target`
    /// (created on first use).
    pub(crate) fn query_for(&mut self, target: GLenum, id: u32, command: &str) -> GlResult<()> {
        if id == 0 {
            return invalid_op(format!("{command} with query 0"));
        }
        // The compatibility profile (GL 2.x rules) accepts any name; core only generated ones.
        let compat = self.profile == crate::gl::context::Profile::Compatibility;
        let known =
            self.queries.objects.is_reserved(id) || (compat && self.queries.objects.reserve(id));
        if !known {
            return invalid_op(format!("{command}: {id} is not a name from glGenQueries"));
        }
        if self.queries.is_active(id) {
            return invalid_op(format!("{command}: query {id} is active"));
        }
        if let Some(q) = self.queries.objects.get(id) {
            if q.target != target {
                return invalid_op(format!(
                    "{command}: query {id} is a 0x{:04X} query, not 0x{target:04X}",
                    q.target
                ));
            }
        }
        if matches!(target, GL_TIME_ELAPSED | GL_TIMESTAMP)
            && self.device.caps().timestamp_bits == 0
        {
            return invalid_op("the device's queue has no timestamps");
        }
        let epoch = self.device.lock().manager.recording_epoch();
        let q = self
            .queries
            .objects
            .get_or_create(id, || QueryObject::new(target))
            .ok_or_else(|| GlError::InvalidOperation(format!("query {id} vanished")))?;
        let old = std::mem::take(&mut q.slots);
        let old_epoch = q.epoch;
        q.primitives = 0;
        q.result = None;
        q.reset = false;
        q.epoch = epoch;
        for s in old {
            self.queries.pools.release(s, old_epoch);
        }
        Ok(())
    }

    fn begin_query_inner(&mut self, target: GLenum, id: u32) -> GlResult<()> {
        if target == GL_TIMESTAMP {
            return invalid_enum("glBeginQuery target (use glQueryCounter)", target);
        }
        check_begin_target(target, "glBeginQuery")?;
        self.check_device_target(target, "glBeginQuery")?;
        if self.queries.active.contains_key(&target) {
            return invalid_op(format!("glBeginQuery: a 0x{target:04X} query is active"));
        }
        if is_occlusion(target) && self.queries.active.keys().any(|&t| is_occlusion(t)) {
            return invalid_op("glBeginQuery: another occlusion query is active");
        }
        self.query_for(target, id, "glBeginQuery")?;
        if target == GL_TIME_ELAPSED {
            let slot = self.write_timestamp()?;
            if let Some(q) = self.queries.objects.get_mut(id) {
                q.slots.push(slot);
            }
        }
        self.queries.active.insert(target, id);
        Ok(())
    }

    /// `GL_INVALID_ENUM` for a target of an extension the device cannot offer.
    fn check_device_target(&self, target: GLenum, command: &str) -> GlResult<()> {
        let offered = if statistics::is_statistic(target) {
            self.device.caps().pipeline_statistics
        } else if overflow::is_overflow(target) {
            overflow::extensions(&self.device).is_some()
        } else {
            true
        };
        if !offered {
            return invalid_enum(&format!("{command} target"), target);
        }
        Ok(())
    }

    /// `glEndQuery`.
    pub fn end_query(&mut self, target: GLenum) {
        let r = (|| {
            if target == GL_TIMESTAMP {
                return invalid_enum("glEndQuery target", target);
            }
            check_begin_target(target, "glEndQuery")?;
            self.end_query_inner(target)
        })();
        self.record(r);
    }

    fn end_query_inner(&mut self, target: GLenum) -> GlResult<()> {
        let Some(&id) = self.queries.active.get(&target) else {
            return invalid_op(format!("glEndQuery: no 0x{target:04X} query is active"));
        };
        if is_occlusion(target) {
            self.pause_segment(SlotKind::Occlusion);
        }
        if target == GL_PRIMITIVES_GENERATED {
            self.pause_segment(SlotKind::XfbStream(0));
        }
        if target == GL_PRIMITIVES_GENERATED || statistics::is_statistic(target) {
            self.pause_segment(SlotKind::Statistics);
        }
        if target == overflow::GL_TRANSFORM_FEEDBACK_OVERFLOW {
            for stream in 0..crate::glsl::xfb::MAX_STREAMS {
                self.pause_segment(SlotKind::XfbStream(stream));
            }
        }
        if target == overflow::GL_TRANSFORM_FEEDBACK_STREAM_OVERFLOW {
            self.pause_segment(SlotKind::XfbStream(0));
        }
        if target == GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN {
            self.count_written_before_query_end()?;
        }
        let end = if target == GL_TIME_ELAPSED {
            Some(self.write_timestamp()?)
        } else {
            None
        };
        self.queries.active.remove(&target);
        let epoch = self.device.lock().manager.recording_epoch();
        if let Some(q) = self.queries.objects.get_mut(id) {
            q.slots.extend(end);
            q.epoch = epoch;
        }
        Ok(())
    }

    /// `glQueryCounter`.
    pub fn query_counter(&mut self, id: u32, target: GLenum) {
        let r = (|| {
            if target != GL_TIMESTAMP {
                return invalid_enum("glQueryCounter target", target);
            }
            self.query_for(target, id, "glQueryCounter")?;
            let slot = self.write_timestamp()?;
            let epoch = self.device.lock().manager.recording_epoch();
            if let Some(q) = self.queries.objects.get_mut(id) {
                q.slots.push(slot);
                q.epoch = epoch;
            }
            Ok(())
        })();
        self.record(r);
    }

    /// `glGetQueryiv`.
    pub fn get_queryiv(&mut self, target: GLenum, pname: GLenum) -> Option<i32> {
        let r = (|| {
            if target != GL_TIMESTAMP {
                check_begin_target(target, "glGetQueryiv")?;
            }
            match pname {
                GL_CURRENT_QUERY => Ok(self.queries.active.get(&target).map_or(0, |&q| q as i32)),
                GL_QUERY_COUNTER_BITS => Ok(match target {
                    GL_TIME_ELAPSED | GL_TIMESTAMP => {
                        self.device.caps().timestamp_bits.min(64) as i32
                    }
                    // Only ever 0 or 1 (Mesa reports the same).
                    GL_ANY_SAMPLES_PASSED | GL_ANY_SAMPLES_PASSED_CONSERVATIVE => 1,
                    t if overflow::is_overflow(t) => 1,
                    _ => 64,
                }),
                p => invalid_enum("glGetQueryiv pname", p),
            }
        })();
        self.record(r)
    }

    /// `glGetQueryObject*v`: the value as a 64-bit unsigned integer (the C edge narrows it);
    /// None after an error, and for `GL_QUERY_RESULT_NO_WAIT` while the result is not
    /// available (GL then writes nothing).
    pub fn get_query_object(&mut self, id: u32, pname: GLenum) -> Option<u64> {
        let r = self.query_object_value(id, pname);
        self.record(r).flatten()
    }

    /// The value `glGetQueryObject*v` of `pname` answers for query `id`, with its errors; None:
    /// `GL_QUERY_RESULT_NO_WAIT` of a result that is not available yet.
    pub(crate) fn query_object_value(&mut self, id: u32, pname: GLenum) -> GlResult<Option<u64>> {
        if !self.queries.objects.exists(id) {
            return invalid_op(format!("glGetQueryObject: {id} is not a query object"));
        }
        // GL_QUERY_TARGET (GL 4.5): the target the query was created or first begun with.
        if pname == 0x82EA {
            return Ok(Some(
                self.queries
                    .objects
                    .get(id)
                    .map_or(0, |q| u64::from(q.target)),
            ));
        }
        if self.queries.is_active(id) {
            return invalid_op(format!("glGetQueryObject: query {id} is active"));
        }
        match pname {
            GL_QUERY_RESULT => self.query_result(id, true).map(|r| Some(r.unwrap_or(0))),
            GL_QUERY_RESULT_AVAILABLE => self
                .query_result(id, false)
                .map(|r| Some(u64::from(r.is_some()))),
            // GL_ARB_query_buffer_object: the result if available, else nothing.
            GL_QUERY_RESULT_NO_WAIT => self.query_result(id, false),
            p => invalid_enum("glGetQueryObject pname", p),
        }
    }

    /// The result of the (inactive) query `id`: waits for it when `wait`, else `None` while it
    /// is not available. Either way its epoch is submitted first.
    fn query_result(&mut self, id: u32, wait: bool) -> GlResult<Option<u64>> {
        let (epoch, cached) = match self.queries.objects.get(id) {
            // Begun on a lost device: available, with 0, without waiting.
            Some(q) if q.reset => (q.epoch, Some(0)),
            Some(q) => (q.epoch, q.result),
            None => return invalid_op(format!("{id} is not a query object")),
        };
        if cached.is_some() {
            return Ok(cached);
        }
        let device = self.device.clone();
        if epoch >= device.lock().manager.recording_epoch() {
            self.end_pass();
        }
        let ready = {
            let mut locked = device.lock();
            let m = &mut locked.manager;
            let lost = |e: &arenagl_memory::MemoryError| {
                matches!(e, arenagl_memory::MemoryError::DeviceLost)
            };
            if m.is_lost() {
                true
            } else if wait {
                match m.wait_epoch(epoch) {
                    Ok(()) => true,
                    Err(e) if lost(&e) => true,
                    Err(e) => return Err(e.into()),
                }
            } else {
                if epoch >= m.recording_epoch() {
                    match m.submit() {
                        Ok(_) => {}
                        Err(e) if lost(&e) => {}
                        Err(e) => return Err(e.into()),
                    }
                }
                match m.poll() {
                    Ok(done) => m.is_lost() || done >= epoch,
                    Err(e) if lost(&e) => true,
                    Err(e) => return Err(e.into()),
                }
            }
        };
        if !ready {
            return Ok(None);
        }
        let value = self.compute_result(id);
        if let Some(q) = self.queries.objects.get_mut(id) {
            q.result = Some(value);
        }
        Ok(Some(value))
    }

    /// Reads a completed query's slots into its GL result.
    fn compute_result(&self, id: u32) -> u64 {
        let Some(q) = self.queries.objects.get(id) else {
            return 0;
        };
        let read = |s: &Slot| self.queries.pools.read(&self.device, *s).unwrap_or(0);
        match q.target {
            GL_SAMPLES_PASSED => q.slots.iter().map(read).fold(0u64, u64::saturating_add),
            GL_ANY_SAMPLES_PASSED | GL_ANY_SAMPLES_PASSED_CONSERVATIVE => {
                u64::from(q.slots.iter().any(|s| read(s) > 0))
            }
            GL_TIME_ELAPSED => match q.slots.as_slice() {
                [begin, end] => {
                    let (b, e) = (self.ticks(read(begin)), self.ticks(read(end)));
                    self.nanoseconds(e.wrapping_sub(b) & self.tick_mask())
                }
                _ => 0,
            },
            GL_TIMESTAMP => q
                .slots
                .first()
                .map_or(0, |s| self.nanoseconds(self.ticks(read(s)))),
            GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN => q.primitives,
            GL_PRIMITIVES_GENERATED => q
                .slots
                .iter()
                .map(read)
                .fold(q.primitives, u64::saturating_add),
            t if overflow::is_overflow(t) => self.overflow_result(q.primitives > 0, &q.slots),
            t => self.statistic_result(t, &q.slots),
        }
    }

    fn tick_mask(&self) -> u64 {
        match self.device.caps().timestamp_bits {
            0 => 0,
            b if b >= 64 => u64::MAX,
            b => (1u64 << b) - 1,
        }
    }

    fn ticks(&self, raw: u64) -> u64 {
        raw & self.tick_mask()
    }

    fn nanoseconds(&self, ticks: u64) -> u64 {
        let period = f64::from(self.device.caps().limits.timestamp_period);
        (ticks as f64 * period) as u64
    }

    /// Writes a timestamp (bottom of pipe: after every earlier command) into a fresh slot, in
    /// this context's open render pass if there is one (timestamps never break a pass).
    fn write_timestamp(&mut self) -> GlResult<Slot> {
        let device = self.device.clone();
        let completed = device.lock().manager.completed_epoch();
        let slot = self
            .queries
            .pools
            .acquire(&device, SlotKind::Timestamp, completed)?;
        let pool = self.queries.pools.raw(slot);
        let mut locked = device.lock();
        let open = self
            .encoder
            .open_pass()
            .and_then(|p| locked.manager.rendering_command_buffer(p));
        let cb = match open {
            Some(cb) => cb,
            None => match locked.manager.recording_command_buffer() {
                Ok(cb) => cb,
                Err(e) => {
                    let epoch = locked.manager.recording_epoch();
                    drop(locked);
                    self.queries.pools.release(slot, epoch);
                    return Err(e.into());
                }
            },
        };
        // SAFETY: `cb` is the recording command buffer (inside or outside a render pass, both
        // allowed for timestamps); the slot was reset from the host and is unused.
        unsafe {
            device.raw().cmd_write_timestamp(
                cb,
                vk::PipelineStageFlags::BOTTOM_OF_PIPE,
                pool,
                slot.index,
            )
        };
        Ok(slot)
    }

    /// `glGetInteger64v(GL_TIMESTAMP)`: the GPU time in nanoseconds once every earlier command
    /// reached the GPU (written, submitted and waited for).
    pub(crate) fn current_timestamp(&mut self) -> GlResult<i64> {
        if self.device.caps().timestamp_bits == 0 {
            return Ok(0);
        }
        let slot = self.write_timestamp()?;
        let device = self.device.clone();
        self.end_pass();
        let r = (|| {
            let mut locked = device.lock();
            let epoch = locked.manager.submit()?;
            locked.manager.wait_epoch(epoch)?;
            Ok::<_, GlError>(epoch)
        })();
        let epoch = match r {
            Ok(e) => e,
            Err(e) => {
                let epoch = device.lock().manager.recording_epoch();
                self.queries.pools.release(slot, epoch);
                return Err(e);
            }
        };
        let ticks = self.queries.pools.read(&device, slot).unwrap_or(0);
        self.queries.pools.release(slot, epoch);
        Ok(self.nanoseconds(self.ticks(ticks)) as i64)
    }

    // ---- the draw side ----------------------------------------------------------------------

    /// Whether conditional rendering discards draws and clears now.
    pub(crate) fn render_discarded(&self) -> bool {
        self.queries.conditional.is_some_and(|(_, skip)| skip)
    }

    /// Whether a `GL_PRIMITIVES_GENERATED` query is active (draws then count primitives).
    pub(crate) fn counting_primitives(&self) -> bool {
        self.queries.active.contains_key(&GL_PRIMITIVES_GENERATED)
    }

    /// The primitives a valid draw generates (all instances). `element` is (element buffer
    /// size, byte offset, index size) for indexed draws; indices past the buffer are not drawn.
    pub(crate) fn primitives_of_draw(
        &mut self,
        call: &crate::gl::draw::DrawCall,
        element: Option<(u64, u64, u64)>,
    ) -> GlResult<u64> {
        let count = call.count.max(0) as u64;
        let instances = call.instances.max(0) as u64;
        // The restart index for the element type (`size` bytes, largest value 2^(8 size) - 1).
        let restart = element
            .filter(|&(_, _, size)| (1..=4).contains(&size))
            .and_then(|(_, _, size)| {
                let type_max = ((1u64 << (8 * size)) - 1) as u32;
                self.pipeline_state.restart_for(type_max)
            });
        let per_instance = match (element, restart) {
            (Some((buffer_size, offset, size)), Some(restart)) => {
                let n = count.min(buffer_size.saturating_sub(offset) / size);
                let name = self.current_vao().map_or(0, |v| v.element_buffer);
                let mut bytes = vec![0u8; (n * size) as usize];
                let b = self
                    .buffers
                    .get(name)
                    .ok_or_else(|| GlError::InvalidOperation("element buffer gone".into()))?;
                match (&b.shadow, b.storage) {
                    (Some(shadow), _) => {
                        let start = offset as usize;
                        let src = shadow.get(start..start + bytes.len()).ok_or_else(|| {
                            GlError::InvalidOperation("indices past the element buffer".into())
                        })?;
                        bytes.copy_from_slice(src);
                    }
                    (None, Some(h)) if !bytes.is_empty() => {
                        // Primitive restart under a primitives query on a large index buffer:
                        // the indices must be read back to count exactly.
                        self.end_pass();
                        self.device
                            .lock()
                            .manager
                            .read_buffer_range(h, offset, &mut bytes)?;
                    }
                    _ => {}
                }
                primitives_with_restart(call.mode, &bytes, size as usize, restart)
            }
            (Some((buffer_size, offset, size)), None) if size > 0 => primitives_of(
                call.mode,
                count.min(buffer_size.saturating_sub(offset) / size),
            ),
            _ => primitives_of(call.mode, count),
        };
        Ok(per_instance.saturating_mul(instances))
    }

    /// Adds a draw's primitives to the active `GL_PRIMITIVES_GENERATED` query.
    pub(crate) fn add_primitives(&mut self, n: u64) {
        self.add_to_query(GL_PRIMITIVES_GENERATED, n);
    }

    /// Adds the primitives transform feedback wrote to the active
    /// `GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN` query.
    pub(crate) fn add_primitives_written(&mut self, n: u64) {
        self.add_to_query(GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, n);
    }

    /// Marks query `id` as written by the commands of `epoch` (its end).
    pub(crate) fn set_query_epoch(&mut self, id: u32, epoch: Epoch) {
        if let Some(q) = self.queries.objects.get_mut(id) {
            q.epoch = epoch;
        }
    }

    /// The active query of `target` on vertex stream `stream`.
    pub(crate) fn stream_query(&self, target: GLenum, stream: u32) -> Option<u32> {
        match stream {
            0 => self.queries.active.get(&target).copied(),
            s => self.queries.stream_active.get(&(target, s)).copied(),
        }
    }

    /// Adds `n` to the CPU count of the active query of `target` on vertex stream `stream`.
    pub(crate) fn add_to_stream_query(&mut self, target: GLenum, stream: u32, n: u64) {
        if let Some(id) = self.stream_query(target, stream) {
            if let Some(q) = self.queries.objects.get_mut(id) {
                q.primitives = q.primitives.saturating_add(n);
            }
        }
    }

    /// Adds `n` to the CPU count of the active query of `target`.
    fn add_to_query(&mut self, target: GLenum, n: u64) {
        if let Some(&id) = self.queries.active.get(&target) {
            if let Some(q) = self.queries.objects.get_mut(id) {
                q.primitives = q.primitives.saturating_add(n);
            }
        }
    }

    /// Called by a draw inside its render pass, right before it records: makes sure the
    /// segments the active queries need are counting in this rendering instance (occlusion for
    /// occlusion queries; geometry-shader primitives for `GL_PRIMITIVES_GENERATED` when the
    /// draw's program has a geometry shader).
    pub(crate) fn segments_at_draw(&mut self, geometry_shader: bool) -> GlResult<()> {
        let kinds = self.segment_kinds(geometry_shader);
        for kind in kinds {
            self.open_segment(kind, geometry_shader)?;
        }
        Ok(())
    }

    /// Without `hostQueryReset`: stocks a slot reset by a command for every segment a draw may
    /// open (`QueryPools::restock`), before the draw opens its pass, since recording the reset
    /// ends a pass. Nothing to do with `hostQueryReset` or no active query.
    pub(crate) fn restock_segments(&mut self, geometry_shader: bool) -> GlResult<()> {
        if self.device.caps().host_query_reset {
            return Ok(());
        }
        let device = self.device.clone();
        let completed = device.lock().manager.completed_epoch();
        for kind in self.segment_kinds(geometry_shader) {
            self.queries.pools.restock(&device, kind, completed)?;
        }
        Ok(())
    }

    /// The segment kinds with an active query at a draw.
    fn segment_kinds(&self, geometry_shader: bool) -> Vec<SlotKind> {
        if self.queries.active.is_empty() && self.queries.stream_active.is_empty() {
            return Vec::new();
        }
        let caps = self.device.caps();
        [
            SlotKind::Occlusion,
            SlotKind::Statistics,
            SlotKind::XfbStream(0),
            SlotKind::XfbStream(1),
            SlotKind::XfbStream(2),
            SlotKind::XfbStream(3),
        ]
        .into_iter()
        .filter(|&kind| !self.segment_queries(kind, geometry_shader, caps).is_empty())
        .collect()
    }

    /// Opens a segment of `kind` in the open rendering instance unless one is open there.
    fn open_segment(&mut self, kind: SlotKind, geometry_shader: bool) -> GlResult<()> {
        let caps = self.device.caps().clone();
        let active = self.segment_queries(kind, geometry_shader, &caps);
        let Some(pass) = self.encoder.open_pass() else {
            return Ok(());
        };
        if active.is_empty() {
            return Ok(());
        }
        if let Some(&(_, _, slot)) = self
            .queries
            .open
            .iter()
            .find(|&&(k, p, _)| k == kind && p == pass)
        {
            // The open segment serves every active query that needs it, unless one began
            // after it opened (or a draw now needs it for one it did not count for).
            let held = |q: u32| {
                self.queries
                    .objects
                    .get(q)
                    .is_some_and(|o| o.slots.contains(&slot))
            };
            if active.iter().all(|&(_, q)| held(q)) {
                return Ok(());
            }
            self.pause_segment(kind);
        }
        // A segment of an instance that ended was ended with it.
        self.queries.open.retain(|&(k, _, _)| k != kind);
        let precise = kind == SlotKind::Occlusion
            && caps.occlusion_precise
            && active.iter().any(|&(t, _)| t == GL_SAMPLES_PASSED);
        let flags = if precise {
            vk::QueryControlFlags::PRECISE
        } else {
            vk::QueryControlFlags::empty()
        };
        let device = self.device.clone();
        let completed = device.lock().manager.completed_epoch();
        let slot = self.queries.pools.acquire(&device, kind, completed)?;
        let pool = self.queries.pools.raw(slot);
        let mut locked = device.lock();
        let epoch = locked.manager.recording_epoch();
        let begun = match kind {
            SlotKind::XfbStream(stream) => locked
                .manager
                .begin_pass_query_indexed(pass, pool, slot.index, stream),
            _ => locked
                .manager
                .begin_pass_query(pass, pool, slot.index, flags),
        };
        drop(locked);
        if let Err(e) = begun {
            self.queries.pools.release(slot, epoch);
            return Err(e.into());
        }
        for (_, q) in active {
            if let Some(o) = self.queries.objects.get_mut(q) {
                o.slots.push(slot);
                self.queries.pools.retain(slot);
            }
        }
        // The segment is held by the queries now, not by its acquisition.
        self.queries.pools.release(slot, epoch);
        self.queries.open.push((kind, pass, slot));
        Ok(())
    }

    /// The active queries (target, id) a segment of `kind` counts for at a draw. A geometry
    /// stage's primitives are the pipeline statistic, which counts every vertex stream; while a
    /// capture runs (and the device counts streams) each stream's are its transform feedback
    /// stream query's instead, streams past 0 only ever so.
    fn segment_queries(
        &self,
        kind: SlotKind,
        geometry_shader: bool,
        caps: &crate::gl::vk::device::DeviceCaps,
    ) -> Vec<(GLenum, u32)> {
        let statistics = geometry_shader && caps.pipeline_statistics;
        let streams = geometry_shader && caps.gl4.transform_feedback_streams;
        let by_stream = streams && self.xfb.capturing();
        let generated = |stream| {
            self.stream_query(GL_PRIMITIVES_GENERATED, stream)
                .map(|q| (GL_PRIMITIVES_GENERATED, q))
                .into_iter()
                .collect()
        };
        match kind {
            SlotKind::Occlusion => self
                .queries
                .active
                .iter()
                .filter(|(&t, _)| is_occlusion(t))
                .map(|(&t, &q)| (t, q))
                .collect(),
            SlotKind::Statistics => {
                let mut v: Vec<(GLenum, u32)> = if statistics && !by_stream {
                    generated(0)
                } else {
                    Vec::new()
                };
                if caps.pipeline_statistics {
                    v.extend(self.queries.active_statistics());
                }
                v
            }
            SlotKind::XfbStream(s) => {
                let mut v: Vec<(GLenum, u32)> = if by_stream { generated(s) } else { Vec::new() };
                if self.xfb.capturing() && caps.gl4.transform_feedback_streams {
                    v.extend(self.overflow_queries(s));
                }
                v
            }
            _ => Vec::new(),
        }
    }

    /// Ends the open segment of `kind` (before an internal draw that must not count, and at
    /// `glEndQuery`); the next draw opens a new one.
    pub(crate) fn pause_segment(&mut self, kind: SlotKind) {
        let Some(i) = self.queries.open.iter().position(|&(k, _, _)| k == kind) else {
            return;
        };
        let (_, _, slot) = self.queries.open.swap_remove(i);
        let pool = self.queries.pools.raw(slot);
        self.device.lock().manager.end_pass_query(pool, slot.index);
    }

    // ---- conditional rendering --------------------------------------------------------------

    /// `glBeginConditionalRender`.
    pub fn begin_conditional_render(&mut self, id: u32, mode: GLenum) {
        let r = (|| {
            // GL_ARB_conditional_render_inverted: the `*_INVERTED` modes draw when the
            // query saw nothing (when its result is not available yet, `NO_WAIT` draws).
            let (wait, inverted) = match mode {
                GL_QUERY_WAIT | GL_QUERY_BY_REGION_WAIT => (true, false),
                GL_QUERY_NO_WAIT | GL_QUERY_BY_REGION_NO_WAIT => (false, false),
                GL_QUERY_WAIT_INVERTED | GL_QUERY_BY_REGION_WAIT_INVERTED => (true, true),
                GL_QUERY_NO_WAIT_INVERTED | GL_QUERY_BY_REGION_NO_WAIT_INVERTED => (false, true),
                m => return invalid_enum("glBeginConditionalRender mode", m),
            };
            if self.queries.conditional.is_some() {
                return invalid_op("glBeginConditionalRender: conditional rendering is active");
            }
            let Some(q) = self.queries.objects.get(id) else {
                return invalid_value(format!(
                    "glBeginConditionalRender: {id} is not a query object"
                ));
            };
            if !is_occlusion(q.target) && !overflow::is_overflow(q.target) {
                return invalid_op(format!(
                    "glBeginConditionalRender: query {id} is not an occlusion or overflow query"
                ));
            }
            if self.queries.active.values().any(|&a| a == id) {
                return invalid_op(format!("glBeginConditionalRender: query {id} is active"));
            }
            let skip = self
                .query_result(id, wait)?
                .is_some_and(|r| (r == 0) != inverted);
            self.queries.conditional = Some((id, skip));
            Ok(())
        })();
        self.record(r);
    }

    /// `glEndConditionalRender`.
    pub fn end_conditional_render(&mut self) {
        if self.queries.conditional.take().is_none() {
            self.record::<()>(invalid_op(
                "glEndConditionalRender without glBeginConditionalRender",
            ));
        }
    }

    /// Hands the query pools to deferred destruction (context teardown).
    pub(crate) fn release_queries(&mut self) {
        let device = self.device.clone();
        self.queries.pools.release_all(&device);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primitive_counts_follow_gl_assembly_rules() {
        assert_eq!(primitives_of(GL_TRIANGLES, 6), 2);
        assert_eq!(primitives_of(GL_TRIANGLES, 7), 2);
        assert_eq!(primitives_of(GL_TRIANGLE_STRIP, 4), 2);
        assert_eq!(primitives_of(GL_TRIANGLE_FAN, 2), 0);
        assert_eq!(primitives_of(GL_LINE_LOOP, 1), 0);
        assert_eq!(primitives_of(GL_LINE_LOOP, 3), 3);
        assert_eq!(primitives_of(GL_LINE_STRIP, 3), 2);
        assert_eq!(primitives_of(GL_POINTS, 5), 5);
        assert_eq!(primitives_of(GL_TRIANGLE_STRIP_ADJACENCY, 8), 2);
    }

    #[test]
    fn restart_splits_runs() {
        let idx: Vec<u8> = [0u16, 1, 2, 3, 0xFFFF, 4, 5, 6]
            .iter()
            .flat_map(|i| i.to_ne_bytes())
            .collect();
        // Strip of 4 (2 triangles) + strip of 3 (1 triangle).
        assert_eq!(
            primitives_with_restart(GL_TRIANGLE_STRIP, &idx, 2, 0xFFFF),
            3
        );
        assert_eq!(primitives_with_restart(GL_TRIANGLES, &idx, 2, 0xFFFF), 2);
    }
}
