// The on-disk kernel cache: one verified entry file per key, atomic writes, LRU eviction by mtime.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/CacheEntry.h"

namespace attn {

/// The file name suffix of entries ("<key>.entry").
constexpr const char* kCacheEntrySuffix = ".entry";

/// The size limit the environment selects: ATTNC_CACHE_MAX_MB (fractions allowed), default 1024 MB.
uint64_t cache_max_bytes_from_env();

/// One cache directory. Safe to share between threads and processes.
class DiskCache {
 public:
  /// Creates `dir` if needed and checks it is writable; returns null and sets `why` if not.
  static std::unique_ptr<DiskCache> open(const std::string& dir, uint64_t max_bytes, std::string& why);

  /// What a lookup found.
  struct Lookup {
    enum Status { Hit, Miss, Rejected } status = Miss;
    std::vector<uint8_t> payload;  ///< On Hit.
    std::string reason;            ///< On Rejected: why ("checksum mismatch", "unreadable: ...").
  };
  /// Reads and verifies the entry of `key`; a hit refreshes the entry's mtime (LRU).
  Lookup read(const std::string& key) const;
  /// Writes the entry of `key` through a temporary file and rename(2), then evicts least recently
  /// used entries over the limit (never this one). Returns an error text, or "" on success.
  /// `evicted` receives the keys removed.
  std::string write(const std::string& key, const std::vector<uint8_t>& payload,
                    std::vector<std::string>& evicted) const;
  /// The entry file of `key`.
  std::string entry_path(const std::string& key) const;
  /// The directory.
  const std::string& dir() const { return dir_; }
  /// The size limit in bytes.
  uint64_t max_bytes() const { return max_bytes_; }

 private:
  DiskCache(std::string dir, uint64_t max_bytes) : dir_(std::move(dir)), max_bytes_(max_bytes) {}
  void evict(const std::string& keep, std::vector<std::string>& evicted) const;
  std::string dir_;
  uint64_t max_bytes_;
};

}  // namespace attn
