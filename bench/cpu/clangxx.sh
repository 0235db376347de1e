#!/bin/sh
# ATTNC_CXX for benchmarks: clang++ without the GCC-only -fno-tree-sra the loader always passes.
# With ATTNC_BENCH_MARCH set (compare_torch.py --isa avx2 sets x86-64-v3), -march=native becomes
# -march=$ATTNC_BENCH_MARCH: the kernels built as for a CPU that has no more than that.
for a in "$@"; do
  shift
  case "$a" in
    -fno-tree-sra) ;;
    -march=native) set -- "$@" "-march=${ATTNC_BENCH_MARCH:-native}" ;;
    *) set -- "$@" "$a" ;;
  esac
done
exec clang++ "$@"
