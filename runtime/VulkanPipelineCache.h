// Vulkan pipeline-cache blobs kept in the loader's disk cache (ATTNC_CACHE_DIR), so a second
// process skips the driver's shader compiles.
#pragma once

#include <memory>

#include "runtime/VulkanLauncher.h"

namespace attn::vk {

/// A PipelineCacheStore over the loader's DiskCache in `dir` (default_cache_dir() when empty).
/// Entries are verified on read; a corrupt or foreign one reads as empty (the driver also checks
/// the blob's header against the device). Returns null when the directory is not usable.
std::shared_ptr<PipelineCacheStore> disk_pipeline_cache(const std::string& dir = {});

}  // namespace attn::vk
