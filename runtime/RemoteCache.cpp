// The shared kernel cache on Redis, through hiredis (blocking API, one connection per loader).
#include "runtime/RemoteCache.h"

#include <signal.h>
#include <sys/random.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#ifdef ATTNC_HAVE_HIREDIS
#include <hiredis/hiredis.h>
#endif

namespace attn {
namespace {

bool parse_int(const std::string& s, int lo, int hi, int& out) {
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) return false;
  long v = std::strtol(s.c_str(), nullptr, 10);
  if (v < lo || v > hi) return false;
  out = static_cast<int>(v);
  return true;
}

}  // namespace

std::optional<RedisAddress> parse_redis_url(const std::string& url, std::string& why) {
  const std::string scheme = "redis://";
  auto fail = [&](const std::string& what) -> std::optional<RedisAddress> {
    why = "'" + url + "': " + what + " (expected redis://[[user]:password@]host[:port][/db])";
    return std::nullopt;
  };
  if (url.compare(0, scheme.size(), scheme) != 0) return fail("not a redis:// URL");
  RedisAddress a;
  std::string rest = url.substr(scheme.size());
  if (size_t at = rest.rfind('@'); at != std::string::npos) {
    std::string credentials = rest.substr(0, at);
    rest = rest.substr(at + 1);
    size_t colon = credentials.find(':');
    if (colon == std::string::npos) return fail("credentials need a password (user:password@ or :password@)");
    a.user = credentials.substr(0, colon);
    a.password = credentials.substr(colon + 1);
  }
  if (size_t slash = rest.find('/'); slash != std::string::npos) {
    std::string db = rest.substr(slash + 1);
    rest = rest.substr(0, slash);
    if (!db.empty() && !parse_int(db, 0, 1 << 20, a.db)) return fail("the database is not a number");
  }
  if (!rest.empty() && rest[0] == '[') {  // [IPv6]:port
    size_t close = rest.find(']');
    if (close == std::string::npos) return fail("an unclosed '[' in the host");
    a.host = rest.substr(1, close - 1);
    rest = rest.substr(close + 1);
    if (!rest.empty() && rest[0] != ':') return fail("text after the host");
  } else {
    size_t colon = rest.find(':');
    a.host = rest.substr(0, colon);
    rest = colon == std::string::npos ? "" : rest.substr(colon);
  }
  if (!rest.empty() && !parse_int(rest.substr(1), 1, 65535, a.port))
    return fail("the port is not a number from 1 to 65535");
  if (a.host.empty()) return fail("no host");
  return a;
}

std::string default_remote_cache() {
  const char* url = std::getenv("ATTNC_REMOTE_CACHE");
  return url ? url : "";
}

#ifdef ATTNC_HAVE_HIREDIS

namespace {

constexpr const char* kEntryPrefix = "attnc:entry:";
constexpr const char* kLockPrefix = "attnc:lock:";
constexpr const char* kStatsHash = "attnc:stats";
// How often a host waiting for another's compile looks for its entry.
constexpr int kClaimPollMs = 10;

std::string hex_random(size_t bytes) {
  std::vector<uint8_t> r(bytes);
  size_t got = 0;
  while (got < bytes) {
    ssize_t n = getrandom(r.data() + got, bytes - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (uint8_t b : r) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

// The fields of attnc:stats, in CacheTraffic's order.
constexpr const char* kTrafficFields[] = {"hits",   "misses",     "rejects",
                                          "writes", "bytes_read", "bytes_written"};

uint64_t* traffic_field(CacheTraffic& t, size_t i) {
  uint64_t* fields[] = {&t.hits, &t.misses, &t.rejects, &t.writes, &t.bytes_read, &t.bytes_written};
  return fields[i];
}

// hiredis writes with write(2): a server that died makes the next write raise SIGPIPE, which would
// kill the process. The signal is blocked in this thread for the command and any instance it
// raised is taken back before unblocking.
class SigpipeGuard {
 public:
  SigpipeGuard() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    sigset_t pending;
    sigpending(&pending);
    was_pending_ = sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe_, &saved_);
  }
  ~SigpipeGuard() {
    sigset_t pending;
    sigpending(&pending);
    if (!was_pending_ && sigismember(&pending, SIGPIPE) == 1) {
      timespec zero{0, 0};
      while (sigtimedwait(&pipe_, nullptr, &zero) < 0 && errno == EINTR) {
      }
    }
    pthread_sigmask(SIG_SETMASK, &saved_, nullptr);
  }

 private:
  sigset_t pipe_, saved_;
  bool was_pending_ = false;
};

struct ReplyDeleter {
  void operator()(redisReply* r) const {
    if (r) freeReplyObject(r);
  }
};
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

timeval to_timeval(int ms) { return timeval{ms / 1000, (ms % 1000) * 1000}; }

}  // namespace

struct RemoteCache::Connection {
  redisContext* context = nullptr;
  std::string problem;  // set once; the connection is then never used again
  ~Connection() {
    if (context) redisFree(context);
  }
  bool failed() const { return !problem.empty(); }
  void fail(const std::string& url, const std::string& what) {
    if (problem.empty()) problem = url + ": " + what;
    if (context) redisFree(context);
    context = nullptr;
  }
};

namespace {

// One command; null after marking `c` failed (I/O error, time-out or an error reply).
Reply command(RemoteCache::Connection& c, const std::string& url, const std::vector<std::string>& args,
              const std::vector<const std::vector<uint8_t>*>& blobs = {}) {
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  for (const std::string& a : args) {
    argv.push_back(a.data());
    lens.push_back(a.size());
  }
  for (const auto* b : blobs) {
    argv.push_back(reinterpret_cast<const char*>(b->data()));
    lens.push_back(b->size());
  }
  SigpipeGuard guard;
  Reply r(static_cast<redisReply*>(
      redisCommandArgv(c.context, static_cast<int>(argv.size()), argv.data(), lens.data())));
  if (!r) {
    c.fail(url, c.context->errstr[0] ? c.context->errstr : "no reply");
    return nullptr;
  }
  if (r->type == REDIS_REPLY_ERROR) {
    c.fail(url, args[0] + ": " + std::string(r->str, r->len));
    return nullptr;
  }
  return r;
}

}  // namespace

RemoteCache::RemoteCache(std::string url, RedisAddress address, int timeout_ms)
    : url_(std::move(url)),
      address_(std::move(address)),
      timeout_ms_(timeout_ms),
      connection_(std::make_unique<Connection>()) {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  token_ = std::string(host) + ":" + std::to_string(getpid()) + ":" + hex_random(8);
}

RemoteCache::~RemoteCache() = default;

std::unique_ptr<RemoteCache> RemoteCache::open(const std::string& url, int timeout_ms, std::string& why) {
  std::optional<RedisAddress> address = parse_redis_url(url, why);
  if (!address) return nullptr;
  return std::unique_ptr<RemoteCache>(new RemoteCache(url, *address, timeout_ms));
}

// Connects on first use (AUTH and SELECT included); false once anything has failed.
static bool connected(RemoteCache::Connection& c, const std::string& url, const RedisAddress& a,
                      int timeout_ms) {
  if (c.failed()) return false;
  if (c.context) return true;
  c.context = redisConnectWithTimeout(a.host.c_str(), a.port, to_timeval(timeout_ms));
  if (!c.context) {
    c.fail(url, "cannot allocate a connection");
    return false;
  }
  if (c.context->err) {
    c.fail(url, c.context->errstr);
    return false;
  }
  redisSetTimeout(c.context, to_timeval(timeout_ms));
  if (!a.password.empty()) {
    std::vector<std::string> auth = {"AUTH"};
    if (!a.user.empty()) auth.push_back(a.user);
    auth.push_back(a.password);
    if (!command(c, url, auth)) return false;
  }
  if (a.db != 0 && !command(c, url, {"SELECT", std::to_string(a.db)})) return false;
  return true;
}

RemoteCache::Fetch RemoteCache::get(const std::string& key) {
  std::lock_guard<std::mutex> lock(mutex_);
  Fetch f;
  Connection& c = *connection_;
  if (!connected(c, url_, address_, timeout_ms_)) {
    f.status = Fetch::Unavailable;
    return f;
  }
  Reply r = command(c, url_, {"GET", kEntryPrefix + key});
  if (!r) {
    f.status = Fetch::Unavailable;
  } else if (r->type == REDIS_REPLY_STRING) {
    f.status = Fetch::Hit;
    f.entry.assign(reinterpret_cast<const uint8_t*>(r->str),
                   reinterpret_cast<const uint8_t*>(r->str) + r->len);
  }
  return f;
}

bool RemoteCache::put(const std::string& key, const std::vector<uint8_t>& entry) {
  std::lock_guard<std::mutex> lock(mutex_);
  Connection& c = *connection_;
  return connected(c, url_, address_, timeout_ms_) && command(c, url_, {"SET", kEntryPrefix + key}, {&entry});
}

// Deletes a key's lock only while it is still `token`'s (it may have expired and been taken by
// another host since).
static void release_lock(RemoteCache::Connection& c, const std::string& url, const std::string& lock_key,
                         const std::string& token) {
  static const char* script =
      "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";
  command(c, url, {"EVAL", script, "1", lock_key, token});
}

RemoteCache::Claim RemoteCache::claim(const std::string& key, bool look_again, std::vector<uint8_t>& entry) {
  const std::string lock_key = kLockPrefix + key;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kRemoteLockMs);
  while (std::chrono::steady_clock::now() < deadline) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      Connection& c = *connection_;
      if (!connected(c, url_, address_, timeout_ms_)) return Claim::Unavailable;
      Reply taken = command(c, url_, {"SET", lock_key, token_, "NX", "PX", std::to_string(kRemoteLockMs)});
      if (!taken) return Claim::Unavailable;
      if (taken->type == REDIS_REPLY_STATUS) {
        // The lock may have just been let go by a host that published first (after this one's
        // last look for its entry): look once more before compiling it again.
        if (!look_again) return Claim::Held;
        Reply published = command(c, url_, {"GET", kEntryPrefix + key});
        if (!published) return Claim::Unavailable;
        if (published->type != REDIS_REPLY_STRING) return Claim::Held;
        entry.assign(reinterpret_cast<const uint8_t*>(published->str),
                     reinterpret_cast<const uint8_t*>(published->str) + published->len);
        release_lock(c, url_, lock_key, token_);
        return Claim::Published;
      }
    }
    // Another host compiles: wait for its entry, or for its lock to go (it failed or died).
    while (std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(kClaimPollMs));
      Fetch f = get(key);
      if (f.status == Fetch::Unavailable) return Claim::Unavailable;
      if (f.status == Fetch::Hit) {
        entry = std::move(f.entry);
        return Claim::Published;
      }
      std::lock_guard<std::mutex> lock(mutex_);
      Reply held = command(*connection_, url_, {"EXISTS", lock_key});
      if (!held) return Claim::Unavailable;
      if (held->type == REDIS_REPLY_INTEGER && held->integer == 0) break;
    }
  }
  return Claim::Unavailable;
}

void RemoteCache::unlock(const std::string& key) {
  std::lock_guard<std::mutex> lock(mutex_);
  Connection& c = *connection_;
  if (connected(c, url_, address_, timeout_ms_)) release_lock(c, url_, kLockPrefix + key, token_);
}

void RemoteCache::count(const CacheTraffic& delta) {
  std::lock_guard<std::mutex> lock(mutex_);
  Connection& c = *connection_;
  if (!connected(c, url_, address_, timeout_ms_)) return;
  CacheTraffic d = delta;
  std::vector<std::string> args = {"HINCRBY", kStatsHash, "", ""};
  int sent = 0;
  SigpipeGuard guard;
  for (size_t i = 0; i < std::size(kTrafficFields); ++i) {
    uint64_t v = *traffic_field(d, i);
    if (v == 0) continue;
    args[2] = kTrafficFields[i];
    args[3] = std::to_string(v);
    const char* argv[4] = {args[0].c_str(), args[1].c_str(), args[2].c_str(), args[3].c_str()};
    size_t lens[4] = {args[0].size(), args[1].size(), args[2].size(), args[3].size()};
    redisAppendCommandArgv(c.context, 4, argv, lens);
    ++sent;
  }
  for (int i = 0; i < sent; ++i) {
    void* raw = nullptr;
    if (redisGetReply(c.context, &raw) != REDIS_OK) {
      c.fail(url_, c.context->errstr[0] ? c.context->errstr : "no reply");
      return;
    }
    Reply r(static_cast<redisReply*>(raw));
  }
}

RemoteCacheStats RemoteCache::stats() {
  RemoteCacheStats s;
  s.url = url_;
  std::lock_guard<std::mutex> lock(mutex_);
  Connection& c = *connection_;
  auto failed = [&] {
    s.problem = c.problem;
    return s;
  };
  if (!connected(c, url_, address_, timeout_ms_)) return failed();
  Reply all = command(c, url_, {"HGETALL", kStatsHash});
  if (!all) return failed();
  for (size_t i = 0; i + 1 < all->elements; i += 2) {
    std::string field(all->element[i]->str, all->element[i]->len);
    for (size_t f = 0; f < std::size(kTrafficFields); ++f)
      if (field == kTrafficFields[f])
        *traffic_field(s.traffic, f) = std::strtoull(all->element[i + 1]->str, nullptr, 10);
  }
  std::string cursor = "0";
  do {
    Reply page =
        command(c, url_, {"SCAN", cursor, "MATCH", std::string(kEntryPrefix) + "*", "COUNT", "1000"});
    if (!page || page->type != REDIS_REPLY_ARRAY || page->elements != 2) return failed();
    cursor.assign(page->element[0]->str, page->element[0]->len);
    for (size_t i = 0; i < page->element[1]->elements; ++i) {
      const redisReply* k = page->element[1]->element[i];
      Reply size = command(c, url_, {"STRLEN", std::string(k->str, k->len)});
      if (!size) return failed();
      ++s.entries;
      s.bytes += static_cast<uint64_t>(size->integer);
    }
  } while (cursor != "0");
  return s;
}

bool RemoteCache::available() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return !connection_->failed();
}

std::string RemoteCache::problem() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return connection_->problem;
}

#else  // no hiredis: the kit's runtime-only build on a machine without it

struct RemoteCache::Connection {};
RemoteCache::RemoteCache(std::string url, RedisAddress address, int timeout_ms)
    : url_(std::move(url)), address_(std::move(address)), timeout_ms_(timeout_ms) {}
RemoteCache::~RemoteCache() = default;

std::unique_ptr<RemoteCache> RemoteCache::open(const std::string& url, int, std::string& why) {
  if (parse_redis_url(url, why))
    why = "this attnc was built without a Redis client (hiredis): the shared cache " + url + " is not used";
  return nullptr;
}

// open() never makes one: a client without a library is never available.
RemoteCache::Fetch RemoteCache::get(const std::string&) { return {Fetch::Unavailable, {}}; }
bool RemoteCache::put(const std::string&, const std::vector<uint8_t>&) { return false; }
RemoteCache::Claim RemoteCache::claim(const std::string&, bool, std::vector<uint8_t>&) {
  return Claim::Unavailable;
}
void RemoteCache::unlock(const std::string&) {}
void RemoteCache::count(const CacheTraffic&) {}
RemoteCacheStats RemoteCache::stats() { return {url_, "built without hiredis", 0, 0, {}}; }
bool RemoteCache::available() const { return false; }
std::string RemoteCache::problem() const { return "built without hiredis"; }

#endif

RemoteCacheStats remote_cache_stats(const std::string& url) {
  RemoteCacheStats s;
  s.url = url.empty() ? default_remote_cache() : url;
  if (s.url.empty()) return s;
  std::unique_ptr<RemoteCache> remote = RemoteCache::open(s.url, 1000, s.problem);
  return remote ? remote->stats() : s;
}

}  // namespace attn
