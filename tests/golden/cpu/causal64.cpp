// attnc: CPU kernel 'causal64' (f32 I/O), Halide-scheduled. Generated; do not edit.
// Vector paths: avx512; the first call takes the widest this CPU runs (ATTNC_CPU_ISA=<path> forces a narrower one).
// Build: c++ -std=c++17 -O2 -ffp-contract=fast -fno-math-errno -c causal64.cpp
// (no -m flags: each path's functions carry their own ISA. clang++ is fastest; with g++ add -fno-tree-sra,
// or the accumulators leave registers.)
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

// ---- Halide's includes and runtime header (Halide 14 CodeGen_C output), shared by the paths ----

// [Halide runtime header: 2454 lines, hash c5c31a150c566be5]



// ---- The Halide runtime functions the paths call ----
// [cpu runtime glue for 17 runtime functions: 268 lines, hash 334ceb8c8c2523f5]

// ---- Vector path 'avx512': its Halide pipeline and entry point ----
#if defined(__x86_64__)
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma,f16c,avx512f,avx512vl,avx512dq,avx512bw"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c,avx512f,avx512vl,avx512dq,avx512bw")
#endif
namespace attn_causal64_avx512 {

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
// [Halide's checks of the arguments of attn_causal64_avx512_pipeline: 648 lines, hash 7cd5c7240b598eaf]
 {
  float _qs[2048];
  // produce qs
  for (int _qs_s0_ii_ii = 0; _qs_s0_ii_ii < 0 + 2; _qs_s0_ii_ii++)
  {
   for (int _qs_s0_c = 0; _qs_s0_c < 0 + 64; _qs_s0_c++)
   {
    int32_t  const _358 = _qs_s0_ii_ii * 1024;
    int32_t  const _359 = _358 + _qs_s0_c;
    int32x16_t  const _360 = int32x16_t_ops::ramp(_359, 64);
    float16  const _361 = float16_ops::load_gather(_attn_q, _360);
    float  const _362 = float_from_bits(1043900987 /* 0.180337 */);
    float16  const _363 = float16_ops::broadcast(_362);
    float16  const _364 = _361 * _363;
    int64_t  const _365 = (int64_t)(_qs_s0_c);
    int64_t  const _366 = _365 * int64_t(2);
    int64_t  const _367 = (int64_t)(_qs_s0_ii_ii);
    int64_t  const _368 = _366 + _367;
    int64_t  const _369 = _368 * int64_t(16);
    float16_ops::store(_364, _qs, _369);
   } // for _qs_s0_c
  } // for _qs_s0_ii_ii
  {
   int32_t  const _370 = _99 - _100;
   int32_t  const _371 = _370 + -1;
   int32_t  const _372 = _371 >> 3;
   int32_t  const _373 = _372 * 8;
   int32_t  const _374 = _373 + 8;
   int64_t  const _375 = _374;
   int64_t  const _376 = _375 * 32;
   if ((_376 > ((int64_t(1) << 31) - 1)) || ((_376 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
   {
    attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation scores\n");
    return -1;
   } // overflow test scores
   int64_t  const _377 = _376;
   float *_scores = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_377);
   if (!_scores)
   {
    int32_t  const _378 = attn_causal64_rt_error_out_of_memory(_ucon);
    return _378;
   }
   HalideFreeHelper _scores_free(_ucon, _scores, attn_causal64_rt_free);
   // produce scores
   // consume qs
   int32_t  const _379 = _99 + 7;
   int32_t  const _380 = ::halide_cpp_min(_379, _24);
   int32_t  const _381 = _380 - _100;
   int32_t  const _382 = _381 >> 3;
   int32_t  const _383 = ::halide_cpp_max(_382, 0);
   for (int _scores_s0_j_jo = 0; _scores_s0_j_jo < 0 + _383; _scores_s0_j_jo++)
   {
    {
     float _dot[256];
     // produce dot
     float  const _384 = float_from_bits(0 /* 0 */);
     float16  const _385 = float16_ops::broadcast(_384);
     float16_ops::store(_385, _dot, int64_t(0));
     float  const _386 = float_from_bits(0 /* 0 */);
     float16  const _387 = float16_ops::broadcast(_386);
     float16_ops::store(_387, _dot, int64_t(32));
     float  const _388 = float_from_bits(0 /* 0 */);
     float16  const _389 = float16_ops::broadcast(_388);
     float16_ops::store(_389, _dot, int64_t(64));
     float  const _390 = float_from_bits(0 /* 0 */);
     float16  const _391 = float16_ops::broadcast(_390);
     float16_ops::store(_391, _dot, int64_t(96));
     float  const _392 = float_from_bits(0 /* 0 */);
     float16  const _393 = float16_ops::broadcast(_392);
     float16_ops::store(_393, _dot, int64_t(128));
     float  const _394 = float_from_bits(0 /* 0 */);
     float16  const _395 = float16_ops::broadcast(_394);
     float16_ops::store(_395, _dot, int64_t(160));
     float  const _396 = float_from_bits(0 /* 0 */);
     float16  const _397 = float16_ops::broadcast(_396);
     float16_ops::store(_397, _dot, int64_t(192));
     float  const _398 = float_from_bits(0 /* 0 */);
     float16  const _399 = float16_ops::broadcast(_398);
     float16_ops::store(_399, _dot, int64_t(224));
     float  const _400 = float_from_bits(0 /* 0 */);
     float16  const _401 = float16_ops::broadcast(_400);
     float16_ops::store(_401, _dot, int64_t(16));
     float  const _402 = float_from_bits(0 /* 0 */);
     float16  const _403 = float16_ops::broadcast(_402);
     float16_ops::store(_403, _dot, int64_t(48));
     float  const _404 = float_from_bits(0 /* 0 */);
     float16  const _405 = float16_ops::broadcast(_404);
     float16_ops::store(_405, _dot, int64_t(80));
     float  const _406 = float_from_bits(0 /* 0 */);
     float16  const _407 = float16_ops::broadcast(_406);
     float16_ops::store(_407, _dot, int64_t(112));
     float  const _408 = float_from_bits(0 /* 0 */);
     float16  const _409 = float16_ops::broadcast(_408);
     float16_ops::store(_409, _dot, int64_t(144));
     float  const _410 = float_from_bits(0 /* 0 */);
     float16  const _411 = float16_ops::broadcast(_410);
     float16_ops::store(_411, _dot, int64_t(176));
     float  const _412 = float_from_bits(0 /* 0 */);
     float16  const _413 = float16_ops::broadcast(_412);
     float16_ops::store(_413, _dot, int64_t(208));
     float  const _414 = float_from_bits(0 /* 0 */);
     float16  const _415 = float16_ops::broadcast(_414);
     float16_ops::store(_415, _dot, int64_t(240));
     int32_t  const _416 = _scores_s0_j_jo * 8;
     int32_t  const _417 = _416 + _100;
     int32_t  const _418 = _417 * 64;
     for (int _dot_s1_rd__x = 0; _dot_s1_rd__x < 0 + 64; _dot_s1_rd__x++)
     {
      float16  const _419 = float16_ops::load(_dot, int64_t(0));
      int64_t  const _420 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _421 = _420 * int64_t(32);
      float16  const _422 = float16_ops::load(_qs, _421);
      int64_t  const _423 = (int64_t)(_418);
      int64_t  const _424 = _420 + _423;
      float  const _425 = ((float const *)_attn_k)[_424];
      float16  const _426 = float16_ops::broadcast(_425);
      float16  const _427 = _422 * _426;
      float16  const _428 = _419 + _427;
      float16_ops::store(_428, _dot, int64_t(0));
      float16  const _429 = float16_ops::load(_dot, int64_t(16));
      int64_t  const _430 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _431 = _430 * int64_t(32);
      int64_t  const _432 = _431 + int64_t(16);
      float16  const _433 = float16_ops::load(_qs, _432);
      int64_t  const _434 = (int64_t)(_418);
      int64_t  const _435 = _430 + _434;
      float  const _436 = ((float const *)_attn_k)[_435];
      float16  const _437 = float16_ops::broadcast(_436);
      float16  const _438 = _433 * _437;
      float16  const _439 = _429 + _438;
      float16_ops::store(_439, _dot, int64_t(16));
      float16  const _440 = float16_ops::load(_dot, int64_t(32));
      int64_t  const _441 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _442 = _441 * int64_t(32);
      float16  const _443 = float16_ops::load(_qs, _442);
      int64_t  const _444 = (int64_t)(_418);
      int64_t  const _445 = _441 + _444;
      int64_t  const _446 = _445 + int64_t(64);
      float  const _447 = ((float const *)_attn_k)[_446];
      float16  const _448 = float16_ops::broadcast(_447);
      float16  const _449 = _443 * _448;
      float16  const _450 = _440 + _449;
      float16_ops::store(_450, _dot, int64_t(32));
      float16  const _451 = float16_ops::load(_dot, int64_t(48));
      int64_t  const _452 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _453 = _452 * int64_t(32);
      int64_t  const _454 = _453 + int64_t(16);
      float16  const _455 = float16_ops::load(_qs, _454);
      int64_t  const _456 = (int64_t)(_418);
      int64_t  const _457 = _452 + _456;
      int64_t  const _458 = _457 + int64_t(64);
      float  const _459 = ((float const *)_attn_k)[_458];
      float16  const _460 = float16_ops::broadcast(_459);
      float16  const _461 = _455 * _460;
      float16  const _462 = _451 + _461;
      float16_ops::store(_462, _dot, int64_t(48));
      float16  const _463 = float16_ops::load(_dot, int64_t(64));
      int64_t  const _464 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _465 = _464 * int64_t(32);
      float16  const _466 = float16_ops::load(_qs, _465);
      int64_t  const _467 = (int64_t)(_418);
      int64_t  const _468 = _464 + _467;
      int64_t  const _469 = _468 + int64_t(128);
      float  const _470 = ((float const *)_attn_k)[_469];
      float16  const _471 = float16_ops::broadcast(_470);
      float16  const _472 = _466 * _471;
      float16  const _473 = _463 + _472;
      float16_ops::store(_473, _dot, int64_t(64));
      float16  const _474 = float16_ops::load(_dot, int64_t(80));
      int64_t  const _475 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _476 = _475 * int64_t(32);
      int64_t  const _477 = _476 + int64_t(16);
      float16  const _478 = float16_ops::load(_qs, _477);
      int64_t  const _479 = (int64_t)(_418);
      int64_t  const _480 = _475 + _479;
      int64_t  const _481 = _480 + int64_t(128);
      float  const _482 = ((float const *)_attn_k)[_481];
      float16  const _483 = float16_ops::broadcast(_482);
      float16  const _484 = _478 * _483;
      float16  const _485 = _474 + _484;
      float16_ops::store(_485, _dot, int64_t(80));
      float16  const _486 = float16_ops::load(_dot, int64_t(96));
      int64_t  const _487 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _488 = _487 * int64_t(32);
      float16  const _489 = float16_ops::load(_qs, _488);
      int64_t  const _490 = (int64_t)(_418);
      int64_t  const _491 = _487 + _490;
      int64_t  const _492 = _491 + int64_t(192);
      float  const _493 = ((float const *)_attn_k)[_492];
      float16  const _494 = float16_ops::broadcast(_493);
      float16  const _495 = _489 * _494;
      float16  const _496 = _486 + _495;
      float16_ops::store(_496, _dot, int64_t(96));
      float16  const _497 = float16_ops::load(_dot, int64_t(112));
      int64_t  const _498 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _499 = _498 * int64_t(32);
      int64_t  const _500 = _499 + int64_t(16);
      float16  const _501 = float16_ops::load(_qs, _500);
      int64_t  const _502 = (int64_t)(_418);
      int64_t  const _503 = _498 + _502;
      int64_t  const _504 = _503 + int64_t(192);
      float  const _505 = ((float const *)_attn_k)[_504];
      float16  const _506 = float16_ops::broadcast(_505);
      float16  const _507 = _501 * _506;
      float16  const _508 = _497 + _507;
      float16_ops::store(_508, _dot, int64_t(112));
      float16  const _509 = float16_ops::load(_dot, int64_t(128));
      int64_t  const _510 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _511 = _510 * int64_t(32);
      float16  const _512 = float16_ops::load(_qs, _511);
      int64_t  const _513 = (int64_t)(_418);
      int64_t  const _514 = _510 + _513;
      int64_t  const _515 = _514 + int64_t(256);
      float  const _516 = ((float const *)_attn_k)[_515];
      float16  const _517 = float16_ops::broadcast(_516);
      float16  const _518 = _512 * _517;
      float16  const _519 = _509 + _518;
      float16_ops::store(_519, _dot, int64_t(128));
      float16  const _520 = float16_ops::load(_dot, int64_t(144));
      int64_t  const _521 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _522 = _521 * int64_t(32);
      int64_t  const _523 = _522 + int64_t(16);
      float16  const _524 = float16_ops::load(_qs, _523);
      int64_t  const _525 = (int64_t)(_418);
      int64_t  const _526 = _521 + _525;
      int64_t  const _527 = _526 + int64_t(256);
      float  const _528 = ((float const *)_attn_k)[_527];
      float16  const _529 = float16_ops::broadcast(_528);
      float16  const _530 = _524 * _529;
      float16  const _531 = _520 + _530;
      float16_ops::store(_531, _dot, int64_t(144));
      float16  const _532 = float16_ops::load(_dot, int64_t(160));
      int64_t  const _533 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _534 = _533 * int64_t(32);
      float16  const _535 = float16_ops::load(_qs, _534);
      int64_t  const _536 = (int64_t)(_418);
      int64_t  const _537 = _533 + _536;
      int64_t  const _538 = _537 + int64_t(320);
      float  const _539 = ((float const *)_attn_k)[_538];
      float16  const _540 = float16_ops::broadcast(_539);
      float16  const _541 = _535 * _540;
      float16  const _542 = _532 + _541;
      float16_ops::store(_542, _dot, int64_t(160));
      float16  const _543 = float16_ops::load(_dot, int64_t(176));
      int64_t  const _544 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _545 = _544 * int64_t(32);
      int64_t  const _546 = _545 + int64_t(16);
      float16  const _547 = float16_ops::load(_qs, _546);
      int64_t  const _548 = (int64_t)(_418);
      int64_t  const _549 = _544 + _548;
      int64_t  const _550 = _549 + int64_t(320);
      float  const _551 = ((float const *)_attn_k)[_550];
      float16  const _552 = float16_ops::broadcast(_551);
      float16  const _553 = _547 * _552;
      float16  const _554 = _543 + _553;
      float16_ops::store(_554, _dot, int64_t(176));
      float16  const _555 = float16_ops::load(_dot, int64_t(192));
      int64_t  const _556 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _557 = _556 * int64_t(32);
      float16  const _558 = float16_ops::load(_qs, _557);
      int64_t  const _559 = (int64_t)(_418);
      int64_t  const _560 = _556 + _559;
      int64_t  const _561 = _560 + int64_t(384);
      float  const _562 = ((float const *)_attn_k)[_561];
      float16  const _563 = float16_ops::broadcast(_562);
      float16  const _564 = _558 * _563;
      float16  const _565 = _555 + _564;
      float16_ops::store(_565, _dot, int64_t(192));
      float16  const _566 = float16_ops::load(_dot, int64_t(208));
      int64_t  const _567 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _568 = _567 * int64_t(32);
      int64_t  const _569 = _568 + int64_t(16);
      float16  const _570 = float16_ops::load(_qs, _569);
      int64_t  const _571 = (int64_t)(_418);
      int64_t  const _572 = _567 + _571;
      int64_t  const _573 = _572 + int64_t(384);
      float  const _574 = ((float const *)_attn_k)[_573];
      float16  const _575 = float16_ops::broadcast(_574);
      float16  const _576 = _570 * _575;
      float16  const _577 = _566 + _576;
      float16_ops::store(_577, _dot, int64_t(208));
      float16  const _578 = float16_ops::load(_dot, int64_t(224));
      int64_t  const _579 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _580 = _579 * int64_t(32);
      float16  const _581 = float16_ops::load(_qs, _580);
      int64_t  const _582 = (int64_t)(_418);
      int64_t  const _583 = _579 + _582;
      int64_t  const _584 = _583 + int64_t(448);
      float  const _585 = ((float const *)_attn_k)[_584];
      float16  const _586 = float16_ops::broadcast(_585);
      float16  const _587 = _581 * _586;
      float16  const _588 = _578 + _587;
      float16_ops::store(_588, _dot, int64_t(224));
      float16  const _589 = float16_ops::load(_dot, int64_t(240));
      int64_t  const _590 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _591 = _590 * int64_t(32);
      int64_t  const _592 = _591 + int64_t(16);
      float16  const _593 = float16_ops::load(_qs, _592);
      int64_t  const _594 = (int64_t)(_418);
      int64_t  const _595 = _590 + _594;
      int64_t  const _596 = _595 + int64_t(448);
      float  const _597 = ((float const *)_attn_k)[_596];
      float16  const _598 = float16_ops::broadcast(_597);
      float16  const _599 = _593 * _598;
      float16  const _600 = _589 + _599;
      float16_ops::store(_600, _dot, int64_t(240));
     } // for _dot_s1_rd__x
     // consume dot
     float16  const _601 = float16_ops::load(_dot, int64_t(0));
     int64_t  const _602 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _603 = _602 * int64_t(256);
     float16_ops::store(_601, _scores, _603);
     float16  const _604 = float16_ops::load(_dot, int64_t(16));
     int64_t  const _605 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _606 = _605 * int64_t(256);
     int64_t  const _607 = _606 + int64_t(16);
     float16_ops::store(_604, _scores, _607);
     float16  const _608 = float16_ops::load(_dot, int64_t(32));
     int64_t  const _609 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _610 = _609 * int64_t(256);
     int64_t  const _611 = _610 + int64_t(32);
     float16_ops::store(_608, _scores, _611);
     float16  const _612 = float16_ops::load(_dot, int64_t(48));
     int64_t  const _613 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _614 = _613 * int64_t(256);
     int64_t  const _615 = _614 + int64_t(48);
     float16_ops::store(_612, _scores, _615);
     float16  const _616 = float16_ops::load(_dot, int64_t(64));
     int64_t  const _617 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _618 = _617 * int64_t(256);
     int64_t  const _619 = _618 + int64_t(64);
     float16_ops::store(_616, _scores, _619);
     float16  const _620 = float16_ops::load(_dot, int64_t(80));
     int64_t  const _621 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _622 = _621 * int64_t(256);
     int64_t  const _623 = _622 + int64_t(80);
     float16_ops::store(_620, _scores, _623);
     float16  const _624 = float16_ops::load(_dot, int64_t(96));
     int64_t  const _625 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _626 = _625 * int64_t(256);
     int64_t  const _627 = _626 + int64_t(96);
     float16_ops::store(_624, _scores, _627);
     float16  const _628 = float16_ops::load(_dot, int64_t(112));
     int64_t  const _629 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _630 = _629 * int64_t(256);
     int64_t  const _631 = _630 + int64_t(112);
     float16_ops::store(_628, _scores, _631);
     float16  const _632 = float16_ops::load(_dot, int64_t(128));
     int64_t  const _633 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _634 = _633 * int64_t(256);
     int64_t  const _635 = _634 + int64_t(128);
     float16_ops::store(_632, _scores, _635);
     float16  const _636 = float16_ops::load(_dot, int64_t(144));
     int64_t  const _637 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _638 = _637 * int64_t(256);
     int64_t  const _639 = _638 + int64_t(144);
     float16_ops::store(_636, _scores, _639);
     float16  const _640 = float16_ops::load(_dot, int64_t(160));
     int64_t  const _641 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _642 = _641 * int64_t(256);
     int64_t  const _643 = _642 + int64_t(160);
     float16_ops::store(_640, _scores, _643);
     float16  const _644 = float16_ops::load(_dot, int64_t(176));
     int64_t  const _645 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _646 = _645 * int64_t(256);
     int64_t  const _647 = _646 + int64_t(176);
     float16_ops::store(_644, _scores, _647);
     float16  const _648 = float16_ops::load(_dot, int64_t(192));
     int64_t  const _649 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _650 = _649 * int64_t(256);
     int64_t  const _651 = _650 + int64_t(192);
     float16_ops::store(_648, _scores, _651);
     float16  const _652 = float16_ops::load(_dot, int64_t(208));
     int64_t  const _653 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _654 = _653 * int64_t(256);
     int64_t  const _655 = _654 + int64_t(208);
     float16_ops::store(_652, _scores, _655);
     float16  const _656 = float16_ops::load(_dot, int64_t(224));
     int64_t  const _657 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _658 = _657 * int64_t(256);
     int64_t  const _659 = _658 + int64_t(224);
     float16_ops::store(_656, _scores, _659);
     float16  const _660 = float16_ops::load(_dot, int64_t(240));
     int64_t  const _661 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _662 = _661 * int64_t(256);
     int64_t  const _663 = _662 + int64_t(240);
     float16_ops::store(_660, _scores, _663);
    } // alloc _dot
   } // for _scores_s0_j_jo
   int32_t  const _664 = _380 - _100;
   int32_t  const _665 = _664 >> 3;
   int32_t  const _666 = ::halide_cpp_max(_665, 0);
   int32_t  const _667 = _99 - _100;
   int32_t  const _668 = _667 + -1;
   int32_t  const _669 = _668 >> 3;
   int32_t  const _670 = _669 - _666;
   int32_t  const _671 = _670 + 1;
// [Halide's copy of the Q·K^T loop above for the last key blocks: 395 lines, hash 25a2b09d4428e60a]
   int32_t  const _1008 = ::halide_cpp_max(_96, _87);
   int32_t  const _1009 = ::halide_cpp_max(_1008, _99);
   {
    int32_t  const _1010 = _1009 - _100;
    int64_t  const _1011 = _1010;
    int64_t  const _1012 = _1011 * 32;
    if ((_1012 > ((int64_t(1) << 31) - 1)) || ((_1012 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
    {
     attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation masked\n");
     return -1;
    } // overflow test masked
    int64_t  const _1013 = _1012;
    float *_masked = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_1013);
    if (!_masked)
    {
     int32_t  const _1014 = attn_causal64_rt_error_out_of_memory(_ucon);
     return _1014;
    }
    HalideFreeHelper _masked_free(_ucon, _masked, attn_causal64_rt_free);
    // produce masked
    // consume scores
    int32_t  const _1015 = _99 - _100;
    int32_t  const _1016 = _attn_tile * 2;
    int32_t  const _1017 = _1016 + _attn_q_step;
    int32_t  const _1018 = _1017 * 16;
    int32_t  const _1019 = _1018 + _attn_q0;
    int32_t  const _1020 = _attn_tile * 32;
    int32_t  const _1021 = _1020 + _attn_q0;
    for (int _masked_s0_j_rebased = 0; _masked_s0_j_rebased < 0 + _1015; _masked_s0_j_rebased++)
    {
     uint32_t  const _1022 = (uint32_t)(0ull);
     uint32x16_t  const _1023 = uint32x16_t_ops::broadcast(_1022);
     uint32_t  const _1024 = (uint32_t)(4294967295ull);
     uint32x16_t  const _1025 = uint32x16_t_ops::broadcast(_1024);
     int32x16_t  const _1026 = int32x16_t_ops::ramp(_1021, _attn_q_step);
     int32_t  const _1027 = _100 + _masked_s0_j_rebased;
     int32x16_t  const _1028 = int32x16_t_ops::broadcast(_1027);
     uint8x16_t  const _1029 = int32x16_t_ops::lt(_1026, _1028);
     uint32x16_t  const _1030 = uint32x16_t_ops::select(_1029, _1023, _1025);
     int64_t  const _1031 = (int64_t)(_masked_s0_j_rebased);
     int64_t  const _1032 = _1031 * int64_t(32);
     float16  const _1033 = float16_ops::load(_scores, _1032);
     uint32x16_t  const _1034 = reinterpret<uint32x16_t>(_1033);
     uint32x16_t  const _1035 = _1034 & _1030;
     uint32_t  const _1036 = (uint32_t)(4286578688ull);
     uint32x16_t  const _1037 = uint32x16_t_ops::broadcast(_1036);
     uint32x16_t  const _1038 = ~_1030;
     uint32x16_t  const _1039 = _1037 & _1038;
     uint32x16_t  const _1040 = _1035 | _1039;
     float16  const _1041 = reinterpret<float16>(_1040);
     float16_ops::store(_1041, _masked, _1032);
     uint32_t  const _1042 = (uint32_t)(0ull);
     uint32x16_t  const _1043 = uint32x16_t_ops::broadcast(_1042);
     uint32_t  const _1044 = (uint32_t)(4294967295ull);
     uint32x16_t  const _1045 = uint32x16_t_ops::broadcast(_1044);
     int32x16_t  const _1046 = int32x16_t_ops::ramp(_1019, _attn_q_step);
     int32_t  const _1047 = _100 + _masked_s0_j_rebased;
     int32x16_t  const _1048 = int32x16_t_ops::broadcast(_1047);
     uint8x16_t  const _1049 = int32x16_t_ops::lt(_1046, _1048);
     uint32x16_t  const _1050 = uint32x16_t_ops::select(_1049, _1043, _1045);
     int64_t  const _1051 = (int64_t)(_masked_s0_j_rebased);
     int64_t  const _1052 = _1051 * int64_t(32);
     int64_t  const _1053 = _1052 + int64_t(16);
     float16  const _1054 = float16_ops::load(_scores, _1053);
     uint32x16_t  const _1055 = reinterpret<uint32x16_t>(_1054);
     uint32x16_t  const _1056 = _1055 & _1050;
     uint32_t  const _1057 = (uint32_t)(4286578688ull);
     uint32x16_t  const _1058 = uint32x16_t_ops::broadcast(_1057);
     uint32x16_t  const _1059 = ~_1050;
     uint32x16_t  const _1060 = _1058 & _1059;
     uint32x16_t  const _1061 = _1056 | _1060;
     float16  const _1062 = reinterpret<float16>(_1061);
     float16_ops::store(_1062, _masked, _1053);
    } // for _masked_s0_j_rebased
    _scores_free.free();
    {
     float _row_max[32];
     int32_t  const _1063 = ::halide_cpp_max(_84, 0);
     int32_t  const _1064 = _87 - _1063;
     // produce row_max
     for (int _row_max_s0_ii_ii = 0; _row_max_s0_ii_ii < 0 + 2; _row_max_s0_ii_ii++)
     {
      float16  const _1065 = float16_ops::broadcast(neg_inf_f32());
      int64_t  const _1066 = (int64_t)(_row_max_s0_ii_ii);
      int64_t  const _1067 = _1066 * int64_t(16);
      float16_ops::store(_1065, _row_max, _1067);
     } // for _row_max_s0_ii_ii
     // consume masked
     int32_t  const _1068 = ::halide_cpp_max(_84, 0);
     int32_t  const _1069 = _1068 - _100;
     for (int _row_max_s1_rk__x_rebased = 0; _row_max_s1_rk__x_rebased < 0 + _1064; _row_max_s1_rk__x_rebased++)
     {
      float16  const _1070 = float16_ops::load(_row_max, int64_t(0));
      int64_t  const _1071 = (int64_t)(_row_max_s1_rk__x_rebased);
      int64_t  const _1072 = (int64_t)(_1069);
      int64_t  const _1073 = _1071 + _1072;
      int64_t  const _1074 = _1073 * int64_t(32);
      float16  const _1075 = float16_ops::load(_masked, _1074);
      float16  const _1076 = float16_ops::max(_1070, _1075);
      float16_ops::store(_1076, _row_max, int64_t(0));
      float16  const _1077 = float16_ops::load(_row_max, int64_t(16));
      int64_t  const _1078 = (int64_t)(_row_max_s1_rk__x_rebased);
      int64_t  const _1079 = (int64_t)(_1069);
      int64_t  const _1080 = _1078 + _1079;
      int64_t  const _1081 = _1080 * int64_t(32);
      int64_t  const _1082 = _1081 + int64_t(16);
      float16  const _1083 = float16_ops::load(_masked, _1082);
      float16  const _1084 = float16_ops::max(_1077, _1083);
      float16_ops::store(_1084, _row_max, int64_t(16));
     } // for _row_max_s1_rk__x_rebased
     int32_t  const _1085 = ::halide_cpp_max(_84, 0);
     int32_t  const _1086 = ::halide_cpp_min(_attn_kv_hi, _attn_lk);
     int32_t  const _1087 = _1086 + 7;
     int32_t  const _1088 = _1087 >> 3;
     int32_t  const _1089 = _attn_lq + -1;
     int32_t  const _1090 = _1089 >> 5;
     int32_t  const _1091 = _attn_q_step * 31;
     int32_t  const _1092 = _1091 + _attn_q0;
     int32_t  const _1093 = _1092 >> 5;
     int32_t  const _1094 = _1093 + _attn_tile;
     int32_t  const _1095 = ::halide_cpp_min(_1090, _1094);
     int32_t  const _1096 = _attn_q0 >> 5;
     int32_t  const _1097 = _1096 + _attn_tile;
     int32_t  const _1098 = ::halide_cpp_max(_1095, _1097);
     int32_t  const _1099 = _1098 * 4;
     int32_t  const _1100 = _1099 + 4;
     int32_t  const _1101 = ::halide_cpp_min(_1088, _1100);
     int32_t  const _1102 = _1101 * 8;
     int32_t  const _1103 = ::halide_cpp_min(_1102, _attn_lk);
     int32_t  const _1104 = _attn_chunk_lo >> 3;
     int32_t  const _1105 = _1104 * 8;
     int32_t  const _1106 = ::halide_cpp_min(_1103, _1105);
     int32_t  const _1107 = _attn_kv_lo >> 3;
     int32_t  const _1108 = ::halide_cpp_max(_1107, 0);
     int32_t  const _1109 = _1108 * 8;
     int32_t  const _1110 = ::halide_cpp_min(_1109, _attn_lk);
     int32_t  const _1111 = ::halide_cpp_max(_1106, _1110);
     int32_t  const _1112 = ::halide_cpp_min(_1111, _92);
     int32_t  const _1113 = ::halide_cpp_min(_1085, _1112);
     int32_t  const _1114 = ::halide_cpp_min(_1113, _98);
     int32_t  const _1115 = ::halide_cpp_min(_88, 1024);
     int32_t  const _1116 = _1115 >> 6;
     int32_t  const _1117 = _1116 * 64;
     int32_t  const _1118 = _1117 + _1111;
     int32_t  const _1119 = ::halide_cpp_max(_1118, _87);
     int32_t  const _1120 = ::halide_cpp_max(_1119, _96);
     int32_t  const _1121 = ::halide_cpp_min(_92, _1111);
     int32_t  const _1122 = ::halide_cpp_min(_1085, _1121);
     int32_t  const _1123 = ::halide_cpp_min(_1122, _98);
     int32_t  const _1124 = _1120 - _1123;
     {
      int64_t  const _1125 = _1124;
      int64_t  const _1126 = _1125 * 32;
      if ((_1126 > ((int64_t(1) << 31) - 1)) || ((_1126 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
      {
       attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation probs\n");
       return -1;
      } // overflow test probs
      int64_t  const _1127 = _1126;
      float *_probs = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_1127);
      if (!_probs)
      {
       int32_t  const _1128 = attn_causal64_rt_error_out_of_memory(_ucon);
       return _1128;
      }
      HalideFreeHelper _probs_free(_ucon, _probs, attn_causal64_rt_free);
      // produce probs
      // consume row_max
      // consume masked
      int32_t  const _1129 = _98 - _1114;
      int32_t  const _1130 = _98 - _100;
      int32_t  const _1131 = _96 - _98;
      for (int _probs_s0_j_rebased = 0; _probs_s0_j_rebased < 0 + _1131; _probs_s0_j_rebased++)
      {
       float16  const _1132 = float16_ops::load(_row_max, int64_t(0));
       int64_t  const _1133 = (int64_t)(_probs_s0_j_rebased);
       int64_t  const _1134 = (int64_t)(_1130);
       int64_t  const _1135 = _1133 + _1134;
       int64_t  const _1136 = _1135 * int64_t(32);
       float16  const _1137 = float16_ops::load(_masked, _1136);
       float  const _1138 = float_from_bits(0 /* 0 */);
       float16  const _1139 = float16_ops::broadcast(_1138);
       float16  const _1140 = float16_ops::broadcast(neg_inf_f32());
       uint8x16_t  const _1141 = float16_ops::eq(_1132, _1140);
       float16  const _1142 = float16_ops::select(_1141, _1139, _1132);
       float16  const _1143 = _1137 - _1142;
       float16  const _1144 = float16_ops::min(_1143, _1139);
       float  const _1145 = float_from_bits(3271426048 /* -127 */);
       float16  const _1146 = float16_ops::broadcast(_1145);
       float16  const _1147 = float16_ops::max(_1144, _1146);
       float  const _1148 = float_from_bits(1124007936 /* 127.5 */);
       float16  const _1149 = float16_ops::broadcast(_1148);
       float16  const _1150 = _1147 + _1149;
       int32x16_t  const _1151 = int32x16_t_ops::convert_from<float16>(_1150);
       int32x16_t  const _1152 = int32x16_t_ops::broadcast(-127);
       int32x16_t  const _1153 = _1151 + _1152;
       float16  const _1154 = float16_ops::convert_from<int32x16_t>(_1153);
       float16  const _1155 = _1147 - _1154;
       uint32_t  const _1156 = (uint32_t)(23ull);
       uint32x16_t  const _1157 = uint32x16_t_ops::broadcast(_1156);
       int32x16_t  const _1158 = _1151 << _1157;
       float16  const _1159 = reinterpret<float16>(_1158);
       float  const _1160 = float_from_bits(958452607 /* 0.000153376 */);
       float16  const _1161 = float16_ops::broadcast(_1160);
       float16  const _1162 = _1155 * _1161;
       float  const _1163 = float_from_bits(984588920 /* 0.00133999 */);
       float16  const _1164 = float16_ops::broadcast(_1163);
       float16  const _1165 = _1162 + _1164;
       float16  const _1166 = _1165 * _1155;
       float  const _1167 = float_from_bits(1008572159 /* 0.00961852 */);
       float16  const _1168 = float16_ops::broadcast(_1167);
       float16  const _1169 = _1166 + _1168;
       float16  const _1170 = _1169 * _1155;
       float  const _1171 = float_from_bits(1029920619 /* 0.0555033 */);
       float16  const _1172 = float16_ops::broadcast(_1171);
       float16  const _1173 = _1170 + _1172;
       float16  const _1174 = _1173 * _1155;
       float  const _1175 = float_from_bits(1047920109 /* 0.240226 */);
       float16  const _1176 = float16_ops::broadcast(_1175);
       float16  const _1177 = _1174 + _1176;
       float16  const _1178 = _1177 * _1155;
       float  const _1179 = float_from_bits(1060205080 /* 0.693147 */);
       float16  const _1180 = float16_ops::broadcast(_1179);
       float16  const _1181 = _1178 + _1180;
       float16  const _1182 = _1181 * _1155;
       float  const _1183 = float_from_bits(1065353216 /* 1 */);
       float16  const _1184 = float16_ops::broadcast(_1183);
       float16  const _1185 = _1182 + _1184;
       float16  const _1186 = _1159 * _1185;
       int32x16_t  const _1187 = reinterpret<int32x16_t>(_1186);
       int32x16_t  const _1188 = int32x16_t_ops::broadcast(-1);
       int32x16_t  const _1189 = int32x16_t_ops::broadcast(0);
       int32x16_t  const _1190 = int32x16_t_ops::broadcast(2139095040);
       int32x16_t  const _1191 = reinterpret<int32x16_t>(_1143);
       int32x16_t  const _1192 = int32x16_t_ops::broadcast(2147483647);
       int32x16_t  const _1193 = _1191 & _1192;
       uint8x16_t  const _1194 = int32x16_t_ops::lt(_1190, _1193);
       int32x16_t  const _1195 = int32x16_t_ops::select(_1194, _1188, _1189);
       int32x16_t  const _1196 = int32x16_t_ops::broadcast(2143289344);
       int32x16_t  const _1197 = _1195 & _1196;
       int32x16_t  const _1198 = _1187 | _1197;
       float16  const _1199 = reinterpret<float16>(_1198);
       int64_t  const _1200 = (int64_t)(_1129);
       int64_t  const _1201 = _1133 + _1200;
       int64_t  const _1202 = _1201 * int64_t(32);
       float16_ops::store(_1199, _probs, _1202);
       float16  const _1203 = float16_ops::load(_row_max, int64_t(16));
       int64_t  const _1204 = (int64_t)(_probs_s0_j_rebased);
       int64_t  const _1205 = (int64_t)(_1130);
       int64_t  const _1206 = _1204 + _1205;
       int64_t  const _1207 = _1206 * int64_t(32);
       int64_t  const _1208 = _1207 + int64_t(16);
       float16  const _1209 = float16_ops::load(_masked, _1208);
       float  const _1210 = float_from_bits(0 /* 0 */);
       float16  const _1211 = float16_ops::broadcast(_1210);
       float16  const _1212 = float16_ops::broadcast(neg_inf_f32());
       uint8x16_t  const _1213 = float16_ops::eq(_1203, _1212);
       float16  const _1214 = float16_ops::select(_1213, _1211, _1203);
       float16  const _1215 = _1209 - _1214;
       float16  const _1216 = float16_ops::min(_1215, _1211);
       float  const _1217 = float_from_bits(3271426048 /* -127 */);
       float16  const _1218 = float16_ops::broadcast(_1217);
       float16  const _1219 = float16_ops::max(_1216, _1218);
       float  const _1220 = float_from_bits(1124007936 /* 127.5 */);
       float16  const _1221 = float16_ops::broadcast(_1220);
       float16  const _1222 = _1219 + _1221;
       int32x16_t  const _1223 = int32x16_t_ops::convert_from<float16>(_1222);
       int32x16_t  const _1224 = int32x16_t_ops::broadcast(-127);
       int32x16_t  const _1225 = _1223 + _1224;
       float16  const _1226 = float16_ops::convert_from<int32x16_t>(_1225);
       float16  const _1227 = _1219 - _1226;
       uint32_t  const _1228 = (uint32_t)(23ull);
       uint32x16_t  const _1229 = uint32x16_t_ops::broadcast(_1228);
       int32x16_t  const _1230 = _1223 << _1229;
       float16  const _1231 = reinterpret<float16>(_1230);
       float  const _1232 = float_from_bits(958452607 /* 0.000153376 */);
       float16  const _1233 = float16_ops::broadcast(_1232);
       float16  const _1234 = _1227 * _1233;
       float  const _1235 = float_from_bits(984588920 /* 0.00133999 */);
       float16  const _1236 = float16_ops::broadcast(_1235);
       float16  const _1237 = _1234 + _1236;
       float16  const _1238 = _1237 * _1227;
       float  const _1239 = float_from_bits(1008572159 /* 0.00961852 */);
       float16  const _1240 = float16_ops::broadcast(_1239);
       float16  const _1241 = _1238 + _1240;
       float16  const _1242 = _1241 * _1227;
       float  const _1243 = float_from_bits(1029920619 /* 0.0555033 */);
       float16  const _1244 = float16_ops::broadcast(_1243);
       float16  const _1245 = _1242 + _1244;
       float16  const _1246 = _1245 * _1227;
       float  const _1247 = float_from_bits(1047920109 /* 0.240226 */);
       float16  const _1248 = float16_ops::broadcast(_1247);
       float16  const _1249 = _1246 + _1248;
       float16  const _1250 = _1249 * _1227;
       float  const _1251 = float_from_bits(1060205080 /* 0.693147 */);
       float16  const _1252 = float16_ops::broadcast(_1251);
       float16  const _1253 = _1250 + _1252;
       float16  const _1254 = _1253 * _1227;
       float  const _1255 = float_from_bits(1065353216 /* 1 */);
       float16  const _1256 = float16_ops::broadcast(_1255);
       float16  const _1257 = _1254 + _1256;
       float16  const _1258 = _1231 * _1257;
       int32x16_t  const _1259 = reinterpret<int32x16_t>(_1258);
       int32x16_t  const _1260 = int32x16_t_ops::broadcast(-1);
       int32x16_t  const _1261 = int32x16_t_ops::broadcast(0);
       int32x16_t  const _1262 = int32x16_t_ops::broadcast(2139095040);
       int32x16_t  const _1263 = reinterpret<int32x16_t>(_1215);
       int32x16_t  const _1264 = int32x16_t_ops::broadcast(2147483647);
       int32x16_t  const _1265 = _1263 & _1264;
       uint8x16_t  const _1266 = int32x16_t_ops::lt(_1262, _1265);
       int32x16_t  const _1267 = int32x16_t_ops::select(_1266, _1260, _1261);
       int32x16_t  const _1268 = int32x16_t_ops::broadcast(2143289344);
       int32x16_t  const _1269 = _1267 & _1268;
       int32x16_t  const _1270 = _1259 | _1269;
       float16  const _1271 = reinterpret<float16>(_1270);
       int64_t  const _1272 = (int64_t)(_1129);
       int64_t  const _1273 = _1204 + _1272;
       int64_t  const _1274 = _1273 * int64_t(32);
       int64_t  const _1275 = _1274 + int64_t(16);
       float16_ops::store(_1271, _probs, _1275);
      } // for _probs_s0_j_rebased
      _masked_free.free();
      {
       float _pv_blocks[2048];
       // produce pv_blocks
       for (int _pv_blocks_s0_ii = 0; _pv_blocks_s0_ii < 0 + 32; _pv_blocks_s0_ii++)
       {
        int32_t  const _1276 = _pv_blocks_s0_ii * 4;
        for (int _pv_blocks_s0_c_c = 0; _pv_blocks_s0_c_c < 0 + 4; _pv_blocks_s0_c_c++)
        {
         float  const _1277 = float_from_bits(0 /* 0 */);
         float16  const _1278 = float16_ops::broadcast(_1277);
         int64_t  const _1279 = (int64_t)(_pv_blocks_s0_c_c);
         int64_t  const _1280 = (int64_t)(_1276);
         int64_t  const _1281 = _1279 + _1280;
         int64_t  const _1282 = _1281 * int64_t(16);
         float16_ops::store(_1278, _pv_blocks, _1282);
        } // for _pv_blocks_s0_c_c
       } // for _pv_blocks_s0_ii
       // consume probs
       int32_t  const _1283 = ::halide_cpp_min(_attn_kv_hi, _attn_lk);
       int32_t  const _1284 = _1283 + 7;
       int32_t  const _1285 = _1284 >> 3;
       int32_t  const _1286 = _attn_lq + -1;
       int32_t  const _1287 = _1286 >> 5;
       int32_t  const _1288 = _attn_q_step * 31;
       int32_t  const _1289 = _1288 + _attn_q0;
       int32_t  const _1290 = _1289 >> 5;
       int32_t  const _1291 = _1290 + _attn_tile;
       int32_t  const _1292 = ::halide_cpp_min(_1287, _1291);
       int32_t  const _1293 = _attn_q0 >> 5;
       int32_t  const _1294 = _1293 + _attn_tile;
       int32_t  const _1295 = ::halide_cpp_max(_1292, _1294);
       int32_t  const _1296 = _1295 * 4;
       int32_t  const _1297 = _1296 + 4;
       int32_t  const _1298 = ::halide_cpp_min(_1285, _1297);
       int32_t  const _1299 = _1298 * 8;
       int32_t  const _1300 = ::halide_cpp_min(_1299, _attn_lk);
       int32_t  const _1301 = _attn_chunk_lo >> 3;
       int32_t  const _1302 = _1301 * 8;
       int32_t  const _1303 = ::halide_cpp_min(_1300, _1302);
       int32_t  const _1304 = _attn_kv_lo >> 3;
       int32_t  const _1305 = ::halide_cpp_max(_1304, 0);
       int32_t  const _1306 = _1305 * 8;
       int32_t  const _1307 = ::halide_cpp_min(_1306, _attn_lk);
       int32_t  const _1308 = ::halide_cpp_max(_1303, _1307);
       int32_t  const _1309 = ::halide_cpp_min(_88, 1024);
       int32_t  const _1310 = _1309 >> 6;
       for (int _pv_blocks_s1_rkb__x = 0; _pv_blocks_s1_rkb__x < 0 + _1310; _pv_blocks_s1_rkb__x++)
       {
        int32_t  const _1311 = _pv_blocks_s1_rkb__x * 64;
        int32_t  const _1312 = _1311 + _1308;
        for (int _pv_blocks_s1_ii_ig = 0; _pv_blocks_s1_ii_ig < 0 + 8; _pv_blocks_s1_ii_ig++)
        {
         {
          float _pv_block[256];
          // produce pv_block
          float  const _1313 = float_from_bits(0 /* 0 */);
          float16  const _1314 = float16_ops::broadcast(_1313);
          float16_ops::store(_1314, _pv_block, int64_t(0));
          float  const _1315 = float_from_bits(0 /* 0 */);
          float16  const _1316 = float16_ops::broadcast(_1315);
          float16_ops::store(_1316, _pv_block, int64_t(16));
          float  const _1317 = float_from_bits(0 /* 0 */);
          float16  const _1318 = float16_ops::broadcast(_1317);
          float16_ops::store(_1318, _pv_block, int64_t(32));
          float  const _1319 = float_from_bits(0 /* 0 */);
          float16  const _1320 = float16_ops::broadcast(_1319);
          float16_ops::store(_1320, _pv_block, int64_t(48));
          float  const _1321 = float_from_bits(0 /* 0 */);
          float16  const _1322 = float16_ops::broadcast(_1321);
          float16_ops::store(_1322, _pv_block, int64_t(64));
          float  const _1323 = float_from_bits(0 /* 0 */);
          float16  const _1324 = float16_ops::broadcast(_1323);
          float16_ops::store(_1324, _pv_block, int64_t(80));
          float  const _1325 = float_from_bits(0 /* 0 */);
          float16  const _1326 = float16_ops::broadcast(_1325);
          float16_ops::store(_1326, _pv_block, int64_t(96));
          float  const _1327 = float_from_bits(0 /* 0 */);
          float16  const _1328 = float16_ops::broadcast(_1327);
          float16_ops::store(_1328, _pv_block, int64_t(112));
          float  const _1329 = float_from_bits(0 /* 0 */);
          float16  const _1330 = float16_ops::broadcast(_1329);
          float16_ops::store(_1330, _pv_block, int64_t(128));
          float  const _1331 = float_from_bits(0 /* 0 */);
          float16  const _1332 = float16_ops::broadcast(_1331);
          float16_ops::store(_1332, _pv_block, int64_t(144));
          float  const _1333 = float_from_bits(0 /* 0 */);
          float16  const _1334 = float16_ops::broadcast(_1333);
          float16_ops::store(_1334, _pv_block, int64_t(160));
          float  const _1335 = float_from_bits(0 /* 0 */);
          float16  const _1336 = float16_ops::broadcast(_1335);
          float16_ops::store(_1336, _pv_block, int64_t(176));
          float  const _1337 = float_from_bits(0 /* 0 */);
          float16  const _1338 = float16_ops::broadcast(_1337);
          float16_ops::store(_1338, _pv_block, int64_t(192));
          float  const _1339 = float_from_bits(0 /* 0 */);
          float16  const _1340 = float16_ops::broadcast(_1339);
          float16_ops::store(_1340, _pv_block, int64_t(208));
          float  const _1341 = float_from_bits(0 /* 0 */);
          float16  const _1342 = float16_ops::broadcast(_1341);
          float16_ops::store(_1342, _pv_block, int64_t(224));
          float  const _1343 = float_from_bits(0 /* 0 */);
          float16  const _1344 = float16_ops::broadcast(_1343);
          float16_ops::store(_1344, _pv_block, int64_t(240));
          int32_t  const _1345 = _1312 - _1114;
          for (int _pv_block_s1_rki__x = 0; _pv_block_s1_rki__x < 0 + 64; _pv_block_s1_rki__x++)
          {
           float16  const _1346 = float16_ops::load(_pv_block, int64_t(0));
           int64_t  const _1347 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1348 = (int64_t)(_1312);
           int64_t  const _1349 = _1347 + _1348;
           int64_t  const _1350 = _1349 * int64_t(64);
           float16  const _1351 = float16_ops::load(_attn_v, _1350);
           int64_t  const _1352 = (int64_t)(_1345);
           int64_t  const _1353 = _1347 + _1352;
           int64_t  const _1354 = _1353 * int64_t(8);
           int64_t  const _1355 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1356 = _1354 + _1355;
           int64_t  const _1357 = _1356 * int64_t(4);
           float  const _1358 = _probs[_1357];
           float16  const _1359 = float16_ops::broadcast(_1358);
           float16  const _1360 = _1351 * _1359;
           float16  const _1361 = _1346 + _1360;
           float16_ops::store(_1361, _pv_block, int64_t(0));
           float16  const _1362 = float16_ops::load(_pv_block, int64_t(16));
           int64_t  const _1363 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1364 = (int64_t)(_1312);
           int64_t  const _1365 = _1363 + _1364;
           int64_t  const _1366 = _1365 * int64_t(64);
           int64_t  const _1367 = _1366 + int64_t(16);
           float16  const _1368 = float16_ops::load(_attn_v, _1367);
           int64_t  const _1369 = (int64_t)(_1345);
           int64_t  const _1370 = _1363 + _1369;
           int64_t  const _1371 = _1370 * int64_t(8);
           int64_t  const _1372 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1373 = _1371 + _1372;
           int64_t  const _1374 = _1373 * int64_t(4);
           float  const _1375 = _probs[_1374];
           float16  const _1376 = float16_ops::broadcast(_1375);
           float16  const _1377 = _1368 * _1376;
           float16  const _1378 = _1362 + _1377;
           float16_ops::store(_1378, _pv_block, int64_t(16));
           float16  const _1379 = float16_ops::load(_pv_block, int64_t(32));
           int64_t  const _1380 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1381 = (int64_t)(_1312);
           int64_t  const _1382 = _1380 + _1381;
           int64_t  const _1383 = _1382 * int64_t(64);
           int64_t  const _1384 = _1383 + int64_t(32);
           float16  const _1385 = float16_ops::load(_attn_v, _1384);
           int64_t  const _1386 = (int64_t)(_1345);
           int64_t  const _1387 = _1380 + _1386;
           int64_t  const _1388 = _1387 * int64_t(8);
           int64_t  const _1389 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1390 = _1388 + _1389;
           int64_t  const _1391 = _1390 * int64_t(4);
           float  const _1392 = _probs[_1391];
           float16  const _1393 = float16_ops::broadcast(_1392);
           float16  const _1394 = _1385 * _1393;
           float16  const _1395 = _1379 + _1394;
           float16_ops::store(_1395, _pv_block, int64_t(32));
           float16  const _1396 = float16_ops::load(_pv_block, int64_t(48));
           int64_t  const _1397 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1398 = (int64_t)(_1312);
           int64_t  const _1399 = _1397 + _1398;
           int64_t  const _1400 = _1399 * int64_t(64);
           int64_t  const _1401 = _1400 + int64_t(48);
           float16  const _1402 = float16_ops::load(_attn_v, _1401);
           int64_t  const _1403 = (int64_t)(_1345);
           int64_t  const _1404 = _1397 + _1403;
           int64_t  const _1405 = _1404 * int64_t(8);
           int64_t  const _1406 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1407 = _1405 + _1406;
           int64_t  const _1408 = _1407 * int64_t(4);
           float  const _1409 = _probs[_1408];
           float16  const _1410 = float16_ops::broadcast(_1409);
           float16  const _1411 = _1402 * _1410;
           float16  const _1412 = _1396 + _1411;
           float16_ops::store(_1412, _pv_block, int64_t(48));
           float16  const _1413 = float16_ops::load(_pv_block, int64_t(64));
           int64_t  const _1414 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1415 = (int64_t)(_1312);
           int64_t  const _1416 = _1414 + _1415;
           int64_t  const _1417 = _1416 * int64_t(64);
           float16  const _1418 = float16_ops::load(_attn_v, _1417);
           int64_t  const _1419 = (int64_t)(_1345);
           int64_t  const _1420 = _1414 + _1419;
           int64_t  const _1421 = _1420 * int64_t(8);
           int64_t  const _1422 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1423 = _1421 + _1422;
           int64_t  const _1424 = _1423 * int64_t(4);
           int64_t  const _1425 = _1424 + int64_t(1);
           float  const _1426 = _probs[_1425];
           float16  const _1427 = float16_ops::broadcast(_1426);
           float16  const _1428 = _1418 * _1427;
           float16  const _1429 = _1413 + _1428;
           float16_ops::store(_1429, _pv_block, int64_t(64));
           float16  const _1430 = float16_ops::load(_pv_block, int64_t(80));
           int64_t  const _1431 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1432 = (int64_t)(_1312);
           int64_t  const _1433 = _1431 + _1432;
           int64_t  const _1434 = _1433 * int64_t(64);
           int64_t  const _1435 = _1434 + int64_t(16);
           float16  const _1436 = float16_ops::load(_attn_v, _1435);
           int64_t  const _1437 = (int64_t)(_1345);
           int64_t  const _1438 = _1431 + _1437;
           int64_t  const _1439 = _1438 * int64_t(8);
           int64_t  const _1440 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1441 = _1439 + _1440;
           int64_t  const _1442 = _1441 * int64_t(4);
           int64_t  const _1443 = _1442 + int64_t(1);
           float  const _1444 = _probs[_1443];
           float16  const _1445 = float16_ops::broadcast(_1444);
           float16  const _1446 = _1436 * _1445;
           float16  const _1447 = _1430 + _1446;
           float16_ops::store(_1447, _pv_block, int64_t(80));
           float16  const _1448 = float16_ops::load(_pv_block, int64_t(96));
           int64_t  const _1449 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1450 = (int64_t)(_1312);
           int64_t  const _1451 = _1449 + _1450;
           int64_t  const _1452 = _1451 * int64_t(64);
           int64_t  const _1453 = _1452 + int64_t(32);
           float16  const _1454 = float16_ops::load(_attn_v, _1453);
           int64_t  const _1455 = (int64_t)(_1345);
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
           float16_ops::store(_1465, _pv_block, int64_t(96));
           float16  const _1466 = float16_ops::load(_pv_block, int64_t(112));
           int64_t  const _1467 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1468 = (int64_t)(_1312);
           int64_t  const _1469 = _1467 + _1468;
           int64_t  const _1470 = _1469 * int64_t(64);
           int64_t  const _1471 = _1470 + int64_t(48);
           float16  const _1472 = float16_ops::load(_attn_v, _1471);
           int64_t  const _1473 = (int64_t)(_1345);
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
           float16_ops::store(_1483, _pv_block, int64_t(112));
           float16  const _1484 = float16_ops::load(_pv_block, int64_t(128));
           int64_t  const _1485 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1486 = (int64_t)(_1312);
           int64_t  const _1487 = _1485 + _1486;
           int64_t  const _1488 = _1487 * int64_t(64);
           float16  const _1489 = float16_ops::load(_attn_v, _1488);
           int64_t  const _1490 = (int64_t)(_1345);
           int64_t  const _1491 = _1485 + _1490;
           int64_t  const _1492 = _1491 * int64_t(8);
           int64_t  const _1493 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1494 = _1492 + _1493;
           int64_t  const _1495 = _1494 * int64_t(4);
           int64_t  const _1496 = _1495 + int64_t(2);
           float  const _1497 = _probs[_1496];
           float16  const _1498 = float16_ops::broadcast(_1497);
           float16  const _1499 = _1489 * _1498;
           float16  const _1500 = _1484 + _1499;
           float16_ops::store(_1500, _pv_block, int64_t(128));
           float16  const _1501 = float16_ops::load(_pv_block, int64_t(144));
           int64_t  const _1502 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1503 = (int64_t)(_1312);
           int64_t  const _1504 = _1502 + _1503;
           int64_t  const _1505 = _1504 * int64_t(64);
           int64_t  const _1506 = _1505 + int64_t(16);
           float16  const _1507 = float16_ops::load(_attn_v, _1506);
           int64_t  const _1508 = (int64_t)(_1345);
           int64_t  const _1509 = _1502 + _1508;
           int64_t  const _1510 = _1509 * int64_t(8);
           int64_t  const _1511 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1512 = _1510 + _1511;
           int64_t  const _1513 = _1512 * int64_t(4);
           int64_t  const _1514 = _1513 + int64_t(2);
           float  const _1515 = _probs[_1514];
           float16  const _1516 = float16_ops::broadcast(_1515);
           float16  const _1517 = _1507 * _1516;
           float16  const _1518 = _1501 + _1517;
           float16_ops::store(_1518, _pv_block, int64_t(144));
           float16  const _1519 = float16_ops::load(_pv_block, int64_t(160));
           int64_t  const _1520 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1521 = (int64_t)(_1312);
           int64_t  const _1522 = _1520 + _1521;
           int64_t  const _1523 = _1522 * int64_t(64);
           int64_t  const _1524 = _1523 + int64_t(32);
           float16  const _1525 = float16_ops::load(_attn_v, _1524);
           int64_t  const _1526 = (int64_t)(_1345);
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
           float16_ops::store(_1536, _pv_block, int64_t(160));
           float16  const _1537 = float16_ops::load(_pv_block, int64_t(176));
           int64_t  const _1538 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1539 = (int64_t)(_1312);
           int64_t  const _1540 = _1538 + _1539;
           int64_t  const _1541 = _1540 * int64_t(64);
           int64_t  const _1542 = _1541 + int64_t(48);
           float16  const _1543 = float16_ops::load(_attn_v, _1542);
           int64_t  const _1544 = (int64_t)(_1345);
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
           float16_ops::store(_1554, _pv_block, int64_t(176));
           float16  const _1555 = float16_ops::load(_pv_block, int64_t(192));
           int64_t  const _1556 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1557 = (int64_t)(_1312);
           int64_t  const _1558 = _1556 + _1557;
           int64_t  const _1559 = _1558 * int64_t(64);
           float16  const _1560 = float16_ops::load(_attn_v, _1559);
           int64_t  const _1561 = (int64_t)(_1345);
           int64_t  const _1562 = _1556 + _1561;
           int64_t  const _1563 = _1562 * int64_t(8);
           int64_t  const _1564 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1565 = _1563 + _1564;
           int64_t  const _1566 = _1565 * int64_t(4);
           int64_t  const _1567 = _1566 + int64_t(3);
           float  const _1568 = _probs[_1567];
           float16  const _1569 = float16_ops::broadcast(_1568);
           float16  const _1570 = _1560 * _1569;
           float16  const _1571 = _1555 + _1570;
           float16_ops::store(_1571, _pv_block, int64_t(192));
           float16  const _1572 = float16_ops::load(_pv_block, int64_t(208));
           int64_t  const _1573 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1574 = (int64_t)(_1312);
           int64_t  const _1575 = _1573 + _1574;
           int64_t  const _1576 = _1575 * int64_t(64);
           int64_t  const _1577 = _1576 + int64_t(16);
           float16  const _1578 = float16_ops::load(_attn_v, _1577);
           int64_t  const _1579 = (int64_t)(_1345);
           int64_t  const _1580 = _1573 + _1579;
           int64_t  const _1581 = _1580 * int64_t(8);
           int64_t  const _1582 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1583 = _1581 + _1582;
           int64_t  const _1584 = _1583 * int64_t(4);
           int64_t  const _1585 = _1584 + int64_t(3);
           float  const _1586 = _probs[_1585];
           float16  const _1587 = float16_ops::broadcast(_1586);
           float16  const _1588 = _1578 * _1587;
           float16  const _1589 = _1572 + _1588;
           float16_ops::store(_1589, _pv_block, int64_t(208));
           float16  const _1590 = float16_ops::load(_pv_block, int64_t(224));
           int64_t  const _1591 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1592 = (int64_t)(_1312);
           int64_t  const _1593 = _1591 + _1592;
           int64_t  const _1594 = _1593 * int64_t(64);
           int64_t  const _1595 = _1594 + int64_t(32);
           float16  const _1596 = float16_ops::load(_attn_v, _1595);
           int64_t  const _1597 = (int64_t)(_1345);
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
           float16_ops::store(_1607, _pv_block, int64_t(224));
           float16  const _1608 = float16_ops::load(_pv_block, int64_t(240));
           int64_t  const _1609 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1610 = (int64_t)(_1312);
           int64_t  const _1611 = _1609 + _1610;
           int64_t  const _1612 = _1611 * int64_t(64);
           int64_t  const _1613 = _1612 + int64_t(48);
           float16  const _1614 = float16_ops::load(_attn_v, _1613);
           int64_t  const _1615 = (int64_t)(_1345);
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
           float16_ops::store(_1625, _pv_block, int64_t(240));
          } // for _pv_block_s1_rki__x
          // consume pv_block
          int64_t  const _1626 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1627 = _1626 * int64_t(256);
          float16  const _1628 = float16_ops::load(_pv_blocks, _1627);
          float16  const _1629 = float16_ops::load(_pv_block, int64_t(0));
          float16  const _1630 = _1628 + _1629;
          float16_ops::store(_1630, _pv_blocks, _1627);
          int64_t  const _1631 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1632 = _1631 * int64_t(256);
          int64_t  const _1633 = _1632 + int64_t(16);
          float16  const _1634 = float16_ops::load(_pv_blocks, _1633);
          float16  const _1635 = float16_ops::load(_pv_block, int64_t(16));
          float16  const _1636 = _1634 + _1635;
          float16_ops::store(_1636, _pv_blocks, _1633);
          int64_t  const _1637 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1638 = _1637 * int64_t(256);
          int64_t  const _1639 = _1638 + int64_t(32);
          float16  const _1640 = float16_ops::load(_pv_blocks, _1639);
          float16  const _1641 = float16_ops::load(_pv_block, int64_t(32));
          float16  const _1642 = _1640 + _1641;
          float16_ops::store(_1642, _pv_blocks, _1639);
          int64_t  const _1643 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1644 = _1643 * int64_t(256);
          int64_t  const _1645 = _1644 + int64_t(48);
          float16  const _1646 = float16_ops::load(_pv_blocks, _1645);
          float16  const _1647 = float16_ops::load(_pv_block, int64_t(48));
          float16  const _1648 = _1646 + _1647;
          float16_ops::store(_1648, _pv_blocks, _1645);
          int64_t  const _1649 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1650 = _1649 * int64_t(256);
          int64_t  const _1651 = _1650 + int64_t(64);
          float16  const _1652 = float16_ops::load(_pv_blocks, _1651);
          float16  const _1653 = float16_ops::load(_pv_block, int64_t(64));
          float16  const _1654 = _1652 + _1653;
          float16_ops::store(_1654, _pv_blocks, _1651);
          int64_t  const _1655 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1656 = _1655 * int64_t(256);
          int64_t  const _1657 = _1656 + int64_t(80);
          float16  const _1658 = float16_ops::load(_pv_blocks, _1657);
          float16  const _1659 = float16_ops::load(_pv_block, int64_t(80));
          float16  const _1660 = _1658 + _1659;
          float16_ops::store(_1660, _pv_blocks, _1657);
          int64_t  const _1661 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1662 = _1661 * int64_t(256);
          int64_t  const _1663 = _1662 + int64_t(96);
          float16  const _1664 = float16_ops::load(_pv_blocks, _1663);
          float16  const _1665 = float16_ops::load(_pv_block, int64_t(96));
          float16  const _1666 = _1664 + _1665;
          float16_ops::store(_1666, _pv_blocks, _1663);
          int64_t  const _1667 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1668 = _1667 * int64_t(256);
          int64_t  const _1669 = _1668 + int64_t(112);
          float16  const _1670 = float16_ops::load(_pv_blocks, _1669);
          float16  const _1671 = float16_ops::load(_pv_block, int64_t(112));
          float16  const _1672 = _1670 + _1671;
          float16_ops::store(_1672, _pv_blocks, _1669);
          int64_t  const _1673 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1674 = _1673 * int64_t(256);
          int64_t  const _1675 = _1674 + int64_t(128);
          float16  const _1676 = float16_ops::load(_pv_blocks, _1675);
          float16  const _1677 = float16_ops::load(_pv_block, int64_t(128));
          float16  const _1678 = _1676 + _1677;
          float16_ops::store(_1678, _pv_blocks, _1675);
          int64_t  const _1679 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1680 = _1679 * int64_t(256);
          int64_t  const _1681 = _1680 + int64_t(144);
          float16  const _1682 = float16_ops::load(_pv_blocks, _1681);
          float16  const _1683 = float16_ops::load(_pv_block, int64_t(144));
          float16  const _1684 = _1682 + _1683;
          float16_ops::store(_1684, _pv_blocks, _1681);
          int64_t  const _1685 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1686 = _1685 * int64_t(256);
          int64_t  const _1687 = _1686 + int64_t(160);
          float16  const _1688 = float16_ops::load(_pv_blocks, _1687);
          float16  const _1689 = float16_ops::load(_pv_block, int64_t(160));
          float16  const _1690 = _1688 + _1689;
          float16_ops::store(_1690, _pv_blocks, _1687);
          int64_t  const _1691 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1692 = _1691 * int64_t(256);
          int64_t  const _1693 = _1692 + int64_t(176);
          float16  const _1694 = float16_ops::load(_pv_blocks, _1693);
          float16  const _1695 = float16_ops::load(_pv_block, int64_t(176));
          float16  const _1696 = _1694 + _1695;
          float16_ops::store(_1696, _pv_blocks, _1693);
          int64_t  const _1697 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1698 = _1697 * int64_t(256);
          int64_t  const _1699 = _1698 + int64_t(192);
          float16  const _1700 = float16_ops::load(_pv_blocks, _1699);
          float16  const _1701 = float16_ops::load(_pv_block, int64_t(192));
          float16  const _1702 = _1700 + _1701;
          float16_ops::store(_1702, _pv_blocks, _1699);
          int64_t  const _1703 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1704 = _1703 * int64_t(256);
          int64_t  const _1705 = _1704 + int64_t(208);
          float16  const _1706 = float16_ops::load(_pv_blocks, _1705);
          float16  const _1707 = float16_ops::load(_pv_block, int64_t(208));
          float16  const _1708 = _1706 + _1707;
          float16_ops::store(_1708, _pv_blocks, _1705);
          int64_t  const _1709 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1710 = _1709 * int64_t(256);
          int64_t  const _1711 = _1710 + int64_t(224);
          float16  const _1712 = float16_ops::load(_pv_blocks, _1711);
          float16  const _1713 = float16_ops::load(_pv_block, int64_t(224));
          float16  const _1714 = _1712 + _1713;
          float16_ops::store(_1714, _pv_blocks, _1711);
          int64_t  const _1715 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1716 = _1715 * int64_t(256);
          int64_t  const _1717 = _1716 + int64_t(240);
          float16  const _1718 = float16_ops::load(_pv_blocks, _1717);
          float16  const _1719 = float16_ops::load(_pv_block, int64_t(240));
          float16  const _1720 = _1718 + _1719;
          float16_ops::store(_1720, _pv_blocks, _1717);
         } // alloc _pv_block
        } // for _pv_blocks_s1_ii_ig
       } // for _pv_blocks_s1_rkb__x
       {
        float _pv[2048];
        // produce pv
        // consume pv_blocks
        for (int _pv_s0_ii = 0; _pv_s0_ii < 0 + 32; _pv_s0_ii++)
        {
         int32_t  const _1721 = _pv_s0_ii * 4;
         for (int _pv_s0_c_c = 0; _pv_s0_c_c < 0 + 4; _pv_s0_c_c++)
         {
          int32_t  const _1722 = _pv_s0_c_c + _1721;
          int64_t  const _1723 = (int64_t)(_1722);
          int64_t  const _1724 = _1723 * int64_t(16);
          float16  const _1725 = float16_ops::load(_pv_blocks, _1724);
          float16_ops::store(_1725, _pv, _1724);
         } // for _pv_s0_c_c
        } // for _pv_s0_ii
        // consume probs
        int32_t  const _1726 = _87 - _92;
        int32_t  const _1727 = _92 - _1114;
        for (int _pv_s1_ii_ig = 0; _pv_s1_ii_ig < 0 + 8; _pv_s1_ii_ig++)
        {
         for (int _pv_s1_rkt__x_rebased = 0; _pv_s1_rkt__x_rebased < 0 + _1726; _pv_s1_rkt__x_rebased++)
         {
          int64_t  const _1728 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1729 = _1728 * int64_t(256);
          float16  const _1730 = float16_ops::load(_pv, _1729);
          int64_t  const _1731 = (int64_t)(_92);
          int64_t  const _1732 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1733 = _1731 + _1732;
          int64_t  const _1734 = _1733 * int64_t(64);
          float16  const _1735 = float16_ops::load(_attn_v, _1734);
          int64_t  const _1736 = (int64_t)(_1727);
          int64_t  const _1737 = _1732 + _1736;
          int64_t  const _1738 = _1737 * int64_t(8);
          int64_t  const _1739 = _1738 + _1728;
          int64_t  const _1740 = _1739 * int64_t(4);
          float  const _1741 = _probs[_1740];
          float16  const _1742 = float16_ops::broadcast(_1741);
          float16  const _1743 = _1735 * _1742;
          float16  const _1744 = _1730 + _1743;
          float16_ops::store(_1744, _pv, _1729);
          int64_t  const _1745 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1746 = _1745 * int64_t(256);
          int64_t  const _1747 = _1746 + int64_t(16);
          float16  const _1748 = float16_ops::load(_pv, _1747);
          int64_t  const _1749 = (int64_t)(_92);
          int64_t  const _1750 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1751 = _1749 + _1750;
          int64_t  const _1752 = _1751 * int64_t(64);
          int64_t  const _1753 = _1752 + int64_t(16);
          float16  const _1754 = float16_ops::load(_attn_v, _1753);
          int64_t  const _1755 = (int64_t)(_1727);
          int64_t  const _1756 = _1750 + _1755;
          int64_t  const _1757 = _1756 * int64_t(8);
          int64_t  const _1758 = _1757 + _1745;
          int64_t  const _1759 = _1758 * int64_t(4);
          float  const _1760 = _probs[_1759];
          float16  const _1761 = float16_ops::broadcast(_1760);
          float16  const _1762 = _1754 * _1761;
          float16  const _1763 = _1748 + _1762;
          float16_ops::store(_1763, _pv, _1747);
          int64_t  const _1764 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1765 = _1764 * int64_t(256);
          int64_t  const _1766 = _1765 + int64_t(32);
          float16  const _1767 = float16_ops::load(_pv, _1766);
          int64_t  const _1768 = (int64_t)(_92);
          int64_t  const _1769 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1770 = _1768 + _1769;
          int64_t  const _1771 = _1770 * int64_t(64);
          int64_t  const _1772 = _1771 + int64_t(32);
          float16  const _1773 = float16_ops::load(_attn_v, _1772);
          int64_t  const _1774 = (int64_t)(_1727);
          int64_t  const _1775 = _1769 + _1774;
          int64_t  const _1776 = _1775 * int64_t(8);
          int64_t  const _1777 = _1776 + _1764;
          int64_t  const _1778 = _1777 * int64_t(4);
          float  const _1779 = _probs[_1778];
          float16  const _1780 = float16_ops::broadcast(_1779);
          float16  const _1781 = _1773 * _1780;
          float16  const _1782 = _1767 + _1781;
          float16_ops::store(_1782, _pv, _1766);
          int64_t  const _1783 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1784 = _1783 * int64_t(256);
          int64_t  const _1785 = _1784 + int64_t(48);
          float16  const _1786 = float16_ops::load(_pv, _1785);
          int64_t  const _1787 = (int64_t)(_92);
          int64_t  const _1788 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1789 = _1787 + _1788;
          int64_t  const _1790 = _1789 * int64_t(64);
          int64_t  const _1791 = _1790 + int64_t(48);
          float16  const _1792 = float16_ops::load(_attn_v, _1791);
          int64_t  const _1793 = (int64_t)(_1727);
          int64_t  const _1794 = _1788 + _1793;
          int64_t  const _1795 = _1794 * int64_t(8);
          int64_t  const _1796 = _1795 + _1783;
          int64_t  const _1797 = _1796 * int64_t(4);
          float  const _1798 = _probs[_1797];
          float16  const _1799 = float16_ops::broadcast(_1798);
          float16  const _1800 = _1792 * _1799;
          float16  const _1801 = _1786 + _1800;
          float16_ops::store(_1801, _pv, _1785);
          int64_t  const _1802 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1803 = _1802 * int64_t(256);
          int64_t  const _1804 = _1803 + int64_t(64);
          float16  const _1805 = float16_ops::load(_pv, _1804);
          int64_t  const _1806 = (int64_t)(_92);
          int64_t  const _1807 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1808 = _1806 + _1807;
          int64_t  const _1809 = _1808 * int64_t(64);
          float16  const _1810 = float16_ops::load(_attn_v, _1809);
          int64_t  const _1811 = (int64_t)(_1727);
          int64_t  const _1812 = _1807 + _1811;
          int64_t  const _1813 = _1812 * int64_t(8);
          int64_t  const _1814 = _1813 + _1802;
          int64_t  const _1815 = _1814 * int64_t(4);
          int64_t  const _1816 = _1815 + int64_t(1);
          float  const _1817 = _probs[_1816];
          float16  const _1818 = float16_ops::broadcast(_1817);
          float16  const _1819 = _1810 * _1818;
          float16  const _1820 = _1805 + _1819;
          float16_ops::store(_1820, _pv, _1804);
          int64_t  const _1821 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1822 = _1821 * int64_t(256);
          int64_t  const _1823 = _1822 + int64_t(80);
          float16  const _1824 = float16_ops::load(_pv, _1823);
          int64_t  const _1825 = (int64_t)(_92);
          int64_t  const _1826 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1827 = _1825 + _1826;
          int64_t  const _1828 = _1827 * int64_t(64);
          int64_t  const _1829 = _1828 + int64_t(16);
          float16  const _1830 = float16_ops::load(_attn_v, _1829);
          int64_t  const _1831 = (int64_t)(_1727);
          int64_t  const _1832 = _1826 + _1831;
          int64_t  const _1833 = _1832 * int64_t(8);
          int64_t  const _1834 = _1833 + _1821;
          int64_t  const _1835 = _1834 * int64_t(4);
          int64_t  const _1836 = _1835 + int64_t(1);
          float  const _1837 = _probs[_1836];
          float16  const _1838 = float16_ops::broadcast(_1837);
          float16  const _1839 = _1830 * _1838;
          float16  const _1840 = _1824 + _1839;
          float16_ops::store(_1840, _pv, _1823);
          int64_t  const _1841 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1842 = _1841 * int64_t(256);
          int64_t  const _1843 = _1842 + int64_t(96);
          float16  const _1844 = float16_ops::load(_pv, _1843);
          int64_t  const _1845 = (int64_t)(_92);
          int64_t  const _1846 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1847 = _1845 + _1846;
          int64_t  const _1848 = _1847 * int64_t(64);
          int64_t  const _1849 = _1848 + int64_t(32);
          float16  const _1850 = float16_ops::load(_attn_v, _1849);
          int64_t  const _1851 = (int64_t)(_1727);
          int64_t  const _1852 = _1846 + _1851;
          int64_t  const _1853 = _1852 * int64_t(8);
          int64_t  const _1854 = _1853 + _1841;
          int64_t  const _1855 = _1854 * int64_t(4);
          int64_t  const _1856 = _1855 + int64_t(1);
          float  const _1857 = _probs[_1856];
          float16  const _1858 = float16_ops::broadcast(_1857);
          float16  const _1859 = _1850 * _1858;
          float16  const _1860 = _1844 + _1859;
          float16_ops::store(_1860, _pv, _1843);
          int64_t  const _1861 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1862 = _1861 * int64_t(256);
          int64_t  const _1863 = _1862 + int64_t(112);
          float16  const _1864 = float16_ops::load(_pv, _1863);
          int64_t  const _1865 = (int64_t)(_92);
          int64_t  const _1866 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1867 = _1865 + _1866;
          int64_t  const _1868 = _1867 * int64_t(64);
          int64_t  const _1869 = _1868 + int64_t(48);
          float16  const _1870 = float16_ops::load(_attn_v, _1869);
          int64_t  const _1871 = (int64_t)(_1727);
          int64_t  const _1872 = _1866 + _1871;
          int64_t  const _1873 = _1872 * int64_t(8);
          int64_t  const _1874 = _1873 + _1861;
          int64_t  const _1875 = _1874 * int64_t(4);
          int64_t  const _1876 = _1875 + int64_t(1);
          float  const _1877 = _probs[_1876];
          float16  const _1878 = float16_ops::broadcast(_1877);
          float16  const _1879 = _1870 * _1878;
          float16  const _1880 = _1864 + _1879;
          float16_ops::store(_1880, _pv, _1863);
          int64_t  const _1881 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1882 = _1881 * int64_t(256);
          int64_t  const _1883 = _1882 + int64_t(128);
          float16  const _1884 = float16_ops::load(_pv, _1883);
          int64_t  const _1885 = (int64_t)(_92);
          int64_t  const _1886 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1887 = _1885 + _1886;
          int64_t  const _1888 = _1887 * int64_t(64);
          float16  const _1889 = float16_ops::load(_attn_v, _1888);
          int64_t  const _1890 = (int64_t)(_1727);
          int64_t  const _1891 = _1886 + _1890;
          int64_t  const _1892 = _1891 * int64_t(8);
          int64_t  const _1893 = _1892 + _1881;
          int64_t  const _1894 = _1893 * int64_t(4);
          int64_t  const _1895 = _1894 + int64_t(2);
          float  const _1896 = _probs[_1895];
          float16  const _1897 = float16_ops::broadcast(_1896);
          float16  const _1898 = _1889 * _1897;
          float16  const _1899 = _1884 + _1898;
          float16_ops::store(_1899, _pv, _1883);
          int64_t  const _1900 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1901 = _1900 * int64_t(256);
          int64_t  const _1902 = _1901 + int64_t(144);
          float16  const _1903 = float16_ops::load(_pv, _1902);
          int64_t  const _1904 = (int64_t)(_92);
          int64_t  const _1905 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1906 = _1904 + _1905;
          int64_t  const _1907 = _1906 * int64_t(64);
          int64_t  const _1908 = _1907 + int64_t(16);
          float16  const _1909 = float16_ops::load(_attn_v, _1908);
          int64_t  const _1910 = (int64_t)(_1727);
          int64_t  const _1911 = _1905 + _1910;
          int64_t  const _1912 = _1911 * int64_t(8);
          int64_t  const _1913 = _1912 + _1900;
          int64_t  const _1914 = _1913 * int64_t(4);
          int64_t  const _1915 = _1914 + int64_t(2);
          float  const _1916 = _probs[_1915];
          float16  const _1917 = float16_ops::broadcast(_1916);
          float16  const _1918 = _1909 * _1917;
          float16  const _1919 = _1903 + _1918;
          float16_ops::store(_1919, _pv, _1902);
          int64_t  const _1920 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1921 = _1920 * int64_t(256);
          int64_t  const _1922 = _1921 + int64_t(160);
          float16  const _1923 = float16_ops::load(_pv, _1922);
          int64_t  const _1924 = (int64_t)(_92);
          int64_t  const _1925 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1926 = _1924 + _1925;
          int64_t  const _1927 = _1926 * int64_t(64);
          int64_t  const _1928 = _1927 + int64_t(32);
          float16  const _1929 = float16_ops::load(_attn_v, _1928);
          int64_t  const _1930 = (int64_t)(_1727);
          int64_t  const _1931 = _1925 + _1930;
          int64_t  const _1932 = _1931 * int64_t(8);
          int64_t  const _1933 = _1932 + _1920;
          int64_t  const _1934 = _1933 * int64_t(4);
          int64_t  const _1935 = _1934 + int64_t(2);
          float  const _1936 = _probs[_1935];
          float16  const _1937 = float16_ops::broadcast(_1936);
          float16  const _1938 = _1929 * _1937;
          float16  const _1939 = _1923 + _1938;
          float16_ops::store(_1939, _pv, _1922);
          int64_t  const _1940 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1941 = _1940 * int64_t(256);
          int64_t  const _1942 = _1941 + int64_t(176);
          float16  const _1943 = float16_ops::load(_pv, _1942);
          int64_t  const _1944 = (int64_t)(_92);
          int64_t  const _1945 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1946 = _1944 + _1945;
          int64_t  const _1947 = _1946 * int64_t(64);
          int64_t  const _1948 = _1947 + int64_t(48);
          float16  const _1949 = float16_ops::load(_attn_v, _1948);
          int64_t  const _1950 = (int64_t)(_1727);
          int64_t  const _1951 = _1945 + _1950;
          int64_t  const _1952 = _1951 * int64_t(8);
          int64_t  const _1953 = _1952 + _1940;
          int64_t  const _1954 = _1953 * int64_t(4);
          int64_t  const _1955 = _1954 + int64_t(2);
          float  const _1956 = _probs[_1955];
          float16  const _1957 = float16_ops::broadcast(_1956);
          float16  const _1958 = _1949 * _1957;
          float16  const _1959 = _1943 + _1958;
          float16_ops::store(_1959, _pv, _1942);
          int64_t  const _1960 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1961 = _1960 * int64_t(256);
          int64_t  const _1962 = _1961 + int64_t(192);
          float16  const _1963 = float16_ops::load(_pv, _1962);
          int64_t  const _1964 = (int64_t)(_92);
          int64_t  const _1965 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1966 = _1964 + _1965;
          int64_t  const _1967 = _1966 * int64_t(64);
          float16  const _1968 = float16_ops::load(_attn_v, _1967);
          int64_t  const _1969 = (int64_t)(_1727);
          int64_t  const _1970 = _1965 + _1969;
          int64_t  const _1971 = _1970 * int64_t(8);
          int64_t  const _1972 = _1971 + _1960;
          int64_t  const _1973 = _1972 * int64_t(4);
          int64_t  const _1974 = _1973 + int64_t(3);
          float  const _1975 = _probs[_1974];
          float16  const _1976 = float16_ops::broadcast(_1975);
          float16  const _1977 = _1968 * _1976;
          float16  const _1978 = _1963 + _1977;
          float16_ops::store(_1978, _pv, _1962);
          int64_t  const _1979 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1980 = _1979 * int64_t(256);
          int64_t  const _1981 = _1980 + int64_t(208);
          float16  const _1982 = float16_ops::load(_pv, _1981);
          int64_t  const _1983 = (int64_t)(_92);
          int64_t  const _1984 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1985 = _1983 + _1984;
          int64_t  const _1986 = _1985 * int64_t(64);
          int64_t  const _1987 = _1986 + int64_t(16);
          float16  const _1988 = float16_ops::load(_attn_v, _1987);
          int64_t  const _1989 = (int64_t)(_1727);
          int64_t  const _1990 = _1984 + _1989;
          int64_t  const _1991 = _1990 * int64_t(8);
          int64_t  const _1992 = _1991 + _1979;
          int64_t  const _1993 = _1992 * int64_t(4);
          int64_t  const _1994 = _1993 + int64_t(3);
          float  const _1995 = _probs[_1994];
          float16  const _1996 = float16_ops::broadcast(_1995);
          float16  const _1997 = _1988 * _1996;
          float16  const _1998 = _1982 + _1997;
          float16_ops::store(_1998, _pv, _1981);
          int64_t  const _1999 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _2000 = _1999 * int64_t(256);
          int64_t  const _2001 = _2000 + int64_t(224);
          float16  const _2002 = float16_ops::load(_pv, _2001);
          int64_t  const _2003 = (int64_t)(_92);
          int64_t  const _2004 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _2005 = _2003 + _2004;
          int64_t  const _2006 = _2005 * int64_t(64);
          int64_t  const _2007 = _2006 + int64_t(32);
          float16  const _2008 = float16_ops::load(_attn_v, _2007);
          int64_t  const _2009 = (int64_t)(_1727);
          int64_t  const _2010 = _2004 + _2009;
          int64_t  const _2011 = _2010 * int64_t(8);
          int64_t  const _2012 = _2011 + _1999;
          int64_t  const _2013 = _2012 * int64_t(4);
          int64_t  const _2014 = _2013 + int64_t(3);
          float  const _2015 = _probs[_2014];
          float16  const _2016 = float16_ops::broadcast(_2015);
          float16  const _2017 = _2008 * _2016;
          float16  const _2018 = _2002 + _2017;
          float16_ops::store(_2018, _pv, _2001);
          int64_t  const _2019 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _2020 = _2019 * int64_t(256);
          int64_t  const _2021 = _2020 + int64_t(240);
          float16  const _2022 = float16_ops::load(_pv, _2021);
          int64_t  const _2023 = (int64_t)(_92);
          int64_t  const _2024 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _2025 = _2023 + _2024;
          int64_t  const _2026 = _2025 * int64_t(64);
          int64_t  const _2027 = _2026 + int64_t(48);
          float16  const _2028 = float16_ops::load(_attn_v, _2027);
          int64_t  const _2029 = (int64_t)(_1727);
          int64_t  const _2030 = _2024 + _2029;
          int64_t  const _2031 = _2030 * int64_t(8);
          int64_t  const _2032 = _2031 + _2019;
          int64_t  const _2033 = _2032 * int64_t(4);
          int64_t  const _2034 = _2033 + int64_t(3);
          float  const _2035 = _probs[_2034];
          float16  const _2036 = float16_ops::broadcast(_2035);
          float16  const _2037 = _2028 * _2036;
          float16  const _2038 = _2022 + _2037;
          float16_ops::store(_2038, _pv, _2021);
         } // for _pv_s1_rkt__x_rebased
        } // for _pv_s1_ii_ig
        {
         float _row_sum[32];
         int32_t  const _2039 = ::halide_cpp_max(_84, 0);
         int32_t  const _2040 = _87 - _2039;
         // produce row_sum
         for (int _row_sum_s0_ii_ii = 0; _row_sum_s0_ii_ii < 0 + 2; _row_sum_s0_ii_ii++)
         {
          float  const _2041 = float_from_bits(0 /* 0 */);
          float16  const _2042 = float16_ops::broadcast(_2041);
          int64_t  const _2043 = (int64_t)(_row_sum_s0_ii_ii);
          int64_t  const _2044 = _2043 * int64_t(16);
          float16_ops::store(_2042, _row_sum, _2044);
         } // for _row_sum_s0_ii_ii
         // consume probs
         int32_t  const _2045 = ::halide_cpp_max(_84, 0);
         int32_t  const _2046 = _2045 - _1114;
         for (int _row_sum_s1_rk__x_rebased = 0; _row_sum_s1_rk__x_rebased < 0 + _2040; _row_sum_s1_rk__x_rebased++)
         {
          float16  const _2047 = float16_ops::load(_row_sum, int64_t(0));
          int64_t  const _2048 = (int64_t)(_row_sum_s1_rk__x_rebased);
          int64_t  const _2049 = (int64_t)(_2046);
          int64_t  const _2050 = _2048 + _2049;
          int64_t  const _2051 = _2050 * int64_t(32);
          float16  const _2052 = float16_ops::load(_probs, _2051);
          float16  const _2053 = _2047 + _2052;
          float16_ops::store(_2053, _row_sum, int64_t(0));
          float16  const _2054 = float16_ops::load(_row_sum, int64_t(16));
          int64_t  const _2055 = (int64_t)(_row_sum_s1_rk__x_rebased);
          int64_t  const _2056 = (int64_t)(_2046);
          int64_t  const _2057 = _2055 + _2056;
          int64_t  const _2058 = _2057 * int64_t(32);
          int64_t  const _2059 = _2058 + int64_t(16);
          float16  const _2060 = float16_ops::load(_probs, _2059);
          float16  const _2061 = _2054 + _2060;
          float16_ops::store(_2061, _row_sum, int64_t(16));
         } // for _row_sum_s1_rk__x_rebased
         _probs_free.free();
         {
          float _partial[2560];
          // produce partial
          // consume row_sum
          // consume pv
          // consume row_max
          int32_t  const _2062 = _attn_kv_lo >> 3;
          int32_t  const _2063 = ::halide_cpp_max(_2062, 0);
          int32_t  const _2064 = _2063 * 8;
          int32_t  const _2065 = ::halide_cpp_min(_2064, _attn_lk);
          int32_t  const _2066 = ::halide_cpp_min(_attn_kv_hi, _attn_lk);
          int32_t  const _2067 = _2066 + 7;
          int32_t  const _2068 = _2067 >> 3;
          int32_t  const _2069 = _attn_lq + -1;
          int32_t  const _2070 = _2069 >> 5;
          int32_t  const _2071 = _attn_q_step * 31;
          int32_t  const _2072 = _2071 + _attn_q0;
          int32_t  const _2073 = _2072 >> 5;
          int32_t  const _2074 = _2073 + _attn_tile;
          int32_t  const _2075 = ::halide_cpp_min(_2070, _2074);
          int32_t  const _2076 = _attn_q0 >> 5;
          int32_t  const _2077 = _2076 + _attn_tile;
          int32_t  const _2078 = ::halide_cpp_max(_2075, _2077);
          int32_t  const _2079 = _2078 * 4;
          int32_t  const _2080 = _2079 + 4;
          int32_t  const _2081 = ::halide_cpp_min(_2068, _2080);
          int32_t  const _2082 = _2081 * 8;
          int32_t  const _2083 = ::halide_cpp_min(_2082, _attn_lk);
          int32_t  const _2084 = _attn_chunk_lo >> 3;
          int32_t  const _2085 = _2084 * 8;
          for (int _partial_s0_ii_ig = 0; _partial_s0_ii_ig < 0 + 8; _partial_s0_ii_ig++)
          {
           int32_t  const _2086 = ::halide_cpp_max(_2065, _2083);
           int32_t  const _2087 = _partial_s0_ii_ig * 4;
           for (int _partial_s0_ii_ir = 0; _partial_s0_ii_ir < 0 + 4; _partial_s0_ii_ir++)
           {
            int32_t  const _2088 = _partial_s0_ii_ir + _2087;
            for (int _partial_s0_c_c = 0; _partial_s0_c_c < 0 + 4; _partial_s0_c_c++)
            {
             int64_t  const _2089 = (int64_t)(_2088);
             int64_t  const _2090 = _2089 * int64_t(4);
             int64_t  const _2091 = (int64_t)(_partial_s0_c_c);
             int64_t  const _2092 = _2090 + _2091;
             int64_t  const _2093 = _2092 * int64_t(16);
             float16  const _2094 = float16_ops::load(_pv, _2093);
             int64_t  const _2095 = _2089 * int64_t(5);
             int64_t  const _2096 = _2095 + _2091;
             int64_t  const _2097 = _2096 * int64_t(16);
             float16_ops::store(_2094, _partial, _2097);
            } // for _partial_s0_c_c
            int32_t  const _2098 = _partial_s0_ii_ir + _2087;
            int64_t  const _2099 = (int64_t)(_2098);
            float  const _2100 = _row_max[_2099];
            float16  const _2101 = float16_ops::broadcast(_2100);
            float  const _2102 = _row_sum[_2099];
            float16  const _2103 = float16_ops::broadcast(_2102);
            int32_t  const _2104 = ::halide_cpp_min(_2085, _2086);
            int32_t  const _2105 = ::halide_cpp_max(_2104, _2065);
            int32_t  const _2106 = _2105 + 1024;
            int32_t  const _2107 = ::halide_cpp_min(_2106, _2086);
            float  const _2108 = reinterpret<float>(_2107);
            float16  const _2109 = float16_ops::broadcast(_2108);
            float  const _2110 = reinterpret<float>(_2086);
            float16  const _2111 = float16_ops::broadcast(_2110);
            int32x16_t  const _2112 = int32x16_t_ops::ramp(-2, 1);
            int32x16_t  const _2113 = int32x16_t_ops::broadcast(0);
            uint8x16_t  const _2114 = int32x16_t_ops::eq(_2112, _2113);
            float16  const _2115 = float16_ops::select(_2114, _2109, _2111);
            int32x16_t  const _2116 = int32x16_t_ops::ramp(-1, 1);
            uint8x16_t  const _2117 = int32x16_t_ops::eq(_2116, _2113);
            float16  const _2118 = float16_ops::select(_2117, _2103, _2115);
            int32x16_t  const _2119 = int32x16_t_ops::ramp(0, 1);
            uint8x16_t  const _2120 = int32x16_t_ops::eq(_2119, _2113);
            float16  const _2121 = float16_ops::select(_2120, _2101, _2118);
            int64_t  const _2122 = _2099 * int64_t(80);
            int64_t  const _2123 = _2122 + int64_t(64);
            float16_ops::store(_2121, _partial, _2123);
           } // for _partial_s0_ii_ir
          } // for _partial_s0_ii_ig
          // produce attn_out
          // consume partial
          for (int _attn_out_s0_ii = 0; _attn_out_s0_ii < 0 + 32; _attn_out_s0_ii++)
          {
           int32_t  const _2124 = _attn_out_s0_ii * 5;
           for (int _attn_out_s0_c_c = 0; _attn_out_s0_c_c < 0 + 5; _attn_out_s0_c_c++)
           {
            int32_t  const _2125 = _attn_out_s0_c_c + _2124;
            int64_t  const _2126 = (int64_t)(_2125);
            int64_t  const _2127 = _2126 * int64_t(16);
            float16  const _2128 = float16_ops::load(_partial, _2127);
            float16_ops::store(_2128, _attn_out, _2127);
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


// ---- The path's attn_kernel_args entry point ----
namespace {

enum class IoType { F32, F16, BF16, E4M3, E5M2 };
constexpr const char* kKernelName = "causal64";
constexpr int kLanes = 16, kTileQ = 32;
constexpr int32_t kKeyChunk = 1024;  // keys per pipeline call at most
constexpr int64_t kHeadDim = 64, kValueDim = 64;  // 0: any
constexpr IoType kIoType = IoType::F32;  // Q, K and V's
constexpr bool kFp8 = kIoType == IoType::E4M3 || kIoType == IoType::E5M2;  // descaled Q, K, V; no backward
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

// [fixed text: backends/cpu/fixed/WrapperSupport.h, 480 lines]

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

}  // namespace attn_causal64_avx512
#undef ATTN_F16C
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif  // defined(__x86_64__)

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

// [the source with every path (all_cpu_paths: the matrix paths for bf16): 17184 lines, hash b48c3e33d675b2a5]
