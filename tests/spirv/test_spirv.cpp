// The SPIR-V backend on lavapipe against the reference: every kernel of kernels.attn (and of
// samples/ and stdlib/ when they hold kernels) on random inputs and shapes, GQA, LSE, fully masked
// rows, f32/f16/bf16, both fallback paths; every emitted module valid (tests/golden/ holds the
// golden disassembly).
#define BOOST_TEST_MODULE spirv
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdlib>

#include "attn/loader.hpp"
#include "backends/reference/EvalExpr.h"
#include "backends/reference/Reference.h"
#include "backends/spirv/ModuleBuilder.h"
#include "backends/spirv/RunVulkan.h"
#include "backends/spirv/SpirvKernel.h"
#include "codegen/KernelIR.h"
#include "runtime/Npy.h"
#include "runtime/VulkanLauncher.h"
#include "tests/support/AttentionInputs.h"
#include "tests/support/CheckedLowering.h"
#include "tests/support/GuardedReads.h"
#include "tests/support/MesaCache.h"
#include "tests/support/StdlibKernels.h"
#include "tests/support/TestSupport.h"

using namespace attn;
using namespace attn::test;

namespace {

BOOST_TEST_GLOBAL_FIXTURE(PrivateCaches);

std::filesystem::path kernels_file() { return source_dir() / "tests/spirv/kernels.attn"; }

double tolerance(ScalarType t) { return t == ScalarType::F32 ? 2e-4 : t == ScalarType::F16 ? 4e-3 : 3e-2; }

// Head dimensions are fixed per kernel (each pair is a new pipeline, and lavapipe's JIT is the
// slow part); lengths, heads and batch vary per case.
struct Dims {
  int D, Dv;
};
const Dims kDims[] = {{32, 32}, {13, 20}, {64, 16}, {40, 40}, {7, 7}, {24, 33}};

AttentionShape random_shape(const KernelIR& ir, Dims dims, std::mt19937& rng, bool square) {
  std::uniform_int_distribution<int> len(1, 150), heads(1, 2), group(1, 3), batch(1, 2);
  AttentionShape s{batch(rng), 0, heads(rng), len(rng), len(rng), dims.D, dims.Dv};
  s.Hq = s.Hkv * group(rng);
  if (square) s.Lkv = s.Lq;
  if (ir.options.head_dim) s.D = ir.options.head_dim;
  if (ir.options.value_dim) s.Dv = ir.options.value_dim;
  return s;
}

// Arguments that make sense for the kernels here: document ids and starts, head slopes, flags;
// a generic filler for kernels from elsewhere (an index out of range is then checked as an error).
void fill_args(const KernelIR& ir, const AttentionShape& s, KernelInputs& in, std::mt19937& rng) {
  const int len = std::max(s.Lq, s.Lkv);
  std::vector<int> doc(static_cast<size_t>(len)), start{0};
  for (int i = 0, cur = 0; i < len; ++i) {
    if (i > 0 && rng() % 9 == 0) {
      ++cur;
      start.push_back(i);
    }
    doc[static_cast<size_t>(i)] = cur;
  }
  for (const KernelArg& a : ir.args) {
    if (a.kind == KernelArg::Kind::Scalar) {
      in.scalars[a.name] = a.elem == ElemType::F32    ? 0.5 + (rng() % 100) / 50.0
                           : a.elem == ElemType::Bool ? 1
                                                      : rng() % 8;
      continue;
    }
    std::vector<int64_t> shape;
    for (const std::string& d : a.dims)
      shape.push_back(d == "heads"                    ? s.Hq
                      : d == "docs"                   ? static_cast<int64_t>(start.size())
                      : d == "span" || d == "buckets" ? 64
                                                      : len);
    ScalarType t = a.elem == ElemType::F32   ? ScalarType::F32
                   : a.elem == ElemType::I32 ? ScalarType::I32
                                             : ScalarType::Bool;
    HostTensor x = random_tensor(ScalarType::F32, shape, rng);
    HostTensor buf(t, shape);
    for (int64_t i = 0; i < buf.numel(); ++i) {
      if (t == ScalarType::F32)
        buf.set(i, x.get(i));
      else if (t == ScalarType::Bool)
        buf.set(i, rng() % 11 == 0);
      else if (a.name == "doc")
        buf.set(i, doc[static_cast<size_t>(i % len)]);
      else if (a.name == "start")
        buf.set(i, start[static_cast<size_t>(i) % start.size()]);
      else
        buf.set(i, static_cast<double>(rng() % static_cast<unsigned>(len)));
    }
    in.buffers[a.name] = buf;
  }
}

double max_diff(const HostTensor& a, const HostTensor& b) {
  BOOST_REQUIRE(a.shape == b.shape);
  double worst = 0;
  for (int64_t i = 0; i < a.numel(); ++i) {
    double x = a.get(i), y = b.get(i);
    if (std::isnan(x) || std::isnan(y)) return INFINITY;
    if (std::isinf(x) || std::isinf(y)) {
      if (x != y) return INFINITY;
      continue;
    }
    worst = std::max(worst, std::fabs(x - y));
  }
  return worst;
}

// One random case of `ir` on Vulkan and the reference; an out-of-range index must fail on both.
void compare(const KernelIR& ir, Dims dims, std::mt19937& rng, const VulkanRunOptions& options = {}) {
  const AttentionShape s = random_shape(ir, dims, rng, ir.args.size() > 1);
  const ScalarType t = io_scalar_type(ir.options.dtype);
  KernelInputs in = random_attention_inputs(t, s, rng);
  fill_args(ir, s, in, rng);
  const std::string where = ir.name + " " + s.str();
  KernelOutputs want;
  try {
    want = run_reference(ir, in, 1);
  } catch (const EvalError&) {
    BOOST_CHECK_THROW(run_vulkan(ir, in, options), EvalError);
    return;
  }
  KernelOutputs got = run_vulkan(ir, in, options);
  double d = max_diff(got.out, want.out);
  BOOST_TEST(d <= tolerance(t), where << ": out differs by " << d);
  if (ir.options.lse) {
    double dl = max_diff(got.lse, want.lse);
    BOOST_TEST(dl <= 1e-3, where << ": lse differs by " << dl);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(module_builder_dedups_and_the_validator_names_errors) {
  spirv::ModuleBuilder m(0x00010300);
  BOOST_TEST(m.type_int(32, true) == m.type_int(32, true));
  BOOST_TEST(m.type_int(32, true) != m.type_int(32, false));
  BOOST_TEST(m.const_float(1.5f) == m.const_float(1.5f));
  BOOST_TEST(m.const_int(1) != m.const_uint(1));
  m.capability(spv::Capability::Shader);
  m.capability(spv::Capability::Shader);
  m.memory_model(spv::AddressingModel::Logical, spv::MemoryModel::GLSL450);
  spirv::Id void_t = m.type_void();
  spirv::Id fn = m.begin_function(void_t, m.type_function(void_t));
  m.op_void(spv::Op::OpReturn, {});
  m.end_function();
  m.entry_point(spv::ExecutionModel::GLCompute, fn, "main", {});
  m.execution_mode(fn, spv::ExecutionMode::LocalSize, {1, 1, 1});
  std::vector<uint32_t> words = m.words();
  BOOST_TEST(words[0] == spv::MagicNumber);
  BOOST_TEST(spirv::validate_spirv(words, 0x00010300) == "");
  std::string text = spirv::disassemble_spirv(words, 0x00010300);
  BOOST_TEST(text.find("OpCapability Shader") == text.rfind("OpCapability Shader"),
             "capabilities are deduplicated");
  // A function without its terminator: the validator says so.
  spirv::ModuleBuilder bad(0x00010300);
  bad.capability(spv::Capability::Shader);
  bad.memory_model(spv::AddressingModel::Logical, spv::MemoryModel::GLSL450);
  spirv::Id v = bad.type_void();
  bad.begin_function(v, bad.type_function(v));
  bad.end_function();
  BOOST_TEST(spirv::validate_spirv(bad.words(), 0x00010300) != "");
}

BOOST_AUTO_TEST_CASE(the_device_is_lavapipe_with_the_expected_subgroups) {
  const vk::DeviceInfo& info = vk::VulkanDevice::get()->info();
  BOOST_TEST_MESSAGE("Vulkan device: " << info.name << " (" << info.type << ", Vulkan 1." << info.api_minor
                                       << ", subgroup " << info.subgroup_size << ", f16 storage "
                                       << info.f16_storage << ", shared " << info.shared_bytes << " bytes)");
  if (info.name.find("llvmpipe") == std::string::npos) return;
  const char* width = std::getenv("LP_NATIVE_VECTOR_WIDTH");
  BOOST_TEST(info.subgroup_size == (width && std::string(width) == "512" ? 16 : 8));
  BOOST_TEST(info.f16_storage);
}

BOOST_AUTO_TEST_CASE(every_kernel_matches_the_reference) {
  auto p = load_checked(kernels_file());
  std::mt19937 rng(11);
  size_t n = 0;
  for (const Decl* k : p->kernels()) {
    auto ir = lower_checked(*p, *k);
    Dims dims = kDims[n++ % std::size(kDims)];
    for (int i = 0; i < 4; ++i) compare(*ir, dims, rng);
  }
}

// One allowed key per row: the LSE is the score, erf of an exact input, within a few ulps of
// libm's (GLSL.std.450 has no erf; SpirvExpr emits one).
BOOST_AUTO_TEST_CASE(erf_is_accurate) {
  auto p = load_checked(kernels_file());
  auto ir = lower_checked(*p, "erf_lse");
  std::mt19937 rng(3);
  KernelInputs in = random_attention_inputs(ScalarType::F32, {1, 1, 1, 150, 3, 16, 16}, rng);
  KernelOutputs got = run_vulkan(*ir, in);
  for (int q = 0; q < 150; ++q) {
    const double want = 4.0 * std::erf((q - 60) * 0.0078125);
    BOOST_TEST(std::fabs(got.lse.get(q) - want) <= 2e-6 * std::fabs(want) + 1e-9,
               "q=" << q << ": " << got.lse.get(q));
  }
}

BOOST_AUTO_TEST_CASE(fallbacks_without_subgroups_or_f16_storage) {
  auto p = load_checked(kernels_file());
  std::mt19937 rng(12);
  for (const char* name : {"causal_lse", "packed_alibi"})
    compare(*lower_checked(*p, name), {5, 6}, rng, {false, true, false});
  compare(*lower_checked(*p, "half"), {13, 20}, rng, {true, false, false});
}

// q_len and kv_len are the launch's Lq and Lkv: fewer, as many and more queries than keys.
BOOST_AUTO_TEST_CASE(call_lengths_match_the_reference) {
  auto p = load_checked(kernels_file());
  std::mt19937 rng(29);
  for (const char* name : {"from_end", "from_end_window"})
    for (int i = 0; i < 4; ++i) compare(*lower_checked(*p, name), kDims[i % 2], rng);
}

// Every stdlib definition, one generated kernel each.
BOOST_AUTO_TEST_CASE(every_stdlib_definition_matches_the_reference) {
  std::mt19937 rng(20);
  size_t n = 0;
  for (const StdlibKernelProgram& generated : stdlib_kernel_programs(StdlibKernelOptions{})) {
    auto p = load_checked_text(generated.path, generated.text);
    for (const Decl* k : p->kernels()) {
      auto ir = lower_checked(*p, *k);
      for (int i = 0; i < 3; ++i) compare(*ir, kDims[n % std::size(kDims)], rng);
      ++n;
    }
  }
}

// Kernels of samples/ and stdlib/: generic arguments; an index out of range must
// then be an error on both sides.
BOOST_AUTO_TEST_CASE(samples_and_stdlib_kernels_match_the_reference) {
  std::mt19937 rng(16);
  size_t n = 0;
  for (const char* dir : {"samples", "stdlib"})
    for (const auto& file : files_under(source_dir() / dir, ".attn")) {
      // Files that do not load are test_cli's concern (check_passes_stdlib_and_samples).
      auto p = load_program(file.string());
      if (p->diags.has_errors()) {
        BOOST_TEST_MESSAGE("skipped " << file << ": it does not load");
        continue;
      }
      for (const Decl* k : p->kernels()) {
        auto ir = lower_checked(*p, *k);
        for (int i = 0; i < 3; ++i) compare(*ir, kDims[n % std::size(kDims)], rng);
        ++n;
      }
    }
  BOOST_TEST_MESSAGE(n << " kernels from samples/ and stdlib/");
}

// The attnc binary: compile -t vulkan, dump --stage=vulkan, run -t vulkan, and its Vulkan errors.
BOOST_AUTO_TEST_CASE(command_line) {
  TempDir dir;
  std::string attnc = attnc_binary(), file = kernels_file().string(), out = (dir.path() / "out").string();
  CommandResult r = run_command(attnc + " compile " + file + " -t vulkan -o " + out);
  BOOST_REQUIRE_MESSAGE(r.status == 0, r.output);
  std::string header = read_file(dir.path() / "out/packed_alibi.spv.h");
  BOOST_TEST(header.find("static const uint32_t attn_packed_alibi_spirv[") != std::string::npos);
  BOOST_TEST(header.find(dir.path().string()) == std::string::npos, "no absolute paths in generated files");
  BOOST_TEST(read_file(dir.path() / "out/packed_alibi.spv").size() % 4 == 0);
  CommandResult again = run_command(attnc + " compile " + file + " -t vulkan -o " + out + "2");
  BOOST_REQUIRE(again.status == 0);
  BOOST_TEST(read_file(dir.path() / "out2/packed_alibi.spv.h") == header, "compile output is deterministic");

  r = run_command(attnc + " dump --stage=vulkan " + file + " causal_lse");
  BOOST_TEST(r.status == 0);
  BOOST_TEST(r.output.find("OpEntryPoint GLCompute %main \"main\"") != std::string::npos, r.output);

  std::mt19937 rng(17);
  for (const char* t : {"q", "k", "v"})
    write_npy((dir.path() / (std::string(t) + ".npy")).string(),
              random_tensor(ScalarType::F32, {1, 2, 9, 8}, rng));
  std::string qkv = " --q " + (dir.path() / "q.npy").string() + " --k " + (dir.path() / "k.npy").string() +
                    " --v " + (dir.path() / "v.npy").string() + " -o " + (dir.path() / "o.npy").string();
  r = run_command(attnc + " run " + file + " causal_lse" + qkv + " -t vulkan");
  BOOST_REQUIRE_MESSAGE(r.status == 0, r.output);
  HostTensor got = read_npy((dir.path() / "o.npy").string());
  r = run_command(attnc + " run " + file + " causal_lse" + qkv);
  BOOST_REQUIRE_MESSAGE(r.status == 0, r.output);
  BOOST_TEST(max_diff(got, read_npy((dir.path() / "o.npy").string())) <= 1e-5);

  r = run_command("ATTNC_VULKAN_LOADER=/nonexistent/libvulkan.so.1 " + attnc + " run " + file +
                  " causal_lse" + qkv + " -t vulkan");
  BOOST_TEST(r.status == 1);
  BOOST_TEST(r.output.find("attnc: error: no Vulkan loader") != std::string::npos, r.output);
  r = run_command("ATTNC_VULKAN_DEVICE=no-such-device " + attnc + " run " + file + " causal_lse" + qkv +
                  " -t vulkan");
  BOOST_TEST(r.status == 1);
  BOOST_TEST(
      r.output.find("ATTNC_VULKAN_DEVICE='no-such-device' matches no Vulkan 1.1 device") != std::string::npos,
      r.output);
}

// A device whose pipelines get smaller subgroups than it reports: the shader notices, the host
// reruns with one invocation per row.
BOOST_AUTO_TEST_CASE(subgroups_smaller_than_reported_fall_back) {
  auto p = load_checked(kernels_file());
  std::mt19937 rng(19);
  VulkanRunOptions o;
  o.assume_subgroup_size = 32;
  compare(*lower_checked(*p, "causal_lse"), {5, 6}, rng, o);
}

// The GPU path: K/V tiles staged in workgroup memory between barriers (slow to JIT on lavapipe).
BOOST_AUTO_TEST_CASE(shared_memory_tiles) {
  auto p = load_checked(kernels_file());
  std::mt19937 rng(15);
  for (const char* name : {"packed_alibi", "half"}) {
    auto ir = lower_checked(*p, name);
    for (int i = 0; i < 2; ++i) compare(*ir, {24, 33}, rng, {true, true, true});
  }
}

BOOST_AUTO_TEST_CASE(fully_masked_rows_give_zero_and_minus_infinity) {
  auto p = load_checked(kernels_file());
  auto ir = lower_checked(*p, "empty_rows");
  std::mt19937 rng(13);
  KernelInputs in = random_attention_inputs(ScalarType::F32, {1, 2, 1, 37, 37, 8, 5}, rng);
  KernelOutputs out = run_vulkan(*ir, in);
  for (int h = 0; h < 2; ++h)
    for (int q = 0; q < 37; ++q) {
      BOOST_TEST(std::isinf(out.lse.get(h * 37 + q)) == (q < 3));
      for (int d = 0; d < 5; ++d) {
        double x = out.out.get((h * 37 + q) * 5 + d);
        BOOST_REQUIRE(!std::isnan(x));
        if (q < 3) BOOST_TEST(x == 0.0);
      }
    }
}

BOOST_AUTO_TEST_CASE(tiles_the_mask_rules_out_inside_a_run_are_skipped) {
  // Masks whose closed-form runs are wide (attention sinks + window, longformer, 2-D
  // neighbourhoods): the shader tests each key tile of the run and skips those interval analysis
  // proves empty. Long enough for many skipped tiles, lengths not multiples of the tiles.
  auto p = load_checked_text("skip.attn", R"attn(
import std.masks;
kernel sinks(n: int) { mask = sinks_window(n, 130); lse = true; }
kernel longformer_2 { mask = longformer(70, 2); lse = true; }
kernel natten_20 { mask = natten(20, 5, 3, 30); lse = true; }
)attn");
  std::mt19937 rng(31);
  for (const char* name : {"sinks", "longformer_2", "natten_20"}) {
    auto ir = lower_checked(*p, name);
    for (int L : {600, 777}) {
      KernelInputs in = random_attention_inputs(ScalarType::F32, {1, 2, 1, L, L, 16, 16}, rng);
      if (!ir->args.empty()) in.scalars["n"] = 5;
      KernelOutputs want = run_reference(*ir, in, 1), got = run_vulkan(*ir, in);
      BOOST_TEST(max_diff(got.out, want.out) <= 2e-4, name << " L=" << L);
      BOOST_TEST(max_diff(got.lse, want.lse) <= 1e-3, name << " L=" << L);
    }
  }
}

BOOST_AUTO_TEST_CASE(an_index_out_of_range_names_the_buffer_and_the_index) {
  auto p = load_checked_text("oob.attn", "kernel k(doc: tensor<i32>[len]) { mask = doc[q + 2] == doc[kv]; }");
  auto ir = lower_checked(*p, "k");
  std::mt19937 rng(14);
  KernelInputs in = random_attention_inputs(ScalarType::F32, {1, 1, 1, 10, 10, 4, 4}, rng);
  in.buffers["doc"] = HostTensor(ScalarType::I32, {10});
  try {
    run_vulkan(*ir, in);
    BOOST_FAIL("no error for doc[q + 2] at q = 8");
  } catch (const EvalError& e) {
    std::string msg = e.what();
    BOOST_TEST(msg.find("buffer 'doc' index 1") != std::string::npos, msg);
    BOOST_TEST(msg.find("out of range [0, 10)") != std::string::npos, msg);
  }
}

// Guarded reads (tests/support/GuardedReads.h): neither made nor reported where the guard rules
// them out; unguarded, an error.
BOOST_AUTO_TEST_CASE(guarded_reads_are_not_reported) {
  auto p = load_checked_text("guarded.attn", kGuardedReadsProgram);
  std::mt19937 rng(61);
  for (int len : {75, 150}) {
    for (const std::string name : kGuardedReadsKernels) {
      auto ir = lower_checked(*p, name);
      KernelInputs in = random_attention_inputs(ScalarType::F32, {1, 2, 1, len, len, 32, 32}, rng);
      in.buffers = guarded_reads_buffers(*ir, len);
      if (name == "unguarded") {
        BOOST_CHECK_EXCEPTION(run_vulkan(*ir, in), EvalError, [](const EvalError& e) {
          return std::string(e.what()).find("buffer 'start' index -1") != std::string::npos;
        });
        continue;
      }
      KernelOutputs want = run_reference(*ir, in, 1), got = run_vulkan(*ir, in);
      BOOST_TEST(max_diff(got.out, want.out) <= 2e-4, name << " L=" << len);
      BOOST_TEST(max_diff(got.lse, want.lse) <= 1e-3, name << " L=" << len);
    }
  }
}

BOOST_AUTO_TEST_CASE(every_module_validates_in_every_configuration) {
  auto p = load_checked(kernels_file());
  for (const Decl* k : p->kernels()) {
    auto ir = lower_checked(*p, *k);
    for (int sg : {0, 8, 64})
      for (int minor : {1, 2}) {
        spirv::SpirvTarget t{minor, sg, sg == 8, 32768};
        spirv::SpirvConfig c = spirv::choose_config(*ir, t, 40, 24);
        BOOST_CHECK_NO_THROW(spirv::compile_spirv(*ir, c));
      }
  }
}

BOOST_AUTO_TEST_CASE(pipeline_cache_lands_in_the_disk_cache) {
  auto p = load_checked(kernels_file());
  std::mt19937 rng(18);
  compare(*lower_checked(*p, "prefix"), {8, 8}, rng);
  CacheStats stats = cache_stats();
  BOOST_TEST(stats.dir.find(std::getenv("XDG_CACHE_HOME")) == 0, stats.dir);
  BOOST_TEST(stats.entries >= 1u);
}

BOOST_AUTO_TEST_CASE(key_tiles_come_from_the_tile_plan) {
  auto p = load_checked(kernels_file());
  spirv::SpirvTarget t{1, 8, false, 32768};
  for (const char* name : {"causal_lse", "sliding_window", "packed_alibi", "neighbourhood", "full"}) {
    auto ir = lower_checked(*p, name);
    BOOST_TEST(spirv::compile_spirv(*ir, spirv::choose_config(*ir, t, 32, 32)).config.block_sparse, name);
  }
}
