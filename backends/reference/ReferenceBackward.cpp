// The reference backward, FlashAttention-2's algorithm in double: a query-major pass recomputes
// each row's softmax statistics and D = dOut . Out and sums dQ; a key-major pass recomputes the
// weights from those statistics and sums dK, dV and the buffer gradients. Each sum belongs to one
// row, one key, or one fixed chunk of keys reduced in chunk order, so no result depends on the
// thread count.
#include <algorithm>
#include <cmath>
#include <exception>
#include <mutex>
#include <thread>

#include "backends/io/PerSequence.h"
#include "backends/reference/EvalExpr.h"
#include "backends/reference/Reference.h"
#include "codegen/ScoreGradient.h"

namespace attn {

namespace {

// Runs fn(i) for i in [0, n) on up to `threads` threads (0: every core); rethrows the first error.
template <class Fn>
void parallel_for(int64_t n, int threads, int64_t grain, const Fn& fn) {
  int t = threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  t = static_cast<int>(std::min<int64_t>(t, std::max<int64_t>(1, n / grain)));
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&](int w) {
    try {
      for (int64_t i = w; i < n; i += t) {
        {
          std::lock_guard<std::mutex> lock(error_mutex);
          if (error) return;
        }
        fn(i);
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (int w = 1; w < t; ++w) pool.emplace_back(work, w);
  work(0);
  for (auto& th : pool) th.join();
  if (error) std::rethrow_exception(error);
}

std::vector<double> widen(const HostTensor& t) {
  std::vector<double> w(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) w[static_cast<size_t>(i)] = t.get(i);
  return w;
}

double dot(const double* a, const double* b, int64_t n) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

// A row's softmax as the forward computes it (docs/language.md, "Non-finite values"), the sink
// included as one more key of value 0.
struct RowStats {
  bool nan = false;  // a NaN score of an allowed key: the row's gradients are NaN
  double m = -INFINITY;
  double sum = 0;           // of exp(s' - m); with m = +Inf, the number of +Inf scores
  double delta = 0;         // D = dOut . Out, plus dLSE
  double sink = -INFINITY;  // the sink's logit (-inf: none)
  double dsink = 0;         // d loss / d sink = -P_sink D (the sink's value is 0)
};

// The weight P of a key with modified score `s` in a row; 0 for a key that takes no part.
double weight(const RowStats& r, double s) {
  if (r.nan) return NAN;
  if (r.sum == 0) return 0;
  if (r.m == INFINITY) return s == INFINITY ? 1.0 / r.sum : 0.0;
  return std::exp(s - r.m) / r.sum;
}

// Scores are f32 on every target: a value beyond f32's range is +-Inf there, and here.
double f32_range(double x) { return std::isinf(static_cast<float>(x)) ? std::copysign(INFINITY, x) : x; }

// One read site of a requested buffer: where it reads and the score's (or the sink's) partial
// derivative there.
struct Site {
  size_t buffer;  // position in the request's buffer list
  std::vector<CompiledExpr> index;
  CompiledExpr partial;
};

// The backward of a dense batch whose first entry is sequence `b0` (`b` inside the kernel).
KernelGradients dense_backward(const KernelIR& ir, const KernelInputs& in, const GradientRequest& request,
                               int threads, int64_t b0) {
  const int64_t B = in.q.shape[0], Hq = in.q.shape[1], Lq = in.q.shape[2], D = in.q.shape[3];
  const int64_t Hkv = in.k.shape[1], Lkv = in.k.shape[2], Dv = in.v.shape[3];
  const int64_t group = Hq / Hkv;
  const double scale = ir.options.scale ? *ir.options.scale : 1.0 / std::sqrt(static_cast<double>(D));

  const ScoreGradient grad = differentiate_score(ir), sink_grad = differentiate_sink(ir);
  CompiledExpr mask(ir.mask, ir), score(ir.score, ir), dscore(grad.dscore, ir);
  const bool has_sink = ir.sink.defined();
  CompiledExpr sink(has_sink ? ir.sink : Halide::Expr(0.0f), ir);
  auto requested_sites = [&](const ScoreGradient& g) {
    std::vector<Site> sites;
    for (const BufferGradient& r : g.reads) {
      auto wanted = std::find(request.buffers.begin(), request.buffers.end(), r.buffer);
      if (wanted == request.buffers.end()) continue;
      Site s{static_cast<size_t>(wanted - request.buffers.begin()), {}, CompiledExpr(r.partial, ir)};
      for (const Halide::Expr& i : r.index) s.index.emplace_back(i, ir);
      sites.push_back(std::move(s));
    }
    return sites;
  };
  const std::vector<Site> sites = requested_sites(grad), sink_sites = requested_sites(sink_grad);
  ArgValues args;
  for (const KernelArg& a : ir.args) {
    args.buffers.push_back(a.kind == KernelArg::Kind::Buffer ? &in.buffers.at(a.name) : nullptr);
    args.scalars.push_back(a.kind == KernelArg::Kind::Scalar ? in.scalars.at(a.name) : 0.0);
  }
  const std::vector<double> Q = widen(in.q), K = widen(in.k), V = widen(in.v), dO = widen(request.dout);
  const std::vector<double> dLSE = request.dlse.shape.empty() ? std::vector<double>() : widen(request.dlse);
  auto qrow = [&](int64_t row) { return &Q[static_cast<size_t>(row * D)]; };
  auto krow = [&](int64_t b, int64_t hk, int64_t j) {
    return &K[static_cast<size_t>(((b * Hkv + hk) * Lkv + j) * D)];
  };
  auto vrow = [&](int64_t b, int64_t hk, int64_t j) {
    return &V[static_cast<size_t>(((b * Hkv + hk) * Lkv + j) * Dv)];
  };
  auto dorow = [&](int64_t row) { return &dO[static_cast<size_t>(row * Dv)]; };
  // The point (b, h, q, kv) with its raw score; false when the mask hides the key.
  auto at = [&](int64_t b, int64_t h, int64_t qi, int64_t j, EvalPoint& p) {
    p.idx[0] = static_cast<int32_t>(b0 + b), p.idx[1] = static_cast<int32_t>(h);
    p.idx[2] = static_cast<int32_t>(qi), p.idx[3] = static_cast<int32_t>(j);
    if (mask.eval(p, args) == 0) return false;
    p.score = f32_range(scale * dot(qrow((b * Hq + h) * Lq + qi), krow(b, h / group, j), D));
    return true;
  };

  // The element a read site reads at p, checked against its buffer's shape.
  auto element = [&](const Site& site, const EvalPoint& p) {
    const std::string& name = request.buffers[site.buffer];
    return checked_element(in.buffers.at(name), name, site.index, p, args);
  };

  KernelGradients out = make_gradients(ir, in, request);

  // Query-major: each row's statistics and D, then its dQ.
  std::vector<RowStats> stats(static_cast<size_t>(B * Hq * Lq));
  parallel_for(B * Hq * Lq, threads, 16, [&](int64_t row) {
    const int64_t b = row / (Hq * Lq), h = (row / Lq) % Hq, qi = row % Lq;
    RowStats& r = stats[static_cast<size_t>(row)];
    std::vector<double> s(static_cast<size_t>(Lkv), -INFINITY), raw(static_cast<size_t>(Lkv));
    std::vector<char> allowed(static_cast<size_t>(Lkv));
    EvalPoint p;
    p.idx[4] = static_cast<int32_t>(Lq), p.idx[5] = static_cast<int32_t>(Lkv);
    p.idx[0] = static_cast<int32_t>(b0 + b), p.idx[1] = static_cast<int32_t>(h),
    p.idx[2] = static_cast<int32_t>(qi);
    for (int64_t j = 0; j < Lkv; ++j) {
      if (!(allowed[j] = at(b, h, qi, j, p))) continue;
      raw[j] = p.score;
      s[j] = f32_range(score.eval(p, args));
      r.nan = r.nan || std::isnan(s[j]);
      if (!std::isnan(s[j])) r.m = std::max(r.m, s[j]);
    }
    if (has_sink) {
      r.sink = f32_range(sink.eval(p, args));
      r.nan = r.nan || std::isnan(r.sink);
      if (!std::isnan(r.sink)) r.m = std::max(r.m, r.sink);
    }
    if (r.m == INFINITY) {
      for (int64_t j = 0; j < Lkv; ++j) r.sum += allowed[j] && s[j] == INFINITY;
      r.sum += r.sink == INFINITY;
    } else if (r.m != -INFINITY) {
      for (int64_t j = 0; j < Lkv; ++j)
        if (allowed[j] && !std::isnan(s[j])) r.sum += std::exp(s[j] - r.m);
      if (r.sink != -INFINITY && !std::isnan(r.sink)) r.sum += std::exp(r.sink - r.m);
    }
    std::vector<double> o(static_cast<size_t>(Dv), 0.0);
    for (int64_t j = 0; j < Lkv; ++j) {
      const double w = allowed[j] ? weight(r, s[j]) : 0.0;
      if (w == 0) continue;
      for (int64_t d = 0; d < Dv; ++d) o[d] += w * vrow(b, h / group, j)[d];
    }
    r.delta = dot(dorow(row), o.data(), Dv) - (dLSE.empty() ? 0.0 : dLSE[static_cast<size_t>(row)]);
    // With a +Inf score the weights are locally constant: nothing flows back through the scores.
    if (r.m == INFINITY) return;
    // The sink's buffer gradients are summed in row order after this pass.
    if (has_sink) r.dsink = -weight(r, r.sink) * r.delta;
    std::vector<double> dq(static_cast<size_t>(D), 0.0);
    for (int64_t j = 0; j < Lkv; ++j) {
      const double w = allowed[j] ? weight(r, s[j]) : 0.0;
      if (w == 0) continue;
      p.idx[3] = static_cast<int32_t>(j);
      p.score = raw[j];
      const double ds = w * (dot(dorow(row), vrow(b, h / group, j), Dv) - r.delta) * dscore.eval(p, args);
      for (int64_t d = 0; d < D; ++d) dq[d] += scale * ds * krow(b, h / group, j)[d];
    }
    for (int64_t d = 0; d < D; ++d) out.dq.set(row * D + d, dq[d]);
  });

  // Key-major, in chunks of keys: dK and dV of each key, and each chunk's buffer gradients.
  constexpr int64_t kChunk = 32;
  const int64_t chunks_per_head = (Lkv + kChunk - 1) / kChunk, chunks = B * Hkv * chunks_per_head;
  std::vector<std::vector<std::vector<double>>> partial(static_cast<size_t>(sites.empty() ? 0 : chunks));
  parallel_for(chunks, threads, 1, [&](int64_t c) {
    const int64_t b = c / (Hkv * chunks_per_head), hk = (c / chunks_per_head) % Hkv;
    const int64_t j0 = (c % chunks_per_head) * kChunk, j1 = std::min(Lkv, j0 + kChunk);
    std::vector<std::vector<double>> dbuf;
    if (!sites.empty())
      for (const std::string& name : request.buffers)
        dbuf.emplace_back(static_cast<size_t>(in.buffers.at(name).numel()), 0.0);
    EvalPoint p;
    p.idx[4] = static_cast<int32_t>(Lq), p.idx[5] = static_cast<int32_t>(Lkv);
    for (int64_t j = j0; j < j1; ++j) {
      std::vector<double> dk(static_cast<size_t>(D), 0.0), dv(static_cast<size_t>(Dv), 0.0);
      for (int64_t h = hk * group; h < (hk + 1) * group; ++h)
        for (int64_t qi = 0; qi < Lq; ++qi) {
          if (!at(b, h, qi, j, p)) continue;
          const int64_t row = (b * Hq + h) * Lq + qi;
          const RowStats& r = stats[static_cast<size_t>(row)];
          const double w = weight(r, f32_range(score.eval(p, args)));
          if (w == 0) continue;
          for (int64_t d = 0; d < Dv; ++d) dv[d] += w * dorow(row)[d];
          if (r.m == INFINITY) continue;
          const double dsp = w * (dot(dorow(row), vrow(b, hk, j), Dv) - r.delta);
          const double ds = dsp * dscore.eval(p, args);
          for (int64_t d = 0; d < D; ++d) dk[d] += scale * ds * qrow(row)[d];
          for (const Site& site : sites) {
            const double partial_here = site.partial.eval(p, args);
            // A read in a select's untaken branch has partial 0 and may be out of range.
            if (partial_here == 0) continue;
            dbuf[site.buffer][static_cast<size_t>(element(site, p))] += dsp * partial_here;
          }
        }
      const int64_t key = (b * Hkv + hk) * Lkv + j;
      for (int64_t d = 0; d < D; ++d) out.dk.set(key * D + d, dk[d]);
      for (int64_t d = 0; d < Dv; ++d) out.dv.set(key * Dv + d, dv[d]);
    }
    if (!sites.empty()) partial[static_cast<size_t>(c)] = std::move(dbuf);
  });
  for (size_t i = 0; i < request.buffers.size() && !sites.empty(); ++i) {
    HostTensor& t = out.buffers.at(request.buffers[i]);
    for (int64_t e = 0; e < t.numel(); ++e) {
      double sum = 0;
      for (const auto& chunk : partial) sum += chunk[i][static_cast<size_t>(e)];
      t.set(e, sum);
    }
  }
  // The sink's buffer gradients, row by row in order (one thread: the rows are few).
  if (!sink_sites.empty()) {
    std::vector<std::vector<double>> dbuf;
    for (const std::string& name : request.buffers)
      dbuf.emplace_back(static_cast<size_t>(in.buffers.at(name).numel()), 0.0);
    EvalPoint p;
    p.idx[4] = static_cast<int32_t>(Lq), p.idx[5] = static_cast<int32_t>(Lkv);
    for (int64_t row = 0; row < B * Hq * Lq; ++row) {
      const RowStats& r = stats[static_cast<size_t>(row)];
      p.idx[0] = static_cast<int32_t>(b0 + row / (Hq * Lq)), p.idx[1] = static_cast<int32_t>((row / Lq) % Hq);
      p.idx[2] = static_cast<int32_t>(row % Lq);
      const double ds = r.nan ? NAN : r.dsink;  // +Inf rows: 0, like their scores
      for (const Site& site : sink_sites) {
        const double partial_here = site.partial.eval(p, args);
        if (partial_here == 0) continue;
        dbuf[site.buffer][static_cast<size_t>(element(site, p))] += ds * partial_here;
      }
    }
    for (size_t i = 0; i < request.buffers.size(); ++i) {
      HostTensor& t = out.buffers.at(request.buffers[i]);
      for (int64_t e = 0; e < t.numel(); ++e) t.set(e, t.get(e) + dbuf[i][static_cast<size_t>(e)]);
    }
  }
  return out;
}

}  // namespace

KernelGradients run_reference_backward(const KernelIR& ir, const KernelInputs& in,
                                       const GradientRequest& request, int threads) {
  validate_inputs(ir, in);
  validate_gradient_request(ir, in, request);
  if (!in.ragged()) return dense_backward(ir, in, request, threads, 0);
  // A ragged batch means a batch of one per sequence (docs/language.md, section 8).
  return backward_by_sequence(
      ir, in, request, [&](const KernelInputs& one, const GradientRequest& r, const SequencePlace& at) {
        return dense_backward(ir, one, r, threads, at.b);
      });
}

}  // namespace attn
