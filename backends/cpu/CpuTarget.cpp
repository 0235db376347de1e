// CPU targets: names and host detection.
#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "backends/cpu/CpuBackend.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace attn {

const char* cpu_isa_name(CpuIsa isa) {
  switch (isa) {
    case CpuIsa::AMX: return "amx";
    case CpuIsa::AVX512BF16: return "avx512bf16";
    case CpuIsa::AVX512: return "avx512";
    case CpuIsa::AVX2: return "avx2";
    case CpuIsa::Portable: return "portable";
  }
  return "portable";
}

bool is_matrix_isa(CpuIsa isa) { return isa == CpuIsa::AMX || isa == CpuIsa::AVX512BF16; }

CpuIsa effective_cpu_isa(CpuIsa isa, DType dtype, bool backward) {
  const bool bf16_operands = dtype == DType::BF16 || is_fp8(dtype);  // FP8: staged as exact bf16
  return is_matrix_isa(isa) && (!bf16_operands || backward) ? CpuIsa::AVX512 : isa;
}

std::vector<CpuTarget> effective_cpu_paths(const std::vector<CpuTarget>& targets, DType dtype, bool backward) {
  std::vector<CpuTarget> paths;
  for (const CpuTarget& t : targets) {
    const CpuTarget e{effective_cpu_isa(t.isa, dtype, backward)};
    bool seen = false;
    for (const CpuTarget& p : paths) seen = seen || p.isa == e.isa;
    if (!seen) paths.push_back(e);
  }
  return paths;
}

namespace {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/// AVX512-BF16 (CPUID leaf 7 subleaf 1, EAX bit 5).
bool cpu_has_avx512_bf16() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid_count(7, 1, &a, &b, &c, &d) && (a & (1u << 5));
}

/// AMX-TILE and AMX-BF16 (leaf 7 EDX bits 24 and 22), the OS saving tile state (XCR0 bits 17 and
/// 18), and Linux's permission for this process to use it (arch_prctl ARCH_REQ_XCOMP_PERM for
/// XFEATURE_XTILEDATA, asked once): as a generated source's dispatcher asks (fixed/PathDispatch.h).
bool cpu_runs_amx() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(d & (1u << 24)) || !(d & (1u << 22))) return false;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) return false;  // OSXSAVE
  unsigned lo = 0, hi = 0;
  __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  if ((lo & (3u << 17)) != (3u << 17)) return false;
#if defined(__linux__)
  static const bool permitted = syscall(SYS_arch_prctl, 0x1023 /* ARCH_REQ_XCOMP_PERM */, 18 /* XTILEDATA */) == 0;
  return permitted;
#else
  return false;
#endif
}
#endif

}  // namespace

CpuTarget host_cpu_target() {
  CpuTarget t;
  t.isa = CpuIsa::Portable;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw"))
    t.isa = cpu_has_avx512_bf16() ? (cpu_runs_amx() ? CpuIsa::AMX : CpuIsa::AVX512BF16) : CpuIsa::AVX512;
  else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    t.isa = CpuIsa::AVX2;
#endif
  // As in a generated source's dispatcher (fixed/PathDispatch.h): ATTNC_CPU_ISA may force a
  // narrower path, so that `attnc bench` and the tests measure and check each path. "neon" is the
  // portable path's name on AArch64 (attn_<kernel>_path() reports it).
  const char* forced = std::getenv("ATTNC_CPU_ISA");
  std::string f = forced ? forced : "";
  if (f == "neon") f = "portable";
  for (const CpuTarget& narrower : all_cpu_paths())
    if (f == cpu_isa_name(narrower.isa) && int(narrower.isa) > int(t.isa)) t = narrower;
  return t;
}

std::vector<CpuTarget> all_cpu_paths() {
  return {{CpuIsa::AMX}, {CpuIsa::AVX512BF16}, {CpuIsa::AVX512}, {CpuIsa::AVX2}, {CpuIsa::Portable}};
}

std::vector<CpuTarget> parse_cpu_paths(const std::string& spec) {
  std::vector<bool> named(all_cpu_paths().size(), false);  // by CpuIsa, widest first
  for (size_t begin = 0; begin <= spec.size();) {
    size_t end = std::min(spec.find(',', begin), spec.size());
    std::string name = spec.substr(begin, end - begin);
    bool known = false;
    if (name == "host") named[int(host_cpu_target().isa)] = known = true;
    for (const CpuTarget& t : all_cpu_paths())
      if (name == cpu_isa_name(t.isa)) named[int(t.isa)] = known = true;
    if (!known)
      throw std::invalid_argument("unknown CPU path '" + name + "' (amx, avx512bf16, avx512, avx2, portable, host)");
    begin = end + 1;
  }
  std::vector<CpuTarget> paths;
  for (const CpuTarget& t : all_cpu_paths())
    if (named[int(t.isa)]) paths.push_back(t);
  return paths;
}

}  // namespace attn
