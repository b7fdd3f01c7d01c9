#!/usr/bin/env python3
"""Measures the per-entry rates of the cost model (lib/jobs/reference_rates.hpp) on this machine.

Usage: scripts/measure-rates.py [--bin build/bin] [--dir /tmp/rates] [--threads 2] [TABLE ...]

Builds every table of 3 and 4 men into DIR (untimed), then builds each TABLE on its own with its
sub-tables in place, pawn tables twice: held in memory, then the lean way (`--cache 1K`: solved
slices on disk, promotions read in part) in DIR/lean, where the tables it promotes into are
self-contained, as the job that builds them for a lean table writes them. Each build is a `tbgen`
process of its own, and its user and system CPU time is what counts (less that of the same command
with --dry-run: starting, checking the files already there and planning happen once per job), not
its wall time: on a shared machine the wall time measures the neighbours. tbgen's "solved in S,
written in W" line splits that CPU between the solve and the write in proportion, leaving out the
completion of sub-tables before the solve ("its N sub-tables completed in C"), which a whole job
does not pay (it reads its own tables from their exact copies). Prints each build, the calibration
`tbgen --calibrate` measures here, and the rates per kind and number of men (the sum of the CPU
over the sum of the entries) as the C++ lines of reference_rates.hpp.
"""
import argparse
import importlib.util
import os
import re
import resource
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("job_report", os.path.join(HERE, "job-report.py"))
job_report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(job_report)

DEFAULT_TABLES = ["KQvKR", "KRvKN", "KRvKP", "KPvKP", "KRBvKR", "KQRvKN", "KRPvKR"]
ORDER = re.compile(r"^to build, in this order: (.*)$", re.M)
PLANNED = re.compile(r"^(\w+) +[\d.e+]+ entries a side")
TIMES = re.compile(r"^(\w+) (\d+) ")
CALIBRATION = re.compile(r"calibration: ([\d.]+) s of CPU")


def run(args, timed=False):
    """Runs a command; returns its output and, when timed, its user + system CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(" ".join(args) + " failed:\n" + done.stdout)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return done.stdout, cpu if timed else None


def men(name):
    return sum(c.isupper() for c in name)


def kind(name, lean):
    if "P" not in name:
        return "Pawnless"
    return "PawnsLean" if lean else "PawnsInMemory"


def dry_run(tbgen, table, directory):
    """The plan tbgen prints for a job of `table` in `directory`."""
    plan, _ = run([tbgen, table, "-o", directory, "--dry-run", "--no-disk-check"])
    return plan


def to_build(tbgen, table, directory):
    """The tables a job for `table` would build in `directory` before it, in order."""
    order = ORDER.search(dry_run(tbgen, table, directory))
    return [t for t in (order.group(1).split() if order else []) if t != table]


def promoted_into(tbgen, table):
    """The tables of as many men that `table`'s promotions reach: the dry run in an empty directory
    names each table of the most men that the job would build."""
    with tempfile.TemporaryDirectory() as empty:
        plan = dry_run(tbgen, table, empty)
    return [m.group(1) for m in map(PLANNED.match, plan.splitlines())
            if m and m.group(1) != table and men(m.group(1)) == men(table)]


def lean_directory(tbgen, directory, threads, table):
    """A directory beside `directory` with its tables, those `table` promotes into (as many men)
    rewritten self-contained, as the job that builds them for a lean table writes them."""
    lean_dir = os.path.join(directory, "lean")
    os.makedirs(lean_dir, exist_ok=True)
    promoted = promoted_into(tbgen, table)
    tbpack = os.path.join(os.path.dirname(tbgen), "tbpack")
    for name in os.listdir(directory):
        if name.endswith(".rtb") and name[:-4] not in promoted and name[:-4] != table:
            subprocess.run(["cp", "-p", os.path.join(directory, name), lean_dir], check=True)
    if promoted:
        run([tbpack, "--self-contained", "-t", str(threads), "--overwrite", directory, lean_dir, *promoted])
    return lean_dir


def remove_table(directory, table):
    """Removes the files of `table` in `directory`, so that it is built again."""
    for suffix in (".rtb", ".rtw"):
        path = os.path.join(directory, table + suffix)
        if os.path.exists(path):
            os.remove(path)


def measure(tbgen, directory, threads, table, lean):
    """CPU seconds of the solve and of the write, and the entries (both sides), of one build."""
    remove_table(directory, table)
    needed = to_build(tbgen, table, directory)
    if needed:
        run([tbgen, *needed, "-o", directory, "-t", str(threads), "-q"])
    if lean:
        directory = lean_directory(tbgen, directory, threads, table)
        remove_table(directory, table)
    options = ["--cache", "1K"] if lean else []
    # What a job pays once, not per table: starting, checking the files already there, planning.
    _, once = run([tbgen, table, "-o", directory, "-t", str(threads), "--dry-run", *options], timed=True)
    output, cpu = run([tbgen, table, "-o", directory, "-t", str(threads), *options], timed=True)
    cpu -= once
    with open(os.path.join(directory, table + ("-lean" if lean else "") + ".out"), "w") as kept:
        kept.write(output)
    solved = [m for m in map(job_report.SOLVED.match, output.splitlines()) if m and m.group(1) == table]
    if not solved:
        sys.exit("no 'solved in' line for " + table + ":\n" + output)
    solve_wall, write_wall = job_report.seconds(solved[-1].group(2)), job_report.seconds(solved[-1].group(4))
    # Completing the sub-tables whose files settle values by exits: a job reads its own tables from
    # their exact copies instead, so this is no cost of the table.
    chains = [m for m in map(job_report.CHAIN.match, output.splitlines()) if m and m.group(1) == table]
    chain_wall = job_report.seconds(chains[-1].group(3)) if chains else 0.0
    with open(os.path.join(directory, "tbgen.times")) as times:
        entries = [int(m.group(2)) for m in map(TIMES.match, times) if m and m.group(1) == table][-1]
    wall = max(chain_wall + solve_wall + write_wall, 1e-9)
    return cpu * solve_wall / wall, cpu * write_wall / wall, entries


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tables", nargs="*", default=DEFAULT_TABLES)
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--dir", default="/tmp/rates")
    parser.add_argument("--threads", type=int, default=2)
    a = parser.parse_args()
    tbgen = os.path.join(a.bin, "tbgen")
    os.makedirs(a.dir, exist_ok=True)
    with open("/proc/loadavg") as f:
        load_before = f.read().split()[0]
    run([tbgen, "--all", "4", "-o", a.dir, "-t", str(a.threads), "-q"])
    sums = {}  # (kind, men) -> [solve CPU, write CPU, entries]
    for table in a.tables:
        for lean in (False, True) if kind(table, False) != "Pawnless" else (False,):
            solve, write, entries = measure(tbgen, a.dir, a.threads, table, lean)
            k = (kind(table, lean), men(table))
            s = sums.setdefault(k, [0.0, 0.0, 0])
            s[0], s[1], s[2] = s[0] + solve, s[1] + write, s[2] + entries
            print(f"{table:8} {k[0]:14} {entries:>11} entries  solve {solve:7.2f} s  write {write:6.2f} s of CPU"
                  f"  ({1e9 * solve / entries:.1f} + {1e9 * write / entries:.1f} ns per entry)", flush=True)
    calibration, _ = run([tbgen, "--calibrate"])
    with open("/proc/loadavg") as f:
        load_after = f.read().split()[0]
    print(f"load average {load_before} before, {load_after} after; {calibration.strip()}")
    seconds = CALIBRATION.search(calibration)
    print(f"inline constexpr double REFERENCE_CALIBRATION_SECONDS = {seconds.group(1) if seconds else '?'};")
    print("inline constexpr ReferenceRate REFERENCE_RATES[] = {")
    for (k, n), (solve, write, entries) in sorted(sums.items()):
        print(f"    {{TableKind::{k}, {n}, {{{solve / entries:.3e}, {write / entries:.3e}}}}},")
    print("};")


if __name__ == "__main__":
    main()
