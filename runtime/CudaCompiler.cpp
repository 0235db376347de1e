// CudaCompiler: keys include NVRTC's version and the target arch; the artifact is the cubin;
// a module fills the parameter block from DLPack tensors and launches through the driver.
#include "runtime/CudaCompiler.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <stdexcept>

#include "attn/cuda_abi.h"
#include "runtime/CudaDriver.h"
#include "runtime/CudaErrorWord.h"
#include "runtime/CudaKernelArgs.h"
#include "runtime/CudaLaunchPlan.h"
#include "runtime/CudaLauncher.h"
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

class CudaModuleAdapter : public CudaKernelModule {
 public:
  CudaModuleAdapter(std::shared_ptr<CudaDevice> device, std::shared_ptr<CudaModule> module,
                    CudaLaunchInfo info)
      : device_(std::move(device)),
        module_(std::move(module)),
        info_(std::move(info)),
        word_(CudaErrorWord::make(device_, info_.buffer_names)) {}

  int invoke(const attn_kernel_args* a) const override {
    // The legacy default stream, then one wait: the plan's memory goes with the scratch.
    if (int rc = launch_on(a, nullptr); rc != 0) return rc;
    try {
      if (std::string error = word_->synchronize_and_take(); !error.empty()) return fail(a, error);
    } catch (const CudaError& e) {
      return fail(a, e.what());
    }
    return 0;
  }

  int launch_on(const attn_kernel_args* a, void* stream) const override {
    attn_cuda_params p;
    if (std::string why = fill_cuda_params(info_, a, p); !why.empty()) return fail(a, why);
    try {
      // Nothing shared between launches but the error word: every call's plan is placed in
      // scratch of its own, in stream order.
      CudaStreamScratch scratch(*device_, stream);
      std::string why;
      const CudaLaunchPlan plan = plan_call(
          a, p,
          [&](void* dst, const void* src, size_t bytes) {
            scratch.download(dst, reinterpret_cast<uint64_t>(src), bytes);
          },
          why);
      if (!why.empty()) return fail(a, why);
      launch_cuda_plan(*device_, *module_, info_, p, plan, place_cuda_plan(scratch, plan), stream);
    } catch (const CudaError& e) {
      return fail(a, e.what());
    } catch (const std::invalid_argument& e) {  // a buffer the tile plan cannot read
      return fail(a, e.what());
    }
    return 0;
  }

  std::shared_ptr<const CudaCallPlan> plan(const attn_kernel_args* a) const override {
    attn_cuda_params p;
    if (std::string why = fill_cuda_params(info_, a, p); !why.empty()) return fail(a, why), nullptr;
    try {
      std::string why;
      CudaLaunchPlan plan = plan_call(
          a, p,
          [&](void* dst, const void* src, size_t bytes) {
            device_->download(dst, CudaBuffer::borrow(reinterpret_cast<uint64_t>(src), bytes), bytes);
          },
          why);
      if (!why.empty()) return fail(a, why), nullptr;
      return std::make_shared<const CudaCallPlan>(this, device_, CudaPlacedPlan(*device_, std::move(plan)));
    } catch (const CudaError& e) {
      return fail(a, e.what()), nullptr;
    } catch (const std::invalid_argument& e) {
      return fail(a, e.what()), nullptr;
    }
  }

  int launch_planned(const CudaCallPlan& planned, const attn_kernel_args* a, void* stream) const override {
    if (planned.module != this) return fail(a, "the plan was made by another kernel's plan()");
    attn_cuda_params p;
    if (std::string why = fill_cuda_params(info_, a, p); !why.empty()) return fail(a, why);
    const CudaLaunchPlan& plan = planned.placed.plan();
    if (std::string why = check_planned_call(plan, p); !why.empty()) return fail(a, why);
    try {
      word_->note_extents(extents_of(a));
      p.error = word_->device_ptr();
      launch_cuda_plan(*device_, *module_, info_, p, plan, planned.placed.memory(), stream);
    } catch (const CudaError& e) {
      return fail(a, e.what());
    }
    return 0;
  }

  int plan_calls(const attn_kernel_args* a, std::shared_ptr<const void>& planned) const override {
    planned = plan(a);
    return planned ? 0 : 1;
  }

  int invoke_planned(const void* planned, const attn_kernel_args* a, void* stream) const override {
    if (!planned) return invoke(a);
    return launch_planned(*static_cast<const CudaCallPlan*>(planned), a, stream);
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

  /// The launches of the call `a` (parameter block `p`, whose error word this sets): its layout
  /// and the buffers of a mask that plans its tiles from them read through `download`, then
  /// planned. "" in `why`, or the message.
  CudaLaunchPlan plan_call(const attn_kernel_args* a, attn_cuda_params& p, const CudaDownload& download,
                           std::string& why) const {
    std::vector<CudaSequence> sequences;
    std::vector<int32_t> table;
    int64_t max_pages = 0;
    if ((why = read_cuda_layout(a, sequences, table, max_pages, download)), !why.empty()) return {};
    std::vector<HostTensor> host;
    std::vector<CudaTensorArg> named;
    if (!info_.tile_plan.empty()) {
      host_buffers(a, host, named, [&](HostTensor& h, const DLTensor* t) {
        download(h.bytes.data(), dl_data(t), h.bytes.size());
      });
      // That download waited for the device: an earlier launch's error is known now.
      if (std::string error = word_->take(); !error.empty())
        return why = "an earlier launch: " + error, CudaLaunchPlan{};
    }
    const std::vector<double> scalars(a->scalars, a->scalars + a->num_scalars);
    // The module's word (zeroed once, never per launch: no memset, no wait); read at the next
    // synchronization: take_error(), attnc.check_errors(), or the wait above.
    word_->note_extents(extents_of(a));
    p.error = word_->device_ptr();
    return plan_cuda_launches(info_, device_->sm_count(), p, sequences, std::move(table), max_pages, scalars,
                              named);
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
  std::shared_ptr<CudaErrorWord> word_;  // the module's error word, shared by every launch
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
    info.one_grid =
        std::find(request.flags.begin(), request.flags.end(), kCudaOneGridFlag) != request.flags.end();
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
