//! A proptest state machine: random sequences of producer and consumer operations on a record
//! ring and a bulk ring, checked step by step against `VecDeque` models, with ring positions
//! starting anywhere (near `u64::MAX` included).
#![cfg(not(loom))]

use std::collections::VecDeque;
use std::sync::atomic::AtomicU64;

use arenagl_transport::{
    BulkConsumer, BulkProducer, Record, RecordConsumer, RecordProducer, Region, RingControl,
    RECORD_WORDS,
};
use proptest::prelude::*;

const RECORDS: u64 = 4;
const BULK: u64 = 256;

#[derive(Clone, Debug)]
enum Op {
    Push(u16, Vec<u64>),
    Pop,
    Write(usize),
    ReadRelease,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (any::<u16>(), prop::collection::vec(any::<u64>(), 0..=14))
            .prop_map(|(o, p)| Op::Push(o, p)),
        Just(Op::Pop),
        (0usize..=120).prop_map(Op::Write),
        Just(Op::ReadRelease),
    ]
}

/// The bulk ring's placement rule, stated independently: a chunk goes at `head` unless it
/// would cross the ring's end, then at the next multiple of the capacity; it fits iff its end
/// is within a ring of `tail`.
struct BulkModel {
    head: u64,
    tail: u64,
    chunks: VecDeque<(Vec<u8>, u64)>,
}

impl BulkModel {
    fn place(&self, len: usize) -> Option<(u64, u64)> {
        let total = 8 + (len as u64).div_ceil(8) * 8;
        let offset = self.head % BULK;
        let start = if offset + total > BULK {
            self.head.wrapping_add(BULK - offset)
        } else {
            self.head
        };
        let end = start.wrapping_add(total);
        (end.wrapping_sub(self.tail) <= BULK).then_some((start, end))
    }
}

fn run(start: u64, ops: Vec<Op>) -> Result<(), TestCaseError> {
    let ctrl = RingControl::new();
    ctrl.init(RECORDS, start).expect("init");
    let slots: Vec<AtomicU64> = (0..RECORDS as usize * RECORD_WORDS)
        .map(|_| AtomicU64::new(0))
        .collect();
    let (mut tx, mut rx) = (
        RecordProducer::new(&ctrl, &slots).expect("tx"),
        RecordConsumer::new(&ctrl, &slots).expect("rx"),
    );
    let bulk_start = start & !7;
    let bulk_ctrl = RingControl::new();
    bulk_ctrl.init(BULK, bulk_start).expect("init");
    let region = Region::heap(BULK as usize).expect("region");
    let data = region.bytes(0, BULK as usize).expect("bytes");
    // SAFETY: the region outlives both halves, is used by this ring only, one half each.
    let (mut btx, mut brx) = unsafe {
        (
            BulkProducer::new(&bulk_ctrl, data, BULK as usize).expect("btx"),
            BulkConsumer::new(&bulk_ctrl, data, BULK as usize).expect("brx"),
        )
    };
    let mut records = VecDeque::new();
    let mut bulk = BulkModel {
        head: bulk_start,
        tail: bulk_start,
        chunks: VecDeque::new(),
    };
    for (step, op) in ops.into_iter().enumerate() {
        match op {
            Op::Push(opcode, payload) => {
                let record = Record::new(opcode, step as u16, &payload).expect("fits");
                let pushed = tx.try_push(&record).expect("push");
                prop_assert_eq!(pushed, (records.len() as u64) < RECORDS);
                if pushed {
                    records.push_back(record);
                }
            }
            Op::Pop => prop_assert_eq!(rx.try_pop().expect("pop"), records.pop_front()),
            Op::Write(len) => {
                let bytes: Vec<u8> = (0..len).map(|i| (i + step) as u8).collect();
                let span = btx.try_write(&bytes).expect("write");
                let expected = bulk.place(len);
                prop_assert_eq!(span.map(|s| s.pos), expected.map(|(start, _)| start));
                if let Some((_, end)) = expected {
                    bulk.head = end;
                    bulk.chunks.push_back((bytes, end));
                }
            }
            Op::ReadRelease => {
                let span = brx.next_span().expect("next");
                prop_assert_eq!(span.is_some(), !bulk.chunks.is_empty());
                if let (Some(span), Some((bytes, end))) = (span, bulk.chunks.pop_front()) {
                    prop_assert_eq!(brx.read(span).expect("read"), bytes.as_slice());
                    brx.release(span).expect("release");
                    bulk.tail = end;
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn rings_behave_like_queues(
        start in prop_oneof![Just(0u64), Just(u64::MAX - 3), u64::MAX - 600..=u64::MAX, any::<u64>()],
        ops in prop::collection::vec(op(), 1..200),
    ) {
        run(start, ops)?;
    }
}
