// The backend registry: the built-in targets and their capabilities, the messages of a lookup
// that fails, and a target added from outside (tests/backend/ScalarCppBackend.cpp registers
// scalar-cpp at start-up): it runs kernels that agree with the reference, and attnc built with it
// (attnc_scalar_cpp) lists it, compiles for it and runs it, where plain attnc does neither.
#define BOOST_TEST_MODULE backend_registry
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <random>

#include "backends/Backend.h"
#include "backends/io/KernelIO.h"
#include "tests/support/AttentionInputs.h"
#include "tests/support/CheckedLowering.h"
#include "tests/support/TestSupport.h"

using namespace attn;

namespace {

const char* kKernels = R"attn(
import std.masks;
kernel causal { mask = causal; head_dim = 16; }
kernel window(w: int) { mask = sliding_window(w); score = 30.0 * tanh(score / 30.0); }
kernel band { mask = bidirectional_window(5) || kv < 2; }
kernel documents(doc: tensor<i32>[len]) { mask = doc[q] == doc[kv] && kv <= q; lse = true; }
kernel alibi(slopes: tensor<f32>[heads]) { mask = causal; score = score + slopes[h] * float(kv - q); }
kernel grid { mask = abs(q // 4 - kv // 4) <= 1 && (q % 4) >= (kv % 4) - 1; }
)attn";

}  // namespace

BOOST_AUTO_TEST_CASE(the_registry_holds_the_targets_and_says_what_each_can_do) {
  std::vector<std::string> names;
  for (const Backend* b : backends()) names.push_back(b->name());
  const std::vector<std::string> expected = {"reference", "cpu", "cuda", "vulkan", "scalar-cpp"};
  BOOST_TEST(names == expected, boost::test_tools::per_element());
  BOOST_TEST(backend_names(Capability::Tune) == "cuda");
  BOOST_TEST(backend_names(Capability::Compile) == "cpu, cuda, vulkan, scalar-cpp");
  BOOST_TEST(find_backend("cuda", Capability::Compile).default_head_dim() == 128);
  BOOST_TEST(find_backend("vulkan", Capability::Compile).default_head_dim() == 64);
  BOOST_TEST(find_backend("cpu", Capability::Compile).default_head_dim() == 0);
  std::string note;
  BOOST_TEST(find_backend("spirv", Capability::Compile, &note).name() == std::string("vulkan"));
  BOOST_TEST(note.find("now called 'vulkan'") != std::string::npos, note);
  auto message = [](const std::string& name, Capability c) {
    try {
      find_backend(name, c);
    } catch (const TargetError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  BOOST_TEST(message("scalar-cpp", Capability::Tune) ==
             "--autotune does not apply to scalar-cpp; tuned targets: cuda");
  BOOST_TEST(message("reference", Capability::Compile) ==
             "reference has no generated sources; compile targets: cpu, cuda, vulkan, scalar-cpp");
  BOOST_TEST(message("spirv", Capability::Run) ==
             "unknown target 'spirv' (targets: reference, cpu, cuda, vulkan, scalar-cpp)");
  BOOST_CHECK_THROW(find_backend("scalar-cpp", Capability::Backward), TargetError);
}

// The new target against the reference: random inputs, lengths that are no tile multiple, Lq !=
// Lkv both ways, GQA, scalars and buffers, rows with no key.
BOOST_AUTO_TEST_CASE(the_added_target_agrees_with_the_reference) {
  auto program = test::load_checked_text("scalar_cpp.attn", kKernels);
  const Backend& toy = find_backend("scalar-cpp", Capability::Run);
  const Backend& reference = find_backend("reference", Capability::Run);
  std::mt19937 rng(11);
  int checked = 0;
  for (const char* name : {"causal", "window", "band", "documents", "alibi", "grid"})
    for (auto [lq, lkv] : {std::pair{37, 37}, {13, 70}, {70, 9}}) {
      auto ir = test::lower_checked(*program, name);
      test::AttentionShape s;
      s.B = 2, s.Hq = 4, s.Hkv = 2, s.Lq = lq, s.Lkv = lkv, s.D = s.Dv = 16;
      KernelInputs in = test::random_attention_inputs(ScalarType::F32, s, rng);
      if (std::string(name) == "window") in.scalars["w"] = 7;
      if (std::string(name) == "documents") {
        HostTensor doc(ScalarType::I32, {std::max(lq, lkv)});
        for (int64_t i = 0; i < doc.numel(); ++i) doc.set(i, double(i / 11));
        in.buffers["doc"] = doc;
      }
      if (std::string(name) == "alibi") {
        HostTensor slopes(ScalarType::F32, {4});
        for (int64_t i = 0; i < 4; ++i) slopes.set(i, -0.1 * double(i + 1));
        in.buffers["slopes"] = slopes;
      }
      const KernelOutputs a = toy.run(*ir, in, 1), r = reference.run(*ir, in, 1);
      double err = 0;
      for (int64_t i = 0; i < r.out.numel(); ++i) err = std::max(err, std::abs(a.out.get(i) - r.out.get(i)));
      BOOST_TEST(err < 1e-4, name << " at Lq=" << lq << " Lkv=" << lkv << ": max |err| " << err);
      ++checked;
    }
  BOOST_TEST(checked == 18);
}

// attnc linked with the new target offers it in --help and takes it for compile; plain attnc does not.
BOOST_AUTO_TEST_CASE(the_command_line_offers_the_added_target_with_no_change_elsewhere) {
  const test::CommandResult help =
      test::run_command(std::string(ATTNC_SCALAR_CPP_BINARY) + " compile --help");
  BOOST_TEST(help.status == 0);
  BOOST_TEST(help.output.find("cpu, cuda, vulkan, scalar-cpp") != std::string::npos, help.output);
  const test::CommandResult plain = test::run_command(std::string(ATTNC_BINARY) + " compile --help");
  BOOST_TEST(plain.output.find("scalar-cpp") == std::string::npos, plain.output);

  test::TempDir tmp;
  test::write_file(tmp.path() / "k.attn", "import std.masks;\nkernel k { mask = causal; }\n");
  const test::CommandResult c = test::run_command(std::string(ATTNC_SCALAR_CPP_BINARY) + " compile " +
                                                  (tmp.path() / "k.attn").string() +
                                                  " -t scalar-cpp,cpu -o " + (tmp.path() / "out").string());
  BOOST_TEST(c.status == 0, c.output);
  BOOST_TEST(std::filesystem::exists(tmp.path() / "out" / "k_scalar.cpp"));
  BOOST_TEST(test::read_file(tmp.path() / "out" / "manifest.json").find("\"scalar-cpp\": [") !=
             std::string::npos);
  const test::CommandResult refused =
      test::run_command(std::string(ATTNC_BINARY) + " compile " + (tmp.path() / "k.attn").string() +
                        " -t scalar-cpp -o " + (tmp.path() / "out2").string());
  BOOST_TEST(refused.status != 0);
  BOOST_TEST(refused.output.find("unknown target 'scalar-cpp'") != std::string::npos, refused.output);
}
