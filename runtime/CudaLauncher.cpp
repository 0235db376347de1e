// The CUDA launcher: device copies of every tensor (contiguous row-major), one parameter block.
#include "runtime/CudaLauncher.h"

#include <cmath>
#include <cstring>

#include "attn/cuda_abi.h"

namespace attn {

namespace {

/// Row-major strides in elements of the first three dimensions of a 4-D tensor.
void strides3(const HostTensor& t, long long (&s)[3]) {
  s[2] = t.shape[3];
  s[1] = t.shape[2] * s[2];
  s[0] = t.shape[1] * s[1];
}

}  // namespace

CudaLaunchResult launch_cuda_kernel(CudaDevice& device, const CudaModule& module, const CudaLaunchInfo& info,
                                    const CudaLaunchRequest& r) {
  if (r.buffers.size() > ATTN_CUDA_MAX_BUFFERS || r.scalars.size() > ATTN_CUDA_MAX_SCALARS)
    throw CudaError("too many kernel arguments for the CUDA parameter block");
  for (const HostTensor* t : {r.q, r.k, r.v}) {
    if (!t || t->shape.size() != 4) throw CudaError("q, k and v must be 4-D tensors");
    if (t->type != info.dtype) throw CudaError(std::string("q, k and v must be ") + scalar_type_name(info.dtype));
  }
  if (r.q->shape[3] != info.head_dim || r.v->shape[3] != info.value_dim)
    throw CudaError("the kernel was compiled for head_dim " + std::to_string(info.head_dim) + " and value_dim " +
                    std::to_string(info.value_dim) + ", got " + r.q->shape_string() + " and " + r.v->shape_string());
  const int64_t B = r.q->shape[0], Hq = r.q->shape[1], Lq = r.q->shape[2], Dv = r.v->shape[3];
  if (B > 65535 || Hq > 65535) throw CudaError("batch and head counts must be at most 65535 on CUDA");
  if (Lq > INT32_MAX || r.k->shape[2] > INT32_MAX) throw CudaError("sequence lengths must fit in 32 bits");

  auto upload = [&](const HostTensor& t) {
    CudaBuffer b = device.alloc(t.bytes.size());
    device.upload(b, t.bytes.data(), t.bytes.size());
    return b;
  };
  CudaBuffer dq = upload(*r.q), dk = upload(*r.k), dv = upload(*r.v);
  CudaLaunchResult result;
  result.out = HostTensor(info.dtype, {B, Hq, Lq, Dv});
  CudaBuffer dout = device.alloc(result.out.bytes.size());
  CudaBuffer dlse;
  if (r.lse) {
    result.lse = HostTensor(ScalarType::F32, {B, Hq, Lq});
    dlse = device.alloc(result.lse.bytes.size());
  }
  CudaBuffer derr = device.alloc(sizeof(attn_cuda_error));
  device.zero(derr);

  attn_cuda_params p;
  std::memset(&p, 0, sizeof p);
  p.q = reinterpret_cast<const void*>(dq.ptr());
  p.k = reinterpret_cast<const void*>(dk.ptr());
  p.v = reinterpret_cast<const void*>(dv.ptr());
  p.out = reinterpret_cast<void*>(dout.ptr());
  p.lse = r.lse ? reinterpret_cast<float*>(dlse.ptr()) : nullptr;
  strides3(*r.q, p.q_stride);
  strides3(*r.k, p.k_stride);
  strides3(*r.v, p.v_stride);
  strides3(result.out, p.out_stride);
  p.lse_stride[2] = 1;
  p.lse_stride[1] = Lq;
  p.lse_stride[0] = Hq * Lq;
  p.batch = static_cast<int>(B);
  p.q_heads = static_cast<int>(Hq);
  p.kv_heads = static_cast<int>(r.k->shape[1]);
  p.q_len = static_cast<int>(Lq);
  p.kv_len = static_cast<int>(r.k->shape[2]);
  p.scale = static_cast<float>(r.scale);
  p.scale_log2 = static_cast<float>(r.scale / std::log(2.0));
  std::vector<CudaBuffer> buffers;
  for (size_t i = 0; i < r.buffers.size(); ++i) {
    const HostTensor& t = *r.buffers[i].tensor;
    if (t.shape.size() > ATTN_CUDA_MAX_RANK) throw CudaError("tensor argument '" + r.buffers[i].name + "' has too many dimensions");
    buffers.push_back(upload(t));
    attn_cuda_buffer& b = p.buffers[i];
    b.data = reinterpret_cast<const void*>(buffers.back().ptr());
    b.rank = static_cast<int>(t.shape.size());
    long long stride = 1;
    for (int d = b.rank - 1; d >= 0; --d) {
      b.shape[d] = t.shape[static_cast<size_t>(d)];
      b.stride[d] = stride;
      stride *= b.shape[d];
    }
  }
  for (size_t i = 0; i < r.scalars.size(); ++i) p.scalars[i] = r.scalars[i];
  p.error = reinterpret_cast<attn_cuda_error*>(derr.ptr());

  const unsigned grid[3] = {static_cast<unsigned>((Lq + info.block_m - 1) / info.block_m), static_cast<unsigned>(Hq),
                            static_cast<unsigned>(B)};
  auto launch = [&] {
    device.launch(module, info.entry, grid, static_cast<unsigned>(info.threads), static_cast<unsigned>(info.smem_bytes), &p,
                  sizeof p);
  };
  if (Lq > 0) {
    launch();
    device.synchronize();
    for (int i = 0; i < r.timed_repeats; ++i) result.times_ms.push_back(device.time_ms(launch));
  }

  attn_cuda_error err;
  device.download(&err, derr, sizeof err);
  if (err.flag) {
    std::string name = err.buffer >= 0 && static_cast<size_t>(err.buffer) < r.buffers.size() ? r.buffers[err.buffer].name : "?";
    long long extent = 0;
    if (err.buffer >= 0 && static_cast<size_t>(err.buffer) < r.buffers.size() && err.dim >= 0 &&
        static_cast<size_t>(err.dim) < r.buffers[err.buffer].tensor->shape.size())
      extent = r.buffers[err.buffer].tensor->shape[err.dim];
    throw CudaError("buffer '" + name + "' index " + std::to_string(err.index) + " is out of range [0, " +
                    std::to_string(extent) + ") in dimension " + std::to_string(err.dim));
  }
  device.download(result.out.bytes.data(), dout, result.out.bytes.size());
  if (r.lse) device.download(result.lse.bytes.data(), dlse, result.lse.bytes.size());
  return result;
}

}  // namespace attn
