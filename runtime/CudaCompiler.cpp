// CudaCompiler: keys include NVRTC's version and the target arch; the artifact is the cubin;
// a module fills the parameter block from DLPack tensors and launches through the driver.
#include "runtime/CudaCompiler.h"

#include <cstring>
#include <mutex>
#include <stdexcept>

#include "attn/cuda_abi.h"
#include "runtime/CudaDriver.h"
#include "runtime/CudaErrorWord.h"
#include "runtime/CudaLauncher.h"
#include "runtime/CudaRagged.h"
#include "runtime/KernelCallArgs.h"
#include "runtime/Nvrtc.h"

namespace attn {

namespace {

int fail(const attn_kernel_args* args, const std::string& message) {
  if (args && args->error && args->error_size) {
    std::strncpy(args->error, message.c_str(), args->error_size - 1);
    args->error[args->error_size - 1] = '\0';
  }
  return 1;
}

bool dtype_is(const DLTensor* t, ScalarType s) {
  switch (s) {
    case ScalarType::BF16: return t->dtype.code == kDLBfloat && t->dtype.bits == 16;
    case ScalarType::F16: return t->dtype.code == kDLFloat && t->dtype.bits == 16;
    default: return t->dtype.code == kDLFloat && t->dtype.bits == 32;
  }
}

/// Element strides of a DLPack tensor (compact row-major when `strides` is null).
std::vector<long long> strides_of(const DLTensor* t) {
  std::vector<long long> s(static_cast<size_t>(t->ndim));
  long long acc = 1;
  for (int d = t->ndim - 1; d >= 0; --d) {
    s[d] = t->strides ? t->strides[d] : acc;
    acc *= t->shape[d];
  }
  return s;
}

const void* data_of(const DLTensor* t) { return static_cast<const char*>(t->data) + t->byte_offset; }

class CudaModuleAdapter : public CudaKernelModule {
 public:
  CudaModuleAdapter(std::shared_ptr<CudaDevice> device, std::shared_ptr<CudaModule> module,
                    CudaLaunchInfo info)
      : device_(std::move(device)),
        module_(std::move(module)),
        info_(std::move(info)),
        word_(CudaErrorWord::make(device_, info_.buffer_names)) {}

  int invoke(const attn_kernel_args* a) const override {
    attn_cuda_params p;
    if (std::string why = fill_params(a, p); !why.empty()) return fail(a, why);
    std::lock_guard<std::mutex> lock(mutex_);  // one split workspace per module
    try {
      auto download = [&](void* dst, const void* src, size_t bytes) {
        device_->download(dst, CudaBuffer::borrow(reinterpret_cast<uint64_t>(src), bytes), bytes);
      };
      std::vector<CudaSequence> sequences;
      if (std::string why = read_sequences(a, sequences, download); !why.empty()) return fail(a, why);
      // Masks that read buffers: plan the tiles from host copies of the buffers.
      std::vector<HostTensor> host;
      std::vector<CudaTensorArg> named;
      if (!info_.tile_plan.empty())
        host_buffers(a, host, named, [&](HostTensor& h, const DLTensor* t) {
          download(h.bytes.data(), data_of(t), h.bytes.size());
        });
      const std::vector<double> scalars(a->scalars, a->scalars + a->num_scalars);
      // The module's word, zeroed once (not per launch); read below, after the wait.
      word_->note_extents(extents_of(a));
      p.error = word_->device_ptr();
      launch_cuda_sequences(*device_, *module_, info_, p, sequences, scalars, named, split_);
      if (std::string error = word_->take(); !error.empty()) return fail(a, error);
    } catch (const CudaError& e) {
      return fail(a, e.what());
    } catch (const std::invalid_argument& e) {  // a buffer the tile plan cannot read
      return fail(a, e.what());
    }
    return 0;
  }

  int launch_on(const attn_kernel_args* a, void* stream) const override {
    attn_cuda_params p;
    if (std::string why = fill_params(a, p); !why.empty()) return fail(a, why);
    try {
      // Nothing shared between launches but the error word: every launch's scratch is its own,
      // in stream order.
      CudaStreamScratch scratch(*device_, stream);
      auto download = [&](void* dst, const void* src, size_t bytes) {
        scratch.download(dst, reinterpret_cast<uint64_t>(src), bytes);
      };
      std::vector<CudaSequence> sequences;
      if (std::string why = read_sequences(a, sequences, download); !why.empty()) return fail(a, why);
      std::vector<HostTensor> host;
      std::vector<CudaTensorArg> named;
      if (!info_.tile_plan.empty()) {
        host_buffers(a, host, named, [&](HostTensor& h, const DLTensor* t) {
          download(h.bytes.data(), data_of(t), h.bytes.size());
        });
        // That download waited for the stream: an earlier launch's error is known now.
        if (std::string error = word_->take(); !error.empty()) return fail(a, "an earlier launch: " + error);
      }
      const std::vector<double> scalars(a->scalars, a->scalars + a->num_scalars);
      // The module's word (zeroed once, never per launch: no memset, no wait); read at the next
      // synchronization: take_error(), attnc.check_errors(), or the wait above.
      word_->note_extents(extents_of(a));
      p.error = word_->device_ptr();
      for_each_cuda_launch(p, sequences, elem_bytes(), [&](attn_cuda_params& one) {
        std::vector<int> rows, runs;
        if (!info_.tile_plan.empty() &&
            plan_tile_runs(info_, one.q_len, one.kv_len, scalars, named, rows, runs)) {
          one.tile_rows =
              reinterpret_cast<const int*>(scratch.upload(rows.data(), rows.size() * sizeof(int)));
          one.tile_runs =
              reinterpret_cast<const int*>(scratch.upload(runs.data(), runs.size() * sizeof(int)));
        }
        const CudaGrid g = plan_cuda_grid(info_, device_->sm_count(), one.batch, one.q_heads, one.kv_heads,
                                          one.q_len, one.kv_len);
        attach_split_scratch(scratch, one, g, info_.value_dim);
        device_->launch(*module_, info_.entry, g.grid, static_cast<unsigned>(info_.threads),
                        static_cast<unsigned>(info_.smem_bytes), &one, sizeof one, stream);
      });
    } catch (const CudaError& e) {
      return fail(a, e.what());
    } catch (const std::invalid_argument& e) {  // a buffer the tile plan cannot read
      return fail(a, e.what());
    }
    return 0;
  }

  std::string take_error() const override { return word_->synchronize_and_take(); }

 private:
  /// The extents of `a`'s buffers, for the message of an out-of-range report.
  static std::vector<std::vector<long long>> extents_of(const attn_kernel_args* a) {
    std::vector<std::vector<long long>> out;
    for (int i = 0; i < a->num_buffers; ++i)
      out.emplace_back(a->buffers[i]->shape, a->buffers[i]->shape + a->buffers[i]->ndim);
    return out;
  }

  /// Whether `a` is a ragged batch (cu_seqlens).
  static bool is_ragged(const attn_kernel_args* a) {
    return a->abi_version >= 5 && (a->cu_seqlens_q || a->cu_seqlens_k);
  }

  /// The sequences of a ragged `a` into `out` (none for a dense batch): its boundaries read from
  /// CPU memory, or from GPU memory through `download` (a wait for the device). "" or the message.
  template <class Download>
  std::string read_sequences(const attn_kernel_args* a, std::vector<CudaSequence>& out,
                             Download&& download) const {
    out.clear();
    if (!is_ragged(a)) return {};
    std::vector<int64_t> cu[2];
    const DLTensor* given[2] = {a->cu_seqlens_q, a->cu_seqlens_k};
    const char* names[2] = {"cu_seqlens_q", "cu_seqlens_k"};
    for (int i = 0; i < 2; ++i) {
      const DLTensor* t = given[i];
      const std::string name = names[i];
      if (!t) return "a ragged batch needs both cu_seqlens_q and cu_seqlens_k; " + name + " is NULL";
      const bool i32 = t->dtype.code == kDLInt && t->dtype.bits == 32 && t->dtype.lanes == 1;
      const bool i64 = t->dtype.code == kDLInt && t->dtype.bits == 64 && t->dtype.lanes == 1;
      if (!i32 && !i64) return name + " must hold i32 (or i64)";
      if (t->ndim != 1 || t->shape[0] < 1 || !t->data)
        return name + " must be 1-D with at least one entry (sequences + 1)";
      const long long stride = strides_of(t)[0];
      if (stride < 1) return name + " must have a positive stride";
      const size_t es = i32 ? 4 : 8, bytes = static_cast<size_t>((t->shape[0] - 1) * stride + 1) * es;
      std::vector<char> raw(bytes);
      if (t->device.device_type == kDLCUDA)
        download(raw.data(), data_of(t), bytes);
      else if (t->device.device_type == kDLCPU || t->device.device_type == kDLCUDAHost)
        std::memcpy(raw.data(), data_of(t), bytes);
      else
        return name + " must be in CPU or GPU memory";
      cu[i].resize(static_cast<size_t>(t->shape[0]));
      for (int64_t j = 0; j < t->shape[0]; ++j) {
        const char* at = raw.data() + static_cast<size_t>(j * stride) * es;
        int32_t small = 0;
        if (i32)
          std::memcpy(&small, at, 4), cu[i][static_cast<size_t>(j)] = small;
        else
          std::memcpy(&cu[i][static_cast<size_t>(j)], at, 8);
      }
    }
    return cuda_sequences(cu[0], cu[1], a->q->shape[0], a->k->shape[0], out);
  }

  /// Bytes of a Q/K/V/Out element.
  size_t elem_bytes() const { return info_.dtype == ScalarType::F32 ? 4 : 2; }

  /// The parameter block of `a` but its error word, tile plan and split workspace; an empty
  /// string, or what does not fit. A ragged batch's block points at the packed tensors' first rows
  /// with strides {0, head, token} (runtime/CudaRagged.h), its lengths the packed totals.
  std::string fill_params(const attn_kernel_args* a, attn_cuda_params& p) const {
    if (!a || a->abi_version < 1 || a->abi_version > ATTN_KERNEL_ABI_VERSION)
      return "attn_kernel_args version mismatch";
    if (a->abi_version >= 6 && (a->page_table || a->kv_lens))
      return "the cuda target does not take paged KV caches yet; the cpu target does";
    if (a->abi_version >= 7 && (a->q_descale || a->k_descale || a->v_descale))
      return "the cuda target runs no fp8 kernel, and descale factors are for fp8 kernels (the cpu target's)";
    const bool ragged = is_ragged(a);
    // [B, H, L, C] dense, [T, H, C] ragged: where the rows are counted.
    const int rank = ragged ? 3 : 4, row_dim = ragged ? 0 : 2;
    const DLTensor* qkv[] = {a->q, a->k, a->v, a->out};
    for (const DLTensor* t : qkv) {
      if (!t || t->ndim != rank)
        return ragged ? "a ragged batch's q, k, v and out must be 3-D tensors [T, H, D]"
                      : "q, k, v and out must be 4-D tensors [B, H, L, D]";
      if (t->device.device_type != kDLCUDA) return "the cuda target takes tensors in GPU memory (kDLCUDA)";
      if (!dtype_is(t, info_.dtype))
        return std::string("q, k, v and out must be ") + scalar_type_name(info_.dtype);
      if (strides_of(t)[rank - 1] != 1) return "the last dimension of q, k, v and out must be contiguous";
      if (info_.needs_16b_rows &&
          ((reinterpret_cast<uintptr_t>(data_of(t)) % 16) != 0 || strides_of(t)[row_dim] % 8 != 0))
        return "the tensor-core kernel needs 16-byte aligned rows";
    }
    if (a->q->shape[rank - 1] != info_.head_dim || a->v->shape[rank - 1] != info_.value_dim)
      return "the kernel was compiled for head_dim " + std::to_string(info_.head_dim) + " and value_dim " +
             std::to_string(info_.value_dim);
    if (ragged) {
      const int64_t *qs = a->q->shape, *ks = a->k->shape, *vs = a->v->shape, *os = a->out->shape;
      if (vs[0] != ks[0] || vs[1] != ks[1] || os[0] != qs[0] || os[1] != qs[1] || os[2] != vs[2])
        return "a ragged batch's k and v must have the same rows and heads, and out must be [Tq, Hq, Dv]";
      if (a->lse && (a->lse->ndim != 2 || a->lse->shape[0] != qs[0] || a->lse->shape[1] != qs[1]))
        return "a ragged batch's lse must be [Tq, Hq]";
    }
    if (a->num_buffers > ATTN_CUDA_MAX_BUFFERS || a->num_scalars > ATTN_CUDA_MAX_SCALARS)
      return "too many kernel arguments";
    std::memset(&p, 0, sizeof p);
    p.q = data_of(a->q);
    p.k = data_of(a->k);
    p.v = data_of(a->v);
    p.out = const_cast<void*>(data_of(a->out));
    const DLTensor* const* tensors[] = {&a->q, &a->k, &a->v, const_cast<const DLTensor* const*>(&a->out)};
    long long* strides[] = {p.q_stride, p.k_stride, p.v_stride, p.out_stride};
    for (int i = 0; i < 4; ++i) {
      std::vector<long long> s = strides_of(*tensors[i]);
      for (int d = 0; d < 3; ++d) strides[i][d] = ragged ? (d == 0 ? 0 : s[2 - d]) : s[d];
    }
    if (a->lse) {
      std::vector<long long> s = strides_of(a->lse);
      p.lse = static_cast<float*>(const_cast<void*>(data_of(a->lse)));
      if (ragged)
        p.lse_stride[0] = 0, p.lse_stride[1] = s[1], p.lse_stride[2] = s[0];
      else
        for (int d = 0; d < 3 && d < a->lse->ndim; ++d) p.lse_stride[d] = s[d];
    }
    // A ragged batch's lengths are the packed totals here; each sequence's launch has its own.
    p.batch = ragged ? 1 : static_cast<int>(a->q->shape[0]);
    p.q_heads = static_cast<int>(a->q->shape[1]);
    p.kv_heads = static_cast<int>(a->k->shape[1]);
    p.q_len = static_cast<int>(a->q->shape[row_dim]);
    p.kv_len = static_cast<int>(a->k->shape[row_dim]);
    if (p.kv_heads <= 0 || p.q_heads % p.kv_heads != 0)
      return "query heads must be a multiple of key/value heads";
    p.scale = static_cast<float>(info_.scale);
    p.scale_log2 = static_cast<float>(info_.scale * 1.4426950408889634);
    for (int i = 0; i < a->num_buffers; ++i) {
      const DLTensor* t = a->buffers[i];
      if (t->ndim > ATTN_CUDA_MAX_RANK) return "tensor arguments have at most 4 dimensions";
      if (t->device.device_type != kDLCUDA) return "the cuda target takes tensors in GPU memory (kDLCUDA)";
      std::vector<long long> s = strides_of(t);
      p.buffers[i].data = data_of(t);
      p.buffers[i].rank = t->ndim;
      for (int d = 0; d < t->ndim; ++d) {
        p.buffers[i].shape[d] = t->shape[d];
        p.buffers[i].stride[d] = s[d];
      }
    }
    for (int i = 0; i < a->num_scalars; ++i) p.scalars[i] = a->scalars[i];
    return {};
  }

  /// Host copies of the call's buffers (dense), named for the tile planner; `copy` fills each.
  template <class Copy>
  void host_buffers(const attn_kernel_args* a, std::vector<HostTensor>& host,
                    std::vector<CudaTensorArg>& named, Copy&& copy) const {
    host.reserve(static_cast<size_t>(a->num_buffers));
    for (int i = 0; i < a->num_buffers; ++i) {
      const DLTensor* t = a->buffers[i];
      host.emplace_back(dl_scalar_type(t->dtype), std::vector<int64_t>(t->shape, t->shape + t->ndim));
      copy(host.back(), t);
      named.push_back(
          {i < static_cast<int>(info_.buffer_names.size()) ? info_.buffer_names[i] : "", &host.back()});
    }
  }

  std::shared_ptr<CudaDevice> device_;
  std::shared_ptr<CudaModule> module_;
  CudaLaunchInfo info_;
  std::shared_ptr<CudaErrorWord> word_;  // the module's error word, shared by invoke and launch_on
  mutable CudaSplitWorkspace split_;     // split-KV partial rows and counters, grown on demand (under mutex_)
  mutable std::mutex mutex_;
};

class CudaCompiler : public Compiler {
 public:
  explicit CudaCompiler(CudaCompilerOptions o) : options_(std::move(o)) {}

  std::string target() const override { return "cuda"; }

  std::string fingerprint(const KernelRequest&) const override {
    try {
      return "nvrtc " + nvrtc_version() + " arch " + arch() + " include " + nvrtc_include_dir({});
    } catch (const CudaCompileError& e) {
      throw LoadError(LoadErrorKind::CompileFailed, e.what());
    }
  }

  std::vector<uint8_t> compile(const KernelRequest& request) const override {
    NvrtcOptions o;
    o.arch = arch();
    o.extra = request.flags;
    try {
      return nvrtc_compile(request.source, request.entry + ".cu", o).cubin;
    } catch (const CudaCompileError& e) {
      throw LoadError(LoadErrorKind::CompileFailed, e.what());
    }
  }

  std::shared_ptr<const KernelModule> load(const std::vector<uint8_t>& artifact,
                                           const KernelRequest& request) const override {
    CudaLaunchInfo info;
    try {
      info =
          request.info.empty() ? parse_cuda_launch_info(request.source) : read_cuda_launch_info(request.info);
    } catch (const std::invalid_argument& e) {
      throw LoadError(LoadErrorKind::LoadFailed, e.what());
    }
    if (info.entry != request.entry)
      throw LoadError(LoadErrorKind::MissingEntry,
                      "the source's kernel is '" + info.entry + "', not '" + request.entry + "'");
    try {
      std::shared_ptr<CudaDevice> dev = device();
      std::shared_ptr<CudaModule> module = dev->load(artifact);
      try {
        module->function(request.entry);
      } catch (const CudaError& e) {
        throw LoadError(LoadErrorKind::MissingEntry, e.what());
      }
      return std::make_shared<CudaModuleAdapter>(dev, module, info);
    } catch (const CudaError& e) {
      throw LoadError(LoadErrorKind::LoadFailed, e.what());
    }
  }

 private:
  std::shared_ptr<CudaDevice> device() const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!device_) device_ = CudaDevice::open(options_.device);
    return device_;
  }
  std::string arch() const {
    if (!options_.arch.empty()) return options_.arch;
    try {
      const int sm = device()->sm();
      return "sm_" + std::to_string(sm) + (sm == 90 ? "a" : "");
    } catch (const CudaError& e) {
      throw LoadError(LoadErrorKind::CompileFailed,
                      std::string(e.what()) + " (set an arch to compile without a GPU)");
    }
  }

  CudaCompilerOptions options_;
  mutable std::mutex mutex_;
  mutable std::shared_ptr<CudaDevice> device_;
};

}  // namespace

std::unique_ptr<Compiler> make_cuda_compiler(const CudaCompilerOptions& options) {
  return std::make_unique<CudaCompiler>(options);
}

}  // namespace attn
