// Semantic analysis's checker, shared by the files that hold its parts: Sema.cpp (the driver, module
// scopes, suggestions, recursion), SemaDecls.cpp (declarations, kernel options), SemaExprs.cpp
// (names, operators, indexing, lets, reductions) and SemaCalls.cpp (calls and their arguments).
// Internal to frontend/: the public entry is check_program (Sema.h).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/Sema.h"

namespace attn::sema {

/// Bool or mask: what a condition may be.
bool boolish(const Type& t);

/// Float if either is, else int.
Type numeric_join(const Type& a, const Type& b);

/// How a value is described in messages: "mask 'causal'", "score modifier 'softcap'", or its type.
std::string describe(const Expr& e, const Type& t);

/// Checks a whole program: every independent error reported once to `program.diags`; an
/// expression already in error has the error type, which no later check complains about again.
class Checker {
 public:
  explicit Checker(Program& p) : program_(p), diags_(p.diags) {}

  void run();

 private:
  struct Local {
    std::string name;
    Binding* binding;
  };

  // What is in scope while checking one expression.
  struct Context {
    const Decl* decl = nullptr;
    bool score_in_scope = false;
    bool in_bound = false;  ///< checking a reduction's bound: dimension names are in scope
    std::vector<Local> locals;
  };

  // ---- Sema.cpp: module scopes, suggestions, recursion ---------------------------------------

  // Kernels and definitions are separate namespaces: a kernel may share a definition's name
  // (`kernel natten { mask = natten(...); }`), and expressions only see definitions.
  void build_module_scope(Module& m);

  // A top-level name: the module's own definition, else the one imported definition of that name.
  const Decl* lookup_decl(const std::string& name, SourceRange at, bool report_ambiguity);
  std::vector<std::string> visible_names(const Context& c);

  // ---- SemaDecls.cpp: declarations and kernel options ----------------------------------------

  void check_params(const Decl& d);
  void check_decl(Decl& d);

  // The body of an fn returning several values: a tuple of that arity, possibly under lets.
  void check_tuple_body(Expr& body, Context& c, const Decl& d);
  static bool assignable(const Type& from, const Type& to);
  void check_kernel(Decl& k);

  // The value `v` of kernel option `option` (spelt `key`) of kernel `k`.
  void check_kernel_option(Decl& k, KernelOption option, const std::string& key, Expr& v);
  void suggest(Diagnostic& d, SourceRange at, const std::string& name,
               const std::vector<std::string>& candidates);
  static void offer(Diagnostic& d, SourceRange at, const std::string& replacement);

  // The fix inserts the import after the module's last import, or at the top of the file.
  void suggest_import(Diagnostic& d, const std::string& module);

  // FlexAttention's names for the index variables, which users bring along.
  static const char* index_alias(const std::string& name);

  // ---- SemaExprs.cpp: expressions; SemaCalls.cpp: calls ------------------------------------

  Type check(Expr& e, Context& c);

  // Folds an int expression of constants (literals, and `let` names bound to them), so that an
  // overflow is an error here rather than at run time.
  void fold(Expr& e);
  /// The value fold() found for `e`, an int expression of constants (ints are i32).
  std::optional<int32_t> folded(const Expr& e) const;
  Type error_at(SourceRange r, std::string msg);
  Type check_impl(Expr& e, Context& c);

  // The bindings of a `let`, each in scope for the next; the caller pops them.
  void check_let_bindings(Expr& e, Context& c);

  // `(x, y) = e`: e returns as many values as there are names; each name gets its value's type.
  void check_tuple_binding(Binding& b, Context& c);

  // `op(j < n: body)`: n an int that the parameters, constants and buffer extents give; j an int
  // in scope in the body.
  Type check_reduce(Expr& e, Context& c);

  // A score modifier used where a value is expected applies to the current score.
  Type as_value(const Type& t, const Context& c);
  Type check_name(Expr& e, Context& c, bool as_callee);
  static std::string count(size_t n, const char* what);
  Type check_binary(Expr& e, Context& c);
  static bool is_bit_operator(std::string_view op);

  // Bit operators take ints. `&` and `|` between booleans are a slip for `&&` and `||`: the error
  // offers that fix. A constant shift count must be 0..31 (a run-time one is taken modulo 32).
  Type check_bit_operator(Expr& e, const Type& a, const Type& b);
  static bool is_comparison(std::string_view op);

  // An unparenthesized `&` or `|` directly under a chain of comparisons: `q >= kv & kv > 0` is
  // `q >= (kv & kv) > 0`, as in Python, and was surely meant as `&&`.
  static const Expr* loose_bit_operator(const Expr& cmp);
  Type misplaced_bit_operator(const Expr& bit);

  // Where a binary operator's token is: the first occurrence of its spelling between the operands.
  SourceRange operator_range(const Expr& e) const;
  Type check_index(Expr& e, Context& c);
  Type check_call(Expr& e, Context& c);
  Type check_builtin_call(Expr& e, Context& c);
  Type check_decl_call(Expr& e, const Decl& d, Context& c);
  void check_argument(const Argument& a, const Type& t, const Param& p, const std::string& what, bool& err);

  // Depth-first over the uses, with an explicit stack: a file may chain thousands of definitions.
  void check_recursion();

  Program& program_;
  DiagnosticEngine& diags_;
  Module* module_ = nullptr;
  const Decl* current_ = nullptr;
  std::map<const Module*, std::map<std::string, const Decl*>> own_names_;     // definitions
  std::map<const Module*, std::map<std::string, const Decl*>> kernel_names_;  // kernels
  std::map<const Decl*, std::vector<const Decl*>> uses_;  // in order of first use: messages are stable
  std::map<std::pair<const Decl*, const Decl*>, SourceRange> uses_at_;
  // Kept here, not in every Expr, which an editor's analysis holds one of per ~7 bytes of text.
  std::unordered_map<const Expr*, int32_t> folded_;
};

}  // namespace attn::sema
