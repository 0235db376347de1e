// The one list of what a kernel's IR may hold (codegen/KernelIRNodes.h): verify_kernel_ir accepts
// it and nothing else, and each expression walker (C-like printer, SPIR-V, reference evaluator,
// tile-program builder, score differentiation) handles every node kind and builtin on it.
#define BOOST_TEST_MODULE kernel_ir
#include <boost/test/unit_test.hpp>

#include <string>
#include <utility>
#include <vector>

#include "backends/clike/CExprPrinter.h"
#include "backends/reference/EvalExpr.h"
#include "backends/spirv/SpirvExpr.h"
#include "codegen/KernelIR.h"
#include "codegen/KernelIRNodes.h"
#include "codegen/ScoreGradient.h"
#include "codegen/TileProgramBuilder.h"
#include "codegen/VerifyKernelIR.h"

namespace HI = Halide::Internal;

namespace attn {
namespace {

using Halide::Expr;  // attn::Expr is the AST's

/// A kernel with a scalar `s` (f32) and a buffer `t` (f32[n]); mask and score are set per test.
KernelIR sample_kernel() {
  KernelIR ir;
  ir.name = "sample";
  KernelArg s{
      KernelArg::Kind::Scalar, "s", ElemType::F32, {}, HI::Parameter(Halide::Float(32), false, 0, "s")};
  KernelArg t{
      KernelArg::Kind::Buffer, "t", ElemType::F32, {"n"}, HI::Parameter(Halide::Float(32), true, 1, "t")};
  ir.args = {s, t};
  ir.mask = HI::const_true();
  ir.score = score_var();
  return ir;
}

Expr q() { return index_var(IndexVar::Q); }
Expr kv() { return index_var(IndexVar::KV); }
Expr score() { return score_var(); }
Expr scalar(const KernelIR& ir) { return HI::Variable::make(Halide::Float(32), "s", ir.args[0].param); }

/// An expression whose root is a node of kind N. Declared for every kind, defined per kind: a kind
/// added to ATTN_KERNEL_IR_NODES without a sample here does not link.
template <class N>
Expr sample(const KernelIR& ir);
template <>
Expr sample<HI::IntImm>(const KernelIR&) {
  return Expr(3);
}
template <>
Expr sample<HI::UIntImm>(const KernelIR&) {
  return HI::const_true();
}
template <>
Expr sample<HI::FloatImm>(const KernelIR&) {
  return Expr(0.5f);
}
template <>
Expr sample<HI::Variable>(const KernelIR& ir) {
  return scalar(ir);
}
template <>
Expr sample<HI::Add>(const KernelIR&) {
  return HI::Add::make(q(), kv());
}
template <>
Expr sample<HI::Sub>(const KernelIR&) {
  return HI::Sub::make(q(), kv());
}
template <>
Expr sample<HI::Mul>(const KernelIR&) {
  return HI::Mul::make(q(), kv());
}
template <>
Expr sample<HI::Div>(const KernelIR&) {
  return HI::Div::make(q(), kv());
}
template <>
Expr sample<HI::Mod>(const KernelIR&) {
  return HI::Mod::make(score(), Expr(2.0f));
}
template <>
Expr sample<HI::Min>(const KernelIR&) {
  return HI::Min::make(q(), kv());
}
template <>
Expr sample<HI::Max>(const KernelIR&) {
  return HI::Max::make(score(), Expr(0.0f));
}
template <>
Expr sample<HI::EQ>(const KernelIR&) {
  return HI::EQ::make(q(), kv());
}
template <>
Expr sample<HI::NE>(const KernelIR&) {
  return HI::NE::make(q(), kv());
}
template <>
Expr sample<HI::LT>(const KernelIR&) {
  return HI::LT::make(q(), kv());
}
template <>
Expr sample<HI::LE>(const KernelIR&) {
  return HI::LE::make(q(), kv());
}
template <>
Expr sample<HI::GT>(const KernelIR&) {
  return HI::GT::make(score(), Expr(0.0f));
}
template <>
Expr sample<HI::GE>(const KernelIR&) {
  return HI::GE::make(q(), kv());
}
template <>
Expr sample<HI::And>(const KernelIR&) {
  return HI::And::make(q() < kv(), kv() < 9);
}
template <>
Expr sample<HI::Or>(const KernelIR&) {
  return HI::Or::make(q() < kv(), kv() < 9);
}
template <>
Expr sample<HI::Not>(const KernelIR&) {
  return HI::Not::make(q() < kv());
}
template <>
Expr sample<HI::Select>(const KernelIR& ir) {
  return HI::Select::make(q() < kv(), score(), scalar(ir));
}
template <>
Expr sample<HI::Cast>(const KernelIR&) {
  return HI::Cast::make(Halide::Int(32), score());
}
template <>
Expr sample<HI::Call>(const KernelIR& ir) {
  return HI::Call::make(ir.args[1].param, {kv()});
}

/// A call of each builtin, as Lower.cpp makes them.
Expr builtin_call(const IrBuiltinInfo& b) {
  switch (b.builtin) {
    case Builtin::Abs: return Halide::abs(score());
    case Builtin::BitAnd: return q() & kv();
    case Builtin::BitOr: return q() | kv();
    case Builtin::BitXor: return q() ^ kv();
    case Builtin::BitNot: return ~q();
    case Builtin::ShiftLeft: return q() << (kv() & 31);
    case Builtin::ShiftRight: return q() >> (kv() & 31);
    default: break;
  }
  std::vector<Expr> args(static_cast<size_t>(b.arity), score());
  return HI::Call::make(Halide::Float(32), std::string(b.name) + "_f32", args, HI::Call::PureExtern);
}

/// Every node kind's sample, then every builtin's call, each named.
std::vector<std::pair<std::string, Expr>> samples(const KernelIR& ir) {
  std::vector<std::pair<std::string, Expr>> out;
#define ATTN_SAMPLE(N)                     \
  out.emplace_back(#N, sample<HI::N>(ir)); \
  BOOST_TEST_INFO(#N);                     \
  BOOST_TEST((out.back().second->node_type == HI::IRNodeType::N));
  ATTN_KERNEL_IR_NODES(ATTN_SAMPLE)
#undef ATTN_SAMPLE
  for (const IrBuiltinInfo& b : kBuiltins) out.emplace_back(b.name, builtin_call(b));
  return out;
}

/// A reduction of each kind, as Lower.cpp makes them: over t's extent, reading t.
std::vector<std::pair<std::string, Expr>> reduction_samples(const KernelIR& ir) {
  Expr j = HI::Variable::make(Halide::Int(32), "attn_r0");
  Expr n = HI::Variable::make(Halide::Int(32), "t.extent.0", ir.args[1].param);
  Expr x = HI::Call::make(ir.args[1].param, {j});
  std::vector<std::pair<std::string, Expr>> out;
  for (int i = 0; i < 5; ++i) {
    Reduction op = static_cast<Reduction>(i);
    Expr body = op == Reduction::Any || op == Reduction::All ? x < score() : x * score();
    out.emplace_back(kReductionNames[i], make_reduction(op, "attn_r0", n, body));
  }
  return out;
}

/// The C-like printer with every hook spelled plainly.
class PlainPrinter : public CExprPrinter {
 public:
  using CExprPrinter::CExprPrinter;

 protected:
  std::string special_float(double v) override { return v > 0 ? "INF" : v < 0 ? "-INF" : "NAN"; }
  std::string math_function(const std::string& name) override { return name; }
  std::string int_div(const std::string& a, const std::string& b) override {
    return "div(" + a + ", " + b + ")";
  }
  std::string int_mod(const std::string& a, const std::string& b) override {
    return "mod(" + a + ", " + b + ")";
  }
  std::string float_mod(const std::string& a, const std::string& b) override {
    return "fmod(" + a + ", " + b + ")";
  }
  std::string load(const KernelArg& arg, int, const std::vector<std::string>& index) override {
    return arg.name + "[" + index[0] + "]";
  }
  std::string scalar(const KernelArg& arg, int) override { return arg.name; }
  std::string extent(const KernelArg& arg, int, int dim) override {
    return arg.name + ".shape[" + std::to_string(dim) + "]";
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(verify_accepts_every_listed_node_and_builtin) {
  KernelIR ir = sample_kernel();
  for (const auto& [name, e] : samples(ir)) {
    BOOST_TEST_INFO(name);
    (e.type().is_bool() ? ir.mask : ir.score) = e.type().is_bool() ? e : Halide::cast(Halide::Float(32), e);
    BOOST_CHECK_NO_THROW(verify_kernel_ir(ir));
  }
}

BOOST_AUTO_TEST_CASE(verify_rejects_what_no_walker_handles) {
  auto rejects = [](Halide::Expr score, const std::string& what) {
    KernelIR ir = sample_kernel();
    ir.score = score;
    try {
      verify_kernel_ir(ir);
      BOOST_ERROR("accepted " << what);
    } catch (const std::logic_error& e) {
      BOOST_TEST(std::string(e.what()).find(what) != std::string::npos, e.what());
    }
  };
  rejects(HI::Let::make("x", score(), HI::Variable::make(Halide::Float(32), "x") * 2.0f),
          "a node kind outside ATTN_KERNEL_IR_NODES");
  rejects(HI::Call::make(Halide::Float(32), "erfc_f32", {score()}, HI::Call::PureExtern),
          "a call that is not a builtin");
  rejects(HI::Call::make(Halide::Float(32), "exp_f32", {score(), score()}, HI::Call::PureExtern),
          "a call that is not a builtin");
  rejects(HI::Variable::make(Halide::Float(32), "x"), "a variable that is neither");
  KernelIR ir = sample_kernel();
  rejects(HI::Call::make(ir.args[1].param, {kv(), q()}), "a load that is not of one of the kernel's buffers");
  // A reduction's variable is in scope in its body only.
  Halide::Expr j = HI::Variable::make(Halide::Int(32), "attn_r0");
  rejects(make_reduction(Reduction::Sum, "attn_r0", Halide::Expr(4), score()) +
              Halide::cast(Halide::Float(32), j),
          "a variable that is neither");
  rejects(make_reduction(Reduction::Sum, "attn_r0", j, score()), "a variable that is neither");
  rejects(HI::Variable::make(Halide::Int(32), "t.extent.1", ir.args[1].param), "a variable that is neither");
}

BOOST_AUTO_TEST_CASE(every_walker_handles_every_reduction) {
  KernelIR ir = sample_kernel();
  HostTensor t(ScalarType::F32, {3});
  for (int i = 0; i < 3; ++i) t.set(i, i + 1.0);
  const ArgValues values{{nullptr, &t}, {0.25, 0.0}};
  // t = [1, 2, 3] at score 0.5: sum 3, any(x < 0.5) false, all(x < 0.5) false, max 1.5, min 0.5.
  const double expected[] = {3.0, 0.0, 0.0, 1.5, 0.5};
  int k = 0;
  for (const auto& [name, e] : reduction_samples(ir)) {
    BOOST_TEST_INFO(name);
    (e.type().is_bool() ? ir.mask : ir.score) = e;
    BOOST_CHECK_NO_THROW(verify_kernel_ir(ir));
    BOOST_TEST(PlainPrinter(ir).print(e).find("for (int attn_r0 = 0; attn_r0 < t.shape[0]; ++attn_r0)") !=
               std::string::npos);
    BOOST_TEST(CompiledExpr(e, ir).eval(EvalPoint{{0, 0, 1, 2}, 0.5}, values) == expected[k++]);
    // Tile programs run the reduction as a loop over t's run-time extent.
    TileProgramBuilder tiles({"b", "h", "q", "kv", "score", "s"}, {"t"});
    const TileProgram prog = tiles.finish({tiles.emit(e)});
    std::vector<float> data = {1, 2, 3};
    const std::vector<BufferRanges> ranges = {
        BufferRanges(TileBuffer{TileBuffer::Elem::F32, data.data(), {3}})};
    BOOST_TEST(prog.eval({0, 0, 1, 2, 0.5, 0.25}, &ranges)[0] == expected[k - 1]);

    spirv::ModuleBuilder m(0x00010300);
    spirv::ExprEnv env;
    env.b = env.h = env.q = env.kv = m.const_int(1);
    env.score = m.const_float(0.5f);
    env.load = [&](const std::string&, const std::vector<spirv::Id>&) { return m.const_float(1.0f); };
    env.extent = [&](const std::string&, int) { return m.const_int(3); };
    env.glsl = m.import_ext("GLSL.std.450");
    m.begin_function(m.type_void(), m.type_function(m.type_void()));
    BOOST_CHECK_NO_THROW(spirv::emit_expr(m, env, e));
  }
}

BOOST_AUTO_TEST_CASE(every_walker_handles_every_node_and_builtin) {
  const KernelIR ir = sample_kernel();
  HostTensor t(ScalarType::F32, {16});
  const ArgValues values{{nullptr, &t}, {0.25, 0.0}};
  for (const auto& [name, e] : samples(ir)) {
    BOOST_TEST_INFO(name);
    BOOST_CHECK_NO_THROW(PlainPrinter(ir).print(e));
    BOOST_CHECK_NO_THROW(CompiledExpr(e, ir).eval(EvalPoint{{0, 0, 1, 2}, 0.5}, values));
    KernelIR scored = ir;
    scored.score = e.type().is_float() ? e : Halide::cast(Halide::Float(32), e);
    BOOST_CHECK_NO_THROW(differentiate_score(scored));
    TileProgramBuilder tiles({"b", "h", "q", "kv", "score", "s"}, {"t"});
    BOOST_CHECK_NO_THROW(tiles.emit(e));

    spirv::ModuleBuilder m(0x00010300);
    spirv::ExprEnv env;
    env.b = env.h = env.q = env.kv = m.const_int(1);
    env.score = m.const_float(0.5f);
    env.scalars["s"] = m.const_float(0.25f);
    env.load = [&](const std::string&, const std::vector<spirv::Id>&) { return m.const_float(1.0f); };
    env.glsl = m.import_ext("GLSL.std.450");
    m.begin_function(m.type_void(), m.type_function(m.type_void()));
    BOOST_CHECK_NO_THROW(spirv::emit_expr(m, env, e));
  }
}

}  // namespace attn
