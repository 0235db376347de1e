// HMAC-SHA256 (RFC 2104) on runtime/Sha256: authenticates disk cache entries with the user's key.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/Sha256.h"

namespace attn {

/// The HMAC-SHA256 of `size` bytes at `data` under the `key_size`-byte key at `key`.
Sha256Digest hmac_sha256(const void* key, size_t key_size, const void* data, size_t size);

/// Compares two digests in time independent of where they differ.
bool digests_equal(const uint8_t* a, const uint8_t* b, size_t size);

}  // namespace attn
