// CUDA backend tests that need no GPU: every test kernel compiles with NVRTC for sm_80 and
// sm_90a without spills and within shared memory; golden sources; nvcc compiles `attnc compile`
// output; the driver's absence is a clear error.
#define BOOST_TEST_MODULE cuda
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <map>
#include <sstream>

#include "backends/cuda/CudaPrinter.h"
#include "backends/cuda/CudaRun.h"
#include "codegen/KernelIR.h"
#include "attn/loader.hpp"
#include "runtime/CudaCompiler.h"
#include "runtime/CudaDriver.h"
#include "runtime/Npy.h"
#include "runtime/Nvrtc.h"
#include "tests/cuda/CudaTestKernels.h"
#include "tests/support/TestSupport.h"

using namespace attn;
namespace fs = std::filesystem;

namespace {

/// NVRTC results by (arch, source): identical sources compile once per run.
const NvrtcResult& compile_once(const std::string& source, const std::string& name, const std::string& arch) {
  static std::map<std::string, NvrtcResult> cache;
  const std::string key = arch + "\n" + source;
  auto it = cache.find(key);
  if (it == cache.end()) {
    NvrtcOptions o;
    o.arch = arch;
    it = cache.emplace(key, nvrtc_compile(source, name, o)).first;
  }
  return it->second;
}

void check_golden(const fs::path& expected_file, const std::string& actual) {
  if (std::getenv("ATTNC_UPDATE_GOLDEN")) {
    test::write_file(expected_file, actual);
    return;
  }
  BOOST_REQUIRE_MESSAGE(fs::exists(expected_file), expected_file << " is missing (run with ATTNC_UPDATE_GOLDEN=1)");
  BOOST_TEST(test::read_file(expected_file) == actual, expected_file << " differs (ATTNC_UPDATE_GOLDEN=1 regenerates)");
}

}  // namespace

BOOST_AUTO_TEST_CASE(ptxas_report_is_parsed) {
  const std::string log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'attn_fwd_x' for 'sm_80'\n"
      "ptxas info    : Function properties for attn_fwd_x\n"
      "    16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n"
      "ptxas info    : Used 168 registers, used 1 barriers, 1024 bytes smem, 1256 bytes cmem[0]\n";
  PtxasReport r = parse_ptxas_report(log);
  BOOST_REQUIRE_EQUAL(r.functions.size(), 1u);
  const PtxasFunction* f = r.find("attn_fwd_x");
  BOOST_REQUIRE(f);
  BOOST_TEST(f->arch == "sm_80");
  BOOST_TEST(f->registers == 168);
  BOOST_TEST(f->stack_frame == 16);
  BOOST_TEST(f->spill_stores == 8);
  BOOST_TEST(f->spill_loads == 4);
  BOOST_TEST(f->static_shared == 1024);
  BOOST_TEST(f->constant == 1256);
}

BOOST_AUTO_TEST_CASE(tile_table_fits_every_architecture) {
  for (int sm : {80, 86, 89, 90})
    for (DType dt : {DType::F32, DType::F16, DType::BF16})
      for (int d : {32, 64, 80, 128, 256})
        for (int dv : {64, d}) {
          CudaTileConfig c = choose_cuda_tiles(sm, dt, d, dv);
          BOOST_TEST(cuda_shared_bytes(c, dt, d, dv) <= cuda_max_shared_bytes(sm), describe(c) << " sm_" << sm << " d=" << d);
          BOOST_TEST(c.mma == cuda_mma_supported(dt, d, dv));
        }
}

// The whole variant list for two architectures. Each distinct source compiles once.
BOOST_AUTO_TEST_CASE(every_kernel_compiles_with_nvrtc) {
  BOOST_REQUIRE_MESSAGE(nvrtc_available(), "NVRTC is not available");
  std::vector<std::string> errors;
  std::vector<test::TestKernel> kernels = test::cuda_test_kernels(errors);
  for (const std::string& e : errors) BOOST_ERROR(e);
  BOOST_TEST(kernels.size() >= 17u);
  std::ostringstream table;
  table << "NVRTC " << nvrtc_version() << "\n";
  for (const test::TestKernel& k : kernels) {
    for (auto [sm, arch] : {std::pair{80, "sm_80"}, std::pair{90, "sm_90a"}}) {
      CudaPrintOptions po;
      po.sm = sm;
      CudaKernelSource src = print_cuda_kernel(*k.ir, po);
      NvrtcResult r;
      try {
        r = compile_once(src.cu, src.launch.entry + ".cu", arch);
      } catch (const CudaCompileError& e) {
        BOOST_ERROR(k.label << " (" << arch << "): " << e.what());
        continue;
      }
      BOOST_TEST(!r.cubin.empty());
      const PtxasFunction* f = r.report.find(src.launch.entry);
      BOOST_REQUIRE_MESSAGE(f, k.label << ": no ptxas report for " << src.launch.entry << " in:\n" << r.log);
      BOOST_TEST(f->spill_stores == 0, k.label << " " << arch << " spills " << f->spill_stores << " bytes");
      BOOST_TEST(f->spill_loads == 0, k.label << " " << arch << " spills " << f->spill_loads << " bytes");
      BOOST_TEST(f->static_shared + src.launch.smem_bytes <= cuda_max_shared_bytes(sm), k.label << " " << arch);
      table << k.label << " " << arch << ": " << describe(src.tiles) << ", " << f->registers << " registers, "
            << src.launch.smem_bytes << " B dynamic smem, " << f->spill_stores << " B spills\n";
    }
  }
  BOOST_TEST_MESSAGE(table.str());
  if (const char* path = std::getenv("ATTNC_CUDA_REPORT")) test::write_file(path, table.str());
}

BOOST_AUTO_TEST_CASE(golden_sources) {
  std::vector<std::string> errors;
  fs::path dir = test::source_dir() / "tests/golden/cuda";
  int found = 0;
  for (const test::TestKernel& k : test::cuda_test_kernels(errors)) {
    const std::string name = kernel_name(*k.ir);
    if (name != "causal_bf16_128" && name != "documents_f32_64") continue;
    ++found;
    CudaPrintOptions po;
    po.source_name = "kernels.attn";
    CudaKernelSource src = print_cuda_kernel(*k.ir, po);
    check_golden(dir / (name + ".cu"), src.cu);
    check_golden(dir / (name + ".cuh"), src.header);
  }
  BOOST_TEST(found == 2);
}

BOOST_AUTO_TEST_CASE(attnc_compile_output_builds_with_nvcc) {
  test::TempDir tmp;
  auto r = test::run_command(test::attnc_binary() + " compile tests/cuda/kernels.attn -t cuda -o " + tmp.path().string());
  BOOST_REQUIRE_MESSAGE(r.status == 0, r.output);
  BOOST_TEST(fs::exists(tmp.path() / "manifest.json"));
  // Deterministic: a second run writes the same bytes.
  test::TempDir tmp2;
  test::run_command(test::attnc_binary() + " compile tests/cuda/kernels.attn -t cuda -o " + tmp2.path().string());
  for (const char* f : {"causal_bf16_128.cu", "alibi_bf16_128.cuh", "manifest.json"})
    BOOST_TEST(test::read_file(tmp.path() / f) == test::read_file(tmp2.path() / f), f);
  if (test::run_command("command -v nvcc").status != 0) {
    BOOST_TEST_MESSAGE("nvcc not on the PATH: skipping the offline build");
    return;
  }
  // One tensor-core and one SIMT kernel, host launcher included; the header compiles as C.
  for (const char* k : {"alibi_bf16_128", "documents_f32_64"}) {
    auto c = test::run_command("cd " + tmp.path().string() + " && nvcc -arch=sm_80 -c " + k + ".cu -o " + k + ".o");
    BOOST_TEST(c.status == 0, k << ":\n" << c.output);
    BOOST_TEST(c.output.find("warning") == std::string::npos, k << ":\n" << c.output);
  }
  auto h = test::run_command("cd " + tmp.path().string() +
                             " && printf '#include \"alibi_bf16_128.cuh\"\\nint main(void){return 0;}\\n' > h.c && cc -std=c99 "
                             "-Wall -Wextra -Werror -c h.c -o h.o");
  BOOST_TEST(h.status == 0, h.output);
}

BOOST_AUTO_TEST_CASE(no_driver_is_a_clear_error) {
  std::string why;
  if (cuda_driver_available(&why)) {
    BOOST_TEST_MESSAGE("a CUDA device is present: the no-driver path is not exercised here");
    return;
  }
  BOOST_TEST((why.find("no CUDA driver") != std::string::npos || why.find("no CUDA device") != std::string::npos), why);
  BOOST_CHECK_EXCEPTION(CudaDevice::open(), CudaError, [&](const CudaError& e) { return std::string(e.what()) == why; });
  // The command line says the same, and fails with status 1.
  test::TempDir tmp;
  const fs::path d = tmp.path();
  HostTensor x(ScalarType::F32, {1, 1, 4, 128});
  for (int64_t i = 0; i < x.numel(); ++i) x.set(i, 0.01 * static_cast<double>(i % 7));
  write_npy((d / "x.npy").string(), x);
  const std::string in = (d / "x.npy").string();
  auto r = test::run_command(test::attnc_binary() + " run tests/cuda/kernels.attn causal_f32_128 --q " + in + " --k " + in +
                             " --v " + in + " -o " + (d / "o.npy").string() + " -t cuda");
  BOOST_TEST(r.status == 1);
  BOOST_TEST(r.output == "attnc: error: " + why + "\n");
}

BOOST_AUTO_TEST_CASE(launch_info_round_trips_through_the_source) {
  std::vector<std::string> errors;
  for (const test::TestKernel& k : test::cuda_test_kernels(errors)) {
    CudaKernelSource src = print_cuda_kernel(*k.ir, {});
    CudaLaunchInfo got = parse_cuda_launch_info(src.cu);
    const CudaLaunchInfo& want = src.launch;
    BOOST_TEST(got.entry == want.entry);
    BOOST_TEST(got.threads == want.threads);
    BOOST_TEST(got.block_m == want.block_m);
    BOOST_TEST(got.smem_bytes == want.smem_bytes);
    BOOST_TEST(got.head_dim == want.head_dim);
    BOOST_TEST(got.value_dim == want.value_dim);
    BOOST_TEST(static_cast<int>(got.dtype) == static_cast<int>(want.dtype));
    BOOST_TEST(got.scale == want.scale);
    BOOST_TEST(got.buffer_names == want.buffer_names);
    BOOST_TEST(got.needs_16b_rows == want.needs_16b_rows);
  }
}

// The loader's cuda target: NVRTC compiles without a GPU; loading says why it cannot.
BOOST_AUTO_TEST_CASE(loader_cuda_target_without_a_gpu) {
  std::vector<std::string> errors;
  std::vector<test::TestKernel> kernels = test::cuda_test_kernels(errors);
  BOOST_REQUIRE(!kernels.empty());
  CudaKernelSource src = print_cuda_kernel(*kernels.front().ir, {});
  KernelRequest req{"cuda", src.cu, src.launch.entry, {}};
  std::unique_ptr<Compiler> c = make_cuda_compiler({"sm_80", 0});
  BOOST_TEST(c->target() == "cuda");
  BOOST_TEST(c->fingerprint(req).find("arch sm_80") != std::string::npos);
  std::vector<uint8_t> cubin = c->compile(req);
  BOOST_TEST(cubin.size() > 1000u);
  std::string why;
  if (cuda_driver_available(&why)) return;
  BOOST_CHECK_EXCEPTION(c->load(cubin, req), LoadError, [&](const LoadError& e) {
    return e.kind() == LoadErrorKind::LoadFailed && std::string(e.what()) == why;
  });
  test::TempDir cache;
  LoaderOptions lo;
  lo.cache_dir = cache.path().string();
  Loader loader(lo);
  loader.add_compiler(make_cuda_compiler({"sm_80", 0}));
  BOOST_CHECK_EXCEPTION(loader.get(req), LoadError, [&](const LoadError& e) {
    return std::string(e.what()).find(why) != std::string::npos;
  });
  BOOST_TEST(loader.stats().compiles == 1u);
  // A broken source is a compile error with NVRTC's message.
  KernelRequest bad{"cuda", src.cu + "\nthis is not C++;\n", src.launch.entry, {}};
  BOOST_CHECK_EXCEPTION(c->compile(bad), LoadError, [](const LoadError& e) {
    return e.kind() == LoadErrorKind::CompileFailed && std::string(e.what()).find("NVRTC failed") != std::string::npos;
  });
}
