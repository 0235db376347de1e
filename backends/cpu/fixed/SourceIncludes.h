#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
// ATTN_BACKWARD_INCLUDES
#include <vector>
#include <pthread.h>  // the worker threads (<thread>, <mutex>, <condition_variable> cost a compile 0.15 s)
#include <unistd.h>   // getpid: the worker threads are the parent's after fork(); sysconf: the CPUs
#if defined(__x86_64__)
#include <cpuid.h>  // whether the CPU has F16C, AVX512-BF16, AMX
// ATTN_INTRINSICS_INCLUDE
#endif
#if defined(__x86_64__) && defined(__linux__)
#include <sys/syscall.h>  // arch_prctl: the permission to use AMX tiles
#endif

#if defined(__clang__) && defined(__has_builtin)
#if __has_builtin(__builtin_elementwise_max)
#define ATTN_ELEMENTWISE_MIN_MAX 1  // vector min/max without a lane loop
#endif
#endif

// A product and the sum it feeds as one fused multiply-add, as g++ compiles C++ by default: Halide
// writes them as two statements, which clang fuses only under this pragma (one rounding instead of
// two; on Intel cores one uop instead of two on the ports the FMAs use).
#if defined(__clang__)
#pragma clang fp contract(fast)
#endif

