// The on-disk kernel cache, plus `attnc cache stats|clear`.
#include "runtime/DiskCache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

#include "attn/loader.hpp"
#include "runtime/TempDir.h"

namespace fs = std::filesystem;

namespace attn {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Temporary names start with a dot so that listings of entries never see them.
std::string temp_name(const std::string& dir, const std::string& stem) {
  static std::atomic<uint64_t> counter{0};
  return dir + "/." + stem + "." + std::to_string(getpid()) + "." + std::to_string(counter++) + ".tmp";
}

struct EntryFile {
  std::string path, key;
  uint64_t size;
  timespec mtime;
};

std::vector<EntryFile> list_entries(const std::string& dir) {
  std::vector<EntryFile> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.' || !ends_with(name, kCacheEntrySuffix)) continue;
    struct stat st;
    if (::stat(it->path().c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    out.push_back({it->path().string(), name.substr(0, name.size() - std::strlen(kCacheEntrySuffix)),
                   static_cast<uint64_t>(st.st_size), st.st_mtim});
  }
  return out;
}

// Removes temporary files (ours, by name) last modified more than `min_age_s` ago: a writer
// killed between write and rename leaves one behind.
void remove_temporaries(const std::string& dir, time_t min_age_s) {
  time_t now = time(nullptr);
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    struct stat st;
    if (name.size() < 2 || name[0] != '.' || !ends_with(name, ".tmp")) continue;
    if (::stat(it->path().c_str(), &st) == 0 && now - st.st_mtim.tv_sec >= min_age_s)
      ::unlink(it->path().c_str());
  }
}

}  // namespace

uint64_t cache_max_bytes_from_env() {
  double mb = 1024;
  if (const char* s = std::getenv("ATTNC_CACHE_MAX_MB")) {
    char* end = nullptr;
    double v = std::strtod(s, &end);
    if (end != s && std::isfinite(v) && v >= 0) mb = v;
  }
  return static_cast<uint64_t>(mb * 1024 * 1024);
}

std::unique_ptr<DiskCache> DiskCache::open(const std::string& dir, uint64_t max_bytes, std::string& why) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    why = "cannot create cache directory " + dir + ": " + ec.message();
    return nullptr;
  }
  // Permission bits do not stop root: only an actual write tells.
  std::string probe = temp_name(dir, "probe");
  if (!write_file(probe, "", 0)) {
    why = "cannot write to cache directory " + dir + ": " + std::generic_category().message(errno);
    return nullptr;
  }
  ::unlink(probe.c_str());
  return std::unique_ptr<DiskCache>(new DiskCache(dir, max_bytes));
}

std::string DiskCache::entry_path(const std::string& key) const {
  return dir_ + "/" + key + kCacheEntrySuffix;
}

DiskCache::Lookup DiskCache::read(const std::string& key) const {
  Lookup result;
  std::string path = entry_path(key);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return result;
    result.status = Lookup::Rejected;
    result.reason = std::string("unreadable: ") + std::generic_category().message(errno);
    return result;
  }
  std::vector<uint8_t> bytes;
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) bytes.reserve(static_cast<size_t>(st.st_size));
  uint8_t buf[65536];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) != 0) {
    if (n < 0) {
      if (errno == EINTR) continue;
      result.status = Lookup::Rejected;
      result.reason = std::string("unreadable: ") + std::generic_category().message(errno);
      ::close(fd);
      return result;
    }
    bytes.insert(bytes.end(), buf, buf + n);
  }
  ::close(fd);
  EntryProblem problem = decode_cache_entry(bytes, key, result.payload);
  if (problem != EntryProblem::Ok) {
    result.status = Lookup::Rejected;
    result.reason = entry_problem_name(problem);
    result.payload.clear();
    return result;
  }
  result.status = Lookup::Hit;
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
  return result;
}

std::string DiskCache::write(const std::string& key, const std::vector<uint8_t>& payload,
                             std::vector<std::string>& evicted) const {
  std::vector<uint8_t> entry = encode_cache_entry(key, payload);
  std::string tmp = temp_name(dir_, key);
  if (!write_file(tmp, entry.data(), entry.size())) {
    std::string why = std::generic_category().message(errno);
    ::unlink(tmp.c_str());
    return "cannot write " + tmp + ": " + why;
  }
  // rename(2) is atomic: readers see the old entry or the new one, never a mix; two processes
  // writing the same key both succeed and the last one's (identical-key, valid) entry stays.
  if (::rename(tmp.c_str(), entry_path(key).c_str()) != 0) {
    std::string why = std::generic_category().message(errno);
    ::unlink(tmp.c_str());
    return "cannot rename " + tmp + ": " + why;
  }
  evict(key, evicted);
  return {};
}

void DiskCache::evict(const std::string& keep, std::vector<std::string>& evicted) const {
  std::vector<EntryFile> entries = list_entries(dir_);
  uint64_t total = 0;
  for (const EntryFile& e : entries) total += e.size;
  if (total <= max_bytes_) return;
  remove_temporaries(dir_, 3600);
  std::sort(entries.begin(), entries.end(), [](const EntryFile& a, const EntryFile& b) {
    if (a.mtime.tv_sec != b.mtime.tv_sec) return a.mtime.tv_sec < b.mtime.tv_sec;
    if (a.mtime.tv_nsec != b.mtime.tv_nsec) return a.mtime.tv_nsec < b.mtime.tv_nsec;
    return a.key < b.key;
  });
  for (const EntryFile& e : entries) {
    if (total <= max_bytes_) break;
    if (e.key == keep) continue;
    // Another process may have removed it already; either way it no longer counts.
    ::unlink(e.path.c_str());
    total -= e.size;
    evicted.push_back(e.key);
  }
}

std::string default_cache_dir() {
  if (const char* d = std::getenv("ATTNC_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/attnc";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/attnc";
  return temp_root() + "/attnc-cache-" + std::to_string(getuid());
}

CacheStats cache_stats(const std::string& dir) {
  CacheStats s;
  s.dir = dir.empty() ? default_cache_dir() : dir;
  s.max_bytes = cache_max_bytes_from_env();
  for (const EntryFile& e : list_entries(s.dir)) {
    ++s.entries;
    s.bytes += e.size;
  }
  return s;
}

uint64_t cache_clear(const std::string& dir) {
  std::string d = dir.empty() ? default_cache_dir() : dir;
  uint64_t removed = 0;
  for (const EntryFile& e : list_entries(d))
    if (::unlink(e.path.c_str()) == 0) ++removed;
  remove_temporaries(d, 0);
  return removed;
}

}  // namespace attn
