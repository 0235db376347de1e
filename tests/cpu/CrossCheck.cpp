// Generated CPU sources built as a user's project builds them and run under qemu-user (CrossCheck.h).
#include "tests/cpu/CrossCheck.h"

#include <boost/test/unit_test.hpp>
#include <random>
#include <regex>
#include <sstream>

#include "runtime/KernelCallArgs.h"
#include "tests/cpu/CpuTestSupport.h"
#include "tests/support/NaiveAttention.h"
#include "tests/support/TestSupport.h"

namespace attn::test {

const char* const kCrossProgram = R"attn(
import std.masks;
import std.scores;
import std.documents;
kernel cross_causal { mask = causal; head_dim = 64; }
kernel cross_documents(doc: tensor<i32>[len]) { mask = document_causal(doc); head_dim = 40; lse = true; }
kernel cross_alibi(slopes: tensor<f32>[heads]) { mask = causal; score = alibi(slopes) |> softcap(30.0); head_dim = 64; }
kernel cross_bf16 { mask = sliding_window(40); dtype = bf16; head_dim = 64; lse = true; }
kernel cross_f16 { mask = full; dtype = f16; head_dim = 32; }
)attn";

const char* const kCrossKernels[5] = {"cross_causal", "cross_documents", "cross_alibi", "cross_bf16",
                                      "cross_f16"};

namespace {

/// Out's tolerance for the kernel's I/O type, as test_cpu's; the LSE's is 5 times it.
double tolerance(ScalarType t) { return t == ScalarType::F32 ? 2e-4 : t == ScalarType::F16 ? 1e-2 : 6e-2; }

KernelInputs random_inputs(const KernelIR& ir, std::mt19937& rng) {
  const ScalarType io = io_scalar_type(ir.options.dtype);
  const int64_t B = 2, Hq = 4, Hkv = 2, D = ir.options.head_dim;
  const int64_t Lq = ir.options.dtype == DType::F16 ? 83 : 150,
                Lkv = ir.options.dtype == DType::F16 ? 61 : 150;
  KernelInputs in;
  in.q = random_tensor(io, {B, Hq, Lq, D}, rng);
  in.k = random_tensor(io, {B, Hkv, Lkv, D}, rng);
  in.v = random_tensor(io, {B, Hkv, Lkv, D}, rng);
  for (const KernelArg& a : ir.args) {
    if (a.name == "doc") {
      HostTensor doc(ScalarType::I32, {Lq});
      for (int64_t i = 0; i < Lq; ++i)
        doc.set(i, double(i / 37 + (i > 100)));  // documents of 37, 37, 27, 1, 36, ...
      in.buffers["doc"] = doc;
    } else if (a.name == "slopes") {
      HostTensor slopes(ScalarType::F32, {Hq});
      for (int64_t h = 0; h < Hq; ++h) slopes.set(h, -0.5 / double(h + 1));
      in.buffers["slopes"] = slopes;
    }
  }
  return in;
}

/// call.txt's line for a tensor (CrossDriver.cpp).
std::string tensor_line(const std::string& name, ScalarType type, const std::vector<int64_t>& shape) {
  DLDataType dl = dl_data_type(type);
  std::ostringstream s;
  s << "tensor " << name << " " << int(dl.code) << " " << int(dl.bits) << " " << shape.size();
  for (int64_t d : shape) s << " " << d;
  return s.str() + "\n";
}

void write_tensor(const std::filesystem::path& path, const HostTensor& t) {
  write_file(path, std::string(t.bytes.begin(), t.bytes.end()));
}

HostTensor read_tensor(const std::filesystem::path& path, ScalarType type,
                       const std::vector<int64_t>& shape) {
  HostTensor t(type, shape);
  std::string bytes = read_file(path);
  BOOST_REQUIRE_EQUAL(bytes.size(), t.bytes.size());
  std::copy(bytes.begin(), bytes.end(), t.bytes.begin());
  return t;
}

/// Writes the call of `ir` on `in` (call.txt and the inputs' bytes) into `dir`.
void write_call(const std::filesystem::path& dir, const KernelIR& ir, const KernelInputs& in) {
  std::filesystem::create_directories(dir);
  std::vector<int64_t> out_shape = in.q.shape;
  std::string call = "kernel " + ir.name + "\n" + tensor_line("q", in.q.type, in.q.shape) +
                     tensor_line("k", in.k.type, in.k.shape) + tensor_line("v", in.v.type, in.v.shape) +
                     tensor_line("out", in.q.type, out_shape);
  if (ir.options.lse) call += tensor_line("lse", ScalarType::F32, {out_shape[0], out_shape[1], out_shape[2]});
  write_tensor(dir / "q.bin", in.q);
  write_tensor(dir / "k.bin", in.k);
  write_tensor(dir / "v.bin", in.v);
  for (const KernelArg& a : ir.args) {
    BOOST_REQUIRE(a.kind == KernelArg::Kind::Buffer);
    const HostTensor& t = in.buffers.at(a.name);
    call += tensor_line("buffer_" + a.name, t.type, t.shape);
    write_tensor(dir / ("buffer_" + a.name + ".bin"), t);
  }
  write_file(dir / "call.txt", call);
}

}  // namespace

std::string checked_command(const std::string& command) {
  CommandResult r = run_command(command);
  BOOST_REQUIRE_MESSAGE(r.status == 0, command << ":\n" << r.output.substr(0, 6000));
  return r.output;
}

std::filesystem::path build_cross_driver(const std::filesystem::path& dir, const std::string& cxx,
                                         const std::string& flags) {
  const std::filesystem::path gen = dir / "gen";
  write_file(dir / "kernels.attn", kCrossProgram);
  checked_command(attnc_binary() + " compile " + (dir / "kernels.attn").string() + " -t cpu -o " +
                  gen.string());

  // The driver's kernel list, then every source built as the banner says, two at a time.
  std::string list = "#define ATTN_KERNELS(X)", includes, objects;
  for (const char* k : kCrossKernels) {
    includes += "#include \"" + std::string(k) + ".h\"\n";
    list += std::string(" X(") + k + ")";
    objects += " " + (gen / k).string() + ".o";
  }
  write_file(gen / "kernels.inc", includes + list + "\n");
  const std::string all_flags = " -std=c++17 -O2 -ffp-contract=fast -fno-math-errno -Wall -Wextra -Werror " +
                                flags + " -I" + gen.string();
  checked_command("cd " + gen.string() + " && printf '%s\\n' " + objects +
                  " | sed 's/\\.o$//' | xargs -P 2 -I{} " + cxx + all_flags + " -c {}.cpp -o {}.o");
  const std::filesystem::path driver = dir / "driver";
  checked_command(cxx + all_flags + " -static -pthread " +
                  (source_dir() / "tests/cpu/CrossDriver.cpp").string() + objects + " -o " + driver.string());
  return driver;
}

void check_cross_runs(const std::filesystem::path& dir, const std::filesystem::path& driver,
                      const std::string& runner, const std::string& path, const std::string& what,
                      unsigned seed) {
  std::mt19937 rng(seed);
  for (const char* k : kCrossKernels) {
    auto ir = lower_text(kCrossProgram, k);
    KernelInputs in = random_inputs(*ir, rng);
    KernelOutputs want = run_reference(*ir, in, 2);
    const std::filesystem::path call = dir / k;
    write_call(call, *ir, in);
    // The driver prints `path NAME` on stdout; qemu may add warnings about CPU features it lacks.
    std::string printed = checked_command(runner + " " + driver.string() + " " + call.string());
    std::smatch ran;
    BOOST_TEST_REQUIRE(std::regex_search(printed, ran, std::regex("(^|\n)path (\\S+)\n")),
                       what << " " << k << ": " << printed);
    BOOST_TEST(ran[2].str() == path, what << " " << k);
    const double tol = tolerance(in.q.type);
    HostTensor out = read_tensor(call / "out.bin", in.q.type, want.out.shape);
    BOOST_TEST(max_abs_diff(out, want.out) <= tol, what << " " << k);
    if (ir->options.lse) {
      HostTensor lse = read_tensor(call / "lse.bin", ScalarType::F32, want.lse.shape);
      BOOST_TEST(max_abs_diff(lse, want.lse) <= 5 * tol, what << " " << k);
    }
  }
}

}  // namespace attn::test
