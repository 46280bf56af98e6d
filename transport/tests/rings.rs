//! Unit tests of the rings over plain heap memory: wrap-around near `u64::MAX`, full and empty,
//! torn, stale and oversized records, hostile cursors, bulk padding and span checks.
#![cfg(not(loom))]

use std::sync::atomic::{AtomicU64, Ordering};

use arenagl_transport::{
    BulkConsumer, BulkProducer, Record, RecordConsumer, RecordProducer, Region, RingControl, Span,
    TransportError, MAX_PAYLOAD_WORDS, RECORD_WORDS,
};

struct Ring {
    ctrl: RingControl,
    slots: Vec<AtomicU64>,
}

impl Ring {
    fn new(capacity: u64, start: u64) -> Self {
        let ctrl = RingControl::new();
        ctrl.init(capacity, start).expect("power of two");
        let slots = (0..capacity as usize * RECORD_WORDS)
            .map(|_| AtomicU64::new(0))
            .collect();
        Self { ctrl, slots }
    }

    fn halves(&self) -> (RecordProducer<'_>, RecordConsumer<'_>) {
        (
            RecordProducer::new(&self.ctrl, &self.slots).expect("producer"),
            RecordConsumer::new(&self.ctrl, &self.slots).expect("consumer"),
        )
    }

    /// The slot word `word` of the record at ring position `pos`.
    fn word(&self, pos: u64, word: usize) -> &AtomicU64 {
        let capacity = self.slots.len() / RECORD_WORDS;
        &self.slots[(pos as usize & (capacity - 1)) * RECORD_WORDS + word]
    }
}

fn record(i: u64) -> Record {
    let len = (i % (MAX_PAYLOAD_WORDS as u64 + 1)) as usize;
    let payload: Vec<u64> = (0..len as u64)
        .map(|w| i.wrapping_mul(31).wrapping_add(w))
        .collect();
    Record::new((i % 1000) as u16, (i % 7) as u16, &payload).expect("fits")
}

#[test]
fn wraps_past_u64_max() {
    let start = u64::MAX - 5;
    let ring = Ring::new(4, start);
    let (mut tx, mut rx) = ring.halves();
    for i in 0..40 {
        assert!(tx.try_push(&record(i)).expect("push"));
        if i % 3 == 0 {
            assert!(tx.try_push(&record(1000 + i)).expect("push"));
            assert_eq!(rx.try_pop().expect("pop"), Some(record(i)));
            assert_eq!(rx.try_pop().expect("pop"), Some(record(1000 + i)));
        } else {
            assert_eq!(rx.try_pop().expect("pop"), Some(record(i)));
        }
    }
    assert_eq!(rx.try_pop().expect("pop"), None);
}

#[test]
fn full_and_empty() {
    let ring = Ring::new(8, 0);
    let (mut tx, mut rx) = ring.halves();
    assert_eq!(rx.try_pop().expect("empty"), None);
    for i in 0..8 {
        assert!(tx.try_push(&record(i)).expect("push"), "slot {i}");
    }
    assert!(
        !tx.try_push(&record(99)).expect("full"),
        "a full ring refuses, never overwrites"
    );
    assert_eq!(rx.try_pop().expect("pop"), Some(record(0)));
    assert!(tx.try_push(&record(8)).expect("push"));
    for i in 1..=8 {
        assert_eq!(rx.try_pop().expect("pop"), Some(record(i)));
    }
    assert_eq!(rx.try_pop().expect("empty"), None);
    assert_eq!(ring.ctrl.high_watermark(), 8);
}

#[test]
fn torn_record_is_reported_and_not_consumed() {
    let ring = Ring::new(4, 0);
    let (mut tx, mut rx) = ring.halves();
    tx.try_push(&record(5)).expect("push");
    ring.word(0, RECORD_WORDS - 1)
        .fetch_xor(1, Ordering::Relaxed);
    for _ in 0..2 {
        assert!(matches!(
            rx.try_pop(),
            Err(TransportError::TornRecord { pos: 0 })
        ));
    }
}

#[test]
fn torn_payload_length_is_reported() {
    // A header whose length was rewritten after the tail was computed (a torn write).
    let ring = Ring::new(4, 0);
    let (mut tx, mut rx) = ring.halves();
    tx.try_push(&record(3)).expect("push");
    ring.word(0, 0).fetch_xor(1 << 32, Ordering::Relaxed);
    assert!(matches!(
        rx.try_pop(),
        Err(TransportError::TornRecord { pos: 0 })
    ));
}

#[test]
fn record_from_an_older_lap_is_torn() {
    let ring = Ring::new(2, 0);
    let (mut tx, mut rx) = ring.halves();
    tx.try_push(&record(1)).expect("push");
    rx.try_pop().expect("pop");
    // A forged head that publishes slot 1 again at position 2 (slot 0), still holding lap 0.
    tx.try_push(&record(2)).expect("push");
    rx.try_pop().expect("pop");
    let stale_head = 3;
    ring.ctrl_head_store(stale_head);
    assert!(matches!(
        rx.try_pop(),
        Err(TransportError::TornRecord { pos: 2 })
    ));
}

trait Forge {
    fn ctrl_head_store(&self, head: u64);
}

impl Forge for Ring {
    /// What a hostile producer does: moves the shared head without writing slots. The head is
    /// the first word of the control block.
    fn ctrl_head_store(&self, head: u64) {
        let ptr = std::ptr::from_ref(&self.ctrl).cast::<AtomicU64>();
        // SAFETY: `RingControl` is `repr(C)` and starts with the producer line, whose first
        // field is the head, an `AtomicU64`; the reference is live.
        unsafe { (*ptr).store(head, Ordering::Release) };
    }
}

#[test]
fn hostile_head_is_corrupt_not_an_index() {
    let ring = Ring::new(4, 0);
    let (_tx, mut rx) = ring.halves();
    ring.ctrl_head_store(5);
    assert!(matches!(rx.try_pop(), Err(TransportError::Corrupt(_))));
}

#[test]
fn oversized_records_are_refused_and_detected() {
    let too_long = vec![0u64; MAX_PAYLOAD_WORDS + 1];
    assert!(matches!(
        Record::new(1, 0, &too_long),
        Err(TransportError::Oversize { pos: None, .. })
    ));
    let ring = Ring::new(4, 0);
    let (mut tx, mut rx) = ring.halves();
    tx.try_push(&record(MAX_PAYLOAD_WORDS as u64))
        .expect("push");
    // A header claiming 200 payload words: refused before any payload word is read.
    let header = ring.word(0, 0).load(Ordering::Relaxed);
    ring.word(0, 0)
        .store(header & !(0xFFFF << 32) | 200 << 32, Ordering::Relaxed);
    match rx.try_pop() {
        Err(TransportError::Oversize {
            pos: Some(0),
            words: 200,
            ..
        }) => {}
        other => panic!("expected oversize, got {other:?}"),
    }
}

#[test]
fn capacity_must_be_a_power_of_two() {
    assert!(RingControl::new().init(6, 0).is_err());
}

struct Bulk {
    ctrl: RingControl,
    region: Region,
}

impl Bulk {
    fn new(capacity: u64, start: u64) -> Self {
        let ctrl = RingControl::new();
        ctrl.init(capacity, start).expect("power of two");
        Self {
            ctrl,
            region: Region::heap(capacity as usize).expect("heap"),
        }
    }

    fn halves(&self) -> (BulkProducer<'_>, BulkConsumer<'_>) {
        let len = self.region.len();
        let data = self.region.bytes(0, len).expect("bytes");
        // SAFETY: the region outlives the halves, is page-aligned, used by this ring only, and
        // each half is created once.
        unsafe {
            (
                BulkProducer::new(&self.ctrl, data, len).expect("producer"),
                BulkConsumer::new(&self.ctrl, data, len).expect("consumer"),
            )
        }
    }
}

fn bytes(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u8).wrapping_mul(7).wrapping_add(seed))
        .collect()
}

#[test]
fn bulk_padding_skips_to_the_start() {
    // 8 bytes before the end of the ring and of the u64 range: the first chunk pads and wraps.
    let bulk = Bulk::new(256, u64::MAX - 7);
    let (mut tx, mut rx) = bulk.halves();
    assert_eq!(tx.max_chunk(), 120);
    let a = tx.try_write(&bytes(100, 1)).expect("write").expect("room");
    assert_eq!(a.pos, 0, "padded to the start, past u64::MAX");
    assert_eq!(
        rx.next_span().expect("next"),
        Some(a),
        "the reader skips the padding marker"
    );
    assert_eq!(rx.read(a).expect("read"), bytes(100, 1).as_slice());
    rx.release(a).expect("release");
    let b = tx.try_write(&bytes(120, 2)).expect("write").expect("room");
    assert_eq!(b.pos, 112);
    rx.release(b).expect("release");
    // Offset 240: 128 bytes do not fit the 16 left, so padding again.
    let c = tx.try_write(&bytes(120, 3)).expect("write").expect("room");
    assert_eq!(c.pos, 256);
    assert_eq!(
        rx.next_span().expect("next"),
        Some(c),
        "b was released, so the reader is past it"
    );
    assert_eq!(rx.read(c).expect("read"), bytes(120, 3).as_slice());
    rx.release(c).expect("release");
    assert_eq!(rx.next_span().expect("next"), None);
}

#[test]
fn bulk_start_must_be_aligned() {
    let bulk = Bulk::new(256, 3);
    let len = bulk.region.len();
    let data = bulk.region.bytes(0, len).expect("bytes");
    // SAFETY: as in `Bulk::halves`.
    assert!(unsafe { BulkProducer::new(&bulk.ctrl, data, len) }.is_err());
}

#[test]
fn bulk_full_and_oversize() {
    let bulk = Bulk::new(256, 0);
    let (mut tx, mut rx) = bulk.halves();
    assert!(matches!(
        tx.try_write(&[0; 121]),
        Err(TransportError::Oversize { pos: None, .. })
    ));
    let a = tx.try_write(&bytes(120, 0)).expect("write").expect("room");
    let b = tx.try_write(&bytes(100, 0)).expect("write").expect("room");
    assert_eq!(
        tx.try_write(&bytes(40, 0)).expect("full"),
        None,
        "never overwrites"
    );
    rx.release(a).expect("release");
    assert!(tx.try_write(&bytes(40, 0)).expect("write").is_some());
    rx.release(b).expect("release");
}

#[test]
fn bulk_spans_are_checked() {
    let bulk = Bulk::new(256, 0);
    let (mut tx, mut rx) = bulk.halves();
    let a = tx.try_write(&bytes(16, 0)).expect("write").expect("room");
    let bad = |rx: &mut BulkConsumer<'_>, span: Span| {
        matches!(rx.read(span), Err(TransportError::BadSpan { .. }))
    };
    assert!(
        bad(
            &mut rx,
            Span {
                seq: a.seq + 1,
                ..a
            }
        ),
        "wrong sequence"
    );
    assert!(bad(&mut rx, Span { len: 17, ..a }), "wrong length");
    assert!(
        bad(
            &mut rx,
            Span {
                pos: a.pos + 24,
                len: 8,
                seq: 1
            }
        ),
        "not committed"
    );
    assert!(
        bad(
            &mut rx,
            Span {
                pos: 250,
                len: 100,
                seq: 0
            }
        ),
        "crosses the end"
    );
    rx.release(a).expect("release");
    assert!(bad(&mut rx, a), "already released");
}
