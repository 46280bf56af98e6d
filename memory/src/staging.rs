//! The manager's side of staging: `arenagl-staging`'s pure per-frame arenas composed with real,
//! persistently mapped upload buffers owned by this manager, and the per-frame CPU scratch.
//!
//! Design decisions:
//! - Each arena block is an ordinary [`MemoryClass::Upload`] buffer created through the manager (so
//!   it is counted, held under the allocation-count cap and subject to the OOM ladder like
//!   everything else) and mapped for its whole life. The pure [`FrameArenas`] decides offsets, when
//!   a slot may be rewound (only after the epoch that last read it completed) and which blocks to
//!   give back; every submission is reported to it with `mark_submitted`.
//! - A block that the arena asks for is created *before* anything is written to it. Creating it
//!   may run the OOM ladder, which may submit the recording command buffer; if that happened, the
//!   bump is made again so that the slot is stamped by the submission that will really read it.
//! - Each use of a block stamps it like any other buffer (`use_buffer`), so retiring a block the
//!   arena no longer needs follows the ordinary epoch rule.
//! - `begin_frame` rewinds the current slot in place when the device has already finished with
//!   it (a program that waits for each frame: the next frame writes the same pages, and the
//!   other slot's are never touched). Otherwise it rotates to the next slot; if that slot is
//!   still being read it waits (bounded) for exactly the epoch that reads it — frame pacing —
//!   and otherwise keeps bumping in the current slot, which is always safe. CPU scratch
//!   (`bumpalo`) is reset with the slot.
//! - Loading (uploads with no frame and no draw in between) is bounded: `bound_staging`, called
//!   by the uploads before they stage, waits for the device and rewinds the current slot in
//!   place once [`LOAD_BOUND`] bytes are in it, if nothing but uploads (whose copies are recorded
//!   before they return) used it since its last rewind. A range `stage` hands out (a stream
//!   range, read by a command the client records later) blocks that until the next rewind at a
//!   frame or between GL calls. On host-memory devices every staging page written is resident.
//! - Without frames (a program that never swaps), `rewind_idle_staging` rewinds the current slot
//!   in place once everything in it is submitted and complete. Only the client knows when no
//!   staged range is still waiting for its command, so the client calls it, between GL calls.
//! - This file owns the manager's `staging` field (a [`StagingState`], opaque elsewhere) and
//!   reaches the rest of the manager only through its methods. The manager calls three hooks
//!   here: `staging_submitted` after every submission, `rotate_staging` at every `begin_frame`,
//!   `release_staging` when it is dropped; `recover.rs` calls `reset_staging` before it moves
//!   the objects to a re-opened device.

use std::collections::HashMap;
use std::num::{NonZeroU64, NonZeroUsize};
use std::ptr::NonNull;

use arenagl_staging::{
    ArenaConfig, BeginFrame, BlockId, CopyLimits, Epoch, FrameArenas, FrameScratch,
};
use ash::vk;

use crate::backend::Backend;
use crate::desc::{BufferDesc, Category, MemoryClass};
use crate::error::{MemoryError, Result};
use crate::manager::{BufferHandle, Manager};
use crate::stats::Stat;

/// The staging state of one manager (the manager's `staging` field, touched only here).
pub(crate) struct StagingState {
    arenas: FrameArenas,
    /// The upload buffer behind each arena block.
    blocks: HashMap<BlockId, BufferHandle>,
    scratch: FrameScratch,
    /// The reusable readback buffer and its size.
    readback: Option<(BufferHandle, u64)>,
    /// A range handed out by [`Manager::stage`] since the last rewind may still wait for the
    /// command that reads it: the current slot must not be rewound mid-call.
    streamed: bool,
}

impl StagingState {
    pub(crate) fn new(arena_size: u64, frame_slots: usize) -> Self {
        let slots = NonZeroUsize::new(frame_slots).unwrap_or(NonZeroUsize::MIN);
        Self {
            arenas: FrameArenas::new(ArenaConfig {
                frame_slots: slots,
                arena_size: NonZeroU64::new(arena_size).unwrap_or(NonZeroU64::MIN),
            }),
            blocks: HashMap::new(),
            scratch: FrameScratch::new(slots),
            readback: None,
            streamed: false,
        }
    }
}

/// Bytes reserved in the current frame's arena: where they live and where to write them. The
/// caller records its command from `buffer` and `offset`; the mapping stays private to this file
/// (`fill_staged` writes through it).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Staged {
    /// The upload buffer holding them.
    pub(crate) buffer: BufferHandle,
    /// Offset in that buffer.
    pub(crate) offset: u64,
    /// Mapped pointer to the first byte; valid for `len` bytes until the slot is rewound.
    ptr: NonNull<u8>,
    /// Number of bytes.
    len: u64,
    /// Whether writes need no flush.
    coherent: bool,
}

pub(crate) fn map_staging(e: arenagl_staging::StagingError) -> MemoryError {
    match e {
        arenagl_staging::StagingError::SourceTooSmall { needed, len } => {
            MemoryError::InvalidRequest(format!(
                "client data of {len} bytes, the transfer needs {needed}"
            ))
        }
        arenagl_staging::StagingError::DestinationTooSmall { needed, len } => {
            MemoryError::InvalidRequest(format!(
                "destination of {len} bytes, the transfer needs {needed}"
            ))
        }
        arenagl_staging::StagingError::Overflow => {
            MemoryError::InvalidRequest("transfer size overflows 64 bits".into())
        }
        arenagl_staging::StagingError::Internal(what) => MemoryError::Internal(what),
    }
}

/// The staging side of the memory report (`report.rs`).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct StagingFigures {
    pub(crate) arena_bytes: u64,
    pub(crate) arena_size: u64,
    pub(crate) peak_slot_bytes: u64,
    pub(crate) readback_bytes: u64,
    pub(crate) scratch_bytes: u64,
}

/// The most staging bytes a load (uploads and no draw) bumps in a slot before
/// [`Manager::bound_staging`] waits and rewinds it: the first pages of the arena are reused, the
/// rest is never touched (on host-memory devices, never resident).
pub(crate) const LOAD_BOUND: u64 = 4 << 20;

/// The smallest staging block asked for when a whole arena does not fit the budget.
pub(crate) const MIN_RETRY_BLOCK: u64 = 64 << 10;

impl<B: Backend> Manager<B> {
    /// The per-frame CPU scratch arena, reset at every `begin_frame`.
    pub fn scratch(&self) -> &bumpalo::Bump {
        self.staging.scratch.bump()
    }

    /// The staging copy alignment for texels of `texel_bytes` (1 for buffer copies).
    pub(crate) fn copy_alignment(&self, texel_bytes: u32) -> Result<NonZeroU64> {
        let limits = self.backend().limits();
        CopyLimits {
            optimal_buffer_copy_offset_alignment: limits.optimal_buffer_copy_offset_alignment,
            non_coherent_atom_size: limits.non_coherent_atom_size,
        }
        .copy_alignment(texel_bytes)
        .map_err(map_staging)
    }

    /// What the staging arenas, the readback buffer and the CPU scratch hold now.
    pub(crate) fn staging_figures(&self) -> StagingFigures {
        let arenas = &self.staging.arenas;
        StagingFigures {
            arena_bytes: arenas.stats().live_block_bytes,
            arena_size: arenas.config().arena_size.get(),
            peak_slot_bytes: arenas.stats().peak_slot_bytes,
            readback_bytes: self.staging.readback.map_or(0, |(_, size)| size),
            scratch_bytes: self.staging.scratch.reserved_bytes(),
        }
    }

    /// The configured arena size (the largest chunk one staging allocation should carry).
    pub(crate) fn arena_size(&self) -> NonZeroU64 {
        self.staging.arenas.config().arena_size
    }

    /// Sets the size of the arenas' blocks from the next rewind of each slot on (the pressure
    /// policy halves it at Warn and above and restores it below; `budget.rs`).
    pub(crate) fn resize_staging_arenas(&mut self, size: NonZeroU64) {
        if self.staging.arenas.config().arena_size != size {
            self.staging.arenas.set_arena_size(size);
        }
    }

    /// Reserves `len` bytes in the current frame's arena for a range the caller hands out (a
    /// stream range read by a later command): until the next rewind, [`Manager::bound_staging`]
    /// must not rewind the slot under it. See [`Manager::stage_copy`].
    pub(crate) fn stage(&mut self, len: u64, align: NonZeroU64) -> Result<Staged> {
        self.staging.streamed = true;
        self.stage_copy(len, align)
    }

    /// Reserves `len` bytes in the current frame's arena, creating a block if the arena asks, for
    /// a copy the caller records before it returns (uploads). A block refused for memory is
    /// asked for again at the smallest size that holds `len` (at least [`MIN_RETRY_BLOCK`])
    /// before the refusal reaches the caller.
    pub(crate) fn stage_copy(&mut self, len: u64, align: NonZeroU64) -> Result<Staged> {
        let before = self.submitted_epoch();
        let mut allocation = self
            .staging
            .arenas
            .allocate(len, align)
            .map_err(map_staging)?;
        if let Some(spec) = allocation.created {
            let desc = BufferDesc::new(
                spec.size,
                // Copies read blocks, and so do draws: `stream` hands out ranges that shaders
                // read as uniforms and the vertex stage reads as vertices and indices.
                vk::BufferUsageFlags::TRANSFER_SRC
                    | vk::BufferUsageFlags::UNIFORM_BUFFER
                    | vk::BufferUsageFlags::VERTEX_BUFFER
                    | vk::BufferUsageFlags::INDEX_BUFFER,
                MemoryClass::Upload,
                Category::Staging,
            )
            .named("staging arena block");
            let handle = match self.create_buffer(&desc) {
                Ok(h) => h,
                Err(e) => {
                    // No memory for the block: the arena must not keep handing out offsets
                    // in it (every later upload would fail on a block without a buffer).
                    self.staging.arenas.abandon(allocation.block);
                    // Under a tight budget a block just big enough may still fit where a
                    // whole arena does not: shrink the arena to it and try once more (the
                    // pressure policy sizes it again at the next update).
                    let smaller = len.max(MIN_RETRY_BLOCK).next_power_of_two();
                    if e.is_out_of_memory() && spec.size > smaller {
                        if let Some(size) = NonZeroU64::new(smaller) {
                            self.staging.arenas.set_arena_size(size);
                            return self.stage_copy(len, align);
                        }
                    }
                    return Err(e);
                }
            };
            self.staging.blocks.insert(allocation.block, handle);
            self.record_stat(Stat::StagingBlockCreated);
            if self.submitted_epoch() != before {
                // Creating the block submitted the recording: bump again so that the slot is
                // stamped by the submission that will actually read these bytes.
                allocation = self
                    .staging
                    .arenas
                    .allocate(len, align)
                    .map_err(map_staging)?;
            }
        }
        let buffer = *self
            .staging
            .blocks
            .get(&allocation.block)
            .ok_or(MemoryError::Internal("staging block without a buffer"))?;
        let mapping = self
            .buffer_host_mapping(buffer)?
            .ok_or(MemoryError::Internal("staging block is not mapped"))?;
        let end = allocation
            .offset
            .checked_add(allocation.len)
            .ok_or(MemoryError::Internal("staging range overflows"))?;
        if end > mapping.len as u64 {
            return Err(MemoryError::Internal("staging range outside its block"));
        }
        // SAFETY: `offset` lies inside the mapping (checked just above).
        let ptr = unsafe { mapping.ptr.add(allocation.offset as usize) };
        Ok(Staged {
            buffer,
            offset: allocation.offset,
            ptr,
            len: allocation.len,
            coherent: mapping.coherent,
        })
    }

    /// Gives `staged` bytes to `fill`, then flushes them if the memory is not coherent.
    pub(crate) fn fill_staged(
        &mut self,
        staged: &Staged,
        fill: impl FnOnce(&mut [u8]) -> Result<()>,
    ) -> Result<()> {
        // SAFETY: the arena handed out `offset..offset + len` of a live, mapped block for this
        // frame only: no pending submission reads it (its slot was rewound only after the last
        // reader completed) and no other staged range overlaps it. `&mut self` excludes any
        // other host access through the manager while the slice lives.
        let bytes =
            unsafe { std::slice::from_raw_parts_mut(staged.ptr.as_ptr(), staged.len as usize) };
        fill(bytes)?;
        if !staged.coherent {
            self.flush_buffer_range(staged.buffer, staged.offset, staged.len)?;
        }
        Ok(())
    }

    /// Hook: `Manager::submit_with` calls this after every successful submission, with its
    /// epoch, so that the arenas know which epoch reads what was staged since the last one (a
    /// slot is rewound only once that epoch completed).
    pub(crate) fn staging_submitted(&mut self, epoch: Epoch) {
        self.staging.arenas.mark_submitted(epoch);
    }

    /// Hook: `Manager::begin_frame` calls this after its drain and the pressure update, unless
    /// the device is lost. When the device has finished with the current slot, rewinds it in
    /// place; otherwise moves the arenas and the CPU scratch to the next frame slot, waiting
    /// (bounded) for the slot's last reader, or submitting what it staged if that was not
    /// submitted yet; on a timeout it keeps the current slot (see the module comment).
    pub(crate) fn rotate_staging(&mut self) -> Result<()> {
        // A frame boundary: every range handed out has its command by now.
        let completed = self.completed_epoch();
        if let Some(rewind) = self.staging.arenas.begin_frame_in_place(completed) {
            // The device is done with the current slot: the frame reuses the pages the last one
            // wrote (the other slot's are never touched while frames find it so).
            return self.started_staging_frame(rewind);
        }
        for _ in 0..3 {
            let completed = self.completed_epoch();
            match self.staging.arenas.begin_frame(completed) {
                BeginFrame::Rewound(rewind) => return self.started_staging_frame(rewind),
                BeginFrame::Busy { epoch, .. } => {
                    self.record_stat(Stat::StagingWait);
                    match self.wait_epoch(epoch) {
                        Ok(()) => {}
                        // Keep bumping in the current slot: always safe, only less tidy.
                        Err(MemoryError::Timeout(_)) => return Ok(()),
                        Err(e) => return Err(e),
                    }
                }
                BeginFrame::Unsubmitted { .. } => {
                    // Staged bytes are recorded but not submitted: submit them, then rotate.
                    self.submit()?;
                }
            }
        }
        Ok(())
    }

    /// A slot was rewound for a new frame: gives its retired blocks back and moves the CPU
    /// scratch to it.
    fn started_staging_frame(&mut self, rewind: arenagl_staging::Rewind) -> Result<()> {
        self.staging.streamed = false;
        for block in rewind.retired {
            if let Some(handle) = self.staging.blocks.remove(&block) {
                self.retire_buffer(handle)?;
            }
        }
        self.staging
            .scratch
            .begin_frame(rewind.slot)
            .map_err(map_staging)
    }

    /// Before an upload stages `incoming` bytes: when they would take the current slot past
    /// min(arena size, [`LOAD_BOUND`]), and every range staged in the slot is already recorded
    /// (only uploads used it since its last rewind), submits, waits (bounded) for the device and
    /// rewinds the slot in place, so the upload reuses the arena's first pages instead of
    /// bumping on or chaining an overflow block. Loading (many uploads and no frame) then
    /// touches at most that much staging memory, not as much as everything it uploads. A wait
    /// that times out leaves the slot as it is (the upload bumps on, as before). Returns whether
    /// the slot was rewound.
    pub(crate) fn bound_staging(&mut self, incoming: u64) -> Result<bool> {
        if self.staging.streamed || self.is_lost() {
            return Ok(false);
        }
        let used = self.slot_used();
        let bound = self.arena_size().get().min(LOAD_BOUND);
        if used == 0 || used.saturating_add(incoming) <= bound {
            return Ok(false);
        }
        let epoch = self.recording_epoch();
        match self.wait_epoch(epoch) {
            Ok(()) => {}
            Err(MemoryError::Timeout(_)) => return Ok(false),
            Err(e) => return Err(e),
        }
        let rewound = self.rewind_idle_staging()? > 0 || self.slot_used() == 0;
        if rewound {
            self.record_stat(Stat::StagingBound);
        }
        Ok(rewound)
    }

    /// Bytes bumped in the current slot since its last rewind.
    fn slot_used(&self) -> u64 {
        let arenas = &self.staging.arenas;
        let current = arenas.current_slot();
        arenas
            .blocks()
            .filter(|b| b.slot == current)
            .map(|b| b.used)
            .sum()
    }

    /// Between GL calls, with no frame boundary in sight: rewinds the current staging slot in
    /// place if the device has finished everything staged in it, giving its overflow blocks
    /// back (see [`arenagl_staging::FrameArenas::rewind_idle_current`]). Returns how many blocks
    /// were given back.
    ///
    /// A program that never swaps (offscreen rendering, conformance tests) otherwise chains an
    /// overflow block onto the one slot for every upload that does not fit, until the budget
    /// refuses. Call it only where no staged range handed out by this manager is still waiting
    /// for the command that reads it to be recorded: at the end of a GL call, never inside one.
    pub fn rewind_idle_staging(&mut self) -> Result<usize> {
        if self.is_lost() {
            // Every upload after a loss answers `DeviceLost`: staging can no longer grow.
            return Ok(0);
        }
        // Between GL calls (the caller's promise): no handed-out range waits for its command.
        self.staging.streamed = false;
        let completed = self.poll()?;
        let Some(rewind) = self.staging.arenas.rewind_idle_current(completed) else {
            return Ok(0);
        };
        let mut given_back = 0;
        for block in rewind.retired {
            if let Some(handle) = self.staging.blocks.remove(&block) {
                self.retire_buffer(handle)?;
                given_back += 1;
            }
        }
        self.record_stat(Stat::StagingIdleRewind);
        Ok(given_back)
    }

    /// Hook: a recovery (`recover.rs`) calls this before it moves the live objects to a
    /// re-opened device: retires every staging block and the readback buffer (as `Drop` does)
    /// and starts the arenas afresh, at their current size, on the new device.
    pub(crate) fn reset_staging(&mut self) {
        self.release_staging();
        let size = self.staging.arenas.config().arena_size.get();
        let slots = self.config().frame_slots;
        self.staging = StagingState::new(size, slots);
    }

    /// Hook: `Manager`'s `Drop` calls this once the device is idle, before it releases
    /// everything. Retires every staging block and the readback buffer.
    pub(crate) fn release_staging(&mut self) {
        let blocks: Vec<BufferHandle> = self.staging.blocks.drain().map(|(_, h)| h).collect();
        for handle in blocks {
            let _ = self.retire_buffer(handle);
        }
        if let Some((handle, _)) = self.staging.readback.take() {
            let _ = self.retire_buffer(handle);
        }
    }

    /// A host-visible readback buffer of at least `len` bytes, reused across readbacks (a
    /// readback always waits, so the buffer is idle again before the next one).
    pub(crate) fn readback_buffer(&mut self, len: u64) -> Result<BufferHandle> {
        if let Some((handle, size)) = self.staging.readback {
            if size >= len {
                return Ok(handle);
            }
            self.staging.readback = None;
            self.retire_buffer(handle)?;
        }
        // 1 MiB at least, so small reads reuse one buffer; under a budget too tight for that, just
        // what this read needs.
        let mut size = len.max(1 << 20).next_power_of_two();
        loop {
            let desc = BufferDesc::new(
                size,
                vk::BufferUsageFlags::TRANSFER_DST,
                MemoryClass::Readback,
                Category::Staging,
            )
            .named("readback buffer");
            match self.create_buffer(&desc) {
                Ok(handle) => {
                    self.staging.readback = Some((handle, size));
                    return Ok(handle);
                }
                Err(e) if e.is_out_of_memory() && size > len.max(MIN_RETRY_BLOCK) => {
                    size = len
                        .max(MIN_RETRY_BLOCK)
                        .next_power_of_two()
                        .min(size / 2)
                        .max(len);
                }
                Err(e) => return Err(e),
            }
        }
    }
}
