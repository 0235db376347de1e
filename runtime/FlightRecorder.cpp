// The loader's flight recorder: ring writes on the hot path, JSON only when dumped.
#include "attn/flight_recorder.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>

#include "attnc/Version.h"
#include "runtime/OutputFile.h"
#include "runtime/TempDir.h"

namespace attn {
namespace {

template <size_t N>
void copy_truncated(char (&dst)[N], std::string_view src) {
  size_t n = std::min(src.size(), N - 1);
  if (n > 0) std::memcpy(dst, src.data(), n);  // an empty view may have a null data()
  dst[n] = '\0';
}

nlohmann::json shape_json(const int64_t (&dims)[4]) {
  nlohmann::json a = nlohmann::json::array();
  for (int64_t d : dims)
    if (d > 0) a.push_back(d);
  return a;
}

}  // namespace

const char* trace_event_kind_name(TraceEventKind kind) {
  switch (kind) {
    case TraceEventKind::CompileStart: return "compile_start";
    case TraceEventKind::CompileEnd: return "compile_end";
    case TraceEventKind::MemoryHit: return "memory_hit";
    case TraceEventKind::DiskHit: return "disk_hit";
    case TraceEventKind::DiskMiss: return "disk_miss";
    case TraceEventKind::DiskReject: return "disk_reject";
    case TraceEventKind::DiskWrite: return "disk_write";
    case TraceEventKind::Evict: return "evict";
    case TraceEventKind::Launch: return "launch";
    case TraceEventKind::Error: return "error";
    case TraceEventKind::Warning: return "warning";
    case TraceEventKind::RemoteHit: return "remote_hit";
    case TraceEventKind::RemoteMiss: return "remote_miss";
    case TraceEventKind::RemoteReject: return "remote_reject";
    case TraceEventKind::RemoteWrite: return "remote_write";
  }
  return "?";
}

FlightRecorder::FlightRecorder(size_t capacity)
    : start_(std::chrono::steady_clock::now()), ring_(std::max<size_t>(capacity, 1)) {}

int64_t FlightRecorder::now_ns() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_)
      .count();
}

void FlightRecorder::record(TraceEvent event) {
  if (event.time_ns == 0) event.time_ns = now_ns();
  std::lock_guard<std::mutex> lock(mutex_);
  event.seq = next_;
  ring_[next_ % ring_.size()] = event;
  ++next_;
}

void FlightRecorder::record(TraceEventKind kind, std::string_view key, std::string_view target,
                            std::string_view detail, int64_t duration_ns, int32_t status) {
  TraceEvent e;
  e.kind = kind;
  e.duration_ns = duration_ns;
  e.status = status;
  copy_truncated(e.key, key.substr(0, 16));
  copy_truncated(e.target, target);
  copy_truncated(e.detail, detail);
  record(e);
}

void FlightRecorder::record_error(std::string_view key, std::string_view target, const std::string& message) {
  TraceEvent e;
  e.kind = TraceEventKind::Error;
  copy_truncated(e.key, key.substr(0, 16));
  copy_truncated(e.target, target);
  copy_truncated(e.detail, message);
  e.time_ns = now_ns();
  std::lock_guard<std::mutex> lock(mutex_);
  e.seq = next_;
  ring_[next_ % ring_.size()] = e;
  ++next_;
  if (errors_.size() == kMaxErrors) errors_.erase(errors_.begin());
  errors_.emplace_back(e.seq, message);
}

std::vector<TraceEvent> FlightRecorder::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<TraceEvent> out;
  uint64_t n = std::min<uint64_t>(next_, ring_.size());
  for (uint64_t i = next_ - n; i < next_; ++i) out.push_back(ring_[i % ring_.size()]);
  return out;
}

uint64_t FlightRecorder::total() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return next_;
}

std::string FlightRecorder::to_json() const {
  std::vector<TraceEvent> events = snapshot();
  std::vector<std::pair<uint64_t, std::string>> errors;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    errors = errors_;
  }
  uint64_t total_events = events.empty() ? 0 : events.back().seq + 1;
  nlohmann::json j;
  j["attnc_version"] = ATTNC_VERSION;
  j["pid"] = static_cast<int64_t>(getpid());
  j["capacity"] = ring_.size();
  j["total"] = total_events;
  j["dropped"] = total_events - events.size();
  nlohmann::json list = nlohmann::json::array();
  for (const TraceEvent& e : events) {
    nlohmann::json o;
    o["seq"] = e.seq;
    o["t_ms"] = static_cast<double>(e.time_ns) / 1e6;
    o["kind"] = trace_event_kind_name(e.kind);
    if (e.key[0]) o["key"] = e.key;
    if (e.target[0]) o["target"] = e.target;
    if (e.duration_ns >= 0) o["duration_ms"] = static_cast<double>(e.duration_ns) / 1e6;
    if (e.status != 0) o["status"] = e.status;
    if (e.detail[0]) o["detail"] = e.detail;
    if (e.kind == TraceEventKind::Launch)
      o["shapes"] = {
          {"q", shape_json(e.shape[0])}, {"k", shape_json(e.shape[1])}, {"v", shape_json(e.shape[2])}};
    list.push_back(std::move(o));
  }
  j["events"] = std::move(list);
  nlohmann::json messages = nlohmann::json::array();
  for (const auto& [seq, message] : errors) messages.push_back({{"seq", seq}, {"message", message}});
  j["errors"] = std::move(messages);
  // Details are truncated byte-wise and may split a UTF-8 sequence: replace, never throw.
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool FlightRecorder::dump(const std::string& path) const {
  // As every output: a fresh temporary file renamed into place, a device written in place.
  try {
    write_output_file(path, to_json());
    return true;
  } catch (const OutputFileError&) {
    return false;
  }
}

std::string FlightRecorder::dump_to_new_file(const std::string& prefix, const std::string& suffix) const {
  std::string text = to_json();
  std::string name;
  int fd = create_unique_file(AT_FDCWD, prefix, suffix, name);
  if (fd < 0) return {};
  bool ok = write_all(fd, text.data(), text.size());
  if (::close(fd) != 0) ok = false;
  if (!ok) {
    std::remove(name.c_str());
    return {};
  }
  return name;
}

const std::shared_ptr<FlightRecorder>& process_flight_recorder() {
  // Deliberately leaked: loaders and kernels destroyed during exit may still record.
  static const auto* recorder = [] {
    auto* r = new std::shared_ptr<FlightRecorder>(std::make_shared<FlightRecorder>(256));
    // ATTNC_TRACE is read at exit, not now, so that setting it later (or in a forked child)
    // still takes effect.
    std::atexit([] {
      const char* p = std::getenv("ATTNC_TRACE");
      if (!p || !*p) return;
      try {
        write_output_file(p, process_flight_recorder()->to_json());
      } catch (const OutputFileError& e) {
        std::fprintf(stderr, "attnc: warning: cannot write the flight recorder (ATTNC_TRACE): %s\n",
                     e.what());
      }
    });
    return r;
  }();
  return *recorder;
}

}  // namespace attn
