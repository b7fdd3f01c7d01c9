#!/bin/sh
# scripts/bundle.sh: the folder it makes holds tbbench, the loader and the libraries it needs, and
# runs it through its `run`.
# Usage: bundle_test.sh SCRIPT BUILD_DIR (exit 0 when every check holds).
set -eu
script="$1"
build="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
BUILD="$build" "$script" "$work/kit" tbbench >/dev/null
for f in run tbbench libc.so.6 libtbb.so.12; do
    [ -e "$work/kit/$f" ] || { echo "bundle_test: $f is missing from the bundle" >&2; exit 1; }
done
ls "$work/kit" | grep -q '^ld-linux' || { echo "bundle_test: no loader in the bundle" >&2; exit 1; }
help="$("$work/kit/run" tbbench --help)"
case "$help" in
*"tbbench: thread scaling of the solver"*) ;;
*) echo "bundle_test: unexpected help: $help" >&2; exit 1 ;;
esac
if "$script" >/dev/null 2>&1; then echo "bundle_test: no folder named, yet it succeeded" >&2; exit 1; fi
echo "bundle.sh: a bundle of tbbench runs: ok"
