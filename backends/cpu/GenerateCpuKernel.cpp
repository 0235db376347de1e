// generate_cpu_kernel: algorithm -> schedule -> Halide C++ -> runtime glue + ABI wrapper, as text.
#include <cctype>
#include <set>
#include <sstream>
#include <stdexcept>

#include "backends/cpu/AttentionAlgorithm.h"
#include "backends/cpu/BackwardAlgorithm.h"
#include "backends/cpu/CpuBackend.h"
#include "backends/cpu/CpuExprPrinter.h"
#include "backends/cpu/CpuFixedText.h"
#include "backends/cpu/EmitHalideCpp.h"
#include "backends/cpu/EmittedNames.h"
#include "backends/cpu/KernelWrapper.h"
#include "backends/cpu/RuntimeGlue.h"
#include "backends/cpu/ScheduleAttention.h"
#include "backends/cpu/SelfPlan.h"
#include "codegen/PlanTiles.h"
#include "codegen/TilePlan.h"

namespace attn {

namespace {

std::string c_identifier(const std::string& s) {
  std::string out;
  for (char ch : s) out += (isalnum((unsigned char)ch) || ch == '_') ? ch : '_';
  return out;
}

std::vector<std::string> flags_for(CpuIsa isa) {
  std::vector<std::string> f = {"-O2", "-ffp-contract=fast", "-fno-math-errno"};
  if (isa == CpuIsa::AVX2 || isa == CpuIsa::AVX512)
    for (const char* x : {"-mavx2", "-mfma", "-mf16c"}) f.push_back(x);
  if (isa == CpuIsa::AVX512)
    for (const char* x : {"-mavx512f", "-mavx512vl", "-mavx512dq", "-mavx512bw"}) f.push_back(x);
  return f;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

std::string describe_args(const KernelIR& ir) {
  std::string s;
  for (const KernelArg& a : ir.args) {
    s += s.empty() ? "" : ", ";
    s += a.name + (a.kind == KernelArg::Kind::Buffer ? " (buffer)" : " (scalar)");
  }
  return s.empty() ? "none" : s;
}

std::string emit_header(const KernelIR& ir, const std::string& entry, const std::string& guard) {
  std::ostringstream h;
  h << "/* attnc: C interface of the CPU kernel '" << ir.name << "'. Generated; do not edit. */\n"
    << "#ifndef " << guard << "\n#define " << guard << "\n\n"
    << cpu::cpu_fixed_text("kernel_abi.h") << "\n"
    << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
    << "/** Runs kernel '" << ir.name << "' (I/O " << dtype_name(ir.options.dtype)
    << "). Run-time arguments, in order: " << describe_args(ir) << ".\n"
    << " *  Returns 0, or non-zero with a message in args->error. */\n"
    << "int " << entry << "(const attn_kernel_args* args);\n\n"
    << "#ifdef __cplusplus\n}  /* extern \"C\" */\n#endif\n\n#endif /* " << guard << " */\n";
  return h.str();
}

/// The tile plan's sufficient condition for "the mask is false on this box" as C++ for the
/// wrapper's key-block test; empty when there is none it can print (the mask reads buffers: their
/// run-time plan gives the window instead).
std::string keys_masked_condition(const KernelIR& ir, const cpu::Geometry& g) {
  std::shared_ptr<const TilePlan> plan = plan_tiles(ir, PlanTilesOptions{g.tile_q, g.key_block});
  if (!plan->index_only || !plan->bounds_empty.defined()) return "";
  Halide::Expr e = Halide::Internal::simplify(plan->bounds_empty);
  if (Halide::Internal::is_const_zero(e)) return "";
  static const std::set<std::string> vars = {"q_min", "q_max", "kv_min", "kv_max", "b_min", "b_max", "h_min", "h_max"};
  if (!printable_without_loads(e, vars)) return "";
  return cpu::CpuExprPrinter(ir).print(e);
}

/// The planner that a kernel whose mask reads buffers (`kv_ranges`) runs when the caller passes no
/// key ranges, with its plan in the kernel's tiles; empty for other kernels.
std::string self_plan(const KernelIR& ir, const cpu::Geometry& g, bool kv_ranges) {
  if (!kv_ranges) return "";
  return cpu::emit_self_plan(tile_plan_program(*plan_tiles(ir, PlanTilesOptions{g.tile_q, g.key_block})), ir.args) +
         "\n";
}

/// Scalars a kernel ends up not reading (the query count when no buffer check needs it) would be
/// -Wunused-parameter warnings in the pipeline function: it reads each once.
void use_every_scalar(cpu::HalideCpp& halide, const std::string& pipeline, const std::vector<Halide::Argument>& args) {
  size_t at = halide.code.find("int " + pipeline + "(");
  if (at == std::string::npos || (at = halide.code.find(") {\n", at)) == std::string::npos)
    throw std::logic_error("internal error: no definition of " + pipeline + " in Halide's C++ output");
  std::string uses;
  for (const Halide::Argument& arg : args)
    if (arg.kind == Halide::Argument::InputScalar) uses += " (void)_" + arg.name + ";";
  halide.code.insert(at + 4, uses.empty() ? "" : uses.substr(1) + "\n");
}

}  // namespace

CpuKernelSource generate_cpu_kernel(const KernelIR& user_ir, const CpuTarget& target) {
  using namespace attn::cpu;
  // Argument names meet the C preprocessor in the generated source.
  const KernelIR ir = with_emitted_names(user_ir);
  stabilize_halide_name_counters();
  Geometry g = choose_geometry(ir, target);
  AttentionAlgorithm algo = define_attention(ir, g, fresh_name_prefix());
  schedule_attention(algo);

  CpuKernelSource src;
  std::string name = c_identifier(ir.name);
  src.entry = "attn_" + name;
  src.header_name = name + ".h";
  src.compile_flags = flags_for(target.isa);
  std::string pipeline = src.entry + "_pipeline";
  std::string prefix = src.entry + "_rt_";
  HalideCpp halide = emit_halide_cpp(algo.out, algo.args, pipeline, halide_target(target), prefix);

  use_every_scalar(halide, pipeline, algo.args);

  WrapperSpec spec{src.entry,     pipeline,   ir.name, g, ir.options.dtype, ir.options.lse,
                   ir.args,       algo.uses_kv_ranges, keys_masked_condition(ir, g)};
  spec.pack_heads = ignores_head_index(ir);
  std::ostringstream s;
  s << "// attnc: CPU kernel '" << ir.name << "' (" << cpu_isa_name(target.isa) << ", "
    << dtype_name(ir.options.dtype) << " I/O), Halide-scheduled. Generated; do not edit.\n"
    << "// Build: c++ -std=c++17 " << join(src.compile_flags) << " -c " << name << ".cpp\n"
    << "// (clang++ is fastest; with g++ add -fno-tree-sra, or the accumulators leave registers.)\n"
    << "// Entry: int " << src.entry << "(const attn_kernel_args*), declared in " << src.header_name
    << ".\n"
    << "#include \"" << src.header_name << "\"\n\n"
    << "#include <algorithm>\n#include <atomic>\n#include <cmath>\n#include <cstdarg>\n#include <cstdio>\n#include <cstdlib>\n"
    << "#include <cstring>\n#include <thread>\n#include <vector>\n"
    << "#if defined(__F16C__)\n#include <immintrin.h>  // f16 to f32, eight at a time\n#endif\n\n"
    << "#if defined(__clang__) && defined(__has_builtin)\n#if __has_builtin(__builtin_elementwise_max)\n"
    << "#define ATTN_ELEMENTWISE_MIN_MAX 1  // vector min/max without a lane loop\n#endif\n#endif\n\n"
    << "// ---- The Halide pipeline (Halide 14 CodeGen_C output) ----\n"
    << halide.code << "\n"
    << "// ---- The Halide runtime functions it calls ----\n"
    << emit_runtime_glue(prefix, halide.runtime_calls) << "\n"
    << self_plan(ir, g, spec.kv_ranges) << "// ---- The attn_kernel_args entry point ----\n"
    << emit_wrapper(spec);
  src.source = s.str();
  src.header = emit_header(ir, src.entry, "ATTN_GENERATED_" + name + "_H");
  return src;
}

CpuKernelSource generate_cpu_backward(const KernelIR& user_ir, const CpuTarget& target) {
  using namespace attn::cpu;
  const KernelIR ir = with_emitted_names(user_ir);
  stabilize_halide_name_counters();
  Geometry g = choose_geometry(ir, target);
  BackwardAlgorithm algo = define_backward(ir, g, fresh_name_prefix());
  schedule_backward(algo);

  CpuKernelSource src;
  std::string name = c_identifier(ir.name);
  src.entry = "attn_" + name + "_backward";
  src.header_name = name + "_backward.h";
  src.compile_flags = flags_for(target.isa);
  std::string pipeline = src.entry + "_pipeline";
  std::string prefix = src.entry + "_rt_";
  HalideCpp halide = emit_halide_cpp(Halide::Pipeline(algo.outputs), algo.args, pipeline, halide_target(target), prefix);
  use_every_scalar(halide, pipeline, algo.args);

  // The mask reads buffers: the caller's kv_ranges narrow each tile's keys, as for the forward.
  const bool kv_ranges = !plan_tiles(ir, PlanTilesOptions{g.tile_q, g.key_block})->index_only;
  WrapperSpec spec{src.entry, pipeline, ir.name, g, ir.options.dtype, false, ir.args, kv_ranges, keys_masked_condition(ir, g)};
  std::ostringstream s;
  s << "// attnc: CPU backward of kernel '" << ir.name << "' (" << cpu_isa_name(target.isa) << ", "
    << dtype_name(ir.options.dtype) << " I/O), Halide-scheduled. Generated; do not edit.\n"
    << "// Build: c++ -std=c++17 " << join(src.compile_flags) << " -c " << name << "_backward.cpp\n"
    << "// Entry: int " << src.entry << "(const attn_backward_args*), declared in " << src.header_name << ".\n"
    << "#include \"" << src.header_name << "\"\n\n"
    << "#include <algorithm>\n#include <atomic>\n#include <cmath>\n#include <cstdarg>\n#include <cstdio>\n#include <cstdlib>\n"
    << "#include <cstring>\n#include <memory>\n#include <new>\n#include <thread>\n#include <vector>\n"
    << "#if defined(__F16C__)\n#include <immintrin.h>  // f16 to f32, eight at a time\n#endif\n\n"
    << "#if defined(__clang__) && defined(__has_builtin)\n#if __has_builtin(__builtin_elementwise_max)\n"
    << "#define ATTN_ELEMENTWISE_MIN_MAX 1  // vector min/max without a lane loop\n#endif\n#endif\n\n"
    << "// ---- The Halide pipeline (Halide 14 CodeGen_C output) ----\n"
    << halide.code << "\n"
    << "// ---- The Halide runtime functions it calls ----\n"
    << emit_runtime_glue(prefix, halide.runtime_calls) << "\n"
    << self_plan(ir, g, spec.kv_ranges) << "// ---- The attn_backward_args entry point ----\n"
    << emit_backward_wrapper(spec, algo.reads, algo.index_slots);
  src.source = s.str();
  std::string guard = "ATTN_GENERATED_" + name + "_BACKWARD_H";
  std::ostringstream h;
  h << "/* attnc: C interface of the CPU backward of kernel '" << ir.name << "'. Generated; do not edit. */\n"
    << "#ifndef " << guard << "\n#define " << guard << "\n\n"
    << cpu_fixed_text("kernel_abi.h") << "\n" << cpu_fixed_text("kernel_backward_abi.h") << "\n"
    << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
    << "/** The backward of kernel '" << ir.name << "' (I/O " << dtype_name(ir.options.dtype)
    << "). Run-time arguments, in order: " << describe_args(ir) << ".\n"
    << " *  Returns 0, or non-zero with a message in args->error. */\n"
    << "int " << src.entry << "(const attn_backward_args* args);\n\n"
    << "#ifdef __cplusplus\n}  /* extern \"C\" */\n#endif\n\n#endif /* " << guard << " */\n";
  src.header = h.str();
  return src;
}

}  // namespace attn
