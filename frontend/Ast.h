// The .attn abstract syntax tree. The parser fills syntax and ranges; Sema fills `ref` and `type`.
#pragma once

#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/Arena.h"
#include "frontend/NodeList.h"
#include "frontend/Source.h"
#include "frontend/Types.h"

namespace attn {

struct Decl;
struct Param;
struct Binding;
struct Module;

enum class ExprKind : uint8_t {
  IntLit,    ///< 42
  FloatLit,  ///< 1.5, 2e3
  BoolLit,   ///< true, false
  InfLit,    ///< inf
  Name,      ///< causal, q, window
  Unary,     ///< -x, !m            operands: [x]
  Binary,    ///< a + b, a && b     operands: [a, b]; `op` is the spelling
  Cond,      ///< c ? a : b         operands: [c, a, b]
  Call,      ///< f(x, q = e)       operands: [callee]; `args`
  Index,     ///< t[i, j]           operands: [tensor, i, j]
  Pipe,      ///< s1 |> s2          operands: [s1, s2]
  Let,       ///< let a = e; body   operands: [body]; `bindings`
  Paren,     ///< (e)               operands: [e]
  List,      ///< [a, b] (kernel options only)  operands: elements
  Reduce,    ///< sum(j < n: e)     operands: [e]; `text` is the op; bindings[0]: j, its value n
  Tuple,     ///< (a, b)            operands: elements (the body of an fn returning several values)
};

/// The index variables in scope everywhere: the four positions and the call's two lengths
/// (docs/language.md, "The meaning of a kernel").
enum class IndexVar : uint8_t { B, H, Q, KV, QLen, KVLen };
inline constexpr const char* kIndexNames[] = {"b", "h", "q", "kv", "q_len", "kv_len"};
inline constexpr int kNumIndexVars = static_cast<int>(std::size(kIndexNames));
static_assert(kNumIndexVars == static_cast<int>(IndexVar::KVLen) + 1, "one name per IndexVar");

/// What a name refers to, filled by Sema. A Builtin is the function the name spells.
struct SymbolRef {
  /// Extent: the run-time extent of dimension `dim` of tensor parameter `param` (a reduction bound).
  enum Kind : uint8_t { None, Decl, Param, Local, Index, Score, Builtin, Extent } kind = None;
  IndexVar index = IndexVar::B;        ///< Index
  int dim = 0;                         ///< Extent: the dimension of `param`
  union {                              // which member: by `kind`
    const attn::Decl* decl = nullptr;  ///< Decl
    const attn::Param* param;          ///< Param, Extent (param->owner declares it)
    const attn::Binding* local;        ///< Local
  };
};

struct Expr;
/// Runs an expression's destructor: its memory is its module's Arena's.
struct ExprDelete {
  void operator()(Expr* e) const;
};
using ExprPtr = std::unique_ptr<Expr, ExprDelete>;

/// A call argument: positional (`name` empty) or named (`q = e`).
struct Argument {
  std::string name;
  SourceRange name_range;
  ExprPtr value;
};

/// `name = value` inside a `let`; the variable of a reduction (`value` is its bound); or, with
/// `name` empty, `(x, y) = value`, which binds each of `elements` to one value of a tuple.
struct Binding {
  std::string name;
  SourceRange name_range;
  ExprPtr value;
  Type type;                      ///< filled by Sema
  bool is_reduction_var = false;  ///< its value is not what it holds: it ranges over [0, value)
  NodeList<Binding> elements;     ///< a tuple binding's names (no value of their own)
};

/// An editor's analysis holds one per ~7 bytes of text, hence 64 bytes: what only some kinds
/// have (a name's reference, a literal's value, a call's arguments, a let's or reduction's
/// bindings) shares one slot, chosen by kind when the node is made; the text and the operands
/// are each a pointer and a 32-bit size, the sizes packed around the range.
struct Expr {
  ExprKind kind;  ///< fixed at construction but for Binary -> Pipe (the slot's member is by kind)

 private:
  uint32_t text_size_ = 0;

 public:
  SourceRange range;

 private:
  uint32_t operand_count_ = 0;

 public:
  Type type;  ///< the expression's type (Sema)

 private:
  const char* text_ = "";
  ExprPtr* operands_ = nullptr;  ///< in the module's arena

 public:
  union {                        // which member: by `kind`; read no other
    SymbolRef ref;               ///< Name: what it refers to (Sema); None in the kinds not below
    int64_t int_value;           ///< IntLit
    double float_value;          ///< FloatLit
    bool bool_value;             ///< BoolLit
    NodeList<Argument> args;     ///< Call
    NodeList<Binding> bindings;  ///< Let, Reduce
  };

  Expr(ExprKind k, SourceRange r);
  Expr(const Expr&) = delete;
  Expr& operator=(const Expr&) = delete;
  ~Expr();

  /// Name: the identifier; Unary/Binary: the operator; Reduce: its op; literals: the spelling. A
  /// view of the source text (which the Program's SourceManager owns) or of a literal.
  std::string_view text() const { return {text_, text_size_}; }
  void set_text(std::string_view t) {
    text_ = t.data();
    text_size_ = static_cast<uint32_t>(t.size());
  }
  /// The children (see ExprKind), which the parser sets once.
  std::span<const ExprPtr> operands() const { return {operands_, operand_count_}; }
  /// Moves `n` expressions from `items` into the operands, in `arena` (the module's); once.
  void set_operands(Arena& arena, ExprPtr* items, size_t n);
};

inline Expr::Expr(ExprKind k, SourceRange r) : kind(k), range(r) {
  switch (k) {
    case ExprKind::IntLit: int_value = 0; break;
    case ExprKind::FloatLit: float_value = 0; break;
    case ExprKind::BoolLit: bool_value = false; break;
    case ExprKind::Call: new (&args) NodeList<Argument>(); break;
    case ExprKind::Let:
    case ExprKind::Reduce: new (&bindings) NodeList<Binding>(); break;
    default: new (&ref) SymbolRef(); break;
  }
}

inline Expr::~Expr() {
  for (uint32_t i = 0; i < operand_count_; ++i) operands_[i].~ExprPtr();
  if (kind == ExprKind::Call)
    args.~NodeList();
  else if (kind == ExprKind::Let || kind == ExprKind::Reduce)
    bindings.~NodeList();
}

inline void Expr::set_operands(Arena& arena, ExprPtr* items, size_t n) {
  if (n == 0) return;
  operands_ = static_cast<ExprPtr*>(arena.allocate(n * sizeof(ExprPtr), alignof(ExprPtr)));
  for (size_t i = 0; i < n; ++i) new (operands_ + i) ExprPtr(std::move(items[i]));
  operand_count_ = static_cast<uint32_t>(n);
}

inline void ExprDelete::operator()(Expr* e) const { e->~Expr(); }

static_assert(sizeof(void*) != 8 || sizeof(Expr) == 64, "Expr's fields leave a hole");

struct Param {
  std::string name;
  SourceRange range;  ///< the whole `name: type`
  SourceRange name_range;
  Type type;
  const Decl* owner = nullptr;  ///< the declaration whose parameter it is
};

/// One `key = value;` line of a kernel.
struct KernelItem {
  std::string key;
  SourceRange key_range;
  SourceRange range;
  ExprPtr value;
};

enum class DeclKind : uint8_t { Mask, Score, Fn, Kernel };

/// A definition or kernel (an analysis holds one per ~90 bytes of text): the small fields come
/// first, so that they pack.
struct Decl {
  DeclKind kind;
  bool has_param_list = false;
  SourceRange range;  ///< the whole declaration
  SourceRange name_range;
  Type result;  ///< Fn: the declared result; Mask/Score: mask/score
  std::string name;
  std::vector<Param> params;
  ExprPtr body;                   ///< Mask/Score/Fn
  std::vector<KernelItem> items;  ///< Kernel
  std::string doc;                ///< the `///` (or `//`) comment block right above, without markers
  const Module* module = nullptr;

  const KernelItem* item(const std::string& key) const {
    for (const KernelItem& i : items)
      if (i.key == key) return &i;
    return nullptr;
  }
};

const char* decl_kind_name(DeclKind k);

struct Import {
  std::string spelling;  ///< "std.masks" or "relative/path.attn"
  bool is_std = false;
  SourceRange range;
  const Module* target = nullptr;  ///< filled by the module loader
};

/// One parsed .attn file.
struct Module {
  Arena arena;  ///< the expressions of `decls` (declared first: freed after them)
  FileId file = 0;
  std::string name;  ///< "std.masks" for stdlib modules, else the path as given
  std::vector<Import> imports;
  std::vector<std::unique_ptr<Decl>> decls;

  const Decl* find(const std::string& name) const {
    for (const auto& d : decls)
      if (d->name == name) return d.get();
    return nullptr;
  }
};

}  // namespace attn
