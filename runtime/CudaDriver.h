// The CUDA driver API, loaded with dlopen("libcuda.so.1") (never linked): one device's primary
// context, device memory, modules and launches. Without a driver or a GPU every entry point
// throws CudaError with a clear message ("no CUDA driver", "no CUDA device").
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace attn {

/// A CUDA driver or device failure; the message names the call and the driver's error.
struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// True when libcuda.so.1 loads and cuInit succeeds with at least one device.
bool cuda_driver_available(std::string* why = nullptr);

class CudaModule;

/// Device memory owned by this object.
class CudaBuffer {
 public:
  CudaBuffer() = default;
  CudaBuffer(CudaBuffer&& o) noexcept : ptr_(o.ptr_), size_(o.size_), owned_(o.owned_) { o.ptr_ = 0; }
  CudaBuffer& operator=(CudaBuffer&& o) noexcept;
  ~CudaBuffer();
  uint64_t ptr() const { return ptr_; }
  size_t size() const { return size_; }
  /// A view of device memory owned elsewhere (not freed by this object).
  static CudaBuffer borrow(uint64_t ptr, size_t size) {
    CudaBuffer b;
    b.ptr_ = ptr;
    b.size_ = size;
    b.owned_ = false;
    return b;
  }

 private:
  friend class CudaDevice;
  uint64_t ptr_ = 0;
  size_t size_ = 0;
  bool owned_ = true;
};

/// One GPU (its primary context, made current on the calling thread by every method).
class CudaDevice {
 public:
  /// Opens device `ordinal`; throws CudaError ("no CUDA driver: ...", "no CUDA device").
  static std::shared_ptr<CudaDevice> open(int ordinal = 0);
  ~CudaDevice();

  std::string name() const { return name_; }
  /// Compute capability as major * 10 + minor (80, 90, ...).
  int sm() const { return sm_; }
  /// Streaming multiprocessors.
  int sm_count() const { return sm_count_; }

  CudaBuffer alloc(size_t bytes);
  void upload(const CudaBuffer& dst, const void* src, size_t bytes);
  void download(void* dst, const CudaBuffer& src, size_t bytes);
  void zero(const CudaBuffer& dst);

  /// Loads a cubin; throws CudaError when the driver rejects it (wrong architecture, ...).
  std::shared_ptr<CudaModule> load(const std::vector<uint8_t>& cubin);
  /// Launches `entry` of `module` with one by-value parameter block of `param_bytes`, on `stream`
  /// (a CUstream of this device's primary context; null: the legacy default stream).
  void launch(const CudaModule& module, const std::string& entry, const unsigned (&grid)[3], unsigned threads,
              unsigned smem_bytes, const void* params, size_t param_bytes, void* stream = nullptr);
  /// Waits for all launches; a fault in a kernel surfaces here.
  void synchronize();
  /// Milliseconds one call of `work` takes on the device, measured with events.
  template <class F>
  float time_ms(F&& work) {
    record_start();
    work();
    return record_stop();
  }

 private:
  CudaDevice() = default;
  friend class CudaStreamScratch;
  friend class CudaGraph;
  void make_current() const;
  void record_start();
  float record_stop();
  int ordinal_ = 0;
  void* ctx_ = nullptr;
  void* events_[2] = {nullptr, nullptr};
  std::string name_;
  int sm_ = 0, sm_count_ = 0;
};

/// Device memory for the launches of one call on a caller's stream (a CUstream, such as PyTorch's
/// current stream): allocated, filled and freed in stream order (cuMemAllocAsync, cuMemFreeAsync),
/// so it stays valid for every launch enqueued on the stream before this object goes, and nothing
/// waits for the device except download().
class CudaStreamScratch {
 public:
  CudaStreamScratch(CudaDevice& device, void* stream);
  ~CudaStreamScratch();  ///< frees what it allocated, in stream order
  CudaStreamScratch(const CudaStreamScratch&) = delete;
  CudaStreamScratch& operator=(const CudaStreamScratch&) = delete;
  /// `bytes` of device memory (at least 4), zeroed in stream order when `zeroed`.
  uint64_t alloc(size_t bytes, bool zeroed = false);
  /// A device copy of `bytes` at `src`, in stream order (`src` may go when this returns).
  uint64_t upload(const void* src, size_t bytes);
  /// Copies `bytes` from device address `src` to device address `dst`, in stream order.
  void copy(uint64_t dst, uint64_t src, size_t bytes);
  /// Zeroes `bytes` of device memory at `dst` (the caller's), in stream order.
  void zero(uint64_t dst, size_t bytes);
  /// Copies `bytes` at device address `src` to `dst` after the stream's earlier work (waits for it).
  void download(void* dst, uint64_t src, size_t bytes);
  CudaDevice& device() const { return device_; }
  void* stream() const { return stream_; }

 private:
  CudaDevice& device_;
  void* stream_;
  std::vector<uint64_t> owned_;
};

/// Work captured once into a CUDA graph on a stream of its own, then replayed (what a server does
/// with its decoding steps). The capture is in global mode: a call that allocates, copies from
/// pageable memory or waits while it runs fails the capture, and the constructor throws
/// CudaError naming it.
class CudaGraph {
 public:
  /// Captures what `enqueue` puts on the stream it is given.
  CudaGraph(CudaDevice& device, const std::function<void(void* stream)>& enqueue);
  ~CudaGraph();
  CudaGraph(const CudaGraph&) = delete;
  CudaGraph& operator=(const CudaGraph&) = delete;
  /// Launches the graph on its stream and waits for it.
  void replay();
  /// Milliseconds per replay over `times` replays back to back on its stream (CUDA events there).
  float replay_ms(int times);

 private:
  void release();
  CudaDevice& device_;
  void* stream_ = nullptr;
  void* graph_ = nullptr;
  void* exec_ = nullptr;
};

/// A loaded module; functions are looked up by name.
class CudaModule {
 public:
  ~CudaModule();
  /// The CUfunction handle of `entry`; throws CudaError when it is missing.
  void* function(const std::string& entry) const;

 private:
  friend class CudaDevice;
  void* module_ = nullptr;
};

}  // namespace attn
