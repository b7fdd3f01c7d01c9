#!/usr/bin/env bash
# Long verification run: both forms of a set of tables hold exactly the solved values.
#
# FULL_DIR holds table files written by tbgen (e.g. `tbgen --all 5 -o FULL_DIR`). The script
#   1. with --verify, re-derives every value of every full file by forward moves (tbgen --verify),
#      which proves that the full form holds the solved values;
#   2. rewrites the set in the shipping form into SHIP_DIR (tbpack --shipping; one side to move per
#      file, the other rebuilt by a one-ply search);
#   3. compares every legal entry of both sides to move of every table, the shipping files read
#      through their rebuild, with the full files (tbdiff, sub-tables first, completing the files
#      through exact copies of the sub-tables already found identical, or completed once per form
#      first), and prints the size of both sets.
# Each step resumes: a rerun of the same command skips the tables that SHIP_DIR/roundtrip.log lists
# as verified or identical (tbpack skips complete files), so the whole set may take several sittings.
#
# Usage: scripts/roundtrip_forms.sh [--verify] [--threads T] [--bin DIR] FULL_DIR SHIP_DIR [PACK_OPTION...]
#   PACK_OPTION  passed to tbpack (e.g. --codec zstd); the default writes xz like tbgen
# Exit status: 0 when every table is identical in both forms; 1 otherwise. Times on 2 cores: the
# 3-4-man set about 2 minutes; the 145 tables of 3-5 men several hours (docs/guide.md).
# Not part of ctest (too long); the default suite checks the 3-4-man tables in-process
# (StoreShipping.EveryThreeAndFourManTableReadsBackToItsSolvedValuesInEachForm).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="$ROOT/build/bin"
THREADS=0
VERIFY=0
usage() { sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; }
while [[ $# -gt 0 && "$1" == --* ]]; do
    case "$1" in
        --verify) VERIFY=1; shift ;;
        --threads) THREADS="${2:?--threads needs a value}"; shift 2 ;;
        --bin) BIN="${2:?--bin needs a value}"; shift 2 ;;
        --help|-h) usage; exit 0 ;;
        *) echo "roundtrip_forms: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
done
if [[ $# -lt 2 ]]; then usage >&2; exit 2; fi
FULL="$1" SHIP="$2"
shift 2
[[ -d "$FULL" ]] || { echo "roundtrip_forms: no such directory: $FULL" >&2; exit 2; }

mkdir -p "$SHIP"
LOG="$SHIP/roundtrip.log"  # "verified NAME MTIME" and "identical NAME MTIME" lines of the tables done
touch "$LOG"
# A line counts only for the full file it was made from (its modification time): a table built again
# is checked again.
stamp() { echo "$1 $(stat -c %Y "$FULL/$1.rtb")"; }
done_before() { grep -qxF "$1 $(stamp "$2")" "$LOG"; }
shopt -s nullglob
NAMES=()
for f in "$FULL"/*.rtb; do NAMES+=("$(basename "$f" .rtb)"); done
[[ ${#NAMES[@]} -gt 0 ]] || { echo "roundtrip_forms: no table files in $FULL" >&2; exit 2; }

if [[ $VERIFY == 1 ]]; then
    echo "== verifying the full files by forward moves"
    for name in "${NAMES[@]}"; do
        done_before verified "$name" && continue
        "$BIN/tbgen" --verify -t "$THREADS" "$FULL/$name.rtb"
        echo "verified $(stamp "$name")" >> "$LOG"
    done
fi
echo "== writing the shipping form into $SHIP"
"$BIN/tbpack" -t "$THREADS" --shipping "$@" "$FULL" "$SHIP"
echo "== comparing every value"
TODO=()
for name in "${NAMES[@]}"; do
    if done_before identical "$name"; then echo "$name: identical (in $LOG)"; else TODO+=("$name"); fi
done
# Exact copies of the sub-tables (found identical, or completed once per form), through which the
# later tables complete their files (tbdiff --exact-copies: COPIES/a, COPIES/b); kept across
# sittings, removed once every table is identical.
COPIES="$SHIP/roundtrip-copies"
if [[ ${#TODO[@]} -gt 0 ]]; then
    # One tbdiff for the tables left, sub-tables first; each identical one logged as it comes.
    while IFS= read -r line; do
        case "$line" in
            "A: "* | "B: "* | "tbdiff: "* | IDENTICAL | "NOT IDENTICAL") ;;
            *", identical")
                echo "$line"
                echo "identical $(stamp "${line%%:*}")" >> "$LOG" ;;
            *) echo "$line" ;;  # a table that differs, with its first differences, or unreadable
        esac
    done < <("$BIN/tbdiff" -t "$THREADS" --exact-copies "$COPIES" "$FULL" "$SHIP" "${TODO[@]}")
fi
SAME=0
for name in "${NAMES[@]}"; do done_before identical "$name" && SAME=$((SAME + 1)); done
STATUS=$((SAME == ${#NAMES[@]} ? 0 : 1))
if [[ $STATUS == 0 ]]; then rm -rf "$COPIES"; fi
echo "full form:     $(du -cb "$FULL"/*.rtb | tail -1 | cut -f1) bytes"
echo "shipping form: $(du -cb "$SHIP"/*.rtb | tail -1 | cut -f1) bytes"
if [[ $STATUS == 0 ]]; then
    echo "IDENTICAL: ${#NAMES[@]} tables"
else  # differing tables are printed above; an interrupted compare leaves the rest unchecked
    echo "NOT IDENTICAL: $SAME of ${#NAMES[@]} tables identical; the others differ or were not compared (run again to go on)"
fi
exit $STATUS
