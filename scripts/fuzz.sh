#!/usr/bin/env bash
# The libFuzzer targets in fuzz/ (gl_calls, glsl_sources, egl_attribs, pixel_buffers), with the validation layer
# on. Each target links the arenagl crate, built with the same instrumentation, so libFuzzer's
# coverage counts ArenaGL's own code (not only the targets' decoders).
#   scripts/fuzz.sh build                         the targets with the library in them (nightly + ASan)
#   scripts/fuzz.sh ci [SECONDS]                  each target SECONDS (default 60), one after another
#   scripts/fuzz.sh run TARGET SECONDS [ARGS…]    one target for longer (ARGS go to libFuzzer)
# The targets are built with the flags cargo-fuzz uses (libFuzzer's inline 8-bit counters and
# compare tracing, AddressSanitizer), straight through `cargo +nightly build`, so CI needs nightly
# only, not cargo-fuzz (`cargo +nightly fuzz run TARGET` works the same locally, see fuzz/README.md).
# Inputs: the committed seeds in fuzz/corpus/TARGET (read-only) plus what earlier runs found, kept
# in target/fuzz-corpus/TARGET; a finding is written to target/fuzz-artifacts/TARGET/ and fails the
# script. Variables: FUZZ_TOOLCHAIN (default nightly), ARENAGL_VALIDATION (default 1).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
toolchain=${FUZZ_TOOLCHAIN:-nightly}
triple=$(rustc -vV | sed -n 's/^host: //p')
targets=(gl_calls glsl_sources egl_attribs pixel_buffers)
export ARENAGL_VALIDATION=${ARENAGL_VALIDATION:-1}

# The toolchain the targets build with: nightly when it is installed (or can be), otherwise the
# default toolchain with RUSTC_BOOTSTRAP=1 (the sanitizer flags are nightly-only options; the
# x86_64 Linux std ships the ASan runtime either way). Machines that can fetch no toolchain
# still fuzz.
cargo_fuzz=(cargo "+$toolchain")
ensure_nightly() {
  if rustup run "$toolchain" rustc -V >/dev/null 2>&1; then
    return
  fi
  echo "fuzz: installing the $toolchain toolchain" >&2
  if rustup toolchain install "$toolchain" --profile minimal >&2; then
    return
  fi
  echo "fuzz: no $toolchain toolchain; building with $(rustc -V) and RUSTC_BOOTSTRAP=1" >&2
  export RUSTC_BOOTSTRAP=1
  cargo_fuzz=(cargo)
}

build() {
  ensure_nightly
  # The library is compiled into the targets (fuzz/target/), instrumented like them: the first
  # build compiles ArenaGL and its dependencies (glslang and VMA included) once more.
  local flags=(
    -Cpasses=sancov-module
    -Cllvm-args=-sanitizer-coverage-level=4
    -Cllvm-args=-sanitizer-coverage-inline-8bit-counters
    -Cllvm-args=-sanitizer-coverage-pc-table
    -Cllvm-args=-sanitizer-coverage-trace-compares
    --cfg fuzzing
    -Zsanitizer=address
    -Cdebug-assertions
    -Coverflow-checks
  )
  # A target of its own keeps the host build scripts (libfuzzer-sys compiles libFuzzer, glslang-sys
  # and vk-mem compile C++) free of the sanitizer, as cargo-fuzz does.
  RUSTFLAGS="${flags[*]}" "${cargo_fuzz[@]}" build --locked --release \
    --manifest-path fuzz/Cargo.toml --target "$triple" --bins
}

run_one() {
  local target=$1 seconds=$2
  shift 2
  local bin=$root/fuzz/target/$triple/release/$target
  [ -x "$bin" ] || { echo "fuzz: $bin is not built (scripts/fuzz.sh build)" >&2; exit 1; }
  local work=$root/target/fuzz-corpus/$target artifacts=$root/target/fuzz-artifacts/$target
  mkdir -p "$work" "$artifacts"
  local dict=()
  [ -f "$root/fuzz/dict/$target.dict" ] && dict=(-dict="$root/fuzz/dict/$target.dict")
  echo "fuzz: $target for ${seconds}s" >&2
  # DISPLAY unset: egl_attribs asks for window surfaces, which must fail without an X server.
  # No leak checks (-detect_leaks=0 while fuzzing, ASAN_OPTIONS at exit): lavapipe leaks, which
  # LeakSanitizer would call a crash.
  # A GL call may take up to 30 s before gl_calls' watchdog calls it a hang: glslang's first
  # compile of each GLSL version is several times slower under AddressSanitizer, more so on a
  # loaded machine (libFuzzer's own -timeout is 30 s as well).
  env -u DISPLAY ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" ARENAGL_FUZZ_HANG_S="${ARENAGL_FUZZ_HANG_S:-30}" "$bin" "$work" "$root/fuzz/corpus/$target" \
    "${dict[@]}" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=6144 -detect_leaks=0 \
    -artifact_prefix="$artifacts/" -print_final_stats=1 "$@"
}

case "${1:-}" in
  build) build ;;
  ci)
    seconds=${2:-60}
    start=$(date +%s)
    build
    built=$(date +%s)
    for t in "${targets[@]}"; do run_one "$t" "$seconds"; done
    echo "fuzz: build $((built - start))s, runs $(($(date +%s) - built))s, all targets clean" >&2
    ;;
  run)
    [ $# -ge 3 ] || { echo "usage: scripts/fuzz.sh run TARGET SECONDS [libFuzzer args…]" >&2; exit 2; }
    target=$2 seconds=$3
    shift 3
    run_one "$target" "$seconds" "$@"
    ;;
  *) echo "usage: scripts/fuzz.sh build | ci [SECONDS] | run TARGET SECONDS [ARGS…]" >&2; exit 2 ;;
esac
