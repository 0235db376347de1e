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
      std::vector<int32_t> table;
      int64_t max_pages = 0;
      if (std::string why = read_sequences(a, sequences, table, max_pages, download); !why.empty())
        return fail(a, why);
      CudaBuffer table_memory;  // a paged cache's table, checked on the host, for the kernels
      if (!table.empty()) {
        table_memory = device_->alloc(table.size() * sizeof(int32_t));
        device_->upload(table_memory, table.data(), table.size() * sizeof(int32_t));
        p.page_table = reinterpret_cast<const int*>(table_memory.ptr());
      }
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
      launch_cuda_sequences(*device_, *module_, info_, p, sequences, max_pages, scalars, named, split_);
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
      std::vector<int32_t> table;
      int64_t max_pages = 0;
      if (std::string why = read_sequences(a, sequences, table, max_pages, download); !why.empty())
        return fail(a, why);
      if (!table.empty())  // a paged cache's table, checked on the host, for the kernels
        p.page_table =
            reinterpret_cast<const int*>(scratch.upload(table.data(), table.size() * sizeof(int32_t)));
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
      for_each_cuda_launch(p, sequences, elem_bytes(), max_pages, [&](attn_cuda_params& one) {
        std::vector<int> rows, runs;
        if (!info_.tile_plan.empty() &&
            plan_tile_runs(info_, one.q_len, one.kv_len, scalars, named, rows, runs)) {
          one.tile_rows =
              reinterpret_cast<const int*>(scratch.upload(rows.data(), rows.size() * sizeof(int)));
          one.tile_runs =
              reinterpret_cast<const int*>(scratch.upload(runs.data(), runs.size() * sizeof(int)));
        }
        const CudaGrid g = plan_launch_grid(info_, device_->sm_count(), one);
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

  /// Whether `a` is a ragged batch (cu_seqlens) or a paged cache (page_table, kv_lens).
  static bool is_paged(const attn_kernel_args* a) {
    return a->abi_version >= 6 && (a->page_table || a->kv_lens);
  }
  static bool is_ragged(const attn_kernel_args* a) {
    return is_paged(a) || (a->abi_version >= 5 && (a->cu_seqlens_q || a->cu_seqlens_k));
  }

  /// The i32 (or i64) entries of `t` (`name`, `rank` dimensions, row-major, rows of `t->shape[1]`
  /// entries when 2-D) into `out`: read from CPU memory, or from GPU memory through `download` (a
  /// wait for the device). "" or the message.
  template <class Download>
  static std::string read_table(const DLTensor* t, const std::string& name, int rank,
                                std::vector<int64_t>& out, Download&& download) {
    const bool i32 = t->dtype.code == kDLInt && t->dtype.bits == 32 && t->dtype.lanes == 1;
    const bool i64 = t->dtype.code == kDLInt && t->dtype.bits == 64 && t->dtype.lanes == 1;
    if (!i32 && !i64) return name + " must hold i32";
    if (t->ndim != rank || t->shape[0] < (rank == 1 ? 1 : 0) || (!t->data && t->shape[0] > 0))
      return name +
             (rank == 1 ? " must be 1-D with at least one entry" : " must be 2-D [sequences, max_pages]");
    const std::vector<long long> st = strides_of(t);
    const int64_t rows = t->shape[0], cols = rank == 2 ? t->shape[1] : 1;
    const long long row_stride = st[0], col_stride = rank == 2 ? st[1] : 1;
    if (row_stride < 0 || col_stride < 0) return name + " must have non-negative strides";
    out.assign(static_cast<size_t>(rows * cols), 0);
    if (out.empty()) return {};
    const size_t es = i32 ? 4 : 8;
    const size_t bytes = static_cast<size_t>((rows - 1) * row_stride + (cols - 1) * col_stride + 1) * es;
    std::vector<char> raw(bytes);
    if (t->device.device_type == kDLCUDA)
      download(raw.data(), data_of(t), bytes);
    else if (t->device.device_type == kDLCPU || t->device.device_type == kDLCUDAHost)
      std::memcpy(raw.data(), data_of(t), bytes);
    else
      return name + " must be in CPU or GPU memory";
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) {
        const char* at = raw.data() + static_cast<size_t>(r * row_stride + c * col_stride) * es;
        int32_t small = 0;
        int64_t& v = out[static_cast<size_t>(r * cols + c)];
        if (i32)
          std::memcpy(&small, at, 4), v = small;
        else
          std::memcpy(&v, at, 8);
      }
    return {};
  }

  /// The sequences of a ragged `a` or paged cache into `out` (none for a dense batch), and a paged
  /// cache's table as i32 rows of `max_pages` into `table`. "" or the message.
  template <class Download>
  std::string read_sequences(const attn_kernel_args* a, std::vector<CudaSequence>& out,
                             std::vector<int32_t>& table, int64_t& max_pages, Download&& download) const {
    out.clear(), table.clear(), max_pages = 0;
    if (!is_ragged(a)) return {};
    std::vector<int64_t> cu_q, cu_k;
    if (!a->cu_seqlens_q) return "a ragged batch or paged cache needs cu_seqlens_q";
    if (std::string why = read_table(a->cu_seqlens_q, "cu_seqlens_q", 1, cu_q, download); !why.empty())
      return why;
    if (!is_paged(a)) {
      if (!a->cu_seqlens_k)
        return "a ragged batch needs both cu_seqlens_q and cu_seqlens_k; cu_seqlens_k is NULL";
      if (std::string why = read_table(a->cu_seqlens_k, "cu_seqlens_k", 1, cu_k, download); !why.empty())
        return why;
      return check_ragged_layout(cu_q, cu_k, a->q->shape[0], a->k->shape[0], out);
    }
    if (a->cu_seqlens_k) return "a paged KV cache takes its key lengths from kv_lens, not cu_seqlens_k";
    if (!a->page_table || !a->kv_lens) return "a paged KV cache needs both page_table and kv_lens";
    std::vector<int64_t> entries, lens;
    if (std::string why = read_table(a->page_table, "page_table", 2, entries, download); !why.empty())
      return why;
    if (std::string why = read_table(a->kv_lens, "kv_lens", 1, lens, download); !why.empty()) return why;
    PagedLayout layout;
    layout.table.assign(entries.begin(), entries.end());
    layout.kv_lens.assign(lens.begin(), lens.end());
    layout.max_pages = a->page_table->shape[1], layout.pages = a->k->shape[0],
    layout.page_size = a->k->shape[1];
    if (a->page_table->shape[0] != static_cast<int64_t>(cu_q.size()) - 1)
      return "page_table must be i32 [" + std::to_string(cu_q.size() - 1) +
             ", max_pages] (one row per sequence)";
    table = layout.table, max_pages = layout.max_pages;
    return check_paged_layout(cu_q, layout, a->q->shape[0], out);
  }

  /// Bytes of a Q/K/V/Out element.
  size_t elem_bytes() const { return info_.dtype == ScalarType::F32 ? 4 : 2; }

  /// The parameter block of `a` but its error word, tile plan and split workspace; an empty
  /// string, or what does not fit. A ragged batch's block points at the packed tensors' first rows
  /// with strides {0, head, token} (runtime/CudaRagged.h), its lengths the packed totals.
  std::string fill_params(const attn_kernel_args* a, attn_cuda_params& p) const {
    if (!a || a->abi_version < 1 || a->abi_version > ATTN_KERNEL_ABI_VERSION)
      return "attn_kernel_args version mismatch";
    if (a->abi_version >= 7 && (a->q_descale || a->k_descale || a->v_descale))
      return "the cuda target runs no fp8 kernel, and descale factors are for fp8 kernels (the cpu target's)";
    const bool ragged = is_ragged(a), paged = is_paged(a);
    // Dense [B, H, L, C]; ragged [T, H, C]; a paged cache's K and V [pages, page_size, H, C].
    const int q_rank = ragged ? 3 : 4, kv_rank = paged ? 4 : q_rank;
    const DLTensor* qkv[] = {a->q, a->k, a->v, a->out};
    for (const DLTensor* t : qkv) {
      const int rank = t == a->k || t == a->v ? kv_rank : q_rank;
      if (!t || t->ndim != rank)
        return paged ? "a paged call's q and out must be 3-D [T, H, D], k and v 4-D [pages, page_size, H, D]"
               : ragged ? "a ragged batch's q, k, v and out must be 3-D tensors [T, H, D]"
                        : "q, k, v and out must be 4-D tensors [B, H, L, D]";
      if (t->device.device_type != kDLCUDA) return "the cuda target takes tensors in GPU memory (kDLCUDA)";
      if (!dtype_is(t, info_.dtype))
        return std::string("q, k, v and out must be ") + scalar_type_name(info_.dtype);
      const std::vector<long long> st = strides_of(t);
      if (st[rank - 1] != 1) return "the last dimension of q, k, v and out must be contiguous";
      bool rows_aligned = st[ragged && rank == 3 ? 0 : 2] % 8 == 0;  // a row is a token; pages too
      if (paged && rank == 4) rows_aligned = st[0] % 8 == 0 && st[1] % 8 == 0 && st[2] % 8 == 0;
      if (info_.needs_16b_rows && ((reinterpret_cast<uintptr_t>(data_of(t)) % 16) != 0 || !rows_aligned))
        return "the tensor-core kernel needs 16-byte aligned rows";
    }
    if (a->q->shape[q_rank - 1] != info_.head_dim || a->v->shape[kv_rank - 1] != info_.value_dim)
      return "the kernel was compiled for head_dim " + std::to_string(info_.head_dim) + " and value_dim " +
             std::to_string(info_.value_dim);
    if (ragged) {
      const int64_t *qs = a->q->shape, *ks = a->k->shape, *vs = a->v->shape, *os = a->out->shape;
      for (int d = 0; d + 1 < kv_rank; ++d)
        if (vs[d] != ks[d]) return "k and v must have the same shape but for the last dimension";
      if (os[0] != qs[0] || os[1] != qs[1] || os[2] != vs[kv_rank - 1])
        return "a ragged batch's or paged call's out must be [Tq, Hq, Dv]";
      if (a->lse && (a->lse->ndim != 2 || a->lse->shape[0] != qs[0] || a->lse->shape[1] != qs[1]))
        return "a ragged batch's or paged call's lse must be [Tq, Hq]";
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
      const std::vector<long long> s = strides_of(*tensors[i]);
      if ((i == 1 || i == 2) && paged)  // {0, head, row in a page}; pages k_page_stride apart
        strides[i][0] = 0, strides[i][1] = s[2], strides[i][2] = s[1];
      else if (ragged)  // {0, head, token}
        strides[i][0] = 0, strides[i][1] = s[1], strides[i][2] = s[0];
      else
        for (int d = 0; d < 3; ++d) strides[i][d] = s[d];
    }
    if (paged) {
      p.k_page_stride = strides_of(a->k)[0], p.v_page_stride = strides_of(a->v)[0];
      p.page_size = static_cast<int>(a->k->shape[1]);
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
    p.kv_heads = static_cast<int>(a->k->shape[paged ? 2 : 1]);
    p.q_len = static_cast<int>(a->q->shape[ragged ? 0 : 2]);
    p.kv_len = paged ? 0 : static_cast<int>(a->k->shape[ragged ? 0 : 2]);
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
