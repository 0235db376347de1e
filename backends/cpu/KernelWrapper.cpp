// Text of the ABI wrapper: the kernel's constants and key test around the fixed code in
// backends/cpu/fixed/ (conversions, checks, staging; the entry point's template).
#include "backends/cpu/KernelWrapper.h"

#include "backends/cpu/CpuFixedText.h"
#include "runtime/KernelCallArgs.h"

#include <algorithm>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

namespace attn::cpu {

namespace {

const char* dtype_enum(DType d) {
  switch (d) {
    case DType::F32: return "IoType::F32";
    case DType::F16: return "IoType::F16";
    case DType::BF16: return "IoType::BF16";
    case DType::F8E4M3: return "IoType::E4M3";
    case DType::F8E5M2: return "IoType::E5M2";
  }
  return "IoType::F32";
}

std::string buffer_type(ElemType e) {
  switch (e) {
    case ElemType::I32: return "halide_type_t(halide_type_int, 32, 1)";
    case ElemType::F32: return "halide_type_t(halide_type_float, 32, 1)";
    case ElemType::Bool: return "halide_type_t(halide_type_uint, 8, 1)";
  }
  return "";
}

std::string scalar_value(const KernelArg& a, int index) {
  std::string v = "args->scalars[" + std::to_string(index) + "]";
  switch (a.elem) {
    case ElemType::I32: return "int32_t(" + v + ")";
    case ElemType::F32: return "float(" + v + ")";
    case ElemType::Bool: return "(" + v + " != 0.0)";
  }
  return v;
}

std::string c_string(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

/// The names attnc gives dtypes (scalar_type_name: the CLI's and the language's) by DLPack type,
/// for the wrapper's messages.
std::string dtype_names() {
  std::ostringstream o;
  const ScalarType types[] = {ScalarType::F32,  ScalarType::F16, ScalarType::BF16,   ScalarType::F64,
                              ScalarType::I32,  ScalarType::I64, ScalarType::Bool,   ScalarType::U8,
                              ScalarType::F8E4M3, ScalarType::F8E5M2};
  for (size_t i = 0; i < std::size(types); ++i) {
    const DLDataType t = dl_data_type(types[i]);
    o << (i ? ", " : "") << "{" << int(t.code) << ", " << int(t.bits) << ", \"" << scalar_type_name(types[i]) << "\"}";
  }
  return o.str();
}

/// Keys per block of the wrapper's key-block test (a multiple of every ISA's key block).
constexpr int kSkipBlock = 64;

/// The entry point's declaration in the fixed templates. Each vector path's entry is a plain
/// function of the path's namespace: the source exports one entry that chooses among them.
constexpr const char* kEntryDeclaration = "extern \"C\" __attribute__((visibility(\"default\"))) int ATTN_ENTRY";

/// `text` with each placeholder replaced by its value; every placeholder occurs exactly once.
std::string fill_placeholders(std::string text, const std::vector<std::pair<std::string, std::string>>& values) {
  for (const auto& [placeholder, value] : values) {
    size_t at = text.find(placeholder);
    if (at == std::string::npos || text.find(placeholder, at + placeholder.size()) != std::string::npos)
      throw std::logic_error("internal error: the wrapper template does not hold " + placeholder + " once");
    text.replace(at, placeholder.size(), value);
  }
  return text;
}

/// The entry point's lines that plan the keys itself when the caller passed no plan (SelfPlan.h) for
/// query positions [0, `queries`); `runs` also points run_starts and runs (the forward's) at its runs.
std::string self_plan_call(bool runs, const std::string& queries) {
  return std::string("  SelfPlan self_plan;  // no plan given: the kernel's own, as attnc's runtime would pass\n"
                     "  if (!given && self_plan.make(") + queries + ", Lk, args->buffers, args->scalars)) {\n"
                     "    given = self_plan.keys.ranges.data(), given_block = self_plan.keys.block_q;\n" +
         (runs ? "    run_starts = self_plan.keys.run_starts.data(), runs = self_plan.keys.runs.data();\n" : "") +
         "  }\n";
}

/// The kernel's constants, the support code and the key-block test: what the forward's and the
/// backward's entry points share.
std::string wrapper_prologue(const WrapperSpec& spec) {
  const Geometry& g = spec.geometry;
  if (g.key_chunk % kSkipBlock)  // streamed K/V pieces start on key blocks
    throw std::logic_error("internal error: key_chunk is not a multiple of the wrapper's key block");
  int num_buffers = 0, num_scalars = 0;
  for (const KernelArg& a : spec.args) (a.kind == KernelArg::Kind::Buffer ? num_buffers : num_scalars)++;
  const auto flag = [](bool b) { return std::string(b ? "true" : "false"); };
  std::ostringstream o;
  o << fill_placeholders(cpu_fixed_text("WrapperConstants.h"),
                         {{"ATTN_LANES", std::to_string(g.vector_lanes)},
                          {"ATTN_TILE_Q", std::to_string(g.tile_q)},
                          {"ATTN_CHUNK_KEYS", std::to_string(g.key_chunk)},
                          {"ATTN_DECODE_ROWS", std::to_string(kDecodeRows)},
                          {"ATTN_HEAD_DIM", std::to_string(g.head_dim)},
                          {"ATTN_VALUE_DIM", std::to_string(g.value_dim)},
                          {"ATTN_LSE_REQUIRED", flag(spec.lse_required)},
                          {"ATTN_MAX_REQUIRED", flag(spec.max_required)},
                          {"ATTN_PACK_HEADS", flag(spec.pack_heads)},
                          {"ATTN_NUM_BUFFERS", std::to_string(num_buffers)},
                          {"ATTN_NUM_SCALARS", std::to_string(num_scalars)},
                          {"ATTN_DTYPE_NAMES", dtype_names()},
                          // Last: a value may spell a placeholder.
                          {"ATTN_KERNEL_NAME", c_string(spec.kernel)}})
    << "\n";
  o << cpu_fixed_text("WrapperSupport.h") << "\n";
  o << cpu_fixed_text(g.matrix ? "MatrixStaging.h" : "F32Staging.h") << "\n";
  o << "namespace {\n\n";
  if (!spec.keys_masked.empty() || !spec.sink.empty()) o << cpu_fixed_text("IrIntegerOps.h");
  o << fill_placeholders(cpu_fixed_text("KeyTest.h"),
                         {{"ATTN_SKIP_BLOCK_COMMENT", std::to_string(kSkipBlock)},
                          {"ATTN_SKIP_BLOCK;", std::to_string(kSkipBlock) + ";"},
                          {"ATTN_HAS_KEY_TEST", flag(!spec.keys_masked.empty())},
                          {"ATTN_KEYS_MASKED", spec.keys_masked.empty() ? "false" : spec.keys_masked}})
    << "\n}  // namespace\n\n";
  return o.str();
}

/// The buffer views of the entry point and the pipeline's extra arguments (buffers, scalars).
std::pair<std::string, std::string> buffer_views_and_args(const WrapperSpec& spec) {
  std::ostringstream views, extra_args;
  int buffers = 0, scalars = 0;
  for (const KernelArg& a : spec.args) {
    if (a.kind == KernelArg::Kind::Buffer) {
      views << "  BufferView buffer" << buffers << ";\n"
            << "  if (!view_buffer(uc, args->buffers[" << buffers << "], " << c_string(a.name) << ", "
            << a.dims.size() << ", " << buffer_type(a.elem) << ", buffer" << buffers << ")) return -1;\n";
      extra_args << ", &buffer" << buffers++ << ".buf";
    } else {
      extra_args << ", " << scalar_value(a, scalars++);
    }
  }
  return {views.str(), extra_args.str()};
}

/// The entry point's per-row functions (ATTN_ROW_FUNCTIONS): the sink's logit, -inf without one.
std::string row_functions(const WrapperSpec& spec) {
  if (spec.sink.empty())
    return "  constexpr bool kHasSink = false;  // the kernel sets no sink\n"
           "  auto sink_logit = [](int32_t, int32_t, int32_t, RowLoadError&) { return -INFINITY; };\n";
  return "  [[maybe_unused]] constexpr bool kHasSink = true;  // the backward reads only sink_logit\n"
         "  // The sink's logit of row (b, h, q), natural units (kernel option `sink`).\n"
         "  auto sink_logit = [&](int32_t b, int32_t h, int32_t q, RowLoadError& bad) -> float {\n"
         "    [[maybe_unused]] const double* scalars = args->scalars;\n"
         "    (void)b, (void)h, (void)q, (void)bad;\n"
         "    [[maybe_unused]] const int32_t q_len = int32_t(q_end), kv_len = int32_t(Lk);\n"
         "    return float(" + spec.sink + ");\n  };\n";
}

}  // namespace

std::string emit_element_code(DType dtype, bool matrix) {
  std::string code = fill_placeholders(cpu_fixed_text("ElementTypes.h"), {{"ATTN_IO_TYPE", dtype_enum(dtype)}});
  code += "\n" + cpu_fixed_text("ElementConversions.h") + "\n";
  if (matrix) code += cpu_fixed_text("MatrixFp8.h") + "\n";
  return code;
}

std::string emit_wrapper(const WrapperSpec& spec) {
  const Geometry& g = spec.geometry;
  std::ostringstream o;
  o << wrapper_prologue(spec);
  auto [views, extra_args] = buffer_views_and_args(spec);
  const std::string kv_ranges =
      spec.kv_ranges ? "  const int64_t* given = args->abi_version >= 2 ? args->kv_ranges : nullptr;\n"
                       "  const int64_t* run_starts = given && args->abi_version >= 3 && args->kv_runs ? args->kv_run_starts : nullptr;\n"
                       "  const int64_t* runs = run_starts ? args->kv_runs : nullptr;\n"
                       "  int64_t given_block = given ? args->kv_ranges_block_q : 0;\n" +
                           self_plan_call(true, "q_end")
                     : "  const int64_t* given = nullptr;  // the mask reads no buffer: kv_ranges unused\n"
                       "  const int64_t* run_starts = nullptr;\n  const int64_t* runs = nullptr;\n"
                       "  int64_t given_block = 0;\n";
  o << cpu_fixed_text("PackedSequences.h") << "\n";
  o << cpu_fixed_text("RaggedBatch.h") << "\n";
  o << fill_placeholders(cpu_fixed_text("WrapperEntry.h"), {{kEntryDeclaration, "int " + spec.entry},
                                                            {"  ATTN_VIEW_BUFFERS\n", views},
                                                            {"  ATTN_ROW_FUNCTIONS\n", row_functions(spec)},
                                                            {"  ATTN_KV_RANGES\n", kv_ranges},
                                                            {"ATTN_KEY_CHUNK", std::to_string(g.key_chunk)},
                                                            {"ATTN_PIPELINE_FN", spec.pipeline},
                                                            {" ATTN_EXTRA_ARGS", extra_args}});
  return o.str();
}

namespace {

/// The backward's sink gradients (ATTN_SINK_GRADIENTS): d loss / d sink = -exp(sink - LSE) * delta
/// per row, times the sink's partial derivative at each element it reads, summed row by row in
/// order (one thread: a row is a few operations) into `sink_grads`, which the buffer gradients add.
std::string sink_gradients(const WrapperSpec& spec) {
  if (spec.sink_reads.empty()) return "  const std::vector<float> sink_grads;  // no buffer gradient flows through a sink\n";
  std::ostringstream o;
  o << row_functions(spec) << "  std::vector<float> sink_grads(size_t(grad_total), 0.0f);\n"
    << "  // The sink's own gradient per row, d loss / d sink = -exp(sink - LSE) * delta (its value is 0),\n"
    << "  // into each element it reads: row by row, in order.\n"
    << "  for (int64_t b = 0; b < B && grad_total > 0; ++b)\n"
    << "    for (int64_t h = 0; h < Hq; ++h)\n"
    << "      for (int64_t row = 0; row < Lq; ++row) {\n"
    << "        const float* st = stats + ((b * Hq + h) * tiles + row / kTileQ) * 2 * kTileQ;\n"
    << "        const float lse = st[row % kTileQ], delta = st[kTileQ + row % kTileQ];\n"
    << "        RowLoadError bad;\n"
    << "        const int32_t b32 = int32_t(b0 + b), h32 = int32_t(h), q32 = int32_t(row);\n"
    << "        const float logit = sink_logit(b32, h32, q32, bad);\n"
    << "        // A row whose weight a +inf score or sink took passes nothing back (as its scores do).\n"
    << "        const float dsink = lse == INFINITY ? 0.0f : -expf(logit - lse) * delta;\n"
    << "        [[maybe_unused]] const double* scalars = args->scalars;\n";
  for (const WrapperSpec::SinkRead& r : spec.sink_reads) {
    std::string name;
    for (int i = 0, n = 0; i < int(spec.args.size()); ++i)
      if (spec.args[size_t(i)].kind == KernelArg::Kind::Buffer && n++ == r.buffer) name = spec.args[size_t(i)].name;
    std::string index;
    for (const std::string& i : r.index) index += (index.empty() ? "" : ", ") + i;
    o << "        if (grad_offset[" << r.buffer << "] >= 0) {\n"
      << "          const int32_t b = b32, h = h32, q = q32, q_len = int32_t(q_end), kv_len = int32_t(Lk);\n"
      << "          (void)b, (void)h, (void)q, (void)q_len, (void)kv_len;\n"
      << "          // A read in a select's untaken branch has partial 0 and may be out of range.\n"
      << "          const float partial = float(" << r.partial << ");\n"
      << "          if (partial != 0.0f) {\n"
      << "            const int32_t at[] = {" << index << "};\n"
      << "            const int64_t flat = row_element(bad, buffer" << r.buffer << ", " << c_string(name) << ", at);\n"
      << "            if (flat >= 0) sink_grads[size_t(grad_offset[" << r.buffer << "] + flat)] += dsink * partial;\n"
      << "          }\n"
      << "        }\n";
  }
  o << "        if (bad.buffer)\n"
    << "          return fail(uc, \"%s: the sink reads buffer '%s' at index %d in dimension %d, outside [0, %d) (b=%lld h=%lld q=%lld)\",\n"
    << "                      kKernelName, bad.buffer, int(bad.index), bad.dim, int(bad.extent), (long long)b32, (long long)h,\n"
    << "                      (long long)row), -1;\n"
    << "      }\n";
  return o.str();
}

}  // namespace

std::string emit_backward_wrapper(const WrapperSpec& spec, const std::vector<BackwardRead>& reads, int index_slots) {
  std::ostringstream o;
  o << wrapper_prologue(spec);
  o << "namespace {\n\n"
    << "constexpr int32_t kBackwardChunk = " << kBackwardKeyChunk << ";  // keys per backward job\n"
    << "constexpr int32_t kBackwardCall = " << kBackwardCallKeys << ";  // keys per pipeline call at most\n"
    << "/// A buffer read site of the score: its buffer, index dimensions, first row of the index output,\n"
    << "/// whether its index is one element for every position of a call.\n"
    << "struct BackwardRead {\n  int buffer, dims, slot;\n  bool uniform;\n};\n"
    << "constexpr int kNumReads = " << reads.size() << ", kIndexSlots = " << index_slots << ";\n"
    << "constexpr BackwardRead kReads[" << std::max<size_t>(reads.size(), 1) << "] = {";
  for (size_t i = 0; i < reads.size(); ++i)
    o << (i ? ", " : "") << "{" << reads[i].buffer << ", " << reads[i].dims << ", " << reads[i].index_slot << ", "
      << (reads[i].uniform ? "true" : "false") << "}";
  o << (reads.empty() ? "{-1, 0, 0, false}" : "") << "};\n\n}  // namespace\n\n";
  auto [views, extra_args] = buffer_views_and_args(spec);
  int num_buffers = 0;
  std::string list;
  for (const KernelArg& a : spec.args)
    if (a.kind == KernelArg::Kind::Buffer) {
      list += (num_buffers ? ", &buffer" : "&buffer") + std::to_string(num_buffers);
      ++num_buffers;
    }
  views += "  const BufferView* buffer_views[" + std::to_string(std::max(num_buffers, 1)) + "] = {" +
           (list.empty() ? "nullptr" : list) + "};\n";
  const std::string kv_ranges =
      spec.kv_ranges ? "  const int64_t* given = args->kv_ranges;\n"
                       "  int64_t given_block = given ? args->kv_ranges_block_q : 0;\n" +
                           self_plan_call(false, "Lq")
                     : "  const int64_t* given = nullptr;  // the mask reads no buffer: kv_ranges unused\n"
                       "  int64_t given_block = 0;\n";
  o << cpu_fixed_text("PackedSequences.h") << "\n";
  o << fill_placeholders(cpu_fixed_text("BackwardEntry.h"),
                         {{kEntryDeclaration, "int " + spec.entry},
                          {"  ATTN_VIEW_BUFFERS\n", views},
                          {"  ATTN_KV_RANGES\n", kv_ranges},
                          {"ATTN_PIPELINE_FN", spec.pipeline},
                          {" ATTN_EXTRA_ARGS", extra_args},
                          {" ATTN_GRAD_OUTPUTS", reads.empty() ? "" : ", &grad_out.buf, &index_out.buf"},
                          {"  ATTN_SINK_GRADIENTS\n", sink_gradients(spec)}});
  return o.str();
}

}  // namespace attn::cpu
