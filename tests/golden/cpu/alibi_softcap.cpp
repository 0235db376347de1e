// attnc: CPU kernel 'alibi_softcap' (avx512, bf16 I/O), Halide-scheduled. Generated; do not edit.
// Build: c++ -std=c++17 -O2 -ffp-contract=fast -fno-math-errno -mavx2 -mfma -mf16c -mavx512f -mavx512vl -mavx512dq -mavx512bw -c alibi_softcap.cpp
// (clang++ is fastest; with g++ add -fno-tree-sra, or the accumulators leave registers.)
// Entry: int attn_alibi_softcap(const attn_kernel_args*), declared in alibi_softcap.h.
#include "alibi_softcap.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>
#if defined(__F16C__)
#include <immintrin.h>  // f16 to f32, eight at a time
#endif

#if defined(__clang__) && defined(__has_builtin)
#if __has_builtin(__builtin_elementwise_max)
#define ATTN_ELEMENTWISE_MIN_MAX 1  // vector min/max without a lane loop
#endif
#endif

// ---- The Halide pipeline (Halide 14 CodeGen_C output) ----

// [fixed text: Halide runtime header, 2454 lines, hash e6b37a9abfd88c74]


// [fixed text: backends/cpu/fixed/HalideVectorOps.h, 803 lines]
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

#ifdef __cplusplus
extern "C" {
#endif

HALIDE_FUNCTION_ATTRS
int attn_alibi_softcap_pipeline(void const *__user_context, struct halide_buffer_t *_attn_q_buffer, struct halide_buffer_t *_attn_k_buffer, struct halide_buffer_t *_attn_v_buffer, int32_t _attn_lq, int32_t _attn_lk, int32_t _attn_d, int32_t _attn_dv_pad, int32_t _attn_tile, int32_t _attn_q_step, int32_t _attn_head, int32_t _attn_batch, int32_t _attn_kv_lo, int32_t _attn_kv_hi, int32_t _attn_chunk_lo, struct halide_buffer_t *_slopes_buffer, struct halide_buffer_t *_attn_out_buffer) {
(void)_attn_lq; (void)_attn_lk; (void)_attn_d; (void)_attn_dv_pad; (void)_attn_tile; (void)_attn_q_step; (void)_attn_head; (void)_attn_batch; (void)_attn_kv_lo; (void)_attn_kv_hi; (void)_attn_chunk_lo;
 void * const _ucon = const_cast<void *>(__user_context);
 uint64_t  const _0 = (uint64_t)(_slopes_buffer);
 uint64_t  const _1 = (uint64_t)(0ull);
 bool  const _2 = _0 != _1;
 if (!_2)
 {
  int32_t  const _3 = attn_alibi_softcap_rt_error_buffer_argument_is_null(_ucon, "slopes");
  return _3;
 }
 uint64_t  const _4 = (uint64_t)(_attn_out_buffer);
 uint64_t  const _5 = (uint64_t)(0ull);
 bool  const _6 = _4 != _5;
 if (!_6)
 {
  int32_t  const _7 = attn_alibi_softcap_rt_error_buffer_argument_is_null(_ucon, "attn_out");
  return _7;
 }
 uint64_t  const _8 = (uint64_t)(_attn_v_buffer);
 uint64_t  const _9 = (uint64_t)(0ull);
 bool  const _10 = _8 != _9;
 if (!_10)
 {
  int32_t  const _11 = attn_alibi_softcap_rt_error_buffer_argument_is_null(_ucon, "attn_v");
  return _11;
 }
 uint64_t  const _12 = (uint64_t)(_attn_q_buffer);
 uint64_t  const _13 = (uint64_t)(0ull);
 bool  const _14 = _12 != _13;
 if (!_14)
 {
  int32_t  const _15 = attn_alibi_softcap_rt_error_buffer_argument_is_null(_ucon, "attn_q");
  return _15;
 }
 uint64_t  const _16 = (uint64_t)(_attn_k_buffer);
 uint64_t  const _17 = (uint64_t)(0ull);
 bool  const _18 = _16 != _17;
 if (!_18)
 {
  int32_t  const _19 = attn_alibi_softcap_rt_error_buffer_argument_is_null(_ucon, "attn_k");
  return _19;
 }
 auto * const _20 = _halide_buffer_get_host(_attn_k_buffer);
 auto _attn_k = _20;
 halide_unused(_attn_k);
 uint32_t  const _21 = _halide_buffer_get_type(_attn_k_buffer);
 bool  const _22 = _halide_buffer_get_device_dirty(_attn_k_buffer);
 int32_t  const _23 = _halide_buffer_get_dimensions(_attn_k_buffer);
 int32_t  const _24 = _halide_buffer_get_min(_attn_k_buffer, 0);
 int32_t  const _25 = _halide_buffer_get_extent(_attn_k_buffer, 0);
 int32_t  const _26 = _halide_buffer_get_stride(_attn_k_buffer, 0);
 int32_t  const _27 = _halide_buffer_get_min(_attn_k_buffer, 1);
 int32_t  const _28 = _halide_buffer_get_extent(_attn_k_buffer, 1);
 int32_t  const _29 = _halide_buffer_get_stride(_attn_k_buffer, 1);
 auto * const _30 = _halide_buffer_get_host(_attn_q_buffer);
 auto _attn_q = _30;
 halide_unused(_attn_q);
 uint32_t  const _31 = _halide_buffer_get_type(_attn_q_buffer);
 bool  const _32 = _halide_buffer_get_device_dirty(_attn_q_buffer);
 int32_t  const _33 = _halide_buffer_get_dimensions(_attn_q_buffer);
 int32_t  const _34 = _halide_buffer_get_min(_attn_q_buffer, 0);
 int32_t  const _35 = _halide_buffer_get_extent(_attn_q_buffer, 0);
 int32_t  const _36 = _halide_buffer_get_stride(_attn_q_buffer, 0);
 int32_t  const _37 = _halide_buffer_get_min(_attn_q_buffer, 1);
 int32_t  const _38 = _halide_buffer_get_extent(_attn_q_buffer, 1);
 int32_t  const _39 = _halide_buffer_get_stride(_attn_q_buffer, 1);
 auto * const _40 = _halide_buffer_get_host(_attn_v_buffer);
 auto _attn_v = _40;
 halide_unused(_attn_v);
 uint32_t  const _41 = _halide_buffer_get_type(_attn_v_buffer);
 bool  const _42 = _halide_buffer_get_device_dirty(_attn_v_buffer);
 int32_t  const _43 = _halide_buffer_get_dimensions(_attn_v_buffer);
 int32_t  const _44 = _halide_buffer_get_min(_attn_v_buffer, 0);
 int32_t  const _45 = _halide_buffer_get_extent(_attn_v_buffer, 0);
 int32_t  const _46 = _halide_buffer_get_stride(_attn_v_buffer, 0);
 int32_t  const _47 = _halide_buffer_get_min(_attn_v_buffer, 1);
 int32_t  const _48 = _halide_buffer_get_extent(_attn_v_buffer, 1);
 int32_t  const _49 = _halide_buffer_get_stride(_attn_v_buffer, 1);
 auto * const _50 = _halide_buffer_get_host(_attn_out_buffer);
 auto _attn_out = _50;
 halide_unused(_attn_out);
 uint32_t  const _51 = _halide_buffer_get_type(_attn_out_buffer);
 bool  const _52 = _halide_buffer_get_device_dirty(_attn_out_buffer);
 int32_t  const _53 = _halide_buffer_get_dimensions(_attn_out_buffer);
 int32_t  const _54 = _halide_buffer_get_min(_attn_out_buffer, 0);
 int32_t  const _55 = _halide_buffer_get_extent(_attn_out_buffer, 0);
 int32_t  const _56 = _halide_buffer_get_stride(_attn_out_buffer, 0);
 int32_t  const _57 = _halide_buffer_get_min(_attn_out_buffer, 1);
 int32_t  const _58 = _halide_buffer_get_extent(_attn_out_buffer, 1);
 int32_t  const _59 = _halide_buffer_get_stride(_attn_out_buffer, 1);
 auto * const _60 = _halide_buffer_get_host(_slopes_buffer);
 auto _slopes = _60;
 halide_unused(_slopes);
 uint32_t  const _61 = _halide_buffer_get_type(_slopes_buffer);
 bool  const _62 = _halide_buffer_get_device_dirty(_slopes_buffer);
 int32_t  const _63 = _halide_buffer_get_dimensions(_slopes_buffer);
 int32_t  const _64 = _halide_buffer_get_min(_slopes_buffer, 0);
 int32_t  const _65 = _halide_buffer_get_extent(_slopes_buffer, 0);
 int32_t  const _66 = _halide_buffer_get_stride(_slopes_buffer, 0);
 int32_t  const _67 = ::halide_cpp_min(_attn_kv_hi, _attn_lk);
 int32_t  const _68 = _67 + 7;
 int32_t  const _69 = _68 >> 3;
 int32_t  const _70 = _attn_tile * 4;
 int32_t  const _71 = _70 + 4;
 int32_t  const _72 = ::halide_cpp_min(_69, _71);
 int32_t  const _73 = _attn_kv_lo >> 3;
 int32_t  const _74 = ::halide_cpp_max(_72, _73);
 int32_t  const _75 = ::halide_cpp_max(_74, 0);
 int32_t  const _76 = _75 * 8;
 int32_t  const _77 = ::halide_cpp_min(_76, _attn_lk);
 int32_t  const _78 = ::halide_cpp_max(_77, 0);
 int32_t  const _79 = ::halide_cpp_max(_73, 0);
 int32_t  const _80 = _79 * 8;
 int32_t  const _81 = ::halide_cpp_min(_80, _attn_lk);
 int32_t  const _82 = _attn_chunk_lo >> 3;
 int32_t  const _83 = _82 * 8;
 int32_t  const _84 = ::halide_cpp_min(_78, _83);
 int32_t  const _85 = ::halide_cpp_max(_81, _84);
 int32_t  const _86 = ::halide_cpp_max(_85, 0);
 int32_t  const _87 = _86 + 1024;
 int32_t  const _88 = ::halide_cpp_min(_78, _87);
 int32_t  const _89 = _88 - _86;
 int32_t  const _90 = _89 + -1;
 int32_t  const _91 = _90 >> 3;
 int32_t  const _92 = _91 * 8;
 int32_t  const _93 = _86 + _92;
 int32_t  const _94 = _93 + 8;
 int32_t  const _95 = ::halide_cpp_min(_94, _28);
 int32_t  const _96 = _28 + -1;
 int32_t  const _97 = ::halide_cpp_min(_86, _96);
 int32_t  const _98 = _95 - _97;
 int32_t  const _99 = ::halide_cpp_min(_83, _77);
 int32_t  const _100 = ::halide_cpp_max(_99, _81);
 int32_t  const _101 = _77 - _100;
 int32_t  const _102 = ::halide_cpp_min(_101, 1024);
 int32_t  const _103 = _102 + -1;
 int32_t  const _104 = ::halide_cpp_min(_77, _83);
 int32_t  const _105 = ::halide_cpp_max(_104, _81);
 int32_t  const _106 = _65 + _64;
 int32_t  const _107 = _106 + -1;
 int32_t  const _108 = ::halide_cpp_min(_107, _attn_head);
 int32_t  const _109 = ::halide_cpp_max(_108, _64);
 bool  const _110 = _halide_buffer_is_bounds_query(_attn_k_buffer);
 bool  const _111 = !(_110);
 bool  const _112 = 0 <= _97;
 bool  const _113 = _97 <= 0;
 bool  const _114 = _112 && _113;
 bool  const _115 = _111 || _114;
 if (!_115)
 {
  int32_t  const _116 = _98 + -1;
  int32_t  const _117 = _98 + _97;
  int32_t  const _118 = _117 + -1;
  int32_t  const _119 = attn_alibi_softcap_rt_error_constraints_make_required_region_smaller(_ucon, "Input buffer attn_k", 1, 0, _116, _97, _118);
  return _119;
 }
 bool  const _120 = _halide_buffer_is_bounds_query(_attn_v_buffer);
 bool  const _121 = !(_120);
 int32_t  const _122 = _attn_dv_pad + 15;
 int32_t  const _123 = _122 & 15;
 bool  const _124 = _123 == 15;
 bool  const _125 = _121 || _124;
 if (!_125)
 {
  int32_t  const _126 = _attn_dv_pad + -1;
  int32_t  const _127 = _126 >> 4;
  int32_t  const _128 = _127 * 16;
  int32_t  const _129 = _128 + 15;
  int32_t  const _130 = attn_alibi_softcap_rt_error_constraints_make_required_region_smaller(_ucon, "Input buffer attn_v", 0, 0, _126, 0, _129);
  return _130;
 }
 bool  const _131 = _halide_buffer_is_bounds_query(_attn_v_buffer);
 bool  const _132 = !(_131);
 bool  const _133 = 0 <= _105;
 bool  const _134 = _105 <= 0;
 bool  const _135 = _133 && _134;
 bool  const _136 = _132 || _135;
 if (!_136)
 {
  int32_t  const _137 = _103 + _105;
  int32_t  const _138 = attn_alibi_softcap_rt_error_constraints_make_required_region_smaller(_ucon, "Input buffer attn_v", 1, 0, _103, _105, _137);
  return _138;
 }
 bool  const _139 = _halide_buffer_is_bounds_query(_attn_out_buffer);
 bool  const _140 = !(_139);
 bool  const _141 = 0 <= _attn_dv_pad;
 bool  const _142 = _140 || _141;
 if (!_142)
 {
  int32_t  const _143 = _attn_dv_pad + 15;
  int32_t  const _144 = attn_alibi_softcap_rt_error_constraints_make_required_region_smaller(_ucon, "Output buffer attn_out", 0, 0, _143, _attn_dv_pad, _143);
  return _144;
 }
 uint32_t  const _145 = (uint32_t)(73730ull);
 bool  const _146 = _21 == _145;
 if (!_146)
 {
  uint32_t  const _147 = (uint32_t)(73730ull);
  int32_t  const _148 = attn_alibi_softcap_rt_error_bad_type(_ucon, "Input buffer attn_k", _21, _147);
  return _148;
 }
 bool  const _149 = _23 == 2;
 if (!_149)
 {
  int32_t  const _150 = attn_alibi_softcap_rt_error_bad_dimensions(_ucon, "Input buffer attn_k", _23, 2);
  return _150;
 }
 uint32_t  const _151 = (uint32_t)(73730ull);
 bool  const _152 = _31 == _151;
 if (!_152)
 {
  uint32_t  const _153 = (uint32_t)(73730ull);
  int32_t  const _154 = attn_alibi_softcap_rt_error_bad_type(_ucon, "Input buffer attn_q", _31, _153);
  return _154;
 }
 bool  const _155 = _33 == 2;
 if (!_155)
 {
  int32_t  const _156 = attn_alibi_softcap_rt_error_bad_dimensions(_ucon, "Input buffer attn_q", _33, 2);
  return _156;
 }
 uint32_t  const _157 = (uint32_t)(73730ull);
 bool  const _158 = _41 == _157;
 if (!_158)
 {
  uint32_t  const _159 = (uint32_t)(73730ull);
  int32_t  const _160 = attn_alibi_softcap_rt_error_bad_type(_ucon, "Input buffer attn_v", _41, _159);
  return _160;
 }
 bool  const _161 = _43 == 2;
 if (!_161)
 {
  int32_t  const _162 = attn_alibi_softcap_rt_error_bad_dimensions(_ucon, "Input buffer attn_v", _43, 2);
  return _162;
 }
 uint32_t  const _163 = (uint32_t)(73730ull);
 bool  const _164 = _51 == _163;
 if (!_164)
 {
  uint32_t  const _165 = (uint32_t)(73730ull);
  int32_t  const _166 = attn_alibi_softcap_rt_error_bad_type(_ucon, "Output buffer attn_out", _51, _165);
  return _166;
 }
 bool  const _167 = _53 == 2;
 if (!_167)
 {
  int32_t  const _168 = attn_alibi_softcap_rt_error_bad_dimensions(_ucon, "Output buffer attn_out", _53, 2);
  return _168;
 }
 uint32_t  const _169 = (uint32_t)(73730ull);
 bool  const _170 = _61 == _169;
 if (!_170)
 {
  uint32_t  const _171 = (uint32_t)(73730ull);
  int32_t  const _172 = attn_alibi_softcap_rt_error_bad_type(_ucon, "Input buffer slopes", _61, _171);
  return _172;
 }
 bool  const _173 = _63 == 1;
 if (!_173)
 {
  int32_t  const _174 = attn_alibi_softcap_rt_error_bad_dimensions(_ucon, "Input buffer slopes", _63, 1);
  return _174;
 }
 bool  const _175 = _24 <= 0;
 int32_t  const _176 = _25 + _24;
 bool  const _177 = _attn_d <= _176;
 bool  const _178 = _175 && _177;
 if (!_178)
 {
  int32_t  const _179 = _attn_d + -1;
  int32_t  const _180 = _25 + _24;
  int32_t  const _181 = _180 + -1;
  int32_t  const _182 = attn_alibi_softcap_rt_error_access_out_of_bounds(_ucon, "Input buffer attn_k", 0, 0, _179, _24, _181);
  return _182;
 }
 bool  const _183 = 0 <= _25;
 if (!_183)
 {
  int32_t  const _184 = attn_alibi_softcap_rt_error_buffer_extents_negative(_ucon, "Input buffer attn_k", 0, _25);
  return _184;
 }
 bool  const _185 = _27 <= _97;
 int32_t  const _186 = _98 + _97;
 int32_t  const _187 = _28 + _27;
 bool  const _188 = _186 <= _187;
 bool  const _189 = _185 && _188;
 if (!_189)
 {
  int32_t  const _190 = _98 + _97;
  int32_t  const _191 = _190 + -1;
  int32_t  const _192 = _28 + _27;
  int32_t  const _193 = _192 + -1;
  int32_t  const _194 = attn_alibi_softcap_rt_error_access_out_of_bounds(_ucon, "Input buffer attn_k", 1, _97, _191, _27, _193);
  return _194;
 }
 bool  const _195 = 0 <= _28;
 if (!_195)
 {
  int32_t  const _196 = attn_alibi_softcap_rt_error_buffer_extents_negative(_ucon, "Input buffer attn_k", 1, _28);
  return _196;
 }
 bool  const _197 = _34 <= 0;
 int32_t  const _198 = _35 + _34;
 bool  const _199 = _attn_d <= _198;
 bool  const _200 = _197 && _199;
 if (!_200)
 {
  int32_t  const _201 = _attn_d + -1;
  int32_t  const _202 = _35 + _34;
  int32_t  const _203 = _202 + -1;
  int32_t  const _204 = attn_alibi_softcap_rt_error_access_out_of_bounds(_ucon, "Input buffer attn_q", 0, 0, _201, _34, _203);
  return _204;
 }
 bool  const _205 = 0 <= _35;
 if (!_205)
 {
  int32_t  const _206 = attn_alibi_softcap_rt_error_buffer_extents_negative(_ucon, "Input buffer attn_q", 0, _35);
  return _206;
 }
 bool  const _207 = _37 <= 0;
 int32_t  const _208 = _38 + _37;
 bool  const _209 = 32 <= _208;
 bool  const _210 = _207 && _209;
 if (!_210)
 {
  int32_t  const _211 = _38 + _37;
  int32_t  const _212 = _211 + -1;
  int32_t  const _213 = attn_alibi_softcap_rt_error_access_out_of_bounds(_ucon, "Input buffer attn_q", 1, 0, 31, _37, _212);
  return _213;
 }
 bool  const _214 = 0 <= _38;
 if (!_214)
 {
  int32_t  const _215 = attn_alibi_softcap_rt_error_buffer_extents_negative(_ucon, "Input buffer attn_q", 1, _38);
  return _215;
 }
 bool  const _216 = _44 <= 0;
 int32_t  const _217 = _attn_dv_pad + -1;
 int32_t  const _218 = _217 >> 4;
 int32_t  const _219 = _218 * 16;
 int32_t  const _220 = _219 + 16;
 int32_t  const _221 = _45 + _44;
 bool  const _222 = _220 <= _221;
 bool  const _223 = _216 && _222;
 if (!_223)
 {
  int32_t  const _224 = _attn_dv_pad + -1;
  int32_t  const _225 = _224 >> 4;
  int32_t  const _226 = _225 * 16;
  int32_t  const _227 = _226 + 15;
  int32_t  const _228 = _45 + _44;
  int32_t  const _229 = _228 + -1;
  int32_t  const _230 = attn_alibi_softcap_rt_error_access_out_of_bounds(_ucon, "Input buffer attn_v", 0, 0, _227, _44, _229);
  return _230;
 }
 bool  const _231 = 0 <= _45;
 if (!_231)
 {
  int32_t  const _232 = attn_alibi_softcap_rt_error_buffer_extents_negative(_ucon, "Input buffer attn_v", 0, _45);
  return _232;
 }
 bool  const _233 = _47 <= _105;
 int32_t  const _234 = _103 + _105;
 int32_t  const _235 = _234 + 1;
 int32_t  const _236 = _48 + _47;
 bool  const _237 = _235 <= _236;
 bool  const _238 = _233 && _237;
 if (!_238)
 {
  int32_t  const _239 = _103 + _105;
  int32_t  const _240 = _48 + _47;
  int32_t  const _241 = _240 + -1;
  int32_t  const _242 = attn_alibi_softcap_rt_error_access_out_of_bounds(_ucon, "Input buffer attn_v", 1, _105, _239, _47, _241);
  return _242;
 }
 bool  const _243 = 0 <= _48;
 if (!_243)
 {
  int32_t  const _244 = attn_alibi_softcap_rt_error_buffer_extents_negative(_ucon, "Input buffer attn_v", 1, _48);
  return _244;
 }
 int32_t  const _245 = ::halide_cpp_min(_attn_dv_pad, 0);
 bool  const _246 = _54 <= _245;
 int32_t  const _247 = _attn_dv_pad + 16;
 int32_t  const _248 = _55 + _54;
 bool  const _249 = _247 <= _248;
 bool  const _250 = _246 && _249;
 if (!_250)
 {
  int32_t  const _251 = ::halide_cpp_min(_attn_dv_pad, 0);
  int32_t  const _252 = _attn_dv_pad + 15;
  int32_t  const _253 = _55 + _54;
  int32_t  const _254 = _253 + -1;
  int32_t  const _255 = attn_alibi_softcap_rt_error_access_out_of_bounds(_ucon, "Output buffer attn_out", 0, _251, _252, _54, _254);
  return _255;
 }
 bool  const _256 = 0 <= _55;
 if (!_256)
 {
  int32_t  const _257 = attn_alibi_softcap_rt_error_buffer_extents_negative(_ucon, "Output buffer attn_out", 0, _55);
  return _257;
 }
 bool  const _258 = _57 <= 0;
 int32_t  const _259 = _58 + _57;
 bool  const _260 = 32 <= _259;
 bool  const _261 = _258 && _260;
 if (!_261)
 {
  int32_t  const _262 = _58 + _57;
  int32_t  const _263 = _262 + -1;
  int32_t  const _264 = attn_alibi_softcap_rt_error_access_out_of_bounds(_ucon, "Output buffer attn_out", 1, 0, 31, _57, _263);
  return _264;
 }
 bool  const _265 = 0 <= _58;
 if (!_265)
 {
  int32_t  const _266 = attn_alibi_softcap_rt_error_buffer_extents_negative(_ucon, "Output buffer attn_out", 1, _58);
  return _266;
 }
 bool  const _267 = _64 <= _109;
 int32_t  const _268 = _109 + 1;
 int32_t  const _269 = _65 + _64;
 bool  const _270 = _268 <= _269;
 bool  const _271 = _267 && _270;
 if (!_271)
 {
  int32_t  const _272 = _65 + _64;
  int32_t  const _273 = _272 + -1;
  int32_t  const _274 = attn_alibi_softcap_rt_error_access_out_of_bounds(_ucon, "Input buffer slopes", 0, _109, _109, _64, _273);
  return _274;
 }
 bool  const _275 = 0 <= _65;
 if (!_275)
 {
  int32_t  const _276 = attn_alibi_softcap_rt_error_buffer_extents_negative(_ucon, "Input buffer slopes", 0, _65);
  return _276;
 }
 bool  const _277 = _26 == 1;
 if (!_277)
 {
  int32_t  const _278 = attn_alibi_softcap_rt_error_constraint_violated(_ucon, "attn_k.stride.0", _26, "1", 1);
  return _278;
 }
 bool  const _279 = _24 == 0;
 if (!_279)
 {
  int32_t  const _280 = attn_alibi_softcap_rt_error_constraint_violated(_ucon, "attn_k.min.0", _24, "0", 0);
  return _280;
 }
 bool  const _281 = _25 == _attn_d;
 if (!_281)
 {
  int32_t  const _282 = attn_alibi_softcap_rt_error_constraint_violated(_ucon, "attn_k.extent.0", _25, "attn_d", _attn_d);
  return _282;
 }
 bool  const _283 = _29 == _attn_d;
 if (!_283)
 {
  int32_t  const _284 = attn_alibi_softcap_rt_error_constraint_violated(_ucon, "attn_k.stride.1", _29, "attn_d", _attn_d);
  return _284;
 }
 bool  const _285 = _27 == 0;
 if (!_285)
 {
  int32_t  const _286 = attn_alibi_softcap_rt_error_constraint_violated(_ucon, "attn_k.min.1", _27, "0", 0);
  return _286;
 }
 bool  const _287 = _36 == 1;
 if (!_287)
 {
  int32_t  const _288 = attn_alibi_softcap_rt_error_constraint_violated(_ucon, "attn_q.stride.0", _36, "1", 1);
  return _288;
 }
 bool  const _289 = _34 == 0;
 if (!_289)
 {
  int32_t  const _290 = attn_alibi_softcap_rt_error_constraint_violated(_ucon, "attn_q.min.0", _34, "0", 0);
  return _290;
 }
 bool  const _291 = _35 == _attn_d;
 if (!_291)
 {
  int32_t  const _292 = attn_alibi_softcap_rt_error_constraint_violated(_ucon, "attn_q.extent.0", _35, "attn_d", _attn_d);
  return _292;
 }
 bool  const _293 = _39 == _attn_d;
 if (!_293)
 {
  int32_t  const _294 = attn_alibi_softcap_rt_error_constraint_violated(_ucon, "attn_q.stride.1", _39, "attn_d", _attn_d);
  return _294;
 }
 bool  const _295 = _37 == 0;
 if (!_295)
 {
  int32_t  const _296 = attn_alibi_softcap_rt_error_constraint_violated(_ucon, "attn_q.min.1", _37, "0", 0);
  return _296;
 }
 bool  const _297 = _38 == 32;
 if (!_297)
 {
  int32_t  const _298 = attn_alibi_softcap_rt_error_constraint_violated(_ucon, "attn_q.extent.1", _38, "32", 32);
  return _298;
 }
 bool  const _299 = _46 == 1;
 if (!_299)
 {
  int32_t  const _300 = attn_alibi_softcap_rt_error_constraint_violated(_ucon, "attn_v.stride.0", _46, "1", 1);
  return _300;
 }
 bool  const _301 = _44 == 0;
 if (!_301)
 {
  int32_t  const _302 = attn_alibi_softcap_rt_error_constraint_violated(_ucon, "attn_v.min.0", _44, "0", 0);
  return _302;
 }
 bool  const _303 = _45 == _attn_dv_pad;
 if (!_303)
 {
  int32_t  const _304 = attn_alibi_softcap_rt_error_constraint_violated(_ucon, "attn_v.extent.0", _45, "attn_dv_pad", _attn_dv_pad);
  return _304;
 }
 bool  const _305 = _49 == _attn_dv_pad;
 if (!_305)
 {
  int32_t  const _306 = attn_alibi_softcap_rt_error_constraint_violated(_ucon, "attn_v.stride.1", _49, "attn_dv_pad", _attn_dv_pad);
  return _306;
 }
 bool  const _307 = _47 == 0;
 if (!_307)
 {
  int32_t  const _308 = attn_alibi_softcap_rt_error_constraint_violated(_ucon, "attn_v.min.1", _47, "0", 0);
  return _308;
 }
 bool  const _309 = _56 == 1;
 if (!_309)
 {
  int32_t  const _310 = attn_alibi_softcap_rt_error_constraint_violated(_ucon, "attn_out.stride.0", _56, "1", 1);
  return _310;
 }
 bool  const _311 = _54 == 0;
 if (!_311)
 {
  int32_t  const _312 = attn_alibi_softcap_rt_error_constraint_violated(_ucon, "attn_out.min.0", _54, "0", 0);
  return _312;
 }
 int32_t  const _313 = _attn_dv_pad + 16;
 bool  const _314 = _55 == _313;
 if (!_314)
 {
  int32_t  const _315 = _attn_dv_pad + 16;
  int32_t  const _316 = attn_alibi_softcap_rt_error_constraint_violated(_ucon, "attn_out.extent.0", _55, "(attn_dv_pad + 16)", _315);
  return _316;
 }
 int32_t  const _317 = _attn_dv_pad + 16;
 bool  const _318 = _59 == _317;
 if (!_318)
 {
  int32_t  const _319 = _attn_dv_pad + 16;
  int32_t  const _320 = attn_alibi_softcap_rt_error_constraint_violated(_ucon, "attn_out.stride.1", _59, "(attn_dv_pad + 16)", _319);
  return _320;
 }
 bool  const _321 = _57 == 0;
 if (!_321)
 {
  int32_t  const _322 = attn_alibi_softcap_rt_error_constraint_violated(_ucon, "attn_out.min.1", _57, "0", 0);
  return _322;
 }
 bool  const _323 = _58 == 32;
 if (!_323)
 {
  int32_t  const _324 = attn_alibi_softcap_rt_error_constraint_violated(_ucon, "attn_out.extent.1", _58, "32", 32);
  return _324;
 }
 int64_t  const _325 = (int64_t)(_28);
 int64_t  const _326 = (int64_t)(_attn_d);
 int64_t  const _327 = _325 * _326;
 int64_t  const _328 = (int64_t)(_48);
 int64_t  const _329 = (int64_t)(_attn_dv_pad);
 int64_t  const _330 = _328 * _329;
 int64_t  const _331 = (int64_t)(0ll);
 int64_t  const _332 = _331 - _326;
 bool  const _333 = _326 > _331;
 int64_t  const _334 = (int64_t)(_333 ? _326 : _332);
 uint64_t  const _335 = (uint64_t)(_334);
 uint64_t  const _336 = _335;
 uint64_t  const _337 = (uint64_t)(2147483647ull);
 bool  const _338 = _336 <= _337;
 if (!_338)
 {
  int64_t  const _339 = (int64_t)(_attn_d);
  int64_t  const _340 = (int64_t)(0ll);
  int64_t  const _341 = _340 - _339;
  bool  const _342 = _339 > _340;
  int64_t  const _343 = (int64_t)(_342 ? _339 : _341);
  uint64_t  const _344 = (uint64_t)(_343);
  uint64_t  const _345 = _344;
  uint64_t  const _346 = (uint64_t)(2147483647ull);
  int32_t  const _347 = attn_alibi_softcap_rt_error_buffer_allocation_too_large(_ucon, "attn_k", _345, _346);
  return _347;
 }
 int64_t  const _348 = (int64_t)(0ll);
 int64_t  const _349 = _348 - _327;
 bool  const _350 = _327 > _348;
 int64_t  const _351 = (int64_t)(_350 ? _327 : _349);
 uint64_t  const _352 = (uint64_t)(_351);
 uint64_t  const _353 = _352;
 uint64_t  const _354 = (uint64_t)(2147483647ull);
 bool  const _355 = _353 <= _354;
 if (!_355)
 {
  int64_t  const _356 = (int64_t)(0ll);
  int64_t  const _357 = _356 - _327;
  bool  const _358 = _327 > _356;
  int64_t  const _359 = (int64_t)(_358 ? _327 : _357);
  uint64_t  const _360 = (uint64_t)(_359);
  uint64_t  const _361 = _360;
  uint64_t  const _362 = (uint64_t)(2147483647ull);
  int32_t  const _363 = attn_alibi_softcap_rt_error_buffer_allocation_too_large(_ucon, "attn_k", _361, _362);
  return _363;
 }
 int64_t  const _364 = (int64_t)(2147483647ll);
 bool  const _365 = _327 <= _364;
 if (!_365)
 {
  int64_t  const _366 = (int64_t)(2147483647ll);
  int32_t  const _367 = attn_alibi_softcap_rt_error_buffer_extents_too_large(_ucon, "attn_k", _327, _366);
  return _367;
 }
 int64_t  const _368 = (int64_t)(_attn_d);
 int64_t  const _369 = (int64_t)(0ll);
 int64_t  const _370 = _369 - _368;
 bool  const _371 = _368 > _369;
 int64_t  const _372 = (int64_t)(_371 ? _368 : _370);
 uint64_t  const _373 = (uint64_t)(_372);
 uint64_t  const _374 = _373;
 uint64_t  const _375 = (uint64_t)(2147483647ull);
 bool  const _376 = _374 <= _375;
 if (!_376)
 {
  int64_t  const _377 = (int64_t)(_attn_d);
  int64_t  const _378 = (int64_t)(0ll);
  int64_t  const _379 = _378 - _377;
  bool  const _380 = _377 > _378;
  int64_t  const _381 = (int64_t)(_380 ? _377 : _379);
  uint64_t  const _382 = (uint64_t)(_381);
  uint64_t  const _383 = _382;
  uint64_t  const _384 = (uint64_t)(2147483647ull);
  int32_t  const _385 = attn_alibi_softcap_rt_error_buffer_allocation_too_large(_ucon, "attn_q", _383, _384);
  return _385;
 }
 int64_t  const _386 = (int64_t)(_attn_d);
 int64_t  const _387 = (int64_t)(32ll);
 int64_t  const _388 = _386 * _387;
 int64_t  const _389 = (int64_t)(0ll);
 int64_t  const _390 = _389 - _388;
 bool  const _391 = _388 > _389;
 int64_t  const _392 = (int64_t)(_391 ? _388 : _390);
 uint64_t  const _393 = (uint64_t)(_392);
 uint64_t  const _394 = _393;
 uint64_t  const _395 = (uint64_t)(2147483647ull);
 bool  const _396 = _394 <= _395;
 if (!_396)
 {
  int64_t  const _397 = (int64_t)(_attn_d);
  int64_t  const _398 = (int64_t)(32ll);
  int64_t  const _399 = _397 * _398;
  int64_t  const _400 = (int64_t)(0ll);
  int64_t  const _401 = _400 - _399;
  bool  const _402 = _399 > _400;
  int64_t  const _403 = (int64_t)(_402 ? _399 : _401);
  uint64_t  const _404 = (uint64_t)(_403);
  uint64_t  const _405 = _404;
  uint64_t  const _406 = (uint64_t)(2147483647ull);
  int32_t  const _407 = attn_alibi_softcap_rt_error_buffer_allocation_too_large(_ucon, "attn_q", _405, _406);
  return _407;
 }
 int64_t  const _408 = (int64_t)(_attn_d);
 int64_t  const _409 = (int64_t)(67108863ll);
 bool  const _410 = _408 <= _409;
 if (!_410)
 {
  int64_t  const _411 = (int64_t)(_attn_d);
  int64_t  const _412 = (int64_t)(32ll);
  int64_t  const _413 = _411 * _412;
  int64_t  const _414 = (int64_t)(2147483647ll);
  int32_t  const _415 = attn_alibi_softcap_rt_error_buffer_extents_too_large(_ucon, "attn_q", _413, _414);
  return _415;
 }
 int64_t  const _416 = (int64_t)(_attn_dv_pad);
 int64_t  const _417 = (int64_t)(0ll);
 int64_t  const _418 = _417 - _416;
 bool  const _419 = _416 > _417;
 int64_t  const _420 = (int64_t)(_419 ? _416 : _418);
 uint64_t  const _421 = (uint64_t)(_420);
 uint64_t  const _422 = _421;
 uint64_t  const _423 = (uint64_t)(2147483647ull);
 bool  const _424 = _422 <= _423;
 if (!_424)
 {
  int64_t  const _425 = (int64_t)(_attn_dv_pad);
  int64_t  const _426 = (int64_t)(0ll);
  int64_t  const _427 = _426 - _425;
  bool  const _428 = _425 > _426;
  int64_t  const _429 = (int64_t)(_428 ? _425 : _427);
  uint64_t  const _430 = (uint64_t)(_429);
  uint64_t  const _431 = _430;
  uint64_t  const _432 = (uint64_t)(2147483647ull);
  int32_t  const _433 = attn_alibi_softcap_rt_error_buffer_allocation_too_large(_ucon, "attn_v", _431, _432);
  return _433;
 }
 int64_t  const _434 = (int64_t)(0ll);
 int64_t  const _435 = _434 - _330;
 bool  const _436 = _330 > _434;
 int64_t  const _437 = (int64_t)(_436 ? _330 : _435);
 uint64_t  const _438 = (uint64_t)(_437);
 uint64_t  const _439 = _438;
 uint64_t  const _440 = (uint64_t)(2147483647ull);
 bool  const _441 = _439 <= _440;
 if (!_441)
 {
  int64_t  const _442 = (int64_t)(0ll);
  int64_t  const _443 = _442 - _330;
  bool  const _444 = _330 > _442;
  int64_t  const _445 = (int64_t)(_444 ? _330 : _443);
  uint64_t  const _446 = (uint64_t)(_445);
  uint64_t  const _447 = _446;
  uint64_t  const _448 = (uint64_t)(2147483647ull);
  int32_t  const _449 = attn_alibi_softcap_rt_error_buffer_allocation_too_large(_ucon, "attn_v", _447, _448);
  return _449;
 }
 int64_t  const _450 = (int64_t)(2147483647ll);
 bool  const _451 = _330 <= _450;
 if (!_451)
 {
  int64_t  const _452 = (int64_t)(2147483647ll);
  int32_t  const _453 = attn_alibi_softcap_rt_error_buffer_extents_too_large(_ucon, "attn_v", _330, _452);
  return _453;
 }
 uint64_t  const _454 = (uint64_t)(_55);
 uint64_t  const _455 = (uint64_t)(2147483647ull);
 bool  const _456 = _454 <= _455;
 if (!_456)
 {
  uint64_t  const _457 = (uint64_t)(_55);
  uint64_t  const _458 = (uint64_t)(2147483647ull);
  int32_t  const _459 = attn_alibi_softcap_rt_error_buffer_allocation_too_large(_ucon, "attn_out", _457, _458);
  return _459;
 }
 int64_t  const _460 = (int64_t)(_59);
 int64_t  const _461 = (int64_t)(32ll);
 int64_t  const _462 = _460 * _461;
 int64_t  const _463 = (int64_t)(0ll);
 int64_t  const _464 = _463 - _462;
 bool  const _465 = _462 > _463;
 int64_t  const _466 = (int64_t)(_465 ? _462 : _464);
 uint64_t  const _467 = (uint64_t)(_466);
 uint64_t  const _468 = _467;
 uint64_t  const _469 = (uint64_t)(2147483647ull);
 bool  const _470 = _468 <= _469;
 if (!_470)
 {
  int64_t  const _471 = (int64_t)(_59);
  int64_t  const _472 = (int64_t)(32ll);
  int64_t  const _473 = _471 * _472;
  int64_t  const _474 = (int64_t)(0ll);
  int64_t  const _475 = _474 - _473;
  bool  const _476 = _473 > _474;
  int64_t  const _477 = (int64_t)(_476 ? _473 : _475);
  uint64_t  const _478 = (uint64_t)(_477);
  uint64_t  const _479 = _478;
  uint64_t  const _480 = (uint64_t)(2147483647ull);
  int32_t  const _481 = attn_alibi_softcap_rt_error_buffer_allocation_too_large(_ucon, "attn_out", _479, _480);
  return _481;
 }
 int64_t  const _482 = (int64_t)(_55);
 int64_t  const _483 = (int64_t)(67108863ll);
 bool  const _484 = _482 <= _483;
 if (!_484)
 {
  int64_t  const _485 = (int64_t)(_55);
  int64_t  const _486 = (int64_t)(32ll);
  int64_t  const _487 = _485 * _486;
  int64_t  const _488 = (int64_t)(2147483647ll);
  int32_t  const _489 = attn_alibi_softcap_rt_error_buffer_extents_too_large(_ucon, "attn_out", _487, _488);
  return _489;
 }
 int64_t  const _490 = (int64_t)(_65);
 int64_t  const _491 = (int64_t)(_66);
 int64_t  const _492 = _490 * _491;
 int64_t  const _493 = (int64_t)(0ll);
 int64_t  const _494 = _493 - _492;
 bool  const _495 = _492 > _493;
 int64_t  const _496 = (int64_t)(_495 ? _492 : _494);
 uint64_t  const _497 = (uint64_t)(_496);
 uint64_t  const _498 = _497;
 uint64_t  const _499 = (uint64_t)(2147483647ull);
 bool  const _500 = _498 <= _499;
 if (!_500)
 {
  int64_t  const _501 = (int64_t)(_65);
  int64_t  const _502 = (int64_t)(_66);
  int64_t  const _503 = _501 * _502;
  int64_t  const _504 = (int64_t)(0ll);
  int64_t  const _505 = _504 - _503;
  bool  const _506 = _503 > _504;
  int64_t  const _507 = (int64_t)(_506 ? _503 : _505);
  uint64_t  const _508 = (uint64_t)(_507);
  uint64_t  const _509 = _508;
  uint64_t  const _510 = (uint64_t)(2147483647ull);
  int32_t  const _511 = attn_alibi_softcap_rt_error_buffer_allocation_too_large(_ucon, "slopes", _509, _510);
  return _511;
 }
 bool  const _512 = !(_22);
 if (!_512)
 {
  int32_t  const _513 = attn_alibi_softcap_rt_error_device_dirty_with_no_device_support(_ucon, "Input buffer attn_k");
  return _513;
 }
 bool  const _514 = !(_32);
 if (!_514)
 {
  int32_t  const _515 = attn_alibi_softcap_rt_error_device_dirty_with_no_device_support(_ucon, "Input buffer attn_q");
  return _515;
 }
 bool  const _516 = !(_42);
 if (!_516)
 {
  int32_t  const _517 = attn_alibi_softcap_rt_error_device_dirty_with_no_device_support(_ucon, "Input buffer attn_v");
  return _517;
 }
 bool  const _518 = !(_52);
 if (!_518)
 {
  int32_t  const _519 = attn_alibi_softcap_rt_error_device_dirty_with_no_device_support(_ucon, "Output buffer attn_out");
  return _519;
 }
 bool  const _520 = !(_62);
 if (!_520)
 {
  int32_t  const _521 = attn_alibi_softcap_rt_error_device_dirty_with_no_device_support(_ucon, "Input buffer slopes");
  return _521;
 }
 uint64_t  const _522 = (uint64_t)(0ull);
 auto * const _523 = (void *)(_522);
 bool  const _524 = _attn_k != _523;
 if (!_524)
 {
  int32_t  const _525 = attn_alibi_softcap_rt_error_host_is_null(_ucon, "Input buffer attn_k");
  return _525;
 }
 uint64_t  const _526 = (uint64_t)(0ull);
 auto * const _527 = (void *)(_526);
 bool  const _528 = _attn_q != _527;
 if (!_528)
 {
  int32_t  const _529 = attn_alibi_softcap_rt_error_host_is_null(_ucon, "Input buffer attn_q");
  return _529;
 }
 uint64_t  const _530 = (uint64_t)(0ull);
 auto * const _531 = (void *)(_530);
 bool  const _532 = _attn_v != _531;
 if (!_532)
 {
  int32_t  const _533 = attn_alibi_softcap_rt_error_host_is_null(_ucon, "Input buffer attn_v");
  return _533;
 }
 uint64_t  const _534 = (uint64_t)(0ull);
 auto * const _535 = (void *)(_534);
 bool  const _536 = _attn_out != _535;
 if (!_536)
 {
  int32_t  const _537 = attn_alibi_softcap_rt_error_host_is_null(_ucon, "Output buffer attn_out");
  return _537;
 }
 uint64_t  const _538 = (uint64_t)(0ull);
 auto * const _539 = (void *)(_538);
 bool  const _540 = _slopes != _539;
 if (!_540)
 {
  int32_t  const _541 = attn_alibi_softcap_rt_error_host_is_null(_ucon, "Input buffer slopes");
  return _541;
 }
 bool  const _542 = 0 <= _attn_tile;
 if (!_542)
 {
  int64_t  const _543 = (int64_t)(_attn_tile);
  int64_t  const _544 = (int64_t)(0ll);
  int32_t  const _545 = attn_alibi_softcap_rt_error_param_too_small_i64(_ucon, "attn_tile", _543, _544);
  return _545;
 }
 bool  const _546 = _attn_q_step <= 1;
 if (!_546)
 {
  int64_t  const _547 = (int64_t)(_attn_q_step);
  int64_t  const _548 = (int64_t)(1ll);
  int32_t  const _549 = attn_alibi_softcap_rt_error_param_too_large_i64(_ucon, "attn_q_step", _547, _548);
  return _549;
 }
 bool  const _550 = 0 <= _attn_q_step;
 if (!_550)
 {
  int64_t  const _551 = (int64_t)(_attn_q_step);
  int64_t  const _552 = (int64_t)(0ll);
  int32_t  const _553 = attn_alibi_softcap_rt_error_param_too_small_i64(_ucon, "attn_q_step", _551, _552);
  return _553;
 }
 bool  const _554 = 0 <= _attn_lk;
 if (!_554)
 {
  int64_t  const _555 = (int64_t)(_attn_lk);
  int64_t  const _556 = (int64_t)(0ll);
  int32_t  const _557 = attn_alibi_softcap_rt_error_param_too_small_i64(_ucon, "attn_lk", _555, _556);
  return _557;
 }
 bool  const _558 = 0 <= _attn_head;
 if (!_558)
 {
  int64_t  const _559 = (int64_t)(_attn_head);
  int64_t  const _560 = (int64_t)(0ll);
  int32_t  const _561 = attn_alibi_softcap_rt_error_param_too_small_i64(_ucon, "attn_head", _559, _560);
  return _561;
 }
 bool  const _562 = 1 <= _attn_dv_pad;
 if (!_562)
 {
  int64_t  const _563 = (int64_t)(_attn_dv_pad);
  int64_t  const _564 = (int64_t)(1ll);
  int32_t  const _565 = attn_alibi_softcap_rt_error_param_too_small_i64(_ucon, "attn_dv_pad", _563, _564);
  return _565;
 }
 bool  const _566 = 1 <= _attn_d;
 if (!_566)
 {
  int64_t  const _567 = (int64_t)(_attn_d);
  int64_t  const _568 = (int64_t)(1ll);
  int32_t  const _569 = attn_alibi_softcap_rt_error_param_too_small_i64(_ucon, "attn_d", _567, _568);
  return _569;
 }
 {
  int64_t  const _570 = _attn_d;
  int64_t  const _571 = _570 * 32;
  if ((_571 > ((int64_t(1) << 31) - 1)) || ((_571 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
  {
   attn_alibi_softcap_rt_error(_ucon, "32-bit signed overflow computing size of allocation qs\n");
   return -1;
  } // overflow test qs
  int64_t  const _572 = _571;
  float *_qs = (float  *)attn_alibi_softcap_rt_malloc(_ucon, sizeof(float )*_572);
  if (!_qs)
  {
   int32_t  const _573 = attn_alibi_softcap_rt_error_out_of_memory(_ucon);
   return _573;
  }
  HalideFreeHelper _qs_free(_ucon, _qs, attn_alibi_softcap_rt_free);
  // produce qs
  float  const _574 = float_from_bits(1065353216 /* 1 */);
  float  const _575 = (float)(_attn_d);
  float  const _576 = sqrt_f32(_575);
  float  const _577 = _574 / _576;
  for (int _qs_s0_ii_ii = 0; _qs_s0_ii_ii < 0 + 2; _qs_s0_ii_ii++)
  {
   int32_t  const _578 = _attn_d * _qs_s0_ii_ii;
   int32_t  const _579 = _578 * 16;
   for (int _qs_s0_c = 0; _qs_s0_c < 0 + _attn_d; _qs_s0_c++)
   {
    int32_t  const _580 = _qs_s0_c + _579;
    int32x16_t  const _581 = int32x16_t_ops::ramp(_580, _attn_d);
    float16  const _582 = float16_ops::load_gather(_attn_q, _581);
    float16  const _583 = float16_ops::broadcast(_577);
    float16  const _584 = _582 * _583;
    int32_t  const _585 = _qs_s0_c * 2;
    int32_t  const _586 = _585 + _qs_s0_ii_ii;
    int32_t  const _587 = _586 * 16;
    float16_ops::store(_584, _qs, _587);
   } // for _qs_s0_c
  } // for _qs_s0_ii_ii
  int32_t  const _588 = ::halide_cpp_max(_85, 0);
  int32_t  const _589 = _88 - _588;
  {
   int32_t  const _590 = _589 + -1;
   int32_t  const _591 = _590 >> 3;
   int32_t  const _592 = _591 * 8;
   int32_t  const _593 = _592 + 8;
   int64_t  const _594 = _593;
   int64_t  const _595 = _594 * 32;
   if ((_595 > ((int64_t(1) << 31) - 1)) || ((_595 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
   {
    attn_alibi_softcap_rt_error(_ucon, "32-bit signed overflow computing size of allocation scores\n");
    return -1;
   } // overflow test scores
   int64_t  const _596 = _595;
   float *_scores = (float  *)attn_alibi_softcap_rt_malloc(_ucon, sizeof(float )*_596);
   if (!_scores)
   {
    int32_t  const _597 = attn_alibi_softcap_rt_error_out_of_memory(_ucon);
    return _597;
   }
   HalideFreeHelper _scores_free(_ucon, _scores, attn_alibi_softcap_rt_free);
   // produce scores
   // consume qs
   int32_t  const _598 = ::halide_cpp_max(_85, 0);
   int32_t  const _599 = _589 + 7;
   int32_t  const _600 = _599 >> 3;
   for (int _scores_s0_j_jo = 0; _scores_s0_j_jo < 0 + _600; _scores_s0_j_jo++)
   {
    int32_t  const _601 = _scores_s0_j_jo * 8;
    int32_t  const _602 = _601 + _598;
    {
     float _dot[256];
     // produce dot
     float  const _603 = float_from_bits(0 /* 0 */);
     float16  const _604 = float16_ops::broadcast(_603);
     float16_ops::store(_604, _dot, 0);
     float  const _605 = float_from_bits(0 /* 0 */);
     float16  const _606 = float16_ops::broadcast(_605);
     float16_ops::store(_606, _dot, 32);
     float  const _607 = float_from_bits(0 /* 0 */);
     float16  const _608 = float16_ops::broadcast(_607);
     float16_ops::store(_608, _dot, 64);
     float  const _609 = float_from_bits(0 /* 0 */);
     float16  const _610 = float16_ops::broadcast(_609);
     float16_ops::store(_610, _dot, 96);
     float  const _611 = float_from_bits(0 /* 0 */);
     float16  const _612 = float16_ops::broadcast(_611);
     float16_ops::store(_612, _dot, 128);
     float  const _613 = float_from_bits(0 /* 0 */);
     float16  const _614 = float16_ops::broadcast(_613);
     float16_ops::store(_614, _dot, 160);
     float  const _615 = float_from_bits(0 /* 0 */);
     float16  const _616 = float16_ops::broadcast(_615);
     float16_ops::store(_616, _dot, 192);
     float  const _617 = float_from_bits(0 /* 0 */);
     float16  const _618 = float16_ops::broadcast(_617);
     float16_ops::store(_618, _dot, 224);
     float  const _619 = float_from_bits(0 /* 0 */);
     float16  const _620 = float16_ops::broadcast(_619);
     float16_ops::store(_620, _dot, 16);
     float  const _621 = float_from_bits(0 /* 0 */);
     float16  const _622 = float16_ops::broadcast(_621);
     float16_ops::store(_622, _dot, 48);
     float  const _623 = float_from_bits(0 /* 0 */);
     float16  const _624 = float16_ops::broadcast(_623);
     float16_ops::store(_624, _dot, 80);
     float  const _625 = float_from_bits(0 /* 0 */);
     float16  const _626 = float16_ops::broadcast(_625);
     float16_ops::store(_626, _dot, 112);
     float  const _627 = float_from_bits(0 /* 0 */);
     float16  const _628 = float16_ops::broadcast(_627);
     float16_ops::store(_628, _dot, 144);
     float  const _629 = float_from_bits(0 /* 0 */);
     float16  const _630 = float16_ops::broadcast(_629);
     float16_ops::store(_630, _dot, 176);
     float  const _631 = float_from_bits(0 /* 0 */);
     float16  const _632 = float16_ops::broadcast(_631);
     float16_ops::store(_632, _dot, 208);
     float  const _633 = float_from_bits(0 /* 0 */);
     float16  const _634 = float16_ops::broadcast(_633);
     float16_ops::store(_634, _dot, 240);
     int32_t  const _635 = _28 + -1;
     int32_t  const _636 = ::halide_cpp_min(_635, _602);
     int32_t  const _637 = _636 * _attn_d;
     int32_t  const _638 = _602 + 8;
     int32_t  const _639 = ::halide_cpp_min(_638, _28);
     int32_t  const _640 = _639 + -1;
     int32_t  const _641 = _640 * _attn_d;
     int32_t  const _642 = _602 + 7;
     int32_t  const _643 = ::halide_cpp_min(_642, _28);
     int32_t  const _644 = _643 + -1;
     int32_t  const _645 = _644 * _attn_d;
     int32_t  const _646 = _602 + 6;
     int32_t  const _647 = ::halide_cpp_min(_646, _28);
     int32_t  const _648 = _647 + -1;
     int32_t  const _649 = _648 * _attn_d;
     int32_t  const _650 = _602 + 5;
     int32_t  const _651 = ::halide_cpp_min(_650, _28);
     int32_t  const _652 = _651 + -1;
     int32_t  const _653 = _652 * _attn_d;
     int32_t  const _654 = _602 + 4;
     int32_t  const _655 = ::halide_cpp_min(_654, _28);
     int32_t  const _656 = _655 + -1;
     int32_t  const _657 = _656 * _attn_d;
     int32_t  const _658 = _602 + 3;
     int32_t  const _659 = ::halide_cpp_min(_658, _28);
     int32_t  const _660 = _659 + -1;
     int32_t  const _661 = _660 * _attn_d;
     int32_t  const _662 = _602 + 2;
     int32_t  const _663 = ::halide_cpp_min(_662, _28);
     int32_t  const _664 = _663 + -1;
     int32_t  const _665 = _664 * _attn_d;
     for (int _dot_s1_rd__x = 0; _dot_s1_rd__x < 0 + _attn_d; _dot_s1_rd__x++)
     {
      float16  const _666 = float16_ops::load(_dot, 0);
      int32_t  const _667 = _dot_s1_rd__x * 32;
      float16  const _668 = float16_ops::load(_qs, _667);
      int32_t  const _669 = _dot_s1_rd__x + _637;
      float  const _670 = ((float const *)_attn_k)[_669];
      float16  const _671 = float16_ops::broadcast(_670);
      float16  const _672 = _668 * _671;
      float16  const _673 = _666 + _672;
      float16_ops::store(_673, _dot, 0);
      float16  const _674 = float16_ops::load(_dot, 16);
      int32_t  const _675 = _dot_s1_rd__x * 32;
      int32_t  const _676 = _675 + 16;
      float16  const _677 = float16_ops::load(_qs, _676);
      int32_t  const _678 = _dot_s1_rd__x + _637;
      float  const _679 = ((float const *)_attn_k)[_678];
      float16  const _680 = float16_ops::broadcast(_679);
      float16  const _681 = _677 * _680;
      float16  const _682 = _674 + _681;
      float16_ops::store(_682, _dot, 16);
      float16  const _683 = float16_ops::load(_dot, 32);
      int32_t  const _684 = _dot_s1_rd__x * 32;
      float16  const _685 = float16_ops::load(_qs, _684);
      int32_t  const _686 = _dot_s1_rd__x + _665;
      float  const _687 = ((float const *)_attn_k)[_686];
      float16  const _688 = float16_ops::broadcast(_687);
      float16  const _689 = _685 * _688;
      float16  const _690 = _683 + _689;
      float16_ops::store(_690, _dot, 32);
      float16  const _691 = float16_ops::load(_dot, 48);
      int32_t  const _692 = _dot_s1_rd__x * 32;
      int32_t  const _693 = _692 + 16;
      float16  const _694 = float16_ops::load(_qs, _693);
      int32_t  const _695 = _dot_s1_rd__x + _665;
      float  const _696 = ((float const *)_attn_k)[_695];
      float16  const _697 = float16_ops::broadcast(_696);
      float16  const _698 = _694 * _697;
      float16  const _699 = _691 + _698;
      float16_ops::store(_699, _dot, 48);
      float16  const _700 = float16_ops::load(_dot, 64);
      int32_t  const _701 = _dot_s1_rd__x * 32;
      float16  const _702 = float16_ops::load(_qs, _701);
      int32_t  const _703 = _dot_s1_rd__x + _661;
      float  const _704 = ((float const *)_attn_k)[_703];
      float16  const _705 = float16_ops::broadcast(_704);
      float16  const _706 = _702 * _705;
      float16  const _707 = _700 + _706;
      float16_ops::store(_707, _dot, 64);
      float16  const _708 = float16_ops::load(_dot, 80);
      int32_t  const _709 = _dot_s1_rd__x * 32;
      int32_t  const _710 = _709 + 16;
      float16  const _711 = float16_ops::load(_qs, _710);
      int32_t  const _712 = _dot_s1_rd__x + _661;
      float  const _713 = ((float const *)_attn_k)[_712];
      float16  const _714 = float16_ops::broadcast(_713);
      float16  const _715 = _711 * _714;
      float16  const _716 = _708 + _715;
      float16_ops::store(_716, _dot, 80);
      float16  const _717 = float16_ops::load(_dot, 96);
      int32_t  const _718 = _dot_s1_rd__x * 32;
      float16  const _719 = float16_ops::load(_qs, _718);
      int32_t  const _720 = _dot_s1_rd__x + _657;
      float  const _721 = ((float const *)_attn_k)[_720];
      float16  const _722 = float16_ops::broadcast(_721);
      float16  const _723 = _719 * _722;
      float16  const _724 = _717 + _723;
      float16_ops::store(_724, _dot, 96);
      float16  const _725 = float16_ops::load(_dot, 112);
      int32_t  const _726 = _dot_s1_rd__x * 32;
      int32_t  const _727 = _726 + 16;
      float16  const _728 = float16_ops::load(_qs, _727);
      int32_t  const _729 = _dot_s1_rd__x + _657;
      float  const _730 = ((float const *)_attn_k)[_729];
      float16  const _731 = float16_ops::broadcast(_730);
      float16  const _732 = _728 * _731;
      float16  const _733 = _725 + _732;
      float16_ops::store(_733, _dot, 112);
      float16  const _734 = float16_ops::load(_dot, 128);
      int32_t  const _735 = _dot_s1_rd__x * 32;
      float16  const _736 = float16_ops::load(_qs, _735);
      int32_t  const _737 = _dot_s1_rd__x + _653;
      float  const _738 = ((float const *)_attn_k)[_737];
      float16  const _739 = float16_ops::broadcast(_738);
      float16  const _740 = _736 * _739;
      float16  const _741 = _734 + _740;
      float16_ops::store(_741, _dot, 128);
      float16  const _742 = float16_ops::load(_dot, 144);
      int32_t  const _743 = _dot_s1_rd__x * 32;
      int32_t  const _744 = _743 + 16;
      float16  const _745 = float16_ops::load(_qs, _744);
      int32_t  const _746 = _dot_s1_rd__x + _653;
      float  const _747 = ((float const *)_attn_k)[_746];
      float16  const _748 = float16_ops::broadcast(_747);
      float16  const _749 = _745 * _748;
      float16  const _750 = _742 + _749;
      float16_ops::store(_750, _dot, 144);
      float16  const _751 = float16_ops::load(_dot, 160);
      int32_t  const _752 = _dot_s1_rd__x * 32;
      float16  const _753 = float16_ops::load(_qs, _752);
      int32_t  const _754 = _dot_s1_rd__x + _649;
      float  const _755 = ((float const *)_attn_k)[_754];
      float16  const _756 = float16_ops::broadcast(_755);
      float16  const _757 = _753 * _756;
      float16  const _758 = _751 + _757;
      float16_ops::store(_758, _dot, 160);
      float16  const _759 = float16_ops::load(_dot, 176);
      int32_t  const _760 = _dot_s1_rd__x * 32;
      int32_t  const _761 = _760 + 16;
      float16  const _762 = float16_ops::load(_qs, _761);
      int32_t  const _763 = _dot_s1_rd__x + _649;
      float  const _764 = ((float const *)_attn_k)[_763];
      float16  const _765 = float16_ops::broadcast(_764);
      float16  const _766 = _762 * _765;
      float16  const _767 = _759 + _766;
      float16_ops::store(_767, _dot, 176);
      float16  const _768 = float16_ops::load(_dot, 192);
      int32_t  const _769 = _dot_s1_rd__x * 32;
      float16  const _770 = float16_ops::load(_qs, _769);
      int32_t  const _771 = _dot_s1_rd__x + _645;
      float  const _772 = ((float const *)_attn_k)[_771];
      float16  const _773 = float16_ops::broadcast(_772);
      float16  const _774 = _770 * _773;
      float16  const _775 = _768 + _774;
      float16_ops::store(_775, _dot, 192);
      float16  const _776 = float16_ops::load(_dot, 208);
      int32_t  const _777 = _dot_s1_rd__x * 32;
      int32_t  const _778 = _777 + 16;
      float16  const _779 = float16_ops::load(_qs, _778);
      int32_t  const _780 = _dot_s1_rd__x + _645;
      float  const _781 = ((float const *)_attn_k)[_780];
      float16  const _782 = float16_ops::broadcast(_781);
      float16  const _783 = _779 * _782;
      float16  const _784 = _776 + _783;
      float16_ops::store(_784, _dot, 208);
      float16  const _785 = float16_ops::load(_dot, 224);
      int32_t  const _786 = _dot_s1_rd__x * 32;
      float16  const _787 = float16_ops::load(_qs, _786);
      int32_t  const _788 = _dot_s1_rd__x + _641;
      float  const _789 = ((float const *)_attn_k)[_788];
      float16  const _790 = float16_ops::broadcast(_789);
      float16  const _791 = _787 * _790;
      float16  const _792 = _785 + _791;
      float16_ops::store(_792, _dot, 224);
      float16  const _793 = float16_ops::load(_dot, 240);
      int32_t  const _794 = _dot_s1_rd__x * 32;
      int32_t  const _795 = _794 + 16;
      float16  const _796 = float16_ops::load(_qs, _795);
      int32_t  const _797 = _dot_s1_rd__x + _641;
      float  const _798 = ((float const *)_attn_k)[_797];
      float16  const _799 = float16_ops::broadcast(_798);
      float16  const _800 = _796 * _799;
      float16  const _801 = _793 + _800;
      float16_ops::store(_801, _dot, 240);
     } // for _dot_s1_rd__x
     // consume dot
     float16  const _802 = float16_ops::load(_dot, 0);
     int32_t  const _803 = _602 - _598;
     int32_t  const _804 = _803 * 32;
     float16_ops::store(_802, _scores, _804);
     float16  const _805 = float16_ops::load(_dot, 16);
     int32_t  const _806 = _602 - _598;
     int32_t  const _807 = _806 * 32;
     int32_t  const _808 = _807 + 16;
     float16_ops::store(_805, _scores, _808);
     float16  const _809 = float16_ops::load(_dot, 32);
     int32_t  const _810 = _602 - _598;
     int32_t  const _811 = _810 * 32;
     int32_t  const _812 = _811 + 32;
     float16_ops::store(_809, _scores, _812);
     float16  const _813 = float16_ops::load(_dot, 48);
     int32_t  const _814 = _602 - _598;
     int32_t  const _815 = _814 * 32;
     int32_t  const _816 = _815 + 48;
     float16_ops::store(_813, _scores, _816);
     float16  const _817 = float16_ops::load(_dot, 64);
     int32_t  const _818 = _602 - _598;
     int32_t  const _819 = _818 * 32;
     int32_t  const _820 = _819 + 64;
     float16_ops::store(_817, _scores, _820);
     float16  const _821 = float16_ops::load(_dot, 80);
     int32_t  const _822 = _602 - _598;
     int32_t  const _823 = _822 * 32;
     int32_t  const _824 = _823 + 80;
     float16_ops::store(_821, _scores, _824);
     float16  const _825 = float16_ops::load(_dot, 96);
     int32_t  const _826 = _602 - _598;
     int32_t  const _827 = _826 * 32;
     int32_t  const _828 = _827 + 96;
     float16_ops::store(_825, _scores, _828);
     float16  const _829 = float16_ops::load(_dot, 112);
     int32_t  const _830 = _602 - _598;
     int32_t  const _831 = _830 * 32;
     int32_t  const _832 = _831 + 112;
     float16_ops::store(_829, _scores, _832);
     float16  const _833 = float16_ops::load(_dot, 128);
     int32_t  const _834 = _602 - _598;
     int32_t  const _835 = _834 * 32;
     int32_t  const _836 = _835 + 128;
     float16_ops::store(_833, _scores, _836);
     float16  const _837 = float16_ops::load(_dot, 144);
     int32_t  const _838 = _602 - _598;
     int32_t  const _839 = _838 * 32;
     int32_t  const _840 = _839 + 144;
     float16_ops::store(_837, _scores, _840);
     float16  const _841 = float16_ops::load(_dot, 160);
     int32_t  const _842 = _602 - _598;
     int32_t  const _843 = _842 * 32;
     int32_t  const _844 = _843 + 160;
     float16_ops::store(_841, _scores, _844);
     float16  const _845 = float16_ops::load(_dot, 176);
     int32_t  const _846 = _602 - _598;
     int32_t  const _847 = _846 * 32;
     int32_t  const _848 = _847 + 176;
     float16_ops::store(_845, _scores, _848);
     float16  const _849 = float16_ops::load(_dot, 192);
     int32_t  const _850 = _602 - _598;
     int32_t  const _851 = _850 * 32;
     int32_t  const _852 = _851 + 192;
     float16_ops::store(_849, _scores, _852);
     float16  const _853 = float16_ops::load(_dot, 208);
     int32_t  const _854 = _602 - _598;
     int32_t  const _855 = _854 * 32;
     int32_t  const _856 = _855 + 208;
     float16_ops::store(_853, _scores, _856);
     float16  const _857 = float16_ops::load(_dot, 224);
     int32_t  const _858 = _602 - _598;
     int32_t  const _859 = _858 * 32;
     int32_t  const _860 = _859 + 224;
     float16_ops::store(_857, _scores, _860);
     float16  const _861 = float16_ops::load(_dot, 240);
     int32_t  const _862 = _602 - _598;
     int32_t  const _863 = _862 * 32;
     int32_t  const _864 = _863 + 240;
     float16_ops::store(_861, _scores, _864);
    } // alloc _dot
   } // for _scores_s0_j_jo
   _qs_free.free();
   int32_t  const _865 = ::halide_cpp_max(_85, 0);
   int32_t  const _866 = _88 - _865;
   {
    int64_t  const _867 = _866;
    int64_t  const _868 = _867 * 32;
    if ((_868 > ((int64_t(1) << 31) - 1)) || ((_868 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
    {
     attn_alibi_softcap_rt_error(_ucon, "32-bit signed overflow computing size of allocation masked\n");
     return -1;
    } // overflow test masked
    int64_t  const _869 = _868;
    float *_masked = (float  *)attn_alibi_softcap_rt_malloc(_ucon, sizeof(float )*_869);
    if (!_masked)
    {
     int32_t  const _870 = attn_alibi_softcap_rt_error_out_of_memory(_ucon);
     return _870;
    }
    HalideFreeHelper _masked_free(_ucon, _masked, attn_alibi_softcap_rt_free);
    // produce masked
    // consume scores
    int32_t  const _871 = ::halide_cpp_max(_85, 0);
    int32_t  const _872 = _attn_tile * 32;
    int32_t  const _873 = _attn_tile * 2;
    int32_t  const _874 = _873 + _attn_q_step;
    int32_t  const _875 = _874 * 16;
    bool  const _876 = _64 <= _attn_head;
    int32_t  const _877 = _65 + _64;
    bool  const _878 = _attn_head < _877;
    bool  const _879 = _876 && _878;
    int32_t  const _880 = _attn_head - _64;
    int32_t  const _881 = _65 + -1;
    int32_t  const _882 = ::halide_cpp_min(_880, _881);
    int32_t  const _883 = ::halide_cpp_max(_882, 0);
    int32_t  const _884 = _883 * _66;
    for (int _masked_s0_j_rebased = 0; _masked_s0_j_rebased < 0 + _589; _masked_s0_j_rebased++)
    {
     float  const _885 = ((float const *)_slopes)[_884];
     int32_t  const _886 = _masked_s0_j_rebased * 32;
     float16  const _887 = float16_ops::load(_scores, _886);
     int32_t  const _888 = _871 - _872;
     int32_t  const _889 = _888 + _masked_s0_j_rebased;
     int32_t  const _890 = 0 - _attn_q_step;
     int32x16_t  const _891 = int32x16_t_ops::ramp(_889, _890);
     float16  const _892 = float16_ops::convert_from<int32x16_t>(_891);
     if (!_879)
     {
      char b0[1024];
      snprintf(b0, 1024, "%llu", (long long unsigned)(_879));
      auto * const _893 = b0;
      int32_t  const _894 = (int32_t)(_879 ? -1 : 0);
      char b1[1024];
      snprintf(b1, 1024, "%f%s%lld%s%lld%s%lld%s", _885, " buffer 'slopes': index ", (long long)(_attn_head), " out of range in dimension ", (long long)(_894), " of extent ", (long long)(_65), "\n");
      auto * const _895 = b1;
      int32_t  const _896 = attn_alibi_softcap_rt_error_requirement_failed(_ucon, _893, _895);
      return _896;
     }
     float  const _897 = _885;
     float16  const _898 = float16_ops::broadcast(_897);
     float16  const _899 = _892 * _898;
     float16  const _900 = _887 + _899;
     float  const _901 = float_from_bits(1036319193 /* 0.0961797 */);
     float16  const _902 = float16_ops::broadcast(_901);
     float16  const _903 = _900 * _902;
     float  const _904 = float_from_bits(1124073472 /* 128 */);
     float16  const _905 = float16_ops::broadcast(_904);
     float16  const _906 = float16_ops::min(_903, _905);
     float  const _907 = float_from_bits(3271426048 /* -127 */);
     float16  const _908 = float16_ops::broadcast(_907);
     float16  const _909 = float16_ops::max(_906, _908);
     float  const _910 = float_from_bits(1124007936 /* 127.5 */);
     float16  const _911 = float16_ops::broadcast(_910);
     float16  const _912 = _909 + _911;
     int32x16_t  const _913 = int32x16_t_ops::convert_from<float16>(_912);
     int32x16_t  const _914 = int32x16_t_ops::broadcast(-127);
     int32x16_t  const _915 = _913 + _914;
     float16  const _916 = float16_ops::convert_from<int32x16_t>(_915);
     float16  const _917 = _909 - _916;
     uint32_t  const _918 = (uint32_t)(0ull);
     uint32x16_t  const _919 = uint32x16_t_ops::broadcast(_918);
     uint32_t  const _920 = (uint32_t)(4294967295ull);
     uint32x16_t  const _921 = uint32x16_t_ops::broadcast(_920);
     int32x16_t  const _922 = int32x16_t_ops::ramp(_872, _attn_q_step);
     int32_t  const _923 = _masked_s0_j_rebased + _871;
     int32x16_t  const _924 = int32x16_t_ops::broadcast(_923);
     uint8x16_t  const _925 = int32x16_t_ops::lt(_922, _924);
     uint32x16_t  const _926 = uint32x16_t_ops::select(_925, _919, _921);
     float  const _927 = float_from_bits(1073741824 /* 2 */);
     float16  const _928 = float16_ops::broadcast(_927);
     uint32_t  const _929 = (uint32_t)(23ull);
     uint32x16_t  const _930 = uint32x16_t_ops::broadcast(_929);
     int32x16_t  const _931 = _913 << _930;
     float16  const _932 = reinterpret<float16>(_931);
     float  const _933 = float_from_bits(958452607 /* 0.000153376 */);
     float16  const _934 = float16_ops::broadcast(_933);
     float16  const _935 = _917 * _934;
     float  const _936 = float_from_bits(984588920 /* 0.00133999 */);
     float16  const _937 = float16_ops::broadcast(_936);
     float16  const _938 = _935 + _937;
     float16  const _939 = _938 * _917;
     float  const _940 = float_from_bits(1008572159 /* 0.00961852 */);
     float16  const _941 = float16_ops::broadcast(_940);
     float16  const _942 = _939 + _941;
     float16  const _943 = _942 * _917;
     float  const _944 = float_from_bits(1029920619 /* 0.0555033 */);
     float16  const _945 = float16_ops::broadcast(_944);
     float16  const _946 = _943 + _945;
     float16  const _947 = _946 * _917;
     float  const _948 = float_from_bits(1047920109 /* 0.240226 */);
     float16  const _949 = float16_ops::broadcast(_948);
     float16  const _950 = _947 + _949;
     float16  const _951 = _950 * _917;
     float  const _952 = float_from_bits(1060205080 /* 0.693147 */);
     float16  const _953 = float16_ops::broadcast(_952);
     float16  const _954 = _951 + _953;
     float16  const _955 = _954 * _917;
     float  const _956 = float_from_bits(1065353216 /* 1 */);
     float16  const _957 = float16_ops::broadcast(_956);
     float16  const _958 = _955 + _957;
     float16  const _959 = _932 * _958;
     int32x16_t  const _960 = reinterpret<int32x16_t>(_959);
     int32x16_t  const _961 = int32x16_t_ops::broadcast(-1);
     int32x16_t  const _962 = int32x16_t_ops::broadcast(0);
     int32x16_t  const _963 = int32x16_t_ops::broadcast(2139095040);
     int32x16_t  const _964 = reinterpret<int32x16_t>(_903);
     int32x16_t  const _965 = int32x16_t_ops::broadcast(2147483647);
     int32x16_t  const _966 = _964 & _965;
     uint8x16_t  const _967 = int32x16_t_ops::lt(_963, _966);
     int32x16_t  const _968 = int32x16_t_ops::select(_967, _961, _962);
     int32x16_t  const _969 = int32x16_t_ops::broadcast(2143289344);
     int32x16_t  const _970 = _968 & _969;
     int32x16_t  const _971 = _960 | _970;
     float16  const _972 = reinterpret<float16>(_971);
     float16  const _973 = _972 + _957;
     float16  const _974 = _928 / _973;
     float  const _975 = float_from_bits(3257737111 /* -43.2808 */);
     float16  const _976 = float16_ops::broadcast(_975);
     float16  const _977 = _974 * _976;
     float  const _978 = float_from_bits(1110253463 /* 43.2808 */);
     float16  const _979 = float16_ops::broadcast(_978);
     float16  const _980 = _977 + _979;
     uint32x16_t  const _981 = reinterpret<uint32x16_t>(_980);
     uint32x16_t  const _982 = _981 & _926;
     uint32_t  const _983 = (uint32_t)(4286578688ull);
     uint32x16_t  const _984 = uint32x16_t_ops::broadcast(_983);
     uint32x16_t  const _985 = ~_926;
     uint32x16_t  const _986 = _984 & _985;
     uint32x16_t  const _987 = _982 | _986;
     float16  const _988 = reinterpret<float16>(_987);
     int32_t  const _989 = _masked_s0_j_rebased * 32;
     float16_ops::store(_988, _masked, _989);
     int32_t  const _990 = _masked_s0_j_rebased * 32;
     int32_t  const _991 = _990 + 16;
     float16  const _992 = float16_ops::load(_scores, _991);
     int32_t  const _993 = _871 - _875;
     int32_t  const _994 = _993 + _masked_s0_j_rebased;
     int32_t  const _995 = 0 - _attn_q_step;
     int32x16_t  const _996 = int32x16_t_ops::ramp(_994, _995);
     float16  const _997 = float16_ops::convert_from<int32x16_t>(_996);
     if (!_879)
     {
      char b2[1024];
      snprintf(b2, 1024, "%llu", (long long unsigned)(_879));
      auto * const _998 = b2;
      int32_t  const _999 = (int32_t)(_879 ? -1 : 0);
      char b3[1024];
      snprintf(b3, 1024, "%f%s%lld%s%lld%s%lld%s", _885, " buffer 'slopes': index ", (long long)(_attn_head), " out of range in dimension ", (long long)(_999), " of extent ", (long long)(_65), "\n");
      auto * const _1000 = b3;
      int32_t  const _1001 = attn_alibi_softcap_rt_error_requirement_failed(_ucon, _998, _1000);
      return _1001;
     }
     float  const _1002 = _885;
     float16  const _1003 = float16_ops::broadcast(_1002);
     float16  const _1004 = _997 * _1003;
     float16  const _1005 = _992 + _1004;
     float  const _1006 = float_from_bits(1036319193 /* 0.0961797 */);
     float16  const _1007 = float16_ops::broadcast(_1006);
     float16  const _1008 = _1005 * _1007;
     float  const _1009 = float_from_bits(1124073472 /* 128 */);
     float16  const _1010 = float16_ops::broadcast(_1009);
     float16  const _1011 = float16_ops::min(_1008, _1010);
     float  const _1012 = float_from_bits(3271426048 /* -127 */);
     float16  const _1013 = float16_ops::broadcast(_1012);
     float16  const _1014 = float16_ops::max(_1011, _1013);
     float  const _1015 = float_from_bits(1124007936 /* 127.5 */);
     float16  const _1016 = float16_ops::broadcast(_1015);
     float16  const _1017 = _1014 + _1016;
     int32x16_t  const _1018 = int32x16_t_ops::convert_from<float16>(_1017);
     int32x16_t  const _1019 = int32x16_t_ops::broadcast(-127);
     int32x16_t  const _1020 = _1018 + _1019;
     float16  const _1021 = float16_ops::convert_from<int32x16_t>(_1020);
     float16  const _1022 = _1014 - _1021;
     uint32_t  const _1023 = (uint32_t)(0ull);
     uint32x16_t  const _1024 = uint32x16_t_ops::broadcast(_1023);
     uint32_t  const _1025 = (uint32_t)(4294967295ull);
     uint32x16_t  const _1026 = uint32x16_t_ops::broadcast(_1025);
     int32x16_t  const _1027 = int32x16_t_ops::ramp(_875, _attn_q_step);
     int32_t  const _1028 = _masked_s0_j_rebased + _871;
     int32x16_t  const _1029 = int32x16_t_ops::broadcast(_1028);
     uint8x16_t  const _1030 = int32x16_t_ops::lt(_1027, _1029);
     uint32x16_t  const _1031 = uint32x16_t_ops::select(_1030, _1024, _1026);
     float  const _1032 = float_from_bits(1073741824 /* 2 */);
     float16  const _1033 = float16_ops::broadcast(_1032);
     uint32_t  const _1034 = (uint32_t)(23ull);
     uint32x16_t  const _1035 = uint32x16_t_ops::broadcast(_1034);
     int32x16_t  const _1036 = _1018 << _1035;
     float16  const _1037 = reinterpret<float16>(_1036);
     float  const _1038 = float_from_bits(958452607 /* 0.000153376 */);
     float16  const _1039 = float16_ops::broadcast(_1038);
     float16  const _1040 = _1022 * _1039;
     float  const _1041 = float_from_bits(984588920 /* 0.00133999 */);
     float16  const _1042 = float16_ops::broadcast(_1041);
     float16  const _1043 = _1040 + _1042;
     float16  const _1044 = _1043 * _1022;
     float  const _1045 = float_from_bits(1008572159 /* 0.00961852 */);
     float16  const _1046 = float16_ops::broadcast(_1045);
     float16  const _1047 = _1044 + _1046;
     float16  const _1048 = _1047 * _1022;
     float  const _1049 = float_from_bits(1029920619 /* 0.0555033 */);
     float16  const _1050 = float16_ops::broadcast(_1049);
     float16  const _1051 = _1048 + _1050;
     float16  const _1052 = _1051 * _1022;
     float  const _1053 = float_from_bits(1047920109 /* 0.240226 */);
     float16  const _1054 = float16_ops::broadcast(_1053);
     float16  const _1055 = _1052 + _1054;
     float16  const _1056 = _1055 * _1022;
     float  const _1057 = float_from_bits(1060205080 /* 0.693147 */);
     float16  const _1058 = float16_ops::broadcast(_1057);
     float16  const _1059 = _1056 + _1058;
     float16  const _1060 = _1059 * _1022;
     float  const _1061 = float_from_bits(1065353216 /* 1 */);
     float16  const _1062 = float16_ops::broadcast(_1061);
     float16  const _1063 = _1060 + _1062;
     float16  const _1064 = _1037 * _1063;
     int32x16_t  const _1065 = reinterpret<int32x16_t>(_1064);
     int32x16_t  const _1066 = int32x16_t_ops::broadcast(-1);
     int32x16_t  const _1067 = int32x16_t_ops::broadcast(0);
     int32x16_t  const _1068 = int32x16_t_ops::broadcast(2139095040);
     int32x16_t  const _1069 = reinterpret<int32x16_t>(_1008);
     int32x16_t  const _1070 = int32x16_t_ops::broadcast(2147483647);
     int32x16_t  const _1071 = _1069 & _1070;
     uint8x16_t  const _1072 = int32x16_t_ops::lt(_1068, _1071);
     int32x16_t  const _1073 = int32x16_t_ops::select(_1072, _1066, _1067);
     int32x16_t  const _1074 = int32x16_t_ops::broadcast(2143289344);
     int32x16_t  const _1075 = _1073 & _1074;
     int32x16_t  const _1076 = _1065 | _1075;
     float16  const _1077 = reinterpret<float16>(_1076);
     float16  const _1078 = _1077 + _1062;
     float16  const _1079 = _1033 / _1078;
     float  const _1080 = float_from_bits(3257737111 /* -43.2808 */);
     float16  const _1081 = float16_ops::broadcast(_1080);
     float16  const _1082 = _1079 * _1081;
     float  const _1083 = float_from_bits(1110253463 /* 43.2808 */);
     float16  const _1084 = float16_ops::broadcast(_1083);
     float16  const _1085 = _1082 + _1084;
     uint32x16_t  const _1086 = reinterpret<uint32x16_t>(_1085);
     uint32x16_t  const _1087 = _1086 & _1031;
     uint32_t  const _1088 = (uint32_t)(4286578688ull);
     uint32x16_t  const _1089 = uint32x16_t_ops::broadcast(_1088);
     uint32x16_t  const _1090 = ~_1031;
     uint32x16_t  const _1091 = _1089 & _1090;
     uint32x16_t  const _1092 = _1087 | _1091;
     float16  const _1093 = reinterpret<float16>(_1092);
     int32_t  const _1094 = _masked_s0_j_rebased * 32;
     int32_t  const _1095 = _1094 + 16;
     float16_ops::store(_1093, _masked, _1095);
    } // for _masked_s0_j_rebased
    _scores_free.free();
    {
     float _row_max[32];
     int32_t  const _1096 = ::halide_cpp_max(_85, 0);
     int32_t  const _1097 = _88 - _1096;
     // produce row_max
     for (int _row_max_s0_ii_ii = 0; _row_max_s0_ii_ii < 0 + 2; _row_max_s0_ii_ii++)
     {
      float16  const _1098 = float16_ops::broadcast(neg_inf_f32());
      int32_t  const _1099 = _row_max_s0_ii_ii * 16;
      float16_ops::store(_1098, _row_max, _1099);
     } // for _row_max_s0_ii_ii
     // consume masked
     for (int _row_max_s1_rk__x_rebased = 0; _row_max_s1_rk__x_rebased < 0 + _1097; _row_max_s1_rk__x_rebased++)
     {
      float16  const _1100 = float16_ops::load(_row_max, 0);
      int32_t  const _1101 = _row_max_s1_rk__x_rebased * 32;
      float16  const _1102 = float16_ops::load(_masked, _1101);
      float16  const _1103 = float16_ops::max(_1100, _1102);
      float16_ops::store(_1103, _row_max, 0);
      float16  const _1104 = float16_ops::load(_row_max, 16);
      int32_t  const _1105 = _row_max_s1_rk__x_rebased * 32;
      int32_t  const _1106 = _1105 + 16;
      float16  const _1107 = float16_ops::load(_masked, _1106);
      float16  const _1108 = float16_ops::max(_1104, _1107);
      float16_ops::store(_1108, _row_max, 16);
     } // for _row_max_s1_rk__x_rebased
     int32_t  const _1109 = ::halide_cpp_max(_85, 0);
     int32_t  const _1110 = ::halide_cpp_min(_1109, _105);
     int32_t  const _1111 = ::halide_cpp_min(_attn_kv_hi, _attn_lk);
     int32_t  const _1112 = _1111 + 7;
     int32_t  const _1113 = _1112 >> 3;
     int32_t  const _1114 = _attn_tile * 4;
     int32_t  const _1115 = _1114 + 4;
     int32_t  const _1116 = ::halide_cpp_min(_1113, _1115);
     int32_t  const _1117 = _attn_kv_lo >> 3;
     int32_t  const _1118 = ::halide_cpp_max(_1116, _1117);
     int32_t  const _1119 = ::halide_cpp_max(_1118, 0);
     int32_t  const _1120 = _1119 * 8;
     int32_t  const _1121 = ::halide_cpp_min(_1120, _attn_lk);
     int32_t  const _1122 = _attn_chunk_lo >> 3;
     int32_t  const _1123 = _1122 * 8;
     int32_t  const _1124 = ::halide_cpp_min(_1123, _1121);
     int32_t  const _1125 = ::halide_cpp_max(_1117, 0);
     int32_t  const _1126 = _1125 * 8;
     int32_t  const _1127 = ::halide_cpp_min(_1126, _attn_lk);
     int32_t  const _1128 = ::halide_cpp_max(_1124, _1127);
     int32_t  const _1129 = _1128 + 1024;
     int32_t  const _1130 = ::halide_cpp_min(_1129, _1121);
     int32_t  const _1131 = ::halide_cpp_max(_1130, _88);
     int32_t  const _1132 = ::halide_cpp_min(_1109, _1128);
     int32_t  const _1133 = _1131 - _1132;
     {
      int64_t  const _1134 = _1133;
      int64_t  const _1135 = _1134 * 32;
      if ((_1135 > ((int64_t(1) << 31) - 1)) || ((_1135 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
      {
       attn_alibi_softcap_rt_error(_ucon, "32-bit signed overflow computing size of allocation probs\n");
       return -1;
      } // overflow test probs
      int64_t  const _1136 = _1135;
      float *_probs = (float  *)attn_alibi_softcap_rt_malloc(_ucon, sizeof(float )*_1136);
      if (!_probs)
      {
       int32_t  const _1137 = attn_alibi_softcap_rt_error_out_of_memory(_ucon);
       return _1137;
      }
      HalideFreeHelper _probs_free(_ucon, _probs, attn_alibi_softcap_rt_free);
      int32_t  const _1138 = ::halide_cpp_max(_85, 0);
      int32_t  const _1139 = _88 - _1138;
      // produce probs
      // consume row_max
      // consume masked
      int32_t  const _1140 = _1138 - _1110;
      for (int _probs_s0_j_rebased = 0; _probs_s0_j_rebased < 0 + _1139; _probs_s0_j_rebased++)
      {
       float16  const _1141 = float16_ops::load(_row_max, 0);
       int32_t  const _1142 = _probs_s0_j_rebased * 32;
       float16  const _1143 = float16_ops::load(_masked, _1142);
       float  const _1144 = float_from_bits(0 /* 0 */);
       float16  const _1145 = float16_ops::broadcast(_1144);
       float16  const _1146 = float16_ops::broadcast(neg_inf_f32());
       uint8x16_t  const _1147 = float16_ops::eq(_1141, _1146);
       float16  const _1148 = float16_ops::select(_1147, _1145, _1141);
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
       int32_t  const _1206 = _probs_s0_j_rebased + _1140;
       int32_t  const _1207 = _1206 * 32;
       float16_ops::store(_1205, _probs, _1207);
       float16  const _1208 = float16_ops::load(_row_max, 16);
       int32_t  const _1209 = _probs_s0_j_rebased * 32;
       int32_t  const _1210 = _1209 + 16;
       float16  const _1211 = float16_ops::load(_masked, _1210);
       float  const _1212 = float_from_bits(0 /* 0 */);
       float16  const _1213 = float16_ops::broadcast(_1212);
       float16  const _1214 = float16_ops::broadcast(neg_inf_f32());
       uint8x16_t  const _1215 = float16_ops::eq(_1208, _1214);
       float16  const _1216 = float16_ops::select(_1215, _1213, _1208);
       float16  const _1217 = _1211 - _1216;
       float16  const _1218 = float16_ops::min(_1217, _1213);
       float  const _1219 = float_from_bits(3271426048 /* -127 */);
       float16  const _1220 = float16_ops::broadcast(_1219);
       float16  const _1221 = float16_ops::max(_1218, _1220);
       float  const _1222 = float_from_bits(1124007936 /* 127.5 */);
       float16  const _1223 = float16_ops::broadcast(_1222);
       float16  const _1224 = _1221 + _1223;
       int32x16_t  const _1225 = int32x16_t_ops::convert_from<float16>(_1224);
       int32x16_t  const _1226 = int32x16_t_ops::broadcast(-127);
       int32x16_t  const _1227 = _1225 + _1226;
       float16  const _1228 = float16_ops::convert_from<int32x16_t>(_1227);
       float16  const _1229 = _1221 - _1228;
       uint32_t  const _1230 = (uint32_t)(23ull);
       uint32x16_t  const _1231 = uint32x16_t_ops::broadcast(_1230);
       int32x16_t  const _1232 = _1225 << _1231;
       float16  const _1233 = reinterpret<float16>(_1232);
       float  const _1234 = float_from_bits(958452607 /* 0.000153376 */);
       float16  const _1235 = float16_ops::broadcast(_1234);
       float16  const _1236 = _1229 * _1235;
       float  const _1237 = float_from_bits(984588920 /* 0.00133999 */);
       float16  const _1238 = float16_ops::broadcast(_1237);
       float16  const _1239 = _1236 + _1238;
       float16  const _1240 = _1239 * _1229;
       float  const _1241 = float_from_bits(1008572159 /* 0.00961852 */);
       float16  const _1242 = float16_ops::broadcast(_1241);
       float16  const _1243 = _1240 + _1242;
       float16  const _1244 = _1243 * _1229;
       float  const _1245 = float_from_bits(1029920619 /* 0.0555033 */);
       float16  const _1246 = float16_ops::broadcast(_1245);
       float16  const _1247 = _1244 + _1246;
       float16  const _1248 = _1247 * _1229;
       float  const _1249 = float_from_bits(1047920109 /* 0.240226 */);
       float16  const _1250 = float16_ops::broadcast(_1249);
       float16  const _1251 = _1248 + _1250;
       float16  const _1252 = _1251 * _1229;
       float  const _1253 = float_from_bits(1060205080 /* 0.693147 */);
       float16  const _1254 = float16_ops::broadcast(_1253);
       float16  const _1255 = _1252 + _1254;
       float16  const _1256 = _1255 * _1229;
       float  const _1257 = float_from_bits(1065353216 /* 1 */);
       float16  const _1258 = float16_ops::broadcast(_1257);
       float16  const _1259 = _1256 + _1258;
       float16  const _1260 = _1233 * _1259;
       int32x16_t  const _1261 = reinterpret<int32x16_t>(_1260);
       int32x16_t  const _1262 = int32x16_t_ops::broadcast(-1);
       int32x16_t  const _1263 = int32x16_t_ops::broadcast(0);
       int32x16_t  const _1264 = int32x16_t_ops::broadcast(2139095040);
       int32x16_t  const _1265 = reinterpret<int32x16_t>(_1217);
       int32x16_t  const _1266 = int32x16_t_ops::broadcast(2147483647);
       int32x16_t  const _1267 = _1265 & _1266;
       uint8x16_t  const _1268 = int32x16_t_ops::lt(_1264, _1267);
       int32x16_t  const _1269 = int32x16_t_ops::select(_1268, _1262, _1263);
       int32x16_t  const _1270 = int32x16_t_ops::broadcast(2143289344);
       int32x16_t  const _1271 = _1269 & _1270;
       int32x16_t  const _1272 = _1261 | _1271;
       float16  const _1273 = reinterpret<float16>(_1272);
       int32_t  const _1274 = _probs_s0_j_rebased + _1140;
       int32_t  const _1275 = _1274 * 32;
       int32_t  const _1276 = _1275 + 16;
       float16_ops::store(_1273, _probs, _1276);
      } // for _probs_s0_j_rebased
      _masked_free.free();
      {
       float _row_sum[32];
       int32_t  const _1277 = ::halide_cpp_max(_85, 0);
       int32_t  const _1278 = _88 - _1277;
       // produce row_sum
       for (int _row_sum_s0_ii_ii = 0; _row_sum_s0_ii_ii < 0 + 2; _row_sum_s0_ii_ii++)
       {
        float  const _1279 = float_from_bits(0 /* 0 */);
        float16  const _1280 = float16_ops::broadcast(_1279);
        int32_t  const _1281 = _row_sum_s0_ii_ii * 16;
        float16_ops::store(_1280, _row_sum, _1281);
       } // for _row_sum_s0_ii_ii
       // consume probs
       int32_t  const _1282 = ::halide_cpp_max(_85, 0);
       int32_t  const _1283 = _1282 - _1110;
       for (int _row_sum_s1_rk__x_rebased = 0; _row_sum_s1_rk__x_rebased < 0 + _1278; _row_sum_s1_rk__x_rebased++)
       {
        float16  const _1284 = float16_ops::load(_row_sum, 0);
        int32_t  const _1285 = _row_sum_s1_rk__x_rebased + _1283;
        int32_t  const _1286 = _1285 * 32;
        float16  const _1287 = float16_ops::load(_probs, _1286);
        float16  const _1288 = _1284 + _1287;
        float16_ops::store(_1288, _row_sum, 0);
        float16  const _1289 = float16_ops::load(_row_sum, 16);
        int32_t  const _1290 = _row_sum_s1_rk__x_rebased + _1283;
        int32_t  const _1291 = _1290 * 32;
        int32_t  const _1292 = _1291 + 16;
        float16  const _1293 = float16_ops::load(_probs, _1292);
        float16  const _1294 = _1289 + _1293;
        float16_ops::store(_1294, _row_sum, 16);
       } // for _row_sum_s1_rk__x_rebased
       {
        int32_t  const _1295 = _attn_dv_pad + 16;
        int64_t  const _1296 = _1295;
        int64_t  const _1297 = _1296 * 32;
        if ((_1297 > ((int64_t(1) << 31) - 1)) || ((_1297 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
        {
         attn_alibi_softcap_rt_error(_ucon, "32-bit signed overflow computing size of allocation partial\n");
         return -1;
        } // overflow test partial
        int64_t  const _1298 = _1297;
        float *_partial = (float  *)attn_alibi_softcap_rt_malloc(_ucon, sizeof(float )*_1298);
        if (!_partial)
        {
         int32_t  const _1299 = attn_alibi_softcap_rt_error_out_of_memory(_ucon);
         return _1299;
        }
        HalideFreeHelper _partial_free(_ucon, _partial, attn_alibi_softcap_rt_free);
        // produce partial
        // consume row_sum
        // consume probs
        // consume row_max
        int32_t  const _1300 = ::halide_cpp_min(_attn_dv_pad, 16);
        int32_t  const _1301 = _attn_dv_pad & 15;
        int32_t  const _1302 = ::halide_cpp_min(_attn_kv_hi, _attn_lk);
        int32_t  const _1303 = _1302 + 7;
        int32_t  const _1304 = _1303 >> 3;
        int32_t  const _1305 = _attn_tile * 4;
        int32_t  const _1306 = _1305 + 4;
        int32_t  const _1307 = ::halide_cpp_min(_1304, _1306);
        int32_t  const _1308 = _attn_kv_lo >> 3;
        bool  const _1309 = _1301 != 0;
        int32_t  const _1310 = ::halide_cpp_max(_attn_dv_pad, 16);
        int32_t  const _1311 = ::halide_cpp_max(_1307, _1308);
        int32_t  const _1312 = ::halide_cpp_max(_1311, 0);
        int32_t  const _1313 = _1312 * 8;
        int32_t  const _1314 = ::halide_cpp_min(_1313, _attn_lk);
        int32_t  const _1315 = _105 + 1024;
        int32_t  const _1316 = ::halide_cpp_min(_1314, _1315);
        int32_t  const _1317 = ::halide_cpp_max(_1308, 0);
        int32_t  const _1318 = _1317 * 8;
        int32_t  const _1319 = ::halide_cpp_min(_1318, _attn_lk);
        int32_t  const _1320 = _1307 * 8;
        int32_t  const _1321 = ::halide_cpp_min(_1320, _attn_lk);
        int32_t  const _1322 = _1301 + 31;
        int32_t  const _1323 = _1322 >> 4;
        int32_t  const _1324 = _attn_dv_pad + 15;
        int32_t  const _1325 = _1324 >> 4;
        int32_t  const _1326 = _attn_dv_pad >> 4;
        int32_t  const _1327 = _attn_chunk_lo >> 3;
        int32_t  const _1328 = _1327 * 8;
        int32_t  const _1329 = _attn_dv_pad + -1;
        int32_t  const _1330 = _1329 >> 4;
        int32_t  const _1331 = _1330 * 16;
        int32_t  const _1332 = _1331 - _1300;
        int32_t  const _1333 = _105 - _1110;
        for (int _partial_s0_ii_ig = 0; _partial_s0_ii_ig < 0 + 2; _partial_s0_ii_ig++)
        {
         {
          int32_t  const _1334 = _1332 + 32;
          int64_t  const _1335 = _1334;
          int64_t  const _1336 = _1335 * 16;
          if ((_1336 > ((int64_t(1) << 31) - 1)) || ((_1336 * sizeof(float )) > ((int64_t(1) << 31) - 1)))
          {
           attn_alibi_softcap_rt_error(_ucon, "32-bit signed overflow computing size of allocation pv\n");
           return -1;
          } // overflow test pv
          int64_t  const _1337 = _1336;
          float *_pv = (float  *)attn_alibi_softcap_rt_malloc(_ucon, sizeof(float )*_1337);
          if (!_pv)
          {
           int32_t  const _1338 = attn_alibi_softcap_rt_error_out_of_memory(_ucon);
           return _1338;
          }
          HalideFreeHelper _pv_free(_ucon, _pv, attn_alibi_softcap_rt_free);
          // produce pv
          for (int _pv_s0_c_c = 0; _pv_s0_c_c < 0 + _1326; _pv_s0_c_c++)
          {
           float  const _1339 = float_from_bits(0 /* 0 */);
           float16  const _1340 = float16_ops::broadcast(_1339);
           int32_t  const _1341 = _pv_s0_c_c * 16;
           int32_t  const _1342 = _1341 - _1300;
           int32_t  const _1343 = _1342 + 16;
           float16_ops::store(_1340, _pv, _1343);
          } // for _pv_s0_c_c
          if (_1309)
          {
           float  const _1344 = float_from_bits(0 /* 0 */);
           float16  const _1345 = float16_ops::broadcast(_1344);
           int32_t  const _1346 = _1310 + -16;
           float16_ops::store(_1345, _pv, _1346);
          } // if _1309
          int32_t  const _1347 = _1332 - _1300;
          for (int _pv_s0_c_c = 0; _pv_s0_c_c < 0 + _1326; _pv_s0_c_c++)
          {
           float  const _1348 = float_from_bits(0 /* 0 */);
           float16  const _1349 = float16_ops::broadcast(_1348);
           int32_t  const _1350 = _pv_s0_c_c * 16;
           int32_t  const _1351 = _1350 + _1347;
           int32_t  const _1352 = _1351 + 48;
           float16_ops::store(_1349, _pv, _1352);
          } // for _pv_s0_c_c
          if (_1309)
          {
           float  const _1353 = float_from_bits(0 /* 0 */);
           float16  const _1354 = float16_ops::broadcast(_1353);
           int32_t  const _1355 = _1332 + _1310;
           int32_t  const _1356 = _1355 + 16;
           float16_ops::store(_1354, _pv, _1356);
          } // if _1309
          int32_t  const _1357 = _1332 * 2;
          int32_t  const _1358 = _1357 - _1300;
          for (int _pv_s0_c_c = 0; _pv_s0_c_c < 0 + _1326; _pv_s0_c_c++)
          {
           float  const _1359 = float_from_bits(0 /* 0 */);
           float16  const _1360 = float16_ops::broadcast(_1359);
           int32_t  const _1361 = _pv_s0_c_c * 16;
           int32_t  const _1362 = _1361 + _1358;
           int32_t  const _1363 = _1362 + 80;
           float16_ops::store(_1360, _pv, _1363);
          } // for _pv_s0_c_c
          if (_1309)
          {
           float  const _1364 = float_from_bits(0 /* 0 */);
           float16  const _1365 = float16_ops::broadcast(_1364);
           int32_t  const _1366 = _1332 * 2;
           int32_t  const _1367 = _1366 + _1310;
           int32_t  const _1368 = _1367 + 48;
           float16_ops::store(_1365, _pv, _1368);
          } // if _1309
          int32_t  const _1369 = _1332 * 3;
          int32_t  const _1370 = _1369 - _1300;
          for (int _pv_s0_c_c = 0; _pv_s0_c_c < 0 + _1326; _pv_s0_c_c++)
          {
           float  const _1371 = float_from_bits(0 /* 0 */);
           float16  const _1372 = float16_ops::broadcast(_1371);
           int32_t  const _1373 = _pv_s0_c_c * 16;
           int32_t  const _1374 = _1373 + _1370;
           int32_t  const _1375 = _1374 + 112;
           float16_ops::store(_1372, _pv, _1375);
          } // for _pv_s0_c_c
          if (_1309)
          {
           float  const _1376 = float_from_bits(0 /* 0 */);
           float16  const _1377 = float16_ops::broadcast(_1376);
           int32_t  const _1378 = _1332 * 3;
           int32_t  const _1379 = _1378 + _1310;
           int32_t  const _1380 = _1379 + 80;
           float16_ops::store(_1377, _pv, _1380);
          } // if _1309
          int32_t  const _1381 = _1332 * 4;
          int32_t  const _1382 = _1381 - _1300;
          for (int _pv_s0_c_c = 0; _pv_s0_c_c < 0 + _1326; _pv_s0_c_c++)
          {
           float  const _1383 = float_from_bits(0 /* 0 */);
           float16  const _1384 = float16_ops::broadcast(_1383);
           int32_t  const _1385 = _pv_s0_c_c * 16;
           int32_t  const _1386 = _1385 + _1382;
           int32_t  const _1387 = _1386 + 144;
           float16_ops::store(_1384, _pv, _1387);
          } // for _pv_s0_c_c
          if (_1309)
          {
           float  const _1388 = float_from_bits(0 /* 0 */);
           float16  const _1389 = float16_ops::broadcast(_1388);
           int32_t  const _1390 = _1332 * 4;
           int32_t  const _1391 = _1390 + _1310;
           int32_t  const _1392 = _1391 + 112;
           float16_ops::store(_1389, _pv, _1392);
          } // if _1309
          int32_t  const _1393 = _1332 * 5;
          int32_t  const _1394 = _1393 - _1300;
          for (int _pv_s0_c_c = 0; _pv_s0_c_c < 0 + _1326; _pv_s0_c_c++)
          {
           float  const _1395 = float_from_bits(0 /* 0 */);
           float16  const _1396 = float16_ops::broadcast(_1395);
           int32_t  const _1397 = _pv_s0_c_c * 16;
           int32_t  const _1398 = _1397 + _1394;
           int32_t  const _1399 = _1398 + 176;
           float16_ops::store(_1396, _pv, _1399);
          } // for _pv_s0_c_c
          if (_1309)
          {
           float  const _1400 = float_from_bits(0 /* 0 */);
           float16  const _1401 = float16_ops::broadcast(_1400);
           int32_t  const _1402 = _1332 * 5;
           int32_t  const _1403 = _1402 + _1310;
           int32_t  const _1404 = _1403 + 144;
           float16_ops::store(_1401, _pv, _1404);
          } // if _1309
          int32_t  const _1405 = _1332 * 6;
          int32_t  const _1406 = _1405 - _1300;
          for (int _pv_s0_c_c = 0; _pv_s0_c_c < 0 + _1326; _pv_s0_c_c++)
          {
           float  const _1407 = float_from_bits(0 /* 0 */);
           float16  const _1408 = float16_ops::broadcast(_1407);
           int32_t  const _1409 = _pv_s0_c_c * 16;
           int32_t  const _1410 = _1409 + _1406;
           int32_t  const _1411 = _1410 + 208;
           float16_ops::store(_1408, _pv, _1411);
          } // for _pv_s0_c_c
          if (_1309)
          {
           float  const _1412 = float_from_bits(0 /* 0 */);
           float16  const _1413 = float16_ops::broadcast(_1412);
           int32_t  const _1414 = _1332 * 6;
           int32_t  const _1415 = _1414 + _1310;
           int32_t  const _1416 = _1415 + 176;
           float16_ops::store(_1413, _pv, _1416);
          } // if _1309
          int32_t  const _1417 = _1332 * 7;
          int32_t  const _1418 = _1417 - _1300;
          for (int _pv_s0_c_c = 0; _pv_s0_c_c < 0 + _1326; _pv_s0_c_c++)
          {
           float  const _1419 = float_from_bits(0 /* 0 */);
           float16  const _1420 = float16_ops::broadcast(_1419);
           int32_t  const _1421 = _pv_s0_c_c * 16;
           int32_t  const _1422 = _1421 + _1418;
           int32_t  const _1423 = _1422 + 240;
           float16_ops::store(_1420, _pv, _1423);
          } // for _pv_s0_c_c
          if (_1309)
          {
           float  const _1424 = float_from_bits(0 /* 0 */);
           float16  const _1425 = float16_ops::broadcast(_1424);
           int32_t  const _1426 = _1332 * 7;
           int32_t  const _1427 = _1426 + _1310;
           int32_t  const _1428 = _1427 + 208;
           float16_ops::store(_1425, _pv, _1428);
          } // if _1309
          int32_t  const _1429 = _1332 * 8;
          int32_t  const _1430 = _1429 - _1300;
          for (int _pv_s0_c_c = 0; _pv_s0_c_c < 0 + _1326; _pv_s0_c_c++)
          {
           float  const _1431 = float_from_bits(0 /* 0 */);
           float16  const _1432 = float16_ops::broadcast(_1431);
           int32_t  const _1433 = _pv_s0_c_c * 16;
           int32_t  const _1434 = _1433 + _1430;
           int32_t  const _1435 = _1434 + 272;
           float16_ops::store(_1432, _pv, _1435);
          } // for _pv_s0_c_c
          if (_1309)
          {
           float  const _1436 = float_from_bits(0 /* 0 */);
           float16  const _1437 = float16_ops::broadcast(_1436);
           int32_t  const _1438 = _1332 * 8;
           int32_t  const _1439 = _1438 + _1310;
           int32_t  const _1440 = _1439 + 240;
           float16_ops::store(_1437, _pv, _1440);
          } // if _1309
          int32_t  const _1441 = _1332 * 9;
          int32_t  const _1442 = _1441 - _1300;
          for (int _pv_s0_c_c = 0; _pv_s0_c_c < 0 + _1326; _pv_s0_c_c++)
          {
           float  const _1443 = float_from_bits(0 /* 0 */);
           float16  const _1444 = float16_ops::broadcast(_1443);
           int32_t  const _1445 = _pv_s0_c_c * 16;
           int32_t  const _1446 = _1445 + _1442;
           int32_t  const _1447 = _1446 + 304;
           float16_ops::store(_1444, _pv, _1447);
          } // for _pv_s0_c_c
          if (_1309)
          {
           float  const _1448 = float_from_bits(0 /* 0 */);
           float16  const _1449 = float16_ops::broadcast(_1448);
           int32_t  const _1450 = _1332 * 9;
           int32_t  const _1451 = _1450 + _1310;
           int32_t  const _1452 = _1451 + 272;
           float16_ops::store(_1449, _pv, _1452);
          } // if _1309
          int32_t  const _1453 = _1332 * 10;
          int32_t  const _1454 = _1453 - _1300;
          for (int _pv_s0_c_c = 0; _pv_s0_c_c < 0 + _1326; _pv_s0_c_c++)
          {
           float  const _1455 = float_from_bits(0 /* 0 */);
           float16  const _1456 = float16_ops::broadcast(_1455);
           int32_t  const _1457 = _pv_s0_c_c * 16;
           int32_t  const _1458 = _1457 + _1454;
           int32_t  const _1459 = _1458 + 336;
           float16_ops::store(_1456, _pv, _1459);
          } // for _pv_s0_c_c
          if (_1309)
          {
           float  const _1460 = float_from_bits(0 /* 0 */);
           float16  const _1461 = float16_ops::broadcast(_1460);
           int32_t  const _1462 = _1332 * 10;
           int32_t  const _1463 = _1462 + _1310;
           int32_t  const _1464 = _1463 + 304;
           float16_ops::store(_1461, _pv, _1464);
          } // if _1309
          int32_t  const _1465 = _1332 * 11;
          int32_t  const _1466 = _1465 - _1300;
          for (int _pv_s0_c_c = 0; _pv_s0_c_c < 0 + _1326; _pv_s0_c_c++)
          {
           float  const _1467 = float_from_bits(0 /* 0 */);
           float16  const _1468 = float16_ops::broadcast(_1467);
           int32_t  const _1469 = _pv_s0_c_c * 16;
           int32_t  const _1470 = _1469 + _1466;
           int32_t  const _1471 = _1470 + 368;
           float16_ops::store(_1468, _pv, _1471);
          } // for _pv_s0_c_c
          if (_1309)
          {
           float  const _1472 = float_from_bits(0 /* 0 */);
           float16  const _1473 = float16_ops::broadcast(_1472);
           int32_t  const _1474 = _1332 * 11;
           int32_t  const _1475 = _1474 + _1310;
           int32_t  const _1476 = _1475 + 336;
           float16_ops::store(_1473, _pv, _1476);
          } // if _1309
          int32_t  const _1477 = _1332 * 12;
          int32_t  const _1478 = _1477 - _1300;
          for (int _pv_s0_c_c = 0; _pv_s0_c_c < 0 + _1326; _pv_s0_c_c++)
          {
           float  const _1479 = float_from_bits(0 /* 0 */);
           float16  const _1480 = float16_ops::broadcast(_1479);
           int32_t  const _1481 = _pv_s0_c_c * 16;
           int32_t  const _1482 = _1481 + _1478;
           int32_t  const _1483 = _1482 + 400;
           float16_ops::store(_1480, _pv, _1483);
          } // for _pv_s0_c_c
          if (_1309)
          {
           float  const _1484 = float_from_bits(0 /* 0 */);
           float16  const _1485 = float16_ops::broadcast(_1484);
           int32_t  const _1486 = _1332 * 12;
           int32_t  const _1487 = _1486 + _1310;
           int32_t  const _1488 = _1487 + 368;
           float16_ops::store(_1485, _pv, _1488);
          } // if _1309
          int32_t  const _1489 = _1332 * 13;
          int32_t  const _1490 = _1489 - _1300;
          for (int _pv_s0_c_c = 0; _pv_s0_c_c < 0 + _1326; _pv_s0_c_c++)
          {
           float  const _1491 = float_from_bits(0 /* 0 */);
           float16  const _1492 = float16_ops::broadcast(_1491);
           int32_t  const _1493 = _pv_s0_c_c * 16;
           int32_t  const _1494 = _1493 + _1490;
           int32_t  const _1495 = _1494 + 432;
           float16_ops::store(_1492, _pv, _1495);
          } // for _pv_s0_c_c
          if (_1309)
          {
           float  const _1496 = float_from_bits(0 /* 0 */);
           float16  const _1497 = float16_ops::broadcast(_1496);
           int32_t  const _1498 = _1332 * 13;
           int32_t  const _1499 = _1498 + _1310;
           int32_t  const _1500 = _1499 + 400;
           float16_ops::store(_1497, _pv, _1500);
          } // if _1309
          int32_t  const _1501 = _1332 * 14;
          int32_t  const _1502 = _1501 - _1300;
          for (int _pv_s0_c_c = 0; _pv_s0_c_c < 0 + _1326; _pv_s0_c_c++)
          {
           float  const _1503 = float_from_bits(0 /* 0 */);
           float16  const _1504 = float16_ops::broadcast(_1503);
           int32_t  const _1505 = _pv_s0_c_c * 16;
           int32_t  const _1506 = _1505 + _1502;
           int32_t  const _1507 = _1506 + 464;
           float16_ops::store(_1504, _pv, _1507);
          } // for _pv_s0_c_c
          if (_1309)
          {
           float  const _1508 = float_from_bits(0 /* 0 */);
           float16  const _1509 = float16_ops::broadcast(_1508);
           int32_t  const _1510 = _1332 * 14;
           int32_t  const _1511 = _1510 + _1310;
           int32_t  const _1512 = _1511 + 432;
           float16_ops::store(_1509, _pv, _1512);
          } // if _1309
          int32_t  const _1513 = _1332 * 15;
          int32_t  const _1514 = _1513 - _1300;
          for (int _pv_s0_c_c = 0; _pv_s0_c_c < 0 + _1326; _pv_s0_c_c++)
          {
           float  const _1515 = float_from_bits(0 /* 0 */);
           float16  const _1516 = float16_ops::broadcast(_1515);
           int32_t  const _1517 = _pv_s0_c_c * 16;
           int32_t  const _1518 = _1517 + _1514;
           int32_t  const _1519 = _1518 + 496;
           float16_ops::store(_1516, _pv, _1519);
          } // for _pv_s0_c_c
          if (_1309)
          {
           float  const _1520 = float_from_bits(0 /* 0 */);
           float16  const _1521 = float16_ops::broadcast(_1520);
           int32_t  const _1522 = _1332 * 15;
           int32_t  const _1523 = _1522 + _1310;
           int32_t  const _1524 = _1523 + 464;
           float16_ops::store(_1521, _pv, _1524);
          } // if _1309
          int32_t  const _1525 = _1332 * 15;
          int32_t  const _1526 = _1525 - _1300;
          int32_t  const _1527 = _1332 * 14;
          int32_t  const _1528 = _1527 - _1300;
          int32_t  const _1529 = _1332 * 13;
          int32_t  const _1530 = _1529 - _1300;
          int32_t  const _1531 = _1332 * 12;
          int32_t  const _1532 = _1531 - _1300;
          int32_t  const _1533 = _1332 * 11;
          int32_t  const _1534 = _1533 - _1300;
          int32_t  const _1535 = _1332 * 10;
          int32_t  const _1536 = _1535 - _1300;
          int32_t  const _1537 = _1332 * 9;
          int32_t  const _1538 = _1537 - _1300;
          int32_t  const _1539 = _1332 * 8;
          int32_t  const _1540 = _1539 - _1300;
          int32_t  const _1541 = _1332 * 7;
          int32_t  const _1542 = _1541 - _1300;
          int32_t  const _1543 = _1332 * 6;
          int32_t  const _1544 = _1543 - _1300;
          int32_t  const _1545 = _1332 * 5;
          int32_t  const _1546 = _1545 - _1300;
          int32_t  const _1547 = _1332 * 4;
          int32_t  const _1548 = _1547 - _1300;
          int32_t  const _1549 = _1332 * 3;
          int32_t  const _1550 = _1549 - _1300;
          int32_t  const _1551 = _1332 * 2;
          int32_t  const _1552 = _1551 - _1300;
          int32_t  const _1553 = _1316 - _105;
          for (int _pv_s1_c_co = 0; _pv_s1_c_co < 0 + _1325; _pv_s1_c_co++)
          {
           int32_t  const _1554 = _pv_s1_c_co * 16;
           int32_t  const _1555 = _1554 - _1300;
           int32_t  const _1556 = _1526 + _1554;
           int32_t  const _1557 = _1528 + _1554;
           int32_t  const _1558 = _1530 + _1554;
           int32_t  const _1559 = _1532 + _1554;
           int32_t  const _1560 = _1534 + _1554;
           int32_t  const _1561 = _1536 + _1554;
           int32_t  const _1562 = _1538 + _1554;
           int32_t  const _1563 = _1540 + _1554;
           int32_t  const _1564 = _1542 + _1554;
           int32_t  const _1565 = _1544 + _1554;
           int32_t  const _1566 = _1546 + _1554;
           int32_t  const _1567 = _1548 + _1554;
           int32_t  const _1568 = _1550 + _1554;
           int32_t  const _1569 = _1552 + _1554;
           for (int _pv_s1_rk__x_rebased = 0; _pv_s1_rk__x_rebased < 0 + _1553; _pv_s1_rk__x_rebased++)
           {
            int32_t  const _1570 = _1555 + 16;
            float16  const _1571 = float16_ops::load(_pv, _1570);
            int32_t  const _1572 = _105 + _pv_s1_rk__x_rebased;
            int32_t  const _1573 = _1572 * _attn_dv_pad;
            int32_t  const _1574 = _1573 + _1554;
            float16  const _1575 = float16_ops::load(_attn_v, _1574);
            int32_t  const _1576 = _pv_s1_rk__x_rebased + _1333;
            int32_t  const _1577 = _1576 * 2;
            int32_t  const _1578 = _1577 + _partial_s0_ii_ig;
            int32_t  const _1579 = _1578 * 16;
            float  const _1580 = _probs[_1579];
            float16  const _1581 = float16_ops::broadcast(_1580);
            float16  const _1582 = _1575 * _1581;
            float16  const _1583 = _1571 + _1582;
            float16_ops::store(_1583, _pv, _1570);
            int32_t  const _1584 = _1332 + _1555;
            int32_t  const _1585 = _1584 + 48;
            float16  const _1586 = float16_ops::load(_pv, _1585);
            int32_t  const _1587 = _105 + _pv_s1_rk__x_rebased;
            int32_t  const _1588 = _1587 * _attn_dv_pad;
            int32_t  const _1589 = _1588 + _1554;
            float16  const _1590 = float16_ops::load(_attn_v, _1589);
            int32_t  const _1591 = _pv_s1_rk__x_rebased + _1333;
            int32_t  const _1592 = _1591 * 2;
            int32_t  const _1593 = _1592 + _partial_s0_ii_ig;
            int32_t  const _1594 = _1593 * 16;
            int32_t  const _1595 = _1594 + 1;
            float  const _1596 = _probs[_1595];
            float16  const _1597 = float16_ops::broadcast(_1596);
            float16  const _1598 = _1590 * _1597;
            float16  const _1599 = _1586 + _1598;
            float16_ops::store(_1599, _pv, _1585);
            int32_t  const _1600 = _1569 + 80;
            float16  const _1601 = float16_ops::load(_pv, _1600);
            int32_t  const _1602 = _105 + _pv_s1_rk__x_rebased;
            int32_t  const _1603 = _1602 * _attn_dv_pad;
            int32_t  const _1604 = _1603 + _1554;
            float16  const _1605 = float16_ops::load(_attn_v, _1604);
            int32_t  const _1606 = _pv_s1_rk__x_rebased + _1333;
            int32_t  const _1607 = _1606 * 2;
            int32_t  const _1608 = _1607 + _partial_s0_ii_ig;
            int32_t  const _1609 = _1608 * 16;
            int32_t  const _1610 = _1609 + 2;
            float  const _1611 = _probs[_1610];
            float16  const _1612 = float16_ops::broadcast(_1611);
            float16  const _1613 = _1605 * _1612;
            float16  const _1614 = _1601 + _1613;
            float16_ops::store(_1614, _pv, _1600);
            int32_t  const _1615 = _1568 + 112;
            float16  const _1616 = float16_ops::load(_pv, _1615);
            int32_t  const _1617 = _105 + _pv_s1_rk__x_rebased;
            int32_t  const _1618 = _1617 * _attn_dv_pad;
            int32_t  const _1619 = _1618 + _1554;
            float16  const _1620 = float16_ops::load(_attn_v, _1619);
            int32_t  const _1621 = _pv_s1_rk__x_rebased + _1333;
            int32_t  const _1622 = _1621 * 2;
            int32_t  const _1623 = _1622 + _partial_s0_ii_ig;
            int32_t  const _1624 = _1623 * 16;
            int32_t  const _1625 = _1624 + 3;
            float  const _1626 = _probs[_1625];
            float16  const _1627 = float16_ops::broadcast(_1626);
            float16  const _1628 = _1620 * _1627;
            float16  const _1629 = _1616 + _1628;
            float16_ops::store(_1629, _pv, _1615);
            int32_t  const _1630 = _1567 + 144;
            float16  const _1631 = float16_ops::load(_pv, _1630);
            int32_t  const _1632 = _105 + _pv_s1_rk__x_rebased;
            int32_t  const _1633 = _1632 * _attn_dv_pad;
            int32_t  const _1634 = _1633 + _1554;
            float16  const _1635 = float16_ops::load(_attn_v, _1634);
            int32_t  const _1636 = _pv_s1_rk__x_rebased + _1333;
            int32_t  const _1637 = _1636 * 2;
            int32_t  const _1638 = _1637 + _partial_s0_ii_ig;
            int32_t  const _1639 = _1638 * 16;
            int32_t  const _1640 = _1639 + 4;
            float  const _1641 = _probs[_1640];
            float16  const _1642 = float16_ops::broadcast(_1641);
            float16  const _1643 = _1635 * _1642;
            float16  const _1644 = _1631 + _1643;
            float16_ops::store(_1644, _pv, _1630);
            int32_t  const _1645 = _1566 + 176;
            float16  const _1646 = float16_ops::load(_pv, _1645);
            int32_t  const _1647 = _105 + _pv_s1_rk__x_rebased;
            int32_t  const _1648 = _1647 * _attn_dv_pad;
            int32_t  const _1649 = _1648 + _1554;
            float16  const _1650 = float16_ops::load(_attn_v, _1649);
            int32_t  const _1651 = _pv_s1_rk__x_rebased + _1333;
            int32_t  const _1652 = _1651 * 2;
            int32_t  const _1653 = _1652 + _partial_s0_ii_ig;
            int32_t  const _1654 = _1653 * 16;
            int32_t  const _1655 = _1654 + 5;
            float  const _1656 = _probs[_1655];
            float16  const _1657 = float16_ops::broadcast(_1656);
            float16  const _1658 = _1650 * _1657;
            float16  const _1659 = _1646 + _1658;
            float16_ops::store(_1659, _pv, _1645);
            int32_t  const _1660 = _1565 + 208;
            float16  const _1661 = float16_ops::load(_pv, _1660);
            int32_t  const _1662 = _105 + _pv_s1_rk__x_rebased;
            int32_t  const _1663 = _1662 * _attn_dv_pad;
            int32_t  const _1664 = _1663 + _1554;
            float16  const _1665 = float16_ops::load(_attn_v, _1664);
            int32_t  const _1666 = _pv_s1_rk__x_rebased + _1333;
            int32_t  const _1667 = _1666 * 2;
            int32_t  const _1668 = _1667 + _partial_s0_ii_ig;
            int32_t  const _1669 = _1668 * 16;
            int32_t  const _1670 = _1669 + 6;
            float  const _1671 = _probs[_1670];
            float16  const _1672 = float16_ops::broadcast(_1671);
            float16  const _1673 = _1665 * _1672;
            float16  const _1674 = _1661 + _1673;
            float16_ops::store(_1674, _pv, _1660);
            int32_t  const _1675 = _1564 + 240;
            float16  const _1676 = float16_ops::load(_pv, _1675);
            int32_t  const _1677 = _105 + _pv_s1_rk__x_rebased;
            int32_t  const _1678 = _1677 * _attn_dv_pad;
            int32_t  const _1679 = _1678 + _1554;
            float16  const _1680 = float16_ops::load(_attn_v, _1679);
            int32_t  const _1681 = _pv_s1_rk__x_rebased + _1333;
            int32_t  const _1682 = _1681 * 2;
            int32_t  const _1683 = _1682 + _partial_s0_ii_ig;
            int32_t  const _1684 = _1683 * 16;
            int32_t  const _1685 = _1684 + 7;
            float  const _1686 = _probs[_1685];
            float16  const _1687 = float16_ops::broadcast(_1686);
            float16  const _1688 = _1680 * _1687;
            float16  const _1689 = _1676 + _1688;
            float16_ops::store(_1689, _pv, _1675);
            int32_t  const _1690 = _1563 + 272;
            float16  const _1691 = float16_ops::load(_pv, _1690);
            int32_t  const _1692 = _105 + _pv_s1_rk__x_rebased;
            int32_t  const _1693 = _1692 * _attn_dv_pad;
            int32_t  const _1694 = _1693 + _1554;
            float16  const _1695 = float16_ops::load(_attn_v, _1694);
            int32_t  const _1696 = _pv_s1_rk__x_rebased + _1333;
            int32_t  const _1697 = _1696 * 2;
            int32_t  const _1698 = _1697 + _partial_s0_ii_ig;
            int32_t  const _1699 = _1698 * 16;
            int32_t  const _1700 = _1699 + 8;
            float  const _1701 = _probs[_1700];
            float16  const _1702 = float16_ops::broadcast(_1701);
            float16  const _1703 = _1695 * _1702;
            float16  const _1704 = _1691 + _1703;
            float16_ops::store(_1704, _pv, _1690);
            int32_t  const _1705 = _1562 + 304;
            float16  const _1706 = float16_ops::load(_pv, _1705);
            int32_t  const _1707 = _105 + _pv_s1_rk__x_rebased;
            int32_t  const _1708 = _1707 * _attn_dv_pad;
            int32_t  const _1709 = _1708 + _1554;
            float16  const _1710 = float16_ops::load(_attn_v, _1709);
            int32_t  const _1711 = _pv_s1_rk__x_rebased + _1333;
            int32_t  const _1712 = _1711 * 2;
            int32_t  const _1713 = _1712 + _partial_s0_ii_ig;
            int32_t  const _1714 = _1713 * 16;
            int32_t  const _1715 = _1714 + 9;
            float  const _1716 = _probs[_1715];
            float16  const _1717 = float16_ops::broadcast(_1716);
            float16  const _1718 = _1710 * _1717;
            float16  const _1719 = _1706 + _1718;
            float16_ops::store(_1719, _pv, _1705);
            int32_t  const _1720 = _1561 + 336;
            float16  const _1721 = float16_ops::load(_pv, _1720);
            int32_t  const _1722 = _105 + _pv_s1_rk__x_rebased;
            int32_t  const _1723 = _1722 * _attn_dv_pad;
            int32_t  const _1724 = _1723 + _1554;
            float16  const _1725 = float16_ops::load(_attn_v, _1724);
            int32_t  const _1726 = _pv_s1_rk__x_rebased + _1333;
            int32_t  const _1727 = _1726 * 2;
            int32_t  const _1728 = _1727 + _partial_s0_ii_ig;
            int32_t  const _1729 = _1728 * 16;
            int32_t  const _1730 = _1729 + 10;
            float  const _1731 = _probs[_1730];
            float16  const _1732 = float16_ops::broadcast(_1731);
            float16  const _1733 = _1725 * _1732;
            float16  const _1734 = _1721 + _1733;
            float16_ops::store(_1734, _pv, _1720);
            int32_t  const _1735 = _1560 + 368;
            float16  const _1736 = float16_ops::load(_pv, _1735);
            int32_t  const _1737 = _105 + _pv_s1_rk__x_rebased;
            int32_t  const _1738 = _1737 * _attn_dv_pad;
            int32_t  const _1739 = _1738 + _1554;
            float16  const _1740 = float16_ops::load(_attn_v, _1739);
            int32_t  const _1741 = _pv_s1_rk__x_rebased + _1333;
            int32_t  const _1742 = _1741 * 2;
            int32_t  const _1743 = _1742 + _partial_s0_ii_ig;
            int32_t  const _1744 = _1743 * 16;
            int32_t  const _1745 = _1744 + 11;
            float  const _1746 = _probs[_1745];
            float16  const _1747 = float16_ops::broadcast(_1746);
            float16  const _1748 = _1740 * _1747;
            float16  const _1749 = _1736 + _1748;
            float16_ops::store(_1749, _pv, _1735);
            int32_t  const _1750 = _1559 + 400;
            float16  const _1751 = float16_ops::load(_pv, _1750);
            int32_t  const _1752 = _105 + _pv_s1_rk__x_rebased;
            int32_t  const _1753 = _1752 * _attn_dv_pad;
            int32_t  const _1754 = _1753 + _1554;
            float16  const _1755 = float16_ops::load(_attn_v, _1754);
            int32_t  const _1756 = _pv_s1_rk__x_rebased + _1333;
            int32_t  const _1757 = _1756 * 2;
            int32_t  const _1758 = _1757 + _partial_s0_ii_ig;
            int32_t  const _1759 = _1758 * 16;
            int32_t  const _1760 = _1759 + 12;
            float  const _1761 = _probs[_1760];
            float16  const _1762 = float16_ops::broadcast(_1761);
            float16  const _1763 = _1755 * _1762;
            float16  const _1764 = _1751 + _1763;
            float16_ops::store(_1764, _pv, _1750);
            int32_t  const _1765 = _1558 + 432;
            float16  const _1766 = float16_ops::load(_pv, _1765);
            int32_t  const _1767 = _105 + _pv_s1_rk__x_rebased;
            int32_t  const _1768 = _1767 * _attn_dv_pad;
            int32_t  const _1769 = _1768 + _1554;
            float16  const _1770 = float16_ops::load(_attn_v, _1769);
            int32_t  const _1771 = _pv_s1_rk__x_rebased + _1333;
            int32_t  const _1772 = _1771 * 2;
            int32_t  const _1773 = _1772 + _partial_s0_ii_ig;
            int32_t  const _1774 = _1773 * 16;
            int32_t  const _1775 = _1774 + 13;
            float  const _1776 = _probs[_1775];
            float16  const _1777 = float16_ops::broadcast(_1776);
            float16  const _1778 = _1770 * _1777;
            float16  const _1779 = _1766 + _1778;
            float16_ops::store(_1779, _pv, _1765);
            int32_t  const _1780 = _1557 + 464;
            float16  const _1781 = float16_ops::load(_pv, _1780);
            int32_t  const _1782 = _105 + _pv_s1_rk__x_rebased;
            int32_t  const _1783 = _1782 * _attn_dv_pad;
            int32_t  const _1784 = _1783 + _1554;
            float16  const _1785 = float16_ops::load(_attn_v, _1784);
            int32_t  const _1786 = _pv_s1_rk__x_rebased + _1333;
            int32_t  const _1787 = _1786 * 2;
            int32_t  const _1788 = _1787 + _partial_s0_ii_ig;
            int32_t  const _1789 = _1788 * 16;
            int32_t  const _1790 = _1789 + 14;
            float  const _1791 = _probs[_1790];
            float16  const _1792 = float16_ops::broadcast(_1791);
            float16  const _1793 = _1785 * _1792;
            float16  const _1794 = _1781 + _1793;
            float16_ops::store(_1794, _pv, _1780);
            int32_t  const _1795 = _1556 + 496;
            float16  const _1796 = float16_ops::load(_pv, _1795);
            int32_t  const _1797 = _105 + _pv_s1_rk__x_rebased;
            int32_t  const _1798 = _1797 * _attn_dv_pad;
            int32_t  const _1799 = _1798 + _1554;
            float16  const _1800 = float16_ops::load(_attn_v, _1799);
            int32_t  const _1801 = _pv_s1_rk__x_rebased + _1333;
            int32_t  const _1802 = _1801 * 2;
            int32_t  const _1803 = _1802 + _partial_s0_ii_ig;
            int32_t  const _1804 = _1803 * 16;
            int32_t  const _1805 = _1804 + 15;
            float  const _1806 = _probs[_1805];
            float16  const _1807 = float16_ops::broadcast(_1806);
            float16  const _1808 = _1800 * _1807;
            float16  const _1809 = _1796 + _1808;
            float16_ops::store(_1809, _pv, _1795);
           } // for _pv_s1_rk__x_rebased
          } // for _pv_s1_c_co
          // consume pv
          int32_t  const _1810 = ::halide_cpp_max(_1319, _1321);
          int32_t  const _1811 = _partial_s0_ii_ig * 16;
          for (int _partial_s0_ii_ir = 0; _partial_s0_ii_ir < 0 + 16; _partial_s0_ii_ir++)
          {
           int32_t  const _1812 = _partial_s0_ii_ir + _1811;
           int32_t  const _1813 = _attn_dv_pad + 16;
           int32_t  const _1814 = _1812 * _1813;
           int32_t  const _1815 = _1332 + 32;
           int32_t  const _1816 = _1815 * _partial_s0_ii_ir;
           int32_t  const _1817 = _1816 - _1300;
           for (int _partial_s0_c_c = 0; _partial_s0_c_c < 0 + _1326; _partial_s0_c_c++)
           {
            int32_t  const _1818 = _partial_s0_c_c * 16;
            int32_t  const _1819 = _1818 + _1817;
            int32_t  const _1820 = _1819 + 16;
            float16  const _1821 = float16_ops::load(_pv, _1820);
            int32_t  const _1822 = _1818 + _1814;
            float16_ops::store(_1821, _partial, _1822);
           } // for _partial_s0_c_c
           int32_t  const _1823 = ::halide_cpp_min(_1328, _1810);
           int32_t  const _1824 = ::halide_cpp_max(_1823, _1319);
           int32_t  const _1825 = _1824 + 1024;
           int32_t  const _1826 = ::halide_cpp_min(_1825, _1810);
           float  const _1827 = reinterpret<float>(_1826);
           int32_t  const _1828 = _1332 + 32;
           int32_t  const _1829 = _1828 * _partial_s0_ii_ir;
           int32_t  const _1830 = _1829 - _1300;
           int32_t  const _1831 = _partial_s0_ii_ir + _1811;
           for (int _partial_s0_c_c_rebased = 0; _partial_s0_c_c_rebased < 0 + _1323; _partial_s0_c_c_rebased++)
           {
            int32_t  const _1832 = _partial_s0_c_c_rebased + _1326;
            int32_t  const _1833 = _1832 * 16;
            int32_t  const _1834 = ::halide_cpp_min(_1833, _attn_dv_pad);
            int32_t  const _1835 = _1834 - _attn_dv_pad;
            int32x16_t  const _1836 = int32x16_t_ops::ramp(_1834, 1);
            int32_t  const _1837 = _attn_dv_pad + -1;
            int32x16_t  const _1838 = int32x16_t_ops::broadcast(_1837);
            int32x16_t  const _1839 = int32x16_t_ops::min(_1836, _1838);
            int32_t  const _1840 = _1830 + 16;
            int32x16_t  const _1841 = int32x16_t_ops::broadcast(_1840);
            int32x16_t  const _1842 = _1839 + _1841;
            float16  const _1843 = float16_ops::load_gather(_pv, _1842);
            float  const _1844 = _row_max[_1831];
            float16  const _1845 = float16_ops::broadcast(_1844);
            float  const _1846 = _row_sum[_1831];
            float16  const _1847 = float16_ops::broadcast(_1846);
            float16  const _1848 = float16_ops::broadcast(_1827);
            float  const _1849 = reinterpret<float>(_1810);
            float16  const _1850 = float16_ops::broadcast(_1849);
            int32_t  const _1851 = _1835 + -2;
            int32x16_t  const _1852 = int32x16_t_ops::ramp(_1851, 1);
            int32x16_t  const _1853 = int32x16_t_ops::broadcast(0);
            uint8x16_t  const _1854 = int32x16_t_ops::eq(_1852, _1853);
            float16  const _1855 = float16_ops::select(_1854, _1848, _1850);
            int32_t  const _1856 = _1835 + -1;
            int32x16_t  const _1857 = int32x16_t_ops::ramp(_1856, 1);
            uint8x16_t  const _1858 = int32x16_t_ops::eq(_1857, _1853);
            float16  const _1859 = float16_ops::select(_1858, _1847, _1855);
            int32x16_t  const _1860 = int32x16_t_ops::ramp(_1835, 1);
            uint8x16_t  const _1861 = int32x16_t_ops::eq(_1860, _1853);
            float16  const _1862 = float16_ops::select(_1861, _1845, _1859);
            int32x16_t  const _1863 = int32x16_t_ops::broadcast(_attn_dv_pad);
            uint8x16_t  const _1864 = int32x16_t_ops::lt(_1836, _1863);
            float16  const _1865 = float16_ops::select(_1864, _1843, _1862);
            int32_t  const _1866 = _attn_dv_pad + 16;
            int32_t  const _1867 = _1866 * _1831;
            int32_t  const _1868 = _1867 + _1834;
            float16_ops::store(_1865, _partial, _1868);
           } // for _partial_s0_c_c_rebased
          } // for _partial_s0_ii_ir
          _pv_free.free();
         } // alloc _pv
        } // for _partial_s0_ii_ig
        _probs_free.free();
        // produce attn_out
        // consume partial
        int32_t  const _1869 = _attn_dv_pad & 15;
        bool  const _1870 = _1869 != 0;
        int32_t  const _1871 = _attn_dv_pad >> 4;
        for (int _attn_out_s0_ii = 0; _attn_out_s0_ii < 0 + 32; _attn_out_s0_ii++)
        {
         int32_t  const _1872 = _attn_dv_pad + 16;
         int32_t  const _1873 = _1872 * _attn_out_s0_ii;
         int32_t  const _1874 = _attn_out_s0_ii * _59;
         int32_t  const _1875 = _1871 + 1;
         for (int _attn_out_s0_c_c = 0; _attn_out_s0_c_c < 0 + _1875; _attn_out_s0_c_c++)
         {
          int32_t  const _1876 = _attn_out_s0_c_c * 16;
          int32_t  const _1877 = _1876 + _1873;
          float16  const _1878 = float16_ops::load(_partial, _1877);
          int32_t  const _1879 = _1876 + _1874;
          float16_ops::store(_1878, _attn_out, _1879);
         } // for _attn_out_s0_c_c
         if (_1870)
         {
          int32_t  const _1880 = _attn_dv_pad + 16;
          int32_t  const _1881 = _1880 * _attn_out_s0_ii;
          int32_t  const _1882 = _1881 + _attn_dv_pad;
          float16  const _1883 = float16_ops::load(_partial, _1882);
          int32_t  const _1884 = _attn_out_s0_ii * _59;
          int32_t  const _1885 = _1884 + _attn_dv_pad;
          float16_ops::store(_1883, _attn_out, _1885);
         } // if _1870
        } // for _attn_out_s0_ii
        _partial_free.free();
       } // alloc _partial
      } // alloc _row_sum
     } // alloc _probs
    } // alloc _row_max
   } // alloc _masked
  } // alloc _scores
 } // alloc _qs
 return 0;
}

HALIDE_FUNCTION_ATTRS
int attn_alibi_softcap_pipeline_argv(void **args) {
 return attn_alibi_softcap_pipeline(
  *(void const * const *)args[0],
  (halide_buffer_t *)args[1],
  (halide_buffer_t *)args[2],
  (halide_buffer_t *)args[3],
  *(int32_t const *)args[4],
  *(int32_t const *)args[5],
  *(int32_t const *)args[6],
  *(int32_t const *)args[7],
  *(int32_t const *)args[8],
  *(int32_t const *)args[9],
  *(int32_t const *)args[10],
  *(int32_t const *)args[11],
  *(int32_t const *)args[12],
  *(int32_t const *)args[13],
  *(int32_t const *)args[14],
  (halide_buffer_t *)args[15],
  (halide_buffer_t *)args[16]
);
}
HALIDE_FUNCTION_ATTRS
const struct halide_filter_metadata_t *attn_alibi_softcap_pipeline_metadata() {
 int64_t const *const *buffer_estimates___user_context = nullptr;
 const halide_scalar_value_t *scalar_def___user_context = nullptr;
 const halide_scalar_value_t *scalar_min___user_context = nullptr;
 const halide_scalar_value_t *scalar_max___user_context = nullptr;
 const halide_scalar_value_t *scalar_estimate___user_context = nullptr;
 static const int64_t const_0 = 0LL;
 static const int64_t const_32 = 32LL;
 static const int64_t * const buffer_estimates__attn_q[4] = {
  &const_0,
  nullptr,
  &const_0,
  &const_32,
 };
 const halide_scalar_value_t *scalar_def__attn_q = nullptr;
 const halide_scalar_value_t *scalar_min__attn_q = nullptr;
 const halide_scalar_value_t *scalar_max__attn_q = nullptr;
 const halide_scalar_value_t *scalar_estimate__attn_q = nullptr;
 static const int64_t * const buffer_estimates__attn_k[4] = {
  &const_0,
  nullptr,
  &const_0,
  nullptr,
 };
 const halide_scalar_value_t *scalar_def__attn_k = nullptr;
 const halide_scalar_value_t *scalar_min__attn_k = nullptr;
 const halide_scalar_value_t *scalar_max__attn_k = nullptr;
 const halide_scalar_value_t *scalar_estimate__attn_k = nullptr;
 static const int64_t * const buffer_estimates__attn_v[4] = {
  &const_0,
  nullptr,
  &const_0,
  nullptr,
 };
 const halide_scalar_value_t *scalar_def__attn_v = nullptr;
 const halide_scalar_value_t *scalar_min__attn_v = nullptr;
 const halide_scalar_value_t *scalar_max__attn_v = nullptr;
 const halide_scalar_value_t *scalar_estimate__attn_v = nullptr;
 int64_t const *const *buffer_estimates__attn_lq = nullptr;
 alignas(alignof(halide_scalar_value_t)) static const int32_t halide_scalar_value_0[2] = {1, 0};
 const halide_scalar_value_t *scalar_def__attn_lq = nullptr;
 const halide_scalar_value_t *scalar_min__attn_lq = (const halide_scalar_value_t *)&halide_scalar_value_0;
 const halide_scalar_value_t *scalar_max__attn_lq = nullptr;
 const halide_scalar_value_t *scalar_estimate__attn_lq = nullptr;
 int64_t const *const *buffer_estimates__attn_lk = nullptr;
 alignas(alignof(halide_scalar_value_t)) static const int32_t halide_scalar_value_1[2] = {0, 0};
 const halide_scalar_value_t *scalar_def__attn_lk = nullptr;
 const halide_scalar_value_t *scalar_min__attn_lk = (const halide_scalar_value_t *)&halide_scalar_value_1;
 const halide_scalar_value_t *scalar_max__attn_lk = nullptr;
 const halide_scalar_value_t *scalar_estimate__attn_lk = nullptr;
 int64_t const *const *buffer_estimates__attn_d = nullptr;
 alignas(alignof(halide_scalar_value_t)) static const int32_t halide_scalar_value_2[2] = {1, 0};
 const halide_scalar_value_t *scalar_def__attn_d = nullptr;
 const halide_scalar_value_t *scalar_min__attn_d = (const halide_scalar_value_t *)&halide_scalar_value_2;
 const halide_scalar_value_t *scalar_max__attn_d = nullptr;
 const halide_scalar_value_t *scalar_estimate__attn_d = nullptr;
 int64_t const *const *buffer_estimates__attn_dv_pad = nullptr;
 alignas(alignof(halide_scalar_value_t)) static const int32_t halide_scalar_value_3[2] = {1, 0};
 const halide_scalar_value_t *scalar_def__attn_dv_pad = nullptr;
 const halide_scalar_value_t *scalar_min__attn_dv_pad = (const halide_scalar_value_t *)&halide_scalar_value_3;
 const halide_scalar_value_t *scalar_max__attn_dv_pad = nullptr;
 const halide_scalar_value_t *scalar_estimate__attn_dv_pad = nullptr;
 int64_t const *const *buffer_estimates__attn_tile = nullptr;
 alignas(alignof(halide_scalar_value_t)) static const int32_t halide_scalar_value_4[2] = {0, 0};
 const halide_scalar_value_t *scalar_def__attn_tile = nullptr;
 const halide_scalar_value_t *scalar_min__attn_tile = (const halide_scalar_value_t *)&halide_scalar_value_4;
 const halide_scalar_value_t *scalar_max__attn_tile = nullptr;
 const halide_scalar_value_t *scalar_estimate__attn_tile = nullptr;
 int64_t const *const *buffer_estimates__attn_q_step = nullptr;
 alignas(alignof(halide_scalar_value_t)) static const int32_t halide_scalar_value_5[2] = {0, 0};
 alignas(alignof(halide_scalar_value_t)) static const int32_t halide_scalar_value_6[2] = {1, 0};
 const halide_scalar_value_t *scalar_def__attn_q_step = nullptr;
 const halide_scalar_value_t *scalar_min__attn_q_step = (const halide_scalar_value_t *)&halide_scalar_value_5;
 const halide_scalar_value_t *scalar_max__attn_q_step = (const halide_scalar_value_t *)&halide_scalar_value_6;
 const halide_scalar_value_t *scalar_estimate__attn_q_step = nullptr;
 int64_t const *const *buffer_estimates__attn_head = nullptr;
 alignas(alignof(halide_scalar_value_t)) static const int32_t halide_scalar_value_7[2] = {0, 0};
 const halide_scalar_value_t *scalar_def__attn_head = nullptr;
 const halide_scalar_value_t *scalar_min__attn_head = (const halide_scalar_value_t *)&halide_scalar_value_7;
 const halide_scalar_value_t *scalar_max__attn_head = nullptr;
 const halide_scalar_value_t *scalar_estimate__attn_head = nullptr;
 int64_t const *const *buffer_estimates__attn_batch = nullptr;
 alignas(alignof(halide_scalar_value_t)) static const int32_t halide_scalar_value_8[2] = {0, 0};
 const halide_scalar_value_t *scalar_def__attn_batch = nullptr;
 const halide_scalar_value_t *scalar_min__attn_batch = (const halide_scalar_value_t *)&halide_scalar_value_8;
 const halide_scalar_value_t *scalar_max__attn_batch = nullptr;
 const halide_scalar_value_t *scalar_estimate__attn_batch = nullptr;
 int64_t const *const *buffer_estimates__attn_kv_lo = nullptr;
 const halide_scalar_value_t *scalar_def__attn_kv_lo = nullptr;
 const halide_scalar_value_t *scalar_min__attn_kv_lo = nullptr;
 const halide_scalar_value_t *scalar_max__attn_kv_lo = nullptr;
 const halide_scalar_value_t *scalar_estimate__attn_kv_lo = nullptr;
 int64_t const *const *buffer_estimates__attn_kv_hi = nullptr;
 const halide_scalar_value_t *scalar_def__attn_kv_hi = nullptr;
 const halide_scalar_value_t *scalar_min__attn_kv_hi = nullptr;
 const halide_scalar_value_t *scalar_max__attn_kv_hi = nullptr;
 const halide_scalar_value_t *scalar_estimate__attn_kv_hi = nullptr;
 int64_t const *const *buffer_estimates__attn_chunk_lo = nullptr;
 const halide_scalar_value_t *scalar_def__attn_chunk_lo = nullptr;
 const halide_scalar_value_t *scalar_min__attn_chunk_lo = nullptr;
 const halide_scalar_value_t *scalar_max__attn_chunk_lo = nullptr;
 const halide_scalar_value_t *scalar_estimate__attn_chunk_lo = nullptr;
 int64_t const *const *buffer_estimates__slopes = nullptr;
 const halide_scalar_value_t *scalar_def__slopes = nullptr;
 const halide_scalar_value_t *scalar_min__slopes = nullptr;
 const halide_scalar_value_t *scalar_max__slopes = nullptr;
 const halide_scalar_value_t *scalar_estimate__slopes = nullptr;
 static const int64_t * const buffer_estimates__attn_out[4] = {
  &const_0,
  nullptr,
  &const_0,
  &const_32,
 };
 const halide_scalar_value_t *scalar_def__attn_out = nullptr;
 const halide_scalar_value_t *scalar_min__attn_out = nullptr;
 const halide_scalar_value_t *scalar_max__attn_out = nullptr;
 const halide_scalar_value_t *scalar_estimate__attn_out = nullptr;
 static const halide_filter_argument_t args[17] = {
  {
   "__user_context",
   halide_argument_kind_input_scalar,
   0,
   {halide_type_handle, 64, 1},
   scalar_def___user_context,
   scalar_min___user_context,
   scalar_max___user_context,
   scalar_estimate___user_context,
   buffer_estimates___user_context,
   },
  {
   "attn_q",
   halide_argument_kind_input_buffer,
   2,
   {halide_type_float, 32, 1},
   scalar_def__attn_q,
   scalar_min__attn_q,
   scalar_max__attn_q,
   scalar_estimate__attn_q,
   buffer_estimates__attn_q,
   },
  {
   "attn_k",
   halide_argument_kind_input_buffer,
   2,
   {halide_type_float, 32, 1},
   scalar_def__attn_k,
   scalar_min__attn_k,
   scalar_max__attn_k,
   scalar_estimate__attn_k,
   buffer_estimates__attn_k,
   },
  {
   "attn_v",
   halide_argument_kind_input_buffer,
   2,
   {halide_type_float, 32, 1},
   scalar_def__attn_v,
   scalar_min__attn_v,
   scalar_max__attn_v,
   scalar_estimate__attn_v,
   buffer_estimates__attn_v,
   },
  {
   "attn_lq",
   halide_argument_kind_input_scalar,
   0,
   {halide_type_int, 32, 1},
   scalar_def__attn_lq,
   scalar_min__attn_lq,
   scalar_max__attn_lq,
   scalar_estimate__attn_lq,
   buffer_estimates__attn_lq,
   },
  {
   "attn_lk",
   halide_argument_kind_input_scalar,
   0,
   {halide_type_int, 32, 1},
   scalar_def__attn_lk,
   scalar_min__attn_lk,
   scalar_max__attn_lk,
   scalar_estimate__attn_lk,
   buffer_estimates__attn_lk,
   },
  {
   "attn_d",
   halide_argument_kind_input_scalar,
   0,
   {halide_type_int, 32, 1},
   scalar_def__attn_d,
   scalar_min__attn_d,
   scalar_max__attn_d,
   scalar_estimate__attn_d,
   buffer_estimates__attn_d,
   },
  {
   "attn_dv_pad",
   halide_argument_kind_input_scalar,
   0,
   {halide_type_int, 32, 1},
   scalar_def__attn_dv_pad,
   scalar_min__attn_dv_pad,
   scalar_max__attn_dv_pad,
   scalar_estimate__attn_dv_pad,
   buffer_estimates__attn_dv_pad,
   },
  {
   "attn_tile",
   halide_argument_kind_input_scalar,
   0,
   {halide_type_int, 32, 1},
   scalar_def__attn_tile,
   scalar_min__attn_tile,
   scalar_max__attn_tile,
   scalar_estimate__attn_tile,
   buffer_estimates__attn_tile,
   },
  {
   "attn_q_step",
   halide_argument_kind_input_scalar,
   0,
   {halide_type_int, 32, 1},
   scalar_def__attn_q_step,
   scalar_min__attn_q_step,
   scalar_max__attn_q_step,
   scalar_estimate__attn_q_step,
   buffer_estimates__attn_q_step,
   },
  {
   "attn_head",
   halide_argument_kind_input_scalar,
   0,
   {halide_type_int, 32, 1},
   scalar_def__attn_head,
   scalar_min__attn_head,
   scalar_max__attn_head,
   scalar_estimate__attn_head,
   buffer_estimates__attn_head,
   },
  {
   "attn_batch",
   halide_argument_kind_input_scalar,
   0,
   {halide_type_int, 32, 1},
   scalar_def__attn_batch,
   scalar_min__attn_batch,
   scalar_max__attn_batch,
   scalar_estimate__attn_batch,
   buffer_estimates__attn_batch,
   },
  {
   "attn_kv_lo",
   halide_argument_kind_input_scalar,
   0,
   {halide_type_int, 32, 1},
   scalar_def__attn_kv_lo,
   scalar_min__attn_kv_lo,
   scalar_max__attn_kv_lo,
   scalar_estimate__attn_kv_lo,
   buffer_estimates__attn_kv_lo,
   },
  {
   "attn_kv_hi",
   halide_argument_kind_input_scalar,
   0,
   {halide_type_int, 32, 1},
   scalar_def__attn_kv_hi,
   scalar_min__attn_kv_hi,
   scalar_max__attn_kv_hi,
   scalar_estimate__attn_kv_hi,
   buffer_estimates__attn_kv_hi,
   },
  {
   "attn_chunk_lo",
   halide_argument_kind_input_scalar,
   0,
   {halide_type_int, 32, 1},
   scalar_def__attn_chunk_lo,
   scalar_min__attn_chunk_lo,
   scalar_max__attn_chunk_lo,
   scalar_estimate__attn_chunk_lo,
   buffer_estimates__attn_chunk_lo,
   },
  {
   "slopes",
   halide_argument_kind_input_buffer,
   1,
   {halide_type_float, 32, 1},
   scalar_def__slopes,
   scalar_min__slopes,
   scalar_max__slopes,
   scalar_estimate__slopes,
   buffer_estimates__slopes,
   },
  {
   "attn_out",
   halide_argument_kind_output_buffer,
   2,
   {halide_type_float, 32, 1},
   scalar_def__attn_out,
   scalar_min__attn_out,
   scalar_max__attn_out,
   scalar_estimate__attn_out,
   buffer_estimates__attn_out,
   },
  };
 static const halide_filter_metadata_t md = {
  halide_filter_metadata_t::VERSION,
  17,
  args,
  "x0-64-linux-avx-avx2-avx512-avx512_skylake-f16c-fma-no_bounds_query-sse41-user_context",
  "attn_alibi_softcap_pipeline",
  };
 return &md;
}

#ifdef __cplusplus
}  // extern "C"
#endif


// ---- The Halide runtime functions it calls ----
// [fixed text: cpu runtime glue for 18 runtime functions, 172 lines]

// ---- The attn_kernel_args entry point ----
namespace {

enum class IoType { F32, F16, BF16 };
constexpr const char* kKernelName = "alibi_softcap";
constexpr int kLanes = 16, kTileQ = 32;
constexpr int32_t kKeyChunk = 1024;  // keys per pipeline call at most
constexpr int64_t kHeadDim = 0, kValueDim = 0;  // 0: any
constexpr IoType kIoType = IoType::BF16;
constexpr bool kLseRequired = true;
constexpr bool kPackHeads = false;  // the mask and score ignore the head: decoding packs a group's heads
constexpr int kNumBuffers = 1, kNumScalars = 0;
struct DTypeName {
  uint8_t code, bits;
  const char* name;
};
constexpr DTypeName kDTypeNames[] = {{2, 32, "f32"}, {2, 16, "f16"}, {4, 16, "bf16"}, {2, 64, "f64"}, {0, 32, "i32"}, {0, 64, "i64"}, {6, 8, "bool"}, {1, 8, "u8"}};

}  // namespace

// [fixed text: backends/cpu/fixed/WrapperSupport.h, 344 lines]

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

extern "C" __attribute__((visibility("default"))) int attn_alibi_softcap(const attn_kernel_args* args) {
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 2-51, 50 lines]
  BufferView buffer0;
  if (!view_buffer(uc, args->buffers[0], "slopes", 1, halide_type_t(halide_type_float, 32, 1), buffer0)) return -1;
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 53-91, 39 lines]
  const int64_t* given = nullptr;  // the mask reads no buffer: kv_ranges unused
  const int64_t* run_starts = nullptr;
  const int64_t* runs = nullptr;
  int64_t given_block = 0;
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 93-172, 80 lines]
    // takes at most 1024 keys a call, so the scores stay in cache.
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 174-215, 42 lines]
            int result = attn_alibi_softcap_pipeline(uc, &q_tile.buf, &k_head.buf, &v_head.buf, int32_t(Lq), int32_t(Lk), int32_t(D),
                int32_t(Dv_pad), int32_t(t), int32_t(q_step), int32_t(h), int32_t(b), piece_lo, piece_hi, next, &buffer0.buf, &out_tile.buf);
// [fixed text: backends/cpu/fixed/WrapperEntry.h lines 218-262, 45 lines]
