// attn::Loader: content-hash keys, single-flight compiles, the disk cache, the flight recorder.
#include "attn/loader.hpp"

#include <unistd.h>

#include <cstdio>
#include <future>
#include <optional>
#include <set>

#include "attnc/Version.h"
#include "runtime/DiskCache.h"
#include "runtime/RemoteCache.h"
#include "runtime/Sha256.h"
#include "runtime/TempDir.h"

namespace attn {
namespace {

// Bump when the key's composition changes, so old entries stop matching.
constexpr const char* kKeyScheme = "attnc-kernel-key/1";

// Warnings about the cache go to stderr once per process per message, however many loaders.
void warn_once(const std::string& message) {
  static std::mutex mutex;
  static std::set<std::string> said;
  std::lock_guard<std::mutex> lock(mutex);
  if (said.insert(message).second) std::fprintf(stderr, "attnc: warning: %s\n", message.c_str());
}

}  // namespace

struct Loader::Counters {
  std::atomic<uint64_t> compiles{0}, memory_hits{0}, disk_hits{0}, disk_misses{0}, rejects{0}, disk_writes{0},
      errors{0}, remote_hits{0}, remote_misses{0}, remote_rejects{0}, remote_writes{0};
};

// One key's compile in progress or done; later requests wait on `result`.
struct Loader::Flight {
  std::promise<Kernel> promise;
  std::shared_future<Kernel> result = promise.get_future().share();
};

Loader::Loader(LoaderOptions options)
    : options_(std::move(options)), counters_(std::make_unique<Counters>()) {
  recorder_ = options_.recorder ? options_.recorder : process_flight_recorder();
  compilers_["cpu"] = make_cpu_compiler();
  if (options_.disk_cache) {
    std::string dir = options_.cache_dir.empty() ? default_cache_dir() : options_.cache_dir;
    std::string why;
    uint64_t max = options_.cache_max_bytes ? *options_.cache_max_bytes : cache_max_bytes_from_env(&why);
    if (!why.empty()) {
      recorder_->record(TraceEventKind::Warning, {}, {}, why);
      warn_once(why);
      why.clear();
    }
    disk_ = DiskCache::open(dir, max, why);
    if (!disk_) {
      recorder_->record(TraceEventKind::Warning, {}, {}, why);
      warn_once(why + "; kernels are cached in memory only");
    }
  }
  std::string url = options_.remote_cache ? *options_.remote_cache : default_remote_cache();
  if (!url.empty()) {
    std::string why;
    if (!disk_)
      why = "the shared cache " + url + " needs the disk cache (its key signs the entries); not used";
    else
      remote_ = RemoteCache::open(url, kRemoteCacheTimeoutMs, why);
    if (!remote_) {
      recorder_->record(TraceEventKind::Warning, {}, {}, why);
      warn_once(why);
    }
  }
}

Loader::~Loader() = default;

void Loader::add_compiler(std::unique_ptr<Compiler> compiler) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string target = compiler->target();
  compilers_[target] = std::move(compiler);
}

std::shared_ptr<const Compiler> Loader::compiler_for(const std::string& target) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = compilers_.find(target);
  if (it != compilers_.end()) return it->second;
  std::string known;
  for (const auto& [name, c] : compilers_) known += (known.empty() ? "" : ", ") + name;
  throw LoadError(LoadErrorKind::UnknownTarget,
                  "no compiler for target '" + target + "' (available: " + known + ")");
}

std::string Loader::key_for(const KernelRequest& request, const Compiler& compiler) {
  Sha256 h;
  h.update_field(kKeyScheme);
  h.update_field(ATTNC_VERSION);
  h.update_field(request.target);
  h.update_field(request.entry);
  h.update_field(request.source);
  h.update_field(std::to_string(request.flags.size()));
  for (const std::string& f : request.flags) h.update_field(f);
  h.update_field(compiler.fingerprint(request));
  return to_hex(h.finish());
}

std::string Loader::key_of(const KernelRequest& request) const {
  return key_for(request, *compiler_for(request.target));
}

Kernel Loader::get(const KernelRequest& request) {
  std::shared_ptr<const Compiler> compiler;
  std::string key;
  try {
    compiler = compiler_for(request.target);
    key = key_for(request, *compiler);
  } catch (const LoadError& e) {
    fail(e, key, request.target);
  }
  if (!options_.dedup) return load_uncached(request, *compiler, key);

  std::shared_ptr<Flight> flight;
  bool owner = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto [it, inserted] = flights_.try_emplace(key);
    if (inserted) it->second = std::make_shared<Flight>();
    flight = it->second;
    owner = inserted;
  }
  if (!owner) {
    try {
      Kernel k = flight->result.get();
      ++counters_->memory_hits;
      recorder_->record(TraceEventKind::MemoryHit, key, request.target);
      return k;
    } catch (const LoadError&) {
      ++counters_->errors;
      throw;
    }
  }
  try {
    Kernel k = load_uncached(request, *compiler, key);
    flight->promise.set_value(k);
    return k;
  } catch (...) {
    // Forget the failure so a later request retries (the cause may be transient); the requests
    // already waiting get this error.
    {
      std::lock_guard<std::mutex> lock(mutex_);
      flights_.erase(key);
    }
    flight->promise.set_exception(std::current_exception());
    throw;
  }
}

std::optional<Kernel> Loader::load_from_disk(const KernelRequest& request, const Compiler& compiler,
                                             const std::string& key, bool hits_only) {
  const std::string& target = request.target;
  int64_t t0 = recorder_->now_ns();
  DiskCache::Lookup found = disk_->read(key);
  if (found.status == DiskCache::Lookup::Hit) {
    try {
      Kernel k(compiler.load(found.payload, request), key, recorder_);
      ++counters_->disk_hits;
      recorder_->record(TraceEventKind::DiskHit, key, target, {}, recorder_->now_ns() - t0);
      disk_->count({.hits = 1, .bytes_read = found.payload.size()});
      return k;
    } catch (const LoadError& e) {
      // A verified entry that does not load (a foreign toolchain's object with a colliding
      // key is the only way): rebuild it like any other bad entry.
      found.status = DiskCache::Lookup::Rejected;
      found.reason = std::string("does not load: ") + e.what();
    }
  }
  // A second look (after waiting for the key's lock) counts only if it finds the entry.
  if (hits_only) return std::nullopt;
  if (found.status == DiskCache::Lookup::Rejected) {
    ++counters_->rejects;
    recorder_->record(TraceEventKind::DiskReject, key, target, found.reason);
    disk_->count({.rejects = 1});
  } else {
    ++counters_->disk_misses;
    recorder_->record(TraceEventKind::DiskMiss, key, target);
    disk_->count({.misses = 1});
  }
  return std::nullopt;
}

void Loader::publish(const std::string& key, const std::string& target, const std::vector<uint8_t>& payload) {
  if (!remote_->available()) return;
  std::vector<uint8_t> entry = disk_->seal(key, payload);
  if (!remote_->put(key, entry)) {
    remote_failed();
    return;
  }
  ++counters_->remote_writes;
  recorder_->record(TraceEventKind::RemoteWrite, key, target, {}, -1, static_cast<int32_t>(entry.size()));
  remote_->count({.writes = 1, .bytes_written = entry.size()});
}

void Loader::keep_locally(const std::string& key, const std::vector<uint8_t>& payload) const {
  // The next process of this host then takes it from the disk.
  std::vector<std::string> evicted;
  if (disk_->write(key, payload, evicted).empty()) {
    ++counters_->disk_writes;
    disk_->count({.writes = 1, .bytes_written = payload.size()});
  }
  for (const std::string& e : evicted) recorder_->record(TraceEventKind::Evict, e, {});
}

void Loader::remote_failed() const {
  std::string why = remote_->problem();
  recorder_->record(TraceEventKind::Warning, {}, {}, why);
  warn_once("shared cache unavailable: " + why + "; compiling locally");
}

std::optional<Kernel> Loader::accept_remote(const KernelRequest& request, const Compiler& compiler,
                                            const std::string& key, const std::vector<uint8_t>& entry,
                                            int64_t t0) {
  const std::string& target = request.target;
  std::vector<uint8_t> payload;
  EntryProblem problem = disk_->unseal(key, entry, payload);
  std::string reason = entry_problem_name(problem);
  if (problem == EntryProblem::Ok) {
    try {
      Kernel k(compiler.load(payload, request), key, recorder_);
      ++counters_->remote_hits;
      recorder_->record(TraceEventKind::RemoteHit, key, target, {}, recorder_->now_ns() - t0,
                        static_cast<int32_t>(entry.size()));
      remote_->count({.hits = 1, .bytes_read = entry.size()});
      keep_locally(key, payload);
      return k;
    } catch (const LoadError& e) {
      reason = std::string("does not load: ") + e.what();
    }
  }
  // Signed with another key, corrupt or foreign: rebuilt here, and the rebuild replaces it.
  ++counters_->remote_rejects;
  recorder_->record(TraceEventKind::RemoteReject, key, target, reason);
  remote_->count({.rejects = 1});
  return std::nullopt;
}

std::optional<Kernel> Loader::load_from_remote(const KernelRequest& request, const Compiler& compiler,
                                               const std::string& key, bool& refused) {
  int64_t t0 = recorder_->now_ns();
  RemoteCache::Fetch found = remote_->get(key);
  if (found.status == RemoteCache::Fetch::Unavailable) {
    remote_failed();
    return std::nullopt;
  }
  if (found.status == RemoteCache::Fetch::Hit) {
    std::optional<Kernel> k = accept_remote(request, compiler, key, found.entry, t0);
    refused = !k;
    return k;
  }
  ++counters_->remote_misses;
  recorder_->record(TraceEventKind::RemoteMiss, key, request.target);
  remote_->count({.misses = 1});
  return std::nullopt;
}

// Releases a key's lock in the shared cache when the compile that took it ends, however it ends.
struct Loader::RemoteClaim {
  RemoteCache* remote = nullptr;
  std::string key;
  RemoteClaim() = default;
  RemoteClaim(const RemoteClaim&) = delete;
  RemoteClaim& operator=(const RemoteClaim&) = delete;
  ~RemoteClaim() {
    if (remote) remote->unlock(key);
  }
};

Kernel Loader::load_uncached(const KernelRequest& request, const Compiler& compiler, const std::string& key) {
  const std::string& target = request.target;
  std::unique_ptr<DiskCache::KeyLock> lock;
  RemoteClaim claim;
  bool remote_usable = remote_ && remote_->available();
  if (disk_) {
    if (std::optional<Kernel> k = load_from_disk(request, compiler, key, false)) return *k;
    bool refused_remote = false;  // an entry was there but would not do
    if (remote_usable) {
      if (std::optional<Kernel> k = load_from_remote(request, compiler, key, refused_remote)) return *k;
    }
    // Other processes may be compiling this key right now: wait for the one that holds its
    // lock and take its entry rather than compile it again.
    lock = disk_->lock(key);
    if (lock->held()) {
      if (std::optional<Kernel> k = load_from_disk(request, compiler, key, true)) return *k;
    }
    // The same across hosts: one of them compiles, the others wait for its published entry.
    if (remote_usable && remote_->available()) {
      int64_t t0 = recorder_->now_ns();
      std::vector<uint8_t> entry;
      RemoteCache::Claim c = remote_->claim(key, !refused_remote, entry);
      if (c == RemoteCache::Claim::Held) {
        claim.remote = remote_.get();
        claim.key = key;
      } else if (c == RemoteCache::Claim::Published) {
        if (std::optional<Kernel> k = accept_remote(request, compiler, key, entry, t0)) return *k;
      } else if (!remote_->available()) {
        remote_failed();
      }
    }
  }

  ++counters_->compiles;
  recorder_->record(TraceEventKind::CompileStart, key, target, request.entry);
  int64_t t0 = recorder_->now_ns();
  std::vector<uint8_t> artifact;
  std::shared_ptr<const KernelModule> module;
  try {
    artifact = compiler.compile(request);
    recorder_->record(TraceEventKind::CompileEnd, key, target, request.entry, recorder_->now_ns() - t0);
    module = compiler.load(artifact, request);
  } catch (const LoadError& e) {
    if (e.kind() == LoadErrorKind::CompileFailed)
      recorder_->record(TraceEventKind::CompileEnd, key, target, "failed", recorder_->now_ns() - t0, 1);
    fail(e, key, target);
  } catch (const std::exception& e) {
    fail(LoadError(LoadErrorKind::Internal, std::string("loading a kernel failed: ") + e.what()), key,
         target);
  }

  // Written only once it has loaded and its entry resolved: the cache never holds a bad object.
  if (disk_) {
    std::vector<std::string> evicted;
    std::string error = disk_->write(key, artifact, evicted);
    if (error.empty()) {
      ++counters_->disk_writes;
      recorder_->record(TraceEventKind::DiskWrite, key, target, {}, -1,
                        static_cast<int32_t>(artifact.size()));
    } else {
      recorder_->record(TraceEventKind::Warning, key, target, error);
      warn_once(error);
    }
    for (const std::string& k : evicted) recorder_->record(TraceEventKind::Evict, k, {});
    if (error.empty()) disk_->count({.writes = 1, .bytes_written = artifact.size()});
    if (remote_usable) publish(key, target, artifact);
  }
  return Kernel(std::move(module), key, recorder_);
}

void Loader::fail(const LoadError& error, const std::string& key, const std::string& target) {
  ++counters_->errors;
  recorder_->record_error(key, target, error.what());
  std::string path = write_trace(*recorder_);
  std::string where = path.empty() ? "" : "\n(flight recorder written to " + path + ")";
  throw LoadError(error.kind(), error.what() + where);
}

LoaderStats Loader::stats() const {
  LoaderStats s;
  s.compiles = counters_->compiles;
  s.memory_hits = counters_->memory_hits;
  s.disk_hits = counters_->disk_hits;
  s.disk_misses = counters_->disk_misses;
  s.rejects = counters_->rejects;
  s.disk_writes = counters_->disk_writes;
  s.errors = counters_->errors;
  s.remote_hits = counters_->remote_hits;
  s.remote_misses = counters_->remote_misses;
  s.remote_rejects = counters_->remote_rejects;
  s.remote_writes = counters_->remote_writes;
  return s;
}

std::string Loader::cache_dir() const { return disk_ ? disk_->dir() : std::string(); }

std::string Loader::remote_cache() const { return remote_ ? remote_->url() : std::string(); }

namespace {

// Blobs share the folder with kernels: a key scheme of their own keeps the two key spaces apart.
std::string blob_key(const std::string& name) {
  Sha256 h;
  h.update_field("attnc-blob-key/1");
  h.update_field(name);
  return to_hex(h.finish());
}

}  // namespace

bool Loader::store_blob(const std::string& name, const std::vector<uint8_t>& blob) {
  if (!disk_) return false;
  const std::string key = blob_key(name);
  std::vector<std::string> evicted;
  std::string error = disk_->write(key, blob, evicted);
  for (const std::string& k : evicted) recorder_->record(TraceEventKind::Evict, k, {});
  if (!error.empty()) {
    recorder_->record(TraceEventKind::Warning, key, {}, error);
    warn_once(error);
    return false;
  }
  ++counters_->disk_writes;
  recorder_->record(TraceEventKind::DiskWrite, key, {}, {}, -1, static_cast<int32_t>(blob.size()));
  // Shared too: a generated source saves the next host its generation as an entry saves a compile.
  if (remote_) publish(key, {}, blob);
  return true;
}

std::optional<std::vector<uint8_t>> Loader::load_blob(const std::string& name) const {
  if (!disk_) return std::nullopt;
  const std::string key = blob_key(name);
  DiskCache::Lookup found = disk_->read(key);
  if (found.status == DiskCache::Lookup::Hit) return std::move(found.payload);
  if (!remote_ || !remote_->available()) return std::nullopt;
  int64_t t0 = recorder_->now_ns();
  RemoteCache::Fetch fetched = remote_->get(key);
  std::vector<uint8_t> blob;
  if (fetched.status == RemoteCache::Fetch::Unavailable) {
    remote_failed();
  } else if (fetched.status == RemoteCache::Fetch::Miss) {
    remote_->count({.misses = 1});
  } else if (EntryProblem p = disk_->unseal(key, fetched.entry, blob); p != EntryProblem::Ok) {
    recorder_->record(TraceEventKind::RemoteReject, key, {}, entry_problem_name(p));
    remote_->count({.rejects = 1});
  } else {
    recorder_->record(TraceEventKind::RemoteHit, key, {}, {}, recorder_->now_ns() - t0,
                      static_cast<int32_t>(fetched.entry.size()));
    remote_->count({.hits = 1, .bytes_read = fetched.entry.size()});
    keep_locally(key, blob);
    return blob;
  }
  return std::nullopt;
}

std::string write_trace(const FlightRecorder& recorder) {
  if (const char* p = std::getenv("ATTNC_TRACE"); p && *p) return recorder.dump(p) ? p : "";
  // A fresh name: a fixed one in a shared folder could be a link planted by another user.
  return recorder.dump_to_new_file(temp_root() + "/attnc-trace-" + std::to_string(getpid()) + "-", ".json");
}

}  // namespace attn
