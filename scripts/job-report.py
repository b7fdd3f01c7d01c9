#!/usr/bin/env python3
"""Sums up a generation job from its log, across every run that resumed it.

Usage: scripts/job-report.py tables/tbgen.log [--slowest N]

A job stopped and resumed (Ctrl-C, kill, reboot) leaves several runs in one log. This prints the
wall time of each run and their sum (the job's time, pauses between runs excluded), the time spent
solving and writing (and, apart, completing sub-tables an earlier job built), the slowest tables,
the peak memory the runs reported and the disk the tables take. Times of tables that were resumed count only their last run in the per-table figures.
Against the projection the first run printed: the job's time, and each of the largest tables' solve
and write, as a ratio of measured to projected.
"""
import argparse
import datetime
import os
import re
import sys

STAMP = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) (.*)$")
SOLVED = re.compile(r"^(\w+): solved in (.+?) \(.*\), (\S+) written in (.+?) \((.+)\)$")
PEAK = re.compile(r"peak memory ([\d.]+ \w?i?B)")
CHAIN = re.compile(r"^(\w+): its (\d+) sub-tables? completed in (.+?); solving$")
PROJECTED = re.compile(r"^projected time: about (.+?) for (\d+) tables?")
PROJECTED_LARGEST = re.compile(r"^projected time of the largest tables: (.*)$")
TABLE_PEAK = re.compile(r"^(\w+): done; peak memory ([\d.]+ \w?i?B) \(estimated ([\d.]+ \w?i?B)")
UNITS = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}


def seconds(text):
    """'1 h 02 min', '3 min 05 s', '12 s', '0.4 s' -> seconds."""
    total = 0.0
    for value, unit in re.findall(r"([\d.]+) (h|min|s)\b", text):
        total += float(value) * {"h": 3600, "min": 60, "s": 1}[unit]
    return total


def size(text):
    value, unit = text.split()
    return float(value) * UNITS[unit]


def duration(s):
    s = int(round(s))
    return f"{s // 3600} h {s % 3600 // 60:02d} min {s % 60:02d} s" if s >= 3600 else f"{s // 60} min {s % 60:02d} s"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log")
    parser.add_argument("--slowest", type=int, default=5)
    args = parser.parse_args()

    runs = []  # [first stamp, last stamp]
    tables = {}  # material -> (solve s, write s, file, size text)
    chains = {}  # material -> (sub-tables completed before its solve, seconds)
    peaks = []
    table_peaks = {}  # material -> (measured, estimated) bytes
    projected = None  # the first run's: (seconds, tables)
    projected_tables = {}  # material -> seconds, the largest tables' in the first run's projection
    with open(args.log) as f:
        for line in f:
            m = STAMP.match(line.rstrip("\n"))
            if not m:
                continue
            stamp = datetime.datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S")
            text = m.group(2)
            if text.startswith("start:") or not runs:
                runs.append([stamp, stamp])
            runs[-1][1] = stamp
            if solved := SOLVED.match(text):
                name, solve, path, write, file_size = solved.groups()
                tables[name] = (seconds(solve), seconds(write), path, file_size)
            elif (proj := PROJECTED.match(text)) and len(runs) == 1:
                projected = (seconds(proj.group(1)), int(proj.group(2)))
            elif (largest := PROJECTED_LARGEST.match(text)) and len(runs) == 1:
                for item in largest.group(1).split(", "):
                    name, _, time = item.partition(" ")
                    projected_tables[name] = seconds(time)
            elif chain := CHAIN.match(text):
                chains[chain.group(1)] = (int(chain.group(2)), seconds(chain.group(3)))
            elif peak := PEAK.search(text):
                peaks.append(size(peak.group(1)))
                if table_peak := TABLE_PEAK.match(text):
                    name, measured, estimated = table_peak.groups()
                    table_peaks[name] = (size(measured), size(estimated))
    if not runs:
        sys.exit(f"{args.log}: no tbgen log lines")

    wall = [(end - begin).total_seconds() for begin, end in runs]
    print(f"runs: {len(runs)}, wall time {duration(sum(wall))}" +
          (" (" + " + ".join(duration(w) for w in wall) + ")" if len(runs) > 1 else ""))
    solve = sum(t[0] for t in tables.values())
    write = sum(t[1] for t in tables.values())
    print(f"tables built: {len(tables)}; solving {duration(solve)}, writing {duration(write)}"
          f" ({100 * write / max(solve + write, 1e-9):.0f}% of the two)")
    if chains:  # files of an earlier job, settled by exits: not counted as solving
        print(f"completing sub-tables built by an earlier job: {sum(c[0] for c in chains.values())} tables"
              f" in {duration(sum(c[1] for c in chains.values()))}, before {len(chains)} of the tables built")
    slowest = sorted(tables.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))[: args.slowest]
    print("slowest: " + ", ".join(f"{name} {duration(s + w)} (solve {duration(s)}, write {duration(w)})"
                                  for name, (s, w, _, _) in slowest))
    if peaks:
        print(f"peak memory reported: {max(peaks) / (1 << 30):.2f} GiB")
    if table_peaks:
        # Small tables are mostly the process itself, which varies by a few MiB: judged from 256 MiB.
        large = {n: p for n, p in table_peaks.items() if p[1] >= 256 << 20}
        worst = max(large.items(), key=lambda kv: kv[1][0] / kv[1][1], default=None)
        over = sorted(n for n, (measured, estimated) in large.items() if measured > 1.1 * estimated)
        tables_text = f"{len(table_peaks)} table" + ("s" if len(table_peaks) != 1 else "")
        print(f"peak memory against the estimate: {tables_text}, {len(large)} estimated at"
              " 256 MiB or more" + (f"; the most over: {worst[0]} {worst[1][0] / (1 << 30):.2f} GiB of"
                                    f" {worst[1][1] / (1 << 30):.2f} ({100 * worst[1][0] / worst[1][1] - 100:+.0f}%)"
                                    if worst else "") +
              (f"; more than 10% over: {' '.join(over)}" if over else "; none more than 10% over"))
    if projected:
        seconds_taken, count = sum(wall), projected[1]
        print(f"projected at the start: {duration(projected[0])} for {count} tables; " +
              (f"the job took {duration(seconds_taken)}, {seconds_taken / max(projected[0], 1e-9):.2f} times that"
               if len(tables) >= count else f"{len(tables)} of them built so far, in {duration(seconds_taken)}"))
    # The largest tables built: (name, solve and write, projected).
    built = [(name, sum(tables[name][:2]), p) for name, p in projected_tables.items() if name in tables]
    if built:
        print("largest tables, measured against projected: " +
              ", ".join(f"{name} {duration(taken)} against {duration(p)} ({taken / max(p, 1e-9):.2f})"
                        for name, taken, p in built))
    disk = sum(os.path.getsize(t[2]) for t in tables.values() if os.path.exists(t[2]))
    print(f"disk: {disk / 1e9:.2f} GB in the {len(tables)} files built")


if __name__ == "__main__":
    main()
