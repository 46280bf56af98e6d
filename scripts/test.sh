#!/usr/bin/env bash
# The test command: installs what is missing, then formatting, lints, every test (GPU tests on
# lavapipe with the validation layer on), and the loom models.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh test
export ARENAGL_VALIDATION=1
# Mesa and the validation layer cache under ~/.cache; keep runs independent.
XDG_CACHE_HOME="$(mktemp -d)"
export XDG_CACHE_HOME
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo test --workspace --locked
# Unmodified Debian X11 clients (glxinfo, eglinfo, glxgears, glmark2, GLFW windows through GLX and
# EGL, the ES clients) on ArenaGL beside Mesa, under an Xvfb of their own (~1 min).
scripts/clients.sh
# Each libFuzzer target (fuzz/), ArenaGL linked in, for 60 s from its committed corpus: nightly +
# ASan, ~12 min (the instrumented build is most of it).
scripts/fuzz.sh ci 60
scripts/loom.sh
echo "all tests passed"
