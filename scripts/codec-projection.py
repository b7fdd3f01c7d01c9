#!/usr/bin/env python3
"""Projects a whole set of table files onto other codecs and block sizes from a sample of each file.

Usage:
  for f in DIR/*.rtb; do STORED_SAMPLE=64 STORED_VARIANT=ranked build/bin/compress_study --only stored $f; done > study.txt
  scripts/codec-projection.py DIR study.txt [--baseline 'zstd15 2^17 ranked']

compress_study compresses a sample of every file's stored codes (runs of the largest block studied,
each block on its own) with each setting. A table's file size times a setting's sample bytes over
the baseline's (the setting the files were written with) projects the file in that setting. The
write time is projected from the files' write times in DIR/tbgen.log: the codec's share of a write
(--codec-share, 87% for zstd 15 by perf on KRBvKN) scaled by the setting's CPU over the
baseline's, the rest kept. Tables the study cannot read (codes not of 8 bits) keep their size and
time. Prints, per setting: the set's bytes, the change, the projected write time and the median
time to decode one block.
"""
import argparse
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib import import_module  # noqa: E402

job_report = import_module("job-report")

ROW = re.compile(r"^(\w+)\s+(.+?)\s+(\d+)\s+([\d.]+)\s+([\d.]+)$")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dir")
    parser.add_argument("study")
    parser.add_argument("--baseline", default="zstd15 2^17 ranked")
    parser.add_argument("--codec-share", type=float, default=0.87)
    args = parser.parse_args()

    rows = {}  # table -> setting -> (bytes, cpu, decode us)
    with open(args.study) as f:
        for line in f:
            m = ROW.match(line.strip())
            if m:
                rows.setdefault(m[1], {})[m[2]] = (int(m[3]), float(m[4]), float(m[5]))
    writes = {}
    log = os.path.join(args.dir, "tbgen.log")
    if os.path.exists(log):
        with open(log) as f:
            for line in f:
                m = job_report.SOLVED.match(line.split(" ", 2)[-1].strip())
                if m:
                    writes[m[1]] = job_report.seconds(m[4])
    names = sorted(n[:-4] for n in os.listdir(args.dir) if n.endswith(".rtb"))
    settings = sorted({s for r in rows.values() for s in r})
    size = {n: os.path.getsize(os.path.join(args.dir, n + ".rtb")) for n in names}
    total = sum(size.values())
    print(f"{len(names)} files, {total:,} B; {len([n for n in names if n in rows])} in the study; "
          f"written in {job_report.duration(sum(writes.values()))}")
    print(f"{'setting':24} {'bytes':>16} {'change':>8} {'write':>14} {'decode us':>10}")
    for s in settings:
        bytes_, write, decode = 0.0, 0.0, []
        for n in names:
            r = rows.get(n, {})
            if s in r and args.baseline in r and r[args.baseline][0] > 0:
                base = r[args.baseline]
                bytes_ += size[n] * r[s][0] / base[0]
                scale = r[s][1] / base[1] if base[1] > 0 else 1
                write += writes.get(n, 0) * (1 - args.codec_share + args.codec_share * scale)
                decode.append(r[s][2])
            else:
                bytes_ += size[n]
                write += writes.get(n, 0)
        print(f"{s:24} {bytes_:16,.0f} {100 * (bytes_ / total - 1):+7.1f}% "
              f"{job_report.duration(write):>14} {statistics.median(decode) if decode else 0:10.0f}")


if __name__ == "__main__":
    main()
