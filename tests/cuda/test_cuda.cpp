// CUDA backend tests that need no GPU: every test kernel compiles with NVRTC for sm_80 and
// sm_90a without spills and within shared memory; nvcc compiles `attnc compile` output; the
// driver's absence is a clear error; printed masks and scores agree with the reference; the
// backward's kernels compile likewise (test_cuda_backward checks the rest of the backward on the
// host). (tests/golden/ holds the golden sources.)
#define BOOST_TEST_MODULE cuda
#include <boost/test/unit_test.hpp>

#include <dlfcn.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <tuple>

#include "attn/cuda_abi.h"
#include "attn/loader.hpp"
#include "backends/cuda/CudaBackward.h"
#include "backends/cuda/CudaDeviceText.h"
#include "backends/cuda/CudaPrinter.h"
#include "backends/cuda/CudaRun.h"
#include "backends/reference/EvalExpr.h"
#include "codegen/KernelIR.h"
#include "runtime/CudaBackwardLaunch.h"
#include "runtime/CudaCompiler.h"
#include "runtime/CudaDriver.h"
#include "runtime/CudaKernelArgs.h"
#include "runtime/CudaLaunchPlan.h"
#include "runtime/CudaRagged.h"
#include "runtime/Npy.h"
#include "runtime/Nvrtc.h"
#include "runtime/TilePlanText.h"
#include "runtime/TilePlanner.h"
#include "tests/cuda/CudaTestKernels.h"
#include "tests/cuda/HostDeviceCode.h"
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

/// A build the NVRTC tests compile: compute capability, NVRTC arch, tile shape (none: the table's).
using CudaBuild = std::tuple<int, const char*, std::optional<CudaTileConfig>>;

/// The table's shape on Ampere (and on Hopper with `hopper_table`), and Hopper's warpgroup kernel
/// where it applies (head dims unset: 128).
std::vector<CudaBuild> cuda_builds(const KernelIR& ir, bool hopper_table) {
  const KernelOptions& ko = ir.options;
  const int d = ko.head_dim ? ko.head_dim : 128, dv = ko.value_dim ? ko.value_dim : d;
  std::vector<CudaBuild> builds = {{80, "sm_80", std::nullopt}};
  if (hopper_table) builds.emplace_back(90, "sm_90a", std::nullopt);
  if (std::optional<CudaTileConfig> w = cuda_wgmma_tiles(90, ko.dtype, d, dv))
    builds.emplace_back(90, "sm_90a", w);
  return builds;
}

/// Cases that compile with NVRTC run wherever the build found the CUDA toolkit (a missing NVRTC
/// then fails them) and skip in a build without it where no NVRTC is loadable.
boost::test_tools::assertion_result needs_nvrtc(boost::unit_test::test_unit_id) {
#ifdef ATTNC_TEST_HAVE_CUDA_TOOLKIT
  return true;
#else
  boost::test_tools::assertion_result available(nvrtc_available());
  available.message() << "built without the CUDA toolkit, and no NVRTC is loadable";
  return available;
#endif
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
          BOOST_TEST(cuda_shared_bytes(c, dt, d, dv) <= cuda_max_shared_bytes(sm),
                     describe(c) << " sm_" << sm << " d=" << d);
          BOOST_TEST(c.tensor_cores() == cuda_mma_supported(dt, d, dv));
        }
}

BOOST_AUTO_TEST_CASE(autotuner_candidates_fit_and_round_trip) {
  // The table's choice first, no duplicates, shared memory within the limit, and each shape's
  // name (the autotuner's cache entry) parses back to it.
  for (int sm : {80, 86, 90})
    for (DType dt : {DType::F32, DType::BF16})
      for (int d : {64, 128, 256}) {
        std::vector<CudaTileConfig> cands = cuda_tile_candidates(sm, dt, d, d);
        BOOST_REQUIRE(!cands.empty());
        BOOST_TEST((cands.front() == choose_cuda_tiles(sm, dt, d, d)));
        BOOST_TEST(cands.size() >= 3u, "sm_" << sm << " d=" << d << ": " << cands.size() << " candidates");
        for (size_t i = 0; i < cands.size(); ++i) {
          BOOST_TEST(cuda_shared_bytes(cands[i], dt, d, d) <= cuda_max_shared_bytes(sm), describe(cands[i]));
          std::optional<CudaTileConfig> back = parse_cuda_tiles(describe(cands[i]));
          BOOST_TEST((back && *back == cands[i]), describe(cands[i]));
          for (size_t j = 0; j < i; ++j) BOOST_TEST(!(cands[i] == cands[j]), describe(cands[i]));
        }
      }
  for (const char* bad :
       {"", "mma", "mma 128x64", "mma 100x64 warps=8 stages=3", "simt 32x32 warps=4 stages=2",
        "mma 128x64 warps=8 stages=3 extra", "gpu 1x1 warps=1", "wgmma 128x128 warps=8 stages=2",
        "wgmma 128x128 warpgroups=2 stages=1", "wgmma 128x512 warpgroups=2 stages=2",
        "mma 128x64 warpgroups=2 stages=2", "mma 128x64 warps=8 stages=3 overlap"})
    BOOST_TEST(!parse_cuda_tiles(bad).has_value(), bad);
}

BOOST_AUTO_TEST_CASE(autotuner_candidates_compile_with_nvrtc, *boost::unit_test::precondition(needs_nvrtc)) {
  // Every bf16 head-dim-128 candidate for Hopper compiles (the kernel template takes each shape);
  // spills are the tuner's to reject on the device, but some candidates must have none.
  BOOST_REQUIRE_MESSAGE(nvrtc_available(), "NVRTC is not available");
  std::vector<std::string> errors;
  std::vector<test::TestKernel> kernels = test::cuda_test_kernels(errors, {"bf16"});
  BOOST_REQUIRE(!kernels.empty());
  const KernelIR& ir = *kernels.front().ir;
  int clean = 0;
  std::ostringstream table;
  for (const CudaTileConfig& c : cuda_tile_candidates(90, DType::BF16, 128, 128)) {
    CudaPrintOptions po;
    po.sm = 90, po.head_dim = 128, po.value_dim = 128, po.tiles = c;
    KernelIR specialized = ir;
    specialized.options.dtype = DType::BF16;
    specialized.options.head_dim = specialized.options.value_dim = 128;
    CudaKernelSource src = print_cuda_kernel(specialized, po);
    BOOST_TEST((src.tiles == c));
    try {
      const NvrtcResult& r = compile_once(src.cu, src.launch.entry + ".cu", "sm_90a");
      const PtxasFunction* f = r.report.find(src.launch.entry);
      BOOST_REQUIRE(f);
      clean += f->spill_stores + f->spill_loads == 0;
      if (c.kind == CudaKernelKind::Wgmma) {
        // ptxas serializes wgmma (waits after each) when it cannot keep the accumulators in
        // place, and says so; the kernel must never be built that way.
        BOOST_TEST(r.log.find("Potential Performance Loss") == std::string::npos, describe(c) << ":\n"
                                                                                              << r.log);
        BOOST_TEST(f->spill_stores + f->spill_loads == 0, describe(c));
      }
      table << describe(c) << ": " << f->registers << " registers, " << f->spill_stores << " B spills\n";
    } catch (const CudaCompileError& e) {
      BOOST_ERROR(describe(c) << ": " << e.what());
    }
  }
  BOOST_TEST(clean >= 3);
  BOOST_TEST_MESSAGE(table.str());
}

// The whole variant list for two architectures. Each distinct source compiles once.
BOOST_AUTO_TEST_CASE(every_kernel_compiles_with_nvrtc, *boost::unit_test::precondition(needs_nvrtc)) {
  BOOST_REQUIRE_MESSAGE(nvrtc_available(), "NVRTC is not available");
  std::vector<std::string> errors;
  // Stdlib wrappers in bf16 (tensor cores) and f32 (SIMT); f16 differs from bf16 only in the
  // mma/convert instructions and is covered by tests/cuda/kernels.attn.
  std::vector<test::TestKernel> kernels = test::cuda_test_kernels(errors, {"bf16", "f32"});
  for (const std::string& e : errors) BOOST_ERROR(e);
  BOOST_TEST(kernels.size() >= 17u);
  std::ostringstream table;
  table << "NVRTC " << nvrtc_version() << "\n";
  for (const test::TestKernel& k : kernels) {
    // The table's shapes on Ampere and Hopper, and Hopper's warpgroup kernel where it applies.
    for (const auto& [sm, arch, tiles] : cuda_builds(*k.ir, true)) {
      CudaPrintOptions po;
      po.sm = sm;
      po.tiles = tiles;
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
      BOOST_TEST(r.log.find("Potential Performance Loss") == std::string::npos, k.label << " " << arch
                                                                                        << ":\n"
                                                                                        << r.log);
      BOOST_TEST(f->static_shared + src.launch.smem_bytes <= cuda_max_shared_bytes(sm),
                 k.label << " " << arch);
      table << k.label << " " << arch << ": " << describe(src.tiles) << ", " << f->registers << " registers, "
            << src.launch.smem_bytes << " B dynamic smem, " << f->spill_stores << " B spills\n";
    }
  }
  BOOST_TEST_MESSAGE(table.str());
  if (const char* path = std::getenv("ATTNC_CUDA_REPORT")) test::write_file(path, table.str());
}

// The one-grid builds (kCudaOneGridFlag: ATTN_VARLEN 1, what ragged batches and paged caches load)
// of a tensor-core, a SIMT and a warpgroup kernel, and a mask with a run-time plan: they compile
// without spills, their launch's parameter block fits the 2 KB of static shared memory the tile
// table leaves, and their registers stay within a few of the plain build's.
BOOST_AUTO_TEST_CASE(one_grid_builds_compile_with_nvrtc, *boost::unit_test::precondition(needs_nvrtc)) {
  BOOST_REQUIRE_MESSAGE(nvrtc_available(), "NVRTC is not available");
  std::vector<std::string> errors;
  int built = 0;
  for (const test::TestKernel& k : test::cuda_test_kernels(errors, {"bf16", "f32"})) {
    const std::string name = kernel_name(*k.ir);
    if (name != "causal_bf16_128" && name != "documents_bf16_128" && name != "std_sliding_window_f32" &&
        name != "sinks_window_bf16_128" && name != "causal_e4m3_128")
      continue;
    for (const auto& [sm, arch, tiles] : cuda_builds(*k.ir, false)) {
      CudaPrintOptions po;
      po.sm = sm;
      po.tiles = tiles;
      const CudaKernelSource src = print_cuda_kernel(*k.ir, po);
      try {
        const NvrtcResult& plain = compile_once(src.cu, src.launch.entry + ".cu", arch);
        NvrtcOptions o;
        o.arch = arch;
        o.extra = {kCudaOneGridFlag};
        const NvrtcResult r = nvrtc_compile(src.cu, src.launch.entry + ".cu", o);
        const PtxasFunction *f = r.report.find(src.launch.entry), *g = plain.report.find(src.launch.entry);
        BOOST_REQUIRE(f && g);
        BOOST_TEST(f->spill_stores + f->spill_loads == 0, name << " " << arch << " one grid spills");
        BOOST_TEST((f->static_shared >= int(sizeof(attn_cuda_params)) &&
                    f->static_shared <= g->static_shared + 2048),
                   name << " " << arch << ": " << f->static_shared << " B static smem");
        BOOST_TEST(f->static_shared + src.launch.smem_bytes <= cuda_max_shared_bytes(sm) + 2048,
                   name << " " << arch);
        BOOST_TEST(f->registers <= g->registers + 8,
                   name << " " << arch << ": " << f->registers << " registers, " << g->registers << " plain");
        BOOST_TEST_MESSAGE(name << " " << arch << ": " << g->registers << " -> " << f->registers
                                << " registers, " << g->static_shared << " -> " << f->static_shared
                                << " B static smem");
        ++built;
      } catch (const CudaCompileError& e) {
        BOOST_ERROR(name << " (" << arch << ") one grid: " << e.what());
      }
    }
  }
  BOOST_TEST(built >= 8);
}

BOOST_AUTO_TEST_CASE(attnc_compile_output_builds_with_nvcc) {
  test::TempDir tmp;
  auto r = test::run_command(test::attnc_binary() + " compile tests/cuda/kernels.attn -t cuda -o " +
                             tmp.path().string());
  BOOST_REQUIRE_MESSAGE(r.status == 0, r.output);
  BOOST_TEST(fs::exists(tmp.path() / "manifest.json"));
  // Deterministic: a second run writes the same bytes.
  test::TempDir tmp2;
  test::run_command(test::attnc_binary() + " compile tests/cuda/kernels.attn -t cuda -o " +
                    tmp2.path().string());
  for (const char* f : {"causal_bf16_128.cu", "alibi_bf16_128.cuh", "manifest.json"})
    BOOST_TEST(test::read_file(tmp.path() / f) == test::read_file(tmp2.path() / f), f);
  if (test::run_command("command -v nvcc").status != 0) {
    BOOST_TEST_MESSAGE("nvcc not on the PATH: skipping the offline build");
    return;
  }
  // One tensor-core and one SIMT kernel, host launcher included; the header compiles as C.
  for (const char* k : {"alibi_bf16_128", "documents_f32_64"}) {
    auto c = test::run_command("cd " + tmp.path().string() + " && nvcc -arch=sm_80 -c " + k + ".cu -o " + k +
                               ".o");
    BOOST_TEST(c.status == 0, k << ":\n" << c.output);
    BOOST_TEST(c.output.find("warning") == std::string::npos, k << ":\n" << c.output);
  }
  // Hopper's warpgroup kernel: sm_90a code (nvcc -arch=sm_90a also emits compute_90 PTX, where
  // the kernel body is a trap), without warnings.
  test::TempDir hopper;
  auto w = test::run_command(test::attnc_binary() + " compile tests/cuda/kernels.attn -t cuda --cuda-sm 90 " +
                             "--cuda-tiles wgmma --kernel documents_bf16_128 -o " + hopper.path().string() +
                             " && cd " + hopper.path().string() +
                             " && nvcc -arch=sm_90a -c documents_bf16_128.cu -o d.o");
  BOOST_TEST(w.status == 0, w.output);
  BOOST_TEST(w.output.find("warning") == std::string::npos, w.output);
  BOOST_TEST(test::read_file(hopper.path() / "documents_bf16_128.cu").find("wgmma 128x128 warpgroups=2") !=
             std::string::npos);
  auto h = test::run_command(
      "cd " + tmp.path().string() +
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
  BOOST_TEST(
      (why.find("no CUDA driver") != std::string::npos || why.find("no CUDA device") != std::string::npos),
      why);
  BOOST_CHECK_EXCEPTION(CudaDevice::open(), CudaError,
                        [&](const CudaError& e) { return std::string(e.what()) == why; });
  // The command line says the same, and fails with status 1.
  test::TempDir tmp;
  const fs::path d = tmp.path();
  HostTensor x(ScalarType::F32, {1, 1, 4, 128});
  for (int64_t i = 0; i < x.numel(); ++i) x.set(i, 0.01 * static_cast<double>(i % 7));
  write_npy((d / "x.npy").string(), x);
  const std::string in = (d / "x.npy").string();
  auto r = test::run_command(test::attnc_binary() + " run tests/cuda/kernels.attn causal_f32_128 --q " + in +
                             " --k " + in + " --v " + in + " -o " + (d / "o.npy").string() + " -t cuda");
  BOOST_TEST(r.status == 1);
  BOOST_TEST(r.output == "attnc: error: " + why + "\n");
  // So does the backward (cuda is in the target table's backward column).
  auto g = test::run_command(test::attnc_binary() + " run tests/cuda/kernels.attn causal_f32_128 --q " + in +
                             " --k " + in + " --v " + in + " -o " + (d / "o.npy").string() + " --dout " + in +
                             " --dq " + (d / "dq.npy").string() + " -t cuda");
  BOOST_TEST(g.status == 1);
  BOOST_TEST(g.output == "attnc: error: " + why + "\n");
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
    BOOST_TEST(got.pack_heads == want.pack_heads);
    BOOST_TEST(got.block_n == want.block_n);
    BOOST_TEST(got.scalar_names == want.scalar_names);
    BOOST_TEST(got.tile_plan == want.tile_plan);
  }
}

// The backward's launch shape reaches the runtime as data (manifest "cuda_backward_launch") and,
// for a folder without it, from the source's macros: both give what the printer decided.
BOOST_AUTO_TEST_CASE(backward_launch_info_round_trips_through_json_and_the_source) {
  std::vector<std::string> errors;
  int checked = 0;
  for (const test::TestKernel& k : test::cuda_test_kernels(errors)) {
    CudaBackwardSource src;
    try {
      src = print_cuda_backward(*k.ir, {});
    } catch (const KernelLimitError&) {
      continue;  // f32, or head dims the backward does not take
    }
    const CudaBackwardInfo& want = src.launch;
    for (const CudaBackwardInfo& got :
         {parse_cuda_backward_info(src.cu), read_cuda_backward_info(write_cuda_backward_info(want))}) {
      BOOST_TEST(got.pre == want.pre);
      BOOST_TEST(got.dkdv == want.dkdv);
      BOOST_TEST(got.dq == want.dq);
      BOOST_TEST(got.grad == want.grad);
      BOOST_TEST(got.threads == want.threads);
      BOOST_TEST(got.block_m == want.block_m);
      BOOST_TEST(got.block_n == want.block_n);
      BOOST_TEST(got.dkdv_smem == want.dkdv_smem);
      BOOST_TEST(got.dq_smem == want.dq_smem);
      BOOST_TEST(got.head_dim == want.head_dim);
      BOOST_TEST(got.value_dim == want.value_dim);
      BOOST_TEST(static_cast<int>(got.dtype) == static_cast<int>(want.dtype));
      BOOST_TEST(got.scale == want.scale);
      BOOST_TEST(got.site_buffers == want.site_buffers);
    }
    ++checked;
  }
  BOOST_TEST(checked >= 5);
  BOOST_CHECK_THROW(parse_cuda_backward_info("#define ATTN_D 64\n"), std::invalid_argument);
  BOOST_CHECK_THROW(read_cuda_backward_info("{\"pre\": 1}"), std::invalid_argument);
}

// The loader's cuda target: NVRTC compiles without a GPU; loading says why it cannot.
BOOST_AUTO_TEST_CASE(loader_cuda_target_without_a_gpu, *boost::unit_test::precondition(needs_nvrtc)) {
  std::vector<std::string> errors;
  std::vector<test::TestKernel> kernels = test::cuda_test_kernels(errors);
  BOOST_REQUIRE(!kernels.empty());
  CudaKernelSource src = print_cuda_kernel(*kernels.front().ir, {});
  KernelRequest req{"cuda", src.cu, src.launch.entry, {}, {}};
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
  KernelRequest bad{"cuda", src.cu + "\nthis is not C++;\n", src.launch.entry, {}, {}};
  BOOST_CHECK_EXCEPTION(c->compile(bad), LoadError, [](const LoadError& e) {
    return e.kind() == LoadErrorKind::CompileFailed &&
           std::string(e.what()).find("NVRTC failed") != std::string::npos;
  });
}

// The printed mask, score and tile conditions, compiled for the host with the same expression
// library the kernels use (attn_expr.cuh), agree with the reference evaluator point by point;
// tile conditions are sound over random tiles.
BOOST_AUTO_TEST_CASE(printed_expressions_match_the_reference) {
  std::vector<std::string> errors;
  std::vector<test::TestKernel> kernels = test::cuda_test_kernels(errors);
  std::string src = test::host_device_prelude();
  for (size_t i = 0; i < kernels.size(); ++i) {
    const std::string k = "k" + std::to_string(i);
    src += "namespace " + k + " {\n" + print_cuda_device_functions(*kernels[i].ir) + "}\n";
    src += "extern \"C\" bool " + k +
           "_mask(int b, int h, int q, int kv, const attn_cuda_params* p) { return " + k +
           "::attn_mask(b, h, q, kv, *p); }\n";
    src += "extern \"C\" float " + k +
           "_score(float s, int b, int h, int q, int kv, const attn_cuda_params* p) { return " + k +
           "::attn_score(s, b, h, q, kv, *p); }\n";
    src += "extern \"C\" bool " + k +
           "_empty(int b, int h, int a, int c, int d, int e, const attn_cuda_params* p) { return " + k +
           "::attn_tile_empty(b, h, a, c, d, e, *p); }\n";
    src += "extern \"C\" bool " + k +
           "_full(int b, int h, int a, int c, int d, int e, const attn_cuda_params* p) { return " + k +
           "::attn_tile_full(b, h, a, c, d, e, *p); }\n";
    src += "extern \"C\" float " + k +
           "_sink(int b, int h, int q, const attn_cuda_params* p) {\n#if ATTN_SINK\n  return " + k +
           "::attn_sink(b, h, q, *p);\n#else\n  return -INFINITY;\n#endif\n}\n";
    src += "extern \"C\" int " + k +
           "_ranges(int b, int h, int qt, int n, const attn_cuda_params* p, int* x, int* y, bool* f) { " + k +
           "::attn_key_tile_ranges(b, h, qt, n, *p, x, y, f); return ATTN_KEY_RANGES; }\n";
  }
  test::TempDir tmp;
  void* so = test::load_host_library(tmp.path(), src);

  std::mt19937 rng(99);
  for (size_t i = 0; i < kernels.size(); ++i) {
    const KernelIR& ir = *kernels[i].ir;
    const std::string k = "k" + std::to_string(i);
    using MaskFn = bool (*)(int, int, int, int, const attn_cuda_params*);
    using ScoreFn = float (*)(float, int, int, int, int, const attn_cuda_params*);
    using TileFn = bool (*)(int, int, int, int, int, int, const attn_cuda_params*);
    auto mask_fn = reinterpret_cast<MaskFn>(dlsym(so, (k + "_mask").c_str()));
    auto score_fn = reinterpret_cast<ScoreFn>(dlsym(so, (k + "_score").c_str()));
    auto empty_fn = reinterpret_cast<TileFn>(dlsym(so, (k + "_empty").c_str()));
    auto full_fn = reinterpret_cast<TileFn>(dlsym(so, (k + "_full").c_str()));
    using RangesFn = int (*)(int, int, int, int, const attn_cuda_params*, int*, int*, bool*);
    auto ranges_fn = reinterpret_cast<RangesFn>(dlsym(so, (k + "_ranges").c_str()));
    using SinkFn = float (*)(int, int, int, const attn_cuda_params*);
    auto sink_fn = reinterpret_cast<SinkFn>(dlsym(so, (k + "_sink").c_str()));
    BOOST_REQUIRE(mask_fn && score_fn && empty_fn && full_fn && ranges_fn && sink_fn);

    test::HostArguments args(ir, rng);
    const ArgValues& values = args.values;
    // The launch's lengths (q_len, kv_len): 300 x 300, the plan checks' grid; the point checks
    // also try fewer and more queries than keys.
    attn_cuda_params p = args.params;
    p.q_len = p.kv_len = 300;
    const attn_cuda_params* at = &p;
    attn_cuda_error& err = args.error;
    CompiledExpr mask(ir.mask, ir), score(ir.score, ir);
    auto ref_mask = [&](int b, int h, int q, int kv, bool& ok) {
      EvalPoint pt;
      pt.idx[0] = b, pt.idx[1] = h, pt.idx[2] = q, pt.idx[3] = kv;
      pt.idx[4] = at->q_len, pt.idx[5] = at->kv_len;
      try {
        ok = true;
        return mask.eval(pt, values) != 0;
      } catch (const EvalError&) {
        ok = false;
        return false;
      }
    };
    int mismatches = 0;
    attn_cuda_params other = p;
    for (int n = 0; n < 3000 && mismatches < 5; ++n) {
      const int b = static_cast<int>(rng() % 2), h = static_cast<int>(rng() % 4),
                q = static_cast<int>(rng() % 300), kv = static_cast<int>(rng() % 300);
      other.q_len = n % 3 == 1 ? 37 : 300, other.kv_len = n % 3 == 2 ? 111 : 300;
      at = &other;
      bool ok = false;
      err.flag = 0;
      const bool want = ref_mask(b, h, q, kv, ok), got = mask_fn(b, h, q, kv, at);
      if (!ok) {
        BOOST_TEST(err.flag == 1, kernels[i].label << ": no error reported at q=" << q << " kv=" << kv);
        continue;
      }
      if (got != want) {
        ++mismatches;
        BOOST_ERROR(kernels[i].label << ": mask(" << b << ", " << h << ", " << q << ", " << kv
                                     << ") = " << got);
      }
      if (!want) continue;
      EvalPoint pt;
      pt.idx[0] = b, pt.idx[1] = h, pt.idx[2] = q, pt.idx[3] = kv;
      pt.idx[4] = other.q_len, pt.idx[5] = other.kv_len;
      pt.score = 0.01 * static_cast<double>(static_cast<int>(rng() % 2000) - 1000);
      const double ws = score.eval(pt, values);
      const float gs = score_fn(static_cast<float>(pt.score), b, h, q, kv, &other);
      if (!(std::abs(gs - ws) <= 1e-4 * std::max(1.0, std::abs(ws)))) {
        ++mismatches;
        BOOST_ERROR(kernels[i].label << ": score at " << q << ", " << kv << ": " << gs << " vs " << ws);
      }
    }
    // The sink's logit of a row (-inf without one), out-of-range reads reported as the mask's.
    CompiledExpr sink(ir.sink.defined() ? ir.sink : Halide::Expr(-INFINITY), ir);
    for (int n = 0; n < 300; ++n) {
      const int b = static_cast<int>(rng() % 2), h = static_cast<int>(rng() % 4),
                q = static_cast<int>(rng() % 300);
      EvalPoint pt;
      pt.idx[0] = b, pt.idx[1] = h, pt.idx[2] = q;
      pt.idx[4] = p.q_len, pt.idx[5] = p.kv_len;
      err.flag = 0;
      const float got = sink_fn(b, h, q, &p);
      double want = 0;
      try {
        want = sink.eval(pt, values);
      } catch (const EvalError&) {
        BOOST_TEST(err.flag == 1, kernels[i].label << ": no error reported by the sink at q=" << q);
        continue;
      }
      BOOST_TEST(
          (got == want || std::abs(got - want) <= 1e-5 * std::max(1.0, std::abs(want))),
          kernels[i].label << ": sink(" << b << ", " << h << ", " << q << ") = " << got << " vs " << want);
    }
    // The plan's key-tile runs (64 x 64 tiles, 300 positions): tiles outside them are empty,
    // tiles in a full run are full.
    at = &p;
    for (int qt = 0; qt < 5; ++qt) {
      int begin[8], end[8];
      bool full[8];
      const int runs = ranges_fn(0, 0, qt, 5, &p, begin, end, full);
      for (int kt = 0; kt < 5; ++kt) {
        int in_run = -1;
        for (int r = 0; r < runs; ++r)
          if (begin[r] <= kt && kt < end[r]) in_run = r;
        if (in_run >= 0 && !full[in_run]) continue;
        for (int q = qt * 64; q < std::min(300, qt * 64 + 64); ++q)
          for (int kv = kt * 64; kv < std::min(300, kt * 64 + 64); ++kv) {
            bool ok = false;
            const bool m = ref_mask(0, 0, q, kv, ok);
            if (ok && m != (in_run >= 0)) {
              BOOST_ERROR(kernels[i].label << ": key tile " << kt << " of query tile " << qt << " is "
                                           << (in_run >= 0 ? "in a full run" : "outside the runs")
                                           << " but mask(" << q << ", " << kv << ") = " << m);
              q = 300;
              break;
            }
          }
      }
    }
    for (int n = 0; n < 200; ++n) {
      const int b = static_cast<int>(rng() % 2), h = static_cast<int>(rng() % 4);
      const int q_lo = static_cast<int>(rng() % 280), kv_lo = static_cast<int>(rng() % 280);
      const int q_hi = std::min(299, q_lo + static_cast<int>(rng() % 48)),
                kv_hi = std::min(299, kv_lo + static_cast<int>(rng() % 48));
      const bool empty = empty_fn(b, h, q_lo, q_hi, kv_lo, kv_hi, &p),
                 full = full_fn(b, h, q_lo, q_hi, kv_lo, kv_hi, &p);
      if (!empty && !full) continue;
      BOOST_TEST(!(empty && full), kernels[i].label << ": a tile both empty and full");
      for (int q = q_lo; q <= q_hi; ++q)
        for (int kv = kv_lo; kv <= kv_hi; ++kv) {
          bool ok = false;
          const bool m = ref_mask(b, h, q, kv, ok);
          if (ok && m != full) {
            BOOST_ERROR(kernels[i].label << ": tile [" << q_lo << ", " << q_hi << "] x [" << kv_lo << ", "
                                         << kv_hi << "] is " << (full ? "full" : "empty") << " but mask(" << q
                                         << ", " << kv << ") = " << m);
            q = q_hi;
            break;
          }
        }
    }
  }
  dlclose(so);
}

/// A test kernel by label suffix ("kernels.attn:alibi_bf16_128").
const test::TestKernel& kernel_named(const std::vector<test::TestKernel>& kernels, const std::string& name) {
  for (const test::TestKernel& k : kernels)
    if (k.label.size() > name.size() &&
        k.label.compare(k.label.size() - name.size(), name.size(), name) == 0 &&
        k.label[k.label.size() - name.size() - 1] == ':')
      return k;
  throw std::runtime_error("no test kernel " + name);
}

// The backward's four kernels: no spills at D = 64 and 128 on sm_80 and sm_90a, within shared
// memory. Kernels cover no score, a score with a buffer read site (its gradient code), a
// nonlinear score, a mask that reads buffers, Dv != D, f16 and a sink that reads a buffer.
BOOST_AUTO_TEST_CASE(backward_kernels_compile_without_spills, *boost::unit_test::precondition(needs_nvrtc)) {
  BOOST_REQUIRE_MESSAGE(nvrtc_available(), "NVRTC is not available");
  std::vector<std::string> errors;
  const std::vector<test::TestKernel> kernels = test::cuda_test_kernels(errors);
  struct Case {
    const char* kernel;
    int head_dim;
    std::vector<int> sms;
  };
  const std::vector<Case> cases = {{"alibi_bf16_128", 128, {80, 90}},
                                   {"alibi_bf16_128", 64, {80, 90}},
                                   {"causal_f16_64", 64, {80}},
                                   {"softcap_bf16_128", 128, {80}},
                                   {"documents_bf16_128", 128, {80}},
                                   {"value_dim_bf16", 128, {80}},
                                   {"sinks_window_bf16_128", 128, {80, 90}}};
  std::ostringstream table;
  for (const Case& c : cases) {
    KernelIR ir = *kernel_named(kernels, c.kernel).ir;
    ir.options.head_dim = c.head_dim;
    if (ir.options.value_dim > c.head_dim) ir.options.value_dim = c.head_dim;
    for (int sm : c.sms) {
      CudaPrintOptions po;
      po.sm = sm;
      const CudaBackwardSource src = print_cuda_backward(ir, po);
      const std::string arch = sm == 90 ? "sm_90a" : "sm_80";
      const std::string label = std::string(c.kernel) + " D=" + std::to_string(c.head_dim) + " " + arch;
      NvrtcResult r;
      try {
        r = compile_once(src.cu, src.launch.dq + ".cu", arch);
      } catch (const CudaCompileError& e) {
        BOOST_ERROR(label << ": " << e.what());
        continue;
      }
      BOOST_TEST(r.log.find("Potential Performance Loss") == std::string::npos, label << ":\n" << r.log);
      for (const std::string& entry : {src.launch.pre, src.launch.dkdv, src.launch.dq, src.launch.grad}) {
        const PtxasFunction* f = r.report.find(entry);
        BOOST_REQUIRE_MESSAGE(f, label << ": no ptxas report for " << entry << " in:\n" << r.log);
        BOOST_TEST(f->spill_stores + f->spill_loads == 0, label << " " << entry << " spills");
        const int smem = entry == src.launch.dkdv ? src.launch.dkdv_smem
                         : entry == src.launch.dq ? src.launch.dq_smem
                                                  : 0;
        BOOST_TEST(f->static_shared + smem <= cuda_max_shared_bytes(sm), label << " " << entry);
        table << label << " " << entry << ": " << f->registers << " registers, " << smem
              << " B dynamic smem, " << f->spill_stores << " B spills\n";
      }
    }
  }
  // f32 and head dims past 128 are refused with a located error.
  BOOST_CHECK_THROW(print_cuda_backward(*kernel_named(kernels, "causal_bf16_256").ir, {}), KernelLimitError);
  BOOST_CHECK_THROW(print_cuda_backward(*kernel_named(kernels, "causal_f32_128").ir, {}), KernelLimitError);
  BOOST_TEST_MESSAGE(table.str());
}

// `attnc compile -t cuda` of a kernel with backward = true writes the backward's source, and nvcc
// builds it (host launcher included) for sm_80 with no spills in ptxas's report.
BOOST_AUTO_TEST_CASE(attnc_compile_writes_the_backward) {
  test::TempDir tmp;
  test::write_file(tmp.path() / "k.attn",
                   "import std.masks;\nimport std.scores;\nkernel alibi_bwd(slopes: tensor<f32>[heads]) { "
                   "mask = causal; score = alibi(slopes); "
                   "dtype = bf16; head_dim = 64; backward = true; }\n");
  auto r = test::run_command(test::attnc_binary() + " compile " + (tmp.path() / "k.attn").string() +
                             " -t cuda -o " + tmp.path().string());
  BOOST_REQUIRE_MESSAGE(r.status == 0, r.output);
  BOOST_TEST(fs::exists(tmp.path() / "alibi_bwd_backward.cu"));
  BOOST_TEST(test::read_file(tmp.path() / "alibi_bwd_backward.cuh").find("attn_bwd_alibi_bwd_launch") !=
             std::string::npos);
  // The header compiles as C, beside the forward's.
  auto h = test::run_command(
      "cd " + tmp.path().string() +
      " && printf '#include \"alibi_bwd.cuh\"\\n#include \"alibi_bwd_backward.cuh\"\\nint main(void){return "
      "0;}\\n' > h.c && cc -std=c99 -Wall -Wextra -Werror -c h.c -o h.o");
  BOOST_TEST(h.status == 0, h.output);
  if (test::run_command("command -v nvcc").status != 0) {
    BOOST_TEST_MESSAGE("nvcc not on the PATH: skipping the offline build");
    return;
  }
  auto c = test::run_command("cd " + tmp.path().string() +
                             " && nvcc -arch=sm_80 -Xptxas -v -c alibi_bwd_backward.cu -o b.o 2>&1");
  BOOST_REQUIRE_MESSAGE(c.status == 0, c.output);
  BOOST_TEST(c.output.find("warning") == std::string::npos, c.output);
  std::istringstream lines(c.output);
  int reports = 0;
  for (std::string line; std::getline(lines, line);)
    if (line.find("spill stores") != std::string::npos) {
      ++reports;
      BOOST_TEST(line.find("0 bytes spill stores, 0 bytes spill loads") != std::string::npos, line);
    }
  BOOST_TEST(reports >= 4);
}

// Masks that read buffers carry the run-time planner's program; the launcher's planning step
// (the part that needs no GPU) turns it into runs that skip other documents' tiles.
BOOST_AUTO_TEST_CASE(buffer_masks_carry_a_run_time_plan) {
  std::vector<std::string> errors;
  for (const test::TestKernel& k : test::cuda_test_kernels(errors)) {
    if (kernel_name(*k.ir) != "documents_bf16_128") continue;
    CudaKernelSource src = print_cuda_kernel(*k.ir, {});
    CudaLaunchInfo info = parse_cuda_launch_info(src.cu);
    BOOST_REQUIRE(!info.tile_plan.empty());
    TilePlanProgram program = read_tile_plan_program(info.tile_plan);
    BOOST_TEST(program.block_q == info.block_m);
    BOOST_TEST(program.block_kv == info.block_n);
    HostTensor doc(ScalarType::I32, {8192});
    for (int64_t i = 0; i < 8192; ++i) doc.data<int32_t>()[i] = static_cast<int32_t>(i / 1130);
    TilePlanInputs in;
    in.q_len = in.kv_len = 8192;
    in.buffers["doc"] = tile_buffer_view(doc);
    TileGrid grid = plan_tile_grid(program, in);
    const double visited = static_cast<double>(grid.count(TileKind::Full) + grid.count(TileKind::Partial)) /
                           static_cast<double>(grid.q_tiles * grid.kv_tiles);
    BOOST_TEST(visited < 0.15, "visits " << visited << " of the tiles");
    BOOST_TEST(grid.count(TileKind::Full) > 0);
  }
  for (const test::TestKernel& k : test::cuda_test_kernels(errors))
    if (kernel_name(*k.ir) == "causal_bf16_128")
      BOOST_TEST(parse_cuda_launch_info(print_cuda_kernel(*k.ir, {}).cu).tile_plan.empty());
}

// A bounded reduction over a buffer extent (std.documents' topk_tiles): the plan text carries its
// loop, and one compiled kernel's plan follows top_k from call to call (0 included), soundly.
BOOST_AUTO_TEST_CASE(reduction_masks_carry_a_run_time_plan) {
  std::vector<std::string> errors;
  int found = 0;
  for (const test::TestKernel& k : test::cuda_test_kernels(errors)) {
    if (kernel_name(*k.ir) != "std_topk_tiles_bf16") continue;
    ++found;
    const CudaLaunchInfo info = parse_cuda_launch_info(print_cuda_kernel(*k.ir, {}).cu);
    BOOST_REQUIRE(!info.tile_plan.empty());
    const TilePlanProgram program = read_tile_plan_program(info.tile_plan);
    const int64_t len = 1000, heads = 2, t = 64, tiles = (len + t - 1) / t;
    std::mt19937 rng(11);
    for (int64_t top_k : {3, 0, 7}) {
      HostTensor topk(ScalarType::I32, {heads, tiles, top_k});
      for (int64_t i = 0; i < heads * tiles * top_k; ++i)
        topk.data<int32_t>()[i] = static_cast<int32_t>(rng() % tiles);
      auto listed = [&](int64_t h, int64_t q, int64_t kv) {
        for (int64_t j = 0; j < top_k; ++j)
          if (topk.data<int32_t>()[(h * tiles + q / t) * top_k + j] == kv / t) return true;
        return false;
      };
      TilePlanInputs in;
      in.q_len = in.kv_len = len;
      in.buffers["topk"] = tile_buffer_view(topk);
      const TileGrid grid = plan_tile_grid(program, in);
      for (int64_t qt = 0; qt < grid.q_tiles; ++qt)
        for (int64_t kt = 0; kt < grid.kv_tiles; ++kt) {
          const TileKind kind = grid.at(qt, kt);
          for (int64_t q = qt * grid.block_q; q < std::min<int64_t>((qt + 1) * grid.block_q, len); ++q)
            for (int64_t kv = kt * grid.block_kv; kv < std::min<int64_t>((kt + 1) * grid.block_kv, len); ++kv)
              for (int64_t h = 0; h < heads; ++h)
                if ((kind == TileKind::Empty && listed(h, q, kv)) ||
                    (kind == TileKind::Full && !listed(h, q, kv))) {
                  BOOST_ERROR("top_k " << top_k << ": tile (" << qt << ", " << kt << ") is wrongly "
                                       << tile_kind_name(kind));
                  q = len, kv = len, h = heads;
                }
        }
      const int64_t visited = grid.count(TileKind::Full) + grid.count(TileKind::Partial);
      // Nothing selected: nothing visited. (A term's bound spans the rows the tile covers and every
      // head, so with a query tile wider than the selection's block larger top_k visit most tiles.)
      if (top_k == 0) BOOST_TEST(visited == 0);
      BOOST_TEST_MESSAGE("top_k " << top_k << ": tiles " << grid.block_q << "x" << grid.block_kv
                                  << ", visits " << visited << " of " << grid.q_tiles * grid.kv_tiles);
    }
  }
  BOOST_TEST(found == 1);
}

// Ragged batches (runtime/CudaRagged.h): the boundaries' checks, each sequence's parameter block
// over the packed tensors, and what the device code makes of it (CtaRows compiled for the host):
// the kernel's `b` is the sequence's index, the tensors are addressed from the sequence's rows.
BOOST_AUTO_TEST_CASE(ragged_batches_launch_one_sequence_at_a_time_on_views) {
  std::vector<CudaSequence> seqs;
  BOOST_TEST(check_sequence_boundaries({}, "cu_seqlens_q", 0).find("at least one entry") !=
             std::string::npos);
  BOOST_TEST(check_sequence_boundaries({1, 3}, "cu_seqlens_q", 3).find("starts at 1, not 0") !=
             std::string::npos);
  BOOST_TEST(check_sequence_boundaries({0, 3, 2}, "cu_seqlens_k", 2).find("decreases at entry 2") !=
             std::string::npos);
  BOOST_TEST(check_sequence_boundaries({0, 3}, "cu_seqlens_q", 4).find("ends at 3") != std::string::npos);
  BOOST_TEST(check_ragged_layout({0, 1, 2}, {0, 2}, 2, 2, seqs).find("both are sequences + 1") !=
             std::string::npos);
  BOOST_REQUIRE(check_ragged_layout({0, 2, 2, 7}, {0, 5, 6, 6}, 7, 6, seqs).empty());
  BOOST_REQUIRE(seqs.size() == 3u);
  BOOST_TEST((seqs[1].q_row == 2 && seqs[1].q_len == 0 && seqs[1].k_row == 5 && seqs[1].k_len == 1));
  BOOST_TEST((seqs[2].q_row == 2 && seqs[2].q_len == 5 && seqs[2].k_row == 6 && seqs[2].k_len == 0));

  // Packed bf16 Q [7, 4, 8], K/V [6, 2, 8], Out [7, 4, 8], LSE [7, 4]: strides {0, head, token}.
  std::vector<uint16_t> q(7 * 4 * 8), k(6 * 2 * 8), v(6 * 2 * 8), out(7 * 4 * 8);
  std::vector<float> lse(7 * 4);
  attn_cuda_params packed{};
  packed.q = q.data(), packed.k = k.data(), packed.v = v.data(), packed.out = out.data(),
  packed.lse = lse.data();
  for (long long* s : {packed.q_stride, packed.out_stride}) s[0] = 0, s[1] = 8, s[2] = 32;
  for (long long* s : {packed.k_stride, packed.v_stride}) s[0] = 0, s[1] = 8, s[2] = 16;
  packed.lse_stride[0] = 0, packed.lse_stride[1] = 1, packed.lse_stride[2] = 4;
  packed.q_heads = 4, packed.kv_heads = 2, packed.q_len = 7, packed.kv_len = 6;
  const attn_cuda_params p = cuda_sequence_params(packed, seqs[0], 0, 2, 2),
                         r = cuda_sequence_params(packed, seqs[2], 2, 2, 2);
  BOOST_TEST((p.q == q.data() && p.k == k.data() && p.batch_base == 0 && p.q_len == 2 && p.kv_len == 5));
  BOOST_TEST((r.q == q.data() + 2 * 32 && r.out == out.data() + 2 * 32 && r.lse == lse.data() + 2 * 4));
  BOOST_TEST((r.k == k.data() && r.v == v.data() && r.batch == 1 && r.batch_base == 2));  // no keys: row 0
  BOOST_TEST((r.q_len == 5 && r.kv_len == 0 && r.q_stride[1] == 8 && r.q_stride[2] == 32));

  // The device code: blockIdx.z = 0 of sequence 2's launch is b = 2, its rows start at row 2.
  std::vector<std::string> errors;
  std::vector<test::TestKernel> kernels = test::cuda_test_kernels(errors, {"bf16"});
  BOOST_REQUIRE(!kernels.empty());
  std::string plan;
  std::string src = test::host_device_prelude() + "#define ATTN_PACK_HEADS 0\nnamespace k {\n" +
                    print_cuda_device_functions(*kernels[0].ir, &plan, 64, 64) +
                    cuda_device_text("attn_split_merge.cuh") + cuda_device_text("attn_tiles.cuh") + "}\n";
  src +=
      "extern \"C\" void rows(const attn_cuda_params* p, unsigned x, unsigned y, long long* o) {\n"
      "  using namespace k::attn_dev;\n"
      "  blockIdx = {x, y, 0};\n"
      "  const CtaRows cr(*p, 64);\n"
      "  o[0] = cr.b, o[1] = cr.z, o[2] = cr.rows;\n"
      "  o[3] = cr.q_tile(*p) - static_cast<const attn_in*>(p->q);\n"
      "  o[4] = cr.k_head(*p) - static_cast<const attn_in*>(p->k);\n"
      "  o[5] = cr.row_lo, o[6] = cr.q0, o[7] = cr.plan_tile;\n"
      "  o[8] = key_row(*p, cr.k_head(*p), 37, p->k_stride[2], p->k_page_stride) - cr.k_head(*p);\n"
      "}\n";
  test::TempDir tmp;
  void* so = test::load_host_library(tmp.path(), src);
  auto rows =
      reinterpret_cast<void (*)(const attn_cuda_params*, unsigned, unsigned, long long*)>(dlsym(so, "rows"));
  BOOST_REQUIRE(rows);
  attn_cuda_params seq1 = cuda_sequence_params(packed, {1, 5, 2, 3}, 1, 2, 2);  // rows 1..5, keys 2..4
  seq1.q_stride[0] = seq1.k_stride[0] = 1 << 20;  // the launch's batch entry 0 is the sequence
  long long o[9];
  rows(&seq1, 0, 3, o);  // head 3, key/value head 1
  BOOST_TEST(o[0] == 1);
  BOOST_TEST(o[1] == 0);
  BOOST_TEST(o[2] == 5);
  BOOST_TEST(o[3] == 3 * 8);  // elements: head 3 of the sequence's first row (its base is row 1)
  BOOST_TEST(o[4] == 1 * 8);  // key/value head 1 of the sequence's first key row
  BOOST_TEST((static_cast<const uint16_t*>(seq1.q) == q.data() + 32 &&
              static_cast<const uint16_t*>(seq1.k) == k.data() + 32));
  BOOST_TEST((o[5] == 0 && o[6] == 0 && o[8] == 37 * 16));  // all rows present; key 37 dense

  // A paged cache: pages of 16 keys, table rows of 10; sequence 1 has 3 queries over 150 keys.
  PagedLayout layout;
  layout.page_size = 16, layout.max_pages = 10, layout.pages = 12;
  layout.table.assign(20, 0);
  for (int j = 0; j < 10; ++j) layout.table[size_t(10 + j)] = 11 - j;  // sequence 1: pages 11, 10, ...
  layout.kv_lens = {16, 150};
  BOOST_REQUIRE(check_paged_layout({0, 1, 4}, layout, 4, seqs).empty());
  BOOST_TEST((seqs[1].q_row == 1 && seqs[1].q_len == 3 && seqs[1].k_len == 150 && seqs[1].q_first == 147));
  PagedLayout bad = layout;
  bad.kv_lens = {16, 161};
  BOOST_TEST(check_paged_layout({0, 1, 4}, bad, 4, seqs).find("161 keys, but its 10 pages of 16 hold 160") !=
             std::string::npos);
  bad = layout, bad.kv_lens = {0, 150};
  BOOST_TEST(check_paged_layout({0, 1, 4}, bad, 4, seqs).find("sequence 0 has 1 queries but 0 keys") !=
             std::string::npos);
  bad = layout, bad.table[12] = 12;
  BOOST_TEST(check_paged_layout({0, 1, 4}, bad, 4, seqs).find("page_table[1][2] is 12, outside") !=
             std::string::npos);
  BOOST_REQUIRE(check_paged_layout({0, 1, 4}, layout, 4, seqs).empty());
  std::vector<int32_t> device_table = layout.table;  // stands in for its device copy
  attn_cuda_params cache = packed;
  cache.page_table = device_table.data(), cache.page_size = 16;
  cache.k_stride[1] = 8, cache.k_stride[2] = 16, cache.k_page_stride = 16 * 16;
  const attn_cuda_params pg = cuda_sequence_params(cache, seqs[1], 1, 2, 2, layout.max_pages);
  BOOST_TEST((pg.page_table == device_table.data() + 10 && pg.k == packed.k && pg.q_first == 147));
  BOOST_TEST((pg.q_len == 150 && pg.kv_len == 150 && pg.q == q.data() + (1 - 147) * 32));
  CudaLaunchInfo info;
  info.block_m = 64, info.block_n = 64;
  attn_cuda_params launch = pg;
  const CudaGrid g = plan_launch_grid(info, 132, launch);
  BOOST_TEST((launch.q_tile0 == 2 && g.grid[0] == unsigned(g.kv_splits)));  // one tile: rows 128..149
  launch.kv_splits = 0;
  rows(&launch, 0, 1, o);  // the grid's tile 0 is query tile 2: rows 128..191, present from 147
  BOOST_TEST(o[6] == 128);
  BOOST_TEST(o[5] == 147 - 128);
  BOOST_TEST(o[2] == 150 - 128);
  BOOST_TEST(o[7] == 2);
  BOOST_TEST(o[8] == (11 - 2) * 16 * 16 + (37 - 32) * 16);  // key 37: page_table[1][2] = 9, row 5
  dlclose(so);
}

// A call's launches planned on the host (runtime/CudaLaunchPlan.h): one per sequence with queries,
// each the sequence's view with its grid, its own share of one split workspace and, for a mask that
// reads buffers, its own tile runs; the planned parameter blocks point into wherever the plan was
// placed, and a planned call of other shapes is refused.
BOOST_AUTO_TEST_CASE(calls_are_planned_once_and_launched_from_the_plan) {
  std::vector<std::string> errors;
  std::optional<CudaLaunchInfo> docs;
  std::shared_ptr<const KernelIR> docs_ir;
  for (const test::TestKernel& k : test::cuda_test_kernels(errors))
    if (kernel_name(*k.ir) == "documents_bf16_128")
      docs = parse_cuda_launch_info(print_cuda_kernel(*k.ir, {}).cu), docs_ir = k.ir;
  BOOST_REQUIRE(docs.has_value());
  BOOST_REQUIRE(!docs->tile_plan.empty());
  const CudaLaunchInfo info = *docs;
  // A ragged batch of 4 over packed bf16 Q [Tq, 8, 128] and K/V [Tk, 2, 128]: sequence 1 has no
  // queries, sequence 2 decodes one token over 3000 keys (split-KV on a 132-SM device).
  std::vector<CudaSequence> seqs;
  BOOST_REQUIRE(
      check_ragged_layout({0, 300, 300, 301, 401}, {0, 300, 310, 3310, 3410}, 401, 3410, seqs).empty());
  attn_cuda_params packed{};
  std::vector<uint16_t> memory(16);  // the tensors' base addresses (never read)
  packed.q = packed.k = packed.v = packed.out = memory.data();
  for (long long* s : {packed.q_stride, packed.out_stride}) s[0] = 0, s[1] = 128, s[2] = 8 * 128;
  for (long long* s : {packed.k_stride, packed.v_stride}) s[0] = 0, s[1] = 128, s[2] = 2 * 128;
  packed.batch = 1, packed.q_heads = 8, packed.kv_heads = 2, packed.q_len = 401, packed.kv_len = 3410;
  HostTensor doc(ScalarType::I32, {3410});
  for (int64_t i = 0; i < 3410; ++i) doc.data<int32_t>()[i] = static_cast<int32_t>(i / 100);
  const std::vector<CudaTensorArg> buffers = {{"doc", &doc}};
  const CudaLaunchPlan plan = plan_cuda_launches(info, 132, packed, seqs, {}, 0, {}, buffers);
  BOOST_REQUIRE(plan.launches.size() == 3u);  // sequence 1 has nothing to write
  const std::vector<int> sequence = {plan.launches[0].sequence, plan.launches[1].sequence,
                                     plan.launches[2].sequence};
  BOOST_TEST((sequence == std::vector<int>{0, 2, 3}));
  const CudaPlannedLaunch& decode = plan.launches[1];
  BOOST_TEST(decode.grid.kv_splits > 1);
  BOOST_TEST(plan.launches[0].grid.kv_splits == 1);
  BOOST_TEST((decode.partial_at % 256 == 0 && decode.done_at % 256 == 0 && plan.done_bytes >= 256));
  for (const CudaPlannedLaunch& l : plan.launches)
    BOOST_TEST((l.tile_rows >= 0 && l.tile_runs > l.tile_rows &&
                size_t(l.tile_runs) < plan.tile_ints.size()));  // each its own tile runs
  BOOST_TEST(plan.launches[0].tile_runs < plan.launches[1].tile_rows);
  // As one grid the launches' CTAs count together for split-KV: on a 16-SM device the decoding
  // sequence is split when launched alone, not beside the others' 56 CTAs.
  CudaLaunchInfo together = info;
  together.one_grid = true;
  BOOST_TEST(plan_cuda_launches(info, 16, packed, seqs, {}, 0, {}, buffers).launches[1].grid.kv_splits > 1);
  BOOST_TEST(plan_cuda_launches(together, 16, packed, seqs, {}, 0, {}, buffers).launches[1].grid.kv_splits ==
             1);
  BOOST_TEST(plan_cuda_launches(together, 132, packed, seqs, {}, 0, {}, buffers).launches[1].grid.kv_splits <
             decode.grid.kv_splits);

  // Placed at made-up device addresses: each block is the sequence's view plus the plan's memory.
  const CudaPlanMemory at{0, 0x10000, 0x200000, 0x100000};
  for (const CudaPlannedLaunch& l : plan.launches) {
    const attn_cuda_params p = planned_params(info, packed, plan, l, at);
    attn_cuda_params view = cuda_sequence_params(packed, l.rows, l.sequence, 2, 2);
    BOOST_TEST((p.q == view.q && p.k == view.k && p.out == view.out && p.batch_base == l.sequence));
    BOOST_TEST((p.q_len == view.q_len && p.kv_len == view.kv_len && p.q_tile0 == l.q_tile0));
    BOOST_TEST(reinterpret_cast<uintptr_t>(p.tile_rows) == 0x10000 + size_t(l.tile_rows) * sizeof(int));
    BOOST_TEST(reinterpret_cast<uintptr_t>(p.tile_runs) == 0x10000 + size_t(l.tile_runs) * sizeof(int));
    const bool split = l.grid.kv_splits > 1;
    BOOST_TEST(p.kv_splits == (split ? l.grid.kv_splits : 0));
    BOOST_TEST(reinterpret_cast<uintptr_t>(p.partial) == (split ? 0x200000 + l.partial_at : 0));
    BOOST_TEST(reinterpret_cast<uintptr_t>(p.split_done) == (split ? 0x100000 + l.done_at : 0));
  }
  // The plan's tile runs are those of each sequence's own lengths.
  std::vector<int> rows, runs;
  BOOST_REQUIRE(plan_tile_runs(info, 1, 3000, {}, buffers, rows, runs));
  BOOST_TEST((std::vector<int>(plan.tile_ints.begin() + decode.tile_rows,
                               plan.tile_ints.begin() + decode.tile_runs) == rows));

  // A paged cache: the table travels with the plan, each sequence's block points at its row.
  PagedLayout layout;
  layout.page_size = 16, layout.max_pages = 4, layout.pages = 8;
  layout.table = {7, 6, 5, 4, 3, 2, 1, 0};
  layout.kv_lens = {50, 20};
  BOOST_REQUIRE(check_paged_layout({0, 2, 3}, layout, 3, seqs).empty());
  attn_cuda_params cache = packed;
  cache.q_len = 3, cache.kv_len = 0, cache.page_size = 16,
  cache.k_page_stride = cache.v_page_stride = 16 * 256;
  CudaLaunchInfo plain = info;
  plain.tile_plan.clear();
  const CudaLaunchPlan paged = plan_cuda_launches(plain, 132, cache, seqs, layout.table, 4, {}, {});
  BOOST_REQUIRE(paged.launches.size() == 2u);
  BOOST_TEST((paged.table == layout.table && paged.tile_ints.empty()));
  const CudaPlanMemory table_at{0x4000, 0, 0x200000, 0x100000};
  const attn_cuda_params second = planned_params(plain, cache, paged, paged.launches[1], table_at);
  BOOST_TEST(reinterpret_cast<uintptr_t>(second.page_table) == 0x4000 + 4 * sizeof(int32_t));
  BOOST_TEST((second.q_first == 19 && second.q_len == 20 && second.tile_rows == nullptr));

  // A planned call is checked against the plan's shapes.
  BOOST_TEST(check_planned_call(plan, packed).empty());
  attn_cuda_params other = packed;
  other.q_len = 402;
  BOOST_TEST(check_planned_call(plan, other).find("query rows (402) differs from the plan's (401)") !=
             std::string::npos);
  other = packed, other.q_heads = 4;
  BOOST_TEST(check_planned_call(plan, other).find("query heads") != std::string::npos);
  other = packed, other.lse = reinterpret_cast<float*>(memory.data());
  BOOST_TEST(check_planned_call(plan, other).find("without an lse") != std::string::npos);
  BOOST_TEST(check_planned_call(paged, cache).empty());
  other = cache, other.page_size = 32;
  BOOST_TEST(check_planned_call(paged, other).find("page size (32)") != std::string::npos);

  // One grid (a kernel built with ATTN_VARLEN 1): each CTA makes its launch's block from the
  // call's and the plan's launch table (attn_dev::enter_launch, compiled here for the host, whose
  // attn_elem is f32) and must get what planned_params gives that launch, and its block there.
  CudaLaunchInfo one = info;
  one.one_grid = true, one.dtype = ScalarType::F32;
  std::string plan_text;
  std::string src = test::host_device_prelude() +
                    "#define __shared__\n#define ATTN_PACK_HEADS 1\n#define ATTN_VARLEN 1\nnamespace k {\n" +
                    print_cuda_device_functions(*docs_ir, &plan_text, 64, 64) +
                    cuda_device_text("attn_split_merge.cuh") + cuda_device_text("attn_tiles.cuh") + "}\n";
  src +=
      "extern \"C\" void enter(const attn_cuda_params* call, unsigned x, attn_cuda_params* out, int* block) "
      "{\n"
      "  using namespace k::attn_dev;\n"
      "  blockIdx = {x, 0, 0};\n"
      "  *out = enter_launch(*call);\n"
      "  block[0] = block_x(), block[1] = block_y(), block[2] = block_z(), block[3] = grid_x(), block[4] = "
      "grid_y();\n"
      "}\n";
  test::TempDir tmp;
  void* so = test::load_host_library(tmp.path(), src);
  auto enter = reinterpret_cast<void (*)(const attn_cuda_params*, unsigned, attn_cuda_params*, int*)>(
      dlsym(so, "enter"));
  BOOST_REQUIRE(enter);
  auto same = [](const attn_cuda_params& a, const attn_cuda_params& b) {
    bool eq = a.q == b.q && a.k == b.k && a.v == b.v && a.out == b.out && a.lse == b.lse &&
              a.batch == b.batch && a.q_heads == b.q_heads && a.kv_heads == b.kv_heads &&
              a.q_len == b.q_len && a.kv_len == b.kv_len && a.pack_heads == b.pack_heads &&
              a.batch_base == b.batch_base && a.kv_splits == b.kv_splits && a.partial == b.partial &&
              a.split_done == b.split_done && a.page_table == b.page_table && a.tile_rows == b.tile_rows &&
              a.tile_runs == b.tile_runs && a.q_first == b.q_first && a.q_tile0 == b.q_tile0 &&
              a.error == b.error && b.launches == nullptr && b.work == nullptr &&
              a.page_size == b.page_size && a.k_page_stride == b.k_page_stride;
    for (int d = 0; d < 3; ++d)
      eq = eq && a.q_stride[d] == b.q_stride[d] && a.k_stride[d] == b.k_stride[d] &&
           a.v_stride[d] == b.v_stride[d];
    return eq;
  };
  std::vector<float> lse_rows(401 * 8);
  std::vector<CudaSequence> ragged;
  BOOST_REQUIRE(
      check_ragged_layout({0, 300, 300, 301, 401}, {0, 300, 310, 3310, 3410}, 401, 3410, ragged).empty());
  for (bool is_paged : {false, true}) {
    attn_cuda_params call = is_paged ? cache : packed;
    call.lse = lse_rows.data();
    call.lse_stride[0] = 0, call.lse_stride[1] = 1, call.lse_stride[2] = 8;
    CudaLaunchInfo kind = one;
    if (is_paged) kind.tile_plan.clear();
    const CudaLaunchPlan grid = is_paged ? plan_cuda_launches(kind, 132, call, seqs, layout.table, 4, {}, {})
                                         : plan_cuda_launches(kind, 132, call, ragged, {}, 0, {}, buffers);
    size_t ctas = 0;
    for (const CudaPlannedLaunch& l : grid.launches)
      ctas += size_t(l.grid.grid[0]) * l.grid.grid[1] * l.grid.grid[2];
    BOOST_REQUIRE(grid.work.size() == 4 * ctas);
    BOOST_REQUIRE(grid.one_grid.size() == grid.launches.size());
    const CudaPlanMemory mem{
        0x4000, 0x10000, 0x200000, 0x100000, uintptr_t(grid.one_grid.data()), uintptr_t(grid.work.data())};
    const attn_cuda_params whole = one_grid_params(call, mem);
    int mismatches = 0;
    for (size_t x = 0; x < ctas; ++x) {
      attn_cuda_params got{};
      int block[5];
      enter(&whole, unsigned(x), &got, block);
      const CudaPlannedLaunch& l = grid.launches[size_t(grid.work[4 * x])];
      const attn_cuda_params want = planned_params(kind, call, grid, l, mem);
      const bool ok = same(want, got) && block[0] == grid.work[4 * x + 1] &&
                      block[1] == grid.work[4 * x + 2] && block[2] == grid.work[4 * x + 3] &&
                      block[3] == int(l.grid.grid[0]) && block[4] == int(l.grid.grid[1]);
      if (!ok && ++mismatches <= 3)
        BOOST_ERROR((is_paged ? "paged" : "ragged")
                    << " CTA " << x << " (sequence " << l.sequence << ") differs from its launch's block");
    }
    BOOST_TEST(mismatches == 0);
    BOOST_TEST(ctas > 3u);
    // Longest first: key tiles per CTA never increase along the work list.
    auto per_cta = [&](size_t x) {
      const CudaPlannedLaunch& l = grid.launches[size_t(grid.work[4 * x])];
      return (l.rows.k_len + kind.block_n - 1) / kind.block_n / l.grid.kv_splits;
    };
    bool longest_first = true;
    for (size_t x = 1; x < ctas; ++x) longest_first = longest_first && per_cta(x - 1) >= per_cta(x);
    BOOST_TEST(longest_first);
    if (!is_paged) BOOST_TEST(per_cta(0) > per_cta(ctas - 1));  // the paged sequences are one tile each
  }
  dlclose(so);
}

// A ragged batch's backward (runtime/CudaBackwardLaunch.h): each sequence's block is the forward's
// view of it, with dOut, dLSE and dQ at its query rows and dK and dV at its key rows.
BOOST_AUTO_TEST_CASE(ragged_backward_views_each_sequence) {
  std::vector<CudaSequence> seqs;
  BOOST_REQUIRE(check_ragged_layout({0, 2, 2, 7}, {0, 5, 6, 6}, 7, 6, seqs).empty());
  std::vector<uint16_t> q(7 * 4 * 8), k(6 * 2 * 8), dout(7 * 4 * 8), dq(7 * 4 * 8), dk(6 * 2 * 8),
      dv(6 * 2 * 8);
  std::vector<float> dlse(7 * 4);
  attn_cuda_bwd_params packed{};
  packed.fwd.q = q.data(), packed.fwd.k = packed.fwd.v = k.data(), packed.fwd.out = dout.data();
  for (long long* s : {packed.fwd.q_stride, packed.fwd.out_stride, packed.dout_stride, packed.dq_stride})
    s[0] = 0, s[1] = 8, s[2] = 32;
  for (long long* s : {packed.fwd.k_stride, packed.fwd.v_stride, packed.dk_stride, packed.dv_stride})
    s[0] = 0, s[1] = 8, s[2] = 16;
  packed.dlse_stride[0] = 0, packed.dlse_stride[1] = 1, packed.dlse_stride[2] = 4;
  packed.dout = dout.data(), packed.dq = dq.data(), packed.dk = dk.data(), packed.dv = dv.data();
  packed.dlse = dlse.data();
  packed.fwd.q_heads = 4, packed.fwd.kv_heads = 2, packed.fwd.q_len = 7, packed.fwd.kv_len = 6;
  const attn_cuda_bwd_params first = cuda_backward_sequence_params(packed, seqs[0], 0, 2),
                             third = cuda_backward_sequence_params(packed, seqs[2], 2, 2);
  BOOST_TEST(
      (first.fwd.q_len == 2 && first.fwd.kv_len == 5 && first.fwd.batch_base == 0 && first.dq == dq.data()));
  BOOST_TEST((third.fwd.q == q.data() + 2 * 32 && third.dout == dout.data() + 2 * 32 &&
              third.dq == dq.data() + 2 * 32));
  BOOST_TEST((third.dlse == dlse.data() + 2 * 4 && third.fwd.batch_base == 2 && third.fwd.q_len == 5));
  BOOST_TEST((third.dk == dk.data() + 6 * 16 && third.dv == dv.data() + 6 * 16 && third.fwd.kv_len == 0));
  const attn_cuda_bwd_params second = cuda_backward_sequence_params(packed, {2, 3, 5, 1}, 1, 2);
  BOOST_TEST((second.dk == dk.data() + 5 * 16 && second.dv == dv.data() + 5 * 16 &&
              second.fwd.k == k.data() + 5 * 16));
}

// The launcher's reading of a kernel-ABI call (runtime/CudaKernelArgs.h), on host memory standing in
// for the GPU's: a dense call's block, a ragged batch's and a paged cache's, their layouts read
// from CPU memory and through the download callback, and the calls it refuses.
BOOST_AUTO_TEST_CASE(kernel_abi_calls_fill_the_parameter_block) {
  CudaLaunchInfo info;
  info.head_dim = info.value_dim = 64, info.dtype = ScalarType::BF16, info.needs_16b_rows = true,
  info.scale = 0.125;
  std::vector<uint16_t> memory(size_t(1) << 16);  // every tensor's elements (read by no one)
  auto tensor = [&](std::vector<int64_t>& shape, DLDeviceType where) {
    DLTensor t{};
    t.data = memory.data(), t.device = {where, 0}, t.ndim = int(shape.size()), t.dtype = {kDLBfloat, 16, 1};
    t.shape = shape.data();
    return t;
  };
  auto table = [](std::vector<int32_t>& v, std::vector<int64_t>& shape, DLDeviceType where) {
    DLTensor t{};
    t.data = v.data(), t.device = {where, 0}, t.ndim = int(shape.size()), t.dtype = {kDLInt, 32, 1};
    t.shape = shape.data();
    return t;
  };
  int downloads = 0;
  const CudaDownload download = [&](void* dst, const void* src, size_t bytes) {
    ++downloads, std::memcpy(dst, src, bytes);
  };
  attn_cuda_params p{};
  std::vector<CudaSequence> seqs;
  std::vector<int32_t> pages;
  int64_t max_pages = -1;

  // Dense: [B, H, L, D].
  std::vector<int64_t> dq = {2, 4, 77, 64}, dk = {2, 2, 90, 64};
  DLTensor q = tensor(dq, kDLCUDA), k = tensor(dk, kDLCUDA), v = k, out = q;
  attn_kernel_args a{};
  a.abi_version = ATTN_KERNEL_ABI_VERSION, a.q = &q, a.k = &k, a.v = &v, a.out = &out;
  BOOST_REQUIRE(fill_cuda_params(info, &a, p).empty());
  BOOST_TEST((p.batch == 2 && p.q_heads == 4 && p.kv_heads == 2 && p.q_len == 77 && p.kv_len == 90));
  BOOST_TEST((p.q_stride[0] == 4 * 77 * 64 && p.q_stride[1] == 77 * 64 && p.q_stride[2] == 64));
  BOOST_TEST(
      (read_cuda_layout(&a, seqs, pages, max_pages, download).empty() && seqs.empty() && max_pages == 0));

  // Ragged: [T, H, D], the boundaries in CPU memory, then in the GPU's (downloaded).
  std::vector<int64_t> rq = {10, 4, 64}, rk = {12, 2, 64}, rl = {10, 4}, cu_shape = {3};
  std::vector<int32_t> cu_q = {0, 4, 10}, cu_k = {0, 12, 12};
  DLTensor q3 = tensor(rq, kDLCUDA), k3 = tensor(rk, kDLCUDA), v3 = k3, out3 = q3, lse = tensor(rl, kDLCUDA);
  lse.dtype = {kDLFloat, 32, 1};
  DLTensor cq = table(cu_q, cu_shape, kDLCPU), ck = table(cu_k, cu_shape, kDLCUDA);
  attn_kernel_args r = a;
  r.q = &q3, r.k = &k3, r.v = &v3, r.out = &out3, r.lse = &lse, r.cu_seqlens_q = &cq, r.cu_seqlens_k = &ck;
  BOOST_REQUIRE(fill_cuda_params(info, &r, p).empty());
  BOOST_TEST((p.batch == 1 && p.q_heads == 4 && p.kv_heads == 2 && p.q_len == 10 && p.kv_len == 12));
  BOOST_TEST((p.q_stride[0] == 0 && p.q_stride[1] == 64 && p.q_stride[2] == 256 && p.k_stride[2] == 128));
  BOOST_TEST((p.lse_stride[0] == 0 && p.lse_stride[1] == 1 && p.lse_stride[2] == 4));
  BOOST_REQUIRE(read_cuda_layout(&r, seqs, pages, max_pages, download).empty());
  BOOST_TEST(downloads == 1);  // cu_seqlens_k only
  BOOST_REQUIRE(seqs.size() == 2u);
  BOOST_TEST((seqs[1].q_row == 4 && seqs[1].q_len == 6 && seqs[1].k_row == 12 && seqs[1].k_len == 0));
  cu_k[2] = 13;
  BOOST_TEST(read_cuda_layout(&r, seqs, pages, max_pages, download).find("cu_seqlens_k ends at 13") !=
             std::string::npos);

  // Paged: K and V [pages, page_size, H, D], the table and key counts in CPU memory.
  std::vector<int64_t> pk = {6, 16, 2, 64}, pt_shape = {2, 3}, kl_shape = {2};
  std::vector<int32_t> page_table = {5, 0, 0, 1, 2, 3}, kv_lens = {6, 40};
  DLTensor kc = tensor(pk, kDLCUDA), vc = kc, pt = table(page_table, pt_shape, kDLCPU),
           kl = table(kv_lens, kl_shape, kDLCPU);
  std::vector<int32_t> cu_p = {0, 1, 10};
  DLTensor cp = table(cu_p, cu_shape, kDLCPU);
  attn_kernel_args g = r;
  g.k = &kc, g.v = &vc, g.cu_seqlens_q = &cp, g.cu_seqlens_k = nullptr, g.page_table = &pt, g.kv_lens = &kl;
  BOOST_REQUIRE(fill_cuda_params(info, &g, p).empty());
  BOOST_TEST((p.kv_heads == 2 && p.page_size == 16 && p.k_page_stride == 16 * 2 * 64));
  BOOST_TEST((p.k_stride[0] == 0 && p.k_stride[1] == 64 && p.k_stride[2] == 128));
  BOOST_REQUIRE(read_cuda_layout(&g, seqs, pages, max_pages, download).empty());
  BOOST_TEST((max_pages == 3 && pages == page_table));
  BOOST_TEST((seqs[1].q_row == 1 && seqs[1].q_len == 9 && seqs[1].k_len == 40 && seqs[1].q_first == 31));
  page_table[4] = 6;
  BOOST_TEST(read_cuda_layout(&g, seqs, pages, max_pages, download).find("page_table[1][1] is 6, outside") !=
             std::string::npos);
  g.cu_seqlens_k = &ck;
  BOOST_TEST(read_cuda_layout(&g, seqs, pages, max_pages, download).find("not cu_seqlens_k") !=
             std::string::npos);

  // Refused: a ragged call's 4-D tensors, host tensors, head dims it was not compiled for.
  attn_kernel_args bad = r;
  bad.q = &q;
  BOOST_TEST(fill_cuda_params(info, &bad, p).find("must be 3-D tensors [T, H, D]") != std::string::npos);
  DLTensor host_q = tensor(rq, kDLCPU);
  bad = r, bad.q = &host_q;
  BOOST_TEST(fill_cuda_params(info, &bad, p).find("GPU memory") != std::string::npos);
  info.head_dim = 128;
  BOOST_TEST(fill_cuda_params(info, &r, p).find("compiled for head_dim 128") != std::string::npos);
  info.head_dim = 64;

  // FP8: e4m3 Q, K, V and a bf16 Out; descale factors [1] (one) or [B, Hkv] (a ragged batch's B its
  // sequences), f32 in GPU memory; refused for other kernels.
  std::vector<int64_t> one = {1}, per_head = {2, 2}, wrong = {3, 2};
  DLTensor qs = tensor(one, kDLCUDA), ks = tensor(per_head, kDLCUDA), vs = tensor(wrong, kDLCUDA);
  for (DLTensor* f : {&qs, &ks, &vs}) f->dtype = {kDLFloat, 32, 1};
  attn_kernel_args f8 = a;
  DLTensor q8 = q, k8 = k, v8 = v;
  for (DLTensor* t : {&q8, &k8, &v8}) t->dtype = {ATTN_DL_FLOAT8_E4M3FN, 8, 1};
  f8.q = &q8, f8.k = &k8, f8.v = &v8, f8.q_descale = &qs, f8.k_descale = &ks;
  BOOST_TEST(fill_cuda_params(info, &f8, p).find("descale factors are for fp8 kernels") != std::string::npos);
  info.dtype = ScalarType::F8E4M3;
  BOOST_REQUIRE(fill_cuda_params(info, &f8, p).empty());
  BOOST_TEST((p.descale[0] && p.descale_stride[0][0] == 0 && p.descale_stride[0][1] == 0));
  BOOST_TEST((p.descale[1] && p.descale_stride[1][0] == 2 && p.descale_stride[1][1] == 1 && !p.descale[2]));
  f8.v_descale = &vs;
  BOOST_TEST(fill_cuda_params(info, &f8, p).find("v_descale must be f32 [1] or [2, 2]") != std::string::npos);
  f8.v_descale = nullptr, f8.out = &q8;
  BOOST_TEST(fill_cuda_params(info, &f8, p).find("q, k and v must be e4m3 and out bf16") !=
             std::string::npos);
}
