// The on-disk kernel cache: one signed entry file per key in a private folder, atomic writes,
// per-key locks across processes, LRU eviction by mtime.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attn/loader.hpp"
#include "runtime/CacheEntry.h"

namespace attn {

/// The file name suffix of entries ("<key>.entry").
constexpr const char* kCacheEntrySuffix = ".entry";
/// The default size limit in MiB, and the largest that ATTNC_CACHE_MAX_MB may ask for (1 TiB).
constexpr uint64_t kDefaultCacheMaxMb = 1024, kLargestCacheMaxMb = uint64_t{1} << 20;

/// The size limit the environment selects: ATTNC_CACHE_MAX_MB, a whole number of MiB from 1 to
/// kLargestCacheMaxMb; default 1024 MiB. Any other value means the default, with `problem` (when
/// given) receiving a sentence that says so.
uint64_t cache_max_bytes_from_env(std::string* problem = nullptr);

/// One cache directory. Safe to share between threads and processes.
class DiskCache {
 public:
  /// Opens `dir` (created 0700 if needed; see open_private_dir), loads the user's signing key and
  /// checks the folder is writable; returns null and sets `why` if any of that fails.
  static std::unique_ptr<DiskCache> open(const std::string& dir, uint64_t max_bytes, std::string& why);
  ~DiskCache();
  DiskCache(const DiskCache&) = delete;
  DiskCache& operator=(const DiskCache&) = delete;

  /// What a lookup found.
  struct Lookup {
    enum Status { Hit, Miss, Rejected } status = Miss;
    std::vector<uint8_t> payload;  ///< On Hit.
    std::string reason;            ///< On Rejected: why ("checksum mismatch", "not a regular file").
  };
  /// Reads and verifies the entry of `key` without following a symbolic link or blocking on a
  /// special file; a hit refreshes the entry's mtime (LRU).
  Lookup read(const std::string& key) const;
  /// Writes the entry of `key` through a uniquely named temporary file and rename(2), then evicts
  /// least recently used entries over the limit (never this one). Returns an error text, or "" on
  /// success. `evicted` receives the keys removed.
  std::string write(const std::string& key, const std::vector<uint8_t>& payload,
                    std::vector<std::string>& evicted) const;

  /// An exclusive lock on one key shared by every process using the folder (flock(2) on
  /// `.<key>.lock`), so that one of them compiles while the others wait for its entry.
  class KeyLock {
   public:
    /// Releases the lock, removing its file first.
    ~KeyLock();
    KeyLock(const KeyLock&) = delete;
    KeyLock& operator=(const KeyLock&) = delete;
    /// False when no lock could be taken (the caller goes ahead unlocked).
    bool held() const { return fd_ >= 0; }

   private:
    friend class DiskCache;
    KeyLock(int dirfd, std::string name, int fd) : dirfd_(dirfd), name_(std::move(name)), fd_(fd) {}
    int dirfd_;
    std::string name_;
    int fd_;
  };
  /// Waits for and takes the lock of `key`.
  std::unique_ptr<KeyLock> lock(const std::string& key) const;

  /// The entry of `payload` under `key` signed with this cache's key: what write() stores, and
  /// what the shared cache holds.
  std::vector<uint8_t> seal(const std::string& key, const std::vector<uint8_t>& payload) const;
  /// Checks an entry from elsewhere (the shared cache) as read() checks a file; on Ok, `payload`
  /// receives its payload.
  EntryProblem unseal(const std::string& key, const std::vector<uint8_t>& entry,
                      std::vector<uint8_t>& payload) const;
  /// Adds `delta` to the directory's traffic counters (runtime/CacheTrafficFile.h).
  void count(const CacheTraffic& delta) const;

  /// The directory.
  const std::string& dir() const { return dir_; }
  /// The size limit in bytes.
  uint64_t max_bytes() const { return max_bytes_; }

 private:
  DiskCache(std::string dir, int dirfd, const CacheSecret& secret, uint64_t max_bytes)
      : dir_(std::move(dir)), dirfd_(dirfd), secret_(secret), max_bytes_(max_bytes) {}
  void evict(const std::string& keep, std::vector<std::string>& evicted) const;
  std::string dir_;
  int dirfd_;
  CacheSecret secret_;
  uint64_t max_bytes_;
};

}  // namespace attn
