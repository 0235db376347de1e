// widen_buffer_indices: int32 buffer indices as int64 arithmetic, sign extension at the leaves.
#include "backends/cpu/WidenIndices.h"

#include <Halide.h>

namespace attn::cpu {

namespace HI = Halide::Internal;
using Halide::Expr;

namespace {

const Halide::Type kI32 = Halide::Int(32), kI64 = Halide::Int(64);

/// `e` (scalar int32) as int64: +, -, *, min, max, select and let rebuilt on widened operands,
/// anything else sign-extended as it is.
Expr widened(const Expr& e) {
  if (const auto* imm = e.as<HI::IntImm>()) return HI::make_const(kI64, imm->value);
  if (const auto* op = e.as<HI::Add>()) return HI::Add::make(widened(op->a), widened(op->b));
  if (const auto* op = e.as<HI::Sub>()) return HI::Sub::make(widened(op->a), widened(op->b));
  if (const auto* op = e.as<HI::Mul>()) return HI::Mul::make(widened(op->a), widened(op->b));
  if (const auto* op = e.as<HI::Min>()) return HI::Min::make(widened(op->a), widened(op->b));
  if (const auto* op = e.as<HI::Max>()) return HI::Max::make(widened(op->a), widened(op->b));
  if (const auto* op = e.as<HI::Select>())
    return HI::Select::make(op->condition, widened(op->true_value), widened(op->false_value));
  if (const auto* op = e.as<HI::Let>()) return HI::Let::make(op->name, op->value, widened(op->body));
  return HI::Cast::make(kI64, e);
}

/// A load or store index with its int32 arithmetic widened: a scalar one whole, a dense ramp's base
/// (its stride becomes int64 1); a gather's vector index stays as it is.
Expr widened_index(const Expr& index) {
  if (index.type() == kI32) return widened(index);
  if (const auto* ramp = index.as<HI::Ramp>())
    if (ramp->base.type() == kI32 && HI::is_const_one(ramp->stride))
      return HI::Ramp::make(widened(ramp->base), HI::make_one(kI64), ramp->lanes);
  return index;
}

class WidenIndices : public HI::IRMutator {
  using HI::IRMutator::visit;

  Expr visit(const HI::Load* op) override {
    Expr index = widened_index(mutate(op->index));
    return HI::Load::make(op->type, op->name, index, op->image, op->param, mutate(op->predicate), op->alignment);
  }

  HI::Stmt visit(const HI::Store* op) override {
    Expr index = widened_index(mutate(op->index));
    return HI::Store::make(op->name, mutate(op->value), index, op->param, mutate(op->predicate), op->alignment);
  }
};

}  // namespace

void widen_buffer_indices(Halide::Module& module) {
  for (HI::LoweredFunc& f : module.functions()) f.body = WidenIndices().mutate(f.body);
}

}  // namespace attn::cpu
