// The device error word of a loaded CUDA module: zeroed once, shared by all its launches, read when
// the launcher next synchronizes (so that checking costs a launch nothing).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "attn/cuda_abi.h"
#include "runtime/CudaDriver.h"

namespace attn {

/// One attn_cuda_error in device memory. Kernels write it only on the error path (the first
/// out-of-range read of any launch wins one atomicCAS); nothing zeroes it per launch. The owner
/// reads it after it has synchronized (take()), and only a reported error re-arms it. Every word
/// alive in the process is registered for take_cuda_errors(). Thread-safe.
class CudaErrorWord {
 public:
  /// Allocates and zeroes the word on `device`; `buffer_names` name the kernel's tensor arguments
  /// in order (for the message). Throws CudaError.
  static std::shared_ptr<CudaErrorWord> make(std::shared_ptr<CudaDevice> device,
                                             std::vector<std::string> buffer_names);
  ~CudaErrorWord();
  CudaErrorWord(const CudaErrorWord&) = delete;
  CudaErrorWord& operator=(const CudaErrorWord&) = delete;

  /// What a launch passes as attn_cuda_params::error.
  attn_cuda_error* device_ptr() const { return reinterpret_cast<attn_cuda_error*>(word_.ptr()); }
  /// Records the extents of a launch's buffers (host values, cheap): the message of a later
  /// error quotes the extent of the latest launch.
  void note_extents(std::vector<std::vector<long long>> extents);
  /// The error the word holds, as the CPU words it ("buffer 'doc' index 5 is out of range [0, 5)
  /// in dimension 0"), and the word zeroed again; empty when it holds none. The caller has
  /// synchronized with every launch it wants covered (a copy of 24 bytes, no other wait).
  std::string take();
  /// synchronize() on the word's device, then take().
  std::string synchronize_and_take();

 private:
  CudaErrorWord(std::shared_ptr<CudaDevice> device, std::vector<std::string> names);
  std::shared_ptr<CudaDevice> device_;
  CudaBuffer word_;
  std::vector<std::string> names_;
  std::vector<std::vector<long long>> extents_;
  std::mutex mutex_;
};

/// Waits for every device with a live error word, then takes each word's error: the messages of
/// the words that held one (each word re-armed). What Python's attnc.check_errors() raises from.
std::vector<std::string> take_cuda_errors();

/// The message of an out-of-range report: "buffer 'NAME' index I is out of range [0, N) in
/// dimension D" (the CPU's and the reference's wording).
std::string cuda_out_of_range_message(const std::string& name, long long index, long long extent, int dim);

}  // namespace attn
