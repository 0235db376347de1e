// The target table on the command line: compile, dump, run, bench and mask take the same names
// (vulkan included), `spirv` stays an alias with a note, a target without a capability says which have it,
// and a backend's limits are diagnostics located at the kernel.
#include <boost/test/unit_test.hpp>

#include "runtime/Npy.h"
#include "tests/support/NaiveAttention.h"
#include "tests/support/TestSupport.h"

using namespace attn;
using namespace attn::test;

namespace {

std::string attnc(const std::string& args) { return attnc_binary() + " " + args; }

}  // namespace

BOOST_AUTO_TEST_CASE(every_command_takes_vulkan) {
  TempDir dir;
  const std::string src = (dir.path() / "k.attn").string();
  write_file(src, "kernel k { mask = q >= kv; head_dim = 8; }\n");
  auto r = run_command(attnc("compile " + src + " -t vulkan -o " + (dir.path() / "out").string()));
  BOOST_REQUIRE_MESSAGE(r.status == 0, r.output);
  BOOST_TEST(r.output.empty(), r.output);
  BOOST_TEST(read_file(dir.path() / "out/manifest.json").find("\"vulkan\": [\n") != std::string::npos);
  BOOST_TEST(std::filesystem::exists(dir.path() / "out/k.spv"));
  r = run_command(attnc("dump --stage=vulkan " + src));
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(r.output.find("; kernel k\n") == 0, r.output);

  std::mt19937 rng(3);
  for (const char* t : {"q", "k", "v"})
    write_npy((dir.path() / (std::string(t) + ".npy")).string(),
              random_tensor(ScalarType::F32, {1, 1, 5, 8}, rng));
  const std::string qkv = " --q " + (dir.path() / "q.npy").string() + " --k " +
                          (dir.path() / "k.npy").string() + " --v " + (dir.path() / "v.npy").string() +
                          " -o " + (dir.path() / "o.npy").string();
  r = run_command(attnc("run " + src + " k" + qkv + " -t vulkan"));
  BOOST_TEST(r.status == 0, r.output);
  r = run_command(attnc("bench " + src + " k --shape 1,1,16,8 --iters 1 --json -t vulkan"));
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(r.output.find("\"target\": \"vulkan\"") != std::string::npos, r.output);
}

// `mask -t` plans in the target's tiles: the Vulkan module's 8 rows x 32 keys for head_dim 8.
BOOST_AUTO_TEST_CASE(mask_plans_in_a_targets_tiles) {
  TempDir dir;
  const std::string src = (dir.path() / "k.attn").string();
  write_file(src, "kernel k { mask = q >= kv; head_dim = 8; }\n");
  auto r = run_command(attnc("mask " + src + " k --len 64 -t vulkan"));
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(r.output.find("tiles 8x32 (8 x 2 = 16)") != std::string::npos, r.output);
  r = run_command(attnc("mask " + src + " k --len 64 -t vulkan --block 16"));
  BOOST_TEST(r.output.find("tiles 16x16 (4 x 4 = 16)") != std::string::npos, r.output);
}

BOOST_AUTO_TEST_CASE(spirv_is_a_deprecated_alias_of_vulkan) {
  TempDir dir;
  const std::string src = (dir.path() / "k.attn").string();
  write_file(src, "kernel k { mask = q >= kv; head_dim = 8; }\n");
  const std::string note = "attnc: note: target 'spirv' is now called 'vulkan'; the old name will go away\n";
  auto r = run_command(attnc("compile " + src + " -t spirv -o " + (dir.path() / "out").string()));
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(r.output == note);
  BOOST_TEST(read_file(dir.path() / "out/manifest.json").find("\"vulkan\": [\n") != std::string::npos);
  r = run_command(attnc("dump --stage=spirv " + src));
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(r.output.find(note) != std::string::npos, r.output);
  BOOST_TEST(r.output.find("; kernel k\n") != std::string::npos, r.output);
  // run and bench never took it.
  r = run_command(attnc("bench " + src + " k --shape 1,1,16,8 -t spirv"));
  BOOST_TEST(r.status != 0);
  BOOST_TEST(
      r.output.find("unknown target 'spirv' (targets: reference, cpu, cuda, vulkan)") != std::string::npos,
      r.output);
}

BOOST_AUTO_TEST_CASE(a_missing_capability_names_the_targets_that_have_it) {
  TempDir dir;
  const std::string src = (dir.path() / "k.attn").string();
  write_file(src, "kernel k { mask = q >= kv; }\n");
  auto r = run_command(attnc("compile " + src + " -t cpu,reference -o " + (dir.path() / "out").string()));
  BOOST_TEST(r.status != 0);
  BOOST_TEST(r.output.find("reference has no generated sources; compile targets: cpu, cuda, vulkan") !=
                 std::string::npos,
             r.output);
  r = run_command(attnc("dump --stage=reference " + src));
  BOOST_TEST(r.status != 0);
  BOOST_TEST(
      r.output.find("reference has no generated stage to print; targets with a dump: cpu, cuda, vulkan") !=
          std::string::npos,
      r.output);
  r = run_command(attnc("bench " + src + " k --shape 1,1,16,8 -t cpu --autotune"));
  BOOST_TEST(r.status != 0);
  BOOST_TEST(r.output.find("--autotune does not apply to cpu; tuned targets: cuda") != std::string::npos,
             r.output);
  r = run_command(attnc("mask " + src + " k --len 64 -t reference"));
  BOOST_TEST(r.status != 0);
  BOOST_TEST(r.output.find("reference does not work in tiles; tiled targets: cpu, cuda, vulkan") !=
                 std::string::npos,
             r.output);
  r = run_command(attnc("run --help"));
  BOOST_TEST(r.output.find("reference, cpu, cuda, vulkan (default reference)") != std::string::npos,
             r.output);
}

// Two backend limits: CUDA's head dimension and the Vulkan shader's shared memory, each reported at
// the kernel's name like any other error in the file.
BOOST_AUTO_TEST_CASE(backend_limits_are_located_diagnostics) {
  TempDir dir;
  const std::string src = (dir.path() / "k.attn").string();
  write_file(
      src,
      "// limits\nkernel  wide { head_dim = 512; }\nkernel tall { head_dim = 64; block = [64, 128]; }\n");
  auto r =
      run_command(attnc("compile " + src + " -t cuda --kernel wide -o " + (dir.path() / "out").string()));
  BOOST_TEST(r.status == 1);
  BOOST_TEST(
      r.output.find(src + ":2:9: error: CUDA kernels support head dimensions up to 256 (got 512)\n") == 0,
      r.output);
  BOOST_TEST(r.output.find("1 error generated.") != std::string::npos, r.output);
  r = run_command(attnc("dump --stage=vulkan " + src + " tall"));
  BOOST_TEST(r.status == 1);
  BOOST_TEST(r.output.find(
                 src + ":3:8: error: head_dim 64 + value_dim 64 do not fit the device's shared memory") == 0,
             r.output);
}
