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
    int32_t  const _396 = _99 + 15;
    int32_t  const _397 = ::halide_cpp_min(_396, _24);
    int32_t  const _398 = _397 - _100;
    int32_t  const _399 = _398 >> 4;
    int32_t  const _400 = ::halide_cpp_max(_399, 0);
    for (int _dec_scores_s0_j_jo = 0; _dec_scores_s0_j_jo < 0 + _400; _dec_scores_s0_j_jo++)
    {
     int32_t  const _401 = _dec_scores_s0_j_jo * 16;
     int32_t  const _402 = _401 + _100;
     int32_t  const _403 = _24 + -1;
     int32_t  const _404 = ::halide_cpp_min(_402, _403);
     int32_t  const _405 = _24 - _100;
     int32_t  const _406 = _405 - _401;
     {
      float _attn_k_im_in_dec_dot[1024];
      // produce attn_k_im_in_dec_dot
      int32_t  const _407 = ::halide_cpp_min(_406, 16);
      int32_t  const _408 = ::halide_cpp_max(_407, 1);
      for (int _attn_k_im_in_dec_dot_s0_rebased = 0; _attn_k_im_in_dec_dot_s0_rebased < 0 + _408; _attn_k_im_in_dec_dot_s0_rebased++)
      {
       int32_t  const _409 = _404 + _attn_k_im_in_dec_dot_s0_rebased;
       int32_t  const _410 = _409 * 64;
       int32_t  const _411 = _attn_k_im_in_dec_dot_s0_rebased * 64;
       for (int _attn_k_im_in_dec_dot_s0 = 0; _attn_k_im_in_dec_dot_s0 < 0 + 64; _attn_k_im_in_dec_dot_s0++)
       {
        int64_t  const _412 = (int64_t)(_attn_k_im_in_dec_dot_s0);
        int64_t  const _413 = (int64_t)(_410);
        int64_t  const _414 = _412 + _413;
        float  const _415 = ((float const *)_attn_k)[_414];
        int64_t  const _416 = (int64_t)(_411);
        int64_t  const _417 = _412 + _416;
        _attn_k_im_in_dec_dot[_417] = _415;
       } // for _attn_k_im_in_dec_dot_s0
      } // for _attn_k_im_in_dec_dot_s0_rebased
      {
       float _dec_dot[128];
       // produce dec_dot
       float  const _418 = float_from_bits(0 /* 0 */);
       float8  const _419 = float8_ops::broadcast(_418);
       float8_ops::store(_419, _dec_dot, int64_t(0));
       float  const _420 = float_from_bits(0 /* 0 */);
       float8  const _421 = float8_ops::broadcast(_420);
       float8_ops::store(_421, _dec_dot, int64_t(8));
       float  const _422 = float_from_bits(0 /* 0 */);
       float8  const _423 = float8_ops::broadcast(_422);
       float8_ops::store(_423, _dec_dot, int64_t(16));
       float  const _424 = float_from_bits(0 /* 0 */);
       float8  const _425 = float8_ops::broadcast(_424);
       float8_ops::store(_425, _dec_dot, int64_t(24));
       float  const _426 = float_from_bits(0 /* 0 */);
       float8  const _427 = float8_ops::broadcast(_426);
       float8_ops::store(_427, _dec_dot, int64_t(32));
       float  const _428 = float_from_bits(0 /* 0 */);
       float8  const _429 = float8_ops::broadcast(_428);
       float8_ops::store(_429, _dec_dot, int64_t(40));
       float  const _430 = float_from_bits(0 /* 0 */);
       float8  const _431 = float8_ops::broadcast(_430);
       float8_ops::store(_431, _dec_dot, int64_t(48));
       float  const _432 = float_from_bits(0 /* 0 */);
       float8  const _433 = float8_ops::broadcast(_432);
       float8_ops::store(_433, _dec_dot, int64_t(56));
       float  const _434 = float_from_bits(0 /* 0 */);
       float8  const _435 = float8_ops::broadcast(_434);
       float8_ops::store(_435, _dec_dot, int64_t(64));
       float  const _436 = float_from_bits(0 /* 0 */);
       float8  const _437 = float8_ops::broadcast(_436);
       float8_ops::store(_437, _dec_dot, int64_t(72));
       float  const _438 = float_from_bits(0 /* 0 */);
       float8  const _439 = float8_ops::broadcast(_438);
       float8_ops::store(_439, _dec_dot, int64_t(80));
       float  const _440 = float_from_bits(0 /* 0 */);
       float8  const _441 = float8_ops::broadcast(_440);
       float8_ops::store(_441, _dec_dot, int64_t(88));
       float  const _442 = float_from_bits(0 /* 0 */);
       float8  const _443 = float8_ops::broadcast(_442);
       float8_ops::store(_443, _dec_dot, int64_t(96));
       float  const _444 = float_from_bits(0 /* 0 */);
       float8  const _445 = float8_ops::broadcast(_444);
       float8_ops::store(_445, _dec_dot, int64_t(104));
       float  const _446 = float_from_bits(0 /* 0 */);
       float8  const _447 = float8_ops::broadcast(_446);
       float8_ops::store(_447, _dec_dot, int64_t(112));
       float  const _448 = float_from_bits(0 /* 0 */);
       float8  const _449 = float8_ops::broadcast(_448);
       float8_ops::store(_449, _dec_dot, int64_t(120));
       // consume attn_k_im_in_dec_dot
       int32_t  const _450 = _dec_scores_s0_j_jo * 16;
       int32_t  const _451 = _100 - _24;
       int32_t  const _452 = _450 + _451;
       int32_t  const _453 = ::halide_cpp_max(_452, -1);
       int32_t  const _454 = _453 * 64;
       for (int _dec_dot_s1_rd__x = 0; _dec_dot_s1_rd__x < 0 + 64; _dec_dot_s1_rd__x++)
       {
        float8  const _455 = float8_ops::load(_dec_dot, int64_t(0));
        int64_t  const _456 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _457 = _456 * int64_t(32);
        float8  const _458 = float8_ops::load(_qs, _457);
        int64_t  const _459 = (int64_t)(_454);
        int64_t  const _460 = _456 + _459;
        int64_t  const _461 = _460 + int64_t(64);
        float  const _462 = _attn_k_im_in_dec_dot[_461];
        float8  const _463 = float8_ops::broadcast(_462);
        float8  const _464 = _458 * _463;
        float8  const _465 = _455 + _464;
        float8_ops::store(_465, _dec_dot, int64_t(0));
        float8  const _466 = float8_ops::load(_dec_dot, int64_t(8));
        int64_t  const _467 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _468 = _467 * int64_t(32);
        float8  const _469 = float8_ops::load(_qs, _468);
        int64_t  const _470 = (int64_t)(_454);
        int64_t  const _471 = _467 + _470;
        int64_t  const _472 = _471 + int64_t(128);
        float  const _473 = _attn_k_im_in_dec_dot[_472];
        float8  const _474 = float8_ops::broadcast(_473);
        float8  const _475 = _469 * _474;
        float8  const _476 = _466 + _475;
        float8_ops::store(_476, _dec_dot, int64_t(8));
        float8  const _477 = float8_ops::load(_dec_dot, int64_t(16));
        int64_t  const _478 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _479 = _478 * int64_t(32);
        float8  const _480 = float8_ops::load(_qs, _479);
        int64_t  const _481 = (int64_t)(_454);
        int64_t  const _482 = _478 + _481;
        int64_t  const _483 = _482 + int64_t(192);
        float  const _484 = _attn_k_im_in_dec_dot[_483];
        float8  const _485 = float8_ops::broadcast(_484);
        float8  const _486 = _480 * _485;
        float8  const _487 = _477 + _486;
        float8_ops::store(_487, _dec_dot, int64_t(16));
        float8  const _488 = float8_ops::load(_dec_dot, int64_t(24));
        int64_t  const _489 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _490 = _489 * int64_t(32);
        float8  const _491 = float8_ops::load(_qs, _490);
        int64_t  const _492 = (int64_t)(_454);
        int64_t  const _493 = _489 + _492;
        int64_t  const _494 = _493 + int64_t(256);
        float  const _495 = _attn_k_im_in_dec_dot[_494];
        float8  const _496 = float8_ops::broadcast(_495);
        float8  const _497 = _491 * _496;
        float8  const _498 = _488 + _497;
        float8_ops::store(_498, _dec_dot, int64_t(24));
        float8  const _499 = float8_ops::load(_dec_dot, int64_t(32));
        int64_t  const _500 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _501 = _500 * int64_t(32);
        float8  const _502 = float8_ops::load(_qs, _501);
        int64_t  const _503 = (int64_t)(_454);
        int64_t  const _504 = _500 + _503;
        int64_t  const _505 = _504 + int64_t(320);
        float  const _506 = _attn_k_im_in_dec_dot[_505];
        float8  const _507 = float8_ops::broadcast(_506);
        float8  const _508 = _502 * _507;
        float8  const _509 = _499 + _508;
        float8_ops::store(_509, _dec_dot, int64_t(32));
        float8  const _510 = float8_ops::load(_dec_dot, int64_t(40));
        int64_t  const _511 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _512 = _511 * int64_t(32);
        float8  const _513 = float8_ops::load(_qs, _512);
        int64_t  const _514 = (int64_t)(_454);
        int64_t  const _515 = _511 + _514;
        int64_t  const _516 = _515 + int64_t(384);
        float  const _517 = _attn_k_im_in_dec_dot[_516];
        float8  const _518 = float8_ops::broadcast(_517);
        float8  const _519 = _513 * _518;
        float8  const _520 = _510 + _519;
        float8_ops::store(_520, _dec_dot, int64_t(40));
        float8  const _521 = float8_ops::load(_dec_dot, int64_t(48));
        int64_t  const _522 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _523 = _522 * int64_t(32);
        float8  const _524 = float8_ops::load(_qs, _523);
        int64_t  const _525 = (int64_t)(_454);
        int64_t  const _526 = _522 + _525;
        int64_t  const _527 = _526 + int64_t(448);
        float  const _528 = _attn_k_im_in_dec_dot[_527];
        float8  const _529 = float8_ops::broadcast(_528);
        float8  const _530 = _524 * _529;
        float8  const _531 = _521 + _530;
        float8_ops::store(_531, _dec_dot, int64_t(48));
        float8  const _532 = float8_ops::load(_dec_dot, int64_t(56));
        int64_t  const _533 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _534 = _533 * int64_t(32);
        float8  const _535 = float8_ops::load(_qs, _534);
        int64_t  const _536 = (int64_t)(_454);
        int64_t  const _537 = _533 + _536;
        int64_t  const _538 = _537 + int64_t(512);
        float  const _539 = _attn_k_im_in_dec_dot[_538];
        float8  const _540 = float8_ops::broadcast(_539);
        float8  const _541 = _535 * _540;
        float8  const _542 = _532 + _541;
        float8_ops::store(_542, _dec_dot, int64_t(56));
        float8  const _543 = float8_ops::load(_dec_dot, int64_t(64));
        int64_t  const _544 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _545 = _544 * int64_t(32);
        float8  const _546 = float8_ops::load(_qs, _545);
        int64_t  const _547 = (int64_t)(_454);
        int64_t  const _548 = _544 + _547;
        int64_t  const _549 = _548 + int64_t(576);
        float  const _550 = _attn_k_im_in_dec_dot[_549];
        float8  const _551 = float8_ops::broadcast(_550);
        float8  const _552 = _546 * _551;
        float8  const _553 = _543 + _552;
        float8_ops::store(_553, _dec_dot, int64_t(64));
        float8  const _554 = float8_ops::load(_dec_dot, int64_t(72));
        int64_t  const _555 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _556 = _555 * int64_t(32);
        float8  const _557 = float8_ops::load(_qs, _556);
        int64_t  const _558 = (int64_t)(_454);
        int64_t  const _559 = _555 + _558;
        int64_t  const _560 = _559 + int64_t(640);
        float  const _561 = _attn_k_im_in_dec_dot[_560];
        float8  const _562 = float8_ops::broadcast(_561);
        float8  const _563 = _557 * _562;
        float8  const _564 = _554 + _563;
        float8_ops::store(_564, _dec_dot, int64_t(72));
        float8  const _565 = float8_ops::load(_dec_dot, int64_t(80));
        int64_t  const _566 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _567 = _566 * int64_t(32);
        float8  const _568 = float8_ops::load(_qs, _567);
        int64_t  const _569 = (int64_t)(_454);
        int64_t  const _570 = _566 + _569;
        int64_t  const _571 = _570 + int64_t(704);
        float  const _572 = _attn_k_im_in_dec_dot[_571];
        float8  const _573 = float8_ops::broadcast(_572);
        float8  const _574 = _568 * _573;
        float8  const _575 = _565 + _574;
        float8_ops::store(_575, _dec_dot, int64_t(80));
        float8  const _576 = float8_ops::load(_dec_dot, int64_t(88));
        int64_t  const _577 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _578 = _577 * int64_t(32);
        float8  const _579 = float8_ops::load(_qs, _578);
        int64_t  const _580 = (int64_t)(_454);
        int64_t  const _581 = _577 + _580;
        int64_t  const _582 = _581 + int64_t(768);
        float  const _583 = _attn_k_im_in_dec_dot[_582];
        float8  const _584 = float8_ops::broadcast(_583);
        float8  const _585 = _579 * _584;
        float8  const _586 = _576 + _585;
        float8_ops::store(_586, _dec_dot, int64_t(88));
        float8  const _587 = float8_ops::load(_dec_dot, int64_t(96));
        int64_t  const _588 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _589 = _588 * int64_t(32);
        float8  const _590 = float8_ops::load(_qs, _589);
        int64_t  const _591 = (int64_t)(_454);
        int64_t  const _592 = _588 + _591;
        int64_t  const _593 = _592 + int64_t(832);
        float  const _594 = _attn_k_im_in_dec_dot[_593];
        float8  const _595 = float8_ops::broadcast(_594);
        float8  const _596 = _590 * _595;
        float8  const _597 = _587 + _596;
        float8_ops::store(_597, _dec_dot, int64_t(96));
        float8  const _598 = float8_ops::load(_dec_dot, int64_t(104));
        int64_t  const _599 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _600 = _599 * int64_t(32);
        float8  const _601 = float8_ops::load(_qs, _600);
        int64_t  const _602 = (int64_t)(_454);
        int64_t  const _603 = _599 + _602;
        int64_t  const _604 = _603 + int64_t(896);
        float  const _605 = _attn_k_im_in_dec_dot[_604];
        float8  const _606 = float8_ops::broadcast(_605);
        float8  const _607 = _601 * _606;
        float8  const _608 = _598 + _607;
        float8_ops::store(_608, _dec_dot, int64_t(104));
        float8  const _609 = float8_ops::load(_dec_dot, int64_t(112));
        int64_t  const _610 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _611 = _610 * int64_t(32);
        float8  const _612 = float8_ops::load(_qs, _611);
        int64_t  const _613 = (int64_t)(_454);
        int64_t  const _614 = _610 + _613;
        int64_t  const _615 = _614 + int64_t(960);
        float  const _616 = _attn_k_im_in_dec_dot[_615];
        float8  const _617 = float8_ops::broadcast(_616);
        float8  const _618 = _612 * _617;
        float8  const _619 = _609 + _618;
        float8_ops::store(_619, _dec_dot, int64_t(112));
        float8  const _620 = float8_ops::load(_dec_dot, int64_t(120));
        int64_t  const _621 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _622 = _621 * int64_t(32);
        float8  const _623 = float8_ops::load(_qs, _622);
        int64_t  const _624 = (int64_t)(_454);
        int64_t  const _625 = _621 + _624;
        int64_t  const _626 = _625 + int64_t(1024);
        float  const _627 = _attn_k_im_in_dec_dot[_626];
        float8  const _628 = float8_ops::broadcast(_627);
        float8  const _629 = _623 * _628;
        float8  const _630 = _620 + _629;
        float8_ops::store(_630, _dec_dot, int64_t(120));
       } // for _dec_dot_s1_rd__x
       // consume dec_dot
       float8  const _631 = float8_ops::load(_dec_dot, int64_t(0));
       int64_t  const _632 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _633 = _632 * int64_t(128);
       float8_ops::store(_631, _dec_scores, _633);
       float8  const _634 = float8_ops::load(_dec_dot, int64_t(8));
       int64_t  const _635 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _636 = _635 * int64_t(128);
       int64_t  const _637 = _636 + int64_t(8);
       float8_ops::store(_634, _dec_scores, _637);
       float8  const _638 = float8_ops::load(_dec_dot, int64_t(16));
       int64_t  const _639 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _640 = _639 * int64_t(128);
       int64_t  const _641 = _640 + int64_t(16);
       float8_ops::store(_638, _dec_scores, _641);
       float8  const _642 = float8_ops::load(_dec_dot, int64_t(24));
       int64_t  const _643 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _644 = _643 * int64_t(128);
       int64_t  const _645 = _644 + int64_t(24);
       float8_ops::store(_642, _dec_scores, _645);
       float8  const _646 = float8_ops::load(_dec_dot, int64_t(32));
       int64_t  const _647 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _648 = _647 * int64_t(128);
       int64_t  const _649 = _648 + int64_t(32);
       float8_ops::store(_646, _dec_scores, _649);
       float8  const _650 = float8_ops::load(_dec_dot, int64_t(40));
       int64_t  const _651 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _652 = _651 * int64_t(128);
       int64_t  const _653 = _652 + int64_t(40);
       float8_ops::store(_650, _dec_scores, _653);
       float8  const _654 = float8_ops::load(_dec_dot, int64_t(48));
       int64_t  const _655 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _656 = _655 * int64_t(128);
       int64_t  const _657 = _656 + int64_t(48);
       float8_ops::store(_654, _dec_scores, _657);
       float8  const _658 = float8_ops::load(_dec_dot, int64_t(56));
       int64_t  const _659 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _660 = _659 * int64_t(128);
       int64_t  const _661 = _660 + int64_t(56);
       float8_ops::store(_658, _dec_scores, _661);
       float8  const _662 = float8_ops::load(_dec_dot, int64_t(64));
       int64_t  const _663 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _664 = _663 * int64_t(128);
       int64_t  const _665 = _664 + int64_t(64);
       float8_ops::store(_662, _dec_scores, _665);
       float8  const _666 = float8_ops::load(_dec_dot, int64_t(72));
       int64_t  const _667 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _668 = _667 * int64_t(128);
       int64_t  const _669 = _668 + int64_t(72);
       float8_ops::store(_666, _dec_scores, _669);
       float8  const _670 = float8_ops::load(_dec_dot, int64_t(80));
       int64_t  const _671 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _672 = _671 * int64_t(128);
       int64_t  const _673 = _672 + int64_t(80);
       float8_ops::store(_670, _dec_scores, _673);
       float8  const _674 = float8_ops::load(_dec_dot, int64_t(88));
       int64_t  const _675 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _676 = _675 * int64_t(128);
       int64_t  const _677 = _676 + int64_t(88);
       float8_ops::store(_674, _dec_scores, _677);
       float8  const _678 = float8_ops::load(_dec_dot, int64_t(96));
       int64_t  const _679 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _680 = _679 * int64_t(128);
       int64_t  const _681 = _680 + int64_t(96);
       float8_ops::store(_678, _dec_scores, _681);
       float8  const _682 = float8_ops::load(_dec_dot, int64_t(104));
       int64_t  const _683 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _684 = _683 * int64_t(128);
       int64_t  const _685 = _684 + int64_t(104);
       float8_ops::store(_682, _dec_scores, _685);
       float8  const _686 = float8_ops::load(_dec_dot, int64_t(112));
       int64_t  const _687 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _688 = _687 * int64_t(128);
       int64_t  const _689 = _688 + int64_t(112);
       float8_ops::store(_686, _dec_scores, _689);
       float8  const _690 = float8_ops::load(_dec_dot, int64_t(120));
       int64_t  const _691 = (int64_t)(_dec_scores_s0_j_jo);
       int64_t  const _692 = _691 * int64_t(128);
       int64_t  const _693 = _692 + int64_t(120);
       float8_ops::store(_690, _dec_scores, _693);
      } // alloc _dec_dot
     } // alloc _attn_k_im_in_dec_dot
    } // for _dec_scores_s0_j_jo
    int32_t  const _694 = _397 - _100;
    int32_t  const _695 = _694 >> 4;
    int32_t  const _696 = ::halide_cpp_max(_695, 0);
    int32_t  const _697 = _99 - _100;
    int32_t  const _698 = _697 + -1;
    int32_t  const _699 = _698 >> 4;
    int32_t  const _700 = _699 - _696;
    int32_t  const _701 = _696 * 16;
    int32_t  const _702 = _24 - _701;
    int32_t  const _703 = _702 - _100;
    int32_t  const _704 = _700 + 1;
    for (int _dec_scores_s0_j_jo_rebased = 0; _dec_scores_s0_j_jo_rebased < 0 + _704; _dec_scores_s0_j_jo_rebased++)
    {
     int32_t  const _705 = _dec_scores_s0_j_jo_rebased + _696;
     int32_t  const _706 = _705 * 16;
     int32_t  const _707 = _706 + _100;
     int32_t  const _708 = _24 + -1;
     int32_t  const _709 = ::halide_cpp_min(_707, _708);
     int32_t  const _710 = _24 - _100;
     int32_t  const _711 = _710 - _706;
     {
      float _attn_k_im_in_dec_dot[1024];
      // produce attn_k_im_in_dec_dot
      int32_t  const _712 = ::halide_cpp_min(_711, 16);
      int32_t  const _713 = ::halide_cpp_max(_712, 1);
      for (int _attn_k_im_in_dec_dot_s0_rebased = 0; _attn_k_im_in_dec_dot_s0_rebased < 0 + _713; _attn_k_im_in_dec_dot_s0_rebased++)
      {
       int32_t  const _714 = _709 + _attn_k_im_in_dec_dot_s0_rebased;
       int32_t  const _715 = _714 * 64;
       int32_t  const _716 = _attn_k_im_in_dec_dot_s0_rebased * 64;
       for (int _attn_k_im_in_dec_dot_s0 = 0; _attn_k_im_in_dec_dot_s0 < 0 + 64; _attn_k_im_in_dec_dot_s0++)
       {
        int64_t  const _717 = (int64_t)(_attn_k_im_in_dec_dot_s0);
        int64_t  const _718 = (int64_t)(_715);
        int64_t  const _719 = _717 + _718;
        float  const _720 = ((float const *)_attn_k)[_719];
        int64_t  const _721 = (int64_t)(_716);
        int64_t  const _722 = _717 + _721;
        _attn_k_im_in_dec_dot[_722] = _720;
       } // for _attn_k_im_in_dec_dot_s0
      } // for _attn_k_im_in_dec_dot_s0_rebased
      {
       float _dec_dot[128];
       // produce dec_dot
       float  const _723 = float_from_bits(0 /* 0 */);
       float8  const _724 = float8_ops::broadcast(_723);
       float8_ops::store(_724, _dec_dot, int64_t(0));
       float  const _725 = float_from_bits(0 /* 0 */);
       float8  const _726 = float8_ops::broadcast(_725);
       float8_ops::store(_726, _dec_dot, int64_t(8));
       float  const _727 = float_from_bits(0 /* 0 */);
       float8  const _728 = float8_ops::broadcast(_727);
       float8_ops::store(_728, _dec_dot, int64_t(16));
       float  const _729 = float_from_bits(0 /* 0 */);
       float8  const _730 = float8_ops::broadcast(_729);
       float8_ops::store(_730, _dec_dot, int64_t(24));
       float  const _731 = float_from_bits(0 /* 0 */);
       float8  const _732 = float8_ops::broadcast(_731);
       float8_ops::store(_732, _dec_dot, int64_t(32));
       float  const _733 = float_from_bits(0 /* 0 */);
       float8  const _734 = float8_ops::broadcast(_733);
       float8_ops::store(_734, _dec_dot, int64_t(40));
       float  const _735 = float_from_bits(0 /* 0 */);
       float8  const _736 = float8_ops::broadcast(_735);
       float8_ops::store(_736, _dec_dot, int64_t(48));
       float  const _737 = float_from_bits(0 /* 0 */);
       float8  const _738 = float8_ops::broadcast(_737);
       float8_ops::store(_738, _dec_dot, int64_t(56));
       float  const _739 = float_from_bits(0 /* 0 */);
       float8  const _740 = float8_ops::broadcast(_739);
       float8_ops::store(_740, _dec_dot, int64_t(64));
       float  const _741 = float_from_bits(0 /* 0 */);
       float8  const _742 = float8_ops::broadcast(_741);
       float8_ops::store(_742, _dec_dot, int64_t(72));
       float  const _743 = float_from_bits(0 /* 0 */);
       float8  const _744 = float8_ops::broadcast(_743);
       float8_ops::store(_744, _dec_dot, int64_t(80));
       float  const _745 = float_from_bits(0 /* 0 */);
       float8  const _746 = float8_ops::broadcast(_745);
       float8_ops::store(_746, _dec_dot, int64_t(88));
       float  const _747 = float_from_bits(0 /* 0 */);
       float8  const _748 = float8_ops::broadcast(_747);
       float8_ops::store(_748, _dec_dot, int64_t(96));
       float  const _749 = float_from_bits(0 /* 0 */);
       float8  const _750 = float8_ops::broadcast(_749);
       float8_ops::store(_750, _dec_dot, int64_t(104));
       float  const _751 = float_from_bits(0 /* 0 */);
       float8  const _752 = float8_ops::broadcast(_751);
       float8_ops::store(_752, _dec_dot, int64_t(112));
       float  const _753 = float_from_bits(0 /* 0 */);
       float8  const _754 = float8_ops::broadcast(_753);
       float8_ops::store(_754, _dec_dot, int64_t(120));
       // consume attn_k_im_in_dec_dot
       int32_t  const _755 = _dec_scores_s0_j_jo_rebased * 16;
       int32_t  const _756 = _703 - _755;
       int32_t  const _757 = ::halide_cpp_min(_756, 16);
       int32_t  const _758 = ::halide_cpp_max(_757, 1);
       int32_t  const _759 = _758 * 64;
       int32_t  const _760 = ::halide_cpp_min(_756, 15);
       int32_t  const _761 = ::halide_cpp_max(_760, 1);
       int32_t  const _762 = _761 * 64;
       int32_t  const _763 = ::halide_cpp_min(_756, 14);
       int32_t  const _764 = ::halide_cpp_max(_763, 1);
       int32_t  const _765 = _764 * 64;
       int32_t  const _766 = ::halide_cpp_min(_756, 13);
       int32_t  const _767 = ::halide_cpp_max(_766, 1);
       int32_t  const _768 = _767 * 64;
       int32_t  const _769 = ::halide_cpp_min(_756, 12);
       int32_t  const _770 = ::halide_cpp_max(_769, 1);
       int32_t  const _771 = _770 * 64;
       int32_t  const _772 = ::halide_cpp_min(_756, 11);
       int32_t  const _773 = ::halide_cpp_max(_772, 1);
       int32_t  const _774 = _773 * 64;
       int32_t  const _775 = ::halide_cpp_min(_756, 10);
       int32_t  const _776 = ::halide_cpp_max(_775, 1);
       int32_t  const _777 = _776 * 64;
       int32_t  const _778 = ::halide_cpp_min(_756, 9);
       int32_t  const _779 = ::halide_cpp_max(_778, 1);
       int32_t  const _780 = _779 * 64;
       int32_t  const _781 = ::halide_cpp_min(_756, 8);
       int32_t  const _782 = ::halide_cpp_max(_781, 1);
       int32_t  const _783 = _782 * 64;
       int32_t  const _784 = ::halide_cpp_min(_756, 7);
       int32_t  const _785 = ::halide_cpp_max(_784, 1);
       int32_t  const _786 = _785 * 64;
       int32_t  const _787 = ::halide_cpp_min(_756, 6);
       int32_t  const _788 = ::halide_cpp_max(_787, 1);
       int32_t  const _789 = _788 * 64;
       int32_t  const _790 = ::halide_cpp_min(_756, 5);
       int32_t  const _791 = ::halide_cpp_max(_790, 1);
       int32_t  const _792 = _791 * 64;
       int32_t  const _793 = ::halide_cpp_min(_756, 4);
       int32_t  const _794 = ::halide_cpp_max(_793, 1);
       int32_t  const _795 = _794 * 64;
       int32_t  const _796 = ::halide_cpp_min(_756, 3);
       int32_t  const _797 = ::halide_cpp_max(_796, 1);
       int32_t  const _798 = _797 * 64;
       int32_t  const _799 = ::halide_cpp_min(_756, 2);
       int32_t  const _800 = ::halide_cpp_max(_799, 1);
       int32_t  const _801 = _800 * 64;
       for (int _dec_dot_s1_rd__x = 0; _dec_dot_s1_rd__x < 0 + 64; _dec_dot_s1_rd__x++)
       {
        float8  const _802 = float8_ops::load(_dec_dot, int64_t(0));
        int64_t  const _803 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _804 = _803 * int64_t(32);
        float8  const _805 = float8_ops::load(_qs, _804);
        float  const _806 = _attn_k_im_in_dec_dot[_803];
        float8  const _807 = float8_ops::broadcast(_806);
        float8  const _808 = _805 * _807;
        float8  const _809 = _802 + _808;
        float8_ops::store(_809, _dec_dot, int64_t(0));
        float8  const _810 = float8_ops::load(_dec_dot, int64_t(8));
        int64_t  const _811 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _812 = _811 * int64_t(32);
        float8  const _813 = float8_ops::load(_qs, _812);
        int64_t  const _814 = (int64_t)(_801);
        int64_t  const _815 = _811 + _814;
        int64_t  const _816 = _815 + int64_t(-64);
        float  const _817 = _attn_k_im_in_dec_dot[_816];
        float8  const _818 = float8_ops::broadcast(_817);
        float8  const _819 = _813 * _818;
        float8  const _820 = _810 + _819;
        float8_ops::store(_820, _dec_dot, int64_t(8));
        float8  const _821 = float8_ops::load(_dec_dot, int64_t(16));
        int64_t  const _822 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _823 = _822 * int64_t(32);
        float8  const _824 = float8_ops::load(_qs, _823);
        int64_t  const _825 = (int64_t)(_798);
        int64_t  const _826 = _822 + _825;
        int64_t  const _827 = _826 + int64_t(-64);
        float  const _828 = _attn_k_im_in_dec_dot[_827];
        float8  const _829 = float8_ops::broadcast(_828);
        float8  const _830 = _824 * _829;
        float8  const _831 = _821 + _830;
        float8_ops::store(_831, _dec_dot, int64_t(16));
        float8  const _832 = float8_ops::load(_dec_dot, int64_t(24));
        int64_t  const _833 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _834 = _833 * int64_t(32);
        float8  const _835 = float8_ops::load(_qs, _834);
        int64_t  const _836 = (int64_t)(_795);
        int64_t  const _837 = _833 + _836;
        int64_t  const _838 = _837 + int64_t(-64);
        float  const _839 = _attn_k_im_in_dec_dot[_838];
        float8  const _840 = float8_ops::broadcast(_839);
        float8  const _841 = _835 * _840;
        float8  const _842 = _832 + _841;
        float8_ops::store(_842, _dec_dot, int64_t(24));
        float8  const _843 = float8_ops::load(_dec_dot, int64_t(32));
        int64_t  const _844 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _845 = _844 * int64_t(32);
        float8  const _846 = float8_ops::load(_qs, _845);
        int64_t  const _847 = (int64_t)(_792);
        int64_t  const _848 = _844 + _847;
        int64_t  const _849 = _848 + int64_t(-64);
        float  const _850 = _attn_k_im_in_dec_dot[_849];
        float8  const _851 = float8_ops::broadcast(_850);
        float8  const _852 = _846 * _851;
        float8  const _853 = _843 + _852;
        float8_ops::store(_853, _dec_dot, int64_t(32));
        float8  const _854 = float8_ops::load(_dec_dot, int64_t(40));
        int64_t  const _855 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _856 = _855 * int64_t(32);
        float8  const _857 = float8_ops::load(_qs, _856);
        int64_t  const _858 = (int64_t)(_789);
        int64_t  const _859 = _855 + _858;
        int64_t  const _860 = _859 + int64_t(-64);
        float  const _861 = _attn_k_im_in_dec_dot[_860];
        float8  const _862 = float8_ops::broadcast(_861);
        float8  const _863 = _857 * _862;
        float8  const _864 = _854 + _863;
        float8_ops::store(_864, _dec_dot, int64_t(40));
        float8  const _865 = float8_ops::load(_dec_dot, int64_t(48));
        int64_t  const _866 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _867 = _866 * int64_t(32);
        float8  const _868 = float8_ops::load(_qs, _867);
        int64_t  const _869 = (int64_t)(_786);
        int64_t  const _870 = _866 + _869;
        int64_t  const _871 = _870 + int64_t(-64);
        float  const _872 = _attn_k_im_in_dec_dot[_871];
        float8  const _873 = float8_ops::broadcast(_872);
        float8  const _874 = _868 * _873;
        float8  const _875 = _865 + _874;
        float8_ops::store(_875, _dec_dot, int64_t(48));
        float8  const _876 = float8_ops::load(_dec_dot, int64_t(56));
        int64_t  const _877 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _878 = _877 * int64_t(32);
        float8  const _879 = float8_ops::load(_qs, _878);
        int64_t  const _880 = (int64_t)(_783);
        int64_t  const _881 = _877 + _880;
        int64_t  const _882 = _881 + int64_t(-64);
        float  const _883 = _attn_k_im_in_dec_dot[_882];
        float8  const _884 = float8_ops::broadcast(_883);
        float8  const _885 = _879 * _884;
        float8  const _886 = _876 + _885;
        float8_ops::store(_886, _dec_dot, int64_t(56));
        float8  const _887 = float8_ops::load(_dec_dot, int64_t(64));
        int64_t  const _888 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _889 = _888 * int64_t(32);
        float8  const _890 = float8_ops::load(_qs, _889);
        int64_t  const _891 = (int64_t)(_780);
        int64_t  const _892 = _888 + _891;
        int64_t  const _893 = _892 + int64_t(-64);
        float  const _894 = _attn_k_im_in_dec_dot[_893];
        float8  const _895 = float8_ops::broadcast(_894);
        float8  const _896 = _890 * _895;
        float8  const _897 = _887 + _896;
        float8_ops::store(_897, _dec_dot, int64_t(64));
        float8  const _898 = float8_ops::load(_dec_dot, int64_t(72));
        int64_t  const _899 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _900 = _899 * int64_t(32);
        float8  const _901 = float8_ops::load(_qs, _900);
        int64_t  const _902 = (int64_t)(_777);
        int64_t  const _903 = _899 + _902;
        int64_t  const _904 = _903 + int64_t(-64);
        float  const _905 = _attn_k_im_in_dec_dot[_904];
        float8  const _906 = float8_ops::broadcast(_905);
        float8  const _907 = _901 * _906;
        float8  const _908 = _898 + _907;
        float8_ops::store(_908, _dec_dot, int64_t(72));
        float8  const _909 = float8_ops::load(_dec_dot, int64_t(80));
        int64_t  const _910 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _911 = _910 * int64_t(32);
        float8  const _912 = float8_ops::load(_qs, _911);
        int64_t  const _913 = (int64_t)(_774);
        int64_t  const _914 = _910 + _913;
        int64_t  const _915 = _914 + int64_t(-64);
        float  const _916 = _attn_k_im_in_dec_dot[_915];
        float8  const _917 = float8_ops::broadcast(_916);
        float8  const _918 = _912 * _917;
        float8  const _919 = _909 + _918;
        float8_ops::store(_919, _dec_dot, int64_t(80));
        float8  const _920 = float8_ops::load(_dec_dot, int64_t(88));
        int64_t  const _921 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _922 = _921 * int64_t(32);
        float8  const _923 = float8_ops::load(_qs, _922);
        int64_t  const _924 = (int64_t)(_771);
        int64_t  const _925 = _921 + _924;
        int64_t  const _926 = _925 + int64_t(-64);
        float  const _927 = _attn_k_im_in_dec_dot[_926];
        float8  const _928 = float8_ops::broadcast(_927);
        float8  const _929 = _923 * _928;
        float8  const _930 = _920 + _929;
        float8_ops::store(_930, _dec_dot, int64_t(88));
        float8  const _931 = float8_ops::load(_dec_dot, int64_t(96));
        int64_t  const _932 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _933 = _932 * int64_t(32);
        float8  const _934 = float8_ops::load(_qs, _933);
        int64_t  const _935 = (int64_t)(_768);
        int64_t  const _936 = _932 + _935;
        int64_t  const _937 = _936 + int64_t(-64);
        float  const _938 = _attn_k_im_in_dec_dot[_937];
        float8  const _939 = float8_ops::broadcast(_938);
        float8  const _940 = _934 * _939;
        float8  const _941 = _931 + _940;
        float8_ops::store(_941, _dec_dot, int64_t(96));
        float8  const _942 = float8_ops::load(_dec_dot, int64_t(104));
        int64_t  const _943 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _944 = _943 * int64_t(32);
        float8  const _945 = float8_ops::load(_qs, _944);
        int64_t  const _946 = (int64_t)(_765);
        int64_t  const _947 = _943 + _946;
        int64_t  const _948 = _947 + int64_t(-64);
        float  const _949 = _attn_k_im_in_dec_dot[_948];
        float8  const _950 = float8_ops::broadcast(_949);
        float8  const _951 = _945 * _950;
        float8  const _952 = _942 + _951;
        float8_ops::store(_952, _dec_dot, int64_t(104));
        float8  const _953 = float8_ops::load(_dec_dot, int64_t(112));
        int64_t  const _954 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _955 = _954 * int64_t(32);
        float8  const _956 = float8_ops::load(_qs, _955);
        int64_t  const _957 = (int64_t)(_762);
        int64_t  const _958 = _954 + _957;
        int64_t  const _959 = _958 + int64_t(-64);
        float  const _960 = _attn_k_im_in_dec_dot[_959];
        float8  const _961 = float8_ops::broadcast(_960);
        float8  const _962 = _956 * _961;
        float8  const _963 = _953 + _962;
        float8_ops::store(_963, _dec_dot, int64_t(112));
        float8  const _964 = float8_ops::load(_dec_dot, int64_t(120));
        int64_t  const _965 = (int64_t)(_dec_dot_s1_rd__x);
        int64_t  const _966 = _965 * int64_t(32);
        float8  const _967 = float8_ops::load(_qs, _966);
        int64_t  const _968 = (int64_t)(_759);
        int64_t  const _969 = _965 + _968;
        int64_t  const _970 = _969 + int64_t(-64);
        float  const _971 = _attn_k_im_in_dec_dot[_970];
        float8  const _972 = float8_ops::broadcast(_971);
        float8  const _973 = _967 * _972;
        float8  const _974 = _964 + _973;
        float8_ops::store(_974, _dec_dot, int64_t(120));
       } // for _dec_dot_s1_rd__x
       // consume dec_dot
       float8  const _975 = float8_ops::load(_dec_dot, int64_t(0));
       int64_t  const _976 = (int64_t)(_dec_scores_s0_j_jo_rebased);
       int64_t  const _977 = (int64_t)(_696);
       int64_t  const _978 = _976 + _977;
       int64_t  const _979 = _978 * int64_t(128);
       float8_ops::store(_975, _dec_scores, _979);
       float8  const _980 = float8_ops::load(_dec_dot, int64_t(8));
       int64_t  const _981 = (int64_t)(_dec_scores_s0_j_jo_rebased);
       int64_t  const _982 = (int64_t)(_696);
       int64_t  const _983 = _981 + _982;
       int64_t  const _984 = _983 * int64_t(128);
       int64_t  const _985 = _984 + int64_t(8);
       float8_ops::store(_980, _dec_scores, _985);
       float8  const _986 = float8_ops::load(_dec_dot, int64_t(16));
       int64_t  const _987 = (int64_t)(_dec_scores_s0_j_jo_rebased);
       int64_t  const _988 = (int64_t)(_696);
       int64_t  const _989 = _987 + _988;
       int64_t  const _990 = _989 * int64_t(128);
       int64_t  const _991 = _990 + int64_t(16);
       float8_ops::store(_986, _dec_scores, _991);
       float8  const _992 = float8_ops::load(_dec_dot, int64_t(24));
       int64_t  const _993 = (int64_t)(_dec_scores_s0_j_jo_rebased);
       int64_t  const _994 = (int64_t)(_696);
       int64_t  const _995 = _993 + _994;
       int64_t  const _996 = _995 * int64_t(128);
       int64_t  const _997 = _996 + int64_t(24);
       float8_ops::store(_992, _dec_scores, _997);
       float8  const _998 = float8_ops::load(_dec_dot, int64_t(32));
       int64_t  const _999 = (int64_t)(_dec_scores_s0_j_jo_rebased);
       int64_t  const _1000 = (int64_t)(_696);
       int64_t  const _1001 = _999 + _1000;
       int64_t  const _1002 = _1001 * int64_t(128);
       int64_t  const _1003 = _1002 + int64_t(32);
       float8_ops::store(_998, _dec_scores, _1003);
       float8  const _1004 = float8_ops::load(_dec_dot, int64_t(40));
       int64_t  const _1005 = (int64_t)(_dec_scores_s0_j_jo_rebased);
       int64_t  const _1006 = (int64_t)(_696);
       int64_t  const _1007 = _1005 + _1006;
       int64_t  const _1008 = _1007 * int64_t(128);
       int64_t  const _1009 = _1008 + int64_t(40);
       float8_ops::store(_1004, _dec_scores, _1009);
       float8  const _1010 = float8_ops::load(_dec_dot, int64_t(48));
       int64_t  const _1011 = (int64_t)(_dec_scores_s0_j_jo_rebased);
       int64_t  const _1012 = (int64_t)(_696);
       int64_t  const _1013 = _1011 + _1012;
       int64_t  const _1014 = _1013 * int64_t(128);
       int64_t  const _1015 = _1014 + int64_t(48);
       float8_ops::store(_1010, _dec_scores, _1015);
       float8  const _1016 = float8_ops::load(_dec_dot, int64_t(56));
       int64_t  const _1017 = (int64_t)(_dec_scores_s0_j_jo_rebased);
       int64_t  const _1018 = (int64_t)(_696);
       int64_t  const _1019 = _1017 + _1018;
       int64_t  const _1020 = _1019 * int64_t(128);
       int64_t  const _1021 = _1020 + int64_t(56);
       float8_ops::store(_1016, _dec_scores, _1021);
       float8  const _1022 = float8_ops::load(_dec_dot, int64_t(64));
       int64_t  const _1023 = (int64_t)(_dec_scores_s0_j_jo_rebased);
       int64_t  const _1024 = (int64_t)(_696);
       int64_t  const _1025 = _1023 + _1024;
       int64_t  const _1026 = _1025 * int64_t(128);
       int64_t  const _1027 = _1026 + int64_t(64);
       float8_ops::store(_1022, _dec_scores, _1027);
       float8  const _1028 = float8_ops::load(_dec_dot, int64_t(72));
       int64_t  const _1029 = (int64_t)(_dec_scores_s0_j_jo_rebased);
       int64_t  const _1030 = (int64_t)(_696);
       int64_t  const _1031 = _1029 + _1030;
       int64_t  const _1032 = _1031 * int64_t(128);
       int64_t  const _1033 = _1032 + int64_t(72);
       float8_ops::store(_1028, _dec_scores, _1033);
       float8  const _1034 = float8_ops::load(_dec_dot, int64_t(80));
       int64_t  const _1035 = (int64_t)(_dec_scores_s0_j_jo_rebased);
       int64_t  const _1036 = (int64_t)(_696);
       int64_t  const _1037 = _1035 + _1036;
       int64_t  const _1038 = _1037 * int64_t(128);
       int64_t  const _1039 = _1038 + int64_t(80);
       float8_ops::store(_1034, _dec_scores, _1039);
       float8  const _1040 = float8_ops::load(_dec_dot, int64_t(88));
       int64_t  const _1041 = (int64_t)(_dec_scores_s0_j_jo_rebased);
       int64_t  const _1042 = (int64_t)(_696);
       int64_t  const _1043 = _1041 + _1042;
       int64_t  const _1044 = _1043 * int64_t(128);
       int64_t  const _1045 = _1044 + int64_t(88);
       float8_ops::store(_1040, _dec_scores, _1045);
       float8  const _1046 = float8_ops::load(_dec_dot, int64_t(96));
       int64_t  const _1047 = (int64_t)(_dec_scores_s0_j_jo_rebased);
       int64_t  const _1048 = (int64_t)(_696);
       int64_t  const _1049 = _1047 + _1048;
       int64_t  const _1050 = _1049 * int64_t(128);
       int64_t  const _1051 = _1050 + int64_t(96);
       float8_ops::store(_1046, _dec_scores, _1051);
       float8  const _1052 = float8_ops::load(_dec_dot, int64_t(104));
       int64_t  const _1053 = (int64_t)(_dec_scores_s0_j_jo_rebased);
       int64_t  const _1054 = (int64_t)(_696);
       int64_t  const _1055 = _1053 + _1054;
       int64_t  const _1056 = _1055 * int64_t(128);
       int64_t  const _1057 = _1056 + int64_t(104);
       float8_ops::store(_1052, _dec_scores, _1057);
       float8  const _1058 = float8_ops::load(_dec_dot, int64_t(112));
       int64_t  const _1059 = (int64_t)(_dec_scores_s0_j_jo_rebased);
       int64_t  const _1060 = (int64_t)(_696);
       int64_t  const _1061 = _1059 + _1060;
       int64_t  const _1062 = _1061 * int64_t(128);
       int64_t  const _1063 = _1062 + int64_t(112);
       float8_ops::store(_1058, _dec_scores, _1063);
       float8  const _1064 = float8_ops::load(_dec_dot, int64_t(120));
       int64_t  const _1065 = (int64_t)(_dec_scores_s0_j_jo_rebased);
       int64_t  const _1066 = (int64_t)(_696);
       int64_t  const _1067 = _1065 + _1066;
       int64_t  const _1068 = _1067 * int64_t(128);
       int64_t  const _1069 = _1068 + int64_t(120);
       float8_ops::store(_1064, _dec_scores, _1069);
      } // alloc _dec_dot
     } // alloc _attn_k_im_in_dec_dot
    } // for _dec_scores_s0_j_jo_rebased
   } // if _395
   {
    int32_t  const _1070 = _99 - _100;
    int32_t  const _1071 = _1070 + -1;
    int32_t  const _1072 = _1071 >> 3;
    int32_t  const _1073 = _1072 * 8;
    int32_t  const _1074 = _1073 + 8;
    int64_t  const _1075 = _1074;
    int64_t  const _1076 = _1075 * 32;
    if ((_1076 > ((int64_t(1) << 31) - 1)) || ((_1076 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
    {
     attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation scores\n");
     return -1;
    } // overflow test scores
    int64_t  const _1077 = _1076;
    float *_scores = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_1077);
    if (!_scores)
    {
     int32_t  const _1078 = attn_causal64_rt_error_out_of_memory(_ucon);
     return _1078;
    }
    HalideFreeHelper _scores_free(_ucon, _scores, attn_causal64_rt_free);
    bool  const _1079 = _attn_decoding == 0;
    if (_1079)
    {
     // produce scores
     // consume qs
     int32_t  const _1080 = _99 + 7;
     int32_t  const _1081 = ::halide_cpp_min(_1080, _24);
     int32_t  const _1082 = _1081 - _100;
     int32_t  const _1083 = _1082 >> 3;
     int32_t  const _1084 = ::halide_cpp_max(_1083, 0);
     for (int _scores_s0_j_jo = 0; _scores_s0_j_jo < 0 + _1084; _scores_s0_j_jo++)
     {
      {
       float _dot[256];
       // produce dot
       float  const _1085 = float_from_bits(0 /* 0 */);
       float16  const _1086 = float16_ops::broadcast(_1085);
       float16_ops::store(_1086, _dot, int64_t(0));
       float  const _1087 = float_from_bits(0 /* 0 */);
       float16  const _1088 = float16_ops::broadcast(_1087);
       float16_ops::store(_1088, _dot, int64_t(32));
       float  const _1089 = float_from_bits(0 /* 0 */);
       float16  const _1090 = float16_ops::broadcast(_1089);
       float16_ops::store(_1090, _dot, int64_t(64));
       float  const _1091 = float_from_bits(0 /* 0 */);
       float16  const _1092 = float16_ops::broadcast(_1091);
       float16_ops::store(_1092, _dot, int64_t(96));
       float  const _1093 = float_from_bits(0 /* 0 */);
       float16  const _1094 = float16_ops::broadcast(_1093);
       float16_ops::store(_1094, _dot, int64_t(128));
       float  const _1095 = float_from_bits(0 /* 0 */);
       float16  const _1096 = float16_ops::broadcast(_1095);
       float16_ops::store(_1096, _dot, int64_t(160));
       float  const _1097 = float_from_bits(0 /* 0 */);
       float16  const _1098 = float16_ops::broadcast(_1097);
       float16_ops::store(_1098, _dot, int64_t(192));
       float  const _1099 = float_from_bits(0 /* 0 */);
       float16  const _1100 = float16_ops::broadcast(_1099);
       float16_ops::store(_1100, _dot, int64_t(224));
       float  const _1101 = float_from_bits(0 /* 0 */);
       float16  const _1102 = float16_ops::broadcast(_1101);
       float16_ops::store(_1102, _dot, int64_t(16));
       float  const _1103 = float_from_bits(0 /* 0 */);
       float16  const _1104 = float16_ops::broadcast(_1103);
       float16_ops::store(_1104, _dot, int64_t(48));
       float  const _1105 = float_from_bits(0 /* 0 */);
       float16  const _1106 = float16_ops::broadcast(_1105);
       float16_ops::store(_1106, _dot, int64_t(80));
       float  const _1107 = float_from_bits(0 /* 0 */);
       float16  const _1108 = float16_ops::broadcast(_1107);
       float16_ops::store(_1108, _dot, int64_t(112));
       float  const _1109 = float_from_bits(0 /* 0 */);
       float16  const _1110 = float16_ops::broadcast(_1109);
       float16_ops::store(_1110, _dot, int64_t(144));
       float  const _1111 = float_from_bits(0 /* 0 */);
       float16  const _1112 = float16_ops::broadcast(_1111);
       float16_ops::store(_1112, _dot, int64_t(176));
       float  const _1113 = float_from_bits(0 /* 0 */);
       float16  const _1114 = float16_ops::broadcast(_1113);
       float16_ops::store(_1114, _dot, int64_t(208));
       float  const _1115 = float_from_bits(0 /* 0 */);
       float16  const _1116 = float16_ops::broadcast(_1115);
       float16_ops::store(_1116, _dot, int64_t(240));
       int32_t  const _1117 = _scores_s0_j_jo * 8;
       int32_t  const _1118 = _1117 + _100;
       int32_t  const _1119 = _1118 * 64;
       for (int _dot_s1_rd__x = 0; _dot_s1_rd__x < 0 + 64; _dot_s1_rd__x++)
       {
        float16  const _1120 = float16_ops::load(_dot, int64_t(0));
        int64_t  const _1121 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1122 = _1121 * int64_t(32);
        float16  const _1123 = float16_ops::load(_qs, _1122);
        int64_t  const _1124 = (int64_t)(_1119);
        int64_t  const _1125 = _1121 + _1124;
        float  const _1126 = ((float const *)_attn_k)[_1125];
        float16  const _1127 = float16_ops::broadcast(_1126);
        float16  const _1128 = _1123 * _1127;
        float16  const _1129 = _1120 + _1128;
        float16_ops::store(_1129, _dot, int64_t(0));
        float16  const _1130 = float16_ops::load(_dot, int64_t(16));
        int64_t  const _1131 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1132 = _1131 * int64_t(32);
        int64_t  const _1133 = _1132 + int64_t(16);
        float16  const _1134 = float16_ops::load(_qs, _1133);
        int64_t  const _1135 = (int64_t)(_1119);
        int64_t  const _1136 = _1131 + _1135;
        float  const _1137 = ((float const *)_attn_k)[_1136];
        float16  const _1138 = float16_ops::broadcast(_1137);
        float16  const _1139 = _1134 * _1138;
        float16  const _1140 = _1130 + _1139;
        float16_ops::store(_1140, _dot, int64_t(16));
        float16  const _1141 = float16_ops::load(_dot, int64_t(32));
        int64_t  const _1142 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1143 = _1142 * int64_t(32);
        float16  const _1144 = float16_ops::load(_qs, _1143);
        int64_t  const _1145 = (int64_t)(_1119);
        int64_t  const _1146 = _1142 + _1145;
        int64_t  const _1147 = _1146 + int64_t(64);
        float  const _1148 = ((float const *)_attn_k)[_1147];
        float16  const _1149 = float16_ops::broadcast(_1148);
        float16  const _1150 = _1144 * _1149;
        float16  const _1151 = _1141 + _1150;
        float16_ops::store(_1151, _dot, int64_t(32));
        float16  const _1152 = float16_ops::load(_dot, int64_t(48));
        int64_t  const _1153 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1154 = _1153 * int64_t(32);
        int64_t  const _1155 = _1154 + int64_t(16);
        float16  const _1156 = float16_ops::load(_qs, _1155);
        int64_t  const _1157 = (int64_t)(_1119);
        int64_t  const _1158 = _1153 + _1157;
        int64_t  const _1159 = _1158 + int64_t(64);
        float  const _1160 = ((float const *)_attn_k)[_1159];
        float16  const _1161 = float16_ops::broadcast(_1160);
        float16  const _1162 = _1156 * _1161;
        float16  const _1163 = _1152 + _1162;
        float16_ops::store(_1163, _dot, int64_t(48));
        float16  const _1164 = float16_ops::load(_dot, int64_t(64));
        int64_t  const _1165 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1166 = _1165 * int64_t(32);
        float16  const _1167 = float16_ops::load(_qs, _1166);
        int64_t  const _1168 = (int64_t)(_1119);
        int64_t  const _1169 = _1165 + _1168;
        int64_t  const _1170 = _1169 + int64_t(128);
        float  const _1171 = ((float const *)_attn_k)[_1170];
        float16  const _1172 = float16_ops::broadcast(_1171);
        float16  const _1173 = _1167 * _1172;
        float16  const _1174 = _1164 + _1173;
        float16_ops::store(_1174, _dot, int64_t(64));
        float16  const _1175 = float16_ops::load(_dot, int64_t(80));
        int64_t  const _1176 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1177 = _1176 * int64_t(32);
        int64_t  const _1178 = _1177 + int64_t(16);
        float16  const _1179 = float16_ops::load(_qs, _1178);
        int64_t  const _1180 = (int64_t)(_1119);
        int64_t  const _1181 = _1176 + _1180;
        int64_t  const _1182 = _1181 + int64_t(128);
        float  const _1183 = ((float const *)_attn_k)[_1182];
        float16  const _1184 = float16_ops::broadcast(_1183);
        float16  const _1185 = _1179 * _1184;
        float16  const _1186 = _1175 + _1185;
        float16_ops::store(_1186, _dot, int64_t(80));
        float16  const _1187 = float16_ops::load(_dot, int64_t(96));
        int64_t  const _1188 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1189 = _1188 * int64_t(32);
        float16  const _1190 = float16_ops::load(_qs, _1189);
        int64_t  const _1191 = (int64_t)(_1119);
        int64_t  const _1192 = _1188 + _1191;
        int64_t  const _1193 = _1192 + int64_t(192);
        float  const _1194 = ((float const *)_attn_k)[_1193];
        float16  const _1195 = float16_ops::broadcast(_1194);
        float16  const _1196 = _1190 * _1195;
        float16  const _1197 = _1187 + _1196;
        float16_ops::store(_1197, _dot, int64_t(96));
        float16  const _1198 = float16_ops::load(_dot, int64_t(112));
        int64_t  const _1199 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1200 = _1199 * int64_t(32);
        int64_t  const _1201 = _1200 + int64_t(16);
        float16  const _1202 = float16_ops::load(_qs, _1201);
        int64_t  const _1203 = (int64_t)(_1119);
        int64_t  const _1204 = _1199 + _1203;
        int64_t  const _1205 = _1204 + int64_t(192);
        float  const _1206 = ((float const *)_attn_k)[_1205];
        float16  const _1207 = float16_ops::broadcast(_1206);
        float16  const _1208 = _1202 * _1207;
        float16  const _1209 = _1198 + _1208;
        float16_ops::store(_1209, _dot, int64_t(112));
        float16  const _1210 = float16_ops::load(_dot, int64_t(128));
        int64_t  const _1211 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1212 = _1211 * int64_t(32);
        float16  const _1213 = float16_ops::load(_qs, _1212);
        int64_t  const _1214 = (int64_t)(_1119);
        int64_t  const _1215 = _1211 + _1214;
        int64_t  const _1216 = _1215 + int64_t(256);
        float  const _1217 = ((float const *)_attn_k)[_1216];
        float16  const _1218 = float16_ops::broadcast(_1217);
        float16  const _1219 = _1213 * _1218;
        float16  const _1220 = _1210 + _1219;
        float16_ops::store(_1220, _dot, int64_t(128));
        float16  const _1221 = float16_ops::load(_dot, int64_t(144));
        int64_t  const _1222 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1223 = _1222 * int64_t(32);
        int64_t  const _1224 = _1223 + int64_t(16);
        float16  const _1225 = float16_ops::load(_qs, _1224);
        int64_t  const _1226 = (int64_t)(_1119);
        int64_t  const _1227 = _1222 + _1226;
        int64_t  const _1228 = _1227 + int64_t(256);
        float  const _1229 = ((float const *)_attn_k)[_1228];
        float16  const _1230 = float16_ops::broadcast(_1229);
        float16  const _1231 = _1225 * _1230;
        float16  const _1232 = _1221 + _1231;
        float16_ops::store(_1232, _dot, int64_t(144));
        float16  const _1233 = float16_ops::load(_dot, int64_t(160));
        int64_t  const _1234 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1235 = _1234 * int64_t(32);
        float16  const _1236 = float16_ops::load(_qs, _1235);
        int64_t  const _1237 = (int64_t)(_1119);
        int64_t  const _1238 = _1234 + _1237;
        int64_t  const _1239 = _1238 + int64_t(320);
        float  const _1240 = ((float const *)_attn_k)[_1239];
        float16  const _1241 = float16_ops::broadcast(_1240);
        float16  const _1242 = _1236 * _1241;
        float16  const _1243 = _1233 + _1242;
        float16_ops::store(_1243, _dot, int64_t(160));
        float16  const _1244 = float16_ops::load(_dot, int64_t(176));
        int64_t  const _1245 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1246 = _1245 * int64_t(32);
        int64_t  const _1247 = _1246 + int64_t(16);
        float16  const _1248 = float16_ops::load(_qs, _1247);
        int64_t  const _1249 = (int64_t)(_1119);
        int64_t  const _1250 = _1245 + _1249;
        int64_t  const _1251 = _1250 + int64_t(320);
        float  const _1252 = ((float const *)_attn_k)[_1251];
        float16  const _1253 = float16_ops::broadcast(_1252);
        float16  const _1254 = _1248 * _1253;
        float16  const _1255 = _1244 + _1254;
        float16_ops::store(_1255, _dot, int64_t(176));
        float16  const _1256 = float16_ops::load(_dot, int64_t(192));
        int64_t  const _1257 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1258 = _1257 * int64_t(32);
        float16  const _1259 = float16_ops::load(_qs, _1258);
        int64_t  const _1260 = (int64_t)(_1119);
        int64_t  const _1261 = _1257 + _1260;
        int64_t  const _1262 = _1261 + int64_t(384);
        float  const _1263 = ((float const *)_attn_k)[_1262];
        float16  const _1264 = float16_ops::broadcast(_1263);
        float16  const _1265 = _1259 * _1264;
        float16  const _1266 = _1256 + _1265;
        float16_ops::store(_1266, _dot, int64_t(192));
        float16  const _1267 = float16_ops::load(_dot, int64_t(208));
        int64_t  const _1268 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1269 = _1268 * int64_t(32);
        int64_t  const _1270 = _1269 + int64_t(16);
        float16  const _1271 = float16_ops::load(_qs, _1270);
        int64_t  const _1272 = (int64_t)(_1119);
        int64_t  const _1273 = _1268 + _1272;
        int64_t  const _1274 = _1273 + int64_t(384);
        float  const _1275 = ((float const *)_attn_k)[_1274];
        float16  const _1276 = float16_ops::broadcast(_1275);
        float16  const _1277 = _1271 * _1276;
        float16  const _1278 = _1267 + _1277;
        float16_ops::store(_1278, _dot, int64_t(208));
        float16  const _1279 = float16_ops::load(_dot, int64_t(224));
        int64_t  const _1280 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1281 = _1280 * int64_t(32);
        float16  const _1282 = float16_ops::load(_qs, _1281);
        int64_t  const _1283 = (int64_t)(_1119);
        int64_t  const _1284 = _1280 + _1283;
        int64_t  const _1285 = _1284 + int64_t(448);
        float  const _1286 = ((float const *)_attn_k)[_1285];
        float16  const _1287 = float16_ops::broadcast(_1286);
        float16  const _1288 = _1282 * _1287;
        float16  const _1289 = _1279 + _1288;
        float16_ops::store(_1289, _dot, int64_t(224));
        float16  const _1290 = float16_ops::load(_dot, int64_t(240));
        int64_t  const _1291 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1292 = _1291 * int64_t(32);
        int64_t  const _1293 = _1292 + int64_t(16);
        float16  const _1294 = float16_ops::load(_qs, _1293);
        int64_t  const _1295 = (int64_t)(_1119);
        int64_t  const _1296 = _1291 + _1295;
        int64_t  const _1297 = _1296 + int64_t(448);
        float  const _1298 = ((float const *)_attn_k)[_1297];
        float16  const _1299 = float16_ops::broadcast(_1298);
        float16  const _1300 = _1294 * _1299;
        float16  const _1301 = _1290 + _1300;
        float16_ops::store(_1301, _dot, int64_t(240));
       } // for _dot_s1_rd__x
       // consume dot
       float16  const _1302 = float16_ops::load(_dot, int64_t(0));
       int64_t  const _1303 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _1304 = _1303 * int64_t(256);
       float16_ops::store(_1302, _scores, _1304);
       float16  const _1305 = float16_ops::load(_dot, int64_t(16));
       int64_t  const _1306 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _1307 = _1306 * int64_t(256);
       int64_t  const _1308 = _1307 + int64_t(16);
       float16_ops::store(_1305, _scores, _1308);
       float16  const _1309 = float16_ops::load(_dot, int64_t(32));
       int64_t  const _1310 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _1311 = _1310 * int64_t(256);
       int64_t  const _1312 = _1311 + int64_t(32);
       float16_ops::store(_1309, _scores, _1312);
       float16  const _1313 = float16_ops::load(_dot, int64_t(48));
       int64_t  const _1314 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _1315 = _1314 * int64_t(256);
       int64_t  const _1316 = _1315 + int64_t(48);
       float16_ops::store(_1313, _scores, _1316);
       float16  const _1317 = float16_ops::load(_dot, int64_t(64));
       int64_t  const _1318 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _1319 = _1318 * int64_t(256);
       int64_t  const _1320 = _1319 + int64_t(64);
       float16_ops::store(_1317, _scores, _1320);
       float16  const _1321 = float16_ops::load(_dot, int64_t(80));
       int64_t  const _1322 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _1323 = _1322 * int64_t(256);
       int64_t  const _1324 = _1323 + int64_t(80);
       float16_ops::store(_1321, _scores, _1324);
       float16  const _1325 = float16_ops::load(_dot, int64_t(96));
       int64_t  const _1326 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _1327 = _1326 * int64_t(256);
       int64_t  const _1328 = _1327 + int64_t(96);
       float16_ops::store(_1325, _scores, _1328);
       float16  const _1329 = float16_ops::load(_dot, int64_t(112));
       int64_t  const _1330 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _1331 = _1330 * int64_t(256);
       int64_t  const _1332 = _1331 + int64_t(112);
       float16_ops::store(_1329, _scores, _1332);
       float16  const _1333 = float16_ops::load(_dot, int64_t(128));
       int64_t  const _1334 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _1335 = _1334 * int64_t(256);
       int64_t  const _1336 = _1335 + int64_t(128);
       float16_ops::store(_1333, _scores, _1336);
       float16  const _1337 = float16_ops::load(_dot, int64_t(144));
       int64_t  const _1338 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _1339 = _1338 * int64_t(256);
       int64_t  const _1340 = _1339 + int64_t(144);
       float16_ops::store(_1337, _scores, _1340);
       float16  const _1341 = float16_ops::load(_dot, int64_t(160));
       int64_t  const _1342 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _1343 = _1342 * int64_t(256);
       int64_t  const _1344 = _1343 + int64_t(160);
       float16_ops::store(_1341, _scores, _1344);
       float16  const _1345 = float16_ops::load(_dot, int64_t(176));
       int64_t  const _1346 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _1347 = _1346 * int64_t(256);
       int64_t  const _1348 = _1347 + int64_t(176);
       float16_ops::store(_1345, _scores, _1348);
       float16  const _1349 = float16_ops::load(_dot, int64_t(192));
       int64_t  const _1350 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _1351 = _1350 * int64_t(256);
       int64_t  const _1352 = _1351 + int64_t(192);
       float16_ops::store(_1349, _scores, _1352);
       float16  const _1353 = float16_ops::load(_dot, int64_t(208));
       int64_t  const _1354 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _1355 = _1354 * int64_t(256);
       int64_t  const _1356 = _1355 + int64_t(208);
       float16_ops::store(_1353, _scores, _1356);
       float16  const _1357 = float16_ops::load(_dot, int64_t(224));
       int64_t  const _1358 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _1359 = _1358 * int64_t(256);
       int64_t  const _1360 = _1359 + int64_t(224);
       float16_ops::store(_1357, _scores, _1360);
       float16  const _1361 = float16_ops::load(_dot, int64_t(240));
       int64_t  const _1362 = (int64_t)(_scores_s0_j_jo);
       int64_t  const _1363 = _1362 * int64_t(256);
       int64_t  const _1364 = _1363 + int64_t(240);
       float16_ops::store(_1361, _scores, _1364);
      } // alloc _dot
     } // for _scores_s0_j_jo
     int32_t  const _1365 = _1081 - _100;
     int32_t  const _1366 = _1365 >> 3;
     int32_t  const _1367 = ::halide_cpp_max(_1366, 0);
     int32_t  const _1368 = _99 - _100;
     int32_t  const _1369 = _1368 + -1;
     int32_t  const _1370 = _1369 >> 3;
     int32_t  const _1371 = _1370 - _1367;
     int32_t  const _1372 = _1371 + 1;
     for (int _scores_s0_j_jo_rebased = 0; _scores_s0_j_jo_rebased < 0 + _1372; _scores_s0_j_jo_rebased++)
     {
      {
       float _dot[256];
       // produce dot
       float  const _1373 = float_from_bits(0 /* 0 */);
       float16  const _1374 = float16_ops::broadcast(_1373);
       float16_ops::store(_1374, _dot, int64_t(0));
       float  const _1375 = float_from_bits(0 /* 0 */);
       float16  const _1376 = float16_ops::broadcast(_1375);
       float16_ops::store(_1376, _dot, int64_t(32));
       float  const _1377 = float_from_bits(0 /* 0 */);
       float16  const _1378 = float16_ops::broadcast(_1377);
       float16_ops::store(_1378, _dot, int64_t(64));
       float  const _1379 = float_from_bits(0 /* 0 */);
       float16  const _1380 = float16_ops::broadcast(_1379);
       float16_ops::store(_1380, _dot, int64_t(96));
       float  const _1381 = float_from_bits(0 /* 0 */);
       float16  const _1382 = float16_ops::broadcast(_1381);
       float16_ops::store(_1382, _dot, int64_t(128));
       float  const _1383 = float_from_bits(0 /* 0 */);
       float16  const _1384 = float16_ops::broadcast(_1383);
       float16_ops::store(_1384, _dot, int64_t(160));
       float  const _1385 = float_from_bits(0 /* 0 */);
       float16  const _1386 = float16_ops::broadcast(_1385);
       float16_ops::store(_1386, _dot, int64_t(192));
       float  const _1387 = float_from_bits(0 /* 0 */);
       float16  const _1388 = float16_ops::broadcast(_1387);
       float16_ops::store(_1388, _dot, int64_t(224));
       float  const _1389 = float_from_bits(0 /* 0 */);
       float16  const _1390 = float16_ops::broadcast(_1389);
       float16_ops::store(_1390, _dot, int64_t(16));
       float  const _1391 = float_from_bits(0 /* 0 */);
       float16  const _1392 = float16_ops::broadcast(_1391);
       float16_ops::store(_1392, _dot, int64_t(48));
       float  const _1393 = float_from_bits(0 /* 0 */);
       float16  const _1394 = float16_ops::broadcast(_1393);
       float16_ops::store(_1394, _dot, int64_t(80));
       float  const _1395 = float_from_bits(0 /* 0 */);
       float16  const _1396 = float16_ops::broadcast(_1395);
       float16_ops::store(_1396, _dot, int64_t(112));
       float  const _1397 = float_from_bits(0 /* 0 */);
       float16  const _1398 = float16_ops::broadcast(_1397);
       float16_ops::store(_1398, _dot, int64_t(144));
       float  const _1399 = float_from_bits(0 /* 0 */);
       float16  const _1400 = float16_ops::broadcast(_1399);
       float16_ops::store(_1400, _dot, int64_t(176));
       float  const _1401 = float_from_bits(0 /* 0 */);
       float16  const _1402 = float16_ops::broadcast(_1401);
       float16_ops::store(_1402, _dot, int64_t(208));
       float  const _1403 = float_from_bits(0 /* 0 */);
       float16  const _1404 = float16_ops::broadcast(_1403);
       float16_ops::store(_1404, _dot, int64_t(240));
       int32_t  const _1405 = _scores_s0_j_jo_rebased + _1367;
       int32_t  const _1406 = _1405 * 8;
       int32_t  const _1407 = _1406 + _100;
       int32_t  const _1408 = _24 + -1;
       int32_t  const _1409 = ::halide_cpp_min(_1408, _1407);
       int32_t  const _1410 = _1409 * 64;
       int32_t  const _1411 = _1407 + 8;
       int32_t  const _1412 = ::halide_cpp_min(_1411, _24);
       int32_t  const _1413 = _1412 * 64;
       int32_t  const _1414 = _1407 + 7;
       int32_t  const _1415 = ::halide_cpp_min(_1414, _24);
       int32_t  const _1416 = _1415 * 64;
       int32_t  const _1417 = _1407 + 6;
       int32_t  const _1418 = ::halide_cpp_min(_1417, _24);
       int32_t  const _1419 = _1418 * 64;
       int32_t  const _1420 = _1407 + 5;
       int32_t  const _1421 = ::halide_cpp_min(_1420, _24);
       int32_t  const _1422 = _1421 * 64;
       int32_t  const _1423 = _1407 + 4;
       int32_t  const _1424 = ::halide_cpp_min(_1423, _24);
       int32_t  const _1425 = _1424 * 64;
       int32_t  const _1426 = _1407 + 3;
       int32_t  const _1427 = ::halide_cpp_min(_1426, _24);
       int32_t  const _1428 = _1427 * 64;
       int32_t  const _1429 = _1407 + 2;
       int32_t  const _1430 = ::halide_cpp_min(_1429, _24);
       int32_t  const _1431 = _1430 * 64;
       for (int _dot_s1_rd__x = 0; _dot_s1_rd__x < 0 + 64; _dot_s1_rd__x++)
       {
        float16  const _1432 = float16_ops::load(_dot, int64_t(0));
        int64_t  const _1433 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1434 = _1433 * int64_t(32);
        float16  const _1435 = float16_ops::load(_qs, _1434);
        int64_t  const _1436 = (int64_t)(_1410);
        int64_t  const _1437 = _1433 + _1436;
        float  const _1438 = ((float const *)_attn_k)[_1437];
        float16  const _1439 = float16_ops::broadcast(_1438);
        float16  const _1440 = _1435 * _1439;
        float16  const _1441 = _1432 + _1440;
        float16_ops::store(_1441, _dot, int64_t(0));
        float16  const _1442 = float16_ops::load(_dot, int64_t(16));
        int64_t  const _1443 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1444 = _1443 * int64_t(32);
        int64_t  const _1445 = _1444 + int64_t(16);
        float16  const _1446 = float16_ops::load(_qs, _1445);
        int64_t  const _1447 = (int64_t)(_1410);
        int64_t  const _1448 = _1443 + _1447;
        float  const _1449 = ((float const *)_attn_k)[_1448];
        float16  const _1450 = float16_ops::broadcast(_1449);
        float16  const _1451 = _1446 * _1450;
        float16  const _1452 = _1442 + _1451;
        float16_ops::store(_1452, _dot, int64_t(16));
        float16  const _1453 = float16_ops::load(_dot, int64_t(32));
        int64_t  const _1454 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1455 = _1454 * int64_t(32);
        float16  const _1456 = float16_ops::load(_qs, _1455);
        int64_t  const _1457 = (int64_t)(_1431);
        int64_t  const _1458 = _1454 + _1457;
        int64_t  const _1459 = _1458 + int64_t(-64);
        float  const _1460 = ((float const *)_attn_k)[_1459];
        float16  const _1461 = float16_ops::broadcast(_1460);
        float16  const _1462 = _1456 * _1461;
        float16  const _1463 = _1453 + _1462;
        float16_ops::store(_1463, _dot, int64_t(32));
        float16  const _1464 = float16_ops::load(_dot, int64_t(48));
        int64_t  const _1465 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1466 = _1465 * int64_t(32);
        int64_t  const _1467 = _1466 + int64_t(16);
        float16  const _1468 = float16_ops::load(_qs, _1467);
        int64_t  const _1469 = (int64_t)(_1431);
        int64_t  const _1470 = _1465 + _1469;
        int64_t  const _1471 = _1470 + int64_t(-64);
        float  const _1472 = ((float const *)_attn_k)[_1471];
        float16  const _1473 = float16_ops::broadcast(_1472);
        float16  const _1474 = _1468 * _1473;
        float16  const _1475 = _1464 + _1474;
        float16_ops::store(_1475, _dot, int64_t(48));
        float16  const _1476 = float16_ops::load(_dot, int64_t(64));
        int64_t  const _1477 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1478 = _1477 * int64_t(32);
        float16  const _1479 = float16_ops::load(_qs, _1478);
        int64_t  const _1480 = (int64_t)(_1428);
        int64_t  const _1481 = _1477 + _1480;
        int64_t  const _1482 = _1481 + int64_t(-64);
        float  const _1483 = ((float const *)_attn_k)[_1482];
        float16  const _1484 = float16_ops::broadcast(_1483);
        float16  const _1485 = _1479 * _1484;
        float16  const _1486 = _1476 + _1485;
        float16_ops::store(_1486, _dot, int64_t(64));
        float16  const _1487 = float16_ops::load(_dot, int64_t(80));
        int64_t  const _1488 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1489 = _1488 * int64_t(32);
        int64_t  const _1490 = _1489 + int64_t(16);
        float16  const _1491 = float16_ops::load(_qs, _1490);
        int64_t  const _1492 = (int64_t)(_1428);
        int64_t  const _1493 = _1488 + _1492;
        int64_t  const _1494 = _1493 + int64_t(-64);
        float  const _1495 = ((float const *)_attn_k)[_1494];
        float16  const _1496 = float16_ops::broadcast(_1495);
        float16  const _1497 = _1491 * _1496;
        float16  const _1498 = _1487 + _1497;
        float16_ops::store(_1498, _dot, int64_t(80));
        float16  const _1499 = float16_ops::load(_dot, int64_t(96));
        int64_t  const _1500 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1501 = _1500 * int64_t(32);
        float16  const _1502 = float16_ops::load(_qs, _1501);
        int64_t  const _1503 = (int64_t)(_1425);
        int64_t  const _1504 = _1500 + _1503;
        int64_t  const _1505 = _1504 + int64_t(-64);
        float  const _1506 = ((float const *)_attn_k)[_1505];
        float16  const _1507 = float16_ops::broadcast(_1506);
        float16  const _1508 = _1502 * _1507;
        float16  const _1509 = _1499 + _1508;
        float16_ops::store(_1509, _dot, int64_t(96));
        float16  const _1510 = float16_ops::load(_dot, int64_t(112));
        int64_t  const _1511 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1512 = _1511 * int64_t(32);
        int64_t  const _1513 = _1512 + int64_t(16);
        float16  const _1514 = float16_ops::load(_qs, _1513);
        int64_t  const _1515 = (int64_t)(_1425);
        int64_t  const _1516 = _1511 + _1515;
        int64_t  const _1517 = _1516 + int64_t(-64);
        float  const _1518 = ((float const *)_attn_k)[_1517];
        float16  const _1519 = float16_ops::broadcast(_1518);
        float16  const _1520 = _1514 * _1519;
        float16  const _1521 = _1510 + _1520;
        float16_ops::store(_1521, _dot, int64_t(112));
        float16  const _1522 = float16_ops::load(_dot, int64_t(128));
        int64_t  const _1523 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1524 = _1523 * int64_t(32);
        float16  const _1525 = float16_ops::load(_qs, _1524);
        int64_t  const _1526 = (int64_t)(_1422);
        int64_t  const _1527 = _1523 + _1526;
        int64_t  const _1528 = _1527 + int64_t(-64);
        float  const _1529 = ((float const *)_attn_k)[_1528];
        float16  const _1530 = float16_ops::broadcast(_1529);
        float16  const _1531 = _1525 * _1530;
        float16  const _1532 = _1522 + _1531;
        float16_ops::store(_1532, _dot, int64_t(128));
        float16  const _1533 = float16_ops::load(_dot, int64_t(144));
        int64_t  const _1534 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1535 = _1534 * int64_t(32);
        int64_t  const _1536 = _1535 + int64_t(16);
        float16  const _1537 = float16_ops::load(_qs, _1536);
        int64_t  const _1538 = (int64_t)(_1422);
        int64_t  const _1539 = _1534 + _1538;
        int64_t  const _1540 = _1539 + int64_t(-64);
        float  const _1541 = ((float const *)_attn_k)[_1540];
        float16  const _1542 = float16_ops::broadcast(_1541);
        float16  const _1543 = _1537 * _1542;
        float16  const _1544 = _1533 + _1543;
        float16_ops::store(_1544, _dot, int64_t(144));
        float16  const _1545 = float16_ops::load(_dot, int64_t(160));
        int64_t  const _1546 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1547 = _1546 * int64_t(32);
        float16  const _1548 = float16_ops::load(_qs, _1547);
        int64_t  const _1549 = (int64_t)(_1419);
        int64_t  const _1550 = _1546 + _1549;
        int64_t  const _1551 = _1550 + int64_t(-64);
        float  const _1552 = ((float const *)_attn_k)[_1551];
        float16  const _1553 = float16_ops::broadcast(_1552);
        float16  const _1554 = _1548 * _1553;
        float16  const _1555 = _1545 + _1554;
        float16_ops::store(_1555, _dot, int64_t(160));
        float16  const _1556 = float16_ops::load(_dot, int64_t(176));
        int64_t  const _1557 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1558 = _1557 * int64_t(32);
        int64_t  const _1559 = _1558 + int64_t(16);
        float16  const _1560 = float16_ops::load(_qs, _1559);
        int64_t  const _1561 = (int64_t)(_1419);
        int64_t  const _1562 = _1557 + _1561;
        int64_t  const _1563 = _1562 + int64_t(-64);
        float  const _1564 = ((float const *)_attn_k)[_1563];
        float16  const _1565 = float16_ops::broadcast(_1564);
        float16  const _1566 = _1560 * _1565;
        float16  const _1567 = _1556 + _1566;
        float16_ops::store(_1567, _dot, int64_t(176));
        float16  const _1568 = float16_ops::load(_dot, int64_t(192));
        int64_t  const _1569 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1570 = _1569 * int64_t(32);
        float16  const _1571 = float16_ops::load(_qs, _1570);
        int64_t  const _1572 = (int64_t)(_1416);
        int64_t  const _1573 = _1569 + _1572;
        int64_t  const _1574 = _1573 + int64_t(-64);
        float  const _1575 = ((float const *)_attn_k)[_1574];
        float16  const _1576 = float16_ops::broadcast(_1575);
        float16  const _1577 = _1571 * _1576;
        float16  const _1578 = _1568 + _1577;
        float16_ops::store(_1578, _dot, int64_t(192));
        float16  const _1579 = float16_ops::load(_dot, int64_t(208));
        int64_t  const _1580 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1581 = _1580 * int64_t(32);
        int64_t  const _1582 = _1581 + int64_t(16);
        float16  const _1583 = float16_ops::load(_qs, _1582);
        int64_t  const _1584 = (int64_t)(_1416);
        int64_t  const _1585 = _1580 + _1584;
        int64_t  const _1586 = _1585 + int64_t(-64);
        float  const _1587 = ((float const *)_attn_k)[_1586];
        float16  const _1588 = float16_ops::broadcast(_1587);
        float16  const _1589 = _1583 * _1588;
        float16  const _1590 = _1579 + _1589;
        float16_ops::store(_1590, _dot, int64_t(208));
        float16  const _1591 = float16_ops::load(_dot, int64_t(224));
        int64_t  const _1592 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1593 = _1592 * int64_t(32);
        float16  const _1594 = float16_ops::load(_qs, _1593);
        int64_t  const _1595 = (int64_t)(_1413);
        int64_t  const _1596 = _1592 + _1595;
        int64_t  const _1597 = _1596 + int64_t(-64);
        float  const _1598 = ((float const *)_attn_k)[_1597];
        float16  const _1599 = float16_ops::broadcast(_1598);
        float16  const _1600 = _1594 * _1599;
        float16  const _1601 = _1591 + _1600;
        float16_ops::store(_1601, _dot, int64_t(224));
        float16  const _1602 = float16_ops::load(_dot, int64_t(240));
        int64_t  const _1603 = (int64_t)(_dot_s1_rd__x);
        int64_t  const _1604 = _1603 * int64_t(32);
        int64_t  const _1605 = _1604 + int64_t(16);
        float16  const _1606 = float16_ops::load(_qs, _1605);
        int64_t  const _1607 = (int64_t)(_1413);
        int64_t  const _1608 = _1603 + _1607;
        int64_t  const _1609 = _1608 + int64_t(-64);
        float  const _1610 = ((float const *)_attn_k)[_1609];
        float16  const _1611 = float16_ops::broadcast(_1610);
        float16  const _1612 = _1606 * _1611;
        float16  const _1613 = _1602 + _1612;
        float16_ops::store(_1613, _dot, int64_t(240));
       } // for _dot_s1_rd__x
       // consume dot
       float16  const _1614 = float16_ops::load(_dot, int64_t(0));
       int64_t  const _1615 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1616 = (int64_t)(_1367);
       int64_t  const _1617 = _1615 + _1616;
       int64_t  const _1618 = _1617 * int64_t(256);
       float16_ops::store(_1614, _scores, _1618);
       float16  const _1619 = float16_ops::load(_dot, int64_t(16));
       int64_t  const _1620 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1621 = (int64_t)(_1367);
       int64_t  const _1622 = _1620 + _1621;
       int64_t  const _1623 = _1622 * int64_t(256);
       int64_t  const _1624 = _1623 + int64_t(16);
       float16_ops::store(_1619, _scores, _1624);
       float16  const _1625 = float16_ops::load(_dot, int64_t(32));
       int64_t  const _1626 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1627 = (int64_t)(_1367);
       int64_t  const _1628 = _1626 + _1627;
       int64_t  const _1629 = _1628 * int64_t(256);
       int64_t  const _1630 = _1629 + int64_t(32);
       float16_ops::store(_1625, _scores, _1630);
       float16  const _1631 = float16_ops::load(_dot, int64_t(48));
       int64_t  const _1632 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1633 = (int64_t)(_1367);
       int64_t  const _1634 = _1632 + _1633;
       int64_t  const _1635 = _1634 * int64_t(256);
       int64_t  const _1636 = _1635 + int64_t(48);
       float16_ops::store(_1631, _scores, _1636);
       float16  const _1637 = float16_ops::load(_dot, int64_t(64));
       int64_t  const _1638 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1639 = (int64_t)(_1367);
       int64_t  const _1640 = _1638 + _1639;
       int64_t  const _1641 = _1640 * int64_t(256);
       int64_t  const _1642 = _1641 + int64_t(64);
       float16_ops::store(_1637, _scores, _1642);
       float16  const _1643 = float16_ops::load(_dot, int64_t(80));
       int64_t  const _1644 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1645 = (int64_t)(_1367);
       int64_t  const _1646 = _1644 + _1645;
       int64_t  const _1647 = _1646 * int64_t(256);
       int64_t  const _1648 = _1647 + int64_t(80);
       float16_ops::store(_1643, _scores, _1648);
       float16  const _1649 = float16_ops::load(_dot, int64_t(96));
       int64_t  const _1650 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1651 = (int64_t)(_1367);
       int64_t  const _1652 = _1650 + _1651;
       int64_t  const _1653 = _1652 * int64_t(256);
       int64_t  const _1654 = _1653 + int64_t(96);
       float16_ops::store(_1649, _scores, _1654);
       float16  const _1655 = float16_ops::load(_dot, int64_t(112));
       int64_t  const _1656 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1657 = (int64_t)(_1367);
       int64_t  const _1658 = _1656 + _1657;
       int64_t  const _1659 = _1658 * int64_t(256);
       int64_t  const _1660 = _1659 + int64_t(112);
       float16_ops::store(_1655, _scores, _1660);
       float16  const _1661 = float16_ops::load(_dot, int64_t(128));
       int64_t  const _1662 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1663 = (int64_t)(_1367);
       int64_t  const _1664 = _1662 + _1663;
       int64_t  const _1665 = _1664 * int64_t(256);
       int64_t  const _1666 = _1665 + int64_t(128);
       float16_ops::store(_1661, _scores, _1666);
       float16  const _1667 = float16_ops::load(_dot, int64_t(144));
       int64_t  const _1668 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1669 = (int64_t)(_1367);
       int64_t  const _1670 = _1668 + _1669;
       int64_t  const _1671 = _1670 * int64_t(256);
       int64_t  const _1672 = _1671 + int64_t(144);
       float16_ops::store(_1667, _scores, _1672);
       float16  const _1673 = float16_ops::load(_dot, int64_t(160));
       int64_t  const _1674 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1675 = (int64_t)(_1367);
       int64_t  const _1676 = _1674 + _1675;
       int64_t  const _1677 = _1676 * int64_t(256);
       int64_t  const _1678 = _1677 + int64_t(160);
       float16_ops::store(_1673, _scores, _1678);
       float16  const _1679 = float16_ops::load(_dot, int64_t(176));
       int64_t  const _1680 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1681 = (int64_t)(_1367);
       int64_t  const _1682 = _1680 + _1681;
       int64_t  const _1683 = _1682 * int64_t(256);
       int64_t  const _1684 = _1683 + int64_t(176);
       float16_ops::store(_1679, _scores, _1684);
       float16  const _1685 = float16_ops::load(_dot, int64_t(192));
       int64_t  const _1686 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1687 = (int64_t)(_1367);
       int64_t  const _1688 = _1686 + _1687;
       int64_t  const _1689 = _1688 * int64_t(256);
       int64_t  const _1690 = _1689 + int64_t(192);
       float16_ops::store(_1685, _scores, _1690);
       float16  const _1691 = float16_ops::load(_dot, int64_t(208));
       int64_t  const _1692 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1693 = (int64_t)(_1367);
       int64_t  const _1694 = _1692 + _1693;
       int64_t  const _1695 = _1694 * int64_t(256);
       int64_t  const _1696 = _1695 + int64_t(208);
       float16_ops::store(_1691, _scores, _1696);
       float16  const _1697 = float16_ops::load(_dot, int64_t(224));
       int64_t  const _1698 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1699 = (int64_t)(_1367);
       int64_t  const _1700 = _1698 + _1699;
       int64_t  const _1701 = _1700 * int64_t(256);
       int64_t  const _1702 = _1701 + int64_t(224);
       float16_ops::store(_1697, _scores, _1702);
       float16  const _1703 = float16_ops::load(_dot, int64_t(240));
       int64_t  const _1704 = (int64_t)(_scores_s0_j_jo_rebased);
       int64_t  const _1705 = (int64_t)(_1367);
       int64_t  const _1706 = _1704 + _1705;
       int64_t  const _1707 = _1706 * int64_t(256);
       int64_t  const _1708 = _1707 + int64_t(240);
       float16_ops::store(_1703, _scores, _1708);
      } // alloc _dot
     } // for _scores_s0_j_jo_rebased
    } // if _1079
    int32_t  const _1709 = ::halide_cpp_max(_96, _87);
    int32_t  const _1710 = ::halide_cpp_max(_1709, _99);
    {
     int32_t  const _1711 = _1710 - _100;
     int64_t  const _1712 = _1711;
     int64_t  const _1713 = _1712 * 32;
     if ((_1713 > ((int64_t(1) << 31) - 1)) || ((_1713 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
     {
      attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation masked\n");
      return -1;
     } // overflow test masked
     int64_t  const _1714 = _1713;
     float *_masked = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_1714);
     if (!_masked)
     {
      int32_t  const _1715 = attn_causal64_rt_error_out_of_memory(_ucon);
      return _1715;
     }
     HalideFreeHelper _masked_free(_ucon, _masked, attn_causal64_rt_free);
     // produce masked
     // consume scores
     // consume dec_scores
     bool  const _1716 = _attn_decoding == 0;
     int32_t  const _1717 = _99 - _100;
     int32_t  const _1718 = _attn_tile * 2;
     int32_t  const _1719 = _1718 + _attn_q_step;
     int32_t  const _1720 = _1719 * 16;
     int32_t  const _1721 = _1720 + _attn_q0;
     int32_t  const _1722 = _attn_tile * 32;
     int32_t  const _1723 = _1722 + _attn_q0;
     for (int _masked_s0_j_rebased = 0; _masked_s0_j_rebased < 0 + _1717; _masked_s0_j_rebased++)
     {
      uint32_t  const _1724 = (uint32_t)(0ull);
      uint32x16_t  const _1725 = uint32x16_t_ops::broadcast(_1724);
      uint32_t  const _1726 = (uint32_t)(4294967295ull);
      uint32x16_t  const _1727 = uint32x16_t_ops::broadcast(_1726);
      int32x16_t  const _1728 = int32x16_t_ops::ramp(_1723, _attn_q_step);
      int32_t  const _1729 = _100 + _masked_s0_j_rebased;
      int32x16_t  const _1730 = int32x16_t_ops::broadcast(_1729);
      uint8x16_t  const _1731 = int32x16_t_ops::lt(_1728, _1730);
      uint32x16_t  const _1732 = uint32x16_t_ops::select(_1731, _1725, _1727);
      int64_t  const _1733 = (int64_t)(_masked_s0_j_rebased);
      int64_t  const _1734 = _1733 * int64_t(32);
      float16  const _1735 = float16_ops::load(_scores, _1734);
      int64_t  const _1736 = _1733 * int64_t(8);
      float8  const _1737 = float8_ops::load(_dec_scores, _1736);
      float16  const _1738 = float16_ops::shuffle<0, 1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7>(_1737);
      float16  const _1739 = (float16)(_1716 ? _1735 : _1738);
      uint32x16_t  const _1740 = reinterpret<uint32x16_t>(_1739);
      uint32x16_t  const _1741 = _1740 & _1732;
      uint32_t  const _1742 = (uint32_t)(4286578688ull);
      uint32x16_t  const _1743 = uint32x16_t_ops::broadcast(_1742);
      uint32x16_t  const _1744 = ~_1732;
      uint32x16_t  const _1745 = _1743 & _1744;
      uint32x16_t  const _1746 = _1741 | _1745;
      float16  const _1747 = reinterpret<float16>(_1746);
      float16_ops::store(_1747, _masked, _1734);
      uint32_t  const _1748 = (uint32_t)(0ull);
      uint32x16_t  const _1749 = uint32x16_t_ops::broadcast(_1748);
      uint32_t  const _1750 = (uint32_t)(4294967295ull);
      uint32x16_t  const _1751 = uint32x16_t_ops::broadcast(_1750);
      int32x16_t  const _1752 = int32x16_t_ops::ramp(_1721, _attn_q_step);
      int32_t  const _1753 = _100 + _masked_s0_j_rebased;
      int32x16_t  const _1754 = int32x16_t_ops::broadcast(_1753);
      uint8x16_t  const _1755 = int32x16_t_ops::lt(_1752, _1754);
      uint32x16_t  const _1756 = uint32x16_t_ops::select(_1755, _1749, _1751);
      int64_t  const _1757 = (int64_t)(_masked_s0_j_rebased);
      int64_t  const _1758 = _1757 * int64_t(32);
      int64_t  const _1759 = _1758 + int64_t(16);
      float16  const _1760 = float16_ops::load(_scores, _1759);
      int64_t  const _1761 = _1757 * int64_t(8);
      int64_t  const _1762 = _1761 + int64_t(7);
      float  const _1763 = _dec_scores[_1762];
      float16  const _1764 = float16_ops::broadcast(_1763);
      float16  const _1765 = (float16)(_1716 ? _1760 : _1764);
      uint32x16_t  const _1766 = reinterpret<uint32x16_t>(_1765);
      uint32x16_t  const _1767 = _1766 & _1756;
      uint32_t  const _1768 = (uint32_t)(4286578688ull);
      uint32x16_t  const _1769 = uint32x16_t_ops::broadcast(_1768);
      uint32x16_t  const _1770 = ~_1756;
      uint32x16_t  const _1771 = _1769 & _1770;
      uint32x16_t  const _1772 = _1767 | _1771;
      float16  const _1773 = reinterpret<float16>(_1772);
      float16_ops::store(_1773, _masked, _1759);
     } // for _masked_s0_j_rebased
     _dec_scores_free.free();
     _scores_free.free();
     {
      float _row_max[32];
      int32_t  const _1774 = ::halide_cpp_max(_84, 0);
      int32_t  const _1775 = _87 - _1774;
      // produce row_max
      for (int _row_max_s0_ii_ii = 0; _row_max_s0_ii_ii < 0 + 2; _row_max_s0_ii_ii++)
      {
       float16  const _1776 = float16_ops::broadcast(neg_inf_f32());
       int64_t  const _1777 = (int64_t)(_row_max_s0_ii_ii);
       int64_t  const _1778 = _1777 * int64_t(16);
       float16_ops::store(_1776, _row_max, _1778);
      } // for _row_max_s0_ii_ii
      // consume masked
      int32_t  const _1779 = ::halide_cpp_max(_84, 0);
      int32_t  const _1780 = _1779 - _100;
      for (int _row_max_s1_rk__x_rebased = 0; _row_max_s1_rk__x_rebased < 0 + _1775; _row_max_s1_rk__x_rebased++)
      {
       float16  const _1781 = float16_ops::load(_row_max, int64_t(0));
       int64_t  const _1782 = (int64_t)(_row_max_s1_rk__x_rebased);
       int64_t  const _1783 = (int64_t)(_1780);
       int64_t  const _1784 = _1782 + _1783;
       int64_t  const _1785 = _1784 * int64_t(32);
       float16  const _1786 = float16_ops::load(_masked, _1785);
       float16  const _1787 = float16_ops::max(_1781, _1786);
       float16_ops::store(_1787, _row_max, int64_t(0));
       float16  const _1788 = float16_ops::load(_row_max, int64_t(16));
       int64_t  const _1789 = (int64_t)(_row_max_s1_rk__x_rebased);
       int64_t  const _1790 = (int64_t)(_1780);
       int64_t  const _1791 = _1789 + _1790;
       int64_t  const _1792 = _1791 * int64_t(32);
       int64_t  const _1793 = _1792 + int64_t(16);
       float16  const _1794 = float16_ops::load(_masked, _1793);
       float16  const _1795 = float16_ops::max(_1788, _1794);
       float16_ops::store(_1795, _row_max, int64_t(16));
      } // for _row_max_s1_rk__x_rebased
      int32_t  const _1796 = ::halide_cpp_max(_84, 0);
      int32_t  const _1797 = ::halide_cpp_min(_attn_kv_hi, _attn_lk);
      int32_t  const _1798 = _1797 + 7;
      int32_t  const _1799 = _1798 >> 3;
      int32_t  const _1800 = _attn_lq + -1;
      int32_t  const _1801 = _1800 >> 5;
      int32_t  const _1802 = _attn_q_step * 31;
      int32_t  const _1803 = _1802 + _attn_q0;
      int32_t  const _1804 = _1803 >> 5;
      int32_t  const _1805 = _1804 + _attn_tile;
      int32_t  const _1806 = ::halide_cpp_min(_1801, _1805);
      int32_t  const _1807 = _attn_q0 >> 5;
      int32_t  const _1808 = _1807 + _attn_tile;
      int32_t  const _1809 = ::halide_cpp_max(_1806, _1808);
      int32_t  const _1810 = _1809 * 4;
      int32_t  const _1811 = _1810 + 4;
      int32_t  const _1812 = ::halide_cpp_min(_1799, _1811);
      int32_t  const _1813 = _1812 * 8;
      int32_t  const _1814 = ::halide_cpp_min(_1813, _attn_lk);
      int32_t  const _1815 = _attn_chunk_lo >> 3;
      int32_t  const _1816 = _1815 * 8;
      int32_t  const _1817 = ::halide_cpp_min(_1814, _1816);
      int32_t  const _1818 = _attn_kv_lo >> 3;
      int32_t  const _1819 = ::halide_cpp_max(_1818, 0);
      int32_t  const _1820 = _1819 * 8;
      int32_t  const _1821 = ::halide_cpp_min(_1820, _attn_lk);
      int32_t  const _1822 = ::halide_cpp_max(_1817, _1821);
      int32_t  const _1823 = ::halide_cpp_min(_1822, _92);
      int32_t  const _1824 = ::halide_cpp_min(_1796, _1823);
      int32_t  const _1825 = ::halide_cpp_min(_1824, _98);
      int32_t  const _1826 = ::halide_cpp_min(_88, 1024);
      int32_t  const _1827 = _1826 >> 6;
      int32_t  const _1828 = _1827 * 64;
      int32_t  const _1829 = _1828 + _1822;
      int32_t  const _1830 = ::halide_cpp_max(_1829, _87);
      int32_t  const _1831 = ::halide_cpp_max(_1830, _96);
      int32_t  const _1832 = ::halide_cpp_min(_92, _1822);
      int32_t  const _1833 = ::halide_cpp_min(_1796, _1832);
      int32_t  const _1834 = ::halide_cpp_min(_1833, _98);
      int32_t  const _1835 = _1831 - _1834;
      {
       int64_t  const _1836 = _1835;
       int64_t  const _1837 = _1836 * 32;
       if ((_1837 > ((int64_t(1) << 31) - 1)) || ((_1837 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
       {
        attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation probs\n");
        return -1;
       } // overflow test probs
       int64_t  const _1838 = _1837;
       float *_probs = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_1838);
       if (!_probs)
       {
        int32_t  const _1839 = attn_causal64_rt_error_out_of_memory(_ucon);
        return _1839;
       }
       HalideFreeHelper _probs_free(_ucon, _probs, attn_causal64_rt_free);
       // produce probs
       // consume row_max
       // consume masked
       int32_t  const _1840 = _98 - _1825;
       int32_t  const _1841 = _98 - _100;
       int32_t  const _1842 = _96 - _98;
       for (int _probs_s0_j_rebased = 0; _probs_s0_j_rebased < 0 + _1842; _probs_s0_j_rebased++)
       {
        float16  const _1843 = float16_ops::load(_row_max, int64_t(0));
        int64_t  const _1844 = (int64_t)(_probs_s0_j_rebased);
        int64_t  const _1845 = (int64_t)(_1841);
        int64_t  const _1846 = _1844 + _1845;
        int64_t  const _1847 = _1846 * int64_t(32);
        float16  const _1848 = float16_ops::load(_masked, _1847);
        float  const _1849 = float_from_bits(0 /* 0 */);
        float16  const _1850 = float16_ops::broadcast(_1849);
        float16  const _1851 = float16_ops::broadcast(neg_inf_f32());
        uint8x16_t  const _1852 = float16_ops::eq(_1843, _1851);
        float16  const _1853 = float16_ops::select(_1852, _1850, _1843);
        float16  const _1854 = _1848 - _1853;
        float16  const _1855 = float16_ops::min(_1854, _1850);
        float  const _1856 = float_from_bits(3271426048 /* -127 */);
        float16  const _1857 = float16_ops::broadcast(_1856);
        float16  const _1858 = float16_ops::max(_1855, _1857);
        float  const _1859 = float_from_bits(1124007936 /* 127.5 */);
        float16  const _1860 = float16_ops::broadcast(_1859);
        float16  const _1861 = _1858 + _1860;
        int32x16_t  const _1862 = int32x16_t_ops::convert_from<float16>(_1861);
        int32x16_t  const _1863 = int32x16_t_ops::broadcast(-127);
        int32x16_t  const _1864 = _1862 + _1863;
        float16  const _1865 = float16_ops::convert_from<int32x16_t>(_1864);
        float16  const _1866 = _1858 - _1865;
        uint32_t  const _1867 = (uint32_t)(23ull);
        uint32x16_t  const _1868 = uint32x16_t_ops::broadcast(_1867);
        int32x16_t  const _1869 = _1862 << _1868;
        float16  const _1870 = reinterpret<float16>(_1869);
        float  const _1871 = float_from_bits(958452607 /* 0.000153376 */);
        float16  const _1872 = float16_ops::broadcast(_1871);
        float16  const _1873 = _1866 * _1872;
        float  const _1874 = float_from_bits(984588920 /* 0.00133999 */);
        float16  const _1875 = float16_ops::broadcast(_1874);
        float16  const _1876 = _1873 + _1875;
        float16  const _1877 = _1876 * _1866;
        float  const _1878 = float_from_bits(1008572159 /* 0.00961852 */);
        float16  const _1879 = float16_ops::broadcast(_1878);
        float16  const _1880 = _1877 + _1879;
        float16  const _1881 = _1880 * _1866;
        float  const _1882 = float_from_bits(1029920619 /* 0.0555033 */);
        float16  const _1883 = float16_ops::broadcast(_1882);
        float16  const _1884 = _1881 + _1883;
        float16  const _1885 = _1884 * _1866;
        float  const _1886 = float_from_bits(1047920109 /* 0.240226 */);
        float16  const _1887 = float16_ops::broadcast(_1886);
        float16  const _1888 = _1885 + _1887;
        float16  const _1889 = _1888 * _1866;
        float  const _1890 = float_from_bits(1060205080 /* 0.693147 */);
        float16  const _1891 = float16_ops::broadcast(_1890);
        float16  const _1892 = _1889 + _1891;
        float16  const _1893 = _1892 * _1866;
        float  const _1894 = float_from_bits(1065353216 /* 1 */);
        float16  const _1895 = float16_ops::broadcast(_1894);
        float16  const _1896 = _1893 + _1895;
        float16  const _1897 = _1870 * _1896;
        int32x16_t  const _1898 = reinterpret<int32x16_t>(_1897);
        int32x16_t  const _1899 = int32x16_t_ops::broadcast(-1);
        int32x16_t  const _1900 = int32x16_t_ops::broadcast(0);
        int32x16_t  const _1901 = int32x16_t_ops::broadcast(2139095040);
        int32x16_t  const _1902 = reinterpret<int32x16_t>(_1854);
        int32x16_t  const _1903 = int32x16_t_ops::broadcast(2147483647);
        int32x16_t  const _1904 = _1902 & _1903;
        uint8x16_t  const _1905 = int32x16_t_ops::lt(_1901, _1904);
        int32x16_t  const _1906 = int32x16_t_ops::select(_1905, _1899, _1900);
        int32x16_t  const _1907 = int32x16_t_ops::broadcast(2143289344);
        int32x16_t  const _1908 = _1906 & _1907;
        int32x16_t  const _1909 = _1898 | _1908;
        float16  const _1910 = reinterpret<float16>(_1909);
        int64_t  const _1911 = (int64_t)(_1840);
        int64_t  const _1912 = _1844 + _1911;
        int64_t  const _1913 = _1912 * int64_t(32);
        float16_ops::store(_1910, _probs, _1913);
        float16  const _1914 = float16_ops::load(_row_max, int64_t(16));
        int64_t  const _1915 = (int64_t)(_probs_s0_j_rebased);
        int64_t  const _1916 = (int64_t)(_1841);
        int64_t  const _1917 = _1915 + _1916;
        int64_t  const _1918 = _1917 * int64_t(32);
        int64_t  const _1919 = _1918 + int64_t(16);
        float16  const _1920 = float16_ops::load(_masked, _1919);
        float  const _1921 = float_from_bits(0 /* 0 */);
        float16  const _1922 = float16_ops::broadcast(_1921);
        float16  const _1923 = float16_ops::broadcast(neg_inf_f32());
        uint8x16_t  const _1924 = float16_ops::eq(_1914, _1923);
        float16  const _1925 = float16_ops::select(_1924, _1922, _1914);
        float16  const _1926 = _1920 - _1925;
        float16  const _1927 = float16_ops::min(_1926, _1922);
        float  const _1928 = float_from_bits(3271426048 /* -127 */);
        float16  const _1929 = float16_ops::broadcast(_1928);
        float16  const _1930 = float16_ops::max(_1927, _1929);
        float  const _1931 = float_from_bits(1124007936 /* 127.5 */);
        float16  const _1932 = float16_ops::broadcast(_1931);
        float16  const _1933 = _1930 + _1932;
        int32x16_t  const _1934 = int32x16_t_ops::convert_from<float16>(_1933);
        int32x16_t  const _1935 = int32x16_t_ops::broadcast(-127);
        int32x16_t  const _1936 = _1934 + _1935;
        float16  const _1937 = float16_ops::convert_from<int32x16_t>(_1936);
        float16  const _1938 = _1930 - _1937;
        uint32_t  const _1939 = (uint32_t)(23ull);
        uint32x16_t  const _1940 = uint32x16_t_ops::broadcast(_1939);
        int32x16_t  const _1941 = _1934 << _1940;
        float16  const _1942 = reinterpret<float16>(_1941);
        float  const _1943 = float_from_bits(958452607 /* 0.000153376 */);
        float16  const _1944 = float16_ops::broadcast(_1943);
        float16  const _1945 = _1938 * _1944;
        float  const _1946 = float_from_bits(984588920 /* 0.00133999 */);
        float16  const _1947 = float16_ops::broadcast(_1946);
        float16  const _1948 = _1945 + _1947;
        float16  const _1949 = _1948 * _1938;
        float  const _1950 = float_from_bits(1008572159 /* 0.00961852 */);
        float16  const _1951 = float16_ops::broadcast(_1950);
        float16  const _1952 = _1949 + _1951;
        float16  const _1953 = _1952 * _1938;
        float  const _1954 = float_from_bits(1029920619 /* 0.0555033 */);
        float16  const _1955 = float16_ops::broadcast(_1954);
        float16  const _1956 = _1953 + _1955;
        float16  const _1957 = _1956 * _1938;
        float  const _1958 = float_from_bits(1047920109 /* 0.240226 */);
        float16  const _1959 = float16_ops::broadcast(_1958);
        float16  const _1960 = _1957 + _1959;
        float16  const _1961 = _1960 * _1938;
        float  const _1962 = float_from_bits(1060205080 /* 0.693147 */);
        float16  const _1963 = float16_ops::broadcast(_1962);
        float16  const _1964 = _1961 + _1963;
        float16  const _1965 = _1964 * _1938;
        float  const _1966 = float_from_bits(1065353216 /* 1 */);
        float16  const _1967 = float16_ops::broadcast(_1966);
        float16  const _1968 = _1965 + _1967;
        float16  const _1969 = _1942 * _1968;
        int32x16_t  const _1970 = reinterpret<int32x16_t>(_1969);
        int32x16_t  const _1971 = int32x16_t_ops::broadcast(-1);
        int32x16_t  const _1972 = int32x16_t_ops::broadcast(0);
        int32x16_t  const _1973 = int32x16_t_ops::broadcast(2139095040);
        int32x16_t  const _1974 = reinterpret<int32x16_t>(_1926);
        int32x16_t  const _1975 = int32x16_t_ops::broadcast(2147483647);
        int32x16_t  const _1976 = _1974 & _1975;
        uint8x16_t  const _1977 = int32x16_t_ops::lt(_1973, _1976);
        int32x16_t  const _1978 = int32x16_t_ops::select(_1977, _1971, _1972);
        int32x16_t  const _1979 = int32x16_t_ops::broadcast(2143289344);
        int32x16_t  const _1980 = _1978 & _1979;
        int32x16_t  const _1981 = _1970 | _1980;
        float16  const _1982 = reinterpret<float16>(_1981);
        int64_t  const _1983 = (int64_t)(_1840);
        int64_t  const _1984 = _1915 + _1983;
        int64_t  const _1985 = _1984 * int64_t(32);
        int64_t  const _1986 = _1985 + int64_t(16);
        float16_ops::store(_1982, _probs, _1986);
       } // for _probs_s0_j_rebased
       _masked_free.free();
       {
        int64_t  const _1987 = 64;
        int32_t  const _1988 = _attn_rows + 3;
        int32_t  const _1989 = _1988 >> 2;
        int32_t  const _1990 = _1989 * 4;
        int64_t  const _1991 = _1987 * _1990;
        if ((_1991 > ((int64_t(1) << 31) - 1)) || ((_1991 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
        {
         attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation pv_blocks\n");
         return -1;
        } // overflow test pv_blocks
        int64_t  const _1992 = _1991;
        float *_pv_blocks = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_1992);
        if (!_pv_blocks)
        {
         int32_t  const _1993 = attn_causal64_rt_error_out_of_memory(_ucon);
         return _1993;
        }
        HalideFreeHelper _pv_blocks_free(_ucon, _pv_blocks, attn_causal64_rt_free);
        // produce pv_blocks
        int32_t  const _1994 = _attn_rows + 3;
        int32_t  const _1995 = _1994 >> 2;
        int32_t  const _1996 = _1995 * 4;
        for (int _pv_blocks_s0_ii = 0; _pv_blocks_s0_ii < 0 + _1996; _pv_blocks_s0_ii++)
        {
         int32_t  const _1997 = _pv_blocks_s0_ii * 4;
         for (int _pv_blocks_s0_c_c = 0; _pv_blocks_s0_c_c < 0 + 4; _pv_blocks_s0_c_c++)
         {
          float  const _1998 = float_from_bits(0 /* 0 */);
          float16  const _1999 = float16_ops::broadcast(_1998);
          int64_t  const _2000 = (int64_t)(_pv_blocks_s0_c_c);
          int64_t  const _2001 = (int64_t)(_1997);
          int64_t  const _2002 = _2000 + _2001;
          int64_t  const _2003 = _2002 * int64_t(16);
          float16_ops::store(_1999, _pv_blocks, _2003);
         } // for _pv_blocks_s0_c_c
        } // for _pv_blocks_s0_ii
        // consume probs
        int32_t  const _2004 = ::halide_cpp_min(_attn_kv_hi, _attn_lk);
        int32_t  const _2005 = _2004 + 7;
        int32_t  const _2006 = _2005 >> 3;
        int32_t  const _2007 = _attn_lq + -1;
        int32_t  const _2008 = _2007 >> 5;
        int32_t  const _2009 = _attn_q_step * 31;
        int32_t  const _2010 = _2009 + _attn_q0;
        int32_t  const _2011 = _2010 >> 5;
        int32_t  const _2012 = _2011 + _attn_tile;
        int32_t  const _2013 = ::halide_cpp_min(_2008, _2012);
        int32_t  const _2014 = _attn_q0 >> 5;
        int32_t  const _2015 = _2014 + _attn_tile;
        int32_t  const _2016 = ::halide_cpp_max(_2013, _2015);
        int32_t  const _2017 = _2016 * 4;
        int32_t  const _2018 = _2017 + 4;
        int32_t  const _2019 = ::halide_cpp_min(_2006, _2018);
        int32_t  const _2020 = _2019 * 8;
        int32_t  const _2021 = ::halide_cpp_min(_2020, _attn_lk);
        int32_t  const _2022 = _attn_chunk_lo >> 3;
        int32_t  const _2023 = _2022 * 8;
        int32_t  const _2024 = ::halide_cpp_min(_2021, _2023);
        int32_t  const _2025 = _attn_kv_lo >> 3;
        int32_t  const _2026 = ::halide_cpp_max(_2025, 0);
        int32_t  const _2027 = _2026 * 8;
        int32_t  const _2028 = ::halide_cpp_min(_2027, _attn_lk);
        int32_t  const _2029 = ::halide_cpp_max(_2024, _2028);
        int32_t  const _2030 = ::halide_cpp_min(_88, 1024);
        int32_t  const _2031 = _2030 >> 6;
        int32_t  const _2032 = _attn_rows + 3;
        int32_t  const _2033 = _2032 >> 2;
        for (int _pv_blocks_s1_rkb__x = 0; _pv_blocks_s1_rkb__x < 0 + _2031; _pv_blocks_s1_rkb__x++)
        {
         int32_t  const _2034 = _pv_blocks_s1_rkb__x * 64;
         int32_t  const _2035 = _2034 + _2029;
         for (int _pv_blocks_s1_ii_ig = 0; _pv_blocks_s1_ii_ig < 0 + _2033; _pv_blocks_s1_ii_ig++)
         {
          {
           float _pv_block[256];
           // produce pv_block
           float  const _2036 = float_from_bits(0 /* 0 */);
           float16  const _2037 = float16_ops::broadcast(_2036);
           float16_ops::store(_2037, _pv_block, int64_t(0));
           float  const _2038 = float_from_bits(0 /* 0 */);
           float16  const _2039 = float16_ops::broadcast(_2038);
           float16_ops::store(_2039, _pv_block, int64_t(16));
           float  const _2040 = float_from_bits(0 /* 0 */);
           float16  const _2041 = float16_ops::broadcast(_2040);
           float16_ops::store(_2041, _pv_block, int64_t(32));
           float  const _2042 = float_from_bits(0 /* 0 */);
           float16  const _2043 = float16_ops::broadcast(_2042);
           float16_ops::store(_2043, _pv_block, int64_t(48));
           float  const _2044 = float_from_bits(0 /* 0 */);
           float16  const _2045 = float16_ops::broadcast(_2044);
           float16_ops::store(_2045, _pv_block, int64_t(64));
           float  const _2046 = float_from_bits(0 /* 0 */);
           float16  const _2047 = float16_ops::broadcast(_2046);
           float16_ops::store(_2047, _pv_block, int64_t(80));
           float  const _2048 = float_from_bits(0 /* 0 */);
           float16  const _2049 = float16_ops::broadcast(_2048);
           float16_ops::store(_2049, _pv_block, int64_t(96));
           float  const _2050 = float_from_bits(0 /* 0 */);
           float16  const _2051 = float16_ops::broadcast(_2050);
           float16_ops::store(_2051, _pv_block, int64_t(112));
           float  const _2052 = float_from_bits(0 /* 0 */);
           float16  const _2053 = float16_ops::broadcast(_2052);
           float16_ops::store(_2053, _pv_block, int64_t(128));
           float  const _2054 = float_from_bits(0 /* 0 */);
           float16  const _2055 = float16_ops::broadcast(_2054);
           float16_ops::store(_2055, _pv_block, int64_t(144));
           float  const _2056 = float_from_bits(0 /* 0 */);
           float16  const _2057 = float16_ops::broadcast(_2056);
           float16_ops::store(_2057, _pv_block, int64_t(160));
           float  const _2058 = float_from_bits(0 /* 0 */);
           float16  const _2059 = float16_ops::broadcast(_2058);
           float16_ops::store(_2059, _pv_block, int64_t(176));
           float  const _2060 = float_from_bits(0 /* 0 */);
           float16  const _2061 = float16_ops::broadcast(_2060);
           float16_ops::store(_2061, _pv_block, int64_t(192));
           float  const _2062 = float_from_bits(0 /* 0 */);
           float16  const _2063 = float16_ops::broadcast(_2062);
           float16_ops::store(_2063, _pv_block, int64_t(208));
           float  const _2064 = float_from_bits(0 /* 0 */);
           float16  const _2065 = float16_ops::broadcast(_2064);
           float16_ops::store(_2065, _pv_block, int64_t(224));
           float  const _2066 = float_from_bits(0 /* 0 */);
           float16  const _2067 = float16_ops::broadcast(_2066);
           float16_ops::store(_2067, _pv_block, int64_t(240));
           int32_t  const _2068 = _2035 - _1825;
           for (int _pv_block_s1_rki__x = 0; _pv_block_s1_rki__x < 0 + 64; _pv_block_s1_rki__x++)
           {
            float16  const _2069 = float16_ops::load(_pv_block, int64_t(0));
            int64_t  const _2070 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _2071 = (int64_t)(_2035);
            int64_t  const _2072 = _2070 + _2071;
            int64_t  const _2073 = _2072 * int64_t(64);
            float16  const _2074 = float16_ops::load(_attn_v, _2073);
            int64_t  const _2075 = (int64_t)(_2068);
            int64_t  const _2076 = _2070 + _2075;
            int64_t  const _2077 = _2076 * int64_t(8);
            int64_t  const _2078 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _2079 = _2077 + _2078;
            int64_t  const _2080 = _2079 * int64_t(4);
            float  const _2081 = _probs[_2080];
            float16  const _2082 = float16_ops::broadcast(_2081);
            float16  const _2083 = _2074 * _2082;
            float16  const _2084 = _2069 + _2083;
            float16_ops::store(_2084, _pv_block, int64_t(0));
            float16  const _2085 = float16_ops::load(_pv_block, int64_t(16));
            int64_t  const _2086 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _2087 = (int64_t)(_2035);
            int64_t  const _2088 = _2086 + _2087;
            int64_t  const _2089 = _2088 * int64_t(64);
            int64_t  const _2090 = _2089 + int64_t(16);
            float16  const _2091 = float16_ops::load(_attn_v, _2090);
            int64_t  const _2092 = (int64_t)(_2068);
            int64_t  const _2093 = _2086 + _2092;
            int64_t  const _2094 = _2093 * int64_t(8);
            int64_t  const _2095 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _2096 = _2094 + _2095;
            int64_t  const _2097 = _2096 * int64_t(4);
            float  const _2098 = _probs[_2097];
            float16  const _2099 = float16_ops::broadcast(_2098);
            float16  const _2100 = _2091 * _2099;
            float16  const _2101 = _2085 + _2100;
            float16_ops::store(_2101, _pv_block, int64_t(16));
            float16  const _2102 = float16_ops::load(_pv_block, int64_t(32));
            int64_t  const _2103 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _2104 = (int64_t)(_2035);
            int64_t  const _2105 = _2103 + _2104;
            int64_t  const _2106 = _2105 * int64_t(64);
            int64_t  const _2107 = _2106 + int64_t(32);
            float16  const _2108 = float16_ops::load(_attn_v, _2107);
            int64_t  const _2109 = (int64_t)(_2068);
            int64_t  const _2110 = _2103 + _2109;
            int64_t  const _2111 = _2110 * int64_t(8);
            int64_t  const _2112 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _2113 = _2111 + _2112;
            int64_t  const _2114 = _2113 * int64_t(4);
            float  const _2115 = _probs[_2114];
            float16  const _2116 = float16_ops::broadcast(_2115);
            float16  const _2117 = _2108 * _2116;
            float16  const _2118 = _2102 + _2117;
            float16_ops::store(_2118, _pv_block, int64_t(32));
            float16  const _2119 = float16_ops::load(_pv_block, int64_t(48));
            int64_t  const _2120 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _2121 = (int64_t)(_2035);
            int64_t  const _2122 = _2120 + _2121;
            int64_t  const _2123 = _2122 * int64_t(64);
            int64_t  const _2124 = _2123 + int64_t(48);
            float16  const _2125 = float16_ops::load(_attn_v, _2124);
            int64_t  const _2126 = (int64_t)(_2068);
            int64_t  const _2127 = _2120 + _2126;
            int64_t  const _2128 = _2127 * int64_t(8);
            int64_t  const _2129 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _2130 = _2128 + _2129;
            int64_t  const _2131 = _2130 * int64_t(4);
            float  const _2132 = _probs[_2131];
            float16  const _2133 = float16_ops::broadcast(_2132);
            float16  const _2134 = _2125 * _2133;
            float16  const _2135 = _2119 + _2134;
            float16_ops::store(_2135, _pv_block, int64_t(48));
            float16  const _2136 = float16_ops::load(_pv_block, int64_t(64));
            int64_t  const _2137 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _2138 = (int64_t)(_2035);
            int64_t  const _2139 = _2137 + _2138;
            int64_t  const _2140 = _2139 * int64_t(64);
            float16  const _2141 = float16_ops::load(_attn_v, _2140);
            int64_t  const _2142 = (int64_t)(_2068);
            int64_t  const _2143 = _2137 + _2142;
            int64_t  const _2144 = _2143 * int64_t(8);
            int64_t  const _2145 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _2146 = _2144 + _2145;
            int64_t  const _2147 = _2146 * int64_t(4);
            int64_t  const _2148 = _2147 + int64_t(1);
            float  const _2149 = _probs[_2148];
            float16  const _2150 = float16_ops::broadcast(_2149);
            float16  const _2151 = _2141 * _2150;
            float16  const _2152 = _2136 + _2151;
            float16_ops::store(_2152, _pv_block, int64_t(64));
            float16  const _2153 = float16_ops::load(_pv_block, int64_t(80));
            int64_t  const _2154 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _2155 = (int64_t)(_2035);
            int64_t  const _2156 = _2154 + _2155;
            int64_t  const _2157 = _2156 * int64_t(64);
            int64_t  const _2158 = _2157 + int64_t(16);
            float16  const _2159 = float16_ops::load(_attn_v, _2158);
            int64_t  const _2160 = (int64_t)(_2068);
            int64_t  const _2161 = _2154 + _2160;
            int64_t  const _2162 = _2161 * int64_t(8);
            int64_t  const _2163 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _2164 = _2162 + _2163;
            int64_t  const _2165 = _2164 * int64_t(4);
            int64_t  const _2166 = _2165 + int64_t(1);
            float  const _2167 = _probs[_2166];
            float16  const _2168 = float16_ops::broadcast(_2167);
            float16  const _2169 = _2159 * _2168;
            float16  const _2170 = _2153 + _2169;
            float16_ops::store(_2170, _pv_block, int64_t(80));
            float16  const _2171 = float16_ops::load(_pv_block, int64_t(96));
            int64_t  const _2172 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _2173 = (int64_t)(_2035);
            int64_t  const _2174 = _2172 + _2173;
            int64_t  const _2175 = _2174 * int64_t(64);
            int64_t  const _2176 = _2175 + int64_t(32);
            float16  const _2177 = float16_ops::load(_attn_v, _2176);
            int64_t  const _2178 = (int64_t)(_2068);
            int64_t  const _2179 = _2172 + _2178;
            int64_t  const _2180 = _2179 * int64_t(8);
            int64_t  const _2181 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _2182 = _2180 + _2181;
            int64_t  const _2183 = _2182 * int64_t(4);
            int64_t  const _2184 = _2183 + int64_t(1);
            float  const _2185 = _probs[_2184];
            float16  const _2186 = float16_ops::broadcast(_2185);
            float16  const _2187 = _2177 * _2186;
            float16  const _2188 = _2171 + _2187;
            float16_ops::store(_2188, _pv_block, int64_t(96));
            float16  const _2189 = float16_ops::load(_pv_block, int64_t(112));
            int64_t  const _2190 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _2191 = (int64_t)(_2035);
            int64_t  const _2192 = _2190 + _2191;
            int64_t  const _2193 = _2192 * int64_t(64);
            int64_t  const _2194 = _2193 + int64_t(48);
            float16  const _2195 = float16_ops::load(_attn_v, _2194);
            int64_t  const _2196 = (int64_t)(_2068);
            int64_t  const _2197 = _2190 + _2196;
            int64_t  const _2198 = _2197 * int64_t(8);
            int64_t  const _2199 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _2200 = _2198 + _2199;
            int64_t  const _2201 = _2200 * int64_t(4);
            int64_t  const _2202 = _2201 + int64_t(1);
            float  const _2203 = _probs[_2202];
            float16  const _2204 = float16_ops::broadcast(_2203);
            float16  const _2205 = _2195 * _2204;
            float16  const _2206 = _2189 + _2205;
            float16_ops::store(_2206, _pv_block, int64_t(112));
            float16  const _2207 = float16_ops::load(_pv_block, int64_t(128));
            int64_t  const _2208 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _2209 = (int64_t)(_2035);
            int64_t  const _2210 = _2208 + _2209;
            int64_t  const _2211 = _2210 * int64_t(64);
            float16  const _2212 = float16_ops::load(_attn_v, _2211);
            int64_t  const _2213 = (int64_t)(_2068);
            int64_t  const _2214 = _2208 + _2213;
            int64_t  const _2215 = _2214 * int64_t(8);
            int64_t  const _2216 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _2217 = _2215 + _2216;
            int64_t  const _2218 = _2217 * int64_t(4);
            int64_t  const _2219 = _2218 + int64_t(2);
            float  const _2220 = _probs[_2219];
            float16  const _2221 = float16_ops::broadcast(_2220);
            float16  const _2222 = _2212 * _2221;
            float16  const _2223 = _2207 + _2222;
            float16_ops::store(_2223, _pv_block, int64_t(128));
            float16  const _2224 = float16_ops::load(_pv_block, int64_t(144));
            int64_t  const _2225 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _2226 = (int64_t)(_2035);
            int64_t  const _2227 = _2225 + _2226;
            int64_t  const _2228 = _2227 * int64_t(64);
            int64_t  const _2229 = _2228 + int64_t(16);
            float16  const _2230 = float16_ops::load(_attn_v, _2229);
            int64_t  const _2231 = (int64_t)(_2068);
            int64_t  const _2232 = _2225 + _2231;
            int64_t  const _2233 = _2232 * int64_t(8);
            int64_t  const _2234 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _2235 = _2233 + _2234;
            int64_t  const _2236 = _2235 * int64_t(4);
            int64_t  const _2237 = _2236 + int64_t(2);
            float  const _2238 = _probs[_2237];
            float16  const _2239 = float16_ops::broadcast(_2238);
            float16  const _2240 = _2230 * _2239;
            float16  const _2241 = _2224 + _2240;
            float16_ops::store(_2241, _pv_block, int64_t(144));
            float16  const _2242 = float16_ops::load(_pv_block, int64_t(160));
            int64_t  const _2243 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _2244 = (int64_t)(_2035);
            int64_t  const _2245 = _2243 + _2244;
            int64_t  const _2246 = _2245 * int64_t(64);
            int64_t  const _2247 = _2246 + int64_t(32);
            float16  const _2248 = float16_ops::load(_attn_v, _2247);
            int64_t  const _2249 = (int64_t)(_2068);
            int64_t  const _2250 = _2243 + _2249;
            int64_t  const _2251 = _2250 * int64_t(8);
            int64_t  const _2252 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _2253 = _2251 + _2252;
            int64_t  const _2254 = _2253 * int64_t(4);
            int64_t  const _2255 = _2254 + int64_t(2);
            float  const _2256 = _probs[_2255];
            float16  const _2257 = float16_ops::broadcast(_2256);
            float16  const _2258 = _2248 * _2257;
            float16  const _2259 = _2242 + _2258;
            float16_ops::store(_2259, _pv_block, int64_t(160));
            float16  const _2260 = float16_ops::load(_pv_block, int64_t(176));
            int64_t  const _2261 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _2262 = (int64_t)(_2035);
            int64_t  const _2263 = _2261 + _2262;
            int64_t  const _2264 = _2263 * int64_t(64);
            int64_t  const _2265 = _2264 + int64_t(48);
            float16  const _2266 = float16_ops::load(_attn_v, _2265);
            int64_t  const _2267 = (int64_t)(_2068);
            int64_t  const _2268 = _2261 + _2267;
            int64_t  const _2269 = _2268 * int64_t(8);
            int64_t  const _2270 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _2271 = _2269 + _2270;
            int64_t  const _2272 = _2271 * int64_t(4);
            int64_t  const _2273 = _2272 + int64_t(2);
            float  const _2274 = _probs[_2273];
            float16  const _2275 = float16_ops::broadcast(_2274);
            float16  const _2276 = _2266 * _2275;
            float16  const _2277 = _2260 + _2276;
            float16_ops::store(_2277, _pv_block, int64_t(176));
            float16  const _2278 = float16_ops::load(_pv_block, int64_t(192));
            int64_t  const _2279 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _2280 = (int64_t)(_2035);
            int64_t  const _2281 = _2279 + _2280;
            int64_t  const _2282 = _2281 * int64_t(64);
            float16  const _2283 = float16_ops::load(_attn_v, _2282);
            int64_t  const _2284 = (int64_t)(_2068);
            int64_t  const _2285 = _2279 + _2284;
            int64_t  const _2286 = _2285 * int64_t(8);
            int64_t  const _2287 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _2288 = _2286 + _2287;
            int64_t  const _2289 = _2288 * int64_t(4);
            int64_t  const _2290 = _2289 + int64_t(3);
            float  const _2291 = _probs[_2290];
            float16  const _2292 = float16_ops::broadcast(_2291);
            float16  const _2293 = _2283 * _2292;
            float16  const _2294 = _2278 + _2293;
            float16_ops::store(_2294, _pv_block, int64_t(192));
            float16  const _2295 = float16_ops::load(_pv_block, int64_t(208));
            int64_t  const _2296 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _2297 = (int64_t)(_2035);
            int64_t  const _2298 = _2296 + _2297;
            int64_t  const _2299 = _2298 * int64_t(64);
            int64_t  const _2300 = _2299 + int64_t(16);
            float16  const _2301 = float16_ops::load(_attn_v, _2300);
            int64_t  const _2302 = (int64_t)(_2068);
            int64_t  const _2303 = _2296 + _2302;
            int64_t  const _2304 = _2303 * int64_t(8);
            int64_t  const _2305 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _2306 = _2304 + _2305;
            int64_t  const _2307 = _2306 * int64_t(4);
            int64_t  const _2308 = _2307 + int64_t(3);
            float  const _2309 = _probs[_2308];
            float16  const _2310 = float16_ops::broadcast(_2309);
            float16  const _2311 = _2301 * _2310;
            float16  const _2312 = _2295 + _2311;
            float16_ops::store(_2312, _pv_block, int64_t(208));
            float16  const _2313 = float16_ops::load(_pv_block, int64_t(224));
            int64_t  const _2314 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _2315 = (int64_t)(_2035);
            int64_t  const _2316 = _2314 + _2315;
            int64_t  const _2317 = _2316 * int64_t(64);
            int64_t  const _2318 = _2317 + int64_t(32);
            float16  const _2319 = float16_ops::load(_attn_v, _2318);
            int64_t  const _2320 = (int64_t)(_2068);
            int64_t  const _2321 = _2314 + _2320;
            int64_t  const _2322 = _2321 * int64_t(8);
            int64_t  const _2323 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _2324 = _2322 + _2323;
            int64_t  const _2325 = _2324 * int64_t(4);
            int64_t  const _2326 = _2325 + int64_t(3);
            float  const _2327 = _probs[_2326];
            float16  const _2328 = float16_ops::broadcast(_2327);
            float16  const _2329 = _2319 * _2328;
            float16  const _2330 = _2313 + _2329;
            float16_ops::store(_2330, _pv_block, int64_t(224));
            float16  const _2331 = float16_ops::load(_pv_block, int64_t(240));
            int64_t  const _2332 = (int64_t)(_pv_block_s1_rki__x);
            int64_t  const _2333 = (int64_t)(_2035);
            int64_t  const _2334 = _2332 + _2333;
            int64_t  const _2335 = _2334 * int64_t(64);
            int64_t  const _2336 = _2335 + int64_t(48);
            float16  const _2337 = float16_ops::load(_attn_v, _2336);
            int64_t  const _2338 = (int64_t)(_2068);
            int64_t  const _2339 = _2332 + _2338;
            int64_t  const _2340 = _2339 * int64_t(8);
            int64_t  const _2341 = (int64_t)(_pv_blocks_s1_ii_ig);
            int64_t  const _2342 = _2340 + _2341;
            int64_t  const _2343 = _2342 * int64_t(4);
            int64_t  const _2344 = _2343 + int64_t(3);
            float  const _2345 = _probs[_2344];
            float16  const _2346 = float16_ops::broadcast(_2345);
            float16  const _2347 = _2337 * _2346;
            float16  const _2348 = _2331 + _2347;
            float16_ops::store(_2348, _pv_block, int64_t(240));
           } // for _pv_block_s1_rki__x
           // consume pv_block
           int64_t  const _2349 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _2350 = _2349 * int64_t(256);
           float16  const _2351 = float16_ops::load(_pv_blocks, _2350);
           float16  const _2352 = float16_ops::load(_pv_block, int64_t(0));
           float16  const _2353 = _2351 + _2352;
           float16_ops::store(_2353, _pv_blocks, _2350);
           int64_t  const _2354 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _2355 = _2354 * int64_t(256);
           int64_t  const _2356 = _2355 + int64_t(16);
           float16  const _2357 = float16_ops::load(_pv_blocks, _2356);
           float16  const _2358 = float16_ops::load(_pv_block, int64_t(16));
           float16  const _2359 = _2357 + _2358;
           float16_ops::store(_2359, _pv_blocks, _2356);
           int64_t  const _2360 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _2361 = _2360 * int64_t(256);
           int64_t  const _2362 = _2361 + int64_t(32);
           float16  const _2363 = float16_ops::load(_pv_blocks, _2362);
           float16  const _2364 = float16_ops::load(_pv_block, int64_t(32));
           float16  const _2365 = _2363 + _2364;
           float16_ops::store(_2365, _pv_blocks, _2362);
           int64_t  const _2366 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _2367 = _2366 * int64_t(256);
           int64_t  const _2368 = _2367 + int64_t(48);
           float16  const _2369 = float16_ops::load(_pv_blocks, _2368);
           float16  const _2370 = float16_ops::load(_pv_block, int64_t(48));
           float16  const _2371 = _2369 + _2370;
           float16_ops::store(_2371, _pv_blocks, _2368);
           int64_t  const _2372 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _2373 = _2372 * int64_t(256);
           int64_t  const _2374 = _2373 + int64_t(64);
           float16  const _2375 = float16_ops::load(_pv_blocks, _2374);
           float16  const _2376 = float16_ops::load(_pv_block, int64_t(64));
           float16  const _2377 = _2375 + _2376;
           float16_ops::store(_2377, _pv_blocks, _2374);
           int64_t  const _2378 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _2379 = _2378 * int64_t(256);
           int64_t  const _2380 = _2379 + int64_t(80);
           float16  const _2381 = float16_ops::load(_pv_blocks, _2380);
           float16  const _2382 = float16_ops::load(_pv_block, int64_t(80));
           float16  const _2383 = _2381 + _2382;
           float16_ops::store(_2383, _pv_blocks, _2380);
           int64_t  const _2384 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _2385 = _2384 * int64_t(256);
           int64_t  const _2386 = _2385 + int64_t(96);
           float16  const _2387 = float16_ops::load(_pv_blocks, _2386);
           float16  const _2388 = float16_ops::load(_pv_block, int64_t(96));
           float16  const _2389 = _2387 + _2388;
           float16_ops::store(_2389, _pv_blocks, _2386);
           int64_t  const _2390 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _2391 = _2390 * int64_t(256);
           int64_t  const _2392 = _2391 + int64_t(112);
           float16  const _2393 = float16_ops::load(_pv_blocks, _2392);
           float16  const _2394 = float16_ops::load(_pv_block, int64_t(112));
           float16  const _2395 = _2393 + _2394;
           float16_ops::store(_2395, _pv_blocks, _2392);
           int64_t  const _2396 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _2397 = _2396 * int64_t(256);
           int64_t  const _2398 = _2397 + int64_t(128);
           float16  const _2399 = float16_ops::load(_pv_blocks, _2398);
           float16  const _2400 = float16_ops::load(_pv_block, int64_t(128));
           float16  const _2401 = _2399 + _2400;
           float16_ops::store(_2401, _pv_blocks, _2398);
           int64_t  const _2402 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _2403 = _2402 * int64_t(256);
           int64_t  const _2404 = _2403 + int64_t(144);
           float16  const _2405 = float16_ops::load(_pv_blocks, _2404);
           float16  const _2406 = float16_ops::load(_pv_block, int64_t(144));
           float16  const _2407 = _2405 + _2406;
           float16_ops::store(_2407, _pv_blocks, _2404);
           int64_t  const _2408 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _2409 = _2408 * int64_t(256);
           int64_t  const _2410 = _2409 + int64_t(160);
           float16  const _2411 = float16_ops::load(_pv_blocks, _2410);
           float16  const _2412 = float16_ops::load(_pv_block, int64_t(160));
           float16  const _2413 = _2411 + _2412;
           float16_ops::store(_2413, _pv_blocks, _2410);
           int64_t  const _2414 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _2415 = _2414 * int64_t(256);
           int64_t  const _2416 = _2415 + int64_t(176);
           float16  const _2417 = float16_ops::load(_pv_blocks, _2416);
           float16  const _2418 = float16_ops::load(_pv_block, int64_t(176));
           float16  const _2419 = _2417 + _2418;
           float16_ops::store(_2419, _pv_blocks, _2416);
           int64_t  const _2420 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _2421 = _2420 * int64_t(256);
           int64_t  const _2422 = _2421 + int64_t(192);
           float16  const _2423 = float16_ops::load(_pv_blocks, _2422);
           float16  const _2424 = float16_ops::load(_pv_block, int64_t(192));
           float16  const _2425 = _2423 + _2424;
           float16_ops::store(_2425, _pv_blocks, _2422);
           int64_t  const _2426 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _2427 = _2426 * int64_t(256);
           int64_t  const _2428 = _2427 + int64_t(208);
           float16  const _2429 = float16_ops::load(_pv_blocks, _2428);
           float16  const _2430 = float16_ops::load(_pv_block, int64_t(208));
           float16  const _2431 = _2429 + _2430;
           float16_ops::store(_2431, _pv_blocks, _2428);
           int64_t  const _2432 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _2433 = _2432 * int64_t(256);
           int64_t  const _2434 = _2433 + int64_t(224);
           float16  const _2435 = float16_ops::load(_pv_blocks, _2434);
           float16  const _2436 = float16_ops::load(_pv_block, int64_t(224));
           float16  const _2437 = _2435 + _2436;
           float16_ops::store(_2437, _pv_blocks, _2434);
           int64_t  const _2438 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _2439 = _2438 * int64_t(256);
           int64_t  const _2440 = _2439 + int64_t(240);
           float16  const _2441 = float16_ops::load(_pv_blocks, _2440);
           float16  const _2442 = float16_ops::load(_pv_block, int64_t(240));
           float16  const _2443 = _2441 + _2442;
           float16_ops::store(_2443, _pv_blocks, _2440);
          } // alloc _pv_block
         } // for _pv_blocks_s1_ii_ig
        } // for _pv_blocks_s1_rkb__x
        {
         int64_t  const _2444 = 64;
         int32_t  const _2445 = _attn_rows + 3;
         int32_t  const _2446 = _2445 >> 2;
         int32_t  const _2447 = _2446 * 4;
         int64_t  const _2448 = _2444 * _2447;
         if ((_2448 > ((int64_t(1) << 31) - 1)) || ((_2448 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
         {
          attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation pv\n");
          return -1;
         } // overflow test pv
         int64_t  const _2449 = _2448;
         float *_pv = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_2449);
         if (!_pv)
         {
          int32_t  const _2450 = attn_causal64_rt_error_out_of_memory(_ucon);
          return _2450;
         }
         HalideFreeHelper _pv_free(_ucon, _pv, attn_causal64_rt_free);
         // produce pv
         // consume pv_blocks
         int32_t  const _2451 = _attn_rows + 3;
         int32_t  const _2452 = _2451 >> 2;
         int32_t  const _2453 = _2452 * 4;
         for (int _pv_s0_ii = 0; _pv_s0_ii < 0 + _2453; _pv_s0_ii++)
         {
          int32_t  const _2454 = _pv_s0_ii * 4;
          for (int _pv_s0_c_c = 0; _pv_s0_c_c < 0 + 4; _pv_s0_c_c++)
          {
           int32_t  const _2455 = _pv_s0_c_c + _2454;
           int64_t  const _2456 = (int64_t)(_2455);
           int64_t  const _2457 = _2456 * int64_t(16);
           float16  const _2458 = float16_ops::load(_pv_blocks, _2457);
           float16_ops::store(_2458, _pv, _2457);
          } // for _pv_s0_c_c
         } // for _pv_s0_ii
         _pv_blocks_free.free();
         // consume probs
         int32_t  const _2459 = _attn_rows + 3;
         int32_t  const _2460 = _2459 >> 2;
         int32_t  const _2461 = _87 - _92;
         int32_t  const _2462 = _92 - _1825;
         for (int _pv_s1_ii_ig = 0; _pv_s1_ii_ig < 0 + _2460; _pv_s1_ii_ig++)
         {
          for (int _pv_s1_rkt__x_rebased = 0; _pv_s1_rkt__x_rebased < 0 + _2461; _pv_s1_rkt__x_rebased++)
          {
           int64_t  const _2463 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2464 = _2463 * int64_t(256);
           float16  const _2465 = float16_ops::load(_pv, _2464);
           int64_t  const _2466 = (int64_t)(_92);
           int64_t  const _2467 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2468 = _2466 + _2467;
           int64_t  const _2469 = _2468 * int64_t(64);
           float16  const _2470 = float16_ops::load(_attn_v, _2469);
           int64_t  const _2471 = (int64_t)(_2462);
           int64_t  const _2472 = _2467 + _2471;
           int64_t  const _2473 = _2472 * int64_t(8);
           int64_t  const _2474 = _2473 + _2463;
           int64_t  const _2475 = _2474 * int64_t(4);
           float  const _2476 = _probs[_2475];
           float16  const _2477 = float16_ops::broadcast(_2476);
           float16  const _2478 = _2470 * _2477;
           float16  const _2479 = _2465 + _2478;
           float16_ops::store(_2479, _pv, _2464);
           int64_t  const _2480 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2481 = _2480 * int64_t(256);
           int64_t  const _2482 = _2481 + int64_t(16);
           float16  const _2483 = float16_ops::load(_pv, _2482);
           int64_t  const _2484 = (int64_t)(_92);
           int64_t  const _2485 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2486 = _2484 + _2485;
           int64_t  const _2487 = _2486 * int64_t(64);
           int64_t  const _2488 = _2487 + int64_t(16);
           float16  const _2489 = float16_ops::load(_attn_v, _2488);
           int64_t  const _2490 = (int64_t)(_2462);
           int64_t  const _2491 = _2485 + _2490;
           int64_t  const _2492 = _2491 * int64_t(8);
           int64_t  const _2493 = _2492 + _2480;
           int64_t  const _2494 = _2493 * int64_t(4);
           float  const _2495 = _probs[_2494];
           float16  const _2496 = float16_ops::broadcast(_2495);
           float16  const _2497 = _2489 * _2496;
           float16  const _2498 = _2483 + _2497;
           float16_ops::store(_2498, _pv, _2482);
           int64_t  const _2499 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2500 = _2499 * int64_t(256);
           int64_t  const _2501 = _2500 + int64_t(32);
           float16  const _2502 = float16_ops::load(_pv, _2501);
           int64_t  const _2503 = (int64_t)(_92);
           int64_t  const _2504 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2505 = _2503 + _2504;
           int64_t  const _2506 = _2505 * int64_t(64);
           int64_t  const _2507 = _2506 + int64_t(32);
           float16  const _2508 = float16_ops::load(_attn_v, _2507);
           int64_t  const _2509 = (int64_t)(_2462);
           int64_t  const _2510 = _2504 + _2509;
           int64_t  const _2511 = _2510 * int64_t(8);
           int64_t  const _2512 = _2511 + _2499;
           int64_t  const _2513 = _2512 * int64_t(4);
           float  const _2514 = _probs[_2513];
           float16  const _2515 = float16_ops::broadcast(_2514);
           float16  const _2516 = _2508 * _2515;
           float16  const _2517 = _2502 + _2516;
           float16_ops::store(_2517, _pv, _2501);
           int64_t  const _2518 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2519 = _2518 * int64_t(256);
           int64_t  const _2520 = _2519 + int64_t(48);
           float16  const _2521 = float16_ops::load(_pv, _2520);
           int64_t  const _2522 = (int64_t)(_92);
           int64_t  const _2523 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2524 = _2522 + _2523;
           int64_t  const _2525 = _2524 * int64_t(64);
           int64_t  const _2526 = _2525 + int64_t(48);
           float16  const _2527 = float16_ops::load(_attn_v, _2526);
           int64_t  const _2528 = (int64_t)(_2462);
           int64_t  const _2529 = _2523 + _2528;
           int64_t  const _2530 = _2529 * int64_t(8);
           int64_t  const _2531 = _2530 + _2518;
           int64_t  const _2532 = _2531 * int64_t(4);
           float  const _2533 = _probs[_2532];
           float16  const _2534 = float16_ops::broadcast(_2533);
           float16  const _2535 = _2527 * _2534;
           float16  const _2536 = _2521 + _2535;
           float16_ops::store(_2536, _pv, _2520);
           int64_t  const _2537 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2538 = _2537 * int64_t(256);
           int64_t  const _2539 = _2538 + int64_t(64);
           float16  const _2540 = float16_ops::load(_pv, _2539);
           int64_t  const _2541 = (int64_t)(_92);
           int64_t  const _2542 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2543 = _2541 + _2542;
           int64_t  const _2544 = _2543 * int64_t(64);
           float16  const _2545 = float16_ops::load(_attn_v, _2544);
           int64_t  const _2546 = (int64_t)(_2462);
           int64_t  const _2547 = _2542 + _2546;
           int64_t  const _2548 = _2547 * int64_t(8);
           int64_t  const _2549 = _2548 + _2537;
           int64_t  const _2550 = _2549 * int64_t(4);
           int64_t  const _2551 = _2550 + int64_t(1);
           float  const _2552 = _probs[_2551];
           float16  const _2553 = float16_ops::broadcast(_2552);
           float16  const _2554 = _2545 * _2553;
           float16  const _2555 = _2540 + _2554;
           float16_ops::store(_2555, _pv, _2539);
           int64_t  const _2556 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2557 = _2556 * int64_t(256);
           int64_t  const _2558 = _2557 + int64_t(80);
           float16  const _2559 = float16_ops::load(_pv, _2558);
           int64_t  const _2560 = (int64_t)(_92);
           int64_t  const _2561 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2562 = _2560 + _2561;
           int64_t  const _2563 = _2562 * int64_t(64);
           int64_t  const _2564 = _2563 + int64_t(16);
           float16  const _2565 = float16_ops::load(_attn_v, _2564);
           int64_t  const _2566 = (int64_t)(_2462);
           int64_t  const _2567 = _2561 + _2566;
           int64_t  const _2568 = _2567 * int64_t(8);
           int64_t  const _2569 = _2568 + _2556;
           int64_t  const _2570 = _2569 * int64_t(4);
           int64_t  const _2571 = _2570 + int64_t(1);
           float  const _2572 = _probs[_2571];
           float16  const _2573 = float16_ops::broadcast(_2572);
           float16  const _2574 = _2565 * _2573;
           float16  const _2575 = _2559 + _2574;
           float16_ops::store(_2575, _pv, _2558);
           int64_t  const _2576 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2577 = _2576 * int64_t(256);
           int64_t  const _2578 = _2577 + int64_t(96);
           float16  const _2579 = float16_ops::load(_pv, _2578);
           int64_t  const _2580 = (int64_t)(_92);
           int64_t  const _2581 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2582 = _2580 + _2581;
           int64_t  const _2583 = _2582 * int64_t(64);
           int64_t  const _2584 = _2583 + int64_t(32);
           float16  const _2585 = float16_ops::load(_attn_v, _2584);
           int64_t  const _2586 = (int64_t)(_2462);
           int64_t  const _2587 = _2581 + _2586;
           int64_t  const _2588 = _2587 * int64_t(8);
           int64_t  const _2589 = _2588 + _2576;
           int64_t  const _2590 = _2589 * int64_t(4);
           int64_t  const _2591 = _2590 + int64_t(1);
           float  const _2592 = _probs[_2591];
           float16  const _2593 = float16_ops::broadcast(_2592);
           float16  const _2594 = _2585 * _2593;
           float16  const _2595 = _2579 + _2594;
           float16_ops::store(_2595, _pv, _2578);
           int64_t  const _2596 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2597 = _2596 * int64_t(256);
           int64_t  const _2598 = _2597 + int64_t(112);
           float16  const _2599 = float16_ops::load(_pv, _2598);
           int64_t  const _2600 = (int64_t)(_92);
           int64_t  const _2601 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2602 = _2600 + _2601;
           int64_t  const _2603 = _2602 * int64_t(64);
           int64_t  const _2604 = _2603 + int64_t(48);
           float16  const _2605 = float16_ops::load(_attn_v, _2604);
           int64_t  const _2606 = (int64_t)(_2462);
           int64_t  const _2607 = _2601 + _2606;
           int64_t  const _2608 = _2607 * int64_t(8);
           int64_t  const _2609 = _2608 + _2596;
           int64_t  const _2610 = _2609 * int64_t(4);
           int64_t  const _2611 = _2610 + int64_t(1);
           float  const _2612 = _probs[_2611];
           float16  const _2613 = float16_ops::broadcast(_2612);
           float16  const _2614 = _2605 * _2613;
           float16  const _2615 = _2599 + _2614;
           float16_ops::store(_2615, _pv, _2598);
           int64_t  const _2616 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2617 = _2616 * int64_t(256);
           int64_t  const _2618 = _2617 + int64_t(128);
           float16  const _2619 = float16_ops::load(_pv, _2618);
           int64_t  const _2620 = (int64_t)(_92);
           int64_t  const _2621 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2622 = _2620 + _2621;
           int64_t  const _2623 = _2622 * int64_t(64);
           float16  const _2624 = float16_ops::load(_attn_v, _2623);
           int64_t  const _2625 = (int64_t)(_2462);
           int64_t  const _2626 = _2621 + _2625;
           int64_t  const _2627 = _2626 * int64_t(8);
           int64_t  const _2628 = _2627 + _2616;
           int64_t  const _2629 = _2628 * int64_t(4);
           int64_t  const _2630 = _2629 + int64_t(2);
           float  const _2631 = _probs[_2630];
           float16  const _2632 = float16_ops::broadcast(_2631);
           float16  const _2633 = _2624 * _2632;
           float16  const _2634 = _2619 + _2633;
           float16_ops::store(_2634, _pv, _2618);
           int64_t  const _2635 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2636 = _2635 * int64_t(256);
           int64_t  const _2637 = _2636 + int64_t(144);
           float16  const _2638 = float16_ops::load(_pv, _2637);
           int64_t  const _2639 = (int64_t)(_92);
           int64_t  const _2640 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2641 = _2639 + _2640;
           int64_t  const _2642 = _2641 * int64_t(64);
           int64_t  const _2643 = _2642 + int64_t(16);
           float16  const _2644 = float16_ops::load(_attn_v, _2643);
           int64_t  const _2645 = (int64_t)(_2462);
           int64_t  const _2646 = _2640 + _2645;
           int64_t  const _2647 = _2646 * int64_t(8);
           int64_t  const _2648 = _2647 + _2635;
           int64_t  const _2649 = _2648 * int64_t(4);
           int64_t  const _2650 = _2649 + int64_t(2);
           float  const _2651 = _probs[_2650];
           float16  const _2652 = float16_ops::broadcast(_2651);
           float16  const _2653 = _2644 * _2652;
           float16  const _2654 = _2638 + _2653;
           float16_ops::store(_2654, _pv, _2637);
           int64_t  const _2655 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2656 = _2655 * int64_t(256);
           int64_t  const _2657 = _2656 + int64_t(160);
           float16  const _2658 = float16_ops::load(_pv, _2657);
           int64_t  const _2659 = (int64_t)(_92);
           int64_t  const _2660 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2661 = _2659 + _2660;
           int64_t  const _2662 = _2661 * int64_t(64);
           int64_t  const _2663 = _2662 + int64_t(32);
           float16  const _2664 = float16_ops::load(_attn_v, _2663);
           int64_t  const _2665 = (int64_t)(_2462);
           int64_t  const _2666 = _2660 + _2665;
           int64_t  const _2667 = _2666 * int64_t(8);
           int64_t  const _2668 = _2667 + _2655;
           int64_t  const _2669 = _2668 * int64_t(4);
           int64_t  const _2670 = _2669 + int64_t(2);
           float  const _2671 = _probs[_2670];
           float16  const _2672 = float16_ops::broadcast(_2671);
           float16  const _2673 = _2664 * _2672;
           float16  const _2674 = _2658 + _2673;
           float16_ops::store(_2674, _pv, _2657);
           int64_t  const _2675 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2676 = _2675 * int64_t(256);
           int64_t  const _2677 = _2676 + int64_t(176);
           float16  const _2678 = float16_ops::load(_pv, _2677);
           int64_t  const _2679 = (int64_t)(_92);
           int64_t  const _2680 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2681 = _2679 + _2680;
           int64_t  const _2682 = _2681 * int64_t(64);
           int64_t  const _2683 = _2682 + int64_t(48);
           float16  const _2684 = float16_ops::load(_attn_v, _2683);
           int64_t  const _2685 = (int64_t)(_2462);
           int64_t  const _2686 = _2680 + _2685;
           int64_t  const _2687 = _2686 * int64_t(8);
           int64_t  const _2688 = _2687 + _2675;
           int64_t  const _2689 = _2688 * int64_t(4);
           int64_t  const _2690 = _2689 + int64_t(2);
           float  const _2691 = _probs[_2690];
           float16  const _2692 = float16_ops::broadcast(_2691);
           float16  const _2693 = _2684 * _2692;
           float16  const _2694 = _2678 + _2693;
           float16_ops::store(_2694, _pv, _2677);
           int64_t  const _2695 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2696 = _2695 * int64_t(256);
           int64_t  const _2697 = _2696 + int64_t(192);
           float16  const _2698 = float16_ops::load(_pv, _2697);
           int64_t  const _2699 = (int64_t)(_92);
           int64_t  const _2700 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2701 = _2699 + _2700;
           int64_t  const _2702 = _2701 * int64_t(64);
           float16  const _2703 = float16_ops::load(_attn_v, _2702);
           int64_t  const _2704 = (int64_t)(_2462);
           int64_t  const _2705 = _2700 + _2704;
           int64_t  const _2706 = _2705 * int64_t(8);
           int64_t  const _2707 = _2706 + _2695;
           int64_t  const _2708 = _2707 * int64_t(4);
           int64_t  const _2709 = _2708 + int64_t(3);
           float  const _2710 = _probs[_2709];
           float16  const _2711 = float16_ops::broadcast(_2710);
           float16  const _2712 = _2703 * _2711;
           float16  const _2713 = _2698 + _2712;
           float16_ops::store(_2713, _pv, _2697);
           int64_t  const _2714 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2715 = _2714 * int64_t(256);
           int64_t  const _2716 = _2715 + int64_t(208);
           float16  const _2717 = float16_ops::load(_pv, _2716);
           int64_t  const _2718 = (int64_t)(_92);
           int64_t  const _2719 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2720 = _2718 + _2719;
           int64_t  const _2721 = _2720 * int64_t(64);
           int64_t  const _2722 = _2721 + int64_t(16);
           float16  const _2723 = float16_ops::load(_attn_v, _2722);
           int64_t  const _2724 = (int64_t)(_2462);
           int64_t  const _2725 = _2719 + _2724;
           int64_t  const _2726 = _2725 * int64_t(8);
           int64_t  const _2727 = _2726 + _2714;
           int64_t  const _2728 = _2727 * int64_t(4);
           int64_t  const _2729 = _2728 + int64_t(3);
           float  const _2730 = _probs[_2729];
           float16  const _2731 = float16_ops::broadcast(_2730);
           float16  const _2732 = _2723 * _2731;
           float16  const _2733 = _2717 + _2732;
           float16_ops::store(_2733, _pv, _2716);
           int64_t  const _2734 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2735 = _2734 * int64_t(256);
           int64_t  const _2736 = _2735 + int64_t(224);
           float16  const _2737 = float16_ops::load(_pv, _2736);
           int64_t  const _2738 = (int64_t)(_92);
           int64_t  const _2739 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2740 = _2738 + _2739;
           int64_t  const _2741 = _2740 * int64_t(64);
           int64_t  const _2742 = _2741 + int64_t(32);
           float16  const _2743 = float16_ops::load(_attn_v, _2742);
           int64_t  const _2744 = (int64_t)(_2462);
           int64_t  const _2745 = _2739 + _2744;
           int64_t  const _2746 = _2745 * int64_t(8);
           int64_t  const _2747 = _2746 + _2734;
           int64_t  const _2748 = _2747 * int64_t(4);
           int64_t  const _2749 = _2748 + int64_t(3);
           float  const _2750 = _probs[_2749];
           float16  const _2751 = float16_ops::broadcast(_2750);
           float16  const _2752 = _2743 * _2751;
           float16  const _2753 = _2737 + _2752;
           float16_ops::store(_2753, _pv, _2736);
           int64_t  const _2754 = (int64_t)(_pv_s1_ii_ig);
           int64_t  const _2755 = _2754 * int64_t(256);
           int64_t  const _2756 = _2755 + int64_t(240);
           float16  const _2757 = float16_ops::load(_pv, _2756);
           int64_t  const _2758 = (int64_t)(_92);
           int64_t  const _2759 = (int64_t)(_pv_s1_rkt__x_rebased);
           int64_t  const _2760 = _2758 + _2759;
           int64_t  const _2761 = _2760 * int64_t(64);
           int64_t  const _2762 = _2761 + int64_t(48);
           float16  const _2763 = float16_ops::load(_attn_v, _2762);
           int64_t  const _2764 = (int64_t)(_2462);
           int64_t  const _2765 = _2759 + _2764;
           int64_t  const _2766 = _2765 * int64_t(8);
           int64_t  const _2767 = _2766 + _2754;
           int64_t  const _2768 = _2767 * int64_t(4);
           int64_t  const _2769 = _2768 + int64_t(3);
           float  const _2770 = _probs[_2769];
           float16  const _2771 = float16_ops::broadcast(_2770);
           float16  const _2772 = _2763 * _2771;
           float16  const _2773 = _2757 + _2772;
           float16_ops::store(_2773, _pv, _2756);
          } // for _pv_s1_rkt__x_rebased
         } // for _pv_s1_ii_ig
         {
          float _row_sum[32];
          int32_t  const _2774 = ::halide_cpp_max(_84, 0);
          int32_t  const _2775 = _87 - _2774;
          // produce row_sum
          for (int _row_sum_s0_ii_ii = 0; _row_sum_s0_ii_ii < 0 + 2; _row_sum_s0_ii_ii++)
          {
           float  const _2776 = float_from_bits(0 /* 0 */);
           float16  const _2777 = float16_ops::broadcast(_2776);
           int64_t  const _2778 = (int64_t)(_row_sum_s0_ii_ii);
           int64_t  const _2779 = _2778 * int64_t(16);
           float16_ops::store(_2777, _row_sum, _2779);
          } // for _row_sum_s0_ii_ii
          // consume probs
          int32_t  const _2780 = ::halide_cpp_max(_84, 0);
          int32_t  const _2781 = _2780 - _1825;
          for (int _row_sum_s1_rk__x_rebased = 0; _row_sum_s1_rk__x_rebased < 0 + _2775; _row_sum_s1_rk__x_rebased++)
          {
           float16  const _2782 = float16_ops::load(_row_sum, int64_t(0));
           int64_t  const _2783 = (int64_t)(_row_sum_s1_rk__x_rebased);
           int64_t  const _2784 = (int64_t)(_2781);
           int64_t  const _2785 = _2783 + _2784;
           int64_t  const _2786 = _2785 * int64_t(32);
           float16  const _2787 = float16_ops::load(_probs, _2786);
           float16  const _2788 = _2782 + _2787;
           float16_ops::store(_2788, _row_sum, int64_t(0));
           float16  const _2789 = float16_ops::load(_row_sum, int64_t(16));
           int64_t  const _2790 = (int64_t)(_row_sum_s1_rk__x_rebased);
           int64_t  const _2791 = (int64_t)(_2781);
           int64_t  const _2792 = _2790 + _2791;
           int64_t  const _2793 = _2792 * int64_t(32);
           int64_t  const _2794 = _2793 + int64_t(16);
           float16  const _2795 = float16_ops::load(_probs, _2794);
           float16  const _2796 = _2789 + _2795;
           float16_ops::store(_2796, _row_sum, int64_t(16));
          } // for _row_sum_s1_rk__x_rebased
          _probs_free.free();
          {
           float _partial[2560];
           // produce partial
           // consume row_sum
           // consume pv
           // consume row_max
           int32_t  const _2797 = _attn_kv_lo >> 3;
           int32_t  const _2798 = ::halide_cpp_max(_2797, 0);
           int32_t  const _2799 = _2798 * 8;
           int32_t  const _2800 = ::halide_cpp_min(_2799, _attn_lk);
           int32_t  const _2801 = ::halide_cpp_min(_attn_kv_hi, _attn_lk);
           int32_t  const _2802 = _2801 + 7;
           int32_t  const _2803 = _2802 >> 3;
           int32_t  const _2804 = _attn_lq + -1;
           int32_t  const _2805 = _2804 >> 5;
           int32_t  const _2806 = _attn_q_step * 31;
           int32_t  const _2807 = _2806 + _attn_q0;
           int32_t  const _2808 = _2807 >> 5;
           int32_t  const _2809 = _2808 + _attn_tile;
           int32_t  const _2810 = ::halide_cpp_min(_2805, _2809);
           int32_t  const _2811 = _attn_q0 >> 5;
           int32_t  const _2812 = _2811 + _attn_tile;
           int32_t  const _2813 = ::halide_cpp_max(_2810, _2812);
           int32_t  const _2814 = _2813 * 4;
           int32_t  const _2815 = _2814 + 4;
           int32_t  const _2816 = ::halide_cpp_min(_2803, _2815);
           int32_t  const _2817 = _2816 * 8;
           int32_t  const _2818 = ::halide_cpp_min(_2817, _attn_lk);
           int32_t  const _2819 = _attn_rows + 3;
           int32_t  const _2820 = _2819 >> 2;
           int32_t  const _2821 = _2820 * 4;
           int32_t  const _2822 = _attn_chunk_lo >> 3;
           int32_t  const _2823 = _2822 * 8;
           for (int _partial_s0_ii_ig = 0; _partial_s0_ii_ig < 0 + 8; _partial_s0_ii_ig++)
           {
            int32_t  const _2824 = ::halide_cpp_max(_2800, _2818);
            int32_t  const _2825 = _partial_s0_ii_ig * 4;
            for (int _partial_s0_ii_ir = 0; _partial_s0_ii_ir < 0 + 4; _partial_s0_ii_ir++)
            {
             int32_t  const _2826 = _partial_s0_ii_ir + _2825;
             for (int _partial_s0_c_c = 0; _partial_s0_c_c < 0 + 4; _partial_s0_c_c++)
             {
              int64_t  const _2827 = (int64_t)(_2821);
              int64_t  const _2828 = _2827 + int64_t(-1);
              int64_t  const _2829 = (int64_t)(_2826);
              int64_t  const _2830 = ::halide_cpp_min(_2828, _2829);
              int64_t  const _2831 = _2830 * int64_t(4);
              int64_t  const _2832 = (int64_t)(_partial_s0_c_c);
              int64_t  const _2833 = _2831 + _2832;
              int64_t  const _2834 = _2833 * int64_t(16);
              float16  const _2835 = float16_ops::load(_pv, _2834);
              int64_t  const _2836 = _2829 * int64_t(5);
              int64_t  const _2837 = _2836 + _2832;
              int64_t  const _2838 = _2837 * int64_t(16);
              float16_ops::store(_2835, _partial, _2838);
             } // for _partial_s0_c_c
             int32_t  const _2839 = _partial_s0_ii_ir + _2825;
             int64_t  const _2840 = (int64_t)(_2839);
             float  const _2841 = _row_max[_2840];
             float16  const _2842 = float16_ops::broadcast(_2841);
             float  const _2843 = _row_sum[_2840];
             float16  const _2844 = float16_ops::broadcast(_2843);
             int32_t  const _2845 = ::halide_cpp_min(_2823, _2824);
             int32_t  const _2846 = ::halide_cpp_max(_2845, _2800);
             int32_t  const _2847 = _2846 + 1024;
             int32_t  const _2848 = ::halide_cpp_min(_2847, _2824);
             float  const _2849 = reinterpret<float>(_2848);
             float16  const _2850 = float16_ops::broadcast(_2849);
             float  const _2851 = reinterpret<float>(_2824);
             float16  const _2852 = float16_ops::broadcast(_2851);
             int32x16_t  const _2853 = int32x16_t_ops::ramp(-2, 1);
             int32x16_t  const _2854 = int32x16_t_ops::broadcast(0);
             uint8x16_t  const _2855 = int32x16_t_ops::eq(_2853, _2854);
             float16  const _2856 = float16_ops::select(_2855, _2850, _2852);
             int32x16_t  const _2857 = int32x16_t_ops::ramp(-1, 1);
             uint8x16_t  const _2858 = int32x16_t_ops::eq(_2857, _2854);
             float16  const _2859 = float16_ops::select(_2858, _2844, _2856);
             int32x16_t  const _2860 = int32x16_t_ops::ramp(0, 1);
             uint8x16_t  const _2861 = int32x16_t_ops::eq(_2860, _2854);
             float16  const _2862 = float16_ops::select(_2861, _2842, _2859);
             int64_t  const _2863 = _2840 * int64_t(80);
             int64_t  const _2864 = _2863 + int64_t(64);
             float16_ops::store(_2862, _partial, _2864);
            } // for _partial_s0_ii_ir
           } // for _partial_s0_ii_ig
           _pv_free.free();
           // produce attn_out
           // consume partial
           for (int _attn_out_s0_ii = 0; _attn_out_s0_ii < 0 + 32; _attn_out_s0_ii++)
           {
            int32_t  const _2865 = _attn_out_s0_ii * 5;
            for (int _attn_out_s0_c_c = 0; _attn_out_s0_c_c < 0 + 5; _attn_out_s0_c_c++)
            {
             int32_t  const _2866 = _attn_out_s0_c_c + _2865;
             int64_t  const _2867 = (int64_t)(_2866);
             int64_t  const _2868 = _2867 * int64_t(16);
             float16  const _2869 = float16_ops::load(_partial, _2868);
             float16_ops::store(_2869, _attn_out, _2868);
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

// [the source with every path (all_cpu_paths: the matrix paths for bf16): 19683 lines, hash b34c5b74d03d3c83]
