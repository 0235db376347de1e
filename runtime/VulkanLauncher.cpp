// VulkanDevice: the loader is dlopen'ed (no link-time dependency, so a machine without Vulkan
// gets a clear error instead of a failed program start), functions are resolved through
// vkGetInstanceProcAddr / vkGetDeviceProcAddr, buffers are host-visible and coherent.
#define VK_NO_PROTOTYPES
#include "runtime/VulkanLauncher.h"

#include <dlfcn.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace attn::vk {

namespace {

// clang-format off
#define ATTN_VK_INSTANCE_FNS(X) \
  X(vkDestroyInstance) \
  X(vkEnumeratePhysicalDevices) \
  X(vkGetPhysicalDeviceProperties) \
  X(vkGetPhysicalDeviceProperties2) \
  X(vkGetPhysicalDeviceFeatures2) \
  X(vkGetPhysicalDeviceQueueFamilyProperties) \
  X(vkGetPhysicalDeviceMemoryProperties) \
  X(vkCreateDevice) \
  X(vkGetDeviceProcAddr)
// clang-format on

// clang-format off
#define ATTN_VK_DEVICE_FNS(X) \
  X(vkDestroyDevice) \
  X(vkGetDeviceQueue) \
  X(vkCreateBuffer) \
  X(vkDestroyBuffer) \
  X(vkGetBufferMemoryRequirements) \
  X(vkAllocateMemory) \
  X(vkFreeMemory) \
  X(vkBindBufferMemory) \
  X(vkMapMemory) \
  X(vkUnmapMemory) \
  X(vkCreateShaderModule) \
  X(vkDestroyShaderModule) \
  X(vkCreateDescriptorSetLayout) \
  X(vkDestroyDescriptorSetLayout) \
  X(vkCreatePipelineLayout) \
  X(vkDestroyPipelineLayout) \
  X(vkCreatePipelineCache) \
  X(vkDestroyPipelineCache) \
  X(vkGetPipelineCacheData) \
  X(vkCreateComputePipelines) \
  X(vkDestroyPipeline) \
  X(vkCreateDescriptorPool) \
  X(vkDestroyDescriptorPool) \
  X(vkAllocateDescriptorSets) \
  X(vkUpdateDescriptorSets) \
  X(vkCreateCommandPool) \
  X(vkDestroyCommandPool) \
  X(vkAllocateCommandBuffers) \
  X(vkFreeCommandBuffers) \
  X(vkBeginCommandBuffer) \
  X(vkEndCommandBuffer) \
  X(vkCmdBindPipeline) \
  X(vkCmdBindDescriptorSets) \
  X(vkCmdPushConstants) \
  X(vkCmdDispatch) \
  X(vkCmdPipelineBarrier) \
  X(vkQueueSubmit) \
  X(vkCreateFence) \
  X(vkDestroyFence) \
  X(vkWaitForFences) \
  X(vkCmdCopyBuffer) \
  X(vkCreateQueryPool) \
  X(vkDestroyQueryPool) \
  X(vkCmdResetQueryPool) \
  X(vkCmdWriteTimestamp) \
  X(vkGetQueryPoolResults)
// clang-format on

// The loader library and the functions resolved from it.
struct Api {
  void* lib = nullptr;
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
  PFN_vkCreateInstance vkCreateInstance = nullptr;
  PFN_vkEnumerateInstanceVersion vkEnumerateInstanceVersion = nullptr;
#define ATTN_DECLARE(f) PFN_##f f = nullptr;
  ATTN_VK_INSTANCE_FNS(ATTN_DECLARE)
  ATTN_VK_DEVICE_FNS(ATTN_DECLARE)
#undef ATTN_DECLARE
};

// A zeroed Vulkan info struct with its sType set.
template <class T>
T make_info(VkStructureType type) {
  T x{};
  x.sType = type;
  return x;
}

void check(VkResult r, const char* what) {
  if (r != VK_SUCCESS) throw VulkanError(std::string(what) + " failed (VkResult " + std::to_string(r) + ")");
}

const char* type_name(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
  }
}

int type_rank(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
  }
}

// Opens the loader and creates an instance (Vulkan 1.1 at least, 1.3 at most).
VkInstance open_instance(Api& api, uint32_t& api_version) {
  const char* env = std::getenv("ATTNC_VULKAN_LOADER");
  std::string path = env && *env ? env : "libvulkan.so.1";
  api.lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!api.lib)
    throw VulkanError("no Vulkan loader: cannot load " + path + " (install libvulkan1 and a driver such as " +
                      "mesa-vulkan-drivers, or set ATTNC_VULKAN_LOADER to the loader library)");
  api.vkGetInstanceProcAddr =
      reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(api.lib, "vkGetInstanceProcAddr"));
  if (!api.vkGetInstanceProcAddr)
    throw VulkanError(path + " is not a Vulkan loader (no vkGetInstanceProcAddr)");
  api.vkCreateInstance =
      reinterpret_cast<PFN_vkCreateInstance>(api.vkGetInstanceProcAddr(nullptr, "vkCreateInstance"));
  api.vkEnumerateInstanceVersion = reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
      api.vkGetInstanceProcAddr(nullptr, "vkEnumerateInstanceVersion"));
  uint32_t loader_version = VK_API_VERSION_1_0;
  if (api.vkEnumerateInstanceVersion) api.vkEnumerateInstanceVersion(&loader_version);
  if (VK_API_VERSION_MINOR(loader_version) < 1 && VK_API_VERSION_MAJOR(loader_version) == 1)
    throw VulkanError("the Vulkan loader supports only Vulkan 1.0; attnc needs 1.1");
  api_version = std::min<uint32_t>(loader_version, VK_API_VERSION_1_3);
  auto app = make_info<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "attnc";
  app.pEngineName = "attnc";
  app.apiVersion = api_version;
  auto ci = make_info<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  ci.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  VkResult r = api.vkCreateInstance(&ci, nullptr, &instance);
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
    throw VulkanError(
        "no Vulkan driver (VK_ERROR_INCOMPATIBLE_DRIVER): install one, e.g. mesa-vulkan-drivers");
  check(r, "vkCreateInstance");
#define ATTN_LOAD(f) api.f = reinterpret_cast<PFN_##f>(api.vkGetInstanceProcAddr(instance, #f));
  ATTN_VK_INSTANCE_FNS(ATTN_LOAD)
#undef ATTN_LOAD
  return instance;
}

class Device;

// A pipeline and the objects it was built from; keeps its device alive.
struct DevicePipeline final : Pipeline {
  explicit DevicePipeline(std::shared_ptr<Device> d) : device(std::move(d)) {}
  ~DevicePipeline() override;
  std::shared_ptr<Device> device;
  VkShaderModule module = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
};

class Device final : public VulkanDevice, public std::enable_shared_from_this<Device> {
 public:
  Device() {
    instance_ = open_instance(api_, api_version_);
    try {
      pick_device();
      create_device();
    } catch (...) {
      if (device_) api_.vkDestroyDevice(device_, nullptr);
      api_.vkDestroyInstance(instance_, nullptr);
      device_ = VK_NULL_HANDLE;
      throw;
    }
  }

  ~Device() override {
    if (!device_) return;
    api_.vkDestroyCommandPool(device_, pool_, nullptr);
    api_.vkDestroyDevice(device_, nullptr);
    api_.vkDestroyInstance(instance_, nullptr);
  }

  const DeviceInfo& info() const override { return info_; }

  // One blob per device and driver build (the driver rejects a blob of another one anyway).
  std::string identity() const override {
    std::string id = info_.name + "/" + std::to_string(driver_version_) + "/";
    for (uint8_t b : cache_uuid_) id += std::to_string(b) + ".";
    return id;
  }

  std::shared_ptr<const Pipeline> build_pipeline(const std::vector<uint32_t>& spirv, uint32_t bindings,
                                                 uint32_t push_bytes, const std::vector<uint8_t>& cache_blob,
                                                 std::vector<uint8_t>* blob_out) override {
    auto p = std::make_shared<DevicePipeline>(shared_from_this());
    auto mci = make_info<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
    mci.codeSize = spirv.size() * 4;
    mci.pCode = spirv.data();
    check(api_.vkCreateShaderModule(device_, &mci, nullptr, &p->module), "vkCreateShaderModule");
    std::vector<VkDescriptorSetLayoutBinding> b(bindings);
    for (uint32_t i = 0; i < bindings; ++i)
      b[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    auto lci =
        make_info<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    lci.bindingCount = bindings;
    lci.pBindings = b.data();
    check(api_.vkCreateDescriptorSetLayout(device_, &lci, nullptr, &p->set_layout),
          "vkCreateDescriptorSetLayout");
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
    auto plci = make_info<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    plci.setLayoutCount = 1;
    plci.pSetLayouts = &p->set_layout;
    plci.pushConstantRangeCount = push_bytes ? 1 : 0;
    plci.pPushConstantRanges = &range;
    check(api_.vkCreatePipelineLayout(device_, &plci, nullptr, &p->layout), "vkCreatePipelineLayout");
    // Vulkan validates the blob's header against this device; a foreign blob is ignored.
    auto pcci = make_info<VkPipelineCacheCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO);
    pcci.initialDataSize = cache_blob.size();
    pcci.pInitialData = cache_blob.empty() ? nullptr : cache_blob.data();
    VkPipelineCache cache = VK_NULL_HANDLE;
    check(api_.vkCreatePipelineCache(device_, &pcci, nullptr, &cache), "vkCreatePipelineCache");
    auto cci = make_info<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
    cci.stage =
        make_info<VkPipelineShaderStageCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
    cci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cci.stage.module = p->module;
    cci.stage.pName = "main";
    cci.layout = p->layout;
    VkResult r = api_.vkCreateComputePipelines(device_, cache, 1, &cci, nullptr, &p->pipeline);
    if (r == VK_SUCCESS && blob_out) {
      size_t size = 0;
      blob_out->clear();
      if (api_.vkGetPipelineCacheData(device_, cache, &size, nullptr) == VK_SUCCESS && size) {
        blob_out->resize(size);
        if (api_.vkGetPipelineCacheData(device_, cache, &size, blob_out->data()) == VK_SUCCESS)
          blob_out->resize(size);
        else
          blob_out->clear();
      }
    }
    api_.vkDestroyPipelineCache(device_, cache, nullptr);
    check(r, "vkCreateComputePipelines");
    return p;
  }

  // Releases a pipeline's objects (DevicePipeline's destructor).
  void destroy(DevicePipeline& p) {
    if (p.pipeline) api_.vkDestroyPipeline(device_, p.pipeline, nullptr);
    if (p.layout) api_.vkDestroyPipelineLayout(device_, p.layout, nullptr);
    if (p.set_layout) api_.vkDestroyDescriptorSetLayout(device_, p.set_layout, nullptr);
    if (p.module) api_.vkDestroyShaderModule(device_, p.module, nullptr);
  }

  double run(const Pipeline& pipeline, const Dispatch& d) override {
    const auto& p = static_cast<const DevicePipeline&>(pipeline);
    std::lock_guard<std::mutex> lock(mutex_);
    for (int i = 0; i < 3; ++i)
      if (d.groups[i] > info_.max_groups[i])
        throw VulkanError("dispatch of " + std::to_string(d.groups[i]) + " workgroups in dimension " +
                          std::to_string(i) + " exceeds the device's limit of " +
                          std::to_string(info_.max_groups[i]));
    Resources res(api_, device_);
    for (const BufferBinding& b : d.buffers) make_buffer(*b.data, res);

    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, static_cast<uint32_t>(d.buffers.size())};
    auto pci = make_info<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
    pci.maxSets = 1;
    pci.poolSizeCount = 1;
    pci.pPoolSizes = &size;
    check(api_.vkCreateDescriptorPool(device_, &pci, nullptr, &res.pool), "vkCreateDescriptorPool");
    auto ai = make_info<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
    ai.descriptorPool = res.pool;
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = &p.set_layout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    check(api_.vkAllocateDescriptorSets(device_, &ai, &set), "vkAllocateDescriptorSets");
    std::vector<VkDescriptorBufferInfo> infos(d.buffers.size());
    std::vector<VkWriteDescriptorSet> writes(d.buffers.size());
    for (size_t i = 0; i < d.buffers.size(); ++i) {
      infos[i] = {res.buffers[i].buffer, 0, VK_WHOLE_SIZE};
      writes[i] = make_info<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
      writes[i].dstSet = set;
      writes[i].dstBinding = static_cast<uint32_t>(i);
      writes[i].descriptorCount = 1;
      writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[i].pBufferInfo = &infos[i];
    }
    api_.vkUpdateDescriptorSets(device_, static_cast<uint32_t>(writes.size()), writes.data(), 0, nullptr);

    auto cai = make_info<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
    cai.commandPool = pool_;
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 1;
    check(api_.vkAllocateCommandBuffers(device_, &cai, &res.cmd), "vkAllocateCommandBuffers");
    res.cmd_pool = pool_;
    auto bi = make_info<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(api_.vkBeginCommandBuffer(res.cmd, &bi), "vkBeginCommandBuffer");
    api_.vkCmdBindPipeline(res.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
    api_.vkCmdBindDescriptorSets(res.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set, 0, nullptr);
    if (!d.push_constants.empty())
      api_.vkCmdPushConstants(res.cmd, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                              static_cast<uint32_t>(d.push_constants.size()), d.push_constants.data());
    if (info_.staging) {
      for (size_t i = 0; i < d.buffers.size(); ++i) {
        VkBufferCopy region{0, 0, res.buffers[i].bytes};
        api_.vkCmdCopyBuffer(res.cmd, res.buffers[i].staging, res.buffers[i].buffer, 1, &region);
      }
      barrier(res.cmd, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
              VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
    }
    if (timestamps_) {
      auto qci = make_info<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
      qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
      qci.queryCount = 2;
      check(api_.vkCreateQueryPool(device_, &qci, nullptr, &res.queries), "vkCreateQueryPool");
      api_.vkCmdResetQueryPool(res.cmd, res.queries, 0, 2);
      api_.vkCmdWriteTimestamp(res.cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, res.queries, 0);
    }
    const int repeat = std::max(1, d.repeat);
    for (int r = 0; r < repeat; ++r) {
      if (r > 0)
        barrier(res.cmd, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
      api_.vkCmdDispatch(res.cmd, d.groups[0], d.groups[1], d.groups[2]);
    }
    if (timestamps_) api_.vkCmdWriteTimestamp(res.cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, res.queries, 1);
    if (info_.staging) {
      barrier(res.cmd, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT,
              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
      for (size_t i = 0; i < d.buffers.size(); ++i)
        if (d.buffers[i].read_back) {
          VkBufferCopy region{0, 0, res.buffers[i].bytes};
          api_.vkCmdCopyBuffer(res.cmd, res.buffers[i].buffer, res.buffers[i].staging, 1, &region);
        }
      barrier(res.cmd, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
              VK_PIPELINE_STAGE_HOST_BIT);
    } else {
      // Shader writes must be made visible to the host before it maps the results.
      barrier(res.cmd, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT,
              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT);
    }
    check(api_.vkEndCommandBuffer(res.cmd), "vkEndCommandBuffer");
    auto fci = make_info<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
    check(api_.vkCreateFence(device_, &fci, nullptr, &res.fence), "vkCreateFence");
    auto si = make_info<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    si.commandBufferCount = 1;
    si.pCommandBuffers = &res.cmd;
    check(api_.vkQueueSubmit(queue_, 1, &si, res.fence), "vkQueueSubmit");
    check(api_.vkWaitForFences(device_, 1, &res.fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    for (size_t i = 0; i < d.buffers.size(); ++i)
      if (d.buffers[i].read_back && !d.buffers[i].data->empty())
        std::memcpy(d.buffers[i].data->data(), res.buffers[i].mapped, d.buffers[i].data->size());
    if (!timestamps_) return -1;
    uint64_t ticks[2] = {0, 0};
    if (api_.vkGetQueryPoolResults(device_, res.queries, 0, 2, sizeof ticks, ticks, sizeof(uint64_t),
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS)
      return -1;
    return static_cast<double>(ticks[1] - ticks[0]) * timestamp_period_ns_ / 1e6 / repeat;
  }

 private:
  // A storage buffer; with staging, `mapped` is the host-visible staging copy.
  struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE, staging = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE, staging_memory = VK_NULL_HANDLE;
    void* mapped = nullptr;
    VkDeviceSize bytes = 0;
  };

  void barrier(VkCommandBuffer cmd, VkAccessFlags src, VkAccessFlags dst, VkPipelineStageFlags from,
               VkPipelineStageFlags to) {
    auto mb = make_info<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    mb.srcAccessMask = src;
    mb.dstAccessMask = dst;
    api_.vkCmdPipelineBarrier(cmd, from, to, 0, 1, &mb, 0, nullptr, 0, nullptr);
  }
  // Everything one dispatch creates, released however run() exits.
  struct Resources {
    Resources(Api& a, VkDevice d) : api(a), device(d) {}
    ~Resources() {
      if (fence) api.vkDestroyFence(device, fence, nullptr);
      if (queries) api.vkDestroyQueryPool(device, queries, nullptr);
      if (pool) api.vkDestroyDescriptorPool(device, pool, nullptr);
      if (cmd) api.vkFreeCommandBuffers(device, cmd_pool, 1, &cmd);
      for (Buffer& b : buffers) {
        if (b.mapped) api.vkUnmapMemory(device, b.staging ? b.staging_memory : b.memory);
        for (VkBuffer x : {b.buffer, b.staging})
          if (x) api.vkDestroyBuffer(device, x, nullptr);
        for (VkDeviceMemory m : {b.memory, b.staging_memory})
          if (m) api.vkFreeMemory(device, m, nullptr);
      }
    }
    Api& api;
    VkDevice device;
    std::vector<Buffer> buffers;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VkCommandPool cmd_pool = VK_NULL_HANDLE;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    VkQueryPool queries = VK_NULL_HANDLE;
  };

  // A buffer and its memory of the first type with `want` properties.
  void allocate(VkDeviceSize bytes, VkBufferUsageFlags usage, VkMemoryPropertyFlags want, VkBuffer& buffer,
                VkDeviceMemory& memory) {
    auto ci = make_info<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
    ci.size = bytes;
    ci.usage = usage;
    ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    check(api_.vkCreateBuffer(device_, &ci, nullptr, &buffer), "vkCreateBuffer");
    VkMemoryRequirements req;
    api_.vkGetBufferMemoryRequirements(device_, buffer, &req);
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < memory_.memoryTypeCount && type == UINT32_MAX; ++i)
      if ((req.memoryTypeBits & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & want) == want) type = i;
    if (type == UINT32_MAX) throw VulkanError("the device has no suitable memory type for storage buffers");
    auto ai = make_info<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = type;
    check(api_.vkAllocateMemory(device_, &ai, nullptr, &memory), "vkAllocateMemory");
    check(api_.vkBindBufferMemory(device_, buffer, memory, 0), "vkBindBufferMemory");
  }

  void make_buffer(const std::vector<uint8_t>& data, Resources& res) {
    // Never zero-sized: element 0 of every buffer is readable (the shader's fallback index).
    res.buffers.emplace_back();
    Buffer& b = res.buffers.back();
    b.bytes = std::max<VkDeviceSize>(16, (data.size() + 3) / 4 * 4);
    const VkMemoryPropertyFlags host =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    const VkBufferUsageFlags copy = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkDeviceMemory mapped_memory;
    if (info_.staging) {
      allocate(b.bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | copy, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
               b.buffer, b.memory);
      allocate(b.bytes, copy, host, b.staging, b.staging_memory);
      mapped_memory = b.staging_memory;
    } else {
      allocate(b.bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, host, b.buffer, b.memory);
      mapped_memory = b.memory;
    }
    check(api_.vkMapMemory(device_, mapped_memory, 0, VK_WHOLE_SIZE, 0, &b.mapped), "vkMapMemory");
    std::memset(b.mapped, 0, b.bytes);
    if (!data.empty()) std::memcpy(b.mapped, data.data(), data.size());
  }

  void pick_device() {
    uint32_t n = 0;
    check(api_.vkEnumeratePhysicalDevices(instance_, &n, nullptr), "vkEnumeratePhysicalDevices");
    std::vector<VkPhysicalDevice> devs(n);
    check(api_.vkEnumeratePhysicalDevices(instance_, &n, devs.data()), "vkEnumeratePhysicalDevices");
    if (devs.empty())
      throw VulkanError(
          "no Vulkan device: the loader found no driver with a device (install mesa-vulkan-drivers for "
          "lavapipe)");
    const char* want = std::getenv("ATTNC_VULKAN_DEVICE");
    int best = -1;
    for (uint32_t i = 0; i < n; ++i) {
      VkPhysicalDeviceProperties p;
      api_.vkGetPhysicalDeviceProperties(devs[i], &p);
      if (VK_API_VERSION_MINOR(p.apiVersion) < 1 && VK_API_VERSION_MAJOR(p.apiVersion) == 1) continue;
      if (want && *want) {
        bool numeric =
            std::all_of(want, want + std::strlen(want), [](char c) { return c >= '0' && c <= '9'; });
        if (numeric ? std::atoi(want) == static_cast<int>(i) : std::strstr(p.deviceName, want) != nullptr) {
          best = static_cast<int>(i);
          break;
        }
        continue;
      }
      VkPhysicalDeviceProperties bp;
      if (best >= 0) api_.vkGetPhysicalDeviceProperties(devs[best], &bp);
      if (best < 0 || type_rank(p.deviceType) < type_rank(bp.deviceType)) best = static_cast<int>(i);
    }
    if (best < 0)
      throw VulkanError(want && *want
                            ? "ATTNC_VULKAN_DEVICE='" + std::string(want) + "' matches no Vulkan 1.1 device"
                            : std::string("no Vulkan 1.1 device"));
    phys_ = devs[best];

    VkPhysicalDeviceProperties basic;
    api_.vkGetPhysicalDeviceProperties(phys_, &basic);
    auto sub =
        make_info<VkPhysicalDeviceSubgroupProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
    auto size_control = make_info<VkPhysicalDeviceSubgroupSizeControlProperties>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES);
    auto props = make_info<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
    props.pNext = &sub;
    // Vulkan 1.3 devices may run a shader with fewer invocations per subgroup than they report
    // (Intel compiles SIMD8/16/32): the minimum is what a row's lanes can rely on.
    if (VK_API_VERSION_MINOR(std::min(api_version_, basic.apiVersion)) >= 3) sub.pNext = &size_control;
    api_.vkGetPhysicalDeviceProperties2(phys_, &props);
    const VkPhysicalDeviceProperties& p = props.properties;
    info_.name = p.deviceName;
    driver_version_ = p.driverVersion;
    std::memcpy(cache_uuid_, p.pipelineCacheUUID, VK_UUID_SIZE);
    info_.type = type_name(p.deviceType);
    uint32_t version = std::min(api_version_, p.apiVersion);
    info_.api_minor = static_cast<int>(VK_API_VERSION_MINOR(version));
    const VkSubgroupFeatureFlags ops = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_BIT;
    if ((sub.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) && (sub.supportedOperations & ops) == ops)
      info_.subgroup_size = static_cast<int>(size_control.minSubgroupSize
                                                 ? std::min(sub.subgroupSize, size_control.minSubgroupSize)
                                                 : sub.subgroupSize);
    info_.shared_bytes = static_cast<int>(p.limits.maxComputeSharedMemorySize);
    for (int i = 0; i < 3; ++i) info_.max_groups[i] = p.limits.maxComputeWorkGroupCount[i];
    api_.vkGetPhysicalDeviceMemoryProperties(phys_, &memory_);
    // A discrete GPU reading host memory over PCIe would measure the bus, not the kernel.
    info_.staging = p.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
    timestamp_period_ns_ = p.limits.timestampPeriod;
    timestamps_ = p.limits.timestampComputeAndGraphics == VK_TRUE && timestamp_period_ns_ > 0;
  }

  void create_device() {
    uint32_t n = 0;
    api_.vkGetPhysicalDeviceQueueFamilyProperties(phys_, &n, nullptr);
    std::vector<VkQueueFamilyProperties> families(n);
    api_.vkGetPhysicalDeviceQueueFamilyProperties(phys_, &n, families.data());
    uint32_t family = UINT32_MAX;
    for (uint32_t i = 0; i < n && family == UINT32_MAX; ++i)
      if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) family = i;
    if (family == UINT32_MAX) throw VulkanError("the Vulkan device " + info_.name + " has no compute queue");

    auto f16 = make_info<VkPhysicalDevice16BitStorageFeatures>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES);
    auto features = make_info<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
    features.pNext = &f16;
    api_.vkGetPhysicalDeviceFeatures2(phys_, &features);
    info_.f16_storage = f16.storageBuffer16BitAccess == VK_TRUE;
    auto enable = make_info<VkPhysicalDevice16BitStorageFeatures>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES);
    enable.storageBuffer16BitAccess = f16.storageBuffer16BitAccess;

    float priority = 1.0f;
    auto qci = make_info<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
    qci.queueFamilyIndex = family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    auto dci = make_info<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
    dci.pNext = &enable;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    check(api_.vkCreateDevice(phys_, &dci, nullptr, &device_), "vkCreateDevice");
#define ATTN_LOAD(f) api_.f = reinterpret_cast<PFN_##f>(api_.vkGetDeviceProcAddr(device_, #f));
    ATTN_VK_DEVICE_FNS(ATTN_LOAD)
#undef ATTN_LOAD
    api_.vkGetDeviceQueue(device_, family, 0, &queue_);
    auto pci = make_info<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
    pci.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    pci.queueFamilyIndex = family;
    check(api_.vkCreateCommandPool(device_, &pci, nullptr, &pool_), "vkCreateCommandPool");
  }

  Api api_;
  uint32_t api_version_ = VK_API_VERSION_1_1;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice phys_ = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties memory_{};
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  DeviceInfo info_;
  uint32_t driver_version_ = 0;
  bool timestamps_ = false;
  double timestamp_period_ns_ = 0;
  uint8_t cache_uuid_[VK_UUID_SIZE] = {};
  std::mutex mutex_;
};

DevicePipeline::~DevicePipeline() { device->destroy(*this); }

}  // namespace

std::shared_ptr<VulkanDevice> VulkanDevice::get() {
  static std::mutex mutex;
  static std::shared_ptr<VulkanDevice> device;
  std::lock_guard<std::mutex> lock(mutex);
  if (!device) device = std::make_shared<Device>();
  return device;
}

}  // namespace attn::vk
