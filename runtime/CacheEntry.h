// The byte format of one disk cache entry: a fixed header (magic, version, key, size, checksum,
// signature) + payload.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/CacheSecret.h"

namespace attn {

/// The entry format's version; an entry of another version is rejected (and rebuilt).
constexpr uint32_t kCacheEntryFormat = 2;
/// The header's size in bytes: magic[8], format u32, header size u32, key[64], payload size u64,
/// payload SHA-256[32], HMAC-SHA256[32] of the bytes before it under the user's CacheSecret.
constexpr size_t kCacheEntryHeaderSize = 8 + 4 + 4 + 64 + 8 + 32 + 32;
/// The largest payload a reader accepts (1 GiB): a header cannot make it read without bound.
constexpr uint64_t kMaxCachePayloadBytes = uint64_t{1} << 30;

/// Why an entry was not accepted; Ok when it was.
enum class EntryProblem {
  Ok,
  Truncated,
  BadMagic,
  OtherFormat,
  KeyMismatch,
  SizeMismatch,
  TooLarge,
  Checksum,
  Unauthenticated
};

/// A short phrase for `p` ("checksum mismatch"), used in the flight recorder.
const char* entry_problem_name(EntryProblem p);

/// The header and payload for `key` (64 hex digits), signed with `secret`.
std::vector<uint8_t> encode_cache_entry(const std::string& key, const std::vector<uint8_t>& payload,
                                        const CacheSecret& secret);

/// Checks the first `size` bytes of an entry (its header, or less) against `key`: magic, format
/// and key. On Ok, `payload_size` receives the size the header announces (at most
/// kMaxCachePayloadBytes, else TooLarge).
EntryProblem check_cache_entry_header(const uint8_t* header, size_t size, const std::string& key,
                                      uint64_t& payload_size);

/// Checks `entry` against `key` and `secret`; on Ok, `payload` receives the payload bytes.
EntryProblem decode_cache_entry(const std::vector<uint8_t>& entry, const std::string& key,
                                const CacheSecret& secret, std::vector<uint8_t>& payload);

/// True if the `size` bytes at `head` begin with the entry magic (any format version).
bool has_cache_entry_magic(const uint8_t* head, size_t size);

}  // namespace attn
