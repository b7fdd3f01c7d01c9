#!/usr/bin/env bash
# Long verification run: interruptions lose nothing and change nothing.
#
# Builds a set of tables once without interruption (the reference), then builds it again into another
# directory while killing tbgen with SIGKILL at random moments (and once with SIGINT, the clean stop),
# resuming each time with the same command, and finally checks that every table file is
# byte-identical (cmp) to the reference and that no checkpoint or temporary file is left behind.
# Checkpoints are written every few seconds, so most kills land inside a table and the next run
# resumes from its checkpoint.
#
# Usage: scripts/kill-resume-test.sh [--all N | MATERIAL...] [--kills K] [--max-seconds S] [--seed X]
#                                    [--threads T] [--work DIR] [--bin DIR] [--keep]
#                                    [--tbgen "OPTIONS"]
# Default: --all 4 --kills 8 --max-seconds 20 (about 5 to 10 minutes on 2 cores). --tbgen passes
# options to every tbgen run, e.g. "--cache 1" (pawn tables with their slices on disk and their
# promotions read in part). Exit status 0 when every file matches. Not part of ctest (too long);
# see CONTRIBUTING.md.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${BIN:-$ROOT/build/bin}"
TABLES=()
ALL=""
KILLS=8
MAX_SECONDS=20
SEED=$$
THREADS=0
WORK=""
KEEP=0
EXTRA=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --all) ALL="$2"; shift 2 ;;
        --kills) KILLS="$2"; shift 2 ;;
        --max-seconds) MAX_SECONDS="$2"; shift 2 ;;
        --seed) SEED="$2"; shift 2 ;;
        --threads) THREADS="$2"; shift 2 ;;
        --work) WORK="$2"; shift 2 ;;
        --bin) BIN="$2"; shift 2 ;;
        --keep) KEEP=1; shift ;;
        --tbgen) read -r -a EXTRA <<< "$2"; shift 2 ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        -*) echo "unknown option $1" >&2; exit 2 ;;
        *) TABLES+=("$1"); shift ;;
    esac
done
if [[ -z "$ALL" && ${#TABLES[@]} -eq 0 ]]; then ALL=4; fi
SET=()
[[ -n "$ALL" ]] && SET+=(--all "$ALL")
SET+=("${TABLES[@]}" "${EXTRA[@]}")

TBGEN="$BIN/tbgen"
[[ -x "$TBGEN" ]] || { echo "no tbgen in $BIN (build first, or pass --bin DIR)" >&2; exit 2; }
if [[ -z "$WORK" ]]; then WORK="$(mktemp -d -t retro-kill-resume.XXXXXX)"; fi
mkdir -p "$WORK"
REF="$WORK/reference"
RUN="$WORK/interrupted"
rm -rf "$REF" "$RUN"
RANDOM=$SEED
echo "kill-resume: set: ${SET[*]}; $KILLS kills within ${MAX_SECONDS} s each; seed $SEED; work dir $WORK"

start=$(date +%s)
"$TBGEN" "${SET[@]}" -q -t "$THREADS" -o "$REF" > "$WORK/reference.out" 2>&1
ref_seconds=$(( $(date +%s) - start ))
echo "reference: $(ls "$REF"/*.rtb | wc -l) tables in ${ref_seconds} s"

# tbgen in the background with frequent checkpoints (every 3 s); prints its exit status.
run_tbgen() {
    "$TBGEN" "${SET[@]}" -q -t "$THREADS" -o "$RUN" --checkpoint-minutes 0.05 >> "$WORK/interrupted.out" 2>&1 &
    PID=$!
}

kills=0 landed_in_table=0 finished_early=0
for ((k = 1; k <= KILLS; ++k)); do
    run_tbgen
    # A random moment between 0.5 s and MAX_SECONDS.
    delay=$(awk -v r=$RANDOM -v m="$MAX_SECONDS" 'BEGIN { printf "%.2f", 0.5 + (m - 0.5) * r / 32767 }')
    sleep "$delay"
    if kill -0 "$PID" 2>/dev/null; then
        if (( k == KILLS / 2 )); then sig=INT; else sig=KILL; fi
        kill -s "$sig" "$PID" || true
        set +e; wait "$PID" 2>/dev/null; status=$?; set -e
        checkpoints=$(find "$RUN" -name "*.checkpoint" | wc -l)
        tables=$(find "$RUN" -name "*.rtb" | wc -l)
        echo "run $k: SIG$sig after ${delay} s (exit status $status): $tables tables done, $checkpoints checkpoint(s)"
        kills=$((kills + 1))
        (( checkpoints > 0 )) && landed_in_table=$((landed_in_table + 1))
        if [[ $sig == INT && $status -eq 0 ]]; then echo "FAIL: a stopped run exited 0" >&2; exit 1; fi
    else
        set +e; wait "$PID" 2>/dev/null; status=$?; set -e
        echo "run $k: finished before the kill (exit status $status)"
        finished_early=1
        break
    fi
done
# The last run goes to the end.
"$TBGEN" "${SET[@]}" -q -t "$THREADS" -o "$RUN" --checkpoint-minutes 0.05 >> "$WORK/interrupted.out" 2>&1
resumes=$(grep -c "resumed from" "$RUN/tbgen.log" || true)
echo "final run done: $kills interruptions ($landed_in_table inside a table with a checkpoint), $resumes resumes from a checkpoint"

fail=0
count=0
for f in "$REF"/*.rtb; do
    name=$(basename "$f")
    count=$((count + 1))
    if ! cmp -s "$f" "$RUN/$name"; then
        echo "FAIL: $name differs from the uninterrupted run" >&2
        fail=1
    fi
done
if [[ $(ls "$RUN"/*.rtb | wc -l) -ne $count ]]; then echo "FAIL: different numbers of tables" >&2; fail=1; fi
leftovers=$(ls "$RUN" | grep -E '\.checkpoint|\.tmp|\.layers|\.slices' || true)
if [[ -n "$leftovers" ]]; then echo "FAIL: left behind: $leftovers" >&2; fail=1; fi
if (( fail )); then
    echo "kill-resume: FAILED (files kept in $WORK)"
    exit 1
fi
echo "kill-resume: OK: $count tables byte-identical to the uninterrupted run after $kills interruptions"
(( KEEP )) || rm -rf "$WORK"
