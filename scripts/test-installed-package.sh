#!/usr/bin/env bash
# `pip install .` into the tests' venv, then the package's pytest suite (tests/python) against the
# installed package: run from a scratch directory, so neither python/ nor the build tree is on
# sys.path, and conftest.py checks (ATTNC_TEST_INSTALLED) that attnc comes from site-packages.
# Usage: scripts/test-installed-package.sh [venv] (default: scripts/python-env.sh's). Run after
# scripts/build.sh: the pip build (build-pip-<wheel tag>/, pyproject.toml) then compiles nothing
# anew: its compile commands are the main build's, relative to the clone (CCACHE_BASEDIR), with the
# same compiler and flags, so every object is a ccache hit; what is left is configure and link.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${1:-$("$root/scripts/python-env.sh")}
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
defines=(-C cmake.define.ATTNC_WERROR=ON)
# scikit-build-core names the compiler differently (g++ where CMake alone picks c++), and ccache
# keys on the name: take build/'s.
for lang in C CXX; do
  compiler=$(sed -n "s/^CMAKE_${lang}_COMPILER:FILEPATH=//p" "$root/build/CMakeCache.txt" 2>/dev/null || true)
  [ -n "$compiler" ] && defines+=(-C "cmake.define.CMAKE_${lang}_COMPILER=$compiler")
done
"$venv/bin/pip" install -q --disable-pip-version-check --no-build-isolation "${defines[@]}" "$root"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
ATTNC_TEST_INSTALLED=1 "$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/tests/python"
