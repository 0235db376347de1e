// The byte format of one disk cache entry.
#include "runtime/CacheEntry.h"

#include <algorithm>
#include <cstring>

#include "runtime/Hmac.h"
#include "runtime/Sha256.h"

namespace attn {
namespace {

constexpr char kMagic[8] = {'A', 'T', 'T', 'N', 'C', 'K', 'E', '\x01'};
constexpr size_t kKeyOffset = 16, kSizeOffset = 80, kSumOffset = 88, kMacOffset = 120;

// Entries are only ever read on the machine (architecture) that wrote them: the key includes the
// host CPU, so native byte order is fine.
template <class T>
void put(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

template <class T>
T get(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// The signature covers every header byte before it, the payload's SHA-256 included, so it
// authenticates the payload without a second pass over it.
Sha256Digest signature(const uint8_t* header, const CacheSecret& secret) {
  return hmac_sha256(secret.data(), secret.size(), header, kMacOffset);
}

}  // namespace

const char* entry_problem_name(EntryProblem p) {
  switch (p) {
    case EntryProblem::Ok: return "ok";
    case EntryProblem::Truncated: return "truncated";
    case EntryProblem::BadMagic: return "bad magic";
    case EntryProblem::OtherFormat: return "other entry format";
    case EntryProblem::KeyMismatch: return "key mismatch";
    case EntryProblem::SizeMismatch: return "size mismatch";
    case EntryProblem::TooLarge: return "too large";
    case EntryProblem::Checksum: return "checksum mismatch";
    case EntryProblem::Unauthenticated: return "not signed with this user's key";
  }
  return "?";
}

bool has_cache_entry_magic(const uint8_t* head, size_t size) {
  return size >= sizeof kMagic && std::memcmp(head, kMagic, sizeof kMagic) == 0;
}

std::vector<uint8_t> encode_cache_entry(const std::string& key, const std::vector<uint8_t>& payload,
                                        const CacheSecret& secret) {
  std::vector<uint8_t> out(kCacheEntryHeaderSize + payload.size());
  uint8_t* p = out.data();
  std::memcpy(p, kMagic, 8);
  put<uint32_t>(p + 8, kCacheEntryFormat);
  put<uint32_t>(p + 12, static_cast<uint32_t>(kCacheEntryHeaderSize));
  std::memcpy(p + kKeyOffset, key.data(), std::min<size_t>(key.size(), 64));  // the rest stays zero
  put<uint64_t>(p + kSizeOffset, payload.size());
  Sha256Digest sum = sha256(payload.data(), payload.size());
  std::memcpy(p + kSumOffset, sum.data(), sum.size());
  Sha256Digest mac = signature(p, secret);
  std::memcpy(p + kMacOffset, mac.data(), mac.size());
  if (!payload.empty()) std::memcpy(p + kCacheEntryHeaderSize, payload.data(), payload.size());
  return out;
}

EntryProblem check_cache_entry_header(const uint8_t* p, size_t size, const std::string& key,
                                      uint64_t& payload_size) {
  if (size < 8) return EntryProblem::Truncated;
  if (!has_cache_entry_magic(p, size)) return EntryProblem::BadMagic;
  if (size < 16) return EntryProblem::Truncated;
  if (get<uint32_t>(p + 8) != kCacheEntryFormat || get<uint32_t>(p + 12) != kCacheEntryHeaderSize)
    return EntryProblem::OtherFormat;
  if (size < kCacheEntryHeaderSize) return EntryProblem::Truncated;
  std::string k = key;
  k.resize(64, '\0');
  if (std::memcmp(p + kKeyOffset, k.data(), 64) != 0) return EntryProblem::KeyMismatch;
  payload_size = get<uint64_t>(p + kSizeOffset);
  if (payload_size > kMaxCachePayloadBytes) return EntryProblem::TooLarge;
  return EntryProblem::Ok;
}

EntryProblem decode_cache_entry(const std::vector<uint8_t>& entry, const std::string& key,
                                const CacheSecret& secret, std::vector<uint8_t>& payload) {
  uint64_t size = 0;
  EntryProblem problem = check_cache_entry_header(entry.data(), entry.size(), key, size);
  if (problem != EntryProblem::Ok) return problem;
  const uint8_t* p = entry.data();
  uint64_t have = entry.size() - kCacheEntryHeaderSize;
  if (have < size) return EntryProblem::Truncated;
  if (have > size) return EntryProblem::SizeMismatch;
  const uint8_t* body = p + kCacheEntryHeaderSize;
  Sha256Digest sum = sha256(body, size);
  if (std::memcmp(sum.data(), p + kSumOffset, 32) != 0) return EntryProblem::Checksum;
  Sha256Digest mac = signature(p, secret);
  if (!digests_equal(mac.data(), p + kMacOffset, 32)) return EntryProblem::Unauthenticated;
  payload.assign(body, body + size);
  return EntryProblem::Ok;
}

}  // namespace attn
