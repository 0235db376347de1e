// SHA-256 through OpenSSL's EVP interface.
#include "runtime/Sha256.h"

#include <openssl/evp.h>

#include <stdexcept>

namespace attn {

namespace {

// OpenSSL 3 looks the implementation up in its provider registry on every init when given
// EVP_sha256(); fetching it once keeps in-process cache hits in microseconds.
const EVP_MD* sha256_md() {
  static const EVP_MD* md = [] {
    const EVP_MD* fetched = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    return fetched ? fetched : EVP_sha256();
  }();
  return md;
}

}  // namespace

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
  if (!ctx_ || EVP_DigestInit_ex(static_cast<EVP_MD_CTX*>(ctx_), sha256_md(), nullptr) != 1)
    throw std::runtime_error("OpenSSL: cannot initialise SHA-256");
}

Sha256::~Sha256() { EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_)); }

void Sha256::update(const void* data, size_t size) {
  if (EVP_DigestUpdate(static_cast<EVP_MD_CTX*>(ctx_), data, size) != 1)
    throw std::runtime_error("OpenSSL: SHA-256 update failed");
}

void Sha256::update_field(std::string_view field) {
  uint64_t n = field.size();
  update(&n, sizeof n);
  update(field.data(), field.size());
}

Sha256Digest Sha256::finish() {
  Sha256Digest d{};
  unsigned int len = 0;
  if (EVP_DigestFinal_ex(static_cast<EVP_MD_CTX*>(ctx_), d.data(), &len) != 1 || len != d.size())
    throw std::runtime_error("OpenSSL: SHA-256 final failed");
  return d;
}

Sha256Digest sha256(const void* data, size_t size) {
  Sha256 h;
  h.update(data, size);
  return h.finish();
}

std::string to_hex(const Sha256Digest& digest) {
  static const char* digits = "0123456789abcdef";
  std::string s(64, '0');
  for (size_t i = 0; i < digest.size(); ++i) {
    s[2 * i] = digits[digest[i] >> 4];
    s[2 * i + 1] = digits[digest[i] & 15];
  }
  return s;
}

}  // namespace attn
