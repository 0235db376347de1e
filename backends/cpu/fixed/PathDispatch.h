namespace {

/// One vector path of this source: its ISA and its entry point.
template <typename Args>
struct VectorPath {
  const char* isa;
  int (*run)(const Args*);
};

/// Paths from narrowest (0) to widest; -1 for a name that is none ("neon" is the portable path).
int path_rank(const char* isa) {
  static const char* const names[] = {"portable", "avx2", "avx512", "avx512bf16", "amx"};
  for (int r = 0; r < 5; ++r)
    if (strcmp(isa, names[r]) == 0) return r;
  return strcmp(isa, "neon") == 0 ? 0 : -1;
}

/// The name a process reports for its path. On AArch64 the portable path's 4-lane vectors (128-bit
/// GCC/clang vector extensions) compile to NEON q registers, NEON being part of the base ISA: it
/// runs as "neon", with the portable path's schedule (no NEON-specific tiles or intrinsics).
const char* path_name(const char* isa) {
#if defined(__aarch64__)
  if (strcmp(isa, "portable") == 0) return "neon";
#endif
  return isa;
}

/// Whether this CPU, and its OS (the vector registers' state), runs the path's instructions.
bool cpu_runs(const char* isa) {
#if defined(__x86_64__)
  __builtin_cpu_init();
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;  // F16C: CPUID leaf 1, ECX bit 29 (no __builtin_cpu_supports name in clang 14)
  const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & (1u << 29));
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && f16c;
  if (strcmp(isa, "avx2") == 0) return avx2;
  const bool avx512 = avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw");
  if (strcmp(isa, "avx512") == 0) return avx512;
  // AVX512-BF16: CPUID leaf 7 subleaf 1, EAX bit 5.
  const bool bf16 = avx512 && __get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx) && (eax & (1u << 5));
  if (strcmp(isa, "avx512bf16") == 0) return bf16;
  if (strcmp(isa, "amx") == 0) {
    // AMX-TILE and AMX-BF16 (leaf 7 EDX bits 24, 22), tile state enabled by the OS (XCR0 bits 17,
    // 18), and Linux's permission to use it, asked once per process (arch_prctl
    // ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA); refused, the next path down runs.
    if (!bf16 || !__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) || !(edx & (1u << 24)) || !(edx & (1u << 22)))
      return false;
    unsigned lo = 0, hi = 0;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & (3u << 17)) != (3u << 17)) return false;
#if defined(__linux__)
    return syscall(SYS_arch_prctl, 0x1023, 18) == 0;
#else
    return false;
#endif
  }
#endif
  return strcmp(isa, "portable") == 0;
}

/// The widest path the source carries (`paths`, widest first, ending with a null isa) that this CPU
/// runs and that is no wider than the one ATTNC_CPU_ISA names (for tests and benchmarks: a narrower
/// path than the CPU's best, never one it lacks). Null, with the reason in `why`, when there is none.
template <typename Args>
const VectorPath<Args>* choose_path(const VectorPath<Args>* paths, const char** why) {
  const char* forced = getenv("ATTNC_CPU_ISA");
  int limit = 4;
  if (forced && *forced && (limit = path_rank(forced)) < 0) {
    *why = "ATTNC_CPU_ISA names no vector path (amx, avx512bf16, avx512, avx2, portable or neon)";
    return nullptr;
  }
  for (; paths->isa; ++paths)
    if (path_rank(paths->isa) <= limit && cpu_runs(paths->isa)) return paths;
  *why = "this CPU runs none of the vector paths the source carries (see its banner; regenerate it with "
         "attnc compile --cpu-isa including portable)";
  return nullptr;
}

/// Runs the chosen path, or reports why there is none in the caller's error buffer.
template <typename Args>
int run_path(const VectorPath<Args>* path, const char* why, const char* kernel, const Args* args) {
  if (path) return path->run(args);
  if (args && args->error && args->error_size) snprintf(args->error, args->error_size, "%s: %s", kernel, why);
  return -1;
}

}  // namespace
