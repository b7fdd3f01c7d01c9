#!/usr/bin/env python3
"""Compares `tbgen --json` output (stdin) with the oracle statistics in tests/data/oracle.

Usage: build/bin/tbgen $(tail -n +2 tests/data/oracle/legal-counts.tsv | cut -f1) -o tables -q --json \\
           | scripts/compare_oracle.py
Exits 1 when any table disagrees; prints one line per table.
"""
import csv
import json
import os
import sys

ORACLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "oracle")


def read(name):
    with open(os.path.join(ORACLE, name)) as f:
        return list(csv.DictReader(f, delimiter="\t"))


stats = {(r["material"], r["side_to_move"]): r for f in ("three-man.tsv", "four-man.tsv") for r in read(f)}
longest = {r["material"]: r for r in read("max-dtm.tsv")}
failures = 0
for line in sys.stdin:
    table = json.loads(line)
    name, problems = table["material"], []
    for side in ("wtm", "btm"):
        got, want = table[side], stats.get((name, side))
        if want is None:
            continue
        for key in ("legal", "win", "draw", "loss", "checkmated"):
            if str(got[key]) != want[key]:
                problems.append(f"{side} {key} {got[key]} != {want[key]}")
        histogram = dict(item.split(":") for item in want["histogram"].split())
        if {k: str(v) for k, v in got["histogram"].items()} != histogram:
            problems.append(f"{side} histogram differs")
    if name in longest:
        show = lambda v: "-" if v < 0 else str(v)
        got = [show(table[s][k]) for s in ("wtm", "btm") for k in ("longest_win", "longest_loss")]
        want = [longest[name][f"{s}_longest_{k}"] for s in ("wtm", "btm") for k in ("win", "loss")]
        if got != want:
            problems.append(f"longest {got} != {want}")
    failures += bool(problems)
    print(f"{name}: " + ("; ".join(problems) if problems else "agrees with the oracle"))
sys.exit(1 if failures else 0)
