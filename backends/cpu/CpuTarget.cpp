// CPU targets: names and host detection.
#include "backends/cpu/CpuBackend.h"

namespace attn {

const char* cpu_isa_name(CpuIsa isa) {
  switch (isa) {
    case CpuIsa::AVX512: return "avx512";
    case CpuIsa::AVX2: return "avx2";
    case CpuIsa::Portable: return "portable";
  }
  return "portable";
}

CpuTarget host_cpu_target() {
  CpuTarget t;
  t.isa = CpuIsa::Portable;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw"))
    t.isa = CpuIsa::AVX512;
  else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    t.isa = CpuIsa::AVX2;
#endif
  return t;
}

}  // namespace attn
