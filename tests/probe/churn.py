#!/usr/bin/env python3
"""Texture/framebuffer churn: resident memory of one GL implementation over many cycles.

Each cycle makes a SIZE x SIZE RGBA8 texture (with data when --data), a depth-stencil
renderbuffer and a framebuffer holding both, clears and reads one pixel back, builds the
texture's mipmaps, then deletes all three. Every eighth of the run prints the process's
resident set (VmRSS); a driver that frees what it is given back levels off.

    python3 tests/probe/churn.py --egl target/debug/libarenagl.so --cycles 2000
    EGL_PLATFORM=surfaceless LIBGL_ALWAYS_SOFTWARE=1 \\
        __EGL_VENDOR_LIBRARY_FILENAMES=/usr/share/glvnd/egl_vendor.d/50_mesa.json \\
        python3 tests/probe/churn.py --egl libEGL.so.1 --cycles 2000
"""

import argparse
import ctypes
import os
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import glapi as g  # noqa: E402
import hostile  # noqa: E402

CALLS = {
    "glGenTextures": "v:sp", "glBindTexture": "v:eu", "glTexImage2D": "v:eiissieep",
    "glDeleteTextures": "v:sp", "glGenerateMipmap": "v:e",
    "glGenRenderbuffers": "v:sp", "glBindRenderbuffer": "v:eu",
    "glRenderbufferStorage": "v:eess", "glDeleteRenderbuffers": "v:sp",
    "glGenFramebuffers": "v:sp", "glBindFramebuffer": "v:eu",
    "glFramebufferTexture2D": "v:eeeui", "glFramebufferRenderbuffer": "v:eeeu",
    "glDeleteFramebuffers": "v:sp", "glClearColor": "v:ffff", "glClear": "v:x",
    "glReadPixels": "v:iisseep", "glGetError": "e:",
}


def resident_mb():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) // 1024
    return -1


def one_cycle(gl, size, data, pixel, i):
    t, rb, fb = ctypes.c_uint32(), ctypes.c_uint32(), ctypes.c_uint32()
    gl["glGenTextures"](1, ctypes.byref(t))
    gl["glBindTexture"](0x0DE1, t.value)
    gl["glTexImage2D"](0x0DE1, 0, 0x8058, size, size, 0, 0x1908, 0x1401, data)
    gl["glGenerateMipmap"](0x0DE1)
    gl["glGenRenderbuffers"](1, ctypes.byref(rb))
    gl["glBindRenderbuffer"](0x8D41, rb.value)
    gl["glRenderbufferStorage"](0x8D41, 0x88F0, size, size)
    gl["glGenFramebuffers"](1, ctypes.byref(fb))
    gl["glBindFramebuffer"](0x8D40, fb.value)
    gl["glFramebufferTexture2D"](0x8D40, 0x8CE0, 0x0DE1, t.value, 0)
    gl["glFramebufferRenderbuffer"](0x8D40, 0x821A, 0x8D41, rb.value)
    gl["glClearColor"](i % 2, 0.0, 0.0, 1.0)
    gl["glClear"](0x4000 | 0x0100 | 0x0400)
    gl["glReadPixels"](0, 0, 1, 1, 0x1908, 0x1401, pixel)
    gl["glBindFramebuffer"](0x8D40, 0)
    gl["glDeleteFramebuffers"](1, ctypes.byref(fb))
    gl["glDeleteRenderbuffers"](1, ctypes.byref(rb))
    gl["glDeleteTextures"](1, ctypes.byref(t))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--egl", required=True, help="the libEGL to load (path or soname)")
    ap.add_argument("--cycles", type=int, default=2000)
    ap.add_argument("--size", type=int, default=512)
    ap.add_argument("--data", action="store_true", help="upload texels with every texture")
    args = ap.parse_args()
    driver = hostile.Driver(args.egl)
    if driver.make_context(False) is None:
        sys.exit("no 3.3 core context")
    gl = {name: g.prototype(sig)(driver.get_proc(name.encode())) for name, sig in CALLS.items()}
    n = args.size * args.size * 4
    data = (ctypes.c_uint8 * n)(*([7] * n)) if args.data else None
    pixel = (ctypes.c_uint8 * 4)()
    start, step = time.time(), max(1, args.cycles // 8)
    for i in range(args.cycles):
        one_cycle(gl, args.size, data, pixel, i)
        if (i + 1) % step == 0:
            print("%6d cycles  rss %4d MB  %6.1f s" % (i + 1, resident_mb(), time.time() - start),
                  flush=True)
    error = gl["glGetError"]()
    print("glGetError %#x, last pixel %s" % (error, list(pixel)))
    sys.exit(1 if error else 0)


if __name__ == "__main__":
    main()
