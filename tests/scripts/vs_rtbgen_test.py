#!/usr/bin/env python3
"""scripts/vs-rtbgen.py without Syzygy's sources: the sub-tables rtbgen is made to build for a pawn
table (from tbgen's dry runs), in an order where each comes after those it reads, and bad input
refused before anything is cloned or built, and a stopped rtbgen leaving no file of its table.

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


# Stands in for rtbgen ("-t N TABLE"): writes the table's two files, or only part of them and fails
# when the table is $FAIL_AT, as a run stopped midway would.
FAKE_GENERATOR = """#!/bin/sh
if [ "$3" = "$FAIL_AT" ]; then echo partial > "$3.rtbw"; exit 1; fi
echo wdl > "$3.rtbw"; echo dtz > "$3.rtbz"
"""


def check_stopped_build(vs, bin_dir):
    with tempfile.TemporaryDirectory() as work:
        src = os.path.join(work, "tb")
        os.makedirs(os.path.join(src, "src"))
        for name in ("rtbgen", "rtbgenp"):
            path = os.path.join(src, "src", name)
            with open(path, "w") as f:
                f.write(FAKE_GENERATOR)
            os.chmod(path, 0o755)
        rtb = os.path.join(work, "rtb")
        os.environ["FAIL_AT"] = "KQvK"
        try:
            vs.build_syzygy_tables(src, bin_dir, ["KQvKR"], work, 1)
            raise AssertionError("a failed rtbgen went unnoticed")
        except SystemExit as e:
            assert "failed" in str(e), e
        built = sorted(os.listdir(rtb))
        assert "KBvK.rtbz" in built and not any(f.startswith("KQvK.") for f in built), built
        del os.environ["FAIL_AT"]
        vs.build_syzygy_tables(src, bin_dir, ["KQvKR"], work, 1)
        for ext in (".rtbw", ".rtbz"):
            assert os.path.exists(os.path.join(rtb, "KQvK" + ext)), os.listdir(rtb)
        with open(os.path.join(rtb, "KQvK.rtbw")) as f:
            assert f.read() == "wdl\n"


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
    check_stopped_build(vs, bin_dir)
    print("vs-rtbgen: sub-tables, their order, bad input and a stopped build: ok")


if __name__ == "__main__":
    main()
