#!/usr/bin/env bash
# Runs tests/moderngl/render.py — a real, unmodified moderngl client from PyPI — against a chosen
# libEGL/libGL:
#   scripts/moderngl.sh arenagl [LIB]   ArenaGL: LIB (default: the debug libarenagl.so under
#                                       $CARGO_TARGET_DIR or target/) behind libEGL.so.1/libGL.so.1
#   scripts/moderngl.sh system          the system's glvnd libEGL → Mesa llvmpipe (the reference)
# The first run creates target/moderngl-venv with the pinned wheels below (needs PyPI); later runs
# reuse it. Exit status: render.py's (0 = the expected pixels came back; a crash inside the GL
# library shows as 128+signal, with Python's faulthandler traceback on stderr). Exit status 3
# means the venv could not be created because PyPI is unreachable — tests/moderngl.rs skips on
# that and only that; 4 means it failed although PyPI answers (a real error).
#
# How ArenaGL is put in front: glcontext dlopens the bare sonames that ctypes' find_library
# reports (libEGL.so.1, libGL.so.1), so a directory of symlinks first on LD_LIBRARY_PATH redirects
# it; GLCONTEXT_LINUX_LIBEGL/LIBGL name the same files so the choice does not depend on ldconfig.
set -euo pipefail
cd "$(dirname "$0")/.."

# Pinned: the versions docs/moderngl-needs.md was written from.
MODERNGL_VERSION=5.13.0
GLCONTEXT_VERSION=3.1.0

which="${1:-arenagl}"
venv="target/moderngl-venv"
stamp="$venv/.pinned-$MODERNGL_VERSION-$GLCONTEXT_VERSION"

if [[ ! -f "$stamp" ]]; then
    rm -rf "$venv"
    if ! python3 -m venv "$venv" ||
        ! "$venv/bin/python" -m pip install --quiet --only-binary :all: \
            "moderngl==$MODERNGL_VERSION" "glcontext==$GLCONTEXT_VERSION"; then
        rm -rf "$venv"
        if ! python3 -c 'import urllib.request as u; u.urlopen("https://pypi.org/simple/moderngl/", timeout=15)' \
            2>/dev/null; then
            echo "moderngl.sh: could not create $venv: PyPI is unreachable (no network)" >&2
            exit 3
        fi
        echo "moderngl.sh: could not create $venv although PyPI answers (see pip's error above)" >&2
        exit 4
    fi
    touch "$stamp"
fi

case "$which" in
system)
    # glvnd's libEGL picks Mesa; surfaceless so no X server is needed. glcontext's own device
    # platform path (eglQueryDevicesEXT) lands on Mesa's software device.
    export EGL_PLATFORM=surfaceless
    export GLCONTEXT_LINUX_LIBEGL=libEGL.so.1 GLCONTEXT_LINUX_LIBGL=libGL.so.1
    exec "$venv/bin/python" -X faulthandler tests/moderngl/render.py
    ;;
arenagl)
    lib="${2:-${CARGO_TARGET_DIR:-target}/debug/libarenagl.so}"
    if [[ ! -f "$lib" ]]; then
        echo "moderngl.sh: $lib not found (cargo build -p arenagl --lib)" >&2
        exit 2
    fi
    lib="$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")"
    dir="$(mktemp -d)"
    trap 'rm -rf "$dir"' EXIT
    for name in libEGL.so.1 libEGL.so libGL.so.1 libGL.so libGLESv2.so.2 libGLESv2.so; do
        ln -s "$lib" "$dir/$name"
    done
    export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export GLCONTEXT_LINUX_LIBEGL="$dir/libEGL.so.1" GLCONTEXT_LINUX_LIBGL="$dir/libGL.so.1"
    # Not exec: the trap removes the symlink directory afterwards.
    "$venv/bin/python" -X faulthandler tests/moderngl/render.py
    ;;
*)
    echo "usage: scripts/moderngl.sh [arenagl [LIB]|system]" >&2
    exit 2
    ;;
esac
