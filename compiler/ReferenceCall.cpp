// call_reference: DLPack views -> host tensors -> run_reference -> the caller's out and lse.
#include "compiler/ReferenceCall.h"

#include <cstdio>
#include <cstring>

#include "backends/reference/Reference.h"
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
    throw InputError(name + " is not in host memory (the reference target reads host tensors)");
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

HostTensor read_tensor(const DLTensor* view, const std::string& name) {
  const DLTensor& t = host_view(view, name);
  HostTensor h(element_type(t, name), std::vector<int64_t>(t.shape, t.shape + t.ndim));
  const size_t size = scalar_type_size(h.type);
  const char* base = static_cast<const char*>(t.data) + t.byte_offset;
  for_each_element(t, [&](int64_t i, int64_t offset) {
    std::memcpy(h.bytes.data() + size_t(i) * size, base + offset * int64_t(size), size);
  });
  return h;
}

void write_tensor(const HostTensor& h, DLTensor* view, const std::string& name) {
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

}  // namespace

int call_reference(const KernelIR& ir, const std::string& kernel, bool lse,
                   const std::vector<KernelParam>& params, const attn_kernel_args& args) {
  try {
    KernelInputs in;
    in.q = read_tensor(args.q, "q"), in.k = read_tensor(args.k, "k"), in.v = read_tensor(args.v, "v");
    int buffer = 0, scalar = 0;
    for (const KernelParam& p : params) {
      if (p.is_buffer ? buffer >= args.num_buffers || !args.buffers
                      : scalar >= args.num_scalars || !args.scalars)
        throw InputError("missing " + std::string(p.is_buffer ? "buffer" : "scalar") + " argument '" +
                         p.name + "'");
      if (p.is_buffer)
        in.buffers[p.name] = read_tensor(args.buffers[buffer++], "buffer '" + p.name + "'");
      else
        in.scalars[p.name] = args.scalars[scalar++];
    }
    KernelOutputs r = run_reference(ir, in, args.num_threads);
    write_tensor(r.out, args.out, "out");
    if (lse && args.lse) write_tensor(r.lse, args.lse, "lse");
    return 0;
  } catch (const std::exception& e) {  // a call reports through args.error, as the generated kernels do
    if (args.error && args.error_size)
      std::snprintf(args.error, args.error_size, "%s: %s", kernel.c_str(), e.what());
    return 1;
  }
}

}  // namespace attn
