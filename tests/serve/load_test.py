"""A short load test of tbserve on loopback: wrk (Debian's package) runs for a few seconds with 16
connections against a real tbserve and reports requests per second and latency percentiles. Fails
on any error, non-2xx answer or timeout; the figures depend on the machine and whatever else runs,
so only a generous bound on latency is checked.

Usage: load_test.py --bin BUILD/bin --tables DIR [--out DIR] [--seconds N] [--connections N]"""

import argparse
import os
import re
import subprocess
import sys

from tbserve_process import TbServe, require


def milliseconds(text):
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(value) * {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 6e4}[unit]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--tables", required=True)
    parser.add_argument("--out", help="directory for serve_load.txt, the report")
    parser.add_argument("--seconds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2, help="tbserve's threads")
    args = parser.parse_args()
    wrk = require("wrk", "wrk")
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "load.lua")
    with TbServe(args.bin, os.path.abspath(args.tables), threads=args.threads) as server:
        command = [wrk, "-t2", f"-c{args.connections}", f"-d{args.seconds}s", "--timeout", "5s", "--latency",
                   "-s", script, server.url]
        run = subprocess.run(command, capture_output=True, text=True, timeout=args.seconds + 60)
    out = run.stdout
    print(out)
    assert run.returncode == 0, run.stderr
    assert "Non-2xx" not in out, "some answers were not 200"
    assert "Socket errors" not in out, "connection errors or timeouts"
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    total = int(re.search(r"(\d+) requests in", out).group(1))
    p50, p99 = (milliseconds(re.search(rf"\s{p}%\s+(\S+)", out).group(1)) for p in (50, 99))
    assert total > 0 and rate > 0
    assert p99 < 2000, f"p99 latency {p99} ms"
    report = (f"tbserve load: {rate:.0f} requests/s, latency p50 {p50:.2f} ms, p99 {p99:.2f} ms "
              f"({total} requests; {' '.join(os.path.basename(c) for c in command[:-1])} URL; "
              f"tbserve --threads {args.threads})")
    print(report)
    if args.out:
        with open(os.path.join(args.out, "serve_load.txt"), "w") as f:
            f.write(report + "\n\n" + out)


if __name__ == "__main__":
    sys.exit(main())
