// The CUDA backward checked on the host, without a GPU: the printed derivatives against the
// reference evaluator; the per-row rule for rows at +Inf and rows that reach no key
// (attn_bwd_rows.cuh) driving the kernels' per-element steps against the reference backward; both
// kernels' tile walks (KeyTiles for dq, QueryTiles for dkdv), with and without the run-time plan,
// against a brute-force scan of the mask; and the plan's transposition on random plans.
// (test_cuda compiles the kernels; test_cuda_gpu runs them.)
#define BOOST_TEST_MODULE cuda_backward
#include <boost/test/unit_test.hpp>

#include <dlfcn.h>

#include <cmath>
#include <cstring>
#include <random>
#include <set>

#include "attn/cuda_abi.h"
#include "attn/cuda_backward_abi.h"
#include "backends/cuda/CudaBackward.h"
#include "backends/cuda/CudaDeviceText.h"
#include "backends/cuda/CudaPrinter.h"
#include "backends/reference/EvalExpr.h"
#include "backends/reference/Reference.h"
#include "codegen/KernelIR.h"
#include "codegen/Lower.h"
#include "codegen/ScoreGradient.h"
#include "runtime/TilePlanner.h"
#include "tests/cuda/CudaTestKernels.h"
#include "tests/cuda/HostDeviceCode.h"
#include "tests/support/CheckedLowering.h"
#include "tests/support/TestSupport.h"

// The device header compiled for the host: the intrinsics it calls first.
#include "tests/cuda/HostIntrinsics.h"

#include "backends/cuda/device/attn_bwd_rows.cuh"

using namespace attn;

namespace {

// Rows 0-4 reach no key, rows q % 5 == 4 score -inf everywhere, and rows q % 3 == 0 have keys at
// +Inf (kv % 4 == 1: one to four of them).
const char* kInfRows = R"attn(
kernel inf_rows {
  mask = q >= 5 && kv <= q;
  score = q % 5 == 4 ? -inf : (q % 3 == 0 && kv % 4 == 1 ? inf : 20.0 * tanh(score / 20.0));
  head_dim = 16; lse = true;
}
kernel inf_rows_bf16 {
  mask = q >= 5 && kv <= q;
  score = q % 5 == 4 ? -inf : (q % 3 == 0 && kv % 4 == 1 ? inf : 20.0 * tanh(score / 20.0));
  dtype = bf16; head_dim = 64; lse = true;
}
)attn";

std::shared_ptr<const KernelIR> inf_rows_kernel(const std::string& name) {
  return test::lower_checked(*test::load_checked_text("inf_rows.attn", kInfRows), name);
}

HostTensor random_f32(std::vector<int64_t> shape, std::mt19937& rng) {
  HostTensor x(ScalarType::F32, std::move(shape));
  std::normal_distribution<double> n(0.0, 1.0);
  for (int64_t i = 0; i < x.numel(); ++i) x.set(i, n(rng));
  return x;
}

}  // namespace

// attn_score_grad, attn_site_partial and attn_site_offset, and the sink's attn_sink_site_partial
// and attn_sink_site_offset, compiled for the host, against ScoreGradient's expressions evaluated by
// the reference at random points.
BOOST_AUTO_TEST_CASE(printed_gradients_match_the_reference) {
  std::vector<std::string> errors;
  std::vector<test::TestKernel> kernels = test::cuda_test_kernels(errors);
  std::string src = test::host_device_prelude() + cuda_device_text("attn_bwd_expr.cuh");
  int with_sites = 0, with_sink_sites = 0;
  for (size_t i = 0; i < kernels.size(); ++i) {
    const std::string k = "g" + std::to_string(i);
    src += "namespace " + k + " {\n" + print_cuda_gradient_functions(*kernels[i].ir).text + "}\n";
    src += "extern \"C\" float " + k +
           "_dscore(float s, int b, int h, int q, int kv, const attn_cuda_params* p) { return " + k +
           "::attn_score_grad(s, b, h, q, kv, *p); }\n";
    src += "extern \"C\" float " + k +
           "_partial(int site, float s, int b, int h, int q, int kv, const attn_cuda_params* p) { return " +
           k + "::attn_site_partial(site, s, b, h, q, kv, *p); }\n";
    src += "extern \"C\" long long " + k +
           "_offset(int site, int b, int h, int q, int kv, const attn_cuda_params* p) { return " + k +
           "::attn_site_offset(site, b, h, q, kv, *p); }\n";
    if (!differentiate_sink(*kernels[i].ir).reads.empty()) {
      src += "extern \"C\" float " + k +
             "_sink_partial(int site, float, int b, int h, int q, int, const attn_cuda_params* p) { return " +
             k + "::attn_sink_site_partial(site, b, h, q, *p); }\n";
      src += "extern \"C\" long long " + k +
             "_sink_offset(int site, int b, int h, int q, int, const attn_cuda_params* p) { return " + k +
             "::attn_sink_site_offset(site, b, h, q, *p); }\n";
    }
  }
  test::TempDir tmp;
  void* so = test::load_host_library(tmp.path(), src);

  std::mt19937 rng(7);
  for (size_t i = 0; i < kernels.size(); ++i) {
    const KernelIR& ir = *kernels[i].ir;
    const std::string k = "g" + std::to_string(i);
    using DscoreFn = float (*)(float, int, int, int, int, const attn_cuda_params*);
    using PartialFn = float (*)(int, float, int, int, int, int, const attn_cuda_params*);
    using OffsetFn = long long (*)(int, int, int, int, int, const attn_cuda_params*);
    auto dscore_fn = reinterpret_cast<DscoreFn>(dlsym(so, (k + "_dscore").c_str()));
    auto partial_fn = reinterpret_cast<PartialFn>(dlsym(so, (k + "_partial").c_str()));
    auto offset_fn = reinterpret_cast<OffsetFn>(dlsym(so, (k + "_offset").c_str()));
    BOOST_REQUIRE(dscore_fn && partial_fn && offset_fn);
    test::HostArguments args(ir, rng);
    const ArgValues& values = args.values;
    const attn_cuda_params& p = args.params;
    attn_cuda_error& err = args.error;
    const ScoreGradient g = differentiate_score(ir), sink = differentiate_sink(ir);
    with_sites += !g.reads.empty();
    with_sink_sites += !sink.reads.empty();
    auto sink_partial_fn = reinterpret_cast<PartialFn>(dlsym(so, (k + "_sink_partial").c_str()));
    auto sink_offset_fn = reinterpret_cast<OffsetFn>(dlsym(so, (k + "_sink_offset").c_str()));
    BOOST_REQUIRE((sink.reads.empty() || (sink_partial_fn && sink_offset_fn)));
    CompiledExpr dscore(g.dscore, ir);
    auto close = [](double got, double want) {
      return (std::isnan(got) && std::isnan(want)) ||
             std::abs(got - want) <= 1e-4 * std::max(1.0, std::abs(want));
    };
    int mismatches = 0;
    // Each read site's printed partial and offset against the reference at `pt`: the score's
    // sites, or the sink's (`what`).
    auto check_sites = [&](const std::vector<BufferGradient>& reads, PartialFn partial_at, OffsetFn offset_at,
                           const char* what, const EvalPoint& pt) {
      const int b = pt.idx[0], h = pt.idx[1], q = pt.idx[2], kv = pt.idx[3];
      for (size_t site = 0; site < reads.size(); ++site) {
        try {
          const double want = CompiledExpr(reads[site].partial, ir).eval(pt, values);
          const float got = partial_at(static_cast<int>(site), static_cast<float>(pt.score), b, h, q, kv, &p);
          if (!close(got, want)) {
            ++mismatches;
            BOOST_ERROR(kernels[i].label << ": " << what << " site " << site << " partial: " << got << " vs "
                                         << want);
          }
          long long flat = 0;
          bool inside = true;
          const HostTensor* buf = nullptr;
          for (size_t a = 0; a < ir.args.size(); ++a)
            if (ir.args[a].name == reads[site].buffer) buf = values.buffers[a];
          for (size_t d = 0; d < reads[site].index.size(); ++d) {
            const long long x =
                static_cast<long long>(CompiledExpr(reads[site].index[d], ir).eval(pt, values));
            inside = inside && x >= 0 && x < buf->shape[d];
            flat = flat * buf->shape[d] + x;
          }
          err.flag = 0;
          const long long got_offset = offset_at(static_cast<int>(site), b, h, q, kv, &p);
          BOOST_TEST(got_offset == (inside ? flat : -1),
                     kernels[i].label << ": " << what << " site " << site << " offset");
          BOOST_TEST(err.flag == (inside ? 0 : 1),
                     kernels[i].label << ": " << what << " site " << site << " error report");
        } catch (const EvalError&) {
        }
      }
    };
    for (int n = 0; n < 500 && mismatches < 5; ++n) {
      EvalPoint pt;
      for (int d = 0; d < 4; ++d) pt.idx[d] = static_cast<int32_t>(rng() % (d == 0 ? 2 : d == 1 ? 4 : 300));
      pt.score = 0.01 * static_cast<double>(static_cast<int>(rng() % 2000) - 1000);
      const int b = pt.idx[0], h = pt.idx[1], q = pt.idx[2], kv = pt.idx[3];
      const float s = static_cast<float>(pt.score);
      try {
        const double want = dscore.eval(pt, values);
        const float got = dscore_fn(s, b, h, q, kv, &p);
        if (!close(got, want)) {
          ++mismatches;
          BOOST_ERROR(kernels[i].label << ": d score'/d score at " << q << ", " << kv << ": " << got << " vs "
                                       << want);
        }
      } catch (const EvalError&) {  // a load out of range at this point: not a point the kernel reaches
      }
      check_sites(g.reads, partial_fn, offset_fn, "score", pt);
      if (!sink.reads.empty()) check_sites(sink.reads, sink_partial_fn, sink_offset_fn, "sink", pt);
    }
  }
  BOOST_TEST(with_sites >= 2);
  BOOST_TEST(with_sink_sites >= 2);
  dlclose(so);
}

// The backward's per-element steps as the kernels take them, in float, with attn_bwd_rows.cuh's
// rule: attn_bwd_pre's delta (the share of each key at +Inf in a row at +Inf), the dV warps'
// weights with that share, dS and dQ/dK from weights with share 0. Rows at +Inf, rows at -inf and
// rows that reach no key must give the reference backward's gradients, with no NaN.
BOOST_AUTO_TEST_CASE(rows_at_inf_follow_the_reference_backward) {
  auto ir = inf_rows_kernel("inf_rows");
  const int64_t Hq = 2, L = 40, D = 16;
  const double scale = ir->options.scale.value_or(1.0 / std::sqrt(double(D)));
  std::mt19937 rng(5);
  KernelInputs in;
  in.q = random_f32({1, Hq, L, D}, rng);
  in.k = random_f32({1, 1, L, D}, rng);
  in.v = random_f32({1, 1, L, D}, rng);
  GradientRequest request;
  request.dout = random_f32({1, Hq, L, D}, rng);
  request.dlse = random_f32({1, Hq, L}, rng);
  const KernelOutputs fwd = run_reference(*ir, in);
  const KernelGradients ref = run_reference_backward(*ir, in, request, 0);

  const ScoreGradient grad = differentiate_score(*ir);
  const CompiledExpr mask(ir->mask, *ir), score(ir->score, *ir), dscore(grad.dscore, *ir);
  const ArgValues none;
  auto row = [](const HostTensor& t, int64_t i) { return t.data<float>() + i * t.shape[3]; };
  auto dot = [&](const float* a, const float* b) {
    float s = 0.f;
    for (int64_t c = 0; c < D; ++c) s += a[c] * b[c];
    return s;
  };
  std::vector<float> dq(size_t(Hq * L * D), 0.f), dk(size_t(L * D), 0.f), dv(size_t(L * D), 0.f);
  int rows_at_inf = 0, rows_at_minus_inf = 0, naive_nan_rows = 0;
  for (int64_t h = 0; h < Hq; ++h)
    for (int64_t q = 0; q < L; ++q) {
      const float* qr = row(in.q, h * L + q);
      const float* dor = row(request.dout, h * L + q);
      // Each allowed key's score in log2 units and ds'/ds, as log2_score and attn_score_grad give them.
      std::vector<float> s2(static_cast<size_t>(L)), ds(static_cast<size_t>(L));
      std::vector<bool> allowed(static_cast<size_t>(L));
      float ties = 0.f;
      for (int64_t kv = 0; kv < L; ++kv) {
        EvalPoint pt;
        pt.idx[1] = int32_t(h), pt.idx[2] = int32_t(q), pt.idx[3] = int32_t(kv);
        allowed[size_t(kv)] = mask.eval(pt, none) != 0;
        pt.score = double(dot(qr, row(in.k, kv)) * float(scale));
        s2[size_t(kv)] = float(score.eval(pt, none)) * 1.4426950408889634f;
        ds[size_t(kv)] = float(dscore.eval(pt, none));
        ties += allowed[size_t(kv)] && s2[size_t(kv)] == INFINITY ? 1.f : 0.f;
      }
      const float lse = fwd.lse.data<float>()[h * L + q];
      rows_at_inf += lse == INFINITY;
      rows_at_minus_inf += lse == -INFINITY && q >= 5;
      const float delta =
          attn_dev::row_delta(lse, dot(row(fwd.out, h * L + q), dor), request.dlse.data<float>()[h * L + q],
                              lse == INFINITY ? ties : 0.f);
      const float lse2 = attn_dev::lse_log2(lse);
      bool naive_nan = false;
      for (int64_t kv = 0; kv < L; ++kv) {
        if (!allowed[size_t(kv)]) continue;
        const float e = std::exp2(s2[size_t(kv)] - lse2);
        naive_nan |= std::isnan(e);
        const float p_dv = attn_dev::row_weight(s2[size_t(kv)], lse2, delta, e);
        const float p = attn_dev::row_weight(s2[size_t(kv)], lse2, 0.f, e);
        for (int64_t c = 0; c < D; ++c) dv[size_t(kv * D + c)] += p_dv * dor[c];
        if (p == 0.f) continue;  // element_dscore
        const float dsp = p * (dot(dor, row(in.v, kv)) - delta);
        const float dsc = dsp * ds[size_t(kv)] * float(scale);
        for (int64_t c = 0; c < D; ++c) {
          dq[size_t((h * L + q) * D + c)] += dsc * row(in.k, kv)[c];
          dk[size_t(kv * D + c)] += dsc * qr[c];
        }
      }
      naive_nan_rows += naive_nan;
      // Rows at +Inf, at -inf and rows that reach no key pass nothing through their scores.
      if (lse == INFINITY || lse == -INFINITY)
        for (int64_t c = 0; c < D; ++c)
          BOOST_TEST(dq[size_t((h * L + q) * D + c)] == 0.f, "dQ of row " << q << " (LSE " << lse << ")");
    }
  // The inputs reach the rule: without it these rows' weights are NaN.
  BOOST_TEST(rows_at_inf >= 10);
  BOOST_TEST(rows_at_minus_inf >= 6);
  BOOST_TEST(naive_nan_rows == rows_at_inf);
  auto check = [](const std::vector<float>& got, const HostTensor& want, const char* what) {
    double worst = 0, scale = 1;
    for (int64_t i = 0; i < want.numel(); ++i) scale = std::max(scale, std::abs(want.get(i)));
    for (int64_t i = 0; i < want.numel(); ++i)
      worst =
          std::max(worst, std::isfinite(got[size_t(i)]) ? std::abs(got[size_t(i)] - want.get(i)) : INFINITY);
    BOOST_TEST(worst / scale <= 1e-4, what << ": max relative error " << worst / scale);
  };
  check(dq, ref.dq, "dQ");
  check(dk, ref.dk, "dK");
  check(dv, ref.dv, "dV");
  // The generated backward carries the rule: its text, and attn_bwd_pre's and the weights' calls.
  const CudaBackwardSource src = print_cuda_backward(*inf_rows_kernel("inf_rows_bf16"), {});
  BOOST_TEST(src.cu.find(cuda_device_text("attn_bwd_rows.cuh")) != std::string::npos);
  BOOST_TEST(src.cu.find("row_delta(lse, sum,") != std::string::npos);
  BOOST_TEST(src.cu.find("row_weight(s2, lse2, share,") != std::string::npos);
}

namespace {

/// One walk's visits: per (head, outer tile) the inner tiles it visits, and whether unchecked.
struct Walk {
  std::vector<std::vector<std::pair<int, bool>>> visits;  // [h * outer + tile]
};

}  // namespace

// Both kernels' walks over the tiles of masks that read buffers, compiled for the host from the
// device text: dq's KeyTiles per query tile and dkdv's QueryTiles per key tile, with the run-time
// plan (plan_cuda_backward_tiles, as the launcher uploads it) and without it. Every tile with an
// allowed element is visited, every tile visited unchecked is full, in bounds; with the plan the
// two walks visit the same tiles, and for sorted document ids exactly the tiles a brute-force scan
// finds non-empty, fewer than without it.
BOOST_AUTO_TEST_CASE(backward_tile_walks_cover_the_mask) {
  std::vector<std::string> errors;
  std::vector<test::TestKernel> kernels;
  std::vector<CudaBackwardSource> sources;
  for (test::TestKernel& k : test::cuda_test_kernels(errors)) {
    // Documents-like masks (buffers along the sequence), which a brute-force scan affords.
    bool along_sequence = true;
    for (const KernelArg& a : k.ir->args)
      along_sequence &= a.kind == KernelArg::Kind::Scalar || a.dims.size() == 1;
    if (!along_sequence) continue;
    try {
      CudaBackwardSource src = print_cuda_backward(*k.ir, {});
      if (src.tile_plan.empty()) continue;
      kernels.push_back(k);
      sources.push_back(std::move(src));
    } catch (const KernelLimitError&) {  // no CUDA backward for this dtype or head dim
    }
  }
  BOOST_REQUIRE(kernels.size() >= 3u);
  std::string src = test::host_device_prelude() + "#define ATTN_PACK_HEADS 0  // as the backward has it\n";
  for (size_t i = 0; i < kernels.size(); ++i) {
    const std::string k = "w" + std::to_string(i);
    src += "namespace " + k + " {\n" + print_cuda_device_functions(*kernels[i].ir) +
           cuda_device_text("attn_split_merge.cuh") + cuda_device_text("attn_tiles.cuh") +
           cuda_device_text("attn_bwd_tiles.cuh") + "}\n";
    // The walks' loops as attn_bwd_dq and attn_bwd_dkdv write them (64 x 64 tiles).
    src += "extern \"C\" int " + k +
           "_dq(const attn_cuda_params* p, int b, int h, int qt, int* tile, int* unchecked) {\n"
           "  using namespace " +
           k +
           "::attn_dev;\n"
           "  const int q0 = qt * 64;\n"
           "  const KeyTiles t(*p, b, h, qt, q0, min(q0 + 64, p->q_len) - 1, (p->kv_len + 63) / 64);\n"
           "  int n = 0;\n"
           "  for (int kt = t.next(*p, -1, 64); kt < t.kv_tiles; kt = t.next(*p, kt, 64), ++n)\n"
           "    tile[n] = kt, unchecked[n] = t.unchecked(*p, kt, q0, 64, 64);\n"
           "  return n;\n}\n";
    src += "extern \"C\" int " + k +
           "_dkdv(const attn_cuda_bwd_params* bp, int b, int h, int kt, int* tile, int* unchecked) {\n"
           "  using namespace " +
           k +
           "::attn_dev;\n"
           "  const QueryTiles<64, 64> t(*bp, b, h, kt);\n"
           "  int n = 0;\n"
           "  for (int qt = t.next(bp->fwd, -1); qt < t.q_tiles; qt = t.next(bp->fwd, qt), ++n)\n"
           "    tile[n] = qt, unchecked[n] = t.unchecked(bp->fwd, qt);\n"
           "  return n;\n}\n";
  }
  test::TempDir tmp;
  void* so = test::load_host_library(tmp.path(), src);
  using DqFn = int (*)(const attn_cuda_params*, int, int, int, int*, int*);
  using DkdvFn = int (*)(const attn_cuda_bwd_params*, int, int, int, int*, int*);

  const int Lq = 650, Lkv = 580, H = 2, qn = (Lq + 63) / 64, kn = (Lkv + 63) / 64;
  std::mt19937 rng(17);
  int checked_kernels = 0;
  for (size_t i = 0; i < kernels.size(); ++i) {
    const KernelIR& ir = *kernels[i].ir;
    const std::string& label = kernels[i].label;
    auto dq_fn = reinterpret_cast<DqFn>(dlsym(so, ("w" + std::to_string(i) + "_dq").c_str()));
    auto dkdv_fn = reinterpret_cast<DkdvFn>(dlsym(so, ("w" + std::to_string(i) + "_dkdv").c_str()));
    BOOST_REQUIRE(dq_fn && dkdv_fn);
    for (bool sorted : {true, false}) {
      test::HostArguments args(ir, rng, std::max(Lq, Lkv), H);
      // Document ids: sorted, in documents of random lengths (about 100), or random in [0, 4).
      for (HostTensor& t : args.tensors)
        if (t.type == ScalarType::I32) {
          int32_t doc = 0;
          for (int64_t j = 0; j < t.numel(); ++j) {
            if (sorted && j > 0 && rng() % 100 == 0) ++doc;
            t.data<int32_t>()[j] = sorted ? doc : static_cast<int32_t>(rng() % 4);
          }
        }
      // The mask by brute force: per head, whether each tile has an allowed element and whether all
      // of its elements are.
      const CompiledExpr mask(ir.mask, ir);
      std::vector<char> any(size_t(H * qn * kn), 0), all(size_t(H * qn * kn), 1);
      try {
        for (int h = 0; h < H; ++h)
          for (int q = 0; q < Lq; ++q)
            for (int kv = 0; kv < Lkv; ++kv) {
              EvalPoint pt;
              pt.idx[1] = h, pt.idx[2] = q, pt.idx[3] = kv, pt.idx[4] = Lq, pt.idx[5] = Lkv;
              const bool m = mask.eval(pt, args.values) != 0;
              const size_t t = size_t((h * qn + q / 64) * kn + kv / 64);
              any[t] |= m;
              all[t] &= m;
            }
      } catch (const EvalError&) {
        continue;  // these buffers index out of range: not inputs a kernel runs on
      }
      KernelInputs in;
      in.q = HostTensor(ScalarType::BF16, {1, H, Lq, 8});
      in.k = HostTensor(ScalarType::BF16, {1, H, Lkv, 8});
      for (size_t a = 0, t = 0; a < ir.args.size(); ++a)
        if (ir.args[a].kind == KernelArg::Kind::Buffer)
          in.buffers[ir.args[a].name] = args.tensors[t++];
        else
          in.scalars[ir.args[a].name] = 16;
      const CudaBackwardTilePlan plan = plan_cuda_backward_tiles(sources[i], in);
      BOOST_TEST(plan.rows.size() == size_t(qn + 1), label);
      BOOST_TEST(plan.cols.size() == size_t(kn + 1), label);
      ++checked_kernels;

      attn_cuda_bwd_params bp{};
      bp.fwd = args.params;
      bp.fwd.q_len = Lq, bp.fwd.kv_len = Lkv, bp.fwd.q_heads = bp.fwd.kv_heads = H, bp.fwd.batch = 1;
      int tiles[64], unchecked[64];
      for (bool planned : {true, false}) {
        bp.fwd.tile_rows = planned ? plan.rows.data() : nullptr;
        bp.fwd.tile_runs = planned ? plan.runs.data() : nullptr;
        bp.tile_cols = planned ? plan.cols.data() : nullptr;
        bp.tile_col_runs = planned ? plan.col_runs.data() : nullptr;
        // (h, qt, kt) visited by each walk; a tile visited unchecked must be full and in bounds.
        std::set<std::tuple<int, int, int>> by_dq, by_dkdv;
        auto unchecked_ok = [&](int h, int qt, int kt) {
          return all[size_t((h * qn + qt) * kn + kt)] && (qt + 1) * 64 <= Lq && (kt + 1) * 64 <= Lkv;
        };
        for (int h = 0; h < H; ++h) {
          for (int qt = 0; qt < qn; ++qt) {
            const int n = dq_fn(&bp.fwd, 0, h, qt, tiles, unchecked);
            for (int j = 0; j < n; ++j) {
              BOOST_TEST((j == 0 || tiles[j] > tiles[j - 1]), label << ": dq's walk out of order");
              by_dq.insert({h, qt, tiles[j]});
              if (unchecked[j] && !unchecked_ok(h, qt, tiles[j]))
                BOOST_ERROR(label << ": dq visits tile " << qt << ", " << tiles[j] << " unchecked");
            }
          }
          for (int kt = 0; kt < kn; ++kt) {
            const int n = dkdv_fn(&bp, 0, h, kt, tiles, unchecked);
            for (int j = 0; j < n; ++j) {
              BOOST_TEST((j == 0 || tiles[j] > tiles[j - 1]), label << ": dkdv's walk out of order");
              by_dkdv.insert({h, tiles[j], kt});
              if (unchecked[j] && !unchecked_ok(h, tiles[j], kt))
                BOOST_ERROR(label << ": dkdv visits tile " << tiles[j] << ", " << kt << " unchecked");
            }
          }
        }
        const std::string how = label + (planned ? " (run-time plan" : " (no plan") +
                                (sorted ? ", sorted ids)" : ", random ids)");
        size_t non_empty = 0;
        for (int h = 0; h < H; ++h)
          for (int qt = 0; qt < qn; ++qt)
            for (int kt = 0; kt < kn; ++kt) {
              if (!any[size_t((h * qn + qt) * kn + kt)]) continue;
              ++non_empty;
              BOOST_TEST(by_dq.count({h, qt, kt}) == 1u,
                         how << ": dq skips non-empty tile " << qt << ", " << kt);
              BOOST_TEST(by_dkdv.count({h, qt, kt}) == 1u,
                         how << ": dkdv skips non-empty tile " << qt << ", " << kt);
            }
        BOOST_TEST((by_dq == by_dkdv), how << ": the walks visit different tiles");
        BOOST_TEST_MESSAGE(how << ": visits " << by_dq.size() << " tiles, " << non_empty << " non-empty of "
                               << H * qn * kn);
        // Sorted documents: the plan is exact, and it skips what the closed form cannot.
        if (sorted && planned)
          BOOST_TEST(by_dq.size() == non_empty, how << ": visits " << by_dq.size() << " of " << non_empty);
        if (sorted && !planned && kernel_name(ir) == "documents_bf16_128")
          BOOST_TEST(by_dq.size() > non_empty, how << ": visits " << by_dq.size() << " of " << non_empty);
      }
    }
  }
  BOOST_TEST(checked_kernels >= 4);
  dlclose(so);
}

// transpose_tile_grid on random plans (runs of both kinds, touching and apart, empty rows): tile
// (kt, qt) of the transpose has tile (qt, kt)'s kind, and its rows are sorted, disjoint runs with
// touching runs of one kind merged.
BOOST_AUTO_TEST_CASE(transposed_plans_hold_the_same_tiles) {
  std::mt19937 rng(23);
  for (int trial = 0; trial < 200; ++trial) {
    TileGrid g;
    g.q_tiles = 1 + int64_t(rng() % 12), g.kv_tiles = 1 + int64_t(rng() % 12);
    g.q_len = g.q_tiles * 64 - int64_t(rng() % 64), g.kv_len = g.kv_tiles * 32 - int64_t(rng() % 32);
    g.block_q = 64, g.block_kv = 32;
    for (int64_t qt = 0; qt < g.q_tiles; ++qt) {
      g.row_begin.push_back(int64_t(g.runs.size()));
      for (int64_t kt = int64_t(rng() % 3); kt < g.kv_tiles;) {
        const int64_t end = std::min(g.kv_tiles, kt + 1 + int64_t(rng() % 4));
        const TileKind kind = rng() % 2 ? TileKind::Full : TileKind::Partial;
        if (!g.runs.empty() && int64_t(g.runs.size()) > g.row_begin.back() && g.runs.back().end == kt &&
            g.runs.back().kind == kind)
          g.runs.back().end = end;  // a plan merges touching runs of one kind
        else
          g.runs.push_back({kt, end, kind});
        kt = end + int64_t(rng() % 3);
      }
    }
    g.row_begin.push_back(int64_t(g.runs.size()));
    const TileGrid t = transpose_tile_grid(g);
    BOOST_REQUIRE(t.q_tiles == g.kv_tiles && t.kv_tiles == g.q_tiles && t.q_len == g.kv_len);
    BOOST_REQUIRE(t.block_q == g.block_kv && t.row_begin.size() == size_t(g.kv_tiles + 1));
    for (int64_t kt = 0; kt < g.kv_tiles; ++kt) {
      for (int64_t qt = 0; qt < g.q_tiles; ++qt)
        BOOST_TEST(int(t.at(kt, qt)) == int(g.at(qt, kt)),
                   "trial " << trial << ": tile " << qt << ", " << kt);
      for (int64_t r = t.row_begin[kt]; r < t.row_begin[kt + 1]; ++r) {
        BOOST_TEST(t.runs[r].begin < t.runs[r].end);
        if (r > t.row_begin[kt])
          BOOST_TEST((t.runs[r - 1].end < t.runs[r].begin ||
                      (t.runs[r - 1].end == t.runs[r].begin && t.runs[r - 1].kind != t.runs[r].kind)),
                     "trial " << trial << ": key tile " << kt << "'s runs overlap or are not merged");
      }
    }
  }
}
