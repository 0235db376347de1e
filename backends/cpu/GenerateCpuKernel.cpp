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
#include "backends/cpu/HalideTextPatches.h"
#include "backends/cpu/KernelWrapper.h"
#include "backends/cpu/RuntimeGlue.h"
#include "backends/cpu/ScheduleAttention.h"
#include "backends/cpu/SelfPlan.h"
#include "backends/cpu/SourceParts.h"
#include "codegen/PlanTiles.h"
#include "codegen/ScoreGradient.h"
#include "codegen/TilePlan.h"

namespace attn {

namespace {

std::string c_identifier(const std::string& s) {
  std::string out;
  for (char ch : s) out += (isalnum((unsigned char)ch) || ch == '_') ? ch : '_';
  return out;
}

/// The flags of the banner's build line: the vector paths need none of -m (each path's functions
/// carry their ISA), and g++ -O2 alone keeps every path's own instructions.
std::vector<std::string> build_flags() { return {"-O2", "-ffp-contract=fast", "-fno-math-errno"}; }

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

/// A C++ string literal of `s`.
std::string c_string_literal(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

/// The header's declaration of `<entry>_path`, which names the path a process runs.
std::string path_declaration(const std::string& entry) {
  return "/** The vector path this process runs (\"amx\", \"avx512bf16\", \"avx512\", \"avx2\", \"portable\", or \"neon\":\n"
         " *  the portable path on AArch64), chosen at the first call; \"none\" when the CPU runs none that the source carries. */\n"
         "const char* " + entry + "_path(void);\n\n";
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
    << path_declaration(entry) << "#ifdef __cplusplus\n}  /* extern \"C\" */\n#endif\n\n#endif /* " << guard << " */\n";
  return h.str();
}

/// The tile plan's sufficient condition for "the mask is false on this box" as C++ for the
/// wrapper's key-block test; empty when there is none it can print (the mask reads buffers: their
/// run-time plan gives the window instead).
std::string keys_masked_condition(const KernelIR& ir, const TilePlan& plan) {
  if (!plan.index_only || !plan.bounds_empty.defined()) return "";
  Halide::Expr e = Halide::Internal::simplify(plan.bounds_empty);
  if (Halide::Internal::is_const_zero(e)) return "";
  static const std::set<std::string> vars = {"q_min", "q_max", "kv_min", "kv_max", "b_min",
                                                 "b_max", "h_min", "h_max", "q_len", "kv_len"};
  if (!printable_without_loads(e, vars)) return "";
  return cpu::CpuExprPrinter(ir).print(e);
}

/// The planner that a kernel whose mask reads buffers (`kv_ranges`) runs when the caller passes no
/// key ranges, with its plan `plan` (in the kernel's tiles); empty for other kernels.
std::string self_plan(const KernelIR& ir, const TilePlan& plan, bool kv_ranges) {
  if (!kv_ranges) return "";
  return cpu::emit_self_plan(tile_plan_program(plan), ir.args) + "\n";
}

/// The tile plan of `ir` in `g`'s tiles: made once per kernel and path, read by the algorithm (each
/// tile's key window), the wrapper (its key-block test) and the self-planner.
std::shared_ptr<const TilePlan> plan_for(const KernelIR& ir, const cpu::Geometry& g) {
  return plan_tiles(ir, PlanTilesOptions{g.tile_q, g.key_block});
}

/// One vector path of a generated source, as Halide's C++ and the wrapper give it.
struct PathCode {
  CpuIsa isa;
  /// Halide's includes, helpers, runtime header and attribute macros: the same for every path.
  std::string shared;
  /// Halide's helper functions and templates without the includes, once more in the path's
  /// namespace: the path's vectors instantiate them (reinterpret<float16>) inside its target
  /// region; instantiated outside it, they would pass AVX vectors without AVX (another ABI, a
  /// -Wpsabi error). The Halide code calls the scalar min/max as ::halide_cpp_min: the shared copy.
  std::string helpers;
  std::string body;         ///< the vector classes and the pipeline (part 1 of the source)
  std::string declaration;  ///< the pipeline's C declaration, for part 2
  /// The element types and conversions (emit_element_code): part 2's, and a matrix path's part 1's too
  std::string elements;
  std::string matrix;  ///< a matrix path's products and extern stages: part 1
  std::string entry;   ///< the path's entry point `run`: part 2
  std::set<std::string> runtime_calls;
};

/// One path's code from Halide's C++, split where its own code begins (split_halide_cpp).
PathCode path_code(CpuIsa isa, const cpu::HalideCpp& halide, const std::string& pipeline) {
  cpu::HalideCppParts parts = cpu::split_halide_cpp(halide.code);
  return {isa, std::move(parts.shared), std::move(parts.helpers), std::move(parts.body),
          cpu::pipeline_declaration(halide.code, pipeline), "", "", "", halide.runtime_calls};
}

/// The namespace of a path's code, e.g. attn_causal_avx2 (its pipeline is <namespace>_pipeline).
std::string path_namespace(const std::string& entry, CpuIsa isa) { return entry + "_" + cpu_isa_name(isa); }

/// The ISA extensions a path's functions are compiled for ("" for none: the portable path).
std::string target_features(CpuIsa isa) {
  switch (isa) {
    case CpuIsa::AMX: return "avx2,fma,f16c,avx512f,avx512vl,avx512dq,avx512bw,avx512bf16,amx-tile,amx-bf16";
    case CpuIsa::AVX512BF16: return "avx2,fma,f16c,avx512f,avx512vl,avx512dq,avx512bw,avx512bf16";
    case CpuIsa::AVX512: return "avx2,fma,f16c,avx512f,avx512vl,avx512dq,avx512bw";
    case CpuIsa::AVX2: return "avx2,fma,f16c";
    case CpuIsa::Portable: return "";
  }
  return "";
}

/// `text` with every occurrence of `placeholder` replaced by `value`; throws when it holds none (a
/// fixed file that no longer reads as this file expects).
std::string fill_all(std::string text, const std::string& placeholder, const std::string& value) {
  size_t at = text.find(placeholder);
  if (at == std::string::npos)
    throw std::logic_error("internal error: a fixed file of backends/cpu/fixed/ lacks " + placeholder);
  for (; at != std::string::npos; at = text.find(placeholder, at + value.size())) text.replace(at, placeholder.size(), value);
  return text;
}

/// `#pragma`s that compile the functions between them for `isa` with g++ and clang++ alike, with
/// no -m flags: clang's attribute applies to every function, template and lambda declared inside
/// (fixed/PathTargetBegin.h, fixed/PathTargetEnd.h). `f16c`: the path's staging converts f16 with
/// F16C (ATTN_F16C, fixed/F32Staging.h).
std::string begin_target(CpuIsa isa, bool f16c) {
  return fill_all(fill_all(cpu::cpu_fixed_text("PathTargetBegin.h"), "ATTN_TARGET_FEATURES", target_features(isa)),
                  "// ATTN_F16C_DEFINE\n", f16c ? "#define ATTN_F16C 1  // the path converts f16 with F16C\n" : "");
}

std::string end_target() { return cpu::cpu_fixed_text("PathTargetEnd.h"); }

/// The preprocessor condition of the architectures a path builds on ("" for all).
std::string path_architecture(CpuIsa isa) { return isa == CpuIsa::Portable ? "" : "defined(__x86_64__)"; }

/// The matrix paths' products (fixed/MatrixAmx.h or fixed/MatrixDpbf16.h, and the decoding ones of
/// fixed/MatrixDecode.h) and extern stages
/// (fixed/MatrixExterns.h, named after `pipeline`); "" for the other paths.
std::string matrix_code(CpuIsa isa, const std::string& pipeline) {
  if (!is_matrix_isa(isa)) return "";
  return "\n// ---- The path's bf16 products and the pipeline's extern stages ----\n" +
         cpu::cpu_fixed_text(isa == CpuIsa::AMX ? "MatrixAmx.h" : "MatrixDpbf16.h") + "\n" +
         cpu::cpu_fixed_text("MatrixDecode.h") + "\n" +
         fill_all(cpu::cpu_fixed_text("MatrixExterns.h"), "ATTN_MATRIX_EXTERNS", pipeline);
}

std::string path_names(const std::vector<PathCode>& paths) {
  std::string s;
  for (const PathCode& p : paths) s += (s.empty() ? "" : ", ") + std::string(cpu_isa_name(p.isa));
  return s;
}

/// Whether the x86 paths of a kernel of I/O `dtype` convert f16 with F16C (fixed/F32Staging.h).
bool uses_f16c(DType dtype) { return dtype == DType::F16; }

/// Halide's shared prologue, the runtime glue, `planner` (self_plan's, shared by the paths), each
/// path in its namespace (and target region), then the exported entry that runs the widest path
/// the CPU runs: the source's text after its includes. `dtype`: the kernel's I/O type.
std::string assemble_paths(const std::vector<PathCode>& paths, const std::string& runtime_prefix,
                           const std::string& planner, const std::string& args_type, const std::string& entry,
                           const std::string& kernel, DType dtype) {
  std::set<std::string> calls;
  for (const PathCode& p : paths) calls.insert(p.runtime_calls.begin(), p.runtime_calls.end());
  const std::string shared = cpu::rename_runtime_functions(paths.front().shared, calls, runtime_prefix);
  for (const PathCode& p : paths)
    if (cpu::rename_runtime_functions(p.shared, calls, runtime_prefix) != shared || p.helpers != paths.front().helpers)
      throw std::logic_error("internal error: Halide's runtime header or helpers differ between the vector paths");
  std::ostringstream s;
  s << "// ---- Halide's includes and runtime header (Halide 14 CodeGen_C output), shared by the paths ----\n"
    << shared << "\n// ---- The Halide runtime functions the paths call ----\n"
    << cpu::emit_runtime_glue(runtime_prefix, calls) << "\n";
  if (!planner.empty()) s << cpu::kEntriesPart << planner << cpu::kEndPart;
  for (const PathCode& p : paths) {
    const std::string ns = path_namespace(entry, p.isa), arch = path_architecture(p.isa);
    s << "// ---- Vector path '" << cpu_isa_name(p.isa) << "': its Halide pipeline and entry point ----\n";
    if (!arch.empty()) s << "#if " << arch << "\n";
    if (!target_features(p.isa).empty()) s << begin_target(p.isa, uses_f16c(dtype));
    // A matrix path's element code serves its extern stages (part 1) and its entry point (part 2).
    const bool shared_elements = !p.matrix.empty();
    s << "namespace " << ns << " {\n\n";
    if (shared_elements) s << "// ---- The path's element types and conversions ----\n" << p.elements;
    s << cpu::kPipelinesPart << "// ---- Halide's helpers ----\n" << p.helpers
      << "\n// ---- The Halide pipeline ----\n" << p.body << p.matrix << cpu::kEndPart << cpu::kDeclarationsPart
      << p.declaration << cpu::kEndPart << cpu::kEntriesPart;
    if (!shared_elements) s << "// ---- The path's element types and conversions ----\n" << p.elements;
    s << p.entry << cpu::kEndPart << "\n}  // namespace " << ns << "\n";
    if (!target_features(p.isa).empty()) s << end_target();
    if (!arch.empty()) s << "#endif  // " << arch << "\n";
    s << "\n";
  }
  // The exported entry (fixed/PathChoice.h) over a table of the paths, widest first.
  std::ostringstream table;
  for (const PathCode& p : paths) {
    const std::string arch = path_architecture(p.isa);
    if (!arch.empty()) table << "#if " << arch << "\n";
    table << "      {\"" << cpu_isa_name(p.isa) << "\", " << path_namespace(entry, p.isa) << "::run},\n";
    if (!arch.empty()) table << "#endif\n";
  }
  std::string choice = fill_all(cpu::cpu_fixed_text("PathChoice.h"), "ATTN_PATH_TABLE\n", table.str());
  choice = fill_all(choice, "ATTN_ARGS", args_type);
  choice = fill_all(choice, "ATTN_ENTRY", entry);
  choice = fill_all(choice, "ATTN_PATH_FN", entry + "_path");
  choice = fill_all(choice, "ATTN_KERNEL_NAME", c_string_literal(kernel));
  s << cpu::kEntriesPart << "// ---- The exported entry point: the widest path this CPU runs, chosen at the first call ----\n"
    << cpu::cpu_fixed_text("PathDispatch.h") << "\n" << choice << cpu::kEndPart;
  return s.str();
}

/// The includes of a generated source: the header first, then fixed/SourceIncludes.h (the
/// backward's with the two headers its entry needs besides), with <immintrin.h> (0.2 s of a cold
/// compile) only where a path uses its intrinsics: the matrix paths' AMX tiles and vdpbf16ps.
std::string includes(const std::string& header_name, bool backward, const std::vector<PathCode>& paths) {
  bool matrix = false;
  for (const PathCode& p : paths) matrix |= is_matrix_isa(p.isa);
  const std::string intrinsics = matrix ? "#include <immintrin.h>  // AMX tiles, vdpbf16ps\n" : "";
  std::string text = fill_all(cpu::cpu_fixed_text("SourceIncludes.h"), "// ATTN_BACKWARD_INCLUDES\n",
                              backward ? "#include <memory>\n#include <new>\n" : "");
  return "#include \"" + header_name + "\"\n\n" + fill_all(text, "// ATTN_INTRINSICS_INCLUDE\n", intrinsics) +
         cpu::kWholeSourceDefault;
}

/// The banner's lines on the paths and how to build the source.
std::string build_banner(const std::vector<PathCode>& paths, const std::string& file) {
  return "// Vector paths: " + path_names(paths) +
         "; the first call takes the widest this CPU runs (ATTNC_CPU_ISA=<path> forces a narrower one).\n"
         "// Build: c++ -std=c++17 " + join(build_flags()) + " -c " + file +
         "\n// (no -m flags: each path's functions carry their own ISA. clang++ is fastest; with g++ add -fno-tree-sra,\n"
         "// or the accumulators leave registers.)\n" + cpu::source_parts_banner();
}

}  // namespace

CpuKernelSource generate_cpu_kernel(const KernelIR& ir, const CpuTarget& target) {
  return generate_cpu_kernel(ir, std::vector<CpuTarget>{target});
}

namespace {

/// The f32 buffer elements the sink reads, with its partial derivatives there, as wrapper C++.
std::vector<cpu::WrapperSpec::SinkRead> sink_reads(const KernelIR& ir) {
  std::vector<cpu::WrapperSpec::SinkRead> reads;
  for (const BufferGradient& g : differentiate_sink(ir).reads) {
    cpu::WrapperSpec::SinkRead r;
    for (const KernelArg& a : ir.args) {
      if (a.name == g.buffer) break;
      r.buffer += a.kind == KernelArg::Kind::Buffer;
    }
    r.partial = cpu::CpuRowExprPrinter(ir).print(g.partial);
    for (const Halide::Expr& i : g.index) r.index.push_back(cpu::CpuRowExprPrinter(ir).print(i));
    reads.push_back(std::move(r));
  }
  return reads;
}

}  // namespace

CpuKernelSource generate_cpu_backward(const KernelIR& ir, const CpuTarget& target) {
  return generate_cpu_backward(ir, std::vector<CpuTarget>{target});
}

CpuKernelSource generate_cpu_kernel(const KernelIR& user_ir, const std::vector<CpuTarget>& targets) {
  using namespace attn::cpu;
  if (targets.empty()) throw std::logic_error("internal error: a CPU kernel source with no vector path");
  // Argument names meet the C preprocessor in the generated source.
  const KernelIR ir = with_emitted_names(user_ir);
  const StableHalideNames names;  // held until the source is made
  CpuKernelSource src;
  std::string name = c_identifier(ir.name);
  src.entry = "attn_" + name;
  src.header_name = name + ".h";
  src.compile_flags = build_flags();
  const std::string prefix = src.entry + "_rt_";
  std::vector<PathCode> paths;
  std::string planner;
  for (const CpuTarget& target : effective_cpu_paths(targets, ir.options.dtype, false)) {
    Geometry g = choose_geometry(ir, target);
    const std::shared_ptr<const TilePlan> plan = plan_for(ir, g);
    const std::string pipeline = path_namespace(src.entry, target.isa) + "_pipeline";
    AttentionAlgorithm algo = define_attention(ir, g, *plan, fresh_name_prefix(), pipeline);
    schedule_attention(algo);
    HalideCpp halide = emit_halide_cpp(algo.out, algo.args, pipeline, halide_target(target), prefix);
    halide.code = use_every_scalar(halide.code, pipeline, algo.args);
    WrapperSpec spec{"run",   pipeline, ir.name, g, ir.options.dtype, ir.options.lse, ir.args, algo.uses_kv_ranges,
                     keys_masked_condition(ir, *plan)};
    spec.pack_heads = ignores_head_index(ir);
    spec.max_required = ir.options.return_max;
    if (ir.sink.defined()) spec.sink = CpuRowExprPrinter(ir).print(ir.sink);
    if (paths.empty()) planner = self_plan(ir, *plan, spec.kv_ranges);  // one plan serves every path
    PathCode path = path_code(target.isa, halide, pipeline);
    path.elements = emit_element_code(ir.options.dtype, is_matrix_isa(target.isa));
    // After the pipeline, which declares the extern stages it calls.
    path.matrix = matrix_code(target.isa, pipeline);
    path.entry = "\n// ---- The path's attn_kernel_args entry point ----\n" + emit_wrapper(spec);
    paths.push_back(std::move(path));
  }
  std::ostringstream s;
  s << "// attnc: CPU kernel '" << ir.name << "' (" << dtype_name(ir.options.dtype)
    << " I/O), Halide-scheduled. Generated; do not edit.\n"
    << build_banner(paths, name + ".cpp") << "// Entry: int " << src.entry
    << "(const attn_kernel_args*), declared in " << src.header_name << ".\n"
    << includes(src.header_name, false, paths)
    << assemble_paths(paths, prefix, planner, "attn_kernel_args", src.entry, ir.name, ir.options.dtype);
  src.source = s.str();
  src.header = emit_header(ir, src.entry, "ATTN_GENERATED_" + name + "_H");
  return src;
}

CpuKernelSource generate_cpu_backward(const KernelIR& user_ir, const std::vector<CpuTarget>& targets) {
  using namespace attn::cpu;
  if (targets.empty()) throw std::logic_error("internal error: a CPU kernel source with no vector path");
  require_backward_dtype(user_ir);  // an FP8 kernel has none
  const KernelIR ir = with_emitted_names(user_ir);
  const StableHalideNames names;  // held until the source is made
  CpuKernelSource src;
  std::string name = c_identifier(ir.name);
  src.entry = "attn_" + name + "_backward";
  src.header_name = name + "_backward.h";
  src.compile_flags = build_flags();
  const std::string prefix = src.entry + "_rt_";
  std::vector<PathCode> paths;
  std::string planner;
  for (const CpuTarget& target : effective_cpu_paths(targets, ir.options.dtype, true)) {
    Geometry g = choose_backward_geometry(ir, target);
    BackwardAlgorithm algo = define_backward(ir, g, fresh_name_prefix());
    schedule_backward(algo);
    const std::string pipeline = path_namespace(src.entry, target.isa) + "_pipeline";
    HalideCpp halide =
        emit_halide_cpp(Halide::Pipeline(algo.outputs), algo.args, pipeline, halide_target(target), prefix);
    halide.code = use_every_scalar(halide.code, pipeline, algo.args);
    // The mask reads buffers: the caller's kv_ranges narrow each tile's keys, as for the forward.
    const std::shared_ptr<const TilePlan> plan = plan_for(ir, g);
    WrapperSpec spec{"run", pipeline, ir.name, g, ir.options.dtype, false, ir.args, !plan->index_only,
                     keys_masked_condition(ir, *plan)};
    spec.sink_reads = sink_reads(ir);
    if (!spec.sink_reads.empty()) spec.sink = CpuRowExprPrinter(ir).print(ir.sink);
    if (paths.empty()) planner = self_plan(ir, *plan, spec.kv_ranges);  // one plan serves every path
    PathCode path = path_code(target.isa, halide, pipeline);
    path.elements = emit_element_code(ir.options.dtype, false);
    path.entry = "\n// ---- The path's attn_backward_args entry point ----\n" +
                 emit_backward_wrapper(spec, algo.reads, algo.index_slots);
    paths.push_back(std::move(path));
  }
  std::ostringstream s;
  s << "// attnc: CPU backward of kernel '" << ir.name << "' (" << dtype_name(ir.options.dtype)
    << " I/O), Halide-scheduled. Generated; do not edit.\n"
    << build_banner(paths, name + "_backward.cpp") << "// Entry: int " << src.entry
    << "(const attn_backward_args*), declared in " << src.header_name << ".\n"
    << includes(src.header_name, true, paths)
    << assemble_paths(paths, prefix, planner, "attn_backward_args", src.entry, ir.name, ir.options.dtype);
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
    << path_declaration(src.entry) << "#ifdef __cplusplus\n}  /* extern \"C\" */\n#endif\n\n#endif /* " << guard
    << " */\n";
  src.header = h.str();
  return src;
}

}  // namespace attn
