#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: the Release build, then the whole suite
# under AddressSanitizer + UndefinedBehaviorSanitizer, then the multithreaded tests under
# ThreadSanitizer (scripts/sanitize.sh). Each part prints its wall time.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
timed() {
    local start=$SECONDS
    "$@"
    echo "test.sh: '${*#"$ROOT/"}' took $((SECONDS - start)) s"
}
release() {
    "$ROOT/scripts/build.sh"
    ctest --test-dir "$ROOT/build" --output-on-failure -j2
}
timed release
timed "$ROOT/scripts/sanitize.sh" asan
timed "$ROOT/scripts/sanitize.sh" tsan
