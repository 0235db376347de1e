// CPU targets: names and host detection.
#include <algorithm>
#include <cstdlib>
#include <stdexcept>

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
  // As in a generated source's dispatcher (fixed/PathDispatch.h): ATTNC_CPU_ISA may force a
  // narrower path, so that `attnc bench` and the tests measure and check each path.
  const char* forced = std::getenv("ATTNC_CPU_ISA");
  const std::string f = forced ? forced : "";
  // "neon" is the portable path's name on AArch64 (attn_<kernel>_path() reports it).
  if (f == "portable" || f == "neon" || (f == "avx2" && t.isa == CpuIsa::AVX512))
    t.isa = f == "avx2" ? CpuIsa::AVX2 : CpuIsa::Portable;
  return t;
}

std::vector<CpuTarget> all_cpu_paths() { return {{CpuIsa::AVX512}, {CpuIsa::AVX2}, {CpuIsa::Portable}}; }

std::vector<CpuTarget> parse_cpu_paths(const std::string& spec) {
  std::vector<bool> named(3, false);  // by CpuIsa, widest first
  for (size_t begin = 0; begin <= spec.size();) {
    size_t end = std::min(spec.find(',', begin), spec.size());
    std::string name = spec.substr(begin, end - begin);
    CpuIsa isa = name == "host" ? host_cpu_target().isa
                 : name == "avx512"   ? CpuIsa::AVX512
                 : name == "avx2"     ? CpuIsa::AVX2
                 : name == "portable" ? CpuIsa::Portable
                                      : throw std::invalid_argument("unknown CPU path '" + name +
                                                                    "' (avx512, avx2, portable, host)");
    named[int(isa)] = true;
    begin = end + 1;
  }
  std::vector<CpuTarget> paths;
  for (const CpuTarget& t : all_cpu_paths())
    if (named[int(t.isa)]) paths.push_back(t);
  return paths;
}

}  // namespace attn
