//! Per-frame bump arenas: a pure state machine over abstract staging blocks.
//!
//! Design decisions:
//! - Frame slots (2 by default: each costs an arena of device-visible memory, and the target is
//!   memory-constrained phones). Each slot owns a chain of blocks: one **primary** block of the
//!   arena size, plus **overflow** blocks chained when a frame needs more. Allocation bumps
//!   first-fit through the chain, so the primary's tail is used before a new block is asked for.
//! - This crate owns no memory. Blocks are named by [`BlockId`]; when an allocation lands in a
//!   block that does not exist yet, [`Allocation::created`] tells the caller (`memory/`) to create
//!   it — one persistently mapped buffer of [`BlockSpec::size`] bytes — before writing. Primary
//!   blocks are created the same way, lazily, on a slot's first allocation.
//! - The epoch rule: every submission that may read staged data is reported
//!   with [`FrameArenas::mark_submitted`], which stamps every slot holding unsubmitted allocations
//!   with that epoch (it never rotates, so mid-frame submissions use it too). A slot is
//!   rewound by [`FrameArenas::begin_frame`] (the next slot) or
//!   [`FrameArenas::rewind_idle_current`] (the current one, in place, for programs that never
//!   end a frame), and only when it holds no unsubmitted allocation and its stamp is ≤ the
//!   completed epoch. Otherwise `begin_frame` changes nothing
//!   and answers [`BeginFrame::Busy`] (wait for that epoch, or keep recording in the current slot:
//!   its allocations simply bump on past the submitted ones, so nothing live is overwritten) or
//!   [`BeginFrame::Unsubmitted`].
//! - When a slot rewinds, its overflow blocks are handed back ([`Rewind::retired`]) with the
//!   epoch that last read them, which has completed: `memory/` may free them at once. The primary
//!   block is kept, so a steady load that fits in the arena requests zero new blocks after
//!   warm-up. [`FrameArenas::set_arena_size`] (staging shrink under pressure) takes
//!   effect per slot at its next rewind, by retiring a primary of the old size.
//! - Offsets are relative to the block's start and aligned to the caller's alignment (from
//!   [`crate::CopyLimits::copy_alignment`]), which may be any non-zero value (768 for RGB8).
//!   Offsets never wrap: overflow is [`StagingError::Overflow`].
//! - Uploads larger than an arena should be cut by [`crate::split`] first; an allocation larger
//!   than the arena still succeeds, in an overflow block of exactly its size.

use std::num::{NonZeroU64, NonZeroUsize};

use crate::align::align_up;
use crate::epoch::Epoch;
use crate::error::StagingError;

/// 16 MiB: the default arena size per frame slot.
pub const DEFAULT_ARENA_SIZE: u64 = 16 << 20;

/// Names a staging block; unique for the lifetime of a [`FrameArenas`], never reused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BlockId(pub u64);

/// Why a block exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlockKind {
    /// The slot's arena, kept across rewinds.
    Primary,
    /// Chained when the primary was full; retired when the slot rewinds.
    Overflow,
}

/// A block the caller must create before writing to an allocation in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BlockSpec {
    /// Size in bytes: the arena size, or the request if larger.
    pub size: u64,
    /// Primary or overflow.
    pub kind: BlockKind,
}

/// A live block, for reports and for freeing everything at shutdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BlockInfo {
    /// The block.
    pub id: BlockId,
    /// Its size and kind.
    pub spec: BlockSpec,
    /// The frame slot that owns it.
    pub slot: usize,
    /// Bytes bumped so far since the slot's last rewind (alignment padding included).
    pub used: u64,
}

/// Configuration of the arenas.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ArenaConfig {
    /// Number of frame slots (frames the CPU may record ahead of the device, plus one).
    pub frame_slots: NonZeroUsize,
    /// Size of each slot's primary block in bytes.
    pub arena_size: NonZeroU64,
}

impl Default for ArenaConfig {
    fn default() -> Self {
        Self {
            frame_slots: NonZeroUsize::MIN.saturating_add(1),
            arena_size: NonZeroU64::MIN.saturating_add(DEFAULT_ARENA_SIZE - 1),
        }
    }
}

/// A successful bump.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[must_use = "the caller must create `created` blocks before writing"]
pub struct Allocation {
    /// The block holding the bytes.
    pub block: BlockId,
    /// Offset of the bytes in the block, a multiple of the requested alignment.
    pub offset: u64,
    /// Number of bytes allocated.
    pub len: u64,
    /// `Some` when `block` is new: create it (this size and kind) before writing.
    pub created: Option<BlockSpec>,
}

/// The outcome of [`FrameArenas::begin_frame`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use = "a busy slot was not rewound; retired blocks must be freed"]
pub enum BeginFrame {
    /// The next slot was rewound and is now current.
    Rewound(Rewind),
    /// The next slot is still read by the device up to `epoch`; nothing changed. Wait for it and
    /// call again, or keep allocating in the current slot.
    Busy {
        /// The slot that could not be rewound.
        slot: usize,
        /// The epoch that must complete first.
        epoch: Epoch,
    },
    /// The next slot holds allocations that no [`FrameArenas::mark_submitted`] has covered yet
    /// (calls out of order, or a single slot still recording); nothing changed.
    Unsubmitted {
        /// The slot that could not be rewound.
        slot: usize,
    },
}

/// A slot that was rewound.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Rewind {
    /// The slot, now current.
    pub slot: usize,
    /// Blocks the slot no longer needs (its overflow blocks, and a primary of an outdated size).
    pub retired: Vec<BlockId>,
    /// The last epoch that read the slot since its previous rewind (already completed); `None`
    /// if no submission read it. Either way the retired blocks may be freed at once.
    pub retire_after: Option<Epoch>,
}

/// Counters, cheap enough to publish every frame (the telemetry page).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ArenaStats {
    /// Successful `begin_frame` calls.
    pub frames: u64,
    /// Bytes requested since the last successful `begin_frame`.
    pub frame_bytes: u64,
    /// Bytes requested in the previous frame.
    pub last_frame_bytes: u64,
    /// Largest number of bytes requested in one frame.
    pub peak_frame_bytes: u64,
    /// Largest number of bytes bumped in one slot between rewinds (alignment padding included).
    pub peak_slot_bytes: u64,
    /// Bytes requested since creation.
    pub total_bytes: u64,
    /// Allocations since creation.
    pub allocations: u64,
    /// Primary blocks requested.
    pub primary_blocks_created: u64,
    /// Overflow blocks requested.
    pub overflow_blocks_created: u64,
    /// Blocks handed back.
    pub blocks_retired: u64,
    /// Bytes of all live blocks.
    pub live_block_bytes: u64,
    /// `begin_frame` calls that found the next slot busy or unsubmitted.
    pub busy_begins: u64,
    /// Current slots rewound in place between frames ([`FrameArenas::rewind_idle_current`]).
    pub idle_rewinds: u64,
}

#[derive(Debug, Clone)]
struct Block {
    id: BlockId,
    spec: BlockSpec,
    used: u64,
}

#[derive(Debug, Clone, Default)]
struct Slot {
    blocks: Vec<Block>,
    /// Highest epoch reported to read this slot since its last rewind.
    last_reader: Option<Epoch>,
    /// Allocations made since the last `mark_submitted`.
    unsubmitted: bool,
    /// Bytes bumped since the last rewind.
    bumped: u64,
}

/// The per-frame bump arenas (see the module documentation for the rules).
#[derive(Debug, Clone)]
pub struct FrameArenas {
    config: ArenaConfig,
    slots: Vec<Slot>,
    current: usize,
    next_id: u64,
    stats: ArenaStats,
}

impl FrameArenas {
    /// Arenas with no block yet; slot 0 is current.
    pub fn new(config: ArenaConfig) -> Self {
        Self {
            config,
            slots: vec![Slot::default(); config.frame_slots.get()],
            current: 0,
            next_id: 0,
            stats: ArenaStats::default(),
        }
    }

    /// The configuration (with the latest arena size).
    pub const fn config(&self) -> ArenaConfig {
        self.config
    }

    /// The slot allocations go to.
    pub const fn current_slot(&self) -> usize {
        self.current
    }

    /// The counters.
    pub const fn stats(&self) -> &ArenaStats {
        &self.stats
    }

    /// Every live block.
    pub fn blocks(&self) -> impl Iterator<Item = BlockInfo> + '_ {
        self.slots.iter().enumerate().flat_map(|(slot, s)| {
            s.blocks.iter().map(move |b| BlockInfo {
                id: b.id,
                spec: b.spec,
                slot,
                used: b.used,
            })
        })
    }

    /// Changes the size of primary blocks. Each slot switches at its next rewind (its old
    /// primary is retired then and a new one requested on its next allocation).
    pub fn set_arena_size(&mut self, arena_size: NonZeroU64) {
        self.config.arena_size = arena_size;
    }

    /// Bumps `len` bytes aligned to `align` in the current slot: first-fit through the slot's
    /// blocks, else in a new block ([`Allocation::created`]). Offsets never wrap: a block where
    /// the aligned offset would pass `u64::MAX` simply does not fit.
    ///
    /// # Errors
    /// Only [`StagingError::Internal`], if the arenas' own state were inconsistent.
    pub fn allocate(&mut self, len: u64, align: NonZeroU64) -> Result<Allocation, StagingError> {
        let arena_size = self.config.arena_size.get();
        let slot = self
            .slots
            .get_mut(self.current)
            .ok_or(StagingError::Internal("current slot out of range"))?;

        let mut placed = None;
        for block in &mut slot.blocks {
            // An offset that would overflow simply does not fit in this block.
            let Some((offset, end)) = align_up(block.used, align)
                .ok()
                .and_then(|offset| Some((offset, offset.checked_add(len)?)))
                .filter(|&(_, end)| end <= block.spec.size)
            else {
                continue;
            };
            placed = Some((block.id, offset, end - block.used));
            block.used = end;
            break;
        }
        let (block, offset, bumped, created) = match placed {
            Some((id, offset, bumped)) => (id, offset, bumped, None),
            None => {
                let has_primary = slot
                    .blocks
                    .iter()
                    .any(|b| b.spec.kind == BlockKind::Primary);
                let spec = if !has_primary && len <= arena_size {
                    BlockSpec {
                        size: arena_size,
                        kind: BlockKind::Primary,
                    }
                } else {
                    BlockSpec {
                        size: len.max(arena_size),
                        kind: BlockKind::Overflow,
                    }
                };
                let id = BlockId(self.next_id);
                self.next_id += 1;
                // Primary first, so the chain is searched from the block that is kept.
                let at = match spec.kind {
                    BlockKind::Primary => 0,
                    BlockKind::Overflow => slot.blocks.len(),
                };
                slot.blocks.insert(
                    at,
                    Block {
                        id,
                        spec,
                        used: len,
                    },
                );
                match spec.kind {
                    BlockKind::Primary => self.stats.primary_blocks_created += 1,
                    BlockKind::Overflow => self.stats.overflow_blocks_created += 1,
                }
                self.stats.live_block_bytes = self.stats.live_block_bytes.saturating_add(spec.size);
                (id, 0, len, Some(spec))
            }
        };
        slot.unsubmitted = true;
        slot.bumped = slot.bumped.saturating_add(bumped);
        let stats = &mut self.stats;
        stats.allocations += 1;
        stats.frame_bytes = stats.frame_bytes.saturating_add(len);
        stats.total_bytes = stats.total_bytes.saturating_add(len);
        stats.peak_frame_bytes = stats.peak_frame_bytes.max(stats.frame_bytes);
        stats.peak_slot_bytes = stats.peak_slot_bytes.max(slot.bumped);
        Ok(Allocation {
            block,
            offset,
            len,
            created,
        })
    }

    /// Forgets `block`, just asked for through [`Allocation::created`], whose memory the caller
    /// could not get (out of memory, over budget): the next allocation asks for a block again
    /// instead of handing out offsets in one that does not exist. A block that is not there is
    /// ignored.
    pub fn abandon(&mut self, block: BlockId) {
        for slot in &mut self.slots {
            if let Some(i) = slot.blocks.iter().position(|b| b.id == block) {
                let removed = slot.blocks.remove(i);
                self.stats.live_block_bytes = self
                    .stats
                    .live_block_bytes
                    .saturating_sub(removed.spec.size);
                return;
            }
        }
    }

    /// Records that the submission signalling `epoch` may read everything allocated so far and not
    /// yet covered by an earlier submission. Call it for every submission (end of frame and
    /// mid-frame ones); it never rotates slots.
    pub fn mark_submitted(&mut self, epoch: Epoch) {
        for slot in self.slots.iter_mut().filter(|s| s.unsubmitted) {
            slot.last_reader = slot.last_reader.max(Some(epoch));
            slot.unsubmitted = false;
        }
    }

    /// Moves to the next frame slot, rewinding it if the device has finished with it
    /// (`completed` is the latest completed epoch). See [`BeginFrame`] for the outcomes.
    pub fn begin_frame(&mut self, completed: Epoch) -> BeginFrame {
        let n = self.slots.len();
        let target = (self.current + 1) % n;
        let arena_size = self.config.arena_size.get();
        let Some(slot) = self.slots.get_mut(target) else {
            return BeginFrame::Unsubmitted { slot: target };
        };
        if slot.unsubmitted {
            self.stats.busy_begins += 1;
            return BeginFrame::Unsubmitted { slot: target };
        }
        if let Some(epoch) = slot.last_reader.filter(|&e| e > completed) {
            self.stats.busy_begins += 1;
            return BeginFrame::Busy {
                slot: target,
                epoch,
            };
        }

        let rewind = rewind_slot(slot, target, arena_size, &mut self.stats);
        self.current = target;

        let stats = &mut self.stats;
        stats.frames += 1;
        stats.last_frame_bytes = stats.frame_bytes;
        stats.frame_bytes = 0;
        BeginFrame::Rewound(rewind)
    }

    /// Starts the next frame in the *current* slot, rewound in place, when the device has
    /// finished with everything in it (no allocation since the last
    /// [`FrameArenas::mark_submitted`], its last reader ≤ `completed`): the frame then reuses the
    /// pages the last one wrote instead of the next slot's. Counted as a frame like
    /// [`FrameArenas::begin_frame`]; `None` (nothing changed) when the slot is still in use —
    /// call `begin_frame` then.
    pub fn begin_frame_in_place(&mut self, completed: Epoch) -> Option<Rewind> {
        let arena_size = self.config.arena_size.get();
        let current = self.current;
        let slot = self.slots.get_mut(current)?;
        if slot.unsubmitted || slot.last_reader.is_some_and(|e| e > completed) {
            return None;
        }
        let rewind = rewind_slot(slot, current, arena_size, &mut self.stats);
        let stats = &mut self.stats;
        stats.frames += 1;
        stats.last_frame_bytes = stats.frame_bytes;
        stats.frame_bytes = 0;
        Some(rewind)
    }

    /// Rewinds the *current* slot in place when the device has finished with everything in it:
    /// no allocation since the last [`FrameArenas::mark_submitted`], and its last reader ≤
    /// `completed`. Its overflow blocks (and a primary of an outdated size) are handed back
    /// exactly as by [`FrameArenas::begin_frame`]; no frame is counted and the slot stays current.
    /// `None` (nothing changed) when the slot is still in use or has nothing to rewind.
    ///
    /// This is what bounds staging for a program that never ends a frame (no swap: offscreen
    /// rendering, conformance tests): without it the current slot chains overflow blocks for
    /// ever. The caller must hold no allocation from the slot whose command is not recorded yet
    /// — in `memory/`'s terms, call it only between GL calls, never inside one.
    pub fn rewind_idle_current(&mut self, completed: Epoch) -> Option<Rewind> {
        let arena_size = self.config.arena_size.get();
        let current = self.current;
        let slot = self.slots.get_mut(current)?;
        if slot.unsubmitted || slot.last_reader.is_some_and(|e| e > completed) {
            return None;
        }
        let outdated = |b: &Block| b.spec.kind != BlockKind::Primary || b.spec.size != arena_size;
        if slot.bumped == 0 && !slot.blocks.iter().any(outdated) {
            return None;
        }
        self.stats.idle_rewinds += 1;
        Some(rewind_slot(slot, current, arena_size, &mut self.stats))
    }
}

/// Rewinds `slot` (numbered `index`): keeps a primary of `arena_size` with nothing used and
/// hands back every other block. The caller has checked that the device is done with it.
fn rewind_slot(slot: &mut Slot, index: usize, arena_size: u64, stats: &mut ArenaStats) -> Rewind {
    let mut retired = Vec::new();
    slot.blocks.retain_mut(|b| {
        let keep = b.spec.kind == BlockKind::Primary && b.spec.size == arena_size;
        if keep {
            b.used = 0;
        } else {
            retired.push(b.id);
            stats.live_block_bytes = stats.live_block_bytes.saturating_sub(b.spec.size);
        }
        keep
    });
    stats.blocks_retired += retired.len() as u64;
    slot.bumped = 0;
    Rewind {
        slot: index,
        retired,
        retire_after: slot.last_reader.take(),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet};

    use proptest::prelude::*;

    use super::*;

    fn nz(v: u64) -> NonZeroU64 {
        NonZeroU64::new(v).unwrap_or(NonZeroU64::MIN)
    }

    fn config(slots: usize, arena_size: u64) -> ArenaConfig {
        ArenaConfig {
            frame_slots: NonZeroUsize::new(slots).unwrap_or(NonZeroUsize::MIN),
            arena_size: nz(arena_size),
        }
    }

    #[derive(Debug, Clone)]
    enum Op {
        Allocate {
            len: u64,
            align: u64,
        },
        /// Submit the recording command buffer: the next epoch.
        Submit,
        /// The device completes `n` more submitted epochs, then the next frame begins.
        BeginFrame {
            complete: u64,
        },
        /// Shrink or grow the arena.
        Resize {
            size: u64,
        },
        /// The device completes `n` more submitted epochs, then the current slot is rewound in
        /// place if it is idle (a program that never ends a frame).
        RewindIdle {
            complete: u64,
        },
    }

    fn op(arena_size: u64) -> impl Strategy<Value = Op> {
        prop_oneof![
            6 => (0..arena_size * 3 / 2, prop::sample::select(vec![1u64, 4, 256, 768, 1024]))
                .prop_map(|(len, align)| Op::Allocate { len, align }),
            2 => Just(Op::Submit),
            2 => (0u64..3).prop_map(|complete| Op::BeginFrame { complete }),
            1 => prop::sample::select(vec![arena_size / 2, arena_size, arena_size * 2])
                .prop_map(|size| Op::Resize { size }),
            2 => (0u64..3).prop_map(|complete| Op::RewindIdle { complete }),
        ]
    }

    /// What the test knows about one allocation.
    struct Live {
        block: BlockId,
        bytes: Range<u64>,
        slot: usize,
        /// Epoch of the submission that reads it; `None` until submitted.
        reader: Option<Epoch>,
    }

    use std::ops::Range;

    /// Runs `ops` against the arenas and a model of the device, checking after every step that
    /// offsets are aligned and inside their block, that no allocation overlaps a live one (one not
    /// yet known complete), that blocks are announced before use and never reused after
    /// retirement, and that a slot rewinds only when all of its allocations are complete.
    fn run_model(slots: usize, arena_size: u64, ops: &[Op]) -> Result<(), TestCaseError> {
        let mut arenas = FrameArenas::new(config(slots, arena_size));
        let mut blocks: HashMap<BlockId, u64> = HashMap::new();
        let mut retired: HashSet<BlockId> = HashSet::new();
        let mut live: Vec<Live> = Vec::new();
        let (mut submitted, mut completed) = (Epoch::ZERO, Epoch::ZERO);
        let mut current = 0usize;

        for op in ops {
            match *op {
                Op::Allocate { len, align } => {
                    let a = arenas.allocate(len, nz(align))?;
                    prop_assert_eq!(a.offset % align, 0, "unaligned offset");
                    prop_assert_eq!(a.len, len);
                    prop_assert!(!retired.contains(&a.block), "retired block reused");
                    match a.created {
                        Some(spec) => {
                            prop_assert!(
                                blocks.insert(a.block, spec.size).is_none(),
                                "block announced twice"
                            );
                            prop_assert_eq!(spec.size, len.max(arenas.config().arena_size.get()));
                        }
                        None => prop_assert!(
                            blocks.contains_key(&a.block),
                            "block used before creation"
                        ),
                    }
                    let size = blocks.get(&a.block).copied().unwrap_or(0);
                    prop_assert!(
                        a.offset + len <= size,
                        "allocation past the end of its block"
                    );
                    let bytes = a.offset..a.offset + len;
                    for l in &live {
                        let still_live = !matches!(l.reader, Some(e) if e <= completed);
                        let overlaps = bytes.start < l.bytes.end && l.bytes.start < bytes.end;
                        prop_assert!(
                            !(l.block == a.block
                                && still_live
                                && overlaps
                                && !bytes.is_empty()
                                && !l.bytes.is_empty()),
                            "{:?} overlaps live {:?} in {:?}",
                            bytes,
                            l.bytes,
                            a.block
                        );
                    }
                    live.push(Live {
                        block: a.block,
                        bytes,
                        slot: current,
                        reader: None,
                    });
                }
                Op::Submit => {
                    submitted = submitted.next();
                    arenas.mark_submitted(submitted);
                    for l in live.iter_mut().filter(|l| l.reader.is_none()) {
                        l.reader = Some(submitted);
                    }
                }
                Op::BeginFrame { complete } => {
                    completed = Epoch::new(completed.get() + complete).min(submitted);
                    let target = (current + 1) % slots;
                    match arenas.begin_frame(completed) {
                        BeginFrame::Rewound(rewind) => {
                            prop_assert_eq!(rewind.slot, target);
                            for l in live.iter().filter(|l| l.slot == target) {
                                prop_assert!(
                                    l.reader.is_some_and(|e| e <= completed),
                                    "slot {} rewound while {:?} is read by {:?}, completed {}",
                                    target,
                                    l.bytes,
                                    l.reader,
                                    completed
                                );
                            }
                            for id in &rewind.retired {
                                prop_assert!(
                                    blocks.remove(id).is_some(),
                                    "retired an unknown block"
                                );
                                retired.insert(*id);
                            }
                            prop_assert!(!matches!(rewind.retire_after, Some(e) if e > completed));
                            live.retain(|l| l.slot != target);
                            current = target;
                        }
                        BeginFrame::Busy { slot, epoch } => {
                            prop_assert_eq!(slot, target);
                            prop_assert!(epoch > completed);
                            prop_assert!(live
                                .iter()
                                .any(|l| l.slot == target && l.reader == Some(epoch)));
                        }
                        BeginFrame::Unsubmitted { slot } => {
                            prop_assert_eq!(slot, target);
                            prop_assert!(live
                                .iter()
                                .any(|l| l.slot == target && l.reader.is_none()));
                        }
                    }
                    prop_assert_eq!(arenas.current_slot(), current);
                }
                Op::Resize { size } => arenas.set_arena_size(nz(size)),
                Op::RewindIdle { complete } => {
                    completed = Epoch::new(completed.get() + complete).min(submitted);
                    let idle = live
                        .iter()
                        .filter(|l| l.slot == current)
                        .all(|l| l.reader.is_some_and(|e| e <= completed));
                    let outdated = arenas.blocks().any(|b| {
                        b.slot == current
                            && (b.spec.kind == BlockKind::Overflow
                                || b.spec.size != arenas.config().arena_size.get())
                    });
                    match arenas.rewind_idle_current(completed) {
                        Some(rewind) => {
                            prop_assert!(idle, "slot {} rewound in place while in use", current);
                            prop_assert_eq!(rewind.slot, current);
                            for id in &rewind.retired {
                                prop_assert!(
                                    blocks.remove(id).is_some(),
                                    "retired an unknown block"
                                );
                                retired.insert(*id);
                            }
                            prop_assert!(!matches!(rewind.retire_after, Some(e) if e > completed));
                            live.retain(|l| l.slot != current);
                        }
                        // Idle with something to give back is exactly when it must rewind:
                        // that is what keeps a program that never swaps bounded.
                        None => prop_assert!(!(idle && outdated), "an idle slot kept its overflow"),
                    }
                    prop_assert_eq!(arenas.current_slot(), current);
                }
            }
            // The arenas' own view of live blocks matches the model's.
            let theirs: HashSet<BlockId> = arenas.blocks().map(|b| b.id).collect();
            let ours: HashSet<BlockId> = blocks.keys().copied().collect();
            prop_assert_eq!(theirs, ours);
            let bytes: u64 = blocks.values().sum();
            prop_assert_eq!(arenas.stats().live_block_bytes, bytes);
        }
        Ok(())
    }

    #[test]
    fn an_idle_current_slot_gives_its_overflow_back_without_a_frame() {
        let mut arenas = FrameArenas::new(config(2, 1024));
        let one = nz(1);
        // A program that never ends a frame: upload, submit, wait, again and again.
        for n in 1..=50 {
            let epoch = Epoch::new(n);
            for _ in 0..3 {
                let _ = arenas.allocate(700, one).expect("allocate");
            }
            // Recorded but not submitted: nothing may be rewound.
            assert!(arenas
                .rewind_idle_current(epoch.saturating_sub(1))
                .is_none());
            arenas.mark_submitted(epoch);
            // Submitted but not complete: still nothing.
            assert!(arenas
                .rewind_idle_current(epoch.saturating_sub(1))
                .is_none());
            let rewind = arenas.rewind_idle_current(epoch).expect("idle slot");
            assert_eq!(rewind.slot, 0);
            assert_eq!(rewind.retired.len(), 2, "both overflow blocks go back");
            assert_eq!(arenas.blocks().count(), 1, "only the primary stays");
        }
        assert_eq!(arenas.current_slot(), 0);
        assert_eq!(arenas.stats().frames, 0);
        assert_eq!(arenas.stats().idle_rewinds, 50);
        assert_eq!(arenas.stats().live_block_bytes, 1024);
    }

    #[test]
    fn a_frame_starts_in_place_only_once_the_device_is_done_with_the_slot() {
        let mut arenas = FrameArenas::new(config(2, 1024));
        let one = nz(1);
        for n in 1..=10 {
            let epoch = Epoch::new(n);
            let _ = arenas.allocate(700, one).expect("allocate");
            assert!(
                arenas.begin_frame_in_place(epoch).is_none(),
                "not submitted"
            );
            arenas.mark_submitted(epoch);
            assert!(
                arenas
                    .begin_frame_in_place(epoch.saturating_sub(1))
                    .is_none(),
                "still read by the device"
            );
            let rewind = arenas.begin_frame_in_place(epoch).expect("idle slot");
            assert_eq!((rewind.slot, rewind.retire_after), (0, Some(epoch)));
        }
        // Every frame reused slot 0: the other slot never asked for a block.
        assert_eq!(arenas.current_slot(), 0);
        assert_eq!(arenas.stats().frames, 10);
        assert_eq!(arenas.stats().primary_blocks_created, 1);
        assert_eq!(arenas.stats().live_block_bytes, 1024);
    }

    #[test]
    fn an_abandoned_block_is_asked_for_again() {
        let mut arenas = FrameArenas::new(ArenaConfig {
            arena_size: NonZeroU64::new(1024).expect("non-zero"),
            frame_slots: NonZeroUsize::new(2).expect("non-zero"),
        });
        let one = NonZeroU64::new(1).expect("non-zero");
        let a = arenas.allocate(100, one).expect("allocate");
        assert!(a.created.is_some());
        arenas.abandon(a.block);
        assert_eq!(arenas.blocks().count(), 0);
        let b = arenas.allocate(100, one).expect("allocate");
        assert!(b.created.is_some(), "the block is requested again");
        assert_ne!(a.block, b.block);
        assert_eq!(arenas.stats().live_block_bytes, 1024);
    }

    proptest! {
        #[test]
        fn offsets_aligned_no_live_overlap_rewind_only_after_completion(
            slots in 1usize..4,
            ops in prop::collection::vec(op(4096), 1..120),
        ) {
            run_model(slots, 4096, &ops)?;
        }

        #[test]
        fn steady_state_requests_no_new_blocks_after_warmup(
            slots in 1usize..4,
            load in prop::collection::vec(
                (0u64..1500, prop::sample::select(vec![1u64, 4, 256, 768])),
                0..12,
            ),
            lag in prop::collection::vec(any::<bool>(), 40),
        ) {
            const ARENA: u64 = 16 << 10;
            // Keep the frame's worst case (every allocation fully padded) inside the arena.
            let worst: u64 = load.iter().map(|&(len, align)| len + align).sum();
            prop_assume!(worst <= ARENA);
            let mut arenas = FrameArenas::new(config(slots, ARENA));
            let mut epoch = Epoch::ZERO;
            let mut created_after_warmup = 0;
            for (frame, &late) in lag.iter().enumerate() {
                for &(len, align) in &load {
                    let a = arenas.allocate(len, nz(align))?;
                    if frame >= slots && a.created.is_some() {
                        created_after_warmup += 1;
                    }
                }
                epoch = epoch.next();
                arenas.mark_submitted(epoch);
                // The device keeps up, sometimes one frame late (then the CPU waits for it).
                let completed = if late { epoch.saturating_sub(slots as u64) } else { epoch };
                if let BeginFrame::Busy { epoch: wait, .. } = arenas.begin_frame(completed) {
                    prop_assert!(matches!(arenas.begin_frame(wait), BeginFrame::Rewound(_)));
                }
            }
            prop_assert_eq!(created_after_warmup, 0);
            prop_assert_eq!(arenas.stats().overflow_blocks_created, 0);
            prop_assert!(arenas.stats().primary_blocks_created <= slots as u64);
        }
    }

    #[test]
    fn overflow_chains_then_retires_on_rewind() -> Result<(), StagingError> {
        let mut arenas = FrameArenas::new(config(2, 1000));
        let a = arenas.allocate(600, nz(1))?;
        assert_eq!(
            a.created,
            Some(BlockSpec {
                size: 1000,
                kind: BlockKind::Primary
            })
        );
        let b = arenas.allocate(600, nz(1))?;
        assert_eq!(
            b.created,
            Some(BlockSpec {
                size: 1000,
                kind: BlockKind::Overflow
            })
        );
        // Larger than an arena: an overflow block of exactly its size.
        let c = arenas.allocate(5000, nz(1))?;
        assert_eq!(c.created.map(|s| s.size), Some(5000));
        // The primary's tail is still used first-fit.
        let d = arenas.allocate(300, nz(4))?;
        assert_eq!((d.block, d.offset, d.created), (a.block, 600, None));
        arenas.mark_submitted(Epoch::new(1));
        assert_eq!(arenas.stats().peak_frame_bytes, 6500);

        // Slot 1 is fresh; slot 0 comes round again only once epoch 1 completes.
        assert!(matches!(
            arenas.begin_frame(Epoch::ZERO),
            BeginFrame::Rewound(Rewind { slot: 1, .. })
        ));
        arenas.mark_submitted(Epoch::new(2)); // nothing allocated: slot 1 stays unstamped
        assert_eq!(
            arenas.begin_frame(Epoch::ZERO),
            BeginFrame::Busy {
                slot: 0,
                epoch: Epoch::new(1)
            }
        );
        assert_eq!(
            arenas.begin_frame(Epoch::new(1)),
            BeginFrame::Rewound(Rewind {
                slot: 0,
                retired: vec![b.block, c.block],
                retire_after: Some(Epoch::new(1)),
            })
        );
        let again = arenas.allocate(600, nz(1))?;
        assert_eq!(
            (again.block, again.offset, again.created),
            (a.block, 0, None)
        );
        assert_eq!(arenas.stats().live_block_bytes, 1000);
        Ok(())
    }

    #[test]
    fn unsubmitted_slot_is_never_rewound() -> Result<(), StagingError> {
        let mut arenas = FrameArenas::new(config(1, 1000));
        let _ = arenas.allocate(10, nz(1))?;
        assert_eq!(
            arenas.begin_frame(Epoch::MAX),
            BeginFrame::Unsubmitted { slot: 0 }
        );
        arenas.mark_submitted(Epoch::new(3));
        assert!(matches!(
            arenas.begin_frame(Epoch::new(3)),
            BeginFrame::Rewound(_)
        ));
        Ok(())
    }

    #[test]
    fn resize_retires_the_old_primary_at_rewind() -> Result<(), StagingError> {
        let mut arenas = FrameArenas::new(config(1, 1000));
        let old = arenas.allocate(10, nz(1))?;
        arenas.set_arena_size(nz(500));
        arenas.mark_submitted(Epoch::new(1));
        let BeginFrame::Rewound(rewind) = arenas.begin_frame(Epoch::new(1)) else {
            return Err(StagingError::Internal("expected a rewind"));
        };
        assert_eq!(rewind.retired, vec![old.block]);
        let new = arenas.allocate(10, nz(1))?;
        assert_eq!(
            new.created,
            Some(BlockSpec {
                size: 500,
                kind: BlockKind::Primary
            })
        );
        Ok(())
    }

    #[test]
    fn offsets_never_wrap() {
        let mut arenas = FrameArenas::new(config(1, 1000));
        assert_eq!(
            arenas
                .allocate(u64::MAX, nz(1))
                .map(|a| a.created.map(|s| s.size)),
            Ok(Some(u64::MAX))
        );
        assert_eq!(arenas.allocate(u64::MAX, nz(1)).map(|a| a.offset), Ok(0));
        let _ = arenas.allocate(1, nz(1));
        // The primary is now partly used; aligning its next offset to u64::MAX would wrap, so the
        // request goes to a new block at offset 0 instead.
        assert_eq!(
            arenas
                .allocate(1, nz(u64::MAX))
                .map(|a| (a.offset, a.created.map(|s| s.kind))),
            Ok((0, Some(BlockKind::Overflow)))
        );
    }
}
