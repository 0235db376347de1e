// A kernel's options (`dtype`, `head_dim`, ...), as set in its `kernel { ... }` block.
#pragma once

#include <optional>
#include <string>

namespace attn {

/// Element type of Q, K, V and Out.
enum class DType { F32, F16, BF16 };
const char* dtype_name(DType d);

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
