// Files attnc writes: `compile` fails loudly when an output cannot be written, user names never
// collide with C macros in generated code, `fmt -i` writes through symbolic links.
#include <sys/stat.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <random>

#include "runtime/Npy.h"
#include "tests/support/TestSupport.h"

using namespace attn;
using namespace attn::test;
namespace fs = std::filesystem;

namespace {

std::string attnc(const std::string& args) { return attnc_binary() + " " + args; }

}  // namespace

BOOST_AUTO_TEST_SUITE(files)

BOOST_AUTO_TEST_CASE(compile_exits_non_zero_when_a_file_cannot_be_written) {
  TempDir dir;
  std::string src = (dir.path() / "k.attn").string();
  // A kernel name too long for a file name.
  write_file(src, "kernel k" + std::string(251, 'x') + " { mask = q >= kv; }\n");
  auto r = run_command(attnc("compile " + src + " -t cpu -o " + (dir.path() / "out1").string()));
  BOOST_TEST(r.status == 1, r.output);
  BOOST_TEST(r.output.find("cannot write") != std::string::npos, r.output);
  BOOST_TEST(r.output.find("File name too long") != std::string::npos, r.output);
  // A directory where the source would go.
  write_file(src, "kernel k { mask = q >= kv; }\n");
  fs::create_directories(dir.path() / "out2" / "k.cpp");
  r = run_command(attnc("compile " + src + " -t cpu -o " + (dir.path() / "out2").string()));
  BOOST_TEST(r.status == 1, r.output);
  BOOST_TEST(r.output.find("cannot write " + (dir.path() / "out2" / "k.cpp").string() + ": Is a directory") !=
                 std::string::npos,
             r.output);
  // The manifest too.
  fs::create_directories(dir.path() / "out3" / "manifest.json");
  r = run_command(attnc("compile " + src + " -t vulkan -o " + (dir.path() / "out3").string()));
  BOOST_TEST(r.status == 1, r.output);
  BOOST_TEST(r.output.find("manifest.json: Is a directory") != std::string::npos, r.output);
  // An output folder under a regular file.
  r = run_command(attnc("compile " + src + " -t cpu -o " + src + "/out"));
  BOOST_TEST(r.status == 1, r.output);
  // And all is well when it can.
  r = run_command(attnc("compile " + src + " -t cpu,vulkan -o " + (dir.path() / "out4").string()));
  BOOST_TEST(r.status == 0, r.output);
}

BOOST_AUTO_TEST_CASE(names_like_c_macros_and_reserved_names_build_and_run) {
  TempDir dir;
  std::string src = (dir.path() / "k.attn").string();
  write_file(src,
             "kernel __LINE__(__FILE__: int, _X: tensor<f32>[len], u_x: int) {\n"
             "  mask = q - kv < __FILE__ + u_x;\n  score = score + _X[kv];\n  head_dim = 16;\n}\n");
  auto r = run_command(attnc("compile " + src + " -t cpu -o " + (dir.path() / "out").string()));
  BOOST_REQUIRE_MESSAGE(r.status == 0, r.output);
  std::string code = read_file(dir.path() / "out" / "__LINE__.cpp");
  BOOST_TEST(code.find("u___FILE__") != std::string::npos);
  BOOST_TEST(code.find("u_u_x") != std::string::npos);
  std::mt19937 rng(3);
  std::normal_distribution<float> normal;
  auto tensor = [&](std::vector<int64_t> shape, const std::string& name) {
    HostTensor t(ScalarType::F32, shape);
    for (int64_t i = 0; i < t.numel(); ++i) t.set(i, normal(rng));
    write_npy((dir.path() / name).string(), t);
  };
  tensor({1, 2, 40, 16}, "q.npy");
  tensor({1, 2, 40, 16}, "k.npy");
  tensor({1, 2, 40, 16}, "v.npy");
  tensor({40}, "x.npy");
  std::string args = "run " + src + " __LINE__ --q " + (dir.path() / "q.npy").string() + " --k " +
                     (dir.path() / "k.npy").string() + " --v " + (dir.path() / "v.npy").string() +
                     " --arg __FILE__=5 --arg u_x=2 --arg _X=" + (dir.path() / "x.npy").string() + " -o ";
  r = run_command(attnc(args + (dir.path() / "ref.npy").string() + " -t reference"));
  BOOST_REQUIRE_MESSAGE(r.status == 0, r.output);
  r = run_command(attnc(args + (dir.path() / "cpu.npy").string() + " -t cpu"));
  BOOST_REQUIRE_MESSAGE(r.status == 0, r.output);
  HostTensor a = read_npy((dir.path() / "ref.npy").string()), b = read_npy((dir.path() / "cpu.npy").string());
  double worst = 0;
  for (int64_t i = 0; i < a.numel(); ++i) worst = std::max(worst, std::abs(a.get(i) - b.get(i)));
  BOOST_TEST(worst < 1e-4);
}

BOOST_AUTO_TEST_CASE(fmt_in_place_writes_through_a_symlink_and_keeps_the_mode) {
  TempDir dir;
  fs::path real = dir.path() / "real.attn", link = dir.path() / "link.attn";
  write_file(real, "mask  a=q>=kv ;\n");
  ::chmod(real.c_str(), 0640);
  fs::create_symlink("real.attn", link);
  auto r = run_command(attnc("fmt -i " + link.string()));
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(fs::is_symlink(link));
  BOOST_TEST(read_file(real) == "mask a = q >= kv;\n");
  struct stat st {};
  BOOST_REQUIRE(::stat(real.c_str(), &st) == 0);
  BOOST_TEST((st.st_mode & 07777) == 0640u);
  // Nothing is left beside it.
  BOOST_TEST(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 2);
}

BOOST_AUTO_TEST_CASE(run_reports_an_overflowing_npy_shape) {
  TempDir dir;
  std::string src = (dir.path() / "k.attn").string();
  write_file(src, "kernel k { mask = q >= kv; head_dim = 16; }\n");
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2, 2305843009213693952, 16), }";
  header += std::string((64 - (10 + header.size() + 1) % 64) % 64, ' ') + "\n";
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(header.size()) + '\0' + header;
  write_file(dir.path() / "q.npy", bytes + std::string(64, '\0'));
  HostTensor ok(ScalarType::F32, {1, 2, 4, 16});
  write_npy((dir.path() / "k.npy").string(), ok);
  for (const char* target : {"reference", "cpu"}) {
    auto r = run_command(attnc("run " + src + " k --q " + (dir.path() / "q.npy").string() + " --k " +
                               (dir.path() / "k.npy").string() + " --v " + (dir.path() / "k.npy").string() +
                               " -o " + (dir.path() / "o.npy").string() + " -t " + target));
    BOOST_TEST(r.status == 1, r.output);
    BOOST_TEST(r.output.find("q.npy: dimension 2305843009213693952") != std::string::npos, r.output);
  }
}

BOOST_AUTO_TEST_SUITE_END()
