// CudaPrinter: the mask, score and tile conditions printed from the IR as device functions,
// followed by the fixed device library and the forward kernel chosen by the tile table.
#include "backends/cuda/CudaPrinter.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "attn/cuda_abi.h"
#include "attn/cuda_backward_abi.h"
#include "backends/clike/CExprPrinter.h"
#include "backends/cuda/CudaDeviceText.h"
#include "backends/cuda/CudaWgmma.h"
#include "backends/io/KernelIO.h"
#include "codegen/KernelIR.h"
#include "codegen/Lower.h"
#include "codegen/PlanTiles.h"
#include "codegen/ScoreGradient.h"
#include "codegen/TilePlan.h"
#include "runtime/TilePlanText.h"

namespace attn {

namespace HI = Halide::Internal;

namespace {

/// CUDA spellings of the C-family hooks.
class CudaExprPrinter : public CExprPrinter {
 public:
  using CExprPrinter::CExprPrinter;

 protected:
  std::string special_float(double v) override {
    if (v != v) return "attn_dev::nan()";
    return v > 0 ? "attn_dev::inf()" : "(-attn_dev::inf())";
  }
  std::string math_function(const std::string& name) override {
    if (name == "round") return "rintf";  // the IR rounds half to even
    return name + "f";
  }
  std::string int_div(const std::string& a, const std::string& b) override {
    return "attn_dev::div_i32(" + a + ", " + b + ")";
  }
  std::string int_mod(const std::string& a, const std::string& b) override {
    return "attn_dev::mod_i32(" + a + ", " + b + ")";
  }
  std::string float_mod(const std::string& a, const std::string& b) override {
    return "attn_dev::mod_f32(" + a + ", " + b + ")";
  }
  std::string load(const KernelArg& arg, int buffer, const std::vector<std::string>& index) override {
    std::string s = "attn_dev::load" + std::to_string(index.size()) + "<" +
                    type_name(halide_elem_type(arg.elem)) + ">(p, " + std::to_string(buffer) + " /* " +
                    arg.name + " */";
    for (const std::string& i : index) s += ", " + i;
    return s + ")";
  }
  std::string scalar(const KernelArg& arg, int position) override {
    return typed_scalar(arg, "p.scalars[" + std::to_string(position) + "]");
  }
  std::string extent(const KernelArg& arg, int buffer, int dim) override {
    return "((int)p.buffers[" + std::to_string(buffer) + "].shape[" + std::to_string(dim) + "] /* " +
           arg.name + " */)";
  }
  // The call's lengths are the launch's (every device function takes the parameters `p`).
  std::string variable(const std::string& name) override {
    if (name == "q_len" || name == "kv_len") return "p." + name;
    return name;
  }
};

/// Variables a printed tile condition may use besides scalar arguments.
const std::set<std::string> kTileVars = {"b", "h", "q_lo", "q_hi", "kv_lo", "kv_hi", "q_len", "kv_len"};

/// True when `e` reads no buffer and names only tile variables and scalar arguments.
bool printable_tile_condition(const Halide::Expr& e, const std::set<std::string>& allowed = kTileVars) {
  return printable_without_loads(e, allowed);
}

/// Sufficient conditions, over one (query tile, key tile), that the mask is false everywhere
/// (`empty`) or true everywhere (`full`), with q in [q_lo, q_hi] and kv in [kv_lo, kv_hi] of head h
/// of batch b. They are the tile plan's own (codegen/PlanTiles: TilePlan::bounds_empty and
/// bounds_full; index_bounds_empty where bounds_empty reads buffers) with the device functions'
/// names put in: the planner is the one derivation of a tile's class, shared with the CPU and
/// SPIR-V backends. What cannot be printed (conditions on buffer contents, which the run-time plan
/// decides) is `false`: the tile is then partial.
struct TileConditions {
  Halide::Expr empty, full;
};

TileConditions tile_conditions(const TilePlan& plan) {
  auto var = [](const char* n) { return HI::Variable::make(Halide::Int(32), n); };
  std::map<std::string, Halide::Expr> names = {
      {"q_min", var("q_lo")}, {"q_max", var("q_hi")}, {"kv_min", var("kv_lo")}, {"kv_max", var("kv_hi")},
      {"b_min", var("b")},    {"b_max", var("b")},    {"h_min", var("h")},      {"h_max", var("h")}};
  auto device_form = [&](const Halide::Expr& e) {
    const Halide::Expr d = HI::simplify(HI::substitute(names, e));
    return printable_tile_condition(d) ? d : HI::const_false();
  };
  Halide::Expr empty = device_form(plan.bounds_empty);
  if (HI::is_const_zero(empty)) empty = device_form(plan.index_bounds_empty);  // e.g. `&& causal`
  return {empty, device_form(plan.bounds_full)};
}

bool is_const_true(const Halide::Expr& e) { return HI::is_const_one(e); }

/// The tile plan's closed-form key-tile runs of query tile `qt` as a device function; one run
/// over every tile when the plan has none that can be printed.
std::string key_ranges_function(const KernelIR& ir, const TilePlan& plan, std::string* plan_text = nullptr) {
  CudaExprPrinter pr(ir);
  static const std::set<std::string> vars = {"qt", "kv_tiles", "b", "h", "q_len", "kv_len"};
  std::vector<KeyTileRange> ranges;
  for (const KeyTileRange& r : plan.ranges) {
    if (r.kind == TileKind::Empty) continue;
    if (!printable_tile_condition(r.begin, vars) || !printable_tile_condition(r.end, vars)) {
      ranges.clear();
      break;
    }
    ranges.push_back(r);
  }
  std::ostringstream s;
  const bool planned = !ranges.empty();
  s << "/// Runs of key tiles that query tile qt (" << plan.block_q << " rows) visits, " << plan.block_kv
    << " keys each:\n";
  s << "/// [begin[i], end[i]), all allowed when full[i]. "
    << (planned ? "Closed forms from the tile plan (codegen/PlanTiles)." : "Every tile (no closed form).")
    << "\n";
  s << "#define ATTN_KEY_RANGES " << (planned ? ranges.size() : 1) << "\n";
  s << "__device__ __forceinline__ void attn_key_tile_ranges(int b, int h, int qt, int kv_tiles, const "
       "attn_cuda_params& p,\n"
    << "                                                     int* begin, int* end, bool* full) {\n";
  if (!planned) s << "  begin[0] = 0;\n  end[0] = kv_tiles;\n  full[0] = false;\n";
  for (size_t i = 0; i < ranges.size(); ++i) {
    s << "  begin[" << i << "] = " << pr.print(ranges[i].begin) << ";\n";
    s << "  end[" << i << "] = " << pr.print(ranges[i].end) << ";\n";
    s << "  full[" << i << "] = " << (ranges[i].kind == TileKind::Full ? "true" : "false") << ";\n";
  }
  s << "}\n\n";
  if (!plan.index_only) {
    // Masks that read buffers: the launcher classifies tiles from the buffers (runtime/
    // TilePlanner.h) and passes the runs in p.tile_runs; the text below is its program.
    const std::string text = write_tile_plan_program(tile_plan_program(plan));
    if (plan_text) *plan_text = text;
    s << "/* attn-tile-plan: the run-time planner's program for this mask (read by the launcher)\n"
      << text << "attn-tile-plan-end */\n\n";
  }
  return s.str();
}

/// The mask, the score, the tile conditions and the key-tile runs, all from one tile plan.
std::string device_functions(const KernelIR& ir, const TilePlan& plan, std::string* plan_text) {
  CudaExprPrinter pr(ir);
  const TileConditions tiles = tile_conditions(plan);
  std::ostringstream s;
  const bool has_mask = !is_const_true(ir.mask);
  const bool has_score = !ir.score.same_as(score_var());
  s << "// ---- The kernel's mask and score, printed from the IR ----------------------------------\n";
  s << "#define ATTN_HAS_MASK " << (has_mask ? 1 : 0) << "\n";
  s << "#define ATTN_HAS_SCORE " << (has_score ? 1 : 0) << "\n\n";
  s << "/// True when query q may attend to key kv.\n";
  s << "__device__ __forceinline__ bool attn_mask(int b, int h, int q, int kv, const attn_cuda_params& p) "
       "{\n";
  s << "  return " << pr.print(ir.mask) << ";\n}\n\n";
  s << "/// The rewritten score (natural units) of an allowed key.\n";
  s << "__device__ __forceinline__ float attn_score(float score, int b, int h, int q, int kv, const "
       "attn_cuda_params& p) {\n";
  s << "  return " << pr.print(ir.score) << ";\n}\n\n";
  s << "#define ATTN_SINK " << (ir.sink.defined() ? 1 : 0) << "\n";
  if (ir.sink.defined()) {
    s << "/// The sink logit of a row (natural units; the kernel option `sink`): one more key, never\n"
         "/// masked, whose value is 0.\n";
    s << "__device__ __forceinline__ float attn_sink(int b, int h, int q, const attn_cuda_params& p) {\n";
    s << "  return " << pr.print(ir.sink) << ";\n}\n";
  }
  s << "\n";
  s << "/// Sufficient conditions (interval analysis) that every (q, kv) of a tile is masked out /\n";
  s << "/// allowed; q in [q_lo, q_hi], kv in [kv_lo, kv_hi], all within the lengths.\n";
  s << "__device__ __forceinline__ bool attn_tile_empty(int b, int h, int q_lo, int q_hi, int kv_lo, int "
       "kv_hi,\n"
    << "                                                const attn_cuda_params& p) {\n";
  s << "  return " << pr.print(tiles.empty) << ";\n}\n";
  s << "__device__ __forceinline__ bool attn_tile_full(int b, int h, int q_lo, int q_hi, int kv_lo, int "
       "kv_hi,\n"
    << "                                               const attn_cuda_params& p) {\n";
  s << "  return " << pr.print(tiles.full) << ";\n}\n\n";
  s << key_ranges_function(ir, plan, plan_text);
  return s.str();
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::string print_cuda_device_functions(const KernelIR& ir, std::string* tile_plan, int block_m,
                                        int block_n) {
  if (tile_plan) tile_plan->clear();
  return device_functions(ir, *plan_tiles(ir, {block_m, block_n}), tile_plan);
}

namespace {

/// Per read site of `reads`, `<prefix>_partial` (the partial derivative there) and
/// `<prefix>_offset` (the element's row-major position in its buffer, -1 when out of range) as
/// switches over `int site`; `partial_params` and `offset_params` are their parameters after it.
/// `__device__ __forceinline__ RET NAME(PARAMS) {`, its last parameter (the parameter block) on a
/// line of its own, aligned, when the line would pass 100 columns.
std::string device_signature(const std::string& ret, const std::string& name, const std::string& params) {
  const std::string head = "__device__ __forceinline__ " + ret + " " + name + "(";
  const std::string last = ", const attn_cuda_params& p";
  if (head.size() + params.size() + 3 <= 100 || params.size() < last.size() ||
      params.compare(params.size() - last.size(), last.size(), last) != 0)
    return head + params + ") {\n";
  return head + params.substr(0, params.size() - last.size()) + ",\n" + std::string(head.size(), ' ') +
         "const attn_cuda_params& p) {\n";
}

std::string site_functions(const KernelIR& ir, const std::vector<BufferGradient>& reads,
                           const std::string& prefix, const std::string& partial_params,
                           const std::string& offset_params) {
  CudaExprPrinter pr(ir);
  std::map<std::string, int> position;
  for (const KernelArg& a : ir.args)
    if (a.kind == KernelArg::Kind::Buffer) position.emplace(a.name, static_cast<int>(position.size()));
  std::ostringstream s;
  s << device_signature("float", prefix + "_partial", "int site, " + partial_params);
  s << "  switch (site) {\n";
  for (size_t i = 0; i < reads.size(); ++i)
    s << "    case " << i << ": return " << pr.print(reads[i].partial) << ";\n";
  s << "    default: return 0.f;\n  }\n}\n";
  s << "/// The row-major position of the element read site `site` reads in its buffer (-1: out of range).\n";
  s << device_signature("long long", prefix + "_offset", "int site, " + offset_params);
  s << "  switch (site) {\n";
  for (size_t i = 0; i < reads.size(); ++i) {
    const BufferGradient& r = reads[i];
    s << "    case " << i << ": {\n      const long long idx[" << r.index.size() << "] = {";
    for (size_t d = 0; d < r.index.size(); ++d)
      s << (d ? ", " : "") << "(long long)(" << pr.print(r.index[d]) << ")";
    s << "};\n      return attn_dev::flat_offset<" << r.index.size() << ">(p, " << position.at(r.buffer)
      << " /* " << r.buffer << " */, idx);\n    }\n";
  }
  s << "    default: return -1;\n  }\n}\n";
  return s.str();
}

}  // namespace

CudaGradientFunctions print_cuda_gradient_functions(const KernelIR& ir) {
  const ScoreGradient g = differentiate_score(ir), sink = differentiate_sink(ir);
  if (g.reads.size() + sink.reads.size() > ATTN_CUDA_MAX_SITES)
    throw KernelLimitError(ir, "the CUDA backward takes at most " + std::to_string(ATTN_CUDA_MAX_SITES) +
                                   " read sites of f32 buffers in the score and the sink (this one has " +
                                   std::to_string(g.reads.size() + sink.reads.size()) + ")");
  CudaExprPrinter pr(ir);
  CudaGradientFunctions out;
  std::ostringstream s;
  s << "// ---- The score's and the sink's derivatives, printed from codegen/ScoreGradient's IR --------\n";
  s << "/// d score' / d score at an allowed key.\n";
  s << "__device__ __forceinline__ float attn_score_grad(float score, int b, int h, int q, int kv,\n"
    << "                                                 const attn_cuda_params& p) {\n";
  s << "  return " << pr.print(g.dscore) << ";\n}\n\n";
  s << "/// Read sites of f32 buffers: sites [0, ATTN_BWD_SITES) of the score, then ATTN_BWD_SINK_SITES of\n"
       "/// the sink; site s reads buffer ATTN_BWD_SITE_BUFFERS[s].\n";
  s << "#define ATTN_BWD_SITES " << g.reads.size() << "\n";
  s << "#define ATTN_BWD_SINK_SITES " << sink.reads.size() << "\n";
  std::string names;
  for (const std::vector<BufferGradient>* reads : {&g.reads, &sink.reads})
    for (const BufferGradient& r : *reads) {
      names += (names.empty() ? "" : ",") + r.buffer;
      out.site_buffers.push_back(r.buffer);
    }
  out.score_sites = g.reads.size();
  s << "#define ATTN_BWD_SITE_BUFFERS \"" << names << "\"\n";
  s << "/// d score' / d buffer[index] at the score's read site `site`.\n";
  s << site_functions(ir, g.reads, "attn_site",
                      "float score, int b, int h, int q, int kv, const attn_cuda_params& p",
                      "int b, int h, int q, int kv, const attn_cuda_params& p");
  if (!sink.reads.empty()) {
    s << "/// d sink / d buffer[index] at the sink's read site `site` (site ATTN_BWD_SITES + `site` of the "
         "list).\n";
    s << site_functions(ir, sink.reads, "attn_sink_site", "int b, int h, int q, const attn_cuda_params& p",
                        "int b, int h, int q, const attn_cuda_params& p");
  }
  s << "\n";
  out.text = s.str();
  return out;
}

CudaKernelSource print_cuda_kernel(const KernelIR& ir, const CudaPrintOptions& o) {
  int buffers = 0, scalars = 0;
  for (const KernelArg& a : ir.args) {
    (a.kind == KernelArg::Kind::Buffer ? buffers : scalars)++;
    if (a.kind == KernelArg::Kind::Buffer && a.dims.size() > 4)
      throw KernelLimitError(ir,
                             "CUDA kernels take tensor arguments of at most 4 dimensions ('" + a.name + "')");
  }
  if (buffers > 8 || scalars > 8)
    throw KernelLimitError(ir, "CUDA kernels take at most 8 tensor and 8 scalar arguments");
  const KernelOptions& opt = ir.options;
  const int d = opt.head_dim ? opt.head_dim : o.head_dim ? o.head_dim : kCudaDefaultHeadDim;
  const int dv = opt.value_dim ? opt.value_dim : o.value_dim ? o.value_dim : d;
  if (d > 256 || dv > 256)
    throw KernelLimitError(
        ir, "CUDA kernels support head dimensions up to 256 (got " + std::to_string(std::max(d, dv)) + ")");
  CudaKernelSource out;
  // FP8 inputs are converted to bf16 as they are loaded: the kernel computes as a bf16 one.
  const bool fp8 = is_fp8(opt.dtype);
  const DType compute = fp8 ? DType::BF16 : opt.dtype;
  std::optional<CudaTileConfig> wgmma =
      o.prefer_wgmma ? cuda_wgmma_tiles(o.sm, compute, d, dv) : std::nullopt;
  out.tiles = o.tiles ? *o.tiles : wgmma ? *wgmma : choose_cuda_tiles(o.sm, compute, d, dv);
  const CudaTileConfig& t = out.tiles;
  if (t.tensor_cores() && !cuda_mma_supported(compute, d, dv))
    throw KernelLimitError(ir, std::string("the tensor-core CUDA kernel does not support dtype ") +
                                   dtype_name(opt.dtype) + " with head dimensions " + std::to_string(d) +
                                   "/" + std::to_string(dv));
  if (t.kind == CudaKernelKind::Wgmma && o.sm != 90)
    throw std::invalid_argument("tile shape '" + describe(t) + "' is Hopper's wgmma kernel (sm_90a); sm_" +
                                std::to_string(o.sm) + " does not have it");
  if (cuda_shared_bytes(t, compute, d, dv) > cuda_max_shared_bytes(o.sm))
    throw KernelLimitError(ir, "tile shape '" + describe(t) + "' needs " +
                                   std::to_string(cuda_shared_bytes(t, compute, d, dv)) +
                                   " bytes of shared memory; sm_" + std::to_string(o.sm) + " has " +
                                   std::to_string(cuda_max_shared_bytes(o.sm)));
  const std::string entry = "attn_fwd_" + ir.name;
  const double scale = opt.scale ? *opt.scale : 1.0 / std::sqrt(static_cast<double>(d));
  out.launch.entry = entry;
  out.launch.threads = t.warps * 32;
  out.launch.block_m = t.block_m;
  out.launch.block_n = t.block_n;
  out.launch.smem_bytes = cuda_shared_bytes(t, compute, d, dv);
  out.launch.head_dim = d;
  out.launch.value_dim = dv;
  out.launch.dtype = io_scalar_type(opt.dtype);
  out.launch.scale = scale;
  out.launch.needs_16b_rows = t.tensor_cores();
  out.launch.pack_heads = ignores_head_index(ir);
  for (const KernelArg& a : ir.args)
    if (a.kind == KernelArg::Kind::Scalar) out.launch.scalar_names.push_back(a.name);
  char scale_text[32];
  std::snprintf(scale_text, sizeof scale_text, "%.17g", scale);

  std::ostringstream banner;
  banner << "// Generated by attnc from " << (o.source_name.empty() ? "<input>" : o.source_name)
         << ", kernel '" << ir.name << "'.\n// Kernel hash "
         << (o.source_hash.empty() ? kernel_hash(ir) : o.source_hash) << ". Do not edit.\n"
         << "// dtype " << dtype_name(opt.dtype) << (fp8 ? " (converted to bf16 as loaded; Out bf16)" : "")
         << ", head_dim " << d << ", value_dim " << dv << "; " << describe(t)
         << (o.tiles                           ? " (autotuned or pinned"
             : t.kind == CudaKernelKind::Wgmma ? " (Hopper's warpgroup kernel"
                                               : " (tile table")
         << " for sm_" << o.sm << ").\n";

  const std::string macro = "ATTN_" + upper(ir.name);
  std::ostringstream cu;
  cu << banner.str();
  cu << "// Compiles with NVRTC (the loader) or nvcc ("
     << (t.kind == CudaKernelKind::Wgmma ? "-arch=sm_90a; it runs on sm_90a only" : "-arch=sm_80 or newer")
     << "); nvcc also builds the\n"
        "// host launcher at the end.\n\n";
  cu << cuda_device_text("cuda_abi.h") << "\n";
  cu << "// ---- Configuration ----------------------------------------------------------------\n";
  cu << "#define ATTN_ENTRY " << entry << "\n";
  cu << "#define ATTN_DTYPE_BF16 " << (compute == DType::BF16) << "\n";
  cu << "#define ATTN_DTYPE_F16 " << (compute == DType::F16) << "\n";
  if (fp8)
    cu << "#define ATTN_FP8 1 /* Q, K, V: FP8 bytes, descaled by p.descale */\n#define ATTN_FP8_E5M2 "
       << (opt.dtype == DType::F8E5M2) << "\n";
  cu << "#define ATTN_D " << d << "\n#define ATTN_DV " << dv << "\n";
  cu << "#define ATTN_BM " << t.block_m << "\n#define ATTN_BN " << t.block_n << "\n";
  cu << "#define ATTN_WARPS " << t.warps << "\n";
  if (t.tensor_cores())
    cu << "#define ATTN_STAGES " << t.stages << "\n#define ATTN_Q_IN_REGS " << (t.q_in_regs ? 1 : 0) << "\n";
  else
    cu << "#define ATTN_ROWS " << t.rows_per_warp << "\n";
  if (t.kind == CudaKernelKind::Wgmma) cu << "#define ATTN_WGMMA_OVERLAP " << (t.overlap ? 1 : 0) << "\n";
  cu << "#define ATTN_SMEM_BYTES " << out.launch.smem_bytes << "\n";
  cu << "#define ATTN_PACK_HEADS " << (out.launch.pack_heads ? 1 : 0)
     << " /* 1: mask and score ignore h; decoding may pack a group's heads in a tile */\n";
  std::string names;
  for (const KernelArg& a : ir.args)
    if (a.kind == KernelArg::Kind::Buffer) {
      names += (names.empty() ? "" : ",") + a.name;
      out.launch.buffer_names.push_back(a.name);
    }
  cu << "#define ATTN_BUFFER_NAMES \"" << names << "\" /* tensor arguments, for error messages */\n";
  std::string sig;
  for (const KernelArg& a : ir.args) {
    sig += (sig.empty() ? "" : " ") + a.name + ":" + elem_type_name(a.elem);
    if (a.kind == KernelArg::Kind::Buffer) {
      sig += "[";
      for (size_t i = 0; i < a.dims.size(); ++i) sig += (i ? "," : "") + a.dims[i];
      sig += "]";
    }
  }
  cu << "#define ATTN_ARGS \"" << sig << "\" /* run-time arguments in order: buffers [dims], scalars */\n";
  cu << "#define ATTN_LSE " << (opt.lse ? 1 : 0) << "\n";
  cu << "#define ATTN_RETURN_MAX " << (opt.return_max ? 1 : 0)
     << " /* 1: the call passes p.max, each row's largest kept score */\n";
  cu << "#define ATTN_SCALE " << scale_text << " /* softmax scale; the launcher passes it in p.scale */\n\n";
  cu << cuda_device_text("attn_common.cuh") << "\n";
  if (fp8) cu << cuda_device_text("attn_fp8.cuh") << "\n";
  cu << cuda_device_text("attn_expr.cuh") << "\n";
  cu << device_functions(ir, *plan_tiles(ir, {t.block_m, t.block_n}), &out.launch.tile_plan);
  cu << cuda_device_text("attn_split_merge.cuh") << "\n";
  cu << cuda_device_text("attn_tiles.cuh") << "\n";
  switch (t.kind) {
    case CudaKernelKind::Simt: cu << cuda_device_text("attn_fwd_simt.cuh") << "\n"; break;
    case CudaKernelKind::Mma:
      cu << cuda_device_text("attn_mma_layout.cuh") << "\n" << cuda_device_text("attn_tc_common.cuh") << "\n";
      // The mma.sync helpers (shared with the backward) are the first part of the forward's text.
      cu << cuda_device_text("attn_mma_ops.cuh") << cuda_device_text("attn_fwd_mma.cuh") << "\n";
      break;
    case CudaKernelKind::Wgmma:
      cu << cuda_device_text("attn_mma_layout.cuh") << "\n" << cuda_device_text("attn_tc_common.cuh") << "\n";
      cu << cuda_device_text("attn_wgmma_layout.cuh") << "\n"
         << print_wgmma_instructions(compute, t.block_n, dv) << "\n";
      cu << cuda_device_text("attn_fwd_wgmma.cuh") << "\n";
      break;
  }
  cu << "#if !defined(__CUDACC_RTC__)\n"
        "// ---- Host launcher (nvcc builds only) -------------------------------------------------\n"
        "#include <cuda_runtime.h>\n\n"
        "/// Launches the kernel on `stream` (a cudaStream_t); returns a cudaError_t.\n"
        "extern \"C\" int "
     << entry
     << "_launch(const attn_cuda_params* p, void* stream) {\n"
        "  cudaError_t e = cudaFuncSetAttribute("
     << entry
     << ", cudaFuncAttributeMaxDynamicSharedMemorySize, ATTN_SMEM_BYTES);\n"
        "  if (e != cudaSuccess) return (int)e;\n"
        "  /* A tile's rows: queries of one head (from query tile q_tile0), or (pack_heads) the query\n"
        "     heads of a kv head. */\n"
        "  const int packed = ATTN_PACK_HEADS && p->pack_heads;\n"
        "  const unsigned rows = (unsigned)(packed ? p->q_heads / p->kv_heads : p->q_len - p->q_tile0 * "
        "ATTN_BM);\n"
        "  const unsigned splits = p->kv_splits > 1 ? (unsigned)p->kv_splits : 1u;\n"
        "  const unsigned heads = (unsigned)(packed ? p->kv_heads : p->q_heads);\n"
        "  const dim3 grid((rows + ATTN_BM - 1) / ATTN_BM * splits, heads, (unsigned)p->batch);\n"
        "  "
     << entry
     << "<<<grid, ATTN_THREADS, ATTN_SMEM_BYTES, (cudaStream_t)stream>>>(*p);\n"
        "  return (int)cudaGetLastError();\n"
        "}\n"
        "#endif\n";
  out.cu = cu.str();

  std::ostringstream hd;
  hd << banner.str();
  hd << "// Host-side declarations for " << entry << ".cu.\n";
  hd << "#ifndef " << macro << "_CUDA_H\n#define " << macro << "_CUDA_H\n\n";
  hd << cuda_device_text("cuda_abi.h") << "\n";
  hd << "#define " << macro << "_ENTRY \"" << entry << "\"\n";
  hd << "#define " << macro << "_THREADS " << out.launch.threads << "\n";
  hd << "#define " << macro << "_BLOCK_M " << t.block_m
     << " /* query rows per CTA (grid: see attn_cuda_params) */\n";
  hd << "#define " << macro << "_SMEM_BYTES " << out.launch.smem_bytes << "\n";
  hd << "#define " << macro << "_HEAD_DIM " << d << "\n#define " << macro << "_VALUE_DIM " << dv << "\n";
  hd << "#define " << macro << "_DTYPE \"" << dtype_name(opt.dtype) << "\"\n";
  hd << "#define " << macro << "_SCALE " << scale_text << " /* p.scale; p.scale_log2 = scale * log2(e) */\n";
  int position = 0;
  for (const KernelArg& a : ir.args)
    if (a.kind == KernelArg::Kind::Buffer)
      hd << "#define " << macro << "_BUFFER_" << upper(a.name) << " " << position++ << "\n";
  position = 0;
  for (const KernelArg& a : ir.args)
    if (a.kind == KernelArg::Kind::Scalar)
      hd << "#define " << macro << "_SCALAR_" << upper(a.name) << " " << position++ << "\n";
  hd << "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n";
  hd << "/** Launches the kernel (host code built by nvcc from the .cu); `stream` is a cudaStream_t.\n"
        " *  Returns a cudaError_t (0 on success). */\n";
  hd << "int " << entry << "_launch(const attn_cuda_params* p, void* stream);\n";
  hd << "#ifdef __cplusplus\n}\n#endif\n\n#endif\n";
  out.header = hd.str();
  return out;
}

}  // namespace attn
