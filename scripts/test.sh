#!/usr/bin/env bash
# The user's check: installs what is missing, builds the Release build in build/ and runs its whole test
# suite. CI (.ci/run) runs this, then the sanitizer builds (scripts/sanitize.sh asan, tsan).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
start=$SECONDS
"$ROOT/scripts/build.sh"
echo "test.sh: setup and build took $((SECONDS - start)) s"
start=$SECONDS
ctest --test-dir "$ROOT/build" --output-on-failure -j2
echo "test.sh: the tests took $((SECONDS - start)) s"
