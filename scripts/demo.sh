#!/usr/bin/env bash
# Installs what is missing, builds, generates the KRvK table into tables/ and prints its statistics.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/build.sh"
cd "$ROOT"
"$ROOT/build/bin/tbgen" KRvK -o tables
