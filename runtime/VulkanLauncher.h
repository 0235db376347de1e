// The Vulkan launcher: loads the Vulkan loader at run time (dlopen), picks a compute device,
// builds compute pipelines from SPIR-V and dispatches them over host-visible storage buffers.
// Knows nothing about attention: backends/spirv describes bindings and push constants.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace attn::vk {

/// No loader, no device, or a failing Vulkan call: the message says which and what to do.
struct VulkanError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// What the chosen device offers to the compiler.
struct DeviceInfo {
  std::string name;
  std::string type;          ///< discrete, integrated, virtual, cpu, other
  int api_minor = 1;         ///< Vulkan 1.x usable with this instance and device
  int subgroup_size = 0;     ///< 0 when compute shaders cannot shuffle within subgroups
  bool f16_storage = false;  ///< storageBuffer16BitAccess
  int shared_bytes = 16384;  ///< maxComputeSharedMemorySize
  bool staging = false;      ///< buffers live in device-local memory, filled through staging copies
  uint32_t max_groups[3] = {65535, 65535, 65535};
};

/// One storage buffer of a dispatch: its bytes go to the device, and come back when `read_back`.
struct BufferBinding {
  std::vector<uint8_t>* data = nullptr;
  bool read_back = false;
};

/// A compute pipeline built from one module; released with its last reference.
class Pipeline {
 public:
  virtual ~Pipeline() = default;
};

/// One compute dispatch.
struct Dispatch {
  std::vector<BufferBinding> buffers;   ///< descriptor set 0, binding i = buffers[i]
  std::vector<uint8_t> push_constants;  ///< a multiple of 4 bytes, at most 128
  uint32_t groups[3] = {1, 1, 1};
  int repeat = 1;  ///< dispatches in a row (for timing); the results are those of the last
};

/// A Vulkan instance and logical device, shared by the process. Caching pipelines is the
/// caller's business (runtime/VulkanCompiler.h does it for attn::Loader).
class VulkanDevice {
 public:
  /// The process-wide device, created on first use. `ATTNC_VULKAN_DEVICE` picks one by index or
  /// by a substring of its name; otherwise a discrete GPU is preferred, then integrated, virtual,
  /// CPU. `ATTNC_VULKAN_LOADER` names the loader library (default libvulkan.so.1).
  static std::shared_ptr<VulkanDevice> get();

  virtual ~VulkanDevice() = default;
  virtual const DeviceInfo& info() const = 0;
  /// What identifies the device and driver build a pipeline-cache blob belongs to.
  virtual std::string identity() const = 0;
  /// Builds the pipeline of `spirv` (entry "main", `bindings` storage buffers in set 0,
  /// `push_bytes` of push constants) through a pipeline cache seeded with `cache_blob`, a blob of
  /// an earlier build (the driver ignores one of another device or driver); `blob_out`, when
  /// given, receives the cache's blob afterwards. Throws VulkanError.
  virtual std::shared_ptr<const Pipeline> build_pipeline(const std::vector<uint32_t>& spirv,
                                                         uint32_t bindings, uint32_t push_bytes,
                                                         const std::vector<uint8_t>& cache_blob,
                                                         std::vector<uint8_t>* blob_out) = 0;
  /// Runs `d` on `pipeline` to completion (buffers read back when asked). Returns the GPU time of one
  /// dispatch in milliseconds from timestamp queries (uploads and read-backs excluded), or -1 when the queue
  /// has no timestamps. Throws VulkanError.
  virtual double run(const Pipeline& pipeline, const Dispatch& d) = 0;
};

}  // namespace attn::vk
