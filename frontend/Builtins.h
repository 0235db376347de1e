// The language's builtin functions and kernel options: one table each, which the parser's users
// (Sema, Lower, the language server) read rather than spelling the names themselves.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

/// A builtin function of the language (`abs`, `min`, `exp`, ...), in builtin_functions()' order.
/// codegen/LowerBuiltin.cpp lowers each in a switch without a default: a new builtin is a compile
/// error there until it has a lowering.
enum class BuiltinFn : uint8_t {
  Abs,
  Min,
  Max,
  Clamp,
  Exp,
  Exp2,
  Log,
  Log2,
  Sqrt,
  Rsqrt,
  Tanh,
  Sigmoid,
  Erf,
  Pow,
  Sin,
  Cos,
  Atan,
  Sign,
  Floor,
  Ceil,
  Round,
  Trunc,
  Float,
  Int,
};

/// How a builtin's result type follows from its arguments' (all numbers).
enum class BuiltinResult {
  Float,  ///< float whatever the arguments
  Int,    ///< int
  First,  ///< the first argument's (abs, sign: int stays int)
  Join,   ///< float if any argument is float, else int (min, max, clamp)
};

/// One builtin: its name, arity, result type, and the text hover and completion show.
struct BuiltinInfo {
  BuiltinFn fn;
  const char* name;
  int min_args;
  int max_args;
  BuiltinResult result;
  bool takes_bool;  ///< a bool argument is allowed too (float(b) is 1.0 or 0.0)
  const char* signature;
  const char* doc;
};

/// Every builtin, in BuiltinFn order.
const std::vector<BuiltinInfo>& builtin_functions();
/// The builtin called `name`, or null.
const BuiltinInfo* find_builtin(std::string_view name);
/// The entry of `fn`.
const BuiltinInfo& builtin_info(BuiltinFn fn);

/// A kernel option (`mask = ...;`), in kernel_options()' order.
enum class KernelOption : uint8_t {
  Mask,
  Score,
  DType,
  HeadDim,
  ValueDim,
  Scale,
  Lse,
  Block,
  Backward,
  Sink,
  ReturnMax
};

/// One kernel option: its key and the one-line description hover and completion show.
struct KernelOptionInfo {
  KernelOption option;
  const char* key;
  const char* doc;
};

/// Every kernel option, in KernelOption order.
const std::vector<KernelOptionInfo>& kernel_options();
/// The option spelt `key`, or null.
const KernelOptionInfo* find_kernel_option(std::string_view key);

}  // namespace attn
