#!/usr/bin/env bash
# Thread-scaling benchmark: runs tbbench on one table at every thread count (default: 1 to the cores)
# and keeps the table, CSV and plot in bench-results/.
#
# Usage: scripts/bench-threads.sh [TABLE] [extra tbbench options...]
#   scripts/bench-threads.sh                         # KQvKR, 3 runs per thread count
#   scripts/bench-threads.sh KRBvKR --repeat 5       # a 5-man table (minutes per run)
#   scripts/bench-threads.sh KQvKR --threads 1,2,4,8,16,32,64
# Builds first when build/bin/tbbench is missing (BUILD=dir to use another build directory). The plot
# needs gnuplot (Debian: apt-get install gnuplot-nox); without it the plot is skipped.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${BUILD:-$ROOT/build}"
TABLE="${1:-KQvKR}"
[[ $# -gt 0 ]] && shift
if [[ ! -x "$BUILD/bin/tbbench" ]]; then
    "$ROOT/scripts/build.sh"
fi
OUT="$ROOT/bench-results"
mkdir -p "$OUT"
STAMP="$(date +%Y%m%d-%H%M%S)"
BASE="$OUT/$TABLE-$(hostname -s)-$STAMP"
DIR=(--dir "$ROOT/tables")
for arg in "$@"; do [[ $arg == --dir* ]] && DIR=(); done
"$BUILD/bin/tbbench" --table "$TABLE" "${DIR[@]}" --csv "$BASE.csv" --plot "$BASE.svg" "$@" | tee "$BASE.txt"
echo "results: $BASE.txt, $BASE.csv, $BASE.svg"
