// Generated CPU sources on AArch64: `attnc compile -t cpu` output (every path, the x86 ones compiled
// out there) built by Debian's cross g++ with -O2 -static and no -m flags, with CrossDriver.cpp, run
// under qemu-user on random inputs whose lengths are not tile multiples and checked against the
// reference; the kernels run the NEON path, whose code is NEON's 4-lane fused multiply-adds.
#define BOOST_TEST_MODULE cpu_aarch64
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <random>
#include <regex>
#include <sstream>

#include "runtime/KernelCallArgs.h"
#include "tests/cpu/CpuTestSupport.h"
#include "tests/support/NaiveAttention.h"
#include "tests/support/TestSupport.h"

using namespace attn;
using namespace attn::test;

namespace {

// A causal mask, a buffer mask (planned by the kernel itself: the driver passes no key ranges), a
// score with a buffer, bf16 with a window and the log-sum-exp, and f16 with more queries than keys.
const char* kProgram = R"attn(
import std.masks;
import std.scores;
import std.documents;
kernel arm_causal { mask = causal; head_dim = 64; }
kernel arm_documents(doc: tensor<i32>[len]) { mask = document_causal(doc); head_dim = 40; lse = true; }
kernel arm_alibi(slopes: tensor<f32>[heads]) { mask = causal; score = alibi(slopes) |> softcap(30.0); head_dim = 64; }
kernel arm_bf16 { mask = sliding_window(40); dtype = bf16; head_dim = 64; lse = true; }
kernel arm_f16 { mask = full; dtype = f16; head_dim = 32; }
)attn";

const char* const kKernels[] = {"arm_causal", "arm_documents", "arm_alibi", "arm_bf16", "arm_f16"};

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

/// Runs `command`; fails the test with its output when it fails.
std::string checked(const std::string& command) {
  CommandResult r = run_command(command);
  BOOST_REQUIRE_MESSAGE(r.status == 0, command << ":\n" << r.output.substr(0, 6000));
  return r.output;
}

}  // namespace

BOOST_AUTO_TEST_CASE(generated_sources_run_on_aarch64_under_qemu) {
  const std::string cxx = ATTNC_AARCH64_CXX, qemu = ATTNC_QEMU_AARCH64, objdump = ATTNC_AARCH64_OBJDUMP;
  BOOST_REQUIRE_MESSAGE(
      cxx.find("NOTFOUND") == std::string::npos && qemu.find("NOTFOUND") == std::string::npos &&
          objdump.find("NOTFOUND") == std::string::npos,
      "no aarch64 cross compiler, objdump or qemu-aarch64 (scripts/install-deps.sh installs "
      "g++-aarch64-linux-gnu and qemu-user)");
  TempDir dir;
  const std::filesystem::path gen = dir.path() / "gen";
  write_file(dir.path() / "kernels.attn", kProgram);
  checked(attnc_binary() + " compile " + (dir.path() / "kernels.attn").string() + " -t cpu -o " +
          gen.string());

  // The driver's kernel list, then every source built as the banner says, two at a time.
  std::string list = "#define ATTN_KERNELS(X)", includes, objects;
  for (const char* k : kKernels) {
    includes += "#include \"" + std::string(k) + ".h\"\n";
    list += std::string(" X(") + k + ")";
    objects += " " + (gen / k).string() + ".o";
  }
  write_file(gen / "kernels.inc", includes + list + "\n");
  const std::string flags =
      " -std=c++17 -O2 -ffp-contract=fast -fno-math-errno -Wall -Wextra -Werror -I" + gen.string();
  checked("cd " + gen.string() + " && printf '%s\\n' " + objects + " | sed 's/\\.o$//' | xargs -P 2 -I{} " +
          cxx + flags + " -c {}.cpp -o {}.o");
  const std::filesystem::path driver = dir.path() / "driver";
  checked(cxx + flags + " -static -pthread " + (source_dir() / "tests/cpu/CrossDriver.cpp").string() +
          objects + " -o " + driver.string());

  // The NEON path's inner products are fused multiply-adds on 4-lane q registers (fmla vN.4s).
  std::string code = checked(objdump + " -d --no-show-raw-insn " + (gen / "arm_causal.o").string());
  BOOST_TEST(std::regex_search(code, std::regex(R"(fmla\s+v[0-9]+\.4s)")));

  std::mt19937 rng(14);
  for (const char* k : kKernels) {
    auto ir = lower_text(kProgram, k);
    KernelInputs in = random_inputs(*ir, rng);
    KernelOutputs want = run_reference(*ir, in, 2);
    const std::filesystem::path call = dir.path() / k;
    write_call(call, *ir, in);
    std::string printed = checked(qemu + " " + driver.string() + " " + call.string());
    BOOST_TEST(printed == "path neon\n", k);
    const double tol = tolerance(in.q.type);
    HostTensor out = read_tensor(call / "out.bin", in.q.type, want.out.shape);
    BOOST_TEST(max_abs_diff(out, want.out) <= tol, k);
    if (ir->options.lse) {
      HostTensor lse = read_tensor(call / "lse.bin", ScalarType::F32, want.lse.shape);
      BOOST_TEST(max_abs_diff(lse, want.lse) <= 5 * tol, k);
    }
  }
}
