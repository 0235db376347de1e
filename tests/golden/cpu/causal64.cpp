// attnc: CPU kernel 'causal64' (f32 I/O), Halide-scheduled. Generated; do not edit.
// Vector paths: avx512; the first call takes the widest this CPU runs (ATTNC_CPU_ISA=<path> forces a narrower one).
// Build: c++ -std=c++17 -O2 -ffp-contract=fast -fno-math-errno -c causal64.cpp
// (no -m flags: each path's functions carry their own ISA. clang++ is fastest; with g++ add -fno-tree-sra,
// or the accumulators leave registers.)
// attnc-source-parts: 2 (the loader compiles -DATTN_PART=1, the Halide pipelines, and -DATTN_PART=2, the entry
// points, side by side and links them; any other build compiles the file whole)
// Entry: int attn_causal64(const attn_kernel_args*), declared in causal64.h.
#include "causal64.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <pthread.h>  // the worker threads (<thread>, <mutex>, <condition_variable> cost a compile 0.15 s)
#include <unistd.h>   // getpid: the worker threads are the parent's after fork(); sysconf: the CPUs
#if defined(__x86_64__)
#include <cpuid.h>  // whether the CPU has F16C, AVX512-BF16, AMX
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

#ifndef ATTN_PART
#define ATTN_PART 0  // the whole source
#endif
// ---- Halide's includes and runtime header (Halide 14 CodeGen_C output), shared by the paths ----

// [Halide runtime header: 2454 lines, hash c5c31a150c566be5]



// ---- The Halide runtime functions the paths call ----
// [cpu runtime glue for 17 runtime functions: 275 lines, hash 16e322e431ba8f11]

// ---- Vector path 'avx512': its Halide pipeline and entry point ----
#if defined(__x86_64__)
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma,f16c,avx512f,avx512vl,avx512dq,avx512bw"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c,avx512f,avx512vl,avx512dq,avx512bw")
#endif
namespace attn_causal64_avx512 {

#if ATTN_PART != 2  // part 1: the Halide pipelines
// ---- Halide's helpers ----
// [Halide's helper block: 151 lines, hash 6f117896fb577891]
// ---- The Halide pipeline ----
// ---- The path's own code: vector classes, pipeline ----
// [fixed text: backends/cpu/fixed/HalideVectorOps.h, 859 lines]
#if halide_cpp_use_native_vector(uint8_t, 8)
using uint8x8_t = NativeVector<uint8_t, 8>;
using uint8x8_t_ops = NativeVectorOps<uint8_t, 8>;
#else
using uint8x8_t = CppVector<uint8_t, 8>;
using uint8x8_t_ops = CppVectorOps<uint8_t, 8>;
#endif
#if halide_cpp_use_native_vector(int32_t, 8)
using int32x8_t = NativeVector<int32_t, 8>;
using int32x8_t_ops = NativeVectorOps<int32_t, 8>;
#else
using int32x8_t = CppVector<int32_t, 8>;
using int32x8_t_ops = CppVectorOps<int32_t, 8>;
#endif
#if halide_cpp_use_native_vector(float, 8)
using float8 = NativeVector<float, 8>;
using float8_ops = NativeVectorOps<float, 8>;
#else
using float8 = CppVector<float, 8>;
using float8_ops = CppVectorOps<float, 8>;
#endif
#if halide_cpp_use_native_vector(int64_t, 8)
using int64x8_t = NativeVector<int64_t, 8>;
using int64x8_t_ops = NativeVectorOps<int64_t, 8>;
#else
using int64x8_t = CppVector<int64_t, 8>;
using int64x8_t_ops = CppVectorOps<int64_t, 8>;
#endif
#if halide_cpp_use_native_vector(uint64_t, 8)
using uint64x8_t = NativeVector<uint64_t, 8>;
using uint64x8_t_ops = NativeVectorOps<uint64_t, 8>;
#else
using uint64x8_t = CppVector<uint64_t, 8>;
using uint64x8_t_ops = CppVectorOps<uint64_t, 8>;
#endif
#if halide_cpp_use_native_vector(uint8_t, 16)
using uint8x16_t = NativeVector<uint8_t, 16>;
using uint8x16_t_ops = NativeVectorOps<uint8_t, 16>;
#else
using uint8x16_t = CppVector<uint8_t, 16>;
using uint8x16_t_ops = CppVectorOps<uint8_t, 16>;
#endif
#if halide_cpp_use_native_vector(int32_t, 16)
using int32x16_t = NativeVector<int32_t, 16>;
using int32x16_t_ops = NativeVectorOps<int32_t, 16>;
#else
using int32x16_t = CppVector<int32_t, 16>;
using int32x16_t_ops = CppVectorOps<int32_t, 16>;
#endif
#if halide_cpp_use_native_vector(uint32_t, 16)
using uint32x16_t = NativeVector<uint32_t, 16>;
using uint32x16_t_ops = NativeVectorOps<uint32_t, 16>;
#else
using uint32x16_t = CppVector<uint32_t, 16>;
using uint32x16_t_ops = CppVectorOps<uint32_t, 16>;
#endif
#if halide_cpp_use_native_vector(float, 16)
using float16 = NativeVector<float, 16>;
using float16_ops = NativeVectorOps<float, 16>;
#else
using float16 = CppVector<float, 16>;
using float16_ops = CppVectorOps<float, 16>;
#endif
#if halide_cpp_use_native_vector(int64_t, 16)
using int64x16_t = NativeVector<int64_t, 16>;
using int64x16_t_ops = NativeVectorOps<int64_t, 16>;
#else
using int64x16_t = CppVector<int64_t, 16>;
using int64x16_t_ops = CppVectorOps<int64_t, 16>;
#endif
#if halide_cpp_use_native_vector(uint64_t, 16)
using uint64x16_t = NativeVector<uint64_t, 16>;
using uint64x16_t_ops = NativeVectorOps<uint64_t, 16>;
#else
using uint64x16_t = CppVector<uint64_t, 16>;
using uint64x16_t_ops = CppVectorOps<uint64_t, 16>;
#endif

#ifdef __cplusplus
extern "C" {
#endif

HALIDE_FUNCTION_ATTRS
int attn_causal64_avx512_pipeline(void const *__user_context, struct halide_buffer_t *_attn_q_buffer, struct halide_buffer_t *_attn_k_buffer, struct halide_buffer_t *_attn_v_buffer, int32_t _attn_lq, int32_t _attn_lk, int32_t _attn_d, int32_t _attn_dv_pad, int32_t _attn_tile, int32_t _attn_rows, int32_t _attn_decoding, int32_t _attn_q_step, int32_t _attn_q0, int32_t _attn_head, int32_t _attn_batch, int32_t _attn_kv_lo, int32_t _attn_kv_hi, int32_t _attn_chunk_lo, struct halide_buffer_t *_attn_out_buffer) {
// [Halide's checks of the arguments of attn_causal64_avx512_pipeline: 680 lines, hash 5f66d1bec3eae5c4]
 {
  float _qs[2048];
  // produce qs
  for (int _qs_s0_ii_ii = 0; _qs_s0_ii_ii < 0 + 2; _qs_s0_ii_ii++)
  {
   for (int _qs_s0_c = 0; _qs_s0_c < 0 + 64; _qs_s0_c++)
   {
    int32_t  const _374 = _qs_s0_ii_ii * 1024;
    int32_t  const _375 = _374 + _qs_s0_c;
    int32x16_t  const _376 = int32x16_t_ops::ramp(_375, 64);
    float16  const _377 = float16_ops::load_gather(_attn_q, _376);
    float  const _378 = float_from_bits(1043900987 /* 0.180337 */);
    float16  const _379 = float16_ops::broadcast(_378);
    float16  const _380 = _377 * _379;
    int64_t  const _381 = (int64_t)(_qs_s0_c);
    int64_t  const _382 = _381 * int64_t(2);
    int64_t  const _383 = (int64_t)(_qs_s0_ii_ii);
    int64_t  const _384 = _382 + _383;
    int64_t  const _385 = _384 * int64_t(16);
    float16_ops::store(_380, _qs, _385);
   } // for _qs_s0_c
  } // for _qs_s0_ii_ii
  {
   int32_t  const _386 = _99 - _100;
   int32_t  const _387 = _386 + -1;
   int32_t  const _388 = _387 >> 4;
   int32_t  const _389 = _388 * 16;
   int32_t  const _390 = _389 + 16;
   int64_t  const _391 = _390;
   int64_t  const _392 = _391 * 8;
   if ((_392 > ((int64_t(1) << 31) - 1)) || ((_392 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
   {
    attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation dec_scores\n");
    return -1;
   } // overflow test dec_scores
   int64_t  const _393 = _392;
   float *_dec_scores = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_393);
   if (!_dec_scores)
   {
    int32_t  const _394 = attn_causal64_rt_error_out_of_memory(_ucon);
    return _394;
   }
   HalideFreeHelper _dec_scores_free(_ucon, _dec_scores, attn_causal64_rt_free);
   bool  const _395 = _attn_decoding != 0;
   if (_395)
   {
    // produce dec_scores
    // consume qs
    int32_t  const _396 = _99 - _100;
    int32_t  const _397 = _396 + 15;
    int32_t  const _398 = _397 >> 4;
    for (int _dec_scores_s0_j_jo = 0; _dec_scores_s0_j_jo < 0 + _398; _dec_scores_s0_j_jo++)
    {
     {
      float _dec_keys[1024];
      // produce dec_keys
      int32_t  const _399 = _dec_scores_s0_j_jo * 16;
      int32_t  const _400 = _24 - _100;
      int32_t  const _401 = _400 - _399;
      int32_t  const _402 = ::halide_cpp_min(_401, 16);
      int32_t  const _403 = ::halide_cpp_max(_402, 0);
      int32_t  const _404 = _100 + _399;
      for (int _dec_keys_s0_j_rebased = 0; _dec_keys_s0_j_rebased < 0 + _403; _dec_keys_s0_j_rebased++)
      {
       int32_t  const _405 = _dec_keys_s0_j_rebased + _404;
       int32_t  const _406 = _405 * 64;
       int32_t  const _407 = _dec_keys_s0_j_rebased * 64;
       for (int _dec_keys_s0_c = 0; _dec_keys_s0_c < 0 + 64; _dec_keys_s0_c++)
       {
        int64_t  const _408 = (int64_t)(_dec_keys_s0_c);
        int64_t  const _409 = (int64_t)(_406);
        int64_t  const _410 = _408 + _409;
        float  const _411 = ((float const *)_attn_k)[_410];
        int64_t  const _412 = (int64_t)(_407);
        int64_t  const _413 = _408 + _412;
        _dec_keys[_413] = _411;
       } // for _dec_keys_s0_c
      } // for _dec_keys_s0_j_rebased
      int32_t  const _414 = _dec_scores_s0_j_jo * 16;
      int32_t  const _415 = _100 - _24;
      int32_t  const _416 = _415 + _414;
      int32_t  const _417 = ::halide_cpp_min(_416, 0);
      int32_t  const _418 = ::halide_cpp_max(_417, -16);
      int32_t  const _419 = _418 + 16;
      for (int _dec_keys_s0_j_rebased = 0; _dec_keys_s0_j_rebased < 0 + _419; _dec_keys_s0_j_rebased++)
      {
       int32_t  const _420 = _24 - _100;
       int32_t  const _421 = _420 - _414;
       int32_t  const _422 = ::halide_cpp_min(_421, 16);
       int32_t  const _423 = ::halide_cpp_max(_422, 0);
       int32_t  const _424 = _423 + _dec_keys_s0_j_rebased;
       int32_t  const _425 = _424 * 64;
       int32_t  const _426 = _24 * 64;
       for (int _dec_keys_s0_c = 0; _dec_keys_s0_c < 0 + 64; _dec_keys_s0_c++)
       {
        int64_t  const _427 = (int64_t)(_dec_keys_s0_c);
        int64_t  const _428 = (int64_t)(_426);
        int64_t  const _429 = _427 + _428;
        int64_t  const _430 = _429 + int64_t(-64);
        float  const _431 = ((float const *)_attn_k)[_430];
        int64_t  const _432 = (int64_t)(_425);
        int64_t  const _433 = _427 + _432;
        _dec_keys[_433] = _431;
       } // for _dec_keys_s0_c
      } // for _dec_keys_s0_j_rebased
      {
       float _dec_dot[128];
       // produce dec_dot
       float  const _434 = float_from_bits(0 /* 0 */);
       float8  const _435 = float8_ops::broadcast(_434);
       float8_ops::store(_435, _dec_dot, int64_t(0));
       float  const _436 = float_from_bits(0 /* 0 */);
       float8  const _437 = float8_ops::broadcast(_436);
       float8_ops::store(_437, _dec_dot, int64_t(8));
       float  const _438 = float_from_bits(0 /* 0 */);
       float8  const _439 = float8_ops::broadcast(_438);
       float8_ops::store(_439, _dec_dot, int64_t(16));
       float  const _440 = float_from_bits(0 /* 0 */);
       float8  const _441 = float8_ops::broadcast(_440);
       float8_ops::store(_441, _dec_dot, int64_t(24));
       float  const _442 = float_from_bits(0 /* 0 */);
       float8  const _443 = float8_ops::broadcast(_442);
       float8_ops::store(_443, _dec_dot, int64_t(32));
       float  const _444 = float_from_bits(0 /* 0 */);
       float8  const _445 = float8_ops::broadcast(_444);
       float8_ops::store(_445, _dec_dot, int64_t(40));
       float  const _446 = float_from_bits(0 /* 0 */);
       float8  const _447 = float8_ops::broadcast(_446);
       float8_ops::store(_447, _dec_dot, int64_t(48));
       float  const _448 = float_from_bits(0 /* 0 */);
       float8  const _449 = float8_ops::broadcast(_448);
       float8_ops::store(_449, _dec_dot, int64_t(56));
       float  const _450 = float_from_bits(0 /* 0 */);
       float8  const _451 = float8_ops::broadcast(_450);
       float8_ops::store(_451, _dec_dot, int64_t(64));
       float  const _452 = float_from_bits(0 /* 0 */);
       float8  const _453 = float8_ops::broadcast(_452);
       float8_ops::store(_453, _dec_dot, int64_t(72));
       float  const _454 = float_from_bits(0 /* 0 */);
       float8  const _455 = float8_ops::broadcast(_454);
       float8_ops::store(_455, _dec_dot, int64_t(80));
       float  const _456 = float_from_bits(0 /* 0 */);
       float8  const _457 = float8_ops::broadcast(_456);
       float8_ops::store(_457, _dec_dot, int64_t(88));
       float  const _458 = float_from_bits(0 /* 0 */);
       float8  const _459 = float8_ops::broadcast(_458);
       float8_ops::store(_459, _dec_dot, int64_t(96));
       float  const _460 = float_from_bits(0 /* 0 */);
       float8  const _461 = float8_ops::broadcast(_460);
       float8_ops::store(_461, _dec_dot, int64_t(104));
       float  const _462 = float_from_bits(0 /* 0 */);
       float8  const _463 = float8_ops::broadcast(_462);
       float8_ops::store(_463, _dec_dot, int64_t(112));
       float  const _464 = float_from_bits(0 /* 0 */);
       float8  const _465 = float8_ops::broadcast(_464);
       float8_ops::store(_465, _dec_dot, int64_t(120));
       // consume dec_keys
       for (int _dec_dot_s1_rd__x = 0; _dec_dot_s1_rd__x < 0 + 64; _dec_dot_s1_rd__x++)
       {
        float8  const _466 = float8_ops::load(_dec_dot, int64_t(0));
        int64_t  const _467 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _468 = _467 * int64_t(32);
        float8  const _469 = float8_ops::load(_qs, _468);
        float  const _470 = _dec_keys[_467];
        float8  const _471 = float8_ops::broadcast(_470);
        float8  const _472 = _469 * _471;
        float8  const _473 = _466 + _472;
        float8_ops::store(_473, _dec_dot, int64_t(0));
        float8  const _474 = float8_ops::load(_dec_dot, int64_t(8));
        int64_t  const _475 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _476 = _475 * int64_t(32);
        float8  const _477 = float8_ops::load(_qs, _476);
        int64_t  const _478 = _475 + int64_t(64);
        float  const _479 = _dec_keys[_478];
        float8  const _480 = float8_ops::broadcast(_479);
        float8  const _481 = _477 * _480;
        float8  const _482 = _474 + _481;
        float8_ops::store(_482, _dec_dot, int64_t(8));
        float8  const _483 = float8_ops::load(_dec_dot, int64_t(16));
        int64_t  const _484 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _485 = _484 * int64_t(32);
        float8  const _486 = float8_ops::load(_qs, _485);
        int64_t  const _487 = _484 + int64_t(128);
        float  const _488 = _dec_keys[_487];
        float8  const _489 = float8_ops::broadcast(_488);
        float8  const _490 = _486 * _489;
        float8  const _491 = _483 + _490;
        float8_ops::store(_491, _dec_dot, int64_t(16));
        float8  const _492 = float8_ops::load(_dec_dot, int64_t(24));
        int64_t  const _493 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _494 = _493 * int64_t(32);
        float8  const _495 = float8_ops::load(_qs, _494);
        int64_t  const _496 = _493 + int64_t(192);
        float  const _497 = _dec_keys[_496];
        float8  const _498 = float8_ops::broadcast(_497);
        float8  const _499 = _495 * _498;
        float8  const _500 = _492 + _499;
        float8_ops::store(_500, _dec_dot, int64_t(24));
        float8  const _501 = float8_ops::load(_dec_dot, int64_t(32));
        int64_t  const _502 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _503 = _502 * int64_t(32);
        float8  const _504 = float8_ops::load(_qs, _503);
        int64_t  const _505 = _502 + int64_t(256);
        float  const _506 = _dec_keys[_505];
        float8  const _507 = float8_ops::broadcast(_506);
        float8  const _508 = _504 * _507;
        float8  const _509 = _501 + _508;
        float8_ops::store(_509, _dec_dot, int64_t(32));
        float8  const _510 = float8_ops::load(_dec_dot, int64_t(40));
        int64_t  const _511 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _512 = _511 * int64_t(32);
        float8  const _513 = float8_ops::load(_qs, _512);
        int64_t  const _514 = _511 + int64_t(320);
        float  const _515 = _dec_keys[_514];
        float8  const _516 = float8_ops::broadcast(_515);
        float8  const _517 = _513 * _516;
        float8  const _518 = _510 + _517;
        float8_ops::store(_518, _dec_dot, int64_t(40));
        float8  const _519 = float8_ops::load(_dec_dot, int64_t(48));
        int64_t  const _520 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _521 = _520 * int64_t(32);
        float8  const _522 = float8_ops::load(_qs, _521);
        int64_t  const _523 = _520 + int64_t(384);
        float  const _524 = _dec_keys[_523];
        float8  const _525 = float8_ops::broadcast(_524);
        float8  const _526 = _522 * _525;
        float8  const _527 = _519 + _526;
        float8_ops::store(_527, _dec_dot, int64_t(48));
        float8  const _528 = float8_ops::load(_dec_dot, int64_t(56));
        int64_t  const _529 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _530 = _529 * int64_t(32);
        float8  const _531 = float8_ops::load(_qs, _530);
        int64_t  const _532 = _529 + int64_t(448);
        float  const _533 = _dec_keys[_532];
        float8  const _534 = float8_ops::broadcast(_533);
        float8  const _535 = _531 * _534;
        float8  const _536 = _528 + _535;
        float8_ops::store(_536, _dec_dot, int64_t(56));
        float8  const _537 = float8_ops::load(_dec_dot, int64_t(64));
        int64_t  const _538 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _539 = _538 * int64_t(32);
        float8  const _540 = float8_ops::load(_qs, _539);
        int64_t  const _541 = _538 + int64_t(512);
        float  const _542 = _dec_keys[_541];
        float8  const _543 = float8_ops::broadcast(_542);
        float8  const _544 = _540 * _543;
        float8  const _545 = _537 + _544;
        float8_ops::store(_545, _dec_dot, int64_t(64));
        float8  const _546 = float8_ops::load(_dec_dot, int64_t(72));
        int64_t  const _547 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _548 = _547 * int64_t(32);
        float8  const _549 = float8_ops::load(_qs, _548);
        int64_t  const _550 = _547 + int64_t(576);
        float  const _551 = _dec_keys[_550];
        float8  const _552 = float8_ops::broadcast(_551);
        float8  const _553 = _549 * _552;
        float8  const _554 = _546 + _553;
        float8_ops::store(_554, _dec_dot, int64_t(72));
        float8  const _555 = float8_ops::load(_dec_dot, int64_t(80));
        int64_t  const _556 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _557 = _556 * int64_t(32);
        float8  const _558 = float8_ops::load(_qs, _557);
        int64_t  const _559 = _556 + int64_t(640);
        float  const _560 = _dec_keys[_559];
        float8  const _561 = float8_ops::broadcast(_560);
        float8  const _562 = _558 * _561;
        float8  const _563 = _555 + _562;
        float8_ops::store(_563, _dec_dot, int64_t(80));
        float8  const _564 = float8_ops::load(_dec_dot, int64_t(88));
        int64_t  const _565 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _566 = _565 * int64_t(32);
        float8  const _567 = float8_ops::load(_qs, _566);
        int64_t  const _568 = _565 + int64_t(704);
        float  const _569 = _dec_keys[_568];
        float8  const _570 = float8_ops::broadcast(_569);
        float8  const _571 = _567 * _570;
        float8  const _572 = _564 + _571;
        float8_ops::store(_572, _dec_dot, int64_t(88));
        float8  const _573 = float8_ops::load(_dec_dot, int64_t(96));
        int64_t  const _574 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _575 = _574 * int64_t(32);
        float8  const _576 = float8_ops::load(_qs, _575);
        int64_t  const _577 = _574 + int64_t(768);
        float  const _578 = _dec_keys[_577];
        float8  const _579 = float8_ops::broadcast(_578);
        float8  const _580 = _576 * _579;
        float8  const _581 = _573 + _580;
        float8_ops::store(_581, _dec_dot, int64_t(96));
        float8  const _582 = float8_ops::load(_dec_dot, int64_t(104));
        int64_t  const _583 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _584 = _583 * int64_t(32);
        float8  const _585 = float8_ops::load(_qs, _584);
        int64_t  const _586 = _583 + int64_t(832);
        float  const _587 = _dec_keys[_586];
        float8  const _588 = float8_ops::broadcast(_587);
        float8  const _589 = _585 * _588;
        float8  const _590 = _582 + _589;
        float8_ops::store(_590, _dec_dot, int64_t(104));
        float8  const _591 = float8_ops::load(_dec_dot, int64_t(112));
        int64_t  const _592 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _593 = _592 * int64_t(32);
        float8  const _594 = float8_ops::load(_qs, _593);
        int64_t  const _595 = _592 + int64_t(896);
        float  const _596 = _dec_keys[_595];
        float8  const _597 = float8_ops::broadcast(_596);
        float8  const _598 = _594 * _597;
        float8  const _599 = _591 + _598;
        float8_ops::store(_599, _dec_dot, int64_t(112));
        float8  const _600 = float8_ops::load(_dec_dot, int64_t(120));
        int64_t  const _601 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _602 = _601 * int64_t(32);
        float8  const _603 = float8_ops::load(_qs, _602);
        int64_t  const _604 = _601 + int64_t(960);
        float  const _605 = _dec_keys[_604];
        float8  const _606 = float8_ops::broadcast(_605);
        float8  const _607 = _603 * _606;
        float8  const _608 = _600 + _607;
        float8_ops::store(_608, _dec_dot, int64_t(120));
       } // for _dec_dot_s1_rd__x
       // consume dec_dot
       float8  const _609 = float8_ops::load(_dec_dot, int64_t(0));
       int64_t  const _610 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _611 = _610 * int64_t(128);
       float8_ops::store(_609, _dec_scores, _611);
       float8  const _612 = float8_ops::load(_dec_dot, int64_t(8));
       int64_t  const _613 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _614 = _613 * int64_t(128);
       int64_t  const _615 = _614 + int64_t(8);
       float8_ops::store(_612, _dec_scores, _615);
       float8  const _616 = float8_ops::load(_dec_dot, int64_t(16));
       int64_t  const _617 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _618 = _617 * int64_t(128);
       int64_t  const _619 = _618 + int64_t(16);
       float8_ops::store(_616, _dec_scores, _619);
       float8  const _620 = float8_ops::load(_dec_dot, int64_t(24));
       int64_t  const _621 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _622 = _621 * int64_t(128);
       int64_t  const _623 = _622 + int64_t(24);
       float8_ops::store(_620, _dec_scores, _623);
       float8  const _624 = float8_ops::load(_dec_dot, int64_t(32));
       int64_t  const _625 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _626 = _625 * int64_t(128);
       int64_t  const _627 = _626 + int64_t(32);
       float8_ops::store(_624, _dec_scores, _627);
       float8  const _628 = float8_ops::load(_dec_dot, int64_t(40));
       int64_t  const _629 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _630 = _629 * int64_t(128);
       int64_t  const _631 = _630 + int64_t(40);
       float8_ops::store(_628, _dec_scores, _631);
       float8  const _632 = float8_ops::load(_dec_dot, int64_t(48));
       int64_t  const _633 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _634 = _633 * int64_t(128);
       int64_t  const _635 = _634 + int64_t(48);
       float8_ops::store(_632, _dec_scores, _635);
       float8  const _636 = float8_ops::load(_dec_dot, int64_t(56));
       int64_t  const _637 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _638 = _637 * int64_t(128);
       int64_t  const _639 = _638 + int64_t(56);
       float8_ops::store(_636, _dec_scores, _639);
       float8  const _640 = float8_ops::load(_dec_dot, int64_t(64));
       int64_t  const _641 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _642 = _641 * int64_t(128);
       int64_t  const _643 = _642 + int64_t(64);
       float8_ops::store(_640, _dec_scores, _643);
       float8  const _644 = float8_ops::load(_dec_dot, int64_t(72));
       int64_t  const _645 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _646 = _645 * int64_t(128);
       int64_t  const _647 = _646 + int64_t(72);
       float8_ops::store(_644, _dec_scores, _647);
       float8  const _648 = float8_ops::load(_dec_dot, int64_t(80));
       int64_t  const _649 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _650 = _649 * int64_t(128);
       int64_t  const _651 = _650 + int64_t(80);
       float8_ops::store(_648, _dec_scores, _651);
       float8  const _652 = float8_ops::load(_dec_dot, int64_t(88));
       int64_t  const _653 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _654 = _653 * int64_t(128);
       int64_t  const _655 = _654 + int64_t(88);
       float8_ops::store(_652, _dec_scores, _655);
       float8  const _656 = float8_ops::load(_dec_dot, int64_t(96));
       int64_t  const _657 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _658 = _657 * int64_t(128);
       int64_t  const _659 = _658 + int64_t(96);
       float8_ops::store(_656, _dec_scores, _659);
       float8  const _660 = float8_ops::load(_dec_dot, int64_t(104));
       int64_t  const _661 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _662 = _661 * int64_t(128);
       int64_t  const _663 = _662 + int64_t(104);
       float8_ops::store(_660, _dec_scores, _663);
       float8  const _664 = float8_ops::load(_dec_dot, int64_t(112));
       int64_t  const _665 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _666 = _665 * int64_t(128);
       int64_t  const _667 = _666 + int64_t(112);
       float8_ops::store(_664, _dec_scores, _667);
       float8  const _668 = float8_ops::load(_dec_dot, int64_t(120));
       int64_t  const _669 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _670 = _669 * int64_t(128);
       int64_t  const _671 = _670 + int64_t(120);
       float8_ops::store(_668, _dec_scores, _671);
      } // alloc _dec_dot
     } // alloc _dec_keys
    } // for _dec_scores_s0_j_jo
   } // if _395
   {
    int32_t  const _672 = _99 - _100;
    int32_t  const _673 = _672 + -1;
    int32_t  const _674 = _673 >> 3;
    int32_t  const _675 = _674 * 8;
    int32_t  const _676 = _675 + 8;
    int64_t  const _677 = _676;
    int64_t  const _678 = _677 * 32;
    if ((_678 > ((int64_t(1) << 31) - 1)) || ((_678 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
    {
     attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation scores\n");
     return -1;
    } // overflow test scores
    int64_t  const _679 = _678;
    float *_scores = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_679);
    if (!_scores)
    {
     int32_t  const _680 = attn_causal64_rt_error_out_of_memory(_ucon);
     return _680;
    }
    HalideFreeHelper _scores_free(_ucon, _scores, attn_causal64_rt_free);
    bool  const _681 = _attn_decoding == 0;
    if (_681)
    {
     // produce scores
     // consume qs
     int32_t  const _682 = _99 + 7;
     int32_t  const _683 = ::halide_cpp_min(_682, _24);
     int32_t  const _684 = _683 - _100;
     int32_t  const _685 = _684 >> 3;
     int32_t  const _686 = ::halide_cpp_max(_685, 0);
     for (int _scores_s0_j_jo = 0; _scores_s0_j_jo < 0 + _686; _scores_s0_j_jo++)
     {
      {
       float _dot[256];
       // produce dot
       float  const _687 = float_from_bits(0 /* 0 */);
       float16  const _688 = float16_ops::broadcast(_687);
       float16_ops::store(_688, _dot, int64_t(0));
       float  const _689 = float_from_bits(0 /* 0 */);
       float16  const _690 = float16_ops::broadcast(_689);
       float16_ops::store(_690, _dot, int64_t(32));
       float  const _691 = float_from_bits(0 /* 0 */);
       float16  const _692 = float16_ops::broadcast(_691);
       float16_ops::store(_692, _dot, int64_t(64));
       float  const _693 = float_from_bits(0 /* 0 */);
       float16  const _694 = float16_ops::broadcast(_693);
       float16_ops::store(_694, _dot, int64_t(96));
       float  const _695 = float_from_bits(0 /* 0 */);
       float16  const _696 = float16_ops::broadcast(_695);
       float16_ops::store(_696, _dot, int64_t(128));
       float  const _697 = float_from_bits(0 /* 0 */);
       float16  const _698 = float16_ops::broadcast(_697);
       float16_ops::store(_698, _dot, int64_t(160));
       float  const _699 = float_from_bits(0 /* 0 */);
       float16  const _700 = float16_ops::broadcast(_699);
       float16_ops::store(_700, _dot, int64_t(192));
       float  const _701 = float_from_bits(0 /* 0 */);
       float16  const _702 = float16_ops::broadcast(_701);
       float16_ops::store(_702, _dot, int64_t(224));
       float  const _703 = float_from_bits(0 /* 0 */);
       float16  const _704 = float16_ops::broadcast(_703);
       float16_ops::store(_704, _dot, int64_t(16));
       float  const _705 = float_from_bits(0 /* 0 */);
       float16  const _706 = float16_ops::broadcast(_705);
       float16_ops::store(_706, _dot, int64_t(48));
       float  const _707 = float_from_bits(0 /* 0 */);
       float16  const _708 = float16_ops::broadcast(_707);
       float16_ops::store(_708, _dot, int64_t(80));
       float  const _709 = float_from_bits(0 /* 0 */);
       float16  const _710 = float16_ops::broadcast(_709);
       float16_ops::store(_710, _dot, int64_t(112));
       float  const _711 = float_from_bits(0 /* 0 */);
       float16  const _712 = float16_ops::broadcast(_711);
       float16_ops::store(_712, _dot, int64_t(144));
       float  const _713 = float_from_bits(0 /* 0 */);
       float16  const _714 = float16_ops::broadcast(_713);
       float16_ops::store(_714, _dot, int64_t(176));
       float  const _715 = float_from_bits(0 /* 0 */);
       float16  const _716 = float16_ops::broadcast(_715);
       float16_ops::store(_716, _dot, int64_t(208));
       float  const _717 = float_from_bits(0 /* 0 */);
       float16  const _718 = float16_ops::broadcast(_717);
       float16_ops::store(_718, _dot, int64_t(240));
       int32_t  const _719 = _scores_s0_j_jo * 8;
       int32_t  const _720 = _719 + _100;
       int32_t  const _721 = _720 * 64;
       for (int _dot_s1_rd__x = 0; _dot_s1_rd__x < 0 + 64; _dot_s1_rd__x++)
       {
        float16  const _722 = float16_ops::load(_dot, int64_t(0));
        int64_t  const _723 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _724 = _723 * int64_t(32);
        float16  const _725 = float16_ops::load(_qs, _724);
        int64_t  const _726 = (int64_t)(_721);
        int64_t  const _727 = _723 + _726;
        float  const _728 = ((float const *)_attn_k)[_727];
        float16  const _729 = float16_ops::broadcast(_728);
        float16  const _730 = _725 * _729;
        float16  const _731 = _722 + _730;
        float16_ops::store(_731, _dot, int64_t(0));
        float16  const _732 = float16_ops::load(_dot, int64_t(16));
        int64_t  const _733 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _734 = _733 * int64_t(32);
        int64_t  const _735 = _734 + int64_t(16);
        float16  const _736 = float16_ops::load(_qs, _735);
        int64_t  const _737 = (int64_t)(_721);
        int64_t  const _738 = _733 + _737;
        float  const _739 = ((float const *)_attn_k)[_738];
        float16  const _740 = float16_ops::broadcast(_739);
        float16  const _741 = _736 * _740;
        float16  const _742 = _732 + _741;
        float16_ops::store(_742, _dot, int64_t(16));
        float16  const _743 = float16_ops::load(_dot, int64_t(32));
        int64_t  const _744 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _745 = _744 * int64_t(32);
        float16  const _746 = float16_ops::load(_qs, _745);
        int64_t  const _747 = (int64_t)(_721);
        int64_t  const _748 = _744 + _747;
        int64_t  const _749 = _748 + int64_t(64);
        float  const _750 = ((float const *)_attn_k)[_749];
        float16  const _751 = float16_ops::broadcast(_750);
        float16  const _752 = _746 * _751;
        float16  const _753 = _743 + _752;
        float16_ops::store(_753, _dot, int64_t(32));
        float16  const _754 = float16_ops::load(_dot, int64_t(48));
        int64_t  const _755 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _756 = _755 * int64_t(32);
        int64_t  const _757 = _756 + int64_t(16);
        float16  const _758 = float16_ops::load(_qs, _757);
        int64_t  const _759 = (int64_t)(_721);
        int64_t  const _760 = _755 + _759;
        int64_t  const _761 = _760 + int64_t(64);
        float  const _762 = ((float const *)_attn_k)[_761];
        float16  const _763 = float16_ops::broadcast(_762);
        float16  const _764 = _758 * _763;
        float16  const _765 = _754 + _764;
        float16_ops::store(_765, _dot, int64_t(48));
        float16  const _766 = float16_ops::load(_dot, int64_t(64));
        int64_t  const _767 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _768 = _767 * int64_t(32);
        float16  const _769 = float16_ops::load(_qs, _768);
        int64_t  const _770 = (int64_t)(_721);
        int64_t  const _771 = _767 + _770;
        int64_t  const _772 = _771 + int64_t(128);
        float  const _773 = ((float const *)_attn_k)[_772];
        float16  const _774 = float16_ops::broadcast(_773);
        float16  const _775 = _769 * _774;
        float16  const _776 = _766 + _775;
        float16_ops::store(_776, _dot, int64_t(64));
        float16  const _777 = float16_ops::load(_dot, int64_t(80));
        int64_t  const _778 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _779 = _778 * int64_t(32);
        int64_t  const _780 = _779 + int64_t(16);
        float16  const _781 = float16_ops::load(_qs, _780);
        int64_t  const _782 = (int64_t)(_721);
        int64_t  const _783 = _778 + _782;
        int64_t  const _784 = _783 + int64_t(128);
        float  const _785 = ((float const *)_attn_k)[_784];
        float16  const _786 = float16_ops::broadcast(_785);
        float16  const _787 = _781 * _786;
        float16  const _788 = _777 + _787;
        float16_ops::store(_788, _dot, int64_t(80));
        float16  const _789 = float16_ops::load(_dot, int64_t(96));
        int64_t  const _790 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _791 = _790 * int64_t(32);
        float16  const _792 = float16_ops::load(_qs, _791);
        int64_t  const _793 = (int64_t)(_721);
        int64_t  const _794 = _790 + _793;
        int64_t  const _795 = _794 + int64_t(192);
        float  const _796 = ((float const *)_attn_k)[_795];
        float16  const _797 = float16_ops::broadcast(_796);
        float16  const _798 = _792 * _797;
        float16  const _799 = _789 + _798;
        float16_ops::store(_799, _dot, int64_t(96));
        float16  const _800 = float16_ops::load(_dot, int64_t(112));
        int64_t  const _801 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _802 = _801 * int64_t(32);
        int64_t  const _803 = _802 + int64_t(16);
        float16  const _804 = float16_ops::load(_qs, _803);
        int64_t  const _805 = (int64_t)(_721);
        int64_t  const _806 = _801 + _805;
        int64_t  const _807 = _806 + int64_t(192);
        float  const _808 = ((float const *)_attn_k)[_807];
        float16  const _809 = float16_ops::broadcast(_808);
        float16  const _810 = _804 * _809;
        float16  const _811 = _800 + _810;
        float16_ops::store(_811, _dot, int64_t(112));
        float16  const _812 = float16_ops::load(_dot, int64_t(128));
        int64_t  const _813 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _814 = _813 * int64_t(32);
        float16  const _815 = float16_ops::load(_qs, _814);
        int64_t  const _816 = (int64_t)(_721);
        int64_t  const _817 = _813 + _816;
        int64_t  const _818 = _817 + int64_t(256);
        float  const _819 = ((float const *)_attn_k)[_818];
        float16  const _820 = float16_ops::broadcast(_819);
        float16  const _821 = _815 * _820;
        float16  const _822 = _812 + _821;
        float16_ops::store(_822, _dot, int64_t(128));
        float16  const _823 = float16_ops::load(_dot, int64_t(144));
        int64_t  const _824 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _825 = _824 * int64_t(32);
        int64_t  const _826 = _825 + int64_t(16);
        float16  const _827 = float16_ops::load(_qs, _826);
        int64_t  const _828 = (int64_t)(_721);
        int64_t  const _829 = _824 + _828;
        int64_t  const _830 = _829 + int64_t(256);
        float  const _831 = ((float const *)_attn_k)[_830];
        float16  const _832 = float16_ops::broadcast(_831);
        float16  const _833 = _827 * _832;
        float16  const _834 = _823 + _833;
        float16_ops::store(_834, _dot, int64_t(144));
        float16  const _835 = float16_ops::load(_dot, int64_t(160));
        int64_t  const _836 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _837 = _836 * int64_t(32);
        float16  const _838 = float16_ops::load(_qs, _837);
        int64_t  const _839 = (int64_t)(_721);
        int64_t  const _840 = _836 + _839;
        int64_t  const _841 = _840 + int64_t(320);
        float  const _842 = ((float const *)_attn_k)[_841];
        float16  const _843 = float16_ops::broadcast(_842);
        float16  const _844 = _838 * _843;
        float16  const _845 = _835 + _844;
        float16_ops::store(_845, _dot, int64_t(160));
        float16  const _846 = float16_ops::load(_dot, int64_t(176));
        int64_t  const _847 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _848 = _847 * int64_t(32);
        int64_t  const _849 = _848 + int64_t(16);
        float16  const _850 = float16_ops::load(_qs, _849);
        int64_t  const _851 = (int64_t)(_721);
        int64_t  const _852 = _847 + _851;
        int64_t  const _853 = _852 + int64_t(320);
        float  const _854 = ((float const *)_attn_k)[_853];
        float16  const _855 = float16_ops::broadcast(_854);
        float16  const _856 = _850 * _855;
        float16  const _857 = _846 + _856;
        float16_ops::store(_857, _dot, int64_t(176));
        float16  const _858 = float16_ops::load(_dot, int64_t(192));
        int64_t  const _859 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _860 = _859 * int64_t(32);
        float16  const _861 = float16_ops::load(_qs, _860);
        int64_t  const _862 = (int64_t)(_721);
        int64_t  const _863 = _859 + _862;
        int64_t  const _864 = _863 + int64_t(384);
        float  const _865 = ((float const *)_attn_k)[_864];
        float16  const _866 = float16_ops::broadcast(_865);
        float16  const _867 = _861 * _866;
        float16  const _868 = _858 + _867;
        float16_ops::store(_868, _dot, int64_t(192));
        float16  const _869 = float16_ops::load(_dot, int64_t(208));
        int64_t  const _870 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _871 = _870 * int64_t(32);
        int64_t  const _872 = _871 + int64_t(16);
        float16  const _873 = float16_ops::load(_qs, _872);
        int64_t  const _874 = (int64_t)(_721);
        int64_t  const _875 = _870 + _874;
        int64_t  const _876 = _875 + int64_t(384);
        float  const _877 = ((float const *)_attn_k)[_876];
        float16  const _878 = float16_ops::broadcast(_877);
        float16  const _879 = _873 * _878;
        float16  const _880 = _869 + _879;
        float16_ops::store(_880, _dot, int64_t(208));
        float16  const _881 = float16_ops::load(_dot, int64_t(224));
        int64_t  const _882 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _883 = _882 * int64_t(32);
        float16  const _884 = float16_ops::load(_qs, _883);
        int64_t  const _885 = (int64_t)(_721);
        int64_t  const _886 = _882 + _885;
        int64_t  const _887 = _886 + int64_t(448);
        float  const _888 = ((float const *)_attn_k)[_887];
        float16  const _889 = float16_ops::broadcast(_888);
        float16  const _890 = _884 * _889;
        float16  const _891 = _881 + _890;
        float16_ops::store(_891, _dot, int64_t(224));
        float16  const _892 = float16_ops::load(_dot, int64_t(240));
        int64_t  const _893 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _894 = _893 * int64_t(32);
        int64_t  const _895 = _894 + int64_t(16);
        float16  const _896 = float16_ops::load(_qs, _895);
        int64_t  const _897 = (int64_t)(_721);
        int64_t  const _898 = _893 + _897;
        int64_t  const _899 = _898 + int64_t(448);
        float  const _900 = ((float const *)_attn_k)[_899];
        float16  const _901 = float16_ops::broadcast(_900);
        float16  const _902 = _896 * _901;
        float16  const _903 = _892 + _902;
        float16_ops::store(_903, _dot, int64_t(240));
       } // for _dot_s1_rd__x
       // consume dot
       float16  const _904 = float16_ops::load(_dot, int64_t(0));
       int64_t  const _905 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _906 = _905 * int64_t(256);
       float16_ops::store(_904, _scores, _906);
       float16  const _907 = float16_ops::load(_dot, int64_t(16));
       int64_t  const _908 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _909 = _908 * int64_t(256);
       int64_t  const _910 = _909 + int64_t(16);
       float16_ops::store(_907, _scores, _910);
       float16  const _911 = float16_ops::load(_dot, int64_t(32));
       int64_t  const _912 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _913 = _912 * int64_t(256);
       int64_t  const _914 = _913 + int64_t(32);
       float16_ops::store(_911, _scores, _914);
       float16  const _915 = float16_ops::load(_dot, int64_t(48));
       int64_t  const _916 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _917 = _916 * int64_t(256);
       int64_t  const _918 = _917 + int64_t(48);
       float16_ops::store(_915, _scores, _918);
       float16  const _919 = float16_ops::load(_dot, int64_t(64));
       int64_t  const _920 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _921 = _920 * int64_t(256);
       int64_t  const _922 = _921 + int64_t(64);
       float16_ops::store(_919, _scores, _922);
       float16  const _923 = float16_ops::load(_dot, int64_t(80));
       int64_t  const _924 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _925 = _924 * int64_t(256);
       int64_t  const _926 = _925 + int64_t(80);
       float16_ops::store(_923, _scores, _926);
       float16  const _927 = float16_ops::load(_dot, int64_t(96));
       int64_t  const _928 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _929 = _928 * int64_t(256);
       int64_t  const _930 = _929 + int64_t(96);
       float16_ops::store(_927, _scores, _930);
       float16  const _931 = float16_ops::load(_dot, int64_t(112));
       int64_t  const _932 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _933 = _932 * int64_t(256);
       int64_t  const _934 = _933 + int64_t(112);
       float16_ops::store(_931, _scores, _934);
       float16  const _935 = float16_ops::load(_dot, int64_t(128));
       int64_t  const _936 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _937 = _936 * int64_t(256);
       int64_t  const _938 = _937 + int64_t(128);
       float16_ops::store(_935, _scores, _938);
       float16  const _939 = float16_ops::load(_dot, int64_t(144));
       int64_t  const _940 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _941 = _940 * int64_t(256);
       int64_t  const _942 = _941 + int64_t(144);
       float16_ops::store(_939, _scores, _942);
       float16  const _943 = float16_ops::load(_dot, int64_t(160));
       int64_t  const _944 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _945 = _944 * int64_t(256);
       int64_t  const _946 = _945 + int64_t(160);
       float16_ops::store(_943, _scores, _946);
       float16  const _947 = float16_ops::load(_dot, int64_t(176));
       int64_t  const _948 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _949 = _948 * int64_t(256);
       int64_t  const _950 = _949 + int64_t(176);
       float16_ops::store(_947, _scores, _950);
       float16  const _951 = float16_ops::load(_dot, int64_t(192));
       int64_t  const _952 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _953 = _952 * int64_t(256);
       int64_t  const _954 = _953 + int64_t(192);
       float16_ops::store(_951, _scores, _954);
       float16  const _955 = float16_ops::load(_dot, int64_t(208));
       int64_t  const _956 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _957 = _956 * int64_t(256);
       int64_t  const _958 = _957 + int64_t(208);
       float16_ops::store(_955, _scores, _958);
       float16  const _959 = float16_ops::load(_dot, int64_t(224));
       int64_t  const _960 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _961 = _960 * int64_t(256);
       int64_t  const _962 = _961 + int64_t(224);
       float16_ops::store(_959, _scores, _962);
       float16  const _963 = float16_ops::load(_dot, int64_t(240));
       int64_t  const _964 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _965 = _964 * int64_t(256);
       int64_t  const _966 = _965 + int64_t(240);
       float16_ops::store(_963, _scores, _966);
      } // alloc _dot
     } // for _scores_s0_j_jo
     int32_t  const _967 = _683 - _100;
     int32_t  const _968 = _967 >> 3;
     int32_t  const _969 = ::halide_cpp_max(_968, 0);
     int32_t  const _970 = _99 - _100;
     int32_t  const _971 = _970 + -1;
     int32_t  const _972 = _971 >> 3;
     int32_t  const _973 = _972 - _969;
     int32_t  const _974 = _973 + 1;
     for (int _scores_s0_j_jo_rebased = 0; _scores_s0_j_jo_rebased < 0 + _974; _scores_s0_j_jo_rebased++)
     {
      {
       float _dot[256];
       // produce dot
       float  const _975 = float_from_bits(0 /* 0 */);
       float16  const _976 = float16_ops::broadcast(_975);
       float16_ops::store(_976, _dot, int64_t(0));
       float  const _977 = float_from_bits(0 /* 0 */);
       float16  const _978 = float16_ops::broadcast(_977);
       float16_ops::store(_978, _dot, int64_t(32));
       float  const _979 = float_from_bits(0 /* 0 */);
       float16  const _980 = float16_ops::broadcast(_979);
       float16_ops::store(_980, _dot, int64_t(64));
       float  const _981 = float_from_bits(0 /* 0 */);
       float16  const _982 = float16_ops::broadcast(_981);
       float16_ops::store(_982, _dot, int64_t(96));
       float  const _983 = float_from_bits(0 /* 0 */);
       float16  const _984 = float16_ops::broadcast(_983);
       float16_ops::store(_984, _dot, int64_t(128));
       float  const _985 = float_from_bits(0 /* 0 */);
       float16  const _986 = float16_ops::broadcast(_985);
       float16_ops::store(_986, _dot, int64_t(160));
       float  const _987 = float_from_bits(0 /* 0 */);
       float16  const _988 = float16_ops::broadcast(_987);
       float16_ops::store(_988, _dot, int64_t(192));
       float  const _989 = float_from_bits(0 /* 0 */);
       float16  const _990 = float16_ops::broadcast(_989);
       float16_ops::store(_990, _dot, int64_t(224));
       float  const _991 = float_from_bits(0 /* 0 */);
       float16  const _992 = float16_ops::broadcast(_991);
       float16_ops::store(_992, _dot, int64_t(16));
       float  const _993 = float_from_bits(0 /* 0 */);
       float16  const _994 = float16_ops::broadcast(_993);
       float16_ops::store(_994, _dot, int64_t(48));
       float  const _995 = float_from_bits(0 /* 0 */);
       float16  const _996 = float16_ops::broadcast(_995);
       float16_ops::store(_996, _dot, int64_t(80));
       float  const _997 = float_from_bits(0 /* 0 */);
       float16  const _998 = float16_ops::broadcast(_997);
       float16_ops::store(_998, _dot, int64_t(112));
       float  const _999 = float_from_bits(0 /* 0 */);
       float16  const _1000 = float16_ops::broadcast(_999);
       float16_ops::store(_1000, _dot, int64_t(144));
       float  const _1001 = float_from_bits(0 /* 0 */);
       float16  const _1002 = float16_ops::broadcast(_1001);
       float16_ops::store(_1002, _dot, int64_t(176));
       float  const _1003 = float_from_bits(0 /* 0 */);
       float16  const _1004 = float16_ops::broadcast(_1003);
       float16_ops::store(_1004, _dot, int64_t(208));
       float  const _1005 = float_from_bits(0 /* 0 */);
       float16  const _1006 = float16_ops::broadcast(_1005);
       float16_ops::store(_1006, _dot, int64_t(240));
       int32_t  const _1007 = _scores_s0_j_jo_rebased + _969;
       int32_t  const _1008 = _1007 * 8;
       int32_t  const _1009 = _1008 + _100;
       int32_t  const _1010 = _24 + -1;
       int32_t  const _1011 = ::halide_cpp_min(_1010, _1009);
       int32_t  const _1012 = _1011 * 64;
       int32_t  const _1013 = _1009 + 8;
       int32_t  const _1014 = ::halide_cpp_min(_1013, _24);
       int32_t  const _1015 = _1014 * 64;
       int32_t  const _1016 = _1009 + 7;
       int32_t  const _1017 = ::halide_cpp_min(_1016, _24);
       int32_t  const _1018 = _1017 * 64;
       int32_t  const _1019 = _1009 + 6;
       int32_t  const _1020 = ::halide_cpp_min(_1019, _24);
       int32_t  const _1021 = _1020 * 64;
       int32_t  const _1022 = _1009 + 5;
       int32_t  const _1023 = ::halide_cpp_min(_1022, _24);
       int32_t  const _1024 = _1023 * 64;
       int32_t  const _1025 = _1009 + 4;
       int32_t  const _1026 = ::halide_cpp_min(_1025, _24);
       int32_t  const _1027 = _1026 * 64;
       int32_t  const _1028 = _1009 + 3;
       int32_t  const _1029 = ::halide_cpp_min(_1028, _24);
       int32_t  const _1030 = _1029 * 64;
       int32_t  const _1031 = _1009 + 2;
       int32_t  const _1032 = ::halide_cpp_min(_1031, _24);
       int32_t  const _1033 = _1032 * 64;
       for (int _dot_s1_rd__x = 0; _dot_s1_rd__x < 0 + 64; _dot_s1_rd__x++)
       {
        float16  const _1034 = float16_ops::load(_dot, int64_t(0));
        int64_t  const _1035 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1036 = _1035 * int64_t(32);
        float16  const _1037 = float16_ops::load(_qs, _1036);
        int64_t  const _1038 = (int64_t)(_1012);
        int64_t  const _1039 = _1035 + _1038;
        float  const _1040 = ((float const *)_attn_k)[_1039];
        float16  const _1041 = float16_ops::broadcast(_1040);
        float16  const _1042 = _1037 * _1041;
        float16  const _1043 = _1034 + _1042;
        float16_ops::store(_1043, _dot, int64_t(0));
        float16  const _1044 = float16_ops::load(_dot, int64_t(16));
        int64_t  const _1045 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1046 = _1045 * int64_t(32);
        int64_t  const _1047 = _1046 + int64_t(16);
        float16  const _1048 = float16_ops::load(_qs, _1047);
        int64_t  const _1049 = (int64_t)(_1012);
        int64_t  const _1050 = _1045 + _1049;
        float  const _1051 = ((float const *)_attn_k)[_1050];
        float16  const _1052 = float16_ops::broadcast(_1051);
        float16  const _1053 = _1048 * _1052;
        float16  const _1054 = _1044 + _1053;
        float16_ops::store(_1054, _dot, int64_t(16));
        float16  const _1055 = float16_ops::load(_dot, int64_t(32));
        int64_t  const _1056 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1057 = _1056 * int64_t(32);
        float16  const _1058 = float16_ops::load(_qs, _1057);
        int64_t  const _1059 = (int64_t)(_1033);
        int64_t  const _1060 = _1056 + _1059;
        int64_t  const _1061 = _1060 + int64_t(-64);
        float  const _1062 = ((float const *)_attn_k)[_1061];
        float16  const _1063 = float16_ops::broadcast(_1062);
        float16  const _1064 = _1058 * _1063;
        float16  const _1065 = _1055 + _1064;
        float16_ops::store(_1065, _dot, int64_t(32));
        float16  const _1066 = float16_ops::load(_dot, int64_t(48));
        int64_t  const _1067 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1068 = _1067 * int64_t(32);
        int64_t  const _1069 = _1068 + int64_t(16);
        float16  const _1070 = float16_ops::load(_qs, _1069);
        int64_t  const _1071 = (int64_t)(_1033);
        int64_t  const _1072 = _1067 + _1071;
        int64_t  const _1073 = _1072 + int64_t(-64);
        float  const _1074 = ((float const *)_attn_k)[_1073];
        float16  const _1075 = float16_ops::broadcast(_1074);
        float16  const _1076 = _1070 * _1075;
        float16  const _1077 = _1066 + _1076;
        float16_ops::store(_1077, _dot, int64_t(48));
        float16  const _1078 = float16_ops::load(_dot, int64_t(64));
        int64_t  const _1079 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1080 = _1079 * int64_t(32);
        float16  const _1081 = float16_ops::load(_qs, _1080);
        int64_t  const _1082 = (int64_t)(_1030);
        int64_t  const _1083 = _1079 + _1082;
        int64_t  const _1084 = _1083 + int64_t(-64);
        float  const _1085 = ((float const *)_attn_k)[_1084];
        float16  const _1086 = float16_ops::broadcast(_1085);
        float16  const _1087 = _1081 * _1086;
        float16  const _1088 = _1078 + _1087;
        float16_ops::store(_1088, _dot, int64_t(64));
        float16  const _1089 = float16_ops::load(_dot, int64_t(80));
        int64_t  const _1090 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1091 = _1090 * int64_t(32);
        int64_t  const _1092 = _1091 + int64_t(16);
        float16  const _1093 = float16_ops::load(_qs, _1092);
        int64_t  const _1094 = (int64_t)(_1030);
        int64_t  const _1095 = _1090 + _1094;
        int64_t  const _1096 = _1095 + int64_t(-64);
        float  const _1097 = ((float const *)_attn_k)[_1096];
        float16  const _1098 = float16_ops::broadcast(_1097);
        float16  const _1099 = _1093 * _1098;
        float16  const _1100 = _1089 + _1099;
        float16_ops::store(_1100, _dot, int64_t(80));
        float16  const _1101 = float16_ops::load(_dot, int64_t(96));
        int64_t  const _1102 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1103 = _1102 * int64_t(32);
        float16  const _1104 = float16_ops::load(_qs, _1103);
        int64_t  const _1105 = (int64_t)(_1027);
        int64_t  const _1106 = _1102 + _1105;
        int64_t  const _1107 = _1106 + int64_t(-64);
        float  const _1108 = ((float const *)_attn_k)[_1107];
        float16  const _1109 = float16_ops::broadcast(_1108);
        float16  const _1110 = _1104 * _1109;
        float16  const _1111 = _1101 + _1110;
        float16_ops::store(_1111, _dot, int64_t(96));
        float16  const _1112 = float16_ops::load(_dot, int64_t(112));
        int64_t  const _1113 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1114 = _1113 * int64_t(32);
        int64_t  const _1115 = _1114 + int64_t(16);
        float16  const _1116 = float16_ops::load(_qs, _1115);
        int64_t  const _1117 = (int64_t)(_1027);
        int64_t  const _1118 = _1113 + _1117;
        int64_t  const _1119 = _1118 + int64_t(-64);
        float  const _1120 = ((float const *)_attn_k)[_1119];
        float16  const _1121 = float16_ops::broadcast(_1120);
        float16  const _1122 = _1116 * _1121;
        float16  const _1123 = _1112 + _1122;
        float16_ops::store(_1123, _dot, int64_t(112));
        float16  const _1124 = float16_ops::load(_dot, int64_t(128));
        int64_t  const _1125 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1126 = _1125 * int64_t(32);
        float16  const _1127 = float16_ops::load(_qs, _1126);
        int64_t  const _1128 = (int64_t)(_1024);
        int64_t  const _1129 = _1125 + _1128;
        int64_t  const _1130 = _1129 + int64_t(-64);
        float  const _1131 = ((float const *)_attn_k)[_1130];
        float16  const _1132 = float16_ops::broadcast(_1131);
        float16  const _1133 = _1127 * _1132;
        float16  const _1134 = _1124 + _1133;
        float16_ops::store(_1134, _dot, int64_t(128));
        float16  const _1135 = float16_ops::load(_dot, int64_t(144));
        int64_t  const _1136 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1137 = _1136 * int64_t(32);
        int64_t  const _1138 = _1137 + int64_t(16);
        float16  const _1139 = float16_ops::load(_qs, _1138);
        int64_t  const _1140 = (int64_t)(_1024);
        int64_t  const _1141 = _1136 + _1140;
        int64_t  const _1142 = _1141 + int64_t(-64);
        float  const _1143 = ((float const *)_attn_k)[_1142];
        float16  const _1144 = float16_ops::broadcast(_1143);
        float16  const _1145 = _1139 * _1144;
        float16  const _1146 = _1135 + _1145;
        float16_ops::store(_1146, _dot, int64_t(144));
        float16  const _1147 = float16_ops::load(_dot, int64_t(160));
        int64_t  const _1148 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1149 = _1148 * int64_t(32);
        float16  const _1150 = float16_ops::load(_qs, _1149);
        int64_t  const _1151 = (int64_t)(_1021);
        int64_t  const _1152 = _1148 + _1151;
        int64_t  const _1153 = _1152 + int64_t(-64);
        float  const _1154 = ((float const *)_attn_k)[_1153];
        float16  const _1155 = float16_ops::broadcast(_1154);
        float16  const _1156 = _1150 * _1155;
        float16  const _1157 = _1147 + _1156;
        float16_ops::store(_1157, _dot, int64_t(160));
        float16  const _1158 = float16_ops::load(_dot, int64_t(176));
        int64_t  const _1159 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1160 = _1159 * int64_t(32);
        int64_t  const _1161 = _1160 + int64_t(16);
        float16  const _1162 = float16_ops::load(_qs, _1161);
        int64_t  const _1163 = (int64_t)(_1021);
        int64_t  const _1164 = _1159 + _1163;
        int64_t  const _1165 = _1164 + int64_t(-64);
        float  const _1166 = ((float const *)_attn_k)[_1165];
        float16  const _1167 = float16_ops::broadcast(_1166);
        float16  const _1168 = _1162 * _1167;
        float16  const _1169 = _1158 + _1168;
        float16_ops::store(_1169, _dot, int64_t(176));
        float16  const _1170 = float16_ops::load(_dot, int64_t(192));
        int64_t  const _1171 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1172 = _1171 * int64_t(32);
        float16  const _1173 = float16_ops::load(_qs, _1172);
        int64_t  const _1174 = (int64_t)(_1018);
        int64_t  const _1175 = _1171 + _1174;
        int64_t  const _1176 = _1175 + int64_t(-64);
        float  const _1177 = ((float const *)_attn_k)[_1176];
        float16  const _1178 = float16_ops::broadcast(_1177);
        float16  const _1179 = _1173 * _1178;
        float16  const _1180 = _1170 + _1179;
        float16_ops::store(_1180, _dot, int64_t(192));
        float16  const _1181 = float16_ops::load(_dot, int64_t(208));
        int64_t  const _1182 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1183 = _1182 * int64_t(32);
        int64_t  const _1184 = _1183 + int64_t(16);
        float16  const _1185 = float16_ops::load(_qs, _1184);
        int64_t  const _1186 = (int64_t)(_1018);
        int64_t  const _1187 = _1182 + _1186;
        int64_t  const _1188 = _1187 + int64_t(-64);
        float  const _1189 = ((float const *)_attn_k)[_1188];
        float16  const _1190 = float16_ops::broadcast(_1189);
        float16  const _1191 = _1185 * _1190;
        float16  const _1192 = _1181 + _1191;
        float16_ops::store(_1192, _dot, int64_t(208));
        float16  const _1193 = float16_ops::load(_dot, int64_t(224));
        int64_t  const _1194 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1195 = _1194 * int64_t(32);
        float16  const _1196 = float16_ops::load(_qs, _1195);
        int64_t  const _1197 = (int64_t)(_1015);
        int64_t  const _1198 = _1194 + _1197;
        int64_t  const _1199 = _1198 + int64_t(-64);
        float  const _1200 = ((float const *)_attn_k)[_1199];
        float16  const _1201 = float16_ops::broadcast(_1200);
        float16  const _1202 = _1196 * _1201;
        float16  const _1203 = _1193 + _1202;
        float16_ops::store(_1203, _dot, int64_t(224));
        float16  const _1204 = float16_ops::load(_dot, int64_t(240));
        int64_t  const _1205 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1206 = _1205 * int64_t(32);
        int64_t  const _1207 = _1206 + int64_t(16);
        float16  const _1208 = float16_ops::load(_qs, _1207);
        int64_t  const _1209 = (int64_t)(_1015);
        int64_t  const _1210 = _1205 + _1209;
        int64_t  const _1211 = _1210 + int64_t(-64);
        float  const _1212 = ((float const *)_attn_k)[_1211];
        float16  const _1213 = float16_ops::broadcast(_1212);
        float16  const _1214 = _1208 * _1213;
        float16  const _1215 = _1204 + _1214;
        float16_ops::store(_1215, _dot, int64_t(240));
       } // for _dot_s1_rd__x
       // consume dot
       float16  const _1216 = float16_ops::load(_dot, int64_t(0));
       int64_t  const _1217 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1218 = (int64_t)(_969);
       int64_t  const _1219 = _1217 + _1218;
       int64_t  const _1220 = _1219 * int64_t(256);
       float16_ops::store(_1216, _scores, _1220);
       float16  const _1221 = float16_ops::load(_dot, int64_t(16));
       int64_t  const _1222 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1223 = (int64_t)(_969);
       int64_t  const _1224 = _1222 + _1223;
       int64_t  const _1225 = _1224 * int64_t(256);
       int64_t  const _1226 = _1225 + int64_t(16);
       float16_ops::store(_1221, _scores, _1226);
       float16  const _1227 = float16_ops::load(_dot, int64_t(32));
       int64_t  const _1228 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1229 = (int64_t)(_969);
       int64_t  const _1230 = _1228 + _1229;
       int64_t  const _1231 = _1230 * int64_t(256);
       int64_t  const _1232 = _1231 + int64_t(32);
       float16_ops::store(_1227, _scores, _1232);
       float16  const _1233 = float16_ops::load(_dot, int64_t(48));
       int64_t  const _1234 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1235 = (int64_t)(_969);
       int64_t  const _1236 = _1234 + _1235;
       int64_t  const _1237 = _1236 * int64_t(256);
       int64_t  const _1238 = _1237 + int64_t(48);
       float16_ops::store(_1233, _scores, _1238);
       float16  const _1239 = float16_ops::load(_dot, int64_t(64));
       int64_t  const _1240 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1241 = (int64_t)(_969);
       int64_t  const _1242 = _1240 + _1241;
       int64_t  const _1243 = _1242 * int64_t(256);
       int64_t  const _1244 = _1243 + int64_t(64);
       float16_ops::store(_1239, _scores, _1244);
       float16  const _1245 = float16_ops::load(_dot, int64_t(80));
       int64_t  const _1246 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1247 = (int64_t)(_969);
       int64_t  const _1248 = _1246 + _1247;
       int64_t  const _1249 = _1248 * int64_t(256);
       int64_t  const _1250 = _1249 + int64_t(80);
       float16_ops::store(_1245, _scores, _1250);
       float16  const _1251 = float16_ops::load(_dot, int64_t(96));
       int64_t  const _1252 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1253 = (int64_t)(_969);
       int64_t  const _1254 = _1252 + _1253;
       int64_t  const _1255 = _1254 * int64_t(256);
       int64_t  const _1256 = _1255 + int64_t(96);
       float16_ops::store(_1251, _scores, _1256);
       float16  const _1257 = float16_ops::load(_dot, int64_t(112));
       int64_t  const _1258 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1259 = (int64_t)(_969);
       int64_t  const _1260 = _1258 + _1259;
       int64_t  const _1261 = _1260 * int64_t(256);
       int64_t  const _1262 = _1261 + int64_t(112);
       float16_ops::store(_1257, _scores, _1262);
       float16  const _1263 = float16_ops::load(_dot, int64_t(128));
       int64_t  const _1264 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1265 = (int64_t)(_969);
       int64_t  const _1266 = _1264 + _1265;
       int64_t  const _1267 = _1266 * int64_t(256);
       int64_t  const _1268 = _1267 + int64_t(128);
       float16_ops::store(_1263, _scores, _1268);
       float16  const _1269 = float16_ops::load(_dot, int64_t(144));
       int64_t  const _1270 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1271 = (int64_t)(_969);
       int64_t  const _1272 = _1270 + _1271;
       int64_t  const _1273 = _1272 * int64_t(256);
       int64_t  const _1274 = _1273 + int64_t(144);
       float16_ops::store(_1269, _scores, _1274);
       float16  const _1275 = float16_ops::load(_dot, int64_t(160));
       int64_t  const _1276 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1277 = (int64_t)(_969);
       int64_t  const _1278 = _1276 + _1277;
       int64_t  const _1279 = _1278 * int64_t(256);
       int64_t  const _1280 = _1279 + int64_t(160);
       float16_ops::store(_1275, _scores, _1280);
       float16  const _1281 = float16_ops::load(_dot, int64_t(176));
       int64_t  const _1282 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1283 = (int64_t)(_969);
       int64_t  const _1284 = _1282 + _1283;
       int64_t  const _1285 = _1284 * int64_t(256);
       int64_t  const _1286 = _1285 + int64_t(176);
       float16_ops::store(_1281, _scores, _1286);
       float16  const _1287 = float16_ops::load(_dot, int64_t(192));
       int64_t  const _1288 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1289 = (int64_t)(_969);
       int64_t  const _1290 = _1288 + _1289;
       int64_t  const _1291 = _1290 * int64_t(256);
       int64_t  const _1292 = _1291 + int64_t(192);
       float16_ops::store(_1287, _scores, _1292);
       float16  const _1293 = float16_ops::load(_dot, int64_t(208));
       int64_t  const _1294 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1295 = (int64_t)(_969);
       int64_t  const _1296 = _1294 + _1295;
       int64_t  const _1297 = _1296 * int64_t(256);
       int64_t  const _1298 = _1297 + int64_t(208);
       float16_ops::store(_1293, _scores, _1298);
       float16  const _1299 = float16_ops::load(_dot, int64_t(224));
       int64_t  const _1300 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1301 = (int64_t)(_969);
       int64_t  const _1302 = _1300 + _1301;
       int64_t  const _1303 = _1302 * int64_t(256);
       int64_t  const _1304 = _1303 + int64_t(224);
       float16_ops::store(_1299, _scores, _1304);
       float16  const _1305 = float16_ops::load(_dot, int64_t(240));
       int64_t  const _1306 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1307 = (int64_t)(_969);
       int64_t  const _1308 = _1306 + _1307;
       int64_t  const _1309 = _1308 * int64_t(256);
       int64_t  const _1310 = _1309 + int64_t(240);
       float16_ops::store(_1305, _scores, _1310);
      } // alloc _dot
     } // for _scores_s0_j_jo_rebased
    } // if _681
    int32_t  const _1311 = ::halide_cpp_max(_96, _87);
    int32_t  const _1312 = ::halide_cpp_max(_1311, _99);
    {
     int32_t  const _1313 = _1312 - _100;
     int64_t  const _1314 = _1313;
     int64_t  const _1315 = _1314 * 32;
     if ((_1315 > ((int64_t(1) << 31) - 1)) || ((_1315 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
     {
      attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation masked\n");
      return -1;
     } // overflow test masked
     int64_t  const _1316 = _1315;
     float *_masked = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_1316);
     if (!_masked)
     {
      int32_t  const _1317 = attn_causal64_rt_error_out_of_memory(_ucon);
      return _1317;
     }
     HalideFreeHelper _masked_free(_ucon, _masked, attn_causal64_rt_free);
     // produce masked
     // consume scores
     // consume dec_scores
     bool  const _1318 = _attn_decoding == 0;
     int32_t  const _1319 = _99 - _100;
     int32_t  const _1320 = _attn_tile * 2;
     int32_t  const _1321 = _1320 + _attn_q_step;
     int32_t  const _1322 = _1321 * 16;
     int32_t  const _1323 = _1322 + _attn_q0;
     int32_t  const _1324 = _attn_tile * 32;
     int32_t  const _1325 = _1324 + _attn_q0;
     for (int _masked_s0_j_rebased = 0; _masked_s0_j_rebased < 0 + _1319; _masked_s0_j_rebased++)
     {
      uint32_t  const _1326 = (uint32_t)(0ull);
      uint32x16_t  const _1327 = uint32x16_t_ops::broadcast(_1326);
      uint32_t  const _1328 = (uint32_t)(4294967295ull);
      uint32x16_t  const _1329 = uint32x16_t_ops::broadcast(_1328);
      int32x16_t  const _1330 = int32x16_t_ops::ramp(_1325, _attn_q_step);
      int32_t  const _1331 = _100 + _masked_s0_j_rebased;
      int32x16_t  const _1332 = int32x16_t_ops::broadcast(_1331);
      uint8x16_t  const _1333 = int32x16_t_ops::lt(_1330, _1332);
      uint32x16_t  const _1334 = uint32x16_t_ops::select(_1333, _1327, _1329);
      int64_t  const _1335 = (int64_t)(_masked_s0_j_rebased);
      int64_t  const _1336 = _1335 * int64_t(32);
      float16  const _1337 = float16_ops::load(_scores, _1336);
      int64_t  const _1338 = _1335 * int64_t(8);
      float8  const _1339 = float8_ops::load(_dec_scores, _1338);
      float16  const _1340 = float16_ops::shuffle<0, 1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7>(_1339);
      float16  const _1341 = (float16)(_1318 ? _1337 : _1340);
      uint32x16_t  const _1342 = reinterpret<uint32x16_t>(_1341);
      uint32x16_t  const _1343 = _1342 & _1334;
      uint32_t  const _1344 = (uint32_t)(4286578688ull);
      uint32x16_t  const _1345 = uint32x16_t_ops::broadcast(_1344);
      uint32x16_t  const _1346 = ~_1334;
      uint32x16_t  const _1347 = _1345 & _1346;
      uint32x16_t  const _1348 = _1343 | _1347;
      float16  const _1349 = reinterpret<float16>(_1348);
      float16_ops::store(_1349, _masked, _1336);
      uint32_t  const _1350 = (uint32_t)(0ull);
      uint32x16_t  const _1351 = uint32x16_t_ops::broadcast(_1350);
      uint32_t  const _1352 = (uint32_t)(4294967295ull);
      uint32x16_t  const _1353 = uint32x16_t_ops::broadcast(_1352);
      int32x16_t  const _1354 = int32x16_t_ops::ramp(_1323, _attn_q_step);
      int32_t  const _1355 = _100 + _masked_s0_j_rebased;
      int32x16_t  const _1356 = int32x16_t_ops::broadcast(_1355);
      uint8x16_t  const _1357 = int32x16_t_ops::lt(_1354, _1356);
      uint32x16_t  const _1358 = uint32x16_t_ops::select(_1357, _1351, _1353);
      int64_t  const _1359 = (int64_t)(_masked_s0_j_rebased);
      int64_t  const _1360 = _1359 * int64_t(32);
      int64_t  const _1361 = _1360 + int64_t(16);
      float16  const _1362 = float16_ops::load(_scores, _1361);
      int64_t  const _1363 = _1359 * int64_t(8);
      int64_t  const _1364 = _1363 + int64_t(7);
      float  const _1365 = _dec_scores[_1364];
      float16  const _1366 = float16_ops::broadcast(_1365);
      float16  const _1367 = (float16)(_1318 ? _1362 : _1366);
      uint32x16_t  const _1368 = reinterpret<uint32x16_t>(_1367);
      uint32x16_t  const _1369 = _1368 & _1358;
      uint32_t  const _1370 = (uint32_t)(4286578688ull);
      uint32x16_t  const _1371 = uint32x16_t_ops::broadcast(_1370);
      uint32x16_t  const _1372 = ~_1358;
      uint32x16_t  const _1373 = _1371 & _1372;
      uint32x16_t  const _1374 = _1369 | _1373;
      float16  const _1375 = reinterpret<float16>(_1374);
      float16_ops::store(_1375, _masked, _1361);
     } // for _masked_s0_j_rebased
     _dec_scores_free.free();
     _scores_free.free();
     {
      float _row_max[32];
      int32_t  const _1376 = ::halide_cpp_max(_84, 0);
      int32_t  const _1377 = _87 - _1376;
      // produce row_max
      for (int _row_max_s0_ii_ii = 0; _row_max_s0_ii_ii < 0 + 2; _row_max_s0_ii_ii++)
      {
       float16  const _1378 = float16_ops::broadcast(neg_inf_f32());
       int64_t  const _1379 = (int64_t)(_row_max_s0_ii_ii);
       int64_t  const _1380 = _1379 * int64_t(16);
       float16_ops::store(_1378, _row_max, _1380);
      } // for _row_max_s0_ii_ii
      // consume masked
      int32_t  const _1381 = ::halide_cpp_max(_84, 0);
      int32_t  const _1382 = _1381 - _100;
      for (int _row_max_s1_rk__x_rebased = 0; _row_max_s1_rk__x_rebased < 0 + _1377; _row_max_s1_rk__x_rebased++)
      {
       float16  const _1383 = float16_ops::load(_row_max, int64_t(0));
       int64_t  const _1384 = (int64_t)(_row_max_s1_rk__x_rebased);
       int64_t  const _1385 = (int64_t)(_1382);
       int64_t  const _1386 = _1384 + _1385;
       int64_t  const _1387 = _1386 * int64_t(32);
       float16  const _1388 = float16_ops::load(_masked, _1387);
       float16  const _1389 = float16_ops::max(_1383, _1388);
       float16_ops::store(_1389, _row_max, int64_t(0));
       float16  const _1390 = float16_ops::load(_row_max, int64_t(16));
       int64_t  const _1391 = (int64_t)(_row_max_s1_rk__x_rebased);
       int64_t  const _1392 = (int64_t)(_1382);
       int64_t  const _1393 = _1391 + _1392;
       int64_t  const _1394 = _1393 * int64_t(32);
       int64_t  const _1395 = _1394 + int64_t(16);
       float16  const _1396 = float16_ops::load(_masked, _1395);
       float16  const _1397 = float16_ops::max(_1390, _1396);
       float16_ops::store(_1397, _row_max, int64_t(16));
      } // for _row_max_s1_rk__x_rebased
      int32_t  const _1398 = ::halide_cpp_max(_84, 0);
      int32_t  const _1399 = ::halide_cpp_min(_attn_kv_hi, _attn_lk);
      int32_t  const _1400 = _1399 + 7;
      int32_t  const _1401 = _1400 >> 3;
      int32_t  const _1402 = _attn_lq + -1;
      int32_t  const _1403 = _1402 >> 5;
      int32_t  const _1404 = _attn_q_step * 31;
      int32_t  const _1405 = _1404 + _attn_q0;
      int32_t  const _1406 = _1405 >> 5;
      int32_t  const _1407 = _1406 + _attn_tile;
      int32_t  const _1408 = ::halide_cpp_min(_1403, _1407);
      int32_t  const _1409 = _attn_q0 >> 5;
      int32_t  const _1410 = _1409 + _attn_tile;
      int32_t  const _1411 = ::halide_cpp_max(_1408, _1410);
      int32_t  const _1412 = _1411 * 4;
      int32_t  const _1413 = _1412 + 4;
      int32_t  const _1414 = ::halide_cpp_min(_1401, _1413);
      int32_t  const _1415 = _1414 * 8;
      int32_t  const _1416 = ::halide_cpp_min(_1415, _attn_lk);
      int32_t  const _1417 = _attn_chunk_lo >> 3;
      int32_t  const _1418 = _1417 * 8;
      int32_t  const _1419 = ::halide_cpp_min(_1416, _1418);
      int32_t  const _1420 = _attn_kv_lo >> 3;
      int32_t  const _1421 = ::halide_cpp_max(_1420, 0);
      int32_t  const _1422 = _1421 * 8;
      int32_t  const _1423 = ::halide_cpp_min(_1422, _attn_lk);
      int32_t  const _1424 = ::halide_cpp_max(_1419, _1423);
      int32_t  const _1425 = ::halide_cpp_min(_1424, _92);
      int32_t  const _1426 = ::halide_cpp_min(_1398, _1425);
      int32_t  const _1427 = ::halide_cpp_min(_1426, _98);
      int32_t  const _1428 = ::halide_cpp_min(_88, 1024);
      int32_t  const _1429 = _1428 >> 6;
      int32_t  const _1430 = _1429 * 64;
      int32_t  const _1431 = _1430 + _1424;
      int32_t  const _1432 = ::halide_cpp_max(_1431, _87);
      int32_t  const _1433 = ::halide_cpp_max(_1432, _96);
      int32_t  const _1434 = ::halide_cpp_min(_92, _1424);
      int32_t  const _1435 = ::halide_cpp_min(_1398, _1434);
      int32_t  const _1436 = ::halide_cpp_min(_1435, _98);
      int32_t  const _1437 = _1433 - _1436;
      {
       int64_t  const _1438 = _1437;
       int64_t  const _1439 = _1438 * 32;
       if ((_1439 > ((int64_t(1) << 31) - 1)) || ((_1439 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
       {
        attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation probs\n");
        return -1;
       } // overflow test probs
       int64_t  const _1440 = _1439;
       float *_probs = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_1440);
       if (!_probs)
       {
        int32_t  const _1441 = attn_causal64_rt_error_out_of_memory(_ucon);
        return _1441;
       }
       HalideFreeHelper _probs_free(_ucon, _probs, attn_causal64_rt_free);
       // produce probs
       // consume row_max
       // consume masked
       int32_t  const _1442 = _98 - _1427;
       int32_t  const _1443 = _98 - _100;
       int32_t  const _1444 = _96 - _98;
       for (int _probs_s0_j_rebased = 0; _probs_s0_j_rebased < 0 + _1444; _probs_s0_j_rebased++)
       {
        float16  const _1445 = float16_ops::load(_row_max, int64_t(0));
        int64_t  const _1446 = (int64_t)(_probs_s0_j_rebased);
        int64_t  const _1447 = (int64_t)(_1443);
        int64_t  const _1448 = _1446 + _1447;
        int64_t  const _1449 = _1448 * int64_t(32);
        float16  const _1450 = float16_ops::load(_masked, _1449);
        float  const _1451 = float_from_bits(0 /* 0 */);
        float16  const _1452 = float16_ops::broadcast(_1451);
        float16  const _1453 = float16_ops::broadcast(neg_inf_f32());
        uint8x16_t  const _1454 = float16_ops::eq(_1445, _1453);
        float16  const _1455 = float16_ops::select(_1454, _1452, _1445);
        float16  const _1456 = _1450 - _1455;
        float16  const _1457 = float16_ops::min(_1456, _1452);
        float  const _1458 = float_from_bits(3271426048 /* -127 */);
        float16  const _1459 = float16_ops::broadcast(_1458);
        float16  const _1460 = float16_ops::max(_1457, _1459);
        float  const _1461 = float_from_bits(1124007936 /* 127.5 */);
        float16  const _1462 = float16_ops::broadcast(_1461);
        float16  const _1463 = _1460 + _1462;
        int32x16_t  const _1464 = int32x16_t_ops::convert_from<float16>(_1463);
        int32x16_t  const _1465 = int32x16_t_ops::broadcast(-127);
        int32x16_t  const _1466 = _1464 + _1465;
        float16  const _1467 = float16_ops::convert_from<int32x16_t>(_1466);
        float16  const _1468 = _1460 - _1467;
        uint32_t  const _1469 = (uint32_t)(23ull);
        uint32x16_t  const _1470 = uint32x16_t_ops::broadcast(_1469);
        int32x16_t  const _1471 = _1464 << _1470;
        float16  const _1472 = reinterpret<float16>(_1471);
        float  const _1473 = float_from_bits(958452607 /* 0.000153376 */);
        float16  const _1474 = float16_ops::broadcast(_1473);
        float16  const _1475 = _1468 * _1474;
        float  const _1476 = float_from_bits(984588920 /* 0.00133999 */);
        float16  const _1477 = float16_ops::broadcast(_1476);
        float16  const _1478 = _1475 + _1477;
        float16  const _1479 = _1478 * _1468;
        float  const _1480 = float_from_bits(1008572159 /* 0.00961852 */);
        float16  const _1481 = float16_ops::broadcast(_1480);
        float16  const _1482 = _1479 + _1481;
        float16  const _1483 = _1482 * _1468;
        float  const _1484 = float_from_bits(1029920619 /* 0.0555033 */);
        float16  const _1485 = float16_ops::broadcast(_1484);
        float16  const _1486 = _1483 + _1485;
        float16  const _1487 = _1486 * _1468;
        float  const _1488 = float_from_bits(1047920109 /* 0.240226 */);
        float16  const _1489 = float16_ops::broadcast(_1488);
        float16  const _1490 = _1487 + _1489;
        float16  const _1491 = _1490 * _1468;
        float  const _1492 = float_from_bits(1060205080 /* 0.693147 */);
        float16  const _1493 = float16_ops::broadcast(_1492);
        float16  const _1494 = _1491 + _1493;
        float16  const _1495 = _1494 * _1468;
        float  const _1496 = float_from_bits(1065353216 /* 1 */);
        float16  const _1497 = float16_ops::broadcast(_1496);
        float16  const _1498 = _1495 + _1497;
        float16  const _1499 = _1472 * _1498;
        int32x16_t  const _1500 = reinterpret<int32x16_t>(_1499);
        int32x16_t  const _1501 = int32x16_t_ops::broadcast(-1);
        int32x16_t  const _1502 = int32x16_t_ops::broadcast(0);
        int32x16_t  const _1503 = int32x16_t_ops::broadcast(2139095040);
        int32x16_t  const _1504 = reinterpret<int32x16_t>(_1456);
        int32x16_t  const _1505 = int32x16_t_ops::broadcast(2147483647);
        int32x16_t  const _1506 = _1504 & _1505;
        uint8x16_t  const _1507 = int32x16_t_ops::lt(_1503, _1506);
        int32x16_t  const _1508 = int32x16_t_ops::select(_1507, _1501, _1502);
        int32x16_t  const _1509 = int32x16_t_ops::broadcast(2143289344);
        int32x16_t  const _1510 = _1508 & _1509;
        int32x16_t  const _1511 = _1500 | _1510;
        float16  const _1512 = reinterpret<float16>(_1511);
        int64_t  const _1513 = (int64_t)(_1442);
        int64_t  const _1514 = _1446 + _1513;
        int64_t  const _1515 = _1514 * int64_t(32);
        float16_ops::store(_1512, _probs, _1515);
        float16  const _1516 = float16_ops::load(_row_max, int64_t(16));
        int64_t  const _1517 = (int64_t)(_probs_s0_j_rebased);
        int64_t  const _1518 = (int64_t)(_1443);
        int64_t  const _1519 = _1517 + _1518;
        int64_t  const _1520 = _1519 * int64_t(32);
        int64_t  const _1521 = _1520 + int64_t(16);
        float16  const _1522 = float16_ops::load(_masked, _1521);
        float  const _1523 = float_from_bits(0 /* 0 */);
        float16  const _1524 = float16_ops::broadcast(_1523);
        float16  const _1525 = float16_ops::broadcast(neg_inf_f32());
        uint8x16_t  const _1526 = float16_ops::eq(_1516, _1525);
        float16  const _1527 = float16_ops::select(_1526, _1524, _1516);
        float16  const _1528 = _1522 - _1527;
        float16  const _1529 = float16_ops::min(_1528, _1524);
        float  const _1530 = float_from_bits(3271426048 /* -127 */);
        float16  const _1531 = float16_ops::broadcast(_1530);
        float16  const _1532 = float16_ops::max(_1529, _1531);
        float  const _1533 = float_from_bits(1124007936 /* 127.5 */);
        float16  const _1534 = float16_ops::broadcast(_1533);
        float16  const _1535 = _1532 + _1534;
        int32x16_t  const _1536 = int32x16_t_ops::convert_from<float16>(_1535);
        int32x16_t  const _1537 = int32x16_t_ops::broadcast(-127);
        int32x16_t  const _1538 = _1536 + _1537;
        float16  const _1539 = float16_ops::convert_from<int32x16_t>(_1538);
        float16  const _1540 = _1532 - _1539;
        uint32_t  const _1541 = (uint32_t)(23ull);
        uint32x16_t  const _1542 = uint32x16_t_ops::broadcast(_1541);
        int32x16_t  const _1543 = _1536 << _1542;
        float16  const _1544 = reinterpret<float16>(_1543);
        float  const _1545 = float_from_bits(958452607 /* 0.000153376 */);
        float16  const _1546 = float16_ops::broadcast(_1545);
        float16  const _1547 = _1540 * _1546;
        float  const _1548 = float_from_bits(984588920 /* 0.00133999 */);
        float16  const _1549 = float16_ops::broadcast(_1548);
        float16  const _1550 = _1547 + _1549;
        float16  const _1551 = _1550 * _1540;
        float  const _1552 = float_from_bits(1008572159 /* 0.00961852 */);
        float16  const _1553 = float16_ops::broadcast(_1552);
        float16  const _1554 = _1551 + _1553;
        float16  const _1555 = _1554 * _1540;
        float  const _1556 = float_from_bits(1029920619 /* 0.0555033 */);
        float16  const _1557 = float16_ops::broadcast(_1556);
        float16  const _1558 = _1555 + _1557;
        float16  const _1559 = _1558 * _1540;
        float  const _1560 = float_from_bits(1047920109 /* 0.240226 */);
        float16  const _1561 = float16_ops::broadcast(_1560);
        float16  const _1562 = _1559 + _1561;
        float16  const _1563 = _1562 * _1540;
        float  const _1564 = float_from_bits(1060205080 /* 0.693147 */);
        float16  const _1565 = float16_ops::broadcast(_1564);
        float16  const _1566 = _1563 + _1565;
        float16  const _1567 = _1566 * _1540;
        float  const _1568 = float_from_bits(1065353216 /* 1 */);
        float16  const _1569 = float16_ops::broadcast(_1568);
        float16  const _1570 = _1567 + _1569;
        float16  const _1571 = _1544 * _1570;
        int32x16_t  const _1572 = reinterpret<int32x16_t>(_1571);
        int32x16_t  const _1573 = int32x16_t_ops::broadcast(-1);
        int32x16_t  const _1574 = int32x16_t_ops::broadcast(0);
        int32x16_t  const _1575 = int32x16_t_ops::broadcast(2139095040);
        int32x16_t  const _1576 = reinterpret<int32x16_t>(_1528);
        int32x16_t  const _1577 = int32x16_t_ops::broadcast(2147483647);
        int32x16_t  const _1578 = _1576 & _1577;
        uint8x16_t  const _1579 = int32x16_t_ops::lt(_1575, _1578);
        int32x16_t  const _1580 = int32x16_t_ops::select(_1579, _1573, _1574);
        int32x16_t  const _1581 = int32x16_t_ops::broadcast(2143289344);
        int32x16_t  const _1582 = _1580 & _1581;
        int32x16_t  const _1583 = _1572 | _1582;
        float16  const _1584 = reinterpret<float16>(_1583);
        int64_t  const _1585 = (int64_t)(_1442);
        int64_t  const _1586 = _1517 + _1585;
        int64_t  const _1587 = _1586 * int64_t(32);
        int64_t  const _1588 = _1587 + int64_t(16);
        float16_ops::store(_1584, _probs, _1588);
       } // for _probs_s0_j_rebased
       _masked_free.free();
       {
        int64_t  const _1589 = 64;
        int32_t  const _1590 = _attn_rows + 3;
        int32_t  const _1591 = _1590 >> 2;
        int32_t  const _1592 = _1591 * 4;
        int64_t  const _1593 = _1589 * _1592;
        if ((_1593 > ((int64_t(1) << 31) - 1)) || ((_1593 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
        {
         attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation pv_blocks\n");
         return -1;
        } // overflow test pv_blocks
        int64_t  const _1594 = _1593;
        float *_pv_blocks = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_1594);
        if (!_pv_blocks)
        {
         int32_t  const _1595 = attn_causal64_rt_error_out_of_memory(_ucon);
         return _1595;
        }
        HalideFreeHelper _pv_blocks_free(_ucon, _pv_blocks, attn_causal64_rt_free);
        // produce pv_blocks
        int32_t  const _1596 = _attn_rows + 3;
        int32_t  const _1597 = _1596 >> 2;
        int32_t  const _1598 = _1597 * 4;
        for (int _pv_blocks_s0_ii = 0; _pv_blocks_s0_ii < 0 + _1598; _pv_blocks_s0_ii++)
        {
         int32_t  const _1599 = _pv_blocks_s0_ii * 4;
         for (int _pv_blocks_s0_c_c = 0; _pv_blocks_s0_c_c < 0 + 4; _pv_blocks_s0_c_c++)
         {
          float  const _1600 = float_from_bits(0 /* 0 */);
          float16  const _1601 = float16_ops::broadcast(_1600);
          int64_t  const _1602 = (int64_t)(_pv_blocks_s0_c_c);
          int64_t  const _1603 = (int64_t)(_1599);
          int64_t  const _1604 = _1602 + _1603;
          int64_t  const _1605 = _1604 * int64_t(16);
          float16_ops::store(_1601, _pv_blocks, _1605);
         } // for _pv_blocks_s0_c_c
        } // for _pv_blocks_s0_ii
        // consume probs
        int32_t  const _1606 = ::halide_cpp_min(_attn_kv_hi, _attn_lk);
        int32_t  const _1607 = _1606 + 7;
        int32_t  const _1608 = _1607 >> 3;
        int32_t  const _1609 = _attn_lq + -1;
        int32_t  const _1610 = _1609 >> 5;
        int32_t  const _1611 = _attn_q_step * 31;
        int32_t  const _1612 = _1611 + _attn_q0;
        int32_t  const _1613 = _1612 >> 5;
        int32_t  const _1614 = _1613 + _attn_tile;
        int32_t  const _1615 = ::halide_cpp_min(_1610, _1614);
        int32_t  const _1616 = _attn_q0 >> 5;
        int32_t  const _1617 = _1616 + _attn_tile;
        int32_t  const _1618 = ::halide_cpp_max(_1615, _1617);
        int32_t  const _1619 = _1618 * 4;
        int32_t  const _1620 = _1619 + 4;
        int32_t  const _1621 = ::halide_cpp_min(_1608, _1620);
        int32_t  const _1622 = _1621 * 8;
        int32_t  const _1623 = ::halide_cpp_min(_1622, _attn_lk);
        int32_t  const _1624 = _attn_chunk_lo >> 3;
        int32_t  const _1625 = _1624 * 8;
        int32_t  const _1626 = ::halide_cpp_min(_1623, _1625);
        int32_t  const _1627 = _attn_kv_lo >> 3;
        int32_t  const _1628 = ::halide_cpp_max(_1627, 0);
        int32_t  const _1629 = _1628 * 8;
        int32_t  const _1630 = ::halide_cpp_min(_1629, _attn_lk);
        int32_t  const _1631 = ::halide_cpp_max(_1626, _1630);
        int32_t  const _1632 = ::halide_cpp_min(_88, 1024);
        int32_t  const _1633 = _1632 >> 6;
        int32_t  const _1634 = _attn_rows + 3;
        int32_t  const _1635 = _1634 >> 2;
        for (int _pv_blocks_s1_rkb__x = 0; _pv_blocks_s1_rkb__x < 0 + _1633; _pv_blocks_s1_rkb__x++)
        {
         int32_t  const _1636 = _pv_blocks_s1_rkb__x * 64;
         int32_t  const _1637 = _1636 + _1631;
         for (int _pv_blocks_s1_ii_ig = 0; _pv_blocks_s1_ii_ig < 0 + _1635; _pv_blocks_s1_ii_ig++)
         {
          {
           float _pv_block[256];
           // produce pv_block
           float  const _1638 = float_from_bits(0 /* 0 */);
           float16  const _1639 = float16_ops::broadcast(_1638);
           float16_ops::store(_1639, _pv_block, int64_t(0));
           float  const _1640 = float_from_bits(0 /* 0 */);
           float16  const _1641 = float16_ops::broadcast(_1640);
           float16_ops::store(_1641, _pv_block, int64_t(16));
           float  const _1642 = float_from_bits(0 /* 0 */);
           float16  const _1643 = float16_ops::broadcast(_1642);
           float16_ops::store(_1643, _pv_block, int64_t(32));
           float  const _1644 = float_from_bits(0 /* 0 */);
           float16  const _1645 = float16_ops::broadcast(_1644);
           float16_ops::store(_1645, _pv_block, int64_t(48));
           float  const _1646 = float_from_bits(0 /* 0 */);
           float16  const _1647 = float16_ops::broadcast(_1646);
           float16_ops::store(_1647, _pv_block, int64_t(64));
           float  const _1648 = float_from_bits(0 /* 0 */);
           float16  const _1649 = float16_ops::broadcast(_1648);
           float16_ops::store(_1649, _pv_block, int64_t(80));
           float  const _1650 = float_from_bits(0 /* 0 */);
           float16  const _1651 = float16_ops::broadcast(_1650);
           float16_ops::store(_1651, _pv_block, int64_t(96));
           float  const _1652 = float_from_bits(0 /* 0 */);
           float16  const _1653 = float16_ops::broadcast(_1652);
           float16_ops::store(_1653, _pv_block, int64_t(112));
           float  const _1654 = float_from_bits(0 /* 0 */);
           float16  const _1655 = float16_ops::broadcast(_1654);
           float16_ops::store(_1655, _pv_block, int64_t(128));
           float  const _1656 = float_from_bits(0 /* 0 */);
           float16  const _1657 = float16_ops::broadcast(_1656);
           float16_ops::store(_1657, _pv_block, int64_t(144));
           float  const _1658 = float_from_bits(0 /* 0 */);
           float16  const _1659 = float16_ops::broadcast(_1658);
           float16_ops::store(_1659, _pv_block, int64_t(160));
           float  const _1660 = float_from_bits(0 /* 0 */);
           float16  const _1661 = float16_ops::broadcast(_1660);
           float16_ops::store(_1661, _pv_block, int64_t(176));
           float  const _1662 = float_from_bits(0 /* 0 */);
           float16  const _1663 = float16_ops::broadcast(_1662);
           float16_ops::store(_1663, _pv_block, int64_t(192));
           float  const _1664 = float_from_bits(0 /* 0 */);
           float16  const _1665 = float16_ops::broadcast(_1664);
           float16_ops::store(_1665, _pv_block, int64_t(208));
           float  const _1666 = float_from_bits(0 /* 0 */);
           float16  const _1667 = float16_ops::broadcast(_1666);
           float16_ops::store(_1667, _pv_block, int64_t(224));
           float  const _1668 = float_from_bits(0 /* 0 */);
           float16  const _1669 = float16_ops::broadcast(_1668);
           float16_ops::store(_1669, _pv_block, int64_t(240));
           int32_t  const _1670 = _1637 - _1427;
           for (int _pv_block_s1_rki__x = 0; _pv_block_s1_rki__x < 0 + 64; _pv_block_s1_rki__x++)
           {
            float16  const _1671 = float16_ops::load(_pv_block, int64_t(0));
            int64_t  const _1672 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _1673 = (int64_t)(_1637);
            int64_t  const _1674 = _1672 + _1673;
            int64_t  const _1675 = _1674 * int64_t(64);
            float16  const _1676 = float16_ops::load(_attn_v, _1675);
            int64_t  const _1677 = (int64_t)(_1670);
            int64_t  const _1678 = _1672 + _1677;
            int64_t  const _1679 = _1678 * int64_t(8);
            int64_t  const _1680 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _1681 = _1679 + _1680;
            int64_t  const _1682 = _1681 * int64_t(4);
            float  const _1683 = _probs[_1682];
            float16  const _1684 = float16_ops::broadcast(_1683);
            float16  const _1685 = _1676 * _1684;
            float16  const _1686 = _1671 + _1685;
            float16_ops::store(_1686, _pv_block, int64_t(0));
            float16  const _1687 = float16_ops::load(_pv_block, int64_t(16));
            int64_t  const _1688 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _1689 = (int64_t)(_1637);
            int64_t  const _1690 = _1688 + _1689;
            int64_t  const _1691 = _1690 * int64_t(64);
            int64_t  const _1692 = _1691 + int64_t(16);
            float16  const _1693 = float16_ops::load(_attn_v, _1692);
            int64_t  const _1694 = (int64_t)(_1670);
            int64_t  const _1695 = _1688 + _1694;
            int64_t  const _1696 = _1695 * int64_t(8);
            int64_t  const _1697 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _1698 = _1696 + _1697;
            int64_t  const _1699 = _1698 * int64_t(4);
            float  const _1700 = _probs[_1699];
            float16  const _1701 = float16_ops::broadcast(_1700);
            float16  const _1702 = _1693 * _1701;
            float16  const _1703 = _1687 + _1702;
            float16_ops::store(_1703, _pv_block, int64_t(16));
            float16  const _1704 = float16_ops::load(_pv_block, int64_t(32));
            int64_t  const _1705 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _1706 = (int64_t)(_1637);
            int64_t  const _1707 = _1705 + _1706;
            int64_t  const _1708 = _1707 * int64_t(64);
            int64_t  const _1709 = _1708 + int64_t(32);
            float16  const _1710 = float16_ops::load(_attn_v, _1709);
            int64_t  const _1711 = (int64_t)(_1670);
            int64_t  const _1712 = _1705 + _1711;
            int64_t  const _1713 = _1712 * int64_t(8);
            int64_t  const _1714 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _1715 = _1713 + _1714;
            int64_t  const _1716 = _1715 * int64_t(4);
            float  const _1717 = _probs[_1716];
            float16  const _1718 = float16_ops::broadcast(_1717);
            float16  const _1719 = _1710 * _1718;
            float16  const _1720 = _1704 + _1719;
            float16_ops::store(_1720, _pv_block, int64_t(32));
            float16  const _1721 = float16_ops::load(_pv_block, int64_t(48));
            int64_t  const _1722 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _1723 = (int64_t)(_1637);
            int64_t  const _1724 = _1722 + _1723;
            int64_t  const _1725 = _1724 * int64_t(64);
            int64_t  const _1726 = _1725 + int64_t(48);
            float16  const _1727 = float16_ops::load(_attn_v, _1726);
            int64_t  const _1728 = (int64_t)(_1670);
            int64_t  const _1729 = _1722 + _1728;
            int64_t  const _1730 = _1729 * int64_t(8);
            int64_t  const _1731 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _1732 = _1730 + _1731;
            int64_t  const _1733 = _1732 * int64_t(4);
            float  const _1734 = _probs[_1733];
            float16  const _1735 = float16_ops::broadcast(_1734);
            float16  const _1736 = _1727 * _1735;
            float16  const _1737 = _1721 + _1736;
            float16_ops::store(_1737, _pv_block, int64_t(48));
            float16  const _1738 = float16_ops::load(_pv_block, int64_t(64));
            int64_t  const _1739 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _1740 = (int64_t)(_1637);
            int64_t  const _1741 = _1739 + _1740;
            int64_t  const _1742 = _1741 * int64_t(64);
            float16  const _1743 = float16_ops::load(_attn_v, _1742);
            int64_t  const _1744 = (int64_t)(_1670);
            int64_t  const _1745 = _1739 + _1744;
            int64_t  const _1746 = _1745 * int64_t(8);
            int64_t  const _1747 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _1748 = _1746 + _1747;
            int64_t  const _1749 = _1748 * int64_t(4);
            int64_t  const _1750 = _1749 + int64_t(1);
            float  const _1751 = _probs[_1750];
            float16  const _1752 = float16_ops::broadcast(_1751);
            float16  const _1753 = _1743 * _1752;
            float16  const _1754 = _1738 + _1753;
            float16_ops::store(_1754, _pv_block, int64_t(64));
            float16  const _1755 = float16_ops::load(_pv_block, int64_t(80));
            int64_t  const _1756 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _1757 = (int64_t)(_1637);
            int64_t  const _1758 = _1756 + _1757;
            int64_t  const _1759 = _1758 * int64_t(64);
            int64_t  const _1760 = _1759 + int64_t(16);
            float16  const _1761 = float16_ops::load(_attn_v, _1760);
            int64_t  const _1762 = (int64_t)(_1670);
            int64_t  const _1763 = _1756 + _1762;
            int64_t  const _1764 = _1763 * int64_t(8);
            int64_t  const _1765 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _1766 = _1764 + _1765;
            int64_t  const _1767 = _1766 * int64_t(4);
            int64_t  const _1768 = _1767 + int64_t(1);
            float  const _1769 = _probs[_1768];
            float16  const _1770 = float16_ops::broadcast(_1769);
            float16  const _1771 = _1761 * _1770;
            float16  const _1772 = _1755 + _1771;
            float16_ops::store(_1772, _pv_block, int64_t(80));
            float16  const _1773 = float16_ops::load(_pv_block, int64_t(96));
            int64_t  const _1774 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _1775 = (int64_t)(_1637);
            int64_t  const _1776 = _1774 + _1775;
            int64_t  const _1777 = _1776 * int64_t(64);
            int64_t  const _1778 = _1777 + int64_t(32);
            float16  const _1779 = float16_ops::load(_attn_v, _1778);
            int64_t  const _1780 = (int64_t)(_1670);
            int64_t  const _1781 = _1774 + _1780;
            int64_t  const _1782 = _1781 * int64_t(8);
            int64_t  const _1783 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _1784 = _1782 + _1783;
            int64_t  const _1785 = _1784 * int64_t(4);
            int64_t  const _1786 = _1785 + int64_t(1);
            float  const _1787 = _probs[_1786];
            float16  const _1788 = float16_ops::broadcast(_1787);
            float16  const _1789 = _1779 * _1788;
            float16  const _1790 = _1773 + _1789;
            float16_ops::store(_1790, _pv_block, int64_t(96));
            float16  const _1791 = float16_ops::load(_pv_block, int64_t(112));
            int64_t  const _1792 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _1793 = (int64_t)(_1637);
            int64_t  const _1794 = _1792 + _1793;
            int64_t  const _1795 = _1794 * int64_t(64);
            int64_t  const _1796 = _1795 + int64_t(48);
            float16  const _1797 = float16_ops::load(_attn_v, _1796);
            int64_t  const _1798 = (int64_t)(_1670);
            int64_t  const _1799 = _1792 + _1798;
            int64_t  const _1800 = _1799 * int64_t(8);
            int64_t  const _1801 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _1802 = _1800 + _1801;
            int64_t  const _1803 = _1802 * int64_t(4);
            int64_t  const _1804 = _1803 + int64_t(1);
            float  const _1805 = _probs[_1804];
            float16  const _1806 = float16_ops::broadcast(_1805);
            float16  const _1807 = _1797 * _1806;
            float16  const _1808 = _1791 + _1807;
            float16_ops::store(_1808, _pv_block, int64_t(112));
            float16  const _1809 = float16_ops::load(_pv_block, int64_t(128));
            int64_t  const _1810 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _1811 = (int64_t)(_1637);
            int64_t  const _1812 = _1810 + _1811;
            int64_t  const _1813 = _1812 * int64_t(64);
            float16  const _1814 = float16_ops::load(_attn_v, _1813);
            int64_t  const _1815 = (int64_t)(_1670);
            int64_t  const _1816 = _1810 + _1815;
            int64_t  const _1817 = _1816 * int64_t(8);
            int64_t  const _1818 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _1819 = _1817 + _1818;
            int64_t  const _1820 = _1819 * int64_t(4);
            int64_t  const _1821 = _1820 + int64_t(2);
            float  const _1822 = _probs[_1821];
            float16  const _1823 = float16_ops::broadcast(_1822);
            float16  const _1824 = _1814 * _1823;
            float16  const _1825 = _1809 + _1824;
            float16_ops::store(_1825, _pv_block, int64_t(128));
            float16  const _1826 = float16_ops::load(_pv_block, int64_t(144));
            int64_t  const _1827 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _1828 = (int64_t)(_1637);
            int64_t  const _1829 = _1827 + _1828;
            int64_t  const _1830 = _1829 * int64_t(64);
            int64_t  const _1831 = _1830 + int64_t(16);
            float16  const _1832 = float16_ops::load(_attn_v, _1831);
            int64_t  const _1833 = (int64_t)(_1670);
            int64_t  const _1834 = _1827 + _1833;
            int64_t  const _1835 = _1834 * int64_t(8);
            int64_t  const _1836 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _1837 = _1835 + _1836;
            int64_t  const _1838 = _1837 * int64_t(4);
            int64_t  const _1839 = _1838 + int64_t(2);
            float  const _1840 = _probs[_1839];
            float16  const _1841 = float16_ops::broadcast(_1840);
            float16  const _1842 = _1832 * _1841;
            float16  const _1843 = _1826 + _1842;
            float16_ops::store(_1843, _pv_block, int64_t(144));
            float16  const _1844 = float16_ops::load(_pv_block, int64_t(160));
            int64_t  const _1845 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _1846 = (int64_t)(_1637);
            int64_t  const _1847 = _1845 + _1846;
            int64_t  const _1848 = _1847 * int64_t(64);
            int64_t  const _1849 = _1848 + int64_t(32);
            float16  const _1850 = float16_ops::load(_attn_v, _1849);
            int64_t  const _1851 = (int64_t)(_1670);
            int64_t  const _1852 = _1845 + _1851;
            int64_t  const _1853 = _1852 * int64_t(8);
            int64_t  const _1854 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _1855 = _1853 + _1854;
            int64_t  const _1856 = _1855 * int64_t(4);
            int64_t  const _1857 = _1856 + int64_t(2);
            float  const _1858 = _probs[_1857];
            float16  const _1859 = float16_ops::broadcast(_1858);
            float16  const _1860 = _1850 * _1859;
            float16  const _1861 = _1844 + _1860;
            float16_ops::store(_1861, _pv_block, int64_t(160));
            float16  const _1862 = float16_ops::load(_pv_block, int64_t(176));
            int64_t  const _1863 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _1864 = (int64_t)(_1637);
            int64_t  const _1865 = _1863 + _1864;
            int64_t  const _1866 = _1865 * int64_t(64);
            int64_t  const _1867 = _1866 + int64_t(48);
            float16  const _1868 = float16_ops::load(_attn_v, _1867);
            int64_t  const _1869 = (int64_t)(_1670);
            int64_t  const _1870 = _1863 + _1869;
            int64_t  const _1871 = _1870 * int64_t(8);
            int64_t  const _1872 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _1873 = _1871 + _1872;
            int64_t  const _1874 = _1873 * int64_t(4);
            int64_t  const _1875 = _1874 + int64_t(2);
            float  const _1876 = _probs[_1875];
            float16  const _1877 = float16_ops::broadcast(_1876);
            float16  const _1878 = _1868 * _1877;
            float16  const _1879 = _1862 + _1878;
            float16_ops::store(_1879, _pv_block, int64_t(176));
            float16  const _1880 = float16_ops::load(_pv_block, int64_t(192));
            int64_t  const _1881 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _1882 = (int64_t)(_1637);
            int64_t  const _1883 = _1881 + _1882;
            int64_t  const _1884 = _1883 * int64_t(64);
            float16  const _1885 = float16_ops::load(_attn_v, _1884);
            int64_t  const _1886 = (int64_t)(_1670);
            int64_t  const _1887 = _1881 + _1886;
            int64_t  const _1888 = _1887 * int64_t(8);
            int64_t  const _1889 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _1890 = _1888 + _1889;
            int64_t  const _1891 = _1890 * int64_t(4);
            int64_t  const _1892 = _1891 + int64_t(3);
            float  const _1893 = _probs[_1892];
            float16  const _1894 = float16_ops::broadcast(_1893);
            float16  const _1895 = _1885 * _1894;
            float16  const _1896 = _1880 + _1895;
            float16_ops::store(_1896, _pv_block, int64_t(192));
            float16  const _1897 = float16_ops::load(_pv_block, int64_t(208));
            int64_t  const _1898 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _1899 = (int64_t)(_1637);
            int64_t  const _1900 = _1898 + _1899;
            int64_t  const _1901 = _1900 * int64_t(64);
            int64_t  const _1902 = _1901 + int64_t(16);
            float16  const _1903 = float16_ops::load(_attn_v, _1902);
            int64_t  const _1904 = (int64_t)(_1670);
            int64_t  const _1905 = _1898 + _1904;
            int64_t  const _1906 = _1905 * int64_t(8);
            int64_t  const _1907 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _1908 = _1906 + _1907;
            int64_t  const _1909 = _1908 * int64_t(4);
            int64_t  const _1910 = _1909 + int64_t(3);
            float  const _1911 = _probs[_1910];
            float16  const _1912 = float16_ops::broadcast(_1911);
            float16  const _1913 = _1903 * _1912;
            float16  const _1914 = _1897 + _1913;
            float16_ops::store(_1914, _pv_block, int64_t(208));
            float16  const _1915 = float16_ops::load(_pv_block, int64_t(224));
            int64_t  const _1916 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _1917 = (int64_t)(_1637);
            int64_t  const _1918 = _1916 + _1917;
            int64_t  const _1919 = _1918 * int64_t(64);
            int64_t  const _1920 = _1919 + int64_t(32);
            float16  const _1921 = float16_ops::load(_attn_v, _1920);
            int64_t  const _1922 = (int64_t)(_1670);
            int64_t  const _1923 = _1916 + _1922;
            int64_t  const _1924 = _1923 * int64_t(8);
            int64_t  const _1925 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _1926 = _1924 + _1925;
            int64_t  const _1927 = _1926 * int64_t(4);
            int64_t  const _1928 = _1927 + int64_t(3);
            float  const _1929 = _probs[_1928];
            float16  const _1930 = float16_ops::broadcast(_1929);
            float16  const _1931 = _1921 * _1930;
            float16  const _1932 = _1915 + _1931;
            float16_ops::store(_1932, _pv_block, int64_t(224));
            float16  const _1933 = float16_ops::load(_pv_block, int64_t(240));
            int64_t  const _1934 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _1935 = (int64_t)(_1637);
            int64_t  const _1936 = _1934 + _1935;
            int64_t  const _1937 = _1936 * int64_t(64);
            int64_t  const _1938 = _1937 + int64_t(48);
            float16  const _1939 = float16_ops::load(_attn_v, _1938);
            int64_t  const _1940 = (int64_t)(_1670);
            int64_t  const _1941 = _1934 + _1940;
            int64_t  const _1942 = _1941 * int64_t(8);
            int64_t  const _1943 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _1944 = _1942 + _1943;
            int64_t  const _1945 = _1944 * int64_t(4);
            int64_t  const _1946 = _1945 + int64_t(3);
            float  const _1947 = _probs[_1946];
            float16  const _1948 = float16_ops::broadcast(_1947);
            float16  const _1949 = _1939 * _1948;
            float16  const _1950 = _1933 + _1949;
            float16_ops::store(_1950, _pv_block, int64_t(240));
           } // for _pv_block_s1_rki__x
           // consume pv_block
           int64_t  const _1951 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1952 = _1951 * int64_t(256);
           float16  const _1953 = float16_ops::load(_pv_blocks, _1952);
           float16  const _1954 = float16_ops::load(_pv_block, int64_t(0));
           float16  const _1955 = _1953 + _1954;
           float16_ops::store(_1955, _pv_blocks, _1952);
           int64_t  const _1956 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1957 = _1956 * int64_t(256);
           int64_t  const _1958 = _1957 + int64_t(16);
           float16  const _1959 = float16_ops::load(_pv_blocks, _1958);
           float16  const _1960 = float16_ops::load(_pv_block, int64_t(16));
           float16  const _1961 = _1959 + _1960;
           float16_ops::store(_1961, _pv_blocks, _1958);
           int64_t  const _1962 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1963 = _1962 * int64_t(256);
           int64_t  const _1964 = _1963 + int64_t(32);
           float16  const _1965 = float16_ops::load(_pv_blocks, _1964);
           float16  const _1966 = float16_ops::load(_pv_block, int64_t(32));
           float16  const _1967 = _1965 + _1966;
           float16_ops::store(_1967, _pv_blocks, _1964);
           int64_t  const _1968 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1969 = _1968 * int64_t(256);
           int64_t  const _1970 = _1969 + int64_t(48);
           float16  const _1971 = float16_ops::load(_pv_blocks, _1970);
           float16  const _1972 = float16_ops::load(_pv_block, int64_t(48));
           float16  const _1973 = _1971 + _1972;
           float16_ops::store(_1973, _pv_blocks, _1970);
           int64_t  const _1974 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1975 = _1974 * int64_t(256);
           int64_t  const _1976 = _1975 + int64_t(64);
           float16  const _1977 = float16_ops::load(_pv_blocks, _1976);
           float16  const _1978 = float16_ops::load(_pv_block, int64_t(64));
           float16  const _1979 = _1977 + _1978;
           float16_ops::store(_1979, _pv_blocks, _1976);
           int64_t  const _1980 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1981 = _1980 * int64_t(256);
           int64_t  const _1982 = _1981 + int64_t(80);
           float16  const _1983 = float16_ops::load(_pv_blocks, _1982);
           float16  const _1984 = float16_ops::load(_pv_block, int64_t(80));
           float16  const _1985 = _1983 + _1984;
           float16_ops::store(_1985, _pv_blocks, _1982);
           int64_t  const _1986 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1987 = _1986 * int64_t(256);
           int64_t  const _1988 = _1987 + int64_t(96);
           float16  const _1989 = float16_ops::load(_pv_blocks, _1988);
           float16  const _1990 = float16_ops::load(_pv_block, int64_t(96));
           float16  const _1991 = _1989 + _1990;
           float16_ops::store(_1991, _pv_blocks, _1988);
           int64_t  const _1992 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1993 = _1992 * int64_t(256);
           int64_t  const _1994 = _1993 + int64_t(112);
           float16  const _1995 = float16_ops::load(_pv_blocks, _1994);
           float16  const _1996 = float16_ops::load(_pv_block, int64_t(112));
           float16  const _1997 = _1995 + _1996;
           float16_ops::store(_1997, _pv_blocks, _1994);
           int64_t  const _1998 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1999 = _1998 * int64_t(256);
           int64_t  const _2000 = _1999 + int64_t(128);
           float16  const _2001 = float16_ops::load(_pv_blocks, _2000);
           float16  const _2002 = float16_ops::load(_pv_block, int64_t(128));
           float16  const _2003 = _2001 + _2002;
           float16_ops::store(_2003, _pv_blocks, _2000);
           int64_t  const _2004 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _2005 = _2004 * int64_t(256);
           int64_t  const _2006 = _2005 + int64_t(144);
           float16  const _2007 = float16_ops::load(_pv_blocks, _2006);
           float16  const _2008 = float16_ops::load(_pv_block, int64_t(144));
           float16  const _2009 = _2007 + _2008;
           float16_ops::store(_2009, _pv_blocks, _2006);
           int64_t  const _2010 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _2011 = _2010 * int64_t(256);
           int64_t  const _2012 = _2011 + int64_t(160);
           float16  const _2013 = float16_ops::load(_pv_blocks, _2012);
           float16  const _2014 = float16_ops::load(_pv_block, int64_t(160));
           float16  const _2015 = _2013 + _2014;
           float16_ops::store(_2015, _pv_blocks, _2012);
           int64_t  const _2016 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _2017 = _2016 * int64_t(256);
           int64_t  const _2018 = _2017 + int64_t(176);
           float16  const _2019 = float16_ops::load(_pv_blocks, _2018);
           float16  const _2020 = float16_ops::load(_pv_block, int64_t(176));
           float16  const _2021 = _2019 + _2020;
           float16_ops::store(_2021, _pv_blocks, _2018);
           int64_t  const _2022 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _2023 = _2022 * int64_t(256);
           int64_t  const _2024 = _2023 + int64_t(192);
           float16  const _2025 = float16_ops::load(_pv_blocks, _2024);
           float16  const _2026 = float16_ops::load(_pv_block, int64_t(192));
           float16  const _2027 = _2025 + _2026;
           float16_ops::store(_2027, _pv_blocks, _2024);
           int64_t  const _2028 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _2029 = _2028 * int64_t(256);
           int64_t  const _2030 = _2029 + int64_t(208);
           float16  const _2031 = float16_ops::load(_pv_blocks, _2030);
           float16  const _2032 = float16_ops::load(_pv_block, int64_t(208));
           float16  const _2033 = _2031 + _2032;
           float16_ops::store(_2033, _pv_blocks, _2030);
           int64_t  const _2034 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _2035 = _2034 * int64_t(256);
           int64_t  const _2036 = _2035 + int64_t(224);
           float16  const _2037 = float16_ops::load(_pv_blocks, _2036);
           float16  const _2038 = float16_ops::load(_pv_block, int64_t(224));
           float16  const _2039 = _2037 + _2038;
           float16_ops::store(_2039, _pv_blocks, _2036);
           int64_t  const _2040 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _2041 = _2040 * int64_t(256);
           int64_t  const _2042 = _2041 + int64_t(240);
           float16  const _2043 = float16_ops::load(_pv_blocks, _2042);
           float16  const _2044 = float16_ops::load(_pv_block, int64_t(240));
           float16  const _2045 = _2043 + _2044;
           float16_ops::store(_2045, _pv_blocks, _2042);
          } // alloc _pv_block
         } // for _pv_blocks_s1_ii_ig
        } // for _pv_blocks_s1_rkb__x
        {
         int64_t  const _2046 = 64;
         int32_t  const _2047 = _attn_rows + 3;
         int32_t  const _2048 = _2047 >> 2;
         int32_t  const _2049 = _2048 * 4;
         int64_t  const _2050 = _2046 * _2049;
         if ((_2050 > ((int64_t(1) << 31) - 1)) || ((_2050 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
         {
          attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation pv\n");
          return -1;
         } // overflow test pv
         int64_t  const _2051 = _2050;
         float *_pv = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_2051);
         if (!_pv)
         {
          int32_t  const _2052 = attn_causal64_rt_error_out_of_memory(_ucon);
          return _2052;
         }
         HalideFreeHelper _pv_free(_ucon, _pv, attn_causal64_rt_free);
         // produce pv
         // consume pv_blocks
         int32_t  const _2053 = _attn_rows + 3;
         int32_t  const _2054 = _2053 >> 2;
         int32_t  const _2055 = _2054 * 4;
         for (int _pv_s0_ii = 0; _pv_s0_ii < 0 + _2055; _pv_s0_ii++)
         {
          int32_t  const _2056 = _pv_s0_ii * 4;
          for (int _pv_s0_c_c = 0; _pv_s0_c_c < 0 + 4; _pv_s0_c_c++)
          {
           int32_t  const _2057 = _pv_s0_c_c + _2056;
           int64_t  const _2058 = (int64_t)(_2057);
           int64_t  const _2059 = _2058 * int64_t(16);
           float16  const _2060 = float16_ops::load(_pv_blocks, _2059);
           float16_ops::store(_2060, _pv, _2059);
          } // for _pv_s0_c_c
         } // for _pv_s0_ii
         _pv_blocks_free.free();
         // consume probs
         int32_t  const _2061 = _attn_rows + 3;
         int32_t  const _2062 = _2061 >> 2;
         int32_t  const _2063 = _87 - _92;
         int32_t  const _2064 = _92 - _1427;
         for (int _pv_s1_ii_ig = 0; _pv_s1_ii_ig < 0 + _2062; _pv_s1_ii_ig++)
         {
          for (int _pv_s1_rkt__x_rebased = 0; _pv_s1_rkt__x_rebased < 0 + _2063; _pv_s1_rkt__x_rebased++)
          {
           int64_t  const _2065 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2066 = _2065 * int64_t(256);
           float16  const _2067 = float16_ops::load(_pv, _2066);
           int64_t  const _2068 = (int64_t)(_92);
           int64_t  const _2069 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2070 = _2068 + _2069;
           int64_t  const _2071 = _2070 * int64_t(64);
           float16  const _2072 = float16_ops::load(_attn_v, _2071);
           int64_t  const _2073 = (int64_t)(_2064);
           int64_t  const _2074 = _2069 + _2073;
           int64_t  const _2075 = _2074 * int64_t(8);
           int64_t  const _2076 = _2075 + _2065;
           int64_t  const _2077 = _2076 * int64_t(4);
           float  const _2078 = _probs[_2077];
           float16  const _2079 = float16_ops::broadcast(_2078);
           float16  const _2080 = _2072 * _2079;
           float16  const _2081 = _2067 + _2080;
           float16_ops::store(_2081, _pv, _2066);
           int64_t  const _2082 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2083 = _2082 * int64_t(256);
           int64_t  const _2084 = _2083 + int64_t(16);
           float16  const _2085 = float16_ops::load(_pv, _2084);
           int64_t  const _2086 = (int64_t)(_92);
           int64_t  const _2087 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2088 = _2086 + _2087;
           int64_t  const _2089 = _2088 * int64_t(64);
           int64_t  const _2090 = _2089 + int64_t(16);
           float16  const _2091 = float16_ops::load(_attn_v, _2090);
           int64_t  const _2092 = (int64_t)(_2064);
           int64_t  const _2093 = _2087 + _2092;
           int64_t  const _2094 = _2093 * int64_t(8);
           int64_t  const _2095 = _2094 + _2082;
           int64_t  const _2096 = _2095 * int64_t(4);
           float  const _2097 = _probs[_2096];
           float16  const _2098 = float16_ops::broadcast(_2097);
           float16  const _2099 = _2091 * _2098;
           float16  const _2100 = _2085 + _2099;
           float16_ops::store(_2100, _pv, _2084);
           int64_t  const _2101 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2102 = _2101 * int64_t(256);
           int64_t  const _2103 = _2102 + int64_t(32);
           float16  const _2104 = float16_ops::load(_pv, _2103);
           int64_t  const _2105 = (int64_t)(_92);
           int64_t  const _2106 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2107 = _2105 + _2106;
           int64_t  const _2108 = _2107 * int64_t(64);
           int64_t  const _2109 = _2108 + int64_t(32);
           float16  const _2110 = float16_ops::load(_attn_v, _2109);
           int64_t  const _2111 = (int64_t)(_2064);
           int64_t  const _2112 = _2106 + _2111;
           int64_t  const _2113 = _2112 * int64_t(8);
           int64_t  const _2114 = _2113 + _2101;
           int64_t  const _2115 = _2114 * int64_t(4);
           float  const _2116 = _probs[_2115];
           float16  const _2117 = float16_ops::broadcast(_2116);
           float16  const _2118 = _2110 * _2117;
           float16  const _2119 = _2104 + _2118;
           float16_ops::store(_2119, _pv, _2103);
           int64_t  const _2120 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2121 = _2120 * int64_t(256);
           int64_t  const _2122 = _2121 + int64_t(48);
           float16  const _2123 = float16_ops::load(_pv, _2122);
           int64_t  const _2124 = (int64_t)(_92);
           int64_t  const _2125 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2126 = _2124 + _2125;
           int64_t  const _2127 = _2126 * int64_t(64);
           int64_t  const _2128 = _2127 + int64_t(48);
           float16  const _2129 = float16_ops::load(_attn_v, _2128);
           int64_t  const _2130 = (int64_t)(_2064);
           int64_t  const _2131 = _2125 + _2130;
           int64_t  const _2132 = _2131 * int64_t(8);
           int64_t  const _2133 = _2132 + _2120;
           int64_t  const _2134 = _2133 * int64_t(4);
           float  const _2135 = _probs[_2134];
           float16  const _2136 = float16_ops::broadcast(_2135);
           float16  const _2137 = _2129 * _2136;
           float16  const _2138 = _2123 + _2137;
           float16_ops::store(_2138, _pv, _2122);
           int64_t  const _2139 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2140 = _2139 * int64_t(256);
           int64_t  const _2141 = _2140 + int64_t(64);
           float16  const _2142 = float16_ops::load(_pv, _2141);
           int64_t  const _2143 = (int64_t)(_92);
           int64_t  const _2144 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2145 = _2143 + _2144;
           int64_t  const _2146 = _2145 * int64_t(64);
           float16  const _2147 = float16_ops::load(_attn_v, _2146);
           int64_t  const _2148 = (int64_t)(_2064);
           int64_t  const _2149 = _2144 + _2148;
           int64_t  const _2150 = _2149 * int64_t(8);
           int64_t  const _2151 = _2150 + _2139;
           int64_t  const _2152 = _2151 * int64_t(4);
           int64_t  const _2153 = _2152 + int64_t(1);
           float  const _2154 = _probs[_2153];
           float16  const _2155 = float16_ops::broadcast(_2154);
           float16  const _2156 = _2147 * _2155;
           float16  const _2157 = _2142 + _2156;
           float16_ops::store(_2157, _pv, _2141);
           int64_t  const _2158 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2159 = _2158 * int64_t(256);
           int64_t  const _2160 = _2159 + int64_t(80);
           float16  const _2161 = float16_ops::load(_pv, _2160);
           int64_t  const _2162 = (int64_t)(_92);
           int64_t  const _2163 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2164 = _2162 + _2163;
           int64_t  const _2165 = _2164 * int64_t(64);
           int64_t  const _2166 = _2165 + int64_t(16);
           float16  const _2167 = float16_ops::load(_attn_v, _2166);
           int64_t  const _2168 = (int64_t)(_2064);
           int64_t  const _2169 = _2163 + _2168;
           int64_t  const _2170 = _2169 * int64_t(8);
           int64_t  const _2171 = _2170 + _2158;
           int64_t  const _2172 = _2171 * int64_t(4);
           int64_t  const _2173 = _2172 + int64_t(1);
           float  const _2174 = _probs[_2173];
           float16  const _2175 = float16_ops::broadcast(_2174);
           float16  const _2176 = _2167 * _2175;
           float16  const _2177 = _2161 + _2176;
           float16_ops::store(_2177, _pv, _2160);
           int64_t  const _2178 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2179 = _2178 * int64_t(256);
           int64_t  const _2180 = _2179 + int64_t(96);
           float16  const _2181 = float16_ops::load(_pv, _2180);
           int64_t  const _2182 = (int64_t)(_92);
           int64_t  const _2183 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2184 = _2182 + _2183;
           int64_t  const _2185 = _2184 * int64_t(64);
           int64_t  const _2186 = _2185 + int64_t(32);
           float16  const _2187 = float16_ops::load(_attn_v, _2186);
           int64_t  const _2188 = (int64_t)(_2064);
           int64_t  const _2189 = _2183 + _2188;
           int64_t  const _2190 = _2189 * int64_t(8);
           int64_t  const _2191 = _2190 + _2178;
           int64_t  const _2192 = _2191 * int64_t(4);
           int64_t  const _2193 = _2192 + int64_t(1);
           float  const _2194 = _probs[_2193];
           float16  const _2195 = float16_ops::broadcast(_2194);
           float16  const _2196 = _2187 * _2195;
           float16  const _2197 = _2181 + _2196;
           float16_ops::store(_2197, _pv, _2180);
           int64_t  const _2198 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2199 = _2198 * int64_t(256);
           int64_t  const _2200 = _2199 + int64_t(112);
           float16  const _2201 = float16_ops::load(_pv, _2200);
           int64_t  const _2202 = (int64_t)(_92);
           int64_t  const _2203 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2204 = _2202 + _2203;
           int64_t  const _2205 = _2204 * int64_t(64);
           int64_t  const _2206 = _2205 + int64_t(48);
           float16  const _2207 = float16_ops::load(_attn_v, _2206);
           int64_t  const _2208 = (int64_t)(_2064);
           int64_t  const _2209 = _2203 + _2208;
           int64_t  const _2210 = _2209 * int64_t(8);
           int64_t  const _2211 = _2210 + _2198;
           int64_t  const _2212 = _2211 * int64_t(4);
           int64_t  const _2213 = _2212 + int64_t(1);
           float  const _2214 = _probs[_2213];
           float16  const _2215 = float16_ops::broadcast(_2214);
           float16  const _2216 = _2207 * _2215;
           float16  const _2217 = _2201 + _2216;
           float16_ops::store(_2217, _pv, _2200);
           int64_t  const _2218 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2219 = _2218 * int64_t(256);
           int64_t  const _2220 = _2219 + int64_t(128);
           float16  const _2221 = float16_ops::load(_pv, _2220);
           int64_t  const _2222 = (int64_t)(_92);
           int64_t  const _2223 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2224 = _2222 + _2223;
           int64_t  const _2225 = _2224 * int64_t(64);
           float16  const _2226 = float16_ops::load(_attn_v, _2225);
           int64_t  const _2227 = (int64_t)(_2064);
           int64_t  const _2228 = _2223 + _2227;
           int64_t  const _2229 = _2228 * int64_t(8);
           int64_t  const _2230 = _2229 + _2218;
           int64_t  const _2231 = _2230 * int64_t(4);
           int64_t  const _2232 = _2231 + int64_t(2);
           float  const _2233 = _probs[_2232];
           float16  const _2234 = float16_ops::broadcast(_2233);
           float16  const _2235 = _2226 * _2234;
           float16  const _2236 = _2221 + _2235;
           float16_ops::store(_2236, _pv, _2220);
           int64_t  const _2237 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2238 = _2237 * int64_t(256);
           int64_t  const _2239 = _2238 + int64_t(144);
           float16  const _2240 = float16_ops::load(_pv, _2239);
           int64_t  const _2241 = (int64_t)(_92);
           int64_t  const _2242 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2243 = _2241 + _2242;
           int64_t  const _2244 = _2243 * int64_t(64);
           int64_t  const _2245 = _2244 + int64_t(16);
           float16  const _2246 = float16_ops::load(_attn_v, _2245);
           int64_t  const _2247 = (int64_t)(_2064);
           int64_t  const _2248 = _2242 + _2247;
           int64_t  const _2249 = _2248 * int64_t(8);
           int64_t  const _2250 = _2249 + _2237;
           int64_t  const _2251 = _2250 * int64_t(4);
           int64_t  const _2252 = _2251 + int64_t(2);
           float  const _2253 = _probs[_2252];
           float16  const _2254 = float16_ops::broadcast(_2253);
           float16  const _2255 = _2246 * _2254;
           float16  const _2256 = _2240 + _2255;
           float16_ops::store(_2256, _pv, _2239);
           int64_t  const _2257 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2258 = _2257 * int64_t(256);
           int64_t  const _2259 = _2258 + int64_t(160);
           float16  const _2260 = float16_ops::load(_pv, _2259);
           int64_t  const _2261 = (int64_t)(_92);
           int64_t  const _2262 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2263 = _2261 + _2262;
           int64_t  const _2264 = _2263 * int64_t(64);
           int64_t  const _2265 = _2264 + int64_t(32);
           float16  const _2266 = float16_ops::load(_attn_v, _2265);
           int64_t  const _2267 = (int64_t)(_2064);
           int64_t  const _2268 = _2262 + _2267;
           int64_t  const _2269 = _2268 * int64_t(8);
           int64_t  const _2270 = _2269 + _2257;
           int64_t  const _2271 = _2270 * int64_t(4);
           int64_t  const _2272 = _2271 + int64_t(2);
           float  const _2273 = _probs[_2272];
           float16  const _2274 = float16_ops::broadcast(_2273);
           float16  const _2275 = _2266 * _2274;
           float16  const _2276 = _2260 + _2275;
           float16_ops::store(_2276, _pv, _2259);
           int64_t  const _2277 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2278 = _2277 * int64_t(256);
           int64_t  const _2279 = _2278 + int64_t(176);
           float16  const _2280 = float16_ops::load(_pv, _2279);
           int64_t  const _2281 = (int64_t)(_92);
           int64_t  const _2282 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2283 = _2281 + _2282;
           int64_t  const _2284 = _2283 * int64_t(64);
           int64_t  const _2285 = _2284 + int64_t(48);
           float16  const _2286 = float16_ops::load(_attn_v, _2285);
           int64_t  const _2287 = (int64_t)(_2064);
           int64_t  const _2288 = _2282 + _2287;
           int64_t  const _2289 = _2288 * int64_t(8);
           int64_t  const _2290 = _2289 + _2277;
           int64_t  const _2291 = _2290 * int64_t(4);
           int64_t  const _2292 = _2291 + int64_t(2);
           float  const _2293 = _probs[_2292];
           float16  const _2294 = float16_ops::broadcast(_2293);
           float16  const _2295 = _2286 * _2294;
           float16  const _2296 = _2280 + _2295;
           float16_ops::store(_2296, _pv, _2279);
           int64_t  const _2297 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2298 = _2297 * int64_t(256);
           int64_t  const _2299 = _2298 + int64_t(192);
           float16  const _2300 = float16_ops::load(_pv, _2299);
           int64_t  const _2301 = (int64_t)(_92);
           int64_t  const _2302 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2303 = _2301 + _2302;
           int64_t  const _2304 = _2303 * int64_t(64);
           float16  const _2305 = float16_ops::load(_attn_v, _2304);
           int64_t  const _2306 = (int64_t)(_2064);
           int64_t  const _2307 = _2302 + _2306;
           int64_t  const _2308 = _2307 * int64_t(8);
           int64_t  const _2309 = _2308 + _2297;
           int64_t  const _2310 = _2309 * int64_t(4);
           int64_t  const _2311 = _2310 + int64_t(3);
           float  const _2312 = _probs[_2311];
           float16  const _2313 = float16_ops::broadcast(_2312);
           float16  const _2314 = _2305 * _2313;
           float16  const _2315 = _2300 + _2314;
           float16_ops::store(_2315, _pv, _2299);
           int64_t  const _2316 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2317 = _2316 * int64_t(256);
           int64_t  const _2318 = _2317 + int64_t(208);
           float16  const _2319 = float16_ops::load(_pv, _2318);
           int64_t  const _2320 = (int64_t)(_92);
           int64_t  const _2321 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2322 = _2320 + _2321;
           int64_t  const _2323 = _2322 * int64_t(64);
           int64_t  const _2324 = _2323 + int64_t(16);
           float16  const _2325 = float16_ops::load(_attn_v, _2324);
           int64_t  const _2326 = (int64_t)(_2064);
           int64_t  const _2327 = _2321 + _2326;
           int64_t  const _2328 = _2327 * int64_t(8);
           int64_t  const _2329 = _2328 + _2316;
           int64_t  const _2330 = _2329 * int64_t(4);
           int64_t  const _2331 = _2330 + int64_t(3);
           float  const _2332 = _probs[_2331];
           float16  const _2333 = float16_ops::broadcast(_2332);
           float16  const _2334 = _2325 * _2333;
           float16  const _2335 = _2319 + _2334;
           float16_ops::store(_2335, _pv, _2318);
           int64_t  const _2336 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2337 = _2336 * int64_t(256);
           int64_t  const _2338 = _2337 + int64_t(224);
           float16  const _2339 = float16_ops::load(_pv, _2338);
           int64_t  const _2340 = (int64_t)(_92);
           int64_t  const _2341 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2342 = _2340 + _2341;
           int64_t  const _2343 = _2342 * int64_t(64);
           int64_t  const _2344 = _2343 + int64_t(32);
           float16  const _2345 = float16_ops::load(_attn_v, _2344);
           int64_t  const _2346 = (int64_t)(_2064);
           int64_t  const _2347 = _2341 + _2346;
           int64_t  const _2348 = _2347 * int64_t(8);
           int64_t  const _2349 = _2348 + _2336;
           int64_t  const _2350 = _2349 * int64_t(4);
           int64_t  const _2351 = _2350 + int64_t(3);
           float  const _2352 = _probs[_2351];
           float16  const _2353 = float16_ops::broadcast(_2352);
           float16  const _2354 = _2345 * _2353;
           float16  const _2355 = _2339 + _2354;
           float16_ops::store(_2355, _pv, _2338);
           int64_t  const _2356 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2357 = _2356 * int64_t(256);
           int64_t  const _2358 = _2357 + int64_t(240);
           float16  const _2359 = float16_ops::load(_pv, _2358);
           int64_t  const _2360 = (int64_t)(_92);
           int64_t  const _2361 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2362 = _2360 + _2361;
           int64_t  const _2363 = _2362 * int64_t(64);
           int64_t  const _2364 = _2363 + int64_t(48);
           float16  const _2365 = float16_ops::load(_attn_v, _2364);
           int64_t  const _2366 = (int64_t)(_2064);
           int64_t  const _2367 = _2361 + _2366;
           int64_t  const _2368 = _2367 * int64_t(8);
           int64_t  const _2369 = _2368 + _2356;
           int64_t  const _2370 = _2369 * int64_t(4);
           int64_t  const _2371 = _2370 + int64_t(3);
           float  const _2372 = _probs[_2371];
           float16  const _2373 = float16_ops::broadcast(_2372);
           float16  const _2374 = _2365 * _2373;
           float16  const _2375 = _2359 + _2374;
           float16_ops::store(_2375, _pv, _2358);
          } // for _pv_s1_rkt__x_rebased
         } // for _pv_s1_ii_ig
         {
          float _row_sum[32];
          int32_t  const _2376 = ::halide_cpp_max(_84, 0);
          int32_t  const _2377 = _87 - _2376;
          // produce row_sum
          for (int _row_sum_s0_ii_ii = 0; _row_sum_s0_ii_ii < 0 + 2; _row_sum_s0_ii_ii++)
          {
           float  const _2378 = float_from_bits(0 /* 0 */);
           float16  const _2379 = float16_ops::broadcast(_2378);
           int64_t  const _2380 = (int64_t)(_row_sum_s0_ii_ii);
           int64_t  const _2381 = _2380 * int64_t(16);
           float16_ops::store(_2379, _row_sum, _2381);
          } // for _row_sum_s0_ii_ii
          // consume probs
          int32_t  const _2382 = ::halide_cpp_max(_84, 0);
          int32_t  const _2383 = _2382 - _1427;
          for (int _row_sum_s1_rk__x_rebased = 0; _row_sum_s1_rk__x_rebased < 0 + _2377; _row_sum_s1_rk__x_rebased++)
          {
           float16  const _2384 = float16_ops::load(_row_sum, int64_t(0));
           int64_t  const _2385 = (int64_t)(_row_sum_s1_rk__x_rebased);
           int64_t  const _2386 = (int64_t)(_2383);
           int64_t  const _2387 = _2385 + _2386;
           int64_t  const _2388 = _2387 * int64_t(32);
           float16  const _2389 = float16_ops::load(_probs, _2388);
           float16  const _2390 = _2384 + _2389;
           float16_ops::store(_2390, _row_sum, int64_t(0));
           float16  const _2391 = float16_ops::load(_row_sum, int64_t(16));
           int64_t  const _2392 = (int64_t)(_row_sum_s1_rk__x_rebased);
           int64_t  const _2393 = (int64_t)(_2383);
           int64_t  const _2394 = _2392 + _2393;
           int64_t  const _2395 = _2394 * int64_t(32);
           int64_t  const _2396 = _2395 + int64_t(16);
           float16  const _2397 = float16_ops::load(_probs, _2396);
           float16  const _2398 = _2391 + _2397;
           float16_ops::store(_2398, _row_sum, int64_t(16));
          } // for _row_sum_s1_rk__x_rebased
          _probs_free.free();
          {
           float _partial[2560];
           // produce partial
           // consume row_sum
           // consume pv
           // consume row_max
           int32_t  const _2399 = _attn_kv_lo >> 3;
           int32_t  const _2400 = ::halide_cpp_max(_2399, 0);
           int32_t  const _2401 = _2400 * 8;
           int32_t  const _2402 = ::halide_cpp_min(_2401, _attn_lk);
           int32_t  const _2403 = ::halide_cpp_min(_attn_kv_hi, _attn_lk);
           int32_t  const _2404 = _2403 + 7;
           int32_t  const _2405 = _2404 >> 3;
           int32_t  const _2406 = _attn_lq + -1;
           int32_t  const _2407 = _2406 >> 5;
           int32_t  const _2408 = _attn_q_step * 31;
           int32_t  const _2409 = _2408 + _attn_q0;
           int32_t  const _2410 = _2409 >> 5;
           int32_t  const _2411 = _2410 + _attn_tile;
           int32_t  const _2412 = ::halide_cpp_min(_2407, _2411);
           int32_t  const _2413 = _attn_q0 >> 5;
           int32_t  const _2414 = _2413 + _attn_tile;
           int32_t  const _2415 = ::halide_cpp_max(_2412, _2414);
           int32_t  const _2416 = _2415 * 4;
           int32_t  const _2417 = _2416 + 4;
           int32_t  const _2418 = ::halide_cpp_min(_2405, _2417);
           int32_t  const _2419 = _2418 * 8;
           int32_t  const _2420 = ::halide_cpp_min(_2419, _attn_lk);
           int32_t  const _2421 = _attn_rows + 3;
           int32_t  const _2422 = _2421 >> 2;
           int32_t  const _2423 = _2422 * 4;
           int32_t  const _2424 = _attn_chunk_lo >> 3;
           int32_t  const _2425 = _2424 * 8;
           for (int _partial_s0_ii_ig = 0; _partial_s0_ii_ig < 0 + 8; _partial_s0_ii_ig++)
           {
            int32_t  const _2426 = ::halide_cpp_max(_2402, _2420);
            int32_t  const _2427 = _partial_s0_ii_ig * 4;
            for (int _partial_s0_ii_ir = 0; _partial_s0_ii_ir < 0 + 4; _partial_s0_ii_ir++)
            {
             int32_t  const _2428 = _partial_s0_ii_ir + _2427;
             for (int _partial_s0_c_c = 0; _partial_s0_c_c < 0 + 4; _partial_s0_c_c++)
             {
              int64_t  const _2429 = (int64_t)(_2423);
              int64_t  const _2430 = _2429 + int64_t(-1);
              int64_t  const _2431 = (int64_t)(_2428);
              int64_t  const _2432 = ::halide_cpp_min(_2430, _2431);
              int64_t  const _2433 = _2432 * int64_t(4);
              int64_t  const _2434 = (int64_t)(_partial_s0_c_c);
              int64_t  const _2435 = _2433 + _2434;
              int64_t  const _2436 = _2435 * int64_t(16);
              float16  const _2437 = float16_ops::load(_pv, _2436);
              int64_t  const _2438 = _2431 * int64_t(5);
              int64_t  const _2439 = _2438 + _2434;
              int64_t  const _2440 = _2439 * int64_t(16);
              float16_ops::store(_2437, _partial, _2440);
             } // for _partial_s0_c_c
             int32_t  const _2441 = _partial_s0_ii_ir + _2427;
             int64_t  const _2442 = (int64_t)(_2441);
             float  const _2443 = _row_max[_2442];
             float16  const _2444 = float16_ops::broadcast(_2443);
             float  const _2445 = _row_sum[_2442];
             float16  const _2446 = float16_ops::broadcast(_2445);
             int32_t  const _2447 = ::halide_cpp_min(_2425, _2426);
             int32_t  const _2448 = ::halide_cpp_max(_2447, _2402);
             int32_t  const _2449 = _2448 + 1024;
             int32_t  const _2450 = ::halide_cpp_min(_2449, _2426);
             float  const _2451 = reinterpret<float>(_2450);
             float16  const _2452 = float16_ops::broadcast(_2451);
             float  const _2453 = reinterpret<float>(_2426);
             float16  const _2454 = float16_ops::broadcast(_2453);
             int32x16_t  const _2455 = int32x16_t_ops::ramp(-2, 1);
             int32x16_t  const _2456 = int32x16_t_ops::broadcast(0);
             uint8x16_t  const _2457 = int32x16_t_ops::eq(_2455, _2456);
             float16  const _2458 = float16_ops::select(_2457, _2452, _2454);
             int32x16_t  const _2459 = int32x16_t_ops::ramp(-1, 1);
             uint8x16_t  const _2460 = int32x16_t_ops::eq(_2459, _2456);
             float16  const _2461 = float16_ops::select(_2460, _2446, _2458);
             int32x16_t  const _2462 = int32x16_t_ops::ramp(0, 1);
             uint8x16_t  const _2463 = int32x16_t_ops::eq(_2462, _2456);
             float16  const _2464 = float16_ops::select(_2463, _2444, _2461);
             int64_t  const _2465 = _2442 * int64_t(80);
             int64_t  const _2466 = _2465 + int64_t(64);
             float16_ops::store(_2464, _partial, _2466);
            } // for _partial_s0_ii_ir
           } // for _partial_s0_ii_ig
           _pv_free.free();
           // produce attn_out
           // consume partial
           for (int _attn_out_s0_ii = 0; _attn_out_s0_ii < 0 + 32; _attn_out_s0_ii++)
           {
            int32_t  const _2467 = _attn_out_s0_ii * 5;
            for (int _attn_out_s0_c_c = 0; _attn_out_s0_c_c < 0 + 5; _attn_out_s0_c_c++)
            {
             int32_t  const _2468 = _attn_out_s0_c_c + _2467;
             int64_t  const _2469 = (int64_t)(_2468);
             int64_t  const _2470 = _2469 * int64_t(16);
             float16  const _2471 = float16_ops::load(_partial, _2470);
             float16_ops::store(_2471, _attn_out, _2470);
            } // for _attn_out_s0_c_c
           } // for _attn_out_s0_ii
          } // alloc _partial
         } // alloc _row_sum
        } // alloc _pv
       } // alloc _pv_blocks
      } // alloc _probs
     } // alloc _row_max
    } // alloc _masked
   } // alloc _scores
  } // alloc _dec_scores
 } // alloc _qs
 return 0;
}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
#if ATTN_PART == 2  // part 1's pipeline, called here
extern "C" int attn_causal64_avx512_pipeline(void const *__user_context, struct halide_buffer_t *_attn_q_buffer, struct halide_buffer_t *_attn_k_buffer, struct halide_buffer_t *_attn_v_buffer, int32_t _attn_lq, int32_t _attn_lk, int32_t _attn_d, int32_t _attn_dv_pad, int32_t _attn_tile, int32_t _attn_rows, int32_t _attn_decoding, int32_t _attn_q_step, int32_t _attn_q0, int32_t _attn_head, int32_t _attn_batch, int32_t _attn_kv_lo, int32_t _attn_kv_hi, int32_t _attn_chunk_lo, struct halide_buffer_t *_attn_out_buffer);
#endif
#if ATTN_PART != 1  // part 2: the entry points
// ---- The path's element types and conversions ----
// The kernel's element type: what Q, K and V hold (filled in per kernel), and whether
// it is FP8. Before the rest of a path's code that reads it: the entry point, and a matrix path's
// extern stages (backends/cpu/SourceParts.h: both parts of its source).
namespace {

enum class IoType { F32, F16, BF16, E4M3, E5M2 };
constexpr IoType kIoType = IoType::F32;  // Q, K and V's
constexpr bool kFp8 = kIoType == IoType::E4M3 || kIoType == IoType::E5M2;  // descaled Q, K, V; no backward

}  // namespace

// Element conversions that the entry point and (the FP8 table) a matrix path's extern stages share:
// f32 to bf16, f16 and FP8 to f32.
namespace {

uint16_t float_to_bf16(float f) {  // round to nearest even; a NaN stays a (quiet) NaN
  uint32_t x;
  memcpy(&x, &f, 4);
  const uint32_t rounded = (x + 0x7fffu + ((x >> 16) & 1u)) >> 16, nan = (x >> 16) | 0x40u;
  return uint16_t((x & 0x7fffffffu) > 0x7f800000u ? nan : rounded);  // a select, so loops of it vectorize
}

/// An f16 element as f32 (f16 inputs and E5M2, an f16's top byte). Inline: most sources never call it.
inline float half_to_float(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16, exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
  float f;
  if (exponent == 0) {
    f = float(mantissa) * 5.9604644775390625e-8f;  // subnormal: mantissa * 2^-24
    return sign ? -f : f;
  }
  uint32_t bits = exponent == 31 ? (sign | 0x7f800000u | (mantissa << 13))
                                 : (sign | ((exponent + 112) << 23) | (mantissa << 13));
  memcpy(&f, &bits, 4);
  return f;
}

/// An OCP FP8 element as f32: E4M3 (bias 7, no infinities, S.1111.111 NaN) or E5M2 (an f16's
/// top byte).
inline float fp8_to_float(uint8_t x) {
  if (kIoType == IoType::E5M2) return half_to_float(uint16_t(x << 8));
  const uint32_t sign = uint32_t(x & 0x80u) << 24, exponent = (x >> 3) & 0xfu, mantissa = x & 7u;
  if (exponent == 15 && mantissa == 7) return NAN;
  if (exponent == 0) {
    const float f = float(mantissa) * 0.001953125f;  // subnormal: mantissa * 2^-9
    return sign ? -f : f;
  }
  const uint32_t bits = sign | ((exponent + 120) << 23) | (mantissa << 20);
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

/// Every FP8 value as f32, built once: the rows' conversion is a table lookup.
struct Fp8Values {
  float value[256];
  Fp8Values() {
    for (int i = 0; i < 256; ++i) value[i] = fp8_to_float(uint8_t(i));
  }
};

}  // namespace


// ---- The path's attn_kernel_args entry point ----
namespace {

constexpr const char* kKernelName = "causal64";
constexpr int kLanes = 16, kTileQ = 32;
constexpr int32_t kKeyChunk = 1024;  // keys per pipeline call at most
// A call whose tasks have at most this many query rows each (one token of a few heads) takes the
// decoding layout: the pipeline computes the scores of those rows only.
constexpr int64_t kDecodeRows = 8;
constexpr int64_t kHeadDim = 64, kValueDim = 64;  // 0: any
constexpr IoType kOutType = kFp8 ? IoType::BF16 : kIoType;  // Out's: bf16 for FP8 inputs
constexpr bool kLseRequired = false;
constexpr bool kMaxRequired = false;  // return_max: the row maxima (attn_kernel_args::max)
constexpr bool kPackHeads = true;  // the mask and score ignore the head: decoding packs a group's heads
constexpr int kNumBuffers = 0, kNumScalars = 0;
struct DTypeName {
  uint8_t code, bits;
  const char* name;
};
constexpr DTypeName kDTypeNames[] = {{2, 32, "f32"}, {2, 16, "f16"}, {4, 16, "bf16"}, {2, 64, "f64"}, {0, 32, "i32"}, {0, 64, "i64"}, {6, 8, "bool"}, {1, 8, "u8"}, {10, 8, "e4m3"}, {12, 8, "e5m2"}};

}  // namespace

// [fixed text: backends/cpu/fixed/WrapperSupport.h, 438 lines]

// [fixed text: backends/cpu/fixed/F32Staging.h, 165 lines]

namespace {

// [fixed text: backends/cpu/fixed/IrIntegerOps.h, 17 lines]
/// Keys in blocks of 64: blocks that the mask rules out for a whole query tile are skipped.
constexpr int kSkipBlock = 64;
constexpr bool kHasKeyTest = true;

/// Whether the mask is false for every query in [q_min, q_max] and key in [kv_min, kv_max] when
/// `q_len` and `kv_len` are q_len and kv_len: a sufficient condition from interval analysis of the
/// mask (codegen/PlanTiles), or false.
bool keys_masked([[maybe_unused]] int q_min, [[maybe_unused]] int q_max, [[maybe_unused]] int kv_min,
                 [[maybe_unused]] int kv_max, [[maybe_unused]] int b_min, [[maybe_unused]] int b_max,
                 [[maybe_unused]] int h_min, [[maybe_unused]] int h_max, [[maybe_unused]] int q_len,
                 [[maybe_unused]] int kv_len, [[maybe_unused]] const double* scalars) {
  return (q_max < kv_min);
}

}  // namespace

// [fixed text: backends/cpu/fixed/PackedSequences.h, 71 lines]

// [fixed text: backends/cpu/fixed/RaggedBatch.h, 156 lines]

// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 1-52, 52 lines]
  char* out_base = static_cast<char*>(args->out->data) + args->out->byte_offset;
  int64_t esize = args->out->dtype.bits / 8;
  int64_t ob = stride_of(args->out, 0) * esize, oh = stride_of(args->out, 1) * esize, ol = stride_of(args->out, 2) * esize;
  float* lse_base = args->lse ? reinterpret_cast<float*>(static_cast<char*>(args->lse->data) + args->lse->byte_offset) : nullptr;
  int64_t lb = args->lse ? stride_of(args->lse, 0) : 0, lh = args->lse ? stride_of(args->lse, 1) : 0;
  int64_t ll = args->lse ? stride_of(args->lse, 2) : 0;
  float* max_base = max_out ? reinterpret_cast<float*>(static_cast<char*>(max_out->data) + max_out->byte_offset) : nullptr;
  int64_t mb = max_out ? stride_of(max_out, 0) : 0, mh = max_out ? stride_of(max_out, 1) : 0;
  int64_t ml = max_out ? stride_of(max_out, 2) : 0;
  constexpr bool kHasSink = false;  // the kernel sets no sink
  auto sink_logit = [](int32_t, int32_t, int32_t, RowLoadError&) { return -INFINITY; };
  const int64_t groups = Hq / Hkv;
  // FP8 kernels' descale factors per (batch entry, key/value head), checked by the entry point. K
  // and V are staged as they are: q_descale x k_descale multiplies the scores (it goes with the
  // query tile), v_descale Out (write_row).
  const bool descaled = args->abi_version >= 7;
  const Descale q_scale = descale_of(descaled ? args->q_descale : nullptr, b0);
  const Descale k_scale = descale_of(descaled ? args->k_descale : nullptr, b0);
  const Descale v_scale = descale_of(descaled ? args->v_descale : nullptr, b0);
  // Out = P·V / sum, LSE and the row max of one finished row, in the caller's layout and type, after
  // the sink: a row that nothing reached is Out 0, LSE -inf; a NaN sum (a NaN score) gives NaN. `pv`
  // is unnormalized, `max` in log2 units. False (with the message written) for an out-of-range read.
  auto write_row = [&](int64_t b, int64_t hr, int64_t qr, const float* pv, float max, float sum) {
    const float kept_max = sum != sum ? NAN : sum == 0.0f ? -INFINITY : max * 0.693147180559945309f;
    float scale = 1.0f;
    if (kHasSink) {
      RowLoadError bad;
      fold_sink(sink_logit(int32_t(b0 + b), int32_t(hr), int32_t(q0 + qr), bad), max, sum, scale);
      if (bad.buffer)
        return fail(uc, "%s: the sink reads buffer '%s' at index %d in dimension %d, outside [0, %d) (b=%lld h=%lld q=%lld)",
                    kKernelName, bad.buffer, int(bad.index), bad.dim, int(bad.extent), (long long)(b0 + b), (long long)hr,
                    (long long)(q0 + qr)), false;
    }
    const bool reached = sum != 0.0f;
    float inv = reached ? scale / sum * (kFp8 ? v_scale.at(b, hr / groups) : 1.0f) : 0.0f;
    char* dst = out_base + b * ob + hr * oh + qr * ol;
    if (reached)
      write_io_row(dst, pv, inv, Dv);
    else
      memset(dst, 0, size_t(Dv * esize));
    if (lse_base) lse_base[b * lb + hr * lh + qr * ll] = reached ? max * 0.693147180559945309f + logf(sum) : -INFINITY;
    if (max_base) max_base[b * mb + hr * mh + qr * ml] = kept_max;
    return true;
  };
  if (Lk == 0) {  // no keys: every row is fully masked
    const std::vector<float> none(size_t(Dv), 0.0f);
    for (int64_t b = 0; b < B; ++b)
      for (int64_t h = 0; h < Hq; ++h)
        for (int64_t r = 0; r < Lq; ++r)
          if (!write_row(b, h, r, none.data(), -INFINITY, 0.0f)) return -1;
    return 0;
  }
  int64_t Dv_pad = round_up(Dv, kLanes);
  // Decoding (one query row) with grouped heads: the query heads that share a key/value head fill
  // the rows of one tile (row r is head h + r, query 0) instead of one head per 32-row tile. Only
  // when the mask and score do not read the head index.
  const bool pack = kPackHeads && Lq == 1 && groups > 1;
  const int64_t chunks_per_group = (groups + kTileQ - 1) / kTileQ;
  // K and V that need converting are converted by the tasks themselves when at most two tasks
  // read each key/value plane (and a paged cache decoding), once up front otherwise.
  const int64_t tasks_per_plane = pack ? chunks_per_group : (Lq + kTileQ - 1) / kTileQ * groups;
  // The decoding layout when no task has more than a few rows (kDecodeRows): the pipeline computes
  // the scores of those rows only, and the matrix paths read K and V as plain rows
  // (fixed/MatrixStaging.h).
  const int64_t task_rows = pack ? (groups < kTileQ ? groups : kTileQ) : (Lq < kTileQ ? Lq : kTileQ);
  const bool decoding = ValueStage::decoding_layout(task_rows, D, Dv);
  // The pipeline's `decoding`: 0, or for the decoding layout 1 (the matrix paths: bf16 K and V rows
  // in place) or 2 (their row addresses: a paged cache's, or FP8 rows, read in place too).
  const int32_t decoding_layout = decoding ? (at.pages.table || kFp8 ? 2 : 1) : 0;
  KeyStage k;
  ValueStage v;
  if (!k.prepare(uc, args->k, "k", D, tasks_per_plane <= 2, at.pages, decoding) ||
      !v.prepare(uc, args->v, "v", Dv_pad, tasks_per_plane <= 2, at.pages, decoding))
    return -1;
  const char* q_base = base_of(args->q);
  int64_t q_esize = args->q->dtype.bits / 8;
  int64_t qb = stride_of(args->q, 0) * q_esize, qh = stride_of(args->q, 1) * q_esize, ql = stride_of(args->q, 2) * q_esize;
  // Keys each query tile may see, [lo, hi): all of them, or for a mask that reads buffers the hull
  // of the caller's ranges (version 2) over the tile's query positions. The pipeline intersects it
  // with the mask's closed-form hull.
  int64_t tiles = (Lq + kTileQ - 1) / kTileQ;
  if (tiles * Hq * B >= (int64_t(1) << 31))
    return fail(uc, "%s: too many query tiles (%lld)", kKernelName, (long long)(tiles * Hq * B)), -1;
  std::vector<int32_t> window(size_t(2 * tiles));
  const int64_t* given = nullptr;  // the mask reads no buffer: kv_ranges unused
  const int64_t* run_starts = nullptr;
  const int64_t* runs = nullptr;
  int64_t given_block = 0;
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 138-209, 72 lines]
    // takes at most 1024 keys a call, so the scores stay in cache.
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 211-244, 34 lines]
            int result = attn_causal64_avx512_pipeline(uc, &q_tile.buf, &k_head.buf, &v_head.buf, int32_t(q_end), int32_t(Lk), int32_t(D),
                int32_t(Dv_pad), int32_t(t), int32_t(rows), decoding_layout, int32_t(q_step), int32_t(q0), int32_t(h), int32_t(b0 + b), piece_lo, piece_hi, next, &out_tile.buf);
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 247-293, 47 lines]
int run(const attn_kernel_args* args) {
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 295-308, 14 lines]
#endif

}  // namespace attn_causal64_avx512
#undef ATTN_F16C
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif  // defined(__x86_64__)

#if ATTN_PART != 1  // part 2: the entry points
// ---- The exported entry point: the widest path this CPU runs, chosen at the first call ----
// [fixed text: backends/cpu/fixed/PathDispatch.h, 87 lines]

namespace {

const VectorPath<attn_kernel_args>* chosen_path(const char** why) {
  static const VectorPath<attn_kernel_args> paths[] = {
#if defined(__x86_64__)
      {"avx512", attn_causal64_avx512::run},
#endif
      {nullptr, nullptr}};
  static const char* reason = nullptr;
  static const VectorPath<attn_kernel_args>* path = choose_path(paths, &reason);
  *why = reason;
  return path;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int attn_causal64(const attn_kernel_args* args) {
  const char* why = nullptr;
  const VectorPath<attn_kernel_args>* path = chosen_path(&why);
  return run_path(path, why, "causal64", args);
}

extern "C" __attribute__((visibility("default"))) const char* attn_causal64_path(void) {
  const char* why = nullptr;
  const VectorPath<attn_kernel_args>* path = chosen_path(&why);
  return path ? path_name(path->isa) : "none";
}
#endif

// [the source with every path (all_cpu_paths: the matrix paths for bf16): 18638 lines, hash f4be57fed144e5f5]
