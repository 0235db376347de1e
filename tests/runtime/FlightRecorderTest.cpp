// The flight recorder: a bounded ring, the loader's events in its JSON dump, the dump at exit.
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <nlohmann/json.hpp>

#include "TestKernels.h"

namespace attn::test {
namespace {

std::vector<nlohmann::json> events_of_kind(const nlohmann::json& dump, const std::string& kind) {
  std::vector<nlohmann::json> out;
  for (const auto& e : dump["events"])
    if (e["kind"] == kind) out.push_back(e);
  return out;
}

}  // namespace

BOOST_FIXTURE_TEST_SUITE(flight_recorder, CacheFixture)

BOOST_AUTO_TEST_CASE(ring_keeps_the_last_n_events) {
  FlightRecorder r(4);
  for (int i = 0; i < 10; ++i) r.record(TraceEventKind::MemoryHit, "0123456789abcdef0123", "cpu");
  std::vector<TraceEvent> events = r.snapshot();
  BOOST_REQUIRE(events.size() == 4u);
  BOOST_TEST(events.front().seq == 6u);
  BOOST_TEST(events.back().seq == 9u);
  BOOST_TEST(std::string(events.back().key) == "0123456789abcdef");
  nlohmann::json j = nlohmann::json::parse(r.to_json());
  BOOST_TEST(j["total"] == 10);
  BOOST_TEST(j["dropped"] == 6);
  BOOST_TEST(j["capacity"] == 4);
}

BOOST_AUTO_TEST_CASE(recording_is_cheap) {
  FlightRecorder r(256);
  TraceEvent e;
  e.kind = TraceEventKind::Launch;
  constexpr int n = 100000;
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) r.record(e);
  double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / n;
  BOOST_TEST_MESSAGE("flight recorder: " << ns << " ns per event");
  BOOST_TEST(ns < 5000.0);  // loose: a shared, loaded machine; typically ~50 ns
}

BOOST_AUTO_TEST_CASE(dump_holds_the_loaders_events) {
  LoaderOptions o = options();
  Loader loader(o);
  KernelRequest r = scale_kernel_request(2);
  Kernel k = loader.get(r);
  loader.get(r);
  run_scale(k, 1.0f);
  std::string path = root->path() + "/dump.json";
  BOOST_REQUIRE(loader.recorder().dump(path));
  nlohmann::json j = nlohmann::json::parse(read_text(path));
  BOOST_TEST(j["attnc_version"].is_string());
  std::string key16 = k.key().substr(0, 16);
  for (const char* kind :
       {"disk_miss", "compile_start", "compile_end", "disk_write", "memory_hit", "launch"}) {
    BOOST_TEST_CONTEXT(kind) {
      auto found = events_of_kind(j, kind);
      BOOST_REQUIRE(found.size() == 1u);
      BOOST_TEST(found[0]["key"] == key16);
    }
  }
  BOOST_TEST(events_of_kind(j, "compile_end")[0]["duration_ms"].get<double>() > 0.0);
  nlohmann::json launch = events_of_kind(j, "launch")[0];
  BOOST_TEST(launch["shapes"]["q"] == nlohmann::json::array({1, 1, 1, 4}));
  BOOST_TEST(launch.contains("duration_ms"));
}

// Kernel::plan and run_planned: a target that plans each call itself (cpu) gives no plan, and a
// planned run is the call, recorded as a launch; an empty Kernel refuses both.
BOOST_AUTO_TEST_CASE(planned_runs_are_calls_where_the_target_plans_each_call) {
  Loader loader(options());
  Kernel k = loader.get(scale_kernel_request(3));
  float q[4] = {1, 2, 3, 4}, out[4] = {};
  int64_t shape[4] = {1, 1, 1, 4};
  DLTensor tq{}, tout{};
  tq.data = q, tq.ndim = 4, tq.shape = shape, tq.dtype = DLDataType{kDLFloat, 32, 1}, tq.device = {kDLCPU, 0};
  tout = tq, tout.data = out;
  char error[256] = {};
  attn_kernel_args args{};
  args.abi_version = ATTN_KERNEL_ABI_VERSION;
  args.q = args.k = args.v = &tq, args.out = &tout, args.error = error, args.error_size = sizeof error;
  std::shared_ptr<const void> plan = std::make_shared<int>(0);
  BOOST_TEST(k.plan(args, plan) == 0);
  BOOST_TEST(!plan);
  BOOST_TEST(k.run_planned(plan.get(), args) == 0, error);
  BOOST_TEST(out[3] == 12.0f);
  nlohmann::json j = nlohmann::json::parse(loader.trace_json());
  BOOST_TEST(events_of_kind(j, "launch").size() == 1u);
  Kernel empty;
  BOOST_TEST(empty.run_planned(nullptr, args) == -1);
  BOOST_TEST(std::string(error) == "empty attn::Kernel");
  BOOST_TEST(empty.plan(args, plan) == -1);
}

BOOST_AUTO_TEST_CASE(attnc_trace_dumps_the_process_recorder_at_exit) {
  std::string path = root->path() + "/at-exit.json";
  std::fflush(nullptr);  // the child must not repeat buffered test output
  pid_t child = fork();
  BOOST_REQUIRE(child >= 0);
  if (child == 0) {
    setenv("ATTNC_TRACE", path.c_str(), 1);
    int status = 1;
    try {
      Loader loader;  // the process-wide recorder
      Kernel k = loader.get(scale_kernel_request(2));
      status = k.entry() != nullptr ? 0 : 2;
    } catch (...) {
      status = 3;
    }
    std::exit(status);
  }
  int status = 0;
  BOOST_REQUIRE(waitpid(child, &status, 0) == child);
  BOOST_TEST(WIFEXITED(status));
  BOOST_TEST(WEXITSTATUS(status) == 0);
  nlohmann::json j = nlohmann::json::parse(read_text(path));
  BOOST_TEST(events_of_kind(j, "compile_end").size() >= 1u);
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace attn::test
