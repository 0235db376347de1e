#!/usr/bin/env bash
# Creates (once per machine) the Python environment the tests and benchmarks use: PyTorch from
# PyPI (its default Linux wheel, which pulls CUDA libraries: a few GB, so the venv lives outside the
# clone and is reused), NumPy, pytest, the package's build tools and FlexAttention's gallery.
# Prints the venv's path on stdout. ATTNC_VENV overrides the location.
set -euo pipefail
venv=${ATTNC_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/attnc/venv}
stamp="$venv/.attnc-env-1"
if [ ! -f "$stamp" ]; then
  echo "attnc: setting up the Python environment in $venv (PyTorch: a few minutes the first time)" >&2
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check --upgrade pip >&2
  "$venv/bin/pip" install -q --disable-pip-version-check \
    torch numpy pytest scikit-build-core nanobind >&2
  # attn-gym's own dependencies (matplotlib, ...) are only for its plots.
  "$venv/bin/pip" install -q --disable-pip-version-check --no-deps attn-gym >&2
  touch "$stamp"
fi
echo "$venv"
