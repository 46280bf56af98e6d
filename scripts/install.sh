#!/usr/bin/env bash
# Installs ArenaGL's C library under PREFIX (default /usr/local):
#   PREFIX/lib/libarenagl.so                 the release cdylib
#   PREFIX/lib/libEGL_arenagl.so.0           a symlink to it: the name glvnd's EGL loads vendors by
#   PREFIX/lib/libGLX_arenagl.so.0           a symlink to it: the name glvnd's libGLX loads for
#                                            __GLX_VENDOR_LIBRARY_NAME=arenagl
#   PREFIX/lib/libEGL.so.1, libEGL.so        symlinks to it, for programs that dlopen libEGL
#   PREFIX/lib/libGL.so.1, libGL.so          directly (glcontext/moderngl do) and look GL
#   PREFIX/lib/libGLESv2.so.2, libGLESv2.so  functions up in libGL/libGLESv2 or eglGetProcAddress
#   PREFIX/share/glvnd/egl_vendor.d/50_arenagl.json   the glvnd EGL vendor file
#
# Two ways in:
# - through the system's glvnd libEGL.so.1, which loads vendors from JSON files and calls their
#   `__egl_Main` (src/abi/glvnd.rs): __EGL_VENDOR_LIBRARY_FILENAMES=PREFIX/share/glvnd/egl_vendor.d/
#   50_arenagl.json selects ArenaGL alone; installed in a directory glvnd searches
#   (/usr/share/glvnd/egl_vendor.d) it joins the other vendors, ordered by file name; and the
#   system's glvnd libGL.so.1/libGLX.so.0 with __GLX_VENDOR_LIBRARY_NAME=arenagl and PREFIX/lib on
#   the library path (libGLX loads libGLX_<name>.so.0 and calls its `__glx_Main`,
#   src/abi/glx/glvnd.rs). This way leaves the system's libraries in place, which a Vulkan driver
#   that loads them itself (NVIDIA's) needs;
# - bypassing glvnd: LD_LIBRARY_PATH=PREFIX/lib puts the libEGL/libGL/libGLESv2 symlinks first
#   (this is what `arenagl run -- CMD` does with a private directory).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${1:-/usr/local}"
mkdir -p "$prefix/lib" "$prefix/share/glvnd/egl_vendor.d"
prefix="$(cd "$prefix" && pwd)"

cargo build --release --locked -p arenagl --lib
target_dir="$(cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"

install -m 0755 "$target_dir/release/libarenagl.so" "$prefix/lib/libarenagl.so"
for name in libEGL_arenagl.so.0 libGLX_arenagl.so.0 libEGL.so.1 libEGL.so libGL.so.1 libGL.so \
    libGLESv2.so.2 libGLESv2.so; do
    ln -sfn libarenagl.so "$prefix/lib/$name"
done
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s"}}\n' \
    "$prefix/lib/libEGL_arenagl.so.0" >"$prefix/share/glvnd/egl_vendor.d/50_arenagl.json"
echo "installed libarenagl.so and its libEGL_arenagl.so.0, libGLX_arenagl.so.0, libEGL, libGL and" \
    "libGLESv2 names" \
    "in $prefix/lib; glvnd vendor file $prefix/share/glvnd/egl_vendor.d/50_arenagl.json"
