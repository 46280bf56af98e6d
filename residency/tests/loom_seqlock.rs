//! loom models of the telemetry seqlock (`residency/src/seqlock.rs`): under every interleaving
//! and every reordering the C++11 model allows of its relaxed accesses, a reader never accepts a
//! torn copy, never goes back in time, and sees the last publication once the writer is done.
//!
//! Run with `scripts/loom.sh` (or `RUSTFLAGS="--cfg loom" cargo test -p arenagl-residency --test
//! loom_seqlock --release`). Tiny sizes on purpose: three payload words and two or three
//! publications already cover "the reader overlaps a write", "the reader straddles two writes"
//! and "the writer laps the reader".
#![cfg(loom)]

use arenagl_residency::seqlock::{LoomMemory, SeqLock};
use loom::sync::atomic::AtomicU64;
use loom::sync::Arc;
use loom::thread;

const WORDS: usize = 3;

struct Shared {
    seq: AtomicU64,
    payload: [AtomicU64; WORDS],
}

impl Shared {
    fn new() -> Arc<Shared> {
        Arc::new(Shared {
            seq: AtomicU64::new(0),
            payload: [AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)],
        })
    }

    fn lock(&self) -> SeqLock<'_, LoomMemory> {
        SeqLock::new(&self.seq, &self.payload)
    }
}

/// Publication `v` (1-based): every word derived from `v`, so a mix of two is detectable.
fn publication(v: u64) -> [u64; WORDS] {
    [v, v * 10, v * 100]
}

/// An accepted copy must be exactly one publication, and the one its sequence says.
fn check(out: &[u64; WORDS], seq: u64) {
    let v = out[0];
    if v == 0 {
        assert_eq!(seq, 0, "initial words accepted at sequence {seq}");
        assert_eq!(out, &[0; WORDS], "torn copy of the initial state");
    } else {
        assert_eq!(out, &publication(v), "torn copy {out:?}");
        assert_eq!(seq, 2 * v, "copy {out:?} accepted at sequence {seq}");
    }
}

fn spawn_writer(shared: &Arc<Shared>, publications: u64) -> thread::JoinHandle<()> {
    let shared = Arc::clone(shared);
    thread::spawn(move || {
        for v in 1..=publications {
            shared.lock().write(&publication(v));
        }
    })
}

#[test]
fn a_reader_never_accepts_a_torn_copy() {
    loom::model(|| {
        let shared = Shared::new();
        let writer = spawn_writer(&shared, 2);
        let mut out = [0u64; WORDS];
        if let Some(seq) = shared.lock().read(&mut out, 2) {
            check(&out, seq);
        }
        writer.join().expect("writer");
        // Quiescent: the first attempt succeeds and sees the last publication.
        let seq = shared.lock().read(&mut out, 1).expect("quiescent read");
        assert_eq!((seq, out), (4, publication(2)));
    });
}

#[test]
fn successive_reads_never_go_back_in_time() {
    loom::model(|| {
        let shared = Shared::new();
        let writer = spawn_writer(&shared, 2);
        let lock = shared.lock();
        let mut out = [0u64; WORDS];
        let first = lock.read(&mut out, 1);
        if let Some(seq) = first {
            check(&out, seq);
        }
        if let Some(seq) = lock.read(&mut out, 1) {
            check(&out, seq);
            assert!(first.is_none_or(|earlier| seq >= earlier), "went back");
        }
        writer.join().expect("writer");
    });
}

#[test]
fn a_writer_that_died_mid_write_is_never_read_and_is_recovered() {
    loom::model(|| {
        let shared = Shared::new();
        // The previous writer stopped after W1 and half its payload.
        shared.seq.store(3, loom::sync::atomic::Ordering::Relaxed);
        shared.payload[0].store(7, loom::sync::atomic::Ordering::Relaxed);
        let mut out = [0u64; WORDS];
        assert_eq!(shared.lock().read(&mut out, 2), None);
        let writer = spawn_writer(&shared, 1);
        if let Some(seq) = shared.lock().read(&mut out, 2) {
            assert_eq!((seq, out), (6, publication(1)), "torn or stale copy");
        }
        writer.join().expect("writer");
    });
}
