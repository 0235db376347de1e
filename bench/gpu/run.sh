#!/usr/bin/env bash
# The one-call GPU proof (docs/cuda.md, "Checking on a GPU"), within 8 minutes on the 16-core H200
# machine, in this order:
#   1. correctness, parallel over the cores: kit_check --shard i/N over bench/gpu/kit/check and
#      check-wgmma (forward, backward, decode over 32k keys, the deliberate out-of-range launch),
#      each shard also compiling its share of the tuner's candidates ahead;
#   2. timings, alone on the GPU: the kit's rows (cold compile, warm load, kernel), then
#      FlexAttention and SDPA (bench/gpu/torch_baseline.py);
#   3. the tuner, per row, each row's result written as it finishes;
#   4. the Python CUDA tests: the runtime-only extension (ATTNC_PYTHON_RUNTIME_ONLY) built there
#      and tests/python_runtime run over the kit's generated kernels;
#   5. Vulkan on the NVIDIA driver: the kit's Vulkan modules through the loader's vulkan target,
#      against the same f64 CUDA reference, and the timing rows (the carried libvulkan.so.1).
# Everything it reports lies in at most 8 files in one folder, $OUT when set (the device tool's),
# else bench/results/gpu-DATE/ (a dry run: a temporary folder): report.md, steps.log,
# correctness.txt, timings.json, tuner.json, torch.json, python.txt, vulkan.txt. Outside a dry run
# report.md is also copied to bench/results/gpu-DATE.md.
#
# The GPU machine cannot build attnc (no Halide, ANTLR or Boost): everything generated comes in
# bench/gpu/kit/ (bench/gpu/make_kit.sh before the session; carry `bench/gpu/kit`). kit_check is
# built there with only a C++ compiler (build_kit_check.sh). With --full the script first builds
# attnc there and remakes the kit (a machine with the whole stack); --kit (the default) uses the
# carried kit.
#
# --dry-run rehearses every step without a GPU: it compiles a sample of every step's kernels with
# NVRTC for sm_90a, and reports how long each step would take on the GPU machine: its NVRTC
# compiles (bench/gpu/kit/counts.txt) times the mean compile time measured here, over
# ATTNC_GPU_PROCS processes (16), plus a device-time allowance per launch stated in the report.
#
# Usage: bench/gpu/run.sh [--dry-run] [--kit | --full]
#   ATTNC_PROCS      correctness processes (default: every core)
#   ATTNC_BUDGET_S   seconds for the whole call (default 470): each step's limit is cut to what is
#                    left, so a slow step cannot push the later ones past the session
#   ATTNC_LEN        sequence length of the timing rows (default 8192)
#   ATTNC_BUILD_DIR  attnc's build folder for --full (default build-gpu)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
KIT=$ROOT/bench/gpu/kit
DRY=0
MODE=kit
for a in "$@"; do
  case $a in
    --dry-run) DRY=1 ;;
    --kit) MODE=kit ;;
    --full) MODE=full ;;
    *) echo "usage: $0 [--dry-run] [--kit | --full]" >&2; exit 2 ;;
  esac
done
PROCS=${ATTNC_PROCS:-$(nproc)}
GPU_PROCS=${ATTNC_GPU_PROCS:-16}
BUDGET=${ATTNC_BUDGET_S:-470}
LEN=${ATTNC_LEN:-8192}
STAMP=$(date -u +%Y-%m-%d-%H%M)
if [ -n "${OUT:-}" ]; then
  DEST=$OUT
elif [ $DRY = 1 ]; then
  DEST=$(mktemp -d "${TMPDIR:-/tmp}/attnc-gpu-dry.XXXXXX")
else
  DEST=$ROOT/bench/results/gpu-$STAMP
fi
mkdir -p "$DEST"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/attnc-gpu-work.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
# Everything printed goes to steps.log too.
exec > >(tee -a "$DEST/steps.log") 2>&1
START=$SECONDS
declare -A STEP_S  # seconds each step took
# limit WANT: WANT seconds, or what is left of the budget (at least 5).
limit() {
  local left=$((BUDGET - (SECONDS - START)))
  [ "$left" -lt 5 ] && left=5
  echo $(($1 < left ? $1 : left))
}
step() { printf '\n=== %s (%s, %d s in)\n' "$1" "$(date -u +%T)" $((SECONDS - START)); }

step "environment"
if command -v nvidia-smi >/dev/null; then nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
elif [ $DRY = 1 ]; then echo "no nvidia-smi (dry run: fine)"
else echo "no nvidia-smi: this is not a GPU machine (use --dry-run)" >&2; exit 1; fi
nvcc --version | tail -1 || true
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' 2>/dev/null || echo "no PyTorch"
echo "cores: $(nproc), correctness processes: $PROCS, budget ${BUDGET} s"

t0=$SECONDS
if [ $MODE = full ]; then
  step "full: build attnc and remake the kit"
  BUILD=${ATTNC_BUILD_DIR:-$ROOT/build-gpu}
  GEN=()
  command -v ninja >/dev/null && GEN=(-G Ninja)
  cmake -S "$ROOT" -B "$BUILD" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release >"$WORK/cmake.log" 2>&1 ||
    { tail -15 "$WORK/cmake.log"; echo "configure failed: use the kit (drop --full)" >&2; exit 1; }
  cmake --build "$BUILD" -j "$(nproc)" --target attnc cuda_stdlib_kernels cuda_tile_variants
  ATTNC_BUILD_DIR=$BUILD "$ROOT/bench/gpu/make_kit.sh"
fi
[ -f "$KIT/counts.txt" ] || { echo "no kit in $KIT: run bench/gpu/make_kit.sh first, and carry bench/gpu/kit" >&2; exit 1; }
step "build kit_check (C++ compiler only)"
"$ROOT/bench/gpu/build_kit_check.sh" "$WORK/kit_check"
STEP_S[build]=$((SECONDS - t0))
count() { awk -v k="$1" '$1 == k { print $2 }' "$KIT/counts.txt"; }
N_CHECK=$(count check); N_BWD=$(count check_backward); N_WG=$(count check_wgmma)
N_BENCH=$(count bench); N_BENCH_WG=$(count bench_wgmma); N_TUNE=$(count tune)
ARCH=sm_90a
if [ $DRY = 0 ]; then ARCH=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .); ARCH="sm_${ARCH}"; [ "$ARCH" = sm_90 ] && ARCH=sm_90a; fi

# --- 1. correctness, one shard per process; each shard then compiles its share of the tuner.
step "1. correctness: $((N_CHECK + N_WG)) kernels ($N_BWD backward) in $PROCS processes"
t0=$SECONDS
CHECK_ARGS=(--ref-cubins "$WORK/ref-cubins" --reference "$ROOT/backends/cuda/device/attn_reference.cuh"
            --reference-bwd "$ROOT/backends/cuda/device/attn_reference_bwd.cuh")
SAMPLE=1
TUNE_SHARDS=$PROCS
if [ $DRY = 1 ]; then
  # A sample: about 3 kernels per process and 3 tuner candidates in all.
  SAMPLE=$(((N_CHECK + N_WG + 3 * PROCS - 1) / (3 * PROCS)))
  CHECK_ARGS+=(--dry-run --sample "$SAMPLE")
  TUNE_SHARDS=$(((N_TUNE + 2) / 3))
fi
pids=()
for ((i = 0; i < PROCS; i++)); do
  (
    cd "$ROOT"
    rc=0  # failures must not stop the subshell (set -e) before the tuner's compiles
    timeout --kill-after=10 "$(limit 200)" "$WORK/kit_check" "${CHECK_ARGS[@]}" --shard "$i/$PROCS" \
      "$KIT/check" "$KIT/check-wgmma" >"$WORK/shard-$i.txt" 2>&1 || rc=$?
    echo "exit $rc" >>"$WORK/shard-$i.txt"
    if [ $DRY = 0 ] || [ "$i" = 0 ]; then
      timeout --kill-after=10 "$(limit 200)" "$WORK/kit_check" --precompile-tune "$KIT/tune" --cubins "$WORK/cubins" \
        --arch "$ARCH" --shard "$i/$TUNE_SHARDS" >"$WORK/precompile-$i.txt" 2>&1 || true
    fi
  ) &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || true; done
cat "$WORK"/shard-*.txt | grep -E '^(ok|FAIL|compiled) ' | sort >"$DEST/correctness.txt" || true
cat "$WORK"/precompile-*.txt >>"$DEST/correctness.txt" 2>/dev/null || true
grep -h -E '^(exit|kit_check:)' "$WORK"/shard-*.txt | sort | uniq -c | sed 's/^/shards: /' >>"$DEST/correctness.txt" || true
STEP_S[correctness]=$((SECONDS - t0))
N_OK=$(grep -c '^ok ' "$DEST/correctness.txt" || true)
N_FAIL=$(grep -c '^FAIL ' "$DEST/correctness.txt" || true)
N_OOR=$(grep -c 'caught by the device flag' "$DEST/correctness.txt" || true)
N_COMPILED=$(grep -c '^compiled ' "$DEST/correctness.txt" || true)  # a dry run's sample
echo "correctness: $N_OK ok, $N_FAIL FAIL, out-of-range caught by the flag in $N_OOR kernels"
WG_FLAGS=(--bench-wgmma "$KIT/bench-wgmma")
if grep -q '^FAIL check-wgmma/' "$DEST/correctness.txt"; then
  WG_FLAGS=(--no-wgmma)  # the warpgroup kernel failed its check: neither timed nor tuned
fi

# --- 2. timings, alone on the GPU.
step "2. timings: $N_BENCH rows (+$N_BENCH_WG warpgroup), then FlexAttention and SDPA"
t0=$SECONDS
BENCH_ARGS=(--bench "$KIT/bench" --json "$DEST/timings.json" --len "$LEN" "${WG_FLAGS[@]}")
[ $DRY = 1 ] && BENCH_ARGS+=(--dry-run --sample 3)
(cd "$ROOT" && timeout --kill-after=10 "$(limit 90)" "$WORK/kit_check" "${BENCH_ARGS[@]}") ||
  echo "timings failed or timed out (rows written so far are in timings.json)"
# The serving trace (samples/serving/trace.json, one step of 64 requests over a paged cache): the
# causal bf16 kernel as one grid and a launch per sequence, from CUDA graphs and launched directly.
SERVE=(--serving "$ROOT/samples/serving/trace.json" --serving-kernel "$KIT/check/causal_bf16_128.cu"
       --json "$WORK/serving.json")
if [ -f "$KIT/check-wgmma/causal_bf16_128.cu" ] && ! grep -q '^FAIL check-wgmma/causal_bf16_128' "$DEST/correctness.txt"; then
  SERVE+=(--serving-kernel "$KIT/check-wgmma/causal_bf16_128.cu")
fi
[ $DRY = 1 ] && SERVE+=(--dry-run)
(cd "$ROOT" && timeout --kill-after=10 "$(limit 60)" "$WORK/kit_check" "${SERVE[@]}") ||
  echo "serving failed or timed out"
TORCH=(--len "$LEN" --json "$DEST/torch.json" --serving "$ROOT/samples/serving/trace.json")
[ $DRY = 1 ] && TORCH+=(--dry-run)
timeout --kill-after=10 "$(limit 60)" python3 "$ROOT/bench/gpu/torch_baseline.py" "${TORCH[@]}" ||
  echo "torch baseline failed or timed out"
STEP_S[timings]=$((SECONDS - t0))

# --- 3. the tuner, one row at a time (tuner.json rewritten after each).
step "3. tuner: $N_TUNE candidates over $N_BENCH rows (compiled in step 1)"
t0=$SECONDS
TUNE_ARGS=(--bench "$KIT/bench" --tune "$KIT/tune" --tune-only --cubins "$WORK/cubins" --json "$DEST/tuner.json"
           --len "$LEN")
[ "${WG_FLAGS[0]}" = --no-wgmma ] && TUNE_ARGS+=(--no-wgmma)
[ $DRY = 1 ] && TUNE_ARGS+=(--dry-run)
(cd "$ROOT" && timeout --kill-after=10 "$(limit 120)" "$WORK/kit_check" "${TUNE_ARGS[@]}") ||
  echo "tuner stopped (rows finished so far are in tuner.json)"
STEP_S[tuner]=$((SECONDS - t0))

# --- 4. the Python package's CUDA tests: the runtime-only extension (no compiler there) over the
# kit's generated kernels: forward, backward with a buffer gradient, torch.compile, out of range.
step "4. Python CUDA tests (runtime-only build)"
t0=$SECONDS
PY=${ATTNC_PYTHON:-python3}
PYBUILD=$WORK/python-build
{
  echo "\$ cmake -DATTNC_PYTHON_RUNTIME_ONLY=ON (runtime/ and attnc._runtime), then pytest tests/python_runtime"
  PYTHONPATH=$KIT/vendor/python timeout "$(limit 120)" cmake -S "$ROOT" -B "$PYBUILD" -DCMAKE_BUILD_TYPE=Release \
    -DATTNC_PYTHON_RUNTIME_ONLY=ON -DATTNC_PYTHON="$(command -v "$PY")" -DATTNC_VENDOR_INCLUDE="$KIT/vendor/include" \
    $(command -v ninja >/dev/null && echo -G Ninja) &&
    timeout "$(limit 150)" cmake --build "$PYBUILD" -j "$(nproc)" --target _runtime &&
    (cd "$ROOT/tests/python_runtime" && ATTNC_GENERATED=$KIT/python PYTHONPATH=$PYBUILD/python:$KIT/vendor/python \
      timeout "$(limit 120)" "$PY" -m pytest -q -p no:cacheprovider -rs .)
} >"$DEST/python.txt" 2>&1 || echo "Python step failed (python.txt)"
tail -3 "$DEST/python.txt"
STEP_S[python]=$((SECONDS - t0))

# --- 5. Vulkan through the NVIDIA driver: the kit's Vulkan modules through the loader's vulkan
# target (runtime only), checked against the same f64 CUDA reference, and the timing rows.
step "5. Vulkan on the NVIDIA driver"
t0=$SECONDS
if [ -f "$KIT/vendor/libvulkan.so.1" ]; then export ATTNC_VULKAN_LOADER=$KIT/vendor/libvulkan.so.1; fi
VK_ARGS=(--vulkan "$KIT/vulkan" --vulkan-bench "$KIT/vulkan-bench" --vulkan-cuda "$KIT/check" --len "$LEN"
         --ref-cubins "$WORK/ref-cubins"
         --reference "$ROOT/backends/cuda/device/attn_reference.cuh")
if [ $DRY = 1 ]; then
  VK_ARGS+=(--dry-run --sample 10)  # builds pipelines on this machine's Vulkan device (lavapipe)
else
  # The NVIDIA ICD: the driver's manifest, else one naming its GLX library.
  if [ -z "${VK_ICD_FILENAMES:-}" ]; then
    for f in /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
      [ -f "$f" ] && export VK_ICD_FILENAMES=$f && break
    done
    if [ -z "${VK_ICD_FILENAMES:-}" ]; then
      printf '{"file_format_version":"1.0.0","ICD":{"library_path":"libGLX_nvidia.so.0","api_version":"1.3"}}\n' \
        >"$WORK/nvidia_icd.json"
      export VK_ICD_FILENAMES=$WORK/nvidia_icd.json
    fi
  fi
  export ATTNC_VULKAN_DEVICE=${ATTNC_VULKAN_DEVICE:-NVIDIA}
fi
(cd "$ROOT" && XDG_CACHE_HOME=$WORK/cache timeout --kill-after=10 "$(limit 90)" "$WORK/kit_check" "${VK_ARGS[@]}") \
  >"$DEST/vulkan.txt" 2>&1 || echo "Vulkan step failed or timed out (vulkan.txt)"
tail -3 "$DEST/vulkan.txt"
STEP_S[vulkan]=$((SECONDS - t0))

# --- The report.
REPORT=$DEST/report.md
python3 - "$DEST/timings.json" "$DEST/tuner.json" "$WORK/merged.json" "$WORK/serving.json" <<'PY' || echo '{}' >"$WORK/merged.json"
import json, sys
a = json.load(open(sys.argv[1]))
try:
    t = json.load(open(sys.argv[2]))
    for name, fields in t.get("variants", {}).items():
        a["variants"].setdefault(name, {}).update(fields)
except (OSError, ValueError):
    pass
try:  # the serving step's, kept in timings.json too (at most 8 files come back)
    a["serving"] = json.load(open(sys.argv[4]))
    timings = json.load(open(sys.argv[1]))
    timings["serving"] = a["serving"]
    json.dump(timings, open(sys.argv[1], "w"), indent=1)
except (OSError, ValueError):
    pass
json.dump(a, open(sys.argv[3], "w"))
PY
{
  echo "# attnc on the GPU: one call of bench/gpu/run.sh ($STAMP)"
  echo
  echo "Command: \`bench/gpu/run.sh $*\` (mode $MODE, $PROCS processes, budget $BUDGET s); files in \`$DEST\`."
  echo
  echo "| step | seconds (this run) |"
  echo "|---|---|"
  for s in build correctness timings tuner python vulkan; do echo "| $s | ${STEP_S[$s]:-0} |"; done
  echo "| total | $((SECONDS - START)) |"
  echo
  echo "## 1. Correctness ($((N_CHECK + N_WG)) kernels, $N_BWD with a backward)"
  echo
  echo "$N_OK ok, $N_FAIL FAIL; the deliberate out-of-range launch caught by the device flag in $N_OOR kernels;" \
    "backward checked on all 7 shapes (6, and a ragged batch's sequence at b + 3) in $(grep '^ok ' "$DEST/correctness.txt" | grep -c 'bwd 7 shapes' || true)," \
    "decode on all 16 shapes in $(grep '^ok ' "$DEST/correctness.txt" | grep -c 'decode 16 shapes' || true)," \
    "a ragged batch of 5 sequences in $(grep '^ok ' "$DEST/correctness.txt" | grep -c 'ragged 5 sequences' || true)" \
    "(its backward in $(grep '^ok ' "$DEST/correctness.txt" | grep -c 'ragged backward 5 sequences' || true))," \
    "a paged cache of 4 in $(grep '^ok ' "$DEST/correctness.txt" | grep -c 'paged 4 sequences' || true)."
  [ $DRY = 1 ] && echo "(dry run: $N_COMPILED kernels of a sample compiled with their references, nothing run)"
  grep '^FAIL ' "$DEST/correctness.txt" | head -40 | sed 's/^/    /' || true
  echo
  echo "## 2-3. Timings and the tuner"
  echo
  python3 "$ROOT/bench/gpu/report.py" "$WORK/merged.json" "$DEST/torch.json" 2>&1 || echo "(no timings)"
  echo
  echo "## 4. Python"
  echo
  tail -5 "$DEST/python.txt" | sed 's/^/    /' || true
  echo
  echo "## 5. Vulkan"
  echo
  grep -E '^(FAIL|[0-9]+ Vulkan|built)' "$DEST/vulkan.txt" | head -20 | sed 's/^/    /' || true
  grep -E 'ms$' "$DEST/vulkan.txt" | sed 's/^/    /' || true
} >"$REPORT"

if [ $DRY = 1 ]; then
  # What each step would take on the GPU machine: its compiles (counts.txt) times the mean NVRTC
  # time measured here, over the GPU machine's processes, plus a device allowance per launch.
  python3 - "$DEST/correctness.txt" "$KIT/counts.txt" "$GPU_PROCS" "${STEP_S[build]}" "${STEP_S[python]}" \
    "$DEST/timings.json" >>"$REPORT" <<'PY'
import json, re, sys
lines = open(sys.argv[1]).read().splitlines()
counts = dict((l.split()[0], int(l.split()[1])) for l in open(sys.argv[2]) if l.strip())
procs, build = int(sys.argv[3]), float(sys.argv[4])
# The Python step here: its build on this machine's cores, which the GPU machine has 8 times of
# (its compiles are parallel), and the GPU tests' allowance.
python_s = float(sys.argv[5]) * 2 / 16 + 30
def mean(pattern):
    xs = [float(m.group(1)) for l in lines for m in [re.search(pattern, l)] if m]
    return (sum(xs) / len(xs), len(xs)) if xs else (0.0, 0)
fwd, nf = mean(r"nvrtc ([0-9.]+) s(,|$)")
bwd, nb = mean(r"backward nvrtc ([0-9.]+) s")
tune, nt = mean(r"precompiled .*: nvrtc ([0-9.]+) s")
# Vulkan: per check module 3 shapes (its CUDA reference kept from step 1), per row its reference's compile
# and 5 dispatches at L = 8192 without tensor cores (about 1 s each, assumed).
vulkan_s = counts.get("vulkan", 0) * 0.3 + counts.get("vulkan_bench", 0) * (6 + fwd)
check = counts["check"] + counts["check_wgmma"]
# Device allowances (assumptions, not measurements): per checked kernel 6 forward shapes, 6
# backward shapes, 16 decode shapes over 32k keys (K/V uploads dominate), the out-of-range launch;
# the GPU is shared by all processes, so its time adds up across them.
gpu_check = 0.5 * check  # 0.35 s before the one-grid, graph and ragged backward checks
# The timing rows' cold compiles (no reference appended), as the dry run's step 2 measured them.
rows = json.load(open(sys.argv[6])).get("variants", {}).values()
colds = [r[k] for r in rows for k in ("cold_compile_s", "wgmma_cold_compile_s") if k in r]
cold = sum(colds) / len(colds) if colds else fwd
# Each checked kernel's one-grid build (no reference appended) for its ragged and paged checks.
step1 = max((check * (fwd + cold) + counts["check_backward"] * bwd + counts["tune"] * tune) / procs, gpu_check)
# compile + 20 launches per row; torch 45 s; serving: 4 compiles one after another, 1 GB of cache
# uploaded per kernel, 80 steps per kernel, SDPA's 64 calls a step (15 s, assumed)
step2 = (counts["bench"] + counts["bench_wgmma"]) * (cold + 1.0) + 45 + 4 * cold + 15
step3 = counts["tune"] * 0.4  # precompiled: load, check and 5 timed launches per candidate
steps = {"build kit_check": build * 2 / 16, "1. correctness": step1, "2. timings": step2, "3. tuner": step3,
         "4. python": python_s, "5. vulkan": vulkan_s}
print("\n## Dry run: estimated time on the GPU machine\n")
print(f"NVRTC measured here (sm_90a): forward + reference {fwd:.2f} s (mean of {nf}), backward + reference "
      f"{bwd:.2f} s (of {nb}), tuner candidate {tune:.2f} s (of {nt}), timing row {cold:.2f} s (of {len(colds)}); "
      f"compiles spread over {procs} processes (the timing rows' one after another). "
      "Device allowances (not measured): 0.5 s per checked kernel, 1 s per timing row, 0.4 s per tuner "
      "candidate, 45 s for torch, 15 s for the serving step, 30 s for the Python tests on the GPU, 0.3 s per Vulkan module and "
      "6 s per Vulkan row. Builds "
      "(kit_check, the Python extension) measured here, scaled from 2 cores to 16.\n")
print("| step | compiles | estimate (s) |\n|---|---|---|")
comp = {"1. correctness": f"{check} + {check} one-grid + {counts['check_backward']} backward + {counts['tune']} tuner",
        "2. timings": str(counts["bench"] + counts["bench_wgmma"]), "3. tuner": "0 (step 1)"}
for k, v in steps.items():
    print(f"| {k} | {comp.get(k, '-')} | {v:.0f} |")
total = sum(steps.values())
print(f"| total | | {total:.0f} ({'fits' if total <= 480 else 'OVER'} 480 s) |")
PY
fi
cat "$REPORT"
if [ $DRY = 0 ] && [ -z "${OUT:-}" ]; then cp "$REPORT" "$ROOT/bench/results/gpu-$STAMP.md"; fi
echo
echo "report: $REPORT ($(ls "$DEST" | wc -l) files in $DEST)"
# Exit status: 0 only when nothing failed: the kit's kernels, the Python tests, the Vulkan check.
VK_FAIL=$(grep -c '^FAIL' "$DEST/vulkan.txt" || true)
PY_FAIL=$(grep -cE '(^FAILED|^ERROR|[0-9]+ (failed|error))' "$DEST/python.txt" || true)
[ "$N_FAIL" = 0 ] && [ "$VK_FAIL" = 0 ] && [ "$PY_FAIL" = 0 ]
