// What attnc reads and refuses: FIFOs and directories as inputs, imports through links to other
// files, int arguments out of range, kernels that explode once lets are expanded, absurd mask
// plans; and the messages: paths with newlines, a number given for a tensor, fmt -i and links.
#include <sys/stat.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <chrono>

#include "runtime/Npy.h"
#include "tests/support/TestSupport.h"

using namespace attn;
using namespace attn::test;
namespace fs = std::filesystem;

namespace {

std::string attnc(const std::string& args) { return attnc_binary() + " " + args; }

bool has(const std::string& output, const std::string& text) {
  return output.find(text) != std::string::npos;
}

// `let x0 = q - kv, x1 = x0 * x0, ...`: `levels` doublings of one value.
std::string let_doubling(int levels) {
  std::string s = "kernel k {\n  score = let x0 = q - kv";
  for (int i = 1; i <= levels; ++i)
    s += ", x" + std::to_string(i) + " = x" + std::to_string(i - 1) + " * x" + std::to_string(i - 1);
  return s + ";\n    score + x" + std::to_string(levels) + ";\n}\n";
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(inputs)

BOOST_AUTO_TEST_CASE(fifos_and_directories_as_inputs_are_errors_not_hangs) {
  TempDir dir;
  const std::string fifo = (dir.path() / "f.attn").string(), npy = (dir.path() / "f.npy").string();
  BOOST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  BOOST_REQUIRE(::mkfifo(npy.c_str(), 0600) == 0);
  write_file(dir.path() / "k.attn", "kernel k { mask = q >= kv; }\n");
  const std::string k = (dir.path() / "k.attn").string();
  const std::pair<std::string, std::string> cases[] = {
      {"check " + fifo, "'" + fifo + "' is a FIFO, not a regular file"},
      {"fmt " + fifo, "'" + fifo + "' is a FIFO, not a regular file"},
      {"fmt -i " + fifo, "'" + fifo + "' is a FIFO, not a regular file"},
      {"fmt " + dir.path().string(), "is a directory, not a regular file"},
      {"check " + dir.path().string(), "is a directory, not a regular file"},
      {"run " + k + " --q " + npy + " --k " + npy + " --v " + npy + " -o " + (dir.path() / "o.npy").string(),
       npy + ": a FIFO, not a regular file"},
  };
  for (const auto& [args, want] : cases) {
    auto r = run_command("timeout 20 " + attnc(args));
    BOOST_TEST(r.status == 1, args << ": " << r.output);
    BOOST_TEST(has(r.output, want), args << ": " << r.output);
  }
}

BOOST_AUTO_TEST_CASE(an_import_is_checked_where_its_links_lead) {
  TempDir dir;
  write_file(dir.path() / "private.txt", "SECRET first line\n");
  fs::create_symlink(dir.path() / "private.txt", dir.path() / "leak.attn");
  write_file(dir.path() / "main.attn", "import \"leak.attn\";\nkernel k { mask = q >= kv; }\n");
  auto r = run_command(attnc("check " + (dir.path() / "main.attn").string()));
  BOOST_TEST(r.status == 1, r.output);
  BOOST_TEST(has(r.output, "it leads to '" + fs::canonical(dir.path() / "private.txt").string() +
                               "', not an .attn file"),
             r.output);
  BOOST_TEST(!has(r.output, "SECRET"), r.output);
  // A link to a FIFO named .attn: refused, not waited on.
  BOOST_REQUIRE(::mkfifo((dir.path() / "p.attn").c_str(), 0600) == 0);
  write_file(dir.path() / "main.attn", "import \"p.attn\";\nkernel k { mask = q >= kv; }\n");
  r = run_command("timeout 20 " + attnc("check " + (dir.path() / "main.attn").string()));
  BOOST_TEST(r.status == 1, r.output);
  BOOST_TEST(has(r.output, "is a FIFO, not a regular file"), r.output);
}

BOOST_AUTO_TEST_CASE(int_arguments_are_integer_literals_in_the_i32_range) {
  TempDir dir;
  const std::string k = (dir.path() / "k.attn").string();
  write_file(k, "kernel k(off: int, t: tensor<f32>[n]) { mask = q - kv < off; score = score + t[0]; }\n");
  HostTensor t(ScalarType::F32, {1, 1, 4, 4}), one(ScalarType::F32, {1});
  const std::string q = (dir.path() / "q.npy").string(), tn = (dir.path() / "t.npy").string();
  write_npy(q, t);
  write_npy(tn, one);
  const std::string run = "run " + k + " --q " + q + " --k " + q + " --v " + q + " -o " +
                          (dir.path() / "o.npy").string() + " --arg t=" + tn + " --arg off=";
  for (const char* bad : {"2147483648", "1e99", "nan", "5.5", "-3.7", "-2147483649", "", "0x10", "true"}) {
    for (const std::string& cmd :
         std::vector<std::string>{run + bad, "mask " + k + " --len 8 --arg t=" + tn + " --arg off=" + bad}) {
      auto r = run_command(attnc(cmd));
      BOOST_TEST(r.status == 1, cmd << ": " << r.output);
      BOOST_TEST(has(r.output, "attnc: error: --arg off: "), cmd << ": " << r.output);
      BOOST_TEST(has(r.output, "'off' is an int, a whole number from -2147483648 to 2147483647"), r.output);
    }
  }
  for (const char* good : {"2147483647", "-2147483648", "+3", "0"}) {
    auto r = run_command(attnc(run + good));
    BOOST_TEST(r.status == 0, good << ": " << r.output);
  }
  // A number where a tensor's file belongs.
  auto r = run_command(attnc("run " + k + " --q " + q + " --k " + q + " --v " + q + " -o " +
                             (dir.path() / "o.npy").string() + " --arg off=1 --arg t=5"));
  BOOST_TEST(r.status == 1, r.output);
  BOOST_TEST(has(r.output, "--arg t=5: 't' is a tensor: give a .npy file (--arg t=FILE.npy)"), r.output);
}

BOOST_AUTO_TEST_CASE(let_doubling_is_a_located_error_in_every_command) {
  TempDir dir;
  const std::string k = (dir.path() / "k.attn").string();
  write_file(k, let_doubling(27));
  for (const std::string& cmd :
       std::vector<std::string>{"check " + k, "dump --stage=ir " + k,
                                "compile " + k + " -t cpu -o " + (dir.path() / "out").string()}) {
    const auto t0 = std::chrono::steady_clock::now();
    auto r = run_command(attnc(cmd));
    BOOST_TEST(seconds_since(t0) < 10.0, cmd);
    BOOST_TEST(r.status == 1, cmd << ": " << r.output);
    BOOST_TEST(has(r.output, k + ":2:3: error: kernel 'k' is too large once its definitions are inlined "
                                 "(more than 200000 expression nodes for its score)"),
               cmd << ": " << r.output);
    BOOST_TEST(has(r.output, "counts once per use"), r.output);
  }
  // Below the budget the same shape is fine.
  write_file(k, let_doubling(8));
  auto r = run_command(attnc("check " + k));
  BOOST_TEST(r.status == 0, r.output);
}

BOOST_AUTO_TEST_CASE(a_mask_plan_too_large_is_refused_with_its_size) {
  TempDir dir;
  const std::string k = (dir.path() / "k.attn").string();
  write_file(k, "kernel k { mask = q >= kv; }\n");
  auto r = run_command(attnc("mask " + k + " --len 2147483647 --block 1,1"));
  BOOST_TEST(r.status == 1, r.output);
  BOOST_TEST(has(r.output, "the tile plan of 2147483647 x 2147483647 tiles (1x1) would need about 160.0 GiB"),
             r.output);
  BOOST_TEST(!has(r.output, "bad_alloc"), r.output);
}

BOOST_AUTO_TEST_CASE(a_path_with_a_newline_is_quoted_in_diagnostics) {
  TempDir dir;
  const std::string k = (dir.path() / "a\nb.attn").string();
  write_file(k, "kernel k { mask = nope; }\n");
  auto r = run_command(attnc("check '" + k + "'"));
  BOOST_TEST(r.status == 1, r.output);
  const std::string quoted = "\"" + dir.path().string() + "/a\\nb.attn\":1:19: error: unknown name 'nope'";
  BOOST_TEST(has(r.output, quoted), r.output);
}

BOOST_AUTO_TEST_CASE(fmt_in_place_keeps_hard_links) {
  TempDir dir;
  const fs::path a = dir.path() / "a.attn", b = dir.path() / "b.attn";
  write_file(a, "kernel   k {mask=q>=kv;}\n");
  fs::create_hard_link(a, b);
  auto r = run_command(attnc("fmt -i " + a.string()));
  BOOST_TEST(r.status == 0, r.output);
  BOOST_TEST(read_file(b) == "kernel k { mask = q >= kv; }\n");
  BOOST_TEST(fs::hard_link_count(a) == 2u);
  BOOST_TEST(fs::equivalent(a, b));
}

BOOST_AUTO_TEST_SUITE_END()
