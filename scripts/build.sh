#!/usr/bin/env bash
# Configures and builds attnc in build/ (Release, warnings as errors). Usage: scripts/build.sh [targets...]
# ATTNC_PYTHON=/path/to/python registers the python-label tests (see scripts/python-env.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DATTNC_WERROR=ON ${ATTNC_PYTHON:+-DATTNC_PYTHON="$ATTNC_PYTHON"} >/dev/null
jobs=${ATTNC_JOBS:-$(nproc)}
cmake --build "$root/build" -j "$jobs" ${1:+--target "$@"}
