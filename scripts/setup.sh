#!/usr/bin/env bash
# Installs the Debian packages retrograde needs, and any named as arguments (a script that needs one
# more, such as a compiler); a no-op when all of them are present.
set -euo pipefail

PACKAGES=(
    cmake g++ make
    libtbb-dev libboost-program-options-dev libboost-iostreams-dev
    libgtest-dev libbenchmark-dev
    libzstd-dev liblzma-dev zlib1g-dev
    pybind11-dev python3-dev
    gcc pkg-config
    libboost-dev python3 curl wrk chromium chromium-driver gnuplot-nox linux-perf
    openmpi-bin libopenmpi-dev
    "$@"
)

missing=()
for pkg in "${PACKAGES[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
    if [[ "$status" != "install ok installed" ]]; then
        missing+=("$pkg")
    fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
    exit 0
fi

echo "setup: installing ${missing[*]}"
if [[ $(id -u) -eq 0 ]]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
else
    echo "setup: missing packages (${missing[*]}) and not root, and sudo is not available" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
