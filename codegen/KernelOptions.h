// A kernel's options (`dtype`, `head_dim`, ...), as set in its `kernel { ... }` block.
#pragma once

#include <optional>
#include <string>

namespace attn {

/// Element type of Q, K, V (and of Out, except for the FP8 types, whose Out is bf16).
/// F8E4M3 is OCP FP8 E4M3 (torch.float8_e4m3fn: no infinity, NaN S.1111.111, max 448), F8E5M2
/// OCP FP8 E5M2 (torch.float8_e5m2: IEEE-like, with infinities and NaNs).
enum class DType { F32, F16, BF16, F8E4M3, F8E5M2 };
/// "f32", "f16", "bf16", "e4m3", "e5m2": the language's names.
const char* dtype_name(DType d);
/// The DType the language names `name`; nullopt for another name.
std::optional<DType> dtype_named(const std::string& name);
/// Whether `d` is an FP8 type (Q, K, V dequantized by descale factors; Out bf16; no backward).
inline bool is_fp8(DType d) { return d == DType::F8E4M3 || d == DType::F8E5M2; }

struct KernelOptions {
  DType dtype = DType::F32;
  int head_dim = 0;             ///< 0: any (taken from the inputs at run time)
  int value_dim = 0;            ///< 0: same as head_dim
  std::optional<double> scale;  ///< unset: 1/sqrt(head_dim)
  bool lse = false;             ///< write the log-sum-exp
  bool return_max = false;      ///< write each row's maximum kept score (FlexAttention's max_scores)
  bool backward = false;        ///< compile the backward pass's entry points too
  int block_q = 0;              ///< 0: chosen by the target
  int block_kv = 0;
};

}  // namespace attn
