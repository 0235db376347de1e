// HMAC-SHA256 on runtime/Sha256.
#include "runtime/Hmac.h"

#include <cstring>

namespace attn {

Sha256Digest hmac_sha256(const void* key, size_t key_size, const void* data, size_t size) {
  constexpr size_t kBlock = 64;
  uint8_t block[kBlock] = {};
  if (key_size > kBlock) {
    Sha256Digest k = sha256(key, key_size);
    std::memcpy(block, k.data(), k.size());
  } else if (key_size > 0) {
    std::memcpy(block, key, key_size);
  }
  uint8_t pad[kBlock];
  for (size_t i = 0; i < kBlock; ++i) pad[i] = block[i] ^ 0x36;
  Sha256 inner;
  inner.update(pad, kBlock);
  inner.update(data, size);
  Sha256Digest inner_digest = inner.finish();
  for (size_t i = 0; i < kBlock; ++i) pad[i] = block[i] ^ 0x5c;
  Sha256 outer;
  outer.update(pad, kBlock);
  outer.update(inner_digest.data(), inner_digest.size());
  return outer.finish();
}

bool digests_equal(const uint8_t* a, const uint8_t* b, size_t size) {
  uint8_t diff = 0;
  for (size_t i = 0; i < size; ++i) diff |= static_cast<uint8_t>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace attn
