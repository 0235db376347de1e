// Tile planning tests: every Empty tile all-false, every Full tile all-true, by brute force.
#define BOOST_TEST_MODULE plan
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <functional>
#include <iostream>
#include <random>

#include "codegen/KernelIR.h"
#include "codegen/PlanTiles.h"
#include "codegen/TilePlan.h"

using namespace attn;
using HExpr = Halide::Expr;
namespace HI = Halide::Internal;

namespace {

HExpr Q() { return index_var(IndexVar::Q); }
HExpr KV() { return index_var(IndexVar::KV); }

KernelIR make_ir(HExpr mask) {
  KernelIR ir;
  ir.name = "k";
  ir.mask = mask;
  ir.score = score_var();
  return ir;
}

// A buffer argument `name` of i32 (or u8 for bool) elements and a load of it at `index`.
struct BufferArg {
  KernelArg arg;
  HExpr load(HExpr index) const {
    return HI::Call::make(arg.param.type(), arg.name, {index}, HI::Call::Image, HI::FunctionPtr(),
                          0, Halide::Buffer<>(), arg.param);
  }
};
BufferArg buffer_arg(const std::string& name, ElemType t) {
  BufferArg b;
  b.arg.kind = KernelArg::Kind::Buffer;
  b.arg.name = name;
  b.arg.elem = t;
  b.arg.dims = {"len"};
  b.arg.param = HI::Parameter(halide_elem_type(t), true, 1, name);
  return b;
}
KernelArg scalar_arg(const std::string& name) {
  KernelArg a;
  a.kind = KernelArg::Kind::Scalar;
  a.name = name;
  a.elem = ElemType::I32;
  a.param = HI::Parameter(Halide::Int(32), false, 0, name);
  return a;
}
HExpr scalar_var(const KernelArg& a) { return HI::Variable::make(Halide::Int(32), a.name, a.param); }

int64_t fdiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
int64_t fmod_(int64_t a, int64_t b) { return a - fdiv(a, b) * b; }

using Oracle = std::function<bool(int64_t q, int64_t kv)>;

// Checks every tile of the plan against the oracle; returns the number of tiles checked.
void check_grid(const TileGrid& g, const Oracle& allowed, const std::string& what) {
  BOOST_TEST_CONTEXT(what << " Lq=" << g.q_len << " Lkv=" << g.kv_len << " block " << g.block_q << "x" << g.block_kv) {
    for (int64_t qt = 0; qt < g.q_tiles; ++qt)
      for (int64_t kt = 0; kt < g.kv_tiles; ++kt) {
        const TileKind k = g.at(qt, kt);
        if (k == TileKind::Partial) continue;
        bool any = false, all = true;
        for (int64_t q = qt * g.block_q; q < std::min((qt + 1) * g.block_q, g.q_len); ++q)
          for (int64_t kv = kt * g.block_kv; kv < std::min((kt + 1) * g.block_kv, g.kv_len); ++kv) {
            const bool a = allowed(q, kv);
            any |= a;
            all &= a;
          }
        if (k == TileKind::Empty && any) BOOST_ERROR("empty tile (" << qt << ", " << kt << ") has an allowed element");
        if (k == TileKind::Full && !all) BOOST_ERROR("full tile (" << qt << ", " << kt << ") has a masked element");
      }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(print_causal) {
  for (HExpr m : {Q() >= KV(), Q() >= KV() && Q() - KV() < 256, KV() < 2048 || Q() >= KV(), Q() / 512 == KV() / 512,
                 (Q() - KV()) % 4 == 0 && Q() >= KV()}) {
    auto plan = plan_tiles(make_ir(m), {64, 64});
    std::cout << print_tile_plan(*plan);
  }
  BufferArg doc = buffer_arg("doc", ElemType::I32);
  KernelIR ir = make_ir(doc.load(Q()) == doc.load(KV()) && Q() >= KV());
  ir.args.push_back(doc.arg);
  std::cout << print_tile_plan(*plan_tiles(ir, {64, 64}));
}
