// Split-KV's merge (backends/cuda/device/attn_split_merge.cuh), on the host: a row's keys cut into
// shares, each share's unnormalized O, max and sum computed the way a CTA leaves them, merged;
// the result must be the softmax over all keys, with a sink folded in once and the row maxima
// kept. And the grids launches get (runtime/CudaGrid.h): share counts, heads packed for decoding.
#define BOOST_TEST_MODULE split_merge
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "runtime/CudaGrid.h"

#include "tests/cuda/HostIntrinsics.h"
#define ATTN_LOAD_SHARED_RESULT(ptr) (*(ptr))
#include "backends/cuda/device/attn_split_merge.cuh"

namespace {

/// One row of `keys` scores (log2 units, -inf = masked) and values [keys][dv], split into
/// `splits` equal shares, with a sink of logit `t` (natural units, -inf: none); checks the merged
/// row, its LSE and its largest kept score against a direct softmax over the keys and the sink.
void check_row(const std::vector<float>& s, const std::vector<float>& v, int dv, int splits,
               float t = -INFINITY) {
  const int keys = static_cast<int>(s.size());
  const int share = (keys + splits - 1) / splits;
  std::vector<float> slots(static_cast<size_t>(splits * (dv + 2)), 0.f);
  for (int sp = 0; sp < splits; ++sp) {
    float* slot = slots.data() + sp * (dv + 2);
    float m = -INFINITY, l = 0;
    for (int k = sp * share; k < std::min(keys, (sp + 1) * share); ++k) m = std::max(m, s[k]);
    for (int k = sp * share; k < std::min(keys, (sp + 1) * share); ++k) {
      if (s[k] == -INFINITY) continue;
      const float w = std::exp2(s[k] - m);
      l += w;
      for (int c = 0; c < dv; ++c) slot[c] += w * v[k * dv + c];
    }
    slot[dv] = m, slot[dv + 1] = l;
  }
  // The sink is one more key of value 0 and score t / ln 2 in log2 units.
  const double t2 = t / std::log(2.0);
  double m = t2, l = 0;
  for (float x : s) m = std::max<double>(m, x);
  const double kept = *std::max_element(s.begin(), s.end()) * std::log(2.0);
  std::vector<double> want(static_cast<size_t>(dv), 0.0);
  if (m != -INFINITY) {
    if (t != -INFINITY) l += std::exp2(t2 - m);
    for (int k = 0; k < keys; ++k) {
      if (s[k] == -INFINITY) continue;
      const double w = std::exp2(s[k] - m);
      l += w;
      for (int c = 0; c < dv; ++c) want[c] += w * v[k * dv + c];
    }
  }
  for (int c = 0; c < dv; ++c) {
    float lse = 0, max = 0;
    const float got = attn_dev::merge_partial_row(slots.data(), splits, dv, c, t, c == 0 ? &lse : nullptr,
                                                  c == 0 ? &max : nullptr);
    BOOST_TEST(got == (l > 0 ? want[c] / l : 0.0), boost::test_tools::tolerance(1e-5));
    if (c == 0) {
      if (l > 0)
        BOOST_TEST(lse == m * std::log(2.0) + std::log(l), boost::test_tools::tolerance(1e-5));
      else
        BOOST_TEST(lse == -std::numeric_limits<float>::infinity());
      if (std::isinf(kept))
        BOOST_TEST(max == kept);
      else
        BOOST_TEST(max == kept, boost::test_tools::tolerance(1e-5));
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(merged_shares_equal_the_whole_row) {
  std::mt19937 rng(5);
  std::normal_distribution<float> n(0.f, 3.f);
  for (int splits : {2, 3, 11}) {
    std::vector<float> s(100), v(100 * 8);
    for (float& x : s) x = n(rng);
    for (float& x : v) x = n(rng);
    check_row(s, v, 8, splits);
    for (float& x : s) x += 200.f;  // 2^200 overflows f32: the merge must rescale by the max
    check_row(s, v, 8, splits);
    for (int k = 0; k < 60; ++k) s[k] = -INFINITY;  // early shares see no allowed key
    check_row(s, v, 8, splits);
    for (float& x : s) x = -INFINITY;  // a fully masked row: 0 and -inf
    check_row(s, v, 8, splits);
  }
}

BOOST_AUTO_TEST_CASE(sinks_join_the_row_once) {
  // The kernel option `sink`: one more key of value 0, folded in after the merge, whether its
  // logit is below, among or above the scores, or the row kept no key (Out 0, LSE the logit).
  std::mt19937 rng(7);
  std::normal_distribution<float> n(0.f, 3.f);
  for (int splits : {1, 2, 5}) {
    std::vector<float> s(64), v(64 * 4);
    for (float& x : s) x = n(rng);
    for (float& x : v) x = n(rng);
    for (float t : {-20.f, 0.f, 2.5f, 40.f}) check_row(s, v, 4, splits, t);
    for (int k = 0; k < 40; ++k) s[k] = -INFINITY;
    check_row(s, v, 4, splits, 1.f);
    for (float& x : s) x = -INFINITY;
    check_row(s, v, 4, splits, -3.f);
  }
  // The row's end on its own (finish_row): a row that kept no key gives Out 0 and LSE t; a sink of
  // +Inf takes the whole weight (Out 0, LSE +Inf); a NaN sink makes the row NaN; -inf is no sink.
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  float lse = 0;
  BOOST_TEST(attn_dev::finish_row(-inf, 0.f, 1.5f, &lse) == 0.f);
  BOOST_TEST(lse == 1.5f, boost::test_tools::tolerance(1e-6f));
  BOOST_TEST(attn_dev::finish_row(3.f, 2.f, inf, &lse) == 0.f);
  BOOST_TEST(lse == inf);
  BOOST_TEST(std::isnan(attn_dev::finish_row(3.f, 2.f, nan, &lse)));
  BOOST_TEST(std::isnan(lse));
  BOOST_TEST(attn_dev::finish_row(3.f, 2.f, -inf, &lse) == 0.5f);
  BOOST_TEST(lse == 3.f * std::log(2.f) + std::log(2.f), boost::test_tools::tolerance(1e-6f));
  BOOST_TEST(attn_dev::finish_row(-inf, 0.f, -inf, &lse) == 0.f);
  BOOST_TEST(lse == -inf);
  // Keys at +Inf share the row with a sink at +Inf: 2 keys and the sink, each a third.
  BOOST_TEST(attn_dev::finish_row(inf, 2.f, inf, &lse) == 1.f / 3.f, boost::test_tools::tolerance(1e-6f));
  // return_max: the kept keys' max in natural units, NaN for a NaN sum, -inf for no key.
  BOOST_TEST(attn_dev::kept_max(2.f, 1.f) == 2.f * std::log(2.f), boost::test_tools::tolerance(1e-6f));
  BOOST_TEST(std::isnan(attn_dev::kept_max(2.f, nan)));
  BOOST_TEST(attn_dev::kept_max(-inf, 0.f) == -inf);
}

BOOST_AUTO_TEST_CASE(non_finite_scores_merge_by_the_rule) {
  // docs/language.md, "Non-finite values": keys scoring +Inf share the row (Out their mean, LSE
  // +Inf), a NaN score makes the row NaN. Each share computed as a kernel computes it (fmaxf
  // drops NaN, softmax_weight), four keys in two shares of two.
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> v = {1, 2, 3, 4, 5, 6, 7, 8};  // [4 keys][dv 2]
  auto merged = [&](const std::vector<float>& s, float* lse) {
    std::vector<float> slots(2 * 4, 0.f);
    for (int sp = 0; sp < 2; ++sp) {
      float* slot = slots.data() + sp * 4;
      float m = -inf, l = 0;
      for (int k = 2 * sp; k < 2 * sp + 2; ++k) m = std::fmax(m, s[k]);
      const float base = m == -inf ? 0.f : m;
      for (int k = 2 * sp; k < 2 * sp + 2; ++k) {
        const float w = attn_dev::softmax_weight(s[k], std::exp2(s[k] - base));
        l += w;
        for (int c = 0; c < 2; ++c) slot[c] += w * v[k * 2 + c];
      }
      slot[2] = m, slot[3] = l;
    }
    return std::vector<float>{attn_dev::merge_partial_row(slots.data(), 2, 2, 0, -inf, lse, nullptr),
                              attn_dev::merge_partial_row(slots.data(), 2, 2, 1, -inf, nullptr, nullptr)};
  };
  float lse = 0;
  std::vector<float> o = merged({0.5f, inf, 3.f, inf}, &lse);  // keys 1 and 3, in different shares
  BOOST_TEST(o[0] == 5.f);
  BOOST_TEST(o[1] == 6.f);
  BOOST_TEST(lse == inf);
  o = merged({inf, 1.f, -inf, -inf}, &lse);  // the second share has no key
  BOOST_TEST((o[0] == 1.f && o[1] == 2.f && lse == inf));
  o = merged({0.5f, 1.f, nan, 2.f}, &lse);
  BOOST_TEST((std::isnan(o[0]) && std::isnan(o[1]) && std::isnan(lse)));
  o = merged({nan, inf, 1.f, 2.f}, &lse);  // NaN wins over +Inf
  BOOST_TEST((std::isnan(o[0]) && std::isnan(lse)));
}

BOOST_AUTO_TEST_CASE(shares_fill_the_device) {
  // Enough launches already: no split. Few: about two CTAs per SM, at least 4 key tiles a share,
  // at most 64 shares.
  BOOST_TEST(attn::cuda_kv_splits(132, 132, 1000) == 1);
  BOOST_TEST(attn::cuda_kv_splits(132, 256, 1000) == 1);
  BOOST_TEST(attn::cuda_kv_splits(132, 8, 1000) == 33);
  BOOST_TEST(attn::cuda_kv_splits(132, 8, 47) == 11);
  BOOST_TEST(attn::cuda_kv_splits(132, 8, 3) == 1);
  BOOST_TEST(attn::cuda_kv_splits(132, 1, 100000) == 64);
  BOOST_TEST(attn::cuda_kv_splits(0, 8, 1000) == 1);
}

BOOST_AUTO_TEST_CASE(decoding_grids_pack_heads_and_split_keys) {
  attn::CudaLaunchInfo info;
  info.block_m = 128, info.block_n = 64, info.pack_heads = true;
  // docs/performance.md's decoding row: 32 query heads over 8 key/value heads, 32768 keys, on 132 SMs.
  // One tile per key/value head (its 4 query heads are the rows), 64 tiles, 5 shares each.
  attn::CudaGrid g = attn::plan_cuda_grid(info, 132, 8, 32, 8, 1, 32768);
  BOOST_TEST(g.pack_heads);
  BOOST_TEST(g.kv_splits == 5);
  BOOST_TEST(g.tiles == 64);
  BOOST_TEST((g.grid[0] == 5 && g.grid[1] == 8 && g.grid[2] == 8));
  // A kernel whose mask reads the head: one tile per query head, 256 of them fill the GPU.
  info.pack_heads = false;
  g = attn::plan_cuda_grid(info, 132, 8, 32, 8, 1, 32768);
  BOOST_TEST(!g.pack_heads);
  BOOST_TEST(g.kv_splits == 1);
  BOOST_TEST((g.grid[0] == 1 && g.grid[1] == 32 && g.grid[2] == 8));
  // Prefill: plenty of query tiles, no packing (Lq > 1), no split; a forced split count wins.
  info.pack_heads = true;
  g = attn::plan_cuda_grid(info, 132, 4, 16, 16, 8192, 8192);
  BOOST_TEST((!g.pack_heads && g.kv_splits == 1 && g.grid[0] == 64 && g.grid[1] == 16 && g.grid[2] == 4));
  g = attn::plan_cuda_grid(info, 132, 1, 4, 2, 70, 2600, 3);
  BOOST_TEST((g.kv_splits == 3 && g.grid[0] == 3 && g.grid[1] == 4));
  // 40 query heads a group fill 40 rows of one tile per key/value head; 64 key tiles, 16 shares.
  g = attn::plan_cuda_grid(info, 132, 1, 80, 2, 1, 4096);
  BOOST_TEST((g.pack_heads && g.grid[1] == 2 && g.tiles == 2 && g.kv_splits == 16));
}
