#!/usr/bin/env bash
# Long verification run: the current solver gives exactly the values an older one gives.
#
# Builds tbgen of an older revision (default a51669a, the last solver before the one-byte-state
# rewrite) from `git archive` into a scratch build directory (Release, kept for the next run), runs
# it and the current build's tbgen (both writing self-contained files, when the old one can) over
# the same set of tables into OUT/old and OUT/new, prints the time of each run, then compares every
# legal entry of both sides to move of every table with tbdiff and lists which files are also
# byte-identical (cmp).
#
# Usage: scripts/compare_solvers.sh [--rev REV] [--threads T] [--out DIR] [--bin DIR]
#                                   [--old-build DIR] [--codec C] [--level N] [--subtables DIR]
#                                   (--all N | MATERIAL...)
#   --rev REV        the older revision (default a51669a)
#   --threads T      worker threads of both solvers (default 0: all cores)
#   --out DIR        where the tables go, OUT/old and OUT/new, and the logs (default: a new
#                    temporary directory). Tables already complete there are skipped, so the same
#                    command resumes an interrupted comparison (the times are then of this run only)
#   --bin DIR        the current build's tbgen and tbdiff (default build/bin)
#   --old-build DIR  scratch source and build of REV (default ${TMPDIR:-/tmp}/retro-solver-COMMIT)
#   --codec C        the codec both solvers write (xz, zstd or zlib; default xz). The values are
#                    compared, not the bytes, so `--codec zstd --level 1` saves most of the writing
#   --level N        compression level of both solvers (--level 1 writes xz about 4.7x faster)
#   --subtables DIR  the old solver takes every table but the named ones from DIR (linked into
#                    OUT/old) and solves only the named ones, which alone are compared; the current
#                    solver's are DIR's own when there (built by `tbgen NAMED... -o DIR` with this
#                    build), else solved with the same sub-tables. A closure is so built once, not by
#                    each solver. DIR's files must be readable by the old solver: self-contained
#                    (tbgen or tbpack --self-contained), format versions 1 to 5
# Exit status: tbdiff's (0: every table identical); 1 when a build or a solver run fails; 2 for a
# bad command line. Times on 2 cores: --all 4 about 4 minutes (and 2 to build the old tbgen, once);
# --all 5 about 6 hours, 4 with --level 1 (docs/guide.md, "Comparing two solvers"; with xz).
# Not part of ctest (too long).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REV=a51669a
THREADS=0
OUT=""
BIN="$ROOT/build/bin"
OLD_BUILD=""
LEVEL=()
CODEC=(--codec xz)  # both the same, whatever their defaults (the current one writes zstd)
SET=()
SUBTABLES=""
usage() { sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; }
while [[ $# -gt 0 ]]; do
    if [[ "$1" == --* && "$1" != --help && $# -lt 2 ]]; then
        echo "compare_solvers: $1 needs a value" >&2; exit 2
    fi
    case "$1" in
        --rev) REV="$2"; shift 2 ;;
        --threads|-t) THREADS="$2"; shift 2 ;;
        --out|-o) OUT="$2"; shift 2 ;;
        --bin) BIN="$2"; shift 2 ;;
        --old-build) OLD_BUILD="$2"; shift 2 ;;
        --codec) CODEC=(--codec "$2"); shift 2 ;;
        --level) LEVEL=(--level "$2"); shift 2 ;;
        --subtables) SUBTABLES="$2"; shift 2 ;;
        --all) SET+=(--all "$2"); shift 2 ;;
        -h|--help) usage; exit 0 ;;
        -*) echo "compare_solvers: unknown option $1" >&2; usage >&2; exit 2 ;;
        *) SET+=("$1"); shift ;;
    esac
done
if [[ ${#SET[@]} -eq 0 ]]; then usage >&2; exit 2; fi
if [[ -n "$SUBTABLES" ]]; then
    [[ -d "$SUBTABLES" ]] || { echo "compare_solvers: no such directory: $SUBTABLES" >&2; exit 2; }
    [[ "${SET[0]}" != --all ]] || { echo "compare_solvers: --subtables needs the tables named" >&2; exit 2; }
fi
for tool in tbgen tbdiff; do
    [[ -x "$BIN/$tool" ]] || { echo "compare_solvers: no $tool in $BIN (build first: scripts/build.sh)" >&2; exit 2; }
done
COMMIT="$(git -C "$ROOT" rev-parse --verify --quiet "$REV^{commit}")" ||
    { echo "compare_solvers: $REV is no commit of $ROOT" >&2; exit 2; }
OLD_BUILD="${OLD_BUILD:-${TMPDIR:-/tmp}/retro-solver-${COMMIT:0:12}}"
OUT="${OUT:-$(mktemp -d -t retro-compare.XXXXXX)}"
mkdir -p "$OUT"

# "1 h 02 min 03 s" from seconds.
duration() {
    local s=$1
    if (( s >= 3600 )); then printf '%d h %02d min %02d s' $((s / 3600)) $((s % 3600 / 60)) $((s % 60))
    elif (( s >= 60 )); then printf '%d min %02d s' $((s / 60)) $((s % 60))
    else printf '%d s' "$s"; fi
}

# The old tbgen, built once per commit (only the tbgen target: no tests, no benchmarks).
OLD_TBGEN="$OLD_BUILD/build/bin/tbgen"
if [[ ! -x "$OLD_TBGEN" ]]; then
    echo "building tbgen of $REV (${COMMIT:0:12}) in $OLD_BUILD"
    start=$SECONDS
    rm -rf "$OLD_BUILD/src"
    mkdir -p "$OLD_BUILD/src"
    git -C "$ROOT" archive "$COMMIT" | tar -x -C "$OLD_BUILD/src"
    if ! { cmake -S "$OLD_BUILD/src" -B "$OLD_BUILD/build" -DCMAKE_BUILD_TYPE=Release \
               -DRETRO_BUILD_TESTS=OFF -DRETRO_BUILD_BENCH=OFF &&
           cmake --build "$OLD_BUILD/build" --target tbgen -j2; } > "$OLD_BUILD/build.log" 2>&1; then
        tail -n 20 "$OLD_BUILD/build.log" >&2
        echo "compare_solvers: the build of $REV failed (log: $OLD_BUILD/build.log)" >&2
        exit 1
    fi
    echo "built in $(duration $((SECONDS - start)))"
fi

echo "set: ${SET[*]}; threads: $THREADS; output: $OUT"
# The tables of SUBTABLES linked into the outputs, which the solvers then skip: into OUT/old all
# but the named ones, into OUT/new all of them.
if [[ -n "$SUBTABLES" ]]; then
    mkdir -p "$OUT/old" "$OUT/new"
    for f in "$(cd "$SUBTABLES" && pwd)"/*.rtb; do
        table="$(basename "$f" .rtb)"
        [[ " ${SET[*]} " == *" $table "* ]] || ln -sf "$f" "$OUT/old/"
        ln -sf "$f" "$OUT/new/"
    done
fi
# run NAME TBGEN [OPTION...]: builds the set into OUT/NAME, prints its time.
run() {
    local name=$1 tbgen=$2 start=$SECONDS
    shift 2
    if ! "$tbgen" "${SET[@]}" "${CODEC[@]}" "${LEVEL[@]}" "$@" -q -t "$THREADS" -o "$OUT/$name" > "$OUT/$name.out" 2>&1; then
        tail -n 20 "$OUT/$name.out" >&2
        echo "compare_solvers: the $name solver failed (log: $OUT/$name.out)" >&2
        exit 1
    fi
    echo "$name solver: $(ls "$OUT/$name"/*.rtb | wc -l) tables in $(duration $((SECONDS - start)))" \
         "(log: $OUT/$name.out)"
}
# Self-contained files: the values are the same, and settled ones (format version 5) cost more to
# load as sub-tables and to compare than the table costs to solve (docs/guide.md). Also from the
# old solver when it writes them (fdbd395 does, a51669a knows no other): the bytes then compare too.
old_options=()
if "$OLD_TBGEN" --help 2>/dev/null | grep -q -- --self-contained; then old_options=(--self-contained); fi
run old "$OLD_TBGEN" "${old_options[@]}"
run new "$BIN/tbgen" --self-contained

start=$SECONDS
set +e
"$BIN/tbdiff" -t "$THREADS" "$OUT/old" "$OUT/new" ${SUBTABLES:+"${SET[@]}"}
status=$?
set -e
echo "tbdiff: $(duration $((SECONDS - start)))"

same=() differ=()
for f in "$OUT/old"/*.rtb; do
    name="$(basename "$f" .rtb)"
    [[ -z "$SUBTABLES" || " ${SET[*]} " == *" $name "* ]] || continue
    [[ -f "$OUT/new/$name.rtb" ]] || continue
    if cmp -s "$f" "$OUT/new/$name.rtb"; then same+=("$name"); else differ+=("$name"); fi
done
echo "byte-identical files (cmp): ${#same[@]} of $(( ${#same[@]} + ${#differ[@]} ))"
if (( ${#differ[@]} )); then echo "files that differ in bytes: ${differ[*]}"; fi
exit $status
