// `attnc cache stats|clear`: the loader's disk cache.
#include <iostream>

#include "attn/loader.hpp"
#include "cli/Commands.h"

namespace attn::cli {

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
              << " MiB\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "attnc: error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace attn::cli
