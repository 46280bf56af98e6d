#!/usr/bin/env bash
# Benchmarks the demo scene under ArenaGL and its peers (Zink on lavapipe,
# Mesa llvmpipe) and writes docs/results/peers-demo.md:
#   scripts/bench-peers.sh [FRAMES]          (default 600 frames; WARMUP_FRAMES=60 first)
#
# Method (compare like with like): the same `arenagl demo --gl <impl> --frames N` program, each
# implementation in its own process, all in this one run; each gets a fresh XDG_CACHE_HOME (no
# warm shader cache shared with another implementation or an earlier run), in which a warm-up run
# goes first and the measured run second. The demo prints, as its last line,
#   DEMO_RESULT gl=<name> frames=N mean_ms=<f> p50_ms=<f> p95_ms=<f> peak_rss_kib=<n>
# and GL_RENDERER from a line of its output containing "GL_RENDERER" (":" or "=" separated), if
# any. A run that fails is reported in its row as "failed: <last stderr line>"; the others still
# run. Ratios are implementation / ArenaGL (above 1: slower or more memory than ArenaGL).
#
# Test hook: ARENAGL_BENCH_FAKE=1 (or =fail-zink) replaces the demo with canned output to check
# the parsing and the table, and writes target/peers-demo-fake.md instead of the results file.
set -euo pipefail
cd "$(dirname "$0")/.."

frames="${1:-600}"
warmup="${WARMUP_FRAMES:-60}"
fake="${ARENAGL_BENCH_FAKE:-}"
out="docs/results/peers-demo.md"
[[ -n "$fake" ]] && out="target/peers-demo-fake.md"
command_line="scripts/bench-peers.sh $*"

# name shown | --gl value | extra environment (how each peer is selected)
impls=(
    "ArenaGL|arenagl|"
    "Zink on lavapipe|zink|MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1 EGL_PLATFORM=surfaceless"
    "llvmpipe|system|EGL_PLATFORM=surfaceless"
)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [[ -z "$fake" ]]; then
    scripts/deps.sh demo
    cargo build --release --locked --quiet
    target_dir="$(cargo metadata --format-version 1 --no-deps |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
    demo_bin="$target_dir/release/arenagl"
fi

# Canned demo output for the test hook.
fake_demo() { # gl frames
    local gl="$1" n="$2"
    if [[ "$fake" == "fail-$gl" ]]; then
        echo "error: could not create an EGL context for $gl (EGL_NOT_INITIALIZED)" >&2
        return 1
    fi
    case "$gl" in
    arenagl) echo "GL_RENDERER: ArenaGL (llvmpipe (LLVM 15.0.6, 256 bits))"; m=4.10 p=4.00 q=5.20 r=210000 ;;
    zink) echo "GL_RENDERER: zink Vulkan 1.3(llvmpipe (LLVM 15.0.6, 256 bits) (MESA_LLVMPIPE))"; m=6.15 p=6.00 q=8.10 r=260000 ;;
    *) echo "GL_RENDERER: llvmpipe (LLVM 15.0.6, 256 bits)"; m=5.02 p=4.90 q=6.00 r=190000 ;;
    esac
    echo "DEMO_RESULT gl=$gl frames=$n mean_ms=$m p50_ms=$p p95_ms=$q peak_rss_kib=$r"
}

run_demo() { # gl frames extra-env stdout stderr
    local gl="$1" n="$2" extra="$3"
    if [[ -n "$fake" ]]; then
        fake_demo "$gl" "$n" >"$4" 2>"$5"
    else
        # shellcheck disable=SC2086 # $extra is a list of VAR=value words
        env XDG_CACHE_HOME="$cache" $extra "$demo_bin" demo --gl "$gl" --frames "$n" >"$4" 2>"$5"
    fi
}

results="$work/results.tsv"
: >"$results"
for entry in "${impls[@]}"; do
    IFS='|' read -r name gl extra <<<"$entry"
    cache="$(mktemp -d "$work/cache-$gl.XXXX")"
    echo "bench-peers: $name: warm-up ($warmup frames), then $frames frames" >&2
    status=ok
    if ! run_demo "$gl" "$warmup" "$extra" "$work/$gl.warm.out" "$work/$gl.warm.err"; then
        status="failed (warm-up): $(grep -v '^\s*$' "$work/$gl.warm.err" | tail -n 1)"
    elif ! run_demo "$gl" "$frames" "$extra" "$work/$gl.out" "$work/$gl.err"; then
        status="failed: $(grep -v '^\s*$' "$work/$gl.err" | tail -n 1)"
    elif ! grep -q '^DEMO_RESULT ' "$work/$gl.out"; then
        status="failed: no DEMO_RESULT line; last stderr line: $(grep -v '^\s*$' "$work/$gl.err" | tail -n 1)"
    fi
    result="$( (grep '^DEMO_RESULT ' "$work/$gl.out" 2>/dev/null || true) | tail -n 1)"
    renderer="$( (cat "$work/$gl.out" "$work/$gl.err" "$work/$gl.warm.out" "$work/$gl.warm.err" \
        2>/dev/null || true) | sed -n 's/.*GL_RENDERER[:=][[:space:]]*//p' | head -n 1)"
    printf '%s\t%s\t%s\t%s\n' "$name" "${renderer:-?}" "$status" "$result" >>"$results"
done

cpu="$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -n 1)"
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [[ -n "$(git status --porcelain 2>/dev/null)" ]]; then commit="$commit (with uncommitted changes)"; fi

mkdir -p "$(dirname "$out")"
python3 - "$results" "$out" "$frames" "$warmup" "$(nproc)" "$cpu" "$(date -u +%Y-%m-%dT%H:%MZ)" \
    "$commit" "$command_line" <<'PY'
import sys

tsv, out, frames, warmup, nproc, cpu, date, commit, command = sys.argv[1:10]
rows = []
for line in open(tsv):
    name, renderer, status, result = (line.rstrip("\n").split("\t") + [""] * 4)[:4]
    fields = dict(kv.split("=", 1) for kv in result.split()[1:] if "=" in kv)
    try:
        values = {
            "mean": float(fields["mean_ms"]),
            "p50": float(fields["p50_ms"]),
            "p95": float(fields["p95_ms"]),
            "rss": int(fields["peak_rss_kib"]) / 1024,
        }
    except (KeyError, ValueError):
        values = None
        if status == "ok":
            status = f"failed: unparsable result line: {result!r}"
    rows.append((name, renderer, status, values))

base = next((v for n, _, s, v in rows if n == "ArenaGL" and s == "ok"), None)

def ratio(values, key):
    if base is None or values is None or base[key] == 0:
        return "n/a"
    return f"{values[key] / base[key]:.2f}×"

lines = [
    "# The demo scene: ArenaGL vs Zink on lavapipe vs llvmpipe",
    "",
    f"- machine: {nproc} CPUs, {cpu}",
    f"- date: {date}",
    f"- commit: {commit}",
    f"- command: `{command}` ({frames} measured frames after a {warmup}-frame warm-up, each",
    "  implementation in its own process with a fresh XDG_CACHE_HOME)",
    "",
    "Ratios are implementation / ArenaGL: above 1 is slower (frame time) or larger (RSS) than ArenaGL.",
    "",
    "| implementation | GL_RENDERER | mean ms | p50 ms | p95 ms | peak RSS MiB | mean ratio | p95 ratio | RSS ratio |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|",
]
for name, renderer, status, v in rows:
    renderer = renderer.replace("|", "\\|")
    if status != "ok" or v is None:
        lines.append(f"| {name} | {renderer} | {status.replace('|', '/')} | | | | | | |")
    else:
        lines.append(
            f"| {name} | {renderer} | {v['mean']:.2f} | {v['p50']:.2f} | {v['p95']:.2f} | "
            f"{v['rss']:.1f} | {ratio(v, 'mean')} | {ratio(v, 'p95')} | {ratio(v, 'rss')} |"
        )
open(out, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
echo "bench-peers: wrote $out" >&2
