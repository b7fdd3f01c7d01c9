#!/usr/bin/env bash
# Copies built programs with every shared library they load, the C library and its loader included,
# into one folder that runs on another x86-64 Linux machine without this project's packages (a
# cluster node, a benchmark machine). Run them there through the folder's `run`.
#
# Usage: scripts/bundle.sh DIR [PROGRAM...]     (default: tbbench tbgen tbprobe)
#   scripts/bundle.sh /tmp/kit tbbench && scp -r /tmp/kit node:
#   node$ kit/run tbbench --table KRBvKR --threads 1,2,4,8,16 --dir tables
# BUILD=dir takes the programs from another build directory (default build/).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${BUILD:-$ROOT/build}"
[[ $# -ge 1 ]] || { sed -n '2,9p' "$0" >&2; exit 2; }
DIR="$1"
shift
PROGRAMS=("$@")
[[ ${#PROGRAMS[@]} -gt 0 ]] || PROGRAMS=(tbbench tbgen tbprobe)

mkdir -p "$DIR"
for p in "${PROGRAMS[@]}"; do
    bin="$BUILD/bin/$p"
    [[ -x $bin ]] || { echo "bundle: $bin is not built (scripts/build.sh builds it)" >&2; exit 1; }
    cp "$bin" "$DIR/"
    # ldd names each library with its path, the loader without an arrow.
    ldd "$bin" | grep -o '/[^ ]*' | while read -r lib; do cp -L "$lib" "$DIR/"; done
done
loader="$(basename "$(ldd "$BUILD/bin/${PROGRAMS[0]}" | grep -o '/[^ ]*ld-linux[^ ]*')")"
cat > "$DIR/run" <<RUN
#!/bin/sh
# Runs one of the bundled programs with the bundled libraries: run PROGRAM [ARGS...]
here="\$(cd "\$(dirname "\$0")" && pwd)"
prog="\$1"
shift
exec "\$here/$loader" --library-path "\$here" "\$here/\$prog" "\$@"
RUN
chmod +x "$DIR/run"
echo "bundled ${PROGRAMS[*]} into $DIR ($(du -sh "$DIR" | cut -f1)); run them as $DIR/run PROGRAM ARGS"
