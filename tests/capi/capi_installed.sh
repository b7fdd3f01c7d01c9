#!/usr/bin/env bash
# The installed C API end to end, as ctest's CApiInstalled runs it:
#   capi_installed.sh BUILD_DIR        (CC: the C compiler; RETRO_C_FLAGS: the sanitizer's flags, if any)
# installs BUILD_DIR into a scratch prefix, checks that libretrograde.so exports the C API alone,
# builds tests/capi/capi_installed.c against the installed files with pkg-config and with find_package,
# makes KQvK, KRvK and KQvKR with tbgen, runs the C checks, and compares the C API's answers (FEN and
# bitboard entry points) with tbprobe --batch line by line.
set -euo pipefail

build="$(cd "$1" && pwd)"
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cc="${CC:-cc}"
read -r -a cflags <<< "${RETRO_C_FLAGS:-}"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/retro-capi-XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "capi_installed: $*" >&2
    exit 1
}

cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log"
[[ -f "$tmp/prefix/include/retrograde.h" ]] || fail "no include/retrograde.h installed"
lib="$(find "$tmp/prefix" -name 'libretrograde.so.*.*.*' | head -n 1)"
[[ -n "$lib" ]] || fail "no libretrograde.so installed"
readelf -d "$lib" | grep -q 'SONAME.*\[libretrograde\.so\.0\]' || fail "SONAME is not libretrograde.so.0"
others="$(nm -D --defined-only "$lib" | awk '$2 != "A" && $3 !~ /^retro_/ {print $3}')"
[[ -z "$others" ]] || fail "exports more than the C API: $(echo "$others" | head -n 5)"

# pkg-config, with the library's directory as the program's run path.
pc="$(find "$tmp/prefix" -name retrograde.pc | head -n 1)"
[[ -n "$pc" ]] || fail "no retrograde.pc installed"
export PKG_CONFIG_PATH="$(dirname "$pc")"
read -r -a pkg_flags <<< "$(pkg-config --cflags --libs retrograde)"
"$cc" -std=c99 -Wall -Wextra -pedantic -Werror "${cflags[@]}" "$src/tests/capi/capi_installed.c" -o "$tmp/by_pkg_config" \
    "${pkg_flags[@]}" -Wl,-rpath,"$(pkg-config --variable=libdir retrograde)"

# find_package(retrograde) and retrograde::retrograde (CMake puts the library's directory in the run path).
cmake -S "$src/tests/capi/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="${RETRO_C_FLAGS:-}" > "$tmp/consumer.log" ||
    fail "find_package: $(cat "$tmp/consumer.log")"
cmake --build "$tmp/consumer" > "$tmp/consumer-build.log" || fail "$(cat "$tmp/consumer-build.log")"

"$build/bin/tbgen" KQvKR -o "$tmp/tables" -q > "$tmp/tbgen.log" 2>&1 || fail "tbgen: $(cat "$tmp/tbgen.log")"
"$tmp/by_pkg_config" "$tmp/tables"
"$tmp/consumer/capi_installed" "$tmp/tables"

# The same answers as tbprobe --batch: random KQvKR positions probed as bitboards, then FENs with errors.
"$tmp/by_pkg_config" "$tmp/tables" --random 2000 > "$tmp/capi-random.tsv"
cut -f1 "$tmp/capi-random.tsv" | "$build/bin/tbprobe" --tables "$tmp/tables" --batch > "$tmp/tbprobe-random.tsv"
diff "$tmp/capi-random.tsv" "$tmp/tbprobe-random.tsv" > "$tmp/random.diff" || fail "bitboards differ from tbprobe: $(head "$tmp/random.diff")"
[[ "$(wc -l < "$tmp/capi-random.tsv")" -eq 2000 ]] || fail "not 2000 random positions"
cat > "$tmp/fens.txt" << 'FENS'
8/8/8/4k3/8/8/8/4K2Q w - - 0 1
4k3/8/8/8/8/8/r7/4K3 b - - 0 1
8/8/8/8/8/8/1q6/K6k w - - 0 1
k7/1Q6/1K6/8/8/8/8/8 b - - 0 1
8/8/3k4/8/8/2K5/8/r2Q4 w - - 0 1
8/8/8/4k3/8/8/8/4KB1Q w - - 0 1
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1
r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1
garbage
FENS
"$tmp/by_pkg_config" "$tmp/tables" --batch < "$tmp/fens.txt" > "$tmp/capi-fens.tsv"
"$build/bin/tbprobe" --tables "$tmp/tables" --batch < "$tmp/fens.txt" > "$tmp/tbprobe-fens.tsv"
diff "$tmp/capi-fens.tsv" "$tmp/tbprobe-fens.tsv" || fail "FENs differ from tbprobe"
grep -q $'^8/8/8/4k3/8/8/8/4K2Q w - - 0 1\twin 13\th1c6$' "$tmp/capi-fens.tsv" || fail "KQvK is not win 13 h1c6"
echo "capi_installed: pkg-config and find_package builds pass; 2000 random positions and $(wc -l < "$tmp/fens.txt") FENs as tbprobe --batch"
