// The loader's flight recorder: a fixed ring of the last N events, formatted only when dumped.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attn {

/// What happened. Names in the JSON dump are the snake_case of these.
enum class TraceEventKind : uint8_t {
  CompileStart,
  CompileEnd,
  MemoryHit,
  DiskHit,
  DiskMiss,
  DiskReject,
  DiskWrite,
  Evict,
  Launch,
  Error,
  Warning,
  RemoteHit,
  RemoteMiss,
  RemoteReject,
  RemoteWrite
};

/// One fixed-size record; filling it never allocates.
struct TraceEvent {
  uint64_t seq = 0;          ///< Position in the whole stream (0 = first event ever).
  int64_t time_ns = 0;       ///< Since the recorder was created.
  int64_t duration_ns = -1;  ///< Compile or launch duration; -1 when not timed.
  TraceEventKind kind = TraceEventKind::Error;
  int32_t status = 0;        ///< Launch return code, compiler exit status, ...
  char key[17] = {};         ///< First 16 hex digits of the cache key.
  char target[16] = {};      ///< "cpu", "cuda", ... (truncated)
  int64_t shape[3][4] = {};  ///< Launches: q, k, v shapes (unused dims 0).
  char detail[96] = {};      ///< A reason or the start of a message, truncated.
};

/// A thread-safe ring buffer of TraceEvents. A record is one short critical section (a copy
/// of a fixed record); formatting happens only in to_json().
class FlightRecorder {
 public:
  /// Keeps the last `capacity` events (at least 1).
  explicit FlightRecorder(size_t capacity = 256);
  /// Appends `event`, assigning its seq and time when time_ns is 0.
  void record(TraceEvent event);
  /// Convenience: an event with a key prefix, target and a detail string (truncated).
  void record(TraceEventKind kind, std::string_view key, std::string_view target,
              std::string_view detail = {}, int64_t duration_ns = -1, int32_t status = 0);
  /// Records an Error event and keeps the full `message` (the last few are kept) for the dump;
  /// errors are rare, so this one may allocate.
  void record_error(std::string_view key, std::string_view target, const std::string& message);
  /// The retained events, oldest first.
  std::vector<TraceEvent> snapshot() const;
  /// Events recorded since creation (including ones the ring has dropped).
  uint64_t total() const;
  /// The dump: {"capacity", "total", "dropped", "pid", "attnc_version", "events": [...],
  /// "errors": [{"seq", "message"}]}.
  std::string to_json() const;
  /// Writes to_json() to `path` as attnc writes every output: a new uniquely named file beside it
  /// (O_EXCL, never through a planted link) renamed over it; a link at `path` itself is followed,
  /// a device or FIFO written in place (never replaced). Returns false if it could not.
  bool dump(const std::string& path) const;
  /// Writes to_json() to a new file `<prefix><random><suffix>` (O_EXCL|O_NOFOLLOW, mode 0600);
  /// returns its path, or "" if it could not.
  std::string dump_to_new_file(const std::string& prefix, const std::string& suffix) const;
  /// Nanoseconds since creation, the clock events use.
  int64_t now_ns() const;

 private:
  std::chrono::steady_clock::time_point start_;
  mutable std::mutex mutex_;
  std::vector<TraceEvent> ring_;
  uint64_t next_ = 0;
  std::vector<std::pair<uint64_t, std::string>> errors_;  // the last kMaxErrors full messages
  static constexpr size_t kMaxErrors = 8;
};

/// The snake_case name of `kind` ("compile_start", ...).
const char* trace_event_kind_name(TraceEventKind kind);

/// The process-wide recorder loaders share by default. When `ATTNC_TRACE=path` is set it is
/// dumped to that path at exit.
const std::shared_ptr<FlightRecorder>& process_flight_recorder();

}  // namespace attn
