#!/usr/bin/env python3
"""retrograde's solve against Syzygy's generator (rtbgen -g), side by side on this machine.

Usage: scripts/vs-rtbgen.py [TABLE...] [--source GIT] [--work DIR] [--threads 2] [--pairs 3]
                            [--bin build/bin]

rtbgen -g solves a table (WDL and DTZ, both sides to move, ply by ply) and writes nothing; its pawn
twin is rtbgenp. It is not part of this project: the script clones syzygy1/tb (or --source, any
path or URL git clones) into WORK/tb, builds rtbgen and rtbgenp there with the upstream Makefile
(gcc, libzstd-dev), and has them build the sub-tables they read (every table of fewer men, and the
tables of as many men the promotions reach) into WORK/rtb. retrograde's sub-tables are built by
tbbench into WORK/ours. Nothing is written in this repository, and WORK is kept for the next run.

Then, --pairs times, each table is solved by both, one after the other, whole processes:
  retrograde: `tbbench --table T --threads N --repeat 1 --warmup 0` (its solve only: the loading
              of the sub-tables is untimed);
  Syzygy:     `rtbgen -t N -g T` (its whole process, which opens its sub-tables as it probes them).
and the medians and their ratios (retrograde / rtbgen; below 1 is faster) are printed, of wall
time and of CPU time (user + system). Run it when nothing else runs: the pairs alternate so that
drift in the machine's speed reaches both.
"""
import argparse
import csv
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time

UPSTREAM = "https://github.com/syzygy1/tb"
DEFAULT_TABLES = ["KQvKR", "KRBvKR", "KRPvKR"]
GENERATORS = ("rtbgen", "rtbgenp")  # pawnless and pawn tables


def fail(message):
    sys.exit(f"vs-rtbgen: {message}")


def run(cmd, **kwargs):
    """Runs cmd, failing with its output when it fails."""
    done = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        fail(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return done.stdout


def generator(src, table):
    return os.path.join(src, "src", "rtbgenp" if "P" in table else "rtbgen")


def build_syzygy(source, work):
    """Clones and builds rtbgen and rtbgenp in WORK/tb; returns the checkout."""
    src = os.path.join(work, "tb")
    if not os.path.isdir(src):
        print(f"cloning {source} into {src}", file=sys.stderr)
        run(["git", "clone", "--quiet", source, src])
    if not all(os.access(os.path.join(src, "src", g), os.X_OK) for g in GENERATORS):
        if not shutil.which("gcc") or not os.path.exists("/usr/include/zstd.h"):
            fail("building rtbgen needs gcc and libzstd-dev (apt-get install gcc make libzstd-dev)")
        print("building rtbgen and rtbgenp", file=sys.stderr)
        run(["make", "-C", os.path.join(src, "src"), *GENERATORS])
    return src


def tables_of(bin_dir, job, empty):
    """The tables tbgen's dry run of `job` into the empty directory lists on stdout: those of the
    most men it builds."""
    out = run([os.path.join(bin_dir, "tbgen"), "--dry-run", "-o", empty, *job])
    return [m.group(1) for m in re.finditer(r"^(K[QRBNP]*vK[QRBNP]*) .* entries a side", out, re.MULTILINE)]


def syzygy_subtables(bin_dir, target, empty):
    """Every table rtbgen reads for target, fewer men first."""
    men = len(target) - 1  # the letters but the 'v'
    tables = []
    for n in range(3, men):
        tables += tables_of(bin_dir, ["--all", str(n)], empty)
    tables += [t for t in tables_of(bin_dir, [target], empty) if t != target]
    return tables


SYZYGY_EXTENSIONS = (".rtbw", ".rtbz")  # the WDL and DTZ files of one table


def build_order(tables):
    """The tables once each, every one after those it reads: those of fewer men, and of as many men
    and fewer pawns (its promotions)."""
    return sorted(set(tables), key=lambda t: (len(t), t.count("P"), t))


def build_syzygy_tables(src, bin_dir, targets, work, threads):
    rtb = os.path.join(work, "rtb")
    os.makedirs(rtb, exist_ok=True)
    env = dict(os.environ, RTBPATH=rtb)
    empty = os.path.join(work, "empty")
    os.makedirs(empty, exist_ok=True)
    wanted = build_order(t for target in targets for t in syzygy_subtables(bin_dir, target, empty))
    # rtbgen writes its files as it goes: each table is built aside and moved in once whole, so a
    # run that was stopped leaves no file that looks complete.
    building = os.path.join(work, "building")
    for t in wanted:
        if all(os.path.exists(os.path.join(rtb, t + ext)) for ext in SYZYGY_EXTENSIONS):
            continue
        print(f"rtbgen: building the sub-table {t}", file=sys.stderr)
        shutil.rmtree(building, ignore_errors=True)
        os.makedirs(building)
        run([generator(src, t), "-t", str(threads), t], cwd=building, env=env)
        for ext in SYZYGY_EXTENSIONS:
            os.replace(os.path.join(building, t + ext), os.path.join(rtb, t + ext))
    return rtb


def child_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_rtbgen(src, rtb, table, threads):
    """Wall and CPU seconds of one `rtbgen -g` process."""
    scratch = os.path.join(rtb, "run")
    os.makedirs(scratch, exist_ok=True)
    cpu, start = child_cpu(), time.monotonic()
    run([generator(src, table), "-t", str(threads), "-g", table], cwd=scratch, env=dict(os.environ, RTBPATH=rtb))
    return time.monotonic() - start, child_cpu() - cpu


def time_ours(bin_dir, ours, table, threads):
    """Wall and CPU seconds of the solve tbbench times (its CSV row's median_s and cpu_s)."""
    csv_path = os.path.join(ours, "run.csv")
    run([os.path.join(bin_dir, "tbbench"), "--table", table, "--threads", str(threads), "--repeat", "1",
         "--warmup", "0", "--dir", ours, "--csv", csv_path])
    with open(csv_path, newline="") as f:
        row = next(csv.DictReader(f))
    return float(row["median_s"]), float(row["cpu_s"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    parser.add_argument("tables", nargs="*", default=DEFAULT_TABLES, help=f"default: {' '.join(DEFAULT_TABLES)}")
    parser.add_argument("--source", default=UPSTREAM, help=f"what git clones syzygy1/tb from (default {UPSTREAM})")
    parser.add_argument("--work", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "vs-rtbgen"),
                        help="where both generators and their sub-tables are built (default $TMPDIR/vs-rtbgen)")
    parser.add_argument("--threads", type=int, default=2, help="threads of both (default 2)")
    parser.add_argument("--pairs", type=int, default=3, help="runs of each, alternated (default 3)")
    parser.add_argument("--bin", default="build/bin", help="retrograde's tbgen and tbbench (default build/bin)")
    args = parser.parse_args()
    for t in args.tables:
        if not re.fullmatch(r"K[QRBNP]*vK[QRBNP]*", t):
            fail(f"'{t}' is not a material like KRBvKR")
    if args.threads < 1 or args.pairs < 1:
        fail("--threads and --pairs must be at least 1")
    for tool in ("tbgen", "tbbench"):
        if not os.access(os.path.join(args.bin, tool), os.X_OK):
            fail(f"no {tool} in {args.bin}: build retrograde first (scripts/build.sh), or give --bin")
    os.makedirs(args.work, exist_ok=True)
    work = os.path.abspath(args.work)
    bin_dir = os.path.abspath(args.bin)

    src = build_syzygy(args.source, work)
    rtb = build_syzygy_tables(src, bin_dir, args.tables, work, args.threads)
    ours = os.path.join(work, "ours")
    os.makedirs(ours, exist_ok=True)
    times = {t: {"ours": [], "rtbgen": []} for t in args.tables}
    for p in range(args.pairs):
        for t in args.tables:
            times[t]["ours"].append(time_ours(bin_dir, ours, t, args.threads))
            times[t]["rtbgen"].append(time_rtbgen(src, rtb, t, args.threads))
            print(f"pair {p + 1}/{args.pairs} {t}: retrograde {times[t]['ours'][-1][0]:.2f} s, "
                  f"rtbgen {times[t]['rtbgen'][-1][0]:.2f} s", file=sys.stderr)

    print(f"{args.threads} threads, {args.pairs} pairs, medians")
    print(f"{'table':8} {'retrograde s':>12} {'rtbgen s':>9} {'ratio':>6} {'cpu ratio':>9}")
    for t in args.tables:
        ours_wall = statistics.median(w for w, _ in times[t]["ours"])
        ours_cpu = statistics.median(c for _, c in times[t]["ours"])
        theirs_wall = statistics.median(w for w, _ in times[t]["rtbgen"])
        theirs_cpu = statistics.median(c for _, c in times[t]["rtbgen"])
        print(f"{t:8} {ours_wall:12.2f} {theirs_wall:9.2f} {ours_wall / theirs_wall:6.2f} "
              f"{ours_cpu / theirs_cpu:9.2f}")


if __name__ == "__main__":
    main()
