//! GL_ARB_pipeline_statistics_query: the eleven pipeline statistics on Vulkan's
//! `PIPELINE_STATISTICS` queries.
//!
//! Design decisions:
//! - Vulkan allows one active query of a type in a command buffer, and GL programs keep several
//!   statistics (and `GL_PRIMITIVES_GENERATED`, which counts geometry-shader draws with one)
//!   active at once. So every statistics segment is one query of a pool counting all eleven
//!   statistics ([`ALL`]); each GL query reads its own value out of the slot's results, and
//!   one segment serves every active statistics query.
//! - Draws count through segments opened in each rendering instance, like occlusion queries
//!   (the parent module); a dispatch counts through a query of its own around it, outside any
//!   render pass. Internal draws (masked clears) pause the segment, so they never count.

use super::*;

pub(crate) const GL_VERTICES_SUBMITTED: GLenum = 0x82EE;
pub(crate) const GL_PRIMITIVES_SUBMITTED: GLenum = 0x82EF;
pub(crate) const GL_VERTEX_SHADER_INVOCATIONS: GLenum = 0x82F0;
pub(crate) const GL_TESS_CONTROL_SHADER_PATCHES: GLenum = 0x82F1;
pub(crate) const GL_TESS_EVALUATION_SHADER_INVOCATIONS: GLenum = 0x82F2;
pub(crate) const GL_GEOMETRY_SHADER_PRIMITIVES_EMITTED: GLenum = 0x82F3;
pub(crate) const GL_FRAGMENT_SHADER_INVOCATIONS: GLenum = 0x82F4;
pub(crate) const GL_COMPUTE_SHADER_INVOCATIONS: GLenum = 0x82F5;
pub(crate) const GL_CLIPPING_INPUT_PRIMITIVES: GLenum = 0x82F6;
pub(crate) const GL_CLIPPING_OUTPUT_PRIMITIVES: GLenum = 0x82F7;
pub(crate) const GL_GEOMETRY_SHADER_INVOCATIONS: GLenum = 0x887F;

type Flags = vk::QueryPipelineStatisticFlags;

/// Each GL target and the Vulkan statistic it is.
const TARGETS: [(GLenum, Flags); 11] = [
    (GL_VERTICES_SUBMITTED, Flags::INPUT_ASSEMBLY_VERTICES),
    (GL_PRIMITIVES_SUBMITTED, Flags::INPUT_ASSEMBLY_PRIMITIVES),
    (
        GL_VERTEX_SHADER_INVOCATIONS,
        Flags::VERTEX_SHADER_INVOCATIONS,
    ),
    (
        GL_GEOMETRY_SHADER_INVOCATIONS,
        Flags::GEOMETRY_SHADER_INVOCATIONS,
    ),
    (
        GL_GEOMETRY_SHADER_PRIMITIVES_EMITTED,
        Flags::GEOMETRY_SHADER_PRIMITIVES,
    ),
    (GL_CLIPPING_INPUT_PRIMITIVES, Flags::CLIPPING_INVOCATIONS),
    (GL_CLIPPING_OUTPUT_PRIMITIVES, Flags::CLIPPING_PRIMITIVES),
    (
        GL_FRAGMENT_SHADER_INVOCATIONS,
        Flags::FRAGMENT_SHADER_INVOCATIONS,
    ),
    (
        GL_TESS_CONTROL_SHADER_PATCHES,
        Flags::TESSELLATION_CONTROL_SHADER_PATCHES,
    ),
    (
        GL_TESS_EVALUATION_SHADER_INVOCATIONS,
        Flags::TESSELLATION_EVALUATION_SHADER_INVOCATIONS,
    ),
    (
        GL_COMPUTE_SHADER_INVOCATIONS,
        Flags::COMPUTE_SHADER_INVOCATIONS,
    ),
];

/// The statistics every statistics slot counts (Vulkan writes their values in bit order).
pub(crate) const ALL: Flags = Flags::from_raw(0x7FF);

/// Whether `target` is one of the eleven statistics.
pub(crate) fn is_statistic(target: GLenum) -> bool {
    TARGETS.iter().any(|&(t, _)| t == target)
}

/// Where `target`'s value is among a statistics slot's results.
pub(crate) fn value_index(target: GLenum) -> Option<usize> {
    let (_, flag) = TARGETS.iter().find(|&&(t, _)| t == target)?;
    Some(flag.as_raw().trailing_zeros() as usize)
}

/// The extension, where the device counts pipeline statistics.
pub(crate) fn extensions(device: &crate::gl::vk::device::Device) -> Option<&'static str> {
    device
        .caps()
        .pipeline_statistics
        .then_some("GL_ARB_pipeline_statistics_query")
}

impl QueryState {
    /// The active statistics queries: (target, id).
    pub(super) fn active_statistics(&self) -> Vec<(GLenum, u32)> {
        self.active
            .iter()
            .filter(|(&t, _)| is_statistic(t))
            .map(|(&t, &q)| (t, q))
            .collect()
    }
}

impl Context {
    /// Whether a pipeline statistics query is active (draws discarded by
    /// `GL_RASTERIZER_DISCARD` are then still recorded, for the device to count).
    pub(crate) fn counting_statistics(&self) -> bool {
        self.queries.active.keys().any(|&t| is_statistic(t))
    }

    /// A statistics query's result: its value summed over its segments.
    pub(super) fn statistic_result(&self, target: GLenum, slots: &[Slot]) -> u64 {
        let Some(index) = value_index(target) else {
            return 0;
        };
        slots
            .iter()
            .filter_map(|s| self.queries.pools.read_statistics(&self.device, *s))
            .filter_map(|values| values.get(index).copied())
            .fold(0u64, u64::saturating_add)
    }

    /// For a dispatch while statistics queries are active: a statistics slot the active
    /// queries hold, to be begun and ended around the dispatch (outside any render pass).
    /// Called before the dispatch records (it may record a reset, which ends a pass).
    pub(crate) fn dispatch_statistics(&mut self) -> GlResult<Option<(vk::QueryPool, u32)>> {
        let active = self.queries.active_statistics();
        if active.is_empty() || !self.device.caps().pipeline_statistics {
            return Ok(None);
        }
        let device = self.device.clone();
        let completed = device.lock().manager.completed_epoch();
        let slot = self
            .queries
            .pools
            .acquire(&device, SlotKind::Statistics, completed)?;
        for (_, q) in active {
            if let Some(o) = self.queries.objects.get_mut(q) {
                o.slots.push(slot);
                self.queries.pools.retain(slot);
            }
        }
        let epoch = device.lock().manager.recording_epoch();
        self.queries.pools.release(slot, epoch);
        Ok(Some((self.queries.pools.raw(slot), slot.index)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_target_reads_its_own_value() {
        assert_eq!(value_index(GL_VERTICES_SUBMITTED), Some(0));
        assert_eq!(value_index(GL_GEOMETRY_SHADER_INVOCATIONS), Some(3));
        assert_eq!(value_index(GL_FRAGMENT_SHADER_INVOCATIONS), Some(7));
        assert_eq!(value_index(GL_COMPUTE_SHADER_INVOCATIONS), Some(10));
        assert_eq!(value_index(GL_SAMPLES_PASSED), None);
        let all = TARGETS.iter().fold(Flags::empty(), |a, &(_, f)| a | f);
        assert_eq!(all, ALL);
    }
}
