#!/usr/bin/env python3
"""Draws a random sample of piglit's whole OpenGL test list, with a seed, as a list for
scripts/piglit.sh (one command per line, as tests/piglit/list.txt).

The population is every test of piglit's `opengl` profile (type gl: the C tests) and every
shader_runner test of its `quick_shader` profile for desktop GL (api compat or core), minus the
tests of a window-system API piglit runs through something other than a GL context (`glx@`,
`egl@`, `wgl@`), which the surfaceless platform every run here uses cannot host. Nothing is
dropped for failing: the sample is what it is, so a list chosen for passing cannot hide a gap.

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


def population(piglit_dir):
    out = []
    for name, kind, argv, options in tests(f"{piglit_dir}/tests/opengl.xml.gz"):
        if kind == "gl" and argv and not name.startswith(SKIPPED_FAMILIES):
            out.append((name, argv))
    for name, kind, argv, options in tests(f"{piglit_dir}/tests/quick_shader.xml.gz"):
        api = ast.literal_eval(options.get("api", "'compat'"))
        if kind == "shader" and api in ("compat", "core") and argv:
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
    print(f"## {len(chosen)} of {len(pop)} piglit GL tests, drawn with seed {seed} (tests/piglit/sample.py)")
    family = None
    for name, argv in sorted(chosen, key=lambda t: (family_of(t[0]), t[0])):
        if family_of(name) != family:
            family = family_of(name)
            print(f"# {family}")
        print(" ".join(argv) + " -auto -fbo")


if __name__ == "__main__":
    main()
