"""A real, unmodified moderngl client: standalone EGL context, one triangle, pixels read back.

Run through scripts/moderngl.sh, which picks the libEGL/libGL (ArenaGL or the system's Mesa).
Renders a green triangle (apex up) over a blue clear into a 64x64 offscreen framebuffer and checks
pixels inside and outside it, including two that tell an upside-down image from the right one.
Exit status 0 on the expected pixels; 1 with a message naming each wrong pixel otherwise; any
exception from moderngl/glcontext propagates (status 1 with its traceback).
"""

import struct
import sys

import moderngl

SIZE = 64
CLEAR = (0, 0, 255, 255)  # blue
TRIANGLE = (0, 255, 0, 255)  # green
TOLERANCE = 2  # per channel, for rounding between implementations

VERTEX = """
#version 330
in vec2 in_pos;
in vec3 in_color;
out vec3 v_color;
void main() {
    v_color = in_color;
    gl_Position = vec4(in_pos, 0.0, 1.0);
}
"""

FRAGMENT = """
#version 330
in vec3 v_color;
out vec4 f_color;
void main() {
    f_color = vec4(v_color, 1.0);
}
"""

# (x, y, expected): GL window coordinates, row 0 at the bottom. The triangle spans NDC
# (-0.5,-0.5), (0.5,-0.5), (0,0.5) = pixels x 16..48, y 16..48, apex at the top.
CHECKS = [
    (32, 32, TRIANGLE, "centre"),
    (20, 20, TRIANGLE, "lower left, inside the wide base"),
    (20, 44, CLEAR, "upper left, beside the narrow apex (a flipped image fails here)"),
    (32, 8, CLEAR, "below the base"),
    (2, 2, CLEAR, "bottom-left corner"),
    (61, 61, CLEAR, "top-right corner"),
]


def main() -> int:
    ctx = moderngl.create_standalone_context(backend="egl")
    print(f"GL_RENDERER: {ctx.info['GL_RENDERER']}")
    print(f"GL_VERSION: {ctx.info['GL_VERSION']} (version_code {ctx.version_code})")

    prog = ctx.program(vertex_shader=VERTEX, fragment_shader=FRAGMENT)
    green = (0.0, 1.0, 0.0)
    vertices = [-0.5, -0.5, *green, 0.5, -0.5, *green, 0.0, 0.5, *green]
    vbo = ctx.buffer(struct.pack(f"{len(vertices)}f", *vertices))
    vao = ctx.vertex_array(prog, [(vbo, "2f 3f", "in_pos", "in_color")])
    rbo = ctx.renderbuffer((SIZE, SIZE), components=4)
    fbo = ctx.framebuffer(color_attachments=[rbo])

    fbo.use()
    fbo.clear(CLEAR[0] / 255, CLEAR[1] / 255, CLEAR[2] / 255, CLEAR[3] / 255)
    vao.render(moderngl.TRIANGLES)
    data = fbo.read(components=4, alignment=1)

    if len(data) != SIZE * SIZE * 4:
        print(f"FAIL: read back {len(data)} bytes, expected {SIZE * SIZE * 4}", file=sys.stderr)
        return 1

    failures = []
    for x, y, want, where in CHECKS:
        i = (y * SIZE + x) * 4
        got = tuple(data[i : i + 4])
        ok = all(abs(g - w) <= TOLERANCE for g, w in zip(got, want))
        print(f"pixel ({x:2},{y:2}) {where}: {got} {'ok' if ok else f'WRONG, expected {want}'}")
        if not ok:
            failures.append(f"({x},{y}) {where}: got {got}, expected {want}")

    err = ctx.error
    if err != "GL_NO_ERROR":
        failures.append(f"glGetError after rendering: {err}")

    for obj in (vao, vbo, prog, fbo, rbo):
        obj.release()
    ctx.release()

    if failures:
        print("FAIL: " + "; ".join(failures), file=sys.stderr)
        return 1
    print("PASS: moderngl rendered and read back the expected pixels")
    return 0


if __name__ == "__main__":
    sys.exit(main())
