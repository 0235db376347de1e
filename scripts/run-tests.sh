#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (packages), builds attnc and runs the default tests
# (every label but gpu and perf), then the sanitizer job (scripts/run-sanitizers.sh: clang
# ASan + UBSan, float-cast-overflow included, over the compiler's own tests).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh"
cd "$root/build"
ctest --output-on-failure -j "$(nproc)" -LE 'gpu|perf' --timeout 1500
"$root/scripts/run-sanitizers.sh"
