// The kit's host side without a GPU: literal dimensions keep their value, index buffers stay in
// range, the out-of-range variant is out of range, a worker that dies costs one kernel, and a
// kit source parses back (ATTN_ARGS, the backward's macros).
#define BOOST_TEST_MODULE kit
#include <boost/test/unit_test.hpp>

#include <unistd.h>
#include <csignal>
#include <cstdio>

#include "bench/gpu/KitBackward.h"
#include "bench/gpu/KitInputs.h"
#include "bench/gpu/KitIsolate.h"

using namespace attn;
using namespace attn::kit;

namespace {

std::vector<ArgSpec> args_of(const std::string& macro) {
  bool lse = false;
  return parse_args("\n#define ATTN_ARGS \"" + macro + "\"\n", lse);
}

}  // namespace

BOOST_AUTO_TEST_CASE(literal_dimensions_keep_their_value) {
  const std::vector<ArgSpec> args = args_of("edges:f32[heads,3,edge_types] type:i32[len,len] n:i32");
  BOOST_TEST_REQUIRE(args.size() == 3u);
  BOOST_TEST(!args[2].buffer);
  std::mt19937 rng(1);
  const std::vector<HostTensor> b = make_buffers(args, 4, 333, rng);
  BOOST_TEST_REQUIRE(b.size() == 2u);
  BOOST_TEST(b[0].shape == (std::vector<int64_t>{4, 3, kOtherExtent}));
  BOOST_TEST(b[1].shape == (std::vector<int64_t>{333, 333}));
  // The old sizing (every non-head dimension the length) would have been 4 x 333 x 333 floats.
  BOOST_TEST(buffer_bytes(args, 4, 333) == int64_t(4 * 3 * kOtherExtent * 4 + 333 * 333 * 4));
  // Edge types index the literal dimension's buffer too: every value below 3.
  for (int64_t i = 0; i < b[1].numel(); ++i) BOOST_TEST_REQUIRE((b[1].get(i) >= 0 && b[1].get(i) < 3));
}

BOOST_AUTO_TEST_CASE(dimension_kinds) {
  BOOST_TEST((dim_kind("heads") == DimKind::Heads));
  BOOST_TEST((dim_kind("len") == DimKind::Length));
  BOOST_TEST((dim_kind("kv_len") == DimKind::Length));
  BOOST_TEST((dim_kind("seq") == DimKind::Length));
  BOOST_TEST((dim_kind("tiles") == DimKind::Tiles));
  BOOST_TEST((dim_kind("128") == DimKind::Literal));
  BOOST_TEST((dim_kind("docs") == DimKind::Other));
  BOOST_TEST(dim_extent("tiles", 4, 3001) == 188);  // ceil(3001 / 16)
  BOOST_TEST(dim_extent("128", 4, 3001) == 128);
}

BOOST_AUTO_TEST_CASE(document_ids_index_the_start_table) {
  // packed(causal, doc, start): start[doc[q]] must be in range at a 32k-key decode shape.
  const std::vector<ArgSpec> args = args_of("doc:i32[len] start:i32[docs]");
  std::mt19937 rng(2);
  const std::vector<HostTensor> b = make_buffers(args, 32, 32768, rng);
  const int64_t docs = b[1].shape[0];
  double last = 0;
  for (int64_t i = 0; i < b[0].numel(); ++i) {
    BOOST_TEST_REQUIRE((b[0].get(i) >= last && b[0].get(i) < docs));  // sorted, in range
    last = b[0].get(i);
  }
  BOOST_TEST(last > 100);  // many documents, not one
  for (int64_t i = 0; i < b[1].numel(); ++i) BOOST_TEST_REQUIRE(b[1].get(i) == 0);
}

BOOST_AUTO_TEST_CASE(the_out_of_range_variant_has_extent_one) {
  const std::vector<HostTensor> b =
      make_out_of_range_buffers(args_of("s:f32[heads] t:i32[heads,tiles,top_k] n:f32"));
  BOOST_TEST_REQUIRE(b.size() == 2u);
  BOOST_TEST(b[0].shape == (std::vector<int64_t>{1}));
  BOOST_TEST(b[1].shape == (std::vector<int64_t>{1, 1, 1}));
}

BOOST_AUTO_TEST_CASE(a_dying_kernel_costs_only_itself) {
  // Item 1 kills its worker; items 0, 2 and 3 still report (1 failure each from work(), by design).
  std::vector<std::string> seen;
  char path[] = "/tmp/attnc-kit-XXXXXX";
  const int fd = mkstemp(path);
  BOOST_TEST_REQUIRE(fd >= 0);
  auto work = [&](size_t i) -> int {
    if (i == 1) raise(SIGKILL);
    const std::string line = std::to_string(i) + "\n";
    BOOST_TEST_REQUIRE(write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size()));
    return 1;
  };
  const int failures = run_isolated(
      4, work, [](size_t i) { return "kernel" + std::to_string(i); }, 30);
  BOOST_TEST(failures == 4);  // three reported failures and one death
  char text[64] = {};
  BOOST_TEST_REQUIRE(pread(fd, text, sizeof text - 1, 0) >= 0);
  close(fd);
  unlink(path);
  BOOST_TEST(std::string(text) == "0\n2\n3\n");
}

BOOST_AUTO_TEST_CASE(random_tensors_are_standard_normal) {
  std::mt19937 rng(3);
  const HostTensor t = random_tensor(ScalarType::F32, {1, 1, 1000, 64}, rng);
  double sum = 0, sq = 0;
  for (int64_t i = 0; i < t.numel(); ++i) sum += t.get(i), sq += t.get(i) * t.get(i);
  BOOST_TEST(std::abs(sum / double(t.numel())) < 0.02);
  BOOST_TEST(std::abs(sq / double(t.numel()) - 1.0) < 0.03);
}

BOOST_AUTO_TEST_CASE(a_backward_source_parses_back) {
  const std::string text =
      "x\n#define ATTN_BWD_PRE attn_bwd_pre_k\n#define ATTN_BWD_DKDV attn_bwd_dkdv_k\n"
      "#define ATTN_BWD_DQ attn_bwd_dq_k\n#define ATTN_BWD_GRAD attn_bwd_grad_k\n#define ATTN_DTYPE_BF16 0\n"
      "#define ATTN_D 128\n#define ATTN_DV 64\n#define ATTN_WARPS 8\n#define ATTN_BWD_BM 64 /* queries "
      "*/\n#define ATTN_SCALE 0.125 /* scale */\n"
      "#define ATTN_BWD_BN 64 /* keys */\n#define ATTN_BWD_DKDV_SMEM 33280\n#define ATTN_BWD_DQ_SMEM 65536\n"
      "#define ATTN_BWD_SITE_BUFFERS \"slopes,table\"\n";
  const BackwardSource s = parse_backward_source(text);
  BOOST_TEST(s.dkdv == "attn_bwd_dkdv_k");
  BOOST_TEST(s.threads == 256);
  BOOST_TEST(s.block_m == 64);
  BOOST_TEST(s.value_dim == 64);
  BOOST_TEST(s.scale == 0.125);
  BOOST_TEST((s.dtype == ScalarType::F16));
  BOOST_TEST(s.site_buffers == (std::vector<std::string>{"slopes", "table"}));
  BOOST_TEST(s.tile_plan.empty());
  BOOST_CHECK_THROW(parse_backward_source("not a backward"), std::invalid_argument);
}
