#!/bin/sh
# ATTNC_CXX for benchmarks: clang++ without the GCC-only -fno-tree-sra the loader always passes.
for a in "$@"; do
  shift
  [ "$a" = "-fno-tree-sra" ] || set -- "$@" "$a"
done
exec clang++ "$@"
