// builtin_of: which of KernelIRNodes.h's builtins a Halide call is.
#include "codegen/KernelIRNodes.h"

#include <Halide.h>

#include <string>

namespace attn {

namespace HI = Halide::Internal;

std::optional<Builtin> builtin_of(const HI::Call& call) {
  if (call.is_intrinsic(HI::Call::abs))
    return call.args.size() == 1 ? std::optional(Builtin::Abs) : std::nullopt;
  if (call.call_type != HI::Call::PureExtern && call.call_type != HI::Call::Extern) return std::nullopt;
  std::string name = call.name;
  for (const char* suffix : {"_f32", "_f64"})
    if (name.size() > 4 && name.compare(name.size() - 4, 4, suffix) == 0) name.resize(name.size() - 4);
  for (const BuiltinInfo& b : kBuiltins)
    if (b.builtin != Builtin::Abs && name == b.name && static_cast<int>(call.args.size()) == b.arity)
      return b.builtin;
  return std::nullopt;
}

}  // namespace attn
