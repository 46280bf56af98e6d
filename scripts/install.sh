#!/usr/bin/env bash
# Installs ArenaGL's C library under PREFIX (default /usr/local):
#   PREFIX/lib/libarenagl.so           the release cdylib
#   PREFIX/lib/libEGL.so.1, libEGL.so  symlinks to it, for programs that dlopen libEGL directly
#   PREFIX/share/glvnd/egl_vendor.d/50_arenagl.json   a glvnd EGL vendor file
# libGL.so.1 and libGLESv2.so.2 join the symlinks when the GL entry points exist.
#
# The vendor JSON is written for the layout glvnd expects, but glvnd only accepts a vendor that
# exports `__egl_Main` (its vendor interface), which ArenaGL does not have yet: until it does,
# glvnd skips this vendor and programs reach ArenaGL through the libEGL.so.1 symlink
# (e.g. LD_LIBRARY_PATH=PREFIX/lib).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${1:-/usr/local}"
mkdir -p "$prefix/lib" "$prefix/share/glvnd/egl_vendor.d"
prefix="$(cd "$prefix" && pwd)"

cargo build --release --locked -p arenagl --lib
target_dir="$(cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"

install -m 0755 "$target_dir/release/libarenagl.so" "$prefix/lib/libarenagl.so"
ln -sfn libarenagl.so "$prefix/lib/libEGL.so.1"
ln -sfn libarenagl.so "$prefix/lib/libEGL.so"
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s"}}\n' \
    "$prefix/lib/libarenagl.so" >"$prefix/share/glvnd/egl_vendor.d/50_arenagl.json"
echo "installed libarenagl.so, libEGL.so.1 and libEGL.so in $prefix/lib"
