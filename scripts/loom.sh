#!/usr/bin/env bash
# Runs the loom models: stress/tests/loom_retire.rs (the epoch retire/drain queue),
# residency/tests/loom_seqlock.rs (the telemetry seqlock) and transport/tests/loom_transport.rs
# (the split transport's SPSC ring and doorbell).
# They build with --cfg loom, which swaps the memory crate's atomics and mutexes for loom's
# (memory/src/sync.rs), so they get a target directory of their own and do not invalidate the
# normal build. LOOM_MAX_PREEMPTIONS bounds the interleavings explored; override it to go deeper.
set -euo pipefail
cd "$(dirname "$0")/.."
export RUSTFLAGS="--cfg loom"
export LOOM_MAX_PREEMPTIONS="${LOOM_MAX_PREEMPTIONS:-3}"
export CARGO_TARGET_DIR="${LOOM_TARGET_DIR:-target/loom}"
cargo test -p arenagl-stress --test loom_retire --release "$@"
# The telemetry seqlock (residency/src/seqlock.rs), modelled with loom's atomics and fences.
cargo test -p arenagl-residency --test loom_seqlock --release "$@"
# The split transport: SPSC publish/consume, the doorbell's sleep/wake handshake, close.
cargo test -p arenagl-transport --test loom_transport --release "$@"
