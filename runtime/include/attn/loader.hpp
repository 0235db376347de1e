// The run-time loader: each distinct kernel compiled once per process, kept in a verified disk cache.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "attn/compiler.hpp"
#include "attn/flight_recorder.hpp"
#include "attn/kernel_abi.h"

namespace attn {

/// How a Loader behaves. Empty/unset fields come from the environment.
struct LoaderOptions {
  /// One compile per key per process, concurrent requests waiting for it. Off: every get()
  /// compiles (a naive loader, for benchmarks).
  bool dedup = true;
  /// Use the on-disk cache. Off: memory only.
  bool disk_cache = true;
  /// Cache directory; empty: ATTNC_CACHE_DIR, else $XDG_CACHE_HOME/attnc, else ~/.cache/attnc.
  std::string cache_dir;
  /// Cache size limit in bytes; unset: ATTNC_CACHE_MAX_MB (default 1024 MB).
  std::optional<uint64_t> cache_max_bytes;
  /// Where events go; null: the process-wide recorder (dumped at exit under ATTNC_TRACE).
  std::shared_ptr<FlightRecorder> recorder;
  /// The shared cache behind the disk cache, `redis://host:port/db`; unset: ATTNC_REMOTE_CACHE;
  /// empty: none. Needs the disk cache (its key signs and verifies the shared entries).
  std::optional<std::string> remote_cache;
};

/// Counters of one Loader.
struct LoaderStats {
  uint64_t compiles = 0;        ///< Compiles performed (successful or not).
  uint64_t memory_hits = 0;     ///< Requests served by the in-process table (incl. waiting on a compile).
  uint64_t disk_hits = 0;       ///< Requests served by a verified disk entry.
  uint64_t disk_misses = 0;     ///< Disk lookups that found no entry.
  uint64_t rejects = 0;         ///< Disk entries rejected (corrupt, truncated, foreign).
  uint64_t disk_writes = 0;     ///< Entries written to the disk cache.
  uint64_t errors = 0;          ///< Requests that ended in a LoadError.
  uint64_t remote_hits = 0;     ///< Requests served by a verified entry of the shared cache.
  uint64_t remote_misses = 0;   ///< Shared-cache lookups that found no entry.
  uint64_t remote_rejects = 0;  ///< Shared-cache entries rejected (wrong key, corrupt).
  uint64_t remote_writes = 0;   ///< Entries published to the shared cache.
};

/// A loaded kernel: a callable that keeps its code alive. Cheap to copy.
class Kernel {
 public:
  /// An empty kernel (operator bool is false).
  Kernel() = default;
  /// Wraps a module; used by the Loader.
  Kernel(std::shared_ptr<const KernelModule> module, std::string key,
         std::shared_ptr<FlightRecorder> recorder);
  /// Runs the kernel (recording a launch event with shapes); returns 0 or writes args.error.
  int operator()(const attn_kernel_args& args) const;
  /// Plans calls laid out as `args` once (KernelModule::plan_calls): on cuda a ragged batch's or
  /// paged cache's launches, page table and workspace; null where the target plans each call
  /// itself (cpu, vulkan). Returns 0 or writes args.error.
  int plan(const attn_kernel_args& args, std::shared_ptr<const void>& plan) const;
  /// Runs a call laid out like the planned one with `plan` from plan() (null: as operator() does),
  /// recording a launch event. cuda: on `stream` without allocating, copying or waiting (a CUDA
  /// graph can capture it; take_cuda_errors() or the next synchronizing call reports an
  /// out-of-range read). Returns 0 or writes args.error.
  int run_planned(const void* plan, const attn_kernel_args& args, void* stream = nullptr) const;
  /// The raw C entry (cpu), for callers that want no recording at all.
  attn_kernel_fn entry() const { return module_ ? module_->entry() : nullptr; }
  /// The loaded module, for what a target offers beyond invoke() (the vulkan module's timed
  /// dispatch, runtime/VulkanCompiler.h); null when empty.
  const KernelModule* module() const { return module_.get(); }
  /// The cache key (64 hex digits).
  const std::string& key() const { return key_; }
  /// True if this holds a kernel.
  explicit operator bool() const { return module_ != nullptr; }

 private:
  /// Runs `call` (the module's), recording a launch event with `args`' shapes and its status.
  int record(const attn_kernel_args& args, const std::function<int()>& call) const;
  std::shared_ptr<const KernelModule> module_;
  std::string key_;
  std::shared_ptr<FlightRecorder> recorder_;
};

class DiskCache;    // runtime/DiskCache.h
class RemoteCache;  // runtime/RemoteCache.h

/// Compiles, caches and loads kernels. Thread-safe: call get() from any thread.
class Loader {
 public:
  /// A loader with the cpu compiler registered. Never fails: an unusable cache directory is
  /// one warning on stderr and a memory-only cache.
  explicit Loader(LoaderOptions options = {});
  /// Drops the in-process table; kernels already handed out stay valid.
  ~Loader();
  Loader(const Loader&) = delete;
  Loader& operator=(const Loader&) = delete;

  /// The kernel for `request`: from memory, the disk cache, or a compile. Throws LoadError
  /// (and dumps the flight recorder, see write_trace()).
  Kernel get(const KernelRequest& request);
  /// The cache key of `request` (64 hex digits of SHA-256); throws LoadError(UnknownTarget).
  std::string key_of(const KernelRequest& request) const;
  /// The key of `request` for `compiler` (no lookup of the target).
  static std::string key_for(const KernelRequest& request, const Compiler& compiler);
  /// Registers (or replaces) the compiler for compiler->target().
  void add_compiler(std::unique_ptr<Compiler> compiler);

  /// A snapshot of the counters.
  LoaderStats stats() const;
  /// The recorder this loader writes to.
  FlightRecorder& recorder() const { return *recorder_; }
  /// The flight recorder as JSON.
  std::string trace_json() const { return recorder_->to_json(); }
  /// The disk cache directory in use; empty when memory-only.
  std::string cache_dir() const;
  /// The shared cache in use (its URL, even after it failed); empty when none.
  std::string remote_cache() const;

  /// Stores a small named blob (a tuned tile shape, ...) in the disk cache beside the kernels,
  /// signed and evicted like them; `name` may hold any bytes (it is hashed into the entry's key).
  /// Returns false when the loader is memory-only or the write failed (one warning).
  bool store_blob(const std::string& name, const std::vector<uint8_t>& blob);
  /// The blob stored under `name` (by any process of this user), verified like a kernel entry;
  /// nullopt when there is none, the entry is bad, or the loader is memory-only.
  std::optional<std::vector<uint8_t>> load_blob(const std::string& name) const;

 private:
  struct Flight;
  Kernel load_uncached(const KernelRequest& request, const Compiler& compiler, const std::string& key);
  std::optional<Kernel> load_from_disk(const KernelRequest& request, const Compiler& compiler,
                                       const std::string& key, bool hits_only);
  std::optional<Kernel> load_from_remote(const KernelRequest& request, const Compiler& compiler,
                                         const std::string& key, bool& refused);
  std::optional<Kernel> accept_remote(const KernelRequest& request, const Compiler& compiler,
                                      const std::string& key, const std::vector<uint8_t>& entry, int64_t t0);
  void publish(const std::string& key, const std::string& target, const std::vector<uint8_t>& payload);
  void keep_locally(const std::string& key, const std::vector<uint8_t>& payload) const;
  void remote_failed() const;
  struct RemoteClaim;
  std::shared_ptr<const Compiler> compiler_for(const std::string& target) const;
  [[noreturn]] void fail(const LoadError& error, const std::string& key, const std::string& target);

  LoaderOptions options_;
  std::shared_ptr<FlightRecorder> recorder_;
  std::unique_ptr<DiskCache> disk_;
  std::unique_ptr<RemoteCache> remote_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const Compiler>> compilers_;
  std::map<std::string, std::shared_ptr<Flight>> flights_;
  struct Counters;
  std::unique_ptr<Counters> counters_;
};

/// The process-wide loader of attnc's runners (run_cpu_kernel, run_cuda, run_vulkan): default
/// options, the cpu, cuda and vulkan compilers registered (each opens its toolchain or device only
/// when first asked). Created on first use, never destroyed.
Loader& process_loader();

/// What every process that used one cache (a directory, or the shared cache of a fleet) did
/// with it, summed.
struct CacheTraffic {
  uint64_t hits = 0;           ///< Lookups that found a verified entry.
  uint64_t misses = 0;         ///< Lookups that found none.
  uint64_t rejects = 0;        ///< Entries refused (corrupt, foreign, wrongly signed).
  uint64_t writes = 0;         ///< Entries written (published, for the shared cache).
  uint64_t bytes_read = 0;     ///< Entry bytes of the hits.
  uint64_t bytes_written = 0;  ///< Entry bytes of the writes.
};

/// The disk cache's contents, for `attnc cache stats`.
struct CacheStats {
  std::string dir;         ///< The directory looked at.
  uint64_t entries = 0;    ///< Entry files.
  uint64_t bytes = 0;      ///< Their total size.
  uint64_t max_bytes = 0;  ///< The configured limit (ATTNC_CACHE_MAX_MB).
  std::string problem;     ///< Why ATTNC_CACHE_MAX_MB was ignored; empty when it was not.
  CacheTraffic traffic;    ///< Since the directory was created (or last cleared).
};

/// The shared cache's contents and the fleet's traffic, for `attnc cache stats`.
struct RemoteCacheStats {
  std::string url;       ///< The server asked.
  std::string problem;   ///< Why it could not be read; empty when it was.
  uint64_t entries = 0;  ///< attnc entries on the server.
  uint64_t bytes = 0;    ///< Their total size.
  CacheTraffic traffic;  ///< Every host's, since the counters were created.
};

/// The cache directory the environment selects (ATTNC_CACHE_DIR, XDG_CACHE_HOME, HOME).
std::string default_cache_dir();
/// Counts the entries of `dir` (default_cache_dir() when empty). A missing dir has none.
CacheStats cache_stats(const std::string& dir = {});
/// The shared cache the environment selects: ATTNC_REMOTE_CACHE, or "" for none.
std::string default_remote_cache();
/// Reads the shared cache at `url` (default_remote_cache() when empty; an empty result's url is
/// then empty too), with a one-second time-out per command.
RemoteCacheStats remote_cache_stats(const std::string& url = {});
/// Removes every entry (and stale temporary file and free lock) of `dir`, only ever this user's
/// files that begin with the entry magic; returns how many entries went.
uint64_t cache_clear(const std::string& dir = {});
/// Writes `recorder` where Loader::get does on a failure: to $ATTNC_TRACE (replaced atomically),
/// else to a new file $TMPDIR/attnc-trace-<pid>-<random>.json. Returns the path, or "" if it
/// could not.
std::string write_trace(const FlightRecorder& recorder);

}  // namespace attn
