// The byte format of one disk cache entry: a fixed header (magic, version, key, size, checksum) + payload.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

/// The entry format's version; an entry of another version is rejected (and rebuilt).
constexpr uint32_t kCacheEntryFormat = 1;
/// The header's size in bytes: magic[8], format u32, header size u32, key[64], payload size u64,
/// payload SHA-256[32].
constexpr size_t kCacheEntryHeaderSize = 8 + 4 + 4 + 64 + 8 + 32;

/// Why an entry was not accepted; Ok when it was.
enum class EntryProblem { Ok, Truncated, BadMagic, OtherFormat, KeyMismatch, SizeMismatch, Checksum };

/// A short phrase for `p` ("checksum mismatch"), used in the flight recorder.
const char* entry_problem_name(EntryProblem p);

/// The header and payload for `key` (64 hex digits).
std::vector<uint8_t> encode_cache_entry(const std::string& key, const std::vector<uint8_t>& payload);

/// Checks `entry` against `key`; on Ok, `payload` receives the payload bytes.
EntryProblem decode_cache_entry(const std::vector<uint8_t>& entry, const std::string& key,
                                std::vector<uint8_t>& payload);

}  // namespace attn
