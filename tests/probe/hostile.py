#!/usr/bin/env python3
"""Hostile-argument probes: one GL implementation's errors, as JSON lines.

Loads one libEGL — ArenaGL's ``libarenagl.so`` by path, or the system's glvnd
``libEGL.so.1`` (Mesa llvmpipe when ``LIBGL_ALWAYS_SOFTWARE=1``) — opens the
surfaceless platform, and for every probe makes a fresh OpenGL context current on
a 32x32 pbuffer (3.3 core, or 3.3 compatibility for the legacy entry points), runs
the probe and prints one JSON line:

    {"probe": NAME, "family": FAMILY, "errors": [...], "calls": [...], "extra": {...},
     "checks": {...}}

``errors`` is the sequence of glGetError() results the probe recorded, in order
(``NO_ERROR``, ``INVALID_ENUM``, ...), and ``calls`` names the GL call each one
followed. A setup step that failed shows as ``setup:<error>``, an error still pending
after the probe as ``+<error>``, a GL function the library does not offer as
``MISSING:<name>``, a context that could not be made as ``CONTEXT_FAILED``.
``extra`` holds observations compared with the other implementation (say, a pixel
read back); keys starting with ``_`` are informational only. ``checks`` holds
requirements of the GL specification as ``[got, wanted]`` pairs (say, that a command
which failed wrote nothing through its pointers): ArenaGL must meet them, the
reference's failures are only reported.

Before each probe a ``{"start": NAME}`` line is printed and flushed, so that when
the library crashes or hangs, whoever reads the output knows in which probe.

The probes themselves live in ``probes.py``. By hand:

    LIBGL_ALWAYS_SOFTWARE=1 python3 tests/probe/hostile.py --egl libEGL.so.1
    python3 tests/probe/hostile.py --egl target/debug/libarenagl.so --only pbo_pack_address_offset
    python3 tests/probe/hostile.py --list

``compare.py`` runs this for both implementations and compares the results.
"""

import argparse
import ctypes
import json
import os
import sys

# No __pycache__ beside the probes in the source tree.
sys.dont_write_bytecode = True

import glapi as g  # noqa: E402
import probes  # noqa: E402


class Missing(Exception):
    """The library's eglGetProcAddress returned NULL for a GL function."""


class Driver:
    """One loaded libEGL: its surfaceless display, a config, a pbuffer, and fresh contexts."""

    def __init__(self, egl_path):
        self.lib = ctypes.CDLL(egl_path)
        self.get_proc = self.lib.eglGetProcAddress
        self.get_proc.restype = ctypes.c_void_p
        self.get_proc.argtypes = [ctypes.c_char_p]
        self.functions = {}
        self.egl = {name: self._resolve(name, sig) for name, sig in g.EGL_SIGNATURES.items()}
        self.dpy = self.egl["eglGetPlatformDisplayEXT"](g.EGL_PLATFORM_SURFACELESS_MESA, None, None)
        if not self.dpy:
            raise RuntimeError("no surfaceless EGL display")
        if not self.egl["eglInitialize"](self.dpy, None, None):
            raise RuntimeError("eglInitialize failed: %#x" % self.egl["eglGetError"]())
        if not self.egl["eglBindAPI"](g.EGL_OPENGL_API):
            raise RuntimeError("eglBindAPI(EGL_OPENGL_API) failed")
        self.config = self._choose_config()
        attribs = (ctypes.c_int32 * 5)(g.EGL_WIDTH, 32, g.EGL_HEIGHT, 32, g.EGL_NONE)
        self.surface = self.egl["eglCreatePbufferSurface"](self.dpy, self.config, attribs)
        if not self.surface:
            raise RuntimeError("eglCreatePbufferSurface failed: %#x" % self.egl["eglGetError"]())
        self.get_error = self.fn("glGetError")

    def _resolve(self, name, signature):
        address = self.get_proc(name.encode())
        if not address:
            address = ctypes.cast(getattr(self.lib, name, None), ctypes.c_void_p).value
        if not address:
            raise RuntimeError("%s not found" % name)
        return g.prototype(signature)(address)

    def _choose_config(self):
        """An RGBA8888 config with depth and stencil when there is one, else any GL pbuffer one."""
        wanted = [
            g.EGL_SURFACE_TYPE, g.EGL_PBUFFER_BIT,
            g.EGL_RENDERABLE_TYPE, g.EGL_OPENGL_BIT,
            g.EGL_RED_SIZE, 8, g.EGL_GREEN_SIZE, 8, g.EGL_BLUE_SIZE, 8, g.EGL_ALPHA_SIZE, 8,
            g.EGL_DEPTH_SIZE, 24, g.EGL_STENCIL_SIZE, 8,
            g.EGL_NONE,
        ]
        for attribs in (wanted, wanted[:4] + [g.EGL_NONE]):
            configs = (ctypes.c_void_p * 64)()
            count = ctypes.c_int32(0)
            arr = (ctypes.c_int32 * len(attribs))(*attribs)
            if not self.egl["eglChooseConfig"](self.dpy, arr, configs, 64, ctypes.byref(count)):
                continue
            for config in configs[: count.value]:
                sizes = [self._config_attrib(config, a) for a in
                         (g.EGL_RED_SIZE, g.EGL_GREEN_SIZE, g.EGL_BLUE_SIZE, g.EGL_ALPHA_SIZE)]
                if sizes == [8, 8, 8, 8]:
                    return config
            if count.value:
                return configs[0]
        raise RuntimeError("no EGL config with a pbuffer and OpenGL")

    def _config_attrib(self, config, attrib):
        value = ctypes.c_int32(0)
        self.egl["eglGetConfigAttrib"](self.dpy, config, attrib, ctypes.byref(value))
        return value.value

    def fn(self, name):
        """The GL function `name` with its ctypes prototype; Missing when the library lacks it."""
        if name not in self.functions:
            address = self.get_proc(name.encode())
            if not address:
                raise Missing(name)
            self.functions[name] = g.prototype(g.SIGNATURES[name])(address)
        return self.functions[name]

    def make_context(self, compat):
        """A fresh 3.3 context of the profile made current on the pbuffer, or None."""
        profile = (g.EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT if compat
                   else g.EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT)
        attribs = (ctypes.c_int32 * 7)(
            g.EGL_CONTEXT_MAJOR_VERSION, 3, g.EGL_CONTEXT_MINOR_VERSION, 3,
            g.EGL_CONTEXT_OPENGL_PROFILE_MASK, profile, g.EGL_NONE)
        ctx = self.egl["eglCreateContext"](self.dpy, self.config, None, attribs)
        if not ctx:
            return None
        if not self.egl["eglMakeCurrent"](self.dpy, self.surface, self.surface, ctx):
            self.egl["eglDestroyContext"](self.dpy, ctx)
            return None
        return ctx

    def release_context(self, ctx):
        self.egl["eglMakeCurrent"](self.dpy, None, None, None)
        self.egl["eglDestroyContext"](self.dpy, ctx)

    def diagnostic(self, symbol):
        """ArenaGL's diagnostic counters (absent from other libraries: None)."""
        counter = getattr(self.lib, symbol, None)
        if counter is None:
            return None
        counter.restype = ctypes.c_uint64
        counter.argtypes = []
        return counter()


def error_name(code):
    return g.ERROR_NAMES.get(code, "0x%04x" % code)


class Probe:
    """What a probe function receives: the GL functions as attributes (`t.glBindBuffer`), the
    recorders (`rec`, `e`, `ok`, `observe`, `note`) and small fixtures for the setup steps."""

    def __init__(self, driver):
        self.driver = driver
        self.errors = []
        self.calls = []  # what each entry of `errors` followed
        self.extra = {}
        self.checks = {}

    def __getattr__(self, name):
        if name.startswith("gl"):
            return self.driver.fn(name)
        raise AttributeError(name)

    # --- recording ------------------------------------------------------------------------

    def e(self, call="(the calls before)"):
        """Records glGetError() after a hostile call; returns the code."""
        code = self.driver.get_error()
        self.errors.append(error_name(code))
        self.calls.append(call)
        return code

    def rec(self, name, *args):
        """Calls the GL function `name`, records the error it set, returns its result."""
        result = self.driver.fn(name)(*args)
        self.e(name)
        return result

    def ok(self):
        """After setup steps: records `setup:<error>` only if they set an error."""
        code = self.driver.get_error()
        if code:
            self.errors.append("setup:" + error_name(code))
            self.calls.append("(setup)")
            self.drain("setup:")

    def drain(self, prefix):
        for _ in range(8):
            code = self.driver.get_error()
            if not code:
                return
            self.errors.append(prefix + error_name(code))
            self.calls.append("(pending)")

    def observe(self, key, value):
        """An observation compared between the implementations."""
        self.extra[key] = value

    def note(self, key, value):
        """Information only: shown, never compared."""
        self.extra["_" + key] = value

    def expect(self, key, got, want):
        """A requirement of the GL specification (say, that a command which failed wrote nothing
        through its pointers): checked for ArenaGL, merely reported for the reference."""
        self.checks[key] = [got, want]

    # --- fixtures -------------------------------------------------------------------------

    def gen(self, gen_name):
        """One new name from a glGen* function."""
        name = ctypes.c_uint32(0)
        self.driver.fn(gen_name)(1, ctypes.byref(name))
        return name.value

    def geti(self, pname):
        value = (ctypes.c_int32 * 16)()
        self.glGetIntegerv(pname, value)
        return value[0]

    def buffer(self, target, size, data=None, usage=g.GL_STATIC_DRAW):
        buf = self.gen("glGenBuffers")
        self.glBindBuffer(target, buf)
        self.glBufferData(target, size, data, usage)
        self.ok()
        return buf

    def buffer_param(self, target, pname):
        value = ctypes.c_int32(-7)
        self.glGetBufferParameteriv(target, pname, ctypes.byref(value))
        return value.value

    def read_buffer_bytes(self, target, offset, size):
        data = (ctypes.c_uint8 * size)()
        self.glGetBufferSubData(target, offset, size, data)
        return list(data)

    def texture(self, target=g.GL_TEXTURE_2D):
        tex = self.gen("glGenTextures")
        self.glBindTexture(target, tex)
        return tex

    def tex2d(self, w=4, h=4, internal=g.GL_RGBA8, fmt=g.GL_RGBA, typ=g.GL_UNSIGNED_BYTE,
              data=None):
        tex = self.texture()
        self.glTexImage2D(g.GL_TEXTURE_2D, 0, internal, w, h, 0, fmt, typ, data)
        self.glTexParameteri(g.GL_TEXTURE_2D, g.GL_TEXTURE_MIN_FILTER, g.GL_NEAREST)
        self.ok()
        return tex

    def fbo(self, w=4, h=4, internal=g.GL_RGBA8, fmt=g.GL_RGBA, typ=g.GL_UNSIGNED_BYTE):
        """A framebuffer with one texture colour attachment, bound to GL_FRAMEBUFFER."""
        tex = self.tex2d(w, h, internal, fmt, typ)
        fb = self.gen("glGenFramebuffers")
        self.glBindFramebuffer(g.GL_FRAMEBUFFER, fb)
        self.glFramebufferTexture2D(g.GL_FRAMEBUFFER, g.GL_COLOR_ATTACHMENT0, g.GL_TEXTURE_2D,
                                    tex, 0)
        self.ok()
        return fb, tex

    def renderbuffer(self, internal, w=4, h=4, samples=0):
        rb = self.gen("glGenRenderbuffers")
        self.glBindRenderbuffer(g.GL_RENDERBUFFER, rb)
        if samples:
            self.glRenderbufferStorageMultisample(g.GL_RENDERBUFFER, samples, internal, w, h)
        else:
            self.glRenderbufferStorage(g.GL_RENDERBUFFER, internal, w, h)
        self.ok()
        return rb

    def vao(self):
        vao = self.gen("glGenVertexArrays")
        self.glBindVertexArray(vao)
        self.ok()
        return vao

    def shader(self, kind, source):
        """Compiles `source`; returns (name, compiled?)."""
        shader = self.glCreateShader(kind)
        strings = (ctypes.c_char_p * 1)(source.encode())
        self.glShaderSource(shader, 1, strings, None)
        self.glCompileShader(shader)
        status = ctypes.c_int32(-1)
        self.glGetShaderiv(shader, g.GL_COMPILE_STATUS, ctypes.byref(status))
        return shader, status.value == 1

    def program(self, vs, fs, link=True):
        """A program from two shader sources; returns (name, linked?)."""
        prog = self.glCreateProgram()
        for kind, source in ((g.GL_VERTEX_SHADER, vs), (g.GL_FRAGMENT_SHADER, fs)):
            shader, _ = self.shader(kind, source)
            self.glAttachShader(prog, shader)
            self.glDeleteShader(shader)
        if not link:
            self.ok()
            return prog, False
        self.glLinkProgram(prog)
        status = ctypes.c_int32(-1)
        self.glGetProgramiv(prog, g.GL_LINK_STATUS, ctypes.byref(status))
        self.ok()
        return prog, status.value == 1

    def pixel(self, x=0, y=0):
        """The RGBA8 pixel at (x, y) of the read framebuffer."""
        data = (ctypes.c_uint8 * 4)()
        self.glReadPixels(x, y, 1, 1, g.GL_RGBA, g.GL_UNSIGNED_BYTE, data)
        return list(data)


def emit(record):
    sys.stdout.write(json.dumps(record, sort_keys=True) + "\n")
    sys.stdout.flush()


def string(driver, name):
    try:
        p = driver.fn("glGetString")(name)
    except Missing:
        return None
    return ctypes.string_at(p).decode("utf-8", "replace") if p else None


def describe(driver):
    """The implementation's strings, from a core and a compatibility context."""
    info = {}
    for compat in (False, True):
        ctx = driver.make_context(compat)
        key = "compat" if compat else "core"
        if ctx is None:
            info[key] = None
            continue
        info[key] = {
            "vendor": string(driver, g.GL_VENDOR),
            "renderer": string(driver, g.GL_RENDERER),
            "version": string(driver, g.GL_VERSION),
        }
        driver.get_error()
        driver.release_context(ctx)
    return info


def run_probe(driver, probe):
    """Runs one probe in a fresh context; returns its JSON record."""
    emit({"start": probe.name})
    t = Probe(driver)
    counters = ("arenagl_caught_panic_count", "arenagl_validation_error_count")
    before = [driver.diagnostic(c) for c in counters]
    ctx = driver.make_context(probe.compat)
    if ctx is None:
        t.errors.append("CONTEXT_FAILED")
        t.calls.append("eglCreateContext")
    else:
        t.drain("stale:")
        try:
            probe.fn(t)
        except Missing as missing:
            t.errors.append("MISSING:%s" % missing)
            t.calls.append(str(missing))
        except Exception as exc:  # a mistake in the probe or a ctypes refusal: recorded, shown
            t.errors.append("EXCEPTION:%s" % type(exc).__name__)
            t.calls.append("(python)")
            t.note("exception", repr(exc)[:300])
        t.drain("+")
        driver.release_context(ctx)
    panics, validation = [None if b is None or a is None else a - b
                          for b, a in zip(before, [driver.diagnostic(c) for c in counters])]
    if panics is not None:
        # A panic caught at the C boundary is always a library bug, whatever error it became.
        t.expect("no_caught_panic", panics == 0, True)
    if validation:
        t.note("validation_errors", validation)
    return {"probe": probe.name, "family": probe.family, "errors": t.errors, "calls": t.calls,
            "extra": t.extra, "checks": t.checks}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--egl", help="the libEGL to load (a path or a soname)")
    parser.add_argument("--list", action="store_true",
                        help="print the probes (one JSON object a line) and exit")
    parser.add_argument("--reference", action="store_true",
                        help="this is the reference run: leave out the probes it cannot run")
    parser.add_argument("--only", help="comma-separated probe names to run")
    parser.add_argument("--skip-through", metavar="NAME",
                        help="run only the probes after NAME (resuming after a crash)")
    args = parser.parse_args()

    selected = list(probes.PROBES)
    if args.list:
        for probe in selected:
            emit({"probe": probe.name, "family": probe.family, "compat": probe.compat,
                  "spec": probe.spec, "why": probe.why,
                  "skip_reference": probe.skip_reference})
        return 0
    if not args.egl:
        parser.error("--egl is required")
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {p.name for p in selected}
        if unknown:
            parser.error("unknown probes: %s" % ", ".join(sorted(unknown)))
        selected = [p for p in selected if p.name in wanted]
    if args.skip_through:
        names = [p.name for p in selected]
        if args.skip_through not in names:
            parser.error("unknown probe %s" % args.skip_through)
        selected = selected[names.index(args.skip_through) + 1:]

    driver = Driver(args.egl)
    emit({"info": describe(driver)})
    for probe in selected:
        if args.reference and probe.skip_reference:
            emit({"probe": probe.name, "family": probe.family, "skipped": probe.why})
            continue
        emit(run_probe(driver, probe))
    emit({"done": len(selected)})
    # Leave without running library destructors (some drivers' teardown is slow or noisy).
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
