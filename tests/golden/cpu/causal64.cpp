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
#include <thread>
#include <vector>
#if defined(__x86_64__)
#include <cpuid.h>      // whether the CPU has F16C, AVX512-BF16, AMX
#include <immintrin.h>  // F16C's f16 to f32 on the AVX paths; AMX tiles, vdpbf16ps
#endif
#if defined(__x86_64__) && defined(__linux__)
#include <sys/syscall.h>  // arch_prctl: the permission to use AMX tiles
#include <unistd.h>
#endif

#if defined(__clang__) && defined(__has_builtin)
#if __has_builtin(__builtin_elementwise_max)
#define ATTN_ELEMENTWISE_MIN_MAX 1  // vector min/max without a lane loop
#endif
#endif

// ---- Halide's includes and runtime header (Halide 14 CodeGen_C output), shared by the paths ----

// [Halide runtime header: 2454 lines, hash c5c31a150c566be5]



// ---- The Halide runtime functions the paths call ----
// [cpu runtime glue for 17 runtime functions: 165 lines, hash ddd646e7540cad2d]

// ---- Vector path 'avx512': its Halide pipeline and entry point ----
#if defined(__x86_64__)
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma,f16c,avx512f,avx512vl,avx512dq,avx512bw"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c,avx512f,avx512vl,avx512dq,avx512bw")
#endif
#define ATTN_F16C 1  // the path may convert f16 with F16C
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
int attn_causal64_avx512_pipeline(void const *__user_context, struct halide_buffer_t *_attn_q_buffer, struct halide_buffer_t *_attn_k_buffer, struct halide_buffer_t *_attn_v_buffer, int32_t _attn_lq, int32_t _attn_lk, int32_t _attn_d, int32_t _attn_dv_pad, int32_t _attn_tile, int32_t _attn_q_step, int32_t _attn_head, int32_t _attn_batch, int32_t _attn_kv_lo, int32_t _attn_kv_hi, int32_t _attn_chunk_lo, struct halide_buffer_t *_attn_out_buffer) {
// [Halide's checks of the arguments of attn_causal64_avx512_pipeline: 624 lines, hash babe3e566cd52554]
 {
  float _qs[2048];
  // produce qs
  for (int _qs_s0_ii_ii = 0; _qs_s0_ii_ii < 0 + 2; _qs_s0_ii_ii++)
  {
   for (int _qs_s0_c = 0; _qs_s0_c < 0 + 64; _qs_s0_c++)
   {
    int32_t  const _342 = _qs_s0_ii_ii * 1024;
    int32_t  const _343 = _342 + _qs_s0_c;
    int32x16_t  const _344 = int32x16_t_ops::ramp(_343, 64);
    float16  const _345 = float16_ops::load_gather(_attn_q, _344);
    float  const _346 = float_from_bits(1043900987 /* 0.180337 */);
    float16  const _347 = float16_ops::broadcast(_346);
    float16  const _348 = _345 * _347;
    int64_t  const _349 = (int64_t)(_qs_s0_c);
    int64_t  const _350 = _349 * int64_t(2);
    int64_t  const _351 = (int64_t)(_qs_s0_ii_ii);
    int64_t  const _352 = _350 + _351;
    int64_t  const _353 = _352 * int64_t(16);
    float16_ops::store(_348, _qs, _353);
   } // for _qs_s0_c
  } // for _qs_s0_ii_ii
  {
   int32_t  const _354 = _89 - _90;
   int32_t  const _355 = _354 + -1;
   int32_t  const _356 = _355 >> 3;
   int32_t  const _357 = _356 * 8;
   int32_t  const _358 = _357 + 8;
   int64_t  const _359 = _358;
   int64_t  const _360 = _359 * 32;
   if ((_360 > ((int64_t(1) << 31) - 1)) || ((_360 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
   {
    attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation scores\n");
    return -1;
   } // overflow test scores
   int64_t  const _361 = _360;
   float *_scores = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_361);
   if (!_scores)
   {
    int32_t  const _362 = attn_causal64_rt_error_out_of_memory(_ucon);
    return _362;
   }
   HalideFreeHelper _scores_free(_ucon, _scores, attn_causal64_rt_free);
   // produce scores
   // consume qs
   int32_t  const _363 = _89 - _90;
   int32_t  const _364 = _363 + 7;
   int32_t  const _365 = _364 >> 3;
   for (int _scores_s0_j_jo = 0; _scores_s0_j_jo < 0 + _365; _scores_s0_j_jo++)
   {
    {
     float _dot[256];
     // produce dot
     float  const _366 = float_from_bits(0 /* 0 */);
     float16  const _367 = float16_ops::broadcast(_366);
     float16_ops::store(_367, _dot, int64_t(0));
     float  const _368 = float_from_bits(0 /* 0 */);
     float16  const _369 = float16_ops::broadcast(_368);
     float16_ops::store(_369, _dot, int64_t(32));
     float  const _370 = float_from_bits(0 /* 0 */);
     float16  const _371 = float16_ops::broadcast(_370);
     float16_ops::store(_371, _dot, int64_t(64));
     float  const _372 = float_from_bits(0 /* 0 */);
     float16  const _373 = float16_ops::broadcast(_372);
     float16_ops::store(_373, _dot, int64_t(96));
     float  const _374 = float_from_bits(0 /* 0 */);
     float16  const _375 = float16_ops::broadcast(_374);
     float16_ops::store(_375, _dot, int64_t(128));
     float  const _376 = float_from_bits(0 /* 0 */);
     float16  const _377 = float16_ops::broadcast(_376);
     float16_ops::store(_377, _dot, int64_t(160));
     float  const _378 = float_from_bits(0 /* 0 */);
     float16  const _379 = float16_ops::broadcast(_378);
     float16_ops::store(_379, _dot, int64_t(192));
     float  const _380 = float_from_bits(0 /* 0 */);
     float16  const _381 = float16_ops::broadcast(_380);
     float16_ops::store(_381, _dot, int64_t(224));
     float  const _382 = float_from_bits(0 /* 0 */);
     float16  const _383 = float16_ops::broadcast(_382);
     float16_ops::store(_383, _dot, int64_t(16));
     float  const _384 = float_from_bits(0 /* 0 */);
     float16  const _385 = float16_ops::broadcast(_384);
     float16_ops::store(_385, _dot, int64_t(48));
     float  const _386 = float_from_bits(0 /* 0 */);
     float16  const _387 = float16_ops::broadcast(_386);
     float16_ops::store(_387, _dot, int64_t(80));
     float  const _388 = float_from_bits(0 /* 0 */);
     float16  const _389 = float16_ops::broadcast(_388);
     float16_ops::store(_389, _dot, int64_t(112));
     float  const _390 = float_from_bits(0 /* 0 */);
     float16  const _391 = float16_ops::broadcast(_390);
     float16_ops::store(_391, _dot, int64_t(144));
     float  const _392 = float_from_bits(0 /* 0 */);
     float16  const _393 = float16_ops::broadcast(_392);
     float16_ops::store(_393, _dot, int64_t(176));
     float  const _394 = float_from_bits(0 /* 0 */);
     float16  const _395 = float16_ops::broadcast(_394);
     float16_ops::store(_395, _dot, int64_t(208));
     float  const _396 = float_from_bits(0 /* 0 */);
     float16  const _397 = float16_ops::broadcast(_396);
     float16_ops::store(_397, _dot, int64_t(240));
     int32_t  const _398 = _scores_s0_j_jo * 8;
     int32_t  const _399 = _398 + _90;
     int32_t  const _400 = _399 + 8;
     int32_t  const _401 = ::halide_cpp_min(_400, _24);
     int32_t  const _402 = _401 * 64;
     int32_t  const _403 = _399 + 7;
     int32_t  const _404 = ::halide_cpp_min(_403, _24);
     int32_t  const _405 = _404 * 64;
     int32_t  const _406 = _399 + 6;
     int32_t  const _407 = ::halide_cpp_min(_406, _24);
     int32_t  const _408 = _407 * 64;
     int32_t  const _409 = _399 + 5;
     int32_t  const _410 = ::halide_cpp_min(_409, _24);
     int32_t  const _411 = _410 * 64;
     int32_t  const _412 = _399 + 4;
     int32_t  const _413 = ::halide_cpp_min(_412, _24);
     int32_t  const _414 = _413 * 64;
     int32_t  const _415 = _399 + 3;
     int32_t  const _416 = ::halide_cpp_min(_415, _24);
     int32_t  const _417 = _416 * 64;
     int32_t  const _418 = _399 + 2;
     int32_t  const _419 = ::halide_cpp_min(_418, _24);
     int32_t  const _420 = _419 * 64;
     int32_t  const _421 = _24 + -1;
     int32_t  const _422 = ::halide_cpp_min(_421, _399);
     int32_t  const _423 = _422 * 64;
     for (int _dot_s1_rd__x = 0; _dot_s1_rd__x < 0 + 64; _dot_s1_rd__x++)
     {
      float16  const _424 = float16_ops::load(_dot, int64_t(0));
      int64_t  const _425 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _426 = _425 * int64_t(32);
      float16  const _427 = float16_ops::load(_qs, _426);
      int64_t  const _428 = (int64_t)(_423);
      int64_t  const _429 = _425 + _428;
      float  const _430 = ((float const *)_attn_k)[_429];
      float16  const _431 = float16_ops::broadcast(_430);
      float16  const _432 = _427 * _431;
      float16  const _433 = _424 + _432;
      float16_ops::store(_433, _dot, int64_t(0));
      float16  const _434 = float16_ops::load(_dot, int64_t(16));
      int64_t  const _435 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _436 = _435 * int64_t(32);
      int64_t  const _437 = _436 + int64_t(16);
      float16  const _438 = float16_ops::load(_qs, _437);
      int64_t  const _439 = (int64_t)(_423);
      int64_t  const _440 = _435 + _439;
      float  const _441 = ((float const *)_attn_k)[_440];
      float16  const _442 = float16_ops::broadcast(_441);
      float16  const _443 = _438 * _442;
      float16  const _444 = _434 + _443;
      float16_ops::store(_444, _dot, int64_t(16));
      float16  const _445 = float16_ops::load(_dot, int64_t(32));
      int64_t  const _446 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _447 = _446 * int64_t(32);
      float16  const _448 = float16_ops::load(_qs, _447);
      int64_t  const _449 = (int64_t)(_420);
      int64_t  const _450 = _446 + _449;
      int64_t  const _451 = _450 + int64_t(-64);
      float  const _452 = ((float const *)_attn_k)[_451];
      float16  const _453 = float16_ops::broadcast(_452);
      float16  const _454 = _448 * _453;
      float16  const _455 = _445 + _454;
      float16_ops::store(_455, _dot, int64_t(32));
      float16  const _456 = float16_ops::load(_dot, int64_t(48));
      int64_t  const _457 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _458 = _457 * int64_t(32);
      int64_t  const _459 = _458 + int64_t(16);
      float16  const _460 = float16_ops::load(_qs, _459);
      int64_t  const _461 = (int64_t)(_420);
      int64_t  const _462 = _457 + _461;
      int64_t  const _463 = _462 + int64_t(-64);
      float  const _464 = ((float const *)_attn_k)[_463];
      float16  const _465 = float16_ops::broadcast(_464);
      float16  const _466 = _460 * _465;
      float16  const _467 = _456 + _466;
      float16_ops::store(_467, _dot, int64_t(48));
      float16  const _468 = float16_ops::load(_dot, int64_t(64));
      int64_t  const _469 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _470 = _469 * int64_t(32);
      float16  const _471 = float16_ops::load(_qs, _470);
      int64_t  const _472 = (int64_t)(_417);
      int64_t  const _473 = _469 + _472;
      int64_t  const _474 = _473 + int64_t(-64);
      float  const _475 = ((float const *)_attn_k)[_474];
      float16  const _476 = float16_ops::broadcast(_475);
      float16  const _477 = _471 * _476;
      float16  const _478 = _468 + _477;
      float16_ops::store(_478, _dot, int64_t(64));
      float16  const _479 = float16_ops::load(_dot, int64_t(80));
      int64_t  const _480 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _481 = _480 * int64_t(32);
      int64_t  const _482 = _481 + int64_t(16);
      float16  const _483 = float16_ops::load(_qs, _482);
      int64_t  const _484 = (int64_t)(_417);
      int64_t  const _485 = _480 + _484;
      int64_t  const _486 = _485 + int64_t(-64);
      float  const _487 = ((float const *)_attn_k)[_486];
      float16  const _488 = float16_ops::broadcast(_487);
      float16  const _489 = _483 * _488;
      float16  const _490 = _479 + _489;
      float16_ops::store(_490, _dot, int64_t(80));
      float16  const _491 = float16_ops::load(_dot, int64_t(96));
      int64_t  const _492 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _493 = _492 * int64_t(32);
      float16  const _494 = float16_ops::load(_qs, _493);
      int64_t  const _495 = (int64_t)(_414);
      int64_t  const _496 = _492 + _495;
      int64_t  const _497 = _496 + int64_t(-64);
      float  const _498 = ((float const *)_attn_k)[_497];
      float16  const _499 = float16_ops::broadcast(_498);
      float16  const _500 = _494 * _499;
      float16  const _501 = _491 + _500;
      float16_ops::store(_501, _dot, int64_t(96));
      float16  const _502 = float16_ops::load(_dot, int64_t(112));
      int64_t  const _503 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _504 = _503 * int64_t(32);
      int64_t  const _505 = _504 + int64_t(16);
      float16  const _506 = float16_ops::load(_qs, _505);
      int64_t  const _507 = (int64_t)(_414);
      int64_t  const _508 = _503 + _507;
      int64_t  const _509 = _508 + int64_t(-64);
      float  const _510 = ((float const *)_attn_k)[_509];
      float16  const _511 = float16_ops::broadcast(_510);
      float16  const _512 = _506 * _511;
      float16  const _513 = _502 + _512;
      float16_ops::store(_513, _dot, int64_t(112));
      float16  const _514 = float16_ops::load(_dot, int64_t(128));
      int64_t  const _515 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _516 = _515 * int64_t(32);
      float16  const _517 = float16_ops::load(_qs, _516);
      int64_t  const _518 = (int64_t)(_411);
      int64_t  const _519 = _515 + _518;
      int64_t  const _520 = _519 + int64_t(-64);
      float  const _521 = ((float const *)_attn_k)[_520];
      float16  const _522 = float16_ops::broadcast(_521);
      float16  const _523 = _517 * _522;
      float16  const _524 = _514 + _523;
      float16_ops::store(_524, _dot, int64_t(128));
      float16  const _525 = float16_ops::load(_dot, int64_t(144));
      int64_t  const _526 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _527 = _526 * int64_t(32);
      int64_t  const _528 = _527 + int64_t(16);
      float16  const _529 = float16_ops::load(_qs, _528);
      int64_t  const _530 = (int64_t)(_411);
      int64_t  const _531 = _526 + _530;
      int64_t  const _532 = _531 + int64_t(-64);
      float  const _533 = ((float const *)_attn_k)[_532];
      float16  const _534 = float16_ops::broadcast(_533);
      float16  const _535 = _529 * _534;
      float16  const _536 = _525 + _535;
      float16_ops::store(_536, _dot, int64_t(144));
      float16  const _537 = float16_ops::load(_dot, int64_t(160));
      int64_t  const _538 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _539 = _538 * int64_t(32);
      float16  const _540 = float16_ops::load(_qs, _539);
      int64_t  const _541 = (int64_t)(_408);
      int64_t  const _542 = _538 + _541;
      int64_t  const _543 = _542 + int64_t(-64);
      float  const _544 = ((float const *)_attn_k)[_543];
      float16  const _545 = float16_ops::broadcast(_544);
      float16  const _546 = _540 * _545;
      float16  const _547 = _537 + _546;
      float16_ops::store(_547, _dot, int64_t(160));
      float16  const _548 = float16_ops::load(_dot, int64_t(176));
      int64_t  const _549 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _550 = _549 * int64_t(32);
      int64_t  const _551 = _550 + int64_t(16);
      float16  const _552 = float16_ops::load(_qs, _551);
      int64_t  const _553 = (int64_t)(_408);
      int64_t  const _554 = _549 + _553;
      int64_t  const _555 = _554 + int64_t(-64);
      float  const _556 = ((float const *)_attn_k)[_555];
      float16  const _557 = float16_ops::broadcast(_556);
      float16  const _558 = _552 * _557;
      float16  const _559 = _548 + _558;
      float16_ops::store(_559, _dot, int64_t(176));
      float16  const _560 = float16_ops::load(_dot, int64_t(192));
      int64_t  const _561 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _562 = _561 * int64_t(32);
      float16  const _563 = float16_ops::load(_qs, _562);
      int64_t  const _564 = (int64_t)(_405);
      int64_t  const _565 = _561 + _564;
      int64_t  const _566 = _565 + int64_t(-64);
      float  const _567 = ((float const *)_attn_k)[_566];
      float16  const _568 = float16_ops::broadcast(_567);
      float16  const _569 = _563 * _568;
      float16  const _570 = _560 + _569;
      float16_ops::store(_570, _dot, int64_t(192));
      float16  const _571 = float16_ops::load(_dot, int64_t(208));
      int64_t  const _572 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _573 = _572 * int64_t(32);
      int64_t  const _574 = _573 + int64_t(16);
      float16  const _575 = float16_ops::load(_qs, _574);
      int64_t  const _576 = (int64_t)(_405);
      int64_t  const _577 = _572 + _576;
      int64_t  const _578 = _577 + int64_t(-64);
      float  const _579 = ((float const *)_attn_k)[_578];
      float16  const _580 = float16_ops::broadcast(_579);
      float16  const _581 = _575 * _580;
      float16  const _582 = _571 + _581;
      float16_ops::store(_582, _dot, int64_t(208));
      float16  const _583 = float16_ops::load(_dot, int64_t(224));
      int64_t  const _584 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _585 = _584 * int64_t(32);
      float16  const _586 = float16_ops::load(_qs, _585);
      int64_t  const _587 = (int64_t)(_402);
      int64_t  const _588 = _584 + _587;
      int64_t  const _589 = _588 + int64_t(-64);
      float  const _590 = ((float const *)_attn_k)[_589];
      float16  const _591 = float16_ops::broadcast(_590);
      float16  const _592 = _586 * _591;
      float16  const _593 = _583 + _592;
      float16_ops::store(_593, _dot, int64_t(224));
      float16  const _594 = float16_ops::load(_dot, int64_t(240));
      int64_t  const _595 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _596 = _595 * int64_t(32);
      int64_t  const _597 = _596 + int64_t(16);
      float16  const _598 = float16_ops::load(_qs, _597);
      int64_t  const _599 = (int64_t)(_402);
      int64_t  const _600 = _595 + _599;
      int64_t  const _601 = _600 + int64_t(-64);
      float  const _602 = ((float const *)_attn_k)[_601];
      float16  const _603 = float16_ops::broadcast(_602);
      float16  const _604 = _598 * _603;
      float16  const _605 = _594 + _604;
      float16_ops::store(_605, _dot, int64_t(240));
     } // for _dot_s1_rd__x
     // consume dot
     float16  const _606 = float16_ops::load(_dot, int64_t(0));
     int64_t  const _607 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _608 = _607 * int64_t(256);
     float16_ops::store(_606, _scores, _608);
     float16  const _609 = float16_ops::load(_dot, int64_t(16));
     int64_t  const _610 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _611 = _610 * int64_t(256);
     int64_t  const _612 = _611 + int64_t(16);
     float16_ops::store(_609, _scores, _612);
     float16  const _613 = float16_ops::load(_dot, int64_t(32));
     int64_t  const _614 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _615 = _614 * int64_t(256);
     int64_t  const _616 = _615 + int64_t(32);
     float16_ops::store(_613, _scores, _616);
     float16  const _617 = float16_ops::load(_dot, int64_t(48));
     int64_t  const _618 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _619 = _618 * int64_t(256);
     int64_t  const _620 = _619 + int64_t(48);
     float16_ops::store(_617, _scores, _620);
     float16  const _621 = float16_ops::load(_dot, int64_t(64));
     int64_t  const _622 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _623 = _622 * int64_t(256);
     int64_t  const _624 = _623 + int64_t(64);
     float16_ops::store(_621, _scores, _624);
     float16  const _625 = float16_ops::load(_dot, int64_t(80));
     int64_t  const _626 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _627 = _626 * int64_t(256);
     int64_t  const _628 = _627 + int64_t(80);
     float16_ops::store(_625, _scores, _628);
     float16  const _629 = float16_ops::load(_dot, int64_t(96));
     int64_t  const _630 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _631 = _630 * int64_t(256);
     int64_t  const _632 = _631 + int64_t(96);
     float16_ops::store(_629, _scores, _632);
     float16  const _633 = float16_ops::load(_dot, int64_t(112));
     int64_t  const _634 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _635 = _634 * int64_t(256);
     int64_t  const _636 = _635 + int64_t(112);
     float16_ops::store(_633, _scores, _636);
     float16  const _637 = float16_ops::load(_dot, int64_t(128));
     int64_t  const _638 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _639 = _638 * int64_t(256);
     int64_t  const _640 = _639 + int64_t(128);
     float16_ops::store(_637, _scores, _640);
     float16  const _641 = float16_ops::load(_dot, int64_t(144));
     int64_t  const _642 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _643 = _642 * int64_t(256);
     int64_t  const _644 = _643 + int64_t(144);
     float16_ops::store(_641, _scores, _644);
     float16  const _645 = float16_ops::load(_dot, int64_t(160));
     int64_t  const _646 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _647 = _646 * int64_t(256);
     int64_t  const _648 = _647 + int64_t(160);
     float16_ops::store(_645, _scores, _648);
     float16  const _649 = float16_ops::load(_dot, int64_t(176));
     int64_t  const _650 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _651 = _650 * int64_t(256);
     int64_t  const _652 = _651 + int64_t(176);
     float16_ops::store(_649, _scores, _652);
     float16  const _653 = float16_ops::load(_dot, int64_t(192));
     int64_t  const _654 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _655 = _654 * int64_t(256);
     int64_t  const _656 = _655 + int64_t(192);
     float16_ops::store(_653, _scores, _656);
     float16  const _657 = float16_ops::load(_dot, int64_t(208));
     int64_t  const _658 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _659 = _658 * int64_t(256);
     int64_t  const _660 = _659 + int64_t(208);
     float16_ops::store(_657, _scores, _660);
     float16  const _661 = float16_ops::load(_dot, int64_t(224));
     int64_t  const _662 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _663 = _662 * int64_t(256);
     int64_t  const _664 = _663 + int64_t(224);
     float16_ops::store(_661, _scores, _664);
     float16  const _665 = float16_ops::load(_dot, int64_t(240));
     int64_t  const _666 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _667 = _666 * int64_t(256);
     int64_t  const _668 = _667 + int64_t(240);
     float16_ops::store(_665, _scores, _668);
    } // alloc _dot
   } // for _scores_s0_j_jo
   int32_t  const _669 = ::halide_cpp_max(_86, _77);
   int32_t  const _670 = ::halide_cpp_max(_669, _89);
   {
    int32_t  const _671 = _670 - _90;
    int64_t  const _672 = _671;
    int64_t  const _673 = _672 * 32;
    if ((_673 > ((int64_t(1) << 31) - 1)) || ((_673 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
    {
     attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation masked\n");
     return -1;
    } // overflow test masked
    int64_t  const _674 = _673;
    float *_masked = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_674);
    if (!_masked)
    {
     int32_t  const _675 = attn_causal64_rt_error_out_of_memory(_ucon);
     return _675;
    }
    HalideFreeHelper _masked_free(_ucon, _masked, attn_causal64_rt_free);
    // produce masked
    // consume scores
    int32_t  const _676 = _attn_tile * 2;
    int32_t  const _677 = _676 + _attn_q_step;
    int32_t  const _678 = _677 * 16;
    int32_t  const _679 = _attn_tile * 32;
    int32_t  const _680 = _89 - _90;
    for (int _masked_s0_j_rebased = 0; _masked_s0_j_rebased < 0 + _680; _masked_s0_j_rebased++)
    {
     uint32_t  const _681 = (uint32_t)(0ull);
     uint32x16_t  const _682 = uint32x16_t_ops::broadcast(_681);
     uint32_t  const _683 = (uint32_t)(4294967295ull);
     uint32x16_t  const _684 = uint32x16_t_ops::broadcast(_683);
     int32x16_t  const _685 = int32x16_t_ops::ramp(_679, _attn_q_step);
     int32_t  const _686 = _90 + _masked_s0_j_rebased;
     int32x16_t  const _687 = int32x16_t_ops::broadcast(_686);
     uint8x16_t  const _688 = int32x16_t_ops::lt(_685, _687);
     uint32x16_t  const _689 = uint32x16_t_ops::select(_688, _682, _684);
     int64_t  const _690 = (int64_t)(_masked_s0_j_rebased);
     int64_t  const _691 = _690 * int64_t(32);
     float16  const _692 = float16_ops::load(_scores, _691);
     uint32x16_t  const _693 = reinterpret<uint32x16_t>(_692);
     uint32x16_t  const _694 = _693 & _689;
     uint32_t  const _695 = (uint32_t)(4286578688ull);
     uint32x16_t  const _696 = uint32x16_t_ops::broadcast(_695);
     uint32x16_t  const _697 = ~_689;
     uint32x16_t  const _698 = _696 & _697;
     uint32x16_t  const _699 = _694 | _698;
     float16  const _700 = reinterpret<float16>(_699);
     float16_ops::store(_700, _masked, _691);
     uint32_t  const _701 = (uint32_t)(0ull);
     uint32x16_t  const _702 = uint32x16_t_ops::broadcast(_701);
     uint32_t  const _703 = (uint32_t)(4294967295ull);
     uint32x16_t  const _704 = uint32x16_t_ops::broadcast(_703);
     int32x16_t  const _705 = int32x16_t_ops::ramp(_678, _attn_q_step);
     int32_t  const _706 = _90 + _masked_s0_j_rebased;
     int32x16_t  const _707 = int32x16_t_ops::broadcast(_706);
     uint8x16_t  const _708 = int32x16_t_ops::lt(_705, _707);
     uint32x16_t  const _709 = uint32x16_t_ops::select(_708, _702, _704);
     int64_t  const _710 = (int64_t)(_masked_s0_j_rebased);
     int64_t  const _711 = _710 * int64_t(32);
     int64_t  const _712 = _711 + int64_t(16);
     float16  const _713 = float16_ops::load(_scores, _712);
     uint32x16_t  const _714 = reinterpret<uint32x16_t>(_713);
     uint32x16_t  const _715 = _714 & _709;
     uint32_t  const _716 = (uint32_t)(4286578688ull);
     uint32x16_t  const _717 = uint32x16_t_ops::broadcast(_716);
     uint32x16_t  const _718 = ~_709;
     uint32x16_t  const _719 = _717 & _718;
     uint32x16_t  const _720 = _715 | _719;
     float16  const _721 = reinterpret<float16>(_720);
     float16_ops::store(_721, _masked, _712);
    } // for _masked_s0_j_rebased
    _scores_free.free();
    {
     float _row_max[32];
     int32_t  const _722 = ::halide_cpp_max(_74, 0);
     int32_t  const _723 = _77 - _722;
     // produce row_max
     for (int _row_max_s0_ii_ii = 0; _row_max_s0_ii_ii < 0 + 2; _row_max_s0_ii_ii++)
     {
      float16  const _724 = float16_ops::broadcast(neg_inf_f32());
      int64_t  const _725 = (int64_t)(_row_max_s0_ii_ii);
      int64_t  const _726 = _725 * int64_t(16);
      float16_ops::store(_724, _row_max, _726);
     } // for _row_max_s0_ii_ii
     // consume masked
     int32_t  const _727 = ::halide_cpp_max(_74, 0);
     int32_t  const _728 = _727 - _90;
     for (int _row_max_s1_rk__x_rebased = 0; _row_max_s1_rk__x_rebased < 0 + _723; _row_max_s1_rk__x_rebased++)
     {
      float16  const _729 = float16_ops::load(_row_max, int64_t(0));
      int64_t  const _730 = (int64_t)(_row_max_s1_rk__x_rebased);
      int64_t  const _731 = (int64_t)(_728);
      int64_t  const _732 = _730 + _731;
      int64_t  const _733 = _732 * int64_t(32);
      float16  const _734 = float16_ops::load(_masked, _733);
      float16  const _735 = float16_ops::max(_729, _734);
      float16_ops::store(_735, _row_max, int64_t(0));
      float16  const _736 = float16_ops::load(_row_max, int64_t(16));
      int64_t  const _737 = (int64_t)(_row_max_s1_rk__x_rebased);
      int64_t  const _738 = (int64_t)(_728);
      int64_t  const _739 = _737 + _738;
      int64_t  const _740 = _739 * int64_t(32);
      int64_t  const _741 = _740 + int64_t(16);
      float16  const _742 = float16_ops::load(_masked, _741);
      float16  const _743 = float16_ops::max(_736, _742);
      float16_ops::store(_743, _row_max, int64_t(16));
     } // for _row_max_s1_rk__x_rebased
     int32_t  const _744 = ::halide_cpp_max(_74, 0);
     int32_t  const _745 = ::halide_cpp_min(_744, _109);
     int32_t  const _746 = ::halide_cpp_min(_745, _88);
     int32_t  const _747 = ::halide_cpp_min(_attn_kv_hi, _attn_lk);
     int32_t  const _748 = _747 + 7;
     int32_t  const _749 = _748 >> 3;
     int32_t  const _750 = _attn_tile * 4;
     int32_t  const _751 = _750 + 4;
     int32_t  const _752 = ::halide_cpp_min(_749, _751);
     int32_t  const _753 = _752 * 8;
     int32_t  const _754 = ::halide_cpp_min(_753, _attn_lk);
     int32_t  const _755 = _attn_chunk_lo >> 3;
     int32_t  const _756 = _755 * 8;
     int32_t  const _757 = ::halide_cpp_min(_754, _756);
     int32_t  const _758 = _attn_kv_lo >> 3;
     int32_t  const _759 = ::halide_cpp_max(_758, 0);
     int32_t  const _760 = _759 * 8;
     int32_t  const _761 = ::halide_cpp_min(_760, _attn_lk);
     int32_t  const _762 = ::halide_cpp_max(_757, _761);
     int32_t  const _763 = ::halide_cpp_min(_78, 1024);
     int32_t  const _764 = _763 >> 6;
     int32_t  const _765 = _764 * 64;
     int32_t  const _766 = _765 + _762;
     int32_t  const _767 = ::halide_cpp_max(_766, _77);
     int32_t  const _768 = ::halide_cpp_max(_767, _86);
     int32_t  const _769 = ::halide_cpp_min(_82, _762);
     int32_t  const _770 = ::halide_cpp_min(_744, _769);
     int32_t  const _771 = ::halide_cpp_min(_770, _88);
     int32_t  const _772 = _768 - _771;
     {
      int64_t  const _773 = _772;
      int64_t  const _774 = _773 * 32;
      if ((_774 > ((int64_t(1) << 31) - 1)) || ((_774 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
      {
       attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation probs\n");
       return -1;
      } // overflow test probs
      int64_t  const _775 = _774;
      float *_probs = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_775);
      if (!_probs)
      {
       int32_t  const _776 = attn_causal64_rt_error_out_of_memory(_ucon);
       return _776;
      }
      HalideFreeHelper _probs_free(_ucon, _probs, attn_causal64_rt_free);
      // produce probs
      // consume row_max
      // consume masked
      int32_t  const _777 = _88 - _746;
      int32_t  const _778 = _88 - _90;
      int32_t  const _779 = _86 - _88;
      for (int _probs_s0_j_rebased = 0; _probs_s0_j_rebased < 0 + _779; _probs_s0_j_rebased++)
      {
       float16  const _780 = float16_ops::load(_row_max, int64_t(0));
       int64_t  const _781 = (int64_t)(_probs_s0_j_rebased);
       int64_t  const _782 = (int64_t)(_778);
       int64_t  const _783 = _781 + _782;
       int64_t  const _784 = _783 * int64_t(32);
       float16  const _785 = float16_ops::load(_masked, _784);
       float  const _786 = float_from_bits(0 /* 0 */);
       float16  const _787 = float16_ops::broadcast(_786);
       float16  const _788 = float16_ops::broadcast(neg_inf_f32());
       uint8x16_t  const _789 = float16_ops::eq(_780, _788);
       float16  const _790 = float16_ops::select(_789, _787, _780);
       float16  const _791 = _785 - _790;
       float16  const _792 = float16_ops::min(_791, _787);
       float  const _793 = float_from_bits(3271426048 /* -127 */);
       float16  const _794 = float16_ops::broadcast(_793);
       float16  const _795 = float16_ops::max(_792, _794);
       float  const _796 = float_from_bits(1124007936 /* 127.5 */);
       float16  const _797 = float16_ops::broadcast(_796);
       float16  const _798 = _795 + _797;
       int32x16_t  const _799 = int32x16_t_ops::convert_from<float16>(_798);
       int32x16_t  const _800 = int32x16_t_ops::broadcast(-127);
       int32x16_t  const _801 = _799 + _800;
       float16  const _802 = float16_ops::convert_from<int32x16_t>(_801);
       float16  const _803 = _795 - _802;
       uint32_t  const _804 = (uint32_t)(23ull);
       uint32x16_t  const _805 = uint32x16_t_ops::broadcast(_804);
       int32x16_t  const _806 = _799 << _805;
       float16  const _807 = reinterpret<float16>(_806);
       float  const _808 = float_from_bits(958452607 /* 0.000153376 */);
       float16  const _809 = float16_ops::broadcast(_808);
       float16  const _810 = _803 * _809;
       float  const _811 = float_from_bits(984588920 /* 0.00133999 */);
       float16  const _812 = float16_ops::broadcast(_811);
       float16  const _813 = _810 + _812;
       float16  const _814 = _813 * _803;
       float  const _815 = float_from_bits(1008572159 /* 0.00961852 */);
       float16  const _816 = float16_ops::broadcast(_815);
       float16  const _817 = _814 + _816;
       float16  const _818 = _817 * _803;
       float  const _819 = float_from_bits(1029920619 /* 0.0555033 */);
       float16  const _820 = float16_ops::broadcast(_819);
       float16  const _821 = _818 + _820;
       float16  const _822 = _821 * _803;
       float  const _823 = float_from_bits(1047920109 /* 0.240226 */);
       float16  const _824 = float16_ops::broadcast(_823);
       float16  const _825 = _822 + _824;
       float16  const _826 = _825 * _803;
       float  const _827 = float_from_bits(1060205080 /* 0.693147 */);
       float16  const _828 = float16_ops::broadcast(_827);
       float16  const _829 = _826 + _828;
       float16  const _830 = _829 * _803;
       float  const _831 = float_from_bits(1065353216 /* 1 */);
       float16  const _832 = float16_ops::broadcast(_831);
       float16  const _833 = _830 + _832;
       float16  const _834 = _807 * _833;
       int32x16_t  const _835 = reinterpret<int32x16_t>(_834);
       int32x16_t  const _836 = int32x16_t_ops::broadcast(-1);
       int32x16_t  const _837 = int32x16_t_ops::broadcast(0);
       int32x16_t  const _838 = int32x16_t_ops::broadcast(2139095040);
       int32x16_t  const _839 = reinterpret<int32x16_t>(_791);
       int32x16_t  const _840 = int32x16_t_ops::broadcast(2147483647);
       int32x16_t  const _841 = _839 & _840;
       uint8x16_t  const _842 = int32x16_t_ops::lt(_838, _841);
       int32x16_t  const _843 = int32x16_t_ops::select(_842, _836, _837);
       int32x16_t  const _844 = int32x16_t_ops::broadcast(2143289344);
       int32x16_t  const _845 = _843 & _844;
       int32x16_t  const _846 = _835 | _845;
       float16  const _847 = reinterpret<float16>(_846);
       int64_t  const _848 = (int64_t)(_777);
       int64_t  const _849 = _781 + _848;
       int64_t  const _850 = _849 * int64_t(32);
       float16_ops::store(_847, _probs, _850);
       float16  const _851 = float16_ops::load(_row_max, int64_t(16));
       int64_t  const _852 = (int64_t)(_probs_s0_j_rebased);
       int64_t  const _853 = (int64_t)(_778);
       int64_t  const _854 = _852 + _853;
       int64_t  const _855 = _854 * int64_t(32);
       int64_t  const _856 = _855 + int64_t(16);
       float16  const _857 = float16_ops::load(_masked, _856);
       float  const _858 = float_from_bits(0 /* 0 */);
       float16  const _859 = float16_ops::broadcast(_858);
       float16  const _860 = float16_ops::broadcast(neg_inf_f32());
       uint8x16_t  const _861 = float16_ops::eq(_851, _860);
       float16  const _862 = float16_ops::select(_861, _859, _851);
       float16  const _863 = _857 - _862;
       float16  const _864 = float16_ops::min(_863, _859);
       float  const _865 = float_from_bits(3271426048 /* -127 */);
       float16  const _866 = float16_ops::broadcast(_865);
       float16  const _867 = float16_ops::max(_864, _866);
       float  const _868 = float_from_bits(1124007936 /* 127.5 */);
       float16  const _869 = float16_ops::broadcast(_868);
       float16  const _870 = _867 + _869;
       int32x16_t  const _871 = int32x16_t_ops::convert_from<float16>(_870);
       int32x16_t  const _872 = int32x16_t_ops::broadcast(-127);
       int32x16_t  const _873 = _871 + _872;
       float16  const _874 = float16_ops::convert_from<int32x16_t>(_873);
       float16  const _875 = _867 - _874;
       uint32_t  const _876 = (uint32_t)(23ull);
       uint32x16_t  const _877 = uint32x16_t_ops::broadcast(_876);
       int32x16_t  const _878 = _871 << _877;
       float16  const _879 = reinterpret<float16>(_878);
       float  const _880 = float_from_bits(958452607 /* 0.000153376 */);
       float16  const _881 = float16_ops::broadcast(_880);
       float16  const _882 = _875 * _881;
       float  const _883 = float_from_bits(984588920 /* 0.00133999 */);
       float16  const _884 = float16_ops::broadcast(_883);
       float16  const _885 = _882 + _884;
       float16  const _886 = _885 * _875;
       float  const _887 = float_from_bits(1008572159 /* 0.00961852 */);
       float16  const _888 = float16_ops::broadcast(_887);
       float16  const _889 = _886 + _888;
       float16  const _890 = _889 * _875;
       float  const _891 = float_from_bits(1029920619 /* 0.0555033 */);
       float16  const _892 = float16_ops::broadcast(_891);
       float16  const _893 = _890 + _892;
       float16  const _894 = _893 * _875;
       float  const _895 = float_from_bits(1047920109 /* 0.240226 */);
       float16  const _896 = float16_ops::broadcast(_895);
       float16  const _897 = _894 + _896;
       float16  const _898 = _897 * _875;
       float  const _899 = float_from_bits(1060205080 /* 0.693147 */);
       float16  const _900 = float16_ops::broadcast(_899);
       float16  const _901 = _898 + _900;
       float16  const _902 = _901 * _875;
       float  const _903 = float_from_bits(1065353216 /* 1 */);
       float16  const _904 = float16_ops::broadcast(_903);
       float16  const _905 = _902 + _904;
       float16  const _906 = _879 * _905;
       int32x16_t  const _907 = reinterpret<int32x16_t>(_906);
       int32x16_t  const _908 = int32x16_t_ops::broadcast(-1);
       int32x16_t  const _909 = int32x16_t_ops::broadcast(0);
       int32x16_t  const _910 = int32x16_t_ops::broadcast(2139095040);
       int32x16_t  const _911 = reinterpret<int32x16_t>(_863);
       int32x16_t  const _912 = int32x16_t_ops::broadcast(2147483647);
       int32x16_t  const _913 = _911 & _912;
       uint8x16_t  const _914 = int32x16_t_ops::lt(_910, _913);
       int32x16_t  const _915 = int32x16_t_ops::select(_914, _908, _909);
       int32x16_t  const _916 = int32x16_t_ops::broadcast(2143289344);
       int32x16_t  const _917 = _915 & _916;
       int32x16_t  const _918 = _907 | _917;
       float16  const _919 = reinterpret<float16>(_918);
       int64_t  const _920 = (int64_t)(_777);
       int64_t  const _921 = _852 + _920;
       int64_t  const _922 = _921 * int64_t(32);
       int64_t  const _923 = _922 + int64_t(16);
       float16_ops::store(_919, _probs, _923);
      } // for _probs_s0_j_rebased
      _masked_free.free();
      {
       float _pv_blocks[2048];
       // produce pv_blocks
       for (int _pv_blocks_s0_ii = 0; _pv_blocks_s0_ii < 0 + 32; _pv_blocks_s0_ii++)
       {
        int32_t  const _924 = _pv_blocks_s0_ii * 4;
        for (int _pv_blocks_s0_c_c = 0; _pv_blocks_s0_c_c < 0 + 4; _pv_blocks_s0_c_c++)
        {
         float  const _925 = float_from_bits(0 /* 0 */);
         float16  const _926 = float16_ops::broadcast(_925);
         int64_t  const _927 = (int64_t)(_pv_blocks_s0_c_c);
         int64_t  const _928 = (int64_t)(_924);
         int64_t  const _929 = _927 + _928;
         int64_t  const _930 = _929 * int64_t(16);
         float16_ops::store(_926, _pv_blocks, _930);
        } // for _pv_blocks_s0_c_c
       } // for _pv_blocks_s0_ii
       // consume probs
       int32_t  const _931 = ::halide_cpp_min(_attn_kv_hi, _attn_lk);
       int32_t  const _932 = _931 + 7;
       int32_t  const _933 = _932 >> 3;
       int32_t  const _934 = _attn_tile * 4;
       int32_t  const _935 = _934 + 4;
       int32_t  const _936 = ::halide_cpp_min(_933, _935);
       int32_t  const _937 = _936 * 8;
       int32_t  const _938 = ::halide_cpp_min(_937, _attn_lk);
       int32_t  const _939 = _attn_chunk_lo >> 3;
       int32_t  const _940 = _939 * 8;
       int32_t  const _941 = ::halide_cpp_min(_938, _940);
       int32_t  const _942 = _attn_kv_lo >> 3;
       int32_t  const _943 = ::halide_cpp_max(_942, 0);
       int32_t  const _944 = _943 * 8;
       int32_t  const _945 = ::halide_cpp_min(_944, _attn_lk);
       int32_t  const _946 = ::halide_cpp_max(_941, _945);
       int32_t  const _947 = ::halide_cpp_min(_78, 1024);
       int32_t  const _948 = _947 >> 6;
       for (int _pv_blocks_s1_rkb__x = 0; _pv_blocks_s1_rkb__x < 0 + _948; _pv_blocks_s1_rkb__x++)
       {
        int32_t  const _949 = _pv_blocks_s1_rkb__x * 64;
        int32_t  const _950 = _949 + _946;
        for (int _pv_blocks_s1_ii_ig = 0; _pv_blocks_s1_ii_ig < 0 + 8; _pv_blocks_s1_ii_ig++)
        {
         {
          float _pv_block[256];
          // produce pv_block
          float  const _951 = float_from_bits(0 /* 0 */);
          float16  const _952 = float16_ops::broadcast(_951);
          float16_ops::store(_952, _pv_block, int64_t(0));
          float  const _953 = float_from_bits(0 /* 0 */);
          float16  const _954 = float16_ops::broadcast(_953);
          float16_ops::store(_954, _pv_block, int64_t(16));
          float  const _955 = float_from_bits(0 /* 0 */);
          float16  const _956 = float16_ops::broadcast(_955);
          float16_ops::store(_956, _pv_block, int64_t(32));
          float  const _957 = float_from_bits(0 /* 0 */);
          float16  const _958 = float16_ops::broadcast(_957);
          float16_ops::store(_958, _pv_block, int64_t(48));
          float  const _959 = float_from_bits(0 /* 0 */);
          float16  const _960 = float16_ops::broadcast(_959);
          float16_ops::store(_960, _pv_block, int64_t(64));
          float  const _961 = float_from_bits(0 /* 0 */);
          float16  const _962 = float16_ops::broadcast(_961);
          float16_ops::store(_962, _pv_block, int64_t(80));
          float  const _963 = float_from_bits(0 /* 0 */);
          float16  const _964 = float16_ops::broadcast(_963);
          float16_ops::store(_964, _pv_block, int64_t(96));
          float  const _965 = float_from_bits(0 /* 0 */);
          float16  const _966 = float16_ops::broadcast(_965);
          float16_ops::store(_966, _pv_block, int64_t(112));
          float  const _967 = float_from_bits(0 /* 0 */);
          float16  const _968 = float16_ops::broadcast(_967);
          float16_ops::store(_968, _pv_block, int64_t(128));
          float  const _969 = float_from_bits(0 /* 0 */);
          float16  const _970 = float16_ops::broadcast(_969);
          float16_ops::store(_970, _pv_block, int64_t(144));
          float  const _971 = float_from_bits(0 /* 0 */);
          float16  const _972 = float16_ops::broadcast(_971);
          float16_ops::store(_972, _pv_block, int64_t(160));
          float  const _973 = float_from_bits(0 /* 0 */);
          float16  const _974 = float16_ops::broadcast(_973);
          float16_ops::store(_974, _pv_block, int64_t(176));
          float  const _975 = float_from_bits(0 /* 0 */);
          float16  const _976 = float16_ops::broadcast(_975);
          float16_ops::store(_976, _pv_block, int64_t(192));
          float  const _977 = float_from_bits(0 /* 0 */);
          float16  const _978 = float16_ops::broadcast(_977);
          float16_ops::store(_978, _pv_block, int64_t(208));
          float  const _979 = float_from_bits(0 /* 0 */);
          float16  const _980 = float16_ops::broadcast(_979);
          float16_ops::store(_980, _pv_block, int64_t(224));
          float  const _981 = float_from_bits(0 /* 0 */);
          float16  const _982 = float16_ops::broadcast(_981);
          float16_ops::store(_982, _pv_block, int64_t(240));
          int32_t  const _983 = _950 - _746;
          for (int _pv_block_s1_rki__x = 0; _pv_block_s1_rki__x < 0 + 64; _pv_block_s1_rki__x++)
          {
           float16  const _984 = float16_ops::load(_pv_block, int64_t(0));
           int64_t  const _985 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _986 = (int64_t)(_950);
           int64_t  const _987 = _985 + _986;
           int64_t  const _988 = _987 * int64_t(64);
           float16  const _989 = float16_ops::load(_attn_v, _988);
           int64_t  const _990 = (int64_t)(_983);
           int64_t  const _991 = _985 + _990;
           int64_t  const _992 = _991 * int64_t(8);
           int64_t  const _993 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _994 = _992 + _993;
           int64_t  const _995 = _994 * int64_t(4);
           float  const _996 = _probs[_995];
           float16  const _997 = float16_ops::broadcast(_996);
           float16  const _998 = _989 * _997;
           float16  const _999 = _984 + _998;
           float16_ops::store(_999, _pv_block, int64_t(0));
           float16  const _1000 = float16_ops::load(_pv_block, int64_t(16));
           int64_t  const _1001 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1002 = (int64_t)(_950);
           int64_t  const _1003 = _1001 + _1002;
           int64_t  const _1004 = _1003 * int64_t(64);
           int64_t  const _1005 = _1004 + int64_t(16);
           float16  const _1006 = float16_ops::load(_attn_v, _1005);
           int64_t  const _1007 = (int64_t)(_983);
           int64_t  const _1008 = _1001 + _1007;
           int64_t  const _1009 = _1008 * int64_t(8);
           int64_t  const _1010 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1011 = _1009 + _1010;
           int64_t  const _1012 = _1011 * int64_t(4);
           float  const _1013 = _probs[_1012];
           float16  const _1014 = float16_ops::broadcast(_1013);
           float16  const _1015 = _1006 * _1014;
           float16  const _1016 = _1000 + _1015;
           float16_ops::store(_1016, _pv_block, int64_t(16));
           float16  const _1017 = float16_ops::load(_pv_block, int64_t(32));
           int64_t  const _1018 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1019 = (int64_t)(_950);
           int64_t  const _1020 = _1018 + _1019;
           int64_t  const _1021 = _1020 * int64_t(64);
           int64_t  const _1022 = _1021 + int64_t(32);
           float16  const _1023 = float16_ops::load(_attn_v, _1022);
           int64_t  const _1024 = (int64_t)(_983);
           int64_t  const _1025 = _1018 + _1024;
           int64_t  const _1026 = _1025 * int64_t(8);
           int64_t  const _1027 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1028 = _1026 + _1027;
           int64_t  const _1029 = _1028 * int64_t(4);
           float  const _1030 = _probs[_1029];
           float16  const _1031 = float16_ops::broadcast(_1030);
           float16  const _1032 = _1023 * _1031;
           float16  const _1033 = _1017 + _1032;
           float16_ops::store(_1033, _pv_block, int64_t(32));
           float16  const _1034 = float16_ops::load(_pv_block, int64_t(48));
           int64_t  const _1035 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1036 = (int64_t)(_950);
           int64_t  const _1037 = _1035 + _1036;
           int64_t  const _1038 = _1037 * int64_t(64);
           int64_t  const _1039 = _1038 + int64_t(48);
           float16  const _1040 = float16_ops::load(_attn_v, _1039);
           int64_t  const _1041 = (int64_t)(_983);
           int64_t  const _1042 = _1035 + _1041;
           int64_t  const _1043 = _1042 * int64_t(8);
           int64_t  const _1044 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1045 = _1043 + _1044;
           int64_t  const _1046 = _1045 * int64_t(4);
           float  const _1047 = _probs[_1046];
           float16  const _1048 = float16_ops::broadcast(_1047);
           float16  const _1049 = _1040 * _1048;
           float16  const _1050 = _1034 + _1049;
           float16_ops::store(_1050, _pv_block, int64_t(48));
           float16  const _1051 = float16_ops::load(_pv_block, int64_t(64));
           int64_t  const _1052 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1053 = (int64_t)(_950);
           int64_t  const _1054 = _1052 + _1053;
           int64_t  const _1055 = _1054 * int64_t(64);
           float16  const _1056 = float16_ops::load(_attn_v, _1055);
           int64_t  const _1057 = (int64_t)(_983);
           int64_t  const _1058 = _1052 + _1057;
           int64_t  const _1059 = _1058 * int64_t(8);
           int64_t  const _1060 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1061 = _1059 + _1060;
           int64_t  const _1062 = _1061 * int64_t(4);
           int64_t  const _1063 = _1062 + int64_t(1);
           float  const _1064 = _probs[_1063];
           float16  const _1065 = float16_ops::broadcast(_1064);
           float16  const _1066 = _1056 * _1065;
           float16  const _1067 = _1051 + _1066;
           float16_ops::store(_1067, _pv_block, int64_t(64));
           float16  const _1068 = float16_ops::load(_pv_block, int64_t(80));
           int64_t  const _1069 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1070 = (int64_t)(_950);
           int64_t  const _1071 = _1069 + _1070;
           int64_t  const _1072 = _1071 * int64_t(64);
           int64_t  const _1073 = _1072 + int64_t(16);
           float16  const _1074 = float16_ops::load(_attn_v, _1073);
           int64_t  const _1075 = (int64_t)(_983);
           int64_t  const _1076 = _1069 + _1075;
           int64_t  const _1077 = _1076 * int64_t(8);
           int64_t  const _1078 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1079 = _1077 + _1078;
           int64_t  const _1080 = _1079 * int64_t(4);
           int64_t  const _1081 = _1080 + int64_t(1);
           float  const _1082 = _probs[_1081];
           float16  const _1083 = float16_ops::broadcast(_1082);
           float16  const _1084 = _1074 * _1083;
           float16  const _1085 = _1068 + _1084;
           float16_ops::store(_1085, _pv_block, int64_t(80));
           float16  const _1086 = float16_ops::load(_pv_block, int64_t(96));
           int64_t  const _1087 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1088 = (int64_t)(_950);
           int64_t  const _1089 = _1087 + _1088;
           int64_t  const _1090 = _1089 * int64_t(64);
           int64_t  const _1091 = _1090 + int64_t(32);
           float16  const _1092 = float16_ops::load(_attn_v, _1091);
           int64_t  const _1093 = (int64_t)(_983);
           int64_t  const _1094 = _1087 + _1093;
           int64_t  const _1095 = _1094 * int64_t(8);
           int64_t  const _1096 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1097 = _1095 + _1096;
           int64_t  const _1098 = _1097 * int64_t(4);
           int64_t  const _1099 = _1098 + int64_t(1);
           float  const _1100 = _probs[_1099];
           float16  const _1101 = float16_ops::broadcast(_1100);
           float16  const _1102 = _1092 * _1101;
           float16  const _1103 = _1086 + _1102;
           float16_ops::store(_1103, _pv_block, int64_t(96));
           float16  const _1104 = float16_ops::load(_pv_block, int64_t(112));
           int64_t  const _1105 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1106 = (int64_t)(_950);
           int64_t  const _1107 = _1105 + _1106;
           int64_t  const _1108 = _1107 * int64_t(64);
           int64_t  const _1109 = _1108 + int64_t(48);
           float16  const _1110 = float16_ops::load(_attn_v, _1109);
           int64_t  const _1111 = (int64_t)(_983);
           int64_t  const _1112 = _1105 + _1111;
           int64_t  const _1113 = _1112 * int64_t(8);
           int64_t  const _1114 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1115 = _1113 + _1114;
           int64_t  const _1116 = _1115 * int64_t(4);
           int64_t  const _1117 = _1116 + int64_t(1);
           float  const _1118 = _probs[_1117];
           float16  const _1119 = float16_ops::broadcast(_1118);
           float16  const _1120 = _1110 * _1119;
           float16  const _1121 = _1104 + _1120;
           float16_ops::store(_1121, _pv_block, int64_t(112));
           float16  const _1122 = float16_ops::load(_pv_block, int64_t(128));
           int64_t  const _1123 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1124 = (int64_t)(_950);
           int64_t  const _1125 = _1123 + _1124;
           int64_t  const _1126 = _1125 * int64_t(64);
           float16  const _1127 = float16_ops::load(_attn_v, _1126);
           int64_t  const _1128 = (int64_t)(_983);
           int64_t  const _1129 = _1123 + _1128;
           int64_t  const _1130 = _1129 * int64_t(8);
           int64_t  const _1131 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1132 = _1130 + _1131;
           int64_t  const _1133 = _1132 * int64_t(4);
           int64_t  const _1134 = _1133 + int64_t(2);
           float  const _1135 = _probs[_1134];
           float16  const _1136 = float16_ops::broadcast(_1135);
           float16  const _1137 = _1127 * _1136;
           float16  const _1138 = _1122 + _1137;
           float16_ops::store(_1138, _pv_block, int64_t(128));
           float16  const _1139 = float16_ops::load(_pv_block, int64_t(144));
           int64_t  const _1140 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1141 = (int64_t)(_950);
           int64_t  const _1142 = _1140 + _1141;
           int64_t  const _1143 = _1142 * int64_t(64);
           int64_t  const _1144 = _1143 + int64_t(16);
           float16  const _1145 = float16_ops::load(_attn_v, _1144);
           int64_t  const _1146 = (int64_t)(_983);
           int64_t  const _1147 = _1140 + _1146;
           int64_t  const _1148 = _1147 * int64_t(8);
           int64_t  const _1149 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1150 = _1148 + _1149;
           int64_t  const _1151 = _1150 * int64_t(4);
           int64_t  const _1152 = _1151 + int64_t(2);
           float  const _1153 = _probs[_1152];
           float16  const _1154 = float16_ops::broadcast(_1153);
           float16  const _1155 = _1145 * _1154;
           float16  const _1156 = _1139 + _1155;
           float16_ops::store(_1156, _pv_block, int64_t(144));
           float16  const _1157 = float16_ops::load(_pv_block, int64_t(160));
           int64_t  const _1158 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1159 = (int64_t)(_950);
           int64_t  const _1160 = _1158 + _1159;
           int64_t  const _1161 = _1160 * int64_t(64);
           int64_t  const _1162 = _1161 + int64_t(32);
           float16  const _1163 = float16_ops::load(_attn_v, _1162);
           int64_t  const _1164 = (int64_t)(_983);
           int64_t  const _1165 = _1158 + _1164;
           int64_t  const _1166 = _1165 * int64_t(8);
           int64_t  const _1167 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1168 = _1166 + _1167;
           int64_t  const _1169 = _1168 * int64_t(4);
           int64_t  const _1170 = _1169 + int64_t(2);
           float  const _1171 = _probs[_1170];
           float16  const _1172 = float16_ops::broadcast(_1171);
           float16  const _1173 = _1163 * _1172;
           float16  const _1174 = _1157 + _1173;
           float16_ops::store(_1174, _pv_block, int64_t(160));
           float16  const _1175 = float16_ops::load(_pv_block, int64_t(176));
           int64_t  const _1176 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1177 = (int64_t)(_950);
           int64_t  const _1178 = _1176 + _1177;
           int64_t  const _1179 = _1178 * int64_t(64);
           int64_t  const _1180 = _1179 + int64_t(48);
           float16  const _1181 = float16_ops::load(_attn_v, _1180);
           int64_t  const _1182 = (int64_t)(_983);
           int64_t  const _1183 = _1176 + _1182;
           int64_t  const _1184 = _1183 * int64_t(8);
           int64_t  const _1185 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1186 = _1184 + _1185;
           int64_t  const _1187 = _1186 * int64_t(4);
           int64_t  const _1188 = _1187 + int64_t(2);
           float  const _1189 = _probs[_1188];
           float16  const _1190 = float16_ops::broadcast(_1189);
           float16  const _1191 = _1181 * _1190;
           float16  const _1192 = _1175 + _1191;
           float16_ops::store(_1192, _pv_block, int64_t(176));
           float16  const _1193 = float16_ops::load(_pv_block, int64_t(192));
           int64_t  const _1194 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1195 = (int64_t)(_950);
           int64_t  const _1196 = _1194 + _1195;
           int64_t  const _1197 = _1196 * int64_t(64);
           float16  const _1198 = float16_ops::load(_attn_v, _1197);
           int64_t  const _1199 = (int64_t)(_983);
           int64_t  const _1200 = _1194 + _1199;
           int64_t  const _1201 = _1200 * int64_t(8);
           int64_t  const _1202 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1203 = _1201 + _1202;
           int64_t  const _1204 = _1203 * int64_t(4);
           int64_t  const _1205 = _1204 + int64_t(3);
           float  const _1206 = _probs[_1205];
           float16  const _1207 = float16_ops::broadcast(_1206);
           float16  const _1208 = _1198 * _1207;
           float16  const _1209 = _1193 + _1208;
           float16_ops::store(_1209, _pv_block, int64_t(192));
           float16  const _1210 = float16_ops::load(_pv_block, int64_t(208));
           int64_t  const _1211 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1212 = (int64_t)(_950);
           int64_t  const _1213 = _1211 + _1212;
           int64_t  const _1214 = _1213 * int64_t(64);
           int64_t  const _1215 = _1214 + int64_t(16);
           float16  const _1216 = float16_ops::load(_attn_v, _1215);
           int64_t  const _1217 = (int64_t)(_983);
           int64_t  const _1218 = _1211 + _1217;
           int64_t  const _1219 = _1218 * int64_t(8);
           int64_t  const _1220 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1221 = _1219 + _1220;
           int64_t  const _1222 = _1221 * int64_t(4);
           int64_t  const _1223 = _1222 + int64_t(3);
           float  const _1224 = _probs[_1223];
           float16  const _1225 = float16_ops::broadcast(_1224);
           float16  const _1226 = _1216 * _1225;
           float16  const _1227 = _1210 + _1226;
           float16_ops::store(_1227, _pv_block, int64_t(208));
           float16  const _1228 = float16_ops::load(_pv_block, int64_t(224));
           int64_t  const _1229 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1230 = (int64_t)(_950);
           int64_t  const _1231 = _1229 + _1230;
           int64_t  const _1232 = _1231 * int64_t(64);
           int64_t  const _1233 = _1232 + int64_t(32);
           float16  const _1234 = float16_ops::load(_attn_v, _1233);
           int64_t  const _1235 = (int64_t)(_983);
           int64_t  const _1236 = _1229 + _1235;
           int64_t  const _1237 = _1236 * int64_t(8);
           int64_t  const _1238 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1239 = _1237 + _1238;
           int64_t  const _1240 = _1239 * int64_t(4);
           int64_t  const _1241 = _1240 + int64_t(3);
           float  const _1242 = _probs[_1241];
           float16  const _1243 = float16_ops::broadcast(_1242);
           float16  const _1244 = _1234 * _1243;
           float16  const _1245 = _1228 + _1244;
           float16_ops::store(_1245, _pv_block, int64_t(224));
           float16  const _1246 = float16_ops::load(_pv_block, int64_t(240));
           int64_t  const _1247 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1248 = (int64_t)(_950);
           int64_t  const _1249 = _1247 + _1248;
           int64_t  const _1250 = _1249 * int64_t(64);
           int64_t  const _1251 = _1250 + int64_t(48);
           float16  const _1252 = float16_ops::load(_attn_v, _1251);
           int64_t  const _1253 = (int64_t)(_983);
           int64_t  const _1254 = _1247 + _1253;
           int64_t  const _1255 = _1254 * int64_t(8);
           int64_t  const _1256 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1257 = _1255 + _1256;
           int64_t  const _1258 = _1257 * int64_t(4);
           int64_t  const _1259 = _1258 + int64_t(3);
           float  const _1260 = _probs[_1259];
           float16  const _1261 = float16_ops::broadcast(_1260);
           float16  const _1262 = _1252 * _1261;
           float16  const _1263 = _1246 + _1262;
           float16_ops::store(_1263, _pv_block, int64_t(240));
          } // for _pv_block_s1_rki__x
          // consume pv_block
          int64_t  const _1264 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1265 = _1264 * int64_t(256);
          float16  const _1266 = float16_ops::load(_pv_blocks, _1265);
          float16  const _1267 = float16_ops::load(_pv_block, int64_t(0));
          float16  const _1268 = _1266 + _1267;
          float16_ops::store(_1268, _pv_blocks, _1265);
          int64_t  const _1269 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1270 = _1269 * int64_t(256);
          int64_t  const _1271 = _1270 + int64_t(16);
          float16  const _1272 = float16_ops::load(_pv_blocks, _1271);
          float16  const _1273 = float16_ops::load(_pv_block, int64_t(16));
          float16  const _1274 = _1272 + _1273;
          float16_ops::store(_1274, _pv_blocks, _1271);
          int64_t  const _1275 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1276 = _1275 * int64_t(256);
          int64_t  const _1277 = _1276 + int64_t(32);
          float16  const _1278 = float16_ops::load(_pv_blocks, _1277);
          float16  const _1279 = float16_ops::load(_pv_block, int64_t(32));
          float16  const _1280 = _1278 + _1279;
          float16_ops::store(_1280, _pv_blocks, _1277);
          int64_t  const _1281 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1282 = _1281 * int64_t(256);
          int64_t  const _1283 = _1282 + int64_t(48);
          float16  const _1284 = float16_ops::load(_pv_blocks, _1283);
          float16  const _1285 = float16_ops::load(_pv_block, int64_t(48));
          float16  const _1286 = _1284 + _1285;
          float16_ops::store(_1286, _pv_blocks, _1283);
          int64_t  const _1287 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1288 = _1287 * int64_t(256);
          int64_t  const _1289 = _1288 + int64_t(64);
          float16  const _1290 = float16_ops::load(_pv_blocks, _1289);
          float16  const _1291 = float16_ops::load(_pv_block, int64_t(64));
          float16  const _1292 = _1290 + _1291;
          float16_ops::store(_1292, _pv_blocks, _1289);
          int64_t  const _1293 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1294 = _1293 * int64_t(256);
          int64_t  const _1295 = _1294 + int64_t(80);
          float16  const _1296 = float16_ops::load(_pv_blocks, _1295);
          float16  const _1297 = float16_ops::load(_pv_block, int64_t(80));
          float16  const _1298 = _1296 + _1297;
          float16_ops::store(_1298, _pv_blocks, _1295);
          int64_t  const _1299 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1300 = _1299 * int64_t(256);
          int64_t  const _1301 = _1300 + int64_t(96);
          float16  const _1302 = float16_ops::load(_pv_blocks, _1301);
          float16  const _1303 = float16_ops::load(_pv_block, int64_t(96));
          float16  const _1304 = _1302 + _1303;
          float16_ops::store(_1304, _pv_blocks, _1301);
          int64_t  const _1305 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1306 = _1305 * int64_t(256);
          int64_t  const _1307 = _1306 + int64_t(112);
          float16  const _1308 = float16_ops::load(_pv_blocks, _1307);
          float16  const _1309 = float16_ops::load(_pv_block, int64_t(112));
          float16  const _1310 = _1308 + _1309;
          float16_ops::store(_1310, _pv_blocks, _1307);
          int64_t  const _1311 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1312 = _1311 * int64_t(256);
          int64_t  const _1313 = _1312 + int64_t(128);
          float16  const _1314 = float16_ops::load(_pv_blocks, _1313);
          float16  const _1315 = float16_ops::load(_pv_block, int64_t(128));
          float16  const _1316 = _1314 + _1315;
          float16_ops::store(_1316, _pv_blocks, _1313);
          int64_t  const _1317 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1318 = _1317 * int64_t(256);
          int64_t  const _1319 = _1318 + int64_t(144);
          float16  const _1320 = float16_ops::load(_pv_blocks, _1319);
          float16  const _1321 = float16_ops::load(_pv_block, int64_t(144));
          float16  const _1322 = _1320 + _1321;
          float16_ops::store(_1322, _pv_blocks, _1319);
          int64_t  const _1323 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1324 = _1323 * int64_t(256);
          int64_t  const _1325 = _1324 + int64_t(160);
          float16  const _1326 = float16_ops::load(_pv_blocks, _1325);
          float16  const _1327 = float16_ops::load(_pv_block, int64_t(160));
          float16  const _1328 = _1326 + _1327;
          float16_ops::store(_1328, _pv_blocks, _1325);
          int64_t  const _1329 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1330 = _1329 * int64_t(256);
          int64_t  const _1331 = _1330 + int64_t(176);
          float16  const _1332 = float16_ops::load(_pv_blocks, _1331);
          float16  const _1333 = float16_ops::load(_pv_block, int64_t(176));
          float16  const _1334 = _1332 + _1333;
          float16_ops::store(_1334, _pv_blocks, _1331);
          int64_t  const _1335 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1336 = _1335 * int64_t(256);
          int64_t  const _1337 = _1336 + int64_t(192);
          float16  const _1338 = float16_ops::load(_pv_blocks, _1337);
          float16  const _1339 = float16_ops::load(_pv_block, int64_t(192));
          float16  const _1340 = _1338 + _1339;
          float16_ops::store(_1340, _pv_blocks, _1337);
          int64_t  const _1341 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1342 = _1341 * int64_t(256);
          int64_t  const _1343 = _1342 + int64_t(208);
          float16  const _1344 = float16_ops::load(_pv_blocks, _1343);
          float16  const _1345 = float16_ops::load(_pv_block, int64_t(208));
          float16  const _1346 = _1344 + _1345;
          float16_ops::store(_1346, _pv_blocks, _1343);
          int64_t  const _1347 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1348 = _1347 * int64_t(256);
          int64_t  const _1349 = _1348 + int64_t(224);
          float16  const _1350 = float16_ops::load(_pv_blocks, _1349);
          float16  const _1351 = float16_ops::load(_pv_block, int64_t(224));
          float16  const _1352 = _1350 + _1351;
          float16_ops::store(_1352, _pv_blocks, _1349);
          int64_t  const _1353 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1354 = _1353 * int64_t(256);
          int64_t  const _1355 = _1354 + int64_t(240);
          float16  const _1356 = float16_ops::load(_pv_blocks, _1355);
          float16  const _1357 = float16_ops::load(_pv_block, int64_t(240));
          float16  const _1358 = _1356 + _1357;
          float16_ops::store(_1358, _pv_blocks, _1355);
         } // alloc _pv_block
        } // for _pv_blocks_s1_ii_ig
       } // for _pv_blocks_s1_rkb__x
       {
        float _pv[2048];
        // produce pv
        // consume pv_blocks
        for (int _pv_s0_ii = 0; _pv_s0_ii < 0 + 32; _pv_s0_ii++)
        {
         int32_t  const _1359 = _pv_s0_ii * 4;
         for (int _pv_s0_c_c = 0; _pv_s0_c_c < 0 + 4; _pv_s0_c_c++)
         {
          int32_t  const _1360 = _pv_s0_c_c + _1359;
          int64_t  const _1361 = (int64_t)(_1360);
          int64_t  const _1362 = _1361 * int64_t(16);
          float16  const _1363 = float16_ops::load(_pv_blocks, _1362);
          float16_ops::store(_1363, _pv, _1362);
         } // for _pv_s0_c_c
        } // for _pv_s0_ii
        // consume probs
        int32_t  const _1364 = _77 - _82;
        int32_t  const _1365 = _82 - _746;
        for (int _pv_s1_ii_ig = 0; _pv_s1_ii_ig < 0 + 8; _pv_s1_ii_ig++)
        {
         for (int _pv_s1_rkt__x_rebased = 0; _pv_s1_rkt__x_rebased < 0 + _1364; _pv_s1_rkt__x_rebased++)
         {
          int64_t  const _1366 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1367 = _1366 * int64_t(256);
          float16  const _1368 = float16_ops::load(_pv, _1367);
          int64_t  const _1369 = (int64_t)(_82);
          int64_t  const _1370 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1371 = _1369 + _1370;
          int64_t  const _1372 = _1371 * int64_t(64);
          float16  const _1373 = float16_ops::load(_attn_v, _1372);
          int64_t  const _1374 = (int64_t)(_1365);
          int64_t  const _1375 = _1370 + _1374;
          int64_t  const _1376 = _1375 * int64_t(8);
          int64_t  const _1377 = _1376 + _1366;
          int64_t  const _1378 = _1377 * int64_t(4);
          float  const _1379 = _probs[_1378];
          float16  const _1380 = float16_ops::broadcast(_1379);
          float16  const _1381 = _1373 * _1380;
          float16  const _1382 = _1368 + _1381;
          float16_ops::store(_1382, _pv, _1367);
          int64_t  const _1383 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1384 = _1383 * int64_t(256);
          int64_t  const _1385 = _1384 + int64_t(16);
          float16  const _1386 = float16_ops::load(_pv, _1385);
          int64_t  const _1387 = (int64_t)(_82);
          int64_t  const _1388 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1389 = _1387 + _1388;
          int64_t  const _1390 = _1389 * int64_t(64);
          int64_t  const _1391 = _1390 + int64_t(16);
          float16  const _1392 = float16_ops::load(_attn_v, _1391);
          int64_t  const _1393 = (int64_t)(_1365);
          int64_t  const _1394 = _1388 + _1393;
          int64_t  const _1395 = _1394 * int64_t(8);
          int64_t  const _1396 = _1395 + _1383;
          int64_t  const _1397 = _1396 * int64_t(4);
          float  const _1398 = _probs[_1397];
          float16  const _1399 = float16_ops::broadcast(_1398);
          float16  const _1400 = _1392 * _1399;
          float16  const _1401 = _1386 + _1400;
          float16_ops::store(_1401, _pv, _1385);
          int64_t  const _1402 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1403 = _1402 * int64_t(256);
          int64_t  const _1404 = _1403 + int64_t(32);
          float16  const _1405 = float16_ops::load(_pv, _1404);
          int64_t  const _1406 = (int64_t)(_82);
          int64_t  const _1407 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1408 = _1406 + _1407;
          int64_t  const _1409 = _1408 * int64_t(64);
          int64_t  const _1410 = _1409 + int64_t(32);
          float16  const _1411 = float16_ops::load(_attn_v, _1410);
          int64_t  const _1412 = (int64_t)(_1365);
          int64_t  const _1413 = _1407 + _1412;
          int64_t  const _1414 = _1413 * int64_t(8);
          int64_t  const _1415 = _1414 + _1402;
          int64_t  const _1416 = _1415 * int64_t(4);
          float  const _1417 = _probs[_1416];
          float16  const _1418 = float16_ops::broadcast(_1417);
          float16  const _1419 = _1411 * _1418;
          float16  const _1420 = _1405 + _1419;
          float16_ops::store(_1420, _pv, _1404);
          int64_t  const _1421 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1422 = _1421 * int64_t(256);
          int64_t  const _1423 = _1422 + int64_t(48);
          float16  const _1424 = float16_ops::load(_pv, _1423);
          int64_t  const _1425 = (int64_t)(_82);
          int64_t  const _1426 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1427 = _1425 + _1426;
          int64_t  const _1428 = _1427 * int64_t(64);
          int64_t  const _1429 = _1428 + int64_t(48);
          float16  const _1430 = float16_ops::load(_attn_v, _1429);
          int64_t  const _1431 = (int64_t)(_1365);
          int64_t  const _1432 = _1426 + _1431;
          int64_t  const _1433 = _1432 * int64_t(8);
          int64_t  const _1434 = _1433 + _1421;
          int64_t  const _1435 = _1434 * int64_t(4);
          float  const _1436 = _probs[_1435];
          float16  const _1437 = float16_ops::broadcast(_1436);
          float16  const _1438 = _1430 * _1437;
          float16  const _1439 = _1424 + _1438;
          float16_ops::store(_1439, _pv, _1423);
          int64_t  const _1440 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1441 = _1440 * int64_t(256);
          int64_t  const _1442 = _1441 + int64_t(64);
          float16  const _1443 = float16_ops::load(_pv, _1442);
          int64_t  const _1444 = (int64_t)(_82);
          int64_t  const _1445 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1446 = _1444 + _1445;
          int64_t  const _1447 = _1446 * int64_t(64);
          float16  const _1448 = float16_ops::load(_attn_v, _1447);
          int64_t  const _1449 = (int64_t)(_1365);
          int64_t  const _1450 = _1445 + _1449;
          int64_t  const _1451 = _1450 * int64_t(8);
          int64_t  const _1452 = _1451 + _1440;
          int64_t  const _1453 = _1452 * int64_t(4);
          int64_t  const _1454 = _1453 + int64_t(1);
          float  const _1455 = _probs[_1454];
          float16  const _1456 = float16_ops::broadcast(_1455);
          float16  const _1457 = _1448 * _1456;
          float16  const _1458 = _1443 + _1457;
          float16_ops::store(_1458, _pv, _1442);
          int64_t  const _1459 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1460 = _1459 * int64_t(256);
          int64_t  const _1461 = _1460 + int64_t(80);
          float16  const _1462 = float16_ops::load(_pv, _1461);
          int64_t  const _1463 = (int64_t)(_82);
          int64_t  const _1464 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1465 = _1463 + _1464;
          int64_t  const _1466 = _1465 * int64_t(64);
          int64_t  const _1467 = _1466 + int64_t(16);
          float16  const _1468 = float16_ops::load(_attn_v, _1467);
          int64_t  const _1469 = (int64_t)(_1365);
          int64_t  const _1470 = _1464 + _1469;
          int64_t  const _1471 = _1470 * int64_t(8);
          int64_t  const _1472 = _1471 + _1459;
          int64_t  const _1473 = _1472 * int64_t(4);
          int64_t  const _1474 = _1473 + int64_t(1);
          float  const _1475 = _probs[_1474];
          float16  const _1476 = float16_ops::broadcast(_1475);
          float16  const _1477 = _1468 * _1476;
          float16  const _1478 = _1462 + _1477;
          float16_ops::store(_1478, _pv, _1461);
          int64_t  const _1479 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1480 = _1479 * int64_t(256);
          int64_t  const _1481 = _1480 + int64_t(96);
          float16  const _1482 = float16_ops::load(_pv, _1481);
          int64_t  const _1483 = (int64_t)(_82);
          int64_t  const _1484 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1485 = _1483 + _1484;
          int64_t  const _1486 = _1485 * int64_t(64);
          int64_t  const _1487 = _1486 + int64_t(32);
          float16  const _1488 = float16_ops::load(_attn_v, _1487);
          int64_t  const _1489 = (int64_t)(_1365);
          int64_t  const _1490 = _1484 + _1489;
          int64_t  const _1491 = _1490 * int64_t(8);
          int64_t  const _1492 = _1491 + _1479;
          int64_t  const _1493 = _1492 * int64_t(4);
          int64_t  const _1494 = _1493 + int64_t(1);
          float  const _1495 = _probs[_1494];
          float16  const _1496 = float16_ops::broadcast(_1495);
          float16  const _1497 = _1488 * _1496;
          float16  const _1498 = _1482 + _1497;
          float16_ops::store(_1498, _pv, _1481);
          int64_t  const _1499 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1500 = _1499 * int64_t(256);
          int64_t  const _1501 = _1500 + int64_t(112);
          float16  const _1502 = float16_ops::load(_pv, _1501);
          int64_t  const _1503 = (int64_t)(_82);
          int64_t  const _1504 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1505 = _1503 + _1504;
          int64_t  const _1506 = _1505 * int64_t(64);
          int64_t  const _1507 = _1506 + int64_t(48);
          float16  const _1508 = float16_ops::load(_attn_v, _1507);
          int64_t  const _1509 = (int64_t)(_1365);
          int64_t  const _1510 = _1504 + _1509;
          int64_t  const _1511 = _1510 * int64_t(8);
          int64_t  const _1512 = _1511 + _1499;
          int64_t  const _1513 = _1512 * int64_t(4);
          int64_t  const _1514 = _1513 + int64_t(1);
          float  const _1515 = _probs[_1514];
          float16  const _1516 = float16_ops::broadcast(_1515);
          float16  const _1517 = _1508 * _1516;
          float16  const _1518 = _1502 + _1517;
          float16_ops::store(_1518, _pv, _1501);
          int64_t  const _1519 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1520 = _1519 * int64_t(256);
          int64_t  const _1521 = _1520 + int64_t(128);
          float16  const _1522 = float16_ops::load(_pv, _1521);
          int64_t  const _1523 = (int64_t)(_82);
          int64_t  const _1524 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1525 = _1523 + _1524;
          int64_t  const _1526 = _1525 * int64_t(64);
          float16  const _1527 = float16_ops::load(_attn_v, _1526);
          int64_t  const _1528 = (int64_t)(_1365);
          int64_t  const _1529 = _1524 + _1528;
          int64_t  const _1530 = _1529 * int64_t(8);
          int64_t  const _1531 = _1530 + _1519;
          int64_t  const _1532 = _1531 * int64_t(4);
          int64_t  const _1533 = _1532 + int64_t(2);
          float  const _1534 = _probs[_1533];
          float16  const _1535 = float16_ops::broadcast(_1534);
          float16  const _1536 = _1527 * _1535;
          float16  const _1537 = _1522 + _1536;
          float16_ops::store(_1537, _pv, _1521);
          int64_t  const _1538 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1539 = _1538 * int64_t(256);
          int64_t  const _1540 = _1539 + int64_t(144);
          float16  const _1541 = float16_ops::load(_pv, _1540);
          int64_t  const _1542 = (int64_t)(_82);
          int64_t  const _1543 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1544 = _1542 + _1543;
          int64_t  const _1545 = _1544 * int64_t(64);
          int64_t  const _1546 = _1545 + int64_t(16);
          float16  const _1547 = float16_ops::load(_attn_v, _1546);
          int64_t  const _1548 = (int64_t)(_1365);
          int64_t  const _1549 = _1543 + _1548;
          int64_t  const _1550 = _1549 * int64_t(8);
          int64_t  const _1551 = _1550 + _1538;
          int64_t  const _1552 = _1551 * int64_t(4);
          int64_t  const _1553 = _1552 + int64_t(2);
          float  const _1554 = _probs[_1553];
          float16  const _1555 = float16_ops::broadcast(_1554);
          float16  const _1556 = _1547 * _1555;
          float16  const _1557 = _1541 + _1556;
          float16_ops::store(_1557, _pv, _1540);
          int64_t  const _1558 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1559 = _1558 * int64_t(256);
          int64_t  const _1560 = _1559 + int64_t(160);
          float16  const _1561 = float16_ops::load(_pv, _1560);
          int64_t  const _1562 = (int64_t)(_82);
          int64_t  const _1563 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1564 = _1562 + _1563;
          int64_t  const _1565 = _1564 * int64_t(64);
          int64_t  const _1566 = _1565 + int64_t(32);
          float16  const _1567 = float16_ops::load(_attn_v, _1566);
          int64_t  const _1568 = (int64_t)(_1365);
          int64_t  const _1569 = _1563 + _1568;
          int64_t  const _1570 = _1569 * int64_t(8);
          int64_t  const _1571 = _1570 + _1558;
          int64_t  const _1572 = _1571 * int64_t(4);
          int64_t  const _1573 = _1572 + int64_t(2);
          float  const _1574 = _probs[_1573];
          float16  const _1575 = float16_ops::broadcast(_1574);
          float16  const _1576 = _1567 * _1575;
          float16  const _1577 = _1561 + _1576;
          float16_ops::store(_1577, _pv, _1560);
          int64_t  const _1578 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1579 = _1578 * int64_t(256);
          int64_t  const _1580 = _1579 + int64_t(176);
          float16  const _1581 = float16_ops::load(_pv, _1580);
          int64_t  const _1582 = (int64_t)(_82);
          int64_t  const _1583 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1584 = _1582 + _1583;
          int64_t  const _1585 = _1584 * int64_t(64);
          int64_t  const _1586 = _1585 + int64_t(48);
          float16  const _1587 = float16_ops::load(_attn_v, _1586);
          int64_t  const _1588 = (int64_t)(_1365);
          int64_t  const _1589 = _1583 + _1588;
          int64_t  const _1590 = _1589 * int64_t(8);
          int64_t  const _1591 = _1590 + _1578;
          int64_t  const _1592 = _1591 * int64_t(4);
          int64_t  const _1593 = _1592 + int64_t(2);
          float  const _1594 = _probs[_1593];
          float16  const _1595 = float16_ops::broadcast(_1594);
          float16  const _1596 = _1587 * _1595;
          float16  const _1597 = _1581 + _1596;
          float16_ops::store(_1597, _pv, _1580);
          int64_t  const _1598 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1599 = _1598 * int64_t(256);
          int64_t  const _1600 = _1599 + int64_t(192);
          float16  const _1601 = float16_ops::load(_pv, _1600);
          int64_t  const _1602 = (int64_t)(_82);
          int64_t  const _1603 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1604 = _1602 + _1603;
          int64_t  const _1605 = _1604 * int64_t(64);
          float16  const _1606 = float16_ops::load(_attn_v, _1605);
          int64_t  const _1607 = (int64_t)(_1365);
          int64_t  const _1608 = _1603 + _1607;
          int64_t  const _1609 = _1608 * int64_t(8);
          int64_t  const _1610 = _1609 + _1598;
          int64_t  const _1611 = _1610 * int64_t(4);
          int64_t  const _1612 = _1611 + int64_t(3);
          float  const _1613 = _probs[_1612];
          float16  const _1614 = float16_ops::broadcast(_1613);
          float16  const _1615 = _1606 * _1614;
          float16  const _1616 = _1601 + _1615;
          float16_ops::store(_1616, _pv, _1600);
          int64_t  const _1617 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1618 = _1617 * int64_t(256);
          int64_t  const _1619 = _1618 + int64_t(208);
          float16  const _1620 = float16_ops::load(_pv, _1619);
          int64_t  const _1621 = (int64_t)(_82);
          int64_t  const _1622 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1623 = _1621 + _1622;
          int64_t  const _1624 = _1623 * int64_t(64);
          int64_t  const _1625 = _1624 + int64_t(16);
          float16  const _1626 = float16_ops::load(_attn_v, _1625);
          int64_t  const _1627 = (int64_t)(_1365);
          int64_t  const _1628 = _1622 + _1627;
          int64_t  const _1629 = _1628 * int64_t(8);
          int64_t  const _1630 = _1629 + _1617;
          int64_t  const _1631 = _1630 * int64_t(4);
          int64_t  const _1632 = _1631 + int64_t(3);
          float  const _1633 = _probs[_1632];
          float16  const _1634 = float16_ops::broadcast(_1633);
          float16  const _1635 = _1626 * _1634;
          float16  const _1636 = _1620 + _1635;
          float16_ops::store(_1636, _pv, _1619);
          int64_t  const _1637 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1638 = _1637 * int64_t(256);
          int64_t  const _1639 = _1638 + int64_t(224);
          float16  const _1640 = float16_ops::load(_pv, _1639);
          int64_t  const _1641 = (int64_t)(_82);
          int64_t  const _1642 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1643 = _1641 + _1642;
          int64_t  const _1644 = _1643 * int64_t(64);
          int64_t  const _1645 = _1644 + int64_t(32);
          float16  const _1646 = float16_ops::load(_attn_v, _1645);
          int64_t  const _1647 = (int64_t)(_1365);
          int64_t  const _1648 = _1642 + _1647;
          int64_t  const _1649 = _1648 * int64_t(8);
          int64_t  const _1650 = _1649 + _1637;
          int64_t  const _1651 = _1650 * int64_t(4);
          int64_t  const _1652 = _1651 + int64_t(3);
          float  const _1653 = _probs[_1652];
          float16  const _1654 = float16_ops::broadcast(_1653);
          float16  const _1655 = _1646 * _1654;
          float16  const _1656 = _1640 + _1655;
          float16_ops::store(_1656, _pv, _1639);
          int64_t  const _1657 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1658 = _1657 * int64_t(256);
          int64_t  const _1659 = _1658 + int64_t(240);
          float16  const _1660 = float16_ops::load(_pv, _1659);
          int64_t  const _1661 = (int64_t)(_82);
          int64_t  const _1662 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1663 = _1661 + _1662;
          int64_t  const _1664 = _1663 * int64_t(64);
          int64_t  const _1665 = _1664 + int64_t(48);
          float16  const _1666 = float16_ops::load(_attn_v, _1665);
          int64_t  const _1667 = (int64_t)(_1365);
          int64_t  const _1668 = _1662 + _1667;
          int64_t  const _1669 = _1668 * int64_t(8);
          int64_t  const _1670 = _1669 + _1657;
          int64_t  const _1671 = _1670 * int64_t(4);
          int64_t  const _1672 = _1671 + int64_t(3);
          float  const _1673 = _probs[_1672];
          float16  const _1674 = float16_ops::broadcast(_1673);
          float16  const _1675 = _1666 * _1674;
          float16  const _1676 = _1660 + _1675;
          float16_ops::store(_1676, _pv, _1659);
         } // for _pv_s1_rkt__x_rebased
        } // for _pv_s1_ii_ig
        {
         float _row_sum[32];
         int32_t  const _1677 = ::halide_cpp_max(_74, 0);
         int32_t  const _1678 = _77 - _1677;
         // produce row_sum
         for (int _row_sum_s0_ii_ii = 0; _row_sum_s0_ii_ii < 0 + 2; _row_sum_s0_ii_ii++)
         {
          float  const _1679 = float_from_bits(0 /* 0 */);
          float16  const _1680 = float16_ops::broadcast(_1679);
          int64_t  const _1681 = (int64_t)(_row_sum_s0_ii_ii);
          int64_t  const _1682 = _1681 * int64_t(16);
          float16_ops::store(_1680, _row_sum, _1682);
         } // for _row_sum_s0_ii_ii
         // consume probs
         int32_t  const _1683 = ::halide_cpp_max(_74, 0);
         int32_t  const _1684 = _1683 - _746;
         for (int _row_sum_s1_rk__x_rebased = 0; _row_sum_s1_rk__x_rebased < 0 + _1678; _row_sum_s1_rk__x_rebased++)
         {
          float16  const _1685 = float16_ops::load(_row_sum, int64_t(0));
          int64_t  const _1686 = (int64_t)(_row_sum_s1_rk__x_rebased);
          int64_t  const _1687 = (int64_t)(_1684);
          int64_t  const _1688 = _1686 + _1687;
          int64_t  const _1689 = _1688 * int64_t(32);
          float16  const _1690 = float16_ops::load(_probs, _1689);
          float16  const _1691 = _1685 + _1690;
          float16_ops::store(_1691, _row_sum, int64_t(0));
          float16  const _1692 = float16_ops::load(_row_sum, int64_t(16));
          int64_t  const _1693 = (int64_t)(_row_sum_s1_rk__x_rebased);
          int64_t  const _1694 = (int64_t)(_1684);
          int64_t  const _1695 = _1693 + _1694;
          int64_t  const _1696 = _1695 * int64_t(32);
          int64_t  const _1697 = _1696 + int64_t(16);
          float16  const _1698 = float16_ops::load(_probs, _1697);
          float16  const _1699 = _1692 + _1698;
          float16_ops::store(_1699, _row_sum, int64_t(16));
         } // for _row_sum_s1_rk__x_rebased
         _probs_free.free();
         {
          float _partial[2560];
          // produce partial
          // consume row_sum
          // consume pv
          // consume row_max
          int32_t  const _1700 = _attn_kv_lo >> 3;
          int32_t  const _1701 = ::halide_cpp_max(_1700, 0);
          int32_t  const _1702 = _1701 * 8;
          int32_t  const _1703 = ::halide_cpp_min(_1702, _attn_lk);
          int32_t  const _1704 = ::halide_cpp_min(_attn_kv_hi, _attn_lk);
          int32_t  const _1705 = _1704 + 7;
          int32_t  const _1706 = _1705 >> 3;
          int32_t  const _1707 = _attn_tile * 4;
          int32_t  const _1708 = _1707 + 4;
          int32_t  const _1709 = ::halide_cpp_min(_1706, _1708);
          int32_t  const _1710 = _1709 * 8;
          int32_t  const _1711 = ::halide_cpp_min(_1710, _attn_lk);
          int32_t  const _1712 = _attn_chunk_lo >> 3;
          int32_t  const _1713 = _1712 * 8;
          for (int _partial_s0_ii_ig = 0; _partial_s0_ii_ig < 0 + 8; _partial_s0_ii_ig++)
          {
           int32_t  const _1714 = ::halide_cpp_max(_1703, _1711);
           int32_t  const _1715 = _partial_s0_ii_ig * 4;
           for (int _partial_s0_ii_ir = 0; _partial_s0_ii_ir < 0 + 4; _partial_s0_ii_ir++)
           {
            int32_t  const _1716 = _partial_s0_ii_ir + _1715;
            for (int _partial_s0_c_c = 0; _partial_s0_c_c < 0 + 4; _partial_s0_c_c++)
            {
             int64_t  const _1717 = (int64_t)(_1716);
             int64_t  const _1718 = _1717 * int64_t(4);
             int64_t  const _1719 = (int64_t)(_partial_s0_c_c);
             int64_t  const _1720 = _1718 + _1719;
             int64_t  const _1721 = _1720 * int64_t(16);
             float16  const _1722 = float16_ops::load(_pv, _1721);
             int64_t  const _1723 = _1717 * int64_t(5);
             int64_t  const _1724 = _1723 + _1719;
             int64_t  const _1725 = _1724 * int64_t(16);
             float16_ops::store(_1722, _partial, _1725);
            } // for _partial_s0_c_c
            int32_t  const _1726 = _partial_s0_ii_ir + _1715;
            int64_t  const _1727 = (int64_t)(_1726);
            float  const _1728 = _row_max[_1727];
            float16  const _1729 = float16_ops::broadcast(_1728);
            float  const _1730 = _row_sum[_1727];
            float16  const _1731 = float16_ops::broadcast(_1730);
            int32_t  const _1732 = ::halide_cpp_min(_1713, _1714);
            int32_t  const _1733 = ::halide_cpp_max(_1732, _1703);
            int32_t  const _1734 = _1733 + 1024;
            int32_t  const _1735 = ::halide_cpp_min(_1734, _1714);
            float  const _1736 = reinterpret<float>(_1735);
            float16  const _1737 = float16_ops::broadcast(_1736);
            float  const _1738 = reinterpret<float>(_1714);
            float16  const _1739 = float16_ops::broadcast(_1738);
            int32x16_t  const _1740 = int32x16_t_ops::ramp(-2, 1);
            int32x16_t  const _1741 = int32x16_t_ops::broadcast(0);
            uint8x16_t  const _1742 = int32x16_t_ops::eq(_1740, _1741);
            float16  const _1743 = float16_ops::select(_1742, _1737, _1739);
            int32x16_t  const _1744 = int32x16_t_ops::ramp(-1, 1);
            uint8x16_t  const _1745 = int32x16_t_ops::eq(_1744, _1741);
            float16  const _1746 = float16_ops::select(_1745, _1731, _1743);
            int32x16_t  const _1747 = int32x16_t_ops::ramp(0, 1);
            uint8x16_t  const _1748 = int32x16_t_ops::eq(_1747, _1741);
            float16  const _1749 = float16_ops::select(_1748, _1729, _1746);
            int64_t  const _1750 = _1727 * int64_t(80);
            int64_t  const _1751 = _1750 + int64_t(64);
            float16_ops::store(_1749, _partial, _1751);
           } // for _partial_s0_ii_ir
          } // for _partial_s0_ii_ig
          // produce attn_out
          // consume partial
          for (int _attn_out_s0_ii = 0; _attn_out_s0_ii < 0 + 32; _attn_out_s0_ii++)
          {
           int32_t  const _1752 = _attn_out_s0_ii * 5;
           for (int _attn_out_s0_c_c = 0; _attn_out_s0_c_c < 0 + 5; _attn_out_s0_c_c++)
           {
            int32_t  const _1753 = _attn_out_s0_c_c + _1752;
            int64_t  const _1754 = (int64_t)(_1753);
            int64_t  const _1755 = _1754 * int64_t(16);
            float16  const _1756 = float16_ops::load(_partial, _1755);
            float16_ops::store(_1756, _attn_out, _1755);
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

// [Halide's argv wrapper and metadata of attn_causal64_avx512_pipeline: 322 lines, hash 47334f68c80d6c37]

#ifdef __cplusplus
}  // extern "C"
#endif


// ---- The path's attn_kernel_args entry point ----
namespace {

enum class IoType { F32, F16, BF16 };
constexpr const char* kKernelName = "causal64";
constexpr int kLanes = 16, kTileQ = 32;
constexpr int32_t kKeyChunk = 1024;  // keys per pipeline call at most
constexpr int64_t kHeadDim = 64, kValueDim = 64;  // 0: any
constexpr IoType kIoType = IoType::F32;
constexpr bool kLseRequired = false;
constexpr bool kMaxRequired = false;  // return_max: the row maxima (attn_kernel_args::max)
constexpr bool kPackHeads = true;  // the mask and score ignore the head: decoding packs a group's heads
constexpr int kNumBuffers = 0, kNumScalars = 0;
struct DTypeName {
  uint8_t code, bits;
  const char* name;
};
constexpr DTypeName kDTypeNames[] = {{2, 32, "f32"}, {2, 16, "f16"}, {4, 16, "bf16"}, {2, 64, "f64"}, {0, 32, "i32"}, {0, 64, "i64"}, {6, 8, "bool"}, {1, 8, "u8"}};

}  // namespace

// [fixed text: backends/cpu/fixed/WrapperSupport.h, 306 lines]

// [fixed text: backends/cpu/fixed/F32Staging.h, 150 lines]

namespace {

// [fixed text: backends/cpu/fixed/IrIntegerOps.h, 17 lines]
/// Keys in blocks of 64: blocks that the mask rules out for a whole query tile are skipped.
constexpr int kSkipBlock = 64;
constexpr bool kHasKeyTest = true;

/// Whether the mask is false for every query in [q_min, q_max] and key in [kv_min, kv_max]: a
/// sufficient condition from interval analysis of the mask (codegen/PlanTiles), or false.
bool keys_masked([[maybe_unused]] int q_min, [[maybe_unused]] int q_max, [[maybe_unused]] int kv_min,
                 [[maybe_unused]] int kv_max, [[maybe_unused]] int b_min, [[maybe_unused]] int b_max,
                 [[maybe_unused]] int h_min, [[maybe_unused]] int h_max,
                 [[maybe_unused]] const double* scalars) {
  return (q_max < kv_min);
}

}  // namespace

// [fixed text: backends/cpu/fixed/RaggedBatch.h, 109 lines]

// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 1-51, 51 lines]
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
  // Out = P·V / sum, LSE and the row max of one finished row, in the caller's layout and type, after
  // the sink: a row that nothing reached is Out 0, LSE -inf; a NaN sum (a NaN score) gives NaN. `pv`
  // is unnormalized, `max` in log2 units. False (with the message written) for an out-of-range read.
  auto write_row = [&](int64_t b, int64_t hr, int64_t qr, const float* pv, float max, float sum) {
    const float kept_max = sum != sum ? NAN : sum == 0.0f ? -INFINITY : max * 0.693147180559945309f;
    float scale = 1.0f;
    if (kHasSink) {
      RowLoadError bad;
      fold_sink(sink_logit(int32_t(b0 + b), int32_t(hr), int32_t(qr), bad), max, sum, scale);
      if (bad.buffer)
        return fail(uc, "%s: the sink reads buffer '%s' at index %d in dimension %d, outside [0, %d) (b=%lld h=%lld q=%lld)",
                    kKernelName, bad.buffer, int(bad.index), bad.dim, int(bad.extent), (long long)(b0 + b), (long long)hr,
                    (long long)qr), false;
    }
    const bool reached = sum != 0.0f;
    float inv = reached ? scale / sum : 0.0f;
    char* dst = out_base + b * ob + hr * oh + qr * ol;
    for (int64_t c = 0; c < Dv; ++c) write_io(dst + c * esize, reached ? pv[c] * inv : 0.0f);
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
  int64_t groups = Hq / Hkv;
  // Decoding (one query row) with grouped heads: the query heads that share a key/value head fill
  // the rows of one tile (row r is head h + r, query 0) instead of one head per 32-row tile. Only
  // when the mask and score do not read the head index.
  const bool pack = kPackHeads && Lq == 1 && groups > 1;
  const int64_t chunks_per_group = (groups + kTileQ - 1) / kTileQ;
  // K and V that need converting are converted by the tasks themselves when at most two tasks
  // read each key/value plane, once up front otherwise.
  const int64_t tasks_per_plane = pack ? chunks_per_group : (Lq + kTileQ - 1) / kTileQ * groups;
  KeyStage k;
  ValueStage v;
  if (!k.prepare(uc, args->k, "k", D, tasks_per_plane <= 2) || !v.prepare(uc, args->v, "v", Dv_pad, tasks_per_plane <= 2))
    return -1;
  const char* q_base = base_of(args->q);
  int64_t q_esize = args->q->dtype.bits / 8;
  int64_t qb = stride_of(args->q, 0) * q_esize, qh = stride_of(args->q, 1) * q_esize, ql = stride_of(args->q, 2) * q_esize;
  // Keys each query tile may see, [lo, hi): all of them, or for a mask that reads buffers the hull
  // of the caller's ranges (version 2) over the tile's rows. The pipeline intersects it with the
  // mask's closed-form hull.
  int64_t tiles = (Lq + kTileQ - 1) / kTileQ;
  if (tiles * Hq * B >= (int64_t(1) << 31))
    return fail(uc, "%s: too many query tiles (%lld)", kKernelName, (long long)(tiles * Hq * B)), -1;
  std::vector<int32_t> window(size_t(2 * tiles));
  const int64_t* given = nullptr;  // the mask reads no buffer: kv_ranges unused
  const int64_t* run_starts = nullptr;
  const int64_t* runs = nullptr;
  int64_t given_block = 0;
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 118-181, 64 lines]
    // takes at most 1024 keys a call, so the scores stay in cache.
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 183-216, 34 lines]
            int result = attn_causal64_avx512_pipeline(uc, &q_tile.buf, &k_head.buf, &v_head.buf, int32_t(Lq), int32_t(Lk), int32_t(D),
                int32_t(Dv_pad), int32_t(t), int32_t(q_step), int32_t(h), int32_t(b0 + b), piece_lo, piece_hi, next, &out_tile.buf);
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 219-265, 47 lines]
int run(const attn_kernel_args* args) {
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 267-278, 12 lines]

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

// [the source with every path (all_cpu_paths: the matrix paths for bf16): 15951 lines, hash 1aea5d68fd55d723]
