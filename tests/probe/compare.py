#!/usr/bin/env python3
"""Compares ArenaGL's GL errors on hostile arguments with Mesa llvmpipe's.

Runs hostile.py (the probes of probes.py) twice, each in its own subprocess: once
against ArenaGL's libarenagl.so loaded by path, once against the system's glvnd
libEGL.so.1 forced onto Mesa's software rasterizer (EGL_PLATFORM=surfaceless,
LIBGL_ALWAYS_SOFTWARE=1, glvnd pointed at Mesa's vendor file). A run that crashes, or
makes no progress for --probe-timeout seconds (a hang), is stopped and resumed after the
probe it died in, so one bad probe costs only itself; --timeout bounds each
implementation's runs in all.

A probe agrees when ArenaGL recorded the same glGetError() sequence and the same
observations as the reference, and met every requirement of the specification that the
probe checks (no write through pointers of a failed command, no panic caught at the C
boundary). The reference is llvmpipe, except for the few probes llvmpipe cannot run
(they crash it or never finish), where it is what the specification asks for.

expected.txt lists the probes where ArenaGL is known to differ today, one a line:

    probe_name  # short reason: what each implementation returns

The comparison fails (exit status 1) when ArenaGL crashes or hangs in any probe, when a
probe not listed disagrees, when a listed probe now agrees (remove it from the list), or
when the list names a probe that does not exist. Otherwise it exits 0.

By hand, after `cargo build --lib`:

    python3 tests/probe/compare.py --arenagl target/debug/libarenagl.so
    python3 tests/probe/compare.py --arenagl target/debug/libarenagl.so --only pbo_unpack_mapped
    python3 tests/probe/compare.py --arenagl ... --write-expected tests/probe/expected.txt

(--write-expected rewrites the list from this run, keeping the reasons already written
for probes that still differ and describing new ones by what each side returned.)
"""

import argparse
import json
import os
import queue
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
HOSTILE = os.path.join(HERE, "hostile.py")
EXPECTED = os.path.join(HERE, "expected.txt")

# Where Debian/Ubuntu (multiarch), Fedora and Arch install glvnd's libEGL and Mesa's vendor file.
SYSTEM_LIBEGL = [
    "/usr/lib/x86_64-linux-gnu/libEGL.so.1",
    "/usr/lib/aarch64-linux-gnu/libEGL.so.1",
    "/usr/lib64/libEGL.so.1",
    "/usr/lib/libEGL.so.1",
]
MESA_VENDOR_JSON = [
    "/usr/share/glvnd/egl_vendor.d/50_mesa.json",
    "/etc/glvnd/egl_vendor.d/50_mesa.json",
]

SHORT = {
    "NO_ERROR": "0",
    "INVALID_ENUM": "ENUM",
    "INVALID_VALUE": "VALUE",
    "INVALID_OPERATION": "OP",
    "INVALID_FRAMEBUFFER_OPERATION": "FBOP",
    "OUT_OF_MEMORY": "OOM",
    "STACK_OVERFLOW": "OVERFLOW",
    "STACK_UNDERFLOW": "UNDERFLOW",
    "CONTEXT_LOST": "LOST",
}


# --- running one implementation ---------------------------------------------------------------


def probe_list():
    """The probes in run order, as hostile.py --list describes them."""
    out = subprocess.run([sys.executable, HOSTILE, "--list"], check=True, capture_output=True,
                         text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def parse(stdout):
    """hostile.py's JSON lines: (info, {probe: record}, last probe started, finished?)."""
    info, records, started, done = None, {}, None, False
    for line in stdout.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue  # a library printing to stdout
        if "info" in record:
            info = record["info"]
        elif "start" in record:
            started = record["start"]
        elif "probe" in record:
            records[record["probe"]] = record
        elif "done" in record:
            done = True
    return info, records, started, done


def run_once(cmd, env, probe_timeout, deadline):
    """Runs one hostile.py, reading its lines as they come. Stops it (our own child) when no
    line arrives for `probe_timeout` seconds or the deadline passes. Returns (stdout text,
    stderr text, exit status or None when it was stopped)."""
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    lines, errors = queue.Queue(), []

    def pump_stdout():
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    def pump_stderr():
        errors.append(proc.stderr.read())

    readers = [threading.Thread(target=pump_stdout, daemon=True),
               threading.Thread(target=pump_stderr, daemon=True)]
    for reader in readers:
        reader.start()
    out, stopped = [], False
    while True:
        wait = min(probe_timeout, deadline - time.monotonic())
        try:
            line = lines.get(timeout=max(wait, 0))
        except queue.Empty:
            proc.kill()
            stopped = True
            break
        if line is None:
            break
        out.append(line)
    rc = proc.wait()
    for reader in readers:
        reader.join(5)
    text = b"".join(out).decode("utf-8", "replace")
    return text, b"".join(errors).decode("utf-8", "replace"), None if stopped else rc


def run_implementation(label, egl, env, budget, probe_timeout, only, reference):
    """Runs every probe against one libEGL within `budget` seconds, resuming after the probe
    a crash or a hang (no progress for `probe_timeout` seconds) happened in. Returns (info,
    {probe: record}, [incident lines])."""
    deadline = time.monotonic() + budget
    info, results, incidents = None, {}, []
    resume_after = None
    while True:
        cmd = [sys.executable, "-X", "faulthandler", HOSTILE, "--egl", egl]
        if only:
            cmd += ["--only", ",".join(only)]
        if reference:
            cmd.append("--reference")
        if resume_after:
            cmd += ["--skip-through", resume_after]
        stdout, stderr, rc = run_once(cmd, env, probe_timeout, deadline)
        run_info, records, started, done = parse(stdout)
        info = info or run_info
        results.update(records)
        if done and rc == 0:
            return info, results, incidents
        tail = ["    " + line for line in stderr.strip().splitlines()[-12:]]
        culprit = started if started and started not in records else None
        out_of_time = time.monotonic() >= deadline
        if culprit is None:
            what = "stopped (no progress)" if rc is None else "exited with status %s" % rc
            incidents.append("%s: %s outside any probe" % (label, what))
            return info, results, incidents + tail
        if rc is None:
            results[culprit] = {"probe": culprit, "hang": True}
            incidents.append("%s: hung in probe %s (%s)" % (
                label, culprit, "the %ds budget ran out" % budget if out_of_time
                else "no progress for %ds" % probe_timeout))
        else:
            results[culprit] = {"probe": culprit, "crash": "signal %d" % -rc if rc < 0
                                else "status %d" % rc}
            incidents.append("%s: crashed in probe %s (%s)"
                             % (label, culprit, results[culprit]["crash"]))
            incidents += tail
        if out_of_time:
            return info, results, incidents
        resume_after = culprit


def arenagl_env():
    """ArenaGL runs in this process's environment (so ARENAGL_VALIDATION passes through)."""
    return dict(os.environ)


def mesa_env():
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARENAGL_")}
    env.update(EGL_PLATFORM="surfaceless", LIBGL_ALWAYS_SOFTWARE="1",
               MESA_SHADER_CACHE_DISABLE="true")
    # Only Mesa's vendor: an installed ArenaGL vendor file must not answer instead.
    vendor = next((p for p in MESA_VENDOR_JSON if os.path.exists(p)), None)
    if vendor:
        env["__EGL_VENDOR_LIBRARY_FILENAMES"] = vendor
        env.pop("__EGL_VENDOR_LIBRARY_DIRS", None)
    return env


# --- comparing -------------------------------------------------------------------------------


def compared_extra(record):
    return {k: v for k, v in record.get("extra", {}).items() if not k.startswith("_")}


def failed_checks(record):
    return sorted(k for k, (got, want) in record.get("checks", {}).items() if got != want)


def outcome(record):
    """A record in a few words: its errors, or what went wrong."""
    if record is None:
        return "(not run)"
    if "crash" in record:
        return "CRASH (%s)" % record["crash"]
    if "hang" in record:
        return "HANG"
    if "skipped" in record:
        return "(skipped)"
    return ",".join(SHORT.get(e, e) for e in record["errors"]) or "-"


def step_differences(reference, arena):
    """One line per call after which the two recorded different errors."""
    ours, theirs = arena["errors"], reference["errors"]
    if len(ours) != len(theirs):
        return ["%d errors recorded by llvmpipe, %d by arenagl" % (len(theirs), len(ours))]
    calls = arena.get("calls") or [""] * len(ours)
    return ["step %d, %s: llvmpipe %s, arenagl %s" % (i + 1, call, SHORT.get(t, t),
                                                      SHORT.get(o, o))
            for i, (call, t, o) in enumerate(zip(calls, theirs, ours)) if t != o]


def judge(meta, arena, reference):
    """(agrees?, the reference as shown, details) for one probe."""
    spec = meta["spec"]
    details = []
    if arena is None or "crash" in arena or "hang" in arena:
        return False, outcome(reference) if spec is None else "spec", details
    if "skipped" in arena or "errors" not in arena:
        return False, "-", ["not run for ArenaGL"]
    if any(e.startswith("EXCEPTION") for e in arena["errors"]):
        details.append("the probe raised in the ArenaGL run: a mistake in the probe?")
    for key in failed_checks(arena):
        got, want = arena["checks"][key]
        details.append("arenagl fails check %s: got %s, wanted %s"
                       % (key, json.dumps(got), json.dumps(want)))
    if spec is not None:
        shown = "spec:" + (spec if spec == "any" else ",".join(SHORT.get(e, e) for e in spec))
        errors_ok = spec == "any" or arena["errors"] == spec
        if not errors_ok:
            details.append("the specification asks for %s (%s)" % (", ".join(spec), meta["why"]))
        return errors_ok and not details, shown, details
    shown = outcome(reference)
    if reference is None or "errors" not in reference:
        details.append("no reference result")
        return False, shown, details
    agrees = arena["errors"] == reference["errors"] and not details
    details += step_differences(reference, arena)
    ours, theirs = compared_extra(arena), compared_extra(reference)
    for key in sorted(set(ours) | set(theirs)):
        if ours.get(key) != theirs.get(key):
            agrees = False
            details.append("%s: llvmpipe %s, arenagl %s"
                           % (key, json.dumps(theirs.get(key)), json.dumps(ours.get(key))))
    return agrees, shown, details


def notes(mesa_record, arena_record):
    """Information lines for one probe: the reference's failed checks, validation errors,
    exceptions raised by the probe."""
    lines = []
    for key in failed_checks(mesa_record or {}):
        got, want = mesa_record["checks"][key]
        lines.append("(llvmpipe fails check %s: got %s, wanted %s)"
                     % (key, json.dumps(got), json.dumps(want)))
    for side, record in (("llvmpipe", mesa_record), ("arenagl", arena_record)):
        extra = (record or {}).get("extra", {})
        if extra.get("_validation_errors"):
            lines.append("(%s: %d Vulkan validation errors)" % (side, extra["_validation_errors"]))
        if extra.get("_exception"):
            lines.append("(%s: %s)" % (side, extra["_exception"]))
    return lines


def verdicts(probes, mesa, arena, expected, expected_path):
    """The table's rows, one a probe, and the failures among them."""
    rows, failures, not_run = [], [], 0
    for meta in probes:
        name = meta["probe"]
        a, m = arena.get(name), mesa.get(name)
        agrees, shown, details = judge(meta, a, m)
        details += notes(m, a)
        if a is None:
            verdict = "FAIL: not run for ArenaGL (its run ended early)"
            not_run += 1
        elif "crash" in a or "hang" in a:
            verdict = "FAIL: ArenaGL %s" % ("hung" if "hang" in a else "crashed")
        elif agrees and name in expected:
            verdict = "FAIL: agrees now"
            failures.append("%s agrees now: remove it from %s" % (name, expected_path))
        elif agrees:
            verdict = "ok"
        elif name in expected:
            verdict = "known: " + expected[name]
        else:
            verdict = "FAIL: differs"
            failures.append("%s differs and is not in %s" % (name, expected_path))
        rows.append({"name": name, "family": meta["family"], "spec": meta["spec"] is not None,
                     "reference": shown, "arenagl": outcome(a), "verdict": verdict,
                     "details": details, "agrees": agrees})
    if not_run:
        failures.append("%d probes were not run for ArenaGL" % not_run)
    return rows, failures


def read_expected(path):
    """{probe: reason} from expected.txt (blank lines and # comments ignored)."""
    expected = {}
    if not os.path.exists(path):
        return expected
    with open(path) as f:
        for line in f:
            body, _, reason = line.partition("#")
            name = body.strip()
            if name:
                expected[name] = reason.strip()
    return expected


def write_expected(path, rows, old):
    header = [
        "# Probes of tests/probe/probes.py where ArenaGL's errors differ from Mesa llvmpipe's",
        "# (or from the specification, for the few probes llvmpipe cannot run) today.",
        "# One probe a line: `name  # reason`. tests/probe/compare.py fails when a probe not",
        "# listed here differs and when a listed probe agrees again: remove it then.",
        "",
    ]
    lines = []
    for row in rows:
        if row["agrees"]:
            continue
        found = "; ".join(d for d in row["details"] if not d.startswith("("))
        reason = old.get(row["name"]) or found or "llvmpipe: %s; arenagl: %s" % (
            row["reference"], row["arenagl"])
        lines.append("%s  # %s" % (row["name"], reason))
    with open(path, "w") as f:
        f.write("\n".join(header + lines) + "\n")


def print_table(rows):
    width = max(len(r["name"]) for r in rows)
    col = max(24, max(len(r["reference"]) for r in rows))
    print("%-*s  %-13s  %-*s  %-*s  %s" % (width, "probe", "family", col, "llvmpipe/spec", col,
                                           "arenagl", "verdict"))
    for r in rows:
        print("%-*s  %-13s  %-*s  %-*s  %s" % (width, r["name"], r["family"], col, r["reference"],
                                               col, r["arenagl"], r["verdict"]))
        for line in r["details"]:
            print("%*s  %s" % (width, "", line))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arenagl", required=True, help="path of libarenagl.so")
    parser.add_argument("--mesa-egl", default=None,
                        help="the system libEGL.so.1 (default: the first of the usual paths)")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="seconds each implementation's runs may take in all (default 120)")
    parser.add_argument("--probe-timeout", type=float, default=30.0,
                        help="seconds one probe may take before it counts as hung (default 30)")
    parser.add_argument("--expected", default=EXPECTED, help="the known-differences list")
    parser.add_argument("--only", help="comma-separated probes to run (no expected.txt checks "
                        "for the others)")
    parser.add_argument("--json", help="also write every result to this file")
    parser.add_argument("--write-expected", metavar="PATH",
                        help="write the known-differences list from this run")
    args = parser.parse_args()

    probes = probe_list()
    only = args.only.split(",") if args.only else None
    if only:
        unknown = set(only) - {p["probe"] for p in probes}
        if unknown:
            parser.error("unknown probes: %s" % ", ".join(sorted(unknown)))
        probes = [p for p in probes if p["probe"] in only]
    mesa_egl = args.mesa_egl or next((p for p in SYSTEM_LIBEGL if os.path.exists(p)),
                                     "libEGL.so.1")
    arena_lib = os.path.abspath(args.arenagl)

    started = time.monotonic()
    mesa_info, mesa, mesa_incidents = run_implementation(
        "llvmpipe", mesa_egl, mesa_env(), args.timeout, args.probe_timeout, only, reference=True)
    arena_info, arena, arena_incidents = run_implementation(
        "arenagl", arena_lib, arenagl_env(), args.timeout, args.probe_timeout, only,
        reference=False)
    elapsed = time.monotonic() - started

    for label, info in (("llvmpipe", mesa_info), ("arenagl", arena_info)):
        core = (info or {}).get("core") or {}
        compat = (info or {}).get("compat") or {}
        print("%-9s %s | %s | compat: %s" % (label + ":", core.get("renderer"),
                                             core.get("version"), compat.get("version")))
    print()

    expected = read_expected(args.expected)
    rows, failures = verdicts(probes, mesa, arena, expected, args.expected)
    failures = arena_incidents + failures
    if not only:
        names = {p["probe"] for p in probes}
        for name in sorted(set(expected) - names):
            failures.append("%s is listed in %s but is no probe" % (name, args.expected))

    print_table(rows)
    families = sorted({p["family"] for p in probes})
    against_mesa = [r for r in rows if not r["spec"]]
    against_spec = [r for r in rows if r["spec"]]
    print()
    print("%d probes in %d %s; %d of %d agree with llvmpipe, %d of %d with the "
          "specification; %d known differences; %.1fs"
          % (len(rows), len(families), "family" if len(families) == 1 else "families",
             sum(r["agrees"] for r in against_mesa), len(against_mesa),
             sum(r["agrees"] for r in against_spec), len(against_spec),
             sum(1 for r in rows if r["verdict"].startswith("known")), elapsed))
    if mesa_incidents:
        print("\nllvmpipe (the reference) had trouble; its results for those probes are missing:")
        for line in mesa_incidents:
            print("  " + line)

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"llvmpipe": {"info": mesa_info, "results": mesa},
                       "arenagl": {"info": arena_info, "results": arena}}, f, indent=1,
                      sort_keys=True)
    if args.write_expected:
        write_expected(args.write_expected, rows, expected)
        print("\nwrote %s" % args.write_expected)

    if failures:
        print("\nFAILED:")
        for line in failures:
            print("  " + line)
        return 1
    print("\nPASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
