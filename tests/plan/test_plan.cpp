// Tile planning tests: every Empty tile all-false, every Full tile all-true, by brute force.
#define BOOST_TEST_MODULE plan
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <random>
#include <sstream>

#include "codegen/KernelIR.h"
#include "codegen/PlanTiles.h"
#include "codegen/TilePlan.h"
#include "runtime/TilePlanText.h"

using namespace attn;
using HExpr = Halide::Expr;
namespace HI = Halide::Internal;

namespace {

HExpr Q() { return index_var(IndexVar::Q); }
HExpr KV() { return index_var(IndexVar::KV); }

KernelIR make_ir(HExpr mask) {
  KernelIR ir;
  ir.name = "k";
  ir.mask = mask;
  ir.score = score_var();
  return ir;
}

// A buffer argument `name` of i32 (or u8 for bool) elements and a load of it at `index`.
struct BufferArg {
  KernelArg arg;
  HExpr load(HExpr index) const { return load(std::vector<HExpr>{index}); }
  HExpr load(std::vector<HExpr> index) const {
    return HI::Call::make(arg.param.type(), arg.name, index, HI::Call::Image, HI::FunctionPtr(), 0,
                          Halide::Buffer<>(), arg.param);
  }
};
BufferArg buffer_arg(const std::string& name, ElemType t, int rank = 1) {
  BufferArg b;
  b.arg.kind = KernelArg::Kind::Buffer;
  b.arg.name = name;
  b.arg.elem = t;
  for (int d = 0; d < rank; ++d) b.arg.dims.push_back("d" + std::to_string(d));
  b.arg.param = HI::Parameter(halide_elem_type(t), true, rank, name);
  return b;
}
KernelArg scalar_arg(const std::string& name) {
  KernelArg a;
  a.kind = KernelArg::Kind::Scalar;
  a.name = name;
  a.elem = ElemType::I32;
  a.param = HI::Parameter(Halide::Int(32), false, 0, name);
  return a;
}
HExpr scalar_var(const KernelArg& a) { return HI::Variable::make(Halide::Int(32), a.name, a.param); }

// Halide's integer division and modulo: Euclidean, and 0 for a zero divisor.
int64_t ediv(int64_t a, int64_t b) {
  if (b == 0) return 0;
  int64_t q = a / b, r = a % b;
  if (r < 0) q += b > 0 ? -1 : 1;
  return q;
}
int64_t emod(int64_t a, int64_t b) { return b == 0 ? 0 : a - ediv(a, b) * b; }

using Oracle = std::function<bool(int64_t q, int64_t kv)>;

// Checks every tile of the plan against the oracle.
void check_grid(const TileGrid& g, const Oracle& allowed, const std::string& what) {
  BOOST_TEST_CONTEXT(what << " Lq=" << g.q_len << " Lkv=" << g.kv_len << " block " << g.block_q << "x"
                          << g.block_kv) {
    for (int64_t qt = 0; qt < g.q_tiles; ++qt)
      for (int64_t kt = 0; kt < g.kv_tiles; ++kt) {
        const TileKind k = g.at(qt, kt);
        if (k == TileKind::Partial) continue;
        bool any = false, all = true;
        for (int64_t q = qt * g.block_q; q < std::min((qt + 1) * g.block_q, g.q_len); ++q)
          for (int64_t kv = kt * g.block_kv; kv < std::min((kt + 1) * g.block_kv, g.kv_len); ++kv) {
            const bool a = allowed(q, kv);
            any |= a;
            all &= a;
          }
        if (k == TileKind::Empty && any)
          BOOST_ERROR("empty tile (" << qt << ", " << kt << ") has an allowed element");
        if (k == TileKind::Full && !all)
          BOOST_ERROR("full tile (" << qt << ", " << kt << ") has a masked element");
      }
  }
}

// The outcome of one plan on one size: a grid from the closed form alone and one refined per tile.
struct Grids {
  TileGrid closed, refined;
};

Grids plan_both(const TilePlan& plan, const TilePlanInputs& in) {
  TilePlanProgram closed = tile_plan_program(plan), refined = closed;
  closed.ranges_exact = true;
  refined.ranges_exact = false;
  return {plan_tile_grid(closed, in), plan_tile_grid(refined, in)};
}

// The closed form must never claim more than per-tile classification proves.
void check_closed_within_refined(const Grids& g, const std::string& what, bool expect_equal) {
  for (int64_t qt = 0; qt < g.closed.q_tiles; ++qt)
    for (int64_t kt = 0; kt < g.closed.kv_tiles; ++kt) {
      const TileKind c = g.closed.at(qt, kt), r = g.refined.at(qt, kt);
      if (c != TileKind::Partial && c != r)
        BOOST_ERROR(what << ": closed form says " << tile_kind_name(c) << " at (" << qt << ", " << kt
                         << "), per-tile classification " << tile_kind_name(r));
      if (expect_equal && c != r)
        BOOST_ERROR(what << ": closed form " << tile_kind_name(c) << " != per tile " << tile_kind_name(r)
                         << " at (" << qt << ", " << kt << ")");
    }
}

const int kBlocks[] = {1, 2, 3, 5, 8, 16, 17, 32, 64};

struct IndexCase {
  std::string name;
  HExpr mask;
  Oracle oracle;
  bool exact;     // with square tiles, the closed form matches per-tile classification exactly...
  int align = 1;  // ...when the tile size divides this
};

std::vector<IndexCase> index_cases() {
  HExpr q = Q(), kv = KV();
  std::vector<IndexCase> v;
  v.push_back({"causal", q >= kv, [](int64_t q, int64_t kv) { return q >= kv; }, true});
  for (int w : {1, 7, 64, 100})
    v.push_back({"window" + std::to_string(w), q >= kv && q - kv < w,
                 [w](int64_t q, int64_t kv) { return q >= kv && q - kv < w; }, true});
  v.push_back({"window-symmetric", Halide::cast<int>(Halide::abs(q - kv)) <= 20,
               [](int64_t q, int64_t kv) { return std::abs(q - kv) <= 20; }, false});
  for (int p : {1, 37, 128})
    v.push_back({"prefix" + std::to_string(p), kv < p || q >= kv,
                 [p](int64_t q, int64_t kv) { return kv < p || q >= kv; }, true, p});
  for (int c : {16, 50})
    v.push_back({"chunked" + std::to_string(c), q / c == kv / c && q >= kv,
                 [c](int64_t q, int64_t kv) { return ediv(q, c) == ediv(kv, c) && q >= kv; }, false});
  for (int d : {2, 3})
    v.push_back({"dilated" + std::to_string(d), (q - kv) % d == 0 && q >= kv,
                 [d](int64_t q, int64_t kv) { return emod(q - kv, d) == 0 && q >= kv; }, false});
  {
    const int w = 16, kw = 5, kh = 3, hgt = 16;
    auto cl = [](HExpr x, int lo, int hi) { return Halide::clamp(x, lo, hi); };
    HExpr qx = q % w, qy = q / w, kx = kv % w, ky = kv / w;
    HExpr cx = cl(qx, kw / 2, w - 1 - kw / 2), cy = cl(qy, kh / 2, hgt - 1 - kh / 2);
    HExpr m = Halide::cast<int>(Halide::abs(cx - kx)) <= kw / 2 &&
              Halide::cast<int>(Halide::abs(cy - ky)) <= kh / 2;
    v.push_back({"natten", m,
                 [=](int64_t q, int64_t kv) {
                   int64_t cx = std::clamp<int64_t>(emod(q, w), kw / 2, w - 1 - kw / 2);
                   int64_t cy = std::clamp<int64_t>(ediv(q, w), kh / 2, hgt - 1 - kh / 2);
                   return std::abs(cx - emod(kv, w)) <= kw / 2 && std::abs(cy - ediv(kv, w)) <= kh / 2;
                 },
                 false});
  }
  v.push_back({"float-half", Halide::cast<float>(kv) <= Halide::cast<float>(q) * 0.5f,
               [](int64_t q, int64_t kv) { return static_cast<float>(kv) <= static_cast<float>(q) * 0.5f; },
               false});
  v.push_back({"exp-or-causal", Halide::exp(Halide::cast<float>(q - kv)) > 2.0f || q >= kv,
               [](int64_t q, int64_t kv) { return std::exp(static_cast<float>(q - kv)) > 2.0f || q >= kv; },
               false});
  v.push_back({"none", Halide::Internal::const_true(), [](int64_t, int64_t) { return true; }, true});
  v.push_back({"nothing", Halide::Internal::const_false(), [](int64_t, int64_t) { return false; }, true});
  return v;
}

}  // namespace

BOOST_AUTO_TEST_CASE(index_only_masks_brute_force) {
  std::mt19937 rng(7);
  for (const IndexCase& c : index_cases()) {
    for (int iter = 0; iter < 16; ++iter) {
      const int bq = kBlocks[rng() % 9], bk = kBlocks[rng() % 9];
      auto plan = plan_tiles(make_ir(c.mask), {bq, bk});
      BOOST_TEST(plan->index_only);
      const bool exact = c.exact && bq == bk && c.align % bk == 0;
      if (exact) BOOST_TEST(plan->ranges_exact, c.name << " closed form not exact");
      for (int sizes = 0; sizes < 3; ++sizes) {
        TilePlanInputs in;
        in.q_len = 1 + rng() % 300;
        in.kv_len = sizes == 0 ? in.q_len : 1 + rng() % 300;
        const Grids g = plan_both(*plan, in);
        check_grid(g.closed, c.oracle, c.name + " (closed form)");
        check_grid(g.refined, c.oracle, c.name + " (per tile)");
        check_grid(plan_tile_grid(tile_plan_program(*plan), in), c.oracle, c.name);
        check_closed_within_refined(g, c.name, exact);
        // The closed form's ends are ordered and within [0, kv_tiles] for any query tile.
        for (int64_t qt : {int64_t{0}, g.closed.q_tiles / 2, g.closed.q_tiles + 3}) {
          const double nk = static_cast<double>(g.closed.kv_tiles);
          const auto r = tile_plan_program(*plan).ranges.eval(
              {static_cast<double>(qt), static_cast<double>(g.closed.q_tiles), nk,
               static_cast<double>(in.q_len), static_cast<double>(in.kv_len), 0, 0});
          BOOST_TEST(
              (0 <= r[0] && r[0] <= r[1] && r[1] <= r[2] && r[2] <= r[3] && r[3] <= nk),
              c.name << ": ranges " << r[0] << " " << r[1] << " " << r[2] << " " << r[3] << " at qt " << qt);
        }
        // The element program agrees with the oracle.
        const auto m = eval_element_mask(tile_plan_program(*plan), in, 0, std::min<int64_t>(in.q_len, 40), 0,
                                         std::min<int64_t>(in.kv_len, 40));
        for (int64_t i = 0; i < std::min<int64_t>(in.q_len, 40); ++i)
          for (int64_t j = 0; j < std::min<int64_t>(in.kv_len, 40); ++j)
            if (m[i * std::min<int64_t>(in.kv_len, 40) + j] != c.oracle(i, j))
              BOOST_ERROR(c.name << ": element mask wrong at (" << i << ", " << j << ")");
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(closed_forms_are_tight) {
  // Causal 64x64: kv tiles [0, qt) full, qt partial, nothing else.
  auto plan = plan_tiles(make_ir(Q() >= KV()), {64, 64});
  TilePlanInputs in;
  in.q_len = in.kv_len = 64 * 10;
  const TileGrid g = plan_tile_grid(tile_plan_program(*plan), in);
  for (int64_t qt = 0; qt < 10; ++qt)
    for (int64_t kt = 0; kt < 10; ++kt)
      BOOST_TEST((g.at(qt, kt) == (kt < qt    ? TileKind::Full
                                   : kt == qt ? TileKind::Partial
                                              : TileKind::Empty)));
  BOOST_TEST(g.count(TileKind::Full) == 45);
  BOOST_TEST(g.count(TileKind::Partial) == 10);
  const MaskDensity d = mask_density(tile_plan_program(*plan), in, g);
  BOOST_TEST(d.exact);
  BOOST_TEST(d.density == (640.0 * 641 / 2) / (640.0 * 640), boost::test_tools::tolerance(1e-12));
  BOOST_TEST(!print_tile_plan(*plan).empty());

  // Range ends stay within [0, kv_tiles] even for query tiles past the last key tile.
  auto rev = plan_tiles(make_ir(Q() < KV()), {64, 64});
  for (const KeyTileRange& r : rev->ranges)
    for (int qt : {0, 5, 50})
      for (HExpr e : {r.begin, r.end}) {
        HExpr v = HI::simplify(HI::substitute("kv_tiles", 10, HI::substitute("qt", qt, e)));
        const int64_t* c = HI::as_const_int(v);
        BOOST_TEST_REQUIRE(c);
        BOOST_TEST((*c >= 0 && *c <= 10));
      }

  // A mask that is never true: no key tiles at all, and no infinities in the Exprs.
  auto none = plan_tiles(make_ir(Halide::Internal::const_false()), {64, 64});
  for (const KeyTileRange& r : none->ranges) {
    BOOST_TEST(!HI::expr_uses_var(r.begin, "pos_inf"));
    BOOST_TEST(!HI::expr_uses_var(r.end, "pos_inf"));
  }
  BOOST_TEST(plan_tile_grid(tile_plan_program(*none), in).runs.empty());
}

BOOST_AUTO_TEST_CASE(scalar_arguments) {
  KernelArg off = scalar_arg("off");
  KernelIR ir = make_ir(Q() + scalar_var(off) >= KV() && KV() + 40 > Q());
  ir.args.push_back(off);
  std::mt19937 rng(3);
  for (int iter = 0; iter < 8; ++iter) {
    const int bq = kBlocks[rng() % 9], bk = kBlocks[rng() % 9];
    auto plan = plan_tiles(ir, {bq, bk});
    for (int o : {-30, 0, 5, 77}) {
      TilePlanInputs in;
      in.q_len = 1 + rng() % 200;
      in.kv_len = 1 + rng() % 200;
      in.scalars["off"] = o;
      const Grids g = plan_both(*plan, in);
      Oracle oracle = [o](int64_t q, int64_t kv) { return q + o >= kv && kv + 40 > q; };
      check_grid(g.closed, oracle, "offset (closed)");
      check_grid(g.refined, oracle, "offset (per tile)");
      check_closed_within_refined(g, "offset", false);
    }
  }
  TilePlanInputs missing;
  missing.q_len = missing.kv_len = 10;
  BOOST_CHECK_THROW(plan_tile_grid(tile_plan_program(*plan_tiles(ir)), missing), std::invalid_argument);
}

namespace {

// Sorted document ids in runs of random length, or unsorted small ids.
std::vector<int32_t> random_docs(std::mt19937& rng, int64_t n, bool sorted) {
  std::vector<int32_t> d(n);
  int32_t id = 0;
  int64_t left = 1 + rng() % 60;
  for (int64_t i = 0; i < n; ++i) {
    if (sorted) {
      if (left-- == 0) {
        ++id;
        left = rng() % 60;
      }
      d[i] = id;
    } else {
      d[i] = static_cast<int32_t>(rng() % 3);
    }
  }
  return d;
}

TileBuffer view(const std::vector<int32_t>& v) {
  return {TileBuffer::Elem::I32, v.data(), {static_cast<int64_t>(v.size())}};
}
TileBuffer view(const std::vector<uint8_t>& v) {
  return {TileBuffer::Elem::U8, v.data(), {static_cast<int64_t>(v.size())}};
}

}  // namespace

BOOST_AUTO_TEST_CASE(documents_and_global_tokens) {
  BufferArg doc = buffer_arg("doc", ElemType::I32), start = buffer_arg("start", ElemType::I32),
            global = buffer_arg("global", ElemType::Bool);
  HExpr q = Q(), kv = KV();
  HExpr same = doc.load(q) == doc.load(kv);
  HExpr rel_causal = q - start.load(doc.load(q)) >= kv - start.load(doc.load(kv));
  struct BufferCase {
    std::string name;
    HExpr mask;
  };
  std::vector<BufferCase> cases = {
      {"documents", same},
      {"documents-causal", same && q >= kv},
      {"packed-relative", same && rel_causal},
      {"global-tokens", global.load(kv) != 0 || global.load(q) != 0 || q >= kv},
      {"documents-window", q >= kv && q - kv < 100 && same},
  };
  std::mt19937 rng(11);
  for (const BufferCase& c : cases) {
    KernelIR ir = make_ir(c.mask);
    ir.args = {doc.arg, start.arg, global.arg};
    for (int iter = 0; iter < 24; ++iter) {
      const int bq = kBlocks[rng() % 9], bk = kBlocks[rng() % 9];
      auto plan = plan_tiles(ir, {bq, bk});
      BOOST_TEST(!plan->index_only);
      const int64_t lq = 1 + rng() % 300, lkv = iter % 2 ? lq : 1 + rng() % 300, n = std::max(lq, lkv);
      std::vector<int32_t> docs = random_docs(rng, n, iter % 4 != 3);
      std::vector<int32_t> starts(n + 1, 0);
      for (int64_t i = n - 1; i >= 0; --i) starts[docs[i]] = static_cast<int32_t>(i);
      std::vector<uint8_t> glob(n);
      for (auto& g : glob) g = rng() % 17 == 0;
      TilePlanInputs in;
      in.q_len = lq;
      in.kv_len = lkv;
      in.buffers = {{"doc", view(docs)}, {"start", view(starts)}, {"global", view(glob)}};
      const TilePlanProgram& prog = tile_plan_program(*plan);
      const auto m = eval_element_mask(prog, in, 0, lq, 0, lkv);
      Oracle oracle = [&](int64_t q, int64_t kv) { return m[q * lkv + kv] != 0; };
      // The element program itself against a direct computation.
      for (int64_t i = 0; i < lq; ++i)
        for (int64_t j = 0; j < lkv; ++j) {
          const bool s = docs[i] == docs[j], rc = i - starts[docs[i]] >= j - starts[docs[j]];
          bool want = s;
          if (c.name == "documents-causal") want = s && i >= j;
          if (c.name == "packed-relative") want = s && rc;
          if (c.name == "global-tokens") want = glob[j] || glob[i] || i >= j;
          if (c.name == "documents-window") want = s && i >= j && i - j < 100;
          if (oracle(i, j) != want) {
            BOOST_ERROR(c.name << ": element mask wrong at (" << i << ", " << j << ")");
            i = lq;
            break;
          }
        }
      const TileGrid g = plan_tile_grid(prog, in);
      check_grid(g, oracle, c.name);
      if (iter % 4 != 3 && c.name == "documents" && bq >= 8 && bk >= 8)
        BOOST_TEST(g.count(TileKind::Full) > 0, c.name << ": sorted documents give full tiles");
    }
  }
}

// Masks of the call's lengths (q_len, kv_len: the grid's own), index-only and with a buffer: no
// plan drops an allowed element, for fewer, as many and more queries than keys.
BOOST_AUTO_TEST_CASE(call_lengths_brute_force) {
  const HExpr q = Q(), kv = KV(), ql = index_var(IndexVar::QLen), kl = index_var(IndexVar::KVLen);
  const BufferArg global = buffer_arg("global", ElemType::Bool);
  using LengthOracle =
      std::function<bool(int64_t q, int64_t kv, int64_t lq, int64_t lk, const std::vector<uint8_t>&)>;
  struct LengthCase {
    std::string name;
    HExpr mask;
    LengthOracle oracle;
  };
  const std::vector<LengthCase> cases = {
      {"causal-from-end", q + (kl - ql) >= kv,
       [](int64_t q, int64_t kv, int64_t lq, int64_t lk, auto&) { return q + lk - lq >= kv; }},
      {"window-from-end", q + (kl - ql) >= kv && q + (kl - ql) - kv < 40,
       [](int64_t q, int64_t kv, int64_t lq, int64_t lk, auto&) {
         return q + lk - lq >= kv && q + lk - lq - kv < 40;
       }},
      {"last-keys", kv >= kl - 20,
       [](int64_t, int64_t kv, int64_t, int64_t lk, auto&) { return kv >= lk - 20; }},
      {"first-half-or-causal", q * 2 < ql || q >= kv,
       [](int64_t q, int64_t kv, int64_t lq, int64_t, auto&) { return q * 2 < lq || q >= kv; }},
      {"global-or-from-end", global.load(kv) != 0 || q + (kl - ql) >= kv,
       [](int64_t q, int64_t kv, int64_t lq, int64_t lk, const std::vector<uint8_t>& g) {
         return g[size_t(kv)] != 0 || q + lk - lq >= kv;
       }},
  };
  std::mt19937 rng(29);
  for (const LengthCase& c : cases) {
    KernelIR ir = make_ir(c.mask);
    ir.args = {global.arg};
    for (int iter = 0; iter < 24; ++iter) {
      const int bq = kBlocks[rng() % 9], bk = kBlocks[rng() % 9];
      auto plan = plan_tiles(ir, {bq, bk});
      TilePlanInputs in;
      in.q_len = 1 + rng() % (iter % 3 == 0 ? 40 : 300);
      in.kv_len = iter % 3 == 1 ? in.q_len : 1 + rng() % 300;
      std::vector<uint8_t> glob(size_t(in.kv_len));
      for (auto& g : glob) g = rng() % 23 == 0;
      in.buffers = {{"global", view(glob)}};
      const int64_t lq = in.q_len, lk = in.kv_len;
      Oracle oracle = [&](int64_t q, int64_t kv) { return c.oracle(q, kv, lq, lk, glob); };
      const Grids g = plan_both(*plan, in);
      check_grid(g.closed, oracle, c.name + " (closed form)");
      check_grid(g.refined, oracle, c.name + " (per tile)");
      check_grid(plan_tile_grid(tile_plan_program(*plan), in), oracle, c.name);
      check_closed_within_refined(g, c.name, false);
      const auto m = eval_element_mask(tile_plan_program(*plan), in, 0, lq, 0, lk);
      for (int64_t i = 0; i < lq; ++i)
        for (int64_t j = 0; j < lk; ++j)
          if ((m[size_t(i * lk + j)] != 0) != oracle(i, j)) {
            BOOST_ERROR(c.name << ": element mask wrong at (" << i << ", " << j << ") Lq " << lq << " Lkv "
                               << lk);
            i = lq;
            break;
          }
    }
  }
}

// causal_from_end with far fewer queries than keys (a chunk of prefill): the key tiles past the
// diagonal are skipped, those before it are full, for the closed form and the per-tile program.
BOOST_AUTO_TEST_CASE(causal_from_end_skips_the_tiles_past_the_diagonal) {
  const HExpr mask = Q() + (index_var(IndexVar::KVLen) - index_var(IndexVar::QLen)) >= KV();
  auto plan = plan_tiles(make_ir(mask), {64, 64});
  BOOST_TEST(plan->index_only);
  TilePlanInputs in;
  in.q_len = 128, in.kv_len = 64 * 10;  // queries at positions 512..639
  const Grids g = plan_both(*plan, in);
  for (const TileGrid* grid : {&g.closed, &g.refined}) {
    // Query tile 0 (positions 512..575): tiles 0..7 full, 8 partial, 9 empty; tile 1: 0..8 full, 9 partial.
    for (int64_t kt = 0; kt < 10; ++kt) {
      BOOST_TEST((grid->at(0, kt) == (kt < 8    ? TileKind::Full
                                      : kt == 8 ? TileKind::Partial
                                                : TileKind::Empty)),
                 "qt 0 kt " << kt);
      BOOST_TEST((grid->at(1, kt) == (kt < 9 ? TileKind::Full : TileKind::Partial)), "qt 1 kt " << kt);
    }
  }
  // More queries than keys: the first query tiles see nothing.
  in.q_len = 64 * 4, in.kv_len = 64;
  const TileGrid more = plan_tile_grid(tile_plan_program(*plan), in);
  for (int64_t qt = 0; qt < 3; ++qt) BOOST_TEST((more.at(qt, 0) == TileKind::Empty), "qt " << qt);
  BOOST_TEST((more.at(3, 0) == TileKind::Partial));
}

BOOST_AUTO_TEST_CASE(load_of_an_undeclared_buffer) {
  // IR whose load is not among the kernel's arguments: no crash, nothing proven about the load.
  BufferArg doc = buffer_arg("doc", ElemType::I32);
  auto plan = plan_tiles(make_ir(doc.load(Q()) == 0 && Q() >= KV()), {8, 8});
  TilePlanInputs in;
  in.q_len = in.kv_len = 40;
  const TileGrid g = plan_tile_grid(tile_plan_program(*plan), in);
  BOOST_TEST(g.count(TileKind::Full) == 0);
  BOOST_TEST((g.at(0, 3) == TileKind::Empty));  // causal still prunes
  BOOST_TEST(!tile_plan_program(*plan).element_error.empty());
}

BOOST_AUTO_TEST_CASE(per_head_masks) {
  BufferArg win = buffer_arg("win", ElemType::I32);
  HExpr h = index_var(IndexVar::H);
  KernelIR ir = make_ir(Q() >= KV() && Q() - KV() < win.load(h));
  ir.args = {win.arg};
  std::vector<int32_t> wins = {1, 30, 200, 5};
  std::mt19937 rng(5);
  for (int iter = 0; iter < 6; ++iter) {
    auto plan = plan_tiles(ir, {kBlocks[rng() % 9], kBlocks[rng() % 9]});
    TilePlanInputs in;
    in.q_len = 1 + rng() % 250;
    in.kv_len = 1 + rng() % 250;
    in.buffers = {{"win", view(wins)}};
    for (int hh = 0; hh < 4; ++hh) {
      in.h_lo = in.h_hi = hh;
      const int64_t w = wins[hh];
      check_grid(
          plan_tile_grid(tile_plan_program(*plan), in),
          [w](int64_t q, int64_t kv) { return q >= kv && q - kv < w; }, "per head " + std::to_string(hh));
    }
    in.h_lo = 0;  // one plan for every head: Empty/Full must hold for all of them
    in.h_hi = 3;
    check_grid(
        plan_tile_grid(tile_plan_program(*plan), in),
        [&](int64_t q, int64_t kv) {
          return q >= kv && q - kv < 1;  // Full must hold for the narrowest head...
        },
        "all heads (full)");
    const TileGrid all = plan_tile_grid(tile_plan_program(*plan), in);
    for (int64_t qt = 0; qt < all.q_tiles; ++qt)
      for (int64_t kt = 0; kt < all.kv_tiles; ++kt)
        if (all.at(qt, kt) == TileKind::Empty)  // ...and Empty for the widest
          for (int64_t q = qt * all.block_q; q < std::min<int64_t>((qt + 1) * all.block_q, in.q_len); ++q)
            for (int64_t kv = kt * all.block_kv; kv < std::min<int64_t>((kt + 1) * all.block_kv, in.kv_len);
                 ++kv)
              if (q >= kv && q - kv < 200) BOOST_ERROR("all heads: empty tile with an allowed element");
  }
}

namespace {

// Random masks: comparisons of random integer terms over q, kv and constants, combined with
// && || !. Terms use + - * by a constant, Euclidean / and % (any nonzero divisor), min, max, select.
class RandomMask {
 public:
  explicit RandomMask(uint32_t seed) : rng_(seed) {}
  HExpr mask(int depth) {
    const int k = depth <= 0 ? 0 : static_cast<int>(rng_() % 5);
    if (k == 1) return mask(depth - 1) && mask(depth - 1);
    if (k == 2) return mask(depth - 1) || mask(depth - 1);
    if (k == 3) return !mask(depth - 1);
    HExpr a = term(2), b = term(2);
    switch (rng_() % 6) {
      case 0: return a < b;
      case 1: return a <= b;
      case 2: return a == b;
      case 3: return a != b;
      case 4: return a > b;
      default: return a >= b;
    }
  }

 private:
  int small() { return static_cast<int>(rng_() % 130) - 40; }
  int divisor() {
    int d = static_cast<int>(rng_() % 70) - 10;
    return d == 0 ? 7 : d;
  }
  HExpr term(int depth) {
    const int k = depth <= 0 ? static_cast<int>(rng_() % 3) : static_cast<int>(rng_() % 11);
    switch (k) {
      case 0: return Q();
      case 1: return KV();
      case 2: return small();
      case 3: return term(depth - 1) + term(depth - 1);
      case 4: return term(depth - 1) - term(depth - 1);
      case 5: return term(depth - 1) * static_cast<int>(rng_() % 5 - 2);
      case 6: return term(depth - 1) / divisor();
      case 7: return term(depth - 1) % divisor();
      case 8: return Halide::min(term(depth - 1), term(depth - 1));
      case 9: return Halide::max(term(depth - 1), term(depth - 1));
      default: return Halide::select(term(depth - 1) < term(depth - 1), term(depth - 1), term(depth - 1));
    }
  }
  std::mt19937 rng_;
};

// A direct interpreter of the fuzzed IR (independent of tile programs): the oracle.
int64_t eval_ir(const HExpr& e, int64_t q, int64_t kv) {
  using namespace Halide::Internal;
  auto ev = [&](const HExpr& x) { return eval_ir(x, q, kv); };
  if (const auto* n = e.as<IntImm>()) return n->value;
  if (const auto* n = e.as<UIntImm>()) return static_cast<int64_t>(n->value);
  if (const auto* n = e.as<Variable>()) return n->name == "q" ? q : kv;
  if (const auto* n = e.as<Add>()) return ev(n->a) + ev(n->b);
  if (const auto* n = e.as<Sub>()) return ev(n->a) - ev(n->b);
  if (const auto* n = e.as<Mul>()) return ev(n->a) * ev(n->b);
  if (const auto* n = e.as<Div>()) return ediv(ev(n->a), ev(n->b));
  if (const auto* n = e.as<Mod>()) return emod(ev(n->a), ev(n->b));
  if (const auto* n = e.as<Min>()) return std::min(ev(n->a), ev(n->b));
  if (const auto* n = e.as<Max>()) return std::max(ev(n->a), ev(n->b));
  if (const auto* n = e.as<EQ>()) return ev(n->a) == ev(n->b);
  if (const auto* n = e.as<NE>()) return ev(n->a) != ev(n->b);
  if (const auto* n = e.as<LT>()) return ev(n->a) < ev(n->b);
  if (const auto* n = e.as<LE>()) return ev(n->a) <= ev(n->b);
  if (const auto* n = e.as<GT>()) return ev(n->a) > ev(n->b);
  if (const auto* n = e.as<GE>()) return ev(n->a) >= ev(n->b);
  if (const auto* n = e.as<And>()) return ev(n->a) && ev(n->b);
  if (const auto* n = e.as<Or>()) return ev(n->a) || ev(n->b);
  if (const auto* n = e.as<Not>()) return !ev(n->a);
  if (const auto* n = e.as<Select>()) return ev(n->condition) ? ev(n->true_value) : ev(n->false_value);
  BOOST_FAIL("unexpected node in fuzzed mask");
  return 0;
}

}  // namespace

BOOST_AUTO_TEST_CASE(random_mask_fuzz) {
  std::mt19937 rng(2024);
  int partial = 0, decided = 0;
  for (int i = 0; i < 1500; ++i) {
    RandomMask gen(rng());
    const HExpr m = gen.mask(1 + i % 3);
    std::ostringstream os;
    os << m;
    BOOST_TEST_CONTEXT("mask " << i << ": " << os.str()) {
      const int bq = kBlocks[rng() % 9], bk = kBlocks[rng() % 9];
      auto plan = plan_tiles(make_ir(m), {bq, bk});
      TilePlanInputs in;
      in.q_len = 1 + rng() % 160;
      in.kv_len = 1 + rng() % 160;
      Oracle oracle = [&](int64_t q, int64_t kv) { return eval_ir(m, q, kv) != 0; };
      const Grids g = plan_both(*plan, in);
      check_grid(g.closed, oracle, "fuzz (closed form)");
      check_grid(g.refined, oracle, "fuzz (per tile)");
      check_closed_within_refined(g, "fuzz", false);
      const auto em = eval_element_mask(tile_plan_program(*plan), in, 0, in.q_len, 0, in.kv_len);
      for (int64_t q = 0; q < in.q_len; ++q)
        for (int64_t kv = 0; kv < in.kv_len; ++kv)
          if ((em[q * in.kv_len + kv] != 0) != oracle(q, kv)) {
            BOOST_ERROR("element program disagrees at (" << q << ", " << kv << ")");
            q = in.q_len;
            break;
          }
      partial += static_cast<int>(g.refined.count(TileKind::Partial));
      decided += static_cast<int>(g.refined.count(TileKind::Full) + g.refined.count(TileKind::Empty));
    }
  }
  std::cout << "fuzz: " << decided << " tiles decided, " << partial << " partial\n";
}

BOOST_AUTO_TEST_CASE(million_token_plans) {
  // Timing only (printed, not asserted): a closed-form plan at 1M tokens needs no per-tile work.
  struct Case {
    const char* name;
    HExpr mask;
  };
  HExpr q = Q(), kv = KV();
  for (const Case& c :
       {Case{"causal", q >= kv}, Case{"sliding 4096", q >= kv && q - kv < 4096},
        Case{"prefix 2048", kv < 2048 || q >= kv}, Case{"chunked 8192", q / 8192 == kv / 8192}}) {
    const auto t0 = std::chrono::steady_clock::now();
    auto plan = plan_tiles(make_ir(c.mask), {64, 64});
    const auto t1 = std::chrono::steady_clock::now();
    TilePlanInputs in;
    in.q_len = in.kv_len = 1 << 20;
    const TileGrid g = plan_tile_grid(tile_plan_program(*plan), in);
    const auto t2 = std::chrono::steady_clock::now();
    const MaskDensity d = mask_density(tile_plan_program(*plan), in, g, int64_t{1} << 22, int64_t{1} << 16);
    const auto t3 = std::chrono::steady_clock::now();
    auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    std::cout << "1M " << c.name << ": plan_tiles " << ms(t0, t1) << " ms, grid " << ms(t1, t2)
              << " ms, density " << d.density << (d.exact ? " (exact) " : " (estimated) ") << ms(t2, t3)
              << " ms; full " << g.count(TileKind::Full) << ", partial " << g.count(TileKind::Partial)
              << "\n";
    BOOST_TEST(g.q_tiles == 16384);
  }
  // The run-time planner on sorted documents (runs of 100..30000 tokens), causal.
  BufferArg doc = buffer_arg("doc", ElemType::I32);
  KernelIR ir = make_ir(doc.load(q) == doc.load(kv) && q >= kv);
  ir.args = {doc.arg};
  std::mt19937 rng(1);
  std::vector<int32_t> docs(1 << 20);
  for (size_t i = 0, id = 0; i < docs.size(); ++id)
    for (size_t n = 100 + rng() % 30000; n-- && i < docs.size();) docs[i++] = static_cast<int32_t>(id);
  const auto t0 = std::chrono::steady_clock::now();
  auto plan = plan_tiles(ir, {64, 64});
  TilePlanInputs in;
  in.q_len = in.kv_len = 1 << 20;
  in.buffers = {{"doc", view(docs)}};
  const TileGrid g = plan_tile_grid(tile_plan_program(*plan), in);
  const auto t1 = std::chrono::steady_clock::now();
  std::cout << "1M documents (run-time planner): "
            << std::chrono::duration<double, std::milli>(t1 - t0).count() << " ms; full "
            << g.count(TileKind::Full) << ", partial " << g.count(TileKind::Partial) << "\n";
  BOOST_TEST(g.count(TileKind::Full) > 0);
}

namespace {

std::string run_attnc(const std::string& args, int& rc) {
  const std::string out = (std::filesystem::temp_directory_path() / "attnc_plan_test.out").string();
  rc = std::system((std::string(ATTNC_BINARY) + " " + args + " > " + out + " 2>&1").c_str());
  std::ifstream in(out);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

BOOST_AUTO_TEST_CASE(mask_command) {
  const auto dir = std::filesystem::temp_directory_path() / "attnc_plan_test";
  std::filesystem::create_directories(dir);
  const std::string src = (dir / "m.attn").string(), png = (dir / "sw.png").string(),
                    svg = (dir / "sw.svg").string();
  std::ofstream(src) << "import std.masks;\n"
                        "mask sliding(window: int) = causal && q - kv < window;\n"
                        "kernel sw { mask = sliding(4096); }\n"
                        "kernel docs(doc: tensor<i32>[len]) { mask = doc[q] == doc[kv] && causal; }\n";
  int rc = 0;
  std::string out = run_attnc("mask " + src + " sw --len 1048576 --png " + png + " --svg " + svg, rc);
  BOOST_TEST(rc == 0, out);
  BOOST_TEST(out.find("16384 x 16384") != std::string::npos, out);
  BOOST_TEST(out.find("full     1030176") != std::string::npos, out);
  BOOST_TEST(out.find("closed form") != std::string::npos, out);
  std::ifstream p(png, std::ios::binary);
  char sig[8] = {};
  p.read(sig, 8);
  BOOST_TEST(std::string(sig + 1, 3) == "PNG");
  BOOST_TEST(std::filesystem::file_size(svg) > 100u);

  out = run_attnc("mask " + src + " sw --len 300 --len-kv 200 --block 16,32", rc);
  BOOST_TEST(rc == 0, out);
  BOOST_TEST(out.find("(exact") != std::string::npos, out);

  out = run_attnc("mask " + src + " docs --len 100", rc);
  BOOST_TEST(rc != 0);
  BOOST_TEST(out.find("buffer 'doc'") != std::string::npos, out);

  out = run_attnc("dump --stage=plan " + src + " sw", rc);
  BOOST_TEST(rc == 0, out);
  BOOST_TEST(out.find("key tiles of query tile qt") != std::string::npos, out);
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(two_dimensional_buffer) {
  // A per-head key filter allow[h, kv] (bool), or causal.
  BufferArg allow = buffer_arg("allow", ElemType::Bool, 2);
  HExpr h = index_var(IndexVar::H);
  KernelIR ir = make_ir(allow.load({h, KV()}) != 0 || Q() >= KV());
  ir.args = {allow.arg};
  std::mt19937 rng(9);
  for (int iter = 0; iter < 12; ++iter) {
    auto plan = plan_tiles(ir, {kBlocks[rng() % 9], kBlocks[rng() % 9]});
    TilePlanInputs in;
    in.q_len = 1 + rng() % 200;
    in.kv_len = 1 + rng() % 200;
    const int64_t heads = 3;
    std::vector<uint8_t> a(static_cast<size_t>(heads * in.kv_len));
    for (int64_t hh = 0; hh < heads; ++hh)  // head 0 allows nothing extra, head 1 a block, head 2 random
      for (int64_t kv = 0; kv < in.kv_len; ++kv)
        a[hh * in.kv_len + kv] = hh == 1 ? (kv >= 40 && kv < 90) : hh == 2 ? rng() % 5 == 0 : 0;
    in.buffers = {{"allow", TileBuffer{TileBuffer::Elem::U8, a.data(), {heads, in.kv_len}}}};
    for (int64_t hh = 0; hh < heads; ++hh) {
      in.h_lo = in.h_hi = static_cast<double>(hh);
      check_grid(
          plan_tile_grid(tile_plan_program(*plan), in),
          [&](int64_t q, int64_t kv) { return a[hh * in.kv_len + kv] != 0 || q >= kv; },
          "allow[h, kv], head " + std::to_string(hh));
    }
  }
}

BOOST_AUTO_TEST_CASE(buffer_ranges_brute_force) {
  std::mt19937 rng(4);
  for (int iter = 0; iter < 40; ++iter) {
    const int64_t rows = 1 + rng() % 4, cols = 1 + rng() % 300;
    std::vector<int32_t> v(static_cast<size_t>(rows * cols));
    for (auto& x : v) x = static_cast<int32_t>(rng() % 1000) - 500;
    const TileBuffer buf{TileBuffer::Elem::I32, v.data(), {rows, cols}};
    const BufferRanges r(buf);
    for (int k = 0; k < 50; ++k) {
      double lo[2] = {static_cast<double>(rng() % rows), static_cast<double>(rng() % cols)};
      double hi[2] = {lo[0] + rng() % rows, lo[1] + rng() % cols};
      double mn = 1e9, mx = -1e9;
      for (int64_t i = static_cast<int64_t>(lo[0]);
           i <= std::min<int64_t>(static_cast<int64_t>(hi[0]), rows - 1); ++i)
        for (int64_t j = static_cast<int64_t>(lo[1]);
             j <= std::min<int64_t>(static_cast<int64_t>(hi[1]), cols - 1); ++j) {
          mn = std::min<double>(mn, v[i * cols + j]);
          mx = std::max<double>(mx, v[i * cols + j]);
        }
      BOOST_TEST(r.box(lo, hi, 2, false) == mn);
      BOOST_TEST(r.box(lo, hi, 2, true) == mx);
    }
  }
}

BOOST_AUTO_TEST_CASE(plan_text_round_trip) {
  BufferArg doc = buffer_arg("doc", ElemType::I32);
  KernelArg off = scalar_arg("off");
  for (HExpr m :
       {Q() >= KV() && Q() - KV() < 100, doc.load(Q()) == doc.load(KV()) && Q() + scalar_var(off) >= KV(),
        Halide::exp(Halide::cast<float>(Q() - KV())) > 2.0f}) {
    KernelIR ir = make_ir(m);
    ir.args = {doc.arg, off};
    auto plan = plan_tiles(ir, {16, 32});
    const std::string text = write_tile_plan_program(tile_plan_program(*plan));
    const TilePlanProgram back = read_tile_plan_program(text);
    BOOST_TEST(write_tile_plan_program(back) == text);
    std::vector<int32_t> docs(500);
    for (size_t i = 0; i < docs.size(); ++i) docs[i] = static_cast<int32_t>(i / 77);
    TilePlanInputs in;
    in.q_len = 500;
    in.kv_len = 450;
    in.scalars["off"] = 3;
    in.buffers = {{"doc", view(docs)}};
    const TileGrid a = plan_tile_grid(tile_plan_program(*plan), in), b = plan_tile_grid(back, in);
    BOOST_TEST(a.row_begin == b.row_begin);
    BOOST_TEST(a.count(TileKind::Full) == b.count(TileKind::Full));
    BOOST_TEST(a.count(TileKind::Partial) == b.count(TileKind::Partial));
    // Truncations and corruptions are rejected, never run.
    for (size_t cut : {size_t{0}, text.size() / 3, text.size() / 2, text.size() - 3})
      BOOST_CHECK_THROW(read_tile_plan_program(text.substr(0, cut)), std::invalid_argument);
    std::string bad = text;
    const size_t ops = bad.find("ops ");
    bad.replace(bad.find('\n', ops) + 1, 1, "99");
    BOOST_CHECK_THROW(read_tile_plan_program(bad), std::invalid_argument);
  }
}

namespace {

// topk_tiles (video sparse attention): any(j < top_k: topk[h, q // t, j] == kv // t), top_k the
// run-time extent of topk's last dimension.
struct TopkMask {
  BufferArg topk = buffer_arg("topk", ElemType::I32, 3);
  int t;
  explicit TopkMask(int tile) : t(tile) {}
  HExpr extent() const { return HI::Variable::make(Halide::Int(32), "topk.extent.2", topk.arg.param); }
  HExpr body() const {
    HExpr j = HI::Variable::make(Halide::Int(32), "attn_r0");
    return topk.load({index_var(IndexVar::H), Q() / t, j}) == KV() / t;
  }
  KernelIR ir(HExpr mask) const {
    KernelIR k = make_ir(mask);
    k.args = {topk.arg};
    return k;
  }
};

// Random top-k rows: `top_k` key-tile indices per (head, query tile), some out of range or repeated.
std::vector<int32_t> random_topk(std::mt19937& rng, int64_t heads, int64_t tiles, int64_t top_k,
                                 int64_t kv_tiles) {
  std::vector<int32_t> v(static_cast<size_t>(heads * tiles * top_k));
  for (auto& x : v) x = static_cast<int32_t>(rng() % (kv_tiles + 2)) - 1;
  return v;
}

}  // namespace

BOOST_AUTO_TEST_CASE(bounded_reductions_brute_force) {
  std::mt19937 rng(17);
  for (int iter = 0; iter < 40; ++iter) {
    const int t = kBlocks[rng() % 9] * (iter % 2 ? 1 : 4);
    const TopkMask m(t);
    // any (the stdlib mask), its negation through all, and one in a disjunction with causal.
    const HExpr any = make_reduction(Reduction::Any, "attn_r0", m.extent(), m.body());
    const HExpr all = make_reduction(Reduction::All, "attn_r0", m.extent(), !m.body());
    const int which = iter % 3;
    const HExpr mask = which == 0 ? any : which == 1 ? all : (any || Q() >= KV());
    const bool aligned = iter % 5 == 0;
    const int bq = aligned ? t : kBlocks[rng() % 9], bk = aligned ? t : kBlocks[rng() % 9];
    auto plan = plan_tiles(m.ir(mask), {bq, bk});
    TilePlanInputs in;
    in.q_len = 1 + rng() % 300;
    in.kv_len = 1 + rng() % 300;
    const int64_t heads = 2, q_tiles = (in.q_len + t - 1) / t, kv_tiles = (in.kv_len + t - 1) / t;
    // The same compiled plan for top_k changing between calls, 0 included.
    for (int64_t top_k : {int64_t{0}, int64_t{1}, int64_t{3}, 1 + static_cast<int64_t>(rng() % 9)}) {
      std::vector<int32_t> topk = random_topk(rng, heads, q_tiles, top_k, kv_tiles);
      in.buffers = {{"topk", TileBuffer{TileBuffer::Elem::I32, topk.data(), {heads, q_tiles, top_k}}}};
      for (int64_t hh = 0; hh < heads; ++hh) {
        auto listed = [&](int64_t q, int64_t kv) {
          for (int64_t j = 0; j < top_k; ++j)
            if (topk[(hh * q_tiles + q / t) * top_k + j] == kv / t) return true;
          return false;
        };
        const Oracle oracle = [&](int64_t q, int64_t kv) {
          return which == 0 ? listed(q, kv) : which == 1 ? !listed(q, kv) : listed(q, kv) || q >= kv;
        };
        in.h_lo = in.h_hi = static_cast<double>(hh);
        const std::string what = "reduction " + std::to_string(which) + " t=" + std::to_string(t) +
                                 " top_k=" + std::to_string(top_k) + " head " + std::to_string(hh);
        const TileGrid g = plan_tile_grid(tile_plan_program(*plan), in);
        check_grid(g, oracle, what);
        // Tiles of the selection's own size are decided exactly: no Partial tile is left.
        if (aligned && which != 2) BOOST_TEST(g.count(TileKind::Partial) == 0, what);
        // The element program evaluates the reduction exactly.
        const std::vector<uint8_t> e =
            eval_element_mask(tile_plan_program(*plan), in, 0, in.q_len, 0, in.kv_len);
        for (int64_t q = 0; q < in.q_len; ++q)
          for (int64_t kv = 0; kv < in.kv_len; ++kv)
            if (e[q * in.kv_len + kv] != oracle(q, kv)) {
              BOOST_ERROR(what << ": element (" << q << ", " << kv << ") differs");
              q = in.q_len;
              break;
            }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(numeric_reductions_brute_force) {
  // A per-head window from a sum, max or min over a row of widths with a scalar bound.
  BufferArg w = buffer_arg("w", ElemType::I32, 2);
  KernelArg n = scalar_arg("n");
  std::mt19937 rng(23);
  for (int iter = 0; iter < 30; ++iter) {
    const Reduction op = iter % 3 == 0 ? Reduction::Sum : iter % 3 == 1 ? Reduction::Max : Reduction::Min;
    HExpr j = HI::Variable::make(Halide::Int(32), "attn_r0");
    const HExpr width = make_reduction(op, "attn_r0", scalar_var(n), w.load({index_var(IndexVar::H), j}));
    KernelIR ir = make_ir(Q() >= KV() && Q() - KV() < width);
    ir.args = {w.arg, n};
    auto plan = plan_tiles(ir, {kBlocks[rng() % 9], kBlocks[rng() % 9]});
    TilePlanInputs in;
    in.q_len = 1 + rng() % 250;
    in.kv_len = 1 + rng() % 250;
    const int64_t heads = 2, cols = 6;
    std::vector<int32_t> ws(heads * cols);
    for (auto& x : ws) x = static_cast<int32_t>(rng() % 60) - 10;
    in.buffers = {{"w", TileBuffer{TileBuffer::Elem::I32, ws.data(), {heads, cols}}}};
    for (int64_t count : {int64_t{0}, int64_t{2}, cols}) {
      in.scalars["n"] = static_cast<double>(count);
      for (int64_t hh = 0; hh < heads; ++hh) {
        int64_t acc = op == Reduction::Sum   ? 0
                      : op == Reduction::Max ? std::numeric_limits<int32_t>::min()
                                             : std::numeric_limits<int32_t>::max();
        for (int64_t k = 0; k < count; ++k) {
          const int64_t x = ws[hh * cols + k];
          acc = op == Reduction::Sum ? acc + x : op == Reduction::Max ? std::max(acc, x) : std::min(acc, x);
        }
        in.h_lo = in.h_hi = static_cast<double>(hh);
        const TileGrid g = plan_tile_grid(tile_plan_program(*plan), in);
        check_grid(
            g, [acc](int64_t q, int64_t kv) { return q >= kv && q - kv < acc; },
            std::string(kReductionNames[static_cast<int>(op)]) + " n=" + std::to_string(count));
        // One head's bound is exact: tiles wholly past the window (or above the diagonal) are Empty.
        for (int64_t qt = 0; qt < g.q_tiles; ++qt)
          for (int64_t kt = 0; kt < g.kv_tiles; ++kt) {
            const int64_t q_min = qt * g.block_q, kv_min = kt * g.block_kv;
            const int64_t q_max = std::min(q_min + g.block_q, in.q_len) - 1,
                          kv_max = std::min(kv_min + g.block_kv, in.kv_len) - 1;
            if ((q_min - kv_max >= acc || q_max < kv_min) && g.at(qt, kt) != TileKind::Empty)
              BOOST_ERROR("tile (" << qt << ", " << kt << ") outside the window is not Empty");
          }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(reduction_plan_text_round_trip) {
  const TopkMask m(16);
  auto plan = plan_tiles(m.ir(make_reduction(Reduction::Any, "attn_r0", m.extent(), m.body())), {16, 16});
  const std::string text = write_tile_plan_program(tile_plan_program(*plan));
  BOOST_TEST(text.find("attn-tile-plan 2\n") == 0u);
  const TilePlanProgram back = read_tile_plan_program(text);
  BOOST_TEST(write_tile_plan_program(back) == text);
  // A version-1 text (an older attnc's .cu) is refused with what to do about it.
  std::string old = text;
  old.replace(0, std::string("attn-tile-plan 2").size(), "attn-tile-plan 1");
  try {
    read_tile_plan_program(old);
    BOOST_ERROR("a version-1 plan text was accepted");
  } catch (const std::invalid_argument& e) {
    BOOST_TEST(std::string(e.what()).find("regenerate the source") != std::string::npos, e.what());
  }
  std::mt19937 rng(3);
  std::vector<int32_t> topk = random_topk(rng, 1, 10, 4, 10);
  TilePlanInputs in;
  in.q_len = in.kv_len = 160;
  in.buffers = {{"topk", TileBuffer{TileBuffer::Elem::I32, topk.data(), {1, 10, 4}}}};
  const TileGrid a = plan_tile_grid(tile_plan_program(*plan), in), b = plan_tile_grid(back, in);
  BOOST_TEST(a.row_begin == b.row_begin);
  BOOST_TEST(a.count(TileKind::Full) == b.count(TileKind::Full));
  BOOST_TEST(a.count(TileKind::Partial) == 0);  // tiles of the selection's size: all decided
  BOOST_TEST(a.count(TileKind::Full) > 0);
  BOOST_TEST(a.count(TileKind::Empty) > 0);
  // A loop whose end is not where it says, or an opcode a runtime does not know, is rejected.
  const std::string loop = "\n" + std::to_string(static_cast<int>(TileOpCode::Loop)) + " 0 ";
  const size_t at = text.find(loop);
  BOOST_REQUIRE(at != std::string::npos);
  std::string bad = text;
  const size_t line_end = bad.find('\n', at + 1);
  std::istringstream fields(bad.substr(at + 1, line_end - at - 1));
  int code = 0, is_float = 0, a_reg = 0, b_reg = 0, c_reg = 0;
  fields >> code >> is_float >> a_reg >> b_reg >> c_reg;
  bad.replace(
      at + 1, line_end - at - 1,
      std::to_string(code) + " 0 " + std::to_string(a_reg) + " -1 " + std::to_string(c_reg - 1) + " 0");
  BOOST_CHECK_THROW(read_tile_plan_program(bad), std::invalid_argument);
  bad = text;
  bad.replace(at + 1, loop.size() - 2, std::to_string(static_cast<int>(TileOpCode::EndLoop) + 1));
  BOOST_CHECK_THROW(read_tile_plan_program(bad), std::invalid_argument);
}
