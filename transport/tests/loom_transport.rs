//! loom models of the transport: the SPSC publish/consume protocol of a record ring, and the
//! doorbell's sleep/wake handshake (a lost wake-up shows up as a loom deadlock, since the
//! modelled futex has no timeout), and a close that wakes a sleeper.
//!
//! Run with `scripts/loom.sh` (or `RUSTFLAGS="--cfg loom" cargo test -p arenagl-transport
//! --test loom_transport --release`). Tiny sizes on purpose: a ring of two slots and three
//! records already covers "full", "empty" and "the producer laps the consumer".
#![cfg(loom)]

use arenagl_transport::doorbell::LoomFutex;
use arenagl_transport::{
    Doorbell, Record, RecordConsumer, RecordProducer, RingControl, SideLine, Signal,
    TransportError, RECORD_WORDS,
};
use loom::cell::UnsafeCell;
use loom::sync::atomic::AtomicU64;
use loom::sync::Arc;
use loom::thread;
use std::time::Duration;

const LONG: Duration = Duration::from_secs(3600);

struct Shared {
    ctrl: RingControl,
    slots: Vec<AtomicU64>,
    client: SideLine,
    server: SideLine,
    client_futex: Arc<LoomFutex>,
    server_futex: Arc<LoomFutex>,
}

impl Shared {
    fn new(capacity: u64) -> Arc<Self> {
        let ctrl = RingControl::new();
        ctrl.init(capacity, u64::MAX - 1).expect("init");
        Arc::new(Self {
            ctrl,
            slots: (0..capacity as usize * RECORD_WORDS)
                .map(|_| AtomicU64::new(0))
                .collect(),
            client: SideLine::new(),
            server: SideLine::new(),
            client_futex: Arc::new(LoomFutex::default()),
            server_futex: Arc::new(LoomFutex::default()),
        })
    }

    fn producer(&self) -> RecordProducer<'_> {
        RecordProducer::new(&self.ctrl, &self.slots).expect("producer")
    }

    fn consumer(&self) -> RecordConsumer<'_> {
        RecordConsumer::new(&self.ctrl, &self.slots).expect("consumer")
    }

    fn client_bell(&self) -> Doorbell<'_> {
        let signal = Signal::Loom {
            own: self.client_futex.clone(),
            peer: self.server_futex.clone(),
        };
        Doorbell::new(&self.client, &self.server, signal)
    }

    fn server_bell(&self) -> Doorbell<'_> {
        let signal = Signal::Loom {
            own: self.server_futex.clone(),
            peer: self.client_futex.clone(),
        };
        Doorbell::new(&self.server, &self.client, signal)
    }
}

fn record(i: u64) -> Record {
    Record::new(i as u16, 0, &[i * 10, i * 100]).expect("fits")
}

/// Plain (non-atomic) shadow data per slot, written by the producer between "space checked"
/// and "published" and read by the consumer between "available" and "released": loom reports
/// any shadow access not ordered by happens-before, so this checks both pairings of the
/// cursors (head Release/Acquire for the consumer's reads, tail Release/Acquire for the
/// producer's reuse) as if the slots were plain memory.
struct Shadow(Vec<UnsafeCell<u64>>);

// SAFETY: loom checks every access to the cells; sharing them is what the model is about.
unsafe impl Sync for Shadow {}

#[test]
fn spsc_publish_consume() {
    const CAPACITY: u64 = 2;
    loom::model(|| {
        let shared = Shared::new(CAPACITY);
        let shadow = Arc::new(Shadow((0..CAPACITY).map(|_| UnsafeCell::new(0)).collect()));
        let slot = |i: u64| ((i - 1) % CAPACITY) as usize;
        let producer = {
            let (shared, shadow) = (Arc::clone(&shared), Arc::clone(&shadow));
            thread::spawn(move || {
                let mut tx = shared.producer();
                for i in 1..=3 {
                    while !tx.has_space().expect("space") {
                        thread::yield_now();
                    }
                    // SAFETY: loom checks this write against the consumer's reads.
                    shadow.0[slot(i)].with_mut(|cell| unsafe { *cell = i });
                    assert!(tx.try_push(&record(i)).expect("push"));
                }
            })
        };
        let mut rx = shared.consumer();
        for i in 1..=3 {
            while rx.available().expect("available") == 0 {
                thread::yield_now();
            }
            // SAFETY: loom checks this read against the producer's writes.
            let seen = shadow.0[slot(i)].with(|cell| unsafe { *cell });
            assert_eq!(seen, i, "shadow data not published with the record");
            let got = rx.try_pop().expect("a published record is whole");
            assert_eq!(got, Some(record(i)), "stale or torn payload");
        }
        producer.join().expect("producer");
    });
}

#[test]
fn doorbell_never_loses_a_wake_up() {
    loom::model(|| {
        let shared = Shared::new(2);
        let producer = {
            let shared = Arc::clone(&shared);
            thread::spawn(move || {
                let (mut tx, bell) = (shared.producer(), shared.client_bell());
                for i in 1..=2 {
                    assert!(tx.try_push(&record(i)).expect("push"));
                    bell.ring().expect("ring");
                }
            })
        };
        let (mut rx, bell) = (shared.consumer(), shared.server_bell());
        for i in 1..=2 {
            bell.wait_until(LONG, || Ok(rx.available()? > 0))
                .expect("woken");
            assert_eq!(rx.try_pop().expect("pop"), Some(record(i)));
        }
        producer.join().expect("producer");
    });
}

#[test]
fn back_pressure_wakes_both_ways() {
    // A ring of one slot: the producer waits for space on its own bell, the consumer for data
    // on its own; each rings the other after publishing or releasing.
    loom::model(|| {
        let shared = Shared::new(1);
        let producer = {
            let shared = Arc::clone(&shared);
            thread::spawn(move || {
                let (mut tx, bell) = (shared.producer(), shared.client_bell());
                for i in 1..=2 {
                    bell.wait_until(LONG, || tx.has_space()).expect("space");
                    assert!(tx.try_push(&record(i)).expect("push"));
                    bell.ring().expect("ring");
                }
            })
        };
        let (mut rx, bell) = (shared.consumer(), shared.server_bell());
        for i in 1..=2 {
            bell.wait_until(LONG, || Ok(rx.available()? > 0))
                .expect("data");
            assert_eq!(rx.try_pop().expect("pop"), Some(record(i)));
            bell.ring().expect("ring");
        }
        producer.join().expect("producer");
    });
}

#[test]
fn close_wakes_a_sleeper_with_peer_gone() {
    loom::model(|| {
        let shared = Shared::new(2);
        let client = {
            let shared = Arc::clone(&shared);
            thread::spawn(move || shared.client_bell().close())
        };
        let (mut rx, bell) = (shared.consumer(), shared.server_bell());
        let outcome = bell.wait_until(LONG, || Ok(rx.available()? > 0));
        assert!(
            matches!(outcome, Err(TransportError::PeerGone)),
            "{outcome:?}"
        );
        client.join().expect("client");
    });
}
