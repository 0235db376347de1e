// The autotuner's search (runtime/CudaTuner.h) on a fake device: which candidate wins, and what
// rejects one. The device binding itself runs only on a GPU (bench/gpu, `attnc bench --autotune`).
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <stdexcept>

#include "runtime/CudaTuner.h"

using namespace attn;

namespace {

/// Candidates by name: a time, an output, and optionally a prepare problem or a throw.
struct FakeCandidate {
  std::string name;
  double ms = 1;
  std::vector<double> output = {1, 2, -INFINITY};
  std::string problem;
  bool throws = false;
};

FakeCandidate cand(std::string name, double ms, std::vector<double> output = {1, 2, -INFINITY}) {
  FakeCandidate c;
  c.name = std::move(name), c.ms = ms, c.output = std::move(output);
  return c;
}

class FakeTuner : public CudaTuneBackend {
 public:
  explicit FakeTuner(std::vector<FakeCandidate> c) : c_(std::move(c)) {}
  size_t size() const override { return c_.size(); }
  std::string name(size_t i) const override { return c_[i].name; }
  std::string prepare(size_t i) override {
    prepared.push_back(i);
    if (c_[i].throws) throw std::runtime_error("launch failed");
    return c_[i].problem;
  }
  std::vector<double> check_output(size_t i) override { return c_[i].output; }
  double time_ms(size_t i) override {
    timed.push_back(i);
    return c_[i].ms;
  }
  std::vector<size_t> prepared, timed;

 private:
  std::vector<FakeCandidate> c_;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(cuda_tuner)

BOOST_AUTO_TEST_CASE(the_fastest_matching_candidate_wins) {
  FakeTuner t({cand("table", 2.0), cand("a", 1.5), cand("b", 0.9), cand("c", 1.2)});
  CudaTuneResult r = cuda_autotune(t, 1e-3);
  BOOST_TEST(r.best == 2u);
  BOOST_TEST(r.trials.size() == 4u);
  BOOST_TEST(r.trials[2].ms == 0.9);
  for (const CudaTuneTrial& trial : r.trials) BOOST_TEST(trial.rejected.empty(), trial.name);
}

BOOST_AUTO_TEST_CASE(ties_and_slower_candidates_keep_the_table) {
  FakeTuner t({cand("table", 1.0), cand("same", 1.0), cand("slower", 3.0)});
  BOOST_TEST(cuda_autotune(t, 1e-3).best == 0u);
}

BOOST_AUTO_TEST_CASE(a_candidate_with_another_output_is_rejected_however_fast) {
  FakeCandidate wrong = cand("wrong", 0.1, {1, 2.5, -INFINITY});
  FakeCandidate nan = cand("nan", 0.1, {1, NAN, -INFINITY});
  FakeCandidate short_output = cand("short", 0.1, {1, 2});
  FakeCandidate finite_lse = cand("finite lse", 0.1, {1, 2, 0});
  FakeCandidate close = cand("close", 0.5, {1, 2.0005, -INFINITY});
  FakeTuner t({cand("table", 1.0), wrong, nan, short_output, finite_lse, close});
  CudaTuneResult r = cuda_autotune(t, 1e-3);
  BOOST_TEST(r.best == 5u);
  for (size_t i = 1; i <= 4; ++i) {
    BOOST_TEST(r.trials[i].rejected.find("output differs") == 0,
               r.trials[i].name << ": " << r.trials[i].rejected);
    BOOST_TEST(r.trials[i].ms == 0.0);
  }
  BOOST_TEST(t.timed == (std::vector<size_t>{0, 5}), "only matching candidates are timed");
}

BOOST_AUTO_TEST_CASE(spills_and_failures_are_rejections_not_errors) {
  FakeCandidate spills = cand("spills", 0.1);
  spills.problem = "spills 64 bytes";
  FakeCandidate broken = cand("broken", 0.1);
  broken.throws = true;
  FakeTuner t({cand("table", 1.0), spills, broken, cand("ok", 0.8)});
  CudaTuneResult r = cuda_autotune(t, 1e-3);
  BOOST_TEST(r.best == 3u);
  BOOST_TEST(r.trials[1].rejected == "spills 64 bytes");
  BOOST_TEST(r.trials[2].rejected == "launch failed");
}

BOOST_AUTO_TEST_CASE(an_unusable_table_choice_is_an_error) {
  FakeCandidate table = cand("table", 1.0);
  table.problem = "spills 8 bytes";
  FakeTuner t({table, cand("other", 0.5)});
  BOOST_CHECK_THROW(cuda_autotune(t, 1e-3), std::runtime_error);
  FakeTuner none({});
  BOOST_CHECK_THROW(cuda_autotune(none, 1e-3), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
