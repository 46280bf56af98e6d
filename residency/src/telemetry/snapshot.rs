//! What one telemetry publication holds, and its fixed encoding as 64-bit words.
//!
//! Design decisions:
//! - Plain numbers only, `Copy`, no heap: the memory manager fills one on the stack every frame,
//!   and `arenagl` reads it from another process. No type from `memory/` appears here (that crate
//!   depends on this one, not the other way round); the manager maps its `MemoryStats` into it.
//! - The encoding is a flat array of [`SNAPSHOT_WORDS`] little-endian `u64`s in a fixed order
//!   (the table in `telemetry.rs`). Words, not bytes, because the seqlock copies atomic words.
//!   Decoding validates every enum code and flag and rejects the whole snapshot on a bad one:
//!   a reader of a newer or damaged page says so instead of showing garbage.
//! - Recent events are a ring of [`EVENT_CAPACITY`] slots plus a running count of events ever
//!   recorded, so a sampler that polls less often than events happen can tell which events it
//!   has not seen and how many it missed ([`EventRing::since`]).

use std::fmt;

use crate::category::{Category, CategoryMap};
use crate::pressure::Level;

/// Slots in the ring of recent events.
pub const EVENT_CAPACITY: usize = 16;

const COUNTER_WORDS: usize = 6;
const EVENT_WORDS: usize = 3;

/// Words in an encoded [`Snapshot`].
pub const SNAPSHOT_WORDS: usize = 3 // frame, timestamp, budget total
    + 3 * Category::COUNT // budget shares, live, peak
    + 4 // device-memory objects, clamp, vkAllocateMemory calls, pressure level
    + COUNTER_WORDS
    + 3 // epochs in flight, pending-release bytes, device lost
    + 1 // events recorded
    + EVENT_CAPACITY * EVENT_WORDS;

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// The pressure level changed to this one (`bytes`: usage then).
    Pressure(Level),
    /// A proactive (non-blocking) collection ran (`bytes`: released).
    ProactiveGc,
    /// A blocking collection ran (`bytes`: released).
    BlockingGc,
    /// Resources were evicted (`bytes`: freed).
    Eviction,
    /// Textures were demoted by dropping mip levels (`bytes`: freed).
    Demotion,
    /// An allocation was refused with out-of-memory (`bytes`: requested).
    Refusal,
    /// An allocation failed once and succeeded on the OOM ladder (`bytes`: requested).
    OomRecovery,
    /// The device was lost.
    DeviceLost,
    /// The device-memory object count passed 80 % of the allocation clamp (`bytes`: 0).
    ClampWarning,
    /// Demoted textures got their dropped mip levels back (`bytes`: re-allocated).
    Restoration,
    /// Dead textures' leftovers were pruned, the every-64-frames sweep at Critical (`bytes`:
    /// freed).
    Prune,
    /// Pipeline, descriptor and sampler caches were trimmed (`bytes`: objects destroyed).
    CacheTrim,
    /// The presenter's internal render scale changed (`bytes`: the new scale in percent).
    RenderScale,
}

impl EventKind {
    /// Every kind, in code order.
    pub const ALL: [EventKind; 16] = [
        EventKind::Pressure(Level::Normal),
        EventKind::Pressure(Level::Warn),
        EventKind::Pressure(Level::Critical),
        EventKind::Pressure(Level::Over),
        EventKind::ProactiveGc,
        EventKind::BlockingGc,
        EventKind::Eviction,
        EventKind::Demotion,
        EventKind::Refusal,
        EventKind::OomRecovery,
        EventKind::DeviceLost,
        EventKind::ClampWarning,
        EventKind::Restoration,
        EventKind::Prune,
        EventKind::CacheTrim,
        EventKind::RenderScale,
    ];

    /// The code stored in the page (1-based: 0 marks an empty ring slot).
    pub const fn code(self) -> u64 {
        match self {
            EventKind::Pressure(level) => 1 + level as u64,
            EventKind::ProactiveGc => 5,
            EventKind::BlockingGc => 6,
            EventKind::Eviction => 7,
            EventKind::Demotion => 8,
            EventKind::Refusal => 9,
            EventKind::OomRecovery => 10,
            EventKind::DeviceLost => 11,
            EventKind::ClampWarning => 12,
            EventKind::Restoration => 13,
            EventKind::Prune => 14,
            EventKind::CacheTrim => 15,
            EventKind::RenderScale => 16,
        }
    }

    /// The kind stored as `code`.
    pub fn from_code(code: u64) -> Option<EventKind> {
        EventKind::ALL.into_iter().find(|kind| kind.code() == code)
    }

    /// A short name for dashboards and recordings (`pressure-warn`, `proactive-gc`).
    pub const fn name(self) -> &'static str {
        match self {
            EventKind::Pressure(Level::Normal) => "pressure-normal",
            EventKind::Pressure(Level::Warn) => "pressure-warn",
            EventKind::Pressure(Level::Critical) => "pressure-critical",
            EventKind::Pressure(Level::Over) => "pressure-over",
            EventKind::ProactiveGc => "proactive-gc",
            EventKind::BlockingGc => "blocking-gc",
            EventKind::Eviction => "eviction",
            EventKind::Demotion => "demotion",
            EventKind::Refusal => "refusal",
            EventKind::OomRecovery => "oom-recovery",
            EventKind::DeviceLost => "device-lost",
            EventKind::ClampWarning => "clamp-warning",
            EventKind::Restoration => "restoration",
            EventKind::Prune => "prune",
            EventKind::CacheTrim => "cache-trim",
            EventKind::RenderScale => "render-scale",
        }
    }

    /// The kind called `name` ([`EventKind::name`]).
    pub fn from_name(name: &str) -> Option<EventKind> {
        EventKind::ALL.into_iter().find(|kind| kind.name() == name)
    }
}

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One recent event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Event {
    /// What happened.
    pub kind: EventKind,
    /// The frame it happened in.
    pub frame: u64,
    /// The bytes involved (see [`EventKind`]).
    pub bytes: u64,
}

/// The last [`EVENT_CAPACITY`] events and how many were ever recorded.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EventRing {
    recorded: u64,
    slots: [Option<Event>; EVENT_CAPACITY],
}

impl EventRing {
    /// Records `event`, overwriting the oldest once the ring is full.
    pub fn push(&mut self, event: Event) {
        self.slots[slot_of(self.recorded)] = Some(event);
        self.recorded = self.recorded.wrapping_add(1);
    }

    /// Events ever recorded (also the sequence number the next one gets).
    pub fn recorded(&self) -> u64 {
        self.recorded
    }

    /// The retained events, oldest first, with their sequence numbers.
    pub fn iter(&self) -> impl Iterator<Item = (u64, Event)> + '_ {
        self.since(0).1
    }

    /// The retained events with a sequence number of at least `seen` (events already seen are
    /// below it), oldest first, and how many events from `seen` on were overwritten before they
    /// could be read.
    pub fn since(&self, seen: u64) -> (u64, impl Iterator<Item = (u64, Event)> + '_) {
        let oldest_retained = self.recorded.saturating_sub(EVENT_CAPACITY as u64);
        let first = seen.max(oldest_retained).min(self.recorded);
        let lost = first.saturating_sub(seen);
        let events = (first..self.recorded)
            .filter_map(move |sequence| self.slots[slot_of(sequence)].map(|e| (sequence, e)));
        (lost, events)
    }
}

fn slot_of(sequence: u64) -> usize {
    (sequence % EVENT_CAPACITY as u64) as usize
}

/// Monotone counters of what the memory manager and the pressure policy did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counters {
    /// Proactive (non-blocking) collections.
    pub proactive_gcs: u64,
    /// Blocking collections (submit, wait, drain).
    pub blocking_gcs: u64,
    /// Resources evicted under pressure.
    pub evictions: u64,
    /// Textures demoted (mip levels dropped) under pressure.
    pub demotions: u64,
    /// Allocations refused with out-of-memory.
    pub refusals: u64,
    /// Allocations that failed once and succeeded on the OOM ladder.
    pub oom_recoveries: u64,
}

/// One publication: the memory manager's figures at the end of a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Snapshot {
    /// The frame number.
    pub frame: u64,
    /// When it was taken, nanoseconds since the Unix epoch ([`unix_time_ns`]).
    pub timestamp_ns: u64,
    /// The total budget.
    pub budget_bytes: u64,
    /// Each category's soft share of the budget (the rest is slack).
    pub budget_shares: CategoryMap<u64>,
    /// Bytes allocated per category now.
    pub live_bytes: CategoryMap<u64>,
    /// The most bytes each category ever held.
    pub peak_bytes: CategoryMap<u64>,
    /// `VkDeviceMemory` objects alive now.
    pub device_memory_objects: u64,
    /// The effective allocation-count clamp.
    pub allocation_clamp: u64,
    /// `vkAllocateMemory` calls so far.
    pub allocate_calls: u64,
    /// The pressure level.
    pub pressure: Level,
    /// What was done about memory so far.
    pub counters: Counters,
    /// Submitted epochs not yet known complete.
    pub epochs_in_flight: u64,
    /// Bytes retired and waiting for their epoch.
    pub pending_release_bytes: u64,
    /// Whether the device-lost latch is set.
    pub device_lost: bool,
    /// Recent events.
    pub events: EventRing,
}

impl Default for Snapshot {
    fn default() -> Self {
        Snapshot {
            frame: 0,
            timestamp_ns: 0,
            budget_bytes: 0,
            budget_shares: CategoryMap::default(),
            live_bytes: CategoryMap::default(),
            peak_bytes: CategoryMap::default(),
            device_memory_objects: 0,
            allocation_clamp: 0,
            allocate_calls: 0,
            pressure: Level::Normal,
            counters: Counters::default(),
            epochs_in_flight: 0,
            pending_release_bytes: 0,
            device_lost: false,
            events: EventRing::default(),
        }
    }
}

impl Snapshot {
    /// Live bytes over all categories (saturating).
    pub fn total_live_bytes(&self) -> u64 {
        self.live_bytes.total()
    }

    /// The budget not assigned to any category.
    pub fn slack_bytes(&self) -> u64 {
        self.budget_bytes.saturating_sub(self.budget_shares.total())
    }

    /// The fixed word encoding (little-endian words).
    pub fn encode(&self, words: &mut [u64; SNAPSHOT_WORDS]) {
        let written = self.encode_counted(words);
        debug_assert_eq!(written, SNAPSHOT_WORDS);
    }

    /// [`Snapshot::encode`], returning the number of words the layout wrote.
    fn encode_counted(&self, words: &mut [u64; SNAPSHOT_WORDS]) -> usize {
        let mut out = Encoder { words, at: 0 };
        out.put(self.frame);
        out.put(self.timestamp_ns);
        out.put(self.budget_bytes);
        for map in [&self.budget_shares, &self.live_bytes, &self.peak_bytes] {
            for &value in map.values() {
                out.put(value);
            }
        }
        out.put(self.device_memory_objects);
        out.put(self.allocation_clamp);
        out.put(self.allocate_calls);
        out.put(self.pressure as u64);
        let c = &self.counters;
        for value in [
            c.proactive_gcs,
            c.blocking_gcs,
            c.evictions,
            c.demotions,
            c.refusals,
            c.oom_recoveries,
        ] {
            out.put(value);
        }
        out.put(self.epochs_in_flight);
        out.put(self.pending_release_bytes);
        out.put(u64::from(self.device_lost));
        out.put(self.events.recorded);
        for slot in &self.events.slots {
            match slot {
                Some(event) => {
                    out.put(event.kind.code());
                    out.put(event.frame);
                    out.put(event.bytes);
                }
                None => {
                    for _ in 0..EVENT_WORDS {
                        out.put(0);
                    }
                }
            }
        }
        out.at
    }

    /// Decodes [`Snapshot::encode`]'s words; `None` when a code or flag is invalid.
    pub fn decode(words: &[u64; SNAPSHOT_WORDS]) -> Option<Snapshot> {
        let mut input = Decoder { words, at: 0 };
        let frame = input.get()?;
        let timestamp_ns = input.get()?;
        let budget_bytes = input.get()?;
        let budget_shares = input.map()?;
        let live_bytes = input.map()?;
        let peak_bytes = input.map()?;
        let device_memory_objects = input.get()?;
        let allocation_clamp = input.get()?;
        let allocate_calls = input.get()?;
        let pressure = *Level::ALL.get(usize::try_from(input.get()?).ok()?)?;
        let counters = Counters {
            proactive_gcs: input.get()?,
            blocking_gcs: input.get()?,
            evictions: input.get()?,
            demotions: input.get()?,
            refusals: input.get()?,
            oom_recoveries: input.get()?,
        };
        let epochs_in_flight = input.get()?;
        let pending_release_bytes = input.get()?;
        let device_lost = match input.get()? {
            0 => false,
            1 => true,
            _ => return None,
        };
        let mut events = EventRing {
            recorded: input.get()?,
            slots: [None; EVENT_CAPACITY],
        };
        for slot in &mut events.slots {
            let (code, frame, bytes) = (input.get()?, input.get()?, input.get()?);
            *slot = match code {
                0 => None,
                code => Some(Event {
                    kind: EventKind::from_code(code)?,
                    frame,
                    bytes,
                }),
            };
        }
        if input.at != SNAPSHOT_WORDS {
            return None;
        }
        Some(Snapshot {
            frame,
            timestamp_ns,
            budget_bytes,
            budget_shares,
            live_bytes,
            peak_bytes,
            device_memory_objects,
            allocation_clamp,
            allocate_calls,
            pressure,
            counters,
            epochs_in_flight,
            pending_release_bytes,
            device_lost,
            events,
        })
    }
}

/// Nanoseconds since the Unix epoch now (0 if the clock is before 1970), for
/// [`Snapshot::timestamp_ns`]. A vDSO call on Linux: no system call.
pub fn unix_time_ns() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

struct Encoder<'a> {
    words: &'a mut [u64; SNAPSHOT_WORDS],
    at: usize,
}

impl Encoder<'_> {
    fn put(&mut self, value: u64) {
        // The layout is fixed and tested to fill the array exactly; `get_mut` keeps a layout bug
        // from panicking in a frame loop.
        if let Some(word) = self.words.get_mut(self.at) {
            *word = value.to_le();
        }
        self.at += 1;
    }
}

struct Decoder<'a> {
    words: &'a [u64; SNAPSHOT_WORDS],
    at: usize,
}

impl Decoder<'_> {
    fn get(&mut self) -> Option<u64> {
        let word = self.words.get(self.at).copied().map(u64::from_le);
        self.at += 1;
        word
    }

    fn map(&mut self) -> Option<CategoryMap<u64>> {
        let mut values = [0u64; Category::COUNT];
        for value in &mut values {
            *value = self.get()?;
        }
        Some(CategoryMap::from_array(values))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(k: u64) -> Snapshot {
        let mut snapshot = Snapshot {
            frame: k,
            timestamp_ns: k * 7,
            budget_bytes: 1000 + k,
            budget_shares: CategoryMap::from_array([1, 2, 3, 4, 5]),
            live_bytes: CategoryMap::from_array([k, k + 1, k + 2, k + 3, k + 4]),
            peak_bytes: CategoryMap::from_array([k * 2; 5]),
            device_memory_objects: 17,
            allocation_clamp: 4096,
            allocate_calls: 99,
            pressure: Level::Critical,
            counters: Counters {
                proactive_gcs: 1,
                blocking_gcs: 2,
                evictions: 3,
                demotions: 4,
                refusals: 5,
                oom_recoveries: 6,
            },
            epochs_in_flight: 2,
            pending_release_bytes: 123,
            device_lost: true,
            events: EventRing::default(),
        };
        for i in 0..k {
            snapshot.events.push(Event {
                kind: EventKind::ALL[(i % 12) as usize],
                frame: i,
                bytes: i * 10,
            });
        }
        snapshot
    }

    #[test]
    fn layout_fills_the_words_exactly() {
        assert_eq!(SNAPSHOT_WORDS, 80);
        let mut words = [0u64; SNAPSHOT_WORDS];
        assert_eq!(sample(40).encode_counted(&mut words), SNAPSHOT_WORDS);
        assert_eq!(Snapshot::decode(&words), Some(sample(40)));
    }

    #[test]
    fn round_trips_with_a_partial_and_a_wrapped_ring() {
        for k in [0, 1, 5, 16, 17, 40] {
            let snapshot = sample(k);
            let mut words = [0u64; SNAPSHOT_WORDS];
            snapshot.encode(&mut words);
            assert_eq!(Snapshot::decode(&words), Some(snapshot), "k = {k}");
        }
    }

    #[test]
    fn invalid_codes_are_rejected() {
        let mut words = [0u64; SNAPSHOT_WORDS];
        sample(3).encode(&mut words);
        let mut bad_level = words;
        bad_level[3 + 3 * Category::COUNT + 3] = 9u64.to_le();
        assert_eq!(Snapshot::decode(&bad_level), None);
        let mut bad_flag = words;
        bad_flag[3 + 3 * Category::COUNT + 4 + COUNTER_WORDS + 2] = 2u64.to_le();
        assert_eq!(Snapshot::decode(&bad_flag), None);
        let mut bad_event = words;
        bad_event[SNAPSHOT_WORDS - EVENT_WORDS * EVENT_CAPACITY] = 99u64.to_le();
        assert_eq!(Snapshot::decode(&bad_event), None);
    }

    #[test]
    fn event_codes_and_names_round_trip() {
        for kind in EventKind::ALL {
            assert_eq!(EventKind::from_code(kind.code()), Some(kind));
            assert_eq!(EventKind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(EventKind::from_code(0), None);
    }

    #[test]
    fn ring_reports_unseen_and_lost_events() {
        let mut ring = EventRing::default();
        let event = |frame| Event {
            kind: EventKind::Eviction,
            frame,
            bytes: 0,
        };
        for frame in 0..20 {
            ring.push(event(frame));
        }
        assert_eq!(ring.recorded(), 20);
        let frames: Vec<u64> = ring.iter().map(|(_, e)| e.frame).collect();
        assert_eq!(frames, (4..20).collect::<Vec<_>>());
        // Seen up to 2: events 2 and 3 were overwritten.
        let (lost, unseen) = ring.since(2);
        assert_eq!(lost, 2);
        assert_eq!(unseen.count(), 16);
        let (lost, unseen) = ring.since(18);
        assert_eq!(lost, 0);
        assert_eq!(unseen.map(|(seq, _)| seq).collect::<Vec<_>>(), vec![18, 19]);
        let (lost, unseen) = ring.since(25);
        assert_eq!((lost, unseen.count()), (0, 0));
    }
}
