// The run-time tile planner: closed-form ranges per query tile, refined per tile where needed.
#include "runtime/TilePlanner.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
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

// The element mask with its inputs bound once.
class ElementMask {
 public:
  ElementMask(const TilePlanProgram& plan, const TilePlanInputs& in)
      : prog_(plan.element), buffers_(buffer_ranges(plan, in)), regs_(plan.element.ops.size()) {
    if (!plan.element_error.empty())
      throw std::invalid_argument("the mask cannot be evaluated per element: " + plan.element_error);
    x_ = {std::max(in.b_lo, 0.0), std::max(in.h_lo, 0.0), 0, 0, double(in.q_len), double(in.kv_len)};
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

}  // namespace

TileGrid plan_tile_grid(const TilePlanProgram& plan, const TilePlanInputs& in) {
  if (plan.block_q <= 0 || plan.block_kv <= 0) throw std::invalid_argument("tile sizes must be positive");
  if (in.q_len < 0 || in.kv_len < 0) throw std::invalid_argument("lengths must not be negative");
  attn_tile_eval::PlanArgs args;
  args.scalars = scalar_values(plan, in);
  const std::vector<BufferRanges> buffers = buffer_ranges(plan, in);
  attn_tile_eval::PlanPrograms programs;
  programs.block_q = plan.block_q;
  programs.block_kv = plan.block_kv;
  programs.tile = plan.tile.view();
  programs.ranges = plan.ranges.view();
  programs.ranges_exact = plan.ranges_exact;
  args.q_len = in.q_len;
  args.kv_len = in.kv_len;
  args.b_lo = in.b_lo, args.b_hi = in.b_hi, args.h_lo = in.h_lo, args.h_hi = in.h_hi;
  args.buffers = buffers.data();
  TileGrid g;
  attn_tile_eval::RunError error;
  if (!attn_tile_eval::plan_grid(programs, args, g, error)) throw_run_error(error, plan.buffers);
  return g;
}

TileGrid transpose_tile_grid(const TileGrid& g) {
  TileGrid t;
  t.q_len = g.kv_len, t.kv_len = g.q_len;
  t.block_q = g.block_kv, t.block_kv = g.block_q;
  t.q_tiles = g.kv_tiles, t.kv_tiles = g.q_tiles;
  // A sweep over key tiles: query tile qt takes a run's kind where the run begins and Empty where
  // it ends; ends sort before begins at one key tile, so touching runs of a row hand over.
  struct Event {
    int64_t kt, qt;
    TileKind kind;
  };
  std::vector<Event> events;
  events.reserve(2 * g.runs.size());
  for (int64_t qt = 0; qt < g.q_tiles; ++qt)
    for (int64_t i = g.row_begin[qt]; i < g.row_begin[qt + 1]; ++i) {
      events.push_back({g.runs[i].begin, qt, g.runs[i].kind});
      events.push_back({g.runs[i].end, qt, TileKind::Empty});
    }
  std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    return a.kt != b.kt ? a.kt < b.kt : (a.kind == TileKind::Empty) > (b.kind == TileKind::Empty);
  });
  // The query tiles' current kinds, and where the kind changes from one query tile to the next:
  // between two such bounds lies one run (or a gap), so a key tile's runs cost O(runs).
  std::vector<TileKind> kind(static_cast<size_t>(g.q_tiles), TileKind::Empty);
  auto at = [&](int64_t qt) { return qt < 0 || qt >= g.q_tiles ? TileKind::Empty : kind[qt]; };
  std::set<int64_t> bounds;
  auto refresh = [&](int64_t qt) {
    if (at(qt) != at(qt - 1))
      bounds.insert(qt);
    else
      bounds.erase(qt);
  };
  size_t e = 0;
  t.row_begin.reserve(static_cast<size_t>(t.q_tiles) + 1);
  for (int64_t kt = 0; kt < g.kv_tiles; ++kt) {
    for (; e < events.size() && events[e].kt == kt; ++e) {
      kind[events[e].qt] = events[e].kind;
      refresh(events[e].qt);
      refresh(events[e].qt + 1);
    }
    t.row_begin.push_back(static_cast<int64_t>(t.runs.size()));
    for (auto it = bounds.begin(); it != bounds.end() && std::next(it) != bounds.end(); ++it)
      if (at(*it) != TileKind::Empty) t.runs.push_back({*it, *std::next(it), at(*it)});
  }
  t.row_begin.push_back(static_cast<int64_t>(t.runs.size()));
  return t;
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
