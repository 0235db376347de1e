// CExprPrinter: a recursive walk over the Halide expression nodes the IR contains.
#include "backends/clike/CExprPrinter.h"

#include "codegen/KernelIRNodes.h"

#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace attn {

namespace HI = Halide::Internal;

namespace {

std::string paren(const std::string& s) { return "(" + s + ")"; }

[[noreturn]] void unsupported(const Halide::Expr& e, const std::string& what) {
  std::ostringstream s;
  s << "internal error: the C-family printer cannot print " << what << ": " << e;
  throw std::logic_error(s.str());
}

}  // namespace

std::string CExprPrinter::typed_scalar(const KernelArg& arg, const std::string& value) {
  const std::string v = value + " /* " + arg.name + " */";
  if (arg.elem == ElemType::Bool) return "(" + v + " != 0.0)";
  return "((" + std::string(arg.elem == ElemType::I32 ? "int" : "float") + ")" + v + ")";
}

std::string CExprPrinter::type_name(const Halide::Type& t) {
  if (t.is_bool()) return "bool";
  if (t.is_float() && t.bits() == 32) return "float";
  if (t.is_float() && t.bits() == 64) return "double";
  if (t.is_int() && t.bits() == 32) return "int";
  if (t.is_int() && t.bits() == 64) return "long long";
  if (t.is_uint() && t.bits() == 8) return "unsigned char";
  if (t.is_uint() && t.bits() == 32) return "unsigned";
  if (t.is_uint() && t.bits() == 64) return "unsigned long long";
  std::ostringstream s;
  s << "internal error: the C-family printer has no type for " << t;
  throw std::logic_error(s.str());
}

std::string CExprPrinter::float_literal(double v) {
  if (!std::isfinite(v)) return special_float(v);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  std::string s = buf;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s + "f";
}

std::string CExprPrinter::print(const Halide::Expr& e) {
  if (const auto* i = e.as<HI::IntImm>()) {
    if (i->type.bits() == 32 && i->value == INT32_MIN) return "(-2147483647 - 1)";
    std::string s = std::to_string(i->value);
    if (i->type.bits() == 64) s += "LL";
    return i->value < 0 ? paren(s) : s;
  }
  if (const auto* u = e.as<HI::UIntImm>()) {
    if (u->type.is_bool()) return u->value ? "true" : "false";
    return "((" + type_name(u->type) + ")" + std::to_string(u->value) + "u)";
  }
  if (const auto* f = e.as<HI::FloatImm>()) {
    std::string s = float_literal(f->value);
    return f->value < 0 ? paren(s) : s;
  }
  if (const auto* v = e.as<HI::Variable>()) {
    if (std::optional<BufferExtent> x = buffer_extent_of(v->name); x && v->param.defined()) {
      int position = 0;
      for (const KernelArg& a : ir_.args) {
        if (a.kind != KernelArg::Kind::Buffer) continue;
        if (a.name == x->buffer) return extent(a, position, x->dim);
        ++position;
      }
      unsupported(e, "the extent of an unknown buffer");
    }
    if (v->param.defined()) {
      int position = 0;
      for (const KernelArg& a : ir_.args) {
        if (a.kind != KernelArg::Kind::Scalar) continue;
        if (a.param.name() == v->name) return scalar(a, position);
        ++position;
      }
      unsupported(e, "an unknown scalar argument");
    }
    return variable(v->name);
  }
  auto binary = [&](const char* op, const Halide::Expr& a, const Halide::Expr& b) {
    return paren(print(a) + " " + op + " " + print(b));
  };
  if (const auto* x = e.as<HI::Add>()) return binary("+", x->a, x->b);
  if (const auto* x = e.as<HI::Sub>()) return binary("-", x->a, x->b);
  if (const auto* x = e.as<HI::Mul>()) return binary("*", x->a, x->b);
  if (const auto* x = e.as<HI::Div>()) {
    if (x->type.is_float()) return binary("/", x->a, x->b);
    return int_div(print(x->a), print(x->b));
  }
  if (const auto* x = e.as<HI::Mod>()) {
    if (x->type.is_float()) return float_mod(print(x->a), print(x->b));
    return int_mod(print(x->a), print(x->b));
  }
  if (const auto* x = e.as<HI::Min>()) {
    if (x->type.is_float()) return math_function("fmin") + "(" + print(x->a) + ", " + print(x->b) + ")";
    return int_min(print(x->a), print(x->b));
  }
  if (const auto* x = e.as<HI::Max>()) {
    if (x->type.is_float()) return math_function("fmax") + "(" + print(x->a) + ", " + print(x->b) + ")";
    return int_max(print(x->a), print(x->b));
  }
  if (const auto* x = e.as<HI::EQ>()) return binary("==", x->a, x->b);
  if (const auto* x = e.as<HI::NE>()) return binary("!=", x->a, x->b);
  if (const auto* x = e.as<HI::LT>()) return binary("<", x->a, x->b);
  if (const auto* x = e.as<HI::LE>()) return binary("<=", x->a, x->b);
  if (const auto* x = e.as<HI::GT>()) return binary(">", x->a, x->b);
  if (const auto* x = e.as<HI::GE>()) return binary(">=", x->a, x->b);
  if (const auto* x = e.as<HI::And>()) return binary("&&", x->a, x->b);
  if (const auto* x = e.as<HI::Or>()) return binary("||", x->a, x->b);
  if (const auto* x = e.as<HI::Not>()) return "!" + paren(print(x->a));
  if (const auto* x = e.as<HI::Select>())
    return paren(print(x->condition) + " ? " + print(x->true_value) + " : " + print(x->false_value));
  if (const auto* x = e.as<HI::Cast>()) {
    if (x->type.is_bool()) return paren(print(x->value) + " != 0");
    return "((" + type_name(x->type) + ")" + print(x->value) + ")";
  }
  if (const auto* c = e.as<HI::Call>()) return print_call(c);
  if (const auto* l = e.as<HI::Let>())
    return print(Halide::Internal::substitute_in_all_lets(Halide::Expr(l)));
  unsupported(e, "this node");
}

std::string CExprPrinter::print_call(const HI::Call* c) {
  const Halide::Expr self(c);
  if (c->call_type == HI::Call::Image || c->call_type == HI::Call::Halide) {
    int position = 0;
    for (const KernelArg& a : ir_.args) {
      if (a.kind != KernelArg::Kind::Buffer) continue;
      if (a.param.name() == c->name) {
        std::vector<std::string> index;
        for (const Halide::Expr& i : c->args) index.push_back(print(i));
        return load(a, position, index);
      }
      ++position;
    }
    unsupported(self, "a load of an unknown buffer");
  }
  if (reduction_of(*c)) return print_reduction(c);
  const std::optional<Builtin> builtin = builtin_of(*c);
  if (!builtin) unsupported(self, "the call '" + c->name + "'");
  std::vector<std::string> args;
  for (const Halide::Expr& a : c->args) args.push_back(print(a));
  switch (*builtin) {
    case Builtin::Abs:
      if (c->args[0].type().is_float()) return math_function("fabs") + "(" + args[0] + ")";
      // Halide's abs of an int is unsigned; the IR casts it back.
      return "((" + type_name(c->type) + ")abs(" + args[0] + "))";
    case Builtin::Pow:
      // exp2(x) lowers to pow(2, x): print it as the target's exp2.
      if (const auto* base = c->args[0].as<HI::FloatImm>(); base && base->value == 2.0)
        return math_function("exp2") + "(" + args[1] + ")";
      return math_function("pow") + "(" + args[0] + ", " + args[1] + ")";
    case Builtin::Exp:
    case Builtin::Log:
    case Builtin::Tanh:
    case Builtin::Sqrt:
    case Builtin::Sin:
    case Builtin::Cos:
    case Builtin::Floor:
    case Builtin::Ceil:
    case Builtin::Round:
    case Builtin::Trunc:
    case Builtin::Erf:
    case Builtin::Atan: return math_function(builtin_name(*builtin)) + "(" + args[0] + ")";
    case Builtin::BitAnd: return paren(args[0] + " & " + args[1]);
    case Builtin::BitOr: return paren(args[0] + " | " + args[1]);
    case Builtin::BitXor: return paren(args[0] + " ^ " + args[1]);
    case Builtin::BitNot: return paren("~" + args[0]);
    // Through unsigned: a signed left shift into the sign bit is undefined before C++20.
    case Builtin::ShiftLeft:
      return "((" + type_name(c->type) + ")((unsigned)" + args[0] + " << " + args[1] + "))";
    case Builtin::ShiftRight: return paren(args[0] + " >> " + args[1]);
  }
  unsupported(self, "the call '" + c->name + "'");
}

// A loop inside an expression: an immediately invoked lambda (C++ and CUDA device code alike)
// whose loop variable is the reduction's, so the body prints as any other expression. any/all
// stop at the first element that decides them; sum/max/min visit every element in order.
std::string CExprPrinter::print_reduction(const HI::Call* c) {
  const Reduction op = *reduction_of(*c);
  const std::string var = variable(c->args[0].as<HI::Variable>()->name);
  const std::string t = type_name(c->type);
  const std::string body = print(c->args[2]);
  std::string init, step;
  switch (op) {
    case Reduction::Sum:
      init = print(reduction_identity(op, c->args[2]));
      step = "acc = acc + " + body + ";";
      break;
    case Reduction::Any:
      init = "false";
      step = "if (" + body + ") return true;";
      break;
    case Reduction::All:
      init = "true";
      step = "if (!" + paren(body) + ") return false;";
      break;
    case Reduction::Max:
    case Reduction::Min: {
      init = print(reduction_identity(op, c->args[2]));
      const bool is_max = op == Reduction::Max;
      const std::string x = "x", acc = "acc";
      std::string pick = c->type.is_float() ? math_function(is_max ? "fmax" : "fmin") + "(acc, x)"
                                            : (is_max ? int_max(acc, x) : int_min(acc, x));
      step = t + " x = " + body + "; acc = " + pick + ";";
      break;
    }
  }
  return "([&]() -> " + t + " { " + t + " acc = " + init + "; for (int " + var + " = 0; " + var + " < " +
         print(c->args[1]) + "; ++" + var + ") { " + step + " } return acc; }())";
}

namespace {

/// Finds what a printed condition may not use: buffer loads, variables outside `allowed`.
class PrintableCheck : public HI::IRVisitor {
 public:
  explicit PrintableCheck(const std::set<std::string>& allowed) : allowed_(allowed) {}
  bool ok = true;

 private:
  using HI::IRVisitor::visit;
  void visit(const HI::Variable* v) override {
    if (!v->param.defined() && !allowed_.count(v->name)) ok = false;
    if (v->param.defined() && buffer_extent_of(v->name)) ok = false;  // a buffer's, like a load
  }
  void visit(const HI::Call* c) override {
    if (c->call_type == HI::Call::Image || c->call_type == HI::Call::Halide) ok = false;
    HI::IRVisitor::visit(c);
  }
  const std::set<std::string>& allowed_;
};

}  // namespace

bool printable_without_loads(const Halide::Expr& e, const std::set<std::string>& allowed) {
  PrintableCheck check(allowed);
  e.accept(&check);
  return check.ok;
}

}  // namespace attn
