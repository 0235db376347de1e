// SHA-256 through OpenSSL's EVP interface: cache keys and cache entry checksums.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace attn {

/// A 32-byte SHA-256 digest.
using Sha256Digest = std::array<uint8_t, 32>;

/// An incremental SHA-256.
class Sha256 {
 public:
  /// Starts a digest; throws std::runtime_error if OpenSSL cannot.
  Sha256();
  /// Frees the OpenSSL context.
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  /// Adds bytes.
  void update(const void* data, size_t size);
  /// Adds a length-prefixed field, so that ("ab","c") and ("a","bc") hash differently.
  void update_field(std::string_view field);
  /// The digest; the hasher cannot be updated afterwards.
  Sha256Digest finish();

 private:
  void* ctx_;  // EVP_MD_CTX*, kept out of this header
};

/// The digest of `size` bytes at `data`.
Sha256Digest sha256(const void* data, size_t size);
/// 64 lowercase hex digits.
std::string to_hex(const Sha256Digest& digest);

}  // namespace attn
