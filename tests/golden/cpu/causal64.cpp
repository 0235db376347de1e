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
// [fixed text: backends/cpu/fixed/HalideVectorOps.h, 839 lines]
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
// [Halide's checks of the arguments of attn_causal64_avx512_pipeline: 662 lines, hash ce7d194e2e441daf]
 {
  float _qs[2048];
  // produce qs
  for (int _qs_s0_ii_ii = 0; _qs_s0_ii_ii < 0 + 2; _qs_s0_ii_ii++)
  {
   for (int _qs_s0_c = 0; _qs_s0_c < 0 + 64; _qs_s0_c++)
   {
    int32_t  const _364 = _qs_s0_ii_ii * 1024;
    int32_t  const _365 = _364 + _qs_s0_c;
    int32x16_t  const _366 = int32x16_t_ops::ramp(_365, 64);
    float16  const _367 = float16_ops::load_gather(_attn_q, _366);
    float  const _368 = float_from_bits(1043900987 /* 0.180337 */);
    float16  const _369 = float16_ops::broadcast(_368);
    float16  const _370 = _367 * _369;
    int64_t  const _371 = (int64_t)(_qs_s0_c);
    int64_t  const _372 = _371 * int64_t(2);
    int64_t  const _373 = (int64_t)(_qs_s0_ii_ii);
    int64_t  const _374 = _372 + _373;
    int64_t  const _375 = _374 * int64_t(16);
    float16_ops::store(_370, _qs, _375);
   } // for _qs_s0_c
  } // for _qs_s0_ii_ii
  {
   int32_t  const _376 = _99 - _100;
   int32_t  const _377 = _376 + -1;
   int32_t  const _378 = _377 >> 3;
   int32_t  const _379 = _378 * 8;
   int32_t  const _380 = _379 + 8;
   int64_t  const _381 = _380;
   int64_t  const _382 = _381 * 32;
   if ((_382 > ((int64_t(1) << 31) - 1)) || ((_382 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
   {
    attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation scores\n");
    return -1;
   } // overflow test scores
   int64_t  const _383 = _382;
   float *_scores = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_383);
   if (!_scores)
   {
    int32_t  const _384 = attn_causal64_rt_error_out_of_memory(_ucon);
    return _384;
   }
   HalideFreeHelper _scores_free(_ucon, _scores, attn_causal64_rt_free);
   // produce scores
   // consume qs
   int32_t  const _385 = _99 + 7;
   int32_t  const _386 = ::halide_cpp_min(_385, _24);
   int32_t  const _387 = _386 - _100;
   int32_t  const _388 = _387 >> 3;
   int32_t  const _389 = ::halide_cpp_max(_388, 0);
   for (int _scores_s0_j_jo = 0; _scores_s0_j_jo < 0 + _389; _scores_s0_j_jo++)
   {
    {
     float _dot[256];
     // produce dot
     float  const _390 = float_from_bits(0 /* 0 */);
     float16  const _391 = float16_ops::broadcast(_390);
     float16_ops::store(_391, _dot, int64_t(0));
     float  const _392 = float_from_bits(0 /* 0 */);
     float16  const _393 = float16_ops::broadcast(_392);
     float16_ops::store(_393, _dot, int64_t(32));
     float  const _394 = float_from_bits(0 /* 0 */);
     float16  const _395 = float16_ops::broadcast(_394);
     float16_ops::store(_395, _dot, int64_t(64));
     float  const _396 = float_from_bits(0 /* 0 */);
     float16  const _397 = float16_ops::broadcast(_396);
     float16_ops::store(_397, _dot, int64_t(96));
     float  const _398 = float_from_bits(0 /* 0 */);
     float16  const _399 = float16_ops::broadcast(_398);
     float16_ops::store(_399, _dot, int64_t(128));
     float  const _400 = float_from_bits(0 /* 0 */);
     float16  const _401 = float16_ops::broadcast(_400);
     float16_ops::store(_401, _dot, int64_t(160));
     float  const _402 = float_from_bits(0 /* 0 */);
     float16  const _403 = float16_ops::broadcast(_402);
     float16_ops::store(_403, _dot, int64_t(192));
     float  const _404 = float_from_bits(0 /* 0 */);
     float16  const _405 = float16_ops::broadcast(_404);
     float16_ops::store(_405, _dot, int64_t(224));
     float  const _406 = float_from_bits(0 /* 0 */);
     float16  const _407 = float16_ops::broadcast(_406);
     float16_ops::store(_407, _dot, int64_t(16));
     float  const _408 = float_from_bits(0 /* 0 */);
     float16  const _409 = float16_ops::broadcast(_408);
     float16_ops::store(_409, _dot, int64_t(48));
     float  const _410 = float_from_bits(0 /* 0 */);
     float16  const _411 = float16_ops::broadcast(_410);
     float16_ops::store(_411, _dot, int64_t(80));
     float  const _412 = float_from_bits(0 /* 0 */);
     float16  const _413 = float16_ops::broadcast(_412);
     float16_ops::store(_413, _dot, int64_t(112));
     float  const _414 = float_from_bits(0 /* 0 */);
     float16  const _415 = float16_ops::broadcast(_414);
     float16_ops::store(_415, _dot, int64_t(144));
     float  const _416 = float_from_bits(0 /* 0 */);
     float16  const _417 = float16_ops::broadcast(_416);
     float16_ops::store(_417, _dot, int64_t(176));
     float  const _418 = float_from_bits(0 /* 0 */);
     float16  const _419 = float16_ops::broadcast(_418);
     float16_ops::store(_419, _dot, int64_t(208));
     float  const _420 = float_from_bits(0 /* 0 */);
     float16  const _421 = float16_ops::broadcast(_420);
     float16_ops::store(_421, _dot, int64_t(240));
     int32_t  const _422 = _scores_s0_j_jo * 8;
     int32_t  const _423 = _422 + _100;
     int32_t  const _424 = _423 * 64;
     for (int _dot_s1_rd__x = 0; _dot_s1_rd__x < 0 + 64; _dot_s1_rd__x++)
     {
      float16  const _425 = float16_ops::load(_dot, int64_t(0));
      int64_t  const _426 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _427 = _426 * int64_t(32);
      float16  const _428 = float16_ops::load(_qs, _427);
      int64_t  const _429 = (int64_t)(_424);
      int64_t  const _430 = _426 + _429;
      float  const _431 = ((float const *)_attn_k)[_430];
      float16  const _432 = float16_ops::broadcast(_431);
      float16  const _433 = _428 * _432;
      float16  const _434 = _425 + _433;
      float16_ops::store(_434, _dot, int64_t(0));
      float16  const _435 = float16_ops::load(_dot, int64_t(16));
      int64_t  const _436 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _437 = _436 * int64_t(32);
      int64_t  const _438 = _437 + int64_t(16);
      float16  const _439 = float16_ops::load(_qs, _438);
      int64_t  const _440 = (int64_t)(_424);
      int64_t  const _441 = _436 + _440;
      float  const _442 = ((float const *)_attn_k)[_441];
      float16  const _443 = float16_ops::broadcast(_442);
      float16  const _444 = _439 * _443;
      float16  const _445 = _435 + _444;
      float16_ops::store(_445, _dot, int64_t(16));
      float16  const _446 = float16_ops::load(_dot, int64_t(32));
      int64_t  const _447 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _448 = _447 * int64_t(32);
      float16  const _449 = float16_ops::load(_qs, _448);
      int64_t  const _450 = (int64_t)(_424);
      int64_t  const _451 = _447 + _450;
      int64_t  const _452 = _451 + int64_t(64);
      float  const _453 = ((float const *)_attn_k)[_452];
      float16  const _454 = float16_ops::broadcast(_453);
      float16  const _455 = _449 * _454;
      float16  const _456 = _446 + _455;
      float16_ops::store(_456, _dot, int64_t(32));
      float16  const _457 = float16_ops::load(_dot, int64_t(48));
      int64_t  const _458 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _459 = _458 * int64_t(32);
      int64_t  const _460 = _459 + int64_t(16);
      float16  const _461 = float16_ops::load(_qs, _460);
      int64_t  const _462 = (int64_t)(_424);
      int64_t  const _463 = _458 + _462;
      int64_t  const _464 = _463 + int64_t(64);
      float  const _465 = ((float const *)_attn_k)[_464];
      float16  const _466 = float16_ops::broadcast(_465);
      float16  const _467 = _461 * _466;
      float16  const _468 = _457 + _467;
      float16_ops::store(_468, _dot, int64_t(48));
      float16  const _469 = float16_ops::load(_dot, int64_t(64));
      int64_t  const _470 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _471 = _470 * int64_t(32);
      float16  const _472 = float16_ops::load(_qs, _471);
      int64_t  const _473 = (int64_t)(_424);
      int64_t  const _474 = _470 + _473;
      int64_t  const _475 = _474 + int64_t(128);
      float  const _476 = ((float const *)_attn_k)[_475];
      float16  const _477 = float16_ops::broadcast(_476);
      float16  const _478 = _472 * _477;
      float16  const _479 = _469 + _478;
      float16_ops::store(_479, _dot, int64_t(64));
      float16  const _480 = float16_ops::load(_dot, int64_t(80));
      int64_t  const _481 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _482 = _481 * int64_t(32);
      int64_t  const _483 = _482 + int64_t(16);
      float16  const _484 = float16_ops::load(_qs, _483);
      int64_t  const _485 = (int64_t)(_424);
      int64_t  const _486 = _481 + _485;
      int64_t  const _487 = _486 + int64_t(128);
      float  const _488 = ((float const *)_attn_k)[_487];
      float16  const _489 = float16_ops::broadcast(_488);
      float16  const _490 = _484 * _489;
      float16  const _491 = _480 + _490;
      float16_ops::store(_491, _dot, int64_t(80));
      float16  const _492 = float16_ops::load(_dot, int64_t(96));
      int64_t  const _493 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _494 = _493 * int64_t(32);
      float16  const _495 = float16_ops::load(_qs, _494);
      int64_t  const _496 = (int64_t)(_424);
      int64_t  const _497 = _493 + _496;
      int64_t  const _498 = _497 + int64_t(192);
      float  const _499 = ((float const *)_attn_k)[_498];
      float16  const _500 = float16_ops::broadcast(_499);
      float16  const _501 = _495 * _500;
      float16  const _502 = _492 + _501;
      float16_ops::store(_502, _dot, int64_t(96));
      float16  const _503 = float16_ops::load(_dot, int64_t(112));
      int64_t  const _504 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _505 = _504 * int64_t(32);
      int64_t  const _506 = _505 + int64_t(16);
      float16  const _507 = float16_ops::load(_qs, _506);
      int64_t  const _508 = (int64_t)(_424);
      int64_t  const _509 = _504 + _508;
      int64_t  const _510 = _509 + int64_t(192);
      float  const _511 = ((float const *)_attn_k)[_510];
      float16  const _512 = float16_ops::broadcast(_511);
      float16  const _513 = _507 * _512;
      float16  const _514 = _503 + _513;
      float16_ops::store(_514, _dot, int64_t(112));
      float16  const _515 = float16_ops::load(_dot, int64_t(128));
      int64_t  const _516 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _517 = _516 * int64_t(32);
      float16  const _518 = float16_ops::load(_qs, _517);
      int64_t  const _519 = (int64_t)(_424);
      int64_t  const _520 = _516 + _519;
      int64_t  const _521 = _520 + int64_t(256);
      float  const _522 = ((float const *)_attn_k)[_521];
      float16  const _523 = float16_ops::broadcast(_522);
      float16  const _524 = _518 * _523;
      float16  const _525 = _515 + _524;
      float16_ops::store(_525, _dot, int64_t(128));
      float16  const _526 = float16_ops::load(_dot, int64_t(144));
      int64_t  const _527 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _528 = _527 * int64_t(32);
      int64_t  const _529 = _528 + int64_t(16);
      float16  const _530 = float16_ops::load(_qs, _529);
      int64_t  const _531 = (int64_t)(_424);
      int64_t  const _532 = _527 + _531;
      int64_t  const _533 = _532 + int64_t(256);
      float  const _534 = ((float const *)_attn_k)[_533];
      float16  const _535 = float16_ops::broadcast(_534);
      float16  const _536 = _530 * _535;
      float16  const _537 = _526 + _536;
      float16_ops::store(_537, _dot, int64_t(144));
      float16  const _538 = float16_ops::load(_dot, int64_t(160));
      int64_t  const _539 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _540 = _539 * int64_t(32);
      float16  const _541 = float16_ops::load(_qs, _540);
      int64_t  const _542 = (int64_t)(_424);
      int64_t  const _543 = _539 + _542;
      int64_t  const _544 = _543 + int64_t(320);
      float  const _545 = ((float const *)_attn_k)[_544];
      float16  const _546 = float16_ops::broadcast(_545);
      float16  const _547 = _541 * _546;
      float16  const _548 = _538 + _547;
      float16_ops::store(_548, _dot, int64_t(160));
      float16  const _549 = float16_ops::load(_dot, int64_t(176));
      int64_t  const _550 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _551 = _550 * int64_t(32);
      int64_t  const _552 = _551 + int64_t(16);
      float16  const _553 = float16_ops::load(_qs, _552);
      int64_t  const _554 = (int64_t)(_424);
      int64_t  const _555 = _550 + _554;
      int64_t  const _556 = _555 + int64_t(320);
      float  const _557 = ((float const *)_attn_k)[_556];
      float16  const _558 = float16_ops::broadcast(_557);
      float16  const _559 = _553 * _558;
      float16  const _560 = _549 + _559;
      float16_ops::store(_560, _dot, int64_t(176));
      float16  const _561 = float16_ops::load(_dot, int64_t(192));
      int64_t  const _562 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _563 = _562 * int64_t(32);
      float16  const _564 = float16_ops::load(_qs, _563);
      int64_t  const _565 = (int64_t)(_424);
      int64_t  const _566 = _562 + _565;
      int64_t  const _567 = _566 + int64_t(384);
      float  const _568 = ((float const *)_attn_k)[_567];
      float16  const _569 = float16_ops::broadcast(_568);
      float16  const _570 = _564 * _569;
      float16  const _571 = _561 + _570;
      float16_ops::store(_571, _dot, int64_t(192));
      float16  const _572 = float16_ops::load(_dot, int64_t(208));
      int64_t  const _573 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _574 = _573 * int64_t(32);
      int64_t  const _575 = _574 + int64_t(16);
      float16  const _576 = float16_ops::load(_qs, _575);
      int64_t  const _577 = (int64_t)(_424);
      int64_t  const _578 = _573 + _577;
      int64_t  const _579 = _578 + int64_t(384);
      float  const _580 = ((float const *)_attn_k)[_579];
      float16  const _581 = float16_ops::broadcast(_580);
      float16  const _582 = _576 * _581;
      float16  const _583 = _572 + _582;
      float16_ops::store(_583, _dot, int64_t(208));
      float16  const _584 = float16_ops::load(_dot, int64_t(224));
      int64_t  const _585 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _586 = _585 * int64_t(32);
      float16  const _587 = float16_ops::load(_qs, _586);
      int64_t  const _588 = (int64_t)(_424);
      int64_t  const _589 = _585 + _588;
      int64_t  const _590 = _589 + int64_t(448);
      float  const _591 = ((float const *)_attn_k)[_590];
      float16  const _592 = float16_ops::broadcast(_591);
      float16  const _593 = _587 * _592;
      float16  const _594 = _584 + _593;
      float16_ops::store(_594, _dot, int64_t(224));
      float16  const _595 = float16_ops::load(_dot, int64_t(240));
      int64_t  const _596 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _597 = _596 * int64_t(32);
      int64_t  const _598 = _597 + int64_t(16);
      float16  const _599 = float16_ops::load(_qs, _598);
      int64_t  const _600 = (int64_t)(_424);
      int64_t  const _601 = _596 + _600;
      int64_t  const _602 = _601 + int64_t(448);
      float  const _603 = ((float const *)_attn_k)[_602];
      float16  const _604 = float16_ops::broadcast(_603);
      float16  const _605 = _599 * _604;
      float16  const _606 = _595 + _605;
      float16_ops::store(_606, _dot, int64_t(240));
     } // for _dot_s1_rd__x
     // consume dot
     float16  const _607 = float16_ops::load(_dot, int64_t(0));
     int64_t  const _608 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _609 = _608 * int64_t(256);
     float16_ops::store(_607, _scores, _609);
     float16  const _610 = float16_ops::load(_dot, int64_t(16));
     int64_t  const _611 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _612 = _611 * int64_t(256);
     int64_t  const _613 = _612 + int64_t(16);
     float16_ops::store(_610, _scores, _613);
     float16  const _614 = float16_ops::load(_dot, int64_t(32));
     int64_t  const _615 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _616 = _615 * int64_t(256);
     int64_t  const _617 = _616 + int64_t(32);
     float16_ops::store(_614, _scores, _617);
     float16  const _618 = float16_ops::load(_dot, int64_t(48));
     int64_t  const _619 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _620 = _619 * int64_t(256);
     int64_t  const _621 = _620 + int64_t(48);
     float16_ops::store(_618, _scores, _621);
     float16  const _622 = float16_ops::load(_dot, int64_t(64));
     int64_t  const _623 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _624 = _623 * int64_t(256);
     int64_t  const _625 = _624 + int64_t(64);
     float16_ops::store(_622, _scores, _625);
     float16  const _626 = float16_ops::load(_dot, int64_t(80));
     int64_t  const _627 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _628 = _627 * int64_t(256);
     int64_t  const _629 = _628 + int64_t(80);
     float16_ops::store(_626, _scores, _629);
     float16  const _630 = float16_ops::load(_dot, int64_t(96));
     int64_t  const _631 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _632 = _631 * int64_t(256);
     int64_t  const _633 = _632 + int64_t(96);
     float16_ops::store(_630, _scores, _633);
     float16  const _634 = float16_ops::load(_dot, int64_t(112));
     int64_t  const _635 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _636 = _635 * int64_t(256);
     int64_t  const _637 = _636 + int64_t(112);
     float16_ops::store(_634, _scores, _637);
     float16  const _638 = float16_ops::load(_dot, int64_t(128));
     int64_t  const _639 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _640 = _639 * int64_t(256);
     int64_t  const _641 = _640 + int64_t(128);
     float16_ops::store(_638, _scores, _641);
     float16  const _642 = float16_ops::load(_dot, int64_t(144));
     int64_t  const _643 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _644 = _643 * int64_t(256);
     int64_t  const _645 = _644 + int64_t(144);
     float16_ops::store(_642, _scores, _645);
     float16  const _646 = float16_ops::load(_dot, int64_t(160));
     int64_t  const _647 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _648 = _647 * int64_t(256);
     int64_t  const _649 = _648 + int64_t(160);
     float16_ops::store(_646, _scores, _649);
     float16  const _650 = float16_ops::load(_dot, int64_t(176));
     int64_t  const _651 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _652 = _651 * int64_t(256);
     int64_t  const _653 = _652 + int64_t(176);
     float16_ops::store(_650, _scores, _653);
     float16  const _654 = float16_ops::load(_dot, int64_t(192));
     int64_t  const _655 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _656 = _655 * int64_t(256);
     int64_t  const _657 = _656 + int64_t(192);
     float16_ops::store(_654, _scores, _657);
     float16  const _658 = float16_ops::load(_dot, int64_t(208));
     int64_t  const _659 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _660 = _659 * int64_t(256);
     int64_t  const _661 = _660 + int64_t(208);
     float16_ops::store(_658, _scores, _661);
     float16  const _662 = float16_ops::load(_dot, int64_t(224));
     int64_t  const _663 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _664 = _663 * int64_t(256);
     int64_t  const _665 = _664 + int64_t(224);
     float16_ops::store(_662, _scores, _665);
     float16  const _666 = float16_ops::load(_dot, int64_t(240));
     int64_t  const _667 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _668 = _667 * int64_t(256);
     int64_t  const _669 = _668 + int64_t(240);
     float16_ops::store(_666, _scores, _669);
    } // alloc _dot
   } // for _scores_s0_j_jo
   int32_t  const _670 = _386 - _100;
   int32_t  const _671 = _670 >> 3;
   int32_t  const _672 = ::halide_cpp_max(_671, 0);
   int32_t  const _673 = _99 - _100;
   int32_t  const _674 = _673 + -1;
   int32_t  const _675 = _674 >> 3;
   int32_t  const _676 = _675 - _672;
   int32_t  const _677 = _676 + 1;
// [Halide's copy of the Q·K^T loop above for the last key blocks: 395 lines, hash 7761ee409af7a3ae]
   int32_t  const _1014 = ::halide_cpp_max(_96, _87);
   int32_t  const _1015 = ::halide_cpp_max(_1014, _99);
   {
    int32_t  const _1016 = _1015 - _100;
    int64_t  const _1017 = _1016;
    int64_t  const _1018 = _1017 * 32;
    if ((_1018 > ((int64_t(1) << 31) - 1)) || ((_1018 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
    {
     attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation masked\n");
     return -1;
    } // overflow test masked
    int64_t  const _1019 = _1018;
    float *_masked = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_1019);
    if (!_masked)
    {
     int32_t  const _1020 = attn_causal64_rt_error_out_of_memory(_ucon);
     return _1020;
    }
    HalideFreeHelper _masked_free(_ucon, _masked, attn_causal64_rt_free);
    // produce masked
    // consume scores
    int32_t  const _1021 = _99 - _100;
    int32_t  const _1022 = _attn_tile * 2;
    int32_t  const _1023 = _1022 + _attn_q_step;
    int32_t  const _1024 = _1023 * 16;
    int32_t  const _1025 = _1024 + _attn_q0;
    int32_t  const _1026 = _attn_tile * 32;
    int32_t  const _1027 = _1026 + _attn_q0;
    for (int _masked_s0_j_rebased = 0; _masked_s0_j_rebased < 0 + _1021; _masked_s0_j_rebased++)
    {
     uint32_t  const _1028 = (uint32_t)(0ull);
     uint32x16_t  const _1029 = uint32x16_t_ops::broadcast(_1028);
     uint32_t  const _1030 = (uint32_t)(4294967295ull);
     uint32x16_t  const _1031 = uint32x16_t_ops::broadcast(_1030);
     int32x16_t  const _1032 = int32x16_t_ops::ramp(_1027, _attn_q_step);
     int32_t  const _1033 = _100 + _masked_s0_j_rebased;
     int32x16_t  const _1034 = int32x16_t_ops::broadcast(_1033);
     uint8x16_t  const _1035 = int32x16_t_ops::lt(_1032, _1034);
     uint32x16_t  const _1036 = uint32x16_t_ops::select(_1035, _1029, _1031);
     int64_t  const _1037 = (int64_t)(_masked_s0_j_rebased);
     int64_t  const _1038 = _1037 * int64_t(32);
     float16  const _1039 = float16_ops::load(_scores, _1038);
     uint32x16_t  const _1040 = reinterpret<uint32x16_t>(_1039);
     uint32x16_t  const _1041 = _1040 & _1036;
     uint32_t  const _1042 = (uint32_t)(4286578688ull);
     uint32x16_t  const _1043 = uint32x16_t_ops::broadcast(_1042);
     uint32x16_t  const _1044 = ~_1036;
     uint32x16_t  const _1045 = _1043 & _1044;
     uint32x16_t  const _1046 = _1041 | _1045;
     float16  const _1047 = reinterpret<float16>(_1046);
     float16_ops::store(_1047, _masked, _1038);
     uint32_t  const _1048 = (uint32_t)(0ull);
     uint32x16_t  const _1049 = uint32x16_t_ops::broadcast(_1048);
     uint32_t  const _1050 = (uint32_t)(4294967295ull);
     uint32x16_t  const _1051 = uint32x16_t_ops::broadcast(_1050);
     int32x16_t  const _1052 = int32x16_t_ops::ramp(_1025, _attn_q_step);
     int32_t  const _1053 = _100 + _masked_s0_j_rebased;
     int32x16_t  const _1054 = int32x16_t_ops::broadcast(_1053);
     uint8x16_t  const _1055 = int32x16_t_ops::lt(_1052, _1054);
     uint32x16_t  const _1056 = uint32x16_t_ops::select(_1055, _1049, _1051);
     int64_t  const _1057 = (int64_t)(_masked_s0_j_rebased);
     int64_t  const _1058 = _1057 * int64_t(32);
     int64_t  const _1059 = _1058 + int64_t(16);
     float16  const _1060 = float16_ops::load(_scores, _1059);
     uint32x16_t  const _1061 = reinterpret<uint32x16_t>(_1060);
     uint32x16_t  const _1062 = _1061 & _1056;
     uint32_t  const _1063 = (uint32_t)(4286578688ull);
     uint32x16_t  const _1064 = uint32x16_t_ops::broadcast(_1063);
     uint32x16_t  const _1065 = ~_1056;
     uint32x16_t  const _1066 = _1064 & _1065;
     uint32x16_t  const _1067 = _1062 | _1066;
     float16  const _1068 = reinterpret<float16>(_1067);
     float16_ops::store(_1068, _masked, _1059);
    } // for _masked_s0_j_rebased
    _scores_free.free();
    {
     float _row_max[32];
     int32_t  const _1069 = ::halide_cpp_max(_84, 0);
     int32_t  const _1070 = _87 - _1069;
     // produce row_max
     for (int _row_max_s0_ii_ii = 0; _row_max_s0_ii_ii < 0 + 2; _row_max_s0_ii_ii++)
     {
      float16  const _1071 = float16_ops::broadcast(neg_inf_f32());
      int64_t  const _1072 = (int64_t)(_row_max_s0_ii_ii);
      int64_t  const _1073 = _1072 * int64_t(16);
      float16_ops::store(_1071, _row_max, _1073);
     } // for _row_max_s0_ii_ii
     // consume masked
     int32_t  const _1074 = ::halide_cpp_max(_84, 0);
     int32_t  const _1075 = _1074 - _100;
     for (int _row_max_s1_rk__x_rebased = 0; _row_max_s1_rk__x_rebased < 0 + _1070; _row_max_s1_rk__x_rebased++)
     {
      float16  const _1076 = float16_ops::load(_row_max, int64_t(0));
      int64_t  const _1077 = (int64_t)(_row_max_s1_rk__x_rebased);
      int64_t  const _1078 = (int64_t)(_1075);
      int64_t  const _1079 = _1077 + _1078;
      int64_t  const _1080 = _1079 * int64_t(32);
      float16  const _1081 = float16_ops::load(_masked, _1080);
      float16  const _1082 = float16_ops::max(_1076, _1081);
      float16_ops::store(_1082, _row_max, int64_t(0));
      float16  const _1083 = float16_ops::load(_row_max, int64_t(16));
      int64_t  const _1084 = (int64_t)(_row_max_s1_rk__x_rebased);
      int64_t  const _1085 = (int64_t)(_1075);
      int64_t  const _1086 = _1084 + _1085;
      int64_t  const _1087 = _1086 * int64_t(32);
      int64_t  const _1088 = _1087 + int64_t(16);
      float16  const _1089 = float16_ops::load(_masked, _1088);
      float16  const _1090 = float16_ops::max(_1083, _1089);
      float16_ops::store(_1090, _row_max, int64_t(16));
     } // for _row_max_s1_rk__x_rebased
     int32_t  const _1091 = ::halide_cpp_max(_84, 0);
     int32_t  const _1092 = ::halide_cpp_min(_attn_kv_hi, _attn_lk);
     int32_t  const _1093 = _1092 + 7;
     int32_t  const _1094 = _1093 >> 3;
     int32_t  const _1095 = _attn_lq + -1;
     int32_t  const _1096 = _1095 >> 5;
     int32_t  const _1097 = _attn_q_step * 31;
     int32_t  const _1098 = _1097 + _attn_q0;
     int32_t  const _1099 = _1098 >> 5;
     int32_t  const _1100 = _1099 + _attn_tile;
     int32_t  const _1101 = ::halide_cpp_min(_1096, _1100);
     int32_t  const _1102 = _attn_q0 >> 5;
     int32_t  const _1103 = _1102 + _attn_tile;
     int32_t  const _1104 = ::halide_cpp_max(_1101, _1103);
     int32_t  const _1105 = _1104 * 4;
     int32_t  const _1106 = _1105 + 4;
     int32_t  const _1107 = ::halide_cpp_min(_1094, _1106);
     int32_t  const _1108 = _1107 * 8;
     int32_t  const _1109 = ::halide_cpp_min(_1108, _attn_lk);
     int32_t  const _1110 = _attn_chunk_lo >> 3;
     int32_t  const _1111 = _1110 * 8;
     int32_t  const _1112 = ::halide_cpp_min(_1109, _1111);
     int32_t  const _1113 = _attn_kv_lo >> 3;
     int32_t  const _1114 = ::halide_cpp_max(_1113, 0);
     int32_t  const _1115 = _1114 * 8;
     int32_t  const _1116 = ::halide_cpp_min(_1115, _attn_lk);
     int32_t  const _1117 = ::halide_cpp_max(_1112, _1116);
     int32_t  const _1118 = ::halide_cpp_min(_1117, _92);
     int32_t  const _1119 = ::halide_cpp_min(_1091, _1118);
     int32_t  const _1120 = ::halide_cpp_min(_1119, _98);
     int32_t  const _1121 = ::halide_cpp_min(_88, 1024);
     int32_t  const _1122 = _1121 >> 6;
     int32_t  const _1123 = _1122 * 64;
     int32_t  const _1124 = _1123 + _1117;
     int32_t  const _1125 = ::halide_cpp_max(_1124, _87);
     int32_t  const _1126 = ::halide_cpp_max(_1125, _96);
     int32_t  const _1127 = ::halide_cpp_min(_92, _1117);
     int32_t  const _1128 = ::halide_cpp_min(_1091, _1127);
     int32_t  const _1129 = ::halide_cpp_min(_1128, _98);
     int32_t  const _1130 = _1126 - _1129;
     {
      int64_t  const _1131 = _1130;
      int64_t  const _1132 = _1131 * 32;
      if ((_1132 > ((int64_t(1) << 31) - 1)) || ((_1132 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
      {
       attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation probs\n");
       return -1;
      } // overflow test probs
      int64_t  const _1133 = _1132;
      float *_probs = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_1133);
      if (!_probs)
      {
       int32_t  const _1134 = attn_causal64_rt_error_out_of_memory(_ucon);
       return _1134;
      }
      HalideFreeHelper _probs_free(_ucon, _probs, attn_causal64_rt_free);
      // produce probs
      // consume row_max
      // consume masked
      int32_t  const _1135 = _98 - _1120;
      int32_t  const _1136 = _98 - _100;
      int32_t  const _1137 = _96 - _98;
      for (int _probs_s0_j_rebased = 0; _probs_s0_j_rebased < 0 + _1137; _probs_s0_j_rebased++)
      {
       float16  const _1138 = float16_ops::load(_row_max, int64_t(0));
       int64_t  const _1139 = (int64_t)(_probs_s0_j_rebased);
       int64_t  const _1140 = (int64_t)(_1136);
       int64_t  const _1141 = _1139 + _1140;
       int64_t  const _1142 = _1141 * int64_t(32);
       float16  const _1143 = float16_ops::load(_masked, _1142);
       float  const _1144 = float_from_bits(0 /* 0 */);
       float16  const _1145 = float16_ops::broadcast(_1144);
       float16  const _1146 = float16_ops::broadcast(neg_inf_f32());
       uint8x16_t  const _1147 = float16_ops::eq(_1138, _1146);
       float16  const _1148 = float16_ops::select(_1147, _1145, _1138);
       float16  const _1149 = _1143 - _1148;
       float16  const _1150 = float16_ops::min(_1149, _1145);
       float  const _1151 = float_from_bits(3271426048 /* -127 */);
       float16  const _1152 = float16_ops::broadcast(_1151);
       float16  const _1153 = float16_ops::max(_1150, _1152);
       float  const _1154 = float_from_bits(1124007936 /* 127.5 */);
       float16  const _1155 = float16_ops::broadcast(_1154);
       float16  const _1156 = _1153 + _1155;
       int32x16_t  const _1157 = int32x16_t_ops::convert_from<float16>(_1156);
       int32x16_t  const _1158 = int32x16_t_ops::broadcast(-127);
       int32x16_t  const _1159 = _1157 + _1158;
       float16  const _1160 = float16_ops::convert_from<int32x16_t>(_1159);
       float16  const _1161 = _1153 - _1160;
       uint32_t  const _1162 = (uint32_t)(23ull);
       uint32x16_t  const _1163 = uint32x16_t_ops::broadcast(_1162);
       int32x16_t  const _1164 = _1157 << _1163;
       float16  const _1165 = reinterpret<float16>(_1164);
       float  const _1166 = float_from_bits(958452607 /* 0.000153376 */);
       float16  const _1167 = float16_ops::broadcast(_1166);
       float16  const _1168 = _1161 * _1167;
       float  const _1169 = float_from_bits(984588920 /* 0.00133999 */);
       float16  const _1170 = float16_ops::broadcast(_1169);
       float16  const _1171 = _1168 + _1170;
       float16  const _1172 = _1171 * _1161;
       float  const _1173 = float_from_bits(1008572159 /* 0.00961852 */);
       float16  const _1174 = float16_ops::broadcast(_1173);
       float16  const _1175 = _1172 + _1174;
       float16  const _1176 = _1175 * _1161;
       float  const _1177 = float_from_bits(1029920619 /* 0.0555033 */);
       float16  const _1178 = float16_ops::broadcast(_1177);
       float16  const _1179 = _1176 + _1178;
       float16  const _1180 = _1179 * _1161;
       float  const _1181 = float_from_bits(1047920109 /* 0.240226 */);
       float16  const _1182 = float16_ops::broadcast(_1181);
       float16  const _1183 = _1180 + _1182;
       float16  const _1184 = _1183 * _1161;
       float  const _1185 = float_from_bits(1060205080 /* 0.693147 */);
       float16  const _1186 = float16_ops::broadcast(_1185);
       float16  const _1187 = _1184 + _1186;
       float16  const _1188 = _1187 * _1161;
       float  const _1189 = float_from_bits(1065353216 /* 1 */);
       float16  const _1190 = float16_ops::broadcast(_1189);
       float16  const _1191 = _1188 + _1190;
       float16  const _1192 = _1165 * _1191;
       int32x16_t  const _1193 = reinterpret<int32x16_t>(_1192);
       int32x16_t  const _1194 = int32x16_t_ops::broadcast(-1);
       int32x16_t  const _1195 = int32x16_t_ops::broadcast(0);
       int32x16_t  const _1196 = int32x16_t_ops::broadcast(2139095040);
       int32x16_t  const _1197 = reinterpret<int32x16_t>(_1149);
       int32x16_t  const _1198 = int32x16_t_ops::broadcast(2147483647);
       int32x16_t  const _1199 = _1197 & _1198;
       uint8x16_t  const _1200 = int32x16_t_ops::lt(_1196, _1199);
       int32x16_t  const _1201 = int32x16_t_ops::select(_1200, _1194, _1195);
       int32x16_t  const _1202 = int32x16_t_ops::broadcast(2143289344);
       int32x16_t  const _1203 = _1201 & _1202;
       int32x16_t  const _1204 = _1193 | _1203;
       float16  const _1205 = reinterpret<float16>(_1204);
       int64_t  const _1206 = (int64_t)(_1135);
       int64_t  const _1207 = _1139 + _1206;
       int64_t  const _1208 = _1207 * int64_t(32);
       float16_ops::store(_1205, _probs, _1208);
       float16  const _1209 = float16_ops::load(_row_max, int64_t(16));
       int64_t  const _1210 = (int64_t)(_probs_s0_j_rebased);
       int64_t  const _1211 = (int64_t)(_1136);
       int64_t  const _1212 = _1210 + _1211;
       int64_t  const _1213 = _1212 * int64_t(32);
       int64_t  const _1214 = _1213 + int64_t(16);
       float16  const _1215 = float16_ops::load(_masked, _1214);
       float  const _1216 = float_from_bits(0 /* 0 */);
       float16  const _1217 = float16_ops::broadcast(_1216);
       float16  const _1218 = float16_ops::broadcast(neg_inf_f32());
       uint8x16_t  const _1219 = float16_ops::eq(_1209, _1218);
       float16  const _1220 = float16_ops::select(_1219, _1217, _1209);
       float16  const _1221 = _1215 - _1220;
       float16  const _1222 = float16_ops::min(_1221, _1217);
       float  const _1223 = float_from_bits(3271426048 /* -127 */);
       float16  const _1224 = float16_ops::broadcast(_1223);
       float16  const _1225 = float16_ops::max(_1222, _1224);
       float  const _1226 = float_from_bits(1124007936 /* 127.5 */);
       float16  const _1227 = float16_ops::broadcast(_1226);
       float16  const _1228 = _1225 + _1227;
       int32x16_t  const _1229 = int32x16_t_ops::convert_from<float16>(_1228);
       int32x16_t  const _1230 = int32x16_t_ops::broadcast(-127);
       int32x16_t  const _1231 = _1229 + _1230;
       float16  const _1232 = float16_ops::convert_from<int32x16_t>(_1231);
       float16  const _1233 = _1225 - _1232;
       uint32_t  const _1234 = (uint32_t)(23ull);
       uint32x16_t  const _1235 = uint32x16_t_ops::broadcast(_1234);
       int32x16_t  const _1236 = _1229 << _1235;
       float16  const _1237 = reinterpret<float16>(_1236);
       float  const _1238 = float_from_bits(958452607 /* 0.000153376 */);
       float16  const _1239 = float16_ops::broadcast(_1238);
       float16  const _1240 = _1233 * _1239;
       float  const _1241 = float_from_bits(984588920 /* 0.00133999 */);
       float16  const _1242 = float16_ops::broadcast(_1241);
       float16  const _1243 = _1240 + _1242;
       float16  const _1244 = _1243 * _1233;
       float  const _1245 = float_from_bits(1008572159 /* 0.00961852 */);
       float16  const _1246 = float16_ops::broadcast(_1245);
       float16  const _1247 = _1244 + _1246;
       float16  const _1248 = _1247 * _1233;
       float  const _1249 = float_from_bits(1029920619 /* 0.0555033 */);
       float16  const _1250 = float16_ops::broadcast(_1249);
       float16  const _1251 = _1248 + _1250;
       float16  const _1252 = _1251 * _1233;
       float  const _1253 = float_from_bits(1047920109 /* 0.240226 */);
       float16  const _1254 = float16_ops::broadcast(_1253);
       float16  const _1255 = _1252 + _1254;
       float16  const _1256 = _1255 * _1233;
       float  const _1257 = float_from_bits(1060205080 /* 0.693147 */);
       float16  const _1258 = float16_ops::broadcast(_1257);
       float16  const _1259 = _1256 + _1258;
       float16  const _1260 = _1259 * _1233;
       float  const _1261 = float_from_bits(1065353216 /* 1 */);
       float16  const _1262 = float16_ops::broadcast(_1261);
       float16  const _1263 = _1260 + _1262;
       float16  const _1264 = _1237 * _1263;
       int32x16_t  const _1265 = reinterpret<int32x16_t>(_1264);
       int32x16_t  const _1266 = int32x16_t_ops::broadcast(-1);
       int32x16_t  const _1267 = int32x16_t_ops::broadcast(0);
       int32x16_t  const _1268 = int32x16_t_ops::broadcast(2139095040);
       int32x16_t  const _1269 = reinterpret<int32x16_t>(_1221);
       int32x16_t  const _1270 = int32x16_t_ops::broadcast(2147483647);
       int32x16_t  const _1271 = _1269 & _1270;
       uint8x16_t  const _1272 = int32x16_t_ops::lt(_1268, _1271);
       int32x16_t  const _1273 = int32x16_t_ops::select(_1272, _1266, _1267);
       int32x16_t  const _1274 = int32x16_t_ops::broadcast(2143289344);
       int32x16_t  const _1275 = _1273 & _1274;
       int32x16_t  const _1276 = _1265 | _1275;
       float16  const _1277 = reinterpret<float16>(_1276);
       int64_t  const _1278 = (int64_t)(_1135);
       int64_t  const _1279 = _1210 + _1278;
       int64_t  const _1280 = _1279 * int64_t(32);
       int64_t  const _1281 = _1280 + int64_t(16);
       float16_ops::store(_1277, _probs, _1281);
      } // for _probs_s0_j_rebased
      _masked_free.free();
      {
       int64_t  const _1282 = 64;
       int32_t  const _1283 = _attn_rows + 3;
       int32_t  const _1284 = _1283 >> 2;
       int32_t  const _1285 = _1284 * 4;
       int64_t  const _1286 = _1282 * _1285;
       if ((_1286 > ((int64_t(1) << 31) - 1)) || ((_1286 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
       {
        attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation pv_blocks\n");
        return -1;
       } // overflow test pv_blocks
       int64_t  const _1287 = _1286;
       float *_pv_blocks = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_1287);
       if (!_pv_blocks)
       {
        int32_t  const _1288 = attn_causal64_rt_error_out_of_memory(_ucon);
        return _1288;
       }
       HalideFreeHelper _pv_blocks_free(_ucon, _pv_blocks, attn_causal64_rt_free);
       // produce pv_blocks
       int32_t  const _1289 = _attn_rows + 3;
       int32_t  const _1290 = _1289 >> 2;
       int32_t  const _1291 = _1290 * 4;
       for (int _pv_blocks_s0_ii = 0; _pv_blocks_s0_ii < 0 + _1291; _pv_blocks_s0_ii++)
       {
        int32_t  const _1292 = _pv_blocks_s0_ii * 4;
        for (int _pv_blocks_s0_c_c = 0; _pv_blocks_s0_c_c < 0 + 4; _pv_blocks_s0_c_c++)
        {
         float  const _1293 = float_from_bits(0 /* 0 */);
         float16  const _1294 = float16_ops::broadcast(_1293);
         int64_t  const _1295 = (int64_t)(_pv_blocks_s0_c_c);
         int64_t  const _1296 = (int64_t)(_1292);
         int64_t  const _1297 = _1295 + _1296;
         int64_t  const _1298 = _1297 * int64_t(16);
         float16_ops::store(_1294, _pv_blocks, _1298);
        } // for _pv_blocks_s0_c_c
       } // for _pv_blocks_s0_ii
       // consume probs
       int32_t  const _1299 = ::halide_cpp_min(_attn_kv_hi, _attn_lk);
       int32_t  const _1300 = _1299 + 7;
       int32_t  const _1301 = _1300 >> 3;
       int32_t  const _1302 = _attn_lq + -1;
       int32_t  const _1303 = _1302 >> 5;
       int32_t  const _1304 = _attn_q_step * 31;
       int32_t  const _1305 = _1304 + _attn_q0;
       int32_t  const _1306 = _1305 >> 5;
       int32_t  const _1307 = _1306 + _attn_tile;
       int32_t  const _1308 = ::halide_cpp_min(_1303, _1307);
       int32_t  const _1309 = _attn_q0 >> 5;
       int32_t  const _1310 = _1309 + _attn_tile;
       int32_t  const _1311 = ::halide_cpp_max(_1308, _1310);
       int32_t  const _1312 = _1311 * 4;
       int32_t  const _1313 = _1312 + 4;
       int32_t  const _1314 = ::halide_cpp_min(_1301, _1313);
       int32_t  const _1315 = _1314 * 8;
       int32_t  const _1316 = ::halide_cpp_min(_1315, _attn_lk);
       int32_t  const _1317 = _attn_chunk_lo >> 3;
       int32_t  const _1318 = _1317 * 8;
       int32_t  const _1319 = ::halide_cpp_min(_1316, _1318);
       int32_t  const _1320 = _attn_kv_lo >> 3;
       int32_t  const _1321 = ::halide_cpp_max(_1320, 0);
       int32_t  const _1322 = _1321 * 8;
       int32_t  const _1323 = ::halide_cpp_min(_1322, _attn_lk);
       int32_t  const _1324 = ::halide_cpp_max(_1319, _1323);
       int32_t  const _1325 = ::halide_cpp_min(_88, 1024);
       int32_t  const _1326 = _1325 >> 6;
       int32_t  const _1327 = _attn_rows + 3;
       int32_t  const _1328 = _1327 >> 2;
       for (int _pv_blocks_s1_rkb__x = 0; _pv_blocks_s1_rkb__x < 0 + _1326; _pv_blocks_s1_rkb__x++)
       {
        int32_t  const _1329 = _pv_blocks_s1_rkb__x * 64;
        int32_t  const _1330 = _1329 + _1324;
        for (int _pv_blocks_s1_ii_ig = 0; _pv_blocks_s1_ii_ig < 0 + _1328; _pv_blocks_s1_ii_ig++)
        {
         {
          float _pv_block[256];
          // produce pv_block
          float  const _1331 = float_from_bits(0 /* 0 */);
          float16  const _1332 = float16_ops::broadcast(_1331);
          float16_ops::store(_1332, _pv_block, int64_t(0));
          float  const _1333 = float_from_bits(0 /* 0 */);
          float16  const _1334 = float16_ops::broadcast(_1333);
          float16_ops::store(_1334, _pv_block, int64_t(16));
          float  const _1335 = float_from_bits(0 /* 0 */);
          float16  const _1336 = float16_ops::broadcast(_1335);
          float16_ops::store(_1336, _pv_block, int64_t(32));
          float  const _1337 = float_from_bits(0 /* 0 */);
          float16  const _1338 = float16_ops::broadcast(_1337);
          float16_ops::store(_1338, _pv_block, int64_t(48));
          float  const _1339 = float_from_bits(0 /* 0 */);
          float16  const _1340 = float16_ops::broadcast(_1339);
          float16_ops::store(_1340, _pv_block, int64_t(64));
          float  const _1341 = float_from_bits(0 /* 0 */);
          float16  const _1342 = float16_ops::broadcast(_1341);
          float16_ops::store(_1342, _pv_block, int64_t(80));
          float  const _1343 = float_from_bits(0 /* 0 */);
          float16  const _1344 = float16_ops::broadcast(_1343);
          float16_ops::store(_1344, _pv_block, int64_t(96));
          float  const _1345 = float_from_bits(0 /* 0 */);
          float16  const _1346 = float16_ops::broadcast(_1345);
          float16_ops::store(_1346, _pv_block, int64_t(112));
          float  const _1347 = float_from_bits(0 /* 0 */);
          float16  const _1348 = float16_ops::broadcast(_1347);
          float16_ops::store(_1348, _pv_block, int64_t(128));
          float  const _1349 = float_from_bits(0 /* 0 */);
          float16  const _1350 = float16_ops::broadcast(_1349);
          float16_ops::store(_1350, _pv_block, int64_t(144));
          float  const _1351 = float_from_bits(0 /* 0 */);
          float16  const _1352 = float16_ops::broadcast(_1351);
          float16_ops::store(_1352, _pv_block, int64_t(160));
          float  const _1353 = float_from_bits(0 /* 0 */);
          float16  const _1354 = float16_ops::broadcast(_1353);
          float16_ops::store(_1354, _pv_block, int64_t(176));
          float  const _1355 = float_from_bits(0 /* 0 */);
          float16  const _1356 = float16_ops::broadcast(_1355);
          float16_ops::store(_1356, _pv_block, int64_t(192));
          float  const _1357 = float_from_bits(0 /* 0 */);
          float16  const _1358 = float16_ops::broadcast(_1357);
          float16_ops::store(_1358, _pv_block, int64_t(208));
          float  const _1359 = float_from_bits(0 /* 0 */);
          float16  const _1360 = float16_ops::broadcast(_1359);
          float16_ops::store(_1360, _pv_block, int64_t(224));
          float  const _1361 = float_from_bits(0 /* 0 */);
          float16  const _1362 = float16_ops::broadcast(_1361);
          float16_ops::store(_1362, _pv_block, int64_t(240));
          int32_t  const _1363 = _1330 - _1120;
          for (int _pv_block_s1_rki__x = 0; _pv_block_s1_rki__x < 0 + 64; _pv_block_s1_rki__x++)
          {
           float16  const _1364 = float16_ops::load(_pv_block, int64_t(0));
           int64_t  const _1365 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1366 = (int64_t)(_1330);
           int64_t  const _1367 = _1365 + _1366;
           int64_t  const _1368 = _1367 * int64_t(64);
           float16  const _1369 = float16_ops::load(_attn_v, _1368);
           int64_t  const _1370 = (int64_t)(_1363);
           int64_t  const _1371 = _1365 + _1370;
           int64_t  const _1372 = _1371 * int64_t(8);
           int64_t  const _1373 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1374 = _1372 + _1373;
           int64_t  const _1375 = _1374 * int64_t(4);
           float  const _1376 = _probs[_1375];
           float16  const _1377 = float16_ops::broadcast(_1376);
           float16  const _1378 = _1369 * _1377;
           float16  const _1379 = _1364 + _1378;
           float16_ops::store(_1379, _pv_block, int64_t(0));
           float16  const _1380 = float16_ops::load(_pv_block, int64_t(16));
           int64_t  const _1381 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1382 = (int64_t)(_1330);
           int64_t  const _1383 = _1381 + _1382;
           int64_t  const _1384 = _1383 * int64_t(64);
           int64_t  const _1385 = _1384 + int64_t(16);
           float16  const _1386 = float16_ops::load(_attn_v, _1385);
           int64_t  const _1387 = (int64_t)(_1363);
           int64_t  const _1388 = _1381 + _1387;
           int64_t  const _1389 = _1388 * int64_t(8);
           int64_t  const _1390 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1391 = _1389 + _1390;
           int64_t  const _1392 = _1391 * int64_t(4);
           float  const _1393 = _probs[_1392];
           float16  const _1394 = float16_ops::broadcast(_1393);
           float16  const _1395 = _1386 * _1394;
           float16  const _1396 = _1380 + _1395;
           float16_ops::store(_1396, _pv_block, int64_t(16));
           float16  const _1397 = float16_ops::load(_pv_block, int64_t(32));
           int64_t  const _1398 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1399 = (int64_t)(_1330);
           int64_t  const _1400 = _1398 + _1399;
           int64_t  const _1401 = _1400 * int64_t(64);
           int64_t  const _1402 = _1401 + int64_t(32);
           float16  const _1403 = float16_ops::load(_attn_v, _1402);
           int64_t  const _1404 = (int64_t)(_1363);
           int64_t  const _1405 = _1398 + _1404;
           int64_t  const _1406 = _1405 * int64_t(8);
           int64_t  const _1407 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1408 = _1406 + _1407;
           int64_t  const _1409 = _1408 * int64_t(4);
           float  const _1410 = _probs[_1409];
           float16  const _1411 = float16_ops::broadcast(_1410);
           float16  const _1412 = _1403 * _1411;
           float16  const _1413 = _1397 + _1412;
           float16_ops::store(_1413, _pv_block, int64_t(32));
           float16  const _1414 = float16_ops::load(_pv_block, int64_t(48));
           int64_t  const _1415 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1416 = (int64_t)(_1330);
           int64_t  const _1417 = _1415 + _1416;
           int64_t  const _1418 = _1417 * int64_t(64);
           int64_t  const _1419 = _1418 + int64_t(48);
           float16  const _1420 = float16_ops::load(_attn_v, _1419);
           int64_t  const _1421 = (int64_t)(_1363);
           int64_t  const _1422 = _1415 + _1421;
           int64_t  const _1423 = _1422 * int64_t(8);
           int64_t  const _1424 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1425 = _1423 + _1424;
           int64_t  const _1426 = _1425 * int64_t(4);
           float  const _1427 = _probs[_1426];
           float16  const _1428 = float16_ops::broadcast(_1427);
           float16  const _1429 = _1420 * _1428;
           float16  const _1430 = _1414 + _1429;
           float16_ops::store(_1430, _pv_block, int64_t(48));
           float16  const _1431 = float16_ops::load(_pv_block, int64_t(64));
           int64_t  const _1432 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1433 = (int64_t)(_1330);
           int64_t  const _1434 = _1432 + _1433;
           int64_t  const _1435 = _1434 * int64_t(64);
           float16  const _1436 = float16_ops::load(_attn_v, _1435);
           int64_t  const _1437 = (int64_t)(_1363);
           int64_t  const _1438 = _1432 + _1437;
           int64_t  const _1439 = _1438 * int64_t(8);
           int64_t  const _1440 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1441 = _1439 + _1440;
           int64_t  const _1442 = _1441 * int64_t(4);
           int64_t  const _1443 = _1442 + int64_t(1);
           float  const _1444 = _probs[_1443];
           float16  const _1445 = float16_ops::broadcast(_1444);
           float16  const _1446 = _1436 * _1445;
           float16  const _1447 = _1431 + _1446;
           float16_ops::store(_1447, _pv_block, int64_t(64));
           float16  const _1448 = float16_ops::load(_pv_block, int64_t(80));
           int64_t  const _1449 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1450 = (int64_t)(_1330);
           int64_t  const _1451 = _1449 + _1450;
           int64_t  const _1452 = _1451 * int64_t(64);
           int64_t  const _1453 = _1452 + int64_t(16);
           float16  const _1454 = float16_ops::load(_attn_v, _1453);
           int64_t  const _1455 = (int64_t)(_1363);
           int64_t  const _1456 = _1449 + _1455;
           int64_t  const _1457 = _1456 * int64_t(8);
           int64_t  const _1458 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1459 = _1457 + _1458;
           int64_t  const _1460 = _1459 * int64_t(4);
           int64_t  const _1461 = _1460 + int64_t(1);
           float  const _1462 = _probs[_1461];
           float16  const _1463 = float16_ops::broadcast(_1462);
           float16  const _1464 = _1454 * _1463;
           float16  const _1465 = _1448 + _1464;
           float16_ops::store(_1465, _pv_block, int64_t(80));
           float16  const _1466 = float16_ops::load(_pv_block, int64_t(96));
           int64_t  const _1467 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1468 = (int64_t)(_1330);
           int64_t  const _1469 = _1467 + _1468;
           int64_t  const _1470 = _1469 * int64_t(64);
           int64_t  const _1471 = _1470 + int64_t(32);
           float16  const _1472 = float16_ops::load(_attn_v, _1471);
           int64_t  const _1473 = (int64_t)(_1363);
           int64_t  const _1474 = _1467 + _1473;
           int64_t  const _1475 = _1474 * int64_t(8);
           int64_t  const _1476 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1477 = _1475 + _1476;
           int64_t  const _1478 = _1477 * int64_t(4);
           int64_t  const _1479 = _1478 + int64_t(1);
           float  const _1480 = _probs[_1479];
           float16  const _1481 = float16_ops::broadcast(_1480);
           float16  const _1482 = _1472 * _1481;
           float16  const _1483 = _1466 + _1482;
           float16_ops::store(_1483, _pv_block, int64_t(96));
           float16  const _1484 = float16_ops::load(_pv_block, int64_t(112));
           int64_t  const _1485 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1486 = (int64_t)(_1330);
           int64_t  const _1487 = _1485 + _1486;
           int64_t  const _1488 = _1487 * int64_t(64);
           int64_t  const _1489 = _1488 + int64_t(48);
           float16  const _1490 = float16_ops::load(_attn_v, _1489);
           int64_t  const _1491 = (int64_t)(_1363);
           int64_t  const _1492 = _1485 + _1491;
           int64_t  const _1493 = _1492 * int64_t(8);
           int64_t  const _1494 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1495 = _1493 + _1494;
           int64_t  const _1496 = _1495 * int64_t(4);
           int64_t  const _1497 = _1496 + int64_t(1);
           float  const _1498 = _probs[_1497];
           float16  const _1499 = float16_ops::broadcast(_1498);
           float16  const _1500 = _1490 * _1499;
           float16  const _1501 = _1484 + _1500;
           float16_ops::store(_1501, _pv_block, int64_t(112));
           float16  const _1502 = float16_ops::load(_pv_block, int64_t(128));
           int64_t  const _1503 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1504 = (int64_t)(_1330);
           int64_t  const _1505 = _1503 + _1504;
           int64_t  const _1506 = _1505 * int64_t(64);
           float16  const _1507 = float16_ops::load(_attn_v, _1506);
           int64_t  const _1508 = (int64_t)(_1363);
           int64_t  const _1509 = _1503 + _1508;
           int64_t  const _1510 = _1509 * int64_t(8);
           int64_t  const _1511 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1512 = _1510 + _1511;
           int64_t  const _1513 = _1512 * int64_t(4);
           int64_t  const _1514 = _1513 + int64_t(2);
           float  const _1515 = _probs[_1514];
           float16  const _1516 = float16_ops::broadcast(_1515);
           float16  const _1517 = _1507 * _1516;
           float16  const _1518 = _1502 + _1517;
           float16_ops::store(_1518, _pv_block, int64_t(128));
           float16  const _1519 = float16_ops::load(_pv_block, int64_t(144));
           int64_t  const _1520 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1521 = (int64_t)(_1330);
           int64_t  const _1522 = _1520 + _1521;
           int64_t  const _1523 = _1522 * int64_t(64);
           int64_t  const _1524 = _1523 + int64_t(16);
           float16  const _1525 = float16_ops::load(_attn_v, _1524);
           int64_t  const _1526 = (int64_t)(_1363);
           int64_t  const _1527 = _1520 + _1526;
           int64_t  const _1528 = _1527 * int64_t(8);
           int64_t  const _1529 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1530 = _1528 + _1529;
           int64_t  const _1531 = _1530 * int64_t(4);
           int64_t  const _1532 = _1531 + int64_t(2);
           float  const _1533 = _probs[_1532];
           float16  const _1534 = float16_ops::broadcast(_1533);
           float16  const _1535 = _1525 * _1534;
           float16  const _1536 = _1519 + _1535;
           float16_ops::store(_1536, _pv_block, int64_t(144));
           float16  const _1537 = float16_ops::load(_pv_block, int64_t(160));
           int64_t  const _1538 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1539 = (int64_t)(_1330);
           int64_t  const _1540 = _1538 + _1539;
           int64_t  const _1541 = _1540 * int64_t(64);
           int64_t  const _1542 = _1541 + int64_t(32);
           float16  const _1543 = float16_ops::load(_attn_v, _1542);
           int64_t  const _1544 = (int64_t)(_1363);
           int64_t  const _1545 = _1538 + _1544;
           int64_t  const _1546 = _1545 * int64_t(8);
           int64_t  const _1547 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1548 = _1546 + _1547;
           int64_t  const _1549 = _1548 * int64_t(4);
           int64_t  const _1550 = _1549 + int64_t(2);
           float  const _1551 = _probs[_1550];
           float16  const _1552 = float16_ops::broadcast(_1551);
           float16  const _1553 = _1543 * _1552;
           float16  const _1554 = _1537 + _1553;
           float16_ops::store(_1554, _pv_block, int64_t(160));
           float16  const _1555 = float16_ops::load(_pv_block, int64_t(176));
           int64_t  const _1556 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1557 = (int64_t)(_1330);
           int64_t  const _1558 = _1556 + _1557;
           int64_t  const _1559 = _1558 * int64_t(64);
           int64_t  const _1560 = _1559 + int64_t(48);
           float16  const _1561 = float16_ops::load(_attn_v, _1560);
           int64_t  const _1562 = (int64_t)(_1363);
           int64_t  const _1563 = _1556 + _1562;
           int64_t  const _1564 = _1563 * int64_t(8);
           int64_t  const _1565 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1566 = _1564 + _1565;
           int64_t  const _1567 = _1566 * int64_t(4);
           int64_t  const _1568 = _1567 + int64_t(2);
           float  const _1569 = _probs[_1568];
           float16  const _1570 = float16_ops::broadcast(_1569);
           float16  const _1571 = _1561 * _1570;
           float16  const _1572 = _1555 + _1571;
           float16_ops::store(_1572, _pv_block, int64_t(176));
           float16  const _1573 = float16_ops::load(_pv_block, int64_t(192));
           int64_t  const _1574 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1575 = (int64_t)(_1330);
           int64_t  const _1576 = _1574 + _1575;
           int64_t  const _1577 = _1576 * int64_t(64);
           float16  const _1578 = float16_ops::load(_attn_v, _1577);
           int64_t  const _1579 = (int64_t)(_1363);
           int64_t  const _1580 = _1574 + _1579;
           int64_t  const _1581 = _1580 * int64_t(8);
           int64_t  const _1582 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1583 = _1581 + _1582;
           int64_t  const _1584 = _1583 * int64_t(4);
           int64_t  const _1585 = _1584 + int64_t(3);
           float  const _1586 = _probs[_1585];
           float16  const _1587 = float16_ops::broadcast(_1586);
           float16  const _1588 = _1578 * _1587;
           float16  const _1589 = _1573 + _1588;
           float16_ops::store(_1589, _pv_block, int64_t(192));
           float16  const _1590 = float16_ops::load(_pv_block, int64_t(208));
           int64_t  const _1591 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1592 = (int64_t)(_1330);
           int64_t  const _1593 = _1591 + _1592;
           int64_t  const _1594 = _1593 * int64_t(64);
           int64_t  const _1595 = _1594 + int64_t(16);
           float16  const _1596 = float16_ops::load(_attn_v, _1595);
           int64_t  const _1597 = (int64_t)(_1363);
           int64_t  const _1598 = _1591 + _1597;
           int64_t  const _1599 = _1598 * int64_t(8);
           int64_t  const _1600 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1601 = _1599 + _1600;
           int64_t  const _1602 = _1601 * int64_t(4);
           int64_t  const _1603 = _1602 + int64_t(3);
           float  const _1604 = _probs[_1603];
           float16  const _1605 = float16_ops::broadcast(_1604);
           float16  const _1606 = _1596 * _1605;
           float16  const _1607 = _1590 + _1606;
           float16_ops::store(_1607, _pv_block, int64_t(208));
           float16  const _1608 = float16_ops::load(_pv_block, int64_t(224));
           int64_t  const _1609 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1610 = (int64_t)(_1330);
           int64_t  const _1611 = _1609 + _1610;
           int64_t  const _1612 = _1611 * int64_t(64);
           int64_t  const _1613 = _1612 + int64_t(32);
           float16  const _1614 = float16_ops::load(_attn_v, _1613);
           int64_t  const _1615 = (int64_t)(_1363);
           int64_t  const _1616 = _1609 + _1615;
           int64_t  const _1617 = _1616 * int64_t(8);
           int64_t  const _1618 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1619 = _1617 + _1618;
           int64_t  const _1620 = _1619 * int64_t(4);
           int64_t  const _1621 = _1620 + int64_t(3);
           float  const _1622 = _probs[_1621];
           float16  const _1623 = float16_ops::broadcast(_1622);
           float16  const _1624 = _1614 * _1623;
           float16  const _1625 = _1608 + _1624;
           float16_ops::store(_1625, _pv_block, int64_t(224));
           float16  const _1626 = float16_ops::load(_pv_block, int64_t(240));
           int64_t  const _1627 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1628 = (int64_t)(_1330);
           int64_t  const _1629 = _1627 + _1628;
           int64_t  const _1630 = _1629 * int64_t(64);
           int64_t  const _1631 = _1630 + int64_t(48);
           float16  const _1632 = float16_ops::load(_attn_v, _1631);
           int64_t  const _1633 = (int64_t)(_1363);
           int64_t  const _1634 = _1627 + _1633;
           int64_t  const _1635 = _1634 * int64_t(8);
           int64_t  const _1636 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1637 = _1635 + _1636;
           int64_t  const _1638 = _1637 * int64_t(4);
           int64_t  const _1639 = _1638 + int64_t(3);
           float  const _1640 = _probs[_1639];
           float16  const _1641 = float16_ops::broadcast(_1640);
           float16  const _1642 = _1632 * _1641;
           float16  const _1643 = _1626 + _1642;
           float16_ops::store(_1643, _pv_block, int64_t(240));
          } // for _pv_block_s1_rki__x
          // consume pv_block
          int64_t  const _1644 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1645 = _1644 * int64_t(256);
          float16  const _1646 = float16_ops::load(_pv_blocks, _1645);
          float16  const _1647 = float16_ops::load(_pv_block, int64_t(0));
          float16  const _1648 = _1646 + _1647;
          float16_ops::store(_1648, _pv_blocks, _1645);
          int64_t  const _1649 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1650 = _1649 * int64_t(256);
          int64_t  const _1651 = _1650 + int64_t(16);
          float16  const _1652 = float16_ops::load(_pv_blocks, _1651);
          float16  const _1653 = float16_ops::load(_pv_block, int64_t(16));
          float16  const _1654 = _1652 + _1653;
          float16_ops::store(_1654, _pv_blocks, _1651);
          int64_t  const _1655 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1656 = _1655 * int64_t(256);
          int64_t  const _1657 = _1656 + int64_t(32);
          float16  const _1658 = float16_ops::load(_pv_blocks, _1657);
          float16  const _1659 = float16_ops::load(_pv_block, int64_t(32));
          float16  const _1660 = _1658 + _1659;
          float16_ops::store(_1660, _pv_blocks, _1657);
          int64_t  const _1661 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1662 = _1661 * int64_t(256);
          int64_t  const _1663 = _1662 + int64_t(48);
          float16  const _1664 = float16_ops::load(_pv_blocks, _1663);
          float16  const _1665 = float16_ops::load(_pv_block, int64_t(48));
          float16  const _1666 = _1664 + _1665;
          float16_ops::store(_1666, _pv_blocks, _1663);
          int64_t  const _1667 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1668 = _1667 * int64_t(256);
          int64_t  const _1669 = _1668 + int64_t(64);
          float16  const _1670 = float16_ops::load(_pv_blocks, _1669);
          float16  const _1671 = float16_ops::load(_pv_block, int64_t(64));
          float16  const _1672 = _1670 + _1671;
          float16_ops::store(_1672, _pv_blocks, _1669);
          int64_t  const _1673 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1674 = _1673 * int64_t(256);
          int64_t  const _1675 = _1674 + int64_t(80);
          float16  const _1676 = float16_ops::load(_pv_blocks, _1675);
          float16  const _1677 = float16_ops::load(_pv_block, int64_t(80));
          float16  const _1678 = _1676 + _1677;
          float16_ops::store(_1678, _pv_blocks, _1675);
          int64_t  const _1679 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1680 = _1679 * int64_t(256);
          int64_t  const _1681 = _1680 + int64_t(96);
          float16  const _1682 = float16_ops::load(_pv_blocks, _1681);
          float16  const _1683 = float16_ops::load(_pv_block, int64_t(96));
          float16  const _1684 = _1682 + _1683;
          float16_ops::store(_1684, _pv_blocks, _1681);
          int64_t  const _1685 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1686 = _1685 * int64_t(256);
          int64_t  const _1687 = _1686 + int64_t(112);
          float16  const _1688 = float16_ops::load(_pv_blocks, _1687);
          float16  const _1689 = float16_ops::load(_pv_block, int64_t(112));
          float16  const _1690 = _1688 + _1689;
          float16_ops::store(_1690, _pv_blocks, _1687);
          int64_t  const _1691 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1692 = _1691 * int64_t(256);
          int64_t  const _1693 = _1692 + int64_t(128);
          float16  const _1694 = float16_ops::load(_pv_blocks, _1693);
          float16  const _1695 = float16_ops::load(_pv_block, int64_t(128));
          float16  const _1696 = _1694 + _1695;
          float16_ops::store(_1696, _pv_blocks, _1693);
          int64_t  const _1697 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1698 = _1697 * int64_t(256);
          int64_t  const _1699 = _1698 + int64_t(144);
          float16  const _1700 = float16_ops::load(_pv_blocks, _1699);
          float16  const _1701 = float16_ops::load(_pv_block, int64_t(144));
          float16  const _1702 = _1700 + _1701;
          float16_ops::store(_1702, _pv_blocks, _1699);
          int64_t  const _1703 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1704 = _1703 * int64_t(256);
          int64_t  const _1705 = _1704 + int64_t(160);
          float16  const _1706 = float16_ops::load(_pv_blocks, _1705);
          float16  const _1707 = float16_ops::load(_pv_block, int64_t(160));
          float16  const _1708 = _1706 + _1707;
          float16_ops::store(_1708, _pv_blocks, _1705);
          int64_t  const _1709 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1710 = _1709 * int64_t(256);
          int64_t  const _1711 = _1710 + int64_t(176);
          float16  const _1712 = float16_ops::load(_pv_blocks, _1711);
          float16  const _1713 = float16_ops::load(_pv_block, int64_t(176));
          float16  const _1714 = _1712 + _1713;
          float16_ops::store(_1714, _pv_blocks, _1711);
          int64_t  const _1715 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1716 = _1715 * int64_t(256);
          int64_t  const _1717 = _1716 + int64_t(192);
          float16  const _1718 = float16_ops::load(_pv_blocks, _1717);
          float16  const _1719 = float16_ops::load(_pv_block, int64_t(192));
          float16  const _1720 = _1718 + _1719;
          float16_ops::store(_1720, _pv_blocks, _1717);
          int64_t  const _1721 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1722 = _1721 * int64_t(256);
          int64_t  const _1723 = _1722 + int64_t(208);
          float16  const _1724 = float16_ops::load(_pv_blocks, _1723);
          float16  const _1725 = float16_ops::load(_pv_block, int64_t(208));
          float16  const _1726 = _1724 + _1725;
          float16_ops::store(_1726, _pv_blocks, _1723);
          int64_t  const _1727 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1728 = _1727 * int64_t(256);
          int64_t  const _1729 = _1728 + int64_t(224);
          float16  const _1730 = float16_ops::load(_pv_blocks, _1729);
          float16  const _1731 = float16_ops::load(_pv_block, int64_t(224));
          float16  const _1732 = _1730 + _1731;
          float16_ops::store(_1732, _pv_blocks, _1729);
          int64_t  const _1733 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1734 = _1733 * int64_t(256);
          int64_t  const _1735 = _1734 + int64_t(240);
          float16  const _1736 = float16_ops::load(_pv_blocks, _1735);
          float16  const _1737 = float16_ops::load(_pv_block, int64_t(240));
          float16  const _1738 = _1736 + _1737;
          float16_ops::store(_1738, _pv_blocks, _1735);
         } // alloc _pv_block
        } // for _pv_blocks_s1_ii_ig
       } // for _pv_blocks_s1_rkb__x
       {
        int64_t  const _1739 = 64;
        int32_t  const _1740 = _attn_rows + 3;
        int32_t  const _1741 = _1740 >> 2;
        int32_t  const _1742 = _1741 * 4;
        int64_t  const _1743 = _1739 * _1742;
        if ((_1743 > ((int64_t(1) << 31) - 1)) || ((_1743 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
        {
         attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation pv\n");
         return -1;
        } // overflow test pv
        int64_t  const _1744 = _1743;
        float *_pv = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_1744);
        if (!_pv)
        {
         int32_t  const _1745 = attn_causal64_rt_error_out_of_memory(_ucon);
         return _1745;
        }
        HalideFreeHelper _pv_free(_ucon, _pv, attn_causal64_rt_free);
        // produce pv
        // consume pv_blocks
        int32_t  const _1746 = _attn_rows + 3;
        int32_t  const _1747 = _1746 >> 2;
        int32_t  const _1748 = _1747 * 4;
        for (int _pv_s0_ii = 0; _pv_s0_ii < 0 + _1748; _pv_s0_ii++)
        {
         int32_t  const _1749 = _pv_s0_ii * 4;
         for (int _pv_s0_c_c = 0; _pv_s0_c_c < 0 + 4; _pv_s0_c_c++)
         {
          int32_t  const _1750 = _pv_s0_c_c + _1749;
          int64_t  const _1751 = (int64_t)(_1750);
          int64_t  const _1752 = _1751 * int64_t(16);
          float16  const _1753 = float16_ops::load(_pv_blocks, _1752);
          float16_ops::store(_1753, _pv, _1752);
         } // for _pv_s0_c_c
        } // for _pv_s0_ii
        _pv_blocks_free.free();
        // consume probs
        int32_t  const _1754 = _attn_rows + 3;
        int32_t  const _1755 = _1754 >> 2;
        int32_t  const _1756 = _87 - _92;
        int32_t  const _1757 = _92 - _1120;
        for (int _pv_s1_ii_ig = 0; _pv_s1_ii_ig < 0 + _1755; _pv_s1_ii_ig++)
        {
         for (int _pv_s1_rkt__x_rebased = 0; _pv_s1_rkt__x_rebased < 0 + _1756; _pv_s1_rkt__x_rebased++)
         {
          int64_t  const _1758 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1759 = _1758 * int64_t(256);
          float16  const _1760 = float16_ops::load(_pv, _1759);
          int64_t  const _1761 = (int64_t)(_92);
          int64_t  const _1762 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1763 = _1761 + _1762;
          int64_t  const _1764 = _1763 * int64_t(64);
          float16  const _1765 = float16_ops::load(_attn_v, _1764);
          int64_t  const _1766 = (int64_t)(_1757);
          int64_t  const _1767 = _1762 + _1766;
          int64_t  const _1768 = _1767 * int64_t(8);
          int64_t  const _1769 = _1768 + _1758;
          int64_t  const _1770 = _1769 * int64_t(4);
          float  const _1771 = _probs[_1770];
          float16  const _1772 = float16_ops::broadcast(_1771);
          float16  const _1773 = _1765 * _1772;
          float16  const _1774 = _1760 + _1773;
          float16_ops::store(_1774, _pv, _1759);
          int64_t  const _1775 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1776 = _1775 * int64_t(256);
          int64_t  const _1777 = _1776 + int64_t(16);
          float16  const _1778 = float16_ops::load(_pv, _1777);
          int64_t  const _1779 = (int64_t)(_92);
          int64_t  const _1780 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1781 = _1779 + _1780;
          int64_t  const _1782 = _1781 * int64_t(64);
          int64_t  const _1783 = _1782 + int64_t(16);
          float16  const _1784 = float16_ops::load(_attn_v, _1783);
          int64_t  const _1785 = (int64_t)(_1757);
          int64_t  const _1786 = _1780 + _1785;
          int64_t  const _1787 = _1786 * int64_t(8);
          int64_t  const _1788 = _1787 + _1775;
          int64_t  const _1789 = _1788 * int64_t(4);
          float  const _1790 = _probs[_1789];
          float16  const _1791 = float16_ops::broadcast(_1790);
          float16  const _1792 = _1784 * _1791;
          float16  const _1793 = _1778 + _1792;
          float16_ops::store(_1793, _pv, _1777);
          int64_t  const _1794 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1795 = _1794 * int64_t(256);
          int64_t  const _1796 = _1795 + int64_t(32);
          float16  const _1797 = float16_ops::load(_pv, _1796);
          int64_t  const _1798 = (int64_t)(_92);
          int64_t  const _1799 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1800 = _1798 + _1799;
          int64_t  const _1801 = _1800 * int64_t(64);
          int64_t  const _1802 = _1801 + int64_t(32);
          float16  const _1803 = float16_ops::load(_attn_v, _1802);
          int64_t  const _1804 = (int64_t)(_1757);
          int64_t  const _1805 = _1799 + _1804;
          int64_t  const _1806 = _1805 * int64_t(8);
          int64_t  const _1807 = _1806 + _1794;
          int64_t  const _1808 = _1807 * int64_t(4);
          float  const _1809 = _probs[_1808];
          float16  const _1810 = float16_ops::broadcast(_1809);
          float16  const _1811 = _1803 * _1810;
          float16  const _1812 = _1797 + _1811;
          float16_ops::store(_1812, _pv, _1796);
          int64_t  const _1813 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1814 = _1813 * int64_t(256);
          int64_t  const _1815 = _1814 + int64_t(48);
          float16  const _1816 = float16_ops::load(_pv, _1815);
          int64_t  const _1817 = (int64_t)(_92);
          int64_t  const _1818 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1819 = _1817 + _1818;
          int64_t  const _1820 = _1819 * int64_t(64);
          int64_t  const _1821 = _1820 + int64_t(48);
          float16  const _1822 = float16_ops::load(_attn_v, _1821);
          int64_t  const _1823 = (int64_t)(_1757);
          int64_t  const _1824 = _1818 + _1823;
          int64_t  const _1825 = _1824 * int64_t(8);
          int64_t  const _1826 = _1825 + _1813;
          int64_t  const _1827 = _1826 * int64_t(4);
          float  const _1828 = _probs[_1827];
          float16  const _1829 = float16_ops::broadcast(_1828);
          float16  const _1830 = _1822 * _1829;
          float16  const _1831 = _1816 + _1830;
          float16_ops::store(_1831, _pv, _1815);
          int64_t  const _1832 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1833 = _1832 * int64_t(256);
          int64_t  const _1834 = _1833 + int64_t(64);
          float16  const _1835 = float16_ops::load(_pv, _1834);
          int64_t  const _1836 = (int64_t)(_92);
          int64_t  const _1837 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1838 = _1836 + _1837;
          int64_t  const _1839 = _1838 * int64_t(64);
          float16  const _1840 = float16_ops::load(_attn_v, _1839);
          int64_t  const _1841 = (int64_t)(_1757);
          int64_t  const _1842 = _1837 + _1841;
          int64_t  const _1843 = _1842 * int64_t(8);
          int64_t  const _1844 = _1843 + _1832;
          int64_t  const _1845 = _1844 * int64_t(4);
          int64_t  const _1846 = _1845 + int64_t(1);
          float  const _1847 = _probs[_1846];
          float16  const _1848 = float16_ops::broadcast(_1847);
          float16  const _1849 = _1840 * _1848;
          float16  const _1850 = _1835 + _1849;
          float16_ops::store(_1850, _pv, _1834);
          int64_t  const _1851 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1852 = _1851 * int64_t(256);
          int64_t  const _1853 = _1852 + int64_t(80);
          float16  const _1854 = float16_ops::load(_pv, _1853);
          int64_t  const _1855 = (int64_t)(_92);
          int64_t  const _1856 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1857 = _1855 + _1856;
          int64_t  const _1858 = _1857 * int64_t(64);
          int64_t  const _1859 = _1858 + int64_t(16);
          float16  const _1860 = float16_ops::load(_attn_v, _1859);
          int64_t  const _1861 = (int64_t)(_1757);
          int64_t  const _1862 = _1856 + _1861;
          int64_t  const _1863 = _1862 * int64_t(8);
          int64_t  const _1864 = _1863 + _1851;
          int64_t  const _1865 = _1864 * int64_t(4);
          int64_t  const _1866 = _1865 + int64_t(1);
          float  const _1867 = _probs[_1866];
          float16  const _1868 = float16_ops::broadcast(_1867);
          float16  const _1869 = _1860 * _1868;
          float16  const _1870 = _1854 + _1869;
          float16_ops::store(_1870, _pv, _1853);
          int64_t  const _1871 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1872 = _1871 * int64_t(256);
          int64_t  const _1873 = _1872 + int64_t(96);
          float16  const _1874 = float16_ops::load(_pv, _1873);
          int64_t  const _1875 = (int64_t)(_92);
          int64_t  const _1876 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1877 = _1875 + _1876;
          int64_t  const _1878 = _1877 * int64_t(64);
          int64_t  const _1879 = _1878 + int64_t(32);
          float16  const _1880 = float16_ops::load(_attn_v, _1879);
          int64_t  const _1881 = (int64_t)(_1757);
          int64_t  const _1882 = _1876 + _1881;
          int64_t  const _1883 = _1882 * int64_t(8);
          int64_t  const _1884 = _1883 + _1871;
          int64_t  const _1885 = _1884 * int64_t(4);
          int64_t  const _1886 = _1885 + int64_t(1);
          float  const _1887 = _probs[_1886];
          float16  const _1888 = float16_ops::broadcast(_1887);
          float16  const _1889 = _1880 * _1888;
          float16  const _1890 = _1874 + _1889;
          float16_ops::store(_1890, _pv, _1873);
          int64_t  const _1891 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1892 = _1891 * int64_t(256);
          int64_t  const _1893 = _1892 + int64_t(112);
          float16  const _1894 = float16_ops::load(_pv, _1893);
          int64_t  const _1895 = (int64_t)(_92);
          int64_t  const _1896 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1897 = _1895 + _1896;
          int64_t  const _1898 = _1897 * int64_t(64);
          int64_t  const _1899 = _1898 + int64_t(48);
          float16  const _1900 = float16_ops::load(_attn_v, _1899);
          int64_t  const _1901 = (int64_t)(_1757);
          int64_t  const _1902 = _1896 + _1901;
          int64_t  const _1903 = _1902 * int64_t(8);
          int64_t  const _1904 = _1903 + _1891;
          int64_t  const _1905 = _1904 * int64_t(4);
          int64_t  const _1906 = _1905 + int64_t(1);
          float  const _1907 = _probs[_1906];
          float16  const _1908 = float16_ops::broadcast(_1907);
          float16  const _1909 = _1900 * _1908;
          float16  const _1910 = _1894 + _1909;
          float16_ops::store(_1910, _pv, _1893);
          int64_t  const _1911 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1912 = _1911 * int64_t(256);
          int64_t  const _1913 = _1912 + int64_t(128);
          float16  const _1914 = float16_ops::load(_pv, _1913);
          int64_t  const _1915 = (int64_t)(_92);
          int64_t  const _1916 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1917 = _1915 + _1916;
          int64_t  const _1918 = _1917 * int64_t(64);
          float16  const _1919 = float16_ops::load(_attn_v, _1918);
          int64_t  const _1920 = (int64_t)(_1757);
          int64_t  const _1921 = _1916 + _1920;
          int64_t  const _1922 = _1921 * int64_t(8);
          int64_t  const _1923 = _1922 + _1911;
          int64_t  const _1924 = _1923 * int64_t(4);
          int64_t  const _1925 = _1924 + int64_t(2);
          float  const _1926 = _probs[_1925];
          float16  const _1927 = float16_ops::broadcast(_1926);
          float16  const _1928 = _1919 * _1927;
          float16  const _1929 = _1914 + _1928;
          float16_ops::store(_1929, _pv, _1913);
          int64_t  const _1930 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1931 = _1930 * int64_t(256);
          int64_t  const _1932 = _1931 + int64_t(144);
          float16  const _1933 = float16_ops::load(_pv, _1932);
          int64_t  const _1934 = (int64_t)(_92);
          int64_t  const _1935 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1936 = _1934 + _1935;
          int64_t  const _1937 = _1936 * int64_t(64);
          int64_t  const _1938 = _1937 + int64_t(16);
          float16  const _1939 = float16_ops::load(_attn_v, _1938);
          int64_t  const _1940 = (int64_t)(_1757);
          int64_t  const _1941 = _1935 + _1940;
          int64_t  const _1942 = _1941 * int64_t(8);
          int64_t  const _1943 = _1942 + _1930;
          int64_t  const _1944 = _1943 * int64_t(4);
          int64_t  const _1945 = _1944 + int64_t(2);
          float  const _1946 = _probs[_1945];
          float16  const _1947 = float16_ops::broadcast(_1946);
          float16  const _1948 = _1939 * _1947;
          float16  const _1949 = _1933 + _1948;
          float16_ops::store(_1949, _pv, _1932);
          int64_t  const _1950 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1951 = _1950 * int64_t(256);
          int64_t  const _1952 = _1951 + int64_t(160);
          float16  const _1953 = float16_ops::load(_pv, _1952);
          int64_t  const _1954 = (int64_t)(_92);
          int64_t  const _1955 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1956 = _1954 + _1955;
          int64_t  const _1957 = _1956 * int64_t(64);
          int64_t  const _1958 = _1957 + int64_t(32);
          float16  const _1959 = float16_ops::load(_attn_v, _1958);
          int64_t  const _1960 = (int64_t)(_1757);
          int64_t  const _1961 = _1955 + _1960;
          int64_t  const _1962 = _1961 * int64_t(8);
          int64_t  const _1963 = _1962 + _1950;
          int64_t  const _1964 = _1963 * int64_t(4);
          int64_t  const _1965 = _1964 + int64_t(2);
          float  const _1966 = _probs[_1965];
          float16  const _1967 = float16_ops::broadcast(_1966);
          float16  const _1968 = _1959 * _1967;
          float16  const _1969 = _1953 + _1968;
          float16_ops::store(_1969, _pv, _1952);
          int64_t  const _1970 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1971 = _1970 * int64_t(256);
          int64_t  const _1972 = _1971 + int64_t(176);
          float16  const _1973 = float16_ops::load(_pv, _1972);
          int64_t  const _1974 = (int64_t)(_92);
          int64_t  const _1975 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1976 = _1974 + _1975;
          int64_t  const _1977 = _1976 * int64_t(64);
          int64_t  const _1978 = _1977 + int64_t(48);
          float16  const _1979 = float16_ops::load(_attn_v, _1978);
          int64_t  const _1980 = (int64_t)(_1757);
          int64_t  const _1981 = _1975 + _1980;
          int64_t  const _1982 = _1981 * int64_t(8);
          int64_t  const _1983 = _1982 + _1970;
          int64_t  const _1984 = _1983 * int64_t(4);
          int64_t  const _1985 = _1984 + int64_t(2);
          float  const _1986 = _probs[_1985];
          float16  const _1987 = float16_ops::broadcast(_1986);
          float16  const _1988 = _1979 * _1987;
          float16  const _1989 = _1973 + _1988;
          float16_ops::store(_1989, _pv, _1972);
          int64_t  const _1990 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1991 = _1990 * int64_t(256);
          int64_t  const _1992 = _1991 + int64_t(192);
          float16  const _1993 = float16_ops::load(_pv, _1992);
          int64_t  const _1994 = (int64_t)(_92);
          int64_t  const _1995 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1996 = _1994 + _1995;
          int64_t  const _1997 = _1996 * int64_t(64);
          float16  const _1998 = float16_ops::load(_attn_v, _1997);
          int64_t  const _1999 = (int64_t)(_1757);
          int64_t  const _2000 = _1995 + _1999;
          int64_t  const _2001 = _2000 * int64_t(8);
          int64_t  const _2002 = _2001 + _1990;
          int64_t  const _2003 = _2002 * int64_t(4);
          int64_t  const _2004 = _2003 + int64_t(3);
          float  const _2005 = _probs[_2004];
          float16  const _2006 = float16_ops::broadcast(_2005);
          float16  const _2007 = _1998 * _2006;
          float16  const _2008 = _1993 + _2007;
          float16_ops::store(_2008, _pv, _1992);
          int64_t  const _2009 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _2010 = _2009 * int64_t(256);
          int64_t  const _2011 = _2010 + int64_t(208);
          float16  const _2012 = float16_ops::load(_pv, _2011);
          int64_t  const _2013 = (int64_t)(_92);
          int64_t  const _2014 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _2015 = _2013 + _2014;
          int64_t  const _2016 = _2015 * int64_t(64);
          int64_t  const _2017 = _2016 + int64_t(16);
          float16  const _2018 = float16_ops::load(_attn_v, _2017);
          int64_t  const _2019 = (int64_t)(_1757);
          int64_t  const _2020 = _2014 + _2019;
          int64_t  const _2021 = _2020 * int64_t(8);
          int64_t  const _2022 = _2021 + _2009;
          int64_t  const _2023 = _2022 * int64_t(4);
          int64_t  const _2024 = _2023 + int64_t(3);
          float  const _2025 = _probs[_2024];
          float16  const _2026 = float16_ops::broadcast(_2025);
          float16  const _2027 = _2018 * _2026;
          float16  const _2028 = _2012 + _2027;
          float16_ops::store(_2028, _pv, _2011);
          int64_t  const _2029 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _2030 = _2029 * int64_t(256);
          int64_t  const _2031 = _2030 + int64_t(224);
          float16  const _2032 = float16_ops::load(_pv, _2031);
          int64_t  const _2033 = (int64_t)(_92);
          int64_t  const _2034 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _2035 = _2033 + _2034;
          int64_t  const _2036 = _2035 * int64_t(64);
          int64_t  const _2037 = _2036 + int64_t(32);
          float16  const _2038 = float16_ops::load(_attn_v, _2037);
          int64_t  const _2039 = (int64_t)(_1757);
          int64_t  const _2040 = _2034 + _2039;
          int64_t  const _2041 = _2040 * int64_t(8);
          int64_t  const _2042 = _2041 + _2029;
          int64_t  const _2043 = _2042 * int64_t(4);
          int64_t  const _2044 = _2043 + int64_t(3);
          float  const _2045 = _probs[_2044];
          float16  const _2046 = float16_ops::broadcast(_2045);
          float16  const _2047 = _2038 * _2046;
          float16  const _2048 = _2032 + _2047;
          float16_ops::store(_2048, _pv, _2031);
          int64_t  const _2049 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _2050 = _2049 * int64_t(256);
          int64_t  const _2051 = _2050 + int64_t(240);
          float16  const _2052 = float16_ops::load(_pv, _2051);
          int64_t  const _2053 = (int64_t)(_92);
          int64_t  const _2054 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _2055 = _2053 + _2054;
          int64_t  const _2056 = _2055 * int64_t(64);
          int64_t  const _2057 = _2056 + int64_t(48);
          float16  const _2058 = float16_ops::load(_attn_v, _2057);
          int64_t  const _2059 = (int64_t)(_1757);
          int64_t  const _2060 = _2054 + _2059;
          int64_t  const _2061 = _2060 * int64_t(8);
          int64_t  const _2062 = _2061 + _2049;
          int64_t  const _2063 = _2062 * int64_t(4);
          int64_t  const _2064 = _2063 + int64_t(3);
          float  const _2065 = _probs[_2064];
          float16  const _2066 = float16_ops::broadcast(_2065);
          float16  const _2067 = _2058 * _2066;
          float16  const _2068 = _2052 + _2067;
          float16_ops::store(_2068, _pv, _2051);
         } // for _pv_s1_rkt__x_rebased
        } // for _pv_s1_ii_ig
        {
         float _row_sum[32];
         int32_t  const _2069 = ::halide_cpp_max(_84, 0);
         int32_t  const _2070 = _87 - _2069;
         // produce row_sum
         for (int _row_sum_s0_ii_ii = 0; _row_sum_s0_ii_ii < 0 + 2; _row_sum_s0_ii_ii++)
         {
          float  const _2071 = float_from_bits(0 /* 0 */);
          float16  const _2072 = float16_ops::broadcast(_2071);
          int64_t  const _2073 = (int64_t)(_row_sum_s0_ii_ii);
          int64_t  const _2074 = _2073 * int64_t(16);
          float16_ops::store(_2072, _row_sum, _2074);
         } // for _row_sum_s0_ii_ii
         // consume probs
         int32_t  const _2075 = ::halide_cpp_max(_84, 0);
         int32_t  const _2076 = _2075 - _1120;
         for (int _row_sum_s1_rk__x_rebased = 0; _row_sum_s1_rk__x_rebased < 0 + _2070; _row_sum_s1_rk__x_rebased++)
         {
          float16  const _2077 = float16_ops::load(_row_sum, int64_t(0));
          int64_t  const _2078 = (int64_t)(_row_sum_s1_rk__x_rebased);
          int64_t  const _2079 = (int64_t)(_2076);
          int64_t  const _2080 = _2078 + _2079;
          int64_t  const _2081 = _2080 * int64_t(32);
          float16  const _2082 = float16_ops::load(_probs, _2081);
          float16  const _2083 = _2077 + _2082;
          float16_ops::store(_2083, _row_sum, int64_t(0));
          float16  const _2084 = float16_ops::load(_row_sum, int64_t(16));
          int64_t  const _2085 = (int64_t)(_row_sum_s1_rk__x_rebased);
          int64_t  const _2086 = (int64_t)(_2076);
          int64_t  const _2087 = _2085 + _2086;
          int64_t  const _2088 = _2087 * int64_t(32);
          int64_t  const _2089 = _2088 + int64_t(16);
          float16  const _2090 = float16_ops::load(_probs, _2089);
          float16  const _2091 = _2084 + _2090;
          float16_ops::store(_2091, _row_sum, int64_t(16));
         } // for _row_sum_s1_rk__x_rebased
         _probs_free.free();
         {
          float _partial[2560];
          // produce partial
          // consume row_sum
          // consume pv
          // consume row_max
          int32_t  const _2092 = _attn_kv_lo >> 3;
          int32_t  const _2093 = ::halide_cpp_max(_2092, 0);
          int32_t  const _2094 = _2093 * 8;
          int32_t  const _2095 = ::halide_cpp_min(_2094, _attn_lk);
          int32_t  const _2096 = ::halide_cpp_min(_attn_kv_hi, _attn_lk);
          int32_t  const _2097 = _2096 + 7;
          int32_t  const _2098 = _2097 >> 3;
          int32_t  const _2099 = _attn_lq + -1;
          int32_t  const _2100 = _2099 >> 5;
          int32_t  const _2101 = _attn_q_step * 31;
          int32_t  const _2102 = _2101 + _attn_q0;
          int32_t  const _2103 = _2102 >> 5;
          int32_t  const _2104 = _2103 + _attn_tile;
          int32_t  const _2105 = ::halide_cpp_min(_2100, _2104);
          int32_t  const _2106 = _attn_q0 >> 5;
          int32_t  const _2107 = _2106 + _attn_tile;
          int32_t  const _2108 = ::halide_cpp_max(_2105, _2107);
          int32_t  const _2109 = _2108 * 4;
          int32_t  const _2110 = _2109 + 4;
          int32_t  const _2111 = ::halide_cpp_min(_2098, _2110);
          int32_t  const _2112 = _2111 * 8;
          int32_t  const _2113 = ::halide_cpp_min(_2112, _attn_lk);
          int32_t  const _2114 = _attn_rows + 3;
          int32_t  const _2115 = _2114 >> 2;
          int32_t  const _2116 = _2115 * 4;
          int32_t  const _2117 = _attn_chunk_lo >> 3;
          int32_t  const _2118 = _2117 * 8;
          for (int _partial_s0_ii_ig = 0; _partial_s0_ii_ig < 0 + 8; _partial_s0_ii_ig++)
          {
           int32_t  const _2119 = ::halide_cpp_max(_2095, _2113);
           int32_t  const _2120 = _partial_s0_ii_ig * 4;
           for (int _partial_s0_ii_ir = 0; _partial_s0_ii_ir < 0 + 4; _partial_s0_ii_ir++)
           {
            int32_t  const _2121 = _partial_s0_ii_ir + _2120;
            for (int _partial_s0_c_c = 0; _partial_s0_c_c < 0 + 4; _partial_s0_c_c++)
            {
             int64_t  const _2122 = (int64_t)(_2116);
             int64_t  const _2123 = _2122 + int64_t(-1);
             int64_t  const _2124 = (int64_t)(_2121);
             int64_t  const _2125 = ::halide_cpp_min(_2123, _2124);
             int64_t  const _2126 = _2125 * int64_t(4);
             int64_t  const _2127 = (int64_t)(_partial_s0_c_c);
             int64_t  const _2128 = _2126 + _2127;
             int64_t  const _2129 = _2128 * int64_t(16);
             float16  const _2130 = float16_ops::load(_pv, _2129);
             int64_t  const _2131 = _2124 * int64_t(5);
             int64_t  const _2132 = _2131 + _2127;
             int64_t  const _2133 = _2132 * int64_t(16);
             float16_ops::store(_2130, _partial, _2133);
            } // for _partial_s0_c_c
            int32_t  const _2134 = _partial_s0_ii_ir + _2120;
            int64_t  const _2135 = (int64_t)(_2134);
            float  const _2136 = _row_max[_2135];
            float16  const _2137 = float16_ops::broadcast(_2136);
            float  const _2138 = _row_sum[_2135];
            float16  const _2139 = float16_ops::broadcast(_2138);
            int32_t  const _2140 = ::halide_cpp_min(_2118, _2119);
            int32_t  const _2141 = ::halide_cpp_max(_2140, _2095);
            int32_t  const _2142 = _2141 + 1024;
            int32_t  const _2143 = ::halide_cpp_min(_2142, _2119);
            float  const _2144 = reinterpret<float>(_2143);
            float16  const _2145 = float16_ops::broadcast(_2144);
            float  const _2146 = reinterpret<float>(_2119);
            float16  const _2147 = float16_ops::broadcast(_2146);
            int32x16_t  const _2148 = int32x16_t_ops::ramp(-2, 1);
            int32x16_t  const _2149 = int32x16_t_ops::broadcast(0);
            uint8x16_t  const _2150 = int32x16_t_ops::eq(_2148, _2149);
            float16  const _2151 = float16_ops::select(_2150, _2145, _2147);
            int32x16_t  const _2152 = int32x16_t_ops::ramp(-1, 1);
            uint8x16_t  const _2153 = int32x16_t_ops::eq(_2152, _2149);
            float16  const _2154 = float16_ops::select(_2153, _2139, _2151);
            int32x16_t  const _2155 = int32x16_t_ops::ramp(0, 1);
            uint8x16_t  const _2156 = int32x16_t_ops::eq(_2155, _2149);
            float16  const _2157 = float16_ops::select(_2156, _2137, _2154);
            int64_t  const _2158 = _2135 * int64_t(80);
            int64_t  const _2159 = _2158 + int64_t(64);
            float16_ops::store(_2157, _partial, _2159);
           } // for _partial_s0_ii_ir
          } // for _partial_s0_ii_ig
          _pv_free.free();
          // produce attn_out
          // consume partial
          for (int _attn_out_s0_ii = 0; _attn_out_s0_ii < 0 + 32; _attn_out_s0_ii++)
          {
           int32_t  const _2160 = _attn_out_s0_ii * 5;
           for (int _attn_out_s0_c_c = 0; _attn_out_s0_c_c < 0 + 5; _attn_out_s0_c_c++)
           {
            int32_t  const _2161 = _attn_out_s0_c_c + _2160;
            int64_t  const _2162 = (int64_t)(_2161);
            int64_t  const _2163 = _2162 * int64_t(16);
            float16  const _2164 = float16_ops::load(_partial, _2163);
            float16_ops::store(_2164, _attn_out, _2163);
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

// [fixed text: backends/cpu/fixed/F32Staging.h, 163 lines]

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
  // The matrix paths' decoding layout (fixed/MatrixStaging.h) when no task has more than a few rows.
  const int64_t task_rows = pack ? (groups < kTileQ ? groups : kTileQ) : (Lq < kTileQ ? Lq : kTileQ);
  const bool decoding = ValueStage::decoding_layout(task_rows, D, Dv);
  // The pipeline's `decoding`: 0, 1 (bf16 K and V rows in place) or 2 (their row addresses: a paged
  // cache's, or FP8 rows, read in place too).
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
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 136-207, 72 lines]
    // takes at most 1024 keys a call, so the scores stay in cache.
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 209-242, 34 lines]
            int result = attn_causal64_avx512_pipeline(uc, &q_tile.buf, &k_head.buf, &v_head.buf, int32_t(q_end), int32_t(Lk), int32_t(D),
                int32_t(Dv_pad), int32_t(t), int32_t(rows), decoding_layout, int32_t(q_step), int32_t(q0), int32_t(h), int32_t(b0 + b), piece_lo, piece_hi, next, &out_tile.buf);
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 245-291, 47 lines]
int run(const attn_kernel_args* args) {
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 293-306, 14 lines]
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

// [the source with every path (all_cpu_paths: the matrix paths for bf16): 17433 lines, hash b32e7b33b7c4ee04]
