// The shared kernel cache on Redis (ATTNC_REMOTE_CACHE=redis://host:port/db): signed entries under
// `attnc:entry:<key>`, a short-lived lock per key for single flight across hosts, fleet-wide
// traffic counters in the hash `attnc:stats`. Every command has a time-out; the first failure
// turns the client off for good (the loader warns once and compiles locally).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "attn/loader.hpp"

namespace attn {

/// Where a Redis server is: `redis://[[user]:password@]host[:port][/db]`.
struct RedisAddress {
  std::string host;
  int port = 6379;
  int db = 0;
  std::string user, password;  ///< AUTH, when a password is given.
};

/// Parses `url`; returns nothing and sets `why` ("redis://h:x: the port is not a number") when it
/// is not a redis:// URL of that form.
std::optional<RedisAddress> parse_redis_url(const std::string& url, std::string& why);

/// Per-command time-out of the loader's client: what a slow or dead server costs a lookup.
constexpr int kRemoteCacheTimeoutMs = 50;
/// How long a host's claim on a key (its compile) may last before others stop waiting for it.
constexpr int kRemoteLockMs = 120000;

/// One connection to the shared cache. Thread-safe (one command at a time).
class RemoteCache {
 public:
  /// A client for `url` (connected on first use) with `timeout_ms` per command; null with `why`
  /// when the URL is malformed or this build has no Redis client.
  static std::unique_ptr<RemoteCache> open(const std::string& url, int timeout_ms, std::string& why);
  ~RemoteCache();
  RemoteCache(const RemoteCache&) = delete;
  RemoteCache& operator=(const RemoteCache&) = delete;

  /// What a lookup found. Entries are returned as stored; the caller verifies them.
  struct Fetch {
    enum Status { Hit, Miss, Unavailable } status = Miss;
    std::vector<uint8_t> entry;
  };
  /// The entry of `key`.
  Fetch get(const std::string& key);
  /// Stores `entry` under `key`; false when the server is unavailable.
  bool put(const std::string& key, const std::vector<uint8_t>& entry);

  /// The outcome of claim().
  enum class Claim {
    Held,        ///< This process holds the key's lock: compile, put(), then unlock().
    Published,   ///< Another host published the entry while this one waited: in `entry`.
    Unavailable  ///< The server failed (or the wait outlasted the lock): compile locally.
  };
  /// Takes the key's lock (SET NX with a kRemoteLockMs expiry), or waits for the host that holds
  /// it to publish the entry or let the lock go, polling every few milliseconds. With
  /// `look_again`, an entry found just after taking the lock (published by a host that finished
  /// in the meantime) is returned as Published, the lock let go; without it (the caller has just
  /// refused the entry there), the lock is Held.
  Claim claim(const std::string& key, bool look_again, std::vector<uint8_t>& entry);
  /// Releases the lock claim() took, only if it is still this process's (a Lua compare-and-delete).
  void unlock(const std::string& key);

  /// Adds `delta` to the fleet-wide counters (one pipelined round trip).
  void count(const CacheTraffic& delta);
  /// The server's entries, their bytes and the fleet-wide counters; `problem` set on failure.
  RemoteCacheStats stats();

  /// False once a command has failed; problem() then says why.
  bool available() const;
  /// The first failure ("redis://127.0.0.1:6390/0: Connection refused"), or "".
  std::string problem() const;
  /// The URL it was opened with.
  const std::string& url() const { return url_; }

  struct Connection;  ///< The client library's connection (RemoteCache.cpp).

 private:
  RemoteCache(std::string url, RedisAddress address, int timeout_ms);
  std::string url_;
  RedisAddress address_;
  int timeout_ms_;
  std::string token_;  ///< This process's lock value (host, pid, random).
  mutable std::mutex mutex_;
  std::unique_ptr<Connection> connection_;
};

}  // namespace attn
