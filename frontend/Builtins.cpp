// The builtin functions and kernel options of the language, with their documentation.
#include "frontend/Sema.h"

namespace attn {

const std::vector<BuiltinInfo>& builtin_functions() {
  static const std::vector<BuiltinInfo> table = {
      {"abs", 1, 1, "abs(x)", "Absolute value; int stays int."},
      {"min", 2, 2, "min(a, b)", "The smaller of a and b; float if either is float."},
      {"max", 2, 2, "max(a, b)", "The larger of a and b; float if either is float."},
      {"clamp", 3, 3, "clamp(x, lo, hi)", "min(max(x, lo), hi)."},
      {"exp", 1, 1, "exp(x) -> float", "e to the power x."},
      {"exp2", 1, 1, "exp2(x) -> float", "2 to the power x."},
      {"log", 1, 1, "log(x) -> float", "Natural logarithm."},
      {"log2", 1, 1, "log2(x) -> float", "Base-2 logarithm."},
      {"sqrt", 1, 1, "sqrt(x) -> float", "Square root."},
      {"rsqrt", 1, 1, "rsqrt(x) -> float", "1 / sqrt(x)."},
      {"tanh", 1, 1, "tanh(x) -> float", "Hyperbolic tangent."},
      {"sigmoid", 1, 1, "sigmoid(x) -> float", "1 / (1 + exp(-x))."},
      {"sin", 1, 1, "sin(x) -> float", "Sine (radians)."},
      {"cos", 1, 1, "cos(x) -> float", "Cosine (radians)."},
      {"floor", 1, 1, "floor(x) -> float", "Largest integral value not above x, as a float."},
      {"ceil", 1, 1, "ceil(x) -> float", "Smallest integral value not below x, as a float."},
      {"round", 1, 1, "round(x) -> float", "Nearest integral value, ties to even, as a float."},
      {"float", 1, 1, "float(x) -> float", "Converts to float."},
      {"int", 1, 1, "int(x) -> int", "Converts to int, truncating toward zero."},
  };
  return table;
}

const BuiltinInfo* find_builtin(const std::string& name) {
  for (const BuiltinInfo& b : builtin_functions())
    if (name == b.name) return &b;
  return nullptr;
}

const std::vector<KernelOptionInfo>& kernel_options() {
  static const std::vector<KernelOptionInfo> table = {
      {"mask",
       "Where a query may look: a mask name, a call, or a boolean expression (all keys when absent)."},
      {"score", "How a raw score is rewritten: a score modifier, a `|>` chain, or an expression of `score`."},
      {"dtype", "Element type of Q, K, V and Out: f32 (default), f16 or bf16. Accumulation is always f32."},
      {"head_dim", "The head dimension D of Q and K (any when absent)."},
      {"value_dim", "The head dimension of V and Out (defaults to head_dim)."},
      {"scale", "The factor applied to Q.K before the score modifier (default 1/sqrt(head_dim))."},
      {"lse", "true: also write the log-sum-exp of each row (natural log)."},
      {"block", "Tile sizes [block_q, block_kv] (default chosen per target)."},
      {"backward",
       "Generate the backward pass's entry points too (attnc run --dout computes it either way)."},
  };
  return table;
}

}  // namespace attn
