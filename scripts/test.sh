#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/build.sh"
ctest --test-dir "$ROOT/build" --output-on-failure -j2
