// A cache directory's traffic counters (hits, misses, bytes: attn::CacheTraffic), summed over every
// process that used it, in the dot-named file `.traffic` beside the entries.
#pragma once

#include "attn/loader.hpp"

namespace attn {

/// The counters file's name in the cache directory.
constexpr const char* kCacheTrafficFile = ".traffic";

/// Adds `delta` to the counters of the directory open as `dirfd` (the file is created 0600 and
/// updated under flock(2)); false, changing nothing, when the file is not a regular file of this
/// user's in the expected format (a link or anything planted is never followed or written).
bool add_cache_traffic(int dirfd, const CacheTraffic& delta);
/// The counters of the directory open as `dirfd`; zero when there are none yet (or they are bad).
CacheTraffic read_cache_traffic(int dirfd);

}  // namespace attn
