#!/usr/bin/env bash
# Installs the Debian packages ArenaGL needs, if any are missing. Used by demo.sh and test.sh.
#   scripts/deps.sh demo   — the Vulkan loader and lavapipe (Mesa's CPU Vulkan driver)
#   scripts/deps.sh test   — the above plus the Khronos validation layer and spirv-val, and the GL
#                            peers tests/gl_scenes.rs compares against: glvnd's libEGL with Mesa's
#                            EGL (llvmpipe, and Zink on lavapipe) (`docs/bench.md`); Xvfb for the
#                            X11 window test; python3 + venv for the moderngl client (from PyPI);
#                            libxkbcommon0, which piglit's libwaffle links and nothing above pulls in
#                            (piglit itself is fetched by scripts/piglit.sh, not installed); the
#                            unmodified X11 clients scripts/clients.sh runs (mesa-utils: glxinfo,
#                            eglinfo, glxgears, es2gears_x11, es2gears_wayland; glmark2-x11,
#                            glmark2-es2-x11) and the Wayland ones with their compositor (weston,
#                            run headless; glmark2-wayland, glmark2-es2-wayland)
# Building needs a C++17 compiler (VMA, glslang): g++.
set -euo pipefail
want=(libvulkan1 mesa-vulkan-drivers g++)
if [ "${1:-test}" = test ]; then
  want+=(vulkan-validationlayers spirv-tools libegl1 libegl-mesa0 libgl1-mesa-dri libgl1 xvfb python3 python3-venv libxkbcommon0
    mesa-utils glmark2-x11 glmark2-es2-x11 weston glmark2-wayland glmark2-es2-wayland)
fi
missing=()
for pkg in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
command -v cargo >/dev/null || { echo "cargo not found: install Rust (https://rustup.rs)" >&2; exit 1; }
