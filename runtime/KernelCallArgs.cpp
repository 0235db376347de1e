// The ScalarType <-> DLPack type mapping and the views of one kernel call.
#include "runtime/KernelCallArgs.h"

#include <iterator>
#include <stdexcept>
#include <string>

namespace attn {

namespace {

// DLPack 0.8's kDLBool; older dlpack.h (0.6 here) does not name it, and the kernels accept it.
constexpr uint8_t kDLBoolCode = 6;

// A DLPack type as NumPy and PyTorch name it ("float64", "int8"), for messages.
std::string dl_type_name(DLDataType t) {
  static const char* const kKinds[] = {"int", "uint", "float", "opaque", "bfloat", "complex"};
  std::string name = t.code == kDLBoolCode        ? "bool"
                     : t.code < std::size(kKinds) ? kKinds[t.code] + std::to_string(t.bits)
                                                  : "type code " + std::to_string(t.code);
  return t.lanes == 1 ? name : name + "x" + std::to_string(t.lanes);
}

}  // namespace

DLDataType dl_data_type(ScalarType t) {
  switch (t) {
    case ScalarType::F32: return {kDLFloat, 32, 1};
    case ScalarType::F16: return {kDLFloat, 16, 1};
    case ScalarType::BF16: return {kDLBfloat, 16, 1};
    case ScalarType::F64: return {kDLFloat, 64, 1};
    case ScalarType::I32: return {kDLInt, 32, 1};
    case ScalarType::I64: return {kDLInt, 64, 1};
    case ScalarType::Bool: return {kDLBoolCode, 8, 1};
    case ScalarType::U8: return {kDLUInt, 8, 1};
    case ScalarType::F8E4M3: return {ATTN_DL_FLOAT8_E4M3FN, 8, 1};
    case ScalarType::F8E5M2: return {ATTN_DL_FLOAT8_E5M2, 8, 1};
  }
  throw std::invalid_argument("unknown ScalarType");
}

ScalarType dl_scalar_type(DLDataType t) {
  for (ScalarType s :
       {ScalarType::F32, ScalarType::F16, ScalarType::BF16, ScalarType::F64, ScalarType::I32, ScalarType::I64,
        ScalarType::Bool, ScalarType::U8, ScalarType::F8E4M3, ScalarType::F8E5M2}) {
    DLDataType d = dl_data_type(s);
    if (d.code == t.code && d.bits == t.bits && d.lanes == t.lanes) return s;
  }
  throw std::invalid_argument("element type " + dl_type_name(t) +
                              " is not one attnc uses (f32, f16, bf16, f64, i32, i64, bool, u8, e4m3, e5m2)");
}

KernelCallArgs::KernelCallArgs(const KernelCallTensors& t, DLDevice device, const Placement& place) {
  args_.abi_version = ATTN_KERNEL_ABI_VERSION;
  args_.q = add_view(*t.q, false, device, place);
  args_.k = add_view(*t.k, false, device, place);
  args_.v = add_view(*t.v, false, device, place);
  args_.out = add_view(*t.out, true, device, place);
  args_.lse = t.lse ? add_view(*t.lse, true, device, place) : nullptr;
  args_.max = t.max ? add_view(*t.max, true, device, place) : nullptr;
  for (const HostTensor* b : t.buffers) buffers_.push_back(add_view(*b, false, device, place));
  args_.cu_seqlens_q = t.cu_seqlens_q ? add_view(*t.cu_seqlens_q, false, device, place) : nullptr;
  args_.cu_seqlens_k = t.cu_seqlens_k ? add_view(*t.cu_seqlens_k, false, device, place) : nullptr;
  args_.page_table = t.page_table ? add_view(*t.page_table, false, device, place) : nullptr;
  args_.kv_lens = t.kv_lens ? add_view(*t.kv_lens, false, device, place) : nullptr;
  args_.q_descale = t.q_descale ? add_view(*t.q_descale, false, device, place) : nullptr;
  args_.k_descale = t.k_descale ? add_view(*t.k_descale, false, device, place) : nullptr;
  args_.v_descale = t.v_descale ? add_view(*t.v_descale, false, device, place) : nullptr;
  scalars_ = t.scalars;
  args_.buffers = buffers_.data();
  args_.num_buffers = static_cast<int>(buffers_.size());
  args_.scalars = scalars_.data();
  args_.num_scalars = static_cast<int>(scalars_.size());
  args_.error = error_;
  args_.error_size = sizeof error_;
}

std::vector<long long> dl_strides(const DLTensor* t) {
  std::vector<long long> s(static_cast<size_t>(t->ndim));
  long long acc = 1;
  for (int d = t->ndim - 1; d >= 0; --d) {
    s[static_cast<size_t>(d)] = t->strides ? t->strides[d] : acc;
    acc *= t->shape[d];
  }
  return s;
}

const void* dl_data(const DLTensor* t) { return static_cast<const char*>(t->data) + t->byte_offset; }

DLTensor host_view(const HostTensor& t) {
  DLTensor d{};
  d.data = const_cast<uint8_t*>(t.bytes.data());
  d.device = {kDLCPU, 0};
  d.ndim = static_cast<int>(t.shape.size());
  d.dtype = dl_data_type(t.type);
  d.shape = const_cast<int64_t*>(t.shape.data());
  return d;
}

DLTensor* KernelCallArgs::add_view(const HostTensor& t, bool output, DLDevice device,
                                   const Placement& place) {
  View& v = views_.emplace_back(View{&t, t.shape, {}});
  v.dl.data = place ? place(t, output) : const_cast<uint8_t*>(t.bytes.data());
  v.dl.device = device;
  v.dl.ndim = static_cast<int>(v.shape.size());
  v.dl.dtype = dl_data_type(t.type);
  v.dl.shape = v.shape.data();
  return &v.dl;
}

DLTensor& KernelCallArgs::view(const HostTensor& t) {
  for (View& v : views_)
    if (v.tensor == &t) return v.dl;
  throw std::invalid_argument("KernelCallArgs::view: not one of the call's tensors");
}

}  // namespace attn
