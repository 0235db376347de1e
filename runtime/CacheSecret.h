// The per-user key that signs disk cache entries (HMAC-SHA256), kept outside the cache it guards.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace attn {

/// 32 random bytes, created once per user.
using CacheSecret = std::array<uint8_t, 32>;

/// The key file's name inside its folder.
constexpr const char* kCacheSecretFile = "cache.key";

/// The folder that holds the key: $XDG_CONFIG_HOME/attnc, else $HOME/.config/attnc; empty when
/// neither variable is set (the cache directory holds it then).
std::string cache_secret_dir();

/// The key named by ATTNC_CACHE_KEY_FILE when that is set (a fleet's shared key, which must exist:
/// it is never created), else the user's key from `cache_secret_dir()` (or, when that is empty or fails
/// open_private_dir(), from the cache directory open as `cache_dirfd`), created there on first use: 32 bytes
/// from getrandom(2) in a 0600 file written under a unique name and linked into place, so racing processes
/// all read one key. The file must be a regular 32-byte file of this user's that no one else can read or
/// write. Returns nothing and sets `why` otherwise.
std::optional<CacheSecret> load_cache_secret(int cache_dirfd, std::string& why);

}  // namespace attn
