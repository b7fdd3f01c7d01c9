#!/usr/bin/env python3
"""scripts/vs-rtbgen.py without Syzygy's sources: the sub-tables rtbgen is made to build for a pawn
table (from tbgen's dry runs), in an order where each comes after those it reads, and bad input
refused before anything is cloned or built.

Usage: vs_rtbgen_test.py SCRIPT BIN (exit 0 when every check holds).
"""
import importlib.util
import os
import subprocess
import sys
import tempfile


def load(script):
    sys.dont_write_bytecode = True  # nothing written beside the script in the source tree
    spec = importlib.util.spec_from_file_location("vs_rtbgen", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def refused(script, args, message):
    done = subprocess.run([sys.executable, script, *args], capture_output=True, text=True)
    assert done.returncode != 0, f"{args} accepted"
    assert message in done.stderr, f"{args}: {done.stderr!r} lacks {message!r}"


def main():
    script, bin_dir = sys.argv[1], os.path.abspath(sys.argv[2])
    vs = load(script)
    with tempfile.TemporaryDirectory() as empty:
        tables = vs.syzygy_subtables(bin_dir, "KPPvKP", empty)
    # Every table of 3 and 4 men (5 and 30), and the 5-man tables the promotions reach.
    assert len([t for t in tables if len(t) == 4]) == 5, tables
    assert len([t for t in tables if len(t) == 5]) == 30, tables
    five = sorted(t for t in tables if len(t) == 6)
    assert "KQPvKP" in five and "KQQvKP" in five and "KPPvKP" not in five, five
    assert len(tables) == len(set(tables)), tables
    order = vs.build_order(tables)
    assert order.index("KQQvKP") < order.index("KQPvKP"), order  # KQPvKP promotes into KQQvKP
    assert all(len(a) <= len(b) for a, b in zip(order, order[1:])), order

    refused(script, ["KQvX", "--bin", bin_dir], "'KQvX' is not a material")
    refused(script, ["KQvKR", "--pairs", "0", "--bin", bin_dir], "--pairs must be at least 1")
    with tempfile.TemporaryDirectory() as nothing:
        refused(script, ["KQvKR", "--bin", nothing], f"no tbgen in {nothing}")
    print("vs-rtbgen: sub-tables, their order and bad input: ok")


if __name__ == "__main__":
    main()
