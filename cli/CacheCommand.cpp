// `attnc cache stats|clear`: the loader's disk cache, and the shared cache when one is set.
#include <iostream>
#include <string>

#include "attn/loader.hpp"
#include "cli/Commands.h"

namespace attn::cli {
namespace {

std::string kib(uint64_t bytes) { return std::to_string((bytes + 1023) / 1024) + " KiB"; }

std::string traffic_line(const CacheTraffic& t) {
  return std::to_string(t.hits) + " hits (" + kib(t.bytes_read) + "), " + std::to_string(t.misses) +
         " misses, " + std::to_string(t.rejects) + " rejected, " + std::to_string(t.writes) + " written (" +
         kib(t.bytes_written) + ")";
}

}  // namespace

int run_cache(const CacheOptions& o) {
  try {
    if (o.action == "clear") {
      uint64_t removed = cache_clear();
      std::cout << "removed " << removed << " entr" << (removed == 1 ? "y" : "ies") << " from "
                << default_cache_dir() << "\n";
      return 0;
    }
    CacheStats s = cache_stats();
    if (!s.problem.empty()) std::cerr << "attnc: warning: " << s.problem << "\n";
    std::cout << "cache directory: " << (s.dir.empty() ? "(none: memory only)" : s.dir) << "\n"
              << "entries:         " << s.entries << "\n"
              << "size:            " << s.bytes / 1024 << " KiB of " << s.max_bytes / (1024 * 1024)
              << " MiB\n"
              << "traffic:         " << traffic_line(s.traffic) << "\n";
    RemoteCacheStats r = remote_cache_stats();
    if (r.url.empty()) return 0;
    std::cout << "shared cache:    " << r.url << "\n";
    if (!r.problem.empty()) {
      std::cerr << "attnc: error: cannot read the shared cache: " << r.problem << "\n";
      return 1;
    }
    std::cout << "shared entries:  " << r.entries << " (" << kib(r.bytes) << ")\n"
              << "shared traffic:  " << traffic_line(r.traffic) << " (every host)\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "attnc: error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace attn::cli
