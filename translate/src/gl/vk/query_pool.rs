//! Vulkan query slots for GL queries: a per-context allocator over small query pools.
//!
//! Design decisions:
//! - Query pools are device objects, not memory, so the translator creates them (the ownership
//!   rule routes only memory and submission through the manager). Their destruction is deferred
//!   to the recording epoch like every other object a pending command buffer may use.
//! - A slot is reset from the host (`vkResetQueryPool`, `hostQueryReset`) when it is handed
//!   out: `vkCmdResetQueryPool` is illegal inside a render pass, and a GL query must be able to
//!   start a new slot in the middle of one. A slot returns to the free list stamped with the
//!   epoch that last wrote it and is reused only once that epoch completed.
//! - Without `hostQueryReset` (Vulkan 1.1 devices) slots are reset by `vkCmdResetQueryPool`
//!   ahead of need, outside any render pass, into a *stock* ([`QueryPools::restock`], which the
//!   draw path calls before it opens the pass a segment will count in): a batch at a time (a
//!   new pool's every slot, or every reusable one), so few passes are broken for it.
//! - Slots are reference-counted, so a segment can be shared by every GL query that needs the
//!   same counter at once (Vulkan allows only one active query of a type in a command buffer).

use std::collections::HashMap;

use arenagl_memory::{Epoch, MemoryError};
use ash::vk;

use crate::gl::context::error::{GlError, GlResult};
use crate::gl::vk::device::{Device, Locked, Retired};

/// The Vulkan query types GL queries are built from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum SlotKind {
    Occlusion,
    Timestamp,
    /// Pipeline statistics counting all eleven statistics (`objects::query::statistics`);
    /// `GL_PRIMITIVES_GENERATED` reads `GEOMETRY_SHADER_PRIMITIVES` of it.
    Statistics,
    /// `TRANSFORM_FEEDBACK_STREAM_EXT` of one vertex stream (its primitives needed: every
    /// primitive the stream received while transform feedback was active).
    XfbStream(u32),
}

/// One query slot: a pool (by index) and a query in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Slot {
    pool: usize,
    pub index: u32,
}

/// The result of query `index` of `pool`, `T` being what its query type writes (64-bit
/// values); `None` if it is not available.
fn read_one<T: Copy + Default>(device: &Device, pool: vk::QueryPool, index: u32) -> Option<T> {
    let mut out = [T::default()];
    // SAFETY: the pool belongs to this device; one query's result, of `T`'s size (the query
    // type's values as `TYPE_64`), is written into `out`.
    unsafe {
        device
            .raw()
            .get_query_pool_results(pool, index, &mut out, vk::QueryResultFlags::TYPE_64)
    }
    .ok()
    .map(|()| out[0])
}

/// Where `GEOMETRY_SHADER_PRIMITIVES` is among a statistics slot's values (bit 4).
const GEOMETRY_SHADER_PRIMITIVES_VALUE: usize = 4;

/// Queries per pool: GL programs keep a handful of queries in flight per frame.
const POOL_SIZE: u32 = 64;

struct Pool {
    raw: vk::QueryPool,
    kind: SlotKind,
}

/// The slots of one context.
#[derive(Default)]
pub(crate) struct QueryPools {
    pools: Vec<Pool>,
    /// Free slots and the epoch after which they may be reset.
    free: Vec<(Slot, Epoch)>,
    /// Live slots and how many GL queries hold each.
    refs: HashMap<Slot, u32>,
    /// Without `hostQueryReset`: slots reset by a recorded command and not handed out yet.
    stock: Vec<Slot>,
}

impl QueryPools {
    /// A reset slot of `kind`, held once. `completed` is the manager's completed epoch.
    /// Without `hostQueryReset` it comes from the stock, restocked here if empty (which ends
    /// the open render pass: callers inside one restock first).
    pub(crate) fn acquire(
        &mut self,
        device: &Device,
        kind: SlotKind,
        completed: Epoch,
    ) -> GlResult<Slot> {
        let slot = if device.caps().host_query_reset {
            let slot = match self.take_free(kind, completed) {
                Some(slot) => slot,
                None => self.create_pool(device, kind)?.0,
            };
            // SAFETY: the pool belongs to this device; the slot is not used by any pending
            // command buffer (its last epoch completed, or it was never used), and
            // `hostQueryReset` is enabled.
            unsafe {
                device
                    .raw()
                    .reset_query_pool(self.pools[slot.pool].raw, slot.index, 1)
            };
            slot
        } else {
            self.restock(device, kind, completed)?;
            let i = self
                .stock
                .iter()
                .position(|s| self.pools[s.pool].kind == kind)
                .ok_or(GlError::Memory(MemoryError::Internal(
                    "query slot stock empty",
                )))?;
            self.stock.swap_remove(i)
        };
        self.refs.insert(slot, 1);
        Ok(slot)
    }

    /// Without `hostQueryReset`: makes sure a slot of `kind` reset by a recorded
    /// `vkCmdResetQueryPool` is in stock. Recording the reset ends the open render pass, so
    /// the draw path calls this before opening the pass a segment will begin in. Nothing to do
    /// with `hostQueryReset`.
    pub(crate) fn restock(
        &mut self,
        device: &Device,
        kind: SlotKind,
        completed: Epoch,
    ) -> GlResult<()> {
        let stocked = self.stock.iter().any(|s| self.pools[s.pool].kind == kind);
        if device.caps().host_query_reset || stocked {
            return Ok(());
        }
        let mut batch: Vec<Slot> = std::iter::from_fn(|| self.take_free(kind, completed)).collect();
        let fresh = if batch.is_empty() {
            let (_, pool) = self.create_pool(device, kind)?;
            // The new pool's other slots join the batch (one reset command for all).
            self.free.retain(|(s, _)| s.pool != pool);
            batch = (0..POOL_SIZE).map(|index| Slot { pool, index }).collect();
            Some(pool)
        } else {
            None
        };
        let mut locked = device.lock();
        let cb = match locked.manager.recording_command_buffer() {
            Ok(cb) => cb,
            Err(e) => {
                drop(locked);
                self.free
                    .extend(batch.into_iter().map(|s| (s, Epoch::ZERO)));
                return Err(e.into());
            }
        };
        // SAFETY: `cb` is recording outside any render pass (`recording_command_buffer` ended
        // the open one); every slot's pool belongs to this device and no pending command
        // buffer uses the slot (its last epoch completed, or it was never used).
        unsafe {
            match fresh {
                Some(pool) => {
                    device
                        .raw()
                        .cmd_reset_query_pool(cb, self.pools[pool].raw, 0, POOL_SIZE)
                }
                None => {
                    for s in &batch {
                        device
                            .raw()
                            .cmd_reset_query_pool(cb, self.pools[s.pool].raw, s.index, 1);
                    }
                }
            }
        }
        self.stock.extend(batch);
        Ok(())
    }

    /// A free slot of `kind` whose last epoch completed, taken off the free list.
    fn take_free(&mut self, kind: SlotKind, completed: Epoch) -> Option<Slot> {
        let i = self
            .free
            .iter()
            .position(|(s, epoch)| self.pools[s.pool].kind == kind && *epoch <= completed)?;
        Some(self.free.swap_remove(i).0)
    }

    /// Creates a pool of `kind`; returns its first slot (handed out) and the pool's index. Its
    /// other slots join the free list.
    fn create_pool(&mut self, device: &Device, kind: SlotKind) -> GlResult<(Slot, usize)> {
        let raw = create_raw(device, kind)?;
        let pool = self.pools.len();
        self.pools.push(Pool { raw, kind });
        self.free
            .extend((1..POOL_SIZE).map(|index| (Slot { pool, index }, Epoch::ZERO)));
        Ok((Slot { pool, index: 0 }, pool))
    }

    /// After a device recovery: every pool, made on the device of generation `lost`, is
    /// destroyed there and made again (reset) on the device in use, so the slots GL queries
    /// hold stay valid; what they counted on the lost device is gone.
    pub(crate) fn forget_lost_device(&mut self, device: &Device, locked: &mut Locked, lost: u64) {
        for pool in &mut self.pools {
            let old = std::mem::replace(&mut pool.raw, vk::QueryPool::null());
            match create_raw(device, pool.kind) {
                Ok(raw) => {
                    if device.caps().host_query_reset {
                        // SAFETY: a new pool of this device, used by nothing yet, and
                        // `hostQueryReset` is enabled.
                        unsafe { device.raw().reset_query_pool(raw, 0, POOL_SIZE) };
                    }
                    pool.raw = raw;
                }
                Err(e) => tracing::warn!(error = %e, "a query pool could not be made again"),
            }
            locked.retire_from(lost, Retired::QueryPool(old));
        }
        // Without `hostQueryReset` the stocked slots' resets were on the lost device: they go
        // back to the free list, to be reset by command when restocked.
        let stocked = self.stock.drain(..).map(|s| (s, Epoch::ZERO));
        self.free.extend(stocked);
    }

    /// One more holder of `slot`.
    pub(crate) fn retain(&mut self, slot: Slot) {
        *self.refs.entry(slot).or_insert(0) += 1;
    }

    /// Drops one hold on `slot`; the last one frees it once `epoch` (the last epoch that may
    /// write it) completes.
    pub(crate) fn release(&mut self, slot: Slot, epoch: Epoch) {
        if let Some(n) = self.refs.get_mut(&slot) {
            *n -= 1;
            if *n == 0 {
                self.refs.remove(&slot);
                self.free.push((slot, epoch));
            }
        }
    }

    /// The raw pool of `slot`.
    pub(crate) fn raw(&self, slot: Slot) -> vk::QueryPool {
        self.pools[slot.pool].raw
    }

    /// The 64-bit result of `slot`, which an epoch that completed wrote; `None` if the device
    /// does not have it (a lost device).
    /// (A stream query's result is its second value, the primitives needed.)
    pub(crate) fn read(&self, device: &Device, slot: Slot) -> Option<u64> {
        let pool = &self.pools[slot.pool];
        match pool.kind {
            SlotKind::XfbStream(_) => {
                read_one::<[u64; 2]>(device, pool.raw, slot.index).map(|[_written, needed]| needed)
            }
            SlotKind::Statistics => self
                .read_statistics(device, slot)
                .map(|v| v[GEOMETRY_SHADER_PRIMITIVES_VALUE]),
            _ => read_one::<u64>(device, pool.raw, slot.index),
        }
    }

    /// The (written, needed) primitives of a transform feedback stream slot; `None` for
    /// another kind of slot or a lost device.
    pub(crate) fn read_stream(&self, device: &Device, slot: Slot) -> Option<[u64; 2]> {
        let pool = &self.pools[slot.pool];
        matches!(pool.kind, SlotKind::XfbStream(_))
            .then(|| read_one::<[u64; 2]>(device, pool.raw, slot.index))
            .flatten()
    }

    /// The eleven values of a statistics slot (in Vulkan's bit order); `None` for another kind
    /// of slot or a lost device.
    pub(crate) fn read_statistics(&self, device: &Device, slot: Slot) -> Option<[u64; 11]> {
        let pool = &self.pools[slot.pool];
        (pool.kind == SlotKind::Statistics)
            .then(|| read_one::<[u64; 11]>(device, pool.raw, slot.index))
            .flatten()
    }

    /// Hands every pool to the device's deferred destruction (context teardown).
    pub(crate) fn release_all(&mut self, device: &Device) {
        let mut locked = device.lock();
        for p in self.pools.drain(..) {
            locked.retire(Retired::QueryPool(p.raw));
        }
        self.free.clear();
        self.refs.clear();
        self.stock.clear();
    }
}

/// A new pool of `POOL_SIZE` queries of `kind` on the device in use.
fn create_raw(device: &Device, kind: SlotKind) -> GlResult<vk::QueryPool> {
    let (ty, statistics) = match kind {
        SlotKind::Occlusion => (
            vk::QueryType::OCCLUSION,
            vk::QueryPipelineStatisticFlags::empty(),
        ),
        SlotKind::Timestamp => (
            vk::QueryType::TIMESTAMP,
            vk::QueryPipelineStatisticFlags::empty(),
        ),
        SlotKind::Statistics => (
            vk::QueryType::PIPELINE_STATISTICS,
            crate::gl::objects::query::statistics::ALL,
        ),
        SlotKind::XfbStream(_) => (
            vk::QueryType::TRANSFORM_FEEDBACK_STREAM_EXT,
            vk::QueryPipelineStatisticFlags::empty(),
        ),
    };
    let info = vk::QueryPoolCreateInfo::default()
        .query_type(ty)
        .pipeline_statistics(statistics)
        .query_count(POOL_SIZE);
    // SAFETY: valid device; the create info lives across the call.
    unsafe { device.raw().create_query_pool(&info, None) }
        .map_err(|r| GlError::vulkan("vkCreateQueryPool", r))
}
