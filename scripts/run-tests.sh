#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (packages, a Python venv with PyTorch), builds attnc and runs the default tests
# (every label but gpu and perf), then the sanitizer job (scripts/run-sanitizers.sh: clang
# ASan + UBSan, float-cast-overflow included, over the compiler's own tests).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
# PyTorch and friends for the python-label tests, in one venv per machine outside the clone.
venv=$("$root/scripts/python-env.sh")
ATTNC_PYTHON="$venv/bin/python" "$root/scripts/build.sh"
cd "$root/build"
ctest --output-on-failure -j "$(nproc)" -LE 'gpu|perf' --timeout 1500
"$root/scripts/run-sanitizers.sh"
