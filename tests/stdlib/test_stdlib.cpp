// Differential test of the stdlib: each definition, lowered from a tiny kernel, against a C++ lambda.
#define BOOST_TEST_MODULE test_stdlib
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "backends/reference/EvalExpr.h"
#include "codegen/KernelIR.h"
#include "codegen/Lower.h"
#include "frontend/Program.h"
#include "runtime/HostTensor.h"

using namespace attn;

namespace {

constexpr int kHeads = 8;
constexpr int kLen = 240;       ///< positions 0..kLen-1 for q and kv
constexpr int kTableSpan = 64;  ///< the second extent of `table`

/// The run-time buffers every test kernel may declare, filled at random for each round.
struct Buffers {
  std::vector<int32_t> doc;    ///< [kLen] document ids, contiguous runs 0, 0, 1, 1, 1, 2, ...
  std::vector<int32_t> start;  ///< [docs] first position of each document
  std::vector<uint8_t> flags;  ///< [kLen] global-token flags
  std::vector<float> slopes;   ///< [kHeads]
  std::vector<float> table;    ///< [kHeads, kTableSpan] row-major
  int32_t offset = 0;          ///< the scalar kernel argument `offset`
  int top_k = 0;               ///< the last extent of `topk` (0 included: nothing selected)
  std::vector<int32_t> topk;   ///< [kHeads, kLen, top_k] row-major key-tile indices
};

/// One evaluation point.
struct Point {
  int b, h, q, kv;
  float score;
  int q_len = kLen, kv_len = kLen;  ///< the call's lengths (`q_len`, `kv_len`)
};

/// A kernel to lower and the value its mask or score must have at each point.
struct Instance {
  std::string text;
  bool is_mask = true;
  std::function<double(const Point&, const Buffers&)> expect;
  /// Points left out of the comparison (see t5_on_boundary); none when empty.
  std::function<bool(const Point&)> skip;
};

using Rng = std::mt19937;

int uniform(Rng& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
float uniform_f(Rng& rng, float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); }
std::string num(int v) { return std::to_string(v); }
std::string flt(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", static_cast<double>(v));
  return buf;
}

Buffers random_buffers(Rng& rng) {
  Buffers bufs;
  int doc = 0, left = uniform(rng, 1, 60);
  for (int i = 0; i < kLen; ++i) {
    if (left-- == 0) {
      ++doc;
      left = uniform(rng, 0, 60);
    }
    if (bufs.start.size() <= static_cast<size_t>(doc)) bufs.start.push_back(i);
    bufs.doc.push_back(doc);
  }
  for (int i = 0; i < kLen; ++i) bufs.flags.push_back(uniform(rng, 0, 19) == 0);
  for (int i = 0; i < kHeads; ++i) bufs.slopes.push_back(uniform_f(rng, 0.01f, 1.0f));
  for (int i = 0; i < kHeads * kTableSpan; ++i) bufs.table.push_back(uniform_f(rng, -3.0f, 3.0f));
  bufs.offset = uniform(rng, 0, 500);
  bufs.top_k = uniform(rng, 0, 4);
  for (int i = 0; i < kHeads * kLen * bufs.top_k; ++i) bufs.topk.push_back(uniform(rng, 0, 12));
  return bufs;
}

const std::string kParams =
    "(doc: tensor<i32>[len], start: tensor<i32>[docs], flags: tensor<bool>[len], "
    "slopes: tensor<f32>[heads], table: tensor<f32>[heads, span], offset: int, "
    "topk: tensor<i32>[heads, tiles, top_k])";

/// A program importing the stdlib with one kernel `k` that sets `mask` (or `score`) to `option`.
Instance mask_case(const std::string& option, std::function<double(const Point&, const Buffers&)> f) {
  return {"import std.masks;\nimport std.documents;\nimport std.scores;\nkernel k" + kParams +
              " {\n  mask = " + option + ";\n}\n",
          true,
          std::move(f),
          {}};
}
Instance score_case(const std::string& option, std::function<double(const Point&, const Buffers&)> f) {
  return {"import std.masks;\nimport std.documents;\nimport std.scores;\nkernel k" + kParams +
              " {\n  score = " + option + ";\n}\n",
          false,
          std::move(f),
          {}};
}

/// T5's bucket, written from the description in the paper's code: sign half, exact small
/// distances, logarithmic buckets up to max_distance.
int t5_bucket_ref(int rel, int num_buckets, int max_distance, bool bidirectional) {
  int bucket = 0;
  int n = num_buckets;
  int dist;
  if (bidirectional) {
    n /= 2;
    if (rel > 0) bucket += n;
    dist = std::abs(rel);
  } else {
    dist = rel < 0 ? -rel : 0;
  }
  int exact = n / 2;
  if (dist < exact) return bucket + dist;
  float ratio =
      std::log(static_cast<float>(dist) / exact) / std::log(static_cast<float>(max_distance) / exact);
  int large = exact + static_cast<int>(ratio * (n - exact));
  return bucket + std::min(large, n - 1);
}

/// Whether T5's logarithmic bucket position of `rel` is an integer in exact arithmetic (as at
/// distances 16, 32, 64 for 32 buckets and max_distance 128): there the truncated bucket depends
/// on float rounding. The random comparison leaves these out; t5_bucket_boundaries checks them.
bool t5_on_boundary(int rel, int num_buckets, int max_distance, bool bidirectional) {
  int n = bidirectional ? num_buckets / 2 : num_buckets, exact = n / 2;
  int dist = bidirectional ? std::abs(rel) : std::max(-rel, 0);
  if (dist < exact) return false;
  double x = std::log(double(dist) / exact) / std::log(double(max_distance) / exact) * (n - exact);
  return std::abs(x - std::round(x)) < 1e-4;
}

/// The NATTEN neighbourhood, from its window start rather than its clamped centre.
bool natten_ref(int q, int kv, int w, int kw, int kh, int hgt) {
  int x0 = std::clamp(q % w - kw / 2, 0, w - kw), y0 = std::clamp(q / w - kh / 2, 0, hgt - kh);
  int kx = kv % w, ky = kv / w;
  return kx >= x0 && kx < x0 + kw && ky >= y0 && ky < y0 + kh;
}

/// The even bits of `code` packed together (the x of a Morton code), bit by bit.
int morton_compact_ref(int code) {
  int x = 0;
  for (int bit = 0; bit < 16; ++bit) x |= ((code >> (2 * bit)) & 1) << bit;
  return x;
}

/// attention-gym's morton-order NATTEN: natten_ref's neighbourhood on Morton-decoded pixels.
bool natten_morton_ref(int q, int kv, int w, int kw, int kh, int hgt) {
  int qx = morton_compact_ref(q), qy = morton_compact_ref(q >> 1);
  int kx = morton_compact_ref(kv), ky = morton_compact_ref(kv >> 1);
  int x0 = std::clamp(qx - kw / 2, 0, w - kw), y0 = std::clamp(qy - kh / 2, 0, hgt - kh);
  return kx >= x0 && kx < x0 + kw && ky >= y0 && ky < y0 + kh;
}

/// A document-relative position.
int rel_pos(const Buffers& s, int i) { return i - s.start[s.doc[i]]; }

/// Every stdlib definition, as a generator of instances with random constants.
std::vector<std::pair<std::string, std::function<Instance(Rng&)>>> cases() {
  using P = const Point&;
  using B = const Buffers&;
  std::vector<std::pair<std::string, std::function<Instance(Rng&)>>> all;
  auto add = [&](std::string name, std::function<Instance(Rng&)> f) {
    all.emplace_back(std::move(name), std::move(f));
  };

  // std.masks
  add("full", [](Rng&) { return mask_case("full", [](P, B) { return 1.0; }); });
  add("causal", [](Rng&) { return mask_case("causal", [](P p, B) { return double(p.kv <= p.q); }); });
  add("causal_from_end", [](Rng&) {
    return mask_case("causal_from_end", [](P p, B) { return double(p.kv <= p.q + p.kv_len - p.q_len); });
  });
  add("causal_from_end at other lengths", [](Rng& r) {
    int d = uniform(r, -20, 20);
    return mask_case("causal_from_end(q_len = q_len + " + num(d) + ")",
                     [d](P p, B) { return double(p.kv <= p.q + p.kv_len - (p.q_len + d)); });
  });
  add("causal at other indices", [](Rng& r) {
    int d = uniform(r, -20, 20);
    return mask_case("causal(q = q + " + num(d) + ", kv = kv)",
                     [d](P p, B) { return double(p.kv <= p.q + d); });
  });
  add("sliding_window", [](Rng& r) {
    int w = uniform(r, 1, 80);
    return mask_case("sliding_window(" + num(w) + ")",
                     [w](P p, B) { return double(p.kv <= p.q && p.kv > p.q - w); });
  });
  add("bidirectional_window", [](Rng& r) {
    int rad = uniform(r, 0, 80);
    return mask_case("bidirectional_window(" + num(rad) + ")",
                     [rad](P p, B) { return double(std::abs(p.q - p.kv) <= rad); });
  });
  add("dilated_sliding_window", [](Rng& r) {
    int w = uniform(r, 1, 30), d = uniform(r, 1, 5);
    return mask_case("dilated_sliding_window(" + num(w) + ", " + num(d) + ")", [w, d](P p, B) {
      for (int i = 0; i < w; ++i)
        if (p.kv == p.q - i * d) return 1.0;
      return 0.0;
    });
  });
  add("prefix_lm", [](Rng& r) {
    int n = uniform(r, 0, 120);
    return mask_case("prefix_lm(" + num(n) + ")", [n](P p, B) { return double(p.kv <= p.q || p.kv < n); });
  });
  add("chunked", [](Rng& r) {
    int c = uniform(r, 1, 70);
    return mask_case("chunked(" + num(c) + ")",
                     [c](P p, B) { return double(p.kv <= p.q && p.q - p.q % c <= p.kv); });
  });
  add("block_causal", [](Rng& r) {
    int c = uniform(r, 1, 70);
    return mask_case("block_causal(" + num(c) + ")",
                     [c](P p, B) { return double(p.kv < (p.q / c + 1) * c); });
  });
  add("block_diagonal", [](Rng& r) {
    int c = uniform(r, 1, 70);
    return mask_case("block_diagonal(" + num(c) + ")", [c](P p, B) { return double(p.kv / c == p.q / c); });
  });
  add("longformer", [](Rng& r) {
    int rad = uniform(r, 0, 40), g = uniform(r, 0, 8);
    return mask_case("longformer(" + num(rad) + ", " + num(g) + ")", [rad, g](P p, B) {
      return double(std::abs(p.q - p.kv) <= rad || std::min(p.q, p.kv) < g);
    });
  });
  add("sinks_window", [](Rng& r) {
    int s = uniform(r, 0, 8), w = uniform(r, 1, 60);
    return mask_case("sinks_window(" + num(s) + ", " + num(w) + ")",
                     [s, w](P p, B) { return double(p.kv <= p.q && (p.kv < s || p.kv > p.q - w)); });
  });
  add("sinks_window shifted by a run-time offset", [](Rng& r) {
    int s = uniform(r, 0, 8), w = uniform(r, 1, 400);
    return mask_case("sinks_window(" + num(s) + ", " + num(w) + ", q = q + offset)", [s, w](P p, B bufs) {
      int q = p.q + bufs.offset;
      return double(p.kv <= q && (p.kv < s || p.kv > q - w));
    });
  });
  add("natten", [](Rng& r) {
    int kw = 2 * uniform(r, 0, 3) + 1, kh = 2 * uniform(r, 0, 3) + 1;
    int w = uniform(r, kw, 24), hgt = std::max(kh, kLen / w);
    return mask_case("natten(" + num(w) + ", " + num(kw) + ", " + num(kh) + ", " + num(hgt) + ")",
                     [=](P p, B) { return double(natten_ref(p.q, p.kv, w, kw, kh, hgt)); });
  });

  add("morton_compact", [](Rng&) {
    return score_case(
        "score + float(morton_compact(q * 997 + kv) * 3 + morton_compact(kv >> 1))", [](P p, B) {
          return p.score + morton_compact_ref(p.q * 997 + p.kv) * 3 + morton_compact_ref(p.kv >> 1);
        });
  });
  add("natten_morton", [](Rng& r) {
    int kw = 2 * uniform(r, 0, 3) + 1, kh = 2 * uniform(r, 0, 3) + 1;
    int w = uniform(r, kw, 24), hgt = uniform(r, kh, 24);
    return mask_case("natten_morton(" + num(w) + ", " + num(kw) + ", " + num(kh) + ", " + num(hgt) + ")",
                     [=](P p, B) { return double(natten_morton_ref(p.q, p.kv, w, kw, kh, hgt)); });
  });

  // std.documents
  add("topk_tiles", [](Rng& r) {
    int block = uniform(r, 1, 40);
    return mask_case("topk_tiles(topk, " + num(block) + ")", [block](P p, B s) {
      bool any = false;
      for (int j = 0; j < s.top_k; ++j)
        any = any ||
              s.topk[(static_cast<size_t>(p.h) * kLen + static_cast<size_t>(p.q / block)) * s.top_k + j] ==
                  p.kv / block;
      return double(any);
    });
  });
  add("same_document", [](Rng&) {
    return mask_case("same_document(doc)", [](P p, B s) { return double(s.doc[p.q] == s.doc[p.kv]); });
  });
  add("document_causal", [](Rng&) {
    return mask_case("document_causal(doc)",
                     [](P p, B s) { return double(s.doc[p.q] == s.doc[p.kv] && p.kv <= p.q); });
  });
  add("packed(causal)", [](Rng&) {
    return mask_case("packed(causal, doc, start)", [](P p, B s) {
      return double(s.doc[p.q] == s.doc[p.kv] && rel_pos(s, p.kv) <= rel_pos(s, p.q));
    });
  });
  add("packed(prefix_lm)", [](Rng& r) {
    int n = uniform(r, 0, 30);
    return mask_case("packed(prefix_lm(" + num(n) + "), doc, start)", [n](P p, B s) {
      return double(s.doc[p.q] == s.doc[p.kv] &&
                    (rel_pos(s, p.kv) <= rel_pos(s, p.q) || rel_pos(s, p.kv) < n));
    });
  });
  add("with_global", [](Rng&) {
    return mask_case("with_global(causal, flags)",
                     [](P p, B s) { return double(p.kv <= p.q || s.flags[p.q] || s.flags[p.kv]); });
  });
  add("longformer_flags", [](Rng& r) {
    int rad = uniform(r, 0, 40);
    return mask_case("longformer_flags(flags, " + num(rad) + ")", [rad](P p, B s) {
      return double(std::abs(p.q - p.kv) <= rad || s.flags[p.q] || s.flags[p.kv]);
    });
  });

  // std.scores
  add("alibi", [](Rng&) {
    return score_case("alibi(slopes)", [](P p, B s) { return p.score - s.slopes[p.h] * double(p.q - p.kv); });
  });
  add("alibi_slopes", [](Rng& r) {
    int heads = 1 << uniform(r, 0, 4);
    return score_case("alibi_slopes(" + num(heads) + ")", [heads](P p, B) {
      return p.score - std::pow(0.5, 8.0 * (p.h + 1) / heads) * std::abs(p.q - p.kv);
    });
  });
  add("softcap", [](Rng& r) {
    float cap = uniform_f(r, 1.0f, 60.0f);
    return score_case("softcap(" + flt(cap) + ")",
                      [cap = std::stod(flt(cap))](P p, B) { return cap * std::tanh(p.score / cap); });
  });
  add("scaled", [](Rng& r) {
    float f = uniform_f(r, -4.0f, 4.0f);
    return score_case("scaled(" + flt(f) + ")", [f = std::stod(flt(f))](P p, B) { return p.score * f; });
  });
  add("temperature", [](Rng& r) {
    float t = uniform_f(r, 0.1f, 4.0f);
    return score_case("temperature(" + flt(t) + ")", [t = std::stod(flt(t))](P p, B) { return p.score / t; });
  });
  add("head_scaled", [](Rng&) {
    return score_case("head_scaled(slopes)", [](P p, B s) { return p.score * s.slopes[p.h]; });
  });
  add("relative_bias", [](Rng& r) {
    int md = uniform(r, 0, (kTableSpan - 1) / 2);
    return score_case("relative_bias(table, " + num(md) + ")", [md](P p, B s) {
      int d = std::clamp(p.kv - p.q, -md, md);
      return p.score + s.table[p.h * kTableSpan + d + md];
    });
  });
  add("t5_bias", [](Rng& r) {
    int nb = 2 * uniform(r, 4, 32), md = uniform(r, nb, 300);
    bool bi = uniform(r, 0, 1);
    std::string call = "t5_bias(table, " + num(nb) + ", " + num(md) + ", " + (bi ? "true" : "false") + ")";
    Instance inst = score_case(call, [=](P p, B s) {
      return p.score + s.table[p.h * kTableSpan + t5_bucket_ref(p.kv - p.q, nb, md, bi)];
    });
    inst.skip = [=](P p) { return t5_on_boundary(p.kv - p.q, nb, md, bi); };
    return inst;
  });
  add("t5_bucket", [](Rng&) {
    Instance inst = score_case(
        "score + float(t5_bucket(kv - q, 32, 128, true) * 100 + t5_bucket(kv - q, 32, 128, false))",
        [](P p, B) {
          return p.score + t5_bucket_ref(p.kv - p.q, 32, 128, true) * 100 +
                 t5_bucket_ref(p.kv - p.q, 32, 128, false);
        });
    inst.skip = [](P p) {
      return t5_on_boundary(p.kv - p.q, 32, 128, true) || t5_on_boundary(p.kv - p.q, 32, 128, false);
    };
    return inst;
  });
  add("kerple_log", [](Rng& r) {
    float r1 = uniform_f(r, 0.1f, 3.0f), r2 = uniform_f(r, 0.1f, 3.0f);
    return score_case("kerple_log(" + flt(r1) + ", " + flt(r2) + ")",
                      [a = std::stod(flt(r1)), c = std::stod(flt(r2))](P p, B) {
                        return p.score - a * std::log(1.0 + c * std::abs(p.q - p.kv));
                      });
  });
  add("gelu", [](Rng&) {
    return score_case("gelu",
                      [](P p, B) { return 0.5 * p.score * (1.0 + std::erf(p.score / std::sqrt(2.0))); });
  });
  add("alibi |> softcap", [](Rng&) {
    return score_case("alibi(slopes) |> softcap(30.0)", [](P p, B s) {
      return 30.0 * std::tanh((p.score - s.slopes[p.h] * double(p.q - p.kv)) / 30.0);
    });
  });
  return all;
}

/// The buffers as HostTensors, bound to a kernel's arguments by name.
struct BoundArgs {
  HostTensor doc, start, flags, slopes, table, topk;
  ArgValues values;

  BoundArgs(const Buffers& s, const KernelIR& ir)
      : doc(ScalarType::I32, {kLen}),
        start(ScalarType::I32, {static_cast<int64_t>(s.start.size())}),
        flags(ScalarType::Bool, {kLen}),
        slopes(ScalarType::F32, {kHeads}),
        table(ScalarType::F32, {kHeads, kTableSpan}),
        topk(ScalarType::I32, {kHeads, kLen, s.top_k}) {
    for (int i = 0; i < kLen; ++i) doc.set(i, s.doc[i]), flags.set(i, s.flags[i]);
    for (size_t i = 0; i < s.start.size(); ++i) start.set(static_cast<int64_t>(i), s.start[i]);
    for (int i = 0; i < kHeads; ++i) slopes.set(i, s.slopes[i]);
    for (int i = 0; i < kHeads * kTableSpan; ++i) table.set(i, s.table[i]);
    for (size_t i = 0; i < s.topk.size(); ++i) topk.set(static_cast<int64_t>(i), s.topk[i]);
    const std::pair<const char*, const HostTensor*> named[] = {{"doc", &doc},     {"start", &start},
                                                               {"flags", &flags}, {"slopes", &slopes},
                                                               {"table", &table}, {"topk", &topk}};
    for (const KernelArg& a : ir.args) {
      const HostTensor* t = nullptr;
      for (const auto& [name, tensor] : named)
        if (a.name == name) t = tensor;
      values.buffers.push_back(t);
      values.scalars.push_back(a.name == "offset" ? s.offset : 0.0);
    }
  }
};

/// Whether a lowered value matches the expected one: exactly for masks, closely for scores.
bool same_value(double got, double want, bool is_mask) {
  if (is_mask) return (got != 0) == (want != 0);
  return std::abs(got - want) <= 1e-5 * std::max(1.0, std::abs(want));
}

constexpr int kRounds = 12;   ///< random constants and buffers per definition
constexpr int kPoints = 400;  ///< random points per round

}  // namespace

BOOST_AUTO_TEST_CASE(every_definition_matches_its_meaning) {
  Rng rng(20261130), lengths(7);  // lengths apart: the other draws stay as they were
  for (const auto& [name, make] : cases()) {
    BOOST_TEST_CONTEXT("definition " << name) {
      int mismatches = 0, trues = 0, points = 0;
      bool is_mask = true;
      for (int round = 0; round < kRounds && mismatches < 3; ++round) {
        Instance inst = make(rng);
        is_mask = inst.is_mask;
        auto program = load_program_text("stdlib_case.attn", inst.text);
        BOOST_TEST_REQUIRE(!program->diags.has_errors(),
                           inst.text << render_diagnostics(program->diags, program->sources));
        DiagnosticEngine diags;
        auto ir = lower_kernel(*program, *program->kernel("k"), diags);
        BOOST_TEST_REQUIRE(ir != nullptr, inst.text << render_diagnostics(diags, program->sources));
        CompiledExpr expr(inst.is_mask ? ir->mask : ir->score, *ir);
        Buffers bufs = random_buffers(rng);
        BoundArgs args(bufs, *ir);
        for (int i = 0; i < kPoints && mismatches < 3; ++i) {
          Point p{uniform(rng, 0, 2), uniform(rng, 0, kHeads - 1), uniform(rng, 0, kLen - 1),
                  uniform(rng, 0, kLen - 1), uniform_f(rng, -20.0f, 20.0f)};
          EvalPoint at;
          p.q_len = uniform(lengths, 1, kLen), p.kv_len = uniform(lengths, 1, kLen);
          at.idx[0] = p.b, at.idx[1] = p.h, at.idx[2] = p.q, at.idx[3] = p.kv;
          at.idx[4] = p.q_len, at.idx[5] = p.kv_len;
          at.score = p.score;
          if (inst.skip && inst.skip(p)) continue;
          double got = expr.eval(at, args.values), want = inst.expect(p, bufs);
          ++points;
          trues += want != 0;
          if (!same_value(got, want, inst.is_mask)) {
            ++mismatches;
            BOOST_ERROR("at b=" << p.b << " h=" << p.h << " q=" << p.q << " kv=" << p.kv
                                << " q_len=" << p.q_len << " kv_len=" << p.kv_len << " score=" << p.score
                                << ": lowered " << got << ", expected " << want << "\n"
                                << inst.text << "IR: " << print_ir(*ir));
          }
        }
      }
      // A mask test that never sees both outcomes would prove little.
      if (is_mask && name != "full") BOOST_TEST((trues > 0 && trues < points));
    }
  }
}

BOOST_AUTO_TEST_CASE(every_stdlib_definition_has_a_case_and_a_doc_comment) {
  std::vector<std::string> covered;
  for (const auto& c : cases()) covered.push_back(c.first.substr(0, c.first.find_first_of(" (")));
  for (const auto& [module, text] : stdlib_modules()) {
    auto program = load_program_text(module + ".attn", text);
    BOOST_TEST_REQUIRE(!program->diags.has_errors(),
                       module << "\n"
                              << render_diagnostics(program->diags, program->sources));
    for (const auto& decl : program->main()->decls) {
      BOOST_TEST((std::find(covered.begin(), covered.end(), decl->name) != covered.end()),
                 module << " defines '" << decl->name << "' but no test case covers it");
      BOOST_TEST(decl->doc.find("Example: `") != std::string::npos,
                 module << ": '" << decl->name << "' needs a doc comment with an example");
    }
  }
}

// Doc comments show examples as `kernel ...`, `mask = ...;` / `score = ...;` options, or
// `fn-call` is VALUE: each must check and lower, and each stated value must hold.
BOOST_AUTO_TEST_CASE(doc_comment_examples_hold) {
  const std::string imports = "import std.masks;\nimport std.documents;\nimport std.scores;\n";
  int examples = 0;
  for (const auto& [module, text] : stdlib_modules()) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("/// Example:", 0) != 0) continue;
      for (size_t open = line.find('`'); open != std::string::npos; open = line.find('`', open)) {
        size_t close = line.find('`', open + 1);
        BOOST_TEST_REQUIRE(close != std::string::npos, module << ": unclosed ` in " << line);
        std::string code = line.substr(open + 1, close - open - 1), rest = line.substr(close + 1);
        open = close + 1;
        std::string program;
        std::optional<int> value;
        if (code.rfind("kernel", 0) == 0) {
          program = imports + code + "\n";
        } else if (code.rfind("mask =", 0) == 0 || code.rfind("score =", 0) == 0) {
          program = imports + "kernel k {\n  " + code + "\n}\n";
        } else if (rest.rfind(" is ", 0) == 0) {
          program = imports + "kernel k {\n  score = float(" + code + ");\n}\n";
          value = std::stoi(rest.substr(4));
        } else {
          continue;
        }
        ++examples;
        BOOST_TEST_CONTEXT(module << " example `" << code << "`") {
          auto p = load_program_text("example.attn", program);
          BOOST_TEST_REQUIRE(!p->diags.has_errors(), render_diagnostics(p->diags, p->sources));
          for (const Decl* k : p->kernels()) {
            DiagnosticEngine diags;
            auto ir = lower_kernel(*p, *k, diags);
            BOOST_TEST_REQUIRE(ir != nullptr);
            if (value) BOOST_TEST(CompiledExpr(ir->score, *ir).eval(EvalPoint{}, ArgValues{}) == *value);
          }
        }
      }
    }
  }
  BOOST_TEST(examples >= 25);
}

BOOST_AUTO_TEST_CASE(stdlib_and_samples_check_without_diagnostics) {
  std::vector<std::string> paths;
  for (const char* dir : {"stdlib", "samples"})
    for (const auto& entry :
         std::filesystem::directory_iterator(std::filesystem::path(ATTNC_SOURCE_DIR) / dir))
      if (entry.path().extension() == ".attn") paths.push_back(entry.path().string());
  BOOST_TEST(paths.size() >= 9u);
  for (const std::string& path : paths) {
    auto program = load_program(path);
    BOOST_TEST(program->diags.all().empty(), path << "\n"
                                                  << render_diagnostics(program->diags, program->sources));
    if (program->diags.has_errors()) continue;
    for (const Decl* k : program->kernels()) {
      DiagnosticEngine diags;
      BOOST_TEST(lower_kernel(*program, *k, diags) != nullptr, path << " kernel " << k->name);
    }
  }
}

// At T5's exact bucket boundaries (distance 16, 32, 64, ... for 32 buckets and max_distance 128)
// f32 arithmetic, as the targets and Hugging Face's T5 compute it, gives the upper bucket
// (log(2) / log(16) * 8 is 2.0f). The reference evaluator rounds every Float(32) result to f32,
// so it agrees there (in double, log(2) * 2.8853900f = 1.99999997 would truncate to the lower bucket).
BOOST_AUTO_TEST_CASE(t5_bucket_boundaries) {
  struct Config {
    int num_buckets, max_distance;
    bool bidirectional;
  };
  for (Config c : {Config{32, 128, true}, Config{32, 128, false}, Config{64, 256, true}}) {
    std::string text = "import std.scores;\nkernel k {\n  score = score + float(t5_bucket(kv - q, " +
                       num(c.num_buckets) + ", " + num(c.max_distance) + ", " +
                       (c.bidirectional ? "true" : "false") + "));\n}\n";
    auto program = load_program_text("t5_boundaries.attn", text);
    BOOST_TEST_REQUIRE(!program->diags.has_errors());
    DiagnosticEngine diags;
    auto ir = lower_kernel(*program, *program->kernel("k"), diags);
    BOOST_TEST_REQUIRE(ir != nullptr);
    CompiledExpr expr(ir->score, *ir);
    std::string wrong;
    for (int rel = -1000; rel <= 1000; ++rel) {
      if (!t5_on_boundary(rel, c.num_buckets, c.max_distance, c.bidirectional)) continue;
      EvalPoint at;
      at.idx[2] = 1000, at.idx[3] = 1000 + rel;
      int got = static_cast<int>(expr.eval(at, ArgValues{}));
      int want = t5_bucket_ref(rel, c.num_buckets, c.max_distance, c.bidirectional);
      if (got != want) wrong += " rel=" + num(rel) + ": " + num(got) + " (f32: " + num(want) + ")";
    }
    BOOST_TEST(wrong.empty(), "t5_bucket(" << c.num_buckets << ", " << c.max_distance << ", "
                                           << c.bidirectional << ") at boundaries:" << wrong);
  }
}

BOOST_AUTO_TEST_CASE(t5_bucket_reference_matches_the_doc_examples) {
  BOOST_TEST(t5_bucket_ref(-200, 32, 128, true) == 15);
  BOOST_TEST(t5_bucket_ref(3, 32, 128, true) == 19);
  BOOST_TEST(t5_bucket_ref(-3, 32, 128, false) == 3);
  BOOST_TEST(t5_bucket_ref(5, 32, 128, false) == 0);
}
