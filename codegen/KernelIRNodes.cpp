// builtin_of: which of KernelIRNodes.h's builtins a Halide call is.
#include "codegen/KernelIRNodes.h"

#include <Halide.h>

#include <string>
#include <utility>

namespace attn {

namespace HI = Halide::Internal;

std::optional<Builtin> builtin_of(const HI::Call& call) {
  static constexpr std::pair<HI::Call::IntrinsicOp, Builtin> kIntrinsics[] = {
      {HI::Call::abs, Builtin::Abs},
      {HI::Call::bitwise_and, Builtin::BitAnd},
      {HI::Call::bitwise_or, Builtin::BitOr},
      {HI::Call::bitwise_xor, Builtin::BitXor},
      {HI::Call::bitwise_not, Builtin::BitNot},
      {HI::Call::shift_left, Builtin::ShiftLeft},
      {HI::Call::shift_right, Builtin::ShiftRight},
  };
  for (auto [op, b] : kIntrinsics)
    if (call.is_intrinsic(op))
      return static_cast<int>(call.args.size()) == kBuiltins[static_cast<int>(b)].arity ? std::optional(b)
                                                                                        : std::nullopt;
  if (call.call_type != HI::Call::PureExtern && call.call_type != HI::Call::Extern) return std::nullopt;
  std::string name = call.name;
  for (const char* suffix : {"_f32", "_f64"})
    if (name.size() > 4 && name.compare(name.size() - 4, 4, suffix) == 0) name.resize(name.size() - 4);
  for (const IrBuiltinInfo& b : kBuiltins)
    if (b.builtin != Builtin::Abs && b.builtin < Builtin::BitAnd && name == b.name &&
        static_cast<int>(call.args.size()) == b.arity)
      return b.builtin;
  return std::nullopt;
}

}  // namespace attn
