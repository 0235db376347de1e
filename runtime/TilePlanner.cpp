// The run-time tile planner: closed-form ranges per query tile, refined per tile where needed.
#include "runtime/TilePlanner.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <stdexcept>

namespace attn {

const char* tile_kind_name(TileKind k) {
  switch (k) {
    case TileKind::Empty: return "empty";
    case TileKind::Partial: return "partial";
    case TileKind::Full: return "full";
  }
  return "?";
}

TileKind TileGrid::at(int64_t qt, int64_t kt) const {
  auto first = runs.begin() + row_begin[qt], last = runs.begin() + row_begin[qt + 1];
  auto it = std::upper_bound(first, last, kt, [](int64_t k, const TileRun& r) { return k < r.end; });
  return it != last && it->begin <= kt ? it->kind : TileKind::Empty;
}

int64_t TileGrid::count(TileKind k) const {
  int64_t n = 0;
  for (const TileRun& r : runs) n += r.end - r.begin;
  if (k == TileKind::Empty) return q_tiles * kv_tiles - n;
  n = 0;
  for (const TileRun& r : runs)
    if (r.kind == k) n += r.end - r.begin;
  return n;
}

TileBuffer tile_buffer_view(ScalarType type, const void* data, std::vector<int64_t> shape) {
  TileBuffer b;
  b.shape = std::move(shape);
  b.data = data;
  switch (type) {
    case ScalarType::I32: b.elem = TileBuffer::Elem::I32; break;
    case ScalarType::F32: b.elem = TileBuffer::Elem::F32; break;
    case ScalarType::Bool:
    case ScalarType::U8: b.elem = TileBuffer::Elem::U8; break;
    default:
      throw std::invalid_argument(std::string("tile planning reads i32, f32, bool or u8 buffers, not ") +
                                  scalar_type_name(type));
  }
  return b;
}

TileBuffer tile_buffer_view(const HostTensor& t) { return tile_buffer_view(t.type, t.bytes.data(), t.shape); }

namespace {

std::vector<double> scalar_values(const TilePlanProgram& plan, const TilePlanInputs& in) {
  std::vector<double> v;
  for (const std::string& s : plan.scalars) {
    auto it = in.scalars.find(s);
    if (it == in.scalars.end()) throw std::invalid_argument("the mask needs scalar argument '" + s + "'");
    v.push_back(it->second);
  }
  return v;
}

std::vector<BufferRanges> buffer_ranges(const TilePlanProgram& plan, const TilePlanInputs& in) {
  std::vector<BufferRanges> v;
  for (const std::string& s : plan.buffers) {
    auto it = in.buffers.find(s);
    if (it == in.buffers.end()) throw std::invalid_argument("the mask reads buffer '" + s + "'");
    v.emplace_back(it->second);
  }
  return v;
}

// Appends a run to the current row, merging it with the previous one when they touch.
void push_run(TileGrid& g, int64_t begin, int64_t end, TileKind kind, int64_t row_start) {
  if (begin >= end || kind == TileKind::Empty) return;
  if (static_cast<int64_t>(g.runs.size()) > row_start && g.runs.back().end == begin &&
      g.runs.back().kind == kind) {
    g.runs.back().end = end;
    return;
  }
  g.runs.push_back({begin, end, kind});
}

// Per-tile classification with loop-invariant work hoisted: ops that depend only on the key tile
// are evaluated once per key tile and kept in a table; only the ops mixing q and kv run per pair.
class TileClassifier {
 public:
  TileClassifier(const TilePlanProgram& plan, const TilePlanInputs& in, const std::vector<double>& scalars,
                 const std::vector<BufferRanges>& buffers, int64_t kv_tiles)
      : plan_(plan), in_(in), buffers_(buffers), prog_(plan.tile) {
    std::vector<uint8_t> cls(8 + scalars.size(), 0);
    cls[0] = cls[1] = 1;
    cls[2] = cls[3] = 2;
    prog_.classify(cls);
    inputs_ = {0, 0, 0, 0, in.b_lo, in.b_hi, in.h_lo, in.h_hi};
    inputs_.insert(inputs_.end(), scalars.begin(), scalars.end());
    regs_.assign(prog_.ops.size(), 0);
    prog_.run(regs_.data(), inputs_.data(), &buffers_, 0);
    for (size_t i = 0; i < prog_.ops.size(); ++i)
      if (prog_.op_class[i] == 2) kv_ops_.push_back(static_cast<int32_t>(i));
    table_.resize(kv_ops_.size() * kv_tiles);
    for (int64_t kt = 0; kt < kv_tiles; ++kt) {
      inputs_[2] = static_cast<double>(kt * plan.block_kv);
      inputs_[3] = static_cast<double>(std::min((kt + 1) * plan.block_kv, in.kv_len) - 1);
      prog_.run(regs_.data(), inputs_.data(), &buffers_, 2);
      for (size_t j = 0; j < kv_ops_.size(); ++j) table_[kt * kv_ops_.size() + j] = regs_[kv_ops_[j]];
    }
  }

  void set_query_tile(int64_t qt) {
    inputs_[0] = static_cast<double>(qt * plan_.block_q);
    inputs_[1] = static_cast<double>(std::min((qt + 1) * plan_.block_q, in_.q_len) - 1);
    prog_.run(regs_.data(), inputs_.data(), &buffers_, 1);
  }

  TileKind classify(int64_t kt) {
    for (size_t j = 0; j < kv_ops_.size(); ++j) regs_[kv_ops_[j]] = table_[kt * kv_ops_.size() + j];
    return finish();
  }

  /// Classifies key tiles [k0, k1) of the current query tile as one box: Empty or Full then
  /// holds for each of them (a condition proven over a box holds over its parts).
  TileKind classify_range(int64_t k0, int64_t k1) {
    inputs_[2] = static_cast<double>(k0 * plan_.block_kv);
    inputs_[3] = static_cast<double>(std::min(k1 * plan_.block_kv, in_.kv_len) - 1);
    prog_.run(regs_.data(), inputs_.data(), &buffers_, 2);
    return finish();
  }

 private:
  TileKind finish() {
    prog_.run(regs_.data(), inputs_.data(), &buffers_, 3);
    if (regs_[prog_.outputs[0]] != 0) return TileKind::Empty;
    if (regs_[prog_.outputs[1]] != 0) return TileKind::Full;
    return TileKind::Partial;
  }

 public:
 private:
  const TilePlanProgram& plan_;
  const TilePlanInputs& in_;
  const std::vector<BufferRanges>& buffers_;
  TileProgram prog_;
  std::vector<double> inputs_, regs_, table_;
  std::vector<int32_t> kv_ops_;
};

// The element mask with its inputs bound once.
class ElementMask {
 public:
  ElementMask(const TilePlanProgram& plan, const TilePlanInputs& in)
      : prog_(plan.element), buffers_(buffer_ranges(plan, in)), regs_(plan.element.ops.size()) {
    if (!plan.element_error.empty())
      throw std::invalid_argument("the mask cannot be evaluated per element: " + plan.element_error);
    x_ = {std::max(in.b_lo, 0.0), std::max(in.h_lo, 0.0), 0, 0};
    const std::vector<double> scalars = scalar_values(plan, in);
    x_.insert(x_.end(), scalars.begin(), scalars.end());
  }
  bool at(int64_t q, int64_t kv) {
    x_[2] = static_cast<double>(q);
    x_[3] = static_cast<double>(kv);
    prog_.run(regs_.data(), x_.data(), &buffers_);
    return regs_[prog_.outputs[0]] != 0;
  }

 private:
  const TileProgram& prog_;
  std::vector<BufferRanges> buffers_;
  std::vector<double> x_, regs_;
};

// Classifies key tiles [k0, k1) of the current query tile by bisection: a span proven Empty or
// Full as a whole is not split further, so long uniform stretches (documents, bands) cost
// O(log(kv_tiles)) box tests instead of one test per tile. Small spans go tile by tile.
void refine_span(TileGrid& g, TileClassifier& tiles, int64_t k0, int64_t k1, int64_t row_start) {
  if (k0 >= k1) return;
  if (k1 - k0 <= 4) {
    for (int64_t kt = k0; kt < k1; ++kt) push_run(g, kt, kt + 1, tiles.classify(kt), row_start);
    return;
  }
  const TileKind k = tiles.classify_range(k0, k1);
  if (k != TileKind::Partial) return push_run(g, k0, k1, k, row_start);
  const int64_t mid = k0 + (k1 - k0) / 2;
  refine_span(g, tiles, k0, mid, row_start);
  refine_span(g, tiles, mid, k1, row_start);
}

}  // namespace

TileGrid plan_tile_grid(const TilePlanProgram& plan, const TilePlanInputs& in) {
  if (plan.block_q <= 0 || plan.block_kv <= 0) throw std::invalid_argument("tile sizes must be positive");
  if (in.q_len < 0 || in.kv_len < 0) throw std::invalid_argument("lengths must not be negative");
  TileGrid g;
  g.q_len = in.q_len;
  g.kv_len = in.kv_len;
  g.block_q = plan.block_q;
  g.block_kv = plan.block_kv;
  g.q_tiles = (in.q_len + plan.block_q - 1) / plan.block_q;
  g.kv_tiles = (in.kv_len + plan.block_kv - 1) / plan.block_kv;
  const std::vector<double> scalars = scalar_values(plan, in);
  const std::vector<BufferRanges> buffers = buffer_ranges(plan, in);

  // The closed form takes b and h as points: over a range of heads it holds only if it does not
  // depend on them.
  TileProgram ranges = plan.ranges;
  std::vector<uint8_t> cls(7 + scalars.size(), 0);
  cls[5] = 1;
  cls[6] = 2;
  ranges.classify(cls);
  uint8_t uses = 0;
  for (int32_t r : ranges.outputs) uses |= ranges.op_class[r];
  const bool ranges_valid = !(((uses & 1) && in.b_lo != in.b_hi) || ((uses & 2) && in.h_lo != in.h_hi));
  const bool refine = !plan.ranges_exact || !ranges_valid;

  std::vector<double> rin = {0,
                             static_cast<double>(g.q_tiles),
                             static_cast<double>(g.kv_tiles),
                             static_cast<double>(in.q_len),
                             static_cast<double>(in.kv_len),
                             in.b_lo,
                             in.h_lo};
  rin.insert(rin.end(), scalars.begin(), scalars.end());
  std::vector<double> regs(ranges.ops.size());
  std::unique_ptr<TileClassifier> tiles;
  if (refine && g.q_tiles > 0)
    tiles = std::make_unique<TileClassifier>(plan, in, scalars, buffers, g.kv_tiles);

  const double nk = static_cast<double>(g.kv_tiles);
  g.row_begin.reserve(g.q_tiles + 1);
  for (int64_t qt = 0; qt < g.q_tiles; ++qt) {
    const int64_t row_start = static_cast<int64_t>(g.runs.size());
    g.row_begin.push_back(row_start);
    double lo = 0, flo = 0, fhi = 0, hi = nk;
    if (ranges_valid) {
      rin[0] = static_cast<double>(qt);
      ranges.run(regs.data(), rin.data(), &buffers);
      auto out = [&](int i) { return regs[ranges.outputs[i]]; };
      lo = std::clamp(out(0), 0.0, nk);
      hi = std::clamp(out(3), lo, nk);
      flo = std::clamp(out(1), lo, hi);
      fhi = std::clamp(out(2), flo, hi);
    }
    const auto L = static_cast<int64_t>(lo), FL = static_cast<int64_t>(flo), FH = static_cast<int64_t>(fhi),
               H = static_cast<int64_t>(hi);
    if (!refine) {
      push_run(g, L, FL, TileKind::Partial, row_start);
      push_run(g, FL, FH, TileKind::Full, row_start);
      push_run(g, FH, H, TileKind::Partial, row_start);
      continue;
    }
    tiles->set_query_tile(qt);
    refine_span(g, *tiles, L, FL, row_start);
    push_run(g, FL, FH, TileKind::Full, row_start);
    refine_span(g, *tiles, FH, H, row_start);
  }
  g.row_begin.push_back(static_cast<int64_t>(g.runs.size()));
  return g;
}

std::vector<uint8_t> eval_element_mask(const TilePlanProgram& plan, const TilePlanInputs& in, int64_t q0,
                                       int64_t nq, int64_t kv0, int64_t nkv) {
  ElementMask mask(plan, in);
  std::vector<uint8_t> out(static_cast<size_t>(nq * nkv));
  for (int64_t i = 0; i < nq; ++i)
    for (int64_t j = 0; j < nkv; ++j) out[i * nkv + j] = mask.at(q0 + i, kv0 + j);
  return out;
}

MaskDensity mask_density(const TilePlanProgram& plan, const TilePlanInputs& in, const TileGrid& g,
                         int64_t exact_limit, int64_t samples) {
  MaskDensity d;
  if (g.q_len == 0 || g.kv_len == 0) return d;
  auto rows = [&](int64_t qt) { return std::min<int64_t>(g.block_q, g.q_len - qt * g.block_q); };
  auto cols = [&](const TileRun& r) { return std::min(r.end * g.block_kv, g.kv_len) - r.begin * g.block_kv; };
  double allowed = 0;
  int64_t partial = 0;
  std::vector<std::pair<int64_t, int64_t>> partial_runs;  // (qt, run index), for sampling
  std::vector<int64_t> cumulative;
  for (int64_t qt = 0; qt < g.q_tiles; ++qt)
    for (int64_t i = g.row_begin[qt]; i < g.row_begin[qt + 1]; ++i) {
      const int64_t area = rows(qt) * cols(g.runs[i]);
      if (g.runs[i].kind == TileKind::Full) {
        allowed += static_cast<double>(area);
      } else {
        partial += area;
        partial_runs.push_back({qt, i});
        cumulative.push_back(partial);
      }
    }
  if (!plan.element_error.empty()) {
    d.exact = false;
    d.lower_bound = true;
    d.density = allowed / (static_cast<double>(g.q_len) * static_cast<double>(g.kv_len));
    return d;
  }
  ElementMask mask(plan, in);
  if (partial <= exact_limit) {
    for (auto [qt, i] : partial_runs) {
      const TileRun& r = g.runs[i];
      for (int64_t q = qt * g.block_q; q < qt * g.block_q + rows(qt); ++q)
        for (int64_t kv = r.begin * g.block_kv; kv < r.begin * g.block_kv + cols(r); ++kv)
          allowed += mask.at(q, kv);
    }
  } else {
    d.exact = false;
    d.samples = samples;
    std::mt19937_64 rng(12345);
    std::uniform_int_distribution<int64_t> pick(0, partial - 1);
    int64_t hits = 0;
    for (int64_t s = 0; s < samples; ++s) {
      const int64_t u = pick(rng);
      const size_t k = std::upper_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin();
      const auto [qt, i] = partial_runs[k];
      const TileRun& r = g.runs[i];
      const int64_t off = u - (k ? cumulative[k - 1] : 0), width = cols(r);
      hits += mask.at(qt * g.block_q + off / width, r.begin * g.block_kv + off % width);
    }
    allowed += static_cast<double>(partial) * static_cast<double>(hits) / static_cast<double>(samples);
  }
  d.density = allowed / (static_cast<double>(g.q_len) * static_cast<double>(g.kv_len));
  return d;
}

}  // namespace attn
