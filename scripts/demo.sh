#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs `arenagl demo` on the first Vulkan
# device (lavapipe on a machine without a GPU). Extra arguments go to the demo, e.g. --frames 600.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh demo
cargo run --release --locked --quiet -- demo "$@"
