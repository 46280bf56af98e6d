"""The hostile-argument probes, grouped by entry-point family.

Each probe is a short function taking the harness's `Probe` object `t` (see hostile.py).
It sets up what it needs (setup steps end in `t.ok()`, which records only failures),
makes hostile calls through `t.rec(...)` (call + glGetError), and may record
observations compared with the reference (`t.observe(key, value)`) and requirements of
the specification (`t.expect(key, got, wanted)`, e.g. that a failed query wrote nothing).
Every probe runs in a fresh context, so none depends on another's leftovers. The list
order is the run order; names must be unique.

The reference is Mesa llvmpipe. A probe whose calls crash llvmpipe itself (Mesa 22.3 has
a few overflow bugs) or would never finish there names the error sequence the
specification requires instead (`spec=`, `why=`, `skip_reference=True`: the reference
run leaves it out); `spec="any"` accepts any errors and only requires that the library
survives.
"""

import ctypes
from collections import namedtuple

from glapi import *  # noqa: F401,F403  (the GL enums)
import glapi as g

ProbeDef = namedtuple("ProbeDef", "name family compat fn spec why skip_reference")
PROBES = []


def probe(family, compat=False, spec=None, why=None, skip_reference=False):
    """Registers the decorated function as a probe of `family`. compat: run it in a
    compatibility-profile context rather than core. spec: the error sequence the GL
    specification requires (or "any"), used instead of the reference's; why: the reason;
    skip_reference: the reference cannot run it (it crashes or never finishes)."""

    def register(fn):
        assert fn.__name__ not in {p.name for p in PROBES}, fn.__name__
        assert (spec is None) == (why is None), fn.__name__
        PROBES.append(ProbeDef(fn.__name__, family, compat, fn, spec, why, skip_reference))
        return fn

    return register


MESA_OVERFLOW = "llvmpipe (Mesa 22.3) segfaults: its offset + size bounds check overflows"


def u8(*values):
    return (ctypes.c_uint8 * len(values))(*values)


def filled(size, byte):
    return (ctypes.c_uint8 * size)(*([byte] * size))


def unchanged(buf, byte):
    return all(b == byte for b in buf)


VS_ATTRIBLESS = """#version 330 core
void main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); gl_PointSize = 1.0; }
"""
VS_POS = """#version 330 core
layout(location = 0) in vec4 pos;
void main() { gl_Position = pos; }
"""
FS_RED = """#version 330 core
out vec4 color;
void main() { color = vec4(1.0, 0.0, 0.0, 1.0); }
"""
FS_UNIFORMS = """#version 330 core
uniform float uf;
uniform int ui;
uniform uint uu;
uniform vec3 uv3;
uniform vec4 uv4;
uniform mat4 um;
uniform float ua[4];
uniform bool ub;
uniform sampler2D us;
out vec4 color;
void main() {
    color = vec4(uf + float(ui) + float(uu) + uv3.x + uv4.y + um[0][0] + ua[0] + ua[3]
                 + (ub ? 1.0 : 0.0)) + texture(us, vec2(0.0));
}
"""


def uniform_program(t):
    prog, linked = t.program(VS_ATTRIBLESS, FS_UNIFORMS)
    t.glUseProgram(prog)
    t.ok()
    t.observe("linked", linked)
    return prog


def loc(t, prog, name):
    return t.glGetUniformLocation(prog, name.encode())


def full_screen_triangle(t):
    """A VAO whose attribute 0 covers the viewport with one triangle; returns (vao, buffer)."""
    vao = t.vao()
    verts = (ctypes.c_float * 8)(-1, -1, 3, -1, -1, 3, 0, 0)
    buf = t.buffer(GL_ARRAY_BUFFER, ctypes.sizeof(verts), verts)
    t.glVertexAttribPointer(0, 2, GL_FLOAT, 0, 0, None)
    t.glEnableVertexAttribArray(0)
    t.ok()
    return vao, buf


# ============================================================================================
# buffers
# ============================================================================================


@probe("buffers")
def buffer_data_negative_size(t):
    t.buffer(GL_ARRAY_BUFFER, 16)
    t.rec("glBufferData", GL_ARRAY_BUFFER, -1, None, GL_STATIC_DRAW)
    t.observe("size", t.buffer_param(GL_ARRAY_BUFFER, GL_BUFFER_SIZE))


@probe("buffers")
def buffer_data_min_size(t):
    t.buffer(GL_ARRAY_BUFFER, 16)
    t.rec("glBufferData", GL_ARRAY_BUFFER, -(1 << 63), None, GL_STATIC_DRAW)


@probe("buffers")
def buffer_data_bad_target(t):
    t.buffer(GL_ARRAY_BUFFER, 16)
    t.rec("glBufferData", BOGUS, 16, None, GL_STATIC_DRAW)


@probe("buffers")
def buffer_data_bad_usage(t):
    t.buffer(GL_ARRAY_BUFFER, 16)
    t.rec("glBufferData", GL_ARRAY_BUFFER, 16, None, BOGUS)
    t.rec("glBufferData", GL_ARRAY_BUFFER, 16, None, GL_READ_ONLY)


@probe("buffers")
def buffer_data_nothing_bound(t):
    t.rec("glBufferData", GL_ARRAY_BUFFER, 16, None, GL_STATIC_DRAW)


@probe("buffers")
def buffer_data_null_data(t):
    t.buffer(GL_ARRAY_BUFFER, 16)
    t.rec("glBufferData", GL_ARRAY_BUFFER, 64, None, GL_DYNAMIC_DRAW)
    t.observe("size", t.buffer_param(GL_ARRAY_BUFFER, GL_BUFFER_SIZE))
    t.observe("usage", t.buffer_param(GL_ARRAY_BUFFER, GL_BUFFER_USAGE))


@probe("buffers")
def buffer_data_huge(t):
    t.buffer(GL_ARRAY_BUFFER, 16)
    t.rec("glBufferData", GL_ARRAY_BUFFER, 1 << 62, None, GL_STATIC_DRAW)


@probe("buffers")
def buffer_sub_data_negative_offset(t):
    t.buffer(GL_ARRAY_BUFFER, 64)
    data = filled(8, 1)
    t.rec("glBufferSubData", GL_ARRAY_BUFFER, -1, 8, data)


@probe("buffers")
def buffer_sub_data_negative_size(t):
    t.buffer(GL_ARRAY_BUFFER, 64)
    data = filled(8, 1)
    t.rec("glBufferSubData", GL_ARRAY_BUFFER, 0, -8, data)


@probe("buffers")
def buffer_sub_data_past_end(t):
    t.buffer(GL_ARRAY_BUFFER, 64)
    data = filled(16, 1)
    t.rec("glBufferSubData", GL_ARRAY_BUFFER, 60, 8, data)
    t.rec("glBufferSubData", GL_ARRAY_BUFFER, 64, 1, data)
    t.rec("glBufferSubData", GL_ARRAY_BUFFER, 64, 0, data)


@probe("buffers", spec=["INVALID_VALUE"], why=MESA_OVERFLOW, skip_reference=True)
def buffer_sub_data_offset_overflow(t):
    t.buffer(GL_ARRAY_BUFFER, 64)
    data = filled(16, 1)
    t.rec("glBufferSubData", GL_ARRAY_BUFFER, (1 << 63) - 4, 8, data)


@probe("buffers")
def buffer_sub_data_null_data(t):
    t.buffer(GL_ARRAY_BUFFER, 64, filled(64, 7))
    t.rec("glBufferSubData", GL_ARRAY_BUFFER, 0, 16, None)
    t.observe("contents", t.read_buffer_bytes(GL_ARRAY_BUFFER, 0, 4))


@probe("buffers")
def get_buffer_sub_data_past_end(t):
    t.buffer(GL_ARRAY_BUFFER, 64, filled(64, 7))
    out = filled(64, 0xA5)
    t.rec("glGetBufferSubData", GL_ARRAY_BUFFER, 32, 64, out)
    t.rec("glGetBufferSubData", GL_ARRAY_BUFFER, -4, 8, out)
    t.expect("client_unchanged", unchanged(out, 0xA5), True)


@probe("buffers")
def buffer_parameter_bad_pname(t):
    t.buffer(GL_ARRAY_BUFFER, 16)
    value = ctypes.c_int32(-7)
    t.rec("glGetBufferParameteriv", GL_ARRAY_BUFFER, BOGUS, ctypes.byref(value))
    t.rec("glGetBufferParameteriv", BOGUS, GL_BUFFER_SIZE, ctypes.byref(value))
    t.expect("value_unchanged", value.value, -7)


@probe("buffers")
def gen_delete_buffers_negative(t):
    names = (ctypes.c_uint32 * 4)()
    t.rec("glGenBuffers", -1, names)
    t.rec("glDeleteBuffers", -1, names)


@probe("buffers")
def bind_buffer_bad(t):
    t.rec("glBindBuffer", BOGUS, 0)
    t.rec("glBindBuffer", GL_ARRAY_BUFFER, 12345)


@probe("buffers")
def map_buffer_range_bad_access(t):
    t.buffer(GL_ARRAY_BUFFER, 64)
    t.rec("glMapBufferRange", GL_ARRAY_BUFFER, 0, 16, 0)
    t.rec("glMapBufferRange", GL_ARRAY_BUFFER, 0, 16, GL_MAP_READ_BIT | GL_MAP_INVALIDATE_RANGE_BIT)
    t.rec("glMapBufferRange", GL_ARRAY_BUFFER, 0, 16, GL_MAP_READ_BIT | GL_MAP_UNSYNCHRONIZED_BIT)
    t.rec("glMapBufferRange", GL_ARRAY_BUFFER, 0, 16, GL_MAP_READ_BIT | GL_MAP_FLUSH_EXPLICIT_BIT)
    t.rec("glMapBufferRange", GL_ARRAY_BUFFER, 0, 16, GL_MAP_WRITE_BIT | 0x80000)


@probe("buffers")
def map_buffer_range_bad_range(t):
    t.buffer(GL_ARRAY_BUFFER, 64)
    results = []
    for offset, length in ((-1, 8), (0, -8), (60, 8), (0, 0), (64, 1)):
        results.append(bool(t.rec("glMapBufferRange", GL_ARRAY_BUFFER, offset, length,
                                  GL_MAP_WRITE_BIT)))
    t.observe("mapped", results)


@probe("buffers", spec=["INVALID_VALUE"],
       why="llvmpipe (Mesa 22.3) returns a pointer past the buffer: offset + length overflows")
def map_buffer_range_offset_overflow(t):
    t.buffer(GL_ARRAY_BUFFER, 64)
    mapped = t.rec("glMapBufferRange", GL_ARRAY_BUFFER, (1 << 63) - 1, 2, GL_MAP_WRITE_BIT)
    t.expect("mapped", bool(mapped), False)


@probe("buffers")
def map_buffer_twice(t):
    t.buffer(GL_ARRAY_BUFFER, 64)
    t.rec("glMapBufferRange", GL_ARRAY_BUFFER, 0, 16, GL_MAP_WRITE_BIT)
    t.rec("glMapBufferRange", GL_ARRAY_BUFFER, 0, 16, GL_MAP_WRITE_BIT)
    t.rec("glMapBuffer", GL_ARRAY_BUFFER, GL_WRITE_ONLY)
    t.rec("glMapBuffer", GL_ARRAY_BUFFER, BOGUS)
    t.observe("unmap", t.rec("glUnmapBuffer", GL_ARRAY_BUFFER))


@probe("buffers")
def unmap_unmapped(t):
    t.buffer(GL_ARRAY_BUFFER, 64)
    t.observe("unmap", t.rec("glUnmapBuffer", GL_ARRAY_BUFFER))
    t.glBindBuffer(GL_ARRAY_BUFFER, 0)
    t.rec("glUnmapBuffer", GL_ARRAY_BUFFER)
    t.rec("glUnmapBuffer", BOGUS)


@probe("buffers")
def flush_mapped_range_bad(t):
    t.buffer(GL_ARRAY_BUFFER, 64)
    t.rec("glFlushMappedBufferRange", GL_ARRAY_BUFFER, 0, 4)  # not mapped
    t.glMapBufferRange(GL_ARRAY_BUFFER, 16, 16, GL_MAP_WRITE_BIT)
    t.ok()
    t.rec("glFlushMappedBufferRange", GL_ARRAY_BUFFER, 0, 4)  # no FLUSH_EXPLICIT
    t.glUnmapBuffer(GL_ARRAY_BUFFER)
    t.glMapBufferRange(GL_ARRAY_BUFFER, 16, 16, GL_MAP_WRITE_BIT | GL_MAP_FLUSH_EXPLICIT_BIT)
    t.ok()
    t.rec("glFlushMappedBufferRange", GL_ARRAY_BUFFER, -1, 4)
    t.rec("glFlushMappedBufferRange", GL_ARRAY_BUFFER, 8, 16)  # past the mapped range
    t.rec("glFlushMappedBufferRange", GL_ARRAY_BUFFER, 0, 16)


@probe("buffers")
def buffer_data_while_mapped(t):
    t.buffer(GL_ARRAY_BUFFER, 64)
    t.glMapBufferRange(GL_ARRAY_BUFFER, 0, 64, GL_MAP_WRITE_BIT)
    t.ok()
    t.rec("glBufferSubData", GL_ARRAY_BUFFER, 0, 4, filled(4, 1))
    t.rec("glBufferData", GL_ARRAY_BUFFER, 32, None, GL_STATIC_DRAW)
    t.observe("mapped_after", t.buffer_param(GL_ARRAY_BUFFER, GL_BUFFER_MAPPED))


@probe("buffers")
def copy_buffer_sub_data_overlap(t):
    buf = t.buffer(GL_COPY_READ_BUFFER, 64, filled(64, 3))
    t.glBindBuffer(GL_COPY_WRITE_BUFFER, buf)
    t.ok()
    t.rec("glCopyBufferSubData", GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 8, 16)
    t.rec("glCopyBufferSubData", GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 16, 16)
    t.rec("glCopyBufferSubData", GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 16, 0, 16)


@probe("buffers")
def copy_buffer_sub_data_bad_ranges(t):
    t.buffer(GL_COPY_READ_BUFFER, 64)
    t.buffer(GL_COPY_WRITE_BUFFER, 32)
    for ro, wo, size in ((-1, 0, 4), (0, -1, 4), (0, 0, -4), (60, 0, 8), (0, 30, 4)):
        t.rec("glCopyBufferSubData", GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, ro, wo, size)


@probe("buffers", spec=["INVALID_VALUE", "INVALID_VALUE"], why=MESA_OVERFLOW,
       skip_reference=True)
def copy_buffer_sub_data_offset_overflow(t):
    t.buffer(GL_COPY_READ_BUFFER, 64)
    t.buffer(GL_COPY_WRITE_BUFFER, 32)
    t.rec("glCopyBufferSubData", GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, (1 << 63) - 2, 0, 4)
    t.rec("glCopyBufferSubData", GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, (1 << 63) - 2, 4)


@probe("buffers")
def copy_buffer_sub_data_unbound_or_mapped(t):
    t.buffer(GL_COPY_READ_BUFFER, 64)
    t.rec("glCopyBufferSubData", GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, 4)
    t.rec("glCopyBufferSubData", BOGUS, GL_COPY_READ_BUFFER, 0, 0, 4)
    t.buffer(GL_COPY_WRITE_BUFFER, 64)
    t.glMapBufferRange(GL_COPY_READ_BUFFER, 0, 8, GL_MAP_READ_BIT)
    t.ok()
    t.rec("glCopyBufferSubData", GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, 4)


@probe("buffers")
def bind_buffer_range_bad(t):
    buf = t.buffer(GL_UNIFORM_BUFFER, 1024)
    align = t.geti(GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT)
    bindings = t.geti(GL_MAX_UNIFORM_BUFFER_BINDINGS)
    t.rec("glBindBufferRange", GL_UNIFORM_BUFFER, 0, buf, 1 if align > 1 else -1, 16)
    t.rec("glBindBufferRange", GL_UNIFORM_BUFFER, 0, buf, 0, 0)
    t.rec("glBindBufferRange", GL_UNIFORM_BUFFER, 0, buf, 0, -16)
    t.rec("glBindBufferRange", GL_UNIFORM_BUFFER, bindings, buf, 0, 16)
    t.rec("glBindBufferRange", BOGUS, 0, buf, 0, 16)
    t.rec("glBindBufferBase", GL_UNIFORM_BUFFER, bindings, buf)
    t.rec("glBindBufferBase", GL_ARRAY_BUFFER, 0, buf)
    t.rec("glBindBufferBase", GL_UNIFORM_BUFFER, 0, 54321)


@probe("buffers")
def buffer_storage_then_data(t):
    buf = t.gen("glGenBuffers")
    t.glBindBuffer(GL_ARRAY_BUFFER, buf)
    t.ok()
    t.rec("glBufferStorage", GL_ARRAY_BUFFER, 64, None, GL_DYNAMIC_STORAGE_BIT)
    t.rec("glBufferData", GL_ARRAY_BUFFER, 64, None, GL_STATIC_DRAW)
    t.rec("glBufferStorage", GL_ARRAY_BUFFER, 64, None, 0)
    t.rec("glBufferSubData", GL_ARRAY_BUFFER, 0, 4, filled(4, 1))


@probe("buffers")
def buffer_storage_bad(t):
    buf = t.gen("glGenBuffers")
    t.glBindBuffer(GL_ARRAY_BUFFER, buf)
    t.ok()
    t.rec("glBufferStorage", GL_ARRAY_BUFFER, 0, None, 0)
    t.rec("glBufferStorage", GL_ARRAY_BUFFER, -4, None, 0)
    t.rec("glBufferStorage", GL_ARRAY_BUFFER, 64, None, 0x80000000)
    t.rec("glBufferStorage", GL_ARRAY_BUFFER, 64, None, 0x40)  # persistent without map bits
    t.rec("glBufferStorage", GL_ARRAY_BUFFER, 64, None, 0)
    t.rec("glBufferSubData", GL_ARRAY_BUFFER, 0, 4, filled(4, 1))  # not DYNAMIC_STORAGE


# ============================================================================================
# vertex arrays and attribute pointers
# ============================================================================================


@probe("vertex_arrays")
def attrib_pointer_index_too_big(t):
    t.vao()
    t.buffer(GL_ARRAY_BUFFER, 64)
    limit = t.geti(GL_MAX_VERTEX_ATTRIBS)
    t.rec("glVertexAttribPointer", limit, 4, GL_FLOAT, 0, 0, None)
    t.rec("glVertexAttribPointer", 0xFFFFFFFF, 4, GL_FLOAT, 0, 0, None)
    t.rec("glVertexAttribIPointer", limit, 4, GL_INT, 0, None)
    t.rec("glEnableVertexAttribArray", limit)
    t.rec("glDisableVertexAttribArray", limit)
    t.rec("glVertexAttribDivisor", limit, 1)
    t.rec("glVertexAttrib4f", limit, 0, 0, 0, 1)


@probe("vertex_arrays")
def attrib_pointer_bad_size(t):
    t.vao()
    t.buffer(GL_ARRAY_BUFFER, 64)
    for size in (0, 5, -1, 100):
        t.rec("glVertexAttribPointer", 0, size, GL_FLOAT, 0, 0, None)


@probe("vertex_arrays")
def attrib_pointer_bad_type(t):
    t.vao()
    t.buffer(GL_ARRAY_BUFFER, 64)
    t.rec("glVertexAttribPointer", 0, 4, BOGUS, 0, 0, None)
    t.rec("glVertexAttribPointer", 0, 4, GL_RGBA, 0, 0, None)
    t.rec("glVertexAttribIPointer", 0, 4, GL_FLOAT, 0, None)
    t.rec("glVertexAttribIPointer", 0, 4, GL_HALF_FLOAT, 0, None)


@probe("vertex_arrays")
def attrib_pointer_bad_stride(t):
    t.vao()
    t.buffer(GL_ARRAY_BUFFER, 64)
    t.rec("glVertexAttribPointer", 0, 4, GL_FLOAT, 0, -4, None)
    t.rec("glVertexAttribIPointer", 0, 4, GL_INT, -1, None)
    t.rec("glVertexAttribPointer", 0, 4, GL_FLOAT, 0, 1 << 30, None)


@probe("vertex_arrays")
def attrib_pointer_packed_and_bgra(t):
    t.vao()
    t.buffer(GL_ARRAY_BUFFER, 64)
    t.rec("glVertexAttribPointer", 0, 3, GL_INT_2_10_10_10_REV, 1, 0, None)
    t.rec("glVertexAttribPointer", 0, 3, GL_UNSIGNED_INT_2_10_10_10_REV, 1, 0, None)
    t.rec("glVertexAttribPointer", 0, GL_BGRA, GL_FLOAT, 1, 0, None)
    t.rec("glVertexAttribPointer", 0, GL_BGRA, GL_UNSIGNED_BYTE, 0, 0, None)
    t.rec("glVertexAttribPointer", 0, GL_BGRA, GL_UNSIGNED_BYTE, 1, 0, None)
    t.rec("glVertexAttribIPointer", 0, GL_BGRA, GL_UNSIGNED_BYTE, 0, None)


@probe("vertex_arrays")
def attrib_pointer_without_vao(t):
    t.buffer(GL_ARRAY_BUFFER, 64)
    t.rec("glVertexAttribPointer", 0, 4, GL_FLOAT, 0, 0, None)
    t.rec("glEnableVertexAttribArray", 0)


@probe("vertex_arrays")
def attrib_pointer_client_memory_in_core(t):
    t.vao()
    client = (ctypes.c_float * 16)()
    t.rec("glVertexAttribPointer", 0, 4, GL_FLOAT, 0, 0, client)
    t.rec("glVertexAttribPointer", 0, 4, GL_FLOAT, 0, 0, None)


@probe("vertex_arrays")
def bind_vertex_array_bad(t):
    t.rec("glBindVertexArray", 777)
    vao = t.gen("glGenVertexArrays")
    names = (ctypes.c_uint32 * 1)(vao)
    t.glDeleteVertexArrays(1, names)
    t.ok()
    t.rec("glBindVertexArray", vao)
    t.rec("glGenVertexArrays", -1, names)
    t.rec("glDeleteVertexArrays", -1, names)


@probe("vertex_arrays")
def get_vertex_attrib_bad(t):
    t.vao()
    value = ctypes.c_int32(-7)
    limit = t.geti(GL_MAX_VERTEX_ATTRIBS)
    t.rec("glGetVertexAttribiv", 0, BOGUS, ctypes.byref(value))
    t.rec("glGetVertexAttribiv", limit, GL_VERTEX_ATTRIB_ARRAY_ENABLED, ctypes.byref(value))
    t.expect("value_unchanged", value.value, -7)


@probe("vertex_arrays")
def vao_deleted_buffer_current(t):
    prog, _ = t.program(VS_POS, FS_RED)
    t.glUseProgram(prog)
    _, buf = full_screen_triangle(t)
    names = (ctypes.c_uint32 * 1)(buf)
    t.rec("glDeleteBuffers", 1, names)
    binding = ctypes.c_int32(-7)
    t.rec("glGetVertexAttribiv", 0, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, ctypes.byref(binding))
    t.observe("binding_after_delete", binding.value)
    t.observe("is_buffer", t.glIsBuffer(buf))
    t.rec("glDrawArrays", GL_TRIANGLES, 0, 3)
    t.glFinish()


@probe("vertex_arrays")
def vao_deleted_buffer_other_vao(t):
    prog, _ = t.program(VS_POS, FS_RED)
    t.glUseProgram(prog)
    vao, buf = full_screen_triangle(t)
    t.glBindVertexArray(0)
    t.glBindBuffer(GL_ARRAY_BUFFER, 0)
    t.ok()
    names = (ctypes.c_uint32 * 1)(buf)
    t.rec("glDeleteBuffers", 1, names)
    # Churn allocations so a freed buffer's memory is likely reused.
    for _ in range(8):
        t.buffer(GL_ARRAY_BUFFER, 4096, filled(4096, 0))
    t.glBindVertexArray(vao)
    t.glClearColor(0, 0, 0, 1)
    t.glClear(GL_COLOR_BUFFER_BIT)
    t.ok()
    t.rec("glDrawArrays", GL_TRIANGLES, 0, 3)
    t.observe("pixel", t.pixel(16, 16))
    t.e("glReadPixels")


# ============================================================================================
# draws
# ============================================================================================


def draw_setup(t):
    prog, _ = t.program(VS_ATTRIBLESS, FS_RED)
    t.glUseProgram(prog)
    t.vao()
    t.ok()
    return prog


@probe("draws")
def draw_arrays_negative(t):
    draw_setup(t)
    t.rec("glDrawArrays", GL_POINTS, 0, -1)
    t.rec("glDrawArrays", GL_POINTS, -1, 1)
    t.rec("glDrawArrays", GL_POINTS, 0, -(1 << 31))


@probe("draws")
def draw_arrays_bad_mode(t):
    draw_setup(t)
    t.rec("glDrawArrays", BOGUS, 0, 3)
    t.rec("glDrawArrays", GL_QUADS, 0, 4)
    t.rec("glDrawArrays", 0xFFFFFFFF, 0, 0)


@probe("draws")
def draw_elements_bad_type(t):
    draw_setup(t)
    t.buffer(GL_ELEMENT_ARRAY_BUFFER, 64)
    t.rec("glDrawElements", GL_POINTS, 3, GL_FLOAT, None)
    t.rec("glDrawElements", GL_POINTS, 3, GL_BYTE, None)
    t.rec("glDrawElements", GL_POINTS, 3, BOGUS, None)
    t.rec("glDrawElements", GL_POINTS, -3, GL_UNSIGNED_INT, None)
    t.rec("glDrawElements", BOGUS, 3, GL_UNSIGNED_INT, None)


@probe("draws")
def draw_elements_client_indices_in_core(t):
    draw_setup(t)
    indices = (ctypes.c_uint32 * 3)(0, 1, 2)
    t.rec("glDrawElements", GL_POINTS, 3, GL_UNSIGNED_INT, indices)


@probe("draws", spec="any", why="llvmpipe (Mesa 22.3) dereferences the NULL index pointer",
       skip_reference=True)
def draw_elements_null_indices_no_buffer(t):
    draw_setup(t)
    t.rec("glDrawElements", GL_POINTS, 3, GL_UNSIGNED_INT, None)
    t.glFinish()


@probe("draws")
def draw_elements_past_index_buffer(t):
    draw_setup(t)
    t.buffer(GL_ELEMENT_ARRAY_BUFFER, 12, (ctypes.c_uint32 * 3)(0, 1, 2))
    t.rec("glDrawElements", GL_POINTS, 3000, GL_UNSIGNED_INT, None)
    t.rec("glDrawElements", GL_POINTS, 3, GL_UNSIGNED_INT, 1 << 40)
    t.glFinish()


@probe("draws")
def draw_arrays_past_vertex_buffer(t):
    prog, _ = t.program(VS_POS, FS_RED)
    t.glUseProgram(prog)
    full_screen_triangle(t)
    t.rec("glDrawArrays", GL_POINTS, 0, 100000)
    t.rec("glDrawArrays", GL_POINTS, 1 << 30, 3)
    t.glFinish()


@probe("draws")
def draw_elements_huge_index(t):
    prog, _ = t.program(VS_POS, FS_RED)
    t.glUseProgram(prog)
    full_screen_triangle(t)
    t.buffer(GL_ELEMENT_ARRAY_BUFFER, 12, (ctypes.c_uint32 * 3)(0, 0x7FFFFFFF, 0xFFFFFFF0))
    t.rec("glDrawElements", GL_TRIANGLES, 3, GL_UNSIGNED_INT, None)
    t.glFinish()


@probe("draws")
def draw_without_program(t):
    t.vao()
    t.rec("glDrawArrays", GL_POINTS, 0, 3)


@probe("draws")
def draw_without_vao(t):
    prog, _ = t.program(VS_ATTRIBLESS, FS_RED)
    t.glUseProgram(prog)
    t.ok()
    t.rec("glDrawArrays", GL_POINTS, 0, 3)
    t.rec("glDrawElements", GL_POINTS, 3, GL_UNSIGNED_INT, None)


@probe("draws")
def draw_instanced_negative(t):
    draw_setup(t)
    t.buffer(GL_ELEMENT_ARRAY_BUFFER, 12, (ctypes.c_uint32 * 3)(0, 1, 2))
    t.rec("glDrawArraysInstanced", GL_POINTS, 0, 3, -1)
    t.rec("glDrawArraysInstanced", GL_POINTS, 0, -3, 1)
    t.rec("glDrawElementsInstanced", GL_POINTS, 3, GL_UNSIGNED_INT, None, -1)
    t.rec("glDrawElementsInstanced", GL_POINTS, 3, GL_FLOAT, None, 1)
    t.rec("glDrawArraysInstanced", GL_POINTS, 0, 3, 0)


@probe("draws")
def draw_range_elements_bad(t):
    draw_setup(t)
    t.buffer(GL_ELEMENT_ARRAY_BUFFER, 12, (ctypes.c_uint32 * 3)(0, 1, 2))
    t.rec("glDrawRangeElements", GL_POINTS, 5, 2, 3, GL_UNSIGNED_INT, None)
    t.rec("glDrawRangeElements", GL_POINTS, 0, 2, -3, GL_UNSIGNED_INT, None)
    t.rec("glDrawRangeElements", GL_POINTS, 0, 0, 3, GL_UNSIGNED_INT, None)  # indices outside
    t.rec("glDrawElementsBaseVertex", GL_POINTS, 3, GL_UNSIGNED_INT, None, -(1 << 30))
    t.rec("glDrawElementsBaseVertex", BOGUS, 3, GL_UNSIGNED_INT, None, 0)
    t.glFinish()


@probe("draws")
def multi_draw_bad(t):
    draw_setup(t)
    firsts = (ctypes.c_int32 * 2)(0, 0)
    counts = (ctypes.c_int32 * 2)(3, -3)
    t.rec("glMultiDrawArrays", GL_POINTS, firsts, counts, -1)
    t.rec("glMultiDrawArrays", GL_POINTS, firsts, counts, 2)
    t.rec("glMultiDrawArrays", BOGUS, firsts, counts, 1)
    t.buffer(GL_ELEMENT_ARRAY_BUFFER, 12, (ctypes.c_uint32 * 3)(0, 1, 2))
    offsets = (ctypes.c_void_p * 2)(None, None)
    t.rec("glMultiDrawElements", GL_POINTS, counts, GL_UNSIGNED_INT, offsets, 2)
    t.rec("glMultiDrawElements", GL_POINTS, counts, GL_UNSIGNED_INT, offsets, -1)


@probe("draws")
def draw_with_mapped_buffer(t):
    prog, _ = t.program(VS_POS, FS_RED)
    t.glUseProgram(prog)
    full_screen_triangle(t)
    t.glMapBufferRange(GL_ARRAY_BUFFER, 0, 8, GL_MAP_WRITE_BIT)
    t.ok()
    t.rec("glDrawArrays", GL_TRIANGLES, 0, 3)
    t.glUnmapBuffer(GL_ARRAY_BUFFER)
    t.ok()
    t.rec("glDrawArrays", GL_TRIANGLES, 0, 3)


@probe("draws")
def draw_to_incomplete_framebuffer(t):
    draw_setup(t)
    fb = t.gen("glGenFramebuffers")
    t.glBindFramebuffer(GL_FRAMEBUFFER, fb)
    t.ok()
    t.rec("glDrawArrays", GL_POINTS, 0, 3)
    t.rec("glClear", GL_COLOR_BUFFER_BIT)


@probe("draws")
def draw_with_unlinked_program(t):
    t.vao()
    prog, _ = t.program(VS_ATTRIBLESS, "#version 330 core\nthis is not glsl\n")
    t.rec("glUseProgram", prog)
    t.rec("glDrawArrays", GL_POINTS, 0, 3)


# ============================================================================================
# textures
# ============================================================================================


@probe("textures")
def tex_image_negative_size(t):
    t.texture()
    for w, h in ((-1, 4), (4, -1), (-(1 << 31), 1)):
        t.rec("glTexImage2D", GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, None)
    t.rec("glTexImage1D", GL_TEXTURE_1D, 0, GL_RGBA8, -4, 0, GL_RGBA, GL_UNSIGNED_BYTE, None)


@probe("textures")
def tex_image_huge_size(t):
    t.texture()
    limit = t.geti(GL_MAX_TEXTURE_SIZE)
    t.rec("glTexImage2D", GL_TEXTURE_2D, 0, GL_RGBA8, limit + 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE,
          None)
    t.rec("glTexImage2D", GL_TEXTURE_2D, 0, GL_RGBA8, 1 << 20, 1 << 20, 0, GL_RGBA,
          GL_UNSIGNED_BYTE, None)


@probe("textures", spec=["INVALID_VALUE", "INVALID_VALUE"],
       why="llvmpipe (Mesa 22.3) aborts: stack smashing detected", skip_reference=True)
def tex_image_width_int_max(t):
    t.texture()
    t.rec("glTexImage2D", GL_TEXTURE_2D, 0, GL_RGBA8, 0x7FFFFFFF, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE,
          None)
    t.rec("glTexImage2D", GL_TEXTURE_2D, 0, GL_RGBA8, 1, 0x7FFFFFFF, 0, GL_RGBA, GL_UNSIGNED_BYTE,
          None)


@probe("textures")
def tex_image_proxy(t):
    """Proxy targets answer "would this fit?" without an error."""
    t.rec("glTexImage2D", 0x8064, 0, GL_RGBA8, 1 << 20, 1 << 20, 0, GL_RGBA, GL_UNSIGNED_BYTE,
          None)  # GL_PROXY_TEXTURE_2D
    value = ctypes.c_int32(-7)
    t.rec("glGetTexLevelParameteriv", 0x8064, 0, GL_TEXTURE_WIDTH, ctypes.byref(value))
    t.observe("width", value.value)


@probe("textures")
def tex_image_bad_level(t):
    t.texture()
    for level in (-1, 20, 1000):
        t.rec("glTexImage2D", GL_TEXTURE_2D, level, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE,
              None)
    t.rec("glTexImage2D", GL_TEXTURE_2D, 3, GL_RGBA8, 4096, 4096, 0, GL_RGBA, GL_UNSIGNED_BYTE,
          None)  # level 3 of 4096 would make level 0 larger than the maximum


@probe("textures")
def tex_image_bad_border(t):
    t.texture()
    for border in (1, -1, 2):
        t.rec("glTexImage2D", GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, border, GL_RGBA, GL_UNSIGNED_BYTE,
              None)


@probe("textures")
def tex_image_bad_target(t):
    t.texture()
    t.rec("glTexImage2D", BOGUS, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, None)
    t.rec("glTexImage2D", GL_TEXTURE_3D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, None)
    t.rec("glTexImage2D", GL_TEXTURE_CUBE_MAP, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE,
          None)
    t.rec("glTexImage3D", GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, None)


@probe("textures")
def tex_image_bad_formats(t):
    t.texture()
    cases = (
        (BOGUS, GL_RGBA, GL_UNSIGNED_BYTE),  # internal format
        (GL_RGBA8, BOGUS, GL_UNSIGNED_BYTE),  # format
        (GL_RGBA8, GL_RGBA, BOGUS),  # type
        (GL_RGBA8, GL_RGBA, GL_UNSIGNED_SHORT_5_6_5),  # packed type / format mismatch
        (GL_RGBA32UI, GL_RGBA, GL_FLOAT),  # integer internal format, float data
        (GL_RGBA8, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE),  # normalized internal, integer data
        (GL_DEPTH_COMPONENT24, GL_RGBA, GL_UNSIGNED_BYTE),  # depth from colour data
        (GL_RGBA8, GL_DEPTH_COMPONENT, GL_FLOAT),  # colour from depth data
        (GL_DEPTH24_STENCIL8, GL_DEPTH_STENCIL, GL_FLOAT),  # needs UNSIGNED_INT_24_8
        (GL_RGBA8, GL_RGBA, GL_BITMAP),
        (0, GL_RGBA, GL_UNSIGNED_BYTE),
        (5, GL_RGBA, GL_UNSIGNED_BYTE),  # legacy component count, not in core
    )
    for internal, fmt, typ in cases:
        t.rec("glTexImage2D", GL_TEXTURE_2D, 0, internal, 4, 4, 0, fmt, typ, None)


@probe("textures")
def tex_image_cube_not_square(t):
    t.texture(GL_TEXTURE_CUBE_MAP)
    t.rec("glTexImage2D", GL_TEXTURE_CUBE_MAP_POSITIVE_X, 0, GL_RGBA8, 4, 8, 0, GL_RGBA,
          GL_UNSIGNED_BYTE, None)
    t.rec("glTexImage2D", GL_TEXTURE_CUBE_MAP_POSITIVE_X + 7, 0, GL_RGBA8, 4, 4, 0, GL_RGBA,
          GL_UNSIGNED_BYTE, None)  # one past the six faces and the proxy


@probe("textures")
def tex_image_3d_bad(t):
    t.texture(GL_TEXTURE_3D)
    t.rec("glTexImage3D", GL_TEXTURE_3D, 0, GL_RGBA8, 4, 4, -1, 0, GL_RGBA, GL_UNSIGNED_BYTE, None)
    t.rec("glTexImage3D", GL_TEXTURE_3D, 0, GL_RGBA8, 4, 4, 1 << 20, 0, GL_RGBA, GL_UNSIGNED_BYTE,
          None)
    t.rec("glTexImage3D", GL_TEXTURE_3D, 0, GL_DEPTH_COMPONENT24, 4, 4, 4, 0, GL_DEPTH_COMPONENT,
          GL_FLOAT, None)
    t.texture(GL_TEXTURE_2D_ARRAY)
    t.rec("glTexImage3D", GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, 4, 4, 0x10000, 0, GL_RGBA,
          GL_UNSIGNED_BYTE, None)


@probe("textures")
def tex_sub_image_out_of_bounds(t):
    t.tex2d(4, 4)
    data = filled(256, 1)
    for x, y, w, h in ((2, 0, 4, 1), (0, 3, 1, 2), (-1, 0, 1, 1), (0, 0, -1, 1), (4, 4, 0, 0)):
        t.rec("glTexSubImage2D", GL_TEXTURE_2D, 0, x, y, w, h, GL_RGBA, GL_UNSIGNED_BYTE, data)


@probe("textures", spec=["INVALID_VALUE", "INVALID_VALUE"], why=MESA_OVERFLOW,
       skip_reference=True)
def tex_sub_image_offset_int_max(t):
    t.tex2d(4, 4)
    data = filled(256, 1)
    t.rec("glTexSubImage2D", GL_TEXTURE_2D, 0, 0x7FFFFFFF, 0, 2, 1, GL_RGBA, GL_UNSIGNED_BYTE, data)
    t.rec("glTexSubImage2D", GL_TEXTURE_2D, 0, 0, 0x7FFFFFFF, 1, 2, GL_RGBA, GL_UNSIGNED_BYTE, data)


@probe("textures")
def tex_sub_image_bad_level_or_format(t):
    t.tex2d(4, 4)
    data = filled(256, 1)
    t.rec("glTexSubImage2D", GL_TEXTURE_2D, 1, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, data)
    t.rec("glTexSubImage2D", GL_TEXTURE_2D, -1, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, data)
    t.rec("glTexSubImage2D", GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, data)
    t.rec("glTexSubImage2D", GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, BOGUS, data)
    t.rec("glTexSubImage2D", GL_TEXTURE_3D, 0, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, data)


@probe("textures")
def tex_sub_image_no_image(t):
    t.texture()
    data = filled(64, 1)
    t.rec("glTexSubImage2D", GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, data)


@probe("textures")
def tex_storage_twice(t):
    t.texture()
    t.rec("glTexStorage2D", GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4)
    t.rec("glTexStorage2D", GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4)
    t.rec("glTexImage2D", GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, None)
    t.rec("glTexSubImage2D", GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE,
          filled(64, 1))


@probe("textures")
def tex_storage_bad(t):
    t.texture()
    t.rec("glTexStorage2D", GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4)
    t.rec("glTexStorage2D", GL_TEXTURE_2D, 4, GL_RGBA8, 4, 4)  # 4x4 has 3 levels
    t.rec("glTexStorage2D", GL_TEXTURE_2D, 1, GL_RGBA, 4, 4)  # unsized
    t.rec("glTexStorage2D", GL_TEXTURE_2D, 1, GL_RGBA8, 0, 4)
    t.rec("glTexStorage2D", GL_TEXTURE_2D, 1, GL_RGBA8, -4, 4)
    t.rec("glTexStorage2D", BOGUS, 1, GL_RGBA8, 4, 4)
    t.rec("glTexStorage3D", GL_TEXTURE_3D, 1, GL_RGBA8, 4, 4, -1)


@probe("textures")
def tex_storage_default_texture(t):
    t.rec("glTexStorage2D", GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4)
    t.rec("glTexStorage2D", GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4)


@probe("textures")
def bind_texture_bad(t):
    tex = t.tex2d(4, 4)
    t.rec("glBindTexture", GL_TEXTURE_3D, tex)
    t.rec("glBindTexture", BOGUS, tex)
    t.rec("glBindTexture", GL_TEXTURE_2D, 4242)
    t.rec("glActiveTexture", GL_TEXTURE0 + t.geti(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS))
    t.rec("glActiveTexture", 0)
    names = (ctypes.c_uint32 * 1)()
    t.rec("glGenTextures", -1, names)
    t.rec("glDeleteTextures", -1, names)


@probe("textures")
def tex_parameter_bad(t):
    t.tex2d(4, 4)
    t.rec("glTexParameteri", GL_TEXTURE_2D, BOGUS, 0)
    t.rec("glTexParameteri", GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_REPEAT)
    t.rec("glTexParameteri", GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, 0x2700)  # a mipmap filter
    t.rec("glTexParameteri", GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_NEAREST)
    t.rec("glTexParameteri", GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, -1)
    t.rec("glTexParameteri", GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, -1)
    t.rec("glTexParameterf", GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, 1.5)
    t.rec("glTexParameteri", BOGUS, GL_TEXTURE_MIN_FILTER, GL_NEAREST)
    value = ctypes.c_int32(-7)
    t.rec("glGetTexParameteriv", GL_TEXTURE_2D, BOGUS, ctypes.byref(value))
    t.expect("value_unchanged", value.value, -7)


@probe("textures")
def tex_parameter_rectangle_and_ms(t):
    t.texture(GL_TEXTURE_RECTANGLE)
    t.rec("glTexParameteri", GL_TEXTURE_RECTANGLE, GL_TEXTURE_WRAP_S, GL_REPEAT)
    t.rec("glTexParameteri", GL_TEXTURE_RECTANGLE, GL_TEXTURE_MIN_FILTER, 0x2703)
    t.rec("glTexParameteri", GL_TEXTURE_RECTANGLE, GL_TEXTURE_BASE_LEVEL, 1)
    t.rec("glTexImage2D", GL_TEXTURE_RECTANGLE, 1, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE,
          None)


@probe("textures")
def get_tex_level_parameter_bad(t):
    t.tex2d(4, 4)
    value = ctypes.c_int32(-7)
    t.rec("glGetTexLevelParameteriv", GL_TEXTURE_2D, -1, GL_TEXTURE_WIDTH, ctypes.byref(value))
    t.rec("glGetTexLevelParameteriv", GL_TEXTURE_2D, 100, GL_TEXTURE_WIDTH, ctypes.byref(value))
    t.rec("glGetTexLevelParameteriv", GL_TEXTURE_2D, 0, BOGUS, ctypes.byref(value))
    t.rec("glGetTexLevelParameteriv", BOGUS, 0, GL_TEXTURE_WIDTH, ctypes.byref(value))
    t.expect("value_unchanged", value.value, -7)


@probe("textures")
def get_tex_image_bad(t):
    t.tex2d(4, 4)
    out = filled(1024, 0xA5)
    t.rec("glGetTexImage", GL_TEXTURE_2D, -1, GL_RGBA, GL_UNSIGNED_BYTE, out)
    t.rec("glGetTexImage", GL_TEXTURE_2D, 0, BOGUS, GL_UNSIGNED_BYTE, out)
    t.rec("glGetTexImage", GL_TEXTURE_2D, 0, GL_RGBA, BOGUS, out)
    t.rec("glGetTexImage", GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, GL_FLOAT, out)
    t.rec("glGetTexImage", GL_TEXTURE_2D, 0, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, out)
    t.rec("glGetTexImage", BOGUS, 0, GL_RGBA, GL_UNSIGNED_BYTE, out)
    t.expect("client_unchanged", unchanged(out, 0xA5), True)


@probe("textures")
def generate_mipmap_bad(t):
    t.rec("glGenerateMipmap", BOGUS)
    t.rec("glGenerateMipmap", GL_TEXTURE_RECTANGLE)
    t.texture(GL_TEXTURE_CUBE_MAP)
    t.glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                   None)
    t.ok()
    t.rec("glGenerateMipmap", GL_TEXTURE_CUBE_MAP)  # cube incomplete
    t.texture(GL_TEXTURE_2D)
    t.rec("glGenerateMipmap", GL_TEXTURE_2D)  # no image


@probe("textures")
def compressed_tex_image_bad(t):
    t.texture()
    block = filled(64, 0)
    t.rec("glCompressedTexImage2D", GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 4, 4, 0, 7, block)
    t.rec("glCompressedTexImage2D", GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 4, 4, 0, -8, block)
    t.rec("glCompressedTexImage2D", GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, 64, block)
    t.rec("glCompressedTexImage2D", GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 4, 4, 1, 8, block)
    t.rec("glCompressedTexImage2D", GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 4, 4, 0, 8, block)


@probe("textures")
def copy_tex_image_bad(t):
    t.tex2d(4, 4)
    t.rec("glCopyTexImage2D", GL_TEXTURE_2D, 0, GL_RGBA8, 0, 0, -1, 4, 0)
    t.rec("glCopyTexImage2D", GL_TEXTURE_2D, 0, GL_RGBA8, 0, 0, 4, 4, 1)
    t.rec("glCopyTexImage2D", GL_TEXTURE_2D, 0, BOGUS, 0, 0, 4, 4, 0)
    t.rec("glCopyTexImage2D", GL_TEXTURE_2D, -1, GL_RGBA8, 0, 0, 4, 4, 0)
    t.rec("glCopyTexSubImage2D", GL_TEXTURE_2D, 0, 2, 2, 0, 0, 4, 4)
    t.rec("glCopyTexSubImage2D", GL_TEXTURE_2D, 0, -1, 0, 0, 0, 1, 1)
    t.rec("glCopyTexSubImage2D", GL_TEXTURE_2D, 1, 0, 0, 0, 0, 1, 1)


@probe("textures")
def copy_tex_image_depth_from_colour(t):
    t.texture()
    t.rec("glCopyTexImage2D", GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, 0, 0, 4, 4, 0)
    t.rec("glCopyTexImage2D", GL_TEXTURE_2D, 0, GL_RGBA32UI, 0, 0, 4, 4, 0)


@probe("textures")
def tex_image_multisample_bad(t):
    t.texture(GL_TEXTURE_2D_MULTISAMPLE)
    samples = t.geti(GL_MAX_SAMPLES)
    t.rec("glTexImage2DMultisample", GL_TEXTURE_2D_MULTISAMPLE, 0, GL_RGBA8, 4, 4, 1)
    t.rec("glTexImage2DMultisample", GL_TEXTURE_2D_MULTISAMPLE, samples + 1, GL_RGBA8, 4, 4, 1)
    t.rec("glTexImage2DMultisample", GL_TEXTURE_2D_MULTISAMPLE, -1, GL_RGBA8, 4, 4, 1)
    t.rec("glTexImage2DMultisample", GL_TEXTURE_2D_MULTISAMPLE, 4, GL_RGBA8, -4, 4, 1)
    t.rec("glTexImage2DMultisample", GL_TEXTURE_2D_MULTISAMPLE, 4, BOGUS, 4, 4, 1)
    t.rec("glTexImage2DMultisample", GL_TEXTURE_2D, 4, GL_RGBA8, 4, 4, 1)


@probe("textures")
def tex_buffer_bad(t):
    buf = t.buffer(GL_TEXTURE_BUFFER, 64)
    t.texture(GL_TEXTURE_BUFFER)
    t.rec("glTexBuffer", GL_TEXTURE_BUFFER, BOGUS, buf)
    t.rec("glTexBuffer", GL_TEXTURE_BUFFER, GL_RGBA8, 9999)
    t.rec("glTexBuffer", GL_TEXTURE_2D, GL_RGBA8, buf)
    t.rec("glTexBuffer", GL_TEXTURE_BUFFER, GL_RGB, buf)
    t.rec("glTexBuffer", GL_TEXTURE_BUFFER, GL_RGBA8, buf)


@probe("textures")
def copy_image_sub_data_bad(t):
    a = t.tex2d(4, 4)
    b = t.tex2d(4, 4)
    t.rec("glCopyImageSubData", a, GL_TEXTURE_2D, 0, 0, 0, 0, b, GL_TEXTURE_2D, 0, 2, 2, 0, 4, 4, 1)
    t.rec("glCopyImageSubData", a, BOGUS, 0, 0, 0, 0, b, GL_TEXTURE_2D, 0, 0, 0, 0, 1, 1, 1)
    t.rec("glCopyImageSubData", a, GL_TEXTURE_2D, 5, 0, 0, 0, b, GL_TEXTURE_2D, 0, 0, 0, 0, 1, 1, 1)
    t.rec("glCopyImageSubData", 999, GL_TEXTURE_2D, 0, 0, 0, 0, b, GL_TEXTURE_2D, 0, 0, 0, 0, 1, 1,
          1)
    t.rec("glCopyImageSubData", a, GL_TEXTURE_2D, 0, 0, 0, 0, b, GL_TEXTURE_2D, 0, 0, 0, 0, -1, 1,
          1)


# ============================================================================================
# pixel buffer objects
# ============================================================================================


def texture_width(t):
    value = ctypes.c_int32(-7)
    t.glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, ctypes.byref(value))
    return value.value


@probe("pbo")
def pbo_unpack_offset_zero(t):
    pattern = u8(*range(10, 74))
    t.buffer(GL_PIXEL_UNPACK_BUFFER, 64, pattern)
    tex = t.texture()
    t.rec("glTexImage2D", GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, 0)
    t.glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0)
    fb = t.gen("glGenFramebuffers")
    t.glBindFramebuffer(GL_FRAMEBUFFER, fb)
    t.glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0)
    t.ok()
    t.observe("pixel", t.pixel(1, 0))


@probe("pbo")
def pbo_unpack_offset_past_end(t):
    t.buffer(GL_PIXEL_UNPACK_BUFFER, 16)
    t.texture()
    t.rec("glTexImage2D", GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, 0)
    t.observe("width", texture_width(t))
    t.glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0)
    t.glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, None)
    t.glBindBuffer(GL_PIXEL_UNPACK_BUFFER, t.gen("glGenBuffers"))
    t.glBufferData(GL_PIXEL_UNPACK_BUFFER, 64, None, GL_STATIC_DRAW)
    t.ok()
    t.rec("glTexSubImage2D", GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, 4)
    t.rec("glTexSubImage2D", GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, 64)
    t.rec("glTexSubImage2D", GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, 60)


@probe("pbo")
def pbo_unpack_huge_offset(t):
    t.buffer(GL_PIXEL_UNPACK_BUFFER, 64)
    t.tex2d(4, 4)
    t.rec("glTexSubImage2D", GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, 1 << 62)
    t.rec("glTexSubImage2D", GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE,
          (1 << 64) - 16)


@probe("pbo")
def pbo_unpack_misaligned(t):
    t.buffer(GL_PIXEL_UNPACK_BUFFER, 256)
    t.tex2d(4, 4, GL_RGBA32F, GL_RGBA, GL_FLOAT)
    t.rec("glTexSubImage2D", GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, GL_FLOAT, 2)
    t.rec("glTexSubImage2D", GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, GL_FLOAT, 4)
    t.rec("glTexSubImage2D", GL_TEXTURE_2D, 0, 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_SHORT, 1)


@probe("pbo")
def pbo_unpack_address_offset(t):
    """A real client address passed as the offset into a bound unpack buffer."""
    t.buffer(GL_PIXEL_UNPACK_BUFFER, 64)
    t.texture()
    client = filled(64, 0x5A)
    t.rec("glTexImage2D", GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE,
          ctypes.addressof(client))
    t.observe("width", texture_width(t))
    t.expect("client_unchanged", unchanged(client, 0x5A), True)


@probe("pbo")
def pbo_unpack_mapped(t):
    t.buffer(GL_PIXEL_UNPACK_BUFFER, 64)
    t.tex2d(4, 4)
    t.glMapBufferRange(GL_PIXEL_UNPACK_BUFFER, 0, 64, GL_MAP_WRITE_BIT)
    t.ok()
    t.rec("glTexSubImage2D", GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, 0)


@probe("pbo")
def pbo_unpack_skip_rows_past_end(t):
    t.buffer(GL_PIXEL_UNPACK_BUFFER, 64)
    t.tex2d(4, 4)
    t.glPixelStorei(GL_UNPACK_SKIP_ROWS, 4)
    t.ok()
    t.rec("glTexSubImage2D", GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, 0)
    t.glPixelStorei(GL_UNPACK_SKIP_ROWS, 0)
    t.glPixelStorei(GL_UNPACK_ROW_LENGTH, 100)
    t.ok()
    t.rec("glTexSubImage2D", GL_TEXTURE_2D, 0, 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, 0)


@probe("pbo")
def pbo_unpack_3d_image_height_past_end(t):
    t.buffer(GL_PIXEL_UNPACK_BUFFER, 256)
    t.texture(GL_TEXTURE_3D)
    t.glPixelStorei(GL_UNPACK_IMAGE_HEIGHT, 64)
    t.ok()
    t.rec("glTexImage3D", GL_TEXTURE_3D, 0, GL_RGBA8, 4, 4, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, 0)


@probe("pbo")
def pbo_unpack_compressed_past_end(t):
    t.buffer(GL_PIXEL_UNPACK_BUFFER, 4)
    t.texture()
    t.rec("glCompressedTexImage2D", GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 4, 4, 0, 8, 0)
    t.rec("glCompressedTexImage2D", GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 4, 4, 0, 8, 1 << 40)


@probe("pbo")
def pbo_pack_offset_zero(t):
    t.glClearColor(1, 0, 0, 1)
    t.glClear(GL_COLOR_BUFFER_BIT)
    t.buffer(GL_PIXEL_PACK_BUFFER, 128, None, GL_STREAM_DRAW)
    t.rec("glReadPixels", 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, 0)
    t.rec("glReadPixels", 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, 64)
    t.observe("first", t.read_buffer_bytes(GL_PIXEL_PACK_BUFFER, 0, 4))
    t.observe("second", t.read_buffer_bytes(GL_PIXEL_PACK_BUFFER, 124, 4))


@probe("pbo")
def pbo_pack_offset_past_end(t):
    t.buffer(GL_PIXEL_PACK_BUFFER, 64, None, GL_STREAM_DRAW)
    t.rec("glReadPixels", 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, 4)
    t.rec("glReadPixels", 0, 0, 8, 8, GL_RGBA, GL_UNSIGNED_BYTE, 0)
    t.rec("glReadPixels", 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, 64)
    t.rec("glReadPixels", 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, 1 << 62)


@probe("pbo")
def pbo_pack_misaligned(t):
    t.buffer(GL_PIXEL_PACK_BUFFER, 256, None, GL_STREAM_DRAW)
    t.rec("glReadPixels", 0, 0, 1, 1, GL_RGBA, GL_FLOAT, 2)
    t.rec("glReadPixels", 0, 0, 1, 1, GL_RGBA, GL_FLOAT, 4)
    t.rec("glReadPixels", 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_SHORT, 3)


@probe("pbo")
def pbo_pack_address_offset(t):
    """A real client address passed as the offset into a bound pack buffer: the error is
    INVALID_OPERATION and the client memory at that address must stay untouched."""
    t.glClearColor(0, 1, 0, 1)
    t.glClear(GL_COLOR_BUFFER_BIT)
    t.buffer(GL_PIXEL_PACK_BUFFER, 64, None, GL_STREAM_DRAW)
    client = filled(64, 0xA5)
    t.rec("glReadPixels", 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, ctypes.addressof(client))
    t.glFinish()
    t.expect("client_unchanged", unchanged(client, 0xA5), True)


@probe("pbo")
def pbo_get_tex_image_address_offset(t):
    t.tex2d(4, 4, data=filled(64, 0x33))
    t.buffer(GL_PIXEL_PACK_BUFFER, 64, None, GL_STREAM_DRAW)
    client = filled(64, 0xA5)
    t.rec("glGetTexImage", GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, ctypes.addressof(client))
    t.glFinish()
    t.expect("client_unchanged", unchanged(client, 0xA5), True)
    t.rec("glGetTexImage", GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, 8)  # past the end
    t.rec("glGetTexImage", GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, 0)
    t.observe("packed", t.read_buffer_bytes(GL_PIXEL_PACK_BUFFER, 60, 4))


@probe("pbo")
def pbo_pack_mapped(t):
    t.buffer(GL_PIXEL_PACK_BUFFER, 64, None, GL_STREAM_DRAW)
    t.glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, 64, GL_MAP_READ_BIT)
    t.ok()
    t.rec("glReadPixels", 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, 0)
    t.tex2d(4, 4)
    t.rec("glGetTexImage", GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, 0)


@probe("pbo")
def pbo_pack_row_length_past_end(t):
    t.buffer(GL_PIXEL_PACK_BUFFER, 64, None, GL_STREAM_DRAW)
    t.glPixelStorei(GL_PACK_ROW_LENGTH, 64)
    t.ok()
    t.rec("glReadPixels", 0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, 0)
    t.glPixelStorei(GL_PACK_ROW_LENGTH, 0)
    t.glPixelStorei(GL_PACK_SKIP_PIXELS, 13)
    t.ok()
    t.rec("glReadPixels", 0, 0, 4, 1, GL_RGBA, GL_UNSIGNED_BYTE, 0)


@probe("pbo")
def pbo_unbound_after_delete(t):
    """Deleting the bound pack buffer unbinds it: a later offset is a client pointer again."""
    buf = t.buffer(GL_PIXEL_PACK_BUFFER, 64, None, GL_STREAM_DRAW)
    names = (ctypes.c_uint32 * 1)(buf)
    t.rec("glDeleteBuffers", 1, names)
    t.glClearColor(0, 0, 1, 1)
    t.glClear(GL_COLOR_BUFFER_BIT)
    t.ok()
    out = filled(16, 0)
    t.rec("glReadPixels", 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, out)
    t.observe("pixel", list(out[:4]))


# ============================================================================================
# framebuffers and renderbuffers
# ============================================================================================


def fb_status(t, target=GL_FRAMEBUFFER):
    status = t.rec("glCheckFramebufferStatus", target)
    return g.FRAMEBUFFER_STATUS_NAMES.get(status, hex(status))


@probe("framebuffers")
def bind_framebuffer_bad(t):
    t.rec("glBindFramebuffer", BOGUS, 0)
    t.rec("glBindFramebuffer", GL_FRAMEBUFFER, 31337)
    t.rec("glBindRenderbuffer", BOGUS, 0)
    t.rec("glBindRenderbuffer", GL_RENDERBUFFER, 31337)
    names = (ctypes.c_uint32 * 1)()
    t.rec("glGenFramebuffers", -1, names)
    t.rec("glGenRenderbuffers", -1, names)
    t.rec("glDeleteFramebuffers", -1, names)


@probe("framebuffers")
def framebuffer_texture_bad_attachment(t):
    tex = t.tex2d(4, 4)
    fb = t.gen("glGenFramebuffers")
    t.glBindFramebuffer(GL_FRAMEBUFFER, fb)
    t.ok()
    limit = t.geti(GL_MAX_COLOR_ATTACHMENTS)
    t.rec("glFramebufferTexture2D", GL_FRAMEBUFFER, BOGUS, GL_TEXTURE_2D, tex, 0)
    t.rec("glFramebufferTexture2D", GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + limit, GL_TEXTURE_2D,
          tex, 0)
    t.rec("glFramebufferTexture2D", GL_FRAMEBUFFER, GL_BACK, GL_TEXTURE_2D, tex, 0)
    t.rec("glFramebufferTexture2D", BOGUS, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0)


@probe("framebuffers")
def framebuffer_texture_bad_texture(t):
    tex = t.tex2d(4, 4)
    cube = t.texture(GL_TEXTURE_CUBE_MAP)
    fb = t.gen("glGenFramebuffers")
    t.glBindFramebuffer(GL_FRAMEBUFFER, fb)
    t.ok()
    t.rec("glFramebufferTexture2D", GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 4444, 0)
    t.rec("glFramebufferTexture2D", GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
          GL_TEXTURE_CUBE_MAP_POSITIVE_X, tex, 0)
    t.rec("glFramebufferTexture2D", GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, cube, 0)
    t.rec("glFramebufferTexture2D", GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, -1)
    t.rec("glFramebufferTexture2D", GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 50)
    t.rec("glFramebufferTexture2D", GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, BOGUS, tex, 0)


@probe("framebuffers")
def framebuffer_attach_to_default(t):
    tex = t.tex2d(4, 4)
    rb = t.renderbuffer(GL_RGBA8)
    t.rec("glFramebufferTexture2D", GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0)
    t.rec("glFramebufferRenderbuffer", GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb)


@probe("framebuffers")
def framebuffer_renderbuffer_bad(t):
    rb = t.renderbuffer(GL_RGBA8)
    fb = t.gen("glGenFramebuffers")
    t.glBindFramebuffer(GL_FRAMEBUFFER, fb)
    t.ok()
    t.rec("glFramebufferRenderbuffer", GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, BOGUS, rb)
    t.rec("glFramebufferRenderbuffer", GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, 777)
    t.rec("glFramebufferRenderbuffer", GL_FRAMEBUFFER, BOGUS, GL_RENDERBUFFER, rb)
    fresh = t.gen("glGenRenderbuffers")  # generated, never bound: no object yet
    t.rec("glFramebufferRenderbuffer", GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
          fresh)


@probe("framebuffers")
def framebuffer_texture_layer_bad(t):
    t.texture(GL_TEXTURE_2D_ARRAY)
    tex = ctypes.c_int32(0)
    t.glGetIntegerv(0x8C1D, ctypes.byref(tex))  # GL_TEXTURE_BINDING_2D_ARRAY
    t.glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, 4, 4, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, None)
    fb = t.gen("glGenFramebuffers")
    t.glBindFramebuffer(GL_FRAMEBUFFER, fb)
    t.ok()
    t.rec("glFramebufferTextureLayer", GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex.value, 0, -1)
    t.rec("glFramebufferTextureLayer", GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex.value, 0, 100000)
    t.rec("glFramebufferTextureLayer", GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex.value, -1, 0)
    t.rec("glFramebufferTextureLayer", GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex.value, 0, 5)
    t.observe("status_layer_5", fb_status(t))
    plain = t.tex2d(4, 4)
    t.rec("glFramebufferTextureLayer", GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, plain, 0, 0)


@probe("framebuffers")
def framebuffer_status_incomplete(t):
    statuses = []
    fb = t.gen("glGenFramebuffers")
    t.glBindFramebuffer(GL_FRAMEBUFFER, fb)
    t.ok()
    statuses.append(fb_status(t))  # no attachments
    statuses.append(fb_status(t, BOGUS))
    empty = t.texture()
    t.glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, empty, 0)
    t.ok()
    statuses.append(fb_status(t))  # a texture with no image
    depth = t.tex2d(4, 4, GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT, GL_FLOAT)
    t.glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, depth, 0)
    t.ok()
    statuses.append(fb_status(t))  # depth in a colour attachment
    colour = t.tex2d(4, 4)
    t.glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, colour, 0)
    t.glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, colour, 0)
    t.ok()
    statuses.append(fb_status(t))  # colour in the depth attachment
    t.observe("statuses", statuses)


@probe("framebuffers")
def framebuffer_status_mixed_samples(t):
    fb = t.gen("glGenFramebuffers")
    t.glBindFramebuffer(GL_FRAMEBUFFER, fb)
    ms = t.renderbuffer(GL_RGBA8, samples=4)
    ss = t.renderbuffer(GL_DEPTH_COMPONENT24)
    t.glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, ms)
    t.glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, ss)
    t.ok()
    t.observe("status", fb_status(t))
    t.rec("glClear", GL_COLOR_BUFFER_BIT)
    out = filled(16, 0xA5)
    t.rec("glReadPixels", 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, out)
    t.expect("client_unchanged", unchanged(out, 0xA5), True)


@probe("framebuffers")
def framebuffer_incomplete_operations(t):
    fb = t.gen("glGenFramebuffers")
    t.glBindFramebuffer(GL_FRAMEBUFFER, fb)
    t.ok()
    out = filled(16, 0xA5)
    t.rec("glReadPixels", 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, out)
    t.rec("glClear", GL_COLOR_BUFFER_BIT)
    t.rec("glClearBufferfv", GL_COLOR, 0, (ctypes.c_float * 4)(1, 1, 1, 1))
    t.texture()
    t.rec("glCopyTexImage2D", GL_TEXTURE_2D, 0, GL_RGBA8, 0, 0, 4, 4, 0)
    t.expect("client_unchanged", unchanged(out, 0xA5), True)


@probe("framebuffers")
def renderbuffer_storage_bad(t):
    t.rec("glRenderbufferStorage", GL_RENDERBUFFER, GL_RGBA8, 4, 4)  # none bound
    t.renderbuffer(GL_RGBA8)
    t.rec("glRenderbufferStorage", GL_RENDERBUFFER, GL_RGBA8, -1, 4)
    t.rec("glRenderbufferStorage", GL_RENDERBUFFER, GL_RGBA8, 1 << 20, 4)
    t.rec("glRenderbufferStorage", GL_RENDERBUFFER, BOGUS, 4, 4)
    t.rec("glRenderbufferStorage", GL_RENDERBUFFER, GL_RGBA, 4, 4)  # unsized is fine
    t.rec("glRenderbufferStorage", GL_RENDERBUFFER, GL_COMPRESSED_RED_RGTC1, 4, 4)
    t.rec("glRenderbufferStorage", BOGUS, GL_RGBA8, 4, 4)


@probe("framebuffers")
def renderbuffer_storage_multisample_bad(t):
    t.renderbuffer(GL_RGBA8)
    samples = t.geti(GL_MAX_SAMPLES)
    int_samples = t.geti(GL_MAX_INTEGER_SAMPLES)
    t.rec("glRenderbufferStorageMultisample", GL_RENDERBUFFER, samples + 1, GL_RGBA8, 4, 4)
    t.rec("glRenderbufferStorageMultisample", GL_RENDERBUFFER, int_samples + 1, GL_RGBA32UI, 4, 4)
    t.rec("glRenderbufferStorageMultisample", GL_RENDERBUFFER, -1, GL_RGBA8, 4, 4)
    t.rec("glRenderbufferStorageMultisample", GL_RENDERBUFFER, 4, GL_RGBA8, -4, 4)


def two_framebuffers(t, src_args=(), dst_args=()):
    src, _ = t.fbo(*src_args)
    dst, _ = t.fbo(*dst_args)
    t.glBindFramebuffer(GL_READ_FRAMEBUFFER, src)
    t.glBindFramebuffer(GL_DRAW_FRAMEBUFFER, dst)
    t.ok()


@probe("framebuffers")
def blit_bad_filter_and_mask(t):
    two_framebuffers(t)
    t.rec("glBlitFramebuffer", 0, 0, 4, 4, 0, 0, 4, 4, GL_COLOR_BUFFER_BIT, BOGUS)
    t.rec("glBlitFramebuffer", 0, 0, 4, 4, 0, 0, 4, 4, 0x1, GL_NEAREST)
    t.rec("glBlitFramebuffer", 0, 0, 4, 4, 0, 0, 4, 4, 0xFFFFFFFF, GL_NEAREST)
    t.rec("glBlitFramebuffer", 0, 0, 4, 4, 0, 0, 4, 4, GL_DEPTH_BUFFER_BIT, GL_LINEAR)
    t.rec("glBlitFramebuffer", 0, 0, 4, 4, 0, 0, 4, 4, GL_STENCIL_BUFFER_BIT, GL_LINEAR)
    t.rec("glBlitFramebuffer", 0, 0, 4, 4, 0, 0, 4, 4, 0, GL_NEAREST)


@probe("framebuffers")
def blit_integer_linear(t):
    args = (4, 4, GL_RGBA32UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT)
    two_framebuffers(t, args, args)
    t.rec("glBlitFramebuffer", 0, 0, 4, 4, 0, 0, 4, 4, GL_COLOR_BUFFER_BIT, GL_LINEAR)
    t.rec("glBlitFramebuffer", 0, 0, 4, 4, 0, 0, 4, 4, GL_COLOR_BUFFER_BIT, GL_NEAREST)
    normalized = t.tex2d(4, 4)
    t.glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, normalized,
                             0)
    t.ok()
    t.rec("glBlitFramebuffer", 0, 0, 4, 4, 0, 0, 4, 4, GL_COLOR_BUFFER_BIT, GL_NEAREST)


@probe("framebuffers")
def blit_depth_mismatch(t):
    two_framebuffers(t)
    d24 = t.renderbuffer(GL_DEPTH_COMPONENT24)
    d24s8 = t.renderbuffer(GL_DEPTH24_STENCIL8)
    t.glFramebufferRenderbuffer(GL_READ_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, d24)
    t.glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
                                d24s8)
    t.ok()
    t.rec("glBlitFramebuffer", 0, 0, 4, 4, 0, 0, 4, 4, GL_DEPTH_BUFFER_BIT, GL_NEAREST)
    t.rec("glBlitFramebuffer", 0, 0, 4, 4, 0, 0, 4, 4, GL_STENCIL_BUFFER_BIT, GL_NEAREST)


@probe("framebuffers")
def blit_multisample_scaled(t):
    dst, _ = t.fbo()
    src = t.gen("glGenFramebuffers")
    t.glBindFramebuffer(GL_READ_FRAMEBUFFER, src)
    ms = t.renderbuffer(GL_RGBA8, samples=4)
    t.glFramebufferRenderbuffer(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, ms)
    t.glBindFramebuffer(GL_DRAW_FRAMEBUFFER, dst)
    t.ok()
    t.rec("glBlitFramebuffer", 0, 0, 4, 4, 0, 0, 2, 2, GL_COLOR_BUFFER_BIT, GL_NEAREST)
    t.rec("glBlitFramebuffer", 0, 0, 4, 4, 1, 1, 5, 5, GL_COLOR_BUFFER_BIT, GL_NEAREST)
    t.rec("glBlitFramebuffer", 0, 0, 4, 4, 0, 0, 4, 4, GL_COLOR_BUFFER_BIT, GL_NEAREST)


@probe("framebuffers")
def blit_hostile_rectangles(t):
    two_framebuffers(t)
    big = 0x7FFFFFFF
    t.rec("glBlitFramebuffer", -big, -big, big, big, 0, 0, 4, 4, GL_COLOR_BUFFER_BIT, GL_NEAREST)
    t.rec("glBlitFramebuffer", 0, 0, 4, 4, big, big, -big, -big, GL_COLOR_BUFFER_BIT, GL_NEAREST)
    t.rec("glBlitFramebuffer", 0, 0, 0, 0, 0, 0, 4, 4, GL_COLOR_BUFFER_BIT, GL_LINEAR)
    t.glFinish()


@probe("framebuffers")
def draw_buffers_bad(t):
    t.fbo()
    limit = t.geti(GL_MAX_DRAW_BUFFERS)
    bufs = (ctypes.c_uint32 * (limit + 1))(*([GL_NONE] * (limit + 1)))
    t.rec("glDrawBuffers", limit + 1, bufs)
    t.rec("glDrawBuffers", -1, bufs)
    bufs[0] = BOGUS
    t.rec("glDrawBuffers", 1, bufs)
    bufs[0] = GL_BACK
    t.rec("glDrawBuffers", 1, bufs)
    bufs[0] = bufs[1] = GL_COLOR_ATTACHMENT0
    t.rec("glDrawBuffers", 2, bufs)
    bufs[0] = GL_COLOR_ATTACHMENT0 + t.geti(GL_MAX_COLOR_ATTACHMENTS)
    t.rec("glDrawBuffers", 1, bufs)
    t.rec("glDrawBuffer", GL_BACK)
    t.rec("glDrawBuffer", BOGUS)


@probe("framebuffers")
def draw_buffer_default_framebuffer(t):
    t.rec("glDrawBuffer", GL_COLOR_ATTACHMENT0)
    bufs = (ctypes.c_uint32 * 2)(GL_BACK_LEFT, GL_BACK_LEFT)
    t.rec("glDrawBuffers", 2, bufs)
    bufs[0] = GL_FRONT_AND_BACK
    t.rec("glDrawBuffers", 1, bufs)
    t.rec("glReadBuffer", GL_COLOR_ATTACHMENT0)
    t.rec("glReadBuffer", BOGUS)


@probe("framebuffers")
def read_buffer_bad_in_fbo(t):
    t.fbo()
    t.rec("glReadBuffer", GL_BACK)
    t.rec("glReadBuffer", GL_COLOR_ATTACHMENT0 + t.geti(GL_MAX_COLOR_ATTACHMENTS))
    t.rec("glReadBuffer", GL_COLOR_ATTACHMENT0 + 1)  # valid enum, nothing attached
    out = filled(16, 0xA5)
    t.rec("glReadPixels", 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, out)
    t.rec("glReadBuffer", GL_NONE)
    t.rec("glReadPixels", 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, out)
    t.expect("client_unchanged", unchanged(out, 0xA5), True)


@probe("framebuffers")
def framebuffer_attachment_parameter_bad(t):
    t.fbo()
    value = ctypes.c_int32(-7)
    t.rec("glGetFramebufferAttachmentParameteriv", GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, BOGUS,
          ctypes.byref(value))
    t.rec("glGetFramebufferAttachmentParameteriv", GL_FRAMEBUFFER, BOGUS,
          GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, ctypes.byref(value))
    t.rec("glGetFramebufferAttachmentParameteriv", GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT,
          GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL, ctypes.byref(value))  # nothing attached
    t.rec("glGetFramebufferAttachmentParameteriv", GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT,
          GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, ctypes.byref(value))
    t.observe("name_of_none", value.value)
    t.rec("glGetFramebufferAttachmentParameteriv", BOGUS, GL_COLOR_ATTACHMENT0,
          GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, ctypes.byref(value))


@probe("framebuffers")
def delete_bound_framebuffer(t):
    fb, tex = t.fbo()
    names = (ctypes.c_uint32 * 1)(fb)
    t.rec("glDeleteFramebuffers", 1, names)
    binding = ctypes.c_int32(-7)
    t.glGetIntegerv(0x8CA6, ctypes.byref(binding))  # GL_DRAW_FRAMEBUFFER_BINDING
    t.observe("binding", binding.value)
    texnames = (ctypes.c_uint32 * 1)(tex)
    t.rec("glDeleteTextures", 1, texnames)
    t.rec("glClear", GL_COLOR_BUFFER_BIT)
    t.rec("glBindFramebuffer", GL_FRAMEBUFFER, fb)


@probe("framebuffers")
def delete_attached_texture(t):
    fb, tex = t.fbo()
    texnames = (ctypes.c_uint32 * 1)(tex)
    t.rec("glDeleteTextures", 1, texnames)
    t.observe("status", fb_status(t))
    t.rec("glClear", GL_COLOR_BUFFER_BIT)
    t.glFinish()


# ============================================================================================
# shaders and programs
# ============================================================================================


@probe("shaders")
def create_shader_bad_type(t):
    t.observe("name", t.rec("glCreateShader", BOGUS))
    t.observe("name_geometry_ok", t.rec("glCreateShader", 0x8DD9) != 0)


@probe("shaders")
def shader_source_bad(t):
    shader = t.glCreateShader(GL_VERTEX_SHADER)
    prog = t.glCreateProgram()
    t.ok()
    strings = (ctypes.c_char_p * 2)(b"void main() {}", None)
    t.rec("glShaderSource", shader, -1, strings, None)
    t.rec("glShaderSource", prog, 1, strings, None)
    t.rec("glShaderSource", 9999, 1, strings, None)
    t.rec("glShaderSource", shader, 2, strings, None)  # a NULL string in the array
    t.rec("glShaderSource", shader, 1, None, None)  # a NULL array


@probe("shaders")
def shader_source_negative_lengths(t):
    shader = t.glCreateShader(GL_VERTEX_SHADER)
    t.ok()
    strings = (ctypes.c_char_p * 2)(b"#version 330 core\n", b"void main() {}xxxxxxxx")
    lengths = (ctypes.c_int32 * 2)(-1, 14)
    t.rec("glShaderSource", shader, 2, strings, lengths)
    t.rec("glCompileShader", shader)
    status = ctypes.c_int32(-1)
    t.glGetShaderiv(shader, GL_COMPILE_STATUS, ctypes.byref(status))
    t.observe("compiled", status.value)
    length = ctypes.c_int32(-1)
    t.glGetShaderiv(shader, 0x8B88, ctypes.byref(length))  # GL_SHADER_SOURCE_LENGTH
    t.observe("source_length", length.value)


@probe("shaders")
def compile_and_link_bad_names(t):
    shader = t.glCreateShader(GL_VERTEX_SHADER)
    prog = t.glCreateProgram()
    t.ok()
    t.rec("glCompileShader", 9999)
    t.rec("glCompileShader", prog)
    t.rec("glLinkProgram", 9999)
    t.rec("glLinkProgram", shader)
    t.rec("glValidateProgram", 9999)
    t.rec("glDeleteShader", 9999)
    t.rec("glDeleteProgram", 9999)
    t.rec("glDeleteShader", 0)
    t.rec("glDeleteProgram", 0)
    t.rec("glDeleteShader", prog)


@probe("shaders")
def info_log_negative_bufsize(t):
    shader, _ = t.shader(GL_VERTEX_SHADER, "#version 330 core\nsyntax error here\n")
    out = filled(64, 0xA5)
    length = ctypes.c_int32(-7)
    t.rec("glGetShaderInfoLog", shader, -1, ctypes.byref(length), out)
    t.rec("glGetShaderInfoLog", shader, -(1 << 31), ctypes.byref(length), out)
    t.expect("client_unchanged", [unchanged(out, 0xA5), length.value], [True, -7])
    t.rec("glGetShaderInfoLog", shader, 0, ctypes.byref(length), out)
    t.expect("zero_bufsize_writes_nothing", [unchanged(out, 0xA5), length.value], [True, 0])


@probe("shaders")
def shader_source_negative_bufsize(t):
    shader, _ = t.shader(GL_VERTEX_SHADER, VS_POS)
    out = filled(64, 0xA5)
    length = ctypes.c_int32(-7)
    t.rec("glGetShaderSource", shader, -1, ctypes.byref(length), out)
    t.expect("client_unchanged", [unchanged(out, 0xA5), length.value], [True, -7])
    t.rec("glGetShaderSource", shader, 4, ctypes.byref(length), out)
    t.observe("truncated", [length.value] + list(out[:5]))


@probe("shaders")
def program_info_log_negative_bufsize(t):
    prog, _ = t.program(VS_POS, "#version 330 core\nout vec4 c;\nvoid main() { c = undefined; }\n")
    shader = t.glCreateShader(GL_VERTEX_SHADER)
    t.ok()
    untouched = []
    for fn, name, size in (("glGetProgramInfoLog", prog, -1), ("glGetProgramInfoLog", 9999, 64),
                           ("glGetProgramInfoLog", shader, 64), ("glGetShaderInfoLog", prog, 64)):
        out = filled(64, 0xA5)
        length = ctypes.c_int32(-7)
        t.rec(fn, name, size, ctypes.byref(length), out)
        untouched.append(unchanged(out, 0xA5) and length.value == -7)
    t.expect("client_unchanged", untouched, [True] * 4)


@probe("shaders")
def get_shader_and_program_iv_bad(t):
    shader = t.glCreateShader(GL_VERTEX_SHADER)
    prog = t.glCreateProgram()
    t.ok()
    untouched = []
    for fn, name, pname in (("glGetShaderiv", shader, BOGUS),
                            ("glGetShaderiv", prog, GL_COMPILE_STATUS),
                            ("glGetShaderiv", 9999, GL_COMPILE_STATUS),
                            ("glGetProgramiv", prog, BOGUS),
                            ("glGetProgramiv", shader, GL_LINK_STATUS),
                            ("glGetProgramiv", prog, GL_COMPILE_STATUS)):
        value = ctypes.c_int32(-7)
        t.rec(fn, name, pname, ctypes.byref(value))
        untouched.append(value.value == -7)
    t.expect("value_unchanged", untouched, [True] * 6)


@probe("shaders")
def attach_detach_bad(t):
    vs = t.glCreateShader(GL_VERTEX_SHADER)
    vs2 = t.glCreateShader(GL_VERTEX_SHADER)
    prog = t.glCreateProgram()
    t.ok()
    t.rec("glAttachShader", prog, vs)
    t.rec("glAttachShader", prog, vs)  # twice
    t.rec("glAttachShader", prog, vs2)  # a second vertex shader is allowed
    t.rec("glAttachShader", vs, prog)  # swapped
    t.rec("glAttachShader", prog, 9999)
    t.rec("glDetachShader", prog, 9999)
    fs = t.glCreateShader(GL_FRAGMENT_SHADER)
    t.ok()
    t.rec("glDetachShader", prog, fs)  # not attached
    count = ctypes.c_int32(-7)
    names = (ctypes.c_uint32 * 4)()
    t.rec("glGetAttachedShaders", prog, -1, ctypes.byref(count), names)
    t.rec("glGetAttachedShaders", prog, 4, ctypes.byref(count), names)
    t.observe("attached", count.value)


@probe("shaders")
def use_program_bad(t):
    prog, _ = t.program(VS_ATTRIBLESS, FS_RED, link=False)
    t.rec("glUseProgram", prog)  # never linked
    t.rec("glUseProgram", 9999)
    shader = t.glCreateShader(GL_VERTEX_SHADER)
    t.ok()
    t.rec("glUseProgram", shader)


@probe("shaders")
def link_failures(t):
    empty = t.glCreateProgram()
    t.ok()
    t.rec("glLinkProgram", empty)
    status = ctypes.c_int32(-1)
    t.glGetProgramiv(empty, GL_LINK_STATUS, ctypes.byref(status))
    broken, linked = t.program(VS_ATTRIBLESS, "#version 330 core\nvoid main( {\n")
    t.observe("empty_linked", status.value)
    t.observe("broken_linked", linked)
    fs_only, linked = t.program("#version 330 core\nin vec4 nothing;\nvoid main(){}", FS_RED)
    t.observe("fs_only_linked", linked)


def compiles(t, *version_lines):
    """Whether a trivial vertex shader compiles under each `#version` line."""
    results = []
    for line in version_lines:
        _, ok = t.shader(GL_VERTEX_SHADER, line + "\nvoid main() { gl_Position = vec4(0.0); }\n")
        results.append(ok)
    t.e("compiling")
    return results


@probe("shaders")
def version_minus_one(t):
    t.expect("compiled", compiles(t, "#version -1", "#version -330"), [False, False])


@probe("shaders")
def version_wraps_32_bits(t):
    """2^32 + 1 and 2^32 + 330 must not wrap to versions 1 and 330 (llvmpipe accepts the
    second as 330)."""
    t.expect("compiled", compiles(t, "#version 4294967297", "#version 4294967626 core"),
             [False, False])


@probe("shaders")
def version_460(t):
    t.expect("compiled", compiles(t, "#version 460 core"), [False])


@probe("shaders")
def version_garbage(t):
    t.expect("compiled", compiles(t, "#version 330 banana", "#version", "#version 0x14A",
                                  "#version 330 core core", "#version 99999999999999999999999"),
             [False] * 5)


@probe("shaders")
def version_accepted_forms(t):
    t.observe("compiled", compiles(t, "#version 330", "#version 330 core", "  #  version  330",
                                   "#version 150"))


@probe("shaders")
def version_compatibility_in_core(t):
    t.observe("compiled", compiles(t, "#version 330 compatibility"))


@probe("shaders")
def version_not_first(t):
    _, ok = t.shader(GL_VERTEX_SHADER,
                     "float x;\n#version 330 core\nvoid main() { gl_Position = vec4(x); }\n")
    t.e("compiling")
    t.expect("compiled", ok, False)


def macro_bomb_source(levels):
    """Macros doubling at each level: 2^levels tokens (not valid GLSL) if expanded."""
    lines = ["#version 330 core", "#define A0 x"]
    for i in range(1, levels + 1):
        lines.append("#define A%d A%d A%d" % (i, i - 1, i - 1))
    lines.append("float f() { return A%d; }" % levels)
    lines.append("void main() { gl_Position = vec4(0.0); }")
    return "\n".join(lines) + "\n"


@probe("shaders")
def macro_bomb(t):
    _, ok = t.shader(GL_VERTEX_SHADER, macro_bomb_source(16))
    t.e("compiling")
    t.observe("compiled", ok)


@probe("shaders", spec=["NO_ERROR"], skip_reference=True,
       why="llvmpipe (Mesa 22.3) expands every token: 2^24 already take it about 20 s")
def macro_bomb_exponential(t):
    _, ok = t.shader(GL_VERTEX_SHADER, macro_bomb_source(40))
    t.e("compiling")
    t.expect("compiled", ok, False)


@probe("shaders")
def macro_bomb_valid_expression(t):
    """A legitimate shader whose macros expand to 2^12 terms."""
    lines = ["#version 330 core", "#define A0 1.0"]
    for i in range(1, 13):
        lines.append("#define A%d (A%d + A%d)" % (i, i - 1, i - 1))
    lines.append("void main() { gl_Position = vec4(A12); }")
    _, ok = t.shader(GL_VERTEX_SHADER, "\n".join(lines) + "\n")
    t.e("compiling")
    t.observe("compiled", ok)


@probe("shaders")
def macro_self_reference(t):
    src = ("#version 330 core\n#define A B\n#define B A\n#define C C + 1.0\nfloat A;\n"
           "void main() { float C = 1.0; gl_Position = vec4(A + C); }\n")
    _, ok = t.shader(GL_VERTEX_SHADER, src)
    t.e("compiling")
    t.observe("compiled", ok)


NESTING_LIMITS = "nesting limits are the implementation's to choose: only survival is required"


@probe("shaders", spec="any", why=NESTING_LIMITS)
def preprocessor_deep_parentheses(t):
    src = ("#version 330 core\n#if " + "(" * 5000 + "1" + ")" * 5000 + "\n#endif\n"
           + "void main() { gl_Position = vec4(0.0); }\n")
    _, ok = t.shader(GL_VERTEX_SHADER, src)
    t.e("compiling")
    t.note("compiled", ok)


@probe("shaders", spec="any", why=NESTING_LIMITS)
def preprocessor_deep_if_nesting(t):
    src = ("#version 330 core\n" + "#if 1\n" * 500 + "#endif\n" * 500
           + "void main() { gl_Position = vec4(0.0); }\n")
    _, ok = t.shader(GL_VERTEX_SHADER, src)
    t.e("compiling")
    t.note("compiled", ok)


@probe("shaders", spec="any", why=NESTING_LIMITS)
def expression_deep_nesting(t):
    src = ("#version 330 core\nvoid main() { float x = " + "(" * 3000 + "1.0" + ")" * 3000
           + "; gl_Position = vec4(x); }\n")
    _, ok = t.shader(GL_VERTEX_SHADER, src)
    t.e("compiling")
    t.note("compiled", ok)


@probe("shaders")
def bind_attrib_location_bad(t):
    prog = t.glCreateProgram()
    t.ok()
    limit = t.geti(GL_MAX_VERTEX_ATTRIBS)
    t.rec("glBindAttribLocation", prog, limit, b"pos")
    t.rec("glBindAttribLocation", prog, 0, b"gl_Vertex")
    t.rec("glBindAttribLocation", 9999, 0, b"pos")


@probe("shaders")
def locations_on_unlinked_program(t):
    prog, _ = t.program(VS_POS, FS_RED, link=False)
    t.observe("attrib", t.rec("glGetAttribLocation", prog, b"pos"))
    t.observe("uniform", t.rec("glGetUniformLocation", prog, b"u"))
    t.observe("frag", t.rec("glGetFragDataLocation", prog, b"color"))
    t.observe("block", t.rec("glGetUniformBlockIndex", prog, b"B"))
    t.observe("bogus", t.rec("glGetUniformLocation", 9999, b"u"))


@probe("shaders")
def active_uniform_bad(t):
    prog = uniform_program(t)
    count = ctypes.c_int32(0)
    t.glGetProgramiv(prog, GL_ACTIVE_UNIFORMS, ctypes.byref(count))
    length, size, typ = ctypes.c_int32(-7), ctypes.c_int32(-7), ctypes.c_uint32(7)
    name = filled(64, 0xA5)
    t.rec("glGetActiveUniform", prog, count.value, 64, ctypes.byref(length), ctypes.byref(size),
          ctypes.byref(typ), name)
    t.rec("glGetActiveUniform", prog, 0, -1, ctypes.byref(length), ctypes.byref(size),
          ctypes.byref(typ), name)
    t.expect("client_unchanged", [unchanged(name, 0xA5), length.value, size.value, typ.value],
             [True, -7, -7, 7])
    t.rec("glUniformBlockBinding", prog, 0, 0)  # no uniform blocks
    t.rec("glUniformBlockBinding", prog, 0xFFFFFFFF, 0)


@probe("shaders")
def sampler_type_conflict(t):
    fs = ("#version 330 core\nuniform sampler2D a;\nuniform sampler3D b;\nout vec4 c;\n"
          "void main() { c = texture(a, vec2(0.0)) + texture(b, vec3(0.0)); }\n")
    prog, linked = t.program(VS_ATTRIBLESS, fs)
    t.observe("linked", linked)
    t.glUseProgram(prog)
    t.vao()
    t.ok()
    t.rec("glDrawArrays", GL_POINTS, 0, 1)  # both samplers on unit 0
    t.glValidateProgram(prog)
    status = ctypes.c_int32(-1)
    t.glGetProgramiv(prog, GL_VALIDATE_STATUS, ctypes.byref(status))
    t.observe("validate", status.value)
    t.glUniform1i(loc(t, prog, "b"), 1)
    t.ok()
    t.rec("glDrawArrays", GL_POINTS, 0, 1)
    t.glFinish()


@probe("shaders")
def sampler_unit_out_of_range(t):
    prog = uniform_program(t)
    units = t.geti(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS)
    t.rec("glUniform1i", loc(t, prog, "us"), units)
    t.rec("glUniform1i", loc(t, prog, "us"), -1)
    t.rec("glUniform1f", loc(t, prog, "us"), 0.0)


# ============================================================================================
# uniforms
# ============================================================================================


@probe("uniforms")
def uniform_wrong_type_setter(t):
    prog = uniform_program(t)
    t.rec("glUniform1f", loc(t, prog, "ui"), 1.0)
    t.rec("glUniform1i", loc(t, prog, "uf"), 1)
    t.rec("glUniform1ui", loc(t, prog, "ui"), 1)
    t.rec("glUniform1i", loc(t, prog, "uu"), 1)
    t.rec("glUniform4f", loc(t, prog, "uv3"), 1, 2, 3, 4)
    t.rec("glUniform3f", loc(t, prog, "uv4"), 1, 2, 3)
    t.rec("glUniformMatrix4fv", loc(t, prog, "uv4"), 1, 0, (ctypes.c_float * 16)())
    t.rec("glUniform4f", loc(t, prog, "um"), 1, 2, 3, 4)


@probe("uniforms")
def uniform_bool_accepts_all(t):
    prog = uniform_program(t)
    where = loc(t, prog, "ub")
    t.rec("glUniform1f", where, 1.0)
    t.rec("glUniform1i", where, 1)
    t.rec("glUniform1ui", where, 1)
    t.rec("glUniform4f", where, 1, 1, 1, 1)


@probe("uniforms")
def uniform_bad_location(t):
    prog = uniform_program(t)
    t.rec("glUniform1f", -1, 1.0)  # silently ignored
    t.rec("glUniform1f", 9999, 1.0)
    t.rec("glUniform1f", -2, 1.0)
    t.rec("glUniform1fv", 0x7FFFFFFF, 1, (ctypes.c_float * 1)(1))
    out = (ctypes.c_float * 16)(*([-7.0] * 16))
    t.rec("glGetUniformfv", prog, 9999, out)
    t.rec("glGetUniformfv", prog, -1, out)
    t.expect("client_unchanged", all(v == -7.0 for v in out), True)


@probe("uniforms")
def uniform_count_on_non_array(t):
    prog = uniform_program(t)
    values = (ctypes.c_float * 64)()
    t.rec("glUniform1fv", loc(t, prog, "uf"), 2, values)
    t.rec("glUniform1fv", loc(t, prog, "uf"), -1, values)
    t.rec("glUniform1fv", loc(t, prog, "ua"), 10, values)  # clamped to the array
    t.rec("glUniform1fv", loc(t, prog, "ua[3]"), 2, values)
    t.rec("glUniform1fv", loc(t, prog, "ua[4]"), 1, values)
    t.observe("ua4_location", loc(t, prog, "ua[4]"))
    t.rec("glUniformMatrix4fv", loc(t, prog, "um"), 2, 0, values)
    t.rec("glUniformMatrix4fv", loc(t, prog, "um"), 1, 1, values)  # transpose is allowed


@probe("uniforms")
def uniform_without_program(t):
    t.rec("glUniform1f", 0, 1.0)
    t.rec("glUniform1f", -1, 1.0)
    prog = uniform_program(t)
    other, _ = t.program(VS_ATTRIBLESS, FS_RED)
    t.glUseProgram(other)
    t.ok()
    t.rec("glUniform1f", loc(t, prog, "uv4"), 1.0)


@probe("uniforms")
def uniform_after_failed_relink(t):
    prog = uniform_program(t)
    where = loc(t, prog, "uf")
    shader, _ = t.shader(GL_FRAGMENT_SHADER, "#version 330 core\nbroken(\n")
    t.glAttachShader(prog, shader)
    t.ok()
    t.rec("glLinkProgram", prog)  # fails; the old executable stays in use
    t.rec("glUniform1f", where, 1.0)
    t.rec("glUseProgram", prog)


# ============================================================================================
# queries and syncs
# ============================================================================================


def query(t):
    return t.gen("glGenQueries")


@probe("queries")
def begin_query_bad(t):
    q = query(t)
    t.rec("glBeginQuery", BOGUS, q)
    t.rec("glBeginQuery", GL_SAMPLES_PASSED, 0)
    t.rec("glBeginQuery", GL_TIMESTAMP, q)
    t.rec("glBeginQuery", GL_SAMPLES_PASSED, q)
    t.rec("glBeginQuery", GL_SAMPLES_PASSED, q)  # twice
    t.rec("glBeginQuery", GL_ANY_SAMPLES_PASSED, q)  # the same query on another target
    t.rec("glEndQuery", GL_SAMPLES_PASSED)
    t.rec("glEndQuery", GL_SAMPLES_PASSED)  # not active
    t.rec("glEndQuery", BOGUS)


@probe("queries")
def query_target_mismatch(t):
    q = query(t)
    t.glBeginQuery(GL_SAMPLES_PASSED, q)
    t.glEndQuery(GL_SAMPLES_PASSED)
    t.ok()
    t.rec("glBeginQuery", GL_TIME_ELAPSED, q)
    t.rec("glQueryCounter", q, GL_TIMESTAMP)
    t.rec("glQueryCounter", q, GL_TIME_ELAPSED)
    t.rec("glBeginQuery", GL_SAMPLES_PASSED, 31337)  # never generated


@probe("queries")
def get_query_object_bad(t):
    q = query(t)
    value = ctypes.c_int32(-7)
    t.rec("glGetQueryObjectiv", q, GL_QUERY_RESULT, ctypes.byref(value))  # never begun
    t.rec("glGetQueryObjectiv", 31337, GL_QUERY_RESULT, ctypes.byref(value))
    t.glBeginQuery(GL_SAMPLES_PASSED, q)
    t.ok()
    t.rec("glGetQueryObjectiv", q, GL_QUERY_RESULT, ctypes.byref(value))  # active
    t.glEndQuery(GL_SAMPLES_PASSED)
    t.ok()
    t.rec("glGetQueryObjectiv", q, BOGUS, ctypes.byref(value))
    t.rec("glGetQueryObjectiv", q, GL_QUERY_RESULT, ctypes.byref(value))
    t.observe("result", value.value)


@probe("queries")
def get_queryiv_bad(t):
    value = ctypes.c_int32(-7)
    t.rec("glGetQueryiv", BOGUS, GL_CURRENT_QUERY, ctypes.byref(value))
    t.rec("glGetQueryiv", GL_SAMPLES_PASSED, BOGUS, ctypes.byref(value))
    t.rec("glGetQueryiv", GL_TIMESTAMP, GL_CURRENT_QUERY, ctypes.byref(value))
    t.rec("glQueryCounter", query(t), BOGUS)
    names = (ctypes.c_uint32 * 1)()
    t.rec("glGenQueries", -1, names)
    t.rec("glDeleteQueries", -1, names)


@probe("queries")
def delete_active_query(t):
    q = query(t)
    t.glBeginQuery(GL_SAMPLES_PASSED, q)
    t.ok()
    names = (ctypes.c_uint32 * 1)(q)
    t.rec("glDeleteQueries", 1, names)
    t.rec("glEndQuery", GL_SAMPLES_PASSED)


@probe("queries")
def conditional_render_bad(t):
    q = query(t)
    t.rec("glBeginConditionalRender", q, GL_QUERY_WAIT)  # query never run
    t.glBeginQuery(GL_SAMPLES_PASSED, q)
    t.glEndQuery(GL_SAMPLES_PASSED)
    t.ok()
    t.rec("glBeginConditionalRender", q, BOGUS)
    t.rec("glBeginConditionalRender", 31337, GL_QUERY_WAIT)
    t.rec("glEndConditionalRender")  # not active
    t.rec("glBeginConditionalRender", q, GL_QUERY_WAIT)
    t.rec("glBeginConditionalRender", q, GL_QUERY_WAIT)  # twice
    t.rec("glBeginQuery", GL_SAMPLES_PASSED, q)  # the condition's query while in use
    t.rec("glEndConditionalRender")


def fence(t):
    sync = t.glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0)
    t.ok()
    return sync


@probe("syncs")
def fence_sync_bad(t):
    t.observe("null", [
        t.rec("glFenceSync", BOGUS, 0) is None,
        t.rec("glFenceSync", GL_SYNC_GPU_COMMANDS_COMPLETE, 1) is None,
    ])


@probe("syncs")
def client_wait_sync_bad_flags(t):
    sync = fence(t)
    results = [
        t.rec("glClientWaitSync", sync, 0x2, 0),
        t.rec("glClientWaitSync", sync, 0xFFFFFFFF, 0),
        t.rec("glClientWaitSync", sync, GL_SYNC_FLUSH_COMMANDS_BIT, 1000000000),
    ]
    # ALREADY_SIGNALED and CONDITION_SATISFIED both mean success; which one depends on timing
    names = [g.SYNC_RESULT_NAMES.get(r, hex(r)) for r in results]
    t.observe("results", ["signaled" if n in ("ALREADY_SIGNALED", "CONDITION_SATISFIED") else n
                          for n in names])


@probe("syncs")
def wait_sync_bad(t):
    sync = fence(t)
    t.rec("glWaitSync", sync, 1, GL_TIMEOUT_IGNORED)
    t.rec("glWaitSync", sync, 0, 0)
    t.rec("glWaitSync", sync, 0, GL_TIMEOUT_IGNORED)


@probe("syncs")
def bogus_sync_handles(t):
    """Sync handles that were never returned by glFenceSync must not be dereferenced."""
    fake = ctypes.c_void_p(0xDEADBEEF)
    stack = filled(64, 0)
    t.observe("is_sync", [t.rec("glIsSync", fake), t.rec("glIsSync", ctypes.addressof(stack))])
    r = t.rec("glClientWaitSync", fake, 0, 0)
    t.observe("wait", g.SYNC_RESULT_NAMES.get(r, hex(r)))
    t.rec("glWaitSync", fake, 0, GL_TIMEOUT_IGNORED)
    value = ctypes.c_int32(-7)
    t.rec("glGetSynciv", fake, GL_SYNC_STATUS, 1, None, ctypes.byref(value))
    t.rec("glDeleteSync", fake)
    t.rec("glDeleteSync", None)  # 0 is silently ignored


@probe("syncs")
def deleted_sync_handle(t):
    sync = fence(t)
    t.rec("glDeleteSync", sync)
    t.observe("is_sync", t.rec("glIsSync", sync))
    r = t.rec("glClientWaitSync", sync, 0, 0)
    t.observe("wait", g.SYNC_RESULT_NAMES.get(r, hex(r)))
    t.rec("glDeleteSync", sync)


@probe("syncs")
def get_synciv_bad(t):
    sync = fence(t)
    values = (ctypes.c_int32 * 4)(-7, -7, -7, -7)
    length = ctypes.c_int32(-7)
    t.rec("glGetSynciv", sync, GL_OBJECT_TYPE, -1, ctypes.byref(length), values)
    t.expect("client_unchanged", [length.value, values[0]], [-7, -7])
    t.rec("glGetSynciv", sync, BOGUS, 4, ctypes.byref(length), values)
    t.expect("client_unchanged_bad_pname", [length.value, values[0]], [-7, -7])
    t.rec("glGetSynciv", sync, GL_OBJECT_TYPE, 0, ctypes.byref(length), values)
    # bufSize 0: nothing is written, and length counts what was written
    t.expect("zero_bufsize", [length.value, values[0]], [0, -7])
    t.rec("glGetSynciv", sync, GL_OBJECT_TYPE, 4, ctypes.byref(length), values)
    t.observe("object_type", [length.value, hex(values[0])])


# ============================================================================================
# glGet*
# ============================================================================================


@probe("get")
def get_bad_enum(t):
    b = filled(64, 0xA5)
    i = (ctypes.c_int32 * 16)(*([-7] * 16))
    f = (ctypes.c_float * 16)(*([-7.0] * 16))
    d = (ctypes.c_double * 16)(*([-7.0] * 16))
    q = (ctypes.c_int64 * 16)(*([-7] * 16))
    t.rec("glGetIntegerv", BOGUS, i)
    t.rec("glGetBooleanv", BOGUS, b)
    t.rec("glGetFloatv", BOGUS, f)
    t.rec("glGetDoublev", BOGUS, d)
    t.rec("glGetInteger64v", BOGUS, q)
    t.rec("glGetIntegerv", 0xFFFFFFFF, i)
    t.expect("client_unchanged", [unchanged(b, 0xA5), i[0], f[0], d[0], q[0]],
             [True, -7, -7.0, -7.0, -7])


@probe("get")
def get_legacy_enum_in_core(t):
    i = (ctypes.c_int32 * 16)(*([-7] * 16))
    t.rec("glGetIntegerv", GL_MATRIX_MODE, i)
    t.rec("glGetIntegerv", GL_CURRENT_COLOR, i)
    t.rec("glGetIntegerv", GL_MAX_LIGHTS, i)
    t.rec("glGetIntegerv", GL_MAX_TEXTURE_COORDS, i)


@probe("get")
def get_indexed_bad(t):
    i = (ctypes.c_int32 * 16)(*([-7] * 16))
    b = filled(16, 0xA5)
    bindings = t.geti(GL_MAX_UNIFORM_BUFFER_BINDINGS)
    t.rec("glGetIntegeri_v", GL_UNIFORM_BUFFER_BINDING, bindings, i)
    t.rec("glGetIntegeri_v", BOGUS, 0, i)
    t.rec("glGetBooleani_v", 0x0C23, t.geti(GL_MAX_DRAW_BUFFERS), b)  # GL_COLOR_WRITEMASK
    t.expect("client_unchanged", [i[0], unchanged(b, 0xA5)], [-7, True])


@probe("get")
def get_string_bad(t):
    t.observe("null", [
        t.rec("glGetString", BOGUS) is None,
        t.rec("glGetString", GL_EXTENSIONS) is None,  # not in core
    ])
    n = t.geti(GL_NUM_EXTENSIONS)
    t.observe("null_indexed", [
        t.rec("glGetStringi", GL_EXTENSIONS, n) is None,
        t.rec("glGetStringi", GL_EXTENSIONS, 0xFFFFFFFF) is None,
        t.rec("glGetStringi", GL_VENDOR, 0) is None,
        t.rec("glGetStringi", BOGUS, 0) is None,
    ])


@probe("get")
def get_error_clears(t):
    t.glEnable(BOGUS)
    t.glBindBuffer(BOGUS, 0)  # a second error while the first is pending
    t.e("glEnable(bad), glBindBuffer(bad)")
    t.e("glGetError again")
    t.e("glGetError again")


# ============================================================================================
# state: enables, fixed-function state that core keeps, clears
# ============================================================================================


@probe("state")
def enable_bad_cap(t):
    t.rec("glEnable", BOGUS)
    t.rec("glDisable", BOGUS)
    t.observe("is_enabled", t.rec("glIsEnabled", BOGUS))
    t.rec("glEnable", 0)


@probe("state")
def enable_legacy_cap_in_core(t):
    for cap in (GL_LIGHTING, GL_ALPHA_TEST, GL_TEXTURE_2D, GL_POINT_SMOOTH, 0x0B60,
                0x0B24):  # FOG, LINE_STIPPLE
        t.rec("glEnable", cap)


@probe("state")
def enable_indexed_bad(t):
    limit = t.geti(GL_MAX_DRAW_BUFFERS)
    t.rec("glEnablei", GL_BLEND, limit)
    t.rec("glDisablei", GL_BLEND, limit)
    t.observe("is_enabled", t.rec("glIsEnabledi", GL_BLEND, limit))
    t.rec("glEnablei", GL_DEPTH_TEST, 0)
    t.rec("glEnablei", BOGUS, 0)


@probe("state")
def blend_and_depth_bad_enums(t):
    t.rec("glBlendFunc", BOGUS, GL_ONE)
    t.rec("glBlendFunc", GL_ONE, BOGUS)
    t.rec("glBlendFuncSeparate", GL_ONE, GL_ONE, GL_ONE, BOGUS)
    t.rec("glBlendEquation", BOGUS)
    t.rec("glBlendFunci", t.geti(GL_MAX_DRAW_BUFFERS), GL_ONE, GL_ONE)
    t.rec("glDepthFunc", BOGUS)
    t.rec("glDepthFunc", GL_KEEP)


@probe("state")
def stencil_bad_enums(t):
    t.rec("glStencilFunc", BOGUS, 0, 0xFF)
    t.rec("glStencilOp", BOGUS, GL_KEEP, GL_KEEP)
    t.rec("glStencilOpSeparate", BOGUS, GL_KEEP, GL_KEEP, GL_KEEP)
    t.rec("glStencilMaskSeparate", BOGUS, 0xFF)
    t.rec("glStencilFunc", GL_LESS, -5, 0xFF)  # reference is clamped: fine


@probe("state")
def raster_state_bad(t):
    t.rec("glCullFace", BOGUS)
    t.rec("glFrontFace", BOGUS)
    t.rec("glFrontFace", GL_FRONT)
    t.rec("glPolygonMode", GL_FRONT, GL_LINE)  # core: FRONT_AND_BACK only
    t.rec("glPolygonMode", GL_FRONT_AND_BACK, BOGUS)
    t.rec("glProvokingVertex", BOGUS)
    t.rec("glHint", BOGUS, GL_NICEST)
    t.rec("glHint", GL_LINE_SMOOTH_HINT, BOGUS)


@probe("state")
def sizes_bad(t):
    t.rec("glLineWidth", 0.0)
    t.rec("glLineWidth", -1.0)
    t.rec("glLineWidth", float("nan"))
    t.rec("glPointSize", 0.0)
    t.rec("glPointSize", -1.0)
    t.rec("glViewport", 0, 0, -1, 4)
    t.rec("glViewport", 0, 0, 0x7FFFFFFF, 0x7FFFFFFF)  # clamped: fine
    t.rec("glScissor", 0, 0, 4, -1)
    vp = (ctypes.c_int32 * 4)()
    t.glGetIntegerv(GL_VIEWPORT, vp)
    t.observe("viewport_clamped", vp[2] < 0x7FFFFFFF and vp[2] > 0)


@probe("state")
def clear_bad(t):
    t.rec("glClear", 0x1)
    t.rec("glClear", 0xFFFFFFFF)
    t.rec("glClear", 0)
    t.rec("glClearBufferfv", BOGUS, 0, (ctypes.c_float * 4)())
    t.rec("glClearBufferfv", GL_COLOR, t.geti(GL_MAX_DRAW_BUFFERS), (ctypes.c_float * 4)())
    t.rec("glClearBufferfv", GL_DEPTH, 1, (ctypes.c_float * 4)())
    t.rec("glClearBufferiv", GL_DEPTH, 0, (ctypes.c_int32 * 4)())
    t.rec("glClearBufferfi", GL_COLOR, 0, 1.0, 0)
    t.rec("glClearBufferfi", GL_DEPTH_STENCIL, 1, 1.0, 0)


@probe("state")
def color_mask_indexed_bad(t):
    t.rec("glColorMaski", t.geti(GL_MAX_DRAW_BUFFERS), 1, 1, 1, 1)
    t.rec("glColorMaski", 0xFFFFFFFF, 1, 1, 1, 1)


# ============================================================================================
# pixel store, glReadPixels
# ============================================================================================


@probe("pixel_store")
def pixel_store_bad_pname(t):
    t.rec("glPixelStorei", BOGUS, 4)
    t.rec("glPixelStoref", BOGUS, 4.0)
    t.rec("glPixelStorei", 0x0D10, 1)  # GL_MAP_COLOR: compatibility only


@probe("pixel_store")
def pixel_store_bad_alignment(t):
    for value in (3, 0, -4, 16):
        t.rec("glPixelStorei", GL_UNPACK_ALIGNMENT, value)
    t.rec("glPixelStorei", GL_PACK_ALIGNMENT, 0)
    t.rec("glPixelStoref", GL_UNPACK_ALIGNMENT, 2.5)  # rounds to 3 (or 2): not a power of two?
    t.observe("alignment", t.geti(GL_UNPACK_ALIGNMENT))


@probe("pixel_store")
def pixel_store_negative_values(t):
    for pname in (GL_UNPACK_ROW_LENGTH, GL_UNPACK_SKIP_ROWS, GL_UNPACK_SKIP_PIXELS,
                  GL_UNPACK_IMAGE_HEIGHT, GL_PACK_ROW_LENGTH, GL_PACK_SKIP_PIXELS):
        t.rec("glPixelStorei", pname, -1)
    t.rec("glPixelStoref", GL_UNPACK_ROW_LENGTH, -0.4)  # rounds to 0
    t.rec("glPixelStorei", GL_UNPACK_SWAP_BYTES, 7)  # any non-zero is TRUE


@probe("pixel_store")
def pixel_store_huge_skip_client(t):
    """Skips that move the read far past a small client array are the application's
    responsibility, but a NULL image with no unpack buffer must still be harmless."""
    t.tex2d(4, 4)
    t.glPixelStorei(GL_UNPACK_SKIP_ROWS, 1 << 28)
    t.glPixelStorei(GL_UNPACK_ROW_LENGTH, 1 << 20)
    t.ok()
    t.rec("glTexImage2D", GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, None)


@probe("read_pixels")
def read_pixels_bad_format_type(t):
    out = filled(1024, 0xA5)
    cases = (
        (BOGUS, GL_UNSIGNED_BYTE),
        (GL_RGBA, BOGUS),
        (GL_RGBA, GL_UNSIGNED_SHORT_5_6_5),
        (GL_RGBA_INTEGER, GL_UNSIGNED_BYTE),  # integer read from a normalized buffer
        (GL_DEPTH_STENCIL, GL_UNSIGNED_BYTE),
        (GL_RGBA, GL_UNSIGNED_INT_24_8),
        (GL_RGBA, GL_BITMAP),
        (GL_RGBA_INTEGER, GL_FLOAT),
    )
    for fmt, typ in cases:
        t.rec("glReadPixels", 0, 0, 1, 1, fmt, typ, out)
    t.expect("client_unchanged", unchanged(out, 0xA5), True)


@probe("read_pixels")
def read_pixels_negative_size(t):
    out = filled(64, 0xA5)
    t.rec("glReadPixels", 0, 0, -1, 1, GL_RGBA, GL_UNSIGNED_BYTE, out)
    t.rec("glReadPixels", 0, 0, 1, -1, GL_RGBA, GL_UNSIGNED_BYTE, out)
    t.rec("glReadPixels", 0, 0, 0, 0, GL_RGBA, GL_UNSIGNED_BYTE, out)
    t.expect("client_unchanged", unchanged(out, 0xA5), True)


@probe("read_pixels")
def read_pixels_outside_window(t):
    t.glClearColor(0, 0, 1, 1)
    t.glClear(GL_COLOR_BUFFER_BIT)
    t.ok()
    out = filled(4 * 4 * 4, 0xA5)
    t.rec("glReadPixels", -2, -2, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, out)
    t.observe("inside", list(out[40:44]))  # (2, 2): inside the window
    t.rec("glReadPixels", 0x7FFFFFF0, 0x7FFFFFF0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, out)
    t.rec("glReadPixels", -0x7FFFFFFF, 0, 4, 1, GL_RGBA, GL_UNSIGNED_BYTE, out)


@probe("read_pixels")
def read_pixels_depth_from_colour_only_fbo(t):
    t.fbo()
    out = filled(64, 0xA5)
    t.rec("glReadPixels", 0, 0, 1, 1, GL_DEPTH_COMPONENT, GL_FLOAT, out)
    t.rec("glReadPixels", 0, 0, 1, 1, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, out)
    t.expect("client_unchanged", unchanged(out, 0xA5), True)


@probe("read_pixels")
def read_pixels_integer_mismatch(t):
    t.fbo(4, 4, GL_RGBA32UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT)
    out = filled(64, 0xA5)
    t.rec("glReadPixels", 0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, out)
    t.rec("glReadPixels", 0, 0, 1, 1, GL_RGBA_INTEGER, GL_FLOAT, out)
    t.rec("glReadPixels", 0, 0, 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_INT, out)


# ============================================================================================
# samplers
# ============================================================================================


@probe("samplers")
def sampler_gen_bind_bad(t):
    names = (ctypes.c_uint32 * 1)()
    t.rec("glGenSamplers", -1, names)
    t.rec("glDeleteSamplers", -1, names)
    s = t.gen("glGenSamplers")
    units = t.geti(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS)
    t.rec("glBindSampler", units, s)
    t.rec("glBindSampler", 0, 8888)
    t.rec("glBindSampler", 0, s)
    t.rec("glBindSampler", 0, 0)


@probe("samplers")
def sampler_parameter_bad(t):
    s = t.gen("glGenSamplers")
    t.rec("glSamplerParameteri", s, BOGUS, 0)
    t.rec("glSamplerParameteri", s, GL_TEXTURE_MIN_FILTER, GL_REPEAT)
    t.rec("glSamplerParameteri", s, GL_TEXTURE_WRAP_S, BOGUS)
    t.rec("glSamplerParameteri", s, GL_TEXTURE_BASE_LEVEL, 0)  # a texture-only parameter
    t.rec("glSamplerParameteri", 8888, GL_TEXTURE_MIN_FILTER, GL_NEAREST)
    t.rec("glSamplerParameterf", s, GL_TEXTURE_LOD_BIAS, float("inf"))
    value = ctypes.c_int32(-7)
    t.rec("glGetSamplerParameteriv", s, BOGUS, ctypes.byref(value))
    t.rec("glGetSamplerParameteriv", 8888, GL_TEXTURE_MIN_FILTER, ctypes.byref(value))
    t.expect("value_unchanged", value.value, -7)


@probe("samplers")
def sampler_deleted_while_bound(t):
    s = t.gen("glGenSamplers")
    t.glBindSampler(0, s)
    t.ok()
    names = (ctypes.c_uint32 * 1)(s)
    t.rec("glDeleteSamplers", 1, names)
    binding = ctypes.c_int32(-7)
    t.glGetIntegerv(0x8919, ctypes.byref(binding))  # GL_SAMPLER_BINDING
    t.observe("binding", binding.value)
    t.rec("glSamplerParameteri", s, GL_TEXTURE_MIN_FILTER, GL_NEAREST)


# ============================================================================================
# legacy entry points: in a core context, and in a compatibility context
# ============================================================================================


@probe("legacy")
def legacy_entry_points_in_core(t):
    t.rec("glBegin", GL_TRIANGLES)
    t.rec("glEnd")
    t.rec("glMatrixMode", GL_MODELVIEW)
    t.rec("glPushMatrix")
    t.rec("glVertexPointer", 3, GL_FLOAT, 0, None)
    t.rec("glNewList", 1, GL_COMPILE)
    t.rec("glShadeModel", GL_FLAT)


@probe("legacy", compat=True)
def begin_end_bad(t):
    t.rec("glBegin", BOGUS)
    t.rec("glEnd")  # no glBegin
    t.glBegin(GL_TRIANGLES)
    t.glBegin(GL_TRIANGLES)  # nested
    t.glEnd()
    t.e("glBegin twice, glEnd")
    t.glBegin(GL_POINTS)
    t.glEnable(GL_BLEND)  # not allowed between glBegin and glEnd
    t.glVertex3f(0, 0, 0)
    t.glEnd()
    t.e("glEnable between glBegin and glEnd")
    t.observe("blend_enabled", t.glIsEnabled(GL_BLEND))


@probe("legacy", compat=True)
def get_error_inside_begin_end(t):
    t.glBegin(GL_POINTS)
    inside = t.driver.get_error()
    t.glEnd()
    t.observe("inside", g.ERROR_NAMES.get(inside, hex(inside)))
    t.e("glGetError between glBegin and glEnd")


@probe("legacy", compat=True)
def matrix_stack_overflow(t):
    t.rec("glMatrixMode", BOGUS)
    t.glMatrixMode(GL_PROJECTION)
    t.ok()
    t.rec("glPopMatrix")  # underflow
    codes = []
    for _ in range(64):
        t.glPushMatrix()
        codes.append(t.driver.get_error())
    first = next((i for i, c in enumerate(codes) if c), None)
    # the stack holds MAX_PROJECTION_STACK_DEPTH matrices, one of them the current one
    t.observe("overflows_when_full", first == t.geti(0x0D38) - 1)
    t.observe("overflow_error", g.ERROR_NAMES.get(codes[-1], hex(codes[-1])))


@probe("legacy", compat=True)
def projection_bad(t):
    t.rec("glFrustum", -1, 1, -1, 1, 0, 10)  # znear 0
    t.rec("glFrustum", -1, 1, -1, 1, 1, -10)
    t.rec("glFrustum", 1, 1, -1, 1, 1, 10)  # left == right
    t.rec("glOrtho", 0, 0, -1, 1, -1, 1)
    t.rec("glOrtho", -1, 1, -1, 1, 1, 1)


@probe("legacy", compat=True)
def display_list_bad(t):
    t.rec("glNewList", 0, GL_COMPILE)
    t.rec("glNewList", 1, BOGUS)
    t.rec("glEndList")  # no list open
    t.glNewList(1, GL_COMPILE)
    t.ok()
    t.rec("glNewList", 2, GL_COMPILE)  # nested
    t.rec("glEndList")
    t.rec("glGenLists", -1)
    t.rec("glDeleteLists", 1, -1)
    lists = (ctypes.c_uint32 * 2)(1, 2)
    t.rec("glCallLists", 2, BOGUS, lists)
    t.rec("glCallLists", -1, GL_UNSIGNED_INT, lists)


@probe("legacy", compat=True)
def display_list_records_errors_at_compile(t):
    t.glNewList(5, GL_COMPILE)
    t.ok()
    t.glEnable(BOGUS)  # is a bad enum reported while compiling, or when the list runs?
    t.e("glEnable(bad) while compiling a list")
    t.glBlendFunc(BOGUS, GL_ONE)
    t.e("glBlendFunc(bad) while compiling a list")
    t.glEndList()
    t.ok()
    t.rec("glCallLists", 1, GL_UNSIGNED_INT, (ctypes.c_uint32 * 1)(5))


@probe("legacy", compat=True)
def texenv_and_lights_bad(t):
    t.rec("glTexEnvi", BOGUS, GL_TEXTURE_ENV_MODE, GL_MODULATE)
    t.rec("glTexEnvi", GL_TEXTURE_ENV, BOGUS, GL_MODULATE)
    t.rec("glTexEnvi", GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, BOGUS)
    limit = t.geti(GL_MAX_LIGHTS)
    t.rec("glLightf", GL_LIGHT0 + limit, GL_SPOT_EXPONENT, 1.0)
    t.rec("glLightf", GL_LIGHT0, GL_SPOT_EXPONENT, 200.0)
    t.rec("glLightf", GL_LIGHT0, BOGUS, 1.0)
    t.rec("glLightfv", GL_LIGHT0, BOGUS, (ctypes.c_float * 4)())
    t.rec("glMaterialf", BOGUS, GL_SHININESS, 1.0)
    t.rec("glMaterialf", GL_FRONT, GL_SHININESS, 200.0)
    t.rec("glMaterialf", GL_FRONT, GL_AMBIENT, 1.0)  # a vector parameter through glMaterialf


@probe("legacy", compat=True)
def fog_and_misc_bad(t):
    t.rec("glFogi", GL_FOG_MODE, BOGUS)
    t.rec("glFogf", GL_FOG_DENSITY, -1.0)
    t.rec("glFogi", BOGUS, 0)
    t.rec("glAlphaFunc", BOGUS, 0.5)
    t.rec("glShadeModel", BOGUS)
    t.rec("glColorMaterial", GL_FRONT, BOGUS)
    t.rec("glColorMaterial", BOGUS, GL_AMBIENT_AND_DIFFUSE)
    t.rec("glClampColor", BOGUS, GL_TRUE)
    t.rec("glClampColor", GL_CLAMP_READ_COLOR, BOGUS)


@probe("legacy", compat=True)
def client_arrays_bad(t):
    t.rec("glVertexPointer", 1, GL_FLOAT, 0, None)
    t.rec("glVertexPointer", 3, GL_UNSIGNED_BYTE, 0, None)
    t.rec("glVertexPointer", 3, GL_FLOAT, -4, None)
    t.rec("glColorPointer", 2, GL_FLOAT, 0, None)
    t.rec("glEnableClientState", BOGUS)
    t.rec("glClientActiveTexture", GL_TEXTURE0 + t.geti(GL_MAX_TEXTURE_COORDS))


@probe("legacy", compat=True)
def client_array_draw_past_end(t):
    verts = (ctypes.c_float * 9)(-1, -1, 0, 1, -1, 0, 0, 1, 0)
    t.glVertexPointer(3, GL_FLOAT, 0, verts)
    t.glEnableClientState(GL_VERTEX_ARRAY)
    t.ok()
    t.rec("glDrawArrays", GL_TRIANGLES, 0, 3)
    t.rec("glDrawArrays", GL_QUADS, 0, -4)
    t.rec("glDrawArrays", GL_QUADS, 0, 4 * 0 + 3)  # an incomplete quad draws nothing
    t.glFinish()


@probe("legacy", compat=True)
def draw_pixels_and_bitmap_bad(t):
    data = filled(256, 1)
    t.glRasterPos2f(0, 0)
    t.ok()
    t.rec("glDrawPixels", -1, 1, GL_RGBA, GL_UNSIGNED_BYTE, data)
    t.rec("glDrawPixels", 1, 1, BOGUS, GL_UNSIGNED_BYTE, data)
    t.rec("glDrawPixels", 1, 1, GL_RGBA, BOGUS, data)
    t.rec("glDrawPixels", 1, 1, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, data)
    t.rec("glBitmap", -1, 1, 0, 0, 0, 0, data)
    t.rec("glDrawPixels", 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, data)


@probe("legacy", compat=True)
def draw_pixels_pbo_past_end(t):
    t.buffer(GL_PIXEL_UNPACK_BUFFER, 16)
    t.glRasterPos2f(0, 0)
    t.ok()
    t.rec("glDrawPixels", 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, 0)
    client = filled(64, 0x5A)
    t.rec("glDrawPixels", 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, ctypes.addressof(client))
    t.rec("glBitmap", 8, 8, 0, 0, 0, 0, 64)


@probe("legacy", compat=True)
def compat_client_memory_indices(t):
    verts = (ctypes.c_float * 9)(-1, -1, 0, 1, -1, 0, 0, 1, 0)
    t.glVertexPointer(3, GL_FLOAT, 0, verts)
    t.glEnableClientState(GL_VERTEX_ARRAY)
    t.ok()
    indices = (ctypes.c_uint32 * 3)(0, 1, 2)
    t.rec("glDrawElements", GL_TRIANGLES, 3, GL_UNSIGNED_INT, indices)
    t.glFinish()


@probe("legacy", compat=True, spec="any",
       why="llvmpipe (Mesa 22.3) dereferences the NULL index pointer", skip_reference=True)
def compat_null_client_indices(t):
    verts = (ctypes.c_float * 9)(-1, -1, 0, 1, -1, 0, 0, 1, 0)
    t.glVertexPointer(3, GL_FLOAT, 0, verts)
    t.glEnableClientState(GL_VERTEX_ARRAY)
    t.ok()
    t.rec("glDrawElements", GL_TRIANGLES, 3, GL_UNSIGNED_INT, None)
    t.glFinish()


# --- pixel transfers added later: compressed readback, the polygon stipple ------------------


@probe("pixels")
def get_compressed_tex_image_uncompressed(t):
    tex = t.gen("glGenTextures")
    t.glBindTexture(GL_TEXTURE_2D, tex)
    t.glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, None)
    t.ok()
    out = filled(64, 0xEE)
    t.rec("glGetCompressedTexImage", GL_TEXTURE_2D, 0, out)
    t.expect("nothing written", unchanged(out, 0xEE), True)
    t.rec("glGetCompressedTexImage", BOGUS, 0, out)
    t.rec("glGetCompressedTexImage", GL_TEXTURE_2D, -1, out)


@probe("pixels", compat=True)
def polygon_stipple_round_trip(t):
    pattern = (ctypes.c_uint8 * 128)(*[(i * 37) % 251 for i in range(128)])
    t.rec("glPolygonStipple", pattern)
    out = filled(128, 0)
    t.rec("glGetPolygonStipple", out)
    t.observe("pattern", list(out) == list(pattern))


# --- invalidation (GL_ARB_invalidate_subdata) --------------------------------------------


@probe("buffers", spec=["INVALID_VALUE"] * 6,
       why="GL 4.6 6.5: offset + length past BUFFER_SIZE is INVALID_VALUE; llvmpipe (Mesa 22.3) "
           "lets 2^62 + 2^62 overflow and pass")
def invalidate_buffer_bad_ranges(t):
    buf = t.buffer(GL_ARRAY_BUFFER, 64)
    t.rec("glInvalidateBufferSubData", buf, -1, 4)
    t.rec("glInvalidateBufferSubData", buf, 0, -4)
    t.rec("glInvalidateBufferSubData", buf, 60, 8)
    t.rec("glInvalidateBufferSubData", buf, 1 << 62, 1 << 62)
    t.rec("glInvalidateBufferData", buf + 1000)
    t.rec("glInvalidateBufferData", 0)


@probe("textures", spec=["INVALID_VALUE"] * 5,
       why="GL 4.6 8.20: a level above log2 of the largest size and a negative width are "
           "INVALID_VALUE; llvmpipe (Mesa 22.3) accepts level 100 and width -1")
def invalidate_tex_bad_levels_and_regions(t):
    tex = t.gen("glGenTextures")
    t.glBindTexture(GL_TEXTURE_2D, tex)
    t.glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, None)
    t.ok()
    t.rec("glInvalidateTexImage", tex, -1)
    t.rec("glInvalidateTexImage", tex, 100)
    t.rec("glInvalidateTexImage", 0, 0)
    t.rec("glInvalidateTexSubImage", tex, 0, 4, 0, 0, 8, 8, 1)
    t.rec("glInvalidateTexSubImage", tex, 0, 0, 0, 0, -1, 1, 1)


@probe("framebuffers")
def invalidate_framebuffer_bad_targets_and_attachments(t):
    default = (ctypes.c_uint32 * 2)(GL_COLOR, GL_DEPTH)
    t.rec("glInvalidateFramebuffer", BOGUS, 1, default)
    t.rec("glInvalidateFramebuffer", GL_FRAMEBUFFER, -1, default)
    t.rec("glInvalidateSubFramebuffer", GL_FRAMEBUFFER, 1, default, 0, 0, -1, 1)
    attachment = (ctypes.c_uint32 * 1)(GL_COLOR_ATTACHMENT0)
    t.rec("glInvalidateFramebuffer", GL_FRAMEBUFFER, 1, attachment)
