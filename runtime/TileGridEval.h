// The run-time tile planner over TileProgramEval.h: a compiled plan (closed-form key-tile ranges
// per query tile, refined per tile where needed) evaluated for given lengths, scalars and buffers,
// and the plan as attn_kernel_args' key ranges. Header-only C++17 like TileProgramEval.h, and
// carried by generated CPU kernels in the same way.
#ifndef ATTN_TILE_GRID_EVAL_H
#define ATTN_TILE_GRID_EVAL_H

#include <optional>

#include "runtime/TileProgramEval.h"

#ifdef ATTN_TILE_EVAL_INTERNAL
namespace {
#endif
namespace attn_tile_eval {

/// What a (query tile, key tile) pair needs: nothing, the mask per element, or no mask at all.
enum class Kind : uint8_t { Empty, Partial, Full };

/// Key tiles [begin, end) of one query tile that share a kind (never Empty: absent runs are).
struct Run {
  int64_t begin = 0, end = 0;
  Kind kind = Kind::Partial;
};

/// A concrete plan: for each query tile, its non-empty key tiles as sorted, disjoint runs.
/// O(query tiles + runs) memory: nothing is stored per element or per empty tile.
struct Grid {
  int64_t q_len = 0, kv_len = 0;
  int block_q = 64, block_kv = 64;
  int64_t q_tiles = 0, kv_tiles = 0;
  std::vector<int64_t> row_begin;  ///< runs of query tile qt: runs[row_begin[qt] .. row_begin[qt+1])
  std::vector<Run> runs;
};

/// The programs of a plan (attn::TilePlanProgram documents their inputs and outputs).
struct PlanPrograms {
  int block_q = 64, block_kv = 64;
  Program tile, ranges;
  bool ranges_exact = false;
};

/// A call's values: lengths, the heads (or batches) the plan must hold for ([lo, hi]), the
/// scalars the mask reads and its buffers, in the plan's order.
struct PlanArgs {
  int64_t q_len = 0, kv_len = 0;
  double b_lo = -1e300, b_hi = 1e300, h_lo = -1e300, h_hi = 1e300;
  std::vector<double> scalars;
  const Ranges* buffers = nullptr;
};

namespace detail {

// Appends a run to the current row, merging it with the previous one when they touch.
inline void push_run(Grid& g, int64_t begin, int64_t end, Kind kind, size_t row_start) {
  if (begin >= end || kind == Kind::Empty) return;
  if (g.runs.size() > row_start && g.runs.back().end == begin && g.runs.back().kind == kind) {
    g.runs.back().end = end;
    return;
  }
  g.runs.push_back({begin, end, kind});
}

// Per-tile classification with loop-invariant work hoisted: ops that depend only on the key tile
// are evaluated once per key tile and kept in a table; only the ops mixing q and kv run per pair.
// A failed run (`error` set) leaves every later answer Partial.
class TileClassifier {
 public:
  TileClassifier(const PlanPrograms& plan, const PlanArgs& in, int64_t kv_tiles, RunError& error)
      : plan_(plan), in_(in), prog_(plan.tile), error_(error) {
    std::vector<uint8_t> cls(10 + in.scalars.size(), 0);
    cls[0] = cls[1] = 1;
    cls[2] = cls[3] = 2;
    op_class_ = classify(prog_, cls.data(), cls.size());
    prog_.op_class = op_class_.data();
    inputs_ = {0, 0, 0, 0, in.b_lo, in.b_hi, in.h_lo, in.h_hi, double(in.q_len), double(in.kv_len)};
    inputs_.insert(inputs_.end(), in.scalars.begin(), in.scalars.end());
    regs_.assign(prog_.num_ops, 0);
    step(0);
    for (size_t i = 0; i < prog_.num_ops; ++i)
      if (op_class_[i] == 2) kv_ops_.push_back(i);
    table_.resize(kv_ops_.size() * static_cast<size_t>(kv_tiles));
    for (int64_t kt = 0; kt < kv_tiles; ++kt) {
      inputs_[2] = static_cast<double>(kt * plan.block_kv);
      inputs_[3] = static_cast<double>(std::min((kt + 1) * plan.block_kv, in.kv_len) - 1);
      step(2);
      for (size_t j = 0; j < kv_ops_.size(); ++j)
        table_[static_cast<size_t>(kt) * kv_ops_.size() + j] = regs_[kv_ops_[j]];
    }
  }

  void set_query_tile(int64_t qt) {
    inputs_[0] = static_cast<double>(qt * plan_.block_q);
    inputs_[1] = static_cast<double>(std::min((qt + 1) * plan_.block_q, in_.q_len) - 1);
    step(1);
  }

  Kind classify_tile(int64_t kt) {
    for (size_t j = 0; j < kv_ops_.size(); ++j)
      regs_[kv_ops_[j]] = table_[static_cast<size_t>(kt) * kv_ops_.size() + j];
    return finish();
  }

  /// Classifies key tiles [k0, k1) of the current query tile as one box: Empty or Full then
  /// holds for each of them (a condition proven over a box holds over its parts).
  Kind classify_range(int64_t k0, int64_t k1) {
    inputs_[2] = static_cast<double>(k0 * plan_.block_kv);
    inputs_[3] = static_cast<double>(std::min(k1 * plan_.block_kv, in_.kv_len) - 1);
    step(2);
    return finish();
  }

 private:
  void step(uint8_t cls) {
    if (error_.kind == RunError::Kind::None)
      run(prog_, regs_.data(), inputs_.data(), in_.buffers, cls, error_);
  }
  Kind finish() {
    step(3);
    if (error_.kind != RunError::Kind::None) return Kind::Partial;
    if (regs_[static_cast<size_t>(prog_.outputs[0])] != 0) return Kind::Empty;
    if (regs_[static_cast<size_t>(prog_.outputs[1])] != 0) return Kind::Full;
    return Kind::Partial;
  }

  const PlanPrograms& plan_;
  const PlanArgs& in_;
  Program prog_;
  RunError& error_;
  std::vector<uint8_t> op_class_;
  std::vector<double> inputs_, regs_, table_;
  std::vector<size_t> kv_ops_;
};

// Classifies key tiles [k0, k1) of the current query tile by bisection: a span proven Empty or
// Full as a whole is not split further, so long uniform stretches (documents, bands) cost
// O(log(kv_tiles)) box tests instead of one test per tile. Small spans go tile by tile.
inline void refine_span(Grid& g, TileClassifier& tiles, int64_t k0, int64_t k1, size_t row_start) {
  if (k0 >= k1) return;
  if (k1 - k0 <= 4) {
    for (int64_t kt = k0; kt < k1; ++kt) push_run(g, kt, kt + 1, tiles.classify_tile(kt), row_start);
    return;
  }
  const Kind k = tiles.classify_range(k0, k1);
  if (k != Kind::Partial) return push_run(g, k0, k1, k, row_start);
  const int64_t mid = k0 + (k1 - k0) / 2;
  refine_span(g, tiles, k0, mid, row_start);
  refine_span(g, tiles, mid, k1, row_start);
}

}  // namespace detail

/// Builds the concrete plan: closed-form ranges per query tile, refined per tile where needed
/// (O(tiles), never O(q_len * kv_len)). Block sizes and lengths must be positive and
/// non-negative. Returns false, with `error` set, when a program does not fit the buffers.
inline bool plan_grid(const PlanPrograms& plan, const PlanArgs& in, Grid& g, RunError& error) {
  g = Grid();
  g.q_len = in.q_len;
  g.kv_len = in.kv_len;
  g.block_q = plan.block_q;
  g.block_kv = plan.block_kv;
  g.q_tiles = (in.q_len + plan.block_q - 1) / plan.block_q;
  g.kv_tiles = (in.kv_len + plan.block_kv - 1) / plan.block_kv;
  error = RunError();

  // The closed form takes b and h as points: over a range of heads it holds only if it does not
  // depend on them.
  Program ranges = plan.ranges;
  std::vector<uint8_t> cls(7 + in.scalars.size(), 0);
  cls[5] = 1;
  cls[6] = 2;
  const std::vector<uint8_t> op_class = classify(ranges, cls.data(), cls.size());
  uint8_t uses = 0;
  for (size_t i = 0; i < ranges.num_outputs; ++i) uses |= op_class[static_cast<size_t>(ranges.outputs[i])];
  const bool ranges_valid = !(((uses & 1) && in.b_lo != in.b_hi) || ((uses & 2) && in.h_lo != in.h_hi));
  const bool refine = !plan.ranges_exact || !ranges_valid;

  std::vector<double> rin = {0,
                             static_cast<double>(g.q_tiles),
                             static_cast<double>(g.kv_tiles),
                             static_cast<double>(in.q_len),
                             static_cast<double>(in.kv_len),
                             in.b_lo,
                             in.h_lo};
  rin.insert(rin.end(), in.scalars.begin(), in.scalars.end());
  std::vector<double> regs(ranges.num_ops);
  std::optional<detail::TileClassifier> tiles;
  if (refine && g.q_tiles > 0) tiles.emplace(plan, in, g.kv_tiles, error);
  if (error.kind != RunError::Kind::None) return false;

  const double nk = static_cast<double>(g.kv_tiles);
  g.row_begin.reserve(static_cast<size_t>(g.q_tiles) + 1);
  for (int64_t qt = 0; qt < g.q_tiles; ++qt) {
    const size_t row_start = g.runs.size();
    g.row_begin.push_back(static_cast<int64_t>(row_start));
    double lo = 0, flo = 0, fhi = 0, hi = nk;
    if (ranges_valid) {
      rin[0] = static_cast<double>(qt);
      if (!run(ranges, regs.data(), rin.data(), in.buffers, 0xff, error)) return false;
      auto out = [&](size_t i) { return regs[static_cast<size_t>(ranges.outputs[i])]; };
      lo = std::clamp(out(0), 0.0, nk);
      hi = std::clamp(out(3), lo, nk);
      flo = std::clamp(out(1), lo, hi);
      fhi = std::clamp(out(2), flo, hi);
    }
    const auto L = static_cast<int64_t>(lo), FL = static_cast<int64_t>(flo), FH = static_cast<int64_t>(fhi),
               H = static_cast<int64_t>(hi);
    if (!refine) {
      detail::push_run(g, L, FL, Kind::Partial, row_start);
      detail::push_run(g, FL, FH, Kind::Full, row_start);
      detail::push_run(g, FH, H, Kind::Partial, row_start);
      continue;
    }
    tiles->set_query_tile(qt);
    detail::refine_span(g, *tiles, L, FL, row_start);
    detail::push_run(g, FL, FH, Kind::Full, row_start);
    detail::refine_span(g, *tiles, FH, H, row_start);
    if (error.kind != RunError::Kind::None) return false;
  }
  g.row_begin.push_back(static_cast<int64_t>(g.runs.size()));
  return true;
}

/// A plan as attn_kernel_args' key ranges (version 3): per block of block_q query rows, the hull
/// [lo, hi) of its keys ([0, 0) when none) and its runs of keys, touching runs merged.
struct KeyRanges {
  int64_t block_q = 0;
  std::vector<int64_t> ranges;            ///< [lo, hi) per block
  std::vector<int64_t> run_starts, runs;  ///< kv_run_starts and kv_runs
};

inline KeyRanges key_ranges(const Grid& g) {
  KeyRanges out;
  out.block_q = g.block_q;
  out.ranges.resize(static_cast<size_t>(2 * g.q_tiles));
  out.run_starts.push_back(0);
  for (int64_t qt = 0; qt < g.q_tiles; ++qt) {
    const size_t first = static_cast<size_t>(g.row_begin[static_cast<size_t>(qt)]);
    const size_t last = static_cast<size_t>(g.row_begin[static_cast<size_t>(qt) + 1]);
    for (size_t r = first; r < last; ++r) {  // touching runs (partial next to full) as one
      const int64_t lo = g.runs[r].begin * g.block_kv, hi = std::min(g.runs[r].end * g.block_kv, g.kv_len);
      if (out.runs.size() > static_cast<size_t>(2 * out.run_starts.back()) && out.runs.back() == lo)
        out.runs.back() = hi;
      else
        out.runs.insert(out.runs.end(), {lo, hi});
    }
    out.run_starts.push_back(static_cast<int64_t>(out.runs.size() / 2));
    if (first == last) continue;  // every key tile empty: [0, 0)
    out.ranges[static_cast<size_t>(2 * qt)] = g.runs[first].begin * g.block_kv;
    out.ranges[static_cast<size_t>(2 * qt + 1)] = std::min(g.runs[last - 1].end * g.block_kv, g.kv_len);
  }
  return out;
}

}  // namespace attn_tile_eval
#ifdef ATTN_TILE_EVAL_INTERNAL
}  // namespace
#endif

#endif  // ATTN_TILE_GRID_EVAL_H
