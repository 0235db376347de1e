// `attnc run --dout`: the backward pass's flags write dQ, dK, dV and buffer gradients that agree
// with finite differences of the forward through the same command, and its errors are clear.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <random>
#include <tuple>

#include "runtime/Npy.h"
#include "tests/support/TestSupport.h"

using namespace attn;
using namespace attn::test;

namespace {

struct Files {
  TempDir dir;
  std::string path(const std::string& name) const { return (dir.path() / name).string(); }
};

// A kernel the project has not seen (ALiBi-like slopes through a softcap, a causal mask), and
// random inputs for it: q [1, 2, 5, 4], k/v [1, 1, 6, 4] (GQA), slopes [2], doc [6] (i32). Or
// `ragged`: two sequences of 5 and 2 queries over 6 and 3 keys, q [7, 2, 4], k/v [9, 1, 4], with
// cu_q.npy and cu_k.npy.
void write_problem(const Files& f, bool ragged = false) {
  write_file(f.path("k.attn"),
             "kernel k(slopes: tensor<f32>[heads], doc: tensor<i32>[len]) {\n"
             "  mask = q + 1 >= kv && doc[q] == doc[kv];\n"
             "  score = 4.0 * tanh((score + slopes[h] * (kv - q)) / 4.0);\n  lse = true;\n}\n");
  std::mt19937 rng(11);
  std::normal_distribution<float> normal;
  auto tensor = [&](std::vector<int64_t> shape, const std::string& name) {
    HostTensor t(ScalarType::F32, shape);
    for (int64_t i = 0; i < t.numel(); ++i) t.set(i, normal(rng));
    write_npy(f.path(name), t);
  };
  const std::vector<int64_t> q_rows = ragged ? std::vector<int64_t>{7, 2} : std::vector<int64_t>{1, 2, 5};
  const std::vector<int64_t> kv_rows = ragged ? std::vector<int64_t>{9, 1} : std::vector<int64_t>{1, 1, 6};
  auto with_d = [](std::vector<int64_t> rows) { return rows.push_back(4), rows; };
  tensor(with_d(q_rows), "q.npy");
  tensor(with_d(kv_rows), "k.npy");
  tensor(with_d(kv_rows), "v.npy");
  tensor(with_d(q_rows), "dout.npy");
  tensor(q_rows, "dlse.npy");
  for (auto [name, first, total] : {std::tuple{"cu_q.npy", 5, 7}, {"cu_k.npy", 6, 9}}) {
    HostTensor cu(ScalarType::I32, {3});  // 0, first, total
    cu.set(1, first), cu.set(2, total);
    if (ragged) write_npy(f.path(name), cu);
  }
  tensor({2}, "slopes.npy");
  HostTensor doc(ScalarType::I32, {6});
  for (int64_t i = 0; i < 6; ++i) doc.set(i, i < 4 ? 0 : 1);
  write_npy(f.path("doc.npy"), doc);
}

std::string run_args(const Files& f, const std::string& slopes = "slopes.npy") {
  return attnc_binary() + " run " + f.path("k.attn") + " k --q " + f.path("q.npy") + " --k " +
         f.path("k.npy") + " --v " + f.path("v.npy") + " --arg slopes=" + f.path(slopes) +
         " --arg doc=" + f.path("doc.npy") + " -o " + f.path("out.npy") + " --lse " + f.path("lse.npy");
}

// sum(dOut * Out) + sum(dLSE * LSE) of a forward run with the slopes in `slopes`.
double loss(const Files& f, const std::string& slopes) {
  auto r = run_command(run_args(f, slopes) + " -t reference");
  BOOST_REQUIRE_MESSAGE(r.status == 0, r.output);
  HostTensor out = read_npy(f.path("out.npy")), lse = read_npy(f.path("lse.npy"));
  HostTensor dout = read_npy(f.path("dout.npy")), dlse = read_npy(f.path("dlse.npy"));
  double l = 0;
  for (int64_t i = 0; i < out.numel(); ++i) l += dout.get(i) * out.get(i);
  for (int64_t i = 0; i < lse.numel(); ++i) l += dlse.get(i) * lse.get(i);
  return l;
}

// `attnc run --dout` on the cpu target against the reference target: a dense batch, or a ragged
// one (--cu-seqlens-q/-k: gradients packed like the inputs).
void check_cpu_against_reference(bool ragged) {
  Files f;
  write_problem(f, ragged);
  auto grads = [&](const std::string& t) {
    return " --dout " + f.path("dout.npy") + " --dlse " + f.path("dlse.npy") + " --dq " +
           f.path("dq_" + t + ".npy") + " --dk " + f.path("dk_" + t + ".npy") + " --dv " +
           f.path("dv_" + t + ".npy") + " --grad slopes=" + f.path("ds_" + t + ".npy") + " --threads 2 -t " +
           t +
           (ragged ? " --cu-seqlens-q " + f.path("cu_q.npy") + " --cu-seqlens-k " + f.path("cu_k.npy") : "");
  };
  for (const std::string t : {"reference", "cpu"}) {
    auto r = run_command(run_args(f) + grads(t));
    BOOST_REQUIRE_MESSAGE(r.status == 0, t << ": " << r.output);
  }
  for (const std::string g : {"dq", "dk", "dv", "ds"}) {
    HostTensor ref = read_npy(f.path(g + "_reference.npy")), cpu = read_npy(f.path(g + "_cpu.npy"));
    BOOST_REQUIRE(ref.shape == cpu.shape);
    if (g != "ds") BOOST_TEST(ref.shape.size() == (ragged ? 3u : 4u));
    for (int64_t i = 0; i < ref.numel(); ++i)
      BOOST_TEST(std::fabs(ref.get(i) - cpu.get(i)) < 1e-4 * (1 + std::fabs(ref.get(i))),
                 g << "[" << i << "]");
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(backward)

BOOST_AUTO_TEST_CASE(run_writes_gradients_that_match_finite_differences) {
  Files f;
  write_problem(f);
  const std::string grads = " --dout " + f.path("dout.npy") + " --dlse " + f.path("dlse.npy") + " --dq " +
                            f.path("dq.npy") + " --dk " + f.path("dk.npy") + " --dv " + f.path("dv.npy") +
                            " --grad slopes=" + f.path("dslopes.npy") + " --threads 2";
  auto r = run_command(run_args(f) + grads + " -t reference");
  BOOST_REQUIRE_MESSAGE(r.status == 0, r.output);
  HostTensor dq = read_npy(f.path("dq.npy")), dk = read_npy(f.path("dk.npy")),
             dv = read_npy(f.path("dv.npy"));
  HostTensor dslopes = read_npy(f.path("dslopes.npy"));
  BOOST_TEST(dq.shape == (std::vector<int64_t>{1, 2, 5, 4}));
  BOOST_TEST(dk.shape == (std::vector<int64_t>{1, 1, 6, 4}));
  BOOST_TEST(dv.shape == (std::vector<int64_t>{1, 1, 6, 4}));
  BOOST_TEST(dslopes.shape == (std::vector<int64_t>{2}));
  // dV's rows sum to dOut's (every row's weights sum to 1, no row is fully masked).
  HostTensor dout = read_npy(f.path("dout.npy"));
  for (int64_t d = 0; d < 4; ++d) {
    double a = 0, b = 0;
    for (int64_t j = 0; j < 6; ++j) a += dv.get(j * 4 + d);
    for (int64_t i = 0; i < 10; ++i) b += dout.get(i * 4 + d);
    BOOST_TEST(std::fabs(a - b) < 1e-4);
  }
  // dslopes against central differences of the command's own forward.
  HostTensor slopes = read_npy(f.path("slopes.npy"));
  for (int64_t h = 0; h < 2; ++h) {
    const double step = 1e-2;
    for (double sign : {1.0, -1.0}) {
      HostTensor s = slopes;
      s.set(h, slopes.get(h) + sign * step);
      write_npy(f.path(sign > 0 ? "up.npy" : "down.npy"), s);
    }
    const double fd = (loss(f, "up.npy") - loss(f, "down.npy")) / (2 * step);
    BOOST_TEST(std::fabs(fd - dslopes.get(h)) < 2e-3 * (1 + std::fabs(fd)),
               "h " << h << ": " << fd << " vs " << dslopes.get(h));
  }
}

BOOST_AUTO_TEST_CASE(cpu_agrees_with_the_reference) { check_cpu_against_reference(false); }

BOOST_AUTO_TEST_CASE(a_ragged_batch_too) { check_cpu_against_reference(true); }

BOOST_AUTO_TEST_CASE(backward_errors) {
  Files f;
  write_problem(f);
  // Usage errors are CLI11's (its own exit status); the others exit 1.
  auto fails = [&](const std::string& extra, const std::string& message, bool usage = false) {
    auto r = run_command(run_args(f) + extra);
    BOOST_TEST((usage ? r.status != 0 : r.status == 1), extra << ": " << r.output);
    BOOST_TEST(r.output.find(message) != std::string::npos, extra << ": " << r.output);
  };
  const std::string dout = " --dout " + f.path("dout.npy");
  fails(dout + " --grad doc=" + f.path("ddoc.npy"), "cannot differentiate 'doc'");
  fails(dout + " --grad slopes", "--grad 'slopes' must be NAME=FILE.npy");
  fails(dout + " --grad nope=" + f.path("x.npy"), "has no tensor argument 'nope'");
  fails(dout, "--dout needs somewhere to write the gradients");
  fails(" --dq " + f.path("dq.npy"), "--dq requires --dout", true);
  fails(" --dout " + f.path("dlse.npy") + " --dq " + f.path("dq.npy"), "dout must be f32 [1, 2, 5, 4]");
  fails(dout + " --dlse " + f.path("dout.npy") + " --dq " + f.path("dq.npy"), "dlse must be f32 [1, 2, 5]");
}

BOOST_AUTO_TEST_CASE(dump_grad_prints_the_derivatives) {
  Files f;
  write_problem(f);
  auto r = run_command(attnc_binary() + " dump --stage=grad " + f.path("k.attn"));
  BOOST_REQUIRE_MESSAGE(r.status == 0, r.output);
  BOOST_TEST(r.output.find("d/d score") != std::string::npos, r.output);
  BOOST_TEST(r.output.find("d/d slopes[h]") != std::string::npos, r.output);
}

BOOST_AUTO_TEST_SUITE_END()
