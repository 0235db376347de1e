// Kernel arguments for generated C++: a Parameter of the generation's own, renamed, substituted over the IR.
#include "backends/cpu/EmittedNames.h"

#include <map>

namespace attn::cpu {

namespace HI = Halide::Internal;

std::string emitted_name(const std::string& user_name) {
  if (user_name.rfind('_', 0) == 0 || user_name.rfind("u_", 0) == 0) return "u_" + user_name;
  return user_name;
}

namespace {

// Replaces the variables and loads of the arguments by their new Parameters.
class RenameArguments : public HI::IRMutator {
 public:
  explicit RenameArguments(const std::map<std::string, HI::Parameter>& renamed) : renamed_(renamed) {}

  using HI::IRMutator::visit;

  // A scalar argument's variable is named as its Parameter; a buffer's extents (bounded
  // reductions) are `<name>.extent.<d>` and the like, on the buffer's Parameter.
  Halide::Expr visit(const HI::Variable* v) override {
    if (!v->param.defined()) return v;
    const std::string& old = v->param.name();
    auto it = renamed_.find(old);
    if (it == renamed_.end() || v->name.compare(0, old.size(), old) != 0) return v;
    return HI::Variable::make(v->type, it->second.name() + v->name.substr(old.size()), it->second);
  }

  Halide::Expr visit(const HI::Call* c) override {
    auto it = renamed_.find(c->name);
    if (c->call_type != HI::Call::Image || !c->param.defined() || it == renamed_.end())
      return HI::IRMutator::visit(c);
    std::vector<Halide::Expr> args;
    for (const Halide::Expr& a : c->args) args.push_back(mutate(a));
    return HI::Call::make(it->second, args);
  }

 private:
  const std::map<std::string, HI::Parameter>& renamed_;
};

}  // namespace

KernelIR with_emitted_names(const KernelIR& ir) {
  KernelIR out = ir;
  std::map<std::string, HI::Parameter> renamed;
  for (KernelArg& a : out.args) {
    HI::Parameter p(a.param.type(), a.param.is_buffer(), a.param.dimensions(), emitted_name(a.param.name()));
    renamed[a.param.name()] = p;
    a.param = p;
  }
  if (renamed.empty()) return out;
  RenameArguments rename(renamed);
  if (out.mask.defined()) out.mask = rename.mutate(out.mask);
  if (out.score.defined()) out.score = rename.mutate(out.score);
  if (out.sink.defined()) out.sink = rename.mutate(out.sink);
  return out;
}

}  // namespace attn::cpu
