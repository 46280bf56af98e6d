#!/usr/bin/env bash
# Traces every EGL/GL call render.py makes (docs/moderngl-needs.md was written from this):
#   tests/moderngl/trace/trace.sh [REAL_LIBEGL] > trace.txt
# REAL_LIBEGL defaults to the system's glvnd libEGL (Mesa); pass libarenagl.so to trace ArenaGL.
# MESA_GL_VERSION_OVERRIDE=3.3 makes llvmpipe report 3.3, so moderngl takes its GL 3.3 paths
# (the version ArenaGL reports). Needs cc and the GL/EGL headers (libgl-dev, libegl-dev).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../../.."
real="${1:-/usr/lib/x86_64-linux-gnu/libEGL.so.1}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$here/gen.py" /usr/include/GL/glcorearb.h >"$work/gltrace.c"
cc -shared -fPIC -O1 -w -I"$here" -o "$work/libEGL.so.1" "$work/gltrace.c" -ldl
ln -s libEGL.so.1 "$work/libGL.so.1"
[[ -x "$root/target/moderngl-venv/bin/python" ]] || "$root/scripts/moderngl.sh" system >/dev/null
GLTRACE_REAL_EGL="$real" MESA_GL_VERSION_OVERRIDE="${MESA_GL_VERSION_OVERRIDE:-3.3}" \
    EGL_PLATFORM=surfaceless LD_LIBRARY_PATH="$work" \
    GLCONTEXT_LINUX_LIBEGL="$work/libEGL.so.1" GLCONTEXT_LINUX_LIBGL="$work/libGL.so.1" \
    "$root/target/moderngl-venv/bin/python" -X faulthandler "$root/tests/moderngl/render.py" 2>&1
