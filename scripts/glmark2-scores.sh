#!/usr/bin/env bash
# glmark2 and glmark2-es2 scores for ArenaGL, Zink (Mesa's GL on Vulkan, here on lavapipe) and
# llvmpipe (Mesa's CPU GL), one after the other in one run, 800×600 windows under an Xvfb this
# script starts; writes a Markdown report (default docs/results/glmark2.md) with the command,
# the machine, every score and the ratios, and per-scene frame rates.
#
#   scripts/glmark2-scores.sh [--full] [--duration S] [--debug] [--out FILE]
#
# Scenes: glmark2's default benchmark set (the 33 scenes glmark2 2023.01 runs without -b, listed
# below). By default each runs S seconds (--duration, default 2) instead of glmark2's 10, so that
# the six runs take minutes, not most of an hour, on a 2-core machine; --full runs the default set
# exactly as glmark2 does (plain `glmark2 -s 800x600`, 10 s a scene). The score is glmark2's own
# (the mean of the scenes' frame rates), so shortening every scene alike keeps the comparison fair,
# though a short scene weighs its first (slower, pipeline-compiling) frames more.
# ArenaGL is the release build (--debug: the debug build) through `arenagl run` (glvnd's vendor
# selection, as scripts/clients.sh); Zink is MESA_LOADER_DRIVER_OVERRIDE=zink with
# LIBGL_ALWAYS_SOFTWARE=1 (the software swrast path that lets Zink run on lavapipe under Xvfb);
# llvmpipe is LIBGL_ALWAYS_SOFTWARE=1. Each run is limited to RUN_LIMIT seconds (default 900).
set -uo pipefail
cd "$(dirname "$0")/.."

profile=release
full=0
duration=2
out=docs/results/glmark2.md
while [ $# -gt 0 ]; do
    case "$1" in
    --full) full=1 ;;
    --duration) duration="$2"; shift ;;
    --debug) profile=debug ;;
    --out) out="$2"; shift ;;
    *) echo "usage: scripts/glmark2-scores.sh [--full] [--duration S] [--debug] [--out FILE]" >&2; exit 2 ;;
    esac
    shift
done
RUN_LIMIT=${RUN_LIMIT:-900}
invocation="scripts/glmark2-scores.sh${*:+ $*}"
start=$(date +%s)

target="${CARGO_TARGET_DIR:-target}"
cargo_flags=(-q -p arenagl)
[ "$profile" = release ] && cargo_flags+=(--release)
cargo build "${cargo_flags[@]}" || { echo "glmark2-scores.sh: build failed" >&2; exit 2; }
bin="$target/$profile/arenagl"
lib="$target/$profile/libarenagl.so"

# glmark2 2023.01's default benchmark set (src/default-benchmarks.h).
default_set=(
    build:use-vbo=false build:use-vbo=true
    texture:texture-filter=nearest texture:texture-filter=linear texture:texture-filter=mipmap
    shading:shading=gouraud shading:shading=blinn-phong-inf shading:shading=phong shading:shading=cel
    bump:bump-render=high-poly bump:bump-render=normals bump:bump-render=height
    "effect2d:kernel=0,1,0;1,-4,1;0,1,0;" "effect2d:kernel=1,1,1,1,1;1,1,1,1,1;1,1,1,1,1;"
    pulsar:light=false:quads=5:texture=false
    desktop:blur-radius=5:effect=blur:passes=1:separable=true:windows=4
    desktop:effect=shadow:windows=4
    buffer:columns=200:interleave=false:update-dispersion=0.9:update-fraction=0.5:update-method=map
    buffer:columns=200:interleave=false:update-dispersion=0.9:update-fraction=0.5:update-method=subdata
    buffer:columns=200:interleave=true:update-dispersion=0.9:update-fraction=0.5:update-method=map
    ideas:speed=duration jellyfish terrain shadow refract
    conditionals:fragment-steps=0:vertex-steps=0 conditionals:fragment-steps=5:vertex-steps=0
    conditionals:fragment-steps=0:vertex-steps=5
    function:fragment-complexity=low:fragment-steps=5 function:fragment-complexity=medium:fragment-steps=5
    loop:fragment-loop=false:fragment-steps=5:vertex-steps=5
    loop:fragment-steps=5:fragment-uniform=false:vertex-steps=5
    loop:fragment-steps=5:fragment-uniform=true:vertex-steps=5
)
scene_args=()
if [ "$full" = 0 ]; then
    for s in "${default_set[@]}"; do
        scene_args+=(-b "$s:duration=$duration")
    done
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/arenagl-glmark2.XXXXXX")
xvfb_pid=""
cleanup() {
    [ -n "$xvfb_pid" ] && kill -TERM "$xvfb_pid" 2>/dev/null && wait "$xvfb_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
for n in $(seq 260 360); do
    [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] && continue
    Xvfb ":$n" -screen 0 1024x768x24 -nolisten tcp >/dev/null 2>&1 &
    xvfb_pid=$!
    for _ in $(seq 100); do
        [ -e "/tmp/.X11-unix/X$n" ] && break
        kill -0 "$xvfb_pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$xvfb_pid" 2>/dev/null && [ -e "/tmp/.X11-unix/X$n" ]; then
        export DISPLAY=":$n"
        break
    fi
    xvfb_pid=""
done
[ -n "$xvfb_pid" ] || { echo "glmark2-scores.sh: could not start Xvfb" >&2; exit 2; }
unset WAYLAND_DISPLAY

impls=(arenagl zink llvmpipe)
programs=(glmark2 glmark2-es2)
# run IMPL PROGRAM — its output in $work/IMPL-PROGRAM.log.
run() {
    local impl=$1 program=$2 log="$work/$1-$2.log"
    local cmd=(nice -n 10 "$program" -s 800x600 "${scene_args[@]}")
    echo "glmark2-scores.sh: $impl $program ..." >&2
    case "$impl" in
    arenagl) timeout -s INT -k 10 "$RUN_LIMIT" env ARENAGL_TELEMETRY=0 "$bin" run --lib "$lib" -- "${cmd[@]}" >"$log" 2>&1 ;;
    zink) timeout -s INT -k 10 "$RUN_LIMIT" env MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1 "${cmd[@]}" >"$log" 2>&1 ;;
    llvmpipe) timeout -s INT -k 10 "$RUN_LIMIT" env LIBGL_ALWAYS_SOFTWARE=1 "${cmd[@]}" >"$log" 2>&1 ;;
    esac
    echo $? >"$work/$impl-$program.rc"
}
for program in "${programs[@]}"; do
    for impl in "${impls[@]}"; do
        run "$impl" "$program"
    done
done

score() { grep -m1 -oE 'glmark2 Score: [0-9]+' "$work/$1-$2.log" | grep -oE '[0-9]+$'; }
renderer() { grep -m1 'GL_RENDERER' "$work/$1-$2.log" | sed 's/.*GL_RENDERER: *//'; }
ratio() { if [ -n "$1" ] && [ -n "$2" ] && [ "$2" != 0 ]; then awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; else echo "–"; fi; }
# scene_fps IMPL PROGRAM — "scene<TAB>fps" lines, the duration option stripped from the scene.
scene_fps() {
    grep -E '^\[[a-z0-9]+\] .*: FPS: ' "$work/$1-$2.log" |
        sed -E 's/:duration=[0-9.]+//; s/ duration=[0-9.]+:([^ ])/ \1/; s/ duration=[0-9.]+: FPS/ <default>: FPS/' |
        sed -E 's/^(.*): FPS: ([0-9]+).*/\1\t\2/'
}

mode="the default set, $duration s a scene (glmark2 runs 10 s)"
[ "$full" = 1 ] && mode="the default set exactly as glmark2 runs it (10 s a scene)"
{
    echo "# glmark2 scores: ArenaGL vs Zink vs llvmpipe"
    echo
    echo "Written by \`$invocation\` on $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) CPU cores"
    echo "($(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')), no GPU: ArenaGL and Zink run on lavapipe,"
    echo "llvmpipe is Mesa's CPU GL. Xvfb 1024×768×24, windows 800×600 (\`-s 800x600\`), $mode."
    echo "ArenaGL: $profile build, \`arenagl run\`; Zink: \`MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1\`;"
    echo "llvmpipe: \`LIBGL_ALWAYS_SOFTWARE=1\`. Higher is better. The machine is shared with other work, so"
    echo "figures move by some percent between runs; the ratios are the point. Total time: @TOTAL@ s."
    echo
    echo "| program | ArenaGL | Zink | llvmpipe | ArenaGL / Zink | ArenaGL / llvmpipe |"
    echo "|---|---|---|---|---|---|"
    for program in "${programs[@]}"; do
        a=$(score arenagl "$program"); z=$(score zink "$program"); l=$(score llvmpipe "$program")
        echo "| \`$program\` | ${a:-no score (rc $(cat "$work/arenagl-$program.rc"))} | ${z:-no score} | ${l:-no score} | $(ratio "$a" "$z") | $(ratio "$a" "$l") |"
    done
    echo
    for program in "${programs[@]}"; do
        for impl in "${impls[@]}"; do
            failed=$(grep -E '^\[[a-z0-9]+\] .*: (Set up failed|Unsupported)' "$work/$impl-$program.log" |
                sed -E 's/:duration=[0-9.]+//; s/ duration=[0-9.]+:([^ ])/ \1/; s/ duration=[0-9.]+: / <default>: /' |
                sed -E 's/: (Set up failed|Unsupported).*/ (\1)/' | paste -sd ';' | sed 's/;/; /g')
            [ -n "$failed" ] && echo "- \`$program\` on $impl did not run: $failed (its score is the mean of the scenes that ran)."
        done
    done
    echo
    echo "Renderers: ArenaGL \"$(renderer arenagl glmark2)\", Zink \"$(renderer zink glmark2)\", llvmpipe \"$(renderer llvmpipe glmark2)\"."
    for program in "${programs[@]}"; do
        echo
        echo "## \`$program\`: frames per second by scene"
        echo
        echo "| scene | ArenaGL | Zink | llvmpipe |"
        echo "|---|---|---|---|"
        for impl in "${impls[@]}"; do scene_fps "$impl" "$program" >"$work/$impl-$program.fps"; done
        cut -f1 "$work/llvmpipe-$program.fps" "$work/arenagl-$program.fps" | awk '!seen[$0]++' | while IFS= read -r scene; do
            row="| \`$scene\`"
            for impl in "${impls[@]}"; do
                fps=$(awk -F'\t' -v s="$scene" '$1 == s { print $2; exit }' "$work/$impl-$program.fps")
                row="$row | ${fps:-–}"
            done
            echo "$row |"
        done
    done
} >"$work/report.md"
total=$(($(date +%s) - start))
mkdir -p "$(dirname "$out")"
sed "s/@TOTAL@/$total/" "$work/report.md" >"$out"
cat "$out"
