#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs `arenagl demo`: the Minecraft-like GL
# scene through ArenaGL's libarenagl.so (built beside the binary) on the first Vulkan device
# (lavapipe on a machine without a GPU). Extra arguments go to the demo, e.g. --frames 600, or
# --gl system to run it on Mesa llvmpipe instead. The memory-manager workload is `arenagl workload`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh demo
cargo run --release --locked --quiet -- demo "$@"
