#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (packages, a Python venv with PyTorch), builds attnc and runs
# the default tests (every label but gpu and perf; the package's pytest suite runs against the
# pip-installed package, scripts/test-installed-package.sh, instead of ctest's python_package on
# the build tree), then the sanitizer job (scripts/run-sanitizers.sh: clang ASan + UBSan,
# float-cast-overflow included, over the compiler's own tests).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
# PyTorch and friends for the python-label tests, in one venv per machine outside the clone.
venv=$("$root/scripts/python-env.sh")
# Every build's compile commands relative to the clone, wherever it is: the pip build's objects are
# then ccache hits of the main build's (scripts/test-installed-package.sh).
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
ATTNC_PYTHON="$venv/bin/python" "$root/scripts/build.sh"
cd "$root/build"
ctest --output-on-failure -j "$(nproc)" -LE 'gpu|perf' -E '^python_package$' --timeout 1500
"$root/scripts/test-installed-package.sh" "$venv"
"$root/scripts/run-sanitizers.sh"
