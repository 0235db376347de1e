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

/// Where pipeline-cache blobs persist between processes (the loader's disk cache plugs in here).
class PipelineCacheStore {
 public:
  virtual ~PipelineCacheStore() = default;
  /// The blob stored under `key`, or empty.
  virtual std::vector<uint8_t> load(const std::string& key) = 0;
  virtual void store(const std::string& key, const std::vector<uint8_t>& blob) = 0;
};

/// One storage buffer of a dispatch: its bytes go to the device, and come back when `read_back`.
struct BufferBinding {
  std::vector<uint8_t>* data = nullptr;
  bool read_back = false;
};

/// One compute dispatch.
struct Dispatch {
  const std::vector<uint32_t>* spirv = nullptr;
  std::vector<BufferBinding> buffers;   ///< descriptor set 0, binding i = buffers[i]
  std::vector<uint8_t> push_constants;  ///< a multiple of 4 bytes, at most 128
  uint32_t groups[3] = {1, 1, 1};
  int repeat = 1;  ///< dispatches in a row (for timing); the results are those of the last
};

/// A Vulkan instance and logical device, shared by the process (pipelines are cached per module).
class VulkanDevice {
 public:
  /// The process-wide device, created on first use. `ATTNC_VULKAN_DEVICE` picks one by index or
  /// by a substring of its name; otherwise a discrete GPU is preferred, then integrated, virtual,
  /// CPU. `ATTNC_VULKAN_LOADER` names the loader library (default libvulkan.so.1). Its pipeline
  /// cache persists in the loader's disk cache (runtime/VulkanPipelineCache.h).
  static std::shared_ptr<VulkanDevice> get();

  virtual ~VulkanDevice() = default;
  virtual const DeviceInfo& info() const = 0;
  /// Runs `d` to completion (buffers read back when asked). Returns the GPU time of one dispatch
  /// in milliseconds from timestamp queries (uploads and read-backs excluded), or -1 when the
  /// queue has no timestamps. Throws VulkanError.
  virtual double run(const Dispatch& d) = 0;
  /// Pipeline-cache persistence (null: none).
  virtual void set_pipeline_cache_store(std::shared_ptr<PipelineCacheStore> store) = 0;
};

}  // namespace attn::vk
