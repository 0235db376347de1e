// The builtin functions and kernel options of the language, with their documentation.
#include "frontend/Builtins.h"

#include <stdexcept>

namespace attn {

namespace {

using R = BuiltinResult;

}  // namespace

const std::vector<BuiltinInfo>& builtin_functions() {
  static const std::vector<BuiltinInfo> table = {
      {BuiltinFn::Abs, "abs", 1, 1, R::First, false, "abs(x)", "Absolute value; int stays int."},
      {BuiltinFn::Min, "min", 2, 2, R::Join, false, "min(a, b)",
       "The smaller of a and b; float if either is float."},
      {BuiltinFn::Max, "max", 2, 2, R::Join, false, "max(a, b)",
       "The larger of a and b; float if either is float."},
      {BuiltinFn::Clamp, "clamp", 3, 3, R::Join, false, "clamp(x, lo, hi)", "min(max(x, lo), hi)."},
      {BuiltinFn::Exp, "exp", 1, 1, R::Float, false, "exp(x) -> float", "e to the power x."},
      {BuiltinFn::Exp2, "exp2", 1, 1, R::Float, false, "exp2(x) -> float", "2 to the power x."},
      {BuiltinFn::Log, "log", 1, 1, R::Float, false, "log(x) -> float", "Natural logarithm."},
      {BuiltinFn::Log2, "log2", 1, 1, R::Float, false, "log2(x) -> float", "Base-2 logarithm."},
      {BuiltinFn::Sqrt, "sqrt", 1, 1, R::Float, false, "sqrt(x) -> float", "Square root."},
      {BuiltinFn::Rsqrt, "rsqrt", 1, 1, R::Float, false, "rsqrt(x) -> float", "1 / sqrt(x)."},
      {BuiltinFn::Tanh, "tanh", 1, 1, R::Float, false, "tanh(x) -> float", "Hyperbolic tangent."},
      {BuiltinFn::Sigmoid, "sigmoid", 1, 1, R::Float, false, "sigmoid(x) -> float", "1 / (1 + exp(-x))."},
      {BuiltinFn::Erf, "erf", 1, 1, R::Float, false, "erf(x) -> float",
       "Error function: 2/sqrt(pi) times the integral of exp(-t*t) from 0 to x."},
      {BuiltinFn::Pow, "pow", 2, 2, R::Float, false, "pow(x, y) -> float", "x to the power y."},
      {BuiltinFn::Sin, "sin", 1, 1, R::Float, false, "sin(x) -> float", "Sine (radians)."},
      {BuiltinFn::Cos, "cos", 1, 1, R::Float, false, "cos(x) -> float", "Cosine (radians)."},
      {BuiltinFn::Atan, "atan", 1, 1, R::Float, false, "atan(x) -> float",
       "Arctangent, in radians (-pi/2, pi/2)."},
      {BuiltinFn::Sign, "sign", 1, 1, R::First, false, "sign(x)",
       "-1, 0 or 1 by the sign of x (NaN stays NaN); int stays int."},
      {BuiltinFn::Floor, "floor", 1, 1, R::Float, false, "floor(x) -> float",
       "Largest integral value not above x, as a float."},
      {BuiltinFn::Ceil, "ceil", 1, 1, R::Float, false, "ceil(x) -> float",
       "Smallest integral value not below x, as a float."},
      {BuiltinFn::Round, "round", 1, 1, R::Float, false, "round(x) -> float",
       "Nearest integral value, ties to even, as a float."},
      {BuiltinFn::Trunc, "trunc", 1, 1, R::Float, false, "trunc(x) -> float",
       "x rounded toward zero, as a float."},
      {BuiltinFn::Float, "float", 1, 1, R::Float, true, "float(x) -> float", "Converts to float."},
      {BuiltinFn::Int, "int", 1, 1, R::Int, false, "int(x) -> int",
       "Converts to int, truncating toward zero."},
  };
  return table;
}

const BuiltinInfo* find_builtin(std::string_view name) {
  for (const BuiltinInfo& b : builtin_functions())
    if (name == b.name) return &b;
  return nullptr;
}

const BuiltinInfo& builtin_info(BuiltinFn fn) {
  const BuiltinInfo& b = builtin_functions().at(static_cast<size_t>(fn));
  // An internal error: the table above lists the enum out of order.
  if (b.fn != fn)
    throw std::logic_error(std::string("builtin table out of BuiltinFn order at '") + b.name + "'");
  return b;
}

const std::vector<KernelOptionInfo>& kernel_options() {
  static const std::vector<KernelOptionInfo> table = {
      {KernelOption::Mask, "mask",
       "Where a query may look: a mask name, a call, or a boolean expression (all keys when absent)."},
      {KernelOption::Score, "score",
       "How a raw score is rewritten: a score modifier, a `|>` chain, or an expression of `score`."},
      {KernelOption::DType, "dtype",
       "Element type of Q, K, V and Out: f32 (default), f16 or bf16; or FP8 Q, K, V (e4m3, e5m2: "
       "dequantized by the call's descale factors) with a bf16 Out. Accumulation is always f32."},
      {KernelOption::HeadDim, "head_dim", "The head dimension D of Q and K (any when absent)."},
      {KernelOption::ValueDim, "value_dim", "The head dimension of V and Out (defaults to head_dim)."},
      {KernelOption::Scale, "scale",
       "The factor applied to Q.K before the score modifier (default 1/sqrt(head_dim))."},
      {KernelOption::Lse, "lse", "true: also write the log-sum-exp of each row (natural log)."},
      {KernelOption::Block, "block", "Tile sizes [block_q, block_kv] (default chosen per target)."},
      {KernelOption::Backward, "backward",
       "Generate the backward pass's entry points too (attnc run --dout computes it either way)."},
      {KernelOption::Sink, "sink",
       "A learnable sink: an f32 expression of b, h, q, q_len and kv_len (e.g. `sinks[h]`), the logit of a "
       "virtual key with value 0 that every row's softmax also sums (gpt-oss)."},
      {KernelOption::ReturnMax, "return_max",
       "true: also write the maximum kept score of each row (-inf for a fully masked row)."},
  };
  return table;
}

const KernelOptionInfo* find_kernel_option(std::string_view key) {
  for (const KernelOptionInfo& o : kernel_options())
    if (key == o.key) return &o;
  return nullptr;
}

}  // namespace attn
