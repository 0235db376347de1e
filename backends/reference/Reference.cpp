// The reference: for every (b, h, q) row, every key's score and mask, then a plain softmax.
#include "backends/reference/Reference.h"

#include <array>
#include <cmath>
#include <exception>
#include <mutex>
#include <thread>

#include "backends/io/RaggedBatch.h"
#include "backends/reference/EvalExpr.h"
#include "codegen/KernelIR.h"

namespace attn {

namespace {

/// Where the rows of a call are: a dense batch [B, H, L, D] or a ragged one's packed [T, H, D]
/// (backends/io/RaggedBatch.h); sequence b of a dense batch is batch entry b.
struct RowLayout {
  bool ragged = false, paged = false;
  int64_t Hq = 0, Hkv = 0, Lq = 0, Lkv = 0, page_size = 0;
  std::vector<Sequence> sequences;  // ragged only

  SequencePlace place;  // a dense batch's place (one sequence run as a batch of one)

  RowLayout(const KernelInputs& in, const SequencePlace* at)
      : ragged(in.ragged()), paged(in.paged()), Hq(in.q.shape[1]) {
    Hkv = in.k.shape[paged ? 2 : 1];
    if (ragged)
      sequences = ragged_sequences(in);
    else
      Lq = in.q.shape[2], Lkv = in.k.shape[2];
    if (paged) page_size = in.k.shape[1];
    place = at ? *at : SequencePlace{0, 0, Lq};
  }
  int64_t q_len(int64_t b) const { return ragged ? sequences[size_t(b)].q_len : Lq; }
  int64_t kv_len(int64_t b) const { return ragged ? sequences[size_t(b)].kv_len : Lkv; }
  /// The value of `q_len` in sequence b: its query count, or for a paged sequence (a batch of one
  /// whose queries are its last tokens) its key count.
  int64_t q_len_builtin(int64_t b) const { return paged ? kv_len(b) : ragged ? q_len(b) : place.q_len; }
  /// The position (`q`) of query i of sequence b: a paged sequence's queries are its last tokens.
  int64_t q_pos(int64_t b, int64_t i) const { return ragged ? sequences[size_t(b)].q_pos + i : place.q0 + i; }
  /// The value of `b` of batch entry (sequence) b.
  int64_t b_value(int64_t b) const { return ragged ? b : place.b + b; }
  /// The row index of query i of sequence b, head h, in Q, Out, LSE and max.
  int64_t q_row(int64_t b, int64_t h, int64_t i) const {
    return ragged ? (sequences[size_t(b)].q_first + i) * Hq + h : (b * Hq + h) * Lq + i;
  }
  /// The row index of key j of sequence b, head hk, in K and V: through the page table when paged.
  int64_t kv_row(int64_t b, int64_t hk, int64_t j) const {
    if (paged)
      return (sequences[size_t(b)].pages[size_t(j / page_size)] * page_size + j % page_size) * Hkv + hk;
    return ragged ? (sequences[size_t(b)].kv_first + j) * Hkv + hk : (b * Hkv + hk) * Lkv + j;
  }
};

}  // namespace

KernelOutputs run_reference(const KernelIR& ir, const KernelInputs& in, int threads,
                            const SequencePlace* place) {
  validate_inputs(ir, in);
  const RowLayout layout(in, place);
  const int64_t Hq = in.q.shape[1], D = in.q.shape.back();
  const int64_t Dv = in.v.shape.back();
  const int64_t group = Hq / layout.Hkv;
  const double scale = ir.options.scale ? *ir.options.scale : 1.0 / std::sqrt(static_cast<double>(D));

  CompiledExpr mask(ir.mask, ir), score(ir.score, ir);
  const bool has_sink = ir.sink.defined();
  CompiledExpr sink(has_sink ? ir.sink : Halide::Expr(0.0f), ir);
  ArgValues args;
  for (const KernelArg& a : ir.args) {
    args.buffers.push_back(a.kind == KernelArg::Kind::Buffer ? &in.buffers.at(a.name) : nullptr);
    args.scalars.push_back(a.kind == KernelArg::Kind::Scalar ? in.scalars.at(a.name) : 0.0);
  }

  KernelOutputs result = make_outputs(ir, in);
  if (result.lse.shape.empty()) result.lse = HostTensor(ScalarType::F32, result.out.shape);  // scratch
  if (result.max.shape.empty()) result.max = HostTensor(ScalarType::F32, result.out.shape);

  // Widen inputs once: the reference is about clarity, not memory.
  auto widen = [](const HostTensor& t) {
    std::vector<double> w(static_cast<size_t>(t.numel()));
    for (int64_t i = 0; i < t.numel(); ++i) w[static_cast<size_t>(i)] = t.get(i);
    return w;
  };
  const std::vector<double> Q = widen(in.q), K = widen(in.k), V = widen(in.v);

  // Scores are f32 on every target: a value beyond f32's range is +-Inf there, and here.
  auto f32_range = [](double x) {
    return std::isinf(static_cast<float>(x)) ? std::copysign(INFINITY, x) : x;
  };

  // One row under the non-finite rule (docs/language.md, "Non-finite values"): masked keys are never
  // scored; a NaN score of an allowed key makes the row NaN; a +Inf score takes the whole weight,
  // shared equally by the keys that have one; -Inf scores weigh nothing. The sink is one more key,
  // never masked, whose value is 0 and whose score is the sink's logit.
  // An FP8 kernel's descale factors: Q, K and V are their FP8 values times the factor of their
  // (sequence, key/value head); absent: 1.
  auto descale = [&](const HostTensor& t, int64_t b, int64_t hk) {
    return descale_factor(t, layout.b_value(b), hk, layout.Hkv);
  };

  auto row = [&](int64_t b, int64_t h, int64_t qi, std::vector<double>& s, std::vector<char>& allowed) {
    const int64_t hk = h / group;
    const double qk_descale = descale(in.q_descale, b, hk) * descale(in.k_descale, b, hk);
    const double v_descale = descale(in.v_descale, b, hk);
    const double* qrow = &Q[static_cast<size_t>(layout.q_row(b, h, qi) * D)];
    const int64_t Lkv = layout.kv_len(b);
    EvalPoint p;
    p.idx[0] = static_cast<int32_t>(layout.b_value(b));
    p.idx[1] = static_cast<int32_t>(h);
    p.idx[2] = static_cast<int32_t>(layout.q_pos(b, qi));
    p.idx[4] = static_cast<int32_t>(layout.q_len_builtin(b));
    p.idx[5] = static_cast<int32_t>(Lkv);
    double m = -INFINITY;
    bool nan = false;
    for (int64_t j = 0; j < Lkv; ++j) {
      p.idx[3] = static_cast<int32_t>(j);
      allowed[j] = mask.eval(p, args) != 0;
      if (!allowed[j]) continue;
      const double* krow = &K[static_cast<size_t>(layout.kv_row(b, hk, j) * D)];
      double dot = 0;
      for (int64_t d = 0; d < D; ++d) dot += qrow[d] * krow[d];
      p.score = f32_range(scale * (dot * qk_descale));
      s[j] = f32_range(score.eval(p, args));
      if (std::isnan(s[j])) nan = true;
      if (std::isnan(s[j]) || s[j] == -INFINITY) allowed[j] = 0;
      if (allowed[j]) m = std::max(m, s[j]);
    }
    const double kept_max = nan ? NAN : m;
    double sink_logit = -INFINITY;
    if (has_sink) {
      sink_logit = f32_range(sink.eval(p, args));
      if (std::isnan(sink_logit)) nan = true;
      m = std::max(m, sink_logit);
    }
    std::vector<double> acc(static_cast<size_t>(Dv), 0.0);
    double sum = 0;
    if (!nan && m != -INFINITY) {
      if (sink_logit != -INFINITY)
        sum += m == INFINITY ? (sink_logit == INFINITY ? 1.0 : 0.0) : std::exp(sink_logit - m);
      for (int64_t j = 0; j < Lkv; ++j) {
        if (!allowed[j]) continue;
        double w = m == INFINITY ? (s[j] == INFINITY ? 1.0 : 0.0) : std::exp(s[j] - m);
        if (w == 0) continue;
        sum += w;
        const double* vrow = &V[static_cast<size_t>(layout.kv_row(b, hk, j) * Dv)];
        for (int64_t d = 0; d < Dv; ++d) acc[d] += w * (vrow[d] * v_descale);
      }
    }
    const int64_t o = layout.q_row(b, h, qi);
    // A fully masked row: Out 0 and LSE -inf, never NaN. A NaN score: Out NaN and LSE NaN.
    const double row_nan = nan ? NAN : 0.0;
    for (int64_t d = 0; d < Dv; ++d) result.out.set(o * Dv + d, nan ? row_nan : sum > 0 ? acc[d] / sum : 0.0);
    result.lse.set(o, nan ? row_nan : sum > 0 ? m + std::log(sum) : -INFINITY);
    result.max.set(o, kept_max);
  };

  // Every (sequence, head, query) row: the dense batch's in order, a ragged one's by packed row.
  int64_t longest = 0;  // keys of the longest sequence
  std::vector<std::array<int64_t, 3>> row_list;
  const int64_t sequences = layout.ragged ? int64_t(layout.sequences.size()) : in.q.shape[0];
  for (int64_t b = 0; b < sequences; ++b) {
    longest = std::max(longest, layout.kv_len(b));
    for (int64_t h = 0; h < Hq; ++h)
      for (int64_t i = 0; i < layout.q_len(b); ++i) row_list.push_back({b, h, i});
  }
  const int64_t rows = int64_t(row_list.size());
  int n = threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  n = static_cast<int>(std::min<int64_t>(n, std::max<int64_t>(1, rows / 64)));
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&](int t) {
    std::vector<double> s(static_cast<size_t>(longest));
    std::vector<char> allowed(static_cast<size_t>(longest));
    try {
      for (int64_t r = t; r < rows; r += n) {
        {
          std::lock_guard<std::mutex> lock(error_mutex);
          if (error) return;
        }
        const auto& [b, h, qi] = row_list[size_t(r)];
        row(b, h, qi, s, allowed);
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < n; ++t) pool.emplace_back(work, t);
  work(0);
  for (auto& th : pool) th.join();
  if (error) std::rethrow_exception(error);
  if (!ir.options.lse) result.lse = HostTensor();
  if (!ir.options.return_max) result.max = HostTensor();
  return result;
}

}  // namespace attn
