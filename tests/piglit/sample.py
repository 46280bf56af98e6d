#!/usr/bin/env python3
"""Draws a random sample of piglit's whole OpenGL and OpenGL ES test list, with a seed, as a list
for scripts/piglit.sh (one command per line, as tests/piglit/list.txt).

The population is every test of the three profiles that hold all of piglit's GL tests: `opengl`
(the C tests, ES ones included: `gl` and `gl_builtin`), `shader` (every shader_runner test, the
generated ones included, for desktop GL and OpenGL ES) and `glslparser` (the GLSL and ARB assembly
compiler tests, desktop and ES) — minus the tests of a window-system API piglit runs through
something other than a GL context (`glx@`, `egl@`, `wgl@`), which the surfaceless platform every
run here uses cannot host. Nothing is dropped for failing: the sample is what it is, so a list
chosen for passing cannot hide a gap.

    python3 tests/piglit/sample.py PIGLIT_DIR SEED COUNT > target/piglit/sample.txt
"""

import ast
import gzip
import random
import sys
import xml.etree.ElementTree as ET

SKIPPED_FAMILIES = ("glx@", "egl@", "wgl@")


def tests(profile_path):
    """(name, argv, options) of each test in a piglit profile XML."""
    with gzip.open(profile_path) as f:
        for test in ET.parse(f).getroot():
            options = {o.get("name"): o.get("value") for o in test}
            argv = ast.literal_eval(options.get("command", "[]"))
            yield test.get("name"), test.get("type"), argv, options


def command(kind, argv, options):
    """The command line of one test as piglit's runner builds it, or None for a kind this list
    cannot run. GL and shader tests take `-auto -fbo`; the compiler tests take no options."""
    if kind in ("gl", "shader") and argv:
        return argv + ["-auto", "-fbo"]
    if kind == "glsl_parser" and argv:
        return argv
    if kind == "gl_builtin" and len(argv) > 1:
        return [argv[0], "tests/" + argv[1]] + argv[2:]
    if kind == "asm_parser":
        # Listed without a command: piglit runs `asmparsertest TYPE FILE`.
        return ["asmparsertest", ast.literal_eval(options["type_"]),
                ast.literal_eval(options["filename"])]
    return None


def population(piglit_dir):
    out = []
    for profile in ("opengl", "shader", "glslparser"):
        for name, kind, argv, options in tests(f"{piglit_dir}/tests/{profile}.xml.gz"):
            argv = command(kind, argv, options)
            if argv and not name.startswith(SKIPPED_FAMILIES):
                out.append((name, argv))
    return sorted(set((n, tuple(a)) for n, a in out))


def family_of(name):
    """The test's family for the report: `spec@ext@…` → `ext`, otherwise the first part."""
    parts = name.split("@")
    return parts[1] if parts[0] == "spec" and len(parts) > 2 else parts[0]


def main():
    piglit_dir, seed, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    pop = population(piglit_dir)
    chosen = random.Random(seed).sample(pop, min(count, len(pop)))
    print(f"## {len(chosen)} of {len(pop)} piglit GL and GL ES tests, drawn with seed {seed} (tests/piglit/sample.py)")
    family = None
    for name, argv in sorted(chosen, key=lambda t: (family_of(t[0]), t[0])):
        if family_of(name) != family:
            family = family_of(name)
            print(f"# {family}")
        print(" ".join(argv))


if __name__ == "__main__":
    main()
