// The byte format of one disk cache entry.
#include "runtime/CacheEntry.h"

#include <algorithm>
#include <cstring>

#include "runtime/Sha256.h"

namespace attn {
namespace {

constexpr char kMagic[8] = {'A', 'T', 'T', 'N', 'C', 'K', 'E', '\x01'};

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

}  // namespace

const char* entry_problem_name(EntryProblem p) {
  switch (p) {
    case EntryProblem::Ok: return "ok";
    case EntryProblem::Truncated: return "truncated";
    case EntryProblem::BadMagic: return "bad magic";
    case EntryProblem::OtherFormat: return "other entry format";
    case EntryProblem::KeyMismatch: return "key mismatch";
    case EntryProblem::SizeMismatch: return "size mismatch";
    case EntryProblem::Checksum: return "checksum mismatch";
  }
  return "?";
}

std::vector<uint8_t> encode_cache_entry(const std::string& key, const std::vector<uint8_t>& payload) {
  std::vector<uint8_t> out(kCacheEntryHeaderSize + payload.size());
  uint8_t* p = out.data();
  std::memcpy(p, kMagic, 8);
  put<uint32_t>(p + 8, kCacheEntryFormat);
  put<uint32_t>(p + 12, static_cast<uint32_t>(kCacheEntryHeaderSize));
  std::memcpy(p + 16, key.data(), std::min<size_t>(key.size(), 64));  // the rest stays zero
  put<uint64_t>(p + 80, payload.size());
  Sha256Digest sum = sha256(payload.data(), payload.size());
  std::memcpy(p + 88, sum.data(), sum.size());
  if (!payload.empty()) std::memcpy(p + kCacheEntryHeaderSize, payload.data(), payload.size());
  return out;
}

EntryProblem decode_cache_entry(const std::vector<uint8_t>& entry, const std::string& key,
                                std::vector<uint8_t>& payload) {
  if (entry.size() < 8) return EntryProblem::Truncated;
  const uint8_t* p = entry.data();
  if (std::memcmp(p, kMagic, 8) != 0) return EntryProblem::BadMagic;
  if (entry.size() < kCacheEntryHeaderSize) return EntryProblem::Truncated;
  if (get<uint32_t>(p + 8) != kCacheEntryFormat || get<uint32_t>(p + 12) != kCacheEntryHeaderSize)
    return EntryProblem::OtherFormat;
  std::string k = key;
  k.resize(64, '\0');
  if (std::memcmp(p + 16, k.data(), 64) != 0) return EntryProblem::KeyMismatch;
  uint64_t size = get<uint64_t>(p + 80);
  uint64_t have = entry.size() - kCacheEntryHeaderSize;
  if (have < size) return EntryProblem::Truncated;
  if (have > size) return EntryProblem::SizeMismatch;
  const uint8_t* body = p + kCacheEntryHeaderSize;
  Sha256Digest sum = sha256(body, size);
  if (std::memcmp(sum.data(), p + 88, 32) != 0) return EntryProblem::Checksum;
  payload.assign(body, body + size);
  return EntryProblem::Ok;
}

}  // namespace attn
