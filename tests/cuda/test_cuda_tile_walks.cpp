// The key and query tiles every CUDA entry point visits, compiled for the host from the device
// text and checked against a brute-force scan of the mask: the forward walk of each tile shape the
// table, the warpgroup kernel and the backward use (CtaRows + cta_key_tiles, with the launcher's
// grid: split-KV shares, packed heads when decoding), the dq kernel's walk per query tile and per
// row (count_ties), and the dkdv kernel's walk over query tiles (QueryTiles). Every tile with an
// allowed element is visited exactly once, in order; a tile visited unchecked (no mask, no bounds
// tests) is all allowed and in bounds. Every kernel of tests/cuda, samples/ and the stdlib, at
// lengths that are not tile multiples, Lq != Lkv both ways, decoding rows and GQA.
#define BOOST_TEST_MODULE cuda_tile_walks
#include <boost/test/unit_test.hpp>

#include <dlfcn.h>

#include <future>
#include <map>
#include <set>
#include <sstream>

#include "attn/cuda_abi.h"
#include "attn/cuda_backward_abi.h"
#include "backends/cuda/CudaBackward.h"
#include "backends/cuda/CudaDeviceText.h"
#include "backends/cuda/CudaPrinter.h"
#include "backends/cuda/CudaTiles.h"
#include "codegen/KernelIR.h"
#include "codegen/Lower.h"
#include "runtime/CudaGrid.h"
#include "runtime/CudaLauncher.h"
#include "tests/cuda/CudaTestKernels.h"
#include "tests/cuda/HostDeviceCode.h"
#include "tests/support/TestSupport.h"

using namespace attn;

namespace {

/// A tile shape some entry point walks: BM query rows by BN keys.
struct Shape {
  int bm, bn;
  bool operator<(const Shape& o) const { return std::tie(bm, bn) < std::tie(o.bm, o.bn); }
};

constexpr int kBackwardBlock = 64;  // ATTN_BWD_BM = ATTN_BWD_BN (CudaBackwardPrinter)

/// The forward shapes the tile table, the warpgroup kernel and the tuner's defaults give on sm_80
/// and sm_90 for every dtype (head dims 64, 128 and 256), and the backward's.
std::set<Shape> entry_point_shapes() {
  std::set<Shape> out = {{kBackwardBlock, kBackwardBlock}};
  for (int sm : {80, 90})
    for (DType t : {DType::F32, DType::BF16, DType::F16})
      for (int d : {64, 128, 256}) {
        const CudaTileConfig c = choose_cuda_tiles(sm, t, d, d);
        out.insert({c.block_m, c.block_n});
        if (auto w = cuda_wgmma_tiles(sm, t, d, d)) out.insert({w->block_m, w->block_n});
      }
  return out;
}

const std::pair<int, int> kLengths[] = {{1, 1},     {77, 77},  {200, 333},  {513, 129},
                                        {70, 2600}, {1, 3001}, {4097, 4096}};

/// The walks of one kernel at one shape, compiled into the host library as `<ns>_fwd` (one CTA of
/// the forward), `<ns>_dq` / `<ns>_row` (the dq kernel per query tile / per row) and `<ns>_dkdv`.
std::string walk_functions(const std::string& ns, const KernelIR& ir, Shape s, std::string* plan) {
  const std::string bm = std::to_string(s.bm), bn = std::to_string(s.bn);
  std::string src = "namespace " + ns + " {\n" + print_cuda_device_functions(ir, plan, s.bm, s.bn) +
                    cuda_device_text("attn_split_merge.cuh") + cuda_device_text("attn_tiles.cuh") +
                    cuda_device_text("attn_bwd_tiles.cuh") + "}\n";
  src += "extern \"C\" int " + ns +
         "_fwd(const attn_cuda_params* p, unsigned x, unsigned y, unsigned z, int* rows, int* tile, int* "
         "unchecked) {\n"
         "  using namespace " +
         ns +
         "::attn_dev;\n"
         "  blockIdx = {x, y, z};\n"
         "  const CtaRows cr(*p, " +
         bm +
         ");\n"
         "  rows[0] = cr.h0, rows[1] = cr.q0, rows[2] = cr.h_step, rows[3] = cr.q_step, rows[4] = cr.rows;\n"
         "  const KeyTiles t = cta_key_tiles(*p, cr, " +
         bn +
         ");\n"
         "  int n = 0;\n"
         "  for (int kt = t.next(*p, -1, " +
         bn + "); kt < t.kv_tiles; kt = t.next(*p, kt, " + bn +
         "), ++n)\n"
         "    tile[n] = kt, unchecked[n] = t.unchecked(*p, kt, cr.q0, " +
         bm + ", " + bn +
         ");\n"
         "  return n;\n}\n";
  src += "extern \"C\" int " + ns +
         "_row(const attn_cuda_params* p, int b, int h, int q, int* tile) {\n"
         "  using namespace " +
         ns +
         "::attn_dev;\n"
         "  const KeyTiles t(*p, b, h, q / " +
         bm + ", q, q, (p->kv_len + " + bn + " - 1) / " + bn +
         ");\n"
         "  int n = 0;\n"
         "  for (int kt = t.next(*p, -1, " +
         bn + "); kt < t.kv_tiles; kt = t.next(*p, kt, " + bn +
         "), ++n)\n"
         "    tile[n] = kt;\n"
         "  return n;\n}\n";
  src += "extern \"C\" int " + ns +
         "_dkdv(const attn_cuda_bwd_params* bp, int b, int h, int kt, int* tile, int* unchecked) {\n"
         "  using namespace " +
         ns +
         "::attn_dev;\n"
         "  const QueryTiles<" +
         bm + ", " + bn +
         "> t(*bp, b, h, kt);\n"
         "  int n = 0;\n"
         "  for (int qt = t.next(bp->fwd, -1); qt < t.q_tiles; qt = t.next(bp->fwd, qt), ++n)\n"
         "    tile[n] = qt, unchecked[n] = t.unchecked(bp->fwd, qt);\n"
         "  return n;\n}\n";
  // The mask as the kernels evaluate it, over a block of rows: the brute-force scan.
  src += "extern \"C\" void " + ns +
         "_scan(const attn_cuda_params* p, int b, int h, int q_begin, int q_end, unsigned char* out) {\n"
         "  using namespace " +
         ns +
         "::attn_dev;\n"
         "  for (int q = q_begin; q < q_end; ++q)\n"
         "    for (int kv = 0; kv < p->kv_len; ++kv)\n"
         "      out[(long long)(q - q_begin) * p->kv_len + kv] = element_allowed(*p, b, h, q, kv);\n"
         "}\n";
  return src;
}

using FwdFn = int (*)(const attn_cuda_params*, unsigned, unsigned, unsigned, int*, int*, int*);
using RowFn = int (*)(const attn_cuda_params*, int, int, int, int*);
using DkdvFn = int (*)(const attn_cuda_bwd_params*, int, int, int, int*, int*);
using ScanFn = void (*)(const attn_cuda_params*, int, int, int, int, unsigned char*);

/// Allowed elements of the mask per head as 2-D prefix sums: any box's count in O(1).
class MaskCounts {
 public:
  MaskCounts(ScanFn scan, const attn_cuda_params& p, int heads) : lq_(p.q_len), lkv_(p.kv_len) {
    sums_.assign(size_t(heads), std::vector<int32_t>(size_t(lq_ + 1) * size_t(lkv_ + 1), 0));
    std::vector<unsigned char> row(static_cast<size_t>(lkv_));
    for (int h = 0; h < heads; ++h) {
      std::vector<int32_t>& s = sums_[size_t(h)];
      for (int q = 0; q < lq_; ++q) {
        scan(&p, 0, h, q, q + 1, row.data());
        int32_t line = 0;
        for (int kv = 0; kv < lkv_; ++kv) {
          line += row[size_t(kv)];
          s[at(q + 1, kv + 1)] = s[at(q, kv + 1)] + line;
        }
      }
    }
  }
  /// Allowed elements of head h in rows [q0, q1) x keys [k0, k1), clipped to the lengths.
  int64_t count(int h, int q0, int q1, int k0, int k1) const {
    q1 = std::min(q1, lq_), k1 = std::min(k1, lkv_);
    if (q0 >= q1 || k0 >= k1) return 0;
    const std::vector<int32_t>& s = sums_[size_t(h)];
    return int64_t(s[at(q1, k1)]) - s[at(q0, k1)] - s[at(q1, k0)] + s[at(q0, k0)];
  }

 private:
  size_t at(int q, int kv) const { return size_t(q) * size_t(lkv_ + 1) + size_t(kv); }
  int lq_, lkv_;
  std::vector<std::vector<int32_t>> sums_;
};

/// One kernel of the test and the walks of each shape in the host library.
struct WalkedKernel {
  std::string label;
  std::shared_ptr<const KernelIR> ir;
  std::map<Shape, std::string> ns;    // shape -> namespace in the library
  std::map<Shape, std::string> plan;  // shape -> the run-time planner's program (buffer masks)
};

/// The test kernels, one per distinct mask (the stdlib's dtype wrappers share theirs).
std::vector<WalkedKernel> walked_kernels() {
  std::vector<std::string> errors;
  std::vector<WalkedKernel> out;
  std::set<std::string> masks;
  for (test::TestKernel& k : test::cuda_test_kernels(errors, {"f32"})) {
    std::ostringstream key;
    key << k.ir->mask;
    for (const KernelArg& a : k.ir->args) key << " " << a.name;
    if (!masks.insert(key.str()).second) continue;
    out.push_back({k.label, k.ir, {}, {}});
  }
  BOOST_TEST(errors.empty(), errors.size() << " test kernels failed to lower");
  return out;
}

/// Wrong visits: how many, the first few, and the kernels they are in.
struct Failures {
  int count = 0;
  std::string first;
  std::set<std::string> kernels;
  void add(const std::string& what) {
    if (count++ < 20) first += what + "\n";
    kernels.insert(what.substr(0, what.find(" at Lq=")));
  }
};

/// Checks one walk's visits (strictly increasing, within [0, tiles)) and returns them as a set.
std::set<int> visits(const int* tile, int n, int tiles, const std::string& where, Failures& f) {
  std::set<int> out;
  for (int j = 0; j < n; ++j) {
    if (tile[j] < 0 || tile[j] >= tiles || (j > 0 && tile[j] <= tile[j - 1]))
      f.add(where + ": visits tile " + std::to_string(tile[j]) + " out of order or range");
    out.insert(tile[j]);
  }
  return out;
}

/// Every walk of one kernel at one length pair.
void check_walks(void* so, WalkedKernel& k, const std::set<Shape>& shapes, int lq, int lkv, Failures& f,
                 int& skipped) {
  const int heads = lq >= 4096 ? 2 : 4, kv_heads = heads / 2;  // grouped-query attention
  std::mt19937 rng(7);
  // Sequence-long buffers; a top-k list of 8 (std.documents.topk_tiles), not one per position.
  test::HostArguments args(*k.ir, rng, std::max({lq, lkv, 64}), heads, {{"top_k", 8}});
  attn_cuda_params& p = args.params;
  p.batch = 1, p.q_heads = heads, p.kv_heads = kv_heads, p.q_len = lq, p.kv_len = lkv;
  const Shape first = *shapes.begin();
  const auto scan = reinterpret_cast<ScanFn>(dlsym(so, (k.ns.at(first) + "_scan").c_str()));
  const MaskCounts mask(scan, p, heads);
  if (args.error.flag) {  // these buffers index out of range: not inputs a kernel runs on
    ++skipped;
    BOOST_TEST_MESSAGE(k.label << " at " << lq << "x" << lkv << ": buffers read out of range, skipped");
    return;
  }
  std::vector<CudaTensorArg> named;
  std::vector<double> scalars;
  KernelInputs in;
  in.q = HostTensor(ScalarType::F32, {1, heads, lq, 1});
  in.k = HostTensor(ScalarType::F32, {1, kv_heads, lkv, 1});
  for (size_t a = 0, t = 0; a < k.ir->args.size(); ++a)
    if (k.ir->args[a].kind == KernelArg::Kind::Buffer) {
      named.push_back({k.ir->args[a].name, &args.tensors[t]});
      in.buffers[k.ir->args[a].name] = args.tensors[t++];
    } else {
      scalars.push_back(16);
      in.scalars[k.ir->args[a].name] = 16;
    }
  std::vector<int> tile(size_t(lkv + lq + 64)), unchecked(tile.size());
  const std::string at = k.label + " at Lq=" + std::to_string(lq) + " Lkv=" + std::to_string(lkv);

  for (const Shape& s : shapes) {
    const std::string& ns = k.ns.at(s);
    const std::string where = at + ", " + std::to_string(s.bm) + "x" + std::to_string(s.bn) + " tiles";
    const int kv_tiles = (lkv + s.bn - 1) / s.bn, q_tiles = (lq + s.bm - 1) / s.bm;
    auto full_box = [&](int h, int q0, int rows, int k0) {  // all allowed, no padding
      return q0 + s.bm <= lq && k0 + s.bn <= lkv && rows == s.bm &&
             mask.count(h, q0, q0 + s.bm, k0, k0 + s.bn) == int64_t(s.bm) * s.bn;
    };

    // The forward: every CTA of the launcher's grid (split-KV shares, packed heads).
    CudaLaunchInfo info;
    info.block_m = s.bm, info.block_n = s.bn, info.tile_plan = k.plan.at(s);
    info.pack_heads = ignores_head_index(*k.ir);
    for (const KernelArg& a : k.ir->args)
      (a.kind == KernelArg::Kind::Buffer ? info.buffer_names : info.scalar_names).push_back(a.name);
    std::vector<int> run_rows, runs;
    const bool planned = plan_tile_runs(info, lq, lkv, scalars, named, run_rows, runs);
    attn_cuda_params fp = p;
    fp.tile_rows = planned ? run_rows.data() : nullptr;
    fp.tile_runs = planned ? runs.data() : nullptr;
    const CudaGrid g = plan_cuda_grid(info, 132, 1, heads, kv_heads, lq, lkv);
    fp.pack_heads = g.pack_heads, fp.kv_splits = g.kv_splits > 1 ? g.kv_splits : 0;
    const auto fwd = reinterpret_cast<FwdFn>(dlsym(so, (ns + "_fwd").c_str()));
    std::map<std::tuple<unsigned, unsigned>, std::multiset<int>> by_tile;  // (query tile, y) -> tiles
    std::map<std::tuple<unsigned, unsigned>, std::array<int, 5>> rows_of;
    for (unsigned y = 0; y < g.grid[1]; ++y)
      for (unsigned x = 0; x < g.grid[0]; ++x) {
        int r[5];
        const int n = fwd(&fp, x, y, 0, r, tile.data(), unchecked.data());
        const unsigned qt = x / unsigned(g.kv_splits);
        rows_of[{qt, y}] = {r[0], r[1], r[2], r[3], r[4]};
        visits(tile.data(), n, kv_tiles, where + " forward CTA " + std::to_string(x), f);
        for (int j = 0; j < n; ++j) {
          by_tile[{qt, y}].insert(tile[size_t(j)]);
          const int k0 = tile[size_t(j)] * s.bn;
          bool ok = unchecked[size_t(j)] == 0 || (r[2] == 0 && full_box(r[0], r[1], r[4], k0));
          if (unchecked[size_t(j)] && r[2] != 0) {  // packed heads: one row per head at query r[1]
            ok = r[4] == s.bm && k0 + s.bn <= lkv && r[1] + 1 <= lq;
            for (int i = 0; ok && i < r[4]; ++i)
              ok = mask.count(r[0] + i, r[1], r[1] + 1, k0, k0 + s.bn) == s.bn;
          }
          if (!ok)
            f.add(where + ": the forward visits tile (" + std::to_string(qt) + ", " +
                  std::to_string(tile[size_t(j)]) + ") unchecked, but it is not all allowed");
        }
      }
    for (const auto& [key, r] : rows_of)
      for (int kt = 0; kt < kv_tiles; ++kt) {
        int64_t allowed = 0;
        for (int i = 0; i < r[4]; ++i)
          allowed +=
              mask.count(r[0] + i * r[2], r[1] + i * r[3], r[1] + i * r[3] + 1, kt * s.bn, (kt + 1) * s.bn);
        const size_t seen = by_tile[key].count(kt);
        if ((allowed > 0 && seen != 1) || seen > 1)
          f.add(where + ": the forward visits tile (" + std::to_string(std::get<0>(key)) + ", " +
                std::to_string(kt) + ") of head " + std::to_string(r[0]) + " " + std::to_string(seen) +
                " times; it has " + std::to_string(allowed) + " allowed elements");
      }
    if (s.bm != kBackwardBlock || s.bn != kBackwardBlock) continue;

    // The backward (64 x 64, no split, no packing): dq per query tile and per row, dkdv per key tile.
    CudaBackwardSource bsrc;
    bsrc.tile_plan = k.plan.at(s);
    const CudaBackwardTilePlan bplan = plan_cuda_backward_tiles(bsrc, in);
    attn_cuda_bwd_params bp{};
    bp.fwd = p;
    bp.fwd.tile_rows = bplan.rows.empty() ? nullptr : bplan.rows.data();
    bp.fwd.tile_runs = bplan.rows.empty() ? nullptr : bplan.runs.data();
    bp.tile_cols = bplan.cols.empty() ? nullptr : bplan.cols.data();
    bp.tile_col_runs = bplan.cols.empty() ? nullptr : bplan.col_runs.data();
    const auto row = reinterpret_cast<RowFn>(dlsym(so, (ns + "_row").c_str()));
    const auto dkdv = reinterpret_cast<DkdvFn>(dlsym(so, (ns + "_dkdv").c_str()));
    std::set<std::tuple<int, int, int>> by_dkdv;
    for (int h = 0; h < heads; ++h) {
      for (int kt = 0; kt < kv_tiles; ++kt) {
        const int n = dkdv(&bp, 0, h, kt, tile.data(), unchecked.data());
        for (int qt : visits(tile.data(), n, q_tiles, where + " dkdv", f)) by_dkdv.insert({h, qt, kt});
        for (int j = 0; j < n; ++j)
          if (unchecked[size_t(j)] && !full_box(h, tile[size_t(j)] * s.bm, s.bm, kt * s.bn))
            f.add(where + ": dkdv visits tile (" + std::to_string(tile[size_t(j)]) + ", " +
                  std::to_string(kt) + ") unchecked, but it is not all allowed");
      }
      for (int qt = 0; qt < q_tiles; ++qt)
        for (int kt = 0; kt < kv_tiles; ++kt)
          if (mask.count(h, qt * s.bm, (qt + 1) * s.bm, kt * s.bn, (kt + 1) * s.bn) > 0 &&
              !by_dkdv.count({h, qt, kt}))
            f.add(where + ": dkdv skips tile (" + std::to_string(qt) + ", " + std::to_string(kt) +
                  ") of head " + std::to_string(h) + ", which has allowed elements");
      // count_ties' walk: one row at a time.
      for (int q = 0; q<lq; q += lq> 600 ? 7 : 1) {
        const int n = row(&bp.fwd, 0, h, q, tile.data());
        const std::set<int> seen = visits(tile.data(), n, kv_tiles, where + " row walk", f);
        for (int kt = 0; kt < kv_tiles; ++kt)
          if (mask.count(h, q, q + 1, kt * s.bn, (kt + 1) * s.bn) > 0 && !seen.count(kt))
            f.add(where + ": the row walk of query " + std::to_string(q) + " skips key tile " +
                  std::to_string(kt));
      }
    }
  }
}

}  // namespace

// Every walk of every test kernel at every length pair (see the file comment).
BOOST_AUTO_TEST_CASE(every_walk_visits_exactly_the_tiles_the_mask_allows) {
  const std::set<Shape> shapes = entry_point_shapes();
  BOOST_REQUIRE_GE(shapes.size(), 4u);
  std::vector<WalkedKernel> kernels = walked_kernels();
  BOOST_REQUIRE_GE(kernels.size(), 40u);

  // One host library per group of kernels, built two at a time (the host compiler dominates).
  const size_t groups = 4;
  std::vector<std::string> sources(groups, test::host_device_prelude() + "#define ATTN_PACK_HEADS 1\n");
  for (size_t i = 0; i < kernels.size(); ++i)
    for (const Shape& s : shapes) {
      const std::string ns =
          "k" + std::to_string(i) + "_" + std::to_string(s.bm) + "x" + std::to_string(s.bn);
      std::string plan;
      sources[i % groups] += walk_functions(ns, *kernels[i].ir, s, &plan);
      kernels[i].ns[s] = ns;
      kernels[i].plan[s] = plan;
    }
  test::TempDir tmp;
  std::vector<void*> libraries(groups);
  for (size_t i = 0; i < groups; i += 2) {
    std::vector<std::future<test::CommandResult>> builds;
    for (size_t j = i; j < std::min(groups, i + 2); ++j) {
      const auto dir = tmp.path() / std::to_string(j);
      std::filesystem::create_directories(dir);
      test::write_file(dir / "code.cpp", sources[j]);
      builds.push_back(std::async(std::launch::async, [dir] {
        return test::run_command("c++ -std=c++17 -O1 -w -shared -fPIC -o " + (dir / "code.so").string() +
                                 " " + (dir / "code.cpp").string());
      }));
    }
    for (size_t j = i; j < std::min(groups, i + 2); ++j) {
      const test::CommandResult r = builds[j - i].get();
      BOOST_REQUIRE_MESSAGE(r.status == 0, r.output.substr(0, 4000));
      libraries[j] = dlopen((tmp.path() / std::to_string(j) / "code.so").c_str(), RTLD_NOW);
      BOOST_REQUIRE_MESSAGE(libraries[j], dlerror());
    }
  }

  Failures f;
  int skipped = 0, checked = 0;
  for (size_t i = 0; i < kernels.size(); ++i)
    for (const auto& [lq, lkv] : kLengths) {
      check_walks(libraries[i % groups], kernels[i], shapes, lq, lkv, f, skipped);
      ++checked;
    }
  std::string which;
  for (const std::string& k : f.kernels) which += " " + k;
  BOOST_TEST(f.count == 0, f.count << " wrong visits in" << which << "; the first:\n" << f.first);
  // A buffer read out of range skips a kernel's case: that must stay the exception.
  BOOST_TEST(skipped * 10 < checked, skipped << " of " << checked << " cases skipped");
  BOOST_TEST_MESSAGE(kernels.size() << " kernels, " << shapes.size() << " tile shapes, " << checked
                                    << " length pairs checked, " << skipped << " skipped");
  for (void* so : libraries) dlclose(so);
}
