// disk_pipeline_cache: PipelineCacheStore on DiskCache, keyed by the SHA-256 of the store key.
#include "runtime/VulkanPipelineCache.h"

#include "attn/loader.hpp"
#include "runtime/DiskCache.h"
#include "runtime/Sha256.h"

namespace attn::vk {

namespace {

class DiskStore final : public PipelineCacheStore {
 public:
  explicit DiskStore(std::unique_ptr<DiskCache> cache) : cache_(std::move(cache)) {}

  std::vector<uint8_t> load(const std::string& key) override {
    DiskCache::Lookup l = cache_->read(entry_key(key));
    return l.status == DiskCache::Lookup::Hit ? l.payload : std::vector<uint8_t>{};
  }

  void store(const std::string& key, const std::vector<uint8_t>& blob) override {
    std::vector<std::string> evicted;
    cache_->write(entry_key(key), blob, evicted);  // best effort: a failed write costs a recompile
  }

 private:
  // Cache file names stay plain hex whatever the device name holds.
  static std::string entry_key(const std::string& key) {
    return "vkpipe-" + to_hex(sha256(key.data(), key.size()));
  }
  std::unique_ptr<DiskCache> cache_;
};

}  // namespace

std::shared_ptr<PipelineCacheStore> disk_pipeline_cache(const std::string& dir) {
  std::string why;
  auto cache = DiskCache::open(dir.empty() ? default_cache_dir() : dir, cache_max_bytes_from_env(), why);
  if (!cache) return nullptr;
  return std::make_shared<DiskStore>(std::move(cache));
}

}  // namespace attn::vk
