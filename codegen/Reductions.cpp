// The reduction node of the IR: how it is built, recognized, started and stepped.
#include "codegen/Reductions.h"

#include <Halide.h>

#include <cmath>

namespace attn {

namespace HI = Halide::Internal;

std::optional<Reduction> reduction_of(const HI::Call& call) {
  if (call.call_type != HI::Call::PureExtern || call.args.size() != 3) return std::nullopt;
  for (int i = 0; i < 5; ++i)
    if (call.name == std::string("attn_reduce_") + kReductionNames[i]) return static_cast<Reduction>(i);
  return std::nullopt;
}

Halide::Expr make_reduction(Reduction op, const std::string& var, const Halide::Expr& extent,
                            const Halide::Expr& body) {
  return HI::Call::make(body.type(), std::string("attn_reduce_") + kReductionNames[static_cast<int>(op)],
                        {HI::Variable::make(Halide::Int(32), var), extent, body}, HI::Call::PureExtern);
}

Halide::Expr reduction_identity(Reduction op, const Halide::Expr& body) {
  Halide::Type t = body.type();
  switch (op) {
    case Reduction::Sum: return HI::make_zero(t);
    case Reduction::Any: return HI::const_false();
    case Reduction::All: return HI::const_true();
    case Reduction::Max: return t.is_float() ? HI::FloatImm::make(t, -INFINITY) : t.min();
    case Reduction::Min: return t.is_float() ? HI::FloatImm::make(t, INFINITY) : t.max();
  }
  return Halide::Expr();
}

std::optional<BufferExtent> buffer_extent_of(const std::string& name) {
  static const std::string kExtent = ".extent.";
  size_t at = name.rfind(kExtent);
  if (at == std::string::npos || at == 0 || at + kExtent.size() >= name.size()) return std::nullopt;
  BufferExtent e;
  e.buffer = name.substr(0, at);
  e.dim = 0;
  for (size_t i = at + kExtent.size(); i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return std::nullopt;
    e.dim = e.dim * 10 + (name[i] - '0');
  }
  return e;
}

}  // namespace attn
