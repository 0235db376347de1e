#!/usr/bin/env bash
# How long `attnc check` takes on a generated file of N definitions (default 1000): masks, score
# modifiers, helper functions and kernels that use them. Prints the median of 5 runs.
# Usage: bench/frontend/check_1000.sh [N] [path/to/attnc]
set -euo pipefail
n=${1:-1000}
attnc=${2:-build/cli/attnc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$n" > "$work/defs.attn" <<'PY'
import sys
n = int(sys.argv[1])
print("import std.masks;\n")
for i in range(n):
    kind = i % 4
    if kind == 0:
        print(f"/// Window mask {i}.\nmask m{i}(window: int) = q >= kv && q - kv < window + {i};")
    elif kind == 1:
        print(f"/// Soft cap {i}.\nscore s{i}(cap: float) = cap * tanh(score / cap) + {i}.0 * 0.001;")
    elif kind == 2:
        print(f"fn f{i}(x: int) -> int = let y = x // 2, z = x % 3; y + z + {i};")
    else:
        print(f"kernel k{i}(slopes: tensor<f32>[heads]) {{\n  mask = m{i-3}(f{i-1}(64)) || causal;\n"
              f"  score = s{i-2}(30.0) |> s{i-2}(50.0);\n  dtype = bf16;\n}}")
PY
lines=$(wc -l < "$work/defs.attn")
times=()
for run in 1 2 3 4 5; do
  start=$(date +%s%N)
  "$attnc" check "$work/defs.attn"
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000000 )))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
echo "attnc check: $n definitions ($lines lines): median ${sorted[2]} ms (runs: ${times[*]} ms)"
