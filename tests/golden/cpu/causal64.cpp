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
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>
#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>  // getpid: the worker threads are the parent's after fork()
#endif
#if defined(__x86_64__)
#include <cpuid.h>      // whether the CPU has F16C, AVX512-BF16, AMX
#include <immintrin.h>  // F16C's f16 to f32 on the AVX paths; AMX tiles, vdpbf16ps
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
// [cpu runtime glue for 17 runtime functions: 264 lines, hash 187d5a4965e32ab1]

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
   int32_t  const _379 = _99 - _100;
   int32_t  const _380 = _379 + 7;
   int32_t  const _381 = _380 >> 3;
   for (int _scores_s0_j_jo = 0; _scores_s0_j_jo < 0 + _381; _scores_s0_j_jo++)
   {
    {
     float _dot[256];
     // produce dot
     float  const _382 = float_from_bits(0 /* 0 */);
     float16  const _383 = float16_ops::broadcast(_382);
     float16_ops::store(_383, _dot, int64_t(0));
     float  const _384 = float_from_bits(0 /* 0 */);
     float16  const _385 = float16_ops::broadcast(_384);
     float16_ops::store(_385, _dot, int64_t(32));
     float  const _386 = float_from_bits(0 /* 0 */);
     float16  const _387 = float16_ops::broadcast(_386);
     float16_ops::store(_387, _dot, int64_t(64));
     float  const _388 = float_from_bits(0 /* 0 */);
     float16  const _389 = float16_ops::broadcast(_388);
     float16_ops::store(_389, _dot, int64_t(96));
     float  const _390 = float_from_bits(0 /* 0 */);
     float16  const _391 = float16_ops::broadcast(_390);
     float16_ops::store(_391, _dot, int64_t(128));
     float  const _392 = float_from_bits(0 /* 0 */);
     float16  const _393 = float16_ops::broadcast(_392);
     float16_ops::store(_393, _dot, int64_t(160));
     float  const _394 = float_from_bits(0 /* 0 */);
     float16  const _395 = float16_ops::broadcast(_394);
     float16_ops::store(_395, _dot, int64_t(192));
     float  const _396 = float_from_bits(0 /* 0 */);
     float16  const _397 = float16_ops::broadcast(_396);
     float16_ops::store(_397, _dot, int64_t(224));
     float  const _398 = float_from_bits(0 /* 0 */);
     float16  const _399 = float16_ops::broadcast(_398);
     float16_ops::store(_399, _dot, int64_t(16));
     float  const _400 = float_from_bits(0 /* 0 */);
     float16  const _401 = float16_ops::broadcast(_400);
     float16_ops::store(_401, _dot, int64_t(48));
     float  const _402 = float_from_bits(0 /* 0 */);
     float16  const _403 = float16_ops::broadcast(_402);
     float16_ops::store(_403, _dot, int64_t(80));
     float  const _404 = float_from_bits(0 /* 0 */);
     float16  const _405 = float16_ops::broadcast(_404);
     float16_ops::store(_405, _dot, int64_t(112));
     float  const _406 = float_from_bits(0 /* 0 */);
     float16  const _407 = float16_ops::broadcast(_406);
     float16_ops::store(_407, _dot, int64_t(144));
     float  const _408 = float_from_bits(0 /* 0 */);
     float16  const _409 = float16_ops::broadcast(_408);
     float16_ops::store(_409, _dot, int64_t(176));
     float  const _410 = float_from_bits(0 /* 0 */);
     float16  const _411 = float16_ops::broadcast(_410);
     float16_ops::store(_411, _dot, int64_t(208));
     float  const _412 = float_from_bits(0 /* 0 */);
     float16  const _413 = float16_ops::broadcast(_412);
     float16_ops::store(_413, _dot, int64_t(240));
     int32_t  const _414 = _scores_s0_j_jo * 8;
     int32_t  const _415 = _414 + _100;
     int32_t  const _416 = _415 + 8;
     int32_t  const _417 = ::halide_cpp_min(_416, _24);
     int32_t  const _418 = _417 * 64;
     int32_t  const _419 = _415 + 7;
     int32_t  const _420 = ::halide_cpp_min(_419, _24);
     int32_t  const _421 = _420 * 64;
     int32_t  const _422 = _415 + 6;
     int32_t  const _423 = ::halide_cpp_min(_422, _24);
     int32_t  const _424 = _423 * 64;
     int32_t  const _425 = _415 + 5;
     int32_t  const _426 = ::halide_cpp_min(_425, _24);
     int32_t  const _427 = _426 * 64;
     int32_t  const _428 = _415 + 4;
     int32_t  const _429 = ::halide_cpp_min(_428, _24);
     int32_t  const _430 = _429 * 64;
     int32_t  const _431 = _415 + 3;
     int32_t  const _432 = ::halide_cpp_min(_431, _24);
     int32_t  const _433 = _432 * 64;
     int32_t  const _434 = _415 + 2;
     int32_t  const _435 = ::halide_cpp_min(_434, _24);
     int32_t  const _436 = _435 * 64;
     int32_t  const _437 = _24 + -1;
     int32_t  const _438 = ::halide_cpp_min(_437, _415);
     int32_t  const _439 = _438 * 64;
     for (int _dot_s1_rd__x = 0; _dot_s1_rd__x < 0 + 64; _dot_s1_rd__x++)
     {
      float16  const _440 = float16_ops::load(_dot, int64_t(0));
      int64_t  const _441 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _442 = _441 * int64_t(32);
      float16  const _443 = float16_ops::load(_qs, _442);
      int64_t  const _444 = (int64_t)(_439);
      int64_t  const _445 = _441 + _444;
      float  const _446 = ((float const *)_attn_k)[_445];
      float16  const _447 = float16_ops::broadcast(_446);
      float16  const _448 = _443 * _447;
      float16  const _449 = _440 + _448;
      float16_ops::store(_449, _dot, int64_t(0));
      float16  const _450 = float16_ops::load(_dot, int64_t(16));
      int64_t  const _451 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _452 = _451 * int64_t(32);
      int64_t  const _453 = _452 + int64_t(16);
      float16  const _454 = float16_ops::load(_qs, _453);
      int64_t  const _455 = (int64_t)(_439);
      int64_t  const _456 = _451 + _455;
      float  const _457 = ((float const *)_attn_k)[_456];
      float16  const _458 = float16_ops::broadcast(_457);
      float16  const _459 = _454 * _458;
      float16  const _460 = _450 + _459;
      float16_ops::store(_460, _dot, int64_t(16));
      float16  const _461 = float16_ops::load(_dot, int64_t(32));
      int64_t  const _462 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _463 = _462 * int64_t(32);
      float16  const _464 = float16_ops::load(_qs, _463);
      int64_t  const _465 = (int64_t)(_436);
      int64_t  const _466 = _462 + _465;
      int64_t  const _467 = _466 + int64_t(-64);
      float  const _468 = ((float const *)_attn_k)[_467];
      float16  const _469 = float16_ops::broadcast(_468);
      float16  const _470 = _464 * _469;
      float16  const _471 = _461 + _470;
      float16_ops::store(_471, _dot, int64_t(32));
      float16  const _472 = float16_ops::load(_dot, int64_t(48));
      int64_t  const _473 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _474 = _473 * int64_t(32);
      int64_t  const _475 = _474 + int64_t(16);
      float16  const _476 = float16_ops::load(_qs, _475);
      int64_t  const _477 = (int64_t)(_436);
      int64_t  const _478 = _473 + _477;
      int64_t  const _479 = _478 + int64_t(-64);
      float  const _480 = ((float const *)_attn_k)[_479];
      float16  const _481 = float16_ops::broadcast(_480);
      float16  const _482 = _476 * _481;
      float16  const _483 = _472 + _482;
      float16_ops::store(_483, _dot, int64_t(48));
      float16  const _484 = float16_ops::load(_dot, int64_t(64));
      int64_t  const _485 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _486 = _485 * int64_t(32);
      float16  const _487 = float16_ops::load(_qs, _486);
      int64_t  const _488 = (int64_t)(_433);
      int64_t  const _489 = _485 + _488;
      int64_t  const _490 = _489 + int64_t(-64);
      float  const _491 = ((float const *)_attn_k)[_490];
      float16  const _492 = float16_ops::broadcast(_491);
      float16  const _493 = _487 * _492;
      float16  const _494 = _484 + _493;
      float16_ops::store(_494, _dot, int64_t(64));
      float16  const _495 = float16_ops::load(_dot, int64_t(80));
      int64_t  const _496 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _497 = _496 * int64_t(32);
      int64_t  const _498 = _497 + int64_t(16);
      float16  const _499 = float16_ops::load(_qs, _498);
      int64_t  const _500 = (int64_t)(_433);
      int64_t  const _501 = _496 + _500;
      int64_t  const _502 = _501 + int64_t(-64);
      float  const _503 = ((float const *)_attn_k)[_502];
      float16  const _504 = float16_ops::broadcast(_503);
      float16  const _505 = _499 * _504;
      float16  const _506 = _495 + _505;
      float16_ops::store(_506, _dot, int64_t(80));
      float16  const _507 = float16_ops::load(_dot, int64_t(96));
      int64_t  const _508 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _509 = _508 * int64_t(32);
      float16  const _510 = float16_ops::load(_qs, _509);
      int64_t  const _511 = (int64_t)(_430);
      int64_t  const _512 = _508 + _511;
      int64_t  const _513 = _512 + int64_t(-64);
      float  const _514 = ((float const *)_attn_k)[_513];
      float16  const _515 = float16_ops::broadcast(_514);
      float16  const _516 = _510 * _515;
      float16  const _517 = _507 + _516;
      float16_ops::store(_517, _dot, int64_t(96));
      float16  const _518 = float16_ops::load(_dot, int64_t(112));
      int64_t  const _519 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _520 = _519 * int64_t(32);
      int64_t  const _521 = _520 + int64_t(16);
      float16  const _522 = float16_ops::load(_qs, _521);
      int64_t  const _523 = (int64_t)(_430);
      int64_t  const _524 = _519 + _523;
      int64_t  const _525 = _524 + int64_t(-64);
      float  const _526 = ((float const *)_attn_k)[_525];
      float16  const _527 = float16_ops::broadcast(_526);
      float16  const _528 = _522 * _527;
      float16  const _529 = _518 + _528;
      float16_ops::store(_529, _dot, int64_t(112));
      float16  const _530 = float16_ops::load(_dot, int64_t(128));
      int64_t  const _531 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _532 = _531 * int64_t(32);
      float16  const _533 = float16_ops::load(_qs, _532);
      int64_t  const _534 = (int64_t)(_427);
      int64_t  const _535 = _531 + _534;
      int64_t  const _536 = _535 + int64_t(-64);
      float  const _537 = ((float const *)_attn_k)[_536];
      float16  const _538 = float16_ops::broadcast(_537);
      float16  const _539 = _533 * _538;
      float16  const _540 = _530 + _539;
      float16_ops::store(_540, _dot, int64_t(128));
      float16  const _541 = float16_ops::load(_dot, int64_t(144));
      int64_t  const _542 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _543 = _542 * int64_t(32);
      int64_t  const _544 = _543 + int64_t(16);
      float16  const _545 = float16_ops::load(_qs, _544);
      int64_t  const _546 = (int64_t)(_427);
      int64_t  const _547 = _542 + _546;
      int64_t  const _548 = _547 + int64_t(-64);
      float  const _549 = ((float const *)_attn_k)[_548];
      float16  const _550 = float16_ops::broadcast(_549);
      float16  const _551 = _545 * _550;
      float16  const _552 = _541 + _551;
      float16_ops::store(_552, _dot, int64_t(144));
      float16  const _553 = float16_ops::load(_dot, int64_t(160));
      int64_t  const _554 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _555 = _554 * int64_t(32);
      float16  const _556 = float16_ops::load(_qs, _555);
      int64_t  const _557 = (int64_t)(_424);
      int64_t  const _558 = _554 + _557;
      int64_t  const _559 = _558 + int64_t(-64);
      float  const _560 = ((float const *)_attn_k)[_559];
      float16  const _561 = float16_ops::broadcast(_560);
      float16  const _562 = _556 * _561;
      float16  const _563 = _553 + _562;
      float16_ops::store(_563, _dot, int64_t(160));
      float16  const _564 = float16_ops::load(_dot, int64_t(176));
      int64_t  const _565 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _566 = _565 * int64_t(32);
      int64_t  const _567 = _566 + int64_t(16);
      float16  const _568 = float16_ops::load(_qs, _567);
      int64_t  const _569 = (int64_t)(_424);
      int64_t  const _570 = _565 + _569;
      int64_t  const _571 = _570 + int64_t(-64);
      float  const _572 = ((float const *)_attn_k)[_571];
      float16  const _573 = float16_ops::broadcast(_572);
      float16  const _574 = _568 * _573;
      float16  const _575 = _564 + _574;
      float16_ops::store(_575, _dot, int64_t(176));
      float16  const _576 = float16_ops::load(_dot, int64_t(192));
      int64_t  const _577 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _578 = _577 * int64_t(32);
      float16  const _579 = float16_ops::load(_qs, _578);
      int64_t  const _580 = (int64_t)(_421);
      int64_t  const _581 = _577 + _580;
      int64_t  const _582 = _581 + int64_t(-64);
      float  const _583 = ((float const *)_attn_k)[_582];
      float16  const _584 = float16_ops::broadcast(_583);
      float16  const _585 = _579 * _584;
      float16  const _586 = _576 + _585;
      float16_ops::store(_586, _dot, int64_t(192));
      float16  const _587 = float16_ops::load(_dot, int64_t(208));
      int64_t  const _588 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _589 = _588 * int64_t(32);
      int64_t  const _590 = _589 + int64_t(16);
      float16  const _591 = float16_ops::load(_qs, _590);
      int64_t  const _592 = (int64_t)(_421);
      int64_t  const _593 = _588 + _592;
      int64_t  const _594 = _593 + int64_t(-64);
      float  const _595 = ((float const *)_attn_k)[_594];
      float16  const _596 = float16_ops::broadcast(_595);
      float16  const _597 = _591 * _596;
      float16  const _598 = _587 + _597;
      float16_ops::store(_598, _dot, int64_t(208));
      float16  const _599 = float16_ops::load(_dot, int64_t(224));
      int64_t  const _600 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _601 = _600 * int64_t(32);
      float16  const _602 = float16_ops::load(_qs, _601);
      int64_t  const _603 = (int64_t)(_418);
      int64_t  const _604 = _600 + _603;
      int64_t  const _605 = _604 + int64_t(-64);
      float  const _606 = ((float const *)_attn_k)[_605];
      float16  const _607 = float16_ops::broadcast(_606);
      float16  const _608 = _602 * _607;
      float16  const _609 = _599 + _608;
      float16_ops::store(_609, _dot, int64_t(224));
      float16  const _610 = float16_ops::load(_dot, int64_t(240));
      int64_t  const _611 = (int64_t)(_dot_s1_rd__x);
      int64_t  const _612 = _611 * int64_t(32);
      int64_t  const _613 = _612 + int64_t(16);
      float16  const _614 = float16_ops::load(_qs, _613);
      int64_t  const _615 = (int64_t)(_418);
      int64_t  const _616 = _611 + _615;
      int64_t  const _617 = _616 + int64_t(-64);
      float  const _618 = ((float const *)_attn_k)[_617];
      float16  const _619 = float16_ops::broadcast(_618);
      float16  const _620 = _614 * _619;
      float16  const _621 = _610 + _620;
      float16_ops::store(_621, _dot, int64_t(240));
     } // for _dot_s1_rd__x
     // consume dot
     float16  const _622 = float16_ops::load(_dot, int64_t(0));
     int64_t  const _623 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _624 = _623 * int64_t(256);
     float16_ops::store(_622, _scores, _624);
     float16  const _625 = float16_ops::load(_dot, int64_t(16));
     int64_t  const _626 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _627 = _626 * int64_t(256);
     int64_t  const _628 = _627 + int64_t(16);
     float16_ops::store(_625, _scores, _628);
     float16  const _629 = float16_ops::load(_dot, int64_t(32));
     int64_t  const _630 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _631 = _630 * int64_t(256);
     int64_t  const _632 = _631 + int64_t(32);
     float16_ops::store(_629, _scores, _632);
     float16  const _633 = float16_ops::load(_dot, int64_t(48));
     int64_t  const _634 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _635 = _634 * int64_t(256);
     int64_t  const _636 = _635 + int64_t(48);
     float16_ops::store(_633, _scores, _636);
     float16  const _637 = float16_ops::load(_dot, int64_t(64));
     int64_t  const _638 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _639 = _638 * int64_t(256);
     int64_t  const _640 = _639 + int64_t(64);
     float16_ops::store(_637, _scores, _640);
     float16  const _641 = float16_ops::load(_dot, int64_t(80));
     int64_t  const _642 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _643 = _642 * int64_t(256);
     int64_t  const _644 = _643 + int64_t(80);
     float16_ops::store(_641, _scores, _644);
     float16  const _645 = float16_ops::load(_dot, int64_t(96));
     int64_t  const _646 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _647 = _646 * int64_t(256);
     int64_t  const _648 = _647 + int64_t(96);
     float16_ops::store(_645, _scores, _648);
     float16  const _649 = float16_ops::load(_dot, int64_t(112));
     int64_t  const _650 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _651 = _650 * int64_t(256);
     int64_t  const _652 = _651 + int64_t(112);
     float16_ops::store(_649, _scores, _652);
     float16  const _653 = float16_ops::load(_dot, int64_t(128));
     int64_t  const _654 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _655 = _654 * int64_t(256);
     int64_t  const _656 = _655 + int64_t(128);
     float16_ops::store(_653, _scores, _656);
     float16  const _657 = float16_ops::load(_dot, int64_t(144));
     int64_t  const _658 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _659 = _658 * int64_t(256);
     int64_t  const _660 = _659 + int64_t(144);
     float16_ops::store(_657, _scores, _660);
     float16  const _661 = float16_ops::load(_dot, int64_t(160));
     int64_t  const _662 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _663 = _662 * int64_t(256);
     int64_t  const _664 = _663 + int64_t(160);
     float16_ops::store(_661, _scores, _664);
     float16  const _665 = float16_ops::load(_dot, int64_t(176));
     int64_t  const _666 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _667 = _666 * int64_t(256);
     int64_t  const _668 = _667 + int64_t(176);
     float16_ops::store(_665, _scores, _668);
     float16  const _669 = float16_ops::load(_dot, int64_t(192));
     int64_t  const _670 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _671 = _670 * int64_t(256);
     int64_t  const _672 = _671 + int64_t(192);
     float16_ops::store(_669, _scores, _672);
     float16  const _673 = float16_ops::load(_dot, int64_t(208));
     int64_t  const _674 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _675 = _674 * int64_t(256);
     int64_t  const _676 = _675 + int64_t(208);
     float16_ops::store(_673, _scores, _676);
     float16  const _677 = float16_ops::load(_dot, int64_t(224));
     int64_t  const _678 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _679 = _678 * int64_t(256);
     int64_t  const _680 = _679 + int64_t(224);
     float16_ops::store(_677, _scores, _680);
     float16  const _681 = float16_ops::load(_dot, int64_t(240));
     int64_t  const _682 = (int64_t)(_scores_s0_j_jo);
     int64_t  const _683 = _682 * int64_t(256);
     int64_t  const _684 = _683 + int64_t(240);
     float16_ops::store(_681, _scores, _684);
    } // alloc _dot
   } // for _scores_s0_j_jo
   int32_t  const _685 = ::halide_cpp_max(_96, _87);
   int32_t  const _686 = ::halide_cpp_max(_685, _99);
   {
    int32_t  const _687 = _686 - _100;
    int64_t  const _688 = _687;
    int64_t  const _689 = _688 * 32;
    if ((_689 > ((int64_t(1) << 31) - 1)) || ((_689 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
    {
     attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation masked\n");
     return -1;
    } // overflow test masked
    int64_t  const _690 = _689;
    float *_masked = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_690);
    if (!_masked)
    {
     int32_t  const _691 = attn_causal64_rt_error_out_of_memory(_ucon);
     return _691;
    }
    HalideFreeHelper _masked_free(_ucon, _masked, attn_causal64_rt_free);
    // produce masked
    // consume scores
    int32_t  const _692 = _99 - _100;
    int32_t  const _693 = _attn_tile * 2;
    int32_t  const _694 = _693 + _attn_q_step;
    int32_t  const _695 = _694 * 16;
    int32_t  const _696 = _695 + _attn_q0;
    int32_t  const _697 = _attn_tile * 32;
    int32_t  const _698 = _697 + _attn_q0;
    for (int _masked_s0_j_rebased = 0; _masked_s0_j_rebased < 0 + _692; _masked_s0_j_rebased++)
    {
     uint32_t  const _699 = (uint32_t)(0ull);
     uint32x16_t  const _700 = uint32x16_t_ops::broadcast(_699);
     uint32_t  const _701 = (uint32_t)(4294967295ull);
     uint32x16_t  const _702 = uint32x16_t_ops::broadcast(_701);
     int32x16_t  const _703 = int32x16_t_ops::ramp(_698, _attn_q_step);
     int32_t  const _704 = _100 + _masked_s0_j_rebased;
     int32x16_t  const _705 = int32x16_t_ops::broadcast(_704);
     uint8x16_t  const _706 = int32x16_t_ops::lt(_703, _705);
     uint32x16_t  const _707 = uint32x16_t_ops::select(_706, _700, _702);
     int64_t  const _708 = (int64_t)(_masked_s0_j_rebased);
     int64_t  const _709 = _708 * int64_t(32);
     float16  const _710 = float16_ops::load(_scores, _709);
     uint32x16_t  const _711 = reinterpret<uint32x16_t>(_710);
     uint32x16_t  const _712 = _711 & _707;
     uint32_t  const _713 = (uint32_t)(4286578688ull);
     uint32x16_t  const _714 = uint32x16_t_ops::broadcast(_713);
     uint32x16_t  const _715 = ~_707;
     uint32x16_t  const _716 = _714 & _715;
     uint32x16_t  const _717 = _712 | _716;
     float16  const _718 = reinterpret<float16>(_717);
     float16_ops::store(_718, _masked, _709);
     uint32_t  const _719 = (uint32_t)(0ull);
     uint32x16_t  const _720 = uint32x16_t_ops::broadcast(_719);
     uint32_t  const _721 = (uint32_t)(4294967295ull);
     uint32x16_t  const _722 = uint32x16_t_ops::broadcast(_721);
     int32x16_t  const _723 = int32x16_t_ops::ramp(_696, _attn_q_step);
     int32_t  const _724 = _100 + _masked_s0_j_rebased;
     int32x16_t  const _725 = int32x16_t_ops::broadcast(_724);
     uint8x16_t  const _726 = int32x16_t_ops::lt(_723, _725);
     uint32x16_t  const _727 = uint32x16_t_ops::select(_726, _720, _722);
     int64_t  const _728 = (int64_t)(_masked_s0_j_rebased);
     int64_t  const _729 = _728 * int64_t(32);
     int64_t  const _730 = _729 + int64_t(16);
     float16  const _731 = float16_ops::load(_scores, _730);
     uint32x16_t  const _732 = reinterpret<uint32x16_t>(_731);
     uint32x16_t  const _733 = _732 & _727;
     uint32_t  const _734 = (uint32_t)(4286578688ull);
     uint32x16_t  const _735 = uint32x16_t_ops::broadcast(_734);
     uint32x16_t  const _736 = ~_727;
     uint32x16_t  const _737 = _735 & _736;
     uint32x16_t  const _738 = _733 | _737;
     float16  const _739 = reinterpret<float16>(_738);
     float16_ops::store(_739, _masked, _730);
    } // for _masked_s0_j_rebased
    _scores_free.free();
    {
     float _row_max[32];
     int32_t  const _740 = ::halide_cpp_max(_84, 0);
     int32_t  const _741 = _87 - _740;
     // produce row_max
     for (int _row_max_s0_ii_ii = 0; _row_max_s0_ii_ii < 0 + 2; _row_max_s0_ii_ii++)
     {
      float16  const _742 = float16_ops::broadcast(neg_inf_f32());
      int64_t  const _743 = (int64_t)(_row_max_s0_ii_ii);
      int64_t  const _744 = _743 * int64_t(16);
      float16_ops::store(_742, _row_max, _744);
     } // for _row_max_s0_ii_ii
     // consume masked
     int32_t  const _745 = ::halide_cpp_max(_84, 0);
     int32_t  const _746 = _745 - _100;
     for (int _row_max_s1_rk__x_rebased = 0; _row_max_s1_rk__x_rebased < 0 + _741; _row_max_s1_rk__x_rebased++)
     {
      float16  const _747 = float16_ops::load(_row_max, int64_t(0));
      int64_t  const _748 = (int64_t)(_row_max_s1_rk__x_rebased);
      int64_t  const _749 = (int64_t)(_746);
      int64_t  const _750 = _748 + _749;
      int64_t  const _751 = _750 * int64_t(32);
      float16  const _752 = float16_ops::load(_masked, _751);
      float16  const _753 = float16_ops::max(_747, _752);
      float16_ops::store(_753, _row_max, int64_t(0));
      float16  const _754 = float16_ops::load(_row_max, int64_t(16));
      int64_t  const _755 = (int64_t)(_row_max_s1_rk__x_rebased);
      int64_t  const _756 = (int64_t)(_746);
      int64_t  const _757 = _755 + _756;
      int64_t  const _758 = _757 * int64_t(32);
      int64_t  const _759 = _758 + int64_t(16);
      float16  const _760 = float16_ops::load(_masked, _759);
      float16  const _761 = float16_ops::max(_754, _760);
      float16_ops::store(_761, _row_max, int64_t(16));
     } // for _row_max_s1_rk__x_rebased
     int32_t  const _762 = ::halide_cpp_max(_84, 0);
     int32_t  const _763 = ::halide_cpp_min(_attn_kv_hi, _attn_lk);
     int32_t  const _764 = _763 + 7;
     int32_t  const _765 = _764 >> 3;
     int32_t  const _766 = _attn_lq + -1;
     int32_t  const _767 = _766 >> 5;
     int32_t  const _768 = _attn_q_step * 31;
     int32_t  const _769 = _768 + _attn_q0;
     int32_t  const _770 = _769 >> 5;
     int32_t  const _771 = _770 + _attn_tile;
     int32_t  const _772 = ::halide_cpp_min(_767, _771);
     int32_t  const _773 = _attn_q0 >> 5;
     int32_t  const _774 = _773 + _attn_tile;
     int32_t  const _775 = ::halide_cpp_max(_772, _774);
     int32_t  const _776 = _775 * 4;
     int32_t  const _777 = _776 + 4;
     int32_t  const _778 = ::halide_cpp_min(_765, _777);
     int32_t  const _779 = _778 * 8;
     int32_t  const _780 = ::halide_cpp_min(_779, _attn_lk);
     int32_t  const _781 = _attn_chunk_lo >> 3;
     int32_t  const _782 = _781 * 8;
     int32_t  const _783 = ::halide_cpp_min(_780, _782);
     int32_t  const _784 = _attn_kv_lo >> 3;
     int32_t  const _785 = ::halide_cpp_max(_784, 0);
     int32_t  const _786 = _785 * 8;
     int32_t  const _787 = ::halide_cpp_min(_786, _attn_lk);
     int32_t  const _788 = ::halide_cpp_max(_783, _787);
     int32_t  const _789 = ::halide_cpp_min(_788, _92);
     int32_t  const _790 = ::halide_cpp_min(_762, _789);
     int32_t  const _791 = ::halide_cpp_min(_790, _98);
     int32_t  const _792 = ::halide_cpp_min(_88, 1024);
     int32_t  const _793 = _792 >> 6;
     int32_t  const _794 = _793 * 64;
     int32_t  const _795 = _794 + _788;
     int32_t  const _796 = ::halide_cpp_max(_795, _87);
     int32_t  const _797 = ::halide_cpp_max(_796, _96);
     int32_t  const _798 = ::halide_cpp_min(_92, _788);
     int32_t  const _799 = ::halide_cpp_min(_762, _798);
     int32_t  const _800 = ::halide_cpp_min(_799, _98);
     int32_t  const _801 = _797 - _800;
     {
      int64_t  const _802 = _801;
      int64_t  const _803 = _802 * 32;
      if ((_803 > ((int64_t(1) << 31) - 1)) || ((_803 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
      {
       attn_causal64_rt_error(_ucon, "32-bit signed overflow computing size of allocation probs\n");
       return -1;
      } // overflow test probs
      int64_t  const _804 = _803;
      float *_probs = (float  *)attn_causal64_rt_malloc(_ucon, sizeof(float )*_804);
      if (!_probs)
      {
       int32_t  const _805 = attn_causal64_rt_error_out_of_memory(_ucon);
       return _805;
      }
      HalideFreeHelper _probs_free(_ucon, _probs, attn_causal64_rt_free);
      // produce probs
      // consume row_max
      // consume masked
      int32_t  const _806 = _98 - _791;
      int32_t  const _807 = _98 - _100;
      int32_t  const _808 = _96 - _98;
      for (int _probs_s0_j_rebased = 0; _probs_s0_j_rebased < 0 + _808; _probs_s0_j_rebased++)
      {
       float16  const _809 = float16_ops::load(_row_max, int64_t(0));
       int64_t  const _810 = (int64_t)(_probs_s0_j_rebased);
       int64_t  const _811 = (int64_t)(_807);
       int64_t  const _812 = _810 + _811;
       int64_t  const _813 = _812 * int64_t(32);
       float16  const _814 = float16_ops::load(_masked, _813);
       float  const _815 = float_from_bits(0 /* 0 */);
       float16  const _816 = float16_ops::broadcast(_815);
       float16  const _817 = float16_ops::broadcast(neg_inf_f32());
       uint8x16_t  const _818 = float16_ops::eq(_809, _817);
       float16  const _819 = float16_ops::select(_818, _816, _809);
       float16  const _820 = _814 - _819;
       float16  const _821 = float16_ops::min(_820, _816);
       float  const _822 = float_from_bits(3271426048 /* -127 */);
       float16  const _823 = float16_ops::broadcast(_822);
       float16  const _824 = float16_ops::max(_821, _823);
       float  const _825 = float_from_bits(1124007936 /* 127.5 */);
       float16  const _826 = float16_ops::broadcast(_825);
       float16  const _827 = _824 + _826;
       int32x16_t  const _828 = int32x16_t_ops::convert_from<float16>(_827);
       int32x16_t  const _829 = int32x16_t_ops::broadcast(-127);
       int32x16_t  const _830 = _828 + _829;
       float16  const _831 = float16_ops::convert_from<int32x16_t>(_830);
       float16  const _832 = _824 - _831;
       uint32_t  const _833 = (uint32_t)(23ull);
       uint32x16_t  const _834 = uint32x16_t_ops::broadcast(_833);
       int32x16_t  const _835 = _828 << _834;
       float16  const _836 = reinterpret<float16>(_835);
       float  const _837 = float_from_bits(958452607 /* 0.000153376 */);
       float16  const _838 = float16_ops::broadcast(_837);
       float16  const _839 = _832 * _838;
       float  const _840 = float_from_bits(984588920 /* 0.00133999 */);
       float16  const _841 = float16_ops::broadcast(_840);
       float16  const _842 = _839 + _841;
       float16  const _843 = _842 * _832;
       float  const _844 = float_from_bits(1008572159 /* 0.00961852 */);
       float16  const _845 = float16_ops::broadcast(_844);
       float16  const _846 = _843 + _845;
       float16  const _847 = _846 * _832;
       float  const _848 = float_from_bits(1029920619 /* 0.0555033 */);
       float16  const _849 = float16_ops::broadcast(_848);
       float16  const _850 = _847 + _849;
       float16  const _851 = _850 * _832;
       float  const _852 = float_from_bits(1047920109 /* 0.240226 */);
       float16  const _853 = float16_ops::broadcast(_852);
       float16  const _854 = _851 + _853;
       float16  const _855 = _854 * _832;
       float  const _856 = float_from_bits(1060205080 /* 0.693147 */);
       float16  const _857 = float16_ops::broadcast(_856);
       float16  const _858 = _855 + _857;
       float16  const _859 = _858 * _832;
       float  const _860 = float_from_bits(1065353216 /* 1 */);
       float16  const _861 = float16_ops::broadcast(_860);
       float16  const _862 = _859 + _861;
       float16  const _863 = _836 * _862;
       int32x16_t  const _864 = reinterpret<int32x16_t>(_863);
       int32x16_t  const _865 = int32x16_t_ops::broadcast(-1);
       int32x16_t  const _866 = int32x16_t_ops::broadcast(0);
       int32x16_t  const _867 = int32x16_t_ops::broadcast(2139095040);
       int32x16_t  const _868 = reinterpret<int32x16_t>(_820);
       int32x16_t  const _869 = int32x16_t_ops::broadcast(2147483647);
       int32x16_t  const _870 = _868 & _869;
       uint8x16_t  const _871 = int32x16_t_ops::lt(_867, _870);
       int32x16_t  const _872 = int32x16_t_ops::select(_871, _865, _866);
       int32x16_t  const _873 = int32x16_t_ops::broadcast(2143289344);
       int32x16_t  const _874 = _872 & _873;
       int32x16_t  const _875 = _864 | _874;
       float16  const _876 = reinterpret<float16>(_875);
       int64_t  const _877 = (int64_t)(_806);
       int64_t  const _878 = _810 + _877;
       int64_t  const _879 = _878 * int64_t(32);
       float16_ops::store(_876, _probs, _879);
       float16  const _880 = float16_ops::load(_row_max, int64_t(16));
       int64_t  const _881 = (int64_t)(_probs_s0_j_rebased);
       int64_t  const _882 = (int64_t)(_807);
       int64_t  const _883 = _881 + _882;
       int64_t  const _884 = _883 * int64_t(32);
       int64_t  const _885 = _884 + int64_t(16);
       float16  const _886 = float16_ops::load(_masked, _885);
       float  const _887 = float_from_bits(0 /* 0 */);
       float16  const _888 = float16_ops::broadcast(_887);
       float16  const _889 = float16_ops::broadcast(neg_inf_f32());
       uint8x16_t  const _890 = float16_ops::eq(_880, _889);
       float16  const _891 = float16_ops::select(_890, _888, _880);
       float16  const _892 = _886 - _891;
       float16  const _893 = float16_ops::min(_892, _888);
       float  const _894 = float_from_bits(3271426048 /* -127 */);
       float16  const _895 = float16_ops::broadcast(_894);
       float16  const _896 = float16_ops::max(_893, _895);
       float  const _897 = float_from_bits(1124007936 /* 127.5 */);
       float16  const _898 = float16_ops::broadcast(_897);
       float16  const _899 = _896 + _898;
       int32x16_t  const _900 = int32x16_t_ops::convert_from<float16>(_899);
       int32x16_t  const _901 = int32x16_t_ops::broadcast(-127);
       int32x16_t  const _902 = _900 + _901;
       float16  const _903 = float16_ops::convert_from<int32x16_t>(_902);
       float16  const _904 = _896 - _903;
       uint32_t  const _905 = (uint32_t)(23ull);
       uint32x16_t  const _906 = uint32x16_t_ops::broadcast(_905);
       int32x16_t  const _907 = _900 << _906;
       float16  const _908 = reinterpret<float16>(_907);
       float  const _909 = float_from_bits(958452607 /* 0.000153376 */);
       float16  const _910 = float16_ops::broadcast(_909);
       float16  const _911 = _904 * _910;
       float  const _912 = float_from_bits(984588920 /* 0.00133999 */);
       float16  const _913 = float16_ops::broadcast(_912);
       float16  const _914 = _911 + _913;
       float16  const _915 = _914 * _904;
       float  const _916 = float_from_bits(1008572159 /* 0.00961852 */);
       float16  const _917 = float16_ops::broadcast(_916);
       float16  const _918 = _915 + _917;
       float16  const _919 = _918 * _904;
       float  const _920 = float_from_bits(1029920619 /* 0.0555033 */);
       float16  const _921 = float16_ops::broadcast(_920);
       float16  const _922 = _919 + _921;
       float16  const _923 = _922 * _904;
       float  const _924 = float_from_bits(1047920109 /* 0.240226 */);
       float16  const _925 = float16_ops::broadcast(_924);
       float16  const _926 = _923 + _925;
       float16  const _927 = _926 * _904;
       float  const _928 = float_from_bits(1060205080 /* 0.693147 */);
       float16  const _929 = float16_ops::broadcast(_928);
       float16  const _930 = _927 + _929;
       float16  const _931 = _930 * _904;
       float  const _932 = float_from_bits(1065353216 /* 1 */);
       float16  const _933 = float16_ops::broadcast(_932);
       float16  const _934 = _931 + _933;
       float16  const _935 = _908 * _934;
       int32x16_t  const _936 = reinterpret<int32x16_t>(_935);
       int32x16_t  const _937 = int32x16_t_ops::broadcast(-1);
       int32x16_t  const _938 = int32x16_t_ops::broadcast(0);
       int32x16_t  const _939 = int32x16_t_ops::broadcast(2139095040);
       int32x16_t  const _940 = reinterpret<int32x16_t>(_892);
       int32x16_t  const _941 = int32x16_t_ops::broadcast(2147483647);
       int32x16_t  const _942 = _940 & _941;
       uint8x16_t  const _943 = int32x16_t_ops::lt(_939, _942);
       int32x16_t  const _944 = int32x16_t_ops::select(_943, _937, _938);
       int32x16_t  const _945 = int32x16_t_ops::broadcast(2143289344);
       int32x16_t  const _946 = _944 & _945;
       int32x16_t  const _947 = _936 | _946;
       float16  const _948 = reinterpret<float16>(_947);
       int64_t  const _949 = (int64_t)(_806);
       int64_t  const _950 = _881 + _949;
       int64_t  const _951 = _950 * int64_t(32);
       int64_t  const _952 = _951 + int64_t(16);
       float16_ops::store(_948, _probs, _952);
      } // for _probs_s0_j_rebased
      _masked_free.free();
      {
       float _pv_blocks[2048];
       // produce pv_blocks
       for (int _pv_blocks_s0_ii = 0; _pv_blocks_s0_ii < 0 + 32; _pv_blocks_s0_ii++)
       {
        int32_t  const _953 = _pv_blocks_s0_ii * 4;
        for (int _pv_blocks_s0_c_c = 0; _pv_blocks_s0_c_c < 0 + 4; _pv_blocks_s0_c_c++)
        {
         float  const _954 = float_from_bits(0 /* 0 */);
         float16  const _955 = float16_ops::broadcast(_954);
         int64_t  const _956 = (int64_t)(_pv_blocks_s0_c_c);
         int64_t  const _957 = (int64_t)(_953);
         int64_t  const _958 = _956 + _957;
         int64_t  const _959 = _958 * int64_t(16);
         float16_ops::store(_955, _pv_blocks, _959);
        } // for _pv_blocks_s0_c_c
       } // for _pv_blocks_s0_ii
       // consume probs
       int32_t  const _960 = ::halide_cpp_min(_attn_kv_hi, _attn_lk);
       int32_t  const _961 = _960 + 7;
       int32_t  const _962 = _961 >> 3;
       int32_t  const _963 = _attn_lq + -1;
       int32_t  const _964 = _963 >> 5;
       int32_t  const _965 = _attn_q_step * 31;
       int32_t  const _966 = _965 + _attn_q0;
       int32_t  const _967 = _966 >> 5;
       int32_t  const _968 = _967 + _attn_tile;
       int32_t  const _969 = ::halide_cpp_min(_964, _968);
       int32_t  const _970 = _attn_q0 >> 5;
       int32_t  const _971 = _970 + _attn_tile;
       int32_t  const _972 = ::halide_cpp_max(_969, _971);
       int32_t  const _973 = _972 * 4;
       int32_t  const _974 = _973 + 4;
       int32_t  const _975 = ::halide_cpp_min(_962, _974);
       int32_t  const _976 = _975 * 8;
       int32_t  const _977 = ::halide_cpp_min(_976, _attn_lk);
       int32_t  const _978 = _attn_chunk_lo >> 3;
       int32_t  const _979 = _978 * 8;
       int32_t  const _980 = ::halide_cpp_min(_977, _979);
       int32_t  const _981 = _attn_kv_lo >> 3;
       int32_t  const _982 = ::halide_cpp_max(_981, 0);
       int32_t  const _983 = _982 * 8;
       int32_t  const _984 = ::halide_cpp_min(_983, _attn_lk);
       int32_t  const _985 = ::halide_cpp_max(_980, _984);
       int32_t  const _986 = ::halide_cpp_min(_88, 1024);
       int32_t  const _987 = _986 >> 6;
       for (int _pv_blocks_s1_rkb__x = 0; _pv_blocks_s1_rkb__x < 0 + _987; _pv_blocks_s1_rkb__x++)
       {
        int32_t  const _988 = _pv_blocks_s1_rkb__x * 64;
        int32_t  const _989 = _988 + _985;
        for (int _pv_blocks_s1_ii_ig = 0; _pv_blocks_s1_ii_ig < 0 + 8; _pv_blocks_s1_ii_ig++)
        {
         {
          float _pv_block[256];
          // produce pv_block
          float  const _990 = float_from_bits(0 /* 0 */);
          float16  const _991 = float16_ops::broadcast(_990);
          float16_ops::store(_991, _pv_block, int64_t(0));
          float  const _992 = float_from_bits(0 /* 0 */);
          float16  const _993 = float16_ops::broadcast(_992);
          float16_ops::store(_993, _pv_block, int64_t(16));
          float  const _994 = float_from_bits(0 /* 0 */);
          float16  const _995 = float16_ops::broadcast(_994);
          float16_ops::store(_995, _pv_block, int64_t(32));
          float  const _996 = float_from_bits(0 /* 0 */);
          float16  const _997 = float16_ops::broadcast(_996);
          float16_ops::store(_997, _pv_block, int64_t(48));
          float  const _998 = float_from_bits(0 /* 0 */);
          float16  const _999 = float16_ops::broadcast(_998);
          float16_ops::store(_999, _pv_block, int64_t(64));
          float  const _1000 = float_from_bits(0 /* 0 */);
          float16  const _1001 = float16_ops::broadcast(_1000);
          float16_ops::store(_1001, _pv_block, int64_t(80));
          float  const _1002 = float_from_bits(0 /* 0 */);
          float16  const _1003 = float16_ops::broadcast(_1002);
          float16_ops::store(_1003, _pv_block, int64_t(96));
          float  const _1004 = float_from_bits(0 /* 0 */);
          float16  const _1005 = float16_ops::broadcast(_1004);
          float16_ops::store(_1005, _pv_block, int64_t(112));
          float  const _1006 = float_from_bits(0 /* 0 */);
          float16  const _1007 = float16_ops::broadcast(_1006);
          float16_ops::store(_1007, _pv_block, int64_t(128));
          float  const _1008 = float_from_bits(0 /* 0 */);
          float16  const _1009 = float16_ops::broadcast(_1008);
          float16_ops::store(_1009, _pv_block, int64_t(144));
          float  const _1010 = float_from_bits(0 /* 0 */);
          float16  const _1011 = float16_ops::broadcast(_1010);
          float16_ops::store(_1011, _pv_block, int64_t(160));
          float  const _1012 = float_from_bits(0 /* 0 */);
          float16  const _1013 = float16_ops::broadcast(_1012);
          float16_ops::store(_1013, _pv_block, int64_t(176));
          float  const _1014 = float_from_bits(0 /* 0 */);
          float16  const _1015 = float16_ops::broadcast(_1014);
          float16_ops::store(_1015, _pv_block, int64_t(192));
          float  const _1016 = float_from_bits(0 /* 0 */);
          float16  const _1017 = float16_ops::broadcast(_1016);
          float16_ops::store(_1017, _pv_block, int64_t(208));
          float  const _1018 = float_from_bits(0 /* 0 */);
          float16  const _1019 = float16_ops::broadcast(_1018);
          float16_ops::store(_1019, _pv_block, int64_t(224));
          float  const _1020 = float_from_bits(0 /* 0 */);
          float16  const _1021 = float16_ops::broadcast(_1020);
          float16_ops::store(_1021, _pv_block, int64_t(240));
          int32_t  const _1022 = _989 - _791;
          for (int _pv_block_s1_rki__x = 0; _pv_block_s1_rki__x < 0 + 64; _pv_block_s1_rki__x++)
          {
           float16  const _1023 = float16_ops::load(_pv_block, int64_t(0));
           int64_t  const _1024 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1025 = (int64_t)(_989);
           int64_t  const _1026 = _1024 + _1025;
           int64_t  const _1027 = _1026 * int64_t(64);
           float16  const _1028 = float16_ops::load(_attn_v, _1027);
           int64_t  const _1029 = (int64_t)(_1022);
           int64_t  const _1030 = _1024 + _1029;
           int64_t  const _1031 = _1030 * int64_t(8);
           int64_t  const _1032 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1033 = _1031 + _1032;
           int64_t  const _1034 = _1033 * int64_t(4);
           float  const _1035 = _probs[_1034];
           float16  const _1036 = float16_ops::broadcast(_1035);
           float16  const _1037 = _1028 * _1036;
           float16  const _1038 = _1023 + _1037;
           float16_ops::store(_1038, _pv_block, int64_t(0));
           float16  const _1039 = float16_ops::load(_pv_block, int64_t(16));
           int64_t  const _1040 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1041 = (int64_t)(_989);
           int64_t  const _1042 = _1040 + _1041;
           int64_t  const _1043 = _1042 * int64_t(64);
           int64_t  const _1044 = _1043 + int64_t(16);
           float16  const _1045 = float16_ops::load(_attn_v, _1044);
           int64_t  const _1046 = (int64_t)(_1022);
           int64_t  const _1047 = _1040 + _1046;
           int64_t  const _1048 = _1047 * int64_t(8);
           int64_t  const _1049 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1050 = _1048 + _1049;
           int64_t  const _1051 = _1050 * int64_t(4);
           float  const _1052 = _probs[_1051];
           float16  const _1053 = float16_ops::broadcast(_1052);
           float16  const _1054 = _1045 * _1053;
           float16  const _1055 = _1039 + _1054;
           float16_ops::store(_1055, _pv_block, int64_t(16));
           float16  const _1056 = float16_ops::load(_pv_block, int64_t(32));
           int64_t  const _1057 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1058 = (int64_t)(_989);
           int64_t  const _1059 = _1057 + _1058;
           int64_t  const _1060 = _1059 * int64_t(64);
           int64_t  const _1061 = _1060 + int64_t(32);
           float16  const _1062 = float16_ops::load(_attn_v, _1061);
           int64_t  const _1063 = (int64_t)(_1022);
           int64_t  const _1064 = _1057 + _1063;
           int64_t  const _1065 = _1064 * int64_t(8);
           int64_t  const _1066 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1067 = _1065 + _1066;
           int64_t  const _1068 = _1067 * int64_t(4);
           float  const _1069 = _probs[_1068];
           float16  const _1070 = float16_ops::broadcast(_1069);
           float16  const _1071 = _1062 * _1070;
           float16  const _1072 = _1056 + _1071;
           float16_ops::store(_1072, _pv_block, int64_t(32));
           float16  const _1073 = float16_ops::load(_pv_block, int64_t(48));
           int64_t  const _1074 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1075 = (int64_t)(_989);
           int64_t  const _1076 = _1074 + _1075;
           int64_t  const _1077 = _1076 * int64_t(64);
           int64_t  const _1078 = _1077 + int64_t(48);
           float16  const _1079 = float16_ops::load(_attn_v, _1078);
           int64_t  const _1080 = (int64_t)(_1022);
           int64_t  const _1081 = _1074 + _1080;
           int64_t  const _1082 = _1081 * int64_t(8);
           int64_t  const _1083 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1084 = _1082 + _1083;
           int64_t  const _1085 = _1084 * int64_t(4);
           float  const _1086 = _probs[_1085];
           float16  const _1087 = float16_ops::broadcast(_1086);
           float16  const _1088 = _1079 * _1087;
           float16  const _1089 = _1073 + _1088;
           float16_ops::store(_1089, _pv_block, int64_t(48));
           float16  const _1090 = float16_ops::load(_pv_block, int64_t(64));
           int64_t  const _1091 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1092 = (int64_t)(_989);
           int64_t  const _1093 = _1091 + _1092;
           int64_t  const _1094 = _1093 * int64_t(64);
           float16  const _1095 = float16_ops::load(_attn_v, _1094);
           int64_t  const _1096 = (int64_t)(_1022);
           int64_t  const _1097 = _1091 + _1096;
           int64_t  const _1098 = _1097 * int64_t(8);
           int64_t  const _1099 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1100 = _1098 + _1099;
           int64_t  const _1101 = _1100 * int64_t(4);
           int64_t  const _1102 = _1101 + int64_t(1);
           float  const _1103 = _probs[_1102];
           float16  const _1104 = float16_ops::broadcast(_1103);
           float16  const _1105 = _1095 * _1104;
           float16  const _1106 = _1090 + _1105;
           float16_ops::store(_1106, _pv_block, int64_t(64));
           float16  const _1107 = float16_ops::load(_pv_block, int64_t(80));
           int64_t  const _1108 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1109 = (int64_t)(_989);
           int64_t  const _1110 = _1108 + _1109;
           int64_t  const _1111 = _1110 * int64_t(64);
           int64_t  const _1112 = _1111 + int64_t(16);
           float16  const _1113 = float16_ops::load(_attn_v, _1112);
           int64_t  const _1114 = (int64_t)(_1022);
           int64_t  const _1115 = _1108 + _1114;
           int64_t  const _1116 = _1115 * int64_t(8);
           int64_t  const _1117 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1118 = _1116 + _1117;
           int64_t  const _1119 = _1118 * int64_t(4);
           int64_t  const _1120 = _1119 + int64_t(1);
           float  const _1121 = _probs[_1120];
           float16  const _1122 = float16_ops::broadcast(_1121);
           float16  const _1123 = _1113 * _1122;
           float16  const _1124 = _1107 + _1123;
           float16_ops::store(_1124, _pv_block, int64_t(80));
           float16  const _1125 = float16_ops::load(_pv_block, int64_t(96));
           int64_t  const _1126 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1127 = (int64_t)(_989);
           int64_t  const _1128 = _1126 + _1127;
           int64_t  const _1129 = _1128 * int64_t(64);
           int64_t  const _1130 = _1129 + int64_t(32);
           float16  const _1131 = float16_ops::load(_attn_v, _1130);
           int64_t  const _1132 = (int64_t)(_1022);
           int64_t  const _1133 = _1126 + _1132;
           int64_t  const _1134 = _1133 * int64_t(8);
           int64_t  const _1135 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1136 = _1134 + _1135;
           int64_t  const _1137 = _1136 * int64_t(4);
           int64_t  const _1138 = _1137 + int64_t(1);
           float  const _1139 = _probs[_1138];
           float16  const _1140 = float16_ops::broadcast(_1139);
           float16  const _1141 = _1131 * _1140;
           float16  const _1142 = _1125 + _1141;
           float16_ops::store(_1142, _pv_block, int64_t(96));
           float16  const _1143 = float16_ops::load(_pv_block, int64_t(112));
           int64_t  const _1144 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1145 = (int64_t)(_989);
           int64_t  const _1146 = _1144 + _1145;
           int64_t  const _1147 = _1146 * int64_t(64);
           int64_t  const _1148 = _1147 + int64_t(48);
           float16  const _1149 = float16_ops::load(_attn_v, _1148);
           int64_t  const _1150 = (int64_t)(_1022);
           int64_t  const _1151 = _1144 + _1150;
           int64_t  const _1152 = _1151 * int64_t(8);
           int64_t  const _1153 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1154 = _1152 + _1153;
           int64_t  const _1155 = _1154 * int64_t(4);
           int64_t  const _1156 = _1155 + int64_t(1);
           float  const _1157 = _probs[_1156];
           float16  const _1158 = float16_ops::broadcast(_1157);
           float16  const _1159 = _1149 * _1158;
           float16  const _1160 = _1143 + _1159;
           float16_ops::store(_1160, _pv_block, int64_t(112));
           float16  const _1161 = float16_ops::load(_pv_block, int64_t(128));
           int64_t  const _1162 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1163 = (int64_t)(_989);
           int64_t  const _1164 = _1162 + _1163;
           int64_t  const _1165 = _1164 * int64_t(64);
           float16  const _1166 = float16_ops::load(_attn_v, _1165);
           int64_t  const _1167 = (int64_t)(_1022);
           int64_t  const _1168 = _1162 + _1167;
           int64_t  const _1169 = _1168 * int64_t(8);
           int64_t  const _1170 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1171 = _1169 + _1170;
           int64_t  const _1172 = _1171 * int64_t(4);
           int64_t  const _1173 = _1172 + int64_t(2);
           float  const _1174 = _probs[_1173];
           float16  const _1175 = float16_ops::broadcast(_1174);
           float16  const _1176 = _1166 * _1175;
           float16  const _1177 = _1161 + _1176;
           float16_ops::store(_1177, _pv_block, int64_t(128));
           float16  const _1178 = float16_ops::load(_pv_block, int64_t(144));
           int64_t  const _1179 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1180 = (int64_t)(_989);
           int64_t  const _1181 = _1179 + _1180;
           int64_t  const _1182 = _1181 * int64_t(64);
           int64_t  const _1183 = _1182 + int64_t(16);
           float16  const _1184 = float16_ops::load(_attn_v, _1183);
           int64_t  const _1185 = (int64_t)(_1022);
           int64_t  const _1186 = _1179 + _1185;
           int64_t  const _1187 = _1186 * int64_t(8);
           int64_t  const _1188 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1189 = _1187 + _1188;
           int64_t  const _1190 = _1189 * int64_t(4);
           int64_t  const _1191 = _1190 + int64_t(2);
           float  const _1192 = _probs[_1191];
           float16  const _1193 = float16_ops::broadcast(_1192);
           float16  const _1194 = _1184 * _1193;
           float16  const _1195 = _1178 + _1194;
           float16_ops::store(_1195, _pv_block, int64_t(144));
           float16  const _1196 = float16_ops::load(_pv_block, int64_t(160));
           int64_t  const _1197 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1198 = (int64_t)(_989);
           int64_t  const _1199 = _1197 + _1198;
           int64_t  const _1200 = _1199 * int64_t(64);
           int64_t  const _1201 = _1200 + int64_t(32);
           float16  const _1202 = float16_ops::load(_attn_v, _1201);
           int64_t  const _1203 = (int64_t)(_1022);
           int64_t  const _1204 = _1197 + _1203;
           int64_t  const _1205 = _1204 * int64_t(8);
           int64_t  const _1206 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1207 = _1205 + _1206;
           int64_t  const _1208 = _1207 * int64_t(4);
           int64_t  const _1209 = _1208 + int64_t(2);
           float  const _1210 = _probs[_1209];
           float16  const _1211 = float16_ops::broadcast(_1210);
           float16  const _1212 = _1202 * _1211;
           float16  const _1213 = _1196 + _1212;
           float16_ops::store(_1213, _pv_block, int64_t(160));
           float16  const _1214 = float16_ops::load(_pv_block, int64_t(176));
           int64_t  const _1215 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1216 = (int64_t)(_989);
           int64_t  const _1217 = _1215 + _1216;
           int64_t  const _1218 = _1217 * int64_t(64);
           int64_t  const _1219 = _1218 + int64_t(48);
           float16  const _1220 = float16_ops::load(_attn_v, _1219);
           int64_t  const _1221 = (int64_t)(_1022);
           int64_t  const _1222 = _1215 + _1221;
           int64_t  const _1223 = _1222 * int64_t(8);
           int64_t  const _1224 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1225 = _1223 + _1224;
           int64_t  const _1226 = _1225 * int64_t(4);
           int64_t  const _1227 = _1226 + int64_t(2);
           float  const _1228 = _probs[_1227];
           float16  const _1229 = float16_ops::broadcast(_1228);
           float16  const _1230 = _1220 * _1229;
           float16  const _1231 = _1214 + _1230;
           float16_ops::store(_1231, _pv_block, int64_t(176));
           float16  const _1232 = float16_ops::load(_pv_block, int64_t(192));
           int64_t  const _1233 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1234 = (int64_t)(_989);
           int64_t  const _1235 = _1233 + _1234;
           int64_t  const _1236 = _1235 * int64_t(64);
           float16  const _1237 = float16_ops::load(_attn_v, _1236);
           int64_t  const _1238 = (int64_t)(_1022);
           int64_t  const _1239 = _1233 + _1238;
           int64_t  const _1240 = _1239 * int64_t(8);
           int64_t  const _1241 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1242 = _1240 + _1241;
           int64_t  const _1243 = _1242 * int64_t(4);
           int64_t  const _1244 = _1243 + int64_t(3);
           float  const _1245 = _probs[_1244];
           float16  const _1246 = float16_ops::broadcast(_1245);
           float16  const _1247 = _1237 * _1246;
           float16  const _1248 = _1232 + _1247;
           float16_ops::store(_1248, _pv_block, int64_t(192));
           float16  const _1249 = float16_ops::load(_pv_block, int64_t(208));
           int64_t  const _1250 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1251 = (int64_t)(_989);
           int64_t  const _1252 = _1250 + _1251;
           int64_t  const _1253 = _1252 * int64_t(64);
           int64_t  const _1254 = _1253 + int64_t(16);
           float16  const _1255 = float16_ops::load(_attn_v, _1254);
           int64_t  const _1256 = (int64_t)(_1022);
           int64_t  const _1257 = _1250 + _1256;
           int64_t  const _1258 = _1257 * int64_t(8);
           int64_t  const _1259 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1260 = _1258 + _1259;
           int64_t  const _1261 = _1260 * int64_t(4);
           int64_t  const _1262 = _1261 + int64_t(3);
           float  const _1263 = _probs[_1262];
           float16  const _1264 = float16_ops::broadcast(_1263);
           float16  const _1265 = _1255 * _1264;
           float16  const _1266 = _1249 + _1265;
           float16_ops::store(_1266, _pv_block, int64_t(208));
           float16  const _1267 = float16_ops::load(_pv_block, int64_t(224));
           int64_t  const _1268 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1269 = (int64_t)(_989);
           int64_t  const _1270 = _1268 + _1269;
           int64_t  const _1271 = _1270 * int64_t(64);
           int64_t  const _1272 = _1271 + int64_t(32);
           float16  const _1273 = float16_ops::load(_attn_v, _1272);
           int64_t  const _1274 = (int64_t)(_1022);
           int64_t  const _1275 = _1268 + _1274;
           int64_t  const _1276 = _1275 * int64_t(8);
           int64_t  const _1277 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1278 = _1276 + _1277;
           int64_t  const _1279 = _1278 * int64_t(4);
           int64_t  const _1280 = _1279 + int64_t(3);
           float  const _1281 = _probs[_1280];
           float16  const _1282 = float16_ops::broadcast(_1281);
           float16  const _1283 = _1273 * _1282;
           float16  const _1284 = _1267 + _1283;
           float16_ops::store(_1284, _pv_block, int64_t(224));
           float16  const _1285 = float16_ops::load(_pv_block, int64_t(240));
           int64_t  const _1286 = (int64_t)(_pv_block_s1_rki__x);
           int64_t  const _1287 = (int64_t)(_989);
           int64_t  const _1288 = _1286 + _1287;
           int64_t  const _1289 = _1288 * int64_t(64);
           int64_t  const _1290 = _1289 + int64_t(48);
           float16  const _1291 = float16_ops::load(_attn_v, _1290);
           int64_t  const _1292 = (int64_t)(_1022);
           int64_t  const _1293 = _1286 + _1292;
           int64_t  const _1294 = _1293 * int64_t(8);
           int64_t  const _1295 = (int64_t)(_pv_blocks_s1_ii_ig);
           int64_t  const _1296 = _1294 + _1295;
           int64_t  const _1297 = _1296 * int64_t(4);
           int64_t  const _1298 = _1297 + int64_t(3);
           float  const _1299 = _probs[_1298];
           float16  const _1300 = float16_ops::broadcast(_1299);
           float16  const _1301 = _1291 * _1300;
           float16  const _1302 = _1285 + _1301;
           float16_ops::store(_1302, _pv_block, int64_t(240));
          } // for _pv_block_s1_rki__x
          // consume pv_block
          int64_t  const _1303 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1304 = _1303 * int64_t(256);
          float16  const _1305 = float16_ops::load(_pv_blocks, _1304);
          float16  const _1306 = float16_ops::load(_pv_block, int64_t(0));
          float16  const _1307 = _1305 + _1306;
          float16_ops::store(_1307, _pv_blocks, _1304);
          int64_t  const _1308 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1309 = _1308 * int64_t(256);
          int64_t  const _1310 = _1309 + int64_t(16);
          float16  const _1311 = float16_ops::load(_pv_blocks, _1310);
          float16  const _1312 = float16_ops::load(_pv_block, int64_t(16));
          float16  const _1313 = _1311 + _1312;
          float16_ops::store(_1313, _pv_blocks, _1310);
          int64_t  const _1314 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1315 = _1314 * int64_t(256);
          int64_t  const _1316 = _1315 + int64_t(32);
          float16  const _1317 = float16_ops::load(_pv_blocks, _1316);
          float16  const _1318 = float16_ops::load(_pv_block, int64_t(32));
          float16  const _1319 = _1317 + _1318;
          float16_ops::store(_1319, _pv_blocks, _1316);
          int64_t  const _1320 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1321 = _1320 * int64_t(256);
          int64_t  const _1322 = _1321 + int64_t(48);
          float16  const _1323 = float16_ops::load(_pv_blocks, _1322);
          float16  const _1324 = float16_ops::load(_pv_block, int64_t(48));
          float16  const _1325 = _1323 + _1324;
          float16_ops::store(_1325, _pv_blocks, _1322);
          int64_t  const _1326 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1327 = _1326 * int64_t(256);
          int64_t  const _1328 = _1327 + int64_t(64);
          float16  const _1329 = float16_ops::load(_pv_blocks, _1328);
          float16  const _1330 = float16_ops::load(_pv_block, int64_t(64));
          float16  const _1331 = _1329 + _1330;
          float16_ops::store(_1331, _pv_blocks, _1328);
          int64_t  const _1332 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1333 = _1332 * int64_t(256);
          int64_t  const _1334 = _1333 + int64_t(80);
          float16  const _1335 = float16_ops::load(_pv_blocks, _1334);
          float16  const _1336 = float16_ops::load(_pv_block, int64_t(80));
          float16  const _1337 = _1335 + _1336;
          float16_ops::store(_1337, _pv_blocks, _1334);
          int64_t  const _1338 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1339 = _1338 * int64_t(256);
          int64_t  const _1340 = _1339 + int64_t(96);
          float16  const _1341 = float16_ops::load(_pv_blocks, _1340);
          float16  const _1342 = float16_ops::load(_pv_block, int64_t(96));
          float16  const _1343 = _1341 + _1342;
          float16_ops::store(_1343, _pv_blocks, _1340);
          int64_t  const _1344 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1345 = _1344 * int64_t(256);
          int64_t  const _1346 = _1345 + int64_t(112);
          float16  const _1347 = float16_ops::load(_pv_blocks, _1346);
          float16  const _1348 = float16_ops::load(_pv_block, int64_t(112));
          float16  const _1349 = _1347 + _1348;
          float16_ops::store(_1349, _pv_blocks, _1346);
          int64_t  const _1350 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1351 = _1350 * int64_t(256);
          int64_t  const _1352 = _1351 + int64_t(128);
          float16  const _1353 = float16_ops::load(_pv_blocks, _1352);
          float16  const _1354 = float16_ops::load(_pv_block, int64_t(128));
          float16  const _1355 = _1353 + _1354;
          float16_ops::store(_1355, _pv_blocks, _1352);
          int64_t  const _1356 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1357 = _1356 * int64_t(256);
          int64_t  const _1358 = _1357 + int64_t(144);
          float16  const _1359 = float16_ops::load(_pv_blocks, _1358);
          float16  const _1360 = float16_ops::load(_pv_block, int64_t(144));
          float16  const _1361 = _1359 + _1360;
          float16_ops::store(_1361, _pv_blocks, _1358);
          int64_t  const _1362 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1363 = _1362 * int64_t(256);
          int64_t  const _1364 = _1363 + int64_t(160);
          float16  const _1365 = float16_ops::load(_pv_blocks, _1364);
          float16  const _1366 = float16_ops::load(_pv_block, int64_t(160));
          float16  const _1367 = _1365 + _1366;
          float16_ops::store(_1367, _pv_blocks, _1364);
          int64_t  const _1368 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1369 = _1368 * int64_t(256);
          int64_t  const _1370 = _1369 + int64_t(176);
          float16  const _1371 = float16_ops::load(_pv_blocks, _1370);
          float16  const _1372 = float16_ops::load(_pv_block, int64_t(176));
          float16  const _1373 = _1371 + _1372;
          float16_ops::store(_1373, _pv_blocks, _1370);
          int64_t  const _1374 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1375 = _1374 * int64_t(256);
          int64_t  const _1376 = _1375 + int64_t(192);
          float16  const _1377 = float16_ops::load(_pv_blocks, _1376);
          float16  const _1378 = float16_ops::load(_pv_block, int64_t(192));
          float16  const _1379 = _1377 + _1378;
          float16_ops::store(_1379, _pv_blocks, _1376);
          int64_t  const _1380 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1381 = _1380 * int64_t(256);
          int64_t  const _1382 = _1381 + int64_t(208);
          float16  const _1383 = float16_ops::load(_pv_blocks, _1382);
          float16  const _1384 = float16_ops::load(_pv_block, int64_t(208));
          float16  const _1385 = _1383 + _1384;
          float16_ops::store(_1385, _pv_blocks, _1382);
          int64_t  const _1386 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1387 = _1386 * int64_t(256);
          int64_t  const _1388 = _1387 + int64_t(224);
          float16  const _1389 = float16_ops::load(_pv_blocks, _1388);
          float16  const _1390 = float16_ops::load(_pv_block, int64_t(224));
          float16  const _1391 = _1389 + _1390;
          float16_ops::store(_1391, _pv_blocks, _1388);
          int64_t  const _1392 = (int64_t)(_pv_blocks_s1_ii_ig);
          int64_t  const _1393 = _1392 * int64_t(256);
          int64_t  const _1394 = _1393 + int64_t(240);
          float16  const _1395 = float16_ops::load(_pv_blocks, _1394);
          float16  const _1396 = float16_ops::load(_pv_block, int64_t(240));
          float16  const _1397 = _1395 + _1396;
          float16_ops::store(_1397, _pv_blocks, _1394);
         } // alloc _pv_block
        } // for _pv_blocks_s1_ii_ig
       } // for _pv_blocks_s1_rkb__x
       {
        float _pv[2048];
        // produce pv
        // consume pv_blocks
        for (int _pv_s0_ii = 0; _pv_s0_ii < 0 + 32; _pv_s0_ii++)
        {
         int32_t  const _1398 = _pv_s0_ii * 4;
         for (int _pv_s0_c_c = 0; _pv_s0_c_c < 0 + 4; _pv_s0_c_c++)
         {
          int32_t  const _1399 = _pv_s0_c_c + _1398;
          int64_t  const _1400 = (int64_t)(_1399);
          int64_t  const _1401 = _1400 * int64_t(16);
          float16  const _1402 = float16_ops::load(_pv_blocks, _1401);
          float16_ops::store(_1402, _pv, _1401);
         } // for _pv_s0_c_c
        } // for _pv_s0_ii
        // consume probs
        int32_t  const _1403 = _87 - _92;
        int32_t  const _1404 = _92 - _791;
        for (int _pv_s1_ii_ig = 0; _pv_s1_ii_ig < 0 + 8; _pv_s1_ii_ig++)
        {
         for (int _pv_s1_rkt__x_rebased = 0; _pv_s1_rkt__x_rebased < 0 + _1403; _pv_s1_rkt__x_rebased++)
         {
          int64_t  const _1405 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1406 = _1405 * int64_t(256);
          float16  const _1407 = float16_ops::load(_pv, _1406);
          int64_t  const _1408 = (int64_t)(_92);
          int64_t  const _1409 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1410 = _1408 + _1409;
          int64_t  const _1411 = _1410 * int64_t(64);
          float16  const _1412 = float16_ops::load(_attn_v, _1411);
          int64_t  const _1413 = (int64_t)(_1404);
          int64_t  const _1414 = _1409 + _1413;
          int64_t  const _1415 = _1414 * int64_t(8);
          int64_t  const _1416 = _1415 + _1405;
          int64_t  const _1417 = _1416 * int64_t(4);
          float  const _1418 = _probs[_1417];
          float16  const _1419 = float16_ops::broadcast(_1418);
          float16  const _1420 = _1412 * _1419;
          float16  const _1421 = _1407 + _1420;
          float16_ops::store(_1421, _pv, _1406);
          int64_t  const _1422 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1423 = _1422 * int64_t(256);
          int64_t  const _1424 = _1423 + int64_t(16);
          float16  const _1425 = float16_ops::load(_pv, _1424);
          int64_t  const _1426 = (int64_t)(_92);
          int64_t  const _1427 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1428 = _1426 + _1427;
          int64_t  const _1429 = _1428 * int64_t(64);
          int64_t  const _1430 = _1429 + int64_t(16);
          float16  const _1431 = float16_ops::load(_attn_v, _1430);
          int64_t  const _1432 = (int64_t)(_1404);
          int64_t  const _1433 = _1427 + _1432;
          int64_t  const _1434 = _1433 * int64_t(8);
          int64_t  const _1435 = _1434 + _1422;
          int64_t  const _1436 = _1435 * int64_t(4);
          float  const _1437 = _probs[_1436];
          float16  const _1438 = float16_ops::broadcast(_1437);
          float16  const _1439 = _1431 * _1438;
          float16  const _1440 = _1425 + _1439;
          float16_ops::store(_1440, _pv, _1424);
          int64_t  const _1441 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1442 = _1441 * int64_t(256);
          int64_t  const _1443 = _1442 + int64_t(32);
          float16  const _1444 = float16_ops::load(_pv, _1443);
          int64_t  const _1445 = (int64_t)(_92);
          int64_t  const _1446 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1447 = _1445 + _1446;
          int64_t  const _1448 = _1447 * int64_t(64);
          int64_t  const _1449 = _1448 + int64_t(32);
          float16  const _1450 = float16_ops::load(_attn_v, _1449);
          int64_t  const _1451 = (int64_t)(_1404);
          int64_t  const _1452 = _1446 + _1451;
          int64_t  const _1453 = _1452 * int64_t(8);
          int64_t  const _1454 = _1453 + _1441;
          int64_t  const _1455 = _1454 * int64_t(4);
          float  const _1456 = _probs[_1455];
          float16  const _1457 = float16_ops::broadcast(_1456);
          float16  const _1458 = _1450 * _1457;
          float16  const _1459 = _1444 + _1458;
          float16_ops::store(_1459, _pv, _1443);
          int64_t  const _1460 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1461 = _1460 * int64_t(256);
          int64_t  const _1462 = _1461 + int64_t(48);
          float16  const _1463 = float16_ops::load(_pv, _1462);
          int64_t  const _1464 = (int64_t)(_92);
          int64_t  const _1465 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1466 = _1464 + _1465;
          int64_t  const _1467 = _1466 * int64_t(64);
          int64_t  const _1468 = _1467 + int64_t(48);
          float16  const _1469 = float16_ops::load(_attn_v, _1468);
          int64_t  const _1470 = (int64_t)(_1404);
          int64_t  const _1471 = _1465 + _1470;
          int64_t  const _1472 = _1471 * int64_t(8);
          int64_t  const _1473 = _1472 + _1460;
          int64_t  const _1474 = _1473 * int64_t(4);
          float  const _1475 = _probs[_1474];
          float16  const _1476 = float16_ops::broadcast(_1475);
          float16  const _1477 = _1469 * _1476;
          float16  const _1478 = _1463 + _1477;
          float16_ops::store(_1478, _pv, _1462);
          int64_t  const _1479 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1480 = _1479 * int64_t(256);
          int64_t  const _1481 = _1480 + int64_t(64);
          float16  const _1482 = float16_ops::load(_pv, _1481);
          int64_t  const _1483 = (int64_t)(_92);
          int64_t  const _1484 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1485 = _1483 + _1484;
          int64_t  const _1486 = _1485 * int64_t(64);
          float16  const _1487 = float16_ops::load(_attn_v, _1486);
          int64_t  const _1488 = (int64_t)(_1404);
          int64_t  const _1489 = _1484 + _1488;
          int64_t  const _1490 = _1489 * int64_t(8);
          int64_t  const _1491 = _1490 + _1479;
          int64_t  const _1492 = _1491 * int64_t(4);
          int64_t  const _1493 = _1492 + int64_t(1);
          float  const _1494 = _probs[_1493];
          float16  const _1495 = float16_ops::broadcast(_1494);
          float16  const _1496 = _1487 * _1495;
          float16  const _1497 = _1482 + _1496;
          float16_ops::store(_1497, _pv, _1481);
          int64_t  const _1498 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1499 = _1498 * int64_t(256);
          int64_t  const _1500 = _1499 + int64_t(80);
          float16  const _1501 = float16_ops::load(_pv, _1500);
          int64_t  const _1502 = (int64_t)(_92);
          int64_t  const _1503 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1504 = _1502 + _1503;
          int64_t  const _1505 = _1504 * int64_t(64);
          int64_t  const _1506 = _1505 + int64_t(16);
          float16  const _1507 = float16_ops::load(_attn_v, _1506);
          int64_t  const _1508 = (int64_t)(_1404);
          int64_t  const _1509 = _1503 + _1508;
          int64_t  const _1510 = _1509 * int64_t(8);
          int64_t  const _1511 = _1510 + _1498;
          int64_t  const _1512 = _1511 * int64_t(4);
          int64_t  const _1513 = _1512 + int64_t(1);
          float  const _1514 = _probs[_1513];
          float16  const _1515 = float16_ops::broadcast(_1514);
          float16  const _1516 = _1507 * _1515;
          float16  const _1517 = _1501 + _1516;
          float16_ops::store(_1517, _pv, _1500);
          int64_t  const _1518 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1519 = _1518 * int64_t(256);
          int64_t  const _1520 = _1519 + int64_t(96);
          float16  const _1521 = float16_ops::load(_pv, _1520);
          int64_t  const _1522 = (int64_t)(_92);
          int64_t  const _1523 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1524 = _1522 + _1523;
          int64_t  const _1525 = _1524 * int64_t(64);
          int64_t  const _1526 = _1525 + int64_t(32);
          float16  const _1527 = float16_ops::load(_attn_v, _1526);
          int64_t  const _1528 = (int64_t)(_1404);
          int64_t  const _1529 = _1523 + _1528;
          int64_t  const _1530 = _1529 * int64_t(8);
          int64_t  const _1531 = _1530 + _1518;
          int64_t  const _1532 = _1531 * int64_t(4);
          int64_t  const _1533 = _1532 + int64_t(1);
          float  const _1534 = _probs[_1533];
          float16  const _1535 = float16_ops::broadcast(_1534);
          float16  const _1536 = _1527 * _1535;
          float16  const _1537 = _1521 + _1536;
          float16_ops::store(_1537, _pv, _1520);
          int64_t  const _1538 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1539 = _1538 * int64_t(256);
          int64_t  const _1540 = _1539 + int64_t(112);
          float16  const _1541 = float16_ops::load(_pv, _1540);
          int64_t  const _1542 = (int64_t)(_92);
          int64_t  const _1543 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1544 = _1542 + _1543;
          int64_t  const _1545 = _1544 * int64_t(64);
          int64_t  const _1546 = _1545 + int64_t(48);
          float16  const _1547 = float16_ops::load(_attn_v, _1546);
          int64_t  const _1548 = (int64_t)(_1404);
          int64_t  const _1549 = _1543 + _1548;
          int64_t  const _1550 = _1549 * int64_t(8);
          int64_t  const _1551 = _1550 + _1538;
          int64_t  const _1552 = _1551 * int64_t(4);
          int64_t  const _1553 = _1552 + int64_t(1);
          float  const _1554 = _probs[_1553];
          float16  const _1555 = float16_ops::broadcast(_1554);
          float16  const _1556 = _1547 * _1555;
          float16  const _1557 = _1541 + _1556;
          float16_ops::store(_1557, _pv, _1540);
          int64_t  const _1558 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1559 = _1558 * int64_t(256);
          int64_t  const _1560 = _1559 + int64_t(128);
          float16  const _1561 = float16_ops::load(_pv, _1560);
          int64_t  const _1562 = (int64_t)(_92);
          int64_t  const _1563 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1564 = _1562 + _1563;
          int64_t  const _1565 = _1564 * int64_t(64);
          float16  const _1566 = float16_ops::load(_attn_v, _1565);
          int64_t  const _1567 = (int64_t)(_1404);
          int64_t  const _1568 = _1563 + _1567;
          int64_t  const _1569 = _1568 * int64_t(8);
          int64_t  const _1570 = _1569 + _1558;
          int64_t  const _1571 = _1570 * int64_t(4);
          int64_t  const _1572 = _1571 + int64_t(2);
          float  const _1573 = _probs[_1572];
          float16  const _1574 = float16_ops::broadcast(_1573);
          float16  const _1575 = _1566 * _1574;
          float16  const _1576 = _1561 + _1575;
          float16_ops::store(_1576, _pv, _1560);
          int64_t  const _1577 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1578 = _1577 * int64_t(256);
          int64_t  const _1579 = _1578 + int64_t(144);
          float16  const _1580 = float16_ops::load(_pv, _1579);
          int64_t  const _1581 = (int64_t)(_92);
          int64_t  const _1582 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1583 = _1581 + _1582;
          int64_t  const _1584 = _1583 * int64_t(64);
          int64_t  const _1585 = _1584 + int64_t(16);
          float16  const _1586 = float16_ops::load(_attn_v, _1585);
          int64_t  const _1587 = (int64_t)(_1404);
          int64_t  const _1588 = _1582 + _1587;
          int64_t  const _1589 = _1588 * int64_t(8);
          int64_t  const _1590 = _1589 + _1577;
          int64_t  const _1591 = _1590 * int64_t(4);
          int64_t  const _1592 = _1591 + int64_t(2);
          float  const _1593 = _probs[_1592];
          float16  const _1594 = float16_ops::broadcast(_1593);
          float16  const _1595 = _1586 * _1594;
          float16  const _1596 = _1580 + _1595;
          float16_ops::store(_1596, _pv, _1579);
          int64_t  const _1597 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1598 = _1597 * int64_t(256);
          int64_t  const _1599 = _1598 + int64_t(160);
          float16  const _1600 = float16_ops::load(_pv, _1599);
          int64_t  const _1601 = (int64_t)(_92);
          int64_t  const _1602 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1603 = _1601 + _1602;
          int64_t  const _1604 = _1603 * int64_t(64);
          int64_t  const _1605 = _1604 + int64_t(32);
          float16  const _1606 = float16_ops::load(_attn_v, _1605);
          int64_t  const _1607 = (int64_t)(_1404);
          int64_t  const _1608 = _1602 + _1607;
          int64_t  const _1609 = _1608 * int64_t(8);
          int64_t  const _1610 = _1609 + _1597;
          int64_t  const _1611 = _1610 * int64_t(4);
          int64_t  const _1612 = _1611 + int64_t(2);
          float  const _1613 = _probs[_1612];
          float16  const _1614 = float16_ops::broadcast(_1613);
          float16  const _1615 = _1606 * _1614;
          float16  const _1616 = _1600 + _1615;
          float16_ops::store(_1616, _pv, _1599);
          int64_t  const _1617 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1618 = _1617 * int64_t(256);
          int64_t  const _1619 = _1618 + int64_t(176);
          float16  const _1620 = float16_ops::load(_pv, _1619);
          int64_t  const _1621 = (int64_t)(_92);
          int64_t  const _1622 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1623 = _1621 + _1622;
          int64_t  const _1624 = _1623 * int64_t(64);
          int64_t  const _1625 = _1624 + int64_t(48);
          float16  const _1626 = float16_ops::load(_attn_v, _1625);
          int64_t  const _1627 = (int64_t)(_1404);
          int64_t  const _1628 = _1622 + _1627;
          int64_t  const _1629 = _1628 * int64_t(8);
          int64_t  const _1630 = _1629 + _1617;
          int64_t  const _1631 = _1630 * int64_t(4);
          int64_t  const _1632 = _1631 + int64_t(2);
          float  const _1633 = _probs[_1632];
          float16  const _1634 = float16_ops::broadcast(_1633);
          float16  const _1635 = _1626 * _1634;
          float16  const _1636 = _1620 + _1635;
          float16_ops::store(_1636, _pv, _1619);
          int64_t  const _1637 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1638 = _1637 * int64_t(256);
          int64_t  const _1639 = _1638 + int64_t(192);
          float16  const _1640 = float16_ops::load(_pv, _1639);
          int64_t  const _1641 = (int64_t)(_92);
          int64_t  const _1642 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1643 = _1641 + _1642;
          int64_t  const _1644 = _1643 * int64_t(64);
          float16  const _1645 = float16_ops::load(_attn_v, _1644);
          int64_t  const _1646 = (int64_t)(_1404);
          int64_t  const _1647 = _1642 + _1646;
          int64_t  const _1648 = _1647 * int64_t(8);
          int64_t  const _1649 = _1648 + _1637;
          int64_t  const _1650 = _1649 * int64_t(4);
          int64_t  const _1651 = _1650 + int64_t(3);
          float  const _1652 = _probs[_1651];
          float16  const _1653 = float16_ops::broadcast(_1652);
          float16  const _1654 = _1645 * _1653;
          float16  const _1655 = _1640 + _1654;
          float16_ops::store(_1655, _pv, _1639);
          int64_t  const _1656 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1657 = _1656 * int64_t(256);
          int64_t  const _1658 = _1657 + int64_t(208);
          float16  const _1659 = float16_ops::load(_pv, _1658);
          int64_t  const _1660 = (int64_t)(_92);
          int64_t  const _1661 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1662 = _1660 + _1661;
          int64_t  const _1663 = _1662 * int64_t(64);
          int64_t  const _1664 = _1663 + int64_t(16);
          float16  const _1665 = float16_ops::load(_attn_v, _1664);
          int64_t  const _1666 = (int64_t)(_1404);
          int64_t  const _1667 = _1661 + _1666;
          int64_t  const _1668 = _1667 * int64_t(8);
          int64_t  const _1669 = _1668 + _1656;
          int64_t  const _1670 = _1669 * int64_t(4);
          int64_t  const _1671 = _1670 + int64_t(3);
          float  const _1672 = _probs[_1671];
          float16  const _1673 = float16_ops::broadcast(_1672);
          float16  const _1674 = _1665 * _1673;
          float16  const _1675 = _1659 + _1674;
          float16_ops::store(_1675, _pv, _1658);
          int64_t  const _1676 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1677 = _1676 * int64_t(256);
          int64_t  const _1678 = _1677 + int64_t(224);
          float16  const _1679 = float16_ops::load(_pv, _1678);
          int64_t  const _1680 = (int64_t)(_92);
          int64_t  const _1681 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1682 = _1680 + _1681;
          int64_t  const _1683 = _1682 * int64_t(64);
          int64_t  const _1684 = _1683 + int64_t(32);
          float16  const _1685 = float16_ops::load(_attn_v, _1684);
          int64_t  const _1686 = (int64_t)(_1404);
          int64_t  const _1687 = _1681 + _1686;
          int64_t  const _1688 = _1687 * int64_t(8);
          int64_t  const _1689 = _1688 + _1676;
          int64_t  const _1690 = _1689 * int64_t(4);
          int64_t  const _1691 = _1690 + int64_t(3);
          float  const _1692 = _probs[_1691];
          float16  const _1693 = float16_ops::broadcast(_1692);
          float16  const _1694 = _1685 * _1693;
          float16  const _1695 = _1679 + _1694;
          float16_ops::store(_1695, _pv, _1678);
          int64_t  const _1696 = (int64_t)(_pv_s1_ii_ig);
          int64_t  const _1697 = _1696 * int64_t(256);
          int64_t  const _1698 = _1697 + int64_t(240);
          float16  const _1699 = float16_ops::load(_pv, _1698);
          int64_t  const _1700 = (int64_t)(_92);
          int64_t  const _1701 = (int64_t)(_pv_s1_rkt__x_rebased);
          int64_t  const _1702 = _1700 + _1701;
          int64_t  const _1703 = _1702 * int64_t(64);
          int64_t  const _1704 = _1703 + int64_t(48);
          float16  const _1705 = float16_ops::load(_attn_v, _1704);
          int64_t  const _1706 = (int64_t)(_1404);
          int64_t  const _1707 = _1701 + _1706;
          int64_t  const _1708 = _1707 * int64_t(8);
          int64_t  const _1709 = _1708 + _1696;
          int64_t  const _1710 = _1709 * int64_t(4);
          int64_t  const _1711 = _1710 + int64_t(3);
          float  const _1712 = _probs[_1711];
          float16  const _1713 = float16_ops::broadcast(_1712);
          float16  const _1714 = _1705 * _1713;
          float16  const _1715 = _1699 + _1714;
          float16_ops::store(_1715, _pv, _1698);
         } // for _pv_s1_rkt__x_rebased
        } // for _pv_s1_ii_ig
        {
         float _row_sum[32];
         int32_t  const _1716 = ::halide_cpp_max(_84, 0);
         int32_t  const _1717 = _87 - _1716;
         // produce row_sum
         for (int _row_sum_s0_ii_ii = 0; _row_sum_s0_ii_ii < 0 + 2; _row_sum_s0_ii_ii++)
         {
          float  const _1718 = float_from_bits(0 /* 0 */);
          float16  const _1719 = float16_ops::broadcast(_1718);
          int64_t  const _1720 = (int64_t)(_row_sum_s0_ii_ii);
          int64_t  const _1721 = _1720 * int64_t(16);
          float16_ops::store(_1719, _row_sum, _1721);
         } // for _row_sum_s0_ii_ii
         // consume probs
         int32_t  const _1722 = ::halide_cpp_max(_84, 0);
         int32_t  const _1723 = _1722 - _791;
         for (int _row_sum_s1_rk__x_rebased = 0; _row_sum_s1_rk__x_rebased < 0 + _1717; _row_sum_s1_rk__x_rebased++)
         {
          float16  const _1724 = float16_ops::load(_row_sum, int64_t(0));
          int64_t  const _1725 = (int64_t)(_row_sum_s1_rk__x_rebased);
          int64_t  const _1726 = (int64_t)(_1723);
          int64_t  const _1727 = _1725 + _1726;
          int64_t  const _1728 = _1727 * int64_t(32);
          float16  const _1729 = float16_ops::load(_probs, _1728);
          float16  const _1730 = _1724 + _1729;
          float16_ops::store(_1730, _row_sum, int64_t(0));
          float16  const _1731 = float16_ops::load(_row_sum, int64_t(16));
          int64_t  const _1732 = (int64_t)(_row_sum_s1_rk__x_rebased);
          int64_t  const _1733 = (int64_t)(_1723);
          int64_t  const _1734 = _1732 + _1733;
          int64_t  const _1735 = _1734 * int64_t(32);
          int64_t  const _1736 = _1735 + int64_t(16);
          float16  const _1737 = float16_ops::load(_probs, _1736);
          float16  const _1738 = _1731 + _1737;
          float16_ops::store(_1738, _row_sum, int64_t(16));
         } // for _row_sum_s1_rk__x_rebased
         _probs_free.free();
         {
          float _partial[2560];
          // produce partial
          // consume row_sum
          // consume pv
          // consume row_max
          int32_t  const _1739 = _attn_kv_lo >> 3;
          int32_t  const _1740 = ::halide_cpp_max(_1739, 0);
          int32_t  const _1741 = _1740 * 8;
          int32_t  const _1742 = ::halide_cpp_min(_1741, _attn_lk);
          int32_t  const _1743 = ::halide_cpp_min(_attn_kv_hi, _attn_lk);
          int32_t  const _1744 = _1743 + 7;
          int32_t  const _1745 = _1744 >> 3;
          int32_t  const _1746 = _attn_lq + -1;
          int32_t  const _1747 = _1746 >> 5;
          int32_t  const _1748 = _attn_q_step * 31;
          int32_t  const _1749 = _1748 + _attn_q0;
          int32_t  const _1750 = _1749 >> 5;
          int32_t  const _1751 = _1750 + _attn_tile;
          int32_t  const _1752 = ::halide_cpp_min(_1747, _1751);
          int32_t  const _1753 = _attn_q0 >> 5;
          int32_t  const _1754 = _1753 + _attn_tile;
          int32_t  const _1755 = ::halide_cpp_max(_1752, _1754);
          int32_t  const _1756 = _1755 * 4;
          int32_t  const _1757 = _1756 + 4;
          int32_t  const _1758 = ::halide_cpp_min(_1745, _1757);
          int32_t  const _1759 = _1758 * 8;
          int32_t  const _1760 = ::halide_cpp_min(_1759, _attn_lk);
          int32_t  const _1761 = _attn_chunk_lo >> 3;
          int32_t  const _1762 = _1761 * 8;
          for (int _partial_s0_ii_ig = 0; _partial_s0_ii_ig < 0 + 8; _partial_s0_ii_ig++)
          {
           int32_t  const _1763 = ::halide_cpp_max(_1742, _1760);
           int32_t  const _1764 = _partial_s0_ii_ig * 4;
           for (int _partial_s0_ii_ir = 0; _partial_s0_ii_ir < 0 + 4; _partial_s0_ii_ir++)
           {
            int32_t  const _1765 = _partial_s0_ii_ir + _1764;
            for (int _partial_s0_c_c = 0; _partial_s0_c_c < 0 + 4; _partial_s0_c_c++)
            {
             int64_t  const _1766 = (int64_t)(_1765);
             int64_t  const _1767 = _1766 * int64_t(4);
             int64_t  const _1768 = (int64_t)(_partial_s0_c_c);
             int64_t  const _1769 = _1767 + _1768;
             int64_t  const _1770 = _1769 * int64_t(16);
             float16  const _1771 = float16_ops::load(_pv, _1770);
             int64_t  const _1772 = _1766 * int64_t(5);
             int64_t  const _1773 = _1772 + _1768;
             int64_t  const _1774 = _1773 * int64_t(16);
             float16_ops::store(_1771, _partial, _1774);
            } // for _partial_s0_c_c
            int32_t  const _1775 = _partial_s0_ii_ir + _1764;
            int64_t  const _1776 = (int64_t)(_1775);
            float  const _1777 = _row_max[_1776];
            float16  const _1778 = float16_ops::broadcast(_1777);
            float  const _1779 = _row_sum[_1776];
            float16  const _1780 = float16_ops::broadcast(_1779);
            int32_t  const _1781 = ::halide_cpp_min(_1762, _1763);
            int32_t  const _1782 = ::halide_cpp_max(_1781, _1742);
            int32_t  const _1783 = _1782 + 1024;
            int32_t  const _1784 = ::halide_cpp_min(_1783, _1763);
            float  const _1785 = reinterpret<float>(_1784);
            float16  const _1786 = float16_ops::broadcast(_1785);
            float  const _1787 = reinterpret<float>(_1763);
            float16  const _1788 = float16_ops::broadcast(_1787);
            int32x16_t  const _1789 = int32x16_t_ops::ramp(-2, 1);
            int32x16_t  const _1790 = int32x16_t_ops::broadcast(0);
            uint8x16_t  const _1791 = int32x16_t_ops::eq(_1789, _1790);
            float16  const _1792 = float16_ops::select(_1791, _1786, _1788);
            int32x16_t  const _1793 = int32x16_t_ops::ramp(-1, 1);
            uint8x16_t  const _1794 = int32x16_t_ops::eq(_1793, _1790);
            float16  const _1795 = float16_ops::select(_1794, _1780, _1792);
            int32x16_t  const _1796 = int32x16_t_ops::ramp(0, 1);
            uint8x16_t  const _1797 = int32x16_t_ops::eq(_1796, _1790);
            float16  const _1798 = float16_ops::select(_1797, _1778, _1795);
            int64_t  const _1799 = _1776 * int64_t(80);
            int64_t  const _1800 = _1799 + int64_t(64);
            float16_ops::store(_1798, _partial, _1800);
           } // for _partial_s0_ii_ir
          } // for _partial_s0_ii_ig
          // produce attn_out
          // consume partial
          for (int _attn_out_s0_ii = 0; _attn_out_s0_ii < 0 + 32; _attn_out_s0_ii++)
          {
           int32_t  const _1801 = _attn_out_s0_ii * 5;
           for (int _attn_out_s0_c_c = 0; _attn_out_s0_c_c < 0 + 5; _attn_out_s0_c_c++)
           {
            int32_t  const _1802 = _attn_out_s0_c_c + _1801;
            int64_t  const _1803 = (int64_t)(_1802);
            int64_t  const _1804 = _1803 * int64_t(16);
            float16  const _1805 = float16_ops::load(_partial, _1804);
            float16_ops::store(_1805, _attn_out, _1804);
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

// [Halide's argv wrapper and metadata of attn_causal64_avx512_pipeline: 378 lines, hash a2ba24096f0ea3ab]

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

// [fixed text: backends/cpu/fixed/WrapperSupport.h, 334 lines]

// [fixed text: backends/cpu/fixed/F32Staging.h, 157 lines]

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

// [fixed text: backends/cpu/fixed/RaggedBatch.h, 217 lines]

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
  // read each key/value plane (and always from a paged cache), once up front otherwise.
  const int64_t tasks_per_plane = pack ? chunks_per_group : (Lq + kTileQ - 1) / kTileQ * groups;
  // The matrix paths' decoding layout (fixed/MatrixStaging.h) when no task has more than a few rows.
  const int64_t task_rows = pack ? (groups < kTileQ ? groups : kTileQ) : (Lq < kTileQ ? Lq : kTileQ);
  const bool decoding = ValueStage::decoding_layout(task_rows, D, Dv);
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
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 123-194, 72 lines]
    // takes at most 1024 keys a call, so the scores stay in cache.
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 196-229, 34 lines]
            int result = attn_causal64_avx512_pipeline(uc, &q_tile.buf, &k_head.buf, &v_head.buf, int32_t(q_end), int32_t(Lk), int32_t(D),
                int32_t(Dv_pad), int32_t(t), int32_t(rows), int32_t(decoding ? (at.pages.table ? 2 : 1) : 0), int32_t(q_step), int32_t(q0), int32_t(h), int32_t(b0 + b), piece_lo, piece_hi, next, &out_tile.buf);
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 232-278, 47 lines]
int run(const attn_kernel_args* args) {
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 280-292, 13 lines]

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

// [the source with every path (all_cpu_paths: the matrix paths for bf16): 16908 lines, hash a163f1312c04df08]
