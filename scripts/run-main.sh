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

echo "== attnc dump --stage=hash: every sample kernel lowered to IR (structural hashes)"
for f in samples/*.attn; do "$attnc" dump --stage=hash "$f"; done

echo "== attnc compile: every sample to CPU C++ and CUDA C++"
targets=cpu,cuda
generated=$(mktemp -d)
for f in samples/*.attn; do "$attnc" compile "$f" -t "$targets" -o "$generated/$(basename "$f" .attn)"; done
find "$generated" -type f | sed "s|$generated/||" | sort | head -40
rm -rf "$generated"

echo "== attnc run: a sample kernel on random inputs"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$root/build/samples/make_inputs" "$work" 1 4 256 256 2
"$attnc" run samples/gemma2.attn gemma2_global --q "$work/q.npy" --k "$work/k.npy" --v "$work/v.npy" -o "$work/out.npy" --lse "$work/lse.npy" -t reference
"$root/build/samples/print_npy" "$work/out.npy"
"$root/build/samples/print_npy" "$work/lse.npy"

echo "== the same kernel on the CPU backend (generated C++, compiled and cached by the loader)"
"$attnc" run samples/gemma2.attn gemma2_global --q "$work/q.npy" --k "$work/k.npy" --v "$work/v.npy" -o "$work/out_cpu.npy" -t cpu
"$root/build/samples/print_npy" "$work/out_cpu.npy"

echo "== samples/model: 32 layers, 3 distinct kernels (run twice: cold, then warm from the disk cache)"
export ATTNC_CACHE_DIR="$work/cache"
"$root/build/samples/model/model" "$root/build/samples/model/kernels"
"$root/build/samples/model/model" "$root/build/samples/model/kernels"

echo "== samples/serving: one step of 64 requests (prefill chunks and decoding) over a paged KV cache"
"$root/build/samples/serving/serving" "$root/build/samples/serving/kernels" samples/serving/trace.json --steps 2
