#!/usr/bin/env python3
"""How much of a solve is serial, and what that allows on more cores (Amdahl).

Usage: scripts/serial-share.py TABLE [--bin build/bin] [--dir tables] [--frequency 97] [--data F]

Records `tbbench --table TABLE --threads 1 --repeat 1 --warmup 0` with `perf record` (cpu-clock,
call graphs unwound by DWARF) and sorts the samples of the solve (those under solve_in_memory) by
their call stack:
  - parallel: inside a parallel loop or a pipeline stage (a TBB task's frame on the stack);
  - serial stage: in the pipelines' serial stage, the layer log's append (LayerLog::append), which
    takes the chunks one at a time in index order while the other threads scan the next ones;
  - serial: outside any parallel loop (between the loops of a ply, between plies).
The serial share s gives Amdahl's bound on n threads, 1 / (s + (1 - s) / n); the serial stage
overlaps the parallel one, and bounds the speedup by itself only where it is the longer.
Prints the shares, the serial functions that take the most samples (innermost, and the innermost
of the project's), and the bound at 2 to 16 threads.
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

# The frames of a parallel loop's or a pipeline stage's task; not task_arena::execute, which every
# solve run through with_threads is under.
PARALLEL = re.compile(r"tbb::detail::d1::(start_for|start_reduce|start_deterministic_reduce|"
                      r"stage_task|concrete_filter|function_invoker|start_scan|invoke_subroot_task)")
FRAME = re.compile(r"^\s+[0-9a-f]+ (.+?)(?:\+0x[0-9a-f]+)? \((.*)\)$")


def samples(perf_script):
    """Each sample's frames (function names), the innermost first."""
    frames = []
    for line in perf_script.splitlines():
        if not line.strip():
            if frames:
                yield frames
            frames = []
            continue
        m = FRAME.match(line)
        if m:
            frames.append(m.group(1))
    if frames:
        yield frames


def short(name):
    """A function's name without its arguments and template arguments."""
    depth, out = 0, []
    for c in name:
        if c in "<(":
            depth += 1
        elif c in ">)":
            depth -= 1
        elif depth == 0:
            out.append(c)
    return "".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("table")
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--dir", default="tables")
    parser.add_argument("--frequency", type=int, default=97)
    parser.add_argument("--data", help="keep the recording here (perf.data), or read it again if it exists")
    a = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = a.data or os.path.join(tmp, "perf.data")
        if not os.path.exists(data):
            subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", str(a.frequency), "--call-graph",
                            "dwarf,16384", "-o", data, "--", os.path.join(a.bin, "tbbench"), "--table", a.table,
                            "--threads", "1", "--repeat", "1", "--warmup", "0", "--dir", a.dir], check=True)
        script = subprocess.run(["perf", "script", "-i", data, "-F", "ip,sym,dso"], check=True,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    counts = collections.Counter()
    serial_functions = collections.Counter()
    serial_callers = collections.Counter()  # by the innermost function of the project
    for frames in samples(script):
        if not any("solve_in_memory" in f for f in frames):
            continue
        if any("LayerLog::append" in f for f in frames):
            counts["serial stage"] += 1
        elif any(PARALLEL.search(f) for f in frames):
            counts["parallel"] += 1
        else:
            counts["serial"] += 1
            serial_functions[short(frames[0])] += 1
            caller = next((f for f in frames if f.startswith("retro::")), frames[0])
            serial_callers[short(caller)] += 1
    total = sum(counts.values())
    if not total:
        sys.exit("no samples under solve_in_memory: is perf allowed (perf_event_paranoid) and tbbench built?")
    print(f"{a.table}: {total} samples of the solve on one thread, {a.frequency} per second")
    for kind in ("parallel", "serial stage", "serial"):
        print(f"  {kind:13} {counts[kind]:6}  {100 * counts[kind] / total:5.2f}%")
    print("  serial, by function (innermost frame):")
    for name, n in serial_functions.most_common(10):
        print(f"    {100 * n / total:5.2f}%  {name}")
    print("  serial, by the innermost function of the project:")
    for name, n in serial_callers.most_common(10):
        print(f"    {100 * n / total:5.2f}%  {name}")
    s = counts["serial"] / total
    bounds = " ".join(f"{n}: {1 / (s + (1 - s) / n):.2f}" for n in (2, 4, 8, 16))
    print(f"Amdahl's bound on the speedup with the serial share {100 * s:.2f}%: {bounds}")


if __name__ == "__main__":
    main()
