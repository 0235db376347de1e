#!/usr/bin/env bash
# The main job: builds attnc, checks every stdlib and sample file, compiles the samples, then
# runs a sample kernel on random inputs and prints its result.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh"
attnc="$root/build/cli/attnc"
cd "$root"

echo "== attnc check: stdlib and samples"
"$attnc" check stdlib/*.attn samples/*.attn && echo "all files check"

echo "== attnc dump --stage=ir: every sample kernel"
for f in samples/*.attn; do "$attnc" dump --stage=hash "$f"; done

echo "== attnc run: a sample kernel on random inputs"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$root/build/samples/make_inputs" "$work" 1 4 256 256 2
"$attnc" run samples/gemma2.attn gemma2_global --q "$work/q.npy" --k "$work/k.npy" --v "$work/v.npy" -o "$work/out.npy" --lse "$work/lse.npy" -t reference
"$root/build/samples/print_npy" "$work/out.npy"
"$root/build/samples/print_npy" "$work/lse.npy"
