// A generated kernel's launch shape, and its backward's, as data (JSON, what the printers hand over
// in KernelRequest::info and manifest.json), and, for a .cu given without it, read back from its
// configuration macros.
#include <nlohmann/json.hpp>

#include <stdexcept>

#include "runtime/CudaLaunch.h"

namespace attn {

namespace {

/// The value of `#define NAME value` on a line of its own (to the end of the line).
std::string macro(const std::string& source, const char* name) {
  const std::string key = std::string("\n#define ") + name + " ";
  const size_t at = source.find(key);
  if (at == std::string::npos)
    throw std::invalid_argument(std::string("not a CUDA kernel written by attnc (no ") + name + ")");
  const size_t begin = at + key.size();
  return source.substr(begin, source.find('\n', begin) - begin);
}

/// The text between the first pair of double quotes of `value`.
std::string quoted(const std::string& value) {
  const size_t open = value.find('"'), close = value.find('"', open + 1);
  if (open == std::string::npos || close == std::string::npos)
    throw std::invalid_argument("a malformed macro");
  return value.substr(open + 1, close - open - 1);
}

int integer(const std::string& value) {
  size_t used = 0;
  const int v = std::stoi(value, &used);
  if (used == 0) throw std::invalid_argument("a malformed macro");
  return v;
}

/// The comma-separated names of `list` (none when it is empty).
std::vector<std::string> split_commas(const std::string& list) {
  std::vector<std::string> out;
  for (size_t pos = 0; !list.empty() && pos != std::string::npos;) {
    const size_t comma = list.find(',', pos);
    out.push_back(list.substr(pos, comma == std::string::npos ? comma : comma - pos));
    pos = comma == std::string::npos ? comma : comma + 1;
  }
  return out;
}

const char* dtype_text(ScalarType t) {
  switch (t) {
    case ScalarType::BF16: return "bf16";
    case ScalarType::F16: return "f16";
    case ScalarType::F8E4M3: return "e4m3";
    case ScalarType::F8E5M2: return "e5m2";
    default: return "f32";
  }
}

ScalarType dtype_of_text(const std::string& dtype) {
  for (ScalarType t :
       {ScalarType::BF16, ScalarType::F16, ScalarType::F8E4M3, ScalarType::F8E5M2, ScalarType::F32})
    if (dtype == dtype_text(t)) return t;
  throw std::invalid_argument("dtype '" + dtype + "'");
}

}  // namespace

CudaLaunchInfo parse_cuda_launch_info(const std::string& source) {
  CudaLaunchInfo info;
  try {
    info.entry = macro(source, "ATTN_ENTRY");
    info.threads = integer(macro(source, "ATTN_WARPS")) * 32;
    info.block_m = integer(macro(source, "ATTN_BM"));
    info.block_n = integer(macro(source, "ATTN_BN"));
    info.smem_bytes = integer(macro(source, "ATTN_SMEM_BYTES"));
    info.head_dim = integer(macro(source, "ATTN_D"));
    info.value_dim = integer(macro(source, "ATTN_DV"));
    info.dtype = macro(source, "ATTN_DTYPE_BF16") == "1"  ? ScalarType::BF16
                 : macro(source, "ATTN_DTYPE_F16") == "1" ? ScalarType::F16
                                                          : ScalarType::F32;
    // FP8 inputs computed as bf16 (sources of other dtypes have no ATTN_FP8).
    if (source.find("\n#define ATTN_FP8 1 ") != std::string::npos)
      info.dtype = macro(source, "ATTN_FP8_E5M2") == "1" ? ScalarType::F8E5M2 : ScalarType::F8E4M3;
    info.scale = std::stod(macro(source, "ATTN_SCALE"));
    info.buffer_names = split_commas(quoted(macro(source, "ATTN_BUFFER_NAMES")));
    // "name:type[dims]" for buffers, "name:type" for scalars, space-separated.
    const std::string args = quoted(macro(source, "ATTN_ARGS"));
    for (size_t pos = 0; pos < args.size();) {
      size_t space = args.find(' ', pos);
      if (space == std::string::npos) space = args.size();
      const std::string word = args.substr(pos, space - pos);
      if (word.find('[') == std::string::npos) info.scalar_names.push_back(word.substr(0, word.find(':')));
      pos = space + 1;
    }
  } catch (const std::out_of_range&) {
    throw std::invalid_argument("not a CUDA kernel written by attnc (a configuration macro is out of range)");
  }
  const std::string begin = "/* attn-tile-plan:", end = "attn-tile-plan-end */";
  const size_t b = source.find(begin);
  if (b != std::string::npos) {
    const size_t text = source.find('\n', b) + 1, e = source.find(end, text);
    if (e != std::string::npos) info.tile_plan = source.substr(text, e - text);
  }
  info.needs_16b_rows = source.find("\n#define ATTN_STAGES ") != std::string::npos;
  info.pack_heads = source.find("\n#define ATTN_PACK_HEADS 1 ") != std::string::npos;
  return info;
}

std::string write_cuda_launch_info(const CudaLaunchInfo& info) {
  nlohmann::ordered_json j;
  j["entry"] = info.entry;
  j["threads"] = info.threads;
  j["block_m"] = info.block_m;
  j["block_n"] = info.block_n;
  j["smem_bytes"] = info.smem_bytes;
  j["head_dim"] = info.head_dim;
  j["value_dim"] = info.value_dim;
  j["dtype"] = dtype_text(info.dtype);
  j["scale"] = info.scale;
  j["buffers"] = info.buffer_names;
  j["scalars"] = info.scalar_names;
  j["tile_plan"] = info.tile_plan;
  j["needs_16b_rows"] = info.needs_16b_rows;
  j["pack_heads"] = info.pack_heads;
  return j.dump();
}

CudaLaunchInfo read_cuda_launch_info(const std::string& text) {
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    CudaLaunchInfo info;
    info.entry = j.at("entry").get<std::string>();
    info.threads = j.at("threads").get<int>();
    info.block_m = j.at("block_m").get<int>();
    info.block_n = j.at("block_n").get<int>();
    info.smem_bytes = j.at("smem_bytes").get<int>();
    info.head_dim = j.at("head_dim").get<int>();
    info.value_dim = j.at("value_dim").get<int>();
    info.dtype = dtype_of_text(j.at("dtype").get<std::string>());
    info.scale = j.at("scale").get<double>();
    info.buffer_names = j.at("buffers").get<std::vector<std::string>>();
    info.scalar_names = j.at("scalars").get<std::vector<std::string>>();
    info.tile_plan = j.at("tile_plan").get<std::string>();
    info.needs_16b_rows = j.at("needs_16b_rows").get<bool>();
    info.pack_heads = j.at("pack_heads").get<bool>();
    return info;
  } catch (const std::exception& e) {
    throw std::invalid_argument(std::string("a CUDA launch description attnc did not write: ") + e.what());
  }
}

CudaBackwardInfo parse_cuda_backward_info(const std::string& source) {
  CudaBackwardInfo info;
  try {
    info.pre = macro(source, "ATTN_BWD_PRE");
    info.dkdv = macro(source, "ATTN_BWD_DKDV");
    info.dq = macro(source, "ATTN_BWD_DQ");
    info.grad = macro(source, "ATTN_BWD_GRAD");
    info.threads = integer(macro(source, "ATTN_WARPS")) * 32;
    info.block_m = integer(macro(source, "ATTN_BWD_BM"));
    info.block_n = integer(macro(source, "ATTN_BWD_BN"));
    info.dkdv_smem = integer(macro(source, "ATTN_BWD_DKDV_SMEM"));
    info.dq_smem = integer(macro(source, "ATTN_BWD_DQ_SMEM"));
    info.head_dim = integer(macro(source, "ATTN_D"));
    info.value_dim = integer(macro(source, "ATTN_DV"));
    info.scale = std::stod(macro(source, "ATTN_SCALE"));
    // The backward takes bf16 and f16 only.
    info.dtype = macro(source, "ATTN_DTYPE_BF16") == "1" ? ScalarType::BF16 : ScalarType::F16;
    info.site_buffers = split_commas(quoted(macro(source, "ATTN_BWD_SITE_BUFFERS")));
    info.sink = source.find("\n#define ATTN_SINK 1\n") != std::string::npos;
  } catch (const std::out_of_range&) {
    throw std::invalid_argument(
        "not a CUDA backward written by attnc (a configuration macro is out of range)");
  }
  return info;
}

std::string write_cuda_backward_info(const CudaBackwardInfo& info) {
  nlohmann::ordered_json j;
  j["pre"] = info.pre;
  j["dkdv"] = info.dkdv;
  j["dq"] = info.dq;
  j["grad"] = info.grad;
  j["threads"] = info.threads;
  j["block_m"] = info.block_m;
  j["block_n"] = info.block_n;
  j["dkdv_smem"] = info.dkdv_smem;
  j["dq_smem"] = info.dq_smem;
  j["head_dim"] = info.head_dim;
  j["value_dim"] = info.value_dim;
  j["dtype"] = dtype_text(info.dtype);
  j["scale"] = info.scale;
  j["site_buffers"] = info.site_buffers;
  j["sink"] = info.sink;
  return j.dump();
}

CudaBackwardInfo read_cuda_backward_info(const std::string& text) {
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    CudaBackwardInfo info;
    info.pre = j.at("pre").get<std::string>();
    info.dkdv = j.at("dkdv").get<std::string>();
    info.dq = j.at("dq").get<std::string>();
    info.grad = j.at("grad").get<std::string>();
    info.threads = j.at("threads").get<int>();
    info.block_m = j.at("block_m").get<int>();
    info.block_n = j.at("block_n").get<int>();
    info.dkdv_smem = j.at("dkdv_smem").get<int>();
    info.dq_smem = j.at("dq_smem").get<int>();
    info.head_dim = j.at("head_dim").get<int>();
    info.value_dim = j.at("value_dim").get<int>();
    info.dtype = dtype_of_text(j.at("dtype").get<std::string>());
    info.scale = j.at("scale").get<double>();
    info.site_buffers = j.at("site_buffers").get<std::vector<std::string>>();
    info.sink = j.value("sink", false);  // absent from manifests before sinks ran on CUDA
    return info;
  } catch (const std::exception& e) {
    throw std::invalid_argument(std::string("a CUDA backward description attnc did not write: ") + e.what());
  }
}

}  // namespace attn
