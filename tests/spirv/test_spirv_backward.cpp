// The SPIR-V backward on lavapipe against the reference backward: every kernel of backward.attn on
// random shapes (lengths that are not multiples of the workgroup, GQA, value_dim != head_dim),
// buffer gradients, fully masked rows with dLSE, NaN rows; two runs bit-identical; the command line.
#define BOOST_TEST_MODULE spirv_backward
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdlib>

#include "backends/reference/Reference.h"
#include "backends/spirv/RunVulkan.h"
#include "backends/spirv/SpirvBackward.h"
#include "codegen/KernelIR.h"
#include "runtime/Npy.h"
#include "tests/support/AttentionInputs.h"
#include "tests/support/CheckedLowering.h"
#include "tests/support/MesaCache.h"
#include "tests/support/TestSupport.h"

using namespace attn;
using namespace attn::test;

namespace {

BOOST_TEST_GLOBAL_FIXTURE(PrivateCaches);

std::shared_ptr<const KernelIR> kernel(const std::string& name) {
  static std::unique_ptr<Program> program = load_checked(source_dir() / "tests/spirv/backward.attn");
  return lower_checked(*program, name);
}

struct Problem {
  std::string where;
  KernelInputs in;
  GradientRequest request;
};

// Random inputs of `ir`: lengths in [1, 90] (not multiples of the 64-row workgroups), 1-2 kv
// heads times a group of 1-3, D and Dv as given; every f32 tensor argument's gradient asked for,
// dLSE for a kernel that sets lse.
Problem random_problem(const KernelIR& ir, int D, int Dv, std::mt19937& rng) {
  std::uniform_int_distribution<int> len(1, 90), heads(1, 2), group(1, 3), batch(1, 2);
  const int B = batch(rng), Hkv = heads(rng), Hq = Hkv * group(rng), Lq = len(rng), Lkv = len(rng);
  const ScalarType t = io_scalar_type(ir.options.dtype);
  const AttentionShape s{B, Hq, Hkv, Lq, Lkv, D, Dv};
  Problem p;
  p.where = ir.name + " " + s.str();
  p.in = random_attention_inputs(t, s, rng);
  const int64_t longest = std::max(Lq, Lkv);
  for (const KernelArg& a : ir.args) {
    std::vector<int64_t> shape;
    for (const std::string& d : a.dims) shape.push_back(d == "heads" ? Hq : d == "span" ? 64 : longest);
    if (a.elem == ElemType::F32) {
      p.in.buffers[a.name] = random_tensor(ScalarType::F32, shape, rng);
      p.request.buffers.push_back(a.name);
    } else {
      HostTensor doc(ScalarType::I32, shape);  // documents of 1-20 tokens
      for (int64_t i = 0, cur = 0; i < doc.numel(); ++i) {
        if (rng() % 20 == 0) ++cur;
        doc.set(i, static_cast<double>(cur));
      }
      p.in.buffers[a.name] = doc;
    }
  }
  p.request.dout = random_tensor(t, {B, Hq, Lq, Dv}, rng);
  if (ir.options.lse) p.request.dlse = random_tensor(ScalarType::F32, {B, Hq, Lq}, rng);
  return p;
}

double tolerance(ScalarType t) { return t == ScalarType::F32 ? 2e-4 : t == ScalarType::F16 ? 8e-3 : 5e-2; }

// Every element within tolerance of the reference's (relative past 1), NaN where it is NaN.
void check_close(const HostTensor& got, const HostTensor& want, double tol, const std::string& what) {
  BOOST_REQUIRE_MESSAGE(got.shape == want.shape, what << ": shape " << got.shape_string());
  int bad = 0;
  for (int64_t i = 0; i < want.numel() && bad < 3; ++i) {
    const double x = got.get(i), y = want.get(i);
    const bool ok = std::isnan(y) ? std::isnan(x) : std::fabs(x - y) <= tol * (1 + std::fabs(y));
    if (!ok) ++bad;
    BOOST_TEST(ok, what << "[" << i << "]: " << x << " vs the reference's " << y);
  }
}

void compare(const Problem& p, const KernelIR& ir) {
  const KernelGradients want = run_reference_backward(ir, p.in, p.request, 2);
  const KernelGradients got = run_vulkan_backward(ir, p.in, p.request);
  const double tol = tolerance(io_scalar_type(ir.options.dtype));
  check_close(got.dq, want.dq, tol, p.where + " dQ");
  check_close(got.dk, want.dk, tol, p.where + " dK");
  check_close(got.dv, want.dv, tol, p.where + " dV");
  for (const auto& [name, g] : want.buffers) check_close(got.buffers.at(name), g, tol, p.where + " d" + name);
}

bool same_bits(const HostTensor& a, const HostTensor& b) { return a.shape == b.shape && a.bytes == b.bytes; }

}  // namespace

BOOST_AUTO_TEST_CASE(every_kernel_matches_the_reference_backward) {
  std::mt19937 rng(2024);
  // Head dimensions per kernel (each pair is two new pipelines; lavapipe's JIT is the slow part).
  const struct {
    const char* name;
    int D, Dv;
  } cases[] = {{"plain", 16, 24},       {"softcapped", 13, 13}, {"alibi_causal", 8, 12}, {"two_reads", 8, 8},
               {"relative_bias", 8, 5}, {"window", 16, 16},     {"empty_rows", 8, 8},    {"half", 16, 16},
               {"brain", 8, 8},         {"sqrt_nan", 4, 4},     {"infinite", 8, 8}};
  for (const auto& c : cases) {
    auto ir = kernel(c.name);
    for (int round = 0; round < 2; ++round) compare(random_problem(*ir, c.D, c.Dv, rng), *ir);
  }
}

// A sliding window over three query and key tiles: the query-major module skips the key tiles the
// plan rules out, the key-major one the query tiles (and both still match the reference).
BOOST_AUTO_TEST_CASE(key_tiles_the_plan_rules_out_are_skipped) {
  auto ir = kernel("window");
  spirv::SpirvTarget target;
  target.cpu = true;
  const spirv::SpirvConfig c = spirv::choose_backward_config(*ir, target, 16, 16);
  const spirv::SpirvBackward b = spirv::compile_spirv_backward(*ir, c, {});
  BOOST_TEST(b.query_major.config.block_sparse);
  BOOST_TEST(b.key_major.config.block_sparse);
  std::mt19937 rng(17);
  Problem p;
  p.where = "window 1x2x150x16";
  p.in = random_attention_inputs(ScalarType::F32, {1, 2, 1, 150, 150, 16, 16}, rng);
  p.request.dout = random_tensor(ScalarType::F32, {1, 2, 150, 16}, rng);
  compare(p, *ir);
}

BOOST_AUTO_TEST_CASE(fully_masked_rows_contribute_nothing) {
  std::mt19937 rng(5);
  auto ir = kernel("empty_rows");
  Problem p = random_problem(*ir, 8, 8, rng);
  const KernelGradients g = run_vulkan_backward(*ir, p.in, p.request);
  const int64_t Lq = p.in.q.shape[2], D = p.in.q.shape[3];
  for (int64_t row = 0; row < g.dq.numel() / D; ++row)
    for (int64_t d = 0; d < D; ++d)
      if (row % Lq < 3) BOOST_TEST(g.dq.get(row * D + d) == 0.0, "row " << row);
  for (const HostTensor* t : {&g.dq, &g.dk, &g.dv})
    for (int64_t i = 0; i < t->numel(); ++i) BOOST_TEST(std::isfinite(t->get(i)));
}

BOOST_AUTO_TEST_CASE(two_runs_are_bit_identical) {
  std::mt19937 rng(9);
  auto ir = kernel("relative_bias");
  Problem p = random_problem(*ir, 8, 8, rng);
  const KernelGradients a = run_vulkan_backward(*ir, p.in, p.request);
  const KernelGradients b = run_vulkan_backward(*ir, p.in, p.request);
  BOOST_TEST(same_bits(a.dq, b.dq));
  BOOST_TEST(same_bits(a.dk, b.dk));
  BOOST_TEST(same_bits(a.dv, b.dv));
  BOOST_TEST(same_bits(a.buffers.at("bias"), b.buffers.at("bias")));
}

BOOST_AUTO_TEST_CASE(an_index_out_of_range_names_the_buffer) {
  std::mt19937 rng(3);
  auto ir = kernel("two_reads");
  Problem p = random_problem(*ir, 8, 8, rng);
  p.in.buffers["t"] = random_tensor(ScalarType::F32, {1}, rng);
  if (p.in.q.shape[2] == 1 && p.in.k.shape[2] == 1) return;  // every index in range
  try {
    run_vulkan_backward(*ir, p.in, p.request);
    BOOST_FAIL("no error");
  } catch (const EvalError& e) {
    BOOST_TEST(std::string(e.what()).find("buffer 't' index") != std::string::npos, e.what());
  }
}

// `attnc run -t vulkan --dout ...` writes the gradients the reference writes; `attnc compile -t
// vulkan` of a kernel with backward = true writes the backward's modules; `attnc bench --backward`.
BOOST_AUTO_TEST_CASE(command_line) {
  TempDir dir;
  auto path = [&](const std::string& name) { return (dir.path() / name).string(); };
  write_file(
      path("k.attn"),
      "kernel k(slopes: tensor<f32>[heads], doc: tensor<i32>[len]) {\n"
      "  mask = q + 1 >= kv && doc[q] == doc[kv];\n"
      "  score = 4.0 * tanh((score + slopes[h] * (kv - q)) / 4.0);\n  lse = true;\n  backward = true;\n}\n");
  std::mt19937 rng(11);
  write_npy(path("q.npy"), random_tensor(ScalarType::F32, {1, 4, 37, 8}, rng));
  write_npy(path("k.npy"), random_tensor(ScalarType::F32, {1, 2, 41, 8}, rng));
  write_npy(path("v.npy"), random_tensor(ScalarType::F32, {1, 2, 41, 6}, rng));
  write_npy(path("dout.npy"), random_tensor(ScalarType::F32, {1, 4, 37, 6}, rng));
  write_npy(path("dlse.npy"), random_tensor(ScalarType::F32, {1, 4, 37}, rng));
  write_npy(path("slopes.npy"), random_tensor(ScalarType::F32, {4}, rng));
  HostTensor doc(ScalarType::I32, {41});
  for (int64_t i = 0; i < 41; ++i) doc.set(i, static_cast<double>(i / 15));
  write_npy(path("doc.npy"), doc);
  for (const std::string t : {"reference", "vulkan"}) {
    auto r = run_command(
        attnc_binary() + " run " + path("k.attn") + " k --q " + path("q.npy") + " --k " + path("k.npy") +
        " --v " + path("v.npy") + " --arg slopes=" + path("slopes.npy") + " --arg doc=" + path("doc.npy") +
        " -o " + path("out.npy") + " --dout " + path("dout.npy") + " --dlse " + path("dlse.npy") + " --dq " +
        path("dq_" + t + ".npy") + " --dk " + path("dk_" + t + ".npy") + " --dv " + path("dv_" + t + ".npy") +
        " --grad slopes=" + path("ds_" + t + ".npy") + " -t " + t);
    BOOST_REQUIRE_MESSAGE(r.status == 0, t << ": " << r.output);
  }
  for (const std::string g : {"dq", "dk", "dv", "ds"})
    check_close(read_npy(path(g + "_vulkan.npy")), read_npy(path(g + "_reference.npy")), 2e-4, g);

  auto r = run_command(attnc_binary() + " compile " + path("k.attn") + " -t vulkan -o " + path("out"));
  BOOST_REQUIRE_MESSAGE(r.status == 0, r.output);
  for (const char* f : {"k.spv", "k_backward_q.spv", "k_backward_k.spv", "k_backward.spv.h"})
    BOOST_TEST(std::filesystem::exists(dir.path() / "out" / f), f);
  const std::string header = read_file(dir.path() / "out" / "k_backward.spv.h");
  BOOST_TEST(header.find("#define ATTN_K_BACKWARD_GRAD_BUFFERS \"slopes\"") != std::string::npos, header);
  BOOST_TEST(read_file(dir.path() / "out" / "manifest.json").find("k_backward_k.spv") != std::string::npos);

  // bench --backward times forward + backward on the device.
  auto bench = run_command(attnc_binary() + " bench " + path("k.attn") + " k --shape 1,4,24,8 --arg slopes=" +
                           path("slopes.npy") + " --arg doc=" + path("doc.npy") + " -t vulkan --backward");
  BOOST_TEST(bench.status == 0, bench.output);
  BOOST_TEST(bench.output.find("(forward + backward)") != std::string::npos, bench.output);
}
