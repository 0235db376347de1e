// DLPack views <-> host tensors around a call that runs on copies (HostCopies.h).
#include "backends/io/HostCopies.h"

#include <cstdio>
#include <cstring>

#include "attn/kernel_abi.h"
#include "attn/kernel_backward_abi.h"
#include "codegen/Lower.h"
#include "runtime/KernelCallArgs.h"

namespace attn {

namespace {

/// Calls `f(i, offset)` for each element of `t` in row-major order: its index among them and its
/// offset in elements from the first, through the tensor's strides (compact when it has none).
template <class F>
void for_each_element(const DLTensor& t, F f) {
  std::vector<int64_t> index(static_cast<size_t>(t.ndim), 0);
  const int64_t n = checked_numel(std::vector<int64_t>(t.shape, t.shape + t.ndim), 1);
  for (int64_t i = 0; i < n; ++i) {
    int64_t offset = 0, compact = 1;
    for (int d = t.ndim - 1; d >= 0; --d) {
      offset += index[size_t(d)] * (t.strides ? t.strides[d] : compact);
      compact *= t.shape[d];
    }
    f(i, offset);
    for (int d = t.ndim - 1; d >= 0 && ++index[size_t(d)] == t.shape[d]; --d) index[size_t(d)] = 0;
  }
}

/// `t` checked to be a tensor in host memory of a type attnc uses.
const DLTensor& host_view(const DLTensor* t, const std::string& name) {
  if (!t) throw InputError(name + " is NULL");
  if (t->device.device_type != kDLCPU && t->device.device_type != kDLCUDAHost)
    throw InputError(name + " is not in host memory (this target runs on host copies)");
  if (t->ndim < 0 || (t->ndim > 0 && (!t->shape || !t->data)))
    throw InputError(name + " has no shape or data");
  return *t;
}

ScalarType element_type(const DLTensor& t, const std::string& name) {
  try {
    return dl_scalar_type(t.dtype);
  } catch (const std::invalid_argument& e) {
    throw InputError(name + ": " + e.what());
  }
}

}  // namespace

HostTensor read_host_tensor(const DLTensor* view, const std::string& name) {
  const DLTensor& t = host_view(view, name);
  HostTensor h(element_type(t, name), std::vector<int64_t>(t.shape, t.shape + t.ndim));
  const size_t size = scalar_type_size(h.type);
  const char* base = static_cast<const char*>(t.data) + t.byte_offset;
  for_each_element(t, [&](int64_t i, int64_t offset) {
    std::memcpy(h.bytes.data() + size_t(i) * size, base + offset * int64_t(size), size);
  });
  return h;
}

void write_host_tensor(const HostTensor& h, DLTensor* view, const std::string& name) {
  const DLTensor& t = host_view(view, name);
  const std::vector<int64_t> shape(t.shape, t.shape + t.ndim);
  if (element_type(t, name) != h.type)
    throw InputError(name + " has element type " + scalar_type_name(element_type(t, name)) + ", expected " +
                     scalar_type_name(h.type));
  if (shape != h.shape)
    throw InputError(name + " has shape " + HostTensor(h.type, shape).shape_string() + ", expected " +
                     h.shape_string());
  const size_t size = scalar_type_size(h.type);
  char* base = static_cast<char*>(t.data) + t.byte_offset;
  for_each_element(t, [&](int64_t i, int64_t offset) {
    std::memcpy(base + offset * int64_t(size), h.bytes.data() + size_t(i) * size, size);
  });
}

namespace {

/// The buffers and scalars of a call, in `ir`'s declaration order.
void read_arguments(const KernelIR& ir, const DLTensor* const* buffers, int num_buffers,
                    const double* scalars, int num_scalars, KernelInputs& in) {
  int buffer = 0, scalar = 0;
  for (const KernelArgInfo& p : kernel_args(ir)) {
    if (p.is_buffer ? buffer >= num_buffers || !buffers : scalar >= num_scalars || !scalars)
      throw InputError("missing " + std::string(p.is_buffer ? "buffer" : "scalar") + " argument '" + p.name +
                       "'");
    if (p.is_buffer)
      in.buffers[p.name] = read_host_tensor(buffers[buffer++], "buffer '" + p.name + "'");
    else
      in.scalars[p.name] = scalars[scalar++];
  }
}

}  // namespace

KernelInputs read_call_inputs(const KernelIR& ir, const attn_kernel_args& args) {
  KernelInputs in;
  in.q = read_host_tensor(args.q, "q"), in.k = read_host_tensor(args.k, "k"),
  in.v = read_host_tensor(args.v, "v");
  read_arguments(ir, args.buffers, args.num_buffers, args.scalars, args.num_scalars, in);
  if (args.abi_version >= 5 && args.cu_seqlens_q)
    in.cu_seqlens_q = read_host_tensor(args.cu_seqlens_q, "cu_seqlens_q");
  if (args.abi_version >= 5 && args.cu_seqlens_k)
    in.cu_seqlens_k = read_host_tensor(args.cu_seqlens_k, "cu_seqlens_k");
  if (args.abi_version >= 6 && args.page_table)
    in.page_table = read_host_tensor(args.page_table, "page_table");
  if (args.abi_version >= 6 && args.kv_lens) in.kv_lens = read_host_tensor(args.kv_lens, "kv_lens");
  if (args.abi_version >= 7 && args.q_descale) in.q_descale = read_host_tensor(args.q_descale, "q_descale");
  if (args.abi_version >= 7 && args.k_descale) in.k_descale = read_host_tensor(args.k_descale, "k_descale");
  if (args.abi_version >= 7 && args.v_descale) in.v_descale = read_host_tensor(args.v_descale, "v_descale");
  return in;
}

KernelInputs read_backward_inputs(const KernelIR& ir, const attn_backward_args& args,
                                  GradientRequest& request) {
  KernelInputs in;
  in.q = read_host_tensor(args.q, "q"), in.k = read_host_tensor(args.k, "k"),
  in.v = read_host_tensor(args.v, "v");
  read_arguments(ir, args.buffers, args.num_buffers, args.scalars, args.num_scalars, in);
  if (args.abi_version >= 2 && args.cu_seqlens_q)
    in.cu_seqlens_q = read_host_tensor(args.cu_seqlens_q, "cu_seqlens_q");
  if (args.abi_version >= 2 && args.cu_seqlens_k)
    in.cu_seqlens_k = read_host_tensor(args.cu_seqlens_k, "cu_seqlens_k");
  request.dout = read_host_tensor(args.dout, "dout");
  if (args.dlse) request.dlse = read_host_tensor(args.dlse, "dlse");
  int buffer = 0;
  for (const KernelArgInfo& p : kernel_args(ir))
    if (p.is_buffer) {
      if (args.buffer_grads && args.buffer_grads[buffer]) request.buffers.push_back(p.name);
      ++buffer;
    }
  return in;
}

void write_backward_outputs(const KernelIR& ir, const KernelGradients& g, const attn_backward_args& args) {
  write_host_tensor(g.dq, args.dq, "dq"), write_host_tensor(g.dk, args.dk, "dk");
  write_host_tensor(g.dv, args.dv, "dv");
  int buffer = 0;
  for (const KernelArgInfo& p : kernel_args(ir))
    if (p.is_buffer) {
      if (args.buffer_grads && args.buffer_grads[buffer])
        write_host_tensor(g.buffers.at(p.name), args.buffer_grads[buffer],
                          "the gradient of '" + p.name + "'");
      ++buffer;
    }
}

int report_call_error(const KernelIR& ir, const std::exception& e, char* error, size_t error_size) {
  if (error && error_size) std::snprintf(error, error_size, "%s: %s", kernel_name(ir).c_str(), e.what());
  return 1;
}

}  // namespace attn
