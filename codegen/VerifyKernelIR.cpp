// verify_kernel_ir: one walk over the mask and the score, each node checked against
// KernelIRNodes.h.
#include "codegen/VerifyKernelIR.h"

#include <sstream>
#include <stdexcept>

#include "codegen/KernelIR.h"
#include "codegen/KernelIRNodes.h"

namespace attn {

namespace HI = Halide::Internal;

namespace {

class VerifyNodes : public HI::IRGraphVisitor {
 public:
  explicit VerifyNodes(const KernelIR& ir) : ir_(ir) {}

  using HI::IRGraphVisitor::include;
  void include(const Halide::Expr& e) override {
    switch (e->node_type) {
#define ATTN_ALLOWED_NODE(N) case HI::IRNodeType::N:
      ATTN_KERNEL_IR_NODES(ATTN_ALLOWED_NODE)
#undef ATTN_ALLOWED_NODE
      break;
      default: reject(e, "a node kind outside ATTN_KERNEL_IR_NODES");
    }
    HI::IRGraphVisitor::include(e);
  }

 private:
  using HI::IRGraphVisitor::visit;

  void visit(const HI::Variable* v) override {
    static const char* const kNames[] = {"b", "h", "q", "kv", "q_len", "kv_len", "score"};
    for (const char* name : kNames)
      if (v->name == name && !v->param.defined()) return;
    if (!v->param.defined() && reduction_vars_.contains(v->name)) return;
    if (v->param.defined())
      for (const KernelArg& a : ir_.args) {
        if (a.kind == KernelArg::Kind::Scalar && a.param.name() == v->name) return;
        std::optional<BufferExtent> extent = buffer_extent_of(v->name);
        if (a.kind == KernelArg::Kind::Buffer && extent && extent->buffer == a.name &&
            extent->dim < static_cast<int>(a.dims.size()))
          return;
      }
    reject(
        Halide::Expr(v),
        "a variable that is neither an index, score, a scalar argument, a buffer extent nor the variable of "
        "an enclosing reduction");
  }

  void visit(const HI::Call* c) override {
    if (reduction_of(*c)) {
      // The variable is in scope in the body only; the extent is evaluated outside.
      const auto* var = c->args[0].as<HI::Variable>();
      if (!var || var->type != Halide::Int(32) || var->param.defined() || !c->args[1].type().is_int() ||
          c->args[2].type() != c->type)
        reject(Halide::Expr(c), "a reduction that is not (Int(32) variable, int extent, body of its type)");
      include(c->args[1]);
      reduction_vars_.push(var->name);
      include(c->args[2]);
      reduction_vars_.pop(var->name);
      return;
    }
    if (c->call_type == HI::Call::Image || c->call_type == HI::Call::Halide) {
      const KernelArg* a = ir_.arg(c->name);
      if (!a || a->kind != KernelArg::Kind::Buffer || a->dims.size() != c->args.size())
        reject(Halide::Expr(c), "a load that is not of one of the kernel's buffers, one index per dimension");
    } else if (!builtin_of(*c)) {
      reject(Halide::Expr(c), "a call that is not a builtin (KernelIRNodes.h)");
    }
    HI::IRGraphVisitor::visit(c);
  }

  [[noreturn]] void reject(const Halide::Expr& e, const std::string& what) {
    std::ostringstream s;
    s << "internal error: kernel '" << ir_.name << "' holds " << what << ": " << e;
    throw std::logic_error(s.str());
  }

  const KernelIR& ir_;
  HI::Scope<> reduction_vars_;
};

}  // namespace

void verify_kernel_ir(const KernelIR& ir) {
  VerifyNodes verify(ir);
  verify.include(ir.mask);
  verify.include(ir.score);
}

}  // namespace attn
