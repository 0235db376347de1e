// Differential test of the stdlib: each definition, lowered from a tiny kernel, against a C++ lambda.
#define BOOST_TEST_MODULE test_stdlib
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "backends/reference/EvalExpr.h"
#include "codegen/KernelIR.h"
#include "codegen/Lower.h"
#include "frontend/Program.h"

namespace {

constexpr int kHeads = 8;
constexpr int kLen = 240;        ///< positions 0..kLen-1 for q and kv
constexpr int kTableSpan = 64;   ///< the second extent of `table`

/// The run-time buffers every test kernel may declare, filled at random for each round.
struct Buffers {
  std::vector<int32_t> doc;      ///< [kLen] document ids, contiguous runs 0, 0, 1, 1, 1, 2, ...
  std::vector<int32_t> start;    ///< [docs] first position of each document
  std::vector<uint8_t> flags;    ///< [kLen] global-token flags
  std::vector<float> slopes;     ///< [kHeads]
  std::vector<float> table;      ///< [kHeads, kTableSpan] row-major
  int32_t offset = 0;            ///< the scalar kernel argument `offset`
};

/// One evaluation point.
struct Point {
  int b, h, q, kv;
  float score;
};

/// A kernel to lower and the value its mask or score must have at each point.
struct Instance {
  std::string text;
  bool is_mask = true;
  std::function<double(const Point&, const Buffers&)> expect;
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
  return bufs;
}

const std::string kParams =
    "(doc: tensor<i32>[len], start: tensor<i32>[docs], flags: tensor<bool>[len], "
    "slopes: tensor<f32>[heads], table: tensor<f32>[heads, span], offset: int)";

/// A program importing the stdlib with one kernel `k` that sets `mask` (or `score`) to `option`.
Instance mask_case(const std::string& option, std::function<double(const Point&, const Buffers&)> f) {
  return {"import std.masks;\nimport std.documents;\nimport std.scores;\nkernel k" + kParams +
              " {\n  mask = " + option + ";\n}\n",
          true, std::move(f)};
}
Instance score_case(const std::string& option, std::function<double(const Point&, const Buffers&)> f) {
  return {"import std.masks;\nimport std.documents;\nimport std.scores;\nkernel k" + kParams +
              " {\n  score = " + option + ";\n}\n",
          false, std::move(f)};
}

/// Python's floor division and modulo, for the lambdas that need them.
int floordiv(int a, int b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

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
  float ratio = std::log(static_cast<float>(dist) / exact) / std::log(static_cast<float>(max_distance) / exact);
  int large = exact + static_cast<int>(ratio * (n - exact));
  return bucket + std::min(large, n - 1);
}

/// The NATTEN neighbourhood, from its window start rather than its clamped centre.
bool natten_ref(int q, int kv, int w, int kw, int kh, int hgt) {
  int x0 = std::clamp(q % w - kw / 2, 0, w - kw), y0 = std::clamp(q / w - kh / 2, 0, hgt - kh);
  int kx = kv % w, ky = kv / w;
  return kx >= x0 && kx < x0 + kw && ky >= y0 && ky < y0 + kh;
}

/// A document-relative position.
int rel_pos(const Buffers& s, int i) { return i - s.start[s.doc[i]]; }

/// Every stdlib definition, as a generator of instances with random constants.
std::vector<std::pair<std::string, std::function<Instance(Rng&)>>> cases() {
  using P = const Point&;
  using B = const Buffers&;
  std::vector<std::pair<std::string, std::function<Instance(Rng&)>>> all;
  auto add = [&](std::string name, std::function<Instance(Rng&)> f) { all.emplace_back(std::move(name), std::move(f)); };

  // std.masks
  add("full", [](Rng&) { return mask_case("full || q < 0", [](P, B) { return 1.0; }); });
  add("causal", [](Rng&) { return mask_case("causal", [](P p, B) { return double(p.kv <= p.q); }); });
  add("causal at other indices", [](Rng& r) {
    int d = uniform(r, -20, 20);
    return mask_case("causal(q = q + " + num(d) + ", kv = kv)", [d](P p, B) { return double(p.kv <= p.q + d); });
  });
  add("sliding_window", [](Rng& r) {
    int w = uniform(r, 1, 80);
    return mask_case("sliding_window(" + num(w) + ")", [w](P p, B) { return double(p.kv <= p.q && p.kv > p.q - w); });
  });
  add("bidirectional_window", [](Rng& r) {
    int rad = uniform(r, 0, 80);
    return mask_case("bidirectional_window(" + num(rad) + ")", [rad](P p, B) { return double(std::abs(p.q - p.kv) <= rad); });
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
    return mask_case("prefix_lm(" + num(n) + ")", [n](P p, B) { return double(p.kv <= p.q || (p.kv < n && p.q >= 0)); });
  });
  add("chunked", [](Rng& r) {
    int c = uniform(r, 1, 70);
    return mask_case("chunked(" + num(c) + ")", [c](P p, B) { return double(p.kv <= p.q && p.q - p.q % c <= p.kv); });
  });
  add("block_causal", [](Rng& r) {
    int c = uniform(r, 1, 70);
    return mask_case("block_causal(" + num(c) + ")", [c](P p, B) { return double(p.kv < (p.q / c + 1) * c); });
  });
  add("block_diagonal", [](Rng& r) {
    int c = uniform(r, 1, 70);
    return mask_case("block_diagonal(" + num(c) + ")", [c](P p, B) { return double(p.kv / c == p.q / c); });
  });
  add("longformer", [](Rng& r) {
    int rad = uniform(r, 0, 40), g = uniform(r, 0, 8);
    return mask_case("longformer(" + num(rad) + ", " + num(g) + ")",
                     [rad, g](P p, B) { return double(std::abs(p.q - p.kv) <= rad || std::min(p.q, p.kv) < g); });
  });
  add("sinks_window", [](Rng& r) {
    int s = uniform(r, 0, 8), w = uniform(r, 1, 60);
    return mask_case("sinks_window(" + num(s) + ", " + num(w) + ")", [s, w](P p, B) {
      return double(p.kv <= p.q && (p.kv < s || p.kv > p.q - w));
    });
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

  // std.documents
  add("same_document", [](Rng&) {
    return mask_case("same_document(doc)", [](P p, B s) { return double(s.doc[p.q] == s.doc[p.kv]); });
  });
  add("document_causal", [](Rng&) {
    return mask_case("document_causal(doc)", [](P p, B s) { return double(s.doc[p.q] == s.doc[p.kv] && p.kv <= p.q); });
  });
  add("packed(causal)", [](Rng&) {
    return mask_case("packed(causal, doc, start)", [](P p, B s) {
      return double(s.doc[p.q] == s.doc[p.kv] && rel_pos(s, p.kv) <= rel_pos(s, p.q));
    });
  });
  add("packed(prefix_lm)", [](Rng& r) {
    int n = uniform(r, 0, 30);
    return mask_case("packed(prefix_lm(" + num(n) + "), doc, start)", [n](P p, B s) {
      return double(s.doc[p.q] == s.doc[p.kv] && (rel_pos(s, p.kv) <= rel_pos(s, p.q) || rel_pos(s, p.kv) < n));
    });
  });
  add("with_global", [](Rng&) {
    return mask_case("with_global(causal, flags)", [](P p, B s) {
      return double(p.kv <= p.q || s.flags[p.q] || s.flags[p.kv]);
    });
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
    return score_case("softcap(" + flt(cap) + ")", [cap = std::stod(flt(cap))](P p, B) { return cap * std::tanh(p.score / cap); });
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
    return score_case(call, [=](P p, B s) {
      return p.score + s.table[p.h * kTableSpan + t5_bucket_ref(p.kv - p.q, nb, md, bi)];
    });
  });
  add("t5_bucket", [](Rng&) {
    return score_case("score + float(t5_bucket(kv - q, 32, 128, true) * 100 + t5_bucket(kv - q, 32, 128, false))",
                      [](P p, B) {
                        return p.score + t5_bucket_ref(p.kv - p.q, 32, 128, true) * 100 +
                               t5_bucket_ref(p.kv - p.q, 32, 128, false);
                      });
  });
  add("kerple_log", [](Rng& r) {
    float r1 = uniform_f(r, 0.1f, 3.0f), r2 = uniform_f(r, 0.1f, 3.0f);
    return score_case("kerple_log(" + flt(r1) + ", " + flt(r2) + ")",
                      [a = std::stod(flt(r1)), c = std::stod(flt(r2))](P p, B) {
                        return p.score - a * std::log(1.0 + c * std::abs(p.q - p.kv));
                      });
  });
  add("alibi |> softcap", [](Rng&) {
    return score_case("alibi(slopes) |> softcap(30.0)", [](P p, B s) {
      return 30.0 * std::tanh((p.score - s.slopes[p.h] * double(p.q - p.kv)) / 30.0);
    });
  });
  (void)floordiv;
  return all;
}

}  // namespace

BOOST_AUTO_TEST_CASE(t5_bucket_reference_matches_the_doc_examples) {
  BOOST_TEST(t5_bucket_ref(-200, 32, 128, true) == 15);
  BOOST_TEST(t5_bucket_ref(3, 32, 128, true) == 19);
  BOOST_TEST(t5_bucket_ref(-3, 32, 128, false) == 3);
  BOOST_TEST(t5_bucket_ref(5, 32, 128, false) == 0);
}
