// emit_self_plan: the run-time tile planner's code and a kernel's plan program, as C++ text.
#include "backends/cpu/SelfPlan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "backends/cpu/CpuFixedText.h"

namespace attn::cpu {

namespace {

std::string number(double v) {
  if (std::isnan(v)) return "std::numeric_limits<double>::quiet_NaN()";
  if (std::isinf(v)) return v > 0 ? "std::numeric_limits<double>::infinity()" : "-std::numeric_limits<double>::infinity()";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  std::string s = buf;
  if (s.find_first_of(".eE") == std::string::npos) s += ".0";  // a double literal
  return s;
}

/// `constexpr T name[] = {...};`, one placeholder element when empty (C++ has no empty arrays).
template <class T, class Print>
void table(std::ostringstream& o, const std::string& type, const std::string& name, const std::vector<T>& values,
           Print print) {
  o << "constexpr " << type << " " << name << "[] = {";
  if (values.empty()) o << "{}";
  for (size_t i = 0; i < values.size(); ++i) o << (i ? ", " : "") << print(values[i]);
  o << "};\n";
}

void program_tables(std::ostringstream& o, const std::string& name, const TileProgram& p) {
  table(o, "attn_tile_eval::Op", "kPlan" + name + "Ops", p.ops, [](const TileOp& op) {
    return "{attn_tile_eval::OpCode(" + std::to_string(static_cast<int>(op.code)) + "), " +
           (op.is_float ? "true" : "false") + ", " + std::to_string(op.a) + ", " + std::to_string(op.b) + ", " +
           std::to_string(op.c) + ", " + number(op.imm) + "}";
  });
  auto reg = [](int32_t r) { return std::to_string(r); };
  table(o, "int32_t", "kPlan" + name + "Operands", p.operands, reg);
  table(o, "int32_t", "kPlan" + name + "Outputs", p.outputs, reg);
  o << "constexpr attn_tile_eval::Program kPlan" << name << " = {kPlan" << name << "Ops, " << p.ops.size()
    << ", kPlan" << name << "Operands, kPlan" << name << "Outputs, " << p.outputs.size() << ", nullptr};\n";
}

/// Where each name of `names` is among the arguments of `kind`, in declaration order.
std::vector<int> positions(const std::vector<std::string>& names, const std::vector<KernelArg>& args,
                           KernelArg::Kind kind) {
  std::vector<int> out;
  for (const std::string& name : names) {
    int index = 0;
    bool found = false;
    for (const KernelArg& a : args) {
      if (a.kind != kind) continue;
      if (a.param.name() == name) {  // the plan names the Parameters (emitted_name)
        found = true;
        break;
      }
      ++index;
    }
    if (!found) throw std::logic_error("internal error: the tile plan reads '" + name + "', not an argument");
    out.push_back(index);
  }
  return out;
}

/// The text of `name` without its include of TileProgramEval.h (the kernel holds that text just before).
std::string without_eval_include(const std::string& name) {
  std::string text = cpu_fixed_text(name);
  const std::string include = "#include \"runtime/TileProgramEval.h\"\n";
  const size_t at = text.find(include);
  if (at == std::string::npos) throw std::logic_error("internal error: " + name + " does not include TileProgramEval.h");
  return text.erase(at, include.size());
}

}  // namespace

std::string emit_self_plan(const TilePlanProgram& plan, const std::vector<KernelArg>& args) {
  std::ostringstream o;
  o << "// ---- The run-time tile planner (attnc's runtime/TileProgramEval.h and TileGridEval.h) ----\n"
    << "#define ATTN_TILE_EVAL_INTERNAL 1  // this kernel's own copy\n"
    << cpu_fixed_text("TileProgramEval.h") << "\n"
    << without_eval_include("TileGridEval.h") << "\n"
    << "namespace {\n\n"
    << "// The kernel's tile plan (codegen/PlanTiles), for calls that pass no key ranges.\n"
    << "constexpr int kPlanBlockQ = " << plan.block_q << ", kPlanBlockKv = " << plan.block_kv << ";\n"
    << "constexpr bool kPlanRangesExact = " << (plan.ranges_exact ? "true" : "false") << ";\n";
  program_tables(o, "Tile", plan.tile);
  program_tables(o, "Ranges", plan.ranges);
  auto index = [](int i) { return std::to_string(i); };
  o << "// The scalars and buffers the plan reads, as indices into args->scalars and args->buffers.\n"
    << "constexpr int kPlanNumScalars = " << plan.scalars.size() << ", kPlanNumBuffers = " << plan.buffers.size()
    << ";\n";
  table(o, "int", "kPlanScalars", positions(plan.scalars, args, KernelArg::Kind::Scalar), index);
  table(o, "int", "kPlanBuffers", positions(plan.buffers, args, KernelArg::Kind::Buffer), index);
  o << "\n}  // namespace\n\n" << cpu_fixed_text("SelfPlan.h");
  return o.str();
}

}  // namespace attn::cpu
