// The inlined depth of every definition, computed leaves first without recursing over the chain
// of definitions (a file may chain thousands of them).
#include "frontend/InlineDepth.h"

#include <map>

#include "frontend/Limits.h"

namespace attn {

namespace {

// The deepest point of an expression, and the use of a definition that makes it so.
struct Deepest {
  int depth = 0;
  const Expr* at = nullptr;  // a name referring to a definition; null when none contributes
};

class InlineDepth {
 public:
  explicit InlineDepth(Program& p) : program_(p) {}

  void run() {
    for (auto& m : program_.modules)
      for (auto& d : m->decls) visit(d.get());
  }

 private:
  static constexpr int kUnknown = -1;  // on a cycle, or using a definition already reported

  // Post-order over the definitions each one uses, with an explicit stack.
  void visit(const Decl* root) {
    if (state_.count(root)) return;
    struct Frame {
      const Decl* decl;
      std::vector<const Decl*> uses;
      size_t next = 0;
    };
    std::vector<Frame> stack;
    auto push = [&](const Decl* d) {
      state_[d] = kOnStack;
      stack.push_back({d, uses_of(*d)});
    };
    push(root);
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.next < f.uses.size()) {
        const Decl* u = f.uses[f.next++];
        if (!state_.count(u)) push(u);
        continue;
      }
      const Decl* d = f.decl;
      stack.pop_back();
      depth_[d] = depth_of(*d);
      state_[d] = kDone;
    }
  }

  // The definitions `d` refers to by name, in order of appearance.
  static std::vector<const Decl*> uses_of(const Decl& d) {
    std::vector<const Decl*> out;
    auto add = [&](const Expr& e, auto& self) -> void {
      if (e.kind == ExprKind::Name && e.ref.kind == SymbolRef::Decl && e.ref.decl) out.push_back(e.ref.decl);
      for (const auto& o : e.operands()) self(*o, self);
      if (e.kind == ExprKind::Call)
        for (const auto& a : e.args) self(*a.value, self);
      if (e.kind == ExprKind::Let || e.kind == ExprKind::Reduce)
        for (const auto& b : e.bindings) self(*b.value, self);
    };
    if (d.body) add(*d.body, add);
    for (const KernelItem& item : d.items)
      if (item.value) add(*item.value, add);
    return out;
  }

  int depth_of(const Decl& d) {
    unknown_ = false;
    Deepest deepest;
    if (d.body) deepest = walk(*d.body, 1);
    for (const KernelItem& item : d.items)
      if (item.value) {
        Deepest x = walk(*item.value, 1);
        if (x.depth > deepest.depth) deepest = x;
      }
    if (unknown_) return kUnknown;
    if (deepest.depth <= kMaxInlineDepth || !deepest.at) return deepest.depth;
    const Decl* used = deepest.at->ref.decl;
    Diagnostic& diag = program_.diags.error(
        deepest.at->range, "'" + d.name + "' is nested too deeply once '" + used->name + "' is inlined (" +
                               std::to_string(deepest.depth) + " levels; attnc accepts " +
                               std::to_string(kMaxInlineDepth) + ")");
    add_note(diag, used->name_range, "'" + used->name + "' is defined here");
    return kUnknown;
  }

  // The depth of `e` at nesting level `level` with every definition it uses inlined. A call
  // applies its mask and score arguments inside the callee: their depth adds to the callee's.
  Deepest walk(const Expr& e, int level) {
    Deepest best{level, nullptr};
    auto consider = [&](const Deepest& x) {
      if (x.depth > best.depth) best = x;
    };
    if (e.kind == ExprKind::Name && e.ref.kind == SymbolRef::Decl && e.ref.decl)
      consider({level + inlined(e), &e});
    for (const auto& o : e.operands()) consider(walk(*o, level + 1));
    if (e.kind == ExprKind::Let || e.kind == ExprKind::Reduce)
      for (const auto& b : e.bindings) consider(walk(*b.value, level + 1));
    if (e.kind == ExprKind::Call && !e.operands().empty()) {
      int deepest_arg = 0;
      for (const auto& a : e.args) {
        Deepest x = walk(*a.value, level + 1);
        consider(x);
        deepest_arg = std::max(deepest_arg, x.depth - level);
      }
      const Expr& callee = *e.operands()[0];
      if (callee.kind == ExprKind::Name && callee.ref.kind == SymbolRef::Decl && callee.ref.decl)
        consider({level + inlined(callee) + deepest_arg, &callee});
    }
    return best;
  }

  // The inlined depth of the definition `name` refers to (0 when unknown: the caller is skipped).
  int inlined(const Expr& name) {
    auto it = depth_.find(name.ref.decl);
    if (it == depth_.end() || it->second == kUnknown) {
      unknown_ = true;
      return 0;
    }
    return it->second;
  }

  enum State { kOnStack, kDone };

  Program& program_;
  std::map<const Decl*, State> state_;
  std::map<const Decl*, int> depth_;
  bool unknown_ = false;
};

}  // namespace

void check_inline_depth(Program& program) { InlineDepth(program).run(); }

}  // namespace attn
