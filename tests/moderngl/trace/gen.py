"""Generates gltrace.c: a logging libEGL.so.1 used to list exactly what a client asks of EGL/GL.

    python3 gen.py /usr/include/GL/glcorearb.h > gltrace.c
    cc -shared -fPIC -O1 -o libEGL.so.1 gltrace.c -ldl

The shim forwards every call to the real libEGL (GLTRACE_REAL_EGL, default the system's
/usr/lib/x86_64-linux-gnu/libEGL.so.1; point it at libarenagl.so to trace ArenaGL) and writes one
line per call to stderr ("TRACE ..."). It exports the EGL functions glcontext dlsyms and answers
eglGetProcAddress: for every GL function in glcorearb.h it returns a typed logging wrapper (and
logs "PROC name -> NULL" when the real implementation has none); the wrappers are static, so a
dlsym(libGL, "glFoo") on the shim fails and glcontext falls back to eglGetProcAddress, as it does
on ArenaGL. Used to write docs/moderngl-needs.md; not part of any test.
"""

import re
import sys

PROTO = re.compile(r"^GLAPI (.*?)\s*APIENTRY (gl\w+) \((.*)\);")


def fmt(ctype):
    t = ctype.replace("const", "").strip()
    if "*" in t or t in ("GLsync", "GLDEBUGPROC", "GLDEBUGPROCARB", "GLVULKANPROCNV"):
        return "%p", "(const void *)"
    if t in ("GLfloat", "GLclampf", "GLdouble", "GLclampd"):
        return "%g", "(double)"
    if t in ("GLint64", "GLuint64", "GLsizeiptr", "GLintptr", "GLint64EXT", "GLuint64EXT"):
        return "%lld", "(long long)"
    if t in ("GLenum", "GLbitfield"):
        return "0x%x", "(unsigned)"
    return "%d", "(int)"


def params(raw):
    raw = raw.strip()
    if raw == "void":
        return []
    out = []
    for p in raw.split(","):
        p = p.strip()
        m = re.match(r"(.*?)(\w+)$", p)
        out.append((m.group(1).strip(), m.group(2)))
    return out


def main():
    protos = []
    seen = set()
    for line in open(sys.argv[1]):
        m = PROTO.match(line)
        if m and m.group(2) not in seen:
            seen.add(m.group(2))
            protos.append((m.group(1).strip(), m.group(2), params(m.group(3))))
    print('#include "gltrace_egl.h"')
    for ret, name, ps in protos:
        decl = ", ".join(f"{t} {n}" for t, n in ps) or "void"
        args = ", ".join(n for _, n in ps)
        fmts = ", ".join(fmt(t)[0] for t, _ in ps)
        vals = "".join(f", {fmt(t)[1]}{n}" for t, n in ps)
        print(f"static {ret} (*real_{name})({decl});")
        print(f"static {ret} w_{name}({decl}) {{")
        print(f'    trace("{name}({fmts})"{vals});')
        if ret == "void":
            print(f"    real_{name}({args});")
            if name == "glGetIntegerv":
                print('    trace("  -> %d", *data);')
            elif name == "glGetFloatv":
                print('    trace("  -> %g", (double)*data);')
        else:
            print(f"    {ret} r = real_{name}({args});")
            if name in ("glGetString", "glGetStringi"):
                print('    trace("  -> \\"%s\\"", r ? (const char *)r : "(null)");')
            elif "*" in ret or ret == "GLsync":
                print('    trace("  -> %p", (const void *)r);')
            else:
                print('    trace("  -> %lld", (long long)r);')
            print("    return r;")
        print("}")
    print("static const struct gl_entry GL_TABLE[] = {")
    for _, name, _ in protos:
        print(f'    {{"{name}", (void **)&real_{name}, (void *)w_{name}}},')
    print("    {0, 0, 0},")
    print("};")
    print('#include "gltrace_egl.c"')


main()
