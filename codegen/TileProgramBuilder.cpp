// Halide expressions -> TilePrograms (see TileProgramBuilder.h).
#include "codegen/TileProgramBuilder.h"

#include "codegen/KernelIRNodes.h"
#include "codegen/Reductions.h"

#include <cmath>
#include <limits>
#include <optional>

namespace attn {

using namespace Halide;
using namespace Halide::Internal;

TileProgramBuilder::TileProgramBuilder(std::vector<std::string> inputs, std::vector<std::string> buffers) {
  prog_.inputs = std::move(inputs);
  prog_.buffers = std::move(buffers);
  for (size_t i = 0; i < prog_.inputs.size(); ++i) {
    TileOp op;
    op.code = TileOpCode::Input;
    op.a = static_cast<int32_t>(i);
    bind(prog_.inputs[i], push(op));
  }
}

void TileProgramBuilder::bind(const std::string& name, int32_t reg) { names_[name].push_back(reg); }

int32_t TileProgramBuilder::push(TileOp op) {
  prog_.ops.push_back(op);
  return static_cast<int32_t>(prog_.ops.size() - 1);
}

int32_t TileProgramBuilder::emit_const(double v) {
  TileOp op;
  op.code = TileOpCode::Const;
  op.imm = v;
  op.is_float = std::floor(v) != v && std::isfinite(v);
  return push(op);
}

int32_t TileProgramBuilder::emit_load_bound(int buffer, const std::vector<int32_t>& lo,
                                            const std::vector<int32_t>& hi, bool max) {
  TileOp op;
  op.code = max ? TileOpCode::LoadMax : TileOpCode::LoadMin;
  op.a = buffer;
  op.b = static_cast<int32_t>(prog_.operands.size());
  op.c = static_cast<int32_t>(lo.size());
  prog_.operands.insert(prog_.operands.end(), lo.begin(), lo.end());
  prog_.operands.insert(prog_.operands.end(), hi.begin(), hi.end());
  return push(op);
}

int32_t TileProgramBuilder::emit_extent(int buffer, int dim) {
  TileOp op;
  op.code = TileOpCode::Extent;
  op.a = buffer;
  op.imm = dim;
  return push(op);
}

int32_t TileProgramBuilder::begin_loop(int32_t extent) {
  TileOp op;
  op.code = TileOpCode::Loop;
  op.a = extent;
  loop_memo_.push_back(memo_);
  memo_.clear();
  return push(op);
}

int32_t TileProgramBuilder::emit_accum(int32_t loop, int32_t init, int32_t value, TileOpCode combine,
                                       bool is_float) {
  TileOp op;
  op.code = TileOpCode::Accum;
  op.is_float = is_float;
  op.a = init;
  op.b = value;
  op.c = loop;
  op.imm = static_cast<double>(combine);
  return push(op);
}

void TileProgramBuilder::end_loop(int32_t loop) {
  TileOp op;
  op.code = TileOpCode::EndLoop;
  op.a = loop;
  prog_.ops[loop].c = push(op);
  memo_ = std::move(loop_memo_.back());
  loop_memo_.pop_back();
}

int32_t TileProgramBuilder::emit_reduction(const Call& call) {
  const Reduction kind = *reduction_of(call);
  const Halide::Expr& body = call.args[2];
  const std::string& j = call.args[0].as<Variable>()->name;
  const int32_t extent = emit(call.args[1]);
  const int32_t init = emit(reduction_identity(kind, body));
  const size_t ops = prog_.ops.size(), operands = prog_.operands.size();
  const int32_t loop = begin_loop(extent);
  bind(j, loop);
  try {
    const int32_t value = emit(body);
    const TileOpCode combine = kind == Reduction::Sum                             ? TileOpCode::Add
                               : kind == Reduction::Min || kind == Reduction::All ? TileOpCode::Min
                                                                                  : TileOpCode::Max;
    const int32_t acc = emit_accum(loop, init, value, combine, body.type().is_float());
    end_loop(loop);
    names_[j].pop_back();
    return acc;
  } catch (const UnsupportedTileExpr&) {
    // No half-built loop stays behind: the caller may fall back to a constant.
    prog_.ops.resize(ops);
    prog_.operands.resize(operands);
    memo_ = std::move(loop_memo_.back());
    loop_memo_.pop_back();
    names_[j].pop_back();
    throw;
  }
}

int32_t TileProgramBuilder::emit(const Halide::Expr& e) {
  auto it = memo_.find(e.get());
  if (it != memo_.end()) return it->second;
  const int32_t r = emit_uncached(e);
  // Let-bound names may shadow: only memoize nodes outside any let (the common case).
  memo_[e.get()] = r;
  keep_.push_back(e);
  return r;
}

int32_t TileProgramBuilder::emit_or(const Halide::Expr& e, double fallback) {
  try {
    return emit(e);
  } catch (const UnsupportedTileExpr&) {
    return emit_const(fallback);
  }
}

int32_t TileProgramBuilder::emit_uncached(const Halide::Expr& e) {
  TileOp op;
  op.is_float = e.type().is_float();
  auto binary = [&](TileOpCode code, const Halide::Expr& a, const Halide::Expr& b) {
    op.code = code;
    op.a = emit(a);
    op.b = emit(b);
    op.is_float = a.type().is_float();
    if (code == TileOpCode::EQ || code == TileOpCode::NE || code == TileOpCode::LT ||
        code == TileOpCode::LE || code == TileOpCode::And || code == TileOpCode::Or)
      op.is_float = false;
    return push(op);
  };
  if (const auto* n = e.as<IntImm>()) return emit_const(static_cast<double>(n->value));
  if (const auto* n = e.as<UIntImm>()) return emit_const(static_cast<double>(n->value));
  if (const auto* n = e.as<FloatImm>()) {
    const int32_t r = emit_const(n->value);
    prog_.ops[r].is_float = true;
    return r;
  }
  if (const auto* n = e.as<Variable>()) {
    if (n->name == "pos_inf") return emit_const(std::numeric_limits<double>::infinity());
    if (n->name == "neg_inf") return emit_const(-std::numeric_limits<double>::infinity());
    auto b = names_.find(n->name);
    if (b != names_.end() && !b->second.empty()) return b->second.back();
    if (std::optional<BufferExtent> x = buffer_extent_of(n->name)) {
      for (size_t i = 0; i < prog_.buffers.size(); ++i)
        if (prog_.buffers[i] == x->buffer) return emit_extent(static_cast<int>(i), x->dim);
    }
    throw UnsupportedTileExpr("unbound variable '" + n->name + "'");
  }
  if (const auto* n = e.as<Cast>()) {
    op.code = TileOpCode::Cast;
    op.a = emit(n->value);
    op.imm = n->type.bits();
    return push(op);
  }
  if (const auto* n = e.as<Add>()) return binary(TileOpCode::Add, n->a, n->b);
  if (const auto* n = e.as<Sub>()) return binary(TileOpCode::Sub, n->a, n->b);
  if (const auto* n = e.as<Mul>()) return binary(TileOpCode::Mul, n->a, n->b);
  if (const auto* n = e.as<Div>()) return binary(TileOpCode::Div, n->a, n->b);
  if (const auto* n = e.as<Mod>()) return binary(TileOpCode::Mod, n->a, n->b);
  if (const auto* n = e.as<Min>()) return binary(TileOpCode::Min, n->a, n->b);
  if (const auto* n = e.as<Max>()) return binary(TileOpCode::Max, n->a, n->b);
  if (const auto* n = e.as<EQ>()) return binary(TileOpCode::EQ, n->a, n->b);
  if (const auto* n = e.as<NE>()) return binary(TileOpCode::NE, n->a, n->b);
  if (const auto* n = e.as<LT>()) return binary(TileOpCode::LT, n->a, n->b);
  if (const auto* n = e.as<LE>()) return binary(TileOpCode::LE, n->a, n->b);
  if (const auto* n = e.as<GT>()) return binary(TileOpCode::LT, n->b, n->a);
  if (const auto* n = e.as<GE>()) return binary(TileOpCode::LE, n->b, n->a);
  if (const auto* n = e.as<And>()) return binary(TileOpCode::And, n->a, n->b);
  if (const auto* n = e.as<Or>()) return binary(TileOpCode::Or, n->a, n->b);
  if (const auto* n = e.as<Not>()) {
    op.code = TileOpCode::Not;
    op.a = emit(n->a);
    return push(op);
  }
  if (const auto* n = e.as<Select>()) {
    op.code = TileOpCode::Select;
    op.a = emit(n->condition);
    op.b = emit(n->true_value);
    op.c = emit(n->false_value);
    return push(op);
  }
  if (const auto* n = e.as<Let>()) {
    bind(n->name, emit(n->value));
    // The body is emitted uncached: its nodes may mean something else outside this let.
    auto saved = memo_;
    const int32_t r = emit(n->body);
    memo_ = std::move(saved);
    names_[n->name].pop_back();
    return r;
  }
  if (const auto* n = e.as<Call>()) {
    if (n->is_intrinsic(Call::likely) || n->is_intrinsic(Call::likely_if_innermost) ||
        n->is_intrinsic(Call::promise_clamped) || n->is_intrinsic(Call::unsafe_promise_clamped))
      return emit(n->args[0]);
    if (reduction_of(*n)) return emit_reduction(*n);
    if (std::optional<Builtin> builtin = builtin_of(*n)) {
      op.code = TileOpCode::Math;
      switch (*builtin) {
        case Builtin::Abs: op.code = TileOpCode::Abs; break;
        case Builtin::Exp: op.imm = static_cast<double>(TileMath::Exp); break;
        case Builtin::Log: op.imm = static_cast<double>(TileMath::Log); break;
        case Builtin::Tanh: op.imm = static_cast<double>(TileMath::Tanh); break;
        case Builtin::Sqrt: op.imm = static_cast<double>(TileMath::Sqrt); break;
        case Builtin::Sin: op.imm = static_cast<double>(TileMath::Sin); break;
        case Builtin::Cos: op.imm = static_cast<double>(TileMath::Cos); break;
        case Builtin::Pow: op.imm = static_cast<double>(TileMath::Pow); break;
        case Builtin::Floor: op.imm = static_cast<double>(TileMath::Floor); break;
        case Builtin::Ceil: op.imm = static_cast<double>(TileMath::Ceil); break;
        case Builtin::Round: op.imm = static_cast<double>(TileMath::Round); break;
        case Builtin::Trunc: op.imm = static_cast<double>(TileMath::Trunc); break;
        case Builtin::Erf: op.imm = static_cast<double>(TileMath::Erf); break;
        case Builtin::Atan: op.imm = static_cast<double>(TileMath::Atan); break;
        case Builtin::BitAnd: op.imm = static_cast<double>(TileMath::BitAnd); break;
        case Builtin::BitOr: op.imm = static_cast<double>(TileMath::BitOr); break;
        case Builtin::BitXor: op.imm = static_cast<double>(TileMath::BitXor); break;
        case Builtin::BitNot: op.imm = static_cast<double>(TileMath::BitNot); break;
        case Builtin::ShiftLeft: op.imm = static_cast<double>(TileMath::ShiftLeft); break;
        case Builtin::ShiftRight: op.imm = static_cast<double>(TileMath::ShiftRight); break;
      }
      op.a = emit(n->args[0]);
      if (n->args.size() == 2) op.b = emit(n->args[1]);
      return push(op);
    }
    if (n->call_type == Call::Image) {
      int buffer = -1;
      for (size_t i = 0; i < prog_.buffers.size(); ++i)
        if (prog_.buffers[i] == n->name) buffer = static_cast<int>(i);
      if (buffer < 0) throw UnsupportedTileExpr("unknown buffer '" + n->name + "'");
      std::vector<int32_t> idx;
      for (const Halide::Expr& a : n->args) idx.push_back(emit(a));
      op.code = TileOpCode::Load;
      op.a = buffer;
      op.b = static_cast<int32_t>(prog_.operands.size());
      op.c = static_cast<int32_t>(idx.size());
      prog_.operands.insert(prog_.operands.end(), idx.begin(), idx.end());
      return push(op);
    }
    throw UnsupportedTileExpr("unsupported call '" + n->name + "'");
  }
  std::ostringstream os;
  os << e;
  throw UnsupportedTileExpr("unsupported expression: " + os.str());
}

TileProgram TileProgramBuilder::finish(std::vector<int32_t> outputs) {
  prog_.outputs = std::move(outputs);
  return prog_;
}

}  // namespace attn
