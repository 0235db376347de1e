// HalideCppCodeGen: a CodeGen_C whose vector typedefs, vector Not and lane-by-lane vectors are the
// CPU backend's.
#include "backends/cpu/HalideCppCodeGen.h"

#include <cstdint>
#include <sstream>
#include <stdexcept>

#include "backends/cpu/CpuFixedText.h"
#include "backends/cpu/HalideTextPatches.h"

namespace attn::cpu {

namespace HI = Halide::Internal;

namespace {

class CpuCodeGen : public HI::CodeGen_C {
 public:
  CpuCodeGen(std::ostream& out, const Halide::Target& target)
      : HI::CodeGen_C(out, target, HI::CodeGen_C::CPlusPlusImplementation) {}

 protected:
  using HI::CodeGen_C::visit;

  // Halide's vector classes (fixed/HalideVectorOps.h) with seven changes, then Halide's typedefs:
  // - Comparisons and logical and/or give 0/1 lanes, native and C++ vectors alike, as scalar bools,
  //   broadcasts of them and bool buffer loads are: Halide 14 returned the vector truth value -1
  //   narrowed to 0xFF (0xff in CppVectorOps), so `(q < n) == (kv < n)` compared 0xFF with a
  //   broadcast 0x01 and was false where both held.
  // - The native ramp adds an index vector built once: filled lane by lane, GCC 12 kept it in
  //   memory in the mask pass and the causal kernel ran at 178 GFLOP/s instead of 273.
  // - clang's elementwise min/max where it has them (ATTN_ELEMENTWISE_MIN_MAX): clang 14 did not
  //   always turn Halide's lane loop back into vminps/vmaxps, and the exp of every score went scalar.
  //   Float ones are a comparison and a bit select (one vminps/vmaxps, GCC's NaN rule).
  // - With GCC, the native load and store access memory as a may_alias vector, not by memcpy: GCC
  //   tuned for no AVX-512 CPU copied 32 bytes as two 16-byte halves through the stack, and the
  //   avx2 path's accumulators stalled on store forwarding (20-40x slower than clang's).
  // - The native select is always inlined: clang 14 called it out of line in the avx2 path's exp
  //   pass, and the call's clobbered ymm registers sent the pass's constants to the stack.
  // - Vector loads and stores take an int64_t offset: the indices are int64 arithmetic
  //   (WidenIndices.h), and an int32_t parameter would sign-extend them again at every access.
  // - shuffle() takes a vector of other lanes too: Halide 14 declares only same-lane shuffles, and
  //   widens a narrower vector with one (the f32 decoding layout's 8 rows read as 16).
  void add_vector_typedefs(const std::set<Halide::Type>& vector_types) override {
    stream << kPathCodeMarker;  // split_halide_cpp: where the path's own code begins
    if (!vector_types.empty()) {
      stream << cpu_fixed_text("HalideVectorOps.h");
      for (const Halide::Type& t : vector_types) {
        const std::string name = print_type(t), scalar = print_type(t.element_of());
        const std::string params = "<" + scalar + ", " + std::to_string(t.lanes()) + ">;\n";
        stream << "#if halide_cpp_use_native_vector(" << scalar << ", " << t.lanes() << ")\n"
               << "using " << name << " = NativeVector" << params << "using " << name << "_ops = NativeVectorOps"
               << params << "#else\n"
               << "using " << name << " = CppVector" << params << "using " << name << "_ops = CppVectorOps"
               << params << "#endif\n";
      }
    }
    using_vector_typedefs = true;
  }

  // Halide prints a vector Not as `!(x)`, which clang types as a vector of char: compare with 0.
  void visit(const HI::Not* op) override {
    if (!op->type.is_vector()) return HI::CodeGen_C::visit(op);
    const std::string t = print_type(op->type), a = print_expr(op->a);
    print_assignment(op->type, t + "_ops::eq(" + a + ", " + t + "_ops::broadcast(0))");
  }

  // The int64 constants of widened indices (WidenIndices.h) written in place, as int32 ones are:
  // Halide gives each its own `int64_t const _N = (int64_t)(4ll);`.
  void visit(const HI::IntImm* op) override {
    if (op->type == Halide::Int(64) && op->value >= INT32_MIN && op->value <= INT32_MAX)
      id = "int64_t(" + std::to_string(op->value) + ")";
    else
      HI::CodeGen_C::visit(op);
  }

  // A vector of checked loads (CheckedLoads.h) is built lane by lane, each lane with its check.
  void visit(const HI::Call* op) override {
    if (op->is_intrinsic(HI::Call::require) && op->args[0].type().is_vector())
      print_assignment(op->type, lane_by_lane(op));
    else
      HI::CodeGen_C::visit(op);
  }

  // So is a vector of extern calls (math functions Halide has no vector form of).
  std::string print_extern_call(const HI::Call* op) override {
    return op->type.is_vector() ? lane_by_lane(op) : HI::CodeGen_C::print_extern_call(op);
  }

 private:
  // Halide's print_scalarized_expr, but the vector starts value-initialized (clang warns otherwise).
  std::string lane_by_lane(const Halide::Expr& e) {
    const Halide::Type t = e.type();
    std::string v = HI::unique_name('_');
    stream << get_indent() << print_type(t, AppendSpace) << v << "{};\n";
    for (int lane = 0; lane < t.lanes(); ++lane) {
      const std::string elem = print_expr(HI::extract_lane(e, lane));
      v = print_assignment(t, print_type(t) + "_ops::replace(" + v + ", " + std::to_string(lane) + ", " + elem + ")");
    }
    return v;
  }
};

}  // namespace

std::string print_halide_cpp(const Halide::Module& module, const Halide::Target& target) {
  std::ostringstream out;
  {
    CpuCodeGen codegen(out, target);
    codegen.compile(module);
  }
  std::string code = include_utility(out.str());
  check_no_uninitialized_vectors(code);
  return code;
}

}  // namespace attn::cpu
