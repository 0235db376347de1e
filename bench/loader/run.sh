#!/usr/bin/env bash
# The loader benchmark: cold start of a 32-layer stack with 3 distinct kernels, with the loader's
# per-key de-duplication and disk cache vs without (one compile per layer, a naive loader);
# warm start (second process) and per-lookup overhead. Prints a Markdown table.
#   bench/loader/run.sh [path/to/loader_bench]      (default: /work/build-loader/bench/loader/loader_bench)
set -euo pipefail

bench=${1:-${LOADER_BENCH:-/work/build-loader/bench/loader/loader_bench}}
[ -x "$bench" ] || { echo "run.sh: no loader_bench at $bench (build target loader_bench)" >&2; exit 2; }
cache=$(mktemp -d "${TMPDIR:-/tmp}/attnc-loader-bench-XXXXXX")
trap 'rm -rf "$cache"' EXIT
export ATTNC_CACHE_DIR=$cache
unset ATTNC_TRACE ATTNC_CACHE_MAX_MB

# run LABEL ARGS...: one process; prints "LABEL|wall_ms|program output".
run() {
  local label=$1; shift
  local t0 t1 out
  t0=$(date +%s%N)
  out=$("$bench" "$@")
  t1=$(date +%s%N)
  echo "$label|$(( (t1 - t0) / 1000000 ))|$out"
}
field() { sed -n "s/.*\b$1=\([^ ]*\).*/\1/p" <<<"$2"; }

rows=()
rm -rf "${cache:?}"/*; rows+=("$(run "cold, naive (no dedup, no disk cache)" model --naive)")
rm -rf "${cache:?}"/*; rows+=("$(run "cold, loader (dedup + disk cache)" model)")
rows+=("$(run "warm, loader (second process)" model)")
rm -rf "${cache:?}"/*; rows+=("$(run "cold, loader, layers loaded from 32 threads" model --parallel)")
lookup=$("$bench" lookup)

echo "| start | compiles | disk hits | load (ms) | first output, from main (ms) | process wall (ms) |"
echo "|---|---:|---:|---:|---:|---:|"
for r in "${rows[@]}"; do
  IFS='|' read -r label wall out <<<"$r"
  echo "| $label | $(field compiles "$out") | $(field disk_hits "$out") | $(field load_ms "$out") | $(field first_output_ms "$out") | $wall |"
done
naive_load=$(field load_ms "$(cut -d'|' -f3 <<<"${rows[0]}")")
dedup_load=$(field load_ms "$(cut -d'|' -f3 <<<"${rows[1]}")")
naive_wall=$(cut -d'|' -f2 <<<"${rows[0]}")
dedup_wall=$(cut -d'|' -f2 <<<"${rows[1]}")
warm_wall=$(cut -d'|' -f2 <<<"${rows[2]}")
echo
echo "cold start ratio naive/loader: load $(awk "BEGIN{printf \"%.1f\", $naive_load/$dedup_load}")x, process $(awk "BEGIN{printf \"%.1f\", $naive_wall/$dedup_wall}")x (32/3 = 10.7 expected when compile-bound)"
echo "warm/cold process time: $(awk "BEGIN{printf \"%.3f\", $warm_wall/$dedup_wall}")"
echo
echo "| per lookup | value |"
echo "|---|---:|"
echo "| disk-cached load, mean of 3 kernels (ms) | $(field disk_load_ms_avg "$lookup") |"
echo "| disk-cached load, worst (ms) | $(field disk_load_ms_max "$lookup") |"
echo "| first key of a process: \`c++ --version\`, once (ms) | $(field first_key_ms "$lookup") |"
echo "| in-process hit, $(field source_bytes "$lookup")-byte source (µs) | $(field memory_hit_us "$lookup") |"
echo "| key of a 300 KB source (SHA-256, µs) | $(field key_300k_us "$lookup") |"
