#!/usr/bin/env bash
# The prepared GPU session script (issue 4): build, check every kernel against the reference on
# the GPU, time targets.md's rows against FlexAttention and SDPA in the same run, write
# bench/results/gpu-DATE.md.
#
# NOT RUN YET: it was written on a machine without a GPU. `--dry-run` exercises every step up to
# the device (build, NVRTC compiles for the target arch, the no-GPU paths) and writes its report
# under $TMPDIR instead of bench/results/.
#
# Usage: bench/gpu/run.sh [--dry-run] [--no-build]
#   ATTNC_BUILD_DIR  build folder (default build-gpu); with --no-build it must hold the binaries
#   ATTNC_JOBS       parallel build jobs (default: all cores)
#   ATTNC_LEN        sequence length (default 8192)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${ATTNC_BUILD_DIR:-$ROOT/build-gpu}
JOBS=${ATTNC_JOBS:-$(nproc)}
LEN=${ATTNC_LEN:-8192}
DRY=0
BUILD_IT=1
for a in "$@"; do
  case $a in
    --dry-run) DRY=1 ;;
    --no-build) BUILD_IT=0 ;;
    *) echo "usage: $0 [--dry-run] [--no-build]" >&2; exit 2 ;;
  esac
done
WORK=$(mktemp -d "${TMPDIR:-/tmp}/attnc-gpu.XXXXXX")
STAMP=$(date -u +%Y-%m-%d-%H%M)
step() { printf '\n=== %s (%s)\n' "$1" "$(date -u +%T)"; }

step "environment"
if command -v nvidia-smi >/dev/null; then nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
elif [ $DRY = 1 ]; then echo "no nvidia-smi (dry run: fine)"
else echo "no nvidia-smi: this is not a GPU machine (use --dry-run)" >&2; exit 1; fi
nvcc --version | tail -1
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' 2>/dev/null || echo "no PyTorch"

if [ $BUILD_IT = 1 ]; then
  step "build ($BUILD, -j$JOBS)"
  GEN=()
  command -v ninja >/dev/null && GEN=(-G Ninja)
  cmake -S "$ROOT" -B "$BUILD" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release >"$WORK/cmake.log" 2>&1 ||
    { tail -30 "$WORK/cmake.log"; echo "configure failed: the GPU machine lacks a dependency (see shared/design/stack.md)" >&2; exit 1; }
  cmake --build "$BUILD" -j "$JOBS" --target attnc test_cuda test_cuda_gpu bench_cuda
fi
for b in cli/attnc tests/cuda/test_cuda tests/cuda/test_cuda_gpu bench/bench_cuda; do
  [ -x "$BUILD/$b" ] || { echo "missing $BUILD/$b" >&2; exit 1; }
done

step "NVRTC compiles of every kernel (no spills, shared memory within limits)"
(cd "$ROOT" && ATTNC_CUDA_REPORT="$WORK/ptxas.txt" "$BUILD/tests/cuda/test_cuda" --color_output=no)
cat "$WORK/ptxas.txt"

step "every kernel against the reference on the GPU (random inputs, odd lengths, GQA, every dtype)"
(cd "$ROOT" && "$BUILD/tests/cuda/test_cuda_gpu" --color_output=no --log_level=message) 2>&1 | tee "$WORK/gpu-tests.log"
CORRECT=${PIPESTATUS[0]}

step "attnc timings (cold compile, warm load, kernel)"
BENCH=(--len "$LEN" --variants "$ROOT/bench/gpu/variants.attn" --json "$WORK/attnc.json")
if [ $DRY = 1 ]; then BENCH+=(--dry-run --sm 90); fi
"$BUILD/bench/bench_cuda" "${BENCH[@]}"

step "PyTorch FlexAttention (torch.compile) and SDPA"
TORCH=(--len "$LEN" --json "$WORK/torch.json")
if [ $DRY = 1 ]; then TORCH+=(--dry-run); fi
python3 "$ROOT/bench/gpu/torch_baseline.py" "${TORCH[@]}" || echo "torch baseline failed (see above)"

step "report"
if [ $DRY = 1 ]; then OUT="$WORK/gpu-dryrun.md"; else OUT="$ROOT/bench/results/gpu-$STAMP.md"; mkdir -p "$ROOT/bench/results"; fi
python3 "$ROOT/bench/gpu/report.py" "$WORK/attnc.json" "$WORK/torch.json" >"$OUT"
{
  echo
  echo "Correctness on the GPU (tests/cuda/test_cuda_gpu): exit status $CORRECT"
  grep -E "error|skipped|No errors" "$WORK/gpu-tests.log" | head -40 | sed 's/^/    /'
  echo
  echo "ptxas (tests/cuda/test_cuda):"
  sed 's/^/    /' "$WORK/ptxas.txt"
} >>"$OUT"
cat "$OUT"
echo
echo "report: $OUT (work files in $WORK)"
exit "$CORRECT"
